"""Closed-form mechanisms against their defining properties in the papers."""

from __future__ import annotations

import math

import numpy as np
import pytest

import mechdesign as md
from mechdesign.errors import InvalidInputError

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
