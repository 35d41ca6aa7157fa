"""McKenna et al.'s workload factorization mechanism against the certified estimation
optimum.

McKenna, Maity, Mazumdar and Miklau, "A workload-adaptive mechanism for linear queries
under local differential privacy", PVLDB 13(11), 2020, choose an ε-LDP strategy ``Q``
(m × n, columns are inputs, column-stochastic) by projected gradient descent on the
expected total squared workload error at uniform data. This file reimplements their
optimiser with their defaults, following their code (GitHub
``ryan112358/workload-factorization-mechanism``, commit ``356006e``) function by function:

* :func:`initialize` — ``factorization.initialize``: ``R = rand(rows, cols)`` projected
  onto the feasible set with every row's floor ``z`` at the midpoint of
  ``[1/(m e^ε), 1/m]``; ``m = 4n`` rows and ``np.random.seed(0)``, as their README
  recommends ("as we recommend in the paper").
* :func:`project_simplex_bounded`, :func:`project_ldp` — ``factorization.project_simplex_bounded``
  and ``project_ldp``: each column is projected (Euclidean) onto
  ``{q : z ≤ q ≤ e^ε z, Σ q = 1}``; ``z ≤ Q[y, ·] ≤ e^ε z`` for every row ``y`` is ε-LDP.
* :func:`average_variance` and its gradient — the objective inside
  ``factorization.factorize`` (autograd there; the closed-form gradient here):

  .. math::

      f(Q) = \\frac1n \\operatorname{tr}\\bigl(W (Q^\\top D^{-1} Q)^{-1} W^\\top\\bigr)
      - \\frac1n \\lVert W \\rVert_F^2, \\qquad D = \\operatorname{diag}(Q \\mathbf 1).

* :func:`factorize` — ``factorization.factorize``: gradient steps on ``Q`` and on the row
  floors ``z`` (their gradient gathered from the entries at a bound, step scaled by
  ``1/(n e^ε)``), projection, rows whose floor falls to ``1e-10`` dropped, the step
  halved every 50 iterations, and the best iterate returned.
* :func:`factorize_tuned` — ``factorization.factorize_tuned`` (the README's entry point):
  the step starts at 1 and halves until 50 iterations run without an exception; 50
  iterations each at that step, its half and its quarter; the one of least worst-case
  variance (``variance.worst_variance(W, Q, 'opt')``) continues for 250 iterations.

Checked against their code itself (autograd 1.9.1, numpy 2.4, Python 3.11): the same
strategy, entry by entry to 1e-14, on every instance below and at ε ∈ {0.5, 2, 4}, and
their README's example (n = 128, prefix, ε = 1, seed 0; worst-case variance 1910.8676) —
a domain beyond the certified design's reach.

**Convention** (:mod:`mechdesign.measures.estimation`). Their estimator ``V = W (QᵀD⁻¹Q)⁻¹QᵀD⁻¹``
(``variance.magic_vector(..., 'opt')``, the optimal ``V`` for ``Q`` at uniform data) is
the best linear unbiased estimator (BLUE) at the uniform prior, and their error
(``variance.average_variance``: per user, summed over the queries, the users' inputs
fixed, averaged over the input values) is mechdesign's per-report ``n · MSE`` against the
users' own histogram, ``blue_error(K, uniform, W)`` with ``K = Qᵀ``: ``r = pK = Q1/n``, so
``J = K diag(r)⁻¹ Kᵀ = n QᵀD⁻¹Q`` and ``tr(W J⁻¹ Wᵀ) − tr(W diag(p) Wᵀ) = f(Q)``. No
conversion is needed; against the distribution (``target="distribution"``, the i.i.d.
convention) every number here would be larger by ``‖W‖²_F/n − ‖W1‖²/n²``
(:func:`to_distribution_target`), the same for every kernel, and the ratios would shrink.

For k ∈ {8, 16}, the histogram, prefix and all-range workloads and ε = 1 (``--epsilon``
adds others), this runs their optimiser (seeds ``--seeds``, default 0) and
``md.design(md.LDP(ε), uniform, utility=md.EstimationError(workload))`` in the same
process and prints, per instance: their strategy's error with their estimator, with the
BLUE (``md.estimation_mse``, after auditing ε-LDP) and with least squares (``V = W Q⁺``,
``variance.py``'s default), mechdesign's certified bracket, and the ratio
``theirs (BLUE) / ours`` — the baseline is ours, from the same run.

Run: ``python benchmarks/workload_factorization.py [--k 8 16] [--workloads histogram
prefix all-range] [--epsilon 1] [--seeds 0] [--iterations 250] [--method auto]
[--out DIR] [--quick] [--table PATH|-]``; it writes ``workload_factorization.csv`` to
``--out`` (``benchmarks/results``) and the table, with both sides' seconds, to
``docs/benchmarks/workload_factorization.md``. ``--quick`` is k = 8 alone.
"""

from __future__ import annotations

import argparse
import csv
import math
import time
from pathlib import Path

import numpy as np

import mechdesign as md
from mechdesign.measures.estimation import workload_matrix

__all__ = [
    "InfeasibleProjectionError",
    "average_variance",
    "average_variance_gradient",
    "compare_instance",
    "design_optimum",
    "estimator_matrix",
    "factorize",
    "factorize_tuned",
    "initialize",
    "project_ldp",
    "project_simplex_bounded",
    "their_errors",
    "to_distribution_target",
    "variance_by_input",
    "workload_factorization",
]

#: Their defaults (factorization.py, README.md).
OUTPUT_FACTOR = 4  # m = 4n rows, README: "initialize(4*n, n, eps)"
TUNED_ITERATIONS = 250  # factorize_tuned(iters=250)
PROBE_ITERATIONS = 50  # the step-size probes of factorize_tuned
FIRST_STEP = 1.0
SMALLEST_STEP = 1e-50
HALVE_EVERY = 50  # factorize: "if t % 50 == 0: gamma *= 0.5"
DROP_FLOOR = 1e-10  # factorize: rows with z <= 1e-10 are dropped
PINV_RCOND = 1e-8  # variance.magic_vector's pinv(..., rcond=1e-8)
SEED = 0  # README: np.random.seed(0)

#: A kernel passes the ε-LDP audit when ``md.LDP(ε).level(K) ≤ ε + LDP_AUDIT_ATOL``.
LDP_AUDIT_ATOL = 1e-9

WORKLOADS = ("histogram", "prefix", "all-range")


class InfeasibleProjectionError(ArithmeticError):
    """The bounded simplex ``{lb ≤ q ≤ ub, Σ q = 1}`` is empty (their ``assert``)."""


def initialize(rows: int, cols: int, epsilon: float, seed: int = SEED) -> np.ndarray:
    """A random feasible strategy (rows × cols), ``factorization.initialize``.

    ``np.random.RandomState(seed).rand`` draws the same numbers as their
    ``np.random.seed(seed); np.random.rand(rows, cols)``.
    """
    r = np.random.RandomState(seed).rand(rows, cols)
    low = 1.0 / rows / np.exp(epsilon)
    high = 1.0 / rows
    z = (low + high) / 2 * np.ones(rows)
    return project_ldp(r, z, epsilon)


def project_simplex_bounded(r: np.ndarray, lb: np.ndarray, ub: np.ndarray) -> np.ndarray:
    """Euclidean projection of ``r`` onto ``{lb ≤ q ≤ ub, Σ q = 1}``,
    ``factorization.project_simplex_bounded``: the shift ``λ`` of ``clip(r + λ, lb, ub)``
    is found among the breakpoints ``lb − r`` and ``ub − r`` of the piecewise-linear sum.
    """
    if not (lb.sum() <= 1 and ub.sum() >= 1 and np.all(lb <= ub)):
        raise InfeasibleProjectionError("not feasible")
    lambdas = np.append(lb - r, ub - r)
    idx = np.argsort(lambdas)
    lambdas = lambdas[idx]
    active = np.cumsum((idx < r.size) * 2 - 1)[:-1]
    diffs = np.diff(lambdas, n=1)
    totals = lb.sum() + np.cumsum(active * diffs)
    i = np.searchsorted(totals, 1.0)
    lam = (1 - totals[i]) / active[i] + lambdas[i + 1]
    return np.clip(r + lam, lb, ub)


def project_ldp(q: np.ndarray, z: np.ndarray, epsilon: float) -> np.ndarray:
    """Each column of ``q`` (m × n) projected onto ``z ≤ q ≤ e^ε z, Σ q = 1``,
    ``factorization.project_ldp``."""
    lb = z
    ub = np.exp(epsilon) * z
    return np.array([project_simplex_bounded(column, lb, ub) for column in q.T]).T


def average_variance(w: np.ndarray, q: np.ndarray) -> float:
    """Their objective (``average_variance`` inside ``factorization.factorize``),
    ``tr(W (QᵀD⁻¹Q)⁻¹ Wᵀ)/n − ‖W‖²_F/n`` with ``D = diag(Q1)``: the BLUE's per-report
    error at the uniform prior against the users' histogram (module docstring)."""
    n = q.shape[1]
    wtw = w.T @ w
    d = np.sum(q, axis=1)
    inverse = np.linalg.inv(q.T / d @ q)
    return float(inverse.ravel() @ wtw.ravel() / n - np.trace(wtw) / n)


def average_variance_gradient(w: np.ndarray, q: np.ndarray) -> np.ndarray:
    """The gradient of :func:`average_variance` in ``Q`` (what autograd gives them).

    With ``M = QᵀD⁻¹Q`` and ``G = M⁻¹ (WᵀW/n) M⁻¹``: ``∂f/∂Q = −2 D⁻¹QG + h1ᵀ``,
    ``h_y = (QGQᵀ)_yy / d_y²`` (the second term through ``d = Q1``).
    """
    n = q.shape[1]
    d = np.sum(q, axis=1)
    inverse = np.linalg.inv(q.T / d @ q)
    g = inverse.T @ (w.T @ w / n) @ inverse.T
    scaled = q / d[:, None]
    h = np.einsum("yi,ij,yj->y", scaled, g, scaled)
    return -2.0 * scaled @ g + h[:, None]


def factorize(
    w: np.ndarray, epsilon: float, q0: np.ndarray, iters: int = 25, gamma: float = 1.0
) -> np.ndarray:
    """Projected gradient descent from ``q0`` with step ``gamma``,
    ``factorization.factorize``: the best iterate seen (the last step's result is not
    evaluated, as theirs)."""
    n = q0.shape[1]
    grow = np.exp(epsilon)
    q = np.copy(q0)
    z = q.min(axis=1)
    c = 1 / n / grow
    best, best_value = q, np.inf
    for t in range(1, iters + 1):
        # exact: the projection clips to exactly z and e^ε z (the active bounds)
        at_floor, at_ceiling = q == z[:, None], q == grow * z[:, None]
        value = average_variance(w, q)
        if value < best_value:
            best, best_value = q, value
        dq = average_variance_gradient(w, q)
        dz = (dq * at_floor).sum(axis=1) + grow * (dq * at_ceiling).sum(axis=1)
        if t % HALVE_EVERY == 0:
            gamma *= 0.5
        z = np.clip(z - c * gamma * dz, 0, 1)
        q = project_ldp(q - gamma * dq, z, epsilon)
        keep = z > DROP_FLOOR
        q, z = q[keep], z[keep]
    return best


#: What a too-long step raises in :func:`factorize` (their ``factorize_tuned`` catches
#: everything with a bare ``except``): a singular ``QᵀD⁻¹Q``, an empty projection, the
#: breakpoint search running off its end.
_STEP_FAILURES = (np.linalg.LinAlgError, InfeasibleProjectionError, IndexError, ValueError)


def worst_variance(w: np.ndarray, q: np.ndarray) -> float:
    """``variance.worst_variance(W, Q, 'opt')``: the largest per-input variance of their
    estimator (what ``factorize_tuned`` picks its step by)."""
    return float(variance_by_input(w, q, "opt").max())


def factorize_tuned(
    w: np.ndarray, epsilon: float, q0: np.ndarray, iters: int = TUNED_ITERATIONS
) -> np.ndarray:
    """``factorization.factorize_tuned``: their optimiser for an unknown step size."""
    gamma = FIRST_STEP
    q = None
    while gamma > SMALLEST_STEP:
        try:
            q = factorize(w, epsilon, q0, PROBE_ITERATIONS, gamma)
            break
        except _STEP_FAILURES:
            pass
        gamma *= 0.5
    if q is None:
        raise RuntimeError(f"no step size above {SMALLEST_STEP} ran {PROBE_ITERATIONS} "
                           "iterations without failing")
    gammas = [gamma, gamma / 2, gamma / 4]
    candidates = [q] + [factorize(w, epsilon, q0, PROBE_ITERATIONS, g) for g in gammas[1:]]
    i = int(np.argmin([worst_variance(w, c) for c in candidates]))
    return factorize(w, epsilon, candidates[i], iters, gammas[i])


def workload_factorization(
    w: np.ndarray, epsilon: float, seed: int = SEED, iters: int = TUNED_ITERATIONS
) -> np.ndarray:
    """Their strategy with their defaults (README): ``initialize(4n, n, ε)`` after
    ``np.random.seed(seed)``, then ``factorize_tuned``. Returns ``Q`` (m × n, m ≤ 4n),
    columns are inputs; ``Q.T`` is the kernel in mechdesign's convention."""
    n = w.shape[1]
    q0 = initialize(OUTPUT_FACTOR * n, n, epsilon, seed)
    return factorize_tuned(w, epsilon, q0, iters)


def estimator_matrix(q: np.ndarray, kind: str = "opt") -> np.ndarray:
    """The histogram estimator ``E`` (m × n, ``f̂ = π̂ E``) behind their workload
    estimator ``V = W Eᵀ``: ``"opt"`` ``E = D⁻¹Q(QᵀD⁻¹Q)⁻¹`` (``magic_vector``'s
    ``'opt'``), ``"pinv"`` ``E = (Q⁺)ᵀ`` (least squares, ``'pinv'``)."""
    if kind == "opt":
        d = q.sum(axis=1)
        return (q / d[:, None]) @ np.linalg.pinv(q.T / d @ q, rcond=PINV_RCOND,
                                                 hermitian=True)
    if kind == "pinv":
        return np.linalg.pinv(q, rcond=PINV_RCOND).T
    raise ValueError(f"kind must be 'opt' or 'pinv'. Found {kind!r}.")


def variance_by_input(w: np.ndarray, q: np.ndarray, kind: str = "opt") -> np.ndarray:
    """``variance.magic_vector``: per input ``x``, the variance of one user's answer to
    the workload, ``Σ_y Q[y, x] ‖V[:, y]‖² − ‖W[:, x]‖²``; its mean is their
    ``average_variance`` (uniform data), its max their ``worst_variance``."""
    v = w @ estimator_matrix(q, kind).T
    return ((v**2) @ q - w**2).sum(axis=0)


def to_distribution_target(value: float, w: np.ndarray) -> float:
    """Their error (users' histogram, uniform data) as the error against the uniform
    distribution itself (mechdesign's ``target="distribution"``): plus the multinomial
    term ``tr(W diag(p) Wᵀ) − ‖Wp‖² = ‖W‖²_F/n − ‖W1‖²/n²``."""
    n = w.shape[1]
    wp = w.sum(axis=1) / n
    return value + float(np.sum(w * w)) / n - float(wp @ wp)


def design_optimum(k: int, workload: str, epsilon: float, method: str) -> dict:
    """mechdesign's certified optimum at the uniform prior (the baseline), or NaN with
    the error when the design fails."""
    start = time.perf_counter()
    try:
        design = md.design(md.LDP(epsilon), np.full(k, 1.0 / k),
                           utility=md.EstimationError(workload), method=method)
    except md.MechDesignError as error:
        return {"ours_lower": math.nan, "ours_upper": math.nan, "ours": math.nan,
                "ours_status": f"failed: {type(error).__name__}: {error}",
                "ours_method": method, "ours_seconds": time.perf_counter() - start}
    return {"ours_lower": design.estimation.lower_bound,
            "ours_upper": design.estimation.upper_bound, "ours": design.utility,
            "ours_status": design.estimation.status, "ours_method": design.method,
            "ours_seconds": time.perf_counter() - start}


def their_errors(
    k: int, workload: str, epsilon: float, seed: int, iters: int = TUNED_ITERATIONS
) -> dict:
    """Their strategy (their defaults, ``seed``), audited for ε-LDP, and its error with
    their estimator, the BLUE and least squares (per report, users' histogram, uniform
    prior)."""
    w = workload_matrix(workload, k)
    prior = np.full(k, 1.0 / k)
    start = time.perf_counter()
    q = workload_factorization(w, epsilon, seed, iters)
    seconds = time.perf_counter() - start
    kernel = q.T  # rows are inputs
    level = md.LDP(epsilon).level(kernel)
    if level > epsilon + LDP_AUDIT_ATOL:
        raise SystemExit(f"their strategy fails the ε-LDP audit: level {level} > {epsilon}")
    # One report: estimation_mse is then the per-report error n · MSE.
    return {
        "k": k, "workload": workload, "epsilon": epsilon, "seed": seed, "iterations": iters,
        "outputs": q.shape[0], "ldp_level": level,
        "theirs_standard": float(variance_by_input(w, q, "opt").mean()),
        "theirs_objective": average_variance(w, q),
        "theirs_blue": md.estimation_mse(kernel, prior, 1, estimator="blue", workload=w),
        "theirs_least_squares": md.estimation_mse(
            kernel, prior, 1, estimator=estimator_matrix(q, "pinv"), workload=w),
        "theirs_seconds": seconds,
    }


def compare_instance(
    k: int, workload: str, epsilon: float, seeds, method: str,
    iters: int = TUNED_ITERATIONS,
) -> list[dict]:
    """One instance: their strategy for each seed against mechdesign's optimum (computed
    once, the baseline of every ratio)."""
    ours = design_optimum(k, workload, epsilon, method)
    rows = []
    for seed in seeds:
        row = their_errors(k, workload, epsilon, seed, iters) | ours
        row["ratio"] = row["theirs_blue"] / row["ours"]
        rows.append(row)
    return rows


def print_table(rows: list[dict]) -> None:
    print("\nPer-report n·MSE against the users' histogram, uniform prior; ratio = "
          "theirs (BLUE) / ours (baseline, same run)")
    header = (f"{'k':>3} {'workload':9} {'ε':>4} {'seed':>4} {'m':>3} {'theirs std':>11} "
              f"{'theirs BLUE':>11} {'theirs LS':>11} {'ours bracket':>27} {'ratio':>6}")
    print(header)
    print("-" * len(header))
    for r in rows:
        bracket = (f"[{r['ours_lower']:.8g}, {r['ours_upper']:.8g}]"
                   if math.isfinite(r["ours"]) else "design failed")
        print(f"{r['k']:3d} {r['workload']:9} {r['epsilon']:4g} {r['seed']:4d} "
              f"{r['outputs']:3d} {r['theirs_standard']:11.6g} {r['theirs_blue']:11.6g} "
              f"{r['theirs_least_squares']:11.6g} {bracket:>27} {r['ratio']:6.4f}")
    failed = {(r["k"], r["workload"], r["epsilon"]): r["ours_status"] for r in rows
              if not math.isfinite(r["ours"])}
    for (k, workload, epsilon), status in failed.items():
        print(f"  k = {k}, {workload}, ε = {epsilon:g}: {status}")
    ratios = [r["ratio"] for r in rows if math.isfinite(r["ratio"])]
    if ratios:
        print(f"\ntheirs / ours: {min(ratios):.4f} … {max(ratios):.4f} over "
              f"{len(ratios)} runs")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--k", type=int, nargs="+", default=[8, 16])
    parser.add_argument("--workloads", nargs="+", default=list(WORKLOADS), choices=WORKLOADS)
    parser.add_argument("--epsilon", type=float, nargs="+", default=[1.0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[SEED],
                        help="seeds of their random initialisation (README: 0)")
    parser.add_argument("--iterations", type=int, default=TUNED_ITERATIONS,
                        help="factorize_tuned's final iterations (theirs: 250)")
    parser.add_argument("--method", default="auto",
                        choices=["auto", "enumeration", "column_generation"],
                        help="mechdesign's design method (auto: column generation from "
                             "k = 13)")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results"))
    parser.add_argument("--quick", action="store_true", help="k = 8 only (seconds)")
    parser.add_argument("--table", default=None,
                        help="where the markdown table goes (default "
                             "docs/benchmarks/workload_factorization.md; '-': nowhere)")
    args = parser.parse_args()
    ks = [8] if args.quick else args.k
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / "workload_factorization.csv"
    start = time.perf_counter()
    rows = []
    for k in ks:
        for epsilon in args.epsilon:
            for workload in args.workloads:
                found = compare_instance(k, workload, epsilon, args.seeds, args.method,
                                         args.iterations)
                rows += found
                print(f"  k = {k:2d}, ε = {epsilon:g}, {workload:9s}: ours "
                      f"{found[0]['ours_seconds']:6.1f} s ({found[0]['ours_method']}), "
                      f"theirs {np.mean([r['theirs_seconds'] for r in found]):5.1f} s per "
                      "seed", flush=True)
                with open(path, "w", newline="") as handle:  # rewritten as rows come
                    writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
                    writer.writeheader()
                    writer.writerows(rows)
    print_table(rows)
    print(f"\n{path}; {time.perf_counter() - start:.0f} s in all")
    write_table(rows, args.table, time.perf_counter() - start)


def write_table(rows: list[dict], table: str | None, seconds: float) -> None:
    """The rows as markdown at ``table`` (``docs/benchmarks/workload_factorization.md`` by
    default) under the report's header. ``report`` is imported here: the tests load
    this file as a module, from outside the benchmarks folder."""
    import pandas as pd
    import report

    frame = pd.DataFrame(rows)
    bracket = [f"[{lo:.8g}, {hi:.8g}]" if math.isfinite(v) else "design failed"
               for lo, hi, v in zip(frame["ours_lower"], frame["ours_upper"], frame["ours"],
                                    strict=True)]
    shown = pd.DataFrame({
        "k": frame["k"], "workload": frame["workload"], "ε": frame["epsilon"],
        "seed": frame["seed"], "m": frame["outputs"], "theirs std": frame["theirs_standard"],
        "theirs BLUE": frame["theirs_blue"], "theirs LS": frame["theirs_least_squares"],
        "ours bracket": bracket, "theirs BLUE / ours": frame["ratio"],
        "ours s": frame["ours_seconds"], "theirs s": frame["theirs_seconds"]})
    finite = frame["ratio"][np.isfinite(frame["ratio"])]
    sections = report.Sections()
    sections.part(
        "Their strategy against the certified optimum", shown,
        "Per-report n·MSE against the users' histogram at the uniform prior; theirs (their "
        "optimiser with their defaults; std: their estimator, BLUE: ours applied to their "
        "strategy, LS: least squares) beside ours, the certified bracket of the "
        "estimation-optimal ε-LDP design, the baseline of the ratio, in the same run. "
        + (f"Theirs / ours from {finite.min():.4f} to {finite.max():.4f} over {len(finite)} "
           f"runs; {seconds:.0f} s in all." if len(finite) else ""))
    sections.write(table or report.DOCS / "workload_factorization.md",
                   "McKenna et al.'s workload factorization mechanism against the "
                   "certified estimation optimum", "the certified optimum of each instance")


if __name__ == "__main__":
    main()
