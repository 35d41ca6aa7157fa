"""Independent reference for the estimation-optimal ε-LDP design at extreme ε.

This file was written without reading ``mechdesign/optimal/``. It needs only the
formulas below, numpy and scipy (cvxpy is not used). It computes the optimum its own way
and compares ``md.design(md.LDP(ε), p, utility=md.EstimationError(workload), method=...)``
with it, for ε ∈ {0.05, 8, 12} (and one case at ε = 20), N ∈ {3, 5, 8}, the histogram and
prefix workloads, and Zipf(1.1) and seeded Dirichlet(1) priors.

Why the textbook formula is not used. The error is err(K) = tr(W J⁻¹ Wᵀ) − tr(W D Wᵀ), with
D = diag(p), J = Σ_y k_y k_yᵀ / r_y and r = pK. At large ε the optimal kernel is close to
the identity, J⁻¹ ≈ D, and err is about e^−ε: 6e-6 at ε = 12 and 2e-9 at ε = 20. Subtracting
two O(1) traces then leaves only 1e-10 to 1e-7 relative accuracy. So everything here uses
the *Δ-form*, which has no cancellation:

* Write column y as r_y v_y, where v_y = k_y / r_y lies in the section p·v = 1, and
  q_y = p ∘ v_y (a distribution). Because the rows sum to one, D⁻¹ = Σ_y r_y diag(v_y / p).
  Hence Δ := D⁻¹ − J = Σ_y r_y Δ_{v_y}, with Δ_v = diag(v/p) − v vᵀ, and
  aᵀ Δ_v a = Var_{q}(a/p) = ½ Σ_{x,x'} q_x q_x' (b_x − b_x')², where b = a/p.
* J⁻¹ − D = D Δ D + D Δ J⁻¹ Δ D. Therefore
  err = Σ_y r_y Σ_l Var_{q_y}(w_l) + tr(Cᵀ J⁻¹ C), with C = Δ D Wᵀ and
  (Δ_v a)_x = v_x Σ_{x'} q_x' (b_x − b_x').
  Both terms are sums of non-negative numbers or of pairwise differences. J = Σ_y r_y v_y v_yᵀ
  is built entrywise from positive terms. ``test_error_formula_against_exact_rationals``
  checks the float routine against exact rational arithmetic at ε = 20 and ε = 0.05.

Why the vertices are enough. The vertices of the section S = {v : v_i ≤ e^ε v_j, p·v = 1}
are v(z) = u/(p·u), with u_i = 1 on z and u_i = e^−ε off z (see the docstring of
``ldp_vertices`` in tests/test_estimation_reference.py for the proof that they generate S).
For any kernel, writing each v_y as a convex combination Σ λ_v v gives
v_y v_yᵀ ⪯ Σ λ_v v vᵀ. So J(K) ⪯ J(θ) for a vertex design θ with Σ θ_v v = 1, and
err(K) ≥ err(θ). The optimum is therefore min over θ ≥ 0 with Vᵀθ = 1 of
φ(θ) = Σ_v θ_v T_v + tr(C(θ)ᵀ J(θ)⁻¹ C(θ)).

The certified bracket (the reference's own proof of accuracy). For J ≻ 0,
φ = max_Y tr(Δ Z Zᵀ) − tr(Yᵀ D⁻¹ Y) with Z = D Wᵀ + Y; the maximum is attained at Z = J⁻¹ Wᵀ.
For a feasible θ, tr(Δ Z Zᵀ) = Σ_v θ_v s_v(Z) with s_v(Z) = Σ_l Var_{q_v}(z_l / p) ≥ 0.
Weak duality then gives, for *any* Y and any μ with v·μ ≤ s_v(Z) for every vertex v,
    min φ ≥ 1·μ − tr(Yᵀ D⁻¹ Y).
The bound is made exact: an infeasible μ is shifted by −t·p, which lowers every v·μ by t
because p·v = 1. The upper end is the error, in the Δ-form, of the kernel that the
reference weights build. The lower end uses Y = J⁻¹ C at those weights, and μ is fitted on
their support. The primal solver is our own: a log-barrier Newton method over a
complement-closed set of vertices, then an active-set Newton polish on the support, then
column generation over all 2^N − 2 vertices, priced by the reduced costs s_v − v·μ. Every
instance's bracket must be below 1e-7 relative; in practice it is at most a few 1e-10.

Dense linear algebra is kept below about 100 × 100. On a loaded machine OpenBLAS threads
larger factorisations, and one solve can then take 100 ms.
"""

from __future__ import annotations

import functools
import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy.optimize import linprog

import mechdesign as md

#: Package vs reference: |d.utility − ref| ≤ RTOL_DESIGN · max(1, ref).
RTOL_DESIGN = 1e-6
#: A lower bound may exceed a feasible error only by rounding:
#: lb ≤ err·(1 + RTOL_BOUND) + ATOL_BOUND.
RTOL_BOUND, ATOL_BOUND = 1e-9, 1e-12
#: The package's reported utility vs the error of its own kernel, by the formula here.
RTOL_RECOMPUTE, ATOL_RECOMPUTE = 1e-9, 0.0
#: The reference's certified relative bracket must be below this before it judges anything.
REFERENCE_GAP = 1e-7
#: Privacy-level slack of the audit of a kernel (nats).
LEVEL_SLACK = 1e-9
#: Row sums of the package's kernel.
ROW_SUM_ATOL = 1e-9
#: The Δ-form routine vs exact rational arithmetic (float inputs, exact evaluation).
RTOL_EXACT = 1e-10

EPSILONS = (0.05, 8.0, 12.0)
SIZES = (3, 5, 8)
PRIORS = ("zipf", "dirichlet")
WORKLOADS = ("histogram", "prefix")

#: (N, ε, prior, workload, method): enumeration everywhere, column generation for N = 8,
#: and one ε = 20 instance through both methods.
CASES = (
    [
        (n, eps, prior, workload, "enumeration")
        for n in SIZES
        for eps in EPSILONS
        for prior in PRIORS
        for workload in WORKLOADS
    ]
    + [
        (8, eps, prior, workload, "column_generation")
        for eps in EPSILONS
        for prior in PRIORS
        for workload in WORKLOADS
    ]
    + [(8, 20.0, "zipf", "prefix", "enumeration"), (8, 20.0, "zipf", "prefix", "column_generation")]
)
INSTANCES = sorted({case[:4] for case in CASES})


def _case_id(case) -> str:
    return "-".join(str(part) for part in case)


# ---------------------------------------------------------------------------------------
# Instances
# ---------------------------------------------------------------------------------------
def prior_named(name: str, n: int) -> np.ndarray:
    """Zipf(1.1), p_i ∝ (i + 1)^−1.1, or a Dirichlet(1) draw seeded by n."""
    if name == "zipf":
        weights = np.arange(1, n + 1, dtype=float) ** -1.1
        return weights / weights.sum()
    return np.random.default_rng(4100 + n).dirichlet(np.ones(n))


def workload_matrix(name: str, n: int) -> np.ndarray:
    """Histogram: W = I. Prefix: W[l, x] = 1 for x ≤ l."""
    return np.eye(n) if name == "histogram" else np.tril(np.ones((n, n)))


def md_workload(name: str):
    return None if name == "histogram" else "prefix"


# ---------------------------------------------------------------------------------------
# The Δ-form of the error
# ---------------------------------------------------------------------------------------
class Columns:
    """Normalised columns v = u/(p·u) (rows of V), q = p ∘ v, and the per-column parts
    of the Δ-form for the workload: FW_v = Δ_v D Wᵀ and T_v = Σ_l Var_q(w_l)."""

    def __init__(self, u: np.ndarray, p: np.ndarray, w: np.ndarray):
        pu = np.asarray(u, float) * p
        self.p = p
        self.V = np.asarray(u, float) / pu.sum(axis=1, keepdims=True)
        self.Q = pu / pu.sum(axis=1, keepdims=True)
        self.dW = w[:, :, None] - w[:, None, :]  # W[l, x] − W[l, x'], exact
        self.FW = self.apply(self.dW)
        self.T1 = self.variance(self.dW)

    def subset(self, index) -> Columns:
        out = object.__new__(Columns)
        out.p, out.dW = self.p, self.dW
        out.V, out.Q, out.FW, out.T1 = self.V[index], self.Q[index], self.FW[index], self.T1[index]
        return out

    def apply(self, diff: np.ndarray) -> np.ndarray:
        """(Δ_v a_l)_x = v_x Σ_x' q_x' (b_lx − b_lx'), given diff[l, x, x'] = b_lx − b_lx'."""
        return np.einsum("vx,vy,lxy->vxl", self.V, self.Q, diff)

    def variance(self, diff: np.ndarray) -> np.ndarray:
        """Σ_l Var_{q_v}(b_l) = ½ Σ_l Σ_{x,x'} q_x q_x' (b_lx − b_lx')², per column v."""
        return 0.5 * np.einsum("vx,vy,lxy->v", self.Q, self.Q, diff**2)


class State:
    """φ at weights θ over columns: J, C = Δ D Wᵀ, Y = J⁻¹ C, the value, s_v and Hessian."""

    def __init__(self, cols: Columns, theta: np.ndarray):
        self.cols = cols
        p, V = cols.p, cols.V
        # J = D⁻¹ − Δ(θ) for any θ; on Vᵀθ = 1 the diagonal correction vanishes.
        residual = 1.0 - np.einsum("vx,v->x", V, theta)
        j = np.einsum("vx,v,vy->xy", V, theta, V) + np.diag(residual / p)
        self.linv = np.linalg.inv(np.linalg.cholesky(j))  # raises unless J ≻ 0
        self.C = np.einsum("v,vxl->xl", theta, cols.FW)
        self.Y = self.linv.T @ (self.linv @ self.C)
        self.value = float(theta @ cols.T1) + float(np.sum(self.C * self.Y))

    def _diff_b(self) -> np.ndarray:
        # b_l = z_l / p = w_l + y_l / p for Z = D Wᵀ + Y.
        yb = (self.Y / self.cols.p[:, None]).T
        return self.cols.dW + (yb[:, :, None] - yb[:, None, :])

    def scores(self, cols: Columns | None = None) -> np.ndarray:
        """s_v(Z) = tr(Δ_v Z Zᵀ) ≥ 0: the gradient of φ, and the dual's column scores."""
        return (cols or self.cols).variance(self._diff_b())

    def scores_and_hessian(self) -> tuple[np.ndarray, np.ndarray]:
        """s and H_vu = 2⟨Δ_v Z, J⁻¹ Δ_u Z⟩."""
        diff = self._diff_b()
        g = np.einsum("yx,vxl->vyl", self.linv, self.cols.apply(diff))
        return self.cols.variance(diff), 2.0 * np.einsum("vyl,uyl->vu", g, g)

    def dual_penalty(self) -> float:
        """tr(Yᵀ D⁻¹ Y)."""
        return float(np.sum(self.Y**2 / self.cols.p[:, None]))


def kernel_error(kernel: np.ndarray, p: np.ndarray, w: np.ndarray) -> float:
    """err(K) in the Δ-form, for a kernel whose rows sum to one up to rounding; +∞ when J
    is singular (fewer than N independent columns: no unbiased estimator exists)."""
    kernel = np.asarray(kernel, float)
    kernel = kernel / kernel.sum(axis=1, keepdims=True)
    used = kernel[:, kernel.max(axis=0) > 0]
    if np.linalg.matrix_rank(used) < len(p):
        return math.inf
    return State(Columns(used.T, p, w), p @ used).value


def exact_kernel_error(kernel: np.ndarray, p: np.ndarray, w: np.ndarray) -> Fraction:
    """err(K) = tr(W J⁻¹ Wᵀ) − tr(W D Wᵀ) in exact rational arithmetic, for the float inputs
    taken as exact binary fractions, after normalising the rows (and p) exactly."""
    n, m = kernel.shape
    pf = [Fraction(float(x)) for x in p]
    total = sum(pf)
    pf = [x / total for x in pf]
    rows = [[Fraction(float(x)) for x in row] for row in kernel]
    rows = [[x / sum(row) for x in row] for row in rows]
    r = [sum(pf[i] * rows[i][y] for i in range(n)) for y in range(m)]
    j = [
        [sum(rows[a][y] * rows[b][y] / r[y] for y in range(m) if r[y]) for b in range(n)]
        for a in range(n)
    ]
    # Gauss–Jordan on [J | Wᵀ].
    rows_w = range(w.shape[0])
    aug = [j[a] + [Fraction(int(w[k, a])) for k in rows_w] for a in range(n)]
    for col in range(n):
        pivot = next(i for i in range(col, n) if aug[i][col] != 0)
        aug[col], aug[pivot] = aug[pivot], aug[col]
        lead = aug[col][col]
        aug[col] = [x / lead for x in aug[col]]
        for i in range(n):
            if i != col and aug[i][col] != 0:
                factor = aug[i][col]
                aug[i] = [x - factor * y for x, y in zip(aug[i], aug[col], strict=True)]
    solution = [row[n:] for row in aug]  # J⁻¹ Wᵀ
    first = sum(int(w[k, a]) * solution[a][k] for k in rows_w for a in range(n))
    second = sum(int(w[k, a]) * pf[a] for k in rows_w for a in range(n))
    return first - second


def ldp_level(kernel: np.ndarray) -> float:
    """max over used columns of log(max/min); +inf if a used column has a zero."""
    used = kernel[:, kernel.max(axis=0) > 0]
    high, low = used.max(axis=0), used.min(axis=0)
    if np.any(low <= 0):
        return math.inf
    return float(np.max(np.log(high / low)))


# ---------------------------------------------------------------------------------------
# Vertices
# ---------------------------------------------------------------------------------------
def vertex_patterns(n: int) -> np.ndarray:
    """z ∈ {0,1}^N, not all-0/all-1, in product order: pattern j's complement is m − 1 − j."""
    return np.array([z for z in itertools.product((0, 1), repeat=n) if 0 < sum(z) < n], bool)


@functools.cache
def vertices(prior: str, n: int, eps: float, workload: str) -> Columns:
    """v(z) = u/(p·u) with u = 1 on z and e^−ε off z (e^−20 ≈ 2e-9 is exact to rounding)."""
    p = prior_named(prior, n)
    u = np.where(vertex_patterns(n), 1.0, math.exp(-eps))
    return Columns(u, p, workload_matrix(workload, n))


def pair_weights(cols: Columns) -> np.ndarray:
    """Strictly positive feasible weights on a complement-closed set. For u ∈ {δ, 1}^N,
    u + ū = (1 + δ)·1, so (p·u) v(z) + (p·ū) v(z̄) = (1 + δ)·1. The weight of v is therefore
    proportional to p·u = 1/max(v) (the high entries of v are 1/(p·u)), and the common scale
    is fixed by Vᵀθ = 1."""
    pu = 1.0 / cols.V.max(axis=1)
    theta = pu / (cols.V.T @ pu).mean()
    # Remove the residual rounding by the θ²-weighted least-norm correction.
    for _ in range(2):
        residual = 1.0 - cols.V.T @ theta
        gram = np.einsum("vx,v,vy->xy", cols.V, theta**2, cols.V)
        theta = theta + theta**2 * (cols.V @ np.linalg.lstsq(gram, residual, rcond=None)[0])
    assert theta.min() > 0
    return theta


# ---------------------------------------------------------------------------------------
# The reference solver
# ---------------------------------------------------------------------------------------
def _barrier(cols: Columns, theta: np.ndarray) -> np.ndarray:
    """Central path of min φ/φ0 − t Σ log θ s.t. Vᵀθ = 1, by feasible-start Newton."""
    scale = State(cols, theta).value
    V = cols.V
    n = V.shape[1]
    t = 1.0
    while True:
        for _ in range(100):
            here = State(cols, theta)
            s, h = here.scores_and_hessian()
            grad = s / scale - t / theta
            hess = h / scale + np.diag(t / theta**2)
            kkt = np.block([[hess, V], [V.T, np.zeros((n, n))]])
            rhs = np.concatenate([-grad, 1.0 - V.T @ theta])
            step = np.linalg.solve(kkt, rhs)[: len(theta)]
            decrement = float(np.einsum("v,vu,u->", step, hess, step))
            if decrement < 1e-9:
                break
            f0 = here.value / scale - t * np.sum(np.log(theta))
            neg = step < 0
            alpha = min(1.0, 0.99 * float(np.min(-theta[neg] / step[neg]))) if neg.any() else 1.0
            while alpha > 1e-10:
                trial = theta + alpha * step
                try:
                    f1 = State(cols, trial).value / scale - t * np.sum(np.log(trial))
                except np.linalg.LinAlgError:  # J not positive definite: step too long
                    f1 = math.inf
                if f1 <= f0 - 0.25 * alpha * decrement:
                    break
                alpha /= 2
            else:
                break  # at the rounding floor of f
            theta = trial
        if t <= 1e-10:
            return theta
        t *= 0.05


def _project(va: np.ndarray, wa: np.ndarray) -> np.ndarray:
    """Least-norm correction onto V_Aᵀ θ_A = 1."""
    return wa + np.linalg.lstsq(va.T, 1.0 - va.T @ wa, rcond=None)[0]


def _polish(cols: Columns, theta: np.ndarray, support: np.ndarray) -> np.ndarray:
    """Active-set Newton on {θ_A ≥ 0, V_Aᵀ θ_A = 1}, in a null-space basis. A step that
    would cross zero stops at the boundary, and the blocking vertex leaves the support."""
    index = np.flatnonzero(support)
    w = _project(cols.V[index], theta[index])
    for _ in range(30):
        index, w = index[w > 0], w[w > 0]
        va = cols.V[index]
        _, sv, vh = np.linalg.svd(va.T)
        null = vh[int(np.sum(sv > sv[0] * 1e-13)) :].T
        if null.shape[1] == 0:
            break
        s, h = State(cols.subset(index), w).scores_and_hessian()
        reduced_h = np.einsum("ak,aj->kj", null, np.einsum("ab,bj->aj", h, null))
        reduced_g = np.einsum("ak,a->k", null, s)
        step = null @ np.linalg.lstsq(reduced_h, -reduced_g, rcond=1e-14)[0]
        neg = step < 0
        ratio = -w[neg] / step[neg]
        if neg.any() and ratio.min() < 1.0:
            block = np.flatnonzero(neg)[np.argmin(ratio)]
            w = np.maximum(w + ratio.min() * step, 0.0)
            w[block] = 0.0
            continue
        w = _project(va, w + step)
        if np.max(np.abs(step)) < 1e-15 * np.max(w):
            break
    out = np.zeros(len(cols.V))
    out[index[w > 0]] = _project(cols.V[index[w > 0]], w[w > 0])
    return out


@functools.cache
def reference(prior: str, n: int, eps: float, workload: str) -> tuple[float, float, np.ndarray]:
    """(lower, upper, kernel): a certified bracket on the optimal per-report error and
    a kernel that attains the upper end."""
    cols = vertices(prior, n, eps, workload)
    p, w = cols.p, workload_matrix(workload, n)
    m = len(cols.V)
    z = vertex_patterns(n)
    single = np.flatnonzero(z.sum(axis=1) == 1)
    # Up to 90 columns the barrier runs on all of them; above that, start from the
    # singletons and their complements (the pattern of k-RR) and add columns by price.
    columns = np.arange(m) if m <= 90 else np.union1d(single, m - 1 - single)
    for _ in range(30):
        sub = cols.subset(columns)
        theta = np.zeros(m)
        theta[columns] = _barrier(sub, pair_weights(sub))
        weights = _polish(cols, theta, theta > 1e-6 * theta.max())
        assert weights.min() >= 0
        support = np.flatnonzero(weights > 0)
        here = State(cols, weights)
        scores = here.scores()
        mu = np.linalg.lstsq(cols.V[support], scores[support], rcond=None)[0]
        reduced = scores - cols.V @ mu
        kernel = cols.V[support].T * weights[support]
        upper = kernel_error(kernel, p, w)
        violation = max(0.0, float(-reduced.min()))
        if violation <= 1e-9 * upper:
            break
        # Column generation: keep the support (closed under complements) and add the most
        # negative reduced costs with their complements. Fill with earlier columns, up to 90.
        closed = np.union1d(support, m - 1 - support)
        new = np.argsort(reduced)[: min(12, max(2, (91 - len(closed)) // 2))]
        new = new[reduced[new] < 0]
        following = np.union1d(closed, np.union1d(new, m - 1 - new))
        earlier = np.setdiff1d(columns, following)
        for v in earlier[np.argsort(np.minimum(reduced[earlier], reduced[m - 1 - earlier]))]:
            if len(following) >= 90:
                break
            following = np.union1d(following, [v, m - 1 - v])
        columns = following
    # μ − violation·p satisfies v·μ' ≤ s_v for every vertex (p·v = 1), so weak duality
    # certifies 1·μ' − tr(Yᵀ D⁻¹ Y) as a lower bound whatever the solver's accuracy.
    lower = float(np.sum(mu)) - violation - here.dual_penalty()
    return lower, upper, kernel


# ---------------------------------------------------------------------------------------
# The package's designs and the test's own feasible kernels
# ---------------------------------------------------------------------------------------
@functools.cache
def design(n: int, eps: float, prior: str, workload: str, method: str):
    p = prior_named(prior, n)
    return md.design(
        md.LDP(eps), p, utility=md.EstimationError(md_workload(workload)), method=method
    )


def k_rr(n: int, eps: float) -> np.ndarray:
    e = math.exp(eps)
    return (e * np.eye(n) + (1.0 - np.eye(n))) / (e + n - 1)


def random_ldp_kernel(cols: Columns, rng: np.random.Generator) -> np.ndarray:
    """A random mixture of vertex columns, scaled so that the rows sum to one.

    A random complement-closed subset of the vertices is drawn, and linprog finds a vertex
    of {θ ≥ 0 : V_Sᵀ θ = 1} under a random cost. Its basis is then re-solved exactly. With
    probability one half, the result is blended with the strictly positive pair weights."""
    m, n = cols.V.shape
    chosen = rng.choice(m, size=int(rng.integers(1, m // 2 + 1)), replace=False)
    subset = np.union1d(chosen, m - 1 - chosen)
    sub = cols.subset(subset)
    lp = linprog(
        rng.uniform(0.0, 1.0, len(subset)),
        A_eq=sub.V.T,
        b_eq=np.ones(n),
        bounds=(0, None),
        method="highs",
    )
    assert lp.status == 0
    basis = np.flatnonzero(lp.x > 1e-9)
    theta = np.zeros(len(subset))
    theta[basis] = np.linalg.lstsq(sub.V[basis].T, np.ones(n), rcond=None)[0]
    assert theta.min() >= 0
    if rng.random() < 0.5:
        blend = rng.uniform(0.0, 1.0)
        theta = blend * theta + (1.0 - blend) * pair_weights(sub)
    used = theta > 0
    return sub.V[used].T * theta[used]


# ---------------------------------------------------------------------------------------
# 0. The Δ-form is the textbook formula, and accurate where the textbook one is not
# ---------------------------------------------------------------------------------------
def textbook_error(kernel: np.ndarray, p: np.ndarray, w: np.ndarray) -> float:
    r = p @ kernel
    j = (kernel / r) @ kernel.T
    return float(np.trace(w @ np.linalg.solve(j, w.T)) - np.trace(w @ np.diag(p) @ w.T))


@pytest.mark.parametrize("workload", WORKLOADS)
@pytest.mark.parametrize("n", SIZES)
def test_error_formula_matches_textbook_at_moderate_eps(n, workload):
    rng = np.random.default_rng(n)
    p, w = prior_named("dirichlet", n), workload_matrix(workload, n)
    for _ in range(5):
        kernel = rng.dirichlet(np.ones(n + 2), size=n)
        assert kernel_error(kernel, p, w) == pytest.approx(
            textbook_error(kernel, p, w), rel=1e-9, abs=0
        )


@pytest.mark.parametrize("workload", WORKLOADS)
@pytest.mark.parametrize("eps", [0.05, 12.0, 20.0])
@pytest.mark.parametrize("n", [3, 5])
def test_error_formula_against_exact_rationals(n, eps, workload):
    p, w = prior_named("zipf", n), workload_matrix(workload, n)
    rng = np.random.default_rng(17)
    cols = vertices("zipf", n, eps, workload)
    random = random_ldp_kernel(cols, rng)
    while np.linalg.matrix_rank(random) < n:  # J singular: err = +∞, nothing to compare
        random = random_ldp_kernel(cols, rng)
    for kernel in (k_rr(n, eps), random, reference("zipf", n, eps, workload)[2]):
        exact = exact_kernel_error(kernel, p, w)
        assert kernel_error(kernel, p, w) == pytest.approx(float(exact), rel=RTOL_EXACT, abs=0)


# ---------------------------------------------------------------------------------------
# 1. The reference certifies itself
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("instance", INSTANCES, ids=_case_id)
def test_reference_bracket_is_tight(instance):
    n, eps, prior, workload = instance
    lower, upper, kernel = reference(prior, n, eps, workload)
    assert upper > 0
    assert lower <= upper * (1 + 1e-12), (lower, upper)
    assert upper - lower <= REFERENCE_GAP * upper, (lower, upper)
    # The kernel behind the upper end is an ε-LDP kernel.
    assert np.all(kernel >= 0)
    np.testing.assert_allclose(kernel.sum(axis=1), 1.0, rtol=0, atol=1e-13)
    assert ldp_level(kernel) <= eps + LEVEL_SLACK


# ---------------------------------------------------------------------------------------
# 2. The package agrees with the reference
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_design_matches_reference(case):
    n, eps, prior, workload, _ = case
    lower, upper, _ = reference(prior, n, eps, workload)
    assert upper - lower <= REFERENCE_GAP * upper
    result = design(*case)
    p, w = prior_named(prior, n), workload_matrix(workload, n)
    bracket = f"reference bracket [{lower!r}, {upper!r}]"
    got, bound = result.utility, result.estimation.lower_bound

    # Certified: "optimal" at the design's default gap, or (at ε = 0.05, where J ≈ 11ᵀ
    # limits the polish in floating point: 1.3e-8 with scipy 1.11 and cvxpy 1.5) a
    # certified bracket within the reference's own agreement tolerance.
    report = result.estimation
    assert report.status == "optimal" or (
        eps < 0.1 and report.upper_bound - report.lower_bound <= RTOL_DESIGN * upper)
    assert abs(got - upper) <= RTOL_DESIGN * max(1.0, upper), f"utility {got!r}, {bracket}"
    assert bound <= upper * (1 + RTOL_BOUND) + ATOL_BOUND, f"lower bound {bound!r}, {bracket}"

    kernel = np.asarray(result.mechanism.matrix, float)
    assert kernel.shape[0] == n
    assert np.all(kernel >= 0)
    np.testing.assert_allclose(kernel.sum(axis=1), 1.0, rtol=0, atol=ROW_SUM_ATOL)
    assert ldp_level(kernel) <= eps + LEVEL_SLACK
    recomputed = kernel_error(kernel, p, w)
    assert got == pytest.approx(recomputed, rel=RTOL_RECOMPUTE, abs=ATOL_RECOMPUTE), (
        f"utility {got!r} vs the error of the returned kernel {recomputed!r}"
    )


# ---------------------------------------------------------------------------------------
# 3. The package's lower bound is below every feasible kernel the test builds
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_lower_bound_below_k_rr(case):
    n, eps, prior, workload, _ = case
    p, w = prior_named(prior, n), workload_matrix(workload, n)
    kernel = k_rr(n, eps)
    assert ldp_level(kernel) <= eps + LEVEL_SLACK
    error = kernel_error(kernel, p, w)
    lower, _, _ = reference(prior, n, eps, workload)
    assert lower <= error * (1 + RTOL_BOUND)
    bound = design(*case).estimation.lower_bound
    assert bound <= error * (1 + RTOL_BOUND) + ATOL_BOUND, (bound, error)


@pytest.mark.parametrize("case", CASES, ids=_case_id)
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_lower_bound_below_random_ldp_kernels(case, seed):
    n, eps, prior, workload, _ = case
    p, w = prior_named(prior, n), workload_matrix(workload, n)
    kernel = random_ldp_kernel(vertices(prior, n, eps, workload), np.random.default_rng(seed))
    assert np.all(kernel >= 0)
    np.testing.assert_allclose(kernel.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    assert ldp_level(kernel) <= eps + LEVEL_SLACK
    error = kernel_error(kernel, p, w)
    lower, _, _ = reference(prior, n, eps, workload)
    assert lower <= error * (1 + RTOL_BOUND)
    bound = design(*case).estimation.lower_bound
    assert bound <= error * (1 + RTOL_BOUND) + ATOL_BOUND, (bound, error)
