"""Hadamard response in blocks against the one-block (high-privacy) response.

For k ∈ {40, 128, 1000} and ε ∈ {1, 2, 4, 7.76}, Zipf(1.1) and uniform priors, this
prints n·MSE per report of the standard estimator (exact, :meth:`PureOracle.mse`) for
Hadamard response with the default number of blocks B (the least error at the uniform
distribution), with pure-LDP's B (the largest power of two at most min(2k, e^ε), one
block at ε ≤ 1) and with one block — the baseline of every ratio, computed in the same
process — and the seconds to sample and estimate 10⁶ reports of each.

Run: ``python benchmarks/hadamard_blocks.py [--out benchmarks/results]
[--table docs/benchmarks/hadamard_blocks.md]``; the table is also written to
``hadamard_blocks.txt`` in ``--out`` and, as markdown, to ``--table``.
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
from mechdesign.mechanisms import PureOracle, hadamard_blocks


def pure_ldp_blocks(k: int, eps: float) -> int:
    """pure-LDP's rule for its general Hadamard response."""
    if eps <= 1:
        return 1
    return 2 ** math.floor(math.log2(min(2 * k, math.exp(eps))))


def errors(ks, epsilons) -> pd.DataFrame:
    rows = []
    for k in ks:
        for eps in epsilons:
            for prior_name, prior in (("zipf", md.priors.zipf_prior(k, 1.1)),
                                      ("uniform", np.full(k, 1.0 / k))):
                one = PureOracle.hadamard(k, eps, 1).mse(prior, 1)
                best = hadamard_blocks(k, eps)
                theirs = pure_ldp_blocks(k, eps)
                default = PureOracle.hadamard(k, eps).mse(prior, 1)
                pure = PureOracle.hadamard(k, eps, theirs).mse(prior, 1)
                rows.append({"k": k, "epsilon": eps, "prior": prior_name, "B": best,
                             "n*MSE": default, "one block": one,
                             "one block / B": one / default, "pure-LDP B": theirs,
                             "pure-LDP n*MSE": pure, "pure-LDP / B": pure / default})
    return pd.DataFrame(rows)


def timings(k: int, eps: float, n: int) -> pd.DataFrame:
    rng = np.random.default_rng(0)
    x = rng.choice(k, size=n, p=md.priors.zipf_prior(k, 1.1))
    rows = []
    for label, blocks in (("one block (baseline)", 1), ("default B", None)):
        oracle = PureOracle.hadamard(k, eps, blocks)
        start = time.perf_counter()
        reports = oracle.sample(x, rng)
        sampled = time.perf_counter() - start
        start = time.perf_counter()
        oracle.estimate(reports)
        estimated = time.perf_counter() - start
        rows.append({"response": label, "B": oracle.blocks, "outputs": oracle.n_outputs,
                     "sample s": sampled, "estimate s": estimated})
    table = pd.DataFrame(rows)
    table["sample / baseline"] = table["sample s"] / table["sample s"].iloc[0]
    table["estimate / baseline"] = table["estimate s"] / table["estimate s"].iloc[0]
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results"))
    parser.add_argument("--table", type=Path, default=report.DOCS / "hadamard_blocks.md",
                        help="where the markdown tables go ('-': nowhere)")
    args = parser.parse_args()
    started = time.perf_counter()
    table = errors((40, 128, 1000), (1.0, 2.0, 4.0, 7.76))
    speed = timings(1000, 4.0, 10**6)
    text = ("n·MSE per report of the standard estimator, exact; ratios against the one-block "
            "response (same process)\n" + table.to_string(index=False, float_format="%.4g")
            + "\n\nsampling and estimating 10^6 reports, k = 1000, eps = 4\n"
            + speed.to_string(index=False, float_format="%.3g")
            + f"\n\n{time.perf_counter() - started:.1f} s in all\n")
    print(text)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "hadamard_blocks.txt").write_text(text)
    if str(args.table) != "-":
        lines = ["n·MSE per report of the standard estimator, exact; ratios against the "
                 "one-block response (same process).", "", *report.frame_table(table), "",
                 "Sampling and estimating 10^6 reports, k = 1000, ε = 4.", "",
                 *report.frame_table(speed), "",
                 f"{time.perf_counter() - started:.1f} s in all."]
        report.write_table(args.table, report.title(__doc__),
                           report.command_line(), None, lines)
        print(f"wrote {args.table}")


if __name__ == "__main__":
    main()
