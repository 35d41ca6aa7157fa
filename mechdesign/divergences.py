"""f-divergences and Rényi divergences between distributions on a finite set.

Conventions: natural logarithms; ``p`` and ``q`` are probability vectors of one length.
For an f-divergence (Csiszár 1967; Dobrushin paper eq. 7) we use the general form that
does not need ``P ≪ Q``:

.. math::

    D_f(P\\|Q) = \\sum_{y: q_y > 0} q_y f(p_y / q_y) + f'(\\infty) \\, P(q = 0),
    \\qquad f'(\\infty) = \\lim_{t\\to\\infty} f(t)/t,

with ``q_y f(0) := q_y f(0^+)`` on outputs where ``p_y = 0`` and the convention
``0 · ∞ = 0`` when ``P(q = 0) = 0`` (Polyanskiy & Wu, *Information Theory*, Def. 7.1).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.special import logsumexp

from mechdesign._numerics import as_distribution, check_alpha
from mechdesign.errors import InvalidInputError

__all__ = [
    "CHI_SQUARED",
    "KL",
    "SQUARED_HELLINGER",
    "TOTAL_VARIATION",
    "FGenerator",
    "chi_squared_divergence",
    "f_alpha_divergence",
    "f_alpha_from_renyi",
    "f_alpha_generator",
    "f_divergence",
    "hockey_stick_divergence",
    "hockey_stick_generator",
    "kl_divergence",
    "renyi_divergence",
    "renyi_from_f_alpha",
    "squared_hellinger",
    "total_variation",
]


@dataclass(frozen=True)
class FGenerator:
    """A convex generator ``f`` with ``f(1) = 0``, and its two boundary values.

    Attributes
    ----------
    name : str
        For messages and reprs.
    f : callable
        Vectorised ``f(t)`` for ``t > 0``.
    f_at_zero : float
        ``f(0^+) = lim_{t→0+} f(t)`` (may be ``math.inf``).
    slope_at_infinity : float
        ``f'(∞) = lim_{t→∞} f(t)/t`` (may be ``math.inf``); it weighs the mass of ``P``
        where ``Q`` vanishes.
    """

    name: str
    f: Callable[[NDArray[np.float64]], NDArray[np.float64]]
    f_at_zero: float
    slope_at_infinity: float


def _kl_f(t: NDArray[np.float64]) -> NDArray[np.float64]:
    return t * np.log(t)


TOTAL_VARIATION = FGenerator("total variation", lambda t: 0.5 * np.abs(t - 1.0), 0.5, 0.5)
"""TV: ``f(t) = |t − 1| / 2`` (Dobrushin paper, Sec. II-A)."""

KL = FGenerator("KL", _kl_f, 0.0, math.inf)
"""Relative entropy: ``f(t) = t log t``."""

CHI_SQUARED = FGenerator("chi-squared", lambda t: (t - 1.0) ** 2, 1.0, math.inf)
"""χ²: ``f(t) = (t − 1)²``."""

SQUARED_HELLINGER = FGenerator("squared Hellinger", lambda t: (1.0 - np.sqrt(t)) ** 2, 1.0, 1.0)
"""Squared Hellinger: ``f(t) = (1 − √t)²`` (Dobrushin paper, Sec. II-A; no factor 1/2)."""


def hockey_stick_generator(gamma: float) -> FGenerator:
    """``f(t) = |t − γ|/2 − |1 − γ|/2``, the generator of :func:`hockey_stick_divergence`."""
    g = _check_gamma(gamma)
    offset = 0.5 * abs(1.0 - g)
    return FGenerator(f"E_{g:g}", lambda t: 0.5 * np.abs(t - g) - offset, 0.5 * g - offset, 0.5)


def f_alpha_generator(alpha: float) -> FGenerator:
    """The generator of the f_α-divergence (f_α paper, Definition 1).

    .. math::

        f_\\alpha(t) = 1 - t^\\alpha \\ (\\alpha < 1), \\quad t \\log t \\ (\\alpha = 1),
        \\quad t^\\alpha - 1 \\ (\\alpha > 1).
    """
    a = check_alpha(alpha)
    if math.isinf(a):
        raise InvalidInputError("alpha must be finite for the f_alpha-divergence; got inf.")
    if a < 1:
        return FGenerator(f"f_{a:g}", lambda t: 1.0 - t**a, 1.0, 0.0)
    if a == 1:
        return FGenerator("f_1", _kl_f, 0.0, math.inf)
    return FGenerator(f"f_{a:g}", lambda t: t**a - 1.0, -1.0, math.inf)


def f_divergence(
    p: ArrayLike,
    q: ArrayLike,
    f: FGenerator | Callable[[NDArray[np.float64]], NDArray[np.float64]],
) -> float:
    """``D_f(P‖Q)`` for a convex ``f`` with ``f(1) = 0``, handling zeros exactly.

    .. math::

        D_f(P\\|Q) = \\sum_{q_y > 0} q_y f\\!\\left(\\frac{p_y}{q_y}\\right)
                    + f'(\\infty)\\, P(q = 0).

    Parameters
    ----------
    p, q : array_like, shape=(M,)
        Probability vectors.
    f : FGenerator or callable
        The generator. A bare callable is evaluated at ``t = 0`` for ``f(0^+)`` (it must
        give a finite value there, or pass an :class:`FGenerator`), and works only when
        ``P ≪ Q``, since ``f'(∞)`` cannot be read off a callable.

    Returns
    -------
    float
        The divergence in [0, ∞]; ``math.inf`` where the formula gives +∞.
    """
    p_arr = as_distribution(p, "p")
    q_arr = as_distribution(q, "q", p_arr.size)
    if not (isinstance(f, FGenerator) or callable(f)):
        raise InvalidInputError(f"f must be an FGenerator or a callable; got {f!r}.")
    gen = f if isinstance(f, FGenerator) else _generator_from_callable(f)
    support = q_arr > 0
    pos = support & (p_arr > 0)
    zero = support & (p_arr == 0)
    with np.errstate(over="ignore"):
        # A likelihood ratio beyond float range yields +inf, which is the float answer.
        total = float(np.sum(q_arr[pos] * gen.f(p_arr[pos] / q_arr[pos])))
    if np.any(zero):
        total += float(np.sum(q_arr[zero])) * gen.f_at_zero
    escaped = float(np.sum(p_arr[~support]))
    if escaped > 0:
        if math.isnan(gen.slope_at_infinity):
            raise InvalidInputError(
                "p is not absolutely continuous w.r.t. q (p has mass where q = 0); pass f "
                "as an FGenerator with its slope_at_infinity f'(inf)."
            )
        total += escaped * gen.slope_at_infinity
    return total


def _generator_from_callable(f: Callable) -> FGenerator:
    with np.errstate(all="ignore"):
        f0 = float(np.asarray(f(np.array([0.0])))[0])
    if not math.isfinite(f0):
        raise InvalidInputError(
            f"f(0) = {f0!r} is not finite; pass f as an FGenerator with f_at_zero set."
        )
    return FGenerator(getattr(f, "__name__", "f"), f, f0, math.nan)


def total_variation(p: ArrayLike, q: ArrayLike) -> float:
    """``TV(P‖Q) = ½ Σ_y |p_y − q_y|``."""
    p_arr = as_distribution(p, "p")
    q_arr = as_distribution(q, "q", p_arr.size)
    return 0.5 * float(np.abs(p_arr - q_arr).sum())


def kl_divergence(p: ArrayLike, q: ArrayLike) -> float:
    """Relative entropy ``D(P‖Q) = Σ p_y log(p_y / q_y)`` in nats; +∞ unless ``P ≪ Q``.

    Summed as ``p_y (log p_y − log q_y)``, which stays finite where the generic
    ``q_y f(p_y/q_y)`` would overflow (``q_y`` near the smallest float).
    """
    p_arr = as_distribution(p, "p")
    q_arr = as_distribution(q, "q", p_arr.size)
    on_p = p_arr > 0
    if np.any(q_arr[on_p] == 0):
        return math.inf
    return max(float(np.sum(p_arr[on_p] * (np.log(p_arr[on_p]) - np.log(q_arr[on_p])))), 0.0)


def chi_squared_divergence(p: ArrayLike, q: ArrayLike) -> float:
    """``χ²(P‖Q) = Σ (p_y − q_y)² / q_y``; +∞ unless ``P ≪ Q``."""
    return f_divergence(p, q, CHI_SQUARED)


def squared_hellinger(p: ArrayLike, q: ArrayLike) -> float:
    """``H²(P‖Q) = Σ (√p_y − √q_y)²``, the f-divergence of ``(1 − √t)²``.

    This is the Dobrushin paper's convention (Sec. II-A, used in Corollary 2); it is
    twice the squared Hellinger distance with the ½ normalisation. Range [0, 2].
    """
    p_arr = as_distribution(p, "p")
    q_arr = as_distribution(q, "q", p_arr.size)
    return float(np.sum((np.sqrt(p_arr) - np.sqrt(q_arr)) ** 2))


def hockey_stick_divergence(p: ArrayLike, q: ArrayLike, gamma: float) -> float:
    """The E_γ (hockey-stick) divergence, f_α paper Definition 2.

    .. math::

        E_\\gamma(P\\|Q) = \\tfrac12 \\sum_y |p_y - \\gamma q_y| - \\tfrac12 |\\gamma - 1|,
        \\qquad \\gamma > 0,

    which equals ``Σ_y (p_y − γ q_y)⁺ − (1 − γ)⁺``; ``E_1 = TV``.
    """
    g = _check_gamma(gamma)
    p_arr = as_distribution(p, "p")
    q_arr = as_distribution(q, "q", p_arr.size)
    return 0.5 * float(np.abs(p_arr - g * q_arr).sum()) - 0.5 * abs(g - 1.0)


def f_alpha_divergence(p: ArrayLike, q: ArrayLike, alpha: float) -> float:
    """The f_α-divergence ``D_{f_α}(P‖Q)`` of f_α paper Definition 1 (see
    :func:`f_alpha_generator`). For ``α ≥ 1`` it is +∞ unless ``P ≪ Q``."""
    return f_divergence(p, q, f_alpha_generator(alpha))


def renyi_divergence(p: ArrayLike, q: ArrayLike, alpha: float) -> float:
    """Rényi divergence ``D_α(P‖Q)`` in nats, for ``α ∈ (0, ∞]``.

    .. math::

        D_\\alpha(P\\|Q) = \\frac{1}{\\alpha - 1} \\log \\sum_y p_y^\\alpha q_y^{1-\\alpha},

    with the limits ``D_1 = D`` (relative entropy) and
    ``D_∞ = log max_{p_y > 0} p_y / q_y``. For ``α ≥ 1`` it is +∞ unless ``P ≪ Q``; for
    ``α < 1`` it is +∞ only when ``P`` and ``Q`` have disjoint supports.

    Evaluated by log-sum-exp of ``log p_y + (α−1) log(p_y/q_y)`` (no overflow for large
    α), and near ``α = 1`` as ``log1p(Σ_y p_y expm1((α−1) log(p_y/q_y)))/(α − 1)``, which
    keeps its relative accuracy as ``α → 1``.
    """
    a = check_alpha(alpha)
    p_arr = as_distribution(p, "p")
    q_arr = as_distribution(q, "q", p_arr.size)
    if a == 1:
        return kl_divergence(p_arr, q_arr)
    if math.isinf(a):
        on_p = p_arr > 0
        if np.any(q_arr[on_p] == 0):
            return math.inf
        return float(np.log(np.max(p_arr[on_p] / q_arr[on_p])))
    return float(_renyi_divergence_rows(p_arr, q_arr[None, :], a)[0])


def _renyi_divergence_rows(
    p: NDArray[np.float64], q: NDArray[np.float64], a: float
) -> NDArray[np.float64]:
    """``D_α(p ‖ q_j)`` for every row ``q_j`` of ``q``, for finite ``α > 0``; inputs are
    trusted (validated by the callers). The one implementation behind
    :func:`renyi_divergence` and :func:`~mechdesign.leakage.renyi_ldp_level`."""
    on_p = p > 0
    log_p = np.zeros_like(p)
    log_p[on_p] = np.log(p[on_p])
    q_on = q[:, on_p]
    escapes = q_on == 0  # p > 0 = q
    if a == 1:
        with np.errstate(divide="ignore"):
            terms = p[on_p] * (log_p[on_p] - np.log(q_on))
        return np.where(escapes.any(axis=1), math.inf, np.maximum(terms.sum(axis=1), 0.0))
    both = ~escapes
    with np.errstate(divide="ignore", invalid="ignore"):
        exponent = np.where(both, (a - 1.0) * (log_p[on_p] - np.log(q_on)), -math.inf)
        weights = np.where(both, p[on_p], 0.0)
        far = np.max(np.where(both, np.abs(exponent), 0.0), axis=1) > 1.0
        log_sum = logsumexp(np.where(both, exponent, 0.0), b=weights, axis=1)
        near_sum = np.sum(weights * np.expm1(np.where(both, exponent, 0.0)), axis=1)
        near_sum -= np.sum(np.where(escapes, p[on_p], 0.0), axis=1)
        near = np.where(near_sum <= -1.0, -math.inf, np.log1p(np.maximum(near_sum, -1.0)))
    value = np.where(far, log_sum, near) / (a - 1.0)
    value = np.where(both.any(axis=1), value, math.inf)  # disjoint supports
    if a > 1:
        value = np.where(escapes.any(axis=1), math.inf, value)
    return np.maximum(value, 0.0)


def renyi_from_f_alpha(value: float, alpha: float) -> float:
    """Rényi divergence from the f_α-divergence: the transform of f_α paper eq. (1).

    .. math::

        D_\\alpha = \\frac{1}{\\alpha-1}\\log\\bigl(1 + D_{f_\\alpha}\\bigr) \\ (\\alpha > 1),
        \\qquad
        D_\\alpha = \\frac{1}{\\alpha-1}\\log\\bigl(1 - D_{f_\\alpha}\\bigr) \\ (\\alpha < 1),
        \\qquad D_1 = D_{f_1}.

    Eq. (1) is printed as ``log(D_{f_α} + 1)`` for every α; with Definition 1's
    ``f_α = 1 − t^α`` for ``α < 1``, ``D_{f_α} = 1 − Σ p^α q^{1−α}``, so the sign flips
    there. The form above is the correct one (checked against :func:`renyi_divergence`
    in the tests).
    """
    a = check_alpha(alpha)
    if math.isinf(a):
        raise InvalidInputError("alpha must be finite for the f_alpha transform; got inf.")
    v = float(value)
    if math.isnan(v):
        raise InvalidInputError(f"value must be a number; got {value!r}.")
    if a == 1:
        return v
    if a > 1:
        if v < 0:
            raise InvalidInputError(f"value must be >= 0 for alpha > 1; got {value!r}.")
        return math.inf if math.isinf(v) else math.log1p(v) / (a - 1.0)
    if not 0 <= v <= 1:
        raise InvalidInputError(f"value must be in [0, 1] for alpha < 1; got {value!r}.")
    return math.inf if v == 1 else math.log1p(-v) / (a - 1.0)


def f_alpha_from_renyi(value: float, alpha: float) -> float:
    """Inverse of :func:`renyi_from_f_alpha`: ``D_{f_α}`` from ``D_α``."""
    a = check_alpha(alpha)
    if math.isinf(a):
        raise InvalidInputError("alpha must be finite for the f_alpha transform; got inf.")
    d = float(value)
    if math.isnan(d) or d < 0:
        raise InvalidInputError(f"value must be a Rényi divergence >= 0; got {value!r}.")
    if a == 1:
        return d
    if a > 1:
        return math.inf if math.isinf(d) else math.expm1((a - 1.0) * d)
    return 1.0 if math.isinf(d) else -math.expm1((a - 1.0) * d)


def _check_gamma(gamma: float) -> float:
    try:
        g = float(gamma)
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(f"gamma must be a real number > 0; got {gamma!r}.") from exc
    if not (g > 0 and math.isfinite(g)):
        raise InvalidInputError(f"gamma must be finite and > 0; got {gamma!r}.")
    return g
