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
``mechdesign design --notion rldp --epsilon E --sensitive COL --other COL [--data FILE]``
``[--beta B] [--mechanism grr|srr|ir|polyopt|polyopt-paper|nr] [--max-vertices N]``
``[--json]``
    robust LDP from data (robust-LDP paper): ``P̂`` from two columns of a CSV file (by
    default the UCI Adult data shipped with the package), the
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
``[--shuffle N,DELTA] [--json]``
    the optimal mechanisms for mutual information and Bayes vulnerability under ε-LDP
    (or (ε, c)-PML with ``--c``) beside the deployed LDP frequency oracles (GRR, OUE,
    SUE, subset selection, OLH, Hadamard response) at the same ε: mutual information,
    Bayes vulnerability, estimation MSE from ``--n`` reports, audited levels; with
    ``--shuffle N,DELTA`` at the same central (ε, δ) for N users behind a shuffler, each
    protocol at its own largest local ε₀.
``mechdesign audit-samples PAIRS.csv [--confidence C] [--epsilon E] [--kernel K.csv]``
``[--header|--no-header] [--json]``
    a lower confidence bound on the LDP level of an implementation from its (input,
    output) samples, with the plug-in estimate; exit 1 when it exceeds ``--epsilon``.
    Every line is a sample except a header, which is read when declared or unambiguous,
    and the output says which line it was.
``mechdesign shuffle (KERNEL | --protocol P --k K --epsilon0 E0) --users N --delta D``
``[--rounds R] [--json]``
    the central ε of a kernel file or a deployed protocol for N users' reports behind a
    shuffler, every proved bound listed and the smallest named.
``mechdesign local-epsilon --central E --delta D --users N [--protocol P --k K] [--json]``
    the largest local ε₀ of a protocol (default: any ε₀-LDP randomizer) whose shuffled
    guarantee meets the central target.
``mechdesign aggregate REPORTS.csv --kernel K.json [--estimator E] [--confidence C]``
``[--json]``
    the input histogram a file of reports estimates (one report a line: an output index,
    or a label the kernel's JSON names), with per-input confidence intervals.
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

One module per command group, each adding its subcommands' arguments and handlers to
the parser: :mod:`~mechdesign.cli.audit` (``audit``, ``audit-samples``),
:mod:`~mechdesign.cli.design`, :mod:`~mechdesign.cli.bounds` (``bounds``, ``envelope``),
:mod:`~mechdesign.cli.compare`, :mod:`~mechdesign.cli.deploy` (``shuffle``,
``local-epsilon``, ``aggregate``), :mod:`~mechdesign.cli.demo`,
:mod:`~mechdesign.cli.reproduce` and :mod:`~mechdesign.cli.sweep`;
:mod:`~mechdesign.cli.inputs` reads what the user gives (kernel and prior files,
``--prior``, ``--workload``) and holds the parser's choices and limits, and
:mod:`~mechdesign.cli.printing` the number format and the JSON convention. The reports
themselves are built in the library (:mod:`mechdesign.reports`); this package parses and
prints.

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
import sys
from collections.abc import Sequence

from mechdesign import __version__
from mechdesign.cli.audit import add_audit, add_audit_samples
from mechdesign.cli.bounds import add_bounds, add_envelope
from mechdesign.cli.compare import add_compare
from mechdesign.cli.demo import add_demo
from mechdesign.cli.deploy import add_aggregate, add_local_epsilon, add_shuffle
from mechdesign.cli.design import add_design
from mechdesign.cli.reproduce import add_reproduce
from mechdesign.cli.sweep import add_sweep
from mechdesign.errors import MechDesignError

# The numeric modules (scipy, pandas, cvxpy, matplotlib, dp_accounting behind them) are
# imported inside the command that needs them, so that ``mechdesign --help`` and
# ``--version`` answer at once (tests/test_startup.py checks the import graph).

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    """The ``mechdesign`` argument parser: every subcommand, each with its handler (the
    ``add_*`` function of its module)."""
    parser = argparse.ArgumentParser(
        prog="mechdesign",
        description="Design and audit privacy mechanisms on finite alphabets (values in nats).",
    )
    parser.add_argument("--version", action="version", version=f"mechdesign {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for add in (add_audit, add_design, add_bounds, add_envelope, add_compare,
                add_audit_samples, add_shuffle, add_local_epsilon, add_aggregate, add_demo,
                add_reproduce, add_sweep):
        add(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``mechdesign`` command.

    A user's mistake (a :class:`~mechdesign.errors.MechDesignError` or an unreadable
    file) prints one line ``mechdesign: error: ...`` on stderr, never a traceback.

    Parameters
    ----------
    argv : sequence of str or None
        The arguments after the command name; None reads ``sys.argv``.

    Returns
    -------
    int
        The exit status: 0 on success, 1 when a check the command reports fails (an
        audit, a certificate, a refuted claim), 2 for a usage error, 130 on Ctrl-C.
    """
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

