"""Maximal Dobrushin coefficient by LP: time against N, and against a scipy baseline.

For (ε, c)-PML, ε-LDP and PML with a known prior on N = 4 … 40 inputs, this prints, all
measured in one run: the time of :func:`mechdesign.max_dobrushin` (one HiGHS LP per pair
of inputs, through highspy), the time of the same LPs through ``scipy.optimize.linprog``
(HiGHS behind scipy's interface, every pair, the baseline, run in the same process),
their ratio, and |LP − Ξ(ε, c)| where the closed form exists. Permutation-invariant
cones (LDP, (ε, c)-PML) need one LP instead of N(N−1)/2; a known prior needs them all.

Run: ``python benchmarks/contraction_scaling.py [--epsilon E] [--max-n N]``.
"""

from __future__ import annotations

import argparse
import itertools
import time

import numpy as np
from scipy.optimize import linprog
from tqdm import tqdm

import mechdesign as md


def scipy_baseline(notion, n: int) -> float:
    """The same pairwise LPs, written with scipy.optimize.linprog."""
    g = notion.cone(n).inequalities()
    a_ub = np.vstack([-g, g])
    b_ub = np.r_[np.zeros(g.shape[0]), g.sum(axis=1)]
    best = 0.0
    for i, j in itertools.combinations(range(n), 2):
        cost = np.zeros(n)
        cost[i], cost[j] = -1.0, 1.0
        result = linprog(cost, A_ub=a_ub, b_ub=b_ub, bounds=(0, 1), method="highs")
        best = max(best, -result.fun)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epsilon", type=float, default=1.0)
    parser.add_argument("--max-n", type=int, default=40)
    args = parser.parse_args()
    sizes = [n for n in (4, 8, 12, 16, 24, 32, 40) if n <= args.max_n]
    rows = []
    cases = [(kind, n) for n in sizes for kind in ("(eps,c)-PML", "LDP", "known prior")]
    for kind, n in tqdm(cases, desc="max_dobrushin"):
        if kind == "LDP":
            notion = md.LDP(args.epsilon)
        elif kind == "known prior":
            # ε/4: at the default ε = 1 the known-prior supremum is already 1.
            prior = np.random.default_rng(n).dirichlet(np.ones(n))
            notion = md.PML(args.epsilon / 4, prior=prior)
        else:
            notion = md.PML(args.epsilon, c=0.5 / n)
        start = time.perf_counter()
        value = md.max_dobrushin(notion, n)
        ours = time.perf_counter() - start
        start = time.perf_counter()
        baseline_value = scipy_baseline(notion, n)
        baseline = time.perf_counter() - start
        closed = value.closed_form
        rows.append(
            (kind, n, float(value), ours, baseline, baseline / ours,
             abs(float(value) - closed) if closed is not None else float("nan"),
             abs(float(value) - baseline_value))
        )
    header = (
        f"{'notion':12s} {'N':>3s} {'sup eta_TV':>10s} {'ours s':>8s} {'scipy s':>8s} "
        f"{'scipy/ours':>10s} {'|LP-Xi|':>9s} {'|ours-scipy|':>12s}"
    )
    print(header)
    for kind, n, value, ours, baseline, ratio, gap, agree in rows:
        print(
            f"{kind:12s} {n:3d} {value:10.6f} {ours:8.3f} {baseline:8.3f} {ratio:10.2f} "
            f"{gap:9.2e} {agree:12.2e}"
        )


if __name__ == "__main__":
    main()
