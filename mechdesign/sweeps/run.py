"""The sweep itself: ``sweep(task, grid)`` calls ``task(**point)`` for every point of the
grid and returns a tidy :class:`pandas.DataFrame`, one row per point (per record, for a
task returning several), with the point's parameters, the task's record, ``seconds`` and
``error``.

It puts the package's pieces together: the grid's points and their keys
(:mod:`~mechdesign.sweeps.points`), the store (:mod:`~mechdesign.sweeps.store`) and the
executor (:mod:`~mechdesign.sweeps.pool`).
"""

from __future__ import annotations

import concurrent.futures as cf
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal

import pandas as pd
from tqdm.auto import tqdm

from mechdesign._validation import check_bool, show
from mechdesign.errors import InvalidInputError
from mechdesign.sweeps.points import Record, grid_points, point_key, sweep_table, task_name
from mechdesign.sweeps.pool import execute, refuse_in_starting_worker
from mechdesign.sweeps.store import WORKER_DIED, SweepStore

__all__ = ["sweep"]


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
        serially here with one
        :class:`~mechdesign.sweeps.pool.SerialFallbackWarning` naming the fix.
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
    refuse_in_starting_worker(executor)
    points = grid_points(grid)
    name = task_name(task)
    keys = [point_key(name, point) for point in points]
    done: dict[str, tuple[list[Record], float, str]] = {}
    database = SweepStore(store) if store is not None else None
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
            execute(task, points, todo, executor, finished)
    finally:
        bar.close()
        if database is not None:
            database.close()
    return sweep_table(points, [results[i] for i in range(len(points))])
