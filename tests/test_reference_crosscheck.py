"""Independent cross-checks of the leakage, divergence and contraction routines.

Every reference value here is computed by a route different from the closed forms the
library is expected to use (LPs over the prior polytope, brute force over subsets and row
pairs, 50-digit decimal arithmetic, explicit post-processing kernels). The file was written
from the papers and API.md only, without reading the implementation.
"""

from __future__ import annotations

import itertools
import math
from decimal import Decimal, localcontext

import numpy as np
import pytest
from scipy.optimize import linprog
from scipy.stats import entropy

import mechdesign as md

SHAPES = [(2, 2), (2, 5), (3, 3), (3, 6), (4, 2), (5, 4), (6, 6)]


def _kernel(seed: int, n: int, m: int, zeros: float) -> np.ndarray:
    rng = np.random.default_rng(seed)
    k = rng.random((n, m)) + 0.05
    k[rng.random((n, m)) < zeros] = 0.0
    k[k.sum(axis=1) == 0, 0] = 1.0
    return k / k.sum(axis=1, keepdims=True)


def _prior(seed: int, n: int, with_zero: bool = False) -> np.ndarray:
    p = np.random.default_rng(seed + 1000).dirichlet(np.ones(n))
    if with_zero:
        p[seed % n] = 0.0
    return p / p.sum()


# (kernel, prior) cases: strictly positive kernels, kernels with zeros, priors with zeros.
CASES = [
    (_kernel(s, n, m, z), _prior(s, n, with_zero=(z > 0 and n > 2)))
    for s, (n, m) in enumerate(SHAPES)
    for z in (0.0, 0.3)
]
# A kernel with an all-zero column (it must be ignored wherever P_Y(y) = 0).
_ZC = np.hstack([_kernel(77, 3, 3, 0.0), np.zeros((3, 1))])
CASES.append((_ZC, _prior(77, 3)))
POSITIVE = [(k, p) for k, p in CASES if np.all(k > 0)]
IDS = [f"case{i}" for i in range(len(CASES))]


def _subsets(m: int):
    for r in range(m + 1):
        for e in itertools.combinations(range(m), r):
            mask = np.zeros(m, dtype=bool)
            mask[list(e)] = True
            yield mask


def _tv_subsets(p: np.ndarray, q: np.ndarray) -> float:
    return max(p[e].sum() - q[e].sum() for e in _subsets(len(p)))


def _renyi_decimal(p, q, alpha: float) -> float:
    """1/(α-1) log Σ p^α q^(1-α) in 50-digit decimal arithmetic (exact float inputs)."""
    with localcontext() as ctx:
        ctx.prec = 50
        a = Decimal(alpha)
        total = Decimal(0)
        for pi, qi in zip(p, q, strict=True):
            if pi > 0:
                total += Decimal(float(pi)) ** a * Decimal(float(qi)) ** (1 - a)
        return float(total.ln() / (a - 1))


# 1. pml_capacity: the supremum over Q_X(c) solved as an LP per output column.
def _capacity_lp(k: np.ndarray, c: float) -> float:
    n, m = k.shape
    best = -math.inf
    for y in range(m):
        col = k[:, y]
        if col.max() == 0:
            continue  # P_Y(y) = 0 for every prior: the outcome never occurs.
        res = linprog(col, A_eq=np.ones((1, n)), b_eq=[1.0], bounds=[(c, None)] * n, method="highs")
        assert res.status == 0
        best = max(best, math.log(col.max() / res.fun))
    return best


@pytest.mark.parametrize(("k", "prior"), CASES, ids=IDS)
def test_pml_capacity_matches_lp_over_prior_polytope(k, prior):
    n = k.shape[0]
    cs = [1.0 / n, 0.7 / n, 0.3 / n, 0.05 / n, 1e-3 / n]
    values = [md.pml_capacity(k, c) for c in cs]
    for c, v in zip(cs, values, strict=True):
        assert v == pytest.approx(_capacity_lp(k, c), rel=1e-7, abs=1e-9)
    assert values[0] == pytest.approx(md.pml_level(k, np.full(n, 1.0 / n)), rel=1e-10, abs=1e-12)
    assert all(b >= a - 1e-12 for a, b in itertools.pairwise(values))  # c decreasing
    # Any prior inside Q_X(c) leaks at most the capacity.
    rng = np.random.default_rng(5)
    for c, v in zip(cs, values, strict=True):
        for _ in range(20):
            p = c + (1 - n * c) * rng.dirichlet(np.ones(n))
            assert md.pml_level(k, p) <= v + 1e-9


@pytest.mark.parametrize("c", [0.0, -0.1, 0.6])
def test_pml_capacity_rejects_c_outside_range(c):
    with pytest.raises(md.InvalidInputError):
        md.pml_capacity(_kernel(1, 2, 3, 0.0), c)


# 2. ldp_level: explicit loops; Proposition 1 (LDP = sup over priors of PML).
def _ldp_loops(k: np.ndarray) -> float:
    n, m = k.shape
    best = -math.inf
    for y in range(m):
        for x in range(n):
            for x2 in range(n):
                a, b = k[x, y], k[x2, y]
                if a == 0:
                    continue
                if b == 0:
                    return math.inf
                best = max(best, math.log(a / b))
    return best


@pytest.mark.parametrize(("k", "prior"), CASES, ids=IDS)
def test_ldp_level_brute_force(k, prior):
    ref = _ldp_loops(k)
    got = md.ldp_level(k)
    if math.isinf(ref):
        assert got == math.inf
    else:
        assert got == pytest.approx(ref, rel=1e-12, abs=1e-12)


@pytest.mark.parametrize(("k", "prior"), POSITIVE)
def test_ldp_is_limit_of_pml_at_vanishing_priors(k, prior):
    n = k.shape[0]
    ldp = md.ldp_level(k)
    for t in (0.5, 1e-2, 1e-4):
        levels = [md.pml_level(k, (1 - t) * np.eye(n)[x] + t / n) for x in range(n)]
        assert max(levels) <= ldp + 1e-12
    limit = max(md.pml_level(k, (1 - 1e-9) * np.eye(n)[x] + 1e-9 / n) for x in range(n))
    assert limit == pytest.approx(ldp, rel=1e-7, abs=1e-7)


# 3. mutual information: H(Y) - H(Y|X), and KL(P_XY || P_X P_Y).
@pytest.mark.parametrize(("k", "prior"), CASES, ids=IDS)
def test_mutual_information_two_routes(k, prior):
    p_y = prior @ k
    h_y_given_x = sum(px * entropy(row) for px, row in zip(prior, k, strict=True))
    ref = entropy(p_y) - h_y_given_x
    got = md.mutual_information(k, prior)
    assert got == pytest.approx(ref, rel=1e-10, abs=1e-12)
    joint = prior[:, None] * k
    kl = md.kl_divergence(joint.ravel(), np.outer(prior, p_y).ravel())
    assert got == pytest.approx(kl, rel=1e-10, abs=1e-12)


# 4. Rényi divergence.
_PQ = [
    (_prior(s, m, with_zero=(s % 2 == 1)), _prior(s + 50, m))
    for s, m in [(0, 2), (1, 3), (2, 4), (3, 5), (4, 6)]
]


@pytest.mark.parametrize(("p", "q"), _PQ)
def test_renyi_divergence_high_precision_and_limits(p, q):
    for alpha in (0.3, 0.5, 2.0, 3.5):
        ref = _renyi_decimal(p, q, alpha)
        assert md.renyi_divergence(p, q, alpha) == pytest.approx(ref, rel=1e-10, abs=1e-13)
    kl = float(np.sum(p[p > 0] * np.log(p[p > 0] / q[p > 0])))
    assert md.kl_divergence(p, q) == pytest.approx(kl, rel=1e-10, abs=1e-13)
    for alpha in (1 - 1e-6, 1 + 1e-6):
        assert md.renyi_divergence(p, q, alpha) == pytest.approx(kl, rel=1e-4, abs=1e-5)
    assert md.renyi_divergence(p, q, math.inf) == pytest.approx(
        math.log(max(pi / qi for pi, qi in zip(p, q, strict=True))), rel=1e-12, abs=1e-13
    )
    alphas = [0.1, 0.3, 0.5, 0.9, 1.5, 2.0, 3.5, 10.0, 50.0, math.inf]
    vals = [md.renyi_divergence(p, q, a) for a in alphas]
    assert all(b >= a - 1e-12 for a, b in itertools.pairwise(vals))


@pytest.mark.parametrize(("p", "q"), _PQ)
def test_chi2_hellinger_via_renyi_identities(p, q):
    # D_2 = log(1 + χ²) and H² = Σ(√p - √q)² = 2 (1 - exp(-D_{1/2} / 2)).
    d2, dhalf = _renyi_decimal(p, q, 2.0), _renyi_decimal(p, q, 0.5)
    assert md.measures.chi_squared_divergence(p, q) == pytest.approx(
        math.expm1(d2), rel=1e-10, abs=1e-13)
    assert md.measures.squared_hellinger(p, q) == pytest.approx(
        -2 * math.expm1(-dhalf / 2), rel=1e-10, abs=1e-13
    )


# 5. total variation and hockey-stick divergence as maxima over events.
@pytest.mark.parametrize(("p", "q"), _PQ)
@pytest.mark.parametrize("gamma", [0.2, 0.7, 1.0, 1.5, 4.0])
def test_tv_and_hockey_stick_by_subsets(p, q, gamma):
    assert md.total_variation(p, q) == pytest.approx(_tv_subsets(p, q), rel=1e-12, abs=1e-14)
    # Σ(p - γq) = 1 - γ, so ½Σ|p - γq| = max_E [P(E) - γQ(E)] - ½(1 - γ); subtracting
    # ½|γ - 1| gives E_γ = max_E [P(E) - γQ(E)] - max(0, 1 - γ).
    by_subsets = max(p[e].sum() - gamma * q[e].sum() for e in _subsets(len(p)))
    by_subsets -= max(0.0, 1.0 - gamma)
    definition = 0.5 * np.abs(p - gamma * q).sum() - 0.5 * abs(gamma - 1.0)
    assert by_subsets == pytest.approx(definition, rel=1e-12, abs=1e-14)  # derivation check
    got = md.measures.hockey_stick_divergence(p, q, gamma)
    assert got == pytest.approx(by_subsets, rel=1e-12, abs=1e-14)


# 6. Dobrushin coefficient as the supremum of TV ratios.
@pytest.mark.parametrize(("k", "prior"), CASES, ids=IDS)
def test_dobrushin_coefficient_is_sup_of_tv_ratios(k, prior):
    n = k.shape[0]
    eta = md.dobrushin_coefficient(k)
    rng = np.random.default_rng(11)
    for _ in range(200):
        p, q = rng.dirichlet(np.full(n, 0.5)), rng.dirichlet(np.full(n, 0.5))
        tv_in = _tv_subsets(p, q)
        if tv_in > 1e-6:
            assert _tv_subsets(p @ k, q @ k) / tv_in <= eta + 1e-10
    eye = np.eye(n)
    at_masses = max(
        _tv_subsets(eye[a] @ k, eye[b] @ k) for a in range(n) for b in range(n) if a != b
    )
    assert eta == pytest.approx(at_masses, rel=1e-12, abs=1e-14)


@pytest.mark.parametrize(("k", "prior"), POSITIVE)
def test_renyi_ldp_level_over_ordered_pairs(k, prior):
    n = k.shape[0]
    for alpha in (0.5, 2.0, 3.5):
        ref = max(_renyi_decimal(k[a], k[b], alpha) for a in range(n) for b in range(n) if a != b)
        assert md.measures.renyi_ldp_level(k, alpha) == pytest.approx(ref, rel=1e-10, abs=1e-13)


# 7. maximal leakage.
@pytest.mark.parametrize(("k", "prior"), CASES, ids=IDS)
def test_maximal_leakage_loops_and_dominates_mi(k, prior):
    n, m = k.shape
    total = 0.0
    for y in range(m):
        total += max(k[x, y] for x in range(n))
    ml = md.maximal_leakage(k)
    assert ml == pytest.approx(math.log(total), rel=1e-12, abs=1e-14)
    rng = np.random.default_rng(3)
    for _ in range(200):
        p = rng.dirichlet(np.full(n, 0.7))
        assert md.mutual_information(k, p) <= ml + 1e-12


# 8. event leakage for indicator weights = PML of the binary post-processing Z = 1_E(Y).
@pytest.mark.parametrize(("k", "prior"), CASES, ids=IDS)
def test_event_leakage_equals_pml_of_merged_kernel(k, prior):
    p_y = prior @ k
    for e in _subsets(k.shape[1]):
        if p_y[e].sum() <= 0:
            continue
        z = np.column_stack([k[:, e].sum(axis=1), k[:, ~e].sum(axis=1)])
        ref = md.pointwise_leakage(z, prior)[0]
        got = md.measures.event_leakage(k, prior, e.astype(float))
        assert got == pytest.approx(ref, rel=1e-10, abs=1e-12)
    # Linear-fractional in w, so fractional weights never beat the worst single outcome.
    rng = np.random.default_rng(9)
    level = md.pml_level(k, prior)
    for _ in range(30):
        w = rng.random(k.shape[1])
        assert md.measures.event_leakage(k, prior, w) <= level + 1e-10


def test_pointwise_leakage_definition_and_zero_outcomes():
    k, prior = _ZC, np.array([0.5, 0.0, 0.5])  # x = 1 is outside the support
    p_y = prior @ k
    got = md.pointwise_leakage(k, prior)
    for y in range(k.shape[1]):
        if p_y[y] == 0:
            assert got[y] == -math.inf
        else:
            ref = math.log(max(k[x, y] for x in (0, 2)) / p_y[y])
            assert got[y] == pytest.approx(ref, rel=1e-12, abs=1e-14)
    assert md.pml_level(k, prior) == pytest.approx(max(got[p_y > 0]), rel=1e-12, abs=1e-14)


# 9. Theorem 1's bound Ξ(ε, c) as the LP over binary-output (ε,c)-PML kernels (Lemma 3, 4).
def _max_dobrushin_lp(eps: float, c: float, n: int) -> tuple[float, np.ndarray]:
    # Columns p and 1 - p must satisfy K[x,y] <= e^ε (c Σ_x' K[x',y] + (1-Nc) K[x'',y]).
    ee, rows, rhs = math.exp(eps), [], []
    for x, x2 in itertools.product(range(n), repeat=2):
        a = ee * c * np.ones(n)
        a[x2] += ee * (1 - n * c)
        a[x] -= 1.0
        rows.append(-a)  # p_x - e^ε(...) <= 0
        rhs.append(0.0)
        rows.append(a)  # (1 - p_x) - e^ε(c Σ(1-p) + (1-Nc)(1-p_x'')) <= 0
        rhs.append(ee - 1.0)
    obj = np.zeros(n)
    obj[0], obj[1] = -1.0, 1.0  # maximise p_0 - p_1 (rows are exchangeable)
    res = linprog(obj, A_ub=np.array(rows), b_ub=rhs, bounds=[(0, 1)] * n, method="highs")
    assert res.status == 0
    return -res.fun, res.x


_XI = [
    (n, c_frac, e_frac)
    for n in (2, 3, 4)
    for c_frac in (1.0, 0.5, 0.1, 0.01)
    for e_frac in (0.0, 0.2, 0.55, 0.9, 0.999)
]


@pytest.mark.parametrize(("n", "c_frac", "e_frac"), _XI)
def test_dobrushin_bound_matches_lp(n, c_frac, e_frac):
    c = c_frac / n
    eps = e_frac * math.log(2 / (n * c))
    lp, p = _max_dobrushin_lp(eps, c, n)
    assert md.dobrushin_bound(eps, c, n) == pytest.approx(lp, rel=1e-7, abs=1e-9)
    # The LP's optimal kernel is (ε,c)-PML by the capacity audit and attains the bound.
    k = np.column_stack([np.clip(p, 0, 1), 1 - np.clip(p, 0, 1)])
    assert md.pml_capacity(k, c) <= eps + 1e-7
    assert md.dobrushin_coefficient(k) == pytest.approx(lp, rel=1e-7, abs=1e-9)


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("c_frac", [1.0, 0.5, 0.1])
@pytest.mark.parametrize("extra", [0.0, 0.3, 3.0])
def test_dobrushin_bound_saturates(n, c_frac, extra):
    c = c_frac / n
    eps = math.log(2 / (n * c)) + extra
    assert md.dobrushin_bound(eps, c, n) == pytest.approx(1.0, rel=0, abs=1e-12)
    lp, _ = _max_dobrushin_lp(eps, c, n)
    assert lp == pytest.approx(1.0, rel=0, abs=1e-8)
