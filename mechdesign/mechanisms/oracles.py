"""The deployed LDP frequency oracles at any size: implicit kernels with exact errors.

A :class:`~mechdesign.mechanisms.protocols.FrequencyOracle` is a dense kernel: unary encoding has
``2^k`` outputs and subset selection ``C(k, ω)``, so past k ≈ 16 it cannot be built. A
:class:`PureOracle` is the same protocol described by its structure instead. Every
protocol here is *pure* (Wang, Blocki, Li & Jha, USENIX Security 2017, Def. 2): a report
``y`` supports a set of inputs, the user's own input with probability ``p`` and any other
with probability ``q``. So the support indicator ``s_v(y) = 1[v ∈ supp y]`` has mean

.. math::

    \\pi_v = \\Pr[v \\in \\operatorname{supp} y] = q + (p - q) f_v

over users whose histogram is ``f``, the standard estimator is
``f̂_v = (ĉ_v − q)/(p − q)`` with ``ĉ_v`` the share of reports supporting ``v``, and it is
unbiased. Its error needs only ``p`` and ``q``:

* against the users' histogram (given the inputs, the reports are independent; Wang et
  al., eq. (2), summed over ``v``):
  ``n·E‖f̂ − f‖² = Σ_v [q(1 − q) + f_v (p − q)(1 − p − q)]/(p − q)²``;
* against the distribution (inputs drawn i.i.d. from ``f``; ``s_v`` is then a Bernoulli
  of mean ``π_v``): ``Σ_v π_v(1 − π_v)/(p − q)²``, which is the first plus
  ``Σ_v f_v(1 − f_v) = 1 − ‖f‖²``, the inputs' own sampling error.

The two conventions differ by a term independent of the protocol. Both are exact; the
dense kernels (:meth:`PureOracle.dense`, small k) are the tests' oracle for them, through
:func:`~mechdesign.mechanisms.protocols.estimation_mse`.

The protocols and their reports (:meth:`PureOracle.sample` draws them; ``n`` users, the
arrays below; :meth:`PureOracle.support_counts` counts ``n ĉ_v`` from them):

=====================  ==========================  ==================================
protocol               ``(p, q)``                  a report
=====================  ==========================  ==================================
GRR (k-RR)             ``e^ε/(e^ε+k−1), 1/(…)``    ``(n,)`` the reported value
OUE / SUE              ``1/2, 1/(e^ε+1)`` /        ``(n, ⌈k/8⌉)`` uint8, the ``k`` bits
                       ``e^{ε/2}/(e^{ε/2}+1), 1−p``   packed (:func:`numpy.packbits`)
subset selection (ω)   Ye & Barg's (see code)      ``(n, ω)`` the subset's members
OLH, fresh hash        ``e^ε/(e^ε+g−1), 1/g``      ``(n, m + 1)``: the hash ``a`` and
                                                   the reported bucket
Hadamard response      ``e^ε/(e^ε+1), 1/2``        ``(n,)`` an index in ``[0, K)``
Hadamard, B blocks     ``1 − ρ, 0`` (signed)       ``(n,)`` an index in ``[0, K)``
=====================  ==========================  ==================================

**Hadamard response in blocks** (:meth:`PureOracle.hadamard`, at ``ε > 1`` by default):
the general response of Acharya, Sun & Zhang is not pure — a report in an input's block
supports that input's block-mates with probability 1/2 and inputs of other blocks never
— but its standard estimator is the mean of a *signed* support ``s_v ∈ {−1, 0, 1}``
whose mean is ``(1 − ρ) 1[x = v]``, so the formulas above hold with ``q = 0``,
``p = 1 − ρ`` and that support's own variance (:meth:`PureOracle.mse`).

**OLH with a fresh hash per user** (Wang et al., Sec. 4.4). Each user draws her own hash
``h_a(x) = a · bits(x) mod g`` with ``a`` uniform on ``{0, …, g − 1}^m``
(``m = ⌈log2 k⌉``), the exactly universal family of
:func:`~mechdesign.mechanisms.protocols.hash_family`. For ``x ≠ v`` the two inputs collide for
exactly
a ``1/g`` share of the ``a``. So ``P(v ∈ supp y | x) = 1/g`` exactly, the protocol is pure
with ``q = 1/g``, and the estimator is unbiased. The dense form of the same protocol is
``local_hashing(k, ε, hash_family(k, g))``: a user who draws a uniform member of the
family is the kernel averaged over it. A *fixed* random family of ``H`` functions (what
:func:`~mechdesign.comparison.deployed_protocols` had to use at large k) is not pure. Its
estimator is biased, and the bias never averages out over users.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import numpy as np
import scipy.linalg
from numpy.typing import ArrayLike, NDArray

from mechdesign._validation import (
    as_distribution,
    as_generator,
    as_indices,
    check_bool,
    check_positive_int,
    show,
)
from mechdesign.errors import InvalidInputError, TooLargeError, UnsupportedError
from mechdesign.measures.estimation import workload_matrix
from mechdesign.mechanisms.protocols import (
    FrequencyOracle,
    check_protocol,
    choose_subset_size,
    estimation_mse,
    generalized_randomized_response,
    hadamard_parameters,
    hadamard_response,
    hash_family,
    local_hashing_kernel,
    subset_selection,
    subset_support,
    unary_encoding,
)

__all__ = ["PureOracle", "implicit_protocols", "local_hashing"]

#: Users are sampled (and counted) in blocks of ``SAMPLE_ENTRIES // k`` (at least one):
#: one block's arrays hold about this many entries per user-by-input array.
SAMPLE_ENTRIES = 1 << 22
#: The largest number of OLH buckets that sampling represents (int64 arithmetic).
OLH_MAX_SAMPLED_BUCKETS = 1 << 31

#: The supports' covariance and the information matrix are dense k × k matrices up to
#: this k (2^12: 128 MB).
COVARIANCE_MAX_K = 4096
#: Gauss–Legendre nodes per panel of unary encoding's information-matrix integral.
QUADRATURE_NODES = 24
#: ... its first panel's end (times 1/(α + 2β): the fastest term has barely moved) and
#: its last's (times 1/α: e^{−45} ≈ 3e-20 of the integrand is left).
QUADRATURE_START = 1e-7
QUADRATURE_STOP = 45.0


@dataclass(frozen=True)
class PureOracle:
    """A pure LDP frequency oracle given by its structure, at any ``k`` (module
    docstring). Build one with :meth:`grr`, :meth:`unary`, :meth:`subset`,
    :meth:`hashing` or :meth:`hadamard` (or :func:`implicit_protocols`). Purity is Wang et
    al.'s [1]_ (Def. 2). The constructor takes the fields below as they are, unvalidated:
    the classmethods compute them.

    Parameters
    ----------
    protocol : str
        Its name, as :func:`~mechdesign.comparison.deployed_protocols` spells it.
    k : int
        Number of inputs.
    epsilon : float
        Its LDP level (exact).
    p, q : float
        ``P(x ∈ supp y | x)`` and ``P(v ∈ supp y | x ≠ v)``.
    gap : float
        ``p − q``, in closed form (by subtraction it cancels at a tiny ε).
    family : str
        ``"grr"``, ``"unary"``, ``"subset"``, ``"hashing"`` or ``"hadamard"``.
    parameter : int
        The subset size ``ω``, the buckets ``g``, Hadamard's ``K``; 1 for unary encoding
        when optimised (OUE), 0 for SUE; ``k`` for GRR.
    blocks : int, optional
        Hadamard response's number of blocks ``B`` (:func:`hadamard_blocks`); 1 for every
        other protocol. With ``B > 1`` the protocol is not pure and ``(p, q) = (p − q, 0)``
        describe its signed support (:meth:`hadamard`).

    References
    ----------
    .. [1] T. Wang, J. Blocki, N. Li, S. Jha, "Locally Differentially Private Protocols for
       Frequency Estimation", 26th USENIX Security Symposium, 2017, pp. 729-745,
       https://www.usenix.org/system/files/conference/usenixsecurity17/sec17-wang-tianhao.pdf.
    .. [2] Ú. Erlingsson, V. Pihur, A. Korolova, "RAPPOR: Randomized Aggregatable
       Privacy-Preserving Ordinal Response", ACM CCS 2014, pp. 1054-1067, arXiv:1407.6981.
    .. [3] M. Ye, A. Barg, "Optimal Schemes for Discrete Distribution Estimation Under Locally
       Differential Privacy", IEEE Transactions on Information Theory, 2018, arXiv:1702.00610.
    .. [4] J. Acharya, Z. Sun, H. Zhang, "Hadamard Response: Estimating Distributions Privately,
       Efficiently, and with Little Communication", AISTATS 2019, arXiv:1802.04705.
    """

    protocol: str
    k: int
    epsilon: float
    p: float
    q: float
    gap: float
    family: str
    parameter: int
    blocks: int = 1

    # -- constructors ----------------------------------------------------------------

    @classmethod
    def grr(cls, k: int, epsilon: float) -> PureOracle:
        """Generalized randomized response: ``p = e^ε/(e^ε + k − 1)``,
        ``q = 1/(e^ε + k − 1)``."""
        k, eps = check_protocol(k, epsilon)
        low = math.exp(-eps)
        denominator = 1.0 + (k - 1) * low
        return cls("GRR", k, eps, 1.0 / denominator, low / denominator,
                   -math.expm1(-eps) / denominator, "grr", k)

    @classmethod
    def unary(cls, k: int, epsilon: float, optimized: bool = True) -> PureOracle:
        """Unary encoding: OUE (``p = 1/2``, ``q = 1/(e^ε + 1)``) or, with
        ``optimized=False``, SUE (``p = e^{ε/2}/(e^{ε/2} + 1) = 1 − q``)."""
        k, eps = check_protocol(k, epsilon)
        optimized = check_bool(optimized, "optimized")
        if optimized:
            low = math.exp(-eps)
            return cls("OUE", k, eps, 0.5, low / (1.0 + low), math.tanh(eps / 2) / 2,
                       "unary", 1)
        half = math.exp(-eps / 2)
        return cls("SUE", k, eps, 1.0 / (1.0 + half), half / (1.0 + half),
                   math.tanh(eps / 4), "unary", 0)

    @classmethod
    def subset(cls, k: int, epsilon: float, subset_size: int | None = None) -> PureOracle:
        """Subset selection of ``ω`` inputs (Ye & Barg, IEEE T-IT 2018), ``ω`` by default
        the size that minimises the error at the uniform distribution
        (:func:`~mechdesign.mechanisms.protocols.subset_selection`'s choice)."""
        k, eps = check_protocol(k, epsilon)
        omega = choose_subset_size(k, eps, subset_size)
        p, q, gap = subset_support(k, eps, omega)
        return cls(f"subset selection (omega = {omega})", k, eps, p, q, gap, "subset", omega)

    @classmethod
    def hashing(cls, k: int, epsilon: float, buckets: int | None = None) -> PureOracle:
        """OLH with a fresh hash per user (module docstring): ``g`` buckets (default
        ``round(e^ε) + 1``, Wang et al.'s optimum), ``p = e^ε/(e^ε + g − 1)``,
        ``q = 1/g``."""
        k, eps = check_protocol(k, epsilon)
        if buckets is None:
            if eps > math.log(OLH_MAX_SAMPLED_BUCKETS):
                raise TooLargeError(
                    f"OLH's default g = round(e^epsilon) + 1 at epsilon = {show(eps)} is above "
                    f"{OLH_MAX_SAMPLED_BUCKETS:,} buckets; pass buckets (GRR is the better "
                    "protocol there).")
            g = round(math.exp(eps)) + 1
        else:
            g = check_positive_int(buckets, "buckets")
            if g < 2:
                raise InvalidInputError(f"buckets must be at least 2; got {show(buckets)}.")
        low = math.exp(-eps)
        denominator = 1.0 + (g - 1) * low
        gap = (g - 1) * -math.expm1(-eps) / (g * denominator)  # p − 1/g
        return cls(f"OLH (g = {g}, fresh hash)", k, eps, 1.0 / denominator, 1.0 / g, gap,
                   "hashing", g)

    @classmethod
    def hadamard(cls, k: int, epsilon: float, blocks: int | None = None) -> PureOracle:
        """Hadamard response (Acharya, Sun & Zhang, AISTATS 2019) in ``B`` blocks
        (:func:`hadamard_blocks`; by default one block at ``ε ≤ 1``).

        ``B = 1``: ``K = 2^⌈log2(k + 1)⌉`` outputs, ``p = e^ε/(e^ε + 1)``, ``q = 1/2``.

        ``B > 1`` (the general response): ``K = B b`` outputs in ``B`` blocks of
        ``b = 2^⌈log2(k/B + 1)⌉``; input ``x`` lies in block ``j = ⌊x/(b − 1)⌋`` at row
        ``t_x = x mod (b − 1) + 1`` of ``H_b``, and owns the ``s = b/2`` outputs
        ``C_x = {j b + z : H_b[t_x, z] = +1}``; ``K[x, y] = e^ε/(s e^ε + K − s)`` on
        ``C_x`` and ``1/(s e^ε + K − s)`` elsewhere (ε-LDP exactly). Equivalently, with
        probability ``ρ = 2B/(2B − 1 + e^ε)`` the report is uniform on all ``K`` outputs,
        else uniform on ``C_x``. It is not pure: a report in ``x``'s block supports ``x``'s
        block-mates with probability 1/2, outside it none. Its standard estimator reads
        the signed support ``s_v(y) = H_b[t_v, z]`` for ``y = j_v b + z`` in ``v``'s block
        and 0 elsewhere, whose mean is ``E[s_v | x] = (1 − ρ) 1[x = v]``: so
        ``p − q = 1 − ρ = (e^ε − 1)/(2B − 1 + e^ε)``, ``q = 0`` and
        ``f̂_v = ĉ_v/(p − q)`` with ``ĉ_v`` the mean signed support. This is the
        estimator of the general Hadamard response as pure-LDP ships it (block mass
        subtracted from the support count); its error is :meth:`mse`."""
        k, eps = check_protocol(k, epsilon)
        count, size, p, q, gap = hadamard_parameters(k, eps, blocks)
        name = "Hadamard response" if count == 1 else f"Hadamard response (B = {count})"
        return cls(name, k, eps, p, q, gap, "hadamard", size, count)

    @property
    def block_size(self) -> int:
        """Hadamard response's ``b``: outputs per block (``K`` when ``B = 1``)."""
        return self.parameter // self.blocks

    def _uniform_share(self) -> float:
        """Blocked Hadamard response's ``ρ/B = 2e^{−ε}/((2B − 1)e^{−ε} + 1)``: the
        probability of any one block under the uniform part of a report."""
        low = math.exp(-self.epsilon)
        return 2.0 * low / ((2 * self.blocks - 1) * low + 1.0)

    def _block_of(self) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """Each input's block ``j`` and row ``t`` of ``H_b`` (blocked Hadamard response)."""
        x = np.arange(self.k)
        return x // (self.block_size - 1), x % (self.block_size - 1) + 1

    def _block_mass(self, f: NDArray[np.float64]) -> NDArray[np.float64]:
        """``F_v``: the mass of ``v``'s block under ``f``, for every input ``v``."""
        block, _ = self._block_of()
        return np.bincount(block, weights=f)[block]

    # -- exact errors ----------------------------------------------------------------

    @property
    def n_outputs(self) -> int:
        """How many reports the kernel has (a Python int: ``2^k`` for unary encoding)."""
        if self.family == "grr":
            return self.k
        if self.family == "unary":
            return 1 << self.k
        if self.family == "subset":
            return math.comb(self.k, self.parameter)
        if self.family == "hashing":
            return self.parameter ** (max(1, math.ceil(math.log2(self.k))) + 1)
        return self.parameter

    @property
    def slack(self) -> float:
        """``1 − p − q`` in closed form: by subtraction it is wrong at a large ε (SUE at
        ε = 700: exactly 0, while ``p`` rounds to 1 and ``1 − p − q`` to ``−q``)."""
        k, low, m = self.k, math.exp(-self.epsilon), self.parameter
        if self.family == "grr":
            return (k - 2) * low / (1.0 + (k - 1) * low)
        if self.family == "unary":
            return self.gap if m else 0.0  # OUE: 1/2 − q; SUE: q = 1 − p
        if self.family == "subset":
            return ((k - m) * (k - 1 - m) * low - m * (m - 1)) / ((k - 1) * (m + (k - m) * low))
        if self.family == "hashing":
            return ((m - 1) ** 2 * low - 1.0) / (m * (1.0 + (m - 1) * low))
        if self.blocks > 1:  # ρ, with p = 1 − ρ and q = 0
            return self._uniform_share() * self.blocks
        return -self.gap  # Hadamard: 1/2 − p

    def _not_p(self) -> float:
        """``1 − p`` of unary encoding without cancellation (OUE 1/2, SUE ``q``)."""
        return 0.5 if self.parameter else self.q

    def support_probabilities(self, prior: ArrayLike) -> NDArray[np.float64]:
        """``π_v = q + (p − q) f_v``: the share of reports that support each input."""
        f = as_distribution(prior, "prior", self.k)
        return self.q + self.gap * f

    def mse(self, prior: ArrayLike, n: int,
            target: Literal["histogram", "distribution"] = "histogram",
            workload: str | ArrayLike | None = None) -> float:
        """The standard estimator's exact ``E‖W(f̂ − f)‖²`` from ``n`` reports (module
        docstring): against the users' histogram ``f = prior`` (default; Wang et al.,
        eq. (2) for the histogram), or against the distribution ``prior`` of i.i.d.
        inputs. ``workload`` (:func:`~mechdesign.measures.estimation.workload_matrix`; None is
        the histogram): ``tr(W C Wᵀ)/(n (p − q)²)`` with ``C`` the supports' covariance
        (:meth:`support_covariance`), for every protocol but OLH, whose pairs of inputs
        are not covered independently by a linear hash (its dense kernel answers while
        it fits)."""
        f = as_distribution(prior, "prior", self.k)
        count = check_positive_int(n, "n")
        _check_target(target)
        if self.gap <= 0:
            return math.inf
        if workload is not None and not (isinstance(workload, str) and workload == "histogram"):
            return self._workload_mse(f, count, target, workload_matrix(workload, self.k))
        # q(1 − q)/gap² in two divisions: gap² underflows at a tiny ε
        with np.errstate(over="ignore"):
            if self.blocks > 1:
                # Var(s_v | x) = P(y in v's block | x) − (p − q)² 1[x = v], averaged
                # over the users: ρ/B + (1 − ρ) F_v − (1 − ρ)² f_v, F_v the mass of v's
                # block; divided by (p − q)² = (1 − ρ)².
                # F_v/(1 − ρ) − f_v = (F_v − f_v + ρ f_v)/(1 − ρ): the block-mates' mass
                # and ρ f_v, both ≥ 0 (by subtraction it cancels at a large ε)
                mates = np.maximum(self._block_mass(f) - f, 0.0)
                per_input = (self._uniform_share() / self.gap / self.gap
                             + (mates + self.slack * f) / self.gap)
            else:
                per_input = (self.q * (1 - self.q) / self.gap / self.gap
                             + f * self.slack / self.gap)
            total = float(per_input.sum())
        if target == "distribution":
            total += 1.0 - float(f @ f)
        return total / count

    def _workload_mse(self, f, n, target, w) -> float:
        if self.family == "hashing":
            try:
                dense = self.dense()
            except TooLargeError as exc:
                raise UnsupportedError(
                    f"the workload error of {self.protocol} needs the joint coverage of "
                    "every pair of inputs by a linear hash, which is not uniform (unlike "
                    f"its single inputs'): exact only on its dense kernel ({exc})") from exc
            return estimation_mse(dense, f, n, workload=w, target=target)
        covariance = self.support_covariance(f)
        with np.errstate(over="ignore"):
            total = float(np.sum((w @ covariance) * w)) / self.gap / self.gap
        if target == "distribution":
            spread = w * f  # W diag(f)
            total += float(np.sum(spread * w)) - float(np.sum((w @ f) ** 2))
        return total / n

    def support_covariance(self, prior: ArrayLike) -> NDArray[np.float64]:
        """``C = Σ_x f_x Cov(s | x)``, ``s_v = 1[v ∈ supp y]`` (k × k): the standard
        estimator's covariance is ``C/(n (p − q)²)`` given the users' inputs.

        ``C = S − Σ_x f_x π(x)π(x)ᵀ`` with ``π(x) = q1 + (p − q) e_x`` (so the second
        term is ``q²11ᵀ + q(p − q)(f1ᵀ + 1fᵀ) + (p − q)² diag f``) and the second
        moments ``S = Σ_x f_x E[s sᵀ | x]``, whose diagonal is ``π̄ = q + (p − q) f``
        and whose off-diagonal entry ``(v, v')`` is, by protocol:

        * GRR: 0 (one input is supported);
        * unary encoding: ``Σ_x f_x π_v(x) π_v'(x)`` (the bits are independent);
        * subset selection (``|S| = ω``, ``P(x ∈ S) = p``): ``c₂ + (c₁ − c₂)(f_v + f_v')``
          with ``c₁ = p(ω − 1)/(k − 1)`` (``x`` one of the two) and
          ``c₂ = [p(ω − 1)(ω − 2) + (1 − p) ω(ω − 1)]/((k − 1)(k − 2))``;
        * Hadamard response: ``(p/2)(f_v + f_v' + f_{x*}) + (1 − f_v − f_v' − f_{x*})/4``
          with ``x* + 1 = (v + 1) ⊕ (v' + 1)`` (``f_{x*} = 0`` out of range): for
          Hadamard rows ``a, b, c``, the parities ``⟨a, y⟩, ⟨b, y⟩`` of a ``y`` uniform on
          ``C_x`` are independent fair coins unless ``c = a ⊕ b``, when they are equal
          inside ``C_x`` and differ outside it.
        """
        f = as_distribution(prior, "prior", self.k)
        k, p, q, gap = self.k, self.p, self.q, self.gap
        if k > COVARIANCE_MAX_K:
            raise TooLargeError(
                f"the supports' covariance of k = {k:,} inputs is a dense k × k matrix "
                f"(above COVARIANCE_MAX_K = {COVARIANCE_MAX_K:,}).")
        if self.family == "hashing":
            raise UnsupportedError(
                f"{self.protocol}: two inputs are not covered independently by a linear "
                "hash; its supports' covariance is not computed.")
        if self.blocks > 1:
            return self._blocked_covariance(f)
        mean_outer = q * q + q * gap * (f[:, None] + f[None, :])  # Σ f ππᵀ, off the diagonal
        if self.family == "grr":
            second = np.zeros((k, k))
        elif self.family == "unary":
            second = mean_outer.copy()
        elif self.family == "subset":
            omega = self.parameter
            c1 = p * (omega - 1) / (k - 1)
            c2 = ((p * (omega - 1) * (omega - 2) + (1 - p) * omega * (omega - 1))
                  / ((k - 1) * (k - 2))) if k > 2 else 0.0
            second = c2 + (c1 - c2) * (f[:, None] + f[None, :])
        else:
            rows = np.arange(1, k + 1)
            star = (rows[:, None] ^ rows[None, :]) - 1  # x* of each pair
            f_star = np.where(star < k, f[np.minimum(star, k - 1)], 0.0)
            pair = f[:, None] + f[None, :] + f_star
            second = 0.5 * p * pair + 0.25 * (1.0 - pair)
        covariance = second - mean_outer
        mean = q + gap * f
        np.fill_diagonal(covariance, mean - (q * q + 2 * q * gap * f + gap * gap * f))
        return covariance

    def _blocked_covariance(self, f: NDArray[np.float64]) -> NDArray[np.float64]:
        """``Σ_x f_x Cov(s | x)`` of blocked Hadamard response's signed supports: for
        ``v ≠ v'`` in one block, ``s_v s_v' = H_b[t_v ⊕ t_v', z]`` inside it (Sylvester rows
        multiply by xor), whose mean given ``x`` is ``(1 − ρ) 1[t_x = t_v ⊕ t_v']`` for
        ``x`` in the block (uniform reports and ``C_x`` average any other row of ``H_b`` to
        0), while the means' product vanishes: entry ``(1 − ρ) f_{x*}``; in two blocks
        ``s_v s_v' = 0``; the diagonal is :meth:`mse`'s per-input variance."""
        block, row = self._block_of()
        gap, width = self.gap, self.block_size
        same = block[:, None] == block[None, :]
        star = block[:, None] * (width - 1) + (row[:, None] ^ row[None, :]) - 1  # x* by index
        inside = same & (star < self.k) & (star >= 0)
        covariance = np.where(inside, gap * f[np.clip(star, 0, self.k - 1)], 0.0)
        np.fill_diagonal(covariance, self._uniform_share() + gap * self._block_mass(f)
                         - gap * gap * f)
        return covariance

    def information_matrix(self, prior: ArrayLike) -> NDArray[np.float64]:
        """``J = K D⁻¹ Kᵀ`` (k × k, ``D = diag(prior K)``) without the kernel, for GRR and
        unary encoding (:meth:`blue_mse`).

        GRR: ``K = (p − q) I + q 11ᵀ`` is k × k. Unary encoding: with ``Q`` the law of
        ``k`` independent ``Bernoulli(q)`` bits and ``ρ₁ = p/q``, ``ρ₀ = (1 − p)/(1 − q)``,
        ``K[x, y] = Q(y) ρ(y_x)`` and ``r_y = Q(y)(α + β Σ_z f_z y_z)``
        (``α = ρ₀``, ``β = ρ₁ − ρ₀ > 0``), so ``J_{xx'} = E_Q[ρ(y_x)ρ(y_x')/(α + βS)]``.
        With ``1/a = ∫_0^∞ e^{−ta} dt`` the bits separate:

        .. math::

            J = \\int_0^\\infty e^{-\\alpha t} M(t) \\bigl[u u^\\top
            + \\operatorname{diag}(b/m - u^2)\\bigr] dt,

        ``m_z = 1 − q + q e^{−tβ f_z}``, ``M = Π_z m_z``, ``u = a/m`` with
        ``a_z = 1 − p + p e^{−tβ f_z}``, and ``b_z = (1 − q)ρ₀² + qρ₁² e^{−tβ f_z}``: one
        integral, by composite Gauss–Legendre on geometric panels
        (:data:`QUADRATURE_NODES` per panel, from ``10⁻⁷/(α + 2β)`` to ``45/α``, where
        ``e^{−αt}`` is below ``10⁻¹⁹``). Measured against the dense kernel's ``J``
        (k ≤ 12, ε from 0.05 to 6): the BLUE's error agrees to 1e-12 relative.
        """
        f = as_distribution(prior, "prior", self.k)
        k, p, q, gap = self.k, self.p, self.q, self.gap
        if k > COVARIANCE_MAX_K:
            raise TooLargeError(
                f"the information matrix of k = {k:,} inputs is a dense k × k matrix "
                f"(above COVARIANCE_MAX_K = {COVARIANCE_MAX_K:,}).")
        if self.family == "grr":
            kernel = gap * np.eye(k) + q
            return kernel @ (kernel / (q + gap * f)[:, None])  # K symmetric: K D⁻¹ K
        if self.family != "unary":
            raise UnsupportedError(
                f"the BLUE of {self.protocol} needs its {self.n_outputs:.3g}-output kernel's "
                "information matrix, which has no structure exploited here; it is computed "
                "from the dense kernel while that fits.")
        low, high = self._not_p() / (1 - q), p / q
        alpha, beta = low, high - low
        if not (math.isfinite(beta) and math.isfinite(q * high * high)):
            raise UnsupportedError(
                f"at epsilon = {show(self.epsilon)} unary encoding's likelihood ratio p/q "
                "overflows a double: its BLUE is not computed.")
        t, weight = _quadrature(QUADRATURE_START / (alpha + 2 * beta), QUADRATURE_STOP / alpha)
        e = np.exp(-np.outer(t, beta * f))  # (nodes, k)
        m = 1 - q + q * e
        u = (self._not_p() + p * e) / m
        b = (1 - q) * low * low + q * high * high * e
        c = weight * np.exp(-alpha * t + np.log(m).sum(axis=1))
        j = u.T @ (c[:, None] * u)
        j[np.diag_indices(k)] += c @ (b / m - u * u)
        return j

    def blue_mse(self, prior: ArrayLike, n: int,
                 target: Literal["histogram", "distribution"] = "histogram",
                 workload: str | ArrayLike | None = None) -> float:
        """The best linear unbiased estimator's exact error at the prior
        (:func:`~mechdesign.measures.estimation.blue_error`: ``tr(W J⁻¹ Wᵀ) − tr(W diag f Wᵀ)``
        per report against the users' histogram, ``tr(W J⁻¹ Wᵀ) − ‖W f‖²`` against the
        distribution), from :meth:`information_matrix`. GRR's kernel is square and
        invertible, so its only unbiased linear estimator — the standard one — is the
        BLUE (its :meth:`mse`, at any k, for the histogram). Other protocols raise
        :class:`~mechdesign.errors.UnsupportedError`: use the dense kernel."""
        f = as_distribution(prior, "prior", self.k)
        count = check_positive_int(n, "n")
        _check_target(target)
        histogram = workload is None or (isinstance(workload, str) and workload == "histogram")
        if self.family == "grr" and histogram:
            return self.mse(f, count, target)
        w = np.eye(self.k) if histogram else workload_matrix(workload, self.k)
        j = self.information_matrix(f)
        try:
            factor = scipy.linalg.cho_factor(j)
        except np.linalg.LinAlgError:
            return math.inf
        total = float(np.sum(w.T * scipy.linalg.cho_solve(factor, w.T)))
        if target == "histogram":
            total -= float(np.sum((w * f) * w))
        else:
            total -= float(np.sum((w @ f) ** 2))
        return total / count

    # -- the dense kernel ----------------------------------------------------------------

    def dense(self) -> FrequencyOracle:
        """The same protocol as a dense :class:`~mechdesign.mechanisms.protocols.FrequencyOracle`
        (raises :class:`~mechdesign.errors.TooLargeError` past its output cap)."""
        if self.family == "grr":
            return generalized_randomized_response(self.k, self.epsilon)
        if self.family == "unary":
            return unary_encoding(self.k, self.epsilon, bool(self.parameter))
        if self.family == "subset":
            return subset_selection(self.k, self.epsilon, self.parameter)
        if self.family == "hashing":
            family = hash_family(self.k, self.parameter)
            return local_hashing_kernel(self.k, self.epsilon, family, self.parameter)
        return hadamard_response(self.k, self.epsilon, self.blocks)

    # -- reports -------------------------------------------------------------------------

    def sample(self, x: ArrayLike, rng: np.random.Generator | int | None = None) -> NDArray:
        """Privatise the inputs ``x`` (1-D, indices in ``[0, k)``): one report per user,
        in the protocol's form (module docstring's table)."""
        inputs = as_indices(x, "x", self.k)
        if inputs.ndim != 1:
            raise InvalidInputError(f"x must be a 1-D array of inputs; got shape {inputs.shape}.")
        generator = as_generator(rng)
        size = self._block()
        blocks = [getattr(self, f"_sample_{self._kind}")(inputs[start:start + size], generator)
                  for start in range(0, inputs.shape[0], size)]
        if not blocks:
            return getattr(self, f"_sample_{self._kind}")(inputs, generator)
        return np.concatenate(blocks)

    def support_counts(self, reports: ArrayLike) -> NDArray[np.int64]:
        """``n ĉ_v``: how many reports support each input ``v`` (blocked Hadamard
        response: the sum of the signed supports, :meth:`hadamard`, which may be
        negative)."""
        y = self._check_reports(reports)
        counts = np.zeros(self.k, dtype=np.int64)
        size = self._block()
        for start in range(0, y.shape[0], size):
            counts += getattr(self, f"_count_{self._kind}")(y[start:start + size])
        return counts

    def estimate(self, reports: ArrayLike) -> NDArray[np.float64]:
        """The standard (unbiased) estimate ``f̂_v = (ĉ_v − q)/(p − q)``."""
        if self.gap <= 0:
            raise UnsupportedError(
                f"at epsilon = {show(self.epsilon)} p and q are equal to double precision: "
                "the reports carry no information that a double can hold.")
        counts = self.support_counts(reports)
        n = self._check_reports(reports).shape[0]
        return (counts / n - self.q) / self.gap

    def blue_estimate(self, reports: ArrayLike, prior: ArrayLike) -> NDArray[np.float64]:
        """The BLUE at ``prior`` from reports, ``f̂ = J⁻¹ (1/n) Σ_i k_{y_i}/r_{y_i}`` (the
        estimator ``D⁻¹KᵀJ⁻¹`` of :func:`~mechdesign.measures.estimation.blue_estimator`, applied
        report by report), for GRR (the standard estimate) and unary encoding, where
        ``k_y/r_y`` has entries ``ρ(y_x)/(α + β Σ_z f_z y_z)``
        (:meth:`information_matrix`)."""
        f = as_distribution(prior, "prior", self.k)
        if self.family == "grr":
            return self.estimate(reports)
        j = self.information_matrix(f)  # refuses the other protocols by name
        y = self._check_reports(reports)
        p, q = self.p, self.q
        low, high = self._not_p() / (1 - q), p / q
        total = np.zeros(self.k)
        size = self._block()
        for start in range(0, y.shape[0], size):
            bits = np.unpackbits(y[start:start + size], axis=1, count=self.k)
            ratio = np.where(bits == 1, high, low)  # ρ(y_x)
            total += (ratio / (low + (high - low) * (bits @ f))[:, None]).sum(axis=0)
        return scipy.linalg.cho_solve(scipy.linalg.cho_factor(j), total / y.shape[0])

    # -- per family ------------------------------------------------------------------------

    @property
    def _kind(self) -> str:
        """The sampler's and counter's name: the family, or ``"blocked"`` for Hadamard
        response in more than one block."""
        return "blocked" if self.blocks > 1 else self.family

    def _block(self) -> int:
        return max(1, SAMPLE_ENTRIES // self.k)

    def _report_shape(self) -> tuple[int | None, type]:
        if self.family == "unary":
            return (self.k + 7) // 8, np.uint8
        if self.family == "subset":
            return self.parameter, np.int64
        if self.family == "hashing":
            return _digits(self.k) + 1, np.int64
        return None, np.int64

    def _check_reports(self, reports: ArrayLike) -> NDArray:
        width, dtype = self._report_shape()
        try:
            y = np.asarray(reports)
        except (TypeError, ValueError):
            y = np.zeros(0)
        shape_ok = y.ndim == 1 if width is None else (y.ndim == 2 and y.shape[1] == width)
        if y.size == 0 or not shape_ok or not np.issubdtype(y.dtype, np.integer):
            expected = "(n,)" if width is None else f"(n, {width})"
            raise InvalidInputError(
                f"reports must be a non-empty integer array of shape {expected} for "
                f"{self.protocol}; got {show(reports)}.")
        upper = {"grr": self.k, "unary": 256, "subset": self.k,
                 "hadamard": self.parameter}.get(self.family)
        if self.family == "hashing":
            if y.min() < 0 or y.max() >= self.parameter:
                raise InvalidInputError(
                    f"reports of {self.protocol} hold values in [0, {self.parameter}); got "
                    f"values from {y.min()} to {y.max()}.")
        elif y.min() < 0 or y.max() >= upper:
            raise InvalidInputError(
                f"reports of {self.protocol} hold values in [0, {upper}); got values from "
                f"{y.min()} to {y.max()}.")
        return y.astype(dtype, copy=False)

    def _sample_grr(self, x, rng):
        keep = rng.random(x.shape[0]) < self.p
        other = (x + rng.integers(1, self.k, size=x.shape[0])) % self.k
        return np.where(keep, x, other)

    def _count_grr(self, y):
        return np.bincount(y, minlength=self.k)

    def _sample_unary(self, x, rng):
        bits = rng.random((x.shape[0], self.k)) < self.q
        bits[np.arange(x.shape[0]), x] = rng.random(x.shape[0]) < self.p
        return np.packbits(bits, axis=1)

    def _count_unary(self, y):
        bits = np.unpackbits(y, axis=1, count=self.k)
        return bits.sum(axis=0, dtype=np.int64)

    def _sample_subset(self, x, rng):
        # P(x ∈ S) = p; the other members, ω − 1 or ω of them, are uniform among the
        # k − 1 other inputs: Floyd's algorithm (one uniform draw per member), all users
        # at once, each starting when j reaches k − 1 − (its count).
        n, omega, others = x.shape[0], self.parameter, self.k - 1
        inside = rng.random(n) < self.p
        count = omega - inside  # others to choose
        chosen = np.zeros((n, others), dtype=bool)
        rows = np.arange(n)
        for j in range(others - omega, others):
            active = rows[j >= others - count]
            t = rng.integers(0, j + 1, size=active.shape[0])
            taken = chosen[active, t]
            chosen[active, np.where(taken, j, t)] = True
        chosen = np.insert(chosen, x + np.arange(n) * others, inside) if n else chosen
        return np.flatnonzero(chosen.reshape(-1)).reshape(n, omega) % self.k

    def _count_subset(self, y):
        return np.bincount(y.ravel(), minlength=self.k)

    def _sample_hashing(self, x, rng):
        g = self.parameter
        if g > OLH_MAX_SAMPLED_BUCKETS:
            raise TooLargeError(
                f"sampling OLH with g = {g:,} buckets (above {OLH_MAX_SAMPLED_BUCKETS:,}).")
        digits = _digits(self.k)
        a = rng.integers(0, g, size=(x.shape[0], digits))
        hashed = _hash(a, _bits(x, digits), g)
        keep = rng.random(x.shape[0]) < self.p
        bucket = np.where(keep, hashed, (hashed + rng.integers(1, g, size=x.shape[0])) % g)
        return np.column_stack([a, bucket])

    def _count_hashing(self, y):
        digits = _digits(self.k)
        a, bucket = y[:, :digits], y[:, digits]
        every = _bits(np.arange(self.k), digits)  # (k, m)
        hashed = (a @ every.T) % self.parameter  # (n, k): h_a(v) for every v
        return (hashed == bucket[:, None]).sum(axis=0, dtype=np.int64)

    def _sample_hadamard(self, x, rng):
        # y uniform on [0, K); its membership in C_x = {y : ⟨x + 1, y⟩ even} is a fair
        # coin, and y ⊕ (lowest bit of x + 1) flips it: a uniform draw from C_x or from
        # its complement.
        own = x + 1
        y = rng.integers(0, self.parameter, size=x.shape[0])
        inside = _parity(own & y) == 0
        want = rng.random(x.shape[0]) < self.p
        return np.where(inside == want, y, y ^ (own & -own))

    def _sample_blocked(self, x, rng):
        # with probability ρ uniform on [0, K); else uniform on C_x: a uniform position
        # z in x's block, moved into C_x by flipping the lowest bit of t_x when
        # H_b[t_x, z] = −1 (that flip changes the parity ⟨t_x, z⟩).
        width, n = self.block_size, x.shape[0]
        row = x % (width - 1) + 1
        z = rng.integers(0, width, size=n)
        z = np.where(_parity(row & z) == 0, z, z ^ (row & -row))
        owned = (x // (width - 1)) * width + z
        uniform = rng.integers(0, self.parameter, size=n)
        rho = 2 * self.blocks * math.exp(-self.epsilon) / (
            (2 * self.blocks - 1) * math.exp(-self.epsilon) + 1.0)
        return np.where(rng.random(n) < rho, uniform, owned)

    def _count_blocked(self, y):
        # per block, the Walsh–Hadamard transform of its histogram: entry t is the sum
        # of H_b[t, z] over the block's reports, the signed support of row t
        width = self.block_size
        histogram = np.bincount(y, minlength=self.parameter).reshape(self.blocks, width)
        transformed = _walsh_hadamard(histogram)  # (B, b), block by block
        block, row = self._block_of()
        return transformed[block, row]

    def _count_hadamard(self, y):
        # count_v = #{y : ⟨v + 1, y⟩ even} = (n + (H h)[v + 1])/2, h the histogram of y,
        # by the fast Walsh–Hadamard transform
        transformed = _walsh_hadamard(np.bincount(y, minlength=self.parameter))
        return (y.shape[0] + transformed[1:self.k + 1]) // 2


def _check_target(target: object) -> None:
    if target not in ("histogram", "distribution"):
        raise InvalidInputError(
            f"target must be 'histogram' or 'distribution'; got {show(target)}.")


def _quadrature(start: float, stop: float) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Nodes and weights of composite Gauss–Legendre on ``[0, start]`` and panels doubling
    from ``start`` past ``stop``."""
    edges = [0.0, start]
    while edges[-1] < stop:
        edges.append(2.0 * edges[-1])
    x, w = np.polynomial.legendre.leggauss(QUADRATURE_NODES)
    left, right = np.array(edges[:-1]), np.array(edges[1:])
    half = (right - left)[:, None] / 2
    return (half * (x + 1) + left[:, None]).ravel(), (half * w).ravel()


def implicit_protocols(k: int, epsilon: float) -> dict[str, Callable[[], PureOracle]]:
    """Every deployed protocol at ``(k, ε)`` as a function that builds its
    :class:`PureOracle` (and may raise), named as
    :func:`~mechdesign.comparison.deployed_protocols` names them (OLH with a fresh hash
    per user).

    Parameters
    ----------
    k : int
        The number of inputs, an integer ``k ≥ 2``.
    epsilon : float
        The LDP level ε in nats; it must be positive and finite.

    Returns
    -------
    dict of str to callable
        ``"GRR"``, ``"OUE"``, ``"SUE (RAPPOR)"``, ``"subset selection"``, ``"OLH"`` and
        ``"Hadamard response"``, each a function of no arguments returning a
        :class:`PureOracle`.

    References
    ----------
    .. [1] T. Wang, J. Blocki, N. Li, S. Jha, "Locally Differentially Private Protocols for
       Frequency Estimation", 26th USENIX Security Symposium, 2017, pp. 729-745,
       https://www.usenix.org/system/files/conference/usenixsecurity17/sec17-wang-tianhao.pdf.
    .. [2] Ú. Erlingsson, V. Pihur, A. Korolova, "RAPPOR: Randomized Aggregatable
       Privacy-Preserving Ordinal Response", ACM CCS 2014, pp. 1054-1067, arXiv:1407.6981.
    .. [3] M. Ye, A. Barg, "Optimal Schemes for Discrete Distribution Estimation Under Locally
       Differential Privacy", IEEE Transactions on Information Theory, 2018, arXiv:1702.00610.
    .. [4] J. Acharya, Z. Sun, H. Zhang, "Hadamard Response: Estimating Distributions Privately,
       Efficiently, and with Little Communication", AISTATS 2019, arXiv:1802.04705.
    """
    k, epsilon = check_protocol(k, epsilon)
    return {
        "GRR": lambda: PureOracle.grr(k, epsilon),
        "OUE": lambda: PureOracle.unary(k, epsilon),
        "SUE (RAPPOR)": lambda: PureOracle.unary(k, epsilon, optimized=False),
        "subset selection": lambda: PureOracle.subset(k, epsilon),
        "OLH": lambda: PureOracle.hashing(k, epsilon),
        "Hadamard response": lambda: PureOracle.hadamard(k, epsilon),
    }


def local_hashing(
    k: int, epsilon: float, hashes: ArrayLike | None = None, buckets: int | None = None
) -> FrequencyOracle | PureOracle:
    """Local hashing over a given finite family of hash functions (OLH: Wang et al.,
    USENIX Security 2017, Sec. 4.4). A user draws ``h`` uniformly from the ``H`` rows of
    ``hashes``, computes ``b = h(x)``, reports ``(h, b')`` with ``b' = b`` with
    probability ``p' = e^ε/(e^ε + g − 1)`` and each other bucket with ``q' = 1/(e^ε + g −
    1)``. Output ``h·g + b'`` is the pair ``(h, b')``:
    ``K[x, (h, b')] = (p' if h(x) = b' else q')/H``. ε-LDP (exactly, once some ``h``
    separates two inputs).

    The standard estimator counts the reports whose bucket contains ``v``:
    ``E[(h, b'), v] = (1[h(v) = b'] − 1/g)/(p' − 1/g)``. It is unbiased exactly when every
    pair of inputs collides in a ``1/g`` fraction of the family (then the protocol is
    pure with ``p = p'``, ``q = 1/g``), as for
    :func:`~mechdesign.mechanisms.protocols.hash_family`'s universal family; for another
    family :func:`~mechdesign.mechanisms.protocols.estimation_mse` includes its bias.

    ``hashes=None``: OLH as deployed, every user drawing a fresh hash from the exactly
    universal family (:meth:`PureOracle.hashing`): a :class:`PureOracle` at any ``k`` —
    unbiased, with exact errors, sampling and estimation — whose dense kernel
    (``.dense()``, small ``k``) is this function over
    :func:`~mechdesign.mechanisms.protocols.hash_family`.

    Parameters
    ----------
    k : int
        The number of inputs, an integer ``k ≥ 2``.
    epsilon : float
        The LDP level ε in nats; it must be positive and finite.
    hashes : array_like of int, shape (H, k), optional
        Row ``h`` is the hash function ``x ↦ hashes[h, x]``, values in ``range(buckets)``.
    buckets : int, optional
        ``g``, an integer ``g ≥ 2``; default ``round(e^ε) + 1``, OLH's optimum.

    Returns
    -------
    FrequencyOracle or PureOracle
        The dense kernel over ``hashes`` (``H·g`` outputs, at most
        :data:`~mechdesign.mechanisms.protocols.PROTOCOL_MAX_OUTPUTS`;
        :func:`~mechdesign.mechanisms.protocols.local_hashing_kernel`), or the implicit
        oracle when ``hashes`` is ``None``.

    References
    ----------
    .. [1] T. Wang, J. Blocki, N. Li, S. Jha, "Locally Differentially Private Protocols for
       Frequency Estimation", 26th USENIX Security Symposium, 2017, pp. 729-745,
       https://www.usenix.org/system/files/conference/usenixsecurity17/sec17-wang-tianhao.pdf.
    """
    if hashes is None:
        return PureOracle.hashing(k, epsilon, buckets)
    return local_hashing_kernel(k, epsilon, hashes, buckets)


def _digits(k: int) -> int:
    """``m = ⌈log2 k⌉`` (at least 1): the binary digits of an input."""
    return max(1, math.ceil(math.log2(k)))


def _bits(x: NDArray[np.int64], digits: int) -> NDArray[np.int64]:
    return (x[:, None] >> np.arange(digits)[None, :]) & 1


def _hash(a: NDArray[np.int64], bits: NDArray[np.int64], g: int) -> NDArray[np.int64]:
    """``h_a(x) = a · bits(x) mod g`` row by row."""
    return np.einsum("ij,ij->i", a, bits) % g


def _parity(v: NDArray[np.int64]) -> NDArray[np.int64]:
    """The parity of the number of 1 bits of each (non-negative) entry."""
    v = v.copy()
    for shift in (32, 16, 8, 4, 2, 1):
        v ^= v >> shift
    return v & 1


def _walsh_hadamard(h: NDArray[np.int64]) -> NDArray[np.int64]:
    """``(H_K h)[i] = Σ_y (−1)^{⟨i, y⟩} h[y]`` (Sylvester order) along the last axis, in
    ``O(K log K)`` per row."""
    out = h.astype(np.int64).copy()
    size, step = out.shape[-1], 1
    while step < size:
        view = out.reshape(*out.shape[:-1], -1, 2, step)
        left, right = view[..., 0, :].copy(), view[..., 1, :].copy()
        view[..., 0, :], view[..., 1, :] = left + right, left - right
        step *= 2
    return out
