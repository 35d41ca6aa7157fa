"""Contraction coefficients of mechanisms, their closed forms and the SDPI bounds built on them.

The Dobrushin paper (Grosse, Saeidian, Oechtering, Skoglund, "Dobrushin coefficients of
private mechanisms beyond LDP") throughout: the Dobrushin coefficient, the closed form
Ξ(ε, c) of Theorem 1 and, for every ratio-cone notion, the maximal coefficient by LP
(Lemma 3); Theorem 2's threshold and witness, Lemma 1, Proposition 2's Γ bounds and the
SDPI corollaries with their LDP comparators; the cross-channel Γ of the f_α paper (eqs.
7–8). η_χ² of a given kernel is :mod:`mechdesign.measures.contraction`. Rows are inputs;
nats.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

import numpy as np
import scipy.sparse as sp
from numpy.typing import ArrayLike, NDArray

from mechdesign._evidence import EvidenceFloat
from mechdesign._solvers.highs import solve_linear_program
from mechdesign._tolerances import (
    LP_SNAP_ATOL,
    THRESHOLD_RTOL,
)
from mechdesign._validation import (
    LOG_FLOAT_MAX,
    as_distribution,
    as_float_array,
    as_real,
    check_c,
    check_epsilon,
    check_positive_int,
    check_size,
    show,
)
from mechdesign.errors import InvalidInputError, SolverError
from mechdesign.kernel import Mechanism, as_matrix
from mechdesign.measures.divergences import KL, FGenerator
from mechdesign.measures.pinsker import reverse_pinsker
from mechdesign.notions import (
    Notion,
    check_notion,
    dobrushin_bound,
)
from mechdesign.notions.base import RATIO_CONE_MAX_ENTRIES
from mechdesign.status import Status

__all__ = [
    "DobrushinMaximum",
    "asoodeh_zhang_kl_bound",
    "asoodeh_zhang_kl_contraction",
    "cross_channel_gamma",
    "decomposable_threshold",
    "decomposable_witness_kernel",
    "duchi_kl_bound",
    "gamma_bound",
    "kairouz_dobrushin_bound",
    "max_cross_channel_gamma",
    "max_dobrushin",
    "max_zeros_per_column",
    "pml_hellinger_sdpi_bound",
    "pml_kl_sdpi_bound",
    "pml_sdpi_bound",
    "private_minimax_lower_bound",
    "reverse_pinsker_kl",
]

# -- algorithm knobs --------------------------------------------------------------------

#: The most inputs a notion's ratio cone can have here: its matrices hold at least
#: ``N²`` entries (the identity of the inputs), and ``RATIO_CONE_MAX_ENTRIES`` caps them.
MAX_CONE_INPUTS = math.isqrt(RATIO_CONE_MAX_ENTRIES)

#: The most inputs of the eq. (22) witness kernel (an N × 2 array).
MAX_WITNESS_INPUTS = 2**26


# -- the maximal Dobrushin coefficient of any ratio-cone notion, by LP ----------------------


class DobrushinMaximum(EvidenceFloat):
    """The maximal Dobrushin coefficient of a notion, with the kernel that attains it.

    A ``float`` (so it compares and computes like the value it is) carrying its evidence;
    :func:`max_dobrushin` builds it.

    Parameters
    ----------
    value : float
        ``sup η_TV(K)`` over the notion's kernels on ``n`` inputs, in [0, 1].
    **fields
        The evidence, every one by keyword and all of them required: ``kernel``, ``pair``,
        ``closed_form``, ``n_programs`` and ``seconds`` (see Attributes).

    Attributes
    ----------
    value : float
        The float itself.
    kernel : Mechanism
        A binary-output kernel ``[p, 1 − p]`` of the notion attaining it.
    pair : tuple of int
        The inputs ``(i, j)`` with ``p_i − p_j = value``.
    closed_form : float or None
        The notion's closed form (Ξ(ε, c), or ``tanh(ε/2)`` for LDP) where one is known.
    n_programs : int
        The number of linear programs solved (one per unordered pair of inputs).
    seconds : float
        Total HiGHS time.
    """

    _fields = ("kernel", "pair", "closed_form", "n_programs", "seconds")

    kernel: Mechanism
    pair: tuple[int, int]
    closed_form: float | None
    n_programs: int
    seconds: float

    def __repr__(self) -> str:
        return (
            f"DobrushinMaximum({show(self.value)}, pair={self.pair}, "
            f"closed_form={show(self.closed_form)})"
        )


def max_dobrushin(notion: Notion, n: int) -> DobrushinMaximum:
    """``sup η_TV(K)`` over the kernels of ``notion`` on ``n`` inputs, by linear programs.

    Lemma 3 of the Dobrushin paper (binary outputs suffice) holds for every notion whose
    admissible columns form a cone, because merging the outputs of a set ``E`` of a
    kernel adds columns, and a cone is closed under addition: ``K_BIN = [Σ_{y∈E} K[:,y],
    Σ_{y∉E} K[:,y]]`` is admissible and has the same η_TV (Appendix C). So

    .. math::

        \\sup_K \\eta_{TV}(K) = \\max_{i<j} \\max \\{\\, p_i - p_j :
            p \\in C,\\ \\mathbf 1 - p \\in C,\\ 0 \\le p \\le 1 \\,\\},

    one LP per unordered pair (the feasible set is symmetric under ``p ↦ 1 − p``, which
    swaps ``i`` and ``j``) — or a single LP when the set of rows of ``G`` is invariant
    under the transposition (0 1) and the cyclic shift, which generate every permutation
    (LDP and (ε, c)-PML) — with ``C`` the notion's ratio cone ``{v : G v ≥ 0}``
    (:meth:`RatioCone.inequalities`). The LP is exact, so this is the maximal
    coefficient itself, not a bound. For (ε, c)-PML it must equal Ξ(ε, c) of Theorem 1
    (tested); for PML with a known prior or over a polytope of priors no closed form is
    published and this is the value.

    Parameters
    ----------
    notion : LDP or PML
        Any notion instance (not the class) with ``cone(n)`` (and optionally
        ``dobrushin_bound(n)``).
    n : int
        Number of inputs N, a positive integer (with n = 1 input every coefficient is 0:
        no pair to separate). It must be the notion's own input size when it has one,
        ``c ≤ 1/N`` for (ε, c)-PML, and at most :data:`MAX_CONE_INPUTS`.

    Returns
    -------
    DobrushinMaximum
        A float with ``.kernel`` (the maximiser ``[p, 1 − p]``), ``.pair`` and
        ``.closed_form``. The kernel satisfies each scaled cone inequality up to HiGHS's
        absolute tolerance (1e-10), so its audited level may exceed ε by about
        ``1e-10 / min_x p_x`` (1e-7 for entries near 1e-3).

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Dobrushin Coefficients of
       Private Mechanisms Beyond Local Differential Privacy", 2026, arXiv:2601.09498.
    """
    notion = _check_notion(notion)
    n_val = _check_cone_size(n, notion)
    cone = notion.cone(n_val)
    closed_form = notion.dobrushin_bound(n_val)
    if n_val == 1:
        return DobrushinMaximum(
            0.0,
            kernel=Mechanism(np.array([[1.0, 0.0]])),
            pair=(0, 0),
            closed_form=closed_form,
            n_programs=0,
            seconds=0.0,
        )
    g = cone.inequalities()
    if g.shape[0] == 0:
        # No binding pair: any 0/1 column is admissible.
        p = np.zeros(n_val)
        p[0] = 1.0
        return DobrushinMaximum(
            1.0,
            kernel=Mechanism(np.column_stack([p, 1.0 - p])),
            pair=(0, 1),
            closed_form=closed_form,
            n_programs=0,
            seconds=0.0,
        )
    # G p ≥ 0 and G (1 − p) ≥ 0, i.e. 0 ≤ G p ≤ G 1.
    matrix = sp.csc_array(g)
    upper = g.sum(axis=1)
    best_value, best_p, best_pair = -math.inf, None, (0, 1)
    seconds = 0.0
    n_programs = 0
    # A cone invariant under every permutation of the inputs (LDP, (ε, c)-PML) makes all
    # pairs equivalent: one LP suffices.
    pairs = [(0, 1)] if _is_permutation_invariant(g) else itertools.combinations(range(n_val), 2)
    for i, j in pairs:
        cost = np.zeros(n_val)
        cost[i], cost[j] = 1.0, -1.0
        # Always feasible (p = 1/2) and bounded, so a failure is numerical.
        solution = solve_linear_program(
            cost, matrix, np.zeros(g.shape[0]), upper,
            col_lower=np.zeros(n_val), col_upper=np.ones(n_val), known_feasible=True,
        )
        seconds += solution.seconds
        n_programs += 1
        if solution.objective > best_value:
            best_value, best_p, best_pair = solution.objective, solution.x, (i, j)
    p = _snap_to_bounds(best_p)
    value = min(max(float(p[best_pair[0]] - p[best_pair[1]]), 0.0), 1.0)
    return DobrushinMaximum(
        value,
        kernel=Mechanism(np.column_stack([p, 1.0 - p])),
        pair=best_pair,
        closed_form=closed_form,
        n_programs=n_programs,
        seconds=seconds,
    )


# -- closed forms of the Dobrushin paper ------------------------------------------------------


def _is_permutation_invariant(g: NDArray[np.float64]) -> bool:
    """Whether the row set of ``g`` is invariant under all permutations of its columns.

    Checked on the two generators of the symmetric group, exactly: the rows come from
    :meth:`RatioCone.inequalities`, whose power-of-two scaling is exact, so a permuted
    notion produces bit-identical rows.
    """
    n = g.shape[1]
    if n <= 1:
        return True
    rows = {row.tobytes() for row in g}
    swap = np.r_[1, 0, np.arange(2, n)]
    shift = np.r_[np.arange(1, n), 0]
    return all({row.tobytes() for row in g[:, perm]} == rows for perm in (swap, shift))


def _snap_to_bounds(p: NDArray[np.float64]) -> NDArray[np.float64]:
    """Set LP entries within :data:`LP_SNAP_ATOL` of 0 or 1 to the bound exactly."""
    out = np.array(p, dtype=float)
    out[np.abs(out) <= LP_SNAP_ATOL] = 0.0
    out[np.abs(out - 1.0) <= LP_SNAP_ATOL] = 1.0
    if np.any(out < 0) or np.any(out > 1):
        raise SolverError(
            f"the LP solution leaves [0, 1] by more than {LP_SNAP_ATOL}: {show(p)}",
            status=Status.NUMERICAL_ERROR, solver_status="Optimal",
        )
    return out


def decomposable_threshold(c: float, n: int) -> float:
    """``log(2/(Nc))``: from this ε on, (ε, c)-PML admits decomposable kernels.

    Theorem 2 and Lemma 7 of the Dobrushin paper (html version, Appendix D-C): a binary
    kernel with a zero in each column (``M_0(ε, c)``) has (ε, c)-PML level
    ``log(1/(Nc · min(S, 1 − S)))`` with ``S = Σ_x p_x / N`` (eq. 98–99), at least
    ``log(2/(Nc))`` with equality at ``S = 1/2``. So ``M_0(ε, c) = ∅`` exactly when
    ``ε < log(2/(Nc))`` (Lemma 7), and from there on ``sup_K η_f(K) = 1`` for every
    f (Theorem 2) and Ξ(ε, c) = 1.

    Parameters
    ----------
    c : float
        The (ε, c)-PML constant, ``0 < c ≤ 1/N``.
    n : int
        The number of inputs N, a positive integer.

    Returns
    -------
    float
        ``log(2/(Nc))`` in nats, at least ``log 2`` (as ``c ≤ 1/N``).

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Dobrushin Coefficients of
       Private Mechanisms Beyond Local Differential Privacy", 2026, arXiv:2601.09498.
    """
    n_val = check_positive_int(n, "n")
    c_val = check_c(c, n_val)
    return math.log(2.0 / (n_val * c_val))


def decomposable_witness_kernel(n: int) -> Mechanism:
    """The kernel of eq. (22) (Theorem 2's proof): ``K = [p, 1 − p]`` with
    ``p = (1/2, …, 1/2, 1, 0)``.

    Its (ε, c)-PML level is exactly ``log(2/(Nc))`` for every c (each column has a zero
    and sums to N/2), and rows N−1 and N have disjoint supports, so its η_χ² (hence every
    η_f and η_TV) is 1. The html version prints the second column as
    ``(1 − p_1, …, p_{N−2}, 0, 1)``; the ``p_{N−2}`` there is a typo for ``1 − p_{N−2}``
    (rows must sum to one). Needs N ≥ 2.

    Parameters
    ----------
    n : int
        The number of inputs N; an integer ``N ≥ 2`` of at most :data:`MAX_WITNESS_INPUTS`.

    Returns
    -------
    Mechanism
        The N × 2 kernel.

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Dobrushin Coefficients of
       Private Mechanisms Beyond Local Differential Privacy", 2026, arXiv:2601.09498.
    """
    n_val = check_positive_int(n, "n")
    if n_val < 2:
        raise InvalidInputError(f"n must be >= 2 for the eq. (22) kernel; got {show(n)}.")
    check_size(n_val, "n", MAX_WITNESS_INPUTS, why="MAX_WITNESS_INPUTS: an N x 2 array")
    p = np.full(n_val, 0.5)
    p[-2], p[-1] = 1.0, 0.0
    return Mechanism(np.column_stack([p, 1.0 - p]))


def max_zeros_per_column(epsilon: float, c: float, n: int) -> int:
    """The largest number of zeros a column of an (ε, c)-PML kernel can have.

    Lemma 1 of the Dobrushin paper: if ``ε < −log((N − l)c)`` for some ``l ∈ [N−1]``, a
    column has at most ``l − 1`` zeros. The bound is tight: a column with ``z`` zeros has
    level at least ``−log((N − z)c)`` (the proof of Lemma 1), and the indicator of its
    support, completed by the strictly positive column ``1 − t·indicator`` with a small
    t, attains it. Hence the answer is the largest ``z ≤ N − 1`` with
    ``ε ≥ −log((N − z)c)``, i.e. ``(N − z)c ≥ e^{−ε}``; 0 when even ``z = 0`` fails
    (ε < −log(Nc), where no column can have a zero).

    Parameters
    ----------
    epsilon : float
        The privacy level ε ≥ 0 in nats (``math.inf`` allowed).
    c : float
        The (ε, c)-PML constant, ``0 < c ≤ 1/N``.
    n : int
        The number of inputs N, a positive integer.

    Returns
    -------
    int
        The largest number of zeros, between 0 and N − 1 (N − 1 for ``ε = ∞``).

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Dobrushin Coefficients of
       Private Mechanisms Beyond Local Differential Privacy", 2026, arXiv:2601.09498.
    """
    eps = check_epsilon(epsilon)
    n_val = check_positive_int(n, "n")
    c_val = check_c(c, n_val)
    if math.isinf(eps):
        return n_val - 1
    # (N − z) c e^ε ≥ 1, compared in logs to avoid overflow; a relative slack absorbs the
    # rounding of ε = −log((N − z)c) computed in floating point.
    feasible = [
        z for z in range(n_val)
        if eps + math.log((n_val - z) * c_val) >= -THRESHOLD_RTOL * max(1.0, eps)
    ]
    return max(feasible) if feasible else 0


def gamma_bound(epsilon: float, c: float, n: int) -> tuple[float, float]:
    """Proposition 2 of the Dobrushin paper: bounds on ``(Γ_max(ε, c), Γ_min(ε, c))``,

    .. math::

        \\Gamma_{\\max}(\\varepsilon, c) \\le (1 - Nc) e^\\varepsilon + 1, \\qquad
        \\Gamma_{\\min}(\\varepsilon, c) \\ge \\bigl((1 - Nc) e^\\varepsilon + 1\\bigr)^{-1},

    the extreme output-probability ratios ``(K∘P)(y)/(K∘Q)(y)`` over (ε, c)-PML kernels
    and ``P, Q ∈ Q_X(c)``. The paper states it for ``ε ≤ −log c``; the proof (Appendix
    E, eq. 104) uses only Lemma 4 and holds for every ε ≥ 0. Beyond ``−log c`` every
    kernel is (ε, c)-PML and the exact value ``1/c − N + 1`` (the identity kernel) is
    smaller; we return ``min((1 − Nc)e^ε, 1/c − N) + 1``, which is Proposition 2 for
    ``ε ≤ −log c`` and exact beyond (``Γ ≤ 1 + (1 − Nc)·max/(cS) ≤ 1 + (1 − Nc)/c`` for
    every column).

    Parameters
    ----------
    epsilon : float
        The privacy level ε ≥ 0 in nats (``math.inf`` allowed).
    c : float
        The (ε, c)-PML constant, ``0 < c ≤ 1/N``.
    n : int
        The number of inputs N, a positive integer.

    Returns
    -------
    tuple of float
        ``(Γ_max bound, Γ_min bound)``, the second the reciprocal of the first.

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Dobrushin Coefficients of
       Private Mechanisms Beyond Local Differential Privacy", 2026, arXiv:2601.09498.
    """
    eps = check_epsilon(epsilon)
    n_val = check_positive_int(n, "n")
    c_val = check_c(c, n_val)
    # min(e^ε, 1/c) in logs, so a huge ε does not overflow.
    growth = math.exp(min(eps, -math.log(c_val)))
    upper = (1.0 - n_val * c_val) * growth + 1.0
    return upper, 1.0 / upper


def pml_sdpi_bound(
    epsilon: float,
    c: float,
    n: int,
    tv: float,
    f: FGenerator | Callable[[NDArray[np.float64]], NDArray[np.float64]] = KL,
) -> float:
    """Eq. (36)–(37) of the Dobrushin paper: ``D_f(K∘P ‖ K∘Q)`` over (ε, c)-PML kernels.

    .. math::

        D_f(K \\circ P \\| K \\circ Q) \\le \\Xi(\\varepsilon, c)
        \\Bigl[\\frac{f(\\Gamma_{\\min})}{1 - \\Gamma_{\\min}}
              + \\frac{f(\\Gamma_{\\max})}{\\Gamma_{\\max} - 1}\\Bigr] \\delta

    for ``P, Q ∈ Q_X(c)`` with ``TV(P, Q) ≤ δ``: Binette's reverse Pinsker inequality [2]_
    (:func:`~mechdesign.measures.pinsker.reverse_pinsker`) applied to the outputs, whose
    likelihood ratios lie in ``[Γ_min, Γ_max]`` (:func:`gamma_bound`), and
    ``TV(K∘P, K∘Q) ≤ Ξ(ε, c) δ`` (Theorem 1 with Lemma 2). Binette's constant grows
    with Γ_max and falls with Γ_min, so Proposition 2's bounds may replace the exact Γ.
    At ``ε = 0`` (Γ = 1) the bound is 0, as it must be (every kernel is constant).

    ``f`` is an :class:`~mechdesign.measures.divergences.FGenerator` or a bare function with
    ``f(1) = 0``, validated by :func:`~mechdesign.measures.pinsker.reverse_pinsker` (also
    when Γ = 1, so a bad ``f`` is refused by name at every ε).

    Parameters
    ----------
    epsilon : float
        The privacy level ε ≥ 0 in nats (``math.inf`` allowed).
    c : float
        The (ε, c)-PML constant, ``0 < c ≤ 1/N``.
    n : int
        The number of inputs N, a positive integer.
    tv : float
        The total variation ``δ`` between the input distributions, in [0, 1].
    f : FGenerator or callable, optional
        The divergence's generator; default :data:`~mechdesign.measures.divergences.KL`
        (relative entropy). A callable maps an array of ratios of any shape to ``f``
        elementwise (an array of the same shape), with ``f(1) = 0``.

    Returns
    -------
    float
        The bound on ``D_f(K∘P ‖ K∘Q)`` (in nats for KL).

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Dobrushin Coefficients of
       Private Mechanisms Beyond Local Differential Privacy", 2026, arXiv:2601.09498.
    .. [2] O. Binette, "A Note on Reverse Pinsker Inequalities", IEEE Transactions on
       Information Theory 65(7):4094-4096, 2019, doi:10.1109/TIT.2019.2896192.
    """
    delta = _check_tv(tv)
    xi = dobrushin_bound(epsilon, c, n)
    upper, lower = gamma_bound(epsilon, c, n)
    # At Γ_max = Γ_min = 1 reverse_pinsker returns 0 after checking f.
    return xi * reverse_pinsker(upper, lower, f) * delta


def pml_kl_sdpi_bound(epsilon: float, c: float, n: int, tv: float) -> float:
    """Corollary 1 of the Dobrushin paper (relative entropy), for P, Q ∈ Q_X(c):

    .. math::

        D(K \\circ P \\| K \\circ Q) \\le \\Xi(\\varepsilon, c)
        \\log\\bigl((1 - Nc) e^\\varepsilon + 1\\bigr) \\, \\delta .

    With ``Γ_min = 1/Γ_max`` Binette's constant [2]_ for ``f = t log t`` is ``log Γ_max``.
    (For ε beyond ``−log c`` we use :func:`gamma_bound`'s exact Γ, which only tightens
    it.)

    Parameters
    ----------
    epsilon : float
        The privacy level ε ≥ 0 in nats (``math.inf`` allowed).
    c : float
        The (ε, c)-PML constant, ``0 < c ≤ 1/N``.
    n : int
        The number of inputs N, a positive integer.
    tv : float
        The total variation ``δ`` between the input distributions, in [0, 1].

    Returns
    -------
    float
        The bound on ``D(K∘P ‖ K∘Q)`` in nats.

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Dobrushin Coefficients of
       Private Mechanisms Beyond Local Differential Privacy", 2026, arXiv:2601.09498.
    .. [2] O. Binette, "A Note on Reverse Pinsker Inequalities", IEEE Transactions on
       Information Theory 65(7):4094-4096, 2019, doi:10.1109/TIT.2019.2896192.
    """
    delta = _check_tv(tv)
    upper, _ = gamma_bound(epsilon, c, n)
    return dobrushin_bound(epsilon, c, n) * math.log(upper) * delta


def pml_hellinger_sdpi_bound(epsilon: float, c: float, n: int, tv: float) -> float:
    """Corollary 2 of the Dobrushin paper (squared Hellinger ``(1 − √t)²``):

    .. math::

        H^2(K \\circ P \\| K \\circ Q) \\le \\Xi(\\varepsilon, c)
        \\Bigl(2 - \\frac{4}{\\sqrt{(1 - Nc) e^\\varepsilon + 1} + 1}\\Bigr) \\delta .

    Parameters
    ----------
    epsilon : float
        The privacy level ε ≥ 0 in nats (``math.inf`` allowed).
    c : float
        The (ε, c)-PML constant, ``0 < c ≤ 1/N``.
    n : int
        The number of inputs N, a positive integer.
    tv : float
        The total variation ``δ`` between the input distributions, in [0, 1].

    Returns
    -------
    float
        The bound on ``H²(K∘P ‖ K∘Q)``.

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Dobrushin Coefficients of
       Private Mechanisms Beyond Local Differential Privacy", 2026, arXiv:2601.09498.
    """
    delta = _check_tv(tv)
    upper, _ = gamma_bound(epsilon, c, n)
    return dobrushin_bound(epsilon, c, n) * (2.0 - 4.0 / (math.sqrt(upper) + 1.0)) * delta


# -- comparison bounds for ε-LDP (Dobrushin paper, Sec. II-C and Fig. 1) --------------------


def duchi_kl_bound(epsilon: float, tv: float) -> float:
    """Duchi, Jordan & Wainwright's bound for ε-LDP kernels [2]_, Dobrushin paper eq. (12) [1]_:

    .. math::

        D(K \\circ P \\| K \\circ Q) \\le \\min\\{4, e^{2\\varepsilon}\\}
        (e^\\varepsilon - 1)^2 \\, \\mathrm{TV}(P, Q)^2 .

    Parameters
    ----------
    epsilon : float
        The LDP level ε ≥ 0 in nats (``math.inf`` allowed).
    tv : float
        ``TV(P, Q)``, in [0, 1].

    Returns
    -------
    float
        The bound in nats; +inf when it exceeds the largest double (from ε ≈ 355 at
        ``tv = 1``) or ``ε = ∞`` with ``tv > 0``.

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Dobrushin Coefficients of
       Private Mechanisms Beyond Local Differential Privacy", 2026, arXiv:2601.09498.
    .. [2] J. C. Duchi, M. I. Jordan, M. J. Wainwright, "Local Privacy, Data Processing
       Inequalities, and Statistical Minimax Rates", 2013, arXiv:1302.3203.
    """
    eps = check_epsilon(epsilon)
    delta = _check_tv(tv)
    if delta == 0:
        return 0.0
    if math.isinf(eps):
        return math.inf
    # In logs: (e^ε − 1)² overflows from ε ≈ 355; the bound is then +inf.
    log_growth = eps + math.log(-math.expm1(-eps)) if eps > 0 else -math.inf
    log_value = min(math.log(4.0), 2.0 * eps) + 2.0 * log_growth + 2.0 * math.log(delta)
    return math.exp(log_value) if log_value < LOG_FLOAT_MAX else math.inf


def kairouz_dobrushin_bound(epsilon: float) -> float:
    """Kairouz, Oh & Viswanath's ``η_TV(K) ≤ (e^ε − 1)/(e^ε + 1)`` for ε-LDP kernels,
    Dobrushin paper eq. (13) (= ``tanh(ε/2)``; the ``c → 0`` limit of Ξ).

    Parameters
    ----------
    epsilon : float
        The LDP level ε ≥ 0 in nats (``math.inf`` allowed).

    Returns
    -------
    float
        ``tanh(ε/2)``, in [0, 1] (1 for ``ε = ∞``).

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Dobrushin Coefficients of
       Private Mechanisms Beyond Local Differential Privacy", 2026, arXiv:2601.09498.
    .. [2] P. Kairouz, S. Oh, P. Viswanath, "Extremal Mechanisms for Local Differential
       Privacy", Journal of Machine Learning Research 17(17):1-51, 2016,
       https://jmlr.org/papers/v17/15-135.html.
    """
    eps = check_epsilon(epsilon)
    return 1.0 if math.isinf(eps) else math.tanh(eps / 2.0)


def asoodeh_zhang_kl_contraction(epsilon: float) -> float:
    """Asoodeh & Zhang's ``η_KL(K) = η_χ²(K) = η_H²(K) ≤ ((e^ε − 1)/(e^ε + 1))²`` for
    ε-LDP kernels, Dobrushin paper eq. (14).

    Parameters
    ----------
    epsilon : float
        The LDP level ε ≥ 0 in nats (``math.inf`` allowed).

    Returns
    -------
    float
        ``tanh²(ε/2)``, in [0, 1].

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Dobrushin Coefficients of
       Private Mechanisms Beyond Local Differential Privacy", 2026, arXiv:2601.09498.
    .. [2] S. Asoodeh, H. Zhang, "Contraction of Locally Differentially Private Mechanisms",
       IEEE Journal on Selected Areas in Information Theory 5:385-395, 2024, arXiv:2210.13386.
    """
    return kairouz_dobrushin_bound(epsilon) ** 2


def reverse_pinsker_kl(tv: float, q_min: float) -> float:
    """``D(P‖Q) ≤ log(1 + 2 TV(P, Q)²/Q_min)`` for distributions on a finite set with
    ``min_x Q(x) ≥ Q_min > 0``.

    The reverse Pinsker inequality the Dobrushin paper combines with eq. (14) for its
    Fig. 1 ("[Sason & Verdú 2016, Theorem 28] with Q_min = c"); that paper is not in our
    set, so the formula here is derived and tested instead: ``D ≤ log(1 + χ²)``
    (Jensen) and ``χ² = Σ (p − q)²/q ≤ Σ (p − q)²/Q_min ≤ ‖p − q‖₁²/(2 Q_min)
    = 2 TV²/Q_min`` (the positive and the negative parts of ``p − q`` each sum to TV).

    Parameters
    ----------
    tv : float
        ``TV(P, Q)``, in [0, 1].
    q_min : float
        A lower bound on the entries of ``Q``, in (0, 1].

    Returns
    -------
    float
        The bound on ``D(P‖Q)`` in nats.

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Dobrushin Coefficients of
       Private Mechanisms Beyond Local Differential Privacy", 2026, arXiv:2601.09498.
    .. [2] I. Sason, S. Verdú, "f-Divergence Inequalities", IEEE Transactions on Information
       Theory 62(11):5973-6006, 2016, arXiv:1508.00335.
    """
    delta = _check_tv(tv)
    q = as_real(q_min, "q_min")
    if not (q > 0 and q <= 1):
        raise InvalidInputError(f"q_min must be in (0, 1]; got {show(q_min)}.")
    return math.log1p(2.0 * delta**2 / q)


def asoodeh_zhang_kl_bound(epsilon: float, tv: float, q_min: float) -> float:
    """The comparison curve "Asoodeh et al." of the Dobrushin paper's Fig. 1(a):
    ``η_KL ≤ tanh²(ε/2)`` (eq. 14) times the reverse Pinsker bound
    :func:`reverse_pinsker_kl` with ``Q_min = c``:

    .. math::

        D(K \\circ P \\| K \\circ Q) \\le \\tanh^2(\\varepsilon/2)
        \\log\\bigl(1 + 2\\,\\mathrm{TV}(P, Q)^2 / Q_{\\min}\\bigr).

    Parameters
    ----------
    epsilon : float
        The LDP level ε ≥ 0 in nats (``math.inf`` allowed).
    tv : float
        ``TV(P, Q)``, in [0, 1].
    q_min : float
        A lower bound on the entries of ``Q`` (the figure uses ``c``), in (0, 1].

    Returns
    -------
    float
        The bound on ``D(K∘P ‖ K∘Q)`` in nats.

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Dobrushin Coefficients of
       Private Mechanisms Beyond Local Differential Privacy", 2026, arXiv:2601.09498.
    .. [2] S. Asoodeh, H. Zhang, "Contraction of Locally Differentially Private Mechanisms",
       IEEE Journal on Selected Areas in Information Theory 5:385-395, 2024, arXiv:2210.13386.
    """
    return asoodeh_zhang_kl_contraction(epsilon) * reverse_pinsker_kl(tv, q_min)


def private_minimax_lower_bound(
    n_samples: int, delta: float, epsilon: float, c: float, *, separation: float | None = None
) -> float:
    """Example 3 of the Dobrushin paper: Le Cam's lower bound on the minimax risk of
    estimating θ ∈ {θ0, θ1} from ``n`` samples released through an (ε, c)-PML kernel,

    .. math::

        R^\\star \\ge \\frac{\\ell(\\theta_0, \\theta_1)}{4}
        \\exp\\bigl(-n\\,\\Xi(\\varepsilon, c)\\log((1 - 4c)e^\\varepsilon + 1)\\,
        \\mathrm{TV}(P_{\\theta_0}, P_{\\theta_1})\\bigr),
        \\qquad \\mathrm{TV} = 2\\delta,

    for ``P_θ0 = (1/4 − δ, 1/4 + δ, 1/4, 1/4)`` and ``P_θ1 = (1/4 + δ, 1/4 − δ, 1/4,
    1/4)`` (N = 4; both lie in ``Q_X(c)`` when ``c ≤ 1/4 − δ``), by Corollary 1,
    tensorisation, Le Cam's two-point method ``R* ≥ (ℓ/2)(1 − TV)`` and
    Bretagnolle–Huber ``1 − TV ≥ e^{−D}/2``.

    Two corrections to the printed eqs. (45)–(48): ``TV(P_θ0, P_θ1) = 2δ``, not δ (the
    two distributions differ by 2δ in two coordinates), and (48) drops the factor
    ``ℓ(θ0, θ1)/2`` of Le Cam's bound and the ½ of Bretagnolle–Huber. ``separation``
    is ``ℓ(θ0, θ1)``; by default δ (``ℓ = |θ1 − θ0|``, as in the example).

    Parameters
    ----------
    n_samples : int
        The number of samples n, a positive integer.
    delta : float
        The perturbation δ of the two hypotheses, in (0, 1/4).
    epsilon : float
        The (ε, c)-PML level ε ≥ 0 of the kernel, in nats.
    c : float
        The (ε, c)-PML constant for N = 4 inputs; it must satisfy ``0 < c ≤ 1/4 − δ``.
    separation : float, optional
        The loss ``ℓ(θ0, θ1)``, finite and > 0; default ``δ``.

    Returns
    -------
    float
        The lower bound on the minimax risk ``R*``.

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Dobrushin Coefficients of
       Private Mechanisms Beyond Local Differential Privacy", 2026, arXiv:2601.09498.
    """
    n_val = check_positive_int(n_samples, "n_samples")
    d = as_real(delta, "delta")
    if not 0 < d < 0.25:
        raise InvalidInputError(f"delta must be in (0, 1/4); got {show(delta)}.")
    c_val = check_c(c, 4)
    if c_val > 0.25 - d:
        raise InvalidInputError(
            f"c = {show(c)} must be <= 1/4 - delta = {show(0.25 - d)} so that both P_theta lie in "
            "Q_X(c)."
        )
    loss = d if separation is None else as_real(separation, "separation")
    if not (loss > 0 and math.isfinite(loss)):
        raise InvalidInputError(f"separation must be finite and > 0; got {show(separation)}.")
    divergence = n_val * pml_kl_sdpi_bound(epsilon, c_val, 4, 2.0 * d)
    return loss / 4.0 * math.exp(-divergence)


# -- cross-channel Γ (f_α paper eqs. 7–8; Dobrushin paper Sec. IV) ----------------------------


def cross_channel_gamma(
    kernel: Mechanism | ArrayLike, priors: ArrayLike | None = None, *, c: float | None = None
) -> tuple[float, float]:
    """``(Γ_max(Y), Γ_min(Y))``, the extreme output likelihood ratios (f_α paper eqs. 7–8) [1]_:

    .. math::

        \\Gamma_{\\max}(Y) = \\sup_{P, Q \\in \\mathcal P,\\, y}
            \\frac{(K \\circ Q)(y)}{(K \\circ P)(y)}, \\qquad
        \\Gamma_{\\min}(Y) = \\inf_{P, Q \\in \\mathcal P,\\, y}
            \\frac{(K \\circ Q)(y)}{(K \\circ P)(y)} .

    ``𝒫`` is either the finite list ``priors`` (shape (m, N), e.g. the rows of a first
    mechanism, f_α paper Sec. VI) or the polytope ``Q_X(c)``. P and Q vary
    independently, so for each y the ratio is largest when the numerator is maximal and
    the denominator minimal, both linear in the prior: over a polytope both extremes are
    attained at its vertices ``c·1 + (1 − Nc) e_j``, so the finite formula on the
    vertices is exact for ``Q_X(c)`` as well (this is Appendix E's eqs. 101–102).
    Outputs that no prior can produce are skipped (0/0); one that some prior can and
    another cannot produce gives ``Γ_max = ∞`` and ``Γ_min = 0``. Always
    ``Γ_min ≤ 1 ≤ Γ_max`` and ``Γ_min = 1/Γ_max``.

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        The channel K (rows are inputs); it must be row-stochastic.
    priors : array_like, shape (m, N), optional
        The finite prior set, one distribution over the N inputs per row (each must be
        non-negative and sum to 1). Give exactly one of ``priors`` and ``c``.
    c : float, optional
        The polytope ``Q_X(c)``: ``0 < c ≤ 1/N``.

    Returns
    -------
    tuple of float
        ``(Γ_max(Y), Γ_min(Y))``.

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Bounds on the Privacy
       Amplification of Arbitrary Channels via the Contraction of f_α-Divergence", Allerton
       Conference 2025, arXiv:2501.11473.
    .. [2] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Dobrushin Coefficients of
       Private Mechanisms Beyond Local Differential Privacy", 2026, arXiv:2601.09498.
    """
    k = as_matrix(kernel)
    n = k.shape[0]
    if (priors is None) == (c is None):
        raise InvalidInputError("give exactly one of priors (an (m, N) array) or c.")
    if c is not None:
        c_val = check_c(c, n)
        vertices = c_val + (1.0 - n * c_val) * np.eye(n)
    else:
        rows = as_float_array(priors, "priors", ndim=2)
        if rows.shape[1] != n:
            raise InvalidInputError(
                f"priors must have {n} columns (one per kernel input); got {rows.shape[1]}."
            )
        vertices = np.array([as_distribution(p, f"priors[{i}]") for i, p in enumerate(rows)])
    outputs = vertices @ k  # (m, M)
    ratio = _largest_output_ratio(outputs)
    return ratio, (0.0 if math.isinf(ratio) else 1.0 / ratio)


def max_cross_channel_gamma(notion: Notion, n: int, priors: ArrayLike | None = None) -> float:
    """``Γ_max`` over every kernel of ``notion`` and ``P, Q`` in a prior set, exactly.

    The Dobrushin paper's ``Γ_max(ε, c)`` (Sec. IV) for ``notion = PML(ε, c=c)`` and
    the default prior set (the notion's own priors, ``Q_X(c)``); Proposition 2
    (:func:`gamma_bound`) bounds it. A column of an admissible kernel is a point of the
    notion's cone, and ``Q·v / P·v`` is invariant to scaling ``v`` and linear-fractional
    on the normalised section, so its maximum is attained at a vertex of the section;
    every vertex is (a multiple of) a column of an admissible kernel when ε > 0 (complete
    it with ``1 − t v``, inside the cone for small t because ``1`` is interior). Hence
    ``Γ_max = max`` over section vertices of :func:`cross_channel_gamma`, with
    ``Γ_min = 1/Γ_max``. Uses the closed-form vertices where the notion has them.

    Parameters
    ----------
    notion : Notion
        A ratio-cone notion instance (e.g. ``PML(ε, c=c)``); without ``priors`` it must
        have a prior set of its own (``vertex_priors``; LDP has none).
    n : int
        The number of inputs N, as in :func:`max_dobrushin`.
    priors : array_like, shape (m, N), optional
        The prior set, one distribution per row; default the notion's own priors.

    Returns
    -------
    float
        ``Γ_max`` (``math.inf`` when some prior cannot produce an output another can).

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Dobrushin Coefficients of
       Private Mechanisms Beyond Local Differential Privacy", 2026, arXiv:2601.09498.
    """
    notion = _check_notion(notion)
    n_val = _check_cone_size(n, notion)
    if priors is None:
        prior_rows = notion.vertex_priors(n_val)
        if prior_rows is None:
            raise InvalidInputError(
                f"{show(notion)} has no prior set of its own (LDP allows every prior, where "
                "Γ_max is unbounded); pass priors."
            )
    else:
        rows = as_float_array(priors, "priors", ndim=2)
        prior_rows = np.array(
            [as_distribution(p, f"priors[{i}]", n_val) for i, p in enumerate(rows)]
        )
    vertices = notion.cone(n_val).vertices().points  # (k, N), columns of kernels
    outputs = prior_rows @ vertices.T  # (m, k)
    return _largest_output_ratio(outputs)


def _largest_output_ratio(outputs: NDArray[np.float64]) -> float:
    """``max_y max_{i,j} outputs[i, y] / outputs[j, y]`` over outputs some row reaches
    (shape (m, M)); ``inf`` when one row reaches an output another cannot."""
    high = outputs.max(axis=0)
    low = outputs.min(axis=0)
    seen = high > 0
    if np.any(low[seen] == 0):
        return math.inf
    return float((high[seen] / low[seen]).max())


def _check_tv(tv: float) -> float:
    value = as_real(tv, "tv")
    if not 0 <= value <= 1:
        raise InvalidInputError(f"tv must be a total variation distance in [0, 1]; got {show(tv)}.")
    return value


def _check_notion(notion: object) -> Notion:
    """A notion instance (the class ``LDP`` itself has the members but is no notion)."""
    if isinstance(notion, type):
        raise InvalidInputError(
            f"notion must be a privacy notion instance such as mechdesign.LDP(1.0), not the "
            f"class {notion.__name__}."
        )
    return check_notion(notion, "notion")


def _check_cone_size(n: int, notion: Notion) -> int:
    """The number of inputs of ``notion``'s ratio cone: one the notion is defined on
    (:meth:`~mechdesign.notions.Notion.check_inputs`: its ``input_size``; ``c ≤ 1/n``
    for (ε, c)-PML), then at most
    :data:`MAX_CONE_INPUTS` (checked in this order, so an invalid ``n`` is refused as
    such before a size limit applies)."""
    notion.check_inputs(n)
    return check_size(n, "n", MAX_CONE_INPUTS,
                      why="MAX_CONE_INPUTS: a ratio cone on N inputs holds at least N² entries")
