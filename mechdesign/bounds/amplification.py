"""Rényi-LDP amplification by post-processing channels (f_α paper, Sec. III, V and VI).

A mechanism ``P_{X|W}`` (rows are the private values w) followed by an arbitrary channel
``P_{Y|X}`` that satisfies no LDP guarantee: how much smaller is the Rényi-LDP of the
cascade ``P_{Y|W} = P_{X|W} P_{Y|X}`` than that of the mechanism alone? This module holds
the structural test of Proposition 3 (no contraction over the whole simplex), the bound
φ(ε_f, α) of eq. (9) built from Corollary 11, and the channels of Examples 4, 5 and 12.
Rows are inputs; nats.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from numbers import Real

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mechdesign._validation import (
    as_real,
    check_alpha,
    check_positive_int,
    check_size,
    show,
)
from mechdesign.bounds.contraction import cross_channel_gamma
from mechdesign.errors import InvalidInputError
from mechdesign.kernel import Mechanism, as_matrix
from mechdesign.measures.divergences import f_alpha_from_renyi, total_variation
from mechdesign.measures.leakage import dobrushin_coefficient, renyi_ldp_level
from mechdesign.measures.pinsker import pinsker_f_alpha_inverse, reverse_pinsker_f_alpha

__all__ = [
    "RenyiAmplification",
    "block_uniform_channel",
    "circulant_singular_channel",
    "confusion_graph",
    "disjoint_support_pair",
    "rldp_amplification_bound",
]

#: The most inputs of the example channels: they are dense N × N matrices (2^12 inputs
#: is 128 MiB per copy).
MAX_CHANNEL_INPUTS = 2**12


def confusion_graph(kernel: Mechanism | ArrayLike) -> NDArray[np.bool_]:
    """The confusion graph of a channel (f_α paper, Sec. III-A), as an adjacency matrix.

    ``G[x, x']`` is true when some output can be caused by both inputs:
    ``∃ y: K[x, y] > 0 and K[x', y] > 0`` ([1]_, Sec. III-A). The diagonal is true (every
    row has mass).

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        The channel (N inputs, M outputs, rows are inputs); it must be a row-stochastic
        matrix (non-negative, finite, rows summing to 1).

    Returns
    -------
    ndarray of bool, shape (N, N)
        The symmetric adjacency matrix ``G``.

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Bounds on the Privacy
       Amplification of Arbitrary Channels via the Contraction of f_α-Divergence", Allerton
       Conference 2025, arXiv:2501.11473.
    """
    support = as_matrix(kernel) > 0
    overlap = support.astype(np.int64) @ support.T.astype(np.int64)
    return overlap > 0


def disjoint_support_pair(kernel: Mechanism | ArrayLike) -> tuple[int, int] | None:
    """Two inputs whose output distributions have disjoint supports, or ``None``.

    Proposition 3 of the f_α paper: if such a pair exists (the confusion graph is not
    complete), then ``η_α(K, 𝒫_X) = 1`` for every α — the channel does not contract any
    Rényi divergence over the whole simplex, and ``η_χ²(K) = 1`` (Ahlswede & Gács). The
    converse direction is not claimed: ``None`` means the proposition does not apply,
    not that the channel contracts (though then ``η_χ² < 1``, Ahlswede & Gács; see [2]_,
    Sec. II-C).

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        The channel (rows are inputs); it must be a row-stochastic matrix.

    Returns
    -------
    tuple of int or None
        The first pair ``(x, x')`` with ``x < x'`` (in lexicographic order) whose rows have
        disjoint supports, or ``None`` when the confusion graph is complete.

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Bounds on the Privacy
       Amplification of Arbitrary Channels via the Contraction of f_α-Divergence", Allerton
       Conference 2025, arXiv:2501.11473.
    .. [2] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Dobrushin Coefficients of
       Private Mechanisms Beyond Local Differential Privacy", 2026, arXiv:2601.09498.
    """
    graph = confusion_graph(kernel)
    for x, x_other in itertools.combinations(range(graph.shape[0]), 2):
        if not graph[x, x_other]:
            return (x, x_other)
    return None


def block_uniform_channel(n: int, k: int) -> Mechanism:
    """``Q^{(m,k)} = diag(U^{(k)}, …, U^{(k)})`` of Example 12 (f_α paper), ``N = mk``.

    ``U^{(k)} = 1 1ᵀ / k``: each block of k consecutive inputs is mapped uniformly onto
    the same k outputs. k must divide n (the paper's construction); for other sizes use
    :func:`circulant_singular_channel`, which keeps Example 12's closed form for Γ.
    Block-diagonal with at least two blocks, so Proposition 3 applies (Example 4).

    Parameters
    ----------
    n : int
        The number of inputs (and outputs) N = mk, a positive integer of at most
        :data:`MAX_CHANNEL_INPUTS`.
    k : int
        The block size, a positive integer that must divide ``n``.

    Returns
    -------
    Mechanism
        The N × N block-diagonal kernel.

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Bounds on the Privacy
       Amplification of Arbitrary Channels via the Contraction of f_α-Divergence", Allerton
       Conference 2025, arXiv:2501.11473.
    """
    n_val = check_positive_int(n, "n")
    k_val = check_positive_int(k, "k")
    check_size(n_val, "n", MAX_CHANNEL_INPUTS, why="MAX_CHANNEL_INPUTS: a dense N x N matrix")
    if n_val % k_val:
        raise InvalidInputError(
            f"k = {show(k)} must divide n = {show(n)} for the block-uniform channel of Example 12; "
            "use circulant_singular_channel(n, k) for other sizes."
        )
    block = np.full((k_val, k_val), 1.0 / k_val)
    return Mechanism(np.kron(np.eye(n_val // k_val), block))


def circulant_singular_channel(n: int, k: int) -> Mechanism:
    """The circulant k-singular channel: ``K[x, y] = 1/k`` when ``(y − x) mod N < k``.

    k-singular in the sense of Example 5 of the f_α paper (every entry is 0 or 1/k, so
    each row and each column has k non-zeros). This is our choice for Example 12 when k
    does not divide N (the paper leaves it open): every output y is reached from the k
    inputs ``y − k + 1, …, y``, so for N > k the cascade with N-ary randomized response
    has ``Γ_max(Y) = 1 + (e^ε − 1)/k`` exactly as the block channel (a block of size
    N mod k would instead pass that many inputs through with ``Γ_max = e^ε``). Two
    inputs at circular distance ≥ k have disjoint supports, so Proposition 3 applies
    whenever ``N ≥ 2k``.

    Parameters
    ----------
    n : int
        The number of inputs (and outputs) N, a positive integer of at most
        :data:`MAX_CHANNEL_INPUTS`.
    k : int
        The number of outputs each input reaches, a positive integer ``k ≤ n``.

    Returns
    -------
    Mechanism
        The N × N circulant kernel.

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Bounds on the Privacy
       Amplification of Arbitrary Channels via the Contraction of f_α-Divergence", Allerton
       Conference 2025, arXiv:2501.11473.
    """
    n_val = check_positive_int(n, "n")
    k_val = check_positive_int(k, "k")
    if k_val > n_val:
        raise InvalidInputError(f"k must be <= n; got k = {show(k)}, n = {show(n)}.")
    check_size(n_val, "n", MAX_CHANNEL_INPUTS, why="MAX_CHANNEL_INPUTS: a dense N x N matrix")
    offsets = (np.arange(n_val)[None, :] - np.arange(n_val)[:, None]) % n_val
    return Mechanism(np.where(offsets < k_val, 1.0 / k_val, 0.0))


@dataclass(frozen=True)
class RenyiAmplification:
    """The bound φ(ε_f, α) of eq. (9) on the Rényi-LDP of a cascade, with its parts.

    Returned by :func:`rldp_amplification_bound` (f_α paper [1]_, Sec. VI); its fields
    are the constructor's parameters. Levels are Rényi-LDP levels, in nats.

    Parameters
    ----------
    bound : float
        φ(ε_f, α), an upper bound on ``RLDP^(α)`` of the cascade.
    first_level : float
        ``RLDP^(α)`` of the first mechanism alone; by post-processing (the data
        processing inequality) it bounds the cascade too.
    epsilon_f : float
        ``max_{w,w'} D_{f_α}(P_{X|W=w} ‖ P_{X|W=w'})``, the f_α form of ``first_level``.
    gamma_max, gamma_min : float
        ``Γ_max(Y)``, ``Γ_min(Y)`` over the rows of the first mechanism.
    eta_tv : float
        The TV contraction factor used (see :func:`rldp_amplification_bound`).
    alpha : float
        The order α > 1.

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Bounds on the Privacy
       Amplification of Arbitrary Channels via the Contraction of f_α-Divergence", Allerton
       Conference 2025, arXiv:2501.11473.
    """

    bound: float
    first_level: float
    epsilon_f: float
    gamma_max: float
    gamma_min: float
    eta_tv: float
    alpha: float

    @property
    def best_bound(self) -> float:
        """``min(φ, RLDP^(α)(first))``: both bound the cascade."""
        return min(self.bound, self.first_level)

    @property
    def amplifies(self) -> bool:
        """Whether φ is below the first mechanism's own level (amplification shown)."""
        return self.bound < self.first_level


def rldp_amplification_bound(
    first: Mechanism | ArrayLike,
    second: Mechanism | ArrayLike,
    alpha: float,
    *,
    eta_tv: float | str = "rows",
) -> RenyiAmplification:
    """φ(ε_f, α) of eq. (9), f_α paper Sec. VI: a bound on ``RLDP^(α)(P_{Y|W})``.

    .. math::

        \\varphi(\\varepsilon_f, \\alpha) = \\frac{1}{\\alpha - 1} \\log\\Bigl(
            \\eta_{TV} \\, R_\\alpha\\bigl(\\Gamma_{\\max}(Y), \\Gamma_{\\min}(Y)\\bigr)
            \\, g_\\alpha^{-1}(\\varepsilon_f) + 1 \\Bigr),

    from Corollary 11 applied to every pair of rows of ``first`` (``P_{X|W}``), with
    ``ε_f`` the largest f_α divergence between its rows, ``Γ(Y)`` over those rows
    through ``second`` (:func:`~mechdesign.bounds.contraction.cross_channel_gamma`), R_α of
    Theorem 6 and the generalised inverse ``g_α^{-1}`` of Theorem 8 / Remark 10.

    Parameters
    ----------
    first : Mechanism or array_like, shape (W, N)
        The privacy mechanism ``P_{X|W}`` (rows are the W private values); it must be
        row-stochastic. A float32 array is accepted at its own precision.
    second : Mechanism or array_like, shape (N, M)
        The post-processing channel ``P_{Y|X}``; its N inputs must match the outputs of
        ``first``.
    alpha : float
        The Rényi order, α > 1 and finite.
    eta_tv : {"rows", "dobrushin"} or float
        The TV contraction of ``second`` over the set of input distributions. "rows"
        (default): exactly ``max_{w≠w'} TV(P_w K, P_{w'} K) / TV(P_w, P_{w'})`` over the
        rows of ``first``, which is all Corollary 11 needs; "dobrushin": ``η_TV(K)``; or
        a number in [0, 1] — Example 12 uses 1.

    Returns
    -------
    RenyiAmplification
        φ (``bound``, +inf when ``Γ_max`` is infinite) with its ingredients.

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Bounds on the Privacy
       Amplification of Arbitrary Channels via the Contraction of f_α-Divergence", Allerton
       Conference 2025, arXiv:2501.11473.
    """
    a = check_alpha(alpha)
    if not (a > 1 and math.isfinite(a)):
        raise InvalidInputError(f"alpha must be finite and > 1; got {show(alpha)}.")
    w = _double_kernel(first, "first")
    k = _double_kernel(second, "second")
    if w.shape[1] != k.shape[0]:
        raise InvalidInputError(
            f"first has {w.shape[1]} outputs but second has {k.shape[0]} inputs; they must "
            "match to cascade."
        )
    first_level = renyi_ldp_level(w, a)
    epsilon_f = f_alpha_from_renyi(first_level, a)
    gamma_max, gamma_min = cross_channel_gamma(k, w)
    eta = _eta_tv(w, k, eta_tv)
    if math.isinf(gamma_max):
        bound = math.inf
    else:
        # g_α^{-1}(∞) = 1: an infinite (or overflowing) ε_f still leaves TV ≤ 1.
        tv = pinsker_f_alpha_inverse(epsilon_f, a)
        bound = _phi(eta * tv, gamma_max, gamma_min, a)
    return RenyiAmplification(
        bound=bound,
        first_level=first_level,
        epsilon_f=epsilon_f,
        gamma_max=gamma_max,
        gamma_min=gamma_min,
        eta_tv=eta,
        alpha=a,
    )


def _double_kernel(value: Mechanism | ArrayLike, name: str) -> NDArray[np.float64]:
    """``as_matrix(value, name)``; a lower-precision array (float32), whose rows sum to 1
    only in its own precision, is rescaled in double precision, so that the functions
    called on it (which check rows at double precision) accept it."""
    k = as_matrix(value, name)
    if not isinstance(value, Mechanism):
        dtype = np.asarray(value).dtype
        if dtype.kind == "f" and dtype.itemsize < 8:
            k = k / k.sum(axis=1, keepdims=True)
    return k


def _phi(scale: float, u: float, v: float, a: float) -> float:
    """``log(1 + scale · R_α(u, v))/(α − 1)`` for finite ``u``, in logs where ``R_α``
    overflows (large α): then ``R_α = u^α/(u − 1) · (1 − O(e^{−700}))``, so
    ``log R_α = α log u − log(u − 1)`` to double precision, and
    ``log(1 + x) = log x + log1p(1/x)``. The bound tends to ``log u`` as ``α → ∞``
    instead of overflowing to +inf."""
    r = reverse_pinsker_f_alpha(u, v, a)
    if math.isfinite(r) or scale == 0:
        return math.log1p(scale * r) / (a - 1.0) if scale > 0 else 0.0
    log_x = math.log(scale) + a * math.log(u) - math.log(u - 1.0)
    return (log_x + math.log1p(math.exp(-log_x))) / (a - 1.0)


def _eta_tv(w: NDArray[np.float64], k: NDArray[np.float64], choice: float | str) -> float:
    if isinstance(choice, str):
        if choice == "dobrushin":
            return dobrushin_coefficient(k)
        if choice == "rows":
            best = 0.0
            outputs = w @ k
            for i, j in itertools.combinations(range(w.shape[0]), 2):
                before = total_variation(w[i], w[j])
                if before > 0:
                    best = max(best, total_variation(outputs[i], outputs[j]) / before)
            return min(best, 1.0)
        raise InvalidInputError(
            f"eta_tv must be 'rows', 'dobrushin' or a number in [0, 1]; got {show(choice)}."
        )
    if isinstance(choice, bool) or not isinstance(choice, Real):
        raise InvalidInputError(
            f"eta_tv must be 'rows', 'dobrushin' or a number in [0, 1]; got {show(choice)}."
        )
    value = as_real(choice, "eta_tv")
    if not 0 <= value <= 1:
        raise InvalidInputError(f"eta_tv must be in [0, 1]; got {show(choice)}.")
    return value
