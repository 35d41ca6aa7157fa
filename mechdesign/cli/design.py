"""``mechdesign design``: the optimal mechanism under ε-LDP or PML, with its audit and LP
certificate, and robust LDP from data (``--notion rldp``)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from mechdesign._tolerances import COLUMN_GENERATION_GAP
from mechdesign.cli.inputs import (
    CLI_MAX_N,
    MAX_VERTICES,
    METHODS,
    PRIOR_HELP,
    RLDP_MAX_VERTICES,
    ROBUST_LDP_MECHANISMS,
    prior_spec,
    read_prior,
    read_workload,
)
from mechdesign.cli.printing import fmt, jsonable
from mechdesign.errors import InvalidInputError, TooLargeError

if TYPE_CHECKING:
    from mechdesign.optimal import Design

__all__ = [
    "add_design", "design_evidence_holds", "design_json", "format_design", "format_shuffled",
]


def design_evidence_holds(result: Design) -> bool:
    """Whether a design's evidence holds: its audit passed, its LP certificate holds and its
    Dobrushin coefficient is within the closed-form bound (where there is one).

    Parameters
    ----------
    result : Design
        A design of :func:`mechdesign.optimal.design`.
    """
    from mechdesign.reports import BOUND_RTOL

    within = result.dobrushin_bound is None or (
        result.dobrushin_coefficient <= result.dobrushin_bound * (1 + BOUND_RTOL)
    )
    return result.audit_passed and result.certificate.holds and within


def _unit(utility_name: str) -> str:
    """Information measures are in nats; vulnerabilities are probabilities or gains."""
    return ", nats" if "information" in utility_name or "divergence" in utility_name else ""


def _kernel_lines(
    matrix: np.ndarray, rows: Sequence[str], columns: Sequence[str] | None = None
) -> list[str]:
    """A kernel as indented text: each row after its input's label, under a header of
    output labels when the outputs have labels (a designed mechanism's outputs do not)."""
    cells = [[f"{v:.6f}" for v in row] for row in matrix]
    width = max([8, *(len(c) for c in columns or ())])
    left = max(len(r) for r in rows)
    lines = []
    if columns is not None:
        lines.append("    " + " " * left + "  " + "  ".join(c.rjust(width) for c in columns))
    lines.extend("    " + label.ljust(left) + "  " + "  ".join(c.rjust(width) for c in row)
                 for label, row in zip(rows, cells, strict=True))
    return lines


def _method_text(info: dict[str, Any]) -> str:
    """The method that ran, from a design's summary or a robust-LDP report: the vertex
    count of an enumeration; the columns, iterations and status of column generation."""
    method = info.get("method")
    if method == "column_generation":
        return (f"column generation: {info['columns']} columns, {info['iterations']} "
                f"iterations, {info['optimality']}")
    if method == "enumeration":
        return f"enumeration: {info['n_vertices']} vertices"
    return "closed form"


def format_design(title: str, result: Design) -> str:
    """A design as the text ``design`` (and ``demo``) prints under ``title``: the kernel,
    its utility, audit, certificate, Dobrushin check, method and timings.

    Parameters
    ----------
    title : str
        The first line's name of the design.
    result : Design
        A design of :func:`mechdesign.optimal.design`.
    """
    info = result.summary()
    k = result.mechanism.matrix
    lines = [f"{title}: {info['notion']}"]
    lines.append(f"  optimal mechanism K (rows are inputs x), {k.shape[0]} x {k.shape[1]}:")
    lines.extend(_kernel_lines(k, [f"x={i}" for i in range(k.shape[0])]))
    bound = info["dobrushin_bound"]
    rows = [
        (f"utility ({result.utility_name}{_unit(result.utility_name)})", fmt(info["utility"])),
        (
            "audit: privacy level re-computed",
            f"{fmt(info['privacy_level'])} <= epsilon = "
            f"{fmt(info['epsilon'])}: {'passed' if info['audit_passed'] else 'FAILED'}",
        ),
        (
            "LP certificate (primal = dual, dual feasible)",
            f"primal {fmt(info['primal_objective'])}, dual {fmt(info['dual_objective'])}, "
            f"max violation {info['max_dual_violation']:.2g}: "
            f"{'holds' if info['certificate_holds'] else 'FAILED'}",
        ),
        (
            "Dobrushin coefficient vs closed-form bound",
            f"{fmt(info['dobrushin_coefficient'])} <= "
            f"{fmt(bound) if bound is not None else 'n/a (no closed form)'}",
        ),
        (
            "method (backend)",
            # column generation's backend names its pricing ("column generation (...)")
            f"{_method_text(info)} "
            f"({str(info['backend']).removeprefix('column generation ').strip('()')})",
        ),
        (
            "seconds (enumeration, LP, total)",
            ", ".join(f"{v:.3g}" for v in info["seconds"].values()),
        ),
    ]
    if "lower_bound" in info:
        rows.append(
            (
                "certified bracket lower <= OPT <= upper",
                f"{fmt(info['lower_bound'])} <= OPT <= {fmt(info['upper_bound'])} "
                f"({info['optimality']})",
            )
        )
    width = max(len(name) for name, _ in rows)
    lines.extend(f"  {name.ljust(width)}  {value}" for name, value in rows)
    return "\n".join(lines)


def design_json(result: Design) -> dict[str, Any]:
    """A design as its ``--json`` document: the summary, the kernel and the LP's dual.

    Parameters
    ----------
    result : Design
        A design of :func:`mechdesign.optimal.design`.
    """
    document = {
        **result.summary(),
        "mechanism": result.mechanism.matrix.tolist(),
        "dual": result.certificate.dual.tolist(),
    }
    report = result.target
    if report is not None:
        document["shuffled"] = {
            "central_epsilon_target": report.target.epsilon, "delta": report.target.delta,
            "users": report.target.n, "local_epsilon": report.chosen.notion.epsilon,
            "clone_mass": report.chosen.notion.r, "certified_by": report.chosen.certified_by,
            "central_epsilon": report.central_epsilon,
            "central_method": report.central_method, "clone_delta": report.clone_delta,
            "bound": report.bound, "certified": report.certified, "stopped": report.stopped,
            "inner_designs": [{"t": p.t, "local_epsilon": p.notion.epsilon,
                               "clone_mass": p.notion.r, "utility": p.utility,
                               "status": str(p.status), "seconds": p.seconds,
                               "certified_by": p.certified_by}
                              for p in report.points],
        }
    return document


def _design_options(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of :func:`~mechdesign.optimal.design` that the flags set."""
    return {
        "method": args.method,
        "max_vertices": MAX_VERTICES if args.max_vertices is None else args.max_vertices,
        "time_limit": args.time_limit,
        "gap": COLUMN_GENERATION_GAP if args.gap is None else args.gap,
        "utility": _utility(args),
    }


def _utility(args: argparse.Namespace) -> Any:
    """``--utility mi|bayes|mse`` (with ``--workload`` for mse) as ``design``'s utility."""
    name = getattr(args, "utility", "mi")
    workload = getattr(args, "workload", None)
    if workload is not None and name != "mse":
        raise InvalidInputError("--workload applies to --utility mse only.")
    if name == "mse":
        from mechdesign.optimal import EstimationError

        return EstimationError(read_workload(workload))
    return "bayes" if name == "bayes" else "mutual_information"


def _run_design(notion: Any, prior: np.ndarray, **options: Any) -> Design:
    from mechdesign.optimal import design

    try:
        return design(notion, prior, **options)
    except TooLargeError as exc:
        raise TooLargeError(
            f"{exc} On the command line: --max-vertices N, or --method column_generation."
        ) from exc


def _cmd_design(args: argparse.Namespace) -> int:
    from mechdesign.notions import LDP, PML

    data_options = ("data", "sensitive", "other", "beta", "mechanism")
    central = [f"--{name}" for name in ("central", "delta", "users")
               if getattr(args, name) is not None]
    if central and len(central) < 3:
        raise InvalidInputError(
            "the central guarantee behind a shuffler needs all of --central EPS, --delta D "
            f"and --users N; got only {', '.join(central)}.")
    if central and (args.notion is not None or args.epsilon is not None or args.c is not None):
        raise InvalidInputError(
            "--central designs for the shuffled central guarantee and chooses the local "
            "notion itself: drop --notion, --epsilon and --c.")
    if not central and args.notion is None:
        raise InvalidInputError(
            "design needs --notion {ldp,pml,rldp} (with --epsilon), or --central EPS --delta "
            "D --users N for the central guarantee of N users' reports behind a shuffler.")
    if args.epsilon is None:
        args.epsilon = 1.0
    if args.notion == "rldp":
        return _cmd_design_rldp(args)
    given = [f"--{name.replace('_', '-')}" for name in data_options if getattr(args, name)]
    if given:
        raise InvalidInputError(f"{', '.join(given)} apply to --notion rldp only.")
    if prior_spec(args.prior)[0] != "file":
        n = 4 if args.n is None else args.n
        if not 2 <= n <= CLI_MAX_N:
            raise InvalidInputError(
                f"--n must be between 2 and {CLI_MAX_N} inputs; got {n} (a design's kernel "
                "is N x N, and column generation is certified at N in the hundreds)."
            )
        prior = read_prior(args.prior, n)
    else:
        if args.n is not None:
            raise InvalidInputError(
                "--n sets the size of a uniform prior (or a zipf one); with --prior FILE the "
                "file fixes N (drop --n, or use --prior uniform or zipf)."
            )
        prior = read_prior(args.prior, None)
    if central:
        from mechdesign.accounting.shuffle_design import Shuffled

        notion = Shuffled(args.central, args.delta, args.users)
    elif args.notion == "ldp":
        if args.c is not None:
            raise InvalidInputError("--c applies to --notion pml only.")
        notion = LDP(args.epsilon)
    elif args.c is not None:
        notion = PML(args.epsilon, c=args.c)
    else:
        notion = PML(args.epsilon, prior=prior)
    result = _run_design(notion, prior, backend=args.backend, **_design_options(args))
    if args.out is not None:
        _write_kernel(args.out, _kernel_document(result, args))
    elif args.exact or args.labels is not None:
        raise InvalidInputError("--exact and --labels apply to the kernel --out writes.")
    if args.json:
        print(json.dumps(jsonable(design_json(result)), indent=2))
    else:
        print(format_design("design", result))
        if result.target is not None:
            print(format_shuffled(result.target))
    return 0 if design_evidence_holds(result) else 1


def format_shuffled(report: Any) -> str:
    """A :class:`~mechdesign.accounting.shuffle_design.ShuffledReport` as text: the target,
    the chosen local notion, the central ε it reaches, the bound and every inner design.

    Parameters
    ----------
    report : ShuffledReport
        ``Design.target`` of a design for a shuffled central guarantee.
    """
    target, chosen = report.target, report.chosen
    status = ("certified optimal among clone-certified kernels" if report.certified
              else f"not certified (search: {report.stopped})")
    rows = [
        ("central target (epsilon, delta), users",
         f"({fmt(target.epsilon)}, {target.delta:g}), n = {target.n:,}"),
        ("chosen local notion", f"{chosen.notion!r} (certified by {chosen.certified_by})"),
        ("central epsilon of the kernel (shuffle_epsilon)",
         f"{fmt(report.central_epsilon)} ({report.central_method}) <= {fmt(target.epsilon)}"),
        ("clone reduction's delta at the target", f"{report.clone_delta:.6g}"),
        ("bound over every clone-certified kernel",
         "n/a" if report.bound is None else fmt(report.bound)),
        ("result", status),
    ]
    width = max(len(name) for name, _ in rows)
    lines = ["behind a shuffler:"]
    lines.extend(f"  {name.ljust(width)}  {value}" for name, value in rows)
    lines.append("  inner designs (t: 0 = epsilon0-LDP end, 1 = k-RR end):")
    lines.extend(f"    t = {p.t:.4f}  {p.notion!r}  utility {fmt(p.utility)}  ({p.status}, "
                 f"{p.seconds:.3g} s{', blanket' if p.certified_by == 'blanket' else ''})"
                 for p in report.points)
    return "\n".join(lines)


def _kernel_document(result, args: argparse.Namespace) -> str:
    """``design --out``'s JSON: the float kernel, or with ``--exact`` the exact rational
    one (its level verified in integer arithmetic; behind a shuffler its central ε
    checked again), with ``--labels``' input labels."""
    labels = None
    if args.labels is not None:
        labels = _read_labels(args.labels, result.mechanism.n_inputs)
    notion = repr(result.notion)
    if not args.exact:
        return result.mechanism.to_json(input_labels=labels, notion=notion,
                                        epsilon=result.notion.epsilon)
    from mechdesign.deployment.rational import rational_mechanism
    from mechdesign.notions import LDP, CloneLDP

    if not isinstance(result.notion, (LDP, CloneLDP)):
        raise InvalidInputError(
            "--exact certifies an LDP level: it applies to --notion ldp and --central.")
    exact = rational_mechanism(result.mechanism, result.notion.epsilon, bits=args.bits)
    if result.target is not None:
        from mechdesign.accounting.shuffle import shuffle_epsilon

        target = result.target.target
        central = shuffle_epsilon(exact.matrix, target.n, target.delta).epsilon
        if central > target.epsilon:
            raise InvalidInputError(
                f"the exact kernel's shuffled central epsilon {central:.6g} exceeds the "
                f"target {target.epsilon:g}: try more --bits.")
    return exact.to_json(input_labels=labels, notion=notion)


def _read_labels(path: Path, count: int) -> list[str]:
    """``--labels``: one input label a line, ``count`` of them."""
    try:
        lines = [line.strip() for line in path.read_text(encoding="utf-8-sig").splitlines()]
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInputError(f"--labels {path}: cannot read it ({exc}).") from exc
    labels = [line for line in lines if line]
    if len(labels) != count:
        raise InvalidInputError(
            f"--labels {path} must name the {count} inputs, one a line; it has "
            f"{len(labels)}.")
    return labels


def _write_kernel(path: Path, text: str) -> None:
    """Write ``design --out``'s JSON document (a user's path: errors by name)."""
    try:
        path.write_text(text + "\n", encoding="utf-8")
    except OSError as exc:
        raise InvalidInputError(f"--out {path}: cannot write the kernel ({exc.strerror}).") from exc


def _format_rldp(report: dict[str, Any]) -> str:
    shape = report["shape"]
    lines = [
        f"robust LDP: S = {report['sensitive']} ({shape[0]} values), U = {report['other']} "
        f"({shape[1]} values), n = {report['n_samples']}",
        f"  chi^2 ball: alpha = 2, beta = {report['beta']:g}, radius B = "
        f"{fmt(report['radius'])}; epsilon = {fmt(report['epsilon'])}",
    ]
    k = np.array(report["mechanism"])
    lines.append(
        f"  {report['mechanism_name']} mechanism K (rows are inputs (s, u), S-major), "
        f"{k.shape[0]} x {k.shape[1]}:"
    )
    if k.size <= 400:
        labels = [f"({s}, {u})" for s in report["s_labels"] for u in report["u_labels"]]
        # GRR, SRR and IR report a value of S x U; a designed mechanism's outputs are its
        # columns, which have no labels.
        same = report["mechanism_name"] in ("GRR", "SRR", "IR") and k.shape[1] == len(labels)
        lines.extend(_kernel_lines(k, labels, labels if same else None))
    else:
        lines.append("    (too large to print; use --json)")
    comp = report["comparator_utilities"]
    rows = [
        ("utility I_P̂(X;Y), nats (NMI)", f"{fmt(report['utility'])} ({report['nmi']:.4f})"),
        ("GRR / SRR at the same epsilon", f"{fmt(comp['grr'])} / {fmt(comp['srr'])}"),
        (
            "exact robust audit over the ball",
            f"{fmt(report['robust_level'])} <= epsilon = {fmt(report['epsilon'])}: "
            f"{'passed' if report['audit_passed'] else 'FAILED'}"
            + ("" if report["audit_exact"] else " (search; exact only for alpha >= 1/2)"),
        ),
        ("projection bound (upper)", fmt(report["projection_bound"])),
    ]
    rows.append(("method", _method_text(report)))
    if "lower_bound" in report:
        rows.append(
            (
                "certified bracket lower <= OPT <= upper",
                f"{fmt(report['lower_bound'])} <= OPT <= {fmt(report['upper_bound'])}",
            )
        )
    if "epsilon2" in report:
        rows.append(
            (
                "IR split epsilon2, delta2, d",
                f"{fmt(report['epsilon2'])}, {fmt(report['delta2'])}, {fmt(report['d'])}",
            )
        )
    width = max(len(name) for name, _ in rows)
    lines.extend(f"  {name.ljust(width)}  {value}" for name, value in rows)
    return "\n".join(lines)


def _cmd_design_rldp(args: argparse.Namespace) -> int:
    from mechdesign.notions.datasets import adult_csv, categorical_pair
    from mechdesign.reports import rldp_report

    missing = [f"--{name}" for name in ("sensitive", "other") if not getattr(args, name)]
    if missing:
        raise InvalidInputError(f"--notion rldp needs {', '.join(missing)}.")
    if args.c is not None:
        raise InvalidInputError("--c applies to --notion pml only.")
    if args.n is not None or args.prior != "uniform":
        raise InvalidInputError(
            "--n and --prior do not apply to --notion rldp: the data fix P̂ and N."
        )
    pair = categorical_pair(adult_csv() if args.data is None else args.data,
                            args.sensitive, args.other)
    options = _design_options(args)
    if args.max_vertices is None:
        options["max_vertices"] = RLDP_MAX_VERTICES
    try:
        report = rldp_report(
            pair,
            args.epsilon,
            beta=0.05 if args.beta is None else args.beta,
            mechanism=args.mechanism or "polyopt",
            **options,
        )
    except TooLargeError as exc:
        raise TooLargeError(
            f"{exc} On the command line: --max-vertices N, or --method column_generation."
        ) from exc
    if args.json:
        print(json.dumps(jsonable(report), indent=2))
    else:
        print(_format_rldp(report))
    return 0 if report["audit_passed"] else 1


def add_design(sub: argparse._SubParsersAction) -> None:
    """Add ``mechdesign design`` to the subcommands ``sub`` of the parser.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The parser's subcommands (``parser.add_subparsers()``).
    """
    des = sub.add_parser("design", help="design the optimal mechanism under a notion")
    des.add_argument(
        "--notion",
        choices=["ldp", "pml", "rldp"],
        help="ldp: ε-LDP; pml: (ε,c)-PML with --c, else ε-PML for the known prior --prior; "
        "rldp: robust LDP of a sensitive column, from data (--sensitive, --other, --data). "
        "Required unless --central is given",
    )
    des.add_argument("--epsilon", type=float, help="ε in nats (default 1)")
    des.add_argument(
        "--central", type=float, metavar="EPS",
        help="design for the central guarantee (EPS, --delta) of --users reports behind a "
        "shuffler instead of a local notion: the best kernel whose clone reduction meets "
        "it, with the local epsilon0 it chose (no --notion)",
    )
    des.add_argument("--delta", type=float, help="--central: the central δ (0 < δ < 1)")
    des.add_argument("--users", type=int, help="--central: the users n whose reports are "
                     "shuffled")
    des.add_argument("--c", type=float, help="(ε,c)-PML with this c (0 < c <= 1/N)")
    des.add_argument(
        "--prior", default="uniform", help=PRIOR_HELP
    )
    des.add_argument(
        "--n", type=int,
        help="inputs N of a uniform or zipf prior (default 4; not with --prior FILE)"
    )
    des.add_argument(
        "--utility",
        choices=["mi", "bayes", "mse"],
        default="mi",
        help="mi: mutual information (default); bayes: Bayes vulnerability, the probability "
        "that the MAP guess of X from Y is right; mse: the least expected squared error of "
        "the workload's answers with the best linear unbiased estimator (per report, "
        "against the users' histogram; certified bracket)",
    )
    des.add_argument(
        "--workload",
        help="--utility mse: histogram (default), prefix, all-range, or a CSV file of the "
        "query matrix (one row per query, N columns)",
    )
    des.add_argument(
        "--method",
        choices=list(METHODS),
        default=METHODS[0],
        help="auto (default): enumeration while the notion's vertex count is small, else "
        "column generation where its pricing is exact; enumeration: every vertex of the "
        "notion, then one LP; column_generation: a restricted master priced by MIPs, with "
        "a certified bracket, for sizes enumeration cannot reach",
    )
    des.add_argument(
        "--backend",
        choices=["auto", "cdd", "exact", "closed_form"],
        default="auto",
        help="vertex enumeration backend: auto (default: closed_form where the vertices are "
        "known in closed form, else cdd), cdd (cddlib, floating point, checked), exact "
        "(rational arithmetic, small N), closed_form (ε-LDP and (ε,c)-PML)",
    )
    des.add_argument(
        "--max-vertices",
        type=int,
        help=f"refuse an enumeration above this many vertices (default {MAX_VERTICES:,}; "
        f"rldp {RLDP_MAX_VERTICES:.0e})",
    )
    des.add_argument(
        "--time-limit", type=float, help="seconds; column generation stops with its bracket"
    )
    des.add_argument(
        "--gap",
        type=float,
        help="column generation: stop once upper − lower <= gap · max(1, |lower|) "
        f"(default {COLUMN_GENERATION_GAP:g})",
    )
    des.add_argument("--data", help="rldp: CSV file with a header row (default: the UCI "
                     "Adult data shipped with the package)")
    des.add_argument("--sensitive", help="rldp: the sensitive column S")
    des.add_argument("--other", help="rldp: the non-sensitive column U")
    des.add_argument("--beta", type=float, help="rldp: significance of the χ² ball (0.05)")
    des.add_argument(
        "--mechanism",
        choices=[name.lower() for name in ROBUST_LDP_MECHANISMS],
        help="rldp: which mechanism (default polyopt, the default variant)",
    )
    des.add_argument("--json", action="store_true", help="machine-readable output")
    des.add_argument("--out", type=Path, help="also write the kernel to this JSON file "
                     "(Mechanism.to_json: exact, with the notion and epsilon), which audit, "
                     "envelope, audit-samples, shuffle and aggregate read")
    des.add_argument("--labels", type=Path, help="--out: a file of the input labels, one a "
                     "line, saved with the kernel")
    des.add_argument("--exact", action="store_true", help="--out: write the exact rational "
                     "kernel (RationalMechanism), its LDP level verified in integers")
    des.add_argument("--bits", type=int, default=32,
                     help="--exact: bits of the common denominator (default 32)")
    des.set_defaults(handler=_cmd_design)
