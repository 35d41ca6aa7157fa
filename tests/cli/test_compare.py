"""mechdesign compare (mechdesign.cli.compare)."""

from __future__ import annotations

import json

import numpy as np
import pytest

import mechdesign as md
from mechdesign.cli import main
from tests.cli.installed import run


@pytest.mark.slow
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


def test_cli_compare(capsys, tmp_path):
    assert main(["compare", "--epsilon", "1", "--k", "5", "--prior", "zipf"]) == 0
    out = capsys.readouterr().out
    assert "Hadamard response" in out
    assert "optimal for Bayes vulnerability" in out
    assert main(["compare", "--epsilon", "0.5", "--k", "4", "--json", "--n", "200"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["n"] == 200
    assert len(payload["rows"]) == 8
    grr = next(r for r in payload["rows"] if r["mechanism"] == "GRR")
    assert grr["mse"] == pytest.approx(
        md.estimation_mse(md.randomized_response(4, 0.5), np.full(4, 0.25), 200))
    prior_file = tmp_path / "prior.csv"
    prior_file.write_text("0.5, 0.25, 0.25\n")
    assert main(["compare", "--epsilon", "1", "--k", "3", "--prior", str(prior_file),
                 "--c", "0.1"]) == 0
    assert "PML" in capsys.readouterr().out
    # A user's mistake is one line on stderr, exit 2.
    assert main(["compare", "--epsilon", "1", "--k", "4", "--prior", str(prior_file)]) == 2
    assert main(["compare", "--epsilon", "1", "--k", "1"]) == 2
    assert main(["compare", "--epsilon", "-1", "--k", "3"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.count("mechdesign: error:") == 3
