"""The deployed LDP frequency oracles as kernels, with their estimators and errors.

Each protocol is a :class:`FrequencyOracle`: a :class:`~mechdesign.kernel.Mechanism`
(rows are the ``k`` inputs, columns the reports) that also carries its standard linear
frequency estimator — a matrix ``E`` of shape ``(M, k)``: from reports ``y_1 … y_n`` the
estimate is ``f̂ = (1/n) Σ_i E[y_i]``, unbiased exactly when ``K E = I``.

Most are *pure* protocols (Wang, Blocki, Li & Jha, "Locally differentially private
protocols for frequency estimation", USENIX Security 2017, Def. 2): a report ``y``
supports a set of inputs, the true input is supported with probability ``p`` and any
other with probability ``q``, and ``E[y, v] = (1[v ∈ supp y] − q)/(p − q)``. Their
variance is Wang et al.'s eq. (2),

.. math::

    \\operatorname{Var}[\\hat f_v] = \\frac{1}{n}\\left(\\frac{q(1 - q)}{(p - q)^2}
    + f_v\\, \\frac{1 - p - q}{p - q}\\right),

whose sum over ``v`` is :meth:`FrequencyOracle.variance`. :func:`estimation_mse`
computes the same error for any kernel and linear estimator, exactly, from the kernel —
the closed forms are its test, not its implementation.

The protocols: generalized randomized response (:func:`generalized_randomized_response`,
k-RR), unary encoding (:func:`unary_encoding`: OUE, and SUE = basic RAPPOR), subset
selection (:func:`subset_selection`), local hashing (:func:`local_hashing_kernel`: OLH
over a given hash family, :func:`hash_family`;
:func:`~mechdesign.mechanisms.oracles.local_hashing` is the entry point, which without a
family returns the fresh-hash oracle) and Hadamard response (:func:`hadamard_response`).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import scipy.linalg
from numpy.typing import ArrayLike, NDArray

from mechdesign._lazy import deprecated_names
from mechdesign._tolerances import ROUNDING_ATOL
from mechdesign._validation import (
    as_distribution,
    as_float_array,
    check_bool,
    check_epsilon,
    check_positive_int,
    check_seed,
    check_size,
    show,
)
from mechdesign.errors import InvalidInputError, TooLargeError, UnsupportedError
from mechdesign.kernel import Mechanism, as_matrix
from mechdesign.measures.estimation import blue_estimator, workload_matrix
from mechdesign.mechanisms.closed_forms import randomized_response

__all__ = [
    "PROTOCOL_MAX_OUTPUTS",
    "FrequencyOracle",
    "estimation_mse",
    "generalized_randomized_response",
    "hadamard_blocks",
    "hadamard_response",
    "hash_family",
    "subset_selection",
    "unary_encoding",
]

#: Most reports a protocol's kernel may have: it is a dense (k, M) matrix, with an
#: estimator of the same size (2^16 columns: 8 MB per input row pair at k = 16).
PROTOCOL_MAX_OUTPUTS = 2**16

#: Subset selection's best size is found by scanning every size up to this k, by a
#: ternary search (the risk is unimodal) beyond.
SUBSET_SCAN_MAX_K = 4096


@dataclass(frozen=True, eq=False)
class FrequencyOracle(Mechanism):
    """A mechanism with its standard linear frequency estimator.

    Parameters
    ----------
    matrix : array_like, shape (k, M)
        The kernel (rows are inputs); it must be row-stochastic.
    atol : float, optional
        Tolerance on the row sums of ``matrix``, as for
        :class:`~mechdesign.kernel.Mechanism` (default
        :data:`mechdesign._tolerances.STOCHASTIC_ATOL`).
    protocol : str
        Its name in the literature.
    epsilon : float
        The LDP level it is built for (required: ``>= 0``).
    estimator : array_like, shape (M, k)
        ``E``: a report ``y`` contributes ``E[y]`` to the mean that estimates the
        frequencies.
    support : tuple of float, optional
        ``(p, q)`` of a pure protocol (module docstring), ``0 <= q <= p <= 1``;
        ``None`` otherwise.

    References
    ----------
    .. [1] T. Wang, J. Blocki, N. Li, S. Jha, "Locally Differentially Private Protocols for
       Frequency Estimation", 26th USENIX Security Symposium, 2017, pp. 729-745,
       https://www.usenix.org/system/files/conference/usenixsecurity17/sec17-wang-tianhao.pdf.
    """

    protocol: str = ""
    epsilon: float | None = None
    estimator: NDArray[np.float64] = field(default=None, repr=False)
    support: tuple[float, float] | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        if not isinstance(self.protocol, str):
            raise InvalidInputError(f"protocol must be a string; got {show(self.protocol)}.")
        object.__setattr__(self, "epsilon", check_epsilon(self.epsilon))
        if self.support is not None:
            object.__setattr__(self, "support", _check_support(self.support))
        e = as_float_array(self.estimator, "estimator", ndim=2)
        if e.shape != (self.n_outputs, self.n_inputs):
            raise InvalidInputError(
                f"estimator must have shape {(self.n_outputs, self.n_inputs)} (outputs, "
                f"inputs); got {e.shape}."
            )
        e.setflags(write=False)
        object.__setattr__(self, "estimator", e)

    def estimate(self, reports: ArrayLike) -> NDArray[np.float64]:
        """``f̂ = (1/n) Σ_i E[y_i]`` from report indices ``y_i`` (unbiased when the
        protocol's ``K E = I``; not projected onto the simplex)."""
        try:
            y = np.asarray(reports)
        except (TypeError, ValueError):  # ragged nesting
            y = np.asarray([], dtype=float)
        if y.size == 0 or not np.issubdtype(y.dtype, np.integer) or (
            y.min() < 0 or y.max() >= self.n_outputs
        ):
            raise InvalidInputError(
                f"reports must be a non-empty array of output indices in [0, "
                f"{self.n_outputs}); got {show(reports)}."
            )
        return self.estimator[y.ravel()].mean(axis=0)

    def variance(self, prior: ArrayLike, n: int) -> float:
        """Wang et al.'s closed form ``Σ_v Var[f̂_v]`` (USENIX Security 2017, eq. (2))
        for a pure protocol, with the true frequencies ``f = prior`` and ``n`` reports:
        ``(k q(1 − q)/(p − q)² + (1 − p − q)/(p − q)) / n``. It is the
        :func:`estimation_mse` of an unbiased pure protocol (``target="histogram"``).

        Raises
        ------
        UnsupportedError
            The protocol is not pure (``support`` is ``None``).
        """
        if self.support is None:
            raise UnsupportedError(
                f"{self.protocol or 'this protocol'} is not a pure protocol; its error is "
                "estimation_mse(K, prior, n)."
            )
        f = as_distribution(prior, "prior", self.n_inputs)
        count = check_positive_int(n, "n")
        p, q = self.support
        if p == q:  # exact: no information (ε so small that p and q round together)
            return math.inf
        gap = p - q
        # q(1 − q)/gap², divided in two steps: gap² underflows for a tiny ε.
        with np.errstate(over="ignore"):
            per_input = q * (1 - q) / gap / gap + f * (1 - p - q) / gap
        return float(per_input.sum() / count)


def _check_support(support: object) -> tuple[float, float]:
    """``(p, q)`` of a pure protocol: two real numbers with ``0 <= q <= p <= 1``."""
    values = as_float_array(support, "support", ndim=1)
    if values.shape[0] != 2:
        raise InvalidInputError(
            f"support must be the pair (p, q) of a pure protocol; got {show(support)}."
        )
    p, q = float(values[0]), float(values[1])
    if not 0.0 <= q <= p <= 1.0:
        raise InvalidInputError(
            f"support (p, q) must satisfy 0 <= q <= p <= 1; got {show(support)}."
        )
    return (p, q)


def _pure(
    matrix: NDArray[np.float64],
    supported: NDArray[np.bool_],
    p: float,
    q: float,
    protocol: str,
    epsilon: float,
    gap: float,
) -> FrequencyOracle:
    """A pure protocol from its kernel and its support indicator ``supported[y, v]``;
    ``gap = p − q`` in closed form (by subtraction it cancels to 0 for a tiny ε)."""
    _check_representable(matrix, epsilon)
    estimator = _estimator(supported, q, gap, epsilon, matrix.shape[0])
    return FrequencyOracle(matrix, protocol=protocol, epsilon=epsilon, estimator=estimator,
                           support=(p, q))


def _estimator(
    supported: NDArray[np.bool_], q: float, gap: float, epsilon: float, k: int
) -> NDArray[np.float64]:
    """``(1[v ∈ supp y] − q)/(p − q)``, or UnsupportedError when ``1/(p − q)`` (about
    ``k/ε``) is beyond the largest double."""
    with np.errstate(over="ignore", divide="ignore"):
        estimator = (supported.astype(float) - q) / gap
    if gap <= 0 or not np.all(np.isfinite(estimator)):
        raise UnsupportedError(
            f"at epsilon = {show(epsilon)} the estimator's entries, about 1/(p - q) ~ "
            f"k/epsilon, exceed the largest double: the smallest supported epsilon is about "
            f"{_SMALLEST_EPSILON_FACTOR * k / np.finfo(float).max:.3g}."
        )
    return estimator


#: 1/(p − q) ≤ this × k/ε for every protocol here (OUE, SUE, Hadamard: 4/ε; k-RR and
#: subset selection: k/ε; OLH: g²/((g − 1)ε)): the scale of the smallest ε supported.
_SMALLEST_EPSILON_FACTOR = 4.0


def _check_representable(matrix: NDArray[np.float64], epsilon: float) -> None:
    """Every protocol's kernel is positive for finite ε; refuse one whose smallest
    probability underflowed (to 0 or a subnormal: its audited level would be wrong)."""
    if not matrix.min() >= np.finfo(float).tiny:
        raise UnsupportedError(
            f"at epsilon = {show(epsilon)} the protocol's smallest probability is below "
            f"the smallest double ({np.finfo(float).tiny:.3g}): the kernel cannot be "
            "represented. Use a smaller epsilon."
        )


def _check_outputs(count: int, what: str) -> None:
    if count > PROTOCOL_MAX_OUTPUTS:
        raise TooLargeError(
            f"{what} has {count:,} outputs, above PROTOCOL_MAX_OUTPUTS = "
            f"{PROTOCOL_MAX_OUTPUTS:,} (its kernel is a dense matrix)."
        )


def choose_subset_size(k: int, eps: float, subset_size: int | None = None) -> int:
    """Subset selection's size ``ω``: ``subset_size`` when given (an integer in
    ``[1, k − 1]``), else :func:`best_subset_size`; ``(k, ε)`` as :func:`check_protocol`
    checks them."""
    k, eps = check_protocol(k, eps)
    if subset_size is None:
        return best_subset_size(k, eps)
    omega = check_positive_int(subset_size, "subset_size")
    if omega > k - 1:
        raise InvalidInputError(
            f"subset_size must be between 1 and k - 1 = {k - 1}; got {show(subset_size)}.")
    return omega


def check_protocol(k: int, epsilon: float) -> tuple[int, float]:
    """``(k, ε)`` of a frequency oracle: ``k ≥ 2`` inputs, ``0 < ε < ∞``."""
    k = check_positive_int(k, "k")
    if k < 2:
        raise InvalidInputError(f"k must be at least 2 categories; got {show(k)}.")
    eps = check_epsilon(epsilon)
    if eps == 0 or math.isinf(eps):
        raise InvalidInputError(
            f"epsilon must be positive and finite for a frequency oracle (at 0 nothing can "
            f"be estimated, at inf report the input); got {show(epsilon)}."
        )
    return k, eps


def subset_support(k: int, eps: float, omega: int) -> tuple[float, float, float]:
    """``(p, q, p − q)`` of subset selection, divided through by ``e^ε``; ``p − q =
    ω(k − ω)(1 − e^{−ε})/((k − 1)(ω + (k − ω)e^{−ε}))`` in closed form."""
    low = math.exp(-eps)
    denominator = omega + (k - omega) * low
    p = omega / denominator
    q = omega * ((omega - 1) + (k - omega) * low) / ((k - 1) * denominator)
    gap = omega * (k - omega) * -math.expm1(-eps) / ((k - 1) * denominator)
    return p, q, gap


def best_subset_size(k: int, eps: float) -> int:
    """Subset selection's size of least error at the uniform distribution."""
    # The variance times (1 − e^{−ε})², which does not depend on ω: no underflow of
    # (p − q)² at a tiny ε.
    shrink = -math.expm1(-eps)

    low = math.exp(-eps)

    def risk(omega: int) -> float:
        p, q, _ = subset_support(k, eps, omega)
        scaled = omega * (k - omega) / ((k - 1) * (omega + (k - omega) * low))  # gap/shrink
        return k * q * (1 - q) / scaled**2 + (1 - p - q) * shrink / scaled

    if k <= SUBSET_SCAN_MAX_K:
        return min(range(1, k), key=risk)
    # The risk is unimodal in ω (Ye & Barg's (ωe^ε + k − ω)²/(ω(k − ω)), up to
    # constants): a ternary search, then the neighbours (k = 10¹² takes microseconds).
    low_end, high_end = 1, k - 1
    while high_end - low_end > 4:
        third = (high_end - low_end) // 3
        left, right = low_end + third, high_end - third
        if risk(left) <= risk(right):
            high_end = right
        else:
            low_end = left
    return min(range(low_end, high_end + 1), key=risk)


def hadamard_blocks(k: int, epsilon: float, blocks: int | None = None) -> int:
    """Hadamard response's number of blocks ``B``: ``blocks`` when given (a power of two
    in ``[1, 2k]``), else the ``B`` of least error at the uniform distribution (the
    smallest on a tie), as subset selection's size and OLH's buckets are chosen.

    The standard estimator's error against a histogram ``f`` (per report;
    :meth:`~mechdesign.mechanisms.oracles.PureOracle.mse`) is ``k (ρ/B)/(1 − ρ)² + Σ_v
    F_v/(1 − ρ) − 1``, ``F_v`` the mass of ``v``'s block, ``ρ = 2B/(2B − 1 + e^ε)``; at the
    uniform distribution ``Σ_v F_v = Σ_j n_j²/k`` with ``n_j`` inputs in block ``j`` (``b −
    1`` in all but the last). Every power of two up to ``2k`` is scanned (``O(log k)``).
    pure-LDP's rule (one block at ``ε ≤ 1``, else the largest power of two at most ``min(2k,
    e^ε)``) is another choice, passed as ``blocks``; at several ``(k, ε)`` its error at the
    uniform distribution is larger (``benchmarks/hadamard_blocks.py`` prints both).

    Parameters
    ----------
    k : int
        The number of inputs, an integer ``k ≥ 2``.
    epsilon : float
        The LDP level ε in nats; it must be positive and finite.
    blocks : int, optional
        ``B``, a power of two between 1 and ``2k``; default the rule above.

    Returns
    -------
    int
        ``B``.

    References
    ----------
    .. [1] J. Acharya, Z. Sun, H. Zhang, "Hadamard Response: Estimating Distributions Privately,
       Efficiently, and with Little Communication", AISTATS 2019, arXiv:1802.04705.
    """
    k, eps = check_protocol(k, epsilon)
    if blocks is not None:
        count = check_positive_int(blocks, "blocks")
        if count & (count - 1) or count > 2 * k:
            raise InvalidInputError(
                f"blocks must be a power of two between 1 and 2k = {2 * k}; got {show(blocks)}.")
        return count
    low = math.exp(-eps)

    def risk(count: int) -> float:
        width = 1 << math.ceil(math.log2(k / count + 1))
        full, rest = divmod(k, width - 1)
        gap = -math.expm1(-eps) / ((2 * count - 1) * low + 1.0)
        share = 2.0 * low / ((2 * count - 1) * low + 1.0)     # ρ/B
        if gap == 0:
            return math.inf
        with np.errstate(over="ignore"):
            spread = (full * (width - 1) ** 2 + rest * rest) / k
            return float(np.float64(k) * share / gap / gap + spread / gap)

    candidates = [1 << i for i in range(math.floor(math.log2(2 * k)) + 1)]
    return min(candidates, key=risk)


def hadamard_parameters(k: int, eps: float, blocks: int | None = None
                        ) -> tuple[int, int, float, float, float]:
    """Hadamard response's ``(B, K, p, q, p − q)`` in ``B`` blocks (:func:`hadamard_blocks`):
    ``B = 1``: ``K = 2^⌈log2(k + 1)⌉`` outputs, ``p = e^ε/(e^ε + 1)``, ``q = 1/2``;
    ``B > 1``: ``K = B b`` with ``b = 2^⌈log2(k/B + 1)⌉``, ``q = 0`` and
    ``p = p − q = 1 − ρ = (e^ε − 1)/(2B − 1 + e^ε)``
    (:meth:`~mechdesign.mechanisms.oracles.PureOracle.hadamard` derives them); ``(k, ε)``
    as :func:`check_protocol` checks them."""
    k, eps = check_protocol(k, eps)
    count = hadamard_blocks(k, eps, blocks)
    low = math.exp(-eps)
    if count == 1:
        return (count, 1 << math.ceil(math.log2(k + 1)), 1.0 / (1.0 + low), 0.5,
                -math.expm1(-eps) / (2.0 * (1.0 + low)))
    width = 1 << math.ceil(math.log2(k / count + 1))
    gap = -math.expm1(-eps) / ((2 * count - 1) * low + 1.0)   # 1 − ρ
    return count, count * width, gap, 0.0, gap


def generalized_randomized_response(k: int, epsilon: float) -> FrequencyOracle:
    """Generalized randomized response (k-RR, direct encoding): report the input with
    probability ``p = e^ε/(e^ε + k − 1)``, each other value with ``q = 1/(e^ε + k − 1)``
    (Wang et al., USENIX Security 2017, Sec. 4.1; Kairouz, Oh & Viswanath, JMLR 2016).
    The kernel is :func:`~mechdesign.mechanisms.closed_forms.randomized_response`; the estimator is
    its inverse, the only unbiased one.

    Parameters
    ----------
    k : int
        The number of inputs, an integer ``k ≥ 2``.
    epsilon : float
        The LDP level ε in nats; it must be positive and finite.

    Returns
    -------
    FrequencyOracle
        The k × k kernel with its estimator; pure with the ``(p, q)`` above.

    References
    ----------
    .. [1] T. Wang, J. Blocki, N. Li, S. Jha, "Locally Differentially Private Protocols for
       Frequency Estimation", 26th USENIX Security Symposium, 2017, pp. 729-745,
       https://www.usenix.org/system/files/conference/usenixsecurity17/sec17-wang-tianhao.pdf.
    .. [2] P. Kairouz, S. Oh, P. Viswanath, "Extremal Mechanisms for Local Differential
       Privacy", Journal of Machine Learning Research 17(17):1-51, 2016,
       https://jmlr.org/papers/v17/15-135.html.
    """
    k, eps = check_protocol(k, epsilon)
    _check_outputs(k, f"GRR of k = {k}")
    matrix = randomized_response(k, eps).matrix
    low = math.exp(-eps)
    p, q = 1.0 / (1.0 + (k - 1) * low), low / (1.0 + (k - 1) * low)
    gap = -math.expm1(-eps) / (1.0 + (k - 1) * low)  # p − q, no cancellation
    return _pure(matrix, np.eye(k, dtype=bool), p, q, "GRR", eps, gap)


def unary_encoding(k: int, epsilon: float, optimized: bool = True) -> FrequencyOracle:
    """Unary encoding: encode ``x`` as the one-hot vector ``e_x`` of ``k`` bits and flip
    each bit independently; report the ``k`` bits (Wang et al., USENIX Security 2017,
    Sec. 4.2). A bit that is 1 stays 1 with probability ``p``, a bit that is 0 becomes
    1 with probability ``q``:

    - ``optimized=True``, OUE: ``p = 1/2``, ``q = 1/(e^ε + 1)`` (Wang et al.'s optimal
      choice for the variance);
    - ``optimized=False``, SUE (symmetric, basic RAPPOR of Erlingsson, Pihur & Korolova,
      CCS 2014): ``p = e^{ε/2}/(e^{ε/2} + 1)``, ``q = 1 − p``.

    Output ``y ∈ [0, 2^k)`` is the report whose bit ``j`` (``(y >> j) & 1``) is the bit of
    input ``j``, so ``K[x, y] = Π_j P(bit_j | x)``. Both are ε-LDP exactly:
    ``p(1 − q)/((1 − p) q) = e^ε``. Pure: ``y`` supports the inputs of its 1 bits.

    Parameters
    ----------
    k : int
        The number of inputs, an integer ``k ≥ 2``.
    epsilon : float
        The LDP level ε in nats; it must be positive and finite.
    optimized : bool, optional
        OUE (``True``, default) or SUE (``False``).

    Returns
    -------
    FrequencyOracle
        The ``k × 2^k`` kernel with its estimator.

    Raises
    ------
    TooLargeError
        ``2^k`` above :data:`PROTOCOL_MAX_OUTPUTS` (``k > 16``).

    References
    ----------
    .. [1] T. Wang, J. Blocki, N. Li, S. Jha, "Locally Differentially Private Protocols for
       Frequency Estimation", 26th USENIX Security Symposium, 2017, pp. 729-745,
       https://www.usenix.org/system/files/conference/usenixsecurity17/sec17-wang-tianhao.pdf.
    .. [2] Ú. Erlingsson, V. Pihur, A. Korolova, "RAPPOR: Randomized Aggregatable
       Privacy-Preserving Ordinal Response", ACM CCS 2014, pp. 1054-1067, arXiv:1407.6981.
    """
    k, eps = check_protocol(k, epsilon)
    optimized = check_bool(optimized, "optimized")
    if k > math.log2(PROTOCOL_MAX_OUTPUTS):  # 2^k not formed: k may be 10^12
        raise TooLargeError(
            f"k = {k} gives unary encoding 2^k outputs, above PROTOCOL_MAX_OUTPUTS = "
            f"{PROTOCOL_MAX_OUTPUTS:,} (its kernel is a dense matrix): the largest supported "
            f"k is {int(math.log2(PROTOCOL_MAX_OUTPUTS))}."
        )
    # p = P(bit 1 | own bit), q = P(bit 1 | another bit), and their logs in a form that
    # neither overflows nor cancels at large ε.
    if optimized:
        log_p = log_not_p = math.log(0.5)
        log_not_q = -math.log1p(math.exp(-eps))  # log(1 − q) = log(e^ε/(e^ε + 1))
        log_q = -eps + log_not_q  # q = 1/(e^ε + 1)
    else:
        log_p = log_not_q = -math.log1p(math.exp(-eps / 2))  # p = 1 − q = e^{ε/2}/(e^{ε/2} + 1)
        log_q = log_not_p = -eps / 2 + log_p
    p, q = math.exp(log_p), math.exp(log_q)
    bits = (np.arange(2**k)[:, None] >> np.arange(k)[None, :]) & 1  # (2^k, k)
    bits = bits.astype(bool)
    # log K[x, y] = Σ_j log P(bit_j | j ≠ x) + the correction of bit x.
    log_other = np.where(bits, log_q, log_not_q).sum(axis=1)  # (2^k,)
    log_own = np.where(bits, log_p - log_q, log_not_p - log_not_q)
    matrix = np.exp(log_other[None, :] + log_own.T)  # (k, 2^k)
    matrix /= matrix.sum(axis=1, keepdims=True)  # rounding only
    name = "OUE" if optimized else "SUE"
    # p − q: OUE 1/2 − 1/(e^ε + 1) = tanh(ε/2)/2; SUE tanh(ε/4).
    gap = math.tanh(eps / 2) / 2 if optimized else math.tanh(eps / 4)
    return _pure(matrix, bits, p, q, name, eps, gap)


def subset_selection(k: int, epsilon: float, subset_size: int | None = None) -> FrequencyOracle:
    """Subset selection (the ``k``-subset mechanism): report a subset ``S`` of ``ω``
    inputs, with probability proportional to ``e^ε`` if it contains the input and to
    ``1`` otherwise (Ye & Barg, IEEE Trans. Inf. Theory 2018 [1]_; Wang, Huang, Wang,
    Nie, Xu, Yang, Li & Qiao, "Mutual information optimally local private discrete
    distribution estimation", 2016 [2]_). With ``Z = C(k−1, ω−1) e^ε + C(k−1, ω)``,
    ``K[x, S] = e^ε/Z`` for ``x ∈ S`` and ``1/Z`` otherwise; outputs are the
    ``C(k, ω)`` subsets in lexicographic order (:func:`itertools.combinations`). ε-LDP
    exactly for ``1 ≤ ω ≤ k − 1``; ``ω = 1`` is k-RR. Pure, with

    .. math::

        p = \\frac{\\omega e^\\varepsilon}{\\omega e^\\varepsilon + k - \\omega}, \\qquad
        q = \\frac{\\omega\\,((\\omega - 1) e^\\varepsilon + k - \\omega)}
        {(k - 1)(\\omega e^\\varepsilon + k - \\omega)}.

    ``subset_size=None`` takes the ``ω`` that minimises the variance at the uniform
    distribution, :meth:`FrequencyOracle.variance` (Ye & Barg's optimum,
    ``ω ≈ k/(e^ε + 1)``, up to rounding).

    Parameters
    ----------
    k : int
        The number of inputs, an integer ``k ≥ 2``.
    epsilon : float
        The LDP level ε in nats; it must be positive and finite.
    subset_size : int, optional
        ``ω``, an integer in ``[1, k − 1]``; default the variance-minimising size.

    Returns
    -------
    FrequencyOracle
        The ``k × C(k, ω)`` kernel with its estimator.

    Raises
    ------
    TooLargeError
        ``C(k, ω)`` above :data:`PROTOCOL_MAX_OUTPUTS`.

    References
    ----------
    .. [1] M. Ye, A. Barg, "Optimal Schemes for Discrete Distribution Estimation Under Locally
       Differential Privacy", IEEE Transactions on Information Theory, 2018, arXiv:1702.00610.
    .. [2] S. Wang, L. Huang, P. Wang, Y. Nie, H. Xu, W. Yang, X.-Y. Li, C. Qiao, "Mutual
       Information Optimally Local Private Discrete Distribution Estimation", 2016,
       arXiv:1607.08025.
    """
    k, eps = check_protocol(k, epsilon)
    # C(k, ω) ≥ k for every 1 ≤ ω ≤ k − 1: refuse a large k before searching ω.
    _check_outputs(k, f"subset selection of k = {k}")
    omega = choose_subset_size(k, eps, subset_size)
    p, q, gap = subset_support(k, eps, omega)
    _check_outputs(math.comb(k, omega), f"subset selection of {omega} of k = {k}")
    subsets = np.zeros((math.comb(k, omega), k), dtype=bool)
    for row, subset in enumerate(itertools.combinations(range(k), omega)):
        subsets[row, list(subset)] = True
    # Divided by e^ε: 1 for x ∈ S, e^{−ε} otherwise (no overflow at large ε).
    raw = np.where(subsets.T, 1.0, math.exp(-eps))
    matrix = raw / raw.sum(axis=1, keepdims=True)
    return _pure(matrix, subsets, p, q, f"subset selection (omega = {omega})", eps, gap)


def hash_family(
    k: int, buckets: int, *, size: int | None = None, seed: int | None = 0
) -> NDArray[np.int64]:
    """A finite family of hash functions ``[k] → [buckets]`` for :func:`local_hashing_kernel`,
    as an integer array of shape ``(H, k)``.

    ``size=None``: the family ``h_a(x) = a · bits(x) mod g`` over every
    ``a ∈ {0, …, g − 1}^m`` (``bits(x)`` the ``m = ⌈log2 k⌉`` binary digits of ``x``,
    ``g = buckets``): ``H = g^m``. It is exactly universal: for ``x ≠ x'`` the difference
    ``d = bits(x) − bits(x')`` has an entry ``±1``, a unit mod ``g``, so ``a·d ≡ 0`` for
    exactly a ``1/g`` fraction of the ``a`` — every pair collides in exactly ``1/g`` of
    the functions, the property under which OLH's standard estimator is unbiased.
    ``size=H``: ``H`` functions drawn uniformly at random (``seed``); every pair then
    collides in about ``1/g`` of them, and the estimator has a small bias that
    :func:`estimation_mse` includes.

    Parameters
    ----------
    k : int
        The number of inputs, a positive integer of at most :data:`PROTOCOL_MAX_OUTPUTS`.
    buckets : int
        ``g``, an integer ``g ≥ 2`` of at most :data:`PROTOCOL_MAX_OUTPUTS`.
    size : int, optional
        ``H``, a positive integer: draw that many random functions (``H·g`` at most
        :data:`PROTOCOL_MAX_OUTPUTS`); default ``None``, the exactly universal family.
    seed : int or None, optional
        Seed (an integer ≥ 0, default 0) of :func:`numpy.random.default_rng` for the
        random family; ``None`` draws a fresh one. Unused when ``size`` is ``None``.

    Returns
    -------
    ndarray of int64, shape (H, k)
        Row ``h`` is the function ``x ↦ family[h, x]``, values in ``range(buckets)``.

    Raises
    ------
    TooLargeError
        ``size=None`` and ``g^m · g`` above :data:`PROTOCOL_MAX_OUTPUTS` (pass ``size``).

    References
    ----------
    .. [1] T. Wang, J. Blocki, N. Li, S. Jha, "Locally Differentially Private Protocols for
       Frequency Estimation", 26th USENIX Security Symposium, 2017, pp. 729-745,
       https://www.usenix.org/system/files/conference/usenixsecurity17/sec17-wang-tianhao.pdf.
    """
    k = check_size(k, "k", PROTOCOL_MAX_OUTPUTS,
                   why="local hashing's kernel has k rows and at least k outputs")
    g = check_positive_int(buckets, "buckets")
    if g < 2:
        raise InvalidInputError(f"buckets must be at least 2; got {show(buckets)}.")
    _check_outputs(g, f"a hash family into {g:,} buckets")
    seed = check_seed(seed)
    if size is not None:
        h = check_positive_int(size, "size")
        _check_outputs(h * g, f"a family of {h:,} hash functions into {g:,} buckets")
        return np.random.default_rng(seed).integers(0, g, size=(h, k))
    m = max(1, math.ceil(math.log2(k)))
    _check_outputs(g ** (m + 1), f"the universal family of {g}^{m} hash functions (g = {g})")
    bits = (np.arange(k)[:, None] >> np.arange(m)[None, :]) & 1  # (k, m)
    coefficients = np.array(list(itertools.product(range(g), repeat=m)))  # (g^m, m)
    return (coefficients @ bits.T) % g


def local_hashing_kernel(
    k: int, epsilon: float, hashes: ArrayLike, buckets: int | None = None
) -> FrequencyOracle:
    """The dense kernel of local hashing over a given finite family of hash functions
    (OLH: Wang et al., USENIX Security 2017, Sec. 4.4), with its standard estimator:
    :func:`~mechdesign.mechanisms.oracles.local_hashing` with ``hashes``, which is the
    entry point (without ``hashes`` it returns the fresh-hash oracle).

    A user draws ``h`` uniformly from the ``H`` rows of ``hashes``, computes ``b = h(x)``,
    reports ``(h, b')`` with ``b' = b`` with probability ``p' = e^ε/(e^ε + g − 1)`` and
    each other bucket with ``q' = 1/(e^ε + g − 1)``. Output ``h·g + b'`` is the pair
    ``(h, b')``: ``K[x, (h, b')] = (p' if h(x) = b' else q')/H``. ε-LDP (exactly, once
    some ``h`` separates two inputs).

    The standard estimator counts the reports whose bucket contains ``v``:
    ``E[(h, b'), v] = (1[h(v) = b'] − 1/g)/(p' − 1/g)``. It is unbiased exactly when every
    pair of inputs collides in a ``1/g`` fraction of the family (then the protocol is
    pure with ``p = p'``, ``q = 1/g``), as for :func:`hash_family`'s universal family;
    for another family :func:`estimation_mse` includes its bias.

    Parameters
    ----------
    k : int
        The number of inputs, an integer ``k ≥ 2``.
    epsilon : float
        The LDP level ε in nats; it must be positive and finite.
    hashes : array_like of int, shape (H, k)
        Row ``h`` is the hash function ``x ↦ hashes[h, x]``, values in ``range(buckets)``.
    buckets : int, optional
        ``g``, an integer ``g ≥ 2``; default ``round(e^ε) + 1``, OLH's optimum.

    Returns
    -------
    FrequencyOracle
        ``H·g`` outputs, at most :data:`PROTOCOL_MAX_OUTPUTS`.

    References
    ----------
    .. [1] T. Wang, J. Blocki, N. Li, S. Jha, "Locally Differentially Private Protocols for
       Frequency Estimation", 26th USENIX Security Symposium, 2017, pp. 729-745,
       https://www.usenix.org/system/files/conference/usenixsecurity17/sec17-wang-tianhao.pdf.
    """
    k, eps = check_protocol(k, epsilon)
    if buckets is None:
        if eps > math.log(PROTOCOL_MAX_OUTPUTS):
            _check_outputs(math.inf, f"local hashing at epsilon = {show(eps)}")
        g = round(math.exp(eps)) + 1
    else:
        g = check_positive_int(buckets, "buckets")
        if g < 2:
            raise InvalidInputError(f"buckets must be at least 2; got {show(buckets)}.")
    try:
        family = np.asarray(hashes)
    except (TypeError, ValueError):  # ragged nesting
        family = np.zeros((0, 0))
    if family.ndim != 2 or family.shape[1] != k or family.shape[0] < 1 or not (
        np.issubdtype(family.dtype, np.integer)
    ):
        raise InvalidInputError(
            f"hashes must be an integer array of shape (H, k = {k}) with H >= 1; got "
            f"{show(hashes)}."
        )
    if family.min() < 0 or family.max() >= g:
        raise InvalidInputError(
            f"hashes must take values in range(buckets) = range({g}); got values from "
            f"{family.min()} to {family.max()}."
        )
    n_hashes = family.shape[0]
    _check_outputs(n_hashes * g, f"local hashing with {n_hashes} functions and {g} buckets")
    low = math.exp(-eps)
    p_bucket, q_bucket = 1.0 / (1.0 + (g - 1) * low), low / (1.0 + (g - 1) * low)
    # hit[h, b, x] = (h(x) == b).
    hit = family[:, None, :] == np.arange(g)[None, :, None]
    hit = hit.reshape(n_hashes * g, k)
    matrix = np.where(hit.T, p_bucket, q_bucket) / n_hashes
    _check_representable(matrix, eps)
    gap = (g - 1) * -math.expm1(-eps) / (g * (1.0 + (g - 1) * low))  # p' − 1/g
    estimator = _estimator(hit, 1.0 / g, gap, eps, max(k, g))
    collisions = (family[:, :, None] == family[:, None, :]).mean(axis=0)
    off_diagonal = collisions[~np.eye(k, dtype=bool)]
    universal = bool(np.all(np.abs(off_diagonal - 1.0 / g) <= ROUNDING_ATOL))
    support = (p_bucket, 1.0 / g) if universal else None
    return FrequencyOracle(matrix, protocol=f"OLH (g = {g}, H = {n_hashes})", epsilon=eps,
                           estimator=estimator, support=support)


def hadamard_response(k: int, epsilon: float, blocks: int | None = None) -> FrequencyOracle:
    """Hadamard response (Acharya, Sun & Zhang, "Hadamard response: estimating
    distributions privately, efficiently, and with little communication", AISTATS
    2019 [1]_), in ``B`` blocks (:func:`~mechdesign.mechanisms.oracles.hadamard_blocks`: by
    default one at ``ε ≤ 1``, else the largest power of two at most ``min(2k, e^ε)``, the
    general response as pure-LDP deploys it [2]_).

    One block (the high-privacy response): with ``K = 2^⌈log2(k + 1)⌉`` and the
    Sylvester–Hadamard matrix ``H_K``, input ``x`` owns the set
    ``C_x = {y : H_K[x + 1, y] = +1}`` of ``K/2`` outputs (row 0, all ones, is skipped)
    and reports ``y`` with probability ``2e^ε/(K(1 + e^ε))`` for ``y ∈ C_x`` and
    ``2/(K(1 + e^ε))`` otherwise. ε-LDP exactly. Two distinct rows share ``K/4`` of their
    ``+1`` positions, so ``P(y ∈ C_v | x ≠ v) = 1/2``: pure, with ``p = e^ε/(1 + e^ε)``,
    ``q = 1/2``.

    ``B`` blocks of ``b = 2^⌈log2(k/B + 1)⌉`` outputs (``K = B b``): input ``x`` lies in
    block ``j = ⌊x/(b − 1)⌋`` at row ``t = x mod (b − 1) + 1`` of ``H_b`` and owns
    ``C_x = {j b + z : H_b[t, z] = +1}`` (``s = b/2`` outputs);
    ``K[x, y] = e^ε/(s e^ε + K − s)`` on ``C_x`` and ``1/(s e^ε + K − s)`` elsewhere
    (ε-LDP exactly; ``B = 1`` is the response above). Not pure; its standard estimator is
    ``E[y, v] = H_b[t_v, z]/(1 − ρ)`` for ``y = j_v b + z`` in ``v``'s block and 0
    elsewhere, ``1 − ρ = (e^ε − 1)/(2B − 1 + e^ε)`` — pure-LDP's decoder (the block's
    estimated mass subtracted from twice the support count), unbiased
    (:meth:`~mechdesign.mechanisms.oracles.PureOracle.hadamard` derives it).

    Parameters
    ----------
    k : int
        The number of inputs, an integer ``k ≥ 2``.
    epsilon : float
        The LDP level ε in nats; it must be positive and finite.
    blocks : int, optional
        ``B``, a power of two between 1 and ``2k``; default the rule above.

    Returns
    -------
    FrequencyOracle
        The ``k × K`` kernel with its estimator (``K`` at most
        :data:`PROTOCOL_MAX_OUTPUTS`); ``support`` is ``(p, q)`` for one block and
        ``None`` for several.

    References
    ----------
    .. [1] J. Acharya, Z. Sun, H. Zhang, "Hadamard Response: Estimating Distributions Privately,
       Efficiently, and with Little Communication", AISTATS 2019, arXiv:1802.04705.
    .. [2] S. Maddock, "pure-LDP: simple pure LDP frequency oracle implementations",
       version 1.2.0, 2020-2023, https://github.com/Samuel-Maddock/pure-LDP
       (``Hadamard_Rand_general_original``).
    """
    k, eps = check_protocol(k, epsilon)
    count, size, p, _, gap = hadamard_parameters(k, eps, blocks)
    name = "Hadamard response" if count == 1 else f"Hadamard response (B = {count})"
    _check_outputs(size, f"Hadamard response of k = {k} in {count} block(s)")
    low = math.exp(-eps)  # divided by e^ε
    if count == 1:
        owned = scipy.linalg.hadamard(size)[1 : k + 1] > 0  # (k, K)
        matrix = np.where(owned, 2.0 / (size * (1.0 + low)),
                          2.0 * low / (size * (1.0 + low)))
        return _pure(matrix, owned.T, p, 0.5, name, eps, gap)
    width = size // count
    signs = np.zeros((k, size))  # H_b[t_x, z] at x's block, 0 elsewhere
    x = np.arange(k)
    block, row = x // (width - 1), x % (width - 1) + 1
    columns = block[:, None] * width + np.arange(width)[None, :]
    signs[x[:, None], columns] = scipy.linalg.hadamard(width)[row]
    half = width // 2
    matrix = np.where(signs > 0, 1.0, low) / (half + (size - half) * low)
    _check_representable(matrix, eps)
    with np.errstate(over="ignore", divide="ignore"):
        estimator = signs.T / gap
    if not (gap > 0 and np.all(np.isfinite(estimator))):
        raise UnsupportedError(
            f"at epsilon = {show(eps)} the estimator's entries, 1/(1 - rho) ~ 2B/epsilon, "
            "exceed the largest double.")
    return FrequencyOracle(matrix, protocol=name, epsilon=eps, estimator=estimator)


def estimation_mse(
    kernel: Mechanism | ArrayLike,
    prior: ArrayLike,
    n: int,
    *,
    estimator: ArrayLike | Literal["blue"] | None = None,
    workload: str | ArrayLike | None = None,
    target: Literal["histogram", "distribution"] = "histogram",
) -> float:
    """Exact expected squared ℓ2 error of frequency estimation from ``n`` reports.

    The model: ``n`` users hold inputs drawn independently from ``prior``, each sends
    one report of ``K``, and a linear estimator ``E`` (shape (M, N)) estimates
    ``f̂ = (1/n) Σ_i E[y_i]``. With ``A = K E − I`` (zero when ``E`` is unbiased) and
    ``f`` the users' empirical histogram, ``E[f̂ | inputs] = f K E``, and

    .. math::

        \\mathbb E\\,\\lVert \\hat f - f \\rVert^2 = \\frac1n \\sum_x P_x \\Bigl(\\sum_y
        K_{xy} \\lVert E_y \\rVert^2 - \\lVert (KE)_x \\rVert^2\\Bigr)
        + \\lVert P A \\rVert^2 + \\frac1n \\Bigl(\\sum_x P_x \\lVert A_x \\rVert^2
        - \\lVert P A \\rVert^2\\Bigr)

    (variance of the reports given the inputs, plus the expected squared bias
    ``‖f A‖²``). ``target="histogram"`` (default) is the error against ``f``, the
    quantity of the LDP literature: for an unbiased pure protocol it is Wang et al.'s
    closed form (:meth:`FrequencyOracle.variance`) with ``f = prior``, exactly.
    ``target="distribution"`` is the error against ``prior`` itself, larger by the
    sampling error of the inputs.

    A workload ``W`` (L × N, :func:`~mechdesign.measures.estimation.workload_matrix`) asks for the
    error of the answers ``f̂ Wᵀ`` instead: the formula above with ``E`` replaced by
    ``E Wᵀ`` and ``I`` by ``Wᵀ`` (``None``, the default, is the histogram, ``W = I``).

    Which estimator: ``"blue"``, the best linear unbiased estimator at ``prior``
    (:func:`~mechdesign.measures.estimation.blue_estimator`: ``D⁻¹Kᵀ(KD⁻¹Kᵀ)⁻¹``, best for every
    workload; its error is :func:`~mechdesign.measures.estimation.blue_error` ``/ n``);
    ``estimator`` when given as an array; a :class:`FrequencyOracle`'s own
    (the protocol's standard estimator); otherwise the least-squares estimator
    ``E = K⁺`` (Moore–Penrose; ``f̂ = argmin_f ‖f K − π̂‖₂`` for the empirical report
    distribution ``π̂``), which is unbiased exactly when ``K`` has rank ``N`` and is
    ``K⁻¹`` for a square invertible kernel — the unique unbiased linear estimator there.
    Least squares is not the best unbiased estimator of a general kernel (it weighs
    every output alike; the BLUE weighs them by ``1/r_y``): it is the default for
    backward compatibility, ``estimator="blue"`` is the better choice.
    When ``K`` has rank below ``N`` (a designed mechanism with fewer than ``N``
    outputs, say) no unbiased linear estimator exists and the error is ``math.inf``.

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        The mechanism (rows are the N inputs); it must be row-stochastic. A
        :class:`FrequencyOracle` brings its own estimator.
    prior : array_like, shape (N,)
        The distribution of the users' inputs (non-negative, summing to 1).
    n : int
        Number of reports, ``n ≥ 1``.
    estimator : "blue" or array_like, shape (M, N), optional
        ``"blue"``, an explicit linear estimator ``E``, or ``None`` (default): the
        oracle's own, else least squares (see above).
    workload : {None, "histogram", "prefix", "all-range"} or array_like, shape (L, N)
        The queries (:func:`~mechdesign.measures.estimation.workload_matrix`; for ``"marginals"``
        pass its matrix, which needs the alphabet's shape).
    target : {"histogram", "distribution"}
        The error against the users' histogram (default) or against ``prior``.

    Returns
    -------
    float
        The expected squared error; ``math.inf`` when the least-squares or ``"blue"``
        estimator is asked for and no unbiased linear estimator exists, or when the error
        exceeds the largest double.

    References
    ----------
    .. [1] T. Wang, J. Blocki, N. Li, S. Jha, "Locally Differentially Private Protocols for
       Frequency Estimation", 26th USENIX Security Symposium, 2017, pp. 729-745,
       https://www.usenix.org/system/files/conference/usenixsecurity17/sec17-wang-tianhao.pdf.
    """
    k = as_matrix(kernel)
    p = as_distribution(prior, "prior", k.shape[0])
    queries = workload_matrix(workload, k.shape[0]).T  # N × L: the identity for histograms
    count = check_positive_int(n, "n")
    if target not in ("histogram", "distribution"):
        raise InvalidInputError(
            f"target must be 'histogram' or 'distribution'; got {show(target)}."
        )
    size = k.shape[0]
    if isinstance(estimator, str):
        if estimator != "blue":
            raise InvalidInputError(
                f"estimator must be 'blue', an (M, N) array or None; got {show(estimator)}."
            )
        try:
            e = blue_estimator(k, p)
        except InvalidInputError:
            return math.inf  # no unbiased linear estimator: J is singular
    elif estimator is not None:
        e = as_float_array(estimator, "estimator", ndim=2)
        if e.shape != (k.shape[1], size):
            raise InvalidInputError(
                f"estimator must have shape {(k.shape[1], size)} (outputs, inputs); got "
                f"{e.shape}."
            )
    elif isinstance(kernel, FrequencyOracle):
        e = kernel.estimator
    else:
        if np.linalg.matrix_rank(k) < size:
            return math.inf
        e = np.linalg.pinv(k)
    # The workload's answers: estimator E Wᵀ of the target f Wᵀ. Every term is quadratic
    # in (E Wᵀ, Wᵀ): computed for both over s, the largest entry, then scaled by s² — an
    # estimator entry of 1e308 gives inf (the error is beyond every double), not an
    # overflow inside the sums.
    with np.errstate(over="ignore", invalid="ignore"):
        e = e @ queries
    if not np.all(np.isfinite(e)):
        return math.inf
    scale = max(1.0, float(np.abs(e).max()), float(np.abs(queries).max()))
    e = e / scale
    expected = k @ e  # row x: E[E[y] | x] / s
    bias = expected - queries / scale
    second = k @ np.sum(e * e, axis=1)  # Σ_y K[x, y] ‖E_y‖² / s²
    noise = float(p @ (second - np.sum(expected * expected, axis=1))) / count
    mean_bias = p @ bias
    squared_bias = float(mean_bias @ mean_bias)
    if target == "histogram":
        spread = float(p @ np.sum(bias * bias, axis=1)) - squared_bias
    else:
        mean = p @ expected
        spread = float(p @ np.sum(expected * expected, axis=1)) - float(mean @ mean)
    total = noise + squared_bias + spread / count
    return total if scale == 1.0 else total * scale * scale  # exact: no scaling needed


#: ``local_hashing`` (with and without a hash family) moved to
#: :mod:`mechdesign.mechanisms.oracles`, which returns this module's kernel when given
#: ``hashes``; for one release it still answers here, with a :class:`DeprecationWarning`.
__getattr__ = deprecated_names(__name__, {
    "local_hashing": "mechdesign.mechanisms.oracles.local_hashing"})
