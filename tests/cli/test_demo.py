"""mechdesign demo (mechdesign.cli.demo)."""

from __future__ import annotations

import json
import math

import pytest

from mechdesign.cli import main
from tests.cli.installed import run


def test_demo_runs_and_every_bound_holds(capsys):
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert "all hold" in out
    assert "dobrushin-example2-K1" in out


def test_demo_json_values(capsys):
    assert main(["demo", "--json"]) == 0
    reports = json.loads(capsys.readouterr().out)
    k1 = reports["paper_examples"]["dobrushin-example2-K1"]
    assert k1["ldp_level"] == pytest.approx(math.log(15), rel=1e-12)
    assert k1["pml_capacity"][0]["pml_capacity"] == pytest.approx(math.log(10 / 3), rel=1e-12)
    assert k1["dobrushin_coefficient"] == pytest.approx(7 / 8, rel=1e-12)


def test_demo_designs_and_audits(capsys):
    assert main(["demo", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    utilities = {name: d["utility"] for name, d in out["designs"].items()}
    # LDP ⊂ (ε, c)-PML ⊂ PML for the known prior (min P = 0.05 ≥ c): utilities ordered.
    assert utilities["ldp"] <= utilities["c_pml"] <= utilities["known_prior_pml"] + 1e-12
    assert all(d["audit_passed"] and d["certificate_holds"] for d in out["designs"].values())


def test_demo_includes_polyopt_audited_over_the_ball(capsys):
    assert main(["demo", "--json"]) == 0
    robust = json.loads(capsys.readouterr().out)["robust_ldp"]
    assert robust["polyopt_paper"]["utility"] == pytest.approx(0.4228, abs=5e-5)
    assert robust["polyopt"]["utility"] == pytest.approx(0.563050, abs=1e-6)
    for entry in robust.values():
        assert entry["audit_passed"]
        assert entry["privacy_level"] <= math.log(2) + 1e-9


def test_demo_output_starts_with_its_own_first_line():
    done = run("demo")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0].startswith("mechdesign demo: optimal mechanisms")
    assert done.stderr == ""
