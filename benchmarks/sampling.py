"""Sampling throughput: ``Mechanism.sample`` and the exact ``RationalMechanism.sample``
against the previous ``Mechanism.sample`` (``Generator.choice`` input by input), run in
the same process on the same inputs.

For N = M = 16, 10³ and 10⁴ (a dense random kernel, 10⁶ draws over uniformly random
inputs) it prints the seconds of each sampler and the ratios against the baseline:

- ``baseline``: the previous implementation, one ``Generator.choice(M, p=K[x])`` per
  distinct input (each call validates ``p`` and builds its cumulative sum);
- ``Mechanism.sample``, first call (it builds and keeps the kernel's cumulative table) and
  a second call (the table reused): one uniform per draw and a binary search in the row;
  its draws are checked to be identical to the baseline's;
- ``RationalMechanism.sample`` (32-bit exact kernel of the same kernel, level certified at
  the kernel's own level × 1.001): uniform integers and a search in the integer
  cumulative table.

Run: ``python benchmarks/sampling.py [--table PATH|-]``; the table goes to
``docs/benchmarks/sampling.md``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd
import report

import mechdesign as md

DRAWS = 10**6
SIZES = (16, 1_000, 10_000)


def baseline(matrix: np.ndarray, inputs: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The previous ``Mechanism.sample``."""
    out = np.empty(inputs.size, dtype=np.int64)
    for value in np.unique(inputs):
        where = np.flatnonzero(inputs == value)
        out[where] = rng.choice(matrix.shape[1], size=where.size, p=matrix[value])
    return out


def timed(task):
    start = time.perf_counter()
    value = task()
    return value, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--table", type=Path, default=report.DOCS / "sampling.md",
                        help="where the markdown table goes ('-': nowhere)")
    args = parser.parse_args()
    rng = np.random.default_rng(2026)
    rows = []
    for size in SIZES:
        kernel = md.Mechanism(rng.dirichlet(np.ones(size), size))
        inputs = rng.integers(0, size, DRAWS)
        reference, t_base = timed(lambda k=kernel, x=inputs: baseline(
            k.matrix, x, np.random.default_rng(1)))
        first, t_first = timed(lambda k=kernel, x=inputs: k.sample(x, 1))
        _, t_second = timed(lambda k=kernel, x=inputs: k.sample(x, 1))
        assert np.array_equal(first, reference), "draws differ from Generator.choice's"
        rational = md.rational_mechanism(kernel, md.ldp_level(kernel) * 1.001)
        _, t_rational = timed(lambda r=rational, x=inputs: r.sample(x, 1))
        rows.append({"N = M": size, "baseline s": t_base, "sample s (1st)": t_first,
                     "ratio (1st)": t_base / t_first, "sample s (2nd)": t_second,
                     "ratio (2nd)": t_base / t_second, "rational s": t_rational,
                     "ratio (rational)": t_base / t_rational})
    pd.set_option("display.float_format", lambda v: f"{v:.4g}")
    sections = report.Sections()
    sections.part(f"Seconds for {DRAWS:,} draws", pd.DataFrame(rows),
                  "Ratio: the baseline's seconds over the sampler's (above 1: faster). "
                  "Mechanism.sample's draws equal the baseline's (checked).")
    sections.write(args.table, report.title(__doc__),
                   "the previous Mechanism.sample")


if __name__ == "__main__":
    main()
