"""Tests of the Dobrushin coefficient and the closed form Ξ(ε, c) of Theorem 1."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import mechdesign as md
from tests.conftest import distributions, kernels


def _remark2_kernel(epsilon: float, c: float, n: int, q: int) -> np.ndarray:
    """Remark 2 / eq. (33)-(34) of the Dobrushin paper, written out from the paper."""
    e = math.exp(epsilon)
    denominator = 1 + e * (1 - n * c)
    m_low = (1 - e * c * q) / denominator
    m_high = e * (1 - c * q) / denominator
    p = np.array([m_high] * q + [m_low] * (n - q))
    return np.column_stack([p, 1 - p])


def test_dobrushin_coefficient_against_pairwise_loop():
    rng = np.random.default_rng(0)
    k = rng.dirichlet(np.ones(5), size=6)
    expected = max(
        0.5 * sum(abs(k[i, y] - k[j, y]) for y in range(5))
        for i, j in itertools.combinations(range(6), 2)
    )
    assert md.dobrushin_coefficient(k) == pytest.approx(expected, rel=1e-14)
    assert md.dobrushin_coefficient(np.eye(3)) == 1.0
    assert md.dobrushin_coefficient(np.full((3, 2), 0.5)) == 0.0
    assert md.dobrushin_coefficient([[0.3, 0.7]]) == 0.0


@given(st.data())
def test_dobrushin_coefficient_is_the_tv_contraction_coefficient(data):
    """TV(PK, QK) ≤ η_TV(K) TV(P, Q) for all P, Q (eq. 2 and 9)."""
    k = data.draw(kernels())
    p = data.draw(distributions(k.shape[0]))
    q = data.draw(distributions(k.shape[0]))
    eta = md.dobrushin_coefficient(k)
    assert md.total_variation(p @ k, q @ k) <= eta * md.total_variation(p, q) + 1e-12


@given(kernels(), st.floats(0.05, 1.0))
def test_theorem1_holds_for_every_kernel(k, fraction):
    """Theorem 1: a kernel whose (ε,c)-PML level is ε has η_TV(K) ≤ Ξ(ε, c)."""
    n = k.shape[0]
    c = fraction / n
    eps = md.pml_capacity(k, c)
    assert md.dobrushin_coefficient(k) <= md.dobrushin_bound(eps, c, n) * (1 + 1e-9) + 1e-12


# Remark 2 with q needs m ≥ 0 and M ≤ 1, i.e. e^ε c max(q, N − q) ≤ 1; q = ⌊N/2⌋ is the
# best choice and is valid iff e^ε c ⌈N/2⌉ ≤ 1.
REMARK2_CASES = [
    (n, c_fraction, eps)
    for n in (2, 3, 5, 8)
    for c_fraction in (0.01, 0.5, 1.0)
    for eps in (0.1, 0.6, 1.3, 4.0)
    if math.exp(eps) * (c_fraction / n) * math.ceil(n / 2) <= 1
]


@pytest.mark.parametrize(("n", "c_fraction", "eps"), REMARK2_CASES)
def test_remark2_kernel_attains_the_bound(n, c_fraction, eps):
    """Remark 2's kernel with q = ⌊N/2⌋ is (ε,c)-PML with level exactly ε and attains Ξ."""
    c = c_fraction / n
    k = _remark2_kernel(eps, c, n, n // 2)
    assert md.pml_capacity(k, c) == pytest.approx(eps, rel=1e-12)
    assert md.dobrushin_coefficient(k) == pytest.approx(md.dobrushin_bound(eps, c, n), rel=1e-12)


@pytest.mark.parametrize(("n", "c_fraction", "eps"), [(3, 0.5, 1.3), (3, 1.0, 0.6), (5, 1.0, 0.6)])
def test_remark2_has_no_valid_q_for_odd_n_just_below_the_threshold(n, c_fraction, eps):
    """For odd N and log(2/((N+1)c)) < ε < log(2/(Nc)) (Theorem 3's regime), every q of
    Remark 2 gives an entry outside [0, 1]: "q = ⌊N/2⌋ works whenever ε < log(2/(Nc))"
    holds for even N only. (Ξ is still attained there, by a three-level kernel.)"""
    c = c_fraction / n
    assert eps < math.log(2 / (n * c))
    for q in range(1, n):
        p = _remark2_kernel(eps, c, n, q)[:, 0]
        assert p.min() < 0 or p.max() > 1


def test_example1_binary_mechanism():
    """Dobrushin paper Example 1, eq. (35); c → 0 is Warner's randomized response."""
    eps, c = 0.9, 0.2
    e = math.exp(eps)
    k = np.array([[e * (1 - c), 1 - e * c], [1 - e * c, e * (1 - c)]]) / (e * (1 - 2 * c) + 1)
    assert md.pml_capacity(k, c) == pytest.approx(eps, rel=1e-12)
    assert md.dobrushin_coefficient(k) == pytest.approx(md.dobrushin_bound(eps, c, 2), rel=1e-12)
    rr = np.array([[e, 1], [1, e]]) / (e + 1)
    assert md.dobrushin_coefficient(rr) == pytest.approx((e - 1) / (e + 1), rel=1e-14)


def test_bound_special_values():
    eps = 0.8
    e = math.exp(eps)
    # c → 0: the LDP value of Kairouz et al. (eq. 13).
    assert md.dobrushin_bound(eps, 1e-15, 4) == pytest.approx((e - 1) / (e + 1), rel=1e-12)
    # c = 1/N: e^ε − 1 (Remark 1), capped at 1.
    assert md.dobrushin_bound(0.3, 0.25, 4) == pytest.approx(math.expm1(0.3), rel=1e-14)
    assert md.dobrushin_bound(2.0, 0.25, 4) == 1.0
    # The bound reaches 1 exactly at ε = log(2/(Nc)) (Theorem 2's threshold).
    n, c = 5, 0.05
    threshold = math.log(2 / (n * c))
    assert md.dobrushin_bound(threshold, c, n) == pytest.approx(1.0, rel=1e-14)
    assert md.dobrushin_bound(threshold * 0.999, c, n) < 1.0
    assert md.dobrushin_bound(threshold + 1, c, n) == 1.0
    assert md.dobrushin_bound(0.0, c, n) == 0.0
    assert md.dobrushin_bound(math.inf, c, n) == 1.0
    assert md.dobrushin_bound(800.0, c, n) == 1.0  # no overflow


@given(st.floats(0.0, 10.0), st.floats(0.0, 10.0), st.floats(0.01, 1.0), st.integers(1, 20))
def test_bound_monotone_in_epsilon(e1, e2, fraction, n):
    c = fraction / n
    low, high = sorted((e1, e2))
    assert md.dobrushin_bound(low, c, n) <= md.dobrushin_bound(high, c, n) + 1e-15


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        ((-0.1, 0.1, 4), "epsilon must be >= 0"),
        ((math.nan, 0.1, 4), "epsilon must be >= 0"),
        ((1.0, 0.0, 4), "c must satisfy"),
        ((1.0, 0.3, 4), "c must satisfy"),
        ((1.0, -0.1, 4), "c must satisfy"),
        ((1.0, 0.1, 0), "n must be a positive integer"),
        ((1.0, 0.1, 2.5), "n must be a positive integer"),
        (("1", 0.1, 4), "epsilon must be a real number"),
    ],
)
def test_bound_validation(args, fragment):
    with pytest.raises(md.InvalidInputError, match=fragment):
        md.dobrushin_bound(*args)
