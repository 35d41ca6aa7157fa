"""Contraction coefficients of mechanisms and their closed-form bounds.

This module starts with the two pieces the design engine needs: the Dobrushin
coefficient of a kernel and the closed-form maximal Dobrushin coefficient Ξ(ε, c) of
Theorem 1 of the Dobrushin paper (Grosse, Saeidian, Oechtering, Skoglund).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from mechdesign._numerics import check_c, check_epsilon, check_positive_int
from mechdesign.kernel import Mechanism, as_matrix

__all__ = ["dobrushin_bound", "dobrushin_coefficient"]


def dobrushin_coefficient(kernel: Mechanism | ArrayLike) -> float:
    """The Dobrushin coefficient ``η_TV(K)``, Dobrushin paper eq. (9):

    .. math::

        \\eta_{TV}(K) = \\max_{x \\ne x'} \\mathrm{TV}(K[x, :], K[x', :])
                     = \\max_{x, x'} \\tfrac12 \\|K[x, :] - K[x', :]\\|_1 .

    It is the contraction coefficient of total variation, and every f-divergence
    contraction coefficient is at most it. A kernel with one input has coefficient 0.
    """
    k = as_matrix(kernel)
    # All row pairs at once: (N, N, M) is small for the alphabets this library handles;
    # fall back to a loop over rows when it would not be.
    n, m = k.shape
    if n * n * m <= 4_000_000:
        return float(0.5 * np.abs(k[:, None, :] - k[None, :, :]).sum(axis=2).max())
    return float(max(0.5 * np.abs(k - k[i]).sum(axis=1).max() for i in range(n)))


def dobrushin_bound(epsilon: float, c: float, n: int) -> float:
    """Ξ(ε, c), the maximal Dobrushin coefficient under (ε,c)-PML on ``n`` inputs.

    Dobrushin paper, Theorem 1 (eq. 6); the value is attained (Theorems 2–3):

    .. math::

        \\Xi(\\varepsilon, c) = \\min\\left\\{
        \\frac{e^\\varepsilon - 1}{e^\\varepsilon (1 - Nc) + 1},\\ 1 \\right\\}.

    The first term reaches 1 exactly at ``ε = log(2/(Nc))`` and exceeds it beyond
    (Theorem 2), hence the ``min``. ``c → 0`` gives the LDP value
    ``(e^ε − 1)/(e^ε + 1)`` (Kairouz et al., eq. 13); ``c = 1/N`` gives
    ``min(e^ε − 1, 1)`` (Remark 1).

    Parameters
    ----------
    epsilon : float
        ε ≥ 0; ``math.inf`` gives 1.
    c : float
        0 < c ≤ 1/n.
    n : int
        Number of inputs N ≥ 1.
    """
    eps = check_epsilon(epsilon)
    n_val = check_positive_int(n, "n")
    c_val = check_c(c, n_val)
    if math.isinf(eps):
        return 1.0
    # Divide numerator and denominator by e^ε so large ε does not overflow.
    value = -math.expm1(-eps) / ((1.0 - n_val * c_val) + math.exp(-eps))
    return min(value, 1.0)
