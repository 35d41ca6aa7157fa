"""``mechdesign reproduce`` (mechdesign.reproduce): the papers and their items, the command
line, and every item of the Dobrushin and f_α papers at the quick settings.
"""

from __future__ import annotations

import pytest

from mechdesign.errors import InvalidInputError
from mechdesign.reproduce import (
    PAPERS,
    Item,
    ItemResult,
    Settings,
    dobrushin,
    falpha,
    items,
    reproduce,
)
from mechdesign.reproduce._core import Check

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


# -- the command line ---------------------------------------------------------------------


@pytest.mark.slow
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

ITEMS: tuple[Item, ...] = dobrushin.ITEMS + falpha.ITEMS
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> dict[tuple[str, str], tuple[ItemResult, object]]:
    """Every item of both papers, run once at the quick settings into its paper's folder."""
    out = {}
    for item in ITEMS:
        folder = tmp_path_factory.getbasetemp() / item.paper
        folder.mkdir(exist_ok=True)
        out[item.paper, item.name] = (item.run(folder, Settings(quick=True)), folder)
    return out


def _checks(results) -> list[Check]:
    return [check for result, _ in results.values() for check in result.checks]


def _find(results, paper: str, item_prefix: str) -> list[Check]:
    return [c for c in _checks(results) if c.paper == paper and c.item.startswith(item_prefix)]


# -- the items -----------------------------------------------------------------------------


def test_modules_declare_their_items():
    assert dobrushin.__doc__.strip()
    assert falpha.__doc__.strip()
    assert [i.name for i in dobrushin.ITEMS] == ["Theorem 1 (Ξ curve)", "Examples", "Fig. 1"]
    assert [i.name for i in falpha.ITEMS] == [
        "Fig. 1", "Fig. 2", "Examples", "Eq. (1), Theorem 6, Remarks 7 and 10",
    ]
    assert {i.paper for i in dobrushin.ITEMS} == {"dobrushin"}
    assert {i.paper for i in falpha.ITEMS} == {"falpha"}


@pytest.mark.parametrize("item", ITEMS, ids=[f"{i.paper}:{i.name}" for i in ITEMS])
@pytest.mark.slow
def test_item_writes_non_empty_png_and_csv_files(results, item):
    result, folder = results[item.paper, item.name]
    assert not result.skipped
    assert result.checks, "every item makes checks"
    for path in result.files:
        assert path.parent == folder
        assert path.name == path.name.lower()
        assert path.suffix in (".png", ".csv")
        assert path.is_file()
        assert path.stat().st_size > 0
        if path.suffix == ".png":
            assert path.read_bytes()[:8] == PNG_SIGNATURE
        else:
            header, first = path.read_text(encoding="utf-8").splitlines()[:2]
            assert len(header.split(",")) == len(first.split(","))


def test_the_expected_files_are_written(results):
    names = {p.name for result, _ in results.values() for p in result.files}
    assert names >= {
        "theorem1_xi.png", "theorem1_xi.csv", "fig1_corollaries.png", "fig1_corollaries.csv",
        "fig1_joint_range.png", "fig1_joint_range.csv", "fig2_example12.png",
        "fig2_example12.csv", "remark10_inverse.png",
    }


def test_no_check_differs(results):
    differs = [c for c in _checks(results) if c.status == "differs"]
    assert not differs, differs


def test_checks_with_an_erratum_have_status_erratum(results):
    with_erratum = [c for c in _checks(results) if c.erratum]
    assert all(c.status == "erratum" for c in with_erratum)
    assert all("[" in c.erratum and "../" not in c.erratum for c in with_erratum)
    items = {(c.paper, c.item) for c in with_erratum}
    assert items == {
        ("dobrushin", "Remark 2: range of q, N = 10, c = 0.05, ε = log 10/3"),
        ("dobrushin", "Example 2, html (43): K1[5, 0]"),
        ("dobrushin", "Example 3: TV(P_θ0 ‖ P_θ1), δ = 0.05"),
        ("dobrushin", "Example 3: R* bound, n = 10, δ = 0.05, ε = 1, c = 0.05"),
        ("dobrushin", "Example 3: the range of δ"),
        ("dobrushin", "Proof of Theorem 2, eq. (22) (html copy): N = 6, c = 0.1"),
        ("falpha", "Fig. 1: α = 4, Appendix A, t = 1/2"),
        ("falpha", "Example 5: k-singular channels with k ≤ N/2"),
        ("falpha", "Eq. (1), α = 1/2: P = (0.2, 0.8), Q = (0.6, 0.4)"),
        ("falpha", "Remark 10: h_1(α), α = 1.5"),
    }


def test_example2_eta_tv_of_k1_is_seven_eighths(results):
    (check,) = _find(results, "dobrushin", "Example 2: η_TV(K1)")
    assert check.status == "matches"
    assert check.printed == "0.875"
    assert float(check.computed) == pytest.approx(0.875, rel=1e-12, abs=0)
    (lp,) = _find(results, "dobrushin", "Example 2: Ξ(log 10/3, 0.05)")
    assert lp.status == "matches"


def test_specific_claims_are_present_and_matched(results):
    for paper, prefix, count in (
        ("dobrushin", "Theorem 1: η_TV(ε, c) = Ξ(ε, c)", 1),
        ("dobrushin", "Example 2: K1 is log(15)-LDP", 1),
        ("dobrushin", "Example 2: K2 has no finite LDP guarantee", 1),
        ("dobrushin", "Remark 1: c → 0", 3),
        ("dobrushin", "Remark 1: c = 1/N", 2),
        ("dobrushin", "Fig. 1(a)", 4),
        ("dobrushin", "Fig. 1(b)", 1),
        ("falpha", "Example 12, Fig. 2(", 4),
        ("falpha", "Fig. 2(d)", 3),
        ("falpha", "Remark 10: h_2(α)", 1),
    ):
        found = _find(results, paper, prefix)
        assert len(found) == count, (prefix, found)
        assert all(c.status == "matches" for c in found), found
    (gamma_d,) = _find(results, "falpha", "Example 12, Fig. 2(d)")
    assert gamma_d.printed.endswith("= 1.18")


def test_printed_side_comes_from_the_paper_not_from_the_library(results):
    # The erratum checks show the printed value, which differs from the computed one.
    (h1,) = _find(results, "falpha", "Remark 10: h_1(α)")
    assert "0.6667" in h1.printed
    assert "0.5596" in h1.computed
    (eq1,) = _find(results, "falpha", "Eq. (1), α = 1/2")
    assert "-0.1685" in eq1.printed
    assert "0.1840" in eq1.computed
