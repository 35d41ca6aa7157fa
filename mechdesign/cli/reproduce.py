"""``mechdesign reproduce``: the papers' figures, tables and printed numbers
(:mod:`mechdesign.reproduce`)."""

from __future__ import annotations

import argparse
from pathlib import Path

__all__ = ["add_reproduce"]


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


def add_reproduce(sub: argparse._SubParsersAction) -> None:
    """Add ``mechdesign reproduce`` to the subcommands ``sub`` of the parser.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The parser's subcommands (``parser.add_subparsers()``).
    """
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
                     help="the UCI Adult CSV (default: the copy shipped with the package)")
    rep.add_argument("--seed", type=int, default=2024, help="seed of every random draw")
    rep.set_defaults(handler=_cmd_reproduce)
