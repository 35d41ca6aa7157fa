"""``mechdesign audit`` (every measure of a kernel) and ``mechdesign audit-samples`` (a
lower confidence bound on an implementation's LDP level from its samples)."""

from __future__ import annotations

import argparse
import csv
import json
import math
from typing import Any

import numpy as np

from mechdesign.cli.inputs import (
    PRIOR_HELP,
    read_kernel,
    read_prior,
)
from mechdesign.cli.printing import fmt, jsonable
from mechdesign.errors import InvalidInputError

__all__ = ["add_audit", "add_audit_samples", "format_measure_report"]


def format_measure_report(title: str, report: dict[str, Any]) -> str:
    """:func:`mechdesign.reports.measure_report`'s report as the text table ``audit`` (and
    ``demo``, for the papers' example kernels) prints under ``title``.

    Parameters
    ----------
    title : str
        The first line's name of the kernel.
    report : dict
        A report of :func:`mechdesign.reports.measure_report`.
    """
    lines = [f"{title}  (N = {report['n_inputs']} inputs, M = {report['n_outputs']} outputs)"]
    prior = report["prior"]
    uniform = np.allclose(prior, 1.0 / len(prior))
    rows = [
        ("LDP level  LDP(K)", report["ldp_level"]),
        ("maximal leakage  log Σ_y max_x K", report["maximal_leakage"]),
        ("Dobrushin coefficient  η_TV(K)", report["dobrushin_coefficient"]),
        (
            f"Rényi-LDP level  (α = {report['renyi_ldp_level']['alpha']:g})",
            report["renyi_ldp_level"]["value"],
        ),
        (
            f"mutual information  I(X;Y)  [prior {'uniform' if uniform else 'given'}]",
            report["mutual_information"],
        ),
        (
            f"channel capacity  max_P I(X;Y)  (certified within "
            f"{report['channel_capacity']['upper'] - report['channel_capacity']['lower']:.1g})",
            report["channel_capacity"]["value"],
        ),
        (
            f"Sibson I_α  (α = {report['sibson_mutual_information']['alpha']:g})",
            report["sibson_mutual_information"]["value"],
        ),
        ("PML level  max_y ℓ(X→y)", report["pml_level"]),
    ]
    if report["attack_risk"] is not None:
        attack = report["attack_risk"]
        rows.append(("best attack's advantage  max TPR − FPR  (one use; a probability)",
                     attack["advantage"]))
        if attack["true_positive_rate"] is not None:
            rows.append((f"best attack's TPR at FPR {attack['false_positive_rate']:g}  "
                         "(a probability)", attack["true_positive_rate"]))
        rows.append(("Bayes risk of the best attack  (even prior; a probability)",
                     attack["bayes_risk_even_prior"]))
    below = report["post_processing_of_randomized_response"]
    if below is not None:
        rows.append(("a post-processing of k-RR at its LDP level  (Blackwell)",
                     "yes" if below else "no"))
    if report["maximal_alpha_leakage"]["value"] is not None:
        rows.append((f"maximal α-leakage  (α = {report['maximal_alpha_leakage']['alpha']:g})",
                     report["maximal_alpha_leakage"]["value"]))
    for entry in report["pml_capacity"]:
        rows.append((f"(ε,c)-PML level  C(K, Q_X(c)), c = {entry['c']:g}", entry["pml_capacity"]))
        verdict = "holds" if entry["dobrushin_within_bound"] else "VIOLATED"
        rows.append(
            (f"  Theorem 1 bound Ξ(ε_c, c)  [η_TV ≤ Ξ {verdict}]", entry["dobrushin_bound"])
        )
    width = max(len(name) for name, _ in rows)
    lines.append(f"  {'measure'.ljust(width)}  value (nats)")
    lines.extend(f"  {name.ljust(width)}  {fmt(value)}" for name, value in rows)
    leak = ", ".join(fmt(v) for v in report["pointwise_leakage"])
    lines.append(f"  {'pointwise leakage ℓ(X→y), y = 0..M-1'.ljust(width)}  [{leak}]")
    return "\n".join(lines)


def _cmd_audit(args: argparse.Namespace) -> int:
    from mechdesign.reports import measure_report

    kernel = read_kernel(args.kernel)
    prior = read_prior(args.prior, kernel.n_inputs)
    report = measure_report(kernel, prior, c_values=args.c or (), alpha=args.alpha)
    if args.json:
        print(json.dumps(jsonable({"kernel": str(args.kernel), **report}), indent=2))
    else:
        print(format_measure_report(str(args.kernel), report))
    return 0


def _read_pairs(path: str, header: bool | None = None) -> dict[str, Any]:
    """(input, output) pairs from a two-column CSV, with which line, if any, was a header.

    ``header`` True: line 1 names the columns; False: every line is a pair; None (the
    default): line 1 is taken for a header only when that is unambiguous, that is when
    none of its cells occurs among the values of its column below it and at least one is
    not an integer (so ``input,output`` over numeric or text pairs is a header, and a
    first pair whose labels recur below, such as ``a,x`` in ``a,x / b,y / a,y / b,x``, is
    data). A column whose values all parse as integers holds integers; any other column
    holds strings (blanks around a cell are dropped). Returns ``inputs``, ``outputs``,
    ``numeric`` (per column) and ``header`` (None, or its ``line``, ``cells`` and ``how``:
    ``"declared"`` or ``"detected"``).
    """
    try:
        with open(path, newline="", encoding="utf-8-sig") as handle:
            reader = csv.reader(handle)
            rows = [(reader.line_num, [cell.strip() for cell in row]) for row in reader
                    if row and any(cell.strip() for cell in row)]
    except UnicodeDecodeError as exc:
        raise InvalidInputError(f"{path}: not a UTF-8 text file ({exc.reason}).") from exc
    for line, row in rows:
        if len(row) != 2:
            raise InvalidInputError(
                f"{path}: line {line} has {len(row)} fields; expected two (input, output)."
            )
    if header is None:
        header = len(rows) > 1 and not all(map(_is_int, rows[0][1])) and all(
            rows[0][1][j] not in {row[j] for _, row in rows[1:]} for j in (0, 1)
        )
        how = "detected"
    else:
        how = "declared"
    first = {"line": rows[0][0], "cells": rows[0][1], "how": how} if header and rows else None
    cells = [row for _, row in rows[1:]] if header else [row for _, row in rows]
    if not cells:
        raise InvalidInputError(f"{path}: no (input, output) pairs found"
                                + (" below the header." if header else "."))
    columns: list[list[Any]] = []
    numeric = []
    for j in (0, 1):
        values = [row[j] for row in cells]
        numeric.append(all(map(_is_int, values)))
        columns.append([int(v) for v in values] if numeric[-1] else values)
    return {"inputs": columns[0], "outputs": columns[1], "numeric": numeric,
            "header": first}


def _is_int(text: str) -> bool:
    try:
        int(text)
    except ValueError:
        return False
    return True


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _cmd_audit_samples(args: argparse.Namespace) -> int:
    from mechdesign.accounting.sample_audit import audit_pairs
    from mechdesign.deployment.conformance import conforms
    from mechdesign.measures.leakage import ldp_level

    pairs = _read_pairs(args.pairs, args.header)
    inputs, outputs = pairs["inputs"], pairs["outputs"]
    claimed = read_kernel(args.kernel) if args.kernel else None
    audit = audit_pairs(inputs, outputs, confidence=args.confidence, claimed=claimed,
                        claimed_inputs=range(claimed.n_inputs) if claimed else None)
    exceeds = args.epsilon is not None and audit.exceeds(args.epsilon)
    rejects = audit.p_value is not None and audit.p_value < 1 - audit.confidence
    level = args.epsilon if args.epsilon is not None else (
        ldp_level(claimed) if claimed is not None else math.inf)
    refuted = not conforms(audit, level)    # the verdict check_implementation gives
    header = pairs["header"]

    def typed(value: Any, column: int) -> Any:
        # Each column keeps one type in the JSON: integers when every value of the
        # column is one, strings otherwise.
        return int(value) if pairs["numeric"][column] else str(value)

    if args.json:
        witness = audit.witness
        report = {
            "n_pairs": len(inputs),
            "header": header,
            "inputs": [typed(v, 0) for v in audit.inputs],
            "outputs": [typed(v, 1) for v in audit.outputs],
            "confidence": audit.confidence,
            "lower_bound": audit.lower_bound, "estimate": audit.estimate,
            "witness": None if witness is None else [
                typed(witness[0], 0), typed(witness[1], 0), typed(witness[2], 1)],
            "intervals": audit.intervals, "p_value": audit.p_value,
            "epsilon": args.epsilon, "exceeds_epsilon": exceeds,
            "chi2_rejects": rejects, "refuted": refuted,
        }
        print(json.dumps(jsonable(report), indent=2))
    else:
        if header is None:
            read = "no header: every line is a sample (--header if line 1 names the columns)"
        else:
            read = (f"line {header['line']} ({', '.join(header['cells'])}) read as the header "
                    f"({header['how']}; --no-header counts it as a sample)")
        lines = [
            f"audit of {_plural(len(inputs), 'sample')}: {_plural(len(audit.inputs), 'input')}, "
            f"{_plural(len(audit.outputs), 'output')}",
            f"  {read}",
            f"  LDP level, lower confidence bound ({audit.confidence:g}, Bonferroni over "
            f"{audit.intervals} intervals): {fmt(audit.lower_bound)}",
            f"  LDP level, plug-in estimate: {fmt(audit.estimate)}",
        ]
        if audit.witness is not None:
            x, x_other, y = audit.witness
            lines.append(f"  witness: output {y} from inputs {x} vs {x_other}")
        if audit.p_value is not None:
            verdict = ("REJECTS the claimed kernel: the samples refute it" if rejects
                       else "does not reject it")
            lines.append(f"  chi^2 test of equality with {args.kernel}: p = "
                         f"{audit.p_value:.3g}, at {1 - audit.confidence:g} it {verdict}")
            if args.epsilon is None and audit.exceeds(level):
                lines.append(f"  the lower confidence bound EXCEEDS the kernel's own level "
                             f"{fmt(level)}: the samples refute it")
        if args.epsilon is not None:
            if exceeds:
                lines.append(f"  the lower confidence bound EXCEEDS the claimed epsilon = "
                             f"{fmt(args.epsilon)}: the samples refute the claim")
            else:
                lines.append(f"  the lower confidence bound does not exceed the claimed "
                             f"epsilon = {fmt(args.epsilon)}: the samples do not refute it")
        print("\n".join(lines))
    return 1 if refuted else 0


def add_audit(sub: argparse._SubParsersAction) -> None:
    """Add ``mechdesign audit`` to the subcommands ``sub`` of the parser.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The parser's subcommands (``parser.add_subparsers()``).
    """
    audit = sub.add_parser("audit", help="print every leakage measure of a kernel")
    audit.add_argument("kernel", help="CSV file, one row per input (decimals or fractions)")
    audit.add_argument(
        "--prior", default="uniform", help=PRIOR_HELP
    )
    audit.add_argument(
        "--c",
        type=float,
        action="append",
        help="report the (ε,c)-PML level for this c (0 < c <= 1/N); repeatable",
    )
    audit.add_argument("--alpha", type=float, default=2.0, help="Rényi-LDP order (default 2)")
    audit.add_argument("--json", action="store_true", help="machine-readable output")
    audit.set_defaults(handler=_cmd_audit)


def add_audit_samples(sub: argparse._SubParsersAction) -> None:
    """Add ``mechdesign audit-samples`` to the subcommands ``sub`` of the parser.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The parser's subcommands (``parser.add_subparsers()``).
    """
    aud = sub.add_parser(
        "audit-samples",
        help="bound the LDP level of an implementation from (input, output) samples",
    )
    aud.add_argument("pairs", help="CSV of (input, output) pairs, one per line")
    head = aud.add_mutually_exclusive_group()
    head.add_argument("--header", dest="header", action="store_true", default=None,
                      help="line 1 names the columns (default: detected only when none of "
                           "its cells occurs below it in its column and one is not an "
                           "integer; the output says which line, if any, was the header)")
    head.add_argument("--no-header", dest="header", action="store_false",
                      help="every line is a sample")
    aud.add_argument("--confidence", type=float, default=0.99,
                     help="confidence of the lower bound (default 0.99)")
    aud.add_argument("--epsilon", type=float,
                     help="the claimed ε: exit 1 if the samples show more (default: the "
                          "kernel's own level, with --kernel)")
    aud.add_argument("--kernel", help="the claimed kernel, CSV or JSON (inputs and outputs "
                                      "0..): exit 1 if the χ² test rejects it")
    aud.add_argument("--json", action="store_true", help="machine-readable output")
    aud.set_defaults(handler=_cmd_audit_samples)
