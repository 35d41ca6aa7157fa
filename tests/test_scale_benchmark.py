"""benchmarks/scale.py runs end to end on its smallest setting and writes its table."""

from __future__ import annotations

import csv
import subprocess
import sys

import pytest

from tests.helpers import ROOT

SCRIPT = ROOT / "benchmarks" / "scale.py"


@pytest.mark.slow
def test_scale_benchmark_small(tmp_path):
    result = subprocess.run(
        [sys.executable, str(SCRIPT), "--parts", "ldp,pml,warm", "--max-n", "8",
         "--warm-n", "8", "--out", str(tmp_path),
         # no data: the master comparison leaves out its PolyOpt instance (a minute)
         "--data", str(tmp_path / "no-such.csv")],
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert result.returncode == 0, result.stderr
    with open(tmp_path / "scale.csv") as handle:
        rows = list(csv.DictReader(handle))
    methods = {(row["notion"], row["method"]) for row in rows}
    assert ("1-LDP", "enumeration") in methods
    assert ("1-LDP", "column generation") in methods
    masters = [row for row in rows if row["method"].startswith("column generation, ")]
    assert len(masters) == 4  # the defaults, then each option switched off
    assert {row["status"] for row in masters} == {"optimal"}
    lowers = [float(row["lower"]) for row in masters]
    assert max(lowers) - min(lowers) < 1e-5  # the same optimum, to the certified gap
    for row in rows:
        if row["method"] == "column generation":
            # Same optimum as enumeration in the same run, and certified.
            assert row["status"] == "optimal"
            assert abs(float(row["utility_minus_enumeration"])) < 1e-9
