"""Optimal mechanisms through md.design (mechdesign.optimal.pipeline): values from the
papers, closed forms against the LP, evidence, properties, the choice of method, and
bad input. (An independent brute-force reference lives in
tests/test_design_reference.py.)
"""

from __future__ import annotations

import importlib
import itertools
import math

import numpy as np
import pytest
from hypothesis import given, strategies as st

import mechdesign as md
from mechdesign.errors import InvalidInputError, TooLargeError
from mechdesign.optimal.sources import PricingSource
from tests.helpers import SILENT_LOSS_EXACT_OPTIMUM, silent_loss_notion

design_module = importlib.import_module("mechdesign.optimal.pipeline")  # the stages module

RTOL = 1e-9
ATOL = 1e-10


def entropy(p: np.ndarray) -> float:
    p = p[p > 0]
    return float(-(p * np.log(p)).sum())


def check_evidence(d: md.Design, prior: np.ndarray | None = None) -> None:
    """What every design must carry: a valid, audited, certified mechanism."""
    k = d.mechanism.matrix
    n = k.shape[0]
    assert k.shape[1] <= n
    assert np.allclose(k.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    assert d.audit_passed
    assert d.privacy_level <= d.epsilon + 1e-9
    assert d.notion.level(k) == d.privacy_level
    assert d.certificate.holds
    assert d.certificate.gap == pytest.approx(0.0, abs=1e-9)
    assert d.certificate.max_dual_violation <= 1e-9
    assert d.status is md.Status.OPTIMAL
    # The mechanism's columns are θ_v v for the reported weights and vertices.
    columns = d.weights[:, None] * d.vertices
    assert columns.shape == k.T.shape
    distance = np.abs(columns[:, None, :] - k.T[None, :, :]).max(axis=2)
    assert np.all(distance.min(axis=1) <= 1e-12)
    if prior is not None:
        assert d.utility == pytest.approx(md.mutual_information(k, prior), rel=RTOL, abs=ATOL)
        assert d.utility <= entropy(prior) + 1e-12
    if d.dobrushin_bound is not None:
        assert d.dobrushin_coefficient <= d.dobrushin_bound + 1e-12


# -- LDP: randomized response and the binary mechanism ---------------------------------------


@pytest.mark.parametrize(("k", "epsilon", "value"), [(3, 3.0, 0.732018), (4, 4.0, 1.124464)])
def test_ldp_optimum_is_randomized_response_at_large_epsilon(k, epsilon, value):
    uniform = np.full(k, 1.0 / k)
    d = md.design(md.LDP(epsilon), uniform)
    check_evidence(d, uniform)
    rr = md.mutual_information(md.randomized_response(k, epsilon), uniform)
    assert d.utility == pytest.approx(value, abs=5e-7)
    assert d.utility == pytest.approx(rr, rel=RTOL, abs=ATOL)


def test_ldp_optimum_beats_randomized_response_at_small_epsilon():
    uniform = np.full(5, 0.2)
    d = md.design(md.LDP(0.2), uniform)
    rr = md.mutual_information(md.randomized_response(5, 0.2), uniform)
    check_evidence(d, uniform)
    assert d.utility == pytest.approx(0.0049059985, rel=1e-8)
    assert d.utility > 1.4 * rr


@pytest.mark.parametrize("seed", range(5))
def test_ldp_optimum_is_the_binary_mechanism_at_tiny_epsilon(seed):
    # Kairouz, Oh & Viswanath: the binary mechanism is optimal in the high-privacy regime.
    prior = np.random.default_rng(seed).dirichlet(np.ones(4))
    d = md.design(md.LDP(0.01), prior)
    binary = md.mutual_information(md.mechanisms.binary_mechanism(0.01, prior=prior), prior)
    assert d.utility == pytest.approx(binary, rel=1e-9, abs=1e-15)
    assert d.mechanism.n_outputs == 2


# -- known-prior PML: the PML-extremal mechanism --------------------------------------------


@pytest.mark.parametrize("seed", range(8))
def test_known_prior_optimum_is_the_pml_extremal_mechanism(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 7))
    prior = rng.dirichlet(np.ones(n))
    limit = -math.log1p(-prior.min())
    epsilon = float(rng.uniform(0.05, 0.95)) * limit
    d = md.design(md.PML(epsilon, prior=prior), prior)
    check_evidence(d, prior)
    extremal = md.mechanisms.pml_extremal_mechanism(epsilon, prior)
    assert d.utility == pytest.approx(md.mutual_information(extremal, prior), rel=1e-9)
    # Corollary 1 of the envelope paper: every outcome leaks exactly ε, and P_Y = P.
    assert np.allclose(md.pointwise_leakage(extremal, prior), epsilon, rtol=0, atol=1e-12)
    assert np.allclose(extremal.output_distribution(prior), prior, rtol=0, atol=1e-15)


# -- (ε, c)-PML ---------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_c_pml_tends_to_ldp_and_meets_known_uniform_prior(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 6))
    prior = rng.dirichlet(np.ones(n))
    epsilon = float(rng.uniform(0.2, 2.0))
    ldp = md.design(md.LDP(epsilon), prior).utility
    values = []
    for c in (1e-9, 1e-6, 1e-3, 0.5 / n, 1.0 / n):
        d = md.design(md.PML(epsilon, c=c), prior)
        check_evidence(d, prior)
        values.append(d.utility)
    # LDP ⊂ (ε,c)-PML ⊂ (ε,c')-PML for c < c': the optimum grows with c from LDP's.
    assert all(b >= a - 1e-12 for a, b in zip([ldp, *values], values, strict=False))
    assert values[0] == pytest.approx(ldp, abs=1e-7)
    uniform = md.design(md.PML(epsilon, prior=np.full(n, 1.0 / n)), prior).utility
    assert values[-1] == pytest.approx(uniform, rel=1e-9, abs=ATOL)


def test_c_pml_dobrushin_coefficient_never_exceeds_xi():
    rng = np.random.default_rng(7)
    for _ in range(15):
        n = int(rng.integers(2, 7))
        c = float(rng.uniform(0.01, 1.0)) / n
        epsilon = float(rng.uniform(0.05, 3.0))
        d = md.design(md.PML(epsilon, c=c), rng.dirichlet(np.ones(n)))
        assert d.dobrushin_bound == md.dobrushin_bound(epsilon, c, n)
        assert d.dobrushin_coefficient <= d.dobrushin_bound + 1e-12


def test_backends_give_the_same_optimum():
    prior = np.array([0.4, 0.3, 0.2, 0.1])
    for notion in (md.LDP(0.7), md.PML(0.7, c=0.1), md.PML(0.7, prior=prior),
                   md.PML(0.7, priors=[prior, np.full(4, 0.25)])):
        values = {b: md.design(notion, prior, backend=b).utility for b in ("cdd", "exact")}
        assert values["cdd"] == pytest.approx(values["exact"], rel=1e-10, abs=ATOL)
        assert md.design(notion, prior).utility == pytest.approx(values["exact"], rel=1e-10)


# -- a second utility: the f-divergence between two hypotheses -------------------------------


def test_kl_utility_on_two_inputs_is_randomized_response():
    # With N = 2 the LDP section has two vertices, so the only optimal mechanism is RR.
    p0, p1 = np.array([0.8, 0.2]), np.array([0.3, 0.7])
    d = md.design(md.LDP(1.0), utility=md.optimal.FDivergenceUtility(p0, p1))
    rr = md.randomized_response(2, 1.0).matrix
    assert d.utility == pytest.approx(md.kl_divergence(p0 @ rr, p1 @ rr), rel=1e-12)
    check_evidence(d)


def test_f_divergence_utility_beats_random_feasible_mechanisms():
    rng = np.random.default_rng(3)
    p0, p1 = rng.dirichlet(np.ones(4)), rng.dirichlet(np.ones(4))
    notion = md.PML(0.8, c=0.1)
    utility = md.optimal.FDivergenceUtility(p0, p1, md.measures.SQUARED_HELLINGER)
    d = md.design(notion, utility=utility)
    check_evidence(d)
    for _ in range(300):
        # Random mixtures of randomized response and the identity meet the notion
        # after enough mixing; keep the ones that do.
        k = rng.dirichlet(np.ones(4), 4)
        for t in np.linspace(0, 1, 11):
            mixed = (1 - t) * k + t * np.full((4, 4), 0.25)
            if notion.level(mixed) <= 0.8:
                value = md.measures.squared_hellinger(p0 @ mixed, p1 @ mixed)
                assert value <= d.utility + 1e-12
                break


# -- properties --------------------------------------------------------------------------------


@st.composite
def full_support_priors(draw, n):
    weights = np.array(draw(st.lists(st.floats(0.05, 1.0), min_size=n, max_size=n)))
    return weights / weights.sum()


@given(n=st.integers(2, 5), data=st.data())
def test_optimum_is_monotone_in_epsilon_and_below_entropy(n, data):
    prior = data.draw(full_support_priors(n))
    kind = data.draw(st.sampled_from(["ldp", "c", "prior"]))
    epsilons = sorted(data.draw(st.lists(st.floats(0.0, 4.0), min_size=2, max_size=3)))

    def notion(e):
        if kind == "ldp":
            return md.LDP(e)
        if kind == "c":
            return md.PML(e, c=0.5 / n)
        return md.PML(e, prior=prior)

    values = [md.design(notion(e), prior).utility for e in epsilons]
    assert all(b >= a - 1e-10 for a, b in itertools.pairwise(values))
    assert values[-1] <= entropy(prior) + 1e-10


@given(n=st.integers(2, 5), data=st.data())
def test_relabelling_inputs_keeps_the_optimum(n, data):
    prior = data.draw(full_support_priors(n))
    perm = np.array(data.draw(st.permutations(range(n))))
    epsilon = data.draw(st.floats(0.1, 3.0))
    for make in (lambda p: md.LDP(epsilon), lambda p: md.PML(epsilon, c=0.3 / n),
                 lambda p: md.PML(epsilon, prior=p)):
        d = md.design(make(prior), prior)
        permuted = md.design(make(prior[perm]), prior[perm])
        assert permuted.utility == pytest.approx(d.utility, rel=1e-9, abs=1e-12)
        # The row-permuted mechanism is feasible and optimal for the permuted prior.
        moved = d.mechanism.matrix[perm]
        assert make(prior[perm]).level(moved) <= epsilon + 1e-9
        assert md.mutual_information(moved, prior[perm]) == pytest.approx(
            permuted.utility, rel=1e-9, abs=1e-12
        )


def test_bad_design_requests():
    with pytest.raises(InvalidInputError, match="c"):
        md.design(md.PML(1.0, c=0.4), np.full(3, 1 / 3))  # c > 1/N
    with pytest.raises(InvalidInputError, match="3 inputs"):
        md.design(md.PML(1.0, prior=np.full(3, 1 / 3)), np.full(4, 0.25))
    with pytest.raises(InvalidInputError, match="N = 2"):
        md.design(md.LDP(1.0), [1.0])
    with pytest.raises(InvalidInputError, match="prior"):
        md.design(md.LDP(1.0))
    with pytest.raises(InvalidInputError, match="utility"):
        md.design(md.LDP(1.0), [0.5, 0.5], utility="fisher")
    with pytest.raises(InvalidInputError, match="method"):
        md.design(md.LDP(1.0), [0.5, 0.5], method="column-generation")
    with pytest.raises(InvalidInputError, match="time_limit"):
        md.design(md.LDP(1.0), [0.5, 0.5], time_limit=-1)
    with pytest.raises(TooLargeError, match="too large"):
        md.design(md.LDP(1.0), np.full(12, 1 / 12), max_vertices=1000)


def test_tiny_epsilon_solve_error_falls_back():
    """Hypothesis found ε = 1e-8 LDP on 5 uniform inputs: HiGHS stops with "Solve error" at
    its tight tolerance (nearly parallel columns). The LP is feasible and bounded, so it
    is solved again at the default tolerance; the certificate and audit decide."""
    prior = np.full(5, 0.2)
    result = md.design(md.LDP(1e-8), prior)
    assert result.certificate.holds
    assert result.audit_passed
    assert 0.0 <= result.utility <= 1e-12


@pytest.mark.slow
def test_pricing_by_linearisation_finds_columns_cdd_missed():
    # The PolyOpt instance of tests/notions/test_cones.py on which cddlib's default row order
    # silently loses vertices: with only those (plus what the LP probes add), the LP's
    # dual prices some true vertex positively, and the ascent finds such columns. Each
    # found column must lie in the section and have positive reduced cost.
    from mechdesign.notions.cones import (
        VertexSet,
        _cdd_run,
        _probe_missing_vertices,
        deduplicate_points,
    )
    from mechdesign.optimal import CddRepair, solve_vertex_lp

    notion, p_hat = silent_loss_notion()
    h = notion.cone(12).h_representation()
    points, missed = _probe_missing_vertices(deduplicate_points(_cdd_run(h, None)), h)
    objective = md.optimal.MutualInformationUtility(p_hat)
    values = objective.column_values(points)
    weights, _, dual = solve_vertex_lp(points, values, None)
    before = float(weights @ values)
    assert before < SILENT_LOSS_EXACT_OPTIMUM - 1e-5
    source = CddRepair(VertexSet(points, "cdd", 0.0, missed=missed), h, objective)
    assert not source.exact
    assert not source.complete
    pricing = source.heuristic(dual)
    new = pricing.columns
    assert new.shape[0] >= 1
    assert np.all(new @ h.T >= -1e-9)
    assert np.allclose(new.sum(axis=1), 1.0)
    assert np.all(objective.column_values(new) - new @ dual > 1e-8)
    assert np.allclose(pricing.reduced_costs, objective.column_values(new) - new @ dual)
    more = np.vstack([points, new])
    more_values = objective.column_values(more)
    weights, _, _ = solve_vertex_lp(more, more_values, None)
    after = float(weights @ more_values)
    assert before < after <= SILENT_LOSS_EXACT_OPTIMUM + 1e-9


@pytest.mark.parametrize("notion", ["ldp", None, 1.0, math.log])
def test_design_refuses_what_is_not_a_notion_by_name(notion):
    with pytest.raises(InvalidInputError, match=r"notion must be a privacy notion") as info:
        md.design(notion, np.full(3, 1 / 3))
    assert "mechdesign.LDP(epsilon)" in str(info.value)


def test_too_large_names_column_generation():
    with pytest.raises(TooLargeError, match="method='column_generation'"):
        md.design(md.LDP(1.0), np.full(6, 1 / 6), max_vertices=10)


def test_auto_picks_column_generation_above_the_threshold(monkeypatch):
    """The two methods reach the same optimum; auto records which it ran."""
    prior = np.random.default_rng(5).dirichlet(np.ones(6))
    enumerated = md.design(md.LDP(1.0), prior)
    assert enumerated.method == "enumeration"
    assert enumerated.summary()["method"] == "enumeration"
    monkeypatch.setattr(PricingSource, "auto_max_vertices", 10)  # LDP at N = 6 has 62
    generated = md.design(md.LDP(1.0), prior)
    assert generated.method == "column_generation"
    assert generated.column_generation is not None
    assert generated.column_generation.status == "optimal"
    assert generated.utility == pytest.approx(enumerated.utility, abs=1e-7)
    assert generated.column_generation.lower_bound <= enumerated.utility + 1e-9
    assert generated.column_generation.upper_bound >= enumerated.utility - 1e-9


@pytest.mark.parametrize(
    "notion",
    [
        md.LDP(0.0),  # ε = 0: column generation needs 0 < ε < ∞
        md.PML(1.0, prior=np.array([0.4, 0.3, 0.2, 0.1])),  # no exact pricing
    ],
    ids=["ldp-eps0", "pml-known-prior"],
)
def test_auto_enumerates_where_pricing_is_not_exact(monkeypatch, notion):
    monkeypatch.setattr(PricingSource, "auto_max_vertices", 1)
    d = md.design(notion, np.array([0.4, 0.3, 0.2, 0.1]))
    assert d.method == "enumeration"
    assert d.column_generation is None


def test_auto_prices_polyopt_default_variant_exactly(monkeypatch):
    # Past the threshold, "auto" generates columns for the default variant too (its
    # pricing is exact): the robust-LDP paper setting's 0.563050, certified.
    p_hat = np.array([0.07, 0.10, 0.26, 0.57])
    ball = md.RenyiBall(p_hat, 2, md.chi2_radius(100, 4, 0.05))
    notion = md.RobustLDP(math.log(2), ball, (2, 2))
    assert md.design(notion, p_hat).method == "enumeration"  # below the threshold
    monkeypatch.setattr(PricingSource, "auto_max_vertices", 1)
    d = md.design(notion, p_hat)
    assert d.method == "column_generation"
    assert d.column_generation.status == "optimal"
    assert d.utility == pytest.approx(0.563050, abs=1e-6)
    assert d.audit_passed


def test_method_is_validated():
    with pytest.raises(InvalidInputError, match="method must be one of"):
        md.design(md.LDP(1.0), np.full(3, 1 / 3), method="fast")


def test_unsupported_is_one_error_of_the_package_and_a_not_implemented_error():
    prior = np.array([0.4, 0.3, 0.2, 0.1])
    with pytest.raises(md.UnsupportedError, match="pattern") as info:
        md.design(md.PML(1.0, prior=prior), prior, method="column_generation")
    assert isinstance(info.value, md.MechDesignError)
    assert isinstance(info.value, NotImplementedError)


@pytest.mark.slow
def test_design_repairs_an_incomplete_cdd_set_by_pricing(monkeypatch):
    # cddlib's default row order alone (no union over orders): the LP probes report
    # missed vertices, so design() takes the CddRepair source, whose linearisation ascents
    # find better columns. The certificate covers the columns found; the optimum over
    # every vertex (cddlib's exact arithmetic) stays an upper bound.
    from mechdesign.notions import cones
    from mechdesign.notions.cones import _cdd_run, _probe_missing_vertices, deduplicate_points
    from mechdesign.optimal import solve_vertex_lp

    notion, p_hat = silent_loss_notion()
    h = notion.cone(12).h_representation()
    points, missed = _probe_missing_vertices(deduplicate_points(_cdd_run(h, None)), h)
    assert missed > 0
    values = md.optimal.MutualInformationUtility(p_hat).column_values(points)
    weights, _, _ = solve_vertex_lp(points, values, None)
    before = float(weights @ values)
    monkeypatch.setattr(cones, "_cdd_vertices", lambda _h: (points, "cdd (default order)", missed))
    result = md.design(notion, p_hat, method="enumeration", backend="cdd", max_vertices=10**12,
                       progress=False)
    assert result.method == "enumeration"
    assert result.backend.startswith("cdd (default order) + ")
    assert result.backend.endswith(" columns by pricing")
    assert before + 1e-6 < result.utility <= SILENT_LOSS_EXACT_OPTIMUM + 1e-9
    assert result.audit_passed
    assert result.certificate.holds


def test_a_named_backend_means_enumeration_under_auto():
    # method="auto" prices this paper-variant PolyOpt instance by column generation (its
    # vertex bound is above AUTO_MAX_VERTICES); a named vertex backend asks for
    # enumeration and gets it (it used to be ignored). Both reach the exact optimum.
    notion, p_hat = silent_loss_notion()
    assert md.design(notion, p_hat, progress=False).method == "column_generation"
    named = md.design(notion, p_hat, backend="cdd", max_vertices=10**12, progress=False)
    assert named.method == "enumeration"
    assert named.backend.startswith("cdd")
    assert named.utility == pytest.approx(SILENT_LOSS_EXACT_OPTIMUM, abs=1e-7)
