"""The clone-certified notion (mechdesign.notions.clones): its closed-form vertices against
cddlib and the exact backend in every regime, its audit against the definition, the clone
mass against the shuffle accountant's own row-pair computation, and the Dobrushin bound on
random kernels of the cone (attained at N = 2).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from scipy.optimize import linprog

import mechdesign as md
from mechdesign.accounting.shuffle import shuffle_parameters
from mechdesign.errors import InvalidInputError
from mechdesign.measures.leakage import clone_mass
from mechdesign.notions import CloneLDP, clone_levels, clone_vertices
from tests.helpers import kernels


def _clone_mass_by_definition(k: np.ndarray) -> float:
    """min over outputs y and row pairs x0 ≠ x1 of min_x K[x, y] / (K[x0, y] + K[x1, y])."""
    best = math.inf
    for y in range(k.shape[1]):
        column = k[:, y]
        if column.max() == 0:
            continue
        for x0, x1 in itertools.combinations(range(k.shape[0]), 2):
            if column[x0] + column[x1] > 0:  # else min(c) ≥ r · 0 for every r
                best = min(best, column.min() / (column[x0] + column[x1]))
    return min(best, 0.5)


def _in_cone(v: np.ndarray, eps: float, r: float, atol: float = 1e-12) -> bool:
    top = np.sort(v)[::-1]
    return (top[0] <= math.exp(eps) * v.min() * (1 + atol)
            and v.min() >= r * (top[0] + top[1]) * (1 - atol))


def _rows(points: np.ndarray) -> list[tuple[float, ...]]:
    return sorted(map(tuple, np.round(points, 9)))


REGIMES = [  # (ε, r): ldp, its boundary, mixed, k-RR's boundary, clones, the single point
    (1.0, 0.0), (2.0, 0.5 * math.exp(-2.0)), (2.0, 0.09), (3.0, 0.06),
    (2.0, 1 / (math.exp(2.0) + 1)), (1.0, 0.3), (0.7, 0.5),
]


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
@pytest.mark.parametrize(("eps", "r"), REGIMES)
def test_closed_form_vertices_are_cddlibs(n, eps, r):
    notion = CloneLDP(eps, r)
    closed = clone_vertices(n, eps, r)
    found = notion.cone(n).vertices("cdd").points
    assert len(closed) == len(found)
    assert np.allclose(_rows(closed), _rows(found), atol=1e-9)
    assert len(closed) == notion.vertex_bound(n)
    assert all(_in_cone(v, eps, r) for v in closed)


@pytest.mark.parametrize(("eps", "r"), [(2.0, 0.09), (1.0, 0.3), (3.0, 0.06)])
def test_closed_form_vertices_are_the_exact_backends(eps, r):
    n = 4
    exact = CloneLDP(eps, r).cone(n).vertices("exact", max_active_sets=10**6).points
    assert np.allclose(_rows(clone_vertices(n, eps, r)), _rows(exact), atol=1e-9)


def test_regimes_follow_the_clone_mass():
    eps = 2.0
    assert clone_levels(eps, 0.0).regime == "ldp"
    assert clone_levels(eps, 0.5 * math.exp(-eps)).regime == "ldp"
    assert clone_levels(eps, 0.1).regime == "mixed"
    assert clone_levels(eps, 1 / (math.exp(eps) + 1)).regime == "clones"
    levels = clone_levels(eps, 0.1)  # S = 10, E = e²: peaks E, S − E, 1 (scaled by 1/E)
    assert levels.middle == pytest.approx((10 - math.exp(eps)) / math.exp(eps), rel=1e-12)
    assert levels.flat_low == pytest.approx(2 / 10, rel=1e-12)


@settings(max_examples=60, deadline=None)
@given(kernels())
def test_clone_mass_is_the_definition_and_the_accountants(k):
    mass = clone_mass(k)
    assert mass == pytest.approx(_clone_mass_by_definition(k), rel=1e-12, abs=1e-300)
    # The accountant's clone is 2r, r the least over its pairs of distinct rows (equal rows
    # leak nothing): at least the mass, and the mass itself when no two rows are equal.
    params = shuffle_parameters(k)
    distinct = all(not np.array_equal(a, b) for a, b in itertools.combinations(k, 2))
    if params.pairs:
        assert params.clone / 2 >= mass * (1 - 1e-12)
        if distinct:
            assert params.clone / 2 == pytest.approx(mass, rel=1e-9, abs=1e-300)


@settings(max_examples=60, deadline=None)
@given(kernels())
def test_every_ldp_kernel_has_clone_mass_at_least_half_its_floor(k):
    """Any ε₀-LDP kernel has r ≥ e^{−ε₀}/2 (the clones of Feldman, McMillan & Talwar)."""
    eps = md.ldp_level(k)
    if math.isfinite(eps):
        assert clone_mass(k) >= 0.5 * math.exp(-eps) * (1 - 1e-12)


@pytest.mark.parametrize("eps", [0.5, 2.0, 7.76])
def test_k_rr_has_clone_mass_one_over_e_eps_plus_one(eps):
    assert clone_mass(md.randomized_response(6, eps)) == pytest.approx(
        1 / (math.exp(eps) + 1), rel=1e-12)


def test_level_is_the_ldp_level_when_the_clone_mass_is_met():
    k = np.asarray(md.randomized_response(4, 2.0).matrix)
    r = 1 / (math.exp(2.0) + 1)
    assert CloneLDP(3.0, r).level(k) == pytest.approx(2.0, rel=1e-12)
    assert CloneLDP(3.0, r * 1.01).level(k) == math.inf


@pytest.mark.parametrize(("eps", "r"), [(1.0, 0.0), (2.0, 0.09), (3.0, 0.06), (1.0, 0.3)])
def test_dobrushin_bound_holds_on_random_kernels_and_is_attained_at_two_inputs(eps, r):
    notion = CloneLDP(eps, r)
    rng = np.random.default_rng(7)
    n = 4
    vertices = clone_vertices(n, eps, r)
    bound = notion.dobrushin_bound(n)
    for _ in range(100):  # a random extreme kernel: a vertex of {θ ≥ 0 : Σ θ_v v = 1}
        result = linprog(rng.standard_normal(len(vertices)), A_eq=vertices.T,
                         b_eq=np.ones(n), bounds=(0, None), method="highs")
        assert result.status == 0
        k = vertices.T * np.maximum(result.x, 0.0)  # HiGHS rounds a zero to -1e-14
        assert md.dobrushin_coefficient(k) <= bound + 1e-12
    two = clone_vertices(2, eps, r)  # N = 2: the kernel of the two vertices
    k = two.T * np.linalg.solve(two.T, np.ones(2))
    assert md.dobrushin_coefficient(k) == pytest.approx(bound, rel=1e-9)


@pytest.mark.parametrize(("kwargs", "name"), [
    ({"epsilon": -1.0, "r": 0.1}, "epsilon"), ({"epsilon": math.inf, "r": 0.1}, "epsilon"),
    ({"epsilon": 1.0, "r": 0.6}, "r"), ({"epsilon": 1.0, "r": -0.1}, "r"),
    ({"epsilon": 1.0, "r": math.nan}, "r"),
])
def test_bad_parameters_are_refused_by_name(kwargs, name):
    with pytest.raises(InvalidInputError, match=name):
        CloneLDP(**kwargs)


def test_a_cone_too_large_to_build_is_refused_before_allocating():
    with pytest.raises(md.TooLargeError, match="ratio cone"):
        CloneLDP(2.0, 0.1).cone(128)
