"""Uncertainty sets for robust LDP: Rényi balls and their conditional projections.

Robust-LDP paper (Lopuhaä-Zwakenberg & Goseling, *Mechanisms for robust local
differential privacy*), Sec. 3–4. The data are ``X = (S, U)`` with ``S`` sensitive;
distributions on ``X`` are flattened **S-major** (index ``s·|U| + u``). The aggregator
knows an estimate ``P̂`` and protects every ``P`` in the ball
``F = {P : D_α(P̂ ‖ P) ≤ B}``; RLDP only needs the conditional projections
``F_{U|s} = {P_{U|s} : P ∈ F}`` (eq. 18), which Theorem 1 shows are Rényi balls again,
and two of their statistics: ``L_{u|s} = min_{R ∈ F_{U|s}} R_u`` (eq. 19) and
``rad_s = max_{R ∈ F_{U|s}} ‖R − P̂_{U|s}‖₁`` (eq. 20).

Both reduce to the binary Rényi divergence: by data processing (merge every outcome
but the one of interest), ``min / max P_x`` over a ball is the least / largest ``q``
with ``D_α((ρ, 1 − ρ) ‖ (q, 1 − q)) ≤ B``, ``ρ = P̂_x`` (Lemma A5; scaling the other
outcomes proportionally attains it). So ``ξ^±(ρ) = q^±/ρ`` (eqs. 27–28) are computed
from the binary divergence, for every α > 0, by bracketed root finding.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.optimize import brentq, minimize_scalar

from mechdesign._tolerances import (
    BALL_ROOT_XTOL,
    RADIUS_SPLIT_XATOL,
)
from mechdesign._validation import (
    as_distribution,
    as_real,
    check_alpha,
    check_positive_int,
    show,
)
from mechdesign.errors import InvalidInputError
from mechdesign.measures.divergences import renyi_divergence, renyi_divergence_rows

__all__ = [
    "RenyiBall",
    "SecretAlphabet",
    "center_conditionals",
    "chi2_radius",
    "conditional_ball",
    "conditional_lower_bounds",
    "conditional_radii",
    "conditional_radius",
    "xi_bounds",
]

#: Beyond this many outcomes of U the exact maximum over subsets in rad_s (eq. 30) is
#: replaced by its continuous relaxation, an upper bound (2^20 subset sums).
MAX_EXACT_RADIUS_OUTCOMES = 20


@dataclass(frozen=True)
class RenyiBall:
    """The uncertainty set ``F = {P ∈ P_X : D_α(center ‖ P) ≤ radius}`` (robust-LDP
    paper [1]_, Sec. 3, eq. 7).

    Parameters
    ----------
    center : array_like, shape (a,)
        The estimate ``P̂`` (flattened S-major when X = S × U): non-negative, summing to
        1 within ``STOCHASTIC_ATOL``.
    alpha : float
        Rényi order, ``0 < α < ∞`` (α = 1 is relative entropy).
    radius : float
        ``B ≥ 0``; ``math.inf`` is the whole simplex, 0 the singleton ``{P̂}``.

    References
    ----------
    .. [1] M. Lopuhaä-Zwakenberg, J. Goseling, "Mechanisms for Robust Local Differential Privacy",
       Entropy 26(3):233, 2024, doi:10.3390/e26030233.
    """

    center: NDArray[np.float64]
    alpha: float
    radius: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "center", as_distribution(self.center, "center"))
        alpha = check_alpha(self.alpha)
        if math.isinf(alpha):
            raise InvalidInputError(f"alpha must be finite for a Rényi ball; got {show(alpha)}.")
        object.__setattr__(self, "alpha", alpha)
        radius = as_real(self.radius, "radius")
        if not radius >= 0:
            raise InvalidInputError(f"radius must be >= 0; got {show(self.radius)}.")
        object.__setattr__(self, "radius", radius)

    def divergence(self, p: ArrayLike) -> float:
        """``D_α(center ‖ P)``."""
        q = as_distribution(p, "p", self.center.shape[0])
        return float(renyi_divergence_rows(self.center, q[None, :], self.alpha)[0])

    def contains(self, p: ArrayLike) -> bool:
        """Whether ``D_α(center ‖ P) ≤ radius``."""
        return self.divergence(p) <= self.radius


def chi2_radius(n_samples: int, n_categories: int, beta: float) -> float:
    """The radius B of the χ² confidence set (robust-LDP paper [1]_, eq. 9, α = 2):

    .. math::

        B = \\log\\Bigl(1 + \\frac{F^{-1}_{\\chi^2, a-1}(1 - \\beta)}{n}\\Bigr),

    so that ``D_2(P̂ ‖ P) ≤ B`` is Pearson's χ² test at significance β with ``a − 1``
    degrees of freedom (``D_2 = log(1 + χ²)``): ``P* ∈ F`` with probability ≈ 1 − β.

    Parameters
    ----------
    n_samples : int
        The number of records ``n`` behind ``P̂``, a positive integer.
    n_categories : int
        The number of categories ``a = |X|``, an integer ``≥ 2``.
    beta : float
        The significance level β, in the open interval (0, 1).

    Returns
    -------
    float
        The radius B in nats, ``≥ 0``.

    References
    ----------
    .. [1] M. Lopuhaä-Zwakenberg, J. Goseling, "Mechanisms for Robust Local Differential Privacy",
       Entropy 26(3):233, 2024, doi:10.3390/e26030233.
    """
    n = check_positive_int(n_samples, "n_samples")
    a = check_positive_int(n_categories, "n_categories")
    if a < 2:
        raise InvalidInputError(f"n_categories must be >= 2; got {show(n_categories)}.")
    b = as_real(beta, "beta")
    if not 0 < b < 1:
        raise InvalidInputError(f"beta must lie in (0, 1); got {show(beta)}.")
    # Imported here: scipy.stats costs a third of a second, and only this function of
    # the design path needs it (tests/test_startup.py).
    from scipy.stats import chi2

    return float(math.log1p(chi2.ppf(1.0 - b, a - 1) / n))


@dataclass(frozen=True)
class SecretAlphabet:
    """The robust-LDP paper's [1]_ alphabet ``X = S × U``: ``n_secrets = |S|`` sensitive
    values and ``n_other = |U|`` others, flattened S-major (``x = s·|U| + u``).

    Public functions take the pair ``shape = (|S|, |U|)`` and convert it once with
    :meth:`of`; ``shape`` gives the pair back.

    Parameters
    ----------
    n_secrets : int
        ``|S|``, a positive integer.
    n_other : int
        ``|U|``, a positive integer.

    References
    ----------
    .. [1] M. Lopuhaä-Zwakenberg, J. Goseling, "Mechanisms for Robust Local Differential Privacy",
       Entropy 26(3):233, 2024, doi:10.3390/e26030233.
    """

    n_secrets: int
    n_other: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "n_secrets", check_positive_int(self.n_secrets, "|S|"))
        object.__setattr__(self, "n_other", check_positive_int(self.n_other, "|U|"))

    @classmethod
    def of(
        cls, shape: SecretAlphabet | tuple[int, int], size: int | None = None,
        what: str = "alphabet",
    ) -> SecretAlphabet:
        """``shape`` as an alphabet, refusing one whose ``|S|·|U|`` is not ``size`` (the
        length of the ``what`` it describes)."""
        if isinstance(shape, SecretAlphabet):
            alphabet = shape
        else:
            try:
                alphabet = cls(*(check_positive_int(v, "shape") for v in shape))
            except (TypeError, ValueError) as exc:
                raise InvalidInputError(
                    f"shape must be a pair (|S|, |U|); got {show(shape)}."
                ) from exc
        if size is not None and alphabet.size != size:
            raise InvalidInputError(
                f"shape {alphabet.shape} does not factor the alphabet: |S|·|U| = "
                f"{alphabet.size} but the {what} has {size} entries."
            )
        return alphabet

    @property
    def size(self) -> int:
        """``|X| = |S|·|U|``."""
        return self.n_secrets * self.n_other

    @property
    def shape(self) -> tuple[int, int]:
        """``(|S|, |U|)``."""
        return (self.n_secrets, self.n_other)

    def conditionals(
        self, joint: NDArray[np.float64], what: str = "center"
    ) -> tuple[NDArray, NDArray]:
        """``P_s`` and ``P_{U|s}`` of a joint distribution on X (robust-LDP paper, eqs.
        15–17), refusing an ``s`` of probability 0 (``F_{U|s}`` is then the whole
        simplex, and Theorem 1 needs ``P̂_s > 0``); ``what`` names ``joint`` in the
        message."""
        table = np.asarray(joint, dtype=float).reshape(self.shape)
        marginal = table.sum(axis=1)
        if np.any(marginal <= 0):
            s = int(np.argmin(marginal))
            raise InvalidInputError(
                f"{what} gives P̂_s = 0 for s = {s}; Theorem 1 of the robust-LDP paper needs "
                "P̂_s > 0 for every s (F_U|s is then the whole simplex)."
            )
        return marginal, table / marginal[:, None]


def center_conditionals(ball: RenyiBall, shape: tuple[int, int]) -> tuple[NDArray, NDArray]:
    """``P̂_s`` and ``P̂_{U|s}`` of the ball's center (:meth:`SecretAlphabet.conditionals`).

    Parameters
    ----------
    ball : RenyiBall
        The ball ``F`` around ``P̂`` on ``X = S × U``; ``P̂_s > 0`` is needed for every
        secret ``s``.
    shape : tuple of int
        ``(|S|, |U|)``, the factorisation of the N = |S|·|U| inputs ``X = S × U``
        (flattened S-major, input ``s·|U| + u``); a pair of positive integers.

    Returns
    -------
    marginal : ndarray, shape (|S|,)
        ``P̂_s``, all positive.
    conditional : ndarray, shape (|S|, |U|)
        ``P̂_{U|s}``, one distribution per row.
    """
    ball = _check_ball(ball)
    alphabet = SecretAlphabet.of(shape, ball.center.shape[0], "ball's center")
    return alphabet.conditionals(ball.center, "ball's center")


def _check_ball(ball: object, name: str = "ball") -> RenyiBall:
    """``ball`` if it is a :class:`RenyiBall` (validated on construction), else
    :class:`InvalidInputError` naming ``name``."""
    if not isinstance(ball, RenyiBall):
        raise InvalidInputError(
            f"{name} must be a RenyiBall(center, alpha, radius); got {show(ball)} of type "
            f"{type(ball).__name__}."
        )
    return ball


def conditional_radius(alpha: float, radius: float, p_s: float) -> float:
    """``B_s`` of the robust-LDP paper's [1]_ Theorem 1, the radius of ``F_{U|s}``:

    .. math::

        B_s = \\frac{\\alpha}{\\alpha - 1}
              \\log\\frac{e^{(\\alpha-1)B/\\alpha} - (1 - \\hat P_s)}{\\hat P_s}
        \\ (\\alpha \\ne 1),\\qquad B_s = B/\\hat P_s\\ (\\alpha = 1),

    with the limit ``log((e^B − (1 − P̂_s))/P̂_s)`` at ``α = ∞``, and ``inf`` when the
    log's argument is not positive (possible for α < 1). Computed in log space, so a
    large ``(α − 1)B/α`` does not overflow.

    Parameters
    ----------
    alpha : float
        Rényi order α > 0 (``math.inf`` allowed).
    radius : float
        The ball's radius B ≥ 0 (``math.inf`` allowed).
    p_s : float
        ``P̂_s`` in (0, 1].

    Returns
    -------
    float
        ``B_s ≥ 0`` in nats, possibly ``math.inf``.

    References
    ----------
    .. [1] M. Lopuhaä-Zwakenberg, J. Goseling, "Mechanisms for Robust Local Differential Privacy",
       Entropy 26(3):233, 2024, doi:10.3390/e26030233.
    """
    alpha = check_alpha(alpha)
    radius = as_real(radius, "radius")
    if not radius >= 0:
        raise InvalidInputError(f"radius must be >= 0; got {show(radius)}.")
    p_s = as_real(p_s, "p_s")
    if not 0 < p_s <= 1:
        raise InvalidInputError(f"p_s must lie in (0, 1]; got {show(p_s)}.")
    if math.isinf(radius):
        return math.inf
    if alpha == 1:
        return radius / p_s
    factor = 1.0 if math.isinf(alpha) else alpha / (alpha - 1)
    exponent = radius if math.isinf(alpha) else (alpha - 1) * radius / alpha
    if exponent < 1.0:
        argument = math.expm1(exponent) / p_s  # the log's argument minus 1
        if argument <= -1:
            return math.inf
        return factor * math.log1p(argument)
    # log((e^a − (1 − p))/p) = a + log(1 − (1 − p) e^{−a}) − log p, no overflow.
    return factor * (exponent + math.log1p(-(1.0 - p_s) * math.exp(-exponent)) - math.log(p_s))


def conditional_ball(ball: RenyiBall, shape: tuple[int, int], s: int) -> RenyiBall:
    """The projection ``F_{U|s}`` as a Rényi ball (robust-LDP paper [1]_, Theorem 1):

    .. math::

        F_{U|s} = \\{R : D_\\alpha(\\hat P_{U|s} \\| R) \\le B_s\\},\\qquad
        B_s = \\frac{\\alpha}{\\alpha - 1}
              \\log\\frac{e^{(\\alpha-1)B/\\alpha} - (1 - \\hat P_s)}{\\hat P_s}
        \\ (\\alpha \\ne 1),\\quad B_s = B/\\hat P_s\\ (\\alpha = 1).

    For α < 1 the log's argument can be ≤ 0; then ``B_s = ∞`` (every ``R`` with
    ``D_α < ∞`` is reached). Needs ``P̂_s > 0``.

    Parameters
    ----------
    ball : RenyiBall
        The ball ``F`` around ``P̂`` on ``X = S × U``; ``P̂_s > 0`` is needed for every
        secret ``s``.
    shape : tuple of int
        ``(|S|, |U|)``, the factorisation of the N = |S|·|U| inputs ``X = S × U``
        (flattened S-major, input ``s·|U| + u``); a pair of positive integers.
    s : int
        The secret, an index in ``[0, |S|)``.

    Returns
    -------
    RenyiBall
        ``F_{U|s}``: center ``P̂_{U|s}`` (shape (|U|,)), the ball's α, radius ``B_s``.

    References
    ----------
    .. [1] M. Lopuhaä-Zwakenberg, J. Goseling, "Mechanisms for Robust Local Differential Privacy",
       Entropy 26(3):233, 2024, doi:10.3390/e26030233.
    """
    ball = _check_ball(ball)
    a1 = SecretAlphabet.of(shape, ball.center.shape[0], "ball's center").n_secrets
    if isinstance(s, bool) or not isinstance(s, int | np.integer) or not 0 <= s < a1:
        raise InvalidInputError(f"s must be an index in [0, {a1}); got {show(s)}.")
    marginal, conditional = center_conditionals(ball, shape)
    b_s = conditional_radius(ball.alpha, ball.radius, float(marginal[s]))
    return RenyiBall(conditional[s], ball.alpha, b_s)


def _binary_divergence(rho: float, q: float, alpha: float) -> float:
    return renyi_divergence([rho, 1.0 - rho], [q, 1.0 - q], alpha)


def _binary_ends(rho: float, alpha: float, radius: float) -> tuple[float, float]:
    """``(q⁻, q⁺)``: the least and largest ``q`` with ``D_α((ρ, 1−ρ) ‖ (q, 1−q)) ≤ B``.

    The binary divergence is convex in q, zero at q = ρ and increasing away from it, so
    each end is the root of ``D − B`` on its side (or the end of [0, 1] if the divergence
    stays ≤ B there). Roots are bracketed in the log-distance to the end, so tiny
    ``q⁻`` (large B) keep their relative accuracy.
    """
    if radius == 0 or rho in (0.0, 1.0):
        if rho == 1.0:
            return (math.exp(-radius) if math.isfinite(radius) else 0.0), 1.0
        if rho == 0.0:
            return 0.0, (-math.expm1(-radius) if math.isfinite(radius) else 1.0)
        return rho, rho
    if math.isinf(radius):
        return 0.0, 1.0

    def end(towards_zero: bool) -> float:
        gap = rho if towards_zero else 1.0 - rho

        def point(t: float) -> float:  # distance gap·e^{−t} from the end
            if towards_zero:
                return gap * math.exp(-t)
            # ρ + gap(1 − e^{−t}): exactly ρ at t = 0 even when 1 − ρ rounds to 1.
            return min(rho - gap * math.expm1(-t), 1.0)

        def excess(t: float) -> float:
            return _binary_divergence(rho, point(t), alpha) - radius

        extreme = 0.0 if towards_zero else 1.0
        if _binary_divergence(rho, extreme, alpha) <= radius:
            return extreme
        t_hi = 1.0
        while excess(t_hi) <= 0:  # the root lies beyond: move towards the end
            t_hi *= 2.0
            if t_hi > 1400.0:  # the distance underflows: the end itself
                return extreme
        # excess(∞) > 0 ≥ excess(0) = −B: the root in t lies in (0, t_hi].
        t = brentq(excess, 0.0, t_hi, xtol=BALL_ROOT_XTOL, rtol=4 * np.finfo(float).eps)
        return point(t)

    return end(True), end(False)


def xi_bounds(rho: float, alpha: float, radius: float) -> tuple[float, float]:
    """``(ξ⁻(ρ), ξ⁺(ρ))`` of the robust-LDP paper [1]_, eqs. (26)–(28): for a Rényi ball of
    radius ``B`` around ``P̂`` with ``P̂_x = ρ``, ``min_F P_x = ρ ξ⁻(ρ)`` and
    ``max_F P_x = ρ ξ⁺(ρ)`` (Lemma A5).

    Computed from the binary divergence (module docstring), for every α > 0; for α = 2
    it equals Lemma 1's closed form (tested). The range of ξ⁺ is ``[1, 1/ρ]``
    (``P_x ≤ 1``); the paper prints ``[1, (1 − ρ)^{-1})``, which for ρ < 1/2 cuts off
    attainable values.

    Parameters
    ----------
    rho : float
        ``ρ = P̂_x``, in (0, 1].
    alpha : float
        The Rényi order, ``α > 0``; ``math.inf`` allowed.
    radius : float
        The ball's radius ``B ≥ 0`` in nats; ``math.inf`` allowed.

    Returns
    -------
    tuple of float
        ``(ξ⁻(ρ), ξ⁺(ρ))``, with ``0 ≤ ξ⁻ ≤ 1 ≤ ξ⁺ ≤ 1/ρ``.

    References
    ----------
    .. [1] M. Lopuhaä-Zwakenberg, J. Goseling, "Mechanisms for Robust Local Differential Privacy",
       Entropy 26(3):233, 2024, doi:10.3390/e26030233.
    """
    r = as_real(rho, "rho")
    if not 0 < r <= 1:
        raise InvalidInputError(f"rho must lie in (0, 1]; got {show(rho)}.")
    a = check_alpha(alpha)
    b = as_real(radius, "radius")
    if not b >= 0:
        raise InvalidInputError(f"radius must be >= 0; got {show(radius)}.")
    low, high = _binary_ends(r, a, b)
    return low / r, high / r


def conditional_lower_bounds(ball: RenyiBall, shape: tuple[int, int]) -> NDArray[np.float64]:
    """``L_{u|s} = min_{R ∈ F_{U|s}} R_u`` for every (s, u): shape ``(|S|, |U|)``.

    Robust-LDP paper [1]_, eq. (19) and Proposition 1 (eq. 29): ``L_{u|s} = P̂_{u|s}
    ξ⁻(P̂_{u|s})`` for the ball of radius ``B_s`` (Theorem 1), i.e. the lower end of
    the binary Rényi ball around ``P̂_{u|s}``. These bound PolyOpt's polytope ``D_s``.

    Parameters
    ----------
    ball : RenyiBall
        The ball ``F`` around ``P̂`` on ``X = S × U``; ``P̂_s > 0`` is needed for every
        secret ``s``.
    shape : tuple of int
        ``(|S|, |U|)``, the factorisation of the N = |S|·|U| inputs ``X = S × U``
        (flattened S-major, input ``s·|U| + u``); a pair of positive integers.

    Returns
    -------
    ndarray, shape (|S|, |U|)
        ``L_{u|s}``, read-only.

    References
    ----------
    .. [1] M. Lopuhaä-Zwakenberg, J. Goseling, "Mechanisms for Robust Local Differential Privacy",
       Entropy 26(3):233, 2024, doi:10.3390/e26030233.
    """
    marginal, conditional = center_conditionals(ball, shape)
    out = np.empty_like(conditional)
    for s, row in enumerate(conditional):
        b_s = conditional_radius(ball.alpha, ball.radius, float(marginal[s]))
        for u, rho in enumerate(row):
            out[s, u] = _binary_ends(float(rho), ball.alpha, b_s)[0]
    out.setflags(write=False)
    return out


def _radius_gain(rho: float, alpha: float, radius: float) -> float:
    """``ρ(ξ⁺(ρ) − 1) = q⁺(ρ) − ρ``, half the ℓ1 distance reached by raising a set of
    probability ρ (Lemma A6, eq. A50)."""
    return _binary_ends(rho, alpha, radius)[1] - rho


def conditional_radii(ball: RenyiBall, shape: tuple[int, int]) -> NDArray[np.float64]:
    """``rad_s = max_{R ∈ F_{U|s}} ‖R − P̂_{U|s}‖₁`` for every s: shape ``(|S|,)``.

    Robust-LDP paper [1]_, eq. (20) and Proposition 1 (eq. 30):

    .. math::

        \\mathrm{rad}_s = 2 \\max_{\\emptyset \\ne U_1 \\subseteq U}
            \\rho\\,(\\xi^+(\\rho) - 1),\\qquad \\rho = \\hat P_{U_1|s}.

    ``g(ρ) = ρ(ξ⁺(ρ) − 1) = q⁺(ρ) − ρ`` is concave (``q⁺`` is the upper boundary of a
    sublevel set of the jointly quasi-convex binary divergence, which is convex), so the
    maximum over the finitely many subset sums is at one of the two sums nearest the
    continuous maximiser ρ*; all subset sums are enumerated for ``|U| ≤``
    ``MAX_EXACT_RADIUS_OUTCOMES`` and the value is exact. Beyond, ``2 g(ρ*)`` is
    returned, an upper bound (the conservative side for IR). For α = 2 this agrees with
    Proposition 2 item 2 *with* the ``− 2ρ`` the printed formula lacks (an erratum:
    docs/theorems.md). Item 3's bound, as the proof (A56)–(A58) gives it, is
    ``rad_s ≤ √(e^{B_s} − 1)``, and it is tight (P̂_{U|s} = (0.1, 0.45, 0.45),
    ``e^{B_s} = 1.01``: rad_s = 0.1 = √0.01). Our extracted text of the paper lost its √,
    ≤ and − signs ("rad s ( F ) e B s 1"), so whether the printed statement has the √ is
    for the published PDF to say.

    Parameters
    ----------
    ball : RenyiBall
        The ball ``F`` around ``P̂`` on ``X = S × U``; ``P̂_s > 0`` is needed for every
        secret ``s``.
    shape : tuple of int
        ``(|S|, |U|)``, the factorisation of the N = |S|·|U| inputs ``X = S × U``
        (flattened S-major, input ``s·|U| + u``); a pair of positive integers.

    Returns
    -------
    ndarray, shape (|S|,)
        ``rad_s`` in [0, 2], read-only.

    References
    ----------
    .. [1] M. Lopuhaä-Zwakenberg, J. Goseling, "Mechanisms for Robust Local Differential Privacy",
       Entropy 26(3):233, 2024, doi:10.3390/e26030233.
    """
    marginal, conditional = center_conditionals(ball, shape)
    a2 = conditional.shape[1]
    radii = np.empty(marginal.shape[0])
    for s, row in enumerate(conditional):
        b_s = conditional_radius(ball.alpha, ball.radius, float(marginal[s]))
        if math.isinf(b_s):
            radii[s] = 2.0 * (1.0 - float(row.min()))  # a point mass on the rarest u
            continue

        def gain(rho: float, b_s: float = b_s) -> float:
            return _radius_gain(rho, ball.alpha, b_s)

        best = minimize_scalar(
            lambda r: -gain(r), bounds=(0.0, 1.0), method="bounded",
            options={"xatol": RADIUS_SPLIT_XATOL},
        )
        rho_star = float(best.x)
        if a2 > MAX_EXACT_RADIUS_OUTCOMES:
            radii[s] = 2.0 * gain(rho_star)
            continue
        sums = np.zeros(1)
        for p in row:
            sums = np.concatenate([sums, sums + p])
        sums = np.unique(np.clip(sums[1:], 0.0, 1.0))  # non-empty subsets
        i = int(np.searchsorted(sums, rho_star))
        candidates = {float(sums[j]) for j in (i - 1, i) if 0 <= j < sums.shape[0]}
        radii[s] = 2.0 * max(gain(r) for r in candidates)
    radii.setflags(write=False)
    return radii
