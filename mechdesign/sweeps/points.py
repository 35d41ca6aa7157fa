"""What a sweep computes: the points of a grid, their keys, the task's records and the
table (:func:`~mechdesign.sweeps.run.sweep` puts them together).

A grid is a dict of named axes (their Cartesian product, first axis slowest) or a list of
point dicts; its values are plain JSON (numbers, strings, booleans, None, tuples). A point
is keyed by the SHA-256 of the task's qualified name, the point and the mechdesign
version (the store's key, :mod:`mechdesign.sweeps.store`). A task returns a number, a
flat record or a list of records; anything else, and any exception it raises, becomes the
point's ``error`` (``"TypeName: message"``) while the other points go on.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from numbers import Integral, Real
from typing import Any

import numpy as np
import pandas as pd

from mechdesign._validation import show
from mechdesign.errors import InvalidInputError

__all__ = [
    "RESERVED_COLUMNS",
    "Record",
    "Scalar",
    "describe_error",
    "grid_points",
    "mechdesign_version",
    "point_key",
    "run_point",
    "sweep_table",
    "task_name",
]

#: Columns every sweep table has besides the axes; a task's record may not use them.
RESERVED_COLUMNS = ("seconds", "error")

Scalar = int | float | str | bool | None
Record = dict[str, Scalar]


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


def grid_points(grid: object) -> list[dict[str, Any]]:
    """The points of ``grid`` (a dict of axes, first axis slowest, or a list of point
    dicts) with plain values, or :class:`~mechdesign.errors.InvalidInputError` naming the
    axis or point at fault.

    Parameters
    ----------
    grid : dict or list
        The grid :func:`~mechdesign.sweeps.run.sweep` takes.
    """
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


def task_name(task: Callable[..., Any]) -> str:
    """``module.qualname`` (with the point and the version, the store's key); for a
    :func:`functools.partial`, the function's name with the ``repr`` of the arguments it
    binds (so that a partial over other settings is another task). A built-in task of
    :mod:`mechdesign.sweeps` is named by its public path.

    Parameters
    ----------
    task : callable
        A function, a callable object or a :func:`functools.partial`.
    """
    if isinstance(task, functools.partial):
        bound = [repr(a) for a in task.args]
        bound += [f"{k}={v!r}" for k, v in sorted(task.keywords.items())]
        return f"{task_name(task.func)}({', '.join(bound)})"
    module = getattr(task, "__module__", None) or type(task).__module__
    qualname = getattr(task, "__qualname__", None) or type(task).__qualname__
    package = module.rpartition(".")[0]
    if package == "mechdesign.sweeps" and qualname in getattr(sys.modules.get(package),
                                                              "__all__", ()):
        # A built-in task is named by its public path (mechdesign.sweeps.design_task),
        # whichever file defines it: a store outlives the package's internal layout.
        module = package
    return f"{module}.{qualname}"


def mechdesign_version() -> str:
    """The installed mechdesign version, part of every point's key (``"unknown"`` for a
    source tree that is not installed)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("mechdesign")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "unknown"


def point_key(name: str, point: Mapping[str, Any]) -> str:
    """The store's key of a point: the SHA-256 of the task's name, the point and the
    version, as canonical JSON.

    Parameters
    ----------
    name : str
        The task's name (:func:`task_name`).
    point : dict
        The point's plain values.
    """
    text = json.dumps({"task": name, "point": point, "version": mechdesign_version()},
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


def run_point(task: Callable[..., Any], point: dict[str, Any]) -> tuple[list[Record], float, str]:
    """One point in a worker: ``(records, seconds, error)``; the task's exceptions are
    caught here and become the error (the other points go on).

    Parameters
    ----------
    task : callable
        The sweep's task.
    point : dict
        Its keyword arguments at this point.
    """
    start = time.perf_counter()
    try:
        records = _records(task(**point))
        overlap = sorted({c for r in records for c in r} & set(point))
        if overlap:
            raise TypeError(f"the task's record repeats the point's column(s) {overlap}")
        return records, time.perf_counter() - start, ""
    except Exception as exc:  # a failed point is a row, by design
        return [], time.perf_counter() - start, describe_error(exc)


def sweep_table(points: list[dict[str, Any]],
                results: list[tuple[list[Record], float, str]]) -> pd.DataFrame:
    """The sweep's table: one row per record (a failed point's row has no record
    columns), the axes first, then the records' columns, ``seconds`` and ``error``; the
    axes are kept in ``attrs["axes"]``.

    Parameters
    ----------
    points : list of dict
        The grid's points, in grid order.
    results : list of tuple
        Each point's ``(records, seconds, error)``, in the same order.
    """
    rows = []
    for point, (records, seconds, error) in zip(points, results, strict=True):
        for record in records or [{}]:
            rows.append({**point, **record, "seconds": seconds, "error": error})
    frame = pd.DataFrame(rows)
    columns = [c for c in frame.columns if c not in RESERVED_COLUMNS] + list(RESERVED_COLUMNS)
    frame = frame[columns]
    frame.attrs["axes"] = list(dict.fromkeys(axis for point in points for axis in point))
    return frame


def describe_error(exc: BaseException) -> str:
    """How a failure reads in the table: ``"TypeName: first line of the message"``.

    Parameters
    ----------
    exc : BaseException
        The failure.
    """
    text = str(exc)
    return f"{type(exc).__name__}: {text.splitlines()[0]}" if text else type(exc).__name__
