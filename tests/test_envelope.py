"""Tests of the privacy profile and the DP failure probability (envelope paper, Sec. II-B)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import mechdesign as md
from tests.conftest import kernels


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
    assert md.dp_failure_probability(k, eps) == pytest.approx(_failure_by_loop(k, eps), abs=1e-12)


@given(kernels(min_size=2, max_size=5), st.floats(0.01, 3.0), st.integers(2, 6))
def test_profile_lower_bounds_failure_and_eq4_upper_bounds_it(k, eps, multiple):
    """δ*(ε) ≤ P{L > ε} (Sec. II-B), and (ε, δ*)-DP gives P{L > kε} ≤ δ*/(1 − e^{−(k−1)ε})
    (eq. 4)."""
    delta = md.privacy_profile(k, eps)
    assert delta <= md.dp_failure_probability(k, eps) + 1e-12
    bound = delta / -math.expm1(-(multiple - 1) * eps)
    assert md.dp_failure_probability(k, multiple * eps) <= bound + 1e-12


def test_pure_dp_has_zero_profile_and_hockey_stick_identity():
    """A kernel with LDP level ε has δ*(ε) = 0, and δ*(ε) is the largest E_{e^ε}."""
    rr = md.randomized_response(4, 1.0)
    assert md.privacy_profile(rr, 1.0) == pytest.approx(0.0, abs=1e-15)
    assert md.dp_failure_probability(rr, 1.0) == 0.0
    assert md.privacy_profile(rr, 0.0) == pytest.approx(md.dobrushin_coefficient(rr), abs=1e-15)
    k = md.PAPER_EXAMPLES["envelope-example1"].mechanism.matrix
    eps = 0.3
    expected = max(
        md.hockey_stick_divergence(k[x], k[x_other], math.exp(eps))
        for x, x_other in itertools.permutations(range(4), 2)
    )
    assert md.privacy_profile(k, eps) == pytest.approx(expected, abs=1e-14)


def test_infinite_epsilon_and_zeros():
    k = np.array([[0.5, 0.5, 0.0], [0.0, 0.5, 0.5]])
    assert md.privacy_profile(k, math.inf) == 0.5  # mass of row 0 where row 1 is 0
    assert md.dp_failure_probability(k, math.inf) == 0.0
    assert md.dp_failure_probability(k, 5.0) == 0.5
    assert md.privacy_profile(k, 800.0) == 0.5  # no overflow
    with pytest.raises(md.InvalidInputError, match="epsilon must be >= 0"):
        md.privacy_profile(k, -1.0)
    with pytest.raises(md.InvalidInputError, match="row-stochastic"):
        md.dp_failure_probability([[0.5, 0.6]], 1.0)
