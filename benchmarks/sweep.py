"""What md.sweep costs and gains: local processes against serial on a design sweep, and
the store's overhead per point.

1. A design sweep ((ε, 1/(2N))-PML optima for mutual information, N = 14, ε ∈ {0.5,
   1, 2, 3}, Dirichlet(1) priors; a quarter of a second a design): serially in this
   process (the baseline), then on local processes (every core). Prints both wall-clock
   times and the speed-up; checks that the two tables are equal.
2. The store: a sweep of a task that costs nothing (``dobrushin_bound``) over 2,000
   points serially, without a store (baseline) and with one (each point committed to
   SQLite as it finishes), then the rerun that reads every point from the store. Prints
   the overhead per point.

Run: ``python benchmarks/sweep.py [--reps 6] [--points 2000] [--table PATH|-]``; the
tables go to ``docs/benchmarks/sweep.md``.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import pandas as pd
import report

import mechdesign as md


def timed(function, *args, **kwargs):
    start = time.perf_counter()
    result = function(*args, **kwargs)
    return result, time.perf_counter() - start


def design_speedup(reps: int) -> tuple[str, pd.DataFrame, str]:
    grid = {"notion": ["pml"], "epsilon": [0.5, 1.0, 2.0, 3.0], "n": [14],
            "prior": ["dirichlet"], "rep": list(range(reps))}
    points = 4 * reps
    serial, t_serial = timed(md.sweep, md.sweeps.design_task, grid, executor="serial",
                             progress=False)
    processes, t_processes = timed(md.sweep, md.sweeps.design_task, grid, progress=False)
    volatile = ["seconds", "design_seconds"]
    pd.testing.assert_frame_equal(serial.drop(columns=volatile),
                                  processes.drop(columns=volatile), check_exact=True)
    table = pd.DataFrame({"executor": ["serial (baseline)", "local processes"],
                          "seconds": [t_serial, t_processes],
                          "seconds per point": [t_serial / points, t_processes / points],
                          "speed-up": [1.0, t_serial / t_processes]})
    return (f"1. design sweep, {points} points ((ε, 1/(2N))-PML, N = 14), "
            f"{os.cpu_count()} cores", table,
            f"The local processes' time includes starting the workers. Tables equal: yes; "
            f"all certified: {'yes' if serial['audit_passed'].all() else 'NO'}.")


def store_overhead(points: int) -> tuple[str, pd.DataFrame, str]:
    grid = {"epsilon": [0.5 + i / points for i in range(points)], "c": [0.05], "n": [8]}
    plain, t_plain = timed(md.sweep, md.dobrushin_bound, grid, executor="serial",
                           progress=False)
    with tempfile.TemporaryDirectory() as folder:
        store = Path(folder) / "store.sqlite"
        first, t_store = timed(md.sweep, md.dobrushin_bound, grid, executor="serial",
                               store=store, progress=False)
        again, t_read = timed(md.sweep, md.dobrushin_bound, grid, executor="serial",
                              store=store, progress=False)
    pd.testing.assert_frame_equal(plain.drop(columns="seconds"),
                                  first.drop(columns="seconds"), check_exact=True)
    pd.testing.assert_frame_equal(first, again, check_exact=True)
    per = (t_store - t_plain) / points * 1e3
    table = pd.DataFrame({"run": ["no store (baseline)", "store, computing",
                                  "store, rerun (reads)"],
                          "seconds": [t_plain, t_store, t_read],
                          "ms per point": [t_plain / points * 1e3, t_store / points * 1e3,
                                           t_read / points * 1e3]})
    return (f"2. store overhead, {points} points of a task that costs nothing (serial)",
            table, f"The store adds {per:.2f} ms per point (one SQLite commit each).")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=6, help="Dirichlet priors per (ε, N)")
    parser.add_argument("--points", type=int, default=2000, help="points of the store test")
    parser.add_argument("--table", type=Path, default=report.DOCS / "sweep.md",
                        help="where the markdown tables go ('-': nowhere)")
    args = parser.parse_args()
    pd.set_option("display.float_format", lambda v: f"{v:.4g}")
    sections = report.Sections()
    sections.part(*design_speedup(args.reps))
    sections.part(*store_overhead(args.points))
    sections.write(args.table, report.title(__doc__),
                   "a serial sweep and a sweep without a store")


if __name__ == "__main__":
    main()
