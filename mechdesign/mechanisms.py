"""Closed-form mechanisms from the papers (rows are inputs; see the package docstring).

- :func:`randomized_response` — k-ary randomized response (GRR, k-RR).
- :func:`binary_mechanism` — the binary mechanism of Kairouz, Oh & Viswanath.
- :func:`extremal_binary_mechanism` — Remark 2 of the Dobrushin paper, with
  :func:`extremal_binary_valid_q` for the admissible q.
- :func:`pml_binary_mechanism` — eq. (35) of the Dobrushin paper (Example 1, N = 2).
- :func:`pml_extremal_mechanism` — the PML-extremal mechanism of the envelope paper
  (Sec. V-A), in its high-privacy regime only.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable

import numpy as np
from numpy.typing import ArrayLike

from mechdesign._numerics import (
    as_distribution,
    check_c,
    check_epsilon,
    check_positive_int,
)
from mechdesign.errors import InvalidInputError, TooLargeError
from mechdesign.kernel import Mechanism

__all__ = [
    "binary_mechanism",
    "extremal_binary_mechanism",
    "extremal_binary_valid_q",
    "pml_binary_mechanism",
    "pml_extremal_mechanism",
    "randomized_response",
]

#: Largest N for which :func:`binary_mechanism` searches every subset for the best split.
BINARY_SPLIT_MAX_N = 22


def randomized_response(k: int, epsilon: float) -> Mechanism:
    """k-ary randomized response (generalised randomized response, k-RR):

    .. math::

        K[x, y] = \\frac{e^\\varepsilon}{e^\\varepsilon + k - 1} \\ (y = x), \\qquad
        \\frac{1}{e^\\varepsilon + k - 1} \\ (y \\ne x).

    ε-LDP exactly (Warner 1965 for k = 2; Kairouz, Oh & Viswanath, JMLR 2016; envelope
    paper Sec. V-B). ``ε = ∞`` gives the identity.
    """
    k = check_positive_int(k, "k")
    eps = check_epsilon(epsilon)
    if math.isinf(eps):
        return Mechanism(np.eye(k))
    low = math.exp(-eps)  # divide by e^ε: no overflow for large ε
    matrix = np.full((k, k), low)
    np.fill_diagonal(matrix, 1.0)
    return Mechanism(matrix / (1.0 + (k - 1) * low))


def binary_mechanism(
    epsilon: float,
    subset: Iterable[int] | None = None,
    *,
    n: int | None = None,
    prior: ArrayLike | None = None,
) -> Mechanism:
    """The binary mechanism of Kairouz, Oh & Viswanath (JMLR 2016): two outputs,

    .. math::

        K[x, 0] = \\frac{e^\\varepsilon}{1 + e^\\varepsilon} \\ (x \\in T), \\qquad
        K[x, 0] = \\frac{1}{1 + e^\\varepsilon} \\ (x \\notin T), \\qquad
        K[x, 1] = 1 - K[x, 0].

    It is ε-LDP and, for small ε, optimal for mutual information (KOV, the
    high-privacy regime). Give either ``subset`` (the set T) with ``n``, or ``prior``:
    then T is chosen to maximise the mechanism's mutual information. That mutual
    information is ``H(Y) − h(e^ε/(1+e^ε))`` with ``P(Y = 0)`` increasing in ``P(T)``
    and ``H(Y)`` largest at ``P(Y = 0) = 1/2``, i.e. at ``P(T) = 1/2``; so T minimises
    ``|P(T) − 1/2|`` (searched exhaustively, ties to the first subset in binary order,
    for N ≤ :data:`BINARY_SPLIT_MAX_N`).
    """
    eps = check_epsilon(epsilon)
    if (subset is None) == (prior is None):
        raise InvalidInputError("binary_mechanism needs exactly one of subset or prior.")
    if prior is not None:
        p = as_distribution(prior, "prior")
        if n is not None and check_positive_int(n, "n") != p.shape[0]:
            raise InvalidInputError(f"n = {n} does not match the prior's length {p.shape[0]}.")
        n_val = int(p.shape[0])
        members = _best_split(p)
    else:
        if n is None:
            raise InvalidInputError("binary_mechanism with a subset needs n (number of inputs).")
        n_val = check_positive_int(n, "n")
        members = sorted({int(i) for i in subset})
        if any(i < 0 or i >= n_val for i in members):
            raise InvalidInputError(f"subset must contain inputs in 0..{n_val - 1}; got {members}.")
    high = 1.0 / (1.0 + math.exp(-eps)) if math.isfinite(eps) else 1.0
    column = np.full(n_val, 1.0 - high)
    column[members] = high
    return Mechanism(np.column_stack([column, 1.0 - column]))


def _best_split(p: np.ndarray) -> list[int]:
    n = p.shape[0]
    if n > BINARY_SPLIT_MAX_N:
        raise TooLargeError(
            f"choosing the best split searches 2^N subsets; N = {n} is above "
            f"{BINARY_SPLIT_MAX_N}. Pass subset= explicitly."
        )
    best, best_gap = [0], math.inf
    for size in range(1, n):
        for members in itertools.combinations(range(n), size):
            gap = abs(float(p[list(members)].sum()) - 0.5)
            if gap < best_gap - 1e-15:
                best, best_gap = list(members), gap
    return best


def extremal_binary_valid_q(epsilon: float, c: float, n: int) -> list[int]:
    """The q in {1, …, N−1} for which Remark 2's kernel is a valid mechanism.

    ``m ≥ 0`` needs ``e^ε c q ≤ 1`` and ``M ≤ 1`` needs ``e^ε c (N − q) ≤ 1``
    (GUIDE.md, known traps). For odd N and ``log(2/((N+1)c)) ≤ ε < log(2/(Nc))`` the
    list is empty although Ξ(ε, c) < 1 is still attained (by a kernel with three
    levels).
    """
    eps = check_epsilon(epsilon)
    n_val = check_positive_int(n, "n")
    c_val = check_c(c, n_val)
    scale = math.exp(eps) * c_val if math.isfinite(eps) else math.inf
    return [q for q in range(1, n_val) if scale * q <= 1.0 and scale * (n_val - q) <= 1.0]


def extremal_binary_mechanism(epsilon: float, c: float, n: int, q: int) -> Mechanism:
    """Remark 2 of the Dobrushin paper: the binary kernel ``K = [p, 1 − p]`` with

    .. math::

        p = (\\underbrace{M, …, M}_{q}, \\underbrace{m, …, m}_{N-q}), \\quad
        m = \\frac{1 - e^\\varepsilon c q}{1 + e^\\varepsilon(1 - Nc)}, \\quad
        M = \\frac{e^\\varepsilon (1 - c q)}{1 + e^\\varepsilon(1 - Nc)},

    which is (ε, c)-PML with Dobrushin coefficient ``M − m = Ξ(ε, c)`` (Theorem 3) —
    for a valid q only (:func:`extremal_binary_valid_q`); an invalid q raises.
    """
    eps = check_epsilon(epsilon)
    n_val = check_positive_int(n, "n")
    c_val = check_c(c, n_val)
    valid = extremal_binary_valid_q(eps, c_val, n_val)
    if isinstance(q, bool) or not isinstance(q, int) or q not in valid:
        raise InvalidInputError(
            f"q = {q!r} does not give a valid Remark 2 kernel for epsilon = {eps!r}, c = "
            f"{c_val!r}, N = {n_val}: it needs 1 <= q <= N-1, e^eps*c*q <= 1 and "
            f"e^eps*c*(N-q) <= 1. Valid q: {valid if valid else 'none'}."
        )
    growth = math.exp(eps)
    denominator = 1.0 + growth * (1.0 - n_val * c_val)
    low = (1.0 - growth * c_val * q) / denominator
    high = growth * (1.0 - c_val * q) / denominator
    column = np.array([high] * q + [low] * (n_val - q))
    return Mechanism(np.column_stack([column, 1.0 - column]))


def pml_binary_mechanism(epsilon: float, c: float) -> Mechanism:
    """Eq. (35) of the Dobrushin paper (Example 1), the optimal binary (ε, c)-PML kernel:

    .. math::

        K = \\frac{1}{e^\\varepsilon (1 - 2c) + 1}
        \\begin{bmatrix} e^\\varepsilon (1-c) & 1 - e^\\varepsilon c \\\\
        1 - e^\\varepsilon c & e^\\varepsilon (1-c) \\end{bmatrix},

    Remark 2 with N = 2, q = 1; valid for ``e^ε c ≤ 1``. ``c → 0`` gives Warner's
    randomized response.
    """
    return extremal_binary_mechanism(epsilon, c, 2, 1)


def pml_extremal_mechanism(epsilon: float, prior: ArrayLike) -> Mechanism:
    """The PML-extremal mechanism (envelope paper, Sec. V-A; Grosse et al.):

    .. math::

        K[i, j] = 1 - e^\\varepsilon (1 - P(i)) \\ (i = j), \\qquad
        K[i, j] = e^\\varepsilon P(j) \\ (i \\ne j),

    optimal for a broad class of utilities under ε-PML for the prior ``P`` in the
    high-privacy regime ``0 ≤ ε < log(1 / (1 − min_x P(x)))``; every outcome has
    ``ℓ(X → j) = ε`` and ``P_Y = P``. Outside that regime the formula is not a mechanism
    (or not optimal), so it is refused.
    """
    eps = check_epsilon(epsilon)
    p = as_distribution(prior, "prior")
    smallest = float(p.min())
    limit = -math.log1p(-smallest) if smallest < 1 else math.inf
    if not eps < limit:
        raise InvalidInputError(
            f"epsilon = {eps!r} is outside the high-privacy regime of the PML-extremal "
            f"mechanism: it needs epsilon < log(1/(1 - min P)) = {limit!r}."
        )
    growth = math.exp(eps)
    matrix = np.tile(growth * p, (p.shape[0], 1))
    np.fill_diagonal(matrix, 1.0 - growth * (1.0 - p))
    return Mechanism(matrix)
