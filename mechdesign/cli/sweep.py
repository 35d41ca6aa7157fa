"""``mechdesign sweep``: a built-in task over a grid (:func:`mechdesign.sweep`), resumable,
on local processes or a Dask cluster."""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Any

import numpy as np

from mechdesign.cli.inputs import (
    CLI_MAX_N,
    SWEEP_DEFAULT_MECHANISMS,
    SWEEP_MECHANISMS,
    prior_spec,
)
from mechdesign.errors import InvalidInputError, UnsupportedError

__all__ = ["SWEEP_TASKS", "add_sweep"]


#: The built-in sweep tasks of ``mechdesign sweep --task``, with the column the default
#: figure plots.
SWEEP_TASKS = {"design": "utility", "measure": "mutual_information", "envelope": "envelope"}


def _axis(text: str, name: str, kind: type) -> list[Any]:
    """An axis from the command line: ``a:b:k`` (k values from a to b, evenly spaced) or
    a comma-separated list."""
    try:
        if ":" in text and kind is float:
            start, stop, count = text.split(":")
            count = int(count)
            if count < 1:
                raise ValueError
            values = np.linspace(float(start), float(stop), count).tolist()
        else:
            values = [kind(v) for v in text.split(",")]
    except ValueError as exc:
        raise InvalidInputError(
            f"--{name} must be a comma-separated list of {kind.__name__}s or start:stop:count; "
            f"got {text!r}."
        ) from exc
    if any(isinstance(v, float) and not math.isfinite(v) for v in values):
        raise InvalidInputError(f"--{name} values must be finite; got {text!r}.")
    return values


def _sweep_grid(args: argparse.Namespace) -> dict[str, list[Any]]:
    grid: dict[str, list[Any]] = {}
    grid["epsilon"] = _axis(args.epsilon, "epsilon", float)
    grid["n"] = _axis(args.n, "n", int)
    for n in grid["n"]:
        if not 2 <= n <= CLI_MAX_N:
            raise InvalidInputError(f"--n values must be between 2 and {CLI_MAX_N}; got {n}.")
    if args.task == "design":
        if args.mechanism is not None:
            raise InvalidInputError(
                "--mechanism applies to --task measure and --task envelope; --task design "
                "designs the optimum under --notion."
            )
        grid["notion"] = [args.notion]
        if args.c is not None:
            grid["c"] = _axis(args.c, "c", float)
        grid["objective"] = ["bayes" if args.utility == "bayes" else "mutual_information"]
    else:
        from mechdesign.sweeps import family_name

        # Every name is checked (and made canonical, so that spellings share stored
        # points) before any point runs: a misspelt family is a usage error, not a row.
        names = SWEEP_DEFAULT_MECHANISMS if args.mechanism is None else args.mechanism.split(",")
        grid["mechanism"] = list(dict.fromkeys(family_name(name.strip(), "--mechanism")
                                               for name in names))
        if args.task == "envelope":
            if args.delta is None:
                raise InvalidInputError("--delta is required with --task envelope.")
            grid["delta"] = _axis(args.delta, "delta", float)
    kind, count = prior_spec(args.prior, sweep=True)
    grid["prior"] = [kind]
    grid["rep"] = list(range(count))
    return grid


def _sweep_executor(args: argparse.Namespace) -> Any:
    if args.scheduler:
        try:
            from distributed import Client
        except ImportError as exc:
            raise UnsupportedError(
                "--scheduler needs Dask distributed: pip install \"mechdesign[distributed]\"."
            ) from exc
        try:
            return Client(args.scheduler, timeout=30)
        except (OSError, TimeoutError, ValueError) as exc:
            raise InvalidInputError(
                f"--scheduler: cannot reach the Dask scheduler at {args.scheduler!r} ({exc})."
            ) from exc
    if args.workers is not None and args.workers < 1:
        raise InvalidInputError(f"--workers must be at least 1; got {args.workers}.")
    if args.workers == 1:
        return "serial"
    return "processes" if args.workers is None else args.workers


def _cmd_sweep(args: argparse.Namespace) -> int:
    from mechdesign.reproduce._plot import pyplot, save
    from mechdesign.sweeps import design_task, envelope_task, measure_task, plot_sweep, sweep

    grid = _sweep_grid(args)
    task = {"design": design_task, "measure": measure_task,
            "envelope": envelope_task}[args.task]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    client = _sweep_executor(args)
    executor = client.get_executor() if hasattr(client, "get_executor") else client
    points = math.prod(len(v) for v in grid.values())
    print(f"mechdesign sweep: {args.task} over {points} points into {out}/ "
          f"(store {out / 'sweep.sqlite'}: a rerun computes only the missing points)",
          file=sys.stderr)
    try:
        table = sweep(task, grid, store=out / "sweep.sqlite", executor=executor,
                             progress=not args.quiet, retry_failed=args.retry_failed)
    finally:
        if hasattr(client, "close"):  # a Dask client
            client.close()
    table.to_csv(out / "sweep.csv", index=False)
    y = SWEEP_TASKS[args.task]
    failed = int((table["error"] != "").sum())
    if y in table.columns and failed < len(table):
        plt = pyplot()
        fig, ax = plt.subplots(figsize=(7, 4.5))
        plot_sweep(table, "epsilon", y, ax=ax)
        ax.set_title(f"mechdesign sweep --task {args.task}")
        fig.tight_layout()
        save(fig, out / "sweep.png")
    print(f"{len(table)} rows ({failed} failed) -> {out / 'sweep.csv'}"
          + (f", {out / 'sweep.png'}" if (out / "sweep.png").exists() else ""))
    if failed:
        first = table.loc[table["error"] != "", "error"].iloc[0]
        print(f"first failure: {first}", file=sys.stderr)
    return 0


def add_sweep(sub: argparse._SubParsersAction) -> None:
    """Add ``mechdesign sweep`` to the subcommands ``sub`` of the parser.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The parser's subcommands (``parser.add_subparsers()``).
    """
    swp = sub.add_parser(
        "sweep", help="run a built-in task over a grid; resumable, local processes or Dask"
    )
    swp.add_argument("--task", choices=list(SWEEP_TASKS), default="design",
                     help="design an optimum (default), measure a mechanism family, or its "
                          "PML envelope")
    swp.add_argument("--notion", choices=["ldp", "pml", "pml-prior"], default="ldp",
                     help="design: the notion (pml: (ε,c)-PML, c = 1/(2N) unless --c)")
    swp.add_argument("--epsilon", required=True,
                     help="ε values: a,b,c or start:stop:count (e.g. 0.1:5:50)")
    swp.add_argument("--n", required=True, help="input sizes, e.g. 4,8,16")
    swp.add_argument("--c", help="design --notion pml: c values (comma-separated)")
    swp.add_argument("--utility", choices=["mi", "bayes"], default="mi",
                     help="design: mutual information (default) or Bayes vulnerability")
    swp.add_argument("--mechanism",
                     help="measure/envelope: comma-separated families of "
                          f"{', '.join(SWEEP_MECHANISMS)} (any case; compare's names such "
                          "as 'subset selection' or 'Hadamard response' too; default "
                          f"{','.join(SWEEP_DEFAULT_MECHANISMS)})")
    swp.add_argument("--delta", help="envelope: δ values (comma-separated or start:stop:count)")
    swp.add_argument("--prior", default="uniform",
                     help="uniform (default), zipf (exponent 1.1), or dirichlet:R for R "
                          "Dirichlet(1) priors (no file: a sweep varies N)")
    swp.add_argument("--out", type=Path, required=True,
                     help="folder for sweep.csv, sweep.png and the store sweep.sqlite")
    swp.add_argument("--scheduler", help="a Dask scheduler address, e.g. tcp://host:8786")
    swp.add_argument("--workers", type=int,
                     help="local processes (default: every core; 1 runs in this process)")
    swp.add_argument("--retry-failed", action="store_true",
                     help="recompute the points whose stored row is a failure")
    swp.add_argument("--quiet", action="store_true", help="no progress bar")
    swp.set_defaults(handler=_cmd_sweep)
