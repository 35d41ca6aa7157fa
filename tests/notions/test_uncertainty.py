"""Tests of the Rényi-ball uncertainty sets (robust-LDP paper, Sec. 3–4).

Independent optimisation over the ball is in tests/test_uncertainty_reference.py; here:
the paper's Examples 1–2 recomputed from its formulas, Lemma 1's closed form against the
root finding, and bad input.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, strategies as st
from scipy.stats import chi2

import mechdesign as md

P_HAT = np.array([0.07, 0.10, 0.26, 0.57])  # robust-LDP paper, Example 1


def _lemma1(rho: float, b_s: float) -> tuple[float, float]:
    """Lemma 1 (α = 2), as printed: ξ± = (e^B + 2ρ − 1 ± √((e^B − 1)(e^B − (2ρ − 1)²)))
    / (2 e^B ρ)."""
    growth = math.exp(b_s)
    root = math.sqrt((growth - 1) * (growth - (2 * rho - 1) ** 2))
    return (growth + 2 * rho - 1 - root) / (2 * growth * rho), (growth + 2 * rho - 1 + root) / (
        2 * growth * rho
    )


def test_example1_chi2_radius():
    """Example 1: B = log(1 + F⁻¹_{χ²,3}(0.95)/100) = 0.0752."""
    b = md.chi2_radius(100, 4, 0.05)
    assert b == pytest.approx(math.log1p(chi2.ppf(0.95, 3) / 100), rel=1e-15)
    assert b == pytest.approx(0.0752, abs=5e-5)  # printed to 4 decimals


def test_example2_from_the_formulas():
    """Example 2 recomputed from Theorem 1, Proposition 2 (item 1) and eq. (30).

    The paper prints B_s1 = 0.3782, B_s2 = 0.0900, L = (0.1620, 0.2829; 0.1923, 0.5337)
    and rad = (0.6107, 0.3061); Theorem 1 gives B_s1 = 0.4067 (GUIDE.md: the printed
    B_s1, L_u|s1 and rad_s1 do not follow from the paper's own formulas), and the s2
    values differ in the fourth decimal through B_s2 = 0.0903.
    """
    b = md.chi2_radius(100, 4, 0.05)
    ball = md.RenyiBall(P_HAT, 2, b)
    p_s = np.array([0.17, 0.83])
    by_hand = 2 * np.log((np.exp(b / 2) - (1 - p_s)) / p_s)  # Theorem 1 at α = 2
    radii = [md.notions.conditional_ball(ball, (2, 2), s).radius for s in range(2)]
    np.testing.assert_allclose(radii, by_hand, rtol=1e-12, atol=0)
    np.testing.assert_allclose(radii, [0.4067, 0.0903], atol=5e-5, rtol=0)
    conditional = P_HAT.reshape(2, 2) / p_s[:, None]
    growth = np.exp(by_hand)[:, None]
    # Proposition 2, item 1.
    lower = (
        growth + 2 * conditional - 1 - np.sqrt((growth - 1) * (growth - (2 * conditional - 1) ** 2))
    ) / (2 * growth)
    np.testing.assert_allclose(md.conditional_lower_bounds(ball, (2, 2)), lower, rtol=1e-10, atol=0)
    # |U| = 2: rad_s = 2 max(P̂_u1 − L_u1, (1 − L_u2) − P̂_u1) (Example 2's own argument).
    rad = 2 * np.maximum(conditional[:, 0] - lower[:, 0], 1 - lower[:, 1] - conditional[:, 0])
    np.testing.assert_allclose(md.conditional_radii(ball, (2, 2)), rad, rtol=1e-10, atol=0)


@given(st.floats(0.01, 0.99), st.floats(1e-4, 5.0))
def test_lemma1_closed_form_equals_the_root_finding(rho, b_s):
    expected = _lemma1(rho, b_s)
    got = md.notions.xi_bounds(rho, 2, b_s)
    assert got[0] == pytest.approx(expected[0], rel=1e-9, abs=1e-12)
    assert got[1] == pytest.approx(expected[1], rel=1e-12, abs=0)


def test_xi_plus_goes_past_the_printed_range():
    """Eq. (28) prints ξ⁺ ∈ [1, (1 − ρ)^{-1}); P_x can rise to 1, so ξ⁺ reaches 1/ρ: at
    ρ = 0.1 and B = 3 (α = 2) Lemma 1 itself gives ξ⁺ ≈ 9.5 > 1/(1 − ρ) ≈ 1.11."""
    low, high = md.notions.xi_bounds(0.1, 2, 3.0)
    assert high == pytest.approx(_lemma1(0.1, 3.0)[1], rel=1e-12)
    assert 1 / 0.9 < high <= 1 / 0.1
    assert 0 < low < 1


def test_proposition2_item2_needs_minus_two_rho():
    """Proposition 2, item 2 (B_s ≥ log(1 + (1 − P̂_min)²)): rad_s = 2ρ(ξ⁺(ρ) − 1) at
    ρ = P̂_{u_min|s}; the printed expression is 2ρ ξ⁺(ρ), larger by 2ρ."""
    center = np.array([0.1, 0.3, 0.6, 0.2, 0.2, 0.6]) / 2
    ball = md.RenyiBall(center, 2, 2.0)
    b_s = md.notions.conditional_ball(ball, (2, 3), 0).radius
    rho = 0.1
    assert b_s >= math.log1p((1 - rho) ** 2)
    printed = 2 * rho * _lemma1(rho, b_s)[1]
    assert md.conditional_radii(ball, (2, 3))[0] == pytest.approx(printed - 2 * rho, rel=1e-9)


def test_limits_of_the_radius():
    """B = 0: the ball is {P̂}, L = P̂_{U|s}, rad = 0; B = ∞: L = 0, rad = 2(1 − min P̂)."""
    zero = md.RenyiBall(P_HAT, 1.5, 0.0)
    np.testing.assert_allclose(
        md.conditional_lower_bounds(zero, (2, 2)),
        P_HAT.reshape(2, 2) / [[0.17], [0.83]],
        rtol=1e-15,
        atol=0,
    )
    np.testing.assert_allclose(md.conditional_radii(zero, (2, 2)), 0.0, atol=1e-12)
    whole = md.RenyiBall(P_HAT, 0.5, math.inf)
    np.testing.assert_allclose(md.conditional_lower_bounds(whole, (2, 2)), 0.0, atol=0)


def test_ball_membership():
    ball = md.RenyiBall(P_HAT, 2, 0.0752)
    assert ball.contains(P_HAT)
    assert ball.contains([0.1, 0.1, 0.2, 0.6])  # Example 1: D_2(P̂‖P*) = 0.0281 < B
    assert ball.divergence([0.1, 0.1, 0.2, 0.6]) == pytest.approx(0.0281, abs=5e-5)
    assert not ball.contains([0.25, 0.25, 0.25, 0.25])


def test_bad_input_is_named():
    with pytest.raises(md.InvalidInputError, match="center must sum to 1"):
        md.RenyiBall([0.5, 0.6], 2, 0.1)
    with pytest.raises(md.InvalidInputError, match="alpha must be > 0"):
        md.RenyiBall(P_HAT, 0, 0.1)
    with pytest.raises(md.InvalidInputError, match="radius must be >= 0"):
        md.RenyiBall(P_HAT, 2, -0.1)
    ball = md.RenyiBall(P_HAT, 2, 0.1)
    with pytest.raises(md.InvalidInputError, match="does not factor the alphabet"):
        md.conditional_lower_bounds(ball, (3, 2))
    with pytest.raises(md.InvalidInputError, match="beta must lie in"):
        md.chi2_radius(100, 4, 1.0)
    with pytest.raises(md.InvalidInputError, match="n_samples must be a positive integer"):
        md.chi2_radius(0, 4, 0.05)
    with pytest.raises(md.InvalidInputError, match="P̂_s = 0"):
        md.conditional_radii(md.RenyiBall([0.0, 0.0, 0.5, 0.5], 2, 0.1), (2, 2))
    with pytest.raises(md.InvalidInputError, match="s must be an index"):
        md.notions.conditional_ball(ball, (2, 2), 2)


# -- the S × U alphabet and B_s -------------------------------------------------------------


def test_secret_alphabet_converts_and_refuses_by_name():
    from mechdesign.notions.uncertainty import SecretAlphabet

    alphabet = SecretAlphabet.of((2, 3), 6, "kernel")
    assert (alphabet.shape, alphabet.size) == ((2, 3), 6)
    assert SecretAlphabet.of(alphabet) is alphabet
    with pytest.raises(md.InvalidInputError, match="shape must be a pair"):
        SecretAlphabet.of((2, 3, 4))
    with pytest.raises(md.InvalidInputError, match="the kernel has 5 entries"):
        SecretAlphabet.of((2, 3), 5, "kernel")
    with pytest.raises(md.InvalidInputError, match=r"\|S\|"):
        SecretAlphabet(0, 3)
    joint = np.array([0.1, 0.2, 0.1, 0.3, 0.2, 0.1])
    marginal, conditional = alphabet.conditionals(joint)
    np.testing.assert_allclose(marginal, [0.4, 0.6], rtol=0, atol=1e-15)
    np.testing.assert_allclose(conditional * marginal[:, None], joint.reshape(2, 3),
                               rtol=0, atol=1e-15)
    with pytest.raises(md.InvalidInputError, match="P̂_s = 0 for s = 1"):
        alphabet.conditionals([0.5, 0.3, 0.2, 0.0, 0.0, 0.0])


@pytest.mark.parametrize("alpha", [0.5, 1.0, 2.0, 7.5])
@pytest.mark.parametrize("p_s", [1e-3, 0.3, 1.0])
def test_conditional_radius_against_theorem1_as_printed(alpha, p_s):
    """Theorem 1's formula evaluated directly (moderate B, where it cannot overflow)."""
    from mechdesign.notions.uncertainty import conditional_radius

    radius = 0.2
    if alpha == 1:
        expected = radius / p_s
    else:
        argument = (math.exp((alpha - 1) * radius / alpha) - (1 - p_s)) / p_s
        expected = alpha / (alpha - 1) * math.log(argument) if argument > 0 else math.inf
    assert conditional_radius(alpha, radius, p_s) == pytest.approx(expected, rel=1e-12)


def test_conditional_radius_limits_and_extremes():
    from mechdesign.notions.uncertainty import conditional_radius

    # α = ∞ is the limit of large α; B = 800 does not overflow, B_s → a − log p_s.
    assert conditional_radius(math.inf, 0.2, 0.3) == pytest.approx(
        conditional_radius(1e9, 0.2, 0.3), rel=1e-8
    )
    assert conditional_radius(2.0, 800.0, 0.3) == pytest.approx(
        2.0 * (400.0 - math.log(0.3)), rel=1e-15
    )
    assert conditional_radius(2.0, math.inf, 0.3) == math.inf
    assert conditional_radius(2.0, 0.0, 1e-300) == pytest.approx(0.0, abs=1e-15)
    assert conditional_radius(0.5, 5.0, 0.5) == math.inf  # argument ≤ 0 for α < 1
    for args, name in [((0.0, 0.2, 0.3), "alpha"), ((2.0, -0.1, 0.3), "radius"),
                       ((2.0, 0.2, 0.0), "p_s"), ((2.0, 0.2, 1.5), "p_s")]:
        with pytest.raises(md.InvalidInputError, match=name):
            conditional_radius(*args)
