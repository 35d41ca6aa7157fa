"""Workloads of rank below N (one-way marginals of a product alphabet): the error
tr(W J⁺ Wᵀ) of the estimator unbiased for W f only, checked against a constrained least
squares written here, and the design against an A-optimal program over every vertex
written here from the formula, and against kernels built here."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import mechdesign as md
from mechdesign.measures.estimation import (
    blue_error,
    blue_estimator,
    error_by_input,
    workload_matrix,
)


def _attribute_sampling(shape, epsilon):
    """Each user reports one attribute, chosen uniformly, by k-RR at ε on its values:
    output (a, y). ε-LDP (every output's column has two levels, ratio e^ε); it identifies
    every one-way marginal but not the joint distribution."""
    index = list(itertools.product(*(range(s) for s in shape)))
    columns = []
    for a, size in enumerate(shape):
        e = math.exp(epsilon)
        for y in range(size):
            columns.append([(e if x[a] == y else 1.0) / (e + size - 1) / len(shape)
                            for x in index])
    return np.array(columns).T


def _product_rr(shape, epsilon):
    """Every attribute by k-RR at ε / (number of attributes), the tuple reported."""
    kernel = np.ones((1, 1))
    for size in shape:
        kernel = np.kron(kernel, md.randomized_response(size, epsilon / len(shape)).matrix)
    return kernel


def _least_squares_error(kernel, p, w):
    """min Σ_y r_y ‖e_y‖² s.t. K E = Wᵀ, column by column from the KKT system (solved
    by least squares: it is singular when K is), less Σ_x p_x ‖W_{:,x}‖²."""
    r = p @ kernel
    n, m = kernel.shape
    kkt = np.block([[2 * np.diag(r), kernel.T], [kernel, np.zeros((n, n))]])
    total = 0.0
    for query in w:
        solution = np.linalg.lstsq(kkt, np.concatenate([np.zeros(m), query]), rcond=None)[0]
        e = solution[:m]
        assert np.allclose(kernel @ e, query, atol=1e-9)  # unbiased: solvable
        total += float(r @ e**2)
    return total - float(np.sum(w * w * p))


@pytest.mark.parametrize("shape", [(2, 3), (2, 2, 2), (3, 4)])
@pytest.mark.parametrize("epsilon", [0.5, 2.0])
def test_the_error_of_a_kernel_that_identifies_only_the_marginals(shape, epsilon):
    n = math.prod(shape)
    p = np.random.default_rng(n).dirichlet(np.ones(n))
    kernel = _attribute_sampling(shape, epsilon)
    assert np.linalg.matrix_rank(kernel) < n  # the joint distribution is not identified
    w = workload_matrix("marginals", n, shape=shape)
    error = blue_error(kernel, p, "marginals", shape=shape)
    assert error == pytest.approx(_least_squares_error(kernel, p, w), rel=1e-9)
    estimator = blue_estimator(kernel, p, "marginals", shape=shape)
    assert estimator.shape == (kernel.shape[1], w.shape[0])
    np.testing.assert_allclose(kernel @ estimator, w.T, atol=1e-10)
    # the error against the histogram is linear in it: p · a_x is the error at p
    by_input = error_by_input(kernel, estimator, "marginals", shape=shape)
    assert p @ by_input == pytest.approx(error, rel=1e-9)
    with pytest.raises(md.InvalidInputError, match="input distribution"):
        blue_estimator(kernel, p)  # the histogram has no unbiased estimator


def test_a_kernel_that_misses_an_attribute_does_not_identify_the_marginals():
    shape, n = (2, 3), 6
    p = np.full(n, 1 / n)
    # reports attribute 0 only: nothing about attribute 1's marginal
    kernel = np.kron(md.randomized_response(2, 1.0).matrix, np.ones((3, 1)))
    assert blue_error(kernel, p, "marginals", shape=shape) == math.inf
    with pytest.raises(md.InvalidInputError, match="workload's answers"):
        blue_estimator(kernel, p, "marginals", shape=shape)
    # yet the marginal it does report is identified
    w = workload_matrix("marginals", n, shape=shape)[:2]
    assert math.isfinite(blue_error(kernel, p, w))


def test_error_by_input_refuses_a_biased_estimator_of_the_answers():
    shape, n = (2, 3), 6
    kernel = _attribute_sampling(shape, 1.0)
    estimator = blue_estimator(kernel, np.full(n, 1 / n), "marginals", shape=shape)
    with pytest.raises(md.InvalidInputError, match="unbiased"):
        error_by_input(kernel, 1.01 * estimator, "marginals", shape=shape)
    with pytest.raises(md.InvalidInputError, match="shape"):
        error_by_input(kernel, estimator[:, :3], "marginals", shape=shape)


def _independent_optimum(p, w, epsilon):
    """The A-optimal program over every vertex of the ε-LDP section, from the formula:
    min tr(W J⁺ Wᵀ) over θ ≥ 0 with Σ θ_v v = 1, J = Σ θ_v v vᵀ, the vertices
    u/(p·u) with u ∈ {1, e^ε}^N not constant (cvxpy's matrix_frac is the Schur
    complement, so a singular J is allowed where W's rows lie in its range).

    Returns the optimum and how well it is known: the program's value is the error plus
    Σ p_x ‖W_{:,x}‖² (about the number of attributes), and an interior point knows that
    sum to ~1e-10 relative, so at large ε, where the error is ~1e-4, the subtraction
    leaves ~1e-6 relative (measured 2e-6 with cvxpy 1.5's Clarabel at ε = 12)."""
    import cvxpy as cp

    n = p.shape[0]
    patterns = np.array([z for z in itertools.product((0, 1), repeat=n) if 0 < sum(z) < n])
    u = np.where(patterns == 1, 1.0, math.exp(-epsilon))  # {e^−ε, 1}: the same rays
    vertices = u / (u @ p)[:, None]
    theta = cp.Variable(vertices.shape[0], nonneg=True)
    j = vertices.T @ cp.diag(theta) @ vertices
    problem = cp.Problem(cp.Minimize(cp.matrix_frac(w.T, j)), [vertices.T @ theta == 1])
    problem.solve(solver=cp.CLARABEL)
    assert problem.status == "optimal"
    offset = float(np.sum(w * w * p))
    return problem.value - offset, 1e-9 * problem.value


CASES = [((2, 3), 1.0), ((2, 3), 4.0), ((2, 2, 2), 2.0), ((2, 2, 2), 8.0), ((3, 3), 0.5),
         ((3, 3), 12.0)]


@pytest.mark.parametrize(("shape", "epsilon"), CASES)
def test_the_marginals_design_is_certified_and_agrees_with_every_vertex(shape, epsilon):
    n = math.prod(shape)
    p = np.random.default_rng(7 * n).dirichlet(np.ones(n))
    d = md.design(md.LDP(epsilon), p, utility=md.EstimationError("marginals", shape=shape),
                  method="enumeration")
    report = d.estimation
    assert d.audit_passed
    optimum, known = _independent_optimum(p, workload_matrix("marginals", n, shape=shape),
                                          epsilon)
    # the reference is an interior point at Clarabel's default tolerance: its rows sum to
    # one within ~1e-7 (measured), so its value is known to about that, not to rounding
    assert report.lower_bound <= optimum * (1 + 1e-6) + known
    assert d.utility == pytest.approx(optimum, rel=1e-6, abs=known)
    assert report.gap <= 1e-6 * d.utility
    # the returned kernel's error, recomputed from it, is the upper end
    assert blue_error(d.mechanism, p, "marginals", shape=shape) == pytest.approx(
        d.utility, rel=1e-9)
    # kernels built here are feasible: no better than the certified lower end, and the
    # design no worse than they are
    for kernel in (_attribute_sampling(shape, epsilon), _product_rr(shape, epsilon)):
        error = blue_error(kernel, p, "marginals", shape=shape)
        assert report.lower_bound <= error * (1 + 1e-9)
        assert d.utility <= error * (1 + 1e-9)


def test_the_design_answers_the_workload_and_says_the_histogram_is_not_identified():
    shape, n = (2, 3), 6
    p = np.random.default_rng(1).dirichlet(np.ones(n))
    d = md.design(md.LDP(1.0), p, utility=md.EstimationError("marginals", shape=shape))
    assert np.linalg.matrix_rank(d.mechanism.matrix) < n  # the optimum leaves it so
    estimator = d.workload_estimator
    np.testing.assert_allclose(d.mechanism.matrix @ estimator,
                               workload_matrix("marginals", n, shape=shape).T, atol=1e-9)
    a = error_by_input(d.mechanism, estimator, "marginals", shape=shape)
    assert p @ a == pytest.approx(d.utility, rel=1e-9)
    with pytest.raises(md.UnsupportedError, match="workload_estimator"):
        _ = d.estimator


@pytest.mark.slow
def test_column_generation_certifies_the_marginals_of_a_4_by_4_alphabet():
    shape, n = (4, 4), 16
    p = md.comparison.zipf_prior(n)
    d = md.design(md.LDP(2.0), p, utility=md.EstimationError("marginals", shape=shape))
    assert d.method == "column_generation"
    assert d.estimation.status == md.Status.OPTIMAL
    for kernel in (_attribute_sampling(shape, 2.0), _product_rr(shape, 2.0)):
        assert d.utility <= blue_error(kernel, p, "marginals", shape=shape) * (1 + 1e-9)


def test_a_worst_case_marginals_design_brackets_the_minimax_error():
    shape, n = (2, 3), 6
    error = md.EstimationError("marginals", shape=shape, worst_case=True, inputs=n)
    d = md.design(md.LDP(1.0), None, utility=error)
    report = d.estimation
    assert 0 < report.lower_bound <= d.utility
    # the upper end is the returned kernel's worst input with its fixed estimator
    uniform = np.full(n, 1 / n)
    a = error_by_input(d.mechanism, blue_estimator(d.mechanism, uniform, "marginals",
                                                   shape=shape), "marginals", shape=shape)
    assert d.utility == pytest.approx(a.max(), rel=1e-9)
    # a kernel built here, with its own BLUE at the uniform prior, is no better than the
    # lower end at its worst input
    kernel = _attribute_sampling(shape, 1.0)
    b = error_by_input(kernel, blue_estimator(kernel, uniform, "marginals", shape=shape),
                       "marginals", shape=shape)
    assert report.lower_bound <= b.max() * (1 + 1e-9)


def test_workload_inverse_refuses_bad_matrices_by_name():
    from mechdesign.measures.estimation import workload_inverse

    with pytest.raises(md.InvalidInputError, match="square"):
        workload_inverse(np.ones((2, 3)), np.ones((1, 3)))
    with pytest.raises(md.InvalidInputError, match="symmetric"):
        workload_inverse(np.array([[1.0, 2.0], [0.0, 1.0]]), np.eye(2))
    # a regular J: the inverse itself; a singular one missing the workload: None
    j = np.array([[2.0, 1.0], [1.0, 2.0]])
    np.testing.assert_allclose(workload_inverse(j, np.eye(2)) @ j, np.eye(2), atol=1e-12)
    assert workload_inverse(np.diag([1.0, 0.0]), np.array([[0.0, 1.0]])) is None
