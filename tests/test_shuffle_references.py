"""Independent reference tests for md.shuffle_delta / md.shuffle_epsilon.

The oracles here are written from first principles, without reading
mechdesign/accounting/shuffle.py:

- :func:`brute_force_shuffle_delta`: the exact δ(ε) of the shuffled histogram of n users'
  reports, worst case over the other n − 1 users' inputs (every multiset) and over the ordered
  pair (x, x′) of the replaced user's input. Poisson-binomial DP for two outputs, a dense
  histogram convolution for more.
- :func:`variation_ratio_pq`: the pair (P′, Q′) of Wang et al. (VLDB 2024, "variation-ratio
  reduction") as a plain 2-D array over the counts (a, b), and δ(ε) = Σ max(0, P′ − e^ε Q′).
- The published numbers of Feldman, McMillan & Talwar's clone analysis
  (apple/ml-shuffling-amplification README: n = 1e5, ε0 = 4, δ = 1e-6).
"""

from __future__ import annotations

import functools
import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy.special import gammaln

import mechdesign as md

# ---------------------------------------------------------------------------------------------
# Oracle 1: brute force over every multiset of the other users' inputs.
# ---------------------------------------------------------------------------------------------


def _poisson_binomial(probs) -> np.ndarray:
    """Distribution of the number of successes of independent Bernoulli(probs)."""
    dist = np.array([1.0])
    for p in probs:
        new = np.zeros(dist.size + 1)
        new[:-1] += (1.0 - p) * dist
        new[1:] += p * dist
        dist = new
    return dist


def _add_user(hist: np.ndarray, row: np.ndarray) -> np.ndarray:
    """Convolve a distribution over histograms (array indexed by the count of each output,
    each axis of length n + 1) with one more user reporting output y with probability row[y]."""
    m = hist.ndim
    new = np.zeros_like(hist)
    for y in range(m):
        dst = [slice(None)] * m
        src = [slice(None)] * m
        dst[y] = slice(1, None)
        src[y] = slice(0, -1)
        new[tuple(dst)] += row[y] * hist[tuple(src)]
    return new


def _hockey_stick(p: np.ndarray, q: np.ndarray, eps: np.ndarray) -> np.ndarray:
    """Σ max(0, p − e^ε q) for each ε in eps (1-D), p and q flattened."""
    p = p.ravel()
    q = q.ravel()
    return np.array([np.maximum(0.0, p - math.exp(e) * q).sum() for e in eps])


def _brute_force(K: np.ndarray, n: int, eps: np.ndarray, *, force_general: bool) -> np.ndarray:
    N, M = K.shape
    best = np.zeros(eps.size)
    for others in itertools.combinations_with_replacement(range(N), n - 1):
        if M == 2 and not force_general:
            base = _poisson_binomial([K[x, 1] for x in others])
            # the replaced user's contribution, for each of its N possible inputs
            full = []
            for x in range(N):
                d = np.zeros(n + 1)
                d[:-1] += K[x, 0] * base
                d[1:] += K[x, 1] * base
                full.append(d)
        else:
            base = np.zeros((n + 1,) * M)
            base[(0,) * M] = 1.0
            for x in others:
                base = _add_user(base, K[x])
            full = [_add_user(base, K[x]) for x in range(N)]
        for x, x2 in itertools.permutations(range(N), 2):
            best = np.maximum(best, _hockey_stick(full[x], full[x2], eps))
    return best


@functools.cache
def _brute_force_cached(key: bytes, shape: tuple[int, int], n: int, eps: tuple[float, ...],
                        force_general: bool) -> tuple[float, ...]:
    K = np.frombuffer(key, dtype=float).reshape(shape)
    return tuple(_brute_force(K, n, np.array(eps), force_general=force_general))


def brute_force_shuffle_delta(K, n: int, eps, *, force_general: bool = False):
    """Exact δ(ε) of the shuffled n-user histogram under replacement of one user's input.

    ``eps`` a float gives a float; a sequence gives an array."""
    K = np.ascontiguousarray(np.asarray(getattr(K, "matrix", K), dtype=float))
    scalar = np.ndim(eps) == 0
    eps_t = tuple(float(e) for e in np.atleast_1d(eps))
    out = np.array(_brute_force_cached(K.tobytes(), K.shape, int(n), eps_t, force_general))
    return float(out[0]) if scalar else out


# ---------------------------------------------------------------------------------------------
# Oracle 2: Wang et al. (VLDB 2024) variation-ratio pair (P', Q'), as a plain 2-D sum.
# ---------------------------------------------------------------------------------------------


def variation_ratio_pq(n: int, p: float, beta: float, q: float) -> tuple[np.ndarray, np.ndarray]:
    """P′(a, b) and Q′(a, b) over a window of counts that holds all but ~1e-40 of the mass.

    The other n − 1 users: C ~ Bin(n − 1, 2r), A | C ~ Bin(C, 1/2), B = C − A, i.e. (A, B)
    multinomial with probabilities (r, r); the replaced user adds to a with probability p·α,
    to b with probability α, to neither with 1 − α − p·α (Q′ swaps a and b)."""
    alpha = beta / (p - 1.0)
    r = alpha * p / q
    stay = max(0.0, 1.0 - alpha - p * alpha)
    m = n - 1
    mu = m * r
    sd = math.sqrt(m * r * (1.0 - r))
    lo = max(0, math.floor(mu - 15 * sd - 5))
    hi = min(m + 1, math.ceil(mu + 15 * sd + 5))
    a = np.arange(lo - 1, hi + 1)  # one below the window for the shifted terms
    A, B = np.meshgrid(a, a, indexing="ij")
    rest = m - A - B
    valid = (A >= 0) & (B >= 0) & (rest >= 0)
    Ac, Bc, Rc = np.where(valid, A, 0), np.where(valid, B, 0), np.where(valid, rest, 0)
    log_r = (gammaln(m + 1) - gammaln(Ac + 1) - gammaln(Bc + 1) - gammaln(Rc + 1)
             + (Ac + Bc) * math.log(r) + Rc * math.log1p(-2.0 * r))
    R = np.where(valid, np.exp(np.where(valid, log_r, -np.inf)), 0.0)
    r_ab = R[1:, 1:]
    r_a1 = R[:-1, 1:]  # R(a − 1, b)
    r_b1 = R[1:, :-1]  # R(a, b − 1)
    P = p * alpha * r_a1 + alpha * r_b1 + stay * r_ab
    Q = alpha * r_a1 + p * alpha * r_b1 + stay * r_ab
    return P, Q


def variation_ratio_delta(n: int, p: float, beta: float, q: float, eps: float) -> float:
    P, Q = variation_ratio_pq(n, p, beta, q)
    return float(np.maximum(0.0, P - math.exp(eps) * Q).sum())


def variation_ratio_epsilon(n: int, p: float, beta: float, q: float, delta: float) -> float:
    """Smallest ε with δ(ε) ≤ delta, by bisection."""
    P, Q = variation_ratio_pq(n, p, beta, q)

    def d(e):
        return float(np.maximum(0.0, P - math.exp(e) * Q).sum())

    lo, hi = 0.0, math.log(p) + 1.0
    if d(lo) <= delta:
        return 0.0
    for _ in range(100):
        mid = 0.5 * (lo + hi)
        if d(mid) <= delta:
            hi = mid
        else:
            lo = mid
    return hi


def generic_params(eps0: float) -> tuple[float, float, float]:
    p = math.exp(eps0)
    return p, (p - 1.0) / (p + 1.0), p


def krr_params(k: int, eps0: float) -> tuple[float, float, float]:
    p = math.exp(eps0)
    return p, (p - 1.0) / (p + k - 1.0), p


# ---------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------


def rr2(eps0: float) -> np.ndarray:
    e = math.exp(eps0)
    return np.array([[e, 1.0], [1.0, e]]) / (e + 1.0)


def ldp_level(K: np.ndarray) -> float:
    """The smallest ε0 for which K is ε0-LDP (K strictly positive)."""
    return float(np.max(np.log(K.max(axis=0) / K.min(axis=0))))


def _random_kernel(seed: int, n_in: int, n_out: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    k = rng.uniform(0.05, 1.0, size=(n_in, n_out))
    return k / k.sum(axis=1, keepdims=True)


BINARY_KERNELS = {
    "rr2_eps0.5": rr2(0.5),
    "rr2_eps1": rr2(1.0),
    "rr2_eps2": rr2(2.0),
    "rand2x2_a": _random_kernel(1, 2, 2),
    "rand2x2_b": _random_kernel(2, 2, 2),
    "rand3x2_a": _random_kernel(3, 3, 2),
    "rand3x2_b": _random_kernel(4, 3, 2),
}
EPSILONS = (0.05, 0.2, 0.5, 1.0, 1.5)


def _check_validity(bounds: dict, exact: float, label: str) -> None:
    """Every bound is at least the true δ (all violations are reported, not just the first)."""
    assert bounds, f"{label}: empty .bounds"
    low = {name: value for name, value in bounds.items() if not value >= exact - 1e-12}
    assert not low, f"{label}: bounds below the exact delta {exact!r}: {low}"


# ---------------------------------------------------------------------------------------------
# Self-checks of the oracles (no library involved beyond randomized_response)
# ---------------------------------------------------------------------------------------------


def test_oracle_poisson_binomial_matches_general_convolution():
    for name in ("rr2_eps1", "rand3x2_a"):
        K = BINARY_KERNELS[name]
        for n in (1, 2, 5, 7):
            a = brute_force_shuffle_delta(K, n, EPSILONS)
            b = brute_force_shuffle_delta(K, n, EPSILONS, force_general=True)
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-15)


def test_oracle_n1_is_local_hockey_stick():
    K = _random_kernel(7, 3, 3)
    for eps in EPSILONS:
        local = max(np.maximum(0.0, K[x] - math.exp(eps) * K[x2]).sum()
                    for x, x2 in itertools.permutations(range(3), 2))
        assert brute_force_shuffle_delta(K, 1, eps) == pytest.approx(local, rel=1e-12, abs=1e-15)


def test_oracle_randomized_response_matrix_convention():
    k, eps0 = 4, 1.3
    K = md.randomized_response(k, eps0).matrix
    e = math.exp(eps0)
    expected = np.full((k, k), 1.0 / (e + k - 1))
    np.fill_diagonal(expected, e / (e + k - 1))
    np.testing.assert_allclose(K, expected, rtol=1e-12)


def test_oracle_variation_ratio_dominates_brute_force_for_binary_rr():
    # For binary RR the generic parameters are its own; Wang et al.'s δ is an upper bound.
    for eps0 in (0.5, 1.0, 2.0):
        for n in (5, 12, 30):
            exact = brute_force_shuffle_delta(rr2(eps0), n, EPSILONS)
            for e, ex in zip(EPSILONS, exact, strict=True):
                vr = variation_ratio_delta(n, *generic_params(eps0), e)
                assert vr >= ex - 1e-12, (eps0, n, e, vr, ex)


def test_oracle_variation_ratio_masses():
    P, Q = variation_ratio_pq(1000, *krr_params(10, 2.0))
    assert P.sum() == pytest.approx(1.0, abs=1e-12)
    assert Q.sum() == pytest.approx(1.0, abs=1e-12)


# ---------------------------------------------------------------------------------------------
# a. Two-output kernels: "exact" equals brute force, every bound is valid.
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [5, 12, 30])
@pytest.mark.parametrize("name", list(BINARY_KERNELS))
def test_exact_matches_brute_force_two_outputs(name, n):
    K = BINARY_KERNELS[name]
    exact = brute_force_shuffle_delta(K, n, EPSILONS)
    for eps, ex in zip(EPSILONS, exact, strict=True):
        res = md.shuffle_delta(K, n, eps)
        label = f"{name} n={n} eps={eps}"
        assert "exact" in res.bounds, f"{label}: no 'exact' bound, bounds={res.bounds}"
        assert res.bounds["exact"] == pytest.approx(ex, rel=1e-8, abs=1e-12), label
        _check_validity(res.bounds, ex, label)
        assert res.delta == pytest.approx(ex, rel=1e-8, abs=1e-12), label


@pytest.mark.parametrize("eps0", [0.5, 1.0, 2.0])
def test_mechanism_and_array_inputs_agree(eps0):
    K = rr2(eps0)
    a = md.shuffle_delta(K, 12, 0.3)
    b = md.shuffle_delta(md.Mechanism(K), 12, 0.3)
    c = md.shuffle_delta(md.randomized_response(2, eps0), 12, 0.3)
    assert a.delta == pytest.approx(b.delta, rel=1e-12, abs=1e-15)
    assert a.delta == pytest.approx(c.delta, rel=1e-10, abs=1e-15)


def test_result_attributes():
    K = BINARY_KERNELS["rand3x2_a"]
    res = md.shuffle_delta(K, 12, 0.4)
    assert float(res) == pytest.approx(res.delta, rel=1e-15, abs=0)
    assert res.epsilon == pytest.approx(0.4, rel=1e-15)
    assert res.n == 12
    assert isinstance(res.method, str)
    assert res.method in res.bounds
    assert res.delta == pytest.approx(min(res.bounds.values()), rel=1e-12, abs=1e-15)
    assert res.bounds[res.method] == pytest.approx(res.delta, rel=1e-12, abs=1e-15)

    e = md.shuffle_epsilon(K, 12, 1e-3)
    assert float(e) == pytest.approx(e.epsilon, rel=1e-15, abs=0)
    assert e.delta == pytest.approx(1e-3, rel=1e-15)
    assert e.n == 12
    assert e.method in e.bounds
    assert e.epsilon == pytest.approx(min(e.bounds.values()), rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("eps0", [0.5, 1.0, 2.0])
@pytest.mark.parametrize("n", [5, 12, 30])
def test_number_input_bounds_dominate_binary_rr(eps0, n):
    # "any eps0-LDP randomizer" includes binary randomized response.
    exact = brute_force_shuffle_delta(rr2(eps0), n, EPSILONS)
    for eps, ex in zip(EPSILONS, exact, strict=True):
        res = md.shuffle_delta(eps0, n, eps)
        _check_validity(res.bounds, ex, f"eps0={eps0} n={n} eps={eps}")


@pytest.mark.parametrize("n", [5, 12, 30])
@pytest.mark.parametrize("name", ["rr2_eps1", "rand2x2_a", "rand3x2_b"])
def test_epsilon_of_exact_is_valid_and_tight(name, n):
    K = BINARY_KERNELS[name]
    for delta in (1e-1, 1e-2, 1e-4):
        e = md.shuffle_epsilon(K, n, delta)
        label = f"{name} n={n} delta={delta} eps={e.epsilon} method={e.method}"
        assert brute_force_shuffle_delta(K, n, e.epsilon) <= delta * (1 + 1e-6), label
        if e.method == "exact" and e.epsilon > 1e-3:
            # slightly smaller ε must not reach δ: the exact ε is the smallest one
            assert brute_force_shuffle_delta(K, n, e.epsilon - 1e-4) > delta, label


# ---------------------------------------------------------------------------------------------
# b. Three-output kernels: every bound is valid.
# ---------------------------------------------------------------------------------------------

positive_3x3 = st.lists(st.floats(0.02, 1.0), min_size=9, max_size=9).map(
    lambda v: (lambda a: a / a.sum(axis=1, keepdims=True))(np.array(v).reshape(3, 3)))


@settings(max_examples=25, deadline=None)
@given(K=positive_3x3, n=st.sampled_from([3, 4, 5]), eps=st.floats(0.0, 2.0))
def test_bounds_valid_three_outputs(K, n, eps):
    exact = brute_force_shuffle_delta(K, n, eps)
    res = md.shuffle_delta(K, n, eps)
    _check_validity(res.bounds, exact, f"K={K.tolist()} n={n} eps={eps}")
    assert res.delta >= exact - 1e-12


@settings(max_examples=25, deadline=None)
@given(K=positive_3x3, n=st.sampled_from([3, 4, 5]), eps=st.floats(0.0, 2.0))
def test_number_input_bounds_dominate_three_output_kernel(K, n, eps):
    eps0 = ldp_level(K)
    exact = brute_force_shuffle_delta(K, n, eps)
    res = md.shuffle_delta(eps0, n, eps)
    _check_validity(res.bounds, exact, f"K={K.tolist()} eps0={eps0} n={n} eps={eps}")


def test_bounds_valid_fixed_three_output_kernels():
    for seed in range(4):
        K = _random_kernel(100 + seed, 3, 3)
        for n in (3, 4, 5, 6):
            exact = brute_force_shuffle_delta(K, n, EPSILONS)
            for eps, ex in zip(EPSILONS, exact, strict=True):
                res = md.shuffle_delta(K, n, eps)
                _check_validity(res.bounds, ex, f"seed={seed} n={n} eps={eps}")


@pytest.mark.parametrize("eps0", [0.5, 1.5, 3.0])
def test_bounds_valid_three_ary_randomized_response(eps0):
    K = md.randomized_response(3, eps0).matrix
    for n in (2, 3, 4, 5, 6):
        exact = brute_force_shuffle_delta(K, n, EPSILONS)
        for eps, ex in zip(EPSILONS, exact, strict=True):
            _check_validity(md.shuffle_delta(K, n, eps).bounds, ex,
                            f"3-RR eps0={eps0} n={n} eps={eps}")


def configuration_delta(K: np.ndarray, others: tuple[int, ...], x: int, x2: int,
                        eps: float) -> float:
    """δ(ε) of the shuffled histogram for ONE choice of the other users' inputs (``others[i]``
    users hold input i) and the replaced user's pair (x, x2): a lower bound on the worst case."""
    n = sum(others) + 1
    base = np.zeros((n + 1,) * K.shape[1])
    base[(0,) * K.shape[1]] = 1.0
    for value, count in enumerate(others):
        for _ in range(count):
            base = _add_user(base, K[value])
    P, Q = _add_user(base, K[x]), _add_user(base, K[x2])
    return float(_hockey_stick(P, Q, np.array([eps]))[0])


@pytest.mark.parametrize(("n", "eps"), [(10, 1.0), (20, 1.3), (50, 1.3)])
def test_bounds_dominate_one_configuration_three_ary_rr(n, eps):
    # 3-RR with ε0 = 1.5: all other users hold input 2, the replaced user holds 2 vs 0.
    K = md.randomized_response(3, 1.5).matrix
    lower = max(configuration_delta(K, (0, 0, n - 1), 2, 0, eps),
                configuration_delta(K, (4, n - 5, 0), 0, 2, eps) if n > 5 else 0.0)
    _check_validity(md.shuffle_delta(K, n, eps).bounds, lower, f"3-RR eps0=1.5 n={n} eps={eps}")


# ---------------------------------------------------------------------------------------------
# c. shuffle_epsilon and shuffle_delta agree.
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("K", "n", "delta"),
    [
        (rr2(1.0), 30, 1e-3),
        (BINARY_KERNELS["rand3x2_a"], 12, 1e-2),
        (_random_kernel(100, 3, 3), 5, 5e-2),
        (md.randomized_response(3, 1.5).matrix, 6, 1e-1),
        (2.0, 1000, 1e-6),
        (1.0, 10_000, 1e-8),
        (4.0, 10_000, 1e-6),
    ],
    ids=["rr2", "rand3x2", "rand3x3", "3rr", "num2_n1e3", "num1_n1e4", "num4_n1e4"],
)
def test_epsilon_delta_round_trip(K, n, delta):
    e = md.shuffle_epsilon(K, n, delta)
    d = md.shuffle_delta(K, n, e.epsilon)
    assert d.delta <= delta * (1 + 1e-6), (e.epsilon, e.method, d.delta, d.method, delta)


# ---------------------------------------------------------------------------------------------
# d. Wang et al.'s variation-ratio bound, recomputed.
# ---------------------------------------------------------------------------------------------


def test_variation_ratio_oracle_reference_values():
    # the values the brief quotes for the oracle itself
    assert variation_ratio_epsilon(10**5, *generic_params(4.0), 1e-6) == pytest.approx(
        0.1182, rel=5e-3)


def test_wang_theorem_with_a_common_part_fails_the_brute_force():
    """Erratum (mechdesign/accounting/shuffle.py's docstring): Wang et al.'s bound with
    1 − α − pα > 0 (here 3-ary RR, p = q = e^ε0, β = (e^ε0 − 1)/(e^ε0 + 2)) is below the
    exact δ, so the library does not use it; its own bound stays above the truth."""
    eps0, n, eps = 1.5, 3, 1.0
    K = md.randomized_response(3, eps0).matrix
    truth = brute_force_shuffle_delta(K, n, eps)
    wang = variation_ratio_delta(n, *krr_params(3, eps0), eps)
    assert wang < truth * 0.97, (wang, truth)
    assert md.shuffle_delta(K, n, eps).delta >= truth - 1e-12


@pytest.mark.parametrize(("k", "published"), [(10, 0.110), (100, 0.069)])
def test_wang_krr_values_recomputed_are_not_claimed(k, published):
    # Their formula at their k-RR parameters reproduces the published values; the library
    # does not report them (the common-part step fails the brute force above).
    mine = variation_ratio_epsilon(10**5, *krr_params(k, 4.0), 1e-6)
    assert mine == pytest.approx(published, rel=1e-2)
    assert md.shuffle_epsilon(md.randomized_response(k, 4.0), 10**5, 1e-6).epsilon > mine


@pytest.mark.parametrize("k", [2, 10, 100])
def test_krr_bound_is_the_formula_without_a_common_part(k):
    # k-RR's clone probability is 2/(e^ε0 + 1) (its own clones: min_x K/(P0 + P1) at the
    # two inputs' outputs), so its valid bound is Wang et al.'s formula at the generic
    # parameters, where 1 − α − pα = 0 — not their k-RR parameters (0.110, 0.069).
    mine = variation_ratio_epsilon(10**5, *generic_params(4.0), 1e-6)
    res = md.shuffle_epsilon(md.randomized_response(k, 4.0), 10**5, 1e-6)
    assert res.bounds["kernel"] == pytest.approx(mine, rel=1e-2), (res.bounds, mine)
    assert res.bounds["kernel"] == pytest.approx(0.1182, rel=3e-3)


@pytest.mark.parametrize("k", [3, 10])
def test_krr_delta_matches_formula_without_a_common_part_moderate_n(k):
    n, eps0 = 1000, 2.0
    K = md.randomized_response(k, eps0)
    for eps in (0.2, 0.5):
        mine = variation_ratio_delta(n, *generic_params(eps0), eps)
        res = md.shuffle_delta(K, n, eps)
        assert res.bounds["kernel"] <= mine * (1 + 1e-2) + 1e-15, (k, eps, res.bounds, mine)


# ---------------------------------------------------------------------------------------------
# e. Published value of the FMT clone analysis.
# ---------------------------------------------------------------------------------------------

FMT_LOWER = 0.1675385583317841
FMT_UPPER = 0.172790550755978


def test_clones_matches_published_fmt_value():
    res = md.shuffle_epsilon(4.0, 10**5, 1e-6)
    assert "clones" in res.bounds, res.bounds
    assert 0.1675 <= res.bounds["clones"] <= 0.1728 * 1.001, res.bounds
    assert res.epsilon <= 0.1728, (res.epsilon, res.method, res.bounds)


# ---------------------------------------------------------------------------------------------
# f. Monotonicity.
# ---------------------------------------------------------------------------------------------

_MONO_TOL = 1e-6


def _not_above(a: float, b: float) -> bool:
    return a <= b * (1 + _MONO_TOL) + 1e-12


@pytest.mark.parametrize("eps0", [1.0, 3.0])
def test_epsilon_non_increasing_in_n(eps0):
    values = [md.shuffle_epsilon(eps0, n, 1e-6).epsilon for n in (200, 1000, 5000, 20_000)]
    for a, b in itertools.pairwise(values):
        assert _not_above(b, a), values


@pytest.mark.parametrize("eps0", [1.0, 3.0])
def test_epsilon_non_increasing_in_delta(eps0):
    values = [md.shuffle_epsilon(eps0, 5000, d).epsilon for d in (1e-9, 1e-7, 1e-5, 1e-3)]
    for a, b in itertools.pairwise(values):
        assert _not_above(b, a), values


@pytest.mark.parametrize("n", [1000, 10_000])
def test_epsilon_non_decreasing_in_eps0(n):
    values = [md.shuffle_epsilon(e0, n, 1e-6).epsilon for e0 in (0.5, 1.0, 2.0, 3.0, 4.0)]
    for a, b in itertools.pairwise(values):
        assert _not_above(a, b), values


@settings(max_examples=20, deadline=None)
@given(eps0=st.floats(0.2, 4.0), n=st.integers(50, 5000), delta=st.floats(1e-9, 1e-2),
       factor=st.floats(1.0, 3.0))
def test_monotonicity_random(eps0, n, delta, factor):
    base = md.shuffle_epsilon(eps0, n, delta).epsilon
    more_users = md.shuffle_epsilon(eps0, int(n * factor), delta).epsilon
    larger_delta = md.shuffle_epsilon(eps0, n, min(delta * factor, 0.5)).epsilon
    larger_eps0 = md.shuffle_epsilon(eps0 * factor, n, delta).epsilon
    assert _not_above(more_users, base), (base, more_users)
    assert _not_above(larger_delta, base), (base, larger_delta)
    assert _not_above(base, larger_eps0), (base, larger_eps0)


@pytest.mark.parametrize("name", ["rr2_eps1", "rand3x2_a"])
def test_delta_non_increasing_in_n_and_epsilon_two_outputs(name):
    K = BINARY_KERNELS[name]
    grid = {n: [md.shuffle_delta(K, n, e).delta for e in EPSILONS] for n in (5, 12, 30)}
    for row in grid.values():
        for a, b in itertools.pairwise(row):
            assert _not_above(b, a), grid
    for a, b in itertools.pairwise(grid.values()):
        for x, y in zip(a, b, strict=True):
            assert _not_above(y, x), grid
