"""Saved kernels read back whole (mechdesign.deployment.documents): labels, notion and
level travel with float and exact kernels, a stated level is verified, exact kernels
compare by value, and the command line reads both formats."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

import mechdesign as md
from mechdesign.cli import main
from mechdesign.deployment import KernelDocument, RationalMechanism, load_kernel

LABELS_IN = ["red", "green", "blue"]
LABELS_OUT = ["R", "G", 7]


def test_float_kernels_keep_their_labels_notion_and_level():
    K = md.randomized_response(3, 1.5)
    text = K.to_json(input_labels=LABELS_IN, output_labels=LABELS_OUT,
                     notion=repr(md.LDP(1.5)), epsilon=1.5)
    document = load_kernel(text)
    assert isinstance(document, KernelDocument)
    assert not document.exact
    assert document.kernel == K
    assert document.input_labels == tuple(LABELS_IN)
    assert document.output_labels == tuple(LABELS_OUT)
    assert document.notion == "LDP(epsilon=1.5)"
    assert document.epsilon == pytest.approx(1.5, rel=1e-15)


def test_exact_kernels_keep_their_labels_and_compare_by_value():
    K = md.randomized_response(3, 1.5)
    exact = md.rational_mechanism(K, 1.5)
    again = md.rational_mechanism(K, 1.5)
    assert exact == again
    assert hash(exact) == hash(again)
    assert exact != md.rational_mechanism(K, 1.5, bits=20)
    assert exact != md.rational_mechanism(md.randomized_response(3, 1.0), 1.5)
    text = exact.to_json(input_labels=LABELS_IN, output_labels=LABELS_OUT, notion="LDP(1.5)")
    document = load_kernel(text)
    assert document.exact
    assert document.kernel == exact
    assert RationalMechanism.from_json(text) == exact
    assert document.input_labels == tuple(LABELS_IN)
    assert document.output_labels == tuple(LABELS_OUT)
    assert np.array_equal(document.mechanism.matrix, exact.numerators / exact.denominator)


@pytest.mark.parametrize("notion", [None, "LDP(epsilon=7.76)", "CloneLDP(epsilon=7.76, r=0.1)"])
def test_a_float_document_whose_level_was_edited_down_is_refused(notion):
    K = md.randomized_response(40, 7.76)
    document = json.loads(K.to_json(notion=notion, epsilon=7.76))
    md.Mechanism.from_json(json.dumps(document))             # as saved: read
    document["epsilon"] = 1.0
    with pytest.raises(md.InvalidInputError, match="states epsilon = 1"):
        md.Mechanism.from_json(json.dumps(document))
    with pytest.raises(md.InvalidInputError, match=r"LDP level is 7\.76"):
        load_kernel(json.dumps(document))


def test_a_pml_document_keeps_its_level_unverified_as_an_ldp_level():
    """(ε, c)-PML's level is not an LDP level: the document is read as saved."""
    K = md.randomized_response(3, 2.0)
    document = load_kernel(K.to_json(notion="PML(epsilon=1.0, c=0.1)", epsilon=1.0))
    assert document.epsilon == pytest.approx(1.0, abs=0)


@pytest.mark.parametrize(("edit", "match"), [
    ({"input_labels": ["a", "b"]}, "input_labels must be 3"),
    ({"output_labels": [True, 1, 2]}, "output_labels must be 3"),
    ({"notion": 5}, "notion must be a string"),
    ({"format": "other"}, "not a saved kernel"),
])
def test_bad_documents_are_refused_by_name(edit, match):
    document = json.loads(md.randomized_response(3, 1.0).to_json())
    document.update(edit)
    with pytest.raises(md.InvalidInputError, match=match):
        load_kernel(json.dumps(document))


def test_labels_of_the_wrong_count_are_refused_when_saving():
    exact = md.rational_mechanism(md.randomized_response(3, 1.0), 1.0)
    with pytest.raises(md.InvalidInputError, match="output_labels must be 3"):
        exact.to_json(output_labels=["a"])


def test_the_command_line_audits_an_exact_kernel_the_api_wrote(tmp_path, capsys):
    exact = md.rational_mechanism(md.randomized_response(3, 1.0), 1.0)
    path = tmp_path / "exact.json"
    path.write_text(exact.to_json(input_labels=LABELS_IN))
    assert main(["audit", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ldp_level"] <= 1.0 + 1e-12
    assert report["ldp_level"] == pytest.approx(md.ldp_level(exact.matrix), rel=1e-12)


def test_python_dash_m_runs_the_command_line():
    done = subprocess.run([sys.executable, "-m", "mechdesign", "--version"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith(md.__version__) or md.__version__ in done.stdout


def test_an_edited_level_is_refused_by_the_command_line_without_a_traceback(tmp_path, capsys):
    document = json.loads(md.randomized_response(3, 2.0).to_json(epsilon=2.0))
    document["epsilon"] = 0.5
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(document))
    assert main(["audit", str(path)]) != 0
    err = capsys.readouterr().err
    assert "states epsilon = 0.5" in err
    assert "Traceback" not in err
