"""Where ``design(method="auto")`` switches from enumeration to column generation.

For ε-LDP and (ε, c = 1/(2N))-PML on N inputs (Dirichlet(1) priors, ε = 1), this times
``method="enumeration"`` (the baseline) and ``method="column_generation"`` (certified gap
1e-8, the default) in the same process, prints their ratio, checks that the two optima
agree, and shows what ``method="auto"`` picks (``AUTO_MAX_VERTICES``). Enumeration stops
at ``--max-enumeration`` vertices (its memory grows with the count: 3.9 GB at 2^20).

Run: ``python benchmarks/auto_method.py [--epsilon E] [--ldp-n 10 20] [--pml-n 6 12]``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import mechdesign as md
from mechdesign.optimal.sources import AUTO_MAX_VERTICES


def timed(function, *args, **kwargs):
    start = time.perf_counter()
    value = function(*args, **kwargs)
    return value, time.perf_counter() - start


def row(notion, n: int, max_enumeration: int) -> str:
    prior = np.random.default_rng(n).dirichlet(np.ones(n))
    vertices = notion.cone(n).vertex_bound()
    generated, t_cg = timed(md.design, notion, prior, method="column_generation")
    picked = md.design(notion, prior).method if vertices <= 2**18 else "column_generation"
    if vertices <= max_enumeration:
        enumerated, t_en = timed(md.design, notion, prior, method="enumeration")
        agree = abs(enumerated.utility - generated.utility)
        enumeration = f"{t_en:9.3f} {t_cg / t_en:9.2f} {agree:9.1e}"
    else:
        enumeration = f"{'-':>9s} {'-':>9s} {'-':>9s}"
    return (f"{notion!r:24s} {n:3d} {vertices:10,d} {t_cg:9.3f} {enumeration} "
            f"{picked:>18s}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epsilon", type=float, default=1.0)
    parser.add_argument("--ldp-n", type=int, nargs=2, default=(10, 20))
    parser.add_argument("--pml-n", type=int, nargs=2, default=(6, 12))
    parser.add_argument("--max-enumeration", type=int, default=2**20)
    args = parser.parse_args()
    print(f"AUTO_MAX_VERTICES = {AUTO_MAX_VERTICES:,}; ratio = column generation / "
          "enumeration (the baseline), same process\n")
    header = (f"{'notion':24s} {'N':>3s} {'vertices':>10s} {'colgen s':>9s} {'enum s':>9s} "
              f"{'ratio':>9s} {'|ΔI|':>9s} {'auto picks':>18s}")
    print(header)
    print("-" * len(header))
    for n in range(args.ldp_n[0], args.ldp_n[1] + 1):
        print(row(md.LDP(args.epsilon), n, args.max_enumeration), flush=True)
    for n in range(args.pml_n[0], args.pml_n[1] + 1):
        print(row(md.PML(args.epsilon, c=0.5 / n), n, args.max_enumeration), flush=True)


if __name__ == "__main__":
    main()
