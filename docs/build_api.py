"""Build the browsable API reference with pdoc: ``python docs/build_api.py [--out DIR]``.

Every public module of mechdesign (no leading underscore) is rendered with numpy-style
docstrings and KaTeX math (``.. math::`` blocks and inline LaTeX) into ``DIR``
(default ``docs/api``; open ``DIR/index.html``). pdoc's warnings are errors here, and
``tests/test_api_docs.py`` builds the reference the same way.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import re
import warnings
from pathlib import Path

import pdoc
import pdoc.render

import mechdesign


def public_modules() -> list[str]:
    """``mechdesign`` and its public submodules, by name (without the deprecated ones
    that only point to where their contents moved, ``MOVED_TO``)."""
    names = ["mechdesign"]
    for info in pkgutil.walk_packages(mechdesign.__path__, "mechdesign."):
        if any(part.startswith("_") for part in info.name.split(".")):
            continue
        if getattr(importlib.import_module(info.name), "MOVED_TO", None) is None:
            names.append(info.name)
    return names


#: A footnote anchor as pdoc's markdown renders a numpy References entry (``.. [1]``):
#: ``id="fn-1"``, ``id="fnref-1"`` and the links to them.
_FOOTNOTE = re.compile(r'(id="|href="#)(fn|fnref)-')
_DOCSTRING = '<div class="docstring">'


def unique_footnotes(html: str) -> str:
    """``html`` with each docstring's footnote anchors numbered apart from the others'.

    pdoc renders every docstring on its own, so the ``[1]`` of each function on a page
    gets the same ids (``fn-1``) and every link jumped to the first function's reference.
    The anchors of the k-th docstring of a page become ``fn-k-1``, ``fnref-k-1``, ...
    """
    head, *docstrings = html.split(_DOCSTRING)
    return head + "".join(_DOCSTRING + _FOOTNOTE.sub(rf"\g<1>\g<2>-{k}-", part)
                          for k, part in enumerate(docstrings, 1))


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
    for page in out.rglob("*.html"):
        page.write_text(unique_footnotes(page.read_text(encoding="utf-8")), encoding="utf-8")
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
