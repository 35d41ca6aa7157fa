"""Estimation: the certified estimation-optimal ε-LDP mechanism against the deployed protocols.

For k ∈ {8, 16, 32, 64}, ε ∈ {0.5, 1, 2, 4}, three priors and three workloads this
designs the ε-LDP mechanism whose best linear unbiased estimator (BLUE) answers the
workload with the least error (``md.design(md.LDP(ε), prior,
utility=md.EstimationError(workload))``) and measures every protocol of
:func:`mechdesign.comparison.deployed_protocols` (GRR, OUE, SUE, subset selection, OLH, Hadamard
response) with its standard estimator and with the BLUE, through
:func:`mechdesign.compare`.

The convention of every number: ``n·MSE`` per report — the expected squared error of the
workload's answers, against the users' own histogram (fixed population), times the
number of reports ``n`` (``Design.utility``; ``n · md.estimation_mse(K, prior, n, ...)``
for a protocol). Every estimator here is unbiased (OLH draws a fresh hash per user), so
it does not depend on ``n``; a protocol whose dense kernel is too large is
:func:`mechdesign.compare`'s implicit row (:mod:`mechdesign.mechanisms.oracles`: exact closed forms;
the BLUE for GRR and unary encoding only).

The baseline of every ratio is the certified optimum computed in the same process: the
design returns a bracket ``lower ≤ OPT ≤ upper`` (upper = its mechanism's error).
``×std`` and ``×BLUE`` are the best protocol's error over ``upper`` (so at least that
ratio to OPT, certified). A verdict "within 1 %" means the best protocol's error is at
most 1.01 × ``lower`` (certified within 1 % of OPT); "pays ×r" means it exceeds
1.01 × ``upper`` (designing certifiably gains at least ×r); "undecided" means the bracket
is too wide to tell. A protocol below ``lower`` would be a bug and is flagged.

Priors: uniform; Zipf(1.1) (:func:`mechdesign.comparison.zipf_prior`); "adult": the k most frequent
(occupation, education) cells of the UCI Adult data (shipped with the package, 32,561
rows, 15 × 16 cells of which more than 64 are occupied), in decreasing order of frequency
and renormalised — the same cells as ``benchmarks/protocols.py``. Prefix and all-range
queries follow that order (the domain has no natural order; sorting by frequency is the
documented choice). Workloads: ``histogram`` (W = I), ``prefix`` (the CDF), ``all-range``
(every interval; k(k+1)/2 queries), from :func:`mechdesign.measures.estimation.workload_matrix`.

A size the design cannot handle yet (enumeration refused above ``max_vertices``, a
notion or size without column generation, a time limit) is recorded as "not designed:
<reason>" and the grid continues; such a point shows the protocols only. Runs are
serial (the design's seconds are wall-clock times on a quiet core). The default grid is
k = 8, every ε, prior and workload (36 designs); enumeration takes seconds to k = 12 and
minutes at k = 16; larger k go to column generation where the library has it.

Run: ``python benchmarks/estimation.py [--k 8 16 32 64] [--eps 0.5 1 2 4]
[--priors uniform zipf adult] [--workloads histogram prefix all-range] [--n 1000]
[--method auto] [--time-limit S] [--out benchmarks/results] [--table PATH|-]
[--protocols]``. It writes ``estimation.csv`` (every mechanism at every point) and
``estimation_ratios.csv`` (one row per point) under ``--out``, and the table with its
summary to ``docs/benchmarks/estimation_k8.md`` (``estimation_k16.md`` for ``--k 16``).
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

import numpy as np
import pandas as pd
import report
from tqdm import tqdm

import mechdesign as md

ADULT = md.notions.adult_csv()
PRIORS = ("uniform", "zipf", "adult")
WORKLOADS = ("histogram", "prefix", "all-range")
EPILOG = """\
Every number is n·MSE per report: the expected squared error of the workload's answers
against the users' own histogram (fixed population), times the number of reports n.
For each (k, ε, prior, workload) it prints the certified optimum (upper = the designed
mechanism's error, lower = its certified bound, status, design seconds) and the best
deployed protocol with its standard estimator (std) and with the BLUE, their ratios to
the optimum (×std, ×BLUE: baseline = the optimum of the same run) and a verdict:
"within 1 %" (protocol ≤ 1.01 × lower), "pays ×r" (protocol > 1.01 × upper) or
"undecided" (bracket too wide). A size the design cannot handle yet is "not designed"
with its reason, and the run goes on. Priors: uniform, Zipf(1.1), adult = the k most
frequent (occupation, education) cells of UCI Adult, by decreasing frequency.
Default: k = 8, every ε, prior and workload (36 points, 22 s on 2 cores).
Example: python benchmarks/estimation.py --k 8 16 --eps 1 --workloads prefix
"""
#: A protocol within this share of the optimum's lower bound is "within 1 %".
WITHIN = 0.01
#: A protocol below the certified lower bound by more than this share is a bug.
BELOW_RTOL = 1e-8
#: The designed mechanism's error, recomputed from its kernel, may differ from
#: Design.utility by this share (both are exact formulas in floating point).
RECHECK_RTOL = 1e-8


def prior_of(name: str, k: int) -> np.ndarray:
    if name == "uniform":
        return np.full(k, 1.0 / k)
    if name == "zipf":
        return md.comparison.zipf_prior(k, 1.1)
    if name == "adult":
        return md.notions.categorical_pair(ADULT, "occupation", "education").top_cells(k)
    raise ValueError(f"unknown prior {name!r}")


def design_point(k, epsilon, prior, workload, *, method, time_limit) -> dict:
    """The certified optimum at one point, or why there is none."""
    start = time.perf_counter()
    try:
        result = md.design(md.LDP(epsilon), prior, utility=md.EstimationError(workload),
                           method=method, time_limit=time_limit, progress=False)
    except (md.MechDesignError, MemoryError) as exc:  # too large, unsupported, solver
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return {"designed": False, "design_note": f"not designed: {reason}",
                "design_s": time.perf_counter() - start}
    report = result.estimation
    return {
        "designed": True, "optimum": report.upper_bound, "lower_bound": report.lower_bound,
        "status": report.status, "method": result.method, "outputs": result.mechanism.n_outputs,
        "design_s": time.perf_counter() - start, "mechanism": result.mechanism,
        "design_note": "",
    }


def protocol_table(k, epsilon, prior, workload, n) -> pd.DataFrame:
    """Every deployed protocol's n·MSE, standard estimator and BLUE."""
    table = md.compare(md.LDP(epsilon), prior, utilities=(), workload=workload, n=n)
    table["nmse"] = table["mse"] * n
    table["nmse_blue"] = table["mse_blue"] * n
    return table[["mechanism", "outputs", "nmse", "nmse_blue", "note"]]


def verdict(value: float, lower: float, upper: float) -> str:
    """The best protocol against the certified bracket ``[lower, upper]``."""
    if not math.isfinite(value):
        return "no protocol"
    if value < lower * (1 - BELOW_RTOL):
        return "BELOW THE CERTIFIED BOUND (bug)"
    if value <= (1 + WITHIN) * lower:
        return "within 1 %"
    if value > (1 + WITHIN) * upper:
        return f"pays ×{value / upper:.3g}"
    return "undecided (bracket)"


def run_point(k, epsilon, prior_name, workload, *, n, method, time_limit):
    """One grid point: the per-mechanism rows and the summary row."""
    prior = prior_of(prior_name, k)
    point = {"k": k, "epsilon": epsilon, "prior": prior_name, "workload": workload}
    optimum = design_point(k, epsilon, prior, workload, method=method,
                           time_limit=time_limit)
    start = time.perf_counter()
    protocols = protocol_table(k, epsilon, prior, workload, n)
    protocols_s = time.perf_counter() - start
    rows = [{**point, "kind": "protocol", **row}
            for row in protocols.to_dict("records")]
    summary = {**point, "design_s": optimum["design_s"], "protocols_s": protocols_s}
    measured = protocols.dropna(subset=["nmse_blue"])
    for column, label in (("nmse", "std"), ("nmse_blue", "BLUE")):
        if measured.empty:
            summary[f"best {label}"], summary[f"{label}"] = "-", math.nan
            continue
        best = measured.loc[measured[column].idxmin()]
        summary[f"best {label}"], summary[label] = best["mechanism"], best[column]
    if not optimum["designed"]:
        summary.update(optimum=math.nan, lower_bound=math.nan, status="not designed",
                       method="-", reason=optimum["design_note"])
        for label in ("std", "BLUE"):
            summary[f"×{label}"], summary[f"verdict {label}"] = math.nan, "-"
        return rows, summary
    # The design's error recomputed from its kernel (an independent formula).
    recheck = n * md.estimation_mse(optimum["mechanism"], prior, n, estimator="blue",
                                    workload=workload)
    if not math.isclose(recheck, optimum["optimum"], rel_tol=RECHECK_RTOL):
        tqdm.write(f"WARNING k = {k}, ε = {epsilon:g}, {prior_name}, {workload}: the "
                   f"design's error {optimum['optimum']!r} but its kernel's {recheck!r}")
    rows.insert(0, {**point, "kind": "designed", "mechanism": "estimation optimum",
                    "outputs": optimum["outputs"], "nmse": recheck, "nmse_blue": recheck,
                    "note": f"{optimum['method']}; {optimum['status']}; bracket "
                            f"[{optimum['lower_bound']!r}, {optimum['optimum']!r}]"})
    summary.update(optimum=optimum["optimum"], lower_bound=optimum["lower_bound"],
                   status=optimum["status"], method=optimum["method"])
    for label in ("std", "BLUE"):
        value = summary[label]
        summary[f"×{label}"] = value / optimum["optimum"]
        summary[f"verdict {label}"] = verdict(value, optimum["lower_bound"],
                                              optimum["optimum"])
    return rows, summary


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=EPILOG,
    )
    parser.add_argument("--k", type=int, nargs="+", default=[8],
                        help="numbers of categories (default: 8; the full grid is "
                             "8 16 32 64, which may take hours)")
    parser.add_argument("--eps", "--epsilon", dest="eps", type=float, nargs="+",
                        default=[0.5, 1.0, 2.0, 4.0], help="ε values (default: 0.5 1 2 4)")
    parser.add_argument("--priors", nargs="+", default=list(PRIORS), choices=PRIORS,
                        help="input distributions (default: all three)")
    parser.add_argument("--workloads", nargs="+", default=list(WORKLOADS),
                        choices=WORKLOADS, help="query workloads (default: all three)")
    parser.add_argument("--n", type=int, default=1000,
                        help="reports (n·MSE does not depend on it: every estimator is "
                             "unbiased). Default 1000")
    parser.add_argument("--method", default="auto",
                        choices=["auto", "enumeration", "column_generation"],
                        help="md.design's method (default auto)")
    parser.add_argument("--time-limit", type=float, default=None,
                        help="seconds per design (md.design's time_limit; default none)")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results"),
                        help="where the CSV files go (default benchmarks/results)")
    parser.add_argument("--table", default=None,
                        help="where the markdown table goes (default "
                             "docs/benchmarks/estimation_k<K>.md, the k values joined by "
                             "'_'; '-': nowhere)")
    parser.add_argument("--protocols", action="store_true",
                        help="also print every mechanism's error at every point")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()

    jobs = [(k, eps, prior, workload) for k in args.k for eps in args.eps
            for prior in args.priors for workload in args.workloads]
    rows, summaries = [], []
    for k, eps, prior, workload in tqdm(jobs, desc="estimation grid", unit=" points"):
        point_rows, summary = run_point(k, eps, prior, workload, n=args.n,
                                        method=args.method, time_limit=args.time_limit)
        rows += point_rows
        summaries.append(summary)
    results = pd.DataFrame(rows)
    ratios = pd.DataFrame(summaries)
    results.to_csv(args.out / "estimation.csv", index=False)
    ratios.to_csv(args.out / "estimation_ratios.csv", index=False)

    pd.set_option("display.width", 250)
    pd.set_option("display.max_colwidth", 60)
    sections = report.Sections()
    if args.protocols:
        shown = results[["k", "epsilon", "prior", "workload", "mechanism", "outputs",
                         "nmse", "nmse_blue"]]
        print(shown.to_string(index=False, float_format=lambda v: f"{v:.5g}", na_rep="-"))
    table = ratios[["k", "epsilon", "prior", "workload", "optimum", "lower_bound",
                    "status", "design_s", "best std", "std", "×std", "best BLUE", "BLUE",
                    "×BLUE", "verdict std", "verdict BLUE"]].rename(
        columns={"epsilon": "ε", "lower_bound": "lower", "design_s": "s"})
    designed = ratios[ratios["method"] != "-"]
    summary = [f"{len(designed)} of {len(ratios)} points designed."]
    for label in ("std", "BLUE"):
        verdicts = designed[f"verdict {label}"]
        within = int((verdicts == "within 1 %").sum())
        pays = designed[verdicts.str.startswith("pays")]
        line = (f"Best protocol ({'standard estimator' if label == 'std' else 'BLUE'}): "
                f"within 1 % of the certified optimum at {within}, designing pays at "
                f"{len(pays)}")
        if not pays.empty:
            top = pays.loc[pays[f"×{label}"].idxmax()]
            line += (f" (largest ×{top[f'×{label}']:.3g}: k = {top['k']}, ε = "
                     f"{top['epsilon']:g}, {top['prior']}, {top['workload']}, vs "
                     f"{top[f'best {label}']})")
        summary.append(line + ".")
    bugs = designed[designed["verdict BLUE"].str.startswith("BELOW")
                    | designed["verdict std"].str.startswith("BELOW")]
    if not bugs.empty:
        summary.append("A PROTOCOL BEAT THE CERTIFIED LOWER BOUND (a bug): "
                       + "; ".join(f"k = {r['k']}, ε = {r['epsilon']:g}, {r['prior']}, "
                                   f"{r['workload']}" for _, r in bugs.iterrows()) + ".")
    summary += [f"k = {row['k']}, ε = {row['epsilon']:g}, {row['prior']}, "
                f"{row['workload']}: {row['reason']}."
                for _, row in ratios[ratios["method"] == "-"].iterrows()]
    summary.append(f"{time.perf_counter() - start:.0f} s in all.")
    sections.part(
        "Estimation-optimal ε-LDP mechanism against the deployed protocols", table,
        f"Numbers: n·MSE per report of the workload's answers, against the users' own "
        f"histogram (fixed population), with the BLUE at the prior for the design; s: the "
        f"design's seconds. ×std / ×BLUE: the best protocol with its standard estimator / "
        f"with the BLUE, over the optimum; 'within 1 %': at most 1.01 × lower; 'pays ×r': "
        f"above 1.01 × upper. Priors: uniform, Zipf(1.1), adult = the k most frequent "
        f"(occupation, education) cells of UCI Adult by decreasing frequency; n = {args.n}.")
    sections.part("Summary", text=" ".join(summary))
    print(f"\n{args.out / 'estimation.csv'}, {args.out / 'estimation_ratios.csv'}")
    where = args.table or report.DOCS / f"estimation_k{'_'.join(map(str, args.k))}.md"
    sections.write(where, report.title(__doc__),
                   "the certified optimum of each point")
    if not bugs.empty:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
