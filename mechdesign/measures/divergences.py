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

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.special import logsumexp

from mechdesign._lazy import deprecated_names
from mechdesign._tolerances import GENERATOR_AT_ONE_ATOL
from mechdesign._validation import (
    LOG_FLOAT_MAX,
    as_distribution,
    as_real,
    check_alpha,
    check_real_dtype,
    show,
)
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
    check_generator(f)
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
        total += float(np.sum(q_arr[zero])) * generator_at_zero(f)
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


def check_generator(f: object, name: str = "f") -> None:
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


def generator_at_zero(f: FGenerator | Callable) -> float:
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


def generator_value(f: FGenerator | Callable[[NDArray[np.float64]], NDArray[np.float64]],
                    t: float, name: str = "f") -> float:
    """``f(t)`` at one point for an :class:`FGenerator` or a bare generator function,
    as a real number (not NaN), or :class:`InvalidInputError` naming ``name``."""
    check_generator(f, name)
    point = as_real(t, "t")
    values = f.f if isinstance(f, FGenerator) else f
    return float(_apply_generator(values, np.array([point]), name)[0])


#: The Pinsker-type inequalities moved to :mod:`mechdesign.measures.pinsker`; for one
#: release they still answer here, with a :class:`DeprecationWarning`.
__getattr__ = deprecated_names(__name__, {name: f"mechdesign.measures.pinsker.{name}" for name in (
    "f_alpha_tv_lower_boundary", "pinsker_f_alpha", "pinsker_f_alpha_inverse",
    "reverse_pinsker", "reverse_pinsker_f_alpha")})
