"""docs/extending.md, run as written: a notion, a utility and a column source built from
scratch there, registered, designed with, and then put through the contract battery of
the built-in ones (tests/optimal/test_contract.py)."""

from __future__ import annotations

import re
import sys
import types

import numpy as np
import pytest

from mechdesign.optimal import PRICING_SOURCES
from tests.helpers import ROOT
from tests.optimal import test_contract as battery  # a module: its tests are not re-collected

PAGE = ROOT / "docs" / "extending.md"
BLOCKS = re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)


@pytest.fixture
def extension(monkeypatch):
    """The page's blocks, in order, in one fresh module; the registration they make is
    undone afterwards (the registry is the package's one global table)."""
    saved = dict(PRICING_SOURCES)
    module = types.ModuleType("extending")  # a user's module (dataclasses look it up)
    monkeypatch.setitem(sys.modules, "extending", module)
    try:
        for block in BLOCKS:
            exec(compile(block, str(PAGE), "exec"), module.__dict__)
        yield module.__dict__
    finally:
        PRICING_SOURCES.clear()
        PRICING_SOURCES.update(saved)


def test_the_page_has_a_block_for_each_contract_and_a_design():
    text = "\n".join(BLOCKS)
    for base in ("(Notion)", "(Utility)", "(PricingSource)", "register_source(", "md.design("):
        assert base in text, base


@pytest.mark.parametrize("epsilon", [0.5, 1.0, 2.0])
def test_the_extension_passes_the_contract_battery(extension, epsilon):
    prior = np.array([0.05, 0.25, 0.3, 0.15, 0.25])
    instance = battery.Instance(f"line-{epsilon}", extension["LineLDP"](epsilon),
                        extension["ChiSquaredInformation"](prior))
    battery.test_pricing_source_contract(instance)
    for method in ("column_generation", "enumeration"):
        battery.test_design_contract(instance, method)


def test_the_registration_is_undone_after_each_test():
    # runs after the tests above in this module: the registry holds the built-in entries
    assert not any(notion.__module__ == "extending" for notion, _ in PRICING_SOURCES)
