"""``mechdesign demo``: the main job on built-in defaults, each design re-audited and
certified, and the papers' example kernels against the closed-form Dobrushin bound."""

from __future__ import annotations

import argparse
import json
import math
from typing import TYPE_CHECKING

import numpy as np

from mechdesign.cli.audit import format_measure_report
from mechdesign.cli.design import design_evidence_holds, design_json, format_design
from mechdesign.cli.printing import fmt, jsonable

if TYPE_CHECKING:
    from mechdesign.optimal import Design

__all__ = ["DEMO_C", "DEMO_EPSILON", "DEMO_PRIOR", "DEMO_RLDP_P_HAT", "add_demo"]


#: The demo's defaults: a skewed prior on six inputs, ε = 1, c = 0.05.
DEMO_PRIOR = (0.3, 0.25, 0.2, 0.12, 0.08, 0.05)
DEMO_EPSILON = 1.0
DEMO_C = 0.05


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
    designs_hold = all(design_evidence_holds(d) for d in (*designs.values(), *robust.values()))
    bounds_hold = all(
        entry["dobrushin_within_bound"] for r in reports.values() for entry in r["pml_capacity"]
    )
    if args.json:
        out = {
            "prior": list(DEMO_PRIOR),
            "designs": {name: design_json(d) for name, d in designs.items()},
            "robust_ldp": {name: design_json(d) for name, d in robust.items()},
            "paper_examples": reports,
        }
        print(json.dumps(jsonable(out), indent=2))
        return 0 if designs_hold and bounds_hold else 1
    print(
        "mechdesign demo: optimal mechanisms for mutual information (all values in nats)\n"
        f"prior P = {list(DEMO_PRIOR)}, epsilon = {DEMO_EPSILON}\n"
    )
    for name, result in designs.items():
        print(format_design(name, result))
        print()
    utilities = {name: d.utility for name, d in designs.items()}
    print(
        "ordering of the optimal utilities (LDP is the strictest notion): "
        + " <= ".join(
            f"{name} {fmt(u)}" for name, u in sorted(utilities.items(), key=lambda kv: kv[1])
        )
    )
    print(
        "\nrobust LDP (robust-LDP paper, Examples 1 and 3): P̂ = "
        f"{list(DEMO_RLDP_P_HAT)}, chi^2 ball (n = 100, beta = 0.05), epsilon = log 2;\n"
        "the audit is the exact RLDP level over the ball, not over PolyOpt's polytopes\n"
    )
    for name, result in robust.items():
        print(format_design(name, result))
        print()
    print("\naudit of the papers' example kernels:\n")
    for name, report in reports.items():
        print(format_measure_report(f"{name}: {report['source']}", report))
        print()
    print("every design audited and certified:", "yes" if designs_hold else "NO")
    print("Dobrushin check η_TV(K) ≤ Ξ(C(K, Q_X(c)), c):", "all hold" if bounds_hold else "FAILED")
    return 0 if designs_hold and bounds_hold else 1


def add_demo(sub: argparse._SubParsersAction) -> None:
    """Add ``mechdesign demo`` to the subcommands ``sub`` of the parser.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The parser's subcommands (``parser.add_subparsers()``).
    """
    demo = sub.add_parser("demo", help="the main job on built-in defaults")
    demo.add_argument("--json", action="store_true", help="machine-readable output")
    demo.set_defaults(handler=_cmd_demo)
