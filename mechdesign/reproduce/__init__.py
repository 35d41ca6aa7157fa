"""Regenerate the figures, tables and printed numbers of the four papers.

``mechdesign reproduce [--paper NAME] [--out DIR]`` runs :func:`reproduce`: every item (a
figure, a table, the printed numbers of a group of examples) of the chosen papers writes
its files into ``DIR/<paper>/`` and returns checks, each a claim of the paper set against
mechdesign's value (:class:`Check`; statuses ``matches``, ``erratum`` and ``differs``).
The summary goes to ``DIR/summary.md`` and ``DIR/checks.csv``.

Papers (keys of :data:`PAPERS`):

``dobrushin``
    Grosse, Saeidian, Oechtering, Skoglund, *Dobrushin coefficients of private mechanisms
    beyond local differential privacy* [1]_.
``falpha``
    Grosse, Saeidian, Oechtering, Skoglund, *Bounds on the privacy amplification of
    arbitrary channels via the contraction of f_α-divergence* (Allerton 2025) [2]_.
``envelopes``
    Saeidian, Pinzón, Palamidessi, *Information leakage envelopes* [3]_.
``robust-ldp``
    Lopuhaä-Zwakenberg, Goseling, *Mechanisms for robust local differential privacy* [4]_
    (its 100 synthetic repetitions are most of a full run's time; ``--quick`` runs 3).

References
----------
.. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Dobrushin Coefficients of
   Private Mechanisms Beyond Local Differential Privacy", 2026, arXiv:2601.09498.
.. [2] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Bounds on the Privacy
   Amplification of Arbitrary Channels via the Contraction of f_α-Divergence", Allerton
   Conference 2025, arXiv:2501.11473.
.. [3] S. Saeidian, C. Pinzón, C. Palamidessi, "Information Leakage Envelopes", 2026,
   arXiv:2605.21185.
.. [4] M. Lopuhaä-Zwakenberg, J. Goseling, "Mechanisms for Robust Local Differential
   Privacy", Entropy 26(3):233, 2024, doi:10.3390/e26030233.
"""

from __future__ import annotations

import csv
import importlib
import shutil
import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tqdm import tqdm

from mechdesign.errors import InvalidInputError
from mechdesign.reproduce._core import (
    ERRATUM_KINDS,
    Check,
    Item,
    ItemResult,
    Settings,
    check_claim,
    check_printed,
)
from mechdesign.reproduce.paper_examples import PAPER_EXAMPLES, PaperExample

__all__ = [
    "ERRATUM_KINDS",
    "PAPERS",
    "PAPER_EXAMPLES",
    "Check",
    "Item",
    "ItemResult",
    "PaperExample",
    "Reproduction",
    "Settings",
    "check_claim",
    "check_printed",
    "items",
    "reproduce",
]

#: Paper key → (citation, module whose ``ITEMS`` reproduce it), in the order they run.
PAPERS: dict[str, tuple[str, str]] = {
    "dobrushin": (
        "Grosse, Saeidian, Oechtering, Skoglund: Dobrushin coefficients of private "
        "mechanisms beyond local differential privacy",
        "mechdesign.reproduce.dobrushin",
    ),
    "falpha": (
        "Grosse, Saeidian, Oechtering, Skoglund: Bounds on the privacy amplification of "
        "arbitrary channels via the contraction of f_α-divergence (Allerton 2025)",
        "mechdesign.reproduce.falpha",
    ),
    "envelopes": (
        "Saeidian, Pinzón, Palamidessi: Information leakage envelopes",
        "mechdesign.reproduce.envelopes",
    ),
    "robust-ldp": (
        "Lopuhaä-Zwakenberg, Goseling: Mechanisms for robust local differential privacy "
        "(Entropy 26(3):233, 2024)",
        "mechdesign.reproduce.robust_ldp",
    ),
}


def items(paper: str) -> tuple[Item, ...]:
    """The items that reproduce ``paper`` (a key of :data:`PAPERS`), in run order.

    Parameters
    ----------
    paper : str
        ``"dobrushin"`` [1]_, ``"falpha"`` [2]_, ``"envelopes"`` [3]_ or
        ``"robust-ldp"`` [4]_; any other key raises
        :class:`~mechdesign.errors.InvalidInputError`.

    Returns
    -------
    tuple of Item

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
    if paper not in PAPERS:
        raise InvalidInputError(f"paper must be one of {sorted(PAPERS)}, got {paper!r}")
    return importlib.import_module(PAPERS[paper][1]).ITEMS


@dataclass
class Reproduction:
    """What :func:`reproduce` did: per item its result, seconds and any error.

    Parameters
    ----------
    out : Path
        The output folder.
    runs : list of (Item, ItemResult, float, str), default []
        Each item run, its result, its wall-clock seconds, and the error (traceback's
        last line) if it raised, else ``""``.
    planned : int, default 0
        Items the run set out to do.
    interrupted : bool, default False
        Whether Ctrl-C stopped the run (the summary then says it is partial).
    """

    out: Path
    runs: list[tuple[Item, ItemResult, float, str]] = field(default_factory=list)
    planned: int = 0
    interrupted: bool = False

    @property
    def checks(self) -> list[Check]:
        """Every check of every item, in run order."""
        return [check for _, result, _, _ in self.runs for check in result.checks]

    @property
    def files(self) -> list[Path]:
        """Every file written by the items (the summary files not included)."""
        return [path for _, result, _, _ in self.runs for path in result.files]

    @property
    def errors(self) -> list[str]:
        """``"paper / item: error"`` for each item that raised."""
        return [f"{item.paper} / {item.name}: {error}" for item, _, _, error in self.runs
                if error]

    def counts(self) -> dict[str, int]:
        """How many checks have each status."""
        out = {"matches": 0, "erratum": 0, "differs": 0}
        for check in self.checks:
            out[check.status] += 1
        return out

    def summary(self) -> str:
        """The Markdown summary written to ``summary.md``."""
        counts = self.counts()
        lines = [
            "# mechdesign reproduce: summary",
            "",
        ]
        if self.interrupted:
            lines += [
                f"**Interrupted (Ctrl-C): a partial run, {len(self.runs)} of {self.planned} "
                "items done.** The items below are complete; the rest did not run.",
                "",
            ]
        lines += [
            f"{len(self.checks)} checks: {counts['matches']} match the papers, "
            f"{counts['erratum']} are known errata of the papers (the correct value is "
            f"given), {counts['differs']} differ without a known erratum. "
            f"{len(self.files)} files, {sum(s for *_, s, _ in self.runs):.0f} s.",
            "",
            "`matches`: agrees to the printed precision, or the stated claim holds. "
            "`erratum`: the paper is wrong here; the note gives the correct value and its "
            "source. `differs`: not reproduced, no known reason.",
        ]
        for paper in dict.fromkeys(item.paper for item, *_ in self.runs):
            lines += ["", f"## {paper}: {PAPERS[paper][0]}", ""]
            for item, result, seconds, error in self.runs:
                if item.paper != paper:
                    continue
                state = (f"FAILED: {error}" if error else
                         f"skipped: {result.skipped}" if result.skipped else f"{seconds:.1f} s")
                lines.append(f"### {item.name} ({state})")
                lines.append("")
                if result.files:
                    lines.append("Files: " + ", ".join(
                        f"`{path.relative_to(self.out)}`" for path in result.files))
                    lines.append("")
                if result.checks:
                    lines += ["| status | claim | printed | computed | note |",
                              "| --- | --- | --- | --- | --- |"]
                    lines += [
                        f"| {c.status} | {_cell(c.item)} | {_cell(c.printed)} | "
                        f"{_cell(c.computed)} | {_cell(c.erratum)} |" for c in result.checks
                    ]
                    lines.append("")
        lines += self.ledger()
        return "\n".join(lines) + "\n"

    def ledger(self) -> list[str]:
        """The errata ledger: every erratum once (Markdown lines)."""
        seen = {}
        for c in self.checks:
            if c.erratum and (c.paper, c.item, c.printed) not in seen:
                seen[c.paper, c.item, c.printed] = c
        lines = ["", "## Errata ledger", "",
                 f"{len(seen)} errata, each once. Kinds: " + "; ".join(
                     f"*{kind}*" for kind in ERRATUM_KINDS) + ".", ""]
        if not seen:
            return [*lines, "None found.", ""]
        lines += ["| paper | where | kind | printed | correct (computed) | note and evidence |",
                  "| --- | --- | --- | --- | --- | --- |"]
        lines += [f"| {c.paper} | {_cell(c.item)} | {c.kind} | {_cell(c.printed)} | "
                  f"{_cell(c.computed)} | {_cell(c.erratum)} |" for c in seen.values()]
        return [*lines, ""]

    def write(self) -> None:
        """Write ``summary.md`` and ``checks.csv`` into :attr:`out`."""
        (self.out / "summary.md").write_text(self.summary())
        with (self.out / "checks.csv").open("w", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(["paper", "item", "status", "printed", "computed", "erratum",
                             "kind"])
            for c in self.checks:
                writer.writerow([c.paper, c.item, c.status, c.printed, c.computed, c.erratum,
                                 c.kind])


def _clear_own_files(out: Path, papers: Sequence[str]) -> None:
    """Remove what an earlier run wrote into ``out`` (the folders ``out/<paper>/`` of every
    paper and the summary files), so that no file outlives the run that the new summary
    describes — an interrupted run included."""
    for name in ("summary.md", "checks.csv", "errors.log"):
        (out / name).unlink(missing_ok=True)
    for paper in papers:
        folder = out / paper
        if folder.is_dir():
            shutil.rmtree(folder)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def reproduce(
    papers: Sequence[str] | None = None,
    out: str | Path = "reproduction",
    settings: Settings | None = None,
    *,
    progress: bool = True,
) -> Reproduction:
    """Run every item of ``papers`` (default all, in :data:`PAPERS` order) into ``out``.

    Each paper's files go to ``out/<paper>/``; ``out/summary.md`` and ``out/checks.csv``
    are written at the end, and also when the run is interrupted (Ctrl-C), with the items
    done so far. An item that raises is recorded with its error (and the traceback in
    ``out/errors.log``) and the run goes on.

    Parameters
    ----------
    papers : sequence of str, optional
        Keys of :data:`PAPERS` (non-empty): ``"dobrushin"`` [1]_, ``"falpha"`` [2]_,
        ``"envelopes"`` [3]_ or ``"robust-ldp"`` [4]_.
    out : str or Path
        The output folder; created if missing. Its ``<paper>/`` folders (one per key of
        :data:`PAPERS`) and its summary files are reproduce's own: they are cleared
        first, so a summary never sits above files of an older run (Ctrl-C included: the
        summary then says the run is partial).
    settings : Settings, optional
        Grid sizes, repetitions, workers, data path; default ``Settings()``.
    progress : bool, default True
        Show a tqdm bar over the items.

    Returns
    -------
    Reproduction

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
    chosen = list(PAPERS) if papers is None else list(papers)
    unknown = [p for p in chosen if p not in PAPERS]
    if unknown or not chosen:
        raise InvalidInputError(
            f"papers must be among {sorted(PAPERS)}, got {chosen}"
        )
    settings = settings or Settings()
    out = Path(out)
    todo = [item for paper in chosen for item in items(paper)]
    report = Reproduction(out, planned=len(todo))
    log: list[str] = []
    _clear_own_files(out, list(PAPERS))
    try:
        with tqdm(todo, desc="reproduce", unit="item", disable=not progress) as bar:
            for item in bar:
                bar.set_postfix_str(f"{item.paper}: {item.name}")
                folder = out / item.paper
                folder.mkdir(parents=True, exist_ok=True)
                start = time.perf_counter()
                try:
                    result, error = item.run(folder, settings), ""
                except Exception as exc:  # recorded, reported, and the run goes on
                    result = ItemResult()
                    error = f"{type(exc).__name__}: {exc}"
                    log.append(f"== {item.paper} / {item.name}\n{traceback.format_exc()}")
                report.runs.append((item, result, time.perf_counter() - start, error))
    except KeyboardInterrupt:
        report.interrupted = True
        raise
    finally:
        out.mkdir(parents=True, exist_ok=True)
        report.write()
        errors_log = out / "errors.log"
        if log:
            errors_log.write_text("\n".join(log))
        elif errors_log.exists():  # from an earlier run into the same folder
            errors_log.unlink()
    return report
