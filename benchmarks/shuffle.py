"""Amplification by shuffling: the central ε of kernels and protocols, and the local ε₀
each affords for a central target.

Every number is an upper bound on the central ε at δ = 1e-6 against replacing one user's
input (:func:`mechdesign.shuffle_epsilon`). Baseline, run in the same process: the
clone analysis of Feldman, McMillan & Talwar (FOCS 2021) from ε₀ alone — what the public
tools that take only ε₀ give (``.bounds["clones"]``); each row prints the kernel's own
bound over it.

1. Targets: binary randomized response at n = 10³ (ε₀ = 1, 2, 4), its exact central ε
   beside the best general bound; any 4-LDP randomizer and k-RR at n = 10⁵; the seconds of
   each call.
2. ε(n) for n = 10³ … 10⁷ at ε₀ = 2, k = 40: every deployed protocol (implicit, exact
   parameters) and the estimation-optimal design at the uniform prior (dense).
3. The local ε₀ each affords at central ε = 1, δ = 1e-6 for n = 10³ … 10⁷, and the
   ranking of ``md.compare(md.LDP(1), uniform(40), shuffle=(n, δ))`` at n = 10⁵.
4. Binary randomized response exactly at n = 10⁴ … 10⁷ (ε₀ = 1, 4, 8) and 10-RR and
   100-RR at n = 10⁵ (ε₀ = 1, 2, 4) by the blanket accountant, each beside a lower bound
   computed here: the dataset of every other user at a third value, of whose release
   only the counts at the replaced user's two values are kept (a post-processing, so its
   δ is below the true one), inverted at δ = 1e-6 by bisection.

Run: ``python benchmarks/shuffle.py [--table PATH|-]``; the tables go to
``docs/benchmarks/shuffle.md``.
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

DELTA = 1e-6
USERS = (10**3, 10**4, 10**5, 10**6, 10**7)


def seconds(task):
    start = time.perf_counter()
    value = task()
    return value, time.perf_counter() - start


def targets() -> pd.DataFrame:
    rows = []
    for e0 in (1.0, 2.0, 4.0):
        rr = md.randomized_response(2, e0)
        result, took = seconds(lambda rr=rr: md.shuffle_epsilon(rr, 10**3, DELTA))
        general = min(v for k, v in result.bounds.items() if k != "exact")
        rows.append({"kernel": f"binary RR, eps0 = {e0:g}", "n": 10**3,
                     "central eps": result.epsilon, "method": result.method,
                     "exact": result.bounds["exact"], "best general bound": general,
                     "general / exact": general / result.bounds["exact"],
                     "clones (baseline)": result.bounds["clones"], "seconds": took})
    for name, K in (("any 4-LDP randomizer", 4.0),
                    ("k-RR, k = 10", md.randomized_response(10, 4.0)),
                    ("k-RR, k = 100", md.randomized_response(100, 4.0))):
        result, took = seconds(lambda K=K: md.shuffle_epsilon(K, 10**5, DELTA))
        rows.append({"kernel": name, "n": 10**5, "central eps": result.epsilon,
                     "method": result.method, "exact": math.nan,
                     "best general bound": result.epsilon, "general / exact": math.nan,
                     "clones (baseline)": result.bounds["clones"], "seconds": took})
    return pd.DataFrame(rows)


def kernels(k: int, eps0: float) -> dict[str, object]:
    found: dict[str, object] = {name: build() for name, build in
                                implicit_protocols(k, eps0).items()}
    design = md.design(md.LDP(eps0), np.full(k, 1 / k), utility="mse")
    found[f"designed (histogram, {design.mechanism.n_outputs} outputs)"] = design.mechanism
    return found


def curves(k: int = 40, eps0: float = 2.0) -> pd.DataFrame:
    rows = []
    for name, K in kernels(k, eps0).items():
        for n in USERS:
            result, took = seconds(lambda K=K, n=n: md.shuffle_epsilon(K, n, DELTA))
            rows.append({"kernel": name, "n": n, "central eps": result.epsilon,
                         "method": result.method,
                         "/ clones": result.epsilon / result.bounds["clones"],
                         "seconds": took})
    return pd.DataFrame(rows)


def affordable(k: int = 40, central: float = 1.0) -> pd.DataFrame:
    rows = []
    for name in [*implicit_protocols(k, 1.0), "any eps0-LDP randomizer"]:
        row: dict[str, object] = {"kernel": name}
        for n in USERS:
            if name.startswith("any"):
                family: object = "any"
            else:
                def family(e, name=name):
                    return implicit_protocols(k, e)[name]()
            row[f"n = {n:.0e}"] = md.accounting.local_epsilon_for(
                central, DELTA, n, family, rtol=1e-4)
        rows.append(row)
    return pd.DataFrame(rows)


def binary_at_scale() -> pd.DataFrame:
    rows = []
    for e0 in (1.0, 4.0, 8.0):
        for n in (10**4, 10**5, 10**6, 10**7):
            result, took = seconds(lambda e0=e0, n=n: md.shuffle_epsilon(
                md.randomized_response(2, e0), n, DELTA))
            binary = result.bounds.get("exact", result.bounds.get("binary"))
            rows.append({"eps0": e0, "n": n, "central eps": binary, "method": result.method,
                         "kernel bound / it": result.bounds["kernel"] / binary,
                         "clones / it": result.bounds["clones"] / binary, "seconds": took})
    return pd.DataFrame(rows)


def third_value_delta(k: int, e0: float, n: int, eps: float) -> float:
    """δ(ε) of the counts at x₀, x₁ when every other user holds a third value: the others'
    counts (a, b) are s ~ Bin(n − 1, 2/D), a | s ~ Bin(s, 1/2) (D = e^ε₀ + k − 1), and the
    replaced user adds x₀ with probability e^ε₀/D, x₁ with 1/D (else neither). The sum
    runs over windows of ten standard deviations of s and nine of a (leaving terms out only
    lowers it: still a lower bound)."""
    from scipy import stats
    from scipy.special import gammaln

    d = math.exp(e0) + k - 1
    law = stats.binom(n - 1, 2 / d)
    mean, sd = (n - 1) * 2 / d, math.sqrt((n - 1) * 2 / d * (1 - 2 / d))
    s = np.arange(max(0, int(mean - 10 * sd)), int(mean + 10 * sd) + 3)[:, None]
    reach = int(9 * math.sqrt(s.max()) / 2) + 2
    a = np.floor(s / 2) + np.arange(-reach, reach + 1)[None, :]     # a grid per s

    def half(j, m):   # Pr(Bin(m, 1/2) = j), 0 outside 0 ≤ j ≤ m
        inside = (j >= 0) & (j <= m) & (m >= 0)
        jj, mm = np.where(inside, j, 0), np.where(m >= 0, m, 0)
        log = gammaln(mm + 1) - gammaln(jj + 1) - gammaln(mm - jj + 1) - mm * math.log(2)
        return np.where(inside, np.exp(log), 0.0)

    before = law.pmf(s - 1) * half(a - 1, s - 1)     # the others at s − 1, a − 1 of them x₀
    other = law.pmf(s - 1) * half(a, s - 1)
    same = law.pmf(s) * half(a, s)
    p = (math.exp(e0) * before + other + (k - 2) * same) / d
    q = (before + math.exp(e0) * other + (k - 2) * same) / d
    return float(np.maximum(p - math.exp(eps) * q, 0).sum())


def k_rr_at_scale() -> pd.DataFrame:
    rows = []
    for k in (10, 100):
        for e0 in (1.0, 2.0, 4.0):
            result, took = seconds(lambda k=k, e0=e0: md.shuffle_epsilon(
                md.randomized_response(k, e0), 10**5, DELTA))
            lo, hi = 0.0, result.epsilon           # the lower bound's ε, by bisection
            while hi - lo > 1e-6 * hi:
                mid = 0.5 * (lo + hi)
                lo, hi = (lo, mid) if third_value_delta(k, e0, 10**5, mid) <= DELTA else (mid, hi)
            rows.append({"k": k, "eps0": e0, "blanket": result.bounds["blanket"],
                         "lower bound": hi, "blanket / lower": result.bounds["blanket"] / hi,
                         "kernel / lower": result.bounds["kernel"] / hi,
                         "clones / lower": result.bounds["clones"] / hi, "seconds": took})
    return pd.DataFrame(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--table", type=Path, default=report.DOCS / "shuffle.md",
                        help="where the markdown tables go ('-': nowhere)")
    args = parser.parse_args()
    pd.set_option("display.width", 200)
    pd.set_option("display.max_columns", 20)
    pd.set_option("display.float_format", lambda v: f"{v:.5g}")
    md.shuffle_epsilon(1.0, 100, DELTA)  # imports
    sections = report.Sections()
    part = sections.part

    table, took = seconds(targets)
    part(f"1. targets ({took:.1f} s)", table)

    table, took = seconds(curves)
    wide = table.pivot(index="kernel", columns="n", values="central eps").reset_index()
    part(f"2. central eps at eps0 = 2, k = 40, delta = 1e-6 ({took:.1f} s)", wide)
    ratio = table.pivot(index="kernel", columns="n", values="/ clones").reset_index()
    slowest = table.loc[table["seconds"].idxmax()]
    part("over the clones baseline (same eps0)", ratio,
         f"Slowest call: {slowest['seconds']:.2f} s ({slowest['kernel']}, "
         f"n = {slowest['n']:.0e}).")

    table, took = seconds(affordable)
    part(f"3. local eps0 affordable at central eps = 1, delta = 1e-6, k = 40 ({took:.1f} s)",
         table)
    ranked, took = seconds(lambda: md.compare(md.LDP(1.0), np.full(40, 1 / 40),
                                              utilities=("mse",), n=10**5,
                                              shuffle=(10**5, DELTA)))
    part(f"compare at central eps = 1 behind a shuffler of 1e5 users ({took:.1f} s)",
         ranked[["mechanism", "mse_blue", "local_epsilon", "central_epsilon"]])

    table, took = seconds(binary_at_scale)
    part(f"4. binary randomized response, exactly ({took:.1f} s)", table)
    table, took = seconds(k_rr_at_scale)
    part(f"k-RR at n = 1e5, delta = 1e-6, against a lower bound ({took:.1f} s)", table)
    sections.write(args.table, report.title(__doc__),
                   "the clone analysis from ε₀ alone")


if __name__ == "__main__":
    main()
