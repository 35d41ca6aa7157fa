"""Estimation design at the sizes it targets, each beside its baseline from the same run.

Targets: ε-LDP, Zipf(1.1) prior, histogram, k = 32 certified in ≤ 2 min and
k = 128 in ≤ 10 min, peak memory ≤ 2 GB; the prefix workload at k = 64 in ≤ 10 min; and
the uniform-prior closed form (Ye and Barg) at k = 16, 32 and 64.

Rows, all ε = 1 and ``n·MSE`` against the users' histogram (``Design.utility``):

* uniform prior, histogram, k ∈ {16, 32, 64, 128}: ``method="auto"`` (solved by
  symmetry, :mod:`mechdesign.optimal.estimation.symmetry`) against Ye and Barg's closed
  form; baseline: ``method="column_generation"`` at k = 16 (the general path), whose
  seconds are the ratio's denominator.
* Zipf prior, histogram (and prefix), the given k with ``--time-limit`` seconds:
  column generation's certified bracket when it stops (``lower ≤ OPT ≤ upper``) and its
  relative width; the baseline is the same design at k = 16.

Peak memory is the process's maximum resident set (``resource.getrusage``) after the run.

Run: ``python benchmarks/estimation_targets.py [--zipf-k 32] [--prefix-k]
[--time-limit 120] [--table PATH|-]``; the tables go to
``docs/benchmarks/estimation_targets.md``.
"""

from __future__ import annotations

import argparse
import math
import resource
import time
from pathlib import Path

import numpy as np
import pandas as pd
import report

import mechdesign as md


def ye_barg(k: int, eps: float) -> float:
    """Subset selection's optimum at the uniform prior (IEEE T-IT 2018), i.i.d.
    convention, minus ``1 − 1/k`` (against the users' histogram)."""
    e = math.exp(eps)
    return min((k - 1) ** 2 * (d * e + k - d) ** 2 / (k * d * (k - d) * (e - 1) ** 2)
               for d in range(1, k)) - (1 - 1 / k)


def timed(notion, prior, **options):
    start = time.perf_counter()
    result = md.design(notion, prior, **options)
    return result, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--uniform-k", type=int, nargs="*", default=[16, 32, 64, 128])
    parser.add_argument("--zipf-k", type=int, nargs="*", default=[32])
    parser.add_argument("--prefix-k", type=int, nargs="*", default=[])
    parser.add_argument("--time-limit", type=float, default=120.0)
    parser.add_argument("--table", type=Path, default=report.DOCS / "estimation_targets.md",
                        help="where the markdown tables go ('-': nowhere)")
    args = parser.parse_args()
    eps = 1.0
    notion = md.LDP(eps)
    pd.set_option("display.width", 200)
    pd.set_option("display.float_format", lambda v: f"{v:.10g}")
    sections = report.Sections()

    base, base_seconds = timed(notion, np.full(16, 1 / 16), utility="mse",
                               method="column_generation")
    rows = [{"k": 16, "method": f"{base.method} (baseline)", "n·MSE": base.utility,
             "closed form": ye_barg(16, eps),
             "relative difference": abs(base.utility - ye_barg(16, eps)) / ye_barg(16, eps),
             "bracket width": base.estimation.gap, "outputs": base.mechanism.n_outputs,
             "seconds": base_seconds, "× baseline": 1.0}]
    for k in args.uniform_k:
        result, seconds = timed(notion, np.full(k, 1 / k), utility="mse")
        closed = ye_barg(k, eps)
        rows.append({"k": k, "method": result.method, "n·MSE": result.utility,
                     "closed form": closed,
                     "relative difference": abs(result.utility - closed) / closed,
                     "bracket width": result.estimation.gap,
                     "outputs": result.mechanism.n_outputs, "seconds": seconds,
                     "× baseline": seconds / base_seconds})
    sections.part("Uniform prior, histogram, ε = 1: method=\"auto\" (symmetry) against Ye "
                  "and Barg's closed form; baseline column generation at k = 16",
                  pd.DataFrame(rows))

    cases = [(k, None) for k in args.zipf_k] + [(k, "prefix") for k in args.prefix_k]
    rows = []
    for workload in dict.fromkeys(w for _, w in cases):
        error = md.EstimationError(workload)
        base, base_seconds = timed(notion, md.comparison.zipf_prior(16), utility=error,
                                   time_limit=args.time_limit)
        for k, result, seconds in [(16, base, base_seconds)] + [
                (k, *timed(notion, md.comparison.zipf_prior(k), utility=error,
                           time_limit=args.time_limit))
                for k in [k for k, w in cases if w == workload]]:
            estimation = result.estimation
            rows.append({"workload": workload or "histogram",
                         "k": f"{k} (baseline)" if result is base else k,
                         "lower": estimation.lower_bound, "upper": estimation.upper_bound,
                         "relative width": estimation.gap / max(result.utility, 1.0),
                         "status": str(estimation.status),
                         "stopped by": str(estimation.solver_status),
                         "rounds": estimation.rounds, "seconds": seconds,
                         "× baseline": seconds / base_seconds})
    if rows:
        sections.part(f"Zipf(1.1) prior, ε = 1, column generation, time limit "
                      f"{args.time_limit:g} s; baseline the same design at k = 16",
                      pd.DataFrame(rows))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux
    sections.part("Memory", text=f"Peak resident memory of the run: {peak:.0f} MB.")
    sections.write(args.table, report.title(__doc__), "the baseline of each part")


if __name__ == "__main__":
    main()
