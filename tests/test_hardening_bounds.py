"""Input hardening of divergences, contraction, amplification, envelope, robust and
uncertainty: bad input is refused by the argument's name, sizes beyond the supported
raise TooLargeError, and extreme valid input gets the right answer (checked against an
independent value: a closed form, a limit or another function)."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

import mechdesign as md
from mechdesign.errors import InvalidInputError, TooLargeError
from tests.conftest import K2, K3, K23, K32, P3, PHAT, Q3

BALL = md.RenyiBall(PHAT, 2.0, 0.05)
K4 = md.mechanisms.secret_randomized_response((2, 2), 1.0).matrix


def _names(message: str, name: str) -> bool:
    return re.search(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", message) is not None


# -- bad input is refused by name --------------------------------------------------------

REFUSED = [
    ("f_alpha_from_renyi value list", lambda: md.measures.f_alpha_from_renyi([0.25], 2.0), "value"),
    ("f_alpha_from_renyi value str", lambda: md.measures.f_alpha_from_renyi("0.5", 2.0), "value"),
    ("renyi_from_f_alpha value bool", lambda: md.measures.renyi_from_f_alpha(True, 2.0), "value"),
    ("renyi_from_f_alpha value None", lambda: md.measures.renyi_from_f_alpha(None, 2.0), "value"),
    ("pinsker_f_alpha t complex", lambda: md.measures.pinsker_f_alpha(np.array([0.5 + 1j]), 2.0),
     "t"),
    ("pinsker_f_alpha t bool", lambda: md.measures.pinsker_f_alpha(True, 2.0), "t"),
    ("pinsker_f_alpha t Mechanism", lambda: md.measures.pinsker_f_alpha(md.Mechanism(K2), 2.0),
     "t"),
    ("inverse s str", lambda: md.measures.pinsker_f_alpha_inverse("0.5", 2.0), "s"),
    ("boundary t complex", lambda: md.measures.f_alpha_tv_lower_boundary(0.5 + 1j, 2.0), "t"),
    ("f_divergence f arity", lambda: md.measures.f_divergence(P3, Q3, lambda: 0.0), "f"),
    ("f_divergence f nan", lambda: md.measures.f_divergence(P3, Q3, lambda t: t * math.nan), "f"),
    ("f_divergence f class", lambda: md.measures.f_divergence(P3, Q3, md.Mechanism), "f"),
    ("reverse_pinsker f nan",
     lambda: md.measures.reverse_pinsker(3.0, 0.5, lambda t: t * math.nan), "f"),
    ("reverse_pinsker v str", lambda: md.measures.reverse_pinsker(3.0, "0.5", md.measures.KL), "v"),
    ("reverse_pinsker_f_alpha u bool", lambda: md.measures.reverse_pinsker_f_alpha(True, 0.5, 2.0),
     "u"),
    ("hockey gamma str", lambda: md.measures.hockey_stick_divergence(P3, Q3, "2"), "gamma"),
    ("hockey generator gamma bool", lambda: md.measures.hockey_stick_generator(True), "gamma"),
    ("FGenerator f None", lambda: md.measures.FGenerator("g", None, 0.0, 1.0), "f"),
    ("FGenerator f_at_zero nan", lambda: md.measures.FGenerator("g", np.abs, math.nan, 1.0),
     "f_at_zero"),
    ("FGenerator f_at_zero str", lambda: md.measures.FGenerator("g", np.abs, "0.5", 1.0),
     "f_at_zero"),
    ("FGenerator slope -inf",
     lambda: md.measures.FGenerator("g", np.abs, 0.0, -math.inf), "slope_at_infinity"),
    ("FGenerator slope list", lambda: md.measures.FGenerator("g", np.abs, 0.0, [1.0]),
     "slope_at_infinity"),
    ("reverse_pinsker_kl q_min str", lambda: md.bounds.reverse_pinsker_kl(0.3, "0.5"), "q_min"),
    ("reverse_pinsker_kl tv bool", lambda: md.bounds.reverse_pinsker_kl(True, 0.1), "tv"),
    ("asoodeh q_min None", lambda: md.bounds.asoodeh_zhang_kl_bound(1.0, 0.3, None), "q_min"),
    ("duchi tv str", lambda: md.bounds.duchi_kl_bound(1.0, "0.5"), "tv"),
    ("pml_sdpi tv bool", lambda: md.bounds.pml_sdpi_bound(1.0, 0.1, 3, True), "tv"),
    ("pml_sdpi f nan", lambda: md.bounds.pml_sdpi_bound(1.0, 0.1, 3, 0.3, lambda t: t * math.nan),
     "f"),
    ("minimax delta list",
     lambda: md.bounds.private_minimax_lower_bound(100, [0.05], 1.0, 0.1), "delta"),
    ("minimax separation bool",
     lambda: md.bounds.private_minimax_lower_bound(100, 0.05, 1.0, 0.1, separation=True),
     "separation"),
    ("chi2 contraction seed str",
     lambda: md.measures.chi_squared_contraction(K3, seed="3"), "seed"),
    ("chi2 contraction seed bool", lambda: md.measures.chi_squared_contraction(K3, seed=True),
     "seed"),
    ("chi2 contraction seed -1", lambda: md.measures.chi_squared_contraction(K3, seed=-1), "seed"),
    ("max_dobrushin notion class", lambda: md.max_dobrushin(md.LDP, 3), "notion"),
    ("max_cross notion None", lambda: md.bounds.max_cross_channel_gamma(None, 3), "notion"),
    ("max_cross n above 1/c", lambda: md.bounds.max_cross_channel_gamma(md.PML(1.0, c=0.1), 10**12),
     "n"),
    ("rldp first None", lambda: md.bounds.rldp_amplification_bound(None, K3, 2.0), "first"),
    ("rldp second str", lambda: md.bounds.rldp_amplification_bound(K23, "abc", 2.0), "second"),
    ("rldp eta_tv bool", lambda: md.bounds.rldp_amplification_bound(K23, K3, 2.0, eta_tv=True),
     "eta_tv"),
    ("rldp eta_tv list", lambda: md.bounds.rldp_amplification_bound(K23, K3, 2.0, eta_tv=[0.5]),
     "eta_tv"),
    ("linear_extreme c text",
     lambda: md.notions.linear_extreme(["1", "0", "2", "0.5"], PHAT, 2.0, 0.05), "c"),
    ("linear_extreme c bool",
     lambda: md.notions.linear_extreme([True, False, False, False], PHAT, 2.0, 0.05), "c"),
    ("linear_extreme radius str",
     lambda: md.notions.linear_extreme([1.0, 0.0, 2.0, 0.5], PHAT, 2.0, "0.5"), "radius"),
    ("linear_extreme maximize str",
     lambda: md.notions.linear_extreme([1.0, 0.0, 2.0, 0.5], PHAT, 2.0, 0.05, maximize="False"),
     "maximize"),
    ("robust ball None", lambda: md.robust_ldp_level(K4, None, (2, 2)), "ball"),
    ("projection ball str", lambda: md.notions.projection_level(K4, "abc", (2, 2)), "ball"),
    ("conditional_ball ball LDP", lambda: md.notions.conditional_ball(md.LDP(1.0), (2, 2), 0),
     "ball"),
    ("conditional_radii ball float", lambda: md.conditional_radii(1.0, (2, 2)), "ball"),
    ("conditional_lower_bounds P_s = 0",
     lambda: md.conditional_lower_bounds(md.RenyiBall([0.5, 0.5, 0.0, 0.0], 2.0, 0.05),
                                         (2, 2)), "ball"),
    ("ball divergence p text", lambda: BALL.divergence(["0.07", "0.1", "0.26", "0.57"]), "p"),
    ("ball contains p length", lambda: BALL.contains([0.5, 0.5]), "p"),
    ("adaptive mechanisms None", lambda: md.bounds.adaptive_composition(None), "mechanisms"),
    ("adaptive mechanisms str", lambda: md.bounds.adaptive_composition("abc"), "mechanisms"),
    ("adaptive single kernel", lambda: md.bounds.adaptive_composition(K3), "mechanisms"),
    ("adaptive complex element", lambda: md.bounds.adaptive_composition([K3, K32 + 1j]),
     "mechanisms"),
    ("composition mechanisms None",
     lambda: md.bounds.composition_envelope_bound(None, P3, 0.2), "mechanisms"),
    ("conditional leakage second text",
     lambda: md.bounds.conditional_maximal_leakage(K3, np.asarray(K32).astype(str).tolist(), P3),
     "second"),
    ("conditional leakage second bool",
     lambda: md.bounds.conditional_maximal_leakage(K3, np.eye(3, 2, dtype=bool), P3), "second"),
    ("conditional leakage second 0-d", lambda: md.bounds.conditional_maximal_leakage(K3, 0.5, P3),
     "second"),
    ("cdf t nan", lambda: md.bounds.leakage_distribution(K3, P3).cdf(math.nan), "t"),
    ("cdf t str", lambda: md.bounds.leakage_distribution(K3, P3).cdf("0.5"), "t"),
    ("tail t complex", lambda: md.bounds.leakage_distribution(K3, P3).tail(0.5 + 1j), "t"),
    ("tail t array", lambda: md.bounds.leakage_distribution(K3, P3).tail(np.array([0.25])), "t"),
]


@pytest.mark.parametrize(("label", "call", "name"), REFUSED, ids=[r[0] for r in REFUSED])
def test_bad_input_is_refused_by_name(label, call, name):
    with pytest.raises(InvalidInputError) as info:
        call()
    assert _names(str(info.value), name), str(info.value)


TOO_LARGE = [
    ("max_dobrushin n", lambda: md.max_dobrushin(md.LDP(1.0), 10**12), "n"),
    ("decomposable_witness_kernel n", lambda: md.bounds.decomposable_witness_kernel(10**12), "n"),
    ("chi_squared_contraction n_starts",
     lambda: md.measures.chi_squared_contraction(K3, n_starts=10**12), "n_starts"),
    ("block_uniform_channel n", lambda: md.bounds.block_uniform_channel(10**12, 2), "n"),
    ("circulant_singular_channel n", lambda: md.bounds.circulant_singular_channel(10**12, 2), "n"),
    ("four_level_prior k", lambda: md.bounds.four_level_prior(10**12, 0.1), "k"),
]


@pytest.mark.parametrize(("label", "call", "name"), TOO_LARGE, ids=[r[0] for r in TOO_LARGE])
def test_sizes_beyond_memory_raise_too_large_by_name(label, call, name):
    with pytest.raises(TooLargeError) as info:
        call()
    assert _names(str(info.value), name), str(info.value)


# -- extreme but valid input: the right answer -------------------------------------------


def _tiny_q(value: float) -> np.ndarray:
    q = Q3.copy()
    q[:-1] = q[:-1] / q[:-1].sum() * (1.0 - value)
    q[-1] = value
    return q


@pytest.mark.parametrize("tiny", [5e-324, 1e-300])
def test_f_divergence_with_an_overflowing_ratio_matches_the_closed_forms(tiny):
    # p/q overflows at q = 5e-324; the generators' perspectives give the exact sums.
    q = _tiny_q(tiny)
    assert md.measures.f_divergence(P3, q, md.measures.KL) == pytest.approx(
        float(np.sum(P3 * (np.log(P3) - np.log(q)))), rel=1e-12)
    assert md.measures.f_divergence(P3, q, md.measures.TOTAL_VARIATION) == pytest.approx(
        0.5 * float(np.abs(P3 - q).sum()), rel=1e-12)
    assert md.measures.f_divergence(P3, q, md.measures.SQUARED_HELLINGER) == pytest.approx(
        float(np.sum((np.sqrt(P3) - np.sqrt(q)) ** 2)), rel=1e-12)
    # f_α for α = 1/2: 1 − Σ √(p q), and E_3 = Σ (p − 3q)⁺.
    assert md.measures.f_divergence(P3, q, md.measures.f_alpha_generator(0.5)) == pytest.approx(
        1.0 - float(np.sum(np.sqrt(P3 * q))), rel=1e-12)
    hockey_stick = md.measures.f_divergence(P3, q, md.measures.hockey_stick_generator(3.0))
    assert hockey_stick == pytest.approx(float(np.maximum(P3 - 3.0 * q, 0.0).sum()), rel=1e-12)
    chi2 = md.measures.f_divergence(P3, q, md.measures.CHI_SQUARED)
    assert chi2 == math.inf  # exact: p²/q overflows


@pytest.mark.parametrize(
    ("p", "q", "gamma", "expected"),
    [
        (P3, [0.5, 0.5, 0.0], 1e308, 0.2),         # → P(q = 0) as γ → ∞
        (P3, Q3, 1e308, 0.0),
        ([0.5, 0.5, 0.0], Q3, 1e-300, 0.5e-300),   # Σ(γq − p)⁺ = γ · Q(p = 0)
        (P3, Q3, 1.0, 0.3),                        # E_1 = TV
    ],
)
def test_hockey_stick_keeps_its_digits_for_extreme_gamma(p, q, gamma, expected):
    assert md.measures.hockey_stick_divergence(p, q, gamma) == pytest.approx(expected, rel=1e-12,
                                                                     abs=1e-320)
    generator = md.measures.hockey_stick_generator(gamma)
    if min(q) > 0:
        # Σ q f(p/q) sums terms of either sign: exact up to rounding of the terms.
        assert md.measures.f_divergence(p, q, generator) == pytest.approx(expected, rel=1e-9,
                                                                 abs=1e-15)


def test_pinsker_inverse_at_a_huge_alpha_is_one_over_alpha():
    # For s above g_α(1/α⁻) the inverse is max(1 − (1+s)^{−1/(α−1)}, 1/α) → 1/α.
    assert md.measures.pinsker_f_alpha_inverse(0.5, 1e308) == pytest.approx(1e-308, rel=1e-12)
    assert md.measures.pinsker_f_alpha_inverse(0.5, 1e200) == pytest.approx(1e-200, rel=1e-12)


@pytest.mark.parametrize("alpha", [1e3, 1e8, 1e308])
def test_amplification_bound_tends_to_log_gamma_max(alpha):
    result = md.bounds.rldp_amplification_bound(K23, K3, alpha)
    gamma_max = result.gamma_max
    # φ = log(η R_α g) / (α − 1) with log R_α = α log Γ − log(Γ − 1) + O(e^{−700}).
    eta, tv = result.eta_tv, md.measures.pinsker_f_alpha_inverse(result.epsilon_f, alpha)
    expected = (alpha * math.log(gamma_max) - math.log(gamma_max - 1.0)
                + math.log(eta * tv)) / (alpha - 1.0)
    assert result.bound == pytest.approx(expected, rel=1e-9)
    assert result.bound == pytest.approx(math.log(gamma_max), rel=1e-2)


def test_amplification_bound_is_continuous_where_r_alpha_overflows():
    below = md.bounds.rldp_amplification_bound(K23, K3, 800.0).bound   # R_α finite
    above = md.bounds.rldp_amplification_bound(K23, K3, 820.0).bound   # R_α overflows
    assert above == pytest.approx(below, rel=1e-4)


def test_float32_kernels_are_accepted_by_the_amplification_bound():
    got = md.bounds.rldp_amplification_bound(K23.astype(np.float32), K3.astype(np.float32), 2.0)
    want = md.bounds.rldp_amplification_bound(K23, K3, 2.0)
    assert got.bound == pytest.approx(want.bound, rel=1e-5)


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


@pytest.mark.parametrize("tiny", [5e-324, 1e-300])
def test_robust_level_with_a_tiny_secret_mass(tiny):
    # P̂_s → 0 makes F_{U|s} the whole simplex: the level tends to the secret-LDP level
    # of the kernel over all distributions, which bounds it.
    ball = md.RenyiBall([0.5, 0.5, tiny, tiny], 2.0, 0.05)
    level = md.robust_ldp_level(K4, ball, (2, 2))
    whole = md.notions.secret_ldp_level(K4, (2, 2))
    assert float(level) == pytest.approx(whole, rel=1e-9)
    assert md.notions.projection_level(K4, ball, (2, 2)) == pytest.approx(whole, rel=1e-9)


def test_ball_divergence_names_p_and_matches_renyi_divergence():
    assert BALL.divergence(PHAT[::-1].copy()) == pytest.approx(
        md.renyi_divergence(PHAT, PHAT[::-1].copy(), 2.0), rel=1e-12)


def test_fgenerator_stores_plain_floats_and_allows_plus_infinity():
    from fractions import Fraction

    g = md.measures.FGenerator("g", lambda t: np.abs(t - 1.0), Fraction(1, 2), math.inf)
    assert isinstance(g.f_at_zero, float)
    assert g.f_at_zero == pytest.approx(0.5, rel=1e-15)
    assert g.slope_at_infinity == math.inf  # exact: +inf is stored as given
