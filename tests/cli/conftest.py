"""Files the command-line tests read: a kernel, the envelope paper's Example 1 kernel and
the robust-LDP paper's Example 1 data."""

from __future__ import annotations

import pytest


@pytest.fixture
def kernel_csv(tmp_path):
    path = tmp_path / "k2.csv"
    # Dobrushin paper eq. (44), with fractions.
    rows = [
        "1/3,1/3,1/3,0,0",
        "0,1/3,1/3,1/3,0",
        "0,0,1/3,1/3,1/3",
        "1/3,0,0,1/3,1/3",
        "1/3,1/3,0,0,1/3",
    ]
    path.write_text("# Dobrushin paper, Example 2, K2\n" + "\n".join(rows) + "\n")
    return path


@pytest.fixture
def example1_csv(tmp_path):
    path = tmp_path / "example1.csv"
    # Envelope paper, Example 1, eq. (7).
    path.write_text("0,0,1/2,1/2\n0,0,1/2,1/2\n0,1/5,2/5,2/5\n1/5,0,2/5,2/5\n")
    return path


@pytest.fixture
def pair_csv(tmp_path):
    """Example 1's P̂ as 100 records of two columns (7, 10, 26, 57), plus a third column
    and spaces after the commas, as in the Adult file."""
    path = tmp_path / "pairs.csv"
    counts = {("s1", "u1"): 7, ("s1", "u2"): 10, ("s2", "u1"): 26, ("s2", "u2"): 57}
    lines = ["secret, other, noise"]
    for (s, u), count in counts.items():
        lines += [f"{s}, {u}, x"] * count
    path.write_text("\n".join(lines) + "\n\n")
    return path
