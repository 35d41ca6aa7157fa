"""The robust-LDP paper's experiments (Sec. 8), reproduced with mechdesign.

Parts (all run by default; each writes CSV files and, where the paper has a figure, a PNG
into ``--out``):

``adult``
    Fig. 2: normalised mutual information ``NMI = I_P̂(X;Y) / H_P̂(X)`` against ε for GRR,
    SRR, IR, PolyOpt (our default variant and the paper's) and NR on pairs of Adult
    attributes (``../shared/data/adult.csv``): two small pairs where vertex enumeration
    finishes and two large ones (occupation × education, |X| = 240, where the paper
    gave up) with GRR, SRR and IR only.
``synthetic``
    Figs. 3–5: ``P*`` from the Jeffreys prior Dirichlet(1/2) on the small pairs'
    alphabets, ``n = 32,561`` samples per repetition, ``P̂`` their frequencies, the χ²
    ball at β = 0.05. Mean NMI per mechanism (Fig. 3); the realised ``ε*`` under ``P*``
    of NR and PolyOpt, 25 %/75 % quantiles (Fig. 4); ``(I_P̂ − I_P*)/I_P̂`` at ε = 1.5
    (Fig. 5); and whether ``P*`` fell in the ball.
``beta``
    Table 2: mean NMI of PolyOpt and IR at ε = 1.5 for several β (SRR does not depend
    on β).
``scaling``
    Where vertex enumeration gives up: PolyOpt (default variant) at ε = 1 on Adult pairs
    of growing |X|, each in a subprocess with a time limit.

Run: ``python benchmarks/rldp_experiments.py [adult|synthetic|beta|scaling|all]
[--out DIR] [--reps R] [--workers W] [--quick]``. Seeds are fixed (``--seed``). The
test suite runs :func:`run` with a tiny configuration (tests/test_rldp_experiments.py).
"""

from __future__ import annotations

import argparse
import csv
import math
import multiprocessing
import sys
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
from tqdm import tqdm

import mechdesign as md
from mechdesign.datasets import categorical_pair
from mechdesign.errors import MechDesignError

ADULT = Path(__file__).resolve().parents[2] / "shared" / "data" / "adult.csv"
MECHANISMS = ("GRR", "SRR", "IR", "PolyOpt", "PolyOpt-paper", "NR")
LOW_COMPLEXITY = ("GRR", "SRR", "IR")
#: PolyOpt's vertex cap here: the McMullen bound is far above the true count (GUIDE.md).
MAX_VERTICES = 10**12


@dataclass(frozen=True)
class Config:
    """What to run; the defaults are the full settings."""

    small_pairs: tuple[tuple[str, str], ...] = (("sex", "race"), ("sex", "relationship"))
    large_pairs: tuple[tuple[str, str], ...] = (
        ("occupation", "education"),
        ("marital-status", "occupation"),
    )
    epsilons: tuple[float, ...] = (0.075, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0)
    reps: int = 100
    n_samples: int = 32_561
    beta: float = 0.05
    betas: tuple[float, ...] = (0.001, 0.01, 0.05, 0.1)
    robustness_epsilon: float = 1.5
    seed: int = 2024
    workers: int = 2
    scaling_pairs: tuple[tuple[str, str], ...] = (
        ("sex", "Salary"),
        ("sex", "race"),
        ("race", "sex"),
        ("sex", "relationship"),
        ("sex", "marital-status"),
        ("sex", "occupation"),
    )
    scaling_seconds: float = 150.0
    #: The synthetic part runs the paper's mechanisms; the paper variant of PolyOpt is
    #: compared with ours on Adult (it costs 4-8 x our default's enumeration time).
    synthetic_mechanisms: tuple[str, ...] = ("GRR", "SRR", "IR", "PolyOpt", "NR")
    data: Path = field(default=ADULT)


QUICK = Config(
    small_pairs=(("sex", "Salary"),),
    large_pairs=(("occupation", "education"),),
    epsilons=(0.5, 1.0, 2.0),
    reps=3,
    betas=(0.01, 0.05),
    workers=1,
    scaling_pairs=(("sex", "Salary"), ("sex", "race")),
    scaling_seconds=60.0,
)


# -- one design problem -----------------------------------------------------------------


def entropy(p: np.ndarray) -> float:
    q = p[p > 0]
    return float(-(q * np.log(q)).sum())


def mechanisms_for(
    p_hat: np.ndarray,
    shape: tuple[int, int],
    epsilon: float,
    beta: float,
    n_samples: int,
    names: Iterable[str] = MECHANISMS,
) -> dict[str, tuple[md.Mechanism, float]]:
    """Each named mechanism for the estimate ``P̂`` with the seconds it took; a design
    that fails with the package's own error gives ``(None, error message)``."""
    ball = md.RenyiBall(p_hat, 2.0, md.chi2_radius(n_samples, p_hat.size, beta))
    out = {}
    for name in names:
        start = time.perf_counter()
        try:
            kernel = _one_mechanism(name, p_hat, shape, epsilon, ball)
        except MechDesignError as exc:
            out[name] = (None, f"{type(exc).__name__}: {exc}")
            continue
        out[name] = (kernel, time.perf_counter() - start)
    return out


def _one_mechanism(name, p_hat, shape, epsilon, ball) -> md.Mechanism:
    if name == "GRR":
        return md.randomized_response(p_hat.size, epsilon)
    if name == "SRR":
        return md.secret_randomized_response(shape, epsilon)
    if name == "IR":
        return md.design_independent_reporting(epsilon, ball, shape).mechanism
    if name in ("PolyOpt", "PolyOpt-paper"):
        variant = "paper" if name == "PolyOpt-paper" else "default"
        notion = md.RobustLDP(epsilon, ball, shape, variant=variant)
        return md.design(notion, p_hat, max_vertices=MAX_VERTICES).mechanism
    if name == "NR":
        notion = md.NonRobustLDP(epsilon, p_hat, shape)
        return md.design(notion, p_hat, max_vertices=MAX_VERTICES).mechanism
    raise ValueError(f"unknown mechanism {name!r}")


# -- Fig. 2: Adult ------------------------------------------------------------------------


def adult_rows(config: Config) -> list[dict]:
    rows = []
    jobs = [(pair, MECHANISMS) for pair in config.small_pairs]
    jobs += [(pair, LOW_COMPLEXITY) for pair in config.large_pairs]
    for (sensitive, other), names in tqdm(jobs, desc="adult pairs"):
        data = categorical_pair(config.data, sensitive, other)
        h = entropy(data.p_hat)
        for eps in tqdm(config.epsilons, desc=f"{sensitive} x {other}", leave=False):
            found = mechanisms_for(data.p_hat, data.shape, eps, config.beta, data.n_samples, names)
            for name, (kernel, seconds) in found.items():
                if kernel is None:
                    raise RuntimeError(f"{name} failed on {sensitive} x {other}: {seconds}")
                utility = md.mutual_information(kernel, data.p_hat)
                rows.append(
                    {
                        "pair": f"{sensitive} x {other}",
                        "size": data.p_hat.size,
                        "mechanism": name,
                        "epsilon": eps,
                        "utility": utility,
                        "nmi": utility / h,
                        "seconds": seconds,
                    }
                )
    return rows


# -- Figs. 3-5 and Table 2: synthetic data -------------------------------------------------


def _synthetic_rep(args: tuple) -> list[dict]:
    """One repetition: draw P*, sample P̂, design everything at every ε (and, at the
    robustness ε, PolyOpt and IR at every β)."""
    shape, rep, config = args
    rng = np.random.default_rng([config.seed, shape[0], shape[1], rep])
    size = shape[0] * shape[1]
    while True:
        p_star = rng.dirichlet(np.full(size, 0.5))
        counts = rng.multinomial(config.n_samples, p_star)
        if np.all(counts.reshape(shape).sum(axis=1) > 0):
            break  # P̂_s > 0 for every s (Theorem 1 needs it)
    p_hat = counts / config.n_samples
    h = entropy(p_hat)
    rows = []

    def record(part, name, eps, beta, kernel, seconds, in_ball):
        if kernel is None:  # the design failed; keep the row, with the error
            rows.append({
                "part": part, "shape": f"{shape[0]}x{shape[1]}", "rep": rep,
                "mechanism": name, "epsilon": eps, "beta": beta, "nmi": math.nan,
                "utility_hat": math.nan, "utility_star": math.nan,
                "realised_epsilon": math.nan, "p_star_in_ball": in_ball,
                "seconds": math.nan, "error": seconds,
            })
            return
        u_hat = md.mutual_information(kernel, p_hat)
        rows.append(
            {
                "part": part,
                "shape": f"{shape[0]}x{shape[1]}",
                "rep": rep,
                "mechanism": name,
                "epsilon": eps,
                "beta": beta,
                "nmi": u_hat / h,
                "utility_hat": u_hat,
                "utility_star": md.mutual_information(kernel, p_star),
                "realised_epsilon": md.realised_epsilon(kernel, p_star, shape),
                "p_star_in_ball": in_ball,
                "seconds": seconds,
                "error": "",
            }
        )

    radius = md.chi2_radius(config.n_samples, size, config.beta)
    in_ball = md.RenyiBall(p_hat, 2.0, radius).contains(p_star)
    for eps in config.epsilons:
        found = mechanisms_for(
            p_hat, shape, eps, config.beta, config.n_samples, config.synthetic_mechanisms
        )
        for name, (kernel, seconds) in found.items():
            record("synthetic", name, eps, config.beta, kernel, seconds, in_ball)
    for beta in config.betas:
        if beta == config.beta and config.robustness_epsilon in config.epsilons:
            continue  # already in the synthetic part
        radius = md.chi2_radius(config.n_samples, size, beta)
        in_ball_b = md.RenyiBall(p_hat, 2.0, radius).contains(p_star)
        found = mechanisms_for(
            p_hat, shape, config.robustness_epsilon, beta, config.n_samples, ("PolyOpt", "IR")
        )
        for name, (kernel, seconds) in found.items():
            record("beta", name, config.robustness_epsilon, beta, kernel, seconds, in_ball_b)
    return rows


def synthetic_rows(config: Config) -> list[dict]:
    """Every repetition's rows. A repetition whose worker process dies is retried once in
    a fresh pool, then reported (on stderr) and left out; design failures inside a
    repetition are rows with an ``error`` (see :func:`mechanisms_for`)."""
    shapes = [categorical_pair(config.data, s, u).shape for s, u in config.small_pairs]
    tasks = [(shape, rep, config) for shape in shapes for rep in range(config.reps)]
    rows: list[dict] = []
    if config.workers <= 1:
        for task in tqdm(tasks, desc="synthetic repetitions"):
            rows += _synthetic_rep(task)
        return rows
    context = multiprocessing.get_context("spawn")
    attempts = dict.fromkeys(range(len(tasks)), 0)
    pending = list(range(len(tasks)))
    with tqdm(total=len(tasks), desc="synthetic repetitions") as bar:
        while pending:
            retry = []
            with ProcessPoolExecutor(config.workers, mp_context=context) as pool:
                futures = {pool.submit(_synthetic_rep, tasks[i]): i for i in pending}
                for future in as_completed(futures):
                    i = futures[future]
                    try:
                        rows += future.result()
                        bar.update()
                    except BrokenProcessPool:
                        attempts[i] += 1
                        if attempts[i] < 2:
                            retry.append(i)
                        else:
                            shape, rep, _ = tasks[i]
                            tqdm.write(f"repetition {rep} on {shape} killed its worker twice; "
                                       "left out", file=sys.stderr)
                            bar.update()
            pending = retry
    return rows


def summarise_synthetic(rows: list[dict], config: Config) -> dict[str, list[dict]]:
    """Fig. 3 means, Fig. 4 quantiles, Fig. 5 differences and Table 2."""
    failed = [r for r in rows if r.get("error")]
    rows = [r for r in rows if not r.get("error")]
    fig3, fig4, fig5, table2 = [], [], [], []
    keys = sorted({(r["shape"], r["mechanism"], r["epsilon"]) for r in rows + failed
                   if r["part"] == "synthetic"})
    for shape, name, eps in keys:
        group = [r for r in rows if r["part"] == "synthetic" and r["shape"] == shape
                 and r["mechanism"] == name and r["epsilon"] == eps]
        nmi = np.array([r["nmi"] for r in group])
        failures = sum(1 for r in failed if r["part"] == "synthetic" and r["shape"] == shape
                       and r["mechanism"] == name and r["epsilon"] == eps)
        fig3.append({"shape": shape, "mechanism": name, "epsilon": eps,
                     "mean_nmi": nmi.mean() if group else math.nan,
                     "std_nmi": nmi.std() if group else math.nan,
                     "reps": len(group), "failed_designs": failures})
        if not group:
            continue
        if name in ("NR", "PolyOpt", "PolyOpt-paper"):
            star = np.array([r["realised_epsilon"] for r in group])
            inside = np.array([r["p_star_in_ball"] for r in group])
            fig4.append({
                "shape": shape, "mechanism": name, "epsilon": eps,
                "q25": np.quantile(star, 0.25), "median": np.median(star),
                "q75": np.quantile(star, 0.75),
                "fraction_above_epsilon": float(np.mean(star > eps + 1e-9)),
                "fraction_above_in_ball": float(np.mean(star[inside] > eps + 1e-9))
                if inside.any() else math.nan,
                "fraction_p_star_in_ball": float(inside.mean()),
            })
        if eps == config.robustness_epsilon:
            for r in group:
                fig5.append({"shape": shape, "mechanism": name, "rep": r["rep"],
                             "relative_difference":
                             (r["utility_hat"] - r["utility_star"]) / r["utility_hat"]})
    for shape in sorted({r["shape"] for r in rows}):
        for name in ("PolyOpt", "IR", "SRR"):
            for beta in config.betas:
                group = [r for r in rows if r["shape"] == shape and r["mechanism"] == name
                         and r["epsilon"] == config.robustness_epsilon
                         and (r["beta"] == beta or name == "SRR")
                         and r["part"] in ("beta", "synthetic")]
                if name == "SRR":
                    group = [r for r in group if r["part"] == "synthetic"]
                if group:
                    table2.append({"shape": shape, "mechanism": name, "beta": beta,
                                   "mean_nmi": float(np.mean([r["nmi"] for r in group])),
                                   "reps": len(group)})
    return {"fig3_synthetic_nmi": fig3, "fig4_realised_epsilon": fig4,
            "fig5_utility_robustness": fig5, "table2_beta": table2}


# -- where enumeration gives up -----------------------------------------------------------


def _polyopt_size(args: tuple) -> dict:
    sensitive, other, data = args
    pair = categorical_pair(data, sensitive, other)
    notion = md.RobustLDP(1.0, pair.ball(0.05), pair.shape)
    cone = notion.cone(pair.p_hat.size)
    start = time.perf_counter()
    # No vertex cap here (McMullen's bound for |X| = 30 is 4e26 against a true count in
    # the thousands at |X| = 10): the time limit decides where enumeration gives up.
    result = md.design(notion, pair.p_hat, max_vertices=10**100)
    return {
        "pair": f"{sensitive} x {other}",
        "size": pair.p_hat.size,
        "inequalities": int(cone.inequalities().shape[0]),
        "mcmullen_bound": cone.vertex_bound(),
        "vertices": result.summary()["n_vertices"],
        "seconds": time.perf_counter() - start,
        "status": "finished",
    }


def scaling_rows(config: Config) -> list[dict]:
    rows = []
    context = multiprocessing.get_context("spawn")
    for sensitive, other in tqdm(config.scaling_pairs, desc="PolyOpt sizes"):
        pair = categorical_pair(config.data, sensitive, other)
        with ProcessPoolExecutor(1, mp_context=context) as pool:
            future = pool.submit(_polyopt_size, (sensitive, other, config.data))
            try:
                rows.append(future.result(timeout=config.scaling_seconds))
                continue
            except TimeoutError:
                for process in list(pool._processes.values()):
                    process.terminate()
                status = f"gave up after {config.scaling_seconds:g} s"
            except MechDesignError as exc:
                status = f"failed: {type(exc).__name__}: {exc}"
            cone = md.RobustLDP(1.0, pair.ball(0.05), pair.shape).cone(pair.p_hat.size)
            rows.append({
                "pair": f"{sensitive} x {other}", "size": pair.p_hat.size,
                "inequalities": int(cone.inequalities().shape[0]),
                "mcmullen_bound": cone.vertex_bound(), "vertices": "",
                "seconds": config.scaling_seconds, "status": status,
            })
    return rows


# -- output -------------------------------------------------------------------------------


def write_csv(path: Path, rows: list[dict]) -> None:
    if not rows:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


STYLE = {"GRR": ("tab:gray", "v"), "SRR": ("tab:orange", "s"), "IR": ("tab:green", "^"),
         "PolyOpt": ("tab:blue", "o"), "PolyOpt-paper": ("tab:cyan", "o"), "NR": ("tab:red", "x")}


def _nmi_figure(path: Path, panels: dict[str, list[dict]], key: str, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels), 3.6), squeeze=False)
    for ax, (panel, rows) in zip(axes[0], panels.items(), strict=True):
        for name in MECHANISMS:
            pts = sorted((r["epsilon"], r[key]) for r in rows if r["mechanism"] == name)
            if pts:
                color, marker = STYLE[name]
                ax.plot(*zip(*pts, strict=True), marker=marker, color=color, label=name)
        ax.set_title(panel, fontsize=10)
        ax.set_xlabel("ε (nats)")
        ax.set_ylabel("NMI = I_P̂(X;Y) / H(X)")
        ax.grid(alpha=0.3)
    axes[0][0].legend(fontsize=8)
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def plot_all(out: Path, results: dict[str, list[dict]]) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    written = []
    if results.get("adult_nmi"):
        panels = {}
        for r in results["adult_nmi"]:
            panels.setdefault(f"{r['pair']} (|X| = {r['size']})", []).append(r)
        path = out / "fig2_adult_nmi.png"
        _nmi_figure(path, panels, "nmi", "Adult data (robust-LDP paper, Fig. 2)")
        written.append(path)
    if results.get("fig3_synthetic_nmi"):
        panels = {}
        for r in results["fig3_synthetic_nmi"]:
            panels.setdefault(f"synthetic |X| = {r['shape']}", []).append(r)
        path = out / "fig3_synthetic_nmi.png"
        _nmi_figure(path, panels, "mean_nmi", "Synthetic data, mean NMI (Fig. 3)")
        written.append(path)
    if results.get("fig4_realised_epsilon"):
        rows = results["fig4_realised_epsilon"]
        shapes = sorted({r["shape"] for r in rows})
        fig, axes = plt.subplots(1, len(shapes), figsize=(4.2 * len(shapes), 3.6), squeeze=False)
        for ax, shape in zip(axes[0], shapes, strict=True):
            for name in ("NR", "PolyOpt", "PolyOpt-paper"):
                pts = sorted((r["epsilon"], r["q25"], r["q75"]) for r in rows
                             if r["shape"] == shape and r["mechanism"] == name)
                if pts:
                    eps, lo, hi = map(np.array, zip(*pts, strict=True))
                    color, _ = STYLE[name]
                    ax.fill_between(eps, lo, hi, color=color, alpha=0.3, label=f"{name} 25–75 %")
            top = max(r["epsilon"] for r in rows)
            ax.plot([0, top], [0, top], "k--", lw=1, label="ε* = ε")
            ax.set_xlabel("ε (nats)")
            ax.set_ylabel("realised ε* under P*")
            ax.set_title(f"synthetic |X| = {shape}", fontsize=10)
            ax.grid(alpha=0.3)
        axes[0][0].legend(fontsize=8)
        fig.suptitle("Realised privacy parameter (Fig. 4)", fontsize=11)
        fig.tight_layout()
        path = out / "fig4_realised_epsilon.png"
        fig.savefig(path, dpi=120)
        plt.close(fig)
        written.append(path)
    if results.get("fig5_utility_robustness"):
        rows = results["fig5_utility_robustness"]
        names = [n for n in MECHANISMS if any(r["mechanism"] == n for r in rows)]
        fig, ax = plt.subplots(figsize=(6.5, 3.6))
        data = [[r["relative_difference"] for r in rows if r["mechanism"] == n] for n in names]
        ax.boxplot(data)
        ax.set_xticks(range(1, len(names) + 1), names)
        ax.axhline(0, color="k", lw=0.8)
        ax.set_ylabel("(I_P̂ − I_P*) / I_P̂")
        ax.set_title("Utility robustness at ε = 1.5 (Fig. 5)", fontsize=11)
        fig.tight_layout()
        path = out / "fig5_utility_robustness.png"
        fig.savefig(path, dpi=120)
        plt.close(fig)
        written.append(path)
    return written


def run(config: Config, parts: Iterable[str], out: Path) -> dict[str, list[dict]]:
    """Run the named parts, write their CSV and PNG files into ``out``, return the rows."""
    parts = set(parts)
    results: dict[str, list[dict]] = {}
    def save(names):  # write each part's files as soon as it is done
        for name in names:
            write_csv(out / f"{name}.csv", results[name])

    if "adult" in parts:
        results["adult_nmi"] = adult_rows(config)
        save(["adult_nmi"])
    if parts & {"synthetic", "beta"}:
        chosen = config if "beta" in parts else replace(config, betas=())
        runs = synthetic_rows(chosen)
        results["synthetic_runs"] = runs
        summary = summarise_synthetic(runs, chosen)
        if "synthetic" not in parts:
            summary = {"table2_beta": summary["table2_beta"]}
        results.update(summary)
        save(["synthetic_runs", *summary])
    if "scaling" in parts:
        results["polyopt_scaling"] = scaling_rows(config)
        save(["polyopt_scaling"])
    plot_all(out, results)
    return results


def _print_tables(results: dict[str, list[dict]], epsilons=(0.5, 1.0, 2.0)) -> None:
    if results.get("adult_nmi"):
        print("\nNMI on Adult pairs (Fig. 2)")
        pairs = sorted({r["pair"] for r in results["adult_nmi"]})
        for pair in pairs:
            print(f"  {pair}")
            for name in MECHANISMS:
                vals = {r["epsilon"]: r["nmi"] for r in results["adult_nmi"]
                        if r["pair"] == pair and r["mechanism"] == name}
                if vals:
                    cells = "  ".join(f"ε={e:g}: {vals[e]:.4f}" for e in epsilons if e in vals)
                    print(f"    {name:14s} {cells}")
    for key in ("fig4_realised_epsilon", "table2_beta", "polyopt_scaling"):
        if results.get(key):
            print(f"\n{key}")
            for r in results[key]:
                print("  " + ", ".join(
                    f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}" for k, v in r.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("parts", nargs="*", default="all",
                        choices=["adult", "synthetic", "beta", "scaling", "all"])
    parser.add_argument("--out", type=Path, default=Path("rldp_results"))
    parser.add_argument("--reps", type=int, help="synthetic repetitions (default 100)")
    parser.add_argument("--workers", type=int, help="processes for the synthetic part (2)")
    parser.add_argument("--seed", type=int)
    parser.add_argument("--quick", action="store_true", help="tiny settings (seconds)")
    args = parser.parse_args()
    config = QUICK if args.quick else Config()
    for name in ("reps", "workers", "seed"):
        if getattr(args, name) is not None:
            config = replace(config, **{name: getattr(args, name)})
    parts = {"adult", "synthetic", "beta", "scaling"} if "all" in args.parts else set(args.parts)
    start = time.perf_counter()
    results = run(config, parts, args.out)
    _print_tables(results)
    print(f"\nwrote {args.out}/ in {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
