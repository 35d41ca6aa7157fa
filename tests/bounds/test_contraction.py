"""Contraction bounds (mechdesign.bounds.contraction, Dobrushin paper): the LP over
(ε, c)-PML kernels against the closed form Ξ(ε, c) of Theorem 1, Theorem 2's witness,
Lemmas 1 and 7, Proposition 2's Γ, the SDPI corollaries and their comparators, and
Example 3's minimax bound.

Ξ itself is tested in tests/notions/test_pml.py, Remark 2's and Example 1's kernels in
tests/mechanisms/test_closed_forms.py, η_TV in tests/measures/test_leakage.py and η_χ² in
tests/measures/test_contraction.py.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, strategies as st

import mechdesign as md
from tests.helpers import random_kernel

# -- the maximal Dobrushin coefficient by LP ------------------------------------------------

XI_GRID = [
    (n, fraction, eps)
    for n in (2, 3, 4, 5, 7)
    for fraction in (1e-6, 0.05, 0.3, 0.7, 1.0)
    for eps in (0.0, 0.05, 0.4, 1.0, 2.5, 6.0)
]


def test_closed_form_equals_lp_on_a_grid():
    """Theorem 1 = Lemma 3's LP, including ε at and beyond log(2/(Nc)) where both are 1."""
    worst = 0.0
    for n, fraction, eps in XI_GRID:
        c = fraction / n
        for e in (eps, math.log(2 / (n * c))):
            lp = md.max_dobrushin(md.PML(e, c=c), n)
            worst = max(worst, abs(lp - md.dobrushin_bound(e, c, n)))
    assert worst <= 1e-9, f"max |LP − Ξ| = {worst:.3e}"


@given(st.integers(2, 10), st.floats(1e-4, 1.0), st.floats(0.0, 8.0))
def test_closed_form_equals_lp_hypothesis(n, fraction, eps):
    c = fraction / n
    lp = md.max_dobrushin(md.PML(eps, c=c), n)
    assert float(lp) == pytest.approx(md.dobrushin_bound(eps, c, n), abs=1e-9)
    # The maximiser is an admissible binary kernel attaining the value, feasible up to the
    # LP's absolute tolerance 1e-10 per row: ~1e-10 / (smallest entry) in ε (docstring).
    k = lp.kernel.matrix
    smallest = k[k > 0].min()
    assert md.pml_capacity(k, c) <= eps + 1e-8 + 10 * 1e-10 / smallest
    assert md.dobrushin_coefficient(lp.kernel) == pytest.approx(float(lp), abs=1e-9)


@pytest.mark.parametrize("eps", [0.0, 0.3, 1.0, 3.0])
@pytest.mark.parametrize("n", [2, 3, 6])
def test_ldp_lp_is_kairouz(eps, n):
    """ε-LDP: sup η_TV = (e^ε − 1)/(e^ε + 1) (Kairouz et al., eq. 13) for every N."""
    lp = md.max_dobrushin(md.LDP(eps), n)
    assert float(lp) == pytest.approx(math.tanh(eps / 2), abs=1e-10)
    assert lp.closed_form == pytest.approx(math.tanh(eps / 2), abs=1e-15)
    assert md.ldp_level(lp.kernel) <= eps + 1e-9


def test_known_prior_lp_kernel_is_admissible_and_attains():
    rng = np.random.default_rng(3)
    for _ in range(10):
        n = int(rng.integers(2, 7))
        prior = rng.dirichlet(np.ones(n))
        eps = float(rng.uniform(0.05, 2.0))
        notion = md.PML(eps, prior=prior)
        lp = md.max_dobrushin(notion, n)
        assert lp.closed_form is None
        assert notion.level(lp.kernel) <= eps + 1e-8
        assert md.dobrushin_coefficient(lp.kernel) == pytest.approx(float(lp), abs=1e-9)
        # A known prior is one point of Q_X(c) for c = min P, so its set of kernels is
        # larger: the supremum can only grow.
        c = float(prior.min())
        assert float(lp) >= md.dobrushin_bound(eps, c, n) - 1e-9


def test_hull_pml_lies_between_its_vertices_and_the_c_set():
    """PML over conv(P_1, P_2) ⊂ each single prior's set, and ⊃ Q_X(c) ⊃ the hull."""
    prior_a = np.array([0.5, 0.3, 0.2])
    prior_b = np.array([0.2, 0.3, 0.5])
    eps = 0.7
    hull = md.max_dobrushin(md.PML(eps, priors=[prior_a, prior_b]), 3)
    for prior in (prior_a, prior_b):
        assert float(hull) <= md.max_dobrushin(md.PML(eps, prior=prior), 3) + 1e-9
    c = 0.2  # both priors (hence the hull) lie in Q_X(0.2)
    assert float(hull) >= md.dobrushin_bound(eps, c, 3) - 1e-9


def test_max_dobrushin_one_input_and_attributes():
    one = md.max_dobrushin(md.LDP(1.0), 1)
    assert float(one) == pytest.approx(0.0, abs=1e-12)
    lp = md.max_dobrushin(md.PML(0.5, c=0.1), 4)
    assert lp.n_programs == 1  # permutation-invariant cone: one pair suffices
    skewed = md.max_dobrushin(md.PML(0.5, prior=[0.4, 0.3, 0.2, 0.1]), 4)
    assert skewed.n_programs == 6
    assert md.max_dobrushin(md.PML(0.5, prior=[0.25] * 4), 4).n_programs == 1
    assert isinstance(lp, float)
    assert lp.value == float(lp)
    with pytest.raises(AttributeError):
        lp.value = 2.0
    assert "DobrushinMaximum" in repr(lp)


# -- Theorem 2, Lemma 1, Lemma 7 -------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 5, 10])
@pytest.mark.parametrize("fraction", [0.01, 0.4, 1.0])
def test_theorem2_witness_is_log_2_over_nc_pml_and_decomposable(n, fraction):
    """Eq. (22): level exactly log(2/(Nc)), two rows with disjoint supports, η_χ² = 1."""
    c = fraction / n
    k = md.bounds.decomposable_witness_kernel(n)
    assert md.pml_capacity(k, c) == pytest.approx(md.bounds.decomposable_threshold(c, n), rel=1e-12)
    assert md.dobrushin_coefficient(k) == pytest.approx(1.0, abs=1e-12)
    assert md.bounds.disjoint_support_pair(k) is not None
    assert md.measures.chi_squared_contraction(k).lower_bound == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("n", [2, 4, 7])
@pytest.mark.parametrize("fraction", [0.05, 0.5, 1.0])
def test_lemma7_no_zero_in_both_columns_below_the_threshold(n, fraction):
    """M_0(ε, c) = ∅ iff ε < log(2/(Nc)): forcing p_0 = 1 and p_1 = 0 into the LP of a
    binary kernel is feasible exactly from the threshold on (η_TV = 1 needs it)."""
    c = fraction / n
    threshold = md.bounds.decomposable_threshold(c, n)
    assert float(md.max_dobrushin(md.PML(threshold * (1 - 1e-6), c=c), n)) < 1.0
    assert float(md.max_dobrushin(md.PML(threshold, c=c), n)) == pytest.approx(1.0, abs=1e-9)


def _column_with_zeros_is_admissible(eps: float, c: float, n: int, zeros: int) -> bool:
    """Independent check: the support indicator, scaled by a small t and completed by the
    strictly positive column 1 − t·indicator (whose level is O(t))."""
    column = np.r_[np.ones(n - zeros), np.zeros(zeros)]
    t = 1e-7
    k = np.column_stack([t * column, 1 - t * column])
    return md.pml_capacity(k, c) <= eps + 1e-12


@pytest.mark.parametrize("n", [2, 3, 6])
@pytest.mark.parametrize("fraction", [0.1, 0.6, 1.0])
def test_lemma1_max_zeros_is_tight(n, fraction):
    c = fraction / n
    thresholds = sorted({-math.log((n - z) * c) for z in range(n)})
    for t in thresholds:
        for eps in (max(t - 1e-6, 0.0), t, t + 1e-6):
            z = md.bounds.max_zeros_per_column(eps, c, n)
            if z > 0 or _column_with_zeros_is_admissible(eps, c, n, 0):
                assert _column_with_zeros_is_admissible(eps, c, n, z)
            if z < n - 1:
                assert not _column_with_zeros_is_admissible(eps, c, n, z + 1)
            # Lemma 1 as printed: ε < −log((N − l)c) ⇒ at most l − 1 zeros.
            for ell in range(1, n):
                if eps < -math.log((n - ell) * c):
                    assert z <= ell - 1


@given(st.integers(2, 6), st.floats(0.05, 1.0), st.floats(1e-3, 6.0), st.integers(0, 10**6))
def test_lemma1_holds_for_designed_kernels(n, fraction, eps, seed):
    """Kernels of the (ε,c)-PML set (random objectives over its vertices) never have more
    zeros per column than Lemma 1 allows."""
    c = fraction / n
    k = _random_admissible_kernel(md.PML(eps, c=c), n, np.random.default_rng(seed))
    # Exact zeros (the closed-form vertices carry them), in outputs that carry mass.
    zeros = (k[:, k.max(axis=0) > 1e-9] == 0).sum(axis=0).max()
    assert zeros <= md.bounds.max_zeros_per_column(eps, c, n)


def _random_admissible_kernel(notion, n: int, rng: np.random.Generator) -> np.ndarray:
    """An extreme kernel of the notion: the design LP with a random objective over the
    vertices of its cone section (its columns lie in the cone, its rows sum to one)."""
    from scipy.optimize import linprog

    vertices = notion.cone(n).vertices().points
    result = linprog(
        -rng.random(vertices.shape[0]),
        A_eq=vertices.T,
        b_eq=np.ones(n),
        bounds=(0, None),
        method="highs",
        options={"primal_feasibility_tolerance": 1e-10},
    )
    assert result.status == 0
    used = result.x > 1e-12
    return vertices[used].T * result.x[used]


# -- Proposition 2 and the SDPI corollaries ---------------------------------------------------


@given(st.integers(2, 6), st.floats(0.02, 1.0), st.floats(1e-3, 5.0), st.integers(0, 10**6))
def test_proposition2_dominates_exact_gamma(n, fraction, eps, seed):
    c = fraction / n
    upper, lower = md.bounds.gamma_bound(eps, c, n)
    exact_notion = md.bounds.max_cross_channel_gamma(md.PML(eps, c=c), n)
    assert exact_notion <= upper * (1 + 1e-9)
    k = _random_admissible_kernel(md.PML(eps, c=c), n, np.random.default_rng(seed))
    g_max, g_min = md.bounds.cross_channel_gamma(k, c=c)
    assert g_max <= exact_notion * (1 + 1e-9)
    assert g_min >= lower * (1 - 1e-9)
    assert g_min == pytest.approx(1 / g_max, rel=1e-12)


def test_proposition2_is_tight_when_columns_may_have_a_zero():
    """With ε ≥ −log((N−1)c) a column can have a zero, and the Prop. 2 bound is attained
    (our derivation in gamma_bound's docstring); below, the exact value is smaller."""
    n, c = 4, 0.1
    eps = -math.log((n - 1) * c) + 0.01
    assert md.bounds.max_cross_channel_gamma(md.PML(eps, c=c), n) == pytest.approx(
        md.bounds.gamma_bound(eps, c, n)[0], rel=1e-9
    )
    eps_low = 0.2
    gamma = md.bounds.max_cross_channel_gamma(md.PML(eps_low, c=c), n)
    assert gamma < md.bounds.gamma_bound(eps_low, c, n)[0]


def test_cross_channel_gamma_against_sampled_priors():
    rng = np.random.default_rng(5)
    n, c = 4, 0.1
    k = random_kernel(rng, n, 3)
    g_max, g_min = md.bounds.cross_channel_gamma(k, c=c)
    samples = c + (1 - n * c) * rng.dirichlet(np.ones(n) * 0.3, size=4000)
    out = samples @ k
    ratios = out[:, None, :] / out[None, :, :]
    assert ratios.max() <= g_max * (1 + 1e-12)
    assert ratios.min() >= g_min * (1 - 1e-12)
    assert ratios.max() >= g_max * 0.9  # the sampled sup approaches the vertex value


def test_cross_channel_gamma_zero_and_validation():
    k = np.array([[1.0, 0.0], [0.5, 0.5]])
    assert md.bounds.cross_channel_gamma(k, [[1.0, 0.0], [0.0, 1.0]]) == (math.inf, 0.0)
    assert md.bounds.cross_channel_gamma(k, [[0.5, 0.5]]) == (1.0, 1.0)
    with pytest.raises(md.InvalidInputError, match="exactly one"):
        md.bounds.cross_channel_gamma(k)
    with pytest.raises(md.InvalidInputError, match="columns"):
        md.bounds.cross_channel_gamma(k, [[0.2, 0.3, 0.5]])


@given(st.integers(2, 6), st.floats(0.02, 1.0), st.floats(1e-3, 4.0), st.data())
def test_corollaries_hold_for_admissible_kernels(n, fraction, eps, data):
    """Corollaries 1 and 2 and eq. (36)–(37) (χ²) on extreme (ε,c)-PML kernels and random
    P, Q in Q_X(c)."""
    c = fraction / n
    seed = data.draw(st.integers(0, 10**6))
    rng = np.random.default_rng(seed)
    k = _random_admissible_kernel(md.PML(eps, c=c), n, rng)
    p, q = c + (1 - n * c) * rng.dirichlet(np.ones(n) * 0.5, size=2)
    tv = md.total_variation(p, q)
    slack = 1e-10
    assert md.kl_divergence(p @ k, q @ k) <= md.bounds.pml_kl_sdpi_bound(eps, c, n, tv) + slack
    bound = md.bounds.pml_hellinger_sdpi_bound(eps, c, n, tv)
    assert md.measures.squared_hellinger(p @ k, q @ k) <= bound + slack
    chi2_bound = md.bounds.pml_sdpi_bound(eps, c, n, tv, md.measures.CHI_SQUARED)
    assert md.measures.chi_squared_divergence(p @ k, q @ k) <= chi2_bound + slack


@pytest.mark.parametrize(("eps", "c", "n"), [(0.5, 0.05, 4), (2.0, 0.01, 10), (1.3, 0.2, 5)])
def test_general_form_reduces_to_corollaries(eps, c, n):
    tv = 0.3
    assert md.bounds.pml_sdpi_bound(eps, c, n, tv, md.measures.KL) == pytest.approx(
        md.bounds.pml_kl_sdpi_bound(eps, c, n, tv), rel=1e-12
    )
    assert md.bounds.pml_sdpi_bound(eps, c, n, tv, md.measures.SQUARED_HELLINGER) == pytest.approx(
        md.bounds.pml_hellinger_sdpi_bound(eps, c, n, tv), rel=1e-12
    )
    assert md.bounds.pml_sdpi_bound(0.0, c, n, tv) == pytest.approx(0.0, abs=1e-12)


def test_comparators_hold_for_ldp_kernels():
    """Eqs. (12)–(14) and the reverse-Pinsker comparison on the paper's K1 (log 15-LDP)."""
    k1 = md.reproduce.PAPER_EXAMPLES["dobrushin-example2-K1"].mechanism.matrix
    eps = md.ldp_level(k1)
    assert eps == pytest.approx(math.log(15), rel=1e-12)
    assert md.dobrushin_coefficient(k1) <= md.bounds.kairouz_dobrushin_bound(eps) + 1e-12
    rng = np.random.default_rng(11)
    c = 0.05
    for _ in range(300):
        p, q = c + (1 - 10 * c) * rng.dirichlet(np.ones(10) * 0.4, size=2)
        tv = md.total_variation(p, q)
        d = md.kl_divergence(p @ k1, q @ k1)
        assert d <= md.bounds.duchi_kl_bound(eps, tv) + 1e-12
        assert d <= md.bounds.asoodeh_zhang_kl_bound(eps, tv, c) + 1e-12
        assert d <= md.bounds.pml_kl_sdpi_bound(math.log(10 / 3), c, 10, tv) + 1e-12
        assert md.kl_divergence(p, q) <= md.bounds.reverse_pinsker_kl(tv, q.min()) + 1e-12


def test_k1_attains_xi_of_example2():
    """Example 2: K1 is (log 10/3, 0.05)-PML and attains Ξ = 7/8."""
    k1 = md.reproduce.PAPER_EXAMPLES["dobrushin-example2-K1"].mechanism.matrix
    eps, c = math.log(10 / 3), 0.05
    assert md.pml_capacity(k1, c) == pytest.approx(eps, rel=1e-12)
    assert md.dobrushin_bound(eps, c, 10) == pytest.approx(7 / 8, rel=1e-14)
    assert md.dobrushin_coefficient(k1) == pytest.approx(7 / 8, rel=1e-14)
    assert float(md.max_dobrushin(md.PML(eps, c=c), 10)) == pytest.approx(7 / 8, abs=1e-10)


# -- Example 3: private minimax risk ----------------------------------------------------------


def test_example3_tv_is_two_delta_and_the_corrected_bound_holds():
    """TV(P_θ0, P_θ1) = 2δ, so Corollary 1 gives eq. (45) with 2δ, not δ. The corrected
    bound holds for the extremal kernel separating inputs 0 and 1. (The printed one held
    too in every case we sampled: Corollary 1 is loose by more than the factor 2.)"""
    delta, c = 0.1, 0.05
    p0 = np.array([0.25 - delta, 0.25 + delta, 0.25, 0.25])
    p1 = np.array([0.25 + delta, 0.25 - delta, 0.25, 0.25])
    assert md.total_variation(p0, p1) == pytest.approx(2 * delta, rel=1e-14)
    for eps in (0.3, 1.0, 2.0):
        # Remark 2 with q = 2, rows permuted so that inputs 0 and 1 sit at M and m.
        k = md.mechanisms.extremal_binary_mechanism(eps, c, 4, 2).matrix[[0, 2, 1, 3]]
        d = md.kl_divergence(p0 @ k, p1 @ k)
        assert d <= md.bounds.pml_kl_sdpi_bound(eps, c, 4, 2 * delta) + 1e-12


def test_private_minimax_lower_bound_values_and_monotonicity():
    delta, c, eps = 0.05, 0.05, 1.0
    xi = md.dobrushin_bound(eps, c, 4)
    rate = xi * math.log((1 - 4 * c) * math.exp(eps) + 1) * 2 * delta
    for n in (1, 10, 100):
        expected = delta / 4 * math.exp(-n * rate)
        assert md.bounds.private_minimax_lower_bound(n, delta, eps, c) == pytest.approx(
            expected, rel=1e-12
        )
    bound = md.bounds.private_minimax_lower_bound
    assert bound(10, delta, eps, c) > bound(10, delta, eps + 1, c)
    with pytest.raises(md.InvalidInputError, match="1/4 - delta"):
        md.bounds.private_minimax_lower_bound(10, 0.2, eps, 0.1)


@given(st.integers(2, 6), st.floats(0.01, 1.5), st.integers(0, 10**6))
def test_known_prior_maximum_is_at_most_e_eps_minus_one(n, eps, seed):
    """For one known prior P, p_i ≤ e^ε P·p and 1 − p_j ≤ e^ε (1 − P·p) add up to
    p_i − p_j ≤ e^ε − 1 (Theorem 3's argument with the two columns), the uniform-prior
    value of Remark 1. Some priors attain it, not all: (0.7, 0.3) at ε = 0.5 does not."""
    prior = np.random.default_rng(seed).dirichlet(np.ones(n))
    value = float(md.max_dobrushin(md.PML(eps, prior=prior), n))
    assert value <= min(math.expm1(eps), 1.0) + 1e-9


def test_known_prior_maximum_examples():
    skewed = md.max_dobrushin(md.PML(0.5, prior=[0.4, 0.25, 0.15, 0.1, 0.06, 0.04]), 6)
    assert float(skewed) == pytest.approx(math.expm1(0.5), abs=1e-9)
    binary = md.max_dobrushin(md.PML(0.5, prior=[0.7, 0.3]), 2)
    assert float(binary) < math.expm1(0.5) - 0.05


@pytest.mark.parametrize(("a", "eps"), [(0.7, 0.5), (0.6, 0.6), (0.9, 0.2), (0.55, 0.6)])
def test_known_binary_prior_closed_form(a, eps):
    """Binary prior (a, 1 − a), a ≥ 1/2, with e^ε a ≥ 1 ≥ e^ε (1 − a): the first column's
    constraint is slack, and the second's, (1 − p_1)(1 − e^ε(1 − a)) ≤ e^ε a (1 − p_0), with
    p_1 = 0 gives sup η_TV = (e^ε − 1)/(e^ε a) (derived by hand for this test)."""
    e = math.exp(eps)
    assert e * a >= 1 >= e * (1 - a)
    value = md.max_dobrushin(md.PML(eps, prior=[a, 1 - a]), 2)
    assert float(value) == pytest.approx((e - 1) / (e * a), abs=1e-10)


@pytest.mark.parametrize(
    ("call", "fragment"),
    [
        (lambda: md.max_dobrushin("LDP", 3), "notion must be a privacy notion"),
        (lambda: md.max_dobrushin(md.LDP(1.0), 0), "n must be a positive integer"),
        (lambda: md.bounds.pml_kl_sdpi_bound(1.0, 0.1, 4, 1.5), "tv must be"),
        (lambda: md.bounds.pml_sdpi_bound(1.0, 0.1, 4, "x"), "tv must be"),
        (lambda: md.bounds.duchi_kl_bound(1.0, -0.1), "tv must be"),
        (lambda: md.bounds.reverse_pinsker_kl(0.2, 0.0), "q_min must be"),
        (lambda: md.bounds.gamma_bound(1.0, 0.3, 4), "c must satisfy"),
        (lambda: md.bounds.max_cross_channel_gamma(md.LDP(1.0), 3), "pass priors"),
        (lambda: md.bounds.decomposable_witness_kernel(1), "n must be >= 2"),
        (lambda: md.bounds.max_zeros_per_column(-1.0, 0.1, 4), "epsilon must be >= 0"),
        (lambda: md.measures.chi_squared_contraction(np.eye(2), n_starts=0), "n_starts"),
        (lambda: md.measures.maximal_correlation(np.eye(2), [0.5, 0.6]), "prior"),
        (lambda: md.bounds.private_minimax_lower_bound(10, 0.3, 1.0, 0.01), "delta must be"),
        (lambda: md.bounds.private_minimax_lower_bound(0, 0.1, 1.0, 0.01), "n_samples"),
    ],
)
def test_contraction_bad_input_names_the_argument(call, fragment):
    with pytest.raises(md.InvalidInputError, match=fragment):
        call()


# -- errata ledger (issue 25) ---------------------------------------------------------------


def _largest_kl_by_vertices(p0, p1, epsilon, c):
    """max D(K∘P0 ‖ K∘P1) over (ε, c)-PML kernels on 4 inputs: KL is sublinear in the
    columns, so the maximum is an LP over every vertex of the section (cddlib's), solved
    here with scipy's linprog — no design code."""
    from scipy.optimize import linprog

    vertices = md.PML(epsilon, c=c).cone(4).vertices("cdd").points
    a, b = vertices @ p0, vertices @ p1
    values = np.where(a > 0, a * np.log(np.where(a > 0, a, 1) / np.where(b > 0, b, 1)), 0.0)
    result = linprog(-values, A_eq=vertices.T, b_eq=np.ones(4), bounds=(0, None),
                     method="highs")
    assert result.status == 0
    return -result.fun


def test_example3_needs_delta_at_most_quarter_minus_c():
    """Dobrushin Example 3: Corollary 1 needs P_θ ∈ Q_X(c), i.e. δ ≤ 1/4 − c. At c = 0.2,
    ε = 0.5, δ = 0.249 the largest KL is 1.96 times even the corrected (2δ) bound; inside
    the range the bound holds."""
    def corrected_bound(delta, epsilon, c):
        return (md.dobrushin_bound(epsilon, c, 4)
                * math.log((1 - 4 * c) * math.exp(epsilon) + 1) * 2 * delta)

    def pair(delta):
        return (np.array([0.25 - delta, 0.25 + delta, 0.25, 0.25]),
                np.array([0.25 + delta, 0.25 - delta, 0.25, 0.25]))

    largest = _largest_kl_by_vertices(*pair(0.249), 0.5, 0.2)
    assert largest / corrected_bound(0.249, 0.5, 0.2) == pytest.approx(1.96, abs=0.01)
    for delta, c in [(0.04, 0.2), (0.1, 0.14), (0.2, 0.04)]:
        assert delta <= 0.25 - c - 1e-12
        assert _largest_kl_by_vertices(*pair(delta), 0.5, c) <= corrected_bound(delta, 0.5, c)
    with pytest.raises(md.InvalidInputError, match="1/4 - delta"):
        md.bounds.private_minimax_lower_bound(10, 0.249, 0.5, 0.2)
    from mechdesign.reproduce import dobrushin

    largest_lib, _ = dobrushin.example3_largest_kl(0.249, 0.5, 0.2)
    assert largest_lib == pytest.approx(largest, rel=1e-9)


def test_eq22_level_needs_the_sum_of_p():
    """The html copy's eq. (22) leaves p_1 … p_{N−2} free, but its level is log(2/(Nc))
    only when Σ p_i = N/2 − 1. The (ε, c)-PML level by an explicit LP per column over
    Q_X(c) = {P ≥ c, Σ P = 1}: ℓ_y = log max_x K[x,y] − log min_P P·K[:,y]."""
    from scipy.optimize import linprog

    def level(kernel, c):
        n = kernel.shape[0]
        worst = 0.0
        for y in range(kernel.shape[1]):
            column = kernel[:, y]
            result = linprog(column, A_eq=np.ones((1, n)), b_eq=[1.0], bounds=(c, None),
                             method="highs")
            worst = max(worst, math.log(column.max() / result.fun))
        return worst

    from mechdesign.reproduce.dobrushin import eq22_kernel

    n, c = 6, 0.1
    target = math.log(2 / (n * c))
    assert level(eq22_kernel(np.full(n - 2, 0.5)), c) == pytest.approx(target, rel=1e-9)
    assert level(eq22_kernel(np.array([0.1, 0.9, 0.6, 0.4])), c) == pytest.approx(
        target, rel=1e-9)  # Σ p_i = 2 = N/2 − 1
    skewed = eq22_kernel(np.array([0.1, 0.2, 0.3, 0.9]))  # Σ p_i = 1.5
    assert level(skewed, c) == pytest.approx(math.log(1 / (c * 2.5)), rel=1e-9)
    assert level(skewed, c) > target + 0.1
    assert md.pml_capacity(skewed, c) == pytest.approx(level(skewed, c), rel=1e-9)


# -- issue 36, item 10: pml_sdpi_bound refuses a non-generator at every ε ------------------------


@pytest.mark.parametrize(
    "f",
    [
        pytest.param(lambda t: t, id="f(1)=1"),
        pytest.param(lambda t: t * np.log(t) + 0.5, id="t log t + 0.5"),
        pytest.param(lambda t: np.full_like(t, math.inf), id="inf at 1"),
        pytest.param(lambda t: (t - 1) ** 2 + 1j, id="complex"),
    ],
)
@pytest.mark.parametrize("eps", [0.0, 1.0])
def test_pml_sdpi_bound_refuses_a_generator_not_vanishing_at_one(f, eps):
    """Also at ε = 0, where Γ = 1 makes the bound 0 whatever f: the bad f is still named."""
    with pytest.raises(md.InvalidInputError, match=r"^f(\(t\))? must"):
        md.bounds.pml_sdpi_bound(eps, 0.05, 4, 0.3, f)


@pytest.mark.parametrize(("eps", "c", "n"), [(0.5, 0.05, 4), (2.0, 0.01, 10)])
def test_pml_sdpi_bound_with_a_bare_t_log_t_is_corollary_1(eps, c, n):
    """A valid bare generator still works: t log t gives Corollary 1's closed form
    Ξ(ε, c) · log((1 − Nc)e^ε + 1) · δ, written out here from the paper."""
    tv = 0.3
    xi_bound = md.dobrushin_bound(eps, c, n)
    expected = xi_bound * math.log((1 - n * c) * math.exp(eps) + 1) * tv
    assert md.bounds.pml_sdpi_bound(eps, c, n, tv, lambda t: t * np.log(t)) == pytest.approx(
        expected, rel=1e-12, abs=0
    )
