"""``mechdesign reproduce``'s core (mechdesign.reproduce._core): the check arithmetic,
settings, and how the runner records an item that raises or a run that is interrupted.
"""

from __future__ import annotations

import csv
import math

import pytest

import mechdesign as md
from mechdesign.errors import InvalidInputError
from mechdesign.reproduce import (
    Item,
    ItemResult,
    Settings,
    check_claim,
    check_printed,
    reproduce,
    robust_ldp,
)

# -- checks -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("computed", "printed", "matched"),
    [
        (0.075244, "0.0752", True),
        (0.07525, "0.0752", True),  # exactly half a unit of the last printed digit
        (0.075251, "0.0752", False),
        (0.07515, "0.0752", True),
        (0.07514, "0.0752", False),
        (7 / 8, "0.875", True),
        (0.8751, "0.875", True),
        (0.8756, "0.875", False),
        (3.0, "3", True),
        (3.49, "3", True),
        (3.51, "3", False),
        (1.23e-3, "1.2e-3", True),
        (1.26e-3, "1.2e-3", False),
        (math.nan, "0.5", False),
        (math.inf, "0.5", False),
    ],
)
def test_check_printed_compares_at_the_printed_precision(computed, printed, matched):
    check = check_printed("p", "item", computed, printed)
    assert check.matched is matched
    assert check.printed == printed


def test_status_of_a_check():
    assert check_printed("p", "i", 0.5, "0.5").status == "matches"
    assert check_printed("p", "i", 0.6, "0.5", erratum="correct 0.6").status == "erratum"
    assert check_printed("p", "i", 0.6, "0.5").status == "differs"
    # An erratum that is not one (the value matches) is a difference to look at.
    assert check_printed("p", "i", 0.5, "0.5", erratum="correct 0.6").status == "differs"
    assert check_claim("p", "i", "claim", True, "evidence").status == "matches"
    assert check_claim("p", "i", "claim", False, "evidence").status == "differs"


def test_check_printed_refuses_a_printed_value_that_is_not_a_number():
    with pytest.raises(InvalidInputError, match="printed must be a number"):
        check_printed("p", "i", 0.5, "log 4")


def test_settings_refuse_bad_values():
    with pytest.raises(InvalidInputError, match="workers"):
        Settings(workers=0)
    with pytest.raises(InvalidInputError, match="reps"):
        Settings(reps=0)


@pytest.mark.parametrize(("name", "value"), [("workers", 1.5), ("workers", "2"),
                                             ("workers", True), ("reps", 0), ("reps", 2.0)])
def test_settings_refuse_a_count_that_is_not_a_positive_integer(name, value):
    # workers=1.5 was accepted and workers="2" raised a bare TypeError.
    with pytest.raises(InvalidInputError, match=f"{name} must be a positive integer"):
        Settings(**{name: value})


def _fake_paper(monkeypatch, runs):
    module = type("M", (), {"ITEMS": tuple(Item("robust-ldp", n, r) for n, r in runs)})
    monkeypatch.setattr("mechdesign.reproduce.importlib.import_module", lambda name: module)


def test_an_item_that_raises_is_recorded_and_the_run_goes_on(tmp_path, monkeypatch):
    def broken(folder, settings):
        raise RuntimeError("boom")

    def fine(folder, settings):
        path = folder / "a.csv"
        path.write_text("x\n1\n")
        return ItemResult(files=[path], checks=[check_claim("robust-ldp", "A", "c", True, "e")])

    _fake_paper(monkeypatch, [("broken", broken), ("fine", fine)])
    report = reproduce(["robust-ldp"], tmp_path, progress=False)
    assert report.errors == ["robust-ldp / broken: RuntimeError: boom"]
    assert report.counts() == {"matches": 1, "erratum": 0, "differs": 0}
    assert "RuntimeError: boom" in (tmp_path / "errors.log").read_text()
    summary = (tmp_path / "summary.md").read_text()
    assert "FAILED: RuntimeError: boom" in summary
    assert "`robust-ldp/a.csv`" in summary


def test_an_interrupted_run_still_writes_its_summary(tmp_path, monkeypatch):
    def done(folder, settings):
        return ItemResult(checks=[check_printed("robust-ldp", "first", 0.5, "0.5")])

    def interrupted(folder, settings):
        raise KeyboardInterrupt

    _fake_paper(monkeypatch, [("done", done), ("interrupted", interrupted)])
    (tmp_path / "errors.log").write_text("stale")
    with pytest.raises(KeyboardInterrupt):
        reproduce(["robust-ldp"], tmp_path, progress=False)
    rows = list(csv.DictReader((tmp_path / "checks.csv").open()))
    assert [(r["item"], r["status"]) for r in rows] == [("first", "matches")]
    assert not (tmp_path / "errors.log").exists()


def test_fig2_reads_the_adult_data_shipped_with_the_package(tmp_path):
    # Fig. 2 is never skipped: without --data it reads the package's copy; a --data
    # that does not exist is an error naming the file, not a silent fallback.
    assert robust_ldp.find_adult() == md.notions.adult_csv()
    assert robust_ldp.find_adult(None).is_file()
    with pytest.raises(FileNotFoundError, match=r"nope\.csv"):
        robust_ldp.find_adult(tmp_path / "nope.csv")
