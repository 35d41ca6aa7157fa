"""Design scaling: vertex counts, enumeration time per backend, LP time, end-to-end time.

For ε-LDP and (ε, c)-PML with N = 4 … 14 inputs, this prints, all measured in one run:

- the number of vertices of the normalised section;
- the enumeration time of the closed-form generator and of cddlib (floating point), and
  their ratio (cdd / closed form) — the baseline is the cdd path, run in the same process;
- the exact backend's time where it is small enough (N ≤ 5);
- the LP (HiGHS) time and the end-to-end ``design`` time with the default backend.

cddlib's time grows fast, so it runs only up to ``--cdd-max-n`` (default 12). The
design engine's targets are checked at the end: LDP at N = 16 in under 10 s
end to end, (ε, c)-PML at N = 12 in under 20 s.

Run: ``python benchmarks/design_scaling.py [--epsilon E] [--cdd-max-n N]``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from tqdm import tqdm

import mechdesign as md


def timed(function, *args, **kwargs):
    start = time.perf_counter()
    value = function(*args, **kwargs)
    return value, time.perf_counter() - start


def measure(kind: str, n: int, epsilon: float, cdd_max_n: int) -> dict[str, object]:
    notion = md.LDP(epsilon) if kind == "LDP" else md.PML(epsilon, c=0.5 / n)
    cone = notion.cone(n)
    prior = np.random.default_rng(n).dirichlet(np.ones(n))
    closed, t_closed = timed(cone.vertices, "closed_form")
    row = {"notion": kind, "N": n, "vertices": len(closed), "closed_form_s": t_closed}
    if n <= cdd_max_n:
        cdd_vertices, t_cdd = timed(cone.vertices, "cdd")
        row["cdd_s"] = t_cdd
        row["cdd_vertices"] = len(cdd_vertices)
        row["cdd_over_closed"] = t_cdd / t_closed
    if n <= 5:
        _, row["exact_s"] = timed(cone.vertices, "exact")
    result, t_total = timed(md.design, notion, prior)
    row["lp_s"] = result.timings.linear_program
    row["design_s"] = t_total
    row["utility"] = result.utility
    assert result.audit_passed
    assert result.certificate.holds
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epsilon", type=float, default=1.0)
    parser.add_argument("--cdd-max-n", type=int, default=12)
    parser.add_argument("--max-n", type=int, default=14)
    args = parser.parse_args()

    jobs = [(kind, n) for kind in ("LDP", "(eps,c)-PML") for n in range(4, args.max_n + 1)]
    rows = [measure(kind, n, args.epsilon, args.cdd_max_n) for kind, n in tqdm(jobs)]

    def fmt(value, spec):
        return "-" if value is None else format(value, spec)

    header = (f"{'notion':12s} {'N':>3s} {'vertices':>9s} {'closed s':>9s} {'cdd s':>9s} "
              f"{'cdd/closed':>10s} {'exact s':>8s} {'LP s':>8s} {'design s':>9s}")
    print(f"\nε = {args.epsilon}, c = 0.5/N for (ε,c)-PML, random Dirichlet(1) prior\n")
    print(header)
    print("-" * len(header))
    for r in rows:
        print(f"{r['notion']:12s} {r['N']:3d} {r['vertices']:9d} {r['closed_form_s']:9.4f} "
              f"{fmt(r.get('cdd_s'), '9.4f')} {fmt(r.get('cdd_over_closed'), '10.1f')} "
              f"{fmt(r.get('exact_s'), '8.3f')} {r['lp_s']:8.4f} {r['design_s']:9.4f}")
        if "cdd_vertices" in r and r["cdd_vertices"] != r["vertices"]:
            print(f"   cdd found {r['cdd_vertices']} vertices, the closed form {r['vertices']}")

    print("\ntargets:")
    for notion, n, budget in ((md.LDP(args.epsilon), 16, 10.0),
                              (md.PML(args.epsilon, c=0.5 / 12), 12, 20.0)):
        prior = np.random.default_rng(n).dirichlet(np.ones(n))
        result, seconds = timed(md.design, notion, prior)
        verdict = "met" if seconds < budget else "MISSED"
        print(f"  {notion!r} at N = {n}: {seconds:.2f} s end to end "
              f"({result.n_vertices} vertices; target < {budget:g} s: {verdict})")


if __name__ == "__main__":
    main()
