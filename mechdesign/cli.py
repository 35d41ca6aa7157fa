"""The ``mechdesign`` command-line front end.

``mechdesign audit KERNEL.csv [--prior uniform|zipf|FILE] [--c C ...] [--alpha A] [--json]``
    every measure of the foundation for a kernel.
``mechdesign design --notion ldp|pml --epsilon E [--c C] [--prior uniform|zipf|FILE] [--n N]``
``[--utility mi|bayes] [--backend auto|cdd|exact|closed_form] [--json]``
    the optimal mechanism for mutual information (or Bayes vulnerability) under a notion,
    with its audit and LP certificate. ``--notion pml`` with ``--c`` is (ε, c)-PML;
    without it, PML for the known prior ``--prior``. The output names the method that ran
    (enumeration: the vertex count; column generation: columns, iterations, status and
    the certified bracket); ``--json`` has it as ``method``.
``mechdesign design --notion rldp --epsilon E --data FILE --sensitive COL --other COL``
``[--beta B] [--mechanism grr|srr|ir|polyopt|polyopt-paper|nr] [--max-vertices N]``
``[--json]``
    robust LDP from data (robust-LDP paper): ``P̂`` from two columns of a CSV file, the
    χ² confidence ball at significance β (default 0.05), then PolyOpt (default variant,
    or the paper's), IR or SRR, with its utility next to GRR's and SRR's and its exact
    robust audit over the ball.
``mechdesign bounds --epsilon E --c C --n N [--tv T] [--json]``
    the contraction results for (ε, c)-PML on N inputs: Ξ(ε, c) of Theorem 1 next to the
    LP value of Lemma 3 and its extremal kernel, Theorem 2's threshold, Lemma 1's zero
    count, Proposition 2's Γ bounds and the SDPI constants of Corollaries 1–2 (per unit
    of TV, and at ``--tv`` if given), with the LDP comparators of eqs. (12)–(14).
``mechdesign envelope KERNEL.csv --delta D [D ...] [--prior uniform|zipf|FILE] [--json]``
    the PML envelope paper's quantities at each δ: the leakage distribution, the
    quantiles ε̲_Y(δ) and ε̄_Y(δ), the binary envelope (Algorithm 1), the lower bound (14),
    the exact envelope ε_c(δ) with the post-processing that attains it, Theorem 3's
    upper bound (both terms), and the kernel's (ε, δ)-DP ε for comparison.
``mechdesign compare --epsilon E --k K [--prior uniform|zipf|FILE] [--c C] [--n N]``
``[--json]``
    the optimal mechanisms for mutual information and Bayes vulnerability under ε-LDP
    (or (ε, c)-PML with ``--c``) beside the deployed LDP frequency oracles (GRR, OUE,
    SUE, subset selection, OLH, Hadamard response) at the same ε: mutual information,
    Bayes vulnerability, estimation MSE from ``--n`` reports, audited levels.
``mechdesign audit-samples PAIRS.csv [--confidence C] [--epsilon E] [--kernel K.csv]``
``[--header|--no-header] [--json]``
    a lower confidence bound on the LDP level of an implementation from its (input,
    output) samples, with the plug-in estimate; exit 1 when it exceeds ``--epsilon``.
    Every line is a sample except a header, which is read when declared or unambiguous,
    and the output says which line it was.
``mechdesign sweep --epsilon 0.1:5:50 --n 4,8,16 [--task design|measure|envelope]``
``[--notion ldp|pml|pml-prior] [--prior uniform|zipf|dirichlet:R] [--mechanism M,...]``
``--out DIR [--scheduler ADDRESS] [--workers W]``
    a built-in task over the grid (:func:`mechdesign.sweep`): ``DIR/sweep.csv`` (one row
    per point), ``DIR/sweep.png`` (the utility against ε, one line per other axis value,
    median and interquartile band over the repetitions) and the store
    ``DIR/sweep.sqlite``, so that an interrupted sweep rerun computes only what is
    missing. ``--scheduler`` runs it on a Dask cluster.
``mechdesign demo [--json]``
    the main job on built-in defaults: optimal LDP, (ε, c)-PML and known-prior PML
    mechanisms for one prior, each re-audited and certified; PolyOpt (both variants) for
    the robust-LDP paper's Example 3, audited exactly over its Rényi ball; then the
    audit of the papers' example kernels against the closed-form Dobrushin bound.

Kernel files are CSV, one row per input, entries as decimals or fractions (``1/3``).
A prior file is one row or one column of the same format. ``--prior`` is read by one
function for every subcommand: ``uniform``, ``zipf`` (exponent 1.1), ``dirichlet:R``
(``sweep`` only: R random Dirichlet(1) priors) or else a file name (``./zipf`` is the
file called zipf). ``--json`` output is stable:
keys are fixed, values are numbers in nats, and ``+∞`` / ``−∞`` are the strings
``"inf"`` / ``"-inf"`` (JSON has no infinity).
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import sys
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from mechdesign import __version__
from mechdesign._tolerances import (
    CERTIFICATE_ATOL,
    COLUMN_GENERATION_GAP,
)
from mechdesign._validation import (
    as_distribution,
    show,
)
from mechdesign.errors import (
    InvalidInputError,
    MechDesignError,
    TooLargeError,
    UnsupportedError,
)

if TYPE_CHECKING:
    from mechdesign.optimal import Design

# The numeric modules (scipy, pandas, cvxpy, matplotlib, dp_accounting behind them) are
# imported inside the command that needs them, so that ``mechdesign --help`` and
# ``--version`` answer at once (tests/test_startup.py checks the import graph).

__all__ = ["CLI_MAX_N", "build_parser", "main"]

#: The parser's choices and limits, written out here because the modules that define
#: them import the numeric stack, which ``--help`` must not wait for. Each equals its
#: source (tests/test_startup.py): ``mechdesign.optimal.METHODS``,
#: ``mechdesign.notions.cones.MAX_VERTICES``, ``mechdesign.reports.RLDP_MAX_VERTICES`` and
#: ``mechdesign.mechanisms.robust.ROBUST_LDP_MECHANISMS``.
METHODS = ("auto", "enumeration", "column_generation")
MAX_VERTICES = 2**20
RLDP_MAX_VERTICES = 10**12
ROBUST_LDP_MECHANISMS = ("GRR", "SRR", "IR", "PolyOpt", "PolyOpt-paper", "NR")
#: ``mechdesign.sweeps.FAMILIES``, the families of ``sweep --task measure|envelope``.
SWEEP_MECHANISMS = ("grr", "oue", "sue", "subset_selection", "olh", "hadamard_response",
                    "pml_extremal")
#: The families a sweep measures when ``--mechanism`` is not given.
SWEEP_DEFAULT_MECHANISMS = ("grr", "oue", "subset_selection", "hadamard_response")

#: The largest ``--n`` the command line accepts for a uniform prior: the designs that
#: column generation certifies in minutes go to N in the hundreds (README, scale).
CLI_MAX_N = 1024


def read_matrix(path: str | Path) -> np.ndarray:
    """Read a CSV of decimals or fractions into a 2-D float array."""
    rows: list[list[float]] = []
    try:
        # utf-8-sig: a byte-order mark (spreadsheets write one) is not part of the data.
        with open(path, newline="", encoding="utf-8-sig") as handle:
            lines = list(enumerate(csv.reader(handle), start=1))
    except UnicodeDecodeError as exc:
        raise InvalidInputError(f"{path}: not a UTF-8 text file ({exc.reason}).") from exc
    for line_no, row in lines:
        cells = [cell.strip() for cell in row]
        if not any(cells) or cells[0].startswith("#"):
            continue
        while cells and not cells[-1]:
            cells.pop()  # a trailing comma ends the row; it adds no column
        if not all(cells):
            column = cells.index("") + 1
            raise InvalidInputError(
                f"{path}: line {line_no}, column {column} is blank; every entry of a row "
                "needs a number (a blank would shift the row)."
            )
        try:
            values = [float(Fraction(cell)) for cell in cells]
        except (ValueError, ZeroDivisionError) as exc:
            raise InvalidInputError(
                f"{path}: line {line_no} has a cell that is not a number or fraction: "
                f"{show(row)}."
            ) from exc
        except OverflowError as exc:
            raise InvalidInputError(
                f"{path}: line {line_no} has a number too large for a double: {show(row)}."
            ) from exc
        rows.append(values)
    if not rows:
        raise InvalidInputError(f"{path}: no numbers found.")
    if len({len(r) for r in rows}) != 1:
        raise InvalidInputError(f"{path}: rows have different lengths {[len(r) for r in rows]}.")
    return np.array(rows, dtype=float)


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _jsonable(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(item) for item in value]
    if isinstance(value, float) and math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return value


def _fmt(value: float | str) -> str:
    if isinstance(value, str):
        return value
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:.6g}"


def _format_report(title: str, report: dict[str, Any]) -> str:
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
    lines.extend(f"  {name.ljust(width)}  {_fmt(value)}" for name, value in rows)
    leak = ", ".join(_fmt(v) for v in report["pointwise_leakage"])
    lines.append(f"  {'pointwise leakage ℓ(X→y), y = 0..M-1'.ljust(width)}  [{leak}]")
    return "\n".join(lines)


#: ``--help`` of every ``--prior`` but sweep's (:func:`_prior_spec` parses them all).
PRIOR_HELP = ("uniform (default), zipf (Zipf with exponent 1.1), or a CSV file of the prior "
              "(one row or one column; ./zipf for a file called zipf)")


def _prior_spec(text: str, *, sweep: bool = False) -> tuple[str, int]:
    """Parse ``--prior`` (one function for every subcommand).

    Returns ``(kind, count)``: ``("uniform", 1)``, ``("zipf", 1)``, ``("dirichlet", R)``
    for ``dirichlet:R`` (``sweep`` only: R random priors, one per repetition; plain
    ``dirichlet`` is R = 1), or ``("file", 0)`` for anything else, a CSV file name. A
    sweep varies N, so it takes named priors only and refuses a file.
    """
    kind, colon, reps = text.partition(":")
    if kind in ("uniform", "zipf") and not colon:
        return kind, 1
    if kind == "dirichlet":
        if not sweep:
            raise InvalidInputError(
                "--prior dirichlet:R draws R random priors: it applies to mechdesign sweep "
                f"only (here: uniform, zipf or a CSV file); got {text!r}."
            )
        count = int(reps) if reps.isdigit() else 0 if colon else 1
        if count < 1:
            raise InvalidInputError(
                f"--prior dirichlet:R needs a positive integer R; got {reps!r}."
            )
        return kind, count
    if sweep:
        raise InvalidInputError(
            "--prior must be uniform, zipf or dirichlet:R (R repetitions) in a sweep, which "
            f"varies N; got {text!r}."
        )
    if kind in ("uniform", "zipf"):
        raise InvalidInputError(f"--prior {kind} takes no ':'; got {text!r}.")
    return "file", 0


def _read_prior(spec: str, n: int | None) -> np.ndarray:
    """The prior that ``--prior`` names, on ``n`` inputs (``None``: a file fixes N)."""
    kind, _ = _prior_spec(spec)
    if kind == "file":
        values = read_matrix(spec).ravel()
        return np.array(as_distribution(values, "prior", len(values) if n is None else n))
    if n is None:
        raise InvalidInputError(f"--prior {kind} needs the number of inputs.")
    if kind == "zipf":
        from mechdesign.comparison import zipf_prior

        return np.array(zipf_prior(n))
    return np.full(n, 1.0 / n)


def _cmd_audit(args: argparse.Namespace) -> int:
    from mechdesign.reports import measure_report

    kernel = read_kernel(args.kernel)
    prior = _read_prior(args.prior, kernel.n_inputs)
    report = measure_report(kernel, prior, c_values=args.c or (), alpha=args.alpha)
    if args.json:
        print(json.dumps(_jsonable({"kernel": str(args.kernel), **report}), indent=2))
    else:
        print(_format_report(str(args.kernel), report))
    return 0


#: The demo's defaults: a skewed prior on six inputs, ε = 1, c = 0.05.
DEMO_PRIOR = (0.3, 0.25, 0.2, 0.12, 0.08, 0.05)
DEMO_EPSILON = 1.0
DEMO_C = 0.05


def _design_evidence_holds(result: Design) -> bool:
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


def _format_design(title: str, result: Design) -> str:
    info = result.summary()
    k = result.mechanism.matrix
    lines = [f"{title}: {info['notion']}"]
    lines.append(f"  optimal mechanism K (rows are inputs x), {k.shape[0]} x {k.shape[1]}:")
    lines.extend(_kernel_lines(k, [f"x={i}" for i in range(k.shape[0])]))
    bound = info["dobrushin_bound"]
    rows = [
        (f"utility ({result.utility_name}{_unit(result.utility_name)})", _fmt(info["utility"])),
        (
            "audit: privacy level re-computed",
            f"{_fmt(info['privacy_level'])} <= epsilon = "
            f"{_fmt(info['epsilon'])}: {'passed' if info['audit_passed'] else 'FAILED'}",
        ),
        (
            "LP certificate (primal = dual, dual feasible)",
            f"primal {_fmt(info['primal_objective'])}, dual {_fmt(info['dual_objective'])}, "
            f"max violation {info['max_dual_violation']:.2g}: "
            f"{'holds' if info['certificate_holds'] else 'FAILED'}",
        ),
        (
            "Dobrushin coefficient vs closed-form bound",
            f"{_fmt(info['dobrushin_coefficient'])} <= "
            f"{_fmt(bound) if bound is not None else 'n/a (no closed form)'}",
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
                f"{_fmt(info['lower_bound'])} <= OPT <= {_fmt(info['upper_bound'])} "
                f"({info['optimality']})",
            )
        )
    width = max(len(name) for name, _ in rows)
    lines.extend(f"  {name.ljust(width)}  {value}" for name, value in rows)
    return "\n".join(lines)


def _design_json(result: Design) -> dict[str, Any]:
    return {
        **result.summary(),
        "mechanism": result.mechanism.matrix.tolist(),
        "dual": result.certificate.dual.tolist(),
    }


def _design_options(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of :func:`~mechdesign.optimal.design` that the flags set."""
    return {
        "method": args.method,
        "max_vertices": MAX_VERTICES if args.max_vertices is None else args.max_vertices,
        "time_limit": args.time_limit,
        "gap": COLUMN_GENERATION_GAP if args.gap is None else args.gap,
        "utility": _utility(args),
    }


def _workload(text: str | None) -> Any:
    """``--workload``: a named workload, or a CSV file of the (L, N) query matrix."""
    if text is None or text in ("histogram", "prefix", "all-range"):
        return text
    return read_matrix(text)


def _utility(args: argparse.Namespace) -> Any:
    """``--utility mi|bayes|mse`` (with ``--workload`` for mse) as ``design``'s utility."""
    name = getattr(args, "utility", "mi")
    workload = getattr(args, "workload", None)
    if workload is not None and name != "mse":
        raise InvalidInputError("--workload applies to --utility mse only.")
    if name == "mse":
        from mechdesign.optimal import EstimationError

        return EstimationError(_workload(workload))
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
    if args.notion == "rldp":
        return _cmd_design_rldp(args)
    given = [f"--{name.replace('_', '-')}" for name in data_options if getattr(args, name)]
    if given:
        raise InvalidInputError(f"{', '.join(given)} apply to --notion rldp only.")
    if _prior_spec(args.prior)[0] != "file":
        n = 4 if args.n is None else args.n
        if not 2 <= n <= CLI_MAX_N:
            raise InvalidInputError(
                f"--n must be between 2 and {CLI_MAX_N} inputs; got {n} (a design's kernel "
                "is N x N, and column generation is certified at N in the hundreds)."
            )
        prior = _read_prior(args.prior, n)
    else:
        if args.n is not None:
            raise InvalidInputError(
                "--n sets the size of a uniform prior (or a zipf one); with --prior FILE the "
                "file fixes N (drop --n, or use --prior uniform or zipf)."
            )
        prior = _read_prior(args.prior, None)
    if args.notion == "ldp":
        if args.c is not None:
            raise InvalidInputError("--c applies to --notion pml only.")
        notion = LDP(args.epsilon)
    elif args.c is not None:
        notion = PML(args.epsilon, c=args.c)
    else:
        notion = PML(args.epsilon, prior=prior)
    result = _run_design(notion, prior, backend=args.backend, **_design_options(args))
    if args.out is not None:
        _write_kernel(args.out, result.mechanism.to_json(notion=repr(notion),
                                                         epsilon=args.epsilon))
    if args.json:
        print(json.dumps(_jsonable(_design_json(result)), indent=2))
    else:
        print(_format_design("design", result))
    return 0 if _design_evidence_holds(result) else 1


def _write_kernel(path: Path, text: str) -> None:
    """Write ``design --out``'s JSON document (a user's path: errors by name)."""
    try:
        path.write_text(text + "\n", encoding="utf-8")
    except OSError as exc:
        raise InvalidInputError(f"--out {path}: cannot write the kernel ({exc.strerror}).") from exc


def read_kernel(path: str | Path):
    """A kernel file: a mechdesign JSON document (``design --out``, ``Mechanism.to_json``)
    or a CSV of decimals or fractions."""
    from mechdesign.kernel import Mechanism

    try:
        with open(path, encoding="utf-8-sig") as handle:
            head = handle.read(1 << 16).lstrip()
    except (OSError, UnicodeDecodeError):
        head = ""          # read_matrix says what is wrong with the file
    if head.startswith("{"):
        try:
            return Mechanism.from_json(Path(path).read_text(encoding="utf-8-sig"))
        except InvalidInputError as exc:
            raise InvalidInputError(f"{path}: {exc}") from exc
    return Mechanism(read_matrix(path))

def _format_rldp(report: dict[str, Any]) -> str:
    shape = report["shape"]
    lines = [
        f"robust LDP: S = {report['sensitive']} ({shape[0]} values), U = {report['other']} "
        f"({shape[1]} values), n = {report['n_samples']}",
        f"  chi^2 ball: alpha = 2, beta = {report['beta']:g}, radius B = "
        f"{_fmt(report['radius'])}; epsilon = {_fmt(report['epsilon'])}",
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
        ("utility I_P̂(X;Y), nats (NMI)", f"{_fmt(report['utility'])} ({report['nmi']:.4f})"),
        ("GRR / SRR at the same epsilon", f"{_fmt(comp['grr'])} / {_fmt(comp['srr'])}"),
        (
            "exact robust audit over the ball",
            f"{_fmt(report['robust_level'])} <= epsilon = {_fmt(report['epsilon'])}: "
            f"{'passed' if report['audit_passed'] else 'FAILED'}"
            + ("" if report["audit_exact"] else " (search; exact only for alpha >= 1/2)"),
        ),
        ("projection bound (upper)", _fmt(report["projection_bound"])),
    ]
    rows.append(("method", _method_text(report)))
    if "lower_bound" in report:
        rows.append(
            (
                "certified bracket lower <= OPT <= upper",
                f"{_fmt(report['lower_bound'])} <= OPT <= {_fmt(report['upper_bound'])}",
            )
        )
    if "epsilon2" in report:
        rows.append(
            (
                "IR split epsilon2, delta2, d",
                f"{_fmt(report['epsilon2'])}, {_fmt(report['delta2'])}, {_fmt(report['d'])}",
            )
        )
    width = max(len(name) for name, _ in rows)
    lines.extend(f"  {name.ljust(width)}  {value}" for name, value in rows)
    return "\n".join(lines)


def _cmd_design_rldp(args: argparse.Namespace) -> int:
    from mechdesign.notions.datasets import categorical_pair
    from mechdesign.reports import rldp_report

    missing = [f"--{name}" for name in ("data", "sensitive", "other") if not getattr(args, name)]
    if missing:
        raise InvalidInputError(f"--notion rldp needs {', '.join(missing)}.")
    if args.c is not None:
        raise InvalidInputError("--c applies to --notion pml only.")
    if args.n is not None or args.prior != "uniform":
        raise InvalidInputError(
            "--n and --prior do not apply to --notion rldp: the data fix P̂ and N."
        )
    pair = categorical_pair(args.data, args.sensitive, args.other)
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
        print(json.dumps(_jsonable(report), indent=2))
    else:
        print(_format_rldp(report))
    return 0 if report["audit_passed"] else 1


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
    lines = [head] + [f"  {name.ljust(width)}  {_fmt(value)}" for name, value in rows]
    lines.append("  extremal binary kernel [p, 1 − p] (rows are inputs):")
    lines.extend(
        "    " + "  ".join(f"{entry:.6f}" for entry in row) for row in report["extremal_kernel"]
    )
    return "\n".join(lines)


def _cmd_bounds(args: argparse.Namespace) -> int:
    from mechdesign.reports import bounds_report

    report = bounds_report(args.epsilon, args.c, args.n, args.tv)
    if args.json:
        print(json.dumps(_jsonable(report), indent=2))
    else:
        print(_format_bounds(report))
    agree = abs(report["dobrushin_lp"] - report["dobrushin_bound"]) <= CERTIFICATE_ATOL
    return 0 if agree else 1


def _format_envelope(title: str, report: dict[str, Any]) -> str:
    lines = [
        f"{title}  (N = {report['n_inputs']} inputs, M = {report['n_outputs']} outputs)",
        "  leakage ℓ(X→Y): "
        + ", ".join(
            f"{_fmt(v)} w.p. {p:.6g}"
            for v, p in zip(report["leakage_values"], report["leakage_probabilities"], strict=True)
        ),
        f"  PML level {_fmt(report['pml_level'])}, maximal leakage "
        f"{_fmt(report['maximal_leakage'])} (nats)",
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
        lines.extend(f"    {name.ljust(width)}  {_fmt(row[key])}" for name, key in names)
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
    prior = _read_prior(args.prior, kernel.n_inputs)
    report = envelope_report(kernel, prior, args.delta)
    if args.json:
        print(json.dumps(_jsonable({"kernel": str(args.kernel), **report}), indent=2))
    else:
        print(_format_envelope(str(args.kernel), report))
    return 0


#: The demo's robust-LDP problem: the robust-LDP paper's Example 1 data (P̂ from n = 100
#: records, the χ² ball at β = 0.05, |S| = |U| = 2) at Example 3's ε = log 2.
DEMO_RLDP_P_HAT = (0.07, 0.10, 0.26, 0.57)


def _demo_robust_designs() -> dict[str, Design]:
    from mechdesign.notions import RobustLDP
    from mechdesign.notions.uncertainty import RenyiBall, chi2_radius
    from mechdesign.optimal import design

    p_hat = np.array(DEMO_RLDP_P_HAT)
    ball = RenyiBall(p_hat, 2.0, chi2_radius(100, 4, 0.05))
    eps = math.log(2)
    return {
        "polyopt": design(RobustLDP(eps, ball, (2, 2)), p_hat),
        "polyopt_paper": design(RobustLDP(eps, ball, (2, 2), variant="paper"), p_hat),
    }


def _cmd_compare(args: argparse.Namespace) -> int:
    from mechdesign.comparison import compare
    from mechdesign.notions import LDP, PML

    if args.k > CLI_MAX_N:
        raise InvalidInputError(f"--k must be at most {CLI_MAX_N} categories; got {args.k}.")
    if args.k < 2:
        raise InvalidInputError(f"--k must be at least 2 categories; got {args.k}.")
    prior = _read_prior(args.prior, args.k)
    notion = LDP(args.epsilon) if args.c is None else PML(args.epsilon, c=args.c)
    names = {"mi": "mutual_information", "bayes": "bayes", "mse": "mse"}
    wanted = [u.strip() for u in args.utilities.split(",") if u.strip()]
    unknown = [u for u in wanted if u not in names]
    if unknown:
        raise InvalidInputError(
            f"--utilities takes mi, bayes and mse (comma-separated); got {', '.join(unknown)}."
        )
    table = compare(notion, prior, n=args.n, workload=_workload(args.workload),
                    utilities=[names[u] for u in wanted])
    if args.json:
        records = [{key: (None if isinstance(value, float) and math.isnan(value) else value)
                    for key, value in row.items()} for row in table.to_dict("records")]
        payload = {"notion": show(notion), "epsilon": args.epsilon, "k": args.k,
                   "n": args.n, "prior": prior.tolist(), "rows": records}
        print(json.dumps(_jsonable(payload), indent=2))
        return 0
    print(f"compare: {show(notion)}, k = {args.k}, prior {args.prior}, MSE from n = {args.n} "
          "reports")
    shown = table.drop(columns=["note", "kind"]).rename(columns={
        "mutual_information": "MI (nats)", "bayes_vulnerability": "Bayes vuln.",
        "mse": "MSE", "mse_blue": "MSE (BLUE)",
        "ldp_level": "LDP", "privacy_level": "level"})
    print(shown.to_string(index=False, float_format=lambda v: f"{v:.6g}", na_rep="-"))
    notes = [f"  {row.mechanism}: {row.note}" for row in table.itertuples()
             if str(row.note).startswith("skipped")]
    if notes:
        print("\n".join(["", *notes]))
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

    pairs = _read_pairs(args.pairs, args.header)
    inputs, outputs = pairs["inputs"], pairs["outputs"]
    claimed = read_kernel(args.kernel) if args.kernel else None
    audit = audit_pairs(inputs, outputs, confidence=args.confidence, claimed=claimed,
                        claimed_inputs=range(claimed.n_inputs) if claimed else None)
    exceeds = args.epsilon is not None and audit.exceeds(args.epsilon)
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
        }
        print(json.dumps(_jsonable(report), indent=2))
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
            f"{audit.intervals} intervals): {_fmt(audit.lower_bound)}",
            f"  LDP level, plug-in estimate: {_fmt(audit.estimate)}",
        ]
        if audit.witness is not None:
            x, x_other, y = audit.witness
            lines.append(f"  witness: output {y} from inputs {x} vs {x_other}")
        if audit.p_value is not None:
            lines.append(f"  chi^2 test of equality with {args.kernel}: p = "
                         f"{audit.p_value:.3g}")
        if args.epsilon is not None:
            if exceeds:
                lines.append(f"  the lower confidence bound EXCEEDS the claimed epsilon = "
                             f"{_fmt(args.epsilon)}: the samples refute the claim")
            else:
                lines.append(f"  the lower confidence bound does not exceed the claimed "
                             f"epsilon = {_fmt(args.epsilon)}: the samples do not refute it")
        print("\n".join(lines))
    return 1 if exceeds else 0


def _cmd_demo(args: argparse.Namespace) -> int:
    from mechdesign.notions import LDP, PML
    from mechdesign.optimal import design
    from mechdesign.reports import measure_report
    from mechdesign.reproduce.paper_examples import PAPER_EXAMPLES

    prior = np.array(DEMO_PRIOR)
    designs = {
        "ldp": design(LDP(DEMO_EPSILON), prior),
        "c_pml": design(PML(DEMO_EPSILON, c=DEMO_C), prior),
        "known_prior_pml": design(PML(DEMO_EPSILON, prior=prior), prior),
    }
    robust = _demo_robust_designs()
    reports = {}
    for name, example in PAPER_EXAMPLES.items():
        c_values = () if example.c is None else (example.c,)
        reports[name] = {
            "source": example.source,
            **measure_report(example.mechanism, example.prior, c_values=c_values),
        }
    designs_hold = all(_design_evidence_holds(d) for d in (*designs.values(), *robust.values()))
    bounds_hold = all(
        entry["dobrushin_within_bound"] for r in reports.values() for entry in r["pml_capacity"]
    )
    if args.json:
        out = {
            "prior": list(DEMO_PRIOR),
            "designs": {name: _design_json(d) for name, d in designs.items()},
            "robust_ldp": {name: _design_json(d) for name, d in robust.items()},
            "paper_examples": reports,
        }
        print(json.dumps(_jsonable(out), indent=2))
        return 0 if designs_hold and bounds_hold else 1
    print(
        "mechdesign demo: optimal mechanisms for mutual information (all values in nats)\n"
        f"prior P = {list(DEMO_PRIOR)}, epsilon = {DEMO_EPSILON}\n"
    )
    for name, result in designs.items():
        print(_format_design(name, result))
        print()
    utilities = {name: d.utility for name, d in designs.items()}
    print(
        "ordering of the optimal utilities (LDP is the strictest notion): "
        + " <= ".join(
            f"{name} {_fmt(u)}" for name, u in sorted(utilities.items(), key=lambda kv: kv[1])
        )
    )
    print(
        "\nrobust LDP (robust-LDP paper, Examples 1 and 3): P̂ = "
        f"{list(DEMO_RLDP_P_HAT)}, chi^2 ball (n = 100, beta = 0.05), epsilon = log 2;\n"
        "the audit is the exact RLDP level over the ball, not over PolyOpt's polytopes\n"
    )
    for name, result in robust.items():
        print(_format_design(name, result))
        print()
    print("\naudit of the papers' example kernels:\n")
    for name, report in reports.items():
        print(_format_report(f"{name}: {report['source']}", report))
        print()
    print("every design audited and certified:", "yes" if designs_hold else "NO")
    print("Dobrushin check η_TV(K) ≤ Ξ(C(K, Q_X(c)), c):", "all hold" if bounds_hold else "FAILED")
    return 0 if designs_hold and bounds_hold else 1


def _cmd_reproduce(args: argparse.Namespace) -> int:
    from mechdesign.reproduce import PAPERS, Settings, reproduce

    settings = Settings(quick=args.quick, workers=args.workers, reps=args.reps,
                        data=args.data, seed=args.seed)
    papers = args.paper or list(PAPERS)
    print(f"mechdesign reproduce: {', '.join(papers)} into {args.out}/"
          + (" (quick settings)" if args.quick else ""))
    report = reproduce(papers, args.out, settings)
    counts = report.counts()
    for item, result, seconds, error in report.runs:
        state = (f"FAILED ({error})" if error else
                 f"skipped ({result.skipped})" if result.skipped else
                 f"{len(result.files)} files, {len(result.checks)} checks, {seconds:.0f} s")
        print(f"  {item.paper:10s} {item.name:38s} {state}")
    print(f"\n{len(report.checks)} checks: {counts['matches']} match the papers, "
          f"{counts['erratum']} are known errata (correct values in the summary), "
          f"{counts['differs']} differ")
    for check in report.checks:
        if check.status == "differs":
            print(f"  differs: {check.paper} / {check.item}: {check.printed} "
                  f"(computed {check.computed})")
    print(f"summary: {Path(args.out) / 'summary.md'}")
    return 1 if report.errors else 0


#: The built-in sweep tasks of ``mechdesign sweep --task``, with the column the default
#: figure plots.
SWEEP_TASKS = {"design": "utility", "measure": "mutual_information", "envelope": "envelope"}


def _axis(text: str, name: str, kind: type) -> list[Any]:
    """An axis from the command line: ``a:b:k`` (k values from a to b, evenly spaced) or
    a comma-separated list."""
    try:
        if ":" in text and kind is float:
            start, stop, count = text.split(":")
            count = int(count)
            if count < 1:
                raise ValueError
            values = np.linspace(float(start), float(stop), count).tolist()
        else:
            values = [kind(v) for v in text.split(",")]
    except ValueError as exc:
        raise InvalidInputError(
            f"--{name} must be a comma-separated list of {kind.__name__}s or start:stop:count; "
            f"got {text!r}."
        ) from exc
    if any(isinstance(v, float) and not math.isfinite(v) for v in values):
        raise InvalidInputError(f"--{name} values must be finite; got {text!r}.")
    return values


def _sweep_grid(args: argparse.Namespace) -> dict[str, list[Any]]:
    grid: dict[str, list[Any]] = {}
    grid["epsilon"] = _axis(args.epsilon, "epsilon", float)
    grid["n"] = _axis(args.n, "n", int)
    for n in grid["n"]:
        if not 2 <= n <= CLI_MAX_N:
            raise InvalidInputError(f"--n values must be between 2 and {CLI_MAX_N}; got {n}.")
    if args.task == "design":
        if args.mechanism is not None:
            raise InvalidInputError(
                "--mechanism applies to --task measure and --task envelope; --task design "
                "designs the optimum under --notion."
            )
        grid["notion"] = [args.notion]
        if args.c is not None:
            grid["c"] = _axis(args.c, "c", float)
        grid["objective"] = ["bayes" if args.utility == "bayes" else "mutual_information"]
    else:
        from mechdesign.sweeps import family_name

        # Every name is checked (and made canonical, so that spellings share stored
        # points) before any point runs: a misspelt family is a usage error, not a row.
        names = SWEEP_DEFAULT_MECHANISMS if args.mechanism is None else args.mechanism.split(",")
        grid["mechanism"] = list(dict.fromkeys(family_name(name.strip(), "--mechanism")
                                               for name in names))
        if args.task == "envelope":
            if args.delta is None:
                raise InvalidInputError("--delta is required with --task envelope.")
            grid["delta"] = _axis(args.delta, "delta", float)
    kind, count = _prior_spec(args.prior, sweep=True)
    grid["prior"] = [kind]
    grid["rep"] = list(range(count))
    return grid


def _sweep_executor(args: argparse.Namespace) -> Any:
    if args.scheduler:
        try:
            from distributed import Client
        except ImportError as exc:
            raise UnsupportedError(
                "--scheduler needs Dask distributed: pip install \"mechdesign[distributed]\"."
            ) from exc
        try:
            return Client(args.scheduler, timeout=30)
        except (OSError, TimeoutError, ValueError) as exc:
            raise InvalidInputError(
                f"--scheduler: cannot reach the Dask scheduler at {args.scheduler!r} ({exc})."
            ) from exc
    if args.workers is not None and args.workers < 1:
        raise InvalidInputError(f"--workers must be at least 1; got {args.workers}.")
    if args.workers == 1:
        return "serial"
    return "processes" if args.workers is None else args.workers


def _cmd_sweep(args: argparse.Namespace) -> int:
    from mechdesign.reproduce._plot import pyplot, save
    from mechdesign.sweeps import design_task, envelope_task, measure_task, plot_sweep, sweep

    grid = _sweep_grid(args)
    task = {"design": design_task, "measure": measure_task,
            "envelope": envelope_task}[args.task]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    client = _sweep_executor(args)
    executor = client.get_executor() if hasattr(client, "get_executor") else client
    points = math.prod(len(v) for v in grid.values())
    print(f"mechdesign sweep: {args.task} over {points} points into {out}/ "
          f"(store {out / 'sweep.sqlite'}: a rerun computes only the missing points)",
          file=sys.stderr)
    try:
        table = sweep(task, grid, store=out / "sweep.sqlite", executor=executor,
                             progress=not args.quiet, retry_failed=args.retry_failed)
    finally:
        if hasattr(client, "close"):  # a Dask client
            client.close()
    table.to_csv(out / "sweep.csv", index=False)
    y = SWEEP_TASKS[args.task]
    failed = int((table["error"] != "").sum())
    if y in table.columns and failed < len(table):
        plt = pyplot()
        fig, ax = plt.subplots(figsize=(7, 4.5))
        plot_sweep(table, "epsilon", y, ax=ax)
        ax.set_title(f"mechdesign sweep --task {args.task}")
        fig.tight_layout()
        save(fig, out / "sweep.png")
    print(f"{len(table)} rows ({failed} failed) -> {out / 'sweep.csv'}"
          + (f", {out / 'sweep.png'}" if (out / "sweep.png").exists() else ""))
    if failed:
        first = table.loc[table["error"] != "", "error"].iloc[0]
        print(f"first failure: {first}", file=sys.stderr)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mechdesign",
        description="Design and audit privacy mechanisms on finite alphabets (values in nats).",
    )
    parser.add_argument("--version", action="version", version=f"mechdesign {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

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

    des = sub.add_parser("design", help="design the optimal mechanism under a notion")
    des.add_argument(
        "--notion",
        choices=["ldp", "pml", "rldp"],
        required=True,
        help="ldp: ε-LDP; pml: (ε,c)-PML with --c, else ε-PML for the known prior --prior; "
        "rldp: robust LDP of a sensitive column, from data (--data, --sensitive, --other)",
    )
    des.add_argument("--epsilon", type=float, default=1.0, help="ε in nats (default 1)")
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
    des.add_argument("--data", help="rldp: CSV file with a header row")
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
                     "envelope and audit-samples read")
    des.set_defaults(handler=_cmd_design)

    bnd = sub.add_parser("bounds", help="contraction bounds for (ε,c)-PML (Dobrushin paper)")
    bnd.add_argument("--epsilon", type=float, required=True, help="ε in nats")
    bnd.add_argument("--c", type=float, required=True, help="0 < c <= 1/N")
    bnd.add_argument("--n", type=int, required=True, help="number of inputs N")
    bnd.add_argument(
        "--tv", type=float, default=1.0, help="TV(P, Q) for the SDPI bounds (default 1)"
    )
    bnd.add_argument("--json", action="store_true", help="machine-readable output")
    bnd.set_defaults(handler=_cmd_bounds)

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

    cmp_ = sub.add_parser(
        "compare",
        help="the designed optima beside the deployed LDP protocols (GRR, OUE, SUE, subset "
        "selection, OLH, Hadamard response)",
    )
    cmp_.add_argument("--epsilon", type=float, required=True, help="ε in nats")
    cmp_.add_argument("--k", type=int, required=True, help="number of categories")
    cmp_.add_argument("--prior", default="uniform", help=PRIOR_HELP + " of k numbers")
    cmp_.add_argument("--c", type=float, help="design under (ε,c)-PML instead of ε-LDP")
    cmp_.add_argument("--n", type=int, default=1000,
                      help="reports for the estimation MSE (default 1000)")
    cmp_.add_argument("--workload",
                      help="the queries of the MSE columns: histogram (default), prefix, "
                      "all-range, or a CSV file of the query matrix")
    cmp_.add_argument("--utilities", default="mi,bayes",
                      help="the designed rows, comma-separated from mi, bayes and mse (the "
                      "estimation optimum for --workload; by enumeration: seconds up to "
                      "k = 12); default mi,bayes")
    cmp_.add_argument("--json", action="store_true", help="machine-readable output")
    cmp_.set_defaults(handler=_cmd_compare)

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
                     help="the claimed ε: exit 1 if the samples show more")
    aud.add_argument("--kernel", help="CSV of the claimed kernel (inputs and outputs 0..)")
    aud.add_argument("--json", action="store_true", help="machine-readable output")
    aud.set_defaults(handler=_cmd_audit_samples)

    demo = sub.add_parser("demo", help="the main job on built-in defaults")
    demo.add_argument("--json", action="store_true", help="machine-readable output")
    demo.set_defaults(handler=_cmd_demo)

    rep = sub.add_parser(
        "reproduce", help="regenerate the papers' figures, tables and printed numbers"
    )
    rep.add_argument(
        "--paper",
        action="append",
        choices=["dobrushin", "falpha", "envelopes", "robust-ldp"],
        help="only this paper (repeatable; default all four)",
    )
    rep.add_argument("--out", type=Path, default=Path("reproduction"),
                     help="output folder (default ./reproduction)")
    rep.add_argument("--quick", action="store_true",
                     help="coarse grids, 3 repetitions: a smoke test in about a minute")
    rep.add_argument("--reps", type=int,
                     help="robust-LDP synthetic repetitions (default 100, the paper's)")
    rep.add_argument("--workers", type=int, default=2,
                     help="processes for the robust-LDP repetitions (default 2)")
    rep.add_argument("--data", type=Path,
                     help="the UCI Adult CSV (default: ../shared/data/adult.csv or "
                          "data/adult.csv)")
    rep.add_argument("--seed", type=int, default=2024, help="seed of every random draw")
    rep.set_defaults(handler=_cmd_reproduce)

    swp = sub.add_parser(
        "sweep", help="run a built-in task over a grid; resumable, local processes or Dask"
    )
    swp.add_argument("--task", choices=list(SWEEP_TASKS), default="design",
                     help="design an optimum (default), measure a mechanism family, or its "
                          "PML envelope")
    swp.add_argument("--notion", choices=["ldp", "pml", "pml-prior"], default="ldp",
                     help="design: the notion (pml: (ε,c)-PML, c = 1/(2N) unless --c)")
    swp.add_argument("--epsilon", required=True,
                     help="ε values: a,b,c or start:stop:count (e.g. 0.1:5:50)")
    swp.add_argument("--n", required=True, help="input sizes, e.g. 4,8,16")
    swp.add_argument("--c", help="design --notion pml: c values (comma-separated)")
    swp.add_argument("--utility", choices=["mi", "bayes"], default="mi",
                     help="design: mutual information (default) or Bayes vulnerability")
    swp.add_argument("--mechanism",
                     help="measure/envelope: comma-separated families of "
                          f"{', '.join(SWEEP_MECHANISMS)} (any case; compare's names such "
                          "as 'subset selection' or 'Hadamard response' too; default "
                          f"{','.join(SWEEP_DEFAULT_MECHANISMS)})")
    swp.add_argument("--delta", help="envelope: δ values (comma-separated or start:stop:count)")
    swp.add_argument("--prior", default="uniform",
                     help="uniform (default), zipf (exponent 1.1), or dirichlet:R for R "
                          "Dirichlet(1) priors (no file: a sweep varies N)")
    swp.add_argument("--out", type=Path, required=True,
                     help="folder for sweep.csv, sweep.png and the store sweep.sqlite")
    swp.add_argument("--scheduler", help="a Dask scheduler address, e.g. tcp://host:8786")
    swp.add_argument("--workers", type=int,
                     help="local processes (default: every core; 1 runs in this process)")
    swp.add_argument("--retry-failed", action="store_true",
                     help="recompute the points whose stored row is a failure")
    swp.add_argument("--quiet", action="store_true", help="no progress bar")
    swp.set_defaults(handler=_cmd_sweep)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``mechdesign`` command; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return args.handler(args)
    except MechDesignError as exc:
        print(f"mechdesign: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"mechdesign: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("mechdesign: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
