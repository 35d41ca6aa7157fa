"""What a user gives the command line: the parser's choices and limits, kernel and prior
files, ``--prior`` and ``--workload``.

Kernel files are CSV, one row per input, entries as decimals or fractions (``1/3``), or
a mechdesign JSON document (``design --out``). A prior file is one row or one column of
the same format. ``--prior`` is read by one function for every subcommand
(:func:`prior_spec`); the named priors are :func:`mechdesign.priors.make_prior`'s.
"""

from __future__ import annotations

import csv
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from mechdesign._validation import as_distribution, show
from mechdesign.errors import InvalidInputError

__all__ = [
    "CLI_MAX_N",
    "MAX_VERTICES",
    "METHODS",
    "PRIOR_HELP",
    "RLDP_MAX_VERTICES",
    "ROBUST_LDP_MECHANISMS",
    "SWEEP_DEFAULT_MECHANISMS",
    "SWEEP_MECHANISMS",
    "prior_spec",
    "read_kernel",
    "read_matrix",
    "read_prior",
    "read_workload",
]

#: The parser's choices and limits, written out here because the modules that define
#: them import the numeric stack, which ``--help`` must not wait for. Each equals its
#: source (tests/test_startup.py): ``mechdesign.optimal.METHODS``,
#: ``mechdesign.notions.cones.MAX_VERTICES``, ``mechdesign.reports.RLDP_MAX_VERTICES`` and
#: ``mechdesign.mechanisms.robust.ROBUST_LDP_MECHANISMS``.
METHODS = ("auto", "enumeration", "column_generation")
MAX_VERTICES = 2**20
RLDP_MAX_VERTICES = 10**12
ROBUST_LDP_MECHANISMS = ("GRR", "SRR", "IR", "PolyOpt", "PolyOpt-paper", "NR")
#: ``mechdesign.sweeps.FAMILIES``, the families of ``sweep --task measure|envelope``.
SWEEP_MECHANISMS = ("grr", "oue", "sue", "subset_selection", "olh", "hadamard_response",
                    "pml_extremal")
#: The families a sweep measures when ``--mechanism`` is not given.
SWEEP_DEFAULT_MECHANISMS = ("grr", "oue", "subset_selection", "hadamard_response")

#: The largest ``--n`` the command line accepts for a uniform prior: the designs that
#: column generation certifies in minutes go to N in the hundreds (docs/tour.md, scale).
CLI_MAX_N = 1024


def read_matrix(path: str | Path) -> np.ndarray:
    """Read a CSV of decimals or fractions into a 2-D float array.

    Parameters
    ----------
    path : str or pathlib.Path
        The CSV file: one row per line, ``#`` comments and blank lines skipped, a
        trailing comma allowed.
    """
    rows: list[list[float]] = []
    try:
        # utf-8-sig: a byte-order mark (spreadsheets write one) is not part of the data.
        with open(path, newline="", encoding="utf-8-sig") as handle:
            lines = list(enumerate(csv.reader(handle), start=1))
    except UnicodeDecodeError as exc:
        raise InvalidInputError(f"{path}: not a UTF-8 text file ({exc.reason}).") from exc
    for line_no, row in lines:
        cells = [cell.strip() for cell in row]
        if not any(cells) or cells[0].startswith("#"):
            continue
        while cells and not cells[-1]:
            cells.pop()  # a trailing comma ends the row; it adds no column
        if not all(cells):
            column = cells.index("") + 1
            raise InvalidInputError(
                f"{path}: line {line_no}, column {column} is blank; every entry of a row "
                "needs a number (a blank would shift the row)."
            )
        try:
            values = [float(Fraction(cell)) for cell in cells]
        except (ValueError, ZeroDivisionError) as exc:
            raise InvalidInputError(
                f"{path}: line {line_no} has a cell that is not a number or fraction: "
                f"{show(row)}."
            ) from exc
        except OverflowError as exc:
            raise InvalidInputError(
                f"{path}: line {line_no} has a number too large for a double: {show(row)}."
            ) from exc
        rows.append(values)
    if not rows:
        raise InvalidInputError(f"{path}: no numbers found.")
    if len({len(r) for r in rows}) != 1:
        raise InvalidInputError(f"{path}: rows have different lengths {[len(r) for r in rows]}.")
    return np.array(rows, dtype=float)


def read_kernel(path: str | Path):
    """A kernel file: a mechdesign JSON document, float or exact (``design --out``,
    ``Mechanism.to_json``, ``RationalMechanism.to_json``; an exact kernel is read as its
    ``n/D``), or a CSV of decimals or fractions.

    Parameters
    ----------
    path : str or pathlib.Path
        The kernel file.
    """
    from mechdesign.deployment.documents import load_kernel
    from mechdesign.kernel import Mechanism

    try:
        with open(path, encoding="utf-8-sig") as handle:
            head = handle.read(1 << 16).lstrip()
    except (OSError, UnicodeDecodeError):
        head = ""          # read_matrix says what is wrong with the file
    if head.startswith("{"):
        try:
            return load_kernel(Path(path).read_text(encoding="utf-8-sig")).mechanism
        except InvalidInputError as exc:
            raise InvalidInputError(f"{path}: {exc}") from exc
    return Mechanism(read_matrix(path))


#: ``--help`` of every ``--prior`` but sweep's (:func:`prior_spec` parses them all).
PRIOR_HELP = ("uniform (default), zipf (Zipf with exponent 1.1), or a CSV file of the prior "
              "(one row or one column; ./zipf for a file called zipf)")


def prior_spec(text: str, *, sweep: bool = False) -> tuple[str, int]:
    """Parse ``--prior`` (one function for every subcommand).

    Returns ``(kind, count)``: ``("uniform", 1)``, ``("zipf", 1)``, ``("dirichlet", R)``
    for ``dirichlet:R`` (``sweep`` only: R random priors, one per repetition; plain
    ``dirichlet`` is R = 1), or ``("file", 0)`` for anything else, a CSV file name. A
    sweep varies N, so it takes named priors only and refuses a file.

    Parameters
    ----------
    text : str
        The value of ``--prior``.
    sweep : bool
        Whether ``mechdesign sweep`` asks (it takes ``dirichlet:R`` and no file).
    """
    kind, colon, reps = text.partition(":")
    if kind in ("uniform", "zipf") and not colon:
        return kind, 1
    if kind == "dirichlet":
        if not sweep:
            raise InvalidInputError(
                "--prior dirichlet:R draws R random priors: it applies to mechdesign sweep "
                f"only (here: uniform, zipf or a CSV file); got {text!r}."
            )
        count = int(reps) if reps.isdigit() else 0 if colon else 1
        if count < 1:
            raise InvalidInputError(
                f"--prior dirichlet:R needs a positive integer R; got {reps!r}."
            )
        return kind, count
    if sweep:
        raise InvalidInputError(
            "--prior must be uniform, zipf or dirichlet:R (R repetitions) in a sweep, which "
            f"varies N; got {text!r}."
        )
    if kind in ("uniform", "zipf"):
        raise InvalidInputError(f"--prior {kind} takes no ':'; got {text!r}.")
    return "file", 0


def read_prior(spec: str, n: int | None) -> np.ndarray:
    """The prior that ``--prior`` names, on ``n`` inputs (``None``: a file fixes N).

    Parameters
    ----------
    spec : str
        The value of ``--prior``: ``uniform``, ``zipf`` or a CSV file.
    n : int or None
        Number of inputs; None when a file fixes it.
    """
    kind, _ = prior_spec(spec)
    if kind == "file":
        values = read_matrix(spec).ravel()
        return np.array(as_distribution(values, "prior", len(values) if n is None else n))
    if n is None:
        raise InvalidInputError(f"--prior {kind} needs the number of inputs.")
    from mechdesign.priors import make_prior

    return np.array(make_prior(kind, n))


def read_workload(text: str | None) -> Any:
    """``--workload``: a named workload, or a CSV file of the (L, N) query matrix.

    Parameters
    ----------
    text : str or None
        The value of ``--workload``: None, ``histogram``, ``prefix``, ``all-range`` or a
        CSV file.
    """
    if text is None or text in ("histogram", "prefix", "all-range"):
        return text
    return read_matrix(text)

