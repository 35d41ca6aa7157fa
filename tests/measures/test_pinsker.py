"""Tests of the Pinsker-type curves between total variation and f-divergences
(mechdesign.measures.pinsker; the f_α paper, Section IV): Binette's reverse Pinsker
constant (Theorem 6) against its integral form and 60-digit arithmetic, g_α of Theorem 8
and the exact lower boundary of the (TV, D_fα) joint range (Remark 9, Appendix A)
against brute force, and the inverse of Remark 10 — each inequality on random pairs
(hypothesis) — and their bad and extreme input."""

from __future__ import annotations

import itertools
import math
from decimal import Decimal, localcontext

import numpy as np
import pytest
from hypothesis import assume, given, strategies as st
from scipy import integrate

import mechdesign as md
from tests.helpers import distributions

# -- Pinsker-type inequalities (f_α paper, Section IV) ---------------------------------------------
#
# Binette's reverse Pinsker constant (Theorem 6), g_α of Theorem 8, the exact lower boundary of
# the (TV, D_fα) joint range (Remark 9, Appendix A) and the inverse of Remark 10.

# f'' written by hand, for the integral form of Binette's constant (eq. 5 with f'' for γ^{α−2}).
SECOND_DERIVATIVES = {
    "KL": (md.measures.KL, lambda g: 1.0 / g),
    "chi2": (md.measures.CHI_SQUARED, lambda g: 2.0),
    "H2": (md.measures.SQUARED_HELLINGER, lambda g: 0.5 * g**-1.5),
    "f_3": (md.measures.f_alpha_generator(3.0), lambda g: 6.0 * g),
    "f_1.5": (md.measures.f_alpha_generator(1.5), lambda g: 0.75 * g**-0.5),
    "f_0.5": (md.measures.f_alpha_generator(0.5), lambda g: 0.25 * g**-1.5),
}


def _binette_integral(u, v, second_derivative):
    """∫ g(γ) f''(γ) dγ for the unit-TV tent g of the proof of Theorem 6."""
    lower = integrate.quad(
        lambda g: (g - v) / (1 - v) * second_derivative(g), v, 1, epsabs=1e-14, epsrel=1e-12
    )[0]
    if math.isinf(u):  # (u − γ)/(u − 1) → 1
        upper = integrate.quad(second_derivative, 1, math.inf, epsabs=1e-14, epsrel=1e-12)[0]
    else:
        upper = integrate.quad(
            lambda g: (u - g) / (u - 1) * second_derivative(g), 1, u, epsabs=1e-14, epsrel=1e-12
        )[0]
    return lower + upper


def _r_alpha_decimal(u, v, alpha):
    """R_α(u, v) of Theorem 6 as printed, in 60-digit decimal arithmetic (u ≠ 1 ≠ v)."""
    with localcontext() as ctx:
        ctx.prec = 60
        big_u, big_v, a = Decimal(u), Decimal(v), Decimal(alpha)
        return float((big_u**a - 1) / (big_u - 1) - (1 - big_v**a) / (1 - big_v))


def _g_alpha_printed(t, alpha):
    """Eq. (6) of the f_α paper, transcribed branch by branch."""
    if t < 1 / alpha:
        if alpha < 2:
            return math.exp(2 * (alpha - 1) * t**2) - 1
        return (4 * t**2 + 1) ** (alpha - 1) - 1
    return (1 - t) ** (1 - alpha) - 1


def _first_branch_end(alpha):
    """g_α(1/α⁻), where the first branch of eq. (6) ends."""
    if alpha < 2:
        return math.exp(2 * (alpha - 1) / alpha**2) - 1
    return (1 + 4 / alpha**2) ** (alpha - 1) - 1


def _inverse_printed(s, alpha):
    """Remark 10 exactly as printed, with h_1 = 2 − 2/α."""
    if alpha < 2 and s < 2 - 2 / alpha:
        return math.sqrt(math.log(s + 1) / (2 * (alpha - 1)))
    if alpha >= 2 and s < (1 + 4 / alpha**2) ** (alpha - 1) - 1:
        return 0.5 * math.sqrt((s + 1) ** (1 / (alpha - 1)) - 1)
    return max(1 - (s + 1) ** (1 / (1 - alpha)), 1 / alpha)


def _ratio_bounds(p, q):
    ratios = p / q
    return max(float(ratios.max()), 1.0), min(float(ratios.min()), 1.0)


@pytest.mark.parametrize("name", sorted(SECOND_DERIVATIVES))
def test_reverse_pinsker_is_the_integral_of_the_tent(name):
    generator, second_derivative = SECOND_DERIVATIVES[name]
    for u, v in itertools.product((1.3, 2.0, 7.0, 50.0), (0.0, 0.2, 0.6, 0.95)):
        assert md.measures.reverse_pinsker(u, v, generator) == pytest.approx(
            _binette_integral(u, v, second_derivative), rel=1e-9, abs=1e-12
        ), (u, v)


@pytest.mark.parametrize("name", ["H2", "f_0.5"])
def test_reverse_pinsker_at_infinity_uses_the_slope(name):
    generator, second_derivative = SECOND_DERIVATIVES[name]
    for v in (0.0, 0.3, 0.9):
        assert md.measures.reverse_pinsker(math.inf, v, generator) == pytest.approx(
            _binette_integral(math.inf, v, second_derivative), rel=1e-9, abs=1e-12
        )
    assert md.measures.reverse_pinsker(math.inf, 0.3, md.measures.KL) == math.inf
    assert md.measures.reverse_pinsker(math.inf, 0.3, md.measures.CHI_SQUARED) == math.inf


def test_reverse_pinsker_closed_forms():
    # TV: f'' is a unit point mass at 1, so the constant is 1 (D_f = TV).
    for u, v in itertools.product((1.5, 4.0, math.inf), (0.0, 0.5)):
        assert md.measures.reverse_pinsker(u, v, md.measures.TOTAL_VARIATION) == pytest.approx(
            1.0, rel=1e-15, abs=0
        )
    # χ²: f(v)/(1 − v) + f(u)/(u − 1) = (1 − v) + (u − 1) = u − v.
    assert md.measures.reverse_pinsker(3.0, 0.25, md.measures.CHI_SQUARED) == pytest.approx(
        2.75, rel=1e-15, abs=0
    )
    # A bare callable gives the same as its generator.
    assert md.measures.reverse_pinsker(3.0, 0.25, lambda t: (t - 1) ** 2) == pytest.approx(
        2.75, rel=1e-15, abs=0
    )
    assert md.measures.reverse_pinsker(3.0, 0.0, lambda t: (t - 1) ** 2) == pytest.approx(
        3.0, rel=1e-15, abs=0
    )
    assert md.measures.reverse_pinsker(1.0, 1.0, md.measures.KL) == pytest.approx(0.0, abs=1e-12)


@pytest.mark.parametrize("alpha", [1.001, 1.5, 2.0, 3.7, 12.0])
def test_reverse_pinsker_with_f_alpha_generator_is_r_alpha(alpha):
    generator = md.measures.f_alpha_generator(alpha)
    for u, v in itertools.product((1.01, 1.7, 9.0, math.inf), (0.0, 0.1, 0.5, 0.99)):
        assert md.measures.reverse_pinsker(u, v, generator) == pytest.approx(
            md.measures.reverse_pinsker_f_alpha(u, v, alpha), rel=1e-9, abs=1e-12
        ), (u, v)


@pytest.mark.parametrize(
    ("u", "v", "alpha"),
    [
        (1 + 1e-12, 1 - 1e-12, 2.0),
        (1 + 1e-9, 1 - 1e-9, 7.5),
        (1 + 1e-6, 0.999, 1.001),
        (1.0001, 1 - 1e-10, 50.0),
        (1.5, 0.5, 1 + 1e-9),
        (5.0, 0.2, 3.0),
        (1e6, 0.0, 2.0),
        (1.3, 0.0, 200.0),
        (2.0, 1e-300, 1.1),
    ],
)
def test_r_alpha_against_decimal_reference(u, v, alpha):
    """Stable near u = v = 1, where the printed fractions are 0/0 and their difference cancels."""
    assert md.measures.reverse_pinsker_f_alpha(u, v, alpha) == pytest.approx(
        _r_alpha_decimal(u, v, alpha), rel=1e-12, abs=0
    )


@given(st.floats(-14, 4), st.floats(-14, 0), st.floats(-6, 1.5))
def test_r_alpha_against_decimal_reference_hypothesis(log_du, log_dv, log_da):
    u, v, alpha = 1 + 10**log_du, 1 - 10**log_dv, 1 + 10**log_da
    # exp(α log u) costs a relative error of about α·log(u)·eps; it stays below 1e-13 here.
    assert md.measures.reverse_pinsker_f_alpha(u, v, alpha) == pytest.approx(
        _r_alpha_decimal(u, v, alpha), rel=1e-12, abs=0
    )


def test_r_alpha_limits():
    alpha, u, v = 2.5, 3.0, 0.4
    upper_term = (u**alpha - 1) / (u - 1)
    lower_term = (1 - v**alpha) / (1 - v)
    assert md.measures.reverse_pinsker_f_alpha(1.0, v, alpha) == pytest.approx(
        alpha - lower_term, rel=1e-13, abs=0
    )
    assert md.measures.reverse_pinsker_f_alpha(u, 1.0, alpha) == pytest.approx(
        upper_term - alpha, rel=1e-13, abs=0
    )
    assert md.measures.reverse_pinsker_f_alpha(1.0, 1.0, alpha) == pytest.approx(0.0, abs=1e-12)
    assert md.measures.reverse_pinsker_f_alpha(math.inf, v, alpha) == math.inf
    assert md.measures.reverse_pinsker_f_alpha(u, 0.0, alpha) == pytest.approx(
        upper_term - 1, rel=1e-13, abs=0
    )


@given(st.data(), st.floats(1.01, 8.0))
def test_theorem_6_on_random_pairs(data, alpha):
    p = data.draw(distributions(allow_zeros=False))
    q = data.draw(distributions(p.size, allow_zeros=False))
    u, v = _ratio_bounds(p, q)
    tv = md.total_variation(p, q)
    bound = tv * md.measures.reverse_pinsker_f_alpha(u, v, alpha)
    assert md.measures.f_alpha_divergence(p, q, alpha) <= bound * (1 + 1e-9) + 1e-12
    assume(u > 1 > v)  # reverse_pinsker refuses one ratio bound of exactly 1 (P = Q)
    for generator, divergence in [
        (md.measures.KL, md.kl_divergence),
        (md.measures.CHI_SQUARED, md.measures.chi_squared_divergence),
        (md.measures.SQUARED_HELLINGER, md.measures.squared_hellinger),
        (
            md.measures.hockey_stick_generator(1.7),
            lambda a, b: md.measures.hockey_stick_divergence(a, b, 1.7),
        ),
    ]:
        bound = tv * md.measures.reverse_pinsker(u, v, generator)
        assert divergence(p, q) <= bound * (1 + 1e-9) + 1e-12, generator.name


@given(st.floats(0.01, 0.99), st.floats(0.01, 0.99), st.floats(1.01, 8.0))
def test_theorem_6_is_tight_on_two_points(a, b, alpha):
    """On a binary alphabet E_γ is exactly the tent of the proof, so Theorem 6 is equality."""
    assume(abs(a - b) > 1e-3)
    p, q = np.array([a, 1 - a]), np.array([b, 1 - b])
    u, v = _ratio_bounds(p, q)
    assert md.measures.f_alpha_divergence(p, q, alpha) == pytest.approx(
        md.total_variation(p, q) * md.measures.reverse_pinsker_f_alpha(u, v, alpha),
        rel=1e-9,
        abs=1e-12,
    )


@pytest.mark.parametrize("u", [1.1, 1.5, 3.0])
def test_remark_7_rate_tends_to_log_u(u):
    """(1/(α−1)) log R_α(u, v) → log u; since (u^α−1)/(u−1) − α ≤ R_α ≤ u^α/(u−1), the gap
    is at most log(u/(u−1))/(α−1) up to lower-order terms."""
    errors = []
    for alpha in (50.0, 200.0, 600.0):
        rate = math.log(md.measures.reverse_pinsker_f_alpha(u, 0.3, alpha)) / (alpha - 1)
        tolerance = 2 * abs(math.log(u / (u - 1))) / (alpha - 1)
        assert rate == pytest.approx(math.log(u), rel=0, abs=tolerance)
        errors.append(abs(rate - math.log(u)))
    assert errors[-1] < 5e-3
    assert errors == sorted(errors, reverse=True)


# -- Theorem 8: g_α --------------------------------------------------------------------------------


@pytest.mark.parametrize("alpha", [1.05, 1.5, 2.0, 3.0, 10.0])
def test_pinsker_f_alpha_is_eq_6(alpha):
    ts = np.linspace(0, 0.999, 101)
    expected = [_g_alpha_printed(t, alpha) for t in ts]
    np.testing.assert_allclose(
        md.measures.pinsker_f_alpha(ts, alpha), expected, rtol=1e-12, atol=1e-15
    )
    assert md.measures.pinsker_f_alpha(1.0, alpha) == math.inf
    assert isinstance(md.measures.pinsker_f_alpha(0.3, alpha), float)
    assert md.measures.pinsker_f_alpha(ts.reshape(1, -1), alpha).shape == (1, ts.size)


@given(st.data(), st.floats(1.01, 10.0))
def test_theorem_8_on_random_pairs(data, alpha):
    p = data.draw(distributions())
    q = data.draw(distributions(p.size))
    d = md.measures.f_alpha_divergence(p, q, alpha)
    tv = md.total_variation(p, q)
    # g_α(t) grows like (1 − t)^(1 − α) as t → 1, so the rounding of t (a sum of N terms,
    # a few ulps each) moves g_α by a relative (α − 1)·δt/(1 − t): hypothesis found
    # t = 1 − 2.9e-7 at α = 4, where that is 1.2e-9.
    conditioning = (alpha - 1) * 8 * p.size * np.finfo(float).eps / max(1 - tv, 1e-300)
    assert d >= md.measures.pinsker_f_alpha(tv, alpha) * (1 - 1e-9 - conditioning) - 1e-12


@pytest.mark.parametrize("alpha", [1.2, 1.5, 2.0, 3.0, 7.0])
def test_theorem_8_is_attained_for_large_tv(alpha):
    """Remark 9: P = [0, 1], Q = [t, 1 − t] (P ≪ Q but not Q ≪ P) attains g_α for t ≥ 1/α."""
    for t in np.linspace(1 / alpha, 0.99, 9):
        assert md.measures.f_alpha_divergence([0.0, 1.0], [t, 1 - t], alpha) == pytest.approx(
            md.measures.pinsker_f_alpha(t, alpha), rel=1e-12, abs=1e-15
        )


def test_theorem_8_is_the_exact_boundary_at_alpha_2():
    ts = np.concatenate([[1e-8, 1e-4], np.linspace(0.01, 0.99, 50)])
    np.testing.assert_allclose(
        md.measures.f_alpha_tv_lower_boundary(ts, 2.0),
        md.measures.pinsker_f_alpha(ts, 2.0),
        rtol=1e-10,
        atol=0,
    )


# -- the exact lower boundary of the (TV, D_fα) joint range ----------------------------------------


def _brute_force_binary_minimum(t, alpha):
    """min d_fα(p‖q) over binary p, q with |p − q| = t: a grid in p for both signs of q − p,
    then golden-section refinement around the best grid point."""

    def d(p, q):
        with np.errstate(divide="ignore", invalid="ignore"):
            value = p**alpha * q ** (1 - alpha) + (1 - p) ** alpha * (1 - q) ** (1 - alpha) - 1
        return np.where(np.isnan(value), np.inf, value)

    best = math.inf
    for sign, lo, hi in ((1, 0.0, 1 - t), (-1, t, 1.0)):
        grid = np.linspace(lo, hi, 2001)
        values = d(grid, grid + sign * t)
        i = int(np.argmin(values))
        a, b = grid[max(i - 1, 0)], grid[min(i + 1, grid.size - 1)]
        best = min(best, float(values[i]))
        ratio = (math.sqrt(5) - 1) / 2
        for _ in range(120):
            c, e = b - ratio * (b - a), a + ratio * (b - a)
            if d(c, c + sign * t) <= d(e, e + sign * t):
                b = e
            else:
                a = c
        best = min(best, float(d(a, a + sign * t)), float(d(b, b + sign * t)))
    return best


@pytest.mark.parametrize("alpha", [1.2, 1.5, 2.0, 3.0, 6.0])
def test_lower_boundary_matches_brute_force(alpha):
    for t in (0.02, 0.1, 0.25, 0.4, 0.7, 0.95):
        assert md.measures.f_alpha_tv_lower_boundary(t, alpha) == pytest.approx(
            _brute_force_binary_minimum(t, alpha), rel=1e-9, abs=1e-14
        ), t


@pytest.mark.parametrize("alpha", [1.05, 1.5, 2.0, 3.0, 10.0])
def test_lower_boundary_dominates_g_alpha_and_equals_it_past_one_over_alpha(alpha):
    ts = np.linspace(0, 1, 201)
    boundary = md.measures.f_alpha_tv_lower_boundary(ts, alpha)
    g = md.measures.pinsker_f_alpha(ts, alpha)
    assert np.all(boundary >= g * (1 - 1e-12))
    past = ts >= 1 / alpha
    np.testing.assert_allclose(boundary[past], g[past], rtol=1e-12, atol=0)
    assert boundary[0] == pytest.approx(0.0, abs=1e-12)
    assert boundary[-1] == math.inf
    # The boundary of a joint range with TV is convex (a function of a coarse-graining).
    inner = boundary[1:-1]
    assert np.all(inner[1:-1] <= 0.5 * (inner[:-2] + inner[2:]) * (1 + 1e-9))


@given(st.floats(0.0, 0.999), st.floats(1.01, 10.0))
def test_lower_boundary_dominates_g_alpha_hypothesis(t, alpha):
    assert (
        md.measures.f_alpha_tv_lower_boundary(t, alpha)
        >= md.measures.pinsker_f_alpha(t, alpha) * (1 - 1e-12) - 1e-300
    )


def test_lower_boundary_small_tv_is_relatively_accurate():
    """For t → 0 the boundary is the χ²-like 2α(α−1)t²·(1 + O(t)) (the minimum of
    α(α−1)/2 · t²/(q(1−q)) is at q = 1/2), with no cancellation at tiny t."""
    alpha = 3.0
    for t in (1e-4, 1e-7, 1e-10):
        assert md.measures.f_alpha_tv_lower_boundary(t, alpha) == pytest.approx(
            2 * alpha * (alpha - 1) * t**2, rel=10 * t, abs=0
        )


# -- Remark 10: the generalised inverse of g_α -----------------------------------------------------


@pytest.mark.parametrize("alpha", [1.05, 1.5, 2.0, 3.0, 10.0])
def test_inverse_against_brute_force_supremum(alpha):
    ts = np.linspace(0, 1, 200_001)
    g = md.measures.pinsker_f_alpha(ts, alpha)
    ends = (_first_branch_end(alpha), _g_alpha_printed(1 / alpha, alpha))
    for s in (0.0, 1e-3, 0.05, *ends, 0.5 * sum(ends), 2.0, 50.0, 1e8):
        supremum = ts[g <= s].max()
        assert md.measures.pinsker_f_alpha_inverse(s, alpha) == pytest.approx(
            supremum, rel=0, abs=1.01e-5
        ), s
    assert md.measures.pinsker_f_alpha_inverse(math.inf, alpha) == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("alpha", [1.05, 1.5, 1.99, 3.0, 10.0])
def test_inverse_is_one_over_alpha_in_the_gap(alpha):
    lo, hi = _first_branch_end(alpha), _g_alpha_printed(1 / alpha, alpha)
    assert lo < hi  # g_α jumps up at 1/α for α ≠ 2
    for s in np.linspace(lo, hi, 8)[:-1]:
        assert md.measures.pinsker_f_alpha_inverse(s, alpha) == pytest.approx(
            1 / alpha, rel=1e-15, abs=0
        )


@pytest.mark.parametrize("alpha", [1.05, 1.5, 2.0, 3.0, 10.0])
def test_inverse_is_min_of_the_branch_inverses(alpha):
    """Each branch of eq. (6) is a lower bound for every t (Pinsker, Jensen, and the exact
    boundary for t ≥ 1/α), so min over branches of their inverses is the tight inverse.
    The printed (1 + s)^{1/(α−1)} − 1 cancels for small s, hence rel=1e-9."""
    for s in np.geomspace(1e-6, 1e6, 60):
        if alpha < 2:
            head = math.sqrt(math.log1p(s) / (2 * (alpha - 1)))
        else:
            head = 0.5 * math.sqrt((1 + s) ** (1 / (alpha - 1)) - 1)
        tail = max(1 - (1 + s) ** (-1 / (alpha - 1)), 1 / alpha)
        assert md.measures.pinsker_f_alpha_inverse(s, alpha) == pytest.approx(
            min(head, tail), rel=1e-9, abs=1e-15
        )


@given(st.floats(0.0, 0.999), st.floats(1.01, 10.0))
def test_inverse_of_g_returns_t(t, alpha):
    back = md.measures.pinsker_f_alpha_inverse(md.measures.pinsker_f_alpha(t, alpha), alpha)
    assert back >= t - 1e-12
    assert back == pytest.approx(t, rel=1e-9, abs=1e-12)


@given(st.floats(0.0, 1e6), st.floats(1.01, 10.0))
def test_g_of_inverse_stays_below_s(s, alpha):
    t = md.measures.pinsker_f_alpha_inverse(s, alpha)
    assert 0.0 <= t <= 1.0
    if t > 0:  # the supremum: g(t⁻) ≤ s, and g exceeds s just above t
        assert md.measures.pinsker_f_alpha(np.nextafter(t, 0.0), alpha) <= s * (1 + 1e-12) + 1e-15
    if t < 1:
        assert md.measures.pinsker_f_alpha(min(t + 1e-8, 1.0), alpha) > s


@given(st.data(), st.floats(1.01, 10.0))
def test_inverse_bounds_tv_on_random_pairs(data, alpha):
    """Corollary 11's use: D_fα(P‖Q) ≤ s implies TV(P‖Q) ≤ g_α^{-1}(s)."""
    p = data.draw(distributions())
    q = data.draw(distributions(p.size))
    d = md.measures.f_alpha_divergence(p, q, alpha)
    assert md.total_variation(p, q) <= md.measures.pinsker_f_alpha_inverse(d, alpha) + 1e-12


def test_inverse_is_vectorised():
    s = np.array([[0.0, 0.1], [1.0, math.inf]])
    out = md.measures.pinsker_f_alpha_inverse(s, 3.0)
    assert out.shape == (2, 2)
    np.testing.assert_allclose(
        out.ravel(),
        [md.measures.pinsker_f_alpha_inverse(x, 3.0) for x in s.ravel()],
        rtol=0,
        atol=0,
    )
    assert isinstance(md.measures.pinsker_f_alpha_inverse(0.1, 3.0), float)


def test_remark_10_printed_h1_is_valid_but_loose():
    """Remark 10 prints h_1 = 2 − 2/α, but the first branch of g_α ends at
    g_α(1/α⁻) = e^{2(α−1)/α²} − 1. For every α ∈ (1, 2), h_1 lies strictly inside the gap
    (g_α(1/α⁻), g_α(1/α)); on [g_α(1/α⁻), h_1) the printed inverse returns
    √(log(1+s)/(2(α−1))) > 1/α: a valid (larger) but loose bound on TV, and not monotone."""
    for alpha in np.linspace(1.02, 1.98, 25):
        lo, hi, h1 = _first_branch_end(alpha), _g_alpha_printed(1 / alpha, alpha), 2 - 2 / alpha
        assert lo < h1 < hi
        for s in np.linspace(0, 3 * hi, 301):
            printed, correct = (
                _inverse_printed(s, alpha),
                md.measures.pinsker_f_alpha_inverse(s, alpha),
            )
            assert printed >= correct - 1e-12  # never too small: still a valid bound
            if lo <= s < h1:
                assert printed > correct == pytest.approx(1 / alpha, rel=1e-15, abs=0)
            else:
                assert printed == pytest.approx(correct, rel=1e-12, abs=1e-15)
    # The numbers at α = 1.5: gap (e^{4/9} − 1, √3 − 1) ≈ (0.5596, 0.7321), h_1 = 2/3.
    assert _first_branch_end(1.5) == pytest.approx(0.559623, rel=0, abs=1e-6)
    assert _g_alpha_printed(2 / 3, 1.5) == pytest.approx(math.sqrt(3) - 1, rel=1e-12, abs=0)
    assert md.measures.pinsker_f_alpha_inverse(0.6, 1.5) == pytest.approx(2 / 3, rel=1e-15, abs=0)
    assert _inverse_printed(0.6, 1.5) == pytest.approx(0.685568, rel=0, abs=1e-6)
    h1 = 2 - 2 / 1.5
    assert _inverse_printed(np.nextafter(h1, 0), 1.5) == pytest.approx(0.714721, rel=0, abs=1e-6)
    assert _inverse_printed(h1, 1.5) == pytest.approx(2 / 3, rel=1e-15, abs=0)  # drops back
    # h_2 = (1 + 4α^{-2})^{α−1} − 1 is g_α(1/α⁻) for α ≥ 2, as printed.
    for alpha in (2.0, 3.0, 10.0):
        h2 = (1 + 4 / alpha**2) ** (alpha - 1) - 1
        assert md.measures.pinsker_f_alpha(np.nextafter(1 / alpha, 0.0), alpha) == pytest.approx(
            h2, rel=1e-12, abs=0
        )


# -- bad input and extreme input ------------------------------------------------------


@pytest.mark.parametrize(
    ("u", "v", "match"),
    [
        (0.5, 0.5, "u"),
        (math.nan, 0.5, "u"),
        ("two", 0.5, "real numbers"),
        (2.0, -0.1, "v"),
        (2.0, 1.5, "v"),
        (2.0, math.nan, "v"),
        (1.0, 0.5, "both be 1"),
        (2.0, 1.0, "both be 1"),
    ],
)
def test_reverse_pinsker_rejects_bad_ratio_bounds(u, v, match):
    with pytest.raises(md.InvalidInputError, match=match):
        md.measures.reverse_pinsker(u, v, md.measures.KL)
    if match != "both be 1":
        with pytest.raises(ValueError, match=match):
            md.measures.reverse_pinsker_f_alpha(u, v, 2.0)


def test_reverse_pinsker_rejects_bad_generators():
    with pytest.raises(md.InvalidInputError, match="f must be"):
        md.measures.reverse_pinsker(2.0, 0.5, "kl")
    with pytest.raises(md.InvalidInputError, match="slope_at_infinity"):
        md.measures.reverse_pinsker(math.inf, 0.5, lambda t: (t - 1) ** 2)
    with pytest.raises(md.InvalidInputError, match="not finite"):
        md.measures.reverse_pinsker(2.0, 0.0, lambda t: t * np.log(t))


@pytest.mark.parametrize("alpha", [1.0, 0.5, -1.0, math.inf, math.nan, "2"])
def test_pinsker_functions_need_alpha_above_one(alpha):
    for call in (
        lambda: md.measures.reverse_pinsker_f_alpha(2.0, 0.5, alpha),
        lambda: md.measures.pinsker_f_alpha(0.3, alpha),
        lambda: md.measures.pinsker_f_alpha_inverse(0.3, alpha),
        lambda: md.measures.f_alpha_tv_lower_boundary(0.3, alpha),
    ):
        with pytest.raises(md.InvalidInputError, match="alpha"):
            call()


@pytest.mark.parametrize("t", [-0.1, 1.5, math.nan, math.inf, "x", [0.2, 2.0]])
def test_tv_arguments_are_validated(t):
    with pytest.raises(md.InvalidInputError, match="t must"):
        md.measures.pinsker_f_alpha(t, 2.0)
    with pytest.raises(ValueError, match="t must"):
        md.measures.f_alpha_tv_lower_boundary(t, 2.0)


@pytest.mark.parametrize("s", [-1e-3, math.nan, "x", [0.1, -1.0]])
def test_inverse_argument_is_validated(s):
    with pytest.raises(md.InvalidInputError, match="s must"):
        md.measures.pinsker_f_alpha_inverse(s, 2.0)


@pytest.mark.parametrize(
    ("function", "grid", "alpha"),
    [
        (md.measures.pinsker_f_alpha, [0.0, 0.1, 0.3, 0.6, 1.0], 1.5),
        (md.measures.pinsker_f_alpha_inverse, [0.0, 0.05, 0.7, 50.0, math.inf], 3.0),
        (md.measures.f_alpha_tv_lower_boundary, [0.0, 0.1, 0.4, 1.0], 3.0),
    ],
    ids=["pinsker_f_alpha", "pinsker_f_alpha_inverse", "f_alpha_tv_lower_boundary"],
)
def test_pinsker_curves_map_lists_tuples_and_nested_lists_entrywise(function, grid, alpha):
    """Documented vectorisation: a list, a tuple or a nested (rectangular) list gives an
    array of its shape whose entries are the scalar values; a scalar gives a float."""
    one_by_one = [function(x, alpha) for x in grid]
    assert all(isinstance(v, float) for v in one_by_one)
    for given_grid in (grid, tuple(grid)):
        out = function(given_grid, alpha)
        assert isinstance(out, np.ndarray)
        assert out.shape == (len(grid),)
        np.testing.assert_allclose(out, one_by_one, rtol=1e-15, atol=0)
    nested = function([grid[:2], grid[2:4]], alpha)
    assert nested.shape == (2, 2)
    np.testing.assert_allclose(nested.ravel(), one_by_one[:4], rtol=1e-15, atol=0)


def test_pinsker_curves_on_a_list_match_closed_forms():
    """The list form against values computed independently: eq. (6) as printed, and the
    brute-force minimum over binary pairs for the joint-range boundary."""
    ts = [0.05, 0.2, 0.5, 0.9]
    np.testing.assert_allclose(
        md.measures.pinsker_f_alpha(ts, 2.5),
        [_g_alpha_printed(t, 2.5) for t in ts],
        rtol=1e-12,
        atol=0,
    )
    np.testing.assert_allclose(
        md.measures.f_alpha_tv_lower_boundary([0.1, 0.7], 3.0),
        [_brute_force_binary_minimum(t, 3.0) for t in (0.1, 0.7)],
        rtol=1e-9,
        atol=1e-14,
    )
    # g_α^{-1}(g_α(t)) = t on the tail branch (t ≥ 1/α), entrywise.
    tail = [0.5, 0.8]
    np.testing.assert_allclose(
        md.measures.pinsker_f_alpha_inverse([(1 - t) ** (1 - 2.5) - 1 for t in tail], 2.5),
        tail,
        rtol=1e-12,
        atol=0,
    )


@pytest.mark.parametrize(
    "bad",
    [
        pytest.param([0.1, [0.2]], id="ragged"),
        pytest.param([0.1, "0.2"], id="text entry"),
        pytest.param([0.1, True], id="bool entry"),
        pytest.param([0.1, 0.2 + 1j], id="complex entry"),
        pytest.param([md.Mechanism([[1.0]])], id="Mechanism entry"),
        pytest.param({0.1, 0.2}, id="set"),
    ],
)
def test_pinsker_curves_refuse_lists_of_non_numbers_by_name(bad):
    with pytest.raises(md.InvalidInputError, match=r"^t must"):
        md.measures.pinsker_f_alpha(bad, 2.0)
    with pytest.raises(md.InvalidInputError, match=r"^t must"):
        md.measures.f_alpha_tv_lower_boundary(bad, 2.0)
    with pytest.raises(md.InvalidInputError, match=r"^s must"):
        md.measures.pinsker_f_alpha_inverse(bad, 2.0)


@pytest.mark.parametrize("alpha", [1e3, 1e300, 1.6363308087894492e308])
def test_reverse_pinsker_f_alpha_at_a_huge_order_is_infinite_not_nan(alpha):
    """(u^α − 1)/(u − 1) at u = 3 exceeds every float once α ≥ 647; the sum of the
    non-negative parts overflowed to inf − inf = NaN at α = 1.6e308 (found by the fuzz
    battery's hypothesis draw)."""
    assert md.measures.reverse_pinsker_f_alpha(3.0, 0.5, alpha) == math.inf


def test_pinsker_inverse_at_a_huge_alpha_is_one_over_alpha():
    # For s above g_α(1/α⁻) the inverse is max(1 − (1+s)^{−1/(α−1)}, 1/α) → 1/α.
    assert md.measures.pinsker_f_alpha_inverse(0.5, 1e308) == pytest.approx(1e-308, rel=1e-12)
    assert md.measures.pinsker_f_alpha_inverse(0.5, 1e200) == pytest.approx(1e-200, rel=1e-12)

