"""Hardening of accounting, sample_audit, protocols, comparison, datasets, mechanisms and
reports against the bad-input battery (tests/test_fuzz.py): bad input is refused by
name, extreme valid input gets the right answer (checked against an independent value),
sizes that cannot be computed raise TooLargeError/UnsupportedError by name."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

import mechdesign as md
from mechdesign.errors import InvalidInputError, TooLargeError, UnsupportedError
from tests.conftest import K2, K3, P3

TINY = np.array([[1.0, 5e-324, 0.0], [0.2, 0.5, 0.3], [0.1, 0.2, 0.7]])


# -- accounting ------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [
    "abc", [["0.75", "0.25"], ["0.25", "0.75"]], np.array([[True, False], [False, True]]),
    np.array([[0.75 + 9j, 0.25], [0.25, 0.75 + 9j]]), np.array([[[0.75, 0.25], [0.25, 0.75]]]),
    [[0.5, 0.5], [1.0]], np.array([[0.8, 0.3], [0.25, 0.75]]), [], None,
])
@pytest.mark.parametrize("call", [
    lambda k: md.composed_epsilon(k, 3, 0.1),
    lambda k: md.composed_delta(k, 3, 1.0),
    lambda k: md.accounting.pml_composition_bound(k, 2, [0.5, 0.5], 0.2),
])
def test_bad_kernels_are_refused_by_name(call, bad):
    with pytest.raises(InvalidInputError, match=r"kernels"):
        call(bad)


@pytest.mark.parametrize("notion", ["abc", 1.0, True, md.LDP, md.Mechanism(K2)])
def test_a_notion_that_is_not_one_is_refused_by_name(notion):
    with pytest.raises(InvalidInputError, match="notion"):
        md.composed_delta(K2, 3, 1.0, notion=notion)


def test_a_pml_notion_is_still_unsupported():
    with pytest.raises(UnsupportedError):
        md.composed_delta(K2, 3, 1.0, notion=md.PML(1.0, c=0.1))


def test_a_deterministic_kernel_reveals_the_input():
    identity = np.eye(2)
    assert md.composed_delta(identity, 3, 1.0).delta == pytest.approx(1.0, abs=1e-12)
    assert md.composed_epsilon(identity, 3, 0.1).epsilon == math.inf  # exact: the limit
    # Composed with another kernel, the certain leak dominates.
    assert md.composed_delta([identity, K2], 2, 5.0).delta == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("eps", [0.0, 0.5, 2.0, 800.0])
def test_a_subnormal_entry_keeps_the_privacy_profile(eps):
    pair = md.dominating_pair(TINY)
    assert pair.hockey_stick(eps) == pytest.approx(md.privacy_profile(TINY, eps),
                                                   rel=1e-9, abs=1e-12)


def test_a_subnormal_entry_composes():
    # One use: δ(ε) of the pair is the privacy profile (up to the discretisation).
    one = md.composed_delta(TINY, 1, 1.0, discretization=1e-4)
    assert one.delta == pytest.approx(md.privacy_profile(TINY, 1.0), abs=1e-3)
    assert md.accounting.tradeoff_curve(TINY)[-1] == pytest.approx([1.0, 0.0], abs=1e-12)


@pytest.mark.parametrize(("kwargs", "name"), [
    ({"n": 10**12}, "n"), ({"discretization": 5e-324}, "discretization"),
])
def test_a_composition_too_large_is_refused_by_name(kwargs, name):
    args = {"n": 3, "discretization": 1e-4, **kwargs}
    for call in (lambda: md.composed_epsilon(K2, args["n"], 0.1,
                                             discretization=args["discretization"]),
                 lambda: md.composed_delta(K2, args["n"], 1.0,
                                           discretization=args["discretization"])):
        with pytest.raises(TooLargeError, match=rf"\b{name}\b"):
            call()
    with pytest.raises(TooLargeError, match="discretization"):
        md.privacy_loss_distribution(K3, discretization=5e-324)


def test_pml_composition_bound_limits_and_precision():
    with pytest.raises(TooLargeError, match=r"\bn\b"):
        md.accounting.pml_composition_bound(K3, 10**12, P3, 0.2)
    single = md.accounting.pml_composition_bound(K3, 2, P3, 0.2)
    as32 = md.accounting.pml_composition_bound(K3.astype(np.float32), 2, P3, 0.2)
    assert as32 == pytest.approx(single, rel=1e-6)


# -- sample audit ----------------------------------------------------------------------


@pytest.mark.parametrize("eps", [math.nan, -1.0, -math.inf, "0.5", True])
def test_exceeds_refuses_a_bad_epsilon(eps):
    audit = md.accounting.audit_pairs([0, 1] * 20, [0, 0, 1, 1] * 10)
    with pytest.raises(InvalidInputError, match="epsilon"):
        audit.exceeds(eps)


@pytest.mark.parametrize(("kwargs", "name"), [
    ({"outputs": None}, "outputs"), ({"outputs": 5}, "outputs"), ({"outputs": True}, "outputs"),
    ({"claimed": "abc"}, "claimed"), ({"claimed": [[0.5, 0.6], [0.5, 0.5]]}, "claimed"),
])
def test_audit_pairs_names_its_arguments(kwargs, name):
    args = {"inputs": [0, 1] * 20, "outputs": [0, 0, 1, 1] * 10, **kwargs}
    with pytest.raises(InvalidInputError, match=name):
        md.accounting.audit_pairs(**args)


@pytest.mark.parametrize("inputs", [True, 5, 0.5 + 1j, [], [0]])
def test_audit_samples_names_inputs(inputs):
    with pytest.raises(InvalidInputError, match="inputs"):
        md.audit_samples(lambda x, size, rng: rng.integers(0, 2, size), 20, inputs=inputs)


def test_audit_samples_refuses_too_many_draws_before_drawing():
    with pytest.raises(TooLargeError, match="n_samples"):
        md.audit_samples(md.Mechanism(K2), 10**12, rng=0)


def test_a_claimed_subnormal_probability_gives_p_value_zero():
    # Input 0 produces output 1 a quarter of the time; the claim gives it 5e-324:
    # the χ² statistic is beyond every double, its p-value the limit 0.
    claimed = np.array([[1.0, 5e-324], [0.25, 0.75]])
    audit = md.audit_samples(md.Mechanism(K2), 200, rng=0, claimed=claimed)
    assert audit.p_value == pytest.approx(0.0, abs=1e-300)
    assert md.audit_samples(md.Mechanism(K2), 200, rng=0, claimed=K2).p_value > 1e-3


# -- protocols -------------------------------------------------------------------------


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


# -- comparison, datasets, reports ------------------------------------------------------


def test_compare_names_its_arguments():
    rr = {"rr": md.randomized_response(3, 1.0)}
    for utilities in (None, 1.0, "bayes", ("abc",), (1,)):
        with pytest.raises(InvalidInputError, match="utilities"):
            md.compare(md.LDP(1.0), P3, mechanisms=rr, utilities=utilities, n=100)
    with pytest.raises(InvalidInputError, match="mechanisms"):
        md.compare(md.LDP(1.0), P3, mechanisms={"a": "abc"}, utilities=(), n=100)
    with pytest.raises(InvalidInputError, match="notion"):
        md.compare(md.LDP(0.0), P3, mechanisms=rr, utilities=(), n=100)
    with pytest.raises(TooLargeError, match=r"\bk\b"):
        md.comparison.zipf_prior(10**12)


def test_datasets_name_their_arguments(tmp_path):
    with pytest.raises(InvalidInputError, match="path"):
        md.notions.categorical_pair(1.5, "s", "u")
    with pytest.raises(InvalidInputError, match="path"):
        md.notions.categorical_pair(tmp_path, "s", "u")
    for bad in (None, True, 5, {"a": 1}, []):
        with pytest.raises(InvalidInputError, match="s_values"):
            md.notions.empirical_pair(bad, ["x", "y"])
    with pytest.raises(InvalidInputError, match="s_values and u_values"):
        md.notions.empirical_pair(["a"], ["x", "y"])


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


# -- mechanisms ------------------------------------------------------------------------


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
