"""The deployed protocols at deployment sizes: exact errors, simulation, and OLH's bias.

Everything is ε-LDP at ε = 2 with the Zipf(1.1) prior; errors are ``E‖f̂ − f‖²`` from
``n`` reports against the users' own histogram (exact closed forms of
:mod:`mechdesign.mechanisms.oracles` unless the row says "simulated").

1. ``md.compare(md.LDP(2), md.comparison.zipf_prior(40))`` (default utilities): its seconds and
   every protocol's standard and BLUE errors.
2. k = 1,000 and 10,000: each protocol's exact standard-estimator error (and the BLUE's
   where its structure gives it), with the seconds.
3. Simulation at k = 40: for each protocol, ``--rounds`` rounds of ``--n`` reports from
   one fixed population, estimated; the empirical mean squared error with its standard
   error beside the closed form, and the seconds to sample and estimate 10⁶ reports.
   Baseline (same process): the dense GRR kernel's generic sampler
   (:meth:`mechdesign.Mechanism.sample`) drawing the same 10⁶ reports.
4. OLH's hash family at k = 40, n = 10⁶: a fixed family of 1,024 random functions (what
   ``compare`` used before; exact error with its bias, :func:`mechdesign.estimation_mse`)
   against a fresh hash per user (exact), and the simulated bias of the latter.

Run: ``python benchmarks/protocols_at_scale.py [--n 10000] [--rounds 200]
[--table docs/benchmarks/protocols_at_scale.md]``; the four parts also go, as markdown, to
``--table``.
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
from mechdesign.mechanisms.oracles import implicit_protocols

EPSILON = 2.0


def seconds(task):
    start = time.perf_counter()
    value = task()
    return value, time.perf_counter() - start


def exact_at(k: int) -> pd.DataFrame:
    prior = md.comparison.zipf_prior(k)
    rows = []
    for build in implicit_protocols(k, EPSILON).values():
        oracle = build()
        value, took = seconds(lambda oracle=oracle: oracle.mse(prior, 10**6))
        try:
            blue = oracle.blue_mse(prior, 10**6)
        except (md.UnsupportedError, md.TooLargeError):
            blue = math.nan
        rows.append({"k": k, "protocol": oracle.protocol, "MSE (n = 1e6)": value,
                     "BLUE MSE": blue, "seconds": took})
    return pd.DataFrame(rows)


def simulate(n: int, rounds: int) -> pd.DataFrame:
    k = 40
    rng = np.random.default_rng(2026)
    x = rng.choice(k, size=n, p=md.comparison.zipf_prior(k))
    histogram = np.bincount(x, minlength=k) / n
    million = rng.choice(k, size=10**6, p=md.comparison.zipf_prior(k))
    dense_grr = md.mechanisms.generalized_randomized_response(k, EPSILON)
    _, baseline = seconds(lambda: dense_grr.sample(million, 0))
    rows = []
    for build in implicit_protocols(k, EPSILON).values():
        oracle = build()
        errors = np.array([np.sum((oracle.estimate(oracle.sample(x, rng)) - histogram) ** 2)
                           for _ in range(rounds)])
        exact = oracle.mse(histogram, n)
        reports, sample_s = seconds(lambda oracle=oracle: oracle.sample(million, 1))
        _, estimate_s = seconds(lambda oracle=oracle, reports=reports: oracle.estimate(reports))
        se = errors.std(ddof=1) / math.sqrt(rounds)
        rows.append({"protocol": oracle.protocol, "exact MSE": exact,
                     "simulated MSE": errors.mean(),
                     "(sim − exact)/SE": (errors.mean() - exact) / se,
                     "sample 1e6 s": sample_s, "estimate 1e6 s": estimate_s,
                     "× dense GRR sampler": sample_s / baseline})
    table = pd.DataFrame(rows)
    table.attrs["baseline"] = baseline
    return table


def olh_bias(rounds: int) -> str:
    k, n = 40, 10**6
    prior = md.comparison.zipf_prior(k)
    fresh = md.local_hashing(k, EPSILON)
    g = fresh.parameter
    fixed = md.local_hashing(k, EPSILON, md.mechanisms.hash_family(k, g, size=1024, seed=0),
                             buckets=g)
    biased = md.estimation_mse(fixed, prior, n)
    # MSE(n) = V/n + B (variance and squared bias): B from two n
    twice = md.estimation_mse(fixed, prior, 2 * n)
    bias = 2 * twice - biased
    exact = fresh.mse(prior, n)
    rng = np.random.default_rng(7)
    small = 10_000
    x = rng.choice(k, size=small, p=prior)
    histogram = np.bincount(x, minlength=k) / small
    estimates = np.array([fresh.estimate(fresh.sample(x, rng)) for _ in range(rounds)])
    z = (estimates.mean(axis=0) - histogram) / (estimates.std(axis=0, ddof=1) / math.sqrt(rounds))
    return (f"OLH (g = {g}) at k = 40, n = 1e6: fixed family of 1,024 random hashes "
            f"{biased:.3g} (of which squared bias {bias:.3g}), fresh hash "
            f"per user {exact:.3g} = ×{biased / exact:.1f} less. Fresh hash, simulated over "
            f"{rounds} rounds of {small:,} reports: largest |mean − histogram| = "
            f"{np.abs(z).max():.2f} standard errors over the 40 inputs (unbiased).")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--table", type=Path, default=report.DOCS / "protocols_at_scale.md",
                        help="where the markdown tables go ('-': nowhere)")
    args = parser.parse_args()
    pd.set_option("display.width", 200)
    pd.set_option("display.float_format", lambda v: f"{v:.4g}")
    sections = report.Sections()
    part = sections.part

    table, took = seconds(lambda: md.compare(md.LDP(EPSILON), md.comparison.zipf_prior(40)))
    part(f"1. compare(LDP(2), zipf_prior(40)): {took:.1f} s",
         table[["mechanism", "outputs", "mse", "mse_blue"]])
    part("2. exact errors at deployment sizes",
         pd.concat([exact_at(k) for k in (1_000, 10_000)], ignore_index=True))
    simulated = simulate(args.n, args.rounds)
    part(f"3. simulation at k = 40 ({args.rounds} rounds of n = {args.n:,})", simulated,
         f"Baseline: the dense GRR kernel's generic sampler, 1e6 reports in "
         f"{simulated.attrs['baseline']:.2f} s.")
    part("4. OLH's hash family", text=olh_bias(args.rounds))
    sections.write(args.table, report.title(__doc__))


if __name__ == "__main__":
    main()
