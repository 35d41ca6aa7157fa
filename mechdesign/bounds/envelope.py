"""PML quantiles, envelopes and privacy profiles (the envelope paper: Saeidian, Pinzón,
Palamidessi, *Information leakage envelopes*).

The leakage random variable ``ℓ(X → Y) = log max_x K[x, Y] / P_Y(Y)`` (Definition 4) and
its tail are the raw material: the quantiles ε̲_Y(δ), ε̄_Y(δ) (eqs. 9–10), probabilistic
PML (Definition 5), the two candidate approximate-PML penalties ψ1, ψ2 (Sec. III), and
the PML envelope ``ε_c(δ) = sup_Z ε̄_Z(δ)`` over every post-processing ``Z`` of ``Y``
(Sec. IV, Theorem 2), with its bounds (Theorem 3, eq. 14, Algorithm 1).
:func:`pml_envelope` computes ε_c(δ) exactly, which the paper calls difficult; its
docstring proves the reduction to a family of linear programs. The envelope of a
composition is :mod:`mechdesign.bounds.leakage_composition`'s, the k-RR study of
Sec. V-B :mod:`mechdesign.bounds.rr_envelope`'s.

Sec. II-B's DP privacy profile δ*(ε), its inverse and the DP failure probability live
here too: the paper contrasts them with the envelope.

Conventions (package docstring): rows are inputs, nats. Priors with zeros: inputs
outside the support are dropped, as in :mod:`mechdesign.measures.leakage`; outputs with
``P_Y(y) = 0`` never occur and count for nothing. δ ranges over (0, 1).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from numpy.typing import ArrayLike, NDArray

from mechdesign._evidence import EvidenceFloat
from mechdesign._lazy import deprecated_names
from mechdesign._solvers.highs import solve_linear_program
from mechdesign._tolerances import (
    ENVELOPE_BRACKET_RTOL,
    ENVELOPE_MASS_ATOL,
    ENVELOPE_RTOL,
    LEAKAGE_TIE_ATOL,
    QUANTILE_MASS_ATOL,
)
from mechdesign._validation import (
    as_distribution,
    as_real,
    check_delta,
    check_epsilon,
    exp_or_inf,
    show,
)
from mechdesign.errors import InvalidInputError
from mechdesign.kernel import Mechanism, as_matrix
from mechdesign.measures.leakage import pointwise_leakage

__all__ = [
    "LeakageDistribution",
    "PMLEnvelope",
    "binary_envelope",
    "closed_failure_probability",
    "envelope_lower_bound",
    "envelope_upper_bound",
    "leakage_distribution",
    "pml_envelope",
    "pml_failure_probability",
    "pml_lower_quantile",
    "pml_psi1",
    "pml_psi2",
    "pml_upper_quantile",
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


#: The composition bounds and the k-RR study moved to their own modules; for one release
#: they still answer here, with a :class:`DeprecationWarning`.
__getattr__ = deprecated_names(__name__, {
    **{name: f"mechdesign.bounds.leakage_composition.{name}" for name in (
        "adaptive_composition", "composition_envelope_bound", "conditional_maximal_leakage")},
    **{name: f"mechdesign.bounds.rr_envelope.{name}" for name in (
        "RandomizedResponseEnvelope", "randomized_response_envelope")},
})
