"""Column generation on hard instances: priors that the first columns do not certify.

Under a Dirichlet(1) prior the optimum of ε-LDP with mutual information is ``κ(ε)`` nats
(the largest information one output of an ε-LDP kernel carries, ``κ(1) = 0.1233016``)
to within the gap at every N, and the closed-form dual ``λ = κ·P`` certifies it at once:
those are the easy instances of ``benchmarks/scale.py``. Under Zipf and geometric priors
the optimum is within the gap of ``κ`` too, but only a cover mixing many orders of the
inputs reaches it (the heuristic's random arcs); a prior with an atom that cannot be
split (0.5) stays below ``κ``, and is certified through the symmetry of its equal-mass
inputs. This benchmark runs, each in a fresh subprocess and each beside a baseline
revision in the same run (one after the other, so they never share the cores):

* ε-LDP, ε = 1, gap 1e-6, under Zipf(1.1) (``p_i ∝ i^−1.1``), geometric
  (``p_i ∝ 0.97^i``), heavy atoms (0.5, 0.3 and a flat tail of 0.2) and, labelled easy,
  Dirichlet(1) (fixed seed N, as in ``scale.py``), for N in ``--sizes``;
* ``--tight``: ε-LDP under Dirichlet(1) at N = 24 with gap 1e-9;
* ``--pml N``: (ε, 1/(2N))-PML under Dirichlet(1) at that N;
* ``--extra prior:N@ε``: ε-LDP at another N and ε (the large ε of a local randomizer
  behind a shuffler: ``zipf:300@12``).

Each row: the certified bracket ``[lower, upper]`` (nats), its width relative to the
upper end, the status, iterations, columns kept, the master's seconds, the seconds and
the peak resident memory of the subprocess.

Run: ``python benchmarks/scale_hard.py [--sizes 256 512] [--priors zipf,geometric,heavy]
[--time-limit 1800] [--baseline 8652adc] [--baseline-sizes 256] [--baseline-time-limit 600]
[--tight] [--pml 256] [--extra zipf:1024 zipf:300@12] [--out docs/benchmarks/scale_hard.md]``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import report
from scale import ROOT, baseline_worktree  # the same worktree of a revision

#: One instance in a subprocess: prints one JSON line.
INSTANCE = r"""
import json, resource, sys, time
import numpy as np
import mechdesign as md
kind, prior_name, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
gap, limit, eps = float(sys.argv[4]), float(sys.argv[5]), float(sys.argv[6])
if prior_name == "zipf":
    prior = np.arange(1, n + 1, dtype=float) ** -1.1
elif prior_name == "geometric":
    prior = 0.97 ** np.arange(n, dtype=float)
elif prior_name == "heavy":
    prior = np.concatenate([[0.5, 0.3], np.full(n - 2, 0.2 / (n - 2))])
else:
    prior = np.random.default_rng(n).dirichlet(np.ones(n))
prior = prior / prior.sum()
notion = md.LDP(eps) if kind == "ldp" else md.PML(eps, c=0.5 / n)
md.design(md.LDP(1.0), np.full(4, 0.25), method="column_generation")  # one-time costs
start = time.perf_counter()
d = md.design(notion, prior, method="column_generation", gap=gap,
              time_limit=None if limit <= 0 else limit)
r = d.column_generation
print(json.dumps({"seconds": time.perf_counter() - start, "status": str(r.status),
                  "lower": r.lower_bound, "upper": r.upper_bound, "utility": d.utility,
                  "iterations": r.iterations, "columns": r.columns,
                  "master": r.master_seconds, "audit": bool(d.audit_passed),
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "module": md.__file__}))
"""


def run(folder: Path, kind: str, prior: str, n: int, gap: float, limit: float,
        timeout: float, epsilon: float = 1.0) -> dict:
    """One instance with the code in ``folder`` (:func:`report.run_instance`)."""
    return report.run_instance(
        folder, INSTANCE, [kind, prior, str(n), repr(gap), repr(limit), repr(epsilon)],
        timeout)


def cell(result: dict) -> str:
    if "error" in result:
        return result["error"]
    width = (result["upper"] - result["lower"]) / max(abs(result["upper"]), 1e-300)
    return (f"[{result['lower']:.9g}, {result['upper']:.9g}] rel. {width:.1e}, "
            f"{result['status']}, {result['iterations']} it., {result['columns']} col., "
            f"master {result['master']:.0f} s, {result['seconds']:.0f} s, "
            f"{result['peak_mb']:.0f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[256, 512])
    parser.add_argument("--priors", default="zipf,geometric,heavy,dirichlet")
    parser.add_argument("--time-limit", type=float, default=1800.0)
    parser.add_argument("--baseline", default="8652adc")
    parser.add_argument("--no-baseline", action="store_true")
    parser.add_argument("--tight", action="store_true")
    parser.add_argument("--pml", type=int, nargs="*", default=[])
    parser.add_argument("--extra", nargs="*", default=[],
                        help="more ε-LDP instances as prior:N or prior:N@ε (zipf:1024, "
                             "zipf:300@12; ε = 1 unless given)")
    parser.add_argument("--baseline-sizes", type=int, nargs="*", default=None,
                        help="run the baseline only at these N (default: every N)")
    parser.add_argument("--baseline-time-limit", type=float, default=None,
                        help="the baseline's time limit (default: --time-limit)")
    parser.add_argument("--out", type=Path, default=report.DOCS / "scale_hard.md")
    args = parser.parse_args()
    base = None if args.no_baseline else baseline_worktree(args.baseline)
    cases = [("ldp", prior, n, 1e-6, 1.0) for n in args.sizes
             for prior in args.priors.split(",")]
    if args.tight:
        cases.append(("ldp", "dirichlet", 24, 1e-9, 1.0))
    for extra in args.extra:
        prior, _, rest = extra.partition(":")
        n, _, eps = rest.partition("@")
        cases.append(("ldp", prior, int(n), 1e-6, float(eps or 1.0)))
    cases += [("pml", "dirichlet", n, 1e-6, 1.0) for n in args.pml]
    lines = [f"| notion | prior | N | gap | today | baseline {args.baseline} |",
             "|---|---|---|---|---|---|"]
    timeout = 1.2 * args.time_limit + 120
    for kind, prior, n, gap, eps in cases:
        today = run(ROOT, kind, prior, n, gap, args.time_limit, timeout, eps)
        if base is None:
            then = "—"
        elif args.baseline_sizes is not None and n not in args.baseline_sizes:
            then = "not run (its time limit at this N)"
        else:
            limit = args.time_limit if args.baseline_time_limit is None else (
                args.baseline_time_limit)
            then = cell(run(base, kind, prior, n, gap, limit, 1.2 * limit + 120, eps))
        label = f"{eps:g}-LDP" if kind == "ldp" else f"({eps:g}, 1/(2N))-PML"
        easy = " (easy)" if prior == "dirichlet" and kind == "ldp" else ""  # for ε-LDP
        line = f"| {label} | {prior}{easy} | {n} | {gap:g} | {cell(today)} | {then} |"
        print(line, flush=True)
        lines.append(line)
    baseline = None if base is None else args.baseline
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join([*report.header(report.title(__doc__),
                                                  report.command_line(), baseline),
                                   *lines]) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
