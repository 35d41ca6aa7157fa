"""Tests of f-divergences and Rényi divergences against closed forms, an integral
representation, an independent library (dit) and the data-processing inequality."""

from __future__ import annotations

import itertools
import math
import zlib

import dit
import numpy as np
import pytest
from dit.divergences import (
    hellinger_divergence,
    kullback_leibler_divergence,
    renyi_divergence,
    variational_distance,
)
from hypothesis import given
from hypothesis import strategies as st
from scipy import integrate

import mechdesign as md
from tests.conftest import distributions, kernels

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
    assert md.squared_hellinger(p, q) == pytest.approx(hellinger_divergence(dp, dq, 0.5), rel=1e-9)
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
    assert md.chi_squared_divergence(p, q) == pytest.approx((a - b) ** 2 / (b * (1 - b)), rel=1e-13)
    assert md.total_variation(p, q) == pytest.approx(abs(a - b), rel=1e-14)
    bc = math.sqrt(a * b) + math.sqrt((1 - a) * (1 - b))
    assert md.squared_hellinger(p, q) == pytest.approx(2 - 2 * bc, rel=1e-13)
    assert md.renyi_divergence(p, q, 0.5) == pytest.approx(-2 * math.log(bc), rel=1e-13)
    assert md.renyi_divergence(p, q, math.inf) == pytest.approx(math.log(0.7 / 0.4), rel=1e-14)


def test_zero_handling():
    # P has mass 0.0 where Q has 0.1 (fine) and Q has no zero where P is positive.
    assert math.isfinite(md.kl_divergence(P, Q))
    # Reverse direction: Q puts 0.1 where P is 0 → KL(Q‖P) = +∞, TV finite, H² finite.
    assert md.kl_divergence(Q, P) == math.inf
    assert md.chi_squared_divergence(Q, P) == math.inf
    assert md.total_variation(Q, P) == pytest.approx(0.5 * np.abs(P - Q).sum(), rel=1e-14)
    assert md.squared_hellinger(Q, P) == pytest.approx(
        np.sum((np.sqrt(P) - np.sqrt(Q)) ** 2), rel=1e-14
    )
    # The f'(∞) term: for E_γ, f'(∞) = 1/2.
    gen = md.hockey_stick_generator(0.7)
    assert md.f_divergence(Q, P, gen) == pytest.approx(
        md.hockey_stick_divergence(Q, P, 0.7), rel=1e-12, abs=1e-15
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
    assert md.f_divergence(p, q, md.KL) == pytest.approx(md.kl_divergence(p, q), rel=1e-13)
    assert md.f_divergence(p, q, md.TOTAL_VARIATION) == pytest.approx(
        md.total_variation(p, q), rel=1e-13
    )
    assert md.f_divergence(p, q, md.SQUARED_HELLINGER) == pytest.approx(
        md.squared_hellinger(p, q), rel=1e-12
    )
    # A bare callable works when P ≪ Q.
    assert md.f_divergence(p, q, lambda t: (t - 1) ** 2) == pytest.approx(
        md.chi_squared_divergence(p, q), rel=1e-12
    )


def test_bare_callable_without_absolute_continuity_is_refused():
    with pytest.raises(md.InvalidInputError, match="absolutely continuous"):
        md.f_divergence(Q, P, lambda t: (t - 1) ** 2)
    with pytest.raises(md.InvalidInputError, match="not finite"):
        md.f_divergence(P, Q, lambda t: t * np.log(t))


def test_hockey_stick_at_one_is_total_variation_and_its_positive_part_form():
    rng = np.random.default_rng(4)
    p, q = rng.dirichlet(np.ones(6)), rng.dirichlet(np.ones(6))
    assert md.hockey_stick_divergence(p, q, 1.0) == pytest.approx(md.total_variation(p, q))
    for gamma in (0.3, 1.0, 2.5):
        positive_part = np.maximum(p - gamma * q, 0).sum() - max(1 - gamma, 0)
        assert md.hockey_stick_divergence(p, q, gamma) == pytest.approx(positive_part, abs=1e-15)


# -- the integral representation D_f = ∫ E_γ f''(γ) dγ (f_α paper, eq. 2) -----------------------


@pytest.mark.parametrize(
    ("name", "second_derivative", "direct"),
    [
        ("KL", lambda g: 1 / g, md.kl_divergence),
        ("chi2", lambda g: 2.0, md.chi_squared_divergence),
        ("H2", lambda g: 0.5 * g**-1.5, md.squared_hellinger),
        ("f_3", lambda g: 3 * 2 * g, lambda p, q: md.f_alpha_divergence(p, q, 3.0)),
        ("f_0.5", lambda g: 0.5 * 0.5 * g**-1.5, lambda p, q: md.f_alpha_divergence(p, q, 0.5)),
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
            lambda g: md.hockey_stick_divergence(p, q, g) * second_derivative(g),
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
    d_f = md.f_alpha_divergence(p, q, alpha)
    assert md.renyi_from_f_alpha(d_f, alpha) == pytest.approx(
        md.renyi_divergence(p, q, alpha), rel=1e-10
    )
    assert md.f_alpha_from_renyi(md.renyi_divergence(p, q, alpha), alpha) == pytest.approx(
        d_f, rel=1e-10
    )


def test_printed_transform_is_wrong_below_one():
    """Eq. (1) as printed, log(D_fα + 1)/(α − 1), disagrees with D_α for α < 1."""
    p, q = [0.2, 0.8], [0.6, 0.4]
    alpha = 0.5
    printed = math.log(md.f_alpha_divergence(p, q, alpha) + 1) / (alpha - 1)
    assert printed < 0 < md.renyi_divergence(p, q, alpha)


# -- data processing (hypothesis) ---------------------------------------------------------------


NAMED = {
    "tv": md.total_variation,
    "kl": md.kl_divergence,
    "chi2": md.chi_squared_divergence,
    "h2": md.squared_hellinger,
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
    assert md.hockey_stick_divergence(pk, qk, param) <= (
        md.hockey_stick_divergence(p, q, param) + 1e-12
    )
    assert (
        md.f_alpha_divergence(pk, qk, param)
        <= md.f_alpha_divergence(p, q, param) * (1 + 1e-9) + 1e-12
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
        md.f_alpha_divergence([0.5, 0.5], [0.5, 0.5], alpha)


@pytest.mark.parametrize("gamma", [0.0, -2.0, math.inf])
def test_gamma_must_be_positive_and_finite(gamma):
    with pytest.raises(md.InvalidInputError, match="gamma"):
        md.hockey_stick_divergence([0.5, 0.5], [0.5, 0.5], gamma)


def test_distribution_arguments_are_validated():
    with pytest.raises(md.InvalidInputError, match="q must have length 2"):
        md.kl_divergence([0.5, 0.5], [0.2, 0.3, 0.5])
    with pytest.raises(md.InvalidInputError, match="p must sum to 1"):
        md.total_variation([0.5, 0.6], [0.5, 0.5])
    with pytest.raises(md.InvalidInputError, match="q must be non-negative"):
        md.squared_hellinger([0.5, 0.5], [1.5, -0.5])
    with pytest.raises(md.InvalidInputError, match="p must be finite"):
        md.renyi_divergence([math.nan, 1.0], [0.5, 0.5], 2.0)


def test_transform_rejects_out_of_range_values():
    with pytest.raises(md.InvalidInputError, match=r"\[0, 1\]"):
        md.renyi_from_f_alpha(1.5, 0.5)
    with pytest.raises(md.InvalidInputError, match=">= 0"):
        md.renyi_from_f_alpha(-0.1, 2.0)
    with pytest.raises(md.InvalidInputError, match="finite"):
        md.renyi_from_f_alpha(0.1, math.inf)


def test_f_must_be_a_generator_or_callable():
    with pytest.raises(md.InvalidInputError, match="f must be"):
        md.f_divergence([0.5, 0.5], [0.5, 0.5], "kl")
