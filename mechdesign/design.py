"""Optimal mechanisms: sublinear utilities, the vertex linear program, and its evidence.

For a utility that is a sum over output columns of a sublinear (convex, positively
homogeneous) function, ``U(K) = Σ_y μ(K[:, y])``, the optimum over mechanisms whose
columns lie in a notion's ratio cone uses only the vertices ``V`` of the cone's normalised
section (Kairouz, Oh & Viswanath, JMLR 2016, Thm. 4; robust-LDP paper, Thm. 3; GUIDE.md
consequence 1). So the design problem is the linear program

.. math::

    \\max_{\\theta \\ge 0} \\sum_{v \\in V} \\theta_v\\, \\mu(v)
    \\quad \\text{s.t.} \\quad \\sum_{v \\in V} \\theta_v\\, v = \\mathbf 1,

whose dual is ``min 1·λ s.t. λ·v ≥ μ(v) for every v ∈ V``. The optimal mechanism has
columns ``θ_v v`` for ``θ_v > 0``; a basic optimal solution has at most N of them.

:func:`design` solves this LP with HiGHS and returns a :class:`Design` that carries its
evidence: the mechanism re-audited by the notion's independent audit path, the utility
recomputed from the mechanism by :mod:`mechdesign.leakage` /
:mod:`mechdesign.divergences`, the LP optimality certificate (dual feasibility on every
enumerated vertex, primal = dual objective), and the Dobrushin coefficient next to the
notion's closed-form bound where one exists.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Literal

import numpy as np
import scipy.sparse as sp
from numpy.typing import ArrayLike, NDArray
from scipy.optimize import nnls

from mechdesign._highs import solve_with_fallback
from mechdesign._numerics import (
    AUDIT_ATOL,
    CERTIFICATE_ATOL,
    COLUMN_GENERATION_GAP,
    MAX_VERTICES,
    PRICING_ASCENT_STEPS,
    PRICING_ROUNDS,
    PRICING_STARTS,
    STOCHASTIC_ATOL,
    as_distribution,
    show,
)
from mechdesign.colgen import ColumnGenerationReport, check_gap
from mechdesign.cones import Backend, deduplicate_points, section_argmax
from mechdesign.errors import InvalidInputError, SolverError, UnsupportedError
from mechdesign.kernel import Mechanism
from mechdesign.leakage import dobrushin_coefficient
from mechdesign.notions import Notion, check_notion
from mechdesign.utilities import (
    MutualInformationUtility,
    Utility,
)

__all__ = [
    "METHODS",
    "Certificate",
    "Design",
    "design",
]


@dataclass(frozen=True)
class Certificate:
    """LP optimality evidence: a dual vector and how well it certifies the optimum.

    Attributes
    ----------
    dual : ndarray, shape=(N,)
        ``λ``, with ``λ·v ≥ μ(v)`` for every enumerated vertex (up to the violation).
    primal_objective, dual_objective : float
        ``Σ θ_v μ(v)`` and ``1·λ``.
    max_dual_violation : float
        ``max_v (μ(v) − λ·v)``, ≤ 0 up to rounding when the certificate holds.
    holds : bool
        Violation and ``|primal − dual|`` both within
        :data:`~mechdesign._numerics.CERTIFICATE_ATOL` · max(1, |objective|).
    """

    dual: NDArray[np.float64]
    primal_objective: float
    dual_objective: float
    max_dual_violation: float
    holds: bool

    @property
    def gap(self) -> float:
        """``dual_objective − primal_objective``."""
        return self.dual_objective - self.primal_objective


@dataclass(frozen=True)
class Timings:
    """Wall-clock seconds of each stage of a design."""

    enumeration: float
    linear_program: float
    total: float


@dataclass(frozen=True, eq=False)
class Design:
    """An optimal mechanism with its evidence (returned by :func:`design`).

    Attributes
    ----------
    notion : Notion
    method : str
        ``"enumeration"`` or ``"column_generation"``: what ``method="auto"`` chose, or what
        was asked for.
    utility_name : str
    mechanism : Mechanism
        The optimal mechanism, at most N outputs, proportional columns merged.
    utility : float
        ``U(mechanism)`` in nats, recomputed from the mechanism by the independent path
        (:func:`~mechdesign.leakage.mutual_information` for mutual information).
    weights : ndarray, shape=(s,)
        The LP weights ``θ_v > 0``.
    vertices : ndarray, shape=(s, N)
        The vertices with positive weight (the mechanism's columns are ``θ_v v``).
    n_vertices : int
        How many vertices were enumerated.
    backend : str
        The vertex backend used.
    status : str
        HiGHS's model status.
    certificate : Certificate
    privacy_level : float
        ``notion.level(mechanism)``, the audit; ≤ ε + :data:`AUDIT_ATOL`.
    dobrushin_coefficient : float
        ``η_TV(mechanism)``.
    dobrushin_bound : float or None
        The notion's closed-form maximal Dobrushin coefficient (Ξ(ε, c) for
        ``(ε, c)``-PML, ``tanh(ε/2)`` for LDP), ``None`` where none is known.
    timings : Timings
    column_generation : ColumnGenerationReport or None
        The bracket, iterations and columns of ``method="column_generation"``
        (``n_vertices`` then counts the generated columns).
    """

    notion: Notion
    method: str
    utility_name: str
    mechanism: Mechanism
    utility: float
    weights: NDArray[np.float64]
    vertices: NDArray[np.float64]
    n_vertices: int
    backend: str
    status: str
    certificate: Certificate
    privacy_level: float
    dobrushin_coefficient: float
    dobrushin_bound: float | None
    timings: Timings
    column_generation: ColumnGenerationReport | None = None

    @property
    def epsilon(self) -> float:
        return self.notion.epsilon

    @property
    def audit_passed(self) -> bool:
        """Whether the re-audited privacy level is within ε (+ :data:`AUDIT_ATOL`)."""
        return self.privacy_level <= self.notion.epsilon + AUDIT_ATOL

    def summary(self) -> dict[str, object]:
        """The evidence as plain Python values (for printing and JSON)."""
        return {
            "notion": repr(self.notion),
            "method": self.method,
            "utility_name": self.utility_name,
            "utility": self.utility,
            "n_inputs": self.mechanism.n_inputs,
            "n_outputs": self.mechanism.n_outputs,
            "epsilon": self.notion.epsilon,
            "privacy_level": self.privacy_level,
            "audit_passed": self.audit_passed,
            "n_vertices": self.n_vertices,
            "backend": self.backend,
            "status": self.status,
            "certificate_holds": self.certificate.holds,
            "primal_objective": self.certificate.primal_objective,
            "dual_objective": self.certificate.dual_objective,
            "max_dual_violation": self.certificate.max_dual_violation,
            "dobrushin_coefficient": self.dobrushin_coefficient,
            "dobrushin_bound": self.dobrushin_bound,
            **(
                {}
                if self.column_generation is None
                else {
                    "lower_bound": self.column_generation.lower_bound,
                    "upper_bound": self.column_generation.upper_bound,
                    "gap": self.column_generation.gap,
                    "optimality": self.column_generation.status,
                    "exact_pricing": self.column_generation.exact_pricing,
                    "iterations": self.column_generation.iterations,
                    "columns": self.column_generation.columns,
                }
            ),
            "seconds": {
                "enumeration": self.timings.enumeration,
                "linear_program": self.timings.linear_program,
                "total": self.timings.total,
            },
        }


#: The values of ``design(method=...)``; the first is the default.
METHODS = ("auto", "enumeration", "column_generation")

#: ``method="auto"`` enumerates while the notion's vertex bound is at most this many
#: vertices and uses column generation above it (where its pricing is exact): the
#: crossover measured by ``benchmarks/auto_method.py`` (see :func:`design`).
AUTO_MAX_VERTICES = 2**18


def design(
    notion: Notion,
    prior: ArrayLike | None = None,
    *,
    utility: Literal["mutual_information"] | Utility = "mutual_information",
    backend: Backend = "auto",
    method: Literal["auto", "enumeration", "column_generation"] = "auto",
    max_vertices: int = MAX_VERTICES,
    time_limit: float | None = None,
    gap: float = COLUMN_GENERATION_GAP,
) -> Design:
    """The mechanism maximising a sublinear utility under a privacy notion.

    Parameters
    ----------
    notion : Notion
        :class:`~mechdesign.notions.LDP`, :class:`~mechdesign.notions.PML`, or any object
        with the same interface.
    prior : array_like, shape=(N,), optional
        The input distribution; required for mutual information (it also fixes N).
    utility : "mutual_information" or Utility
        ``"mutual_information"`` (default) or a utility object such as
        :class:`FDivergenceUtility`, which then fixes N itself.
    backend : {"auto", "cdd", "exact", "closed_form"}
        Vertex backend (:meth:`~mechdesign.cones.RatioCone.vertices`).
    method : {"auto", "enumeration", "column_generation"}
        ``"auto"`` (default): column generation when its pricing is exact for the notion
        (ε-LDP, ``(ε, c)``-PML and non-robust RLDP under its own ``P̂``, mutual
        information, ``0 < ε < ∞``) and the notion's vertex bound
        (:meth:`~mechdesign.cones.RatioCone.vertex_bound`) exceeds
        :data:`AUTO_MAX_VERTICES`; enumeration otherwise. Enumeration is the faster of the
        two below the threshold and the only certified one for the other notions (PolyOpt's
        column generation is heuristic). The threshold is the crossover measured on a
        2-core machine (``benchmarks/auto_method.py``, ε = 1, Dirichlet(1) priors,
        column-generation time over enumeration time): ε-LDP 1.3 at N = 17 (131,070
        vertices, 2.5 s enumerating, 0.5 GB), 1.8 at N = 18 (262,142; 6 s, 0.9 GB), 0.46 at
        N = 19 and 0.13 at N = 20 (33 s enumerating, 3.9 GB; 4.3 s generating);
        ``(ε, 1/(2N))``-PML 2.1 at N = 13 (bound 122,880), 1.0 at N = 14 (262,144), 0.92
        at N = 15. The choice is recorded in ``Design.method``.
        ``"enumeration"``: enumerate every vertex, then one LP.
        ``"column_generation"``: a restricted master LP over generated vertices
        (:mod:`mechdesign.colgen`), stopping with a bracket ``lower ≤ OPT ≤ upper``
        (``Design.column_generation``); mutual information only, ``0 < ε < ∞``.
        Pricing is exact for ε-LDP, ``(ε, c)``-PML and
        :class:`~mechdesign.notions.NonRobustLDP` (status ``"optimal"`` once the gap is
        within ``gap``); PolyOpt (:class:`~mechdesign.notions.RobustLDP`, prior = its
        estimate) is priced heuristically and bounded by the non-robust relaxation
        (status ``"feasible, gap g"``). Other notions raise
        :class:`~mechdesign.errors.UnsupportedError` (no pattern of their vertices is
        known). When the cdd backend's LP probes show that
        cddlib missed vertices even after every row order
        (:attr:`~mechdesign.cones.VertexSet.missed` > 0), improving columns are then
        searched by successive linearisation (:func:`_price_by_linearisation`), the
        ``backend`` string of the result says so, and the certificate covers only the
        columns found.
    max_vertices : int
        Refuse with :class:`~mechdesign.errors.TooLargeError` above this many vertices.
    time_limit : float, optional
        HiGHS time limit in seconds; reaching it raises
        :class:`~mechdesign.errors.SolverError` with status ``"Time limit reached"``.
        With ``method="column_generation"`` it bounds the whole loop instead, which then
        stops with status ``"feasible, gap g"``.
    gap : float
        ``method="column_generation"`` only: stop as ``"optimal"`` once the certified
        ``upper − lower ≤ gap · max(1, |lower|)`` (nats).

    Returns
    -------
    Design

    Raises
    ------
    InvalidInputError
        Bad notion parameters, prior, N < 2, or an unknown option.
    TooLargeError
        The vertex enumeration would exceed ``max_vertices``.
    SolverError
        HiGHS did not reach optimality, or the solution failed its certificate or audit
        (carrying the status).
    """
    start = time.perf_counter()
    notion = check_notion(notion)
    if method not in METHODS:
        raise InvalidInputError(f"method must be one of {METHODS}; got {show(method)}.")
    if time_limit is not None and not (
        isinstance(time_limit, int | float) and not isinstance(time_limit, bool) and time_limit > 0
    ):
        raise InvalidInputError(
            f"time_limit must be a positive number of seconds; got {show(time_limit)}."
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

    if method == "auto":
        method = _choose_method(notion, objective, n)
    report = None
    if method == "column_generation":
        points, values, weights, solution, dual, report = _column_generation(
            notion, objective, time_limit, gap=check_gap(gap)
        )
        backend_name = (
            "column generation (exact pattern pricing)" if report.exact_pricing
            else "column generation (heuristic pricing, non-robust relaxation bound)"
        )
        enumeration_seconds = 0.0
    else:
        cone = notion.cone(n)
        vertex_set = cone.vertices(backend, max_vertices=max_vertices)
        points = vertex_set.points
        values = objective.column_values(points)
        if not np.all(np.isfinite(values)):
            raise InvalidInputError(
                f"the utility is infinite at a vertex of the notion ({objective.name}); the "
                "optimum is unbounded (for example KL between hypotheses with different "
                "supports under a notion that allows zeros)."
            )
        weights, solution, dual = _solve_vertex_lp(points, values, time_limit)
        backend_name = vertex_set.backend
        if vertex_set.missed:
            # cddlib returned an incomplete vertex set: look for better columns.
            h = cone.h_representation()
            for _ in range(PRICING_ROUNDS):
                new = _price_by_linearisation(h, objective, points, values, dual)
                if new.shape[0] == 0:
                    break
                points = deduplicate_points(np.vstack([points, new]))
                values = objective.column_values(points)
                weights, solution, dual = _solve_vertex_lp(points, values, time_limit)
            added = points.shape[0] - len(vertex_set)
            if added:
                backend_name += f" + {added} columns by pricing"
        enumeration_seconds = vertex_set.seconds
    used = np.flatnonzero(weights > 0)
    mechanism = Mechanism((weights[used, None] * points[used]).T).reduced()

    certificate = _certificate(points, values, weights, dual)
    achieved = objective.of(mechanism)
    scale = max(1.0, abs(certificate.primal_objective))
    if not certificate.holds or abs(achieved - certificate.primal_objective) > (
        CERTIFICATE_ATOL * scale
    ):
        raise SolverError(
            f"the LP solution failed its optimality certificate (dual violation "
            f"{certificate.max_dual_violation:.3g}, primal {show(certificate.primal_objective)}, "
            f"dual {show(certificate.dual_objective)}, utility of the mechanism {show(achieved)})",
            status="certificate failed",
        )
    level = notion.level(mechanism)
    if not level <= notion.epsilon + AUDIT_ATOL:
        raise SolverError(
            f"the designed mechanism failed its audit: privacy level {show(level)} > "
            f"epsilon = {show(notion.epsilon)}",
            status="audit failed",
        )
    total = time.perf_counter() - start
    return Design(
        notion=notion,
        method=method,
        utility_name=objective.name,
        mechanism=mechanism,
        utility=achieved,
        weights=weights[used],
        vertices=points[used],
        n_vertices=int(points.shape[0]),
        backend=backend_name,
        column_generation=report,
        status=solution.status,
        certificate=certificate,
        privacy_level=level,
        dobrushin_coefficient=dobrushin_coefficient(mechanism),
        dobrushin_bound=notion.dobrushin_bound(n),
        timings=Timings(enumeration_seconds, solution.seconds, total),
    )


def _choose_method(notion: Notion, objective: Utility, n: int) -> str:
    """``method="auto"``: see :func:`design`."""
    from mechdesign.colgen import PricingOracle

    if not isinstance(objective, MutualInformationUtility):
        return "enumeration"
    if not PricingOracle.supports(notion, objective.prior):
        return "enumeration"
    large = notion.cone(n).vertex_bound() > AUTO_MAX_VERTICES
    return "column_generation" if large else "enumeration"


def _resolve_utility(
    utility: Literal["mutual_information"] | Utility, prior: ArrayLike | None
) -> Utility:
    if isinstance(utility, str):
        if utility not in ("mutual_information", "mi"):
            raise InvalidInputError(
                f"utility must be 'mutual_information' or a utility object; got {show(utility)}."
            )
        if prior is None:
            raise InvalidInputError("prior is required for the mutual-information utility.")
        return MutualInformationUtility(prior)
    if prior is not None:
        p = as_distribution(prior, "prior")
        if p.shape[0] != utility.n:
            raise InvalidInputError(
                f"prior must have length {utility.n} (the utility's N); got {p.shape[0]}."
            )
    return utility


def _solve_vertex_lp(
    points: NDArray[np.float64], values: NDArray[np.float64], time_limit: float | None
):
    """Solve the vertex LP; return polished weights, HiGHS's solution and the dual ``λ``.

    The LP is always feasible (``1/N`` lies in every section, so ``1 = N · (1/N)`` is a
    combination of vertices). For tiny ε every vertex is within ~ε of ``1/N``, the
    columns are nearly parallel, and HiGHS at its tight tolerance can report
    "Infeasible" or a solve error; :func:`~mechdesign._highs.solve_with_fallback` then
    solves it again at HiGHS's default tolerance, and the certificate check decides
    whether the answer stands.
    """
    n = points.shape[1]
    matrix = sp.csc_array(points.T)
    solution = solve_with_fallback(values, matrix, np.ones(n), np.ones(n), time_limit=time_limit)
    weights = _polish(points, solution.x)
    return weights, solution, solution.row_dual


def _column_generation(
    notion: Notion,
    objective: Utility,
    time_limit: float | None,
    *,
    gap: float = COLUMN_GENERATION_GAP,
    warm: bool = True,
    progress: bool = False,
):
    """:func:`~mechdesign.colgen.run_column_generation` with the notion's oracle, then a
    final cold solve of the master (:func:`_solve_vertex_lp`, polished), whose value is
    the reported lower bound.

    ε-LDP, ``(ε, c)``-PML and non-robust RLDP are priced exactly
    (:class:`~mechdesign.colgen.PricingOracle`). PolyOpt (``RobustLDP``) is priced by
    successive linearisation (:class:`~mechdesign.colgen.LinearisationOracle`); its
    upper bound is the certified optimum bound of the non-robust relaxation, computed
    afterwards by column generation with exact pricing (within the time left, at least
    a tenth of ``time_limit``), and its status is always ``"feasible, gap g"``.
    """
    from mechdesign.colgen import LinearisationOracle, PricingOracle, run_column_generation
    from mechdesign.notions import RobustLDP

    if not isinstance(objective, MutualInformationUtility):
        raise UnsupportedError(
            "method='column_generation' prices mutual information only (its exact "
            f"pricing uses the pattern of mu); got the utility {show(objective.name)}. Use "
            "method='enumeration'."
        )
    start = time.perf_counter()
    if isinstance(notion, RobustLDP):
        oracle = LinearisationOracle(notion, objective.prior)
    else:
        oracle = PricingOracle(notion, objective.prior)
    run = run_column_generation(oracle, gap=gap, time_limit=time_limit, warm=warm,
                                progress=progress)
    if not oracle.exact:
        left = None if time_limit is None else max(
            time_limit - (time.perf_counter() - start), 0.1 * time_limit
        )
        run.upper, _ = oracle.relaxation_upper_bound(gap, left)
    points, values = run.master.columns, run.master.values
    remaining = None if time_limit is None else max(
        time_limit - (time.perf_counter() - start), 1.0
    )
    weights, solution, dual = _solve_vertex_lp(points, values, remaining)
    report = run.report(float(weights @ values), dual, time.perf_counter() - start)
    return points, values, weights, solution, dual, report


def _price_by_linearisation(
    h: NDArray[np.float64],
    objective: Utility,
    points: NDArray[np.float64],
    values: NDArray[np.float64],
    dual: NDArray[np.float64],
) -> NDArray[np.float64]:
    """Columns of the section ``S = {v : H v ≥ 0, Σ v = 1}`` with positive reduced cost
    ``μ(v) − λ·v``, found by successive linearisation (a heuristic).

    ``μ`` is convex and positively homogeneous, so with ``g = ∇μ(v₀)`` Euler's identity
    ``g·v₀ = μ(v₀)`` and convexity give ``μ(v) ≥ g·v`` for every ``v``. The simplex LP
    ``v₁ = argmax_S (g − λ)·v`` therefore never decreases the reduced cost:
    ``μ(v₁) − λ·v₁ ≥ (g − λ)·v₁ ≥ (g − λ)·v₀ = μ(v₀) − λ·v₀``, and ``v₁`` is a vertex.
    Ascents start from up to :data:`PRICING_STARTS` points (the largest reduced costs
    first, then a fixed-seed random sample of the rest: the ascent from a vertex of the
    LP's basis stays there, and improving columns are often reached only from poorly
    ranked starts) and stop when a step gains nothing. ``g`` is a forward difference;
    the gain is checked with the true ``μ``. Finding nothing does not prove optimality:
    pricing a
    convex maximisation exactly is what column generation (issue 7) addresses.
    """
    scale = max(1.0, float(np.abs(values).max()))
    tolerance = CERTIFICATE_ATOL * scale
    reduced = values - points @ dual
    order = np.argsort(-reduced)
    if order.size > PRICING_STARTS:
        head = PRICING_STARTS // 2
        rest = np.random.default_rng(0).choice(order[head:], PRICING_STARTS - head, replace=False)
        order = np.concatenate([order[:head], rest])
    found = []
    for start in order:
        v, best = points[start], reduced[start]
        for _ in range(PRICING_ASCENT_STEPS):
            try:
                candidate = section_argmax(h, _forward_gradient(objective, v) - dual)
            except SolverError:
                break
            candidate = np.clip(candidate, 0.0, None)
            candidate /= candidate.sum()
            gain = float(objective.column_values(candidate[None])[0] - candidate @ dual)
            if gain <= best + tolerance:
                break
            v, best = candidate, gain
        if best > tolerance and best > reduced[start] + tolerance:
            found.append(v)
    return np.array(found).reshape(-1, points.shape[1])


def _forward_gradient(objective: Utility, v: NDArray[np.float64]) -> NDArray[np.float64]:
    """``∇μ(v)`` by forward differences (steps into ``v ≥ 0`` at zero coordinates)."""
    step = 1e-7
    shifted = v[None, :] + step * np.eye(v.shape[0])
    return (objective.column_values(shifted) - objective.column_values(v[None])[0]) / step


def _polish(points: NDArray[np.float64], x: NDArray[np.float64]) -> NDArray[np.float64]:
    """Re-solve ``Σ θ_v v = 1, θ ≥ 0`` on the support of HiGHS's solution.

    HiGHS meets the equality only to its feasibility tolerance; a non-negative least
    squares solve (:func:`scipy.optimize.nnls`) of the at most N × N system on the
    positive support makes the mechanism's rows sum to one to rounding. The polished
    weights are used when their residual is smaller than HiGHS's; the row-sum check of
    :class:`~mechdesign.kernel.Mechanism` then has the last word.
    """
    support = np.flatnonzero(x > 0)
    if support.size == 0:
        raise SolverError("the vertex LP returned an all-zero solution", status="empty")
    columns = points[support].T
    target = np.ones(points.shape[1])
    theta, _ = nnls(columns, target)
    weights = np.zeros_like(x)
    if np.abs(columns @ theta - target).max() < np.abs(columns @ x[support] - target).max():
        weights[support] = theta
    else:
        weights[support] = x[support]
    if np.abs(points.T @ weights - target).max() > STOCHASTIC_ATOL / 10:
        # HiGHS accepted a basis that is only feasible to its tolerance (tiny ε, nearly
        # parallel columns): find exact row sums over all vertices instead. The
        # certificate check of the caller then verifies optimality.
        weights, _ = nnls(points.T, target)
    return weights


def _certificate(
    points: NDArray[np.float64],
    values: NDArray[np.float64],
    weights: NDArray[np.float64],
    dual: NDArray[np.float64],
) -> Certificate:
    primal = float(weights @ values)
    dual_objective = float(dual.sum())
    violation = float(np.max(values - points @ dual))
    scale = max(1.0, abs(primal))
    holds = violation <= CERTIFICATE_ATOL * scale and abs(dual_objective - primal) <= (
        CERTIFICATE_ATOL * scale
    )
    return Certificate(
        dual=dual,
        primal_objective=primal,
        dual_objective=dual_objective,
        max_dual_violation=violation,
        holds=holds,
    )
