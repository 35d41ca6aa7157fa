"""``mechdesign compare``: the designed optima beside the deployed LDP protocols."""

from __future__ import annotations

import argparse
import json
import math

from mechdesign._validation import show
from mechdesign.cli.inputs import (
    CLI_MAX_N,
    PRIOR_HELP,
    read_prior,
    read_workload,
)
from mechdesign.cli.printing import jsonable
from mechdesign.errors import InvalidInputError

__all__ = ["add_compare"]


def _cmd_compare(args: argparse.Namespace) -> int:
    from mechdesign.comparison import compare
    from mechdesign.notions import LDP, PML

    if args.k > CLI_MAX_N:
        raise InvalidInputError(f"--k must be at most {CLI_MAX_N} categories; got {args.k}.")
    if args.k < 2:
        raise InvalidInputError(f"--k must be at least 2 categories; got {args.k}.")
    prior = read_prior(args.prior, args.k)
    notion = LDP(args.epsilon) if args.c is None else PML(args.epsilon, c=args.c)
    names = {"mi": "mutual_information", "bayes": "bayes", "mse": "mse"}
    wanted = ([] if args.utilities.strip() == "none" else
              [u.strip() for u in args.utilities.split(",") if u.strip()])
    unknown = [u for u in wanted if u not in names]
    if unknown:
        raise InvalidInputError(
            f"--utilities takes mi, bayes and mse (comma-separated); got {', '.join(unknown)}."
        )
    options = {}
    if args.time_limit is not None:
        if not args.time_limit >= 0:
            raise InvalidInputError(
                f"--time-limit must be non-negative seconds (0 for none); got "
                f"{args.time_limit}.")
        options["time_limit"] = args.time_limit or None
    if args.shuffle is not None:
        options["shuffle"] = _shuffle_option(args.shuffle)
    table = compare(notion, prior, n=args.n, workload=read_workload(args.workload),
                    utilities=[names[u] for u in wanted], **options)
    if args.json:
        records = [{key: (None if isinstance(value, float) and math.isnan(value) else value)
                    for key, value in row.items()} for row in table.to_dict("records")]
        payload = {"notion": show(notion), "epsilon": args.epsilon, "k": args.k,
                   "n": args.n, "prior": prior.tolist(), "rows": records}
        print(json.dumps(jsonable(payload), indent=2))
        return 0
    print(f"compare: {show(notion)}, k = {args.k}, prior {args.prior}, MSE from n = {args.n} "
          "reports")
    shown = table.drop(columns=["note", "kind"]).rename(columns={
        "mutual_information": "MI (nats)", "bayes_vulnerability": "Bayes vuln.",
        "mse": "MSE", "mse_blue": "MSE (BLUE)",
        "ldp_level": "LDP", "privacy_level": "level"})
    print(shown.to_string(index=False, float_format=lambda v: f"{v:.6g}", na_rep="-"))
    notes = [f"  {row.mechanism}: {row.note}" for row in table.itertuples()
             if str(row.note).startswith("skipped") or "certified bracket" in str(row.note)]
    if notes:
        print("\n".join(["", *notes]))
    return 0


def _shuffle_option(text: str) -> tuple[int, float]:
    """``--shuffle N,DELTA`` as compare's ``shuffle=(N, DELTA)``."""
    users, comma, delta = text.partition(",")
    try:
        if not comma:
            raise ValueError
        return int(users), float(delta)
    except ValueError:
        raise InvalidInputError(
            f"--shuffle takes USERS,DELTA such as 100000,1e-6; got {text!r}.") from None


def add_compare(sub: argparse._SubParsersAction) -> None:
    """Add ``mechdesign compare`` to the subcommands ``sub`` of the parser.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The parser's subcommands (``parser.add_subparsers()``).
    """
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
                      "estimation optimum for --workload, with its certified bracket), or "
                      "none for the protocols alone; default mi,bayes")
    cmp_.add_argument("--time-limit", type=float,
                      help="seconds for each designed row, which then returns the best "
                      "certified so far (0: no limit); default compare's own "
                      "(mechdesign.comparison.COMPARE_TIME_LIMIT)")
    cmp_.add_argument("--shuffle", metavar="USERS,DELTA",
                      help="compare at the same central (epsilon, DELTA) for USERS reports "
                           "behind a shuffler: each protocol at its largest local epsilon0")
    cmp_.add_argument("--json", action="store_true", help="machine-readable output")
    cmp_.set_defaults(handler=_cmd_compare)
