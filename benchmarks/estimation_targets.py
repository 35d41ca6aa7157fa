"""Estimation design: the issue's targets, each beside its baseline from the same run.

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
[--time-limit 120]``.
"""

from __future__ import annotations

import argparse
import math
import resource
import time

import numpy as np

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
    args = parser.parse_args()
    eps = 1.0
    notion = md.LDP(eps)

    print("uniform prior, histogram (auto = symmetry); baseline column generation at k = 16")
    base, base_seconds = timed(notion, np.full(16, 1 / 16), utility="mse",
                               method="column_generation")
    print(f"  baseline k = 16 column generation: {base.utility:.10g} in {base_seconds:.2f} s "
          f"({base.estimation.status})")
    for k in args.uniform_k:
        result, seconds = timed(notion, np.full(k, 1 / k), utility="mse")
        closed = ye_barg(k, eps)
        print(f"  k = {k:4d} {result.method}: {result.utility:.10g} vs closed form "
              f"{closed:.10g} (rel. diff {abs(result.utility - closed) / closed:.1e}), "
              f"bracket width {result.estimation.gap:.1e}, {result.mechanism.n_outputs} "
              f"outputs, {seconds:.2f} s = ×{seconds / base_seconds:.2f} the baseline")

    cases = [(k, None) for k in args.zipf_k] + [(k, "prefix") for k in args.prefix_k]
    if cases:
        print(f"Zipf(1.1) prior, column generation, time limit {args.time_limit:g} s; "
              "baseline the same design at k = 16")
    for workload in dict.fromkeys(w for _, w in cases):
        error = md.EstimationError(workload)
        base, base_seconds = timed(notion, md.comparison.zipf_prior(16), utility=error,
                                   time_limit=args.time_limit)
        print(f"  {workload or 'histogram'} k = 16 (baseline): {base.utility:.8g}, "
              f"{base.estimation.status}, {base_seconds:.1f} s")
        for k in [k for k, w in cases if w == workload]:
            result, seconds = timed(notion, md.comparison.zipf_prior(k), utility=error,
                                    time_limit=args.time_limit)
            report = result.estimation
            width = report.gap / max(result.utility, 1.0)
            print(f"  {workload or 'histogram'} k = {k}: bracket [{report.lower_bound:.8g}, "
                  f"{report.upper_bound:.8g}] (relative width {width:.1e}), "
                  f"{report.status}, stopped by {report.solver_status!r} after "
                  f"{report.rounds} rounds, {seconds:.1f} s = ×{seconds / base_seconds:.1f} "
                  "the baseline")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux
    print(f"peak resident memory: {peak:.0f} MB")


if __name__ == "__main__":
    main()
