"""Where a sweep's points run: serially, on a pool of local processes, or on any
:class:`concurrent.futures.Executor` a caller gives (Dask for clusters).

Execution
    Any :class:`concurrent.futures.Executor`. The default is local processes on the
    machine's cores (``spawn`` start method: the task must be importable, i.e. defined in
    a module, not in a notebook cell; pass ``executor="serial"`` to run in this process).
    For a cluster, Dask distributed: ``executor=distributed.Client(address).get_executor()``;
    nothing here is specific to Dask.
Plain scripts
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
    ``error`` (:func:`~mechdesign.sweeps.points.run_point`); the other points go on. A
    worker that dies (a segfault, the out-of-memory killer, a lost Dask worker) loses only
    the points it was running: those are run again, one at a time, and a point that kills
    its worker a second time is recorded as failed (``"worker died twice: ..."``). A loss
    counts against a point only after a fresh pool of ours has run a no-op and loaded the
    task: workers that die before running any point are the harness's failure, not the
    points', and stop the sweep with :class:`~mechdesign.errors.ExecutorError` naming the
    cause, storing nothing for the points that did not run.
"""

from __future__ import annotations

import ast
import concurrent.futures as cf
import functools
import linecache
import multiprocessing
import os
import signal
import sys
import threading
import warnings
from collections import deque
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.reduction import ForkingPickler
from numbers import Integral
from types import FrameType
from typing import Any

from mechdesign._validation import check_positive_int, show
from mechdesign.errors import ExecutorError, InvalidInputError
from mechdesign.sweeps.points import describe_error, run_point, task_name
from mechdesign.sweeps.store import WORKER_DIED

__all__ = [
    "THREAD_VARIABLES",
    "SerialFallbackWarning",
    "execute",
    "refuse_in_starting_worker",
    "worker_pool",
]


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
    does for joblib), and that ignores Ctrl-C from its first instruction: the parent
    ignores SIGINT while it starts the child, an ignored signal stays ignored across
    ``exec``, and Python installs its KeyboardInterrupt handler only over the default
    one. (The pool's initializer alone leaves a window: a Ctrl-C that reaches a worker
    still starting printed its KeyboardInterrupt traceback.) The parent's environment
    and handler are restored once the child has started."""

    def start(self) -> None:
        unset = [name for name in THREAD_VARIABLES if name not in os.environ]
        os.environ.update(dict.fromkeys(unset, "1"))
        # signal.signal works in the main thread only; elsewhere the initializer acts.
        main = threading.current_thread() is threading.main_thread()
        handler = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
        try:
            super().start()
        finally:
            if main:
                signal.signal(signal.SIGINT, handler)
            for name in unset:
                os.environ.pop(name, None)


class _OneThreadContext(type(multiprocessing.get_context("spawn"))):  # type: ignore[misc]
    Process = _OneThreadProcess


def worker_pool(workers: int) -> cf.ProcessPoolExecutor:
    """A pool of ``workers`` spawned processes, each with one BLAS/OpenMP thread and
    deaf to Ctrl-C (the parent stops them): the pool behind local sweeps, and any other
    process pool of the package."""
    return cf.ProcessPoolExecutor(workers, mp_context=_OneThreadContext(),
                                  initializer=_ignore_interrupt)


class SerialFallbackWarning(UserWarning):
    """A sweep asked to run on local processes ran serially in this process instead,
    because the processes could not run it (the message says why and how to fix it).

    A :class:`UserWarning`: it reports how the caller's script is written, and the results
    are unaffected."""


#: The scripts already warned about in this process: one warning per script, not one per
#: sweep it runs (the tour's block in docs/tour.md runs two). A task's warning is left to
#: the warnings filters (by default once per calling line).
_WARNED: set[str] = set()


def execute(task, points, todo, executor, finished) -> None:
    """Run the points ``todo`` (indices into ``points``) of ``task`` on ``executor`` (as
    :func:`~mechdesign.sweeps.run.sweep` takes it), calling ``finished(i, outcome)`` for
    each as it ends; a pool of ours that processes cannot run falls back to this process
    with a :class:`SerialFallbackWarning`.

    Parameters
    ----------
    task : callable
        The sweep's task.
    points : list of dict
        The grid's points.
    todo : list of int
        The indices of the points to run.
    executor : concurrent.futures.Executor, int, str or None
        As :func:`~mechdesign.sweeps.run.sweep` takes it.
    finished : callable
        Called as ``finished(i, (records, seconds, error))`` when point ``i`` ends.
    """
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
        finished(i, run_point(task, points[i]))


# -- plain scripts: what a spawned worker would do with this call ---------------------------


def _starting_worker() -> bool:
    """True in a worker process that multiprocessing is starting, while it re-imports the
    parent's main module (spawn/forkserver set ``_inheriting`` on the current process for
    exactly that span, and multiprocessing's own bootstrapping check reads the same flag;
    :func:`multiprocessing.parent_process` is still None then: it is set afterwards)."""
    return bool(getattr(multiprocessing.current_process(), "_inheriting", False))


def refuse_in_starting_worker(executor: object) -> None:
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

    Parameters
    ----------
    executor : object
        The sweep's ``executor`` argument.
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
            f"the task {task_name(task)} is defined in the __main__ of an interactive "
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
            f"the task {task_name(task)} cannot be sent to worker processes (it does not "
            f"pickle: {describe_error(exc)}); define it at the top level of a module to run it "
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
            f"the sweep's worker processes die loading the task {task_name(task)}, before "
            "running any point (no point was stored as failed): define the task in a "
            "module the workers can import, or pass executor='serial'."
        ) from None


def _run_on_pool(task, points, todo, finished, *, owned: int,
                 executor: cf.Executor | None) -> None:
    """Submit the points, at most :func:`_width` at a time, and collect them as they end.

    A future that fails lost its worker (the task's own exceptions are caught inside
    :func:`~mechdesign.sweeps.points.run_point`). A process pool that breaks fails every
    point it holds, so the culprit is unknown: those points become suspects, run again one
    at a time. A loss that can be attributed (a suspect running alone, or an executor that
    fails one future, as Dask does for a lost worker) is a strike; a point's second strike
    records it as failed. So a point that kills its worker is retried once, alone, and an
    innocent neighbour is never failed for it. A broken pool of ours is replaced, and the
    replacement must first run a no-op and load the task (:func:`_check_fresh_workers`)
    before the strikes count: workers that cannot start are the harness's failure, raised
    as :class:`ExecutorError`, never stored as the points'. A caller's executor is not
    ours to replace, and when it breaks or refuses work the sweep stops (the store keeps
    what is done). ``owned`` is the size of our pool (0: use ``executor``).
    """
    pool = worker_pool(owned) if owned else executor
    width = _width(pool)
    queue = deque(todo)
    suspects: deque[int] = deque()
    losses: dict[int, int] = {}
    running: dict[cf.Future, int] = {}

    def lose(i: int, exc: BaseException) -> None:
        losses[i] = losses.get(i, 0) + 1
        if losses[i] >= 2:
            finished(i, ([], 0.0, f"{WORKER_DIED}: {describe_error(exc)}"))
        else:
            suspects.append(i)

    def submit(i: int) -> None:
        try:
            running[pool.submit(run_point, task, points[i])] = i
        except RuntimeError as exc:  # BrokenExecutor, or shut down
            raise ExecutorError(
                f"the executor refused work ({describe_error(exc)}); the finished points are "
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
                pool = worker_pool(owned)
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
