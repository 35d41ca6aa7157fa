"""Column generation (issue 7): exact pricing against brute force over every vertex
(cddlib's vertices up to N = 8, the closed forms up to N = 12), column-generation designs
against full enumeration, the certificate, and the refusals."""

from __future__ import annotations

import itertools
import math
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import minimize_scalar

import mechdesign as md
from mechdesign.notions import ldp_cone_vertices
from mechdesign.optimal import (
    GainPricingOracle,
    LinearisationOracle,
    Pricing,
    PricingOracle,
    RestrictedMaster,
    ldp_column,
    price_ldp,
    run_column_generation,
    solve_master,
    solve_vertex_lp,
)
from mechdesign.optimal.master import column_key
from mechdesign.optimal.sources import MASTER_COLUMNS_PER_INPUT
from mechdesign.status import Status


def mutual_information_of_columns(prior, columns):
    """μ(v) = Σ_x P_x v_x log(v_x / P·v) from the definition, one column at a time."""
    out = []
    for v in columns:
        p_y = prior @ v
        out.append(sum(prior[x] * v[x] * math.log(v[x] / p_y)
                       for x in range(len(prior)) if prior[x] > 0 and v[x] > 0))
    return np.array(out)


def brute_force_best(vertices, prior, dual):
    return float(np.max(mutual_information_of_columns(prior, vertices) - vertices @ dual))


def ldp_vertices_by_bits(epsilon, n):
    rows = []
    for bits in itertools.product([False, True], repeat=n):
        b = np.array(bits)
        if b.all() or not b.any():
            continue
        v = np.where(b, np.exp(epsilon), 1.0)
        rows.append(v / v.sum())
    return np.array(rows)


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
def test_exact_ldp_pricing_agrees_with_brute_force(epsilon, prior, dual):
    pricing = price_ldp(epsilon, prior, dual)
    best = brute_force_best(ldp_vertices_by_bits(epsilon, len(prior)), prior, dual)
    assert pricing.exact
    assert pricing.reduced_cost == pytest.approx(best, abs=1e-10)
    assert best <= pricing.upper_bound + 1e-12
    assert pricing.upper_bound <= best + 1e-9
    # The returned column is a vertex and its reduced cost is what the oracle says.
    v = pricing.column
    assert np.min(np.abs(ldp_vertices_by_bits(epsilon, len(prior)) - v).max(axis=1)) < 1e-14
    assert (mutual_information_of_columns(prior, v[None])[0] - v @ dual
            == pytest.approx(pricing.reduced_cost, abs=1e-12))


def test_counterexample_best_set_is_a_singleton():
    pricing = price_ldp(*COUNTEREXAMPLE)
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
def test_exact_c_pml_pricing_agrees_with_brute_force(epsilon, c, prior, dual, backend):
    notion = md.PML(epsilon, c=c)
    n = len(prior)
    vertices = notion.cone(n).vertices(backend).points
    best = brute_force_best(vertices, prior, dual)
    pricing = PricingOracle(notion, prior).price(dual)
    assert pricing.reduced_cost == pytest.approx(best, abs=1e-10)
    assert best <= pricing.upper_bound + 1e-12
    assert pricing.upper_bound <= best + 1e-9
    # Every column the oracle returns lies in the section.
    h = notion.cone(n).h_representation()
    assert np.all(pricing.columns @ h.T >= -1e-12)
    assert np.allclose(pricing.columns.sum(axis=1), 1.0)


def test_pricing_at_a_hard_dual_agrees_with_brute_force():
    # The dual at the optimum: every basic column has reduced cost 0 and many others
    # are close, the regime where branch and bound works hardest.
    n, eps = 10, 1.0
    prior = np.random.default_rng(3).dirichlet(np.ones(n))
    design = md.design(md.LDP(eps), prior)
    vertices = ldp_vertices_by_bits(eps, n)
    dual = _optimal_dual(vertices, prior)
    best = brute_force_best(vertices, prior, dual)
    pricing = price_ldp(eps, prior, dual)
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
        pricing = PricingOracle(notion, prior).heuristic(dual)
        assert not pricing.exact
        assert math.isinf(pricing.upper_bound)
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


CG_CASES = [
    *[(md.LDP(eps), n) for n in (3, 5, 8, 12) for eps in (0.3, 1.0, 2.5)],
    *[(md.PML(eps, c=cn / n), n) for n in (3, 6, 9, 12) for eps in (0.5, 2.0)
      for cn in (0.9, 0.3)],
]


@pytest.mark.parametrize(("notion", "n"), CG_CASES, ids=repr)
def test_column_generation_matches_enumeration(notion, n):
    prior = np.random.default_rng(n).dirichlet(np.ones(n))
    full = md.design(notion, prior)
    cg = md.design(notion, prior, method="column_generation", gap=1e-9)
    report = cg.column_generation
    assert cg.utility == pytest.approx(full.utility, abs=1e-9)
    assert report.status == "optimal"
    assert report.exact_pricing
    # The certified bracket contains the enumerated optimum.
    assert report.lower_bound - 1e-12 <= full.utility <= report.upper_bound + 1e-11
    assert report.gap <= 1e-9 * max(1.0, report.lower_bound)
    gaps = [upper - lower for lower, upper in report.history]
    assert all(b <= a + 1e-12 for a, b in itertools.pairwise(gaps))
    assert cg.certificate.holds
    assert cg.audit_passed
    assert cg.summary()["optimality"] == "optimal"


def test_column_generation_is_reproducible():
    prior = np.random.default_rng(1).dirichlet(np.ones(9))
    for notion in (md.LDP(0.8), md.PML(0.8, c=0.05)):
        a = md.design(notion, prior, method="column_generation")
        b = md.design(notion, prior, method="column_generation")
        assert a.utility == b.utility
        assert np.array_equal(a.mechanism.matrix, b.mechanism.matrix)
        assert a.column_generation.history == b.column_generation.history


def test_warm_and_cold_masters_agree():
    prior = np.random.default_rng(2).dirichlet(np.ones(10))
    warm = solve_master(PricingOracle(md.LDP(1.0), prior), warm=True).report
    cold = solve_master(PricingOracle(md.LDP(1.0), prior), warm=False).report
    assert warm.lower_bound == pytest.approx(cold.lower_bound, abs=1e-10)
    assert warm.status == cold.status == "optimal"


def test_restricted_master_duals_price_its_own_columns_out():
    rng = np.random.default_rng(4)
    n = 6
    prior = rng.dirichlet(np.ones(n))
    columns = ldp_vertices_by_bits(1.0, n)
    values = mutual_information_of_columns(prior, columns)
    master = RestrictedMaster(n)
    master.add(columns[:20], values[:20])
    master.add(columns[20:], values[20:])
    theta, dual, objective = master.solve()
    assert np.all(values - columns @ dual <= 1e-9)
    assert theta @ values == pytest.approx(objective, abs=1e-12)
    assert dual.sum() == pytest.approx(objective, abs=1e-9)


def test_time_limit_gives_a_feasible_status(monkeypatch):
    prior = np.random.default_rng(0).dirichlet(np.ones(24))
    _install_fake_clock(monkeypatch)  # one second per reading: the limit is 10 readings
    design = md.design(md.LDP(1.0), prior, method="column_generation", time_limit=10.0)
    report = design.column_generation
    assert report.status is Status.FEASIBLE
    assert report.gap > 0
    assert report.lower_bound <= report.upper_bound
    assert design.audit_passed


class _FakeClock:
    """A clock that advances ``tick`` seconds at every reading, whatever the machine's
    load: a time limit then stops a run after a fixed number of readings. Everything but
    ``perf_counter`` and ``monotonic`` is the real :mod:`time`."""

    def __init__(self, tick: float) -> None:
        self.now, self.tick = 0.0, tick

    def perf_counter(self) -> float:
        self.now += self.tick
        return self.now

    monotonic = perf_counter

    def __getattr__(self, name: str):
        import time

        return getattr(time, name)


def _install_fake_clock(monkeypatch, tick: float = 1.0) -> _FakeClock:
    """Replace ``time`` by a :class:`_FakeClock` in every loaded mechdesign module that
    reads it (pipeline, column generation, master, pricing, HiGHS wrapper)."""
    import time

    clock = _FakeClock(tick)
    for name, module in list(sys.modules.items()):
        if name.startswith("mechdesign") and getattr(module, "time", None) is time:
            monkeypatch.setattr(module, "time", clock)
    return clock


@pytest.mark.slow
@pytest.mark.parametrize(("notion", "n", "limit"), [("ldp", 48, 50.0), ("pml", 24, 50.0)])
def test_a_time_limit_that_expires_mid_run_returns_the_best_certified_bracket(
        notion, n, limit, monkeypatch):
    """A time limit stops the run, and what comes back is the best mechanism found,
    audited, with a bracket that contains the optimum of an unlimited run. Time is a
    fake clock, one second per reading: the limit is 50 readings, a fraction of the
    400-500 an unlimited run takes, on any machine (HiGHS's own limits, the seconds left
    on that clock, are then never reached, so the run is the same everywhere)."""
    prior = np.random.default_rng(5).dirichlet(np.ones(n))
    chosen = md.LDP(1.0) if notion == "ldp" else md.PML(1.0, 1 / (2 * n))
    reference = md.design(chosen, prior, method="column_generation", gap=1e-6)
    ref = reference.column_generation  # ref.lower ≤ optimum ≤ ref.upper
    assert ref.status == "optimal"  # unlimited, it converges
    _install_fake_clock(monkeypatch)
    result = md.design(chosen, prior, method="column_generation", time_limit=limit)
    report = result.column_generation
    assert report.status is Status.FEASIBLE  # the limit stopped it
    assert report.gap > 0
    assert report.iterations < ref.iterations
    assert report.lower_bound <= ref.upper_bound + 1e-9  # both bracket the optimum
    assert ref.lower_bound <= report.upper_bound + 1e-9
    # Never above the bound that needs no pricing, I(X; Y) <= H(X).
    assert report.upper_bound <= -np.sum(prior * np.log(prior)) + 1e-12
    assert result.utility == pytest.approx(report.lower_bound, abs=1e-9)
    assert result.audit_passed
    assert result.certificate.holds


def test_column_generation_refusals():
    prior = np.full(4, 0.25)
    with pytest.raises(md.UnsupportedError, match="pattern"):
        md.design(md.PML(1.0, prior=prior), prior, method="column_generation")
    with pytest.raises(md.UnsupportedError, match="mutual information"):
        md.design(md.LDP(1.0), utility=md.optimal.FDivergenceUtility([0.1, 0.2, 0.3, 0.4], prior),
                  method="column_generation")
    with pytest.raises(md.InvalidInputError, match="epsilon"):
        md.design(md.LDP(0.0), prior, method="column_generation")
    with pytest.raises(md.InvalidInputError, match="method"):
        md.design(md.LDP(1.0), prior, method="simplex")
    with pytest.raises(md.InvalidInputError, match="gap"):
        md.design(md.LDP(1.0), prior, method="column_generation", gap=0.0)
    with pytest.raises(md.InvalidInputError, match="dual"):
        price_ldp(1.0, prior, [1.0, 2.0])
    with pytest.raises(md.InvalidInputError, match="pattern"):
        ldp_column(1.0, [True, True, True])


# -- robust LDP: exact non-robust pricing, heuristic PolyOpt pricing -----------------------


def robust_instances():
    rng = np.random.default_rng(21)
    for shape in [(2, 3), (3, 2), (2, 4), (3, 3)]:
        p_hat = rng.dirichlet(np.ones(shape[0] * shape[1]))
        if shape == (3, 3):
            p_hat[4] = 0.0  # a cell the estimate never saw
            p_hat /= p_hat.sum()
        n_samples = int(rng.integers(200, 2000))
        ball = md.RenyiBall(p_hat, 2.0, md.chi2_radius(n_samples, p_hat.size, 0.05))
        eps = float(rng.choice([0.5, 1.0, 2.0]))
        yield pytest.param(eps, p_hat, ball, shape, id=f"{shape}-eps{eps}")


@pytest.mark.parametrize(("epsilon", "p_hat", "ball", "shape"), list(robust_instances()))
def test_non_robust_pricing_agrees_with_brute_force(epsilon, p_hat, ball, shape):
    notion = md.notions.NonRobustLDP(epsilon, p_hat, shape)
    vertices = notion.cone(p_hat.size).vertices("cdd").points
    oracle = PricingOracle(notion, p_hat)
    for dual in np.random.default_rng(1).normal(size=(4, p_hat.size)) * 0.1:
        best = brute_force_best(vertices, p_hat, dual)
        pricing = oracle.price(dual)
        assert pricing.reduced_cost == pytest.approx(best, abs=1e-10)
        assert best <= pricing.upper_bound + 1e-12
        assert pricing.upper_bound <= best + 1e-9


@pytest.mark.parametrize(("epsilon", "p_hat", "ball", "shape"), list(robust_instances()))
def test_robust_ldp_column_generation_against_enumeration(epsilon, p_hat, ball, shape):
    nr = md.notions.NonRobustLDP(epsilon, p_hat, shape)
    nr_full = md.design(nr, p_hat)
    nr_cg = md.design(nr, p_hat, method="column_generation", gap=1e-9)
    assert nr_cg.utility == pytest.approx(nr_full.utility, abs=1e-9)
    assert nr_cg.column_generation.status == "optimal"

    polyopt = md.RobustLDP(epsilon, ball, shape)
    full = md.design(polyopt, p_hat)
    cg = md.design(polyopt, p_hat, method="column_generation")
    report = cg.column_generation
    assert report.exact_pricing
    # Exact block pricing (mechdesign.optimal.robust_blocks): a feasible design, never
    # above the optimum, bracketed by a certified bound below the non-robust relaxation's.
    assert cg.audit_passed
    assert report.lower_bound <= full.utility + 1e-9
    assert full.utility <= report.upper_bound + 1e-9
    assert report.upper_bound <= nr_full.utility + 1e-9
    assert cg.utility >= full.utility * (1 - 2e-3)
    paper = md.RobustLDP(epsilon, ball, shape, variant="paper")
    paper_cg = md.design(paper, p_hat, method="column_generation", gap=1e-9)
    assert paper_cg.column_generation.status == "optimal"
    assert paper_cg.utility == pytest.approx(md.design(paper, p_hat).utility, abs=1e-8)


def test_compact_robust_section_equals_the_ratio_cone():
    # The (v, hi, lo) section of LinearisationOracle against the H-representation of
    # PolyOpt's cone (eq. 41, every vertex pair): same LP optimum in random directions.
    from mechdesign.notions.cones import section_argmax

    rng = np.random.default_rng(8)
    shape = (3, 3)
    p_hat = rng.dirichlet(np.ones(9))
    ball = md.RenyiBall(p_hat, 2.0, md.chi2_radius(500, 9, 0.05))
    for variant in ("default", "paper"):
        notion = md.RobustLDP(1.0, ball, shape, variant=variant)
        oracle = LinearisationOracle(notion, p_hat)
        h = notion.cone(9).h_representation()
        for direction in rng.normal(size=(10, 9)):
            compact = oracle._argmax(direction)
            full = section_argmax(h, direction)
            assert direction @ compact == pytest.approx(direction @ full, abs=1e-9)
            assert np.all(compact @ h.T >= -1e-9)


def test_polyopt_section_lies_in_the_non_robust_section():
    # The relaxation behind PolyOpt's upper bound: Γ_ε ⊆ Γ_NR because P̂_U|s ∈ D_s.
    rng = np.random.default_rng(9)
    p_hat = rng.dirichlet(np.ones(8))
    ball = md.RenyiBall(p_hat, 2.0, md.chi2_radius(300, 8, 0.05))
    vertices = md.RobustLDP(0.7, ball, (2, 4)).cone(8).vertices("cdd").points
    h_nr = md.notions.NonRobustLDP(0.7, p_hat, (2, 4)).cone(8).h_representation()
    assert np.all(vertices @ h_nr.T >= -1e-12)


def test_robust_column_generation_refuses_a_different_prior():
    p_hat = np.full(4, 0.25)
    ball = md.RenyiBall(p_hat, 2.0, 0.01)
    with pytest.raises(md.UnsupportedError, match="estimate"):
        md.design(md.RobustLDP(1.0, ball, (2, 2)), [0.1, 0.2, 0.3, 0.4],
                  method="column_generation")


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(2, 6),
    epsilon=st.floats(0.05, 4.0),
    seed=st.integers(0, 2**32 - 1),
    scale=st.floats(1e-3, 1.0),
)
def test_dual_bound_holds_for_every_dual(n, epsilon, seed, scale):
    # Weak duality behind the certificate: for ANY λ, OPT ≤ 1·λ + N max(0, max_v r(v)),
    # and the exact oracle's upper bound may replace max_v r(v).
    rng = np.random.default_rng(seed)
    prior = rng.dirichlet(np.ones(n))
    dual = rng.normal(size=n) * scale
    optimum = md.design(md.LDP(epsilon), prior).utility
    vertices = ldp_vertices_by_bits(epsilon, n)
    best = brute_force_best(vertices, prior, dual)
    assert optimum <= dual.sum() + n * max(0.0, best) + 1e-10
    pricing = price_ldp(epsilon, prior, dual)
    assert optimum <= dual.sum() + n * max(0.0, pricing.upper_bound) + 1e-10


@pytest.mark.parametrize("notion", [md.LDP(1.0), md.PML(1.0, c=0.05)], ids=repr)
def test_column_generation_with_zero_probability_inputs(notion):
    # Rows of zero probability carry no utility but must still be covered by the master.
    rng = np.random.default_rng(3)
    prior = rng.dirichlet(np.ones(10))
    prior[:3] = 0
    prior /= prior.sum()
    cg = md.design(notion, prior, method="column_generation", gap=1e-9)
    assert cg.column_generation.status == "optimal"
    assert cg.utility == pytest.approx(md.design(notion, prior).utility, abs=1e-9)


def test_polyopt_column_generation_is_reproducible():
    # The heuristic's random starts come from a fixed seed.
    rng = np.random.default_rng(30)
    p_hat = rng.dirichlet(np.ones(8))
    ball = md.RenyiBall(p_hat, 2.0, md.chi2_radius(400, 8, 0.05))
    notion = md.RobustLDP(1.0, ball, (2, 4))
    a = md.design(notion, p_hat, method="column_generation")
    b = md.design(notion, p_hat, method="column_generation")
    assert a.utility == b.utility
    assert a.column_generation.history == b.column_generation.history


def test_restricted_master_and_loop_refuse_bad_input():
    master = RestrictedMaster(3)
    with pytest.raises(md.InvalidInputError, match="shape"):
        master.add(np.ones((2, 4)) / 4, np.zeros(2))
    with pytest.raises(md.InvalidInputError, match="shape"):
        master.add(np.ones((2, 3)) / 3, np.zeros(3))
    with pytest.raises(md.InvalidInputError, match="finite"):
        master.add(np.full((1, 3), np.nan), np.zeros(1))
    with pytest.raises(md.InvalidInputError, match="n"):
        RestrictedMaster(0)
    with pytest.raises(md.InvalidInputError, match="gap"):
        run_column_generation(PricingOracle(md.LDP(1.0), np.full(3, 1 / 3)), gap=float("nan"))
    with pytest.raises(md.UnsupportedError, match="RobustLDP"):
        LinearisationOracle(md.LDP(1.0), np.full(3, 1 / 3))


def test_closed_form_section_membership_matches_the_h_representations():
    # LinearisationOracle._contains and _NonRobustFamily.contains (used to surround the
    # uniform point) against the cones' full H-representations, on random points near and
    # far from the uniform one.
    rng = np.random.default_rng(12)
    p_hat = rng.dirichlet(np.ones(9))
    ball = md.RenyiBall(p_hat, 2.0, md.chi2_radius(500, 9, 0.05))
    points = [np.full(9, 1 / 9) + t * rng.normal(size=9) / 9 for t in (0.05, 0.2, 0.5)
              for _ in range(60)]
    points = [v / v.sum() for v in points]
    for variant in ("default", "paper"):
        notion = md.RobustLDP(1.0, ball, (3, 3), variant=variant)
        oracle = LinearisationOracle(notion, p_hat)
        h = notion.cone(9).h_representation()
        for v in points:
            margin = float(np.min(h @ v))
            if abs(margin) > 1e-9:
                assert oracle._contains(v) == (margin >= 0)
    nr = md.notions.NonRobustLDP(1.0, p_hat, (3, 3))
    family = PricingOracle(nr, p_hat).families[0]
    h = nr.cone(9).h_representation()
    for v in points:
        margin = float(np.min(h @ v))
        if abs(margin) > 1e-9:
            assert family.contains(v) == (margin >= 0)


def test_new_public_functions_refuse_bad_input():
    prior = np.full(4, 0.25)
    with pytest.raises(md.InvalidInputError, match="abs_gap"):
        PricingOracle(md.LDP(1.0), prior).price(np.zeros(4), abs_gap=-1.0)
    with pytest.raises(md.InvalidInputError, match="time_limit"):
        run_column_generation(PricingOracle(md.LDP(1.0), prior), gap=1e-6, time_limit=-1)
    with pytest.raises(md.InvalidInputError, match="max_iterations"):
        run_column_generation(PricingOracle(md.LDP(1.0), prior), gap=1e-6, max_iterations=0)
    ball = md.RenyiBall(prior, 2.0, 0.01)
    oracle = LinearisationOracle(md.RobustLDP(1.0, ball, (2, 2)), prior)
    with pytest.raises(md.InvalidInputError, match="dual"):
        oracle.heuristic(np.zeros(3))
    with pytest.raises(md.InvalidInputError, match="effort"):
        oracle.heuristic(np.zeros(4), effort=0)


# -- the pipeline's column sources, progress and Ctrl-C -------------------------------------


def test_sources_are_registered_by_notion_type():
    from mechdesign.notions import NonRobustLDP, SecretLDP
    from mechdesign.optimal import source_class

    ball = md.RenyiBall(np.full(4, 0.25), 2.0, 0.01)
    assert source_class(md.LDP(1.0)) is PricingOracle
    assert source_class(md.PML(1.0, c=0.1)) is PricingOracle
    assert source_class(NonRobustLDP(1.0, np.full(4, 0.25), (2, 2))) is PricingOracle
    assert source_class(md.RobustLDP(1.0, ball, (2, 2))) is LinearisationOracle
    assert source_class(SecretLDP(1.0, (2, 2))) is None
    gain = md.GainUtility.bayes(np.full(4, 0.25))
    assert source_class(md.LDP(1.0), gain) is GainPricingOracle
    assert source_class(md.PML(1.0, c=0.1), md.GainUtility) is GainPricingOracle
    assert source_class(NonRobustLDP(1.0, np.full(4, 0.25), (2, 2)), gain) is None
    with pytest.raises(md.UnsupportedError, match="vertex patterns are known"):
        md.design(SecretLDP(1.0, (2, 2)), np.full(4, 0.25), method="column_generation")


def _interrupt_after(monkeypatch, method_name, calls):
    """Make PricingOracle.<method_name> raise KeyboardInterrupt on its ``calls``-th call."""
    original = getattr(PricingOracle, method_name)
    count = {"n": 0}

    def interrupted(self, *args, **kwargs):
        count["n"] += 1
        if count["n"] == calls:
            raise KeyboardInterrupt
        return original(self, *args, **kwargs)

    monkeypatch.setattr(PricingOracle, method_name, interrupted)


def test_ctrl_c_during_column_generation_returns_the_best_design_so_far(monkeypatch):
    prior = np.random.default_rng(11).dirichlet(np.ones(9))
    optimum = md.design(md.LDP(1.0), prior, method="enumeration").utility
    _interrupt_after(monkeypatch, "heuristic", 3)
    result = md.design(md.LDP(1.0), prior, method="column_generation", progress=False)
    report = result.column_generation
    assert report.status == "interrupted"
    assert report.iterations == 2  # two iterations finished before Ctrl-C
    # No exact pricing had run: the bound is one that needs none, the smaller of
    # I(X;Y) ≤ H(X) and the information one ε-LDP output can carry (maximised here
    # numerically over the mass p of the output's larger level).
    a = math.expm1(1.0)
    one_output = minimize_scalar(
        lambda p: -(p * math.e / (1 + a * p) - math.log1p(a * p)), bounds=(0, 1),
        method="bounded", options={"xatol": 1e-12})
    entropy = -(prior * np.log(prior)).sum()
    assert report.upper_bound == pytest.approx(min(entropy, -one_output.fun), rel=1e-9)
    assert report.lower_bound <= optimum + 1e-9
    assert result.utility == pytest.approx(report.lower_bound, abs=1e-9)
    assert result.audit_passed
    assert result.certificate.holds  # over the columns the master had


def test_ctrl_c_during_exact_pricing_keeps_the_certified_bracket(monkeypatch):
    prior = np.random.default_rng(12).dirichlet(np.ones(9))
    optimum = md.design(md.LDP(1.0), prior, method="enumeration").utility
    # The first exact pricing runs (it certifies an upper bound), the second is cut.
    monkeypatch.setattr(PricingOracle, "heuristic", lambda self, dual, effort=1:
                        Pricing(np.zeros((0, 9)), np.zeros(0), math.inf, False, 0))
    _interrupt_after(monkeypatch, "price", 2)
    result = md.design(md.LDP(1.0), prior, method="column_generation", gap=1e-12)
    report = result.column_generation
    assert report.status == "interrupted"
    assert report.lower_bound <= optimum + 1e-9 <= report.upper_bound + 2e-9
    assert math.isfinite(report.upper_bound)


def test_progress_bar_only_when_asked(capsys):
    prior = np.random.default_rng(13).dirichlet(np.ones(8))
    md.design(md.LDP(1.0), prior, method="column_generation", progress=True)
    assert "column generation" in capsys.readouterr().err
    md.design(md.LDP(1.0), prior, method="column_generation", progress=False)
    md.design(md.LDP(1.0), prior, method="column_generation")  # stderr is not a terminal
    assert capsys.readouterr().err == ""


def test_progress_must_be_a_bool_or_none():
    with pytest.raises(md.InvalidInputError, match="progress must be True, False or None"):
        md.design(md.LDP(1.0), np.full(4, 0.25), progress="yes")


def test_the_pipeline_asks_a_source_for_its_initial_columns_once(monkeypatch):
    # A heuristic source has state (warm LPs, a random stream): the pipeline must drive it
    # exactly as run_column_generation does, or designs drift from the loop's results.
    from mechdesign.optimal import run_column_generation

    calls = []
    original = LinearisationOracle.initial_columns

    def counted(self):
        calls.append(1)
        return original(self)

    monkeypatch.setattr(LinearisationOracle, "initial_columns", counted)
    p_hat = np.array([0.07, 0.10, 0.26, 0.57])
    notion = md.RobustLDP(1.0, md.RenyiBall(p_hat, 2.0, 0.05), (2, 2))
    result = md.design(notion, p_hat, method="column_generation", progress=False)
    assert len(calls) == 1
    direct = run_column_generation(LinearisationOracle(notion, p_hat), gap=1e-8)
    assert result.column_generation.history == tuple(direct.history)


def test_column_source_refuses_an_unknown_method():
    from mechdesign.optimal import column_source

    objective = md.optimal.MutualInformationUtility(np.full(4, 0.25))
    with pytest.raises(md.InvalidInputError, match="method must be 'enumeration' or"):
        column_source(md.LDP(1.0), objective, "auto")


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
def test_repeated_pricing_skips_families_and_stays_exact(seed):
    """One oracle priced at a sequence of nearby duals (as in column generation) skips
    the families its carried-over bounds rule out, and still returns brute force's best
    reduced cost and a bound above it at every dual."""
    rng = np.random.default_rng(seed)
    n = 9
    notion = md.PML(1.0, c=1 / (2 * n))
    prior = rng.dirichlet(np.ones(n))
    vertices = notion.cone(n).vertices("cdd").points
    oracle = PricingOracle(notion, prior)
    dual = rng.normal(size=n) * 0.1
    mips = []
    for _ in range(6):
        pricing = oracle.price(dual)
        best = brute_force_best(vertices, prior, dual)
        assert pricing.reduced_cost == pytest.approx(best, abs=1e-10)
        assert best <= pricing.upper_bound + 1e-12
        mips.append(pricing.mips)
        dual = dual + rng.normal(size=n) * 1e-3
    assert min(mips[1:]) < mips[0]  # later prices skip families


# -- column management and dual smoothing ------------------------------------------------


def test_pruning_keeps_the_basis_the_optimum_and_the_dual():
    """RestrictedMaster.prune deletes non-basic columns of least reduced cost: the LP
    optimum over the kept columns equals scipy's over all of them, the dual still prices
    every original column out, and a pruned column can be added again."""
    from scipy.optimize import linprog

    rng = np.random.default_rng(11)
    n = 7
    prior = rng.dirichlet(np.ones(n))
    columns = ldp_vertices_by_bits(1.3, n)
    values = mutual_information_of_columns(prior, columns)
    reference = linprog(-values, A_eq=columns.T, b_eq=np.ones(n), bounds=(0, None))
    master = RestrictedMaster(n)
    master.add(columns, values)
    theta, dual, objective = master.solve()
    keep = 10
    kept = master.prune(keep, dual)
    assert kept.shape == (columns.shape[0],)
    assert master.size == int(kept.sum()) == master.columns.shape[0]
    assert master.added == columns.shape[0]
    assert np.all(kept[theta > 0])  # the positive weights are basic, and stay
    assert master.size <= max(keep, n)
    reduced = values - columns @ dual
    dropped = ~kept
    assert dropped.any()
    # The kept non-basic columns are the best ones (ties aside).
    nonbasic_kept = kept & (theta <= 0)
    if nonbasic_kept.any():
        assert reduced[nonbasic_kept].min() >= reduced[dropped].max() - 1e-12
    _, dual2, objective2 = master.solve()
    assert objective2 == pytest.approx(-reference.fun, abs=1e-10)
    assert objective == pytest.approx(objective2, abs=1e-12)
    assert np.all(values - columns @ dual2 <= 1e-9)  # dual feasible for every column
    assert np.all(master.values - master.columns @ dual2 <= 1e-9)
    lost = np.flatnonzero(dropped)[0]
    assert column_key(columns[lost]) not in master.keys
    master.add(columns[lost:lost + 1], values[lost:lost + 1])
    assert master.size == int(kept.sum()) + 1


@pytest.mark.parametrize(("notion", "n"), [(md.LDP(0.9), 9), (md.PML(1.2, c=0.05), 8)],
                         ids=repr)
def test_aggressive_pruning_still_reaches_the_enumerated_optimum(notion, n):
    prior = np.random.default_rng(n + 3).dirichlet(np.ones(n))
    full = md.design(notion, prior, method="enumeration")
    oracle = PricingOracle(notion, prior)
    run = run_column_generation(oracle, gap=1e-9, columns_per_input=1)  # overrides the source
    assert run.master.added > run.master.size  # columns were deleted on the way
    assert run.lower == pytest.approx(full.utility, abs=1e-9)
    report = run.report()
    assert report.status == "optimal"
    assert report.columns == run.master.size
    assert report.columns_added == run.master.added
    assert run.lower - 1e-12 <= full.utility <= run.upper + 1e-11


@pytest.mark.parametrize("keep", [1, None])
def test_pruning_follows_the_source(keep):
    # By default column management is the source's rule (a property of the source,
    # never of elapsed time); the optimum is the same either way.
    prior = np.random.default_rng(12).dirichlet(np.ones(9))
    oracle = PricingOracle(md.LDP(0.9), prior)
    oracle.columns_per_input = keep
    run = run_column_generation(oracle, gap=1e-9)
    pruned = run.master.added > run.master.size
    assert pruned == (keep is not None)  # exact: a bool
    full = md.design(md.LDP(0.9), prior, method="enumeration")
    assert run.lower == pytest.approx(full.utility, abs=1e-9)


def test_an_explicit_rule_overrides_the_source():
    prior = np.random.default_rng(12).dirichlet(np.ones(9))
    oracle = PricingOracle(md.LDP(0.9), prior)
    oracle.columns_per_input = 1
    run = run_column_generation(oracle, gap=1e-9, columns_per_input=None)
    assert run.master.added == run.master.size  # exact: counts; nothing deleted


def test_ldp_keeps_few_columns_per_input_and_c_pml_more():
    # Measured (README): ε-LDP's master dominates its time; a (ε, c)-PML column is
    # dearer to find again, so its master keeps four times as many.
    prior = np.full(6, 1 / 6)
    assert PricingOracle(md.LDP(1.0), prior).columns_per_input == MASTER_COLUMNS_PER_INPUT
    assert (PricingOracle(md.PML(1.0, c=0.05), prior).columns_per_input
            == 4 * MASTER_COLUMNS_PER_INPUT)


def test_smoothing_needs_a_heuristic_that_certifies_its_bound():
    # ε-LDP's heuristic certifies no bound, so there is no stability centre: the run is
    # the same with and without smoothing (the centre of an occasional exact pricing
    # was stale).
    prior = np.random.default_rng(13).dirichlet(np.ones(10))
    runs = [run_column_generation(PricingOracle(md.LDP(1.0), prior), gap=1e-9,
                                  smoothing=alpha) for alpha in (0.0, 0.8)]
    assert runs[0].report().iterations == runs[1].report().iterations
    assert runs[0].lower == pytest.approx(runs[1].lower, abs=1e-12)


@pytest.mark.parametrize("smoothing", [0.0, 0.5, 0.8, 0.95])
def test_smoothed_pricing_reaches_the_enumerated_optimum(smoothing):
    """Wentges smoothing changes where PolyOpt's block pricing looks, not what the loop
    certifies: the paper variant is still certified optimal at the enumerated value."""
    epsilon, p_hat, ball, shape = next(iter(robust_instances())).values
    paper = md.RobustLDP(epsilon, ball, shape, variant="paper")
    full = md.design(paper, p_hat, method="enumeration")
    run = run_column_generation(LinearisationOracle(paper, p_hat), gap=1e-9,
                                smoothing=smoothing)
    assert run.report().status == "optimal"
    assert run.lower == pytest.approx(full.utility, abs=1e-8)
    assert full.utility <= run.upper + 1e-9


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 8))
def test_rescored_reduced_costs_are_those_at_the_new_dual(seed, n):
    """A pricing done at λ' and rescored at λ carries μ(v) − λ·v, from the definition."""
    cg_module = sys.modules["mechdesign.optimal.column_generation"]
    rng = np.random.default_rng(seed)
    prior = rng.dirichlet(np.ones(n))
    columns = rng.dirichlet(np.ones(n), size=5)
    values = mutual_information_of_columns(prior, columns)
    priced_at, dual = rng.normal(size=(2, n))
    pricing = Pricing(columns, values - columns @ priced_at, math.inf, False, 0)
    rescored = cg_module._rescored(pricing, priced_at, dual)
    expected = values - columns @ dual
    order = np.argsort(-expected, kind="stable")
    assert np.allclose(rescored.reduced_costs, expected[order], atol=1e-12)
    assert np.allclose(rescored.columns, columns[order])


@pytest.mark.parametrize("alpha", [0.0, 0.3, 0.5, 0.8, 0.9])
def test_smoothing_steps_follow_pessoa_et_al(alpha):
    """α_k = [1 − k(1 − α)]⁺ for k = 0, 1, …, ending at 0 (the master's own dual)."""
    cg_module = sys.modules["mechdesign.optimal.column_generation"]
    steps = cg_module._smoothing_steps(alpha)
    expected = [1 - k * (1 - alpha) for k in range(1, 200) if 1 - k * (1 - alpha) > 1e-9]
    assert steps[-1] == 0.0  # exact: the last step is the literal 0
    assert np.allclose(steps[:-1], expected if alpha > 0 else [])


@pytest.mark.parametrize("alpha", [0.99, 0.999999, 1 - 1e-15])
def test_smoothing_close_to_one_takes_few_steps(alpha):
    """A valid α close to 1 must not ask for millions of pricings: at most
    SMOOTHING_MAX_STEPS + 1 steps, decreasing from α to 0."""
    cg_module = sys.modules["mechdesign.optimal.column_generation"]
    steps = cg_module._smoothing_steps(alpha)
    assert len(steps) <= cg_module.SMOOTHING_MAX_STEPS + 1
    assert steps[0] == alpha  # exact: the first factor is α itself
    assert steps[-1] == 0.0  # exact: the literal 0
    assert all(b < a for a, b in itertools.pairwise(steps))


def test_column_management_and_smoothing_refuse_bad_input():
    oracle = PricingOracle(md.LDP(1.0), np.full(3, 1 / 3))
    for bad in (0, -1, 2.0, True, "sources"):
        with pytest.raises(md.InvalidInputError, match="columns_per_input"):
            run_column_generation(oracle, gap=1e-6, columns_per_input=bad)
    for bad in (1.0, -0.1, float("nan"), "0.5"):
        with pytest.raises(md.InvalidInputError, match="smoothing"):
            run_column_generation(oracle, gap=1e-6, smoothing=bad)
    master = RestrictedMaster(3)
    master.add(np.eye(3), np.zeros(3))
    with pytest.raises(md.InvalidInputError, match="solved"):
        master.prune(3, np.zeros(3))  # the basis is not known before a solve
    master.solve()
    with pytest.raises(md.InvalidInputError, match="keep"):
        master.prune(0, np.zeros(3))
    with pytest.raises(md.InvalidInputError, match="dual"):
        master.prune(3, np.zeros(4))
    with pytest.raises(md.InvalidInputError, match="dual"):
        master.prune(3, np.array([0.0, np.nan, 0.0]))


@pytest.mark.parametrize("where", ["inside", "after"])
def test_ctrl_c_around_pruning_answers_with_matching_weights(monkeypatch, where):
    """Ctrl-C while the master deletes columns (after HiGHS dropped them, before the
    arrays follow) or just after: the run answers with weights that match its columns
    — rows summing to one and an LP certificate over those columns."""
    from mechdesign._solvers.highs import Model
    from mechdesign.optimal.master import certificate

    prior = np.random.default_rng(5).dirichlet(np.ones(9))
    if where == "inside":
        original = Model.delete_columns

        def interrupted(self, index):
            original(self, index)
            raise KeyboardInterrupt

        monkeypatch.setattr(Model, "delete_columns", interrupted)
    else:
        original = RestrictedMaster.prune

        def interrupted(self, keep, dual):
            original(self, keep, dual)
            raise KeyboardInterrupt

        monkeypatch.setattr(RestrictedMaster, "prune", interrupted)
    solved = solve_master(PricingOracle(md.LDP(1.0), prior), columns_per_input=1)
    assert solved.status == "interrupted"
    assert solved.points.shape[0] == solved.weights.shape[0]
    assert np.allclose(solved.points.T @ solved.weights, 1.0, atol=1e-9)
    assert certificate(solved.points, solved.values, solved.weights, solved.dual).holds
    optimum = md.design(md.LDP(1.0), prior, method="enumeration").utility
    assert solved.weights @ solved.values <= optimum + 1e-9


@pytest.mark.parametrize("variant", ["default", "paper"])
@pytest.mark.parametrize("epsilon", [20.0, 36.0, 100.0, 400.0])
def test_polyopt_at_huge_epsilon_reaches_the_entropy_and_passes_its_audit(epsilon, variant):
    """At large ε the section's LP vertices have coordinates of order e^{−ε}, below
    HiGHS's tolerances: they came back as zeros (a column with B_s = 0, an infinite
    privacy level, so the audit failed) or the LP failed ("Unbounded"). Such columns
    are now left out. The optimum tends to H(X) (I(X; Y) ≤ H(X), attained in the
    limit by the identity), checked here against the entropy computed directly."""
    p = np.random.default_rng(0).dirichlet(np.ones(6))
    entropy = float(-(p * np.log(p)).sum())
    notion = md.RobustLDP(epsilon, md.RenyiBall(p, 2.0, 0.05), (2, 3), variant=variant)
    design = md.design(notion, p, method="column_generation")
    assert design.audit_passed
    assert float(design.privacy_level) <= epsilon + 1e-9
    assert design.utility <= entropy + 1e-12
    assert design.utility >= entropy - 1e-3  # within a thousandth of the limit
    report = design.column_generation
    assert report.lower_bound <= report.upper_bound + 1e-12


# -- the solver pieces refuse bad input by name (issue 36, item 10) ----------------------

_P4 = np.full(4, 0.25)


def _ldp_oracle():
    return PricingOracle(md.LDP(1.0), _P4)


@pytest.mark.parametrize(("call", "argument"), [
    (lambda: price_ldp(1.0, _P4, np.zeros(4) + 0j), "dual"),
    (lambda: price_ldp(1.0, _P4, np.array([0.0, 1.0, True, 0.0], dtype=object)), "dual"),
    (lambda: price_ldp(1.0, _P4, ["0", "0", "0", "0"]), "dual"),
    (lambda: _ldp_oracle().price(np.zeros(4) + 1j), "dual"),
    (lambda: _ldp_oracle().heuristic(np.zeros(4) + 1j), "dual"),
    (lambda: _ldp_oracle().price(np.zeros(4), converge="yes"), "converge"),
    (lambda: _ldp_oracle().price(np.zeros(4), converge=1), "converge"),
    (lambda: _ldp_oracle().heuristic(np.zeros(4), effort=0), "effort"),
    (lambda: PricingOracle("ldp", _P4), "notion"),
    (lambda: LinearisationOracle("ldp", _P4), "notion"),
    (lambda: run_column_generation("oracle", gap=1e-6), "oracle"),
    (lambda: run_column_generation(object(), gap=1e-6), "oracle"),
    (lambda: run_column_generation(_ldp_oracle(), gap=1e-6, warm="no"), "warm"),
    (lambda: run_column_generation(_ldp_oracle(), gap=1e-6, progress=1), "progress"),
], ids=lambda value: "" if callable(value) else value)
def test_solver_pieces_refuse_bad_input_by_name(call, argument):
    with pytest.raises(md.InvalidInputError, match=argument):
        call()


def test_linearisation_oracle_refuses_a_valid_notion_it_does_not_price():
    with pytest.raises(md.UnsupportedError, match="RobustLDP"):
        LinearisationOracle(md.LDP(1.0), _P4)


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
