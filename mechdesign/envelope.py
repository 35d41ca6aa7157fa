"""Privacy profiles and failure probabilities (envelope paper, Saeidian, Pinzón, Palamidessi).

This module starts with Sec. II-B of the envelope paper: the DP privacy profile δ*(ε) of
a mechanism and the failure probability of DP it lower-bounds. The PML quantiles and
envelopes of the paper build on the same leakage random variables. Rows are inputs; nats.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from mechdesign._numerics import LOG_FLOAT_MAX, check_epsilon
from mechdesign.kernel import Mechanism, as_matrix

__all__ = ["dp_failure_probability", "privacy_profile"]


def privacy_profile(kernel: Mechanism | ArrayLike, epsilon: float) -> float:
    """The privacy profile δ*(ε): the least δ for which the kernel is (ε, δ)-DP.

    Envelope paper, Sec. II-B (Balle et al.'s privacy profile; eq. 3):

    .. math::

        \\delta^*(\\varepsilon) = \\max_{x, x'} \\max_{\\mathcal E \\subset \\mathcal Y}
            \\bigl(K_x(\\mathcal E) - e^\\varepsilon K_{x'}(\\mathcal E)\\bigr)
        = \\max_{x, x'} \\sum_y \\bigl(K[x, y] - e^\\varepsilon K[x', y]\\bigr)^+ ,

    the best event being ``{y : K[x, y] > e^ε K[x', y]}``; this is the hockey-stick
    divergence ``E_{e^ε}(K_x ‖ K_{x'})`` (f_α paper, Definition 2). ``ε = ∞`` gives the
    largest mass a row puts where another row is zero (0 for a kernel with finite LDP).
    """
    k = as_matrix(kernel)
    eps = check_epsilon(epsilon)
    if math.isinf(eps):
        # Only outputs that x' never produces count.
        return float(np.max(np.where(k[None, :, :] == 0, k[:, None, :], 0.0).sum(axis=2)))
    growth = math.exp(eps) if eps < LOG_FLOAT_MAX else math.inf
    with np.errstate(invalid="ignore"):  # inf · 0 where K[x', y] = 0: the excess is K[x, y]
        excess = k[:, None, :] - growth * k[None, :, :]  # [x, x', y]
        excess = np.where(k[None, :, :] == 0, k[:, None, :], excess)
    return float(np.maximum(excess, 0.0).sum(axis=2).max())


def dp_failure_probability(kernel: Mechanism | ArrayLike, epsilon: float) -> float:
    """The worst-case failure probability of ε-DP, ``max_{x,x'} P_{Y|X=x}{L_{x,x'}(Y) > ε}``.

    Envelope paper, Sec. II-B, with the privacy loss ``L_{x,x'}(y) = log(K[x, y] /
    K[x', y])`` (``+∞`` where only ``x'`` cannot produce y). Always at least
    :func:`privacy_profile` (the penalty ``1 − e^ε/e^L`` in eq. 3 is at most 1), so δ
    in (ε, δ)-DP only lower-bounds it; in the other direction (ε, δ)-DP bounds it at
    ``kε`` by ``δ / (1 − e^{−(k−1)ε})`` for every integer ``k ≥ 2`` (eq. 4).
    """
    k = as_matrix(kernel)
    eps = check_epsilon(epsilon)
    with np.errstate(divide="ignore", invalid="ignore"):
        log_k = np.log(k)
        loss = log_k[:, None, :] - log_k[None, :, :]  # [x, x', y]; −inf − (−inf) = nan
        exceeds = (k[:, None, :] > 0) & ~(loss <= eps)  # nan only where K[x, y] = 0
    return float(np.where(exceeds, k[:, None, :], 0.0).sum(axis=2).max())


