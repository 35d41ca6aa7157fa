"""The sweep store (mechdesign.sweeps.store): a rerun computes only what is missing, also
after SIGINT and SIGKILL; stored failures are kept unless retried, lost workers are not;
several processes share one store safely."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import mechdesign as md
from mechdesign.sweeps.store import WORKER_DIED
from tests.sweeps.sample_tasks import (
    GATE,
    logged_slow,
    square_or_fail,
    stored_points,
    untimed,
)

ROOT = Path(__file__).resolve().parents[2]


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


def _sweep_script(store: Path, log: Path, executor: str, n: int) -> str:
    # The script restores Python's Ctrl-C handler: a test suite started from a background
    # shell (CI's, say) hands its children SIGINT ignored, and Python keeps it ignored, so
    # the interrupt never reached the sweep and the run waited at the gate (the test
    # "flaked" exactly when run in the background).
    return textwrap.dedent(f"""
        import signal
        import sys
        signal.signal(signal.SIGINT, signal.default_int_handler)
        sys.path.insert(0, {str(ROOT)!r})
        import mechdesign as md
        from tests.sweeps.sample_tasks import logged_slow
        if __name__ == "__main__":
            md.sweep(logged_slow, {{"x": list(range({n})), "log": [{str(log)!r}]}},
                     store={str(store)!r}, executor={executor!r}, progress=False)
    """)


@pytest.mark.parametrize(("sig", "executor"), [(signal.SIGINT, "processes"),
                                               (signal.SIGKILL, "serial")])
@pytest.mark.slow
def test_an_interrupted_sweep_resumes_with_only_the_missing_points(tmp_path, sig, executor):
    store, log, n = tmp_path / "s.sqlite", tmp_path / "log.txt", 16
    script = tmp_path / "run.py"
    script.write_text(_sweep_script(store, log, executor, n))
    gate = tmp_path / "gate"  # never opened while the run lives: points >= 3 wait at it
    proc = subprocess.Popen([sys.executable, str(script)], stderr=subprocess.PIPE, text=True,
                            env={**os.environ, GATE: str(gate)})
    deadline = time.monotonic() + 300  # a watchdog only: the event is the third point
    while stored_points(store) < 3:
        assert proc.poll() is None, proc.stderr.read()
        assert time.monotonic() < deadline
        time.sleep(0.05)
    proc.send_signal(sig)  # points 0-2 are stored, every other one is held at the gate
    proc.wait(timeout=60)
    gate.touch()  # lets any worker the interrupt left behind finish
    assert proc.returncode != 0
    if sig == signal.SIGINT:
        assert proc.stderr.read().count("Traceback") <= 1  # the parent's only
    done = stored_points(store)
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
    pd.testing.assert_frame_equal(untimed(table), untimed(uninterrupted).drop(columns="pause"))


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
    code = (f"import os, time; from mechdesign.sweeps.store import SweepStore\n"
            f"print('ready', flush=True)\n"
            f"end = time.monotonic() + 300  # a watchdog only\n"
            f"while not os.path.exists({str(go)!r}) and time.monotonic() < end:\n"
            f"    time.sleep(0.001)\n"
            f"SweepStore({str(store)!r}).close(); print('open')")
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
