"""benchmarks/workload_factorization.py: the reimplementation of McKenna et al.'s
optimiser (PVLDB 13(11), 2020) gives ε-LDP strategies, its objective is mechdesign's BLUE
error at the uniform prior (the convention the benchmark states), and it never beats the
certified optimum."""

from __future__ import annotations

import importlib.util
import sys

import numpy as np
import pytest

import mechdesign as md
from mechdesign.measures.estimation import blue_error, workload_matrix
from tests.helpers import ROOT

SCRIPT = ROOT / "benchmarks" / "workload_factorization.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("_bench_workload_factorization", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


CASES = [(k, workload, eps) for k in (4, 5) for workload in ("histogram", "prefix", "all-range")
         for eps in (0.5, 1.0, 2.0)]


@pytest.fixture(scope="module")
def strategies(bench):
    """Their strategy (seed 0, their defaults) per case: Q is m × k, columns are inputs."""
    return {case: bench.workload_factorization(workload_matrix(case[1], case[0]), case[2])
            for case in CASES}


@pytest.mark.parametrize(("k", "workload", "eps"), CASES)
def test_strategy_is_ldp_and_stochastic(strategies, k, workload, eps):
    q = strategies[k, workload, eps]
    kernel = q.T  # rows are inputs
    assert kernel.shape[0] == k
    assert kernel.min() >= 0
    np.testing.assert_allclose(kernel.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    assert md.LDP(eps).level(kernel) <= eps + 1e-9


@pytest.mark.parametrize(("k", "workload", "eps"), CASES)
def test_objective_is_the_blue_error_at_the_uniform_prior(bench, strategies, k, workload, eps):
    q = strategies[k, workload, eps]
    w = workload_matrix(workload, k)
    kernel, uniform = q.T, np.full(k, 1.0 / k)
    theirs = bench.average_variance(w, q)
    # Users' histogram: the same number, no conversion.
    assert theirs == pytest.approx(blue_error(kernel, uniform, w), rel=1e-9, abs=1e-12)
    assert theirs == pytest.approx(
        md.estimation_mse(kernel, uniform, 1, estimator="blue", workload=w), rel=1e-9,
        abs=1e-12)
    # Their own estimator, V = W (QᵀD⁻¹Q)⁻¹QᵀD⁻¹, through mechdesign's generic formula.
    assert theirs == pytest.approx(
        md.estimation_mse(kernel, uniform, 1, estimator=bench.estimator_matrix(q, "opt"),
                          workload=w), rel=1e-9, abs=1e-12)
    assert theirs == pytest.approx(float(bench.variance_by_input(w, q).mean()), rel=1e-9,
                                   abs=1e-12)
    # The distribution (i.i.d.) convention adds tr(W diag(p) Wᵀ) − ‖Wp‖².
    assert bench.to_distribution_target(theirs, w) == pytest.approx(
        blue_error(kernel, uniform, w, target="distribution"), rel=1e-9, abs=1e-12)


def test_objective_gradient_matches_finite_differences(bench):
    w = workload_matrix("all-range", 4)
    q = bench.initialize(16, 4, 1.0, seed=3)
    gradient = bench.average_variance_gradient(w, q)
    step = 1e-6
    rng = np.random.default_rng(0)
    for _ in range(5):
        direction = rng.standard_normal(q.shape)
        numeric = (bench.average_variance(w, q + step * direction)
                   - bench.average_variance(w, q - step * direction)) / (2 * step)
        assert float(np.sum(gradient * direction)) == pytest.approx(numeric, rel=1e-5,
                                                                    abs=1e-6)


@pytest.mark.parametrize(("k", "workload"), [(k, workload) for k in (4, 5)
                                             for workload in ("histogram", "prefix",
                                                              "all-range")])
def test_never_below_the_certified_optimum(bench, strategies, k, workload):
    uniform = np.full(k, 1.0 / k)
    w = workload_matrix(workload, k)
    for eps in (0.5, 1.0, 2.0):
        design = md.design(md.LDP(eps), uniform, utility=md.EstimationError(workload),
                           method="enumeration")
        theirs = blue_error(strategies[k, workload, eps].T, uniform, w)
        lower = design.estimation.lower_bound
        assert theirs >= lower - 1e-9 * max(1.0, lower)
        assert design.estimation.upper_bound >= lower
