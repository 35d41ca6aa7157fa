"""Pinsker-type inequalities between total variation and f-divergences.

Binette's reverse Pinsker constant (:func:`reverse_pinsker`, any generator; the f_α
case without cancellation, :func:`reverse_pinsker_f_alpha`), the tight Pinsker curve of
f_α (:func:`pinsker_f_alpha`, its inverse :func:`pinsker_f_alpha_inverse`) and the lower
boundary of the joint range of (TV, f_α) (:func:`f_alpha_tv_lower_boundary`): the f_α
paper (Grosse, Saeidian, Oechtering, Skoglund, arXiv:2501.11473), Section IV. The
divergences themselves are :mod:`mechdesign.measures.divergences`'.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from numbers import Real

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.optimize import minimize_scalar
from scipy.special import xlog1py

from mechdesign._tolerances import JOINT_RANGE_XATOL
from mechdesign._validation import check_alpha, check_real_dtype, show
from mechdesign.errors import InvalidInputError, SolverError
from mechdesign.measures.divergences import (
    FGenerator,
    check_generator,
    generator_at_zero,
    generator_value,
)
from mechdesign.status import Status

__all__ = [
    "f_alpha_tv_lower_boundary",
    "pinsker_f_alpha",
    "pinsker_f_alpha_inverse",
    "reverse_pinsker",
    "reverse_pinsker_f_alpha",
]

# -- algorithm knobs --------------------------------------------------------------------

#: Below this ``|x|`` the power series of the excess functions ``e^x − 1 − x`` and
#: ``(1 + x) log(1 + x) − x`` are summed instead of their closed forms, which cancel there;
#: ``SERIES_TERMS`` terms of either series then reach far below double precision.
SERIES_RADIUS = 0.25
SERIES_TERMS = 30


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
    check_generator(f)
    if u_val == 1.0 and v_val == 1.0:
        return 0.0
    lower = (
        generator_at_zero(f) if v_val == 0.0 else generator_value(f, v_val) / (1.0 - v_val)
    )
    if math.isinf(u_val):
        if not isinstance(f, FGenerator):
            raise InvalidInputError(
                "u = inf needs f'(inf); pass f as an FGenerator with slope_at_infinity."
            )
        upper = f.slope_at_infinity
    else:
        upper = generator_value(f, u_val) / (u_val - 1.0)
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
