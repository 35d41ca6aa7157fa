"""η_χ² of a given kernel: the largest χ²-contraction over priors, through Rényi's maximal
correlation, ``η_χ²(K) = sup_P ρ_m²`` (Dobrushin paper eq. 24; Polyanskiy & Wu,
*Information Theory*, Thm 33.6). The Dobrushin coefficient η_TV of a given kernel is
:func:`~mechdesign.measures.leakage.dobrushin_coefficient`. Rows are inputs.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.optimize import minimize

from mechdesign._tolerances import (
    CORRELATION_SEARCH_FATOL,
    CORRELATION_SEARCH_XATOL,
    CORRELATION_WEIGHT_FLOOR,
)
from mechdesign._validation import (
    as_distribution,
    check_seed,
    check_size,
)
from mechdesign.kernel import Mechanism, as_matrix
from mechdesign.measures.leakage import dobrushin_coefficient

__all__ = [
    "BOUNDARY_PRIOR_WEIGHTS",
    "MAX_CORRELATION_STARTS",
    "ChiSquaredContraction",
    "chi_squared_contraction",
    "maximal_correlation",
]

#: Weights a of the near-point-mass starting priors a·e_x + (1 − a)·e_x' in the search for
#: η_χ²: suprema approached as a → 0 are then found to within about a (well above the
#: floor, so no precision is lost in P_Y).
BOUNDARY_PRIOR_WEIGHTS = (1e-3, 1e-6, 1e-9)

#: The most random starts :func:`chi_squared_contraction` takes: each of the best
#: ``n_starts`` is refined by a Nelder–Mead search, so far more would run for hours.
MAX_CORRELATION_STARTS = 10_000


@dataclass(frozen=True)
class ChiSquaredContraction:
    """A certified lower bound on ``η_χ²(K) = sup_P ρ_m²(X; Y)``.

    Parameters
    ----------
    lower_bound : float
        ``ρ_m²`` at :attr:`prior`, a lower bound on η_χ² (exact when the search found the
        supremum; 1 exactly when two rows have disjoint supports).
    prior : ndarray, shape (N,)
        The prior attaining it (the certificate: recompute ``ρ_m²`` there).
    dobrushin_coefficient : float
        ``η_TV(K)``, an upper bound on η_χ² (Polyanskiy & Wu, Thm 33.6).
    n_starts : int
        Number of starting priors of the local search.
    """

    lower_bound: float
    prior: NDArray[np.float64]
    dobrushin_coefficient: float
    n_starts: int


def maximal_correlation(kernel: Mechanism | ArrayLike, prior: ArrayLike) -> float:
    """Rényi's maximal correlation ``ρ_m(X; Y)`` of the joint ``K × P``.

    The second largest singular value of ``B[x, y] = P(x) K[x, y] / √(P(x) P_Y(y))``
    (Witsenhausen 1975; Polyanskiy & Wu, Thm 33.6), over the supports of P and P_Y; the
    largest is 1 (singular vectors ``√P``, ``√P_Y``). 0 when X or Y is constant.

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        The mechanism ``K[x, y] = P(Y=y | X=x)``: N inputs (rows), M outputs; an array
        must be finite, non-negative and row-stochastic (rows sum to 1 within
        ``STOCHASTIC_ATOL``), else InvalidInputError.
    prior : array_like, shape (N,)
        The input distribution ``P_X``: non-negative, summing to 1 within
        ``STOCHASTIC_ATOL`` (never renormalised); zero entries are allowed (the inputs
        outside the support are left out).

    Returns
    -------
    float
        ``ρ_m(X; Y)`` in [0, 1].
    """
    k = as_matrix(kernel)
    p = as_distribution(prior, "prior", k.shape[0])
    return _maximal_correlation(k, p)


def _maximal_correlation(k: NDArray[np.float64], p: NDArray[np.float64]) -> float:
    rows = p > 0
    k = k[rows]
    p = p[rows]
    p_y = p @ k
    cols = p_y > 0
    if rows.sum() < 2 or cols.sum() < 2:
        return 0.0
    b = np.sqrt(p)[:, None] * k[:, cols] / np.sqrt(p_y[cols])[None, :]
    singular = np.linalg.svd(b, compute_uv=False)
    return float(min(singular[1], 1.0))


def chi_squared_contraction(
    kernel: Mechanism | ArrayLike, *, n_starts: int = 16, seed: int = 0
) -> ChiSquaredContraction:
    """``η_χ²(K) = sup_P ρ_m²(X; Y)`` by multi-start local search over priors.

    Dobrushin paper [1]_ eq. (24); f_α paper [2]_ Sec. III (Polyanskiy & Wu, Thm 33.6(c)). The
    supremum over priors is not concave, so the value returned is a certified lower
    bound: ``ρ_m²`` evaluated at the returned prior. Starts: the uniform prior, the
    two-point priors ``(e_x + e_x')/2`` for every pair (exact when the two rows have
    disjoint supports: then ``ρ_m = 1``, Ahlswede & Gács), the near-point-mass priors
    ``a e_x + (1 − a) e_x'`` with ``a`` in :data:`BOUNDARY_PRIOR_WEIGHTS` (for kernels
    with zeros the supremum can be a limit at a point mass — the Z-channel's
    ``η_χ² = η_TV`` — which these reach to within about ``a``), and ``n_starts``
    Dirichlet(1) draws from ``seed``; the best ``n_starts`` are refined by Nelder–Mead on
    a softmax parametrisation.
    η_χ² ≤ η_f ≤ η_TV for every f, so :attr:`ChiSquaredContraction.dobrushin_coefficient`
    brackets it from above.

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        The mechanism ``K[x, y] = P(Y=y | X=x)``: N inputs (rows), M outputs; an array
        must be finite, non-negative and row-stochastic (rows sum to 1 within
        ``STOCHASTIC_ATOL``), else InvalidInputError.
    n_starts : int, default 16
        Number of Dirichlet(1) random starting priors, and of best starts refined by
        Nelder–Mead; an integer ≥ 1 (above :data:`MAX_CORRELATION_STARTS`, TooLargeError).
    seed : int or None, default 0
        Seed of the random starts, an integer ≥ 0 (the result is then reproducible), or
        ``None`` for fresh entropy.

    Returns
    -------
    ChiSquaredContraction
        The lower bound, the prior attaining it, ``η_TV(K)`` and the number of starts.

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Dobrushin Coefficients of Private
       Mechanisms Beyond Local Differential Privacy", 2026, arXiv:2601.09498.
    .. [2] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Bounds on the Privacy
       Amplification of Arbitrary Channels via the Contraction of f_α-Divergence", Allerton
       Conference 2025, arXiv:2501.11473.
    """
    k = as_matrix(kernel)
    n = k.shape[0]
    count = check_size(n_starts, "n_starts", MAX_CORRELATION_STARTS,
                       why="MAX_CORRELATION_STARTS: each start may be refined by a local search")
    seed = check_seed(seed, "seed")
    eta_tv = dobrushin_coefficient(k)
    if n == 1:
        return ChiSquaredContraction(0.0, np.ones(1), eta_tv, 0)
    starts = [np.full(n, 1.0 / n)]
    for i, j in itertools.combinations(range(n), 2):
        two = np.zeros(n)
        two[[i, j]] = 0.5
        starts.append(two)
    # Near-point-mass priors a·e_x + (1 − a)·e_x': for kernels with zeros the supremum
    # can be approached only as a → 0, where ρ_m² tends to the mass of row x on the
    # outputs row x' never produces (the Z-channel's η_χ² = η_TV is such a limit).
    for i, j in itertools.permutations(range(n), 2):
        for weight in BOUNDARY_PRIOR_WEIGHTS:
            edge = np.zeros(n)
            edge[i], edge[j] = weight, 1.0 - weight
            starts.append(edge)
    rng = np.random.default_rng(seed)
    starts.extend(rng.dirichlet(np.ones(n), size=count))
    best_value, best_prior = -1.0, starts[0]
    for start in starts:
        value = _maximal_correlation(k, start) ** 2
        if value > best_value:
            best_value, best_prior = value, start
    # Refine the best few starts locally (softmax keeps the prior in the simplex).
    scored = sorted(starts, key=lambda s: -_maximal_correlation(k, s))
    for start in scored[: min(len(scored), count)]:
        logits = np.log(np.maximum(start, CORRELATION_WEIGHT_FLOOR))

        def negative(z: NDArray[np.float64]) -> float:
            w = np.exp(z - z.max())
            return -_maximal_correlation(k, w / w.sum()) ** 2

        result = minimize(negative, logits, method="Nelder-Mead",
                          options={"maxiter": 200 * n, "xatol": CORRELATION_SEARCH_XATOL,
                                   "fatol": CORRELATION_SEARCH_FATOL})
        w = np.exp(result.x - result.x.max())
        w[w / w.sum() < CORRELATION_WEIGHT_FLOOR] = 0.0
        prior = w / w.sum()
        value = _maximal_correlation(k, prior) ** 2
        if value > best_value:
            best_value, best_prior = value, prior
    return ChiSquaredContraction(float(best_value), np.asarray(best_prior), eta_tv,
                                 len(starts))
