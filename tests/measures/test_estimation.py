"""Estimation error (mechdesign.measures.estimation): workloads, the BLUE and its exact
error.

The independent reference (an A-optimal program over brute-force vertices, written from
the formula) is tests/test_estimation_reference.py; here: closed forms, the Gauss–Markov
properties, the issue's printed numbers and two code paths of the error. The
estimation-optimal design is tested in tests/optimal/test_estimation.py.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import mechdesign as md
from mechdesign.measures.estimation import (
    blue_error,
    blue_estimator,
    information_matrix,
    workload_matrix,
)

RTOL = 1e-9


# -- workloads ----------------------------------------------------------------------------


def test_workloads_are_the_queries_they_name():
    n = 5
    assert np.array_equal(workload_matrix(None, n), np.eye(n))
    assert np.array_equal(workload_matrix("histogram", n), np.eye(n))
    prefix = workload_matrix("prefix", n)
    for row in range(n):  # row l counts inputs 0..l
        assert np.array_equal(prefix[row], (np.arange(n) <= row).astype(float))
    ranges = workload_matrix("all-range", n)
    assert ranges.shape == (n * (n + 1) // 2, n)
    intervals = {(int(np.flatnonzero(r)[0]), int(np.flatnonzero(r)[-1])) for r in ranges}
    assert intervals == {(i, j) for i in range(n) for j in range(i, n)}
    for r in ranges:  # each row is one contiguous interval
        ones = np.flatnonzero(r)
        assert np.array_equal(ones, np.arange(ones[0], ones[-1] + 1))
    marginals = workload_matrix("marginals", 6, shape=(2, 3))
    # inputs (a, b) in C order: x = 3a + b; rows: a = 0, a = 1, b = 0, b = 1, b = 2
    expected = [[1, 1, 1, 0, 0, 0], [0, 0, 0, 1, 1, 1], [1, 0, 0, 1, 0, 0],
                [0, 1, 0, 0, 1, 0], [0, 0, 1, 0, 0, 1]]
    assert np.array_equal(marginals, expected)


@pytest.mark.parametrize(("workload", "kwargs", "match"), [
    ("cdf", {}, "workload"),
    ("marginals", {}, "shape"),
    ("marginals", {"shape": (2, 2)}, "shape"),
    ("prefix", {"shape": (2, 3)}, "shape"),
    (np.ones(6), {}, "workload"),
    (np.ones((2, 5)), {}, "workload"),
    (np.zeros((2, 6)), {}, "workload"),
    ([["a"] * 6], {}, "workload"),
])
def test_bad_workloads_are_refused_by_name(workload, kwargs, match):
    with pytest.raises(md.InvalidInputError, match=match):
        workload_matrix(workload, 6, **kwargs)


# -- the BLUE -------------------------------------------------------------------------------


def _random_kernel(rng, n, m):
    return rng.dirichlet(np.ones(m), size=n)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 5), extra=st.integers(0, 4))
def test_blue_is_unbiased_and_best_among_unbiased_estimators(seed, n, extra):
    # Gauss–Markov: every unbiased E = E* + Z (K Z = 0) has Eᵀ D E = J⁻¹ + Zᵀ D Z ⪰ J⁻¹.
    rng = np.random.default_rng(seed)
    k = _random_kernel(rng, n, n + extra)
    p = rng.dirichlet(np.ones(n))
    e = blue_estimator(k, p)
    np.testing.assert_allclose(k @ e, np.eye(n), atol=1e-9)
    d = np.diag(p @ k)
    cov = e.T @ d @ e
    np.testing.assert_allclose(cov, np.linalg.inv(information_matrix(k, p)), rtol=1e-7,
                               atol=1e-9)
    null = np.eye(k.shape[1]) - np.linalg.pinv(k) @ k  # projects onto {z : K z = 0}
    z = null @ rng.normal(size=(k.shape[1], n))
    other = e + z
    np.testing.assert_allclose(k @ other, np.eye(n), atol=1e-8)
    excess = other.T @ d @ other - cov
    assert np.linalg.eigvalsh((excess + excess.T) / 2).min() >= -1e-9


def test_blue_of_a_square_kernel_is_its_inverse():
    k = md.randomized_response(5, 1.0).matrix
    p = md.comparison.zipf_prior(5)
    np.testing.assert_allclose(blue_estimator(k, p), np.linalg.inv(k), atol=1e-12)


def test_a_kernel_that_cannot_identify_the_distribution_has_no_blue():
    k = np.array([[0.5, 0.5], [0.5, 0.5], [0.2, 0.8]])
    p = np.full(3, 1 / 3)
    with pytest.raises(md.InvalidInputError, match="kernel"):
        blue_estimator(k, p)
    assert blue_error(k, p) == math.inf
    assert md.estimation_mse(k, p, 10, estimator="blue") == math.inf


# -- its error: two code paths, the issue's numbers ------------------------------------------


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 5), extra=st.integers(0, 3),
       workload=st.sampled_from([None, "prefix", "all-range"]),
       target=st.sampled_from(["histogram", "distribution"]))
def test_blue_error_is_estimation_mse_of_the_blue(seed, n, extra, workload, target):
    # tr(W J⁻¹ Wᵀ) − tr(W diag(p) Wᵀ) (closed form) against the general error formula of
    # estimation_mse (variance given the inputs plus bias) with the estimator E* Wᵀ.
    rng = np.random.default_rng(seed)
    k = _random_kernel(rng, n, n + extra)
    p = rng.dirichlet(np.ones(n))
    closed = blue_error(k, p, workload, target=target)
    general = md.estimation_mse(k, p, 1, estimator=blue_estimator(k, p), workload=workload,
                                target=target)
    assert general == pytest.approx(closed, rel=1e-7)
    assert md.estimation_mse(k, p, 7, estimator="blue", workload=workload,
                             target=target) == pytest.approx(closed / 7, rel=1e-7)


def test_distribution_target_adds_the_multinomial_term():
    rng = np.random.default_rng(3)
    k, p = _random_kernel(rng, 4, 6), rng.dirichlet(np.ones(4))
    w = workload_matrix("prefix", 4)
    term = float(np.trace(w @ (np.diag(p) - np.outer(p, p)) @ w.T))
    assert blue_error(k, p, "prefix", target="distribution") == pytest.approx(
        blue_error(k, p, "prefix") + term, rel=RTOL)


def test_the_issues_protocol_numbers():
    # Issue 37 (computed independently): k = 8, ε = 1, Zipf(1.1), n·MSE against the users'
    # histogram with the BLUE: k-RR 27.11, OUE 25.56 (standard estimator 30.46), subset
    # selection 21.3488.
    p = md.comparison.zipf_prior(8)
    assert blue_error(md.randomized_response(8, 1.0), p) == pytest.approx(27.11, abs=5e-3)
    oue = md.unary_encoding(8, 1.0)
    assert blue_error(oue, p) == pytest.approx(25.56, abs=5e-3)
    assert md.estimation_mse(oue, p, 1) == pytest.approx(30.46, abs=5e-3)
    assert blue_error(md.subset_selection(8, 1.0), p) == pytest.approx(21.3488, abs=5e-5)


def test_randomized_responses_blue_is_its_standard_estimator():
    # k-RR is square and invertible: its one unbiased estimator is the standard one, whose
    # variance is Wang et al.'s closed form (FrequencyOracle.variance).
    k, eps = 6, 0.7
    p = md.comparison.zipf_prior(k)
    grr = md.mechanisms.generalized_randomized_response(k, eps)
    assert blue_error(grr, p) == pytest.approx(md.estimation_mse(grr, p, 1), rel=1e-9)


def test_post_processing_never_lowers_the_error():
    # J(K R) ⪯ J(K) for a stochastic R (the data-processing inequality of Fisher
    # information: K R's columns are mixtures of K's, and x xᵀ/t is jointly convex).
    rng = np.random.default_rng(11)
    for _ in range(20):
        k = _random_kernel(rng, 4, 7)
        r = _random_kernel(rng, 7, 5)
        p = rng.dirichlet(np.ones(4))
        assert blue_error(k @ r, p, "prefix") >= blue_error(k, p, "prefix") - 1e-9


def test_a_workload_of_lower_rank_is_measured_by_blue_error_on_a_regular_kernel():
    # One-way marginals of a 2 × 3 alphabet have rank 1 + 1 + 2 = 4 < 6; on a kernel
    # that identifies the histogram, J⁺ = J⁻¹ (tests/optimal/test_estimation_rank.py
    # checks kernels that identify the marginals only).
    p = np.full(6, 1 / 6)
    w = workload_matrix("marginals", 6, shape=(2, 3))
    k = md.randomized_response(6, 1.0)
    expected = float(np.trace(w @ (np.linalg.inv(information_matrix(k, p)) - np.diag(p))
                              @ w.T))
    assert blue_error(k, p, "marginals", shape=(2, 3)) == pytest.approx(expected, rel=1e-12)
