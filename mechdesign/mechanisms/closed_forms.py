"""Closed-form mechanisms from the papers (rows are inputs; see the package docstring).

- :func:`randomized_response` — k-ary randomized response (GRR, k-RR).
- :func:`binary_mechanism` — the binary mechanism of Kairouz, Oh & Viswanath.
- :func:`extremal_binary_mechanism` — Remark 2 of the Dobrushin paper, with
  :func:`extremal_binary_valid_q` for the admissible q.
- :func:`pml_binary_mechanism` — eq. (35) of the Dobrushin paper (Example 1, N = 2).
- :func:`pml_extremal_mechanism` — the PML-extremal mechanism of the envelope paper
  (Sec. V-A), in its high-privacy regime only.
- :func:`secret_randomized_response` — SRR (robust-LDP paper, Definition 4).
- :func:`independent_reporting` — IR of two mechanisms (Definition 5), and
  :func:`design_independent_reporting`, the robust-LDP paper's IR protocol (Theorems 5–6
  with the search over the budget split).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable
from dataclasses import dataclass
from numbers import Integral

import numpy as np
from numpy.typing import ArrayLike
from scipy.optimize import minimize_scalar

from mechdesign._tolerances import (
    IR_SPLIT_XATOL,
    REMARK2_RTOL,
    ROUNDING_ATOL,
    STOCHASTIC_ATOL,
    THRESHOLD_RTOL,
)
from mechdesign._validation import (
    as_distribution,
    check_c,
    check_epsilon,
    check_positive_int,
    check_size,
    show,
)
from mechdesign.errors import InvalidInputError, TooLargeError
from mechdesign.kernel import Mechanism, as_matrix
from mechdesign.measures.leakage import mutual_information
from mechdesign.notions.uncertainty import (
    RenyiBall,
    SecretAlphabet,
    center_conditionals,
    conditional_radii,
)

__all__ = [
    "IndependentReporting",
    "binary_mechanism",
    "design_independent_reporting",
    "extremal_binary_mechanism",
    "extremal_binary_valid_q",
    "independent_reporting",
    "ir_distance_bound",
    "pml_binary_mechanism",
    "pml_extremal_mechanism",
    "randomized_response",
    "secret_randomized_response",
]

#: Points of the grid over ε₂ ∈ [0, ε] in :func:`design_independent_reporting` before the
#: best grid points are refined (the IR utility is not concave in ε₂).
IR_GRID_POINTS = 65

#: Largest N for which :func:`binary_mechanism` searches every subset for the best split.
BINARY_SPLIT_MAX_N = 22

#: Most entries of a dense kernel built here (2²⁶ doubles, 512 MB): k-RR and SRR on at
#: most 8192 inputs, the binary mechanism on at most 2²⁵.
MECHANISM_MAX_ENTRIES = 2**26


def randomized_response(k: int, epsilon: float) -> Mechanism:
    """k-ary randomized response (generalised randomized response, k-RR):

    .. math::

        K[x, y] = \\frac{e^\\varepsilon}{e^\\varepsilon + k - 1} \\ (y = x), \\qquad
        \\frac{1}{e^\\varepsilon + k - 1} \\ (y \\ne x).

    ε-LDP exactly (Warner 1965 [1]_ for k = 2; Kairouz, Oh & Viswanath, JMLR 2016 [2]_;
    envelope paper [3]_, Sec. V-B). ``ε = ∞`` gives the identity.

    Parameters
    ----------
    k : int
        The number of inputs (and outputs), a positive integer of at most 8192 (the dense
        k × k kernel is capped by :data:`MECHANISM_MAX_ENTRIES`).
    epsilon : float
        The LDP level ε ≥ 0 in nats (``math.inf`` allowed).

    Returns
    -------
    Mechanism
        The k × k kernel.

    References
    ----------
    .. [1] S. L. Warner, "Randomized Response: A Survey Technique for Eliminating Evasive Answer
       Bias", Journal of the American Statistical Association 60(309):63-69, 1965,
       https://www.jstor.org/stable/2283137.
    .. [2] P. Kairouz, S. Oh, P. Viswanath, "Extremal Mechanisms for Local Differential
       Privacy", Journal of Machine Learning Research 17(17):1-51, 2016,
       https://jmlr.org/papers/v17/15-135.html.
    .. [3] S. Saeidian, C. Pinzón, C. Palamidessi, "Information Leakage Envelopes", 2026,
       arXiv:2605.21185.
    """
    k = check_size(k, "k", math.isqrt(MECHANISM_MAX_ENTRIES),
                   why=f"the kernel is a dense k x k matrix, MECHANISM_MAX_ENTRIES = "
                       f"{MECHANISM_MAX_ENTRIES:,}")
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
    """The binary mechanism of Kairouz, Oh & Viswanath (JMLR 2016) [1]_: two outputs,

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

    Parameters
    ----------
    epsilon : float
        The LDP level ε ≥ 0 in nats (``math.inf`` allowed: the kernel is then
        deterministic).
    subset : iterable of int, optional
        The set T of inputs reported as output 0: indices in ``0..n−1`` (repeats count
        once). Needs ``n``; give exactly one of ``subset`` and ``prior``.
    n : int, optional
        The number of inputs N, a positive integer; required with ``subset`` (at most
        :data:`MECHANISM_MAX_ENTRIES` // 2), and with ``prior`` it must equal its length.
    prior : array_like, shape (N,), optional
        The input distribution (non-negative, summing to 1) whose mutual information the
        choice of T maximises; N at most :data:`BINARY_SPLIT_MAX_N` (a larger N raises
        :class:`~mechdesign.errors.TooLargeError`).

    Returns
    -------
    Mechanism
        The N × 2 kernel.

    References
    ----------
    .. [1] P. Kairouz, S. Oh, P. Viswanath, "Extremal Mechanisms for Local Differential
       Privacy", Journal of Machine Learning Research 17(17):1-51, 2016,
       https://jmlr.org/papers/v17/15-135.html.
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
        n_val = check_size(n, "n", MECHANISM_MAX_ENTRIES // 2,
                           why="the kernel is a dense n x 2 matrix")
        if isinstance(subset, (str, bytes)) or not isinstance(subset, Iterable):
            raise InvalidInputError(
                f"subset must be a collection of input indices (integers); got {show(subset)}."
            )
        if isinstance(subset, np.ndarray) and subset.ndim != 1:
            raise InvalidInputError(f"subset must be 1-D; got shape {subset.shape}.")
        entries = list(subset)
        if any(isinstance(i, (bool, np.bool_)) or not isinstance(i, Integral) for i in entries):
            raise InvalidInputError(
                f"subset must contain integer input indices; got {show(subset)}."
            )
        members = sorted({int(i) for i in entries})
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
            if gap < best_gap - ROUNDING_ATOL:
                best, best_gap = list(members), gap
    return best


def extremal_binary_valid_q(epsilon: float, c: float, n: int) -> list[int]:
    """The q in {1, …, N−1} for which Remark 2's kernel [1]_ is a valid mechanism.

    ``m ≥ 0`` needs ``e^ε c q ≤ 1`` and ``M ≤ 1`` needs ``e^ε c (N − q) ≤ 1``
    (an erratum: docs/theorems.md, Remark 2). For odd N and
    ``log(2/((N+1)c)) < ε < log(2/(Nc))`` the list is empty although Ξ(ε, c) < 1 is still
    attained (by a kernel with three levels); at the left end, ``e^ε c = 2/(N+1)``, the
    two q = (N ± 1)/2 are valid (with an entry exactly 0 or 1).

    Parameters
    ----------
    epsilon : float
        The (ε, c)-PML level ε ≥ 0 in nats (``math.inf`` gives the empty list).
    c : float
        The (ε, c)-PML constant, ``0 < c ≤ 1/N``.
    n : int
        The number of inputs N, a positive integer.

    Returns
    -------
    list of int
        The valid q, ascending (possibly empty).

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Dobrushin Coefficients of
       Private Mechanisms Beyond Local Differential Privacy", 2026, arXiv:2601.09498.
    """
    eps = check_epsilon(epsilon)
    n_val = check_positive_int(n, "n")
    c_val = check_c(c, n_val)
    if math.isinf(eps):
        return []
    # e^ε c q ≤ 1 in logs (e^ε overflows above ε ≈ 709.8 while c may be tiny).
    log_scale = eps + math.log(c_val)
    limit = math.log1p(REMARK2_RTOL)  # equality rounds either way (REMARK2_RTOL)
    return [q for q in range(1, n_val)
            if log_scale + math.log(q) <= limit and log_scale + math.log(n_val - q) <= limit]


def extremal_binary_mechanism(epsilon: float, c: float, n: int, q: int) -> Mechanism:
    """Remark 2 of the Dobrushin paper: the binary kernel ``K = [p, 1 − p]`` with

    .. math::

        p = (\\underbrace{M, …, M}_{q}, \\underbrace{m, …, m}_{N-q}), \\quad
        m = \\frac{1 - e^\\varepsilon c q}{1 + e^\\varepsilon(1 - Nc)}, \\quad
        M = \\frac{e^\\varepsilon (1 - c q)}{1 + e^\\varepsilon(1 - Nc)},

    which is (ε, c)-PML with Dobrushin coefficient ``M − m = Ξ(ε, c)`` (Theorem 3) —
    for a valid q only (:func:`extremal_binary_valid_q`); an invalid q raises.

    Parameters
    ----------
    epsilon : float
        The (ε, c)-PML level ε ≥ 0 in nats.
    c : float
        The (ε, c)-PML constant, ``0 < c ≤ 1/N``.
    n : int
        The number of inputs N, a positive integer.
    q : int
        The number of inputs with the larger entry M; it must be one of
        :func:`extremal_binary_valid_q` ``(epsilon, c, n)``.

    Returns
    -------
    Mechanism
        The N × 2 kernel.

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Dobrushin Coefficients of
       Private Mechanisms Beyond Local Differential Privacy", 2026, arXiv:2601.09498.
    """
    eps = check_epsilon(epsilon)
    n_val = check_positive_int(n, "n")
    c_val = check_c(c, n_val)
    valid = extremal_binary_valid_q(eps, c_val, n_val)
    if isinstance(q, bool) or not isinstance(q, Integral) or int(q) not in valid:
        raise InvalidInputError(
            f"q = {show(q)} does not give a valid Remark 2 kernel for epsilon = {show(eps)}, c = "
            f"{show(c_val)}, N = {n_val}: it needs 1 <= q <= N-1, e^eps*c*q <= 1 and "
            f"e^eps*c*(N-q) <= 1. Valid q: {valid if valid else 'none'}."
        )
    q = int(q)  # numpy integers are valid q too
    # Divided through by e^ε (no overflow at a large ε):
    # m = (e^{−ε} − c q)/(e^{−ε} + 1 − Nc), M = (1 − c q)/(e^{−ε} + 1 − Nc).
    shrink = math.exp(-eps)
    denominator = shrink + (1.0 - n_val * c_val)
    # At equality in a validity condition the entry is exactly 0 or 1 (REMARK2_RTOL).
    low = max((shrink - c_val * q) / denominator, 0.0)
    high = min((1.0 - c_val * q) / denominator, 1.0)
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

    Parameters
    ----------
    epsilon : float
        The (ε, c)-PML level ε ≥ 0 in nats.
    c : float
        The (ε, c)-PML constant for N = 2; it must satisfy ``0 < c ≤ 1/2`` and
        ``e^ε c ≤ 1``.

    Returns
    -------
    Mechanism
        The 2 × 2 kernel.

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Dobrushin Coefficients of
       Private Mechanisms Beyond Local Differential Privacy", 2026, arXiv:2601.09498.
    .. [2] S. L. Warner, "Randomized Response: A Survey Technique for Eliminating Evasive Answer
       Bias", Journal of the American Statistical Association 60(309):63-69, 1965,
       https://www.jstor.org/stable/2283137.
    """
    return extremal_binary_mechanism(epsilon, c, 2, 1)


def pml_extremal_mechanism(epsilon: float, prior: ArrayLike) -> Mechanism:
    """The PML-extremal mechanism (envelope paper [1]_, Sec. V-A; Grosse et al. [2]_):

    .. math::

        K[i, j] = 1 - e^\\varepsilon (1 - P(i)) \\ (i = j), \\qquad
        K[i, j] = e^\\varepsilon P(j) \\ (i \\ne j),

    optimal for a broad class of utilities under ε-PML for the prior ``P`` in the
    high-privacy regime ``0 ≤ ε < log(1 / (1 − min_x P(x)))``; every outcome has
    ``ℓ(X → j) = ε`` and ``P_Y = P``. Outside that regime the formula is not a mechanism
    (or not optimal), so it is refused.

    Parameters
    ----------
    epsilon : float
        The ε-PML level in nats; it must satisfy ``0 ≤ ε < log(1 / (1 − min_x P(x)))``.
    prior : array_like, shape (N,)
        The prior P (non-negative, summing to 1).

    Returns
    -------
    Mechanism
        The N × N kernel.

    References
    ----------
    .. [1] S. Saeidian, C. Pinzón, C. Palamidessi, "Information Leakage Envelopes", 2026,
       arXiv:2605.21185.
    .. [2] L. Grosse, S. Saeidian, T. J. Oechtering, "Extremal Mechanisms for Pointwise Maximal
       Leakage", IEEE Transactions on Information Forensics and Security 19:7952-7967, 2024,
       arXiv:2310.07381.
    """
    eps = check_epsilon(epsilon)
    p = as_distribution(prior, "prior")
    p = p / p.sum()  # a float32 prior, valid at its own precision, summed in double
    smallest = float(p.min())
    limit = -math.log1p(-smallest) if smallest < 1 else math.inf
    if not eps < limit:
        raise InvalidInputError(
            f"epsilon = {show(eps)} is outside the high-privacy regime of the PML-extremal "
            f"mechanism: it needs epsilon < log(1/(1 - min P)) = {show(limit)}."
        )
    growth = math.exp(eps)
    matrix = np.tile(growth * p, (p.shape[0], 1))
    np.fill_diagonal(matrix, 1.0 - growth * (1.0 - p))
    return Mechanism(matrix)


# -- robust LDP (robust-LDP paper, Secs. 6–7) ---------------------------------------------


def secret_randomized_response(shape: tuple[int, int], epsilon: float) -> Mechanism:
    """Secret randomized response SRR_ε on ``X = S × U`` (robust-LDP paper, Definition 4;
    inputs and outputs flattened S-major):

    .. math::

        K[(s,u), (s',u')] = \\frac{1}{Z}\\begin{cases}
            e^{\\varepsilon} & (s', u') = (s, u)\\\\
            e^{-\\varepsilon} & s' = s,\\ u' \\ne u\\\\
            1 & s' \\ne s \\end{cases}, \\qquad
        Z = e^{\\varepsilon} + (|U| - 1) e^{-\\varepsilon} + |X| - |U|.

    Entries of one column under different secrets differ by at most ``e^{±ε}``, so SRR
    is ``(ε, P_X)``-RLDP (Lemma 2, through Proposition 3), and by Theorem 4 it is the
    optimal ``(ε, P_X)``-RLDP mechanism for mutual information once ε is large enough.

    Parameters
    ----------
    shape : tuple of int or SecretAlphabet
        ``(|S|, |U|)``, two positive integers: X = S × U, flattened S-major.
        ``|S|·|U|`` is at most 8192 (the kernel is dense).
    epsilon : float
        The RLDP level ε ≥ 0 in nats; it must be finite.

    Returns
    -------
    Mechanism
        The ``|X| × |X|`` kernel.

    References
    ----------
    .. [1] M. Lopuhaä-Zwakenberg, J. Goseling, "Mechanisms for Robust Local Differential
       Privacy", Entropy 26(3):233, 2024, doi:10.3390/e26030233.
    """
    eps = check_epsilon(epsilon)
    if math.isinf(eps):
        raise InvalidInputError("epsilon must be finite for SRR.")
    a1, a2 = SecretAlphabet.of(shape).shape
    check_size(a1 * a2, "|S|·|U| of shape", math.isqrt(MECHANISM_MAX_ENTRIES),
               why="SRR's kernel is a dense |X| x |X| matrix")
    # Scaled by e^{−ε}: entries 1, e^{−2ε}, e^{−ε} (no overflow for large ε).
    same_secret = np.kron(np.eye(a1), np.ones((a2, a2)))
    matrix = np.where(same_secret > 0, math.exp(-2 * eps), math.exp(-eps))
    np.fill_diagonal(matrix, 1.0)
    return Mechanism(matrix / matrix.sum(axis=1, keepdims=True))


def independent_reporting(
    first: Mechanism | ArrayLike, second: Mechanism | ArrayLike
) -> Mechanism:
    """Independent reporting IR_{R1,R2}(s, u) = (R1(s), R2(u)) (robust-LDP paper,
    Definition 5): the Kronecker product ``R1 ⊗ R2``, inputs ``(s, u)`` and outputs
    ``(y1, y2)`` both flattened first-index-major.

    Parameters
    ----------
    first : Mechanism or array_like, shape (|S|, M1)
        ``R1``, the mechanism applied to the secret (row-stochastic).
    second : Mechanism or array_like, shape (|U|, M2)
        ``R2``, the mechanism applied to the other attribute (row-stochastic). The product
        may have at most :data:`MECHANISM_MAX_ENTRIES` entries.

    Returns
    -------
    Mechanism
        The kernel of shape ``(|S|·|U|, M1·M2)``.

    References
    ----------
    .. [1] M. Lopuhaä-Zwakenberg, J. Goseling, "Mechanisms for Robust Local Differential
       Privacy", Entropy 26(3):233, 2024, doi:10.3390/e26030233.
    """
    a, b = as_matrix(first, "first"), as_matrix(second, "second")
    if a.size * b.size > MECHANISM_MAX_ENTRIES:
        raise InvalidInputError(
            f"first and second give a Kronecker product of {a.size * b.size:,} entries, above "
            f"MECHANISM_MAX_ENTRIES = {MECHANISM_MAX_ENTRIES:,}."
        )
    # Row-stochastic by construction, at the inputs' own precision (float32 too).
    return Mechanism._validated(np.kron(a, b), STOCHASTIC_ATOL)


def _ball_conditionals(ball: object, shape: tuple[int, int]):
    """:func:`~mechdesign.notions.uncertainty.center_conditionals`, with a ``P̂_s = 0`` refusal
    naming ``ball`` (the argument that carries ``P̂``)."""
    if not isinstance(ball, RenyiBall):
        raise InvalidInputError(f"ball must be a RenyiBall; got {show(ball)}.")
    try:
        return center_conditionals(ball, shape)
    except InvalidInputError as exc:
        if "P̂_s = 0" not in str(exc):
            raise
        raise InvalidInputError(f"ball: {exc}") from exc


@dataclass(frozen=True)
class IndependentReporting:
    """The IR protocol of the robust-LDP paper (Sec. 7) with its parameters.

    Returned by :func:`design_independent_reporting` ([1]_, Sec. 7); its fields are the
    constructor's parameters, not validated here.

    Parameters
    ----------
    mechanism : Mechanism, shape (|S|·|U|, |S|·|U|)
        ``IR(GRR^{ε − ε₂} on S, GRR^{δ₂} on U)``.
    epsilon, epsilon2, delta2 : float
        The budget ε, the maximising ``ε₂`` and ``δ₂ = log(1 + 2(e^{ε₂} − 1)/d)``.
    d : float
        Theorem 5's bound on ``‖P_{U|s} − P_{U|s'}‖₁`` over the ball.
    utility : float
        ``I_P(X; Y)`` at the maximiser, in nats.
    grid : ndarray, shape (k, 2)
        The evaluated ``(ε₂, utility)`` pairs, sorted by ε₂ (the curve is not concave;
        this shows the search).

    References
    ----------
    .. [1] M. Lopuhaä-Zwakenberg, J. Goseling, "Mechanisms for Robust Local Differential
       Privacy", Entropy 26(3):233, 2024, doi:10.3390/e26030233.
    """

    mechanism: Mechanism
    epsilon: float
    epsilon2: float
    delta2: float
    d: float
    utility: float
    grid: np.ndarray


def ir_distance_bound(ball: RenyiBall, shape: tuple[int, int]) -> float:
    """``d`` of Theorem 5 (robust-LDP paper), with ``d_s = rad_s``:

    .. math::

        d = \\min\\Bigl\\{2,\\ \\max_s 2\\,\\mathrm{rad}_s +
            \\max_{s, s'} \\|\\hat P_{U|s} - \\hat P_{U|s'}\\|_1\\Bigr\\}

    (its proof, eq. 70, needs ``d_s + d_{s'}``, which ``max_s 2 d_s`` bounds).
    ``rad_s`` comes from
    :func:`~mechdesign.notions.uncertainty.conditional_radii`.

    Parameters
    ----------
    ball : RenyiBall
        The uncertainty set F around ``P̂`` on X = S × U; its center must give every
        secret positive probability.
    shape : tuple of int or SecretAlphabet
        ``(|S|, |U|)``, two positive integers: X = S × U, flattened S-major.
        ``|S|·|U|`` must equal the length of the ball's center.

    Returns
    -------
    float
        ``d``, in [0, 2].

    References
    ----------
    .. [1] M. Lopuhaä-Zwakenberg, J. Goseling, "Mechanisms for Robust Local Differential
       Privacy", Entropy 26(3):233, 2024, doi:10.3390/e26030233.
    """
    _, conditional = _ball_conditionals(ball, shape)
    radii = conditional_radii(ball, shape)
    spread = float(np.abs(conditional[:, None, :] - conditional[None, :, :]).sum(axis=2).max())
    return min(2.0, 2.0 * float(radii.max()) + spread)


def design_independent_reporting(
    epsilon: float,
    ball: RenyiBall,
    shape: tuple[int, int],
    *,
    prior: ArrayLike | None = None,
) -> IndependentReporting:
    """The IR protocol of the robust-LDP paper (Sec. 7), ``(ε, F)``-RLDP by Theorem 5.

    For a split ``ε₂ ∈ [0, ε]``: ``R1 = GRR^{ε − ε₂}`` on S,
    ``R2 = GRR^{δ₂}`` on U with ``δ₂ = log(1 + 2(e^{ε₂} − 1)/d)`` (``d`` from
    :func:`ir_distance_bound`; ``d = 0`` gives ``δ₂ = ∞``, R2 the identity), and the
    utility ``I_P(X; IR(X))`` (Theorem 6's sum, computed from the joint kernel) is
    maximised over ε₂ (eq. 81). The utility is not concave in ε₂, so the search
    evaluates a grid of :data:`IR_GRID_POINTS` points (both ends included: Example 5's
    optimum is at ε₂ = ε) and refines around the best ones by bounded Brent search;
    the maximiser is the best point evaluated.

    Parameters
    ----------
    epsilon : float
        The budget ε ≥ 0 in nats; it must be finite.
    ball : RenyiBall
        The uncertainty set F around ``P̂`` on X = S × U; its center must give every
        secret positive probability.
    shape : tuple of int or SecretAlphabet
        ``(|S|, |U|)``, two positive integers: X = S × U, flattened S-major.
        ``|S|·|U|`` must equal the length of the ball's center.
    prior : array_like, shape (|S|·|U|,), optional
        The distribution whose mutual information is maximised (non-negative, summing to
        1, flattened S-major); default the ball's center ``P̂`` (as the paper does).

    Returns
    -------
    IndependentReporting
        The best mechanism found, its split, ``d`` and the evaluated grid.

    References
    ----------
    .. [1] M. Lopuhaä-Zwakenberg, J. Goseling, "Mechanisms for Robust Local Differential
       Privacy", Entropy 26(3):233, 2024, doi:10.3390/e26030233.
    """
    eps = check_epsilon(epsilon)
    if math.isinf(eps):
        raise InvalidInputError("epsilon must be finite for independent reporting.")
    if not isinstance(ball, RenyiBall):
        raise InvalidInputError(f"ball must be a RenyiBall; got {show(ball)}.")
    a1, a2 = SecretAlphabet.of(shape, ball.center.shape[0], "ball's center").shape
    _ball_conditionals(ball, (a1, a2))
    p = ball.center if prior is None else as_distribution(prior, "prior", a1 * a2)
    d = ir_distance_bound(ball, (a1, a2))

    def delta2(eps2: float) -> float:
        if d == 0:
            return math.inf if eps2 > 0 else 0.0
        if eps2 <= 1.0:
            return math.log1p(2.0 * math.expm1(eps2) / d)
        # log(1 + 2(e^x − 1)/d) = x + log(2/d) + log1p((d/2 − 1) e^{−x}): no overflow.
        return eps2 + math.log(2.0 / d) + math.log1p((d / 2.0 - 1.0) * math.exp(-eps2))

    def build(eps2: float) -> Mechanism:
        return independent_reporting(
            randomized_response(a1, max(eps - eps2, 0.0)), randomized_response(a2, delta2(eps2))
        )

    values: dict[float, float] = {}

    def utility(eps2: float) -> float:
        eps2 = min(max(float(eps2), 0.0), eps)
        if eps2 not in values:
            values[eps2] = mutual_information(build(eps2), p)
        return values[eps2]

    grid = np.linspace(0.0, eps, IR_GRID_POINTS)
    scores = np.array([utility(float(x)) for x in grid])
    if eps > 0:
        top = scores.max()
        ties = np.flatnonzero(scores >= top - THRESHOLD_RTOL * max(1.0, abs(top)))
        for i in {int(ties[0]), int(ties[-1])}:
            lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, grid.size - 1)]
            # Searched in units of max(1, ε): the bracket's midpoint (lo + hi)/2
            # overflows near ε = 1e308 otherwise.
            unit = max(1.0, eps)
            minimize_scalar(
                lambda t, unit=unit: -utility(t * unit), bounds=(lo / unit, hi / unit),
                method="bounded", options={"xatol": IR_SPLIT_XATOL},
            )
    best = max(values, key=values.get)
    curve = np.array(sorted(values.items()))
    curve.setflags(write=False)
    return IndependentReporting(
        mechanism=build(best),
        epsilon=eps,
        epsilon2=best,
        delta2=delta2(best),
        d=d,
        utility=values[best],
        grid=curve,
    )
