"""Sweeps (:func:`sweep`; the module is ``sweeps`` so that ``mechdesign.sweep`` is the
function): one function over the product of named parameter axes, on any executor, with
every finished point kept on disk.

``sweep(task, grid)`` calls ``task(**point)`` for every point of the grid and returns a
tidy :class:`pandas.DataFrame`, one row per point (per record, for a task returning
several), with the point's parameters, the task's record, ``seconds`` and ``error``.

Design choices (issue 24):

Execution
    Any :class:`concurrent.futures.Executor`. The default is local processes on the
    machine's cores (``spawn`` start method: the task must be importable, i.e. defined in
    a module, not in a notebook cell; pass ``executor="serial"`` to run in this process).
    For a cluster, Dask distributed: ``executor=distributed.Client(address).get_executor()``;
    nothing here is specific to Dask.
Plain scripts (issue 36)
    A spawned (or forkserver) worker re-runs the main script's top level when it starts,
    and ``fork`` is unsafe in a process with threads (BLAS, HiGHS, tqdm), so no start
    method runs a task defined in an unguarded script on fresh processes. Before starting
    any worker, the sweep looks for the main script's top-level frame on the call stack; if
    its current line is not inside an ``if __name__ == "__main__":`` block (read with
    :mod:`ast` from the script's source), our own pool is not started: the sweep runs
    serially in this process and warns once per script and process
    (:class:`SerialFallbackWarning`) that the call must go under that guard to run on
    processes. The same fallback, with its own warning, serves a task our processes
    cannot load (it does not pickle, or it lives in the ``__main__`` of an interactive
    session, a notebook or ``python -c``). A caller's executor is used as given. A worker
    process that re-imports an unguarded script while it starts exits at once and quietly
    when that import calls a process sweep (it would otherwise start a pool of its own
    and die in multiprocessing's bootstrapping check).
A failed point is a row
    An exception raised by the task is caught in the worker and becomes the point's
    ``error`` (``"TypeName: message"``); the other points go on. A worker that dies (a
    segfault, the out-of-memory killer, a lost Dask worker) loses only the points it was
    running: those are run again, one at a time, and a point that kills its worker a
    second time is recorded as failed (``"worker died twice: ..."``). A loss counts
    against a point only after a fresh pool of ours has run a no-op and loaded the task:
    workers that die before running any point are the harness's failure, not the
    points', and stop the sweep with :class:`~mechdesign.errors.ExecutorError` naming the
    cause, storing nothing for the points that did not run.
The store
    SQLite (the standard library's :mod:`sqlite3`), one row per finished point, written
    and committed as soon as the point finishes, keyed by the SHA-256 of the task's
    qualified name, the point and the mechdesign version. Chosen over a Parquet dataset
    because it needs no further dependency, a commit is atomic (a killed sweep leaves
    every finished point and no half-written one), and several processes may write one
    file at once (write-ahead log, a busy timeout) without corrupting it; Parquet would
    need one file per point to get the same. A rerun computes only the points that are
    not in the store; stored failures are kept unless ``retry_failed=True``, except
    ``"worker died twice"`` rows, which every rerun computes again: a lost worker (the
    out-of-memory killer under another job's load, a lost Dask worker, or a harness
    failure stored before issue 36) says nothing certain about the point, and a point that
    really kills its worker costs two more worker deaths per rerun. Share the result with
    ``DataFrame.to_csv`` (or ``to_parquet``, which needs pyarrow).

Built-in tasks: :func:`design_task`, :func:`measure_task`, :func:`envelope_task`.
"""

from __future__ import annotations

import ast
import concurrent.futures as cf
import functools
import hashlib
import itertools
import json
import linecache
import multiprocessing
import os
import signal
import sqlite3
import sys
import time
import warnings
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.reduction import ForkingPickler
from numbers import Integral, Real
from pathlib import Path
from types import FrameType
from typing import Any, Literal

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from mechdesign._tolerances import COLUMN_GENERATION_GAP
from mechdesign._validation import (
    as_distribution,
    check_bool,
    check_c,
    check_choice,
    check_epsilon,
    check_int,
    check_positive_int,
    check_size,
    show,
)
from mechdesign.bounds.envelope import pml_envelope
from mechdesign.comparison import deployed_protocols, zipf_prior
from mechdesign.errors import ExecutorError, InvalidInputError
from mechdesign.measures.leakage import (
    bayes_vulnerability,
    ldp_level,
    mutual_information,
    pml_level,
)
from mechdesign.mechanisms.closed_forms import pml_extremal_mechanism
from mechdesign.mechanisms.protocols import estimation_mse
from mechdesign.notions import LDP, PML
from mechdesign.optimal import design

__all__ = [
    "FAMILIES",
    "PRIORS",
    "RESERVED_COLUMNS",
    "STORE_BUSY_SECONDS",
    "TASK_MAX_N",
    "THREAD_VARIABLES",
    "WORKER_DIED",
    "SerialFallbackWarning",
    "design_task",
    "envelope_task",
    "family_name",
    "make_prior",
    "measure_task",
    "plot_sweep",
    "sweep",
]

#: Columns every sweep table has besides the axes; a task's record may not use them.
RESERVED_COLUMNS = ("seconds", "error")
#: The largest ``n`` of the built-in tasks (their priors and kernels are dense).
TASK_MAX_N = 2**16
#: How long a store write waits for another sweep's write to the same file (seconds).
STORE_BUSY_SECONDS = 600.0
#: Pause between attempts to open a store another sweep is creating.
STORE_RETRY_SECONDS = 0.05
#: How the error of a point whose worker died twice begins; a rerun computes such a point
#: again (the module docstring, "The store").
WORKER_DIED = "worker died twice"
#: The priors the built-in tasks draw: ``uniform``, ``zipf`` (exponent 1.1) and
#: ``dirichlet`` (Dirichlet(1), one draw per repetition ``rep``).
PRIORS = ("uniform", "zipf", "dirichlet")

Scalar = int | float | str | bool | None
Record = dict[str, Scalar]


# -- the public entry ---------------------------------------------------------------------


def sweep(
    task: Callable[..., Any],
    grid: Mapping[str, Iterable[Any]] | Sequence[Mapping[str, Any]],
    *,
    store: str | os.PathLike[str] | None = None,
    executor: cf.Executor | int | Literal["serial", "processes"] | None = None,
    progress: bool = True,
    retry_failed: bool = False,
) -> pd.DataFrame:
    """Run ``task(**point)`` for every point of ``grid``; one table row per point.

    Parameters
    ----------
    task
        A function of keyword arguments, picklable (defined at the top level of a module)
        to run on processes (a pool of ours runs any other task serially, with a warning;
        a caller's process pool refuses it by name). It returns a number (column
        ``value``), a flat record (a dict from column names to numbers, strings, booleans
        or None) or a list of such records (one row each, all with the point's
        parameters).
    grid
        A dict of named axes (each a non-empty list of values) whose Cartesian product is
        swept, first axis slowest; or a list of point dicts. Values are numbers, strings,
        booleans, None, or tuples of these.
    store
        Path of an SQLite file (created if missing) where each finished point is written
        at once; a rerun with the same store computes only the missing points. None keeps
        nothing.
    executor
        A :class:`concurrent.futures.Executor` (it is used, not shut down), ``"serial"``
        (this process, in grid order), ``"processes"``/None (a pool of local processes
        on every core, stopped at the end) or an int (a pool of that many processes).
        Called at the top level of a script, outside ``if __name__ == "__main__":``, or
        with a task processes cannot load, a pool of ours is not started: the sweep runs
        serially here with one :class:`SerialFallbackWarning` naming the fix.
    progress
        Show a tqdm progress bar on stderr.
    retry_failed
        Recompute points whose stored row is a failure instead of reusing it (stored
        ``"worker died twice"`` rows are always recomputed).

    Returns
    -------
    pandas.DataFrame
        The axes, the record columns, ``seconds`` (the task's own time; for a stored point
        the time it took when it ran) and ``error`` (empty string unless the point
        failed), in grid order.

    Raises
    ------
    mechdesign.errors.ExecutorError
        When the worker processes die before running any point, or the executor refuses
        work; the points it did not run are not stored.

    Examples
    --------
    >>> import mechdesign as md
    >>> table = md.sweep(md.dobrushin_bound, {"epsilon": [0.5, 1], "c": [0.01, 0.05],
    ...                                        "n": [4, 8]}, executor="serial",
    ...                  progress=False)
    >>> table.shape
    (8, 6)
    """
    if not callable(task):
        raise InvalidInputError(f"task must be callable; got {show(task)}.")
    progress = check_bool(progress, "progress")
    retry_failed = check_bool(retry_failed, "retry_failed")
    _refuse_in_starting_worker(executor)
    points = _points(grid)
    name = _task_name(task)
    keys = [_point_key(name, point) for point in points]
    done: dict[str, tuple[list[Record], float, str]] = {}
    database = _Store(store) if store is not None else None
    if database is not None:
        done = {key: outcome for key, outcome in database.load(keys).items()
                if not outcome[2] or not (retry_failed or outcome[2].startswith(WORKER_DIED))}
    todo = [i for i, key in enumerate(keys) if key not in done]
    results: dict[int, tuple[list[Record], float, str]] = {
        i: done[key] for i, key in enumerate(keys) if key in done
    }
    short = getattr(getattr(task, "func", task), "__name__", type(task).__name__)
    bar = tqdm(total=len(points), initial=len(results), desc=f"sweep {short}",
               disable=not progress, unit="point")

    def finished(i: int, outcome: tuple[list[Record], float, str]) -> None:
        results[i] = outcome
        if database is not None:
            database.save(keys[i], name, points[i], outcome)
        bar.update()

    try:
        if todo:
            _execute(task, points, todo, executor, finished)
    finally:
        bar.close()
        if database is not None:
            database.close()
    return _table(points, [results[i] for i in range(len(points))])


# -- points, keys, records ----------------------------------------------------------------


def _plain(value: Any, where: str) -> Scalar | tuple:
    """A grid value as JSON-exact plain Python (numpy scalars unwrapped), or raise."""
    if isinstance(value, np.generic):
        value = value.item()
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, Integral):
        return int(value)
    if isinstance(value, Real):
        return float(value)
    if isinstance(value, (tuple, list, np.ndarray)):
        return tuple(_plain(v, where) for v in value)
    raise InvalidInputError(
        f"grid values must be numbers, strings, booleans, None or tuples of them; {where} "
        f"is {show(value)} ({type(value).__name__})."
    )


def _points(grid: object) -> list[dict[str, Any]]:
    if isinstance(grid, Mapping):
        axes = {}
        for axis, values in grid.items():
            _check_name(axis)
            if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
                raise InvalidInputError(
                    f"grid axis {axis!r} must be a list of values; got {show(values)}."
                )
            values = [_plain(v, f"a value of axis {axis!r}") for v in values]
            if not values:
                raise InvalidInputError(f"grid axis {axis!r} must not be empty.")
            axes[axis] = values
        if not axes:
            raise InvalidInputError("grid must have at least one axis; got {}.")
        return [dict(zip(axes, combo, strict=True)) for combo in itertools.product(*axes.values())]
    if isinstance(grid, Sequence) and not isinstance(grid, (str, bytes)):
        points = []
        for number, point in enumerate(grid):
            if not isinstance(point, Mapping):
                raise InvalidInputError(
                    f"grid must be a dict of axes or a list of point dicts; point {number} "
                    f"is {show(point)}."
                )
            for axis in point:
                _check_name(axis)
            points.append({axis: _plain(v, f"point {number}'s {axis!r}")
                           for axis, v in point.items()})
        if not points:
            raise InvalidInputError("grid must have at least one point; got [].")
        return points
    raise InvalidInputError(
        f"grid must be a dict of axes or a list of point dicts; got {show(grid)}."
    )


def _check_name(axis: object) -> None:
    if not isinstance(axis, str) or not axis.isidentifier():
        raise InvalidInputError(
            f"grid axis names must be Python identifiers (they are keyword arguments of "
            f"the task); got {show(axis)}."
        )
    if axis in RESERVED_COLUMNS:
        raise InvalidInputError(
            f"grid axis {axis!r} is reserved for the table's own column; rename it."
        )


def _task_name(task: Callable[..., Any]) -> str:
    """``module.qualname`` (with the point and the version, the store's key); for a
    :func:`functools.partial`, the function's name with the ``repr`` of the arguments it
    binds (so that a partial over other settings is another task)."""
    if isinstance(task, functools.partial):
        bound = [repr(a) for a in task.args]
        bound += [f"{k}={v!r}" for k, v in sorted(task.keywords.items())]
        return f"{_task_name(task.func)}({', '.join(bound)})"
    module = getattr(task, "__module__", None) or type(task).__module__
    qualname = getattr(task, "__qualname__", None) or type(task).__qualname__
    return f"{module}.{qualname}"


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("mechdesign")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "unknown"


def _point_key(name: str, point: Mapping[str, Any]) -> str:
    text = json.dumps({"task": name, "point": point, "version": _version()},
                      sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _records(result: object) -> list[Record]:
    """The task's return value as a list of flat records, or raise TypeError saying why
    (inside the worker, so that it becomes the point's error)."""
    if isinstance(result, np.generic):
        result = result.item()
    if isinstance(result, Real) and not isinstance(result, bool):
        return [{"value": result if isinstance(result, Integral) else float(result)}]
    if isinstance(result, Mapping):
        return [_record(result)]
    if isinstance(result, (list, tuple)) and result and all(
            isinstance(r, Mapping) for r in result):
        return [_record(r) for r in result]
    raise TypeError(
        "the task must return a number, a flat record (a dict of numbers and strings) or "
        f"a list of records; it returned {type(result).__name__}"
    )


def _record(record: Mapping[Any, Any]) -> Record:
    out: Record = {}
    for column, value in record.items():
        if not isinstance(column, str):
            raise TypeError(f"record column names must be strings; got {column!r}")
        if column in RESERVED_COLUMNS:
            raise TypeError(f"record column {column!r} is reserved for the sweep's own")
        if isinstance(value, np.generic):
            value = value.item()
        if not (value is None or isinstance(value, (str, bool, Real))):
            raise TypeError(
                f"record column {column!r} must hold a number, a string, a boolean or "
                f"None; got {type(value).__name__}"
            )
        out[column] = value if isinstance(value, (str, bool, Integral)) or value is None \
            else float(value)
    return out


def _run_point(task: Callable[..., Any], point: dict[str, Any]) -> tuple[list[Record], float, str]:
    """One point in a worker: ``(records, seconds, error)``; the task's exceptions are
    caught here and become the error (the other points go on)."""
    start = time.perf_counter()
    try:
        records = _records(task(**point))
        overlap = sorted({c for r in records for c in r} & set(point))
        if overlap:
            raise TypeError(f"the task's record repeats the point's column(s) {overlap}")
        return records, time.perf_counter() - start, ""
    except Exception as exc:  # a failed point is a row, by design
        return [], time.perf_counter() - start, _describe(exc)


def _table(points: list[dict[str, Any]],
           results: list[tuple[list[Record], float, str]]) -> pd.DataFrame:
    rows = []
    for point, (records, seconds, error) in zip(points, results, strict=True):
        for record in records or [{}]:
            rows.append({**point, **record, "seconds": seconds, "error": error})
    frame = pd.DataFrame(rows)
    columns = [c for c in frame.columns if c not in RESERVED_COLUMNS] + list(RESERVED_COLUMNS)
    frame = frame[columns]
    frame.attrs["axes"] = list(dict.fromkeys(axis for point in points for axis in point))
    return frame


# -- the store ----------------------------------------------------------------------------


class _Store:
    """The SQLite store: one committed row per finished point (see the module docstring)."""

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
        records, seconds, error = outcome
        with self.db:  # one transaction: committed, or not written at all
            self.db.execute(
                "INSERT OR REPLACE INTO points VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (key, task, _version(), json.dumps(point), json.dumps(records), seconds,
                 error, time.time()),
            )

    def close(self) -> None:
        self.db.close()


# -- execution ----------------------------------------------------------------------------


def _ignore_interrupt() -> None:
    """Workers leave Ctrl-C to the parent, which stops them (no traceback per worker)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


#: Environment variables that size the BLAS and OpenMP thread pools; each worker process
#: of our pool starts with them at 1 unless the caller set them (one thread per process:
#: a design's small matrices gain nothing from BLAS threads, and W workers each starting
#: as many threads as cores oversubscribe the machine, measured in benchmarks/sweep.py).
THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                    "BLIS_NUM_THREADS", "VECLIB_MAXIMUM_THREADS", "NUMEXPR_NUM_THREADS")


class _OneThreadProcess(multiprocessing.get_context("spawn").Process):  # type: ignore[misc]
    """A spawned process whose environment limits BLAS/OpenMP to one thread (as loky
    does for joblib); the parent's environment is restored once the child has started."""

    def start(self) -> None:
        unset = [name for name in THREAD_VARIABLES if name not in os.environ]
        os.environ.update(dict.fromkeys(unset, "1"))
        try:
            super().start()
        finally:
            for name in unset:
                os.environ.pop(name, None)


class _OneThreadContext(type(multiprocessing.get_context("spawn"))):  # type: ignore[misc]
    Process = _OneThreadProcess


def _local_pool(workers: int) -> cf.ProcessPoolExecutor:
    return cf.ProcessPoolExecutor(workers, mp_context=_OneThreadContext(),
                                  initializer=_ignore_interrupt)


class SerialFallbackWarning(UserWarning):
    """A sweep asked to run on local processes ran serially in this process instead,
    because the processes could not run it (the message says why and how to fix it).

    A :class:`UserWarning`: it reports how the caller's script is written, and the results
    are unaffected."""


#: The scripts already warned about in this process: one warning per script, not one per
#: sweep it runs (the README's block runs two). A task's warning is left to the warnings
#: filters (by default once per calling line).
_WARNED: set[str] = set()


def _execute(task, points, todo, executor, finished) -> None:
    if executor == "serial":
        _run_serially(task, points, todo, finished)
        return
    if executor is None or executor == "processes":
        owned = os.cpu_count() or 1
    elif isinstance(executor, Integral) and not isinstance(executor, bool):
        owned = check_positive_int(executor, "executor")
    elif isinstance(executor, cf.Executor):
        if isinstance(executor, cf.ProcessPoolExecutor):
            _check_picklable(task)
        _run_on_pool(task, points, todo, finished, owned=0, executor=executor)
        return
    else:
        raise InvalidInputError(
            "executor must be a concurrent.futures.Executor, 'serial', 'processes', a number "
            "of processes or None; "
            f"got {show(executor)}."
        )
    reason = _why_processes_cannot_run(task)
    if reason is not None:
        key, message, where = reason
        if key is None or key not in _WARNED:
            _warn_at(message, where)
        if key is not None:
            _WARNED.add(key)
        _run_serially(task, points, todo, finished)
        return
    _run_on_pool(task, points, todo, finished, owned=owned, executor=None)


def _run_serially(task, points, todo, finished) -> None:
    for i in todo:
        finished(i, _run_point(task, points[i]))


# -- plain scripts: what a spawned worker would do with this call ---------------------------


def _starting_worker() -> bool:
    """True in a worker process that multiprocessing is starting, while it re-imports the
    parent's main module (spawn/forkserver set ``_inheriting`` on the current process for
    exactly that span, and multiprocessing's own bootstrapping check reads the same flag;
    :func:`multiprocessing.parent_process` is still None then: it is set afterwards)."""
    return bool(getattr(multiprocessing.current_process(), "_inheriting", False))


def _refuse_in_starting_worker(executor: object) -> None:
    """Exit a starting worker quietly instead of sweeping on processes from it.

    Reached when a worker re-imports an unguarded script whose top level starts a process
    sweep: the parent's own check (:func:`_unguarded_script_call`) keeps our pool from
    starting such workers, so this serves a caller's spawn pool, or a script whose guard
    could not be read. Exiting (rather than returning an empty table) keeps the worker
    from running the rest of the script (writing its files); the parent sees its pool
    break and raises :class:`ExecutorError` naming the fix (for a pool of ours, after a
    fresh pool failed to start: :func:`_check_fresh_workers`), instead of one traceback
    per worker. A serial sweep, threads or Dask are
    left alone (they do not start processes from the starting worker).
    """
    processes = (executor is None or executor == "processes"
                 or isinstance(executor, cf.ProcessPoolExecutor)
                 or (isinstance(executor, Integral) and not isinstance(executor, bool)))
    if processes and _starting_worker():
        raise SystemExit(1)


def _why_processes_cannot_run(task) -> tuple[str | None, str, tuple[str, int] | None] | None:
    """Why a pool of ours cannot run this sweep, as ``(key, warning, (file, line) or
    None)`` (a script's key gives its warning once per process), or None when it can."""
    call = _unguarded_script_call()
    if call is not None:
        path, line = call
        return (f"script:{path}", (
            f"{os.path.basename(path)} calls md.sweep at its top level (line {line}), "
            "outside `if __name__ == '__main__':`; worker processes re-run the script's "
            "top level when they start, so this sweep runs serially in this process. Put "
            "the call under `if __name__ == '__main__':` to run it on processes (or pass "
            "executor='serial' to say so)."), call)
    try:
        _check_picklable(task)
    except InvalidInputError as exc:
        return None, (
            f"{exc} This sweep runs serially in this process."), None
    if _defined_in_unimportable_main(task):
        return None, (
            f"the task {_task_name(task)} is defined in the __main__ of an interactive "
            "session, a notebook or `python -c`, which worker processes cannot import, so "
            "this sweep runs serially in this process. Define the task in a module (a .py "
            "file) to run it on processes (or pass executor='serial' to say so)."), None
    return None


def _unguarded_script_call() -> tuple[str, int] | None:
    """``(script, line)`` when this call runs from the main script's top level outside
    ``if __name__ == "__main__":``; None otherwise.

    The main script's ``<module>`` frame is the frame on the stack whose globals are
    ``sys.modules["__main__"]``'s; its current line is the top-level statement running
    (the call itself, or the call of a function that sweeps). An interactive session, a
    notebook or ``python -c`` has no ``__file__`` and spawn re-runs nothing there. When the
    source cannot be read or parsed, the call counts as guarded (the pool then starts, and
    a worker that cannot start is caught after the fact: :func:`_check_fresh_workers`).
    """
    main = sys.modules.get("__main__")
    if main is None or not getattr(main, "__file__", None):
        return None
    frame: FrameType | None = sys._getframe(1)
    while frame is not None and not (frame.f_code.co_name == "<module>"
                                     and frame.f_globals is vars(main)):
        frame = frame.f_back
    if frame is None:  # called from a thread or a callback, not the script's top level
        return None
    path, line = frame.f_code.co_filename, frame.f_lineno
    guarded = _guarded_lines(path, frame.f_globals)
    if guarded is None or any(first <= line <= last for first, last in guarded):
        return None
    return path, line


def _guarded_lines(path: str, module_globals: dict[str, Any]) -> list[tuple[int, int]] | None:
    """The line spans of the bodies of ``if __name__ == "__main__":`` blocks of a source
    file (either operand order; an ``else`` branch is not guarded), or None when the
    source cannot be read or parsed."""
    source = "".join(linecache.getlines(path, module_globals))
    if not source:
        return None
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    spans = []
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and _is_main_test(node.test):
            spans.append((node.body[0].lineno, node.body[-1].end_lineno or node.lineno))
    return spans


def _is_main_test(test: ast.expr) -> bool:
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1
            and isinstance(test.ops[0], ast.Eq)):
        return False
    operands = [test.left, test.comparators[0]]
    names = [o.id for o in operands if isinstance(o, ast.Name)]
    texts = [o.value for o in operands if isinstance(o, ast.Constant)]
    return names == ["__name__"] and texts == ["__main__"]


def _check_picklable(task) -> None:
    """Raise InvalidInputError when the task cannot be sent to a worker process (a lambda,
    a local function): it would fail every point, not one."""
    try:
        ForkingPickler.dumps(task)
    except Exception as exc:  # pickle raises PicklingError, AttributeError or TypeError
        raise InvalidInputError(
            f"the task {_task_name(task)} cannot be sent to worker processes (it does not "
            f"pickle: {_describe(exc)}); define it at the top level of a module to run it "
            "on processes, or pass executor='serial'."
        ) from exc


def _defined_in_unimportable_main(task) -> bool:
    """A task in ``__main__`` that spawned workers cannot re-create: the main module has
    neither a file nor a module name to re-import (an interactive session, ``python -c``;
    spawn's own rule, :func:`multiprocessing.spawn.get_preparation_data`)."""
    func = task.func if isinstance(task, functools.partial) else task
    if getattr(func, "__module__", None) != "__main__":
        return False
    main = sys.modules.get("__main__")
    return not (getattr(main, "__file__", None)
                or getattr(getattr(main, "__spec__", None), "name", None))


def _warn_at(message: str, where: tuple[str, int] | None) -> None:
    """Warn at the script's line (``where``) or at the caller of :func:`sweep`."""
    if where is None:
        warnings.warn(message, SerialFallbackWarning, stacklevel=4)
        return
    warnings.warn_explicit(message, SerialFallbackWarning, where[0], where[1],
                           module="__main__")


# -- processes ----------------------------------------------------------------------------


def _noop(task: object = None) -> bool:
    """What a probe runs: nothing (the worker only starts and, given a task, loads it)."""
    return True


def _check_fresh_workers(pool: cf.ProcessPoolExecutor, task) -> None:
    """Raise :class:`ExecutorError` when a fresh pool's workers die before running any
    point: first a no-op (can a worker start at all?), then a no-op given the task (can a
    worker load it?). Run after a pool broke and before its losses count against points."""
    try:
        pool.submit(_noop).result()
    except BrokenProcessPool:
        raise ExecutorError(
            "the sweep's worker processes die while starting, before running any point "
            "(no point was stored as failed). A worker re-runs the main script's top "
            "level: put the script's md.sweep call under `if __name__ == '__main__':`, or "
            "pass executor='serial'."
        ) from None
    try:
        pool.submit(_noop, task).result()
    except BrokenProcessPool:
        raise ExecutorError(
            f"the sweep's worker processes die loading the task {_task_name(task)}, before "
            "running any point (no point was stored as failed): define the task in a "
            "module the workers can import, or pass executor='serial'."
        ) from None


def _run_on_pool(task, points, todo, finished, *, owned: int,
                 executor: cf.Executor | None) -> None:
    """Submit the points, at most :func:`_width` at a time, and collect them as they end.

    A future that fails lost its worker (the task's own exceptions are caught inside
    :func:`_run_point`). A process pool that breaks fails every point it holds, so the
    culprit is unknown: those points become suspects, run again one at a time. A loss
    that can be attributed (a suspect running alone, or an executor that fails one
    future, as Dask does for a lost worker) is a strike; a point's second strike records
    it as failed. So a point that kills its worker is retried once, alone, and an
    innocent neighbour is never failed for it. A broken pool of ours is replaced, and the
    replacement must first run a no-op and load the task (:func:`_check_fresh_workers`)
    before the strikes count: workers that cannot start are the harness's failure, raised
    as :class:`ExecutorError`, never stored as the points'. A caller's executor is not
    ours to replace, and when it breaks or refuses work the sweep stops (the store keeps
    what is done). ``owned`` is the size of our pool (0: use ``executor``).
    """
    pool = _local_pool(owned) if owned else executor
    width = _width(pool)
    queue = deque(todo)
    suspects: deque[int] = deque()
    losses: dict[int, int] = {}
    running: dict[cf.Future, int] = {}

    def lose(i: int, exc: BaseException) -> None:
        losses[i] = losses.get(i, 0) + 1
        if losses[i] >= 2:
            finished(i, ([], 0.0, f"{WORKER_DIED}: {_describe(exc)}"))
        else:
            suspects.append(i)

    def submit(i: int) -> None:
        try:
            running[pool.submit(_run_point, task, points[i])] = i
        except RuntimeError as exc:  # BrokenExecutor, or shut down
            raise ExecutorError(
                f"the executor refused work ({_describe(exc)}); the finished points are "
                "in the store: rerun with a working executor to compute the rest"
            ) from exc

    try:
        while queue or suspects or running:
            if suspects:
                if not running:
                    submit(suspects.popleft())
            else:
                while queue and len(running) < width:
                    submit(queue.popleft())
            alone = len(running) == 1
            done, _ = cf.wait(running, return_when=cf.FIRST_COMPLETED)
            if any(f.exception() is not None and isinstance(f.exception(), BrokenProcessPool)
                   for f in done):
                # A broken pool fails every future it holds: collect them all.
                done = cf.wait(running).done
            broken = False
            lost: list[tuple[int, BaseException]] = []
            for future in done:
                i = running.pop(future)
                exc = future.exception()
                if exc is None:
                    finished(i, future.result())
                elif isinstance(exc, BrokenProcessPool):
                    broken = True
                    if alone:
                        lost.append((i, exc))
                    else:
                        suspects.append(i)  # not attributable: run it alone, no strike
                else:  # the executor lost this point's worker
                    lost.append((i, exc))
            if broken:
                if not owned:
                    raise ExecutorError(_broken_pool_message())
                pool.shutdown(wait=True, cancel_futures=True)  # a broken pool's thread has ended
                pool = _local_pool(owned)
                _check_fresh_workers(pool, task)
            for i, exc in lost:
                lose(i, exc)
    except KeyboardInterrupt:
        for future in running:
            future.cancel()
        if owned:
            _terminate(pool)
        raise
    finally:
        if owned:
            pool.shutdown(wait=True, cancel_futures=True)


def _broken_pool_message() -> str:
    message = ("the executor's process pool broke (a worker died); the finished points are "
               "in the store: rerun with a working executor")
    call = _unguarded_script_call()
    if call is not None:
        message += (f". {os.path.basename(call[0])} calls md.sweep at its top level (line "
                    f"{call[1]}) and a spawned worker re-runs it: put the call under "
                    "`if __name__ == '__main__':`")
    return message


def _describe(exc: BaseException) -> str:
    text = str(exc)
    return f"{type(exc).__name__}: {text.splitlines()[0]}" if text else type(exc).__name__


def _width(pool: cf.Executor) -> int:
    """How many points to keep submitted: the pool's worker count (so that a broken
    process pool takes down only running points), or 2^10 for an executor that does not
    say (Dask queues them on its scheduler)."""
    workers = getattr(pool, "_max_workers", None)
    return int(workers) if isinstance(workers, int) and workers > 0 else 1024


def _terminate(pool: cf.ProcessPoolExecutor) -> None:
    """Stop a pool's workers now and join its manager thread before returning.

    Joining matters: a manager thread still running at interpreter exit races
    ``concurrent.futures``' own exit hook, which then writes to the pipe the thread has
    just closed and prints ``OSError: [Errno 9] Bad file descriptor`` (CPython 3.11) after
    our one-line interrupt message. With the workers terminated the thread sees them gone
    and ends at once."""
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.terminate()
    pool.shutdown(wait=True, cancel_futures=True)


# -- built-in tasks -----------------------------------------------------------------------


def _check_task_n(n: int, low: int = 2) -> int:
    return check_size(n, "n", TASK_MAX_N, low=low,
                      why="a task's prior and mechanism are dense arrays of this size")


def make_prior(prior: str, n: int, rep: int = 0) -> np.ndarray:
    """The built-in tasks' prior on ``n`` symbols: ``"uniform"``, ``"zipf"`` (exponent
    1.1, :func:`mechdesign.comparison.zipf_prior`) or ``"dirichlet"`` (a Dirichlet(1) draw seeded
    by ``(n, rep)``: the same prior for every ε and c of one repetition)."""
    n = _check_task_n(n, low=1)
    rep = check_int(rep, "rep", low=0)
    if prior == "uniform":
        return np.full(n, 1.0 / n)
    if prior == "zipf":
        return zipf_prior(n)
    if prior == "dirichlet":
        return np.random.default_rng((n, int(rep))).dirichlet(np.ones(n))
    raise InvalidInputError(f"prior must be one of {PRIORS}; got {show(prior)}.")


def _notion(notion: str, epsilon: float, n: int, c: float | None, prior: np.ndarray):
    epsilon = check_epsilon(epsilon)
    check_choice(notion, "notion", ("ldp", "pml", "pml-prior"))
    if c is not None and notion != "pml":
        raise InvalidInputError(f"c applies to notion='pml' only; got c = {show(c)} with "
                                f"notion={show(notion)}.")
    if notion == "ldp":
        return LDP(epsilon)
    if notion == "pml":
        return PML(epsilon, check_c(c, n) if c is not None else 1.0 / (2 * n))
    return PML(epsilon, prior=as_distribution(prior, "prior", n))


def design_task(
    notion: str,
    epsilon: float,
    n: int,
    prior: str = "uniform",
    rep: int = 0,
    c: float | None = None,
    objective: str = "mutual_information",
    method: str = "auto",
    gap: float = COLUMN_GENERATION_GAP,
    time_limit: float | None = None,
) -> Record:
    """Design the optimum under a notion at one grid point (:func:`mechdesign.optimal`).

    ``notion`` is ``"ldp"`` (ε-LDP), ``"pml"`` ((ε, c)-PML; ``c = 1/(2n)`` when None) or
    ``"pml-prior"`` (ε-PML for the prior itself); the prior is :func:`make_prior`;
    ``objective`` is the ``utility`` of :func:`mechdesign.optimal` (``"mutual_information"``
    or ``"bayes"``), named so that the record's ``utility`` column is the value reached.

    Returns the record ``utility``, ``privacy_level`` (the independent audit),
    ``audit_passed``, ``method``, ``status``, ``gap`` (upper − lower bound; 0 for a
    certified LP over every vertex), ``outputs``, ``design_seconds``.
    """
    n = _check_task_n(n)
    check_choice(objective, "objective", ("mutual_information", "bayes"))
    p = make_prior(prior, n, rep)
    result = design(_notion(notion, epsilon, n, c, p), p, utility=objective, method=method,
                    gap=gap, time_limit=time_limit, progress=False)
    summary = result.summary()
    return {
        "utility": float(result.utility),
        "privacy_level": float(result.privacy_level),
        "audit_passed": bool(result.audit_passed),
        "method": str(result.method),
        "status": str(result.status),
        "gap": float(summary.get("gap", 0.0)),
        "outputs": int(result.mechanism.n_outputs),
        "design_seconds": float(summary["seconds"]["total"]),
    }


#: The mechanism families :func:`measure_task` and :func:`envelope_task` build, by their
#: canonical names: the deployed protocols of :func:`mechdesign.compare` (GRR, OUE, SUE,
#: subset selection, OLH, Hadamard response, built exactly as ``compare`` builds them) and
#: the PML-extremal mechanism for the prior.
FAMILIES = ("grr", "oue", "sue", "subset_selection", "olh", "hadamard_response",
            "pml_extremal")

#: ``compare``'s name (:func:`mechdesign.comparison.deployed_protocols`) of each family.
_COMPARE_NAMES = {"grr": "GRR", "oue": "OUE", "sue": "SUE (RAPPOR)",
                  "subset_selection": "subset selection", "olh": "OLH",
                  "hadamard_response": "Hadamard response"}


def family_name(mechanism: object, name: str = "mechanism") -> str:
    """The canonical name (one of :data:`FAMILIES`) of a mechanism family.

    Accepted spellings: a name of :data:`FAMILIES`, ``compare``'s name of the same
    protocol (``"GRR"``, ``"SUE (RAPPOR)"``, ``"subset selection"``, ``"Hadamard
    response"``), and either with any case and with spaces or hyphens for underscores
    (``"subset-selection"``); ``"rappor"`` is SUE. Anything else raises
    :class:`~mechdesign.errors.InvalidInputError` naming ``name`` and the valid names.
    """
    if isinstance(mechanism, str):
        key = mechanism.lower().replace(" ", "_").replace("-", "_")
        key = {"sue_(rappor)": "sue", "rappor": "sue"}.get(key, key)
        if key in FAMILIES:
            return key
    raise InvalidInputError(
        f"{name} must be one of {', '.join(FAMILIES)} (any case; compare's names such as "
        f"'subset selection' too); got {show(mechanism)}."
    )


def _family(mechanism: str, epsilon: float, n: int, prior: np.ndarray):
    key = family_name(mechanism)
    if key == "pml_extremal":
        return pml_extremal_mechanism(epsilon, prior)
    return deployed_protocols(n, epsilon)[_COMPARE_NAMES[key]]()


def measure_task(mechanism: str, epsilon: float, n: int, prior: str = "uniform",
                 rep: int = 0, samples: int = 1000) -> Record:
    """Measure a mechanism family at one grid point: ``mutual_information`` (nats),
    ``bayes_vulnerability``, ``ldp_level``, ``pml_level`` (for the prior), ``mse`` (the
    expected squared ℓ2 error of the frequency estimate from ``samples`` reports,
    :func:`mechdesign.estimation_mse`) and ``outputs``. ``mechanism`` is one of
    :data:`FAMILIES` or another spelling :func:`family_name` accepts (``compare``'s
    names); anything else raises :class:`~mechdesign.errors.InvalidInputError` naming
    ``mechanism`` and the valid names."""
    n = _check_task_n(n)
    samples = check_int(samples, "samples", low=1)
    p = make_prior(prior, n, rep)
    k = _family(mechanism, check_epsilon(epsilon), n, p)
    return {
        "mutual_information": float(mutual_information(k, p)),
        "bayes_vulnerability": float(bayes_vulnerability(k, p)),
        "ldp_level": float(ldp_level(k)),
        "pml_level": float(pml_level(k, p)),
        "mse": float(estimation_mse(k, p, samples)),
        "outputs": int(k.n_outputs),
    }


def envelope_task(mechanism: str, epsilon: float, n: int, delta: float,
                  prior: str = "uniform", rep: int = 0) -> Record:
    """The PML envelope ε_c(δ) of a mechanism family at one δ
    (:func:`mechdesign.pml_envelope`): ``envelope`` (the certified value, nats),
    ``upper`` (the upper end of its bracket) and ``bad_mass``. ``mechanism`` is as for
    :func:`measure_task`."""
    n = _check_task_n(n)
    p = make_prior(prior, n, rep)
    envelope = pml_envelope(_family(mechanism, check_epsilon(epsilon), n, p), p, delta)
    return {"envelope": float(envelope), "upper": float(envelope.upper),
            "bad_mass": float(envelope.bad_mass)}


# -- the default figure -------------------------------------------------------------------


def plot_sweep(table: pd.DataFrame, x: str, y: str, *, over: str = "rep", ax: Any = None):
    """Plot ``y`` against ``x`` from a sweep table: one line per combination of the other
    axes that vary, the median over ``over`` (the repetitions) with the band between its
    25 % and 75 % quantiles. Failed rows (non-empty ``error``) are left out.

    Returns the matplotlib Axes (a new figure's when ``ax`` is None).
    """
    if not isinstance(table, pd.DataFrame):
        raise InvalidInputError(f"table must be a pandas DataFrame; got {type(table).__name__}.")
    for name, column in (("x", x), ("y", y), ("over", over)):
        if not isinstance(column, str) or (name != "over" and column not in table.columns):
            raise InvalidInputError(
                f"{name} must be a column of the table {list(table.columns)}; got {show(column)}."
            )
    if not pd.api.types.is_numeric_dtype(table[y]) or pd.api.types.is_bool_dtype(table[y]):
        raise InvalidInputError(f"y must be a numeric column; {y!r} holds {table[y].dtype}.")
    if ax is not None and not callable(getattr(ax, "plot", None)):
        raise InvalidInputError(f"ax must be a matplotlib Axes or None; got {show(ax)}.")
    ok = table[table["error"] == ""] if "error" in table.columns else table
    ok = ok[pd.to_numeric(ok[y], errors="coerce").notna()]
    ignored = {x, y, over, *RESERVED_COLUMNS}
    lines = [c for c in ok.columns if c not in ignored and ok[c].nunique(dropna=False) > 1
             and c in _axes_of(table)]
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(6.4, 4.2))
    groups = ok.groupby(lines, sort=True) if lines else [((), ok)]
    for key, group in groups:
        stats = group.groupby(x)[y].quantile([0.25, 0.5, 0.75]).unstack()
        key = key if isinstance(key, tuple) else (key,)
        label = ", ".join(f"{c}={v}" for c, v in zip(lines, key, strict=True)) or y
        (line,) = ax.plot(stats.index, stats[0.5], marker=".", label=label)
        if over in group.columns and group[over].nunique() > 1:
            ax.fill_between(stats.index, stats[0.25], stats[0.75], alpha=0.2,
                            color=line.get_color())
    ax.set_xlabel(x)
    ax.set_ylabel(y if over not in ok.columns or ok[over].nunique() <= 1
                  else f"{y} (median, 25–75 % band over {over})")
    ax.legend(fontsize="small")
    ax.grid(alpha=0.3)
    return ax


def _axes_of(table: pd.DataFrame) -> list[str]:
    """The table's axis columns: those before the first record column. Sweep tables keep
    the axes first; ``attrs["axes"]`` records them."""
    return list(table.attrs.get("axes", table.columns))
