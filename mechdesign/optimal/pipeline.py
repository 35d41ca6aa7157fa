"""The design pipeline: a few small stages from a notion and a utility to a certified
mechanism.

For a utility that is a sum over output columns of a sublinear (convex, positively
homogeneous) function, ``U(K) = Σ_y μ(K[:, y])``, the optimum over mechanisms whose
columns lie in a notion's ratio cone uses only the vertices ``V`` of the cone's normalised
section (Kairouz, Oh & Viswanath [1]_, Thm. 4; robust-LDP paper [2]_, Thm. 3). So the
design problem is the linear program

.. math::

    \\max_{\\theta \\ge 0} \\sum_{v \\in V} \\theta_v\\, \\mu(v)
    \\quad \\text{s.t.} \\quad \\sum_{v \\in V} \\theta_v\\, v = \\mathbf 1,

whose dual is ``min 1·λ s.t. λ·v ≥ μ(v) for every v ∈ V``. The optimal mechanism has
columns ``θ_v v`` for ``θ_v > 0``; a basic optimal solution has at most N of them.

:func:`design` runs the stages in order:

1. :func:`resolve_problem`: validate the notion, resolve the utility (which fixes N);
2. :func:`choose_method`: ``method="auto"`` picks enumeration or column generation;
3. :func:`column_source`: the source of columns (:mod:`mechdesign.optimal.sources`);
4. :func:`solve_master`: one vertex LP over a complete source, column generation
   otherwise, then a final polished LP;
5. :func:`certify`: the LP certificate, the utility recomputed from the mechanism by the
   independent path (:mod:`mechdesign.measures.leakage`, :mod:`mechdesign.measures.divergences`),
   the
   notion's own audit, and the Dobrushin coefficient next to the notion's closed-form
   bound where one exists — a :class:`~mechdesign.optimal.result.Design`.

References
----------
.. [1] P. Kairouz, S. Oh, P. Viswanath, "Extremal Mechanisms for Local Differential
   Privacy", Journal of Machine Learning Research 17(17):1-51, 2016,
   https://jmlr.org/papers/v17/15-135.html.
.. [2] M. Lopuhaä-Zwakenberg, J. Goseling, "Mechanisms for Robust Local Differential
   Privacy", Entropy 26(3):233, 2024, doi:10.3390/e26030233.
"""

from __future__ import annotations

import math
import sys
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mechdesign._tolerances import (
    AUDIT_ATOL,
    CERTIFICATE_ATOL,
    COLUMN_GENERATION_GAP,
)
from mechdesign._validation import (
    LOG_FLOAT_MAX,
    as_distribution,
    check_bool,
    check_int,
    check_real,
    show,
)
from mechdesign.errors import InvalidInputError, SolverError, UnsupportedError
from mechdesign.kernel import Mechanism
from mechdesign.measures.leakage import dobrushin_coefficient
from mechdesign.notions import Notion, check_notion
from mechdesign.notions.cones import (
    MAX_VERTICES,
    Backend,
)
from mechdesign.optimal.column_generation import (
    DUAL_SMOOTHING,
    SOURCE_RULE,
    ColumnGenerationRun,
    run_column_generation,
)
from mechdesign.optimal.estimation import EstimationError, design_for_estimation
from mechdesign.optimal.master import (
    certificate,
    check_finite_utilities,
    polish,
    solve_vertex_lp,
)
from mechdesign.optimal.registry import source_class
from mechdesign.optimal.result import ColumnGenerationReport, Design, Timings
from mechdesign.optimal.sources import (
    CddRepair,
    ColumnSource,
    VertexEnumeration,
    check_gap,
)
from mechdesign.optimal.utilities import GainUtility, MutualInformationUtility, Utility
from mechdesign.status import Status

__all__ = [
    "METHODS",
    "DesignTarget",
    "MasterSolution",
    "choose_method",
    "column_source",
    "design",
    "resolve_problem",
    "solve_master",
]


#: The utilities ``design(utility=...)`` knows by name ("mi" is short for the first).
UTILITIES = ("mutual_information", "mi", "bayes", "mse")

#: The largest finite ε a design accepts: ``log`` of the largest double (709.78). Above
#: it the optimal mechanisms' entries ``e^{−ε}`` are not representable (the audit of the
#: rounded kernel reads ∞); ``ε = ∞`` is the representable limit.
MAX_DESIGN_EPSILON = LOG_FLOAT_MAX

#: The values of ``design(method=...)``; the first is the default.
METHODS = ("auto", "enumeration", "column_generation")



class DesignTarget(ABC):
    """A requirement that :func:`design` meets through designs under notions, when no
    single notion states it (a central guarantee behind a shuffler:
    :class:`~mechdesign.accounting.shuffle_design.Shuffled`). A subclass implements
    :meth:`design`; :func:`design` hands it every argument unchanged."""

    @abstractmethod
    def design(self, prior: ArrayLike | None, **options: object) -> Design:
        """The best design meeting the target, with ``Design.target`` its report;
        ``options`` are :func:`design`'s keyword arguments."""


def design(
    notion: Notion,
    prior: ArrayLike | None = None,
    *,
    utility: Literal["mutual_information", "bayes"] | Utility = "mutual_information",
    backend: Backend = "auto",
    method: Literal["auto", "enumeration", "column_generation"] = "auto",
    max_vertices: int = MAX_VERTICES,
    time_limit: float | None = None,
    gap: float = COLUMN_GENERATION_GAP,
    progress: bool | None = None,
) -> Design:
    """The mechanism maximising a sublinear utility under a privacy notion.

    Parameters
    ----------
    notion : Notion or DesignTarget
        :class:`~mechdesign.notions.LDP`, :class:`~mechdesign.notions.PML`, any other
        :class:`~mechdesign.notions.Notion`, or a :class:`DesignTarget` such as
        :class:`~mechdesign.accounting.shuffle_design.Shuffled` (the central guarantee
        behind a shuffler), which designs through notions of its choice and records how
        in ``Design.target``.
    prior : array_like, shape=(N,), optional
        The input distribution; required for mutual information (it also fixes N) and
        for an estimation design, except the worst case over every distribution
        (``EstimationError(..., worst_case=True, inputs=N)``), which takes None.
    utility : "mutual_information", "bayes" or Utility
        ``"mutual_information"`` (default; ``"mi"`` too), ``"bayes"`` (Bayes
        vulnerability, the probability that the MAP guess of X from Y is right:
        :meth:`~mechdesign.optimal.utilities.GainUtility.bayes` of ``prior``), or a utility
        object — :class:`~mechdesign.optimal.utilities.GainUtility` (g-vulnerability),
        :class:`~mechdesign.optimal.utilities.FDivergenceUtility` — which fixes N itself.
        Every one is a sum over columns of a sublinear ``μ``, so the optimum sits on the
        section's vertices (Kairouz, Oh & Viswanath [1]_, Thm. 4).
    backend : {"auto", "cdd", "exact", "closed_form"}
        Vertex backend (:meth:`~mechdesign.notions.cones.RatioCone.vertices`). Naming one (not
        ``"auto"``) with ``method="auto"`` means enumeration.
    method : {"auto", "enumeration", "column_generation"}
        ``"auto"`` (default): column generation when its pricing is exact for the notion
        and the utility (``0 < ε < ∞``; mutual information: ε-LDP, ``(ε, c)``-PML,
        non-robust RLDP under its own ``P̂`` and PolyOpt (either variant) with at most 16
        outcomes per secret; g-vulnerability: ε-LDP and ``(ε, c)``-PML) and the notion's
        vertex bound (:meth:`~mechdesign.notions.cones.RatioCone.vertex_bound`) exceeds
        :data:`~mechdesign.optimal.sources.AUTO_MAX_VERTICES`; enumeration otherwise.
        Enumeration is the faster of the
        two below the threshold and the only certified one for the other notions. The
        threshold is the crossover measured on a 2-core machine
        (``benchmarks/auto_method.py``, ε = 1, Dirichlet(1) priors,
        column-generation time over enumeration time): ε-LDP 1.3 at N = 17 (131,070
        vertices, 2.5 s enumerating, 0.5 GB), 1.8 at N = 18 (262,142; 6 s, 0.9 GB), 0.46 at
        N = 19 and 0.13 at N = 20 (33 s enumerating, 3.9 GB; 4.3 s generating);
        ``(ε, 1/(2N))``-PML 2.1 at N = 13 (bound 122,880), 1.0 at N = 14 (262,144), 0.92
        at N = 15. Pricing g-vulnerability is a sort, not a MIP, so its crossover is
        lower (:data:`~mechdesign.optimal.gain_pricing.GAIN_AUTO_MAX_VERTICES`). The
        choice is recorded in ``Design.method``. For an
        :class:`~mechdesign.optimal.estimation.EstimationError` (``utility="mse"``),
        ``"auto"`` is column generation for finite ε-LDP (and
        :class:`~mechdesign.notions.CloneLDP` outside its mixed regime) from N =
        :data:`~mechdesign.optimal.estimation.AUTO_COLUMN_GENERATION_N` (ε = 1, Zipf:
        0.8 s against 7.6 s enumerating at N = 14) and enumeration otherwise; column
        generation there prices the quadratic score by a local search and certifies by a
        brute force (N ≤ 18) or a semidefinite relaxation
        (:mod:`~mechdesign.optimal.estimation.pricing`; ``Design.estimation`` holds the
        bracket, ``time_limit`` and Ctrl-C stop it between polish rounds).
        ``"enumeration"``: enumerate every vertex, then one LP.
        ``"column_generation"``: a restricted master LP over generated vertices
        (:mod:`mechdesign.optimal.column_generation`), stopping with a bracket
        ``lower ≤ OPT ≤ upper`` (``Design.column_generation``); mutual information and
        g-vulnerability (:mod:`~mechdesign.optimal.gain_pricing`), ``0 < ε < ∞``.
        Pricing is exact for ε-LDP, ``(ε, c)``-PML and
        :class:`~mechdesign.notions.NonRobustLDP` (status ``Status.OPTIMAL`` once the gap is
        within ``gap``); PolyOpt [3]_ (:class:`~mechdesign.notions.RobustLDP`, prior = its
        estimate) is priced heuristically and bounded by the non-robust relaxation
        (status ``Status.FEASIBLE``, the bracket's width in its ``gap``). For ε-LDP and
        mutual information the bracket's upper end starts at ``κ(ε) = A − 1 − log A``,
        ``A = ε/(1 − e^{−ε})`` (:func:`~mechdesign.optimal.patterns.ldp_information_bound`:
        the most information one output of any ε-LDP kernel carries, under any prior),
        which the optimum meets when the prior splits into sets of mass ``(A − 1)/(e^ε −
        1)`` in the right proportions — diffuse priors to within the gap, so that the
        closed-form dual ``κ P`` certifies them at once; where inputs share a mass the
        LP reduced by that symmetry certifies the optimum exactly, and the heuristic's
        arcs of random orders of the inputs close the rest (timings:
        ``benchmarks/scale_hard.py``). Other notions
        raise
        :class:`~mechdesign.errors.UnsupportedError` (no pattern of their vertices is
        known). When the cdd backend's LP probes show that
        cddlib missed vertices even after every row order
        (:attr:`~mechdesign.notions.cones.VertexSet.missed` > 0), improving columns are then
        searched by successive linearisation
        (:class:`~mechdesign.optimal.sources.CddRepair`), the
        ``backend`` string of the result says so, and the certificate covers only the
        columns found.
    max_vertices : int, default :data:`~mechdesign.notions.cones.MAX_VERTICES`
        Refuse with :class:`~mechdesign.errors.TooLargeError` above this many vertices
        (``≥ 1``).
    time_limit : float, optional
        HiGHS [2]_ time limit in seconds (positive; ``inf`` or ``None``: no limit); reaching
        it raises :class:`~mechdesign.errors.SolverError` with status ``Status.TIME_LIMIT``.
        With ``method="column_generation"`` it bounds the whole loop instead, which then
        stops with status ``Status.FEASIBLE`` and the bracket's width in its ``gap``.
    gap : float, default :data:`~mechdesign._tolerances.COLUMN_GENERATION_GAP`
        ``method="column_generation"`` only: stop as ``"optimal"`` once the certified
        ``upper − lower ≤ gap · max(1, |lower|)`` (nats); positive and finite.
    progress : bool, optional
        Show a tqdm progress bar while columns are generated (iterations, lower bound,
        gap, columns). ``None`` (default): when standard error is a terminal. Ctrl-C
        during column generation stops it cleanly: the design is the best certified so
        far, its ``column_generation.status`` is ``"interrupted"`` and its bracket is
        what had been certified (``upper_bound = inf`` before any exact pricing).

    Returns
    -------
    Design

    Notes
    -----
    **Reproducibility.** The same call on the same machine, with the same versions of
    numpy, its BLAS, HiGHS and pycddlib, returns the same bytes — the kernel, the utility,
    the certificate and (column generation) the bracket at every iteration — within a
    process and across processes: nothing on the way is random (the random orders of
    the ε-LDP heuristic come from a fixed seed), and no decision reads the clock
    (whether column generation prunes its master is the column source's rule; a pricing
    MIP stops at a node count, not after some seconds). ``tests/
    test_determinism.py`` checks it, also under a randomly advancing clock. The one
    exception is ``time_limit``: when it stops a run, where it stops depends on the
    machine's speed (never the path before that). Not guaranteed: the same bytes across
    BLAS builds, processors or solver versions — sums may round differently, and where
    the optimum is not unique (degenerate LPs are common here) another optimal kernel of
    the same utility may be returned. Compare designs across machines by utility and
    audit, not entry by entry.

    Raises
    ------
    InvalidInputError
        Bad notion parameters, prior, N < 2, or an unknown option.
    TooLargeError
        The vertex enumeration would exceed ``max_vertices``.
    SolverError
        HiGHS did not reach optimality, or the solution failed its certificate or audit
        (carrying the status).
    UnsupportedError
        ``method="column_generation"`` for a utility or notion no column source prices.

    References
    ----------
    .. [1] P. Kairouz, S. Oh, P. Viswanath, "Extremal Mechanisms for Local Differential
       Privacy", Journal of Machine Learning Research 17(17):1-51, 2016,
       https://jmlr.org/papers/v17/15-135.html.
    .. [2] Q. Huangfu, J. A. J. Hall, "Parallelizing the dual revised simplex method",
       Mathematical Programming Computation 10(1):119-142, 2018,
       doi:10.1007/s12532-017-0130-5.
    .. [3] M. Lopuhaä-Zwakenberg, J. Goseling, "Mechanisms for Robust Local Differential
       Privacy", Entropy 26(3):233, 2024, doi:10.3390/e26030233.
    """
    if isinstance(notion, DesignTarget):
        return notion.design(prior, utility=utility, backend=backend, method=method,
                             max_vertices=max_vertices, time_limit=time_limit, gap=gap,
                             progress=progress)
    start = time.perf_counter()
    if isinstance(utility, EstimationError) or (isinstance(utility, str) and utility == "mse"):
        return _design_for_estimation(notion, prior, utility, backend=backend, method=method,
                                      max_vertices=max_vertices, time_limit=time_limit,
                                      gap=gap, progress=progress)
    notion, objective = resolve_problem(notion, prior, utility)
    if method not in METHODS:
        raise InvalidInputError(f"method must be one of {METHODS}; got {show(method)}.")
    if time_limit is not None:
        time_limit = check_real(time_limit, "time_limit", low=0.0, low_open=True)
        time_limit = None if math.isinf(time_limit) else time_limit  # no limit
    gap = check_gap(gap)
    max_vertices = check_int(max_vertices, "max_vertices", low=1)
    if progress is None:
        progress = sys.stderr.isatty()
    elif not isinstance(progress, bool):
        raise InvalidInputError(f"progress must be True, False or None; got {show(progress)}.")
    if method == "auto":
        method = "enumeration" if backend != "auto" else choose_method(notion, objective)
    source = column_source(notion, objective, method, backend=backend,
                           max_vertices=max_vertices)
    solved = solve_master(source, time_limit=time_limit, gap=gap, progress=progress)
    return certify(notion, objective, method, solved, time.perf_counter() - start)


def _design_for_estimation(notion, prior, utility, *, backend, method, max_vertices,
                           time_limit, gap, progress) -> Design:
    """:func:`design` for an :class:`~mechdesign.optimal.estimation.EstimationError`
    (``"mse"``: the histogram): the same argument checks, then
    :func:`~mechdesign.optimal.estimation.design_for_estimation`."""
    error = EstimationError() if isinstance(utility, str) else utility
    notion = check_notion(notion)
    size = notion.input_size
    if error.worst_case:
        if prior is not None:
            raise InvalidInputError(
                "prior must be None for a worst-case estimation design (it minimises the "
                f"largest error over every input distribution); got {show(prior)}.")
        n = error.inputs if error.inputs is not None else size
        if n is None:
            raise InvalidInputError(
                "a worst-case estimation design needs N: EstimationError(..., "
                "worst_case=True, inputs=N).")
        if size is not None and size != n:
            raise InvalidInputError(
                f"inputs = {n} does not match the notion's alphabet of {size} inputs.")
        prior = np.full(n, 1.0 / n)  # the design is solved here (class docstring)
    if prior is None:
        raise InvalidInputError(
            "prior is required for an estimation design (the input distribution the "
            "estimator assumes); for the worst case over every distribution use "
            "EstimationError(..., worst_case=True, inputs=N) with prior=None."
        )
    p = as_distribution(prior, "prior", size)
    if p.shape[0] < 2:
        raise InvalidInputError(f"design needs at least N = 2 inputs; got N = {p.shape[0]}.")
    if method not in METHODS:
        raise InvalidInputError(f"method must be one of {METHODS}; got {show(method)}.")
    if time_limit is not None:
        time_limit = check_real(time_limit, "time_limit", low=0.0, low_open=True)
        time_limit = None if math.isinf(time_limit) else time_limit
    if progress is None:
        progress = sys.stderr.isatty()
    check_bool(progress, "progress")
    return design_for_estimation(
        notion, p, error, method=method, backend=backend,
        max_vertices=check_int(max_vertices, "max_vertices", low=1), gap=check_gap(gap),
        time_limit=time_limit, progress=progress,
    )


def resolve_problem(
    notion: Notion,
    prior: ArrayLike | None,
    utility: Literal["mutual_information", "bayes"] | Utility,
) -> tuple[Notion, Utility]:
    """Stage 1: the validated notion and the utility object (which fixes N ≥ 2, matching
    the notion's own alphabet when it has one).

    Parameters
    ----------
    notion : Notion
        The privacy notion; a finite ε must be at most ``log`` of the largest double
        (709.78), else :class:`~mechdesign.errors.UnsupportedError`.
    prior : array_like, shape (N,), or None
        The input distribution: required for a named utility (it fixes N); with a
        utility object, optional and then checked against the utility's N.
    utility : "mutual_information", "mi", "bayes" or Utility
        As in :func:`design` (``"mse"`` is refused here: it has its own path).

    Returns
    -------
    notion : Notion
        The validated notion.
    objective : Utility
        The utility object.
    """
    notion = check_notion(notion)
    eps = notion.epsilon
    if math.isfinite(eps) and eps > MAX_DESIGN_EPSILON:
        raise UnsupportedError(
            f"epsilon = {show(eps)} is above the largest finite epsilon a design supports, "
            f"MAX_DESIGN_EPSILON = log(largest double) = {MAX_DESIGN_EPSILON:.2f}: the "
            "mechanism's entries of order e^(-epsilon) underflow double precision and its "
            "audit would read inf. Its limit is the identity mechanism, revealing the input "
            "(mutual information H(P))."
        )
    objective = _resolve_utility(utility, prior)
    n = objective.n
    if n < 2:
        raise InvalidInputError(f"design needs at least N = 2 inputs; got N = {n}.")
    size = notion.input_size
    if size is not None and size != n:
        raise InvalidInputError(
            f"prior has length {n} but the notion is defined on {size} inputs."
        )
    return notion, objective


def choose_method(notion: Notion, objective: Utility) -> str:
    """Stage 2, ``method="auto"`` (see :func:`design`): column generation when a source
    prices the notion exactly for this utility and the vertex bound exceeds the source's
    ``auto_max_vertices`` (:data:`~mechdesign.optimal.sources.AUTO_MAX_VERTICES` by
    default), enumeration otherwise.

    Parameters
    ----------
    notion : Notion
        The validated notion (:func:`resolve_problem`).
    objective : Utility
        The utility object; its N sizes the vertex bound.

    Returns
    -------
    {"enumeration", "column_generation"}
    """
    source = source_class(notion, objective)
    if source is None or not source.exact or not source.supports(notion, objective.prior):
        return "enumeration"
    # The notion's closed-form bound when it has one: the cone of ε-LDP alone is N³ numbers.
    bound = notion.vertex_bound(objective.n)
    if bound is None:
        bound = notion.cone(objective.n).vertex_bound()
    large = bound > source.auto_max_vertices
    return "column_generation" if large else "enumeration"


def column_source(
    notion: Notion,
    objective: Utility,
    method: str,
    *,
    backend: Backend = "auto",
    max_vertices: int = MAX_VERTICES,
) -> ColumnSource:
    """Stage 3: where the master's columns come from.

    ``"enumeration"``: every vertex of the section by ``backend``
    (:class:`~mechdesign.optimal.sources.VertexEnumeration`), or
    :class:`~mechdesign.optimal.sources.CddRepair` when cddlib's LP probes found vertices
    it missed. ``"column_generation"``: the pricing source registered for the notion
    and the utility (:func:`~mechdesign.optimal.registry.source_class`).

    Parameters
    ----------
    notion : Notion
        The validated notion.
    objective : Utility
        The utility object (fixes N).
    method : {"enumeration", "column_generation"}
        Resolved already (``"auto"`` is refused: :func:`choose_method` resolves it).
    backend : {"auto", "cdd", "exact", "closed_form"}, default "auto"
        Enumeration only: the vertex backend
        (:meth:`~mechdesign.notions.cones.RatioCone.vertices`).
    max_vertices : int, default :data:`~mechdesign.notions.cones.MAX_VERTICES`
        Enumeration only: refuse with :class:`~mechdesign.errors.TooLargeError` above this
        many vertices.

    Returns
    -------
    ColumnSource
    """
    if method not in ("enumeration", "column_generation"):
        raise InvalidInputError(
            f"method must be 'enumeration' or 'column_generation' (choose_method resolves "
            f"'auto'); got {show(method)}."
        )
    if method == "enumeration":
        cone = notion.cone(objective.n)
        vertex_set = cone.vertices(backend, max_vertices=max_vertices)
        if vertex_set.missed:
            return CddRepair(vertex_set, cone.h_representation(), objective)
        return VertexEnumeration(vertex_set, objective)
    source = source_class(notion, objective)
    if source is None:
        raise UnsupportedError(
            f"column generation needs a pricing source for the notion and the utility; "
            f"none is known for {show(notion)} with the utility {show(objective.name)} "
            "(sources price mutual information and g-vulnerability over the notions whose "
            "vertex patterns are known). Use method='enumeration'."
        )
    return source.from_problem(notion, objective)


#: With a time limit, the final cold solve of the master needs at least this many
#: seconds left; otherwise the run's last (warm) master solution is the answer.
FINAL_LP_MIN_SECONDS = 1.0

@dataclass(frozen=True)
class MasterSolution:
    """Stage 4's result: the master's columns and its polished optimum.

    Parameters
    ----------
    points : ndarray, shape=(m, N)
        Every column of the final master.
    values : ndarray, shape=(m,)
        Their utilities ``μ``.
    weights : ndarray, shape=(m,)
        The polished LP weights ``θ``.
    dual : ndarray, shape=(N,)
        The final LP's dual ``λ``.
    status : Status
        How the final LP ended (:class:`~mechdesign.status.Status`: optimal, or the limit
        or interruption that stopped the run before its final solve).
    backend : str
        Where the columns came from.
    enumeration_seconds, lp_seconds : float
        The source's enumeration time and the final master solve's time (seconds).
    report : ColumnGenerationReport or None
        The bracket, when columns were generated.
    """

    points: NDArray[np.float64]
    values: NDArray[np.float64]
    weights: NDArray[np.float64]
    dual: NDArray[np.float64]
    status: Status
    backend: str
    enumeration_seconds: float
    lp_seconds: float
    report: ColumnGenerationReport | None


def solve_master(
    source: ColumnSource,
    *,
    time_limit: float | None = None,
    gap: float = COLUMN_GENERATION_GAP,
    warm: bool = True,
    progress: bool = False,
    columns_per_input: int | Literal["source"] | None = SOURCE_RULE,
    smoothing: float = DUAL_SMOOTHING,
) -> MasterSolution:
    """Stage 4: the master LP over a source's columns.

    A complete source (every vertex enumerated) is one vertex LP
    (:func:`~mechdesign.optimal.master.solve_vertex_lp`). Otherwise column generation
    (:func:`~mechdesign.optimal.column_generation.run_column_generation`) grows the master
    from the source's initial columns; a heuristic source's upper bound comes from its
    ``upper_bound`` (PolyOpt: the non-robust relaxation, within the time left, at least a
    tenth of ``time_limit``); the last master's solution, polished, when that master had
    every column (else a final cold, polished solve of the master), whose value is the
    reported lower bound. ``warm``, ``columns_per_input`` and ``smoothing``
    are column generation's (for measuring what each buys; the defaults are the
    fastest measured).

    Parameters
    ----------
    source : ColumnSource
        From :func:`column_source`.
    time_limit : float, optional
        Seconds for the whole master stage: the vertex LP's HiGHS limit, or column
        generation's (which then stops with a ``"feasible, gap g"`` bracket). ``None``:
        no limit.
    gap : float, default :data:`~mechdesign._tolerances.COLUMN_GENERATION_GAP`
        Column generation stops as ``"optimal"`` once ``upper − lower ≤ gap · max(1,
        |lower|)`` (nats); positive and finite.
    warm : bool, default True
        Warm-start each restricted master from the previous basis
        (:class:`~mechdesign.optimal.master.RestrictedMaster`).
    progress : bool, default False
        Show a tqdm bar while columns are generated.
    columns_per_input : int, "source" or None, default "source"
        Column management: keep about this many columns per input when the master is
        pruned (a positive int), the source's own rule (``"source"``), or never prune
        (``None``).
    smoothing : float, default :data:`~mechdesign.optimal.column_generation.DUAL_SMOOTHING`
        The dual smoothing weight ``α`` in ``[0, 1)``; 0 prices the master's dual itself.

    Returns
    -------
    MasterSolution
    """
    started = time.perf_counter()
    if source.complete:
        initial = source.initial_columns()
        values = check_finite_utilities(source.values(initial))
        weights, solution, dual = solve_vertex_lp(initial, values, time_limit)
        return MasterSolution(initial, values, weights, dual, solution.status,
                              source.describe(initial.shape[0]), source.enumeration_seconds,
                              solution.seconds, None)
    run = run_column_generation(source, gap=gap, time_limit=time_limit, warm=warm,
                                progress=progress, columns_per_input=columns_per_input,
                                smoothing=smoothing)
    # A heuristic source's own bound (PolyOpt: the relaxation); an exact source's is a
    # closed form that needs no pricing (I(X; Y) ≤ H(X)), and the bracket never reports
    # more: a time limit can stop pricing where the Lagrangian bound is still above it.
    left = None if time_limit is None else max(
        time_limit - (time.perf_counter() - started), 0.1 * time_limit
    )
    if not (math.isfinite(run.lower)
            and run.upper - run.lower <= gap * max(1.0, abs(run.lower))):  # still open
        run.upper = min(run.upper, source.upper_bound(gap, left))
    points, values = run.master.columns, run.master.values
    remaining = None if time_limit is None else time_limit - (time.perf_counter() - started)
    if run.weights is not None and run.solved_columns == run.master.size:
        # The last restricted master already is the LP over every column, solved warm
        # (a cold solve of it was three quarters of ε-LDP Zipf(1.1) at N = 1,024).
        return _last_master(run, source, started)
    if run.interrupted or (remaining is not None and remaining < FINAL_LP_MIN_SECONDS):
        return _last_master(run, source, started)
    try:
        weights, solution, dual = solve_vertex_lp(points, values, remaining)
    except SolverError:
        if time_limit is None:
            raise
        return _last_master(run, source, started)  # the limit struck the final solve
    report = run.report(float(weights @ values), dual, time.perf_counter() - started)
    return MasterSolution(points, values, weights, dual, solution.status,
                          source.describe(points.shape[0]), source.enumeration_seconds,
                          solution.seconds, report)


def _last_master(run: ColumnGenerationRun, source: ColumnSource,
                 started: float) -> MasterSolution:
    """The solution of the run's last restricted master (when it had every column; or at
    Ctrl-C, or a time limit with no time left for the final solve): its weights over the
    columns it had, polished (:func:`~mechdesign.optimal.master.polish`), and its dual —
    an LP optimum over those columns, so :func:`certify` checks it as any other."""
    if run.weights is None:
        raise SolverError("stopped before the first master was solved: no mechanism yet",
                          status=Status.INTERRUPTED if run.interrupted else Status.TIME_LIMIT)
    count = run.solved_columns
    points, values = run.master.columns[:count], run.master.values[:count]
    weights = polish(points, run.weights)
    report = run.report(float(weights @ values), run.dual, time.perf_counter() - started)
    if run.interrupted:
        status = Status.INTERRUPTED
    else:  # the LP over every column, or the limit struck before the final solve
        status = Status.OPTIMAL if count == run.master.size else Status.TIME_LIMIT
    return MasterSolution(points, values, weights, run.dual, status,
                          source.describe(count), source.enumeration_seconds,
                          run.master.seconds, report)


def certify(
    notion: Notion, objective: Utility, method: str, solved: MasterSolution, seconds: float
) -> Design:
    """Stage 5: the mechanism of the master's solution and its evidence, or
    :class:`~mechdesign.errors.SolverError` when the LP certificate or the audit fails."""
    start = time.perf_counter()
    weights, points = solved.weights, solved.points
    used = np.flatnonzero(weights > 0)
    mechanism = Mechanism((weights[used, None] * points[used]).T).reduced()
    evidence = certificate(points, solved.values, weights, solved.dual)
    achieved = objective.of(mechanism)
    scale = max(1.0, abs(evidence.primal_objective))
    if not evidence.holds or abs(achieved - evidence.primal_objective) > (
        CERTIFICATE_ATOL * scale
    ):
        raise SolverError(
            f"the LP solution failed its optimality certificate (dual violation "
            f"{evidence.max_dual_violation:.3g}, primal {show(evidence.primal_objective)}, "
            f"dual {show(evidence.dual_objective)}, utility of the mechanism {show(achieved)})",
            status=Status.CERTIFICATE_FAILED,
        )
    level = notion.level(mechanism)
    if not level <= notion.epsilon + AUDIT_ATOL:
        raise SolverError(
            f"the designed mechanism failed its audit: privacy level {show(level)} > "
            f"epsilon = {show(notion.epsilon)}",
            status=Status.AUDIT_FAILED,
        )
    generated = method == "column_generation"
    return Design(
        notion=notion,
        method=method,
        utility_name=objective.name,
        mechanism=mechanism,
        utility=achieved,
        weights=weights[used],
        vertices=points[used],
        n_vertices=int(points.shape[0]),
        backend=solved.backend,
        column_generation=solved.report if generated else None,
        status=solved.status,
        certificate=evidence,
        privacy_level=level,
        dobrushin_coefficient=dobrushin_coefficient(mechanism),
        dobrushin_bound=notion.dobrushin_bound(objective.n),
        timings=Timings(solved.enumeration_seconds, solved.lp_seconds,
                        seconds + time.perf_counter() - start),
    )


def _resolve_utility(
    utility: Literal["mutual_information", "bayes"] | Utility, prior: ArrayLike | None
) -> Utility:
    if isinstance(utility, str):
        if utility not in UTILITIES:
            raise InvalidInputError(
                f"utility must be one of {UTILITIES} or a utility object; got {show(utility)}."
            )
        if prior is None:
            raise InvalidInputError(f"prior is required for the utility {show(utility)}.")
        if utility == "bayes":
            return GainUtility.bayes(prior)
        if utility == "mse":
            raise InvalidInputError(
                "utility 'mse' is not a column-wise utility: design() takes it (and "
                "EstimationError) by its own convex path, not through resolve_problem."
            )
        return MutualInformationUtility(prior)
    if not isinstance(utility, Utility):
        raise InvalidInputError(
            f"utility must be one of {UTILITIES} or a utility object (a subclass of "
            f"mechdesign.optimal.Utility, such as GainUtility); got {show(utility)}."
        )
    if prior is not None:
        p = as_distribution(prior, "prior")
        if p.shape[0] != utility.n:
            raise InvalidInputError(
                f"prior must have length {utility.n} (the utility's N); got {p.shape[0]}."
            )
    return utility
