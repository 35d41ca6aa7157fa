"""The validation used at every public boundary, and small numeric helpers.

Named tolerances live in :mod:`mechdesign._tolerances`; algorithm knobs beside their
algorithm.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from numbers import Integral, Real

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mechdesign._tolerances import (
    C_BOUNDARY_RTOL,
    STOCHASTIC_ATOL,
    STOCHASTIC_ATOL_MAX,
)
from mechdesign.errors import InvalidInputError


def show(value: object) -> str:
    """``repr`` for messages, with a numpy scalar shown as the plain number it holds
    (``1.1``, not ``np.float64(1.1)``) and an array as its list of plain numbers."""
    if isinstance(value, np.generic):
        value = value.item()
    elif isinstance(value, np.ndarray):
        value = value.tolist()
    return repr(value)


def _position(index: tuple[int, ...]) -> str:
    """Where an entry is, counted from 1 as in a CSV file, with the 0-based numpy index:
    ``entry 3 (index 2)``, ``row 1, column 2 (index (0, 1))``."""
    if len(index) == 1:
        return f"entry {index[0] + 1} (index {index[0]})"
    if len(index) == 2:
        return f"row {index[0] + 1}, column {index[1] + 1} (index {index})"
    return f"entry {index}"


def check_real_dtype(value: ArrayLike, name: str) -> np.dtype:
    """Refuse what ``np.array(value, dtype=float)`` would coerce silently: complex numbers
    (their imaginary part dropped), strings (parsed), booleans, and objects that are not
    real numbers. Returns the input's own dtype (for its precision)."""
    try:
        raw = np.asarray(value)
    except (TypeError, ValueError) as exc:  # ragged nesting
        raise InvalidInputError(f"{name} must be a numeric array; got {show(value)}.") from exc
    kind = raw.dtype.kind
    if kind == "c":
        raise InvalidInputError(f"{name} must be real; got complex values {show(value)}.")
    if kind in "USV":
        raise InvalidInputError(f"{name} must be numbers, not text; got {show(value)}.")
    if kind == "b":
        raise InvalidInputError(f"{name} must be numbers, not booleans; got {show(value)}.")
    if kind == "O":
        flat = raw.ravel().tolist()
        if any(isinstance(v, bool) or not isinstance(v, Real) for v in flat):
            raise InvalidInputError(f"{name} must be a numeric array; got {show(value)}.")
    elif kind not in "iuf":  # datetimes, structured and other non-numbers
        raise InvalidInputError(f"{name} must be real numbers; got {show(value)}.")
    return raw.dtype


def as_float_array(value: ArrayLike, name: str, ndim: int) -> NDArray[np.float64]:
    """Convert ``value`` to a finite float array with ``ndim`` dimensions, or raise. Real
    numbers only (:func:`check_real_dtype`): complex, text, booleans are refused."""
    check_real_dtype(value, name)
    try:
        array = np.array(value, dtype=float)
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(f"{name} must be a numeric array; got {show(value)}.") from exc
    if array.ndim != ndim:
        raise InvalidInputError(f"{name} must be {ndim}-dimensional; got shape {array.shape}.")
    if array.size == 0:
        raise InvalidInputError(f"{name} must not be empty; got shape {array.shape}.")
    if not np.all(np.isfinite(array)):
        bad = tuple(int(i) for i in np.argwhere(~np.isfinite(array))[0])
        raise InvalidInputError(f"{name} must be finite; {_position(bad)} is {show(array[bad])}.")
    return array


def as_distribution(
    value: ArrayLike, name: str, n: int | None = None, *, atol: float = STOCHASTIC_ATOL
) -> NDArray[np.float64]:
    """A validated probability vector: 1-D, length ``n``, finite, ≥ 0, sum 1 within ``atol``.

    Nothing is renormalised; a vector that fails a check raises
    :class:`InvalidInputError` naming ``name``.
    """
    atol = check_tolerance(atol, "atol")
    dtype = check_real_dtype(value, name)
    p = as_float_array(value, name, ndim=1)
    atol = _precision_atol(dtype, atol, p.shape[0])
    if n is not None and p.shape[0] != n:
        raise InvalidInputError(f"{name} must have length {n}; got length {p.shape[0]}.")
    if np.any(p < 0):
        i = int(np.argmin(p))
        raise InvalidInputError(
            f"{name} must be non-negative; {_position((i,))} is {show(p[i])}."
        )
    total = float(p.sum())
    if abs(total - 1.0) > atol:
        raise InvalidInputError(
            f"{name} must sum to 1 (within {atol:g}); it sums to {show(total)}."
        )
    p.setflags(write=False)
    return p


def check_tolerance(value: float, name: str) -> float:
    """A tolerance: a real number, finite and ≥ 0."""
    v = as_real(value, name)
    if not (math.isfinite(v) and v >= 0):
        raise InvalidInputError(f"{name} must be a finite number >= 0; got {show(value)}.")
    return v


def _precision_atol(dtype: np.dtype, atol: float, size: int) -> float:
    """The row-sum tolerance for an input of ``dtype``: ``atol`` for double precision;
    for a lower precision (float32, float16) at least the rounding of ``size`` of its
    entries, ``4·size·eps``, so that a kernel exact in its own precision passes."""
    if dtype.kind == "f" and dtype.itemsize < 8:
        return max(atol, 4 * size * float(np.finfo(dtype).eps))
    return atol


def as_stochastic_matrix(
    value: ArrayLike, name: str, *, atol: float = STOCHASTIC_ATOL
) -> NDArray[np.float64]:
    """A validated row-stochastic matrix (a read-only copy), or raise naming ``name``.
    Rows must sum to 1 within ``atol`` (within the input's own precision for float32 or
    float16 input, :func:`_precision_atol`); nothing is renormalised. ``atol`` is at most
    :data:`~mechdesign._tolerances.STOCHASTIC_ATOL_MAX`."""
    atol = check_tolerance(atol, "atol")
    if atol > STOCHASTIC_ATOL_MAX:
        raise InvalidInputError(
            f"atol must be at most STOCHASTIC_ATOL_MAX = {STOCHASTIC_ATOL_MAX:g} (rows that "
            f"far from summing to 1 are not distributions); got {show(atol)}.")
    dtype = check_real_dtype(value, name)
    k = as_float_array(value, name, ndim=2)
    atol = _precision_atol(dtype, atol, k.shape[1])
    if np.any(k < 0):
        bad = tuple(int(i) for i in np.unravel_index(int(np.argmin(k)), k.shape))
        raise InvalidInputError(f"{name} must be non-negative; {_position(bad)} is {show(k[bad])}.")
    sums = k.sum(axis=1)
    off = np.abs(sums - 1.0)
    if np.any(off > atol):
        row = int(np.argmax(off))
        raise InvalidInputError(
            f"{name} must be row-stochastic (rows are inputs; each row sums to 1 within "
            f"atol = {atol:g}); row {row + 1} (index {row}) sums to {show(sums[row])}."
        )
    k.setflags(write=False)
    return k


def check_epsilon(epsilon: float, name: str = "epsilon") -> float:
    """ε ≥ 0 (``math.inf`` allowed); returns it as a float."""
    value = as_real(epsilon, name)
    if math.isnan(value) or value < 0:
        raise InvalidInputError(f"{name} must be >= 0; got {show(epsilon)}.")
    return value


def check_alpha(alpha: float, name: str = "alpha") -> float:
    """Rényi order α > 0 (``math.inf`` allowed); returns it as a float."""
    value = as_real(alpha, name)
    if math.isnan(value) or value <= 0:
        raise InvalidInputError(f"{name} must be > 0; got {show(alpha)}.")
    return value


def check_c(c: float, n: int, name: str = "c") -> float:
    """The (ε,c)-PML constant: 0 < c ≤ 1/n (Dobrushin paper, eq. 15)."""
    value = as_real(c, name)
    # A tiny slack lets c = 1/n computed in floating point pass.
    if not (value > 0 and value <= 1.0 / n * (1 + C_BOUNDARY_RTOL)):
        raise InvalidInputError(
            f"{name} must satisfy 0 < {name} <= 1/N = {show(1.0 / n)} for N = {n} inputs; "
            f"got {show(c)}."
        )
    return min(value, 1.0 / n)


def check_positive_int(value: int, name: str) -> int:
    """An integer ≥ 1."""
    if isinstance(value, bool) or not isinstance(value, Integral) or value < 1:
        raise InvalidInputError(f"{name} must be a positive integer; got {show(value)}.")
    return int(value)


def as_real(value: float, name: str) -> float:
    """A real number (int, float, Fraction, numpy scalar) as a float, or raise: booleans,
    strings (numeric or not), complex numbers, arrays and None are refused."""
    if isinstance(value, bool) or not isinstance(value, Real):
        raise InvalidInputError(f"{name} must be a real number; got {show(value)}.")
    return float(value)


def check_real(
    value: float,
    name: str,
    *,
    low: float = -math.inf,
    high: float = math.inf,
    low_open: bool = False,
    high_open: bool = False,
) -> float:
    """A real number in the interval from ``low`` to ``high`` (closed ends unless
    ``low_open``/``high_open``; an infinite end is allowed as a value only when closed),
    never NaN; the error names ``name`` and quotes the interval."""
    v = as_real(value, name)
    above = v > low if low_open else v >= low
    below = v < high if high_open else v <= high
    if math.isnan(v) or not (above and below):
        left = "(" if low_open else "["
        right = ")" if high_open else "]"
        raise InvalidInputError(
            f"{name} must lie in {left}{show(low)}, {show(high)}{right}; got {show(value)}."
        )
    return v


def check_int(value: int, name: str, *, low: int = 0, high: int | None = None) -> int:
    """An integer (not a bool, not a float such as 2.0) with ``low <= value <= high``."""
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise InvalidInputError(f"{name} must be an integer; got {show(value)}.")
    if value < low or (high is not None and value > high):
        bound = f">= {low}" if high is None else f"between {low} and {high}"
        raise InvalidInputError(f"{name} must be an integer {bound}; got {show(value)}.")
    return int(value)


def check_size(value: int, name: str, maximum: int, *, low: int = 1, why: str = "") -> int:
    """A size ``low <= value``; above ``maximum`` a :class:`TooLargeError` (the input is
    valid, the computation is not feasible here) saying why."""
    from mechdesign.errors import TooLargeError

    v = check_int(value, name, low=low)
    if v > maximum:
        raise TooLargeError(
            f"{name} = {v} is above the largest supported, {maximum}"
            + (f" ({why})" if why else "") + "."
        )
    return v


def check_bool(value: bool, name: str) -> bool:
    """``True`` or ``False`` (numpy booleans too); anything else, truthy or not, is
    refused rather than read as a flag."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise InvalidInputError(f"{name} must be True or False; got {show(value)}.")


def check_choice(value: str, name: str, choices: tuple[str, ...]) -> str:
    """One of ``choices`` (strings), compared exactly."""
    if not isinstance(value, str) or value not in choices:
        raise InvalidInputError(f"{name} must be one of {choices}; got {show(value)}.")
    return value


def check_seed(seed: object, name: str = "seed") -> int | None:
    """A seed for :func:`numpy.random.default_rng`: None or an integer >= 0."""
    if seed is None:
        return None
    return check_int(seed, name, low=0)


def as_generator(rng: object, name: str = "rng") -> np.random.Generator:
    """A numpy Generator from a Generator, an int seed (>= 0) or None, or raise naming
    ``name`` (a bool or a float is not a seed)."""
    if not isinstance(rng, (np.random.Generator, np.random.BitGenerator,
                            np.random.SeedSequence)):
        check_seed(rng, name)
    try:
        return np.random.default_rng(rng)
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(
            f"{name} must be a numpy Generator, an int seed or None; got {show(rng)}."
        ) from exc


#: log of the largest finite double: ``exp`` of anything larger overflows to +inf.
LOG_FLOAT_MAX = math.log(np.finfo(float).max)


def exp_or_inf(value: float) -> float:
    """``e^value`` without overflow: ``inf`` beyond the largest double."""
    return math.exp(value) if value < LOG_FLOAT_MAX else math.inf


def check_delta(delta: float, name: str = "delta") -> float:
    """A failure probability δ in the open interval (0, 1), or :class:`InvalidInputError`."""
    value = as_real(delta, name)
    if not 0.0 < value < 1.0:
        raise InvalidInputError(f"{name} must lie in the open interval (0, 1); got {show(delta)}.")
    return value


def as_indices(values: ArrayLike | Sequence[int], name: str, upper: int) -> NDArray[np.int64]:
    """Integer indices in ``[0, upper)`` (any shape), or raise naming ``name``."""
    try:
        array = np.asarray(values)
    except (TypeError, ValueError) as exc:  # ragged nesting
        raise InvalidInputError(
            f"{name} must be an array of integer indices; got {show(values)}."
        ) from exc
    if array.dtype.kind == "b":
        raise InvalidInputError(f"{name} must hold integer indices, not booleans; got "
                                f"{show(values)}.")
    if array.size == 0:
        return array.astype(np.int64)
    if not np.issubdtype(array.dtype, np.integer):
        raise InvalidInputError(f"{name} must hold integer indices; got dtype {array.dtype}.")
    if array.min() < 0 or array.max() >= upper:
        raise InvalidInputError(
            f"{name} must hold indices in [0, {upper}); found values from {array.min()} "
            f"to {array.max()}."
        )
    return array.astype(np.int64)



def json_text(text: str, name: str) -> object:
    """``json.loads(text)``, or raise naming ``name``."""
    import json

    if not isinstance(text, (str, bytes, bytearray)):
        raise InvalidInputError(f"{name} must be JSON text; got {show(text)}.")
    try:
        return json.loads(text)
    except ValueError as exc:
        raise InvalidInputError(f"{name} is not valid JSON: {exc}.") from exc


def json_document(text: str, name: str, kind: str, latest: int) -> dict:
    """A parsed JSON document whose ``format`` is ``kind`` and whose ``format_version`` is
    1 to ``latest``, or raise naming ``name``."""
    document = json_text(text, name)
    if not isinstance(document, dict) or document.get("format") != kind:
        found = document.get("format") if isinstance(document, dict) else None
        raise InvalidInputError(
            f"{name} is not a {kind!r} document (its 'format' is {show(found)}).")
    version = document.get("format_version")
    if not isinstance(version, int) or isinstance(version, bool) or not 1 <= version <= latest:
        raise InvalidInputError(
            f"{name} has format_version {show(version)}; this mechdesign reads versions 1 to "
            f"{latest}.")
    return document


def grouped_search(table: NDArray, keys: NDArray[np.int64], draws: NDArray) -> NDArray[np.int64]:
    """``searchsorted(table[keys[i]], d_i, side="right")`` for every ``i``, row by row: the
    keys are sorted stably and ``draws`` are taken in that order (the ``j``-th draw goes
    to the ``j``-th key of the sorted order), one binary search per distinct key. The
    result is in the keys' original order (inverse-transform sampling of many rows)."""
    flat = keys.ravel()
    out = np.empty(flat.size, dtype=np.int64)
    if flat.size == 0:
        return out
    order = np.argsort(flat, kind="stable")
    grouped = flat[order]
    starts = np.flatnonzero(np.r_[True, grouped[1:] != grouped[:-1]])
    ends = np.r_[starts[1:], flat.size]
    for start, end in zip(starts.tolist(), ends.tolist(), strict=True):
        out[order[start:end]] = np.searchsorted(table[grouped[start]], draws[start:end],
                                                side="right")
    return out
