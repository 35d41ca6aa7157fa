"""The HiGHS boundary (mechdesign._solvers.highs): every model mechdesign creates is
silent, at the C level; a solver's status reaches the caller; the dual sign convention.
"""

from __future__ import annotations

import itertools
import math
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from mechdesign._solvers.highs import (  # the one import of highspy
    Model,
    highspy,
    new_model,
    solve_linear_program,
)
from mechdesign.errors import SolverError
from mechdesign.status import Status

# Build an LP, a MIP and a warm-started master exactly as the package does, in a fresh
# interpreter (HiGHS writes its banner once per process, from C, to file descriptor 1).
_SCRIPT = textwrap.dedent(
    """
    import numpy as np
    import mechdesign as md
    from mechdesign._solvers.highs import Model, new_model

    model = new_model(mip_rel_gap=0.0)
    model.addVar(0.0, 1.0)
    integer = md._solvers.highs.highspy.HighsVarType.kInteger
    model.changeColsIntegrality(1, np.array([0], np.int32), np.array([integer]))
    model.changeColCost(0, -1.0)
    model.run()
    md.design(md.LDP(1.0), np.full(3, 1 / 3))
    mip = Model(mip_rel_gap=0.0)  # its log goes to the callback, not the terminal
    mip.add_variables(np.zeros(2), np.ones(2), integer=True)
    mip.add_row(-np.inf, 1.5, np.arange(2), np.ones(2))
    mip.set_costs([1.0, 2.0])
    mip.solve("a MIP")
    md.design(md.LDP(1.0), np.full(4, 1 / 4), method="column_generation")
    """
)


def test_no_solver_output_reaches_the_file_descriptors():
    result = subprocess.run(
        [sys.executable, "-c", _SCRIPT], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    assert result.stderr == ""


def _option(model, name):
    value = model.getOptionValue(name)  # (status, value) from highspy 1.8 on, value before
    return value[1] if isinstance(value, tuple) else value


def test_new_model_applies_options():
    model = new_model(primal_feasibility_tolerance=1e-9, simplex_strategy=4)
    assert _option(model, "output_flag") is False
    assert _option(model, "primal_feasibility_tolerance") == pytest.approx(1e-9, rel=1e-12)
    assert _option(model, "simplex_strategy") == 4


@pytest.mark.parametrize(
    ("name", "value"), [("no_such_option", 1), ("primal_feasibility_tolerance", -1.0)]
)
def test_new_model_refuses_an_option_by_name(name, value):
    with pytest.raises(SolverError, match=name) as info:
        new_model(**{name: value})
    assert info.value.status is Status.MODEL_ERROR
    assert info.value.solver_status == "option refused"


def test_new_model_is_a_highspy_model():
    # Callers use highspy's API on it; the subclass must not hide any of it.
    model = new_model()
    assert isinstance(model, highspy.Highs)
    model.addVar(0.0, 2.0)
    model.changeColCost(0, 1.0)
    model.changeObjectiveSense(highspy.ObjSense.kMaximize)
    model.run()
    assert model.getModelStatus() == highspy.HighsModelStatus.kOptimal
    assert np.array(model.getSolution().col_value) == pytest.approx([2.0], abs=1e-12)


# -- Model: LPs and MIPs with a known optimum by construction ------------------------------


def test_model_lp_meets_its_optimality_conditions():
    """max c·x s.t. A x = b, x ≥ 0 built from a primal x0 and a dual y0 (c = Aᵀy0 on the
    support of x0, below it elsewhere): x0 is optimal with value b·y0."""
    rng = np.random.default_rng(3)
    a = rng.random((3, 7))
    x0 = np.array([0.5, 0.0, 1.5, 0.0, 2.0, 0.0, 0.0])
    y0 = rng.normal(size=3)
    c = a.T @ y0 - np.where(x0 > 0, 0.0, rng.random(7) + 0.1)
    b = a @ x0
    model = Model(primal_feasibility_tolerance=1e-10, dual_feasibility_tolerance=1e-10)
    for value in b:
        model.add_row(value, value, [], [])
    model.add_columns(c, a.T)
    solution = model.solve("a test LP")
    assert solution.status is Status.OPTIMAL
    assert solution.objective == pytest.approx(b @ y0, abs=1e-9)
    np.testing.assert_allclose(a @ solution.x, b, rtol=0, atol=1e-9)  # primal feasible
    assert solution.x.min() >= -1e-12
    reduced = c - a.T @ solution.row_dual
    assert reduced.max() <= 1e-9  # dual feasible (maximisation)
    assert np.abs(reduced * solution.x).max() <= 1e-9  # complementary


@pytest.mark.parametrize("free", [False, True])
def test_deleting_non_basic_columns_keeps_the_basis(free):
    """Deleting non-basic columns keeps the optimal basis (highspy 1.8 itself drops it):
    the re-solve takes no simplex iteration and returns the same primal and the same
    dual, which still prices every column out, the deleted ones too."""
    rng = np.random.default_rng(5)
    a = rng.random((4, 30))
    c = rng.random(30)
    model = Model(primal_feasibility_tolerance=1e-10, dual_feasibility_tolerance=1e-10)
    if free:  # max c·x, A x = 1 in the master's offset form: s·1 + (A − 1 b) x = 1,
        # s − b·x = 0, with s free and b the first row of A
        model.add_variables([-np.inf], [np.inf])
        for _ in range(4):
            model.add_row(1.0, 1.0, [0], [1.0])
        model.add_row(0.0, 0.0, [0], [1.0])
        model.add_columns(c, np.vstack([a - a[0], -a[:1]]).T)
    else:
        for _ in range(4):
            model.add_row(1.0, 1.0, [], [])
        model.add_columns(c, a.T)
    first = model.solve("a test LP")
    basic = model.basic_columns()
    offset = int(free)
    gone = offset + np.flatnonzero(~basic[offset:])[::2]  # half the non-basic columns
    model.delete_columns(gone)
    again = model.solve("the LP without them")
    assert again.iterations == 0
    kept = np.setdiff1d(np.arange(first.x.size), gone)
    np.testing.assert_allclose(again.x, first.x[kept], rtol=0, atol=1e-12)
    np.testing.assert_allclose(again.row_dual, first.row_dual, rtol=0, atol=1e-12)
    reduced = c - a.T @ first.row_dual[:4]  # every column, the deleted ones too, priced out
    assert reduced.max() <= 1e-9


def test_model_raises_with_the_solver_status_after_its_retries():
    model = Model()
    model.add_variables(np.zeros(2), math.inf)
    model.add_row(1.0, 1.0, [0, 1], [1.0, 1.0])
    model.add_row(2.0, 2.0, [0, 1], [1.0, 1.0])
    with pytest.raises(SolverError, match="a test LP") as info:
        model.solve("a test LP")
    assert info.value.status is Status.INFEASIBLE
    assert info.value.solver_status == "Infeasible"


def test_model_mip_agrees_with_brute_force():
    """A knapsack: max v·z s.t. w·z ≤ 10, z binary, against every z."""
    values = np.array([6.0, 5.0, 8.0, 9.0, 6.0, 7.0, 3.0])
    weights = np.array([2.0, 3.0, 6.0, 7.0, 5.0, 9.0, 4.0])
    best = max(
        values @ np.array(z)
        for z in itertools.product((0, 1), repeat=7)
        if weights @ np.array(z) <= 10
    )
    model = Model(mip_rel_gap=0.0, mip_improving_solution_save=True)
    model.add_variables(np.zeros(7), np.ones(7), integer=True)
    model.add_row(-math.inf, 10.0, np.arange(7), weights)
    model.set_costs(values)
    model.set_start(np.zeros(7))
    solution = model.solve("a knapsack", time_limit=60)
    assert solution.objective == pytest.approx(best, abs=1e-9)
    assert solution.dual_bound >= solution.objective - 1e-9
    assert solution.dual_bound == pytest.approx(best, abs=1e-6)
    for saved in solution.saved:
        assert weights @ np.round(saved) <= 10 + 1e-9


def test_a_mip_time_limit_applies_to_its_own_run():
    """HiGHS's MIP solver clocks each run from its start, while its linear programs count
    every earlier run: a MIP asked to stop after a millisecond stops (with a valid dual
    bound) even when the model's earlier runs took longer than the whole solve. A
    multi-dimensional knapsack that takes about 0.2 s to solve to optimality."""
    n, m = 50, 25
    rng = np.random.default_rng(0)
    model = Model(mip_rel_gap=0.0)
    model.add_variables(np.zeros(n), np.ones(n), integer=True)
    weights = rng.random((m, n))
    for row in weights:
        model.add_row(-math.inf, n / 4, np.arange(n), row)
    model.set_costs(rng.random(n))
    for _ in range(2):  # earlier runs, together longer than one solve
        model.set_start(np.zeros(n))
        optimum = model.solve("a knapsack", warm=False)
    assert optimum.status is Status.OPTIMAL
    model.set_start(np.zeros(n))
    stopped = model.solve("a knapsack", warm=False, time_limit=0.01, accept_time_limit=True)
    assert stopped.status is Status.TIME_LIMIT
    assert stopped.dual_bound >= optimum.objective - 1e-9
    assert np.all(weights @ np.round(stopped.x) <= n / 4 + 1e-9)


def test_every_highs_model_status_has_an_action():
    from mechdesign._solvers import highs as _highs

    members = set(_highs.highspy.HighsModelStatus.__members__.values())
    assert members <= set(_highs.STATUS_ACTION), members - set(_highs.STATUS_ACTION)
    actions = {action for _, action in _highs.STATUS_ACTION.values()}
    assert actions == {"optimal", "retry", "limit", "error"}
    assert all(isinstance(status, Status) for status, _ in _highs.STATUS_ACTION.values())
    # Only HiGHS's optimal is the package's optimal; its limits are the package's limits.
    optimal = _highs.highspy.HighsModelStatus.kOptimal
    assert {s for s, (status, _) in _highs.STATUS_ACTION.items()
            if status is Status.OPTIMAL} == {optimal}
    assert _highs.STATUS_ACTION[_highs.highspy.HighsModelStatus.kTimeLimit] == (
        Status.TIME_LIMIT, "limit")


def _flaky_model(first_status):
    """max x0 + 2 x1 s.t. x0 + x1 = 1, whose first run reports ``first_status`` (the name
    of a ``highspy.HighsModelStatus`` member)."""
    import scipy.sparse as sp

    from mechdesign._solvers.highs import Model

    model = Model.from_matrix(np.array([1.0, 2.0]), sp.csc_array(np.ones((1, 2))),
                              np.ones(1), np.ones(1))
    real_run, calls = model._run, []

    def run():
        calls.append(1)
        status = real_run()
        return (getattr(highspy.HighsModelStatus, first_status) if len(calls) == 1
                else status)

    model._run = run
    return model, calls


def test_retry_policy_recovers_a_known_feasible_lp():
    model, calls = _flaky_model("kSolveError")
    solution = model.solve("a test LP")  # retry=True: known feasible and bounded
    assert solution.status is Status.OPTIMAL
    assert solution.objective == pytest.approx(2.0, abs=1e-12)
    assert len(calls) == 2  # never solved before: straight to the fallback tolerance


def test_no_retry_when_the_caller_does_not_know_feasibility():
    from mechdesign.errors import SolverError

    model, calls = _flaky_model("kInfeasible")
    with pytest.raises(SolverError, match=r"a test LP .*\(Infeasible\)") as info:
        model.solve("a test LP", retry=False)
    assert info.value.status is Status.INFEASIBLE
    assert info.value.solver_status == "Infeasible"
    assert len(calls) == 1


def test_error_statuses_are_not_retried():
    from mechdesign.errors import SolverError

    model, calls = _flaky_model("kUnbounded")
    with pytest.raises(SolverError) as info:
        model.solve("a test LP")
    assert info.value.status is Status.UNBOUNDED
    assert info.value.solver_status == "Unbounded"
    assert len(calls) == 1


# -- solver failures and bad input ------------------------------------------------------------


def test_highs_status_reaches_the_caller():
    import scipy.sparse as sp

    # x0 + x1 = 1 and x0 + x1 = 2 with x >= 0: infeasible.
    a = sp.csc_array(np.array([[1.0, 1.0], [1.0, 1.0]]))
    with pytest.raises(SolverError) as info:
        solve_linear_program(np.ones(2), a, np.array([1.0, 2.0]), np.array([1.0, 2.0]))
    assert info.value.status is Status.INFEASIBLE
    assert info.value.solver_status == "Infeasible"


def test_highs_dual_sign_convention():
    import scipy.sparse as sp

    # max x0 + 2 x1 s.t. x0 + x1 = 1: optimum 2, dual λ = 2 with λ ≥ costs.
    a = sp.csc_array(np.array([[1.0, 1.0]]))
    solution = solve_linear_program(np.array([1.0, 2.0]), a, np.ones(1), np.ones(1))
    assert solution.objective == pytest.approx(2.0, abs=1e-12)
    assert solution.row_dual == pytest.approx([2.0], abs=1e-12)


# A pricing MIP (24 binaries and an epigraph variable, written by Model.write) on which
# HiGHS 1.16.0 turns without end in HighsSearch::selectBranchingCandidate, logging an
# error at every turn and processing no node, with these options (random seed 0).
_LOOPING_MIP = Path(__file__).parent / "data" / "highs_branching_loop.mps.gz"
_LOOPING_OPTIONS = {"mip_abs_gap": 7.279755016390924e-10, "mip_rel_gap": 0.0,
                    "mip_max_nodes": 20_000, "mip_feasibility_tolerance": 1e-10,
                    "primal_feasibility_tolerance": 1e-10}
_LOOP_SCRIPT = textwrap.dedent(
    """
    import json, sys
    from mechdesign._solvers.highs import Model
    model = Model.read(sys.argv[1], **json.loads(sys.argv[2]))
    solution = model.solve("the stored MIP", accept_time_limit=True)
    print(json.dumps({"x": solution.x.tolist(), "objective": solution.objective,
                      "bound": solution.dual_bound, "status": solution.status.value,
                      "reseeds": solution.reseeds}))
    """
)


def _brute_force_epigraph_mip(path: Path) -> float:
    """``max c·z − t`` over every binary ``z`` for the stored MIP's shape: rows on ``z``
    alone, and rows ``A z + t ≥ l`` (so ``t = max(l − A z)``)."""
    reader = highspy.Highs()
    reader.setOptionValue("output_flag", False)
    reader.readModel(str(path))
    lp = reader.getLp()
    n = lp.num_col_ - 1
    a = np.zeros((lp.num_row_, n + 1))
    start, index, value = (np.asarray(v) for v in (lp.a_matrix_.start_, lp.a_matrix_.index_,
                                                   lp.a_matrix_.value_))
    for j in range(n + 1):
        a[index[start[j]:start[j + 1]], j] = value[start[j]:start[j + 1]]
    lower, upper = np.asarray(lp.row_lower_), np.asarray(lp.row_upper_)
    cost = np.asarray(lp.col_cost_)
    epigraph = a[:, n] != 0
    # the shape assumed (coefficients read from the file, not computed)
    assert cost[n] == -1.0  # exact: a coefficient read from the file
    assert np.all(a[epigraph, n] == 1.0)  # exact: coefficients read from the file
    assert np.all(np.isinf(upper[epigraph]))
    # z = (low half, high half): each half's row sums once, then every pair.
    half = n // 2
    low = ((np.arange(1 << half)[:, None] >> np.arange(half)) & 1).astype(float)
    high = ((np.arange(1 << (n - half))[:, None] >> np.arange(n - half)) & 1).astype(float)
    sums = [(z @ a[~epigraph, cols].T, z @ a[epigraph, cols].T, z @ cost[cols])
            for z, cols in ((low, slice(0, half)), (high, slice(half, n)))]
    (low_rows, low_cuts, low_cost), (high_rows, high_cuts, high_cost) = sums
    best = -math.inf
    for h in range(0, high.shape[0], 64):
        rows = high_rows[h:h + 64, None, :] + low_rows[None]
        ok = np.all((rows >= lower[~epigraph] - 1e-9) & (rows <= upper[~epigraph] + 1e-9),
                    axis=2)
        t = np.max(lower[epigraph] - high_cuts[h:h + 64, None, :] - low_cuts[None], axis=2)
        values = high_cost[h:h + 64, None] + low_cost[None] - t
        best = max(best, float(values[ok].max(initial=-math.inf)))
    return best


def test_a_mip_that_loops_in_highs_branching_is_stopped_and_solved(tmp_path):
    # In a subprocess with a timeout, so that a guard that stopped working fails the test
    # instead of hanging the suite. The optimum is checked against every binary point.
    import gzip
    import json

    path = tmp_path / "loop.mps"
    path.write_bytes(gzip.decompress(_LOOPING_MIP.read_bytes()))
    result = subprocess.run(
        [sys.executable, "-c", _LOOP_SCRIPT, str(path), json.dumps(_LOOPING_OPTIONS)],
        capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    got = json.loads(result.stdout.strip().splitlines()[-1])
    optimum = _brute_force_epigraph_mip(path)
    assert got["status"] == "optimal"
    # within the MIP's absolute gap (its epigraph variable is feasible to 1e-10)
    assert got["objective"] == pytest.approx(optimum, abs=_LOOPING_OPTIONS["mip_abs_gap"] + 1e-9)
    assert got["bound"] >= optimum - 1e-9
    if highspy.Highs().version() == "1.16.0":
        assert got["reseeds"] >= 1  # the loop this file was stored for: the guard acted
