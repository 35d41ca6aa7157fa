"""What a user gives the command line (mechdesign.cli.inputs): kernel files (issue 26),
kernel documents, and --prior read alike by every subcommand (issue 36, item 5)."""

from __future__ import annotations

import json
import math
import subprocess

import numpy as np
import pytest

from mechdesign.cli import main
from tests.cli.installed import command, run


def test_missing_file_exits_2(tmp_path, capsys):
    assert main(["audit", str(tmp_path / "missing.csv")]) == 2
    assert "missing.csv" in capsys.readouterr().err


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


def test_a_bad_kernel_document_is_refused_by_file_name(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something else"}')
    assert main(["audit", str(bad)]) == 2
    assert f"{bad}: text is not a saved kernel: its 'format' is 'something else'" in (
        capsys.readouterr().err)


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


@pytest.mark.slow
def test_prior_zipf_is_read_alike_by_every_subcommand(kernel_csv, tmp_path):
    """Item 5: ``--prior zipf`` is Zipf(1.1) in design, audit, envelope and compare."""
    done = run("design", "--notion", "ldp", "--prior", "zipf", "--n", "5", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    kernel = np.array(report["mechanism"])
    assert kernel.shape[0] == 5
    # The utility is the mutual information under Zipf(1.1), not under a uniform prior.
    assert report["utility"] == pytest.approx(_mutual_information(kernel, _zipf(5)),
                                              rel=1e-9, abs=1e-12)
    audit = json.loads(run("audit", str(kernel_csv), "--prior", "zipf", "--json").stdout)
    assert audit["prior"] == pytest.approx(_zipf(5).tolist(), rel=1e-12)
    compare = json.loads(run("compare", "--epsilon", "1", "--k", "3", "--prior", "zipf",
                              "--json").stdout)
    assert compare["prior"] == pytest.approx(_zipf(3).tolist(), rel=1e-12)
    envelope = run("envelope", str(kernel_csv), "--delta", "0.1", "--prior", "zipf", "--json")
    assert envelope.returncode == 0, envelope.stderr
    helptext = " ".join(run("design", "--help").stdout.split())
    assert "zipf (Zipf with exponent 1.1)" in helptext


def test_prior_names_files_and_refusals_are_shared(tmp_path):
    """Item 5: ``./zipf`` is a file; dirichlet:R belongs to sweep; sweep takes no file."""
    (tmp_path / "zipf").write_text("0.25,0.75\n")
    done = subprocess.run([*command(), "design", "--notion", "ldp", "--prior", "./zipf",
                           "--json"], capture_output=True, text=True, timeout=600,
                          cwd=tmp_path, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["n_inputs"] == 2
    refused = run("design", "--notion", "ldp", "--prior", "dirichlet:3")
    assert refused.returncode == 2
    assert "applies to mechdesign sweep only" in refused.stderr
    no_file = run("sweep", "--epsilon", "1", "--n", "4", "--prior", str(tmp_path / "zipf"),
                   "--out", str(tmp_path / "out"))
    assert no_file.returncode == 2
    assert "--prior must be uniform, zipf or dirichlet:R" in no_file.stderr
