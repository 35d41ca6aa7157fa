"""Independent reference cross-check of the design engine (``md.design`` and the notions).

The reference optimum is computed here from the GUIDE's description alone, by a route the
library does not take: every vertex of the section {v ≥ 0 : Σ v = 1, a·v ≤ e^ε b·v} is found
by brute force (every (N−1)-subset of the inequalities made tight together with Σ v = 1,
solved in one batched linear solve, kept when feasible, deduplicated with a tolerance), and
the vertex LP max Σ θ_v μ(v) s.t. Σ θ_v v = 1, θ ≥ 0 is solved with scipy's ``linprog``.
Privacy levels and mutual information are recomputed by explicit formulas. Only numpy,
scipy, itertools and math are used; the file was written without reading the
implementation.
"""

from __future__ import annotations

import functools
import itertools
import math

import numpy as np
import pytest
from scipy.optimize import linprog

import mechdesign as md

EPSILONS = (0.1, 0.5, 1.0, 2.0, 4.0)
SIZES = (2, 3, 4, 5)
# Design results are compared with this tolerance (the brief's rtol / atol).
RTOL, ATOL = 1e-7, 1e-9
# Slack allowed on privacy levels, row sums and MI recomputation of designed mechanisms.
LEVEL_SLACK = 1e-9
# Brute-force enumeration tolerances (constraint rows are normalised to unit length).
_SINGULAR = 1e-9
_FEASIBLE = 1e-10
_DEDUP = 1e-9


# ---------------------------------------------------------------------------------------
# Instances
# ---------------------------------------------------------------------------------------
def _prior(seed: int, n: int) -> np.ndarray:
    """A random full-support prior, every entry bounded away from zero."""
    p = np.random.default_rng(seed).dirichlet(np.ones(n)) + 0.03
    return p / p.sum()


def _spec(kind: str, n: int, eps: float, seed: int) -> dict:
    """One instance: the notion (as data), and the prior the design is run for."""
    if kind == "ldp":
        return {"kind": "ldp", "n": n, "eps": eps, "design_prior": _prior(seed, n)}
    if kind.startswith("cpml"):
        frac = {"cpml1": 1.0, "cpml05": 0.5, "cpml001": 0.01}[kind]
        return {
            "kind": "cpml",
            "n": n,
            "eps": eps,
            "c": frac / n,
            "design_prior": _prior(seed, n),
        }
    if kind == "pml":
        p = _prior(seed, n)
        return {"kind": "pml", "n": n, "eps": eps, "prior": p, "design_prior": p}
    if kind.startswith("hull"):
        m = int(kind[-1])
        ps = [_prior(seed + 17 * j, n) for j in range(m)]
        w = np.random.default_rng(seed + 999).dirichlet(np.ones(m))
        return {
            "kind": "hull",
            "n": n,
            "eps": eps,
            "priors": ps,
            "design_prior": sum(wj * pj for wj, pj in zip(w, ps, strict=True)),
        }
    raise AssertionError(kind)


KINDS = ("ldp", "cpml1", "cpml05", "cpml001", "pml", "hull2", "hull3")
SPECS: dict[str, dict] = {}
for _i, (_n, _eps, _kind) in enumerate(itertools.product(SIZES, EPSILONS, KINDS)):
    SPECS[f"{_kind}-N{_n}-eps{_eps}"] = _spec(_kind, _n, _eps, seed=1000 + _i)
# A few uniform-prior designs as well (the symmetric, most degenerate case).
for _n, _eps in itertools.product((3, 4), (0.5, 2.0)):
    SPECS[f"ldp-uniform-N{_n}-eps{_eps}"] = {
        "kind": "ldp",
        "n": _n,
        "eps": _eps,
        "design_prior": np.full(_n, 1.0 / _n),
    }
    SPECS[f"cpml-uniform-N{_n}-eps{_eps}"] = {
        "kind": "cpml",
        "n": _n,
        "eps": _eps,
        "c": 0.3 / _n,
        "design_prior": np.full(_n, 1.0 / _n),
    }
SPEC_IDS = sorted(SPECS)


def _notion(spec: dict):
    """The library's notion for a spec."""
    eps = spec["eps"]
    if spec["kind"] == "ldp":
        return md.LDP(eps)
    if spec["kind"] == "cpml":
        return md.PML(eps, c=spec["c"])
    if spec["kind"] == "pml":
        return md.PML(eps, prior=spec["prior"])
    return md.PML(eps, priors=spec["priors"])


# ---------------------------------------------------------------------------------------
# Reference: pairs, levels, mutual information
# ---------------------------------------------------------------------------------------
def _pairs(spec: dict) -> list[tuple[np.ndarray, np.ndarray]]:
    """The ratio pairs (a, b): a·v ≤ e^ε b·v for every output column v."""
    n = spec["n"]
    eye = np.eye(n)
    if spec["kind"] == "ldp":
        return [(eye[x], eye[x2]) for x in range(n) for x2 in range(n) if x != x2]
    if spec["kind"] == "cpml":
        c = spec["c"]
        verts = [c * np.ones(n) + (1 - n * c) * eye[j] for j in range(n)]
        return [(eye[x], q) for x in range(n) for q in verts]
    priors = [spec["prior"]] if spec["kind"] == "pml" else list(spec["priors"])
    support = sorted({x for p in priors for x in np.flatnonzero(p > 0)})
    return [(eye[x], p) for x in support for p in priors]


def _ratio_log(num: float, den: float) -> float:
    if num == 0:
        return -math.inf
    if den == 0:
        return math.inf
    return math.log(num / den)


def _level_by_pairs(k: np.ndarray, pairs) -> float:
    """max over outputs and pairs of log(a·v / b·v), with 0/0 = −∞ and positive/0 = +∞."""
    best = -math.inf
    for y in range(k.shape[1]):
        v = k[:, y]
        for a, b in pairs:
            best = max(best, _ratio_log(float(a @ v), float(b @ v)))
    return best


def _level_closed_form(k: np.ndarray, spec: dict) -> float:
    """The explicit per-notion formulas of the brief (a second, different route)."""
    best = -math.inf
    for y in range(k.shape[1]):
        v = k[:, y]
        if not np.any(v > 0):
            continue
        if spec["kind"] == "ldp":
            val = _ratio_log(v.max(), v.min())
        elif spec["kind"] == "cpml":
            c, n = spec["c"], spec["n"]
            val = _ratio_log(v.max(), c * v.sum() + (1 - n * c) * v.min())
        else:
            priors = [spec["prior"]] if spec["kind"] == "pml" else list(spec["priors"])
            support = np.zeros(spec["n"], dtype=bool)
            for p in priors:
                support |= p > 0
            val = max(_ratio_log(v[support].max(), float(p @ v)) for p in priors)
        best = max(best, val)
    return best


def _mi(k: np.ndarray, prior: np.ndarray) -> float:
    """I(X;Y) = Σ_{x,y} P(x) K(y|x) log(K(y|x) / P_Y(y)), with 0 log 0 = 0, by loops."""
    q = prior @ k
    total = 0.0
    for x in range(k.shape[0]):
        for y in range(k.shape[1]):
            if prior[x] > 0 and k[x, y] > 0:
                total += prior[x] * k[x, y] * math.log(k[x, y] / q[y])
    return total


def _mu(v: np.ndarray, prior: np.ndarray) -> float:
    """μ(v) = Σ_x P(x) v_x log(v_x / P·v): the column's contribution to I(X;Y)."""
    pv = float(prior @ v)
    return sum(float(p * vx * math.log(vx / pv)) for p, vx in zip(prior, v, strict=True) if vx > 0)


def _entropy(p: np.ndarray) -> float:
    return -sum(float(pi * math.log(pi)) for pi in p if pi > 0)


# ---------------------------------------------------------------------------------------
# Reference: brute-force vertices and the vertex LP
# ---------------------------------------------------------------------------------------
def _h_rep(spec: dict) -> np.ndarray:
    """Rows g with g·v ≤ 0 (ratio pairs and v ≥ 0), each normalised to unit length."""
    eps, n = spec["eps"], spec["n"]
    rows = [a - math.exp(eps) * b for a, b in _pairs(spec)]
    rows += [-np.eye(n)[x] for x in range(n)]
    g = np.array(rows)
    norms = np.linalg.norm(g, axis=1)
    g = g[norms > 0] / norms[norms > 0, None]
    # Identical rows (e.g. x = j with c = 1/N repeats PML-uniform rows) only add bases.
    return np.unique(np.round(g, 14), axis=0)


def _vertices_of(spec: dict) -> np.ndarray:
    """All vertices of {v : g·v ≤ 0, Σ v = 1}, by trying every (N−1)-subset as tight set."""
    n = spec["n"]
    g = _h_rep(spec)
    subsets = np.array(list(itertools.combinations(range(len(g)), n - 1)), dtype=int)
    mats = np.empty((len(subsets), n, n))
    mats[:, : n - 1, :] = g[subsets]
    mats[:, n - 1, :] = 1.0
    smin = np.linalg.svd(mats, compute_uv=False)[:, -1]
    mats = mats[smin > _SINGULAR]
    rhs = np.zeros((len(mats), n, 1))
    rhs[:, n - 1, 0] = 1.0
    pts = np.linalg.solve(mats, rhs)[:, :, 0]
    feasible = np.all(pts @ g.T <= _FEASIBLE, axis=1) & np.all(pts >= -_FEASIBLE, axis=1)
    pts = pts[feasible]
    # A coarse pass on rounded copies (keeping the unrounded points), then a tolerance pass.
    _, first = np.unique(np.round(pts, 11), axis=0, return_index=True)
    pts = pts[np.sort(first)]
    kept: list[np.ndarray] = []
    for p in pts:
        if all(np.max(np.abs(p - q)) > _DEDUP for q in kept):
            kept.append(p)
    verts = np.clip(np.array(kept), 0.0, None)
    return verts / verts.sum(axis=1, keepdims=True)


@functools.cache
def _vertices(spec_id: str) -> np.ndarray:
    return _vertices_of(SPECS[spec_id])


def _solve_vertex_lp(verts: np.ndarray, prior: np.ndarray) -> tuple[float, np.ndarray]:
    """max Σ θ_v μ(v) s.t. Σ θ_v v = 1, θ ≥ 0; returns (optimum, mechanism)."""
    n = verts.shape[1]
    mus = np.array([_mu(v, prior) for v in verts])
    res = linprog(
        -mus,
        A_eq=verts.T,
        b_eq=np.ones(n),
        bounds=[(0, None)] * len(verts),
        method="highs",
        options={"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10},
    )
    assert res.status == 0, res.message
    theta = res.x
    # Polish the basic solution: re-solve the equalities on its support exactly.
    support = np.flatnonzero(theta > 1e-12)
    sol, *_ = np.linalg.lstsq(verts[support].T, np.ones(n), rcond=None)
    if np.all(sol >= 0) and np.allclose(verts[support].T @ sol, 1.0, rtol=0, atol=1e-13):
        theta = np.zeros_like(theta)
        theta[support] = sol
    mech = (verts[support] * theta[support, None]).T
    return float(theta @ mus), mech


@functools.cache
def _reference(spec_id: str) -> tuple[float, np.ndarray]:
    return _solve_vertex_lp(_vertices(spec_id), SPECS[spec_id]["design_prior"])


@functools.cache
def _design(spec_id: str) -> tuple[float, np.ndarray]:
    spec = SPECS[spec_id]
    result = md.design(_notion(spec), spec["design_prior"])
    return float(result.utility), np.asarray(result.mechanism.matrix, dtype=float)


# ---------------------------------------------------------------------------------------
# Sanity of the reference itself (it must be right before it judges anything)
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("eps", EPSILONS)
def test_reference_ldp_vertices_are_the_1_e_eps_patterns(n, eps):
    # LDP's section has exactly the normalised {1, e^ε}^N patterns (not all-equal) as
    # vertices: 2^N − 2 of them.
    spec = {"kind": "ldp", "n": n, "eps": eps}
    verts = _vertices_of(spec)
    assert len(verts) == 2**n - 2
    expected = set()
    for bits in itertools.product((1.0, math.exp(eps)), repeat=n):
        if len(set(bits)) == 2:
            b = np.array(bits)
            expected.add(tuple(np.round(b / b.sum(), 9)))
    assert {tuple(np.round(v, 9)) for v in verts} == expected
    for v in verts:  # and each one exactly, not only after rounding
        ratios = v / v.min()
        assert np.all(
            np.isclose(ratios, 1.0, rtol=1e-12, atol=0)
            | np.isclose(ratios, math.exp(eps), rtol=1e-12, atol=0)
        )


@pytest.mark.parametrize(
    "spec_id", ["cpml001-N4-eps1.0", "cpml1-N5-eps0.5", "hull3-N4-eps2.0", "pml-N5-eps4.0"]
)
def test_reference_vertices_are_extreme_and_complete(spec_id):
    spec = SPECS[spec_id]
    n, g, verts = spec["n"], _h_rep(spec), _vertices(spec_id)
    for v in verts:
        assert np.all(g @ v <= 1e-10)
        assert v.sum() == pytest.approx(1.0, rel=0, abs=1e-12)
        tight = g[np.abs(g @ v) <= 1e-10]
        assert np.linalg.matrix_rank(tight, tol=1e-9) == n - 1  # an extreme point
    # Completeness: random linear objectives over the section land on listed vertices.
    rng = np.random.default_rng(11)
    for _ in range(60):
        res = linprog(
            rng.normal(size=n),
            A_ub=g,
            b_ub=np.zeros(len(g)),
            A_eq=np.ones((1, n)),
            b_eq=[1.0],
            bounds=[(None, None)] * n,
            method="highs",
        )
        assert res.status == 0
        assert np.min(np.max(np.abs(verts - res.x), axis=1)) <= 1e-7


def test_reference_mechanism_is_valid_and_attains_its_value():
    for spec_id in ("pml-N4-eps1.0", "cpml05-N5-eps2.0", "hull3-N4-eps0.5", "ldp-N5-eps0.1"):
        spec = SPECS[spec_id]
        value, mech = _reference(spec_id)
        np.testing.assert_allclose(mech.sum(axis=1), 1.0, rtol=0, atol=1e-10)
        assert mech.min() >= 0
        assert _level_by_pairs(mech, _pairs(spec)) <= spec["eps"] + 1e-9
        assert _mi(mech, spec["design_prior"]) == pytest.approx(value, rel=1e-9, abs=1e-11)


# ---------------------------------------------------------------------------------------
# 1. Optimal utility against the brute-force reference
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("spec_id", SPEC_IDS)
def test_design_utility_matches_brute_force_reference(spec_id):
    ref, _ = _reference(spec_id)
    got, _ = _design(spec_id)
    assert got == pytest.approx(ref, rel=RTOL, abs=ATOL)


# ---------------------------------------------------------------------------------------
# 2. Every designed mechanism, audited independently
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("spec_id", SPEC_IDS)
def test_designed_mechanism_is_valid_private_and_has_its_utility(spec_id):
    spec = SPECS[spec_id]
    utility, k = _design(spec_id)
    n, prior = spec["n"], spec["design_prior"]
    assert k.ndim == 2
    assert k.shape[0] == n
    assert 1 <= k.shape[1] <= n
    assert np.all(np.isfinite(k))
    assert k.min() >= 0.0
    np.testing.assert_allclose(k.sum(axis=1), 1.0, rtol=0, atol=1e-9)
    assert _level_by_pairs(k, _pairs(spec)) <= spec["eps"] + LEVEL_SLACK
    assert _level_closed_form(k, spec) <= spec["eps"] + LEVEL_SLACK
    assert _mi(k, prior) == pytest.approx(utility, rel=0, abs=1e-9)
    assert md.mutual_information(k, prior) == pytest.approx(_mi(k, prior), rel=1e-10, abs=1e-12)
    assert utility <= _entropy(prior) + 1e-12  # 5c: I(X;Y) ≤ H(X)
    assert utility >= -1e-12


def _random_kernel(rng: np.random.Generator, n: int, m: int, zeros: float) -> np.ndarray:
    k = rng.random((n, m)) + 0.02
    k[rng.random((n, m)) < zeros] = 0.0
    k[k.sum(axis=1) == 0, 0] = 1.0
    return k / k.sum(axis=1, keepdims=True)


LEVEL_SPECS = [
    _spec(kind, n, 1.0, seed=50 + i)
    for i, (kind, n) in enumerate(itertools.product(KINDS, (2, 3, 5)))
]


@pytest.mark.parametrize("spec", LEVEL_SPECS, ids=[f"{s['kind']}-{s['n']}" for s in LEVEL_SPECS])
@pytest.mark.parametrize("zeros", [0.0, 0.3])
def test_notion_level_matches_independent_formula(spec, zeros):
    rng = np.random.default_rng(7 + spec["n"])
    notion = _notion(spec)
    saw_inf = False
    for trial in range(15):
        k = _random_kernel(rng, spec["n"], 2 + trial % 5, zeros)
        ref = _level_by_pairs(k, _pairs(spec))
        assert _level_closed_form(k, spec) == pytest.approx(ref, rel=1e-12, abs=1e-12)
        got = notion.level(k)
        if math.isinf(ref):
            saw_inf = True
            assert got == math.inf
        else:
            assert got == pytest.approx(ref, rel=1e-10, abs=1e-12)
        # The level does not depend on ε, only the notion's shape does.
        if spec["kind"] == "ldp":
            assert md.LDP(3.0).level(k) == pytest.approx(got, rel=1e-12, abs=1e-12)
        # The same kernel given as a Mechanism.
        assert notion.level(md.Mechanism(k)) == pytest.approx(got, rel=1e-12, abs=1e-12)
    if spec["kind"] == "ldp" and zeros > 0:
        assert saw_inf  # kernels with zeros really exercised the +∞ case


def test_ldp_level_infinite_on_hand_made_kernel():
    k = np.array([[0.5, 0.5, 0.0], [0.2, 0.3, 0.5], [1.0, 0.0, 0.0]])
    assert md.LDP(1.0).level(k) == math.inf
    # An all-zero column never occurs and is ignored: level log(0.6 / 0.4).
    k2 = np.array([[0.6, 0.4, 0.0], [0.4, 0.6, 0.0]])
    assert md.LDP(1.0).level(k2) == pytest.approx(math.log(1.5), rel=1e-12, abs=1e-12)


# ---------------------------------------------------------------------------------------
# 3. Random search never beats the design
# ---------------------------------------------------------------------------------------
def _shrink_into_notion(k0: np.ndarray, spec: dict) -> np.ndarray:
    """Mix k0 towards the uniform kernel just enough to satisfy the notion (bisection).

    Every level here has the form (a + s)/(b + s) in the mixing weight, so it is monotone.
    """
    pairs, eps = _pairs(spec), spec["eps"]
    unif = np.full_like(k0, 1.0 / k0.shape[1])
    lo, hi = 0.0, 1.0
    if _level_by_pairs(k0, pairs) <= eps:
        return k0
    for _ in range(60):
        mid = (lo + hi) / 2
        if _level_by_pairs((1 - mid) * k0 + mid * unif, pairs) <= eps:
            hi = mid
        else:
            lo = mid
    return (1 - hi) * k0 + hi * unif


SEARCH_IDS = ["ldp-N3-eps1.0", "cpml05-N3-eps2.0", "pml-N4-eps0.5", "hull2-N3-eps4.0"]


@pytest.mark.parametrize("spec_id", SEARCH_IDS)
def test_random_feasible_mechanisms_never_beat_design(spec_id):
    spec = SPECS[spec_id]
    n, prior, pairs, eps = spec["n"], spec["design_prior"], _pairs(spec), spec["eps"]
    utility, _ = _design(spec_id)
    verts = _vertices(spec_id)
    rng = np.random.default_rng(2024)
    best = -math.inf
    # (a) Basic feasible mechanisms from random subsets of N vertices (θ solved exactly).
    for _ in range(400):
        idx = rng.choice(len(verts), size=min(n, len(verts)), replace=False)
        sub = verts[idx].T
        if abs(np.linalg.det(sub)) < 1e-10:
            continue
        theta = np.linalg.solve(sub, np.ones(n))
        if np.any(theta < 0):
            continue
        k = sub * theta
        assert _level_by_pairs(k, pairs) <= eps + 1e-9
        best = max(best, _mi(k, prior))
    # (b) Random mixtures of vertices over random objectives of the θ-polytope.
    for _ in range(40):
        res = linprog(
            rng.normal(size=len(verts)),
            A_eq=verts.T,
            b_eq=np.ones(n),
            bounds=[(0, None)] * len(verts),
            method="highs",
        )
        assert res.status == 0
        k = verts.T * np.clip(res.x, 0, None)
        k = k[:, k.sum(axis=0) > 0]
        k = k / k.sum(axis=1, keepdims=True)
        best = max(best, _mi(k, prior))
    # (c) Random kernels with up to 2N outputs, shrunk into the notion.
    for trial in range(150):
        k = _shrink_into_notion(_random_kernel(rng, n, 2 + trial % (2 * n - 1), 0.3), spec)
        assert _level_by_pairs(k, pairs) <= eps + 1e-9
        best = max(best, _mi(k, prior))
    assert best <= utility + 1e-9
    assert best <= _reference(spec_id)[0] + 1e-9  # the reference is not beaten either
    assert best > 0  # the search found informative mechanisms at all


# ---------------------------------------------------------------------------------------
# 4. Known values: k-ary randomized response
# ---------------------------------------------------------------------------------------
def _krr_mi_closed_form(k: int, eps: float) -> float:
    """MI of k-RR under the uniform prior: log k − H(row)."""
    d = math.exp(eps) / (math.exp(eps) + k - 1)
    o = 1.0 / (math.exp(eps) + k - 1)
    return math.log(k) + d * math.log(d) + (k - 1) * o * math.log(o)


@pytest.mark.parametrize(("k", "eps", "printed"), [(3, 3.0, 0.732018), (4, 4.0, 1.124464)])
def test_ldp_uniform_optimum_known_values(k, eps, printed):
    # The printed values are k-RR's MI (checked here from the closed form) ...
    assert _krr_mi_closed_form(k, eps) == pytest.approx(printed, rel=0, abs=5e-7)
    rr = md.randomized_response(k, eps)
    expected = np.full((k, k), 1.0 / (math.exp(eps) + k - 1))
    np.fill_diagonal(expected, math.exp(eps) / (math.exp(eps) + k - 1))
    np.testing.assert_allclose(rr.matrix, expected, rtol=1e-12, atol=1e-15)
    uniform = np.full(k, 1.0 / k)
    assert _mi(expected, uniform) == pytest.approx(_krr_mi_closed_form(k, eps), rel=1e-12, abs=0)
    assert md.mutual_information(rr, uniform) == pytest.approx(
        _krr_mi_closed_form(k, eps), rel=1e-10, abs=1e-12
    )
    # ... and also the LDP optimum, by the brute-force reference and by the library.
    spec = {"kind": "ldp", "n": k, "eps": eps}
    ref, _ = _solve_vertex_lp(_vertices_of(spec), uniform)
    assert ref == pytest.approx(_krr_mi_closed_form(k, eps), rel=1e-9, abs=1e-11)
    got = md.design(md.LDP(eps), uniform).utility
    assert got == pytest.approx(ref, rel=RTOL, abs=ATOL)
    assert got == pytest.approx(printed, rel=0, abs=5e-7)


def test_ldp_optimum_beats_krr_at_small_epsilon():
    k, eps = 5, 0.2
    uniform = np.full(k, 1.0 / k)
    krr = _krr_mi_closed_form(k, eps)
    ref, _ = _solve_vertex_lp(_vertices_of({"kind": "ldp", "n": k, "eps": eps}), uniform)
    assert ref > krr * 1.2  # strictly (and clearly) larger than k-RR's MI
    got = md.design(md.LDP(eps), uniform).utility
    assert got == pytest.approx(ref, rel=RTOL, abs=ATOL)
    assert got > krr * 1.2
    assert md.mutual_information(md.randomized_response(k, eps), uniform) == pytest.approx(
        krr, rel=1e-10, abs=1e-12
    )


# ---------------------------------------------------------------------------------------
# 5. Theory: c = 1/N is PML(uniform); c → 0 is LDP; I ≤ H(P)
# ---------------------------------------------------------------------------------------
THEORY = [(n, eps, 300 + 10 * n + j) for n in (2, 3, 4, 5) for j, eps in enumerate(EPSILONS)]


@pytest.mark.parametrize(("n", "eps", "seed"), THEORY)
def test_cpml_at_one_over_n_is_pml_for_uniform_prior(n, eps, seed):
    prior = _prior(seed, n)
    uniform = np.full(n, 1.0 / n)
    cpml = md.design(md.PML(eps, c=1.0 / n), prior).utility
    pml_u = md.design(md.PML(eps, prior=uniform), prior).utility
    assert cpml == pytest.approx(pml_u, rel=RTOL, abs=ATOL)
    ref, _ = _solve_vertex_lp(
        _vertices_of({"kind": "pml", "n": n, "eps": eps, "prior": uniform}), prior
    )
    assert cpml == pytest.approx(ref, rel=RTOL, abs=ATOL)
    assert cpml <= _entropy(prior) + 1e-12


@pytest.mark.parametrize(("n", "eps", "seed"), THEORY)
def test_cpml_tends_to_ldp_as_c_vanishes(n, eps, seed):
    prior = _prior(seed, n)
    ldp = md.design(md.LDP(eps), prior).utility
    ref_ldp, _ = _solve_vertex_lp(_vertices_of({"kind": "ldp", "n": n, "eps": eps}), prior)
    assert ldp == pytest.approx(ref_ldp, rel=RTOL, abs=ATOL)
    previous = ldp
    # Q_X(c) shrinks as c grows, so the optimum is non-decreasing in c, from LDP's value.
    for c in (1e-6, 1e-3 / n, 0.5 / n, 1.0 / n):
        u = md.design(md.PML(eps, c=c), prior).utility
        ref, _ = _solve_vertex_lp(_vertices_of({"kind": "cpml", "n": n, "eps": eps, "c": c}), prior)
        assert u == pytest.approx(ref, rel=RTOL, abs=ATOL)
        assert u >= previous - 1e-9
        assert u <= _entropy(prior) + 1e-12
        if c == 1e-6:  # exact: a parameter of the test grid
            assert u == pytest.approx(ldp, rel=0, abs=1e-4)
        previous = u


@pytest.mark.parametrize(("n", "eps", "seed"), THEORY[::3])
def test_hull_optimum_between_its_vertices_and_ldp(n, eps, seed):
    # PML over a hull is stricter than PML for each vertex prior, and looser than LDP.
    ps = [_prior(seed + j, n) for j in range(3)]
    prior = ps[0]
    hull = md.design(md.PML(eps, priors=ps), prior).utility
    ldp = md.design(md.LDP(eps), prior).utility
    assert ldp <= hull + 1e-9
    for p in ps:
        assert hull <= md.design(md.PML(eps, prior=p), prior).utility + 1e-9
    single = md.design(md.PML(eps, priors=[prior]), prior).utility
    assert single == pytest.approx(
        md.design(md.PML(eps, prior=prior), prior).utility, rel=RTOL, abs=ATOL
    )


SMALL_C = [
    (n, eps, c, prior_seed)
    for n in (3, 4)
    for eps in (0.1, 0.5, 1.0)
    for c in (1e-5, 1e-6, 1e-8)
    for prior_seed in (None, 1)
]


@pytest.mark.parametrize(("n", "eps", "c", "prior_seed"), SMALL_C)
def test_cpml_small_c_keeps_every_vertex(n, eps, c, prior_seed):
    # For small c the (ε,c)-PML section has 2^N − 2 vertices, each close to an LDP vertex,
    # and the optimum can never fall below LDP's (LDP ⊂ (ε,c)-PML).
    if prior_seed is None:
        prior = np.array([0.4, 0.3, 0.2, 0.1])[:n] / np.array([0.4, 0.3, 0.2, 0.1])[:n].sum()
    else:
        prior = _prior(prior_seed, n)
    verts = _vertices_of({"kind": "cpml", "n": n, "eps": eps, "c": c})
    assert len(verts) == 2**n - 2
    ref, _ = _solve_vertex_lp(verts, prior)
    ref_ldp, _ = _solve_vertex_lp(_vertices_of({"kind": "ldp", "n": n, "eps": eps}), prior)
    assert ref >= ref_ldp - 1e-12
    result = md.design(md.PML(eps, c=c), prior)
    assert result.utility == pytest.approx(ref, rel=RTOL, abs=ATOL)
    assert result.utility >= md.design(md.LDP(eps), prior).utility - 1e-9
    level = _level_by_pairs(result.mechanism.matrix, _pairs({"kind": "cpml", "n": n, "c": c}))
    assert level <= eps + LEVEL_SLACK
