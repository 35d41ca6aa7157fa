"""to_opendp: an OpenDP Measurement whose map is the rational kernel's certified level and
whose invocations sample that kernel (OpenDP is in the test extra)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import mechdesign as md

dp = pytest.importorskip("opendp.prelude")


def test_map_is_the_certified_level():
    K = md.randomized_response(3, 1.0)
    measurement = md.to_opendp(K, 1.0, rng=0)
    rational = md.rational_mechanism(K, 1.0)
    assert measurement.map(1) == pytest.approx(rational.level, abs=0.0)
    assert measurement.map(1) <= 1.0
    assert measurement.map(0) == pytest.approx(0.0, abs=0.0)
    assert measurement.check(1, 1.0)
    assert not measurement.check(1, 0.99)


@pytest.mark.slow
def test_invocations_sample_the_kernel():
    """Pearson's χ² on 6000 invocations per input against the kernel (fixed seed), and
    the package's own conformance check on the measurement as a sampler."""
    K = np.array([[0.5, 0.3, 0.2], [0.25, 0.5, 0.25], [0.2, 0.3, 0.5]])
    eps = md.ldp_level(K) * 1.001
    measurement = md.to_opendp(K, eps, rng=1)
    rational = md.rational_mechanism(K, eps)
    for x in range(3):
        draws = np.array([measurement(x) for _ in range(6000)])
        counts = np.bincount(draws, minlength=3)
        assert stats.chisquare(counts, 6000 * rational.matrix[x]).pvalue > 1e-4

    def sampler(x, size, rng):
        return np.array([measurement(int(x)) for _ in range(size)])

    check = md.deployment.check_implementation(sampler, rational.matrix, 2000, rng=2)
    assert check.passed, (check.p_value, check.lower_bound)


def test_inputs_outside_the_domain_are_refused():
    """OpenDP does not check a user measurement's domain; the sampler refuses by name."""
    measurement = md.to_opendp(md.randomized_response(3, 1.0), 1.0, rng=0)
    with pytest.raises(Exception, match=r"inputs must hold indices in \[0, 3\)"):
        measurement(5)


def test_epsilon_below_the_kernel_level_is_refused():
    with pytest.raises(md.InvalidInputError, match="epsilon"):
        md.to_opendp(md.randomized_response(3, 1.0), 0.5)
    assert math.isfinite(md.to_opendp(md.randomized_response(3, 1.0), 2.0).map(1))
