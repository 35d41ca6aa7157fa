"""Lower bounds of the estimation design (mechdesign.optimal.estimation.bounds) against
brute force written here from the definitions.

Independent of the package: the vertices of the ε-LDP section are every normalised
two-level vector (built here); "feasible kernels" are random non-negative mixtures of them
whose rows sum to one (found by scipy's linprog); their error is
``tr(W J⁻¹ Wᵀ) − tr(W diag(p) Wᵀ)`` with ``J = Σ_y k_y k_yᵀ / r_y``, computed here.
Every bound must sit below every such kernel's error and above nothing it should not.
"""

from __future__ import annotations

import importlib
import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy.optimize import linprog

import mechdesign as md

bounds = importlib.import_module("mechdesign.optimal.estimation.bounds")
estimation = importlib.import_module("mechdesign.optimal.estimation.design")

#: Rounding slack of a bound against the quantity it bounds.
RTOL = 1e-9


def section_vertices(eps: float, p: np.ndarray) -> np.ndarray:
    """Every vertex of {v : v_i ≤ e^ε v_j, p·v = 1}, from the definition."""
    rows = []
    for mask in itertools.product((0.0, 1.0), repeat=p.size):
        if 0 < sum(mask) < p.size:
            u = math.exp(-eps) + (1.0 - math.exp(-eps)) * np.array(mask)
            rows.append(u / (p @ u))
    return np.array(rows)


def feasible_weights(vertices: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Non-negative weights with Σ w_v v = 1 and J regular: a random mixture of k-RR's
    (the singleton vertices, whose J is regular) and a basic solution of a random LP."""
    n = vertices.shape[1]
    singletons = np.flatnonzero(np.sum(vertices > vertices.min(axis=1, keepdims=True)
                                       * (1 + 1e-9), axis=1) == 1)
    krr = np.zeros(vertices.shape[0])
    krr[singletons] = np.linalg.solve(vertices[singletons].T, np.ones(n))
    result = linprog(-rng.random(vertices.shape[0]), A_eq=vertices.T, b_eq=np.ones(n),
                     bounds=(0, None), method="highs")
    assert result.status == 0
    share = rng.uniform(0.05, 1.0)
    return share * krr + (1 - share) * np.maximum(result.x, 0.0)


def error_of(vertices, weights, p, w) -> float:
    j = vertices.T @ (weights[:, None] * vertices)
    return float(np.trace(w @ np.linalg.solve(j, w.T)) - np.sum(w * w * p))


def workload(name: str, n: int) -> np.ndarray:
    return np.eye(n) if name == "histogram" else np.tril(np.ones((n, n)))


instances = st.tuples(
    st.integers(min_value=3, max_value=6),
    st.floats(min_value=0.02, max_value=30.0),
    st.integers(min_value=0, max_value=2**32 - 1),
    st.sampled_from(["histogram", "prefix"]),
)


@settings(max_examples=40, deadline=None)
@given(instances)
def test_coordinate_ranges_are_the_extremes_over_the_vertices(instance):
    n, eps, seed, _ = instance
    p = np.random.default_rng(seed).dirichlet(np.ones(n))
    v = section_vertices(eps, p)
    least, largest = bounds.coordinate_ranges(p, eps)
    np.testing.assert_allclose(least, v.min(axis=0), rtol=1e-10)
    np.testing.assert_allclose(largest, v.max(axis=0), rtol=1e-10)


@settings(max_examples=40, deadline=None)
@given(instances)
def test_the_chord_bound_holds_for_every_feasible_design(instance):
    # D = J − 11ᵀ ⪰ 0, Dp = 0 and D_ii ≤ (M_i − 1)(1 − m_i): the lemma both bounds use.
    n, eps, seed, _ = instance
    rng = np.random.default_rng(seed)
    p = rng.dirichlet(np.ones(n))
    v = section_vertices(eps, p)
    x = feasible_weights(v, rng)
    d = v.T @ (x[:, None] * v) - 1.0
    least, largest = bounds.coordinate_ranges(p, eps)
    scale = max(1.0, float(np.abs(d).max()))
    assert np.all(np.diag(d) <= (largest - 1) * (1 - least) + RTOL * scale)
    np.testing.assert_allclose(d @ p, 0.0, atol=1e-9 * scale)
    assert np.linalg.eigvalsh(d).min() >= -1e-9 * scale


@settings(max_examples=40, deadline=None)
@given(instances)
def test_bounds_without_pricing_are_below_every_feasible_kernel(instance):
    n, eps, seed, name = instance
    rng = np.random.default_rng(seed)
    p = rng.dirichlet(np.ones(n)) * 0.9 + 0.1 / n
    v = section_vertices(eps, p)
    w = workload(name, n)
    constant = float(np.sum(w * w * p))
    reference = feasible_weights(v, rng)
    inverse = np.linalg.inv(v.T @ (reference[:, None] * v))
    value, label = bounds.pricing_free_bound(p, eps, w, inverse)
    assert label in ("diagonal (no pricing)", "trace (no pricing)")
    assert value > 0.0
    for _ in range(3):
        x = feasible_weights(v, rng)
        error = error_of(v, x, p, w)
        assert value - constant <= error + RTOL * max(1.0, error)


@settings(max_examples=40, deadline=None)
@given(instances)
def test_box_pricing_bound_is_above_every_reduced_cost(instance):
    n, eps, seed, _ = instance
    rng = np.random.default_rng(seed)
    p = rng.dirichlet(np.ones(n))
    b = rng.normal(size=(n, n))
    g = b @ b.T + rng.uniform(0.0, 1.0) * np.eye(n)
    dual = rng.normal(size=n) * rng.uniform(0.1, 10.0)
    v = section_vertices(eps, p)
    truth = float(np.max(np.einsum("mi,ij,mj->m", v, g, v) - v @ dual))
    bound = bounds.box_pricing_bound(g, dual, p, eps)
    assert bound >= truth - RTOL * max(1.0, abs(truth))


@settings(max_examples=60, deadline=None)
@given(st.floats(min_value=1e-6, max_value=1e6), st.floats(min_value=1e-6, max_value=1e6))
def test_the_scaled_bound_is_never_below_the_frank_wolfe_bound(f, excess):
    # F²/L̄ − (2F − L̄) = (F − L̄)²/L̄ ≥ 0 for every L̄ ≥ F.
    linear = f + excess
    assert bounds.scaled_lower_bound(f, linear) >= (2 * f - linear) * (1 - 1e-12)
    assert bounds.scaled_lower_bound(f, linear) <= f


def test_the_scaled_bound_has_no_information_without_a_positive_finite_bound():
    assert bounds.scaled_lower_bound(1.0, 0.0) == 0.0  # exact: the no-information value
    assert bounds.scaled_lower_bound(1.0, math.inf) == 0.0  # exact: the same


@settings(max_examples=25, deadline=None)
@given(instances)
def test_scaled_certificate_brackets_the_optimum_at_any_design(instance):
    # At any feasible design J, F²/L (L the exact vertex LP of G = J⁻¹WᵀWJ⁻¹) is below
    # the error of every feasible kernel: the certified bound is a lower bound wherever
    # the design stops, including at the first (k-RR) design.
    n, eps, seed, name = instance
    rng = np.random.default_rng(seed)
    p = rng.dirichlet(np.ones(n)) * 0.9 + 0.1 / n
    v = section_vertices(eps, p)
    w = workload(name, n)
    x = feasible_weights(v, rng)
    j = v.T @ (x[:, None] * v)
    a = np.linalg.solve(j, w.T)  # J⁻¹Wᵀ
    f = float(np.sum(w.T * a))
    g = a @ a.T
    scores = np.einsum("mi,ij,mj->m", v, g, v)
    lp = linprog(-scores, A_eq=v.T, b_eq=np.ones(n), bounds=(0, None), method="highs")
    lower = bounds.scaled_lower_bound(f, -lp.fun * (1 + 1e-12)) - float(np.sum(w * w * p))
    for _ in range(3):
        error = error_of(v, feasible_weights(v, rng), p, w)
        assert lower <= error + 1e-8 * max(1.0, error)


def test_the_conditioned_coordinates_invert_j():
    # J⁻¹ = p pᵀ + B D_Q⁻¹ Bᵀ with D_Q = s² Σ θ y yᵀ (the A-optimal program's
    # conditioning), checked against a direct inverse at a moderate ε.
    rng = np.random.default_rng(3)
    n, eps = 6, 0.7
    p = rng.dirichlet(np.ones(n))
    v = section_vertices(eps, p)
    x = feasible_weights(v, rng)
    y, b, scale = estimation._deviations(v, p)
    d_q = scale**2 * (y.T @ (x[:, None] * y))
    inverse = np.outer(p, p) + b @ np.linalg.solve(d_q, b.T)
    np.testing.assert_allclose(inverse, np.linalg.inv(v.T @ (x[:, None] * v)), rtol=1e-9,
                               atol=1e-9)


def test_every_design_names_its_lower_bound():
    p = md.comparison.zipf_prior(6)
    enumerated = md.design(md.LDP(1.0), p, utility="mse", method="enumeration")
    assert enumerated.estimation.lower_bound_source == "vertex LP (every vertex)"
    priced = md.design(md.LDP(1.0), p, utility="mse", method="column_generation")
    assert priced.estimation.lower_bound_source == "pricing (brute force)"
    uniform = md.design(md.LDP(1.0), np.full(6, 1 / 6), utility="mse")
    assert uniform.estimation.lower_bound_source == "symmetry (every vertex, exact)"


def test_a_time_limit_still_certifies_a_positive_lower_bound():
    # Stopped before any pricing, the bracket's lower end is the bound without pricing.
    p = md.comparison.zipf_prior(20)
    d = md.design(md.LDP(1.0), p, utility="mse", method="column_generation",
                  time_limit=1e-9)
    assert d.estimation.solver_status == "time limit"
    assert d.estimation.lower_bound_source in ("diagonal (no pricing)", "trace (no pricing)")
    assert 0.0 < d.estimation.lower_bound <= d.utility


@pytest.mark.parametrize("eps", [0.05, 8.0, 12.0])
def test_enumeration_at_extreme_epsilon_is_certified(eps):
    # ε = 0.05: J ≈ 11ᵀ; Clarabel failed on J itself (N = 6, histogram) before the
    # conditioned program. Checked against k-RR's error (an upper bound) and closed.
    p = md.comparison.zipf_prior(8)
    for name in (None, "prefix"):
        d = md.design(md.LDP(eps), p, utility=md.EstimationError(name), method="enumeration")
        assert d.estimation.status == "optimal"
        assert d.audit_passed
        krr = (math.exp(eps) * np.eye(8) + (1 - np.eye(8))) / (math.exp(eps) + 7)
        assert d.utility <= md.measures.estimation.blue_error(krr, p, name) * (1 + 1e-9)


def test_a_design_beyond_memory_is_refused_before_allocating():
    # k = 1,000 allocated 3.7 GiB and died with numpy's MemoryError; the refusal names
    # the limit and the largest N that fits it.
    largest = estimation.largest_polish_n()
    with pytest.raises(md.errors.TooLargeError, match="MAX_POLISH_BYTES") as caught:
        md.design(md.LDP(2.0), md.comparison.zipf_prior(1000), utility="mse")
    assert f"largest N it designs is {largest}" in str(caught.value)
    # the model: the Newton system on N(N+1)/2 + N unknowns fits at the largest N, not after
    pairs = largest * (largest + 1) // 2 + largest
    assert 24 * pairs**2 <= estimation.MAX_POLISH_BYTES
    pairs = (largest + 1) * (largest + 2) // 2 + largest + 1
    assert 24 * pairs**2 > estimation.MAX_POLISH_BYTES


def test_ctrl_c_during_the_conic_solve_returns_a_certified_bracket(monkeypatch):
    # Interrupted before any conic solution: the vertex LP's start (k-RR's basis for
    # ε-LDP) is the design, certified over every vertex like any other.
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(estimation, "_solve_a_optimal", interrupted)
    p = md.comparison.zipf_prior(6)
    d = md.design(md.LDP(1.0), p, utility="mse", method="enumeration")
    assert d.estimation.solver_status == "interrupted"
    assert d.status == "interrupted"
    assert d.audit_passed
    assert 0.0 < d.estimation.lower_bound <= d.utility
    optimum = md.design(md.LDP(1.0), p, utility="mse", method="column_generation").utility
    assert d.estimation.lower_bound <= optimum * (1 + 1e-9) <= d.utility * (1 + 2e-9)


def test_a_time_limited_design_past_the_brute_force_keeps_a_valid_bracket():
    # k = 20 (past the brute force): whatever the limit lets it reach, the bracket holds
    # the certified optimum of the same instance computed without a limit.
    p = md.comparison.zipf_prior(20)
    limited = md.design(md.LDP(4.0), p, utility="mse", time_limit=2.0)
    assert limited.estimation.lower_bound_source in (
        "diagonal (no pricing)", "trace (no pricing)", "pricing (box bound)",
        "pricing (DNN relaxation, one program)", "pricing (DNN relaxation)",
        "pricing (DNN relaxation; box bound where it failed or ran out of time)")
    full = md.design(md.LDP(4.0), p, utility="mse")
    assert full.estimation.status == "optimal"
    assert limited.estimation.lower_bound <= full.utility * (1 + 1e-9)
    assert full.estimation.lower_bound <= limited.utility * (1 + 1e-9)


def test_when_every_conic_solver_fails_the_polish_starts_from_k_rr(monkeypatch):
    # Clarabel and SCS both failing is not an exception: k-RR's weights (the singleton
    # vertices) start the Newton and Frank–Wolfe polish, which reaches the optimum.
    from mechdesign.errors import SolverError

    def failing(*args, **kwargs):
        raise SolverError("made to fail", status="numerical error")

    p = md.comparison.zipf_prior(6)
    reference = md.design(md.LDP(1.0), p, utility="mse", method="enumeration")
    monkeypatch.setattr(estimation, "_solve_a_optimal", failing)
    d = md.design(md.LDP(1.0), p, utility="mse", method="enumeration")
    assert "vertex LP start" in d.backend
    assert d.audit_passed
    assert d.estimation.lower_bound <= reference.utility * (1 + 1e-9)
    assert d.utility >= reference.estimation.lower_bound * (1 - 1e-9)
    assert d.utility == pytest.approx(reference.utility, rel=1e-6)


def test_a_tiny_epsilon_returns_a_bracket_not_an_exception():
    # ε = 1e-3: J ≈ 11ᵀ + O(ε²), and the polish loses feasibility to rounding; the design
    # stops with the last feasible weights and its certified bracket, never worse than
    # k-RR (its start), with the reason in its status.
    k, eps = 30, 1e-3
    p = md.comparison.zipf_prior(k)
    d = md.design(md.LDP(eps), p, utility="mse", method="column_generation", time_limit=60)
    report = d.estimation
    assert d.audit_passed
    assert 0.0 < report.lower_bound <= d.utility
    krr = (math.exp(eps) * np.eye(k) + (1 - np.eye(k))) / (math.exp(eps) + k - 1)
    # never worse than k-RR beyond rounding at this conditioning (3e-9 measured)
    assert d.utility <= md.measures.estimation.blue_error(krr, p) * (1 + 1e-7)
    if report.solver_status == "numerical error":
        assert d.status == "numerical error"
