"""Trade-off curves of finite kernels and their dominating pair.

A kernel ``K`` used by one individual is ε-LDP, and more finely (ε, δ)-DP for every ε
with δ its privacy profile ``δ*(ε) = max_{x,x'} Σ_y (K[x,y] − e^ε K[x',y])^+``
(:func:`~mechdesign.measures.profile.privacy_profile`). Composing ``n`` uses needs more
than the profile at one ε: it needs a *dominating pair* — two distributions ``(P, Q)``
whose hockey-stick curve ``ε ↦ Σ_o (Q(o) − e^ε P(o))^+`` equals ``δ*`` at every ε —
because the n-fold composition of such a pair dominates the n-fold use of the kernel
(Zhu, Dong & Wang [1]_, Def. 7 and Thm. 10; :mod:`mechdesign.accounting.composition`
composes it). For an ``N``-input kernel no single row pair need be one: the worst pair
depends on ε.

**The dominating pair of a finite kernel** (:func:`dominating_pair`). In the hypothesis
testing view (Dong, Roth & Su [2]_), the pair
of rows ``(K_x, K_{x'})`` has the trade-off function ``T_{x,x'}(α)``, the least type II
error of a test of type I error α; for finite distributions it is piecewise linear,
through the points ``(Σ_{o∈S} K_x(o), 1 − Σ_{o∈S} K_{x'}(o))`` of the Neyman–Pearson
sets ``S`` (outputs by decreasing ratio ``K_{x'}/K_x``). The kernel is ``f``-DP for
``f`` = the lower convex envelope of ``min_{x≠x'} T_{x,x'}`` (Dong–Roth–Su, Prop. 2.2
and the convexity of trade-off functions), and the convex conjugate of an envelope of a
minimum is the maximum of the conjugates, so ``f``'s profile ``1 + f^*(−e^ε)`` (their
Prop. 2.12) is ``max_{x,x'} δ_{x,x'}(ε) = δ*(ε)`` — exactly. The envelope is the lower
convex hull of every pair's breakpoints (:func:`tradeoff_curve`); each segment of it,
from ``(α_{i−1}, β_{i−1})`` to ``(α_i, β_i)``, becomes one outcome with ``P = α_i −
α_{i−1}`` and ``Q = β_{i−1} − β_i``, and then ``T(P, Q) = f``. Outcomes of equal
likelihood ratio are merged (the hull keeps no collinear points).

References
----------
.. [1] Y. Zhu, J. Dong, Y.-X. Wang, "Optimal Accounting of Differential Privacy via
   Characteristic Function", AISTATS 2022, arXiv:2106.08567.
.. [2] J. Dong, A. Roth, W. J. Su, "Gaussian Differential Privacy", Journal of the Royal
   Statistical Society Series B, 2022, arXiv:1905.02383.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mechdesign._tolerances import COLLINEAR_ATOL
from mechdesign._validation import (
    check_epsilon,
)
from mechdesign.errors import InvalidInputError
from mechdesign.kernel import Mechanism, as_matrix

__all__ = ["DominatingPair", "dominating_pair", "tradeoff_curve"]


def _pair_breakpoints(p: NDArray[np.float64], q: NDArray[np.float64]) -> NDArray[np.float64]:
    """The breakpoints ``(α, β)`` of ``T(P, Q)``: Neyman–Pearson sets of outputs by
    decreasing ``q/p`` (outputs with ``p = 0`` first), from ``(0, 1)`` to ``(1, 0)``."""
    # The ratio in logs: q/p overflows for a subnormal p (5e-324), its log does not.
    with np.errstate(divide="ignore"):
        log_q, log_p = np.log(q), np.log(np.where(p > 0, p, 1.0))
    log_ratio = np.where(p > 0, log_q - log_p, np.inf)
    keep = (p > 0) | (q > 0)
    order = np.argsort(-log_ratio[keep], kind="stable")
    alpha = np.concatenate([[0.0], np.cumsum(p[keep][order])])
    # β is the Q-mass not yet rejected, summed from the far end (exactly 0 at the end);
    # before anything is rejected it is 1 by definition.
    beta = np.concatenate([[1.0], np.cumsum(q[keep][order][::-1])[::-1][1:], [0.0]])
    return np.column_stack([np.minimum(alpha, 1.0), beta])


def _lower_hull(points: NDArray[np.float64]) -> NDArray[np.float64]:
    """The lower convex hull of points in the unit square, by increasing α (Andrew's
    monotone chain). Points within :data:`COLLINEAR_ATOL` of collinear are dropped, which
    merges outcomes whose likelihood ratios agree up to rounding (k-RR's ``k − 2``
    outputs of ratio 1); merging two outcomes changes no hockey-stick value by more than
    that tolerance."""
    pts = points[np.lexsort((points[:, 1], points[:, 0]))]
    hull: list[NDArray[np.float64]] = []
    for point in pts:
        if hull and hull[-1][0] == point[0]:
            # The same α (exactly), higher β: above the hull. Checked first: the cross
            # product of points a subnormal α apart is below COLLINEAR_ATOL whatever
            # their β, and would pop the lower one.
            continue
        while len(hull) >= 2:
            (a0, b0), (a1, b1) = hull[-2], hull[-1]
            cross = (a1 - a0) * (point[1] - b0) - (b1 - b0) * (point[0] - a0)
            if cross <= COLLINEAR_ATOL:
                hull.pop()
            else:
                break
        hull.append(point)
    return np.array(hull)


def tradeoff_curve(kernel: Mechanism | ArrayLike) -> NDArray[np.float64]:
    """The kernel's trade-off function: the lower convex envelope of the trade-off
    functions ``T(K_x, K_{x'})`` of all ordered pairs of distinct rows (module docstring),
    in the hypothesis-testing view of Dong, Roth & Su [1]_.

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        Row-stochastic, rows are inputs; ``N ≥ 2`` (one row has no pair to test).

    Returns
    -------
    ndarray, shape=(m, 2)
        Its breakpoints ``(α, β)`` — type I and type II error — by increasing α, from
        ``α = 0`` to ``(1, 0)``; the function is linear between them. A kernel with
        ``LDP(K) = ε`` has ``β ≥ max(1 − e^ε α, e^{−ε}(1 − α))``.

    References
    ----------
    .. [1] J. Dong, A. Roth, W. J. Su, "Gaussian Differential Privacy", Journal of the Royal
       Statistical Society Series B, 2022, arXiv:1905.02383.
    """
    k = as_matrix(kernel)
    n = k.shape[0]
    if n < 2:
        raise InvalidInputError(f"the kernel needs at least 2 inputs (rows); got {n}.")
    points = [_pair_breakpoints(k[x], k[y]) for x in range(n) for y in range(n) if x != y]
    return _lower_hull(np.vstack(points))


@dataclass(frozen=True)
class DominatingPair:
    """Two finite distributions ``(P, Q)`` whose hockey-stick curve
    ``δ(ε) = Σ_o (Q(o) − e^ε P(o))^+`` is the kernel's privacy profile (module
    docstring; the notion of a dominating pair is Zhu, Dong & Wang's [1]_, Def. 7).
    Outcomes are ordered by decreasing ``Q/P``.

    Parameters
    ----------
    p, q : ndarray, shape (m,)
        The lower and the upper distribution (dp_accounting's ``mu_lower`` and
        ``mu_upper``), on the same ``m`` outcomes; each sums to one.

    References
    ----------
    .. [1] Y. Zhu, J. Dong, Y.-X. Wang, "Optimal Accounting of Differential Privacy via
           Characteristic Function", AISTATS 2022, arXiv:2106.08567.
    """

    p: NDArray[np.float64]
    q: NDArray[np.float64]

    def hockey_stick(self, epsilon: float) -> float:
        """``Σ_o (Q(o) − e^ε P(o))^+`` (``ε = ∞``: the mass of ``Q`` where ``P = 0``)."""
        eps = check_epsilon(epsilon)
        if math.isinf(eps):
            return float(self.q[self.p == 0].sum())
        # Divided through by e^ε where it is large: no overflow.
        with np.errstate(over="ignore"):
            growth = math.exp(eps) if eps < 700 else math.inf
        with np.errstate(invalid="ignore"):  # inf · 0 in the branch np.where drops
            excess = np.where(self.p > 0, self.q - growth * self.p, self.q)
        return float(np.maximum(excess, 0.0).sum())


def dominating_pair(kernel: Mechanism | ArrayLike) -> DominatingPair:
    """The dominating pair of a finite kernel, from its trade-off envelope
    (:func:`tradeoff_curve`; module docstring for the proof). For k-RR it is
    ``((1, k − 2, e^ε), (e^ε, k − 2, 1))/(e^ε + k − 1)``: the worst row pair, with the
    ``k − 2`` outputs of ratio 1 merged.

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        Row-stochastic, rows are inputs; ``N ≥ 2``.

    Returns
    -------
    DominatingPair
        Its hockey-stick curve is the kernel's privacy profile at every ε; it dominates
        every pair of rows in the sense of Zhu, Dong & Wang [1]_ (Def. 7, Thm. 10).

    References
    ----------
    .. [1] Y. Zhu, J. Dong, Y.-X. Wang, "Optimal Accounting of Differential Privacy via
           Characteristic Function", AISTATS 2022, arXiv:2106.08567.
    """
    curve = tradeoff_curve(kernel)
    alpha, beta = curve[:, 0], curve[:, 1]
    p = np.diff(alpha)
    q = -np.diff(beta)
    if beta[0] < 1.0:  # outcomes only Q produces: type II error below 1 at α = 0
        p = np.concatenate([[0.0], p])
        q = np.concatenate([[1.0 - beta[0]], q])
    p, q = np.maximum(p, 0.0), np.maximum(q, 0.0)
    keep = (p > 0) | (q > 0)
    p, q = p[keep], q[keep]
    return DominatingPair(p / p.sum(), q / q.sum())
