"""mechdesign design (mechdesign.cli.design): ε-LDP and PML designs with their evidence,
robust LDP from data, the method that ran, estimation error and --out."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import mechdesign as md
from mechdesign.cli import main
from tests.cli.installed import run


def test_design_json_is_audited_and_certified(capsys):
    assert main(["design", "--notion", "ldp", "--epsilon", "3", "--n", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["utility"] == pytest.approx(0.732018, abs=5e-7)  # = 3-RR at ε = 3
    assert out["audit_passed"] is True
    assert out["certificate_holds"] is True
    assert len(out["mechanism"]) == 3


def test_design_c_pml_and_known_prior(tmp_path, capsys):
    prior = tmp_path / "p.csv"
    prior.write_text("0.5,0.3,0.2\n")
    assert main(
        ["design", "--notion", "pml", "--epsilon", "0.5", "--c", "0.1", "--prior", str(prior)]
    ) == 0
    text = capsys.readouterr().out
    assert "c=0.1" in text
    assert "passed" in text
    assert main(["design", "--notion", "pml", "--epsilon", "0.5", "--prior", str(prior),
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["privacy_level"] <= 0.5 + 1e-9


def test_design_bad_input_exits_2(capsys):
    assert main(["design", "--notion", "ldp", "--epsilon", "-1"]) == 2
    assert "epsilon" in capsys.readouterr().err
    assert main(["design", "--notion", "pml", "--epsilon", "1", "--c", "0.5", "--n", "4"]) == 2
    assert "c must satisfy" in capsys.readouterr().err
    assert main(["design", "--notion", "ldp", "--c", "0.1"]) == 2


def test_design_rldp_reproduces_example3_from_a_csv(pair_csv, capsys):
    """The data give Example 1's P̂ with n = 100: PolyOpt (paper variant) at ε = log 2 is
    Example 3's 0.4228; the default variant 0.5630; both pass the exact audit."""
    args = ["design", "--notion", "rldp", "--epsilon", str(math.log(2)), "--data",
            str(pair_csv), "--sensitive", "secret", "--other", "other", "--json"]
    assert main([*args, "--mechanism", "polyopt-paper"]) == 0
    paper = json.loads(capsys.readouterr().out)
    # Labels sort by frequency: s2 (83) before s1 (17), so rows are permuted.
    assert paper["s_labels"] == ["s2", "s1"]
    assert paper["n_samples"] == 100
    assert paper["radius"] == pytest.approx(md.chi2_radius(100, 4, 0.05), rel=1e-12)
    assert paper["utility"] == pytest.approx(0.4228, abs=5e-5)
    assert paper["audit_passed"]
    assert paper["robust_level"] <= math.log(2) + 1e-9
    assert main(args) == 0
    default = json.loads(capsys.readouterr().out)
    assert default["utility"] == pytest.approx(0.563050, abs=1e-6)
    assert default["comparator_utilities"]["srr"] == pytest.approx(0.1005, abs=5e-5)
    assert main([*args, "--mechanism", "ir"]) == 0
    ir = json.loads(capsys.readouterr().out)
    assert ir["utility"] == pytest.approx(0.0755, abs=5e-5)
    assert ir["d"] == pytest.approx(1.4591, abs=5e-5)
    assert main([*args[:-1], "--mechanism", "srr"]) == 0
    assert "exact robust audit over the ball" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("extra", "fragment"),
    [
        (["--sensitive", "secret", "--other", "missing"], "column 'missing' is not in"),
        (["--sensitive", "secret"], "needs --other"),
        (["--sensitive", "secret", "--other", "secret"], "must differ"),
        (["--sensitive", "secret", "--other", "other", "--beta", "1.5"], "beta must lie"),
        (["--sensitive", "secret", "--other", "other", "--c", "0.1"], "--c applies"),
    ],
)
def test_design_rldp_bad_input_exits_2(pair_csv, capsys, extra, fragment):
    args = ["design", "--notion", "rldp", "--epsilon", "1", "--data", str(pair_csv), *extra]
    assert main(args) == 2
    assert fragment in capsys.readouterr().err


def test_design_rldp_options_need_the_rldp_notion(pair_csv, capsys):
    assert main(["design", "--notion", "ldp", "--data", str(pair_csv)]) == 2
    assert "--data apply to --notion rldp only" in capsys.readouterr().err
    assert main(["design", "--notion", "rldp", "--data", "nope.csv", "--sensitive", "a",
                 "--other", "b"]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_design_requires_a_notion_and_explains_the_choices(capsys):
    assert main(["design", "--epsilon", "1"]) == 2
    err = capsys.readouterr().err
    assert "--notion" in err
    assert "--central" in err
    with pytest.raises(SystemExit):
        main(["design", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for phrase in ("known prior", "column_generation", "rational"):
        assert phrase in text


def test_design_n_with_a_prior_file_is_an_error(tmp_path, capsys):
    prior = tmp_path / "p.csv"
    prior.write_text("0.5,0.5\n")
    assert main(["design", "--notion", "ldp", "--prior", str(prior), "--n", "3"]) == 2
    assert "--n sets the size of a uniform prior" in capsys.readouterr().err


def test_design_method_and_max_vertices_for_every_notion(capsys):
    # LDP at N = 6 has 62 vertices: a cap of 10 refuses it and names both ways out.
    assert main(["design", "--notion", "ldp", "--n", "6", "--max-vertices", "10"]) == 2
    err = capsys.readouterr().err
    assert "max_vertices = 10" in err
    assert "--method column_generation" in err
    # Column generation reaches the optimum that enumeration certifies, inside its bracket.
    assert main(["design", "--notion", "ldp", "--n", "6", "--json"]) == 0
    enumerated = json.loads(capsys.readouterr().out)["utility"]
    assert main(["design", "--notion", "ldp", "--n", "6", "--method", "column_generation",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["utility"] == pytest.approx(enumerated, abs=1e-7)
    assert out["lower_bound"] <= enumerated + 1e-9
    assert out["upper_bound"] >= enumerated - 1e-9
    assert main(["design", "--notion", "ldp", "--n", "6", "--method", "column_generation"]) == 0
    assert "certified bracket" in capsys.readouterr().out


def test_error_messages_show_plain_numbers(capsys):
    assert main(["design", "--notion", "pml", "--c", "1.1", "--n", "2"]) == 2
    err = capsys.readouterr().err
    assert "got 1.1." in err
    assert "np.float64" not in err


@pytest.mark.parametrize("n", ["0", "-3", "1000000"])
def test_design_n_out_of_range_is_refused(capsys, n):
    assert main(["design", "--notion", "ldp", "--n", n]) == 2
    err = capsys.readouterr().err
    assert "--n must be between 2 and" in err
    assert "Traceback" not in err


def test_design_names_the_method_and_ldp_counts_its_vertices():
    """Item 6: enumeration prints its vertex count; for ε-LDP on N inputs the section's
    vertices are the normalised {1, e^ε}^N patterns but the constant one: 2^N − 2."""
    done = run("design", "--notion", "ldp", "--n", "5")
    assert done.returncode == 0, done.stderr
    assert "enumeration: 30 vertices" in done.stdout
    assert "x=4 " in done.stdout  # kernel rows carry their input
    cg = run("design", "--notion", "ldp", "--n", "5", "--method", "column_generation")
    assert cg.returncode == 0, cg.stderr
    assert "column generation:" in cg.stdout
    assert "iterations" in cg.stdout
    assert "vertices" not in cg.stdout


@pytest.mark.parametrize(
    ("args", "method"),
    [
        (["--notion", "ldp", "--n", "3"], "enumeration"),
        (["--notion", "ldp", "--n", "3", "--method", "column_generation"], "column_generation"),
        (["--notion", "pml", "--c", "0.1", "--n", "4"], "enumeration"),
        (["--notion", "rldp", "--sensitive", "secret", "--other", "other"], "enumeration"),
        (["--notion", "rldp", "--sensitive", "secret", "--other", "other", "--method",
          "column_generation"], "column_generation"),
        (["--notion", "rldp", "--sensitive", "secret", "--other", "other", "--mechanism",
          "srr"], "closed_form"),
    ],
)
def test_every_design_json_has_its_method(pair_csv, args, method):
    done = run("design", *args, *(["--data", str(pair_csv)] if "rldp" in args else []),
                "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["method"] == method


@pytest.mark.slow
def test_design_rldp_by_column_generation_says_so_and_labels_the_kernel(pair_csv):
    """Item 6: the rldp text names column generation (not "vertices enumerated"), its
    bracket, and labels each kernel row with its (s, u) from the data; column generation
    reaches the optimum that enumeration certifies."""
    base = ["design", "--notion", "rldp", "--data", str(pair_csv), "--sensitive", "secret",
            "--other", "other"]
    done = run(*base, "--method", "column_generation")
    assert done.returncode == 0, done.stderr
    assert "vertices enumerated" not in done.stdout
    assert "column generation:" in done.stdout
    assert "certified bracket" in done.stdout
    rows = [line.split()[:2] for line in done.stdout.splitlines() if line.startswith("    (")]
    # S-major, each column's labels sorted by frequency (s2: 83 records, u2: 67).
    assert rows == [["(s2,", "u2)"], ["(s2,", "u1)"], ["(s1,", "u2)"], ["(s1,", "u1)"]]
    cg = json.loads(run(*base, "--method", "column_generation", "--json").stdout)
    enumerated = json.loads(run(*base, "--method", "enumeration", "--json").stdout)
    assert cg["lower_bound"] <= enumerated["utility"] + 1e-9 <= cg["upper_bound"] + 2e-9
    assert cg["utility"] == pytest.approx(enumerated["utility"], abs=1e-7)
    srr = run(*base, "--mechanism", "srr").stdout
    header = next(line for line in srr.splitlines() if line.strip().startswith("(s2, u2)"))
    assert header.split("  ")[-1].strip() == "(s1, u1)"  # SRR's outputs are labelled too


def test_design_for_the_mse_of_a_workload_prints_its_certified_bracket():
    from mechdesign.measures.estimation import blue_error

    done = run("design", "--notion", "ldp", "--epsilon", "1", "--prior", "zipf", "--n", "5",
                "--utility", "mse", "--workload", "prefix", "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["optimality"] == "optimal"
    assert out["method"] == "enumeration"
    kernel = np.array(out["mechanism"])
    # The printed utility is the kernel's BLUE error, recomputed here from the kernel.
    assert out["utility"] == pytest.approx(
        blue_error(kernel, md.comparison.zipf_prior(5), "prefix"), rel=1e-9)
    assert out["lower_bound"] <= out["utility"] <= out["upper_bound"] + 1e-12


def test_design_workload_flag_needs_the_mse_utility():
    done = run("design", "--notion", "ldp", "--epsilon", "1", "--n", "4",
                "--workload", "prefix")
    assert done.returncode == 2
    assert "--workload" in done.stderr
    assert "Traceback" not in done.stderr


def test_design_out_writes_a_kernel_that_audit_reads(tmp_path, capsys):
    out = tmp_path / "k.json"
    assert main(["design", "--notion", "ldp", "--epsilon", "1", "--n", "3", "--out",
                 str(out), "--json"]) == 0
    designed = np.array(json.loads(capsys.readouterr().out)["mechanism"])
    saved = md.Mechanism.from_json(out.read_text())
    assert np.array_equal(saved.matrix, designed)    # exact: JSON keeps every bit
    document = json.loads(out.read_text())
    assert document["epsilon"] == pytest.approx(1.0, abs=0.0)
    assert "LDP" in document["notion"]
    assert main(["audit", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["ldp_level"] == pytest.approx(1.0, abs=1e-9)


@pytest.mark.slow
def test_design_for_a_central_guarantee_behind_a_shuffler(capsys):
    args = ["design", "--central", "1", "--delta", "1e-6", "--users", "100000", "--n", "5",
            "--prior", "zipf"]
    assert main([*args, "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    shuffled = document["shuffled"]
    assert shuffled["central_epsilon"] <= 1.0
    assert shuffled["local_epsilon"] > 1.0  # amplification affords a larger local ε₀
    assert shuffled["inner_designs"][0]["t"] == pytest.approx(1.0, abs=0)
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "behind a shuffler" in text
    assert "CloneLDP" in text


@pytest.mark.parametrize(("extra", "phrase"), [
    (["--central", "1", "--delta", "1e-6"], "--users"),
    (["--central", "1", "--delta", "1e-6", "--users", "100", "--notion", "ldp"], "drop --notion"),
    (["--central", "1", "--delta", "2", "--users", "100"], "delta"),
    (["--central", "-1", "--delta", "1e-6", "--users", "100"], "epsilon"),
])
def test_design_central_mistakes_are_named(extra, phrase, capsys):
    assert main(["design", *extra]) == 2
    assert phrase in capsys.readouterr().err


def test_design_rldp_reads_the_shipped_adult_data_by_default(capsys):
    # No --data: the UCI Adult data shipped with the package (sex × race, n = 32,561).
    assert main(["design", "--notion", "rldp", "--epsilon", "1", "--sensitive", "sex",
                 "--other", "race", "--mechanism", "srr", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["n_samples"] == 32_561
    assert out["s_labels"] == ["Male", "Female"]
