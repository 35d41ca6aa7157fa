"""Channel measures (mechdesign/measures/channels.py): the capacity's certificate, Sibson's
α-mutual information at its limits, maximal α-leakage between them, and degradation.

Closed forms (BSC, BEC, Z channel, k-RR) and formula cross-checks written apart from the
implementation are in tests/test_channel_references.py.

is_less_noisy against references written here: the BEC/BSC thresholds of the
literature (BEC(ε) is less noisy than BSC(δ) iff ε ≤ 4δ(1 − δ), degraded iff ε ≤ 2δ;
Nair, "Capacity regions of two new classes of 2-receiver broadcast channels", IEEE T-IT
2010, and Makur & Polyanskiy, IEEE T-IT 2018), and a brute-force search of the defining
inequality D(PK1 || QK1) >= D(PK2 || QK2) over a grid of binary input distributions.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import mechdesign as md
from mechdesign.errors import InvalidInputError, UnsupportedError


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


def bec(e: float) -> np.ndarray:
    return np.array([[1 - e, e, 0.0], [0.0, e, 1 - e]])


def bsc(d: float) -> np.ndarray:
    return np.array([[1 - d, d], [d, 1 - d]])


def kl(p: np.ndarray, q: np.ndarray) -> float:
    used = p > 0
    return float(np.sum(p[used] * np.log(p[used] / q[used])))


def worst_gap(k1: np.ndarray, k2: np.ndarray, points: int = 121) -> float:
    """min over a grid of binary (P, Q) of D(PK1||QK1) - D(PK2||QK2), relative to the
    larger of the two (negative: not less noisy). The grid reaches within 1e-6 of the
    ends, where erasures make one form grow like 1/t."""
    ends = np.array([1e-6, 1e-5, 1e-4, 1e-3])
    grid = np.unique(np.concatenate([np.linspace(0.0, 1.0, points)[1:-1], ends, 1 - ends]))
    worst = np.inf
    for a in grid:
        p = np.array([1 - a, a])
        for b in grid:
            q = np.array([1 - b, b])
            d1, d2 = kl(p @ k1, q @ k1), kl(p @ k2, q @ k2)
            worst = min(worst, (d1 - d2) / max(d1, d2, 1e-300))
    return worst


@pytest.mark.parametrize("delta", [0.05, 0.1, 0.25, 0.4])
@pytest.mark.parametrize("where", [0.5, 0.99, 1.01, 1.5])
def test_bec_against_bsc_threshold(delta, where):
    """ε = where × 4δ(1 − δ): less noisy below the threshold (by degradation below 2δ,
    otherwise not), not above."""
    threshold = 4 * delta * (1 - delta)
    eps = min(where * threshold, 0.999)
    expected = eps <= threshold
    assert md.measures.is_less_noisy(bec(eps), bsc(delta)) is expected
    assert (md.is_degraded(bec(eps), bsc(delta)) is not None) is (eps <= 2 * delta + 1e-12)


@pytest.mark.parametrize("delta", [0.1, 0.3])
def test_bec_against_bsc_at_the_tangency(delta):
    """At ε = 4δ(1 − δ) the χ² form vanishes at Q uniform (a double root): less noisy."""
    assert md.measures.is_less_noisy(bec(4 * delta * (1 - delta)), bsc(delta)) is True


def test_bsc_is_never_less_noisy_than_a_bec():
    """Near Q = (1, 0) the erasure channel's χ² form grows like 1/t, the BSC's does not."""
    for delta, eps in [(0.1, 0.5), (0.01, 0.99), (0.3, 0.9)]:
        assert md.measures.is_less_noisy(bsc(delta), bec(eps)) is False
        assert worst_gap(bsc(delta), bec(eps)) < 0


def test_order_of_randomized_response():
    strong = md.randomized_response(3, 2.0)
    weak = md.randomized_response(3, 0.5)
    assert md.measures.is_less_noisy(strong, weak) is True     # degraded
    assert md.measures.is_less_noisy(weak, strong) is False
    assert md.measures.is_less_noisy(weak, weak) is True
    assert md.measures.is_less_noisy(weak, np.full((3, 2), 0.5)) is True    # a useless channel


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(0.0, 1.0), min_size=4, max_size=4),
       st.integers(2, 4), st.integers(2, 4), st.randoms(use_true_random=False))
@pytest.mark.slow
def test_binary_inputs_match_the_defining_inequality(weights, m1, m2, rnd):
    """Random binary-input pairs (often nearly comparable: K2 a mix of a post-processing
    of K1 and noise): the verdict agrees with a grid search of the defining inequality,
    up to the grid's resolution (a 'True' never has a clear violation on the grid; a
    'False' has one, or lies within the grid's reach of the boundary)."""
    rng = np.random.default_rng(rnd.getrandbits(32))
    k1 = rng.dirichlet(np.ones(m1), 2)
    post = rng.dirichlet(np.ones(m2), m1)
    noise = rng.dirichlet(np.ones(m2), 2)
    k2 = (1 - weights[0]) * (k1 @ post) + weights[0] * noise
    verdict = md.measures.is_less_noisy(k1, k2)
    gap = worst_gap(k1, k2, points=61)
    if verdict:
        assert gap >= -1e-6, gap
    elif gap >= 0:
        # the violation lies between grid points: a finer grid must see it
        assert worst_gap(k1, k2, points=601) < 1e-9


def test_three_inputs_are_decided_or_refused_by_name():
    """A ternary erasure channel against a ternary symmetric channel: degraded, a
    counterexample, or an UnsupportedError naming why (no proof for N > 2)."""
    def erasure(e):
        return np.hstack([(1 - e) * np.eye(3), np.full((3, 1), e)])

    def symmetric(d):
        return (1 - d) * np.eye(3) + d * (np.ones((3, 3)) - np.eye(3)) / 2

    assert md.measures.is_less_noisy(erasure(0.2), symmetric(0.3)) is True          # degraded
    assert md.measures.is_less_noisy(symmetric(0.05), erasure(0.5)) is False
    with pytest.raises(UnsupportedError, match="not a proof"):
        md.measures.is_less_noisy(erasure(0.5), symmetric(0.3))


def test_refusals():
    with pytest.raises(InvalidInputError, match="same inputs"):
        md.measures.is_less_noisy(np.eye(2), np.eye(3))
