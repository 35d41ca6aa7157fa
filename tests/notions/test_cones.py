"""Ratio cones: H-representation, audit, and vertex backends checked against each other."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

import mechdesign as md
from mechdesign.errors import InfeasibleError, InvalidInputError, TooLargeError
from mechdesign.notions import ldp_cone_vertices, pml_cone
from mechdesign.notions.cones import RatioCone
from tests.helpers import SILENT_LOSS_EXACT_OPTIMUM, random_kernel, silent_loss_notion

ATOL = 1e-8


def same_sets(a: np.ndarray, b: np.ndarray, atol: float = 1e-7) -> bool:
    """Two vertex lists are equal as sets (each point of one is within atol of the other)."""
    if a.shape != b.shape:
        return False
    dist = np.abs(a[:, None, :] - b[None, :, :]).max(axis=2)
    return bool(np.all(dist.min(axis=1) <= atol) and np.all(dist.min(axis=0) <= atol))


# -- closed forms against cdd and the exact backend ---------------------------------------


@pytest.mark.parametrize("n", range(2, 9))
@pytest.mark.parametrize("epsilon", [0.05, 0.7, 2.0, 6.0])
def test_ldp_closed_form_equals_cdd(n, epsilon):
    cone = md.LDP(epsilon).cone(n)
    closed = cone.vertices("closed_form").points
    assert closed.shape == (2**n - 2, n)
    assert same_sets(closed, cone.vertices("cdd").points)


@pytest.mark.parametrize("n", range(2, 10))
@pytest.mark.parametrize("epsilon", [0.3, 1.0, 3.0])
@pytest.mark.parametrize("c_times_n", [1.0, 0.5, 0.1, 0.01])
def test_c_pml_closed_form_equals_cdd(n, epsilon, c_times_n):
    # Every regime of the patterns (issue 7): c = 1/N (s = 0), the three-level and the
    # no-zero two-level families, N ≤ 9. Column generation's exact PML pricing rests on
    # this set.
    cone = md.PML(epsilon, c=c_times_n / n).cone(n)
    assert same_sets(cone.vertices("closed_form").points, cone.vertices("cdd").points)


@pytest.mark.parametrize("n", range(2, 10))
@pytest.mark.parametrize("epsilon", [0.3, 1.0, 3.0])
def test_known_prior_closed_form_equals_cdd(n, epsilon):
    prior = np.random.default_rng(n).dirichlet(np.ones(n))
    cone = md.PML(epsilon, prior=prior).cone(n)
    assert same_sets(cone.vertices("closed_form").points, cone.vertices("cdd").points)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
@pytest.mark.parametrize("epsilon", [0.05, 1.0, 5.0])
@pytest.mark.parametrize("c_times_n", [1.0, 0.5, 0.1, 5e-6, 5e-8])
def test_c_pml_closed_form_equals_exact(n, epsilon, c_times_n):
    # Includes the tiny-c regime where cdd's floating point loses vertices.
    cone = md.PML(epsilon, c=c_times_n / n).cone(n)
    assert same_sets(cone.vertices("closed_form").points, cone.vertices("exact").points)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
@pytest.mark.parametrize("epsilon", [0.05, 1.0, 5.0])
@pytest.mark.parametrize("with_zero", [False, True])
def test_known_prior_closed_form_equals_exact(n, epsilon, with_zero):
    prior = np.random.default_rng(10 * n).dirichlet(np.ones(n))
    if with_zero:
        prior[0] = 0.0
        prior /= prior.sum()
    cone = md.PML(epsilon, prior=prior).cone(n)
    assert same_sets(cone.vertices("closed_form").points, cone.vertices("exact").points)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_exact_backend_agrees_with_cdd_on_ldp_and_hulls(n):
    rng = np.random.default_rng(n)
    for cone in (md.LDP(0.8).cone(n), md.PML(0.8, priors=rng.dirichlet(np.ones(n), 2)).cone(n)):
        exact = cone.vertices("exact")
        assert same_sets(exact.points, cone.vertices("cdd").points)
        # The exact vertices are rationals that satisfy every inequality exactly.
        h = cone.h_representation()
        for v in exact.exact:
            assert sum(v) == 1
            for row in h:
                assert sum(Fraction(float(g)) * x for g, x in zip(row, v, strict=True)) >= 0


def test_cdd_loses_vertices_where_the_closed_form_does_not():
    # A measured failure of floating-point cddlib (N = 5, c = 1e-6): it returns 18 of
    # the 30 vertices. "auto" therefore uses the closed form for this notion.
    cone = md.PML(0.1, c=1e-6).cone(5)
    exact = cone.vertices("exact").points
    assert exact.shape[0] == 30
    assert same_sets(cone.vertices("auto").points, exact)
    from mechdesign.notions.cones import _cdd_run, deduplicate_points

    assert deduplicate_points(_cdd_run(cone.h_representation(), None)).shape[0] < 30
    # The LP probes notice the loss and further row orders recover every vertex.
    recovered = cone.vertices("cdd")
    assert recovered.backend.startswith("cdd (union over row orders")
    assert same_sets(recovered.points, exact)


@pytest.mark.parametrize("epsilon", [8.0, 10.0, 12.0])
def test_cdd_vertices_are_re_solved_to_the_exact_ones(epsilon):
    # Measured: cddlib's float vertices of this robust-LDP section at ε = 10 were 3.4e-9
    # off the exact ones (three near-duplicates among them) and the designed kernel's
    # level 3.4e-9 above ε. Re-solved from their active sets they are the exact backend's
    # rational vertices (Fractions, independent of the float path) to rounding, and the
    # design passes its audit with the exact level.
    p_hat = np.array([0.07, 0.10, 0.26, 0.57])
    ball = md.RenyiBall(p_hat, 2, md.chi2_radius(100, 4, 0.05))
    notion = md.RobustLDP(epsilon, ball, (2, 2))
    cone = notion.cone(4)
    exact = np.array([[float(x) for x in v] for v in cone.vertices("exact").exact])
    floats = cone.vertices("cdd").points
    assert floats.shape == exact.shape
    distance = np.abs(floats[:, None, :] - exact[None]).max(axis=2)
    assert distance.min(axis=1).max() <= 1e-14
    design = md.design(notion, p_hat, backend="cdd")
    assert md.robust_ldp_level(design.mechanism, ball, (2, 2)).value <= epsilon + 1e-12


def test_re_solving_keeps_a_point_that_is_not_a_vertex():
    from mechdesign.notions.cones import resolve_vertices

    # v0 ≤ 2 v1 on the segment: its midpoint has no active row, so no unique solution.
    cone = RatioCone(math.log(2), [[1.0, 0.0]], [[0.0, 1.0]])
    h = cone.h_representation()
    midpoint = np.array([[1 / 3, 2 / 3]])
    assert np.array_equal(resolve_vertices(midpoint, h), midpoint)
    nudged = np.array([[2 / 3 + 1e-10, 1 / 3 - 1e-10]])
    assert np.allclose(resolve_vertices(nudged, h), [[2 / 3, 1 / 3]], rtol=0, atol=1e-16)


def test_ldp_vertices_at_the_ends():
    assert np.allclose(md.LDP(0.0).cone(4).vertices().points, 0.25, rtol=0, atol=ATOL)
    no_privacy = pml_cone(math.inf, np.eye(3), name="inf-LDP", closed_form=ldp_cone_vertices)
    assert np.array_equal(no_privacy.vertices().points, np.eye(3)[::-1])
    assert np.array_equal(no_privacy.vertices("cdd").points, np.eye(3)[::-1])


def test_exact_backend_on_a_triangle():
    # v0 <= 2 v1 in the simplex of dimension 1: vertices (0, 1) and (2/3, 1/3).
    cone = RatioCone(math.log(2), [[1.0, 0.0]], [[0.0, 1.0]])
    vertex_set = cone.vertices("exact")
    assert set(vertex_set.exact) == {(Fraction(0), Fraction(1)), (Fraction(2, 3), Fraction(1, 3))}


def test_exact_backend_at_epsilon_zero():
    # At ε = 0 the known-prior section is the single point 1/N when P has full support.
    # A prior whose float entries sum to 1 exactly keeps that point in the exact section;
    # one that does not (the exact sum of the doubles 0.1, 0.2, 0.7 is not 1) makes it
    # empty, and the backend says so.
    cone = md.PML(0.0, prior=[0.25, 0.25, 0.5]).cone(3)
    assert np.allclose(cone.vertices("exact").points, 1 / 3, rtol=0, atol=ATOL)
    with pytest.raises(InfeasibleError, match="empty"):
        md.PML(0.0, prior=[0.1, 0.2, 0.7]).cone(3).vertices("exact")
    assert np.allclose(md.PML(0.0, prior=[0.1, 0.2, 0.7]).cone(3).vertices().points, 1 / 3,
                       rtol=0, atol=ATOL)


# -- audit ---------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(20))
def test_cone_level_equals_the_notions_leakage_audit(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 6))
    k = random_kernel(rng, n, int(rng.integers(2, 6)), zeros=0.3 if seed % 3 == 0 else 0.0)
    prior = rng.dirichlet(np.ones(n))
    c = float(rng.uniform(0.01, 1.0)) / n
    priors = rng.dirichlet(np.ones(n), 3)
    for notion in (md.LDP(1.0), md.PML(1.0, c=c), md.PML(1.0, prior=prior),
                   md.PML(1.0, priors=priors)):
        expected = notion.level(k)
        got = notion.cone(n).level(k)
        if math.isinf(expected):
            assert got == expected
        else:
            assert got == pytest.approx(expected, rel=1e-12, abs=1e-12)


def test_level_conventions():
    cone = RatioCone(0.0, [[1.0, 0.0]], [[0.0, 1.0]])
    # 0/0 column ignored, 0/1 → −∞
    assert cone.level([[0.0, 1.0], [0.0, 1.0]]) == pytest.approx(0.0, abs=1e-12)
    assert cone.level([[0.5, 0.5], [0.0, 1.0]]) == math.inf  # positive/0
    assert cone.level([[0.5, 0.5], [0.25, 0.75]]) == pytest.approx(math.log(2), abs=1e-15)


def test_contains_and_inequalities():
    cone = md.LDP(math.log(3)).cone(2)
    g = cone.inequalities()
    assert g.shape == (2, 2)  # the x = x' pairs are implied by v >= 0 and dropped
    assert cone.contains([0.75, 0.25])
    assert not cone.contains([0.8, 0.2])


# -- size limits and bad input ----------------------------------------------------------------


def test_too_large_names_the_alternative():
    with pytest.raises(TooLargeError, match="Raise max_vertices"):
        md.LDP(1.0).cone(12).vertices(max_vertices=1000)
    with pytest.raises(TooLargeError, match="backend='cdd'"):
        md.LDP(1.0).cone(7).vertices("exact")


def test_vertex_bound_is_an_upper_bound():
    for n in range(2, 8):
        for cone in (md.PML(1.0, c=0.3 / n).cone(n),
                     md.PML(1.0, priors=np.full((2, n), 1 / n)).cone(n)):
            assert len(cone.vertices("cdd")) <= cone.vertex_bound()


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"epsilon": -1.0, "numerators": [[1.0]], "denominators": [[1.0]]}, "epsilon"),
        ({"epsilon": 1.0, "numerators": [[1.0, 0.0]], "denominators": [[1.0]]}, "same shape"),
        ({"epsilon": 1.0, "numerators": [[-1.0]], "denominators": [[1.0]]}, "non-negative"),
    ],
)
def test_bad_cones(kwargs, match):
    with pytest.raises(InvalidInputError, match=match):
        RatioCone(**kwargs)


def test_bad_backend_and_missing_closed_form():
    with pytest.raises(InvalidInputError, match="backend"):
        md.LDP(1.0).cone(3).vertices("lrs")
    with pytest.raises(InvalidInputError, match="closed_form"):
        md.PML(1.0, priors=np.full((2, 3), 1 / 3)).cone(3).vertices("closed_form")


# -- cddlib's silent losses, found by LP probes -------------------------------------------


def test_probes_find_nothing_on_a_complete_vertex_set():
    cone = md.LDP(0.7).cone(5)
    complete = cone.vertices("closed_form").points
    from mechdesign.notions.cones import _probe_missing_vertices

    points, missed = _probe_missing_vertices(complete, cone.h_representation())
    assert missed == 0
    assert points is complete


@pytest.mark.parametrize("keep", [1, 5, 17])
def test_probes_restore_feasibility_of_a_truncated_vertex_set(keep):
    # Keep a few LDP vertices (the 2^N − 2 normalised {1, e^ε} patterns): the Farkas
    # step must add vertices until 1 is in their conic hull, and every addition is a
    # true vertex (one of the closed-form patterns).
    from scipy.optimize import linprog

    from mechdesign.notions.cones import _probe_missing_vertices

    cone = md.LDP(1.3).cone(6)
    complete = cone.vertices("closed_form").points
    rng = np.random.default_rng(keep)
    start = complete[rng.choice(complete.shape[0], keep, replace=False)]
    points, missed = _probe_missing_vertices(start, cone.h_representation())
    assert missed > 0
    assert points.shape[0] > keep
    for v in points:
        assert np.min(np.abs(complete - v).max(axis=1)) < 1e-9
    feasible = linprog(
        np.zeros(points.shape[0]), A_eq=points.T, b_eq=np.ones(6), bounds=(0, None),
        method="highs",
    )
    assert feasible.status == 0


def test_cdd_default_order_silently_loses_polyopt_vertices():
    from mechdesign.notions.cones import _cdd_run, _probe_missing_vertices, deduplicate_points

    notion, _ = silent_loss_notion()
    h = notion.cone(12).h_representation()
    default = deduplicate_points(_cdd_run(h, None))
    assert default.shape[0] < 1_295 // 2  # 476 measured, no error raised
    _, missed = _probe_missing_vertices(default, h)
    assert missed > 0


def test_design_recovers_the_exact_optimum_after_a_silent_cdd_loss():
    notion, p_hat = silent_loss_notion()
    result = md.design(notion, p_hat, method="enumeration", max_vertices=10**12)
    assert result.backend.startswith("cdd (union over row orders")
    assert result.utility == pytest.approx(SILENT_LOSS_EXACT_OPTIMUM, abs=1e-7)
    assert result.privacy_level <= 3.0 + 1e-9
    # method="auto" prices this paper-variant instance by exact block pricing, which
    # never enumerates: the same exact optimum, certified.
    auto = md.design(notion, p_hat)
    assert auto.column_generation.status == "optimal"
    assert auto.utility == pytest.approx(SILENT_LOSS_EXACT_OPTIMUM, abs=1e-7)


@pytest.mark.parametrize("notion", [md.LDP(0.05), md.LDP(2.5), md.PML(0.4, c=0.2),
                                    md.PML(1.5, c=0.15)])
@pytest.mark.parametrize("n", [3, 5])
def test_probes_raise_no_false_alarm_on_complete_sets(notion, n):
    # No probe may "find" a vertex outside a complete set (the probe tolerance is not
    # too tight): the complete set comes from the closed form or the exact backend.
    from mechdesign.notions.cones import _probe_missing_vertices

    cone = notion.cone(n)
    backend = "closed_form" if cone.closed_form is not None else "exact"
    complete = cone.vertices(backend).points
    _, missed = _probe_missing_vertices(complete, cone.h_representation(), seed=n)
    assert missed == 0
