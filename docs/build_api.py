"""Build the browsable API reference with pdoc: ``python docs/build_api.py [--out DIR]``.

Every public module of mechdesign (no leading underscore) is rendered with numpy-style
docstrings and KaTeX math (``.. math::`` blocks and inline LaTeX) into ``DIR``
(default ``docs/api``; open ``DIR/index.html``). pdoc's warnings are errors here, and
``tests/test_api_docs.py`` builds the reference the same way.
"""

from __future__ import annotations

import argparse
import pkgutil
import warnings
from pathlib import Path

import pdoc
import pdoc.render

import mechdesign


def public_modules() -> list[str]:
    """``mechdesign`` and its public submodules, by name."""
    names = ["mechdesign"]
    for info in pkgutil.walk_packages(mechdesign.__path__, "mechdesign."):
        if not any(part.startswith("_") for part in info.name.split(".")):
            names.append(info.name)
    return names


def build(out: Path) -> list[str]:
    """Render the reference into ``out``; return pdoc's warnings (as text)."""
    pdoc.render.configure(docformat="numpy", math=True, search=True)
    # The package imports its public names on first use (PEP 562); pdoc reads the
    # package's namespace directly, so resolve every name before it looks.
    for name in mechdesign.__all__:
        getattr(mechdesign, name)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pdoc.pdoc(*public_modules(), output_directory=out)
    return [str(w.message) for w in caught]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(Path(__file__).resolve().parent / "api"))
    args = parser.parse_args()
    problems = build(Path(args.out))
    for message in problems:
        print(f"warning: {message}")
    print(f"API reference in {Path(args.out) / 'index.html'}")
    if problems:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
