"""PML quantiles, envelopes and privacy profiles (the envelope paper: Saeidian, Pinzón,
Palamidessi, *Information leakage envelopes*).

The leakage random variable ``ℓ(X → Y) = log max_x K[x, Y] / P_Y(Y)`` (Definition 4) and
its tail are the raw material: the quantiles ε̲_Y(δ), ε̄_Y(δ) (eqs. 9–10), probabilistic
PML (Definition 5), the two candidate approximate-PML penalties ψ1, ψ2 (Sec. III), and
the PML envelope ``ε_c(δ) = sup_Z ε̄_Z(δ)`` over every post-processing ``Z`` of ``Y``
(Sec. IV, Theorem 2), with its bounds (Theorem 3, eq. 14, Algorithm 1) and the k-RR
study of Sec. V-B. :func:`pml_envelope` computes ε_c(δ) exactly, which the paper calls
difficult; its docstring proves the reduction to a family of linear programs.

Sec. II-B's DP privacy profile δ*(ε), its inverse and the DP failure probability live
here too: the paper contrasts them with the envelope.

Conventions (package docstring): rows are inputs, nats. Priors with zeros: inputs
outside the support are dropped, as in :mod:`mechdesign.measures.leakage`; outputs with
``P_Y(y) = 0`` never occur and count for nothing. δ ranges over (0, 1).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from numpy.typing import ArrayLike, NDArray

from mechdesign._evidence import EvidenceFloat
from mechdesign._solvers.highs import solve_linear_program
from mechdesign._tolerances import (
    ENVELOPE_BRACKET_RTOL,
    ENVELOPE_MASS_ATOL,
    ENVELOPE_RTOL,
    LEAKAGE_TIE_ATOL,
    QUANTILE_MASS_ATOL,
    STOCHASTIC_ATOL,
)
from mechdesign._validation import (
    as_distribution,
    as_float_array,
    as_real,
    check_delta,
    check_epsilon,
    check_real_dtype,
    exp_or_inf,
    show,
)
from mechdesign.errors import InvalidInputError
from mechdesign.kernel import Mechanism, as_matrix
from mechdesign.measures.leakage import pointwise_leakage

__all__ = [
    "LeakageDistribution",
    "PMLEnvelope",
    "RandomizedResponseEnvelope",
    "adaptive_composition",
    "binary_envelope",
    "closed_failure_probability",
    "composition_envelope_bound",
    "conditional_maximal_leakage",
    "envelope_lower_bound",
    "envelope_upper_bound",
    "leakage_distribution",
    "pml_envelope",
    "pml_failure_probability",
    "pml_lower_quantile",
    "pml_psi1",
    "pml_psi2",
    "pml_upper_quantile",
    "randomized_response_envelope",
]

KernelLike = Mechanism | ArrayLike

# -- validation and the joint distribution -----------------------------------------------


@dataclass(frozen=True)
class _Joint:
    """The kernel restricted to the support of the prior (rows) and to the outputs of
    positive probability (columns), with ``P_Y`` on those outputs."""

    kernel: NDArray[np.float64]  # shape (|supp P_X|, |supp P_Y|)
    p_y: NDArray[np.float64]
    outputs: NDArray[np.int64]  # indices of the kept outputs in the full alphabet
    n_outputs: int  # size of the full output alphabet


def _joint(kernel: KernelLike, prior: ArrayLike) -> _Joint:
    k = as_matrix(kernel)
    p = as_distribution(prior, "prior", k.shape[0])
    p_y = p @ k
    outputs = np.flatnonzero(p_y > 0)
    return _Joint(k[p > 0][:, outputs], p_y[outputs], outputs, k.shape[1])


# -- the leakage random variable and its quantiles ---------------------------------------


@dataclass(frozen=True)
class LeakageDistribution:
    """The distribution of the leakage random variable ``ℓ(X → Y)`` under ``P_Y``.

    Envelope paper, Sec. II-C (footnote 1): ``ℓ(X → y)`` is a function of the outcome,
    so ``ℓ(X → Y)`` is a discrete random variable. Outcomes whose leakages agree within
    ``LEAKAGE_TIE_ATOL`` share one value (the largest of them). Built by
    :func:`leakage_distribution`; the constructor does not validate its arguments.

    Parameters
    ----------
    values : ndarray, shape (r,)
        The distinct leakage values, ascending (nats).
    probabilities : ndarray, shape (r,)
        ``P_Y{ℓ(X → Y) = values[i]}``.

    References
    ----------
    .. [1] S. Saeidian, C. Pinzón, C. Palamidessi, "Information Leakage Envelopes", 2026,
       arXiv:2605.21185.
    """

    values: NDArray[np.float64]
    probabilities: NDArray[np.float64]

    def cdf(self, t: float) -> float:
        """``C_Y(t) = P_Y{ℓ(X → Y) ≤ t}`` (Sec. IV), right-continuous; a value within
        ``LEAKAGE_TIE_ATOL`` above t counts as equal to it."""
        t = _check_level(t)
        return float(self.probabilities[self.values <= t + LEAKAGE_TIE_ATOL].sum())

    def tail(self, t: float) -> float:
        """``P_Y{ℓ(X → Y) > t} = 1 − C_Y(t)``, the failure probability at level ``t``."""
        t = _check_level(t)
        return float(self.probabilities[self.values > t + LEAKAGE_TIE_ATOL].sum())


def _check_level(t: float) -> float:
    """A leakage level: any real number, ±inf included (``cdf(-inf) = 0``), not NaN."""
    value = as_real(t, "t")
    if math.isnan(value):
        raise InvalidInputError(f"t must be a leakage level, not NaN; got {show(t)}.")
    return value


def leakage_distribution(kernel: KernelLike, prior: ArrayLike) -> LeakageDistribution:
    """The distribution of ``ℓ(X → Y)`` (envelope paper, Sec. II-C and Fig. 1).

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        The mechanism ``P_{Y|X}`` (rows are the N inputs); it must be row-stochastic.
    prior : array_like, shape (N,)
        The input distribution ``P_X``; it must be non-negative and sum to 1. Inputs outside
        its support are dropped.

    Returns
    -------
    LeakageDistribution
        Distinct values (ascending) and their ``P_Y`` masses, over outcomes of positive
        probability.

    References
    ----------
    .. [1] S. Saeidian, C. Pinzón, C. Palamidessi, "Information Leakage Envelopes", 2026,
       arXiv:2605.21185.
    """
    k = as_matrix(kernel)
    p = as_distribution(prior, "prior", k.shape[0])
    p_y = p @ k
    seen = p_y > 0
    leak = pointwise_leakage(k, p)[seen]
    mass = p_y[seen]
    order = np.argsort(leak, kind="stable")
    leak, mass = leak[order], mass[order]
    # A new value starts wherever the gap to the previous outcome exceeds the tie slack.
    starts = np.concatenate(([True], np.diff(leak) > LEAKAGE_TIE_ATOL))
    group = np.cumsum(starts) - 1
    ends = np.append(np.flatnonzero(starts)[1:] - 1, leak.shape[0] - 1)
    probabilities = np.bincount(group, weights=mass)
    values, probabilities = leak[ends].copy(), probabilities
    values.setflags(write=False)
    probabilities.setflags(write=False)
    return LeakageDistribution(values, probabilities)


def pml_failure_probability(kernel: KernelLike, prior: ArrayLike, epsilon: float) -> float:
    """The PML failure probability ``P_Y{ℓ(X → Y) > ε}``.

    Envelope paper, Definition 5: the joint distribution satisfies (ε, δ)-probabilistic
    PML iff this is ≤ δ, equivalently iff ``ε̲_Y(δ) ≤ ε`` (Sec. IV). Outcomes leaking ε
    up to ``LEAKAGE_TIE_ATOL`` do not count as exceeding it.

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        The mechanism ``P_{Y|X}`` (rows are the N inputs); it must be row-stochastic.
    prior : array_like, shape (N,)
        The input distribution ``P_X``; it must be non-negative and sum to 1. Inputs outside
        its support are dropped.
    epsilon : float
        The leakage level ε ≥ 0 in nats (``math.inf`` allowed).

    Returns
    -------
    float
        The failure probability, in [0, 1].

    References
    ----------
    .. [1] S. Saeidian, C. Pinzón, C. Palamidessi, "Information Leakage Envelopes", 2026,
       arXiv:2605.21185.
    """
    eps = check_epsilon(epsilon)
    return leakage_distribution(kernel, prior).tail(eps)


def pml_lower_quantile(kernel: KernelLike, prior: ArrayLike, delta: float) -> float:
    """The lower PML quantile ε̲_Y(δ), envelope paper eqs. (9)–(10):

    .. math::

        \\underline\\varepsilon_Y(\\delta) = \\inf\\{t \\ge 0 : C_Y(t) \\ge 1 - \\delta\\}
        = \\min_{\\mathcal A \\subset \\mathcal Y,\\ P_Y(\\mathcal A) \\ge 1 - \\delta}
          \\max_{y \\in \\mathcal A} \\ell(X \\to y),

    the smallest worst-case leakage left after ignoring a set of probability δ.
    Non-increasing and right-continuous in δ. Masses are compared with ``1 − δ`` up to
    ``QUANTILE_MASS_ATOL``.

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        The mechanism ``P_{Y|X}`` (rows are the N inputs); it must be row-stochastic.
    prior : array_like, shape (N,)
        The input distribution ``P_X``; it must be non-negative and sum to 1. Inputs outside
        its support are dropped.
    delta : float
        The probability δ, in the open interval (0, 1).

    Returns
    -------
    float
        ε̲_Y(δ) in nats.

    References
    ----------
    .. [1] S. Saeidian, C. Pinzón, C. Palamidessi, "Information Leakage Envelopes", 2026,
       arXiv:2605.21185.
    """
    d = check_delta(delta)
    dist = leakage_distribution(kernel, prior)
    reached = np.cumsum(dist.probabilities) >= 1.0 - d - QUANTILE_MASS_ATOL
    reached[-1] = True  # the whole alphabet has probability 1 (rounding aside)
    return float(dist.values[int(np.argmax(reached))])


def pml_upper_quantile(kernel: KernelLike, prior: ArrayLike, delta: float) -> float:
    """The PML δ-quantile ε̄_Y(δ) (upper quantile), envelope paper Sec. IV:

    .. math::

        \\bar\\varepsilon_Y(\\delta) = \\sup\\{t \\ge 0 : C_Y(t) \\le 1 - \\delta\\}
        = \\max_{\\mathcal A \\subset \\mathcal Y,\\ P_Y(\\mathcal A) \\ge \\delta}
          \\min_{y \\in \\mathcal A} \\ell(X \\to y),

    the largest leakage that holds on a set of probability at least δ. Always
    ``≥ ε̲_Y(δ)``; the envelope is the supremum of either over post-processings
    (Theorem 2). Masses are compared with δ up to ``QUANTILE_MASS_ATOL``.

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        The mechanism ``P_{Y|X}`` (rows are the N inputs); it must be row-stochastic.
    prior : array_like, shape (N,)
        The input distribution ``P_X``; it must be non-negative and sum to 1. Inputs outside
        its support are dropped.
    delta : float
        The probability δ, in the open interval (0, 1).

    Returns
    -------
    float
        ε̄_Y(δ) in nats.

    References
    ----------
    .. [1] S. Saeidian, C. Pinzón, C. Palamidessi, "Information Leakage Envelopes", 2026,
       arXiv:2605.21185.
    """
    d = check_delta(delta)
    dist = leakage_distribution(kernel, prior)
    tails = np.cumsum(dist.probabilities[::-1])[::-1]  # P{ℓ ≥ values[i]}
    reached = tails >= d - QUANTILE_MASS_ATOL
    reached[0] = True
    return float(dist.values[int(np.flatnonzero(reached)[-1])])


def pml_psi1(kernel: KernelLike, prior: ArrayLike, epsilon: float) -> float:
    """ψ1(ε), the first candidate approximate-PML penalty (envelope paper, Sec. III):

    .. math::

        \\psi_1(\\varepsilon)
        = \\mathbb E_{P_Y}\\bigl[(1 - e^{\\varepsilon - \\ell(X\\to Y)})^+\\bigr]
        = \\sum_y P_Y(y) \\Bigl(1 - \\frac{e^\\varepsilon P_Y(y)}{\\max_x K[x, y]}\\Bigr)^+ ,

    a lower bound on the failure probability ``P_Y{ℓ > ε}``. It can increase under
    post-processing (Theorem 1 (i): 13/180 → 2/27 in Example 1).

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        The mechanism ``P_{Y|X}`` (rows are the N inputs); it must be row-stochastic.
    prior : array_like, shape (N,)
        The input distribution ``P_X``; it must be non-negative and sum to 1. Inputs outside
        its support are dropped.
    epsilon : float
        The leakage level ε ≥ 0 in nats (``math.inf`` allowed).

    Returns
    -------
    float
        ψ1(ε), in [0, 1].

    References
    ----------
    .. [1] S. Saeidian, C. Pinzón, C. Palamidessi, "Information Leakage Envelopes", 2026,
       arXiv:2605.21185.
    """
    eps = check_epsilon(epsilon)
    j = _joint(kernel, prior)
    leak = np.log(j.kernel.max(axis=0)) - np.log(j.p_y)
    penalty = -np.expm1(np.minimum(eps - leak, 0.0))  # 1 − e^{ε − ℓ} where ℓ > ε, else 0
    return float(np.dot(j.p_y, penalty))


def pml_psi2(kernel: KernelLike, prior: ArrayLike, epsilon: float) -> float:
    """ψ2(ε), the second candidate approximate-PML penalty (envelope paper, Sec. III):

    .. math::

        \\psi_2(\\varepsilon) = \\max_x \\mathbb E_{P_{Y|X=x}}
            \\bigl[(1 - e^{\\varepsilon - i(x; Y)})^+\\bigr]
        = \\max_x \\max_{\\mathcal E} \\bigl(P_{Y|X=x}(\\mathcal E)
            - e^\\varepsilon P_Y(\\mathcal E)\\bigr),

    the hockey-stick divergence ``max_x E_{e^ε}(P_{Y|X=x} ‖ P_Y)``; the best event is
    ``{y : i(x; y) > ε}``. Never increases under post-processing (Theorem 1 (ii)).

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        The mechanism ``P_{Y|X}`` (rows are the N inputs); it must be row-stochastic.
    prior : array_like, shape (N,)
        The input distribution ``P_X``; it must be non-negative and sum to 1. Inputs outside
        its support are dropped.
    epsilon : float
        The leakage level ε ≥ 0 in nats (``math.inf`` allowed).

    Returns
    -------
    float
        ψ2(ε), in [0, 1] (0 for ``ε = ∞``).

    References
    ----------
    .. [1] S. Saeidian, C. Pinzón, C. Palamidessi, "Information Leakage Envelopes", 2026,
       arXiv:2605.21185.
    """
    eps = check_epsilon(epsilon)
    j = _joint(kernel, prior)
    growth = exp_or_inf(eps)
    if not math.isfinite(growth):
        return 0.0
    excess = j.kernel - growth * j.p_y[None, :]
    return float(np.maximum(excess, 0.0).sum(axis=1).max())


# -- bounds on the envelope ----------------------------------------------------------------


def binary_envelope(kernel: KernelLike, prior: ArrayLike, delta: float) -> float:
    """The binary envelope ε_b(δ), by Algorithm 1 of the envelope paper (eq. 13).

    ``ε_b(δ) = sup ε̄_Z(δ)`` over binary post-processings ``Z = 1_E(Y)``, i.e. the
    largest leakage ``log max_x P_{Y|X=x}(E) / P_Y(E)`` of a (randomised) event with
    ``P_Y(E) = δ`` (App. C-A, eqs. 26–28). For each ``x`` the outcomes are sorted by
    ``s_x(y) = K[x, y] / P_Y(y)``, taken greedily until their mass reaches δ, the last one
    with the fraction ζ that makes the mass exactly δ:

    .. math::

        \\varepsilon_b(\\delta) = \\log \\max_x \\frac1\\delta \\Bigl(
            \\sum_{j < k^\\star} K[x, y_j] + \\zeta K[x, y_{k^\\star}] \\Bigr).

    A lower bound on the envelope (eq. 14).

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        The mechanism ``P_{Y|X}`` (rows are the N inputs); it must be row-stochastic.
    prior : array_like, shape (N,)
        The input distribution ``P_X``; it must be non-negative and sum to 1. Inputs outside
        its support are dropped.
    delta : float
        The probability δ, in the open interval (0, 1).

    Returns
    -------
    float
        ε_b(δ) in nats.

    References
    ----------
    .. [1] S. Saeidian, C. Pinzón, C. Palamidessi, "Information Leakage Envelopes", 2026,
       arXiv:2605.21185.
    """
    d = check_delta(delta)
    j = _joint(kernel, prior)
    best = 0.0
    for row in j.kernel:
        order = np.argsort(-row / j.p_y, kind="stable")
        mass = np.cumsum(j.p_y[order])
        k_star = min(int(np.searchsorted(mass, d - QUANTILE_MASS_ATOL)), mass.shape[0] - 1)
        before = mass[k_star - 1] if k_star > 0 else 0.0
        zeta = min(max((d - before) / j.p_y[order[k_star]], 0.0), 1.0)
        value = (row[order[:k_star]].sum() + zeta * row[order[k_star]]) / d
        best = max(best, value)
    return float(math.log(best))


def envelope_lower_bound(kernel: KernelLike, prior: ArrayLike, delta: float) -> float:
    """The general lower bound (14) of the envelope paper:
    ``ε_c(δ) ≥ max{ε̄_Y(δ), ε_b(δ)}`` (no post-processing, and the best binary one).

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        The mechanism ``P_{Y|X}`` (rows are the N inputs); it must be row-stochastic.
    prior : array_like, shape (N,)
        The input distribution ``P_X``; it must be non-negative and sum to 1. Inputs outside
        its support are dropped.
    delta : float
        The probability δ, in the open interval (0, 1).

    Returns
    -------
    float
        The lower bound on ε_c(δ), in nats.

    References
    ----------
    .. [1] S. Saeidian, C. Pinzón, C. Palamidessi, "Information Leakage Envelopes", 2026,
       arXiv:2605.21185.
    """
    return max(pml_upper_quantile(kernel, prior, delta), binary_envelope(kernel, prior, delta))


def envelope_upper_bound(kernel: KernelLike, prior: ArrayLike, delta: float) -> float:
    """Theorem 3 of the envelope paper:

    .. math::

        \\varepsilon_c(\\delta) \\le \\min\\Bigl\\{\\mathcal L(X \\to Y) + \\log\\frac1\\delta,\\
            \\max_y \\ell(X \\to y)\\Bigr\\},
        \\qquad \\mathcal L(X \\to Y) = \\log \\sum_y \\max_{x} K[x, y],

    the maximal leakage (multiplicative Bayes capacity; the max over the support of the
    prior) by Markov's inequality, and the mechanism's own ε-PML level.

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        The mechanism ``P_{Y|X}`` (rows are the N inputs); it must be row-stochastic.
    prior : array_like, shape (N,)
        The input distribution ``P_X``; it must be non-negative and sum to 1. Inputs outside
        its support are dropped.
    delta : float
        The probability δ, in the open interval (0, 1).

    Returns
    -------
    float
        The upper bound on ε_c(δ), in nats.

    References
    ----------
    .. [1] S. Saeidian, C. Pinzón, C. Palamidessi, "Information Leakage Envelopes", 2026,
       arXiv:2605.21185.
    """
    d = check_delta(delta)
    j = _joint(kernel, prior)
    maximal = float(np.log(j.kernel.max(axis=0).sum()))
    level = float(np.max(np.log(j.kernel.max(axis=0)) - np.log(j.p_y)))
    return min(maximal - math.log(d), level)


# -- the exact envelope --------------------------------------------------------------------


class PMLEnvelope(EvidenceFloat):
    """The PML envelope ε_c(δ), with the post-processing that attains it.

    A ``float`` carrying its evidence (see :func:`pml_envelope`, which builds it).

    Parameters
    ----------
    value : float
        ε_c(δ) in nats (the certified lower end of the final bracket).
    **fields
        The evidence, every one by keyword and all of them required: ``upper``,
        ``post_processing``, ``bad_set``, ``bad_mass``, ``n_programs`` and ``seconds``
        (see Attributes).

    Attributes
    ----------
    value : float
        The float itself.
    upper : float
        The upper end of the final bracket: ``ε_c(δ) ≤ upper`` (the bad-set LP at
        ``e^upper`` has value below δ). ``upper − value ≤ ENVELOPE_RTOL`` unless the
        value is the mechanism's PML level.
    post_processing : ndarray, shape (M, Z)
        A row-stochastic ``P_{Z|Y}`` (rows are outputs of the kernel) with
        ``ε̄_Z(δ) ≥ value``: one output per bad piece, the last output collects the rest.
    bad_set : tuple of int
        The outputs of ``Z`` forming the bad set (each leaks ≥ value; total mass ≥ δ).
    bad_mass : float
        ``P_Z(bad_set)``, the LP value at ``e^value``.
    n_programs : int
        Linear programs solved.
    seconds : float
        Wall-clock time.
    """

    _fields = ("upper", "post_processing", "bad_set", "bad_mass", "n_programs", "seconds")

    upper: float
    post_processing: NDArray[np.float64]
    bad_set: tuple[int, ...]
    bad_mass: float
    n_programs: int
    seconds: float

    def __repr__(self) -> str:
        return (
            f"PMLEnvelope({show(self.value)}, upper={show(self.upper)}, "
            f"bad_mass={show(self.bad_mass)})"
        )


def _bad_set_program(
    j: _Joint, growth: float, pieces: NDArray[np.bool_] | None = None
) -> tuple[float, NDArray[np.float64]]:
    """``V(λ)``: the largest mass of outcomes that can be cut into pieces, each leaking
    ≥ ``log λ`` through its own witness input (see :func:`pml_envelope`).

    Variables ``w[x, y] ∈ [0, 1]`` (x over the support rows allowed by ``pieces``):

        max Σ_{x,y} w[x, y] P_Y(y)
        s.t. Σ_y w[x, y] (K[x, y]/λ − P_Y(y)) ≥ 0   for each x,
             Σ_x w[x, y] ≤ 1                        for each y.

    Returns the value and ``w`` (shape (rows, outputs); zero rows for excluded inputs).
    """
    n, m = j.kernel.shape
    rows = np.arange(n) if pieces is None else np.flatnonzero(pieces)
    w = np.zeros((n, m))
    if rows.size == 0:
        return 0.0, w
    r = rows.size
    # Each piece row divided by λ (the same constraint): entries stay within [−1, 1]
    # when λ is huge (λ = 1e16 for a prior entry of 1e-16), which HiGHS would refuse.
    coeff = j.kernel[rows] / growth - j.p_y[None, :]  # [piece, y]
    # Column (piece i, output y) has index i*m + y; it appears in piece row i and output
    # row r + y.
    col = np.arange(r * m)
    data = np.concatenate([coeff.ravel(), np.ones(r * m)])
    row_index = np.concatenate([np.repeat(np.arange(r), m), r + np.tile(np.arange(m), r)])
    matrix = sp.csc_array((data, (row_index, np.concatenate([col, col]))), shape=(r + m, r * m))
    row_lower = np.concatenate([np.zeros(r), np.full(m, -np.inf)])
    row_upper = np.concatenate([np.full(r, np.inf), np.ones(m)])
    solution = solve_linear_program(
        np.tile(j.p_y, r), matrix, row_lower, row_upper, col_upper=np.ones(r * m),
        known_feasible=True,
    )
    w[rows] = np.clip(solution.x.reshape(r, m), 0.0, 1.0)
    return float(solution.objective), w


def _achieved(j: _Joint, w: NDArray[np.float64]) -> float:
    """``min`` over the non-empty pieces of ``Σ_y w K[x, ·] / Σ_y w P_Y``: every piece
    of this ``w`` leaks at least the log of this."""
    mass = w @ j.p_y
    gain = np.einsum("xy,xy->x", w, j.kernel)
    used = mass > 0
    return float(np.min(gain[used] / mass[used])) if np.any(used) else math.inf


def _repair_pieces(j: _Joint, growth: float, w: NDArray[np.float64]) -> NDArray[np.float64]:
    """Make every piece meet ``Σ_y w (K[x, ·] − λ P_Y) ≥ 0`` exactly, at least mass lost.

    HiGHS meets the piece constraints only to its (scaled) feasibility tolerance, which
    near a single outcome leaking exactly ``log λ`` keeps that outcome in a piece up to a
    relative ``λ`` error of about 1e-8. The deficit is recovered by removing weight from
    the outputs of lowest ratio ``K[x, y]/P_Y(y)`` first (mass lost per unit of deficit
    is ``1/(λ − ratio)``, least for them); a piece that cannot be repaired is emptied.
    """
    coeff = j.kernel - growth * j.p_y[None, :]
    w = w.copy()
    for x in np.flatnonzero(np.einsum("xy,xy->x", w, coeff) < 0):
        deficit = -float(w[x] @ coeff[x])
        for y in np.argsort(coeff[x] / j.p_y):
            if coeff[x, y] >= 0 or deficit <= 0:
                break
            cut = min(w[x, y], deficit / -coeff[x, y])
            w[x, y] -= cut
            deficit -= cut * -coeff[x, y]
        mass = float(w[x] @ j.p_y)
        if mass > 0 and float(w[x] @ j.kernel[x]) < growth * (1 - ENVELOPE_RTOL) * mass:
            w[x] = 0.0  # rounding left it short: drop the piece rather than overstate
    return w


def _witness(j: _Joint, w: NDArray[np.float64]) -> tuple[NDArray[np.float64], tuple[int, ...]]:
    """The post-processing ``P_{Z|Y}`` built from the piece weights ``w`` (full output
    alphabet; outputs of probability zero go to the rest)."""
    used = np.flatnonzero(w @ j.p_y > 0)
    pieces = w[used].T  # [y, piece]
    totals = pieces.sum(axis=1)
    over = totals > 1.0
    pieces[over] /= totals[over, None]  # undo the LP's feasibility slack
    channel = np.zeros((j.n_outputs, used.size + 1))
    channel[j.outputs, : used.size] = pieces
    channel[:, -1] = np.maximum(1.0 - channel[:, :-1].sum(axis=1), 0.0)
    channel /= channel.sum(axis=1, keepdims=True)
    channel += 0.0  # no negative zeros from the clipping
    return channel, tuple(range(used.size))


def pml_envelope(kernel: KernelLike, prior: ArrayLike, delta: float) -> PMLEnvelope:
    """The exact PML envelope ε_c(δ) of a finite mechanism (envelope paper, Sec. IV).

    .. math::

        \\varepsilon_c(\\delta) = \\sup_{Z:\\ X - Y - Z} \\bar\\varepsilon_Z(\\delta)
        = \\max\\{t \\ge 0 : V(e^t) \\ge \\delta\\},

    where ``V(λ)`` is the value of the linear program

    .. math::

        V(\\lambda) = \\max_{w \\in [0,1]^{\\mathcal X \\times \\mathcal Y}}
            \\sum_{x, y} w[x, y] P_Y(y)
        \\quad\\text{s.t.}\\quad \\sum_y w[x, y] \\bigl(K[x, y] - \\lambda P_Y(y)\\bigr)
            \\ge 0 \\ \\forall x, \\qquad \\sum_x w[x, y] \\le 1 \\ \\forall y.

    The paper leaves the exact envelope open ("may be difficult"). Proof of the
    reduction. By Theorem 2, ``ε_c(δ) ≥ t`` iff some post-processing ``Z`` has a set
    ``A`` with ``P_Z(A) ≥ δ`` whose outputs all leak ≥ t (for the supremum being
    attained, see below). (⇒ ``V(e^t) ≥ δ``.) Write ``g_z(y) = P_{Z|Y=y}(z)``. Output
    ``z`` leaks ≥ t iff some witness ``x_z`` has ``Σ_y g_z(y)(K[x_z, y] − e^t P_Y(y)) ≥ 0``.
    Summing ``g_z`` over the ``z ∈ A`` with the same witness gives ``w[x, ·]``: each piece
    constraint is a sum of non-negative terms, ``Σ_x w[x, y] ≤ Σ_z g_z(y) ≤ 1``, and the
    objective is ``P_Z(A) ≥ δ``. (⇐) Given a feasible ``w`` of value ≥ δ, let ``Z`` have
    one output per input, ``P_{Z|Y=y}(z_x) = w[x, y]``, plus one output for the rest;
    every ``z_x`` of positive probability leaks ≥ ``log P_{Z|X=x}(z_x)/P_Z(z_x) ≥ t``,
    and together they have probability ``V ≥ δ``, so ``ε̄_Z(δ) ≥ t``. Attainment: ``V``
    is non-increasing in λ (the piece constraints tighten), and upper semicontinuous
    (the feasible sets are compact and vary continuously), hence left-continuous, so
    ``{t : V(e^t) ≥ δ}`` is a closed interval ``[0, ε_c(δ)]`` (``V(1) = 1``: one piece
    takes everything). So the supremum over ``Z`` is a maximum, attained with at most
    ``|X| + 1`` outputs, and one LP decides ``ε_c(δ) ≥ t``.

    The largest such t is found by bisection on λ between the lower bound (14) and the
    upper bound of Theorem 3, keeping the invariant ``V(λ_lo) ≥ δ > V(λ_hi)``; the value
    returned is the least leakage of the pieces of the best feasible LP solution (at
    least ``λ_lo``), so an actual post-processing certifies it. The bracket is closed
    to a relative width ``ENVELOPE_RTOL``. HiGHS meets the piece
    constraints only to its tolerance, so every LP solution is first repaired into
    pieces that meet them exactly (:func:`_repair_pieces`) and only a repaired mass of
    at least ``δ − ENVELOPE_MASS_ATOL`` (1e-12) counts: the value is certified by an
    actual post-processing, and is ε_c(δ') for some δ' within 1e-12 below δ (never
    below ε_c(δ)).

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        The mechanism ``P_{Y|X}`` (rows are the N inputs); it must be row-stochastic.
    prior : array_like, shape (N,)
        The input distribution ``P_X``; it must be non-negative and sum to 1. Inputs outside
        its support are dropped.
    delta : float
        The failure probability, in the open interval (0, 1).

    Returns
    -------
    PMLEnvelope
        The value with the attaining post-processing, the bad set, the bracket's upper
        end and the LP count. Raises :class:`~mechdesign.errors.SolverError` if HiGHS
        fails.

    References
    ----------
    .. [1] S. Saeidian, C. Pinzón, C. Palamidessi, "Information Leakage Envelopes", 2026,
       arXiv:2605.21185.
    """
    start = time.perf_counter()
    d = check_delta(delta)
    j = _joint(kernel, prior)
    target = d - ENVELOPE_MASS_ATOL
    top = float((j.kernel / j.p_y[None, :]).max())
    n_programs = 0

    def attempt(growth: float) -> tuple[bool, float, NDArray[np.float64]]:
        """Does the bad-set LP at λ reach δ? With the repaired (certified) pieces and
        the growth they achieve."""
        nonlocal n_programs
        n_programs += 1
        _, raw = _bad_set_program(j, growth)
        w = _repair_pieces(j, growth, raw)
        achieved = _achieved(j, w)
        reached = float((w @ j.p_y).sum()) >= target and achieved >= growth * (1 - ENVELOPE_RTOL)
        return reached, achieved, w

    reached, best, w = attempt(top)
    if reached:  # the whole PML level survives: Theorem 3's second term is tight
        hi = top
    else:
        # Theorem 3 bounds ε_c(δ) strictly above its value too (any margin will do).
        above = math.exp(envelope_upper_bound(kernel, prior, d)) * (1 + ENVELOPE_BRACKET_RTOL)
        hi = min(top, above)
        lo = math.exp(envelope_lower_bound(kernel, prior, d))
        reached, best, w = attempt(lo)
        if not reached:  # eq. (14) holds exactly; LP rounding only. λ = 1: one piece.
            w = np.zeros_like(j.kernel)
            w[0] = 1.0
            lo = best = _achieved(j, w)
        while hi - lo > ENVELOPE_RTOL * lo:
            mid = 0.5 * (lo + hi)
            reached, achieved, mid_w = attempt(mid)
            if reached:
                lo = mid
                if achieved > best:
                    best, w = achieved, mid_w
            else:
                hi = mid
    post_processing, bad_set = _witness(j, w)
    return PMLEnvelope(
        math.log(best),
        upper=math.log(max(hi, best)),
        post_processing=post_processing,
        bad_set=bad_set,
        bad_mass=float((w @ j.p_y).sum()),
        n_programs=n_programs,
        seconds=time.perf_counter() - start,
    )


def closed_failure_probability(kernel: KernelLike, prior: ArrayLike, epsilon: float) -> float:
    """The closed failure probability δ_c(ε), envelope paper eq. (8):

    .. math::

        \\delta_c(\\varepsilon) = \\sup_{Z:\\ X - Y - Z} P\\{\\ell(X \\to Z) > \\varepsilon\\},

    the largest probability that the leakage exceeds ε after any post-processing;
    ``ε_c(δ) = inf{ε : δ_c(ε) ≤ δ}``. Computed exactly as the bad-set program of
    :func:`pml_envelope` at ``λ = e^ε`` with pieces only for the inputs ``x`` that have
    an outcome with ``i(x; y) > ε``. Proof: a strict piece ``Σ_y w(K[x,·] − λ P_Y) > 0``
    exists only for such ``x``, and for them the closure of the strict pieces is the
    non-strict set (push weight towards an outcome with ``i(x; y) > ε``), so the
    supremum over strict pieces equals the LP value over non-strict ones. Information
    densities within ``LEAKAGE_TIE_ATOL`` of ε do not count as exceeding it.

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        The mechanism ``P_{Y|X}`` (rows are the N inputs); it must be row-stochastic.
    prior : array_like, shape (N,)
        The input distribution ``P_X``; it must be non-negative and sum to 1. Inputs outside
        its support are dropped.
    epsilon : float
        The leakage level ε ≥ 0 in nats (``math.inf`` allowed).

    Returns
    -------
    float
        δ_c(ε), in [0, 1] (0 for ``ε = ∞``).

    References
    ----------
    .. [1] S. Saeidian, C. Pinzón, C. Palamidessi, "Information Leakage Envelopes", 2026,
       arXiv:2605.21185.
    """
    eps = check_epsilon(epsilon)
    j = _joint(kernel, prior)
    growth = exp_or_inf(eps)
    if not math.isfinite(growth):
        return 0.0
    density = np.log(j.kernel, where=j.kernel > 0, out=np.full(j.kernel.shape, -np.inf))
    density -= np.log(j.p_y)[None, :]
    pieces = np.max(density, axis=1) > eps + LEAKAGE_TIE_ATOL
    value, _ = _bad_set_program(j, growth, pieces)
    return min(max(value, 0.0), 1.0)


# -- composition -----------------------------------------------------------------------


def _as_stage(value: ArrayLike, name: str) -> NDArray[np.float64]:
    if isinstance(value, Mechanism):
        return value.matrix  # validated on construction
    # Refuse text, booleans, complex numbers and non-numbers before converting.
    dtype = check_real_dtype(value, name)
    try:
        k = np.asarray(value, dtype=float)
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(f"{name} must be a numeric array; got {show(value)}.") from exc
    if k.ndim < 2:
        raise InvalidInputError(f"{name} must have at least 2 dimensions; got shape {k.shape}.")
    k = as_float_array(k, name, ndim=k.ndim)
    if np.any(k < 0):
        raise InvalidInputError(f"{name} must be non-negative.")
    sums = k.sum(axis=-1)
    atol = STOCHASTIC_ATOL
    if dtype.kind == "f" and dtype.itemsize < 8:  # float32: rows sum to 1 in its precision
        atol = max(atol, 4 * k.shape[-1] * float(np.finfo(dtype).eps))
    if np.any(np.abs(sums - 1.0) > atol):
        raise InvalidInputError(
            f"{name} must sum to 1 over its last axis (the new output) for every input and "
            f"history; a sum is {show(sums.flat[int(np.argmax(np.abs(sums - 1.0)))])}."
        )
    return k


def _stages(
    mechanisms: Sequence[ArrayLike], names: Sequence[str] | None = None
) -> list[NDArray[np.float64]]:
    """Validate an adaptive sequence; stage i as shape (N, |Y_1|·…·|Y_{i−1}|, |Y_i|).
    Element i is called ``names[i]`` in messages (default ``mechanisms[i]``)."""
    if names is None:
        is_stack = isinstance(mechanisms, np.ndarray) and mechanisms.ndim >= 3
        if not is_stack and (
            isinstance(mechanisms, (str, bytes, np.ndarray))
            or not isinstance(mechanisms, Sequence)
        ):
            raise InvalidInputError(
                "mechanisms must be a list of kernels (2-D arrays or Mechanisms, or adaptive "
                f"stages of shape (N, |Y_1|, ..., |Y_i|)); got {show(mechanisms)}."
            )
        names = [f"mechanisms[{i}]" for i in range(len(mechanisms))]
    if len(mechanisms) == 0:
        raise InvalidInputError("mechanisms must contain at least one mechanism.")
    stages: list[NDArray[np.float64]] = []
    history = 1
    for i, mechanism in enumerate(mechanisms):
        k = _as_stage(mechanism, names[i])
        n = stages[0].shape[0] if stages else k.shape[0]
        if k.shape[0] != n:
            raise InvalidInputError(f"{names[i]} has {k.shape[0]} inputs; the first has {n}.")
        if k.ndim == 2:  # non-adaptive: the same kernel after every history
            k = np.broadcast_to(k[:, None, :], (n, history, k.shape[1]))
        else:
            if int(np.prod(k.shape[1:-1])) != history:
                raise InvalidInputError(
                    f"{names[i]} must have shape (N, |Y_1|, ..., |Y_{i}|, |Y_{i + 1}|) "
                    f"matching the earlier outputs ({history} histories); got {k.shape}."
                )
            k = k.reshape(n, history, k.shape[-1])
        stages.append(k)
        history *= k.shape[-1]
    return stages


def _conditional_maximal_leakage(
    history: NDArray[np.float64], stage: NDArray[np.float64], prior: NDArray[np.float64]
) -> float:
    """``max_h log Σ_y max_{x: P(x, h) > 0} stage[x, h, y]`` over histories of positive
    probability; ``history[x, h] = P(h | x)``."""
    possible = (prior[:, None] * history) > 0  # [x, h]: P_{X|H=h}(x) > 0
    best = np.where(possible[:, :, None], stage, -np.inf).max(axis=0)  # [h, y]
    seen = possible.any(axis=0)
    return float(np.max(np.log(best[seen].sum(axis=1))))


def conditional_maximal_leakage(first: KernelLike, second: ArrayLike, prior: ArrayLike) -> float:
    """Conditional maximal leakage ``L(X → Y2 | Y1)`` (Issa et al. [2]_, Thm. 6; envelope
    paper [1]_, Sec. IV-A):

    .. math::

        \\mathcal L(X \\to Y_2 \\mid Y_1) = \\max_{y_1: P_{Y_1}(y_1) > 0} \\log
            \\sum_{y_2} \\max_{x: P_{X|Y_1=y_1}(x) > 0} P_{Y_2|X=x, Y_1=y_1}(y_2).

    Parameters
    ----------
    first : Mechanism or array_like, shape (N, M1)
        ``K1[x, y1] = P(Y1 = y1 | X = x)``; it must be row-stochastic.
    second : array_like, shape (N, M1, M2) or (N, M2)
        ``K2[x, y1, y2] = P(Y2 = y2 | X = x, Y1 = y1)``; a 2-D kernel is used after every
        ``y1`` (non-adaptive composition, where ``L(X → Y2 | Y1) ≤ L(X → Y2)``). It must
        be non-negative and sum to 1 over its last axis.
    prior : array_like, shape (N,)
        The input distribution ``P_X``; it must be non-negative and sum to 1. Inputs outside
        its support are dropped.

    Returns
    -------
    float
        ``L(X → Y2 | Y1)`` in nats.

    References
    ----------
    .. [1] S. Saeidian, C. Pinzón, C. Palamidessi, "Information Leakage Envelopes", 2026,
       arXiv:2605.21185.
    .. [2] I. Issa, A. B. Wagner, S. Kamath, "An Operational Approach to Information Leakage",
       IEEE Transactions on Information Theory 66(3):1625-1657, 2020,
       doi:10.1109/TIT.2019.2962804.
    """
    k1 = as_matrix(first, "first")
    p = as_distribution(prior, "prior", k1.shape[0])
    stages = _stages([first, second], ["first", "second"])
    return _conditional_maximal_leakage(stages[0][:, 0, :], stages[1], p)


def adaptive_composition(mechanisms: Sequence[ArrayLike]) -> Mechanism:
    """The joint mechanism ``X → (Y_1, …, Y_n)`` of an adaptive sequence.

    Element i of ``mechanisms`` has shape ``(N, |Y_1|, …, |Y_i|)``: the law of ``Y_i``
    given the input and every earlier output (a 2-D kernel: given the input alone). The
    joint output ``(y_1, …, y_n)`` is flattened in row-major order.

    Parameters
    ----------
    mechanisms : sequence of (Mechanism or array_like)
        The stages, at least one: element i has shape ``(N, |Y_1|, …, |Y_i|)`` (the law of
        ``Y_i`` given the input and the earlier outputs) or ``(N, |Y_i|)`` (given the
        input alone); every element must be non-negative and sum to 1 over its last axis,
        and all have the same N inputs.

    Returns
    -------
    Mechanism
        The joint kernel, shape ``(N, |Y_1|·…·|Y_n|)``.
    """
    stages = _stages(mechanisms)
    joint = stages[0][:, 0, :]
    for stage in stages[1:]:
        joint = (joint[:, :, None] * stage).reshape(joint.shape[0], -1)
    return Mechanism(joint)


def composition_envelope_bound(
    mechanisms: Sequence[ArrayLike], prior: ArrayLike, delta: float
) -> float:
    """The envelope bound for an adaptive composition (envelope paper [1]_, Sec. IV-A, after
    Theorem 3, with Issa et al.'s chain rule [2]_, Cor. 2):

    .. math::

        \\varepsilon_c(\\delta) \\le \\mathcal L(X \\to Y^n) + \\log\\frac1\\delta
            \\le \\sum_{i=1}^n \\mathcal L(X \\to Y_i \\mid Y^{i-1}) + \\log\\frac1\\delta .

    Returns the right-hand side (each term over histories of positive probability).
    ``mechanisms`` is as in :func:`adaptive_composition`.

    Parameters
    ----------
    mechanisms : sequence of (Mechanism or array_like)
        The stages, at least one: element i has shape ``(N, |Y_1|, …, |Y_i|)`` (the law of
        ``Y_i`` given the input and the earlier outputs) or ``(N, |Y_i|)`` (given the
        input alone); every element must be non-negative and sum to 1 over its last axis,
        and all have the same N inputs.
    prior : array_like, shape (N,)
        The input distribution ``P_X``; it must be non-negative and sum to 1. Inputs outside
        its support are dropped.
    delta : float
        The probability δ, in the open interval (0, 1).

    Returns
    -------
    float
        The right-hand side, in nats.

    References
    ----------
    .. [1] S. Saeidian, C. Pinzón, C. Palamidessi, "Information Leakage Envelopes", 2026,
       arXiv:2605.21185.
    .. [2] I. Issa, A. B. Wagner, S. Kamath, "An Operational Approach to Information Leakage",
       IEEE Transactions on Information Theory 66(3):1625-1657, 2020,
       doi:10.1109/TIT.2019.2962804.
    """
    d = check_delta(delta)
    stages = _stages(mechanisms)
    p = as_distribution(prior, "prior", stages[0].shape[0])
    history = np.ones((p.shape[0], 1))
    total = 0.0
    for stage in stages:
        total += _conditional_maximal_leakage(history, stage, p)
        history = (history[:, :, None] * stage).reshape(p.shape[0], -1)
    return total - math.log(d)


# -- randomized response (Sec. V-B) --------------------------------------------------------


@dataclass(frozen=True)
class RandomizedResponseEnvelope:
    """Theorem 5 of the envelope paper for k-RR, with App. C-B's binary envelope.

    Returned by :func:`randomized_response_envelope` ([1]_, Sec. V-B); its fields are the
    constructor's parameters, not validated here. Levels are in nats.

    Parameters
    ----------
    lower : float
        A lower bound on ε_c(δ): Theorem 5 (iii)'s h_δ(θ) where its prior condition holds,
        and for every prior ``max{ℓ(X → N), construction}`` (see
        :func:`randomized_response_envelope`); ``log(α/q_1)`` (exact) for δ ≤ q_1.
    upper : float
        Theorem 5 (ii): ``min{log(kα/δ), log(α/q_1)}``.
    binary : float
        ε_b(δ) in closed form: ``log(α/q_1)`` for δ ≤ q_1, else
        ``log((α + (N − 2 + θ)β)/δ)`` (App. C-B).
    dp_epsilon : float
        Balle et al.'s ``max{log((α − δ)/β), 0}`` [2]_: k-RR is (ε_DP(δ), δ)-DP.
    n : int
        The index N with ``Σ_{j<N} q_j < δ ≤ Σ_{j≤N} q_j`` (1 when δ ≤ q_1), for the
        prior sorted ascending.
    theta, theta1, theta2 : float
        θ and the regime boundaries θ₁, θ₂ (both 0 when δ ≤ q_1: with N = 1 every θ
        lies in the third regime, whose ``h = log(α/q_1)`` is (i)).
    prior_condition : bool
        Condition (20), ``p_N ≤ (α Σ_{j<N} p_j + β) / ((N − 2)α + β)``, under which all
        three regimes of h_δ can occur (``True`` when δ ≤ q_1, where it is not needed).
    alpha, beta : float
        The k-RR probabilities ``e^ε/(e^ε + k − 1)`` and ``1/(e^ε + k − 1)``.
    q : ndarray, shape (k,)
        The output distribution ``q_j = β + (α − β)p_j`` for the sorted prior, ascending;
        outcome j leaks ``log(α/q_j)``.

    References
    ----------
    .. [1] S. Saeidian, C. Pinzón, C. Palamidessi, "Information Leakage Envelopes", 2026,
       arXiv:2605.21185.
    .. [2] B. Balle, G. Barthe, M. Gaboardi, "Privacy Amplification by Subsampling: Tight
       Analyses via Couplings and Divergences", NeurIPS 2018, arXiv:1807.01647.
    """

    lower: float
    upper: float
    binary: float
    dp_epsilon: float
    n: int
    theta: float
    theta1: float
    theta2: float
    prior_condition: bool
    alpha: float
    beta: float
    q: NDArray[np.float64]


def randomized_response_envelope(
    epsilon_r: float, prior: ArrayLike, delta: float
) -> RandomizedResponseEnvelope:
    """Theorem 5 of the envelope paper: bounds on the PML envelope of k-RR.

    With ``α = e^ε/(e^ε + k − 1)``, ``β = 1/(e^ε + k − 1)``, the prior sorted so that
    ``p_1 ≤ … ≤ p_k`` (k-RR is symmetric, so the envelope does not depend on the
    labelling), ``q_j = β + (α − β)p_j`` and ``ℓ(X → j) = log(α/q_j)``:

    (i) δ ≤ q_1: ``ε_c(δ) = log(α/q_1)``.
    (ii) ``ε_c(δ) ≤ min{log(kα/δ), log(α/q_1)}``.
    (iii) with N and θ as in :class:`RandomizedResponseEnvelope`,

    .. math::

        h_\\delta(\\theta) = \\begin{cases}
            \\log(\\alpha/q_{N-1}) & 0 < \\theta \\le \\theta_1, \\\\
            \\log\\frac{(N-1)\\alpha + \\theta\\beta}{\\delta}
                & \\theta_1 < \\theta \\le \\theta_2, \\\\
            \\log(\\alpha/q_N) & \\theta_2 < \\theta \\le 1,
        \\end{cases}

    ``θ₁ = α((N−2)q_{N−1} − Σ_{j≤N−2} q_j)/(αq_N − βq_{N−1})``,
    ``θ₂ = α((N−1)q_N − Σ_{j≤N−1} q_j)/(q_N(α − β))``.

    The paper states (iii) under the prior condition (20). Its proof gives more: the
    post-processing of the proof attains ``log(α/q_{N−1})`` for θ ≤ θ₁ and
    ``log(((N−1)α + θβ)/δ)`` for θ > θ₁ whatever the prior, and ``ℓ(X → N) = ε̄_Y(δ)``
    is always a lower bound, so ``lower = max{ℓ(X → N), construction}`` is valid for
    every prior and equals h_δ(θ) under (20) (our choice: we report the general form;
    ``prior_condition`` says whether the paper's statement applies). The degenerate cases
    of the paper (N = 2 or ``q_1 = … = q_{N−1}``: θ₁ = 0; ``q_{N−1} = q_N``: θ₁ = θ₂)
    need no special handling in this form.

    Parameters
    ----------
    epsilon_r : float
        The LDP level ε of k-RR in nats; it must be positive and finite.
    prior : array_like, shape (k,)
        The input distribution, ``k ≥ 2`` entries, non-negative and summing to 1 (in any
        order: it is sorted here).
    delta : float
        The probability δ, in the open interval (0, 1).

    Returns
    -------
    RandomizedResponseEnvelope
        The bounds with θ, N and the k-RR probabilities they are built from, and the
        (ε, δ)-DP level of k-RR [2]_.

    References
    ----------
    .. [1] S. Saeidian, C. Pinzón, C. Palamidessi, "Information Leakage Envelopes", 2026,
       arXiv:2605.21185.
    .. [2] B. Balle, G. Barthe, M. Gaboardi, "Privacy Amplification by Subsampling: Tight
       Analyses via Couplings and Divergences", NeurIPS 2018, arXiv:1807.01647.
    """
    eps = check_epsilon(epsilon_r, "epsilon_r")
    if not 0 < eps < math.inf:
        raise InvalidInputError(f"epsilon_r must be positive and finite; got {show(epsilon_r)}.")
    p = np.sort(as_distribution(prior, "prior"))
    k = p.shape[0]
    if k < 2:
        raise InvalidInputError(f"prior must have k >= 2 entries for k-RR; got {k}.")
    d = check_delta(delta)
    # α = 1/(1 + (k−1)e^{−ε}), β = e^{−ε} α and α − β = −expm1(−ε) α: no overflow for a
    # large ε (β underflows to 0 from ε ≈ 745, where k-RR is the identity in floats), and
    # α − β keeps its digits for a tiny ε (the plain difference is 0 below ε ≈ 1e-16).
    shrink = math.exp(-eps)
    alpha = 1.0 / (1.0 + (k - 1) * shrink)
    beta = shrink * alpha
    gap = -math.expm1(-eps) * alpha  # α − β
    log_alpha = -math.log1p((k - 1) * shrink)
    log_beta = -eps + log_alpha
    q = beta + gap * p
    q.setflags(write=False)
    leak_max = _rr_leakage(float(p[0]), eps)  # log(α/q_1)
    upper = min(math.log(k) + log_alpha - math.log(d), leak_max)
    dp = max(math.log(alpha - d) - log_beta, 0.0) if d < alpha else 0.0
    if d <= q[0] + QUANTILE_MASS_ATOL:
        # N = 1: θ₁ = θ₂ = 0, so every θ lies in the third regime, whose
        # h = log(α/q_N) = log(α/q_1) is (i).
        return RandomizedResponseEnvelope(
            leak_max, upper, leak_max, dp, 1, float(d / q[0]) if q[0] > 0 else 1.0,
            0.0, 0.0, True, alpha, beta, q,
        )
    cum = np.cumsum(q)
    big_n = int(np.searchsorted(cum, d - QUANTILE_MASS_ATOL)) + 1  # 1-based N ≥ 2
    big_n = min(max(big_n, 2), k)
    before = cum[big_n - 2]
    q_n = q[big_n - 1]
    theta = min((d - before) / q_n, 1.0)
    # θ₁, θ₂ with the common factor α − β of numerator and denominator cancelled
    # (q_j = β + (α − β)p_j), so they stay exact as ε → 0 where α − β vanishes:
    # θ₁ = α((N−2)p_{N−1} − Σ_{j≤N−2} p_j)/(β(1 − p_{N−1}) + αp_N),
    # θ₂ = α((N−1)p_N − Σ_{j≤N−1} p_j)/q_N.
    p_n, p_prev = p[big_n - 1], p[big_n - 2]
    theta1 = alpha * ((big_n - 2) * p_prev - p[: big_n - 2].sum()) / (
        beta * (1.0 - p_prev) + alpha * p_n
    )
    theta2 = alpha * ((big_n - 1) * p_n - p[: big_n - 1].sum()) / q_n
    # Condition (20) multiplied out (its denominator is 0 for N = 2 once β underflows).
    scale = (big_n - 2) * alpha + beta
    condition = bool(
        p[big_n - 1] * scale
        <= alpha * p[: big_n - 1].sum() + beta + QUANTILE_MASS_ATOL * scale
    )
    if theta <= theta1:
        construction = _rr_leakage(float(p_prev), eps)
    else:
        construction = math.log(((big_n - 1) * alpha + theta * beta) / d)
    lower = max(_rr_leakage(float(p_n), eps), construction)
    binary = math.log((alpha + (big_n - 2 + theta) * beta) / d)
    return RandomizedResponseEnvelope(
        lower,
        upper,
        binary,
        dp,
        big_n,
        float(theta),
        float(theta1),
        float(theta2),
        condition,
        alpha,
        beta,
        q,
    )


def _rr_leakage(p_j: float, eps: float) -> float:
    """``ℓ(X → j) = log(α/q_j) = −log(e^{−ε} + (1 − e^{−ε}) p_j)`` for k-RR, accurate for
    a tiny ε (as ``−log1p(expm1(−ε)(1 − p_j))``) and for a huge one (a log-sum, which is
    ε exactly when ``p_j = 0``, where ``q_j`` underflows)."""
    x = math.expm1(-eps) * (1.0 - p_j)  # q_j/α − 1, in (−1, 0]
    if x > -0.5:
        return -math.log1p(x)
    if p_j == 0:
        return eps
    return -float(np.logaddexp(-eps, math.log1p(-math.exp(-eps)) + math.log(p_j)))
