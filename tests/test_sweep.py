"""md.sweep (issue 24): the same table serially, on local processes and on a Dask
cluster; resumable after SIGINT and SIGKILL; failed points are rows; the store is keyed
and shared safely; the built-in tasks equal the direct calls."""

from __future__ import annotations

import json
import math
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
import types
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import mechdesign as md
from mechdesign.errors import ExecutorError, InvalidInputError
from mechdesign.sweeps import WORKER_DIED, SerialFallbackWarning, make_prior

ROOT = Path(__file__).resolve().parent.parent


# -- tasks (module level: worker processes import them) ----------------------------------


def square_or_fail(x: int, y: str = "a") -> dict:
    """A record per point; raises on x = 3 (a failed point is a row)."""
    if x == 3:
        raise ValueError(f"no square for {x}")
    return {"square": x * x, "label": f"{y}{x}", "root": math.sqrt(x)}


#: When set (a file path) in a worker's environment, :func:`logged_slow` holds every
#: point x >= 3 until that file exists: a sweep then stores exactly points 0, 1 and 2 and
#: waits, an event a test can act on without guessing how long a point takes.
GATE = "MECHDESIGN_TEST_SWEEP_GATE"


def logged_slow(x: int, log: str, pause: float = 0.2) -> float:
    """Appends x to ``log`` (one line per computation), sleeps, returns x / 2 (first
    waiting at the :data:`GATE`, when one is set, for x >= 3)."""
    with open(log, "a") as handle:
        handle.write(f"{x}\n")
    gate = os.environ.get(GATE)
    if gate and x >= 3:
        # Bounded, so that a worker left behind by a failed test ends on its own.
        for _ in range(30_000):
            if os.path.exists(gate):
                break
            time.sleep(0.01)
    time.sleep(pause)
    return x / 2


def die_once(x: int, marker_dir: str) -> float:
    """Kills its worker process on x = 1 the first time (a marker file remembers), and
    on x = 2 every time."""
    marker = Path(marker_dir) / f"died-{x}"
    if x == 2 or (x == 1 and not marker.exists()):
        marker.touch()
        os._exit(1)
    return float(x)


def two_records(x: int) -> list[dict]:
    return [{"kind": "low", "v": np.float64(x - 0.5)}, {"kind": "high", "v": np.int64(x + 1)}]


def bad_return(x: int) -> object:
    return [1, 2] if x else {"nested": [1, 2]}


def _frame(table: pd.DataFrame) -> pd.DataFrame:
    return table.drop(columns=["seconds"]).reset_index(drop=True)


# -- the smallest example ------------------------------------------------------------------


def test_the_smallest_example_equals_the_direct_calls():
    grid = {"epsilon": [0.5, 1], "c": [0.01, 0.05], "n": [4, 8]}
    table = md.sweep(md.dobrushin_bound, grid, executor="serial", progress=False)
    assert list(table.columns) == ["epsilon", "c", "n", "value", "seconds", "error"]
    assert len(table) == 8
    for row in table.itertuples():
        assert row.value == pytest.approx(md.dobrushin_bound(row.epsilon, row.c, row.n),
                                          rel=1e-15)
        assert row.error == ""  # exact: the empty string
    # The first axis is the slowest.
    assert table["epsilon"].tolist() == [0.5] * 4 + [1.0] * 4  # exact: grid values


def test_failed_points_are_rows_and_the_rest_are_computed():
    table = md.sweep(square_or_fail, {"x": [1, 2, 3, 4], "y": ["p"]}, executor="serial",
                     progress=False)
    assert len(table) == 4
    failed = table[table["error"] != ""]
    assert failed["x"].tolist() == [3]  # exact: integers
    assert failed["error"].iloc[0] == "ValueError: no square for 3"  # exact: text
    assert math.isnan(failed["square"].iloc[0])
    ok = table[table["error"] == ""]
    assert ok["square"].tolist() == [1, 4, 16]  # exact: integers
    assert ok["label"].tolist() == ["p1", "p2", "p4"]  # exact: text
    np.testing.assert_allclose(ok["root"], np.sqrt([1, 2, 4]), rtol=1e-15)


def test_a_task_may_return_several_records_and_numpy_scalars():
    table = md.sweep(two_records, {"x": [1, 2]}, executor="serial", progress=False)
    assert table["kind"].tolist() == ["low", "high", "low", "high"]  # exact: text
    np.testing.assert_allclose(table["v"], [0.5, 2, 1.5, 3])
    assert isinstance(table.attrs["axes"], list)
    assert table.attrs["axes"] == ["x"]  # exact: names


def test_a_task_returning_something_else_fails_its_point_with_the_reason():
    table = md.sweep(bad_return, {"x": [0, 1]}, executor="serial", progress=False)
    assert table["error"].str.startswith("TypeError").all()
    assert "must hold a number" in table["error"].iloc[0]
    assert "must return a number" in table["error"].iloc[1]


# -- executors -----------------------------------------------------------------------------


@pytest.mark.slow
def test_serial_processes_threads_and_a_dask_cluster_give_identical_tables():
    distributed = pytest.importorskip("distributed")
    grid = {"notion": ["ldp", "pml"], "epsilon": [0.5, 2.0], "n": [3, 4],
            "prior": ["dirichlet"], "rep": [0, 1]}
    serial = _frame(md.sweep(md.sweeps.design_task, grid, executor="serial", progress=False))
    processes = _frame(md.sweep(md.sweeps.design_task, grid, progress=False))
    with ThreadPoolExecutor(2) as pool:
        threads = _frame(md.sweep(md.sweeps.design_task, grid, executor=pool, progress=False))
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        dask = _frame(md.sweep(md.sweeps.design_task, grid, executor=client.get_executor(),
                               progress=False))
    volatile = ["design_seconds"]
    for other in (processes, threads, dask):
        pd.testing.assert_frame_equal(serial.drop(columns=volatile),
                                      other.drop(columns=volatile), check_exact=True)
    assert (serial["error"] == "").all()
    assert serial["audit_passed"].all()


def test_a_worker_that_dies_loses_only_its_point_and_is_retried_once(tmp_path):
    table = md.sweep(die_once, {"x": [0, 1, 2, 3, 4, 5], "marker_dir": [str(tmp_path)]},
                     progress=False)
    errors = dict(zip(table["x"], table["error"], strict=True))
    assert errors[2].startswith("worker died twice")  # dies every time
    assert errors[1] == ""  # exact: died once, then succeeded on its retry
    assert all(errors[x] == "" for x in (0, 3, 4, 5))  # exact: neighbours unharmed
    np.testing.assert_allclose(table.loc[table["x"] != 2, "value"], [0, 1, 3, 4, 5])


# -- the store -----------------------------------------------------------------------------


def test_a_rerun_computes_only_the_missing_points(tmp_path):
    log = tmp_path / "log.txt"
    store = tmp_path / "store.sqlite"
    first = md.sweep(logged_slow, {"x": [1, 2, 3], "log": [str(log)], "pause": [0.0]},
                     store=store, executor="serial", progress=False)
    again = md.sweep(logged_slow, {"x": [1, 2, 3, 4, 5], "log": [str(log)], "pause": [0.0]},
                     store=store, executor="serial", progress=False)
    assert log.read_text().split() == ["1", "2", "3", "4", "5"]  # exact: each once
    pd.testing.assert_frame_equal(first, again.iloc[:3])  # stored rows, seconds included
    np.testing.assert_allclose(again["value"], [0.5, 1, 1.5, 2, 2.5])


def test_stored_failures_are_kept_unless_retried(tmp_path):
    store = tmp_path / "s.sqlite"
    md.sweep(square_or_fail, {"x": [3, 4]}, store=store, executor="serial", progress=False)
    with sqlite3.connect(store) as db:
        db.execute("UPDATE points SET error = 'Boom: transient' WHERE error = ''")
    kept = md.sweep(square_or_fail, {"x": [3, 4]}, store=store, executor="serial",
                    progress=False)
    assert kept["error"].tolist() == ["ValueError: no square for 3", "Boom: transient"]
    retried = md.sweep(square_or_fail, {"x": [3, 4]}, store=store, executor="serial",
                       progress=False, retry_failed=True)
    assert retried["error"].tolist() == ["ValueError: no square for 3", ""]


def test_the_key_separates_tasks_and_points(tmp_path):
    store = tmp_path / "s.sqlite"
    a = md.sweep(md.dobrushin_bound, {"epsilon": [1.0], "c": [0.1], "n": [4]}, store=store,
                 executor="serial", progress=False)
    b = md.sweep(md.bounds.kairouz_dobrushin_bound, {"epsilon": [1.0]}, store=store,
                 executor="serial", progress=False)
    c = md.sweep(md.dobrushin_bound, {"epsilon": [1], "c": [0.1], "n": [4]}, store=store,
                 executor="serial", progress=False)
    assert b["value"].iloc[0] == pytest.approx(md.bounds.kairouz_dobrushin_bound(1.0), rel=1e-15)
    assert a["value"].iloc[0] == pytest.approx(md.dobrushin_bound(1.0, 0.1, 4), rel=1e-15)
    # 1 and 1.0 are different points (an int axis stays an int), computed separately.
    assert c["value"].iloc[0] == pytest.approx(a["value"].iloc[0], rel=1e-15)
    with sqlite3.connect(store) as db:
        assert db.execute("SELECT COUNT(*) FROM points").fetchone()[0] == 3


def _sweep_script(store: Path, log: Path, executor: str, n: int) -> str:
    return textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(ROOT)!r})
        import mechdesign as md
        from tests.test_sweep import logged_slow
        if __name__ == "__main__":
            md.sweep(logged_slow, {{"x": list(range({n})), "log": [{str(log)!r}]}},
                     store={str(store)!r}, executor={executor!r}, progress=False)
    """)


def _stored(store: Path) -> int:
    if not store.exists():
        return 0
    try:
        with sqlite3.connect(store, timeout=5) as db:
            return db.execute("SELECT COUNT(*) FROM points").fetchone()[0]
    except sqlite3.OperationalError:  # the table does not exist yet
        return 0


@pytest.mark.parametrize(("sig", "executor"), [(signal.SIGINT, "processes"),
                                               (signal.SIGKILL, "serial")])
def test_an_interrupted_sweep_resumes_with_only_the_missing_points(tmp_path, sig, executor):
    store, log, n = tmp_path / "s.sqlite", tmp_path / "log.txt", 16
    script = tmp_path / "run.py"
    script.write_text(_sweep_script(store, log, executor, n))
    gate = tmp_path / "gate"  # never opened while the run lives: points >= 3 wait at it
    proc = subprocess.Popen([sys.executable, str(script)], stderr=subprocess.PIPE, text=True,
                            env={**os.environ, GATE: str(gate)})
    deadline = time.monotonic() + 300  # a watchdog only: the event is the third point
    while _stored(store) < 3:
        assert proc.poll() is None, proc.stderr.read()
        assert time.monotonic() < deadline
        time.sleep(0.05)
    proc.send_signal(sig)  # points 0-2 are stored, every other one is held at the gate
    proc.wait(timeout=60)
    gate.touch()  # lets any worker the interrupt left behind finish
    assert proc.returncode != 0
    if sig == signal.SIGINT:
        assert proc.stderr.read().count("Traceback") <= 1  # the parent's only
    done = _stored(store)
    assert done == 3
    log.write_text("")
    table = md.sweep(logged_slow, {"x": list(range(n)), "log": [str(log)]}, store=store,
                     executor="serial", progress=False)
    recomputed = sorted(int(x) for x in log.read_text().split())
    assert len(recomputed) == n - done
    assert (table["error"] == "").all()
    np.testing.assert_allclose(table["value"], np.arange(n) / 2)
    uninterrupted = md.sweep(logged_slow, {"x": list(range(n)), "log": [str(log)],
                                           "pause": [0.0]}, executor="serial", progress=False)
    pd.testing.assert_frame_equal(_frame(table), _frame(uninterrupted).drop(columns="pause"))


def test_two_sweeps_writing_one_store_do_not_corrupt_it(tmp_path):
    store, log = tmp_path / "s.sqlite", tmp_path / "log.txt"
    script = tmp_path / "run.py"
    script.write_text(_sweep_script(store, log, "serial", 12).replace(
        "progress=False)", "progress=False)\n    print('done')"))
    procs = [subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE,
                              text=True) for _ in range(2)]
    for proc in procs:
        out, _ = proc.communicate(timeout=120)
        assert proc.returncode == 0
        assert "done" in out
    with sqlite3.connect(store) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert db.execute("SELECT COUNT(*) FROM points").fetchone()[0] == 12
    table = md.sweep(logged_slow, {"x": list(range(12)), "log": [str(log)]}, store=store,
                     executor="serial", progress=False)
    np.testing.assert_allclose(table["value"], np.arange(12) / 2)


def test_sweeps_opening_one_new_store_at_once_all_succeed(tmp_path):
    # SQLite answers "database is locked" at once (no busy wait) to a second connection
    # switching a new file to WAL; the store retries. Six processes open one new store
    # at the same instant. (The race is rare: seen once in a CI run, in
    # test_two_sweeps_writing_one_store_do_not_corrupt_it; this does not reproduce it
    # on demand.)
    store, go = tmp_path / "s.sqlite", tmp_path / "go"
    # A barrier, not a start time: each process says it is ready (imports done), then
    # polls every millisecond until the parent, having heard all six, creates ``go``.
    code = (f"import os, time; from mechdesign.sweeps import _Store\n"
            f"print('ready', flush=True)\n"
            f"end = time.monotonic() + 300  # a watchdog only\n"
            f"while not os.path.exists({str(go)!r}) and time.monotonic() < end:\n"
            f"    time.sleep(0.001)\n"
            f"_Store({str(store)!r}).close(); print('open')")
    procs = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(6)]
    for proc in procs:
        assert proc.stdout.readline().strip() == "ready", proc.stderr.read()
    go.touch()
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        assert "open" in out
    with sqlite3.connect(store) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


# -- the built-in tasks --------------------------------------------------------------------


def test_design_task_equals_design():
    record = md.sweeps.design_task("pml", 1.0, 4, prior="dirichlet", rep=3)
    prior = np.random.default_rng((4, 3)).dirichlet(np.ones(4))
    direct = md.design(md.PML(1.0, 1 / 8), prior)
    assert record["utility"] == pytest.approx(direct.utility, rel=1e-12)
    assert record["privacy_level"] == pytest.approx(1.0, abs=1e-9)
    assert record["audit_passed"] is True
    bayes = md.sweeps.design_task("ldp", 2.0, 3, objective="bayes")
    # k-RR is Bayes-optimal under the uniform prior: V = e^ε / (e^ε + k − 1).
    assert bayes["utility"] == pytest.approx(math.exp(2) / (math.exp(2) + 2), rel=1e-9)


def test_measure_and_envelope_tasks_equal_the_direct_calls():
    prior = make_prior("zipf", 5)
    record = md.sweeps.measure_task("grr", 1.0, 5, prior="zipf")
    k = md.mechanisms.generalized_randomized_response(5, 1.0)
    assert record["mutual_information"] == pytest.approx(md.mutual_information(k, prior),
                                                         rel=1e-12)
    assert record["ldp_level"] == pytest.approx(1.0, rel=1e-12)
    assert record["outputs"] == 5  # exact: an integer
    envelope = md.sweeps.envelope_task("oue", 1.0, 3, 0.1)
    direct = md.pml_envelope(md.unary_encoding(3, 1.0), np.full(3, 1 / 3), 0.1)
    assert envelope["envelope"] == pytest.approx(float(direct), rel=1e-12)


def test_make_prior_draws_one_prior_per_repetition():
    a, b = make_prior("dirichlet", 6, 0), make_prior("dirichlet", 6, 1)
    assert not np.allclose(a, b)
    np.testing.assert_allclose(make_prior("dirichlet", 6, 0), a, rtol=0)
    np.testing.assert_allclose(make_prior("uniform", 4), np.full(4, 0.25))
    with pytest.raises(InvalidInputError, match="prior must be one of"):
        make_prior("beta", 4)


# -- bad input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("grid", "match"),
    [
        ({"x": []}, "axis 'x' must not be empty"),
        ({"x": "abc"}, "axis 'x' must be a list"),
        ({"x": 3}, "axis 'x' must be a list"),
        ({}, "at least one axis"),
        ([], "at least one point"),
        ({"seconds": [1]}, "reserved"),
        ({"not a name": [1]}, "identifiers"),
        ({"x": [object()]}, "grid values must be numbers"),
        ([{"x": 1}, 3], "point 1"),
        ("x", "dict of axes"),
    ],
)
def test_bad_grids_are_refused_by_name(grid, match):
    with pytest.raises(InvalidInputError, match=match):
        md.sweep(square_or_fail, grid, executor="serial", progress=False)


def test_bad_task_executor_and_store_are_refused(tmp_path):
    with pytest.raises(InvalidInputError, match="task must be callable"):
        md.sweep(3, {"x": [1]}, progress=False)
    with pytest.raises(InvalidInputError, match="executor must be"):
        md.sweep(square_or_fail, {"x": [1]}, executor="threads", progress=False)
    with pytest.raises(InvalidInputError, match="not a folder"):
        md.sweep(square_or_fail, {"x": [1]}, store=tmp_path, progress=False)
    junk = tmp_path / "junk.sqlite"
    junk.write_text("this is not a database" * 100)
    with pytest.raises(InvalidInputError, match="not a mechdesign sweep store"):
        md.sweep(square_or_fail, {"x": [1]}, store=junk, executor="serial", progress=False)


# -- the command line ----------------------------------------------------------------------


def test_the_command_line_sweep_writes_table_figure_and_resumes(tmp_path, capsys):
    from mechdesign.cli import main

    argv = ["sweep", "--epsilon", "0.5:2:3", "--n", "3,4", "--prior", "dirichlet:2",
            "--out", str(tmp_path), "--workers", "1", "--quiet"]
    assert main(argv) == 0
    table = pd.read_csv(tmp_path / "sweep.csv", keep_default_na=False)
    assert len(table) == 12
    assert (tmp_path / "sweep.png").stat().st_size > 10_000
    for row in table.itertuples():
        prior = make_prior("dirichlet", int(row.n), int(row.rep))
        direct = md.design(md.LDP(row.epsilon), prior).utility
        assert row.utility == pytest.approx(direct, rel=1e-9)
    capsys.readouterr()
    assert main(argv) == 0  # everything from the store
    assert "12 rows (0 failed)" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--epsilon", "a:b", "--n", "3"], "--epsilon must be"),
        (["--epsilon", "1", "--n", "1"], "--n values must be between"),
        (["--epsilon", "1", "--n", "3", "--prior", "dirichlet:0"], "positive integer R"),
        (["--epsilon", "1", "--n", "3", "--prior", "beta"], "--prior must be"),
        (["--epsilon", "1", "--n", "3", "--task", "envelope"], "--delta is required"),
        (["--epsilon", "nan", "--n", "3"], "finite"),
        (["--epsilon", "1", "--n", "3", "--workers", "0"], "--workers must be"),
    ],
)
def test_command_line_sweep_mistakes_are_one_line(tmp_path, capsys, extra, message):
    from mechdesign.cli import main

    assert main(["sweep", "--out", str(tmp_path), "--quiet", *extra]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err


@pytest.mark.slow
def test_the_command_line_runs_on_a_dask_scheduler(tmp_path):
    distributed = pytest.importorskip("distributed")
    from mechdesign.cli import main

    argv = ["sweep", "--task", "measure", "--epsilon", "0.5,1", "--n", "3,4",
            "--out", str(tmp_path), "--quiet"]
    assert main([*argv, "--workers", "1"]) == 0
    serial = pd.read_csv(tmp_path / "sweep.csv", keep_default_na=False)
    (tmp_path / "sweep.sqlite").unlink()
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        assert main([*argv, "--scheduler", cluster.scheduler_address]) == 0
    dask = pd.read_csv(tmp_path / "sweep.csv", keep_default_na=False)
    pd.testing.assert_frame_equal(serial.drop(columns="seconds"), dask.drop(columns="seconds"))
    assert len(dask) == 16


def test_plot_sweep_refuses_unknown_columns():
    table = md.sweep(md.dobrushin_bound, {"epsilon": [0.5, 1], "c": [0.1], "n": [4]},
                     executor="serial", progress=False)
    with pytest.raises(InvalidInputError, match="y must be a column"):
        md.sweeps.plot_sweep(table, "epsilon", "utility")
    with pytest.raises(InvalidInputError, match="table must be a pandas DataFrame"):
        md.sweeps.plot_sweep([1, 2], "epsilon", "value")


# -- plain scripts (issue 36) --------------------------------------------------------------

SMALL_GRID = {"epsilon": [0.5, 1], "c": [0.01, 0.05], "n": [4, 8]}
DESIGN_GRID = {"notion": ["ldp", "pml"], "epsilon": [0.5, 1], "n": [3],
               "prior": ["dirichlet"], "rep": [0, 1]}
FIX = "if __name__ == '__main__':"


def _script_body(store: Path, executor: str) -> str:
    """The README's sweep block, small, with a task defined in the script that reports
    which process ran it; prints one JSON line."""
    return textwrap.dedent(f"""\
        table = md.sweep(md.dobrushin_bound, {SMALL_GRID!r}{executor})
        stored = md.sweep(md.sweeps.design_task, {DESIGN_GRID!r}, store={str(store)!r}{executor})
        pids = md.sweep(pid, {{"x": [1, 2, 3, 4]}}{executor})
        print(json.dumps({{"parent": os.getpid(), "pids": pids["pid"].tolist(),
                          "values": table["value"].tolist(),
                          "errors": [*table["error"], *stored["error"], *pids["error"]],
                          "rows": [len(table), len(stored)]}}))
    """)


def _run_script(path: Path, source: str) -> subprocess.CompletedProcess:
    path.write_text(source)
    return subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                          cwd=path.parent, timeout=120)


SCRIPT_HEAD = textwrap.dedent("""\
    import json
    import os

    import mechdesign as md


    def pid(x):
        return {"pid": os.getpid()}


""")


def _check_script_tables(out: dict, store: Path) -> None:
    assert out["rows"] == [8, 8]  # exact: row counts
    assert out["errors"] == [""] * 20  # exact: no failed row
    points = [(e, c, n) for e in SMALL_GRID["epsilon"] for c in SMALL_GRID["c"]
              for n in SMALL_GRID["n"]]
    np.testing.assert_allclose(out["values"], [md.dobrushin_bound(*p) for p in points],
                               rtol=1e-15)
    with sqlite3.connect(store) as db:
        assert db.execute("SELECT COUNT(*), SUM(error != '') FROM points").fetchone() == (8, 0)


def test_an_unguarded_script_runs_serially_with_one_warning_naming_the_fix(tmp_path):
    # Issue 36: saved as a script without the guard, the README's block respawned workers
    # (spawn re-runs the script), printed hundreds of tracebacks and stored every point as
    # "worker died twice". Now the sweep sees the unguarded call before starting a worker.
    store = tmp_path / "results" / "designs.sqlite"
    done = _run_script(tmp_path / "sweep.py", SCRIPT_HEAD + _script_body(store, ""))
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.count("SerialFallbackWarning") == 1  # one, for three sweeps
    assert FIX in done.stderr
    assert "sweep.py" in done.stderr
    out = json.loads(done.stdout.splitlines()[-1])
    _check_script_tables(out, store)
    assert set(out["pids"]) == {out["parent"]}  # ran in the script's own process


def test_a_guarded_script_still_runs_on_processes(tmp_path):
    store = tmp_path / "designs.sqlite"
    body = textwrap.indent(_script_body(store, ", executor=2, progress=False"), "    ")
    done = _run_script(tmp_path / "sweep.py",
                       SCRIPT_HEAD + 'if __name__ == "__main__":\n' + body)
    assert done.returncode == 0, done.stderr
    assert "Warning" not in done.stderr
    out = json.loads(done.stdout.splitlines()[-1])
    _check_script_tables(out, store)
    assert out["parent"] not in out["pids"]  # the task defined in the script ran elsewhere


def test_workers_that_die_while_starting_stop_the_sweep_and_store_nothing(tmp_path):
    # The guard is there, but the script's top level kills every worker as it re-imports
    # the script: a harness failure, not the points'.
    store = tmp_path / "s.sqlite"
    source = textwrap.dedent(f"""\
        import os

        import mechdesign as md
        from mechdesign.errors import ExecutorError

        if __name__ == "__mp_main__":  # a spawned worker re-importing this script
            os._exit(3)  # cannot start

        if __name__ == "__main__":
            try:
                md.sweep(md.dobrushin_bound, {SMALL_GRID!r}, store={str(store)!r},
                         executor=2, progress=False)
            except ExecutorError as exc:
                print("ExecutorError:", exc)
    """)
    done = _run_script(tmp_path / "run.py", source)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "ExecutorError: the sweep's worker processes die while starting" in done.stdout
    assert FIX in done.stdout
    assert _stored(store) == 0


def test_a_callers_spawn_pool_in_an_unguarded_script_stops_with_the_fix(tmp_path):
    # A caller's executor is used as given; its workers re-run the script, whose sweep
    # exits them quietly (no pool started from a starting worker); the parent names the fix.
    store = tmp_path / "s.sqlite"
    source = textwrap.dedent(f"""\
        import concurrent.futures as cf
        import multiprocessing

        import mechdesign as md

        with cf.ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
            md.sweep(md.dobrushin_bound, {SMALL_GRID!r}, store={str(store)!r},
                     executor=pool, progress=False)
    """)
    done = _run_script(tmp_path / "sweep.py", source)
    assert done.returncode == 1
    assert done.stderr.count("Traceback") == 1  # the parent's only
    assert "ExecutorError" in done.stderr
    assert FIX in done.stderr
    assert _stored(store) == 0


def test_workers_that_cannot_load_the_task_stop_the_sweep_and_store_nothing(tmp_path):
    # A task whose module exists only in this process: every worker dies unpickling it.
    phantom = types.ModuleType("phantom_tasks_for_test_sweep")
    exec("def double(x):\n    return 2 * x\n", vars(phantom))
    sys.modules[phantom.__name__] = phantom
    store = tmp_path / "s.sqlite"
    try:
        with pytest.raises(ExecutorError, match="die loading the task phantom_tasks"):
            md.sweep(phantom.double, {"x": [1, 2, 3]}, store=store, executor=2,
                     progress=False)
    finally:
        del sys.modules[phantom.__name__]
    assert _stored(store) == 0


def test_a_task_processes_cannot_load_runs_serially_with_a_warning():
    with pytest.warns(SerialFallbackWarning, match="does not pickle") as record:
        table = md.sweep(lambda x: x + 0.5, {"x": [1, 2]}, executor=2, progress=False)
    assert len(record) == 1
    np.testing.assert_allclose(table["value"], [1.5, 2.5], rtol=0)
    assert (table["error"] == "").all()


def test_a_rerun_recomputes_points_whose_worker_died_but_keeps_task_failures(tmp_path):
    # Stores written before issue 36 hold harness failures as "worker died twice" rows;
    # such a row says nothing certain about its point, so a rerun computes it again.
    store = tmp_path / "s.sqlite"
    md.sweep(square_or_fail, {"x": [2, 3, 4]}, store=store, executor="serial", progress=False)
    with sqlite3.connect(store) as db:
        db.execute("UPDATE points SET error = ?, records = '[]' WHERE error = ''",
                   (f"{WORKER_DIED}: BrokenProcessPool: A process in the pool died",))
    table = md.sweep(square_or_fail, {"x": [2, 3, 4]}, store=store, executor="serial",
                     progress=False)
    assert table["error"].tolist() == ["", "ValueError: no square for 3", ""]  # exact: text
    assert table["square"].tolist()[::2] == [4, 16]  # exact: integers
    with sqlite3.connect(store) as db:
        assert db.execute("SELECT COUNT(*) FROM points WHERE error LIKE 'worker died%'"
                          ).fetchone()[0] == 0
