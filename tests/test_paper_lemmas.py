"""Independent numerical checks of paper lemmas that had no direct test.

Papers (texts in ``../shared/papers/``):

- Grosse, Saeidian, Oechtering, Skoglund, *Dobrushin Coefficients of Private Mechanisms
  Beyond Local Differential Privacy* (``dobrushin-pml-pdf.txt``): Lemma 2 (App. B) and
  Proposition 3 (App. A).
- *PML envelopes* (``pml-envelopes.txt``): Lemma 1 (Sec. IV) and Lemma 3 (App. C).
- Lopuhaä-Zwakenberg & Goseling, *Mechanisms for Robust Local Differential Privacy*,
  Entropy 26(3) 233, 2024 (``robust-ldp.txt``): Lemma 3 (Sec. 7, eqs. 64-68).

Each test states the result it checks and computes the side it compares against itself
(plain numpy, scipy's LP solver, an explicit post-processing or a closed form), never with
the same library function on both sides. Rows are inputs, logs are natural.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st
from scipy.optimize import linprog

import mechdesign as md
from tests.helpers import distributions, kernels, random_kernel

RTOL = 1e-9
ATOL = 1e-12


def _tv(a: np.ndarray, b: np.ndarray) -> float:
    """Total variation ½‖a − b‖₁."""
    return float(0.5 * np.abs(np.asarray(a) - np.asarray(b)).sum())


def _max_row_tv(k: np.ndarray) -> float:
    """η_TV(K) = max_{x,x'} TV(K[x], K[x']) (Dobrushin paper eq. 2), by a plain loop."""
    n = k.shape[0]
    return max(_tv(k[i], k[j]) for i in range(n) for j in range(n))


def _pml(k: np.ndarray, p: np.ndarray) -> np.ndarray:
    """ℓ(X → y) = log max_{x ∈ supp P} K[x, y] / P_Y(y) for every y with P_Y(y) > 0
    (Dobrushin paper eq. 10, first line of the proof of Proposition 3); −∞ elsewhere."""
    p_y = p @ k
    best = k[p > 0].max(axis=0)
    out = np.full(k.shape[1], -math.inf)
    seen = p_y > 0
    out[seen] = np.log(best[seen] / p_y[seen])
    return out


def _event_leakage_eq23(k: np.ndarray, p: np.ndarray, w: np.ndarray) -> float:
    """Envelope paper eq. (23): ℓ(X → E) := ℓ_{P_XZ}(X → 1) with Z = 1_E(Y), the event
    put in with probability w_y; Z's kernel is K · [w, 1 − w]."""
    indicator = np.column_stack([w, 1.0 - w])  # P_{Z|Y}; column 0 is Z = 1
    return float(_pml(k @ indicator, p)[0])


def _event_leakage_eq24(k: np.ndarray, p: np.ndarray, w: np.ndarray) -> float:
    """Envelope paper eq. (24): log max_x E_{Y ~ Q_E}[exp i(x; Y)], with
    Q_E(y) = w_y P_Y(y) / P_Y(E) and exp i(x; y) = K[x, y] / P_Y(y)."""
    p_y = p @ k
    used = p_y > 0
    q_e = w[used] * p_y[used] / float(w @ p_y)
    density = k[p > 0][:, used] / p_y[used]
    return float(np.log((density @ q_e).max()))


@st.composite
def _events(draw, m: int) -> np.ndarray:
    """Event weights w ∈ [0, 1]^M: a set's indicator or a randomised (generalised) event."""
    if draw(st.booleans()):
        return np.array(draw(st.lists(st.booleans(), min_size=m, max_size=m)), dtype=float)
    return np.array(draw(st.lists(st.floats(0.0, 1.0), min_size=m, max_size=m)))


# --------------------------------------------------------------------------------------
# Dobrushin paper, Lemma 2 (App. B): η_TV over inputs in Q_X(c) equals η_TV(K)
# --------------------------------------------------------------------------------------


@settings(max_examples=60)
@given(
    k=kernels(min_size=2, max_size=5),
    fraction=st.floats(0.01, 0.99),
    data=st.data(),
)
def test_dobrushin_lemma2_restricted_ratios_never_exceed_eta_tv(k, fraction, data):
    """Dobrushin paper, Lemma 2: for 0 < c < 1/N, sup over P ≠ Q in
    Q_X(c) = {P : min_x P(x) ≥ c} (Sec. III) of TV(PK, QK)/TV(P, Q) is η_TV(K)
    (eq. 2). Here the "≤" half: no pair in Q_X(c) has a larger ratio."""
    n = k.shape[0]
    c = fraction / n
    v = data.draw(distributions(n))
    w = data.draw(distributions(n))
    # Every P in Q_X(c) is c·1 + (1 − Nc)V with V = (P − c)/(1 − Nc) in the simplex.
    p = c + (1 - n * c) * v
    q = c + (1 - n * c) * w
    assert p.min() >= c * (1 - RTOL)
    assert q.min() >= c * (1 - RTOL)
    tv_in = _tv(p, q)
    assume(tv_in > 1e-6)
    eta = md.dobrushin_coefficient(k)
    assert eta == pytest.approx(_max_row_tv(k), rel=RTOL, abs=ATOL)
    assert _tv(p @ k, q @ k) / tv_in <= eta + 1e-9


def test_dobrushin_lemma2_restricted_sup_is_attained_inside_q_x_c():
    """Dobrushin paper, Lemma 2, the "≥" half: the pair P = c + (1 − Nc)e_x,
    Q = c + (1 − Nc)e_x' lies in Q_X(c) and P − Q ∝ e_x − e_x', so its ratio is
    TV(K[x], K[x']) exactly; the maximising rows give η_TV(K) (eq. 2)."""
    rng = np.random.default_rng(20240611)
    for n, m, zeros in [(2, 2, 0.0), (3, 4, 0.0), (4, 3, 0.3), (5, 5, 0.2), (6, 2, 0.0)]:
        k = random_kernel(rng, n, m, zeros=zeros)
        for c in (0.01 / n, 0.5 / n, 0.99 / n):
            best = 0.0
            for x in range(n):
                for x_other in range(n):
                    if x == x_other:
                        continue
                    p = np.full(n, c)
                    p[x] += 1 - n * c
                    q = np.full(n, c)
                    q[x_other] += 1 - n * c
                    assert p.min() >= c
                    assert q.min() >= c
                    ratio = _tv(p @ k, q @ k) / _tv(p, q)
                    assert ratio == pytest.approx(_tv(k[x], k[x_other]), rel=RTOL, abs=ATOL)
                    best = max(best, ratio)
            assert best == pytest.approx(md.dobrushin_coefficient(k), rel=RTOL, abs=ATOL)

    # Exact small case: η_TV = 1 (rows 0 and 1 disjoint), c = 0.2, N = 3.
    k = np.array([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]])
    p, q = np.array([0.6, 0.2, 0.2]), np.array([0.2, 0.6, 0.2])
    np.testing.assert_allclose(p @ k, [0.7, 0.3], rtol=0, atol=1e-15)
    np.testing.assert_allclose(q @ k, [0.3, 0.7], rtol=0, atol=1e-15)
    assert _tv(p @ k, q @ k) / _tv(p, q) == pytest.approx(1.0, rel=1e-12, abs=0)
    assert md.dobrushin_coefficient(k) == pytest.approx(1.0, rel=1e-12, abs=0)


def test_dobrushin_lemma2_proof_representation_needs_the_factor_one_minus_nc():
    """Dobrushin paper, proof of Lemma 2 (App. B; html eq. 57) prints
    Q_X(c) = {c + V_X : V_X ∈ P(X)}; those vectors sum to 1 + Nc, so they are not
    distributions. The next line of the proof uses the correct form c + (1 − Nc)V_X,
    which is exactly Q_X(c) (checked here both ways); the lemma itself is unaffected."""
    n, c = 4, 0.1
    v = np.array([0.4, 0.3, 0.2, 0.1])
    assert (c + v).sum() == pytest.approx(1 + n * c, rel=1e-12, abs=0)  # as printed
    corrected = c + (1 - n * c) * v
    assert corrected.sum() == pytest.approx(1.0, rel=1e-12, abs=0)
    assert corrected.min() >= c
    # and back: any P in Q_X(c) gives a V in the simplex
    p = np.array([0.1, 0.15, 0.25, 0.5])
    back = (p - c) / (1 - n * c)
    assert back.min() >= 0
    assert back.sum() == pytest.approx(1.0, rel=1e-12, abs=0)


# --------------------------------------------------------------------------------------
# Dobrushin paper, Proposition 3 (App. A): column zero outside X_sub ⇒ ℓ ≥ −log P(X_sub)
# --------------------------------------------------------------------------------------


@settings(max_examples=80)
@given(k=kernels(min_size=2, max_size=5), data=st.data())
def test_dobrushin_proposition3_zero_pattern_forces_leakage(k, data):
    """Dobrushin paper, Proposition 3 and its proof (eqs. 8-9): if K[x', y] = 0 for all
    x' ∉ X_sub and P_Y(y) > 0, then ℓ(X → y) = −log P_X(X_sub) + ℓ_{K×Q}(X → y) with
    Q = P_X(· | X_sub), hence ℓ(X → y) ≥ −log P_X(X_sub)."""
    n, m = k.shape
    p = data.draw(distributions(n))
    y = data.draw(st.integers(0, m - 1))
    inside = np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    anchor = int(np.argmax(p))  # an input of positive probability in X_sub: P_Y(y) > 0
    inside[anchor] = True
    k = k.copy()
    if k[anchor, y] == 0:
        k[anchor, y] = 0.5
        k[anchor] /= k[anchor].sum()
    for x in np.flatnonzero(~inside):  # force the zero pattern, keep rows stochastic
        k[x, y] = 0.0
        if k[x].sum() == 0:
            k[x, (y + 1) % m] = 1.0
        k[x] /= k[x].sum()
    assert np.all(k[~inside, y] == 0)

    mass = float(p[inside].sum())
    ell = _pml(k, p)[y]
    assert ell >= -math.log(mass) - ATOL
    conditional = np.where(inside, p, 0.0) / mass
    np.testing.assert_allclose(ell, -math.log(mass) + _pml(k, conditional)[y], rtol=RTOL, atol=ATOL)
    np.testing.assert_allclose(md.pointwise_leakage(k, p)[y], ell, rtol=RTOL, atol=ATOL)


def test_dobrushin_proposition3_bound_is_attained():
    """Dobrushin paper, Proposition 3: equality when column y is constant on X_sub.
    K's column 0 is zero outside X_sub = {0, 1}; uniform prior, P(X_sub) = 2/3;
    ℓ(X → 0) = log(0.5 / (1/3)) = log(3/2) = −log P(X_sub)."""
    k = np.array([[0.5, 0.5], [0.5, 0.5], [0.0, 1.0]])
    p = np.full(3, 1 / 3)
    assert md.pointwise_leakage(k, p)[0] == pytest.approx(math.log(1.5), rel=1e-12, abs=0)
    assert -math.log(2 / 3) == pytest.approx(math.log(1.5), rel=1e-12, abs=0)


# --------------------------------------------------------------------------------------
# Envelope paper, Lemma 3 (App. C): properties (i)-(iv) of the event leakage ℓ(X → E)
# --------------------------------------------------------------------------------------


@settings(max_examples=60)
@given(k=kernels(min_size=2, max_size=5), data=st.data())
def test_event_leakage_matches_definition_eq23_and_eq24(k, data):
    """Envelope paper, App. C, eq. (23) (ℓ(X → E) is the PML of Z = 1 for Z = 1_E(Y)) and
    its rewriting eq. (24); `event_leakage` must agree with both, for sets and for
    randomised events."""
    n, m = k.shape
    p = data.draw(distributions(n))
    w = data.draw(_events(m))
    assume(float(w @ (p @ k)) >= 1e-6)
    by_definition = _event_leakage_eq23(k, p, w)
    np.testing.assert_allclose(_event_leakage_eq24(k, p, w), by_definition, rtol=RTOL, atol=ATOL)
    np.testing.assert_allclose(md.measures.event_leakage(k, p, w), by_definition, rtol=RTOL,
                               atol=ATOL)


@settings(max_examples=60)
@given(k=kernels(min_size=2, max_size=5), data=st.data())
def test_event_leakage_lemma3_i_bounds(k, data):
    """Envelope paper, Lemma 3(i): 0 ≤ ℓ(X → E) ≤ log(1 / P_Y(E)) for every event E."""
    n, m = k.shape
    p = data.draw(distributions(n))
    w = data.draw(_events(m))
    p_event = float(w @ (p @ k))
    assume(p_event >= 1e-6)
    for value in (md.measures.event_leakage(k, p, w), _event_leakage_eq23(k, p, w)):
        assert value >= -ATOL
        assert value <= math.log(1 / p_event) + ATOL


@settings(max_examples=40)
@given(k=kernels(min_size=2, max_size=5), data=st.data())
def test_event_leakage_lemma3_ii_whole_space_leaks_nothing(k, data):
    """Envelope paper, Lemma 3(ii): ℓ(X → Y) = log 1/1 = 0."""
    n, m = k.shape
    p = data.draw(distributions(n))
    assert abs(md.measures.event_leakage(k, p, np.ones(m))) <= ATOL
    assert abs(_event_leakage_eq23(k, p, np.ones(m))) <= ATOL


@settings(max_examples=60)
@given(k=kernels(min_size=2, max_size=5), data=st.data())
def test_event_leakage_lemma3_iii_disjoint_union(k, data):
    """Envelope paper, Lemma 3(iii): E ∩ E' = ∅ ⇒ ℓ(X → E ∪ E') ≤ max{ℓ(X → E), ℓ(X → E')}.
    Disjoint sets come from a labelling of the outputs; disjoint randomised events are
    weights with w + w' ≤ 1, their union having weights w + w'."""
    n, m = k.shape
    p = data.draw(distributions(n))
    if data.draw(st.booleans()):
        labels = np.array(data.draw(st.lists(st.integers(0, 2), min_size=m, max_size=m)))
        w, w_other = (labels == 1).astype(float), (labels == 2).astype(float)
    else:
        w = np.array(data.draw(st.lists(st.floats(0.0, 1.0), min_size=m, max_size=m)))
        share = np.array(data.draw(st.lists(st.floats(0.0, 1.0), min_size=m, max_size=m)))
        w_other = share * (1.0 - w)
    p_y = p @ k
    assume(float(w @ p_y) >= 1e-6 and float(w_other @ p_y) >= 1e-6)
    union = np.minimum(w + w_other, 1.0)  # the minimum only absorbs a rounding ulp
    left = md.measures.event_leakage(k, p, union)
    right = max(md.measures.event_leakage(k, p, w), md.measures.event_leakage(k, p, w_other))
    assert left <= right + 1e-12
    own_right = max(_event_leakage_eq23(k, p, w), _event_leakage_eq23(k, p, w_other))
    assert _event_leakage_eq23(k, p, union) <= own_right + 1e-12


def _best_sub_event(k: np.ndarray, p: np.ndarray, w: np.ndarray, mass: float) -> np.ndarray:
    """argmax over sub-events 0 ≤ w' ≤ w with P_Y(w') = mass of max_x K_x(w') / mass: one
    LP per input of positive probability (scipy HiGHS), the best one kept."""
    p_y = p @ k
    best_value, best_w = -math.inf, None
    for x in np.flatnonzero(p > 0):
        result = linprog(
            -k[x],
            A_eq=p_y[None, :],
            b_eq=[mass],
            bounds=list(zip(np.zeros_like(w), w, strict=True)),
            method="highs",
        )
        assert result.status == 0, result.message
        if -result.fun > best_value:
            best_value, best_w = -result.fun, np.clip(result.x, 0.0, w)
    return best_w


@settings(max_examples=40)
@given(k=kernels(min_size=2, max_size=5), fraction=st.floats(0.01, 0.99), data=st.data())
def test_event_leakage_lemma3_iv_smaller_sub_event_leaks_at_least_as_much(k, fraction, data):
    """Envelope paper, Lemma 3(iv): if P_Y(E) = θ > 0 and 0 < θ' < θ, some (generalised,
    footnote 7) event E' ⊂ E with P_Y(E') = θ' has ℓ(X → E') ≥ ℓ(X → E). E' is found
    independently of the paper's threshold construction, as the best sub-event from a
    linear program over weights 0 ≤ w' ≤ w."""
    n, m = k.shape
    p = data.draw(distributions(n))
    w = data.draw(_events(m))
    p_y = p @ k
    theta = float(w @ p_y)
    assume(theta >= 1e-4)
    theta_sub = fraction * theta
    w_sub = _best_sub_event(k, p, w, theta_sub)
    assert np.all(w_sub <= w)
    np.testing.assert_allclose(float(w_sub @ p_y), theta_sub, rtol=1e-7, atol=1e-12)
    leak = md.measures.event_leakage(k, p, w)
    assert md.measures.event_leakage(k, p, w_sub) >= leak - 1e-7
    assert _event_leakage_eq23(k, p, w_sub) >= _event_leakage_eq23(k, p, w) - 1e-7


# --------------------------------------------------------------------------------------
# Envelope paper, Lemma 1: ε_c is lower semi-continuous, i.e. right-continuous here
# --------------------------------------------------------------------------------------

STEPS = (1e-3, 1e-5, 1e-7)


def _assert_right_limit(values: list[float], at: float, steps=STEPS) -> None:
    """ε_c(δ + h) ≤ ε_c(δ) (non-increasing), and the gap ε_c(δ) − ε_c(δ + h) is at most
    100·h for every step, so it shrinks to 0 with h (right-continuity at δ)."""
    gaps = [at - v for v in values]
    for gap, h in zip(gaps, steps, strict=True):
        assert -1e-10 <= gap <= 100 * h
    for wider, narrower in itertools.pairwise(gaps):
        assert narrower <= wider + 1e-12


def test_envelope_lemma1_right_continuous_at_randomized_response_breakpoint():
    """Envelope paper, Lemma 1 (ε_c lower semi-continuous; for a non-increasing function
    that is ε_c(δ + h) → ε_c(δ) as h ↓ 0) at δ = q_1, where Theorem 5 switches from the
    exact value (i) to the bounds (ii)/(iii). Sandwich for δ = q_1 + h, all by numpy:
    below, the post-processing Z that keeps output 1 and adds output 2 with probability
    θ = h/q_2 gives an output of mass δ with leakage log((α + θβ)/δ) (Theorem 5(iii), N = 2,
    middle regime), so ε_c(δ) ≥ that by eq. (14); above, the PML level log(α/q_1)
    (Theorem 3, second term), which Theorem 5(i) says is ε_c(q_1)."""
    k_arity, eps = 4, 1.0
    kernel = md.randomized_response(k_arity, eps).matrix
    p = np.array([0.1, 0.2, 0.3, 0.4])
    alpha = math.exp(eps) / (math.exp(eps) + k_arity - 1)  # eq. (15)
    beta = 1 / (math.exp(eps) + k_arity - 1)
    q = beta + (alpha - beta) * p  # q_i = β + (α − β) p_i, increasing with p
    level = float(_pml(kernel, p).max())
    assert level == pytest.approx(math.log(alpha / q[0]), rel=1e-12, abs=ATOL)

    at = float(md.pml_envelope(kernel, p, q[0]))
    assert at == pytest.approx(level, rel=1e-9, abs=ATOL)  # Theorem 5(i)
    values = []
    for h in STEPS:
        theta = h / q[1]
        post = np.zeros((k_arity, 2))  # Z = 0: output 1, and output 2 with prob. θ
        post[0, 0] = 1.0
        post[1] = [theta, 1 - theta]
        post[2:, 1] = 1.0
        kz = kernel @ post
        assert float(p @ kz[:, 0]) == pytest.approx(q[0] + h, rel=1e-12, abs=0)
        lower = float(_pml(kz, p)[0])
        assert lower == pytest.approx(
            math.log((alpha + theta * beta) / (q[0] + h)), rel=1e-12, abs=ATOL
        )
        value = float(md.pml_envelope(kernel, p, q[0] + h))
        assert lower - 1e-9 <= value <= level + 1e-9
        values.append(value)
    _assert_right_limit(values, at)


def test_envelope_lemma1_right_continuous_at_example1_breakpoint():
    """Envelope paper, Lemma 1 at δ = 0.1 for Example 1 (eq. 7, uniform prior), where the
    paper shows ε_c(δ) = log 4 for δ ∈ (0, 0.1] (after Theorem 2) and the envelope then
    starts to fall. Sandwich for δ = 0.1 + h, by numpy: Z sends y1, and y3 with
    probability v, to z_a; y2, and y4 with probability v, to z_b (v = h/0.9). Both have
    leakage log((0.2 + 0.4v)/(0.05 + 0.45v)) and total mass δ, so by eq. (14) ε_c(δ) is
    at least that; ε_c ≤ log 4, the PML level (Theorem 3)."""
    example = md.reproduce.PAPER_EXAMPLES["envelope-example1"]
    kernel, p = example.mechanism.matrix, example.prior
    level = float(_pml(kernel, p).max())
    assert level == pytest.approx(math.log(4), rel=1e-12, abs=0)
    at = float(md.pml_envelope(kernel, p, 0.1))
    assert at == pytest.approx(math.log(4), rel=1e-9, abs=0)
    assert float(md.pml_envelope(kernel, p, 0.1 - 1e-3)) == pytest.approx(at, rel=1e-9, abs=0)
    values = []
    for h in STEPS:
        v = h / 0.9
        post = np.zeros((4, 3))  # columns z_a, z_b, rest
        post[0, 0] = post[1, 1] = 1.0
        post[2] = [v, 0, 1 - v]
        post[3] = [0, v, 1 - v]
        kz = kernel @ post
        assert float(p @ kz[:, :2].sum(axis=1)) == pytest.approx(0.1 + h, rel=1e-12, abs=0)
        leaks = _pml(kz, p)[:2]
        closed = math.log((0.2 + 0.4 * v) / (0.05 + 0.45 * v))
        np.testing.assert_allclose(leaks, [closed, closed], rtol=1e-12, atol=ATOL)
        value = float(md.pml_envelope(kernel, p, 0.1 + h))
        assert closed - 1e-9 <= value <= level + 1e-9
        values.append(value)
    assert values[0] < at - 1e-3  # a real change of regime: the envelope falls after 0.1
    _assert_right_limit(values, at)


# --------------------------------------------------------------------------------------
# Robust-LDP paper, Lemma 3: P_Y(y)/P'_Y(y) ≤ 1 + (e^ε − 1)‖P − P'‖₁/2 for ε-LDP Q
# --------------------------------------------------------------------------------------


def _own_ldp_level(k: np.ndarray) -> float:
    """max_y max_{x,x'} log K[x, y]/K[x', y] for a kernel with positive entries."""
    return float(np.max(np.log(k.max(axis=0)) - np.log(k.min(axis=0))))


@settings(max_examples=80)
@given(
    size=st.integers(2, 5),
    eps_rr=st.floats(0.05, 3.0),
    mix=st.floats(0.0, 1.0),
    data=st.data(),
)
def test_robust_ldp_lemma3_output_ratio_bound(size, eps_rr, mix, data):
    """Robust-LDP paper, Lemma 3 (eqs. 64-68): for an ε-LDP Q and P, P' on its inputs,
    P_Y(y)/P'_Y(y) ≤ 1 + (e^ε − 1)‖P − P'‖₁/2 for all y, and in the proof (67)
    P_Y(y) − P'_Y(y) ≤ (e^ε − 1) min_x Q(y|x) ‖P − P'‖₁/2. Q mixes k-RR with random
    positive rows; ε is Q's exact LDP level, computed here with numpy."""
    rows = np.array([data.draw(distributions(size, allow_zeros=False)) for _ in range(size)])
    k = (1 - mix) * md.randomized_response(size, eps_rr).matrix + mix * rows
    eps = _own_ldp_level(k)
    assert md.ldp_level(k) == pytest.approx(eps, rel=RTOL, abs=ATOL)
    p = data.draw(distributions(size))
    p_other = data.draw(distributions(size))
    l1 = float(np.abs(p - p_other).sum())
    p_y, p_other_y = p @ k, p_other @ k
    bound = 1 + math.expm1(eps) * l1 / 2
    assert np.all(p_y / p_other_y <= bound * (1 + 1e-12))
    assert np.all(p_y - p_other_y <= math.expm1(eps) * k.min(axis=0) * l1 / 2 + 1e-15)


@pytest.mark.parametrize("eps", [0.1, 1.0, math.log(3), 4.0])
@pytest.mark.parametrize("t", [0.0, 0.25, 0.5, 1.0])
def test_robust_ldp_lemma3_is_tight_for_randomized_response(eps, t):
    """Robust-LDP paper, Lemma 3 holds with equality for k-RR (ε-LDP exactly):
    P' = e_1, P = (1 − t)e_1 + t e_0, y = 0. Then P_Y(0)/P'_Y(0) = 1 + t(α/β − 1)
    = 1 + t(e^ε − 1), and ‖P − P'‖₁ = 2t; t = 1 is the point-mass pair with ratio e^ε."""
    k = md.randomized_response(3, eps).matrix
    assert _own_ldp_level(k) == pytest.approx(eps, rel=1e-12, abs=ATOL)
    p_other = np.array([0.0, 1.0, 0.0])
    p = np.array([t, 1 - t, 0.0])
    l1 = float(np.abs(p - p_other).sum())
    assert l1 == pytest.approx(2 * t, rel=1e-12, abs=0)
    ratio = float((p @ k)[0] / (p_other @ k)[0])
    bound = 1 + math.expm1(eps) * l1 / 2
    assert ratio == pytest.approx(bound, rel=1e-12, abs=0)
    if t == 1.0:  # exact: a parameter of the test grid
        assert ratio == pytest.approx(math.exp(eps), rel=1e-12, abs=0)
