"""The designed optimum against the deployed LDP frequency oracles.

For k ∈ {4, 8, 16, 32}, ε ∈ {0.5, 1, 2, 4} and three priors — uniform, Zipf(1.1), and
the k most frequent (occupation, education) cells of the UCI Adult data, renormalised —
this runs :func:`mechdesign.compare`: the ε-LDP mechanisms designed for mutual
information and for Bayes vulnerability beside GRR, OUE, SUE (basic RAPPOR), subset
selection, OLH and Hadamard response. The baseline of every ratio is the best deployed
protocol on the same instance, computed in the same process: ``MI ratio`` = designed
MI / best protocol MI, ``Bayes ratio`` = designed Bayes vulnerability / best protocol's.
It writes the tidy table (``protocols.csv``), prints the settings where the designed
mechanism improves on the best protocol by more than 10 %, draws the figure a paper
would (``protocols.png``: utility against ε, one line per mechanism) and writes the
ratios with their summary to ``docs/benchmarks/protocols.md`` (``--table``).

Run: ``python benchmarks/protocols.py [--k 4 8 16 32] [--epsilon 0.5 1 2 4]
[--priors uniform zipf adult] [--n 1000] [--out benchmarks/results] [--workers W]
[--store FILE] [--table docs/benchmarks/protocols.md]``. The grid runs through
:func:`mechdesign.sweep` on local processes; with ``--store`` an interrupted run resumes.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd
import report

import mechdesign as md

ADULT = md.notions.adult_csv()


def prior_of(name: str, k: int) -> np.ndarray:
    if name == "uniform":
        return np.full(k, 1.0 / k)
    if name == "zipf":
        return md.comparison.zipf_prior(k, 1.1)
    if name == "adult":
        return md.notions.categorical_pair(ADULT, "occupation", "education").top_cells(k)
    raise ValueError(f"unknown prior {name!r}")


def compare_point(k: int, epsilon: float, prior: str, n: int) -> list[dict]:
    """One instance of the grid: :func:`mechdesign.compare`'s rows as sweep records."""
    table = md.compare(md.LDP(epsilon), prior_of(prior, k), n=n)
    return table.to_dict("records")


def run_grid(ks, epsilons, priors, n, *, workers=None, store=None) -> pd.DataFrame:
    """The grid through :func:`mechdesign.sweep` (local processes; ``store`` makes it
    resumable). A failed instance stops the benchmark with its error."""
    grid = {"prior": list(priors), "k": list(ks), "epsilon": list(epsilons), "n": [n]}
    table = md.sweep(compare_point, grid, store=store,
                     executor="serial" if workers == 1 else workers)
    failed = table[table["error"] != ""]
    if not failed.empty:
        raise SystemExit(f"failed instances:\n{failed[['k', 'epsilon', 'prior', 'error']]}")
    for (k, eps, prior), group in table.groupby(["k", "epsilon", "prior"], sort=False):
        print(f"  k = {k:2d}, ε = {eps:g}, {prior:7s}: {group['seconds'].iloc[0]:6.1f} s")
    columns = ["k", "epsilon", "prior"] + [c for c in table.columns
                                           if c not in ("k", "epsilon", "prior", "n",
                                                        "seconds", "error")]
    return table[columns]


def improvements(results: pd.DataFrame) -> pd.DataFrame:
    """Per instance: the designed optimum over the best protocol, for MI and Bayes."""
    rows = []
    for (k, eps, prior), group in results.groupby(["k", "epsilon", "prior"], sort=False):
        protocols = group[group["kind"] == "protocol"].dropna(subset=["mutual_information"])
        designed = group[group["kind"] == "designed"].set_index("mechanism")
        for measure, label in (("mutual_information", "optimal for mutual information"),
                               ("bayes_vulnerability", "optimal for Bayes vulnerability")):
            best = protocols.loc[protocols[measure].idxmax()]
            rows.append({
                "k": k, "epsilon": eps, "prior": prior, "measure": measure,
                "designed": designed.loc[label, measure],
                "best protocol": best["mechanism"], "protocol value": best[measure],
                "ratio": designed.loc[label, measure] / best[measure],
            })
    return pd.DataFrame(rows)


def figure(results: pd.DataFrame, priors, ks, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    measures = (("mutual_information", "I(X;Y) (nats)"),
                ("bayes_vulnerability", "Bayes vulnerability"))
    fig, axes = plt.subplots(len(priors) * 2, len(ks), figsize=(3.2 * len(ks),
                             2.6 * 2 * len(priors)), squeeze=False)
    for i, prior in enumerate(priors):
        for m, (measure, label) in enumerate(measures):
            for j, k in enumerate(ks):
                ax = axes[2 * i + m, j]
                data = results[(results["prior"] == prior) & (results["k"] == k)]
                for name, line in data.groupby("mechanism", sort=False):
                    line = line.dropna(subset=[measure])
                    if line.empty:
                        continue
                    designed = name.startswith("optimal")
                    ax.plot(line["epsilon"], line[measure], marker="o", markersize=3,
                            linewidth=2.2 if designed else 1.0,
                            linestyle="-" if designed else "--", label=name)
                ax.set_xscale("log", base=2)
                ax.set_title(f"{prior}, k = {k}", fontsize=9)
                ax.set_xlabel("ε", fontsize=8)
                if j == 0:
                    ax.set_ylabel(label, fontsize=8)
                ax.tick_params(labelsize=7)
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=4, fontsize=8)
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--k", type=int, nargs="+", default=[4, 8, 16, 32])
    parser.add_argument("--epsilon", type=float, nargs="+", default=[0.5, 1.0, 2.0, 4.0])
    parser.add_argument("--priors", nargs="+", default=["uniform", "zipf", "adult"],
                        choices=["uniform", "zipf", "adult"])
    parser.add_argument("--n", type=int, default=1000, help="reports for the MSE")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results"))
    parser.add_argument("--workers", type=int, default=None,
                        help="local processes (default: every core; 1 runs serially)")
    parser.add_argument("--store", type=Path, default=None,
                        help="sweep store (SQLite) so that a rerun resumes")
    parser.add_argument("--table", type=Path, default=report.DOCS / "protocols.md",
                        help="where the markdown table of ratios goes ('-': nowhere)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    results = run_grid(args.k, args.epsilon, args.priors, args.n, workers=args.workers,
                       store=args.store)
    results.to_csv(args.out / "protocols.csv", index=False)
    pd.set_option("display.width", 200)
    shown = results[["k", "epsilon", "prior", "mechanism", "mutual_information",
                     "bayes_vulnerability", "mse"]]
    print()
    print(shown.to_string(index=False, float_format=lambda v: f"{v:.4g}", na_rep="-"))
    gains = improvements(results)
    gains.to_csv(args.out / "protocols_ratios.csv", index=False)
    print("\nDesigned optimum / best deployed protocol (baseline), same process:")
    print(gains.to_string(index=False, float_format=lambda v: f"{v:.4g}"))
    large = gains[gains["ratio"] > 1.10]
    print(f"\nSettings where the designed mechanism beats the best protocol by > 10 %: "
          f"{len(large)} of {len(gains)}")
    print(large.to_string(index=False, float_format=lambda v: f"{v:.4g}"))
    figure(results, args.priors, args.k, args.out / "protocols.png")
    elapsed = time.perf_counter() - start
    print(f"\n{args.out / 'protocols.csv'}, {args.out / 'protocols.png'}; "
          f"{elapsed:.0f} s in all")
    if str(args.table) != "-":
        report.write_table(args.table, report.title(__doc__),
                           report.command_line(), None, markdown(gains, elapsed))
        print(f"wrote {args.table}")


#: A protocol within this ratio of the designed optimum counts as optimal in the summary.
OPTIMAL_RATIO = 1 + 1e-6


def markdown(gains: pd.DataFrame, elapsed: float) -> list[str]:
    """The summary and the ratios (designed optimum / best deployed protocol, the
    baseline computed in the same process) as markdown lines."""
    large = gains[gains["ratio"] > 1.10]
    optimal = gains[gains["ratio"] <= OPTIMAL_RATIO]
    lines = [f"{elapsed:.0f} s in all. The designed optimum beats the best deployed protocol "
             f"by more than 10 % in {len(large)} of {len(gains)} comparisons (largest ratio "
             f"{gains['ratio'].max():.4g}); a protocol is already optimal (ratio ≤ 1 + 1e-6) "
             f"in {len(optimal)}.", "",
             "| k | ε | prior | utility | designed | best protocol | its value | ratio |",
             "|---|---|---|---|---|---|---|---|"]
    for row in gains.itertuples(index=False):
        lines.append(f"| {row.k} | {row.epsilon:g} | {row.prior} | {row.measure} | "
                     f"{row.designed:.6g} | {row[5]} | {row[6]:.6g} | {row.ratio:.4f} |")
    return lines


if __name__ == "__main__":
    main()
