"""``mechdesign shuffle``, ``local-epsilon`` and ``aggregate``: the deployment behind a
shuffler from a shell.

``shuffle`` gives the central ε of a kernel file or a deployed protocol for ``--users``
reports shuffled (every proved bound, the smallest named); ``local-epsilon`` the largest
local ε₀ of a protocol (or of any ε₀-LDP randomizer) whose shuffled guarantee meets a
central target; ``aggregate`` the input histogram a file of reports estimates, with
confidence intervals. An OpenDP export has no shell form (a Measurement is a Python
object): :func:`~mechdesign.deployment.opendp.to_opendp`.
"""

from __future__ import annotations

import argparse
import csv
import json
from pathlib import Path

import numpy as np

from mechdesign.cli.inputs import read_kernel
from mechdesign.cli.printing import fmt, jsonable
from mechdesign.errors import InvalidInputError

__all__ = ["PROTOCOLS", "add_aggregate", "add_local_epsilon", "add_shuffle"]

#: ``--protocol`` names and the deployed protocols they stand for.
PROTOCOLS = {"grr": "GRR", "oue": "OUE", "sue": "SUE (RAPPOR)", "ss": "subset selection",
             "olh": "OLH", "hr": "Hadamard response"}


def _protocol(name: str, k: int | None, epsilon0: float):
    from mechdesign.mechanisms.oracles import implicit_protocols

    if k is None:
        raise InvalidInputError(f"--protocol {name} needs --k, the number of categories.")
    if not 2 <= k <= 10**7:
        raise InvalidInputError(f"--k must be between 2 and 10**7 categories; got {k}.")
    return implicit_protocols(k, epsilon0)[PROTOCOLS[name]]()


def _cmd_shuffle(args: argparse.Namespace) -> int:
    from mechdesign.accounting.shuffle import shuffle_epsilon

    if (args.kernel is None) == (args.protocol is None):
        raise InvalidInputError("shuffle needs a KERNEL file or --protocol (with --k and "
                                "--epsilon0), not both.")
    if args.protocol is not None:
        if args.epsilon0 is None:
            raise InvalidInputError(f"--protocol {args.protocol} needs --epsilon0.")
        kernel = _protocol(args.protocol, args.k, args.epsilon0)
        what = f"{PROTOCOLS[args.protocol]}, k = {args.k}, epsilon0 = {fmt(args.epsilon0)}"
    else:
        kernel = read_kernel(args.kernel)
        what = str(args.kernel)
    result = shuffle_epsilon(kernel, args.users, args.delta, rounds=args.rounds)
    if args.json:
        print(json.dumps(jsonable({
            "kernel": what, "users": args.users, "delta": args.delta, "rounds": args.rounds,
            "epsilon0": result.parameters.epsilon0, "central_epsilon": result.epsilon,
            "method": result.method, "bounds": result.bounds}), indent=2))
        return 0
    print(f"shuffle: {what}; {args.users} users, delta = {args.delta:g}, "
          f"{args.rounds} round{'s' if args.rounds > 1 else ''}")
    print(f"  local epsilon0: {fmt(result.parameters.epsilon0)}")
    print(f"  central epsilon: {fmt(result.epsilon)} ({result.method})")
    for name, value in sorted(result.bounds.items(), key=lambda item: item[1]):
        print(f"    {name:10s} {fmt(value)}")
    return 0


def _cmd_local_epsilon(args: argparse.Namespace) -> int:
    from mechdesign.accounting.shuffle import local_epsilon_for

    if args.protocol is None:
        family, what = "any", "any epsilon0-LDP randomizer"
    else:
        _protocol(args.protocol, args.k, 1.0)          # the arguments, checked once
        name, k = args.protocol, args.k

        def family(e: float):
            return _protocol(name, k, e)
        what = f"{PROTOCOLS[name]}, k = {k}"
    epsilon0 = local_epsilon_for(args.central, args.delta, args.users, family,
                                 rounds=args.rounds, ceiling=args.ceiling)
    if args.json:
        print(json.dumps(jsonable({
            "protocol": what, "central_epsilon": args.central, "delta": args.delta,
            "users": args.users, "rounds": args.rounds, "epsilon0": epsilon0}), indent=2))
        return 0
    print(f"local-epsilon: {what}; central ({fmt(args.central)}, {args.delta:g}) for "
          f"{args.users} users")
    print(f"  largest epsilon0: {fmt(epsilon0)}")
    return 0


def _read_reports(path: Path, labels: tuple | None, outputs: int) -> np.ndarray:
    """Output indices of a reports file: one report a line (first cell), an index in
    ``[0, M)`` or, when the kernel's document labels its outputs, a label."""
    try:
        with open(path, newline="", encoding="utf-8-sig") as handle:
            cells = [row[0].strip() for row in csv.reader(handle) if row and row[0].strip()]
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInputError(f"{path}: cannot read the reports ({exc}).") from exc
    if not cells:
        raise InvalidInputError(f"{path}: no reports.")
    if labels is not None:
        position = {str(label): j for j, label in enumerate(labels)}
        unknown = next((c for c in cells if c not in position), None)
        if unknown is not None:
            raise InvalidInputError(
                f"{path}: report {unknown!r} is not one of the kernel's output labels.")
        return np.array([position[c] for c in cells])
    try:
        indices = np.array([int(c) for c in cells])
    except ValueError as exc:
        raise InvalidInputError(
            f"{path}: reports must be output indices 0..{outputs - 1} (the kernel names no "
            f"output labels): {exc}.") from exc
    return indices


def _cmd_aggregate(args: argparse.Namespace) -> int:
    from mechdesign.deployment.aggregation import Aggregator
    from mechdesign.deployment.documents import load_kernel

    text = Path(args.kernel).read_text(encoding="utf-8-sig")
    if text.lstrip().startswith("{"):
        try:
            document = load_kernel(text)
        except InvalidInputError as exc:
            raise InvalidInputError(f"{args.kernel}: {exc}") from exc
        kernel, inputs, outputs = (document.mechanism, document.input_labels,
                                   document.output_labels)
    else:
        kernel, inputs, outputs = read_kernel(args.kernel), None, None
    reports = _read_reports(args.reports, outputs, kernel.n_outputs)
    aggregator = Aggregator(kernel, estimator=args.estimator).add(reports)
    estimate = aggregator.estimate()
    intervals = aggregator.confidence_intervals(args.confidence)
    names = [str(v) for v in (inputs if inputs is not None else range(kernel.n_inputs))]
    if args.json:
        print(json.dumps(jsonable({
            "reports": aggregator.n, "estimator": args.estimator,
            "confidence": args.confidence, "inputs": names,
            "estimate": estimate.tolist(), "intervals": intervals.tolist(),
            "likelihood_gap": aggregator.likelihood_gap}), indent=2))
        return 0
    print(f"aggregate: {aggregator.n} reports through {args.kernel}, estimator "
          f"{args.estimator}, {args.confidence:g} intervals")
    width = max(len(name) for name in names)
    for name, value, (low, high) in zip(names, estimate, intervals, strict=True):
        print(f"  {name:{width}s}  {value:.6f}  [{low:.6f}, {high:.6f}]")
    return 0


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--users", type=int, required=True, help="reports shuffled, n")
    parser.add_argument("--delta", type=float, required=True, help="the central δ")
    parser.add_argument("--rounds", type=int, default=1,
                        help="releases of the same users composed (default 1)")
    parser.add_argument("--protocol", choices=sorted(PROTOCOLS),
                        help="a deployed protocol: " + ", ".join(
                            f"{key} ({value})" for key, value in PROTOCOLS.items()))
    parser.add_argument("--k", type=int, help="--protocol: the number of categories")
    parser.add_argument("--json", action="store_true", help="machine-readable output")


def add_shuffle(sub: argparse._SubParsersAction) -> None:
    """Add ``mechdesign shuffle`` to the subcommands ``sub`` of the parser.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The parser's subcommands (``parser.add_subparsers()``).
    """
    cmd = sub.add_parser("shuffle", help="the central epsilon of a kernel or protocol behind "
                                         "a shuffler of n users")
    cmd.add_argument("kernel", nargs="?", help="kernel file (CSV or JSON), or --protocol")
    cmd.add_argument("--epsilon0", type=float, help="--protocol: its local ε₀")
    _common(cmd)
    cmd.set_defaults(handler=_cmd_shuffle)


def add_local_epsilon(sub: argparse._SubParsersAction) -> None:
    """Add ``mechdesign local-epsilon`` to the subcommands ``sub`` of the parser.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The parser's subcommands (``parser.add_subparsers()``).
    """
    cmd = sub.add_parser("local-epsilon", help="the largest local epsilon0 whose shuffled "
                                               "guarantee meets a central target")
    cmd.add_argument("--central", type=float, required=True, help="the central ε target")
    cmd.add_argument("--ceiling", type=float, default=20.0,
                     help="the largest ε₀ searched (default 20)")
    _common(cmd)
    cmd.set_defaults(handler=_cmd_local_epsilon)


def add_aggregate(sub: argparse._SubParsersAction) -> None:
    """Add ``mechdesign aggregate`` to the subcommands ``sub`` of the parser.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The parser's subcommands (``parser.add_subparsers()``).
    """
    cmd = sub.add_parser("aggregate", help="estimate the input histogram from a file of "
                                           "reports, with confidence intervals")
    cmd.add_argument("reports", type=Path, help="one report a line: an output index, or a "
                                                "label when the kernel's JSON names them")
    cmd.add_argument("--kernel", required=True,
                     help="the kernel the users reported through (JSON or CSV)")
    cmd.add_argument("--estimator", default="blue",
                     help="blue (default: the best linear unbiased estimator), standard, "
                          "least_squares, ibu or mle (Aggregator's estimators)")
    cmd.add_argument("--confidence", type=float, default=0.95,
                     help="confidence of the per-input intervals (default 0.95)")
    cmd.add_argument("--json", action="store_true", help="machine-readable output")
    cmd.set_defaults(handler=_cmd_aggregate)

