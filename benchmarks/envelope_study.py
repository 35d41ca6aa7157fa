"""The exact PML envelope: its cost, and the envelope paper's open conjecture.

Two parts, both run by default:

``timing``
    One exact envelope point ε_c(δ) (:func:`mechdesign.pml_envelope`: bisection on the
    bad-set LP, through highspy) on random kernels with |X| = |Y| = N, N = 5 … 80,
    against a baseline run in the same process: the same bisection with each LP solved by
    ``scipy.optimize.linprog`` (HiGHS behind scipy's interface). Also printed: the cost
    relative to Algorithm 1 (the binary-envelope lower bound), and the LP count.
``conjecture``
    The paper conjectures (after Theorem 5) that h_δ is the envelope of k-RR whenever the
    prior satisfies condition (20). On a grid of k, ε_r, priors (Dirichlet draws and the
    four-level priors of Sec. V-B) and δ, this compares the exact envelope with h_δ and
    reports the largest gap where (20) holds, and, where it fails, the largest gap to the
    general lower bound ``max{ℓ(X → N), construction}``.

Run: ``python benchmarks/envelope_study.py [timing|conjecture|all] [--csv FILE]``.
"""

from __future__ import annotations

import argparse
import csv
import math
import time

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog
from tqdm import tqdm

import mechdesign as md


def scipy_bad_set_value(kernel: np.ndarray, p_y: np.ndarray, growth: float) -> float:
    """V(λ) of :func:`mechdesign.pml_envelope`'s docstring, through scipy's linprog."""
    n, m = kernel.shape
    piece_rows = sp.kron(sp.eye(n), np.ones((1, m))).multiply(
        -(kernel - growth * p_y).ravel()[None, :]
    )
    output_rows = sp.kron(np.ones((1, n)), sp.eye(m))
    result = linprog(
        -np.tile(p_y, n),
        A_ub=sp.vstack([piece_rows, output_rows]).tocsr(),
        b_ub=np.r_[np.zeros(n), np.ones(m)],
        bounds=(0, 1),
        method="highs",
    )
    return -result.fun


def scipy_envelope(kernel: np.ndarray, prior: np.ndarray, delta: float) -> float:
    """The same bisection (same bracket and tolerance), every LP through linprog."""
    p_y = prior @ kernel
    lo = math.exp(md.bounds.envelope_lower_bound(kernel, prior, delta))
    hi = min(
        (kernel / p_y).max(),
        math.exp(md.bounds.envelope_upper_bound(kernel, prior, delta)) * 1.000001,
    )
    while hi - lo > 1e-12 * lo:
        mid = 0.5 * (lo + hi)
        if scipy_bad_set_value(kernel, p_y, mid) >= delta - 1e-12:
            lo = mid
        else:
            hi = mid
    return math.log(lo)


def timing(rows: list[dict]) -> None:
    rng = np.random.default_rng(2026)
    print("one exact envelope point, random kernels |X| = |Y| = N, δ = 0.2")
    print(
        f"{'N':>4} {'ours (s)':>10} {'scipy (s)':>10} {'ratio':>7} {'LPs':>5} "
        f"{'× Alg. 1':>9} {'|ours − scipy|':>15}"
    )
    for n in tqdm((5, 10, 20, 40, 80), desc="timing", leave=False):
        kernel = rng.random((n, n)) ** 3
        kernel /= kernel.sum(axis=1, keepdims=True)
        prior = rng.dirichlet(np.ones(n))
        start = time.perf_counter()
        ours = md.pml_envelope(kernel, prior, 0.2)
        t_ours = time.perf_counter() - start
        start = time.perf_counter()
        for _ in range(20):
            md.binary_envelope(kernel, prior, 0.2)
        t_binary = (time.perf_counter() - start) / 20
        start = time.perf_counter()
        baseline = scipy_envelope(kernel, prior, 0.2)
        t_scipy = time.perf_counter() - start
        print(
            f"{n:>4} {t_ours:>10.4f} {t_scipy:>10.4f} {t_scipy / t_ours:>7.2f} "
            f"{ours.n_programs:>5} {t_ours / t_binary:>9.0f} {abs(ours - baseline):>15.2e}"
        )
        rows.append(
            {
                "part": "timing",
                "n": n,
                "seconds": t_ours,
                "scipy_seconds": t_scipy,
                "n_programs": ours.n_programs,
                "envelope": float(ours),
            }
        )


def conjecture_priors(k: int, rng: np.random.Generator):
    for concentration in (0.3, 1.0, 5.0, 30.0):
        for _ in range(4):
            yield f"dirichlet({concentration})", rng.dirichlet(np.full(k, concentration))
    if k % 4 == 0:
        for rho in (0.05, 0.1, 0.2, 0.3):
            yield f"four-level({rho})", md.bounds.four_level_prior(k, rho)


def conjecture(rows: list[dict]) -> None:
    rng = np.random.default_rng(5)
    grid = [(k, eps) for k in (3, 4, 5, 6, 8, 12) for eps in (0.25, 0.5, 1.0, 2.0, 4.0)]
    deltas = np.linspace(0.02, 0.98, 25)
    worst_holds = (0.0, None)
    worst_fails = (0.0, None)
    counts = {True: 0, False: 0}
    for k, eps in tqdm(grid, desc="conjecture grid"):
        rr = md.randomized_response(k, eps)
        for label, prior in conjecture_priors(k, rng):
            for delta in deltas:
                bounds = md.bounds.randomized_response_envelope(eps, prior, delta)
                exact = float(md.pml_envelope(rr, prior, delta))
                gap = exact - bounds.lower
                counts[bounds.prior_condition] += 1
                case = (k, eps, label, float(delta), exact, bounds.lower)
                if bounds.prior_condition and abs(gap) > abs(worst_holds[0]):
                    worst_holds = (gap, case)
                if not bounds.prior_condition and gap > worst_fails[0]:
                    worst_fails = (gap, case)
                rows.append(
                    {
                        "part": "conjecture",
                        "k": k,
                        "epsilon_r": eps,
                        "prior": label,
                        "delta": float(delta),
                        "exact": exact,
                        "h_delta": bounds.lower,
                        "condition_20": bounds.prior_condition,
                        "gap": gap,
                    }
                )
    print(
        "conjecture grid: k ∈ {3,4,5,6,8,12}, ε_r ∈ {0.25,0.5,1,2,4}, 16 Dirichlet "
        "priors (+4 four-level for 4 | k), 25 δ in [0.02, 0.98]"
    )
    print(
        f"  points with condition (20): {counts[True]}; largest |ε_c − h_δ| = "
        f"{abs(worst_holds[0]):.3e} at (k, ε_r, prior, δ, ε_c, h_δ) = {worst_holds[1]}"
    )
    print(
        f"  points without it: {counts[False]}; largest ε_c − lower = {worst_fails[0]:.4f} "
        f"at {worst_fails[1]}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("part", nargs="?", choices=["timing", "conjecture", "all"], default="all")
    parser.add_argument("--csv", help="write every measured row to this CSV file")
    args = parser.parse_args()
    rows: list[dict] = []
    if args.part in ("timing", "all"):
        timing(rows)
    if args.part in ("conjecture", "all"):
        conjecture(rows)
    if args.csv:
        keys = sorted({key for row in rows for key in row})
        with open(args.csv, "w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=keys)
            writer.writeheader()
            writer.writerows(rows)


if __name__ == "__main__":
    main()
