"""Closed-form mechanisms against their defining properties in the papers: k-RR,
Remark 2's extremal binary kernels and Example 1's binary (ε, c)-PML kernel (Dobrushin
paper), the PML-extremal mechanism, SRR and independent reporting.

Hardening: bad input is refused by the argument's name, extreme valid input gets the
right answer (checked against an independent value), and sizes that cannot be computed
raise TooLargeError by name (the bad-input battery itself is tests/test_fuzz.py).
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

import mechdesign as md
from mechdesign.errors import InvalidInputError, TooLargeError
from tests.helpers import K2, K3, P3

ATOL = 1e-12


@pytest.mark.parametrize("k", [2, 3, 7])
@pytest.mark.parametrize("epsilon", [0.0, 0.4, 3.0, 800.0])
def test_randomized_response(k, epsilon):
    m = md.randomized_response(k, epsilon).matrix
    growth = math.exp(min(epsilon, 700))
    if epsilon < 700:
        assert m[0, 0] == pytest.approx(growth / (growth + k - 1), rel=1e-14)
        assert md.ldp_level(m) == pytest.approx(epsilon, abs=1e-12)
    assert np.allclose(m.sum(axis=1), 1, rtol=0, atol=ATOL)
    assert np.allclose(m, m.T, rtol=0, atol=0)
    assert np.array_equal(md.randomized_response(k, math.inf).matrix, np.eye(k))


def test_binary_mechanism_with_a_subset():
    m = md.mechanisms.binary_mechanism(math.log(3), [0, 2], n=3).matrix
    assert np.allclose(m, [[0.75, 0.25], [0.25, 0.75], [0.75, 0.25]], rtol=0, atol=ATOL)
    assert md.ldp_level(m) == pytest.approx(math.log(3), abs=ATOL)


def test_binary_mechanism_picks_the_most_balanced_split():
    prior = np.array([0.45, 0.3, 0.15, 0.1])
    m = md.mechanisms.binary_mechanism(1.0, prior=prior)
    # {0, 3} has mass 0.55 and {1, 2} has 0.45; both are 0.05 from 1/2, the best possible.
    best = max(
        md.mutual_information(md.mechanisms.binary_mechanism(1.0, subset, n=4), prior)
        for subset in ([0], [1], [0, 1], [0, 2], [0, 3], [1, 2], [0, 1, 2])
    )
    assert md.mutual_information(m, prior) == pytest.approx(best, rel=1e-12)


def test_binary_mechanism_bad_input():
    with pytest.raises(InvalidInputError, match="exactly one"):
        md.mechanisms.binary_mechanism(1.0)
    with pytest.raises(InvalidInputError, match="needs n"):
        md.mechanisms.binary_mechanism(1.0, [0])
    with pytest.raises(InvalidInputError, match="inputs in"):
        md.mechanisms.binary_mechanism(1.0, [3], n=3)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("epsilon", [0.1, 0.5, 1.0])
@pytest.mark.parametrize("c_times_n", [0.05, 0.3, 0.6])
def test_remark2_kernels_attain_xi(n, epsilon, c_times_n):
    c = c_times_n / n
    for q in md.mechanisms.extremal_binary_valid_q(epsilon, c, n):
        k = md.mechanisms.extremal_binary_mechanism(epsilon, c, n, q)
        assert md.pml_capacity(k, c) <= epsilon + 1e-12
        assert md.dobrushin_coefficient(k) == pytest.approx(
            md.dobrushin_bound(epsilon, c, n), rel=1e-12
        )


def test_remark2_validity_of_q():
    # e^ε c q <= 1 and e^ε c (N − q) <= 1.
    assert md.mechanisms.extremal_binary_valid_q(1.0, 0.1, 4) == [1, 2, 3]
    assert md.mechanisms.extremal_binary_valid_q(math.log(2 / (4 * 0.1)) - 1e-9, 0.1, 4) == [2]
    # Odd N gap (GUIDE trap, corrected): N = 3, c = 1/6, ε = 1.3 has no valid q.
    assert md.mechanisms.extremal_binary_valid_q(1.3, 1 / 6, 3) == []
    with pytest.raises(InvalidInputError, match="Valid q: none"):
        md.mechanisms.extremal_binary_mechanism(1.3, 1 / 6, 3, 1)
    with pytest.raises(InvalidInputError, match="Valid q"):
        md.mechanisms.extremal_binary_mechanism(1.0, 0.1, 4, 4)
    # Any integer type is a q (numpy's too); a bool or a float is not.
    np.testing.assert_array_equal(
        md.mechanisms.extremal_binary_mechanism(1.0, 0.1, 4, np.int64(2)).matrix,
        md.mechanisms.extremal_binary_mechanism(1.0, 0.1, 4, 2).matrix)
    for q in (True, 2.0):
        with pytest.raises(InvalidInputError, match="Valid q"):
            md.mechanisms.extremal_binary_mechanism(1.0, 0.1, 4, q)


def test_eq35_binary_pml_mechanism():
    epsilon, c = 0.8, 0.2
    growth = math.exp(epsilon)
    expected = np.array([[growth * (1 - c), 1 - growth * c], [1 - growth * c, growth * (1 - c)]])
    expected /= growth * (1 - 2 * c) + 1
    assert np.allclose(md.mechanisms.pml_binary_mechanism(epsilon, c).matrix, expected, rtol=0,
                       atol=ATOL)
    # c → 0: Warner's randomized response.
    assert np.allclose(md.mechanisms.pml_binary_mechanism(epsilon, 1e-12).matrix,
                       md.randomized_response(2, epsilon).matrix, rtol=0, atol=1e-11)
    # It is the optimal (ε, c)-PML design on two inputs.
    d = md.design(md.PML(epsilon, c=c), [0.5, 0.5])
    assert d.utility == pytest.approx(
        md.mutual_information(md.mechanisms.pml_binary_mechanism(epsilon, c), [0.5, 0.5]), rel=1e-12
    )


def test_pml_extremal_mechanism_regime():
    prior = np.array([0.5, 0.3, 0.2])
    limit = -math.log(1 - 0.2)
    m = md.mechanisms.pml_extremal_mechanism(0.5 * limit, prior)
    assert md.pml_level(m, prior) == pytest.approx(0.5 * limit, abs=ATOL)
    with pytest.raises(InvalidInputError, match="high-privacy regime"):
        md.mechanisms.pml_extremal_mechanism(limit * (1 + 1e-12), prior)
    with pytest.raises(InvalidInputError, match="high-privacy regime"):
        md.mechanisms.pml_extremal_mechanism(1.0, [1.0, 0.0])


def test_robust_ldp_mechanism_names_name_and_ball():
    ball = md.RenyiBall([0.07, 0.1, 0.26, 0.57], 2.0, 0.05)
    with pytest.raises(InvalidInputError, match=r"\bname\b"):
        md.mechanisms.robust_ldp_mechanism("abc", 1.0, ball, (2, 2))
    zeros = md.RenyiBall([0.5, 0.5, 0.0, 0.0], 2.0, 0.05)
    with pytest.raises(InvalidInputError, match=r"\bball\b"):
        md.mechanisms.robust_ldp_mechanism("PolyOpt", 1.0, zeros, (2, 2))
    with pytest.raises(InvalidInputError, match=r"\bball\b"):
        md.mechanisms.ir_distance_bound(zeros, (2, 2))
    for bad in (None, "abc", md.LDP(1.0)):
        with pytest.raises(InvalidInputError, match=r"\bball\b"):
            md.mechanisms.ir_distance_bound(bad, (2, 2))


# -- hardening: bad input by name, extreme but valid input ----------------------------


def test_remark2_in_log_space_at_large_epsilon():
    assert md.mechanisms.extremal_binary_valid_q(800.0, 0.1, 3) == []  # e^800 · 0.1 > 1
    assert md.mechanisms.extremal_binary_valid_q(1e308, 0.1, 3) == []
    with pytest.raises(InvalidInputError, match="epsilon"):
        md.mechanisms.pml_binary_mechanism(800.0, 0.1)
    # ε = 720 with c = 1e-313: e^ε c ≈ 0.19 (valid), e^ε itself overflows a double.
    eps, c = 720.0, 1e-313
    assert md.mechanisms.extremal_binary_valid_q(eps, c, 3) == [1, 2]
    kernel = md.mechanisms.extremal_binary_mechanism(eps, c, 3, 1).matrix
    mpmath.mp.dps = 50
    g, cc = mpmath.exp(eps), mpmath.mpf(c)
    low = (1 - g * cc) / (1 + g * (1 - 3 * cc))
    high = g * (1 - cc) / (1 + g * (1 - 3 * cc))
    assert kernel[0, 0] == pytest.approx(float(high), rel=1e-12)
    assert kernel[1, 0] == pytest.approx(float(low), rel=1e-9, abs=1e-300)


def test_design_independent_reporting_at_a_huge_epsilon():
    ball = md.RenyiBall([0.07, 0.1, 0.26, 0.57], 2.0, 0.05)
    p = ball.center
    entropy = float(-(p * np.log(p)).sum())
    for eps in (800.0, 1e308):
        ir = md.mechanisms.design_independent_reporting(eps, ball, (2, 2))
        # Near the identity: the mutual information is the prior's entropy.
        assert ir.utility == pytest.approx(entropy, rel=1e-9)
        assert 0.0 <= ir.epsilon2 <= eps


@pytest.mark.parametrize("call", [
    lambda: md.randomized_response(10**12, 1.0),
    lambda: md.mechanisms.secret_randomized_response((10**6, 10**6), 1.0),
    lambda: md.mechanisms.binary_mechanism(1.0, [0], n=10**12),
])
def test_huge_mechanisms_are_too_large(call):
    with pytest.raises(TooLargeError):
        call()


@pytest.mark.parametrize("subset", ["abc", True, [0, 2.5], ["0"], [False], [0, math.nan],
                                    np.array([1j]), [[0, 1], [1]], math.nan])
def test_binary_mechanism_subset_is_checked(subset):
    with pytest.raises(InvalidInputError, match="subset"):
        md.mechanisms.binary_mechanism(1.0, subset, n=3)


def test_independent_reporting_names_and_precision():
    with pytest.raises(InvalidInputError, match="first"):
        md.mechanisms.independent_reporting(None, K3)
    with pytest.raises(InvalidInputError, match="second"):
        md.mechanisms.independent_reporting(K2, "abc")
    ir = md.mechanisms.independent_reporting(K2, K3.astype(np.float32))
    np.testing.assert_allclose(ir.matrix, np.kron(K2, K3), rtol=1e-6, atol=0)


def test_pml_extremal_mechanism_takes_a_float32_prior():
    as64 = md.mechanisms.pml_extremal_mechanism(0.1, P3).matrix
    as32 = md.mechanisms.pml_extremal_mechanism(0.1, P3.astype(np.float32)).matrix
    np.testing.assert_allclose(as32, as64, rtol=1e-6, atol=1e-7)


def _remark2_kernel(epsilon: float, c: float, n: int, q: int) -> np.ndarray:
    """Remark 2 / eq. (33)-(34) of the Dobrushin paper, written out from the paper."""
    e = math.exp(epsilon)
    denominator = 1 + e * (1 - n * c)
    m_low = (1 - e * c * q) / denominator
    m_high = e * (1 - c * q) / denominator
    p = np.array([m_high] * q + [m_low] * (n - q))
    return np.column_stack([p, 1 - p])


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


@pytest.mark.parametrize("n", [3, 5, 7, 9])
@pytest.mark.parametrize("c_fraction", [0.1, 0.4, 0.8])
def test_remark2_odd_n_left_end_has_the_two_middle_q(n, c_fraction):
    """Errata ledger, Dobrushin Remark 2: the empty range for odd N is open on the left.
    At ε = log(2/((N+1)c)) the paper's kernel (written out in _remark2_kernel) has
    entries in [0, 1] exactly for q = (N ± 1)/2, and the library lists those two."""
    c = c_fraction / n
    eps = math.log(2 / ((n + 1) * c))
    if eps <= 0:
        pytest.skip("ε must be positive")
    valid = [q for q in range(1, n)
             if _remark2_kernel(eps, c, n, q).min() >= -1e-12
             and _remark2_kernel(eps, c, n, q).max() <= 1 + 1e-12]
    assert valid == [(n - 1) // 2, (n + 1) // 2]
    assert md.mechanisms.extremal_binary_valid_q(eps, c, n) == valid
    # Just inside the open range, none is valid (and the library agrees).
    inside = eps + 1e-6
    assert md.mechanisms.extremal_binary_valid_q(inside, c, n) == []


def test_example1_binary_mechanism():
    """Dobrushin paper Example 1, eq. (35); c → 0 is Warner's randomized response."""
    eps, c = 0.9, 0.2
    e = math.exp(eps)
    k = np.array([[e * (1 - c), 1 - e * c], [1 - e * c, e * (1 - c)]]) / (e * (1 - 2 * c) + 1)
    assert md.pml_capacity(k, c) == pytest.approx(eps, rel=1e-12)
    assert md.dobrushin_coefficient(k) == pytest.approx(md.dobrushin_bound(eps, c, 2), rel=1e-12)
    rr = np.array([[e, 1], [1, e]]) / (e + 1)
    assert md.dobrushin_coefficient(rr) == pytest.approx((e - 1) / (e + 1), rel=1e-14)


@pytest.mark.parametrize("n", [2, 3, 4, 6, 8])
def test_every_valid_remark2_kernel_passes_audit_and_attains(n):
    for c in (0.01 / n, 0.3 / n, 1.0 / n):
        for eps in (0.05, 0.5, 1.2, 3.0):
            qs = md.mechanisms.extremal_binary_valid_q(eps, c, n)
            for q in qs:
                k = md.mechanisms.extremal_binary_mechanism(eps, c, n, q)
                assert md.PML(eps, c=c).level(k) <= eps + 1e-12
                assert md.dobrushin_coefficient(k) == pytest.approx(
                    md.dobrushin_bound(eps, c, n), rel=1e-12
                )
            for q in set(range(1, n)) - set(qs):
                with pytest.raises(md.InvalidInputError, match="Valid q"):
                    md.mechanisms.extremal_binary_mechanism(eps, c, n, q)


def test_remark2_q_at_equality_is_valid_despite_rounding():
    # ε = log(10/3), c = 0.05, N = 10: e^ε c (N − q) = 1 exactly for q = 4 (and q = 6 by
    # symmetry), which rounds to 1 + 2e-16 in floating point. Remark 2's kernel then has an
    # entry exactly 0 or 1 and still attains Ξ = 7/8 at level ε.
    eps, c, n = math.log(10 / 3), 0.05, 10
    assert md.mechanisms.extremal_binary_valid_q(eps, c, n) == [4, 5, 6]
    for q in (4, 6):
        kernel = md.mechanisms.extremal_binary_mechanism(eps, c, n, q)
        assert kernel.matrix.min() >= 0.0
        assert kernel.matrix.max() <= 1.0
        assert md.dobrushin_coefficient(kernel) == pytest.approx(7 / 8, abs=1e-12)
        assert md.pml_capacity(kernel, c=c) <= eps + 1e-12
