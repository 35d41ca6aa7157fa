"""Maximal leakage under composition, and the envelope bound it gives (the envelope
paper: Saeidian, Pinzón, Palamidessi, *Information leakage envelopes*, Sec. IV-A, with
Issa, Wagner and Kamath's chain rule).

An adaptive composition is a list of stages, stage i the law of ``Y_i`` given the input
and the earlier outputs (:func:`adaptive_composition` builds the joint kernel);
:func:`conditional_maximal_leakage` is ``L(X → Y2 | Y1)`` and
:func:`composition_envelope_bound` sums it along the stages into a bound on the PML
envelope of the whole. Conventions (package docstring): rows are inputs, nats; inputs
outside the prior's support are dropped.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mechdesign._tolerances import STOCHASTIC_ATOL
from mechdesign._validation import (
    as_distribution,
    as_float_array,
    check_delta,
    check_real_dtype,
    show,
)
from mechdesign.errors import InvalidInputError
from mechdesign.kernel import Mechanism, as_matrix

__all__ = ["adaptive_composition", "composition_envelope_bound", "conditional_maximal_leakage"]

KernelLike = Mechanism | ArrayLike


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
