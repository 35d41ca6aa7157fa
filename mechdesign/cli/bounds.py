"""``mechdesign bounds`` (the Dobrushin paper's contraction results for (ε, c)-PML) and
``mechdesign envelope`` (the envelope paper's quantities for a kernel)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from mechdesign._tolerances import CERTIFICATE_ATOL
from mechdesign.cli.inputs import (
    PRIOR_HELP,
    read_kernel,
    read_prior,
)
from mechdesign.cli.printing import fmt, jsonable

__all__ = ["add_bounds", "add_envelope"]


def _format_bounds(report: dict[str, Any]) -> str:
    head = (
        f"(ε, c)-PML contraction, ε = {report['epsilon']:g}, c = {report['c']:g}, N = {report['n']}"
    )
    tv = report["tv"]
    rows = [
        ("Ξ(ε, c)  Theorem 1", report["dobrushin_bound"]),
        ("sup η_TV by LP  Lemma 3", report["dobrushin_lp"]),
        ("Theorem 2 threshold  log(2/(Nc))", report["decomposable_threshold"]),
        ("max zeros per column  Lemma 1", float(report["max_zeros_per_column"])),
        ("Γ_max bound  Proposition 2", report["gamma_max_bound"]),
        ("Γ_min bound  Proposition 2", report["gamma_min_bound"]),
        (f"KL ≤ · at TV = {tv:g}  Corollary 1", report["kl_sdpi"]),
        (f"H² ≤ · at TV = {tv:g}  Corollary 2", report["hellinger_sdpi"]),
        (f"χ² ≤ · at TV = {tv:g}  eq. (36)–(37)", report["chi_squared_sdpi"]),
        ("ε-LDP η_TV bound  eq. (13)", report["ldp_dobrushin_kairouz"]),
        ("ε-LDP η_KL bound  eq. (14)", report["ldp_kl_contraction_asoodeh_zhang"]),
    ]
    width = max(len(name) for name, _ in rows)
    lines = [head] + [f"  {name.ljust(width)}  {fmt(value)}" for name, value in rows]
    lines.append("  extremal binary kernel [p, 1 − p] (rows are inputs):")
    lines.extend(
        "    " + "  ".join(f"{entry:.6f}" for entry in row) for row in report["extremal_kernel"]
    )
    return "\n".join(lines)


def _cmd_bounds(args: argparse.Namespace) -> int:
    from mechdesign.reports import bounds_report

    report = bounds_report(args.epsilon, args.c, args.n, args.tv)
    if args.json:
        print(json.dumps(jsonable(report), indent=2))
    else:
        print(_format_bounds(report))
    agree = abs(report["dobrushin_lp"] - report["dobrushin_bound"]) <= CERTIFICATE_ATOL
    return 0 if agree else 1


def _format_envelope(title: str, report: dict[str, Any]) -> str:
    lines = [
        f"{title}  (N = {report['n_inputs']} inputs, M = {report['n_outputs']} outputs)",
        "  leakage ℓ(X→Y): "
        + ", ".join(
            f"{fmt(v)} w.p. {p:.6g}"
            for v, p in zip(report["leakage_values"], report["leakage_probabilities"], strict=True)
        ),
        f"  PML level {fmt(report['pml_level'])}, maximal leakage "
        f"{fmt(report['maximal_leakage'])} (nats)",
    ]
    names = [
        ("lower quantile ε̲_Y(δ)  eq. (9)", "lower_quantile"),
        ("PML δ-quantile ε̄_Y(δ)", "upper_quantile"),
        ("binary envelope ε_b(δ)  Alg. 1", "binary_envelope"),
        ("lower bound  eq. (14)", "lower_bound_eq14"),
        ("PML envelope ε_c(δ)  exact", "envelope"),
        ("upper bound L(X→Y) + log 1/δ", "upper_bound_maximal_leakage"),
        ("upper bound  Theorem 3", "upper_bound_theorem3"),
        ("(ε, δ)-DP ε of the kernel", "dp_epsilon"),
    ]
    width = max(len(name) for name, _ in names)
    for row in report["deltas"]:
        lines.append(f"  δ = {row['delta']:g}")
        lines.extend(f"    {name.ljust(width)}  {fmt(row[key])}" for name, key in names)
        lines.append(
            f"    attained by P(Z|Y) below (rows are outputs y; bad outputs of Z: "
            f"{row['witness_bad_set']}, the last column is the rest):"
        )
        lines.extend(
            "      " + "  ".join(f"{entry:.6f}" for entry in out)
            for out in row["witness_post_processing"]
        )
    return "\n".join(lines)


def _cmd_envelope(args: argparse.Namespace) -> int:
    from mechdesign.reports import envelope_report

    kernel = read_kernel(args.kernel)
    prior = read_prior(args.prior, kernel.n_inputs)
    report = envelope_report(kernel, prior, args.delta)
    if args.json:
        print(json.dumps(jsonable({"kernel": str(args.kernel), **report}), indent=2))
    else:
        print(_format_envelope(str(args.kernel), report))
    return 0


def add_bounds(sub: argparse._SubParsersAction) -> None:
    """Add ``mechdesign bounds`` to the subcommands ``sub`` of the parser.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The parser's subcommands (``parser.add_subparsers()``).
    """
    bnd = sub.add_parser("bounds", help="contraction bounds for (ε,c)-PML (Dobrushin paper)")
    bnd.add_argument("--epsilon", type=float, required=True, help="ε in nats")
    bnd.add_argument("--c", type=float, required=True, help="0 < c <= 1/N")
    bnd.add_argument("--n", type=int, required=True, help="number of inputs N")
    bnd.add_argument(
        "--tv", type=float, default=1.0, help="TV(P, Q) for the SDPI bounds (default 1)"
    )
    bnd.add_argument("--json", action="store_true", help="machine-readable output")
    bnd.set_defaults(handler=_cmd_bounds)


def add_envelope(sub: argparse._SubParsersAction) -> None:
    """Add ``mechdesign envelope`` to the subcommands ``sub`` of the parser.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The parser's subcommands (``parser.add_subparsers()``).
    """
    env = sub.add_parser("envelope", help="PML quantiles, bounds and the exact PML envelope")
    env.add_argument("kernel", help="CSV file, one row per input (decimals or fractions)")
    env.add_argument(
        "--prior", default="uniform", help=PRIOR_HELP
    )
    env.add_argument(
        "--delta", type=float, nargs="+", required=True, help="failure probabilities in (0, 1)"
    )
    env.add_argument("--json", action="store_true", help="machine-readable output")
    env.set_defaults(handler=_cmd_envelope)
