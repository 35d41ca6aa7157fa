"""mechdesign shuffle, local-epsilon and aggregate (mechdesign.cli.deploy), compare
--shuffle and design --out --labels --exact: each against the Python call it fronts."""

from __future__ import annotations

import json

import numpy as np
import pytest

import mechdesign as md
from mechdesign.cli import main
from mechdesign.mechanisms.oracles import PureOracle


def test_shuffle_of_a_protocol_is_the_python_value(capsys):
    assert main(["shuffle", "--protocol", "grr", "--k", "40", "--epsilon0", "7.76",
                 "--users", "100000", "--delta", "1e-6", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    expected = md.shuffle_epsilon(PureOracle.grr(40, 7.76), 10**5, 1e-6)
    assert report["central_epsilon"] == pytest.approx(expected.epsilon, rel=1e-12)
    assert report["method"] == expected.method


def test_local_epsilon_is_the_python_value(capsys):
    assert main(["local-epsilon", "--central", "1", "--delta", "1e-6", "--users", "10000",
                 "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["epsilon0"] == pytest.approx(
        md.accounting.local_epsilon_for(1.0, 1e-6, 10**4), rel=1e-12)


@pytest.mark.parametrize(("args", "fragment"), [
    (["shuffle", "--users", "10", "--delta", "1e-6"], "KERNEL file or --protocol"),
    (["shuffle", "--protocol", "grr", "--epsilon0", "1", "--users", "10", "--delta", "1e-6"],
     "needs --k"),
    (["shuffle", "--protocol", "grr", "--k", "4", "--users", "10", "--delta", "1e-6"],
     "needs --epsilon0"),
    (["shuffle", "--protocol", "grr", "--k", "4", "--epsilon0", "1", "--users", "0",
      "--delta", "1e-6"], "n"),
    (["compare", "--epsilon", "1", "--k", "4", "--shuffle", "1000"], "USERS,DELTA"),
])
def test_deployment_commands_refuse_by_name_without_a_traceback(args, fragment, capsys):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert fragment in err
    assert "Traceback" not in err


def test_design_writes_an_exact_labelled_kernel_that_aggregate_reads(tmp_path, capsys):
    labels = tmp_path / "labels.txt"
    labels.write_text("red\ngreen\nblue\nblack\n")
    out = tmp_path / "k.json"
    assert main(["design", "--notion", "ldp", "--epsilon", "1", "--n", "4", "--prior", "zipf",
                 "--out", str(out), "--labels", str(labels), "--exact"]) == 0
    capsys.readouterr()
    document = md.deployment.load_kernel(out.read_text())
    assert document.exact
    assert document.input_labels == ("red", "green", "blue", "black")
    assert md.ldp_level(document.mechanism) <= 1.0 + 1e-12
    rng = np.random.default_rng(5)
    reports = document.kernel.sample(rng.choice(4, size=4000, p=[0.4, 0.3, 0.2, 0.1]), rng)
    path = tmp_path / "reports.csv"
    path.write_text("\n".join(map(str, reports)) + "\n")
    assert main(["aggregate", str(path), "--kernel", str(out), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    expected = md.Aggregator(document.mechanism).add(reports)
    assert report["inputs"] == ["red", "green", "blue", "black"]
    assert report["estimate"] == pytest.approx(expected.estimate().tolist(), rel=1e-12)
    assert np.allclose(report["intervals"], expected.confidence_intervals(0.95),
                       rtol=1e-12, atol=0)


def test_aggregate_reads_labelled_reports_and_refuses_unknown_ones(tmp_path, capsys):
    K = md.randomized_response(3, 2.0)
    kernel = tmp_path / "k.json"
    kernel.write_text(K.to_json(input_labels=["a", "b", "c"], output_labels=["A", "B", "C"]))
    reports = tmp_path / "r.csv"
    reports.write_text("A\nB\nB\nC\nA\nA\n")
    assert main(["aggregate", str(reports), "--kernel", str(kernel), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    expected = md.Aggregator(K).add([0, 1, 1, 2, 0, 0]).estimate()
    assert report["estimate"] == pytest.approx(expected.tolist(), rel=1e-12)
    reports.write_text("A\nZ\n")
    assert main(["aggregate", str(reports), "--kernel", str(kernel)]) == 2
    assert "'Z' is not one of the kernel's output labels" in capsys.readouterr().err


def test_labels_of_the_wrong_count_and_exact_without_out_are_refused(tmp_path, capsys):
    labels = tmp_path / "labels.txt"
    labels.write_text("a\nb\n")
    assert main(["design", "--notion", "ldp", "--n", "3", "--out", str(tmp_path / "k.json"),
                 "--labels", str(labels)]) == 2
    assert "must name the 3 inputs" in capsys.readouterr().err
    assert main(["design", "--notion", "ldp", "--n", "3", "--exact"]) == 2
    assert "apply to the kernel --out writes" in capsys.readouterr().err
