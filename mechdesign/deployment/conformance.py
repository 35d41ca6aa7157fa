"""A conformance check of an implementation against the kernel it claims.

**Conformance** (:func:`check_implementation`): an implementation passes when Pearson's
χ² test does not reject that its samples come from the kernel it claims and the
Clopper–Pearson lower confidence bound on its LDP level (:func:`~mechdesign.accounting.sample_audit.
audit_samples`) does not exceed the claimed level (:func:`conforms`, the one verdict the
command line's ``audit-samples`` gives too).

**Power** (:func:`detection_power`, :func:`samples_needed`). Against an implementation
whose rows are ``Q[x]`` instead of ``K[x]``, the χ² half of the check rejects with a
probability that depends on the draws per input ``n``. It is computed by simulating the
test itself — counts drawn from ``Q``, Pearson's statistic against ``K`` and the χ²
critical value at ``1 − confidence``, a draw the claim forbids rejecting at once — over
:data:`DETECTION_RUNS` runs from a fixed seed (so the same call gives the same number,
to about ±0.016 at power 0.5). The large-sample value (non-central χ² with
non-centrality ``n Σ_x χ²(Q[x] ‖ K[x])``) was measured to overstate it where the
expected counts are small (0.5 promised, 0.29 seen, for 3-ary randomized response at
16 draws), so it is not used. The level's lower bound can only add detections: the
check's power is at least this. The default deviation is the hardest single bug of the
kind "one input is never randomized": row ``x`` replaced by the point mass at its most
likely output, ``χ²(Q[x] ‖ K[x]) = (1 − k_max)/k_max``, smallest where ``k_max`` is
largest (at ε₀ = 7.76, 40-ary randomized response has ``k_max = 0.984``, and 2,000
draws per input see it with probability about 0.04).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mechdesign._validation import (
    as_real,
    check_positive_int,
    show,
)
from mechdesign.accounting.sample_audit import AUDIT_MAX_DRAWS, SampleAudit, audit_samples
from mechdesign.deployment.documents import KernelDocument
from mechdesign.deployment.rational import validated_kernel
from mechdesign.errors import InvalidInputError
from mechdesign.kernel import (
    Mechanism,
    as_matrix,
)
from mechdesign.measures.leakage import ldp_level

__all__ = [
    "DETECTION_POWER",
    "DETECTION_RUNS",
    "DETECTION_SEED",
    "SAMPLES_RTOL",
    "ImplementationCheck",
    "check_implementation",
    "conforms",
    "detection_power",
    "point_mass_deviation",
    "samples_needed",
]

#: The power :func:`samples_needed` asks for by default (and ``n_samples=None`` uses).
DETECTION_POWER = 0.95

#: Simulated runs of the χ² test behind :func:`detection_power`.
DETECTION_RUNS = 2000

#: Their seed: the same call, the same power.
DETECTION_SEED = 20_261_129

#: :func:`samples_needed` returns the draws to this relative resolution.
SAMPLES_RTOL = 0.01


@dataclass(frozen=True)
class ImplementationCheck:
    """The verdict of :func:`check_implementation`.

    Parameters
    ----------
    passed : bool
        ``p_value ≥ 1 − confidence`` and ``lower_bound ≤ claimed_level``.
    p_value : float
        Pearson's χ² test that the samples come from the claimed kernel.
    lower_bound : float
        The audit's lower confidence bound on the implementation's LDP level (nats).
    claimed_level : float
        ``LDP(K)``, the claimed kernel's LDP level (nats).
    audit : SampleAudit
        The full sample audit behind ``p_value`` and ``lower_bound``.
    n_samples : int
        Draws per input taken.
    power : float
        The χ² test's power, at these draws, against the hardest "one input never
        randomized" bug (:func:`point_mass_deviation`): what the check could have
        detected. A deviation smaller than that one may pass unseen.
    """

    passed: bool
    p_value: float
    lower_bound: float
    claimed_level: float
    audit: SampleAudit
    n_samples: int
    power: float


def check_implementation(
    sampler: Callable[[Hashable, int, np.random.Generator], ArrayLike],
    K: Mechanism | ArrayLike | KernelDocument,
    n_samples: int | None = None,
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
        ``sampler(x, size, rng)`` returns ``size`` outputs for input ``x``: an array_like
        of shape (size,) of output labels — indices in ``[0, M)``, or the labels of
        ``outputs`` (a sampler returning labels that are not indices without ``outputs``
        is refused by name).
    K : Mechanism, array_like of shape (N, M), or KernelDocument
        The claimed kernel; rows in the order of ``inputs``. A
        :class:`~mechdesign.deployment.KernelDocument` (:func:`~mechdesign.deployment.load_kernel`)
        brings its labels as the default ``inputs`` and ``outputs``.
    n_samples : int, optional
        Draws per input; default :func:`samples_needed` for the hardest "one input never
        randomized" bug at :data:`DETECTION_POWER` (refused past the audit's memory cap).
    confidence : float, default 0.99
        Both tests run at this confidence: the χ² test rejects at ``1 − confidence`` and
        the level's lower bound holds with probability ``confidence``.
    rng : numpy.random.Generator or int, optional
        The randomness passed to ``sampler``: a Generator, an integer seed, or ``None``
        (default) for fresh operating-system entropy.
    inputs, outputs : sequence, optional
        Labels of ``K``'s rows and columns (default the document's, else ``range(N)``,
        ``range(M)``).

    Returns
    -------
    ImplementationCheck
        The verdict, with the p-value, the lower bound, the audit and the power the
        draws had against the hardest one-row bug.
    """
    if isinstance(K, KernelDocument):
        inputs = K.input_labels if inputs is None else inputs
        outputs = K.output_labels if outputs is None else outputs
        K = K.mechanism
    k, mechanism = validated_kernel(K)
    deviation = point_mass_deviation(k)
    if n_samples is None:
        count = samples_needed(k, deviation, confidence=confidence)
    else:
        count = check_positive_int(n_samples, "n_samples")
    labels = range(k.shape[0]) if inputs is None else inputs
    checked = _labelled(sampler, k.shape[1]) if outputs is None else sampler
    audit = audit_samples(checked, count, inputs=labels, confidence=confidence, rng=rng,
                          claimed=mechanism, claimed_outputs=outputs)
    claimed = ldp_level(mechanism)
    return ImplementationCheck(conforms(audit, claimed), float(audit.p_value),
                               audit.lower_bound, claimed, audit, count,
                               detection_power(k, deviation, count, confidence=confidence))


def conforms(audit: SampleAudit, claimed_level: float) -> bool:
    """The verdict: the χ² test does not reject the claimed kernel at ``1 −
    audit.confidence`` (when the audit has one) and the lower bound on the level does not
    exceed ``claimed_level``.

    Parameters
    ----------
    audit : SampleAudit
        An audit against the claimed kernel (:func:`~mechdesign.accounting.
        sample_audit.audit_samples` or :func:`~mechdesign.accounting.sample_audit.audit_pairs`).
    claimed_level : float
        The level claimed (nats).
    """
    rejected = audit.p_value is not None and audit.p_value < 1 - audit.confidence
    return bool(not rejected and audit.lower_bound <= claimed_level)


def point_mass_deviation(K: Mechanism | ArrayLike) -> NDArray[np.float64]:
    """The hardest "one input never randomized" bug: ``K`` with the row whose most likely
    output is likeliest replaced by the point mass at that output (module docstring).

    Parameters
    ----------
    K : Mechanism or array_like, shape (N, M)
        The claimed kernel.

    Returns
    -------
    ndarray, shape (N, M)
    """
    k = as_matrix(K, "K")
    x = int(np.argmax(k.max(axis=1)))
    bug = np.array(k)
    bug[x] = 0.0
    bug[x, int(np.argmax(k[x]))] = 1.0
    return bug


def detection_power(K: Mechanism | ArrayLike, alternative: Mechanism | ArrayLike,
                    n_samples: int, *, confidence: float = 0.99) -> float:
    """The probability that the check's χ² test, with ``n_samples`` draws per input,
    rejects an implementation whose kernel is ``alternative`` (module docstring: the
    test simulated :data:`DETECTION_RUNS` times from a fixed seed).

    Parameters
    ----------
    K : Mechanism or array_like, shape (N, M)
        The claimed kernel.
    alternative : Mechanism or array_like, shape (N, M)
        The kernel the implementation actually has (rows and columns as ``K``'s).
    n_samples : int
        Draws per input.
    confidence : float, default 0.99
        The test rejects at ``1 − confidence``.

    Returns
    -------
    float
        In ``[0, 1]``.
    """
    from scipy import stats

    k, q = _pair(K, alternative)
    n = check_positive_int(n_samples, "n_samples")
    alpha = 1.0 - _confidence(confidence)
    support = k > 0
    dof = int(support.sum() - k.shape[0])
    critical = stats.chi2.isf(alpha, dof) if dof > 0 else math.inf
    rng = np.random.default_rng(DETECTION_SEED)
    statistic = np.zeros(DETECTION_RUNS)
    forbidden = np.zeros(DETECTION_RUNS, dtype=bool)
    for x in range(k.shape[0]):
        counts = rng.multinomial(n, q[x] / q[x].sum(), size=DETECTION_RUNS)
        expected = n * k[x, support[x]]
        statistic += (((counts[:, support[x]] - expected) ** 2) / expected).sum(axis=1)
        forbidden |= counts[:, ~support[x]].sum(axis=1) > 0
    return float(np.mean(forbidden | (statistic > critical)))


def samples_needed(K: Mechanism | ArrayLike, alternative: Mechanism | ArrayLike | None = None,
                   *, confidence: float = 0.99, power: float = DETECTION_POWER) -> int:
    """The fewest draws per input with which the check's χ² test detects ``alternative``
    with probability ``power`` (:func:`detection_power`, module docstring).

    Parameters
    ----------
    K : Mechanism or array_like, shape (N, M)
        The claimed kernel.
    alternative : Mechanism or array_like, shape (N, M), optional
        The deviation to detect; default :func:`point_mass_deviation` of ``K``. For a
        level shift pass the protocol at the shifted level (for example
        ``randomized_response(N, ε + Δε)``).
    confidence : float, default 0.99
        The test rejects at ``1 − confidence``.
    power : float, default :data:`DETECTION_POWER`
        In ``(1 − confidence, 1)``.

    Returns
    -------
    int
        Draws per input, to :data:`SAMPLES_RTOL` (the least ``n`` found whose simulated
        power reaches ``power``).

    Raises
    ------
    InvalidInputError
        ``alternative`` equals ``K`` (nothing to detect), or it would take more than the
        audit's :data:`~mechdesign.accounting.sample_audit.AUDIT_MAX_DRAWS` draws.
    """
    k = as_matrix(K, "K")
    q = point_mass_deviation(k) if alternative is None else alternative
    level = _confidence(confidence)
    target = as_real(power, "power")
    if not 1.0 - level < target < 1.0:
        raise InvalidInputError(
            f"power must lie in (1 - confidence, 1) = ({1 - level:g}, 1); got {show(power)}.")
    ceiling = AUDIT_MAX_DRAWS // k.shape[0]
    if np.array_equal(k, as_matrix(q, "alternative")):
        raise InvalidInputError("alternative equals K: there is nothing to detect.")
    if detection_power(k, q, ceiling, confidence=level) < target:
        raise InvalidInputError(
            f"detecting this deviation with power {target:g} takes more than {ceiling:,} "
            f"draws per input (AUDIT_MAX_DRAWS = {AUDIT_MAX_DRAWS:,} in all): the "
            "deviation is too small for the check (or equals K).")
    def reaches(n: int) -> bool:
        return detection_power(k, q, n, confidence=level) >= target

    # bracket from the large-sample guess, then bisect to SAMPLES_RTOL: the simulated
    # power moves by about its own error from one n to the next, so a finer answer
    # would only be that error's
    hi = min(ceiling, max(1, _large_sample_guess(k, as_matrix(q, "alternative"), level,
                                                 target)))
    if reaches(hi):
        lo = hi // 2
        while lo > 0 and reaches(lo):
            hi, lo = lo, lo // 2
    else:
        lo = hi
        while not reaches(hi):
            lo, hi = hi, min(2 * hi, ceiling)
    while hi - lo > max(1, SAMPLES_RTOL * hi):
        mid = (lo + hi) // 2
        if reaches(mid):
            hi = mid
        else:
            lo = mid
    return hi


def _large_sample_guess(k, q, level: float, target: float) -> int:
    """The draws at which the non-central χ² approximation reaches the power (a start
    for the search; module docstring)."""
    from scipy import optimize, stats

    support = k > 0
    dof = int(support.sum() - k.shape[0])
    chi2 = float(np.sum(np.where(support, (q - k) ** 2 / np.where(support, k, 1.0), 0.0)))
    if dof <= 0 or chi2 <= 0:
        return 1
    critical = stats.chi2.isf(1.0 - level, dof)
    power = lambda n: stats.ncx2.sf(critical, dof, n * chi2) - target  # noqa: E731
    hi = 1.0
    while power(hi) < 0 and hi < 1e12:
        hi *= 2.0
    return math.ceil(optimize.brentq(power, 0.0, hi)) if power(hi) >= 0 else 1


def _pair(K, alternative) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    k = as_matrix(K, "K")
    q = as_matrix(alternative, "alternative")
    if q.shape != k.shape:
        raise InvalidInputError(
            f"alternative must have K's shape {k.shape}; got {q.shape}.")
    return k, q


def _confidence(confidence: float) -> float:
    level = as_real(confidence, "confidence")
    if not 0.0 < level < 1.0:
        raise InvalidInputError(f"confidence must lie in (0, 1); got {show(confidence)}.")
    return level


def _labelled(sampler, outputs: int):
    """``sampler``, with its outputs checked to be indices in ``[0, outputs)`` when no
    output labels are given (a label is refused by name instead of reading as an
    output the claim forbids)."""
    if not callable(sampler):
        return sampler             # audit_samples says what is wrong

    def checked(x, size, rng):
        drawn = sampler(x, size, rng)
        values = np.asarray(drawn) if isinstance(drawn, np.ndarray) else np.asarray(
            list(drawn), dtype=object)
        if values.size and not np.issubdtype(values.dtype, np.integer):
            found = next((v for v in values.ravel() if not isinstance(v, (int, np.integer))
                          or isinstance(v, (bool, np.bool_))), None)
            if found is not None:
                raise InvalidInputError(
                    f"sampler({show(x)}, …) returned the output {show(found)}, not an index "
                    f"in [0, {outputs}): pass outputs= (the labels of K's columns) or load "
                    "the kernel with its labels (load_kernel).")
        return drawn

    return checked
