"""The robust-LDP paper's examples and experiments (Sec. 8), reproduced with mechdesign.

Lopuhaä-Zwakenberg and Goseling, *Mechanisms for Robust Local Differential Privacy*,
Entropy 26(3):233, 2024 [1]_.

Items of ``mechdesign reproduce --paper robust-ldp``:

``Examples 1–5``
    Every number the paper prints for its running example (P̂ from n = 100 records, the
    χ² ball at β = 0.05, ε = log 2): radii, conditional bounds, PolyOpt's utility, GRR,
    SRR and IR. Example 2's and Example 3's printed values contain errors (the checks name
    the correct values).
``Fig. 2``
    Normalised mutual information ``NMI = I_P̂(X;Y) / H_P̂(X)`` against ε for GRR, SRR, IR,
    PolyOpt (the paper's variant and our default) and NR on pairs of Adult attributes:
    two small pairs where vertex enumeration finishes and two large ones (occupation ×
    education, |X| = 240, where the paper gave up) with GRR, SRR and IR only. Reads the
    Adult data shipped with the package, or the CSV of
    :class:`~mechdesign.reproduce.Settings` ``data``.
``Figs. 3–5, Table 2``
    ``P*`` from the Jeffreys prior Dirichlet(1/2) on the small pairs' alphabets (2 × 5
    and 2 × 6), ``n = 32,561`` samples per repetition, ``P̂`` their frequencies, the χ²
    ball at β = 0.05. Mean NMI per mechanism (Fig. 3); the realised ``ε*`` under ``P*``
    of NR and PolyOpt, 25 %/75 % quantiles (Fig. 4); ``(I_P̂ − I_P*)/I_P̂`` at ε = 1.5
    (Fig. 5); mean NMI of PolyOpt, IR and SRR at ε = 1.5 for β ∈ {0.001, 0.01, 0.05, 0.1}
    (Table 2). 100 repetitions per alphabet, as in the paper (about 13 minutes on two
    cores).

The script ``benchmarks/rldp_experiments.py`` runs the same experiments with its own
options, and also :func:`scaling_rows` (where vertex enumeration gives up). Seeds are
fixed.

References
----------
.. [1] M. Lopuhaä-Zwakenberg, J. Goseling, "Mechanisms for Robust Local Differential
   Privacy", Entropy 26(3):233, 2024, doi:10.3390/e26030233.
"""

from __future__ import annotations

import csv
import math
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path

import numpy as np
from numpy.typing import NDArray
from scipy.stats import chi2
from tqdm import tqdm

import mechdesign as md
from mechdesign.errors import MechDesignError
from mechdesign.notions.cones import section_argmax
from mechdesign.notions.datasets import adult_csv, categorical_pair
from mechdesign.reproduce._core import (
    EXTRACTION,
    TYPO,
    Check,
    Item,
    ItemResult,
    Settings,
    check_claim,
    check_printed,
)
from mechdesign.reproduce._plot import pyplot, save
from mechdesign.sweeps.pool import worker_pool

PAPER = "robust-ldp"
MECHANISMS = md.mechanisms.ROBUST_LDP_MECHANISMS
LOW_COMPLEXITY = ("GRR", "SRR", "IR")
#: PolyOpt's vertex cap here: the McMullen bound is far above the true count.
MAX_VERTICES = 10**12


@dataclass(frozen=True)
class Config:
    """What to run; the defaults are the paper's settings (Sec. 8)."""

    small_pairs: tuple[tuple[str, str], ...] = (("sex", "race"), ("sex", "relationship"))
    large_pairs: tuple[tuple[str, str], ...] = (
        ("occupation", "education"),
        ("marital-status", "occupation"),
    )
    #: The alphabets of the synthetic experiments, (|S|, |U|): those of the small pairs
    #: (sex × race and sex × relationship in the Adult data).
    synthetic_shapes: tuple[tuple[int, int], ...] = ((2, 5), (2, 6))
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
    data: Path | None = None
    #: The sweep store of the synthetic repetitions (:func:`mechdesign.sweep`): a rerun
    #: with the same settings computes only the missing ones. None keeps nothing.
    store: Path | None = None


#: Tiny settings: seconds, for the tests and ``--quick``.
QUICK = Config(
    small_pairs=(("sex", "Salary"),),
    large_pairs=(("occupation", "education"),),
    synthetic_shapes=((2, 2),),
    epsilons=(0.5, 1.0, 2.0),
    reps=3,
    betas=(0.01, 0.05),
    workers=1,
    scaling_pairs=(("sex", "Salary"), ("sex", "race")),
    scaling_seconds=60.0,
)


def find_adult(given: Path | None = None) -> Path:
    """The Adult CSV: ``given`` if set (it must exist), else the copy shipped with the
    package (:func:`~mechdesign.notions.datasets.adult_csv`)."""
    if given is not None:
        if not Path(given).is_file():
            raise FileNotFoundError(f"data: no file {given}")
        return Path(given)
    return adult_csv()


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
    return md.mechanisms.robust_ldp_mechanism(name, epsilon, ball, shape,
                                           max_vertices=MAX_VERTICES).mechanism


# -- Fig. 2: Adult ------------------------------------------------------------------------


def _adult(config: Config) -> Path:
    return find_adult(config.data)


def adult_rows(config: Config) -> list[dict]:
    """Fig. 2: one row per (pair, ε, mechanism) with ``I_P̂``, NMI and seconds."""
    path = _adult(config)
    rows = []
    jobs = [(pair, MECHANISMS) for pair in config.small_pairs]
    jobs += [(pair, LOW_COMPLEXITY) for pair in config.large_pairs]
    for (sensitive, other), names in tqdm(jobs, desc="adult pairs"):
        data = categorical_pair(path, sensitive, other)
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
                "realised_epsilon": md.notions.realised_epsilon(kernel, p_star, shape),
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


def _synthetic_point(alphabet: tuple[int, int], repetition: int, config: Config) -> list[dict]:
    """One repetition as sweep records: the rows of :func:`_synthetic_rep`, with its
    ``seconds`` and ``error`` (the sweep's own column names) as ``design_*``."""
    rows = _synthetic_rep((tuple(alphabet), repetition, config))
    return [{("design_" + k if k in ("seconds", "error") else k): v for k, v in r.items()}
            for r in rows]


def synthetic_rows(config: Config) -> list[dict]:
    """Every repetition's rows, through :func:`mechdesign.sweep` (``config.workers``
    local processes, or this process for one; the store ``config.store`` when set, so an
    interrupted run resumes with the missing repetitions). A repetition that fails as a
    whole (its worker died twice) is reported on stderr and left out; design failures
    inside a repetition are rows with an ``error`` (see :func:`mechanisms_for`)."""
    # The repetition's result depends on the settings, not on where it runs or is kept.
    task = partial(_synthetic_point, config=replace(config, workers=1, store=None, data=None))
    grid = {"alphabet": [tuple(shape) for shape in config.synthetic_shapes],
            "repetition": list(range(config.reps))}
    table = md.sweep(task, grid, store=config.store,
                     executor="serial" if config.workers <= 1 else config.workers)
    rows: list[dict] = []
    for record in table.to_dict("records"):
        if record["error"]:
            tqdm.write(f"repetition {record['repetition']} on {record['alphabet']} failed "
                       f"({record['error']}); left out", file=sys.stderr)
            continue
        rows.append({("error" if k == "design_error" else
                      "seconds" if k == "design_seconds" else k): v
                     for k, v in record.items()
                     if k not in ("alphabet", "repetition", "seconds", "error")})
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
    result = md.design(notion, pair.p_hat, method="enumeration", max_vertices=10**100)
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
    """PolyOpt (default variant, ε = 1, β = 0.05) on Adult pairs of growing |X|, each in
    a subprocess stopped after ``config.scaling_seconds``."""
    path = _adult(config)
    rows = []
    for sensitive, other in tqdm(config.scaling_pairs, desc="PolyOpt sizes"):
        pair = categorical_pair(path, sensitive, other)
        with worker_pool(1) as pool:
            future = pool.submit(_polyopt_size, (sensitive, other, path))
            try:
                rows.append(future.result(timeout=config.scaling_seconds))
                continue
            except KeyboardInterrupt:
                for process in list(pool._processes.values()):
                    process.terminate()
                raise
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
NMI_LABEL = r"NMI $= I_{\hat P}(X;Y)\,/\,H_{\hat P}(X)$"


def _panels(n: int, height: float = 3.8):
    """A figure with ``n`` panels: one row, or 2 × 2 for four."""
    rows, cols = (2, 2) if n == 4 else (1, n)
    fig, axes = pyplot().subplots(rows, cols, figsize=(4.6 * cols, height * rows), squeeze=False)
    return fig, list(axes.flat)


def _nmi_figure(path: Path, panels: dict[str, list[dict]], key: str, title: str) -> Path:
    fig, axes = _panels(len(panels))
    for ax, (panel, rows) in zip(axes, panels.items(), strict=True):
        for name in MECHANISMS:
            pts = sorted((r["epsilon"], r[key]) for r in rows if r["mechanism"] == name)
            if pts:
                color, marker = STYLE[name]
                ax.plot(*zip(*pts, strict=True), marker=marker, ms=4, color=color, label=name)
        ax.set(title=panel, xlabel=r"$\varepsilon$ (nats)", ylabel=NMI_LABEL)
        ax.set_ylim(bottom=0)
        ax.title.set_fontsize(10)
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=8, loc="upper left")
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    return save(fig, path)


def _fig4(path: Path, rows: list[dict]) -> Path:
    shapes = sorted({r["shape"] for r in rows})
    fig, axes = _panels(len(shapes))
    for ax, shape in zip(axes, shapes, strict=True):
        for name in ("NR", "PolyOpt", "PolyOpt-paper"):
            pts = sorted((r["epsilon"], r["q25"], r["median"], r["q75"]) for r in rows
                         if r["shape"] == shape and r["mechanism"] == name)
            if pts:
                eps, lo, mid, hi = map(np.array, zip(*pts, strict=True))
                color, marker = STYLE[name]
                ax.fill_between(eps, lo, hi, color=color, alpha=0.25,
                                label=f"{name}: 25–75 % quantiles")
                ax.plot(eps, mid, marker=marker, ms=4, color=color, lw=1,
                        label=f"{name}: median")
        top = max(r["epsilon"] for r in rows)
        ax.plot([0, top], [0, top], "k--", lw=1, label=r"$\varepsilon^* = \varepsilon$")
        ax.set(xlabel=r"$\varepsilon$ (nats)", ylabel=r"realised $\varepsilon^*$ under $P^*$",
               title=f"synthetic, |S| × |U| = {shape.replace('x', ' × ')}")
        ax.title.set_fontsize(10)
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=8, loc="upper left")
    fig.suptitle("Robust-LDP paper, Fig. 4: realised privacy parameter", fontsize=11)
    fig.tight_layout()
    return save(fig, path)


def _fig5(path: Path, rows: list[dict], epsilon: float) -> Path:
    shapes = sorted({r["shape"] for r in rows})
    fig, axes = _panels(len(shapes))
    for ax, shape in zip(axes, shapes, strict=True):
        names = [n for n in MECHANISMS if any(r["mechanism"] == n and r["shape"] == shape
                                              for r in rows)]
        data = [[100 * r["relative_difference"] for r in rows
                 if r["mechanism"] == n and r["shape"] == shape] for n in names]
        ax.boxplot(data, whis=(0, 100))
        ax.set_xticks(range(1, len(names) + 1), names)
        ax.axhline(0, color="k", lw=0.8)
        ax.set(ylabel=r"$(I_{\hat P} - I_{P^*})\,/\,I_{\hat P}$ (%)",
               title=f"synthetic, |S| × |U| = {shape.replace('x', ' × ')}")
        ax.title.set_fontsize(10)
        ax.grid(alpha=0.3, axis="y")
    fig.suptitle(f"Robust-LDP paper, Fig. 5: utility robustness at ε = {epsilon:g} "
                 "(whiskers: min and max)", fontsize=11)
    fig.tight_layout()
    return save(fig, path)


def plot_all(out: Path, results: dict[str, list[dict]], config: Config = Config()) -> list[Path]:
    """Draw Figs. 2–5 from the rows of :func:`run` into ``out``; return the files."""
    written = []
    if results.get("adult_nmi"):
        panels: dict[str, list[dict]] = {}
        for r in results["adult_nmi"]:
            pair = r["pair"].replace(" x ", " × ")
            panels.setdefault(f"S × U = {pair} (|X| = {r['size']})", []).append(r)
        written.append(_nmi_figure(out / "fig2_adult_nmi.png", panels, "nmi",
                                   "Robust-LDP paper, Fig. 2: Adult data"))
    if results.get("fig3_synthetic_nmi"):
        panels = {}
        for r in results["fig3_synthetic_nmi"]:
            shape = r["shape"].replace("x", " × ")
            panels.setdefault(f"synthetic, |S| × |U| = {shape}", []).append(r)
        written.append(_nmi_figure(
            out / "fig3_synthetic_nmi.png", panels, "mean_nmi",
            f"Robust-LDP paper, Fig. 3: synthetic data, mean NMI over {config.reps} draws of P*"))
    if results.get("fig4_realised_epsilon"):
        written.append(_fig4(out / "fig4_realised_epsilon.png", results["fig4_realised_epsilon"]))
    if results.get("fig5_utility_robustness"):
        written.append(_fig5(out / "fig5_utility_robustness.png",
                             results["fig5_utility_robustness"], config.robustness_epsilon))
    return written


def run(config: Config, parts: Iterable[str], out: Path) -> dict[str, list[dict]]:
    """Run the named parts (``adult``, ``synthetic``, ``beta``, ``scaling``), write their
    CSV and PNG files into ``out``, return the rows by file name."""
    parts = set(parts)
    results: dict[str, list[dict]] = {}

    def write(names):  # each part's files as soon as it is done
        for name in names:
            write_csv(out / f"{name}.csv", results[name])

    if "adult" in parts:
        results["adult_nmi"] = adult_rows(config)
        write(["adult_nmi"])
    if parts & {"synthetic", "beta"}:
        chosen = config if "beta" in parts else replace(config, betas=())
        runs = synthetic_rows(chosen)
        results["synthetic_runs"] = runs
        summary = summarise_synthetic(runs, chosen)
        if "synthetic" not in parts:
            summary = {"table2_beta": summary["table2_beta"]}
        results.update(summary)
        write(["synthetic_runs", *summary])
    if "scaling" in parts:
        results["polyopt_scaling"] = scaling_rows(config)
        write(["polyopt_scaling"])
    plot_all(out, results, config)
    return results


# -- the items of ``mechdesign reproduce --paper robust-ldp`` -----------------------------

#: Example 1: the estimate from n = 100 records and the true distribution, |S| = |U| = 2.
P_HAT = np.array([0.07, 0.10, 0.26, 0.57])
P_STAR = np.array([0.1, 0.1, 0.2, 0.6])
SHAPE = (2, 2)
#: Example 3: the 16 vertices of Γ_ε (paper variant) as printed, and the printed θ̂
#: (by printed row; the other rows have θ̂ = 0).
PRINTED_VERTICES = np.array([
    [0.0744, 0.3227, 0.5603, 0.0426], [0.2426, 0.2426, 0.4783, 0.0364],
    [0.3333, 0.3333, 0.1667, 0.1667], [0.1091, 0.4737, 0.2086, 0.2086],
    [0.0993, 0.4310, 0.0000, 0.4697], [0.1121, 0.4864, 0.0000, 0.4015],
    [0.3404, 0.3404, 0.0000, 0.3191], [0.0770, 0.3343, 0.2944, 0.2944],
    [0.2234, 0.2234, 0.0000, 0.5531], [0.4875, 0.1434, 0.0000, 0.3690],
    [0.4360, 0.1283, 0.0000, 0.4358], [0.4758, 0.1400, 0.1921, 0.1921],
    [0.3437, 0.1011, 0.2776, 0.2776], [0.1602, 0.1602, 0.6316, 0.0481],
    [0.1667, 0.1667, 0.3333, 0.3333], [0.3325, 0.0978, 0.5294, 0.0403],
])
PRINTED_THETA = {1: "1.1899", 6: "0.7670", 11: "1.4134", 16: "0.6297"}
EXAMPLE2_ERRATUM = (
    "Theorem 1 applied without its factors α/(α−1) and (α−1)/α gives the printed B_s, and "
    "the printed L and rad_s follow from those radii [notebooks/03_robust_ldp.ipynb; "
    "tests/notions/test_uncertainty.py::test_example2_from_the_formulas]"
)


def _examples(folder: Path, settings: Settings) -> ItemResult:
    """Examples 1–5: every printed number of the running example."""
    checks: list[Check] = []

    def printed(item, value, text, erratum=""):
        checks.append(check_printed(PAPER, item, float(value), text, erratum=erratum))

    radius = md.chi2_radius(100, 4, 0.05)
    ball = md.RenyiBall(P_HAT, 2.0, radius)
    printed("Example 1: B (χ² radius, n = 100, β = 0.05)", radius, "0.0752")
    checks.append(check_printed(
        PAPER, "Example 1, eq. (13): B = log(1 + F⁻¹_{χ²,3}(0.05)/100) as printed",
        math.log1p(chi2.ppf(0.05, 3) / 100), "0.0752",
        erratum="printed F⁻¹_{χ²,3}(0.05); its value 0.0752 and eq. (14) use the 0.95 "
        "quantile, F⁻¹_{χ²,3}(1 − β) (eq. 9) [tests/test_uncertainty_reference.py::"
        "test_eq13_uses_the_095_quantile]", kind=TYPO))
    printed("Example 1: D_2(P̂ ‖ P*)", ball.divergence(P_STAR), "0.0281")
    checks.append(check_claim(PAPER, "Example 1: P* ∈ F", "P* lies in the ball",
                              ball.contains(P_STAR), f"D_2 = {ball.divergence(P_STAR):.4f}"))

    b_s = [md.notions.conditional_ball(ball, SHAPE, s).radius for s in range(2)]
    lower = md.conditional_lower_bounds(ball, SHAPE)
    radii = md.conditional_radii(ball, SHAPE)
    correct = {"B_s1": (b_s[0], "0.3782", "0.4067"), "B_s2": (b_s[1], "0.0900", "0.0903"),
               "L_u1|s1": (lower[0, 0], "0.1620", "0.1552"),
               "L_u2|s1": (lower[0, 1], "0.2829", "0.2727"),
               "L_u1|s2": (lower[1, 0], "0.1923", "0.1921"),
               "L_u2|s2": (lower[1, 1], "0.5337", "0.5334"),
               "rad_s1": (radii[0], "0.6107", "0.6310"), "rad_s2": (radii[1], "0.3061", "0.3067")}
    for name, (value, text, right) in correct.items():
        printed(f"Example 2: {name}", value, text, f"correct {right}. {EXAMPLE2_ERRATUM}")
    checks.extend(_example2_more(lower, radii))

    eps = math.log(2)
    notion = md.RobustLDP(eps, ball, SHAPE, variant="paper")
    cone = notion.cone(4)
    checks.append(check_claim(PAPER, "Example 3: Γ_ε (paper variant)", "16 inequalities",
                              cone.numerators.shape[0] == 16, f"{cone.numerators.shape[0]}"))
    vertices = cone.vertices("cdd").points
    nearest = np.abs(vertices[None, :, :] - PRINTED_VERTICES[:, None, :]).max(axis=2)
    one_to_one = sorted(nearest.argmin(axis=1)) == list(range(len(vertices)))
    checks.append(check_claim(
        PAPER, "Example 3: the vertex set V", "16 vertices, as printed to 4 decimals",
        one_to_one and nearest.min(axis=1).max() < 5e-5 and len(vertices) == 16,
        f"{len(vertices)} vertices, largest difference {nearest.min(axis=1).max():.1e}"))
    polyopt = md.design(notion, P_HAT)
    theta = dict.fromkeys(range(1, 17), 0.0)
    for weight, v in zip(polyopt.weights, polyopt.vertices, strict=True):
        theta[int(np.abs(PRINTED_VERTICES - v).max(axis=1).argmin()) + 1] = float(weight)
    for row, text in PRINTED_THETA.items():
        printed(f"Example 3: θ̂ of v{row}", theta[row], text)
    checks.append(check_claim(
        PAPER, "Example 3: θ̂", "θ̂ = 0 off v1, v6, v11, v16",
        all(theta[r] < 1e-9 for r in theta if r not in PRINTED_THETA),
        f"{sum(1 for t in theta.values() if t > 1e-9)} positive weights"))
    printed("Example 3: I_P̂(X; Q_PolyOpt)", polyopt.utility, "0.4228")
    i_star = md.mutual_information(polyopt.mechanism, P_STAR)
    eps_star = md.notions.realised_epsilon(polyopt.mechanism, P_STAR, SHAPE)
    printed("Example 3: I_P*(X; Q_PolyOpt)", i_star, "0.2804",
            f"correct {i_star:.4f}; the printed 0.2804 is Q_PolyOpt's realised ε* under P* "
            f"({eps_star:.4f}) [notebooks/03_robust_ldp.ipynb]")

    grr, srr = md.randomized_response(4, eps), md.mechanisms.secret_randomized_response(SHAPE, eps)
    for name, kernel, p, where, text in (
        ("GRR", grr, P_HAT, "P̂", "0.0419"), ("SRR", srr, P_HAT, "P̂", "0.1005"),
        ("GRR", grr, P_STAR, "P*", "0.0412"), ("SRR", srr, P_STAR, "P*", "0.0942"),
    ):
        printed(f"Example 4: I_{where}(X; {name})", md.mutual_information(kernel, p), text)
    checks.append(check_claim(PAPER, "Example 4 / Lemma 2: SRR's (ε, P_X)-RLDP level",
                              "ε = log 2",
                              abs(md.notions.secret_ldp_level(srr, SHAPE) - eps) < 1e-12,
                              f"{md.notions.secret_ldp_level(srr, SHAPE):.6f}"))

    checks.extend(_extraction_checks())

    ir = md.mechanisms.design_independent_reporting(eps, ball, SHAPE)
    printed("Example 5: d", ir.d, "1.4591")
    conditional = P_HAT.reshape(SHAPE) / P_HAT.reshape(SHAPE).sum(axis=1, keepdims=True)
    spread = float(np.abs(conditional[0] - conditional[1]).sum())
    displayed = 2 * max(0.6107, 0.3061) + spread
    checks.append(check_printed(
        PAPER, "Example 5: d by the displayed arithmetic 2·max{0.6107, 0.3061} + "
        "‖P̂_U|s1 − P̂_U|s2‖₁", displayed, "1.4591",
        erratum=f"the displayed arithmetic gives {displayed:.4f}; the printed 1.4591 is "
        f"right, for the correct rad_s1 = {radii[0]:.4f}: 2·{radii[0]:.4f} + {spread:.4f} "
        f"= {2 * radii[0] + spread:.4f} (the check 'Example 5: d' above) "
        "[tests/notions/test_robust.py::test_example5_d_from_the_correct_radius]"))
    printed("Example 5: e^{δ₂} = 1.3707 e^{ε₂} − 0.3707, coefficient 2/d", 2 / ir.d, "1.3707")
    printed("Example 5: optimal ε₂ (= log 2)", ir.epsilon2, f"{eps:.4f}")
    printed("Example 5: I_P̂(X; Q_IR)", ir.utility, "0.0755")
    printed("Example 5: I_P*(X; Q_IR)", md.mutual_information(ir.mechanism, P_STAR), "0.0718")
    printed("Example 5: Q_IR, large entry", ir.mechanism.matrix.max(), "0.3517")
    printed("Example 5: Q_IR, small entry", ir.mechanism.matrix.min(), "0.1483")
    return ItemResult(checks=checks)


def _example2_more(lower: NDArray[np.float64], radii: NDArray[np.float64]) -> list[Check]:
    """Example 2 beyond its radii: three typos, and the intervals and vertices of F′ that
    inherit the wrong L (correct values from the library's L, the vertices by cddlib from
    F′'s inequalities)."""
    checks = [
        check_claim(
            PAPER, "Example 2: 'Inserting … into Theorem 2'", "B_s comes from Theorem 2",
            False, "B_s is Theorem 1's conditional radius (md.notions.conditional_ball)",
            erratum="typo: Theorem 1 [docs/theorems.md, Example 2]", kind=TYPO),
        check_claim(
            PAPER, "Example 2: the second 'rad_s1(F) = 2 max{0.3133 − 0.1923, …}'",
            "the second radius is rad_s1", False,
            f"2·max{{0.3133 − 0.1923, 0.4663 − 0.3133}} = "
            f"{2 * max(0.3133 - 0.1923, 0.4663 - 0.3133):.4f}: the printed rad_s2 (0.3061) up "
            "to rounding",
            erratum="typo: rad_s2", kind=TYPO),
        check_printed(
            PAPER, "Example 2: 0.1620 P_{s1,u2} ≥ 0.83830 P_{s1,u1}, the coefficient",
            1 - 0.1620, "0.83830",
            erratum="typo: 1 − 0.1620 = 0.8380", kind=TYPO),
    ]
    intervals = {"F_U|s1 lower end": (lower[0, 0], "0.1620"),
                 "F_U|s1 upper end": (1 - lower[0, 1], "0.7171"),
                 "F_U|s2 lower end": (lower[1, 0], "0.1923"),
                 "F_U|s2 upper end": (1 - lower[1, 1], "0.4663")}
    for name, (value, text) in intervals.items():
        checks.append(check_printed(
            PAPER, f"Example 2: {name}", float(value), text,
            erratum=f"correct {value:.4f}: the interval [L_u1|s, 1 − L_u2|s] inherits the "
            "wrong L [tests/notions/test_robust.py::test_example2_f_prime_vertices]"))
    vertices = f_prime_vertices(lower)
    printed_vertices = np.array([[0.7171, 0.2829, 0, 0], [0.1620, 0.8380, 0, 0],
                                 [0, 0, 0.4663, 0.5337], [0, 0, 0.1923, 0.8077]])
    distance = np.abs(vertices[None, :, :] - printed_vertices[:, None, :]).max(axis=2)
    shown = "; ".join("(" + ", ".join(f"{v:.4f}" for v in row) + ")" for row in vertices)
    checks.append(check_claim(
        PAPER, "Example 2: the vertices of F′", "4 vertices, as printed to 4 decimals",
        len(vertices) == 4 and distance.min(axis=1).max() < 5e-5, shown,
        erratum="the printed vertices inherit the wrong L; correct " + shown
        + " [tests/notions/test_robust.py::test_example2_f_prime_vertices]"))
    return checks


def f_prime_vertices(lower: NDArray[np.float64]) -> NDArray[np.float64]:
    """The vertices of F′ = {P : P_{s,u} ≥ L_{u|s} Σ_u P_{s,u}, P ≥ 0, Σ P = 1} for
    |S| = |U| = 2 (Example 2), in the paper's order: each maximises one coordinate
    ``P_{s,u}`` over F′ (a simplex; one LP each,
    :func:`~mechdesign.notions.cones.section_argmax`)."""
    rows = []
    for s in range(2):
        for u in range(2):
            row = np.zeros(4)
            row[2 * s:2 * s + 2] = -lower[s, u]
            row[2 * s + u] += 1.0
            rows.append(row)
    h = np.vstack([np.array(rows), np.eye(4)])
    vertices = np.array([section_argmax(h, np.eye(4)[i]) for i in range(4)])
    return np.clip(vertices, 0.0, None) + 0.0  # no −0 from the simplex


def _extraction_checks() -> list[Check]:
    """Proposition 2 item 3 and Lemma A7 item 2, whose √ our extracted text lost: the
    bound the proof gives, ``√(e^{B_s} − 1)`` (and ``√B̃``), checked where it is tight —
    ``P̂_{U|s} = (0.1, 0.45, 0.45)``, ``e^{B_s} = 1.01``, where ``U_1 = {u_2}`` has
    ``ρ = (1 − √B̃)/2 = 0.45`` and ``2ρ(ξ⁺(ρ) − 1) = √B̃ = 0.1``."""
    b_tilde = 0.01
    rho = (1 - math.sqrt(b_tilde)) / 2
    radius = 2 * rho * (md.notions.xi_bounds(rho, 2.0, math.log1p(b_tilde))[1] - 1)
    note = ("our text reads {text!r}: the √, ≤ and − signs were lost in extraction, so the "
            "printed statement is for the published PDF to show; the proof's (A56)–(A58) "
            "give the √ form, attained here [docs/theorems.md; tests/"
            "test_uncertainty_reference.py::test_proposition2_item3_bound_is_wrong_as_printed]")
    return [
        check_claim(
            PAPER, "Proposition 2, item 3: rad_s for small B_s",
            "rad_s(F) ≤ √(e^{B_s} − 1) (as the proof gives it)",
            abs(radius - math.sqrt(b_tilde)) < 1e-9,
            f"rad_s = {radius:.6f} = √(e^{{B_s}} − 1) = {math.sqrt(b_tilde):.6f} > "
            f"e^{{B_s}} − 1 = {b_tilde}",
            erratum=note.format(text="rad s ( F ) e B s 1"), kind=EXTRACTION,
        ),
        check_claim(
            PAPER, "Lemma A7, item 2: sup ‖P − P̂‖₁",
            "sup_{P ∈ F} ‖P − P̂‖₁ ≤ √B̃ (as (A56)–(A58) give it)",
            abs(radius - math.sqrt(b_tilde)) < 1e-9,
            f"2ρ(ξ⁺(ρ) − 1) at ρ_opt = {radius:.6f} = √B̃, B̃ = {b_tilde}",
            erratum=note.format(text="(A58) = B ˜"), kind=EXTRACTION,
        ),
    ]


#: Where ``mechdesign reproduce`` keeps the finished synthetic repetitions, beside (not
#: inside) the paper's folder, which every run clears: a rerun into the same output
#: folder, interrupted or not, computes only the repetitions that are missing.
STORE = Path(".store") / "robust-ldp-synthetic.sqlite"


def _config(settings: Settings, folder: Path | None = None) -> Config:
    base = QUICK if settings.quick else Config()
    return replace(base, reps=settings.reps or base.reps, workers=settings.workers,
                   seed=settings.seed, data=find_adult(settings.data),
                   store=None if folder is None else folder.parent / STORE)


def _by(rows: list[dict], *keys: str) -> dict[tuple, dict[str, float]]:
    """``{(row[k] for k in keys): {mechanism: value}}`` for rows with a ``value``."""
    out: dict[tuple, dict[str, float]] = {}
    for r in rows:
        out.setdefault(tuple(r[k] for k in keys), {})[r["mechanism"]] = r["value"]
    return out


def adult_checks(rows: list[dict], config: Config) -> list[Check]:
    """Sec. 8.1's statements about Fig. 2, on the rows of :func:`adult_rows`."""
    item = "Fig. 2 (Sec. 8.1)"
    small = {f"{s} x {u}" for s, u in config.small_pairs}
    table = _by([{**r, "value": r["nmi"]} for r in rows], "pair", "epsilon")
    checks = []

    def claim(text, holds, computed):
        checks.append(check_claim(PAPER, item, text, holds, computed))

    worst = [k for k, v in table.items() if v["GRR"] > min(v.values()) + 1e-12]
    claim("GRR performed the worst in all experiments", not worst,
          f"GRR lowest in {len(table) - len(worst)} of {len(table)} (pair, ε)")
    small_keys = sorted(k for k in table if k[0] in small)
    beaten = [k for k in small_keys
              if table[k]["PolyOpt"] <= max(table[k]["IR"], table[k]["SRR"])]
    claim("PolyOpt clearly outperformed IR and SRR in the first two experiments", not beaten,
          f"PolyOpt above both in {len(small_keys) - len(beaten)} of {len(small_keys)}")
    for pair in sorted(small):
        eps = sorted(k[1] for k in table if k[0] == pair)
        low, high = table[(pair, eps[0])], table[(pair, eps[-1])]
        claim(f"{pair}: IR outperformed SRR in the high-privacy regime, but was slightly "
              "overtaken for high ε", low["IR"] > low["SRR"] and high["SRR"] > high["IR"],
              f"IR − SRR = {low['IR'] - low['SRR']:+.4f} at ε = {eps[0]:g}, "
              f"{high['IR'] - high['SRR']:+.4f} at ε = {eps[-1]:g}")
    large_keys = [k for k in table if k[0] not in small]
    if large_keys:
        fails = [k for k in large_keys if table[k]["IR"] <= table[k]["SRR"]]
        claim("in the second two experiments IR clearly outperformed SRR", not fails,
              f"IR above SRR in {len(large_keys) - len(fails)} of {len(large_keys)}"
              + "".join(f"; not at {k[0]}, ε = {k[1]:g} (IR {table[k]['IR']:.2e}, SRR "
                        f"{table[k]['SRR']:.2e})" for k in sorted(fails)))
    below = [k for k in small_keys if table[k]["NR"] < max(table[k].values()) - 1e-9]
    margins = {k: table[k]["NR"] - table[k]["PolyOpt"] for k in small_keys}
    top = max(k[1] for k in small_keys)
    claim("NR outperformed the RLDP methods; NR − PolyOpt was marginal for higher ε "
          "(here: NR highest everywhere, and NR − PolyOpt < 0.05 NMI at the largest ε)",
          not below and all(m < 0.05 for k, m in margins.items() if k[1] == top),
          f"NR highest in {len(small_keys) - len(below)} of {len(small_keys)}; NR − PolyOpt "
          f"from {max(margins.values()):.3f} (ε = {min(k[1] for k in small_keys):g}) to "
          f"{max(m for k, m in margins.items() if k[1] == top):.3f} (ε = {top:g})")
    return checks


def _fig2(folder: Path, settings: Settings) -> ItemResult:
    config = _config(settings)
    rows = adult_rows(config)
    write_csv(folder / "fig2_adult_nmi.csv", rows)
    files = [folder / "fig2_adult_nmi.csv", *plot_all(folder, {"adult_nmi": rows}, config)]
    checks = adult_checks(rows, config)
    if ("occupation", "education") in config.large_pairs:
        pair = categorical_pair(config.data, "occupation", "education")
        cone = md.RobustLDP(1.0, pair.ball(config.beta), pair.shape,
                            variant="paper").cone(pair.p_hat.size)
        pairs, size = int(cone.numerators.shape[0]), pair.p_hat.size
        kept = int(cone.inequalities().shape[0])
        checks.append(check_claim(
            PAPER, "Sec. 8.1: Γ̂ for occupation × education",
            "240-dimensional, 57,840 inequality constraints",
            size == 240 and pairs + size == 57_840,
            f"{size}-dimensional; {pairs:,} pair constraints + {size} of v ≥ 0 = "
            f"{pairs + size:,} (paper variant; {kept:,} pair rows remain after dropping those "
            "implied by v ≥ 0 and duplicates)"))
    return ItemResult(files=files, checks=checks)


def bootstrap_interval(
    values: np.ndarray, q: float, rng: np.random.Generator, level: float = 0.99,
    draws: int = 4000,
) -> tuple[float, float]:
    """Percentile-bootstrap interval of the ``q``-quantile of ``values`` at ``level``.

    Quantiles are taken without interpolation (``inverted_cdf``), so infinite values
    (an ``ε*`` is infinite when an output has probability 0 under one secret) give
    infinite ends rather than NaN."""
    resampled = rng.choice(values, size=(draws, values.size), replace=True)
    stats = np.quantile(resampled, q, axis=1, method="inverted_cdf")
    tail = (1 - level) / 2
    low, high = np.quantile(stats, [tail, 1 - tail], method="inverted_cdf")
    return float(low), float(high)


def synthetic_checks(results: dict[str, list[dict]], config: Config) -> list[Check]:
    """Secs. 8.2–8.5's statements about Figs. 3–5 and Table 2.

    The statements are qualitative; each check states how it is made quantitative.
    Sampling statements use three standard errors (binomial for proportions, bootstrap
    for the printed quantile)."""
    checks = []

    def claim(item, text, holds, computed):
        checks.append(check_claim(PAPER, item, text, holds, computed))

    fig3 = _by([{**r, "value": r["mean_nmi"]} for r in results["fig3_synthetic_nmi"]],
               "shape", "epsilon")
    item = "Fig. 3 (Sec. 8.2)"
    keys = sorted(fig3)
    fails = [k for k in keys if not fig3[k]["PolyOpt"] > fig3[k]["IR"]]
    claim(item, "PolyOpt outperformed IR", not fails,
          f"PolyOpt above IR in {len(keys) - len(fails)} of {len(keys)} (shape, ε)")
    for shape in sorted({k[0] for k in keys}):
        eps = sorted(k[1] for k in keys if k[0] == shape)
        low = fig3[(shape, eps[0])]
        claim(item, f"{shape}: IR outperformed SRR (in the high-privacy regime)",
              low["IR"] > low["SRR"],
              f"IR − SRR = {low['IR'] - low['SRR']:+.4f} at ε = {eps[0]:g}")
    grr = [k for k in keys if fig3[k]["GRR"] > min(fig3[k].values()) + 1e-12]
    nr = [k for k in keys if fig3[k]["NR"] < max(fig3[k].values()) - 1e-12]
    margin = max(fig3[k]["NR"] - fig3[k]["PolyOpt"] for k in keys if k[1] >= 1.0)
    claim(item, "GRR was the worst overall, NR the best overall, but only by a small margin "
          "(here: NR − PolyOpt < 0.05 NMI for ε ≥ 1)", not grr and not nr and margin < 0.05,
          f"GRR lowest in {len(keys) - len(grr)}, NR highest in {len(keys) - len(nr)} of "
          f"{len(keys)}; NR − PolyOpt ≤ {margin:.4f} for ε ≥ 1")

    item = "Fig. 4 (Sec. 8.3)"
    fig4 = results["fig4_realised_epsilon"]
    nr_rows = [r for r in fig4 if r["mechanism"] == "NR"]
    claim(item, "NR's ε* was consistently greater than ε (here: its 25 % quantile > ε)",
          all(r["q25"] > r["epsilon"] for r in nr_rows),
          f"NR's ε* > ε in {min(r['fraction_above_epsilon'] for r in nr_rows):.0%} or more "
          "of the draws at every ε")
    po_rows = [r for r in fig4 if r["mechanism"] == "PolyOpt"]
    claim(item, "PolyOpt's ε* was consistently lesser (here: its 75 % quantile ≤ ε)",
          all(r["q75"] <= r["epsilon"] + 1e-9 for r in po_rows),
          f"PolyOpt's ε* > ε in at most {max(r['fraction_above_epsilon'] for r in po_rows):.0%}"
          " of the draws at any ε")
    runs = [r for r in results["synthetic_runs"] if not r["error"]]
    inside = [r for r in runs if r["mechanism"] == "PolyOpt" and r["p_star_in_ball"]]
    claim(item, "PolyOpt gives privacy for P* when P* ∈ F (Theorem 2)",
          all(r["realised_epsilon"] <= r["epsilon"] + 1e-9 for r in inside),
          f"ε* ≤ ε in all {len(inside)} designs with P* ∈ F")
    draws = {(r["shape"], r["rep"]): r["p_star_in_ball"] for r in runs if r["part"] == "synthetic"}
    share = float(np.mean(list(draws.values())))
    slack = 3 * math.sqrt(0.95 * 0.05 / len(draws))
    claim(item, "P* ∈ F happens with 95 % probability (here: within 3 binomial s.e.)",
          abs(share - 0.95) <= slack, f"{share:.1%} of {len(draws)} draws (± {slack:.1%})")
    low_eps = [r for r in runs if r["mechanism"] == "NR" and r["epsilon"] == 0.075]
    if low_eps:
        rng = np.random.default_rng(config.seed)
        for shape in sorted({r["shape"] for r in low_eps}):
            values = np.array([r["realised_epsilon"] for r in low_eps if r["shape"] == shape])
            q75 = float(np.quantile(values, 0.75, method="inverted_cdf"))
            low, high = bootstrap_interval(values, 0.75, rng)
            claim(item, f"{shape}: at ε = 0.075 the 75 % quantile of NR's ε* was 0.3897, more "
                  "than 5 times ε (here: 0.3897 inside the 99 % bootstrap interval)",
                  low <= 0.3897 <= high and q75 > 5 * 0.075,
                  f"{q75:.4f} ({q75 / 0.075:.1f} × ε), 99 % interval [{low:.4f}, {high:.4f}]; "
                  f"ε* = ∞ in {int(np.isinf(values).sum())} of {values.size} draws")

    item = "Fig. 5 (Sec. 8.4)"
    fig5 = results["fig5_utility_robustness"]
    worst = max(abs(r["relative_difference"]) for r in fig5)
    claim(item, "the difference, even at its most extreme, was less than 3 % of the NMI",
          worst < 0.03, f"largest |(I_P̂ − I_P*)/I_P̂| = {100 * worst:.2f} %")
    lopsided = []
    for key in sorted({(r["shape"], r["mechanism"]) for r in fig5}):
        values = [r["relative_difference"] for r in fig5 if (r["shape"], r["mechanism"]) == key]
        positive = float(np.mean(np.array(values) > 0))
        if abs(positive - 0.5) > 3 * math.sqrt(0.25 / len(values)):
            lopsided.append(f"{key[0]} {key[1]}: {positive:.0%}")
    claim(item, "the differences were symmetric: positive and negative about equally often "
          "(here: share positive within 3 binomial s.e. of 50 %)", not lopsided,
          "; ".join(lopsided) or "all within")

    item = "Table 2 (Sec. 8.5)"
    table2 = results["table2_beta"]
    betas = sorted({r["beta"] for r in table2})
    change = {}
    for r in table2:
        if r["beta"] in (betas[0], betas[-1]) and r["mechanism"] != "SRR":
            change.setdefault((r["shape"], r["mechanism"]), {})[r["beta"]] = r["mean_nmi"]
    impact = {k: abs(v[betas[-1]] - v[betas[0]]) / v[betas[0]] for k, v in change.items()}
    text = ", ".join(f"{k[0]} {k[1]} {100 * v:.2f} %" for k, v in sorted(impact.items()))
    claim(item, f"changing β from {betas[0]:g} to {betas[-1]:g} had at most about 4 % impact "
          "on NMI (here: < 5 %)", max(impact.values()) < 0.05, text)
    shapes = sorted({k[0] for k in impact})
    claim(item, "the impact was less for PolyOpt than for IR",
          all(impact[(s, "PolyOpt")] < impact[(s, "IR")] for s in shapes), text)
    sizes = sorted(shapes, key=lambda s: math.prod(map(int, s.split("x"))))
    claim(item, "the impact was less for larger |X|",
          all(impact[(sizes[-1], m)] < impact[(sizes[0], m)] for m in ("PolyOpt", "IR")), text)
    return checks


def _table2_markdown(path: Path, rows: list[dict]) -> Path:
    betas = sorted({r["beta"] for r in rows})
    lines = ["| |X| | mechanism | " + " | ".join(f"β = {b:g}" for b in betas) + " |",
             "|---|---|" + "---|" * len(betas)]
    for shape in sorted({r["shape"] for r in rows}):
        for name in ("PolyOpt", "IR", "SRR"):
            vals = {r["beta"]: r["mean_nmi"] for r in rows
                    if r["shape"] == shape and r["mechanism"] == name}
            if vals:
                lines.append(f"| {shape} | {name} | "
                             + " | ".join(f"{vals[b]:.4f}" for b in betas) + " |")
    path.write_text("Robust-LDP paper, Table 2: mean NMI at ε = 1.5\n\n" + "\n".join(lines) + "\n")
    return path


def _synthetic(folder: Path, settings: Settings) -> ItemResult:
    config = _config(settings, folder)
    results = run(config, {"synthetic", "beta"}, folder)
    names = ("fig3_synthetic_nmi", "fig4_realised_epsilon", "fig5_utility_robustness",
             "table2_beta", "synthetic_runs")  # fig5 needs the robustness ε among the ε's
    files = [folder / f"{name}.{ext}" for ext in ("png", "csv") for name in names
             if results.get(name) and (folder / f"{name}.{ext}").is_file()]
    files.append(_table2_markdown(folder / "table2_beta.md", results["table2_beta"]))
    failed = [r for r in results["synthetic_runs"] if r["error"]]
    checks = [check_claim(PAPER, "Figs. 3–5", "every design succeeds", not failed,
                          f"{len(results['synthetic_runs']) - len(failed)} designs, "
                          f"{len(failed)} failed")]
    if settings.quick:  # the statements are about the paper's settings; test one theorem
        inside = [r for r in results["synthetic_runs"] if r["mechanism"] == "PolyOpt"
                  and r["p_star_in_ball"] and not r["error"]]
        checks.append(check_claim(
            PAPER, "Fig. 4 (Sec. 8.3)", "PolyOpt gives privacy for P* when P* ∈ F (Theorem 2)",
            all(r["realised_epsilon"] <= r["epsilon"] + 1e-9 for r in inside),
            f"ε* ≤ ε in all {len(inside)} designs with P* ∈ F"))
    else:
        checks += synthetic_checks(results, config)
    return ItemResult(files=files, checks=checks)


ITEMS = (
    Item(PAPER, "Examples 1–5", _examples),
    Item(PAPER, "Fig. 2", _fig2),
    Item(PAPER, "Figs. 3–5, Table 2", _synthetic),
)
