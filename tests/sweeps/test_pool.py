"""Where a sweep runs (mechdesign.sweeps.pool): the same table serially, on local processes,
threads and a Dask cluster; a dying worker loses only its point; plain scripts (issue 36)
run serially with one warning, and workers that cannot start stop the sweep."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import textwrap
import types
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import mechdesign as md
from mechdesign.errors import ExecutorError
from mechdesign.sweeps import SerialFallbackWarning
from tests.sweeps.sample_tasks import (
    die_once,
    stored_points,
    untimed,
)


@pytest.mark.slow
def test_serial_processes_threads_and_a_dask_cluster_give_identical_tables():
    distributed = pytest.importorskip("distributed")
    grid = {"notion": ["ldp", "pml"], "epsilon": [0.5, 2.0], "n": [3, 4],
            "prior": ["dirichlet"], "rep": [0, 1]}
    serial = untimed(md.sweep(md.sweeps.design_task, grid, executor="serial", progress=False))
    processes = untimed(md.sweep(md.sweeps.design_task, grid, progress=False))
    with ThreadPoolExecutor(2) as pool:
        threads = untimed(md.sweep(md.sweeps.design_task, grid, executor=pool, progress=False))
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        dask = untimed(md.sweep(md.sweeps.design_task, grid, executor=client.get_executor(),
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


SMALL_GRID = {"epsilon": [0.5, 1], "c": [0.01, 0.05], "n": [4, 8]}


DESIGN_GRID = {"notion": ["ldp", "pml"], "epsilon": [0.5, 1], "n": [3],
               "prior": ["dirichlet"], "rep": [0, 1]}


FIX = "if __name__ == '__main__':"


def _script_body(store: Path, executor: str) -> str:
    """The tour's sweep block (docs/tour.md), small, with a task defined in the script that reports
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
    # Issue 36: saved as a script without the guard, the tour's block respawned workers
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


@pytest.mark.slow
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
    assert stored_points(store) == 0


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
    assert stored_points(store) == 0


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
    assert stored_points(store) == 0


def test_a_task_processes_cannot_load_runs_serially_with_a_warning():
    with pytest.warns(SerialFallbackWarning, match="does not pickle") as record:
        table = md.sweep(lambda x: x + 0.5, {"x": [1, 2]}, executor=2, progress=False)
    assert len(record) == 1
    np.testing.assert_allclose(table["value"], [1.5, 2.5], rtol=0)
    assert (table["error"] == "").all()


#: Run in a fresh interpreter: the test runner's own processes may ignore SIGINT, and
#: what they import into a spawned child (its ``__main__``) may set it too.
CTRL_C_PROBE = """
import multiprocessing, signal
from concurrent.futures import ProcessPoolExecutor
from mechdesign.sweeps.pool import worker_pool

if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.default_int_handler)  # even if started ignoring it
    with worker_pool(1) as pool:
        context = pool._mp_context  # the pool's process kind, without its initializer
    with ProcessPoolExecutor(1, mp_context=context) as bare:
        ours = bare.submit(signal.getsignal, signal.SIGINT).result()
    restored = signal.getsignal(signal.SIGINT) is signal.default_int_handler
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as plain:
        theirs = plain.submit(signal.getsignal, signal.SIGINT).result()
    print(ours == signal.SIG_IGN, restored, theirs == signal.SIG_IGN)
"""


def test_a_worker_ignores_ctrl_c_from_its_first_instruction(tmp_path):
    """The workers' processes start with SIGINT ignored (inherited across exec), not only
    once the pool's initializer has run: a Ctrl-C reaching a worker that is still
    starting must not print its KeyboardInterrupt traceback. Checked without the
    initializer, in a fresh interpreter with Python's own handler; a plain spawned
    process is the control (Python's handler), and the parent's handler is back once
    the worker has started."""
    script = tmp_path / "probe.py"
    script.write_text(CTRL_C_PROBE)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=120, check=False, cwd=tmp_path,
                          env={**__import__("os").environ,
                               "PYTHONPATH": str(Path(md.__file__).parents[1])})
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True", "False"], done.stdout
