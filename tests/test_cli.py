"""Tests of the command-line front end."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import mechdesign as md
from mechdesign.cli import main


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


def test_missing_file_exits_2(tmp_path, capsys):
    assert main(["audit", str(tmp_path / "missing.csv")]) == 2
    assert "missing.csv" in capsys.readouterr().err


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


def test_console_script_entry_point():
    """The installed command runs (python -m form, independent of PATH)."""
    done = subprocess.run(
        [sys.executable, "-m", "mechdesign.cli", "demo", "--json"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert "envelope-example1" in json.loads(done.stdout)["paper_examples"]


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


def test_demo_designs_and_audits(capsys):
    assert main(["demo", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    utilities = {name: d["utility"] for name, d in out["designs"].items()}
    # LDP ⊂ (ε, c)-PML ⊂ PML for the known prior (min P = 0.05 ≥ c): utilities ordered.
    assert utilities["ldp"] <= utilities["c_pml"] <= utilities["known_prior_pml"] + 1e-12
    assert all(d["audit_passed"] and d["certificate_holds"] for d in out["designs"].values())


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


@pytest.fixture
def example1_csv(tmp_path):
    path = tmp_path / "example1.csv"
    # Envelope paper, Example 1, eq. (7).
    path.write_text("0,0,1/2,1/2\n0,0,1/2,1/2\n0,1/5,2/5,2/5\n1/5,0,2/5,2/5\n")
    return path


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


def test_demo_includes_polyopt_audited_over_the_ball(capsys):
    assert main(["demo", "--json"]) == 0
    robust = json.loads(capsys.readouterr().out)["robust_ldp"]
    assert robust["polyopt_paper"]["utility"] == pytest.approx(0.4228, abs=5e-5)
    assert robust["polyopt"]["utility"] == pytest.approx(0.563050, abs=1e-6)
    for entry in robust.values():
        assert entry["audit_passed"]
        assert entry["privacy_level"] <= math.log(2) + 1e-9


# -- the output a user pipes on, from the installed command, in a fresh process ----------


def _command() -> list[str]:
    """The installed console script when it sits beside this interpreter, else ``-m``."""
    script = Path(sys.executable).with_name("mechdesign")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "mechdesign.cli"]


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*_command(), *args], capture_output=True, text=True, timeout=600, check=False
    )


JSON_COMMANDS = {
    "audit": ["audit", "{kernel}", "--c", "0.1", "--json"],
    "design-ldp": ["design", "--notion", "ldp", "--n", "3", "--json"],
    "design-ldp-column-generation": [
        "design", "--notion", "ldp", "--n", "5", "--method", "column_generation", "--json"
    ],
    "design-pml-c": ["design", "--notion", "pml", "--c", "0.1", "--n", "4", "--json"],
    "design-pml-prior": ["design", "--notion", "pml", "--prior", "{prior}", "--json"],
    "design-rldp": [
        "design", "--notion", "rldp", "--data", "{pairs}", "--sensitive", "secret",
        "--other", "other", "--json",
    ],
    "design-rldp-ir": [
        "design", "--notion", "rldp", "--data", "{pairs}", "--sensitive", "secret",
        "--other", "other", "--mechanism", "ir", "--json",
    ],
    "envelope": ["envelope", "{kernel}", "--delta", "0.1", "0.3", "--json"],
    "bounds": ["bounds", "--epsilon", "1", "--c", "0.05", "--n", "6", "--json"],
    "demo": ["demo", "--json"],
}


@pytest.mark.parametrize("name", list(JSON_COMMANDS))
def test_every_json_output_parses(name, kernel_csv, pair_csv, tmp_path):
    """stdout of every ``--json`` command is one JSON document and nothing else (a solver
    banner written from C to file descriptor 1 once broke every one of them)."""
    prior = tmp_path / "prior.csv"
    prior.write_text("0.5,0.3,0.2\n")
    files = {"kernel": str(kernel_csv), "pairs": str(pair_csv), "prior": str(prior)}
    done = _run(*(arg.format(**files) for arg in JSON_COMMANDS[name]))
    assert done.returncode == 0, done.stderr
    assert isinstance(json.loads(done.stdout), dict)
    assert done.stderr == ""


def test_demo_output_starts_with_its_own_first_line():
    done = _run("demo")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0].startswith("mechdesign demo: optimal mechanisms")
    assert done.stderr == ""


# -- the command line's rough edges --------------------------------------------------------


def test_no_command_prints_help_and_exits_2(capsys):
    assert main([]) == 2
    err = capsys.readouterr().err
    assert "usage: mechdesign" in err
    assert "design" in err
    assert "audit" in err


@pytest.mark.parametrize("flag", ["--help", "--version"])
def test_help_and_version_exit_0(flag, capsys):
    with pytest.raises(SystemExit) as info:
        main([flag])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert (f"mechdesign {md.__version__}" in out) if flag == "--version" else ("usage:" in out)


def test_design_requires_a_notion_and_explains_the_choices(capsys):
    with pytest.raises(SystemExit) as info:
        main(["design", "--epsilon", "1"])
    assert info.value.code == 2
    assert "--notion" in capsys.readouterr().err
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


def test_kernel_rows_are_counted_from_one(tmp_path, capsys):
    path = tmp_path / "k.csv"
    path.write_text("1,0\n0.5,0.6\n")
    assert main(["audit", str(path)]) == 2
    assert "row 2 (index 1) sums to 1.1" in capsys.readouterr().err


def test_a_file_that_is_not_text_exits_2(tmp_path, capsys):
    path = tmp_path / "k.csv"
    path.write_bytes(bytes(range(128, 256)))
    assert main(["audit", str(path)]) == 2
    assert "mechdesign: error:" in capsys.readouterr().err


# -- hardening (issue 26): what users do to a CSV file --------------------------------------


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"0.5,,0.5\n0.25,0.75\n", "column 2 is blank"),
        (b"1e400,0\n0,1\n", "too large for a double"),
        (b"0.5,0.5\n\xe90.25,0.75\n", "not a UTF-8 text file"),
    ],
)
def test_bad_kernel_files_are_one_line_errors(tmp_path, capsys, content, message):
    path = tmp_path / "kernel.csv"
    path.write_bytes(content)
    assert main(["audit", str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err
    assert err.count("\n") == 1


def test_a_byte_order_mark_and_a_trailing_comma_are_accepted(tmp_path, capsys):
    path = tmp_path / "kernel.csv"
    path.write_bytes(b"\xef\xbb\xbf0.75,0.25,\n0.25,0.75,\n")
    assert main(["audit", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ldp_level"] == pytest.approx(math.log(3))


@pytest.mark.parametrize("n", ["0", "-3", "1000000"])
def test_design_n_out_of_range_is_refused(capsys, n):
    assert main(["design", "--notion", "ldp", "--n", n]) == 2
    err = capsys.readouterr().err
    assert "--n must be between 2 and" in err
    assert "Traceback" not in err


# -- issue 36, items 3-6: the command line's edges, through the installed command ---------


def _zipf(n: int, exponent: float = 1.1) -> np.ndarray:
    """Zipf(1.1) on n categories, written out here: P(i) ∝ (i + 1)^(−s)."""
    weights = np.array([(i + 1) ** -exponent for i in range(n)])
    return weights / weights.sum()


def _mutual_information(kernel: np.ndarray, prior: np.ndarray) -> float:
    """I(X;Y) in nats, summed term by term (independent of mechdesign.measures.leakage)."""
    total = 0.0
    outputs = prior @ kernel
    for x, p in enumerate(prior):
        for y, k in enumerate(kernel[x]):
            if p > 0 and k > 0:
                total += p * k * math.log(k / outputs[y])
    return total


def _pairs_file(tmp_path: Path, text: str) -> str:
    path = tmp_path / "pairs.csv"
    path.write_text(text)
    return str(path)


def test_audit_samples_keeps_a_text_first_row_whose_labels_recur(tmp_path):
    """Item 3: ``a,x / b,y / a,y / b,x`` is four samples (line 1 is data: its labels recur
    below), and both columns are strings in the JSON."""
    path = _pairs_file(tmp_path, "a,x\nb,y\na,y\nb,x\n")
    done = _run("audit-samples", path, "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["n_pairs"] == 4
    assert report["header"] is None
    assert sorted(report["inputs"]) == ["a", "b"]
    assert sorted(report["outputs"]) == ["x", "y"]
    text = _run("audit-samples", path, "--epsilon", "1")
    assert text.returncode == 0, text.stderr
    assert text.stdout.startswith("audit of 4 samples: 2 inputs, 2 outputs")
    assert "no header: every line is a sample" in text.stdout


def test_audit_samples_header_detected_declared_or_refused_and_named(tmp_path):
    """Item 3: a header is read when unambiguous or declared, and the output names its
    line (blank lines count: the header here is line 2); ``--no-header`` keeps it."""
    path = _pairs_file(tmp_path, "\ninput,output\n0,1\n1,0\n0,0\n1,1\n")
    detected = json.loads(_run("audit-samples", path, "--json").stdout)
    assert detected["n_pairs"] == 4
    assert detected["header"] == {"line": 2, "cells": ["input", "output"], "how": "detected"}
    assert all(type(v) is int for v in detected["inputs"] + detected["outputs"])
    text = _run("audit-samples", path).stdout
    assert "line 2 (input, output) read as the header (detected" in text
    kept = json.loads(_run("audit-samples", path, "--json", "--no-header").stdout)
    assert kept["n_pairs"] == 5
    assert kept["header"] is None
    # With the header kept as a sample, each column has text: every label is a string.
    assert all(type(v) is str for v in kept["inputs"] + kept["outputs"])
    declared = json.loads(
        _run("audit-samples", _pairs_file(tmp_path, "a,x\nb,y\na,y\nb,x\n"), "--json",
             "--header").stdout)
    assert declared["n_pairs"] == 3
    assert declared["header"] == {"line": 1, "cells": ["a", "x"], "how": "declared"}
    both = _run("audit-samples", path, "--header", "--no-header")
    assert both.returncode == 2
    assert "Traceback" not in both.stderr


def test_audit_samples_json_types_each_column_consistently(tmp_path):
    """Item 3: integer inputs stay integers and text outputs stay strings, in the lists
    and in the witness alike; 40 samples where input 0 always gives x and input 1 always
    y show an unbounded ratio, so the lower bound is positive and a witness exists."""
    path = _pairs_file(tmp_path, "0,x\n1,y\n" * 20)
    done = _run("audit-samples", path, "--json", "--epsilon", "0.5")
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
    done = _run("audit-samples", path, "--epsilon", "1")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("audit of 2 samples: 2 inputs, 1 output\n")
    assert "the samples does" not in done.stdout
    assert "does not exceed the claimed epsilon = 1" in done.stdout


def test_sweep_refuses_an_unknown_mechanism_before_any_point(tmp_path):
    """Item 4: exit 2, one line naming --mechanism and every valid name, nothing stored."""
    from mechdesign.sweeps import FAMILIES

    out = tmp_path / "sweep"
    done = _run("sweep", "--task", "measure", "--mechanism", "grr,foo", "--epsilon", "1",
                "--n", "4", "--out", str(out))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert "Traceback" not in done.stderr
    assert "--mechanism" in done.stderr
    assert "'foo'" in done.stderr
    assert all(name in done.stderr for name in FAMILIES)
    assert not out.exists()
    with pytest.raises(md.InvalidInputError, match=r"mechanism must be one of grr, oue"):
        md.sweeps.measure_task("foo", 1.0, 4)
    with pytest.raises(md.InvalidInputError, match=r"mechanism must be one of .*pml_extremal"):
        md.sweeps.envelope_task("randomised response", 1.0, 4, 0.1)


def test_sweep_help_lists_the_mechanisms_and_they_are_the_tasks_names():
    from mechdesign.cli import SWEEP_MECHANISMS
    from mechdesign.sweeps import FAMILIES

    assert SWEEP_MECHANISMS == FAMILIES
    done = _run("sweep", "--help")
    assert done.returncode == 0
    text = " ".join(done.stdout.split())
    for name in FAMILIES:
        assert name in text


def test_sweep_accepts_compares_names_and_measures_what_compare_measures(tmp_path):
    """Item 4: every protocol name of ``compare`` is a sweep family; the sweep's mutual
    information of each equals the row ``compare`` prints for it."""
    k, eps = 4, 1.0
    table = md.compare(md.LDP(eps), np.full(k, 1.0 / k), n=100)
    protocols = table[table["kind"] == "protocol"]
    names = list(protocols["mechanism"])
    assert len(names) == 6
    out = tmp_path / "sweep"
    done = _run("sweep", "--task", "measure", "--mechanism", ",".join(names), "--epsilon",
                str(eps), "--n", str(k), "--workers", "1", "--quiet", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "6 rows (0 failed)" in done.stdout
    import pandas as pd

    swept = pd.read_csv(out / "sweep.csv").set_index("mechanism")
    canonical = {"GRR": "grr", "OUE": "oue", "SUE (RAPPOR)": "sue",
                 "subset selection": "subset_selection", "OLH": "olh",
                 "Hadamard response": "hadamard_response"}
    for row in protocols.itertuples():
        assert swept.loc[canonical[row.mechanism], "mutual_information"] == pytest.approx(
            row.mutual_information, rel=1e-12, abs=1e-15)


def test_prior_zipf_is_read_alike_by_every_subcommand(kernel_csv, tmp_path):
    """Item 5: ``--prior zipf`` is Zipf(1.1) in design, audit, envelope and compare."""
    done = _run("design", "--notion", "ldp", "--prior", "zipf", "--n", "5", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    kernel = np.array(report["mechanism"])
    assert kernel.shape[0] == 5
    # The utility is the mutual information under Zipf(1.1), not under a uniform prior.
    assert report["utility"] == pytest.approx(_mutual_information(kernel, _zipf(5)),
                                              rel=1e-9, abs=1e-12)
    audit = json.loads(_run("audit", str(kernel_csv), "--prior", "zipf", "--json").stdout)
    assert audit["prior"] == pytest.approx(_zipf(5).tolist(), rel=1e-12)
    compare = json.loads(_run("compare", "--epsilon", "1", "--k", "3", "--prior", "zipf",
                              "--json").stdout)
    assert compare["prior"] == pytest.approx(_zipf(3).tolist(), rel=1e-12)
    envelope = _run("envelope", str(kernel_csv), "--delta", "0.1", "--prior", "zipf", "--json")
    assert envelope.returncode == 0, envelope.stderr
    helptext = " ".join(_run("design", "--help").stdout.split())
    assert "zipf (Zipf with exponent 1.1)" in helptext


def test_prior_names_files_and_refusals_are_shared(tmp_path):
    """Item 5: ``./zipf`` is a file; dirichlet:R belongs to sweep; sweep takes no file."""
    (tmp_path / "zipf").write_text("0.25,0.75\n")
    done = subprocess.run([*_command(), "design", "--notion", "ldp", "--prior", "./zipf",
                           "--json"], capture_output=True, text=True, timeout=600,
                          cwd=tmp_path, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["n_inputs"] == 2
    refused = _run("design", "--notion", "ldp", "--prior", "dirichlet:3")
    assert refused.returncode == 2
    assert "applies to mechdesign sweep only" in refused.stderr
    no_file = _run("sweep", "--epsilon", "1", "--n", "4", "--prior", str(tmp_path / "zipf"),
                   "--out", str(tmp_path / "out"))
    assert no_file.returncode == 2
    assert "--prior must be uniform, zipf or dirichlet:R" in no_file.stderr


def test_design_names_the_method_and_ldp_counts_its_vertices():
    """Item 6: enumeration prints its vertex count; for ε-LDP on N inputs the section's
    vertices are the normalised {1, e^ε}^N patterns but the constant one: 2^N − 2."""
    done = _run("design", "--notion", "ldp", "--n", "5")
    assert done.returncode == 0, done.stderr
    assert "enumeration: 30 vertices" in done.stdout
    assert "x=4 " in done.stdout  # kernel rows carry their input
    cg = _run("design", "--notion", "ldp", "--n", "5", "--method", "column_generation")
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
    done = _run("design", *args, *(["--data", str(pair_csv)] if "rldp" in args else []),
                "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["method"] == method


def test_design_rldp_by_column_generation_says_so_and_labels_the_kernel(pair_csv):
    """Item 6: the rldp text names column generation (not "vertices enumerated"), its
    bracket, and labels each kernel row with its (s, u) from the data; column generation
    reaches the optimum that enumeration certifies."""
    base = ["design", "--notion", "rldp", "--data", str(pair_csv), "--sensitive", "secret",
            "--other", "other"]
    done = _run(*base, "--method", "column_generation")
    assert done.returncode == 0, done.stderr
    assert "vertices enumerated" not in done.stdout
    assert "column generation:" in done.stdout
    assert "certified bracket" in done.stdout
    rows = [line.split()[:2] for line in done.stdout.splitlines() if line.startswith("    (")]
    # S-major, each column's labels sorted by frequency (s2: 83 records, u2: 67).
    assert rows == [["(s2,", "u2)"], ["(s2,", "u1)"], ["(s1,", "u2)"], ["(s1,", "u1)"]]
    cg = json.loads(_run(*base, "--method", "column_generation", "--json").stdout)
    enumerated = json.loads(_run(*base, "--method", "enumeration", "--json").stdout)
    assert cg["lower_bound"] <= enumerated["utility"] + 1e-9 <= cg["upper_bound"] + 2e-9
    assert cg["utility"] == pytest.approx(enumerated["utility"], abs=1e-7)
    srr = _run(*base, "--mechanism", "srr").stdout
    header = next(line for line in srr.splitlines() if line.strip().startswith("(s2, u2)"))
    assert header.split("  ")[-1].strip() == "(s1, u1)"  # SRR's outputs are labelled too


# -- estimation error (issue 37) ----------------------------------------------------------


def test_design_for_the_mse_of_a_workload_prints_its_certified_bracket():
    from mechdesign.measures.estimation import blue_error

    done = _run("design", "--notion", "ldp", "--epsilon", "1", "--prior", "zipf", "--n", "5",
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
    done = _run("design", "--notion", "ldp", "--epsilon", "1", "--n", "4",
                "--workload", "prefix")
    assert done.returncode == 2
    assert "--workload" in done.stderr
    assert "Traceback" not in done.stderr


def test_compare_with_the_mse_utility_lists_both_estimators(tmp_path):
    # A workload from a file: the prefix queries written out.
    workload = tmp_path / "w.csv"
    workload.write_text("\n".join(",".join("1" if x <= row else "0" for x in range(5))
                                  for row in range(5)))
    done = _run("compare", "--epsilon", "1", "--k", "5", "--prior", "zipf",
                "--utilities", "mse", "--workload", str(workload), "--json")
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)["rows"]
    assert rows[0]["kind"] == "designed"
    optimum = rows[0]["mse_blue"]
    for row in rows[1:]:
        if row["mse_blue"] is not None:
            assert row["mse_blue"] <= row["mse"] + 1e-12  # the BLUE is never worse
            assert row["mse_blue"] >= optimum - 1e-12  # nor better than the optimum
    bad = _run("compare", "--epsilon", "1", "--k", "5", "--utilities", "mi,variance")
    assert bad.returncode == 2
    assert "--utilities" in bad.stderr


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


def test_a_bad_kernel_document_is_refused_by_file_name(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something else"}')
    assert main(["audit", str(bad)]) == 2
    assert f"{bad}: text is not a 'mechdesign.mechanism' document" in capsys.readouterr().err
