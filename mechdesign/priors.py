"""Priors: the input distributions designs and measures are computed at, built in one place.

A prior is a 1-D float array that sums to one (the package docstring's convention). The
named priors of the command line's ``--prior`` and of the built-in sweep tasks are
:func:`make_prior`'s; the Zipf prior of :func:`mechdesign.compare`'s examples and the
envelope paper's four-level prior are built here too, so that every prior the package
draws is written once. Each builder returns a dense vector of at most
:data:`MAX_PRIOR_SIZE` entries.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from mechdesign._validation import as_real, check_int, check_positive_int, check_size, show
from mechdesign.errors import InvalidInputError

__all__ = [
    "MAX_PRIOR_SIZE",
    "PRIORS",
    "ZIPF_EXPONENT",
    "four_level_prior",
    "make_prior",
    "zipf_prior",
]

#: The largest alphabet a prior is built on (a dense vector: 2^24 doubles, 128 MiB).
MAX_PRIOR_SIZE = 2**24

#: The exponent of :func:`make_prior`'s ``"zipf"`` (and :func:`zipf_prior`'s default), the
#: usual skew of LDP frequency-estimation benchmarks.
ZIPF_EXPONENT = 1.1

#: The priors :func:`make_prior` draws by name: ``uniform``, ``zipf`` (exponent
#: :data:`ZIPF_EXPONENT`) and ``dirichlet`` (Dirichlet(1), one draw per repetition ``rep``).
PRIORS = ("uniform", "zipf", "dirichlet")


def zipf_prior(k: int, exponent: float = ZIPF_EXPONENT) -> NDArray[np.float64]:
    """The Zipf distribution on ``k`` categories, the usual skewed prior of LDP
    frequency-estimation benchmarks.

    .. math::

        P(i) = \\frac{(i + 1)^{-s}}{\\sum_{j=0}^{k-1} (j + 1)^{-s}}, \\quad i = 0, \\dots, k - 1.

    Parameters
    ----------
    k : int
        Number of categories, 1 ≤ k ≤ :data:`MAX_PRIOR_SIZE`.
    exponent : float
        The exponent ``s`` > 0 (finite); default :data:`ZIPF_EXPONENT`.

    Returns
    -------
    numpy.ndarray, shape=(k,)
        The prior, decreasing in ``i``.

    Raises
    ------
    mechdesign.errors.InvalidInputError
        When ``k`` is not a positive integer or ``exponent`` not a positive finite number.
    mechdesign.errors.TooLargeError
        When ``k`` exceeds :data:`MAX_PRIOR_SIZE`.
    """
    size = check_size(k, "k", MAX_PRIOR_SIZE, why="the prior is a dense vector")
    if not (isinstance(exponent, int | float) and not isinstance(exponent, bool)
            and math.isfinite(exponent) and exponent > 0):
        raise InvalidInputError(f"exponent must be a positive finite number; got {show(exponent)}.")
    weights = np.arange(1, size + 1, dtype=float) ** -float(exponent)
    return weights / weights.sum()


def four_level_prior(k: int, rho: float) -> NDArray[np.float64]:
    """The four-level prior of the envelope paper's Sec. V-B [1]_.

    The alphabet ``[k]`` (k divisible by 4) is cut into four blocks of ``k/4``; block r
    has weight ``m_r / k`` with ``m = (1 − 3ρ, 1 − ρ, 1 + ρ, 1 + 3ρ)``:

    .. math::

        p_i = \\frac{m_{\\lfloor 4(i-1)/k \\rfloor}}{k}, \\quad i = 1, \\dots, k.

    Sorted ascending, as Theorem 5 of [1]_ assumes.

    Parameters
    ----------
    k : int
        Alphabet size, a positive multiple of 4, at most :data:`MAX_PRIOR_SIZE`.
    rho : float
        The spread ρ ∈ (0, 1/3).

    Returns
    -------
    numpy.ndarray, shape=(k,)
        The prior, ascending.

    Raises
    ------
    mechdesign.errors.InvalidInputError
        When ``k`` is not a positive multiple of 4 or ``rho`` is outside (0, 1/3).
    mechdesign.errors.TooLargeError
        When ``k`` exceeds :data:`MAX_PRIOR_SIZE`.

    References
    ----------
    .. [1] S. Saeidian, C. Pinzón, C. Palamidessi, "Information Leakage Envelopes", 2026,
       arXiv:2605.21185.
    """
    size = check_positive_int(k, "k")
    check_size(size, "k", MAX_PRIOR_SIZE, why="MAX_PRIOR_SIZE: the prior is a dense vector")
    if size % 4:
        raise InvalidInputError(f"k must be divisible by 4 for the four-level prior; got {k}.")
    r = as_real(rho, "rho")
    if not 0 < r < 1 / 3:
        raise InvalidInputError(f"rho must lie in (0, 1/3); got {show(rho)}.")
    levels = np.array([1 - 3 * r, 1 - r, 1 + r, 1 + 3 * r])
    return levels[(4 * np.arange(size)) // size] / size


def make_prior(prior: str, n: int, rep: int = 0) -> NDArray[np.float64]:
    """The prior named ``prior`` on ``n`` symbols: the one builder of the command line's
    ``--prior`` and of the built-in sweep tasks (:mod:`mechdesign.sweeps.tasks`).

    Parameters
    ----------
    prior : str
        One of :data:`PRIORS`: ``"uniform"``; ``"zipf"`` (:func:`zipf_prior` with exponent
        :data:`ZIPF_EXPONENT`); ``"dirichlet"``, a Dirichlet(1) draw seeded by
        ``(n, rep)``, so that every ε and c of one repetition see the same prior.
    n : int
        Number of symbols, 1 ≤ n ≤ :data:`MAX_PRIOR_SIZE`.
    rep : int
        The repetition (≥ 0) whose Dirichlet draw this is; ignored by the other priors.

    Returns
    -------
    numpy.ndarray, shape=(n,)
        The prior.

    Raises
    ------
    mechdesign.errors.InvalidInputError
        When ``prior`` is not a name of :data:`PRIORS`, or ``n`` or ``rep`` is out of range.
    mechdesign.errors.TooLargeError
        When ``n`` exceeds :data:`MAX_PRIOR_SIZE`.
    """
    n = check_size(n, "n", MAX_PRIOR_SIZE, why="the prior is a dense vector")
    rep = check_int(rep, "rep", low=0)
    if prior == "uniform":
        return np.full(n, 1.0 / n)
    if prior == "zipf":
        return zipf_prior(n)
    if prior == "dirichlet":
        return np.random.default_rng((n, int(rep))).dirichlet(np.ones(n))
    raise InvalidInputError(f"prior must be one of {PRIORS}; got {show(prior)}.")
