"""``check_implementation`` against three historical bugs in LDP implementations.

Each bug is reproduced from its public record, as a sampler ``sampler(x, size, rng)``
(vectorised: one call draws all ``size`` reports for input ``x``), next to a correct
sampler of the same protocol; the kernel ``K`` the implementation claims is written out
here from the protocol's definition, not taken from the library.

* OpenDP issue #480 (https://github.com/opendp/opendp/issues/480):
  ``make_randomized_response_bool`` drew its "lie" as ``Bernoulli(prob)`` instead of
  reporting ``!arg``, so the truth also comes out of the lie.
* OpenDP pull request #2708 (https://github.com/opendp/opendp/pull/2708, fixing issue
  #2707): ``make_randomized_response_bitvec`` sampled its noise vector over ``1..n``, so
  the last bit of the vector was never flipped.
* pure-LDP issue #11 (https://github.com/Samuel-Maddock/pure-LDP/issues/11, fixed in
  commit fc622e3): ``UEClient._perturb`` did not clear the user's own bit before setting
  it with probability ``p``, so that bit is 1 with probability ``p + (1 − p) q``.

The effects are large at these parameters: over 200 seeds at the sample sizes used below
every buggy sampler was caught by both halves of the check (χ² and the level's lower
bound), while each correct sampler raised a false alarm in at most 3 of 200 runs (the
check's nominal rate is at most about 2 %). The seeds below are fixed, so each test is
deterministic.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import mechdesign as md

CONFIDENCE = 0.99
N_SAMPLES = 2000
BUG_SEED = 0
CORRECT_SEEDS = (0, 1, 2)


# --------------------------------------------------------------------------- helpers


def max_log_ratio(K) -> float:
    """The LDP level ``max_{x, x', y} log K[x, y] / K[x', y]`` (all entries positive)."""
    K = np.asarray(K, dtype=float)
    assert np.all(K > 0)
    logK = np.log(K)
    return float(np.max(logK[:, None, :] - logK[None, :, :]))


def bits_to_index(bits: np.ndarray) -> np.ndarray:
    """Rows of 0/1 bits ``(b_0, …, b_{d−1})`` to output indices ``Σ_j b_j 2^j``."""
    return (bits.astype(np.int64) << np.arange(bits.shape[1])).sum(axis=1)


def index_to_bits(y: int, d: int) -> np.ndarray:
    return np.array([(y >> j) & 1 for j in range(d)], dtype=np.int64)


def product_bit_kernel(bit_one_probs: np.ndarray) -> np.ndarray:
    """``K[x, y] = Π_j P(bit j = y_j | x)`` over the ``2^d`` bit vectors ``y`` (by
    :func:`bits_to_index`), from ``bit_one_probs[x, j] = P(bit j = 1 | x)``."""
    n, d = bit_one_probs.shape
    K = np.empty((n, 2**d))
    for y in range(2**d):
        bits = index_to_bits(y, d)
        K[:, y] = np.prod(np.where(bits == 1, bit_one_probs, 1 - bit_one_probs), axis=1)
    return K


def check(sampler, K, *, rng, n_samples=N_SAMPLES, **kwargs):
    result = md.deployment.check_implementation(
        sampler, K, n_samples, confidence=CONFIDENCE, rng=rng, **kwargs
    )
    # The verdict is exactly the conjunction the specification states.
    assert result.passed == (
        result.p_value >= 1 - CONFIDENCE and result.lower_bound <= result.claimed_level
    )
    assert 0.0 <= result.p_value <= 1.0
    assert result.lower_bound >= 0.0
    assert isinstance(result.audit, md.accounting.SampleAudit)
    assert np.all(np.asarray(result.audit.counts).sum(axis=1) == n_samples)
    return result


# ------------------------------------------------- OpenDP #480: randomized response (bool)


def rr_bool_kernel(p: float) -> np.ndarray:
    """Binary randomized response: report the truth with probability ``p``, else its
    negation. Rows and columns ``(False, True)``; level ``log(p / (1 − p))``."""
    return np.array([[p, 1 - p], [1 - p, p]])


def rr_bool_correct(p: float):
    """The fix proposed in issue #480: ``if bernoulli(p) { arg } else { !arg }``."""

    def sample(x, size, rng):
        x = bool(x)
        return np.where(rng.random(size) < p, x, not x)

    return sample


def rr_bool_opendp_480(p: float):
    """OpenDP issue #480 (https://github.com/opendp/opendp/issues/480).

    ``make_randomized_response_bool`` (rust/src/meas/randomized_response/mod.rs, June
    2022) was::

        let lie = bool::sample_bernoulli(prob, constant_time)?;
        Ok(if bool::sample_bernoulli(prob, constant_time)? { *arg } else { lie })

    with the privacy relation ``ln(prob / (1 − prob))``. The lie is ``True`` with
    probability ``p`` whatever the input, so ``P(True | True) = p + (1 − p) p`` ("the lie
    could also be X") and ``P(False | False) = p + (1 − p)²``: at ``p = 0.75`` the level
    is ``ln 13 ≈ 2.56`` instead of the claimed ``ln 3 ≈ 1.10``.
    """

    def sample(x, size, rng):
        lie = rng.random(size) < p  # drawn first, as in the Rust code
        honest = rng.random(size) < p
        return np.where(honest, bool(x), lie)

    return sample


def rr_bool_opendp_480_kernel(p: float) -> np.ndarray:
    return np.array([[p + (1 - p) ** 2, (1 - p) * p], [(1 - p) ** 2, p + (1 - p) * p]])


def grr_kernel(k: int, eps: float) -> np.ndarray:
    """k-ary randomized response at level ``eps``: the truth with probability
    ``e^ε / (e^ε + k − 1)``, each other value with ``1 / (e^ε + k − 1)``."""
    denom = math.exp(eps) + k - 1
    return np.where(np.eye(k, dtype=bool), math.exp(eps) / denom, 1 / denom)


def grr_correct(k: int, eps: float):
    p = math.exp(eps) / (math.exp(eps) + k - 1)

    def sample(x, size, rng):
        other = rng.integers(0, k - 1, size=size)
        other = other + (other >= x)  # uniform over the k − 1 values other than x
        return np.where(rng.random(size) < p, x, other)

    return sample


def grr_lie_from_all_categories(k: int, eps: float):
    """The k-ary analogue of OpenDP #480 (a model, not historical code).

    Issue #480 says the correct implementation "samples uniformly from all *other*
    categories"; OpenDP's categorical ``make_randomized_response`` already did. This
    sampler makes the mistake the issue describes for k values: the lie is uniform over
    all k, so ``P(x | x) = p + (1 − p) / k`` while the level claimed is that of
    ``grr_kernel(k, eps)``.
    """
    p = math.exp(eps) / (math.exp(eps) + k - 1)

    def sample(x, size, rng):
        lie = rng.integers(0, k, size=size)
        return np.where(rng.random(size) < p, x, lie)

    return sample


def grr_lie_from_all_categories_kernel(k: int, eps: float) -> np.ndarray:
    p = math.exp(eps) / (math.exp(eps) + k - 1)
    return np.where(np.eye(k, dtype=bool), p + (1 - p) / k, (1 - p) / k)


# ------------------------------------- OpenDP #2708: randomized response on a bit vector


def rr_bitvec_kernel(k: int, f: float) -> np.ndarray:
    """``make_randomized_response_bitvec`` on one-hot inputs ``e_0, …, e_{k−1}`` (a
    ``BitVectorDomain`` with ``max_weight = 1``, RAPPOR's basic one-time response): every
    bit is flipped independently with probability ``f / 2``. The claimed level is
    ``2 m ln((2 − f) / f)`` with ``m = 1``. Outputs by :func:`bits_to_index`."""
    one = np.where(np.eye(k, dtype=bool), 1 - f / 2, f / 2)
    return product_bit_kernel(one)


def rr_bitvec_correct(k: int, f: float):
    """The code after PR #2708: a noise vector over ``0..arg.len()``, XORed in."""

    def sample(x, size, rng):
        bits = np.zeros((size, k), dtype=np.int64)
        bits[:, x] = 1
        noise = rng.random((size, k)) < f / 2
        return bits_to_index(bits ^ noise)

    return sample


def rr_bitvec_opendp_2708(k: int, f: float):
    """OpenDP PR #2708 "fix: RR bitvec randomization is off-by-one"
    (https://github.com/opendp/opendp/pull/2708), fixing issue #2707.

    Before the fix, rust/src/measurements/randomized_response_bitvec/mod.rs built the
    noise as ``(1..n).map(|_| sample_bernoulli_float(f_2, constant_time))`` with ``n =
    arg.len()``: only ``n − 1`` Bernoulli(f / 2) bits. ``arg.clone() ^ noise_vector``
    zero-extends the shorter vector, so bits ``0..n−2`` are randomized and the last bit
    (index ``n − 1``) is released as is: "the last bit not being protected". Here the
    release reveals whether the input is ``e_{k−1}``, an unbounded level.
    """

    def sample(x, size, rng):
        bits = np.zeros((size, k), dtype=np.int64)
        bits[:, x] = 1
        noise = np.zeros((size, k), dtype=bool)
        noise[:, : k - 1] = rng.random((size, k - 1)) < f / 2
        return bits_to_index(bits ^ noise)

    return sample


# ----------------------------------------------------- pure-LDP #11: unary encoding


def ue_probabilities(eps: float, *, oue: bool) -> tuple[float, float]:
    """``(p, q)`` of pure-LDP's ``UEClient``: SUE ``p = e^{ε/2} / (e^{ε/2} + 1)``,
    ``q = 1 − p``; OUE ``p = 1/2``, ``q = 1 / (e^ε + 1)``."""
    if oue:
        return 0.5, 1 / (math.exp(eps) + 1)
    c = math.exp(eps / 2)
    return c / (c + 1), 1 / (c + 1)


def ue_kernel(d: int, p: float, q: float) -> np.ndarray:
    """Unary encoding of ``x`` in ``range(d)``: bit ``x`` is 1 with probability ``p``,
    every other bit with probability ``q``, independently. Level
    ``log(p (1 − q) / (q (1 − p)))`` (ε for both SUE and OUE). Outputs by
    :func:`bits_to_index`."""
    return product_bit_kernel(np.where(np.eye(d, dtype=bool), p, q))


def ue_correct(d: int, p: float, q: float):
    """``UEClient._perturb`` after commit fc622e3: draw the bits with probability ``q``,
    clear the user's bit, then set it with probability ``p``."""

    def sample(x, size, rng):
        bits = (rng.random((size, d)) < q).astype(np.int64)
        bits[:, x] = rng.random(size) < p
        return bits_to_index(bits)

    return sample


def ue_pure_ldp_11(d: int, p: float, q: float):
    """pure-LDP issue #11 (https://github.com/Samuel-Maddock/pure-LDP/issues/11).

    ``UEClient._perturb`` before commit fc622e3 (version 1.1.2) was::

        oh_vec = np.random.choice([1, 0], size=self.d, p=[self.q, 1-self.q])
        if random.random() < self.p:
            oh_vec[index] = 1
        return oh_vec

    The fix adds ``oh_vec[index] = 0`` before the ``if``. Without it the user's bit is 1
    with probability ``p + (1 − p) q``, not ``p`` ("the users true value was not properly
    retained with probability p"), which breaks ε-LDP, worst for small ε (Arcolezi &
    Gambs, arXiv:2309.01597, Figure 3).
    """

    def sample(x, size, rng):
        bits = (rng.random((size, d)) < q).astype(np.int64)
        bits[rng.random(size) < p, x] = 1
        return bits_to_index(bits)

    return sample


def ue_pure_ldp_11_kernel(d: int, p: float, q: float) -> np.ndarray:
    return ue_kernel(d, p + (1 - p) * q, q)


# ------------------------------------------------------------------------------ cases

SUE_P, SUE_Q = ue_probabilities(0.5, oue=False)
OUE_P, OUE_Q = ue_probabilities(1.0, oue=True)
BOOL_LABELS = {"inputs": [False, True], "outputs": [False, True]}

# (correct sampler, buggy sampler, claimed kernel, labels, claimed level in closed form)
CASES = [
    pytest.param(
        rr_bool_correct(0.75),
        rr_bool_opendp_480(0.75),
        rr_bool_kernel(0.75),
        BOOL_LABELS,
        math.log(3),
        id="opendp-480-bool-rr-p0.75",
    ),
    pytest.param(
        grr_correct(4, 1.0),
        grr_lie_from_all_categories(4, 1.0),
        grr_kernel(4, 1.0),
        {},
        1.0,
        id="opendp-480-analogue-4ary-rr-eps1",
    ),
    pytest.param(
        rr_bitvec_correct(4, 0.5),
        rr_bitvec_opendp_2708(4, 0.5),
        rr_bitvec_kernel(4, 0.5),
        {},
        2 * math.log(3),
        id="opendp-2708-bitvec-rr-k4-f0.5",
    ),
    pytest.param(
        ue_correct(4, SUE_P, SUE_Q),
        ue_pure_ldp_11(4, SUE_P, SUE_Q),
        ue_kernel(4, SUE_P, SUE_Q),
        {},
        0.5,
        id="pure-ldp-11-sue-d4-eps0.5",
    ),
    pytest.param(
        ue_correct(4, OUE_P, OUE_Q),
        ue_pure_ldp_11(4, OUE_P, OUE_Q),
        ue_kernel(4, OUE_P, OUE_Q),
        {},
        1.0,
        id="pure-ldp-11-oue-d4-eps1",
    ),
]


@pytest.mark.parametrize(("correct", "buggy", "K", "labels", "level"), CASES)
def test_claimed_kernel_is_the_protocol(correct, buggy, K, labels, level):
    """The kernels written out here are stochastic and at the protocol's own level."""
    assert np.allclose(K.sum(axis=1), 1.0)
    assert max_log_ratio(K) == pytest.approx(level, rel=1e-12)
    assert md.ldp_level(K) == pytest.approx(level, rel=1e-9)


@pytest.mark.parametrize(("correct", "buggy", "K", "labels", "level"), CASES)
def test_buggy_sampler_is_caught(correct, buggy, K, labels, level):
    result = check(buggy, K, rng=BUG_SEED, **labels)
    assert result.passed is False
    assert result.claimed_level == pytest.approx(level, rel=1e-9)
    # Both halves catch each bug: the samples are not from K, and they prove a level
    # above the claimed one.
    assert result.p_value < 1 - CONFIDENCE
    assert result.lower_bound > result.claimed_level


@pytest.mark.parametrize("seed", CORRECT_SEEDS)
@pytest.mark.parametrize(("correct", "buggy", "K", "labels", "level"), CASES)
def test_correct_sampler_passes(correct, buggy, K, labels, level, seed):
    result = check(correct, K, rng=seed, **labels)
    assert result.passed is True
    assert result.claimed_level == pytest.approx(level, rel=1e-9)
    assert result.p_value >= 1 - CONFIDENCE
    assert result.lower_bound <= result.claimed_level


@pytest.mark.parametrize(
    ("buggy", "K_buggy", "labels"),
    [
        pytest.param(
            rr_bool_opendp_480(0.75),
            rr_bool_opendp_480_kernel(0.75),
            BOOL_LABELS,
            id="opendp-480",
        ),
        pytest.param(
            grr_lie_from_all_categories(4, 1.0),
            grr_lie_from_all_categories_kernel(4, 1.0),
            {},
            id="opendp-480-analogue",
        ),
        pytest.param(
            ue_pure_ldp_11(4, SUE_P, SUE_Q),
            ue_pure_ldp_11_kernel(4, SUE_P, SUE_Q),
            {},
            id="pure-ldp-11-sue",
        ),
        pytest.param(
            ue_pure_ldp_11(4, OUE_P, OUE_Q),
            ue_pure_ldp_11_kernel(4, OUE_P, OUE_Q),
            {},
            id="pure-ldp-11-oue",
        ),
    ],
)
def test_buggy_sampler_matches_its_own_kernel(buggy, K_buggy, labels):
    """A buggy sampler honestly claiming the kernel it has passes: the check is about
    the mismatch with the claim, and the bug models are the kernels derived above."""
    result = check(buggy, K_buggy, rng=BUG_SEED, **labels)
    assert result.passed is True
    assert result.claimed_level == pytest.approx(max_log_ratio(K_buggy), rel=1e-9)


def test_bitvec_bug_leaves_the_last_bit_unprotected():
    """Under the #2708 bug, the last output bit equals the last input bit in every draw."""
    k, f = 4, 0.5
    rng = np.random.default_rng(0)
    for x in range(k):
        y = rr_bitvec_opendp_2708(k, f)(x, 1000, rng)
        assert np.all(((y >> (k - 1)) & 1) == int(x == k - 1))
        y = rr_bitvec_correct(k, f)(x, 1000, rng)
        assert len(np.unique((y >> (k - 1)) & 1)) == 2
    result = check(rr_bitvec_opendp_2708(k, f), rr_bitvec_kernel(k, f), rng=BUG_SEED)
    assert math.isinf(result.audit.estimate)


# ------------------------------------------------------------ md.Mechanism as sampler

ASYMMETRIC = np.array(
    [
        [0.50, 0.30, 0.15, 0.05],
        [0.20, 0.45, 0.25, 0.10],
        [0.10, 0.20, 0.30, 0.40],
    ]
)


def mechanism_sampler(mechanism: md.Mechanism):
    def sample(x, size, rng):
        return mechanism.sample(np.full(size, x), rng=rng)

    return sample


@pytest.mark.parametrize("as_mechanism", [False, True], ids=["K-array", "K-Mechanism"])
@pytest.mark.parametrize("seed", CORRECT_SEEDS)
def test_mechanism_sampling_of_correct_kernel_passes(seed, as_mechanism):
    mechanism = md.Mechanism(ASYMMETRIC)
    K = mechanism if as_mechanism else ASYMMETRIC
    result = check(mechanism_sampler(mechanism), K, rng=seed)
    assert result.passed is True
    assert result.claimed_level == pytest.approx(max_log_ratio(ASYMMETRIC), rel=1e-9)
    assert result.p_value >= 1 - CONFIDENCE
    assert result.lower_bound <= result.claimed_level


def test_mechanism_sampling_of_another_kernel_fails():
    """Sampling one kernel while claiming another (rows swapped) is caught."""
    mechanism = md.Mechanism(ASYMMETRIC[[1, 0, 2]])
    result = check(mechanism_sampler(mechanism), ASYMMETRIC, rng=BUG_SEED)
    assert result.passed is False
    assert result.p_value < 1 - CONFIDENCE


def test_same_seed_same_result():
    sampler, K = rr_bool_opendp_480(0.75), rr_bool_kernel(0.75)
    first = check(sampler, K, rng=7, **BOOL_LABELS)
    again = check(sampler, K, rng=7, **BOOL_LABELS)
    assert again.passed is first.passed
    assert math.isclose(again.p_value, first.p_value, rel_tol=1e-12, abs_tol=1e-300)
    assert math.isclose(again.lower_bound, first.lower_bound, rel_tol=1e-12)


# ------------------------------------------------- power: how many draws see a bug


def never_randomizes(k: int, eps: float, bad: int = 0):
    """A k-RR sampler with one bug: input ``bad`` always reports itself."""
    honest = grr_correct(k, eps)

    def sample(x, size, rng):
        return np.full(size, bad) if x == bad else honest(x, size, rng)

    return sample


@pytest.mark.slow
def test_the_check_says_what_2000_draws_could_not_see_and_takes_enough_by_default():
    """40-RR at ε₀ = 7.76 whose input 0 is never randomized: the row's χ² distance is
    (1 − k_max)/k_max ≈ 0.0166, so 2,000 draws have little power and pass it; with
    n_samples=None the check takes the draws that see it with power 0.95, and does."""
    k, eps = 40, 7.761092185974121
    K = grr_kernel(k, eps)
    few = md.deployment.check_implementation(never_randomizes(k, eps), K, 2000,
                                             confidence=CONFIDENCE, rng=BUG_SEED)
    assert few.power < 0.1
    enough = md.deployment.check_implementation(never_randomizes(k, eps), K,
                                                confidence=CONFIDENCE, rng=BUG_SEED)
    assert enough.n_samples == md.deployment.samples_needed(K)
    assert enough.power >= md.deployment.conformance.DETECTION_POWER
    assert not enough.passed


@pytest.mark.parametrize(("k", "eps", "power"), [(5, 3.0, 0.8), (3, 1.0, 0.5)])
def test_the_power_is_what_the_check_itself_sees(k, eps, power):
    """The whole check (the library's audit, χ² and level bound) run on a buggy sampler
    over 200 seeds at the computed draws: it fails the sampler at least as often as the
    promised power of its χ² half, within the runs' error (the level bound only adds),
    and not far more often."""
    K = grr_kernel(k, eps)
    n = md.deployment.samples_needed(K, confidence=CONFIDENCE, power=power)
    runs = 200
    caught = sum(not md.deployment.check_implementation(
        never_randomizes(k, eps), K, n, confidence=CONFIDENCE, rng=seed).passed
        for seed in range(runs))
    spread = 4 * math.sqrt(power * (1 - power) / runs)
    assert power - spread <= caught / runs <= power + spread + 0.1


def test_a_level_shift_needs_more_draws_the_smaller_it_is():
    K = grr_kernel(8, 2.0)
    needed = [md.deployment.samples_needed(K, grr_kernel(8, 2.0 + shift))
              for shift in (1.0, 0.3, 0.1)]
    assert needed == sorted(needed)
    assert needed[0] < needed[-1]
    with pytest.raises(md.InvalidInputError, match="nothing to detect"):
        md.deployment.samples_needed(K, K)
    with pytest.raises(md.InvalidInputError, match="too small for the check"):
        md.deployment.samples_needed(K, grr_kernel(8, 2.0 + 1e-7))


def test_an_output_the_claim_forbids_is_seen_at_once():
    """A leak of mass 0.1 to an output K never gives: caught when a draw shows it,
    probability 1 − 0.9ⁿ (the χ² half adds little at n = 10), within the simulation's
    error (4 standard errors of 2,000 runs)."""
    K = np.array([[0.5, 0.5, 0.0], [0.25, 0.75, 0.0]])
    leak = np.array([[0.5, 0.4, 0.1], [0.25, 0.75, 0.0]])
    power = md.deployment.detection_power(K, leak, 10)
    assert power == pytest.approx(1 - 0.9**10, abs=0.045)


def test_a_sampler_returning_labels_needs_the_labels():
    k, eps = 3, 1.0
    names = ["a", "b", "c"]
    honest = grr_correct(k, eps)

    def labelled(x, size, rng):
        return [names[y] for y in honest(names.index(x) if isinstance(x, str) else x,
                                         size, rng)]

    with pytest.raises(md.InvalidInputError, match="pass outputs="):
        md.deployment.check_implementation(labelled, grr_kernel(k, eps), 500, rng=0)
    document = md.deployment.load_kernel(md.Mechanism(grr_kernel(k, eps)).to_json(
        input_labels=names, output_labels=names))
    result = md.deployment.check_implementation(labelled, document, 2000, rng=0)
    assert result.passed
    assert result.audit.inputs == tuple(names)


@pytest.mark.slow
def test_the_command_line_and_the_python_check_agree_on_a_rejected_sampler(tmp_path):
    """The χ² test alone refutes the sampler (its lower bound stays below the claimed
    level): the Python check fails it, and audit-samples exits 1 on the same pairs."""
    from mechdesign.cli import main

    k, eps = 40, 7.761092185974121
    K = grr_kernel(k, eps)
    result = md.deployment.check_implementation(never_randomizes(k, eps), K, 20000,
                                                confidence=CONFIDENCE, rng=BUG_SEED)
    assert not result.passed
    assert result.lower_bound <= result.claimed_level
    counts = result.audit.counts
    rows = [f"{x},{y}" for x in range(k) for y in range(k) for _ in range(counts[x, y])]
    pairs = tmp_path / "pairs.csv"
    pairs.write_text("\n".join(rows) + "\n")
    kernel = tmp_path / "k.json"
    kernel.write_text(md.Mechanism(K).to_json())
    assert main(["audit-samples", str(pairs), "--kernel", str(kernel), "--no-header"]) == 1
