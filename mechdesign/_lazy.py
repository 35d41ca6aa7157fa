"""Lazy package namespaces (PEP 562).

A package lists, module by module, the public names it re-exports; each is imported
from its module on first use and then cached on the package, so that importing a
package costs only what is used (``import mechdesign`` and the command line's ``--help``
load no scipy, pandas, cvxpy or matplotlib).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from typing import Any

__all__ = ["attach"]


def attach(
    package: str, exports: dict[str, tuple[str, ...]]
) -> tuple[Callable[[str], Any], Callable[[], list[str]], list[str]]:
    """``(__getattr__, __dir__, __all__)`` for ``package`` re-exporting ``exports``
    (module name relative to the package → the names it contributes).

    An attribute that is no listed name but a submodule (``mechdesign.measures.leakage``)
    is imported as the submodule; anything else raises :class:`AttributeError`.
    """
    source = {name: module for module, names in exports.items() for name in names}
    if len(source) != sum(map(len, exports.values())):
        raise ValueError(f"{package}: a name is exported by two modules")

    def __getattr__(name: str) -> Any:
        if name in source:
            value = getattr(importlib.import_module(f"{package}.{source[name]}"), name)
            setattr(sys.modules[package], name, value)
            return value
        if not name.startswith("__"):
            try:
                return importlib.import_module(f"{package}.{name}")
            except ModuleNotFoundError as exc:
                if exc.name != f"{package}.{name}":
                    raise  # the submodule exists, one of its own imports is missing
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(source))

    return __getattr__, __dir__, sorted(source)
