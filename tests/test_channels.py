"""Channel measures (mechdesign/measures/channels.py): the capacity's certificate, Sibson's
α-mutual information at its limits, maximal α-leakage between them, and degradation.

Closed forms (BSC, BEC, Z channel, k-RR) and formula cross-checks written apart from the
implementation are in tests/test_channel_references.py."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mechdesign as md


def channels():
    return st.tuples(st.integers(2, 5), st.integers(2, 6), st.integers(0, 2**32 - 1)).map(
        lambda t: np.random.default_rng(t[2]).dirichlet(np.full(t[1], 0.7), size=t[0]))


def mutual_information(k, p):
    q = p @ k
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(k > 0, k * np.log(k / q), 0.0)
    return float(p @ terms.sum(axis=1))


@settings(max_examples=20, deadline=None)
@given(channels())
def test_capacity_is_bracketed_and_bounds_every_prior(k):
    c = md.channel_capacity(k)
    assert c.lower <= c.upper <= c.lower + 1e-9
    assert c.prior.sum() == pytest.approx(1.0)
    assert (c.prior >= 0).all()
    assert mutual_information(k, c.prior) == pytest.approx(c.value, abs=1e-12)
    rng = np.random.default_rng(0)
    for prior in rng.dirichlet(np.ones(k.shape[0]), size=100):
        assert mutual_information(k, prior) <= c.upper + 1e-12


@settings(max_examples=20, deadline=None)
@given(channels(), st.sampled_from([1.5, 2.0, 5.0, 40.0]))
def test_maximal_alpha_leakage_lies_between_capacity_and_maximal_leakage(k, alpha):
    value = md.maximal_alpha_leakage(k, alpha)
    assert md.channel_capacity(k).value - 1e-9 <= value <= md.maximal_leakage(k) + 1e-9
    rng = np.random.default_rng(1)
    for prior in rng.dirichlet(np.ones(k.shape[0]), size=50):
        assert md.sibson_mutual_information(k, prior, alpha) <= value + 1e-9


def test_extreme_orders_take_their_limits():
    k = md.randomized_response(3, 2.0).matrix
    prior = np.array([0.5, 0.3, 0.2])
    limit = md.sibson_mutual_information(k, prior, math.inf)
    assert limit == pytest.approx(md.maximal_leakage(k))      # full support: log Σ max
    assert md.sibson_mutual_information(k, prior, 1e308) == pytest.approx(limit, rel=1e-12)
    assert md.maximal_alpha_leakage(k, 1e308) == pytest.approx(md.maximal_leakage(k), rel=1e-9)
    tiny = np.array([[1 - 1e-300, 1e-300], [1e-300, 1 - 1e-300]])
    assert md.channel_capacity(tiny).value == pytest.approx(math.log(2), abs=1e-9)


def test_degradation_witness_and_refusal():
    rng = np.random.default_rng(2)
    k1 = rng.dirichlet(np.ones(4), size=3)
    r = rng.dirichlet(np.ones(5), size=4)
    found = md.is_degraded(k1, k1 @ r)
    assert found is not None
    assert np.allclose(k1 @ found, k1 @ r, atol=1e-9)
    assert np.allclose(found.sum(axis=1), 1)
    # post-processing never raises the LDP level: 1-LDP k-RR cannot give a 2-LDP one
    strong, weak = md.randomized_response(4, 2.0), md.randomized_response(4, 1.0)
    assert md.is_degraded(weak, strong) is None
    assert md.is_degraded(strong, weak) is not None
    with pytest.raises(md.InvalidInputError, match="K1 and K2"):
        md.is_degraded(np.eye(2), np.eye(3))


def test_bad_orders_are_refused():
    k = md.randomized_response(3, 1.0)
    with pytest.raises(md.InvalidInputError, match="alpha"):
        md.maximal_alpha_leakage(k, 0.5)
    with pytest.raises(md.InvalidInputError, match="alpha"):
        md.sibson_mutual_information(k, np.ones(3) / 3, 0.0)
    with pytest.raises(md.InvalidInputError, match="prior"):
        md.sibson_mutual_information(k, np.ones(2) / 2, 2.0)
