"""Tests of the float-with-evidence results (DobrushinMaximum, PMLEnvelope)."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import mechdesign as md
from mechdesign._evidence import EvidenceFloat


def test_results_are_floats_that_keep_their_evidence_through_pickling():
    envelope = md.pml_envelope(np.eye(3), [0.2, 0.3, 0.5], 0.6)
    maximum = md.max_dobrushin(md.LDP(1.0), 3)
    for result in (envelope, maximum):
        copy = pickle.loads(pickle.dumps(result))
        assert type(copy) is type(result)
        assert float(copy) == float(result) == copy.value
        for name in type(result)._fields:
            assert np.array_equal(
                np.asarray(getattr(copy, name), dtype=object),
                np.asarray(getattr(result, name), dtype=object),
            )
    assert envelope + 0.0 == pytest.approx(np.log(1 / 0.3), abs=1e-12)


def test_evidence_is_read_only_and_complete():
    envelope = md.pml_envelope(np.eye(2), [0.5, 0.5], 0.5)
    with pytest.raises(AttributeError, match="PMLEnvelope is immutable"):
        envelope.upper = 0.0

    class Example(EvidenceFloat):
        _fields = ("witness",)

    assert Example(1.5, witness="w").witness == "w"
    with pytest.raises(TypeError, match="takes the fields"):
        Example(1.5)
