"""The general (blocked) Hadamard response against pure-LDP's ``Hadamard_Rand_general_original``.

References independent of mechdesign.mechanisms.oracles and mechdesign.mechanisms.protocols:

* pure-LDP's code (Samuel Maddock's pure-LDP package: class Hadamard_Rand_general_original in
  pure_ldp/frequency_oracles/hadamard_response/internal/k2k_hadamard.py, and FWHT_A in
  .../internal/functions.py), transcribed below statement by statement: its parameters
  (``__init__``: initbit, part B, tailbit, partsz b, outbit, outsz K), its encoder
  ``encode_symbol`` (the coupling construction, with the bit strings of ``entry_check``) and its
  decoder ``decode_string(iffast=1, normalization=-1)`` (no normalisation). Its random
  permutation is replaced by the identity: input x is encoded as ``encode_symbol(x)`` and the
  decoded vector is read without the reverse permutation.
* The exact kernel is the output distribution of that encoder, enumerated: every value of its
  uniform draw ``out1`` (probability 1/K each) and both branches of its coin ``ra``.
* The errors are brute force over that kernel and decoder: variances of the decoded single
  report under the kernel's rows (or under the mixture of the rows by the prior), and the
  default number of blocks is the argmin of that brute-force error over the powers of two.
"""

from __future__ import annotations

import functools
import itertools
import math

import numpy as np
import pytest

import mechdesign as md
from mechdesign.mechanisms import PureOracle
from mechdesign.mechanisms.protocols import hadamard_blocks

KS = [3, 5, 8, 13, 40]
EPSILONS = [1.5, 2.0, 3.0, 4.0, 6.0]
CASES = list(itertools.product(KS, EPSILONS))


# ---------------------------------------------------------------------------------------------
# pure-LDP, transcribed
# ---------------------------------------------------------------------------------------------


def fwht_a(k: int, dist: np.ndarray) -> np.ndarray:
    """pure-LDP's FWHT_A (functions.py): the fast Walsh-Hadamard transform, recursively."""
    if k == 1:
        return dist
    dist1 = dist[0 : k // 2]
    dist2 = dist[k // 2 : k]
    trans1 = fwht_a(k // 2, dist1)
    trans2 = fwht_a(k // 2, dist2)
    return np.concatenate((trans1 + trans2, trans1 - trans2))


class PureLDPGeneralOriginal:
    """pure-LDP's Hadamard_Rand_general_original without its random permutation.

    ``part`` (the number of blocks B) defaults to pure-LDP's own choice; when given it replaces
    ``initbit = floor(log2(min(2k, e^ε)))`` by ``log2(part)`` and everything else follows
    pure-LDP's ``__init__`` unchanged. The encoder takes its two random draws as arguments so
    that its output distribution can be enumerated exactly.
    """

    def __init__(self, absz: int, pri_para: float, part: int | None = None):
        self.insz = absz  # input alphabet size k
        self.pri_para = 1 / (1 + math.exp(pri_para))
        self.exp = math.exp(pri_para)
        if part is None:
            self.initbit = math.floor(math.log(min(2 * absz, self.exp), 2))
        else:
            assert part >= 1
            assert part & (part - 1) == 0, "the number of blocks is a power of 2"
            self.initbit = part.bit_length() - 1
        self.part = int(math.pow(2, self.initbit))  # number of blocks B
        # number of bits indicating the location within a block
        self.tailbit = math.ceil(math.log(float(self.insz) / float(self.part) + 1, 2))
        self.partsz = int(math.pow(2, self.tailbit))  # size of each block b
        self.outbit = self.tailbit + self.initbit  # total number of output bits
        self.outsz = int(math.pow(2, self.outbit))  # output alphabet size K

    def entry_check(self, x: int, y: int) -> bool:
        """True unless the reduced Hadamard entry (x, y) is one (pure-LDP, verbatim)."""
        x_bit = bin(x)[2:].zfill(self.outbit)
        y_bit = bin(y)[2:].zfill(self.outbit)
        for i in range(0, self.initbit):  # not in the same block
            if x_bit[i] != y_bit[i]:
                return True
        check = False
        for i in range(self.initbit, self.outbit):  # the entry within the block
            check = check ^ (int(x_bit[i]) & int(y_bit[i]))
        return check

    def uniform_threshold(self) -> float:
        """``encode_symbol`` returns its uniform draw when ``ra <`` this (ra ~ U[0, 1))."""
        return (2 * self.part) / (2 * self.part - 1 + self.exp)

    def encode_symbol(self, in_symbol: int, out1: int, uniform: bool) -> int:
        """pure-LDP's encode_symbol (encode_acc=0) given out1 and whether ``ra`` fell below the
        uniform threshold."""
        part_index = int(in_symbol) // (self.partsz - 1)
        part_pos = int(in_symbol) % (self.partsz - 1) + 1
        in_column = (part_index << self.tailbit) + part_pos
        if uniform:
            return out1
        out_pos = out1 & (self.partsz - 1)
        out1 = out_pos + (part_index << self.tailbit)
        check = self.entry_check(in_column, out1)
        if check == 0:  # location (in_column, out1) is one: output out1
            return out1
        # else flip the bit of out1 at the lowest set bit of in_column
        check = 1
        for _ in range(self.outbit - self.initbit):
            if in_column % 2 == 1:
                out1 = out1 ^ check
                break
            in_column = in_column >> 1
            check = check << 1
        return out1

    def kernel(self) -> np.ndarray:
        """The exact output distribution of ``encode_symbol``: row x, column y."""
        threshold = self.uniform_threshold()
        kernel = np.zeros((self.insz, self.outsz))
        for x in range(self.insz):
            for out1 in range(self.outsz):  # np.random.randint(0, outsz)
                kernel[x, self.encode_symbol(x, out1, uniform=True)] += threshold / self.outsz
                kernel[x, self.encode_symbol(x, out1, uniform=False)] += (
                    1 - threshold
                ) / self.outsz
        return kernel

    def decode_frequencies(self, freq: np.ndarray) -> np.ndarray:
        """pure-LDP's decode_string(iffast=1, normalization=-1) from the output frequency vector
        ``freq`` (its ``count / l``), without the reverse permutation."""
        freq = np.asarray(freq, dtype=float)
        assert freq.shape == (self.outsz,)
        parts = self.insz // (self.partsz - 1)
        freq_S = np.zeros((parts + 1) * self.partsz)  # pure-LDP's names
        freq_block = np.zeros((parts + 1) * self.partsz)
        for i in range(0, parts + 1):
            if i * self.partsz >= self.outsz:
                # pure-LDP takes an empty slice here (when k = B·(b−1) the loop runs one block
                # past the last) and FWHT_A's empty result makes Trans[0] raise IndexError. The
                # iteration would only write freq_S at indices ≥ k and freq_block[i] with
                # i ≥ B, none of which is read below, so skipping it is what pure-LDP computes
                # wherever it does not crash.
                continue
            trans = fwht_a(self.partsz, freq[i * self.partsz : (i + 1) * self.partsz])
            freq_block[i] = trans[0]
            freq_S[i * (self.partsz - 1) : (i + 1) * (self.partsz - 1)] = (
                trans[1 : self.partsz] + trans[0]
            ) / float(2)
        dist_S = freq_S[0 : self.insz]
        dist_block = np.true_divide((2 * self.part - 1 + self.exp) * (freq_block) - 2, self.exp - 1)
        dist_inter = np.true_divide(2 * (dist_S * (2 * self.part - 1 + self.exp) - 1), self.exp - 1)
        dist = [dist_inter[i] - dist_block[i // (self.partsz - 1)] for i in range(0, self.insz)]
        return np.array(dist, dtype=float)

    def decoder(self) -> tuple[np.ndarray, np.ndarray]:
        """The decoder as an affine map: ``decode(freq) = offset + freq @ matrix``."""
        offset = self.decode_frequencies(np.zeros(self.outsz))
        matrix = np.array([self.decode_frequencies(row) - offset for row in np.eye(self.outsz)])
        return offset, matrix


@functools.cache
def reference(k: int, eps: float, blocks: int | None = None):
    """(pure-LDP object, exact kernel, decoder offset, decoder matrix), read-only arrays."""
    ref = PureLDPGeneralOriginal(k, eps, blocks)
    kernel = ref.kernel()
    offset, matrix = ref.decoder()
    for array in (kernel, offset, matrix):
        array.setflags(write=False)
    return ref, kernel, offset, matrix


def pure_blocks(k: int, eps: float) -> int:
    return PureLDPGeneralOriginal(k, eps).part


def powers_of_two_up_to(limit: int) -> list[int]:
    return [2**j for j in range(limit.bit_length()) if 2**j <= limit]


# ---------------------------------------------------------------------------------------------
# brute-force errors over the exact kernel and pure-LDP's decoder
# ---------------------------------------------------------------------------------------------


def brute_mse(kernel: np.ndarray, est: np.ndarray, prior: np.ndarray, n: int, target: str):
    """E‖f̂ − f‖² of f̂ = (1/n) Σ_i est[y_i] (unbiased, so the trace of its covariance).

    histogram: n·prior_x reports from row x, independent: (1/n) Σ_x prior_x Σ_v Var_{K[x]}.
    distribution: n i.i.d. reports from the mixture q = prior·K: (1/n) Σ_v Var_q(est[·, v]).
    """
    if target == "histogram":
        mean = kernel @ est  # (k, k): the expected estimate given input x
        dev = est[None, :, :] - mean[:, None, :]  # (x, y, v)
        var = np.einsum("xy,xyv->x", kernel, dev**2)
        return float(prior @ var) / n
    assert target == "distribution"
    q = prior @ kernel
    dev = est - q @ est
    return float(np.einsum("y,yv->", q, dev**2)) / n


def brute_uniform_mse(k: int, eps: float, blocks: int) -> float:
    _, kernel, _, est = reference(k, eps, blocks)
    return brute_mse(kernel, est, np.full(k, 1 / k), 1, "histogram")


def dirichlet(k: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).dirichlet(np.ones(k))


# ---------------------------------------------------------------------------------------------
# the tests
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("k", "eps"), CASES)
def test_transcribed_parameters_are_pure_ldps(k, eps):
    """The transcription's float formulas give the exact integers they are meant to: B is the
    largest power of two ≤ min(2k, e^ε), b the smallest power of two ≥ k/B + 1, K = B·b."""
    ref = PureLDPGeneralOriginal(k, eps)
    bound = min(2 * k, math.exp(eps))
    assert ref.part <= bound < 2 * ref.part
    assert ref.part * ref.partsz >= k + ref.part
    assert ref.part * (ref.partsz // 2) < k + ref.part or ref.partsz == 1
    assert ref.outsz == ref.part * ref.partsz
    assert ref.pri_para == pytest.approx(1 / (1 + math.exp(eps)))


@pytest.mark.parametrize(("k", "eps"), CASES)
def test_kernel_is_pure_ldps_encoder(k, eps):
    blocks = pure_blocks(k, eps)
    ref, kernel, _, _ = reference(k, eps, blocks)
    oracle = md.hadamard_response(k, eps, blocks=blocks)
    assert oracle.n_outputs == ref.outsz
    np.testing.assert_allclose(kernel.sum(axis=1), 1.0, rtol=1e-13)
    np.testing.assert_allclose(oracle.matrix, kernel, rtol=1e-12, atol=0)
    # exactly ε-LDP: the largest ratio within a column is e^ε
    ratio = float(np.max(oracle.matrix.max(axis=0) / oracle.matrix.min(axis=0)))
    assert ratio == pytest.approx(math.exp(eps), rel=1e-12)


@pytest.mark.parametrize(("k", "eps"), CASES)
def test_estimator_is_pure_ldps_decoder(k, eps):
    blocks = pure_blocks(k, eps)
    ref, _, offset, _ = reference(k, eps, blocks)
    est = md.hadamard_response(k, eps, blocks=blocks).estimator
    assert est.shape == (ref.outsz, k)
    # pure-LDP's decoder, affine in freq, has no constant term
    np.testing.assert_allclose(offset, 0.0, atol=1e-13)
    rng = np.random.default_rng(1000 * k + int(10 * eps))
    freqs = [
        rng.dirichlet(np.ones(ref.outsz)),  # empirical frequencies sum to 1
        rng.dirichlet(np.full(ref.outsz, 0.2)),
        np.bincount(rng.integers(0, ref.outsz, 97), minlength=ref.outsz) / 97,
        rng.random(ref.outsz),  # any vector: the decoder is linear
        rng.normal(size=ref.outsz),
        *np.eye(ref.outsz)[[0, ref.outsz - 1]],
    ]
    for freq in freqs:
        decoded = ref.decode_frequencies(freq)
        scale = max(1.0, float(np.max(np.abs(decoded))))
        np.testing.assert_allclose(freq @ est, decoded, rtol=0, atol=1e-12 * scale)


@pytest.mark.parametrize(("k", "eps"), CASES)
@pytest.mark.parametrize("which", ["library", "pure-LDP"])
def test_estimator_is_unbiased_for_the_kernel(k, eps, which):
    blocks = pure_blocks(k, eps)
    if which == "library":
        oracle = md.hadamard_response(k, eps, blocks=blocks)
        kernel, est = oracle.matrix, oracle.estimator
    else:
        _, kernel, _, est = reference(k, eps, blocks)
    np.testing.assert_allclose(kernel @ est, np.eye(k), rtol=0, atol=1e-12)


def blocks_for_error(k: int, eps: float) -> list[int]:
    return sorted({b for b in (1, 2, 4, pure_blocks(k, eps)) if b <= 2 * k})


ERROR_CASES = [(k, eps, b) for k, eps in CASES for b in blocks_for_error(k, eps)]


@pytest.mark.parametrize(("k", "eps", "blocks"), ERROR_CASES)
@pytest.mark.parametrize("target", ["histogram", "distribution"])
def test_mse_is_the_brute_force_error(k, eps, blocks, target):
    _, kernel, _, est = reference(k, eps, blocks)
    oracle = PureOracle.hadamard(k, eps, blocks)
    for seed, n in [(1, 1), (2, 1000), (3, 12345)]:
        prior = dirichlet(k, 100 * k + seed)
        exact = brute_mse(kernel, est, prior, n, target)
        assert oracle.mse(prior, n, target=target) == pytest.approx(exact, rel=1e-10)
    uniform = np.full(k, 1 / k)
    exact = brute_mse(kernel, est, uniform, 7, target)
    assert oracle.mse(uniform, 7, target=target) == pytest.approx(exact, rel=1e-10)


def best_blocks(k: int, eps: float) -> tuple[int, list[int]]:
    """The smallest argmin of the brute-force uniform error over the powers of two ≤ 2k, and
    every power of two whose error is within 1e-12 (relative) of the minimum."""
    errors = {b: brute_uniform_mse(k, eps, b) for b in powers_of_two_up_to(2 * k)}
    smallest = min(errors.values())
    ties = [b for b, err in errors.items() if err <= smallest * (1 + 1e-12)]
    return min(ties), ties


@pytest.mark.parametrize(("k", "eps"), CASES)
def test_default_blocks_minimise_the_brute_force_error(k, eps):
    best, ties = best_blocks(k, eps)
    assert hadamard_blocks(k, eps) in ties, (best, ties)
    # the default (blocks=None) everywhere is that choice: the kernel, and the error
    _, kernel, _, _ = reference(k, eps, hadamard_blocks(k, eps))
    np.testing.assert_allclose(md.hadamard_response(k, eps).matrix, kernel, rtol=1e-12, atol=0)
    _, best_kernel, _, best_est = reference(k, eps, best)
    oracle = PureOracle.hadamard(k, eps)
    prior = dirichlet(k, 7 * k)
    for target in ("histogram", "distribution"):
        exact = brute_mse(best_kernel, best_est, prior, 500, target)
        assert oracle.mse(prior, 500, target=target) == pytest.approx(exact, rel=1e-10)


@pytest.mark.parametrize(("k", "eps"), [(5, 2.0), (13, 3.0)])
def test_sampling_follows_the_pure_ldp_kernel(k, eps):
    blocks = pure_blocks(k, eps)
    ref, kernel, _, _ = reference(k, eps, blocks)
    oracle = PureOracle.hadamard(k, eps, blocks)
    n = 200_000
    df = ref.outsz - 1
    for x in range(k):
        reports = np.asarray(oracle.sample(np.full(n, x), np.random.default_rng(31 * k + x)))
        assert reports.shape == (n,)
        assert reports.min() >= 0
        assert reports.max() < ref.outsz
        counts = np.bincount(reports, minlength=ref.outsz)
        expected = n * kernel[x]
        chi2 = float(np.sum((counts - expected) ** 2 / expected))
        assert chi2 < df + 6 * math.sqrt(2 * df), (x, chi2, df)
        decoded = ref.decode_frequencies(counts / n)
        np.testing.assert_allclose(oracle.estimate(reports), decoded, rtol=1e-10, atol=1e-12)
