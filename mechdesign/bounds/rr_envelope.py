"""The PML envelope of k-ary randomized response: Theorem 5 of the envelope paper
(Saeidian, Pinzón, Palamidessi, *Information leakage envelopes*, Sec. V-B), with App.
C-B's binary envelope and Balle et al.'s DP level beside it. Levels are in nats.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mechdesign._tolerances import QUANTILE_MASS_ATOL
from mechdesign._validation import as_distribution, check_delta, check_epsilon, show
from mechdesign.errors import InvalidInputError

__all__ = ["RandomizedResponseEnvelope", "randomized_response_envelope"]


@dataclass(frozen=True)
class RandomizedResponseEnvelope:
    """Theorem 5 of the envelope paper for k-RR, with App. C-B's binary envelope.

    Returned by :func:`randomized_response_envelope` ([1]_, Sec. V-B); its fields are the
    constructor's parameters, not validated here. Levels are in nats.

    Parameters
    ----------
    lower : float
        A lower bound on ε_c(δ): Theorem 5 (iii)'s h_δ(θ) where its prior condition holds,
        and for every prior ``max{ℓ(X → N), construction}`` (see
        :func:`randomized_response_envelope`); ``log(α/q_1)`` (exact) for δ ≤ q_1.
    upper : float
        Theorem 5 (ii): ``min{log(kα/δ), log(α/q_1)}``.
    binary : float
        ε_b(δ) in closed form: ``log(α/q_1)`` for δ ≤ q_1, else
        ``log((α + (N − 2 + θ)β)/δ)`` (App. C-B).
    dp_epsilon : float
        Balle et al.'s ``max{log((α − δ)/β), 0}`` [2]_: k-RR is (ε_DP(δ), δ)-DP.
    n : int
        The index N with ``Σ_{j<N} q_j < δ ≤ Σ_{j≤N} q_j`` (1 when δ ≤ q_1), for the
        prior sorted ascending.
    theta, theta1, theta2 : float
        θ and the regime boundaries θ₁, θ₂ (both 0 when δ ≤ q_1: with N = 1 every θ
        lies in the third regime, whose ``h = log(α/q_1)`` is (i)).
    prior_condition : bool
        Condition (20), ``p_N ≤ (α Σ_{j<N} p_j + β) / ((N − 2)α + β)``, under which all
        three regimes of h_δ can occur (``True`` when δ ≤ q_1, where it is not needed).
    alpha, beta : float
        The k-RR probabilities ``e^ε/(e^ε + k − 1)`` and ``1/(e^ε + k − 1)``.
    q : ndarray, shape (k,)
        The output distribution ``q_j = β + (α − β)p_j`` for the sorted prior, ascending;
        outcome j leaks ``log(α/q_j)``.

    References
    ----------
    .. [1] S. Saeidian, C. Pinzón, C. Palamidessi, "Information Leakage Envelopes", 2026,
       arXiv:2605.21185.
    .. [2] B. Balle, G. Barthe, M. Gaboardi, "Privacy Amplification by Subsampling: Tight
       Analyses via Couplings and Divergences", NeurIPS 2018, arXiv:1807.01647.
    """

    lower: float
    upper: float
    binary: float
    dp_epsilon: float
    n: int
    theta: float
    theta1: float
    theta2: float
    prior_condition: bool
    alpha: float
    beta: float
    q: NDArray[np.float64]


def randomized_response_envelope(
    epsilon_r: float, prior: ArrayLike, delta: float
) -> RandomizedResponseEnvelope:
    """Theorem 5 of the envelope paper: bounds on the PML envelope of k-RR.

    With ``α = e^ε/(e^ε + k − 1)``, ``β = 1/(e^ε + k − 1)``, the prior sorted so that
    ``p_1 ≤ … ≤ p_k`` (k-RR is symmetric, so the envelope does not depend on the
    labelling), ``q_j = β + (α − β)p_j`` and ``ℓ(X → j) = log(α/q_j)``:

    (i) δ ≤ q_1: ``ε_c(δ) = log(α/q_1)``.
    (ii) ``ε_c(δ) ≤ min{log(kα/δ), log(α/q_1)}``.
    (iii) with N and θ as in :class:`RandomizedResponseEnvelope`,

    .. math::

        h_\\delta(\\theta) = \\begin{cases}
            \\log(\\alpha/q_{N-1}) & 0 < \\theta \\le \\theta_1, \\\\
            \\log\\frac{(N-1)\\alpha + \\theta\\beta}{\\delta}
                & \\theta_1 < \\theta \\le \\theta_2, \\\\
            \\log(\\alpha/q_N) & \\theta_2 < \\theta \\le 1,
        \\end{cases}

    ``θ₁ = α((N−2)q_{N−1} − Σ_{j≤N−2} q_j)/(αq_N − βq_{N−1})``,
    ``θ₂ = α((N−1)q_N − Σ_{j≤N−1} q_j)/(q_N(α − β))``.

    The paper states (iii) under the prior condition (20). Its proof gives more: the
    post-processing of the proof attains ``log(α/q_{N−1})`` for θ ≤ θ₁ and
    ``log(((N−1)α + θβ)/δ)`` for θ > θ₁ whatever the prior, and ``ℓ(X → N) = ε̄_Y(δ)``
    is always a lower bound, so ``lower = max{ℓ(X → N), construction}`` is valid for
    every prior and equals h_δ(θ) under (20) (our choice: we report the general form;
    ``prior_condition`` says whether the paper's statement applies). The degenerate cases
    of the paper (N = 2 or ``q_1 = … = q_{N−1}``: θ₁ = 0; ``q_{N−1} = q_N``: θ₁ = θ₂)
    need no special handling in this form.

    Parameters
    ----------
    epsilon_r : float
        The LDP level ε of k-RR in nats; it must be positive and finite.
    prior : array_like, shape (k,)
        The input distribution, ``k ≥ 2`` entries, non-negative and summing to 1 (in any
        order: it is sorted here).
    delta : float
        The probability δ, in the open interval (0, 1).

    Returns
    -------
    RandomizedResponseEnvelope
        The bounds with θ, N and the k-RR probabilities they are built from, and the
        (ε, δ)-DP level of k-RR [2]_.

    References
    ----------
    .. [1] S. Saeidian, C. Pinzón, C. Palamidessi, "Information Leakage Envelopes", 2026,
       arXiv:2605.21185.
    .. [2] B. Balle, G. Barthe, M. Gaboardi, "Privacy Amplification by Subsampling: Tight
       Analyses via Couplings and Divergences", NeurIPS 2018, arXiv:1807.01647.
    """
    eps = check_epsilon(epsilon_r, "epsilon_r")
    if not 0 < eps < math.inf:
        raise InvalidInputError(f"epsilon_r must be positive and finite; got {show(epsilon_r)}.")
    p = np.sort(as_distribution(prior, "prior"))
    k = p.shape[0]
    if k < 2:
        raise InvalidInputError(f"prior must have k >= 2 entries for k-RR; got {k}.")
    d = check_delta(delta)
    # α = 1/(1 + (k−1)e^{−ε}), β = e^{−ε} α and α − β = −expm1(−ε) α: no overflow for a
    # large ε (β underflows to 0 from ε ≈ 745, where k-RR is the identity in floats), and
    # α − β keeps its digits for a tiny ε (the plain difference is 0 below ε ≈ 1e-16).
    shrink = math.exp(-eps)
    alpha = 1.0 / (1.0 + (k - 1) * shrink)
    beta = shrink * alpha
    gap = -math.expm1(-eps) * alpha  # α − β
    log_alpha = -math.log1p((k - 1) * shrink)
    log_beta = -eps + log_alpha
    q = beta + gap * p
    q.setflags(write=False)
    leak_max = _rr_leakage(float(p[0]), eps)  # log(α/q_1)
    upper = min(math.log(k) + log_alpha - math.log(d), leak_max)
    dp = max(math.log(alpha - d) - log_beta, 0.0) if d < alpha else 0.0
    if d <= q[0] + QUANTILE_MASS_ATOL:
        # N = 1: θ₁ = θ₂ = 0, so every θ lies in the third regime, whose
        # h = log(α/q_N) = log(α/q_1) is (i).
        return RandomizedResponseEnvelope(
            leak_max, upper, leak_max, dp, 1, float(d / q[0]) if q[0] > 0 else 1.0,
            0.0, 0.0, True, alpha, beta, q,
        )
    cum = np.cumsum(q)
    big_n = int(np.searchsorted(cum, d - QUANTILE_MASS_ATOL)) + 1  # 1-based N ≥ 2
    big_n = min(max(big_n, 2), k)
    before = cum[big_n - 2]
    q_n = q[big_n - 1]
    theta = min((d - before) / q_n, 1.0)
    # θ₁, θ₂ with the common factor α − β of numerator and denominator cancelled
    # (q_j = β + (α − β)p_j), so they stay exact as ε → 0 where α − β vanishes:
    # θ₁ = α((N−2)p_{N−1} − Σ_{j≤N−2} p_j)/(β(1 − p_{N−1}) + αp_N),
    # θ₂ = α((N−1)p_N − Σ_{j≤N−1} p_j)/q_N.
    p_n, p_prev = p[big_n - 1], p[big_n - 2]
    theta1 = alpha * ((big_n - 2) * p_prev - p[: big_n - 2].sum()) / (
        beta * (1.0 - p_prev) + alpha * p_n
    )
    theta2 = alpha * ((big_n - 1) * p_n - p[: big_n - 1].sum()) / q_n
    # Condition (20) multiplied out (its denominator is 0 for N = 2 once β underflows).
    scale = (big_n - 2) * alpha + beta
    condition = bool(
        p[big_n - 1] * scale
        <= alpha * p[: big_n - 1].sum() + beta + QUANTILE_MASS_ATOL * scale
    )
    if theta <= theta1:
        construction = _rr_leakage(float(p_prev), eps)
    else:
        construction = math.log(((big_n - 1) * alpha + theta * beta) / d)
    lower = max(_rr_leakage(float(p_n), eps), construction)
    binary = math.log((alpha + (big_n - 2 + theta) * beta) / d)
    return RandomizedResponseEnvelope(
        lower,
        upper,
        binary,
        dp,
        big_n,
        float(theta),
        float(theta1),
        float(theta2),
        condition,
        alpha,
        beta,
        q,
    )


def _rr_leakage(p_j: float, eps: float) -> float:
    """``ℓ(X → j) = log(α/q_j) = −log(e^{−ε} + (1 − e^{−ε}) p_j)`` for k-RR, accurate for
    a tiny ε (as ``−log1p(expm1(−ε)(1 − p_j))``) and for a huge one (a log-sum, which is
    ε exactly when ``p_j = 0``, where ``q_j`` underflows)."""
    x = math.expm1(-eps) * (1.0 - p_j)  # q_j/α − 1, in (−1, 0]
    if x > -0.5:
        return -math.log1p(x)
    if p_j == 0:
        return eps
    return -float(np.logaddexp(-eps, math.log1p(-math.exp(-eps)) + math.log(p_j)))
