"""Tasks the sweep tests run, at module level so that worker processes import them
(``tests.sweeps.sample_tasks``), and the helpers those tests share."""

from __future__ import annotations

import math
import os
import sqlite3
import time
from pathlib import Path

import numpy as np
import pandas as pd


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


def untimed(table: pd.DataFrame) -> pd.DataFrame:
    """The table without its (volatile) ``seconds`` column, re-indexed."""
    return table.drop(columns=["seconds"]).reset_index(drop=True)


def stored_points(store: Path) -> int:
    """How many points the store at ``store`` holds (0 before it exists)."""
    if not store.exists():
        return 0
    try:
        with sqlite3.connect(store, timeout=5) as db:
            return db.execute("SELECT COUNT(*) FROM points").fetchone()[0]
    except sqlite3.OperationalError:  # the table does not exist yet
        return 0
