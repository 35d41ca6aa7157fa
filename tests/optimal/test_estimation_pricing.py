"""Pricing for the estimation design (ε-LDP, mechdesign.optimal.estimation.pricing): its
parts against brute force written here from the definitions.

Independent of the package: the vertices of the ε-LDP section are built here from their
definition (every two-level vector ``1 + (e^ε − 1) 1_S``, normalised by ``p``), and
reduced costs from ``r(v) = vᵀGv − λ·v``.
"""

from __future__ import annotations

import importlib
import itertools
import math

import numpy as np
import pytest

pricing_module = importlib.import_module("mechdesign.optimal.estimation.pricing")
LdpQuadraticPricing = pricing_module.LdpQuadraticPricing


def section_vertices(eps: float, p: np.ndarray) -> np.ndarray:
    """Every vertex of {v : v_i ≤ e^ε v_j, p·v = 1}, from the definition."""
    n = p.size
    rows = []
    for mask in itertools.product((0.0, 1.0), repeat=n):
        if 0 < sum(mask) < n:
            u = 1.0 + math.expm1(eps) * np.array(mask)
            rows.append(u / (p @ u))
    return np.array(rows)


def random_instance(seed: int, n: int):
    rng = np.random.default_rng(seed)
    p = rng.dirichlet(np.ones(n))
    b = rng.normal(size=(n, n))
    g = b @ b.T / n + rng.uniform(0.1, 2.0) * np.eye(n)
    dual = rng.normal(size=n) + 2.0 * np.trace(g) / n
    return p, g, dual


@pytest.mark.parametrize("seed", range(6))
def test_brute_force_bound_is_the_maximum_over_every_vertex(seed):
    n, eps = 7, [0.5, 1.0, 2.0][seed % 3]
    p, g, dual = random_instance(seed, n)
    v = section_vertices(eps, p)
    truth = np.max(np.einsum("mi,ij,mj->m", v, g, v) - v @ dual)
    bound, found, name = LdpQuadraticPricing(eps, p).upper_bound(g, dual, tolerance=truth - 1.0)
    assert name == "pricing (brute force)"
    assert bound == pytest.approx(truth, rel=1e-12, abs=1e-12)
    assert found.shape[0] >= 1  # the maximiser itself is returned


@pytest.mark.parametrize("seed", range(6))
def test_local_search_returns_local_maxima_with_their_scores(seed):
    n, eps = 8, 1.0
    p, g, dual = random_instance(seed, n)
    pricing = LdpQuadraticPricing(eps, p)
    z, r = pricing.heuristic(g, dual, np.eye(n, dtype=bool))
    v = pricing.points(z)
    np.testing.assert_allclose(r, np.einsum("mi,ij,mj->m", v, g, v) - v @ dual, rtol=1e-10)
    assert np.all(np.diff(r) <= 1e-12)  # best first
    counts = z.sum(axis=1)
    assert np.all((counts > 0) & (counts < n))
    # no single flip improves the best pattern
    best = z[0]
    for i in range(n):
        flipped = best.copy()
        flipped[i] = ~flipped[i]
        if 0 < flipped.sum() < n:
            u = pricing.points(flipped[None])[0]
            assert u @ g @ u - u @ dual <= r[0] + 1e-10 * max(1.0, abs(r[0]))
    # the best local maximum is within the brute force's maximum
    w = section_vertices(eps, p)
    assert r[0] <= np.max(np.einsum("mi,ij,mj->m", w, g, w) - w @ dual) + 1e-10


@pytest.fixture
def relaxation_only(monkeypatch):
    """Every size by the semidefinite relaxation: no size closed by the bound without a
    relaxation, none scored pattern by pattern (at N = 8 every size would be)."""
    monkeypatch.setattr(pricing_module, "ENUMERATED_SIZE_MAX_PATTERNS", 0)
    monkeypatch.setattr(pricing_module, "size_pricing_bounds",
                        lambda g, dual, p, eps: np.full(p.size + 1, math.inf))


def maxima_by_size(eps, p, g, dual):
    """The largest reduced cost over the vertices of each cardinality m (index m)."""
    n = p.size
    best = np.full(n + 1, -math.inf)
    for mask in itertools.product((0, 1), repeat=n):
        m = sum(mask)
        if 0 < m < n:
            u = 1.0 + math.expm1(eps) * np.array(mask, dtype=float)
            v = u / (p @ u)
            best[m] = max(best[m], v @ g @ v - v @ dual)
    return best


@pytest.mark.parametrize("seed", range(8))
def test_the_size_bounds_without_a_relaxation_bound_every_vertex_of_their_size(seed):
    bounds = importlib.import_module("mechdesign.optimal.estimation.bounds")
    n = [6, 9][seed % 2]
    eps = [0.3, 1.0, 4.0, 9.0][seed % 4]
    p, g, dual = random_instance(400 + seed, n)
    truth = maxima_by_size(eps, p, g, dual)
    bound = bounds.size_pricing_bounds(g, dual, p, eps)
    assert bound.shape == (n + 1,)
    inner = slice(1, n)
    assert np.all(bound[inner] >= truth[inner] - 1e-9 * np.maximum(1.0, np.abs(truth[inner])))


@pytest.mark.parametrize("eps", [1e-3, 700.0])
def test_the_size_bounds_at_extreme_epsilon_are_finite_and_valid(eps):
    bounds = importlib.import_module("mechdesign.optimal.estimation.bounds")
    n = 6
    p, g, dual = random_instance(450, n)
    truth = maxima_by_size(eps, p, g, dual)
    bound = bounds.size_pricing_bounds(g, dual, p, eps)
    assert np.all(np.isfinite(bound[1:n]))
    assert np.all(bound[1:n] >= truth[1:n] - 1e-9 * np.maximum(1.0, np.abs(truth[1:n])))


def test_the_size_bounds_close_the_far_sizes_of_a_design():
    # At k-RR's design (ε = 4, Zipf(1.1), N = 12, the histogram: G = J⁻²) with λ the dual
    # of the vertex LP over every vertex (scipy), no vertex improves; the bound without a
    # relaxation shows it for the largest sizes, and holds for every size.
    from scipy.optimize import linprog

    bounds = importlib.import_module("mechdesign.optimal.estimation.bounds")
    n, eps = 12, 4.0
    p = 1.0 / np.arange(1, n + 1) ** 1.1
    p /= p.sum()
    kernel = (math.exp(eps) * np.eye(n) + 1 - np.eye(n)) / (math.exp(eps) + n - 1)
    j = np.einsum("xy,zy,y->xz", kernel, kernel, 1.0 / (p @ kernel))
    inverse = np.linalg.inv(j)
    g = inverse @ inverse
    v = section_vertices(eps, p)
    lp = linprog(-np.einsum("mi,ij,mj->m", v, g, v), A_eq=v.T, b_eq=np.ones(n),
                 bounds=(0, None), method="highs")
    dual = -lp.eqlin.marginals
    truth = maxima_by_size(eps, p, g, dual)
    assert truth[1:n].max() <= 1e-9 * abs(lp.fun)  # LP optimality: nothing improves
    bound = bounds.size_pricing_bounds(g, dual, p, eps)
    assert np.all(bound[1:n] >= truth[1:n] - 1e-9 * np.maximum(1.0, np.abs(truth[1:n])))
    assert np.all(bound[n - 3:n] <= 0.0)


@pytest.mark.parametrize("m", [1, 2, 3, 7, 8, 9])
def test_scoring_one_size_pattern_by_pattern_is_exact(m):
    n, eps = 10, 1.5
    p, g, dual = random_instance(500 + m, n)
    truth = maxima_by_size(eps, p, g, dual)
    pricing = LdpQuadraticPricing(eps, p)
    value, found = pricing._enumerate_size(m, g, dual, tolerance=truth[m] - 1e-3)
    assert value == pytest.approx(truth[m], rel=1e-12, abs=1e-12)
    assert found.shape[0] >= 1
    assert np.all(found.sum(axis=1) == m)
    v = pricing.points(found)
    r = np.einsum("mi,ij,mj->m", v, g, v) - v @ dual
    assert np.all(r > truth[m] - 1e-3)
    assert np.all(np.diff(r) <= 1e-12)


def test_the_bound_past_the_brute_force_holds_every_vertex():
    # N = 20 (past the brute force): sizes 1–7 and 13–19 are scored pattern by pattern,
    # the rest closed by the size bound or relaxed; the result bounds every one of the
    # 2^20 − 2 vertices, and the patterns it returns are improving ones.
    n, eps = 20, 2.0
    p, g, dual = random_instance(600, n)
    pricing = LdpQuadraticPricing(eps, p)
    codes = np.arange(1, (1 << n) - 1)
    z = ((codes[:, None] >> np.arange(n)) & 1).astype(bool)
    u = np.where(z, 1.0, math.exp(-eps))
    v = u / (u @ p)[:, None]
    r = np.einsum("mi,ij,mj->m", v, g, v) - v @ dual
    truth = float(r.max())
    tolerance = truth - 0.05 * abs(truth)
    bound, found, name = pricing.upper_bound(g, dual, tolerance)
    assert name == "pricing (DNN relaxation)"
    assert bound >= truth - 1e-6 * max(1.0, abs(truth))
    assert found.shape[0] >= 1
    scored = pricing.points(found)
    assert np.all(np.einsum("mi,ij,mj->m", scored, g, scored) - scored @ dual > tolerance)


@pytest.mark.usefixtures("relaxation_only")
@pytest.mark.parametrize("seed", range(4))
def test_the_relaxation_bounds_every_vertex(seed):
    # The semidefinite relaxation (used past the brute force) is an upper bound.
    n, eps = 8, [0.5, 1.0, 2.0, 3.0][seed]
    p, g, dual = random_instance(100 + seed, n)
    v = section_vertices(eps, p)
    truth = np.max(np.einsum("mi,ij,mj->m", v, g, v) - v @ dual)
    bound, _, complete = LdpQuadraticPricing(eps, p)._relaxation(g, dual, tolerance=math.inf)
    assert complete
    assert bound >= truth - 1e-6 * max(1.0, abs(truth))


@pytest.mark.parametrize("eps", [1e-3, 700.0])
def test_pricing_scores_at_extreme_epsilon_are_finite_and_exact(eps):
    # The reduced cost is invariant to the scale of u = 1 + (e^ε − 1) z; at ε = 700,
    # e^{2ε} overflows, so the score must be computed at another scale. Reference: the
    # vertex from its definition, in exact rationals' stead the two levels {e^{−ε}, 1}
    # written here, and r = vᵀGv − λ·v.
    n = 7
    p, g, dual = random_instance(7, n)
    pricing = LdpQuadraticPricing(eps, p)
    z = np.array(list(itertools.product((False, True), repeat=n))[1:-1])
    u = np.where(z, 1.0, math.exp(-eps))
    v = u / (u @ p)[:, None]
    truth = np.einsum("mi,ij,mj->m", v, g, v) - v @ dual
    r = pricing.scores(z, g, dual)
    assert np.all(np.isfinite(r))
    np.testing.assert_allclose(r, truth, rtol=1e-9, atol=1e-12)
    np.testing.assert_array_equal(pricing.patterns_of(pricing.points(z)), z)
    climbed = pricing._climb(z.copy(), g, dual)
    assert np.all(pricing.scores(climbed, g, dual) >= truth - 1e-9 * np.abs(truth))


@pytest.mark.usefixtures("relaxation_only")
def test_the_relaxation_falls_back_to_the_box_bound_when_it_fails(monkeypatch):
    # A solver failure on every relaxation is not an exception: the fallback bound stands
    # (here the box bound of estimation_bounds, itself checked against brute force).
    bounds = importlib.import_module("mechdesign.optimal.estimation.bounds")
    from mechdesign.errors import SolverError

    n, eps = 8, 1.0
    p, g, dual = random_instance(200, n)
    truth = np.max(np.einsum("mi,ij,mj->m", section_vertices(eps, p), g,
                             section_vertices(eps, p)) - section_vertices(eps, p) @ dual)
    box = bounds.box_pricing_bound(g, dual, p, eps)
    assert box >= truth - 1e-9 * max(1.0, abs(truth))

    def fail(self, m, ones, zeros):
        raise SolverError("made to fail", status="numerical error")

    monkeypatch.setattr(pricing_module._RelaxedPricing, "solve", fail)
    bound, _, complete = LdpQuadraticPricing(eps, p)._relaxation(g, dual, -math.inf,
                                                                fallback=box)
    assert not complete
    assert bound == pytest.approx(box, rel=1e-12)


@pytest.mark.usefixtures("relaxation_only")
def test_the_relaxation_stops_at_its_deadline_with_a_valid_bound():
    bounds = importlib.import_module("mechdesign.optimal.estimation.bounds")
    n, eps = 8, 2.0
    p, g, dual = random_instance(201, n)
    v = section_vertices(eps, p)
    truth = np.max(np.einsum("mi,ij,mj->m", v, g, v) - v @ dual)
    box = bounds.box_pricing_bound(g, dual, p, eps)
    bound, _, complete = LdpQuadraticPricing(eps, p)._relaxation(g, dual, -math.inf,
                                                                deadline=0.0, fallback=box)
    assert not complete
    assert bound >= truth - 1e-6 * max(1.0, abs(truth))
    # the sizes the deadline left: the one-program relaxation, never worse than the box
    assert bound <= box * (1 + 1e-12) + 1e-12


@pytest.mark.usefixtures("relaxation_only")
@pytest.mark.parametrize("seed", range(3))
def test_the_one_program_relaxation_bounds_every_vertex(seed):
    # Every cardinality at once: looser than the per-size branch and bound, still a bound.
    n, eps = 8, [0.5, 2.0, 8.0][seed]
    p, g, dual = random_instance(300 + seed, n)
    v = section_vertices(eps, p)
    truth = np.max(np.einsum("mi,ij,mj->m", v, g, v) - v @ dual)
    pricing = LdpQuadraticPricing(eps, p)
    whole = pricing.whole_bound(g, dual)
    assert whole >= truth - 1e-6 * max(1.0, abs(truth))
    per_size, _, _ = pricing._relaxation(g, dual, tolerance=math.inf)
    assert whole >= per_size - 1e-6 * max(1.0, abs(per_size))
