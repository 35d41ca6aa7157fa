"""Exact rational kernels: a design as integers that are sampled and audited exactly.

**Exact kernels** (:func:`rational_mechanism`). A floating-point kernel sampled by
floating-point arithmetic is not the kernel audited (Mironov, "On significance of the
least significant bits for differential privacy", CCS 2012), and shipped randomized
response has been miscalibrated (OpenDP #480, #2708; pure-LDP #11). A rational kernel
``n[x, y] / D`` with ``D = 2^bits`` and every row summing to ``D`` exactly is sampled
exactly from uniform integers in ``[0, D)``, and its LDP level is checked in integer
arithmetic: ``n[x, y] · b_den ≤ b_num · n[x', y]`` for every column and pair of rows,
with ``b = b_num/b_den ≤ e^ε`` a rational lower bound. Rounding a kernel whose level is
exactly ε can raise it, so the kernel is first mixed with the uniform kernel on the
outputs it uses, ``(1 − λ) K + λ U``, which lowers every ratio above 1 (``((1 − λ)a +
λ/M)/((1 − λ)b + λ/M) < a/b`` for ``a > b``) and buys slack; ``λ`` is the smallest of
``0, 2^{−bits}, 2^{1−bits}, …, 1/2`` whose rounding the exact check certifies. A kernel
whose rows are its column minima plus one spike of the same mass (k-RR) is rounded as
one, so that its exact version keeps that structure (the shuffle accountant's blanket
bound reads it).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mechdesign._tolerances import STOCHASTIC_ATOL
from mechdesign._validation import (
    as_distribution,
    as_generator,
    as_indices,
    check_epsilon,
    check_int,
    grouped_search,
    json_document,
    show,
)
from mechdesign._version import installed_version
from mechdesign.errors import InvalidInputError
from mechdesign.kernel import (
    JSON_FORMAT_VERSION,
    Mechanism,
    as_matrix,
    json_labels,
)
from mechdesign.measures.leakage import ldp_level, mutual_information, pml_level

__all__ = [
    "LEVEL_RTOL",
    "MAX_BITS",
    "MIN_BITS",
    "RATIONAL_FORMAT",
    "SPIKE_ROUNDING_RTOL",
    "RationalMechanism",
    "rational_mechanism",
    "validated_kernel",
]

#: Fewest bits of the common denominator of :func:`rational_mechanism`.
MIN_BITS = 8

#: Most bits: numerators stay below 2⁶³ (int64), and uniform integers in ``[0, 2^bits)``
#: come from numpy's exact integer generator.
MAX_BITS = 62

#: :func:`rational_mechanism` tries a kernel whose computed level exceeds ε by at most
#: this (relative): k-RR built at ε computes to ε plus an ulp or two, and a mixture
#: restores the slack; the exact check decides.
LEVEL_RTOL = 1e-9

#: A kernel whose rows are its column minima plus one spike of the same mass to this
#: relative tolerance is rounded so that it stays one exactly (:func:`rational_mechanism`).
SPIKE_ROUNDING_RTOL = 1e-9

#: The ``format`` field of :meth:`RationalMechanism.to_json`'s documents.
RATIONAL_FORMAT = "mechdesign.rational_mechanism"


@dataclass(frozen=True, eq=False)
class RationalMechanism:
    """A kernel with integer numerators and one common denominator (module docstring).

    Built by :func:`rational_mechanism` (or :meth:`from_json`), which certify it; the
    constructor itself checks nothing.

    Parameters
    ----------
    numerators : ndarray of int64, shape (N, M)
        Every row sums to :attr:`denominator` exactly.
    denominator : int
        ``2^bits``.
    ratio : fractions.Fraction
        The exact largest ``n[x, y] / n[x', y]`` over the outputs (1 for one input;
        ``inf`` cannot occur below a finite ε); with a :attr:`prior`, the exact largest
        ``n[x, y] / Σ_x' P_x' n[x', y]``.
    level : float
        An upper bound on ``log ratio`` — the exact LDP level, or with a :attr:`prior`
        the exact PML level for it — at most :attr:`epsilon`.
    epsilon : float
        The level requested.
    mixture : float
        ``λ``: the kernel rounded is ``(1 − λ) K + λ U``.
    distance : float
        ``max_x TV(K_x, n_x / D)``: how far the exact kernel is from ``K``.
    utility_lost : float
        ``I(U; K) − I(U; n/D)`` at the uniform prior (nats).
    _cumulative : ndarray of int64, shape (N, M)
        Row-wise cumulative sums of :attr:`numerators`, the table :meth:`sample`
        searches (internal; the builders fill it in).
    prior : ndarray, shape (N,), optional
        The known prior of a PML certificate (``None``: LDP).
    """

    numerators: NDArray[np.int64]
    denominator: int
    ratio: Fraction | float
    level: float
    epsilon: float
    mixture: float
    distance: float
    utility_lost: float
    _cumulative: NDArray[np.int64] = field(repr=False)
    prior: NDArray[np.float64] | None = None

    @property
    def matrix(self) -> NDArray[np.float64]:
        """``n / D`` as floats (a view for measuring; sample with :meth:`sample`)."""
        return self.numerators / self.denominator

    @property
    def mechanism(self) -> Mechanism:
        return Mechanism(self.matrix)

    def to_json(self, *, input_labels: Sequence[str | int] | None = None,
                output_labels: Sequence[str | int] | None = None,
                notion: str | None = None) -> str:
        """The exact kernel as JSON (integers, so the round trip is exact), for
        :meth:`from_json`, which checks it again; optional labels of the inputs and
        outputs (strings or integers, N and M of them) and the notion it was designed
        for, as :meth:`Mechanism.to_json <mechdesign.kernel.Mechanism.to_json>` writes
        them (:func:`~mechdesign.deployment.load_kernel` reads either)."""
        n_inputs, n_outputs = self.numerators.shape
        return json.dumps({
            "format": RATIONAL_FORMAT,
            "format_version": JSON_FORMAT_VERSION,
            "mechdesign_version": installed_version(),
            "numerators": self.numerators.tolist(),
            "denominator": self.denominator,
            "epsilon": "inf" if math.isinf(self.epsilon) else self.epsilon,
            "mixture": self.mixture,
            "distance": self.distance,
            "utility_lost": self.utility_lost,
            "prior": None if self.prior is None else self.prior.tolist(),
            "input_labels": json_labels(input_labels, "input_labels", n_inputs),
            "output_labels": json_labels(output_labels, "output_labels", n_outputs),
            "notion": None if notion is None else str(notion),
        }, allow_nan=False)

    def __eq__(self, other: object) -> bool:
        """Two exact kernels are equal when their numerators, denominator, certified
        ε and prior are (the recorded mixture and distances describe how one was made,
        not what it is)."""
        if not isinstance(other, RationalMechanism):
            return NotImplemented
        return (self.denominator == other.denominator
                and self.numerators.shape == other.numerators.shape
                and bool(np.array_equal(self.numerators, other.numerators))
                and self.epsilon == other.epsilon
                and (self.prior is None) == (other.prior is None)
                and (self.prior is None or bool(np.array_equal(self.prior, other.prior))))

    def __hash__(self) -> int:
        return hash((self.denominator, self.numerators.shape, self.numerators.tobytes(),
                     self.epsilon))

    @classmethod
    def from_json(cls, text: str) -> RationalMechanism:
        """Read :meth:`to_json`'s text and certify it again: rows summing to the
        denominator (a power of two) and the level ``≤ ε`` in integer arithmetic
        (:attr:`distance`, :attr:`mixture` and :attr:`utility_lost` are as recorded)."""
        document = json_document(text, "text", RATIONAL_FORMAT, JSON_FORMAT_VERSION)
        try:
            numerators = np.array(document["numerators"], dtype=np.int64)
            denominator = int(document["denominator"])
            eps = check_epsilon(math.inf if document["epsilon"] == "inf"
                                else document["epsilon"])
            recorded = [float(document[key]) for key in ("mixture", "distance",
                                                          "utility_lost")]
        except (KeyError, TypeError, ValueError, OverflowError) as exc:
            raise InvalidInputError(f"text is not a valid rational kernel: {exc}.") from exc
        if (numerators.ndim != 2 or numerators.size == 0 or denominator < 1
                or denominator & (denominator - 1) or np.any(numerators < 0)
                or np.any(numerators.sum(axis=1) != denominator)):
            raise InvalidInputError(
                "text is not a valid rational kernel: its numerators must be a non-negative "
                "integer matrix whose rows sum to the denominator, a power of two.")
        prior = document.get("prior")
        if prior is not None:
            prior = as_distribution(prior, "text's prior", numerators.shape[0])
        used = numerators.max(axis=0) > 0
        ratio = _exact_ratio(numerators[:, used], prior)
        if not math.isinf(eps) and not ratio <= _exp_lower_bound(eps):
            raise InvalidInputError(
                f"text's kernel has level log({ratio}) above its epsilon = {show(eps)}: it "
                "does not certify.")
        return cls(numerators=numerators, denominator=denominator, ratio=ratio,
                   level=_upper_log(ratio, eps), epsilon=eps, mixture=recorded[0],
                   distance=recorded[1], utility_lost=recorded[2],
                   _cumulative=np.cumsum(numerators, axis=1), prior=prior)

    def sample(self, inputs: ArrayLike,
               rng: np.random.Generator | int | None = None) -> NDArray[np.int64]:
        """Outputs for ``inputs`` (indices in ``[0, N)``, any shape), drawn exactly: a
        uniform integer ``u ∈ [0, D)`` per input and the output ``y`` with ``Σ_{y' < y}
        n[x, y'] ≤ u < Σ_{y' ≤ y} n[x, y']``."""
        indices = as_indices(inputs, "inputs", self.numerators.shape[0])
        draws = as_generator(rng).integers(0, self.denominator, size=indices.size,
                                           dtype=np.int64)
        return grouped_search(self._cumulative, indices, draws).reshape(indices.shape)


def rational_mechanism(K: Mechanism | ArrayLike, epsilon: float, *, bits: int = 32,
                       prior: ArrayLike | None = None) -> RationalMechanism:
    """An exact rational version of ``K`` whose LDP level — or, given a ``prior``, its
    PML level for that known prior — is verified ``≤ epsilon`` in integer arithmetic
    (module docstring).

    With a prior ``P`` (its float entries are exact rationals), the certificate is the
    PML one (envelope paper [1]_, the pointwise leakage ``ℓ(X → y) = log max_x K[x, y] /
    (PK)_y``): ``max_x n[x, y] · b_den ≤ b_num · Σ_x P_x n[x, y]`` for every output, in
    exact rational arithmetic; mixing with the uniform kernel lowers every such ratio
    above 1 as it does the LDP ones. (ε, c)-PML's level is a maximum over a set of priors
    (an LP), which has no exact certificate here: pass its worst prior, or certify LDP.

    Parameters
    ----------
    K : Mechanism, RationalMechanism or array_like, shape (N, M)
        The kernel ``K[x, y] = P(Y=y | X=x)`` (an exact one as its ``n/D``); an array must
        be finite, non-negative and row-stochastic (rows sum to 1 within
        ``STOCHASTIC_ATOL``, or within its own precision for float32 or float16 input).
        Its LDP level (with ``prior``, its PML level for that prior) must be at most
        ``epsilon`` (up to :data:`LEVEL_RTOL`).
    epsilon : float
        The level to certify (nats, ``≥ 0``; ``inf`` certifies nothing but exactness).
    bits : int, default 32
        The denominator is ``2^bits``, ``MIN_BITS ≤ bits ≤ MAX_BITS``.
    prior : array_like, shape (N,), optional
        A known prior: certify the PML level for it instead of the LDP level.

    Returns
    -------
    RationalMechanism
        The exact kernel with its certified level.

    Raises
    ------
    InvalidInputError
        ``LDP(K) > epsilon`` beyond :data:`LEVEL_RTOL` (naming ``epsilon``); ``bits`` out
        of range; or no mixture
        up to 1/2 makes the rounding certifiable at this precision (naming ``bits``: the
        kernel has no slack there; more bits give more).

    References
    ----------
    .. [1] S. Saeidian, C. Pinzón, C. Palamidessi, "Information Leakage Envelopes", 2026,
       arXiv:2605.21185.
    """
    k, mechanism = validated_kernel(K)
    eps = check_epsilon(epsilon)
    width = check_int(bits, "bits", low=MIN_BITS, high=MAX_BITS)
    p = None if prior is None else as_distribution(prior, "prior", k.shape[0])
    own = ldp_level(mechanism) if p is None else pml_level(mechanism, p)
    if own > eps + LEVEL_RTOL * max(1.0, eps):
        which = "LDP level" if p is None else "PML level for this prior"
        raise InvalidInputError(
            f"epsilon = {show(eps)} is below the kernel's own {which} {own!r}: no "
            "rational kernel this close to K certifies it.")
    denominator = 1 << width
    used = k.max(axis=0) > 0
    bound = None if math.isinf(eps) else _exp_lower_bound(eps)
    candidates = [0.0] if bound is None else [0.0, *(2.0 ** (j - width) for j in range(width))]
    for mixture in candidates:
        mixed = k.copy()
        if mixture > 0:
            mixed[:, used] = (1 - mixture) * k[:, used] + mixture / used.sum()
        numerators = _round_spikes(mixed, denominator)
        if numerators is None:
            numerators = _round_rows(mixed, denominator)
        ratio = _exact_ratio(numerators[:, used], p)
        if bound is None or ratio <= bound:
            return _rational(mechanism, numerators, denominator, ratio, eps, mixture, p)
    raise InvalidInputError(
        f"bits = {width}: the kernel has no slack at this precision; no mixture with the "
        f"uniform kernel up to 1/2 rounds to a kernel whose level is certified <= "
        f"epsilon = {show(eps)}. Use more bits or a larger epsilon.")


def _exp_lower_bound(eps: float) -> Fraction:
    """A rational ``b ≤ e^ε``: ``exp`` is within an ulp, so two steps down are below
    (above ε = 709, where ``exp`` overflows, ``e^709`` is a lower bound)."""
    if eps == 0:
        return Fraction(1)          # e^0 = 1 exactly: identical rows certify ε = 0
    value = math.exp(min(eps, 709.0))
    return Fraction(math.nextafter(math.nextafter(value, 0.0), 0.0))


def _round_spikes(k: NDArray[np.float64], denominator: int) -> NDArray[np.int64] | None:
    """A kernel whose rows are its column minima plus one spike of the same mass
    (k-randomized response and its weighted forms, within :data:`SPIKE_ROUNDING_RTOL`),
    rounded so that it stays one exactly: the minima floored to ``b_y`` (at least 1 on a
    used output) and each row's spike ``D − Σ_y b_y`` on top of its own output's. The
    shuffle accountant's blanket bound needs that structure exactly, which rounding each
    row on its own breaks. ``None`` for any other kernel."""
    floor = k.min(axis=0)
    excess = k - floor
    spike = excess.argmax(axis=1)
    top = excess[np.arange(k.shape[0]), spike]
    rest = excess.sum(axis=1) - top
    used = k.max(axis=0) > 0
    if not (np.all(top > 0) and np.all(floor[used] > 0)
            and np.ptp(top) <= SPIKE_ROUNDING_RTOL * top.max()
            and np.all(rest <= SPIKE_ROUNDING_RTOL * top)):
        return None
    blanket = np.where(used, np.maximum(np.floor(floor * denominator), 1.0), 0.0)
    mass = denominator - int(blanket.astype(np.int64).sum())
    if mass <= 0:
        return None
    out = np.tile(blanket.astype(np.int64), (k.shape[0], 1))
    out[np.arange(k.shape[0]), spike] += mass
    return out


def _round_rows(k: NDArray[np.float64], denominator: int) -> NDArray[np.int64]:
    """Integer rows summing to ``denominator`` exactly, with every positive entry at
    least 1 and every zero 0. ``k · D`` is exact in floating point (``D`` a power of two)
    and is floored; a deficit ``D − Σ ⌊k D⌋`` of at least one unit per entry is first
    spread in proportion to the row (truncated toward zero: a row's float sum may miss 1
    by ``M`` ulps, which at 62 bits is hundreds of units); what remains, fewer units than
    entries, goes one unit each to the largest remainders (or is taken from the largest
    entries), so every entry is within one unit of ``k D`` but for the positive entries
    raised to 1 and the units they take."""
    scaled = k * denominator
    base = np.where(k > 0, np.maximum(np.floor(scaled), 1.0), 0.0).astype(np.int64)
    out = np.empty_like(base)
    for x in range(k.shape[0]):
        row = base[x].copy()
        deficit = denominator - int(row.sum())
        if abs(deficit) >= np.count_nonzero(k[x]):
            share = np.trunc(deficit * (k[x] / k[x].sum())).astype(np.int64)
            row += np.where(row + share >= np.where(k[x] > 0, 1, 0), share, 0)
            deficit = denominator - int(row.sum())
        if deficit > 0:
            remainder = np.where(k[x] > 0, scaled[x] - np.floor(scaled[x]), -np.inf)
            row[np.argsort(-remainder, kind="stable")[:deficit]] += 1
        elif deficit < 0:
            row[np.argsort(-row, kind="stable")[:-deficit]] -= 1
        out[x] = row
    return out


def _exact_ratio(numerators: NDArray[np.int64],
                 prior: NDArray[np.float64] | None = None) -> Fraction | float:
    """``max_y max_x n[x, y] / min_x n[x, y]`` exactly (``inf`` for a zero below a
    nonzero; 1 with no columns); with a prior, ``max_y max_x n[x, y] / Σ_x P_x n[x, y]``
    over the columns the prior reaches (``inf`` for a column only inputs of prior 0
    reach), with the floats ``P_x`` read as the rationals they are."""
    ratio = Fraction(1)
    if prior is None:
        for top, low in zip(numerators.max(axis=0).tolist(),
                            numerators.min(axis=0).tolist(), strict=True):
            if low == 0:
                if top > 0:
                    return math.inf
                continue
            ratio = max(ratio, Fraction(top, low))
        return ratio
    weights = [Fraction(float(v)) for v in prior]
    scale = math.lcm(*(w.denominator for w in weights))
    integers = [int(w * scale) for w in weights]          # P_x = integers[x] / scale
    for y in range(numerators.shape[1]):
        column = numerators[:, y].tolist()
        # the top over the inputs the prior reaches: PML's ℓ(X → y) looks at x with P_x > 0
        reached = [n for n, w in zip(column, integers, strict=True) if w > 0]
        mass = sum(w * n for w, n in zip(integers, column, strict=True))
        if not reached or max(reached) == 0:
            continue
        if mass == 0:
            return math.inf
        ratio = max(ratio, Fraction(max(reached) * scale, mass))
    return ratio


def _upper_log(ratio: Fraction | float, eps: float) -> float:
    """An upper bound on ``log ratio``: the log of a float at or above the ratio, two ulps
    up (``log`` is within an ulp); and ``ratio ≤ b ≤ e^ε`` (certified) makes ε one
    too."""
    if not isinstance(ratio, Fraction):
        return math.inf
    if ratio == 1:
        return 0.0
    above = float(ratio)
    if Fraction(above) < ratio:          # the nearest float may lie below the ratio
        above = math.nextafter(above, math.inf)
    return min(eps, math.nextafter(math.nextafter(math.log(above), math.inf), math.inf))


def validated_kernel(K: Mechanism | ArrayLike) -> tuple[NDArray[np.float64], Mechanism]:
    """The matrix of ``K`` and a Mechanism of it, validated once at the input's own
    precision (a float32 kernel's rows sum to 1 only within float32).

    Parameters
    ----------
    K : Mechanism, RationalMechanism or array_like, shape (N, M)
        The kernel ``K[x, y] = P(Y=y | X=x)`` (an exact one as its ``n/D``); an array must
        be finite, non-negative and row-stochastic (rows sum to 1 within
        ``STOCHASTIC_ATOL``, or within its own precision for float32 or float16 input).

    Returns
    -------
    tuple of (ndarray, Mechanism)
        The read-only float matrix, shape (N, M), and ``K`` as a :class:`Mechanism`
        (``K`` itself when it is one).
    """
    if isinstance(K, RationalMechanism):
        K = K.mechanism
    k = as_matrix(K, "K")
    return k, K if isinstance(K, Mechanism) else Mechanism._validated(k, STOCHASTIC_ATOL)


def _rational(mechanism, numerators, denominator, ratio, eps, mixture,
              prior=None) -> RationalMechanism:
    k = mechanism.matrix
    exact = numerators / denominator
    level = _upper_log(ratio, eps)
    uniform = np.full(k.shape[0], 1.0 / k.shape[0])
    return RationalMechanism(
        numerators=numerators,
        denominator=denominator,
        ratio=ratio,
        level=level,
        epsilon=eps,
        mixture=mixture,
        distance=float(0.5 * np.abs(exact - k).sum(axis=1).max()),
        utility_lost=(mutual_information(mechanism, uniform)
                      - mutual_information(Mechanism._validated(exact, STOCHASTIC_ATOL),
                                           uniform)),
        _cumulative=np.cumsum(numerators, axis=1),
        prior=prior,
    )
