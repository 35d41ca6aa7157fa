"""Tests of the leakage measures: paper examples, relations the papers prove (hypothesis),
an independent library (qif) and input validation.

Also: g-vulnerability and Bayes vulnerability against their definitions (issue 21), and
the Dobrushin coefficient η_TV against a pairwise loop and as the TV contraction
coefficient.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
import qif
from hypothesis import assume, given, settings, strategies as st

import mechdesign as md
from tests.helpers import (
    best_gain_by_strategies,
    distributions,
    kernels,
    positive_random_kernel,
    random_kernel,
)

LOG = math.log


# -- Dobrushin paper ---------------------------------------------------------------------------


def test_dobrushin_example2_k1():
    hi, lo = 15 / 16, 1 / 16
    k1 = np.array([[hi, lo]] * 5 + [[lo, hi]] * 5)  # eq. (43), N = 10
    assert md.pml_capacity(k1, 0.05) == pytest.approx(LOG(10 / 3), rel=1e-14)
    assert md.ldp_level(k1) == pytest.approx(LOG(15), rel=1e-14)
    assert md.dobrushin_coefficient(k1) == pytest.approx(
        md.dobrushin_bound(LOG(10 / 3), 0.05, 10), rel=1e-14
    )
    assert md.dobrushin_coefficient(k1) == pytest.approx(7 / 8, rel=1e-14)


def test_dobrushin_example2_k2():
    row = np.array([1, 1, 1, 0, 0]) / 3
    k2 = np.array([np.roll(row, i) for i in range(5)])  # eq. (44), N = 5
    assert md.pml_capacity(k2, 0.1) == pytest.approx(LOG(10 / 3), rel=1e-14)
    assert md.ldp_level(k2) == math.inf


def test_dobrushin_eq4_kernels():
    t = 1 / 3
    k1 = np.array([[t, t, t, 0], [0, t, t, t], [t, 0, t, t], [t, t, 0, t]])
    k2 = np.eye(4)
    assert md.ldp_level(k1) == math.inf
    assert md.ldp_level(k2) == math.inf
    for c in (0.01, 0.1, 0.25):
        # Column: max 1/3, sum 1, min 0 → log((1/3)/c).
        assert md.pml_capacity(k1, c) == pytest.approx(LOG(1 / (3 * c)), rel=1e-13)
        # "Any mechanism (even the identity) satisfies (−log c, c)-PML", with equality here.
        assert md.pml_capacity(k2, c) == pytest.approx(-LOG(c), rel=1e-13)
        assert md.pml_capacity(k1, c) < md.pml_capacity(k2, c)


@given(kernels(), st.floats(0.01, 1.0))
def test_every_kernel_satisfies_minus_log_c(k, fraction):
    c = fraction / k.shape[0]
    assert md.pml_capacity(k, c) <= -LOG(c) + 1e-12


def test_pml_capacity_closed_form_matches_vertex_enumeration_of_the_prior_polytope():
    """Q_X(c) has vertices c·1 + (1 − Nc) e_j; the supremum of a ratio of a constant to a
    linear function over a polytope is attained at a vertex (Lemma 4)."""
    rng = np.random.default_rng(21)
    for n, m in [(3, 4), (5, 3), (6, 6)]:
        k = random_kernel(rng, n, m, zeros=0.2)
        for c in (0.3 / n, 0.9 / n, 1.0 / n):
            vertices = c + (1 - n * c) * np.eye(n)
            best = max(md.pml_level(k, v) for v in vertices)
            assert md.pml_capacity(k, c) == pytest.approx(best, rel=1e-12)


# -- envelope paper ----------------------------------------------------------------------------


ENVELOPE_EQ7 = np.array(
    [[0, 0, 0.5, 0.5], [0, 0, 0.5, 0.5], [0, 0.2, 0.4, 0.4], [0.2, 0, 0.4, 0.4]]
)
UNIFORM4 = np.full(4, 0.25)


def test_envelope_example1_leakages_and_post_processing():
    leak = md.pointwise_leakage(ENVELOPE_EQ7, UNIFORM4)
    np.testing.assert_allclose(leak, [LOG(4), LOG(4), LOG(10 / 9), LOG(10 / 9)], rtol=1e-14, atol=0)
    np.testing.assert_allclose(
        md.Mechanism(ENVELOPE_EQ7).output_distribution(UNIFORM4),
        [0.05, 0.05, 0.45, 0.45],
        rtol=1e-14,
    )
    h = np.array([[1, 0], [0, 1], [1, 0], [0, 1]])  # h(1) = h(3) = 1, h(2) = h(4) = 2
    z = md.Mechanism(ENVELOPE_EQ7).then(h)
    np.testing.assert_allclose(md.pointwise_leakage(z, UNIFORM4), [LOG(6 / 5)] * 2, rtol=1e-14)
    # The same numbers as event leakages of Y (envelope paper, App. C).
    assert md.measures.event_leakage(ENVELOPE_EQ7, UNIFORM4, [1, 0, 1, 0]) == pytest.approx(
        LOG(6 / 5)
    )


EXAMPLE3 = np.array([[0.9, 0.0, 0.1], [0.0, 0.9, 0.1]])
HALF = np.array([0.5, 0.5])


def test_envelope_example3_event_leakage_of_a_union():
    assert md.measures.event_leakage(EXAMPLE3, HALF, [1, 0, 0]) == pytest.approx(LOG(2), rel=1e-14)
    assert md.measures.event_leakage(EXAMPLE3, HALF, [0, 1, 0]) == pytest.approx(LOG(2), rel=1e-14)
    assert md.measures.event_leakage(EXAMPLE3, HALF, [1, 1, 0]) == pytest.approx(0.0, abs=1e-15)


def test_envelope_example4_event_leakage_is_not_monotone():
    e, e_prime = [0, 0, 1], [1, 0, 1]  # {3} ⊂ {1, 3}: leakage increases
    assert md.measures.event_leakage(EXAMPLE3, HALF, e) == pytest.approx(0.0, abs=1e-15)
    assert md.measures.event_leakage(EXAMPLE3, HALF, e_prime) == pytest.approx(
        LOG(1 / 0.55), rel=1e-14
    )
    f, f_prime = [1, 0, 0], [1, 0, 1]  # {1} ⊂ {1, 3}: leakage decreases
    assert md.measures.event_leakage(EXAMPLE3, HALF, f) > md.measures.event_leakage(
        EXAMPLE3, HALF, f_prime
    )


def test_randomised_event_is_a_convex_combination_inside_the_ratio():
    w = np.array([0.3, 0.0, 1.0])
    k = EXAMPLE3
    expected = LOG(max(k @ w) / (HALF @ k @ w))
    assert md.measures.event_leakage(k, HALF, w) == pytest.approx(expected, rel=1e-14)


# -- relations the papers prove (hypothesis) ---------------------------------------------------


@given(st.data())
def test_pml_level_at_most_ldp_level(data):
    k = data.draw(kernels())
    prior = data.draw(distributions(k.shape[0]))
    assert md.pml_level(k, prior) <= md.ldp_level(k) + 1e-12


@given(kernels(allow_zeros=False))
def test_sup_over_priors_approaches_ldp_level(k):
    """Proposition 1: LDP(K) = sup_P max_y ℓ(X → y). Priors concentrating on the input
    with the smallest entry of the worst column approach the supremum."""
    n = k.shape[0]
    ratios = k.max(axis=0) / k.min(axis=0)
    y = int(np.argmax(ratios))
    x_min = int(np.argmin(k[:, y]))
    t = 1e-9 * k[:, y].min() / k[:, y].max()  # P_Y(y) − K[x_min, y] = O(t · max)
    prior = np.full(n, t / (n - 1))
    prior[x_min] = 1 - t
    assert md.pml_level(k, prior) == pytest.approx(md.ldp_level(k), rel=1e-6, abs=1e-8)


@given(kernels(), st.floats(0.01, 0.99), st.floats(0.01, 0.99))
def test_pml_capacity_non_increasing_in_c(k, f1, f2):
    n = k.shape[0]
    c_small, c_large = sorted((f1 / n, f2 / n))
    assert md.pml_capacity(k, c_large) <= md.pml_capacity(k, c_small) + 1e-12


@given(kernels())
def test_pml_capacity_at_one_over_n_is_uniform_pml(k):
    n = k.shape[0]
    assert md.pml_capacity(k, 1.0 / n) == pytest.approx(
        md.pml_level(k, np.full(n, 1.0 / n)), rel=1e-12, abs=1e-14
    )


@given(kernels())
def test_pml_capacity_tends_to_ldp_level_as_c_vanishes(k):
    n = k.shape[0]
    ldp = md.ldp_level(k)
    # The limit needs c·Σ_x K[x, y] ≪ min_x K[x, y], so scale c to the smallest entry.
    c = 1e-9 * k[k > 0].min() / n
    assume(c > 1e-300)  # below that the limit is not reachable in floating point
    if math.isinf(ldp):
        # A column mixing zeros and positives: C ≥ log(1/(Nc)) → ∞ (Lemma 1's argument).
        assert md.pml_capacity(k, c) >= -LOG(n * c) - 1e-9
    else:
        assert md.pml_capacity(k, c) == pytest.approx(ldp, rel=1e-6, abs=1e-8)
        assert md.pml_capacity(k, c) <= ldp + 1e-12


@given(st.data())
def test_pml_post_processing_inequality(data):
    k = data.draw(kernels())
    post = data.draw(kernels(n=k.shape[1]))
    prior = data.draw(distributions(k.shape[0]))
    before = md.pml_level(k, prior)
    after = md.pml_level(md.Mechanism(k).then(post), prior)
    assert after <= before + 1e-12


@given(st.data())
def test_maximal_leakage_at_least_mutual_information(data):
    k = data.draw(kernels())
    prior = data.draw(distributions(k.shape[0]))
    assert md.mutual_information(k, prior) <= md.maximal_leakage(k) + 1e-12


@given(st.data())
def test_pointwise_leakage_bounds(data):
    """0 ≤ ℓ(X → y) ≤ log(1 / min_{x ∈ supp} P(x)) (envelope paper eq. 6) on outcomes
    that occur; −∞ on outcomes that do not."""
    k = data.draw(kernels())
    prior = data.draw(distributions(k.shape[0]))
    leak = md.pointwise_leakage(k, prior)
    p_y = prior @ k
    occurs = p_y > 0
    upper = -LOG(prior[prior > 0].min())
    assert np.all(leak[occurs] >= -1e-12)
    assert np.all(leak[occurs] <= upper + 1e-12)
    assert np.all(leak[~occurs] == -math.inf)


@given(st.data())
def test_zero_prior_entries_restrict_to_the_support(data):
    k = data.draw(kernels(min_size=3))
    prior = data.draw(distributions(k.shape[0]))
    assume(0 < np.count_nonzero(prior) < k.shape[0])
    support = prior > 0
    sub_k, sub_p = k[support], prior[support]
    np.testing.assert_allclose(
        md.pointwise_leakage(k, prior), md.pointwise_leakage(sub_k, sub_p), rtol=1e-12, atol=1e-14
    )
    assert md.mutual_information(k, prior) == pytest.approx(
        md.mutual_information(sub_k, sub_p), rel=1e-12, abs=1e-15
    )


@given(st.data())
def test_information_density_identities(data):
    k = data.draw(kernels(allow_zeros=False))
    prior = data.draw(distributions(k.shape[0], allow_zeros=False))
    dens = md.measures.information_density(k, prior)
    p_y = prior @ k
    np.testing.assert_allclose(np.exp(dens) * p_y, k, rtol=1e-12, atol=0)
    # pointwise_leakage returns its exact lower end 0 where rounding gives −1e-16. The
    # density is log K − log P_Y: entries down to ~1e-7 give logs near −16, whose spacing
    # is 3.6e-15, so a density of exactly 0 comes out as a few units of that.
    np.testing.assert_allclose(
        dens.max(axis=0), md.pointwise_leakage(k, prior), rtol=1e-12, atol=1e-14
    )
    # I(X; Y) = E[i(X; Y)].
    assert np.sum(prior[:, None] * k * dens) == pytest.approx(
        md.mutual_information(k, prior), rel=1e-9, abs=1e-13
    )


@given(kernels())
def test_renyi_ldp_level_orders(k):
    assert md.measures.renyi_ldp_level(k, math.inf) == md.ldp_level(k) or (
        md.measures.renyi_ldp_level(k, math.inf) == pytest.approx(md.ldp_level(k), rel=1e-12)
    )
    values = [md.measures.renyi_ldp_level(k, a) for a in (0.5, 1.0, 2.0, 5.0, math.inf)]
    for lower, upper in itertools.pairwise(values):
        assert lower <= upper * (1 + 1e-9) + 1e-12


# -- closed forms and an independent library ----------------------------------------------------


@pytest.mark.parametrize("flip", [0.05, 0.2, 0.5])
def test_binary_symmetric_channel(flip):
    k = np.array([[1 - flip, flip], [flip, 1 - flip]])
    entropy = -(flip * LOG(flip) + (1 - flip) * LOG(1 - flip))
    assert md.mutual_information(k, HALF) == pytest.approx(LOG(2) - entropy, rel=1e-12, abs=1e-15)
    assert md.mutual_information(k, HALF, base=2) == pytest.approx(
        (LOG(2) - entropy) / LOG(2), rel=1e-12, abs=1e-15
    )
    assert md.maximal_leakage(k) == pytest.approx(LOG(2 * max(flip, 1 - flip)), rel=1e-14)


@pytest.mark.parametrize("seed", range(6))
def test_maximal_leakage_against_qif_multiplicative_capacity(seed):
    rng = np.random.default_rng(seed)
    k = random_kernel(rng, 2 + seed, 7 - seed, zeros=0.3)
    # qif (Chatzikokolakis et al.) returns the multiplicative Bayes capacity Σ_y max_x K.
    assert md.maximal_leakage(k) == pytest.approx(
        LOG(qif.measure.bayes_vuln.mult_capacity(k)), rel=1e-13
    )


def test_ldp_of_randomised_response():
    eps = 1.3
    k = np.full((4, 4), 1.0)
    np.fill_diagonal(k, math.exp(eps))
    k /= k.sum(axis=1, keepdims=True)
    assert md.ldp_level(k) == pytest.approx(eps, rel=1e-14)
    assert md.measures.renyi_ldp_level(k, math.inf) == pytest.approx(eps, rel=1e-14)


def test_extreme_probabilities_do_not_overflow():
    """Regression: with P_Y(y) near the smallest float, K/P_Y overflowed to +inf."""
    k = np.array([[0.0, 0.0, 1.0], [0.5, 0.5, 0.0], [0.3, 0.3, 0.4]])
    prior = np.array([1.0, 0.0, 2.2e-309])
    value = md.mutual_information(k, prior)
    assert math.isfinite(value)
    assert value == pytest.approx(0.0, abs=1e-300)
    leak = md.pointwise_leakage(k, prior)
    # ℓ(X → 0) = log(0.3 / (0.3 · 2.2e-309)) = −log(2.2e-309), computed in logs.
    assert leak[0] == pytest.approx(-LOG(2.2e-309), rel=1e-12)


def test_all_zero_columns_are_ignored():
    k = np.array([[0.5, 0.0, 0.5], [0.25, 0.0, 0.75]])
    assert md.ldp_level(k) == pytest.approx(LOG(2), rel=1e-14)
    assert md.pml_capacity(k, 0.25) == pytest.approx(md.pml_capacity(k[:, [0, 2]], 0.25), rel=1e-14)
    assert md.pointwise_leakage(k, HALF)[1] == -math.inf


def test_single_input_kernel():
    k = np.array([[0.2, 0.8]])
    assert md.ldp_level(k) == pytest.approx(0.0, abs=1e-12)
    assert md.measures.renyi_ldp_level(k, 2.0) == pytest.approx(0.0, abs=1e-12)
    assert md.pml_capacity(k, 1.0) == pytest.approx(0.0, abs=1e-15)


# -- bad input -----------------------------------------------------------------------------------


@pytest.mark.parametrize("c", [0.0, -0.1, 0.26, math.nan, math.inf])
def test_c_outside_range_raises(c):
    with pytest.raises(md.InvalidInputError, match=r"c must satisfy 0 < c <= 1/N"):
        md.pml_capacity(np.eye(4), c)


def test_c_equal_to_one_over_n_in_floating_point_is_accepted():
    assert md.pml_capacity(np.full((3, 2), 0.5), 1 / 3) == pytest.approx(0.0, abs=1e-15)


@pytest.mark.parametrize(
    ("prior", "fragment"),
    [
        ([0.5, 0.5, 0.0], "prior must have length 2"),
        ([0.7, 0.7], "prior must sum to 1"),
        ([1.2, -0.2], "prior must be non-negative"),
        ([math.nan, 0.5], "prior must be finite"),
        ([[0.5, 0.5]], "prior must be 1-dimensional"),
    ],
)
def test_bad_prior_raises(prior, fragment):
    for measure in (md.mutual_information, md.pointwise_leakage, md.pml_level):
        with pytest.raises(md.InvalidInputError, match=fragment):
            measure(HALF[None, :].repeat(2, axis=0), prior)


@pytest.mark.parametrize(
    "kernel", [[[0.5, 0.6], [0.5, 0.5]], [[1.1, -0.1], [0.5, 0.5]], [[math.nan, 1], [1, 0]]]
)
def test_bad_kernel_raises_in_every_measure(kernel):
    for measure in (md.ldp_level, md.maximal_leakage, md.dobrushin_coefficient):
        with pytest.raises(md.InvalidInputError, match="kernel must be"):
            measure(kernel)


def test_bad_alpha_and_base_raise():
    with pytest.raises(md.InvalidInputError, match="alpha must be > 0"):
        md.measures.renyi_ldp_level(np.eye(2), 0.0)
    with pytest.raises(md.InvalidInputError, match="base"):
        md.mutual_information(np.eye(2), HALF, base=1.0)


def test_bad_events_raise():
    with pytest.raises(md.InvalidInputError, match="one weight per output"):
        md.measures.event_leakage(EXAMPLE3, HALF, [1, 0])
    with pytest.raises(md.InvalidInputError, match=r"\[0, 1\]"):
        md.measures.event_leakage(EXAMPLE3, HALF, [1.5, 0, 0])
    with pytest.raises(md.InvalidInputError, match="positive probability"):
        md.measures.event_leakage(np.array([[1.0, 0.0], [1.0, 0.0]]), HALF, [0, 1])


def test_paper_examples_registry_values():
    """The built-in examples carry the values their papers print."""
    ex = md.reproduce.PAPER_EXAMPLES
    assert md.pml_capacity(ex["dobrushin-example2-K1"].mechanism, 0.05) == pytest.approx(
        LOG(10 / 3), rel=1e-14
    )
    assert md.pml_capacity(ex["dobrushin-example2-K2"].mechanism, 0.1) == pytest.approx(
        LOG(10 / 3), rel=1e-14
    )
    np.testing.assert_allclose(
        md.pointwise_leakage(ex["envelope-example1"].mechanism, UNIFORM4),
        [LOG(4), LOG(4), LOG(10 / 9), LOG(10 / 9)],
        rtol=1e-14,
    )
    # SRR (robust-LDP paper, Def. 4) at ε = log 2 with |U| = 2: within one secret the
    # ratio reaches e^{2ε} = 4, across secrets it stays within e^ε = 2 (Lemma 2).
    srr = ex["robust-ldp-example4-SRR"].mechanism.matrix
    assert md.ldp_level(srr) == pytest.approx(2 * LOG(2), rel=1e-14)
    across = max(srr[x, y] / srr[x2, y] for y in range(4) for x in (0, 1) for x2 in (2, 3))
    assert across == pytest.approx(2.0, rel=1e-14)
    assert md.ldp_level(ex["falpha-example5-P"].mechanism) == math.inf


@given(kernels(max_size=6), st.sampled_from([0.3, 0.999999, 1.0, 1.000001, 2.0, 7.5, 60.0]))
def test_renyi_ldp_level_equals_the_pairwise_maximum(k, alpha):
    """The vectorised level against the definition: a loop over ordered row pairs."""
    expected = max(
        md.renyi_divergence(k[i], k[j], alpha)
        for i in range(k.shape[0])
        for j in range(k.shape[0])
        if i != j
    )
    value = md.measures.renyi_ldp_level(k, alpha)
    if math.isinf(expected):
        assert value == math.inf
    else:
        assert value == pytest.approx(expected, rel=1e-9, abs=1e-13)


def test_pointwise_leakage_of_a_constant_column_is_exactly_zero():
    """ℓ(X → y) ≥ 0 holds exactly; rounding in P_Y must not push it below (hypothesis
    found a constant column with ℓ = −1.7e-16, which later failed a check ε ≥ 0)."""
    k = np.array([[0.49484944, 0.50515056], [0.49484944, 0.50515056]])
    for prior in ([0.3, 0.7], [0.1234567, 0.8765433], [1 / 3, 2 / 3]):
        leak = md.pointwise_leakage(k, prior)
        assert np.all(leak >= 0)
        assert md.bounds.pml_lower_quantile(k, prior, 0.5) >= 0


def map_success_probability(kernel, prior):
    """P(MAP guess = X), one output at a time: the guess is the input of largest joint
    probability, and the adversary is right with that probability."""
    k = np.asarray(kernel, dtype=float)
    total = 0.0
    for y in range(k.shape[1]):
        joint = [prior[x] * k[x, y] for x in range(k.shape[0])]
        guess = max(range(len(joint)), key=joint.__getitem__)
        total += joint[guess]
    return total


# -- g-vulnerability and Bayes vulnerability (issue 21) -------------------------------------


def test_bayes_vulnerability_is_the_map_success_probability():
    rng = np.random.default_rng(1)
    for n, m in [(2, 2), (3, 5), (5, 3), (6, 6)]:
        k, p = positive_random_kernel(rng, n, m), rng.dirichlet(np.ones(n))
        assert md.measures.bayes_vulnerability(k, p) == pytest.approx(map_success_probability(k, p),
                                                             rel=1e-12)
        assert md.measures.g_vulnerability(k, p, np.eye(n)) == pytest.approx(
            map_success_probability(k, p), rel=1e-12)


def test_g_vulnerability_is_the_best_guessing_strategy():
    rng = np.random.default_rng(2)
    for n, m, w in [(3, 3, 2), (4, 3, 4), (2, 4, 3)]:
        k, p = positive_random_kernel(rng, n, m), rng.dirichlet(np.ones(n))
        g = rng.normal(size=(w, n))
        assert md.measures.g_vulnerability(k, p, g) == pytest.approx(
            best_gain_by_strategies(k, p, g), rel=1e-12, abs=1e-15)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 6), m=st.integers(1, 6),
       w=st.integers(1, 5))
def test_g_vulnerability_inequalities(seed, n, m, w):
    """Alvim et al., CSF 2012: posterior vulnerability is at least the prior one
    (g-leakage ≥ 0), post-processing never increases it (data processing), and a
    channel that reveals X attains Σ_x P(x) max_w g[w, x]."""
    rng = np.random.default_rng(seed)
    k, p = positive_random_kernel(rng, n, m), rng.dirichlet(np.ones(n))
    g = rng.normal(size=(w, n))
    prior_vulnerability = float(np.max(g @ p))
    v = md.measures.g_vulnerability(k, p, g)
    assert v >= prior_vulnerability - 1e-12
    post = positive_random_kernel(rng, m, 3)
    assert md.measures.g_vulnerability(k @ post, p, g) <= v + 1e-12
    assert md.measures.g_vulnerability(np.eye(n), p, g) >= v - 1e-12
    assert md.measures.g_vulnerability(np.eye(n), p, g) == pytest.approx(
        float(p @ g.max(axis=0)), rel=1e-12, abs=1e-15)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 6),
       eps=st.floats(0.05, 5.0))
def test_bayes_vulnerability_of_ldp_kernels_is_bounded_by_e_eps_max_prior(seed, n, eps):
    """For ε-LDP K: max_x π(x) K[x,y] ≤ e^ε max π · min_x K[x,y], and Σ_y min_x K[x,y]
    ≤ 1, so V(π, K) ≤ e^ε max π (min-entropy leakage ≤ ε)."""
    rng = np.random.default_rng(seed)
    p = rng.dirichlet(np.ones(n))
    design = md.design(md.LDP(eps), p, utility="bayes")
    assert design.utility <= min(1.0, math.exp(eps) * p.max()) + 1e-9
    assert design.utility >= p.max() - 1e-12


def test_dobrushin_coefficient_against_pairwise_loop():
    rng = np.random.default_rng(0)
    k = rng.dirichlet(np.ones(5), size=6)
    expected = max(
        0.5 * sum(abs(k[i, y] - k[j, y]) for y in range(5))
        for i, j in itertools.combinations(range(6), 2)
    )
    assert md.dobrushin_coefficient(k) == pytest.approx(expected, rel=1e-14)
    assert md.dobrushin_coefficient(np.eye(3)) == pytest.approx(1.0, abs=1e-12)
    assert md.dobrushin_coefficient(np.full((3, 2), 0.5)) == pytest.approx(0.0, abs=1e-12)
    assert md.dobrushin_coefficient([[0.3, 0.7]]) == pytest.approx(0.0, abs=1e-12)


@given(st.data())
def test_dobrushin_coefficient_is_the_tv_contraction_coefficient(data):
    """TV(PK, QK) ≤ η_TV(K) TV(P, Q) for all P, Q (eq. 2 and 9)."""
    k = data.draw(kernels())
    p = data.draw(distributions(k.shape[0]))
    q = data.draw(distributions(k.shape[0]))
    eta = md.dobrushin_coefficient(k)
    assert md.total_variation(p @ k, q @ k) <= eta * md.total_variation(p, q) + 1e-12
