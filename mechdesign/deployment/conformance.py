"""A conformance check of an implementation against the kernel it claims.

**Conformance** (:func:`check_implementation`): an implementation passes when Pearson's
χ² test does not reject that its samples come from the kernel it claims and the
Clopper–Pearson lower confidence bound on its LDP level (:func:`~mechdesign.accounting.sample_audit.
audit_samples`) does not exceed the claimed level.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from mechdesign._validation import (
    check_positive_int,
)
from mechdesign.accounting.sample_audit import SampleAudit, audit_samples
from mechdesign.deployment.rational import validated_kernel
from mechdesign.kernel import (
    Mechanism,
)
from mechdesign.measures.leakage import ldp_level

__all__ = [
    "ImplementationCheck",
    "check_implementation",
]


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
        ``sampler(x, size, rng)`` returns ``size`` outputs for input ``x``: an array_like
        of shape (size,) of output labels (indices in ``[0, M)`` unless ``outputs`` is
        given; :func:`~mechdesign.accounting.sample_audit.audit_samples`).
    K : Mechanism or array_like, shape (N, M)
        The claimed kernel; rows in the order of ``inputs``.
    n_samples : int
        Draws per input.
    confidence : float, default 0.99
        Both tests run at this confidence: the χ² test rejects at ``1 − confidence`` and
        the level's lower bound holds with probability ``confidence``.
    rng : numpy.random.Generator or int, optional
        The randomness passed to ``sampler``: a Generator, an integer seed, or ``None``
        (default) for fresh operating-system entropy.
    inputs, outputs : sequence, optional
        Labels of ``K``'s rows and columns (default ``range(N)``, ``range(M)``).

    Returns
    -------
    ImplementationCheck
        The verdict, with the p-value, the lower bound and the audit.
    """
    k, mechanism = validated_kernel(K)
    count = check_positive_int(n_samples, "n_samples")
    labels = range(k.shape[0]) if inputs is None else inputs
    audit = audit_samples(sampler, count, inputs=labels, confidence=confidence, rng=rng,
                          claimed=mechanism, claimed_outputs=outputs)
    claimed = ldp_level(mechanism)
    p_value = float(audit.p_value)
    passed = p_value >= 1 - audit.confidence and audit.lower_bound <= claimed
    return ImplementationCheck(bool(passed), p_value, audit.lower_bound, claimed, audit)
