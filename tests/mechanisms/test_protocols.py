"""The deployed LDP frequency oracles (issue 21): their privacy level, entries checked by
hand against the papers' definitions, their estimators against Monte Carlo and against
Wang et al.'s closed forms, and the designed optimum against every one of them.

Hardening: bad input is refused by the argument's name, extreme valid input gets the
right answer (checked against an independent value), and sizes that cannot be computed
raise TooLargeError by name (the bad-input battery itself is tests/test_fuzz.py).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import mechdesign as md
from mechdesign.errors import InvalidInputError, TooLargeError, UnsupportedError
from tests.helpers import K3, P3


def protocols(k, eps):
    """Every protocol at (k, ε); OLH over the universal family while it fits, else over
    40 random hash functions."""
    g = round(math.exp(eps)) + 1
    try:
        family = md.mechanisms.hash_family(k, g)
    except TooLargeError:
        family = md.mechanisms.hash_family(k, g, size=40, seed=k)
    return [
        md.mechanisms.generalized_randomized_response(k, eps),
        md.unary_encoding(k, eps),
        md.unary_encoding(k, eps, optimized=False),
        md.subset_selection(k, eps),
        md.subset_selection(k, eps, subset_size=max(1, k // 2)),
        md.local_hashing(k, eps, family),
        md.hadamard_response(k, eps),
    ]


@pytest.mark.parametrize("k", [2, 3, 5, 8])
@pytest.mark.parametrize("eps", [0.1, 0.5, 1.0, 2.0, 4.0])
def test_every_protocol_is_exactly_epsilon_ldp(k, eps):
    for oracle in protocols(k, eps):
        assert md.ldp_level(oracle) == pytest.approx(eps, abs=1e-12), oracle.protocol
        assert oracle.epsilon == eps
        # K E = I: the standard estimator is unbiased (OLH: over a universal family).
        if oracle.support is not None:
            assert np.abs(oracle.matrix @ oracle.estimator - np.eye(k)).max() < 1e-9


def test_entries_by_hand():
    # OUE, k = 3, ε = log 3: p = 1/2, q = 1/4; report 0b001 (only input 0's bit set).
    oue = md.unary_encoding(3, math.log(3))
    assert oue.matrix[0, 0b001] == pytest.approx(0.5 * 0.75 * 0.75, rel=1e-12)
    assert oue.matrix[1, 0b001] == pytest.approx(0.25 * 0.5 * 0.75, rel=1e-12)
    assert oue.matrix[2, 0b111] == pytest.approx(0.25 * 0.25 * 0.5, rel=1e-12)
    # SUE, ε = 2 log 3: e^{ε/2} = 3, p = 3/4, q = 1/4.
    sue = md.unary_encoding(3, 2 * math.log(3), optimized=False)
    assert sue.matrix[0, 0b001] == pytest.approx(27 / 64, rel=1e-12)
    assert sue.matrix[0, 0b110] == pytest.approx(1 / 64, rel=1e-12)
    # Subset selection, k = 4, ω = 2, ε = log 2: Z = C(3,1)·2 + C(3,2) = 9.
    ss = md.subset_selection(4, math.log(2), subset_size=2)
    subsets = list(itertools.combinations(range(4), 2))
    assert ss.matrix[0, subsets.index((0, 1))] == pytest.approx(2 / 9, rel=1e-12)
    assert ss.matrix[0, subsets.index((1, 2))] == pytest.approx(1 / 9, rel=1e-12)
    # Hadamard response, k = 3 → K = 4; input 0 owns row 1 of H_4 = {0, 2}; ε = log 3.
    hr = md.hadamard_response(3, math.log(3), blocks=1)
    assert hr.shape == (3, 4)
    np.testing.assert_allclose(hr.matrix[0], [3 / 8, 1 / 8, 3 / 8, 1 / 8], rtol=1e-12)
    # OLH with two hash functions on 3 inputs, g = 2, ε = log 3: p' = 3/4, q' = 1/4.
    olh = md.local_hashing(3, math.log(3), np.array([[0, 1, 1], [1, 0, 1]]), buckets=2)
    np.testing.assert_allclose(olh.matrix[0], [3 / 8, 1 / 8, 1 / 8, 3 / 8], rtol=1e-12)
    np.testing.assert_allclose(olh.matrix[2], [1 / 8, 3 / 8, 1 / 8, 3 / 8], rtol=1e-12)
    # OLH's default number of buckets: round(e^ε) + 1.
    g = round(math.exp(1.0)) + 1
    assert md.local_hashing(5, 1.0, md.mechanisms.hash_family(5, g)).n_outputs % g == 0


def test_subset_size_none_minimises_the_error():
    for k, eps in [(6, 0.5), (8, 1.0), (10, 2.0), (12, 0.2)]:
        uniform = np.full(k, 1 / k)
        errors = {w: md.estimation_mse(md.subset_selection(k, eps, subset_size=w), uniform, 1)
                  for w in range(1, k)}
        chosen = md.subset_selection(k, eps)
        assert md.estimation_mse(chosen, uniform, 1) == pytest.approx(min(errors.values()),
                                                                      rel=1e-12)
        # Ye & Barg: ω ≈ k/(e^ε + 1).
        omega = int(chosen.protocol.split("= ")[1].rstrip(")"))
        assert abs(omega - k / (math.exp(eps) + 1)) <= 1


def test_hash_family_is_exactly_universal():
    for k, g in [(3, 2), (5, 3), (8, 4), (6, 6), (9, 2)]:
        family = md.mechanisms.hash_family(k, g)
        for x, y in itertools.combinations(range(k), 2):
            collisions = sum(int(h[x] == h[y]) for h in family)
            assert collisions * g == len(family), (k, g, x, y)
    random = md.mechanisms.hash_family(5, 3, size=7, seed=1)
    assert random.shape == (7, 5)
    assert set(np.unique(random)) <= {0, 1, 2}


# -- estimation error ------------------------------------------------------------------


def wang_variance(p, q, f, n):
    """Wang et al., USENIX Security 2017, eq. (2), summed over the inputs."""
    return sum(q * (1 - q) / (p - q) ** 2 + fv * (1 - p - q) / (p - q) for fv in f) / n


@pytest.mark.parametrize("k", [2, 4, 7])
@pytest.mark.parametrize("eps", [0.3, 1.0, 3.0])
def test_krr_mse_is_the_closed_form(k, eps):
    prior = np.random.default_rng(k).dirichlet(np.ones(k))
    e = math.exp(eps)
    p, q = e / (e + k - 1), 1 / (e + k - 1)
    expected = wang_variance(p, q, prior, 500)
    assert md.estimation_mse(md.randomized_response(k, eps), prior, 500) == pytest.approx(
        expected, rel=1e-10)
    grr = md.mechanisms.generalized_randomized_response(k, eps)
    assert grr.variance(prior, 500) == pytest.approx(expected, rel=1e-12)
    # Wang et al.'s approximate form for k-RR: (e^ε + k − 2)/(e^ε − 1)² per input.
    assert k * q * (1 - q) / (p - q) ** 2 == pytest.approx(k * (e + k - 2) / (e - 1) ** 2)


@pytest.mark.parametrize("eps", [0.5, 2.0])
def test_oue_and_hadamard_mse_are_the_closed_forms(eps):
    k, n = 6, 1000
    prior = np.random.default_rng(3).dirichlet(np.ones(k))
    e = math.exp(eps)
    # OUE: q(1 − q)/(p − q)² = 4e^ε/(e^ε − 1)², and (1 − p − q)/(p − q) = 1.
    assert md.estimation_mse(md.unary_encoding(k, eps), prior, n) == pytest.approx(
        (k * 4 * e / (e - 1) ** 2 + 1) / n, rel=1e-10)
    # SUE: p = e^{ε/2}/(e^{ε/2} + 1), q = 1 − p.
    ph = math.exp(eps / 2) / (math.exp(eps / 2) + 1)
    assert md.estimation_mse(md.unary_encoding(k, eps, optimized=False), prior, n) == (
        pytest.approx(wang_variance(ph, 1 - ph, prior, n), rel=1e-10))
    # Hadamard response in one block: p = e^ε/(1 + e^ε), q = 1/2.
    assert md.estimation_mse(md.hadamard_response(k, eps, blocks=1), prior, n) == pytest.approx(
        wang_variance(e / (1 + e), 0.5, prior, n), rel=1e-10)
    # OLH over a universal family: p = e^ε/(e^ε + g − 1), q = 1/g.
    g = round(e) + 1
    olh = md.local_hashing(k, eps, md.mechanisms.hash_family(k, g))
    assert md.estimation_mse(olh, prior, n) == pytest.approx(
        wang_variance(e / (e + g - 1), 1 / g, prior, n), rel=1e-10)


def monte_carlo_mse(kernel, prior, n, trials, rng, *, estimator=None, target="histogram"):
    """Simulate the model of estimation_mse: inputs drawn from the prior, reports by
    Mechanism.sample, the linear estimate, the squared error; mean and standard error."""
    k = np.asarray(kernel.matrix if hasattr(kernel, "matrix") else kernel)
    if estimator is None:
        estimator = getattr(kernel, "estimator", None)
    if estimator is None:
        estimator = np.linalg.pinv(k)
    mechanism = md.Mechanism(k)
    errors = []
    for _ in range(trials):
        x = rng.choice(len(prior), size=n, p=prior)
        y = mechanism.sample(x, rng)
        estimate = estimator[y].mean(axis=0)
        truth = np.bincount(x, minlength=len(prior)) / n if target == "histogram" else prior
        errors.append(float(np.sum((estimate - truth) ** 2)))
    errors = np.array(errors)
    return errors.mean(), errors.std(ddof=1) / math.sqrt(trials)


@pytest.mark.slow
def test_monte_carlo_agrees_for_every_protocol():
    rng = np.random.default_rng(2026)
    k, eps, n, trials = 5, 1.0, 200, 3000
    prior = rng.dirichlet(np.ones(k))
    cases = [(oracle, {}) for oracle in protocols(k, eps)]
    # A biased estimator: OLH over three random hash functions.
    cases.append((md.local_hashing(k, eps, md.mechanisms.hash_family(k, 4, size=3, seed=5)), {}))
    # A general kernel (least squares) and the distribution target.
    general = rng.dirichlet(np.ones(7), size=k)
    cases.append((general, {}))
    cases.append((md.hadamard_response(k, eps), {"target": "distribution"}))
    for kernel, options in cases:
        exact = md.estimation_mse(kernel, prior, n, **options)
        mean, se = monte_carlo_mse(kernel, prior, n, trials, rng, **options)
        assert abs(mean - exact) <= 4.5 * se, (getattr(kernel, "protocol", "general"), mean,
                                               exact, se)


def test_monte_carlo_agrees_quickly():
    rng = np.random.default_rng(7)
    k, n, trials = 4, 50, 800
    prior = rng.dirichlet(np.ones(k))
    for kernel in (md.unary_encoding(k, 1.0),
                   md.local_hashing(k, 1.0, md.mechanisms.hash_family(k, 4, size=2, seed=3))):
        exact = md.estimation_mse(kernel, prior, n)
        mean, se = monte_carlo_mse(kernel, prior, n, trials, rng)
        assert abs(mean - exact) <= 4.5 * se
    # A strongly biased estimator (twice the inverse: A = K E − I = I) with few reports,
    # where the spread of the users' histogram dominates.
    kernel = md.randomized_response(k, 2.0)
    doubled = 2 * np.linalg.inv(kernel.matrix)
    for target in ("histogram", "distribution"):
        exact = md.estimation_mse(kernel, prior, 3, estimator=doubled, target=target)
        mean, se = monte_carlo_mse(kernel, prior, 3, 6000, rng, estimator=doubled,
                                   target=target)
        assert abs(mean - exact) <= 4.5 * se, (target, mean, exact, se)


def test_mse_of_a_kernel_without_an_unbiased_estimator_is_infinite():
    assert md.estimation_mse([[0.5, 0.5], [0.5, 0.5]], [0.3, 0.7], 10) == math.inf
    # A designed optimum with fewer outputs than inputs.
    d = md.design(md.LDP(0.5), np.full(4, 0.25), utility="bayes")
    if np.linalg.matrix_rank(d.mechanism.matrix) < 4:
        assert md.estimation_mse(d.mechanism, np.full(4, 0.25), 10) == math.inf
    # Distribution target = histogram target + the inputs' sampling error.
    prior = np.array([0.2, 0.3, 0.5])
    k = md.randomized_response(3, 1.0)
    assert md.estimation_mse(k, prior, 40, target="distribution") == pytest.approx(
        md.estimation_mse(k, prior, 40) + (1 - prior @ prior) / 40, rel=1e-12)


def test_refusals_name_the_argument():
    with pytest.raises(TooLargeError, match="PROTOCOL_MAX_OUTPUTS"):
        md.unary_encoding(17, 1.0)
    with pytest.raises(TooLargeError, match="PROTOCOL_MAX_OUTPUTS"):
        md.subset_selection(40, 0.1, subset_size=20)
    with pytest.raises(InvalidInputError, match="k"):
        md.hadamard_response(1, 1.0)
    with pytest.raises(InvalidInputError, match="epsilon"):
        md.unary_encoding(4, 0.0)
    with pytest.raises(InvalidInputError, match="epsilon"):
        md.subset_selection(4, math.inf)
    with pytest.raises(InvalidInputError, match="subset_size"):
        md.subset_selection(4, 1.0, subset_size=4)
    with pytest.raises(InvalidInputError, match="hashes"):
        md.local_hashing(3, 1.0, [[0, 1, 5]], buckets=2)
    with pytest.raises(InvalidInputError, match="hashes"):
        md.local_hashing(3, 1.0, [[0.5, 1, 0]], buckets=2)
    with pytest.raises(InvalidInputError, match="buckets"):
        md.mechanisms.hash_family(3, 1)
    with pytest.raises(InvalidInputError, match="optimized"):
        md.unary_encoding(3, 1.0, optimized="yes")
    with pytest.raises(InvalidInputError, match="n"):
        md.estimation_mse(np.eye(2), [0.5, 0.5], 0)
    with pytest.raises(InvalidInputError, match="target"):
        md.estimation_mse(np.eye(2), [0.5, 0.5], 3, target="mean")
    with pytest.raises(InvalidInputError, match="estimator"):
        md.estimation_mse(np.eye(2), [0.5, 0.5], 3, estimator=np.eye(3))
    with pytest.raises(InvalidInputError, match="reports"):
        md.unary_encoding(3, 1.0).estimate([0, 8])
    with pytest.raises(UnsupportedError, match="epsilon"):
        md.unary_encoding(3, 700.0)
    random_family = md.local_hashing(4, 1.0, md.mechanisms.hash_family(4, 3, size=2, seed=0))
    with pytest.raises(UnsupportedError, match="pure"):
        random_family.variance(np.full(4, 0.25), 10)


def test_extreme_epsilon_is_the_limit():
    # At ε = 300, OUE reports input x's bit as a fair coin and every other bit as 0.
    oue = md.unary_encoding(3, 300.0)
    assert md.ldp_level(oue) == pytest.approx(300.0, rel=1e-12)
    np.testing.assert_allclose(oue.matrix[1, [0b000, 0b010]], [0.5, 0.5], rtol=1e-12)
    grr = md.mechanisms.generalized_randomized_response(4, 700.0)
    assert md.estimation_mse(grr, np.full(4, 0.25), 10) == pytest.approx(0.0, abs=1e-250)


# -- the designed optimum beside the protocols ---------------------------------------


@pytest.mark.parametrize("k", [3, 4, 6])
@pytest.mark.parametrize("eps", [0.5, 1.0, 2.0])
def test_designed_optima_beat_every_protocol(k, eps):
    prior = np.random.default_rng(10 * k).dirichlet(np.ones(k))
    bayes = md.design(md.LDP(eps), prior, utility="bayes").utility
    information = md.design(md.LDP(eps), prior).utility
    for oracle in protocols(k, eps):
        assert md.measures.bayes_vulnerability(oracle, prior) <= bayes + 1e-9, oracle.protocol
        assert md.mutual_information(oracle, prior) <= information + 1e-9, oracle.protocol


# -- hardening: bad input by name, extreme but valid input ----------------------------


def test_grr_at_a_tiny_epsilon_has_the_closed_form_estimator():
    eps = 1e-300
    oracle = md.mechanisms.generalized_randomized_response(3, eps)
    # p − q = (1 − e^{−ε})/(1 + 2e^{−ε}) = ε/3 to first order: E[v, v] = (2/3)/(ε/3).
    assert oracle.estimator[0, 0] == pytest.approx(2.0 / eps, rel=1e-9)
    assert oracle.estimator[0, 1] == pytest.approx(-1.0 / eps, rel=1e-9)
    assert oracle.variance(P3, 10) == math.inf  # exact: p and q round together


@pytest.mark.parametrize(("build", "slope"), [
    # p − q ≈ slope · ε as ε → 0 (closed forms of each protocol's p and q).
    (lambda e: md.mechanisms.generalized_randomized_response(3, e), 1 / 3),
    (lambda e: md.unary_encoding(3, e), 1 / 4),
    (lambda e: md.unary_encoding(3, e, optimized=False), 1 / 4),
    (lambda e: md.subset_selection(3, e), 1 / 3),
    (lambda e: md.hadamard_response(3, e), 1 / 4),
    (lambda e: md.local_hashing(3, e, md.mechanisms.hash_family(3, 2), buckets=2), 1 / 4),
])
def test_protocols_at_tiny_epsilons(build, slope):
    eps = 1e-300
    oracle = build(eps)
    _, q = oracle.support
    # E = (1[v ∈ supp y] − q)/(p − q): its extreme entries are (1 − q)/(slope ε) and
    # −q/(slope ε).
    assert oracle.estimator.max() * eps == pytest.approx((1 - q) / slope, rel=1e-9)
    assert oracle.estimator.min() * eps == pytest.approx(-q / slope, rel=1e-9)
    with pytest.raises(UnsupportedError, match="epsilon"):
        build(5e-324)


@pytest.mark.parametrize("call", [
    lambda: md.unary_encoding(10**12, 1.0),
    lambda: md.subset_selection(10**12, 1.0),
    lambda: md.mechanisms.generalized_randomized_response(10**12, 1.0),
    lambda: md.mechanisms.hash_family(3, 2, size=10**12),
])
def test_huge_protocols_are_too_large_at_once(call):
    with pytest.raises(TooLargeError):
        call()


def test_estimation_mse_with_a_huge_estimator_entry_is_infinite():
    estimator = np.linalg.inv(K3)
    base = md.estimation_mse(K3, P3, 100, estimator=estimator)
    assert base == pytest.approx(md.estimation_mse(K3, P3, 100), rel=1e-12)
    estimator[0, 0] = 1e308
    assert md.estimation_mse(K3, P3, 100, estimator=estimator) == math.inf  # exact: limit
    # Scaled down, the error scales by the square: the same computation is homogeneous.
    small = np.linalg.inv(K3) * 1e-100
    shifted = md.estimation_mse(K3, P3, 100, estimator=small, target="distribution")
    assert math.isfinite(shifted)


@pytest.mark.parametrize(("kwargs", "name"), [
    ({"epsilon": -1.0}, "epsilon"), ({"epsilon": math.nan}, "epsilon"),
    ({"epsilon": "0.5"}, "epsilon"), ({"epsilon": None}, "epsilon"),
    ({"support": (1.5, 0.2)}, "support"), ({"support": "abc"}, "support"),
    ({"support": (0.5,)}, "support"), ({"support": [math.nan, 0.2]}, "support"),
])
def test_frequency_oracle_fields_are_checked(kwargs, name):
    grr = md.mechanisms.generalized_randomized_response(3, 1.0)
    args = {"protocol": "GRR", "epsilon": 1.0, "estimator": grr.estimator,
            "support": grr.support, **kwargs}
    with pytest.raises(InvalidInputError, match=name):
        md.mechanisms.FrequencyOracle(grr.matrix, **args)


@pytest.mark.parametrize("seed", ["3", True, -1, 2.5, math.nan])
def test_hash_family_seed_is_checked(seed):
    with pytest.raises(InvalidInputError, match="seed"):
        md.mechanisms.hash_family(3, 2, seed=seed)


@pytest.mark.parametrize("call", [
    lambda: md.mechanisms.generalized_randomized_response(3, 1.0).estimate([[0, 1], [1]]),
    lambda: md.local_hashing(3, 1.0, [[0.5, 0.5], [1.0]], buckets=2),
])
def test_ragged_reports_and_hashes_are_refused(call):
    with pytest.raises(InvalidInputError, match=r"reports|hashes"):
        call()
