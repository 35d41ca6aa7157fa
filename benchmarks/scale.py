"""Optimal mechanisms at scale: column generation against full vertex enumeration.

Measured in one run:

* ε-LDP and (ε, c)-PML (c = 1/(2N)) with mutual information under a fixed-seed
  Dirichlet(1) prior, N = 8 … 64: time, certified gap, columns, MIPs and status of
  ``design(..., method="column_generation")``, next to full enumeration (the baseline,
  same process) where it is possible, with the time ratio and the utility difference;
* the restricted master's options, each switched off in turn against today's defaults
  (``--parts warm``): the warm start (re-solved from the previous basis, not from
  scratch), column management (non-basic columns of least reduced cost deleted while
  the master is large) and Wentges smoothing of the priced dual, on ε-LDP N = 32
  (``--warm-n``) and PolyOpt's paper variant on Adult race × occupation (a = 75);
* PolyOpt on the Adult data (shipped with the package, or ``--data``), both variants:
  two pairs where cddlib finishes (enumeration next to column generation), and
  occupation × education (a = 240, 57,600 cone inequalities), which the robust-LDP
  paper could not solve; column generation with exact block pricing gives a mechanism
  that passes the exact robust audit and a certified bracket (``relative_gap``).

Every row carries ``peak_mb``, the peak resident memory of this process after the
instance (sizes run in increasing order, so it is the largest instance's peak so far).

``--full`` runs the large sizes: ε-LDP to N = 512 and (ε, 1/(2N))-PML to N = 256.
``--baseline REV`` runs each column-generation instance again with the code of the git
revision REV (a worktree under the system's temporary folder, in a subprocess with
``--baseline-timeout`` seconds), so that today's code and REV's are timed in one run on
the same machine.

Run: ``python benchmarks/scale.py [--parts ldp,pml,warm,polyopt] [--max-n 64] [--full]
[--pml-max-n N] [--baseline REV] [--baseline-max-n N] [--time-limit SECONDS] [--gap 1e-6]
[--polyopt-time 1800] [--out DIR]``.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import report
from tqdm import tqdm

import mechdesign as md
from mechdesign.optimal import MutualInformationUtility, column_source, solve_master

SIZES = (8, 12, 16, 20, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512)
#: ``--time-limit`` applies from this N on (smaller designs always run to their gap).
TIME_LIMIT_FROM_N = 192
#: ``--full``: the largest N per notion.
FULL_MAX_N = {"ldp": 512, "pml": 256}
ROOT = Path(__file__).resolve().parents[1]


def peak_mb() -> float:
    """Peak resident memory of this process so far, in MB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def instance(kind: str, n: int, epsilon: float, concentration: float = 1.0):
    """The benchmark's instance: a fixed-seed Dirichlet prior (``concentration`` 1 by
    default; smaller is more peaked) and the notion."""
    prior = np.random.default_rng(n).dirichlet(np.full(n, concentration))
    if kind == "ldp":
        return md.LDP(epsilon), prior, f"{epsilon:g}-LDP"
    return md.PML(epsilon, c=0.5 / n), prior, f"({epsilon:g}, 1/(2N))-PML"


BASELINE_SCRIPT = """
import json, sys, time
import numpy as np
import mechdesign as md
kind, n, eps, gap = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
prior = np.random.default_rng(n).dirichlet(np.full(n, float(sys.argv[5])))
notion = md.LDP(eps) if kind == "ldp" else md.PML(eps, c=0.5 / n)
design = md.design  # the lazy import of the design package, and one small design, first
design(md.LDP(1.0), np.full(4, 0.25), method="column_generation")
start = time.perf_counter()
d = design(notion, prior, method="column_generation", gap=gap)
r = d.column_generation
print(json.dumps({"seconds": time.perf_counter() - start, "status": r.status,
                  "iterations": r.iterations, "columns": r.columns, "utility": d.utility,
                  "module": md.__file__}))
"""


def baseline_worktree(rev: str) -> Path:
    """A worktree of ``rev`` (created once, reused)."""
    folder = Path(tempfile.gettempdir()) / f"mechdesign-baseline-{rev}"
    if not folder.exists():
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(folder),
                        rev], check=True, capture_output=True)
    return folder


def baseline_row(kind, n, epsilon, gap, rev, timeout, row, concentration=1.0):
    """The same instance with the code of ``rev``, in a subprocess; its time next to
    ``row``'s (``time_ratio_vs_baseline`` = today / baseline)."""
    import os

    folder = baseline_worktree(rev)
    env = {**os.environ, "PYTHONPATH": str(folder)}
    try:
        # cwd: ``python -c`` puts the working folder first on sys.path, ahead of
        # PYTHONPATH, so run from the worktree or the baseline imports today's code.
        done = subprocess.run([sys.executable, "-c", BASELINE_SCRIPT, kind, str(n),
                               str(epsilon), str(gap), repr(concentration)], env=env, cwd=folder,
                              capture_output=True, text=True, timeout=timeout, check=False)
        result = json.loads(done.stdout.strip().splitlines()[-1]) if done.returncode == 0 \
            else {"status": f"failed: {done.stderr.strip().splitlines()[-1][:120]}"}
    except subprocess.TimeoutExpired:
        result = {"status": f"not finished in {timeout:g} s", "seconds": math.inf}
    if "module" in result and not Path(result["module"]).resolve().is_relative_to(
            folder.resolve()):
        raise RuntimeError(f"the baseline imported {result['module']}, not {rev}'s code")
    out = {"notion": row["notion"], "N": n, "method": f"column generation at {rev}",
           "seconds": round(result.get("seconds", math.nan), 3),
           "status": result["status"], "iterations": result.get("iterations", ""),
           "columns": result.get("columns", ""), "utility": result.get("utility", "")}
    if math.isfinite(out["seconds"]):
        row["time_ratio_vs_baseline"] = round(row["seconds"] / out["seconds"], 3)
    return out


def timed(function):
    start = time.perf_counter()
    value = function()
    return value, time.perf_counter() - start


def design_row(label, n, method, design, seconds, **extra):
    """One column-generation result as a table row."""
    report = design.column_generation
    return {
        "notion": label,
        "N": n,
        "method": method,
        "seconds": round(seconds, 3),
        "utility": design.utility,
        "lower": report.lower_bound,
        "upper": report.upper_bound,
        "gap": report.gap,
        "status": report.status,
        "columns": report.columns,
        "columns_added": report.columns_added,
        "iterations": report.iterations,
        "master_seconds": round(report.master_seconds, 1),
        "exact_pricings": report.exact_pricings,
        "mips": report.mips,
        "audit": design.audit_passed,
        **extra,
    }


def column_generation_row(notion, prior, gap, label, n, enumerate_up_to, time_limit=None):
    design, seconds = timed(
        lambda: md.design(notion, prior, method="column_generation", gap=gap,
                          time_limit=time_limit)
    )
    row = design_row(label, n, "column generation", design, seconds, peak_mb=round(peak_mb()))
    rows = [row]
    if n <= enumerate_up_to:
        rows.append(enumeration_row(notion, prior, row, design, seconds))
    return rows


def enumeration_row(notion, prior, row, design, seconds, entropy=None):
    """Full enumeration on the same instance (the baseline, same process); adds the
    time ratio and the utility difference to the column-generation ``row``."""
    full, full_seconds = timed(
        lambda: md.design(notion, prior, method="enumeration", max_vertices=10**100)
    )
    row["enumeration_seconds"] = round(full_seconds, 3)
    row["time_ratio"] = round(seconds / full_seconds, 2)
    row["utility_minus_enumeration"] = design.utility - full.utility
    out = {
        "notion": row["notion"],
        "N": row["N"],
        "method": "enumeration",
        "seconds": round(full_seconds, 3),
        "utility": full.utility,
        "columns": full.n_vertices,
        "audit": full.audit_passed,
    }
    if entropy is not None:
        out["nmi"] = full.utility / entropy
    return out


def part_patterned(kind, sizes, epsilon, gap, enumerate_up_to, baseline=None,
                   baseline_timeout=3600.0, concentration=1.0, time_limit=None,
                   baseline_max_n=None):
    rows = []
    # One small design first, so that the first size pays no one-time costs (as in the
    # baseline's subprocess).
    md.design(md.LDP(1.0), np.full(4, 0.25), method="column_generation")
    for n in tqdm(sizes, desc=kind):
        notion, prior, label = instance(kind, n, epsilon, concentration)
        if concentration != 1.0:
            label += f", Dirichlet({concentration:g})"
        found = column_generation_row(notion, prior, gap, label, n, enumerate_up_to,
                                      time_limit if n >= TIME_LIMIT_FROM_N else None)
        rows += found
        print_table(found)
        if baseline and (baseline_max_n is None or n <= baseline_max_n):
            rows.append(baseline_row(kind, n, epsilon, gap, baseline, baseline_timeout,
                                     found[0], concentration))
            print_table(rows[-1:])
    return rows


#: The master variants of ``--parts warm`` (today's defaults first: the baseline of the
#: ratios is each variant against them, in the same process).
MASTER_VARIANTS = (
    ("warm, column management, smoothing (defaults)", {}),
    ("no column management", {"columns_per_input": None}),
    ("no smoothing", {"smoothing": 0.0}),
    ("cold master", {"warm": False}),
)


def part_warm(epsilon, gap, n, data=None):
    """The same column generation with the restricted master's options switched off one
    at a time: ε-LDP at N = ``n`` and, when the Adult data are there, PolyOpt (paper
    variant) on race × occupation (a = 75)."""
    cases = [(f"{epsilon:g}-LDP", np.random.default_rng(n).dirichlet(np.ones(n)),
              md.LDP(epsilon))]
    if data is not None and Path(data).exists():
        pair = md.notions.categorical_pair(data, "race", "occupation")
        cases.append(("PolyOpt (paper) race x occupation", pair.p_hat,
                      md.RobustLDP(epsilon, pair.ball(0.05), pair.shape, variant="paper")))
    # One small design first, so that no variant pays the process's one-time costs.
    md.design(md.LDP(epsilon), np.full(4, 0.25), method="column_generation")
    rows = []
    for label, prior, notion in cases:
        first = len(rows)
        for method, options in MASTER_VARIANTS:
            result, seconds = timed(
                lambda notion=notion, prior=prior, options=options: solve_master(
                    column_source(notion, MutualInformationUtility(prior), "column_generation"),
                    gap=gap, **options)
            )
            report = result.report
            rows.append({
                "notion": label,
                "N": prior.size,
                "method": f"column generation, {method}",
                "seconds": round(seconds, 3),
                "lower": report.lower_bound,
                "gap": report.gap,
                "status": report.status,
                "iterations": report.iterations,
                "columns": report.columns,
                "columns_added": report.columns_added,
                "master_seconds": round(report.master_seconds, 4),
                "master_seconds_per_iteration": report.master_seconds / report.iterations,
            })
        for row in rows[first:]:
            row["time_ratio"] = round(row["seconds"] / rows[first]["seconds"], 2)
            row["master_time_ratio_per_iteration"] = round(
                row["master_seconds_per_iteration"]
                / rows[first]["master_seconds_per_iteration"], 2)
    return rows


def part_polyopt(data, epsilon, time_limit):
    """PolyOpt on Adult pairs, both variants: exact block pricing
    (mechdesign.optimal.robust.blocks); ``relative_gap = (upper − lower)/lower``."""
    rows = []
    pairs = [("sex", "race", True), ("sex", "marital-status", True),
             ("occupation", "education", False)]
    cases = [(pair, variant) for pair in pairs for variant in ("paper", "default")]
    for (sensitive, other, enumerate_it), variant in tqdm(cases, desc="PolyOpt"):
        pair = md.notions.categorical_pair(data, sensitive, other)
        p_hat = pair.p_hat
        notion = md.RobustLDP(epsilon, pair.ball(0.05), pair.shape, variant=variant)
        entropy = -sum(x * math.log(x) for x in p_hat if x > 0)
        label = f"PolyOpt ({variant}) {sensitive} x {other} (a = {p_hat.size})"
        design, seconds = timed(
            lambda notion=notion, p_hat=p_hat: md.design(
                notion, p_hat, method="column_generation", gap=1e-6, time_limit=time_limit
            )
        )
        report = design.column_generation
        row = design_row(
            label, p_hat.size, "column generation (exact block pricing)", design, seconds,
            nmi=design.utility / entropy, privacy_level=design.privacy_level,
            relative_gap=(report.upper_bound - report.lower_bound) / report.lower_bound,
            peak_mb=round(peak_mb()),
        )
        rows.append(row)
        if enumerate_it:
            rows.append(enumeration_row(notion, p_hat, row, design, seconds, entropy))
    return rows


def print_table(rows):
    keys = ["notion", "N", "method", "seconds", "time_ratio", "time_ratio_vs_baseline",
            "utility", "gap", "relative_gap", "status", "columns", "iterations", "peak_mb",
            "utility_minus_enumeration", "master_seconds", "master_time_ratio_per_iteration"]
    print(" | ".join(keys))
    for row in rows:
        cells = []
        for key in keys:
            value = row.get(key, "")
            cells.append(f"{value:.4g}" if isinstance(value, float) else str(value))
        print(" | ".join(cells))


#: The columns of the table written to ``docs/benchmarks/scale.md`` (``--table``).
TABLE_COLUMNS = (("notion", "notion"), ("N", "N"), ("method", "method"),
                 ("seconds", "seconds"), ("time_ratio_vs_baseline", "÷ baseline"),
                 ("time_ratio", "÷ enumeration"), ("utility", "utility (nats)"),
                 ("gap", "certified gap"), ("status", "status"),
                 ("iterations", "iterations"), ("columns", "columns"),
                 ("master_seconds", "master s"), ("peak_mb", "peak MB"))


def markdown_table(rows) -> list[str]:
    """The rows as a markdown table (:data:`TABLE_COLUMNS`)."""
    lines = ["| " + " | ".join(title for _, title in TABLE_COLUMNS) + " |",
             "|" + "---|" * len(TABLE_COLUMNS)]
    for row in rows:
        cells = []
        for key, _ in TABLE_COLUMNS:
            value = row.get(key, "")
            cells.append(f"{value:.4g}" if isinstance(value, float) else str(value))
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", default="ldp,pml,warm,polyopt")
    parser.add_argument("--epsilon", type=float, default=1.0)
    parser.add_argument("--gap", type=float, default=1e-6,
                        help="certified gap target of column generation (nats, relative "
                             "to max(1, utility))")
    parser.add_argument("--max-n", type=int, default=64)
    parser.add_argument("--enumerate-up-to", type=int, default=16)
    parser.add_argument("--warm-n", type=int, default=32)
    parser.add_argument("--data", default=str(md.notions.adult_csv()))
    parser.add_argument("--polyopt-time", type=float, default=1800.0)
    parser.add_argument("--out", default=None, help="directory for scale.csv")
    parser.add_argument("--table", type=Path, default=report.DOCS / "scale.md",
                        help="where the markdown table goes, with the machine, versions "
                             "and baseline ('-': nowhere)")
    parser.add_argument("--full", action="store_true",
                        help="ε-LDP to N = 512 and (ε, 1/(2N))-PML to N = 256")
    parser.add_argument("--min-n", type=int, default=0, help="skip smaller sizes")
    parser.add_argument("--pml-max-n", type=int, default=None,
                        help="(ε, 1/(2N))-PML only up to this N (default: as ε-LDP)")
    parser.add_argument("--baseline", default=None,
                        help="a git revision whose column generation runs beside today's")
    parser.add_argument("--baseline-timeout", type=float, default=3600.0)
    parser.add_argument("--baseline-max-n", type=int, default=None,
                        help="run the baseline only up to this N (beyond, it is known "
                             "not to finish)")
    parser.add_argument("--time-limit", type=float, default=None,
                        help=f"time_limit= of today's designs from N = {TIME_LIMIT_FROM_N}"
                             " (a time-limited row reports its certified bracket)")
    parser.add_argument("--concentration", type=float, default=1.0,
                        help="the Dirichlet prior's concentration (1: uniform on the "
                             "simplex; 0.1: peaked, where the ε-LDP information bound "
                             "does not certify and the pricing MIPs do)")
    args = parser.parse_args()
    parts = args.parts.split(",")

    def sizes(kind):
        top = FULL_MAX_N[kind] if args.full else args.max_n
        if kind == "pml" and args.pml_max_n is not None:
            top = min(top, args.pml_max_n)
        return [n for n in SIZES if args.min_n <= n <= top]

    rows = []
    if "ldp" in parts:
        rows += part_patterned("ldp", sizes("ldp"), args.epsilon, args.gap,
                               args.enumerate_up_to, args.baseline, args.baseline_timeout,
                               args.concentration, args.time_limit, args.baseline_max_n)
    if "pml" in parts:
        rows += part_patterned("pml", sizes("pml"), args.epsilon, args.gap,
                               min(args.enumerate_up_to, 14), args.baseline,
                               args.baseline_timeout, args.concentration, args.time_limit,
                               args.baseline_max_n)
    if "warm" in parts:
        rows += part_warm(args.epsilon, args.gap, args.warm_n, args.data)
    if "polyopt" in parts:
        if Path(args.data).exists():
            rows += part_polyopt(args.data, args.epsilon, args.polyopt_time)
        else:
            print(f"skipping PolyOpt: no data at {args.data}")
    print_table(rows)
    if str(args.table) != "-":
        report.write_table(args.table, report.title(__doc__),
                           report.command_line(), args.baseline,
                           markdown_table(rows))
        print(f"wrote {args.table}")
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        keys = sorted({key for row in rows for key in row})
        with open(out / "scale.csv", "w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=keys)
            writer.writeheader()
            writer.writerows(rows)
        print(f"wrote {out / 'scale.csv'}")


if __name__ == "__main__":
    main()
