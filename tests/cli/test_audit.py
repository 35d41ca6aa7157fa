"""mechdesign audit and audit-samples (mechdesign.cli.audit)."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from mechdesign.cli import main
from tests.cli.installed import run
from tests.helpers import opendp_480


def test_audit_json(kernel_csv, capsys):
    assert main(["audit", str(kernel_csv), "--c", "0.1", "--c", "0.2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["n_inputs"] == 5
    assert report["ldp_level"] == "inf"
    assert report["renyi_ldp_level"] == {"alpha": 2.0, "value": "inf"}
    first = report["pml_capacity"][0]
    assert first["c"] == 0.1  # exact: the input, echoed
    assert first["pml_capacity"] == pytest.approx(math.log(10 / 3), rel=1e-12)
    assert first["dobrushin_within_bound"] is True
    assert report["pml_capacity"][1]["pml_capacity"] == pytest.approx(math.log(5 / 3), rel=1e-12)
    assert report["pointwise_leakage"] == pytest.approx([math.log(5 / 3)] * 5, rel=1e-12)
    assert set(report) == {
        "kernel",
        "n_inputs",
        "n_outputs",
        "prior",
        "ldp_level",
        "maximal_leakage",
        "dobrushin_coefficient",
        "renyi_ldp_level",
        "mutual_information",
        "channel_capacity",
        "sibson_mutual_information",
        "maximal_alpha_leakage",
        "attack_risk",
        "post_processing_of_randomized_response",
        "pml_level",
        "pointwise_leakage",
        "pml_capacity",
    }
    capacity = report["channel_capacity"]
    assert capacity["lower"] <= capacity["upper"] <= capacity["lower"] + 1e-9
    assert report["mutual_information"] <= capacity["upper"]
    assert sum(capacity["prior"]) == pytest.approx(1.0)
    # I ≤ C ≤ maximal 2-leakage ≤ maximal leakage
    assert capacity["value"] <= report["maximal_alpha_leakage"]["value"] + 1e-8
    assert report["maximal_alpha_leakage"]["value"] <= report["maximal_leakage"] + 1e-9
    # The attack: the advantage is the largest total variation between two rows, 2/3 for
    # rows 0 and 2 (one common output). Testing row 0 against row 2, the two outputs
    # only row 2 gives are rejected at no false positives (power 2/3), then the common
    # one at likelihood ratio 1: power 2/3 + 0.01 at a false-positive rate of 0.01.
    attack = report["attack_risk"]
    rows = np.array([[float(Fraction(v)) for v in line.split(",")]
                     for line in Path(kernel_csv).read_text().splitlines()[1:]])
    tv = max(0.5 * np.abs(rows[i] - rows[j]).sum() for i in range(len(rows))
             for j in range(len(rows)))
    assert tv == pytest.approx(2 / 3, abs=1e-12)
    assert attack["advantage"] == pytest.approx(tv, abs=1e-12)
    assert attack["true_positive_rate"] == pytest.approx(2 / 3 + 0.01, abs=1e-12)
    assert attack["bayes_risk_even_prior"] == pytest.approx((1 - tv) / 2, abs=1e-12)
    assert report["post_processing_of_randomized_response"] is None    # LDP level ∞


def test_audit_table_with_prior_file(kernel_csv, tmp_path, capsys):
    prior = tmp_path / "prior.csv"
    prior.write_text("0.2\n0.2\n0.2\n0.2\n0.2\n")
    assert main(["audit", str(kernel_csv), "--prior", str(prior), "--c", "0.1"]) == 0
    out = capsys.readouterr().out
    assert "LDP level" in out
    assert "+inf" in out
    assert "holds" in out


@pytest.mark.parametrize(
    ("content", "args", "fragment"),
    [
        ("0.5,0.6\n0.5,0.5\n", [], "row-stochastic"),
        ("0.5,abc\n", [], "not a number"),
        ("1,0\n0,1\n", ["--c", "0.9"], "c must satisfy"),
        ("1,0\n0,1\n", ["--prior", "PRIOR"], "prior must sum to 1"),
    ],
)
def test_audit_errors_exit_2_with_message(tmp_path, capsys, content, args, fragment):
    path = tmp_path / "k.csv"
    path.write_text(content)
    (tmp_path / "prior.csv").write_text("0.5,0.6\n")
    args = [str(tmp_path / "prior.csv") if a == "PRIOR" else a for a in args]
    assert main(["audit", str(path), *args]) == 2
    assert fragment in capsys.readouterr().err


def _pairs_file(tmp_path: Path, text: str) -> str:
    path = tmp_path / "pairs.csv"
    path.write_text(text)
    return str(path)


@pytest.mark.slow
def test_audit_samples_keeps_a_text_first_row_whose_labels_recur(tmp_path):
    """Item 3: ``a,x / b,y / a,y / b,x`` is four samples (line 1 is data: its labels recur
    below), and both columns are strings in the JSON."""
    path = _pairs_file(tmp_path, "a,x\nb,y\na,y\nb,x\n")
    done = run("audit-samples", path, "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["n_pairs"] == 4
    assert report["header"] is None
    assert sorted(report["inputs"]) == ["a", "b"]
    assert sorted(report["outputs"]) == ["x", "y"]
    text = run("audit-samples", path, "--epsilon", "1")
    assert text.returncode == 0, text.stderr
    assert text.stdout.startswith("audit of 4 samples: 2 inputs, 2 outputs")
    assert "no header: every line is a sample" in text.stdout


@pytest.mark.slow
def test_audit_samples_header_detected_declared_or_refused_and_named(tmp_path):
    """Item 3: a header is read when unambiguous or declared, and the output names its
    line (blank lines count: the header here is line 2); ``--no-header`` keeps it."""
    path = _pairs_file(tmp_path, "\ninput,output\n0,1\n1,0\n0,0\n1,1\n")
    detected = json.loads(run("audit-samples", path, "--json").stdout)
    assert detected["n_pairs"] == 4
    assert detected["header"] == {"line": 2, "cells": ["input", "output"], "how": "detected"}
    assert all(type(v) is int for v in detected["inputs"] + detected["outputs"])
    text = run("audit-samples", path).stdout
    assert "line 2 (input, output) read as the header (detected" in text
    kept = json.loads(run("audit-samples", path, "--json", "--no-header").stdout)
    assert kept["n_pairs"] == 5
    assert kept["header"] is None
    # With the header kept as a sample, each column has text: every label is a string.
    assert all(type(v) is str for v in kept["inputs"] + kept["outputs"])
    declared = json.loads(
        run("audit-samples", _pairs_file(tmp_path, "a,x\nb,y\na,y\nb,x\n"), "--json",
             "--header").stdout)
    assert declared["n_pairs"] == 3
    assert declared["header"] == {"line": 1, "cells": ["a", "x"], "how": "declared"}
    both = run("audit-samples", path, "--header", "--no-header")
    assert both.returncode == 2
    assert "Traceback" not in both.stderr


def test_audit_samples_json_types_each_column_consistently(tmp_path):
    """Item 3: integer inputs stay integers and text outputs stay strings, in the lists
    and in the witness alike; 40 samples where input 0 always gives x and input 1 always
    y show an unbounded ratio, so the lower bound is positive and a witness exists."""
    path = _pairs_file(tmp_path, "0,x\n1,y\n" * 20)
    done = run("audit-samples", path, "--json", "--epsilon", "0.5")
    assert done.returncode == 1, done.stderr  # the samples exceed the claim
    report = json.loads(done.stdout)
    assert report["n_pairs"] == 40
    assert sorted(report["inputs"]) == [0, 1]
    assert sorted(report["outputs"]) == ["x", "y"]
    x, x_other, y = report["witness"]
    assert {x, x_other} == {0, 1}
    assert type(x) is int
    assert type(x_other) is int
    assert y in ("x", "y")
    assert report["lower_bound"] > 0.5


def test_audit_samples_text_is_grammatical(tmp_path):
    path = _pairs_file(tmp_path, "0,x\n1,x\n")
    done = run("audit-samples", path, "--epsilon", "1")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("audit of 2 samples: 2 inputs, 1 output\n")
    assert "the samples does" not in done.stdout
    assert "does not exceed the claimed epsilon = 1" in done.stdout


def test_cli_audit_samples(tmp_path, capsys):
    rng = np.random.default_rng(8)
    buggy, _ = opendp_480(2, 1.0)
    rows = ["input,output"]
    for x in (0, 1):
        rows += [f"{x},{y}" for y in buggy(x, 20_000, rng)]
    path = tmp_path / "pairs.csv"
    path.write_text("\n".join(rows) + "\n")
    assert main(["audit-samples", str(path), "--epsilon", "1"]) == 1  # level exceeded
    out = capsys.readouterr().out
    assert "lower confidence bound" in out
    assert main(["audit-samples", str(path), "--epsilon", "3", "--json"]) == 0
    import json

    report = json.loads(capsys.readouterr().out)
    assert report["lower_bound"] > 1.0
    assert report["exceeds_epsilon"] is False
    bad = tmp_path / "bad.csv"
    bad.write_text("0,1,2\n")
    assert main(["audit-samples", str(bad)]) == 2
    assert "Traceback" not in capsys.readouterr().err
