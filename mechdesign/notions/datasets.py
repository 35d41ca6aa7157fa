"""Categorical data for robust LDP: the estimate ``P̂`` of a pair of attributes.

The robust-LDP paper's experiments (Sec. 8.1) take two categorical columns of a data set
(e.g. the UCI Adult census data), one sensitive (``S``) and one not (``U``), and estimate
``P̂`` on ``X = S × U`` by the empirical frequencies (the maximum-likelihood estimate).
:func:`categorical_pair` does that for a CSV file with a header row (gzip-compressed
too), and :func:`empirical_pair` for columns already in memory. The Adult data ship with
the package: :func:`adult_csv` is their path.
"""

from __future__ import annotations

import csv
import gzip
import os
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from numbers import Integral
from pathlib import Path
from typing import TextIO

import numpy as np
from numpy.typing import NDArray

from mechdesign._validation import (
    check_alpha,
    check_positive_int,
    show,
)
from mechdesign.errors import InvalidInputError, TooLargeError
from mechdesign.notions.uncertainty import RenyiBall, chi2_radius

__all__ = ["CategoricalPair", "adult_csv", "categorical_pair", "empirical_pair"]


def adult_csv() -> Path:
    """The path of the UCI Adult ("Census Income") training data shipped with the package:
    32,561 records, a header row (age, workclass, fnlwgt, education, education-num,
    marital-status, occupation, relationship, race, sex, capital-gain, capital-loss,
    hours-per-week, native-country, Salary), fields separated by ``", "``, missing values
    ``"?"``; gzip-compressed, otherwise unchanged. :func:`categorical_pair` reads it.

    Source: B. Becker, R. Kohavi, "Adult", UCI Machine Learning Repository, 1996,
    doi:10.24432/C5XW20, licensed CC BY 4.0 (the package's ``data/README.md``).

    Returns
    -------
    Path
        ``mechdesign/data/adult.csv.gz`` inside the installed package.
    """
    return Path(__file__).resolve().parents[1] / "data" / "adult.csv.gz"


@dataclass(frozen=True)
class CategoricalPair:
    """Counts of a sensitive attribute S against another attribute U.

    Parameters
    ----------
    counts : ndarray of int, shape (|S|, |U|)
        ``counts[s, u]`` records with ``S = s`` and ``U = u``: a 2-D array of
        non-negative integers (Python or numpy integers) with at least one record. Floats
        are refused even when whole, as for every integer argument of the package
        (:func:`~mechdesign._validation.check_int` refuses ``2.0``): pass a float array such
        as ``np.histogram2d``'s as ``counts.astype(int)`` once you have checked it holds
        whole numbers. Stored as a read-only int64 copy.
    s_labels, u_labels : tuple of str
        The category of each row / column (distinct; as many as ``counts`` has rows /
        columns), sorted by decreasing frequency (ties by name) when built by
        :func:`empirical_pair`: index 0 is the most common category.
    sensitive, other : str
        The column names.

    Raises
    ------
    InvalidInputError
        Naming the attribute that breaks the above.
    TooLargeError
        If the counts sum beyond the int64 range.
    """

    counts: NDArray[np.int64]
    s_labels: tuple[str, ...]
    u_labels: tuple[str, ...]
    sensitive: str
    other: str

    def __post_init__(self) -> None:
        counts = _as_counts(self.counts, "counts")
        object.__setattr__(self, "counts", counts)
        for name, size in (("s_labels", counts.shape[0]), ("u_labels", counts.shape[1])):
            object.__setattr__(self, name, _category_labels(getattr(self, name), name, size))
        _check_name(self.sensitive, "sensitive")
        _check_name(self.other, "other")

    @property
    def shape(self) -> tuple[int, int]:
        """``(|S|, |U|)``."""
        return (len(self.s_labels), len(self.u_labels))

    @property
    def n_samples(self) -> int:
        return int(self.counts.sum())

    @property
    def p_hat(self) -> NDArray[np.float64]:
        """The empirical distribution on ``X = S × U``, flattened S-major."""
        return (self.counts / self.counts.sum()).ravel()

    def top_cells(self, k: int) -> NDArray[np.float64]:
        """The ``k`` most frequent cells ``(s, u)``, by decreasing count (ties in
        ``p_hat`` order), renormalised: a prior on ``k`` inputs drawn from real data (the
        estimation and protocol benchmarks use Adult's occupation × education).

        Raises
        ------
        InvalidInputError
            If ``k`` is not a positive integer or fewer than ``k`` cells hold a record.
        """
        k = check_positive_int(k, "k")
        counts = self.counts.ravel()
        top = counts[np.argsort(-counts, kind="stable")[:k]]
        if top.size < k or top[-1] == 0:
            raise InvalidInputError(
                f"k must be at most the {np.count_nonzero(counts)} cells of "
                f"{self.sensitive} × {self.other} that hold a record; got {k}")
        return top / top.sum()

    def ball(self, beta: float = 0.05, alpha: float = 2.0) -> RenyiBall:
        """The paper's confidence set: the Rényi ball around ``P̂`` whose radius is
        :func:`~mechdesign.notions.uncertainty.chi2_radius` (``n`` records, ``|X|`` categories,
        significance β). That radius is the χ² test's, so only α = 2 is offered."""
        if check_alpha(alpha) != 2:
            raise InvalidInputError(
                f"alpha must be 2 for the χ² confidence radius (eq. 9); got {show(alpha)}."
            )
        return RenyiBall(self.p_hat, 2.0, chi2_radius(self.n_samples, self.counts.size, beta))


def empirical_pair(
    s_values: Sequence[str], u_values: Sequence[str], *, sensitive: str = "S", other: str = "U"
) -> CategoricalPair:
    """Count co-occurrences of two equally long sequences of category labels.

    A label is a hashable scalar (a string, a number, ``None`` …) and stands for its
    text, ``str(value)``, so ``1`` and ``"1"`` are one category. A list, tuple, set,
    dict or array as a label is refused (its text would silently become a category).

    Parameters
    ----------
    s_values : sequence
        The sensitive attribute of each record (a list, tuple, string or 1-D array of
        labels, shape (n,)); must not be empty.
    u_values : sequence
        The other attribute of each record, as long as ``s_values``.
    sensitive : str, default "S"
        The sensitive column's name.
    other : str, default "U"
        The other column's name.

    Returns
    -------
    CategoricalPair
        The counts, with labels sorted by decreasing frequency (ties by name).
    """
    s_values = _column(s_values, "s_values")
    u_values = _column(u_values, "u_values")
    _check_name(sensitive, "sensitive")
    _check_name(other, "other")
    if len(s_values) != len(u_values):
        raise InvalidInputError(
            f"s_values and u_values must have the same length; got {len(s_values)} and "
            f"{len(u_values)}."
        )
    s_labels = _labels(s_values)
    u_labels = _labels(u_values)
    s_index = {label: i for i, label in enumerate(s_labels)}
    u_index = {label: i for i, label in enumerate(u_labels)}
    counts = np.zeros((len(s_labels), len(u_labels)), dtype=np.int64)
    np.add.at(
        counts,
        (np.array([s_index[v] for v in s_values]), np.array([u_index[v] for v in u_values])),
        1,
    )
    counts.setflags(write=False)
    return CategoricalPair(counts, s_labels, u_labels, sensitive, other)


def _column(values: object, name: str) -> list[str]:
    """A non-empty 1-D column of labels as their texts, or raise naming ``name`` (a
    mapping, a scalar or a 2-D array is not a column; a string is its characters)."""
    if isinstance(values, np.ndarray):
        if values.ndim != 1:
            raise InvalidInputError(f"{name} must be 1-D; got shape {values.shape}.")
        values = values.tolist()
    elif not isinstance(values, (Sequence, range)):  # a string is its characters
        raise InvalidInputError(
            f"{name} must be a sequence of category labels (a list, tuple, string or 1-D "
            f"array); got {show(values)}."
        )
    if len(values) == 0:
        raise InvalidInputError(f"{name} must not be empty: no records to estimate P̂ from.")
    for i, v in enumerate(values):
        # A string is iterable and a tuple hashable: neither test alone finds scalars.
        if not (isinstance(v, (str, bytes)) or (
            isinstance(v, Hashable) and not isinstance(v, Iterable)
        )):
            raise InvalidInputError(
                f"{name} must hold category labels, each a hashable scalar (a string or "
                f"a number); entry {i + 1} (index {i}) is {show(v)}, a "
                f"{type(v).__name__}."
            )
    return [str(v) for v in values]


def _as_counts(value: object, name: str) -> NDArray[np.int64]:
    """A non-empty 2-D array of non-negative integers with a positive total, as a
    read-only int64 copy, or raise naming ``name``."""
    try:
        array = np.asarray(value)
    except (TypeError, ValueError) as exc:  # ragged nesting
        raise InvalidInputError(
            f"{name} must be a 2-D array of non-negative integers; got {show(value)}."
        ) from exc
    if array.ndim != 2 or array.size == 0:
        raise InvalidInputError(
            f"{name} must be a non-empty 2-D array (|S| rows, |U| columns) of non-negative "
            f"integers; got shape {array.shape}."
        )
    entries = array.tolist()  # Python numbers: no dtype wraps or overflows below
    flat = [v for row in entries for v in row]
    not_integers = [k for k, v in enumerate(flat) if isinstance(v, bool) or not isinstance(
        v, Integral)]
    if not_integers:
        # Show a fractional (or NaN, text …) entry before a whole float such as 3.0.
        k = next((k for k in not_integers
                  if not (isinstance(flat[k], float) and flat[k].is_integer())), not_integers[0])
        i, j = divmod(k, array.shape[1])
        whole = isinstance(flat[k], float) and flat[k].is_integer()
        raise InvalidInputError(
            f"{name} must hold integers (record counts); row {i + 1}, column {j + 1} "
            f"(index ({i}, {j})) is {show(flat[k])}"
            + (" (a float: pass counts.astype(int) if whole numbers are meant)."
               if whole else ".")
        )
    for k, v in enumerate(flat):
        if v < 0:
            i, j = divmod(k, array.shape[1])
            raise InvalidInputError(
                f"{name} must be non-negative; row {i + 1}, column {j + 1} (index ({i}, {j})) "
                f"is {show(v)}."
            )
    total = sum(flat)
    if total == 0:
        raise InvalidInputError(f"{name} must hold at least one record; all entries are 0.")
    if total > np.iinfo(np.int64).max:
        raise TooLargeError(
            f"{name} sums to {total} records, above the int64 range the counts are kept in."
        )
    counts = np.array(entries, dtype=np.int64)  # a copy: the caller's array stays theirs
    counts.setflags(write=False)
    return counts


def _category_labels(value: object, name: str, size: int) -> tuple[str, ...]:
    """``size`` distinct strings as a tuple, or raise naming ``name``."""
    if isinstance(value, str) or not isinstance(value, (Sequence, np.ndarray)):
        raise InvalidInputError(
            f"{name} must be a sequence of {size} category names (strings); got {show(value)}."
        )
    labels = tuple(value.tolist() if isinstance(value, np.ndarray) else value)
    if len(labels) != size or not all(isinstance(v, str) for v in labels):
        raise InvalidInputError(
            f"{name} must be {size} category names (strings), one per "
            f"{'row' if name == 's_labels' else 'column'} of counts; got {show(value)}."
        )
    if len(set(labels)) != size:
        raise InvalidInputError(f"{name} must be distinct; got {show(value)}.")
    return labels


def _check_name(value: object, name: str) -> str:
    if not isinstance(value, str):
        raise InvalidInputError(f"{name} must be a column name (a string); got {show(value)}.")
    return value


def _labels(values: Sequence[str]) -> tuple[str, ...]:
    unique, counts = np.unique(np.asarray(values, dtype=str), return_counts=True)
    order = sorted(range(len(unique)), key=lambda i: (-counts[i], unique[i]))
    return tuple(str(unique[i]) for i in order)


def categorical_pair(path: str | Path, sensitive: str, other: str) -> CategoricalPair:
    """Read columns ``sensitive`` (S) and ``other`` (U) of a CSV file with a header row
    and count them. Fields are stripped of surrounding spaces (the Adult file separates
    them by ``", "``); every value, ``"?"`` included, is a category.

    Parameters
    ----------
    path : str or Path
        A UTF-8 CSV file with a header row, gzip-compressed when its name ends in ``.gz``
        (as :func:`adult_csv`); blank lines are skipped, and every other line must have
        as many fields as the header.
    sensitive : str
        The header name of the sensitive column S.
    other : str
        The header name of the other column U; must differ from ``sensitive``.

    Returns
    -------
    CategoricalPair
        As :func:`empirical_pair` gives it.
    """
    if not isinstance(path, (str, os.PathLike)):
        raise InvalidInputError(f"path must be a file path (str or Path); got {show(path)}.")
    path = Path(path)
    if not path.is_file():
        what = "is a directory, not a file" if path.is_dir() else "does not exist"
        raise InvalidInputError(f"path {show(str(path))} {what}.")
    _check_name(sensitive, "sensitive")
    _check_name(other, "other")
    if sensitive == other:
        raise InvalidInputError(
            f"the sensitive and the other column must differ; both are {show(sensitive)}."
        )
    try:
        s_values, u_values = _read_pair(path, sensitive, other)
    except UnicodeDecodeError as exc:
        raise InvalidInputError(
            f"data file {show(str(path))} is not UTF-8 text ({exc.reason})."
        ) from exc
    except (gzip.BadGzipFile, EOFError) as exc:
        raise InvalidInputError(
            f"data file {show(str(path))} ends in .gz but is not a whole gzip file ({exc})."
        ) from exc
    return empirical_pair(s_values, u_values, sensitive=sensitive, other=other)


def _open_text(path: Path) -> TextIO:
    """``path`` opened as UTF-8 text for the csv module, through gzip when it ends in
    ``.gz``."""
    if path.suffix == ".gz":
        return gzip.open(path, "rt", newline="", encoding="utf-8")
    return path.open(newline="", encoding="utf-8")


def _read_pair(path: Path, sensitive: str, other: str) -> tuple[list[str], list[str]]:
    with _open_text(path) as handle:
        reader = csv.reader(handle, skipinitialspace=True)
        try:
            header = [name.strip() for name in next(reader)]
        except StopIteration:
            raise InvalidInputError(f"data file {show(str(path))} is empty.") from None
        for argument, name in (("sensitive", sensitive), ("other", other)):
            if name not in header:
                raise InvalidInputError(
                    f"column {show(name)} is not in {show(str(path))} ({argument} = "
                    f"{show(name)}); its columns are {', '.join(header)}."
                )
        i, j = header.index(sensitive), header.index(other)
        s_values, u_values = [], []
        for line, row in enumerate(reader, start=2):
            if not row or all(not field.strip() for field in row):
                continue  # blank line (the Adult file ends with one)
            if len(row) != len(header):
                raise InvalidInputError(
                    f"line {line} of {show(str(path))} has {len(row)} fields; the header has "
                    f"{len(header)}."
                )
            s_values.append(row[i].strip())
            u_values.append(row[j].strip())
    return s_values, u_values
