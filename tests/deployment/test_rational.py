"""md.rational_mechanism: an exact integer kernel whose LDP level is certified in integer
arithmetic.

Every check here is independent of the implementation: the bound on ``e^ε`` is this file's
own (``decimal``'s correctly rounded ``exp`` at 50 digits, stepped down two units in the last
place), the ratio, the distance and the utility loss are recomputed from ``.numerators`` with
``fractions.Fraction`` and Python ints, and the sampler is tested against the rational law by
a chi-squared test and by exact support checks.

The rational kernel's JSON: an exact round trip, certified again on loading, and
refusals by name (Mechanism's JSON is tested in tests/test_kernel.py).
"""

from __future__ import annotations

import decimal
import json
import math
import re
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy import stats

import mechdesign as md
from mechdesign.errors import InvalidInputError
from tests.helpers import K2, K3, K23, K32, kernels

_DIGITS = decimal.Context(prec=50)


def _names(message: str, name: str) -> bool:
    return re.search(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", message) is not None


#: Beyond this, e^ε overflows even Decimal; e^1000 is still a lower bound of e^ε there, and
#: far above every ratio of counts below 2^62 (≈ e^43).
_EXP_CAP = 1000.0


def exp_lower(eps: float) -> Fraction:
    """A rational ``b ≤ e^eps``: Decimal.exp is correctly rounded (half-even) at 50 digits,
    so two steps down land below the true value; ``e^0 = 1`` is the one exact case."""
    if eps == 0:  # exact: e^0 is the one rational value of e^eps
        return Fraction(1)
    eps = min(eps, _EXP_CAP)
    return Fraction(decimal.Decimal(eps).exp(_DIGITS).next_minus(_DIGITS).next_minus(_DIGITS))


def exp_upper(value: float) -> Fraction:
    """A rational ``b ≥ e^value`` (same construction, stepped up)."""
    if value == 0:  # exact: e^0 is the one rational value
        return Fraction(1)
    return Fraction(decimal.Decimal(value).exp(_DIGITS).next_plus(_DIGITS).next_plus(_DIGITS))


def test_own_exp_bounds_bracket_e():
    for eps in (1e-9, 0.1, 1.0, 5.0, 700.0, 710.0):
        low, high = exp_lower(eps), exp_upper(eps)
        assert low < high
        if eps < 700:
            assert float(low) <= math.exp(eps) * (1 + 1e-15)
            assert float(high) >= math.exp(eps) * (1 - 1e-15)
    # 1 + x + x²/2 < e^x < 1/(1 − x) for 0 < x < 1: the bracket agrees with two bounds
    # derived without any exp routine.
    x = Fraction(1, 10)
    assert 1 + x + x * x / 2 < exp_lower(0.1)
    assert exp_upper(0.1) < 1 / (1 - Fraction(0.1))


def _as_array(K) -> np.ndarray:
    return np.asarray(K.matrix if isinstance(K, md.Mechanism) else K, dtype=float)


def exact_ratio(rows: list[list[int]]) -> Fraction | None:
    """Largest n[x,y]/n[x',y] over columns; None (infinite) if a column mixes zero and
    nonzero; all-zero columns are ignored (0/0)."""
    best = Fraction(1)
    for column in zip(*rows, strict=True):
        if max(column) == 0:
            continue
        if min(column) == 0:
            return None
        best = max(best, Fraction(max(column), min(column)))
    return best


def check_exact(rm, K, eps: float, bits: int) -> list[list[int]]:
    """Item 1 of the specification, in exact arithmetic. Returns the numerators as ints."""
    k = _as_array(K)
    D = rm.denominator
    assert type(D) is int
    assert D == 2**bits  # noqa: SIM300
    n = rm.numerators
    assert isinstance(n, np.ndarray)
    assert n.dtype == np.int64
    assert n.shape == k.shape
    rows = [[int(v) for v in row] for row in n.tolist()]
    assert all(v >= 0 for row in rows for v in row)
    assert all(sum(row) == D for row in rows), "a row does not sum to the denominator"
    assert rm.epsilon == eps  # exact: the requested value echoed back
    assert 0.0 <= rm.mixture < 1.0
    matrix = np.asarray(rm.matrix)
    np.testing.assert_allclose(matrix, n.astype(float) / D, rtol=2.0**-52, atol=0)
    assert isinstance(rm.mechanism, md.Mechanism)
    np.testing.assert_allclose(rm.mechanism.matrix, matrix, rtol=2.0**-52, atol=0)
    ratio = exact_ratio(rows)
    if math.isinf(eps):
        # Every kernel qualifies; a zero entry of K has nothing to mix with when no mixing
        # is needed, and rounding never moves 0: zeros stay where they were.
        assert all(rows[x][y] == 0 for x, y in zip(*np.nonzero(k == 0), strict=True))
        if ratio is None:
            assert math.isinf(rm.level)
        else:
            assert rm.ratio == ratio
        return rows
    assert ratio is not None, "a column has both a zero and a nonzero numerator"
    b = exp_lower(eps)
    for column in zip(*rows, strict=True):
        if max(column) == 0:
            continue
        # n[x,y]·b_den ≤ b_num·n[x',y] for every pair is the max-vs-min comparison.
        assert max(column) * b.denominator <= b.numerator * min(column)
    assert isinstance(rm.ratio, Fraction)
    assert rm.ratio == ratio
    assert ratio <= b
    assert rm.level <= eps
    # level ≥ log(ratio) up to a few ulps here; exactly in test_level_bounds_log_ratio_exactly.
    assert rm.level >= math.log(ratio) * (1 - 4 * 2.0**-52)
    return rows


def _mi_uniform(k: np.ndarray) -> float:
    """I(X;Y) in nats at the uniform prior, computed here (not by the library)."""
    k = np.asarray(k, dtype=float)
    py = k.mean(axis=0)
    positive = k > 0
    ratio = np.divide(k, py, out=np.ones_like(k), where=positive)
    terms = np.where(positive, k * np.log(ratio), 0.0)
    return float(terms.sum() / k.shape[0])


def _binary_entropy(t: float) -> float:
    return 0.0 if t <= 0 else -t * math.log(t) - (1 - t) * math.log1p(-t)


def check_close(rm, K, rows: list[list[int]]) -> None:
    """Item 2: distance and utility loss, recomputed and bounded."""
    k = _as_array(K)
    D = rm.denominator
    M = k.shape[1]
    mine = max(
        sum(abs(Fraction(float(p)) - Fraction(v, D)) for p, v in zip(krow, row, strict=True)) / 2
        for krow, row in zip(k.tolist(), rows, strict=True)
    )
    assert abs(rm.distance - float(mine)) <= 1e-12
    # Mixing moves a row by mixture·TV(K_x, U) ≤ mixture; rounding moves each entry by less
    # than one count, except that a positive entry below one count is raised to one and
    # each such unit is taken from a largest entry (one more count there): at most
    # (M + F)/(2D) < M/D in total variation for F < M raised entries.
    assert rm.distance <= rm.mixture + M / D + 1e-12
    rational = np.array(rows, dtype=float) / D
    lost = _mi_uniform(k) - _mi_uniform(rational)
    assert abs(rm.utility_lost - lost) <= 1e-10
    # Mixing with the uniform kernel is post-processing by (1−λ)I + λ·11ᵀ/M, so it cannot
    # raise the mutual information (data processing). Rounding can, a little: each row and
    # the output law move by T < M/D in TV, and by Fannes–Audenaert each entropy moves by
    # at most T·log(M−1) + h(T), so I = H(Y) − H(Y|X) rises by at most twice that. (The
    # brief's ``utility_lost ≥ −1e-12`` holds only where rounding is exact: see
    # test_dyadic_kernel_with_slack_is_kept_exactly.)
    T = min(M / D, 0.5)
    rounding = 2 * (T * math.log(max(M - 1, 1)) + _binary_entropy(T))
    assert rm.utility_lost >= -rounding - 1e-12


def certify(K, eps: float, bits: int = 32):
    rm = md.rational_mechanism(K, eps, bits=bits)
    rows = check_exact(rm, K, eps, bits)
    check_close(rm, K, rows)
    return rm


def krr(k: int, eps: float) -> np.ndarray:
    return np.asarray(md.randomized_response(k, eps).matrix)


ZERO_COLUMN = np.array([[0.5, 0.5, 0.0], [0.3, 0.7, 0.0], [0.9, 0.1, 0.0]])
ZERO_INSIDE = np.array([[0.5, 0.0, 0.5], [0.25, 0.0, 0.75]])
TINY = np.array([[1.0, 1e-300], [1e-300, 1.0]])  # rows sum to 1.0 in floating point


# -- attributes and exactness on fixed kernels -------------------------------------------


def test_attributes_have_the_specified_types():
    eps = md.ldp_level(K3) * 1.5
    rm = md.rational_mechanism(K3, eps)
    assert isinstance(rm, md.deployment.RationalMechanism)
    assert rm.denominator == 2**32
    for name in ("level", "mixture", "distance", "utility_lost"):
        assert isinstance(getattr(rm, name), float), name
    assert rm.epsilon == eps  # exact: the requested value echoed back
    assert rm.matrix.shape == K3.shape
    np.testing.assert_allclose(rm.matrix.sum(axis=1), 1.0, rtol=0, atol=1e-15)


@pytest.mark.parametrize("bits", [8, 16, 32, 53, 56, 62])
@pytest.mark.parametrize("factor", [1.0, 1.01, 2.0])
@pytest.mark.parametrize(
    "K",
    [K2, K3, K32, K23, ZERO_COLUMN, ZERO_INSIDE],
    ids=["K2", "K3", "K32", "K23", "zero-column", "zero-inside"],
)
def test_exact_checks_on_fixed_kernels(K, factor, bits):
    certify(K, md.ldp_level(K) * factor, bits)


def test_mechanism_input_gives_the_same_result_as_its_matrix():
    eps = md.ldp_level(K3)
    from_array = md.rational_mechanism(K3, eps)
    from_mechanism = md.rational_mechanism(md.Mechanism(K3), eps)
    np.testing.assert_array_equal(from_array.numerators, from_mechanism.numerators)
    again = md.rational_mechanism(K3, eps)
    np.testing.assert_array_equal(from_array.numerators, again.numerators)


def level_bounds_log_ratio(rm) -> bool:
    """``level ≥ log(ratio)`` ⇔ ``e^level ≥ ratio``, decided exactly."""
    if math.isinf(rm.level) or rm.level >= _EXP_CAP:  # e^level > 2^62 > any count ratio
        return True
    return rm.ratio <= exp_upper(rm.level)


@pytest.mark.parametrize(
    ("K", "bits"),
    [
        (np.array([[0.4, 0.6], [1 / 3, 2 / 3]]), 16),  # found by hypothesis
        (K3, 8),
        (K3, 16),
        (K3, 32),
        (K32, 16),
        (K32, 32),
        (krr(3, 1.0), 16),
        (krr(3, 1.0), 32),
    ],
)
def test_level_bounds_log_ratio_exactly(K, bits):
    """The certified level is a float ≥ log(ratio): a level rounded to nearest can sit
    half an ulp below log(ratio), and then it understates the certified loss."""
    rm = md.rational_mechanism(K, md.ldp_level(K), bits=bits)
    assert level_bounds_log_ratio(rm), (
        rm.ratio, rm.level, str(decimal.Decimal(rm.ratio.numerator).ln(_DIGITS)
                                - decimal.Decimal(rm.ratio.denominator).ln(_DIGITS)))


def entry_moves(rm, K) -> list[float]:
    """Counts by which each numerator differs from D·((1−λ)K + λ/M), exactly."""
    k = _as_array(K)
    D, M, lam = rm.denominator, k.shape[1], Fraction(rm.mixture)
    return [
        float(abs(int(v) - D * ((1 - lam) * Fraction(p) + lam / M)))
        for krow, row in zip(k.tolist(), rm.numerators.tolist(), strict=True)
        for p, v in zip(krow, row, strict=True)
    ]


@pytest.mark.parametrize(
    ("K", "bits"),
    [(K3, 8), (K3, 32), (krr(5, 1.0), 16), (np.array([[1 / 3, 1 / 3, 1 / 3],
                                                       [0.999998, 1e-6, 1e-6]]), 16)],
    ids=["K3-8", "K3-32", "krr5-16", "tiny-16"],
)
def test_rounding_moves_each_entry_by_less_than_one_count(K, bits):
    """The premise of the distance bound. "tiny-16" was found by hypothesis: row 1 is
    65535.87, 0.066, 0.066 counts; floor or ceil of each entry would zero the tiny ones (a
    column with a zero and a positive count). The library raises them to one count at
    mixture 0 (documented in rational_mechanism's rounding) and takes the units from the
    largest entry, which then moves ~1.9 counts: within one count plus one per raised
    entry. (No worse than mixing: a mixture λ ≈ 3/D would cost ≈ 2λ/3 ≈ 3e-5 in TV.)"""
    rm = certify(K, md.ldp_level(K), bits=bits)
    k = _as_array(K)
    raised = int(np.count_nonzero((k > 0) & (k * rm.denominator < 1)))
    # The mixture is a float the library may form with error ≈ D·2^-52 counts: tiny here.
    assert max(entry_moves(rm, K)) < 1 + raised + 1e-6


# -- slack and no slack ------------------------------------------------------------------


@pytest.mark.parametrize("k", [2, 3, 5, 10])
def test_slack_needs_no_mixture(k):
    K = krr(k, 1.0)
    rm = certify(K, 1.01)
    assert rm.mixture == 0.0  # exact: "as small as works" and no mixing works
    # k-RR is rounded as a blanket plus one spike: the k − 1 floored entries give their
    # fractions (each below one unit) to the spike, so TV < (k − 1) units
    assert rm.distance <= (k - 1) / 2**32
    n = rm.numerators
    assert len(set(n[~np.eye(k, dtype=bool)].tolist())) == 1   # the structure, exactly
    assert len(set(np.diag(n).tolist())) == 1


@pytest.mark.parametrize(
    "K",
    [K2, np.array([[0.5, 0.25, 0.25], [0.125, 0.375, 0.5]])],
    ids=["K2", "dyadic-2x3"],
)
def test_dyadic_kernel_with_slack_is_kept_exactly(K):
    """Entries that are multiples of 2^-bits need no rounding and no mixing: the rational
    kernel is K itself, so distance and utility_lost vanish (up to float summation)."""
    rm = certify(K, md.ldp_level(K) * 1.5, bits=16)
    assert rm.mixture == 0.0  # exact: no mixing is needed
    np.testing.assert_array_equal(rm.numerators, (K * 2**16).astype(np.int64))
    assert rm.distance <= 1e-15
    assert abs(rm.utility_lost) <= 1e-12


@pytest.mark.parametrize("eps", [0.1, 0.5, 1.0, 2.0, 5.0, 10.0])
@pytest.mark.parametrize("k", [2, 3, 7])
def test_no_slack_still_succeeds_with_a_small_mixture(k, eps):
    """k-RR requested at its own level has no slack: rounding may push a ratio above e^ε,
    and a tiny mixture pulls it back. check_exact verifies the level ≤ ε in integers.

    The float k-RR built at ε can have md.ldp_level a few ulps above ε (e.g. k = 2,
    ε = 0.1 gives 0.10000000000000009), and the contract refuses LDP(K) > ε, so ε here
    is the kernel's own computed level: no slack at all, and no ambiguity."""
    K = krr(k, eps)
    level = md.ldp_level(K)
    assert abs(level - eps) <= 1e-12
    rm = certify(K, level)
    assert rm.mixture <= 1e-6


@pytest.mark.parametrize("eps", [0.1, 0.5, 1.0, 10.0])
@pytest.mark.parametrize("k", [2, 7])
def test_krr_at_its_nominal_epsilon(k, eps):
    """Requested at the nominal ε, k-RR certifies exactly, with a small mixture, even
    where its float level exceeds ε by an ulp (rounding in its construction: the library
    tries such kernels and lets the exact check decide)."""
    K = krr(k, eps)
    rm = md.rational_mechanism(K, eps)
    rows = check_exact(rm, K, eps, 32)
    check_close(rm, K, rows)
    assert rm.mixture <= 1e-6


def test_identical_rows_at_epsilon_zero():
    # LDP(K) = 0 and ε = 0: identical rows round to identical integer rows, ratio exactly 1.
    K = np.array([[0.2, 0.3, 0.5]] * 4)
    rm = certify(K, 0.0)
    assert rm.ratio == 1
    assert rm.level <= 0.0


# -- refusals ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("K", "eps"),
    [
        (K3, md.ldp_level(K3) * 0.9),
        (K2, 0.0),
        (np.array([[1.0, 0.0], [0.5, 0.5]]), 50.0),  # level ∞: a column mixes 0 and > 0
        (K3, -0.1),
        (K3, math.nan),
    ],
    ids=["below-level", "zero", "infinite-level", "negative", "nan"],
)
def test_refuses_epsilon_below_the_level(K, eps):
    with pytest.raises(md.InvalidInputError) as info:
        md.rational_mechanism(K, eps)
    assert _names(str(info.value), "epsilon"), str(info.value)


@pytest.mark.parametrize("bits", [7, 63, 0, -1, 64, 32.5, "32", None, True],
                         ids=repr)
def test_refuses_bad_bits(bits):
    with pytest.raises(md.InvalidInputError) as info:
        md.rational_mechanism(K3, md.ldp_level(K3), bits=bits)
    assert _names(str(info.value), "bits"), str(info.value)


def test_accepts_numpy_integer_bits():
    certify(K3, md.ldp_level(K3), bits=np.int64(16))


# -- extreme but valid input -------------------------------------------------------------


def test_epsilon_700_with_entries_1e_300_succeeds():
    """LDP(TINY) = log(1e300) ≈ 690.8 ≤ 700, so the input is valid. Any rational kernel with
    denominator 2^bits whose columns are all positive has ratio < 2^bits, i.e. level
    < 22.2 nats at bits = 32, far below 700: a certifiable kernel exists (e.g. the entry
    1e-300 rounded up to one count), so refusing would be wrong. The entry 1e-300 must
    become a positive count: zero would mix 0 and > 0 in its column (level ∞)."""
    for bits in (8, 32, 62):
        rm = certify(TINY, 700.0, bits)
        assert rm.numerators.min() >= 1
        assert rm.level <= bits * math.log(2) + 1e-12  # ratio ≤ 2^bits − 1


def test_epsilon_700_with_tiny_entries_among_others():
    K = np.array([[1e-300, 0.5, 0.5], [0.25, 1e-300, 0.75], [0.5, 0.5, 1e-300]])
    assert md.ldp_level(K) < 700
    rm = certify(K, 700.0)
    assert rm.numerators.min() >= 1


@pytest.mark.parametrize("eps", [709.9, 710.0, 1e4, 1e300])
def test_epsilon_beyond_float_exp_succeeds(eps):
    # e^ε overflows a float from ε ≈ 709.78 on, but the certificate only needs a rational
    # lower bound of e^ε, and every ratio of positive counts is < 2^bits ≤ 2^62 ≈ e^43:
    # such ε certifies any kernel without zeros. An OverflowError would be a bug.
    certify(K3, eps)
    rm = certify(TINY, eps)
    assert rm.numerators.min() >= 1


def test_ratio_beyond_e_700_is_refused():
    # 1e-310 (subnormal) against 1: level log(1e310) ≈ 713.8 > 700.
    K = np.array([[1.0, 1e-310], [1e-310, 1.0]])
    with pytest.raises(md.InvalidInputError) as info:
        md.rational_mechanism(K, 700.0)
    assert _names(str(info.value), "epsilon"), str(info.value)
    certify(K, 720.0)


@pytest.mark.parametrize(
    "K",
    [krr(300, 1.0), np.random.default_rng(7).dirichlet(np.ones(5), size=400)],
    ids=["krr-300", "random-400x5"],
)
def test_bits_8_with_a_large_alphabet(K):
    """Either certified exactly, or refused by 'bits' saying there is no slack."""
    eps = md.ldp_level(K)
    try:
        rm = md.rational_mechanism(K, eps, bits=8)
    except md.InvalidInputError as error:
        message = str(error)
    else:
        rows = check_exact(rm, K, eps, 8)
        check_close(rm, K, rows)
        return
    assert _names(message, "bits"), message
    assert "slack" in message.lower(), message


def test_bits_8_small_kernel_must_succeed():
    # Rows of a mixture near uniform round to 85 or 86 counts out of 256, ratio ≤ 86/85
    # (0.0117 nats) ≪ LDP(K3) ≈ 1.95: a certifiable mixture exists, so refusal is wrong.
    certify(K3, md.ldp_level(K3), bits=8)
    certify(krr(4, 0.5), 0.5, bits=8)


@pytest.mark.parametrize("bits", [8, 32, 62])
def test_infinite_epsilon_keeps_identity_exactly(bits):
    rm = certify(np.eye(3), math.inf, bits)
    np.testing.assert_array_equal(rm.numerators, np.eye(3, dtype=np.int64) * 2**bits)
    assert rm.mixture == 0.0  # exact: ε = ∞ needs no mixing
    assert math.isinf(rm.level)
    assert rm.distance <= 1e-15


def test_infinite_epsilon_keeps_zeros_of_a_non_dyadic_kernel():
    K = np.array([[0.3, 0.7, 0.0], [0.0, 0.1, 0.9], [1 / 3, 1 / 3, 1 / 3]])
    rm = certify(K, math.inf)
    assert rm.mixture == 0.0  # exact: ε = ∞ needs no mixing
    np.testing.assert_array_equal(rm.numerators == 0, K == 0)


# -- sampling ----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_sample_frequencies_match_the_rational_law(seed):
    # bits = 8 so a one-count error of the cumulative mapping (1/256 in probability) is
    # several standard deviations at 4·10^5 draws per input.
    K = np.array([[0.6, 0.3, 0.1], [0.2, 0.5, 0.3]])
    rm = md.rational_mechanism(K, md.ldp_level(K), bits=8)
    per_input = 400_000
    inputs = np.repeat(np.arange(2), per_input)
    outputs = rm.sample(inputs, np.random.default_rng(seed))
    for x in range(2):
        counts = np.bincount(outputs[inputs == x], minlength=3)
        expected = rm.numerators[x] / rm.denominator * per_input
        assert np.all(counts[expected == 0] == 0)
        keep = expected > 0
        p = stats.chisquare(counts[keep], expected[keep]).pvalue
        assert p > 1e-4, (x, counts, expected)


def test_sample_shape_dtype_range_and_determinism():
    rm = md.rational_mechanism(K32, md.ldp_level(K32))
    inputs = np.array([[0, 1, 2], [2, 2, 0]])
    out = rm.sample(inputs, np.random.default_rng(3))
    assert out.shape == inputs.shape
    assert out.dtype == np.int64
    assert out.min() >= 0
    assert out.max() < K32.shape[1]
    many = rm.sample(np.zeros(1000, dtype=np.int64), np.random.default_rng(4))
    again = rm.sample(np.zeros(1000, dtype=np.int64), np.random.default_rng(4))
    np.testing.assert_array_equal(many, again)


@pytest.mark.parametrize("bits", [8, 32, 62])
def test_sample_of_the_identity_is_the_input(bits):
    # The identity's cumulative rows have runs of equal values: an off-by-one (the wrong
    # side of a search) would map some draws (1 in 2^bits) to another output.
    rm = md.rational_mechanism(np.eye(4), math.inf, bits=bits)
    inputs = np.tile(np.arange(4), 50_000)
    np.testing.assert_array_equal(rm.sample(inputs, np.random.default_rng(5)), inputs)


@pytest.mark.parametrize("bits", [8, 32, 62])
def test_sample_never_draws_a_zero_count(bits):
    # Checked against the returned numerators (whatever they are), so this tests the
    # sampler alone: an output whose count is zero is never drawn, even between outputs
    # with positive counts.
    K = np.array([[0.5, 0.0, 0.5, 0.0], [0.25, 0.0, 0.745, 0.005]])
    rm = md.rational_mechanism(K, math.inf, bits=bits)
    inputs = np.repeat(np.arange(2), 100_000)
    out = rm.sample(inputs, np.random.default_rng(6))
    for x in range(2):
        counts = np.bincount(out[inputs == x], minlength=4)
        assert np.all(counts[rm.numerators[x] == 0] == 0), (x, counts, rm.numerators[x])


@pytest.mark.parametrize(
    "inputs", [[-1], [3], [0, 1, 3], np.array([[0, -2]])], ids=["-1", "N", "mixed", "2-D"]
)
def test_sample_refuses_out_of_range_inputs(inputs):
    rm = md.rational_mechanism(K32, md.ldp_level(K32))
    with pytest.raises(md.InvalidInputError):
        rm.sample(np.asarray(inputs), np.random.default_rng(0))


# -- random kernels ----------------------------------------------------------------------


def _certify_or_no_slack(K: np.ndarray, eps: float, bits: int) -> None:
    """Certified exactly, or — only where rounding may leave no room — refused by 'bits'.

    A heuristic margin, not a proof: mixing with weight λ = 1/2 pulls a column's
    log-ratio roughly ε/(M+1) below ε (entries a = b·e^ε ≤ 1 become a + 1/M, b + 1/M),
    while rounding moves a ratio of entries ≥ 1/(2M) by a relative ≈ 2M²/D; so from
    ε ≈ 2M²(M+1)/D on, a mixture ≤ 1/2 certifies. Refusal is tolerated below twice that
    (≈ 1e-7 at bits = 32; hypothesis' kernels rarely go there)."""
    M = K.shape[1]
    try:
        rm = md.rational_mechanism(K, eps, bits=bits)
    except md.InvalidInputError as error:
        message = str(error)
    else:
        rows = check_exact(rm, K, eps, bits)
        check_close(rm, K, rows)
        return
    assert eps < 4 * M * M * (M + 1) / 2**bits, message
    assert _names(message, "bits"), message
    assert "slack" in message.lower(), message


@settings(max_examples=60, deadline=None)
@given(K=kernels(min_size=2, max_size=5), slack=st.floats(0.0, 1.0))
def test_random_kernels_are_certified_exactly(K, slack):
    eps = md.ldp_level(K) * (1 + slack)
    if eps == 0:  # exact: identical rows; test_identical_rows_at_epsilon_zero covers it
        return
    _certify_or_no_slack(K, eps, 32)


# Spread over the valid range, with the float64 mantissa edge (53) on both sides.
PRECISIONS = [16, 24, 32, 48, 53, 54, 55, 58, 62]


@settings(max_examples=40, deadline=None)
@given(K=kernels(min_size=2, max_size=4), slack=st.floats(0.0, 1.0),
       bits=st.sampled_from(PRECISIONS))
def test_random_kernels_at_every_precision(K, slack, bits):
    eps = md.ldp_level(K) * (1 + slack)
    if eps == 0:  # exact: identical rows; test_identical_rows_at_epsilon_zero covers it
        return
    _certify_or_no_slack(K, eps, bits)


# -- PML for a known prior ------------------------------------------------------------------


def pml_ratio(rows: list[list[int]], prior: list[float]) -> Fraction:
    """max_y max_{x: P_x > 0} n[x, y] / Σ_x P_x n[x, y] over outputs of positive mass,
    with the prior's floats as exact rationals."""
    weights = [Fraction(p) for p in prior]
    best = Fraction(1)
    for y in range(len(rows[0])):
        mass = sum(w * row[y] for w, row in zip(weights, rows, strict=True))
        if mass > 0:
            top = max(row[y] for w, row in zip(weights, rows, strict=True) if w > 0)
            best = max(best, Fraction(top) / mass)
    return best


@pytest.mark.parametrize(("K", "prior"), [
    (K3, [0.5, 0.3, 0.2]),
    (krr(4, 1.0), [0.4, 0.3, 0.2, 0.1]),
    (np.array([[0.7, 0.3, 0.0], [0.2, 0.5, 0.3], [0.1, 0.1, 0.8]]), [0.2, 0.5, 0.3]),
    (krr(3, 2.0), [0.5, 0.5, 0.0]),          # an input outside the prior's support
])
def test_pml_for_a_known_prior_is_certified_exactly(K, prior):
    """At ε = the kernel's own PML level for the prior (md.pml_level), the rational kernel
    certifies exactly: every output's max_x n / Σ P n is at most a rational below e^ε,
    written out here with Fractions. PML allows zeros that LDP forbids."""
    eps = md.pml_level(K, prior)
    rm = md.rational_mechanism(K, eps, prior=prior)
    rows = rm.numerators.tolist()
    assert all(sum(row) == rm.denominator for row in rows)   # ints: exact
    mine = pml_ratio(rows, prior)
    assert mine == rm.ratio                                    # Fractions: exact
    assert mine <= exp_lower(eps)
    assert rm.level <= eps
    assert md.pml_level(rm.matrix, prior) <= eps + 1e-12
    assert np.array_equal(rm.prior, np.asarray(prior))
    back = md.deployment.RationalMechanism.from_json(rm.to_json())
    assert back.ratio == rm.ratio
    assert np.array_equal(back.prior, rm.prior)


def test_pml_refuses_an_epsilon_below_the_kernel_level():
    with pytest.raises(md.InvalidInputError, match="PML level"):
        md.rational_mechanism(K3, 0.01, prior=[0.5, 0.3, 0.2])
    with pytest.raises(md.InvalidInputError, match="prior"):
        md.rational_mechanism(K3, 1.0, prior=[0.5, 0.5])


def test_rational_round_trip_is_certified_again():
    rational = md.rational_mechanism(md.randomized_response(4, 1.0), 1.0)
    back = md.deployment.RationalMechanism.from_json(rational.to_json())
    assert np.array_equal(back.numerators, rational.numerators)
    assert back.denominator == rational.denominator
    assert back.ratio == rational.ratio          # exact: Fractions
    assert back.level <= 1.0
    # a tampered document no longer certifies: one row made sharper
    document = json.loads(rational.to_json())
    row = document["numerators"][0]
    row[0] += 10**8
    row[1] -= 10**8
    with pytest.raises(InvalidInputError, match="does not certify"):
        md.deployment.RationalMechanism.from_json(json.dumps(document))
    document["numerators"][0][0] += 1                       # rows no longer sum to D
    with pytest.raises(InvalidInputError, match="sum to the denominator"):
        md.deployment.RationalMechanism.from_json(json.dumps(document))
    with pytest.raises(InvalidInputError, match=r"mechdesign\.rational_mechanism"):
        md.deployment.RationalMechanism.from_json(md.randomized_response(2, 1.0).to_json())
