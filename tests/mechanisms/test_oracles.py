"""Implicit frequency oracles (mechdesign.mechanisms.oracles) against the dense kernels and against
simulation.

References independent of mechdesign.mechanisms.oracles: the dense kernels of
mechdesign.mechanisms.protocols (built entry by entry from each protocol's definition) through
estimation_mse (the error of any kernel and linear estimator, computed from the kernel);
report indices written here from each protocol's output order; Monte Carlo estimates of
the error with their standard errors.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import mechdesign as md
from mechdesign.mechanisms.oracles import PureOracle, implicit_protocols

SMALL = [(3, 0.5), (5, 1.0), (8, 2.0), (4, 3.0)]
NAMES = ["GRR", "OUE", "SUE (RAPPOR)", "subset selection", "OLH", "Hadamard response"]


def dirichlet(k: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).dirichlet(np.ones(k))


@pytest.mark.parametrize(("k", "eps"), SMALL)
@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("target", ["histogram", "distribution"])
def test_closed_forms_equal_the_dense_kernels(k, eps, name, target):
    oracle = implicit_protocols(k, eps)[name]()
    dense = oracle.dense()
    prior = dirichlet(k, k)
    n = 777
    exact = md.estimation_mse(dense, prior, n, target=target)
    assert oracle.mse(prior, n, target=target) == pytest.approx(exact, rel=1e-12)
    # p and q: the support probabilities from the dense kernel and its estimator
    # (E[y, v] = (1[v ∈ supp y] − q)/(p − q), so 1[v ∈ supp y] = E (p − q) + q)
    supported = dense.estimator * oracle.gap + oracle.q
    np.testing.assert_allclose(supported, np.round(supported), atol=1e-9)
    np.testing.assert_allclose(prior @ dense.matrix @ np.round(supported),
                               oracle.support_probabilities(prior), rtol=1e-12)
    if oracle.blocks > 1:  # Hadamard response in blocks: not pure, a signed support
        assert dense.support is None
        assert set(np.unique(np.round(supported))) <= {-1.0, 0.0, 1.0}
    else:
        assert dense.support == pytest.approx((oracle.p, oracle.q), rel=1e-12)
    assert dense.n_outputs == oracle.n_outputs


def _dense_index(oracle: PureOracle, reports: np.ndarray) -> np.ndarray:
    """The dense kernel's output index of each report, from the protocols' output
    orders as documented in mechdesign.mechanisms.protocols."""
    k = oracle.k
    if oracle.family in ("grr", "hadamard"):
        return reports
    if oracle.family == "unary":  # bit j of the index is input j's bit
        bits = np.unpackbits(reports, axis=1, count=k).astype(np.int64)
        return bits @ (1 << np.arange(k))
    if oracle.family == "subset":  # itertools.combinations order
        order = {c: i for i, c in enumerate(itertools.combinations(range(k), oracle.parameter))}
        return np.array([order[tuple(row)] for row in reports])
    g = oracle.parameter  # (h, b) → h·g + b, h the index of a in itertools.product order
    a, bucket = reports[:, :-1], reports[:, -1]
    digits = a.shape[1]
    h = a @ (g ** np.arange(digits - 1, -1, -1))
    return h * g + bucket


@pytest.mark.parametrize("name", NAMES)
def test_sampled_reports_follow_the_dense_kernel(name):
    k, eps, draws = 5, 1.0, 60_000
    oracle = implicit_protocols(k, eps)[name]()
    dense = oracle.dense()
    rng = np.random.default_rng(3)
    for x in range(k):
        reports = oracle.sample(np.full(draws, x), rng)
        counts = np.bincount(_dense_index(oracle, reports), minlength=dense.n_outputs)
        expected = draws * dense.matrix[x]
        # every output within 5 standard deviations, and a chi-square far from its tail
        sd = np.sqrt(expected * (1 - dense.matrix[x]))
        assert np.all(np.abs(counts - expected) <= 5 * sd + 1e-9)
        chi2 = float(np.sum((counts - expected) ** 2 / expected))
        assert chi2 < dense.n_outputs + 6 * math.sqrt(2 * dense.n_outputs)


@pytest.mark.parametrize("name", NAMES)
def test_support_counts_equal_the_dense_supports(name):
    k, eps = 6, 2.0
    oracle = implicit_protocols(k, eps)[name]()
    dense = oracle.dense()
    reports = oracle.sample(np.random.default_rng(1).integers(0, k, 500), 2)
    supported = np.round(dense.estimator * oracle.gap + oracle.q).astype(np.int64)
    expected = supported[_dense_index(oracle, reports)].sum(axis=0)
    np.testing.assert_array_equal(oracle.support_counts(reports), expected)
    np.testing.assert_allclose(oracle.estimate(reports),
                               dense.estimate(_dense_index(oracle, reports)), rtol=1e-12)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("k", [40, 100])
def test_monte_carlo_error_matches_the_closed_form(name, k):
    # A fixed population of n users; R independent rounds of reports; the mean squared
    # error against the population's histogram within 4 standard errors of the formula.
    eps, n, rounds = 2.0, 2_000, 300
    oracle = implicit_protocols(k, eps)[name]()
    rng = np.random.default_rng(k)
    x = rng.choice(k, size=n, p=md.comparison.zipf_prior(k))
    histogram = np.bincount(x, minlength=k) / n
    errors = np.array([np.sum((oracle.estimate(oracle.sample(x, rng)) - histogram) ** 2)
                       for _ in range(rounds)])
    exact = oracle.mse(histogram, n)
    se = errors.std(ddof=1) / math.sqrt(rounds)
    assert abs(errors.mean() - exact) <= 4 * se


def test_fresh_hash_olh_is_unbiased_and_a_fixed_family_is_not():
    # Per-user hashes: the mean estimate over many rounds is the histogram (every input
    # within 4.5 standard errors). A fixed family of 8 random functions: the exact error
    # (estimation_mse, bias included) is far above the variance alone.
    k, eps, n, rounds = 40, 2.0, 1_000, 400
    oracle = md.local_hashing(k, eps)
    assert isinstance(oracle, PureOracle)
    rng = np.random.default_rng(7)
    x = rng.choice(k, size=n, p=md.comparison.zipf_prior(k))
    histogram = np.bincount(x, minlength=k) / n
    estimates = np.array([oracle.estimate(oracle.sample(x, rng)) for _ in range(rounds)])
    se = estimates.std(axis=0, ddof=1) / math.sqrt(rounds)
    assert np.all(np.abs(estimates.mean(axis=0) - histogram) <= 4.5 * se)
    fixed = md.local_hashing(k, eps, md.mechanisms.hash_family(k, oracle.parameter, size=8, seed=0))
    big_n = 10**6
    assert md.estimation_mse(fixed, histogram, big_n) > 3 * oracle.mse(histogram, big_n)


def test_closed_forms_at_ten_thousand_inputs_are_finite_and_ordered():
    k, eps = 10_000, 2.0
    prior = md.comparison.zipf_prior(k)
    errors = {name: o().mse(prior, 10**6) for name, o in implicit_protocols(k, eps).items()}
    assert all(math.isfinite(v) and v > 0 for v in errors.values())
    # Wang et al.: OUE and OLH have the same variance to first order at large k, and
    # both beat GRR by far when k ≫ e^ε.
    assert errors["GRR"] > 10 * errors["OUE"]
    assert errors["OLH"] == pytest.approx(errors["OUE"], rel=0.1)


def test_bad_reports_and_inputs_are_refused_by_name():
    oracle = PureOracle.unary(10, 1.0)
    with pytest.raises(md.InvalidInputError, match="reports"):
        oracle.estimate(np.zeros((3, 5), dtype=np.uint8))
    with pytest.raises(md.InvalidInputError, match="x"):
        oracle.sample([0, 10])
    with pytest.raises(md.InvalidInputError, match="subset_size"):
        PureOracle.subset(10, 1.0, 10)
    with pytest.raises(md.InvalidInputError, match="buckets"):
        PureOracle.hashing(10, 1.0, 1)
    with pytest.raises(md.InvalidInputError, match="target"):
        oracle.mse(np.full(10, 0.1), 5, target="population")


@pytest.mark.parametrize(("k", "eps"), SMALL)
@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("workload", ["prefix", "random"])
@pytest.mark.parametrize("target", ["histogram", "distribution"])
def test_workload_errors_equal_the_dense_kernels(k, eps, name, workload, target):
    oracle = implicit_protocols(k, eps)[name]()
    dense = oracle.dense()
    prior = dirichlet(k, 10 + k)
    w = np.random.default_rng(k).normal(size=(3, k)) if workload == "random" else workload
    exact = md.estimation_mse(dense, prior, 50, workload=w, target=target)
    assert oracle.mse(prior, 50, target=target, workload=w) == pytest.approx(exact, rel=1e-10)


@pytest.mark.parametrize(("k", "eps"), [*SMALL, (6, 0.05), (8, 6.0), (12, 4.0)])
@pytest.mark.parametrize("name", ["GRR", "OUE", "SUE (RAPPOR)"])
@pytest.mark.parametrize("workload", [None, "prefix"])
def test_blue_errors_equal_the_dense_kernels(k, eps, name, workload):
    # Unary encoding's information matrix is an integral (a Laplace transform over the
    # independent bits); the dense kernel's J is a sum over its 2^k outputs.
    oracle = implicit_protocols(k, eps)[name]()
    prior = np.random.default_rng(k).dirichlet(0.5 * np.ones(k))
    exact = md.estimation_mse(oracle.dense(), prior, 1, estimator="blue", workload=workload)
    assert oracle.blue_mse(prior, 1, workload=workload) == pytest.approx(exact, rel=1e-10)
    assert oracle.blue_mse(prior, 1, workload=workload) <= oracle.mse(
        prior, 1, workload=workload) * (1 + 1e-12)


@pytest.mark.parametrize("optimized", [True, False])
def test_blue_estimates_at_forty_inputs_match_their_exact_error(optimized):
    # The BLUE applied report by report: unbiased, and its Monte Carlo error within 4
    # standard errors of blue_mse (which is below the standard estimator's).
    k, eps, n, rounds = 40, 2.0, 2_000, 300
    oracle = PureOracle.unary(k, eps, optimized)
    rng = np.random.default_rng(11)
    x = rng.choice(k, size=n, p=md.comparison.zipf_prior(k))
    histogram = np.bincount(x, minlength=k) / n
    estimates = np.array([oracle.blue_estimate(oracle.sample(x, rng), histogram)
                          for _ in range(rounds)])
    errors = np.sum((estimates - histogram) ** 2, axis=1)
    se = errors.std(ddof=1) / math.sqrt(rounds)
    exact = oracle.blue_mse(histogram, n)
    assert abs(errors.mean() - exact) <= 4 * se
    assert exact < oracle.mse(histogram, n)
    bias_se = estimates.std(axis=0, ddof=1) / math.sqrt(rounds)
    assert np.all(np.abs(estimates.mean(axis=0) - histogram) <= 4.5 * bias_se)


def test_the_blue_is_refused_by_name_where_no_structure_computes_it():
    with pytest.raises(md.UnsupportedError, match="BLUE"):
        PureOracle.subset(40, 1.0).blue_mse(md.comparison.zipf_prior(40), 10)
    with pytest.raises(md.UnsupportedError, match="pair"):
        PureOracle.hashing(40, 2.0).mse(md.comparison.zipf_prior(40), 10, workload="prefix")


@pytest.mark.parametrize("eps", [0.05, 0.5, 1.0, 2.0, 4.0, 8.0])
def test_the_ternary_search_finds_the_scans_subset_size(eps, monkeypatch):
    protocols = __import__("importlib").import_module("mechdesign.mechanisms.protocols")
    scanned = {k: protocols.best_subset_size(k, eps) for k in (5, 17, 64, 300, 1001)}
    monkeypatch.setattr(protocols, "SUBSET_SCAN_MAX_K", 2)
    for k, size in scanned.items():
        assert protocols.best_subset_size(k, eps) == size
    assert 1 <= protocols.best_subset_size(10**12, eps) <= 10**12 - 1


@pytest.mark.parametrize("name", NAMES)
def test_slack_is_one_minus_p_minus_q(name):
    for eps in (0.3, 1.0, 3.0):
        oracle = implicit_protocols(7, eps)[name]()
        assert oracle.slack == pytest.approx(1 - oracle.p - oracle.q, rel=1e-9, abs=1e-15)


def test_errors_at_epsilon_700_against_high_precision():
    # ε = 700: p rounds to 1, so 1 − p − q by subtraction is wrong (SUE: exactly 0).
    # Reference: Wang et al.'s formula in 60-digit arithmetic.
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.dps = 60
    k, n = 5, 10
    f = np.array([0.6, 0.1, 0.1, 0.1, 0.1])
    ell = mpmath.e ** -700
    half = mpmath.sqrt(ell)
    cases = {"GRR": (1 / (1 + (k - 1) * ell), ell / (1 + (k - 1) * ell)),
             "SUE (RAPPOR)": (1 / (1 + half), half / (1 + half)),
             "OUE": (mpmath.mpf(1) / 2, ell / (1 + ell))}
    for name, (p, q) in cases.items():
        exact = sum(q * (1 - q) / (p - q) ** 2 + mpmath.mpf(fv) * (1 - p - q) / (p - q)
                    for fv in f) / n
        value = implicit_protocols(k, 700.0)[name]().mse(f, n)
        assert value == pytest.approx(float(exact), rel=1e-12)


@pytest.mark.parametrize("eps", [40.0, 700.0])
def test_blocked_hadamard_error_at_a_large_epsilon_against_high_precision(eps):
    # B blocks, uniform prior: n·MSE = k(ρ/B)/(1 − ρ)² + Σ_v (F_v − f_v + ρ f_v)/(1 − ρ),
    # ρ = 2B/(2B − 1 + e^ε), written here in 60-digit arithmetic with F_v − f_v the
    # block-mates' mass; by subtraction (F_v/(1 − ρ) − f_v) it cancelled to 0.8× the truth
    # at ε = 40.
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.dps = 60
    k = 40
    oracle = PureOracle.hadamard(k, eps)
    count, width = oracle.blocks, oracle.block_size
    rho = 2 * count / (2 * count - 1 + mpmath.e ** eps)
    sizes = [min(width - 1, k - j * (width - 1)) for j in range(-(-k // (width - 1)))]
    mates = sum(size * (size - 1) for size in sizes) / mpmath.mpf(k)  # Σ_v (F_v − f_v)
    exact = (k * rho / count / (1 - rho) ** 2 + (mates + rho) / (1 - rho)) / 10
    assert oracle.mse(np.full(k, 1 / k), 10) == pytest.approx(float(exact), rel=1e-12)
