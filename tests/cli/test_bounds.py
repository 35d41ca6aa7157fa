"""mechdesign bounds and envelope (mechdesign.cli.bounds)."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import mechdesign as md
from mechdesign.cli import main


def test_bounds_json_lp_equals_closed_form(capsys):
    assert main(["bounds", "--epsilon", "1.2", "--c", "0.05", "--n", "10", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    e = math.exp(1.2)
    xi = (e - 1) / (e * (1 - 10 * 0.05) + 1)
    assert report["dobrushin_bound"] == pytest.approx(xi, rel=1e-12)
    assert report["dobrushin_lp"] == pytest.approx(xi, abs=1e-9)
    assert report["gamma_max_bound"] == pytest.approx(0.5 * e + 1, rel=1e-12)
    assert report["kl_sdpi"] == pytest.approx(xi * math.log(0.5 * e + 1), rel=1e-12)
    assert report["decomposable_threshold"] == pytest.approx(math.log(4), rel=1e-12)
    kernel = report["extremal_kernel"]
    assert len(kernel) == 10
    assert all(len(row) == 2 for row in kernel)


def test_bounds_table_and_errors(capsys):
    assert main(["bounds", "--epsilon", "0.5", "--c", "0.1", "--n", "4", "--tv", "0.2"]) == 0
    out = capsys.readouterr().out
    assert "Theorem 1" in out
    assert "Corollary 1" in out
    assert "TV = 0.2" in out
    assert main(["bounds", "--epsilon", "0.5", "--c", "0.5", "--n", "4"]) == 2
    assert "c must satisfy" in capsys.readouterr().err


def test_envelope_json_example1(example1_csv, capsys):
    """Examples 1–2 through the CLI: ε̲(0.1) = log 10/9, ε̄(0.1) = ε_c(0.1) = log 4; the
    witness post-processing really attains ε_c(0.2) (checked with the quantile code)."""
    assert main(["envelope", str(example1_csv), "--delta", "0.1", "0.2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["leakage_probabilities"] == pytest.approx([0.9, 0.1], abs=1e-15)
    first, second = report["deltas"]
    assert first["lower_quantile"] == pytest.approx(math.log(10 / 9), abs=1e-15)
    assert first["upper_quantile"] == pytest.approx(math.log(4), abs=1e-15)
    assert first["envelope"] == pytest.approx(math.log(4), abs=1e-12)
    assert second["envelope"] == pytest.approx(math.log(22 / 9), abs=1e-9)
    assert second["lower_bound_eq14"] <= second["envelope"] <= second["upper_bound_theorem3"]
    kernel = md.reproduce.PAPER_EXAMPLES["envelope-example1"].mechanism.matrix
    processed = kernel @ np.array(second["witness_post_processing"])
    quantile = md.bounds.pml_upper_quantile(processed, np.full(4, 0.25), 0.2 - 1e-9)
    assert quantile >= second["envelope"] - 1e-9


def test_envelope_table_and_errors(example1_csv, capsys):
    assert main(["envelope", str(example1_csv), "--delta", "0.05"]) == 0
    out = capsys.readouterr().out
    assert "PML envelope ε_c(δ)  exact" in out
    assert "1.38629" in out
    assert main(["envelope", str(example1_csv), "--delta", "1.5"]) == 2
    assert "delta must lie in the open interval (0, 1)" in capsys.readouterr().err
    assert main(["envelope", str(example1_csv), "--delta", "0.1", "--prior", "nope.csv"]) == 2
