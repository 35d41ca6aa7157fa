"""Auditing a sampler (issue 22): the OpenDP #480 miscalibration is caught, a correct
implementation raises a false alarm no more often than the confidence allows, outputs
may be any hashable values, and the equality test against a claimed kernel.

Hardening: bad input is refused by the argument's name, extreme valid input gets the
right answer (checked against an independent value), and sizes that cannot be computed
raise TooLargeError by name (the bad-input battery itself is tests/test_fuzz.py).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import mechdesign as md
from mechdesign.errors import InvalidInputError, TooLargeError
from tests.helpers import K2, krr_sampler, opendp_480


def test_the_miscalibration_is_caught_quickly():
    k, eps = 2, 1.0
    buggy, _ = opendp_480(k, eps)
    calls = []

    def counted(x, size, rng):
        calls.append((x, size))
        return buggy(x, size, rng)

    audit = md.audit_samples(counted, 10**6, inputs=range(k), rng=0)
    # Vectorised: one call per input for all 10^6 draws (no per-sample Python loop; the
    # speed itself is a benchmark's claim, not a test's).
    assert sorted(calls) == [(0, 10**6), (1, 10**6)]
    true_level = math.log((0.731 + 0.269 * 0.731) / (0.269 * 0.269))  # about 2.3
    assert audit.exceeds(eps)
    assert audit.lower_bound <= audit.estimate
    assert audit.estimate == pytest.approx(true_level, abs=0.05)
    assert audit.witness is not None
    assert audit.intervals == 2 * 2 * 2


@pytest.mark.slow
def test_the_miscalibration_is_caught_in_99_of_100_runs():
    k, eps = 2, 1.0
    buggy, _ = opendp_480(k, eps)
    caught = sum(md.audit_samples(buggy, 10**6, inputs=range(k), rng=seed).exceeds(eps)
                 for seed in range(100))
    assert caught >= 99


@pytest.mark.parametrize("confidence", [0.99, 0.8])
def test_false_alarm_rate_of_a_correct_kernel(confidence):
    """For a correct k-RR the lower bound exceeds the true level in at most a fraction
    1 − confidence of runs (Bonferroni makes it smaller still)."""
    k, eps = 3, 1.0
    p = math.exp(eps) / (math.exp(eps) + k - 1)
    sampler = krr_sampler(k, p)
    runs = 200
    alarms = sum(md.audit_samples(sampler, 20_000, inputs=range(k), rng=seed,
                                  confidence=confidence).lower_bound > eps
                 for seed in range(runs))
    assert alarms <= (1 - confidence) * runs


def test_a_mechanism_is_its_own_sampler_and_the_equality_test():
    k = md.randomized_response(3, 1.0)
    audit = md.audit_samples(k, 50_000, rng=3, claimed=k)
    assert audit.inputs == (0, 1, 2)
    assert audit.p_value > 1e-3
    assert audit.lower_bound <= 1.0
    np.testing.assert_allclose(audit.kernel[:, np.argsort(audit.outputs)], k.matrix, atol=0.02)
    buggy, _ = opendp_480(3, 1.0)
    wrong = md.audit_samples(buggy, 50_000, inputs=range(3), rng=4, claimed=k)
    assert wrong.p_value < 1e-12


def test_p_values_of_a_correct_claim_are_not_too_small_too_often():
    k = md.randomized_response(3, 0.5)
    p_values = [md.audit_samples(k, 2000, rng=seed, claimed=k).p_value for seed in range(100)]
    assert sum(p < 0.05 for p in p_values) <= 12  # about 5 expected


def test_hashable_outputs_and_inputs():
    def sampler(x, size, rng):
        keep = rng.random(size) < (0.75 if x == "yes" else 0.25)
        return np.where(keep, "said yes", "said no")

    audit = md.audit_samples(sampler, 4000, inputs=["yes", "no"], rng=5)
    assert set(audit.outputs) == {"said yes", "said no"}
    assert 0 < audit.lower_bound < math.log(3) < audit.estimate + 0.3
    assert audit.witness[2] in {"said yes", "said no"}

    def tuples(x, size, rng):
        return [(int(v), "tag") for v in rng.integers(0, 2, size=size) ^ x]

    pairs = md.audit_samples(tuples, 500, inputs=[0, 1], rng=6)
    assert set(pairs.outputs) <= {(0, "tag"), (1, "tag")}
    assert pairs.lower_bound == 0.0  # exact: clipped at 0, both inputs give fair coins


def test_audit_pairs_and_claimed_labels():
    rng = np.random.default_rng(7)
    k = md.randomized_response(2, 1.0)
    x = rng.integers(0, 2, size=20_000)
    y = k.sample(x, rng)
    labels = np.array(["a", "b"])
    audit = md.accounting.audit_pairs(x, labels[y], claimed=k, claimed_inputs=[0, 1],
                           claimed_outputs=["a", "b"])
    assert audit.p_value > 1e-4
    assert audit.inputs == (0, 1)
    unknown = md.accounting.audit_pairs(x, labels[y], claimed=k, claimed_inputs=[0, 1],
                             claimed_outputs=["a", "c"])
    assert unknown.p_value == 0.0  # exact: an output the claim cannot produce


def test_refusals():
    k = md.randomized_response(2, 1.0)
    with pytest.raises(InvalidInputError, match="inputs"):
        md.audit_samples(lambda x, s, r: np.zeros(s), 10)
    with pytest.raises(InvalidInputError, match="confidence"):
        md.audit_samples(k, 10, confidence=1.0)
    with pytest.raises(InvalidInputError, match="n_samples"):
        md.audit_samples(k, 0)
    with pytest.raises(InvalidInputError, match="sampler"):
        md.audit_samples(lambda x, s, r: np.zeros(s + 1), 10, inputs=[0, 1])
    with pytest.raises(InvalidInputError, match="sampler"):
        md.audit_samples("not a sampler", 10, inputs=[0, 1])
    with pytest.raises(InvalidInputError, match="2 inputs"):
        md.accounting.audit_pairs([0, 0], [1, 0])
    with pytest.raises(InvalidInputError, match="equal length"):
        md.accounting.audit_pairs([0, 1], [1])


# -- hardening: bad input by name, extreme but valid input ----------------------------


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
