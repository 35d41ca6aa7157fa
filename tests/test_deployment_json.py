"""Saving kernels: Mechanism.to_json / from_json and the rational kernel's JSON, exact
round trips and refusals by name."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings

import mechdesign as md
from mechdesign.errors import InvalidInputError
from tests.conftest import kernels


@settings(max_examples=40, deadline=None)
@given(K=kernels(min_size=1, max_size=6))
def test_round_trip_is_bit_exact(K):
    saved = md.Mechanism(K).to_json()
    back = md.Mechanism.from_json(saved)
    assert np.array_equal(back.matrix, md.Mechanism(K).matrix)   # exact: the claim itself


def test_document_fields():
    K = md.randomized_response(3, 1.0)
    document = json.loads(K.to_json(input_labels=["a", "b", "c"], output_labels=[0, 1, 2],
                                    notion="LDP(1)", epsilon=math.inf))
    assert document["format"] == "mechdesign.mechanism"
    assert document["format_version"] == 1
    assert document["input_labels"] == ["a", "b", "c"]
    assert document["output_labels"] == [0, 1, 2]
    assert document["notion"] == "LDP(1)"
    assert document["epsilon"] == "inf"          # JSON has no infinity
    assert document["mechdesign_version"] == md.__version__


def test_extreme_entries_survive():
    K = np.array([[1 - 5e-324, 5e-324], [1e-300, 1 - 1e-300]])
    back = md.Mechanism.from_json(md.Mechanism(K).to_json())
    assert back.matrix[0, 1] == 5e-324    # exact: a subnormal written and read back
    assert back.matrix[1, 0] == 1e-300    # exact: likewise


@pytest.mark.parametrize(("kwargs", "name"), [
    ({"input_labels": ["a", "b"]}, "input_labels"),
    ({"output_labels": [0, 1, True]}, "output_labels"),
    ({"input_labels": [0.5, 1, 2]}, "input_labels"),
    ({"epsilon": -1.0}, "epsilon"),
    ({"epsilon": math.nan}, "epsilon"),
])
def test_bad_metadata_is_refused_by_name(kwargs, name):
    with pytest.raises(InvalidInputError, match=name):
        md.randomized_response(3, 1.0).to_json(**kwargs)


@pytest.mark.parametrize("text", [
    "not json", "[1, 2]", '{"format": "other", "format_version": 1, "matrix": [[1]]}',
    '{"format": "mechdesign.mechanism", "format_version": 99, "matrix": [[1]]}',
    '{"format": "mechdesign.mechanism", "format_version": 1, "matrix": [[0.5, 0.6]]}',
])
def test_bad_documents_are_refused(text):
    with pytest.raises(InvalidInputError):
        md.Mechanism.from_json(text)


def test_rational_round_trip_is_certified_again():
    rational = md.rational_mechanism(md.randomized_response(4, 1.0), 1.0)
    back = md.deployment.RationalMechanism.from_json(rational.to_json())
    assert np.array_equal(back.numerators, rational.numerators)
    assert back.denominator == rational.denominator
    assert back.ratio == rational.ratio          # exact: Fractions
    assert back.level <= 1.0
    # a tampered document no longer certifies: one row made sharper
    document = json.loads(rational.to_json())
    row = document["numerators"][0]
    row[0] += 10**8
    row[1] -= 10**8
    with pytest.raises(InvalidInputError, match="does not certify"):
        md.deployment.RationalMechanism.from_json(json.dumps(document))
    document["numerators"][0][0] += 1                       # rows no longer sum to D
    with pytest.raises(InvalidInputError, match="sum to the denominator"):
        md.deployment.RationalMechanism.from_json(json.dumps(document))
    with pytest.raises(InvalidInputError, match=r"mechdesign\.rational_mechanism"):
        md.deployment.RationalMechanism.from_json(md.randomized_response(2, 1.0).to_json())
