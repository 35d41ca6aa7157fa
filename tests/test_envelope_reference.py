"""Independent reference cross-check of the PML-envelope functions (envelope paper).

Saeidian, Pinzón, Palamidessi, "Information leakage envelopes". Every reference value in
this file is computed from the paper's definitions alone, written without reading the
implementation under test (``mechdesign/bounds/envelope.py``):

* the leakage ℓ(X → y) = log max_{x ∈ supp P_X} K[x, y] / P_Y(y) (Sec. II-C) by numpy, the
  quantiles ε̲_Y(δ), ε̄_Y(δ) of eqs. (9)–(10) by enumerating every subset of the outputs,
  ψ1, ψ2 of Sec. III from their expectations and ψ2 also from its event form;
* the binary envelope ε_b(δ) (eq. 13) as the linear program of App. C-B,
  max_x max {Σ_y w_y K[x, y] : w ∈ [0, 1]^Y, Σ_y w_y P_Y(y) = δ}, solved by HiGHS;
* the PML envelope ε_c(δ) (Theorem 2) in three independent ways: brute force over every
  deterministic post-processing (set partitions of Y, also of refined alphabets where an
  output is split in two to imitate randomisation), a random-restart local search over
  randomised post-processings P_{Z|Y} with |X| + 1 outputs, and an exact "packing" LP:
  the outputs of a bad set can be merged per maximising input x (merging z's whose
  leakage is attained by the same x keeps K[x]·w ≥ e^τ P_Y·w), so
  ε_c(δ) = max {τ : V(τ) ≥ δ}, V(τ) = max Σ_x P_Y·w^x over w^x ≥ 0, Σ_x w^x ≤ 1,
  (K[x] − e^τ P_Y)·w^x ≥ 0, which is found by bisection on τ; and δ_c(ε) = lim_{τ↓ε} V(τ);
* Theorem 3's upper bound, eq. (14)'s lower bound, conditional maximal leakage and the
  adaptive composition bound of Sec. IV-A, the DP inverse of the privacy profile by
  bisection, the k-RR quantities of Theorem 5 and App. C-B, the PML-extremal mechanism of
  Sec. V-A and the four-level prior of Sec. V-B, each from the printed formula.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st
from scipy.optimize import linprog, minimize

import mechdesign as md
from tests.helpers import distributions, kernels, random_kernel

# HiGHS tolerances for the reference LPs (tighter than the defaults).
LP_OPTIONS = {"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}
# The library compares probabilities to δ with this absolute slack (spec).
SLACK = 1e-12
# Agreement of closed-form / enumerated values with the library.
ATOL = 1e-9
# Agreement of the bisected packing-LP envelope with the library.
LP_ATOL = 1e-6
DELTA_GRID = (0.01, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9)
T_GRID = tuple(np.round(np.arange(0.1, 1.0, 0.1), 10))

# Example 1 of the paper, kernel (7), uniform prior.
EXAMPLE1_KERNEL = np.array(
    [
        [0.0, 0.0, 0.5, 0.5],
        [0.0, 0.0, 0.5, 0.5],
        [0.0, 0.2, 0.4, 0.4],
        [0.2, 0.0, 0.4, 0.4],
    ]
)
EXAMPLE1_PRIOR = np.full(4, 0.25)
# Example 1's merge h: {1, 3} → 1, {2, 4} → 2 (0-based columns).
EXAMPLE1_MERGE = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [0.0, 1.0]])

# Gaps (library value − best local-search value), collected for the report.
LOCAL_SEARCH_GAPS: list[float] = []


# ---------------------------------------------------------------------------------------
# Leakage and its quantiles straight from the definitions
# ---------------------------------------------------------------------------------------
def leakage_and_mass(kernel: np.ndarray, prior: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """ℓ(X → y) and P_Y(y) for the outputs with P_Y(y) > 0 (Sec. II-C)."""
    kernel = np.asarray(kernel, dtype=float)
    prior = np.asarray(prior, dtype=float)
    py = prior @ kernel
    live = py > 0
    top = kernel[prior > 0].max(axis=0)
    return np.log(top[live] / py[live]), py[live]


def lower_quantile_enum(ell: np.ndarray, mass: np.ndarray, delta: float) -> float:
    """ε̲(δ), eq. (10): min over sets A with P(A) ≥ 1 − δ of max_{y ∈ A} ℓ(y)."""
    best = math.inf
    for r in range(1, ell.size + 1):
        for a in itertools.combinations(range(ell.size), r):
            idx = list(a)
            if mass[idx].sum() >= 1.0 - delta - SLACK:
                best = min(best, float(ell[idx].max()))
    return best


def upper_quantile_enum(ell: np.ndarray, mass: np.ndarray, delta: float) -> float:
    """ε̄(δ): max over sets A with P(A) ≥ δ of min_{y ∈ A} ℓ(y)."""
    best = -math.inf
    for r in range(1, ell.size + 1):
        for a in itertools.combinations(range(ell.size), r):
            idx = list(a)
            if mass[idx].sum() >= delta - SLACK:
                best = max(best, float(ell[idx].min()))
    return best


def upper_quantile_sorted(ell: np.ndarray, mass: np.ndarray, delta: float) -> float:
    """ε̄(δ) by sorting: the best bad set is a top set of the leakage (checked vs. enum)."""
    order = np.argsort(-ell, kind="stable")
    cum = np.cumsum(mass[order])
    k = int(np.searchsorted(cum, delta - SLACK, side="left"))
    return float(ell[order][min(k, ell.size - 1)])


def channel_upper_quantile(kz: np.ndarray, prior: np.ndarray, delta: float) -> float:
    """ε̄_Z(δ) of the channel P_{Z|X} = kz."""
    ell, mass = leakage_and_mass(kz, prior)
    return upper_quantile_sorted(ell, mass, delta)


def failure_probability(ell: np.ndarray, mass: np.ndarray, eps: float) -> float:
    """P_Y{ℓ(X → Y) > ε} (Definition 5)."""
    return float(mass[ell > eps].sum())


def maximal_leakage_prior(kernel: np.ndarray, prior: np.ndarray) -> float:
    """L(X → Y) = log Σ_y max_{x ∈ supp P_X} K[x, y] (Theorem 3)."""
    kernel = np.asarray(kernel, dtype=float)
    return math.log(float(kernel[np.asarray(prior) > 0].max(axis=0).sum()))


def distinct_groups(ell: np.ndarray, mass: np.ndarray, tol: float = 1e-9):
    """Leakage values grouped (sorted, gaps > tol start a new group): [(lo, hi, mass)]."""
    order = np.argsort(ell)
    groups: list[list[float]] = []
    for i in order:
        v, m = float(ell[i]), float(mass[i])
        if groups and v - groups[-1][1] <= tol:
            groups[-1][1] = v
            groups[-1][2] += m
        else:
            groups.append([v, v, m])
    return [tuple(g) for g in groups]


# ---------------------------------------------------------------------------------------
# ψ1, ψ2 (Sec. III)
# ---------------------------------------------------------------------------------------
def psi1_ref(kernel: np.ndarray, prior: np.ndarray, eps: float) -> float:
    """ψ1 = E_{P_Y}[max{0, 1 − e^ε / e^{ℓ(Y)}}]."""
    ell, mass = leakage_and_mass(kernel, prior)
    return float(np.sum(mass * np.maximum(0.0, 1.0 - np.exp(eps - ell))))


def psi2_ref(kernel: np.ndarray, prior: np.ndarray, eps: float) -> float:
    """ψ2 = max_x E_{P_{Y|X=x}}[max{0, 1 − e^ε / e^{i(x;Y)}}], x ∈ supp P_X."""
    kernel = np.asarray(kernel, dtype=float)
    py = prior @ kernel
    best = 0.0
    for x in np.flatnonzero(prior > 0):
        total = 0.0
        for y in range(kernel.shape[1]):
            if kernel[x, y] > 0:
                dens = math.log(kernel[x, y] / py[y])  # information density i(x; y)
                total += kernel[x, y] * max(0.0, 1.0 - math.exp(eps - dens))
        best = max(best, total)
    return best


def psi2_events(kernel: np.ndarray, prior: np.ndarray, eps: float) -> float:
    """ψ2 = max_x max_E (P_{Y|X=x}(E) − e^ε P_Y(E)) by enumerating every event E."""
    kernel = np.asarray(kernel, dtype=float)
    py = prior @ kernel
    m = kernel.shape[1]
    best = 0.0  # the empty event
    for x in np.flatnonzero(prior > 0):
        for r in range(1, m + 1):
            for e in itertools.combinations(range(m), r):
                idx = list(e)
                best = max(best, float(kernel[x, idx].sum() - math.exp(eps) * py[idx].sum()))
    return best


# ---------------------------------------------------------------------------------------
# Binary envelope (eq. 13, App. C-B) and events
# ---------------------------------------------------------------------------------------
def binary_envelope_lp(kernel: np.ndarray, prior: np.ndarray, delta: float) -> float:
    """ε_b(δ) = log max_x max {Σ w_y K[x,y] : w ∈ [0,1]^Y, Σ w_y P_Y(y) = δ} / δ."""
    kernel = np.asarray(kernel, dtype=float)
    py = prior @ kernel
    best = 0.0
    for x in np.flatnonzero(prior > 0):
        res = linprog(
            -kernel[x],
            A_eq=py[None, :],
            b_eq=[delta],
            bounds=[(0.0, 1.0)] * py.size,
            method="highs",
            options=LP_OPTIONS,
        )
        assert res.status == 0, res.message
        best = max(best, -res.fun)
    return math.log(best / delta)


def best_deterministic_event(kernel: np.ndarray, prior: np.ndarray, delta: float) -> float:
    """max over deterministic events E with P_Y(E) ≥ δ of ℓ(X → E) (App. C)."""
    kernel = np.asarray(kernel, dtype=float)
    py = prior @ kernel
    supp = prior > 0
    m = kernel.shape[1]
    best = -math.inf
    for r in range(1, m + 1):
        for e in itertools.combinations(range(m), r):
            idx = list(e)
            pe = py[idx].sum()
            if pe >= delta - SLACK and pe > 0:
                best = max(best, math.log(kernel[supp][:, idx].sum(axis=1).max() / pe))
    return best


# ---------------------------------------------------------------------------------------
# The PML envelope: brute force, local search, packing LP
# ---------------------------------------------------------------------------------------
def set_partitions(n: int):
    """All set partitions of {0, …, n−1}, as lists of blocks."""
    if n == 0:
        yield []
        return
    for part in set_partitions(n - 1):
        for i in range(len(part)):
            yield [*part[:i], [*part[i], n - 1], *part[i + 1 :]]
        yield [*part, [n - 1]]


def partition_matrix(blocks: list[list[int]], n: int) -> np.ndarray:
    """The deterministic post-processing (0/1 matrix P_{Z|Y}) of a partition."""
    w = np.zeros((n, len(blocks)))
    for z, block in enumerate(blocks):
        w[block, z] = 1.0
    return w


def split_output(kernel: np.ndarray, s: int, t: float) -> np.ndarray:
    """Refine Y: output s becomes two outputs carrying t and 1 − t of its mass."""
    scaled = kernel.copy()
    scaled[:, s] *= t
    return np.column_stack([scaled, (1.0 - t) * kernel[:, s]])


def brute_force_partitions(kernel: np.ndarray, prior: np.ndarray, delta: float) -> float:
    """max of ε̄_Z(δ) over every deterministic post-processing Z = h(Y)."""
    m = kernel.shape[1]
    best = -math.inf
    for blocks in set_partitions(m):
        best = max(best, channel_upper_quantile(kernel @ partition_matrix(blocks, m), prior, delta))
    return best


def boundary_fractions(kernel: np.ndarray, prior: np.ndarray, s: int, delta: float) -> set:
    """Split fractions t of output s with P_Y(S) + t P_Y(y_s) = δ for some set S ∌ s."""
    py = prior @ kernel
    if py[s] <= 0:
        return set()
    others = [y for y in range(py.size) if y != s]
    out = set()
    for r in range(len(others) + 1):
        for subset in itertools.combinations(others, r):
            t = (delta - py[list(subset)].sum()) / py[s]
            if 0 < t < 1:
                out.add(float(t))
    return out


def brute_force_envelope(kernel: np.ndarray, prior: np.ndarray, delta: float) -> float:
    """Deterministic partitions of Y and of refined alphabets: one output split at
    t ∈ grid (and, for |Y| ≤ 4, at the fractions that make some set's mass exactly δ);
    for |Y| ≤ 3 also every output split at the same grid t. A lower bound on ε_c(δ)."""
    m = kernel.shape[1]
    best = brute_force_partitions(kernel, prior, delta)
    for s in range(m):
        fractions = set(T_GRID)
        if m <= 4:
            fractions |= boundary_fractions(kernel, prior, s, delta)
        for t in sorted(fractions):
            best = max(best, brute_force_partitions(split_output(kernel, s, t), prior, delta))
    if m <= 3:
        for t in T_GRID:
            refined = np.hstack([t * kernel, (1.0 - t) * kernel])
            best = max(best, brute_force_partitions(refined, prior, delta))
    return best


def packing_value(kernel: np.ndarray, prior: np.ndarray, tau: float) -> float:
    """V(τ) = max Σ_x P_Y·w^x over w^x ∈ [0,1]^Y, Σ_x w^x ≤ 1, (e^τ P_Y − K[x])·w^x ≤ 0.

    The largest probability of a set of post-processed outputs that all leak ≥ τ.
    """
    kernel = np.asarray(kernel, dtype=float)
    py = prior @ kernel
    live = py > 0
    rows = kernel[prior > 0][:, live]
    py = py[live]
    s, m = rows.shape
    a_ub = np.zeros((s + m, s * m))
    for i in range(s):
        a_ub[i, i * m : (i + 1) * m] = math.exp(tau) * py - rows[i]
    for j in range(m):
        a_ub[s + j, j::m] = 1.0
    b_ub = np.r_[np.zeros(s), np.ones(m)]
    res = linprog(
        -np.tile(py, s),
        A_ub=a_ub,
        b_ub=b_ub,
        bounds=[(0.0, 1.0)] * (s * m),
        method="highs",
        options=LP_OPTIONS,
    )
    assert res.status == 0, res.message
    return float(-res.fun)


def envelope_lp(kernel: np.ndarray, prior: np.ndarray, delta: float, iters: int = 48) -> float:
    """ε_c(δ) = max {τ ≥ 0 : V(τ) ≥ δ}, by bisection (V is non-increasing, V(0) = 1)."""
    ell, _ = leakage_and_mass(kernel, prior)
    lo, hi = 0.0, float(ell.max())
    if packing_value(kernel, prior, hi) >= delta - 1e-9:
        return hi
    for _ in range(iters):
        mid = 0.5 * (lo + hi)
        if packing_value(kernel, prior, mid) >= delta - 1e-9:
            lo = mid
        else:
            hi = mid
    return lo


def closed_failure_lp(kernel: np.ndarray, prior: np.ndarray, eps: float, step: float = 1e-7):
    """Bracket for δ_c(ε) = lim_{τ↓ε} V(τ): (V(ε + step), V(ε))."""
    return packing_value(kernel, prior, eps + step), packing_value(kernel, prior, eps)


def information_densities(kernel: np.ndarray, prior: np.ndarray) -> np.ndarray:
    """All i(x; y) = log K[x, y] / P_Y(y) with x ∈ supp P_X and K[x, y] > 0."""
    py = prior @ kernel
    rows = kernel[prior > 0]
    mask = rows > 0
    return np.log(rows[mask] / np.broadcast_to(py, rows.shape)[mask])


def softmax_rows(logits: np.ndarray) -> np.ndarray:
    """Row-wise softmax: a row-stochastic post-processing from free parameters."""
    z = np.exp(logits - logits.max(axis=1, keepdims=True))
    return z / z.sum(axis=1, keepdims=True)


def local_search_envelope(
    kernel: np.ndarray, prior: np.ndarray, delta: float, rng: np.random.Generator, restarts: int
) -> float:
    """Best ε̄_Z(δ) found by Nelder–Mead from random softmax logits, |Z| = |X| + 1."""
    m, n_z = kernel.shape[1], kernel.shape[0] + 1

    def objective(theta: np.ndarray) -> float:
        return -channel_upper_quantile(kernel @ softmax_rows(theta.reshape(m, n_z)), prior, delta)

    best = -math.inf
    for _ in range(restarts):
        theta0 = 3.0 * rng.normal(size=m * n_z)
        res = minimize(
            objective,
            theta0,
            method="Nelder-Mead",
            options={"maxfev": 3000, "xatol": 1e-9, "fatol": 1e-12, "adaptive": True},
        )
        best = max(best, -float(res.fun), -objective(theta0))
    return best


# ---------------------------------------------------------------------------------------
# DP profile, conditional maximal leakage, composition
# ---------------------------------------------------------------------------------------
def privacy_profile_ref(kernel: np.ndarray, eps: float) -> float:
    """δ*(ε) = max_{x,x'} Σ_y (K[x,y] − e^ε K[x',y])^+ (Sec. II-B)."""
    kernel = np.asarray(kernel, dtype=float)
    if math.isinf(eps):
        return max(
            float(kernel[x][kernel[xp] == 0].sum())
            for x in range(kernel.shape[0])
            for xp in range(kernel.shape[0])
        )
    g = math.exp(eps)
    return max(
        float(np.maximum(kernel[x] - g * kernel[xp], 0.0).sum())
        for x in range(kernel.shape[0])
        for xp in range(kernel.shape[0])
    )


def dp_epsilon_bisection(kernel: np.ndarray, delta: float, profile=md.privacy_profile) -> float:
    """Smallest ε ≥ 0 with profile(K, ε) ≤ δ (∞ if even ε = ∞ does not reach δ)."""
    if profile(kernel, 0.0) <= delta:
        return 0.0
    if privacy_profile_ref(kernel, math.inf) > delta:
        return math.inf
    hi = 1.0
    while profile(kernel, hi) > delta:
        hi *= 2.0
    lo = 0.0
    for _ in range(80):
        mid = 0.5 * (lo + hi)
        if profile(kernel, mid) <= delta:
            hi = mid
        else:
            lo = mid
    return hi


def conditional_maximal_leakage_ref(first: np.ndarray, second: np.ndarray, prior) -> float:
    """L(X → Y2 | Y1) = max_{y1: P(y1)>0} log Σ_{y2} max_{x: P(x|y1)>0} K2[x, y1, y2]."""
    best = -math.inf
    for y1 in range(first.shape[1]):
        post = prior * first[:, y1]  # ∝ P_{X|Y1=y1}
        if post.sum() <= 0:
            continue
        best = max(best, math.log(float(second[post > 0, y1, :].max(axis=0).sum())))
    return best


def joint_channel(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """P_{(Y1,Y2)|X}[x, (y1, y2)] = K1[x, y1] K2[x, y1, y2], flattened row-major."""
    return (first[:, :, None] * second).reshape(first.shape[0], -1)


def composition_bound_ref(mechanisms: list[np.ndarray], prior: np.ndarray, delta: float):
    """Σ_i L(X → Y_i | Y^{i−1}) + log(1/δ), each term from the definition of Sec. IV-A."""
    n = prior.size
    sizes: list[int] = []
    weight = {(): prior.astype(float)}  # y^{i−1} ↦ P_X(x) P(y^{i−1} | x)
    total = 0.0
    for mech in mechanisms:
        mech = np.asarray(mech, dtype=float)
        m_i = mech.shape[-1]
        term = -math.inf
        new_weight = {}
        for past, w in weight.items():
            rows = mech.reshape(n, m_i) if mech.ndim == 2 else mech[(slice(None), *past)]
            if w.sum() > 0:
                term = max(term, math.log(float(rows[w > 0].max(axis=0).sum())))
            for y in range(m_i):
                new_weight[(*past, y)] = w * rows[:, y]
        total += term
        weight = new_weight
        sizes.append(m_i)
    return total + math.log(1.0 / delta)


def joint_of_sequence(mechanisms: list[np.ndarray], n: int) -> np.ndarray:
    """The channel X → (Y_1, …, Y_r) of an adaptive sequence, outputs in row-major order."""
    joint = np.ones((n, 1))
    shape: list[int] = []
    for mech in mechanisms:
        mech = np.asarray(mech, dtype=float)
        m_i = mech.shape[-1]
        if mech.ndim == 2:
            cond = np.broadcast_to(mech.reshape(n, *([1] * len(shape)), m_i), (n, *shape, m_i))
        else:
            cond = mech
        joint = (joint.reshape(n, *shape, 1) * cond).reshape(n, -1)
        shape.append(m_i)
    return joint


def random_adaptive(rng: np.random.Generator, n: int, sizes: list[int], zeros: float):
    """Random adaptive mechanisms: element i has shape (n, m_1, …, m_i)."""
    out = []
    for i, m_i in enumerate(sizes):
        lead = sizes[:i]
        flat = random_kernel(rng, n * int(np.prod(lead, dtype=int)), m_i, zeros)
        out.append(flat.reshape(n, *lead, m_i))
    return out


# ---------------------------------------------------------------------------------------
# Applications (Sec. V): PML-extremal mechanism, k-RR (Theorem 5, App. C-B), priors
# ---------------------------------------------------------------------------------------
def pml_extremal_ref(prior: np.ndarray, eps: float) -> np.ndarray:
    """K[i, j] = 1 − e^ε (1 − P(i)) (i = j), e^ε P(j) (i ≠ j) (Sec. V-A)."""
    g = math.exp(eps)
    k = g * np.tile(prior, (prior.size, 1))
    np.fill_diagonal(k, 1.0 - g * (1.0 - prior))
    return k


def krr_ref(k: int, eps: float) -> np.ndarray:
    """k-RR, eq. (15)."""
    beta = 1.0 / (math.exp(eps) + k - 1)
    return np.where(np.eye(k, dtype=bool), math.exp(eps) * beta, beta)


def theorem5_ref(eps_r: float, prior: np.ndarray, delta: float) -> dict:
    """α, β, q, N, θ, θ1, θ2, h_δ(θ), the upper bound, App. C-B's ε_b and condition (20)."""
    k = prior.size
    p = np.sort(prior)
    alpha = math.exp(eps_r) / (math.exp(eps_r) + k - 1)
    beta = 1.0 / (math.exp(eps_r) + k - 1)
    q = beta + (alpha - beta) * p
    ell = np.log(alpha / q)  # ℓ(X → j), 0-based j
    out = {
        "alpha": alpha,
        "beta": beta,
        "q": q,
        "upper": min(math.log(k * alpha / delta), math.log(alpha / q[0])),
    }
    if delta <= q[0]:
        out["lower"] = math.log(alpha / q[0])
        return out
    cum = np.cumsum(q)
    big_n = 1 + int(np.argmax(cum >= delta))  # 1-based N: Σ_{<N} q < δ ≤ Σ_{≤N} q
    s_before = cum[big_n - 2]  # Σ_{j ≤ N−1} q_j
    q_n, q_nm1 = q[big_n - 1], q[big_n - 2]
    theta = (delta - s_before) / q_n
    theta1 = alpha * ((big_n - 2) * q_nm1 - q[: big_n - 2].sum()) / (alpha * q_n - beta * q_nm1)
    theta2 = alpha * ((big_n - 1) * q_n - q[: big_n - 1].sum()) / (q_n * (alpha - beta))
    if theta <= theta1:
        lower = float(ell[big_n - 2])
    elif theta <= theta2:
        lower = math.log(((big_n - 1) * alpha + theta * beta) / delta)
    else:
        lower = float(ell[big_n - 1])
    condition = p[big_n - 1] <= (alpha * p[: big_n - 1].sum() + beta) / ((big_n - 2) * alpha + beta)
    out.update(
        n=big_n,
        theta=theta,
        theta1=theta1,
        theta2=theta2,
        lower=lower,
        binary=math.log((alpha + (big_n - 2 + theta) * beta) / delta),
        prior_condition=bool(condition),
    )
    return out


def four_level_ref(k: int, rho: float) -> np.ndarray:
    """p_i = m_{r(i)} / k, r(i) = ⌊4(i − 1)/k⌋, m = (1 − 3ρ, 1 − ρ, 1 + ρ, 1 + 3ρ)."""
    levels = (1 - 3 * rho, 1 - rho, 1 + rho, 1 + 3 * rho)
    return np.array([levels[(4 * i) // k] / k for i in range(k)])


def random_instance(rng: np.random.Generator, n: int, m: int, zeros: float, prior_zero: bool):
    """A seeded random (kernel, prior); the prior may have a zero entry."""
    kernel = random_kernel(rng, n, m, zeros)
    prior = rng.dirichlet(np.ones(n))
    if prior_zero and n > 2:
        prior[rng.integers(n)] = 0.0
        prior /= prior.sum()
    return kernel, prior


# =======================================================================================
# 0. The references agree with each other (sanity of this file, library-free)
# =======================================================================================
def test_reference_sorted_quantile_matches_enumeration():
    rng = np.random.default_rng(0)
    for _ in range(30):
        kernel, prior = random_instance(rng, 3, 5, 0.3, True)
        ell, mass = leakage_and_mass(kernel, prior)
        for delta in DELTA_GRID:
            assert upper_quantile_sorted(ell, mass, delta) == upper_quantile_enum(ell, mass, delta)


def test_reference_packing_lp_dominates_brute_force():
    rng = np.random.default_rng(1)
    for _ in range(4):
        kernel, prior = random_instance(rng, 3, 3, 0.2, False)
        for delta in (0.1, 0.4):
            exact = envelope_lp(kernel, prior, delta)
            assert exact >= brute_force_envelope(kernel, prior, delta) - 1e-9
            assert exact >= binary_envelope_lp(kernel, prior, delta) - 1e-9


# =======================================================================================
# 1. Leakage distribution, quantiles, failure probability
# =======================================================================================
@settings(max_examples=40)
@given(kernels(max_size=6), st.data())
def test_leakage_distribution_matches_enumeration(kernel, data):
    prior = data.draw(distributions(kernel.shape[0]))
    ell, mass = leakage_and_mass(kernel, prior)
    dist = md.bounds.leakage_distribution(kernel, prior)
    values = np.asarray(dist.values, dtype=float)
    probs = np.asarray(dist.probabilities, dtype=float)
    assert np.all(np.diff(values) > 0)
    assert np.all(probs > 0)
    assert probs.sum() == pytest.approx(1.0, abs=1e-12)
    for v in values:
        assert np.min(np.abs(ell - v)) <= ATOL
    groups = distinct_groups(ell, mass)
    for lo, hi, g_mass in groups:
        inside = (values >= lo - ATOL) & (values <= hi + ATOL)
        assert probs[inside].sum() == pytest.approx(g_mass, abs=1e-12)
    # the CDF between and around the groups
    probes = [groups[0][0] - 1.0, groups[-1][1] + 1.0]
    probes += [0.5 * (a[1] + b[0]) for a, b in itertools.pairwise(groups)]
    for t in probes:
        assert dist.cdf(t) == pytest.approx(float(mass[ell <= t].sum()), abs=1e-12)


@settings(max_examples=60)
@given(kernels(max_size=6), st.data())
def test_quantiles_match_subset_enumeration(kernel, data):
    prior = data.draw(distributions(kernel.shape[0]))
    ell, mass = leakage_and_mass(kernel, prior)
    # δ sometimes exactly a subset probability (the boundary the slack is for)
    if data.draw(st.booleans()):
        subset = data.draw(st.lists(st.integers(0, ell.size - 1), min_size=1, unique=True))
        delta = float(mass[subset].sum())
        assume(1e-6 < delta < 1 - 1e-6)
    else:
        delta = data.draw(st.floats(1e-3, 0.999))
    assert md.bounds.pml_lower_quantile(kernel, prior, delta) == pytest.approx(
        lower_quantile_enum(ell, mass, delta), abs=ATOL
    )
    assert md.bounds.pml_upper_quantile(kernel, prior, delta) == pytest.approx(
        upper_quantile_enum(ell, mass, delta), abs=ATOL
    )
    assert (
        md.bounds.pml_upper_quantile(kernel, prior, delta)
        >= md.bounds.pml_lower_quantile(kernel, prior, delta) - ATOL
    )


@settings(max_examples=60)
@given(kernels(max_size=6), st.data(), st.floats(0.01, 5.0))
def test_failure_probability_matches_definition(kernel, data, eps):
    prior = data.draw(distributions(kernel.shape[0]))
    ell, mass = leakage_and_mass(kernel, prior)
    assume(np.min(np.abs(ell - eps)) > 1e-9)
    got = md.bounds.pml_failure_probability(kernel, prior, eps)
    assert got == pytest.approx(failure_probability(ell, mass, eps), abs=1e-12)
    # Definition 5 ⇔ ε̲_Y(δ) ≤ ε
    for delta in DELTA_GRID:
        if abs(got - delta) > 1e-9:
            assert (got <= delta) == (lower_quantile_enum(ell, mass, delta) <= eps)


def test_example_1_and_2_quantiles():
    dist = md.bounds.leakage_distribution(EXAMPLE1_KERNEL, EXAMPLE1_PRIOR)
    np.testing.assert_allclose(dist.values, [math.log(10 / 9), math.log(4)], atol=1e-12)
    np.testing.assert_allclose(dist.probabilities, [0.9, 0.1], atol=1e-12)
    # Example 2 at the exact boundary δ = 0.1
    assert md.bounds.pml_lower_quantile(EXAMPLE1_KERNEL, EXAMPLE1_PRIOR, 0.1) == pytest.approx(
        math.log(10 / 9), abs=1e-12
    )
    assert md.bounds.pml_upper_quantile(EXAMPLE1_KERNEL, EXAMPLE1_PRIOR, 0.1) == pytest.approx(
        math.log(4), abs=1e-12
    )
    for eps, expected in ((math.log(10 / 9) + 1e-9, 0.1), (math.log(4) - 1e-9, 0.1)):
        assert md.bounds.pml_failure_probability(EXAMPLE1_KERNEL, EXAMPLE1_PRIOR, eps) == (
            pytest.approx(expected, abs=1e-12)
        )
    failure = md.bounds.pml_failure_probability(EXAMPLE1_KERNEL, EXAMPLE1_PRIOR, math.log(4) + 1e-9)
    assert failure == 0


# =======================================================================================
# 2. ψ1 and ψ2
# =======================================================================================
@settings(max_examples=50)
@given(kernels(max_size=5), st.data(), st.floats(0.0, 4.0))
def test_psi_match_definitions(kernel, data, eps):
    prior = data.draw(distributions(kernel.shape[0]))
    assert md.bounds.pml_psi1(kernel, prior, eps) == pytest.approx(
        psi1_ref(kernel, prior, eps), abs=1e-12
    )
    ref2 = psi2_ref(kernel, prior, eps)
    assert ref2 == pytest.approx(psi2_events(kernel, prior, eps), abs=1e-12)
    assert md.bounds.pml_psi2(kernel, prior, eps) == pytest.approx(ref2, abs=1e-12)
    # ψ1 lower bounds the failure probability (Sec. III)
    ell, mass = leakage_and_mass(kernel, prior)
    assert psi1_ref(kernel, prior, eps) <= failure_probability(ell, mass, eps) + 1e-12


@settings(max_examples=50)
@given(kernels(max_size=5), st.data(), st.floats(0.0, 3.0))
def test_psi2_does_not_increase_under_post_processing(kernel, data, eps):
    prior = data.draw(distributions(kernel.shape[0]))
    post = data.draw(kernels(kernel.shape[1], data.draw(st.integers(1, 5))))
    before = md.bounds.pml_psi2(kernel, prior, eps)
    after = md.bounds.pml_psi2(kernel @ post, prior, eps)
    assert after <= before + 1e-12
    assert psi2_ref(kernel @ post, prior, eps) <= psi2_ref(kernel, prior, eps) + 1e-12


def test_psi_printed_values_and_psi1_increase():
    eps = math.log(10 / 9)
    merged = EXAMPLE1_KERNEL @ EXAMPLE1_MERGE
    assert psi1_ref(EXAMPLE1_KERNEL, EXAMPLE1_PRIOR, eps) == pytest.approx(13 / 180, abs=1e-12)
    assert psi1_ref(merged, EXAMPLE1_PRIOR, eps) == pytest.approx(2 / 27, abs=1e-12)
    assert md.bounds.pml_psi1(EXAMPLE1_KERNEL, EXAMPLE1_PRIOR, eps) == pytest.approx(
        13 / 180, abs=1e-12
    )
    assert md.bounds.pml_psi1(merged, EXAMPLE1_PRIOR, eps) == pytest.approx(2 / 27, abs=1e-12)
    assert md.bounds.pml_psi1(merged, EXAMPLE1_PRIOR, eps) > md.bounds.pml_psi1(
        EXAMPLE1_KERNEL, EXAMPLE1_PRIOR, eps
    )
    assert md.bounds.pml_psi2(EXAMPLE1_KERNEL, EXAMPLE1_PRIOR, math.log(3)) == pytest.approx(
        0.05, abs=1e-12
    )
    assert md.bounds.pml_psi2(EXAMPLE1_KERNEL, EXAMPLE1_PRIOR, eps) == pytest.approx(
        13 / 90, abs=1e-12
    )


# =======================================================================================
# 3. Binary envelope
# =======================================================================================
@settings(max_examples=40)
@given(kernels(max_size=5), st.data(), st.floats(0.01, 0.99))
def test_binary_envelope_matches_lp(kernel, data, delta):
    prior = data.draw(distributions(kernel.shape[0]))
    ref = binary_envelope_lp(kernel, prior, delta)
    got = md.binary_envelope(kernel, prior, delta)
    assert got == pytest.approx(ref, abs=1e-8)
    assert best_deterministic_event(kernel, prior, delta) <= got + 1e-9


# =======================================================================================
# 4. The PML envelope
# =======================================================================================
def _envelope_cases():
    """Seeded small instances (with zeros in kernels and priors) for the envelope tests."""
    rng = np.random.default_rng(2024)
    cases = []
    for n, m, zeros, prior_zero in [
        (2, 3, 0.0, False),
        (3, 3, 0.2, False),
        (3, 4, 0.0, False),
        (2, 4, 0.3, False),
        (4, 4, 0.2, True),
        (3, 5, 0.0, False),
        (3, 5, 0.3, True),
        (2, 5, 0.1, False),
    ]:
        cases.append(random_instance(rng, n, m, zeros, prior_zero))
    return cases


ENVELOPE_CASES = _envelope_cases()


@pytest.mark.parametrize("case", range(len(ENVELOPE_CASES)))
def test_envelope_dominates_brute_force_and_equals_packing_lp(case):
    kernel, prior = ENVELOPE_CASES[case]
    for delta in (0.05, 0.2, 0.5):
        value = md.pml_envelope(kernel, prior, delta)
        bf = brute_force_envelope(kernel, prior, delta)
        assert value >= bf - 1e-9, (kernel, prior, delta, float(value), bf)
        exact = envelope_lp(kernel, prior, delta)
        assert float(value) == pytest.approx(exact, abs=LP_ATOL), (kernel, prior, delta)


@pytest.mark.parametrize("case", [0, 1, 2, 5])
def test_envelope_dominates_local_search(case):
    kernel, prior = ENVELOPE_CASES[case]
    rng = np.random.default_rng(100 + case)
    for delta in (0.1, 0.5):
        value = float(md.pml_envelope(kernel, prior, delta))
        found = local_search_envelope(kernel, prior, delta, rng, restarts=8)
        gap = value - found
        LOCAL_SEARCH_GAPS.append(gap)
        print(f"local search case {case} δ={delta}: value={value:.6f} found={found:.6f}")
        assert gap >= -1e-9
        assert gap <= 0.05


@pytest.mark.parametrize("case", range(len(ENVELOPE_CASES)))
def test_envelope_certificate_and_bounds(case):
    kernel, prior = ENVELOPE_CASES[case]
    ell, mass = leakage_and_mass(kernel, prior)
    previous = math.inf
    for delta in DELTA_GRID:
        value = md.pml_envelope(kernel, prior, delta)
        post = np.asarray(value.post_processing, dtype=float)
        assert post.shape[0] == kernel.shape[1]
        assert np.all(post >= -1e-12)
        np.testing.assert_allclose(post.sum(axis=1), 1.0, atol=1e-9)
        kz = kernel @ post
        # (c) the post-processing attains the value
        assert channel_upper_quantile(kz, prior, delta - 1e-9) >= value - 1e-7
        # the bad set: probability ≥ δ, every output leaks ≥ the value
        pz = prior @ kz
        bad = list(value.bad_set)
        assert bad
        assert pz[bad].sum() >= delta - 1e-9
        top = kz[prior > 0].max(axis=0)
        for z in bad:
            assert pz[z] > 0
            assert math.log(top[z] / pz[z]) >= value - 1e-7
        assert value.upper >= value - 1e-12
        assert value.upper <= value + 1e-8
        # (d) Theorem 3 ≥ value ≥ eq. (14), both computed here
        upper = min(maximal_leakage_prior(kernel, prior) + math.log(1 / delta), ell.max())
        lower = max(upper_quantile_enum(ell, mass, delta), binary_envelope_lp(kernel, prior, delta))
        assert lower - 1e-9 <= value <= upper + 1e-9
        assert md.bounds.envelope_upper_bound(kernel, prior, delta) == pytest.approx(
            upper, abs=ATOL
        )
        assert md.bounds.envelope_lower_bound(kernel, prior, delta) == pytest.approx(
            lower, abs=1e-8
        )
        # non-increasing in δ
        assert value <= previous + 1e-9
        previous = float(value)


@settings(max_examples=15)
@given(kernels(max_size=4), st.data(), st.floats(0.02, 0.95))
def test_envelope_matches_packing_lp_hypothesis(kernel, data, delta):
    prior = data.draw(distributions(kernel.shape[0]))
    value = md.pml_envelope(kernel, prior, delta)
    assert float(value) == pytest.approx(envelope_lp(kernel, prior, delta), abs=LP_ATOL)
    assert value >= brute_force_partitions(kernel, prior, delta) - 1e-9
    assert channel_upper_quantile(kernel @ value.post_processing, prior, delta - 1e-9) >= (
        value - 1e-7
    )


@pytest.mark.parametrize("delta", [0.01, 0.05, 0.1])
def test_example_1_envelope_is_log_4(delta):
    value = md.pml_envelope(EXAMPLE1_KERNEL, EXAMPLE1_PRIOR, delta)
    assert float(value) == pytest.approx(math.log(4), abs=1e-8)
    assert envelope_lp(EXAMPLE1_KERNEL, EXAMPLE1_PRIOR, delta) == pytest.approx(
        math.log(4), abs=1e-8
    )


def test_corollary_1_constant_leakage():
    rng = np.random.default_rng(7)
    for k in (2, 3, 4, 5):
        prior = rng.dirichlet(2 * np.ones(k))
        eps = 0.7 * -math.log(1 - prior.min())
        kernel = pml_extremal_ref(prior, eps)
        ell, _ = leakage_and_mass(kernel, prior)
        np.testing.assert_allclose(ell, eps, atol=1e-12)  # the construction of Sec. V-A
        for delta in (0.01, 0.2, 0.5, 0.9):
            assert float(md.pml_envelope(kernel, prior, delta)) == pytest.approx(eps, abs=1e-8)
    # uniform prior k-RR: every ℓ = log(kα)
    for k in (3, 4):
        kernel = krr_ref(k, 1.0)
        expected = math.log(k * math.e / (math.e + k - 1))
        for delta in (0.05, 0.5):
            assert float(md.pml_envelope(kernel, np.full(k, 1 / k), delta)) == pytest.approx(
                expected, abs=1e-8
            )


# =======================================================================================
# 5. Closed failure probability δ_c(ε)
# =======================================================================================
@pytest.mark.parametrize("case", range(len(ENVELOPE_CASES)))
def test_closed_failure_probability(case):
    kernel, prior = ENVELOPE_CASES[case]
    ell, mass = leakage_and_mass(kernel, prior)
    rng = np.random.default_rng(300 + case)
    for delta in (0.05, 0.3, 0.6):
        value = float(md.pml_envelope(kernel, prior, delta))
        assert md.bounds.closed_failure_probability(kernel, prior, value + 1e-7) <= delta + 1e-9
        if value - 1e-6 > 0:
            assert md.bounds.closed_failure_probability(kernel, prior, value - 1e-6) > delta - 1e-9
    m = kernel.shape[1]
    partitions = [kernel @ partition_matrix(b, m) for b in set_partitions(m)]
    densities = information_densities(kernel, prior)
    for eps in rng.uniform(0.01, float(ell.max()) + 0.2, size=4):
        # V jumps at the τ = max_y i(x; y); the bracket (V(ε + 1e-7), V(ε)) needs distance
        if np.min(np.abs(densities - eps)) < 1e-5:
            continue
        got = md.bounds.closed_failure_probability(kernel, prior, eps)
        assert got >= failure_probability(ell, mass, eps) - 1e-12
        for kz in partitions:
            ellz, massz = leakage_and_mass(kz, prior)
            assert got >= failure_probability(ellz, massz, eps + 1e-9) - 1e-9
        lo, hi = closed_failure_lp(kernel, prior, eps)
        assert lo - 1e-7 <= got <= hi + 1e-7, (kernel, prior, eps, got, lo, hi)


# =======================================================================================
# 6. DP ε from the privacy profile
# =======================================================================================
@settings(max_examples=40)
@given(kernels(max_size=5), st.floats(0.001, 0.95))
def test_dp_epsilon_inverts_privacy_profile(kernel, delta):
    prof_inf = privacy_profile_ref(kernel, math.inf)
    assume(abs(prof_inf - delta) > 1e-9)
    ref = dp_epsilon_bisection(kernel, delta)
    got = md.measures.dp_epsilon(kernel, delta)
    if math.isinf(ref):
        assert math.isinf(got)
        return
    assert got == pytest.approx(ref, abs=1e-8)
    assert dp_epsilon_bisection(kernel, delta, privacy_profile_ref) == pytest.approx(ref, abs=1e-8)
    assert md.privacy_profile(kernel, got) <= delta + 1e-9
    if got > 1e-6:
        assert md.privacy_profile(kernel, got - 1e-6) > delta - 1e-12


@pytest.mark.parametrize("k", [2, 3, 5, 8])
@pytest.mark.parametrize("eps_r", [0.3, 1.0, 2.5])
def test_dp_epsilon_krr_closed_form(k, eps_r):
    kernel = np.asarray(md.randomized_response(k, eps_r).matrix)
    np.testing.assert_allclose(kernel, krr_ref(k, eps_r), atol=1e-15)
    alpha = math.exp(eps_r) / (math.exp(eps_r) + k - 1)
    beta = 1.0 / (math.exp(eps_r) + k - 1)
    for delta in (1e-3, 0.01, 0.1, 0.3, 0.6, 0.95):
        closed = max(math.log((alpha - delta) / beta), 0.0) if delta < alpha else 0.0
        assert md.measures.dp_epsilon(kernel, delta) == pytest.approx(closed, abs=1e-8)


# =======================================================================================
# 7. Conditional maximal leakage and composition
# =======================================================================================
def test_conditional_maximal_leakage_and_issa_chain_rule():
    rng = np.random.default_rng(11)
    for trial in range(25):
        n, m1, m2 = int(rng.integers(2, 5)), int(rng.integers(2, 4)), int(rng.integers(2, 4))
        zeros = 0.3 if trial % 2 else 0.0
        first, second = random_adaptive(rng, n, [m1, m2], zeros)
        prior = rng.dirichlet(np.ones(n))
        if trial % 3 == 0:
            prior[0] = 0.0
            prior /= prior.sum()
        ref = conditional_maximal_leakage_ref(first, second, prior)
        assert md.bounds.conditional_maximal_leakage(first, second, prior) == pytest.approx(
            ref, abs=ATOL
        )
        joint = joint_channel(first, second)
        assert maximal_leakage_prior(joint, prior) <= (
            maximal_leakage_prior(first, prior) + ref + 1e-12
        )
        # non-adaptive: K2 does not depend on y1
        k2 = random_kernel(rng, n, m2, zeros)
        second_na = np.broadcast_to(k2[:, None, :], (n, m1, m2)).copy()
        cond_na = conditional_maximal_leakage_ref(first, second_na, prior)
        assert md.bounds.conditional_maximal_leakage(first, second_na, prior) == pytest.approx(
            cond_na, abs=ATOL
        )
        assert cond_na <= maximal_leakage_prior(k2, prior) + 1e-12
        assert maximal_leakage_prior(joint_channel(first, second_na), prior) <= (
            maximal_leakage_prior(first, prior) + maximal_leakage_prior(k2, prior) + 1e-12
        )


def test_composition_bound_matches_definition_and_dominates_envelope():
    rng = np.random.default_rng(12)
    for trial in range(8):
        n = int(rng.integers(2, 4))
        sizes = [2, 3] if trial % 2 else [2, 2, 2]
        mechs = random_adaptive(rng, n, sizes, 0.25 if trial % 3 else 0.0)
        if trial % 4 in (0, 1):  # a non-adaptive (2-D) mechanism later in the sequence
            mechs[1] = random_kernel(rng, n, sizes[1], 0.0)
        elif trial % 4 == 2:
            mechs[2] = random_kernel(rng, n, sizes[2], 0.2)
        prior = rng.dirichlet(np.ones(n))
        joint = joint_of_sequence(mechs, n)
        np.testing.assert_allclose(joint.sum(axis=1), 1.0, atol=1e-12)
        for delta in (0.05, 0.3):
            ref = composition_bound_ref(mechs, prior, delta)
            assert md.bounds.composition_envelope_bound(mechs, prior, delta) == pytest.approx(
                ref, abs=ATOL
            )
            assert maximal_leakage_prior(joint, prior) + math.log(1 / delta) <= ref + 1e-12
            assert float(md.pml_envelope(joint, prior, delta)) <= ref + 1e-9
            if trial < 3:
                assert envelope_lp(joint, prior, delta) <= ref + 1e-9
    # two steps: the sum is L(X→Y1) + L(X→Y2|Y1) + log(1/δ)
    first, second = random_adaptive(rng, 3, [3, 2], 0.2)
    prior = rng.dirichlet(np.ones(3))
    expected = (
        maximal_leakage_prior(first, prior)
        + conditional_maximal_leakage_ref(first, second, prior)
        + math.log(10)
    )
    assert md.bounds.composition_envelope_bound([first, second], prior, 0.1) == pytest.approx(
        expected, abs=ATOL
    )


# =======================================================================================
# 8. k-RR (Theorem 5, App. C-B) and the four-level prior
# =======================================================================================
def _krr_cases():
    rng = np.random.default_rng(55)
    cases = [(1.0, np.array([0.2, 0.3, 0.5])), (1.0, np.array([0.1, 0.2, 0.2, 0.2, 0.3]))]
    for _ in range(6):
        k = int(rng.integers(2, 6))
        prior = rng.dirichlet(np.ones(k))
        cases.append((float(rng.uniform(0.2, 3.0)), prior))
    return cases


KRR_CASES = _krr_cases()


@pytest.mark.parametrize("case", range(len(KRR_CASES)))
def test_randomized_response_envelope_fields(case):
    eps_r, prior = KRR_CASES[case]
    shuffled = prior[np.random.default_rng(case).permutation(prior.size)]
    k = prior.size
    kernel = krr_ref(k, eps_r)
    ref0 = theorem5_ref(eps_r, prior, 0.5)
    q1 = ref0["q"][0]
    deltas = [0.5 * q1, q1 * (1 - 1e-9), *np.linspace(q1 + 1e-3, 0.98, 12)]
    for delta in deltas:
        ref = theorem5_ref(eps_r, prior, float(delta))
        got = md.bounds.randomized_response_envelope(eps_r, shuffled, float(delta))
        assert got.lower == pytest.approx(ref["lower"], abs=ATOL), (eps_r, prior, delta)
        assert got.upper == pytest.approx(ref["upper"], abs=ATOL)
        if delta > q1:
            assert got.n == ref["n"]
            assert got.theta == pytest.approx(ref["theta"], abs=ATOL)
            assert got.theta1 == pytest.approx(ref["theta1"], abs=ATOL)
            assert got.theta2 == pytest.approx(ref["theta2"], abs=ATOL)
            assert bool(got.prior_condition) == ref["prior_condition"]
            assert got.binary == pytest.approx(ref["binary"], abs=ATOL)
            # App. C-B's closed form is ε_b (the LP here, the library's binary_envelope)
            assert ref["binary"] == pytest.approx(
                binary_envelope_lp(kernel, shuffled, float(delta)), abs=1e-8
            )
            assert md.binary_envelope(kernel, np.sort(prior), float(delta)) == pytest.approx(
                ref["binary"], abs=1e-8
            )
        value = float(md.pml_envelope(kernel, np.sort(prior), float(delta)))
        assert ref["lower"] - 1e-9 <= value <= ref["upper"] + 1e-9


@pytest.mark.parametrize("case", range(len(KRR_CASES)))
def test_randomized_response_binary_field_below_q1(case):
    """For δ ≤ q1, ε_b(δ) = log(α/q1) (the event {1} thinned to mass δ); compare to the LP."""
    eps_r, prior = KRR_CASES[case]
    kernel = krr_ref(prior.size, eps_r)
    q1 = theorem5_ref(eps_r, prior, 0.5)["q"][0]
    for delta in (0.3 * q1, 0.9 * q1):
        lp = binary_envelope_lp(kernel, np.sort(prior), delta)
        assert lp == pytest.approx(theorem5_ref(eps_r, prior, delta)["lower"], abs=1e-8)
        got = md.bounds.randomized_response_envelope(eps_r, prior, delta)
        assert got.binary == pytest.approx(lp, abs=1e-8)


def test_theorem5_lower_bound_against_exact_envelope():
    """h_δ ≤ ε_c (packing LP); the paper conjectures equality under (20): record the gap."""
    gaps = []
    for eps_r, prior in KRR_CASES[:4]:
        kernel = krr_ref(prior.size, eps_r)
        q1 = theorem5_ref(eps_r, prior, 0.5)["q"][0]
        for delta in np.linspace(q1 + 0.01, 0.95, 5):
            ref = theorem5_ref(eps_r, prior, float(delta))
            exact = envelope_lp(kernel, np.sort(prior), float(delta))
            assert ref["lower"] <= exact + 1e-7
            assert exact <= ref["upper"] + 1e-9
            if ref["prior_condition"]:
                gaps.append(exact - ref["lower"])
    print(f"Theorem 5 conjecture: max (ε_c − h_δ) under (20) = {max(gaps, default=0):.3e}")


@pytest.mark.parametrize("k", [4, 8, 12, 20])
@pytest.mark.parametrize("rho", [0.05, 0.1, 0.3])
def test_four_level_prior(k, rho):
    ref = four_level_ref(k, rho)
    assert ref.sum() == pytest.approx(1.0, abs=1e-12)
    np.testing.assert_allclose(md.priors.four_level_prior(k, rho), ref, atol=1e-15)


def test_report_local_search_gaps():
    """Prints the local-search gaps collected above (runs last in file order)."""
    if LOCAL_SEARCH_GAPS:
        print(
            f"local search gaps: n={len(LOCAL_SEARCH_GAPS)} max={max(LOCAL_SEARCH_GAPS):.3e} "
            f"mean={np.mean(LOCAL_SEARCH_GAPS):.3e}"
        )
