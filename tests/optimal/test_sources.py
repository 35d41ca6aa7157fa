"""Column sources (mechdesign.optimal.sources): registered by notion type, reduced costs
rescored at a new dual, and an unknown method refused.
"""

from __future__ import annotations

import math
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mechdesign as md
from mechdesign.optimal import (
    GainPricingOracle,
    LinearisationOracle,
    Pricing,
    PricingOracle,
)
from tests.helpers import mutual_information_of_columns

# -- the column sources ------------------------------------------------------------------


def test_sources_are_registered_by_notion_type():
    from mechdesign.notions import NonRobustLDP, SecretLDP
    from mechdesign.optimal import source_class

    ball = md.RenyiBall(np.full(4, 0.25), 2.0, 0.01)
    assert source_class(md.LDP(1.0)) is PricingOracle
    assert source_class(md.PML(1.0, c=0.1)) is PricingOracle
    assert source_class(NonRobustLDP(1.0, np.full(4, 0.25), (2, 2))) is PricingOracle
    assert source_class(md.RobustLDP(1.0, ball, (2, 2))) is LinearisationOracle
    assert source_class(SecretLDP(1.0, (2, 2))) is None
    gain = md.GainUtility.bayes(np.full(4, 0.25))
    assert source_class(md.LDP(1.0), gain) is GainPricingOracle
    assert source_class(md.PML(1.0, c=0.1), md.GainUtility) is GainPricingOracle
    assert source_class(NonRobustLDP(1.0, np.full(4, 0.25), (2, 2)), gain) is None
    with pytest.raises(md.UnsupportedError, match="vertex patterns are known"):
        md.design(SecretLDP(1.0, (2, 2)), np.full(4, 0.25), method="column_generation")


def test_column_source_refuses_an_unknown_method():
    from mechdesign.optimal import column_source

    objective = md.optimal.MutualInformationUtility(np.full(4, 0.25))
    with pytest.raises(md.InvalidInputError, match="method must be 'enumeration' or"):
        column_source(md.LDP(1.0), objective, "auto")


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 8))
def test_rescored_reduced_costs_are_those_at_the_new_dual(seed, n):
    """A pricing done at λ' and rescored at λ carries μ(v) − λ·v, from the definition."""
    cg_module = sys.modules["mechdesign.optimal.column_generation"]
    rng = np.random.default_rng(seed)
    prior = rng.dirichlet(np.ones(n))
    columns = rng.dirichlet(np.ones(n), size=5)
    values = mutual_information_of_columns(prior, columns)
    priced_at, dual = rng.normal(size=(2, n))
    pricing = Pricing(columns, values - columns @ priced_at, math.inf, False, 0)
    rescored = cg_module._rescored(pricing, priced_at, dual)
    expected = values - columns @ dual
    order = np.argsort(-expected, kind="stable")
    assert np.allclose(rescored.reduced_costs, expected[order], atol=1e-12)
    assert np.allclose(rescored.columns, columns[order])
