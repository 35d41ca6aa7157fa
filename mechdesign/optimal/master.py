"""The master linear program of a design, over a given set of columns.

Over section points ``v`` with utilities ``μ(v)`` the master is

.. math::

    \\max_{\\theta \\ge 0} \\sum_v \\theta_v\\, \\mu(v)
    \\quad \\text{s.t.} \\quad \\sum_v \\theta_v\\, v = \\mathbf 1,

with dual ``min 1·λ s.t. λ·v ≥ μ(v)``. :func:`solve_vertex_lp` solves it once over every
column (the vertex LP of an enumeration, and the final, polished solve of column
generation); :class:`RestrictedMaster` keeps it in one HiGHS model that grows column by
column and is re-solved warm (column generation). :func:`certificate` checks the dual.
"""

from __future__ import annotations

import math
import time

import numpy as np
import scipy.sparse as sp
from numpy.typing import NDArray
from scipy.optimize import nnls

from mechdesign._solvers.highs import PRIMAL_SIMPLEX, Model, solve_linear_program
from mechdesign._tolerances import (
    CERTIFICATE_ATOL,
    LP_FEASIBILITY_TOL,
    STOCHASTIC_ATOL,
)
from mechdesign._validation import (
    check_positive_int,
    check_real,
)
from mechdesign.errors import InvalidInputError, SolverError, TooLargeError
from mechdesign.optimal.result import Certificate
from mechdesign.status import Status

__all__ = [
    "RestrictedMaster",
    "certificate",
    "check_finite_utilities",
    "column_key",
    "most_frequent_entries",
    "solve_vertex_lp",
]


def check_finite_utilities(values: NDArray[np.float64]) -> NDArray[np.float64]:
    """The utilities of a master's columns, refused when one is infinite: the optimum is
    then unbounded (for example KL between hypotheses with different supports under a
    notion that allows zeros)."""
    if not np.all(np.isfinite(values)):
        raise InvalidInputError(
            "the utility is infinite at a vertex of the notion's section; the optimum is "
            "unbounded (for example KL between hypotheses with different supports under a "
            "notion that allows zeros)."
        )
    return values


def solve_vertex_lp(
    points: NDArray[np.float64], values: NDArray[np.float64], time_limit: float | None
):
    """Solve the vertex LP; return polished weights, HiGHS's solution and the dual ``λ``.

    The LP is always feasible (``1/N`` lies in every section, so ``1 = N · (1/N)`` is a
    combination of vertices). For tiny ε every vertex is within ~ε of ``1/N``, the
    columns are nearly parallel, and HiGHS at its tight tolerance can report
    "Infeasible" or a solve error; the one retry policy of :mod:`mechdesign._solvers.highs`
    (``known_feasible=True``) then solves it again at HiGHS's default tolerance, and the
    certificate check decides whether the answer stands. The solver is HiGHS [1]_.

    Parameters
    ----------
    points : ndarray, shape (s, N)
        The columns ``v`` (one per row), each a point of the notion's section (sums to
        one); ``1`` must be a non-negative combination of them (true of a full vertex
        set and of a restricted master's columns).
    values : ndarray, shape (s,)
        Their utilities ``μ(v)``, finite.
    time_limit : float or None
        Seconds HiGHS may take; ``None`` for no limit.

    Returns
    -------
    weights : ndarray, shape (s,)
        The polished LP weights ``θ ≥ 0`` (:func:`polish`).
    solution
        HiGHS's solution (status, objective, seconds).
    dual : ndarray, shape (N,)
        The row dual ``λ``.

    References
    ----------
    .. [1] Q. Huangfu, J. A. J. Hall, "Parallelizing the dual revised simplex method",
       Mathematical Programming Computation 10(1):119-142, 2018,
       doi:10.1007/s12532-017-0130-5.
    """
    n = points.shape[1]
    matrix = sp.csc_array(points.T)
    solution = solve_linear_program(values, matrix, np.ones(n), np.ones(n), time_limit=time_limit,
                                    known_feasible=True)
    weights = polish(points, solution.x)
    return weights, solution, solution.row_dual



def polish(points: NDArray[np.float64], x: NDArray[np.float64]) -> NDArray[np.float64]:
    """Re-solve ``Σ θ_v v = 1, θ ≥ 0`` on the support of HiGHS's solution.

    HiGHS meets the equality only to its feasibility tolerance; a non-negative least
    squares solve (:func:`scipy.optimize.nnls`) of the at most N × N system on the
    positive support makes the mechanism's rows sum to one to rounding. The polished
    weights are used when their residual is smaller than HiGHS's; the row-sum check of
    :class:`~mechdesign.kernel.Mechanism` then has the last word.
    """
    support = np.flatnonzero(x > 0)
    if support.size == 0:
        raise SolverError("the vertex LP returned an all-zero solution",
                          status=Status.NUMERICAL_ERROR, solver_status="all-zero solution")
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



def certificate(
    points: NDArray[np.float64],
    values: NDArray[np.float64],
    weights: NDArray[np.float64],
    dual: NDArray[np.float64],
) -> Certificate:
    """The LP certificate of weights ``θ`` and dual ``λ`` over every column (see
    :class:`~mechdesign.optimal.result.Certificate`)."""
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


#: The most rows (inputs N) a restricted master accepts: its columns are dense N-vectors
#: and each pricing round is at least O(N²); far beyond any certified design.
MASTER_MAX_INPUTS = 2**16


class RestrictedMaster:
    """``max Σ θ_j μ_j s.t. Σ θ_j v_j = 1, θ ≥ 0`` over the columns added so far, kept
    in one HiGHS model.

    Added columns enter non-basic at zero, so the previous optimal basis stays primal
    feasible and the primal simplex continues from it (``warm=True``); ``warm=False``
    clears the solver before every solve (for measuring what the warm start buys). The
    solver is HiGHS's primal simplex [1]_.

    The columns are passed to HiGHS in offset form: a column ``v_j`` is its most frequent
    entry ``b_j`` times ``1`` plus a sparse rest ``r_j = v_j − b_j 1``, and one free
    variable ``s = Σ_j b_j θ_j`` carries the offsets,

    .. math::

        s\\,\\mathbf 1 + \\sum_j \\theta_j r_j = \\mathbf 1, \\qquad
        s - \\sum_j \\theta_j b_j = 0 .

    The program is the same (substitute ``s``), and so are the duals of the first ``N``
    rows: the free ``s`` forces the last row's dual to ``−Σλ``, so a column's reduced
    cost ``μ_j − λ·r_j − b_j Σλ`` is ``μ_j − λ·v_j``. A pattern column of ε-LDP or
    (ε, c)-PML takes two or three values, most inputs at one of them, so ``r_j`` holds
    a fraction of ``N`` entries: at N = 1,024 the first Zipf master has 0.55 million
    nonzeros instead of 3.1 million, and solves in a ninth of the time.

    Parameters
    ----------
    n : int
        Rows: the inputs ``N`` (``1 ≤ n ≤`` :data:`MASTER_MAX_INPUTS`); every column
        added has length ``n``.
    warm : bool, default True
        Re-solve from the previous basis; ``False`` clears the solver before each solve.

    References
    ----------
    .. [1] Q. Huangfu, J. A. J. Hall, "Parallelizing the dual revised simplex method",
       Mathematical Programming Computation 10(1):119-142, 2018,
       doi:10.1007/s12532-017-0130-5.
    """

    def __init__(self, n: int, *, warm: bool = True) -> None:
        n = check_positive_int(n, "n")
        if n > MASTER_MAX_INPUTS:
            raise TooLargeError(
                f"n = {n:,} inputs is above MASTER_MAX_INPUTS = {MASTER_MAX_INPUTS:,} rows of "
                "a restricted master (column generation is certified at N in the hundreds)."
            )
        self.n = n
        self.warm = warm
        self._columns: list[NDArray[np.float64]] = []
        self._values: list[NDArray[np.float64]] = []
        self.keys: set[bytes] = set()  # the columns rounded to 12 decimals
        self.seconds = 0.0  # spent in solve()
        self.added = 0  # columns added in all, pruned ones included
        self.size = 0  # columns now in the model
        #: The last solve's weights θ, over the first ``solved_columns`` columns (the
        #: columns the master had then; kept in step by :meth:`prune`).
        self.weights: NDArray[np.float64] | None = None
        self.solved_columns = 0
        model = Model(
            primal_feasibility_tolerance=LP_FEASIBILITY_TOL,
            dual_feasibility_tolerance=LP_FEASIBILITY_TOL,
            simplex_strategy=PRIMAL_SIMPLEX,
        )
        model.add_variables(-math.inf, math.inf)  # s, HiGHS's column 0 (offset form)
        for _ in range(n):
            model.add_row(1.0, 1.0, [0], [1.0])
        model.add_row(0.0, 0.0, [0], [1.0])
        self._model = model

    def add(self, columns: NDArray[np.float64], values: NDArray[np.float64]) -> None:
        """Append columns (rows of ``columns``) with utilities ``values``."""
        columns = np.asarray(columns, dtype=float)
        values = np.asarray(values, dtype=float)
        m = columns.shape[0] if columns.ndim == 2 else -1
        if columns.ndim != 2 or columns.shape[1] != self.n or values.shape != (m,):
            raise InvalidInputError(
                f"columns must have shape (m, {self.n}) and values shape (m,); got "
                f"{columns.shape} and {values.shape}."
            )
        if not (np.all(np.isfinite(columns)) and np.all(np.isfinite(values))):
            raise InvalidInputError("columns and values must be finite.")
        if m == 0:
            return
        offsets = most_frequent_entries(columns)
        rest = np.vstack([(columns - offsets[:, None]).T, -offsets[None, :]])
        self._model.add_sparse_columns(values, sp.csc_array(rest))
        self._columns.append(np.array(columns, dtype=float))
        self._values.append(np.array(values, dtype=float))
        self.keys.update(column_key(c) for c in columns)
        self.added += m
        self.size += m

    def prune(self, keep: int, dual: NDArray[np.float64], *,
              protect: float = 0.0) -> NDArray[np.bool_]:
        """Delete non-basic columns, least reduced cost ``μ_j − λ·v_j`` first, until
        ``keep`` remain (the basic columns always stay, and so does every column whose
        reduced cost is at least ``−protect``: column generation passes its open
        bracket, within which a column may still be needed to close it); returns which
        columns stayed, in their old order.

        The basis survives (only non-basic columns go), so the master's optimum, its
        dual and the warm start are unchanged; what changes is the cost of each simplex
        iteration, which grows with the number of columns. A pruned column that improves
        again later is priced again like any other (its key is forgotten)."""
        if self.weights is None or self.solved_columns != self.size:
            raise InvalidInputError("prune needs the master solved after its last add: "
                                    "only then are the basic columns known.")
        keep = check_positive_int(keep, "keep")
        dual = np.asarray(dual, dtype=float)
        if dual.shape != (self.n,) or not np.all(np.isfinite(dual)):
            raise InvalidInputError(f"dual must be a finite vector of length {self.n}.")
        columns, values = self.columns, self.values
        basic = self._model.basic_columns()[1:]  # HiGHS's column 0 is s
        reduced = values - columns @ dual
        protect = check_real(protect, "protect", low=0.0, high=math.inf)
        kept = basic | (reduced >= -protect)
        room = max(int(keep) - int(kept.sum()), 0)
        best_nonbasic = [j for j in np.argsort(-reduced, kind="stable") if not kept[j]]
        kept[best_nonbasic[:room]] = True
        self._model.delete_columns(np.flatnonzero(~kept) + 1)
        # One assignment (Ctrl-C cannot split it), so that the weights always match
        # the columns: an interrupted run answers with them.
        self._columns, self._values, self.weights, self.solved_columns, self.size = (
            [columns[kept]], [values[kept]], self.weights[kept], int(kept.sum()),
            int(kept.sum()))
        self.keys = {column_key(c) for c in self._columns[0]}
        return kept

    @property
    def columns(self) -> NDArray[np.float64]:
        """Every column added, in order (shape ``(m, N)``)."""
        return np.vstack(self._columns) if self._columns else np.zeros((0, self.n))

    @property
    def values(self) -> NDArray[np.float64]:
        """Their utilities ``μ``."""
        return np.concatenate(self._values) if self._values else np.zeros(0)

    def solve(self) -> tuple[NDArray, NDArray, float]:
        """``(θ, λ, objective)`` of the current master.

        No HiGHS time limit: the master takes milliseconds, and a time limit on a Highs
        object that is solved again and again stopped an NR master at a = 240 with
        "Time limit reached" after a fraction of the limit; column generation enforces
        its own limit between iterations."""
        started = time.perf_counter()
        # The master is feasible by construction (its first columns sum to 1): a failure
        # is a warm basis gone bad at the tight tolerance, which Model.solve retries.
        solution = self._model.solve("the restricted master LP", warm=self.warm)
        self.seconds += time.perf_counter() - started
        weights, dual = solution.x[1:], solution.row_dual[:self.n]
        self.weights, self.solved_columns = weights, int(weights.shape[0])
        return weights, dual, solution.objective


def most_frequent_entries(columns: NDArray[np.float64]) -> NDArray[np.float64]:
    """Each row's most frequent entry (exact equality; of several equally frequent
    values, the smallest): the offsets of :class:`RestrictedMaster`'s offset form."""
    ordered = np.sort(columns, axis=1)
    n = ordered.shape[1]
    position = np.broadcast_to(np.arange(n), ordered.shape)
    starts = np.ones(ordered.shape, dtype=bool)
    starts[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    # where the run holding each position starts, and so its length so far
    first = np.maximum.accumulate(np.where(starts, position, 0), axis=1)
    longest = np.argmax(position - first, axis=1)
    return ordered[np.arange(ordered.shape[0]), longest]


def column_key(column: NDArray[np.float64]) -> bytes:
    """A column rounded to 12 decimals, as bytes: how the master recognises a column it
    already has."""
    return np.round(column, 12).tobytes()
