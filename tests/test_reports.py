"""The library's report builders (mechdesign.reports)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import mechdesign as md
from mechdesign.reports import bounds_report, measure_report


def test_measure_report_checks_theorem_1_on_a_kernel():
    kernel = md.randomized_response(4, 1.0)
    report = measure_report(kernel, np.full(4, 0.25), c_values=(0.1, 0.2))
    assert report["ldp_level"] == pytest.approx(1.0, abs=1e-12)
    assert all(row["dobrushin_within_bound"] for row in report["pml_capacity"])


def test_measure_report_places_kernels_below_randomized_response():
    """Kairouz, Oh & Viswanath (JMLR 2016, Thm. 2): every ε-LDP kernel on two inputs is a
    post-processing of binary randomized response at ε; k-RR itself is one (R = I); an
    infinite level has no randomized response to compare with."""
    rng = np.random.default_rng(7)
    for _ in range(20):
        kernel = md.Mechanism(rng.dirichlet(np.ones(rng.integers(2, 6)), 2))
        report = measure_report(kernel, np.full(2, 0.5), c_values=())
        assert report["post_processing_of_randomized_response"] is True
    rr = md.randomized_response(4, 1.3)
    assert measure_report(rr, np.full(4, 0.25), c_values=())[
        "post_processing_of_randomized_response"] is True
    assert measure_report(md.Mechanism(np.eye(3)), np.full(3, 1 / 3), c_values=())[
        "post_processing_of_randomized_response"] is None          # infinite level


def test_bounds_report_lp_meets_the_closed_form():
    report = bounds_report(1.0, 0.1, 4)
    assert report["dobrushin_lp"] == pytest.approx(report["dobrushin_bound"], abs=1e-9)


@pytest.mark.slow
def test_measure_report_of_a_large_kernel_keeps_the_cheap_attack_measures():
    """Above AUDIT_PAIRWISE_MAX_INPUTS the advantage (largest total variation between two
    rows, computed here directly) and the Bayes risk stay; the power and the Blackwell LP
    are left out."""
    from mechdesign.reports import AUDIT_PAIRWISE_MAX_INPUTS

    n = AUDIT_PAIRWISE_MAX_INPUTS + 1
    rr = md.randomized_response(n, 2.0)
    report = measure_report(rr, np.full(n, 1 / n), c_values=())
    e = math.exp(2.0)
    tv = (e - 1) / (e + n - 1)
    assert report["attack_risk"]["advantage"] == pytest.approx(tv, abs=1e-12)
    assert report["attack_risk"]["bayes_risk_even_prior"] == pytest.approx((1 - tv) / 2,
                                                                           abs=1e-12)
    assert report["attack_risk"]["true_positive_rate"] is None
    assert report["post_processing_of_randomized_response"] is None
    small = md.randomized_response(AUDIT_PAIRWISE_MAX_INPUTS, 2.0)
    below = measure_report(small, np.full(AUDIT_PAIRWISE_MAX_INPUTS, 1 / AUDIT_PAIRWISE_MAX_INPUTS),
                           c_values=())
    assert below["attack_risk"]["advantage"] == pytest.approx(
        (e - 1) / (e + AUDIT_PAIRWISE_MAX_INPUTS - 1), abs=1e-12)
