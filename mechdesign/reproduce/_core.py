"""The pieces every paper's reproduction is made of: checks, items, settings, results.

A paper's reproduction is a list of :class:`Item` s (a figure, a table, the printed numbers
of a group of examples). Running an item writes its files into the paper's folder and
returns :class:`Check` s: one claim of the paper (a printed number, or a statement a figure
shows) set against what mechdesign computes. A check's status is

``"matches"``
    the computed value agrees with the printed one to the printed precision (or the
    claim holds);
``"erratum"``
    it does not, and the paper is known to be wrong here: the check names the correct
    value and the test or docstring that shows it (inside the repository). Each erratum
    has a kind (:data:`ERRATUM_KINDS`): the paper is wrong; its reasoning is wrong but
    its conclusion right (the check's claim then *holds*, and is still an erratum); a
    typo; or our extracted text lost the symbols, so the printed claim cannot be read and
    the published PDF decides;
``"differs"``
    it does not, and no erratum explains it. ``mechdesign reproduce`` exits with status 1
    when any check differs.

The summary ends with the errata ledger: every erratum once, with its kind, the printed
and the correct value, and its evidence.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from mechdesign._validation import check_positive_int
from mechdesign.errors import InvalidInputError

__all__ = [
    "ERRATUM_KINDS",
    "EXTRACTION",
    "PAPER_WRONG",
    "REASONING",
    "TYPO",
    "Check",
    "Item",
    "ItemResult",
    "Settings",
    "check_claim",
    "check_printed",
]

#: The kinds of erratum the ledger distinguishes.
PAPER_WRONG = "paper wrong"
REASONING = "reasoning wrong, conclusion right"
TYPO = "typo"
EXTRACTION = "text extraction lost symbols (check the published PDF)"
ERRATUM_KINDS = (PAPER_WRONG, REASONING, TYPO, EXTRACTION)


@dataclass(frozen=True)
class Settings:
    """How much to compute.

    Parameters
    ----------
    quick : bool, default False
        Coarse grids and few repetitions: seconds per paper, for the test suite. The
        figures are drawn all the same; checks that need the full settings are skipped.
    workers : int, default 2
        Processes for the robust-LDP synthetic repetitions; at least 1.
    reps : int or None, default None
        Synthetic repetitions of the robust-LDP paper [1]_ (its Sec. 8.2 uses 100), at
        least 1; ``None`` takes 100, or 3 when ``quick``.
    data : Path or None, default None
        The UCI Adult CSV for the robust-LDP paper's Fig. 2; ``None`` takes the copy
        shipped with the package (:func:`~mechdesign.notions.datasets.adult_csv`). A
        path must name an existing file (checked here, before anything runs).
    seed : int, default 2024
        Seed of every random draw.

    References
    ----------
    .. [1] M. Lopuhaä-Zwakenberg, J. Goseling, "Mechanisms for Robust Local Differential
       Privacy", Entropy 26(3):233, 2024, doi:10.3390/e26030233.
    """

    quick: bool = False
    workers: int = 2
    reps: int | None = None
    data: Path | None = None
    seed: int = 2024

    def __post_init__(self) -> None:
        check_positive_int(self.workers, "workers")
        if self.reps is not None:
            check_positive_int(self.reps, "reps")
        if self.data is not None and not Path(self.data).is_file():
            raise InvalidInputError(f"data must name an existing file; there is no file "
                                    f"{self.data}")


@dataclass(frozen=True)
class Check:
    """One claim of a paper against mechdesign's value.

    Parameters
    ----------
    paper : str
        The paper's key: ``"dobrushin"`` [1]_, ``"falpha"`` [2]_, ``"envelopes"`` [3]_ or
        ``"robust-ldp"`` [4]_.
    item : str
        Where the claim is printed, e.g. ``"Example 2: η_TV(K1)"``.
    printed : str
        What the paper prints or states, as text.
    computed : str
        What mechdesign computes, as text.
    matched : bool
        Whether the two agree (to the printed precision, or the claim holds).
    erratum : str, default ""
        Empty, or why the paper is wrong here and the correct value, with its source.
    kind : str, default ""
        The erratum's kind (:data:`ERRATUM_KINDS`; :data:`PAPER_WRONG` when an erratum
        names none); empty without an erratum. A kind outside :data:`ERRATUM_KINDS`, or a
        kind without an erratum, raises :class:`~mechdesign.errors.InvalidInputError`.

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Dobrushin Coefficients of
       Private Mechanisms Beyond Local Differential Privacy", 2026, arXiv:2601.09498.
    .. [2] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Bounds on the Privacy
       Amplification of Arbitrary Channels via the Contraction of f_α-Divergence",
       Allerton Conference 2025, arXiv:2501.11473.
    .. [3] S. Saeidian, C. Pinzón, C. Palamidessi, "Information Leakage Envelopes", 2026,
       arXiv:2605.21185.
    .. [4] M. Lopuhaä-Zwakenberg, J. Goseling, "Mechanisms for Robust Local Differential
       Privacy", Entropy 26(3):233, 2024, doi:10.3390/e26030233.
    """

    paper: str
    item: str
    printed: str
    computed: str
    matched: bool
    erratum: str = ""
    kind: str = ""

    def __post_init__(self) -> None:
        if self.erratum and not self.kind:
            object.__setattr__(self, "kind", PAPER_WRONG)
        if self.kind and self.kind not in ERRATUM_KINDS:
            raise InvalidInputError(f"kind must be one of {ERRATUM_KINDS}; got {self.kind!r}")
        if self.kind and not self.erratum:
            raise InvalidInputError("a check with an erratum kind needs the erratum note")

    @property
    def status(self) -> str:
        """``"matches"``, ``"erratum"`` or ``"differs"`` (module docstring). A claim whose
        reasoning is wrong but whose conclusion holds is an erratum when it holds; one our
        text cannot show is an erratum either way."""
        if not self.erratum:
            return "matches" if self.matched else "differs"
        if self.kind == EXTRACTION:
            return "erratum"
        if self.kind == REASONING:
            return "erratum" if self.matched else "differs"
        return "differs" if self.matched else "erratum"


def _decimals(printed: str) -> int:
    mantissa = printed.strip().lower().split("e")[0]
    return len(mantissa.split(".")[1]) if "." in mantissa else 0


def check_printed(
    paper: str, item: str, computed: float, printed: str, *, erratum: str = "", kind: str = ""
) -> Check:
    """Compare ``computed`` with a number as the paper prints it.

    The two match when ``computed`` rounds to ``printed`` at the printed precision:
    ``|computed − printed| ≤ ½·10^(−d)`` for ``d`` printed decimals (with a relative
    slack of 1e-9 for the rounding of ``computed`` itself). ``printed`` may use an
    exponent (``"1.2e-3"``); the precision is that of its mantissa.

    Parameters
    ----------
    paper : str
        The paper's key: ``"dobrushin"`` [1]_, ``"falpha"`` [2]_, ``"envelopes"`` [3]_ or
        ``"robust-ldp"`` [4]_.
    item : str
        Where the claim is printed, e.g. ``"Example 2: η_TV(K1)"``.
    computed : float
        mechdesign's value (a non-finite value never matches).
    printed : str
        The number exactly as the paper prints it, e.g. ``"0.0752"``; text that is not a
        number raises :class:`~mechdesign.errors.InvalidInputError`.
    erratum : str, default ""
        Empty, or why the paper is wrong here and the correct value, with its source.
    kind : str, default ""
        The erratum's kind, one of :data:`ERRATUM_KINDS` (empty: :data:`PAPER_WRONG` when
        ``erratum`` is given); a kind without an erratum raises
        :class:`~mechdesign.errors.InvalidInputError`.

    Returns
    -------
    Check
        ``computed`` shown with two more decimals than ``printed``.

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Dobrushin Coefficients of
       Private Mechanisms Beyond Local Differential Privacy", 2026, arXiv:2601.09498.
    .. [2] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Bounds on the Privacy
       Amplification of Arbitrary Channels via the Contraction of f_α-Divergence",
       Allerton Conference 2025, arXiv:2501.11473.
    .. [3] S. Saeidian, C. Pinzón, C. Palamidessi, "Information Leakage Envelopes", 2026,
       arXiv:2605.21185.
    .. [4] M. Lopuhaä-Zwakenberg, J. Goseling, "Mechanisms for Robust Local Differential
       Privacy", Entropy 26(3):233, 2024, doi:10.3390/e26030233.
    """
    try:
        value = float(printed)
    except (TypeError, ValueError):
        raise InvalidInputError(
            f"printed must be a number as the paper prints it (e.g. '0.0752'), got {printed!r}"
        ) from None
    exponent = int(printed.lower().split("e")[1]) if "e" in printed.lower() else 0
    half_unit = 0.5 * 10.0 ** (exponent - _decimals(printed))
    matched = math.isfinite(computed) and abs(computed - value) <= half_unit * (1 + 1e-9) + 1e-12
    digits = _decimals(printed) + 2
    shown = f"{computed:.{digits}e}" if exponent else f"{computed:.{digits}f}"
    return Check(paper, item, printed, shown, matched, erratum, kind)


def check_claim(
    paper: str,
    item: str,
    claim: str,
    holds: bool,
    computed: str,
    *,
    erratum: str = "",
    kind: str = "",
) -> Check:
    """A statement of the paper (``claim``), whether it ``holds``, and the evidence.

    Parameters
    ----------
    paper : str
        The paper's key: ``"dobrushin"`` [1]_, ``"falpha"`` [2]_, ``"envelopes"`` [3]_ or
        ``"robust-ldp"`` [4]_.
    item : str
        Where the claim is printed, e.g. ``"Example 2: η_TV(K1)"``.
    claim : str
        The statement, as the paper makes it.
    holds : bool
        Whether mechdesign's computation confirms it.
    computed : str
        The evidence: what mechdesign computes, as text.
    erratum : str, default ""
        Empty, or why the paper is wrong here and the correct value, with its source.
    kind : str, default ""
        The erratum's kind, one of :data:`ERRATUM_KINDS` (empty: :data:`PAPER_WRONG` when
        ``erratum`` is given); a kind without an erratum raises
        :class:`~mechdesign.errors.InvalidInputError`.

    Returns
    -------
    Check

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Dobrushin Coefficients of
       Private Mechanisms Beyond Local Differential Privacy", 2026, arXiv:2601.09498.
    .. [2] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Bounds on the Privacy
       Amplification of Arbitrary Channels via the Contraction of f_α-Divergence",
       Allerton Conference 2025, arXiv:2501.11473.
    .. [3] S. Saeidian, C. Pinzón, C. Palamidessi, "Information Leakage Envelopes", 2026,
       arXiv:2605.21185.
    .. [4] M. Lopuhaä-Zwakenberg, J. Goseling, "Mechanisms for Robust Local Differential
       Privacy", Entropy 26(3):233, 2024, doi:10.3390/e26030233.
    """
    return Check(paper, item, claim, computed, bool(holds), erratum, kind)


@dataclass
class ItemResult:
    """What running an item produced: the files written and the checks made.

    Parameters
    ----------
    files : list of Path, default []
        The files written (in the output folder of the item).
    checks : list of Check, default []
        The claims checked.
    skipped : str, default ""
        Empty, or why the item did not run (e.g. the Adult data is missing).
    """

    files: list[Path] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)
    skipped: str = ""


@dataclass(frozen=True)
class Item:
    """A figure, table or group of examples of one paper.

    ``run(folder, settings)`` writes its files into ``folder`` (the paper's output
    folder, which exists) and returns an :class:`ItemResult`.

    Parameters
    ----------
    paper : str
        The paper's key: ``"dobrushin"`` [1]_, ``"falpha"`` [2]_, ``"envelopes"`` [3]_ or
        ``"robust-ldp"`` [4]_.
    name : str
        The item's name in the summary, e.g. ``"Fig. 1"``.
    run : callable
        ``run(folder, settings) -> ItemResult``, with ``folder`` a :class:`~pathlib.Path`
        and ``settings`` the :class:`Settings`.

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Dobrushin Coefficients of
       Private Mechanisms Beyond Local Differential Privacy", 2026, arXiv:2601.09498.
    .. [2] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Bounds on the Privacy
       Amplification of Arbitrary Channels via the Contraction of f_α-Divergence",
       Allerton Conference 2025, arXiv:2501.11473.
    .. [3] S. Saeidian, C. Pinzón, C. Palamidessi, "Information Leakage Envelopes", 2026,
       arXiv:2605.21185.
    .. [4] M. Lopuhaä-Zwakenberg, J. Goseling, "Mechanisms for Robust Local Differential
       Privacy", Entropy 26(3):233, 2024, doi:10.3390/e26030233.
    """

    paper: str
    name: str
    run: Callable[[Path, Settings], ItemResult]
