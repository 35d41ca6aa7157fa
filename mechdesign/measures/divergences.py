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
from dataclasses import dataclass, field
from numbers import Real

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.optimize import minimize_scalar
from scipy.special import logsumexp, xlog1py

from mechdesign._tolerances import (
    GENERATOR_AT_ONE_ATOL,
    JOINT_RANGE_XATOL,
)
from mechdesign._validation import (
    LOG_FLOAT_MAX,
    as_distribution,
    as_real,
    check_alpha,
    check_real_dtype,
    show,
)
from mechdesign.errors import InvalidInputError, SolverError
from mechdesign.status import Status

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
    "f_alpha_tv_lower_boundary",
    "f_divergence",
    "hockey_stick_divergence",
    "hockey_stick_generator",
    "kl_divergence",
    "pinsker_f_alpha",
    "pinsker_f_alpha_inverse",
    "renyi_divergence",
    "renyi_from_f_alpha",
    "reverse_pinsker",
    "reverse_pinsker_f_alpha",
    "squared_hellinger",
    "total_variation",
]

# -- algorithm knobs --------------------------------------------------------------------

#: Below this ``|x|`` the power series of the excess functions ``e^x − 1 − x`` and
#: ``(1 + x) log(1 + x) − x`` are summed instead of their closed forms, which cancel there;
#: ``SERIES_TERMS`` terms of either series then reach far below double precision.
SERIES_RADIUS = 0.25
SERIES_TERMS = 30


#: ``(p, q) ↦ q f(p/q)`` of an :class:`FGenerator`.
_Perspective = Callable[[NDArray[np.float64], NDArray[np.float64]], NDArray[np.float64]]


def _check_callable(f: object, name: str) -> None:
    """A function (not a class, which is callable too, nor a non-callable object)."""
    if isinstance(f, type) or not callable(f):
        raise InvalidInputError(
            f"{name} must be a function of one argument t (an array of likelihood ratios); "
            f"got {show(f)}."
        )


def _apply_generator(
    f: Callable[[NDArray[np.float64]], NDArray[np.float64]],
    t: NDArray[np.float64],
    name: str = "f",
    *,
    allow_nan: bool = False,
) -> NDArray[np.float64]:
    """``f(t)`` for a 1-D array ``t``, as real numbers of ``t``'s shape, or raise naming
    ``name``: a function that cannot be called with one array, or returns anything but
    real numbers (NaN included) of that shape, is not a generator."""
    try:
        with np.errstate(all="ignore"):
            raw = f(t)
    except Exception as exc:  # the caller's function: any failure is a bad argument
        raise InvalidInputError(
            f"{name} must be a function of one argument t (an array of likelihood ratios); "
            f"calling it at t = {show(t)} raised {type(exc).__name__}: {exc}"
        ) from exc
    check_real_dtype(raw, f"{name}(t)")
    try:
        values = np.broadcast_to(np.asarray(raw, dtype=float), t.shape)
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(
            f"{name} must return one real number per entry of t; at t = {show(t)} it "
            f"returned {show(raw)}."
        ) from exc
    if not allow_nan and np.any(np.isnan(values)):
        i = int(np.argmax(np.isnan(values)))
        raise InvalidInputError(
            f"{name} must return real numbers, not NaN; {name}(t) is nan at t = {show(t[i])}."
        )
    return values


def _check_vanishes_at_one(
    f: Callable[[NDArray[np.float64]], NDArray[np.float64]], name: str
) -> None:
    """``f(1)`` is a real number within GENERATOR_AT_ONE_ATOL of 0, or raise naming
    ``name``: an f-divergence needs ``f(1) = 0`` (``D_f(P‖P) = f(1)``), and a generator
    that is infinite, NaN or not real at 1 is no generator at all."""
    value = float(_apply_generator(f, np.array([1.0]), name, allow_nan=True)[0])
    if not math.isfinite(value):
        raise InvalidInputError(
            f"{name} must be finite at 1 (a convex generator with {name}(1) = 0); "
            f"{name}(1) = {show(value)}."
        )
    if abs(value) > GENERATOR_AT_ONE_ATOL:
        raise InvalidInputError(
            f"{name} must satisfy {name}(1) = 0 (within {GENERATOR_AT_ONE_ATOL:g}), so that "
            f"D_f(P||P) = 0; got {name}(1) = {show(value)}. Subtract {show(value)} from "
            f"{name} (D_f then shifts by exactly that constant)."
        )


@dataclass(frozen=True)
class FGenerator:
    """A convex generator ``f`` with ``f(1) = 0``, and its two boundary values.

    ``f(1) = 0`` is checked on construction (within
    :data:`~mechdesign._tolerances.GENERATOR_AT_ONE_ATOL`); convexity is the caller's
    promise (it cannot be verified from samples of ``f``).

    Parameters
    ----------
    name : str
        For messages and reprs.
    f : callable
        Vectorised ``f(t)`` for ``t > 0``: called with a 1-D float array ``t``, shape
        (K,), it returns real numbers of the same shape (NaN is refused). It must be a
        function, not a class.
    f_at_zero : float
        ``f(0^+) = lim_{t→0+} f(t)``: a real number or ``math.inf`` (not ``−∞`` or NaN).
    slope_at_infinity : float
        ``f'(∞) = lim_{t→∞} f(t)/t``: a real number or ``math.inf`` (not ``−∞`` or NaN);
        it weighs the mass of ``P`` where ``Q`` vanishes.
    perspective : callable or None
        Optional ``(p, q) ↦ q f(p/q)`` for arrays ``p, q > 0``, evaluated without forming
        ``p/q``: :func:`f_divergence` uses it where ``p/q`` overflows (``q`` near the
        smallest float), and otherwise the limit ``p f'(∞)``. The package's generators
        have one.
    """

    name: str
    f: Callable[[NDArray[np.float64]], NDArray[np.float64]]
    f_at_zero: float
    slope_at_infinity: float
    perspective: _Perspective | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Validated once here, so every function taking an FGenerator can trust it. A
        # convex f is bounded below near 0 and f(t)/t by f'(1) near ∞, so neither boundary
        # value can be −∞ (or NaN); +∞ is allowed (KL's f'(∞), f_α's f(0⁺) for α < 1 …).
        _check_callable(self.f, "f")
        if self.perspective is not None:
            _check_callable(self.perspective, "perspective")
        for name in ("f_at_zero", "slope_at_infinity"):
            value = as_real(getattr(self, name), name)
            if math.isnan(value) or value == -math.inf:
                raise InvalidInputError(
                    f"{name} must be a real number or +inf (a limit of a convex f); got "
                    f"{show(getattr(self, name))}."
                )
            object.__setattr__(self, name, value)
        # Last, so that a bad boundary value is named even beside an f that fails here.
        _check_vanishes_at_one(self.f, "f")


def _kl_f(t: NDArray[np.float64]) -> NDArray[np.float64]:
    return t * np.log(t)


def _kl_perspective(p: NDArray[np.float64], q: NDArray[np.float64]) -> NDArray[np.float64]:
    return p * (np.log(p) - np.log(q))


def _chi_squared_perspective(
    p: NDArray[np.float64], q: NDArray[np.float64]
) -> NDArray[np.float64]:
    with np.errstate(over="ignore"):
        return (p - q) ** 2 / q


TOTAL_VARIATION = FGenerator(
    "total variation", lambda t: 0.5 * np.abs(t - 1.0), 0.5, 0.5,
    perspective=lambda p, q: 0.5 * np.abs(p - q),
)
"""TV: ``f(t) = |t − 1| / 2`` (Dobrushin paper, Sec. II-A)."""

KL = FGenerator("KL", _kl_f, 0.0, math.inf, perspective=_kl_perspective)
"""Relative entropy: ``f(t) = t log t``."""

CHI_SQUARED = FGenerator(
    "chi-squared", lambda t: (t - 1.0) ** 2, 1.0, math.inf, perspective=_chi_squared_perspective
)
"""χ²: ``f(t) = (t − 1)²``."""

SQUARED_HELLINGER = FGenerator(
    "squared Hellinger", lambda t: (1.0 - np.sqrt(t)) ** 2, 1.0, 1.0,
    perspective=lambda p, q: (np.sqrt(p) - np.sqrt(q)) ** 2,
)
"""Squared Hellinger: ``f(t) = (1 − √t)²`` (Dobrushin paper, Sec. II-A; no factor 1/2)."""


def hockey_stick_generator(gamma: float) -> FGenerator:
    """``f(t) = |t − γ|/2 − |1 − γ|/2``, the generator of :func:`hockey_stick_divergence`.

    Evaluated without cancellation (a huge γ would otherwise swamp ``t``): for ``γ ≥ 1``
    it is ``(1 − t)/2 + (t − γ)⁺``, for ``γ < 1`` it is ``(t − 1)/2 + (γ − t)⁺``.

    Parameters
    ----------
    gamma : float
        γ, finite and ``> 0`` (``γ = e^ε`` for the privacy profile at ε).

    Returns
    -------
    FGenerator
        The generator, with its perspective.
    """
    g = _check_gamma(gamma)
    if g >= 1:
        return FGenerator(
            f"E_{g:g}", lambda t: 0.5 * (1.0 - t) + np.maximum(t - g, 0.0), 0.5, 0.5,
            perspective=lambda p, q: 0.5 * (q - p) + np.maximum(p - g * q, 0.0),
        )
    return FGenerator(
        f"E_{g:g}", lambda t: 0.5 * (t - 1.0) + np.maximum(g - t, 0.0), g - 0.5, 0.5,
        perspective=lambda p, q: 0.5 * (p - q) + np.maximum(g * q - p, 0.0),
    )


def f_alpha_generator(alpha: float) -> FGenerator:
    """The generator of the f_α-divergence (f_α paper [1]_, Definition 1).

    .. math::

        f_\\alpha(t) = 1 - t^\\alpha \\ (\\alpha < 1), \\quad t \\log t \\ (\\alpha = 1),
        \\quad t^\\alpha - 1 \\ (\\alpha > 1).

    Parameters
    ----------
    alpha : float
        The order, ``α > 0`` and finite (``math.inf`` is refused).

    Returns
    -------
    FGenerator
        ``f_α``, with its boundary values and perspective.

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Bounds on the Privacy
       Amplification of Arbitrary Channels via the Contraction of f_α-Divergence", Allerton
       Conference 2025, arXiv:2501.11473.
    """
    a = check_alpha(alpha)
    if math.isinf(a):
        raise InvalidInputError("alpha must be finite for the f_alpha-divergence; got inf.")
    def power(p: NDArray[np.float64], q: NDArray[np.float64]) -> NDArray[np.float64]:
        # q (p/q)^α = p^α q^(1−α), in logs (either factor alone may overflow).
        with np.errstate(over="ignore"):
            return np.exp(a * np.log(p) + (1.0 - a) * np.log(q))

    if a < 1:
        return FGenerator(f"f_{a:g}", lambda t: 1.0 - t**a, 1.0, 0.0,
                          perspective=lambda p, q: q - power(p, q))
    if a == 1:
        return FGenerator("f_1", _kl_f, 0.0, math.inf, perspective=_kl_perspective)
    return FGenerator(f"f_{a:g}", lambda t: t**a - 1.0, -1.0, math.inf,
                      perspective=lambda p, q: power(p, q) - q)


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
    p, q : array_like, shape (M,)
        Probability vectors of one length M: non-negative, each summing to 1 within
        ``STOCHASTIC_ATOL`` (never renormalised).
    f : FGenerator or callable
        The generator; a bare callable is called with a 1-D float array of likelihood
        ratios ``t``, shape (K,), and must return real numbers of that shape. A bare
        callable is evaluated at ``t = 0`` for ``f(0^+)`` where
        some ``p_y = 0 < q_y`` (it must give a finite value there, or pass an
        :class:`FGenerator`), and works only when ``P ≪ Q``, since ``f'(∞)`` cannot be
        read off a callable. Either must have
        ``f(1) = 0`` (within ``GENERATOR_AT_ONE_ATOL`` of :mod:`mechdesign._tolerances`);
        convexity is the caller's promise.

    Returns
    -------
    float
        The divergence in [0, ∞]; ``math.inf`` where the formula gives +∞.

    Raises
    ------
    InvalidInputError
        If ``f`` is not an FGenerator or a function, or ``f(1)`` is not a real number
        within the tolerance of 0 (a shifted generator ``f + b`` would add ``b`` to every
        divergence, so ``D_f(P‖P) ≠ 0``), or it is called outside the cases above.
    """
    p_arr = as_distribution(p, "p")
    q_arr = as_distribution(q, "q", p_arr.size)
    _check_generator(f)
    f_values = f.f if isinstance(f, FGenerator) else f
    support = q_arr > 0
    pos = support & (p_arr > 0)
    zero = support & (p_arr == 0)
    total = 0.0
    if np.any(pos):
        with np.errstate(over="ignore"):
            ratio = p_arr[pos] / q_arr[pos]
        finite = np.isfinite(ratio)
        total = float(np.sum(q_arr[pos][finite] * _apply_generator(f_values, ratio[finite])))
        if not np.all(finite):
            # p/q beyond the float range (q near the smallest float): q f(p/q) from the
            # generator's perspective, else its limit p f'(∞) (a bare callable: f(+inf)).
            p_far, q_far = p_arr[pos][~finite], q_arr[pos][~finite]
            if isinstance(f, FGenerator) and f.perspective is not None:
                far = _apply_perspective(f.perspective, p_far, q_far)
            elif isinstance(f, FGenerator):
                far = p_far * f.slope_at_infinity
            else:
                far = q_far * _apply_generator(f_values, np.full(p_far.size, math.inf))
            total += float(np.sum(far))
    if np.any(zero):
        # Read only here: a bare callable need be finite at 0 (t log t gives NaN there)
        # only when some p_y = 0 < q_y.
        total += float(np.sum(q_arr[zero])) * _f_at_zero(f)
    escaped = float(np.sum(p_arr[~support]))
    if escaped > 0:
        if not isinstance(f, FGenerator):
            raise InvalidInputError(
                "p is not absolutely continuous w.r.t. q (p has mass where q = 0); pass f "
                "as an FGenerator with its slope_at_infinity f'(inf)."
            )
        total += escaped * f.slope_at_infinity
    if math.isnan(total):  # +inf − inf: f is not convex (a convex f is bounded below)
        raise InvalidInputError(
            f"f must be convex with f(1) = 0; D_f came out as +inf - inf for {show(f)}."
        )
    return total


def _check_generator(f: object, name: str = "f") -> None:
    """An :class:`FGenerator` (validated on construction) or a bare function with
    ``f(1) = 0``: the one check of a generator argument, for every public function that
    takes one (:func:`f_divergence`, :func:`reverse_pinsker`, and through it
    ``pml_sdpi_bound``)."""
    if isinstance(f, FGenerator):
        return  # __post_init__ ran _check_vanishes_at_one
    if isinstance(f, type) or not callable(f):
        raise InvalidInputError(f"{name} must be an FGenerator or a callable; got {show(f)}.")
    _check_vanishes_at_one(f, name)


def _apply_perspective(
    perspective: Callable, p: NDArray[np.float64], q: NDArray[np.float64]
) -> NDArray[np.float64]:
    """An FGenerator's ``perspective(p, q)``, checked like :func:`_apply_generator`."""
    try:
        with np.errstate(all="ignore"):
            raw = perspective(p, q)
        values = np.broadcast_to(np.asarray(raw, dtype=float), p.shape)
    except Exception as exc:  # the caller's function: any failure is a bad argument
        raise InvalidInputError(
            f"f.perspective must be a function (p, q) -> q f(p/q) of two arrays; calling it "
            f"raised {type(exc).__name__}: {exc}"
        ) from exc
    if np.any(np.isnan(values)):
        raise InvalidInputError("f.perspective must return real numbers; it returned nan.")
    return values


def _f_at_zero(f: FGenerator | Callable) -> float:
    """``f(0⁺)``: the FGenerator's, or a bare callable evaluated at 0 (must be finite)."""
    if isinstance(f, FGenerator):
        return f.f_at_zero
    f0 = float(_apply_generator(f, np.array([0.0]), allow_nan=True)[0])
    if not math.isfinite(f0):
        raise InvalidInputError(
            f"f(0) = {show(f0)} is not finite; pass f as an FGenerator with f_at_zero set."
        )
    return f0


def total_variation(p: ArrayLike, q: ArrayLike) -> float:
    """``TV(P‖Q) = ½ Σ_y |p_y − q_y|``, in [0, 1].

    The sum can exceed 1 by rounding alone (disjoint supports gave 1.0000000000000002,
    which functions of a TV distance rightly refuse); the value is capped at 1, the
    bound every pair of distributions meets.

    Parameters
    ----------
    p, q : array_like, shape (M,)
        Probability vectors of one length M: non-negative, each summing to 1 within
        ``STOCHASTIC_ATOL`` (never renormalised).

    Returns
    -------
    float
        ``TV(P‖Q)`` in [0, 1].
    """
    p_arr = as_distribution(p, "p")
    q_arr = as_distribution(q, "q", p_arr.size)
    return min(0.5 * float(np.abs(p_arr - q_arr).sum()), 1.0)


def kl_divergence(p: ArrayLike, q: ArrayLike) -> float:
    """Relative entropy ``D(P‖Q) = Σ p_y log(p_y / q_y)`` in nats; +∞ unless ``P ≪ Q``.

    Summed as ``p_y (log p_y − log q_y)``, which stays finite where the generic
    ``q_y f(p_y/q_y)`` would overflow (``q_y`` near the smallest float).

    Parameters
    ----------
    p, q : array_like, shape (M,)
        Probability vectors of one length M: non-negative, each summing to 1 within
        ``STOCHASTIC_ATOL`` (never renormalised).

    Returns
    -------
    float
        ``D(P‖Q)`` in nats, in [0, ∞].
    """
    p_arr = as_distribution(p, "p")
    q_arr = as_distribution(q, "q", p_arr.size)
    on_p = p_arr > 0
    if np.any(q_arr[on_p] == 0):
        return math.inf
    return max(float(np.sum(p_arr[on_p] * (np.log(p_arr[on_p]) - np.log(q_arr[on_p])))), 0.0)


def chi_squared_divergence(p: ArrayLike, q: ArrayLike) -> float:
    """``χ²(P‖Q) = Σ (p_y − q_y)² / q_y``; +∞ unless ``P ≪ Q``.

    Parameters
    ----------
    p, q : array_like, shape (M,)
        Probability vectors of one length M: non-negative, each summing to 1 within
        ``STOCHASTIC_ATOL`` (never renormalised).

    Returns
    -------
    float
        ``χ²(P‖Q)`` in [0, ∞].
    """
    return f_divergence(p, q, CHI_SQUARED)


def squared_hellinger(p: ArrayLike, q: ArrayLike) -> float:
    """``H²(P‖Q) = Σ (√p_y − √q_y)²``, the f-divergence of ``(1 − √t)²``.

    This is the Dobrushin paper's [1]_ convention (Sec. II-A, used in Corollary 2); it is
    twice the squared Hellinger distance with the ½ normalisation. Range [0, 2].

    Parameters
    ----------
    p, q : array_like, shape (M,)
        Probability vectors of one length M: non-negative, each summing to 1 within
        ``STOCHASTIC_ATOL`` (never renormalised).

    Returns
    -------
    float
        ``H²(P‖Q)`` in [0, 2].

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Dobrushin Coefficients of Private
       Mechanisms Beyond Local Differential Privacy", 2026, arXiv:2601.09498.
    """
    p_arr = as_distribution(p, "p")
    q_arr = as_distribution(q, "q", p_arr.size)
    return float(np.sum((np.sqrt(p_arr) - np.sqrt(q_arr)) ** 2))


def hockey_stick_divergence(p: ArrayLike, q: ArrayLike, gamma: float) -> float:
    """The E_γ (hockey-stick) divergence, f_α paper [1]_ Definition 2.

    .. math::

        E_\\gamma(P\\|Q) = \\tfrac12 \\sum_y |p_y - \\gamma q_y| - \\tfrac12 |\\gamma - 1|,
        \\qquad \\gamma > 0,

    which equals ``Σ_y (p_y − γ q_y)⁺ − (1 − γ)⁺``; ``E_1 = TV``.

    Parameters
    ----------
    p, q : array_like, shape (M,)
        Probability vectors of one length M: non-negative, each summing to 1 within
        ``STOCHASTIC_ATOL`` (never renormalised).
    gamma : float
        γ, finite and ``> 0`` (``γ = e^ε``, not ε, for the privacy profile at ε).

    Returns
    -------
    float
        ``E_γ(P‖Q) ≥ 0``.

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Bounds on the Privacy
       Amplification of Arbitrary Channels via the Contraction of f_α-Divergence", Allerton
       Conference 2025, arXiv:2501.11473.
    """
    g = _check_gamma(gamma)
    p_arr = as_distribution(p, "p")
    q_arr = as_distribution(q, "q", p_arr.size)
    # Σ(p − γq)⁺ − Σ(γq − p)⁺ = 1 − γ, so E_γ = Σ(p − γq)⁺ for γ ≥ 1 and Σ(γq − p)⁺ for
    # γ < 1: a sum of non-negative terms, with no cancellation against |γ − 1| (which
    # lost every digit for a large γ).
    if g >= 1:
        return float(np.maximum(p_arr - g * q_arr, 0.0).sum())
    return float(np.maximum(g * q_arr - p_arr, 0.0).sum())


def f_alpha_divergence(p: ArrayLike, q: ArrayLike, alpha: float) -> float:
    """The f_α-divergence ``D_{f_α}(P‖Q)`` of f_α paper [1]_ Definition 1 (see
    :func:`f_alpha_generator`). For ``α ≥ 1`` it is +∞ unless ``P ≪ Q``.

    ``f_α`` is convex with ``f_α(1) = 0``, so the divergence is ``≥ 0`` (Jensen); a
    rounding below zero (``P = Q = (0.5, 0.5)`` at ``α = 2`` summed to ``−2.2e-16``,
    which the inverse bounds then refused) is returned as 0.

    Parameters
    ----------
    p, q : array_like, shape (M,)
        Probability vectors of one length M: non-negative, each summing to 1 within
        ``STOCHASTIC_ATOL`` (never renormalised).
    alpha : float
        The order, ``α > 0`` and finite (``math.inf`` is refused).

    Returns
    -------
    float
        ``D_{f_α}(P‖Q)`` in [0, ∞].

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Bounds on the Privacy
       Amplification of Arbitrary Channels via the Contraction of f_α-Divergence", Allerton
       Conference 2025, arXiv:2501.11473.
    """
    return max(0.0, f_divergence(p, q, f_alpha_generator(alpha)))


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

    Parameters
    ----------
    p, q : array_like, shape (M,)
        Probability vectors of one length M: non-negative, each summing to 1 within
        ``STOCHASTIC_ATOL`` (never renormalised).
    alpha : float
        The order, ``α > 0``; ``math.inf`` allowed.

    Returns
    -------
    float
        ``D_α(P‖Q)`` in nats, in [0, ∞].
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
    return float(renyi_divergence_rows(p_arr, q_arr[None, :], a)[0])


def renyi_divergence_rows(
    p: NDArray[np.float64], q: NDArray[np.float64], a: float
) -> NDArray[np.float64]:
    """``D_α(p ‖ q_j)`` for every row ``q_j`` of ``q``, for finite ``α > 0``; inputs are
    trusted (validated by the callers). The one implementation behind
    :func:`renyi_divergence` and :func:`~mechdesign.measures.leakage.renyi_ldp_level`."""
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
    # The near-α=1 branch is evaluated everywhere but used only where |exponent| ≤ 1, so
    # its overflow elsewhere (large α) is harmless.
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
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
    """Rényi divergence from the f_α-divergence: the transform of f_α paper [1]_ eq. (1).

    .. math::

        D_\\alpha = \\frac{1}{\\alpha-1}\\log\\bigl(1 + D_{f_\\alpha}\\bigr) \\ (\\alpha > 1),
        \\qquad
        D_\\alpha = \\frac{1}{\\alpha-1}\\log\\bigl(1 - D_{f_\\alpha}\\bigr) \\ (\\alpha < 1),
        \\qquad D_1 = D_{f_1}.

    Eq. (1) is printed as ``log(D_{f_α} + 1)`` for every α; with Definition 1's
    ``f_α = 1 − t^α`` for ``α < 1``, ``D_{f_α} = 1 − Σ p^α q^{1−α}``, so the sign flips
    there. The form above is the correct one (checked against :func:`renyi_divergence`
    in the tests).

    Parameters
    ----------
    value : float
        ``D_{f_α}``: a real number, ``≥ 0`` for ``α ≥ 1`` (``math.inf`` allowed; at
        ``α = 1`` it is the KL divergence, returned as given) and in [0, 1] for ``α < 1``;
        NaN is refused.
    alpha : float
        The order, ``α > 0`` and finite (``math.inf`` is refused).

    Returns
    -------
    float
        ``D_α`` in nats, in [0, ∞].

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Bounds on the Privacy
       Amplification of Arbitrary Channels via the Contraction of f_α-Divergence", Allerton
       Conference 2025, arXiv:2501.11473.
    """
    a = check_alpha(alpha)
    if math.isinf(a):
        raise InvalidInputError("alpha must be finite for the f_alpha transform; got inf.")
    v = as_real(value, "value")
    if math.isnan(v):
        raise InvalidInputError(f"value must be a number; got {show(value)}.")
    if a >= 1:
        if v < 0:
            raise InvalidInputError(f"value must be >= 0 for alpha >= 1; got {show(value)}.")
        if a == 1:
            return v  # D_1 = D_{f_1}: the KL divergence itself
        return math.inf if math.isinf(v) else math.log1p(v) / (a - 1.0)
    if not 0 <= v <= 1:
        raise InvalidInputError(f"value must be in [0, 1] for alpha < 1; got {show(value)}.")
    return math.inf if v == 1 else math.log1p(-v) / (a - 1.0)


def f_alpha_from_renyi(value: float, alpha: float) -> float:
    """Inverse of :func:`renyi_from_f_alpha`: ``D_{f_α}`` from ``D_α``.

    Parameters
    ----------
    value : float
        ``D_α`` in nats, ``≥ 0``; ``math.inf`` allowed (NaN is refused).
    alpha : float
        The order, ``α > 0`` and finite (``math.inf`` is refused).

    Returns
    -------
    float
        ``D_{f_α}``: in [0, ∞] for ``α ≥ 1``, in [0, 1] for ``α < 1``.
    """
    a = check_alpha(alpha)
    if math.isinf(a):
        raise InvalidInputError("alpha must be finite for the f_alpha transform; got inf.")
    d = as_real(value, "value")
    if math.isnan(d) or d < 0:
        raise InvalidInputError(f"value must be a Rényi divergence >= 0; got {show(value)}.")
    if a == 1:
        return d
    if a > 1:
        exponent = (a - 1.0) * d
        # e^709.78 is the largest finite double: beyond it the f_α divergence is +inf.
        return math.inf if exponent > LOG_FLOAT_MAX else math.expm1(exponent)
    return 1.0 if math.isinf(d) else -math.expm1((a - 1.0) * d)


def _check_gamma(gamma: float) -> float:
    g = as_real(gamma, "gamma")
    if not (g > 0 and math.isfinite(g)):
        raise InvalidInputError(f"gamma must be finite and > 0; got {show(gamma)}.")
    return g


# -- Pinsker-type inequalities between TV and f-divergences (f_α paper, Section IV) ------------


def reverse_pinsker(
    u: float,
    v: float,
    f: FGenerator | Callable[[NDArray[np.float64]], NDArray[np.float64]],
) -> float:
    """Binette's reverse-Pinsker constant: ``D_f(P‖Q) ≤ TV(P‖Q) · reverse_pinsker(u, v, f)``
    whenever every likelihood ratio ``P(x)/Q(x)`` lies in ``[v, u]``.

    .. math::

        D_f(P\\|Q) \\le \\mathrm{TV}(P\\|Q)
        \\left(\\frac{f(v)}{1 - v} + \\frac{f(u)}{u - 1}\\right),
        \\qquad v \\le \\frac{P(x)}{Q(x)} \\le u .

    Binette (2019) [1]_, Theorem 1; f_α paper [2]_, Theorem 6 with ``γ^{α−2}`` replaced by
    ``f''(γ)`` in eq. (5) (the remark after the proof of Theorem 6).

    Derivation: eq. (2) writes ``D_f = ∫ E_γ(P‖Q) f''(γ) dγ``, and the proof of Theorem 6
    bounds ``E_γ`` by the tent ``g(γ)`` that is 0 outside ``(v, u)``, ``TV·(γ−v)/(1−v)`` on
    ``(v, 1]`` and ``TV·(u−γ)/(u−1)`` on ``(1, u)``. Integrating by parts,

    .. math::

        \\int_v^1 \\frac{\\gamma - v}{1 - v} f''(\\gamma)\\,d\\gamma
        = \\Bigl[\\frac{\\gamma - v}{1 - v} f'(\\gamma)\\Bigr]_v^1
          - \\frac{1}{1 - v}\\int_v^1 f'(\\gamma)\\,d\\gamma
        = f'(1) + \\frac{f(v)}{1 - v},

        \\int_1^u \\frac{u - \\gamma}{u - 1} f''(\\gamma)\\,d\\gamma
        = \\Bigl[\\frac{u - \\gamma}{u - 1} f'(\\gamma)\\Bigr]_1^u
          + \\frac{1}{u - 1}\\int_1^u f'(\\gamma)\\,d\\gamma
        = -f'(1) + \\frac{f(u)}{u - 1},

    using ``f(1) = 0``; the ``f'(1)`` terms cancel in the sum, which is the closed form.
    The same holds with ``f''`` read as a measure, so ``f`` need not be differentiable
    (for :data:`TOTAL_VARIATION` the constant is 1).

    Parameters
    ----------
    u : float
        ``Γ_max ≥ 1``, an upper bound on the likelihood ratios; ``math.inf`` allowed, where
        ``f(u)/(u − 1)`` becomes ``f'(∞)``.
    v : float
        ``Γ_min ∈ [0, 1]``, a lower bound on the likelihood ratios; at ``v = 0``,
        ``f(v)`` is ``f(0^+)``.
    f : FGenerator or callable
        A convex generator with ``f(1) = 0`` (checked, within ``GENERATOR_AT_ONE_ATOL``;
        convexity is not). A bare callable is called with a 1-D float array, shape (1,),
        and must return one real number per entry; it must give a finite value at 0 when
        ``v = 0``, and cannot be used with ``u = inf`` (pass an :class:`FGenerator` with
        ``slope_at_infinity``).

    Returns
    -------
    float
        The constant in [0, ∞]. ``u = v = 1`` (only ``P = Q`` has all ratios equal to 1)
        gives 0.

    Raises
    ------
    InvalidInputError
        If ``u < 1``, ``v ∉ [0, 1]``, either is NaN, or exactly one of ``u`` and ``v`` is
        1: all ratios ≤ 1 (or all ≥ 1) force ``P = Q``, and the closed form is then 0/0.
        If ``f`` is not a generator with ``f(1) = 0`` (checked also when ``u = v = 1``,
        where the constant is 0 whatever ``f``).

    Notes
    -----
    When ``u`` and ``v`` are both close to 1 the two terms are close to ``±f'(1)`` and
    cancel; :func:`reverse_pinsker_f_alpha` sums the f_α case without that cancellation.

    References
    ----------
    .. [1] O. Binette, "A Note on Reverse Pinsker Inequalities", IEEE Transactions on Information
       Theory 65(7):4094-4096, 2019, doi:10.1109/TIT.2019.2896192 (arXiv:1805.05135).
    .. [2] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Bounds on the Privacy
       Amplification of Arbitrary Channels via the Contraction of f_α-Divergence", Allerton
       Conference 2025, arXiv:2501.11473.
    """
    u_val, v_val = _check_ratio_bounds(u, v)
    _check_generator(f)
    if u_val == 1.0 and v_val == 1.0:
        return 0.0
    f_values = f.f if isinstance(f, FGenerator) else f
    lower = (
        _f_at_zero(f) if v_val == 0.0 else _evaluate_generator(f_values, v_val) / (1.0 - v_val)
    )
    if math.isinf(u_val):
        if not isinstance(f, FGenerator):
            raise InvalidInputError(
                "u = inf needs f'(inf); pass f as an FGenerator with slope_at_infinity."
            )
        upper = f.slope_at_infinity
    else:
        upper = _evaluate_generator(f_values, u_val) / (u_val - 1.0)
    total = lower + upper
    if math.isnan(total):  # +inf − inf: only a non-convex f gets here
        raise InvalidInputError(
            f"f must be convex with f(1) = 0; its reverse Pinsker constant came out as "
            f"+inf - inf for {show(f)}."
        )
    return total


def reverse_pinsker_f_alpha(u: float, v: float, alpha: float) -> float:
    """``R_α(u, v)`` of the reverse Pinsker inequality for f_α, f_α paper [1]_ Theorem 6.

    .. math::

        D_{f_\\alpha}(P\\|Q) \\le
        \\mathrm{TV}(P\\|Q)\\, R_\\alpha(\\Gamma_{\\max}, \\Gamma_{\\min}),
        \\qquad
        R_\\alpha(u, v) = \\frac{u^\\alpha - 1}{u - 1} - \\frac{1 - v^\\alpha}{1 - v},
        \\qquad \\alpha > 1,

    which is :func:`reverse_pinsker` for ``f(t) = t^α − 1``. Each fraction tends to α as
    its argument tends to 1, and ``R_α(1, v)``, ``R_α(u, 1)`` are these limits (unlike
    :func:`reverse_pinsker`, which refuses exactly one of ``u``, ``v`` equal to 1), so a
    rounded ``Γ`` of 1 is harmless; ``R_α(1, 1) = 0`` and ``R_α(∞, v) = ∞``.

    Evaluated without cancellation: with ``h(x) = (1 + x)^α − 1 − αx ≥ 0``,
    ``R_α(u, v) = h(u − 1)/(u − 1) + h(v − 1)/(1 − v)``, a sum of two non-negative terms,
    and ``h(x) = (α−1)[(1+x) log(1+x) − x] + (1+x)[e^{(α−1)log(1+x)} − 1 − (α−1) log(1+x)]``
    is again a sum of non-negative terms, each summed as a series near ``x = 0``. The
    result keeps its relative accuracy as ``u, v → 1`` (where ``R_α ≈ α(α−1)(u − v)/2``)
    and for ``α → 1``.

    Parameters
    ----------
    u : float
        ``Γ_max ≥ 1`` (``math.inf`` allowed).
    v : float
        ``Γ_min ∈ [0, 1]``.
    alpha : float
        The order, ``1 < α < ∞``.

    Returns
    -------
    float
        ``R_α(u, v) ∈ [0, ∞]``.

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Bounds on the Privacy
       Amplification of Arbitrary Channels via the Contraction of f_α-Divergence", Allerton
       Conference 2025, arXiv:2501.11473.
    """
    a = _check_alpha_above_one(alpha)
    u_val, v_val = _check_ratio_bounds(u, v, paired=False)
    if math.isinf(u_val):
        return math.inf
    x = np.array([u_val - 1.0, v_val - 1.0])
    return float(np.sum(_power_excess_over_abs(x, a)))


def pinsker_f_alpha(t: ArrayLike, alpha: float) -> float | NDArray[np.float64]:
    """``g_α(t)``, the Pinsker-type lower bound on the f_α-divergence, f_α paper [1]_
    Theorem 8 (eq. 6).

    .. math::

        D_{f_\\alpha}(P\\|Q) \\ge g_\\alpha(\\mathrm{TV}(P\\|Q)), \\qquad
        g_\\alpha(t) = \\begin{cases}
            e^{2(\\alpha-1)t^2} - 1, & t < 1/\\alpha,\\ \\alpha < 2, \\\\
            (1 + 4t^2)^{\\alpha-1} - 1, & t < 1/\\alpha,\\ \\alpha \\ge 2, \\\\
            (1 - t)^{1-\\alpha} - 1, & t \\ge 1/\\alpha.
        \\end{cases}

    The last branch is the exact lower boundary of the joint range, attained by
    ``P = [0, 1]``, ``Q = [t, 1 − t]`` (Remark 9); the first two (Pinsker's inequality
    for KL, and Jensen on ``χ²``) are valid for every ``t`` but not tight, except that
    for ``α = 2`` the function is the exact boundary everywhere. It jumps up at
    ``t = 1/α`` for ``α ≠ 2`` (see :func:`pinsker_f_alpha_inverse`). Theorem 8 assumes
    ``P`` and ``Q`` mutually absolutely continuous; the bound holds whenever ``P ≪ Q``
    (and trivially otherwise, where ``D_{f_α} = ∞``).

    Parameters
    ----------
    t : float or array_like
        Total variation distances in [0, 1]; ``t = 1`` gives ``math.inf``.
        Vectorised on purpose (unlike the package's scalar functions, which take one
        real number): these are curves, plotted and inverted over grids, so a list,
        tuple or array of any shape is evaluated entry by entry; each entry must be a
        real number (not a bool, text or complex) and a nested list rectangular.
    alpha : float
        The order, ``1 < α < ∞``.

    Returns
    -------
    float or ndarray
        ``g_α(t)``, a float for a scalar ``t`` and an array of ``t``'s shape otherwise.

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Bounds on the Privacy
       Amplification of Arbitrary Channels via the Contraction of f_α-Divergence", Allerton
       Conference 2025, arXiv:2501.11473.
    """
    a = _check_alpha_above_one(alpha)
    t_arr = _as_real_array(t, "t")
    if not np.all((t_arr >= 0) & (t_arr <= 1)):
        bad = t_arr.flat[int(np.argmax(~((t_arr >= 0) & (t_arr <= 1))))]
        raise InvalidInputError(f"t must be a total variation distance in [0, 1]; got {show(bad)}.")
    value = _pinsker_f_alpha(t_arr, a)
    return float(value) if value.ndim == 0 else value


def pinsker_f_alpha_inverse(s: ArrayLike, alpha: float) -> float | NDArray[np.float64]:
    """The generalised inverse of :func:`pinsker_f_alpha`, f_α paper [1]_ Remark 10:
    ``g_α^{-1}(s) = sup{t ∈ [0, 1] : g_α(t) ≤ s}``.

    It turns ``D_{f_α}(P‖Q) ≤ s`` into ``TV(P‖Q) ≤ g_α^{-1}(s)``, as Corollary 11 needs:

    .. math::

        g_\\alpha^{-1}(s) = \\begin{cases}
            \\sqrt{\\log(1 + s) / (2(\\alpha - 1))}, & s < h_\\alpha,\\ \\alpha < 2, \\\\
            \\tfrac12 \\sqrt{(1 + s)^{1/(\\alpha-1)} - 1}, & s < h_\\alpha,\\ \\alpha \\ge 2, \\\\
            \\max\\{1 - (1 + s)^{1/(1-\\alpha)},\\ 1/\\alpha\\}, & s \\ge h_\\alpha,
        \\end{cases}

    with ``h_α = g_α(1/α⁻)``, the value at which the first branch of ``g_α`` ends:
    ``e^{2(α−1)/α²} − 1`` for ``α < 2`` and ``(1 + 4α^{-2})^{α−1} − 1`` for ``α ≥ 2``
    (the latter is Remark 10's ``h_2``). ``g_α`` jumps up at ``t = 1/α``, so every ``s``
    in the gap ``[g_α(1/α⁻), g_α(1/α))`` has inverse ``1/α`` (a supremum that ``g_α``
    does not attain there).

    Remark 10 prints ``h_1 = 2 − 2/α``; that is not ``g_α(1/α⁻)``. For every
    ``α ∈ (1, 2)``, ``h_1`` lies strictly inside the gap, above ``g_α(1/α⁻)`` and below
    ``g_α(1/α)`` (at ``α = 1.5``: ``g_α(1/α⁻) = e^{4/9} − 1 ≈ 0.5596``,
    ``h_1 ≈ 0.6667``, ``g_α(1/α) = √3 − 1 ≈ 0.7321``). For ``s ∈ [g_α(1/α⁻), h_1)`` the
    printed formula uses the first branch and returns ``√(log(1+s)/(2(α−1))) > 1/α``
    (up to 0.7147 instead of 2/3 at ``α = 1.5``; as ``α → 2⁻`` up to ≈ 0.589 instead of
    ≈ 0.5, 18 % too large), and it drops back to ``1/α`` at ``s = h_1``, so it is not
    monotone. It is still a *valid* upper bound on TV — each branch inverts a bound
    that holds for every ``t`` (Pinsker's, and the exact boundary for ``t ≥ 1/α``) — but
    a loose one. This function uses the correct threshold.

    Parameters
    ----------
    s : float or array_like
        Upper bounds on ``D_{f_α}``, ``s ≥ 0``; ``math.inf`` gives 1.
        Vectorised on purpose (unlike the package's scalar functions, which take one
        real number): these are curves, plotted and inverted over grids, so a list,
        tuple or array of any shape is evaluated entry by entry; each entry must be a
        real number (not a bool, text or complex) and a nested list rectangular.
    alpha : float
        The order, ``1 < α < ∞``.

    Returns
    -------
    float or ndarray
        Values in [0, 1], a float for a scalar ``s`` and an array of ``s``'s shape
        otherwise.

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Bounds on the Privacy
       Amplification of Arbitrary Channels via the Contraction of f_α-Divergence", Allerton
       Conference 2025, arXiv:2501.11473.
    """
    a = _check_alpha_above_one(alpha)
    s_arr = _as_real_array(s, "s", allow_inf=True)
    if not np.all(s_arr >= 0):
        bad = s_arr.flat[int(np.argmax(~(s_arr >= 0)))]
        raise InvalidInputError(f"s must be an f_alpha-divergence value >= 0; got {show(bad)}.")
    beta = a - 1.0
    log1p_s = np.log1p(s_arr)
    if a < 2:
        first_branch_end = math.expm1(2.0 * beta / a**2)
        head = np.sqrt(log1p_s / (2.0 * beta))
    else:
        # 4/a/a, not 4/a**2: a**2 overflows for a above 1.3e154.
        first_branch_end = math.expm1(beta * math.log1p(4.0 / a / a))
        with np.errstate(over="ignore"):
            head = 0.5 * np.sqrt(np.expm1(log1p_s / beta))
    tail = np.maximum(-np.expm1(-log1p_s / beta), 1.0 / a)
    value = np.where(s_arr < first_branch_end, head, tail)
    return float(value) if value.ndim == 0 else value


def f_alpha_tv_lower_boundary(t: ArrayLike, alpha: float) -> float | NDArray[np.float64]:
    """The exact lower boundary of the joint range of ``(TV, D_{f_α})``: the least
    f_α-divergence of two distributions at total variation ``t`` (f_α paper [1]_, Remark 9
    and Appendix A).

    .. math::

        \\min_{P, Q:\\ \\mathrm{TV}(P\\|Q) = t} D_{f_\\alpha}(P\\|Q)
        = \\min_{p \\in [0, 1 - t]} \\psi_\\alpha(p, t), \\qquad
        \\psi_\\alpha(p, t) = \\frac{p^\\alpha}{(p + t)^{\\alpha-1}}
            + \\frac{(1 - p)^\\alpha}{(1 - p - t)^{\\alpha-1}} - 1,

    the binary f_α-divergence ``d_{f_α}(p ‖ p + t)`` (merging the outputs onto
    ``{P > Q}`` keeps TV and does not increase ``D_{f_α}``, so binary pairs suffice).
    ``ψ_α`` is convex in ``p``. For ``t ≥ 1/α`` the minimiser is ``p = 0`` and the
    boundary is ``(1 − t)^{1−α} − 1 = g_α(t)`` (:func:`pinsker_f_alpha`); for
    ``t < 1/α`` it is the root of

    .. math::

        \\frac{\\partial\\psi_\\alpha}{\\partial p}
        = (\\alpha t + p)\\Bigl[\\frac{p^{\\alpha-1}}{(p+t)^\\alpha}
            + \\frac{(1-p)^{\\alpha-1}}{(1-p-t)^\\alpha}\\Bigr]
          - \\frac{(1-p)^{\\alpha-1}}{(1-p-t)^\\alpha},

    which is negative at ``p = 0`` and tends to +∞ at ``p = 1 − t``. Its two terms are
    O(1) and cancel to O(t²) near the root, so rather than solve for the root we minimise
    ``ψ_α`` itself over ``[0, 1 − t]`` by bounded Brent, with ``ψ_α`` summed as
    ``t [h(−t/q)/(t/q) + h(t/(1−q))/(t/(1−q))]``, ``q = p + t``, from the non-negative
    ``h`` of :func:`reverse_pinsker_f_alpha`: every value keeps its relative accuracy, so
    the minimum does too, down to tiny ``t``. (Appendix A prints
    ``ψ_α(0, t) = (1 − t)^{1−α}`` and calls it the maximum over ``p``; it is
    ``(1 − t)^{1−α} − 1``, the minimum.)

    Parameters
    ----------
    t : float or array_like
        Total variation distances in [0, 1]; ``t = 1`` gives ``math.inf``.
        Vectorised on purpose (unlike the package's scalar functions, which take one
        real number): these are curves, plotted and inverted over grids, so a list,
        tuple or array of any shape is evaluated entry by entry; each entry must be a
        real number (not a bool, text or complex) and a nested list rectangular.
    alpha : float
        The order, ``1 < α < ∞``.

    Returns
    -------
    float or ndarray
        The boundary, ``≥ g_α(t)``; a float for a scalar ``t``, else an array of its shape.

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Bounds on the Privacy
       Amplification of Arbitrary Channels via the Contraction of f_α-Divergence", Allerton
       Conference 2025, arXiv:2501.11473.
    """
    a = _check_alpha_above_one(alpha)
    t_arr = _as_real_array(t, "t")
    if not np.all((t_arr >= 0) & (t_arr <= 1)):
        bad = t_arr.flat[int(np.argmax(~((t_arr >= 0) & (t_arr <= 1))))]
        raise InvalidInputError(f"t must be a total variation distance in [0, 1]; got {show(bad)}.")
    value = _pinsker_f_alpha(t_arr, a)  # exact for t >= 1/α (Remark 9)
    flat = value.reshape(-1)
    for i, ti in enumerate(t_arr.reshape(-1)):
        if 0.0 < ti < 1.0 / a:
            flat[i] = _binary_f_alpha_minimum(float(ti), a)
        elif ti == 0.0:
            flat[i] = 0.0
    value = flat.reshape(t_arr.shape)
    return float(value) if value.ndim == 0 else value


def _binary_f_alpha_minimum(t: float, a: float) -> float:
    """``min_p ψ_α(p, t)`` for ``0 < t < 1/α``, where the minimiser is interior."""

    def psi(p: float) -> float:
        q = p + t
        deltas = np.array([-t / q, t / (1.0 - q)])
        return t * float(np.sum(_power_excess_over_abs(deltas, a)))

    result = minimize_scalar(
        psi, bounds=(0.0, 1.0 - t), method="bounded", options={"xatol": JOINT_RANGE_XATOL}
    )
    if not result.success:
        raise SolverError(
            f"minimising psi_alpha(p, t) for t = {show(t)}, alpha = {show(a)} did not converge",
            status=Status.ITERATION_LIMIT, solver_status=str(result.message),
        )
    return float(result.fun)


def _pinsker_f_alpha(t: NDArray[np.float64], a: float) -> NDArray[np.float64]:
    """Eq. (6) on a validated array ``t ⊂ [0, 1]`` and ``α > 1``."""
    with np.errstate(divide="ignore", over="ignore"):
        tail = np.expm1((1.0 - a) * np.log1p(-t))  # t = 1: +inf
        if a < 2:
            head = np.expm1(2.0 * (a - 1.0) * t**2)
        else:
            head = np.expm1((a - 1.0) * np.log1p(4.0 * t**2))
    return np.where(t < 1.0 / a, head, tail)


def _power_excess_over_abs(x: NDArray[np.float64], a: float) -> NDArray[np.float64]:
    """``h(x)/|x|`` with ``h(x) = (1 + x)^α − 1 − αx ≥ 0``, for ``x ∈ [−1, ∞)`` and
    ``α > 1`` (0 at ``x = 0``), summed from non-negative parts (no cancellation):
    ``h(x) = (α−1) φ(x) + (1+x) ε((α−1) log(1+x))`` with ``φ(x) = (1+x)log(1+x) − x``
    and ``ε(z) = e^z − 1 − z``."""
    beta = a - 1.0
    positive = 1.0 + x > 0
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        size = np.abs(x)
        excess = _exp_excess(beta * np.log1p(np.where(positive, x, 0.0)))
        # (1 + x)/|x| overflows for subnormal x, and ε/|x| underflows for huge x.
        growth = np.where(size >= 1, excess * ((1.0 + x) / size), excess / size * (1.0 + x))
        value = beta * _entropy_excess_over_abs(x) + np.where(positive, growth, 0.0)
    return np.where(x == 0, 0.0, value)


def _exp_excess(z: NDArray[np.float64]) -> NDArray[np.float64]:
    """``e^z − 1 − z ≥ 0``, as ``Σ_{k≥2} z^k/k!`` for small ``|z|``."""
    small = np.abs(z) <= SERIES_RADIUS
    zs = np.where(small, z, 0.0)
    series = np.zeros_like(zs)
    for k in range(SERIES_TERMS + 1, 1, -1):
        series = 1.0 / math.factorial(k) + zs * series
    with np.errstate(over="ignore", invalid="ignore"):
        # z = +inf (an overflowed (α − 1) log(1 + x) at a huge α): inf − inf would be NaN.
        closed = np.where(np.isposinf(z), math.inf, np.expm1(z) - z)
    return np.where(small, zs * zs * series, closed)


def _entropy_excess_over_abs(x: NDArray[np.float64]) -> NDArray[np.float64]:
    """``((1 + x) log(1 + x) − x)/|x| ≥ 0`` for ``x ≥ −1``, ``x ≠ 0``; as
    ``|x| Σ_{k≥2} (−x)^{k−2}/(k(k−1))`` for small ``|x|``."""
    small = np.abs(x) <= SERIES_RADIUS
    xs = np.where(small, x, 0.0)
    series = np.zeros_like(xs)
    for k in range(SERIES_TERMS + 1, 1, -1):
        series = 1.0 / (k * (k - 1)) - xs * series
    with np.errstate(divide="ignore", invalid="ignore"):
        size = np.abs(x)
        closed = xlog1py((1.0 + x) / size, x) - np.sign(x)
    return np.where(small, np.abs(xs) * series, closed)


def _evaluate_generator(f: Callable[[NDArray[np.float64]], NDArray[np.float64]], t: float) -> float:
    return float(_apply_generator(f, np.array([t]))[0])


def _check_alpha_above_one(alpha: float) -> float:
    a = check_alpha(alpha)
    if not (a > 1 and math.isfinite(a)):
        raise InvalidInputError(f"alpha must be finite and > 1; got {show(alpha)}.")
    return a


def _check_ratio_bounds(u: float, v: float, *, paired: bool = True) -> tuple[float, float]:
    """Γ_max = u ∈ [1, ∞] and Γ_min = v ∈ [0, 1]; if ``paired``, u = 1 only with v = 1."""
    for name, value in (("u", u), ("v", v)):
        if isinstance(value, bool) or not isinstance(value, Real):
            raise InvalidInputError(
                f"u and v must be real numbers; got {name}={show(value)}."
            )
    u_val, v_val = float(u), float(v)
    if not u_val >= 1:
        raise InvalidInputError(f"u (Gamma_max) must be >= 1; got {show(u)}.")
    if not 0 <= v_val <= 1:
        raise InvalidInputError(f"v (Gamma_min) must be in [0, 1]; got {show(v)}.")
    if paired and (u_val == 1) != (v_val == 1):
        raise InvalidInputError(
            "u = 1 or v = 1 forces P = Q, so u (Gamma_max) and v (Gamma_min) must then both "
            f"be 1; got u={show(u)}, v={show(v)}."
        )
    return u_val, v_val


def _as_real_array(value: ArrayLike, name: str, *, allow_inf: bool = False) -> NDArray[np.float64]:
    """A real number or an array of them (any shape) as floats, or raise naming ``name``:
    booleans, text, complex numbers and other objects are refused, not coerced (nor an
    object that merely converts to an array, such as a Mechanism)."""
    if not isinstance(value, (Real, np.ndarray, list, tuple)):
        raise InvalidInputError(f"{name} must be a real number or array; got {show(value)}.")
    check_real_dtype(value, name)
    if not _nested_numbers(value):  # what check_real_dtype cannot see after coercion
        raise InvalidInputError(
            f"{name} must be a real number or a (nested) list of real numbers; got "
            f"{show(value)}."
        )
    try:
        array = np.array(value, dtype=float)
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(
            f"{name} must be a real number or array; got {show(value)}."
        ) from exc
    bad = np.isnan(array) if allow_inf else ~np.isfinite(array)
    if np.any(bad):
        kind = "not NaN" if allow_inf else "finite"
        raise InvalidInputError(f"{name} must be {kind}; got {show(array[bad].flat[0])}.")
    return array


def _nested_numbers(value: object) -> bool:
    """Whether ``value`` is a number, an array, or a list or tuple nesting only those:
    an entry that merely converts to an array (a Mechanism inside a list) is not a
    number, though ``np.asarray`` would unpack it, nor is a boolean (``[0.1, True]``
    would become ``[0.1, 1.0]``)."""
    if isinstance(value, (list, tuple)):
        return all(_nested_numbers(v) for v in value)
    if isinstance(value, (bool, np.bool_)):
        return False
    return isinstance(value, (Real, np.ndarray, np.generic))
