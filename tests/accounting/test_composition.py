"""Composition (issue 22): the dominating pair against the privacy profile and every row
pair, composition against dp_accounting's own randomized response and an exact
enumeration of the n-fold product, and basic/advanced composition by hand.

Attack risk: the best attack's advantage, power at a false-positive rate and Bayes risk,
checked against Neyman–Pearson tests written out here on the product distributions of the
reports (independent of the trade-off envelope and of dp_accounting), closed forms for
k-RR, and the ε-DP bounds for random kernels.

Hardening: bad input is refused by the argument's name, extreme valid input (subnormal
entries, a deterministic kernel) gets the right answer, and compositions that cannot be
computed raise TooLargeError/UnsupportedError by name (the bad-input battery itself is
tests/test_fuzz.py).

composed_epsilon / composed_delta report the smallest of their valid upper bounds (the
privacy loss distribution's, basic and advanced composition) and name it (issue 36,
item 7).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from dp_accounting.pld import privacy_loss_distribution as pld
from hypothesis import given, settings, strategies as st

import mechdesign as md
from mechdesign.accounting.composition import DISCRETIZATION
from mechdesign.errors import InvalidInputError, TooLargeError, UnsupportedError
from tests.helpers import K2, K3, P3, kernels


def random_kernel(rng, n, m, zeros=False):
    k = rng.dirichlet(np.ones(m), size=n)
    if zeros:
        k[rng.random(k.shape) < 0.2] = 0.0
        k[:, 0] += 1e-3
        k /= k.sum(axis=1, keepdims=True)
    return k


def pair_profile(p, q, eps):
    """Σ_y (p − e^ε q)^+, from the definition."""
    return float(sum(max(a - math.exp(eps) * b, 0.0) for a, b in zip(p, q, strict=True)))


@pytest.mark.parametrize("k", [2, 3, 5, 8])
@pytest.mark.parametrize("eps", [0.3, 1.0, 2.5])
def test_krr_dominating_pair_is_the_worst_row_pair(k, eps):
    pair = md.dominating_pair(md.randomized_response(k, eps))
    z = math.exp(eps) + k - 1
    p, q = [1 / z, math.exp(eps) / z], [math.exp(eps) / z, 1 / z]
    if k > 2:  # the k − 2 outputs of ratio 1 merge into one outcome
        p.insert(1, (k - 2) / z)
        q.insert(1, (k - 2) / z)
    np.testing.assert_allclose(pair.p, p, rtol=1e-12)
    np.testing.assert_allclose(pair.q, q, rtol=1e-12)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 5), m=st.integers(2, 6),
       zeros=st.booleans())
def test_dominating_pair_curve_is_the_privacy_profile(seed, n, m, zeros):
    rng = np.random.default_rng(seed)
    k = random_kernel(rng, n, m, zeros)
    pair = md.dominating_pair(k)
    for eps in np.linspace(0.0, 4.0, 21):
        profile = md.privacy_profile(k, eps)
        assert pair.hockey_stick(eps) == pytest.approx(profile, abs=1e-9)
        for x, y in itertools.permutations(range(n), 2):
            assert pair.hockey_stick(eps) >= pair_profile(k[x], k[y], eps) - 1e-9
    assert pair.hockey_stick(math.inf) == pytest.approx(md.privacy_profile(k, math.inf),
                                                       abs=1e-12)


def test_tradeoff_curve_is_convex_decreasing_and_below_every_pair():
    rng = np.random.default_rng(4)
    k = random_kernel(rng, 4, 5)
    curve = md.accounting.tradeoff_curve(k)
    alpha, beta = curve[:, 0], curve[:, 1]
    assert alpha[0] == pytest.approx(0.0, abs=1e-15)
    assert (alpha[-1], beta[-1]) == pytest.approx((1.0, 0.0), abs=1e-12)
    assert np.all(np.diff(alpha) > 0)
    assert np.all(np.diff(beta) <= 1e-15)
    slopes = np.diff(beta) / np.diff(alpha)
    assert np.all(np.diff(slopes) >= -1e-9)  # convex
    # Every pair's Neyman–Pearson points lie on or above the envelope.
    for x, y in itertools.permutations(range(4), 2):
        order = np.argsort(-(k[y] / k[x]))
        a = np.concatenate([[0], np.cumsum(k[x][order])])
        b = 1 - np.concatenate([[0], np.cumsum(k[y][order])])
        assert np.all(np.interp(a, alpha, beta) <= b + 1e-12)
    # LDP(K) = ε bounds it: β ≥ max(1 − e^ε α, e^{−ε}(1 − α)).
    eps = md.ldp_level(k)
    assert np.all(beta >= np.maximum(1 - math.exp(eps) * alpha,
                                     math.exp(-eps) * (1 - alpha)) - 1e-12)


@pytest.mark.parametrize(("k", "eps", "n"), [(2, 1.0, 10), (4, 0.5, 30), (6, 2.0, 5)])
def test_krr_composition_equals_dp_accountings_randomized_response(k, eps, n):
    noise = k / (math.exp(eps) + k - 1)  # P(y = x) = 1 − noise + noise/k
    theirs = pld.from_randomized_response(noise, k).self_compose(n)
    ours = md.composed_epsilon(md.randomized_response(k, eps), n, 1e-6)
    assert ours.epsilon == pytest.approx(theirs.get_epsilon_for_delta(1e-6),
                                         abs=n * md.accounting.composition.DISCRETIZATION)
    assert ours.uses == n
    assert ours.basic == pytest.approx(n * eps)
    assert float(ours) == ours.epsilon


def exact_composed_delta(p, q, n, eps):
    """δ of the n-fold product pair at ε, by enumerating the multisets of outcomes."""
    total = 0.0
    for counts in itertools.product(range(n + 1), repeat=len(p)):
        if sum(counts) != n:
            continue
        ways = math.factorial(n)
        for c in counts:
            ways //= math.factorial(c)
        mass_q = ways * math.prod(qi**c for qi, c in zip(q, counts, strict=True))
        mass_p = ways * math.prod(pi**c for pi, c in zip(p, counts, strict=True))
        total += max(mass_q - math.exp(eps) * mass_p, 0.0)
    return total


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_composed_delta_against_exact_enumeration(seed):
    rng = np.random.default_rng(seed)
    k = random_kernel(rng, 3, 3)
    pair = md.dominating_pair(k)
    n = 6
    for eps in (0.5, 1.5, 3.0):
        exact = exact_composed_delta(pair.p, pair.q, n, eps)
        ours = md.composed_delta(k, n, eps, discretization=1e-4)
        # Pessimistic: never below the exact value, and within the grid's shift in ε.
        assert ours.delta >= exact - 1e-12
        assert ours.delta <= exact_composed_delta(pair.p, pair.q, n, eps - n * 1e-4) + 1e-9


def test_composition_dominates_the_kernels_own_two_fold_use():
    """Two uses of K on the same input are the kernel x ↦ K_x ⊗ K_x; its profile is at
    most the composed dominating pair's (dominance), with equality for k-RR."""
    rng = np.random.default_rng(9)
    for k in (random_kernel(rng, 3, 4), md.randomized_response(3, 1.0).matrix):
        twice = np.einsum("xa,xb->xab", k, k).reshape(k.shape[0], -1)
        for eps in (0.5, 1.0, 2.0):
            assert md.composed_delta(k, 2, eps, discretization=1e-6).delta >= (
                md.privacy_profile(twice, eps) - 1e-9)
    krr = md.randomized_response(3, 1.0).matrix
    twice = np.einsum("xa,xb->xab", krr, krr).reshape(3, -1)
    assert md.composed_delta(krr, 2, 1.0, discretization=1e-6).delta == pytest.approx(
        md.privacy_profile(twice, 1.0), abs=1e-4)


@pytest.mark.parametrize("seed", [3, 4])
def test_composed_epsilon_lies_between_the_worst_pair_and_basic(seed):
    rng = np.random.default_rng(seed)
    k = random_kernel(rng, 4, 5)
    n, delta = 8, 1e-5
    result = md.composed_epsilon(k, n, delta)
    worst_pair = 0.0
    for x, y in itertools.permutations(range(4), 2):
        pair = pld.from_two_probability_mass_functions(
            {i: math.log(v) for i, v in enumerate(k[y])},
            {i: math.log(v) for i, v in enumerate(k[x])})
        worst_pair = max(worst_pair, pair.self_compose(n).get_epsilon_for_delta(delta))
    assert worst_pair - 1e-9 <= result.epsilon <= n * md.ldp_level(k) + 1e-9
    assert result.basic == pytest.approx(n * md.ldp_level(k))


def test_advanced_composition_by_hand_and_heterogeneous_sequences():
    k1, k2 = md.randomized_response(3, 0.5), md.randomized_response(4, 1.0)
    result = md.composed_epsilon([k1, k2], 5, 1e-6)
    levels = [0.5, 1.0] * 5
    assert result.uses == 10
    assert result.basic == pytest.approx(7.5)
    assert result.advanced == pytest.approx(
        math.sqrt(2 * math.log(1e6) * sum(e * e for e in levels))
        + sum(e * (math.exp(e) - 1) for e in levels))
    assert result.epsilon < result.basic
    # The sequence composed by hand with dp_accounting.
    one = md.privacy_loss_distribution(k1).compose(md.privacy_loss_distribution(k2))
    assert result.epsilon == pytest.approx(one.self_compose(5).get_epsilon_for_delta(1e-6))
    # composed_delta inverts it, and advanced δ inverts advanced ε.
    back = md.composed_delta([k1, k2], 5, result.epsilon)
    assert back.delta <= 1e-6 * (1 + 1e-6)
    assert md.composed_delta([k1, k2], 5, result.advanced).advanced == pytest.approx(1e-6)
    assert md.composed_delta(k1, 4, 2.0).basic == 0.0  # exact: 4 × 0.5 ≤ 2, pure
    assert md.composed_delta(k1, 4, 1.9).basic == 1.0  # exact: the stated constant


def test_tight_accounting_beats_both_bounds_at_scale():
    k = md.randomized_response(4, 0.1)
    result = md.composed_epsilon(k, 1000, 1e-6)
    assert result.epsilon < result.advanced < result.basic


def test_pml_is_refused_or_bounded_by_the_chain_rule():
    k = md.randomized_response(3, 1.0)
    prior = np.array([0.5, 0.3, 0.2])
    with pytest.raises(UnsupportedError, match="pml_composition_bound"):
        md.composed_epsilon(k, 3, 1e-6, notion=md.PML(1.0, prior=prior))
    with pytest.raises(UnsupportedError, match="no composition result"):
        md.composed_delta(k, 3, 1.0, notion=md.PML(1.0, c=0.1))
    bound = md.accounting.pml_composition_bound(k, 3, prior, 0.01)
    assert bound == pytest.approx(md.bounds.composition_envelope_bound([k.matrix] * 3, prior, 0.01))
    # Non-adaptive uses: each step leaks at most the kernel's maximal leakage.
    assert bound <= 3 * md.maximal_leakage(k) + math.log(100) + 1e-9


def test_refusals():
    k = md.randomized_response(3, 1.0)
    with pytest.raises(InvalidInputError, match="n"):
        md.composed_epsilon(k, 0, 1e-6)
    with pytest.raises(InvalidInputError, match="delta"):
        md.composed_epsilon(k, 2, 0.0)
    with pytest.raises(InvalidInputError, match="discretization"):
        md.composed_epsilon(k, 2, 1e-6, discretization=-1.0)
    with pytest.raises(InvalidInputError, match="kernels"):
        md.composed_epsilon([], 2, 1e-6)
    with pytest.raises(InvalidInputError, match="inputs"):
        md.accounting.tradeoff_curve([[1.0]])


def test_a_kernel_with_zeros_has_an_infinite_level_and_a_finite_delta():
    k = np.array([[0.5, 0.5, 0.0], [0.0, 0.5, 0.5]])
    pair = md.dominating_pair(k)
    assert pair.hockey_stick(math.inf) == pytest.approx(0.5)
    result = md.composed_delta(k, 2, 1.0)
    assert result.delta == pytest.approx(0.75, abs=1e-6)  # 1 − (1/2)²: a zero seen once
    assert result.basic == 1.0  # exact: the stated constant
    assert md.composed_epsilon(k, 2, 0.5).epsilon == math.inf  # δ below the 0.75
    assert md.composed_epsilon(k, 2, 0.9).epsilon == pytest.approx(0.0, abs=1e-3)


def test_composed_delta_at_a_huge_epsilon():
    """Beyond every composed loss δ is 0 for a kernel with finite LDP, and the infinity
    mass 1 − (1 − 1/2)² = 3/4 for one with zeros; ε = 1e308 overflowed dp_accounting."""
    huge = md.composed_delta(md.randomized_response(3, 1.0), 5, 1e308)
    assert huge.delta == 0.0  # exact: no composed loss is that large
    zeros = np.array([[0.5, 0.5, 0.0], [0.0, 0.5, 0.5]])
    assert md.composed_delta(zeros, 2, 1e308).delta == pytest.approx(0.75, abs=1e-9)


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

TINY = np.array([[1.0, 5e-324, 0.0], [0.2, 0.5, 0.3], [0.1, 0.2, 0.7]])


# -- hardening: bad input by name, extreme but valid input ----------------------------


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

ORDER = ("pld", "basic", "advanced")  # the documented tie order


def dirichlet_kernel(seed: int, n_inputs: int, n_outputs: int, concentration: float):
    rng = np.random.default_rng(seed)
    return rng.dirichlet(np.full(n_outputs, concentration), size=n_inputs)


def ldp_by_hand(k: np.ndarray) -> float:
    """max over columns and ordered row pairs of log(K[x, y] / K[x', y]) (no zeros)."""
    logs = np.log(k)
    return float(max(np.max(logs[x] - logs[y]) for x, y in
                     itertools.permutations(range(k.shape[0]), 2)))


def product_hockey_stick(k: np.ndarray, n: int, epsilon: float) -> float:
    """max over ordered row pairs of Σ_o (K_x'^⊗n(o) − e^ε K_x^⊗n(o))^+, by enumerating
    the multisets of n outputs: n uses of K on one input against another. Every valid
    δ(ε) of n uses is at least this (the non-adaptive use is one of the compositions)."""
    m = k.shape[1]
    worst = 0.0
    for x, y in itertools.permutations(range(k.shape[0]), 2):
        total = 0.0
        for outcome in itertools.combinations_with_replacement(range(m), n):
            counts = np.bincount(outcome, minlength=m)
            ways = math.factorial(n) / math.prod(math.factorial(c) for c in counts)
            upper = ways * math.prod(k[y, o] ** c for o, c in enumerate(counts))
            lower = ways * math.prod(k[x, o] ** c for o, c in enumerate(counts))
            total += max(upper - math.exp(epsilon) * lower, 0.0)
        worst = max(worst, total)
    return worst


def check_the_winner(result, value: float) -> None:
    """``value`` (the reported ε or δ) is the minimum of the three bounds, and
    ``method`` names the first bound that attains it."""
    bounds = {"pld": result.pld, "basic": result.basic, "advanced": result.advanced}
    smallest = min(bounds.values())
    assert value == pytest.approx(smallest, rel=1e-15, abs=0.0)
    assert all(value <= b for b in bounds.values())
    assert result.method in ORDER
    assert bounds[result.method] == pytest.approx(value, rel=1e-15, abs=0.0)
    # No bound before the winner in the documented order attains the minimum.
    for name in ORDER[:ORDER.index(result.method)]:
        assert bounds[name] > smallest


def test_the_issues_kernel_reports_basic_composition():
    """Issue 36: a 3 x 4 Dirichlet(2) kernel, 5 uses at δ = 1e-6: the PLD's pessimistic
    grid gave 7.42979 > 5·LDP(K) = 7.42963. The smaller, basic, is reported, and named."""
    k = dirichlet_kernel(7, 3, 4, 2.0)
    basic = 5 * ldp_by_hand(k)
    assert basic == pytest.approx(7.42963, abs=1e-5)
    result = md.composed_epsilon(k, 5, 1e-6)
    assert result.pld == pytest.approx(7.42979, abs=1e-5)  # the issue's number: kept
    assert result.pld > basic  # the grid put the PLD above basic composition
    assert result.method == "basic"
    assert result.epsilon == pytest.approx(basic, rel=1e-12)
    assert float(result) == pytest.approx(basic, rel=1e-12)
    check_the_winner(result, result.epsilon)
    # Valid: 5 uses on one input against another leak nothing beyond it (δ = 0 there).
    assert product_hockey_stick(k, 5, result.epsilon) <= 1e-12


def test_tight_accounting_still_wins_where_it_is_tighter():
    k = md.randomized_response(4, 0.1)
    result = md.composed_epsilon(k, 1000, 1e-6)
    assert result.method == "pld"
    assert result.epsilon == pytest.approx(result.pld, rel=1e-15)
    assert result.epsilon < result.advanced < result.basic


def test_composed_delta_is_zero_where_basic_composition_certifies_epsilon():
    k = dirichlet_kernel(7, 3, 4, 2.0)
    total = 5 * ldp_by_hand(k)
    result = md.composed_delta(k, 5, total * (1 + 1e-9))
    assert result.delta == 0.0  # exact: basic composition's constant
    assert result.method in ("pld", "basic")
    check_the_winner(result, result.delta)


kernels = st.tuples(
    st.integers(0, 2**32 - 1),  # seed
    st.integers(2, 4),  # inputs
    st.integers(2, 4),  # outputs
    st.sampled_from([0.5, 1.0, 2.0, 5.0]),  # Dirichlet concentration of the rows
)


@settings(max_examples=40, deadline=None)
@given(kernel=kernels, n=st.integers(1, 4),
       delta=st.sampled_from([1e-9, 1e-6, 1e-3, 0.05]))
def test_composed_epsilon_is_the_smallest_valid_bound(kernel, n, delta):
    k = dirichlet_kernel(*kernel)
    result = md.composed_epsilon(k, n, delta)
    assert result.basic == pytest.approx(n * ldp_by_hand(k), rel=1e-9)
    assert result.epsilon <= result.basic
    assert result.epsilon <= result.advanced
    check_the_winner(result, result.epsilon)
    # Valid: the n-fold use on one input against another needs no more δ at that ε.
    assert product_hockey_stick(k, n, result.epsilon) <= delta * (1 + 1e-9) + 1e-12


@settings(max_examples=40, deadline=None)
@given(kernel=kernels, n=st.integers(1, 4), share=st.floats(0.05, 1.5))
def test_composed_delta_is_the_smallest_valid_bound(kernel, n, share):
    k = dirichlet_kernel(*kernel)
    total = n * ldp_by_hand(k)
    epsilon = share * total
    result = md.composed_delta(k, n, epsilon)
    assert result.delta <= result.basic
    assert result.delta <= result.advanced
    check_the_winner(result, result.delta)
    if epsilon >= total * (1 + 1e-9):  # basic composition certifies it: δ = 0
        assert result.delta == 0.0  # exact: a constant of the bound
    # Valid: at least the δ of the n-fold use on one input against another.
    assert result.delta >= product_hockey_stick(k, n, epsilon) - 1e-12
