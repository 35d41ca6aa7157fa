"""Composition (issue 22): the dominating pair against the privacy profile and every row
pair, composition against dp_accounting's own randomized response and an exact
enumeration of the n-fold product, and basic/advanced composition by hand."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from dp_accounting.pld import privacy_loss_distribution as pld
from hypothesis import given, settings
from hypothesis import strategies as st

import mechdesign as md
from mechdesign.errors import InvalidInputError, UnsupportedError


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
                                         abs=n * md.accounting.DISCRETIZATION)
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
