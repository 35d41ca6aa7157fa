"""attack_risk: the best attack's advantage, power at a false-positive rate and Bayes risk,
checked against Neyman–Pearson tests written out here on the product distributions of the
reports (independent of the trade-off envelope and of dp_accounting), closed forms for
k-RR, and the ε-DP bounds for random kernels."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mechdesign as md
from mechdesign.accounting.composition import DISCRETIZATION
from mechdesign.errors import InvalidInputError
from tests.conftest import kernels


def krr(k: int, eps: float) -> np.ndarray:
    e = math.exp(eps)
    return (np.full((k, k), 1.0) + (e - 1) * np.eye(k)) / (e + k - 1)


def neyman_pearson(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Breakpoints (α, β) of the trade-off of H0: P against H1: Q, rejecting outcomes by
    decreasing Q/P (randomised between them: linear interpolation)."""
    with np.errstate(divide="ignore"):
        ratio = np.where(p > 0, q / np.where(p > 0, p, 1.0), np.inf)
    order = np.argsort(-ratio, kind="stable")
    alpha = np.concatenate([[0.0], np.cumsum(p[order])])
    beta = 1.0 - np.concatenate([[0.0], np.cumsum(q[order])])
    return np.column_stack([alpha, np.maximum(beta, 0.0)])


def product(row: np.ndarray, uses: int) -> np.ndarray:
    """The distribution of ``uses`` independent reports through one row."""
    out = np.ones(1)
    for _ in range(uses):
        out = np.outer(out, row).ravel()
    return out


def exact_measures(K: np.ndarray, uses: int, fpr: float, prior: float):
    """Worst case over ordered input pairs of (advantage, power at fpr, Bayes risk)."""
    adv, power, risk = 0.0, 0.0, 1.0
    for x, y in itertools.permutations(range(K.shape[0]), 2):
        curve = neyman_pearson(product(K[x], uses), product(K[y], uses))
        adv = max(adv, float(np.max(1 - curve[:, 0] - curve[:, 1])))
        power = max(power, 1 - float(np.interp(fpr, curve[:, 0], curve[:, 1])))
        risk = min(risk, float(np.min(prior * curve[:, 0] + (1 - prior) * curve[:, 1])))
    return adv, power, risk


@pytest.mark.parametrize("k", [2, 3, 6])
@pytest.mark.parametrize("eps", [0.3, 1.0, 2.5])
def test_one_use_of_krr_closed_forms(k, eps):
    """k-RR, a = e^ε/(e^ε+k−1), b = 1/(e^ε+k−1): advantage a − b; below α = b the best
    test rejects only the output x′, power e^ε α; Bayes risk at 1/2 is (1 − (a − b))/2."""
    e = math.exp(eps)
    a, b = e / (e + k - 1), 1 / (e + k - 1)
    risk = md.accounting.attack_risk(krr(k, eps))
    assert risk.advantage == pytest.approx(a - b, abs=1e-12)
    assert risk.true_positive_rate(b / 2) == pytest.approx(e * b / 2, abs=1e-12)
    assert risk.bayes_risk(0.5) == pytest.approx((1 - (a - b)) / 2, abs=1e-12)
    assert risk.uses == 1


@pytest.mark.parametrize(("k", "eps", "uses"), [(2, 0.5, 2), (2, 1.0, 5), (2, 1.0, 12),
                                              (3, 0.7314, 3), (4, 1.234567, 2)])
def test_composed_krr_is_a_tight_upper_bound(k, eps, uses):
    """The pessimistic PLD rounds each loss up to its grid: every risk is at least the
    exact one (the worst pair of k-RR is its dominating pair) and within a few grid
    steps of it."""
    K = krr(k, eps)
    risk = md.accounting.attack_risk(K, uses)
    slack = 20 * uses * DISCRETIZATION
    for fpr, prior in [(0.01, 0.5), (0.2, 0.25), (0.4, 0.9)]:
        adv, power, bayes = exact_measures(K, uses, fpr, prior)
        assert adv - 1e-12 <= risk.advantage <= adv + slack
        assert power - 1e-12 <= risk.true_positive_rate(fpr) <= power + slack
        assert bayes - slack <= risk.bayes_risk(prior) <= bayes + 1e-12
    assert risk.uses == uses


def test_a_sequence_of_kernels_composes():
    """Two different binary kernels, each once: the product of their pairs."""
    K1, K2 = krr(2, 0.5), krr(2, 1.0)
    risk = md.accounting.attack_risk([K1, K2])
    p = np.outer(K1[0], K2[0]).ravel()
    q = np.outer(K1[1], K2[1]).ravel()
    curve = neyman_pearson(p, q)
    slack = 40 * DISCRETIZATION
    adv = float(np.max(1 - curve[:, 0] - curve[:, 1]))
    power = 1 - float(np.interp(0.1, curve[:, 0], curve[:, 1]))
    assert risk.uses == 2
    assert adv - 1e-12 <= risk.advantage <= adv + slack
    assert power - 1e-12 <= risk.true_positive_rate(0.1) <= power + slack


def test_a_kernel_that_reveals_its_input():
    K = np.array([[0.5, 0.5, 0.0], [0.0, 0.5, 0.5]])
    one = md.accounting.attack_risk(K)
    assert one.true_positive_rate(0.0) == pytest.approx(0.5, abs=1e-12)
    assert one.advantage == pytest.approx(0.5, abs=1e-12)
    many = md.accounting.attack_risk(np.eye(3), 4)
    assert many.advantage == pytest.approx(1.0, abs=1e-12)
    assert many.true_positive_rate(0.0) == pytest.approx(1.0, abs=1e-12)
    assert many.bayes_risk(0.5) == pytest.approx(0.0, abs=1e-12)


def test_a_kernel_that_reveals_nothing():
    risk = md.accounting.attack_risk(np.full((3, 4), 0.25), 5)
    assert risk.advantage == pytest.approx(0.0, abs=1e-12)
    assert risk.true_positive_rate(0.3) == pytest.approx(0.3, abs=1e-9)
    assert risk.bayes_risk(0.2) == pytest.approx(0.2, abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(K=kernels(min_size=2, max_size=4), fpr=st.floats(0.0, 1.0),
       prior=st.floats(0.0, 1.0))
def test_one_use_matches_every_pair_and_obeys_ldp(K, fpr, prior):
    """One use: the worst pair's Neyman–Pearson values (the envelope's convexification
    can only help the attacker where no single pair attains it, so ≥), and the ε-DP
    limits: power ≤ min(1, e^ε α, 1 − e^{−ε}(1 − α)), advantage ≤ (e^ε − 1)/(e^ε + 1),
    Bayes risk ≥ min(π, 1 − π, 1/(1 + e^ε))."""
    risk = md.accounting.attack_risk(K)
    adv, power, bayes = exact_measures(K, 1, fpr, prior)
    assert risk.advantage == pytest.approx(adv, abs=1e-9)   # TV: no convexification
    assert risk.true_positive_rate(fpr) >= power - 1e-9
    assert risk.bayes_risk(prior) <= bayes + 1e-9
    eps = md.ldp_level(K)
    if math.isfinite(eps):
        e = math.exp(eps)
        assert risk.true_positive_rate(fpr) <= min(1.0, e * fpr, 1 - (1 - fpr) / e) + 1e-9
        assert risk.advantage <= (e - 1) / (e + 1) + 1e-9
        assert risk.bayes_risk(prior) >= min(prior, 1 - prior, 1 / (1 + e)) - 1e-9


@settings(max_examples=10, deadline=None)
@given(K=kernels(min_size=2, max_size=3), uses=st.integers(2, 3),
       fpr=st.floats(0.0, 1.0), prior=st.floats(0.0, 1.0))
def test_composition_bounds_every_pair(K, uses, fpr, prior):
    """Several uses: the composed dominating pair bounds every input pair's exact product
    test (up to the discretisation), and more uses never lower the risk."""
    risk = md.accounting.attack_risk(K, uses)
    adv, power, bayes = exact_measures(K, uses, fpr, prior)
    assert risk.advantage >= adv - 1e-9
    assert risk.true_positive_rate(fpr) >= power - 1e-9
    assert risk.bayes_risk(prior) <= bayes + 1e-9
    fewer = md.accounting.attack_risk(K, uses - 1)
    assert risk.advantage >= fewer.advantage - 1e-9


@pytest.mark.parametrize(("name", "value"), [("false_positive_rate", 1.5),
                                              ("false_positive_rate", -0.1),
                                              ("false_positive_rate", math.nan)])
def test_refuses_a_rate_outside_the_unit_interval(name, value):
    with pytest.raises(InvalidInputError, match=name):
        md.accounting.attack_risk(krr(3, 1.0)).true_positive_rate(value)


def test_refuses_bad_uses_and_prior():
    with pytest.raises(InvalidInputError, match="uses"):
        md.accounting.attack_risk(krr(3, 1.0), 0)
    with pytest.raises(InvalidInputError, match="prior"):
        md.accounting.attack_risk(krr(3, 1.0)).bayes_risk(2.0)


def test_a_composition_whose_finite_losses_carry_almost_no_mass():
    """Rows sharing only 1e-6 of mass: after three uses the finite losses carry 1e-18,
    below what dp_accounting represents (hypothesis found its IndexError). δ = 1 and an
    advantage of 1 are then within 1e-18 of the truth."""
    K = np.array([[1e-6, 1 - 1e-6], [1.0, 0.0]])
    assert md.composed_delta(K, 3, 0.0).delta == pytest.approx(1.0, abs=1e-12)
    adv, power, _ = exact_measures(K, 3, 0.0, 0.5)
    risk = md.accounting.attack_risk(K, 3)
    assert risk.advantage == pytest.approx(adv, abs=1e-12)
    assert risk.true_positive_rate(0.0) == pytest.approx(power, abs=1e-12)
