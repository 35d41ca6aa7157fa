"""A griffe extension for the API reference (mkdocs.yml): a package's exports are the
explicit re-exports of its ``if TYPE_CHECKING:`` block, the one list of its public names
that ``mechdesign._lazy.attach`` also reads at run time (its ``__all__`` is computed, so a
static reader does not see it)."""

from __future__ import annotations

import ast
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
