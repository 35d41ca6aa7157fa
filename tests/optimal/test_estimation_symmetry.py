"""The estimation design at the uniform prior by symmetry, against references written
here: Ye and Barg's subset-selection closed form (IEEE T-IT 2018), enumeration over every
vertex (the package's other path), and coverage counted pair by pair from the patterns.
"""

from __future__ import annotations

import hashlib
import importlib
import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import mechdesign as md
from mechdesign.measures.estimation import blue_error

symmetry = importlib.import_module("mechdesign.optimal.estimation.symmetry")


def ye_barg(k: int, eps: float) -> float:
    """min_d (k−1)²(d e^ε + k − d)² / (k d (k−d)(e^ε−1)²), i.i.d. convention, minus
    (1 − 1/k): n·MSE against the users' histogram."""
    e = math.exp(eps)
    return min((k - 1) ** 2 * (d * e + k - d) ** 2 / (k * d * (k - d) * (e - 1) ** 2)
               for d in range(1, k)) - (1 - 1 / k)


@pytest.mark.parametrize("k", [16, 32, 64])
@pytest.mark.parametrize("eps", [0.5, 1.0, 2.0, 4.0])
def test_uniform_prior_closed_form(k, eps):
    p = np.full(k, 1 / k)
    d = md.design(md.LDP(eps), p, utility="mse")
    closed = ye_barg(k, eps)
    assert d.method == "symmetry"
    assert d.estimation.status == "optimal"
    assert d.audit_passed
    assert d.utility == pytest.approx(closed, rel=1e-9)
    assert d.estimation.lower_bound <= closed * (1 + 1e-12)
    assert d.estimation.lower_bound == pytest.approx(closed, rel=1e-9)
    # the reported error is the kernel's own, by the estimation module's path
    assert d.utility == pytest.approx(blue_error(d.mechanism, p), rel=1e-12)


@pytest.mark.slow
def test_uniform_prior_closed_form_at_256_inputs():
    # Ye and Barg's closed form at the largest size the estimation targets name.
    k, eps = 256, 1.0
    p = np.full(k, 1 / k)
    d = md.design(md.LDP(eps), p, utility="mse")
    closed = ye_barg(k, eps)
    assert d.method == "symmetry"
    assert d.estimation.status == "optimal"
    assert d.utility == pytest.approx(closed, rel=1e-9)
    assert d.estimation.lower_bound == pytest.approx(closed, rel=1e-9)
    assert d.utility == pytest.approx(blue_error(d.mechanism, p), rel=1e-12)


@pytest.mark.parametrize(("k", "eps"), [(5, 1.0), (7, 0.5), (8, 2.0)])
def test_symmetry_agrees_with_enumeration(k, eps):
    p = np.full(k, 1 / k)
    fast = md.design(md.LDP(eps), p, utility="mse")
    full = md.design(md.LDP(eps), p, utility="mse", method="enumeration")
    assert fast.method == "symmetry"
    assert full.method == "enumeration"
    assert fast.utility == pytest.approx(full.utility, rel=1e-8)


def test_a_permutation_invariant_workload_other_than_the_histogram():
    # W = I − c 11ᵀ/k has WᵀW = I + β11ᵀ: the symmetric path applies, and agrees with
    # enumeration over every vertex.
    k, eps = 7, 1.0
    p = np.full(k, 1 / k)
    w = np.eye(k) - 0.3 * np.ones((k, k)) / k
    error = md.EstimationError(w)
    fast = md.design(md.LDP(eps), p, utility=error)
    full = md.design(md.LDP(eps), p, utility=error, method="enumeration")
    assert fast.method == "symmetry"
    assert fast.utility == pytest.approx(full.utility, rel=1e-8)


def test_the_symmetric_path_is_chosen_only_when_it_applies():
    k = 14
    zipf = md.design(md.LDP(1.0), md.comparison.zipf_prior(k), utility="mse", time_limit=5)
    assert zipf.method == "column_generation"
    prefix = md.design(md.LDP(1.0), np.full(k, 1 / k), utility=md.EstimationError("prefix"),
                       time_limit=5)
    assert prefix.method == "column_generation"
    pml = md.design(md.PML(1.0, 0.1), np.full(6, 1 / 6), utility="mse")
    assert pml.method == "enumeration"


def test_extreme_epsilon():
    k = 20
    p = np.full(k, 1 / k)
    assert md.design(md.LDP(700.0), p, utility="mse").utility == pytest.approx(0.0, abs=1e-12)
    tiny = md.design(md.LDP(1e-3), p, utility="mse")
    assert tiny.utility == pytest.approx(ye_barg(k, 1e-3), rel=1e-6)
    assert tiny.estimation.status == "optimal"


def test_the_design_is_deterministic():
    def digest():
        d = md.design(md.LDP(1.0), np.full(40, 1 / 40), utility="mse")
        return hashlib.sha256(d.mechanism.matrix.tobytes()).hexdigest()

    assert digest() == digest()


@settings(max_examples=30, deadline=None)
@given(n=st.integers(3, 48), data=st.data())
def test_weighted_design_covers_every_element_and_pair_equally(n, data):
    d = data.draw(st.integers(1, n - 1))
    patterns, weights = symmetry.weighted_design(n, d)
    assert np.all(patterns.sum(axis=1) == d)
    assert np.all(weights > 0)
    assert weights.sum() == pytest.approx(1.0, abs=1e-12)
    z = patterns.astype(float)
    coverage = z.T @ (weights[:, None] * z)
    target = np.full((n, n), d * (d - 1) / (n * (n - 1)))
    np.fill_diagonal(target, d / n)
    np.testing.assert_allclose(coverage, target, atol=1e-10)
    assert len({row.tobytes() for row in patterns}) == patterns.shape[0]  # merged


@settings(max_examples=40, deadline=None)
@given(n=st.integers(3, 9), eps=st.floats(0.05, 6.0))
def test_size_scores_and_orbit_information_from_their_definitions(n, eps):
    # J_d = E[v vᵀ] over every size-d pattern, and q_m = vᵀGv, computed by brute force.
    ell = math.exp(-eps)
    a, b = symmetry.orbit_information(eps, n)
    for d in range(1, n):
        vs = []
        for chosen in itertools.combinations(range(n), d):
            u = np.full(n, ell)
            u[list(chosen)] = 1.0
            vs.append(u / u.mean())
        v = np.array(vs)
        j = v.T @ v / len(vs)
        np.testing.assert_allclose(j, a[d - 1] * np.eye(n) + b[d - 1], rtol=1e-12)
    g, h = 0.7, -0.02
    q = symmetry.size_scores(eps, n, (g, h))
    gm = g * np.eye(n) + h
    for m in range(1, n):
        u = np.full(n, ell)
        u[:m] = 1.0
        v = u / u.mean()
        assert q[m - 1] == pytest.approx(v @ gm @ v, rel=1e-12)


def test_invariant_gram_detects_only_invariant_problems():
    k = 6
    uniform = np.full(k, 1 / k)
    assert symmetry.invariant_gram(uniform, 4.0 * np.eye(k)) == pytest.approx((4.0, 0.0))
    assert symmetry.invariant_gram(md.comparison.zipf_prior(k), np.eye(k)) is None
    prefix = np.tril(np.ones((k, k)))
    assert symmetry.invariant_gram(uniform, prefix.T @ prefix) is None
