"""The robust-LDP paper's experiments (Sec. 8), with the scaling study.

The experiments live in :mod:`mechdesign.reproduce.robust_ldp` (``mechdesign reproduce
--paper robust-ldp`` runs them with the paper's checks); this script runs chosen parts
with its own options and prints tables. Parts:

``adult``      Fig. 2 on Adult pairs (the data shipped with the package, or ``--data``).
``synthetic``  Figs. 3–5 on synthetic P* (Jeffreys prior, n = 32,561).
``beta``       Table 2: NMI at ε = 1.5 for several β.
``scaling``    Where vertex enumeration gives up: PolyOpt at ε = 1 on Adult pairs of
               growing |X|, each in a subprocess with a time limit.

Run: ``python benchmarks/rldp_experiments.py [adult|synthetic|beta|scaling|all]
[--out DIR] [--reps R] [--workers W] [--seed S] [--data CSV] [--quick] [--store FILE]``.
The synthetic repetitions run through :func:`mechdesign.sweep`.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace
from pathlib import Path

from mechdesign.reproduce.robust_ldp import MECHANISMS, QUICK, Config, run


def print_tables(results: dict[str, list[dict]], epsilons=(0.5, 1.0, 2.0)) -> None:
    if results.get("adult_nmi"):
        print("\nNMI on Adult pairs (Fig. 2)")
        for pair in sorted({r["pair"] for r in results["adult_nmi"]}):
            print(f"  {pair}")
            for name in MECHANISMS:
                vals = {r["epsilon"]: r["nmi"] for r in results["adult_nmi"]
                        if r["pair"] == pair and r["mechanism"] == name}
                if vals:
                    cells = "  ".join(f"ε={e:g}: {vals[e]:.4f}" for e in epsilons if e in vals)
                    print(f"    {name:14s} {cells}")
    for key in ("fig4_realised_epsilon", "table2_beta", "polyopt_scaling"):
        if results.get(key):
            print(f"\n{key}")
            for r in results[key]:
                print("  " + ", ".join(
                    f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}" for k, v in r.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("parts", nargs="*", default="all",
                        choices=["adult", "synthetic", "beta", "scaling", "all"])
    parser.add_argument("--out", type=Path, default=Path("rldp_results"))
    parser.add_argument("--reps", type=int, help="synthetic repetitions (default 100)")
    parser.add_argument("--workers", type=int, help="processes for the synthetic part (2)")
    parser.add_argument("--seed", type=int)
    parser.add_argument("--data", type=Path, help="the Adult CSV")
    parser.add_argument("--quick", action="store_true", help="tiny settings (seconds)")
    parser.add_argument("--store", type=Path,
                        help="sweep store (SQLite) of the synthetic repetitions: a rerun "
                             "computes only the missing ones")
    args = parser.parse_args()
    config = QUICK if args.quick else Config()
    for name in ("reps", "workers", "seed", "data", "store"):
        if getattr(args, name) is not None:
            config = replace(config, **{name: getattr(args, name)})
    parts = {"adult", "synthetic", "beta", "scaling"} if "all" in args.parts else set(args.parts)
    start = time.perf_counter()
    results = run(config, parts, args.out)
    print_tables(results)
    print(f"\nwrote {args.out}/ in {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
