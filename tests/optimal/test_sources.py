"""Column sources (mechdesign.optimal.sources): reduced costs rescored at a new dual, an
unknown method refused, and the abstract bases.
"""

from __future__ import annotations

import math
import sys

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import mechdesign as md
from mechdesign.optimal import (
    GainSource,
    PatternSource,
    Pricing,
)
from tests.helpers import mutual_information_of_columns

# -- the column sources ------------------------------------------------------------------


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


def test_the_abstract_bases_declare_what_the_pipeline_reads():
    from mechdesign.optimal import ColumnSource, PricingSource, check_column_source

    assert {"initial_columns", "values", "heuristic", "price", "describe"} == set(
        ColumnSource.__abstractmethods__)
    assert {"from_problem", "supports"} <= set(PricingSource.__abstractmethods__)
    source = PatternSource(md.LDP(1.0), np.full(3, 1 / 3))
    assert check_column_source(source) is source
    # The defaults a subclass inherits (GainSource keeps them): no closed-form
    # dual, no bound besides its exact pricing.
    gain = GainSource(md.LDP(1.0), md.GainUtility.bayes(np.full(3, 1 / 3)))
    assert gain.certified_dual() is None
    assert gain.upper_bound(1e-6, None) == math.inf
    with pytest.raises(md.InvalidInputError, match="source must be a column source"):
        check_column_source(object())
