"""Lazy package namespaces (PEP 562), declared once for readers, type checkers and the
interpreter alike.

A package's ``__init__.py`` lists its public names in an ``if TYPE_CHECKING:`` block of
explicit re-exports (``from mechdesign.measures.channels import Capacity as Capacity``,
PEP 484's form, which type checkers and editors read), and ends with::

    __getattr__, __dir__, __all__ = attach(__name__, __file__)

:func:`attach` reads that block from the file itself, so the list is written once: at run
time each name is imported from its module on first use and then cached on the package,
so that importing a package costs only what is used (``import mechdesign`` and the
command line's ``--help`` load no scipy, pandas, cvxpy or matplotlib).
"""

from __future__ import annotations

import ast
import importlib
import sys
import warnings
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

__all__ = ["attach", "declared_exports", "deprecated_names", "moved_module"]


def declared_exports(package: str, file: str) -> dict[str, str]:
    """Public name → the module it is imported from, read from the ``if TYPE_CHECKING:``
    block of ``file`` (the ``__init__.py`` of ``package``).

    Every import there must be an explicit re-export, ``from module import name as
    name``; a name imported twice, under another name, or relatively is refused
    (:class:`ValueError`), since the block is the package's one list of its names.
    """
    tree = ast.parse(Path(file).read_text(encoding="utf-8"))
    sources: dict[str, str] = {}
    for node in tree.body:
        if not (isinstance(node, ast.If) and isinstance(node.test, ast.Name)
                and node.test.id == "TYPE_CHECKING"):
            continue
        for statement in node.body:
            if not (isinstance(statement, ast.ImportFrom) and statement.level == 0
                    and statement.module):
                raise ValueError(f"{package}: the TYPE_CHECKING block holds only "
                                 f"absolute 'from module import name as name' lines "
                                 f"(line {statement.lineno})")
            for alias in statement.names:
                if alias.asname != alias.name:
                    raise ValueError(f"{package}: write 'import {alias.name} as "
                                     f"{alias.name}' (an explicit re-export), line "
                                     f"{statement.lineno}")
                if alias.name in sources:
                    raise ValueError(f"{package}: {alias.name} is exported twice")
                sources[alias.name] = statement.module
    return sources


def attach(
    package: str, file: str, *, moved: Mapping[str, str] | None = None,
    computed: Mapping[str, Callable[[], Any]] | None = None,
) -> tuple[Callable[[str], Any], Callable[[], list[str]], list[str]]:
    """``(__getattr__, __dir__, __all__)`` for ``package``, whose public names are the
    explicit re-exports of the ``if TYPE_CHECKING:`` block of ``file``
    (:func:`declared_exports`).

    An attribute that is no listed name but a submodule (``mechdesign.measures.leakage``)
    is imported as the submodule. ``moved`` maps names that left the namespace to the
    module they live in now (``"mechdesign.priors"``): for one release they still answer,
    with a :class:`DeprecationWarning` naming the new place. ``computed`` maps further
    public names to functions computing them on first use (``__version__``). Anything
    else raises :class:`AttributeError`.
    """
    source = declared_exports(package, file)
    moved = dict(moved or {})
    computed = dict(computed or {})
    moved_name = deprecated_names(package, {name: f"{where}.{name}" for name, where in
                                            moved.items()}, stacklevel=3)  # from __getattr__

    def __getattr__(name: str) -> Any:
        if name in source:
            value = getattr(importlib.import_module(source[name]), name)
        elif name in computed:
            value = computed[name]()
        elif name in moved:
            return moved_name(name)
        elif not name.startswith("__"):
            try:
                return importlib.import_module(f"{package}.{name}")
            except ModuleNotFoundError as exc:
                if exc.name != f"{package}.{name}":
                    raise  # the submodule exists, one of its own imports is missing
                raise AttributeError(
                    f"module {package!r} has no attribute {name!r}") from None
        else:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(source) | set(computed))

    return __getattr__, __dir__, sorted([*source, *computed])


def moved_module(old: str, new: str) -> Callable[[str], Any]:
    """``__getattr__`` for a module that moved from ``old`` to ``new``: for one release
    every name (public or not) still answers at the old path, with a
    :class:`DeprecationWarning` naming the new one."""

    def __getattr__(name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(f"module {old!r} has no attribute {name!r}")
        warnings.warn(
            f"{old} is deprecated: use {new} (the old module will be removed in the next "
            "release)",
            DeprecationWarning,
            stacklevel=2,
        )
        return getattr(importlib.import_module(new), name)

    return __getattr__


def deprecated_names(module: str, targets: Mapping[str, str], *, stacklevel: int = 2
                     ) -> Callable[[str], Any]:
    """``__getattr__`` for a module whose names ``targets`` left it: each maps an old name
    to where the object lives now, ``"package.module.Name"`` (moved, renamed, or both).
    For one release every old name still answers, with a :class:`DeprecationWarning`
    naming the new place, attributed ``stacklevel`` frames up (the caller's line when
    Python calls it for an attribute access)."""

    def __getattr__(name: str) -> Any:
        if name not in targets:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        where, _, new = targets[name].rpartition(".")
        warnings.warn(
            f"{module}.{name} is deprecated: use {targets[name]} (the old name will be "
            "removed in the next release)",
            DeprecationWarning,
            stacklevel=stacklevel,
        )
        return getattr(importlib.import_module(where), new)

    return __getattr__
