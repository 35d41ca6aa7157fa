"""The sweep store: SQLite (the standard library's :mod:`sqlite3`), one row per finished
point, written and committed as soon as the point finishes, keyed by the SHA-256 of the
task's qualified name, the point and the mechdesign version
(:func:`~mechdesign.sweeps.points.point_key`).

Chosen over a Parquet dataset because it needs no further dependency, a commit is atomic
(a killed sweep leaves every finished point and no half-written one), and several
processes may write one file at once (write-ahead log, a busy timeout) without corrupting
it; Parquet would need one file per point to get the same. A rerun computes only the
points that are not in the store; stored failures are kept unless ``retry_failed=True``,
except :data:`WORKER_DIED` rows, which every rerun computes again: a lost worker (the
out-of-memory killer under another job's load, a lost Dask worker, or a harness failure
stored by an earlier version) says nothing certain about the point, and a point that really
kills its worker costs two more worker deaths per rerun. Share the result with
``DataFrame.to_csv`` (or ``to_parquet``, which needs pyarrow).
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from mechdesign._validation import show
from mechdesign.errors import InvalidInputError
from mechdesign.sweeps.points import Record, mechdesign_version

__all__ = [
    "STORE_BUSY_SECONDS",
    "STORE_RETRY_SECONDS",
    "WORKER_DIED",
    "SweepStore",
]

#: How long a store write waits for another sweep's write to the same file (seconds).
STORE_BUSY_SECONDS = 600.0
#: Pause between attempts to open a store another sweep is creating.
STORE_RETRY_SECONDS = 0.05
#: How the error of a point whose worker died twice begins; a rerun computes such a point
#: again (the module docstring).
WORKER_DIED = "worker died twice"


class SweepStore:
    """The SQLite store: one committed row per finished point (the module docstring).

    Parameters
    ----------
    path : str or os.PathLike
        The SQLite file, created (with its folders) if missing.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        try:
            self.path = Path(path)
        except TypeError as exc:
            raise InvalidInputError(f"store must be a file path; got {show(path)}.") from exc
        if self.path.is_dir():
            raise InvalidInputError(
                f"store must be a file path (an SQLite file), not a folder; got {str(path)!r}."
            )
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # Two sweeps opening one new store at once: switching it to WAL takes an
        # exclusive lock, and SQLite answers "database is locked" there at once instead
        # of waiting (its busy handler is not used): retry until STORE_BUSY_SECONDS.
        deadline = time.monotonic() + STORE_BUSY_SECONDS
        while True:
            self.db = None
            try:
                self.db = sqlite3.connect(self.path, timeout=STORE_BUSY_SECONDS)
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute(
                    "CREATE TABLE IF NOT EXISTS points (key TEXT PRIMARY KEY, task TEXT "
                    "NOT NULL, version TEXT NOT NULL, point TEXT NOT NULL, records TEXT NOT "
                    "NULL, seconds REAL NOT NULL, error TEXT NOT NULL, written REAL NOT NULL)"
                )
                self.db.commit()
                return
            except sqlite3.OperationalError as exc:
                if self.db is not None:
                    self.db.close()
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise InvalidInputError(
                        f"store {str(path)!r} is not a mechdesign sweep store (SQLite): "
                        f"{exc}.") from exc
                time.sleep(STORE_RETRY_SECONDS)
            except sqlite3.DatabaseError as exc:
                if self.db is not None:
                    self.db.close()
                raise InvalidInputError(
                    f"store {str(path)!r} is not a mechdesign sweep store (SQLite): {exc}."
                ) from exc

    def load(self, keys: list[str]) -> dict[str, tuple[list[Record], float, str]]:
        """The stored outcomes ``(records, seconds, error)`` of those of ``keys`` that are
        in the store."""
        found = {}
        for start in range(0, len(keys), 500):
            chunk = keys[start:start + 500]
            marks = ",".join("?" * len(chunk))
            query = f"SELECT key, records, seconds, error FROM points WHERE key IN ({marks})"
            for key, records, seconds, error in self.db.execute(query, chunk):
                found[key] = (json.loads(records), float(seconds), error)
        return found

    def save(self, key: str, task: str, point: Mapping[str, Any],
             outcome: tuple[list[Record], float, str]) -> None:
        """Write one finished point and commit it (a single transaction)."""
        records, seconds, error = outcome
        with self.db:  # one transaction: committed, or not written at all
            self.db.execute(
                "INSERT OR REPLACE INTO points VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (key, task, mechdesign_version(), json.dumps(point), json.dumps(records), seconds,
                 error, time.time()),
            )

    def close(self) -> None:
        """Close the connection."""
        self.db.close()
