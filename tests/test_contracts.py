"""The extension contracts are the whole contract: every member the package reads of a
notion, a utility or a column source is declared on its base class (with a default where
a subclass may leave it out), and every member a base declares is read somewhere.

Read from the package's source (ast), independent of what the classes do at run time.
"""

from __future__ import annotations

import ast
import inspect

import pytest

from mechdesign.notions import Notion
from mechdesign.optimal import ColumnSource, Utility
from mechdesign.optimal.sources import PricingSource
from tests.helpers import ROOT

PACKAGE = ROOT / "mechdesign"

#: The names the package gives an object of each contract when it holds one.
HOLDERS = {"notion", "utility", "objective", "source", "oracle"}


def _trees():
    for path in sorted(PACKAGE.rglob("*.py")):
        yield path, ast.parse(path.read_text(encoding="utf-8"))


def test_no_member_of_a_contract_object_is_read_by_name():
    # getattr(notion, "c", None) and hasattr(notion, "vertex_priors") read members the
    # base does not promise: a new notion, utility or source would silently miss them.
    found = []
    for path, tree in _trees():
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in {"getattr", "hasattr"} and len(node.args) >= 2
                    and isinstance(node.args[0], ast.Name) and node.args[0].id in HOLDERS
                    and isinstance(node.args[1], ast.Constant)):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} "
                             f"{node.func.id}({node.args[0].id}, {node.args[1].value!r})")
    assert not found, found


def _declared(base: type) -> set[str]:
    names = set(getattr(base, "__annotations__", {}))
    names |= {name for name, _ in inspect.getmembers(base)
              if not name.startswith("_") and name in vars(base)}
    return {name for name in names if not name.startswith("_")}


def _read_attributes() -> dict[str, int]:
    counts: dict[str, int] = {}
    for _, tree in _trees():
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
                counts[node.attr] = counts.get(node.attr, 0) + 1
    return counts


@pytest.mark.parametrize("base", [Notion, Utility, ColumnSource, PricingSource],
                         ids=lambda base: base.__name__)
def test_every_declared_member_is_read_by_the_package(base):
    read = _read_attributes()
    unused = sorted(name for name in _declared(base) if not read.get(name))
    assert not unused, f"{base.__name__} declares members nothing reads: {unused}"


def test_the_optional_members_have_defaults():
    # What a minimal subclass may leave out answers "nothing known" rather than raising.
    class Bare(Notion):
        epsilon = 1.0
        input_size = None

        def cone(self, n):
            raise NotImplementedError

        def level(self, kernel):
            raise NotImplementedError

        def dobrushin_bound(self, n):
            return None

    bare = Bare()
    assert bare.vertex_bound(4) is None
    assert bare.vertex_priors(4) is None
    assert bare.check_inputs(4) == 4
    assert Utility.prior is None
    assert ColumnSource.columns_per_input is not None
    assert ColumnSource.retries == 0
