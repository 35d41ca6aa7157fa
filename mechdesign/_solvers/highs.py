"""The one place mechdesign talks to HiGHS (through highspy).

A linear program is passed to HiGHS in column-wise (CSC) form, solved, and its solution
vectors are read once. HiGHS's model statuses (``highspy.HighsModelStatus``) are translated
here, and only here, into the package's :class:`~mechdesign.status.Status`
(:data:`STATUS_ACTION`); every one other than optimal becomes a
:class:`~mechdesign.errors.SolverError` carrying that status and HiGHS's own words.

Sign convention, checked in ``tests/_solvers/test_highs.py``: for ``max c·x s.t. l ≤ A x ≤ u``,
HiGHS's row duals ``y`` satisfy ``c − Aᵀy = reduced costs`` with ``reduced costs ≤ 0`` on
columns at their lower bound, so for ``A x = b, x ≥ 0`` the vector ``y`` is feasible for
the dual ``min b·y s.t. Aᵀy ≥ c``.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Literal

import highspy
import numpy as np
import scipy.sparse as sp
from numpy.typing import ArrayLike, NDArray

from mechdesign._tolerances import (
    LP_FALLBACK_FEASIBILITY_TOL,
    LP_FEASIBILITY_TOL,
)
from mechdesign._validation import (
    show,
)
from mechdesign.errors import SolverError
from mechdesign.status import Status

__all__ = ["STATUS_ACTION", "Model", "ModelSolution", "new_model", "solve_linear_program"]

#: HiGHS's code for the primal simplex method (option ``simplex_strategy``).
PRIMAL_SIMPLEX = 4

#: HiGHS 1.16's branch and bound can turn without end in its choice of a branching
#: variable, logging an error ("HighsSearch::selectBranchingCandidate Error fracval …")
#: at every turn and processing no node, so that no node limit stops it (a 24-binary
#: pricing MIP, stored in ``tests/_solvers/data``). This many error messages in one MIP
#: run stop it (:meth:`Model.solve`); a MIP that solves logs none.
HIGHS_ERROR_LOOP_MESSAGES = 1000

#: A MIP run stopped that way is run again with the next random seeds (HiGHS's option
#: ``random_seed``), up to this many times: the same model takes another path.
HIGHS_LOOP_RESEEDS = 3


class _QuietHighs(highspy.Highs):
    """A ``highspy.Highs`` whose log is off before its first call into HiGHS.

    HiGHS writes its banner ("Running HiGHS …") from C to file descriptor 1, so
    redirecting ``sys.stdout`` does not catch it, on the first call that logs while
    ``output_flag`` is on. From highspy 1.16 the Python constructor makes such a call
    itself (``enableCallbacks`` → ``setCallback``), before a caller can set any option,
    and the banner corrupted every ``--json`` output. ``enableCallbacks`` is where the
    constructor hands over, so the flag is cleared there first; on versions whose
    constructor does not call it, :func:`new_model` clears it right after construction.
    ``tests/_solvers/test_highs.py`` checks in a subprocess that file descriptor 1 stays empty.
    """

    def enableCallbacks(self) -> None:
        self.setOptionValue("output_flag", False)
        super().enableCallbacks()


def new_model(**options: bool | int | float | str) -> highspy.Highs:
    """A silent HiGHS model with the given options: the only place mechdesign creates one.

    Parameters
    ----------
    **options
        HiGHS options by name (``primal_feasibility_tolerance=1e-10``, …).

    Raises
    ------
    SolverError
        HiGHS refused an option (unknown name or bad value for the installed version).
    """
    model = _QuietHighs()
    for name, value in {"output_flag": False, **options}.items():
        if model.setOptionValue(name, value) != highspy.HighsStatus.kOk:
            raise SolverError(
                f"HiGHS {model.version()} refused the option {name} = {show(value)}",
                status=Status.MODEL_ERROR, solver_status="option refused",
            )
    return model


def solve_linear_program(
    cost: NDArray[np.float64],
    matrix: sp.csc_array,
    row_lower: NDArray[np.float64],
    row_upper: NDArray[np.float64],
    *,
    col_lower: NDArray[np.float64] | None = None,
    col_upper: NDArray[np.float64] | None = None,
    sense: Literal["maximize", "minimize"] = "maximize",
    time_limit: float | None = None,
    feasibility_tolerance: float = LP_FEASIBILITY_TOL,
    known_feasible: bool = False,
) -> ModelSolution:
    """Solve ``opt c·x s.t. row_lower ≤ A x ≤ row_upper, col_lower ≤ x ≤ col_upper``.

    Columns default to ``x ≥ 0``; ``±inf`` bounds are translated to HiGHS's infinity. The
    primal simplex is used: the vertex LPs have N rows and up to millions of columns
    (ε-LDP at N = 16, 65,534 columns: 0.5 s and 109 iterations, against 7.7 s and 6,961
    iterations for HiGHS's default dual simplex). ``known_feasible``: the caller knows
    the LP is feasible and bounded, so a status the table (:data:`STATUS_ACTION`) marks
    "retry" is numerical trouble and :meth:`Model.solve`'s retry policy applies (near-
    degenerate programs: nearly parallel columns at tiny ε, c ≈ 0 with a large ε).
    Raises :class:`SolverError` (with HiGHS's model status) unless the LP is solved.
    """
    model = Model.from_matrix(
        cost, matrix, row_lower, row_upper, col_lower=col_lower, col_upper=col_upper,
        sense=sense, primal_feasibility_tolerance=feasibility_tolerance,
        dual_feasibility_tolerance=feasibility_tolerance, simplex_strategy=PRIMAL_SIMPLEX,
    )
    return model.solve("the linear program", time_limit=time_limit, retry=known_feasible)


def _to_highs_bounds(values: NDArray[np.float64]) -> NDArray[np.float64]:
    out = np.array(values, dtype=float)
    out[np.isposinf(out)] = highspy.kHighsInf
    out[np.isneginf(out)] = -highspy.kHighsInf
    return out


# -- models built step by step (restricted masters, pricing LPs and MIPs) -------------------

#: Every HiGHS model status: the package's :class:`~mechdesign.status.Status` and what
#: :meth:`Model.solve` makes of it (cvxpy's ``highs_conif.py`` and scipy's
#: ``_linprog_highs.py`` sort them the same way):
#:
#: - ``"optimal"``: the answer;
#: - ``"retry"``: on a problem the caller knows to be feasible and bounded, numerical
#:   trouble rather than a property of the problem — retried (see :meth:`Model.solve`),
#:   and raised as :class:`SolverError` when the caller does not know it or it persists;
#: - ``"limit"``: a run stopped by a limit; a MIP may return its incumbent, whose dual
#:   bound is still a bound; an LP raises;
#: - ``"error"``: raised at once as :class:`SolverError` (a model HiGHS could not load, an
#:   unbounded or infeasible-or-unbounded problem, a memory limit, an interruption).
#:
#: Keyed on ``highspy.HighsModelStatus`` by member name, so that a member an older
#: highspy lacks (``kHighsInterrupt``, ``kMemoryLimit``) is simply absent.
_HIGHS_STATUSES: dict[str, tuple[Status, str]] = {
    "kOptimal": (Status.OPTIMAL, "optimal"),
    "kInfeasible": (Status.INFEASIBLE, "retry"),
    "kSolveError": (Status.NUMERICAL_ERROR, "retry"),
    "kPresolveError": (Status.NUMERICAL_ERROR, "retry"),
    "kPostsolveError": (Status.NUMERICAL_ERROR, "retry"),
    "kUnknown": (Status.NUMERICAL_ERROR, "retry"),
    "kNotset": (Status.NUMERICAL_ERROR, "retry"),
    "kTimeLimit": (Status.TIME_LIMIT, "limit"),
    "kIterationLimit": (Status.ITERATION_LIMIT, "limit"),
    "kSolutionLimit": (Status.LIMIT, "limit"),
    "kObjectiveBound": (Status.LIMIT, "limit"),
    "kObjectiveTarget": (Status.LIMIT, "limit"),
    "kLoadError": (Status.MODEL_ERROR, "error"),
    "kModelError": (Status.MODEL_ERROR, "error"),
    "kModelEmpty": (Status.MODEL_ERROR, "error"),
    "kUnboundedOrInfeasible": (Status.INFEASIBLE_OR_UNBOUNDED, "error"),
    "kUnbounded": (Status.UNBOUNDED, "error"),
    "kInterrupt": (Status.INTERRUPTED, "error"),
    "kHighsInterrupt": (Status.INTERRUPTED, "error"),
    "kMemoryLimit": (Status.MEMORY_LIMIT, "error"),
}
STATUS_ACTION: dict[highspy.HighsModelStatus, tuple[Status, str]] = {
    getattr(highspy.HighsModelStatus, name): value
    for name, value in _HIGHS_STATUSES.items()
    if hasattr(highspy.HighsModelStatus, name)
}


@dataclass(frozen=True)
class ModelSolution:
    """What one :meth:`Model.solve` returned.

    Attributes
    ----------
    status : Status
        ``Status.OPTIMAL``, or a limit (``Status.TIME_LIMIT``, ...) for a MIP stopped with
        a feasible point.
    x : ndarray, shape=(n_cols,)
        Primal values.
    row_dual : ndarray, shape=(n_rows,)
        Row duals (the sign convention of the module docstring); zeros for a MIP.
    objective : float
        Objective value of ``x``.
    dual_bound : float
        For a MIP, HiGHS's bound on the optimum (``≥`` it when maximising); for an LP,
        the objective.
    saved : tuple of ndarray
        For a MIP with ``mip_improving_solution_save``, every improving incumbent.
    seconds : float
        Wall-clock time of this call (retries included).
    iterations : int
        Simplex iterations of the last run.
    reseeds : int
        MIP runs stopped in HiGHS's branching loop and run again with another seed
        (:data:`HIGHS_ERROR_LOOP_MESSAGES`).
    """

    status: Status
    x: NDArray[np.float64]
    row_dual: NDArray[np.float64]
    objective: float
    dual_bound: float
    saved: tuple[NDArray[np.float64], ...] = ()
    seconds: float = 0.0
    iterations: int = 0
    reseeds: int = 0

    @property
    def timed_out(self) -> bool:
        return self.status is Status.TIME_LIMIT

    @property
    def limited(self) -> bool:
        """Whether a limit (time, nodes, iterations, …) stopped the run before optimality:
        a MIP's :attr:`dual_bound` is then still a bound, only looser."""
        return self.status in (Status.TIME_LIMIT, Status.ITERATION_LIMIT, Status.LIMIT)


class Model:
    """A HiGHS model built step by step, behind mechdesign's conventions.

    Bounds are floats with ``±inf`` for none; indices and values are numpy arrays. One
    retry policy (:meth:`solve`) and one status check serve the restricted master, the
    PolyOpt pricing LP and the pattern-pricing MIPs.

    Parameters
    ----------
    sense : {"maximize", "minimize"}
    **options
        HiGHS options (:func:`new_model`).
    """

    def __init__(self, *, sense: Literal["maximize", "minimize"] = "maximize",
                 **options: bool | int | float | str) -> None:
        self._highs = new_model(**options)
        self._highs.changeObjectiveSense(
            highspy.ObjSense.kMaximize if sense == "maximize" else highspy.ObjSense.kMinimize
        )
        self._tolerances = (
            options.get("primal_feasibility_tolerance", LP_FEASIBILITY_TOL),
            options.get("dual_feasibility_tolerance", LP_FEASIBILITY_TOL),
        )
        self.n_cols = 0
        self.n_rows = 0
        self._integer = False
        self._solved = False
        self._errors = 0  # HiGHS error messages in the current run (see _count_errors)
        self._reseeds = 0  # runs of the current solve stopped in that loop
        self._logging = False

    @classmethod
    def read(cls, path: str, **options: bool | int | float | str) -> Model:
        """A model read from a file HiGHS reads (MPS or CPLEX LP, as
        ``highspy.Highs.writeModel`` writes it): how a model that troubled HiGHS is kept,
        to be solved again.

        Raises
        ------
        SolverError
            HiGHS could not read ``path``.
        """
        model = cls(**options)
        if model._highs.readModel(str(path)) != highspy.HighsStatus.kOk:
            raise SolverError(f"HiGHS could not read a model from {show(str(path))}",
                              status=Status.MODEL_ERROR, solver_status="read error")
        lp = model._highs.getLp()
        model.n_rows, model.n_cols = int(lp.num_row_), int(lp.num_col_)
        model._integer = any(int(kind) != int(highspy.HighsVarType.kContinuous)
                             for kind in lp.integrality_)
        return model


    @classmethod
    def from_matrix(
        cls,
        cost: ArrayLike,
        matrix: sp.csc_array,
        row_lower: ArrayLike,
        row_upper: ArrayLike,
        *,
        col_lower: ArrayLike | None = None,
        col_upper: ArrayLike | None = None,
        sense: Literal["maximize", "minimize"] = "maximize",
        **options: bool | int | float | str,
    ) -> Model:
        """The LP ``opt c·x s.t. row_lower ≤ A x ≤ row_upper, col_lower ≤ x ≤ col_upper``
        passed to HiGHS in one piece, column-wise (columns default to ``x ≥ 0``)."""
        a = sp.csc_array(matrix)
        n_rows, n_cols = a.shape
        lower = np.zeros(n_cols) if col_lower is None else np.asarray(col_lower, float)
        upper = np.full(n_cols, np.inf) if col_upper is None else np.asarray(col_upper, float)
        lp = highspy.HighsLp()
        lp.num_col_ = n_cols
        lp.num_row_ = n_rows
        lp.col_cost_ = np.asarray(cost, float)
        lp.col_lower_ = _to_highs_bounds(lower)
        lp.col_upper_ = _to_highs_bounds(upper)
        lp.row_lower_ = _to_highs_bounds(np.asarray(row_lower, float))
        lp.row_upper_ = _to_highs_bounds(np.asarray(row_upper, float))
        lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
        lp.a_matrix_.start_ = a.indptr.astype(np.int32)
        lp.a_matrix_.index_ = a.indices.astype(np.int32)
        lp.a_matrix_.value_ = a.data.astype(float)
        lp.sense_ = (highspy.ObjSense.kMaximize if sense == "maximize"
                     else highspy.ObjSense.kMinimize)
        model = cls(sense=sense, **options)
        model._highs.passModel(lp)
        model.n_rows, model.n_cols = n_rows, n_cols
        return model

    # -- building ---------------------------------------------------------------------------

    def add_variables(self, lower: ArrayLike, upper: ArrayLike, *, integer: bool = False
                      ) -> NDArray[np.int32]:
        """Append columns with no coefficients and cost 0; returns their indices."""
        lower = np.atleast_1d(np.asarray(lower, float))
        upper = np.broadcast_to(np.asarray(upper, float), lower.shape)
        start = self.n_cols
        for lo, hi in zip(lower, upper, strict=True):
            self._highs.addVar(_bound(lo), _bound(hi))
        index = np.arange(start, start + lower.size, dtype=np.int32)
        self.n_cols += lower.size
        if integer:
            self._integer = True
            kinds = np.array([highspy.HighsVarType.kInteger] * lower.size)
            self._highs.changeColsIntegrality(lower.size, index, kinds)
        return index

    def add_row(self, lower: float, upper: float, index: ArrayLike, values: ArrayLike) -> None:
        """Append the row ``lower ≤ Σ_j values_j x_{index_j} ≤ upper``."""
        index = np.asarray(index, dtype=np.int32)
        self._highs.addRow(_bound(lower), _bound(upper), index.size, index,
                           np.asarray(values, dtype=float))
        self.n_rows += 1

    def add_columns(self, costs: ArrayLike, columns: ArrayLike) -> None:
        """Append columns ``x ≥ 0`` with dense coefficients ``columns`` (shape (m, n_rows))."""
        columns = np.asarray(columns, dtype=float)
        m = columns.shape[0]
        starts = (np.arange(m) * self.n_rows).astype(np.int32)
        index = np.tile(np.arange(self.n_rows, dtype=np.int32), m)
        self._highs.addCols(m, np.asarray(costs, dtype=float), np.zeros(m),
                            np.full(m, highspy.kHighsInf), m * self.n_rows, starts, index,
                            columns.ravel())
        self.n_cols += m

    def add_sparse_columns(self, costs: ArrayLike, matrix: sp.csc_array) -> None:
        """Append columns ``x ≥ 0``: column ``j`` of ``matrix`` (shape ``(n_rows, m)``,
        column-wise sparse) with cost ``costs[j]``."""
        a = sp.csc_array(matrix)
        m = a.shape[1]
        self._highs.addCols(m, np.asarray(costs, dtype=float), np.zeros(m),
                            np.full(m, highspy.kHighsInf), a.nnz, a.indptr[:-1].astype(np.int32),
                            a.indices.astype(np.int32), a.data.astype(float))
        self.n_cols += m

    def set_costs(self, costs: ArrayLike, index: ArrayLike | None = None) -> None:
        costs = np.asarray(costs, dtype=float)
        index = (np.arange(costs.size, dtype=np.int32) if index is None
                 else np.asarray(index, dtype=np.int32))
        self._highs.changeColsCost(index.size, index, costs)

    def set_option(self, name: str, value: bool | int | float | str) -> None:
        if self._highs.setOptionValue(name, value) != highspy.HighsStatus.kOk:
            raise SolverError(f"HiGHS refused the option {name} = {show(value)}",
                              status=Status.MODEL_ERROR, solver_status="option refused")

    def set_start(self, values: ArrayLike) -> None:
        """A MIP start: a value for every column."""
        values = np.asarray(values, dtype=float)
        self._highs.setSolution(values.size, np.arange(values.size, dtype=np.int32), values)

    # -- solving ----------------------------------------------------------------------------

    def solve(self, what: str, *, warm: bool = True, time_limit: float | None = None,
              accept_time_limit: bool = False, retry: bool = True) -> ModelSolution:
        """Run HiGHS and return the solution, or raise :class:`SolverError` naming
        ``what`` and carrying HiGHS's status.

        The one retry policy (for ``retry=True``: the caller knows the problem is
        feasible and bounded): a status :data:`STATUS_ACTION` marks ``"retry"`` is
        retried from scratch if the model had been solved before (a warm basis gone
        bad), then from scratch at :data:`LP_FALLBACK_FEASIBILITY_TOL`, after which the
        model's own tolerances are restored. ``time_limit`` applies to this call alone.
        HiGHS's option does not mean the same for both kinds of model (highspy 1.8 to
        1.16, measured): a linear program's limit counts the run time of every earlier
        call on the object (HiGHS issues 1331 and 1477), so it is set to that run time
        plus ``time_limit``; the MIP solver keeps its own clock from the start of each
        run, so a MIP's is ``time_limit`` itself (the run time added to it let a MIP
        asked to stop within 0.01 s run as long as every earlier call together). With
        ``accept_time_limit`` a run stopped by a limit
        with a feasible point is returned (its :attr:`ModelSolution.dual_bound` is still
        a bound); otherwise every status but optimal raises.
        """
        highs = self._highs
        started = time.perf_counter()
        self._reseeds = 0
        if time_limit is not None:
            self.set_option("time_limit", float(time_limit) if self._integer
                            else highs.getRunTime() + float(time_limit))
        if not warm:
            highs.clearSolver()
        status = self._run()
        if retry and self._solved and _action(status) == "retry":
            highs.clearSolver()
            status = self._run()
        if retry and _action(status) == "retry":
            self._set_tolerances(LP_FALLBACK_FEASIBILITY_TOL, LP_FALLBACK_FEASIBILITY_TOL)
            highs.clearSolver()
            status = self._run()
            self._set_tolerances(*self._tolerances)
        self._solved = True
        info = highs.getInfo()
        looped = self._errors >= HIGHS_ERROR_LOOP_MESSAGES
        stopped = ((looped or _action(status) == "limit") and accept_time_limit
                   and info.primal_solution_status == 2)
        if (looped or _action(status) != "optimal") and not stopped:
            said = (f"its branching looped with every seed tried, "
                    f"{HIGHS_ERROR_LOOP_MESSAGES} error messages a run" if looped
                    else self._highs.modelStatusToString(status))
            raise SolverError(f"HiGHS did not solve {what} to optimality ({said})",
                              status=Status.LIMIT if looped else _status(status),
                              solver_status=said)
        solution = highs.getSolution()
        objective = float(info.objective_function_value)
        mip = self._integer
        saved = tuple(np.array(s.col_value, dtype=float) for s in highs.getSavedMipSolutions()
                      ) if mip else ()
        return ModelSolution(
            status=Status.LIMIT if looped else _status(status),
            x=np.array(solution.col_value, dtype=float),
            row_dual=np.array(solution.row_dual, dtype=float),
            objective=objective,
            dual_bound=max(float(info.mip_dual_bound), objective) if mip else objective,
            saved=saved,
            seconds=time.perf_counter() - started,
            iterations=int(info.simplex_iteration_count),
            reseeds=self._reseeds,
        )

    def basic_columns(self) -> NDArray[np.bool_]:
        """Which columns are basic in HiGHS's current basis (all ``False`` without one)."""
        basis = self._highs.getBasis()
        if not basis.valid:
            return np.zeros(self.n_cols, dtype=bool)
        basic = int(highspy.HighsBasisStatus.kBasic)
        return np.fromiter((int(s) == basic for s in basis.col_status), dtype=bool,
                           count=self.n_cols)

    def delete_columns(self, index: ArrayLike) -> None:
        """Delete columns; a basis whose basic columns all stay is kept (a warm start).

        The kept basis is set again after the deletion: HiGHS does not always keep it
        through ``deleteCols`` (highspy 1.8, our minimum, drops it every time), and a
        re-solve from scratch may end at another optimal dual of a degenerate master, one
        that no longer prices the deleted columns out.
        """
        index = np.asarray(index, dtype=np.int32)
        if not index.size:
            return
        highs = self._highs
        basis = highs.getBasis()
        keep = None
        if basis.valid:
            status = list(basis.col_status)
            gone = set(index.tolist())
            basic = highspy.HighsBasisStatus.kBasic
            if not any(status[j] == basic for j in gone):
                keep = [s for j, s in enumerate(status) if j not in gone]
        highs.deleteCols(index.size, index)
        self.n_cols -= index.size
        if keep is not None and not highs.getBasis().valid:
            basis.col_status = keep
            highs.setBasis(basis)

    def run_time(self) -> float:
        """Seconds HiGHS has run on this model, over every call."""
        return float(self._highs.getRunTime())

    def _run(self) -> highspy.HighsModelStatus:
        if self._integer:
            return self._run_mip()
        self._highs.run()
        return self._highs.getModelStatus()

    def _run_mip(self) -> highspy.HighsModelStatus:
        """Run a MIP, stopping and reseeding a run that HiGHS's branching defect keeps
        turning (see :data:`HIGHS_ERROR_LOOP_MESSAGES`)."""
        highs = self._highs
        if not self._logging:
            # The log reaches the callback only with output_flag on; log_to_console off
            # keeps it from the terminal.
            self.set_option("log_to_console", False)
            self.set_option("output_flag", True)
            highs.cbLogging.subscribe(self._count_errors)
            self._logging = True
        limit = _option_value(highs, "time_limit")
        seed = _option_value(highs, "random_seed")
        try:
            for attempt in range(HIGHS_LOOP_RESEEDS + 1):
                self._errors = 0
                self.set_option("random_seed", seed + attempt)
                highs.run()
                if self._errors < HIGHS_ERROR_LOOP_MESSAGES:
                    break
                self._reseeds += 1
                self.set_option("time_limit", limit)  # set to 0 to stop the loop
        finally:
            self.set_option("random_seed", seed)
            self.set_option("time_limit", limit)
        return highs.getModelStatus()

    def _count_errors(self, event) -> None:
        """HiGHS's logging callback: count the run's error messages and stop the run
        (a time limit of 0, which HiGHS checks inside the loop) at
        :data:`HIGHS_ERROR_LOOP_MESSAGES`."""
        if int(event.data_out.log_type) == int(highspy.HighsLogType.kError):
            self._errors += 1
            if self._errors == HIGHS_ERROR_LOOP_MESSAGES:
                self._highs.setOptionValue("time_limit", 0.0)

    def _set_tolerances(self, primal: float, dual: float) -> None:
        self.set_option("primal_feasibility_tolerance", primal)
        self.set_option("dual_feasibility_tolerance", dual)


def _option_value(highs: highspy.Highs, name: str) -> bool | int | float | str:
    """An option's value (highspy returns ``(status, value)`` from 1.8 on)."""
    value = highs.getOptionValue(name)
    return value[1] if isinstance(value, tuple) else value


def _status(status: highspy.HighsModelStatus) -> Status:
    """The package's :class:`~mechdesign.status.Status` of a HiGHS model status (a status
    new to :data:`STATUS_ACTION` is a numerical error)."""
    return STATUS_ACTION.get(status, (Status.NUMERICAL_ERROR, "error"))[0]


def _action(status: highspy.HighsModelStatus) -> str:
    """What :data:`STATUS_ACTION` makes of a status (a status new to this table is an
    error)."""
    return STATUS_ACTION.get(status, (Status.NUMERICAL_ERROR, "error"))[1]


def _bound(value: float) -> float:
    return math.copysign(highspy.kHighsInf, value) if math.isinf(value) else float(value)
