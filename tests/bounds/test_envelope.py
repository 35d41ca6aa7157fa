"""Tests of the PML envelopes and the leakage distribution (envelope paper): the paper's
examples, Theorems 1 and 5, quantiles, Algorithm 1 against the closed form, the
composition bound, and bad input. The privacy profile is tested in
tests/measures/test_profile.py.

Hardening: bad input is refused by the argument's name, extreme valid input gets the
right answer (checked against an independent value), and sizes that cannot be computed
raise TooLargeError by name (the bad-input battery itself is tests/test_fuzz.py).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, strategies as st

import mechdesign as md
from tests.helpers import K3, K32, P3, distributions, kernels, random_kernel

# -- the PML side: quantiles, ψ1/ψ2, envelopes (Sec. II-C to V) ------------------------

EXAMPLE1 = md.reproduce.PAPER_EXAMPLES["envelope-example1"]
K1 = EXAMPLE1.mechanism.matrix
P1 = EXAMPLE1.prior
#: Example 1's post-processing h: outputs {1, 3} → 1 and {2, 4} → 2.
H1 = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [0.0, 1.0]])


def test_example1_leakage_and_probabilistic_pml():
    """Example 1: leakage log 4 on outputs 1, 2 (P_Y = 1/20 each) and log 10/9 on 3, 4;
    (log 10/9, 0.1)-probabilistic PML holds, and h breaks it (log 6/5 on both outputs)."""
    dist = md.bounds.leakage_distribution(K1, P1)
    np.testing.assert_allclose(dist.values, [math.log(10 / 9), math.log(4)], rtol=0, atol=1e-15)
    np.testing.assert_allclose(dist.probabilities, [0.9, 0.1], rtol=0, atol=1e-15)
    assert dist.cdf(0.5) == pytest.approx(0.9, abs=1e-15)
    assert md.bounds.pml_failure_probability(K1, P1, math.log(10 / 9)) == pytest.approx(
        0.1, abs=1e-15
    )
    processed = K1 @ H1
    np.testing.assert_allclose(
        md.pointwise_leakage(processed, P1), [math.log(6 / 5)] * 2, rtol=0, atol=1e-15
    )
    assert md.bounds.pml_failure_probability(processed, P1, math.log(10 / 9)) == (
        pytest.approx(1.0, abs=1e-12)
    )


def test_example2_quantiles():
    """Example 2: ε̲_Y(0.1) = log(10/9) and ε̄_Y(0.1) = log 4 (δ sits on the jump)."""
    assert md.bounds.pml_lower_quantile(K1, P1, 0.1) == pytest.approx(math.log(10 / 9), abs=1e-15)
    assert md.bounds.pml_upper_quantile(K1, P1, 0.1) == pytest.approx(math.log(4), abs=1e-15)
    # Off the jump both quantiles agree.
    assert md.bounds.pml_lower_quantile(K1, P1, 0.05) == pytest.approx(math.log(4), abs=1e-15)
    assert md.bounds.pml_upper_quantile(K1, P1, 0.3) == pytest.approx(math.log(10 / 9), abs=1e-15)


@pytest.mark.parametrize("delta", [0.01, 0.05, 0.1])
def test_example1_envelope_is_log4_up_to_a_tenth(delta):
    """Sec. IV after Theorem 2: ε_c(δ) = log 4 for δ ∈ (0, 0.1], by the exact algorithm."""
    envelope = md.pml_envelope(K1, P1, delta)
    assert envelope == pytest.approx(math.log(4), abs=1e-12)
    assert envelope.bad_mass >= delta - 1e-9


def test_example1_envelope_above_a_tenth_by_hand():
    """δ = 0.2: one piece per witness x ∈ {3, 4}, output 1 (resp. 2) plus 1/9 of outputs 3
    and 4, each of mass 0.1 and ratio (0.2 + 0.4/9)/0.1 = 22/9 (worked out by hand); the
    binary envelope only reaches log(5/3)."""
    assert md.pml_envelope(K1, P1, 0.2) == pytest.approx(math.log(22 / 9), abs=1e-9)
    assert md.binary_envelope(K1, P1, 0.2) == pytest.approx(math.log(5 / 3), abs=1e-12)


def test_theorem1_psi_values():
    """Theorem 1 (i): ψ1(log 10/9) = 13/180 < 2/27 after h; Sec. III: ψ2(log 3) = 0.05 and
    ψ2(log 10/9) = 13/90, while the failure probability is 0.1 at both."""
    eps = math.log(10 / 9)
    assert md.bounds.pml_psi1(K1, P1, eps) == pytest.approx(13 / 180, abs=1e-15)
    assert md.bounds.pml_psi1(K1 @ H1, P1, eps) == pytest.approx(2 / 27, abs=1e-15)
    assert md.bounds.pml_psi2(K1, P1, math.log(3)) == pytest.approx(0.05, abs=1e-15)
    assert md.bounds.pml_psi2(K1, P1, eps) == pytest.approx(13 / 90, abs=1e-15)
    assert md.bounds.pml_failure_probability(K1, P1, math.log(3)) == pytest.approx(0.1, abs=1e-15)


@given(kernels(min_size=2, max_size=5), st.data(), st.floats(0.0, 2.0))
def test_psi2_never_increases_under_post_processing(k, data, eps):
    """Theorem 1 (ii), on random post-processings; ψ1 ≤ the failure probability (Sec. III)."""
    prior = data.draw(distributions(k.shape[0]))
    post = data.draw(kernels(k.shape[1], data.draw(st.integers(1, 5))))
    assert md.bounds.pml_psi2(k @ post, prior, eps) <= md.bounds.pml_psi2(k, prior, eps) + 1e-12
    assert (
        md.bounds.pml_psi1(k, prior, eps)
        <= md.bounds.pml_failure_probability(k, prior, eps) + 1e-12
    )


@given(kernels(min_size=2, max_size=5), st.data(), st.floats(0.01, 0.99))
def test_quantiles_order_and_definition5(k, data, delta):
    """ε̲_Y(δ) ≤ ε̄_Y(δ) (Sec. IV), and (ε, δ)-probabilistic PML holds iff ε̲_Y(δ) ≤ ε."""
    prior = data.draw(distributions(k.shape[0]))
    lower = md.bounds.pml_lower_quantile(k, prior, delta)
    assert lower <= md.bounds.pml_upper_quantile(k, prior, delta)
    for eps in (lower, lower + 1e-6):
        assert md.bounds.pml_failure_probability(k, prior, eps) <= delta + 1e-12
    if lower > 1e-6:
        assert md.bounds.pml_failure_probability(k, prior, lower - 1e-6) > delta - 1e-12


def _envelope_instances():
    rng = np.random.default_rng(7)
    for n, m, zeros in [(2, 3, 0.0), (3, 3, 0.2), (3, 5, 0.0), (4, 4, 0.3), (5, 3, 0.0)]:
        for _ in range(3):
            prior = rng.dirichlet(np.ones(n))
            yield random_kernel(rng, n, m, zeros), prior


ENVELOPE_INSTANCES = list(_envelope_instances())
DELTAS = (0.03, 0.1, 0.25, 0.5, 0.8)


@pytest.mark.parametrize(("k", "prior"), ENVELOPE_INSTANCES)
def test_envelope_between_its_bounds_and_non_increasing(k, prior):
    """eq. (14) ≤ ε_c(δ) ≤ Theorem 3, and δ ↦ ε_c(δ) is non-increasing (Lemma 1)."""
    values = []
    for delta in DELTAS:
        envelope = md.pml_envelope(k, prior, delta)
        assert md.bounds.envelope_lower_bound(k, prior, delta) <= envelope + 1e-9
        assert envelope <= md.bounds.envelope_upper_bound(k, prior, delta) + 1e-12
        assert envelope <= envelope.upper <= envelope + 1e-9
        values.append(float(envelope))
    assert all(b <= a + 1e-12 for a, b in itertools.pairwise(values))


@pytest.mark.parametrize(("k", "prior"), ENVELOPE_INSTANCES)
def test_envelope_witness_attains_it(k, prior):
    """The returned post-processing Z has ε̄_Z(δ) ≥ ε_c(δ), checked through the quantile
    code (no LP), and every bad output leaks at least the value."""
    for delta in DELTAS:
        envelope = md.pml_envelope(k, prior, delta)
        processed = k @ envelope.post_processing
        assert md.bounds.pml_upper_quantile(processed, prior, delta - 1e-8) >= envelope - 1e-7
        leak = md.pointwise_leakage(processed, prior)
        assert np.all(leak[list(envelope.bad_set)] >= envelope - 1e-7)
        p_z = prior @ processed
        assert p_z[list(envelope.bad_set)].sum() >= delta - 1e-8


def test_envelope_is_constant_for_pml_extremal_mechanisms():
    """Theorem 4 and Corollary 1: every outcome leaks ε, so ε_c(δ) = ε for every δ."""
    prior = np.array([0.1, 0.2, 0.3, 0.4])
    eps = 0.08  # below log(1 / (1 − 0.1)) ≈ 0.105
    mechanism = md.mechanisms.pml_extremal_mechanism(eps, prior)
    for delta in (0.01, 0.2, 0.5, 0.9, 0.99):
        assert md.pml_envelope(mechanism, prior, delta) == pytest.approx(eps, abs=1e-12)
    uniform = md.randomized_response(5, 1.3)  # uniform prior: every output leaks log(kα)
    level = math.log(5 * math.exp(1.3) / (math.exp(1.3) + 4))
    for delta in (0.05, 0.5, 0.95):
        assert md.pml_envelope(uniform, np.full(5, 0.2), delta) == pytest.approx(level, abs=1e-12)


@pytest.mark.parametrize(("k", "prior"), ENVELOPE_INSTANCES[::3])
def test_closed_failure_probability_inverts_the_envelope(k, prior):
    """ε_c(δ) = inf{ε : δ_c(ε) ≤ δ} (Sec. I-A): δ_c just above ε_c(δ) is ≤ δ, just below
    it is > δ; and δ_c dominates the failure probability of Y itself."""
    for delta in (0.1, 0.4):
        value = float(md.pml_envelope(k, prior, delta))
        assert md.bounds.closed_failure_probability(k, prior, value + 1e-7) <= delta + 1e-9
        if value > 1e-6:
            assert md.bounds.closed_failure_probability(k, prior, value - 1e-6) > delta - 1e-9
    for eps in (0.0, 0.1, 0.5):
        assert (
            md.bounds.closed_failure_probability(k, prior, eps)
            >= md.bounds.pml_failure_probability(k, prior, eps) - 1e-12
        )


def test_closed_failure_probability_example1():
    """Example 1: h lifts every outcome to log(6/5) > log(10/9), so δ_c(log 10/9) = 1;
    nothing ever leaks more than log 4, so δ_c(log 4) = 0 while δ_c(log 4 − 1e-9) ≥ 0.1."""
    assert md.bounds.closed_failure_probability(K1, P1, math.log(10 / 9)) == pytest.approx(
        1.0, abs=1e-9
    )
    assert md.bounds.closed_failure_probability(K1, P1, math.log(4)) == pytest.approx(
        0.0, abs=1e-12
    )
    assert md.bounds.closed_failure_probability(K1, P1, math.log(4) - 1e-9) >= 0.1 - 1e-9


# -- randomized response (Sec. V-B, Theorem 5, App. C-B) ---------------------------------


@given(st.integers(2, 7), st.floats(0.1, 3.0), st.data())
def test_algorithm1_equals_the_closed_form_binary_envelope_of_krr(k, eps, data):
    """App. C-B: ε_b(δ) = log((α + (N − 2 + θ)β)/δ) for δ ∈ (q_1, 1), Algorithm 1 agrees."""
    prior = data.draw(distributions(k, allow_zeros=False))
    rr = md.randomized_response(k, eps)
    q1 = float((prior @ rr.matrix).min())
    delta = data.draw(st.floats(q1 + 1e-6, 1 - 1e-6)) if q1 < 1 - 2e-6 else 1 - 1e-6
    bounds = md.bounds.randomized_response_envelope(eps, prior, delta)
    assert md.binary_envelope(rr, prior, delta) == pytest.approx(bounds.binary, abs=1e-12)


def test_theorem5_numbers_for_the_paper_priors():
    """Theorem 5 at ε_r = 1 for Fig. 2(a)'s prior (0.2, 0.3, 0.5), recomputed by hand:
    α = e/(e+2), β = 1/(e+2), q_j = β + (α − β)p_j."""
    e = math.e
    alpha, beta = e / (e + 2), 1 / (e + 2)
    q = beta + (alpha - beta) * np.array([0.2, 0.3, 0.5])
    # δ ≤ q_1: exact value log(α/q_1).
    small = md.bounds.randomized_response_envelope(1.0, [0.5, 0.2, 0.3], q[0] / 2)
    assert small.lower == small.upper == pytest.approx(math.log(alpha / q[0]), abs=1e-14)
    # δ in the N = 3 band with θ past θ_2: h_δ = ℓ(X → 3) = log(α/q_3).
    delta = q[0] + q[1] + 0.9 * q[2]
    bounds = md.bounds.randomized_response_envelope(1.0, [0.2, 0.3, 0.5], delta)
    assert bounds.n == 3
    assert bounds.theta == pytest.approx(0.9, abs=1e-12)
    theta1 = alpha * (q[1] - q[0]) / (alpha * q[2] - beta * q[1])
    theta2 = alpha * (2 * q[2] - q[0] - q[1]) / (q[2] * (alpha - beta))
    assert bounds.theta1 == pytest.approx(theta1, abs=1e-14)
    assert bounds.theta2 == pytest.approx(theta2, abs=1e-14)
    middle = math.log((2 * alpha + 0.9 * beta) / delta)
    expected = middle if theta1 < 0.9 <= theta2 else math.log(alpha / q[2])
    assert bounds.lower == pytest.approx(expected, abs=1e-14)
    assert bounds.upper == pytest.approx(min(math.log(3 * alpha / delta), math.log(alpha / q[0])))
    assert bounds.dp_epsilon == pytest.approx(0.0, abs=1e-12)  # δ > α: (0, δ)-DP already
    assert md.bounds.randomized_response_envelope(
        1.0, [0.2, 0.3, 0.5], 0.3
    ).dp_epsilon == pytest.approx(math.log((alpha - 0.3) / beta), abs=1e-14)


CONJECTURE_GRID = [
    (k, eps, prior)
    for k, eps in [(3, 0.5), (3, 2.0), (4, 1.0), (5, 1.0), (6, 3.0)]
    for prior in (
        np.sort(np.random.default_rng(k * 10 + int(eps * 10)).dirichlet(np.full(k, 5.0))),
        np.full(k, 1.0 / k) + np.linspace(-0.3, 0.3, k) / k,
    )
]


@pytest.mark.parametrize(("k", "eps", "prior"), CONJECTURE_GRID)
def test_conjecture_exact_envelope_equals_h_delta(k, eps, prior):
    """The paper's open conjecture (after Theorem 5): under condition (20), h_δ is the
    envelope. Checked on a δ grid; the tolerance covers the ENVELOPE_MASS_ATOL slack
    (ε_c(δ − 1e-9) vs ε_c(δ), slope ≤ 1/δ). The full study is benchmarks/envelope_study.py."""
    rr = md.randomized_response(k, eps)
    checked = 0
    for delta in np.linspace(0.02, 0.98, 17):
        bounds = md.bounds.randomized_response_envelope(eps, prior, delta)
        exact = md.pml_envelope(rr, prior, delta)
        assert bounds.lower <= exact + 1e-9  # a lower bound for every prior
        assert exact <= bounds.upper + 1e-12
        if bounds.prior_condition:
            assert exact == pytest.approx(bounds.lower, abs=1e-6)
            checked += 1
    assert checked > 0


def test_lower_bound_is_not_the_envelope_without_condition20():
    """Without (20) the construction of Theorem 5 is not optimal: the exact envelope of
    this k-RR is far above max{ℓ(X → N), construction} (found by the envelope study)."""
    prior = np.array([3.3e-4, 2.318e-1, 6.941e-1, 8.89e-3, 1.54e-3, 2.34e-2, 1.05e-2, 2.94e-2])
    prior = prior / prior.sum()
    bounds = md.bounds.randomized_response_envelope(4.0, prior, 0.38)
    assert not bounds.prior_condition
    assert md.pml_envelope(md.randomized_response(8, 4.0), prior, 0.38) > bounds.lower + 1.0


# -- composition (Sec. IV-A) --------------------------------------------------------------


def test_composition_bound_dominates_the_joint_envelope():
    """ε_c(δ) of (Y1, Y2) ≤ L(X → Y1, Y2) + log 1/δ ≤ L(X → Y1) + L(X → Y2 | Y1) + log 1/δ."""
    rng = np.random.default_rng(11)
    prior = rng.dirichlet(np.ones(3))
    first = random_kernel(rng, 3, 2)
    second = rng.random((3, 2, 3))
    second /= second.sum(axis=2, keepdims=True)
    joint = md.bounds.adaptive_composition([first, second])
    np.testing.assert_allclose(joint.matrix.sum(axis=1), 1.0, rtol=0, atol=1e-15)
    np.testing.assert_allclose(
        joint.matrix[1, 2 * 1 + 0],
        first[1, 0] * second[1, 0, 2] * 0 + first[1, 0] * second[1, 0, 0] * 0 + joint.matrix[1, 2],
        rtol=0,
    )
    for delta in (0.1, 0.5):
        bound = md.bounds.composition_envelope_bound([first, second], prior, delta)
        joint_ml = math.log(joint.matrix.max(axis=0).sum()) - math.log(delta)
        assert md.pml_envelope(joint, prior, delta) <= joint_ml + 1e-12
        assert joint_ml <= bound + 1e-12
    # Non-adaptive: L(X → Y2 | Y1) ≤ L(X → Y2).
    third = random_kernel(rng, 3, 4)
    assert (
        md.bounds.conditional_maximal_leakage(first, third, prior)
        <= math.log(third.max(axis=0).sum()) + 1e-12
    )


def test_bad_input_is_named():
    with pytest.raises(md.InvalidInputError, match="delta must lie in the open interval"):
        md.pml_envelope(K1, P1, 1.0)
    with pytest.raises(md.InvalidInputError, match="delta must lie in the open interval"):
        md.bounds.pml_lower_quantile(K1, P1, 0.0)
    with pytest.raises(md.InvalidInputError, match="prior must have length 4"):
        md.binary_envelope(K1, [0.5, 0.5], 0.1)
    with pytest.raises(md.InvalidInputError, match="divisible by 4"):
        md.priors.four_level_prior(6, 0.1)
    with pytest.raises(md.InvalidInputError, match="rho must lie in"):
        md.priors.four_level_prior(8, 0.4)
    with pytest.raises(md.InvalidInputError, match="epsilon_r must be positive"):
        md.bounds.randomized_response_envelope(0.0, [0.5, 0.5], 0.1)
    with pytest.raises(md.InvalidInputError, match=r"mechanisms\[1\] must have shape"):
        md.bounds.composition_envelope_bound([np.eye(2), np.ones((2, 3, 2)) / 2], [0.5, 0.5], 0.1)
    with pytest.raises(md.InvalidInputError, match=r"mechanisms\[1\] has 3 inputs"):
        md.bounds.adaptive_composition([np.eye(2), np.eye(3)])
    with pytest.raises(md.InvalidInputError, match="at least one mechanism"):
        md.bounds.adaptive_composition([])
    with pytest.raises(md.InvalidInputError, match="epsilon must be >= 0"):
        md.bounds.closed_failure_probability(K1, P1, -0.1)


def test_theorem5_degenerate_cases():
    """After Theorem 5: q_{N−1} = q_N makes θ₁ = θ₂ and the bound ℓ(X → N) for every θ;
    a uniform prior gives ε_c(δ) = log(kα) for all δ (Corollary 1). Both against the
    exact envelope."""
    rr = md.randomized_response(3, 1.0)
    prior = np.array([0.2, 0.4, 0.4])
    alpha = math.e / (math.e + 2)
    q = (1 - alpha) / 2 + (alpha - (1 - alpha) / 2) * prior
    for theta in (0.1, 0.5, 0.9):
        delta = q[0] + q[1] + theta * q[2]
        bounds = md.bounds.randomized_response_envelope(1.0, prior, delta)
        assert bounds.n == 3
        assert bounds.theta1 == pytest.approx(bounds.theta2, abs=1e-14)
        assert bounds.lower == pytest.approx(math.log(alpha / q[2]), abs=1e-14)
        assert md.pml_envelope(rr, prior, delta) == pytest.approx(bounds.lower, abs=1e-9)
    uniform = np.full(4, 0.25)
    rr4 = md.randomized_response(4, 0.7)
    level = math.log(4 * math.exp(0.7) / (math.exp(0.7) + 3))
    for delta in (0.1, 0.3, 0.6, 0.95):
        assert md.bounds.randomized_response_envelope(0.7, uniform, delta).lower == pytest.approx(
            level, abs=1e-14
        )
        assert md.pml_envelope(rr4, uniform, delta) == pytest.approx(level, abs=1e-12)


@pytest.mark.parametrize("eps", [700.0, 800.0, 1e308])
def test_randomized_response_envelope_for_a_huge_epsilon(eps):
    # k-RR tends to the identity: α → 1, β → 0, q = p and ℓ(X → j) = −log p_j.
    r = md.bounds.randomized_response_envelope(eps, P3, 0.5)
    p = np.sort(P3)
    assert r.upper == pytest.approx(min(math.log(3 / 0.5), -math.log(p[0])), rel=1e-12)
    assert r.dp_epsilon == pytest.approx(eps + math.log(0.5), rel=1e-12)
    assert r.lower <= r.upper + 1e-12


@pytest.mark.parametrize("eps", [1e-300, 5e-324])
def test_randomized_response_envelope_for_a_tiny_epsilon(eps):
    # ℓ(X → j) = −log(1 − (1 − e^{−ε})(1 − p_j)) ≈ ε (1 − p_j): upper = ε (1 − p_1).
    r = md.bounds.randomized_response_envelope(eps, P3, 0.5)
    assert r.upper == pytest.approx(eps * (1 - 0.2), rel=1e-9, abs=1e-323)
    # θ₁, θ₂ do not depend on ε through α − β: their ε → 0 limits (continuity).
    reference = md.bounds.randomized_response_envelope(1e-12, P3, 0.5)
    assert r.theta1 == pytest.approx(reference.theta1, abs=1e-9)
    assert r.theta2 == pytest.approx(reference.theta2, abs=1e-9)
    assert r.n == reference.n


def test_randomized_response_envelope_below_q1_has_zero_regime_bounds():
    r = md.bounds.randomized_response_envelope(1.0, P3, 1e-300)
    assert r.n == 1
    assert r.theta1 == pytest.approx(0.0, abs=0.0)  # exact: N = 1 has only the third regime
    assert r.theta2 == pytest.approx(0.0, abs=0.0)  # exact: as above
    assert r.lower == pytest.approx(math.log(r.alpha / r.q[0]), rel=1e-12)


def test_leakage_cdf_at_infinite_levels():
    dist = md.bounds.leakage_distribution(K3, P3)
    assert dist.cdf(math.inf) == pytest.approx(1.0, rel=1e-12)
    assert dist.cdf(-math.inf) == pytest.approx(0.0, abs=0.0)  # exact: no outcome below -inf
    assert dist.tail(-math.inf) == pytest.approx(1.0, rel=1e-12)


def test_conditional_maximal_leakage_accepts_float32_kernels():
    got = md.bounds.conditional_maximal_leakage(K3.astype(np.float32), K32.astype(np.float32), P3)
    assert got == pytest.approx(md.bounds.conditional_maximal_leakage(K3, K32, P3), rel=1e-6)
