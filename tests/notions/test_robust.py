"""Robust LDP: the robust-LDP paper's Examples 3–5, PolyOpt (both variants), NR, SRR,
GRR and IR, their audits, and bad input.

Independent joint-space optimisation of the audit is in tests/test_robust_reference.py.
Printed numbers are asserted only where they follow from the paper's formulas; where they
do not, the test asserts the formula's value and says what the paper printed (GUIDE.md).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import mechdesign as md

P_HAT = np.array([0.07, 0.10, 0.26, 0.57])  # Example 1, the estimate
P_STAR = np.array([0.1, 0.1, 0.2, 0.6])  # Example 1, the true distribution
SHAPE = (2, 2)
EPS = math.log(2)  # Example 3


@pytest.fixture(scope="module")
def ball() -> md.RenyiBall:
    return md.RenyiBall(P_HAT, 2, md.chi2_radius(100, 4, 0.05))


@pytest.fixture(scope="module")
def polyopt(ball):
    return {
        variant: md.design(md.RobustLDP(EPS, ball, SHAPE, variant=variant), P_HAT)
        for variant in ("paper", "default")
    }


# -- Example 3: PolyOpt -------------------------------------------------------------------

# The vertex matrix V printed in Example 3 (rows; columns in the order of Example 1).
PRINTED_V = np.array(
    [
        [0.0744, 0.3227, 0.5603, 0.0426],
        [0.2426, 0.2426, 0.4783, 0.0364],
        [0.3333, 0.3333, 0.1667, 0.1667],
        [0.1091, 0.4737, 0.2086, 0.2086],
        [0.0993, 0.4310, 0.0000, 0.4697],
        [0.1121, 0.4864, 0.0000, 0.4015],
        [0.3404, 0.3404, 0.0000, 0.3191],
        [0.0770, 0.3343, 0.2944, 0.2944],
        [0.2234, 0.2234, 0.0000, 0.5531],
        [0.4875, 0.1434, 0.0000, 0.3690],
        [0.4360, 0.1283, 0.0000, 0.4358],
        [0.4758, 0.1400, 0.1921, 0.1921],
        [0.3437, 0.1011, 0.2776, 0.2776],
        [0.1602, 0.1602, 0.6316, 0.0481],
        [0.1667, 0.1667, 0.3333, 0.3333],
        [0.3325, 0.0978, 0.5294, 0.0403],
    ]
)


def test_example3_paper_variant_has_16_inequalities_and_the_printed_vertices(ball):
    """Definition 3 as printed: 2⁴ = 16 inequalities (s1 = s2 included; four of them,
    u1 = u2 with s1 = s2, are trivially true), and the 16 vertices of V — computed from
    Theorem 1's L_u|s, not the printed Example 2 values (GUIDE.md)."""
    cone = md.RobustLDP(EPS, ball, SHAPE, variant="paper").cone(4)
    assert cone.numerators.shape == (16, 4)
    assert cone.inequalities().shape[0] <= 12  # the trivial rows are dropped
    vertices = cone.vertices("cdd").points
    assert vertices.shape == (16, 4)
    for printed in PRINTED_V:
        assert np.abs(vertices - printed).max(axis=1).min() < 6e-5
    exact = cone.vertices("exact").points
    np.testing.assert_allclose(exact, vertices, atol=1e-9)


def test_example3_polyopt_utility_and_mechanism(polyopt):
    """I_P̂(X;Y) = 0.4228 and the printed Q_PolyOpt (up to the order of outputs). The
    paper prints I_P*(X;Y) = 0.2804; its own Q gives 0.3702 (GUIDE.md: one printed
    I_P* of Example 3 disagrees with the printed Q)."""
    result = polyopt["paper"]
    assert result.utility == pytest.approx(0.4228, abs=5e-5)
    printed_q = np.array(  # rows are outputs in the paper (Q[y, x])
        [
            [0.0885, 0.3840, 0.6667, 0.0507],
            [0.0860, 0.3731, 0.0000, 0.3080],
            [0.6162, 0.1813, 0.0000, 0.6159],
            [0.2094, 0.0616, 0.3333, 0.0254],
        ]
    )
    columns = result.mechanism.matrix.T
    assert columns.shape == (4, 4)
    for row in printed_q:
        assert np.abs(columns - row).max(axis=1).min() < 1.5e-4
    printed_mechanism = md.Mechanism.from_columns(printed_q / printed_q.sum(axis=0))
    assert md.mutual_information(printed_mechanism, P_STAR) == pytest.approx(0.3702, abs=2e-4)
    assert md.mutual_information(result.mechanism, P_STAR) == pytest.approx(0.3702, abs=1e-4)


def test_both_polyopt_variants_pass_the_exact_robust_audit(ball, polyopt):
    """Theorem 2: PolyOpt is (ε, F)-RLDP — checked over the ball itself, not the
    polytopes. The default variant is tight (level = ε); the paper's is not."""
    levels = {v: md.robust_ldp_level(d.mechanism, ball, SHAPE) for v, d in polyopt.items()}
    for level in levels.values():
        assert level <= EPS + 1e-9
        assert level.exact
        assert level <= level.projection_bound + 1e-12
    assert levels["default"] == pytest.approx(EPS, abs=1e-9)
    assert levels["paper"] == pytest.approx(0.58131, abs=1e-5)
    # design() audited with the same function: its privacy level is the exact level.
    assert polyopt["default"].privacy_level == pytest.approx(levels["default"], abs=1e-12)


def test_default_variant_gains_utility_over_the_papers(polyopt):
    """Dropping the s1 = s2 rows (which RLDP does not ask for) raises I_P̂ from 0.4228 to
    0.5630 in Example 3."""
    assert polyopt["default"].utility == pytest.approx(0.563050, abs=1e-6)
    assert polyopt["default"].utility > polyopt["paper"].utility + 0.1


def test_non_robust_optimum_leaks_more_than_epsilon_under_the_truth(ball, polyopt):
    """NR (Sec. 8) is the most useful but protects P̂ only: at P* its realised ε* exceeds
    ε, and over the ball its level is far above ε. PolyOpt's ε* ≤ ε since P* ∈ F."""
    nr = md.design(md.notions.NonRobustLDP(EPS, P_HAT, SHAPE), P_HAT)
    assert md.notions.realised_epsilon(nr.mechanism, P_HAT, SHAPE) <= EPS + 1e-9
    assert nr.utility >= polyopt["default"].utility - 1e-9
    assert ball.contains(P_STAR)
    assert md.notions.realised_epsilon(nr.mechanism, P_STAR, SHAPE) > EPS + 0.2
    assert md.robust_ldp_level(nr.mechanism, ball, SHAPE) > EPS + 0.5
    for result in polyopt.values():
        assert md.notions.realised_epsilon(result.mechanism, P_STAR, SHAPE) <= EPS + 1e-9


# -- Example 4: SRR and GRR ---------------------------------------------------------------


def test_example4_srr_and_grr(ball):
    """The printed SRR and GRR matrices and all four utilities."""
    srr = md.mechanisms.secret_randomized_response(SHAPE, EPS)
    np.testing.assert_allclose(
        srr.matrix,
        md.reproduce.PAPER_EXAMPLES["robust-ldp-example4-SRR"].mechanism.matrix,
        atol=1e-15
    )
    grr = md.randomized_response(4, EPS)
    np.testing.assert_allclose(np.diag(grr.matrix), 0.4, atol=1e-15)
    assert md.mutual_information(grr, P_HAT) == pytest.approx(0.0419, abs=5e-5)
    assert md.mutual_information(srr, P_HAT) == pytest.approx(0.1005, abs=5e-5)
    assert md.mutual_information(grr, P_STAR) == pytest.approx(0.0412, abs=5e-5)
    assert md.mutual_information(srr, P_STAR) == pytest.approx(0.0942, abs=5e-5)
    # Lemma 2 and Proposition 3: SRR is (ε, P_X)-RLDP, with equality.
    assert md.notions.secret_ldp_level(srr, SHAPE) == pytest.approx(EPS, abs=1e-12)
    assert md.notions.SecretLDP(EPS, SHAPE).cone(4).level(srr) == pytest.approx(EPS, abs=1e-12)
    assert md.robust_ldp_level(srr, ball, SHAPE) <= EPS


def test_srr_lies_in_the_default_cone_but_not_always_in_the_papers(ball):
    """Every column of SRR lies in the default Γ_ε (max over D_s1 ≤ max of the block ≤
    e^ε min of the other block ≤ e^ε min over D_s2), so the default PolyOpt is at least
    as useful as SRR. The paper's variant adds s1 = s2 rows that SRR can violate: at
    Example 3's ε = log 2 one column does (its level on that cone is 0.775 > log 2)."""
    for eps in (0.1, EPS, 1.5):
        srr = md.mechanisms.secret_randomized_response(SHAPE, eps)
        default = md.RobustLDP(eps, ball, SHAPE).cone(4)
        assert all(default.contains(col) for col in srr.matrix.T)
    paper = md.RobustLDP(EPS, ball, SHAPE, variant="paper").cone(4)
    srr = md.mechanisms.secret_randomized_response(SHAPE, EPS)
    assert not all(paper.contains(col) for col in srr.matrix.T)
    assert paper.level(srr) == pytest.approx(0.77515, abs=1e-5)


def test_theorem4_srr_is_the_optimal_secret_ldp_mechanism_for_large_epsilon():
    """Theorem 4: for large ε SRR maximises I_P over (ε, P_X)-RLDP mechanisms — the LP
    over the Proposition 3 cone's vertices (cdd) reaches exactly SRR's utility. At
    Example 3's ε = log 2 the LP beats SRR (0.1295 against 0.1005)."""
    rng = np.random.default_rng(4)
    for shape in ((2, 2), (2, 3), (3, 2)):
        n = shape[0] * shape[1]
        prior = rng.dirichlet(np.ones(n) * 2)
        notion = md.notions.SecretLDP(6.0, shape)
        srr = md.mechanisms.secret_randomized_response(shape, 6.0)
        assert notion.level(srr) == pytest.approx(6.0, abs=1e-12)
        optimum = md.design(notion, prior).utility
        assert optimum == pytest.approx(md.mutual_information(srr, prior), abs=1e-9)
    small = md.design(md.notions.SecretLDP(EPS, SHAPE), P_HAT).utility
    assert small == pytest.approx(0.129518, abs=1e-6)


# -- Example 5: independent reporting ----------------------------------------------------


def test_example5_independent_reporting(ball):
    """d = 1.4591 (from rad_s1 = 0.6310 as Theorem 1 gives it; the printed 0.6107 would
    give 1.4184), δ₂ = log(1.3707 e^{ε₂} − 0.3707), the optimum at the boundary
    ε₂ = log 2 with I_P̂ = 0.0755, the printed Q_IR, and I_P* = 0.0718."""
    ir = md.mechanisms.design_independent_reporting(EPS, ball, SHAPE)
    assert ir.d == pytest.approx(1.4591, abs=5e-5)
    for eps2 in (0.1, 0.4, EPS):
        assert math.log1p(2 * math.expm1(eps2) / ir.d) == pytest.approx(
            math.log(1.3707 * math.exp(eps2) - 0.3707), abs=1e-4
        )
    assert ir.epsilon2 == pytest.approx(EPS, abs=1e-8)
    assert ir.utility == pytest.approx(0.0755, abs=5e-5)
    printed = np.array(
        [
            [0.3517, 0.1483, 0.3517, 0.1483],
            [0.1483, 0.3517, 0.1483, 0.3517],
            [0.3517, 0.1483, 0.3517, 0.1483],
            [0.1483, 0.3517, 0.1483, 0.3517],
        ]
    )
    np.testing.assert_allclose(ir.mechanism.matrix, printed, atol=5e-5)
    assert md.mutual_information(ir.mechanism, P_STAR) == pytest.approx(0.0718, abs=5e-5)
    # Theorem 6: I(X; IR) = I(R1(S); S) + I(R2(U); U | R1(S)); at ε₁ = 0 the first term
    # vanishes and the second is I(R2(U); U).
    u_marginal = P_HAT.reshape(2, 2).sum(axis=0)
    r2 = md.randomized_response(2, ir.delta2)
    assert ir.utility == pytest.approx(md.mutual_information(r2, u_marginal), abs=1e-12)
    # Theorem 5: (ε, F)-RLDP — loosely: the exact level is 0.375.
    level = md.robust_ldp_level(ir.mechanism, ball, SHAPE)
    assert level <= EPS
    assert level == pytest.approx(0.374814, abs=1e-5)
    assert np.all(np.diff(ir.grid[:, 0]) > 0)
    assert ir.utility == pytest.approx(ir.grid[:, 1].max(), abs=0)


def test_theorem6_utility_decomposition_on_random_splits():
    """Theorem 6 for random R1, R2 and P: I(X; IR) = I(R1(S); S) + I(R2(U); U | R1(S))."""
    rng = np.random.default_rng(6)
    for a1, a2 in ((2, 3), (3, 2), (3, 3)):
        p = rng.dirichlet(np.ones(a1 * a2)).reshape(a1, a2)
        r1 = rng.dirichlet(np.ones(3), size=a1)
        r2 = rng.dirichlet(np.ones(2), size=a2)
        total = md.mutual_information(md.mechanisms.independent_reporting(r1, r2), p.ravel())
        first = md.mutual_information(r1, p.sum(axis=1))
        # Given R1(S) = r: P(U | r) ∝ Σ_s P(s, u) R1[s, r].
        joint_ur = np.einsum("su,sr->ru", p, r1)
        p_r = joint_ur.sum(axis=1)
        second = sum(
            p_r[r] * md.mutual_information(r2, joint_ur[r] / p_r[r]) for r in range(3)
        )
        assert total == pytest.approx(first + second, abs=1e-12)


# -- random instances: orderings and audits ----------------------------------------------


def _random_instance(rng, shape, n_samples):
    p_star = rng.dirichlet(np.ones(shape[0] * shape[1]) * 2.0)
    counts = rng.multinomial(n_samples, p_star)
    while np.any(counts.reshape(shape).sum(axis=1) == 0):
        counts = rng.multinomial(n_samples, p_star)
    p_hat = counts / n_samples
    ball = md.RenyiBall(p_hat, 2, md.chi2_radius(n_samples, p_hat.size, 0.05))
    return p_star, p_hat, ball


@pytest.mark.parametrize("seed", range(4))
def test_utilities_are_ordered_and_every_robust_design_passes_the_audit(seed):
    """paper ≤ default ≤ NR; default ≥ SRR and GRR; PolyOpt (both) and IR pass the exact
    robust audit at ε; NR passes its own (non-robust) audit."""
    rng = np.random.default_rng(100 + seed)
    shape = ((2, 2), (2, 3), (3, 2), (2, 2))[seed]
    eps = (0.5, 1.0, 1.0, 2.0)[seed]
    _, p_hat, ball = _random_instance(rng, shape, 300)
    n = p_hat.size
    paper = md.design(md.RobustLDP(eps, ball, shape, variant="paper"), p_hat)
    default = md.design(md.RobustLDP(eps, ball, shape), p_hat)
    nr = md.design(md.notions.NonRobustLDP(eps, p_hat, shape), p_hat)
    assert paper.utility <= default.utility + 1e-9
    assert default.utility <= nr.utility + 1e-9
    srr = md.mechanisms.secret_randomized_response(shape, eps)
    grr = md.randomized_response(n, eps)
    assert md.mutual_information(srr, p_hat) <= default.utility + 1e-9
    assert md.mutual_information(grr, p_hat) <= default.utility + 1e-9
    for mechanism in (paper.mechanism, default.mechanism):
        assert md.robust_ldp_level(mechanism, ball, shape) <= eps + 1e-9
    ir = md.mechanisms.design_independent_reporting(eps, ball, shape)
    assert md.robust_ldp_level(ir.mechanism, ball, shape) <= eps + 1e-9
    assert md.notions.realised_epsilon(nr.mechanism, p_hat, shape) <= eps + 1e-9


def test_radius_zero_is_the_non_robust_notion_and_infinite_radius_is_secret_ldp():
    """B = 0: F = {P̂}, so the robust level is ε* at P̂ and PolyOpt's default cone is the
    NR cone (same optimum). B = ∞: F = P_X, the level is Proposition 3's."""
    rng = np.random.default_rng(9)
    shape = (2, 3)
    p_hat = rng.dirichlet(np.ones(6) * 2)
    point = md.RenyiBall(p_hat, 2, 0.0)
    kernel = rng.dirichlet(np.ones(4), size=6)
    assert md.robust_ldp_level(kernel, point, shape) == pytest.approx(
        md.notions.realised_epsilon(kernel, p_hat, shape), abs=1e-12
    )
    assert md.design(md.RobustLDP(1.0, point, shape), p_hat).utility == pytest.approx(
        md.design(md.notions.NonRobustLDP(1.0, p_hat, shape), p_hat).utility, abs=1e-9
    )
    everything = md.RenyiBall(p_hat, 2, math.inf)
    assert md.robust_ldp_level(kernel, everything, shape) == pytest.approx(
        md.notions.secret_ldp_level(kernel, shape), abs=1e-12
    )


# -- bad input ------------------------------------------------------------------------------


def test_bad_input_is_refused_with_a_clear_message(ball):
    with pytest.raises(md.InvalidInputError, match="does not factor"):
        md.RobustLDP(1.0, ball, (3, 2))
    with pytest.raises(md.InvalidInputError, match="does not factor"):
        md.notions.NonRobustLDP(1.0, P_HAT, (1, 3))
    with pytest.raises(md.InvalidInputError, match="shape"):
        md.notions.SecretLDP(1.0, (2, 0))
    with pytest.raises(md.InvalidInputError, match="variant"):
        md.RobustLDP(1.0, ball, SHAPE, variant="strict")
    with pytest.raises(md.InvalidInputError, match="ball"):
        md.RobustLDP(1.0, P_HAT, SHAPE)
    with pytest.raises(md.InvalidInputError, match="epsilon"):
        md.RobustLDP(-1.0, ball, SHAPE)
    with pytest.raises(md.InvalidInputError, match="P̂_s = 0"):
        md.RobustLDP(1.0, md.RenyiBall([0.5, 0.5, 0.0, 0.0], 2, 0.1), SHAPE)
    with pytest.raises(md.InvalidInputError, match="rows"):
        md.robust_ldp_level(np.eye(3), ball, SHAPE)
    with pytest.raises(md.InvalidInputError, match="inputs"):
        md.RobustLDP(1.0, ball, SHAPE).cone(5)
    with pytest.raises(md.InvalidInputError, match="epsilon"):
        md.mechanisms.secret_randomized_response(SHAPE, math.inf)
    with pytest.raises(md.InvalidInputError, match="ball"):
        md.mechanisms.design_independent_reporting(1.0, P_HAT, SHAPE)
    with pytest.raises(md.InvalidInputError, match="does not factor"):
        md.notions.realised_epsilon(np.eye(4), P_HAT, (4, 2))
    with pytest.raises(md.InvalidInputError, match="radius"):
        md.notions.linear_extreme([1, 0], [0.5, 0.5], 2, -0.1)
    with pytest.raises(md.InvalidInputError, match="c must"):
        md.notions.linear_extreme([1, 0, 0], [0.5, 0.5], 2, 0.1)


def test_cddlib_numerical_inconsistency_falls_back_to_other_row_orders():
    """A synthetic instance of the Sec. 8 experiments (counts of n = 32,561 draws) whose
    PolyOpt cone (paper variant, ε = 2) makes cddlib's default row order stop with
    "numerical inconsistency". The other row orders are tried and their union is used;
    the design is still audited exactly over the ball."""
    counts = np.array([9282, 14820, 55, 2382, 220, 35, 17, 26, 5423, 301])
    p_hat = counts / counts.sum()
    ball = md.RenyiBall(p_hat, 2, md.chi2_radius(int(counts.sum()), 10, 0.05))
    notion = md.RobustLDP(2.0, ball, (2, 5), variant="paper")
    cone = notion.cone(10)
    vertices = cone.vertices("cdd", max_vertices=10**12)
    assert vertices.backend.startswith("cdd (union over")
    # Which row orders succeed on this degenerate cone depends on the last bits of its
    # entries, which move with numpy's rounding: the union has 1,195 vertices with numpy
    # 2.4 and 1,121 with numpy 1.26 (the optimum below agrees to 5e-13). Every point must
    # be a vertex of the section: feasible, with 9 independent tight inequalities.
    assert len(vertices) >= 1000
    h = cone.h_representation()
    for v in vertices.points:
        slack = h @ v
        assert slack.min() >= -1e-9
        tight = h[np.abs(slack) <= 1e-9 * max(1.0, np.abs(h).max())]
        assert np.linalg.matrix_rank(np.vstack([tight, np.ones(10)]), tol=1e-9) == 10
    result = md.design(notion, p_hat, max_vertices=10**12)
    assert result.audit_passed
    assert result.privacy_level <= 2.0
    assert result.certificate.holds


# -- errata ledger (issue 25): Example 2's F′ and Example 5's d --------------------------


def test_example2_f_prime_vertices():
    """The vertices of F′ = {P : P_{s,u} ≥ L_{u|s} (P_{s,u1} + P_{s,u2})} with the correct
    L (the library's, checked against direct optimisation in test_uncertainty_reference),
    each maximising one coordinate by scipy's linprog; the paper prints the vertices of
    the wrong L."""
    from scipy.optimize import linprog

    p_hat = np.array([0.07, 0.10, 0.26, 0.57])
    ball = md.RenyiBall(p_hat, 2.0, md.chi2_radius(100, 4, 0.05))
    lower = md.conditional_lower_bounds(ball, (2, 2))
    rows = []
    for s in range(2):
        for u in range(2):
            row = np.zeros(4)
            row[2 * s:2 * s + 2] = lower[s, u]
            row[2 * s + u] -= 1.0
            rows.append(row)  # L (P_{s,u1} + P_{s,u2}) − P_{s,u} ≤ 0
    vertices = []
    for i in range(4):
        result = linprog(-np.eye(4)[i], A_ub=np.array(rows), b_ub=np.zeros(4),
                         A_eq=np.ones((1, 4)), b_eq=[1.0], bounds=(0, None), method="highs")
        vertices.append(result.x)
    expected = [[0.7273, 0.2727, 0, 0], [0.1552, 0.8448, 0, 0], [0, 0, 0.4666, 0.5334],
                [0, 0, 0.1921, 0.8079]]
    np.testing.assert_allclose(vertices, expected, atol=5e-5)
    from mechdesign.reproduce import robust_ldp

    np.testing.assert_allclose(robust_ldp.f_prime_vertices(lower), vertices, atol=1e-9)
    printed = [[0.7171, 0.2829, 0, 0], [0.1620, 0.8380, 0, 0], [0, 0, 0.4663, 0.5337],
               [0, 0, 0.1923, 0.8077]]
    assert np.abs(np.array(vertices) - printed).max() > 5e-3


def test_example5_d_from_the_correct_radius():
    """Example 5's d = 2 max_s rad_s + ‖P̂_U|s1 − P̂_U|s2‖₁: the printed 1.4591 is right
    with the correct rad_s1 = 0.6310, while the displayed arithmetic with 0.6107 gives
    1.4184."""
    conditional = np.array([[0.07, 0.10], [0.26, 0.57]])
    conditional /= conditional.sum(axis=1, keepdims=True)
    spread = np.abs(conditional[0] - conditional[1]).sum()
    assert 2 * 0.6107 + spread == pytest.approx(1.4184, abs=5e-5)
    assert 2 * 0.6310 + spread == pytest.approx(1.4591, abs=1e-4)
    ball = md.RenyiBall(np.array([0.07, 0.10, 0.26, 0.57]), 2.0, md.chi2_radius(100, 4, 0.05))
    ir = md.mechanisms.design_independent_reporting(math.log(2), ball, (2, 2))
    assert ir.d == pytest.approx(1.4591, abs=5e-5)
