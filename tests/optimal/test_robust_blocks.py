"""Exact block pricing of PolyOpt (mechdesign.optimal.robust.blocks), against cddlib and
brute force.

The block vertex formulas are checked against cddlib's vertices of the lifted block
polytope Q = {(w, hi, lo) : lo ≤ w ≤ hi, lo ≥ 0, L·w + σ hi ≤ a, L·w + σ lo ≥ b}, the
branch and bound against every product of candidates, and the pricing against the
vertices of PolyOpt's whole section (RobustLDP.cone, cddlib).
"""

from __future__ import annotations

import itertools
import math

import cdd
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import mechdesign as md
from mechdesign.optimal.robust.blocks import (
    BlockPricing,
    _BlockSet,
    _branch_and_bound,
    _breakpoint_vertices,
    _upper_hull,
    _upper_tight_vertices,
    block_vertices,
)


def xlogx(x):
    x = np.asarray(x, dtype=float)
    return np.where(x > 0, x * np.log(np.where(x > 0, x, 1.0)), 0.0)


def lifted_vertices(lower, a, b):
    """cddlib's vertices of Q, projected to w (independent of block_vertices)."""
    n = lower.shape[0]
    sigma = 1.0 - lower.sum()
    rows = []  # b_i - A_i x >= 0 over x = (w, hi, lo)
    for u in range(n):
        row = np.zeros(n + 2)
        row[u], row[n + 1] = 1.0, -1.0
        rows.append([0.0, *row])  # w_u - lo >= 0
        row = np.zeros(n + 2)
        row[u], row[n] = -1.0, 1.0
        rows.append([0.0, *row])  # hi - w_u >= 0
    row = np.zeros(n + 2)
    row[n + 1] = 1.0
    rows.append([0.0, *row])  # lo >= 0
    row = np.zeros(n + 2)
    row[:n], row[n] = -lower, -sigma
    rows.append([a, *row])  # a - L·w - σ hi >= 0
    row = np.zeros(n + 2)
    row[:n], row[n + 1] = lower, sigma
    rows.append([-b, *row])  # L·w + σ lo - b >= 0
    polyhedron = cdd.polyhedron_from_matrix(
        cdd.matrix_from_array(rows, rep_type=cdd.RepType.INEQUALITY))
    generators = np.array(cdd.copy_generators(polyhedron).array)
    assert np.all(generators[:, 0] == 1)  # exact: cddlib's vertex flag; Q is bounded
    return generators[:, 1: n + 1]


def in_block(lower, a, b, points, tol=1e-9):
    sigma = 1.0 - lower.sum()
    mean = points @ lower
    top = mean + sigma * points.max(axis=1)
    bottom = mean + sigma * points.min(axis=1)
    return (points.min(axis=1) >= -tol) & (top <= a * (1 + tol)) & (bottom >= b * (1 - tol))


def random_block(rng, n):
    p = rng.dirichlet(np.ones(n))
    lower = p * rng.uniform(0.05, 0.95, n)
    if rng.random() < 0.3:
        lower[rng.integers(n)] = 0.0  # an outcome the estimate never saw
    return lower


@pytest.mark.parametrize("seed", range(40))
def test_block_vertices_are_the_vertices_of_the_block(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 6))
    lower = random_block(rng, n)
    a, b = float(np.exp(rng.uniform(0.05, 3.0))), float(rng.uniform(0.2, 1.0))
    candidates = block_vertices(lower, a, b).points()
    reference = lifted_vertices(lower, a, b)
    assert in_block(lower, a, b, candidates).all()
    # Every vertex of the projection is a candidate: a point of the section maximising
    # a generic linear function is a vertex, and the candidates reach the same maximum;
    # and every projected vertex of Q that is a vertex of C(a, b) is listed.
    for direction in rng.normal(size=(200, n)):
        assert (candidates @ direction).max() == pytest.approx(
            (reference @ direction).max(), rel=1e-9, abs=1e-9)
    for point in reference:
        others = np.delete(reference, np.flatnonzero(np.all(
            np.isclose(reference, point, rtol=0, atol=1e-9), axis=1)), axis=0)
        # A vertex of C(a, b) is not a convex combination of the other points.
        if others.shape[0] and _is_convex_combination(point, others):
            continue
        assert np.isclose(candidates, point, rtol=1e-9, atol=1e-9).all(axis=1).any()


def _is_convex_combination(point, others):
    from scipy.optimize import linprog

    m = others.shape[0]
    result = linprog(np.zeros(m), A_eq=np.vstack([others.T, np.ones(m)]),
                     b_eq=np.append(point, 1.0), bounds=(0, None), method="highs")
    return result.status == 0


@pytest.mark.parametrize("seed", range(30))
def test_the_upper_face_moves_within_the_hull_of_its_ends_and_breakpoints(seed):
    # The default variant's exceptional products rest on this: for a in [a1, a2] every
    # vertex of C(a, 1) with A = a lies in the convex hull of those at a1 and a2 and of
    # the points 1_H / L(H) with A in [a1, a2].
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 6))
    lower = random_block(rng, n)
    a1 = float(np.exp(rng.uniform(0.05, 1.5)))
    a2 = a1 * float(np.exp(rng.uniform(0.01, 1.5)))
    ends = [_upper_tight_vertices(lower, a1).points(), _upper_tight_vertices(lower, a2).points(),
            _breakpoint_vertices(lower, a1, a2).points()]
    hull = np.vstack(ends)
    sigma = 1.0 - lower.sum()
    for a in rng.uniform(a1, a2, 5):
        face = _upper_tight_vertices(lower, float(a)).points()
        top = face @ lower + sigma * face.max(axis=1)
        assert np.allclose(top, a, rtol=1e-12)  # on the face
        assert in_block(lower, a, 1.0, face).all()
        for point in face:
            assert _is_convex_combination(point, hull)


def _extreme(points):
    """The points of a finite set that are not convex combinations of the others (the
    projection of a vertex of Q need not be a vertex of C)."""
    points = np.unique(np.round(points, 9), axis=0)
    keep = [not _is_convex_combination(x, np.delete(points, k, axis=0))
            for k, x in enumerate(points)]
    return points[keep]


def _moves_affinely(before, middle, after, weight):
    """Every point of ``middle`` is ``(1 − weight)·x + weight·y`` for an ``x`` of
    ``before`` and a ``y`` of ``after``, and the three sets have one size (points
    counted once)."""
    if not before.shape[0] == middle.shape[0] == after.shape[0]:
        return False
    mixed = (1 - weight) * before[:, None, :] + weight * after[None, :, :]
    return all(np.abs(mixed - x).max(axis=2).min() <= 1e-9 * max(1.0, np.abs(x).max())
               for x in middle)


@pytest.mark.parametrize("seed", range(25))
def test_blocks_change_kind_only_at_breakpoints(seed):
    # The default variant's exact closure rests on this: between two consecutive
    # breakpoints, the vertices of C_s(E, β) (cddlib) and those of the face A = Eβ of
    # C_s(Eβ, 1) move affinely in β.
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 5))
    lower = np.vstack([random_block(rng, n), random_block(rng, n)])
    e = float(np.exp(rng.uniform(0.3, 2.0)))
    pricing = BlockPricing(lower, np.full(2 * n, 0.5 / n), math.log(e), False)
    sigma = 1.0 - lower[0].sum()

    def face(beta):
        points = _extreme(lifted_vertices(lower[0], e * beta, 1.0))
        top = points @ lower[0] + sigma * points.max(axis=1)
        return points[np.abs(top - e * beta) <= 1e-9 * e * beta]

    def block(beta):
        return _extreme(lifted_vertices(lower[0], e, beta))

    for exceptional, vertices in ((False, block), (True, face)):
        cuts = np.concatenate([[1.0], pricing._breakpoints(0, exceptional), [e]])
        assert np.all(np.diff(cuts) > 0)
        for low, high in itertools.pairwise(cuts):
            if high - low < 1e-2:
                continue  # nearly coincident vertices: cddlib's and the LP's tolerances
            quarter = (high - low) / 4
            t1, t2, t3 = np.sort(rng.uniform(low + quarter, high - quarter, 3))
            weight = (t2 - t1) / (t3 - t1)
            assert _moves_affinely(vertices(t1), vertices(t2), vertices(t3), weight)


def test_a_breakpoint_changes_the_vertices():
    # The other direction, on a block where it shows: across β = E L(H)/(L(H) + σ) the
    # vertex count of C(E, β) changes.
    lower = np.array([0.3, 0.2])
    e = math.e
    pricing = BlockPricing(np.vstack([lower, lower]), np.full(4, 0.25), 1.0, False)
    cuts = pricing._breakpoints(0, False)
    assert cuts.size
    for cut in cuts:
        below = _extreme(lifted_vertices(lower, e, cut * (1 - 1e-3)))
        above = _extreme(lifted_vertices(lower, e, cut * (1 + 1e-3)))
        assert below.shape[0] != above.shape[0]


@pytest.mark.parametrize("seed", range(15))
def test_upper_hull_against_brute_force(seed):
    rng = np.random.default_rng(seed)
    m = int(rng.integers(1, 60))
    t = np.sort(rng.integers(0, 12, m).astype(float))  # ties on purpose
    q = rng.normal(size=m)
    rows = _upper_hull(t, q, 0, m)
    ht, hq = t[rows], q[rows]
    assert np.all(np.diff(ht) > 0)
    # Every point lies on or below the hull, and every hull vertex is a point.
    for ti, qi in zip(t, q, strict=True):
        k = np.searchsorted(ht, ti)
        if ti <= ht[0]:
            assert qi <= hq[0] + 1e-12 or ti < ht[0]
        elif k < ht.shape[0]:
            level = hq[k - 1] + (hq[k] - hq[k - 1]) * (ti - ht[k - 1]) / (ht[k] - ht[k - 1])
            assert qi <= level + 1e-12
    slopes = np.diff(hq) / np.diff(ht)
    assert np.all(np.diff(slopes) < 0)  # strictly concave: no point on a chord kept


@pytest.mark.parametrize("seed", range(30))
def test_branch_and_bound_against_every_product(seed):
    rng = np.random.default_rng(seed)
    k, n = int(rng.integers(2, 4)), int(rng.integers(2, 4))
    joint = rng.dirichlet(np.ones(k * n)).reshape(k, n)
    lower = joint / joint.sum(axis=1, keepdims=True) * rng.uniform(0.2, 0.9, (k, n))
    e = math.exp(rng.uniform(0.2, 2.0))
    blocks = [_BlockSet(block_vertices(lower[s], e, 1.0), joint[s]) for s in range(k)]
    dual = rng.normal(size=(k, n)) * rng.uniform(0.01, 1.0)
    theta = float(rng.uniform(-0.5, 0.5))
    values = [blocks[s].values(dual[s], theta) for s in range(k)]
    best, choice, upper, _ = _branch_and_bound(blocks, values, -math.inf, 0.0)
    brute = -math.inf
    for option in itertools.product(*[range(b.aggregate.shape[0]) for b in blocks]):
        total = sum(blocks[s].aggregate[j] for s, j in enumerate(option))
        value = sum(values[s][j] for s, j in enumerate(option)) - float(xlogx(total))
        brute = max(brute, value)
    assert best == pytest.approx(brute, abs=1e-10)
    assert upper == pytest.approx(brute, abs=1e-10)
    # The value is μ − (λ + θ)·v of the product point itself (P the joint prior).
    point = np.concatenate([blocks[s].vertices.points(np.array([j]))[0]
                            for s, j in enumerate(choice)])
    p = joint.ravel()
    direct = float((p * xlogx(point)).sum() - xlogx(p @ point)
                   - dual.ravel() @ point - theta * point.sum())
    assert direct == pytest.approx(best, abs=1e-10)


def robust_notions():
    rng = np.random.default_rng(11)
    for shape in [(2, 2), (2, 3), (3, 2), (2, 3), (3, 2), (3, 3), (2, 4), (4, 2)]:
        for variant in ("default", "paper"):
            p = rng.dirichlet(np.ones(shape[0] * shape[1]))
            radius = float(rng.uniform(0.01, 0.3))
            eps = float(rng.uniform(0.3, 2.0))
            notion = md.RobustLDP(eps, md.RenyiBall(p, 2.0, radius), shape, variant=variant)
            yield pytest.param(notion, p, id=f"{shape}-{variant}-eps{eps:.2f}")


@pytest.mark.parametrize(("notion", "p"), list(robust_notions()))
def test_block_pricing_against_every_vertex_of_the_section(notion, p):
    # McMullen's bound refuses N = 9; the true count is small.
    vertices = notion.cone(p.size).vertices("cdd", max_vertices=10**7).points
    mu = (p * xlogx(vertices)).sum(axis=1) - xlogx(vertices @ p)
    pricing = BlockPricing(notion.lower_bounds(), p, notion.epsilon,
                           notion.variant == "paper")
    rng = np.random.default_rng(3)
    for _ in range(6):
        # Duals near the optimum's scale, so that some reduced costs are positive.
        dual = rng.normal(size=p.size) * 0.05 * mu.mean() + rng.uniform(0.6, 1.1) * mu.max()
        best = float((mu - vertices @ dual).max())
        columns, costs, upper, _ = pricing.price(dual, converge=True, abs_gap=1e-12)
        assert upper >= best - 1e-9
        assert all(pricing.contains(c) for c in columns)
        assert np.allclose(columns.sum(axis=1), 1.0)
        if best > 1e-9:
            assert costs.max() == pytest.approx(best, abs=1e-9)
        assert upper <= max(best, 0.0) + 1e-9  # exact, for both variants


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), eps=st.floats(0.2, 3.0), radius=st.floats(0.005, 0.5))
@pytest.mark.slow
def test_paper_variant_design_is_certified_and_equals_enumeration(seed, eps, radius):
    # Exact pricing certifies the paper variant's optimum: the bracket is closed and
    # equals full vertex enumeration (cddlib).
    rng = np.random.default_rng(seed)
    p = rng.dirichlet(np.ones(6))
    notion = md.RobustLDP(eps, md.RenyiBall(p, 2.0, radius), (2, 3), variant="paper")
    full = md.design(notion, p, method="enumeration")
    cg = md.design(notion, p, method="column_generation", gap=1e-9)
    assert cg.column_generation.status == "optimal"
    assert cg.utility == pytest.approx(full.utility, abs=1e-7)
    assert cg.audit_passed


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), eps=st.floats(0.2, 3.0), radius=st.floats(0.005, 0.5),
       shape=st.sampled_from([(3, 2), (2, 3), (2, 4)]))
@pytest.mark.slow
def test_default_variant_design_is_certified_and_equals_enumeration(seed, eps, radius, shape):
    # The exceptional products close at the blocks' breakpoints: the default variant's
    # bracket closes too, on the enumerated optimum.
    rng = np.random.default_rng(seed)
    p = rng.dirichlet(np.ones(shape[0] * shape[1]))
    notion = md.RobustLDP(eps, md.RenyiBall(p, 2.0, radius), shape)
    full = md.design(notion, p, method="enumeration")
    cg = md.design(notion, p, method="column_generation", gap=1e-9)
    report = cg.column_generation
    assert report.exact_pricing
    assert report.status == "optimal"
    assert cg.utility == pytest.approx(full.utility, abs=1e-7)
    assert report.upper_bound - report.lower_bound <= 1e-8
    assert cg.audit_passed


def test_block_pricing_refuses_blocks_it_cannot_enumerate():
    wide = np.full((2, 17), 0.5 / 17)
    assert not BlockPricing.supports(wide)
    assert not BlockPricing.supports(np.array([[0.5, 0.5], [0.2, 0.3]]))  # σ_0 = 0
    assert BlockPricing.supports(np.array([[0.2, 0.3], [0.1, 0.1]]))


@pytest.mark.parametrize(("lower", "a", "b", "name"), [
    ([0.2, np.nan], 2.0, 1.0, "lower"),
    ([0.2, -0.1], 2.0, 1.0, "lower"),
    ([0.6, 0.4], 2.0, 1.0, "lower"),  # σ = 0
    ([0.2 + 0j, 0.1], 2.0, 1.0, "lower"),
    ([0.2], 2.0, 1.0, "len"),
    ([0.2, 0.1], 0.0, 1.0, "a"),
    ([0.2, 0.1], 2.0, 3.0, "b"),
    ([0.2, 0.1], 2.0, -1.0, "b"),
    ([0.2, 0.1], math.nan, 1.0, "a"),
])
def test_block_vertices_refuse_bad_input_by_name(lower, a, b, name):
    with pytest.raises(md.InvalidInputError, match=name):
        block_vertices(lower, a, b)


def test_block_vertices_refuse_too_many_outcomes():
    with pytest.raises(md.TooLargeError, match="len"):
        block_vertices(np.full(17, 0.01), 2.0, 1.0)


def test_block_pricing_refuses_bad_input_by_name():
    lower = np.array([[0.2, 0.3], [0.1, 0.1]])
    with pytest.raises(md.UnsupportedError, match="σ_s"):
        BlockPricing(np.array([[0.5, 0.5], [0.1, 0.1]]), np.full(4, 0.25), 1.0, False)
    with pytest.raises(md.InvalidInputError, match="prior"):
        BlockPricing(lower, np.full(3, 1 / 3), 1.0, False)
    with pytest.raises(md.InvalidInputError, match="epsilon"):
        BlockPricing(lower, np.full(4, 0.25), math.inf, False)
    with pytest.raises(md.InvalidInputError, match="same_secret"):
        BlockPricing(lower, np.full(4, 0.25), 1.0, "yes")
