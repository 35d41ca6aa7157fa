"""``mechdesign reproduce``: the check arithmetic, the runner, the robust-LDP items and
the command line. The other papers' items are tested in tests/test_reproduce_*.py."""

from __future__ import annotations

import csv
import math

import numpy as np
import pytest

from mechdesign.cli import main
from mechdesign.errors import InvalidInputError
from mechdesign.reproduce import (
    PAPERS,
    Item,
    ItemResult,
    Settings,
    check_claim,
    check_printed,
    items,
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


# -- the runner ---------------------------------------------------------------------------


def test_every_paper_has_items_and_unknown_papers_are_refused(tmp_path):
    for paper in PAPERS:
        found = items(paper)
        assert found
        assert all(isinstance(item, Item) and item.paper == paper for item in found)
    with pytest.raises(InvalidInputError, match="papers must be among"):
        reproduce(["robust_ldp"], tmp_path)
    with pytest.raises(InvalidInputError, match="paper must be one of"):
        items("nope")


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


# -- the robust-LDP paper -----------------------------------------------------------------


@pytest.fixture(scope="module")
def quick_robust(tmp_path_factory):
    out = tmp_path_factory.mktemp("reproduce")
    return reproduce(["robust-ldp"], out, Settings(quick=True), progress=False)


def test_quick_robust_ldp_reproduction(quick_robust):
    report = quick_robust
    assert report.errors == []
    by_item = {check.item: check for check in report.checks}
    # Example 2's printed values and the other ledger entries are the known errata;
    # everything else printed matches.
    assert {c.item for c in report.checks if c.status == "erratum"} == {
        *(f"Example 2: {n}" for n in ("B_s1", "B_s2", "L_u1|s1", "L_u2|s1", "L_u1|s2",
                                      "L_u2|s2", "rad_s1", "rad_s2")),
        "Example 3: I_P*(X; Q_PolyOpt)",
        "Example 1, eq. (13): B = log(1 + F⁻¹_{χ²,3}(0.05)/100) as printed",
        "Example 2: 'Inserting … into Theorem 2'",
        "Example 2: the second 'rad_s1(F) = 2 max{0.3133 − 0.1923, …}'",
        "Example 2: 0.1620 P_{s1,u2} ≥ 0.83830 P_{s1,u1}, the coefficient",
        *(f"Example 2: F_U|s{s} {end} end" for s in (1, 2) for end in ("lower", "upper")),
        "Example 2: the vertices of F′",
        "Proposition 2, item 3: rad_s for small B_s",
        "Lemma A7, item 2: sup ‖P − P̂‖₁",
        "Example 5: d by the displayed arithmetic 2·max{0.6107, 0.3061} + ‖P̂_U|s1 − "
        "P̂_U|s2‖₁",
    }
    assert [c for c in report.checks if c.status == "differs"] == []
    assert by_item["Example 3: I_P̂(X; Q_PolyOpt)"].printed == "0.4228"
    assert by_item["Example 5: d"].status == "matches"
    # The ledger names each erratum's kind; its notes stay inside the repository.
    from mechdesign.reproduce import ERRATUM_KINDS

    kinds = {c.item: c.kind for c in report.checks if c.erratum}
    assert kinds["Proposition 2, item 3: rad_s for small B_s"] == ERRATUM_KINDS[3]
    assert kinds["Example 2: 'Inserting … into Theorem 2'"] == ERRATUM_KINDS[2]
    assert all(kind in ERRATUM_KINDS for kind in kinds.values())
    assert not [c for c in report.checks if "../" in c.erratum]
    ledger = report.summary().split("## Errata ledger")[1]
    assert "text extraction lost symbols" in ledger
    assert ledger.count("| robust-ldp |") == len(kinds)
    for path in report.files:
        assert path.is_file()
        assert path.stat().st_size > (10_000 if path.suffix == ".png" else 50), path
    names = {path.name for path in report.files}
    assert {"fig3_synthetic_nmi.png", "fig4_realised_epsilon.png", "table2_beta.md"} <= names
    if robust_ldp.find_adult() is not None:
        assert "fig2_adult_nmi.png" in names
        assert by_item["Sec. 8.1: Γ̂ for occupation × education"].status == "matches"
    summary = (report.out / "summary.md").read_text()
    assert "## robust-ldp" in summary
    assert "| erratum | Example 2: B_s1 | 0.3782 | 0.406733 |" in summary


def test_fig2_is_skipped_without_the_adult_data(tmp_path, monkeypatch):
    monkeypatch.setattr(robust_ldp, "find_adult", lambda given=None: None)
    result = robust_ldp.ITEMS[1].run(tmp_path, Settings(quick=True))
    assert result.skipped.startswith("the Adult CSV was not found")
    assert result.files == []


def test_find_adult_refuses_a_missing_given_path(tmp_path):
    with pytest.raises(FileNotFoundError, match="data: no file"):
        robust_ldp.find_adult(tmp_path / "none.csv")


def _adult_row(pair, eps, name, nmi):
    return {"pair": pair, "size": 10, "mechanism": name, "epsilon": eps, "nmi": nmi}


def test_adult_checks_detect_a_broken_claim():
    config = robust_ldp.Config(small_pairs=(("a", "b"),), large_pairs=())
    values = {  # ε → NMI per mechanism; at ε = 2 GRR beats SRR, against the paper
        0.5: {"GRR": 0.01, "SRR": 0.02, "IR": 0.05, "PolyOpt": 0.5, "NR": 0.52},
        2.0: {"GRR": 0.4, "SRR": 0.3, "IR": 0.35, "PolyOpt": 0.7, "NR": 0.71},
    }
    rows = [_adult_row("a x b", e, n, v) for e, d in values.items() for n, v in d.items()]
    checks = {c.printed: c for c in robust_ldp.adult_checks(rows, config)}
    assert checks["GRR performed the worst in all experiments"].status == "differs"
    assert "1 of 2" in checks["GRR performed the worst in all experiments"].computed
    ir_srr = next(c for p, c in checks.items() if p.startswith("a x b: IR outperformed SRR"))
    assert ir_srr.status == "differs"  # IR stays above SRR at the largest ε
    values[2.0].update(GRR=0.2, IR=0.25)
    rows = [_adult_row("a x b", e, n, v) for e, d in values.items() for n, v in d.items()]
    assert all(c.matched for c in robust_ldp.adult_checks(rows, config))


def test_bootstrap_interval_of_a_quantile():
    # n = 100 draws of U(0, 1): the 75 % quantile is about normal with sd
    # sqrt(q (1 − q) / n) = 0.0433, so a 99 % interval is about ± 2.58 sd = ± 0.11 wide
    # and covers 0.75 in most samples.
    rng = np.random.default_rng(7)
    intervals = [robust_ldp.bootstrap_interval(rng.uniform(size=100), 0.75, rng, draws=1000)
                 for _ in range(40)]
    half_widths = [(high - low) / 2 for low, high in intervals]
    assert np.mean(half_widths) == pytest.approx(2.576 * math.sqrt(0.75 * 0.25 / 100), rel=0.2)
    assert sum(low <= 0.75 <= high for low, high in intervals) >= 36
    # Infinite values give an infinite end, not NaN.
    values = np.concatenate([rng.uniform(size=80), np.full(20, np.inf)])
    low, high = robust_ldp.bootstrap_interval(values, 0.75, rng)
    assert math.isfinite(low)
    assert high == math.inf


# -- the command line ---------------------------------------------------------------------


def test_cli_reproduce_quick(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(robust_ldp, "find_adult", lambda given=None: None)
    out = tmp_path / "rep"
    assert main(["reproduce", "--paper", "robust-ldp", "--quick", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "robust-ldp Fig. 2" in printed.replace("  ", " ")
    assert "skipped (the Adult CSV was not found" in printed
    assert "0 differ" in printed
    assert (out / "summary.md").is_file()
    assert (out / "robust-ldp" / "fig3_synthetic_nmi.png").is_file()


def test_cli_reproduce_refuses_bad_arguments(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(["reproduce", "--paper", "nope"])
    assert main(["reproduce", "--paper", "robust-ldp", "--workers", "0",
                 "--out", str(tmp_path)]) == 2
    assert "workers must be a positive integer" in capsys.readouterr().err



@pytest.mark.parametrize(("name", "value"), [("workers", 1.5), ("workers", "2"),
                                             ("workers", True), ("reps", 0), ("reps", 2.0)])
def test_settings_refuse_a_count_that_is_not_a_positive_integer(name, value):
    from mechdesign.reproduce import Settings

    with pytest.raises(InvalidInputError, match=f"{name} must be a positive integer"):
        Settings(**{name: value})


def test_interrupted_reproduce_is_one_line_and_leaves_a_partial_summary(tmp_path):
    """Ctrl-C (SIGINT to the process group, as a terminal sends it) during the robust-LDP
    repetitions: exit 130, one line on stderr and no traceback, summary.md marked
    partial, and no file of an earlier run left under it."""
    import os
    import signal
    import sqlite3
    import subprocess
    import sys
    import time

    from mechdesign.reproduce.robust_ldp import STORE

    def stored() -> int:
        """Repetitions the run has finished (its sweep store, beside the paper folder)."""
        if not (out / STORE).exists():
            return 0
        try:
            with sqlite3.connect(out / STORE, timeout=5) as db:
                return db.execute("SELECT COUNT(*) FROM points").fetchone()[0]
        except sqlite3.OperationalError:  # the table does not exist yet
            return 0

    out = tmp_path / "reproduction"
    stale = out / "dobrushin" / "old_figure.png"
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"an older run")
    (out / "robust-ldp").mkdir()
    (out / "robust-ldp" / "old.csv").write_text("x\n")
    # 40 repetitions: once the first is stored, the other 39 are still to run.
    process = subprocess.Popen(
        [sys.executable, "-m", "mechdesign.cli", "reproduce", "--quick", "--paper",
         "robust-ldp", "--workers", "2", "--reps", "40", "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )
    # The event: a finished repetition in the store, so the run is inside the synthetic
    # repetitions with its worker processes running (a poll, with a watchdog deadline).
    deadline = time.monotonic() + 600
    while stored() < 1 and process.poll() is None:
        assert time.monotonic() < deadline, "no repetition finished"
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGINT)
    _, err = process.communicate(timeout=120)
    if process.returncode == 0:
        pytest.skip("the quick run finished before the interrupt")
    assert process.returncode == 130, err
    assert "Traceback" not in err
    assert "mechdesign: interrupted" in err
    summary = (out / "summary.md").read_text()
    assert "Interrupted (Ctrl-C): a partial run" in summary
    assert not stale.exists()
    assert not (out / "robust-ldp" / "old.csv").exists()
