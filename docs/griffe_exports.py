"""A griffe extension for the API reference (mkdocs.yml).

- A package's exports are the explicit re-exports of its ``if TYPE_CHECKING:`` block, the
  one list of its public names that ``mechdesign._lazy.attach`` also reads at run time
  (its ``__all__`` is computed, so a static reader does not see it).
- A docstring's ``.. math::`` blocks (numpy style) become ``$$ … $$`` blocks, which
  pymdownx.arithmatex hands to MathJax.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import griffe


class DeclaredExports(griffe.Extension):
    """Set each module's ``exports`` from its ``TYPE_CHECKING`` re-exports, if any."""

    def on_module_members(self, *, mod: griffe.Module, **kwargs) -> None:
        if mod.filepath is None or isinstance(mod.filepath, list):
            return
        tree = ast.parse(Path(mod.filepath).read_text(encoding="utf-8"))
        names = [alias.name for node in tree.body
                 if isinstance(node, ast.If) and isinstance(node.test, ast.Name)
                 and node.test.id == "TYPE_CHECKING"
                 for statement in node.body if isinstance(statement, ast.ImportFrom)
                 for alias in statement.names if alias.asname == alias.name]
        if names:
            mod.exports = names


#: ``.. math::`` and its indented block (blank lines inside it allowed).
_MATH = re.compile(r"^([ \t]*)\.\. math::[ \t]*\n((?:[ \t]*\n)*(?:\1[ \t]+\S.*\n|[ \t]*\n)*)",
                   re.MULTILINE)


def math_blocks(text: str) -> str:
    """``text`` with every ``.. math::`` block as a ``$$`` display block."""

    def display(match: re.Match) -> str:
        indent = match.group(1)
        body = [line.strip() for line in match.group(2).splitlines() if line.strip()]
        return f"{indent}$$\n" + "".join(f"{indent}{line}\n" for line in body) + (
            f"{indent}$$\n\n")

    return _MATH.sub(display, text if text.endswith("\n") else text + "\n")


class DisplayMath(griffe.Extension):
    """Turn the numpy-style ``.. math::`` blocks of every docstring into ``$$`` blocks."""

    def on_object(self, *, obj: griffe.Object, **kwargs) -> None:
        if obj.docstring is not None and ".. math::" in obj.docstring.value:
            obj.docstring.value = math_blocks(obj.docstring.value).rstrip("\n")
