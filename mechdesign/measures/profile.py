"""The ε-DP privacy profile of a given kernel: ``δ(ε)``, the hockey-stick divergence
between its worst pair of rows, and its inverse ``ε(δ)``. A kernel is (ε, δ)-DP for one
individual's value exactly when ``δ ≥ δ(ε)`` (the envelope paper, Sec. II-B; the name is
Balle, Barthe and Gaboardi's, "Privacy amplification by subsampling: tight analyses via
couplings and divergences", NeurIPS 2018). Rows are inputs; nats.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from mechdesign._validation import (
    check_delta,
    check_epsilon,
    exp_or_inf,
)
from mechdesign.kernel import as_matrix
from mechdesign.measures.leakage import KernelLike

__all__ = ["dp_epsilon", "dp_failure_probability", "privacy_profile"]


def privacy_profile(kernel: KernelLike, epsilon: float) -> float:
    """The privacy profile δ*(ε): the least δ for which the kernel is (ε, δ)-DP.

    Envelope paper [1]_, Sec. II-B (Balle et al.'s privacy profile [2]_; eq. 3):

    .. math::

        \\delta^*(\\varepsilon) = \\max_{x, x'} \\max_{\\mathcal E \\subset \\mathcal Y}
            \\bigl(K_x(\\mathcal E) - e^\\varepsilon K_{x'}(\\mathcal E)\\bigr)
        = \\max_{x, x'} \\sum_y \\bigl(K[x, y] - e^\\varepsilon K[x', y]\\bigr)^+ ,

    the best event being ``{y : K[x, y] > e^ε K[x', y]}``; this is the hockey-stick
    divergence ``E_{e^ε}(K_x ‖ K_{x'})`` (f_α paper [3]_, Definition 2). ``ε = ∞`` gives the
    largest mass a row puts where another row is zero (0 for a kernel with finite LDP).

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        The mechanism ``K[x, y] = P(Y=y | X=x)``: N inputs (rows), M outputs; an array
        must be finite, non-negative and row-stochastic (rows sum to 1 within
        ``STOCHASTIC_ATOL``), else InvalidInputError.
    epsilon : float
        ε in nats, ``ε ≥ 0`` (not ``e^ε``); ``math.inf`` allowed.

    Returns
    -------
    float
        ``δ*(ε)`` in [0, 1].

    References
    ----------
    .. [1] S. Saeidian, C. Pinzón, C. Palamidessi, "Information Leakage Envelopes", 2026,
       arXiv:2605.21185.
    .. [2] B. Balle, G. Barthe, M. Gaboardi, "Privacy Amplification by Subsampling: Tight Analyses
       via Couplings and Divergences", NeurIPS 2018, arXiv:1807.01647 (journal version: "Privacy
       Profiles and Amplification by Subsampling", Journal of Privacy and Confidentiality 10(1),
       2020).
    .. [3] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Bounds on the Privacy
       Amplification of Arbitrary Channels via the Contraction of f_α-Divergence", Allerton
       Conference 2025, arXiv:2501.11473.
    """
    k = as_matrix(kernel)
    eps = check_epsilon(epsilon)
    if math.isinf(eps):
        # Only outputs that x' never produces count.
        return float(np.max(np.where(k[None, :, :] == 0, k[:, None, :], 0.0).sum(axis=2)))
    growth = exp_or_inf(eps)
    with np.errstate(invalid="ignore"):  # inf · 0 where K[x', y] = 0: the excess is K[x, y]
        excess = k[:, None, :] - growth * k[None, :, :]  # [x, x', y]
        excess = np.where(k[None, :, :] == 0, k[:, None, :], excess)
    return float(np.maximum(excess, 0.0).sum(axis=2).max())


def _pairexp_or_inf(row: NDArray[np.float64], other: NDArray[np.float64], delta: float) -> float:
    """The least ``λ ≥ 1`` with ``Σ_y (row − λ·other)^+ ≤ δ`` (``inf`` if none).

    The left side is convex, piecewise linear and non-increasing in λ, with breakpoints
    at the ratios ``row/other``; it is linear between consecutive ones, so the crossing
    is solved exactly on its segment.
    """
    unreachable = float(row[other == 0].sum())  # mass x' can never cover
    if unreachable > delta:
        return math.inf
    live = (other > 0) & (row > 0)
    ratio = row[live] / other[live]
    order = np.argsort(-ratio)
    ratio, a, b = ratio[order], np.cumsum(row[live][order]), np.cumsum(other[live][order])
    # On [ratio[i+1], ratio[i]] the profile is unreachable + a[i] − λ b[i].
    at_breakpoints = unreachable + a - ratio * b  # value at each breakpoint, non-decreasing
    i = int(np.searchsorted(at_breakpoints, delta, side="right"))  # first breakpoint > δ
    if i == ratio.shape[0]:  # the profile stays ≤ δ down to λ = 0
        return 1.0
    # The crossing lies on the segment ending at breakpoint i (value a[i-1] − λ b[i-1]).
    growth = (unreachable + a[i - 1] - delta) / b[i - 1] if i > 0 else ratio[0]
    return max(float(growth), 1.0)


def dp_epsilon(kernel: KernelLike, delta: float) -> float:
    """The least ε ≥ 0 with the kernel (ε, δ)-DP (eq. 2): the inverse of the privacy
    profile, ``ε(δ) = inf{ε ≥ 0 : δ*(ε) ≤ δ}`` (envelope paper [1]_, Sec. II-B and V-B).

    Exact: for each ordered pair of inputs the profile ``Σ_y (K[x,y] − e^ε K[x',y])^+`` is
    piecewise linear in ``e^ε`` and is inverted on its segment. ``math.inf`` when some
    pair puts more than δ where the other is zero. For k-RR this is Balle et al.'s [2]_
    ``max{log((α − δ)/β), 0}`` (Sec. V-B).

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        The mechanism ``K[x, y] = P(Y=y | X=x)``: N inputs (rows), M outputs; an array
        must be finite, non-negative and row-stochastic (rows sum to 1 within
        ``STOCHASTIC_ATOL``), else InvalidInputError.
    delta : float
        The failure probability δ, in the open interval (0, 1).

    Returns
    -------
    float
        ``ε(δ)`` in nats, ``≥ 0``; ``math.inf`` as described above.

    References
    ----------
    .. [1] S. Saeidian, C. Pinzón, C. Palamidessi, "Information Leakage Envelopes", 2026,
       arXiv:2605.21185.
    .. [2] B. Balle, G. Barthe, M. Gaboardi, "Privacy Amplification by Subsampling: Tight Analyses
       via Couplings and Divergences", NeurIPS 2018, arXiv:1807.01647 (journal version: "Privacy
       Profiles and Amplification by Subsampling", Journal of Privacy and Confidentiality 10(1),
       2020).
    """
    k = as_matrix(kernel)
    d = check_delta(delta)
    n = k.shape[0]
    growth = max(
        (_pairexp_or_inf(k[x], k[x_other], d) for x in range(n) for x_other in range(n)),
        default=1.0,
    )
    return math.log(growth) if math.isfinite(growth) else math.inf


def dp_failure_probability(kernel: KernelLike, epsilon: float) -> float:
    """The worst-case failure probability of ε-DP, ``max_{x,x'} P_{Y|X=x}{L_{x,x'}(Y) > ε}``.

    Envelope paper [1]_, Sec. II-B, with the privacy loss ``L_{x,x'}(y) = log(K[x, y] /
    K[x', y])`` (``+∞`` where only ``x'`` cannot produce y). Always at least
    :func:`privacy_profile` (the penalty ``1 − e^ε/e^L`` in eq. 3 is at most 1), so δ
    in (ε, δ)-DP only lower-bounds it; in the other direction (ε, δ)-DP bounds it at
    ``kε`` by ``δ / (1 − e^{−(k−1)ε})`` for every integer ``k ≥ 2`` (eq. 4).

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        The mechanism ``K[x, y] = P(Y=y | X=x)``: N inputs (rows), M outputs; an array
        must be finite, non-negative and row-stochastic (rows sum to 1 within
        ``STOCHASTIC_ATOL``), else InvalidInputError.
    epsilon : float
        ε in nats, ``ε ≥ 0``; ``math.inf`` allowed (then only ``L = +∞`` counts).

    Returns
    -------
    float
        The failure probability, in [0, 1].

    References
    ----------
    .. [1] S. Saeidian, C. Pinzón, C. Palamidessi, "Information Leakage Envelopes", 2026,
       arXiv:2605.21185.
    """
    k = as_matrix(kernel)
    eps = check_epsilon(epsilon)
    with np.errstate(divide="ignore", invalid="ignore"):
        log_k = np.log(k)
        loss = log_k[:, None, :] - log_k[None, :, :]  # [x, x', y]; −inf − (−inf) = nan
        exceeds = (k[:, None, :] > 0) & ~(loss <= eps)  # nan only where K[x, y] = 0
    return float(np.where(exceeds, k[:, None, :], 0.0).sum(axis=2).max())
