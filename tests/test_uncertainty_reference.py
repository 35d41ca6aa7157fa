"""Independent reference cross-check of the Rényi-ball uncertainty sets (robust-LDP paper).

Lopuhaä-Zwakenberg & Goseling, "Mechanisms for robust local differential privacy",
Sections 3–4 and Appendix A.1–A.3. Every reference value in this file is computed without
reading the implementation under test (``mechdesign/notions/uncertainty.py``) and, for the
projection statistics, without the paper's closed forms: they come from direct convex
optimisation over the ball F = {P : D_α(P̂‖P) ≤ B} in the full joint space P_X (cvxpy with
Clarabel), so the same tests also check the paper's Theorem 1, Proposition 1, Lemma 1 and
Proposition 2.

How the references are obtained (X = S × U flattened S-major, x = s·|U| + u):

* The ball is written in the ratio variables r = P/P̂ (P̂ of full support), where
  D_α(P̂‖P) = (α−1)⁻¹ log Σ_x P̂_x r_x^{1−α} (KL: −Σ_x P̂_x log r_x). The set
  {Σ P̂ r^{1−α} ≤ e^{(α−1)B}} (α > 1), {Σ P̂ r^{1−α} ≥ e^{(α−1)B}} (α < 1) and
  {−Σ P̂ log r ≤ B} (α = 1) is convex, so "min of a linear function over F" is a convex
  problem. The ratio variables keep every coefficient O(1); the objective is rescaled to
  unit size, without which Clarabel's absolute tolerances were met far from the optimum.
* Theorem 1: D_min(R) = min {D_α(P̂‖P) : P ∈ P_X, P_{U|s} = R}; the constraint
  P_{u,s} = R_u Σ_u' P_{u',s} is linear, so this is one convex problem. R lies in the
  projection F_{U|s} of the ball of radius B iff D_min(R) ≤ B.
* L_{u|s} = min_{P∈F} P_{u,s}/P_s and, for every sign pattern σ ∈ {±1}^U,
  max_{P∈F} Σ_u σ_u P_{u,s}/P_s are linear-fractional programs over a convex set. They
  are solved by Dinkelbach's method: λ ← N(P)/D(P) at P = argmin_{P∈F} N(P) − λ D(P),
  whose root λ* of min_{P∈F} (N − λD) = 0 is the global optimum of N/D (N, D linear,
  D ≥ 0); every iterate is a feasible ratio, so the sequence is monotone. Then
  rad_s = max_σ [max_P σ·P_{U|s}] − σ·P̂_{U|s}, since ‖v‖₁ = max_σ σ·v.
* ξ^±(ρ): min and max of P_x/P̂_x over a Rényi ball whose centre has P̂_x = ρ (two
  different "rest" vectors, which must not matter); for α ≥ 1 in log-ratios, which stays
  well conditioned for large radii (see ``_xi_by_optimisation``).

The paper's printed formulas (Theorem 1's B_s, Lemma 1, Proposition 2 and Proposition 1
evaluated by root finding) are implemented separately below and compared with the
optimisation, which is how the printed errata were confirmed:

* Proposition 2, item 2 lacks "− 2ρ": rad_s = 2ρ(ξ⁺(ρ) − 1) with ρ = min_u P̂_{u|s}.
* Proposition 2, item 2's condition can be weakened to e^{B_s} − 1 ≥ (1 − 2ρ)² (the
  proof's ρ_opt = (1 − √B̃)/2), and item 3's bound e^{B_s} − 1 is false; the proof's
  (A56)–(A58) give √(e^{B_s} − 1) (also Cauchy–Schwarz on χ²).
* Eq. (28): ξ⁺ ranges over [1, 1/ρ] (P_x ≤ 1), not [1, (1−ρ)⁻¹).
* Example 2 prints B_s = (α−1)⁻¹ log((e^{(α−1)B} − (1−P̂_s))/P̂_s) (0.3782, 0.0900),
  not Theorem 1's α/(α−1) log((e^{(α−1)B/α} − (1−P̂_s))/P̂_s) (0.4067, 0.0903); all its
  printed L and rad follow from the former. The optimisation agrees with Theorem 1.

Tolerances: optimised values agree with the library to ``OPT_ATOL`` = 1e-6 absolute plus
``OPT_RTOL`` = 1e-5 relative (the solver runs at 1e-9; over 12 seeds × all α and shapes the
observed disagreement was below 1% of that tolerance); closed forms to rtol 1e-9.
"""

from __future__ import annotations

import functools
import itertools
import math
import warnings

import cvxpy as cp
import numpy as np
import pytest
from scipy.optimize import brentq
from scipy.stats import chi2

import mechdesign as md

ALPHAS = (0.5, 1.0, 2.0, 5.0)
SHAPES = ((2, 2), (2, 3), (3, 2), (3, 3))
RADIUS_SHAPES = (*SHAPES, (2, 4))
# Agreement of an optimised reference with the library (or with a closed form).
OPT_ATOL = 1e-6
OPT_RTOL = 1e-5
# Relative margin around D_min(R) for the sharp membership test of Theorem 1 (plus 1e-7
# absolute: the exponential-cone solves of D_min for KL are good to ~1e-9 absolute).
MEMBERSHIP_MARGIN = 1e-4
# Clarabel tolerances tried in turn (the tightest one that reports "optimal" is used).
SOLVER_TOLERANCES = (1e-9, 1e-8, 1e-7)


# ---------------------------------------------------------------- small helpers


def _renyi(p: np.ndarray, q: np.ndarray, alpha: float) -> float:
    """D_α(p‖q) from its definition (Section 3), natural log; p of full support."""
    p = np.asarray(p, float)
    q = np.asarray(q, float)
    if alpha == 1:
        return float(np.sum(p * np.log(p / q)))
    return float(np.log(np.sum(p**alpha * q ** (1 - alpha))) / (alpha - 1))


def _conditional(center: np.ndarray, shape: tuple[int, int], s: int) -> np.ndarray:
    """P̂_{U|s} of an S-major flattened joint distribution."""
    block = np.asarray(center, float).reshape(shape)[s]
    return block / block.sum()


def _instance(alpha: float, shape: tuple[int, int], salt: int = 0):
    """A reproducible random centre of full support (entries ≥ 0.02) and radius in [0.05, 0.6]."""
    seed = 7919 * salt + 1000 * round(10 * alpha) + 10 * shape[0] + shape[1]
    rng = np.random.default_rng(seed)
    while True:
        center = rng.dirichlet(np.full(shape[0] * shape[1], 2.0))
        if center.min() >= 0.02:
            break
    return center, float(rng.uniform(0.05, 0.6)), rng


def _solve(problem: cp.Problem) -> None:
    """Solve with Clarabel at the tightest tolerance that reports an optimal status."""
    for tol in SOLVER_TOLERANCES:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                problem.solve(
                    solver=cp.CLARABEL,
                    tol_gap_abs=tol,
                    tol_gap_rel=tol,
                    tol_feas=tol,
                    max_iter=500,
                )
            except cp.error.SolverError:
                continue
        if problem.status == cp.OPTIMAL:
            return
    raise AssertionError(f"reference solver failed: {problem.status}")


def _renyi_sum(center: np.ndarray, r: cp.Variable, alpha: float) -> cp.Expression:
    """Σ_x P̂_x r_x^{1−α} (or −Σ_x P̂_x log r_x for α = 1) in the ratio variables r = P/P̂."""
    if alpha == 1:
        return -(center @ cp.log(r))
    return center @ cp.power(r, 1 - alpha)


def _ball_constraint(center: np.ndarray, r: cp.Variable, alpha: float, radius: float):
    """D_α(P̂‖P̂∘r) ≤ radius as a convex constraint on r (α < 1 flips the inequality)."""
    expr = _renyi_sum(center, r, alpha)
    if alpha == 1:
        return expr <= radius
    bound = math.exp((alpha - 1) * radius)
    return expr <= bound if alpha > 1 else expr >= bound


class _LinearOverBall:
    """argmin_{P ∈ F} w·P for F = {P ∈ P_X : D_α(P̂‖P) ≤ B}, compiled once (w a parameter)."""

    def __init__(self, center: np.ndarray, alpha: float, radius: float):
        self.center = np.asarray(center, float)
        self.r = cp.Variable(self.center.size, nonneg=True)
        self.w = cp.Parameter(self.center.size)
        constraints = [
            _ball_constraint(self.center, self.r, alpha, radius),
            self.center @ self.r == 1,
        ]
        self.problem = cp.Problem(cp.Minimize(self.w @ self.r), constraints)

    def argmin(self, w: np.ndarray) -> np.ndarray:
        coefficients = np.asarray(w, float) * self.center
        self.w.value = coefficients / np.abs(coefficients).max()
        _solve(self.problem)
        p = self.center * np.maximum(self.r.value, 0.0)
        return p / p.sum()


def _fractional_extreme(
    ball: _LinearOverBall, num: np.ndarray, den: np.ndarray, *, maximize: bool, start: float
) -> float:
    """min (or max) over F of (num·P)/(den·P) by Dinkelbach's method (see module docstring)."""
    sign = -1.0 if maximize else 1.0
    best = start
    lam = start
    for _ in range(60):
        p = ball.argmin(sign * (num - lam * den))
        if den @ p < 1e-12:
            break
        new = float(num @ p / (den @ p))
        best = max(best, new) if maximize else min(best, new)
        if abs(new - lam) <= 1e-11:
            break
        lam = new
    return best


@functools.cache
def _opt_lower_bounds(alpha: float, shape: tuple[int, int], salt: int = 0) -> np.ndarray:
    """L_{u|s} = min_{P∈F} P_{u,s}/P_s for the instance ``_instance(alpha, shape, salt)``."""
    center, radius, _ = _instance(alpha, shape, salt)
    return _lower_bounds_by_optimisation(center, shape, alpha, radius)


def _lower_bounds_by_optimisation(center, shape, alpha, radius) -> np.ndarray:
    """L_{u|s} = min_{P∈F} P_{u,s}/P_s for every (s, u), by Dinkelbach over the joint ball."""
    n_s, n_u = shape
    ball = _LinearOverBall(center, alpha, radius)
    out = np.empty(shape)
    for s in range(n_s):
        den = np.zeros(n_s * n_u)
        den[s * n_u : (s + 1) * n_u] = 1.0
        cond = _conditional(center, shape, s)
        for u in range(n_u):
            num = np.zeros(n_s * n_u)
            num[s * n_u + u] = 1.0
            out[s, u] = _fractional_extreme(ball, num, den, maximize=False, start=cond[u])
    return out


def _radii_by_optimisation(center, shape, alpha, radius, patterns=None) -> np.ndarray:
    """max_{P∈F} ‖P_{U|s} − P̂_{U|s}‖₁ per s, maximising σ·P_{U|s} for each sign pattern σ.

    ``patterns`` restricts σ (then the result is a lower bound on rad_s); by default every
    non-constant σ ∈ {±1}^U is used, which is exact.
    """
    n_s, n_u = shape
    if patterns is None:
        patterns = [p for p in itertools.product((-1.0, 1.0), repeat=n_u) if len(set(p)) > 1]
    ball = _LinearOverBall(center, alpha, radius)
    out = np.zeros(n_s)
    for s in range(n_s):
        den = np.zeros(n_s * n_u)
        den[s * n_u : (s + 1) * n_u] = 1.0
        cond = _conditional(center, shape, s)
        for sigma in patterns:
            sigma = np.asarray(sigma, float)
            num = np.zeros(n_s * n_u)
            num[s * n_u : (s + 1) * n_u] = sigma
            base = float(sigma @ cond)
            top = _fractional_extreme(ball, num, den, maximize=True, start=base)
            out[s] = max(out[s], top - base)
    return out


@functools.cache
def _opt_radii(alpha: float, shape: tuple[int, int], salt: int = 0) -> np.ndarray:
    """rad_s by optimisation for the instance ``_instance(alpha, shape, salt)``."""
    center, radius, _ = _instance(alpha, shape, salt)
    return _radii_by_optimisation(center, shape, alpha, radius)


def _min_divergence_with_conditional(center, shape, s, target, alpha) -> float:
    """D_min(R) = min {D_α(P̂‖P) : P ∈ P_X, P_{U|s} = R} as one convex problem."""
    n_u = shape[1]
    center = np.asarray(center, float)
    r = cp.Variable(center.size, nonneg=True)
    p = cp.multiply(center, r)
    block = p[s * n_u : (s + 1) * n_u]
    constraints = [cp.sum(p) == 1, block == np.asarray(target, float) * cp.sum(block)]
    # Scale the objective by its value at the feasible point P_{·,s} = P̂_s R, else P̂.
    start = center.reshape(shape).copy()
    start[s] = start[s].sum() * np.asarray(target, float)
    start = start.ravel() / center
    if alpha == 1:
        scale = max(1.0, abs(float(-(center @ np.log(start)))))
    else:
        scale = float(center @ start ** (1 - alpha))
    expr = _renyi_sum(center, r, alpha) / scale
    objective = cp.Maximize(expr) if alpha < 1 else cp.Minimize(expr)
    problem = cp.Problem(objective, constraints)
    _solve(problem)
    if alpha == 1:
        return max(float(problem.value) * scale, 0.0)
    return max(math.log(problem.value * scale) / (alpha - 1), 0.0)


def _xi_by_optimisation(rho: float, alpha: float, radius: float, rest) -> tuple[float, float]:
    """(min, max) of P_0/ρ over the Rényi ball around (ρ, (1−ρ)·rest).

    For α ≥ 1 the problem is solved in log-ratios y = log(P/P̂), where the ball is
    log Σ P̂ e^{(1−α)y} ≤ (α−1)B (KL: −P̂·y ≤ B) and the simplex is relaxed to
    log Σ P̂ e^y ≤ 0. The relaxation is exact: raising the other y's (min) or y_0 (max)
    only lowers Σ P̂ e^{(1−α)y}, so the mass constraint is tight at an optimum. This keeps
    large radii well conditioned (e^{(α−1)B} reaches e^{12} here); α < 1 uses the r = P/P̂
    form of ``_LinearOverBall``.
    """
    center = np.concatenate([[rho], (1 - rho) * np.asarray(rest, float)])
    if alpha < 1:
        ball = _LinearOverBall(center, alpha, radius)
        e0 = np.zeros(center.size)
        e0[0] = 1.0
        return ball.argmin(e0)[0] / rho, ball.argmin(-e0)[0] / rho
    y = cp.Variable(center.size)
    log_c = np.log(center)
    if alpha == 1:
        in_ball = -(center @ y) <= radius
    else:
        in_ball = cp.log_sum_exp((1 - alpha) * y + log_c) <= (alpha - 1) * radius
    constraints = [in_ball, cp.log_sum_exp(y + log_c) <= 0]
    out = []
    for objective in (cp.Minimize(y[0]), cp.Maximize(y[0])):
        _solve(cp.Problem(objective, constraints))
        out.append(math.exp(float(y.value[0])))
    return out[0], out[1]


def _library_radius(ball) -> float:
    """The radius stored by an ``md.RenyiBall`` (its constructor argument)."""
    assert hasattr(ball, "radius"), "md.RenyiBall is expected to expose .radius"
    return float(ball.radius)


# ------------------------------------------------ the paper's printed formulas


def _theorem1_radius(alpha: float, radius: float, p_s: float) -> float:
    """B_s of Theorem 1 as printed (math.inf when the log argument is ≤ 0)."""
    if alpha == 1:
        return radius / p_s
    arg = (math.exp((alpha - 1) * radius / alpha) - (1 - p_s)) / p_s
    return alpha / (alpha - 1) * math.log(arg) if arg > 0 else math.inf


def _example2_printed_radius(alpha: float, radius: float, p_s: float) -> float:
    """The B_s that Example 2's printed numbers were computed with (not Theorem 1)."""
    return math.log((math.exp((alpha - 1) * radius) - (1 - p_s)) / p_s) / (alpha - 1)


def _lemma1_xi(rho: float, b_s: float) -> tuple[float, float]:
    """Lemma 1 (α = 2): ξ^±(ρ) = (e^B + 2ρ − 1 ∓ √((e^B − 1)(e^B − (2ρ−1)²))) / (2e^B ρ)."""
    e = math.exp(b_s)
    root = math.sqrt((e - 1) * (e - (2 * rho - 1) ** 2))
    return (e + 2 * rho - 1 - root) / (2 * e * rho), (e + 2 * rho - 1 + root) / (2 * e * rho)


def _prop2_lower(rho: float, b_s: float) -> float:
    """Proposition 2, item 1: L_{u|s} with ρ = P̂_{u|s}."""
    e = math.exp(b_s)
    return (e + 2 * rho - 1 - math.sqrt((e - 1) * (e - (2 * rho - 1) ** 2))) / (2 * e)


def _prop2_radius_printed(rho_min: float, b_s: float) -> float:
    """Proposition 2, item 2 exactly as printed (missing the − 2ρ)."""
    e = math.exp(b_s)
    return (e + 2 * rho_min - 1 + math.sqrt((e - 1) * (e - (2 * rho_min - 1) ** 2))) / e


def _phi(rho: float, log_xi: float, log_psi: float, alpha: float, b_s: float) -> float:
    """φ_{B_s}(ρ, ξ) of eq. (26) at P_x = ξρ and the other entries scaled by ψ."""
    if alpha == 1:
        return -rho * log_xi - (1 - rho) * log_psi - b_s
    total = np.logaddexp(
        math.log(rho) + (1 - alpha) * log_xi, math.log(1 - rho) + (1 - alpha) * log_psi
    )
    return float(total) / (alpha - 1) - b_s


def _prop1_xi(rho: float, alpha: float, b_s: float) -> tuple[float, float]:
    """ξ^± of eqs. (27)–(28) by root finding, with ξ⁺ ∈ [1, 1/ρ] (corrected domain)."""
    if math.isinf(b_s):
        return 0.0, 1.0 / rho
    if rho == 1:
        return math.exp(-b_s), 1.0
    # For α < 1 the end points ξ = 0 and ξ = 1/ρ (ψ = 0) have finite φ.
    at_zero = alpha / (1 - alpha) * math.log(1 / (1 - rho)) - b_s if alpha < 1 else math.inf
    at_top = alpha / (1 - alpha) * math.log(1 / rho) - b_s if alpha < 1 else math.inf
    if at_zero <= 0:
        lo = 0.0
    else:

        def f_lo(t: float) -> float:
            return _phi(rho, t, math.log((1 - rho * math.exp(t)) / (1 - rho)), alpha, b_s)

        lo = math.exp(brentq(f_lo, -690.0, 0.0, xtol=1e-14, rtol=1e-15, maxiter=500))
    if at_top <= 0:
        hi = 1.0 / rho
    else:

        def f_hi(t: float) -> float:
            return _phi(rho, math.log((1 - (1 - rho) * math.exp(t)) / rho), t, alpha, b_s)

        psi = math.exp(brentq(f_hi, -690.0, 0.0, xtol=1e-14, rtol=1e-15, maxiter=500))
        hi = (1 - (1 - rho) * psi) / rho
    return lo, hi


def _prop1_statistics(center, shape, alpha, radius) -> tuple[np.ndarray, np.ndarray]:
    """(L, rad) from Theorem 1 + Proposition 1 (eqs. (29)–(30)), with the corrected ξ⁺."""
    n_s, n_u = shape
    lower = np.empty(shape)
    rad = np.zeros(n_s)
    for s in range(n_s):
        cond = _conditional(center, shape, s)
        b_s = _theorem1_radius(alpha, radius, float(np.reshape(center, shape)[s].sum()))
        for u in range(n_u):
            lower[s, u] = cond[u] * _prop1_xi(cond[u], alpha, b_s)[0]
        for size in range(1, n_u):
            for subset in itertools.combinations(range(n_u), size):
                rho = float(cond[list(subset)].sum())
                rad[s] = max(rad[s], 2 * rho * (_prop1_xi(rho, alpha, b_s)[1] - 1))
    return lower, rad


def _joint_for_conditional(cond, b_s: float, p_s: float = 0.4):
    """A 2×|U| centre whose block s = 0 has conditional ``cond``, and the B giving B_s (α = 2).

    Inverts Theorem 1 for α = 2: B = 2 log(p_s e^{B_s/2} + 1 − p_s).
    """
    cond = np.asarray(cond, float)
    other = np.linspace(1.0, 2.0, cond.size)
    center = np.concatenate([p_s * cond, (1 - p_s) * other / other.sum()])
    radius = 2 * math.log(p_s * math.exp(b_s / 2) + 1 - p_s)
    return center, radius


def _assert_close(actual, desired, *, atol=OPT_ATOL, rtol=OPT_RTOL, what=""):
    np.testing.assert_allclose(actual, desired, atol=atol, rtol=rtol, err_msg=what)


# ------------------------------------------------------- 1. D_α, membership, χ²


@pytest.mark.parametrize("alpha", [*ALPHAS, 0.3, 1.5])
def test_divergence_and_membership_match_definition(alpha):
    rng = np.random.default_rng(11)
    for _ in range(5):
        center = rng.dirichlet(np.ones(4))
        p = rng.dirichlet(np.ones(4))
        d = _renyi(center, p, alpha)
        ball = md.RenyiBall(center, alpha, d)
        assert ball.divergence(p) == pytest.approx(d, rel=1e-9, abs=1e-12)
        assert md.RenyiBall(center, alpha, d * (1 + 1e-6)).contains(p)
        assert not md.RenyiBall(center, alpha, d * (1 - 1e-6)).contains(p)
        assert ball.contains(center)
        assert ball.divergence(center) == pytest.approx(0.0, abs=1e-12)


@pytest.mark.parametrize(
    ("n", "k", "beta"), [(100, 4, 0.05), (1000, 6, 0.01), (32561, 10, 0.05), (7, 2, 0.5)]
)
def test_chi2_radius_matches_scipy(n, k, beta):
    expected = math.log1p(chi2.ppf(1 - beta, k - 1) / n)
    assert md.chi2_radius(n, k, beta) == pytest.approx(expected, rel=1e-12)


def test_example1_radius():
    # Example 1: B = log(1 + F⁻¹_{χ²,3}(0.95)/100) = 0.0752, and D_2(P̂‖P*) = 0.0281 < B.
    radius = md.chi2_radius(100, 4, 0.05)
    assert radius == pytest.approx(0.0752, abs=5e-5)
    p_hat = np.array([0.07, 0.10, 0.26, 0.57])
    p_star = np.array([0.1, 0.1, 0.2, 0.6])
    ball = md.RenyiBall(p_hat, 2, radius)
    assert ball.divergence(p_star) == pytest.approx(0.0281, abs=5e-5)
    assert ball.contains(p_star)


# ------------------------------------------------------------ 2. Theorem 1


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("alpha", ALPHAS)
def test_theorem1_projection_membership(alpha, shape):
    """R ∈ F_{U|s} (decided by D_min(R) ≤ B) iff the conditional ball contains R."""
    center, _, rng = _instance(alpha, shape)
    n_s, n_u = shape
    for s in range(n_s):
        cond = _conditional(center, shape, s)
        for _ in range(3):
            target = rng.dirichlet(np.full(n_u, 2.0))
            while target.min() < 0.02:  # keep R away from the simplex's boundary
                target = rng.dirichlet(np.full(n_u, 2.0))
            d_min = _min_divergence_with_conditional(center, shape, s, target, alpha)
            # The conditional ball has P̂_{U|s} as its centre.
            cball = md.notions.conditional_ball(md.RenyiBall(center, alpha, d_min), shape, s)
            assert cball.divergence(target) == pytest.approx(_renyi(cond, target, alpha), rel=1e-9)
            # Sharp: just above D_min, R is in the projection; just below, it is not.
            margin = MEMBERSHIP_MARGIN * d_min + 1e-7
            for radius, inside in ((d_min + margin, True), (d_min - margin, False)):
                ball = md.RenyiBall(center, alpha, radius)
                assert (
                    bool(md.notions.conditional_ball(ball, shape, s).contains(target)) == inside
                ), f"s={s}, R={target}, D_min={d_min}, radius={radius}"
            # A random radius, away from the boundary.
            radius = float(rng.uniform(0.02, 1.5))
            if abs(radius - d_min) > 1e-3 * max(1.0, d_min):
                ball = md.RenyiBall(center, alpha, radius)
                assert bool(md.notions.conditional_ball(ball, shape, s).contains(target)) == (
                    d_min <= radius
                ), f"s={s}, R={target}, D_min={d_min}, radius={radius}"


@pytest.mark.parametrize("alpha", ALPHAS)
def test_theorem1_radius_matches_optimisation(alpha):
    """B_s = D_α(P̂_{U|s}‖R) for an R on the projection's boundary (the optimised L)."""
    center, radius, _ = _instance(alpha, (2, 2))
    lower = _opt_lower_bounds(alpha, (2, 2))
    ball = md.RenyiBall(center, alpha, radius)
    for s in range(2):
        cond = _conditional(center, (2, 2), s)
        b_s = _library_radius(md.notions.conditional_ball(ball, (2, 2), s))
        if lower[s, 0] > 1e-7:  # (L, 1 − L) is on the boundary of the projection
            boundary = np.array([lower[s, 0], 1 - lower[s, 0]])
            _assert_close(b_s, _renyi(cond, boundary, alpha), rtol=1e-4, what=f"s={s}")
        else:  # only possible for α < 1: the vertex (0, 1) is in the projection
            assert alpha < 1
            assert b_s >= _renyi(cond, [0.0, 1.0], alpha) - OPT_ATOL


def test_theorem1_infinite_radius_for_small_alpha():
    """α < 1: when e^{(α−1)B/α} ≤ 1 − P̂_s the projection is the whole simplex, B_s = ∞."""
    center = np.array([0.1, 0.1, 0.3, 0.5])
    alpha, radius = 0.5, 1.0  # e^{-1} = 0.37 ≤ 1 − 0.2 for s = 0; 0.37 > 0.2 for s = 1
    ball = md.RenyiBall(center, alpha, radius)
    rng = np.random.default_rng(5)
    c0 = md.notions.conditional_ball(ball, (2, 2), 0)
    assert math.isinf(_library_radius(c0))
    assert math.isfinite(_library_radius(md.notions.conditional_ball(ball, (2, 2), 1)))
    for _ in range(3):
        target = rng.dirichlet(np.ones(2))
        assert _min_divergence_with_conditional(center, (2, 2), 0, target, alpha) < radius
        assert c0.contains(target)
    for target in (np.array([1.0, 0.0]), np.array([0.0, 1.0])):
        assert c0.contains(target)
    # Every R is attainable, so L = 0 and rad = 2(1 − min_u P̂_{u|s}).
    lower = md.conditional_lower_bounds(ball, (2, 2))
    rad = md.conditional_radii(ball, (2, 2))
    _assert_close(lower[0], [0.0, 0.0])
    _assert_close(rad[0], 2 * (1 - 0.5))
    _assert_close(_lower_bounds_by_optimisation(center, (2, 2), alpha, radius)[0], [0.0, 0.0])
    _assert_close(_radii_by_optimisation(center, (2, 2), alpha, radius)[0], 1.0)


# ----------------------------------------------------------------- ξ± bounds


@pytest.mark.parametrize("alpha", ALPHAS)
def test_xi_bounds_match_optimisation(alpha):
    for rho, radius in itertools.product((0.1, 0.3, 0.6, 0.9), (0.02, 0.3, 2.5)):
        got = md.notions.xi_bounds(rho, alpha, radius)
        first = _xi_by_optimisation(rho, alpha, radius, [0.3, 0.7])
        second = _xi_by_optimisation(rho, alpha, radius, [0.8, 0.1, 0.1])
        what = f"ρ={rho}, B={radius}"
        _assert_close(first, second, what=what + " (ξ must not depend on the rest of P̂)")
        _assert_close(got, first, what=what)
        # The paper's formulas (Proposition 1 by root finding) agree with the optimisation.
        _assert_close(_prop1_xi(rho, alpha, radius), first, what=what + " (Proposition 1)")


@pytest.mark.parametrize("alpha", ALPHAS)
def test_xi_plus_exceeds_printed_domain(alpha):
    """Erratum to eq. (28): ξ⁺ ∈ [1, 1/ρ], and for ρ < 1/2 it can exceed (1 − ρ)⁻¹."""
    rho, radius = 0.2, 3.0
    lo, hi = md.notions.xi_bounds(rho, alpha, radius)
    opt_lo, opt_hi = _xi_by_optimisation(rho, alpha, radius, [0.5, 0.5])
    assert opt_hi > 1 / (1 - rho) + 0.5
    _assert_close((lo, hi), (opt_lo, opt_hi))
    assert hi <= 1 / rho + 1e-12
    if alpha < 1:  # α/(1−α) log(1/ρ) ≤ B: the point mass on x is in the ball
        assert hi == pytest.approx(1 / rho, rel=1e-9)
        assert lo == pytest.approx(0.0, abs=1e-12)


@pytest.mark.parametrize("alpha", ALPHAS)
def test_xi_bounds_at_rho_one(alpha):
    # P̂ = δ_x: D_α(δ_x‖P) = −log P_x for every α, so P_x ∈ [e^{−B}, 1].
    lo, hi = md.notions.xi_bounds(1.0, alpha, 0.4)
    assert lo == pytest.approx(math.exp(-0.4), rel=1e-9)
    assert hi == pytest.approx(1.0, rel=1e-12)


# -------------------------------------------------------- 3. L_{u|s}, 4. rad_s


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("alpha", ALPHAS)
def test_conditional_lower_bounds_match_optimisation(alpha, shape):
    center, radius, _ = _instance(alpha, shape)
    got = md.conditional_lower_bounds(md.RenyiBall(center, alpha, radius), shape)
    assert np.shape(got) == shape
    _assert_close(got, _opt_lower_bounds(alpha, shape), what=f"centre={center}, B={radius}")


@pytest.mark.parametrize("shape", RADIUS_SHAPES)
@pytest.mark.parametrize("alpha", ALPHAS)
def test_conditional_radii_match_optimisation(alpha, shape):
    center, radius, _ = _instance(alpha, shape)
    got = md.conditional_radii(md.RenyiBall(center, alpha, radius), shape)
    assert np.shape(got) == (shape[0],)
    _assert_close(got, _opt_radii(alpha, shape), what=f"centre={center}, B={radius}")


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("alpha", ALPHAS)
def test_proposition1_matches_optimisation(alpha, shape):
    """The paper's Theorem 1 + Proposition 1 (with ξ⁺ ≤ 1/ρ) reproduce the optimisation."""
    center, radius, _ = _instance(alpha, shape)
    lower, rad = _prop1_statistics(center, shape, alpha, radius)
    _assert_close(lower, _opt_lower_bounds(alpha, shape), what="L")
    if shape in RADIUS_SHAPES:
        _assert_close(rad, _opt_radii(alpha, shape), what="rad")


@pytest.mark.parametrize("alpha", [0.5, 2.0])
def test_conditional_radii_large_alphabet_is_an_upper_bound(alpha):
    """|U| = 6: the library may bound rad_s; it must be ≥ what some feasible P attains."""
    shape = (2, 6)
    center, radius, _ = _instance(alpha, shape)
    got = md.conditional_radii(md.RenyiBall(center, alpha, radius), shape)
    singletons = [tuple(1.0 if v == u else -1.0 for v in range(6)) for u in range(6)]
    patterns = singletons + [tuple(-x for x in p) for p in singletons]
    attained = _radii_by_optimisation(center, shape, alpha, radius, patterns)
    assert np.all(got >= attained - OPT_ATOL), (got, attained)
    assert np.all(got <= 2.0 + 1e-12)


# --------------------------------------------- 5. α = 2: Lemma 1, Proposition 2


def test_lemma1_matches_optimisation_and_proposition1():
    for rho, b_s in itertools.product((0.05, 0.3, 0.5, 0.8), (0.01, 0.2, 1.0, 3.0)):
        lemma = _lemma1_xi(rho, b_s)
        np.testing.assert_allclose(lemma, _prop1_xi(rho, 2.0, b_s), rtol=1e-9)
        np.testing.assert_allclose(md.notions.xi_bounds(rho, 2.0, b_s), lemma, rtol=1e-9)
        _assert_close(lemma, _xi_by_optimisation(rho, 2.0, b_s, [0.6, 0.4]), what=f"ρ={rho}")


@pytest.mark.parametrize(
    ("cond", "b_s"),
    [
        ((0.3, 0.7), 0.5),  # e^{B_s} − 1 = 0.65 ≥ (1 − 0.3)² = 0.49: printed item 2 applies
        ((0.2, 0.3, 0.5), 0.7),  # 1.01 ≥ 0.64
        ((0.1, 0.2, 0.3, 0.4), 1.2),  # 2.32 ≥ 0.81
        ((0.45, 0.55), 0.05),  # only the weakened condition (1 − 2ρ)² = 0.01 ≤ 0.051 holds
    ],
)
def test_proposition2_against_optimisation(cond, b_s):
    """Items 1 and 2 (with the missing − 2ρ) equal the optimisation over the joint ball."""
    cond = np.asarray(cond)
    shape = (2, cond.size)
    center, radius = _joint_for_conditional(cond, b_s)
    assert _theorem1_radius(2.0, radius, 0.4) == pytest.approx(b_s, rel=1e-12)
    lower = _lower_bounds_by_optimisation(center, shape, 2.0, radius)[0]
    rad = _radii_by_optimisation(center, shape, 2.0, radius)[0]
    _assert_close(lower, [_prop2_lower(r, b_s) for r in cond], what="item 1")
    rho = float(cond.min())
    assert math.exp(b_s) - 1 >= (1 - 2 * rho) ** 2
    printed = _prop2_radius_printed(rho, b_s)
    _assert_close(rad, printed - 2 * rho, what="item 2 with − 2ρ")
    assert abs(rad - printed) > 0.1  # the formula as printed is off by exactly 2ρ
    _assert_close(rad, 2 * rho * (_lemma1_xi(rho, b_s)[1] - 1), what="2ρ(ξ⁺ − 1)")
    ball = md.RenyiBall(center, 2.0, radius)
    _assert_close(md.conditional_lower_bounds(ball, shape)[0], lower, what="library L")
    _assert_close(md.conditional_radii(ball, shape)[0], rad, what="library rad")


def test_proposition2_item3_bound_is_wrong_as_printed():
    """Item 3 as the proof's (A56)–(A58) give it: rad_s ≤ √(e^{B_s} − 1), attained here;
    the bound without the √ fails. (Our text of the paper lost the √ in extraction, so
    the errata ledger records this as "check the published PDF", not as a misprint.)"""
    # (0.1, 0.45, 0.45), e^{B_s} − 1 = 0.01 < (1 − 0.1)²: item 3's regime. ρ = 0.45 for
    # U1 = {u2} hits ρ_opt = (1 − √0.01)/2 = 0.45, so rad_s = √0.01 = 0.1 exactly.
    cond = np.array([0.1, 0.45, 0.45])
    b_s = math.log(1.01)
    center, radius = _joint_for_conditional(cond, b_s)
    rad = _radii_by_optimisation(center, (2, 3), 2.0, radius)[0]
    _assert_close(rad, 0.1)
    assert rad > math.exp(b_s) - 1 + 0.05  # the printed bound fails
    # U1 = {u_min} is not optimal below the (weakened) threshold.
    assert rad > 2 * 0.1 * (_lemma1_xi(0.1, b_s)[1] - 1) + 0.01
    got = md.conditional_radii(md.RenyiBall(center, 2.0, radius), (2, 3))[0]
    _assert_close(got, rad, what="library rad")


# ------------------------------------------------------------------ Example 2


def test_example2_recomputed():
    """Example 2 (P̂ = (0.07, 0.10, 0.26, 0.57), α = 2, B = 0.0752) by optimisation.

    Printed in the paper: B_s1 = 0.3782, B_s2 = 0.0900; L_{u1|s1} = 0.1620,
    L_{u2|s1} = 0.2829, L_{u1|s2} = 0.1923, L_{u2|s2} = 0.5337; rad_s1 = 0.6107,
    rad_s2 = 0.3061. Those follow from B_s = log((e^B − (1 − P̂_s))/P̂_s), not from
    Theorem 1. Theorem 1, Proposition 2 and the optimisation all give B_s1 = 0.4067,
    B_s2 = 0.0903; L = 0.1552, 0.2727, 0.1921, 0.5334; rad = 0.6310, 0.3067.
    """
    center = np.array([0.07, 0.10, 0.26, 0.57])
    shape = (2, 2)
    radius = math.log1p(chi2.ppf(0.95, 3) / 100)
    lower = _lower_bounds_by_optimisation(center, shape, 2.0, radius)
    rad = _radii_by_optimisation(center, shape, 2.0, radius)
    b_s = [
        _renyi(_conditional(center, shape, s), [lower[s, 0], 1 - lower[s, 0]], 2.0)
        for s in range(2)
    ]
    np.testing.assert_allclose(b_s, [0.4067, 0.0903], atol=5e-5)
    np.testing.assert_allclose(lower, [[0.1552, 0.2727], [0.1921, 0.5334]], atol=5e-5)
    np.testing.assert_allclose(rad, [0.6310, 0.3067], atol=5e-5)
    # |U| = 2: rad_s = 2 max(P̂_{u1|s} − L_{u1|s}, P̂_{u2|s} − L_{u2|s}), as in the paper.
    for s in range(2):
        cond = _conditional(center, shape, s)
        _assert_close(rad[s], 2 * max(cond - lower[s]))
    # Theorem 1 and Proposition 2 as printed agree with the optimisation ...
    p_s = center.reshape(shape).sum(axis=1)
    theorem = [_theorem1_radius(2.0, radius, p) for p in p_s]
    _assert_close(theorem, b_s, rtol=1e-4)
    for s in range(2):
        cond = _conditional(center, shape, s)
        _assert_close(lower[s], [_prop2_lower(r, theorem[s]) for r in cond])
    # ... while the example's printed values come from a different B_s.
    printed_b_s = [_example2_printed_radius(2.0, radius, p) for p in p_s]
    np.testing.assert_allclose(printed_b_s, [0.3782, 0.0900], atol=5e-5)
    cond1 = _conditional(center, shape, 0)
    printed_l1 = [_prop2_lower(r, printed_b_s[0]) for r in cond1]
    np.testing.assert_allclose(printed_l1, [0.1620, 0.2829], atol=5e-5)
    assert lower[0, 0] < 0.1620 - 0.005
    # The library.
    ball = md.RenyiBall(center, 2.0, md.chi2_radius(100, 4, 0.05))
    got_b_s = [_library_radius(md.notions.conditional_ball(ball, shape, s)) for s in range(2)]
    _assert_close(got_b_s, b_s, rtol=1e-4, what="B_s")
    _assert_close(md.conditional_lower_bounds(ball, shape), lower, what="L")
    _assert_close(md.conditional_radii(ball, shape), rad, what="rad")


# ------------------------------------------------------------- 6. bad input


def _ball4():
    return md.RenyiBall([0.1, 0.2, 0.3, 0.4], 2.0, 0.1)


@pytest.mark.parametrize(
    "call",
    [
        pytest.param(lambda: md.RenyiBall([0.5, 0.6], 2.0, 0.1), id="center-sum"),
        pytest.param(lambda: md.RenyiBall([-0.1, 1.1], 2.0, 0.1), id="center-negative"),
        pytest.param(lambda: md.RenyiBall([[0.5, 0.5]], 2.0, 0.1), id="center-2d"),
        pytest.param(lambda: md.RenyiBall([0.5, 0.5], 0.0, 0.1), id="alpha-zero"),
        pytest.param(lambda: md.RenyiBall([0.5, 0.5], -1.0, 0.1), id="alpha-negative"),
        pytest.param(lambda: md.RenyiBall([0.5, 0.5], 2.0, -0.1), id="radius-negative"),
        pytest.param(lambda: md.RenyiBall([0.5, 0.5], 2.0, math.nan), id="radius-nan"),
        pytest.param(
            lambda: md.notions.conditional_ball(_ball4(), (3, 2), 0), id="shape-cond-ball"
        ),
        pytest.param(lambda: md.notions.conditional_ball(_ball4(), (4,), 0), id="shape-1d"),
        pytest.param(lambda: md.notions.conditional_ball(_ball4(), (2, 2), 2), id="s-out-of-range"),
        pytest.param(lambda: md.conditional_lower_bounds(_ball4(), (3, 2)), id="shape-lower"),
        pytest.param(lambda: md.conditional_radii(_ball4(), (2, 3)), id="shape-radii"),
        pytest.param(lambda: md.chi2_radius(100, 4, 0.0), id="beta-zero"),
        pytest.param(lambda: md.chi2_radius(100, 4, 1.0), id="beta-one"),
        pytest.param(lambda: md.chi2_radius(100, 4, 1.5), id="beta-large"),
        pytest.param(lambda: md.chi2_radius(0, 4, 0.05), id="n-zero"),
        pytest.param(lambda: md.chi2_radius(-5, 4, 0.05), id="n-negative"),
        pytest.param(lambda: md.notions.xi_bounds(0.3, 0.0, 0.1), id="xi-alpha-zero"),
        pytest.param(lambda: md.notions.xi_bounds(0.3, 2.0, -0.1), id="xi-radius-negative"),
    ],
)
def test_bad_input_raises_invalid_input_error(call):
    with pytest.raises(md.InvalidInputError):
        call()
    assert issubclass(md.InvalidInputError, ValueError)


def test_eq13_uses_the_095_quantile():
    """Errata ledger, robust-LDP eq. (13): it prints F⁻¹_{χ²,3}(0.05), but its value
    0.0752 (and eq. (14)) is the 0.95 quantile's; the 0.05 quantile gives 0.003512. The
    quantiles by bisection on the χ²₃ CDF in closed form, P(χ²₃ ≤ x) = erf(√(x/2)) −
    √(2x/π) e^{−x/2}."""

    def cdf(x):
        return math.erf(math.sqrt(x / 2)) - math.sqrt(2 * x / math.pi) * math.exp(-x / 2)

    def quantile(p):
        lo, hi = 0.0, 100.0
        for _ in range(200):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if cdf(mid) < p else (lo, mid)
        return lo

    assert math.log1p(quantile(0.95) / 100) == pytest.approx(0.0752, abs=5e-5)
    assert math.log1p(quantile(0.05) / 100) == pytest.approx(0.003512, abs=5e-7)
    assert md.chi2_radius(100, 4, 0.05) == pytest.approx(math.log1p(quantile(0.95) / 100), rel=1e-9)
