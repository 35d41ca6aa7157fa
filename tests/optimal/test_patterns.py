"""The information one ε-LDP output can carry, ``κ(ε) = A − 1 − log A``, and its use.

Checked against what does not share its derivation: every subset of small priors (brute
force), the enumerated design LP, a numerical maximisation over the output's mass, a
50-digit evaluation, and the mutual information of a designed kernel computed by hand.

Pattern pricing (mechdesign.optimal.patterns): exact pricing against brute force over
every vertex (cddlib's vertices up to N = 8, the closed forms up to N = 12), both by
enumerating the families' patterns (the default at these sizes) and by their MIPs
(enumeration switched off), the dual bound, incremental neighbour costs, family moves,
and the refusals.

The continuous-relaxation bound of a two-level pattern family (no MIP).

Checked against brute force over every pattern (it must bound the best reduced cost),
against the relaxation solved by cvxpy (it must reach it: strong duality), and through
exact pricing, which must still return brute force's best reduced cost.
"""

from __future__ import annotations

import itertools
import math

import cvxpy as cp
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy.optimize import minimize_scalar

import mechdesign as md
from mechdesign._tolerances import INFORMATION_BOUND_RTOL
from mechdesign.notions import ldp_cone_vertices
from mechdesign.optimal import (
    LinearisationSource,
    PatternSource,
    ldp_column,
    ldp_information_bound,
    patterns as patterns_module,
    pipeline,
    price_ldp,
    randomized_response_bound,
    run_column_generation,
    solve_vertex_lp,
)
from mechdesign.optimal.patterns import balanced_arcs
from tests.helpers import ldp_vertices_by_bits, mutual_information_of_columns, robust_instances

priors = st.lists(st.floats(0.01, 1.0), min_size=2, max_size=8).map(
    lambda w: np.array(w) / sum(w))


def divergence_of_output(prior: np.ndarray, column: np.ndarray) -> float:
    """``D(P_{X|y} ‖ P_X)`` for an output whose column (over inputs) is ``column``."""
    posterior = prior * column / (prior @ column)
    keep = posterior > 0
    return float(posterior[keep] @ np.log(posterior[keep] / prior[keep]))


def mutual_information_by_hand(prior: np.ndarray, kernel: np.ndarray) -> float:
    joint = prior[:, None] * kernel
    outputs = joint.sum(axis=0)
    keep = joint > 0
    ratio = kernel / np.where(outputs > 0, outputs, 1.0)[None, :]
    return float(joint[keep] @ np.log(ratio[keep]))


def one_output_maximum(epsilon: float) -> float:
    """``max_p D`` over the mass ``p`` of the larger level, numerically: with ``s = 1 +
    (e^ε − 1) p = e^t``, ``D = ε e^ε p / s − t``, maximised over ``t ∈ [0, ε]`` (a log
    scale, since the best ``p`` is about ``ε e^{−ε}`` for large ε)."""

    def divergence(t: float) -> float:
        p = math.expm1(t) / math.expm1(epsilon)
        return epsilon * p * math.exp(epsilon - t) - t

    result = minimize_scalar(lambda t: -divergence(t), bounds=(0.0, epsilon),
                             method="bounded", options={"xatol": 1e-12 * epsilon})
    return divergence(float(result.x))


@settings(max_examples=60, deadline=None)
@given(prior=priors, epsilon=st.floats(0.05, 12.0))
def test_no_ldp_output_carries_more_than_the_bound(prior, epsilon):
    """Brute force over every vertex ``1 + (e^ε − 1) 1_B`` of the ε-LDP cone."""
    n = prior.size
    kappa = ldp_information_bound(epsilon)
    for size in range(1, n):
        for subset in itertools.combinations(range(n), size):
            column = np.ones(n)
            column[list(subset)] = math.exp(epsilon)
            assert divergence_of_output(prior, column) <= kappa * (1 + 1e-12) + 1e-15


@settings(max_examples=25, deadline=None)
@given(prior=priors.filter(lambda p: p.size <= 6), epsilon=st.floats(0.1, 6.0))
def test_the_optimal_ldp_design_carries_at_most_the_bound(prior, epsilon):
    """The enumerated design LP (every vertex, HiGHS) never beats κ(ε), nor H(X)."""
    optimum = md.design(md.LDP(epsilon), prior, method="enumeration").utility
    entropy = float(-(prior * np.log(prior)).sum())
    assert optimum <= min(ldp_information_bound(epsilon), entropy) + 1e-9


@pytest.mark.parametrize("epsilon", [0.01, 0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0])
def test_the_closed_form_is_the_maximum_over_the_mass(epsilon):
    assert ldp_information_bound(epsilon) == pytest.approx(one_output_maximum(epsilon),
                                                           rel=1e-9, abs=1e-15)


@pytest.mark.parametrize("epsilon", [1e-8, 1e-5, 1e-3, 1.999e-3, 2.001e-3, 2.2e-3, 0.3,
                                     1.0, 40.0, 700.0])
def test_the_closed_form_to_fifty_digits(epsilon):
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.dps = 50
    e = mpmath.mpf(epsilon)
    a = e / (1 - mpmath.exp(-e))
    exact = a - 1 - mpmath.log(a)
    assert ldp_information_bound(epsilon) == pytest.approx(float(exact), rel=1e-13)


def test_the_bound_at_its_limits():
    assert ldp_information_bound(0.0) == 0.0  # exact: a point section carries nothing
    assert math.isinf(ldp_information_bound(math.inf))
    # κ(ε) ≈ ε²/8 for small ε, ε − 1 − log ε for large ε.
    assert ldp_information_bound(1e-4) == pytest.approx(1e-8 / 8, rel=1e-7)
    assert ldp_information_bound(200.0) == pytest.approx(199 - math.log(200), rel=1e-15)
    with pytest.raises(md.InvalidInputError, match="epsilon"):
        ldp_information_bound(-1.0)


@settings(max_examples=40, deadline=None)
@given(prior=priors, data=st.data())
def test_the_closed_form_duals_bound_every_point(prior, data):
    """``λ = −P log P`` bounds ``μ(v) − λ·v ≤ 0`` for every ``v ≥ 0`` (so the LP value by
    ``H(X)``), whatever the notion; ``λ = κ P`` for every ε-LDP section point; where
    inputs share a mass, the dual of the LP reduced by that symmetry, whose bound is
    below both."""
    n = prior.size
    epsilon = data.draw(st.floats(0.05, 8.0))
    source = PatternSource(md.LDP(epsilon), prior)
    dual, bound = source.certified_dual()
    entropy = float(-(prior * np.log(prior)).sum())
    closed_form = min(entropy, ldp_information_bound(epsilon) * (1 + INFORMATION_BOUND_RTOL))
    # randomized response's dual, when its bound is the least (large ε, no tiny masses)
    rr = randomized_response_bound(epsilon, prior)[1]
    # Every ε-LDP section point is a mixture of vertices; μ is convex, so vertices suffice.
    worst = -math.inf
    for size in range(1, n):
        for subset in itertools.combinations(range(n), size):
            column = np.ones(n)
            column[list(subset)] = math.exp(epsilon)
            v = column / column.sum()
            mu = (prior @ v) * divergence_of_output(prior, v)
            worst = max(worst, mu - dual @ v)
    # The bound holds: it is at least 1·λ + N max(0, max_v r(v)), brute force's.
    assert bound >= dual.sum() + n * max(0.0, worst) - 1e-14
    if np.unique(prior).size == n and closed_form <= rr:  # no symmetry: H or κ, r ≤ 0
        assert bound == pytest.approx(dual.sum(), rel=1e-14)
        assert bound == pytest.approx(closed_form, rel=1e-14)
        assert worst <= 1e-15
    elif np.unique(prior).size == n:
        assert bound == pytest.approx(rr, rel=1e-14)
    else:
        assert bound <= min(closed_form, rr) * (1 + 1e-14)
    entropy_dual = -prior * np.log(prior)
    v = np.array(data.draw(st.lists(st.floats(0.0, 1.0), min_size=n, max_size=n)))
    if v @ prior > 0:
        mu = (prior @ v) * divergence_of_output(prior, v)
        assert mu - entropy_dual @ v <= 1e-12 * max(1.0, v.sum())


@settings(max_examples=60, deadline=None)
@given(prior=priors, mass=st.floats(0.0, 0.5))
def test_balanced_arcs_are_arcs_bracketing_the_mass(prior, mass):
    n = prior.size
    arcs = balanced_arcs(prior, mass, 1, n - 1)
    assert len({row.tobytes() for row in arcs}) == arcs.shape[0]
    lengths = set()
    for row in arcs:
        size = int(row.sum())
        assert 1 <= size <= n - 1
        # Consecutive around the circle: exactly one place where the set starts.
        starts = np.flatnonzero(row & ~np.roll(row, 1))
        assert starts.size == 1
        first = int(starts[0])
        lengths.add((first, size))
    for first in range(n):
        masses = [prior[[(first + j) % n for j in range(size)]].sum()
                  for f, size in lengths if f == first]
        # From every first input: an arc of mass ≤ the target (unless one input is
        # already heavier) and one just above it (unless it would take all n − 1).
        assert masses
        assert min(masses) <= mass + 1e-12 or min(masses) == pytest.approx(prior[first])


@pytest.mark.slow
def test_a_diffuse_prior_is_certified_by_the_closed_form_without_a_mip():
    """ε = 1, Dirichlet(1), N = 128: the design's mutual information (by hand) is within
    the gap of κ(1), and no pricing MIP ran: the bound is the closed form's."""
    n = 128
    prior = np.random.default_rng(n).dirichlet(np.ones(n))
    design = md.design(md.LDP(1.0), prior, method="column_generation", gap=1e-6)
    report = design.column_generation
    kappa = one_output_maximum(1.0)
    assert report.status == "optimal"
    assert report.mips == 0
    assert report.upper_bound == pytest.approx(kappa, rel=1e-9)
    kernel = np.asarray(design.mechanism.matrix)
    information = mutual_information_by_hand(prior, kernel)
    assert kappa - 1e-6 <= information <= kappa + 1e-12
    # ε-LDP by hand: within every column, no two inputs' probabilities differ by more
    # than a factor e (up to the audit's tolerance).
    assert np.all(kernel.max(axis=0) <= math.e * kernel.min(axis=0) * (1 + 1e-9))


@pytest.mark.parametrize(("call", "name"), [
    (lambda: balanced_arcs(np.array([0.5, 0.6]), 0.3, 1, 1), "prior"),
    (lambda: balanced_arcs(np.full(4, 0.25), float("nan"), 1, 3), "mass"),
    (lambda: balanced_arcs(np.full(4, 0.25), 1.5, 1, 3), "mass"),
    (lambda: balanced_arcs(np.full(4, 0.25), 0.3, 0, 3), "k_min"),
    (lambda: balanced_arcs(np.full(4, 0.25), 0.3, 3, 2), "k_max"),
    (lambda: ldp_information_bound(float("nan")), "epsilon"),
])
def test_bad_input_is_refused_by_name(call, name):
    with pytest.raises(md.InvalidInputError, match=name):
        call()


def test_arcs_of_a_prior_with_tiny_masses():
    """Masses of 1e-300 next to order-one ones: every arc is still a valid pattern."""
    prior = np.array([1e-300, 0.5, 1e-300, 0.5 - 2e-300])
    arcs = balanced_arcs(prior, 0.3, 1, 3)
    assert arcs.shape[1] == 4
    assert np.all((arcs.sum(axis=1) >= 1) & (arcs.sum(axis=1) <= 3))


@pytest.fixture(params=["enumeration", "mips"])
def pricing_by(request, monkeypatch):
    """Exact pricing of small families by enumerating their patterns (the default), or
    with enumeration switched off by their MIPs; the brute-force tests check both."""
    if request.param == "mips":
        monkeypatch.setattr(patterns_module, "ENUMERATED_PRICING_MAX_PATTERNS", 0)
    return request.param


def priced_by(pricing, pricing_by) -> bool:
    """Whether the pricing took the path the fixture chose (no MIP when enumerated)."""
    return (pricing.mips == 0) == (pricing_by == "enumeration")


def brute_force_best(vertices, prior, dual):
    return float(np.max(mutual_information_of_columns(prior, vertices) - vertices @ dual))


# The instance on which pricing by sorted orders fails (the objective is concave in P(B)):
# the best set is {0} (reduced cost 0.10860), sorted orders return {0, 1} (0.09744).
COUNTEREXAMPLE = (
    2.203639571715931,
    np.array([0.21890661, 0.02474646, 0.54764933, 0.15481097, 0.0, 0.05388663]),
    np.array([-0.01294416, -0.06746195, 0.04670742, 0.03309781, 0.14247482, -0.00469684]),
)


def random_instances(count, seed, sizes=(2, 9)):
    rng = np.random.default_rng(seed)
    for t in range(count):
        n = int(rng.integers(*sizes))
        eps = float(rng.uniform(0.05, 4))
        p = rng.dirichlet(np.ones(n) * rng.uniform(0.2, 2))
        if t % 4 == 0:
            p[rng.integers(n)] = 0
            p = p / p.sum()
        yield eps, p, rng.normal(size=n) * rng.uniform(0.01, 1)


@pytest.mark.parametrize(
    ("epsilon", "prior", "dual"),
    [COUNTEREXAMPLE, *random_instances(40, seed=7), *random_instances(6, 8, (9, 13))],
)
def test_exact_ldp_pricing_agrees_with_brute_force(epsilon, prior, dual, pricing_by):
    pricing = price_ldp(epsilon, prior, dual)
    best = brute_force_best(ldp_vertices_by_bits(epsilon, len(prior)), prior, dual)
    assert pricing.exact
    assert priced_by(pricing, pricing_by)
    assert pricing.reduced_cost == pytest.approx(best, abs=1e-10)
    assert best <= pricing.upper_bound + 1e-12
    assert pricing.upper_bound <= best + 1e-9
    # The returned column is a vertex and its reduced cost is what the source says.
    v = pricing.column
    assert np.min(np.abs(ldp_vertices_by_bits(epsilon, len(prior)) - v).max(axis=1)) < 1e-14
    assert (mutual_information_of_columns(prior, v[None])[0] - v @ dual
            == pytest.approx(pricing.reduced_cost, abs=1e-12))


def test_counterexample_best_set_is_a_singleton(pricing_by):
    pricing = price_ldp(*COUNTEREXAMPLE)
    assert priced_by(pricing, pricing_by)
    assert np.argmax(pricing.column) == 0
    assert np.sum(pricing.column == pricing.column.max()) == 1
    assert pricing.reduced_cost == pytest.approx(0.10860, abs=1e-5)


def c_pml_instances(count, seed, sizes, backend):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        n = int(rng.integers(*sizes))
        eps = float(rng.choice([0.2, 1.0, 2.5]))
        c = float(rng.choice([1.0, 0.5, 0.1, 1e-3])) / n
        prior = rng.dirichlet(np.ones(n))
        yield pytest.param(eps, c, prior, rng.normal(size=n) * 0.1, backend,
                           id=f"n{n}-eps{eps}-cn{c * n:g}-{backend}")


@pytest.mark.parametrize(
    ("epsilon", "c", "prior", "dual", "backend"),
    [*c_pml_instances(24, 11, (2, 9), "cdd"), *c_pml_instances(6, 12, (9, 13), "closed_form")],
)
def test_exact_c_pml_pricing_agrees_with_brute_force(epsilon, c, prior, dual, backend,
                                                    pricing_by):
    notion = md.PML(epsilon, c=c)
    n = len(prior)
    vertices = notion.cone(n).vertices(backend).points
    best = brute_force_best(vertices, prior, dual)
    pricing = PatternSource(notion, prior).price(dual)
    assert priced_by(pricing, pricing_by)
    assert pricing.reduced_cost == pytest.approx(best, abs=1e-10)
    assert best <= pricing.upper_bound + 1e-12
    assert pricing.upper_bound <= best + 1e-9
    # Every column the source returns lies in the section.
    h = notion.cone(n).h_representation()
    assert np.all(pricing.columns @ h.T >= -1e-12)
    assert np.allclose(pricing.columns.sum(axis=1), 1.0)


def test_pricing_at_a_hard_dual_agrees_with_brute_force(pricing_by):
    # The dual at the optimum: every basic column has reduced cost 0 and many others
    # are close, the regime where branch and bound works hardest.
    n, eps = 10, 1.0
    prior = np.random.default_rng(3).dirichlet(np.ones(n))
    design = md.design(md.LDP(eps), prior)
    vertices = ldp_vertices_by_bits(eps, n)
    dual = _optimal_dual(vertices, prior)
    best = brute_force_best(vertices, prior, dual)
    pricing = price_ldp(eps, prior, dual)
    assert priced_by(pricing, pricing_by)
    assert abs(best) < 1e-9  # dual feasible and tight
    assert pricing.reduced_cost == pytest.approx(best, abs=1e-10)
    assert dual.sum() == pytest.approx(design.utility, abs=1e-9)


def _optimal_dual(vertices, prior):
    values = mutual_information_of_columns(prior, vertices)
    _, _, dual = solve_vertex_lp(vertices, values, None)
    return dual


def test_heuristic_columns_lie_in_the_section_with_their_reduced_costs():
    rng = np.random.default_rng(5)
    prior = rng.dirichlet(np.ones(7))
    dual = rng.normal(size=7) * 0.05
    for notion in (md.LDP(0.9), md.PML(0.9, c=0.05)):
        pricing = PatternSource(notion, prior).heuristic(dual)
        if isinstance(notion, md.LDP):  # one family, no relaxation bound
            assert not pricing.exact
            assert math.isinf(pricing.upper_bound)
        else:  # the families' relaxation bounds, certified: checked against cddlib below
            assert pricing.exact
        h = notion.cone(7).h_representation()
        assert np.all(pricing.columns @ h.T >= -1e-12)
        recomputed = mutual_information_of_columns(prior, pricing.columns) - pricing.columns @ dual
        assert np.allclose(recomputed, pricing.reduced_costs, atol=1e-12)
        assert np.all(np.diff(pricing.reduced_costs) <= 0)


def test_ldp_column_is_a_closed_form_vertex():
    cone = md.LDP(1.1).cone(4)
    vertices = ldp_cone_vertices(cone)
    for code in range(1, 15):
        b = np.array([(code >> i) & 1 for i in range(4)], dtype=bool)
        v = ldp_column(1.1, b)
        assert np.min(np.abs(vertices - v).max(axis=1)) < 1e-15


@pytest.mark.parametrize(("epsilon", "p_hat", "ball", "shape"), list(robust_instances()))
def test_non_robust_pricing_agrees_with_brute_force(epsilon, p_hat, ball, shape):
    notion = md.notions.NonRobustLDP(epsilon, p_hat, shape)
    vertices = notion.cone(p_hat.size).vertices("cdd").points
    source = PatternSource(notion, p_hat)
    for dual in np.random.default_rng(1).normal(size=(4, p_hat.size)) * 0.1:
        best = brute_force_best(vertices, p_hat, dual)
        pricing = source.price(dual)
        assert pricing.reduced_cost == pytest.approx(best, abs=1e-10)
        assert best <= pricing.upper_bound + 1e-12
        assert pricing.upper_bound <= best + 1e-9


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(2, 6),
    epsilon=st.floats(0.05, 4.0),
    seed=st.integers(0, 2**32 - 1),
    scale=st.floats(1e-3, 1.0),
)
def test_dual_bound_holds_for_every_dual(n, epsilon, seed, scale):
    # Weak duality behind the certificate: for ANY λ, OPT ≤ 1·λ + N max(0, max_v r(v)),
    # and the exact source's upper bound may replace max_v r(v).
    rng = np.random.default_rng(seed)
    prior = rng.dirichlet(np.ones(n))
    dual = rng.normal(size=n) * scale
    optimum = md.design(md.LDP(epsilon), prior).utility
    vertices = ldp_vertices_by_bits(epsilon, n)
    best = brute_force_best(vertices, prior, dual)
    assert optimum <= dual.sum() + n * max(0.0, best) + 1e-10
    pricing = price_ldp(epsilon, prior, dual)
    assert optimum <= dual.sum() + n * max(0.0, pricing.upper_bound) + 1e-10


def test_new_public_functions_refuse_bad_input():
    prior = np.full(4, 0.25)
    with pytest.raises(md.InvalidInputError, match="abs_gap"):
        PatternSource(md.LDP(1.0), prior).price(np.zeros(4), abs_gap=-1.0)
    with pytest.raises(md.InvalidInputError, match="time_limit"):
        run_column_generation(PatternSource(md.LDP(1.0), prior), gap=1e-6, time_limit=-1)
    with pytest.raises(md.InvalidInputError, match="max_iterations"):
        run_column_generation(PatternSource(md.LDP(1.0), prior), gap=1e-6, max_iterations=0)
    ball = md.RenyiBall(prior, 2.0, 0.01)
    source = LinearisationSource(md.RobustLDP(1.0, ball, (2, 2)), prior)
    with pytest.raises(md.InvalidInputError, match="dual"):
        source.heuristic(np.zeros(3))
    with pytest.raises(md.InvalidInputError, match="effort"):
        source.heuristic(np.zeros(4), effort=0)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 70), st.integers(1, 40), st.integers(0, 2**32 - 1))
def test_unique_patterns_is_numpys_unique_rows_in_the_same_order(n, m, seed):
    from mechdesign.optimal.patterns import unique_patterns

    rng = np.random.default_rng(seed)
    z = rng.random((m, n)) < rng.random()
    z = np.vstack([z, z[rng.integers(0, m, size=m)]])  # duplicates
    expected, first = np.unique(z, axis=0, return_index=True)
    got, got_first = unique_patterns(z, return_index=True)
    assert got.dtype == np.bool_
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(got_first, first)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["ldp", "pml"]), st.integers(3, 12), st.floats(0.2, 4.0),
       st.integers(0, 2**32 - 1))
def test_incremental_neighbour_costs_equal_the_explicit_neighbours(kind, n, eps, seed):
    """neighbour_moves (sums updated bit by bit) against neighbours() materialised,
    filtered by feasible() and scored by reduced_costs() on the whole matrix."""
    from mechdesign.optimal.patterns import pattern_families

    rng = np.random.default_rng(seed)
    prior = rng.dirichlet(np.ones(n))
    notion = md.LDP(eps) if kind == "ldp" else md.PML(eps, 1 / (2 * n))
    _, families, _ = pattern_families(notion, prior)
    dual = rng.normal(size=n)
    for family in families:
        for z in family.candidates(dual)[:: max(1, len(family.candidates(dual)) // 5)]:
            explicit = family.neighbours(z)
            remove, add, costs = family.neighbour_moves(z, dual)
            moved = family._moved(z, remove, add)
            np.testing.assert_array_equal(moved, explicit)
            np.testing.assert_allclose(costs, family.reduced_costs(explicit, dual),
                                       rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_repeated_pricing_skips_families_and_stays_exact(seed, monkeypatch):
    """One source priced by MIPs at a sequence of nearby duals (as in column
    generation) skips the families its carried-over bounds rule out, and still returns
    brute force's best reduced cost and a bound above it at every dual."""
    monkeypatch.setattr(patterns_module, "ENUMERATED_PRICING_MAX_PATTERNS", 0)
    rng = np.random.default_rng(seed)
    n = 9
    notion = md.PML(1.0, c=1 / (2 * n))
    prior = rng.dirichlet(np.ones(n))
    vertices = notion.cone(n).vertices("cdd").points
    source = PatternSource(notion, prior)
    dual = rng.normal(size=n) * 0.1
    mips = []
    for _ in range(6):
        pricing = source.price(dual)
        best = brute_force_best(vertices, prior, dual)
        assert pricing.reduced_cost == pytest.approx(best, abs=1e-10)
        assert best <= pricing.upper_bound + 1e-12
        mips.append(pricing.mips)
        dual = dual + rng.normal(size=n) * 1e-3
    assert min(mips[1:]) < mips[0]  # later prices skip families


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["ldp", "pml"]), st.integers(3, 16), st.integers(0, 2**32 - 1))
def test_family_moves_are_the_generic_moves_bit_for_bit(kind, n, seed):
    """Each family's own neighbour scan (two-level, three-level) gives the generic
    scan's moves and costs exactly (the same arithmetic), so a design's path does not
    change with it."""
    from mechdesign.optimal.patterns import _Family, pattern_families

    rng = np.random.default_rng(seed)
    prior = rng.dirichlet(np.ones(n))
    notion = md.LDP(1.0) if kind == "ldp" else md.PML(1.0, 1 / (2 * n))
    _, families, _ = pattern_families(notion, prior)
    dual = rng.normal(size=n)
    own_scans = [f for f in families if type(f).neighbour_moves is not _Family.neighbour_moves]
    assert own_scans
    for family in own_scans:
        for z in family.candidates(dual)[:5]:
            own = family.neighbour_moves(z, dual)
            generic = _Family.neighbour_moves(family, z, dual)
            for mine, theirs in zip(own, generic, strict=True):
                np.testing.assert_array_equal(mine, theirs)


def notions(n: int):
    return st.one_of(
        st.floats(0.2, 4.0).map(md.LDP),
        st.floats(0.3, 3.0).map(lambda eps: md.PML(eps, c=1 / (2 * n))),
    )


def two_level_families(source):
    return [f for f in source.families if type(f).__name__ == "TwoLevelFamily"]


def every_pattern(family):
    z = np.array(list(itertools.product([False, True], repeat=family.n_bin)))
    return z[family.feasible(z)]


@settings(max_examples=30, deadline=None)
@given(data=st.data(), n=st.integers(2, 9), seed=st.integers(0, 2**16))
def test_enumerated_patterns_are_every_feasible_pattern(data, n, seed):
    """A family's enumeration (what its exact pricing scores when small) is exactly the
    set of binary vectors its constraints admit, each once, and as many as it counts."""
    prior = np.random.default_rng(seed).dirichlet(np.ones(n))
    source = PatternSource(data.draw(notions(n)), prior)
    for family in source.families:
        enumerated = family.all_patterns()
        assert enumerated.shape == (family.pattern_count(), family.n_bin)
        assert np.unique(enumerated, axis=0).shape[0] == enumerated.shape[0]
        expected = every_pattern(family)
        assert sorted(map(bytes, enumerated)) == sorted(map(bytes, expected))


@pytest.mark.parametrize("kind", ["ldp", "pml"])
def test_one_dinkelbach_step_says_whether_it_converged(kind, pricing_by):
    """``converge=False``: by enumeration the pricing is the converged one and says so;
    by MIPs it says it may not be, and its bound still holds brute force's best."""
    rng = np.random.default_rng(5)
    n = 9
    notion = md.LDP(1.0) if kind == "ldp" else md.PML(1.0, c=1 / (2 * n))
    prior = rng.dirichlet(np.ones(n))
    dual = prior * 0.38 + rng.normal(size=n) * 0.05
    best = brute_force_best(notion.cone(n).vertices("cdd").points, prior, dual)
    one = PatternSource(notion, prior).price(dual, converge=False)
    full = PatternSource(notion, prior).price(dual, converge=True)
    assert full.converged
    assert one.converged == (pricing_by == "enumeration")
    assert best - 1e-12 <= full.upper_bound <= best + 1e-8
    assert best - 1e-12 <= one.upper_bound
    if one.converged:
        assert one.upper_bound == pytest.approx(full.upper_bound, abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(data=st.data(), n=st.integers(3, 9), seed=st.integers(0, 2**16))
def test_the_relaxed_bound_bounds_every_pattern(data, n, seed):
    rng = np.random.default_rng(seed)
    prior = rng.dirichlet(np.ones(n))
    source = PatternSource(data.draw(notions(n)), prior)
    dual = prior * rng.uniform(0.0, 1.0) + rng.normal(size=n) * 0.05
    bounds = source.relaxed_bounds(dual)
    for family, bound in zip(source.families, bounds, strict=True):
        best = family.reduced_costs(every_pattern(family), dual).max()
        assert bound >= best - 1e-13
        assert family.relaxed_bound(dual) == pytest.approx(bound, rel=1e-12, abs=1e-15)


def entropy_term(t: float) -> float:
    return t * np.log(t) if t > 0 else 0.0


def relaxation_by_cvxpy(family, dual) -> float:
    """``max_k max_{z ∈ [0,1]^N, Σz = k} R(z) / D_k``, with ``R`` written out from the
    family's levels: ``u = low + (high − low) z``."""
    prior = family.prior
    low = float(family.base[0])
    step = float(family.moves[0, 0])
    n = prior.size
    best = -np.inf
    for k in range(family.k_min, family.k_max + 1):
        z = cp.Variable(n)
        u = low + step * z
        # Σ P u log u is affine in z for a two-level u (each u_x moves between two
        # values): P_x [G(low) + z_x (G(high) − G(low))].
        change = entropy_term(low + step) - entropy_term(low)
        entropy = prior @ (entropy_term(low) + change * z)
        objective = entropy + cp.entr(prior @ u) - dual @ u
        problem = cp.Problem(cp.Maximize(objective), [z >= 0, z <= 1, cp.sum(z) == k])
        problem.solve()
        best = max(best, problem.value / (n * low + step * k))
    return best


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("kind", ["ldp", "pml"])
def test_the_relaxed_bound_is_the_relaxation_optimum(seed, kind):
    """Weak duality makes it a bound; the bisection makes it the relaxation's optimum
    (strong duality), to the conic solver's accuracy."""
    rng = np.random.default_rng(seed)
    n = 7
    prior = rng.dirichlet(np.ones(n))
    notion = md.LDP(1.5) if kind == "ldp" else md.PML(1.0, c=1 / (2 * n))
    source = PatternSource(notion, prior)
    dual = prior * 0.3 + rng.normal(size=n) * 0.02
    families = two_level_families(source)
    assert families
    for family in families[:3]:
        assert family.relaxed_bound(dual) == pytest.approx(
            relaxation_by_cvxpy(family, dual), abs=1e-6)


def test_three_level_bounds_are_tight_where_the_relaxation_is():
    """The three-level family (zeros, ``top`` on ``T``, ``free`` on one input) is bounded
    too, and with a uniform prior and a dual proportional to it every pattern is alike,
    so the bound meets the best pattern (up to the rounding slack)."""
    n = 9
    prior = np.full(n, 1 / n)
    source = PatternSource(md.PML(1.0, c=1 / (2 * n)), prior)
    three = [f for f in source.families if type(f).__name__ == "_ThreeLevel"]
    assert three
    dual = 0.3 * prior
    for family in three:
        best = family.reduced_costs(every_pattern(family), dual).max()
        assert best - 1e-13 <= family.relaxed_bound(dual) <= best + 1e-9


@pytest.mark.parametrize("seed", range(3))
def test_pml_pricing_with_relaxations_matches_brute_force(seed, pricing_by):
    """Families ruled out by their relaxation are skipped; the pricing's best column and
    bound still agree with brute force over cddlib's vertices."""
    rng = np.random.default_rng(seed)
    n = 9
    notion = md.PML(1.0, c=1 / (2 * n))
    prior = rng.dirichlet(np.ones(n))
    vertices = notion.cone(n).vertices("cdd").points
    values = np.array([
        float(prior @ (v * np.log(np.where(v > 0, v, 1.0) / (prior @ v)))) for v in vertices
    ])
    source = PatternSource(notion, prior)
    for _ in range(3):
        dual = prior * 0.38 + rng.normal(size=n) * 0.01
        pricing = source.price(dual)
        assert pricing.mips == 0 or pricing_by == "mips"
        best = float(np.max(values - vertices @ dual))
        assert pricing.reduced_cost == pytest.approx(best, abs=1e-10)
        assert best <= pricing.upper_bound + 1e-12


@settings(max_examples=30, deadline=None)
@given(n=st.integers(3, 8), epsilon=st.floats(0.3, 3.0), seed=st.integers(0, 2**16),
       spread=st.floats(0.0, 0.2))
def test_the_heuristic_bound_of_pml_bounds_every_vertex(n, epsilon, seed, spread):
    """The heuristic's certified bound (its families' relaxation bounds, which column
    generation takes into the bracket at every iteration) is at least the best reduced
    cost over every vertex cddlib enumerates, at duals near and far from optimal."""
    rng = np.random.default_rng(seed)
    notion = md.PML(epsilon, c=1 / (2 * n))
    prior = rng.dirichlet(np.ones(n))
    vertices = notion.cone(n).vertices("cdd").points
    vertices = vertices / vertices.sum(axis=1, keepdims=True)
    values = mutual_information_of_columns(prior, vertices)
    dual = prior * rng.uniform(0.0, 1.0) + rng.normal(size=n) * spread
    source = PatternSource(notion, prior)
    pricing = source.heuristic(dual)
    best = float(np.max(values - vertices @ dual))
    # one family (the simplex's unit vectors once e^ε c ≥ 1): priced whole, no bound
    assert pricing.exact == (len(source.families) > 1)
    assert best <= pricing.upper_bound + 1e-12
    assert pricing.reduced_cost <= best + 1e-12  # its columns are vertices


@pytest.mark.parametrize("seed", range(3))
def test_partial_heuristic_pricing_keeps_the_best_columns(seed):
    """The heuristic prices families in order of their relaxation bound and stops where
    none left can place a column among the 64 best: those 64 are the ones pricing every
    family finds."""
    rng = np.random.default_rng(seed)
    n = 24
    prior = rng.dirichlet(np.ones(n))
    notion = md.PML(1.0, c=1 / (2 * n))
    partial = PatternSource(notion, prior)
    full = PatternSource(notion, prior)
    full.partial_pricing = False
    for scale in (0.3, 0.36, 0.38):
        dual = prior * scale + rng.normal(size=n) * 1e-3
        some, every = partial.heuristic(dual), full.heuristic(dual)
        count = min(64, every.reduced_costs.size)
        assert some.reduced_costs.size >= count
        np.testing.assert_allclose(some.reduced_costs[:count], every.reduced_costs[:count],
                                   rtol=0, atol=1e-14)


def class_priors(count, seed, sizes=(3, 12)):
    """Priors whose inputs fall into classes of equal mass, with an ε and a dual."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        n = int(rng.integers(*sizes))
        labels = rng.integers(0, int(rng.integers(1, n)), size=n)
        masses = rng.uniform(0.1, 1.0, size=n)[labels]
        yield float(rng.uniform(0.1, 4.0)), masses / masses.sum(), rng.normal(size=n) * 0.1


@pytest.mark.parametrize(("epsilon", "prior", "dual"), list(class_priors(30, seed=41)))
def test_count_pricing_agrees_with_brute_force(epsilon, prior, dual):
    # Equal masses make inputs interchangeable: pricing by count vectors is exact, in the
    # heuristic as in the exact pricing, against every vertex.
    source = PatternSource(md.LDP(epsilon), prior)
    assert source.families[0].classes is not None
    vertices = ldp_vertices_by_bits(epsilon, len(prior))
    best = brute_force_best(vertices, prior, dual)
    for pricing in (source.price(dual), source.heuristic(dual)):
        assert pricing.exact
        assert best <= pricing.upper_bound <= best + 1e-10  # raised for rounding only
        assert pricing.reduced_cost == pytest.approx(best, abs=1e-12)
        recomputed = mutual_information_of_columns(prior, pricing.columns) - (
            pricing.columns @ dual)
        assert np.allclose(recomputed, pricing.reduced_costs, atol=1e-12)
        assert np.all(np.abs(pricing.columns[:, None, :] - vertices[None]).max(axis=2).min(
            axis=1) < 1e-14)


@pytest.mark.parametrize(("epsilon", "prior", "dual"), list(class_priors(12, seed=43)))
def test_the_symmetric_dual_is_optimal_over_every_vertex(epsilon, prior, dual):
    # The dual of the LP reduced by symmetry is feasible for every vertex and its
    # objective is the optimum of the LP over every vertex.
    source = PatternSource(md.LDP(epsilon), prior)
    lam, bound = source.certified_dual()
    vertices = ldp_vertices_by_bits(epsilon, len(prior))
    values = mutual_information_of_columns(prior, vertices)
    _, solution, _ = solve_vertex_lp(vertices, values, None)
    assert bound == pytest.approx(solution.objective, abs=1e-10)
    assert np.max(values - vertices @ lam) <= 1e-10


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 7), min_size=1, max_size=4), st.data())
def test_orbit_patterns_cover_each_class_evenly(sizes, data):
    n = sum(sizes)
    if n < 2:
        return
    prior = np.concatenate([np.full(s, (i + 1.0) / s) for i, s in enumerate(sizes)])
    prior = prior / prior.sum()
    family = PatternSource(md.LDP(1.0), prior).families[0]
    if family.classes is None:  # every input its own mass: nothing to pattern
        return
    count = np.array([data.draw(st.integers(0, len(c))) for c in family.classes])
    z = family.orbit_patterns(count)
    split = [len(c) for c, k in zip(family.classes, count, strict=True) if 0 < k < len(c)]
    even = not split or math.lcm(*split) <= n  # the period the patterns promise
    for members, m in zip(family.classes, count, strict=True):
        assert np.all(z[:, members].sum(axis=1) == m)  # every pattern has the counts
        covered = z[:, members].sum(axis=0)
        assert not even or np.all(covered == covered[0])  # each input equally often


@pytest.mark.parametrize(("epsilon", "c", "prior", "dual", "backend"),
                         [*c_pml_instances(30, 8, (3, 9), "cdd")])
def test_the_proportional_dual_of_c_pml_bounds_every_vertex(epsilon, c, prior, dual, backend):
    # (ε, c)-PML has no closed-form information bound; the best λ = a P under the
    # families' relaxation bounds is its bound for a bracket left open. Brute force over
    # cddlib's vertices: the bound it states is at least 1·λ + N max(0, max_v r(v)),
    # hence at least the optimum over every vertex; upper_bound offers the smaller of it
    # and H(X).
    del dual  # the instances' random duals are for the pricing tests
    notion = md.PML(epsilon, c=c)
    n = prior.size
    source = PatternSource(notion, prior)
    lam, bound = source.proportional_dual()
    ratio = lam / prior
    assert np.ptp(ratio) <= 1e-12 * max(1.0, abs(ratio[0]))
    assert bound == pytest.approx(ratio[0] + n * max(0.0, source.relaxed_bounds(lam).max()),
                                  rel=1e-14)
    vertices = notion.cone(n).vertices(backend).points
    worst = brute_force_best(vertices, prior, lam)
    assert bound >= lam.sum() + n * max(0.0, worst) - 1e-12
    optimum = md.design(notion, prior, method="enumeration").utility
    assert optimum <= bound + 1e-12
    entropy = float(-(prior * np.log(prior)).sum())
    assert source.upper_bound(1e-6, None) == pytest.approx(min(entropy, bound), rel=1e-14)


def test_a_c_pml_design_stopped_early_reports_the_proportional_bound(monkeypatch):
    # (1, 1/(2N))-PML, Dirichlet(1) at N = 24: a design stopped after three masters
    # reports the proportional bound, within a few percent of the optimum where H(X) is
    # seven times it; a design run to the end does not need it.
    n = 24
    prior = np.random.default_rng(n).dirichlet(np.ones(n))
    notion = md.PML(1.0, c=0.5 / n)
    _, bound = PatternSource(notion, prior).proportional_dual()
    optimum = md.design(notion, prior, method="column_generation", gap=1e-8)
    assert optimum.column_generation.status == "optimal"
    assert optimum.utility <= bound + 1e-12
    assert bound <= 1.05 * optimum.utility
    run = pipeline.run_column_generation
    monkeypatch.setattr(pipeline, "run_column_generation",
                        lambda *args, **kwargs: run(*args, **kwargs, max_iterations=3))
    stopped = md.design(notion, prior, method="column_generation", gap=1e-8)
    report = stopped.column_generation
    assert report.status == "feasible"
    assert report.upper_bound <= bound * (1 + 1e-12)
    assert report.lower_bound <= optimum.utility + 1e-12


class _Ticks:
    """A clock that reads 1, 2, 3, … seconds (``perf_counter`` only)."""

    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        self.now += 1.0
        return self.now


@pytest.mark.parametrize("epsilon", [1.0, 4.0])
def test_a_pricing_mip_past_its_deadline_starts_no_cut_round(epsilon, monkeypatch):
    """Exact pricing adds tangent cuts of ``G(s) = s log s`` in rounds, one MIP each;
    once the deadline has passed no round starts, and the bound of the MIP with fewer
    cuts is still an upper bound (looser or equal). Time is a clock that advances one
    second a reading: the deadline falls between the first MIP and the second."""
    from mechdesign.optimal import patterns

    prior = np.random.default_rng(12).dirichlet(np.ones(12))
    dual = -prior * np.log(prior) * 0.9

    def family():
        return PatternSource(md.LDP(epsilon), prior).families[0]

    _, full_bound, full_mips, _ = family()._max_linearised(dual, 0.0, None, 1e-9)
    assert full_mips >= 2  # without a deadline the cuts take more than one round
    monkeypatch.setattr(patterns, "time", _Ticks())
    # The first reading (1) gives the MIP 0.5 s, the next (2) is past the deadline.
    _, bound, mips, _ = family()._max_linearised(dual, 0.0, None, 1e-9, deadline=1.5)
    assert mips == 1
    assert bound >= full_bound - 1e-9
