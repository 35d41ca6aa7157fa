"""The ε-LDP and PML notions (mechdesign.notions.pml): Ξ(ε, c), the largest η_TV of an
(ε, c)-PML kernel (Dobrushin paper, Theorem 1), its special values, monotonicity and
validation, Theorem 1 on random kernels, and notions refused at construction.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, strategies as st

import mechdesign as md
from mechdesign.errors import InvalidInputError
from tests.helpers import kernels


@given(kernels(), st.floats(0.05, 1.0))
def test_theorem1_holds_for_every_kernel(k, fraction):
    """Theorem 1: a kernel whose (ε,c)-PML level is ε has η_TV(K) ≤ Ξ(ε, c)."""
    n = k.shape[0]
    c = fraction / n
    eps = md.pml_capacity(k, c)
    assert md.dobrushin_coefficient(k) <= md.dobrushin_bound(eps, c, n) * (1 + 1e-9) + 1e-12


def test_bound_special_values():
    eps = 0.8
    e = math.exp(eps)
    # c → 0: the LDP value of Kairouz et al. (eq. 13).
    assert md.dobrushin_bound(eps, 1e-15, 4) == pytest.approx((e - 1) / (e + 1), rel=1e-12)
    # c = 1/N: e^ε − 1 (Remark 1), capped at 1.
    assert md.dobrushin_bound(0.3, 0.25, 4) == pytest.approx(math.expm1(0.3), rel=1e-14)
    assert md.dobrushin_bound(2.0, 0.25, 4) == pytest.approx(1.0, abs=1e-12)
    # The bound reaches 1 exactly at ε = log(2/(Nc)) (Theorem 2's threshold).
    n, c = 5, 0.05
    threshold = math.log(2 / (n * c))
    assert md.dobrushin_bound(threshold, c, n) == pytest.approx(1.0, rel=1e-14)
    assert md.dobrushin_bound(threshold * 0.999, c, n) < 1.0
    assert md.dobrushin_bound(threshold + 1, c, n) == pytest.approx(1.0, abs=1e-12)
    assert md.dobrushin_bound(0.0, c, n) == pytest.approx(0.0, abs=1e-12)
    assert md.dobrushin_bound(math.inf, c, n) == pytest.approx(1.0, abs=1e-12)
    assert md.dobrushin_bound(800.0, c, n) == pytest.approx(1.0, abs=1e-12)  # no overflow


@given(st.floats(0.0, 10.0), st.floats(0.0, 10.0), st.floats(0.01, 1.0), st.integers(1, 20))
def test_bound_monotone_in_epsilon(e1, e2, fraction, n):
    c = fraction / n
    low, high = sorted((e1, e2))
    assert md.dobrushin_bound(low, c, n) <= md.dobrushin_bound(high, c, n) + 1e-15


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        ((-0.1, 0.1, 4), "epsilon must be >= 0"),
        ((math.nan, 0.1, 4), "epsilon must be >= 0"),
        ((1.0, 0.0, 4), "c must satisfy"),
        ((1.0, 0.3, 4), "c must satisfy"),
        ((1.0, -0.1, 4), "c must satisfy"),
        ((1.0, 0.1, 0), "n must be a positive integer"),
        ((1.0, 0.1, 2.5), "n must be a positive integer"),
        (("1", 0.1, 4), "epsilon must be a real number"),
    ],
)
def test_bound_validation(args, fragment):
    with pytest.raises(md.InvalidInputError, match=fragment):
        md.dobrushin_bound(*args)


def test_theorem1_on_a_constant_kernel_regression():
    # Hypothesis found it: rounding made pml_capacity −2.2e-16 for a constant kernel,
    # and dobrushin_bound rejected that ε. The capacity's exact lower end is 0.
    k = np.full((2, 3), 1 / 3)
    eps = md.pml_capacity(k, 1 / 6)
    assert eps == pytest.approx(0.0, abs=1e-12)
    assert md.dobrushin_coefficient(k) <= md.dobrushin_bound(eps, 1 / 6, 2) + 1e-12


@pytest.mark.parametrize(
    ("build", "match"),
    [
        (lambda: md.LDP(-0.1), "epsilon"),
        (lambda: md.LDP(math.inf), "finite"),
        (lambda: md.LDP(math.nan), "epsilon"),
        (lambda: md.PML(1.0, c=0.0), "c"),
        (lambda: md.PML(1.0), "exactly one"),
        (lambda: md.PML(1.0, c=0.1, prior=[0.5, 0.5]), "exactly one"),
        (lambda: md.PML(1.0, prior=[0.5, 0.6]), "sum to 1"),
        (lambda: md.PML(1.0, priors=[[0.5, 0.5], [0.2, 0.9]]), r"priors\[1\]"),
    ],
)
def test_bad_notions(build, match):
    with pytest.raises(InvalidInputError, match=match):
        build()
