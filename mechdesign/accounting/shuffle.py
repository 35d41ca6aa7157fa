"""Privacy amplification by shuffling, for any kernel.

``n`` users each pass their input once through a kernel ``K`` (rows are inputs) and a
shuffler releases the multiset of reports. Neighbouring datasets replace one user's input;
the central guarantee is the ``(ε, δ)`` of that release against the worst other ``n − 1``
inputs and the worst pair for the replaced user. It is never worse than ``K``'s own
``ε₀ = LDP(K)`` (shuffling is post-processing of the reports, one of which changes), and
far better at large ``n``. Every bound here is an upper bound on δ(ε) with a proof written
out below; the reported value is the smallest, and ``method`` names it.

**Clone reductions** (Feldman, McMillan & Talwar [1]_, Lemma 3.3; the count computation
of their App. E). Suppose the replaced user's two rows
are mixtures ``P⁰ = (1 − w) Q* + w (u W⁰ + (1 − u) W¹)`` and ``P¹ = (1 − w) Q* + w ((1 − u)
W⁰ + u W¹)``, and every row is ``K[x] = r W⁰ + r W¹ + (1 − 2r) L_x`` with ``L_x ≥ 0``.
Given the counts ``(a, b)`` of reports drawn from ``W⁰`` and ``W¹``, the rest of the
release has the same distribution under both inputs (which other users are in neither
class is a uniform subset either way), so the release is a post-processing of the counts:
``C ~ Bin(n − 1, 2r)`` clones among the others, ``A | C ~ Bin(C, 1/2)`` of them in class 0,
plus the replaced user's ``Bern(u)`` (``Bern(1 − u)`` under the other input). The common
part ``Q*`` is handled by joint convexity, ``E(wX + (1−w)M ‖ wY + (1−w)M) ≤ w E(X ‖ Y)``,
so ``δ(ε) ≤ w·δ_{u,r}(ε)``. For fixed ``a + b = s`` the likelihood ratio of the two count
distributions increases with ``a``, so ``δ_{u,r}(ε)`` is a sum over ``s`` of binomial tails
(Wang et al. [2]_, Theorem 4.8 with their ``1 − α − pα = 0``), evaluated exactly here
with the mass of ``C`` outside a window of tail :data:`TAIL_MASS` added to δ.

Each unordered row pair ``(P⁰, P¹)`` with ratio ``p = max_y max(P⁰/P¹, P¹/P⁰)`` is
reduced two ways (``u = p/(p + 1)`` in both), and the smaller δ counts; the kernel's bound
(``"kernel"``) is the largest over its pairs:

* *its clones* (``w = 1``): ``W⁰ = (pP⁰ − P¹)/(p − 1)``, ``W¹ = (pP¹ − P⁰)/(p − 1)``, so
  ``W⁰ + W¹ = P⁰ + P¹`` and ``r = min_y min_x K[x, y]/(P⁰_y + P¹_y)``; for any ε₀-LDP kernel
  ``r ≥ e^{−ε₀}/2``, FMT's clone probability, which alone gives ``"clones"`` (any
  ε₀-LDP randomizer: ``u = e^{ε₀}/(e^{ε₀} + 1)``, ``r = e^{−ε₀}/2``);
* *its variation-ratio split* (Wang et al., Lemma 4.4): with ``β = TV(P⁰, P¹)`` and
  ``α = β/(p − 1)``, ``P⁰ = pα Q⁰ + α Q¹ + (1 − α − pα) Q*`` with ``Q⁰ ∝ (P⁰ − P¹)^+``,
  so ``w = (p + 1)α`` and ``r = β min_y min_x K[x, y]/|P⁰_y − P¹_y|``.

**Not used: Wang et al.'s Theorem 4.8 with ``1 − α − pα > 0``**, which counts the replaced
user's common part among the others' reports (their Lemma 4.5). It fails an exact
enumeration of the shuffled histograms (tests/test_shuffle_references.py): 3-ary
randomized response at ε₀ = 1.5, n = 3, ε = 1 has δ = 0.13729, the theorem gives 0.13172
(and at n = 50, ε = 1.3, δ ≥ 7.7e-8 against 1.8e-10). So its k-RR values (0.110 at k = 10,
0.069 at k = 100 for ε₀ = 4, n = 10⁵, δ = 1e-6) are not guarantees. Its generic parameters
(``r = 1/(e^{ε₀} + 1)`` for any ε₀-LDP randomizer: 0.1182 there) are Feldman, McMillan &
Talwar's "stronger clone" [3]_, whose general proof the authors withdrew (errata of
arXiv:2208.04591, Lemma 3.5: it holds for a restricted class). A kernel in that class gets
it through its own clones above (k-RR's ``r`` is ``1/(e^{ε₀} + 1)``).

**Binary outputs, exactly** (``"exact"``). With two outputs the release is the count of
ones. The hockey-stick divergence is jointly convex in the pair of distributions, and the
count's distribution is affine in each user's probability of a one, so the worst case puts
the replaced user at the two extreme rows and every other user at one of them: the exact
δ(ε) is a maximum over ``m ∈ {0, …, n − 1}`` others at the larger extreme and both
directions. The maximum is not always at ``m = 0`` or ``n − 1``, and the curve in ``m``
can be flat to a part in 10⁶ (binary randomized response at ε₀ = 1), so every ``m`` is
accounted for by branch and bound over blocks of datasets (:class:`_BinaryExact`: one
dataset in ``O(window · log window)``, a block through the dataset with its free users
revealed). The search is exact while it examines at most :data:`BINARY_EXACT_BLOCKS`
blocks; past that it also skips blocks within :data:`BINARY_EPSILON_RTOL`
(:data:`BINARY_DELTA_RTOL` for δ) of the best dataset found and returns the best
raised by that slack: an upper bound at most that far above the exact value, named
``"binary"`` instead of ``"exact"``. About ten seconds at n = 10⁷.

**The privacy blanket** (Balle, Bell, Gascón & Nissim [4]_). Every row is ``K[x] = γω +
(1 − γ) L_x`` with ``γ = Σ_y min_x K[x, y]``: each other user's report is a draw of the
input-free blanket ``ω`` with probability ``γ``, and given those draws the release is a
post-processing of the multiset of the replaced user's report and theirs. For kernels
whose rows are the blanket plus one spike (k-RR) that multiset's divergence is summed
exactly through the counts at the pair's two spikes (``"blanket"``, :class:`_SpikeBlanket`);
for any kernel it is a mean of i.i.d. privacy-loss terms, bounded by Hoeffding's and
Bennett's inequalities (``"hoeffding"``, ``"bennett"``, :class:`_BlanketTails`). The
clone reduction keeps only the two rows' common part; the blanket keeps every output
the blanket can land on, which is what ``k`` adds.

**Rounds.** ``rounds = T`` releases of the same users with the same inputs: the T-fold
composition of each reduction's pair — the count distributions with an atom of mass
``1 − w`` common to both, a dominating pair for every dataset — by dp_accounting's privacy
loss distribution (pessimistic, on :data:`~mechdesign.accounting.composition.DISCRETIZATION`),
beside
basic composition ``T ε₀``. The same pair of inputs differs in every round, so the
kernel's bound is the maximum over its pairs of the better of their two composed
reductions (for at most :data:`ROUNDS_MAX_PAIRS` distinct pairs; past that only
``"clones"`` is composed). The exact binary curve is a maximum over datasets, not one
pair, and is not composed.

References
----------
.. [1] V. Feldman, A. McMillan, K. Talwar, "Hiding Among the Clones: A Simple and Nearly
   Optimal Analysis of Privacy Amplification by Shuffling", FOCS 2021, arXiv:2012.12803.
.. [2] S. Wang et al., "Privacy Amplification via Shuffling: Unified, Simplified, and
   Tightened", Proceedings of the VLDB Endowment 2024, arXiv:2304.05007.
.. [3] V. Feldman, A. McMillan, K. Talwar, "Stronger Privacy Amplification by Shuffling for
   Rényi and Approximate Differential Privacy", SODA 2023, arXiv:2208.04591.
.. [4] B. Balle, J. Bell, A. Gascón, K. Nissim, "The Privacy Blanket of the Shuffle Model",
   CRYPTO 2019, arXiv:1903.02837.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mechdesign._search import largest_meeting
from mechdesign._validation import (
    as_real,
    check_epsilon,
    check_positive_int,
    check_real,
    check_size,
    show,
)
from mechdesign.accounting.composition import ACCOUNTING_MAX_GRID, DISCRETIZATION
from mechdesign.errors import InvalidInputError, TooLargeError, UnsupportedError
from mechdesign.kernel import Mechanism, as_matrix
from mechdesign.mechanisms.oracles import PureOracle

__all__ = [
    "BINARY_DELTA_RTOL",
    "BINARY_EPSILON_RTOL",
    "BINARY_EXACT_BLOCKS",
    "BLANKET_BLOCKS",
    "BLANKET_GRID",
    "BLANKET_MAX_CELLS",
    "DEDUP_DIGITS",
    "EPSILON_RTOL",
    "LOCAL_EPSILON_RTOL",
    "MAX_USERS",
    "MIN_RATE",
    "PLD_MAX_CELLS",
    "ROUNDS_MAX_PAIRS",
    "SPIKE_MAX_CELLS",
    "SPIKE_RTOL",
    "TAIL_MASS",
    "TAIL_RTOL",
    "Reduction",
    "ShuffleDelta",
    "ShuffleEpsilon",
    "ShuffleParameters",
    "clones_reduction",
    "local_epsilon_for",
    "reduction_delta",
    "shuffle_delta",
    "shuffle_epsilon",
    "shuffle_parameters",
]

#: Probability mass of the clone count ``C`` (and of each binomial of the exact binary
#: computation) left outside the summation window; it is added to δ, so every δ stays an
#: upper bound.
TAIL_MASS = 1e-18

#: A binomial rate below this is read as 0 (scipy's binomial overflows near the smallest
#: normal double, 2e-308): the outcomes it would add, of probability at most ``trials ×
#: rate``, go to the tail mass added to δ (and in the composition of rounds they change
#: δ by less than that).
MIN_RATE = 1e-290

#: Default relative resolution of :func:`local_epsilon_for`'s bracketed search on ε₀.
LOCAL_EPSILON_RTOL = 1e-6

#: Significant digits to which two row pairs' ``(u, v, r)`` must agree to be reduced once.
DEDUP_DIGITS = 12

#: Relative resolution of the ε returned by :func:`shuffle_epsilon` (a bracketed search
#: on the non-increasing δ(ε); the upper end of the final bracket is returned, so it is
#: valid).
EPSILON_RTOL = 1e-9

#: Blocks of datasets the exact binary search examines before it accepts a relative
#: slack (:data:`BINARY_EPSILON_RTOL`, :data:`BINARY_DELTA_RTOL`) in what it skips.
BINARY_EXACT_BLOCKS = 200

#: Relative slack of the binary curve's ε past :data:`BINARY_EXACT_BLOCKS`: the value
#: returned is at most this far above the exact one (and never below it).
BINARY_EPSILON_RTOL = 1e-3

#: The same for δ(ε).
BINARY_DELTA_RTOL = 1e-2

#: Relative accuracy taken for scipy's binomial tails (``bdtrc``) and their products in
#: the blanket accountant: that share of the sum of the terms' magnitudes is added to δ.
TAIL_RTOL = 1e-13

#: Most cells ``(G, s)`` the blanket accountant of one-spike kernels (k-RR) sums: the
#: window of the number ``G`` of blanket draws is cut into blocks (each charged at its
#: smallest count, where δ is largest) of one count each while that fits, wider past it
#: (at n = 10⁷ blocks of about 10⁻⁴ of G: about 0.3 % on δ).
SPIKE_MAX_CELLS = 2 * 10**5

#: Relative tolerance to which a kernel's rows must be their blanket plus one spike of
#: the same mass for the blanket accountant of one-spike kernels.
SPIKE_RTOL = 1e-12

#: Blocks of the blanket draws' count ``G`` that the concentration bounds of any kernel
#: (``"hoeffding"``, ``"bennett"``) sum, each charged at its smallest ``G``.
BLANKET_BLOCKS = 2048

#: Cells of the tangent-line bound on Bennett's tail integral (each an eighth of its
#: e-folding length at the start; the tangent's tail covers the rest).
BLANKET_GRID = 64

#: The concentration bounds are computed for a kernel of ``N`` rows and ``M`` used
#: outputs when ``N²M`` is at most this (their parameters are maxima over row pairs).
BLANKET_MAX_CELLS = 2 * 10**7

#: :func:`shuffle_epsilon` of a protocol oracle (a frozen value) is remembered for this
#: many recent ``(oracle, n, δ, rounds)``: ``compare(shuffle=...)`` reads each protocol's
#: at the ε₀ its search has just verified.
ORACLE_CACHE_SIZE = 64

#: Most cells ``(a, b)`` of one reduction's count distribution that :func:`shuffle_epsilon`
#: builds to compose ``rounds > 1`` releases (16 bytes a cell, twice).
PLD_MAX_CELLS = 2 * 10**7

#: Most users: the clone count's window grows as √n (about 3·10⁵ terms at 10⁹).
MAX_USERS = 10**9

#: Most distinct row pairs whose reductions are composed one by one for ``rounds > 1``.
ROUNDS_MAX_PAIRS = 16


# -- parameters ------------------------------------------------------------------------


@dataclass(frozen=True)
class Reduction:
    """A pair of count distributions that dominates one shuffled release (module
    docstring): with probability ``1 − weight`` the replaced user's report is the same
    under both inputs; otherwise it is in class 0 with probability ``u`` and in class 1
    with ``v = 1 − u`` (``u ≥ v``; the reverse under the other input; both kept, so that
    ``v = e^{−700}`` is not lost to ``1 − u``). Each of the other ``n − 1`` users is in
    each class with probability ``r ≤ 1/2``. The clone reduction is Feldman, McMillan &
    Talwar's [1]_; the variation-ratio split is Wang et al.'s [2]_.

    Parameters
    ----------
    u : float
        Probability, given that the replaced user's report differs between the inputs,
        that it is in class 0 (``u ≥ v``).
    v : float
        The probability of class 1, ``1 − u``, kept separately for precision.
    r : float
        Probability, in ``[0, 1/2]``, that another user's report is in each class (a clone
        with probability ``2r``).
    weight : float, default 1.0
        ``w`` in ``[0, 1]``: the probability that the replaced user's report is not the
        common part.

    References
    ----------
    .. [1] V. Feldman, A. McMillan, K. Talwar, "Hiding Among the Clones: A Simple and Nearly
           Optimal Analysis of Privacy Amplification by Shuffling", FOCS 2021, arXiv:2012.12803.
    .. [2] S. Wang et al., "Privacy Amplification via Shuffling: Unified, Simplified, and
           Tightened", Proceedings of the VLDB Endowment 2024, arXiv:2304.05007.
    """

    u: float
    v: float
    r: float
    weight: float = 1.0

    @classmethod
    def at_level(cls, level: float, r: float, weight: float = 1.0) -> Reduction:
        """``u = e^ℓ/(e^ℓ + 1)``, ``v = 1/(e^ℓ + 1)`` for a pure level ``ℓ``."""
        return cls(_expit(level), _expit(-level), r, weight)

    @property
    def level(self) -> float:
        """``log(u/v)``: the pair's pure level; δ(ε) = 0 from there on."""
        if self.weight == 0 or self.u <= self.v:
            return 0.0
        return math.inf if self.v == 0 else math.log(self.u) - math.log(self.v)


@dataclass(frozen=True)
class ShuffleParameters:
    """A kernel's shuffle parameters, as :func:`shuffle_parameters` computes them; ``p``,
    ``β`` and ``q`` are Wang et al.'s [1]_, the blanket is Balle et al.'s [2]_.

    Parameters
    ----------
    epsilon0 : float
        Its LDP level ``ε₀`` (nats).
    p : float
        Wang et al.'s ``p``: the largest ratio of two rows at one output, ``e^{ε₀}``.
    beta : float
        Wang et al.'s ``β``: the largest total variation distance between two rows.
    q : float
        Wang et al.'s ``q``: the largest ratio of any row to another at one output; for
        one kernel used by everyone it is ``p``.
    clone : float
        The smallest over row pairs of ``2r`` of their clone reduction: the probability
        that another user's report is a clone of the pair (module docstring);
        ``e^{−ε₀}`` for any ε₀-LDP randomizer.
    blanket : float
        Balle, Bell, Gascón & Nissim's blanket mass ``Σ_y min_x K[x, y]`` [2]_: the
        probability of a report independent of the input. At least ``e^{−ε₀}``.
    pairs : tuple of (Reduction, Reduction)
        The distinct row pairs' two reductions, clones then variation-ratio split (one
        pair for a symmetric protocol).

    References
    ----------
    .. [1] S. Wang et al., "Privacy Amplification via Shuffling: Unified, Simplified, and
           Tightened", Proceedings of the VLDB Endowment 2024, arXiv:2304.05007.
    .. [2] B. Balle, J. Bell, A. Gascón, K. Nissim, "The Privacy Blanket of the Shuffle Model",
           CRYPTO 2019, arXiv:1903.02837.
    """

    epsilon0: float
    p: float
    beta: float
    q: float
    clone: float
    blanket: float
    pairs: tuple[tuple[Reduction, Reduction], ...] = field(repr=False)


def clones_reduction(epsilon0: float) -> Reduction:
    """Feldman, McMillan & Talwar's clone reduction for any ε₀-LDP randomizer [1]_ (Thm.
    3.2): the replaced user is in class 0 with probability ``e^{ε₀}/(e^{ε₀} + 1)``,
    each other user a clone with probability ``e^{−ε₀}`` (``r = e^{−ε₀}/2``).

    Parameters
    ----------
    epsilon0 : float
        The randomizer's LDP level ε₀ (nats): a real ``≥ 0`` (an infinite ε₀ gives
        ``r = 0``: no clones); anything else raises :class:`InvalidInputError`.

    Returns
    -------
    Reduction

    References
    ----------
    .. [1] V. Feldman, A. McMillan, K. Talwar, "Hiding Among the Clones: A Simple and Nearly
           Optimal Analysis of Privacy Amplification by Shuffling", FOCS 2021, arXiv:2012.12803.
    """
    eps0 = check_epsilon(epsilon0, "epsilon0")
    return Reduction.at_level(eps0, 0.5 * math.exp(-eps0))


def shuffle_parameters(K: Mechanism | ArrayLike | PureOracle | float) -> ShuffleParameters:
    """The shuffle parameters of a kernel (a :class:`~mechdesign.kernel.Mechanism`, an
    array, a :class:`~mechdesign.mechanisms.oracles.PureOracle` at any size, or a number ε₀ for any
    ε₀-LDP randomizer). See :class:`ShuffleParameters`.

    For a dense kernel every unordered row pair is reduced (``O(N² M)``). For a pure
    protocol (GRR, unary encoding, subset selection, OLH with a fresh hash, Hadamard
    response) every pair is alike, in closed form: a report takes a lower value ``b_y``
    and ``e^ε b_y`` on the inputs it supports, and some input does not support it.
    So ``β = p − q``, and the split's ``r = α = β/(e^ε − 1)``; the clones' ``r`` is
    ``e^{−ε}/2`` at a report supporting both inputs of a pair but not every input, and
    ``1/(e^ε + 1)`` for a protocol with no such report (:func:`_co_supported`).

    Parameters
    ----------
    K : Mechanism, array_like of shape (N, M), PureOracle, or float
        A kernel (row-stochastic, rows are inputs), a deployed protocol
        (:class:`~mechdesign.mechanisms.oracles.PureOracle`), or a number ε₀ (nats,
        ``≥ 0``) standing for any ε₀-LDP randomizer.

    Returns
    -------
    ShuffleParameters
    """
    K = _unless_pure(K)
    if isinstance(K, PureOracle):
        return _oracle_parameters(K)
    if _is_number(K):
        eps0 = check_epsilon(K, "K")
        growth = math.exp(eps0) if eps0 < _LOG_MAX else math.inf
        clones = clones_reduction(eps0)
        return ShuffleParameters(eps0, growth, math.tanh(eps0 / 2), growth, 2 * clones.r,
                                 math.exp(-eps0), ((clones, clones),))
    return _kernel_parameters(as_matrix(K, "K"))


def _unless_pure(K: object) -> object:
    """Hadamard response in blocks is a protocol whose row pairs are not alike (block
    mates differ on half a block, others on two blocks): it is accounted for as its dense
    kernel, which every bound here covers."""
    if isinstance(K, PureOracle) and K.blocks > 1:
        cells = K.k * K.k * K.n_outputs
        if cells > BLANKET_MAX_CELLS:
            raise UnsupportedError(
                f"{K.protocol} on k = {K.k} inputs is not a pure protocol, so it is accounted "
                f"for as its dense kernel, whose row pairs span {cells:,} cells here (above "
                f"BLANKET_MAX_CELLS = {BLANKET_MAX_CELLS:,}).")
        return K.dense()
    return K


def _oracle_parameters(oracle: PureOracle) -> ShuffleParameters:
    eps = oracle.epsilon
    beta = oracle.gap
    alpha = beta * math.exp(-eps) / -math.expm1(-eps)          # β/(e^ε − 1)
    weight = min(1.0, beta / math.tanh(eps / 2))                # (e^ε + 1) α
    r_clones = 0.5 * math.exp(-eps) if _co_supported(oracle) else _expit(-eps)
    growth = math.exp(eps) if eps < _LOG_MAX else math.inf
    pair = (Reduction.at_level(eps, r_clones), Reduction.at_level(eps, alpha, weight))
    return ShuffleParameters(eps, growth, beta, growth, 2 * r_clones, _oracle_blanket(oracle),
                             (pair,))


def _co_supported(oracle: PureOracle) -> bool:
    """Whether some report supports two inputs but not every input: never for GRR and
    subset selection of one, nor at k = 2 (unary encoding, OLH) or k ≤ 3 (Hadamard on
    K = 4 columns: two distinct rows agree on +1 only at column 0, which every row
    supports); always otherwise (unary: both bits set and another clear; subset
    selection of ω ≥ 2 ≤ k − 1; OLH at k ≥ 3: a hash colliding on two inputs and not a
    third; Hadamard at K ≥ 8: the annihilator of two rows has K/4 ≥ 2 columns)."""
    if oracle.family == "grr":
        return False
    if oracle.family == "subset":
        return oracle.parameter >= 2
    if oracle.family == "hadamard":
        return oracle.parameter >= 8
    return oracle.k >= 3


def _oracle_blanket(oracle: PureOracle) -> float:
    """``Σ_y min_x K[x, y]`` of a pure protocol. A report ``y`` takes two values over the
    inputs, a lower ``b_y`` and ``e^ε b_y`` on the inputs it supports, so a row puts ``p``
    on ``Σ_{y ∋ x} e^ε b_y`` and ``1 − p`` on the rest: the sum of the lower values is
    ``1 − p + p e^{−ε}``. A report supporting every input (the set ``A``: unary
    encoding's all-ones, OLH's ``a = 0`` hash reporting bucket 0, Hadamard's column 0;
    none for GRR and subset selection) has minimum ``e^ε b_y`` instead, adding
    ``m_A (1 − e^{−ε})`` with ``m_A`` any row's mass on ``A``."""
    low = math.exp(-oracle.epsilon)
    not_p = oracle.slack + oracle.q                       # 1 − p, without cancellation
    if oracle.family == "unary":                          # p · q^{k−1}
        everyone = oracle.p * oracle.q ** (oracle.k - 1)
    elif oracle.family == "hashing":                      # P(a = 0) · p
        digits = max(1, math.ceil(math.log2(oracle.k)))
        everyone = oracle.p * float(oracle.parameter) ** -digits
    elif oracle.family == "hadamard":                     # column 0 only: 2p/K
        everyone = 2.0 * oracle.p / oracle.parameter
    else:
        everyone = 0.0
    return not_p + oracle.p * low + everyone * -math.expm1(-oracle.epsilon)


def _kernel_parameters(k: NDArray[np.float64]) -> ShuffleParameters:
    used = k.max(axis=0) > 0
    k = k[:, used]
    n_in = k.shape[0]
    floor = k.min(axis=0)
    blanket = float(min(1.0, floor.sum()))
    with np.errstate(divide="ignore"):
        logs = np.log(k)
    eps0, beta_max, clone = 0.0, 0.0, 1.0
    found: list[tuple[float, float, float, float]] = []
    for i in range(n_in - 1):
        d = k[i] - k[i + 1:]                                   # (N − i − 1, M)
        tv = 0.5 * np.abs(d).sum(axis=1)
        with np.errstate(invalid="ignore"):
            ratio = np.abs(logs[i] - logs[i + 1:])             # inf where one is 0
        ratio = np.where(d == 0, 0.0, ratio)
        level = ratio.max(axis=1)
        total = k[i] + k[i + 1:]
        with np.errstate(divide="ignore", invalid="ignore"):
            r_clones = np.where(total > 0, floor / total, np.inf).min(axis=1)
            share = np.where(d != 0, floor / np.abs(d), np.inf).min(axis=1)
        for t, lev, rc, sh in zip(tv, level, r_clones, share, strict=True):
            if t <= 0 or lev <= 0:
                continue
            eps0 = max(eps0, float(lev))
            beta_max = max(beta_max, float(t))
            clone = min(clone, 2 * float(rc))
            # split: w = (p + 1)α = β/tanh(ℓ/2), r = β min floor/|d|
            weight = float(t) if math.isinf(lev) else min(1.0, float(t) / math.tanh(lev / 2))
            found.append((float(lev), min(0.5, float(rc)), min(0.5, float(t * sh)), weight))
    # Pairs alike up to rounding (a protocol's pairs, computed from different rows) are
    # one pair: a difference of 1e-16 moves δ by as little.
    distinct = {tuple(float(f"{x:.{DEDUP_DIGITS}g}") for x in f): f for f in found}
    ordered = sorted(distinct.values(), key=lambda f: (-f[0], f[1]))
    pairs = tuple((Reduction.at_level(lev, rc), Reduction.at_level(lev, rs, w))
                  for lev, rc, rs, w in ordered)
    growth = math.exp(eps0) if eps0 < _LOG_MAX else math.inf
    if not pairs:
        clone = 1.0
    return ShuffleParameters(eps0, growth, beta_max, growth, clone, blanket, pairs)


# -- one release: the reduction's hockey-stick divergence --------------------------------


def reduction_delta(reduction: Reduction, n: int, epsilon: float) -> float:
    """``δ(ε)`` of one shuffled release of ``n`` users dominated by ``reduction`` (module
    docstring; Wang et al. [1]_, Theorem 4.8): the hockey-stick divergence of its two count
    distributions, an upper bound by at most :data:`TAIL_MASS`.

    Parameters
    ----------
    reduction : Reduction
        The pair of count distributions (:func:`clones_reduction` or a pair of
        :attr:`ShuffleParameters.pairs`).
    n : int
        Users, ``1 ≤ n ≤`` :data:`MAX_USERS`.
    epsilon : float
        The central ε (nats, ``≥ 0``).

    Returns
    -------
    float
        δ(ε) in ``[0, 1]``.

    References
    ----------
    .. [1] S. Wang et al., "Privacy Amplification via Shuffling: Unified, Simplified, and
           Tightened", Proceedings of the VLDB Endowment 2024, arXiv:2304.05007.
    """
    n = check_size(n, "n", MAX_USERS, why="MAX_USERS")
    eps = check_epsilon(epsilon)
    return _ReductionCurve(reduction, n).delta(eps)


class _ReductionCurve:
    """δ(ε) of one reduction at one ``n``: the window of ``C ~ Bin(n − 1, 2r)`` is built
    once, each ε is a vectorised sum of binomial tails."""

    def __init__(self, reduction: Reduction, n: int) -> None:
        from scipy import stats

        self.reduction, self.n = reduction, n
        trials, rate = n - 1, min(1.0, 2 * reduction.r)
        if trials == 0 or rate < MIN_RATE:
            # no clones; a tiny rate's clones (probability ≤ trials · rate) go to the tail
            lo, hi, self.tail = 0, 0, min(1.0, trials * rate)
            rate = 0.0
        else:
            lo, hi, self.tail = _binomial_window(stats.binom(trials, rate), trials)
        # s = a + b: the others' C = s − 1 clones and the replaced user's one report.
        s = np.arange(lo + 1, hi + 2)
        if trials == 0 or rate == 0:
            self.pmf_before = np.ones(1)
        else:
            self.pmf_before = stats.binom.pmf(np.arange(lo, hi + 1), trials, rate)
        self.s = s

    def delta(self, eps: float) -> float:
        red = self.reduction
        if eps >= red.level:
            return 0.0
        from scipy.special import bdtrc

        growth, shrink = math.exp(eps), math.exp(-eps)
        s = self.s

        def side(a):   # e^{−ε}(P − e^ε Q) at the cell (a, s − a), up to a positive factor
            return a * (shrink * red.u - red.v) + (s - a) * (shrink * red.v - red.u)

        # The cell (a, s − a) is in the region P > e^ε Q iff a > low (module docstring);
        # low is rounded, so the first integer above it is checked by the sign itself.
        low = (red.u - shrink * red.v) * s / ((red.u - red.v) * (1.0 + shrink))
        start = np.clip(np.floor(low) + 1.0, 0, s + 1)
        start = np.where((start >= 1) & (side(start - 1) > 0), start - 1, start)
        start = np.where((start <= s) & (side(start) <= 0), start + 1, start)

        def tail(t, m):   # Pr(Bin(m, 1/2) ≥ t), m ≥ 0
            m = np.maximum(m, 0)
            inside = (t > 0) & (t <= m)
            value = bdtrc(np.where(inside, t - 1, 0), np.where(inside, m, 1), 0.5)
            return np.where(t <= 0, 1.0, np.where(t > m, 0.0, value))

        # Pr(C = s − 1) [(u − e^ε v) Pr(A ≥ start − 1) + (v − e^ε u) Pr(A ≥ start)],
        # A ~ Bin(s − 1, 1/2): the replaced user in class 0 or in class 1.
        terms = self.pmf_before * ((red.u - growth * red.v) * tail(start - 1, s - 1)
                                   + (red.v - growth * red.u) * tail(start, s - 1))
        total = math.fsum(terms)
        return min(1.0, red.weight * (max(0.0, total) + self.tail))

    def epsilon(self, delta: float) -> float:
        """The least ε (to :data:`EPSILON_RTOL`, rounded up) with ``δ(ε) ≤ delta``."""
        return _invert(self.delta, delta, self.reduction.level)


def _invert(curve: Callable[[float], float], delta: float, ceiling: float) -> float:
    """The least ε in [0, ceiling] with ``curve(ε) ≤ delta`` for a continuous
    non-increasing curve, to :data:`EPSILON_RTOL`: a bracketed search on ``log curve``
    (:func:`~mechdesign._search.largest_meeting` on the curve reflected about the
    ceiling; fewer values than Brent's method on ``curve − delta``, which is badly scaled
    where δ spans decades), then the root is moved up by the tolerance until
    ``curve ≤ delta`` holds there, so the ε returned is valid."""
    at_zero = curve(0.0)
    if at_zero <= delta:
        return 0.0
    hi = ceiling
    if math.isinf(hi):
        hi = 1.0
        while curve(hi) > delta:
            hi *= 2.0
            if hi > _LOG_MAX:
                return math.inf
    elif curve(hi) > delta:   # only at the pure level, by rounding
        return hi
    tolerance = EPSILON_RTOL * hi
    # the largest x with curve(hi − x) ≤ δ is hi minus the least ε (curve(0) > δ is known)
    root = hi - largest_meeting(lambda x: curve(hi - x), delta, 0.0, hi, at_zero, EPSILON_RTOL)
    step = tolerance
    while root < hi and curve(root) > delta:
        root = min(hi, root + step)
        step *= 2.0
    return root


# -- binary outputs: the exact curve ----------------------------------------------------


class _Binomial:
    """``Bin(trials, rate)`` with the rate's complement kept separately: a rate above 1/2
    is counted as ``trials − Bin(trials, 1 − rate)``, so a probability of a one at
    ``1 − 1e-12`` keeps its digits. pmf, cdf and sf accept arrays of integers (any
    range)."""

    def __init__(self, trials: int, rate: float, complement: float) -> None:
        self.trials = trials
        self.flipped = rate > complement
        self.rate = complement if self.flipped else rate
        # a rate below MIN_RATE is read as 0; what it would add goes to the tail
        self.dropped = 0.0
        if self.rate < MIN_RATE:
            self.dropped, self.rate = min(1.0, trials * self.rate), 0.0

    def _own(self, t):
        return self.trials - t if self.flipped else t

    def pmf(self, t):
        from scipy import stats

        return stats.binom.pmf(self._own(np.asarray(t)), self.trials, self.rate)

    def pmf_range(self, first: int, last: int) -> NDArray[np.float64]:
        """The pmf at the counts ``first, …, last`` (0 outside ``[0, trials]``), from one
        value of scipy's at the mode and the ratios ``pmf(k + 1)/pmf(k) = (trials −
        k)/(k + 1) · rate/(1 − rate)`` multiplied out from there (each value a product of
        at most ``last − first`` factors: about that many ulps)."""
        from scipy import stats

        out = np.zeros(last - first + 1)
        lo, hi = max(first, 0), min(last, self.trials)
        if lo > hi:
            return out
        w_lo, w_hi = (self.trials - hi, self.trials - lo) if self.flipped else (lo, hi)
        if self.rate == 0:                               # W = 0
            values = (np.arange(w_lo, w_hi + 1) == 0).astype(float)
            out[lo - first:hi - first + 1] = values[::-1] if self.flipped else values
            return out
        mode = min(max(math.floor((self.trials + 1) * self.rate), w_lo), w_hi)
        values = np.empty(w_hi - w_lo + 1)
        values[mode - w_lo] = stats.binom.pmf(mode, self.trials, self.rate)
        odds = self.rate / (1.0 - self.rate)
        up = np.arange(mode, w_hi)                       # k → k + 1
        values[mode - w_lo + 1:] = values[mode - w_lo] * np.cumprod(
            (self.trials - up) / (up + 1.0) * odds)
        down = np.arange(mode - 1, w_lo - 1, -1)         # k + 1 → k
        if down.size:
            values[:mode - w_lo][::-1] = values[mode - w_lo] * np.cumprod(
                (down + 1.0) / (self.trials - down) / odds)
        if self.flipped:
            values = values[::-1]
        out[lo - first:hi - first + 1] = values
        return out

    def _below(self, k):     # Pr(W ≤ k) of the counted binomial W, any integers k
        from scipy.special import bdtr

        k = np.asarray(k)
        inside = (k >= 0) & (k < self.trials)
        value = bdtr(np.where(inside, k, 0), self.trials, self.rate)
        return np.where(k < 0, 0.0, np.where(inside, value, 1.0))

    def _above(self, k):     # Pr(W > k)
        from scipy.special import bdtrc

        k = np.asarray(k)
        inside = (k >= 0) & (k < self.trials)
        value = bdtrc(np.where(inside, k, 0), self.trials, self.rate)
        return np.where(k < 0, 1.0, np.where(inside, value, 0.0))

    def window(self) -> tuple[int, int, float]:
        """A window ``[lo, hi]`` of the count outside which each tail has at most
        :data:`TAIL_MASS` (Bernstein's inequality, ``Pr(W − μ ≥ a) ≤ exp(−a²/(2(σ² +
        a/3)))``, solved for ``a``; no search), and the exact mass outside it."""
        log_tau = -math.log(TAIL_MASS)
        spread = self.trials * self.rate * (1.0 - self.rate)
        reach = log_tau / 3 + math.sqrt((log_tau / 3) ** 2 + 2 * spread * log_tau)
        mean = self.trials * self.rate
        low = max(0, math.floor(mean - reach))
        high = min(self.trials, math.ceil(mean + reach))
        if self.flipped:
            low, high = self.trials - high, self.trials - low
        out = float(self.cdf(low - 1)) + float(self.sf(high))
        return low, high, out

    def cdf(self, t):
        """``Pr(count ≤ t)``."""
        t = np.asarray(t)
        return self._above(self.trials - t - 1) if self.flipped else self._below(t)

    def sf(self, t):
        """``Pr(count > t)``."""
        t = np.asarray(t)
        return self._below(self.trials - t - 1) if self.flipped else self._above(t)


class _Counts:
    """The others' count ``S = X + Y`` of one dataset, ``X ~ Bin(m, A)`` and ``Y ~
    Bin(users − 1 − m, B)``, set up for the two sums δ needs: its pmf at a point and its
    tails, each a dot product over the narrower binomial's window (its mass outside, at
    most 2 :data:`TAIL_MASS`, is :attr:`tail`) against the wider one's pmf and survival
    function, tabulated once on the range those dot products reach."""

    def __init__(self, narrow: _Binomial, wide: _Binomial) -> None:
        self.tail = narrow.dropped + wide.dropped
        lo, hi, out = narrow.window()
        self.tail += out
        self.j = np.arange(lo, hi + 1)
        self.weights = narrow.pmf_range(lo, hi)
        w_lo, w_hi, out = wide.window()
        self.tail += out
        # S's window; a t outside it has pmf below the tails already counted
        self.first, self.last = lo + w_lo, hi + w_hi
        # the wide law tabulated on every argument t − j that pmf (t in [first − 1, last
        # + 1]) and at_least (t − 1 in [first − 2, last]) reach
        self.base = self.first - 2 - hi
        args = np.arange(self.base, self.last + 2 - lo)
        self.wide_pmf = wide.pmf_range(int(args[0]), int(args[-1]))
        # Pr(W > u) = Pr(W > top) + Σ_{u < v ≤ top} pmf(v): one survival value and a
        # cumulative sum of positives (its rounding is in self.rounding)
        above = np.cumsum(self.wide_pmf[:0:-1])[::-1]
        self.wide_sf = np.append(above, 0.0) + float(wide.sf(int(args[-1])))
        # relative rounding of a tail: the pmf's products and the cumulative sum (each
        # about one ulp a term) and the dot product
        self.rounding = 4 * np.finfo(float).eps * (args.size + self.j.size + 4)

    def _slice(self, table, t: int):
        # table[t − j − base] for j in self.j (j ascending: the slice runs backwards)
        start = t - int(self.j[-1]) - self.base
        return table[start:start + self.j.size][::-1]

    def pmf(self, t: int) -> float:
        return float(self.weights @ self._slice(self.wide_pmf, t))

    def at_least(self, t: int) -> float:
        """``Pr(S ≥ t)`` (the window's part) for ``t`` in ``[first, last + 1]``."""
        return float(self.weights @ self._slice(self.wide_sf, t - 1))


class _BinaryExact:
    """The exact δ(ε) of a two-output kernel (module docstring) by branch and bound over
    the datasets.

    The replaced user sits at the two extreme rows, with a one of probability ``A > B``,
    and ``m`` of the others at ``A``, the rest at ``B`` (the module docstring's convexity
    argument); δ(ε) is the largest over ``m ∈ {0, …, n − 1}`` and both directions of
    ``δ_m(ε)``, the hockey-stick divergence between the counts ``S + Bern(A)`` and ``S +
    Bern(B)`` with ``S`` the others' count. The largest is not always at ``m = 0`` or
    ``n − 1`` (it is interior for binary randomized response at ε₀ = 1.23, n = 42, ε = 1),
    so every ``m`` is accounted for:

    * *one* ``δ_m(ε)`` in ``O(window · log window)``: ``S`` is a sum of independent
      Bernoulli variables, so its pmf ``z`` is log-concave and ``z_{t−1}/z_t`` is
      non-decreasing. The count ``t`` has positive excess ``(A − e^ε B) z_{t−1} −
      (e^ε (1 − B) − (1 − A)) z_t`` exactly on a suffix ``t ≥ t*`` (found by bisection),
      so ``δ_m(ε) = (A − e^ε B) Pr(S ≥ t* − 1) − (e^ε (1 − B) − (1 − A)) Pr(S ≥ t*)``;
      the other direction is this one with zeros and ones exchanged;
    * *a block* ``m ∈ [m₁, m₂]`` at once: each such dataset has ``m₁`` others at ``A``,
      ``n − 1 − m₂`` at ``B`` and ``h = m₂ − m₁`` free. Revealing the free users' count
      ``F`` (independent of the replaced user, the same law under both inputs) can only
      raise δ, and what is left is the dataset of ``n − h`` users with ``m₁`` at ``A``:
      ``δ_m(ε) ≤ δ^{(n − h)}_{m₁}(ε)`` for every ``m`` in the block.

    A block whose bound is at most the best single value found is discarded; otherwise
    its midpoint is evaluated and its halves examined (depth first). The curve's
    U shape (steep in ``m``, largest near the ends) leaves few blocks. The mass of the
    binomials outside their windows is added, so every value is an upper bound, and
    rounding of the two tails' difference is added (a few ulps a term of their sum).
    """

    def __init__(self, high: float, low: float, n: int, high_zero: float | None = None,
                 low_zero: float | None = None) -> None:
        self.n = n
        self.one = (high, low)
        self.zero = (1.0 - high if high_zero is None else high_zero,
                     1.0 - low if low_zero is None else low_zero)
        self._counts: dict[tuple[int, int, bool], _Counts] = {}
        self.exact = True    # whether the last search closed without slack

    # -- one dataset --------------------------------------------------------------------

    def _law(self, users: int, m: int, mirrored: bool) -> _Counts:
        key = (users, m, mirrored)
        if key not in self._counts:
            if len(self._counts) > _MAX_CACHED:
                self._counts.clear()
            (a, b), (a0, b0) = (self.zero[::-1], self.one[::-1]) if mirrored else (
                self.one, self.zero)
            x, y = _Binomial(m, a, a0), _Binomial(users - 1 - m, b, b0)
            wide, narrow = (x, y) if _variance(x) >= _variance(y) else (y, x)
            self._counts[key] = _Counts(narrow, wide)
        return self._counts[key]

    def _one_direction(self, users: int, m: int, eps: float, mirrored: bool) -> float:
        """δ of ``S + Bern(A)`` over ``S + Bern(B)``; mirrored: zeros and ones exchanged
        (``A' = 1 − B``, ``B' = 1 − A``, the ``users − 1 − m`` others at ``B`` now at
        ``A'``)."""
        (a, b), (a0, b0) = (self.zero[::-1], self.one[::-1]) if mirrored else (
            self.one, self.zero)
        # past e^709 the value at 709 (larger: δ is non-increasing in ε) is returned
        growth = math.exp(min(eps, _LOG_MAX))
        lead = a - growth * b                 # coefficient of z_{t−1}
        if not lead > 0:
            return 0.0
        lag = growth * b0 - a0                # of z_t; ≥ A − B > 0
        law = self._law(users, users - 1 - m if mirrored else m, mirrored)
        lo, hi = law.first, law.last + 1
        if lead * law.pmf(hi - 1) - lag * law.pmf(hi) <= 0:
            # the suffix starts past the window: its mass, at most the tail, bounds it
            return law.tail
        if lead * law.pmf(lo - 1) - lag * law.pmf(lo) <= 0:
            while hi - lo > 1:                # the first positive t: in (lo, hi]
                mid = (lo + hi) // 2
                if lead * law.pmf(mid - 1) - lag * law.pmf(mid) > 0:
                    hi = mid
                else:
                    lo = mid
            start = hi
        else:
            start = lo
        upper, lower = law.at_least(start - 1), law.at_least(start)
        value = lead * upper - lag * lower
        return max(0.0, value) + law.rounding * (lead * upper + lag * lower) + law.tail

    def _at(self, users: int, m: int, eps: float) -> float:
        return float(min(1.0, max(self._one_direction(users, m, eps, False),
                            self._one_direction(users, m, eps, True))))

    def _level(self) -> float:
        (a, b), (a0, b0) = self.one, self.zero
        with np.errstate(divide="ignore"):
            return float(max(np.log(a) - np.log(b), np.log(b0) - np.log(a0)))

    # -- every dataset --------------------------------------------------------------------

    def _search(self, value: Callable[[int, float], float],
                bound: Callable[[int, int, float], bool], slack: float) -> float:
        """The largest ``value(m, best)`` over ``m ∈ [0, n − 1]`` (``value`` may return
        ``best`` when it sees ``m``'s value is no larger), skipping a block ``[m₁, m₂]``
        when ``bound(users, m₁, best)`` says none of its values exceeds ``best``. After
        :data:`BINARY_EXACT_BLOCKS` blocks a block is also skipped when none of its
        values exceeds ``slack(best)``, and then that is returned: every value is at
        most it."""
        n = self.n
        best = max(value(0, 0.0), value(n - 1, 0.0))
        blocks, examined, loose = [(1, n - 2)], 0, False
        while blocks:
            m1, m2 = blocks.pop()
            if m1 > m2:
                continue
            users = n - (m2 - m1)
            examined += 1
            if bound(users, m1, best):
                continue
            if examined > BINARY_EXACT_BLOCKS and bound(users, m1, slack(best)):
                loose = True
                continue
            mid = (m1 + m2) // 2
            best = max(best, value(mid, best))
            blocks += [(mid + 1, m2), (m1, mid - 1)]
        self.exact = not loose
        return slack(best) if loose else best

    def delta(self, eps: float) -> float:
        if eps >= self._level():
            self.exact = True
            return 0.0
        return min(1.0, self._search(
            lambda m, best: self._at(self.n, m, eps),
            lambda users, m, best: self._at(users, m, eps) <= best,
            lambda best: best * (1.0 + BINARY_DELTA_RTOL)))

    def epsilon(self, delta: float) -> float:
        level = self._level()

        def one(m: int, best: float) -> float:
            if best > 0 and self._at(self.n, m, best) <= delta:
                return best
            return _invert(lambda e: self._at(self.n, m, e), delta, level)

        return min(level, self._search(
            one, lambda users, m, best: self._at(users, m, best) <= delta,
            lambda best: best * (1.0 + BINARY_EPSILON_RTOL)))


#: Count laws kept between calls of one exact curve (each is two tables of a window).
_MAX_CACHED = 256


def _variance(law: _Binomial) -> float:
    return law.trials * law.rate


def _binomial_windows(trials: NDArray[np.int64], rate: float, complement: float):
    """:meth:`_Binomial.window` for many trial counts at one rate: arrays ``lo``, ``hi``
    and the exact mass outside each window."""
    from scipy.special import bdtr, bdtrc

    flipped = rate > complement
    small = complement if flipped else rate
    log_tau = -math.log(TAIL_MASS)
    if small < MIN_RATE:   # read as 0 (as _Binomial does); its mass goes to the tail
        dropped = np.minimum(1.0, trials * small)
        zero = np.zeros_like(trials)
        return (trials, trials, dropped) if flipped else (zero, zero, dropped)
    spread = trials * small * (1.0 - small)
    reach = log_tau / 3 + np.sqrt((log_tau / 3) ** 2 + 2 * spread * log_tau)
    mean = trials * small
    low = np.maximum(0, np.floor(mean - reach)).astype(np.int64)
    high = np.minimum(trials, np.ceil(mean + reach)).astype(np.int64)
    below = np.where(low > 0, bdtr(np.maximum(low - 1, 0), trials, small), 0.0)
    above = np.where(high < trials, bdtrc(np.minimum(high, trials - 1), trials, small), 0.0)
    outside = below + above
    if flipped:
        low, high = trials - high, trials - low
    return low, high, outside


def _binomial_pmf(t: NDArray[np.int64], trials: NDArray[np.int64], rate: float,
                  complement: float) -> NDArray[np.float64]:
    """``Pr(Bin(trials, rate) = t)`` elementwise, the rate above 1/2 counted by its
    complement (as :class:`_Binomial`)."""
    from scipy import stats

    if rate > complement:
        return stats.binom.pmf(trials - t, trials, complement)
    return stats.binom.pmf(t, trials, rate)


def _binomial_window(law, trials: int) -> tuple[int, int, float]:
    """The smallest window ``[lo, hi]`` of ``Bin(trials, ·)`` outside which each tail has
    at most :data:`TAIL_MASS` (found by bisection on the cdf: scipy's ``isf`` at 1e-18 is
    unreliable), and the mass outside it."""
    def last_below(mass_at_most) -> int:   # largest k in [−1, trials] with predicate
        lo, hi = -1, trials
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if mass_at_most(mid):
                lo = mid
            else:
                hi = mid - 1
        return lo

    lo = last_below(lambda k: law.cdf(k) <= TAIL_MASS) + 1            # cdf(lo − 1) ≤ τ
    hi = trials - last_below(lambda j: law.sf(trials - j) <= TAIL_MASS)  # sf(hi) ≤ τ
    hi = max(hi, lo)
    left_out = (float(law.cdf(lo - 1)) if lo > 0 else 0.0) + (
        float(law.sf(hi)) if hi < trials else 0.0)
    return lo, hi, left_out


# -- results ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ShuffleEpsilon:
    """The central ε of ``n`` shuffled reports at δ; ``float()`` is :attr:`epsilon`.

    Parameters
    ----------
    epsilon : float
        The smallest of :attr:`bounds` (``method`` names it).
    delta : float
        The central δ, in ``(0, 1)``.
    n : int
        Users.
    rounds : int
        Releases composed.
    method : str
        ``"exact"`` (two outputs, one round), ``"binary"`` (the same to within
        :data:`BINARY_EPSILON_RTOL` above it, where the exact search is long),
        ``"blanket"`` (one round, a kernel whose rows are its blanket plus one spike,
        such as k-RR: the blanket's counts, summed exactly), ``"bennett"`` and
        ``"hoeffding"`` (one round, any kernel with a blanket: the blanket's privacy
        loss by either concentration inequality), ``"kernel"`` (the kernel's own row
        pairs, each by its clones or its variation-ratio split), ``"clones"`` (any
        ε₀-LDP randomizer, Feldman–McMillan–Talwar) or ``"local"`` (``rounds × ε₀``: no
        amplification).
    bounds : dict
        Every bound computed, by name: each an upper bound on the central ε.
    parameters : ShuffleParameters
        The kernel's shuffle parameters.
    """

    epsilon: float
    delta: float
    n: int
    rounds: int
    method: str
    bounds: dict[str, float]
    parameters: ShuffleParameters

    def __float__(self) -> float:
        return self.epsilon


@dataclass(frozen=True)
class ShuffleDelta:
    """The central δ of ``n`` shuffled reports at ε; ``float()`` is :attr:`delta`.

    Parameters
    ----------
    delta : float
        The smallest of :attr:`bounds` (``method`` names it).
    epsilon : float
        The central ε (nats) at which δ is read.
    n : int
        Users.
    rounds : int
        Releases composed.
    method : str
        ``"exact"``, ``"binary"`` (within :data:`BINARY_DELTA_RTOL` above the exact
        value), ``"blanket"``, ``"bennett"``, ``"hoeffding"``, ``"kernel"``, ``"clones"``
        or ``"local"``, as in :class:`ShuffleEpsilon`.
    bounds : dict
        Every bound computed, by name: each an upper bound on the central δ.
    parameters : ShuffleParameters
        The kernel's shuffle parameters.
    """

    delta: float
    epsilon: float
    n: int
    rounds: int
    method: str
    bounds: dict[str, float]
    parameters: ShuffleParameters

    def __float__(self) -> float:
        return self.delta


def shuffle_epsilon(
    K: Mechanism | ArrayLike | PureOracle | float,
    n: int,
    delta: float,
    *,
    rounds: int = 1,
) -> ShuffleEpsilon:
    """The central ε at δ of ``n`` users' reports through ``K``, shuffled (module
    docstring: clone reductions [1]_ and variation-ratio splits [2]_), against replacing
    one user's input.

    Parameters
    ----------
    K : Mechanism, array_like of shape (N, M), PureOracle, or float
        The kernel every user applies (rows are inputs), a deployed protocol at any size
        (:class:`~mechdesign.mechanisms.oracles.PureOracle`), or a number ε₀: any ε₀-LDP
        randomizer.
    n : int
        Users (``1 ≤ n ≤`` :data:`MAX_USERS`), each reporting once per round.
    delta : float
        ``0 < δ < 1``.
    rounds : int, default 1
        Releases of the same users with the same inputs, composed (``≥ 1``).

    Returns
    -------
    ShuffleEpsilon
        The smallest of the valid bounds computed, ``.method`` naming it and ``.bounds``
        holding all of them.

    Raises
    ------
    TooLargeError
        ``rounds > 1`` needs a count distribution above :data:`PLD_MAX_CELLS` cells or a
        composed loss grid above :data:`~mechdesign.accounting.composition.ACCOUNTING_MAX_GRID`.

    References
    ----------
    .. [1] V. Feldman, A. McMillan, K. Talwar, "Hiding Among the Clones: A Simple and Nearly
           Optimal Analysis of Privacy Amplification by Shuffling", FOCS 2021, arXiv:2012.12803.
    .. [2] S. Wang et al., "Privacy Amplification via Shuffling: Unified, Simplified, and
           Tightened", Proceedings of the VLDB Endowment 2024, arXiv:2304.05007.
    """
    n = check_size(n, "n", MAX_USERS, why="MAX_USERS")
    d = _check_delta(delta)
    rounds = check_positive_int(rounds, "rounds")
    if isinstance(K, PureOracle):   # a frozen structure: remembered (compare asks twice)
        return _oracle_epsilon(K, n, d, rounds)
    return _shuffle_epsilon(K, n, d, rounds)


@functools.lru_cache(maxsize=ORACLE_CACHE_SIZE)
def _oracle_epsilon(oracle: PureOracle, n: int, d: float, rounds: int) -> ShuffleEpsilon:
    return _shuffle_epsilon(oracle, n, d, rounds)


def _shuffle_epsilon(K: object, n: int, d: float, rounds: int) -> ShuffleEpsilon:
    """:func:`shuffle_epsilon` on validated arguments."""
    K = _unless_pure(K)
    params = shuffle_parameters(K)
    bounds: dict[str, float] = {}
    if rounds == 1:
        binary = _binary(K, n)
        if binary is not None:
            value = binary.epsilon(d)
            bounds["exact" if binary.exact else "binary"] = value
        spikes = _spikes(K)
        if spikes is not None:
            bounds["blanket"] = max(_SpikeBlanket(spikes[0], a, b, n).epsilon(d)
                                    for a, b in spikes[1])
        tails = _blanket_tails(K, n)
        if tails is not None:
            for name in ("hoeffding", "bennett"):
                bounds[name] = tails.epsilon(d, name)
        if not _is_number(K):
            bounds["kernel"] = _kernel_epsilon(params.pairs, n, d)
        bounds["clones"] = _ReductionCurve(clones_reduction(params.epsilon0), n).epsilon(d)
    else:
        for name, pairs in _composable(K, params):
            bounds[name] = max((min(_composed(red, n, rounds).get_epsilon_for_delta(d)
                                    for red in pair) for pair in pairs), default=0.0)
    bounds["local"] = rounds * params.epsilon0
    method = min(bounds, key=bounds.__getitem__)
    return ShuffleEpsilon(bounds[method], d, n, rounds, method, bounds, params)


def shuffle_delta(
    K: Mechanism | ArrayLike | PureOracle | float,
    n: int,
    epsilon: float,
    *,
    rounds: int = 1,
) -> ShuffleDelta:
    """The central δ at ε of ``n`` users' reports through ``K``, shuffled (see
    :func:`shuffle_epsilon` for the arguments): the smallest of the valid bounds, each an
    upper bound on the true δ (equal to it when ``.method == "exact"``).

    Parameters
    ----------
    K : Mechanism, array_like of shape (N, M), PureOracle, or float
        The kernel every user applies (rows are inputs), a deployed protocol
        (:class:`~mechdesign.mechanisms.oracles.PureOracle`), or a number ε₀: any ε₀-LDP
        randomizer.
    n : int
        Users (``1 ≤ n ≤`` :data:`MAX_USERS`), each reporting once per round.
    epsilon : float
        The central ε (nats, ``≥ 0``).
    rounds : int, default 1
        Releases of the same users with the same inputs, composed (``≥ 1``).

    Returns
    -------
    ShuffleDelta
    """
    n = check_size(n, "n", MAX_USERS, why="MAX_USERS")
    eps = check_epsilon(epsilon)
    rounds = check_positive_int(rounds, "rounds")
    K = _unless_pure(K)
    params = shuffle_parameters(K)
    bounds: dict[str, float] = {}
    if rounds == 1:
        binary = _binary(K, n)
        if binary is not None:
            value = binary.delta(eps)
            bounds["exact" if binary.exact else "binary"] = value
        spikes = _spikes(K)
        if spikes is not None:
            bounds["blanket"] = max(_SpikeBlanket(spikes[0], a, b, n).delta(eps)
                                    for a, b in spikes[1])
        tails = _blanket_tails(K, n)
        if tails is not None:
            bounds.update(tails.bounds(eps))
        if not _is_number(K):
            bounds["kernel"] = max((min(_ReductionCurve(red, n).delta(eps) for red in pair)
                                    for pair in params.pairs), default=0.0)
        bounds["clones"] = _ReductionCurve(clones_reduction(params.epsilon0), n).delta(eps)
    else:
        query = min(eps, 700.0)
        for name, pairs in _composable(K, params):
            bounds[name] = max((min(min(1.0, float(_composed(red, n, rounds)
                                                   .get_delta_for_epsilon(query)))
                                    for red in pair) for pair in pairs), default=0.0)
    bounds["local"] = 0.0 if eps >= rounds * params.epsilon0 else 1.0
    method = min(bounds, key=bounds.__getitem__)
    return ShuffleDelta(bounds[method], eps, n, rounds, method, bounds, params)


def _kernel_epsilon(pairs: tuple[tuple[Reduction, Reduction], ...], n: int,
                    delta: float) -> float:
    """max over the row pairs of the smaller ε of their two reductions at δ: the first
    pair (largest level) inverted, then each other checked at the running maximum and
    inverted only if both its reductions exceed δ there."""
    worst = 0.0
    for pair in pairs:
        curves = [_ReductionCurve(red, n) for red in pair]
        if worst > 0 and min(curve.delta(worst) for curve in curves) <= delta:
            continue
        worst = max(worst, min(curve.epsilon(delta) for curve in curves))
    return worst


def _binary(K: object, n: int) -> _BinaryExact | None:
    """The exact binary curve when K has two used outputs."""
    if _is_number(K) or isinstance(K, PureOracle):
        if isinstance(K, PureOracle) and K.family == "grr" and K.k == 2:
            K = K.dense()
        else:
            return None
    k = as_matrix(K, "K")
    k = k[:, k.max(axis=0) > 0]
    if k.shape[1] != 2:
        return None
    ones = k[:, 1]
    top, bottom = int(np.argmax(ones)), int(np.argmin(ones))
    if ones[top] == ones[bottom]:
        return _BinaryExact(0.5, 0.5, 1)  # no privacy loss at all
    return _BinaryExact(float(ones[top]), float(ones[bottom]), n,
                        float(k[top, 0]), float(k[bottom, 0]))


# -- kernels with one spike a row: the blanket's counts, exactly -------------------------


class _SpikeBlanket:
    """δ(ε) of one row pair of a kernel whose every row is its blanket plus one spike
    (k-randomized response and its weighted forms), from the counts of the blanket's
    reports at the pair's two spikes.

    Write every row as ``K[x] = γ ω + (1 − γ) 1_{y(x)}``: ``γ = Σ_y min_x K[x, y]`` is the
    blanket mass (Balle, Bell, Gascón & Nissim [1]_), ``ω`` the blanket distribution (the
    column minima over ``γ``) and ``y(x)`` the output where row ``x`` exceeds its column
    minimum. For k-RR at ε₀, ``γ = k/(e^{ε₀} + k − 1)`` and ``ω`` is uniform.

    *The reduction.* Each other user reports a draw of ``ω`` with probability ``γ``
    (independently), its own spike otherwise. Let ``V`` be the histogram of the others'
    spike reports and ``G`` the number of their blanket draws; ``V`` has the same law
    under both inputs and fixes ``G = n − 1 − |V|``. Put the replaced user's report with
    the blanket draws: under input ``x_b`` the histogram ``N`` of those reports is ``G``
    draws of ``ω`` plus one report from ``γ ω + (1 − γ) 1_{y_b}``. The release is ``V + N``,
    a post-processing of ``(V, N)``, and given ``V`` the pair is that of ``N`` at ``G``, so
    ``δ(ε) ≤ E_G δ_G(ε)`` with ``G ~ Bin(n − 1, γ)``. With ``m = G + 1`` and ``f`` the
    multinomial law of ``m`` draws of ``ω``, ``f(h − 1_y) = f(h) h_y/(m ω_y)``, so

        P(h) = f(h) (γ + (1 − γ) h_{y₀}/(m ω₀)),   Q(h) = f(h) (γ + (1 − γ) h_{y₁}/(m ω₁)).

    Given the counts ``(a, b)`` at ``y₀, y₁`` the rest of ``h`` is the same multinomial
    under both, so ``δ_G`` is a sum over ``s = a + b ~ Bin(m, ω₀ + ω₁)`` and ``a | s ~
    Bin(s, π)``, ``π = ω₀/(ω₀ + ω₁)``; the excess is linear and increasing in ``a``, so for
    each ``s`` it is a binomial tail and a partial mean, ``E[A; A ≥ t] = s π Pr(Bin(s − 1,
    π) ≥ t − 1)``.

    *Blocks of G.* One more blanket draw is a post-processing of ``N`` (an independent
    report, the same under both inputs), so ``δ_G`` does not increase with ``G`` and a
    block ``[g₁, g₂]`` of the window of ``G`` is charged ``Pr(G ∈ block) δ_{g₁}`` (blocks of
    one count while :data:`SPIKE_MAX_CELLS` allows); the window's outside mass and each
    ``s`` window's are added. With two outputs this is
    Feldman, McMillan & Talwar's clone reduction at ``r = 1/(e^{ε₀} + 1)``; with ``k``
    outputs it keeps the ``k − 2`` outputs where the blanket lands away from the pair,
    which the clone reduction gives away.

    References
    ----------
    .. [1] B. Balle, J. Bell, A. Gascón, K. Nissim, "The Privacy Blanket of the Shuffle
           Model", CRYPTO 2019, arXiv:1903.02837.
    """

    def __init__(self, gamma: float, w0: float, w1: float, n: int) -> None:
        self.gamma, self.w0, self.w1, self.n = gamma, w0, w1, n
        others = _Binomial(n - 1, gamma, 1.0 - gamma)
        g_lo, g_hi, self.tail = others.window()
        mass = others.pmf_range(g_lo, g_hi)
        s_lo, s_hi, _ = _Binomial(g_hi + 1, w0 + w1, 1.0 - w0 - w1).window()
        cells = (g_hi - g_lo + 1) * (s_hi - s_lo + 1)      # about, at one count per block
        width = max(1, -(-cells // SPIKE_MAX_CELLS))
        starts = np.arange(0, g_hi - g_lo + 1, width)
        weights = np.add.reduceat(mass, starts)
        # every block's m = g + 1 at once: its window of s ~ Bin(m, ω₀ + ω₁), the mass
        # outside it, and the pmf on it (one vectorised call over all the cells)
        m = (g_lo + starts + 1).astype(np.int64)
        s_lo, s_hi, outside = _binomial_windows(m, w0 + w1, 1.0 - w0 - w1)
        self.tail += math.fsum(weights * outside)
        lengths = s_hi - s_lo + 1
        block = np.repeat(np.arange(m.size), lengths)
        first = np.cumsum(lengths) - lengths
        self.s = (np.arange(lengths.sum()) - first[block] + s_lo[block]).astype(np.int64)
        counts = m[block]
        self.m = counts.astype(float)
        self.mass = weights[block] * _binomial_pmf(self.s, counts, w0 + w1, 1.0 - w0 - w1)

    def _direction(self, eps: float, w0: float, w1: float) -> float:
        from scipy.special import bdtrc

        g = self.gamma
        # δ does not increase with ε, so past e^600 the value at 600 is returned (an upper
        # bound); terms that still overflow make the block's bound the trivial 1
        eps = min(eps, _SPIKE_LOG_MAX)
        growth = math.exp(eps)
        s, m = self.s, self.m
        pi = w0 / (w0 + w1)
        # excess at (a, b = s − a): γ(1 − e^ε) + (1 − γ)/m (a/ω₀ − e^ε b/ω₁), kept in a and b
        # (written as c0 + c1 a it cancels e^ε s/ω₁ against e^ε a/ω₁ when a = s)
        def excess(a):
            return g * -math.expm1(eps) + (1 - g) / m * (a / w0 - growth * (s - a) / w1)

        with np.errstate(over="ignore", invalid="ignore"):
            guess = (g * math.expm1(eps) * m / (1 - g) + growth * s / w1) / (1 / w0 + growth / w1)
        if not np.all(np.isfinite(guess)):
            return 1.0
        start = np.clip(np.floor(guess) + 1, 0, s + 1).astype(np.int64)  # first a > 0
        start = np.where((start >= 1) & (excess(start - 1) > 0), start - 1, start)
        start = np.where((start <= s) & (excess(start) <= 0), start + 1, start)

        def at_least(t, trials):   # Pr(Bin(trials, π) ≥ t)
            inside = (t >= 1) & (t <= trials)
            value = bdtrc(np.where(inside, t - 1, 0), np.where(inside, trials, 1), pi)
            return np.where(t <= 0, 1.0, np.where(t > trials, 0.0, value))

        # Σ_{a ≥ t}: Pr(A ≥ t), E[A; A ≥ t] = sπ Pr(Bin(s − 1, π) ≥ t − 1) and
        # E[B; A ≥ t] = s(1 − π) Pr(Bin(s − 1, π) ≥ t)
        rest = np.maximum(s - 1, 0)
        below, above = at_least(start - 1, rest), at_least(start, rest)
        ones = (1 - g) / m * s * pi / w0 * below
        others = (1 - g) / m * growth * s * (1 - pi) / w1 * above
        # Pr(Bin(s, π) ≥ t) = π Pr(Bin(s − 1, π) ≥ t − 1) + (1 − π) Pr(Bin(s − 1, π) ≥ t)
        # for s ≥ 1 (the last trial a success or not); at s = 0 it is 1[t ≤ 0]
        tail = np.where(s >= 1, pi * below + (1 - pi) * above, (start <= 0).astype(float))
        base = g * -math.expm1(eps) * tail
        terms = self.mass * (base + ones - others)
        rounding = TAIL_RTOL * float(np.sum(self.mass * (np.abs(base) + ones + others)))
        return max(0.0, math.fsum(terms)) + rounding

    def level(self) -> float:
        """The pair's pure level: ``P/Q`` is largest at a spike, ``1 + (1 − γ)/(γ ω)``."""
        g = self.gamma
        return max(math.log1p((1 - g) / (g * self.w0)), math.log1p((1 - g) / (g * self.w1)))

    def delta(self, eps: float) -> float:
        if eps >= self.level():
            return 0.0
        worst = self._direction(eps, self.w0, self.w1)
        if self.w1 != self.w0:   # the pair is symmetric when its spikes weigh the same
            worst = max(worst, self._direction(eps, self.w1, self.w0))
        return min(1.0, worst + self.tail)

    def epsilon(self, delta: float) -> float:
        return _invert(self.delta, delta, self.level())


_SPIKE_LOG_MAX = 600.0


def _spikes(K: object) -> tuple[float, tuple[tuple[float, float], ...]] | None:
    """``(γ, pairs of (ω₀, ω₁))`` when every row of K is its blanket plus one spike of
    the same mass (k-RR: one pair), else None; at most :data:`ROUNDS_MAX_PAIRS` distinct
    pairs."""
    if isinstance(K, PureOracle):
        if K.family != "grr":
            return None
        gamma = _oracle_blanket(K)
        return gamma, ((1.0 / K.k, 1.0 / K.k),)
    if _is_number(K):
        return None
    k = as_matrix(K, "K")
    floor = k.min(axis=0)
    gamma = float(floor.sum())
    excess = k - floor
    spike = excess.argmax(axis=1)
    top = excess[np.arange(k.shape[0]), spike]
    rest = excess.sum(axis=1) - top
    if not (gamma > 0 and np.all(top > 0)
            and np.allclose(top, 1.0 - gamma, rtol=SPIKE_RTOL, atol=0)
            and np.all(rest <= SPIKE_RTOL * top)):
        return None
    outputs = np.unique(spike)
    if outputs.size < 2:
        return None
    weights = floor[outputs] / gamma
    if not np.all(weights > 0):
        return None
    distinct = {(float(f"{a:.{DEDUP_DIGITS}g}"), float(f"{b:.{DEDUP_DIGITS}g}")): (a, b)
                for i, a in enumerate(weights) for b in weights[i + 1:]}
    if len(distinct) > ROUNDS_MAX_PAIRS:
        return None
    return gamma, tuple((float(a), float(b)) for a, b in distinct.values())


# -- any kernel with a blanket: concentration of the blanket's privacy loss ---------------


class _BlanketTails:
    """δ(ε) of any kernel through its privacy blanket, by Hoeffding's and Bennett's
    inequalities (Balle, Bell, Gascón & Nissim [1]_, Section 3; derived here in full).

    *The reduction.* With ``γ = Σ_y min_x K[x, y]`` and ``ω = min_x K[x, ·]/γ``, every row
    is ``K[x] = γ ω + (1 − γ) L_x`` with ``L_x ≥ 0`` a distribution. Each other user
    reports a draw of ``ω`` with probability ``γ`` (independently of the inputs), else a
    draw of its ``L_x``; revealing which users drew from ``ω`` and the multiset of the
    rest's reports is a post-processing in reverse, and the rest has the same law under
    both inputs. So ``δ(ε) ≤ E_G δ_G(ε)`` with ``G ~ Bin(n − 1, γ)`` and ``δ_G`` the
    hockey-stick divergence between the multisets of ``m = G + 1`` reports, one from
    ``P⁰`` (resp. ``P¹``) and ``G`` from ``ω``. Relative to the multiset of ``m`` draws of
    ``ω`` the two have densities ``(1/m) Σ_i P^b(Z_i)/ω(Z_i)`` (the replaced user is any
    of the ``m`` with probability ``1/m``; an ε₀-LDP kernel has ``P^b ≪ ω``), so

        δ_G(ε) = (1/m) E[(Σ_{i ≤ m} ℓ(Z_i))_+],   ℓ(y) = (P⁰(y) − e^ε P¹(y))/ω(y),

    ``Z_i`` i.i.d. ``ω``: a sum of i.i.d. terms of mean ``μ = 1 − e^ε ≤ 0``, and
    ``E[S_+] = ∫_0^∞ Pr(S > s) ds`` with ``Pr(S > s) = Pr(S − mμ > s + m|μ|)``.

    * *Hoeffding* (``ℓ`` in an interval of width ``w``): ``Pr(S − mμ ≥ t) ≤
      exp(−2t²/(m w²))``, so ``δ_G ≤ w √(π/(8m)) erfc(|μ| √(2m)/w)``.
    * *Bennett* (``ℓ − μ ≤ b``, ``Var ℓ ≤ v``): ``Pr(S − mμ ≥ t) ≤ exp(−(mv/b²)
      h(bt/(mv)))``, ``h(u) = (1 + u) log(1 + u) − u``; with ``u = bt/(mv)`` the integral is
      ``(v/b) ∫_{u₀}^∞ exp(−C h(u)) du``, ``C = mv/b²``, ``u₀ = b|μ|/v``. ``h`` is
      convex, so on each cell of a grid from ``u₀`` it lies above its tangent at the
      cell's left end and the integral is bounded by the tangents' exact integrals
      (:data:`BLANKET_GRID` cells of ``1/(8 C h'(u₀))`` each, and the tangent's tail
      past the last).
    * ``δ_G ≤ δ_0``, the pair's local hockey-stick divergence (the multiset is a
      post-processing of the replaced user's report and independent draws), and ``δ_G``
      does not increase with ``G`` (one more draw is a post-processing), so a block of
      ``G`` is charged its smallest ``G``'s bound.

    Both inequalities hold with any ``w``, ``b`` and ``v`` at least the true width,
    supremum and variance (their proofs bound ``E e^{λ(ℓ − μ)}`` by quantities
    increasing in each), so one set of parameters — the largest over the ordered row
    pairs — bounds every pair; the smaller of the two bounds (and ``δ_0``) is taken at
    each ``G``. ``"hoeffding"`` and ``"bennett"`` report each alone.

    References
    ----------
    .. [1] B. Balle, J. Bell, A. Gascón, K. Nissim, "The Privacy Blanket of the Shuffle
           Model", CRYPTO 2019, arXiv:1903.02837.
    """

    def __init__(self, k: NDArray[np.float64], n: int) -> None:
        k = k[:, k.max(axis=0) > 0]
        floor = k.min(axis=0)
        self.gamma = float(floor.sum())
        self.omega = floor / self.gamma
        self.scaled = k / self.omega          # P(y)/ω(y) = γ P(y)/min_x K[x, y]
        with np.errstate(divide="ignore"):
            self.level = float(np.log(np.max(k / floor)))
        others = _Binomial(n - 1, self.gamma, 1.0 - self.gamma)
        g_lo, g_hi, self.tail = others.window()
        mass = others.pmf_range(g_lo, g_hi)
        width = max(1, -(-(g_hi - g_lo + 1) // BLANKET_BLOCKS))
        starts = np.arange(0, g_hi - g_lo + 1, width)
        self.weights = np.add.reduceat(mass, starts)
        self.m = (g_lo + starts + 1).astype(float)
        self._last: tuple[float, dict[str, float]] | None = None

    def _parameters(self, eps: float) -> tuple[float, float, float, float]:
        """The largest width, supremum of ``ℓ − μ``, variance and local δ over the
        ordered row pairs at ε."""
        growth = math.exp(eps)
        mu = -math.expm1(eps)
        a = self.scaled
        width = top = var = local = 0.0
        for row in a:                          # P⁰ = this row, P¹ = every row
            loss = row[None, :] - growth * a   # ℓ(y) for each P¹
            high, low = loss.max(axis=1), loss.min(axis=1)
            width = max(width, float(np.max(high - low)))
            top = max(top, float(np.max(high)) - mu)
            var = max(var, float(np.max(((loss - mu) ** 2) @ self.omega)))
            local = max(local, float(np.max(np.maximum(loss, 0.0) @ self.omega)))
        return width, top, var, local

    @staticmethod
    def _bennett(m, var: float, top: float, gap: float):
        """``(v/b) ∫_{u₀}^∞ exp(−C h(u)) du`` for each block's ``m`` by tangent lines
        (class docstring)."""
        c = m * var / top**2
        u0 = top * gap / var
        slope0 = math.log1p(u0)
        cell = 1.0 / (8.0 * c * slope0)                       # per block
        steps = np.arange(BLANKET_GRID + 1)[None, :]
        u = u0 + cell[:, None] * steps                        # (blocks, cells + 1)
        h = (1 + u) * np.log1p(u) - u
        slope = np.log1p(u)
        decay = np.exp(-c[:, None] * h)
        run = c[:, None] * slope
        pieces = decay[:, :-1] * -np.expm1(-run[:, :-1] * cell[:, None]) / run[:, :-1]
        integral = pieces.sum(axis=1) + decay[:, -1] / run[:, -1]
        return var / top * integral

    def delta(self, eps: float, name: str) -> float:
        """One of :meth:`bounds` (the last ε's are kept: an inversion asks for each)."""
        if self._last is None or self._last[0] != eps:
            self._last = eps, self.bounds(eps)
        return self._last[1][name]

    def epsilon(self, delta: float, name: str) -> float:
        return _invert(lambda e: self.delta(e, name), delta, self.level)

    def bounds(self, eps: float) -> dict[str, float]:
        """``{"hoeffding": δ, "bennett": δ}`` at ε (each with ``δ_0`` beside it)."""
        from scipy.special import erfc

        if eps >= self.level:
            return {"hoeffding": 0.0, "bennett": 0.0}
        with np.errstate(over="ignore", invalid="ignore"):
            width, top, var, local = self._parameters(eps)
        if not all(map(math.isfinite, (width, top, var, local))):
            return {"hoeffding": 1.0, "bennett": 1.0}   # overflow: the trivial bound
        gap = math.expm1(eps)                            # |μ| = e^ε − 1
        m = self.m
        hoeffding = width * np.sqrt(math.pi / (8.0 * m)) * erfc(gap * np.sqrt(2.0 * m) / width)
        bennett = np.full_like(m, local)
        if var > 0 and top > 0 and gap > 0:
            with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
                bennett = self._bennett(m, var, top, gap)
            # a loss so close to its mean that the grid overflows: δ₀ alone
            bennett = np.where(np.isfinite(bennett), bennett, local)
        hoeffding = np.minimum(hoeffding, local)
        bennett = np.minimum(bennett, local)
        rounding = TAIL_RTOL * float(self.weights.sum())
        return {name: min(1.0, float(self.weights @ value) + self.tail + rounding)
                for name, value in (("hoeffding", hoeffding), ("bennett", bennett))}


def _blanket_tails(K: object, n: int) -> _BlanketTails | None:
    """The concentration bounds' accountant for a dense kernel with a blanket and at
    most :data:`BLANKET_MAX_CELLS` pair-output cells (not for a protocol oracle: GRR's
    blanket sum is exact, and the others' outputs are too many to write out)."""
    if _is_number(K) or isinstance(K, PureOracle):
        return None
    k = as_matrix(K, "K")
    k = k[:, k.max(axis=0) > 0]
    if k.shape[0] ** 2 * k.shape[1] > BLANKET_MAX_CELLS or not np.all(k.min(axis=0) > 0):
        return None
    return _BlanketTails(k, n)


# -- rounds: composition by privacy loss distributions -----------------------------------


def _composable(K: object, params: ShuffleParameters
                ) -> list[tuple[str, tuple[tuple[Reduction, ...], ...]]]:
    named: list[tuple[str, tuple[tuple[Reduction, ...], ...]]] = [
        ("clones", ((clones_reduction(params.epsilon0),),))]
    if not _is_number(K) and len(params.pairs) <= ROUNDS_MAX_PAIRS:
        named.insert(0, ("kernel", params.pairs))
    return named


def _composed(reduction: Reduction, n: int, rounds: int):
    """The PLD of ``rounds`` releases dominated by ``reduction``: its two count
    distributions (cells ``(a, b)`` of the window of ``C``; the mass outside at infinite
    loss; the common atom ``1 − w`` at loss 0), merged by their loss's cell of the
    pessimistic grid, composed by dp_accounting."""
    from dp_accounting.pld import privacy_loss_distribution as pld
    from scipy import stats

    if reduction.u <= reduction.v:
        return pld.identity()
    if math.isfinite(reduction.level) and (rounds * 2 * reduction.level / DISCRETIZATION
                                            > ACCOUNTING_MAX_GRID):
        raise TooLargeError(
            f"rounds = {rounds} at a pair of pure level {reduction.level:.4g} need a loss grid "
            f"above ACCOUNTING_MAX_GRID = {ACCOUNTING_MAX_GRID:,} cells.")
    upper, lower, (upper_out, lower_out) = _count_distributions(reduction, n, stats)
    both = (upper > 0) & (lower > 0)
    with np.errstate(divide="ignore"):
        loss = np.log(upper[both]) - np.log(lower[both])
    cell = np.ceil(loss / DISCRETIZATION).astype(np.int64)
    base = int(cell.min()) if cell.size else 0
    up = np.bincount(cell - base, weights=upper[both])
    low = np.bincount(cell - base, weights=lower[both])
    used = np.nonzero((up > 0) | (low > 0))[0]
    with np.errstate(divide="ignore"):
        log_upper = {int(c) + base: float(np.log(up[c])) for c in used}
        log_lower = {int(c) + base: float(np.log(low[c])) for c in used}
    only_upper = float(upper[(upper > 0) & (lower == 0)].sum()) + upper_out
    only_lower = float(lower[(lower > 0) & (upper == 0)].sum()) + lower_out
    if only_upper > 0:
        log_upper["upper only"] = math.log(only_upper)
    if only_lower > 0:
        log_lower["lower only"] = math.log(only_lower)
    if reduction.weight < 1:   # the common atom: loss 0, mass 1 − w under both
        log_upper[0] = float(np.logaddexp(log_upper.get(0, -np.inf), math.log1p(-reduction.weight)))
        log_lower[0] = float(np.logaddexp(log_lower.get(0, -np.inf), math.log1p(-reduction.weight)))
    one = pld.from_two_probability_mass_functions(
        log_lower, log_upper, pessimistic_estimate=True,
        value_discretization_interval=DISCRETIZATION)
    if rounds == 1:
        return one
    # dp_accounting bounds the convolution's tails through log-MGFs of large orders, where
    # scipy's logsumexp overflows harmlessly (to +inf, which the bound discards).
    with np.errstate(over="ignore"):
        return one.self_compose(rounds)


def _count_distributions(reduction: Reduction, n: int, stats):
    """The two count distributions of a reduction on the cells ``(a, s − a)`` of a window
    (upper: the replaced user favours class 0), and the mass of each left outside. The
    window: ``C = s − 1`` within :func:`_binomial_window`, and ``a`` within Hoeffding's
    ``√((s − 1) ln(2/τ)/2) + 1`` of ``(s − 1)/2``, so each split's tail is below
    ``τ =`` :data:`TAIL_MASS`."""
    from scipy.special import gammaln

    trials, rate = n - 1, min(1.0, 2 * reduction.r)
    law = stats.binom(trials, rate) if trials and rate >= MIN_RATE else None
    if law is None:
        lo, hi = 0, 0
    else:
        lo, hi, _ = _binomial_window(law, trials)
    sizes = np.arange(lo + 1, hi + 2)                   # s = C + 1
    reach = np.ceil(np.sqrt((sizes - 1) * math.log(2 / TAIL_MASS) / 2)) + 1
    first = np.maximum(0, np.floor((sizes - 1) / 2 - reach)).astype(np.int64)
    last = np.minimum(sizes, np.ceil((sizes - 1) / 2 + reach) + 1).astype(np.int64)
    counts = last - first + 1
    cells = int(counts.sum())
    if cells > PLD_MAX_CELLS:
        raise TooLargeError(
            f"composing rounds at n = {n} needs {cells:,} count cells, above PLD_MAX_CELLS = "
            f"{PLD_MAX_CELLS:,}.")
    s = np.repeat(sizes, counts)
    a = np.repeat(first, counts) + (np.arange(cells) - np.repeat(np.cumsum(counts) - counts,
                                                                 counts))
    # the others: C = s − 1 clones, Pr(C = s − 1) · C(s − 1, j)/2^{s − 1} with j = a − 1
    # (the replaced user in class 0) or j = a (in class 1)
    c_mass = np.ones(sizes.size) if law is None else law.pmf(sizes - 1)
    t = (s - 1).astype(float)
    inside = (a >= 0) & (a <= t)
    j = np.where(inside, a, 0).astype(float)
    log_half = gammaln(t + 1) - gammaln(j + 1) - gammaln(t - j + 1) - t * math.log(2)
    at_a = np.where(inside, np.exp(log_half), 0.0) * np.repeat(c_mass, counts)  # j = a
    with np.errstate(divide="ignore", invalid="ignore"):
        # C(t, a − 1) = C(t, a) · a/(t − a + 1); at a = t + 1 it is C(t, t) = 1
        at_before = np.where(inside & (a >= 1), at_a * a / (t - a + 1), 0.0)
    top = a == t + 1
    at_before = np.where(top, np.repeat(c_mass, counts) * np.exp(-t * math.log(2)), at_before)
    w = reduction.weight
    upper = w * (reduction.u * at_before + reduction.v * at_a)
    lower = w * (reduction.v * at_before + reduction.u * at_a)
    # What the window leaves out, each at its far side (upper's at infinite loss), with
    # the rounding of numpy's pairwise summation added (about log2(cells) ulps).
    slack = (math.log2(cells) + 2) * np.finfo(float).eps
    return upper, lower, (max(0.0, w - float(upper.sum())) + slack,
                          max(0.0, w - float(lower.sum())) + slack)


# -- choosing the local ε --------------------------------------------------------------


def local_epsilon_for(
    central_epsilon: float,
    delta: float,
    n: int,
    family: Callable[[float], Mechanism | ArrayLike | PureOracle] | str = "any",
    *,
    rounds: int = 1,
    ceiling: float = 20.0,
    rtol: float = LOCAL_EPSILON_RTOL,
) -> float:
    """The largest local ε₀ whose shuffled guarantee meets ``(central_epsilon, delta)``
    for ``n`` users.

    Parameters
    ----------
    central_epsilon : float
        The target central ε (> 0).
    delta : float
        The central δ, ``0 < δ < 1``.
    n : int
        Users (``1 ≤ n ≤`` :data:`MAX_USERS`).
    family : callable or "any"
        ``ε₀ ↦`` the kernel used at ε₀ (a Mechanism, an array of shape (N, M) or a
        :class:`~mechdesign.mechanisms.oracles.PureOracle`, e.g. ``lambda e:
        PureOracle.grr(40, e)``), or ``"any"``: any ε₀-LDP randomizer.
    rounds : int, default 1
        Releases composed, as in :func:`shuffle_epsilon`.
    ceiling : float, default 20.0
        The largest ε₀ searched (nats); must be positive and finite.
    rtol : float
        Relative resolution of the bracketed search on ε₀
        (:func:`~mechdesign._search.largest_meeting`: each step is one
        :func:`shuffle_delta`; it stops at the float spacing).

    Returns
    -------
    float
        The largest ε₀ in ``[0, ceiling]`` (to ``rtol``, rounded down) whose
        :func:`shuffle_epsilon` is at most ``central_epsilon``. The shuffled ε of a family
        is taken to be non-decreasing in ε₀ (true of every bound here for the protocols;
        a designed family should be checked); the returned ε₀ is itself verified.
    """
    target = check_epsilon(central_epsilon, "central_epsilon")
    if not target > 0:
        raise InvalidInputError(f"central_epsilon must be > 0; got {show(central_epsilon)}.")
    d = _check_delta(delta)
    n = check_size(n, "n", MAX_USERS, why="MAX_USERS")
    top = check_epsilon(ceiling, "ceiling")
    resolution = check_real(rtol, "rtol", low=0.0, high=1.0, low_open=True, high_open=True)
    if not 0 < top < math.inf:
        raise InvalidInputError(f"ceiling must be a positive finite number; got {show(ceiling)}.")
    if isinstance(family, str):
        if family != "any":
            raise InvalidInputError(
                f"family must be a callable epsilon0 -> kernel or 'any'; got {show(family)}.")
        build: Callable[[float], object] = float
    elif callable(family):
        build = family
    else:
        raise InvalidInputError(
            f"family must be a callable epsilon0 -> kernel or 'any'; got {show(family)}.")

    def delta_at(eps0: float) -> float:
        # δ at the target ε, not ε at δ: one value of each bound instead of an inversion
        # (the same predicate: every bound's ε(δ) is the least ε with δ(ε) ≤ δ)
        return shuffle_delta(build(eps0), n, target, rounds=rounds).delta

    def verified(eps0: float) -> bool:
        return shuffle_epsilon(build(eps0), n, d, rounds=rounds).epsilon <= target

    at_top = delta_at(top)
    if at_top <= d and verified(top):
        return top
    lo = largest_meeting(delta_at, d, 0.0, top, at_top, resolution)
    # the inversion rounds its ε up by its own tolerance (EPSILON_RTOL): the ε₀ returned
    # is checked by shuffle_epsilon itself and moved down, by steps that double from
    # that tolerance, until it passes
    step = 4 * max(resolution, EPSILON_RTOL) * lo
    while lo > 0 and not verified(lo):
        lo = max(0.0, lo - step)
        step *= 2.0
    return lo


# -- helpers -----------------------------------------------------------------------------



_LOG_MAX = 709.0


def _expit(x: float) -> float:
    """``1/(1 + e^{−x})`` without overflow."""
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    z = math.exp(x)
    return z / (1.0 + z)


def _is_number(value: object) -> bool:
    from numbers import Real

    return isinstance(value, Real) and not isinstance(value, bool)


def _check_delta(value: float) -> float:
    v = as_real(value, "delta")
    if not 0.0 < v < 1.0:
        raise InvalidInputError(f"delta must lie in the open interval (0, 1); got {show(value)}.")
    return v
