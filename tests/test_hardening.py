"""Hardening (issue 26), the cases fixed so far: what must be refused is refused by name,
and extreme but valid inputs get the mathematically right answer (each checked against
a value computed another way). The functions of one module have their extreme-input tests
beside that module's tests (tests/<subpackage>/test_<module>.py); what stays here spans
several modules, with the by-name tables of bad input and of sizes beyond memory."""

from __future__ import annotations

import itertools
import math
import re

import numpy as np
import pytest

import mechdesign as md
from mechdesign.errors import InvalidInputError, TooLargeError
from tests.helpers import BALL, K2, K3, K4, K23, K32, P3, PHAT, Q3


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (np.array([[0.5 + 9j, 0.5], [0.25, 0.75]]), "real"),
        ([["0.5", "0.5"], ["0.25", "0.75"]], "text"),
        ([[True, False], [False, True]], "booleans"),
        (np.array([[0.5, None], [0.25, 0.75]], dtype=object), "numeric"),
    ],
)
def test_kernels_that_are_not_real_numbers_are_refused(value, message):
    with pytest.raises(InvalidInputError, match=message):
        md.ldp_level(value)
    with pytest.raises(InvalidInputError, match="matrix"):
        md.Mechanism(value)


def test_priors_that_are_not_real_numbers_are_refused():
    with pytest.raises(InvalidInputError, match="prior must be real"):
        md.mutual_information(np.eye(2), np.array([0.5 + 1j, 0.5]))
    with pytest.raises(InvalidInputError, match="prior must be numbers, not text"):
        md.mutual_information(np.eye(2), ["0.5", "0.5"])


def test_fractions_are_real_numbers():
    from fractions import Fraction

    k = np.array([[Fraction(3, 4), Fraction(1, 4)], [Fraction(1, 4), Fraction(3, 4)]],
                 dtype=object)
    assert md.ldp_level(k) == pytest.approx(math.log(3), rel=1e-12)


@pytest.mark.parametrize("atol", [float("nan"), -1.0, math.inf, "0.1", True])
def test_tolerances_are_validated(atol):
    with pytest.raises(InvalidInputError, match="atol"):
        md.Mechanism([[2.0, 3.0], [0.5, 0.5]], atol=atol)


def test_float32_kernels_are_checked_at_their_own_precision():
    k32 = np.array([[0.1, 0.9], [0.7, 0.3]], dtype=np.float32)
    assert float(k32[0].astype(np.float64).sum()) != 1.0  # exact: the point of the test
    assert md.ldp_level(k32) == pytest.approx(math.log(0.7 / 0.1), rel=1e-6)  # column 1
    with pytest.raises(InvalidInputError, match="row-stochastic"):
        md.Mechanism(np.array([[0.1, 0.8], [0.7, 0.3]], dtype=np.float32))


def test_design_at_the_edge_of_double_precision():
    """At ε = 709 (e^ε just below the largest double) every notion's optimum reveals the
    input up to e^{−709}: I = H(P); above log(largest double) a design is refused by
    name (its entries would underflow and the audit read ∞)."""
    prior = np.array([0.5, 0.3, 0.2])
    entropy = float(-(prior * np.log(prior)).sum())
    for notion in (md.LDP(709.0), md.PML(709.0, c=0.05), md.PML(709.0, prior=prior)):
        d = md.design(notion, prior)
        assert d.utility == pytest.approx(entropy, rel=1e-12)
        assert d.audit_passed
    for notion in (md.LDP(710.0), md.PML(1000.0, c=0.05)):
        with pytest.raises(md.UnsupportedError, match="MAX_DESIGN_EPSILON"):
            md.design(notion, prior)


def test_c_pml_column_generation_once_the_section_is_the_simplex():
    """For e^ε c ≥ 1 the (ε, c)-PML section is the simplex (its vertices the unit
    vectors); column generation priced them through r c = e^ε c (1e14 at ε = 36) and its
    MIPs failed. The optimum reveals the input."""
    prior = np.random.default_rng(0).dirichlet(np.ones(6))
    entropy = float(-(prior * np.log(prior)).sum())
    for eps in (3.0, 36.0, 50.0, 700.0):
        d = md.design(md.PML(eps, c=0.05), prior, method="column_generation")
        assert d.column_generation.status == "optimal"
        assert d.utility == pytest.approx(entropy, rel=1e-12)


def test_duchi_bound_at_large_epsilon():
    assert md.bounds.duchi_kl_bound(800.0, 0.3) == math.inf
    assert md.bounds.duchi_kl_bound(800.0, 0.0) == 0.0  # exact: TV = 0
    eps, tv = 0.1, 0.3
    by_hand = min(4.0, math.exp(2 * eps)) * (math.exp(eps) - 1) ** 2 * tv**2
    assert md.bounds.duchi_kl_bound(eps, tv) == pytest.approx(by_hand, rel=1e-12)
    eps = 300.0  # finite but huge: 4 e^{600}(1 − e^{−300})² tv²
    assert math.log(md.bounds.duchi_kl_bound(eps, tv)) == pytest.approx(
        math.log(4) + 2 * eps + 2 * math.log(tv), rel=1e-12)


def test_projection_onto_the_simplex_with_huge_entries():
    np.testing.assert_allclose(md.kernel.project_to_simplex([1e200, 0.9, -0.2]), [1, 0, 0])
    np.testing.assert_allclose(md.kernel.project_to_simplex([1e200, 1e200, 3.0]), [0.5, 0.5, 0])
    rng = np.random.default_rng(0)
    for _ in range(50):
        v = rng.normal(scale=3, size=6)
        w = md.kernel.project_to_simplex(v)
        # KKT: w = max(v − τ, 0) with Σ w = 1 — compare with a bisection on τ.
        lo, hi = v.min() - 1, v.max()
        for _ in range(200):
            tau = (lo + hi) / 2
            lo, hi = (tau, hi) if np.maximum(v - tau, 0).sum() > 1 else (lo, tau)
        np.testing.assert_allclose(w, np.maximum(v - lo, 0), atol=1e-12)


def test_empirical_pair_with_integer_labels():
    pair = md.notions.empirical_pair([0, 1, 0, 1], [0, 0, 1, 1])
    np.testing.assert_array_equal(pair.counts, [[1, 1], [1, 1]])
    assert set(pair.s_labels) == {"0", "1"}


def test_pml_capacity_of_subnormal_columns():
    """Column (5e-324, 0): max/(c·Σ + (1 − Nc)·min) = 1/c = 4 whatever the scale."""
    assert md.pml_capacity([[1, 5e-324], [1, 0]], 0.25) == pytest.approx(math.log(4))
    assert md.pml_capacity([[1, 5e-300], [1, 0]], 0.25) == pytest.approx(math.log(4))


def test_xi_bounds_at_tiny_probabilities():
    """For α = 2 the binary ball is ρ²/q + (1 − ρ)²/(1 − q) ≤ e^B: at ρ → 0 its ends are
    q⁻ ≈ ρ²/(e^B − 1) and q⁺ = 1 − e^{−B}."""
    b = 0.05
    for rho in (1e-17, 1e-100, 1e-200):
        low, high = md.notions.xi_bounds(rho, 2.0, b)
        assert low * rho == pytest.approx(rho**2 / math.expm1(b), rel=1e-6)
        assert high * rho == pytest.approx(-math.expm1(-b), rel=1e-9)


def test_a_restricted_master_of_absurd_size_is_refused_at_once(monkeypatch):
    import sys

    from mechdesign.errors import TooLargeError
    from mechdesign.optimal import RestrictedMaster

    # "At once": refused before a HiGHS model or one of its 10^12 rows is built (a count
    # of what was built, not a reading of the clock).
    built = []

    def model(*args, **kwargs):
        built.append(kwargs)
        raise AssertionError("a HiGHS model was built")

    monkeypatch.setattr(sys.modules[RestrictedMaster.__module__], "Model", model)
    with pytest.raises(TooLargeError, match="MASTER_MAX_INPUTS"):
        RestrictedMaster(10**12)
    assert built == []
    with pytest.raises(AssertionError, match="HiGHS model"):  # the count sees a build
        RestrictedMaster(3)
    assert len(built) == 1


def test_pml_envelope_with_a_prior_entry_of_1e_16():
    """K = [[0, 1], [1, 0]], P = (1 − p, p): merge output 0 (only input 1 produces it)
    with a part of output 1 into a piece of mass δ; input 1 then leaks log(1/δ), and
    nothing leaks more with probability δ. The LP's rows are scaled by 1/λ (λ = 1/p
    overflowed HiGHS's coefficient range at p = 1e-16)."""
    for p in (1e-6, 1e-15, 1e-16):
        value = float(md.pml_envelope([[0, 1], [1, 0]], [1 - p, p], 0.05))
        assert value == pytest.approx(math.log(20), rel=1e-6)


def test_polyopt_at_large_epsilon_uses_exact_vertices():
    """PolyOpt on the robust-LDP paper's Example 1: cddlib's floating point failed from
    ε = 16 (points outside the section at 20, a kernel failing its audit at 25). The
    exact backend takes over above CDD_RELIABLE_EPSILON; the designs pass the exact
    robust audit and their utility grows with ε, below H(P̂)."""
    from mechdesign.notions.cones import CDD_RELIABLE_EPSILON

    p_hat = np.array([0.07, 0.10, 0.26, 0.57])
    ball = md.RenyiBall(p_hat, 2, md.chi2_radius(100, 4, 0.05))
    entropy = float(-(p_hat * np.log(p_hat)).sum())
    utilities = []
    for eps in (10.0, 20.0, 25.0, 40.0):
        d = md.design(md.RobustLDP(eps, ball, (2, 2)), p_hat)
        assert d.audit_passed
        assert d.backend.startswith("exact") == (eps > CDD_RELIABLE_EPSILON)
        assert md.robust_ldp_level(d.mechanism, ball, (2, 2)).value <= eps + 1e-9
        utilities.append(d.utility)
    assert all(a <= b + 1e-12 for a, b in itertools.pairwise(utilities))
    assert utilities[-1] <= entropy


def test_linear_extreme_with_negligible_center_entries():
    """Center (1, 1e-300, 1e-300, 1e-300), α = 2, B = 0.05: the ball allows R_0 down to
    e^{−B} (p_0²/R_0 ≤ e^B), the rest on the best coordinate, so max c·R = 2 − e^{−0.05}
    for c = (1, 0, 2, 0.5) and min = e^{−0.05}. It returned the center's value 1."""
    c, center = [1, 0, 2, 0.5], [1, 1e-300, 1e-300, 1e-300]
    top, r = md.notions.linear_extreme(c, center, 2, 0.05)
    assert top == pytest.approx(2 - math.exp(-0.05), rel=1e-12)
    assert md.renyi_divergence(center, r, 2) <= 0.05 + 1e-12
    low, _ = md.notions.linear_extreme(c, center, 2, 0.05, maximize=False)
    assert low == pytest.approx(math.exp(-0.05), rel=1e-12)


# -- every argument by its own name (the bad-input battery, tests/test_fuzz.py) ---------


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: md.ldp_level(None), "kernel"),
        (lambda: md.mutual_information([[1.0]], [1.0], base="2"), "base"),
        (lambda: md.mutual_information([[1.0]], [1.0], base=True), "base"),
        (lambda: md.Mechanism("abc"), "matrix"),
        (lambda: md.Mechanism.from_columns([[0.5, 0.5], [0.25, 0.75]]), "q"),
        (lambda: md.Mechanism([[0.5, 0.5], [0.25, 0.75]]).reduced(rtol=-1.0), "rtol"),
        (lambda: md.kernel.output_classes([[0.5, 0.5]], rtol=math.nan), "rtol"),
        (lambda: md.kernel.estimate_input_distribution(np.eye(2), [0, 1], tol="0.1"), "tol"),
        (lambda: md.kernel.estimate_input_distribution(np.eye(2), [0, 1], max_iter=2.5),
         "max_iter"),
        (lambda: md.kernel.estimate_input_distribution(np.eye(2), [[0, 1], [1]]), "outputs"),
        (lambda: md.kernel.estimate_input_distribution(np.eye(2), counts=[0, 0]), "counts"),
        (lambda: md.Mechanism(np.eye(2)).sample([0, 1], rng=True), "rng"),
        (lambda: md.LDP(1.0).cone(3).contains([0.2, 0.3, 0.5], atol=-1.0), "atol"),
        (lambda: md.LDP(1.0).cone(3).vertices(max_vertices="3"), "max_vertices"),
        (lambda: md.LDP(1.0).cone(3).vertices(max_active_sets=-3), "max_active_sets"),
        (lambda: md.LDP(1.0).dobrushin_bound(0), "n"),
        (lambda: md.PML(1.0, priors=[["0.5", "0.5"]]), "priors"),
        (lambda: md.PML(1.0, c=0.1).cone(11), "n"),
        (lambda: md.PML(1.0, prior=[0.5, 0.3, 0.2]).level(np.full((4, 2), 0.5)), "kernel"),
        (lambda: md.notions.SecretLDP(1.0, (2, 2)).cone(3), "n"),
        (lambda: md.notions.NonRobustLDP(1.0, [0.5, 0.5, 0.0, 0.0], (2, 2)), "p_hat"),
        (lambda: md.design(md.LDP(1.0), [0.5, 0.5], max_vertices=math.nan), "max_vertices"),
        (lambda: md.design(md.LDP(1.0), [0.5, 0.5], gap=True), "gap"),
        (lambda: md.design(md.LDP(1.0), [0.5, 0.5], time_limit="1"), "time_limit"),
        (lambda: md.optimal.MutualInformationUtility([0.5, 0.5]).column_values([0.5, 0.5]),
         "columns"),
        (lambda: md.GainUtility(np.eye(2), [0.5, 0.5]).column_values([[1.0, -1.0]]),
         "columns"),
        (lambda: md.GainUtility(np.eye(2), [0.5, 0.5]).of(np.full((3, 2), 0.5)), "kernel"),
        (lambda: md.GainUtility.from_loss(np.ones((2, 3)), [0.5, 0.5]), "loss"),
        (lambda: md.optimal.FDivergenceUtility([0.5, 0.5], [0.2, 0.8], f=lambda t: t), "f"),
        (lambda: md.sweeps.design_task("ldp", 1.0, 3, objective="mi"), "objective"),
        (lambda: md.sweeps.design_task("ldp", 1.0, 3, c=0.1), "c"),
        (lambda: md.sweeps.design_task("ldp", 1.0, 1), "n"),
        (lambda: md.sweeps.measure_task("grr", 1.0, 3, samples=0), "samples"),
        (lambda: md.sweeps.measure_task({"a": 1}, 1.0, 3), "mechanism"),
        (lambda: md.sweep(md.dobrushin_bound, {"epsilon": [1.0], "c": [0.1], "n": [3]},
                          progress="no"), "progress"),
    ],
)
def test_bad_arguments_are_refused_by_their_own_name(call, name):
    with pytest.raises(InvalidInputError) as info:
        call()
    assert re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", str(info.value)), str(info.value)


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: md.LDP(1.0).cone(10**12), "n"),
        (lambda: md.sweeps.design_task("ldp", 1.0, 10**12), "n"),
        (lambda: md.sweeps.measure_task("grr", 1.0, 10**12), "n"),
    ],
)
def test_sizes_beyond_memory_are_too_large_not_a_crash(call, name):
    with pytest.raises(md.TooLargeError, match=rf"\b{name}\b"):
        call()


def test_closed_form_vertex_bounds_count_the_vertices():
    """LDP.vertex_bound (2^N − 2, without a cone) is the exact vertex count, and the
    (ε, c)-PML bound is at least the count, both against cddlib's enumeration."""
    for n in range(2, 7):
        assert md.LDP(1.0).vertex_bound(n) == len(md.LDP(1.0).cone(n).vertices("cdd").points)
        notion = md.PML(1.0, c=1 / (2 * n))
        assert notion.vertex_bound(n) >= len(notion.cone(n).vertices("cdd").points)
        assert notion.vertex_bound(n) == notion.cone(n).vertex_bound()


def test_from_columns_and_then_keep_float32_precision():
    q = np.array([[0.1, 0.7], [0.9, 0.3]], dtype=np.float32)  # columns are inputs
    k = md.Mechanism.from_columns(q)
    np.testing.assert_allclose(k.matrix, q.T.astype(float), rtol=0, atol=0)
    post = np.array([[0.3, 0.7], [0.6, 0.4]], dtype=np.float32)
    composed = k.then(post)
    np.testing.assert_allclose(composed.matrix, k.matrix @ post.astype(float), rtol=1e-15)
    assert composed.reduced().n_outputs == 2  # exact: a count


def test_f_divergence_utility_of_a_float32_kernel_equals_the_direct_divergence():
    k = np.array([[0.1, 0.9], [0.7, 0.3]], dtype=np.float32)
    utility = md.optimal.FDivergenceUtility([0.5, 0.5], [0.2, 0.8])
    q0 = np.array([0.5, 0.5]) @ k.astype(float)
    q1 = np.array([0.2, 0.8]) @ k.astype(float)
    direct = float(np.sum(q0 * np.log(q0 / q1)))  # KL by hand
    assert utility.of(k) == pytest.approx(direct, rel=1e-6)
    assert utility.of(md.Mechanism(k)) == pytest.approx(direct, rel=1e-6)


def test_infinite_time_limit_means_none():
    a = md.design(md.LDP(1.0), [0.5, 0.3, 0.2], time_limit=math.inf)
    b = md.design(md.LDP(1.0), [0.5, 0.3, 0.2])
    assert a.utility == pytest.approx(b.utility, rel=1e-12)


def _names(message: str, name: str) -> bool:
    return re.search(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", message) is not None


# -- divergences, contraction, amplification, envelope, robust and uncertainty, by name --

REFUSED = [
    ("f_alpha_from_renyi value list", lambda: md.measures.f_alpha_from_renyi([0.25], 2.0), "value"),
    ("f_alpha_from_renyi value str", lambda: md.measures.f_alpha_from_renyi("0.5", 2.0), "value"),
    ("renyi_from_f_alpha value bool", lambda: md.measures.renyi_from_f_alpha(True, 2.0), "value"),
    ("renyi_from_f_alpha value None", lambda: md.measures.renyi_from_f_alpha(None, 2.0), "value"),
    ("pinsker_f_alpha t complex", lambda: md.measures.pinsker_f_alpha(np.array([0.5 + 1j]), 2.0),
     "t"),
    ("pinsker_f_alpha t bool", lambda: md.measures.pinsker_f_alpha(True, 2.0), "t"),
    ("pinsker_f_alpha t Mechanism", lambda: md.measures.pinsker_f_alpha(md.Mechanism(K2), 2.0),
     "t"),
    ("inverse s str", lambda: md.measures.pinsker_f_alpha_inverse("0.5", 2.0), "s"),
    ("boundary t complex", lambda: md.measures.f_alpha_tv_lower_boundary(0.5 + 1j, 2.0), "t"),
    ("f_divergence f arity", lambda: md.measures.f_divergence(P3, Q3, lambda: 0.0), "f"),
    ("f_divergence f nan", lambda: md.measures.f_divergence(P3, Q3, lambda t: t * math.nan), "f"),
    ("f_divergence f class", lambda: md.measures.f_divergence(P3, Q3, md.Mechanism), "f"),
    ("reverse_pinsker f nan",
     lambda: md.measures.reverse_pinsker(3.0, 0.5, lambda t: t * math.nan), "f"),
    ("reverse_pinsker v str", lambda: md.measures.reverse_pinsker(3.0, "0.5", md.measures.KL), "v"),
    ("reverse_pinsker_f_alpha u bool", lambda: md.measures.reverse_pinsker_f_alpha(True, 0.5, 2.0),
     "u"),
    ("hockey gamma str", lambda: md.measures.hockey_stick_divergence(P3, Q3, "2"), "gamma"),
    ("hockey generator gamma bool", lambda: md.measures.hockey_stick_generator(True), "gamma"),
    ("FGenerator f None", lambda: md.measures.FGenerator("g", None, 0.0, 1.0), "f"),
    ("FGenerator f_at_zero nan", lambda: md.measures.FGenerator("g", np.abs, math.nan, 1.0),
     "f_at_zero"),
    ("FGenerator f_at_zero str", lambda: md.measures.FGenerator("g", np.abs, "0.5", 1.0),
     "f_at_zero"),
    ("FGenerator slope -inf",
     lambda: md.measures.FGenerator("g", np.abs, 0.0, -math.inf), "slope_at_infinity"),
    ("FGenerator slope list", lambda: md.measures.FGenerator("g", np.abs, 0.0, [1.0]),
     "slope_at_infinity"),
    ("reverse_pinsker_kl q_min str", lambda: md.bounds.reverse_pinsker_kl(0.3, "0.5"), "q_min"),
    ("reverse_pinsker_kl tv bool", lambda: md.bounds.reverse_pinsker_kl(True, 0.1), "tv"),
    ("asoodeh q_min None", lambda: md.bounds.asoodeh_zhang_kl_bound(1.0, 0.3, None), "q_min"),
    ("duchi tv str", lambda: md.bounds.duchi_kl_bound(1.0, "0.5"), "tv"),
    ("pml_sdpi tv bool", lambda: md.bounds.pml_sdpi_bound(1.0, 0.1, 3, True), "tv"),
    ("pml_sdpi f nan", lambda: md.bounds.pml_sdpi_bound(1.0, 0.1, 3, 0.3, lambda t: t * math.nan),
     "f"),
    ("minimax delta list",
     lambda: md.bounds.private_minimax_lower_bound(100, [0.05], 1.0, 0.1), "delta"),
    ("minimax separation bool",
     lambda: md.bounds.private_minimax_lower_bound(100, 0.05, 1.0, 0.1, separation=True),
     "separation"),
    ("chi2 contraction seed str",
     lambda: md.measures.chi_squared_contraction(K3, seed="3"), "seed"),
    ("chi2 contraction seed bool", lambda: md.measures.chi_squared_contraction(K3, seed=True),
     "seed"),
    ("chi2 contraction seed -1", lambda: md.measures.chi_squared_contraction(K3, seed=-1), "seed"),
    ("max_dobrushin notion class", lambda: md.max_dobrushin(md.LDP, 3), "notion"),
    ("max_cross notion None", lambda: md.bounds.max_cross_channel_gamma(None, 3), "notion"),
    ("max_cross n above 1/c", lambda: md.bounds.max_cross_channel_gamma(md.PML(1.0, c=0.1), 10**12),
     "n"),
    ("rldp first None", lambda: md.bounds.rldp_amplification_bound(None, K3, 2.0), "first"),
    ("rldp second str", lambda: md.bounds.rldp_amplification_bound(K23, "abc", 2.0), "second"),
    ("rldp eta_tv bool", lambda: md.bounds.rldp_amplification_bound(K23, K3, 2.0, eta_tv=True),
     "eta_tv"),
    ("rldp eta_tv list", lambda: md.bounds.rldp_amplification_bound(K23, K3, 2.0, eta_tv=[0.5]),
     "eta_tv"),
    ("linear_extreme c text",
     lambda: md.notions.linear_extreme(["1", "0", "2", "0.5"], PHAT, 2.0, 0.05), "c"),
    ("linear_extreme c bool",
     lambda: md.notions.linear_extreme([True, False, False, False], PHAT, 2.0, 0.05), "c"),
    ("linear_extreme radius str",
     lambda: md.notions.linear_extreme([1.0, 0.0, 2.0, 0.5], PHAT, 2.0, "0.5"), "radius"),
    ("linear_extreme maximize str",
     lambda: md.notions.linear_extreme([1.0, 0.0, 2.0, 0.5], PHAT, 2.0, 0.05, maximize="False"),
     "maximize"),
    ("robust ball None", lambda: md.robust_ldp_level(K4, None, (2, 2)), "ball"),
    ("projection ball str", lambda: md.notions.projection_level(K4, "abc", (2, 2)), "ball"),
    ("conditional_ball ball LDP", lambda: md.notions.conditional_ball(md.LDP(1.0), (2, 2), 0),
     "ball"),
    ("conditional_radii ball float", lambda: md.conditional_radii(1.0, (2, 2)), "ball"),
    ("conditional_lower_bounds P_s = 0",
     lambda: md.conditional_lower_bounds(md.RenyiBall([0.5, 0.5, 0.0, 0.0], 2.0, 0.05),
                                         (2, 2)), "ball"),
    ("ball divergence p text", lambda: BALL.divergence(["0.07", "0.1", "0.26", "0.57"]), "p"),
    ("ball contains p length", lambda: BALL.contains([0.5, 0.5]), "p"),
    ("adaptive mechanisms None", lambda: md.bounds.adaptive_composition(None), "mechanisms"),
    ("adaptive mechanisms str", lambda: md.bounds.adaptive_composition("abc"), "mechanisms"),
    ("adaptive single kernel", lambda: md.bounds.adaptive_composition(K3), "mechanisms"),
    ("adaptive complex element", lambda: md.bounds.adaptive_composition([K3, K32 + 1j]),
     "mechanisms"),
    ("composition mechanisms None",
     lambda: md.bounds.composition_envelope_bound(None, P3, 0.2), "mechanisms"),
    ("conditional leakage second text",
     lambda: md.bounds.conditional_maximal_leakage(K3, np.asarray(K32).astype(str).tolist(), P3),
     "second"),
    ("conditional leakage second bool",
     lambda: md.bounds.conditional_maximal_leakage(K3, np.eye(3, 2, dtype=bool), P3), "second"),
    ("conditional leakage second 0-d", lambda: md.bounds.conditional_maximal_leakage(K3, 0.5, P3),
     "second"),
    ("cdf t nan", lambda: md.bounds.leakage_distribution(K3, P3).cdf(math.nan), "t"),
    ("cdf t str", lambda: md.bounds.leakage_distribution(K3, P3).cdf("0.5"), "t"),
    ("tail t complex", lambda: md.bounds.leakage_distribution(K3, P3).tail(0.5 + 1j), "t"),
    ("tail t array", lambda: md.bounds.leakage_distribution(K3, P3).tail(np.array([0.25])), "t"),
]


@pytest.mark.parametrize(("label", "call", "name"), REFUSED, ids=[r[0] for r in REFUSED])
def test_bad_input_is_refused_by_name(label, call, name):
    with pytest.raises(InvalidInputError) as info:
        call()
    assert _names(str(info.value), name), str(info.value)


TOO_LARGE = [
    ("max_dobrushin n", lambda: md.max_dobrushin(md.LDP(1.0), 10**12), "n"),
    ("decomposable_witness_kernel n", lambda: md.bounds.decomposable_witness_kernel(10**12), "n"),
    ("chi_squared_contraction n_starts",
     lambda: md.measures.chi_squared_contraction(K3, n_starts=10**12), "n_starts"),
    ("block_uniform_channel n", lambda: md.bounds.block_uniform_channel(10**12, 2), "n"),
    ("circulant_singular_channel n", lambda: md.bounds.circulant_singular_channel(10**12, 2), "n"),
    ("four_level_prior k", lambda: md.priors.four_level_prior(10**12, 0.1), "k"),
]


@pytest.mark.parametrize(("label", "call", "name"), TOO_LARGE, ids=[r[0] for r in TOO_LARGE])
def test_sizes_beyond_memory_raise_too_large_by_name(label, call, name):
    with pytest.raises(TooLargeError) as info:
        call()
    assert _names(str(info.value), name), str(info.value)


# -- the bad-input battery of the engineer's walkthrough --------------------------------


def test_the_pinsker_curves_are_elementwise_by_contract():
    t = [0.1, 0.3, 0.6]
    for name in ("pinsker_f_alpha", "pinsker_f_alpha_inverse", "f_alpha_tv_lower_boundary"):
        function = getattr(md.measures, name)
        vector = np.asarray(function(t, 2.0))
        assert vector.shape == (3,)
        for value, scalar in zip(vector, t, strict=True):
            assert value == pytest.approx(float(function(scalar, 2.0)), rel=1e-15)


def test_a_row_sum_tolerance_far_from_zero_is_refused():
    with pytest.raises(md.InvalidInputError, match="atol must be at most"):
        md.Mechanism([[0.5, 0.9], [0.5, 0.5]], atol=10)


def test_a_contraction_over_one_input_is_its_limit_and_says_so():
    """One input: no pair to separate, η_TV = 0 (the maximum over an empty set of pairs),
    stated in the docstring rather than refused."""
    assert float(md.max_dobrushin(md.LDP(1.0), n=1)) == pytest.approx(0.0, abs=1e-15)
    assert "n = 1" in md.max_dobrushin.__doc__


def test_mutual_information_columns_refuse_an_all_zero_column_and_keep_1e308():
    from mechdesign.optimal.utilities import MutualInformationUtility

    utility = MutualInformationUtility(np.array([0.5, 0.5]))
    with pytest.raises(md.InvalidInputError, match="column 1 is all zero"):
        utility.column_values(np.array([[0.3, 0.7], [0.0, 0.0]]))
    # μ(v) = Σ_x P_x v_x log(v_x / P·v), written out with logs of the ratio (no overflow)
    value = utility.column_values(np.array([[1e308, 1.0]]))[0]
    mean = 0.5e308 + 0.5
    expected = 0.5 * 1e308 * math.log(1e308 / mean) + 0.5 * math.log(1.0 / mean)
    assert value == pytest.approx(expected, rel=1e-12)


def test_the_linearisation_oracle_refuses_a_prior_of_the_wrong_length():
    from mechdesign.optimal.robust.pricing import LinearisationSource

    ball = md.RenyiBall(np.full(4, 0.25), 2.0, 0.05)
    notion = md.notions.RobustLDP(1.0, ball, shape=(2, 2))
    with pytest.raises(md.InvalidInputError, match="prior"):
        LinearisationSource(notion, [0.5, 0.5])
