"""What a design returns: the mechanism and its evidence.

Every result of the design engine carries the same vocabulary: a ``status`` of the closed
vocabulary :class:`~mechdesign.status.Status`, the ``seconds`` it took, and the bounds that
certify it (the LP certificate of the vertex LP, the ``lower ≤ OPT ≤ upper`` bracket of
column generation, whose width is the report's ``gap``, never part of the status).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from mechdesign._tolerances import (
    AUDIT_ATOL,
)
from mechdesign._validation import check_positive_int
from mechdesign.errors import UnsupportedError
from mechdesign.kernel import Mechanism
from mechdesign.measures.estimation import blue_estimator
from mechdesign.notions import Notion
from mechdesign.status import Status

__all__ = ["Certificate", "ColumnGenerationReport", "Design", "EstimationReport", "Timings"]


@dataclass(frozen=True)
class Certificate:
    """LP optimality evidence: a dual vector and how well it certifies the optimum.

    Parameters
    ----------
    dual : ndarray, shape=(N,)
        ``λ``, with ``λ·v ≥ μ(v)`` for every enumerated vertex (up to the violation).
    primal_objective, dual_objective : float
        ``Σ θ_v μ(v)`` and ``1·λ``.
    max_dual_violation : float
        ``max_v (μ(v) − λ·v)``, ≤ 0 up to rounding when the certificate holds.
    holds : bool
        Violation and ``|primal − dual|`` both within
        :data:`~mechdesign._tolerances.CERTIFICATE_ATOL` · max(1, |objective|).
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
    """Wall-clock seconds of each stage of a design.

    Parameters
    ----------
    enumeration : float
        Seconds the column source reports for producing its columns (vertex enumeration;
        0 for the pricing sources of column generation).
    linear_program : float
        Seconds of the final master solve: the vertex LP (the last restricted master's
        LP for column generation), or the conic program of an estimation design.
    total : float
        Wall-clock seconds of the whole design, certificate and audit included.
    """

    enumeration: float
    linear_program: float
    total: float


@dataclass(frozen=True, eq=False)
class EstimationReport:
    """The certificate of an estimation design
    (:mod:`~mechdesign.optimal.estimation`).

    Parameters
    ----------
    workload : ndarray, shape=(L, N)
        The queries ``W``.
    prior : ndarray, shape=(N,)
        The input distribution the estimator assumes and the inputs follow.
    lower_bound, upper_bound : float
        Certified bracket on the optimal per-report error (``n · MSE`` against the
        users' histogram); ``upper_bound`` is the returned mechanism's error.
    status : Status
        ``Status.OPTIMAL`` when the bracket is within the design's ``gap`` (relative),
        else ``Status.FEASIBLE`` (the bracket's width is :attr:`gap`).
    solver_status : str
        Enumeration: the conic solver's status (cvxpy's). Column generation: why it
        stopped (``"converged"``, ``"time limit"``, ``"interrupted"``, ``"round limit"``).
    rounds : int, default 0
        Column generation's rounds (0 for enumeration).
    lower_bound_source : str, default ""
        Which bound certifies ``lower_bound``: ``"vertex LP (every vertex)"`` (enumeration),
        ``"symmetry (every vertex, exact)"``, column generation's ``"pricing (brute force)"``,
        ``"pricing (DNN relaxation)"``, ``"pricing (box bound)"``, or a bound that needs no
        pricing, ``"diagonal (no pricing)"`` or ``"trace (no pricing)"``
        (:mod:`~mechdesign.optimal.estimation.bounds`).
    """

    workload: NDArray[np.float64]
    prior: NDArray[np.float64]
    lower_bound: float
    upper_bound: float
    status: Status
    solver_status: str
    rounds: int = 0
    lower_bound_source: str = ""

    @property
    def gap(self) -> float:
        """``upper_bound − lower_bound``."""
        return self.upper_bound - self.lower_bound


@dataclass(frozen=True, eq=False)
class Design:
    """An optimal mechanism with its evidence (returned by :func:`design`).

    Parameters
    ----------
    notion : Notion
        The privacy notion the mechanism was designed for.
    method : str
        ``"enumeration"`` or ``"column_generation"``: what ``method="auto"`` chose, or what
        was asked for; ``"symmetry"`` for an estimation design that ``"auto"`` solved by
        symmetry (ε-LDP, uniform prior, permutation-invariant workload:
        :mod:`mechdesign.optimal.estimation.symmetry`).
    utility_name : str
        The utility's name (``"mutual_information"``, a gain's name, ...).
    mechanism : Mechanism, shape (N, M)
        The optimal mechanism, at most ``M ≤ N`` outputs, proportional columns merged.
    utility : float
        ``U(mechanism)`` in nats, recomputed from the mechanism by the independent path
        (:func:`~mechdesign.measures.leakage.mutual_information` for mutual information).
    weights : ndarray, shape=(s,)
        The LP weights ``θ_v > 0``.
    vertices : ndarray, shape=(s, N)
        The vertices with positive weight (the mechanism's columns are ``θ_v v``).
    n_vertices : int
        How many vertices were enumerated.
    backend : str
        The vertex backend used.
    status : Status
        How the design's final solve ended (:class:`~mechdesign.status.Status`):
        ``OPTIMAL``, or ``TIME_LIMIT`` / ``INTERRUPTED`` when column generation stopped
        before its final solve (the design is then its last certified master's).
    certificate : Certificate
        The LP optimality evidence of the final master.
    privacy_level : float
        ``notion.level(mechanism)``, the audit; ≤ ε + :data:`AUDIT_ATOL`.
    dobrushin_coefficient : float
        ``η_TV(mechanism)``.
    dobrushin_bound : float or None
        The notion's closed-form maximal Dobrushin coefficient (Ξ(ε, c) for
        ``(ε, c)``-PML, ``tanh(ε/2)`` for LDP), ``None`` where none is known.
    timings : Timings
        Wall-clock seconds of the stages.
    column_generation : ColumnGenerationReport or None
        The bracket, iterations and columns of ``method="column_generation"``
        (``n_vertices`` then counts the generated columns).
    estimation : EstimationReport or None
        For an estimation design (utility :class:`~mechdesign.optimal.estimation.EstimationError`):
        its workload, prior and certified bracket. ``utility`` is then the per-report
        workload error (``n · MSE``, lower is better), ``weights`` and ``vertices`` are
        ``p``-normalised (``p·v = 1``, the weights are the reports' probabilities).
    target : object or None
        For a design reached through a :class:`~mechdesign.optimal.pipeline.DesignTarget`
        (such as :class:`~mechdesign.accounting.shuffle_design.Shuffled`), the target's
        report of how it chose ``notion`` (its inner designs, its guarantee); else
        ``None``.
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
    status: Status
    certificate: Certificate
    privacy_level: float
    dobrushin_coefficient: float
    dobrushin_bound: float | None
    timings: Timings
    column_generation: ColumnGenerationReport | None = None
    estimation: EstimationReport | None = None
    target: object | None = None

    @property
    def estimator(self) -> NDArray[np.float64]:
        """The best linear unbiased estimator at the prior, ``D⁻¹Kᵀ(KD⁻¹Kᵀ)⁻¹`` (M × N),
        of an estimation design (:func:`~mechdesign.measures.estimation.blue_estimator`):
        ``f̂ = π̂ E``. A design for a workload of rank below N may not identify the
        histogram; :attr:`workload_estimator` answers its workload."""
        report = self._estimation("estimator")
        n = report.prior.shape[0]
        if np.linalg.matrix_rank(report.workload) < n:
            raise UnsupportedError(
                f"the design's workload has rank {np.linalg.matrix_rank(report.workload)} "
                f"< N = {n}: its kernel need not identify the histogram, only the "
                "workload's answers; use Design.workload_estimator (M x L, answers = "
                "report frequencies @ it)."
            )
        return blue_estimator(self.mechanism, report.prior)

    @property
    def workload_estimator(self) -> NDArray[np.float64]:
        """The best linear unbiased estimator of the workload's answers at the prior,
        ``D⁻¹Kᵀ J⁺ Wᵀ`` (M × L), of an estimation design: answers ``= π̂ E_W``
        (:func:`~mechdesign.measures.estimation.blue_estimator` given the workload; for a
        workload of rank N it is ``estimator @ Wᵀ``)."""
        report = self._estimation("workload_estimator")
        return blue_estimator(self.mechanism, report.prior, report.workload)

    def mse(self, n: int) -> float:
        """Expected squared workload error of an estimation design from ``n`` reports,
        against the users' histogram: ``utility / n``."""
        self._estimation("mse")
        return self.utility / check_positive_int(n, "n")

    def _estimation(self, what: str) -> EstimationReport:
        if self.estimation is None:
            raise UnsupportedError(
                f"Design.{what} belongs to estimation designs (utility=EstimationError or "
                "'mse'); for any kernel use mechdesign.measures.estimation.blue_estimator(kernel, "
                "prior) or mechdesign.estimation_mse(kernel, prior, n, estimator='blue')."
            )
        return self.estimation

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
            "status": self.status.value,
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
                    "optimality": self.column_generation.status.value,
                    "exact_pricing": self.column_generation.exact_pricing,
                    "iterations": self.column_generation.iterations,
                    "columns": self.column_generation.columns,
                }
            ),
            **(
                {}
                if self.estimation is None
                else {
                    "lower_bound": self.estimation.lower_bound,
                    "upper_bound": self.estimation.upper_bound,
                    "gap": self.estimation.gap,
                    "optimality": self.estimation.status.value,
                    **({"iterations": self.estimation.rounds, "columns": self.n_vertices}
                       if self.method == "column_generation" else {}),
                }
            ),
            "seconds": {
                "enumeration": self.timings.enumeration,
                "linear_program": self.timings.linear_program,
                "total": self.timings.total,
            },
        }


@dataclass(frozen=True)
class ColumnGenerationReport:
    """Certificate of a column-generation design.

    Parameters
    ----------
    lower_bound : float
        The final restricted master's optimum, achieved by the returned mechanism.
    upper_bound : float
        The least ``1·λ + N max(0, r̄)`` over the exactly priced iterations, ``r̄`` the
        pricing's upper bound on the best reduced cost, and over the source's closed-form
        dual (:meth:`~mechdesign.optimal.patterns.PatternSource.certified_dual`: ``H(X)``,
        and the ε-LDP information bound); ``+inf`` if there was neither.
    exact_pricing : bool
        Whether the column source priced exactly (then the bracket is certified).
    status : Status
        ``Status.OPTIMAL`` when pricing is exact and the gap is within the tolerance,
        ``Status.INTERRUPTED`` after Ctrl-C, otherwise ``Status.FEASIBLE`` (the bracket's
        width is :attr:`gap`).
    columns : int
        Columns in the final master (column management deletes non-basic columns of
        low reduced cost while the master is large).
    iterations : int
        Master LPs solved.
    history : tuple of (float, float)
        ``(lower, upper)`` after every iteration (the best so far of each); the gap
        ``upper − lower`` is non-increasing.
    dual : ndarray, shape=(N,)
        The final master's dual ``λ``.
    seconds : float
        Wall-clock seconds of the whole column generation.
    exact_pricings : int, default 0
        Iterations priced by the exact MIPs (the others by the heuristic).
    mips : int, default 0
        Mixed-integer programs solved in total.
    master_seconds : float, default 0.0
        Time spent solving the restricted master LPs.
    columns_added : int, default 0
        Columns added to the master in all, the deleted ones included.
    """

    lower_bound: float
    upper_bound: float
    exact_pricing: bool
    status: Status
    columns: int
    iterations: int
    history: tuple[tuple[float, float], ...]
    dual: NDArray[np.float64]
    seconds: float
    exact_pricings: int = 0
    mips: int = 0
    master_seconds: float = 0.0
    columns_added: int = 0

    @property
    def gap(self) -> float:
        """``upper_bound − lower_bound`` (nats)."""
        return self.upper_bound - self.lower_bound
