"""Designing for the central guarantee behind a shuffler, against the best protocol.

The engineer's question: with n users behind a shuffler and a central target (1, 1e-6),
does any mechanism beat the deployed protocols, each run at the largest local ε₀ its own
shuffled guarantee affords? For k ∈ {10, 40, 128} inputs (Zipf 1.1 prior), n ∈ {10⁴, 10⁵,
10⁶} and three utilities (mutual information; the estimation error of the histogram and
of the prefix workload, n·MSE per report with the best linear unbiased estimator), each
cell runs, in one process:

- the baseline: ``md.compare(md.LDP(1), prior, utilities=(), shuffle=(n, 1e-6))`` — every
  deployed protocol at its own affordable ε₀ — and keeps the best protocol's value;
- ``md.design(md.accounting.Shuffled(1, 1e-6, n), prior, utility, time_limit=LIMIT)``: the
  best kernel whose clone reduction meets the target, with the bound over every such
  kernel (``Design.target.bound``) and whether it certifies the design, or k-RR's end
  cone at the larger ε₀ the blanket accountant affords k-RR when that is better
  ("certified by" says which, with the accountant's method for the kernel).

Printed per cell: the design's value and bound, the best protocol and its value, the
ratio design / protocol (above 1 is better for mutual information, below 1 for an error),
the chosen local ε₀ and clone mass, the design's central ε and the seconds. Each cell is
appended to ``benchmarks/results/shuffle_design.csv`` as soon as it is measured (the last
column is the time limit), and the cells so far are written as a table to
``docs/benchmarks/shuffle_design.md`` (``--table``) after each one. "Best protocol" is
the best among the protocols whose value compare computes: at k = 128 the mutual
information of the protocols with too many outputs (unary encodings, OLH, Hadamard) is
not computed.

Run: ``python benchmarks/shuffle_design.py [--k 10 40] [--users 100000] [--limit 120]
[--prefix-limit 300] [--append] [--table PATH|-]``.
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

import numpy as np
import pandas as pd
import report

import mechdesign as md
from mechdesign.accounting import Shuffled
from mechdesign.optimal import EstimationError
from mechdesign.priors import zipf_prior

CENTRAL, DELTA = 1.0, 1e-6
UTILITIES = ("mutual_information", "histogram", "prefix")
RESULTS = Path(__file__).parent / "results" / "shuffle_design.csv"
COLUMNS = ("k", "n", "utility", "designed", "bound", "certified", "best protocol",
           "protocol eps0", "protocol", "designed / protocol", "local eps0", "clone mass",
           "certified by", "central eps", "search", "designs", "seconds", "baseline seconds")


def protocols(k: int, n: int, workload: str | None) -> pd.DataFrame:
    """Every deployed protocol at its own affordable ε₀ (compare's rows, n·MSE per report)."""
    table = md.compare(md.LDP(CENTRAL), zipf_prior(k, 1.1), utilities=(), n=n,
                       workload=workload, shuffle=(n, DELTA))
    table = table[table["kind"] == "protocol"].copy()
    table["error"] = table["mse_blue"].fillna(table["mse"]) * n
    return table


def cell(k: int, n: int, utility: str, limit: float) -> dict[str, object]:
    prior = zipf_prior(k, 1.1)
    minimise = utility != "mutual_information"
    start = time.perf_counter()
    baseline = protocols(k, n, utility if minimise else None)
    baseline_seconds = time.perf_counter() - start
    column = "error" if minimise else "mutual_information"
    values = baseline[column].to_numpy(dtype=float)
    known = ~np.isnan(values)
    best = (np.argmin if minimise else np.argmax)(np.where(known, values, np.inf if minimise
                                                           else -np.inf))
    objective = EstimationError(workload=utility) if minimise else utility
    start = time.perf_counter()
    result = md.design(Shuffled(CENTRAL, DELTA, n), prior, utility=objective,
                       time_limit=limit)
    took = time.perf_counter() - start
    report = result.target
    protocol_value = float(values[best])
    return {
        "k": k, "n": n, "utility": utility,
        "designed": result.utility,
        "bound": math.nan if report.bound is None else report.bound,
        "certified": report.certified,
        "best protocol": baseline["mechanism"].iloc[best],
        "protocol eps0": float(baseline["local_epsilon"].iloc[best]),
        "protocol": protocol_value,
        "designed / protocol": result.utility / protocol_value,
        "local eps0": report.chosen.notion.epsilon,
        "clone mass": report.chosen.notion.r,
        "certified by": f"{report.chosen.certified_by} ({report.central_method})",
        "central eps": report.central_epsilon,
        "search": report.stopped,
        "designs": len(report.points),
        "seconds": took,
        "baseline seconds": baseline_seconds,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--k", type=int, nargs="+", default=[10, 40, 128])
    parser.add_argument("--users", type=int, nargs="+", default=[10**4, 10**5, 10**6])
    parser.add_argument("--utilities", nargs="+", default=list(UTILITIES), choices=UTILITIES)
    parser.add_argument("--limit", type=float, default=120.0,
                        help="seconds per designed cell (the search's time limit)")
    parser.add_argument("--prefix-limit", type=float, default=300.0,
                        help="seconds per designed prefix cell (the targets allow 5 minutes "
                             "for the prefix workload, 2 for the histogram)")
    parser.add_argument("--append", action="store_true",
                        help="add rows to the results file instead of starting it anew")
    parser.add_argument("--table", default=str(report.DOCS / "shuffle_design.md"),
                        help="where the markdown table of every cell in the results file "
                             "goes after each cell ('-': nowhere)")
    args = parser.parse_args()
    pd.set_option("display.width", 250)
    pd.set_option("display.max_columns", 30)
    pd.set_option("display.float_format", lambda v: f"{v:.6g}")
    RESULTS.parent.mkdir(exist_ok=True)
    if not args.append or not RESULTS.exists():
        RESULTS.write_text(f"# benchmarks/shuffle_design.py: one CSV row per cell as it "
                           f"finishes\n{','.join(COLUMNS)},limit\n")
    for k in args.k:
        for n in args.users:
            for utility in args.utilities:
                limit = args.prefix_limit if utility == "prefix" else args.limit
                row = cell(k, n, utility, limit)
                line = ",".join(_csv(row[c]) for c in COLUMNS)
                with RESULTS.open("a") as out:   # each cell kept as soon as it is measured
                    out.write(line + f",{limit:g}\n")
                print(pd.DataFrame([row]).to_string(index=False), flush=True)
                if args.table != "-":
                    write_table(Path(args.table))
    print(f"\nwritten to {RESULTS}" + ("" if args.table == "-" else f" and {args.table}"))


def write_table(path: Path) -> None:
    """Every cell of the results file so far, as markdown under report's header."""
    cells = pd.read_csv(RESULTS, comment="#")
    shown = cells[["k", "n", "utility", "designed", "bound", "certified", "best protocol",
                   "protocol eps0", "protocol", "designed / protocol", "local eps0",
                   "certified by", "search", "seconds", "limit"]]
    report.write_table(path, report.title(__doc__), report.command_line(),
                       "the best protocol at its own affordable ε₀",
                       [*report.frame_table(shown), "",
                        "Values are mutual information in nats (higher is better) or n·MSE "
                        "per report with the BLUE (lower is better); seconds are the "
                        "design's, limit its time limit."])


def _csv(value: object) -> str:
    return f"{value:.6g}" if isinstance(value, float) else str(value)


if __name__ == "__main__":
    main()
