"""The one registry table (mechdesign.optimal.registry): which pricing source serves
which notion and utility, looked up through the notion's method resolution order."""

from __future__ import annotations

import numpy as np
import pytest

import mechdesign as md
from mechdesign.optimal import (
    PRICING_SOURCES,
    GainSource,
    LinearisationSource,
    MutualInformationUtility,
    PatternSource,
    register_source,
    source_class,
)


def test_sources_are_registered_by_notion_type():
    from mechdesign.notions import NonRobustLDP, SecretLDP
    from mechdesign.optimal import source_class

    ball = md.RenyiBall(np.full(4, 0.25), 2.0, 0.01)
    assert source_class(md.LDP(1.0)) is PatternSource
    assert source_class(md.PML(1.0, c=0.1)) is PatternSource
    assert source_class(NonRobustLDP(1.0, np.full(4, 0.25), (2, 2))) is PatternSource
    assert source_class(md.RobustLDP(1.0, ball, (2, 2))) is LinearisationSource
    assert source_class(SecretLDP(1.0, (2, 2))) is None
    gain = md.GainUtility.bayes(np.full(4, 0.25))
    assert source_class(md.LDP(1.0), gain) is GainSource
    assert source_class(md.PML(1.0, c=0.1), md.GainUtility) is GainSource
    assert source_class(NonRobustLDP(1.0, np.full(4, 0.25), (2, 2)), gain) is None
    with pytest.raises(md.UnsupportedError, match="vertex patterns are known"):
        md.design(SecretLDP(1.0, (2, 2)), np.full(4, 0.25), method="column_generation")


def test_a_subclass_of_a_registered_notion_is_served_by_its_base_source(monkeypatch):
    class StricterLDP(md.LDP):
        """An ε-LDP with a name of its own (a user's extension)."""

    monkeypatch.setattr("mechdesign.optimal.registry.PRICING_SOURCES", dict(PRICING_SOURCES))
    assert source_class(StricterLDP(1.0)) is PatternSource
    register_source(StricterLDP, LinearisationSource)
    assert source_class(StricterLDP(1.0)) is LinearisationSource  # its own entry first
    assert source_class(md.LDP(1.0)) is PatternSource  # the base keeps its source


@pytest.mark.parametrize(
    ("args", "match"),
    [((str, PatternSource), "notion_type"),
     ((md.LDP, object), "source"),
     ((md.LDP, PatternSource, dict), "utility_type"),
     ((md.LDP(1.0), PatternSource), "notion_type")],
)
def test_register_source_refuses_what_is_not_a_subclass_by_name(args, match):
    before = dict(PRICING_SOURCES)
    with pytest.raises(md.InvalidInputError, match=match):
        register_source(*args)
    assert before == PRICING_SOURCES  # nothing registered


def test_the_table_is_filled_without_importing_any_source_module_for_its_side_effects():
    # Every entry is written in the table itself (no decorator elsewhere adds one).
    import inspect

    import mechdesign.optimal.registry as registry

    source = inspect.getsource(registry)
    for (notion, utility), pricing in PRICING_SOURCES.items():
        assert f"({notion.__name__}, {utility.__name__}): {pricing.__name__}" in source
    assert MutualInformationUtility in {u for _, u in PRICING_SOURCES}
    assert np.all([isinstance(k, tuple) for k in PRICING_SOURCES])
