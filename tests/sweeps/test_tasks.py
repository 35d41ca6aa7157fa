"""The built-in sweep tasks (mechdesign.sweeps.tasks) equal the direct calls."""

from __future__ import annotations

import math

import numpy as np
import pytest

import mechdesign as md
from mechdesign.sweeps import make_prior


def test_design_task_equals_design():
    record = md.sweeps.design_task("pml", 1.0, 4, prior="dirichlet", rep=3)
    prior = np.random.default_rng((4, 3)).dirichlet(np.ones(4))
    direct = md.design(md.PML(1.0, 1 / 8), prior)
    assert record["utility"] == pytest.approx(direct.utility, rel=1e-12)
    assert record["privacy_level"] == pytest.approx(1.0, abs=1e-9)
    assert record["audit_passed"] is True
    bayes = md.sweeps.design_task("ldp", 2.0, 3, objective="bayes")
    # k-RR is Bayes-optimal under the uniform prior: V = e^ε / (e^ε + k − 1).
    assert bayes["utility"] == pytest.approx(math.exp(2) / (math.exp(2) + 2), rel=1e-9)


def test_measure_and_envelope_tasks_equal_the_direct_calls():
    prior = make_prior("zipf", 5)
    record = md.sweeps.measure_task("grr", 1.0, 5, prior="zipf")
    k = md.mechanisms.generalized_randomized_response(5, 1.0)
    assert record["mutual_information"] == pytest.approx(md.mutual_information(k, prior),
                                                         rel=1e-12)
    assert record["ldp_level"] == pytest.approx(1.0, rel=1e-12)
    assert record["outputs"] == 5  # exact: an integer
    envelope = md.sweeps.envelope_task("oue", 1.0, 3, 0.1)
    direct = md.pml_envelope(md.unary_encoding(3, 1.0), np.full(3, 1 / 3), 0.1)
    assert envelope["envelope"] == pytest.approx(float(direct), rel=1e-12)
