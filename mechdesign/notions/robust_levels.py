"""Audits for robust local differential privacy (RLDP).

Robust-LDP paper (Lopuhaä-Zwakenberg & Goseling, *Mechanisms for robust local
differential privacy*). The data are ``X = (S, U)``, flattened S-major (input
``s·|U| + u``); a kernel ``K`` has rows indexed by those inputs. For a distribution ``P``
on ``X`` the output law given the secret is

.. math::

    P(Y = y \\mid S = s) = \\sum_u K[(s, u), y]\\, P_{u|s},

and ``K`` is ``(ε, F)``-RLDP (Definition 1) when ``P(Y=y|S=s1) ≤ e^ε P(Y=y|S=s2)`` for
every ``y``, every ``s1, s2`` and every ``P ∈ F``. This module measures the least such ε:

- :func:`robust_ldp_level` — over a Rényi ball ``F`` (exactly; see below), with the
  cheaper :func:`projection_level` (an upper bound) beside it;
- :func:`realised_epsilon` — over a single known ``P`` (``ε*`` of Sec. 8.3; the level of
  the non-robust notion for ``P = P̂``);
- :func:`secret_ldp_level` — over every ``P`` (``F = P_X``), which by Proposition 3 is
  ``max log K[(s,u), y] / K[(s',u'), y]`` over ``s ≠ s'``.

How the exact level is found
----------------------------
Write ``R_s = P_{U|s}`` and ``p_s = P̂_{U|s}``. For fixed conditionals, minimising
``D_α(P̂ ‖ P)`` over the marginal ``P_S`` gives (Lagrange; the α = 1 case is the chain
rule)

.. math::

    \\min_{P_S} D_\\alpha(\\hat P \\| P) = \\frac{\\alpha}{\\alpha - 1}
        \\log \\sum_s \\hat P_s\\, \\zeta_s,\\qquad
    \\zeta_s = e^{\\frac{\\alpha-1}{\\alpha} D_\\alpha(p_s \\| R_s)}
    \\quad(\\alpha \\ne 1);\\qquad
    \\min_{P_S} D_1(\\hat P \\| P) = \\sum_s \\hat P_s D_1(p_s \\| R_s),

attained at ``P_s ∝ P̂_s ζ_s``. So conditionals ``(R_s)`` come from some ``P ∈ F`` iff
``Σ_s P̂_s ζ_s ≤ e^{(α−1)B/α}`` (α > 1; ``≥`` for α < 1) or ``Σ_s P̂_s D_s ≤ B``
(α = 1). Setting one ``D_s`` to its largest value with the others at 0 recovers the
projection radius ``B_s`` of Theorem 1.

The ratio for ``(y, s1, s2)`` depends only on ``R_{s1}`` and ``R_{s2}``; every other
block is best left at ``p_s`` (``D_s = 0``). The largest numerator for a divergence
budget ``d1`` is ``h⁺(d1) = max{K_{s1}·R : D_α(p_{s1} ‖ R) ≤ d1}`` and the least
denominator ``h⁻(d2)`` likewise, so the level is a one-dimensional problem: split the
budget, ``λ ∈ [0, 1]`` of it to ``s1`` (``ζ`` or ``D`` is affine in ``λ``), and maximise
``h⁺/h⁻``. For ``α ≥ 1/2`` the ratio is quasi-concave in ``λ``: ``ζ ↦ h⁺`` is concave
and ``ζ ↦ h⁻`` convex because ``R ↦ ζ`` is convex for α > 1 and concave for
``1/2 ≤ α < 1`` (a power mean composed with a power; for ``α < 1/2`` it is neither, as
random instances show). A grid over ``λ`` refined by bounded Brent search around its
best points therefore finds the maximum for ``α ≥ 1/2`` (:attr:`RobustLevel.exact`);
for ``α < 1/2`` the value is attained by a ``P ∈ F`` (a lower bound on the level) and
:attr:`RobustLevel.projection_bound` bounds it from above.

Each ``h^±`` is a linear program over a Rényi ball; its KKT conditions give the
maximiser in closed form up to one scalar, ``R_u ∝ p_u (ν − c_u)^{−1/α}`` (plus, when
some ``u`` outside the support of ``p`` has the largest ``c_u``, a point mass there), and
``ν`` is found by bracketed root finding (:func:`linear_extreme`). The tests check
``h^±`` against cvxpy and the level against direct optimisation over the joint ball.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.optimize import brentq, minimize_scalar

from mechdesign._evidence import EvidenceFloat
from mechdesign._tolerances import (
    LINEAR_EXTREME_XTOL,
    ROBUST_LAMBDA_XATOL,
    THRESHOLD_RTOL,
)
from mechdesign._validation import (
    as_distribution,
    as_float_array,
    as_real,
    check_alpha,
    check_bool,
    show,
)
from mechdesign.errors import InvalidInputError
from mechdesign.kernel import Mechanism, as_matrix
from mechdesign.measures.divergences import renyi_divergence_rows
from mechdesign.notions.uncertainty import (
    RenyiBall,
    SecretAlphabet,
    center_conditionals,
    conditional_radius,
)

__all__ = [
    "RobustLevel",
    "linear_extreme",
    "projection_level",
    "realised_epsilon",
    "robust_ldp_level",
    "secret_ldp_level",
]

# -- algorithm knobs --------------------------------------------------------------------

#: Points of the uniform grid over the budget split λ ∈ [0, 1] in the exact robust audit;
#: the best grid points are then refined by bounded Brent search. For α ≥ 1/2 the ratio
#: is quasi-concave in λ, so the refinement bracket contains the maximiser.
ROBUST_GRID_POINTS = 17

#: In linear_extreme, center entries below this mass are also tried as outside the
#: support (the tilting formula cannot move mass onto them), and the candidate is mixed
#: with this share of the center so that it stays inside the ball.
NEGLIGIBLE_CENTER_MASS = 1e-100
NEGLIGIBLE_MIX = 1e-12

KernelLike = Mechanism | ArrayLike


# -- one block: a linear function over a Rényi ball ---------------------------------------


def linear_extreme(
    c: ArrayLike, center: ArrayLike, alpha: float, radius: float, *, maximize: bool = True
) -> tuple[float, NDArray[np.float64]]:
    """``max`` (or ``min``) of ``c·R`` over ``{R ∈ Δ : D_α(center ‖ R) ≤ radius}``.

    The ball is convex for every α > 0 (van Erven & Harremoës 2014, Thm. 12), so the
    KKT conditions are sufficient. With ``T = supp(center)``, ``O`` its complement and
    multipliers ``ν`` (for ``Σ R = 1``) and ``λ > 0`` (for the divergence), stationarity
    on ``T`` gives, for every α (the α = 1 case included),

    .. math::

        R_u = \\kappa\\, p_u\\, (\\nu - c_u)^{-1/\\alpha}, \\qquad \\nu > \\max_T c,

    and on ``O``: ``c_u ≤ ν`` with ``R_u > 0`` only where ``c_u = ν``. Hence either (i)
    ``ν = max_O c > max_T c``, a point mass ``m ≥ 0`` on ``argmax_O c`` and ``κ`` fixed
    by an active divergence constraint; or (ii) ``R`` normalised on ``T`` and ``ν`` the
    root of ``D_α(p ‖ R(ν)) = radius`` (``D`` falls from its limit at
    ``ν ↓ max(max_T c, max_O c)`` to 0 as ``ν → ∞``); or (iii) the constraint is
    inactive: ``p`` restricted to ``argmax_T c`` and renormalised already lies in the
    ball (possible for α < 1, or when ``c`` is constant on ``T``). ``radius = ∞`` is the
    whole simplex.

    Parameters
    ----------
    c : array_like, shape (a,)
        The linear objective ``c``: finite real numbers, one per outcome.
    center : array_like, shape (a,)
        The ball's center: non-negative, summing to 1 within ``STOCHASTIC_ATOL``.
    alpha : float
        The Rényi order, ``0 < α < ∞``.
    radius : float
        The ball's radius ``≥ 0`` (nats); ``math.inf`` is the whole simplex.
    maximize : bool, default True
        ``False`` gives the minimum of ``c·R`` instead.

    Returns
    -------
    value : float
        The maximum (or minimum) of ``c·R`` over the ball.
    maximiser : ndarray, shape (a,)
        An ``R`` attaining it (for ``radius = ∞``, a point mass, which the whole simplex
        contains).
    """
    p = as_distribution(center, "center")
    cost = as_float_array(c, "c", ndim=1)  # real, finite; text and booleans refused
    if cost.shape != p.shape:
        raise InvalidInputError(
            f"c must be a finite vector of length {p.shape[0]}; got shape {cost.shape}."
        )
    a = check_alpha(alpha)
    if math.isinf(a):
        raise InvalidInputError("alpha must be finite for a Rényi ball.")
    d = as_real(radius, "radius")
    if not d >= 0:
        raise InvalidInputError(f"radius must be >= 0; got {show(radius)}.")
    sign = 1.0 if check_bool(maximize, "maximize") else -1.0
    value, r = _max_linear(sign * cost, p, a, d)
    negligible = (p > 0) & (p < NEGLIGIBLE_CENTER_MASS)
    if np.any(negligible) and math.isfinite(d) and d > 0:
        # The tilt R_u ∝ p_u (ν − c_u)^{−1/α} cannot move mass onto a coordinate with
        # p_u = 1e-300 (ν − c_u would be 1e-600). The same problem with those
        # coordinates outside the support (a point mass may go there) gives the answer
        # up to their mass; mixed with a 1e-12 share of p it stays inside the true ball
        # (checked exactly).
        trimmed = np.where(negligible, 0.0, p)
        trimmed /= trimmed.sum()
        _, candidate = _max_linear(sign * cost, trimmed, a, d)
        candidate = (1 - NEGLIGIBLE_MIX) * candidate + NEGLIGIBLE_MIX * p
        if _divergence(p, candidate, a) <= d and sign * float(cost @ candidate) > value:
            value, r = sign * float(cost @ candidate), candidate
    return sign * value, r


def _max_linear(
    c: NDArray[np.float64], p: NDArray[np.float64], a: float, d: float
) -> tuple[float, NDArray[np.float64]]:
    """:func:`linear_extreme` for a maximum; inputs trusted."""
    n = p.shape[0]
    if d == 0:
        return float(c @ p), p.copy()
    if math.isinf(d):
        best = int(np.argmax(c))
        return float(c[best]), np.eye(n)[best]
    on = p > 0
    c_top = float(c[on].max())
    c_out = float(c[~on].max()) if np.any(~on) else -math.inf
    top_set = on & (c == c_top)
    # (iii) the best face of the simplex that meets T is inside the ball.
    if c_top >= c_out:
        mass = float(p[top_set].sum())
        r = np.where(top_set, p, 0.0) / mass
        if _divergence(p, r, a) <= d:
            return c_top, r
    nu_low = max(c_top, c_out)
    gaps = nu_low - c[on]  # ≥ 0
    scale = float(np.ptp(np.append(c[on], c_out if np.isfinite(c_out) else c_top)))
    scale = scale if scale > 0 else 1.0

    def point(t: float) -> NDArray[np.float64]:
        # ν = ν_low + scale·e^t; w_u = (ν − c_u)^{−1/α}, rescaled by (scale e^t)^{1/α}.
        log_w = -np.log1p(gaps / scale * math.exp(-t)) / a
        w = np.exp(log_w - log_w.max())
        r = np.zeros(n)
        r[on] = p[on] * w
        return r

    # (i) a point mass on the best outcome outside the support.
    if c_out > c_top:
        # ν = max_O c, so every gap is positive; w_u = gap_u^{−1/α} up to scale.
        log_w = -np.log(gaps / scale) / a
        base = np.zeros(n)
        base[on] = p[on] * np.exp(log_w - log_w.max())
        kappa = _active_scale(p, base, a, d)
        if kappa * base.sum() <= 1.0:
            r = kappa * base
            r[int(np.flatnonzero(~on)[np.argmax(c[~on])])] += 1.0 - r.sum()
            return float(c @ r), r

    # (ii) normalised on T, ν the root of D(ν) = d.
    p_on = p[on]

    def excess(t: float) -> float:
        log_w = -np.log1p(gaps / scale * math.exp(-t)) / a
        return _divergence_to_tilt(p_on, log_w, a) - d

    t_hi = 0.0
    while excess(t_hi) > 0:
        t_hi += 4.0
    t_lo = t_hi - 4.0
    while excess(t_lo) <= 0:
        t_lo -= 4.0
        if t_lo < -700.0:  # the limit ν ↓ ν_low is inside the ball (rounding)
            break
    else:
        t_lo = brentq(excess, t_lo, t_hi, xtol=LINEAR_EXTREME_XTOL, rtol=4 * np.finfo(float).eps)
    r = point(t_lo)
    r /= r.sum()
    return float(c @ r), r


def _divergence_to_tilt(p: NDArray[np.float64], log_w: NDArray[np.float64], a: float) -> float:
    """``D_α(p ‖ R)`` for ``R ∝ p·w`` (all of ``p`` positive), from ``log w``.

    ``log(p_u/R_u) = log Σ p w − log w_u``; the sum ``Σ p e^{(α−1)x}`` is taken as
    ``log1p(Σ p expm1(·))`` when the exponents are small (accurate near α = 1 and for
    tiny divergences) and by log-sum-exp otherwise. A faster, unvalidated twin of
    :func:`~mechdesign.measures.divergences.renyi_divergence` for the root finding (tested
    against it).
    """
    shift = float(log_w.max())
    x = math.log(float(p @ np.exp(log_w - shift))) - (log_w - shift)  # log(p_u / R_u)
    if a == 1:
        return max(float(p @ x), 0.0)
    z = (a - 1.0) * x
    top = float(np.abs(z).max())
    if top <= 0.5:
        total = math.log1p(float(p @ np.expm1(z)))
    else:
        m = float(z.max())
        total = m + math.log(float(p @ np.exp(z - m)))
    return max(total / (a - 1.0), 0.0)


def _active_scale(p: NDArray[np.float64], base: NDArray[np.float64], a: float, d: float) -> float:
    """``κ`` with ``D_α(p ‖ κ·base) = d``, for ``base`` supported on ``supp p``
    (a sub-probability vector; the divergence formula is extended to it)."""
    on = p > 0
    if a == 1:
        # Σ p log(p / (κ b)) = d
        return math.exp(-d + float(np.sum(p[on] * np.log(p[on] / base[on]))))
    # Σ p^α (κ b)^{1−α} = e^{(α−1) d}
    s2 = float(np.sum(p[on] ** a * base[on] ** (1.0 - a)))
    return math.exp(-d + math.log(s2) / (a - 1.0))


def _divergence(p: NDArray[np.float64], r: NDArray[np.float64], a: float) -> float:
    return float(renyi_divergence_rows(p, r[None, :], a)[0])


# -- the level over a Rényi ball --------------------------------------------------------


class RobustLevel(EvidenceFloat):
    """The RLDP level of a kernel over a Rényi ball, with the distribution attaining it.

    A float (its value is the level) carrying its evidence; built by
    :func:`robust_ldp_level`. Robust-LDP paper [1]_.

    Parameters
    ----------
    value : float
        The level, as below.
    **fields
        ``output``, ``secrets``, ``witness``, ``projection_bound`` and ``exact``, all by
        keyword (the attributes below).

    Attributes
    ----------
    value : float
        ``max_{y, s1 ≠ s2} sup_{P ∈ F} log P(Y=y|S=s1) / P(Y=y|S=s2)``; ``−∞`` when no
        output has positive probability under two secrets' blocks, ``+∞`` when a ratio is
        unbounded.
    output, secrets : int, tuple of int
        The ``y`` and ``(s1, s2)`` attaining it (``None`` when the value is ``−∞``).
    witness : ndarray or None
        A joint distribution ``P ∈ F`` (flattened S-major) attaining the value (up to the
        search tolerance), built from the optimal conditionals and ``P_s ∝ P̂_s ζ_s``.
    projection_bound : float
        :func:`projection_level`, an upper bound that treats the conditional balls
        ``F_{U|s}`` (Theorem 1) as independent.
    exact : bool
        True for α ≥ 1/2, where the search provably finds the maximum (module
        docstring); for α < 1/2 the value is attained but may fall short of the level.

    References
    ----------
    .. [1] M. Lopuhaä-Zwakenberg, J. Goseling, "Mechanisms for Robust Local Differential Privacy",
       Entropy 26(3):233, 2024, doi:10.3390/e26030233.
    """

    _fields = ("output", "secrets", "witness", "projection_bound", "exact")

    output: int | None
    secrets: tuple[int, int] | None
    witness: NDArray[np.float64] | None
    projection_bound: float
    exact: bool

    def __repr__(self) -> str:
        return (
            f"RobustLevel({show(self.value)}, output={self.output}, secrets={self.secrets}, "
            f"projection_bound={show(self.projection_bound)}, exact={self.exact})"
        )


def _kernel_for(kernel: KernelLike, size: int) -> NDArray[np.float64]:
    k = as_matrix(kernel)
    if k.shape[0] != size:
        raise InvalidInputError(
            f"kernel must have |S|·|U| = {size} rows (inputs, S-major); got {k.shape[0]}."
        )
    return k


def _log_ratio(top: float, bottom: float) -> float:
    if top <= 0:
        return -math.inf
    if bottom <= 0:
        return math.inf
    return math.log(top) - math.log(bottom)


class _Budget:
    """The divergence budgets ``(d1, d2)`` of a pair of secrets as functions of the
    split ``λ`` (module docstring): all of it to ``s1`` at λ = 1."""

    def __init__(self, alpha: float, radius: float, m1: float, m2: float) -> None:
        self.alpha, self.radius, self.m1, self.m2 = alpha, radius, m1, m2
        if alpha != 1 and math.isfinite(radius):
            self.excess = math.expm1((alpha - 1) * radius / alpha)  # Σ P̂_s (ζ_s − 1)

    def _one(self, share: float, mass: float) -> float:
        a, b = self.alpha, self.radius
        if share <= 0 or b == 0:
            return 0.0
        if math.isinf(b):
            return math.inf
        if a == 1:
            return share * b / mass
        # ζ − 1 = share · excess / mass, which overflows for a tiny mass (P̂_s = 5e-324):
        # compared without dividing, and log1p(x) = log x + log1p(1/x) in logs when x > 1.
        numerator = float(share) * self.excess
        if numerator <= -mass:
            return math.inf
        if numerator > mass:
            log_x = math.log(numerator) - math.log(mass)
            return a / (a - 1) * (log_x + math.log1p(math.exp(-log_x)))
        return a / (a - 1) * math.log1p(numerator / mass)

    def __call__(self, lam: float) -> tuple[float, float]:
        return self._one(lam, self.m1), self._one(1.0 - lam, self.m2)

    def marginal(self, lam: float, marginal: NDArray[np.float64], s1: int, s2: int):
        """The minimising ``P_S ∝ P̂_s ζ_s`` (``P̂_s`` at α = 1) for the split λ."""
        weights = np.array(marginal, dtype=float)
        if self.alpha != 1 and math.isfinite(self.radius):
            d1, d2 = self(lam)
            for s, d, share in ((s1, d1, lam), (s2, d2, 1.0 - lam)):
                # P̂_s ζ_s = P̂_s + share · excess (ζ_s = e^{(α−1)d/α} itself may overflow)
                weights[s] = 0.0 if math.isinf(d) else marginal[s] + max(share, 0.0) * self.excess
        return weights / weights.sum()


def _pair_level(
    k1: NDArray[np.float64],
    k2: NDArray[np.float64],
    p1: NDArray[np.float64],
    p2: NDArray[np.float64],
    budget: _Budget,
) -> tuple[float, float, NDArray[np.float64], NDArray[np.float64]]:
    """``max_λ log h⁺(d1(λ)) − log h⁻(d2(λ))`` with its λ and conditionals."""
    a = budget.alpha
    cache: dict[float, tuple[float, NDArray, NDArray]] = {}

    def evaluate(lam: float) -> float:
        lam = min(max(lam, 0.0), 1.0)
        if lam not in cache:
            d1, d2 = budget(lam)
            top, r1 = _max_linear(k1, p1, a, d1)
            low, r2 = _max_linear(-k2, p2, a, d2)
            cache[lam] = (_log_ratio(top, -low), r1, r2)
        return cache[lam][0]

    grid = np.linspace(0.0, 1.0, ROBUST_GRID_POINTS)
    values = np.array([evaluate(float(lam)) for lam in grid])
    best = values.max()
    if math.isfinite(best):
        ties = np.flatnonzero(values >= best - THRESHOLD_RTOL * max(1.0, abs(best)))
        for i in {int(ties[0]), int(ties[-1])}:
            lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, grid.size - 1)]
            minimize_scalar(
                lambda lam: -evaluate(lam),
                bounds=(lo, hi),
                method="bounded",
                options={"xatol": ROBUST_LAMBDA_XATOL},
            )
    lam = max(cache, key=lambda key: cache[key][0])
    value, r1, r2 = cache[lam]
    return value, lam, r1, r2


def robust_ldp_level(
    kernel: KernelLike, ball: RenyiBall, shape: tuple[int, int]
) -> RobustLevel:
    """The realised RLDP level of ``kernel`` over the Rényi ball ``F`` (robust-LDP
    paper [1]_, Definition 1):

    .. math::

        \\max_{y}\\ \\max_{s_1 \\ne s_2}\\ \\sup_{P \\in F}\\
        \\log \\frac{P(Y=y \\mid S=s_1)}{P(Y=y \\mid S=s_2)},

    so ``K`` is ``(ε, F)``-RLDP iff the value is ≤ ε. Pairs with ``s1 = s2`` are
    omitted (the ratio is 1). Computed as the module docstring describes: exact for
    α ≥ 1/2. Triples ``(y, s1, s2)`` are searched in decreasing order of their
    projection bound, and skipped once that bound cannot beat the best level found.
    Needs ``P̂_s > 0`` for every ``s``.

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        The mechanism, rows indexed by ``x = s·|U| + u`` (N = |S|·|U|); an array must be
        finite, non-negative and row-stochastic.
    ball : RenyiBall
        The uncertainty set ``F`` around ``P̂`` on ``X = S × U``; ``P̂_s > 0`` is needed
        for every secret ``s``.
    shape : tuple of int
        ``(|S|, |U|)``, the factorisation of the N = |S|·|U| inputs ``X = S × U``
        (flattened S-major, input ``s·|U| + u``); a pair of positive integers.

    Returns
    -------
    RobustLevel
        The level in nats (a float), with the output, secrets and witness attaining it.

    References
    ----------
    .. [1] M. Lopuhaä-Zwakenberg, J. Goseling, "Mechanisms for Robust Local Differential Privacy",
       Entropy 26(3):233, 2024, doi:10.3390/e26030233.
    """
    marginal, conditional = center_conditionals(ball, shape)
    a1, a2 = conditional.shape
    k = _kernel_for(kernel, a1 * a2)
    blocks = k.reshape(a1, a2, -1)
    bounds = _projection_bounds(blocks, conditional, marginal, ball)
    order = np.argsort(-bounds, axis=None, kind="stable")
    best = (-math.inf, None, None, None)
    for flat in order:
        s1, s2, y = (int(i) for i in np.unravel_index(flat, bounds.shape))
        if s1 == s2 or not bounds[s1, s2, y] > best[0]:
            continue
        budget = _Budget(ball.alpha, ball.radius, float(marginal[s1]), float(marginal[s2]))
        value, lam, r1, r2 = _pair_level(
            blocks[s1, :, y], blocks[s2, :, y], conditional[s1], conditional[s2], budget
        )
        if value > best[0]:
            best = (value, y, (s1, s2), (lam, r1, r2, budget))
    value, y, secrets, found = best
    witness = None
    if found is not None:
        lam, r1, r2, budget = found
        cond = conditional.copy()
        cond[secrets[0]], cond[secrets[1]] = r1, r2
        p_s = budget.marginal(lam, marginal, *secrets)
        witness = (p_s[:, None] * cond).ravel()
        witness.setflags(write=False)
    off_diagonal = ~np.eye(a1, dtype=bool)
    return RobustLevel(
        value,
        output=y,
        secrets=secrets,
        witness=witness,
        projection_bound=float(bounds[off_diagonal].max()) if a1 > 1 else -math.inf,
        exact=ball.alpha >= 0.5,
    )


def _projection_bounds(
    blocks: NDArray[np.float64],
    conditional: NDArray[np.float64],
    marginal: NDArray[np.float64],
    ball: RenyiBall,
) -> NDArray[np.float64]:
    """``bounds[s1, s2, y] = log max_{F_{U|s1}} K_{s1,y}·R − log min_{F_{U|s2}}
    K_{s2,y}·R`` (diagonal ``s1 = s2`` included but unused)."""
    a1, _, m = blocks.shape
    radii = [conditional_radius(ball.alpha, ball.radius, float(x)) for x in marginal]
    top = np.empty((a1, m))
    low = np.empty((a1, m))
    for s in range(a1):
        for y in range(m):
            top[s, y] = _max_linear(blocks[s, :, y], conditional[s], ball.alpha, radii[s])[0]
            low[s, y] = -_max_linear(-blocks[s, :, y], conditional[s], ball.alpha, radii[s])[0]
    bounds = np.empty((a1, a1, m))
    for s1 in range(a1):
        for s2 in range(a1):
            for y in range(m):
                bounds[s1, s2, y] = _log_ratio(top[s1, y], low[s2, y])
    return bounds


def projection_level(kernel: KernelLike, ball: RenyiBall, shape: tuple[int, int]) -> float:
    """An upper bound on :func:`robust_ldp_level` through the projections (robust-LDP
    paper [1]_, Theorem 1):

    .. math::

        \\max_y \\max_{s_1 \\ne s_2} \\log
        \\frac{\\max_{R \\in F_{U|s_1}} K_{s_1, y} \\cdot R}
             {\\min_{R \\in F_{U|s_2}} K_{s_2, y} \\cdot R},

    which lets both conditionals use the whole budget at once (the set ``F'`` of
    Sec. 4.1 instead of ``F``). It is what PolyOpt's polytopes ``D_s ⊇ F_{U|s}`` relax
    further.

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        The mechanism, rows indexed by ``x = s·|U| + u`` (N = |S|·|U|); an array must be
        finite, non-negative and row-stochastic.
    ball : RenyiBall
        The uncertainty set ``F`` around ``P̂`` on ``X = S × U``; ``P̂_s > 0`` is needed
        for every secret ``s``.
    shape : tuple of int
        ``(|S|, |U|)``, the factorisation of the N = |S|·|U| inputs ``X = S × U``
        (flattened S-major, input ``s·|U| + u``); a pair of positive integers.

    Returns
    -------
    float
        The bound in nats; ``−∞`` when ``|S| = 1`` (no pair of secrets).

    References
    ----------
    .. [1] M. Lopuhaä-Zwakenberg, J. Goseling, "Mechanisms for Robust Local Differential Privacy",
       Entropy 26(3):233, 2024, doi:10.3390/e26030233.
    """
    marginal, conditional = center_conditionals(ball, shape)
    a1, a2 = conditional.shape
    k = _kernel_for(kernel, a1 * a2)
    if a1 == 1:
        return -math.inf
    bounds = _projection_bounds(k.reshape(a1, a2, -1), conditional, marginal, ball)
    return float(bounds[~np.eye(a1, dtype=bool)].max())


# -- known distributions and the whole simplex ------------------------------------------


def realised_epsilon(kernel: KernelLike, distribution: ArrayLike, shape: tuple[int, int]) -> float:
    """``ε*`` of the robust-LDP paper [1]_, Sec. 8.3: the RLDP level for one known ``P``,

    .. math::

        \\varepsilon^* = \\max_{y,\\, s_1, s_2} \\log
        \\frac{\\sum_u K[(s_1, u), y] P_{u|s_1}}{\\sum_u K[(s_2, u), y] P_{u|s_2}}.

    The paper prints the ratio without the log; we report it in nats like every other
    level (``+∞`` when a denominator vanishes under a positive numerator, as the paper
    notes). Secrets with ``P_s = 0`` are skipped (their conditional is undefined); with
    fewer than two secrets left there is no pair, and the level is ``−∞`` (the empty
    maximum, as in every other audit).

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        The mechanism, rows indexed by ``x = s·|U| + u`` (N = |S|·|U|); an array must be
        finite, non-negative and row-stochastic.
    distribution : array_like, shape (N,)
        The known ``P`` on ``X = S × U`` (flattened S-major): non-negative, summing to 1
        within ``STOCHASTIC_ATOL``.
    shape : tuple of int
        ``(|S|, |U|)``, the factorisation of the N = |S|·|U| inputs ``X = S × U``
        (flattened S-major, input ``s·|U| + u``); a pair of positive integers.

    Returns
    -------
    float
        ``ε*`` in nats; ``+∞`` or ``−∞`` as described above.

    References
    ----------
    .. [1] M. Lopuhaä-Zwakenberg, J. Goseling, "Mechanisms for Robust Local Differential Privacy",
       Entropy 26(3):233, 2024, doi:10.3390/e26030233.
    """
    p = as_distribution(distribution, "distribution")
    a1, a2 = SecretAlphabet.of(shape, p.shape[0], "distribution").shape
    k = _kernel_for(kernel, a1 * a2)
    joint = p.reshape(a1, a2)
    seen = joint.sum(axis=1) > 0
    conditional = joint[seen] / joint[seen].sum(axis=1, keepdims=True)
    given = np.einsum("su,suy->sy", conditional, k.reshape(a1, a2, -1)[seen])
    return _spread(given)


def secret_ldp_level(kernel: KernelLike, shape: tuple[int, int]) -> float:
    """The ``(ε, P_X)``-RLDP level: RLDP for every distribution (robust-LDP paper [1]_,
    Proposition 3), ``max_y max_{s ≠ s'} log K[(s,u), y] / K[(s',u'), y]``.

    Computed from the per-secret extremes of each column: ``max_u K[(s,u), y]`` over
    ``min_{u'} K[(s',u'), y]``.

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        The mechanism, rows indexed by ``x = s·|U| + u`` (N = |S|·|U|); an array must be
        finite, non-negative and row-stochastic.
    shape : tuple of int
        ``(|S|, |U|)``, the factorisation of the N = |S|·|U| inputs ``X = S × U``
        (flattened S-major, input ``s·|U| + u``); a pair of positive integers.

    Returns
    -------
    float
        The level in nats; ``+∞`` when a ratio is unbounded, ``−∞`` when ``|S| = 1``.

    References
    ----------
    .. [1] M. Lopuhaä-Zwakenberg, J. Goseling, "Mechanisms for Robust Local Differential Privacy",
       Entropy 26(3):233, 2024, doi:10.3390/e26030233.
    """
    k = as_matrix(kernel)
    a1, a2 = SecretAlphabet.of(shape, k.shape[0], "kernel").shape
    blocks = k.reshape(a1, a2, -1)
    top, low = blocks.max(axis=1), blocks.min(axis=1)  # (a1, M)
    best = -math.inf
    for s1 in range(a1):
        for s2 in range(a1):
            if s1 != s2:
                for y in range(k.shape[1]):
                    best = max(best, _log_ratio(top[s1, y], low[s2, y]))
    return best


def _spread(given: NDArray[np.float64]) -> float:
    """``max_y max_{s1 ≠ s2} log given[s1, y] / given[s2, y]`` (rows are secrets)."""
    best = -math.inf
    for y in range(given.shape[1]):
        column = given[:, y]
        if column.shape[0] < 2:
            continue
        best = max(best, _log_ratio(float(column.max()), float(column.min())))
    return best
