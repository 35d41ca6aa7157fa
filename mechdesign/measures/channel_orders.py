"""Channel orders: Blackwell's degradation order and the less-noisy order (Körner &
Marton 1977), decided with a certificate either way. Rows are inputs.

**Degradation** (:func:`is_degraded`). ``K₂`` is a degraded version of ``K₁`` (Blackwell:
``K₁`` is more informative for every decision problem) iff ``K₁ R = K₂`` for a stochastic
``R``. The LP ``min ‖K₁ R − K₂‖₁`` over stochastic ``R`` (HiGHS) is always feasible; its
optimum is 0 exactly when ``K₂`` is degraded, and a positive optimum is the refusal's
certificate (LP duality: a dual vector separating ``K₂`` from ``{K₁ R}``).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from numpy.typing import ArrayLike, NDArray

from mechdesign._solvers.highs import solve_linear_program
from mechdesign.errors import InvalidInputError, SolverError, UnsupportedError
from mechdesign.kernel import Mechanism, as_matrix
from mechdesign.status import Status

__all__ = [
    "DEGRADATION_ATOL",
    "LESS_NOISY_MAX_INTERVALS",
    "LESS_NOISY_RTOL",
    "LESS_NOISY_SEARCH",
    "is_degraded",
    "is_less_noisy",
]

#: :func:`is_degraded` accepts ``R`` when the least ``max |K₁R − K₂|`` is at most this.
DEGRADATION_ATOL = 1e-9


def is_degraded(K1: Mechanism | ArrayLike, K2: Mechanism | ArrayLike
                ) -> NDArray[np.float64] | None:
    """A stochastic ``R`` (``M₁ × M₂``) with ``K₁ R = K₂`` — ``K₂`` is a post-processing
    of ``K₁`` (Blackwell's order) — or ``None`` (module docstring: the LP ``min ‖K₁R −
    K₂‖₁``; ``R`` is accepted when every entry of ``K₁R − K₂`` is within
    :data:`DEGRADATION_ATOL`, after its rows are renormalised).

    Parameters
    ----------
    K1 : Mechanism or array_like, shape (N, M1)
        The channel ``K₁`` (rows are inputs); finite, non-negative, row-stochastic.
    K2 : Mechanism or array_like, shape (N, M2)
        The channel ``K₂``, with the same N inputs as ``K1``.

    Returns
    -------
    ndarray, shape (M1, M2), or None
        A row-stochastic ``R`` with ``K₁ R = K₂`` (within :data:`DEGRADATION_ATOL`), or
        ``None`` when ``K₂`` is not a degraded version of ``K₁``.
    """
    k1, k2 = as_matrix(K1, "K1"), as_matrix(K2, "K2")
    if k1.shape[0] != k2.shape[0]:
        raise InvalidInputError(
            f"K1 and K2 must have the same inputs (rows); got {k1.shape[0]} and {k2.shape[0]}.")
    n, m1 = k1.shape
    m2 = k2.shape[1]
    # variables: R (m1·m2, row-major), then s⁺ and s⁻ (n·m2 each)
    cells = m1 * m2
    slack = n * m2
    rows_match = sp.kron(sp.csr_array(k1), sp.identity(m2, format="csr"))   # (K1 R)_{xy}
    eye = sp.identity(slack, format="csr")
    match = sp.hstack([rows_match, -eye, eye])
    stochastic = sp.hstack([sp.kron(sp.identity(m1, format="csr"),
                                    sp.csr_array(np.ones((1, m2)))),
                            sp.csr_array((m1, 2 * slack))])
    matrix = sp.vstack([match, stochastic]).tocsc()
    target = np.concatenate([k2.ravel(), np.ones(m1)])
    cost = np.concatenate([np.zeros(cells), np.ones(2 * slack)])
    solution = solve_linear_program(cost, matrix, target, target, sense="minimize",
                                    known_feasible=True)
    r = np.clip(solution.x[:cells].reshape(m1, m2), 0.0, None)
    totals = r.sum(axis=1, keepdims=True)
    r = np.where(totals > 0, r / np.where(totals > 0, totals, 1.0), 1.0 / m2)
    if np.abs(k1 @ r - k2).max() <= DEGRADATION_ATOL:
        return r
    return None


def is_less_noisy(K1: Mechanism | ArrayLike, K2: Mechanism | ArrayLike) -> bool:
    """Whether ``K₁`` is less noisy than ``K₂`` (Körner & Marton 1977): ``I(U; Y₁) ≥
    I(U; Y₂)`` for every ``U − X − (Y₁, Y₂)``. Equivalently (van Dijk, IEEE T-IT 1997;
    Makur & Polyanskiy, "Comparison of channels: criteria for domination by a symmetric
    channel", IEEE T-IT 2018, Prop. 1) ``D(PK₁ ‖ QK₁) ≥ D(PK₂ ‖ QK₂)`` for all input
    distributions ``P, Q``; equivalently ``P ↦ I(P, K₁) − I(P, K₂)`` is concave, that
    is, for every ``Q`` in the simplex the χ² form ``d ↦ Σ_y (dK₁)_y² / (QK₁)_y − Σ_y
    (dK₂)_y² / (QK₂)_y`` is non-negative on ``{Σ d = 0}``. Less noisy is implied by
    degraded (:func:`is_degraded`) and strictly weaker: the binary erasure channel BEC(ε)
    is less noisy than BSC(δ) iff ``ε ≤ 4δ(1 − δ)``, degraded iff ``ε ≤ 2δ``.

    Decided, in this order:

    1. ``True`` when ``K₂`` is a degraded version of ``K₁`` (an LP witness).
    2. ``False`` when a search over ``Q`` (the uniform prior, pair midpoints, seeded
       random priors, then Nelder–Mead on the most negative) finds a negative χ² form,
       confirmed by an explicit pair with ``D(PK₁ ‖ QK₁) < D(PK₂ ‖ QK₂)``.
    3. For two inputs, exactly: ``Q = (1 − t, t)`` and the form is one rational function
       ``φ(t)`` whose terms are monotone on any interval, so branch and bound over ``[0,
       1]`` certifies ``φ ≥ 0`` (to the relative :data:`LESS_NOISY_RTOL`, which decides a
       tangency such as ε = 4δ(1 − δ)) or finds a ``t`` with ``φ(t) < 0``.

    Parameters
    ----------
    K1 : Mechanism or array_like, shape (N, M1)
        The channel ``K₁`` (rows are inputs); finite, non-negative, row-stochastic.
    K2 : Mechanism or array_like, shape (N, M2)
        The channel ``K₂``, with the same N inputs as ``K1``.

    Returns
    -------
    bool
        Whether ``K₁`` is less noisy than ``K₂``.

    Raises
    ------
    UnsupportedError
        More than two inputs, not degraded, and no counterexample found: the search is
        not a proof.
    """
    k1, k2 = as_matrix(K1, "K1"), as_matrix(K2, "K2")
    if k1.shape[0] != k2.shape[0]:
        raise InvalidInputError(
            f"K1 and K2 must have the same inputs (rows); got {k1.shape[0]} and {k2.shape[0]}.")
    if k1.shape[0] == 1 or is_degraded(k1, k2) is not None:
        return True
    if _less_noisy_counterexample(k1, k2) is not None:
        return False
    if k1.shape[0] == 2:
        return _binary_less_noisy(k1, k2)
    raise UnsupportedError(
        f"is_less_noisy cannot decide this pair of {k1.shape[0]}-input channels: K2 is not "
        f"a degraded version of K1 and a search over {LESS_NOISY_SEARCH} input "
        f"distributions found no counterexample, which is not a proof. Pairs with two "
        f"inputs are decided exactly.")


#: Relative tolerance of :func:`is_less_noisy`: ``φ₁ ≥ (1 − rtol) φ₂`` counts as ``≥``.
LESS_NOISY_RTOL = 1e-9

#: Random input distributions :func:`is_less_noisy` tries before its local search.
LESS_NOISY_SEARCH = 256

#: Intervals the binary branch and bound of :func:`is_less_noisy` may split.
LESS_NOISY_MAX_INTERVALS = 100_000


def _chi2_forms(k1, k2, q):
    """The two χ² forms at ``Q = q`` on the basis of ``{Σ d = 0}``: ``B K diag(1/qK) Kᵀ
    Bᵀ`` for each channel (outputs ``qK = 0`` carry no direction: dropped)."""
    n = k1.shape[0]
    basis = np.eye(n)[1:] - np.eye(n)[0]               # d = e_i − e_0
    forms = []
    for k in (k1, k2):
        out = q @ k
        used = out > 0
        moved = basis @ k[:, used]
        forms.append((moved / out[used]) @ moved.T)
    return forms


def _least_ratio(k1, k2, q) -> tuple[float, NDArray[np.float64]]:
    """The most negative ``dᵀ(A₁ − A₂)d`` over ``dᵀ(A₁ + A₂)d = 1`` (scale-free), and its
    direction ``d`` (``Σ d = 0``)."""
    from scipy.linalg import eigh

    a1, a2 = _chi2_forms(k1, k2, q)
    total = a1 + a2
    total = total + LESS_NOISY_RTOL * np.trace(total) * np.eye(total.shape[0])
    values, vectors = eigh(a1 - a2, total)
    v = vectors[:, 0]
    d = np.concatenate([[-v.sum()], v])
    return float(values[0]), d


def _less_noisy_counterexample(k1, k2):
    """``(P, Q)`` with ``D(PK₁ ‖ QK₁) < D(PK₂ ‖ QK₂)`` beyond rounding, or ``None``
    (:func:`is_less_noisy`, step 2)."""
    from scipy.optimize import minimize

    n = k1.shape[0]
    rng = np.random.default_rng(0)
    candidates = [np.full(n, 1.0 / n)]
    candidates += [(np.eye(n)[i] + np.eye(n)[j]) / 2 * 0.98 + 0.02 / n
                   for i in range(n) for j in range(i + 1, n)]
    candidates += list(rng.dirichlet(np.full(n, 0.5), LESS_NOISY_SEARCH))
    scored = sorted(((_least_ratio(k1, k2, q)[0], i) for i, q in enumerate(candidates)))
    for value, i in scored[:3]:
        q = candidates[i]
        if value >= 0:
            break
        witness = _confirm(k1, k2, q)
        if witness is not None:
            return witness
        z = np.log(q)
        result = minimize(lambda z: _least_ratio(k1, k2, _softmax(z))[0], z,
                          method="Nelder-Mead",
                          options={"maxiter": 400, "xatol": LESS_NOISY_RTOL,
                                   "fatol": LESS_NOISY_RTOL * 1e-3})
        witness = _confirm(k1, k2, _softmax(result.x))
        if witness is not None:
            return witness
    return None


def _softmax(z):
    w = np.exp(z - z.max())
    return w / w.sum()


def _confirm(k1, k2, q):
    """A pair ``(P, Q = q)`` along the most negative direction at ``q`` whose divergences
    are ordered the wrong way by more than :data:`LESS_NOISY_RTOL`, or ``None``."""
    value, d = _least_ratio(k1, k2, q)
    if value >= -LESS_NOISY_RTOL:
        return None
    shrinking = d < 0
    reach = float(np.min(q[shrinking] / -d[shrinking])) if shrinking.any() else 1.0
    for step in reach * 0.5 ** np.arange(1, 30):
        p = q + step * d
        d1, d2 = _kl(p @ k1, q @ k1), _kl(p @ k2, q @ k2)
        if d1 < d2 * (1 - LESS_NOISY_RTOL) - LESS_NOISY_RTOL * 1e-3:
            return p, q
    return None


def _kl(p: NDArray[np.float64], q: NDArray[np.float64]) -> float:
    used = p > 0
    return float(np.sum(p[used] * (np.log(p[used]) - np.log(q[used]))))


def _binary_less_noisy(k1, k2) -> bool:
    """Two inputs (:func:`is_less_noisy`, step 3). With ``Q = (1 − t, t)``, ``Δ = K_1 −
    K_0`` and ``L_y(t) = K_0y + t Δ_y``: ``φ(t) = Σ_y Δ₁_y²/L₁_y(t) − Σ_y
    Δ₂_y²/L₂_y(t)``. Outputs only input 1 reaches give ``Δ_y / t`` exactly and those only
    input 0 reaches ``K_0y / (1 − t)``; they are gathered into ``c₀/t + c₁/(1 − t)``
    (a negative ``c`` is a counterexample near that end). Every term is convex in ``t``,
    so on ``[u, v]`` the first sum is above its tangent at the midpoint and the second
    below its chord: ``φ`` is above a line, a lower bound for branch and bound that is
    tight to second order (a tangency such as ε = 4δ(1 − δ) splits only to widths near
    ``√rtol``). Every term is also monotone, so each sum lies between the sums of its
    terms' end values: the bound that holds near the ends, where ``1/t`` grows."""
    parts = []
    ends = np.zeros(2)
    for sign, k in ((1.0, k1), (-1.0, k2)):
        start, delta = k[0], k[1] - k[0]
        moves = delta != 0
        only_one = moves & (start == 0)
        only_zero = moves & (k[1] == 0)
        ends += sign * np.array([delta[only_one].sum(), start[only_zero].sum()])
        regular = moves & ~only_one & ~only_zero
        parts.append((start[regular], delta[regular]))
    (s1, d1), (s2, d2) = parts
    scale = float(np.abs(ends).sum())
    if ends.min() < -LESS_NOISY_RTOL * max(scale, 1.0):
        return False

    positive = np.maximum(ends, 0.0)

    def first(t: float) -> tuple[float, float]:
        """``φ₁(t)`` with the positive end terms, and its derivative."""
        lengths = s1 + t * d1
        value = np.sum(d1 ** 2 / lengths) + positive[0] / t + positive[1] / (1 - t)
        slope = -np.sum(d1 ** 3 / lengths ** 2) - positive[0] / t ** 2 + positive[1] / (1 - t) ** 2
        return float(value), float(slope)

    def second(t: float) -> float:
        return float(np.sum(d2 ** 2 / (s2 + t * d2)))

    stack = [(0.0, 1.0)]
    for _ in range(LESS_NOISY_MAX_INTERVALS):
        if not stack:
            return True
        u, v = stack.pop()
        mid = 0.5 * (u + v)
        value, slope = first(mid)
        if value < second(mid) * (1 - LESS_NOISY_RTOL):
            return False
        # φ₁ is convex (above its tangent at mid), φ₂ convex (below its chord): their
        # difference is at least a linear function, checked at both ends.
        half = 0.5 * (v - u)
        high = max(second(u), second(v)) * (1 - LESS_NOISY_RTOL)
        if (value - slope * half >= second(u) * (1 - LESS_NOISY_RTOL)
                and value + slope * half >= second(v) * (1 - LESS_NOISY_RTOL)):
            continue
        # Or each term at its smaller end (tight where φ₁ is large: near an end).
        low = (np.minimum(d1 ** 2 / (s1 + u * d1), d1 ** 2 / (s1 + v * d1)).sum()
               + positive[0] / v + positive[1] / (1 - u))
        if low >= high:
            continue
        stack += [(u, mid), (mid, v)]
    raise SolverError(
        f"is_less_noisy's branch and bound over Q = (1 - t, t) did not finish within "
        f"{LESS_NOISY_MAX_INTERVALS} intervals.", status=Status.ITERATION_LIMIT)
