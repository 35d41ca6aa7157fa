"""Independent reference tests for md.channel_capacity, md.sibson_mutual_information,
md.maximal_alpha_leakage and md.is_degraded.

Written from the definitions, without reading mechdesign/measures/channels.py. The oracles here:

- :func:`mutual_information`: Shannon I(X;Y) summed term by term (0 log 0 = 0).
- :func:`blahut_arimoto`: the capacity bracketed by I(p) <= C <= max_x D(K_x || pK)
  (the second inequality is the standard dual bound, valid for every p).
- :func:`sibson`: Sibson's I_alpha straight from the formula.
- :func:`sibson_capacity`: sup_p of Sibson I_alpha for alpha > 1. The map
  F(p) = sum_y (sum_x p_x K[x,y]^alpha)^(1/alpha) is concave in p (t -> t^(1/alpha) is concave
  and nondecreasing, composed with a linear map), and I_alpha = alpha/(alpha-1) log F is an
  increasing function of F; so F(p) <= F* <= F(p) + max_x grad_x F(p) - <grad F(p), p> (the
  Frank-Wolfe gap of a concave function on the simplex) gives a certified bracket.
- Closed forms: binary symmetric, binary erasure and Z channels, k-RR, noisy typewriter.
Conventions: K[x, y] = P(Y=y | X=x), rows are inputs, natural logs.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import Phase, given, settings, strategies as st

import mechdesign as md
from mechdesign.measures.channels import ALPHA_LEAKAGE_TOL
from tests.helpers import distributions, kernels

# ---------------------------------------------------------------------------------------------
# Oracles
# ---------------------------------------------------------------------------------------------


def binary_entropy(p: float) -> float:
    """h(p) in nats, h(0) = h(1) = 0."""
    return -sum(t * math.log(t) for t in (p, 1.0 - p) if t > 0)


def mutual_information(K: np.ndarray, p: np.ndarray) -> float:
    """I(X;Y) = sum_{x,y} p_x K[x,y] log(K[x,y] / q_y), q = pK, terms with p_x K[x,y] = 0
    dropped."""
    K = np.asarray(K, dtype=float)
    p = np.asarray(p, dtype=float)
    q = p @ K
    total = 0.0
    for x in range(K.shape[0]):
        if p[x] <= 0:
            continue
        for y in range(K.shape[1]):
            if K[x, y] > 0:
                total += p[x] * K[x, y] * math.log(K[x, y] / q[y])
    return total


def _divergences_to_output(K: np.ndarray, q: np.ndarray) -> np.ndarray:
    """D(K_x || q) for every row x (q_y > 0 wherever some row puts mass)."""
    pos = K > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        log_q = np.log(q)  # -inf where q = 0: D = inf for a row that needs that output
        terms = np.where(pos, K * (np.log(np.where(pos, K, 1.0)) - log_q), 0.0)
    return terms.sum(axis=1)


def blahut_arimoto(K: np.ndarray, tol: float = 1e-12, max_iter: int = 50_000):
    """Capacity bracket (lower, upper, prior) with lower <= C <= upper.

    lower = I(p) for the current p. upper = max_x D(K_x || r), which bounds C for every output
    distribution r; we take the best of r = pK and r = (1 - eta) pK + eta * uniform, so that an
    input the optimum starves below floating point (p_x ~ e^-6000 when its only private
    output has mass 1e-5) does not make the bound infinite. Masses below 1e-250 are set to 0
    (the lower bound stays I(p) of a valid p)."""
    K = np.asarray(K, dtype=float)
    n, m = K.shape
    p = np.full(n, 1.0 / n)
    lower, upper = 0.0, math.inf
    for it in range(max_iter):
        q = p @ K
        d = _divergences_to_output(K, q)
        live = p > 0
        lower = max(lower, float(p[live] @ d[live]))  # = I(p)
        upper = min(upper, float(d.max()))
        if upper - lower >= tol and (it % 100 == 0 or it == max_iter - 1):
            for eta in (1e-15, 1e-12, 1e-9, 1e-6):
                r = (1 - eta) * q + eta / m
                upper = min(upper, float(_divergences_to_output(K, r).max()))
        if upper - lower < tol:
            break
        top = float(d[live].max())
        p = np.where(live, p * np.exp(np.where(live, d, top) - top), 0.0)
        p[p < 1e-250] = 0.0
        p /= p.sum()
    return lower, upper, p


def sibson(K: np.ndarray, prior: np.ndarray, alpha: float) -> float:
    """Sibson's I_alpha(X;Y) from the formula; only inputs with prior > 0 count."""
    K = np.asarray(K, dtype=float)
    prior = np.asarray(prior, dtype=float)
    keep = prior > 0
    Ks, ps = K[keep], prior[keep]
    if math.isinf(alpha):
        return math.log(float(Ks.max(axis=0).sum()))
    if alpha == 1:  # exact: the Shannon branch is chosen by the caller's literal alpha = 1
        return mutual_information(Ks, ps)
    inner = ps @ Ks**alpha
    return alpha / (alpha - 1.0) * math.log(float(np.sum(inner ** (1.0 / alpha))))


def _sibson_F_and_grad(K: np.ndarray, p: np.ndarray, alpha: float):
    Ka = K**alpha
    s = p @ Ka
    w = np.zeros_like(s)
    pos = s > 0
    w[pos] = s[pos] ** (1.0 / alpha - 1.0)
    F = float(np.sum(s[pos] ** (1.0 / alpha)))
    grad = Ka @ w / alpha
    return F, grad


def _sibson_bracket(K: np.ndarray, p: np.ndarray, alpha: float) -> tuple[float, float]:
    """(I_alpha(p), Frank-Wolfe upper bound on sup I_alpha) at the prior p."""
    c = alpha / (alpha - 1.0)
    F, g = _sibson_F_and_grad(K, p, alpha)
    s = p @ K**alpha
    if np.any((s <= 0) & (K.max(axis=0) > 0)):  # gradient +inf in some direction
        return c * math.log(F), math.inf
    return c * math.log(F), c * math.log(F + float(g.max() - g @ p))


def sibson_capacity(K: np.ndarray, alpha: float, tol: float = 1e-11, max_iter: int = 5_000):
    """Certified bracket (lower, upper) of sup_p Sibson I_alpha for 1 < alpha < inf.

    Multiplicative update p <- p (g/<g,p>)^(alpha/(alpha-1)) (Blahut-Arimoto in the limit
    alpha -> 1); each iterate gives lower = I_alpha(p) and the Frank-Wolfe upper bound. On
    ill-conditioned channels (rows equal up to 1e-6) that converges slowly, so the result is
    then polished with SLSQP on the simplex (bounded Brent for two inputs), and the best
    bracket of all the priors visited is returned."""
    from scipy.optimize import minimize, minimize_scalar

    K = np.asarray(K, dtype=float)
    n = K.shape[0]
    p = np.full(n, 1.0 / n)
    c = alpha / (alpha - 1.0)
    lower, upper = -math.inf, math.inf
    for _ in range(max_iter):
        lo, up = _sibson_bracket(K, p, alpha)
        lower, upper = max(lower, lo), min(upper, up)
        if upper - lower < tol:
            return lower, upper
        g = _sibson_F_and_grad(K, p, alpha)[1]
        p = p * (g / float(g @ p)) ** c
        p /= p.sum()
    candidates = []
    if n == 2:
        def neg_F2(t):
            return -_sibson_F_and_grad(K, np.array([1 - t, t]), alpha)[0]

        t = minimize_scalar(neg_F2, bounds=(0.0, 1.0), method="bounded",
                            options={"xatol": 1e-14}).x
        candidates.append(np.array([1 - t, t]))
    polished = minimize(
        lambda v: -_sibson_F_and_grad(K, v, alpha)[0], p,
        jac=lambda v: -_sibson_F_and_grad(K, v, alpha)[1], method="SLSQP",
        bounds=[(0.0, 1.0)] * n,
        constraints=[{"type": "eq", "fun": lambda v: v.sum() - 1.0,
                      "jac": lambda v: np.ones(n)}],
        options={"ftol": 1e-16, "maxiter": 1000},
    )
    candidates.append(polished.x)
    for v in candidates:
        v = np.clip(v, 0.0, None)
        lo, up = _sibson_bracket(K, v / v.sum(), alpha)
        lower, upper = max(lower, lo), min(upper, up)
    return lower, upper


def random_priors(rng: np.random.Generator, n: int, count: int = 200) -> list[np.ndarray]:
    """Dense, sparse (small Dirichlet parameter), vertices and two-point priors."""
    out = [np.eye(n)[i] for i in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            t = rng.random()
            e = np.zeros(n)
            e[i], e[j] = t, 1.0 - t
            out.append(e)
    while len(out) < count:
        conc = rng.choice([0.1, 0.3, 1.0, 3.0])
        out.append(rng.dirichlet(np.full(n, conc)))
    return out[:count]


def krr(k: int, eps: float) -> np.ndarray:
    return np.asarray(md.randomized_response(k, eps).matrix, dtype=float)


def krr_entries(k: int, eps: float) -> tuple[float, float]:
    """(diagonal, off-diagonal) of k-RR, written out independently."""
    e = math.exp(eps)
    return e / (e + k - 1), 1.0 / (e + k - 1)


def bsc(p: float) -> np.ndarray:
    return np.array([[1 - p, p], [p, 1 - p]])


def bec(e: float) -> np.ndarray:
    return np.array([[1 - e, e, 0.0], [0.0, e, 1 - e]])


def z_channel(p: float) -> np.ndarray:
    return np.array([[1.0, 0.0], [p, 1 - p]])


def min_curvature(K: np.ndarray, prior: np.ndarray) -> float:
    """Smallest second derivative of -I(p) at p = prior along unit directions d with
    sum d = 0: I(p + t d) = H(q + t dK) - linear, so d^2/dt^2 = -sum_y (dK)_y^2 / q_y."""
    n = K.shape[0]
    q = prior @ K
    basis = np.linalg.svd(np.ones((1, n)))[2][1:]  # orthonormal basis of {sum d = 0}
    M = basis @ K @ np.diag(1.0 / q) @ K.T @ basis.T
    return float(np.linalg.eigvalsh(M).min())


def prior_tolerance(K: np.ndarray, optimum: np.ndarray, gap: float = 3e-9) -> float:
    """How far (2-norm) a prior whose MI is within ``gap`` of capacity can be from the unique
    optimum: I(p*) - I(p) >= (mu/2)|p - p*|^2 with mu the curvature (factor 2 of slack for
    the curvature changing over that small neighbourhood). ``gap`` = 3e-9 covers the claims
    upper - lower <= 1e-9 and |I(c.prior) - float(c)| <= 1e-9."""
    return 2.0 * math.sqrt(2.0 * gap / min_curvature(K, optimum))


def check_capacity_result(K: np.ndarray, c) -> None:
    """The claims of the result object that hold for every channel."""
    value = float(c)
    prior = np.asarray(c.prior, dtype=float)
    assert prior.shape == (K.shape[0],)
    assert np.all(prior >= 0), prior
    assert prior.sum() == pytest.approx(1.0, abs=1e-12)
    assert c.lower <= value + 1e-15, (c.lower, value)
    assert value <= c.upper + 1e-15, (value, c.upper)
    assert c.upper - c.lower <= 1e-9, (c.lower, c.upper)
    assert mutual_information(K, prior) == pytest.approx(value, abs=1e-9)


# ---------------------------------------------------------------------------------------------
# Self-checks of the oracles (so a failure below is the library's, not the oracle's)
# ---------------------------------------------------------------------------------------------


def test_oracles_agree_with_closed_forms():
    for p in (0.05, 0.2, 0.4):
        lo, up, _ = blahut_arimoto(bsc(p))
        assert lo <= math.log(2) - binary_entropy(p) + 1e-12
        assert up >= math.log(2) - binary_entropy(p) - 1e-12
        assert up - lo < 1e-10
    # Sibson at alpha -> 1 approaches Shannon; the capacity bracket at alpha = 2 for k-RR
    # matches log k + log(a^2 + (k-1) b^2).
    K = krr(3, 1.0)
    u = np.full(3, 1 / 3)
    assert sibson(K, u, 1 + 1e-7) == pytest.approx(mutual_information(K, u), abs=1e-6)
    a, b = krr_entries(3, 1.0)
    lo, up = sibson_capacity(K, 2.0)
    exact = math.log(3) + math.log(a**2 + 2 * b**2)
    assert lo - 1e-12 <= exact <= up + 1e-12


# ---------------------------------------------------------------------------------------------
# 1. Capacity
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("p", [0.0, 0.01, 0.11, 0.3, 0.45, 0.5])
def test_capacity_binary_symmetric_channel(p):
    K = bsc(p)
    c = md.channel_capacity(K)
    exact = math.log(2) - binary_entropy(p)
    check_capacity_result(K, c)
    assert float(c) == pytest.approx(exact, abs=1e-9)
    assert c.lower <= exact + 1e-12
    assert c.upper >= exact - 1e-12
    if p < 0.45:  # rows independent: the optimal prior (uniform) is unique
        tol = prior_tolerance(K, np.array([0.5, 0.5]))
        assert np.linalg.norm(np.asarray(c.prior) - 0.5) <= tol, c.prior


@pytest.mark.parametrize("e", [0.0, 0.1, 0.5, 0.9, 1.0])
def test_capacity_binary_erasure_channel(e):
    K = bec(e)
    c = md.channel_capacity(K)
    exact = (1 - e) * math.log(2)
    check_capacity_result(K, c)
    assert float(c) == pytest.approx(exact, abs=1e-9)
    assert c.lower <= exact + 1e-12
    assert c.upper >= exact - 1e-12
    if e <= 0.5:
        tol = prior_tolerance(K[:, [0, 2]] if e == 0 else K, np.array([0.5, 0.5]))
        assert np.linalg.norm(np.asarray(c.prior) - 0.5) <= tol, c.prior


@pytest.mark.parametrize("p", [1e-6, 0.1, 0.3, 0.5, 0.9, 1 - 1e-6])
def test_capacity_z_channel(p):
    """Z channel [[1, 0], [p, 1-p]]. With q = P(X=1), z = q(1-p):
    I(q) = h(z) - q h(p); I'(q) = (1-p) log((1-z)/z) - h(p) = 0 gives
    z* = 1/(1 + e^{h(p)/(1-p)}), q* = z*/(1-p), and since e^{h(p)/(1-p)} = 1/((1-p) p^{p/(1-p)}),
    C = h(z*) - q* h(p) = log(1 + (1-p) p^{p/(1-p)}) (checked numerically when written)."""
    K = z_channel(p)
    c = md.channel_capacity(K)
    exact = math.log1p((1 - p) * math.exp(p / (1 - p) * math.log(p)))
    q1 = 1.0 / ((1 - p) * (1 + math.exp(binary_entropy(p) / (1 - p))))
    # The two closed forms agree with each other (the prior attains the capacity).
    assert mutual_information(K, np.array([1 - q1, q1])) == pytest.approx(exact, abs=1e-13)
    check_capacity_result(K, c)
    assert float(c) == pytest.approx(exact, abs=1e-9)
    assert c.lower <= exact + 1e-12
    assert c.upper >= exact - 1e-12
    tol = prior_tolerance(K, np.array([1 - q1, q1]))
    # prior - optimum = (-d, d) has 2-norm sqrt(2)|d|.
    assert abs(float(np.asarray(c.prior)[1]) - q1) <= tol / math.sqrt(2), (c.prior, q1, tol)


@pytest.mark.parametrize(("k", "eps"), [(2, 0.5), (3, 1.0), (4, 2.0), (6, 0.7), (10, 3.0)])
def test_capacity_k_rr(k, eps):
    """k-RR is symmetric (rows and columns are permutations of each other), so the uniform
    prior is optimal and C = log k - H(row) = log k + sum_j K[0,j] log K[0,j]."""
    K = krr(k, eps)
    a, b = krr_entries(k, eps)
    assert K[0, 0] == pytest.approx(a, rel=1e-12)
    exact = math.log(k) + float(sum(t * math.log(t) for t in K[0] if t > 0))
    assert exact == pytest.approx(math.log(k) + a * math.log(a) + (k - 1) * b * math.log(b))
    c = md.channel_capacity(K)
    check_capacity_result(K, c)
    assert float(c) == pytest.approx(exact, abs=1e-9)
    assert c.lower <= exact + 1e-12
    assert c.upper >= exact - 1e-12
    tol = prior_tolerance(K, np.full(k, 1.0 / k))
    assert np.linalg.norm(np.asarray(c.prior) - 1.0 / k) <= tol, (c.prior, tol)


@pytest.mark.parametrize("k", [3, 4, 5])
def test_capacity_noisy_typewriter(k):
    """x -> x or x+1 (mod k), each w.p. 1/2: symmetric, C = log k - log 2."""
    K = 0.5 * (np.eye(k) + np.roll(np.eye(k), 1, axis=1))
    c = md.channel_capacity(K)
    check_capacity_result(K, c)
    assert float(c) == pytest.approx(math.log(k / 2), abs=1e-9)


def test_capacity_with_a_useless_input_on_the_boundary():
    """Third input is the mixture of the first two: the optimum puts no mass on it."""
    K = np.array([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]])
    c = md.channel_capacity(K)
    check_capacity_result(K, c)
    assert float(c) == pytest.approx(math.log(2), abs=1e-9)
    # I(p) <= log 2 - p_3 log 2 (the third input carries nothing), so p_3 <= gap / log 2.
    assert float(np.asarray(c.prior)[2]) <= 3e-9 / math.log(2)


@pytest.mark.parametrize("n", [1, 2, 5])
def test_capacity_of_identity_and_of_constant_channels(n):
    c = md.channel_capacity(np.eye(n))
    check_capacity_result(np.eye(n), c)
    assert float(c) == pytest.approx(math.log(n), abs=1e-9)
    const = np.tile([0.2, 0.5, 0.3], (n, 1))
    c0 = md.channel_capacity(const)
    check_capacity_result(const, c0)
    assert float(c0) == pytest.approx(0.0, abs=1e-9)
    assert c0.upper >= -1e-15


@pytest.mark.parametrize("tiny", [1e-4, 1e-5])
def test_capacity_with_an_input_starved_below_floating_point(tiny):
    """Input 0 is the only one reaching output 3, with mass ``tiny``; the optimum gives it a
    prior mass like exp(-const/tiny), which underflows. (Hypothesis found the pattern.)"""
    K = np.array([[0.25, 0.25, 0.25, tiny, 0.25],
                  [0.0, 2 / 3, 1 / 3, 0.0, 0.0],
                  [0.0, 0.6, 0.4, 0.0, 0.0],
                  [0.5, 0.0, 0.0, 0.0, 0.5]])
    K /= K.sum(axis=1, keepdims=True)
    lo, up, _ = blahut_arimoto(K)
    assert up - lo < 1e-10, (lo, up)
    c = md.channel_capacity(K)
    check_capacity_result(K, c)
    assert lo - 1e-9 <= float(c) <= up + 1e-9, (lo, float(c), up)


def test_capacity_with_a_mixture_input_of_nearly_equal_rows():
    """Adding an input whose row is a mixture of the others leaves the capacity unchanged:
    here a Z channel (p = 1 - 3.86e-6, closed form of test_capacity_z_channel) with a third
    row that is 99.98 % the first. Along the direction that keeps PK fixed, I is linear,
    so the optimum drops the mixture (a random sweep found the stall)."""
    delta = 3.86128061e-06
    rows = np.array([[0.0, 1.0], [delta, 1.0 - delta]])
    K = np.vstack([rows, np.array([9.99787965e-01, 2.12035032e-04]) @ rows])
    p = 1.0 - delta
    exact = math.log1p((1 - p) * p ** (p / (1 - p)))
    c = md.channel_capacity(K)
    check_capacity_result(K, c)
    assert float(c) == pytest.approx(exact, abs=1e-9)


def test_capacity_accepts_a_mechanism_object():
    m = md.randomized_response(3, 1.0)
    assert float(md.channel_capacity(m)) == pytest.approx(
        float(md.channel_capacity(krr(3, 1.0))), abs=1e-9
    )


# No shrink phase where a failing library call can exhaust its iteration limit (seconds per
# call, repeated hundreds of times while shrinking). The verdict is the same; the reported
# example is just not minimised.
NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)


@settings(max_examples=20, deadline=None, phases=NO_SHRINK)
@given(K=kernels(min_size=2, max_size=5), seed=st.integers(0, 2**32 - 1))
def test_capacity_random_channels(K, seed):
    c = md.channel_capacity(K)
    check_capacity_result(K, c)
    # No prior beats the certified upper bound.
    rng = np.random.default_rng(seed)
    worst = max(mutual_information(K, p) for p in random_priors(rng, K.shape[0]))
    assert worst <= c.upper + 1e-12, (worst, c.upper)
    # Our own Blahut-Arimoto bracket overlaps the library's.
    lo, up, _ = blahut_arimoto(K)
    assert lo <= c.upper + 1e-12, (lo, c.upper)
    assert c.lower <= up + 1e-12, (c.lower, up)
    assert float(c) <= min(math.log(K.shape[0]), math.log(K.shape[1])) + 1e-12


@settings(max_examples=15, deadline=None, phases=NO_SHRINK)
@given(K=kernels(min_size=2, max_size=4), data=st.data())
def test_capacity_is_invariant_under_relabelling_and_mixture_inputs(K, data):
    """Permuting inputs/outputs does not change C; nor does adding an input whose row is a
    mixture of existing rows (D(mix || q*) <= sum w_x D(K_x || q*) <= C keeps the KKT
    conditions of the old optimum)."""
    base = float(md.channel_capacity(K))
    rows = data.draw(st.permutations(range(K.shape[0])))
    cols = data.draw(st.permutations(range(K.shape[1])))
    assert float(md.channel_capacity(K[np.ix_(rows, cols)])) == pytest.approx(base, abs=2e-9)
    w = data.draw(distributions(K.shape[0]))
    assert float(md.channel_capacity(np.vstack([K, w @ K]))) == pytest.approx(base, abs=2e-9)


# ---------------------------------------------------------------------------------------------
# 2. Sibson mutual information
# ---------------------------------------------------------------------------------------------


@settings(max_examples=20, deadline=None)
@given(
    K=kernels(min_size=2, max_size=5),
    data=st.data(),
    alpha=st.one_of(
        st.sampled_from([0.5, 1.0, 2.0, math.inf]),
        st.floats(0.05, 0.999),
        st.floats(1.001, 40.0),
    ),
)
def test_sibson_matches_the_formula(K, data, alpha):
    prior = data.draw(distributions(K.shape[0]))
    got = md.sibson_mutual_information(K, prior, alpha)
    want = sibson(K, prior, alpha)
    assert got == pytest.approx(want, abs=1e-10, rel=1e-9), (got, want, alpha)


@settings(max_examples=20, deadline=None)
@given(K=kernels(min_size=2, max_size=5), data=st.data())
def test_sibson_alpha_one_is_shannon_and_is_continuous_there(K, data):
    prior = data.draw(distributions(K.shape[0]))
    shannon = mutual_information(K, prior)
    at_one = md.sibson_mutual_information(K, prior, 1.0)
    assert at_one == pytest.approx(shannon, abs=1e-12, rel=1e-10)
    for alpha in (1 - 1e-6, 1 + 1e-6):
        got = md.sibson_mutual_information(K, prior, alpha)
        mine = sibson(K, prior, alpha)  # formula, cancellation error ~1e-9 at most here
        assert got == pytest.approx(mine, abs=1e-7), (alpha, got, mine)
        # No jump at alpha = 1 beyond the true change of I_alpha over 1e-6.
        assert abs(got - at_one) <= abs(mine - shannon) + 2e-7, (alpha, got, at_one)


@pytest.mark.parametrize("alpha", [0.5, 1.0, 2.0, 7.0, math.inf])
def test_sibson_ignores_inputs_with_zero_prior(alpha):
    K = np.array([[0.9, 0.1, 0.0], [0.2, 0.6, 0.2], [0.0, 0.0, 1.0]])
    prior = np.array([0.4, 0.6, 0.0])
    got = md.sibson_mutual_information(K, prior, alpha)
    assert got == pytest.approx(sibson(K[:2], prior[:2], alpha), abs=1e-12)
    if math.isinf(alpha):
        assert got == pytest.approx(math.log(0.9 + 0.6 + 0.2), abs=1e-12)


def test_sibson_at_infinity_and_on_k_rr_closed_forms():
    k, eps = 4, 1.3
    K = krr(k, eps)
    a, b = krr_entries(k, eps)
    u = np.full(k, 1.0 / k)
    assert md.sibson_mutual_information(K, u, math.inf) == pytest.approx(
        math.log(k * a), abs=1e-12
    )
    for alpha in (0.5, 2.0, 5.0):
        exact = math.log(k) + math.log(a**alpha + (k - 1) * b**alpha) / (alpha - 1)
        assert md.sibson_mutual_information(K, u, alpha) == pytest.approx(exact, abs=1e-12)


@settings(max_examples=20, deadline=None)
@given(
    K=kernels(min_size=2, max_size=5),
    data=st.data(),
    alphas=st.lists(
        st.one_of(
            st.floats(0.05, 0.999),
            st.floats(1.001, 50.0),
            st.sampled_from([0.5, 1.0, 1 - 1e-6, 1 + 1e-6]),
        ),
        min_size=2,
        max_size=6,
    ),
)
def test_sibson_is_nondecreasing_in_alpha(K, data, alphas):
    prior = data.draw(distributions(K.shape[0]))
    grid = [*sorted(alphas), math.inf]
    values = [md.sibson_mutual_information(K, prior, a) for a in grid]
    for i in range(len(grid) - 1):
        assert values[i] <= values[i + 1] + ALPHA_LEAKAGE_TOL, (
            grid[i], values[i], grid[i + 1], values[i + 1])


@pytest.mark.parametrize("alpha", [1 - 1e-9, 1 + 1e-9, 1 - 1e-12, 1 + 1e-12])
def test_sibson_very_near_one_is_accurate(alpha):
    """Beyond the brief: |I_alpha - I_1| <= |alpha - 1| * O(1) is far below 1e-6 here, so a
    larger gap can only be cancellation in alpha/(alpha-1) * log(sum ...)."""
    K = np.array([[0.7, 0.2, 0.1], [0.1, 0.6, 0.3], [0.25, 0.25, 0.5]])
    prior = np.array([0.5, 0.3, 0.2])
    got = md.sibson_mutual_information(K, prior, alpha)
    assert got == pytest.approx(mutual_information(K, prior), abs=1e-6)


@pytest.mark.parametrize("alpha", [0.0, -1.0])
def test_sibson_refuses_nonpositive_alpha(alpha):
    """alpha is in (0, inf]; the package validates inputs with InvalidInputError."""
    with pytest.raises(md.InvalidInputError):
        md.sibson_mutual_information(krr(3, 1.0), np.full(3, 1 / 3), alpha)


# ---------------------------------------------------------------------------------------------
# 3. Maximal alpha-leakage
# ---------------------------------------------------------------------------------------------


@settings(max_examples=20, deadline=None, phases=NO_SHRINK)
@given(K=kernels(min_size=2, max_size=5))
def test_maximal_leakage_at_infinity_and_at_one(K):
    assert md.maximal_alpha_leakage(K, math.inf) == pytest.approx(
        math.log(float(K.max(axis=0).sum())), abs=1e-12
    )
    at_one = md.maximal_alpha_leakage(K, 1.0)
    assert at_one == pytest.approx(float(md.channel_capacity(K)), abs=1e-9)
    lo, up, _ = blahut_arimoto(K)
    assert lo - 1e-9 <= at_one <= up + 1e-9, (lo, at_one, up)


@pytest.mark.parametrize(("k", "eps"), [(2, 1.0), (4, 2.0), (5, 0.5)])
@pytest.mark.parametrize("alpha", [1.0, 1.5, 2.0, 10.0, math.inf])
def test_maximal_leakage_of_k_rr_is_sibson_at_uniform(k, eps, alpha):
    """For alpha > 1, p -> sum_y (sum_x p_x K^alpha)^(1/alpha) is concave and k-RR is
    invariant under permuting inputs and outputs together, so averaging an optimum over
    the permutations shows the uniform prior is optimal:
    value = log k + log(a^alpha + (k-1) b^alpha)/(alpha-1) (log(k a) at infinity)."""
    K = krr(k, eps)
    a, b = krr_entries(k, eps)
    u = np.full(k, 1.0 / k)
    got = md.maximal_alpha_leakage(K, alpha)
    assert got == pytest.approx(sibson(K, u, alpha), abs=1e-9)
    if math.isinf(alpha):
        exact = math.log(k * a)
    elif alpha == 1:  # exact: parametrized literal
        exact = math.log(k) + a * math.log(a) + (k - 1) * b * math.log(b)
    else:
        exact = math.log(k) + math.log(a**alpha + (k - 1) * b**alpha) / (alpha - 1)
    assert got == pytest.approx(exact, abs=1e-9)


@settings(max_examples=20, deadline=None, phases=NO_SHRINK)
@given(
    K=kernels(min_size=2, max_size=5),
    alpha=st.one_of(st.sampled_from([1.5, 2.0, 5.0]), st.floats(1.05, 30.0)),
    seed=st.integers(0, 2**32 - 1),
)
def test_maximal_leakage_random_channels(K, alpha, seed):
    got = md.maximal_alpha_leakage(K, alpha)
    rng = np.random.default_rng(seed)
    worst = max(sibson(K, p, alpha) for p in random_priors(rng, K.shape[0]))
    # the library certifies maximal alpha-leakage to ALPHA_LEAKAGE_TOL (its lower end)
    assert worst <= got + ALPHA_LEAKAGE_TOL, (worst, got)
    lo, up = sibson_capacity(K, alpha)
    assert lo - ALPHA_LEAKAGE_TOL <= got <= up + 1e-9, (lo, got, up)


@settings(max_examples=20, deadline=None, phases=NO_SHRINK)
@given(
    K=kernels(min_size=2, max_size=5),
    alphas=st.lists(
        st.one_of(st.floats(1.001, 60.0), st.sampled_from([1 + 1e-6, 1.5, 2.0])),
        min_size=2,
        max_size=5,
    ),
)
def test_maximal_leakage_is_nondecreasing_in_alpha(K, alphas):
    grid = [1.0, *sorted(alphas), math.inf]
    values = [md.maximal_alpha_leakage(K, a) for a in grid]
    for i in range(len(grid) - 1):
        assert values[i] <= values[i + 1] + ALPHA_LEAKAGE_TOL, (
            grid[i], values[i], grid[i + 1], values[i + 1])


# Channels hypothesis found (rows equal up to ~1e-6: ill-conditioned but valid input).
ILL_CONDITIONED = [
    pytest.param(
        np.array([[9.999990e-07, 9.999990e-01], [1.999996e-06, 9.999980e-01]]), 1.5,
        id="2x2-nearly-useless",
    ),
    pytest.param(
        np.array([[0.0, 0.0, 1.0],
                  [9.99997293e-01, 1.35354824e-06, 1.35354824e-06],
                  [9.99990440e-01, 4.78020733e-06, 4.78020733e-06],
                  [0.0, 9.06395952e-01, 9.36040484e-02]]), 1.5,
        id="4x3-two-near-duplicate-rows",
    ),
    # Found by a random sweep: input 1 alone reaches output 2 (mass 3e-14), so the optimum
    # nearly starves it (prior ~1e-12), and its divergence then moves fast with its mass.
    pytest.param(
        np.array([[0.028132816305719816, 0.0, 0.0, 0.9718671836942803],
                  [0.0003027109869710666, 0.0, 2.893786403693919e-14, 0.9996972890129999],
                  [0.0, 0.0, 0.0, 1.0]]), 10.0,
        id="3x4-nearly-starved-input",
    ),
    # Found by a random sweep: K^(alpha-1) - 1 rounds to -1 on an output (mass 2.7e-39).
    pytest.param(
        np.array([[1.178504166830315e-05, 0.0, 0.9522320570680142, 0.0, 0.047756157890317646],
                  [0.0, 0.0, 8.893779477672886e-10, 2.732466934151186e-39, 0.999999999110622],
                  [0.0, 1.0, 0.0, 0.0, 0.0],
                  [0.0, 0.18430060691252018, 0.00011819736537932251, 0.0, 0.8155811957221005],
                  [0.0, 0.0, 0.0, 0.0, 1.0],
                  [0.9506476119587639, 0.0, 8.831616516504785e-11, 0.0, 0.049352387952919845]]),
        1.5, id="6x5-tiny-output",
    ),
]


@pytest.mark.parametrize(("K", "alpha"), ILL_CONDITIONED)
def test_maximal_leakage_ill_conditioned_channels(K, alpha):
    """The value must still be returned (the API returns a float) and lie in our bracket
    (2x2: bounded Brent plus the Frank-Wolfe bound, ~1.26597e-7, width ~3e-12; 4x3: SLSQP
    polish, ~1.0257549, width ~2e-9)."""
    K = K / K.sum(axis=1, keepdims=True)
    lo, up = sibson_capacity(K, alpha)
    assert up - lo < 1e-8, (lo, up)  # the oracle itself is tight here
    got = md.maximal_alpha_leakage(K, alpha)
    assert lo - 1e-9 <= got <= up + 1e-9, (lo, got, up)


@pytest.mark.parametrize("alpha", [1 + 1e-9, 1 + 1e-12])
def test_maximal_leakage_very_near_one_is_the_capacity(alpha):
    """Beyond the brief: the same cancellation check as for Sibson's I_alpha."""
    K = np.array([[0.7, 0.2, 0.1], [0.1, 0.6, 0.3], [0.25, 0.25, 0.5]])
    lo, up, _ = blahut_arimoto(K)
    got = md.maximal_alpha_leakage(K, alpha)
    assert lo - 1e-6 <= got <= up + 1e-6, (lo, got, up)


@pytest.mark.parametrize("alpha", [0.5, 0.999, 0.0, -2.0])
def test_maximal_leakage_refuses_alpha_below_one(alpha):
    with pytest.raises(md.InvalidInputError):
        md.maximal_alpha_leakage(krr(3, 1.0), alpha)


# ---------------------------------------------------------------------------------------------
# 4. Degradation
# ---------------------------------------------------------------------------------------------


def check_degradation_witness(K1: np.ndarray, K2: np.ndarray, R) -> None:
    assert R is not None
    R = np.asarray(R, dtype=float)
    assert R.shape == (K1.shape[1], K2.shape[1])
    assert R.min() >= -1e-12, R.min()
    assert np.abs(R.sum(axis=1) - 1.0).max() <= 1e-9
    assert np.abs(K1 @ R - K2).max() <= 1e-9, np.abs(K1 @ R - K2).max()


@settings(max_examples=20, deadline=None)
@given(data=st.data(), n=st.integers(1, 5), m=st.integers(1, 5), n_out=st.integers(1, 5))
def test_degraded_by_construction(data, n, m, n_out):
    K1 = data.draw(kernels(n, m))
    R = data.draw(kernels(m, n_out))
    K2 = K1 @ R
    check_degradation_witness(K1, K2, md.is_degraded(K1, K2))


def test_k_rr_degrades_to_lower_epsilon():
    """k-RR = lambda I + b J with lambda = (e^eps - 1)/(e^eps + k - 1); k-RR matrices commute
    and compose by multiplying lambda. So k-RR(4, 2) @ k-RR(4, eps') = k-RR(4, 1) for
    lambda(eps') = lambda(1)/lambda(2), i.e. e^eps' = (1 + (k-1) lam)/(1 - lam)."""
    k = 4

    def lam(eps):
        return (math.exp(eps) - 1) / (math.exp(eps) + k - 1)

    ratio = lam(1.0) / lam(2.0)
    eps_r = math.log((1 + (k - 1) * ratio) / (1 - ratio))
    R = krr(k, eps_r)
    K1, K2 = krr(k, 2.0), krr(k, 1.0)
    assert np.abs(K1 @ R - K2).max() <= 1e-12  # our own witness
    got = md.is_degraded(K1, K2)
    check_degradation_witness(K1, K2, got)
    # k-RR(4, 2) is invertible, so the witness is unique: it must be our R.
    assert np.abs(np.asarray(got) - R).max() <= 1e-7


def test_k_rr_does_not_degrade_to_higher_epsilon():
    """k-RR(4, 1) is 1-LDP, and post-processing cannot increase the LDP level: every
    K1 @ R is again 1-LDP, while k-RR(4, 2) has likelihood ratio e^2 > e^1. (Directly: K1 is
    invertible and K1^{-1} K2 = lambda' I + b' J with lambda' = lambda(2)/lambda(1) > 1, so
    b' = (1 - lambda')/k < 0: the only solution has negative entries.)"""
    assert md.is_degraded(krr(4, 1.0), krr(4, 2.0)) is None


@pytest.mark.parametrize(("e", "p", "degraded"), [
    (0.2, 0.12, True), (0.1, 0.3, True), (0.3, 0.1, False), (0.5, 0.2, False),
])
def test_bsc_from_bec(e, p, degraded):
    """BSC(p) = BEC(e) @ R iff e <= 2p: with R sending 0 -> 1 w.p. u, 1 -> 0 w.p. v, erasure
    -> 1 w.p. w, P(1|1) - P(1|0) = (1-e)(1-u-v) must equal 1-2p, so 1-e >= 1-2p; conversely
    u = v = (2p - e)/(2(1-e)) >= 0 with w = 1/2 works when e <= 2p."""
    K1, K2 = bec(e), bsc(p)
    got = md.is_degraded(K1, K2)
    if degraded:
        check_degradation_witness(K1, K2, got)
    else:
        assert got is None


def test_bsc_degradation_is_one_way():
    # (1-2*0.05)(1-2q) = 1-2*0.1 gives BSC(0.05) @ BSC(q) = BSC(0.1).
    check_degradation_witness(bsc(0.05), bsc(0.1), md.is_degraded(bsc(0.05), bsc(0.1)))
    assert md.is_degraded(bsc(0.1), bsc(0.05)) is None


@settings(max_examples=20, deadline=None)
@given(data=st.data(), n=st.integers(1, 5), m=st.integers(1, 5))
def test_identity_degrades_to_anything(data, n, m):
    K2 = data.draw(kernels(n, m))
    got = md.is_degraded(np.eye(n), K2)
    check_degradation_witness(np.eye(n), K2, got)
    assert np.abs(np.asarray(got) - K2).max() <= 1e-9  # the witness is K2 itself


@settings(max_examples=20, deadline=None)
@given(data=st.data(), n=st.integers(2, 5), m=st.integers(1, 5), n_out=st.integers(2, 5))
def test_constant_channel_degrades_only_to_constant_channels(data, n, m, n_out):
    """K1 = 1 r^T gives K1 @ R = 1 (r^T R): every row the same."""
    r = data.draw(distributions(m))
    K1 = np.tile(r, (n, 1))
    s = data.draw(distributions(n_out))
    constant = np.tile(s, (n, 1))
    check_degradation_witness(K1, constant, md.is_degraded(K1, constant))
    K2 = data.draw(kernels(n, n_out))
    spread = np.abs(K2 - K2[0]).max()
    if spread > 1e-6:
        assert md.is_degraded(K1, K2) is None, spread
    # A channel whose rows differ by only 1e-3 is still not a post-processing of K1.
    near = constant.copy()
    near[1] = (1 - 1e-3) * s + 1e-3 * np.eye(n_out)[0 if s[0] < 0.5 else 1]
    assert md.is_degraded(K1, near) is None


def test_every_channel_degrades_to_itself_and_to_a_constant():
    K = np.array([[0.6, 0.3, 0.1], [0.1, 0.2, 0.7]])
    check_degradation_witness(K, K, md.is_degraded(K, K))
    const = np.tile([0.25, 0.75], (2, 1))
    check_degradation_witness(K, const, md.is_degraded(K, const))
