"""is_less_noisy against references written here: the BEC/BSC thresholds of the
literature (BEC(ε) is less noisy than BSC(δ) iff ε ≤ 4δ(1 − δ), degraded iff ε ≤ 2δ;
Nair, "Capacity regions of two new classes of 2-receiver broadcast channels", IEEE T-IT
2010, and Makur & Polyanskiy, IEEE T-IT 2018), and a brute-force search of the defining
inequality D(PK1 || QK1) >= D(PK2 || QK2) over a grid of binary input distributions."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mechdesign as md
from mechdesign.errors import InvalidInputError, UnsupportedError


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
