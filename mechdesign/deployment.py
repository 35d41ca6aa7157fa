"""From a design to a deployment: exact rational kernels, streaming aggregation with
confidence intervals, and a conformance check of an implementation.

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
``0, 2^{−bits}, 2^{1−bits}, …, 1/2`` whose rounding the exact check certifies.

**Aggregation** (:class:`Aggregator`). Users' reports are counted (``M`` integers, so a
stream in any chunks gives the batch result exactly) and the input histogram is
estimated by one of the estimators of :mod:`mechdesign.estimation` and
:func:`~mechdesign.kernel.estimate_input_distribution`, with per-input normal confidence
intervals (the exact multinomial variance of a linear estimator, or the MLE's asymptotic
covariance).

**OpenDP** (:func:`to_opendp`): the rational kernel as an OpenDP measurement.

**Conformance** (:func:`check_implementation`): an implementation passes when Pearson's
χ² test does not reject that its samples come from the kernel it claims and the
Clopper–Pearson lower confidence bound on its LDP level (:func:`~mechdesign.sample_audit.
audit_samples`) does not exceed the claimed level.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import stats

from mechdesign._numerics import (
    as_distribution,
    as_generator,
    as_indices,
    as_real,
    check_choice,
    check_epsilon,
    check_int,
    check_positive_int,
    grouped_search,
    json_document,
    show,
)
from mechdesign._tolerances import STOCHASTIC_ATOL
from mechdesign._version import installed_version
from mechdesign.errors import InvalidInputError
from mechdesign.estimation import blue_estimator, information_matrix
from mechdesign.kernel import (
    JSON_FORMAT_VERSION,
    Mechanism,
    as_matrix,
    estimate_input_distribution,
    project_to_simplex,
)
from mechdesign.leakage import ldp_level, mutual_information, pml_level
from mechdesign.sample_audit import SampleAudit, audit_samples

__all__ = [
    "ESTIMATORS",
    "LEVEL_RTOL",
    "MAX_BITS",
    "MIN_BITS",
    "RATIONAL_FORMAT",
    "Aggregator",
    "ImplementationCheck",
    "RationalMechanism",
    "check_implementation",
    "rational_mechanism",
    "to_opendp",
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

#: The ``format`` field of :meth:`RationalMechanism.to_json`'s documents.
RATIONAL_FORMAT = "mechdesign.rational_mechanism"

#: The estimators of :class:`Aggregator`.
ESTIMATORS = ("blue", "standard", "least_squares", "ibu", "mle")


# -- exact kernels ------------------------------------------------------------------------


@dataclass(frozen=True)
class RationalMechanism:
    """A kernel with integer numerators and one common denominator (module docstring).

    Attributes
    ----------
    numerators : ndarray of int64, shape=(N, M)
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
    prior : ndarray, shape=(N,), optional
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

    def to_json(self) -> str:
        """The exact kernel as JSON (integers, so the round trip is exact), for
        :meth:`from_json`, which checks it again."""
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
        }, allow_nan=False)

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
    PML one (envelope paper, the pointwise leakage ``ℓ(X → y) = log max_x K[x, y] /
    (PK)_y``): ``max_x n[x, y] · b_den ≤ b_num · Σ_x P_x n[x, y]`` for every output, in
    exact rational arithmetic; mixing with the uniform kernel lowers every such ratio
    above 1 as it does the LDP ones. (ε, c)-PML's level is a maximum over a set of priors
    (an LP), which has no exact certificate here: pass its worst prior, or certify LDP.

    Parameters
    ----------
    K : Mechanism or array_like, shape=(N, M)
        Its LDP level must be at most ``epsilon``.
    epsilon : float
        The level to certify (nats, ``≥ 0``; ``inf`` certifies nothing but exactness).
    bits : int, default 32
        The denominator is ``2^bits``, ``MIN_BITS ≤ bits ≤ MAX_BITS``.
    prior : array_like, shape=(N,), optional
        A known prior: certify the PML level for it instead of the LDP level.

    Returns
    -------
    RationalMechanism

    Raises
    ------
    InvalidInputError
        ``LDP(K) > epsilon`` beyond :data:`LEVEL_RTOL` (naming ``epsilon``); ``bits`` out
        of range; or no mixture
        up to 1/2 makes the rounding certifiable at this precision (naming ``bits``: the
        kernel has no slack there; more bits give more).
    """
    k, mechanism = _kernel(K)
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


def _kernel(K: Mechanism | ArrayLike) -> tuple[NDArray[np.float64], Mechanism]:
    """The matrix of ``K`` and a Mechanism of it, validated once at the input's own
    precision (a float32 kernel's rows sum to 1 only within float32)."""
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


# -- aggregation --------------------------------------------------------------------------


class Aggregator:
    """A streaming aggregate of users' reports and the input histogram they estimate.

    Parameters
    ----------
    K : Mechanism or array_like, shape=(N, M)
        The kernel the users report through.
    estimator : {"blue", "standard", "least_squares", "ibu", "mle"}, default "blue"
        ``"blue"``: the best linear unbiased estimator at ``prior``
        (:func:`~mechdesign.estimation.blue_estimator`); ``"standard"``: ``π̂ K⁺`` (the
        unbiased inverse; the classic estimator of k-RR and the frequency oracles);
        ``"least_squares"``: the Euclidean projection of the standard estimate onto the
        simplex; ``"ibu"`` and ``"mle"``: the maximum-likelihood estimate, by the
        iterative Bayesian update (Agrawal, Srikant & Thomas, SIGMOD 2005), which is EM
        for it — the two names give the same estimator.
    prior : array_like, shape=(N,), optional
        Where the BLUE is best (uniform by default); only ``"blue"`` reads it.
    labels : sequence, optional
        Names of the inputs (N of them), kept for the caller's tables.

    Notes
    -----
    Only the ``M`` counts are kept, as integers, so reports added in any chunks give
    exactly the counts, and therefore the estimates, of one batch. Confidence intervals
    are normal: for the linear estimators (``f̂ = π̂ E``) with the exact multinomial
    variance ``(Σ_y π_y E_{yx}² − (Σ_y π_y E_{yx})²)/n`` at ``π = π̂``; for the others
    with the MLE's asymptotic covariance ``(J(p)⁻¹ − p pᵀ)/n`` (``J = K diag(pK)⁻¹ Kᵀ``,
    the information of :mod:`mechdesign.estimation`) at the estimate, clipped to
    ``[0, 1]``. Their target is the input distribution of users drawn i.i.d.
    """

    def __init__(self, K: Mechanism | ArrayLike, *, estimator: str = "blue",
                 prior: ArrayLike | None = None, labels: Sequence[Hashable] | None = None):
        self._k, self._mechanism = _kernel(K)
        n, m = self._k.shape
        self.estimator = check_choice(estimator, "estimator", ESTIMATORS)
        self._prior = None
        if prior is not None:
            self._prior = as_distribution(prior, "prior", n)
        if labels is not None:
            labels = list(labels)
            if len(labels) != n:
                raise InvalidInputError(
                    f"labels must name the {n} inputs; got {len(labels)} labels.")
        self.labels = labels
        self._counts = np.zeros(m, dtype=np.int64)
        self._linear: NDArray[np.float64] | None = None
        if self.estimator == "blue":
            self._linear = blue_estimator(self._mechanism, np.full(n, 1.0 / n)
                                          if self._prior is None else self._prior)
        elif self.estimator in ("standard", "least_squares"):
            if np.linalg.matrix_rank(self._k) < n:
                raise InvalidInputError(
                    f"estimator={self.estimator!r} needs K of full row rank {n}; got rank "
                    f"{np.linalg.matrix_rank(self._k)}: no unbiased inverse exists.")
            self._linear = np.linalg.pinv(self._k)

    def add(self, reports: ArrayLike) -> Aggregator:
        """Count a chunk of reports (output indices in ``[0, M)``); returns ``self``."""
        indices = as_indices(reports, "reports", self._k.shape[1])
        self._counts += np.bincount(indices.ravel(), minlength=self._k.shape[1])
        return self

    @property
    def n(self) -> int:
        """Reports counted so far."""
        return int(self._counts.sum())

    @property
    def counts(self) -> NDArray[np.int64]:
        return self._counts.copy()

    def estimate(self) -> NDArray[np.float64]:
        """The estimated input histogram (frequencies), shape (N,)."""
        frequencies = self._frequencies()
        if self.estimator in ("blue", "standard"):
            return frequencies @ self._linear
        if self.estimator == "least_squares":
            return project_to_simplex(frequencies @ self._linear)
        return estimate_input_distribution(self._mechanism, counts=self._counts, method="em")

    def confidence_intervals(self, level: float = 0.95) -> NDArray[np.float64]:
        """Per-input ``[lower, upper]`` at ``level`` (class notes), shape (N, 2)."""
        confidence = as_real(level, "level")
        if not 0 < confidence < 1:
            raise InvalidInputError(f"level must lie in (0, 1); got {show(level)}.")
        z = float(stats.norm.ppf(0.5 + confidence / 2))
        estimate = self.estimate()
        n = self.n
        if self.estimator in ("blue", "standard"):
            frequencies = self._frequencies()
            mean = frequencies @ self._linear
            variance = (frequencies @ self._linear ** 2 - mean ** 2) / n
            half = z * np.sqrt(np.maximum(variance, 0.0))
            return np.column_stack([estimate - half, estimate + half])
        p = np.clip(estimate, 0.0, 1.0)
        inverse = np.linalg.pinv(information_matrix(self._mechanism, p))
        variance = (np.diag(inverse) - p ** 2) / n
        half = z * np.sqrt(np.maximum(variance, 0.0))
        return np.column_stack([np.clip(estimate - half, 0.0, 1.0),
                                np.clip(estimate + half, 0.0, 1.0)])

    def _frequencies(self) -> NDArray[np.float64]:
        if self.n == 0:
            raise InvalidInputError("the aggregator holds no reports yet: call add first.")
        return self._counts / self.n


# -- OpenDP ---------------------------------------------------------------------------------


def to_opendp(K: Mechanism | ArrayLike, epsilon: float, *, bits: int = 32,
              rng: np.random.Generator | int | None = None):
    """``K`` as an OpenDP ``Measurement`` (the optional extra ``mechdesign[opendp]``) for
    one individual's value: input an integer in ``[0, N)`` (OpenDP's ``atom_domain`` with
    those bounds, ``T=int``), ``discrete_distance`` between inputs (any two values are
    neighbours: local DP), ``max_divergence`` (pure ε-DP) as the output measure.

    The invocation samples the exact rational kernel of :func:`rational_mechanism` (so
    the released law is exactly the kernel audited), and the privacy map is its certified
    level: ``map(0) = 0``, ``map(d) = level ≤ ε`` for ``d ≥ 1``. OpenDP does not check
    a user measurement's input against its domain; the sampler refuses a value outside
    ``[0, N)`` (an error naming the inputs, raised through OpenDP).

    OpenDP features: the measurement is built with ``make_user_measurement``, which needs
    ``"contrib"`` and ``"honest-but-curious"``; this function enables both
    (``opendp.prelude.enable_features``), a process-wide setting of OpenDP. The privacy
    guarantee is this package's certificate, not a proof checked by OpenDP.

    Parameters
    ----------
    K : Mechanism or array_like, shape=(N, M)
    epsilon : float
        The level to certify (:func:`rational_mechanism`).
    bits : int, default 32
        Precision of the rational kernel.
    rng : numpy.random.Generator or int, optional
        The randomness of the invocations (fresh operating-system entropy by default).

    Raises
    ------
    UnsupportedError
        OpenDP is not installed.
    """
    try:
        import opendp.prelude as dp
    except ImportError as exc:
        from mechdesign.errors import UnsupportedError

        raise UnsupportedError(
            "to_opendp needs OpenDP: pip install 'mechdesign[opendp]'.") from exc
    rational = rational_mechanism(K, epsilon, bits=bits)
    generator = as_generator(rng)
    n = rational.numerators.shape[0]
    dp.enable_features("contrib", "honest-but-curious")

    def release(x: int) -> int:
        return int(rational.sample(np.array([x]), generator)[0])

    def privacy_map(distance: int) -> float:
        return 0.0 if distance == 0 else rational.level

    return dp.m.make_user_measurement(
        dp.atom_domain(bounds=(0, n - 1), T=int), dp.discrete_distance(),
        dp.max_divergence(), function=release, privacy_map=privacy_map, TO=int)


# -- conformance ----------------------------------------------------------------------------


@dataclass(frozen=True)
class ImplementationCheck:
    """The verdict of :func:`check_implementation`.

    Attributes
    ----------
    passed : bool
        ``p_value ≥ 1 − confidence`` and ``lower_bound ≤ claimed_level``.
    p_value : float
        Pearson's χ² test that the samples come from the claimed kernel.
    lower_bound : float
        The audit's lower confidence bound on the implementation's LDP level (nats).
    claimed_level : float
        ``LDP(K)``.
    audit : SampleAudit
    """

    passed: bool
    p_value: float
    lower_bound: float
    claimed_level: float
    audit: SampleAudit


def check_implementation(
    sampler: Callable[[Hashable, int, np.random.Generator], ArrayLike],
    K: Mechanism | ArrayLike,
    n_samples: int,
    *,
    confidence: float = 0.99,
    rng: np.random.Generator | int | None = None,
    inputs: Sequence[Hashable] | None = None,
    outputs: Sequence[Hashable] | None = None,
) -> ImplementationCheck:
    """Test an implementation against the kernel it claims (module docstring).

    Parameters
    ----------
    sampler : callable
        ``sampler(x, size, rng)`` returns ``size`` outputs for input ``x``
        (:func:`~mechdesign.sample_audit.audit_samples`).
    K : Mechanism or array_like, shape=(N, M)
        The claimed kernel; rows in the order of ``inputs``.
    n_samples : int
        Draws per input.
    confidence : float, default 0.99
        Both tests run at this confidence: the χ² test rejects at ``1 − confidence`` and
        the level's lower bound holds with probability ``confidence``.
    rng : numpy.random.Generator or int, optional
    inputs, outputs : sequence, optional
        Labels of ``K``'s rows and columns (default ``range(N)``, ``range(M)``).
    """
    k, mechanism = _kernel(K)
    count = check_positive_int(n_samples, "n_samples")
    labels = range(k.shape[0]) if inputs is None else inputs
    audit = audit_samples(sampler, count, inputs=labels, confidence=confidence, rng=rng,
                          claimed=mechanism, claimed_outputs=outputs)
    claimed = ldp_level(mechanism)
    p_value = float(audit.p_value)
    passed = p_value >= 1 - audit.confidence and audit.lower_bound <= claimed
    return ImplementationCheck(bool(passed), p_value, audit.lower_bound, claimed, audit)
