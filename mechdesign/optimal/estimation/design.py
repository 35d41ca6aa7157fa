"""Estimation-optimal design: the mechanism whose best linear unbiased estimator answers a
workload with the least expected squared error, with a certified bracket.

**The problem** (:mod:`mechdesign.measures.estimation` for the error and the estimator). Under a
notion whose admissible columns form a cone ``C``, write each column of ``K`` as
``k_y = w_y v_y`` with ``v_y`` in the section ``S = {v ∈ C : p·v = 1}`` (so that
``w_y = r_y``, the probability of reporting ``y``). Then

.. math::

    J(w) = \\sum_y \\frac{k_y k_y^\\top}{r_y} = \\sum_v w_v\\, v v^\\top, \\qquad
    \\sum_v w_v v = \\mathbf 1, \\qquad w \\ge 0,

is linear in the weights, and the per-report error ``F(J) − tr(W diag(p) Wᵀ)`` with
``F(J) = tr(W J⁻¹ Wᵀ)`` is convex in them (``J ↦ J⁻¹`` is operator convex). Splitting a
column ``k = Σ_i a_i u_i`` (``u_i`` extreme rays of ``C``) into its rays only increases
``J``: ``(x, t) ↦ x xᵀ/t`` is matrix convex and positively homogeneous, hence
subadditive, so ``k kᵀ/(p·k) ⪯ Σ_i (a_i u_i)(a_i u_i)ᵀ/(p·a_i u_i)``, and ``F`` decreases
as ``J`` increases. So an optimum uses the vertices of ``S`` only: with ``V`` the
enumerated vertices (``p``-normalised rays of the same cone that mutual information
uses), the design is the A-optimal experimental design

.. math::

    \\min_{w \\ge 0,\\ V^\\top w = \\mathbf 1}
    \\operatorname{tr}\\bigl(W J(w)^{-1} W^\\top\\bigr),

solved with cvxpy (``matrix_frac``; the conic solver Clarabel).

**The certificate** (a Frank–Wolfe duality gap). ``F`` is convex with gradient
``−G``, ``G = J⁻¹ WᵀW J⁻¹``, so for the optimum ``J*``

.. math::

    F(J^\\star) \\ge F(J) - \\operatorname{tr}(G (J^\\star - J))
    = 2F(J) - \\sum_v w^\\star_v\\, v^\\top G v \\ge 2F(J) - L^\\star,

where ``L*`` is the optimum of the vertex LP ``max Σ_v θ_v g_v`` s.t. ``Vᵀθ = 1,
θ ≥ 0`` with ``g_v = vᵀGv`` — the same LP as mutual information's, with ``g`` for ``μ``
(``tr(GJ) = F(J)``). For any ``λ``, ``L* ≤ λ·1 + max(0, max_v (g_v − λ·v))``: every
feasible ``θ`` has ``Σθ = p·(Vᵀθ) = 1``. HiGHS's dual of that LP gives ``λ``. Scaling
the linearisation point (:mod:`mechdesign.optimal.estimation.bounds`) sharpens
``2F − L̄`` to ``F²/L̄`` (larger by ``(F − L̄)²/L̄``, and positive), so the returned
bracket ``[F²/L̄, F]`` (less ``tr(W diag(p) Wᵀ)``) is certified over every enumerated
vertex, whatever the conic solver's accuracy; the design is ``"optimal"`` when its
width is within ``gap`` (relative), and ``EstimationReport.lower_bound_source`` names
the bound. At an optimum the current weights solve the LP (the KKT conditions), so the
width is the conic solver's own residual. The conic program is solved in conditioned
coordinates (:func:`_solve_a_optimal`; Clarabel fails on ``J`` itself at ε = 0.05), by Clarabel and
then SCS, and the polish starts from the vertex LP's basic solution when both fail.

**Column generation** (ε-LDP, ``method="column_generation"``, and ``"auto"`` from N =
:data:`AUTO_COLUMN_GENERATION_N`): the same polish over a pool of vertices, started
from k-RR's columns (singletons) and their complements — and, for a workload with the
histogram's symmetry (``WᵀW = αI + β11ᵀ``), from subset selection of the size optimal at
the uniform prior (a balanced design of at most N² columns) when it is better; other
workloads return that subset selection if column generation ends above it, so the design
is never worse than it (:func:`_subset_selection`). The pool grows by the patterns
of positive reduced cost ``vᵀGv − λ·v`` (``λ`` the pool's LP dual) that a local search
finds (:mod:`mechdesign.optimal.estimation.pricing`); when it finds none, an upper bound
``δ̄`` on the reduced cost over *every* vertex (brute force up to N = 18, a semidefinite
relaxation with branch and bound beyond) certifies ``L* ≤ 1·λ + max(0, δ̄)`` and the
bracket above. The relaxation is not always tight: past N = 18 the bracket may stay open
(status ``"feasible"``), the kernel's error exact. Before any pricing, and whenever the
relaxation fails or the time limit leaves it unsolved, bounds that need no relaxation
stand in (:mod:`mechdesign.optimal.estimation.bounds`): the lower end is positive from
the first round on, and a failure of the conic solver is never an exception once a
bracket exists. Designs whose polish could need more than :data:`MAX_POLISH_BYTES` are
refused with :class:`~mechdesign.errors.TooLargeError` before anything is allocated.

**Symmetry** (``method="auto"``, ε-LDP, a uniform prior, a workload with
``WᵀW = αI + β11ᵀ`` such as the histogram): the program is invariant under every
permutation of the inputs, so an optimum is a single size of subset selection, certified
over every vertex in ``O(N)`` and realised as a weighted cyclic design
(:mod:`mechdesign.optimal.estimation.symmetry`): N = 128 in 2 s.

**The worst case** over input distributions (``EstimationError(worst_case=True)``,
``prior=None``): see :class:`EstimationError`.

**Workloads of lower rank** (one-way marginals of a product alphabet; any ``W`` whose
rank is below N). The error is ``tr(W J⁺ Wᵀ)`` with the estimator unbiased for ``W f``
only (:mod:`mechdesign.measures.estimation`): the design may leave the histogram
unidentified, and its optimum is often a singular ``J`` (a kernel that reports one
attribute at a time). ``F(J) = max_X 2tr(WX) − tr(XᵀJX)`` still holds (``+∞`` off the
workload's range), so the program, the certificate and the pricing are the same with
``J⁺`` for ``J⁻¹`` and ``W`` replaced by a root of ``WᵀW`` (:func:`_design_workload`), except
where ``J`` is singular: there ``F`` has many gradients and the certificate uses the
best (:func:`_gradient`, from the Lagrangian dual :func:`_dual_program`, which also starts
the enumeration). ``Design.workload_estimator`` answers the workload. At small ε the
brackets stay wider than the full-rank design's (near 1e-6 relative at ε = 0.05 on
one-way marginals): the dual program is not solved in conditioned coordinates.

Scope today: column generation for ε-LDP, and for
:class:`~mechdesign.notions.CloneLDP` outside its mixed regime (its peaks priced exactly,
its flats as two-level patterns:
:class:`~mechdesign.optimal.estimation.pricing.ClonePeaksPricing`); other notions
enumerate. Timings and brackets at
k = 40 and 128, at every ε, beside the code before these bounds:
``benchmarks/estimation_robust.py``, whose table docs/tour.md reproduces.
"""

from __future__ import annotations

import math
import time
import warnings
from dataclasses import dataclass, field

import numpy as np
import scipy.linalg
import scipy.sparse as sp
from numpy.typing import ArrayLike, NDArray

from mechdesign._solvers.highs import solve_linear_program
from mechdesign._tolerances import (
    AUDIT_ATOL,
    ESTIMATION_DESCENT_RTOL,
    ESTIMATION_STEP_RTOL,
    STOCHASTIC_ATOL,
)
from mechdesign._validation import (
    as_distribution,
    as_float_array,
    check_choice,
    check_int,
    show,
)
from mechdesign.errors import InvalidInputError, SolverError, TooLargeError, UnsupportedError
from mechdesign.kernel import Mechanism
from mechdesign.measures.estimation import (
    WORKLOADS,
    blue_error,
    blue_estimator,
    error_by_input,
    information_matrix,
    workload_inverse,
    workload_matrix,
)
from mechdesign.measures.leakage import dobrushin_coefficient
from mechdesign.notions import LDP, CloneLDP, Notion
from mechdesign.optimal.estimation.bounds import (
    box_pricing_bound,
    pricing_free_bound,
    scaled_lower_bound,
)
from mechdesign.optimal.estimation.pricing import (
    BRUTE_FORCE_MAX_N,
    RELAXATION_MAX_N,
    ClonePeaksPricing,
    LdpQuadraticPricing,
)
from mechdesign.optimal.estimation.symmetry import invariant_gram, symmetric_design
from mechdesign.optimal.master import certificate, solve_vertex_lp
from mechdesign.optimal.result import Certificate, Design, EstimationReport, Timings
from mechdesign.status import Status

__all__ = ["ESTIMATION_SUPPORT_RTOL", "EstimationError", "design_for_estimation"]

#: Weights of the conic solution below this share of the largest are dropped before the
#: rows are made to sum to one exactly (the certificate is computed afterwards).
ESTIMATION_SUPPORT_RTOL = 1e-9

#: The first conic solve of a large vertex set uses this many columns per input (the
#: polish adds every vertex that improves).
FIRST_COLUMNS_PER_INPUT = 10

#: ``method="auto"`` prices ε-LDP's patterns (column generation) from this N.
AUTO_COLUMN_GENERATION_N = 13
#: Column generation: rounds, new columns per round, and the reduced cost (a share of
#: the polish's gap times ``max(1, F)``) above which a column is added.
COLUMN_GENERATION_ROUNDS = 500
COLUMNS_PER_ROUND = 128
PRICING_TOLERANCE = 0.1
#: The polish's relative gap while the local search still finds columns (the last
#: rounds polish to the design's ``gap``).
LOOSE_GAP = 1e-4
#: ... and at most this many of its rounds (the pool changes after each), whose Newton
#: steps stop at this decrement (a share of the error).
LOOSE_POLISH_ROUNDS = 3
LOOSE_DECREMENT = 1e-12
#: The loose phase ends when the error has fallen by less than :data:`LOOSE_GAP` (a
#: share) over this many rounds: past N ≈ 24 the local search finds improving columns
#: for hundreds of rounds that move the error by 1e-7 (ε = 1, Zipf, N = 32: 1e-5 in
#: 3 minutes), far inside the relaxation's bracket.
STALL_ROUNDS = 10

#: Column generation keeps time, past the brute force and up to the relaxation's largest
#: N, for the one relaxation of every cardinality that bounds the last design when the
#: limit stops it: about WHOLE_BOUND_SECONDS_AT_40 · (N/40)⁴ seconds (measured 2.5–5 s
#: at N = 40 and 30 s at N = 64 on 2 busy cores; an interior point on an (N+1)² matrix),
#: and only when that is at most WHOLE_BOUND_RESERVE of ``time_limit`` — else the
#: relaxation is skipped and the limit kept (:func:`_whole_bound_reserve`).
WHOLE_BOUND_SECONDS_AT_40 = 4.0
WHOLE_BOUND_RESERVE = 0.5

#: A workload of lower rank: the polish drops weights below this share of the largest
#: when that costs at most a tenth of the gap (:func:`_drop_vanishing`).
VANISHING_WEIGHT_RTOL = 1e-6

#: An eigenvalue of ``J⁺`` below this share of its largest is ``J``'s null space
#: (:func:`_gradient`; ``J⁺`` is built on ``J``'s range, so these are rounding).
NULL_EIGENVALUE_RTOL = 1e-12

#: The least time the dual program of a singular ``J`` gets past a deadline
#: (:func:`_gradient`; it is the certificate of the last design).
DUAL_PROGRAM_MIN_SECONDS = 2.0

#: Column generation uses subset selection (:func:`_subset_selection`) when its weighted
#: design has at most this many columns per N².
SUBSET_SELECTION_COLUMNS_PER_INPUT = 1

#: Bisection steps of the Frank–Wolfe line search.
LINE_SEARCH_STEPS = 60

#: Rounds of Newton polishing and adding the vertices the certificate finds improving.
POLISH_ROUNDS = 50
#: Newton steps per round, and halvings of a step that does not decrease the error.
NEWTON_STEPS = 30
NEWTON_BACKTRACKS = 40
#: The polish takes Newton steps on supports of at most this many columns (a dense KKT
#: solve of that size takes about a second; the weighted subset-selection start at
#: N = 128 has 8,192), Frank–Wolfe steps alone on larger ones.
NEWTON_MAX_SUPPORT = 3000
#: Newton stops when its decrement (the decrease a full step predicts) is below this
#: share of the error.
NEWTON_DECREMENT_RTOL = 1e-20
#: The Levenberg shift (times the Hessian's largest diagonal) of a singular Newton system.
KKT_REGULARISATION = 1e-12

#: The most memory an estimation design's polish may need (:func:`check_polish_memory`).
MAX_POLISH_BYTES = 4 * 2**30

#: SCS's tolerances when Clarabel fails on the A-optimal program (a first-order method:
#: the polish, not these, makes the weights accurate; the certificate measures them).
SCS_TOLERANCES = {"eps_abs": 1e-9, "eps_rel": 1e-9}

#: Clarabel's tolerances for the A-optimal program (its defaults are 1e-8; the bracket,
#: not these, decides "optimal").
CONIC_TOLERANCES = {"tol_gap_abs": 1e-10, "tol_gap_rel": 1e-10, "tol_feas": 1e-10}


@dataclass(frozen=True, eq=False)
class EstimationError:
    """The expected squared error of a workload, answered by the best linear unbiased
    estimator at the prior — a utility of :func:`~mechdesign.optimal.design` to minimise
    (``design(notion, prior, utility=EstimationError(...))``; ``utility="mse"`` is the
    histogram).

    Parameters
    ----------
    workload : {None, "histogram", "prefix", "all-range", "marginals"} or array_like, shape=(L, N)
        The linear queries (:func:`~mechdesign.measures.estimation.workload_matrix`).
    shape : tuple of int, optional
        The product alphabet of ``"marginals"``.
    worst_case : bool, default False
        Minimise the largest error over every input distribution (the minimax design)
        instead of the error at a prior: ``design(notion, None, utility=EstimationError(...,
        worst_case=True, inputs=N))``. The estimator is then data-independent.
    inputs : int, optional
        N, for a worst-case design (no prior fixes it); refused otherwise.

    Notes
    -----
    The prior passed to ``design`` is the input distribution the estimator assumes and
    the inputs follow; the error is against the users' own histogram, per report
    (``Design.utility``; ``Design.mse(n)`` divides by ``n``).

    **The worst case** (``worst_case=True``). A kernel ``K`` with an unbiased linear
    estimator ``E`` has error ``Σ_x f_x a_x`` per report against a histogram ``f``
    (:func:`~mechdesign.measures.estimation.error_by_input`), so its worst case is
    ``max_x a_x``. For every prior ``p`` the BLUE at ``p`` is best at ``p``, so the minimax
    error is at least ``OPT(p)``, the optimum at ``p``, for every ``p``; the design solves
    the uniform prior, returns its kernel with the BLUE at the uniform prior (a fixed,
    data-independent estimator), and certifies ``[lower bound of OPT(uniform),
    max_x a_x]``. The bracket closes when the uniform prior is least favourable and its
    optimum equalises the error over inputs — for ε-LDP with a workload whose Gram
    matrix is ``αI + β11ᵀ`` (the histogram) it always does: the uniform optimum is a
    single size of subset selection (:mod:`mechdesign.optimal.estimation.symmetry`),
    invariant under every permutation, so its ``a_x`` are all equal. Other workloads get
    a certified bracket that may stay open (status ``"feasible"``): the least favourable
    prior is then not searched for.
    """

    workload: object = None
    shape: tuple[int, ...] | None = None
    worst_case: bool = False
    inputs: int | None = None
    name: str = field(init=False)

    def __post_init__(self) -> None:
        if not isinstance(self.worst_case, bool):
            raise InvalidInputError(
                f"worst_case must be True or False; got {show(self.worst_case)}.")
        if self.inputs is not None:
            if not self.worst_case:
                raise InvalidInputError(
                    "inputs applies to worst_case=True only (a prior fixes N otherwise); "
                    f"got inputs={show(self.inputs)}.")
            object.__setattr__(self, "inputs", check_int(self.inputs, "inputs", low=2))
        workload = self.workload
        if isinstance(workload, str):
            check_choice(workload, "workload", WORKLOADS)
            label = workload
        elif workload is None:
            label = "histogram"
        else:
            workload = as_float_array(workload, "workload", ndim=2)
            object.__setattr__(self, "workload", workload)
            label = f"{workload.shape[0]} queries"
        if self.shape is not None and label != "marginals":
            raise InvalidInputError(
                f"shape applies to workload='marginals' only; got shape={show(self.shape)}."
            )
        if label == "marginals" and self.shape is None:
            raise InvalidInputError("workload='marginals' needs shape (prod = N).")
        kind = "worst-case " if self.worst_case else ""
        object.__setattr__(self, "name",
                           f"{kind}estimation error ({label}, n·MSE per report)")

    def matrix(self, n: int) -> NDArray[np.float64]:
        """The workload ``W`` (L × N) on ``n`` inputs."""
        return workload_matrix(self.workload, n, shape=self.shape)

    def of(self, kernel: Mechanism | ArrayLike, prior: ArrayLike) -> float:
        """The per-report error of a kernel, by :func:`~mechdesign.measures.estimation.blue_error`
        (computed from the kernel, independently of the design's weights); for a
        worst-case error, the largest over inputs with the BLUE at ``prior`` kept fixed
        (:func:`~mechdesign.measures.estimation.error_by_input`)."""
        if self.worst_case:
            k = kernel.matrix if isinstance(kernel, Mechanism) else kernel
            estimator = blue_estimator(k, prior, self.workload, shape=self.shape)
            return float(error_by_input(k, estimator, self.workload, shape=self.shape).max())
        return blue_error(kernel, prior, self.workload, shape=self.shape)


def design_for_estimation(
    notion: Notion,
    prior: ArrayLike,
    error: EstimationError,
    *,
    method: str,
    backend: str,
    max_vertices: int,
    gap: float,
    time_limit: float | None,
    progress: bool = False,
) -> Design:
    """The estimation-optimal design by enumeration or column generation (module
    docstring); the stages of :func:`~mechdesign.optimal.design` for an
    :class:`EstimationError`."""
    start = time.perf_counter()
    p = as_distribution(prior, "prior", notion.input_size)
    if np.any(p <= 0):
        raise InvalidInputError(
            "prior must be positive on every input for an estimation design (an input of "
            f"probability 0 adds nothing to the error; drop it); got {show(prior)}."
        )
    n = p.shape[0]
    workload = error.matrix(n)
    w = _design_workload(workload)  # rank < N: a root of WᵀW with rank(W) rows
    full_rank = w.shape[0] >= n
    symmetric = (invariant_gram(p, w.T @ w) if type(notion) is LDP and full_rank
                 else None)
    method = _estimation_method(notion, n, method, backend, symmetric is not None)
    if method == "symmetry":
        solved = time.perf_counter()
        enumerated = 0.0
        _, _, lower, patterns, weights = symmetric_design(notion.epsilon, n, *symmetric)
        points = LdpQuadraticPricing(notion.epsilon, p).points(patterns)
        solver_status = "optimal"
        mechanism, used = _mechanism(points, weights, p, w, solver_status)
        evidence, _, _, _ = _certify(points, weights, mechanism, p, w)
        conic_seconds = time.perf_counter() - solved
        n_vertices, engine = int(points.shape[0]), "symmetry (uniform prior) + HiGHS"
        rounds, bound_name = 0, "symmetry (every vertex, exact)"
    elif method == "enumeration":
        vertex_set = notion.cone(n).vertices(backend, max_vertices=max_vertices)
        enumerated = time.perf_counter() - start
        points = vertex_set.points / (vertex_set.points @ p)[:, None]  # p·v = 1
        check_polish_memory(points.shape[0], n)
        solved = time.perf_counter()
        deadline = None if time_limit is None else start + time_limit
        try:
            weights, solver_status, solver = _first_weights(points, p, w, time_limit)
        except KeyboardInterrupt:  # Ctrl-C: the vertex LP's start, certified below
            weights, solver_status, solver = _lp_start(points, p, w), "interrupted", "HiGHS"
        else:
            try:
                weights = _polish(points, weights, w, gap, deadline=deadline)
            except KeyboardInterrupt:  # the conic solution stands, certified below
                solver_status = "interrupted"
        conic_seconds = time.perf_counter() - solved
        mechanism, used = _mechanism(points, weights, p, w, solver_status)
        evidence, value, _, dual = _certify(points, weights, mechanism, p, w, deadline)
        g = evidence.max_dual_violation
        lower = scaled_lower_bound(value, float(dual.sum()) + max(0.0, g))
        n_vertices = int(points.shape[0])
        engine = f"{vertex_set.backend} + cvxpy/{solver}"
        rounds, bound_name = 0, "vertex LP (every vertex)"
    else:
        solved = time.perf_counter()
        enumerated = 0.0
        check_polish_memory(None, n)
        points, weights, lower, bound_name, evidence, solver_status, rounds = (
            _column_generation(_quadratic_pricing(notion, p), p, w, gap,
                               time_limit, progress))
        conic_seconds = time.perf_counter() - solved
        mechanism, used = _mechanism(points, weights, p, w, solver_status)
        n_vertices, engine = int(points.shape[0]), "pattern pricing (local search + DNN relaxation)"
    constant = float(np.sum(w * w * p))
    upper = error.of(mechanism, p)  # the worst case over inputs, for a worst-case error
    if error.worst_case:
        # OPT(uniform) is a lower bound on the minimax error (class docstring)
        bound_name = f"{bound_name} at the uniform prior"
    # F²/L̄ ≤ OPT ≤ F exactly; computed, the bound may exceed F by rounding at an
    # optimum (L̄ = F): it is then F. The error is never negative (J ⪯ diag(1/p)).
    lower = min(max(lower - constant, 0.0), upper)
    width = max(upper - lower, 0.0)
    status = Status.OPTIMAL if width <= gap * max(1.0, abs(upper)) else Status.FEASIBLE
    level = notion.level(mechanism)
    if not level <= notion.epsilon + AUDIT_ATOL:
        raise SolverError(
            f"the designed mechanism failed its audit: privacy level {show(level)} > "
            f"epsilon = {show(notion.epsilon)}",
            status=Status.AUDIT_FAILED,
        )
    report = EstimationReport(workload=workload, prior=p, lower_bound=lower, upper_bound=upper,
                              status=status, solver_status=solver_status,
                              rounds=rounds, lower_bound_source=bound_name)
    return Design(
        notion=notion,
        method=method,
        utility_name=error.name,
        mechanism=mechanism,
        utility=upper,
        weights=weights[used],
        vertices=points[used],
        n_vertices=n_vertices,
        backend=engine,
        status=_DESIGN_STATUS[solver_status],
        certificate=evidence,
        privacy_level=level,
        dobrushin_coefficient=dobrushin_coefficient(mechanism),
        dobrushin_bound=notion.dobrushin_bound(n),
        timings=Timings(enumerated, conic_seconds, time.perf_counter() - start),
        estimation=report,
    )


def _design_workload(w: NDArray[np.float64]) -> NDArray[np.float64]:
    """The workload the design works with: ``W`` itself when its rank is N, else
    ``R = S_r V_rᵀ`` (its ``r = rank W`` singular values and right singular vectors).
    ``RᵀR = WᵀW``, so ``tr(R J⁺ Rᵀ) = tr(W J⁺ Wᵀ)``, ``R`` has the row space of ``W``,
    and the design's code tells the two cases apart by ``R``'s rows (fewer than N)."""
    n = w.shape[1]
    _, singular, right = np.linalg.svd(w, full_matrices=False)
    rank = int(np.count_nonzero(singular > singular[0] * max(w.shape) * np.finfo(float).eps))
    if rank >= n:
        return w
    return singular[:rank, None] * right[:rank]


def check_polish_memory(columns: int | None, n: int) -> None:
    """Refuse, before allocating, a design whose polish may need more than
    :data:`MAX_POLISH_BYTES`: its Newton system is dense in the support, which a basic
    solution keeps to at most ``N(N+1)/2`` columns (:func:`_reduce`), and the reduction
    itself holds ``columns × N(N+1)/2`` products when an enumeration has more columns."""
    pairs = n * (n + 1) // 2
    newton = 3 * 8 * (pairs + n) ** 2  # the KKT matrix, a regularised copy, the factor
    reduction = 0 if columns is None or columns <= pairs else 8 * columns * pairs
    needed = max(newton, reduction)
    if needed > MAX_POLISH_BYTES:
        raise TooLargeError(
            f"an estimation design on N = {n} inputs may need {needed / 2**30:.1f} GiB for "
            f"its Newton polish (a dense system on up to N(N+1)/2 = {pairs:,} support "
            f"columns), above MAX_POLISH_BYTES = {MAX_POLISH_BYTES / 2**30:.0f} GiB; the "
            f"largest N it designs is {largest_polish_n()}."
        )


def largest_polish_n() -> int:
    """The largest N whose polish fits :data:`MAX_POLISH_BYTES` (:func:`check_polish_memory`)."""
    n = 2
    while 3 * 8 * ((n + 1) * (n + 2) // 2 + n + 1) ** 2 <= MAX_POLISH_BYTES:
        n += 1
    return n


def _first_weights(points, p, w, time_limit):
    """The conic solution the polish starts from, its status and the solver that gave it:
    on a restricted set of columns when there are many (the polish then adds every
    improving vertex), else on all.

    The restricted set: the basic solution of the vertex LP for the linearisation at
    ``J₀ = diag(1/p)`` (the identity kernel's), which makes it feasible, and the
    :data:`FIRST_COLUMNS_PER_INPUT` ``· N`` best vertices of that linearisation. If its
    optimum does not identify the distribution (``J`` singular), every vertex is used.
    When every conic solver fails (:func:`_solve_a_optimal`), the polish starts from that
    basic solution itself if its ``J`` is regular (a vertex basis: k-RR's for ε-LDP). A
    workload of lower rank starts from the weights of :func:`_dual_program` over every
    point (its optimum is often a singular ``J``, which the conditioned program's
    restricted set missed: it started 79 % above the optimum, 7.68 against 4.28, on
    2 × 2 × 2 marginals at ε = 2)."""
    m, n = points.shape
    if w.shape[0] < n:  # a workload of lower rank: the dual program's weights
        solved = _dual_program(points, w, time_limit)
        if solved is not None and math.isfinite(_objective(points, solved[2], w)[0]):
            return solved[2], "optimal", "Clarabel (dual program)"
    a = w * p  # W J₀⁻¹ with J₀⁻¹ = diag(p)
    g = np.einsum("mi,ij,mj->m", points, a.T @ a, points)
    basic = solve_vertex_lp(points, g, None)[0]
    if m > FIRST_COLUMNS_PER_INPUT * n * 2:
        best = np.argsort(-g, kind="stable")[:FIRST_COLUMNS_PER_INPUT * n]
        chosen = np.union1d(np.flatnonzero(basic > 0), best)
        try:
            weights, status, solver = _solve_a_optimal(points[chosen], p, w, time_limit)
        except SolverError:
            weights = None
        # an inaccurate solve of the restricted set (measured: 95 times the optimum at
        # ε = 0.05, N = 8, prefix) is a worse start than a clean solve of every vertex
        if (weights is not None and status == "optimal"
                and math.isfinite(_objective(points[chosen], weights, w)[0])):
            out = np.zeros(m)
            out[chosen] = weights
            return out, status, solver
    try:
        return _solve_a_optimal(points, p, w, time_limit)
    except SolverError:
        start = _lp_start(points, p, w)
        if math.isfinite(_objective(points, start, w)[0]):
            return start, "optimal", "HiGHS (vertex LP start; the conic solvers failed)"
        raise


def _lp_start(points, p, w):
    """Feasible weights to start from without a conic solve: k-RR's when the points hold
    every singleton vertex (one coordinate above the others: ε-LDP's; ``J`` regular),
    else the basic solution of the vertex LP for the linearisation at
    ``J₀ = diag(1/p)`` (the identity kernel's; ``J`` regular unless the basis is
    degenerate)."""
    n = points.shape[1]
    top = points.max(axis=1, keepdims=True)
    raised = points > points.min(axis=1, keepdims=True) + 0.5 * (top - points.min(
        axis=1, keepdims=True))
    single = np.flatnonzero(raised.sum(axis=1) == 1)
    owners = np.argmax(raised[single], axis=1)
    if np.unique(owners).shape[0] == n:
        first = single[np.unique(owners, return_index=True)[1]]
        weights = np.zeros(points.shape[0])
        weights[first] = np.linalg.solve(points[first].T, np.ones(n))
        if np.all(weights >= 0):
            return weights
    a = w * p  # W J₀⁻¹ with J₀⁻¹ = diag(p)
    g = np.einsum("mi,ij,mj->m", points, a.T @ a, points)
    return solve_vertex_lp(points, g, None)[0]


def _deviations(points: NDArray[np.float64], p: NDArray[np.float64]):
    """The conditioned coordinates of the A-optimal program: ``Y = (V − 1) Q / s``, the
    map ``B = (I − p 1ᵀ) Q`` and the scale ``s`` (``Q`` an orthonormal basis of
    ``p^⊥``, ``s = max |v_i − 1|``), with ``J⁻¹ = p pᵀ + B D_Q⁻¹ Bᵀ`` where
    ``D_Q = Qᵀ(J − 11ᵀ)Q = s² Σ_v θ_v y_v y_vᵀ`` (:func:`_solve_a_optimal`)."""
    n = p.shape[0]
    basis = scipy.linalg.null_space(p[None, :])  # N × (N − 1), orthonormal
    centred = points - 1.0
    scale = float(np.abs(centred).max())
    if not scale > 0:
        scale = 1.0
    y = (centred @ basis) / scale
    b = basis - np.outer(p, np.ones(n) @ basis)
    return y, b, scale


def _solve_a_optimal(
    points: NDArray[np.float64], p: NDArray[np.float64], w: NDArray[np.float64],
    time_limit: float | None,
) -> tuple[NDArray[np.float64], str, str]:
    """``min tr(W J(θ)⁻¹ Wᵀ)`` over ``θ ≥ 0, Vᵀθ = 1`` by cvxpy: Clarabel, then SCS if
    Clarabel fails. Returns the weights, cvxpy's status and the solver's name.

    **Conditioning.** At small ε every vertex is within ``~ε`` of ``1`` and ``J`` is
    ``11ᵀ`` plus a term of order ``ε²``: Clarabel failed on ``J`` itself at ε = 0.05
    (N = 6, Zipf). Every vertex has ``p·v = 1``, so ``Σθ = 1``, ``D = J − 11ᵀ =
    Σ θ_v (v − 1)(v − 1)ᵀ`` has ``Dp = 0``, and with ``T = [p, Q]`` (``Q`` an orthonormal
    basis of ``p^⊥``, ``c = Qᵀ1``) ``TᵀJT = [[1, cᵀ], [c, ccᵀ + D_Q]]``, whose inverse by
    the Schur complement gives ``J⁻¹ = p pᵀ + B D_Q⁻¹ Bᵀ`` with ``B = (I − p1ᵀ)Q``. So

    .. math::

        F = \\lVert W p \\rVert^2 + s^{-2}\\operatorname{tr}\\bigl(W B
        (\\textstyle\\sum_v \\theta_v y_v y_v^\\top)^{-1} B^\\top W^\\top\\bigr),
        \\quad \\sum_v \\theta_v = 1,\\ \\sum_v \\theta_v y_v = 0,

    with ``y_v = Qᵀ(v − 1)/s`` of order one (:func:`_deviations`); the constraints are
    ``Vᵀθ = 1`` rewritten (``pᵀ(v − 1) = 0``)."""
    import cvxpy as cp

    m, n = points.shape
    y, b, _ = _deviations(points, p)
    theta = cp.Variable(m, nonneg=True)
    k = n - 1
    outer = np.einsum("mi,mj->ijm", y, y).reshape(k * k, m)
    d = cp.reshape(outer @ theta, (k, k), order="C")
    target = (w @ b).T  # (N − 1) × L
    target = target / max(float(np.abs(target).max()), np.finfo(float).tiny)
    problem = cp.Problem(cp.Minimize(cp.matrix_frac(target, d)),
                         [cp.sum(theta) == 1, y.T @ theta == 0])
    failures = []
    for solver, options in ((cp.CLARABEL, dict(CONIC_TOLERANCES)),
                            (cp.SCS, dict(SCS_TOLERANCES))):
        if time_limit is not None:
            options["time_limit" if solver == cp.CLARABEL else "time_limit_secs"] = float(
                time_limit)
        try:
            with warnings.catch_warnings():
                # "Solution may be inaccurate": the certificate measures the accuracy.
                warnings.simplefilter("ignore", UserWarning)
                problem.solve(solver=solver, **options)
        except (cp.error.SolverError, TypeError, ValueError) as exc:
            # a solver that fails, or an older release that takes other options: the next
            failures.append(f"{solver}: {exc}")
            continue
        if theta.value is not None and problem.status in ("optimal", "optimal_inaccurate",
                                                          "user_limit"):
            weights = np.maximum(np.asarray(theta.value, dtype=float), 0.0)
            if math.isfinite(_objective(points, weights, w)[0]):
                return weights, str(problem.status), str(solver).title()
        failures.append(f"{solver}: {problem.status}")
    raise SolverError(f"no conic solver solved the A-optimal program ({'; '.join(failures)})",
                      status=Status.NUMERICAL_ERROR, solver_status="; ".join(failures))


def _information_inverse(j: NDArray[np.float64], w: NDArray[np.float64]
                         ) -> NDArray[np.float64] | None:
    """``J⁻¹`` for a workload of rank N (None when ``J`` is singular), ``J⁺`` for one of
    lower rank (fewer rows than N: :func:`_design_workload`; None when its rows are not
    in ``J``'s range, :func:`~mechdesign.measures.estimation.workload_inverse`)."""
    if w.shape[0] < j.shape[0]:
        return workload_inverse(j, w)
    # singular in floating point: the smallest eigenvalue within rounding (N ε_mach) of
    # zero. np.linalg.inv raises only on an exactly zero pivot; measured (k = 40, ε = 4,
    # prefix): J of rank 28 inverted without an error, and the line search took the
    # garbage slope there for a descent
    values = np.linalg.eigvalsh(j)
    if not values[0] > j.shape[0] * np.finfo(float).eps * values[-1]:
        return None
    try:
        return np.linalg.inv(j)
    except np.linalg.LinAlgError:
        return None


def _objective(points: NDArray[np.float64], x: NDArray[np.float64], w: NDArray[np.float64]):
    """``F = tr(W J⁻¹ Wᵀ)``, ``J⁻¹`` and ``G = J⁻¹WᵀWJ⁻¹`` of weights ``x`` on ``points``
    (F = inf where J is singular); ``J⁺`` for ``J⁻¹`` with a workload of lower rank (F =
    inf where ``J`` does not identify its answers)."""
    j = points.T @ (x[:, None] * points)
    inverse = _information_inverse(j, w)
    if inverse is None:
        return math.inf, None, None
    a = w @ inverse
    f = float(np.sum(a * w))
    return (f, inverse, a.T @ a) if f > 0 and math.isfinite(f) else (math.inf, None, None)


def _polish(points: NDArray[np.float64], weights: NDArray[np.float64],
            w: NDArray[np.float64], gap: float,
            rounds: int = POLISH_ROUNDS, deadline: float | None = None,
            decrement: float = NEWTON_DECREMENT_RTOL) -> NDArray[np.float64]:
    """Newton's method on the conic solution's support, then on the vertices the
    certificate's LP finds improving (a fully corrective Frank–Wolfe): an interior-point
    solution is accurate in the objective but only to about its square root in the
    weights, and the certificate's bracket is first order in the weights.

    Each round takes Newton steps on the support (up to :data:`NEWTON_MAX_SUPPORT`
    columns), prices every vertex by the vertex LP (the certificate), steps towards the
    LP's solution by an exact line search (a Frank–Wolfe step, which brings in the
    improving vertices), and reduces the support
    to a basic one (:func:`_reduce`). Each Newton step solves the
    equality-constrained Newton system (minimum-norm: the optimum
    is a face, the Hessian ``H_uv = 2 (uᵀJ⁻¹v)(uᵀGv)`` singular along it) for
    ``Vᵀθ = 1``, keeps ``θ ≥ 0`` by a ratio test (a weight reaching 0 leaves the
    support) and backtracks until ``F`` does not increase. The result always satisfies
    ``Vᵀθ = 1`` to rounding with vertex columns, so the audit is exact whatever the
    steps did."""
    support = np.flatnonzero(weights > ESTIMATION_SUPPORT_RTOL * weights.max())
    support, x = _reduce(points, support, weights[support])
    previous = math.inf
    for _ in range(rounds):
        if deadline is not None and time.perf_counter() > deadline:
            break  # a time limit: the weights so far (feasible) stand
        if support.shape[0] <= NEWTON_MAX_SUPPORT:
            support, x = _newton(points, support, x, w, decrement, deadline)
        f, inverse, g_matrix = _objective(points[support], x, w)
        if g_matrix is None:
            break  # J singular in floating point: the caller decides what stands
        if w.shape[0] < points.shape[1]:
            # a workload of lower rank: the bound rests on a conic solve (its accuracy,
            # not rounding), so a round that no longer lowers F ends the polish
            if previous - f <= ESTIMATION_DESCENT_RTOL * abs(f):
                break
            previous = f
        value, g_matrix, optimum = _gradient(points, w, f, inverse, g_matrix, deadline)
        g = np.einsum("mi,ij,mj->m", points, g_matrix, points)
        toward, _, dual = solve_vertex_lp(points, g, None)
        if optimum is not None:  # a workload of lower rank: towards the dual's weights
            toward = optimum
        bound = float(dual.sum()) + max(0.0, float(np.max(g - points @ dual)))
        if value < f:  # a workload of lower rank: the scaled bound of the best gradient
            if f - scaled_lower_bound(value, bound) <= 0.1 * gap * max(1.0, f):
                break
        elif bound - f <= 0.1 * gap * max(1.0, f):
            break
        # A Frank–Wolfe step towards the LP's vertex combination (it improves while the
        # bound is open: the directional derivative is f − L̄ < 0), then Newton again.
        current = np.zeros(points.shape[0])
        current[support] = x
        moved = _line_search(points, current, toward, w)
        if moved is None:
            break  # no progress along the Frank–Wolfe direction: the bracket stands
        support = np.flatnonzero(moved > 0)
        support, x = _reduce(points, support, moved[support])
    # Newton keeps Vᵀθ = 1 to its linear solves' accuracy; a last least-norm correction
    # on the support makes the rows sum to one to rounding.
    support, x = _feasible_support(points, support, x)
    if w.shape[0] < points.shape[1]:
        support, x = _drop_vanishing(points, support, x, w, gap)
    out = np.zeros(points.shape[0])
    out[support] = x
    return out


def _drop_vanishing(points, support, x, w, gap):
    """For a workload of lower rank: the weights without those below
    :data:`VANISHING_WEIGHT_RTOL` of the largest when that costs at most a tenth of the
    gap. Its optimum is often a singular ``J`` (marginals: a kernel that leaves the
    joint distribution unidentified); Newton approaches that face without reaching it,
    and a weight of 1e-10 leaves an eigenvalue of ``J`` of that order along which ``W``
    has a component of rounding size: harmless in ``F``, but ``G = J⁺WᵀWJ⁺`` is then of
    order one there and the certificate's LP bound loose (measured: a lower bound of
    1.63 for an optimum of 4.25 on one-way marginals of 3 × 3 at ε = 2)."""
    small = x < VANISHING_WEIGHT_RTOL * x.max()
    if not small.any():
        return support, x
    f = _objective(points[support], x, w)[0]
    try:
        kept, y = _feasible_support(points, support[~small], x[~small])
    except SolverError:
        return support, x
    if _objective(points[kept], y, w)[0] <= f + 0.1 * gap * max(1.0, f):
        return kept, y
    return support, x


def _line_search(points, current, toward, w):
    """``current + t (toward − current)`` minimising ``F`` over ``t ∈ [0, 1]`` (``F`` is
    convex along the segment: bisection on its derivative ``−tr(G(t) ΔJ)``), or None
    when ``t = 0``."""
    columns = np.flatnonzero((current > 0) | (toward > 0))
    v = points[columns]
    start, end = current[columns], toward[columns]
    delta_j = v.T @ ((end - start)[:, None] * v)

    def slope(t):
        _, _, g_matrix = _objective(v, start + t * (end - start), w)
        # F = ∞ where J is singular (an LP vertex combination may not identify the
        # distribution): the minimum lies before it.
        return math.inf if g_matrix is None else -float(np.sum(g_matrix * delta_j))

    # at t = 0 a singular J (a workload of lower rank) has many gradients and J⁺'s may
    # claim no descent where there is one: its slope is read from t > 0 only
    if w.shape[0] >= points.shape[1] and slope(0.0) >= 0:
        return None
    low, high = 0.0, 1.0
    if slope(1.0) <= 0:
        low = 1.0
    else:
        for _ in range(LINE_SEARCH_STEPS):
            middle = 0.5 * (low + high)
            if slope(middle) < 0:
                low = middle
            else:
                high = middle
    if low == 0.0:
        return None
    out = np.zeros(points.shape[0])
    out[columns] = start + low * (end - start)
    return out


def _reduce(points, support, x):
    """Weights with the same ``J`` on at most ``N(N+1)/2`` columns (Carathéodory): a
    basic solution of ``Σ θ_v v vᵀ = J, θ ≥ 0`` by HiGHS's simplex. The optimum is a face
    (``J*`` is unique — ``F`` is strictly convex in ``J`` — its weights are not), and on a
    basic support Newton's Hessian is regular: ε-LDP N = 12 went from 2,044 columns and
    57 s of singular Newton steps to 78 columns. ``J`` moves by HiGHS's feasibility
    tolerance only; the polish that follows restores the row sums exactly."""
    n = points.shape[1]
    if support.shape[0] <= n * (n + 1) // 2:
        return support, x  # already at most a basic solution's size: nothing to build
    if n * (n + 1) // 2 > NEWTON_MAX_SUPPORT:
        # a basic support may be too large for Newton anyway (N ≥ 77), and the LP has
        # N(N+1)/2 dense rows: 8,256 at N = 128, minutes past a time limit
        return support, x
    v = points[support]
    upper = np.triu_indices(n)
    rows = v[:, upper[0]] * v[:, upper[1]]  # s × N(N+1)/2: the entries of v vᵀ
    target = rows.T @ x
    solution = solve_linear_program(np.zeros(rows.shape[0]), sp.csc_array(rows.T), target,
                                    target, known_feasible=True)
    reduced = np.asarray(solution.x, dtype=float)
    keep = reduced > ESTIMATION_SUPPORT_RTOL * reduced.max()
    return support[keep], reduced[keep]


def _feasible(points, support, x):
    """The least-norm change of the weights that makes ``V_Sᵀθ = 1`` (to rounding)."""
    columns = points[support].T
    return x + np.linalg.lstsq(columns, 1.0 - columns @ x, rcond=None)[0]


def _feasible_support(points, support, x):
    """:func:`_feasible`, dropping the (tiny) weights the correction makes negative until
    none is; refuses when the rows can no longer sum to one."""
    while True:
        corrected = _feasible(points, support, x)
        columns = points[support].T
        if np.abs(columns @ corrected - 1.0).max() > STOCHASTIC_ATOL:
            raise SolverError("the A-optimal weights cannot be made to sum to one on their "
                              "support", status=Status.NUMERICAL_ERROR,
                              solver_status="polish failed")
        negative = corrected < 0
        if not negative.any():
            return support, corrected
        support, x = support[~negative], x[~negative]


def _kkt_step(hessian: NDArray[np.float64], v: NDArray[np.float64],
              rhs: NDArray[np.float64]) -> NDArray[np.float64]:
    """The Newton step of ``[[H, V], [Vᵀ, 0]] (d, μ) = rhs``: a symmetric indefinite
    (LDLᵀ) solve, ten times faster than least squares at a support of 300; where ``H``
    is singular to working precision (it is along the optimum's face) the same solve
    with :data:`KKT_REGULARISATION` times the largest diagonal added to ``H``
    (Levenberg: the step tends to the minimum-norm one), and least squares last."""
    k, n = v.shape
    kkt = np.block([[hessian, v], [v.T, np.zeros((n, n))]])
    scale = max(1.0, float(np.abs(np.diag(hessian)).max()))
    for shift in (0.0, KKT_REGULARISATION * scale):
        system = kkt
        if shift:
            system = kkt.copy()
            system[np.arange(k), np.arange(k)] += shift
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error", scipy.linalg.LinAlgWarning)
                step = scipy.linalg.solve(system, rhs, assume_a="sym", check_finite=False)
        except (np.linalg.LinAlgError, scipy.linalg.LinAlgWarning):
            continue
        if np.all(np.isfinite(step)):
            return step
    return np.linalg.lstsq(kkt, rhs, rcond=None)[0]


def _newton(points, support, x, w, decrement=NEWTON_DECREMENT_RTOL, deadline=None):
    """Newton steps on ``min F(θ)`` s.t. ``V_Sᵀθ = 1, θ ≥ 0`` over the support ``S``,
    from a feasible start (feasibility first: a descent step cannot also restore it),
    until ``deadline`` (``time.perf_counter()``) if given."""
    restored = _feasible(points, support, x)
    objective = _objective(points[support], restored, w) if np.all(restored >= 0) else None
    if objective is not None and objective[2] is not None:
        x = restored
        f, inverse, g_matrix = objective
    else:
        f, inverse, g_matrix = _objective(points[support], x, w)
    for _ in range(NEWTON_STEPS):
        if deadline is not None and time.perf_counter() > deadline:
            break
        if g_matrix is None:
            break  # J singular in floating point on this support: no Newton step
        v = points[support]
        grad = -np.einsum("mi,ij,mj->m", v, g_matrix, v)
        hessian = 2.0 * (v @ inverse @ v.T) * (v @ g_matrix @ v.T)
        residual = np.zeros(v.shape[1])  # the step keeps V_Sᵀθ = 1
        k = v.shape[0]
        rhs = np.concatenate([-grad, residual])
        step = _kkt_step(hessian, v, rhs)[:k]
        # A weight at (or, from the conic solver, next to) 0 that the step would make
        # negative leaves the support, all at once: one ratio test each would crawl.
        blocked = (x <= ESTIMATION_SUPPORT_RTOL * x.max()) & (step < 0)
        if np.any(blocked):
            keep = ~blocked
            reduced = _objective(points[support[keep]], x[keep], w)
            if reduced[2] is None:
                break  # without them J is singular in floating point: stop here
            support, x = support[keep], x[keep]
            f, inverse, g_matrix = reduced
            continue
        if -float(grad @ step) <= decrement * abs(f):
            break  # the Newton decrement: what a full step could still gain
        shrinking = step < 0
        t = min(1.0, float(np.min(-x[shrinking] / step[shrinking]))) if shrinking.any() else 1.0
        for _ in range(NEWTON_BACKTRACKS):
            trial = np.maximum(x + t * step, 0.0)
            f_trial, inverse_trial, g_trial = _objective(points[support], trial, w)
            if f_trial <= f + ESTIMATION_DESCENT_RTOL * abs(f):
                break
            t *= 0.5
        else:
            break  # no descent: converged to rounding
        moved = float(np.max(np.abs(trial - x)))
        x, f, inverse, g_matrix = trial, f_trial, inverse_trial, g_trial
        keep = x > 0
        if not keep.all():
            support, x = support[keep], x[keep]
            f, inverse, g_matrix = _objective(points[support], x, w)
        if moved <= ESTIMATION_STEP_RTOL * max(1.0, float(x.max())):
            break
    return support, x


def _dual_program(points: NDArray[np.float64], w: NDArray[np.float64],
                  time_limit: float | None = None):
    """The Lagrangian dual of the A-optimal program over ``points``,

    .. math::

        \\max_{X, \\lambda}\\; 2\\operatorname{tr}(W X) - \\mathbf 1\\cdot\\lambda
        \\quad\\text{s.t.}\\quad \\lVert X^\\top v \\rVert^2 \\le \\lambda\\cdot v
        \\ \\ (v \\in \\text{points})

    (``F(J) = max_X 2tr(WX) − tr(XᵀJX)`` and the vertex LP's duality: module docstring of
    :mod:`mechdesign.optimal.estimation.bounds`), by Clarabel. Returns ``tr(WX)``,
    ``X`` and the constraints' multipliers — the primal weights ``θ ≥ 0`` with
    ``Σ θ_v v ≈ 1`` — or None when Clarabel fails or ``time_limit`` (seconds) passes. A
    second-order cone program with one cone per point: 0.1 s for the 254 vertices of
    N = 8, 4 s for the 4,094 of N = 12."""
    import cvxpy as cp

    x = cp.Variable((points.shape[1], w.shape[0]))
    lam = cp.Variable(points.shape[1])
    cones = cp.sum(cp.square(points @ x), axis=1) <= points @ lam
    problem = cp.Problem(cp.Maximize(2 * cp.trace(w @ x) - cp.sum(lam)), [cones])
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            options = dict(CONIC_TOLERANCES)
            if time_limit is not None:
                options["time_limit"] = float(time_limit)
            problem.solve(solver=cp.CLARABEL, **options)
    except (cp.error.SolverError, TypeError, ValueError):
        return None
    if (x.value is None or cones.dual_value is None
            or problem.status not in ("optimal", "optimal_inaccurate")):
        return None
    solution = np.asarray(x.value, dtype=float)
    weights = np.maximum(np.asarray(cones.dual_value, dtype=float), 0.0)
    return float(np.sum(w * solution.T)), solution, weights


def _gradient(points: NDArray[np.float64], w: NDArray[np.float64], f: float,
              inverse: NDArray[np.float64], g_matrix: NDArray[np.float64],
              deadline: float | None = None):
    """``(tr(WX), G = XXᵀ, θ)`` for the linearisation: ``X = J⁻¹Wᵀ`` (``(f, g_matrix,
    None)`` as given) for a workload of rank N or a regular ``J``; at a singular ``J``
    with a workload of lower rank, the best of three
    ``X`` by the scaled bound over ``points`` — ``J⁺Wᵀ``, the ``X`` of
    :func:`_dual_program` over ``points``, and ``J⁺Wᵀ`` plus that ``X``'s component in
    ``J``'s null space — with the dual program's weights ``θ`` (None when it fails).

    Why: at a singular ``J`` — the optimum of a workload of lower rank often is one —
    ``F`` is not differentiable. Every ``X = J⁺Wᵀ + N C`` (``N`` a basis of ``J``'s null
    space, ``WN = 0``) attains ``F(J) = max_X 2tr(WX) − tr(XᵀJX)`` (the maximisers are the
    solutions of ``JX = Wᵀ``), so each ``−XXᵀ`` is a subgradient; ``J⁺``'s own
    (``C = 0``) can leave the vertex LP's bound loose and its Frank–Wolfe direction
    useless (measured: a certificate of 1.63 for an optimum of 4.25 on one-way marginals
    of 3 × 3 at ε = 2, and a polish stuck 33 % above the optimum on 2 × 2 × 2 at ε = 2).
    At the optimum the dual program's ``X`` is one of these ``X`` (a saddle point), so its
    null-space part on the exact ``J⁺Wᵀ`` gives ``tr(WX) = F`` and a bound as accurate
    as the polished weights, not as the conic solver; its ``θ`` (near the optimum over
    ``points``) is the direction the polish steps towards. Any ``X`` gives a valid bound
    ``tr(WX)²/L̄(XXᵀ)``: the solver's accuracy changes the bound's value, not its
    validity. The dual program gets the time to ``deadline`` (``time.perf_counter()``),
    at least :data:`DUAL_PROGRAM_MIN_SECONDS`, and is skipped once it has passed."""
    if w.shape[0] >= points.shape[1]:
        return f, g_matrix, None
    # J's null space: the eigenvectors of J⁺ (built on J's range) of eigenvalue 0; a
    # regular J has one gradient, J⁻¹'s
    values, vectors = np.linalg.eigh(inverse)
    null = vectors[:, values <= NULL_EIGENVALUE_RTOL * values[-1]]
    if not null.shape[1]:
        return f, g_matrix, None
    if deadline is not None and time.perf_counter() > deadline:
        return f, g_matrix, None  # past the limit: compiling the program alone takes seconds
    limit = None if deadline is None else max(deadline - time.perf_counter(),
                                              DUAL_PROGRAM_MIN_SECONDS)
    solved = _dual_program(points, w, limit)
    if solved is None:
        return f, g_matrix, None
    value, solution, weights = solved

    def scaled(option):  # the scaled bound over points (the vertex LP's)
        scores = np.einsum("mi,ij,mj->m", points, option[1], points)
        _, _, dual = solve_vertex_lp(points, scores, None)
        return scaled_lower_bound(option[0], float(dual.sum()) + max(0.0, float(np.max(
            scores - points @ dual))))

    refined = inverse @ w.T + null @ (null.T @ solution)
    options = [(f, g_matrix), (value, solution @ solution.T),
               (float(np.sum(w * refined.T)), refined @ refined.T)]
    best = max(options, key=scaled)
    return best[0], best[1], weights


def _certify(
    points: NDArray[np.float64],
    weights: NDArray[np.float64],
    mechanism: Mechanism,
    p: NDArray[np.float64],
    w: NDArray[np.float64],
    deadline: float | None = None,
) -> tuple[Certificate, float, NDArray[np.float64], NDArray[np.float64]]:
    """The linearisation's LP certificate over ``points``, from the mechanism itself:
    the evidence, ``tr(WX)``, ``G = XXᵀ`` and the LP's dual ``λ``, for ``X = J⁻¹Wᵀ``
    (``tr(WX) = F``), or for a workload of lower rank the ``X`` of :func:`_gradient`. The
    certified lower bound on ``min F`` is ``tr(WX)²/(1·λ + max(0, max_v (vᵀGv − λ·v)))``
    (module docstring), the maximum over every vertex of the section."""
    j = information_matrix(mechanism, p)
    inverse = _information_inverse(j, w)
    if inverse is None:  # _mechanism refuses such a kernel first
        raise SolverError("the designed kernel does not identify the workload",
                          status=Status.NUMERICAL_ERROR, solver_status="polish failed")
    a = w @ inverse  # L × N
    g_matrix = a.T @ a  # G = J⁻¹ WᵀW J⁻¹
    f = float(np.sum(a * w))  # tr(W J⁻¹ Wᵀ)
    value, g_matrix, _ = _gradient(points, w, f, inverse, g_matrix, deadline)
    g = np.einsum("mi,ij,mj->m", points, g_matrix, points)
    _, _, dual = solve_vertex_lp(points, g, None)
    return certificate(points, g, weights, dual), value, g_matrix, dual


def _mechanism(points, weights, p, w, solver_status) -> tuple[Mechanism, NDArray[np.int64]]:
    """The kernel of the weights (columns ``θ_v v``), refused when it cannot identify
    the input distribution."""
    used = np.flatnonzero(weights > 0)
    mechanism = Mechanism((weights[used, None] * points[used]).T)
    if not math.isfinite(blue_error(mechanism, p, w)):
        raise SolverError("the conic solver returned a kernel that cannot identify the "
                          "input distribution", status=Status.NUMERICAL_ERROR,
                          solver_status=solver_status)
    return mechanism, used


def _estimation_method(notion: Notion, n: int, method: str, backend: str,
                       symmetric: bool) -> str:
    """``"symmetry"``, ``"enumeration"`` or ``"column_generation"``: ``"auto"`` solves
    ε-LDP at a uniform prior with a permutation-invariant workload by symmetry
    (:mod:`mechdesign.optimal.estimation.symmetry`; exact at any N), prices the patterns
    from N = :data:`AUTO_COLUMN_GENERATION_N`, and enumerates when a
    ``backend`` is named; column generation is built for ε-LDP and for
    :class:`~mechdesign.notions.CloneLDP` outside its mixed regime."""
    pricable = ((type(notion) is LDP and math.isfinite(notion.epsilon))
                or (type(notion) is CloneLDP and notion.levels.regime != "mixed"
                    and notion.epsilon > 0))
    if method == "auto":
        if pricable and symmetric and backend == "auto":
            return "symmetry"
        return ("column_generation" if pricable and backend == "auto"
                and n >= AUTO_COLUMN_GENERATION_N else "enumeration")
    if method == "column_generation" and not pricable:
        raise UnsupportedError(
            "column generation for estimation error prices the quadratic score "
            "v^T G v - lambda.v over the two-level vertices of finite epsilon-LDP and of "
            "CloneLDP outside its mixed regime (r below exp(-epsilon)/2 or at least "
            f"1/(exp(epsilon) + 1)) only; {show(notion)}'s vertices are not priced yet: use "
            "method='enumeration' (or 'auto')."
        )
    return method


def _quadratic_pricing(notion: Notion, p: NDArray[np.float64]):
    """The quadratic pricing of a notion ``_estimation_method`` calls pricable: ε-LDP's
    two-level vertices, or a :class:`~mechdesign.notions.CloneLDP`'s — ε₀-LDP's when the
    clone mass adds nothing, else its peaks and flats
    (:class:`~mechdesign.optimal.estimation.pricing.ClonePeaksPricing`)."""
    if type(notion) is CloneLDP:
        if notion.levels.regime == "ldp":
            return LdpQuadraticPricing(notion.epsilon, p)
        return ClonePeaksPricing(notion.levels.low, notion.r, p)
    return LdpQuadraticPricing(notion.epsilon, p)


def _subset_selection(pricing: LdpQuadraticPricing, w):
    """Subset selection of the size that is optimal at the uniform prior
    (:func:`~mechdesign.optimal.estimation.symmetry.symmetric_design`'s ``d*``), realised
    by the weighted design of :mod:`~mechdesign.optimal.estimation.symmetry`: its
    patterns, vertices and weights at the prior, or None (``d* = 1`` is k-RR itself; more
    than :data:`SUBSET_SELECTION_COLUMNS_PER_INPUT` ``· N²`` columns; a kernel the audit
    would refuse). The kernel ``K[x, S] = π_S u_S(x)/s`` (``u`` the two levels, ``s`` the
    common row sum of a balanced design) is ε-LDP whatever the prior; at the prior ``p``
    its columns are the vertices ``u_S/(p·u_S)`` with weights ``π_S (p·u_S)/s``, which sum
    to one on every row."""
    from mechdesign.optimal.estimation.symmetry import orbit_information, weighted_design

    n = pricing.n
    a, _ = orbit_information(pricing.epsilon, n)
    d = int(np.argmax(a)) + 1
    if d == 1:
        return None
    try:
        chosen, pi = weighted_design(n, d)
    except (SolverError, TooLargeError):
        return None
    if chosen.shape[0] > SUBSET_SELECTION_COLUMNS_PER_INPUT * n * n:
        return None
    u = pricing.low + pricing.rise * chosen
    common = d / n + (1.0 - d / n) * pricing.low  # every row's sum: a balanced design
    start = pi * (u @ pricing.p) / common
    fresh = pricing.points(chosen)
    # the kernel must be one the design's audit accepts: at ε = 1e-3 its J is within
    # RANK_RTOL of singular for blue_error, though regular (k-RR's is not)
    if not math.isfinite(blue_error((start[:, None] * fresh).T, pricing.p, w)):
        return None
    return chosen, fresh, start


def _with_columns(pool, extra):
    """``(patterns, points, weights)`` of ``pool`` with the columns of ``extra``
    appended, the weights those of ``extra`` (the pool's set to 0)."""
    patterns, points, weights = pool
    chosen, fresh, start = extra
    return (np.vstack([patterns, chosen]), np.vstack([points, fresh]),
            np.concatenate([np.zeros(weights.shape[0]), start]))


def _whole_bound_reserve(n: int, time_limit: float | None) -> float:
    """The seconds column generation keeps at the end of ``time_limit`` for the one
    relaxation of every size (:data:`WHOLE_BOUND_SECONDS_AT_40`), or 0 when there is no
    limit, no relaxation at this N, or the estimate exceeds :data:`WHOLE_BOUND_RESERVE`
    of the limit (then none is solved once the limit has passed)."""
    if time_limit is None or not BRUTE_FORCE_MAX_N < n <= RELAXATION_MAX_N:
        return 0.0
    needed = WHOLE_BOUND_SECONDS_AT_40 * (n / 40) ** 4
    return needed if needed <= WHOLE_BOUND_RESERVE * time_limit else 0.0


def _column_generation(pricing: LdpQuadraticPricing, p, w, gap, time_limit, progress):
    """Column generation over ε-LDP's vertices (module docstring): the fully corrective
    polish on a pool of columns, the pool grown by the local search's improving patterns
    until it finds none, then certified by :meth:`LdpQuadraticPricing.upper_bound` (which
    may still find columns).

    The lower bound is certified from the start: before the first round by a bound that
    needs no pricing (:func:`~mechdesign.optimal.estimation.bounds.pricing_free_bound` at
    k-RR's design), after every round by the scaled bound with the box bound on the
    reduced costs (:func:`~mechdesign.optimal.estimation.bounds.box_pricing_bound`), and at
    the end by the pricing's own bound; the best one and its name are kept. A time limit
    (checked between rounds and inside the pricing's relaxation) or Ctrl-C stops with the
    best certified so far. Returns the pool, the weights, the lower bound on ``min F``, its
    name, the pool's LP certificate, a status and the number of rounds."""
    from tqdm.auto import tqdm

    start = time.perf_counter()
    n = p.shape[0]
    # the end of the limit is kept for one relaxation of every size, if affordable
    reserve = _whole_bound_reserve(n, time_limit)
    relaxed = reserve > 0
    deadline = None if time_limit is None else start + time_limit - reserve
    patterns = pricing.initial_patterns()
    points = pricing.points(patterns)
    weights = np.zeros(points.shape[0])
    weights[:n] = np.linalg.solve(points[:n].T, np.ones(n))  # k-RR: feasible, J regular
    # subset selection, when it beats k-RR: the start for the histogram's workloads (the
    # uniform optimum of WᵀW = αI + β11ᵀ), else the design returned if column generation
    # ends above it (measured: from it, the prefix workload at k = 40 was 16 % worse at
    # 60 s; the histogram's bracket at ε = 0.5 went from 7 % to 3e-4)
    fallback = _subset_selection(pricing.two_level, w)
    if fallback is not None:
        fallback = (pricing.embed(fallback[0]), fallback[1], fallback[2])
    if fallback is not None and not (_objective(fallback[1], fallback[2], w)[0]
                                     < _objective(points, weights, w)[0]):
        fallback = None
    if fallback is not None and invariant_gram(np.full(n, 1.0 / n), w.T @ w) is not None:
        patterns, points, weights = _with_columns((patterns, points, weights), fallback)
        fallback = None
    initial = weights.copy()  # a kernel the audit accepts (checked for subset selection)
    seen = {row.tobytes() for row in np.packbits(patterns, axis=1)}
    status = "converged"
    constant = float(np.sum(w * w * p))  # F − the error
    _, inverse, _ = _objective(points, weights, w)
    lower, bound_name = pricing_free_bound(p, pricing.epsilon, w, inverse)

    def improve(value, name):
        nonlocal lower, bound_name
        if value > lower:
            lower, bound_name = value, name

    def add(found):
        nonlocal patterns, points, weights
        keys = [row.tobytes() for row in np.packbits(found, axis=1)]
        fresh = [i for i, key in enumerate(keys) if key not in seen][:COLUMNS_PER_ROUND]
        seen.update(keys[i] for i in fresh)
        if fresh:  # one assignment: Ctrl-C leaves the three consistent
            patterns, points, weights = (
                np.vstack([patterns, found[fresh]]),
                np.vstack([points, pricing.points(found[fresh])]),
                np.concatenate([weights, np.zeros(len(fresh))]),
            )
        return bool(fresh)

    round_ = -1
    last = None  # (F, G, λ) of the last polished pool
    history: list[float] = []  # the error after each loose round
    bar = tqdm(desc="estimation column generation", disable=not progress, unit=" rounds")
    try:
        precise = False  # polish loosely while the local search still finds columns
        for round_ in range(COLUMN_GENERATION_ROUNDS):
            if deadline is not None and time.perf_counter() > deadline:
                status = "time limit"
                break
            polish_gap = gap if precise else max(gap, LOOSE_GAP)
            try:
                polished = _polish(points, weights, w, polish_gap,
                                   POLISH_ROUNDS if precise else LOOSE_POLISH_ROUNDS,
                                   deadline=deadline, decrement=(
                                       NEWTON_DECREMENT_RTOL if precise else LOOSE_DECREMENT))
            except SolverError:
                # the polish lost feasibility to rounding (ε = 1e-3: J ≈ 11ᵀ): the last
                # feasible weights and the bracket certified so far stand
                status = "numerical error"
                break
            support = np.flatnonzero(polished > 0)
            f, inverse, g_matrix = _objective(points[support], polished[support], w)
            if g_matrix is None:
                # the polished J is singular in floating point (ε = 1e-3: J ≈ 11ᵀ +
                # O(ε²)): the last weights and the bracket certified so far stand
                status = "numerical error"
                break
            weights = polished
            value, g_matrix, _ = _gradient(points, w, f, inverse, g_matrix, deadline)
            g = np.einsum("mi,ij,mj->m", points, g_matrix, points)
            try:
                _, _, dual = solve_vertex_lp(points, g, None)
            except SolverError:
                # HiGHS failed on the pool's LP (ε = 1e-3: scores equal to 1e-9): the
                # polished weights and the bracket certified so far stand
                status = "numerical error"
                break
            box = box_pricing_bound(g_matrix, dual, p, pricing.epsilon)
            improve(scaled_lower_bound(value, float(dual.sum()) + max(0.0, box)),
                    "pricing (box bound)")
            last = (value, g_matrix, dual)
            tolerance = PRICING_TOLERANCE * polish_gap * max(1.0, f)
            bar.update()
            bar.set_postfix(columns=points.shape[0], error=f"{f:.6g}")
            if f - lower <= 0.5 * gap * max(1.0, f - constant):
                break  # the bracket already meets the gap: no pricing needed
            found, reduced = pricing.heuristic(g_matrix, dual, patterns[support], round_)
            if not precise:
                history.append(f)
            stalled = (len(history) > STALL_ROUNDS
                       and history[-STALL_ROUNDS - 1] - f <= LOOSE_GAP * max(1.0, f))
            if not stalled and add(found[reduced > tolerance]):
                continue
            if not precise:
                precise = True
                continue
            bound, found, name = pricing.upper_bound(g_matrix, dual, tolerance,
                                                     deadline=deadline, fallback=box,
                                                     whole=relaxed or time_limit is None)
            improve(scaled_lower_bound(value, float(dual.sum()) + max(0.0, bound)), name)
            if not add(found):
                if deadline is not None and time.perf_counter() > deadline:
                    status = "time limit"
                break
        else:
            status = "round limit"
        if (status == "time limit" and last is not None and relaxed
                and not bound_name.startswith("pricing (DNN")):
            # stopped before pricing closed the bracket: one relaxation of every size at
            # the last design (seconds up to N = 64; the time limit's "few seconds")
            value, g_matrix, dual = last
            whole = pricing.whole_bound(g_matrix, dual)
            improve(scaled_lower_bound(value, float(dual.sum()) + max(0.0, whole)),
                    "pricing (DNN relaxation, one program)")
    except KeyboardInterrupt:
        status = "interrupted"
    finally:
        bar.close()
    if fallback is not None:
        support = np.flatnonzero(weights > 0)
        if _objective(fallback[1], fallback[2], w)[0] < _objective(
                points[support], weights[support], w)[0]:
            patterns, points, weights = _with_columns((patterns, points, weights), fallback)
    try:
        mechanism, _ = _mechanism(points, weights, p, w, status)
    except SolverError:
        # the polished J is within RANK_RTOL of singular for blue_error (ε = 1e-3,
        # J ≈ 11ᵀ + O(ε²)): the start's weights stand, with the bracket certified so far
        weights = np.concatenate([initial, np.zeros(points.shape[0] - initial.shape[0])])
        status = "numerical error"
        mechanism, _ = _mechanism(points, weights, p, w, status)
    evidence, _, _, _ = _certify(points, weights, mechanism, p, w, deadline)
    return points, weights, lower, bound_name, evidence, status, round_ + 1


#: ``Design.status`` of an estimation design, from its solver's words (kept verbatim in
#: ``EstimationReport.solver_status``): cvxpy's statuses of an accepted conic solve
#: (an inaccurate optimum is accepted because the certificate measures its accuracy), and
#: column generation's reasons to stop.
_DESIGN_STATUS: dict[str, Status] = {
    "optimal": Status.OPTIMAL,
    "optimal_inaccurate": Status.OPTIMAL,
    "user_limit": Status.TIME_LIMIT,
    "converged": Status.OPTIMAL,
    "time limit": Status.TIME_LIMIT,
    "round limit": Status.ITERATION_LIMIT,
    "interrupted": Status.INTERRUPTED,
    "numerical error": Status.NUMERICAL_ERROR,
}
