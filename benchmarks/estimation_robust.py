"""Estimation design at the ε a shuffler allows and at larger k: each instance run with
today's code and with a baseline revision, one after the other in this run.

Instances (ε-LDP, Zipf(1.1) prior, ``utility=EstimationError(workload)``, ``time_limit``
seconds): k = 40 histogram and prefix at ε ∈ {0.5, 1, 2, 4, 7.761092185974121}, k = 128
histogram at ε ∈ {1, 4}, k = 1,000 histogram at ε = 2; one-way marginals (a workload of
rank below k) of 2 × 2 × 2 and 5 × 8 at ε ∈ {1, 4}; and the worst case over input
distributions at k = 40, ε ∈ {1, 2, 4}, next to subset selection's and OUE's worst case
with their standard estimators (each protocol's error at its worst point mass).

Each row: the certified bracket ``[lower, upper]`` on ``n·MSE`` per report against the
users' histogram, its relative width, which bound certifies the lower end, the seconds,
the peak memory of its process (``resource.getrusage``; every instance runs in a fresh
subprocess), and the same for the baseline (``--baseline REV``, default 8652adc: the
code before the bounds of ``mechdesign/optimal/estimation/bounds.py``), whose failures
are reported as they happened.

A run still going at ``1.5 × time_limit + 30`` seconds is stopped and reported as not
having kept its limit.

Run: ``python benchmarks/estimation_robust.py [--baseline 8652adc] [--time-limit 60]
[--large-time-limit 180] [--quick] [--out docs/benchmarks/estimation_robust.md]``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import report
from scale import ROOT, baseline_worktree  # the same worktree of a revision

#: One instance in a subprocess: prints one JSON line.
INSTANCE = r"""
import json, resource, sys, time
import numpy as np
import mechdesign as md
k, eps, workload, limit = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3], float(sys.argv[4])
worst = workload.startswith("worst-case ")
name = workload.removeprefix("worst-case ")
start = time.perf_counter()
try:
    if worst:
        error = md.EstimationError(None if name == "histogram" else name, worst_case=True,
                                   inputs=k)
        d = md.design(md.LDP(eps), None, utility=error, time_limit=limit)
    else:
        if name.startswith("marginals "):  # e.g. "marginals 5x8": one-way, shape (5, 8)
            shape = tuple(int(size) for size in name.split()[1].split("x"))
            error = md.EstimationError("marginals", shape=shape)
        else:
            error = md.EstimationError(None if name == "histogram" else name)
        d = md.design(md.LDP(eps), md.comparison.zipf_prior(k), utility=error,
                      time_limit=limit)
    r = d.estimation
    out = {"upper": d.utility, "lower": r.lower_bound, "status": str(r.status),
           "stopped": r.solver_status, "bound": getattr(r, "lower_bound_source", "")}
except Exception as exc:  # reported as it happened
    out = {"error": f"{type(exc).__name__}: {str(exc)[:90]}"}
out["seconds"] = time.perf_counter() - start
out["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
out["module"] = md.__file__
print(json.dumps(out))
"""


def run(folder: Path, k: int, eps: float, workload: str, limit: float, timeout: float):
    """One instance with the code in ``folder`` (:func:`report.run_instance`)."""
    return report.run_instance(folder, INSTANCE, [str(k), repr(eps), workload, repr(limit)],
                               timeout)


def cell(result: dict) -> str:
    if "error" in result:
        return f"{result['error']} ({result.get('seconds', float('nan')):.0f} s)"
    width = (result["upper"] - result["lower"]) / max(abs(result["upper"]), 1e-300)
    return (f"[{result['lower']:.6g}, {result['upper']:.6g}] rel. {width:.1e}, "
            f"{result['seconds']:.0f} s, {result['peak_mb']:.0f} MB")


def protocols_worst_case(k: int, eps: float) -> str:
    sys.path.insert(0, str(ROOT))
    import numpy as np

    from mechdesign.mechanisms.oracles import PureOracle

    cells = []
    for oracle in (PureOracle.subset(k, eps), PureOracle.unary(k, eps)):
        worst = max(oracle.mse(np.eye(k)[x], 1) for x in range(k))
        cells.append(f"{oracle.protocol}: {worst:.6g}")
    return "; ".join(cells)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", default="8652adc")
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--large-time-limit", type=float, default=180.0)
    parser.add_argument("--quick", action="store_true", help="k = 40 histogram only")
    parser.add_argument("--out", type=Path, default=report.DOCS / "estimation_robust.md")
    args = parser.parse_args()
    base = baseline_worktree(args.baseline)
    shuffler = 7.761092185974121
    cases = [(40, eps, "histogram", args.time_limit) for eps in (0.5, 1, 2, 4, shuffler)]
    if not args.quick:
        cases += [(40, eps, "prefix", args.time_limit) for eps in (0.5, 1, 2, 4, shuffler)]
        cases += [(128, eps, "histogram", args.large_time_limit) for eps in (1, 4)]
        cases += [(1000, 2.0, "histogram", args.large_time_limit)]
        cases += [(8, eps, "marginals 2x2x2", args.time_limit) for eps in (1, 4)]
        cases += [(40, eps, "marginals 5x8", args.time_limit) for eps in (1, 4)]
    cases += [(40, eps, "worst-case histogram", args.time_limit) for eps in (1, 2, 4)]
    lines = ["| k | ε | workload | today | baseline " + args.baseline + " |",
             "|---|---|---|---|---|"]
    for k, eps, workload, limit in cases:
        timeout = 1.5 * limit + 30  # a run past it did not keep its time limit
        today = run(ROOT, k, eps, workload, limit, timeout)
        if workload.startswith("worst-case"):
            then = protocols_worst_case(k, eps) + " (the baseline has no worst case)"
        else:
            then = cell(run(base, k, eps, workload, limit, timeout))
        line = (f"| {k} | {eps:g} | {workload} | {cell(today)} [{today.get('bound', '')}] "
                f"| {then} |")
        print(line, flush=True)
        lines.append(line)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join([*report.header(report.title(__doc__),
                                                  report.command_line(),
                                                  args.baseline), *lines]) + "\n",
                        encoding="utf-8")


if __name__ == "__main__":
    main()
