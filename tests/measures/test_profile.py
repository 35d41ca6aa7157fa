"""The privacy profile (mechdesign.measures.profile; envelope paper, Sec. II-B): the best
event, the bounds on the DP failure probability, pure DP, infinities and zeros, and
dp_epsilon as its inverse.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, strategies as st

import mechdesign as md
from tests.helpers import kernels, random_kernel


def _profile_by_events(k: np.ndarray, eps: float) -> float:
    """max over pairs and over every event E of K_x(E) − e^ε K_x'(E), by enumeration."""
    n, m = k.shape
    best = 0.0
    for x, x_other in itertools.permutations(range(n), 2):
        for size in range(m + 1):
            for event in itertools.combinations(range(m), size):
                cols = list(event)
                best = max(best, k[x, cols].sum() - math.exp(eps) * k[x_other, cols].sum())
    return best


def _failure_by_loop(k: np.ndarray, eps: float) -> float:
    n, m = k.shape
    best = 0.0
    for x, x_other in itertools.permutations(range(n), 2):
        total = 0.0
        for y in range(m):
            if k[x, y] == 0:
                continue
            loss = math.inf if k[x_other, y] == 0 else math.log(k[x, y] / k[x_other, y])
            if loss > eps:
                total += k[x, y]
        best = max(best, total)
    return best


@given(kernels(min_size=2, max_size=4), st.floats(0.0, 3.0))
def test_privacy_profile_is_the_best_event(k, eps):
    assert md.privacy_profile(k, eps) == pytest.approx(_profile_by_events(k, eps), abs=1e-12)
    assert md.measures.dp_failure_probability(k, eps) == pytest.approx(
        _failure_by_loop(k, eps), abs=1e-12
    )


@given(kernels(min_size=2, max_size=5), st.floats(0.01, 3.0), st.integers(2, 6))
def test_profile_lower_bounds_failure_and_eq4_upper_bounds_it(k, eps, multiple):
    """δ*(ε) ≤ P{L > ε} (Sec. II-B), and (ε, δ*)-DP gives P{L > kε} ≤ δ*/(1 − e^{−(k−1)ε})
    (eq. 4)."""
    delta = md.privacy_profile(k, eps)
    assert delta <= md.measures.dp_failure_probability(k, eps) + 1e-12
    bound = delta / -math.expm1(-(multiple - 1) * eps)
    assert md.measures.dp_failure_probability(k, multiple * eps) <= bound + 1e-12


def test_pure_dp_has_zero_profile_and_hockey_stick_identity():
    """A kernel with LDP level ε has δ*(ε) = 0, and δ*(ε) is the largest E_{e^ε}."""
    rr = md.randomized_response(4, 1.0)
    assert md.privacy_profile(rr, 1.0) == pytest.approx(0.0, abs=1e-15)
    assert md.measures.dp_failure_probability(rr, 1.0) == pytest.approx(0.0, abs=1e-12)
    assert md.privacy_profile(rr, 0.0) == pytest.approx(md.dobrushin_coefficient(rr), abs=1e-15)
    k = md.reproduce.PAPER_EXAMPLES["envelope-example1"].mechanism.matrix
    eps = 0.3
    expected = max(
        md.measures.hockey_stick_divergence(k[x], k[x_other], math.exp(eps))
        for x, x_other in itertools.permutations(range(4), 2)
    )
    assert md.privacy_profile(k, eps) == pytest.approx(expected, abs=1e-14)


def test_infinite_epsilon_and_zeros():
    k = np.array([[0.5, 0.5, 0.0], [0.0, 0.5, 0.5]])
    # mass of row 0 where row 1 is 0
    assert md.privacy_profile(k, math.inf) == pytest.approx(0.5, abs=1e-12)
    assert md.measures.dp_failure_probability(k, math.inf) == pytest.approx(0.0, abs=1e-12)
    assert md.measures.dp_failure_probability(k, 5.0) == pytest.approx(0.5, abs=1e-12)
    assert md.privacy_profile(k, 800.0) == pytest.approx(0.5, abs=1e-12)  # no overflow
    with pytest.raises(md.InvalidInputError, match="epsilon must be >= 0"):
        md.privacy_profile(k, -1.0)
    with pytest.raises(md.InvalidInputError, match="row-stochastic"):
        md.measures.dp_failure_probability([[0.5, 0.6]], 1.0)


def test_dp_epsilon_inverts_the_privacy_profile():
    """ε_DP(δ) of k-RR is Balle et al.'s log((α − δ)/β) (Sec. V-B); in general the
    profile at dp_epsilon is δ, and is above δ just below it."""
    rr = md.randomized_response(5, 1.0)
    alpha, beta = rr.matrix[0, 0], rr.matrix[0, 1]
    for delta in (0.01, 0.1, 0.2):  # below α − β = 0.256, where the log is positive
        assert md.measures.dp_epsilon(rr, delta) == pytest.approx(
            math.log((alpha - delta) / beta), abs=1e-13
        )
    assert md.measures.dp_epsilon(rr, alpha - beta) == pytest.approx(0.0, abs=1e-12)
    assert md.measures.dp_epsilon(rr, 0.9) == pytest.approx(0.0, abs=1e-12)
    rng = np.random.default_rng(3)
    for _ in range(20):
        k = random_kernel(rng, 3, 4, zeros=0.2)
        for delta in (0.05, 0.3):
            eps = md.measures.dp_epsilon(k, delta)
            if math.isinf(eps):
                assert md.privacy_profile(k, 700.0) > delta
                continue
            assert md.privacy_profile(k, eps) <= delta + 1e-12
            if eps > 1e-9:
                assert md.privacy_profile(k, eps * (1 - 1e-9)) > delta - 1e-12
