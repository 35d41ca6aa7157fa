"""Tests of Rényi-LDP amplification (f_α paper, Sec. III, V–VI).

Hardening: bad input is refused by the argument's name, extreme valid input gets the
right answer (checked against an independent value), and sizes that cannot be computed
raise TooLargeError by name (the bad-input battery itself is tests/test_fuzz.py).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given

import mechdesign as md
from tests.helpers import K3, K23, kernels

EXAMPLE12 = [  # (N, ε, k) of Fig. 2
    (5, math.log(2), 2),
    (5, math.log(6), 2),
    (20, math.log(10), 2),
    (100, math.log(10), 50),
]
ALPHAS = [1.5, 2.0, 3.0, 5.0, 10.0, 20.0, 50.0]


def _example12_channel(n: int, k: int) -> md.Mechanism:
    """Block-uniform when k divides N; our circulant choice otherwise (N = 5, k = 2)."""
    return (
        md.bounds.block_uniform_channel(n, k)
        if n % k == 0
        else md.bounds.circulant_singular_channel(n, k)
    )


@pytest.mark.parametrize(("n", "eps", "k"), EXAMPLE12)
def test_example12_gamma_closed_form(n, eps, k):
    """Γ_max(Y) = Γ_min(Y)^{-1} = 1 + (e^ε − 1)/k over the rows of N-ary randomized
    response (for the circulant channel too, our construction for k ∤ N)."""
    rr = md.randomized_response(n, eps)
    g_max, g_min = md.bounds.cross_channel_gamma(_example12_channel(n, k), rr.matrix)
    expected = 1 + math.expm1(eps) / k
    assert g_max == pytest.approx(expected, rel=1e-12)
    assert g_min == pytest.approx(1 / expected, rel=1e-12)


def test_last_smaller_block_loses_the_closed_form():
    """The other construction for k ∤ N (blocks {0,1}, {2,3}, {4}) passes input 4 through,
    so Γ_max = e^ε: Example 12's closed form does not survive it."""
    eps = math.log(6)
    channel = np.zeros((5, 5))
    channel[:2, :2] = channel[2:4, 2:4] = 0.5
    channel[4, 4] = 1.0
    g_max, _ = md.bounds.cross_channel_gamma(channel, md.randomized_response(5, eps).matrix)
    assert g_max == pytest.approx(6.0, rel=1e-12)
    bound = md.bounds.rldp_amplification_bound(
        md.randomized_response(5, eps), channel, 2.0, eta_tv=1.0
    )
    assert not bound.amplifies


@pytest.mark.parametrize(("n", "eps", "k"), EXAMPLE12)
@pytest.mark.parametrize("eta_tv", [1.0, "rows", "dobrushin"])
def test_example12_bound_dominates_the_true_rldp(n, eps, k, eta_tv):
    rr = md.randomized_response(n, eps)
    channel = _example12_channel(n, k)
    cascade = rr.then(channel)
    for alpha in ALPHAS:
        result = md.bounds.rldp_amplification_bound(rr, channel, alpha, eta_tv=eta_tv)
        true = md.measures.renyi_ldp_level(cascade, alpha)
        assert true <= result.bound * (1 + 1e-9), (alpha, true, result.bound)
        assert true <= result.first_level * (1 + 1e-9)  # post-processing


def test_example12_shows_amplification_for_n100_k50():
    """(N, ε, k) = (100, log 10, 50): φ is below the RLDP of randomized response alone at
    every α plotted — the amplification of Fig. 2(d)."""
    rr = md.randomized_response(100, math.log(10))
    channel = md.bounds.block_uniform_channel(100, 50)
    for alpha in ALPHAS:
        result = md.bounds.rldp_amplification_bound(rr, channel, alpha, eta_tv=1.0)
        assert result.amplifies
        assert result.bound < result.first_level
        assert result.best_bound == result.bound


@pytest.mark.slow
def test_gamma_tends_to_one_as_n_grows():
    """Example 12: for a fixed ratio k/N = 1/m, Γ_max → 1 as N → ∞, and so does φ → 0."""
    eps, m = math.log(10), 4
    bounds = []
    for n in (8, 40, 400):
        rr = md.randomized_response(n, eps)
        result = md.bounds.rldp_amplification_bound(
            rr, md.bounds.block_uniform_channel(n, n // m), 3.0
        )
        assert result.gamma_max == pytest.approx(1 + m * math.expm1(eps) / n, rel=1e-12)
        bounds.append(result.bound)
    assert bounds[0] > bounds[1] > bounds[2]
    assert bounds[2] < bounds[0] / 4


def test_example4_and_example5_confusion_graphs():
    """Example 5: P (3-singular) has a complete confusion graph, Q (2-singular) does not;
    Example 4: block-diagonal channels always have a disjoint pair."""
    p = md.reproduce.PAPER_EXAMPLES["falpha-example5-P"].mechanism
    q = np.array([[0.5, 0.5, 0, 0], [0.5, 0.5, 0, 0], [0, 0, 0.5, 0.5], [0, 0, 0.5, 0.5]])
    assert md.bounds.disjoint_support_pair(p) is None
    assert md.bounds.confusion_graph(p).all()
    assert md.bounds.disjoint_support_pair(q) == (0, 2)
    assert not md.bounds.confusion_graph(q)[0, 2]
    rng = np.random.default_rng(4)
    for _ in range(20):
        sizes = rng.integers(1, 4, size=int(rng.integers(2, 4)))
        blocks = [rng.dirichlet(np.ones(s), size=s) for s in sizes]
        n = int(sizes.sum())
        matrix = np.zeros((n, n))
        start = 0
        for block, size in zip(blocks, sizes, strict=True):
            matrix[start : start + size, start : start + size] = block
            start += size
        assert md.bounds.disjoint_support_pair(matrix) is not None


@pytest.mark.parametrize(("n", "k"), [(4, 2), (5, 2), (6, 3), (7, 3), (6, 4)])
def test_circulant_is_k_singular(n, k):
    channel = md.bounds.circulant_singular_channel(n, k).matrix
    assert set(np.unique(channel)) <= {0.0, 1.0 / k}
    assert (channel > 0).sum(axis=0).tolist() == [k] * n
    # Proposition 3 applies exactly when two inputs are k or more apart on the circle.
    assert (md.bounds.disjoint_support_pair(channel) is not None) == (n >= 2 * k)


@given(kernels(min_size=2, max_size=4))
@pytest.mark.slow
def test_disjoint_pair_means_chi_squared_contraction_one(k):
    """Proposition 3 / Ahlswede–Gács: a disjoint pair gives η_χ² = 1 (found exactly by the
    two-point starts); without one, η_χ² ≤ η_TV (< 1 may or may not hold for η_TV)."""
    result = md.measures.chi_squared_contraction(k, n_starts=2)
    if md.bounds.disjoint_support_pair(k) is not None:
        assert result.lower_bound == pytest.approx(1.0, abs=1e-9)
    assert result.lower_bound <= result.dobrushin_coefficient + 1e-9


def test_validation():
    rr = md.randomized_response(3, 1.0)
    with pytest.raises(md.InvalidInputError, match="alpha must be finite and > 1"):
        md.bounds.rldp_amplification_bound(rr, np.eye(3), 1.0)
    with pytest.raises(md.InvalidInputError, match="must match"):
        md.bounds.rldp_amplification_bound(rr, np.eye(4), 2.0)
    with pytest.raises(md.InvalidInputError, match="eta_tv"):
        md.bounds.rldp_amplification_bound(rr, np.eye(3), 2.0, eta_tv="sometimes")
    with pytest.raises(md.InvalidInputError, match="eta_tv must be in"):
        md.bounds.rldp_amplification_bound(rr, np.eye(3), 2.0, eta_tv=1.5)
    with pytest.raises(md.InvalidInputError, match="must divide"):
        md.bounds.block_uniform_channel(5, 2)
    with pytest.raises(md.InvalidInputError, match="k must be <= n"):
        md.bounds.circulant_singular_channel(3, 4)


def test_identity_channel_gives_no_amplification_and_zero_channel_full():
    """Post-processing by the identity keeps the level (φ cannot beat it by much); a
    constant channel makes the cascade perfectly private and φ = 0 (Γ = 1)."""
    rr = md.randomized_response(4, 1.0)
    constant = np.full((4, 3), 1 / 3)
    result = md.bounds.rldp_amplification_bound(rr, constant, 2.0)
    assert result.bound == pytest.approx(0.0, abs=1e-12)
    assert result.gamma_max == pytest.approx(1.0, abs=1e-12)
    assert result.gamma_min == pytest.approx(1.0, abs=1e-12)
    identity = md.bounds.rldp_amplification_bound(rr, np.eye(4), 2.0)
    assert identity.bound >= md.measures.renyi_ldp_level(rr, 2.0) * (1 - 1e-12)


def test_large_alpha_does_not_overflow():
    """At large α the f_α form of ε overflows a double: it is +inf, not an error; TV ≤ 1
    still holds, so φ stays finite and tends to log Γ_max (Remark 7)."""
    rr = md.randomized_response(100, math.log(10))
    channel = md.bounds.block_uniform_channel(100, 50)
    assert md.measures.f_alpha_from_renyi(10.0, 1000.0) == math.inf
    result = md.bounds.rldp_amplification_bound(rr, channel, 1000.0, eta_tv=1.0)
    assert result.epsilon_f == math.inf
    assert result.bound == pytest.approx(math.log(result.gamma_max), rel=2e-2)
    assert result.bound >= math.log(result.gamma_max)
    assert md.measures.renyi_ldp_level(rr.then(channel), 1000.0) <= result.bound


def _fano_ratio(alpha, q, digits=1100):
    """D_α(KP‖KQ)/D_α(P‖Q) for the Fano channel K, P = δ_0 and Q = (q, 1 − q) on lines 0
    and 3 (which meet in one point), with mpmath at ``digits`` digits, from the
    definition D_α(A‖B) = log Σ A^α B^{1−α} / (α − 1) on the explicit vectors."""
    import mpmath

    mpmath.mp.dps = digits
    lines = [(0, 1, 2), (0, 3, 4), (0, 5, 6), (1, 3, 5), (1, 4, 6), (2, 3, 6), (2, 4, 5)]
    third = mpmath.mpf(1) / 3
    rows = [[third if y in line else mpmath.mpf(0) for y in range(7)] for line in lines]
    q = mpmath.mpf(q)
    a = mpmath.mpf(alpha)

    def renyi(p_vec, q_vec):
        total = mpmath.fsum(
            pi**a * qi ** (1 - a) for pi, qi in zip(p_vec, q_vec, strict=True) if pi > 0
        )
        return mpmath.log(total) / (a - 1)

    p_in = [mpmath.mpf(1)] + [mpmath.mpf(0)] * 6
    q_in = [q, mpmath.mpf(0), mpmath.mpf(0), 1 - q, mpmath.mpf(0), mpmath.mpf(0), mpmath.mpf(0)]
    kp = [mpmath.fsum(p_in[x] * rows[x][y] for x in range(7)) for y in range(7)]
    kq = [mpmath.fsum(q_in[x] * rows[x][y] for x in range(7)) for y in range(7)]
    return float(renyi(kp, kq) / renyi(p_in, q_in))


def test_fano_plane_channel_does_not_contract_renyi_above_one():
    """Errata ledger, f_α paper Example 5: the conclusion "η_α = 1" holds for the Fano
    channel when α > 1 — along P = δ_i, Q = (q, 1 − q) on two lines that meet once, the
    ratio of Rényi divergences tends to 1 as q → 0 (1000-digit arithmetic) — although
    the paper's reason ("by Example 4") does not cover it. For α ∈ (0, 1) the ratio is at
    most η_TV = 2/3: D_α = −log(1 − H)/(1 − α) with H an f-divergence contracted by at
    most η_TV, and −log(1 − x) is convex and 0 at 0."""
    ratios = [_fano_ratio(2.0, q) for q in ("1e-2", "1e-10", "1e-100", "1e-1000")]
    np.testing.assert_allclose(ratios, [0.913, 0.982, 0.998, 0.9998], atol=6e-4)
    assert all(a < b for a, b in itertools.pairwise(ratios))
    # The limit, for other α > 1: 1 − log(3/2)/((α − 1) log(1/q)) → 1.
    for alpha in (1.5, 4.0):
        assert _fano_ratio(alpha, "1e-1000") > 0.999
    # α < 1: bounded by η_TV = 2/3 along the family and on random pairs.
    assert _fano_ratio(0.5, "1e-1000", digits=60) < 2 / 3
    rng = np.random.default_rng(0)
    lines = [(0, 1, 2), (0, 3, 4), (0, 5, 6), (1, 3, 5), (1, 4, 6), (2, 3, 6), (2, 4, 5)]
    kernel = np.zeros((7, 7))
    for row, line in enumerate(lines):
        kernel[row, list(line)] = 1 / 3
    for _ in range(300):
        p, q = rng.dirichlet(np.full(7, 0.3), size=2)
        ratio = md.renyi_divergence(p @ kernel, q @ kernel, 0.5) / md.renyi_divergence(p, q, 0.5)
        assert ratio <= 2 / 3 + 1e-9


def test_fano_plane_channel_is_k_singular_without_disjoint_rows():
    # docs/theorems.md, note on the f_α paper's Example 5: "any k-singular channel with
    # k ≤ N/2" does not follow from Example 4. The Fano plane's 7 lines as rows (1/3 on
    # each of 3 points) are 3-singular with 3 ≤ 7/2, yet every two lines meet, so no pair
    # of rows has disjoint supports and η_TV = 1 − 1/3 = 2/3 < 1.
    lines = [(0, 1, 2), (0, 3, 4), (0, 5, 6), (1, 3, 5), (1, 4, 6), (2, 3, 6), (2, 4, 5)]
    kernel = np.zeros((7, 7))
    for row, line in enumerate(lines):
        kernel[row, list(line)] = 1 / 3
    assert all(len(set(a) & set(b)) == 1 for a, b in itertools.combinations(lines, 2))
    assert md.bounds.disjoint_support_pair(kernel) is None
    assert md.dobrushin_coefficient(kernel) == pytest.approx(2 / 3, abs=1e-12)


@pytest.mark.parametrize("alpha", [1e3, 1e8, 1e308])
def test_amplification_bound_tends_to_log_gamma_max(alpha):
    result = md.bounds.rldp_amplification_bound(K23, K3, alpha)
    gamma_max = result.gamma_max
    # φ = log(η R_α g) / (α − 1) with log R_α = α log Γ − log(Γ − 1) + O(e^{−700}).
    eta, tv = result.eta_tv, md.measures.pinsker_f_alpha_inverse(result.epsilon_f, alpha)
    expected = (alpha * math.log(gamma_max) - math.log(gamma_max - 1.0)
                + math.log(eta * tv)) / (alpha - 1.0)
    assert result.bound == pytest.approx(expected, rel=1e-9)
    assert result.bound == pytest.approx(math.log(gamma_max), rel=1e-2)


def test_amplification_bound_is_continuous_where_r_alpha_overflows():
    below = md.bounds.rldp_amplification_bound(K23, K3, 800.0).bound   # R_α finite
    above = md.bounds.rldp_amplification_bound(K23, K3, 820.0).bound   # R_α overflows
    assert above == pytest.approx(below, rel=1e-4)


def test_float32_kernels_are_accepted_by_the_amplification_bound():
    got = md.bounds.rldp_amplification_bound(K23.astype(np.float32), K3.astype(np.float32), 2.0)
    want = md.bounds.rldp_amplification_bound(K23, K3, 2.0)
    assert got.bound == pytest.approx(want.bound, rel=1e-5)
