"""mechdesign compare (mechdesign.cli.compare)."""

from __future__ import annotations

import json

from tests.cli.installed import run


def test_compare_with_the_mse_utility_lists_both_estimators(tmp_path):
    # A workload from a file: the prefix queries written out.
    workload = tmp_path / "w.csv"
    workload.write_text("\n".join(",".join("1" if x <= row else "0" for x in range(5))
                                  for row in range(5)))
    done = run("compare", "--epsilon", "1", "--k", "5", "--prior", "zipf",
                "--utilities", "mse", "--workload", str(workload), "--json")
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)["rows"]
    assert rows[0]["kind"] == "designed"
    optimum = rows[0]["mse_blue"]
    for row in rows[1:]:
        if row["mse_blue"] is not None:
            assert row["mse_blue"] <= row["mse"] + 1e-12  # the BLUE is never worse
            assert row["mse_blue"] >= optimum - 1e-12  # nor better than the optimum
    bad = run("compare", "--epsilon", "1", "--k", "5", "--utilities", "mi,variance")
    assert bad.returncode == 2
    assert "--utilities" in bad.stderr
