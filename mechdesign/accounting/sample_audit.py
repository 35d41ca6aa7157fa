"""Auditing an implementation from its samples: does the code that samples a mechanism
keep the LDP level its kernel promises?

mechdesign audits matrices exactly; an implementation is audited statistically. Draw
``n`` outputs for each input, count them, and bound the level from below with
confidence: for inputs ``x ≠ x'`` and an output ``y``, ``LDP(K) ≥ log(K[x,y] /
K[x',y])``, and Clopper–Pearson intervals for the two probabilities give a lower
confidence bound on that ratio (the method of Arcolezi & Gambs [1]_, whose code is the
public ``ldp-audit``; here the distinguishing events are the single outputs, the best event for
a ratio). The multiple-testing correction is Bonferroni over the ``2 N M`` one-sided
intervals (a lower one for every ``K[x, y]``, an upper one for every ``K[x', y]``), each
at level ``(1 − confidence)/(2 N M)``: with probability at least ``confidence`` every
interval holds at once, so the reported :attr:`SampleAudit.lower_bound` exceeds the true
level with probability at most ``1 − confidence`` — whatever the number of pairs
searched. Against a claimed kernel, Pearson's χ² test of equality of every row gives a
p-value.

References
----------
.. [1] H. H. Arcolezi, S. Gambs, "Revealing the True Cost of Locally Differentially Private
   Protocols: An Auditing Perspective", PETS 2024, arXiv:2309.01597.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, NDArray
from scipy import stats

from mechdesign._validation import (
    as_generator,
    as_real,
    check_epsilon,
    check_positive_int,
    check_size,
    show,
)
from mechdesign.errors import InvalidInputError
from mechdesign.kernel import Mechanism, as_matrix

__all__ = ["AUDIT_MAX_DRAWS", "SampleAudit", "audit_pairs", "audit_samples"]

#: Most draws :func:`audit_samples` takes in all (``n_samples`` × inputs): the draws are
#: held in memory, some 24 bytes each (5·10⁷ draws, about 1.2 GB).
AUDIT_MAX_DRAWS = 5 * 10**7


@dataclass(frozen=True)
class SampleAudit:
    """What the samples say about an implementation's LDP level (built by
    :func:`audit_samples` and :func:`audit_pairs`).

    Parameters
    ----------
    lower_bound : float
        A lower confidence bound on the LDP level (nats), valid simultaneously at
        ``confidence`` (module docstring); 0 when the samples show nothing.
    estimate : float
        The plug-in level ``max log(p̂(y|x) / p̂(y|x'))`` of the empirical kernel
        (``inf`` when an output seen from one input was never seen from another).
    confidence : float
        The simultaneous confidence level of the intervals, in ``(0, 1)``.
    witness : tuple
        ``(x, x', y)`` of the lower bound (input, input, output labels), or ``None``.
    kernel : ndarray, shape=(N, M)
        The empirical kernel, rows in the order of ``inputs``, columns of ``outputs``.
    counts : ndarray of int, shape=(N, M)
        The number of draws of each output (column) from each input (row).
    inputs, outputs : tuple
        The labels of the rows and of the columns (outputs in order of first
        appearance).
    intervals : int
        The one-sided intervals of the Bonferroni correction, ``2 N M``.
    p_value : float or None
        Pearson's χ² test that the samples come from the claimed kernel (``None``
        without one); 0 when an output the claim forbids was seen.
    """

    lower_bound: float
    estimate: float
    confidence: float
    witness: tuple | None
    kernel: NDArray[np.float64]
    counts: NDArray[np.int64]
    inputs: tuple
    outputs: tuple
    intervals: int
    p_value: float | None = None

    def exceeds(self, epsilon: float) -> bool:
        """Whether the samples show, at the audit's confidence, a level above ε."""
        return self.lower_bound > check_epsilon(epsilon)


def audit_samples(
    sampler: Callable[[Hashable, int, np.random.Generator], ArrayLike] | Mechanism,
    n_samples: int,
    *,
    inputs: Sequence[Hashable] | None = None,
    confidence: float = 0.99,
    rng: np.random.Generator | int | None = None,
    claimed: Mechanism | ArrayLike | None = None,
    claimed_outputs: Sequence[Hashable] | None = None,
) -> SampleAudit:
    """Audit an implementation of a mechanism from ``n_samples`` draws per input.

    Parameters
    ----------
    sampler : callable or Mechanism
        ``sampler(x, size, rng)`` returns ``size`` outputs for input ``x``: a 1-D array or
        a sequence of shape ``(size,)`` (any hashable values: integers, strings, tuples).
        A :class:`~mechdesign.kernel.Mechanism` of shape (N, M)
        stands for its own sampler (:meth:`~mechdesign.kernel.Mechanism.sample`).
    n_samples : int
        Draws per input.
    inputs : sequence, optional
        The inputs to audit (at least 2); default ``range(N)`` for a Mechanism,
        required otherwise.
    confidence : float
        In ``(0, 1)``: the probability that :attr:`SampleAudit.lower_bound` does not
        exceed the true level.
    rng : numpy.random.Generator or int, optional
        The random generator passed to ``sampler``, or a seed for a new one; default a
        fresh unseeded generator.
    claimed : Mechanism or array_like, shape (N, M), optional
        The kernel the implementation should have (rows in the order of ``inputs``),
        for the equality test.
    claimed_outputs : sequence, optional
        The output labels of ``claimed``'s columns; default ``range(M)``.

    Returns
    -------
    SampleAudit
    """
    count = check_positive_int(n_samples, "n_samples")
    generator = as_generator(rng)
    _check_confidence(confidence)
    claimed_matrix = None if claimed is None else as_matrix(claimed, "claimed")
    if isinstance(sampler, Mechanism):
        mechanism = sampler
        if inputs is None:
            inputs = range(mechanism.n_inputs)

        def sampler(x, size, rng):
            return mechanism.sample(np.full(size, x), rng)

    elif not callable(sampler):
        raise InvalidInputError(
            f"sampler must be a callable sampler(x, size, rng) or a Mechanism; got "
            f"{show(sampler)}."
        )
    if inputs is None:
        raise InvalidInputError("inputs is required for a sampler that is not a Mechanism.")
    labels = _as_labels(inputs, "inputs")
    if len(labels) < 2:
        raise InvalidInputError(f"inputs must hold at least 2 inputs; got {show(inputs)}.")
    check_size(count, "n_samples", AUDIT_MAX_DRAWS // len(labels),
               why=f"AUDIT_MAX_DRAWS = {AUDIT_MAX_DRAWS:,} draws in all over "
                   f"{len(labels)} inputs, held in memory")
    draws_in, draws_out = [], []
    for x in labels:
        drawn = sampler(x, count, generator)
        if not isinstance(drawn, np.ndarray):
            drawn = pd.Series(list(drawn), dtype=object)  # hashables such as tuples
        if drawn.ndim != 1 or drawn.shape[0] != count:
            raise InvalidInputError(
                f"sampler({show(x)}, {count}, rng) must return {count} outputs (a 1-D "
                f"array or a sequence of hashable values); got shape {drawn.shape}."
            )
        draws_out.append(drawn)
        draws_in.append(np.full(count, len(draws_in)))
    if all(isinstance(d, np.ndarray) for d in draws_out):
        outputs = np.concatenate(draws_out)
    else:
        outputs = pd.concat([pd.Series(d, dtype=object) for d in draws_out],
                            ignore_index=True)
    return _audit(np.concatenate(draws_in), outputs, tuple(labels), confidence,
                  claimed_matrix, claimed_outputs)


def audit_pairs(
    inputs: ArrayLike,
    outputs: ArrayLike,
    *,
    confidence: float = 0.99,
    claimed: Mechanism | ArrayLike | None = None,
    claimed_inputs: Sequence[Hashable] | None = None,
    claimed_outputs: Sequence[Hashable] | None = None,
) -> SampleAudit:
    """Audit recorded ``(input, output)`` pairs (as :func:`audit_samples`, for samples
    already drawn: the command line's ``mechdesign audit-samples``). Inputs are labelled
    in order of first appearance unless ``claimed_inputs`` gives the claimed kernel's
    row labels.

    Parameters
    ----------
    inputs : array_like, shape (n,)
        The input label of each recorded pair (hashable values); at least 2 distinct.
    outputs : array_like, shape (n,)
        The output label of each recorded pair, in the same order.
    confidence : float, default 0.99
        In ``(0, 1)``: the probability that :attr:`SampleAudit.lower_bound` does not
        exceed the true level.
    claimed : Mechanism or array_like, shape (N, M), optional
        The kernel the implementation should have, for the χ² equality test; its rows in
        the order of ``claimed_inputs`` (else of first appearance in ``inputs``).
    claimed_inputs : sequence, optional
        The row labels of ``claimed``: every recorded input must be among them, and
        each of them needs at least one recorded pair.
    claimed_outputs : sequence, optional
        The output labels of ``claimed``'s columns; default ``range(M)``.

    Returns
    -------
    SampleAudit
    """
    _check_confidence(confidence)
    claimed_matrix = None if claimed is None else as_matrix(claimed, "claimed")
    x = np.asarray(inputs) if isinstance(inputs, np.ndarray) else np.asarray(
        pd.Series(_as_labels(inputs, "inputs"), dtype=object))
    y = outputs if isinstance(outputs, np.ndarray) else pd.Series(
        _as_labels(outputs, "outputs"), dtype=object)
    if x.ndim != 1 or y.ndim != 1 or x.shape[0] != y.shape[0] or x.size == 0:
        raise InvalidInputError(
            f"inputs and outputs must be non-empty 1-D and of equal length; got shapes "
            f"{x.shape} and {y.shape}."
        )
    if claimed_inputs is not None:
        order = list(claimed_inputs)
        position = {label: i for i, label in enumerate(order)}
        try:
            codes = np.array([position[v] for v in x.tolist()])
        except KeyError as exc:
            raise InvalidInputError(
                f"an input {show(exc.args[0])} is not among claimed_inputs."
            ) from exc
        labels = tuple(order)
    else:
        codes, uniques = pd.factorize(x)
        labels = tuple(uniques.tolist())
    return _audit(codes, y, labels, confidence, claimed_matrix, claimed_outputs)


def _check_confidence(confidence: float) -> float:
    level = as_real(confidence, "confidence")
    if not 0.0 < level < 1.0:
        raise InvalidInputError(f"confidence must lie in (0, 1); got {show(confidence)}.")
    return level


def _as_labels(value: object, name: str) -> list:
    """A 1-D sequence of labels as a list, or raise naming ``name`` (a scalar, a string,
    None or a 2-D array is not a sequence of labels)."""
    if isinstance(value, np.ndarray):
        if value.ndim != 1:
            raise InvalidInputError(f"{name} must be 1-D; got shape {value.shape}.")
        return value.tolist()
    if isinstance(value, (str, bytes)) or not isinstance(value, (Sequence, range, pd.Series)):
        raise InvalidInputError(
            f"{name} must be a sequence of labels (a list, tuple, range or 1-D array); got "
            f"{show(value)}."
        )
    return list(value)


def _audit(codes, outputs, labels, confidence, claimed, claimed_outputs) -> SampleAudit:
    level = _check_confidence(confidence)
    n = len(labels)
    if n < 2:
        raise InvalidInputError(f"an audit needs at least 2 inputs; got {n}.")
    out_codes, out_labels = pd.factorize(outputs)
    m = len(out_labels)
    counts = np.zeros((n, m), dtype=np.int64)
    np.add.at(counts, (codes, out_codes), 1)
    totals = counts.sum(axis=1)
    if np.any(totals == 0):
        raise InvalidInputError(
            f"every input needs samples; input {show(labels[int(np.argmin(totals))])} has none."
        )
    kernel = counts / totals[:, None]
    intervals = 2 * n * m
    alpha = (1.0 - level) / intervals
    lower = np.where(counts > 0, stats.beta.ppf(alpha, counts, totals[:, None] - counts + 1), 0.0)
    upper = np.where(counts < totals[:, None],
                     stats.beta.ppf(1 - alpha, counts + 1, totals[:, None] - counts), 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        log_ratio = np.log(lower)[:, None, :] - np.log(upper)[None, :, :]  # [x, x', y]
        plug_in = np.log(kernel)[:, None, :] - np.log(kernel)[None, :, :]
    off_diagonal = ~np.eye(n, dtype=bool)[:, :, None]
    log_ratio = np.where(off_diagonal, log_ratio, -np.inf)
    seen = (counts > 0)[:, None, :] & off_diagonal
    estimate = float(np.max(np.where(seen, plug_in, -np.inf), initial=0.0))
    best = np.unravel_index(int(np.argmax(log_ratio)), log_ratio.shape)
    bound = float(log_ratio[best])
    witness = None
    if bound > 0:
        witness = (labels[best[0]], labels[best[1]], _label(out_labels[best[2]]))
    p_value = None
    if claimed is not None:
        p_value = _equality_p_value(counts, [_label(v) for v in out_labels], claimed,
                                    claimed_outputs)
    return SampleAudit(
        lower_bound=max(bound, 0.0),
        estimate=max(estimate, 0.0),
        confidence=level,
        witness=witness,
        kernel=kernel,
        counts=counts,
        inputs=tuple(labels),
        outputs=tuple(_label(v) for v in out_labels),
        intervals=intervals,
        p_value=p_value,
    )


def _label(value):
    return value.item() if isinstance(value, np.generic) else value


def _equality_p_value(counts, out_labels, claimed, claimed_outputs) -> float:
    k = claimed  # validated by the caller (as_matrix, named claimed)
    if k.shape[0] != counts.shape[0]:
        raise InvalidInputError(
            f"claimed has {k.shape[0]} rows; the audit has {counts.shape[0]} inputs."
        )
    columns = list(range(k.shape[1])) if claimed_outputs is None else list(claimed_outputs)
    if len(columns) != k.shape[1]:
        raise InvalidInputError(
            f"claimed_outputs must label the {k.shape[1]} columns of claimed; got "
            f"{len(columns)} labels."
        )
    index = {label: j for j, label in enumerate(columns)}
    if any(label not in index for label in out_labels):
        return 0.0  # an output the claimed kernel cannot produce
    aligned = np.zeros((counts.shape[0], k.shape[1]))
    for j, label in enumerate(out_labels):
        aligned[:, index[label]] = counts[:, j]
    expected = k * aligned.sum(axis=1, keepdims=True)
    if np.any((expected == 0) & (aligned > 0)):
        return 0.0
    positive = expected > 0
    # A subnormal expected count (a claimed 5e-324) makes a term overflow to inf: the
    # statistic is then beyond every double, and its p-value 0 is the right limit.
    with np.errstate(over="ignore"):
        terms = (aligned[positive] - expected[positive]) ** 2 / expected[positive]
        statistic = float(np.sum(terms))
    dof = int(positive.sum() - k.shape[0])
    if dof <= 0:
        return 1.0
    return float(stats.chi2.sf(statistic, dof))
