"""Tests of f-divergences and Rényi divergences against closed forms, an integral
representation, an independent library (dit) and the data-processing inequality.

Hardening: bad input is refused by the argument's name, extreme valid input gets the
right answer (checked against an independent value), and sizes that cannot be computed
raise TooLargeError by name (the bad-input battery itself is tests/test_fuzz.py).
"""

from __future__ import annotations

import itertools
import math
import zlib
from decimal import Decimal, localcontext

import dit
import numpy as np
import pytest
from dit.divergences import (
    hellinger_divergence,
    kullback_leibler_divergence,
    renyi_divergence,
    variational_distance,
)
from hypothesis import given, strategies as st
from scipy import integrate

import mechdesign as md
from tests.helpers import BALL, P3, PHAT, Q3, distributions, kernels

LN2 = math.log(2.0)
P = np.array([0.2, 0.3, 0.5, 0.0])
Q = np.array([0.4, 0.4, 0.1, 0.1])


def _dit(p):
    return dit.Distribution([str(i) for i in range(len(p))], list(p), sparse=False)


# -- independent library: dit (its logarithms are base 2) -------------------------------------


@pytest.mark.parametrize("seed", range(5))
def test_against_dit(seed):
    rng = np.random.default_rng(seed)
    p, q = rng.dirichlet(np.ones(5)), rng.dirichlet(np.ones(5))
    dp, dq = _dit(p), _dit(q)
    assert md.kl_divergence(p, q) == pytest.approx(
        kullback_leibler_divergence(dp, dq) * LN2, rel=1e-10
    )
    assert md.total_variation(p, q) == pytest.approx(variational_distance(dp, dq), rel=1e-12)
    assert md.measures.squared_hellinger(p, q) == pytest.approx(
        hellinger_divergence(dp, dq, 0.5), rel=1e-9
    )
    for alpha in (0.5, 2.0, 3.0):
        assert md.renyi_divergence(p, q, alpha) == pytest.approx(
            renyi_divergence(dp, dq, alpha) * LN2, rel=1e-9
        )


# -- closed forms ----------------------------------------------------------------------------


def test_bernoulli_closed_forms():
    a, b = 0.3, 0.6
    p, q = [a, 1 - a], [b, 1 - b]
    kl = a * math.log(a / b) + (1 - a) * math.log((1 - a) / (1 - b))
    assert md.kl_divergence(p, q) == pytest.approx(kl, rel=1e-14)
    assert md.measures.chi_squared_divergence(p, q) == pytest.approx(
        (a - b) ** 2 / (b * (1 - b)), rel=1e-13
    )
    assert md.total_variation(p, q) == pytest.approx(abs(a - b), rel=1e-14)
    bc = math.sqrt(a * b) + math.sqrt((1 - a) * (1 - b))
    assert md.measures.squared_hellinger(p, q) == pytest.approx(2 - 2 * bc, rel=1e-13)
    assert md.renyi_divergence(p, q, 0.5) == pytest.approx(-2 * math.log(bc), rel=1e-13)
    assert md.renyi_divergence(p, q, math.inf) == pytest.approx(math.log(0.7 / 0.4), rel=1e-14)


def test_zero_handling():
    # P has mass 0.0 where Q has 0.1 (fine) and Q has no zero where P is positive.
    assert math.isfinite(md.kl_divergence(P, Q))
    # Reverse direction: Q puts 0.1 where P is 0 → KL(Q‖P) = +∞, TV finite, H² finite.
    assert md.kl_divergence(Q, P) == math.inf
    assert md.measures.chi_squared_divergence(Q, P) == math.inf
    assert md.total_variation(Q, P) == pytest.approx(0.5 * np.abs(P - Q).sum(), rel=1e-14)
    assert md.measures.squared_hellinger(Q, P) == pytest.approx(
        np.sum((np.sqrt(P) - np.sqrt(Q)) ** 2), rel=1e-14
    )
    # The f'(∞) term: for E_γ, f'(∞) = 1/2.
    gen = md.measures.hockey_stick_generator(0.7)
    assert md.measures.f_divergence(Q, P, gen) == pytest.approx(
        md.measures.hockey_stick_divergence(Q, P, 0.7), rel=1e-12, abs=1e-15
    )
    # Rényi: +∞ for α ≥ 1 without absolute continuity, finite for α < 1.
    assert md.renyi_divergence(Q, P, 2.0) == math.inf
    assert md.renyi_divergence(Q, P, 1.0) == math.inf
    assert math.isfinite(md.renyi_divergence(Q, P, 0.5))
    # Disjoint supports: +∞ for every α, including α < 1.
    assert md.renyi_divergence([1, 0], [0, 1], 0.5) == math.inf


def test_kl_with_ratio_beyond_float_range_is_finite():
    """Regression: q·f(p/q) overflows when q is near the smallest float; KL is finite."""
    p, q = [1.0, 0.0], [4e-308, 1.0]
    assert md.kl_divergence(p, q) == pytest.approx(-math.log(4e-308), rel=1e-14)
    assert md.renyi_divergence(p, q, 1.0) == pytest.approx(-math.log(4e-308), rel=1e-14)


def test_generic_f_divergence_reproduces_named_ones():
    rng = np.random.default_rng(0)
    p, q = rng.dirichlet(np.ones(4)), rng.dirichlet(np.ones(4))
    assert md.measures.f_divergence(p, q, md.measures.KL) == pytest.approx(
        md.kl_divergence(p, q), rel=1e-13
    )
    assert md.measures.f_divergence(p, q, md.measures.TOTAL_VARIATION) == pytest.approx(
        md.total_variation(p, q), rel=1e-13
    )
    assert md.measures.f_divergence(p, q, md.measures.SQUARED_HELLINGER) == pytest.approx(
        md.measures.squared_hellinger(p, q), rel=1e-12
    )
    # A bare callable works when P ≪ Q.
    assert md.measures.f_divergence(p, q, lambda t: (t - 1) ** 2) == pytest.approx(
        md.measures.chi_squared_divergence(p, q), rel=1e-12
    )


def test_bare_callable_without_absolute_continuity_is_refused():
    with pytest.raises(md.InvalidInputError, match="absolutely continuous"):
        md.measures.f_divergence(Q, P, lambda t: (t - 1) ** 2)
    with pytest.raises(md.InvalidInputError, match="not finite"):
        md.measures.f_divergence(P, Q, lambda t: t * np.log(t))


def test_hockey_stick_at_one_is_total_variation_and_its_positive_part_form():
    rng = np.random.default_rng(4)
    p, q = rng.dirichlet(np.ones(6)), rng.dirichlet(np.ones(6))
    assert md.measures.hockey_stick_divergence(p, q, 1.0) == pytest.approx(md.total_variation(p, q))
    for gamma in (0.3, 1.0, 2.5):
        positive_part = np.maximum(p - gamma * q, 0).sum() - max(1 - gamma, 0)
        assert md.measures.hockey_stick_divergence(p, q, gamma) == pytest.approx(
            positive_part, abs=1e-15
        )


# -- the integral representation D_f = ∫ E_γ f''(γ) dγ (f_α paper, eq. 2) -----------------------


@pytest.mark.parametrize(
    ("name", "second_derivative", "direct"),
    [
        ("KL", lambda g: 1 / g, md.kl_divergence),
        ("chi2", lambda g: 2.0, md.measures.chi_squared_divergence),
        ("H2", lambda g: 0.5 * g**-1.5, md.measures.squared_hellinger),
        ("f_3", lambda g: 3 * 2 * g, lambda p, q: md.measures.f_alpha_divergence(p, q, 3.0)),
        (
            "f_0.5",
            lambda g: 0.5 * 0.5 * g**-1.5,
            lambda p, q: md.measures.f_alpha_divergence(p, q, 0.5),
        ),
    ],
)
def test_integral_representation(name, second_derivative, direct):
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    p, q = rng.dirichlet(np.ones(4)), rng.dirichlet(np.ones(4))
    ratios = np.sort(p / q)
    # E_γ vanishes outside [min p/q, max p/q] (f_α paper, proof of Theorem 6) and is
    # piecewise linear, with kinks at the ratios p_y/q_y and at γ = 1.
    kinks = np.sort(np.append(ratios, 1.0))
    value = sum(
        integrate.quad(
            lambda g: md.measures.hockey_stick_divergence(p, q, g) * second_derivative(g),
            lo,
            hi,
            epsabs=1e-15,
            epsrel=1e-12,
        )[0]
        for lo, hi in itertools.pairwise(kinks)
    )
    assert direct(p, q) == pytest.approx(value, rel=1e-8)


# -- Rényi: limits and the f_α transform ---------------------------------------------------------


def test_renyi_limits():
    rng = np.random.default_rng(8)
    p, q = rng.dirichlet(np.ones(5)), rng.dirichlet(np.ones(5))
    kl = md.kl_divergence(p, q)
    for alpha in (1 - 1e-7, 1 + 1e-7):
        assert md.renyi_divergence(p, q, alpha) == pytest.approx(kl, rel=1e-5)
    assert md.renyi_divergence(p, q, 1.0) == kl
    d_inf = math.log(np.max(p / q))
    assert md.renyi_divergence(p, q, 2000.0) == pytest.approx(d_inf, rel=5e-3)
    assert md.renyi_divergence(p, q, math.inf) == pytest.approx(d_inf, rel=1e-14)


@pytest.mark.parametrize("alpha", [0.3, 0.7, 1.0, 2.0, 3.5])
def test_renyi_f_alpha_transform(alpha):
    """f_α paper eq. (1), with the sign correction for α < 1 (see renyi_from_f_alpha)."""
    rng = np.random.default_rng(int(alpha * 10))
    p, q = rng.dirichlet(np.ones(5)), rng.dirichlet(np.ones(5))
    d_f = md.measures.f_alpha_divergence(p, q, alpha)
    assert md.measures.renyi_from_f_alpha(d_f, alpha) == pytest.approx(
        md.renyi_divergence(p, q, alpha), rel=1e-10
    )
    assert md.measures.f_alpha_from_renyi(md.renyi_divergence(p, q, alpha), alpha) == pytest.approx(
        d_f, rel=1e-10
    )


def test_printed_transform_is_wrong_below_one():
    """Eq. (1) as printed, log(D_fα + 1)/(α − 1), disagrees with D_α for α < 1."""
    p, q = [0.2, 0.8], [0.6, 0.4]
    alpha = 0.5
    printed = math.log(md.measures.f_alpha_divergence(p, q, alpha) + 1) / (alpha - 1)
    assert printed < 0 < md.renyi_divergence(p, q, alpha)


# -- data processing (hypothesis) ---------------------------------------------------------------


NAMED = {
    "tv": md.total_variation,
    "kl": md.kl_divergence,
    "chi2": md.measures.chi_squared_divergence,
    "h2": md.measures.squared_hellinger,
}


@given(st.data(), st.sampled_from(sorted(NAMED)))
def test_data_processing_named(data, name):
    k = data.draw(kernels())
    p = data.draw(distributions(k.shape[0]))
    q = data.draw(distributions(k.shape[0]))
    div = NAMED[name]
    before, after = div(p, q), div(p @ k, q @ k)
    assert after <= before * (1 + 1e-9) + 1e-12


@given(st.data(), st.floats(0.05, 20.0))
def test_data_processing_hockey_stick_and_f_alpha_and_renyi(data, param):
    k = data.draw(kernels())
    p = data.draw(distributions(k.shape[0]))
    q = data.draw(distributions(k.shape[0]))
    pk, qk = p @ k, q @ k
    assert md.measures.hockey_stick_divergence(pk, qk, param) <= (
        md.measures.hockey_stick_divergence(p, q, param) + 1e-12
    )
    assert (
        md.measures.f_alpha_divergence(pk, qk, param)
        <= md.measures.f_alpha_divergence(p, q, param) * (1 + 1e-9) + 1e-12
    )
    assert (
        md.renyi_divergence(pk, qk, param) <= md.renyi_divergence(p, q, param) * (1 + 1e-9) + 1e-12
    )


@given(distributions(5, allow_zeros=False), distributions(5, allow_zeros=False))
def test_renyi_is_non_decreasing_in_order(p, q):
    orders = [0.2, 0.5, 0.9, 1.0, 1.5, 3.0, 10.0, math.inf]
    values = [md.renyi_divergence(p, q, a) for a in orders]
    for lower, upper in itertools.pairwise(values):
        assert lower <= upper * (1 + 1e-9) + 1e-12


# -- bad input -------------------------------------------------------------------------------------


@pytest.mark.parametrize("alpha", [0.0, -1.0, math.nan])
def test_alpha_must_be_positive(alpha):
    with pytest.raises(md.InvalidInputError, match="alpha must be > 0"):
        md.renyi_divergence([0.5, 0.5], [0.5, 0.5], alpha)
    with pytest.raises(md.InvalidInputError, match="alpha"):
        md.measures.f_alpha_divergence([0.5, 0.5], [0.5, 0.5], alpha)


@pytest.mark.parametrize("gamma", [0.0, -2.0, math.inf])
def test_gamma_must_be_positive_and_finite(gamma):
    with pytest.raises(md.InvalidInputError, match="gamma"):
        md.measures.hockey_stick_divergence([0.5, 0.5], [0.5, 0.5], gamma)


def test_distribution_arguments_are_validated():
    with pytest.raises(md.InvalidInputError, match="q must have length 2"):
        md.kl_divergence([0.5, 0.5], [0.2, 0.3, 0.5])
    with pytest.raises(md.InvalidInputError, match="p must sum to 1"):
        md.total_variation([0.5, 0.6], [0.5, 0.5])
    with pytest.raises(md.InvalidInputError, match="q must be non-negative"):
        md.measures.squared_hellinger([0.5, 0.5], [1.5, -0.5])
    with pytest.raises(md.InvalidInputError, match="p must be finite"):
        md.renyi_divergence([math.nan, 1.0], [0.5, 0.5], 2.0)


def test_transform_rejects_out_of_range_values():
    with pytest.raises(md.InvalidInputError, match=r"\[0, 1\]"):
        md.measures.renyi_from_f_alpha(1.5, 0.5)
    with pytest.raises(md.InvalidInputError, match=">= 0"):
        md.measures.renyi_from_f_alpha(-0.1, 2.0)
    # At α = 1 the value is a KL divergence: a negative one was returned as D_1 < 0.
    with pytest.raises(md.InvalidInputError, match=">= 0"):
        md.measures.renyi_from_f_alpha(-0.1, 1.0)
    assert md.measures.renyi_from_f_alpha(0.0, 1.0) == 0.0  # exact: returned as given
    assert math.isinf(md.measures.renyi_from_f_alpha(math.inf, 1.0))
    with pytest.raises(md.InvalidInputError, match="finite"):
        md.measures.renyi_from_f_alpha(0.1, math.inf)


def test_f_must_be_a_generator_or_callable():
    with pytest.raises(md.InvalidInputError, match="f must be"):
        md.measures.f_divergence([0.5, 0.5], [0.5, 0.5], "kl")


# -- bad input (Section IV) ------------------------------------------------------------------------


def test_total_variation_of_disjoint_supports_is_one_despite_rounding():
    # Hypothesis found these: the plain sum gives 1.0000000000000002, which then broke
    # pinsker_f_alpha (it refuses t > 1).
    p = np.array([0.4, 0.0, 0.0, 0.4, 0.2])
    q = np.array([0.0, 5 / 13, 8 / 13, 0.0, 0.0])
    assert md.total_variation(p, q) <= 1.0
    assert md.total_variation(p, q) == pytest.approx(1.0, abs=1e-15)
    assert md.measures.pinsker_f_alpha(md.total_variation(p, q), 2.0) == math.inf


# -- issue 36, item 10: a generator must vanish at 1; the Pinsker curves are vectorised -----------

#: Bare callables that are not f-divergence generators: f(1) ≠ 0 (beyond the tolerance), or
#: not a finite real number at 1.
NOT_GENERATORS = [
    pytest.param(lambda t: t, id="f(1)=1"),
    pytest.param(lambda t: t * np.log(t) + 0.5, id="t log t + 0.5"),
    pytest.param(lambda t: (t - 1) ** 2 + 1e-9, id="f(1)=1e-9"),
    pytest.param(lambda t: np.full_like(t, math.inf), id="inf at 1"),
    pytest.param(lambda t: np.where(t == 1, math.nan, 0.0), id="nan at 1"),
    pytest.param(lambda t: (t - 1) ** 2 + 1j, id="complex"),
]


@pytest.mark.parametrize("f", NOT_GENERATORS)
def test_a_generator_that_does_not_vanish_at_one_is_refused(f):
    """D_f(P‖P) = f(1), so f(1) ≠ 0 is no f-divergence; refused by the one check every
    caller shares (also when u = v = 1, where the constant would be 0 whatever f)."""
    for call in (
        lambda: md.measures.f_divergence([0.5, 0.5], [0.4, 0.6], f),
        lambda: md.measures.f_divergence([0.5, 0.5], [0.5, 0.5], f),
        lambda: md.measures.reverse_pinsker(2.0, 0.5, f),
        lambda: md.measures.reverse_pinsker(1.0, 1.0, f),
        lambda: md.measures.FGenerator("bad", f, 0.0, 1.0),
    ):
        with pytest.raises(md.InvalidInputError, match=r"^f(\(t\))? must"):
            call()


def test_generator_at_one_tolerance_is_the_named_one():
    """Within GENERATOR_AT_ONE_ATOL of 0 passes, and the divergence then moves by exactly
    f(1) (Σ q = 1); beyond it the value is refused and quoted."""
    from mechdesign._tolerances import GENERATOR_AT_ONE_ATOL

    p, q = np.array([0.2, 0.8]), np.array([0.6, 0.4])
    shift = 0.5 * GENERATOR_AT_ONE_ATOL
    chi2 = (0.2 - 0.6) ** 2 / 0.6 + (0.8 - 0.4) ** 2 / 0.4  # by hand
    assert md.measures.f_divergence(p, q, lambda t: (t - 1) ** 2 + shift) == pytest.approx(
        chi2 + shift, rel=1e-14, abs=0
    )
    with pytest.raises(md.InvalidInputError, match=r"f\(1\) = 2e-12"):
        md.measures.f_divergence(p, q, lambda t: (t - 1) ** 2 + 2 * GENERATOR_AT_ONE_ATOL)


def test_bare_t_log_t_is_the_kl_divergence():
    """A valid bare generator keeps working: t log t gives D(P‖Q) as summed by hand in
    exact decimals (NaN at t = 0 does not matter while p has no zero where q > 0), and
    Binette's constant for it at Γ_min = 1/Γ_max is log Γ_max (Dobrushin paper, Cor. 1)."""
    p, q = [0.1, 0.25, 0.65], [0.3, 0.3, 0.4]
    with localcontext() as ctx:
        ctx.prec = 40
        terms = (Decimal(a) * (Decimal(a) / Decimal(b)).ln() for a, b in zip(p, q, strict=True))
        expected = float(sum(terms))
    assert md.measures.f_divergence(p, q, lambda t: t * np.log(t)) == pytest.approx(
        expected, rel=1e-13, abs=0
    )
    for u in (1.5, 4.0, 30.0):
        assert md.measures.reverse_pinsker(u, 1 / u, lambda t: t * np.log(t)) == pytest.approx(
            math.log(u), rel=1e-12, abs=0
        )


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


def test_ball_divergence_names_p_and_matches_renyi_divergence():
    assert BALL.divergence(PHAT[::-1].copy()) == pytest.approx(
        md.renyi_divergence(PHAT, PHAT[::-1].copy(), 2.0), rel=1e-12)


def test_fgenerator_stores_plain_floats_and_allows_plus_infinity():
    from fractions import Fraction

    g = md.measures.FGenerator("g", lambda t: np.abs(t - 1.0), Fraction(1, 2), math.inf)
    assert isinstance(g.f_at_zero, float)
    assert g.f_at_zero == pytest.approx(0.5, rel=1e-15)
    assert g.slope_at_infinity == math.inf  # exact: +inf is stored as given


def test_the_public_generator_api_against_closed_forms_and_bad_input():
    """check_generator, generator_value and generator_at_zero (what measures.pinsker reads
    of a generator): the values are the generators' closed forms, for FGenerators and for
    bare functions alike, and bad input is refused by name."""
    from mechdesign.measures.divergences import (
        CHI_SQUARED,
        KL,
        TOTAL_VARIATION,
        check_generator,
        generator_at_zero,
        generator_value,
    )

    for t in (0.25, 1.0, 3.0, 1e-300, 1e100):
        assert generator_value(KL, t) == pytest.approx(t * math.log(t), rel=1e-12, abs=1e-300)
        assert generator_value(CHI_SQUARED, t) == pytest.approx((t - 1) ** 2, rel=1e-12)
        assert generator_value(TOTAL_VARIATION, t) == pytest.approx(abs(t - 1) / 2, rel=1e-12)
        assert generator_value(lambda u: (u - 1) ** 2, t) == pytest.approx((t - 1) ** 2,
                                                                           rel=1e-12)
    assert generator_at_zero(KL) == 0.0  # exact: the FGenerator's stored limit
    assert generator_at_zero(CHI_SQUARED) == 1.0  # exact: stored
    assert generator_at_zero(lambda u: np.abs(u - 1)) == pytest.approx(1.0, abs=1e-15)
    check_generator(KL)
    check_generator(lambda u: u * np.log(u))
    with pytest.raises(md.InvalidInputError, match="f must"):
        check_generator(lambda u: u)  # f(1) = 1
    with pytest.raises(md.InvalidInputError, match="f must be an FGenerator or a callable"):
        generator_value("KL", 2.0)
    with pytest.raises(md.InvalidInputError, match="t"):
        generator_value(KL, "two")
    with pytest.raises(md.InvalidInputError, match="f"):
        generator_at_zero(lambda u: np.log(u) - np.log(1.0))  # f(0) = -inf, not finite
