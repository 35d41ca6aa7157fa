"""The envelope paper's reproduction (mechdesign.reproduce.envelopes) in quick mode."""

from __future__ import annotations

import pytest

from mechdesign.reproduce._core import ItemResult, Settings
from mechdesign.reproduce.envelopes import ITEMS, PAPER


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, ItemResult]:
    folder = tmp_path_factory.mktemp("envelopes")
    return {item.name: item.run(folder, Settings(quick=True)) for item in ITEMS}


def _check(result: ItemResult, item: str, printed: str):
    matches = [c for c in result.checks if c.item == item and c.printed == printed]
    assert len(matches) == 1, f"expected one check {item!r} / {printed!r}, got {len(matches)}"
    return matches[0]


def test_items_are_the_papers_figures_and_examples() -> None:
    assert [item.name for item in ITEMS] == ["Fig. 1", "Fig. 2", "Examples"]
    assert all(item.paper == PAPER == "envelopes" for item in ITEMS)


@pytest.mark.slow
def test_every_file_is_written_and_non_empty(results: dict[str, ItemResult]) -> None:
    names = {path.name for result in results.values() for path in result.files}
    assert names == {
        "fig1_cdf_quantiles.png",
        "fig1_cdf_quantiles.csv",
        "fig2_krr_envelopes.png",
        "fig2_krr_envelopes.csv",
    }
    for result in results.values():
        for path in result.files:
            assert path.is_file()
            assert path.stat().st_size > 0


def test_no_check_differs(results: dict[str, ItemResult]) -> None:
    for name, result in results.items():
        assert result.checks, name
        assert not result.skipped, name
        differs = [c for c in result.checks if c.status == "differs"]
        assert not differs, differs
        # The paper has no known erratum: every check that carries one must be an erratum.
        assert all(c.status == "erratum" for c in result.checks if c.erratum)
        assert all(c.paper == PAPER for c in result.checks)


def test_printed_numbers_of_example1_and_theorem1(results: dict[str, ItemResult]) -> None:
    examples = results["Examples"]
    for item, printed in (
        ("Example 1: ℓ(X → 1), ℓ(X → 2)", "log 4"),
        ("Example 1: ℓ(X → Z = 1), ℓ(X → Z = 2)", "log(6/5)"),
        ("Theorem 1 (i): ψ1(log(10/9), P_XY)", "13/180"),
        ("Theorem 1 (i): ψ1(log(10/9), P_XZ)", "2/27"),
        ("Sec. III: ψ2(log 3, P_XY)", "0.05"),
        ("Sec. III: ψ2(log(10/9), P_XY)", "13/90"),
        ("Example 2: ε̲_Y(0.1)", "log(10/9)"),
        ("Example 2: ε̄_Y(0.1)", "log 4"),
        ("Example 4: ℓ(X → {1, 3})", "log(1/0.55)"),
    ):
        assert _check(examples, item, printed).status == "matches"


def test_figure_claims_hold(results: dict[str, ItemResult]) -> None:
    fig1, fig2 = results["Fig. 1"], results["Fig. 2"]
    assert _check(fig1, "Fig. 1 / Example 2: line ε̄_Y(0.1)", "ε̄_Y(0.1) = log 4").matched
    for item, printed in (
        ("Fig. 2 / Theorem 5 (i)", "ε_c(δ) = log(α/q_1) for δ ∈ (0, q_1]"),
        (
            "Fig. 2 / Theorem 5 (ii)–(iii)",
            "h_δ(θ) ≤ ε_c(δ) ≤ min{log(kα/δ), log(α/q_1)} (the bounds bracket the envelope)",
        ),
        (
            "Fig. 2 / conjecture after Theorem 5",
            "under the prior condition (20), h_δ coincides with ε_c",
        ),
        (
            "Fig. 2 / Sec. V-B, ADP curve",
            "k-RR is (ε_DP(δ), δ)-DP with ε_DP(δ) = max{log((α − δ)/β), 0}",
        ),
    ):
        check = _check(fig2, item, printed)
        assert check.status == "matches", check


def test_csv_holds_every_series_of_fig2(results: dict[str, ItemResult]) -> None:
    path = next(p for p in results["Fig. 2"].files if p.suffix == ".csv")
    lines = path.read_text().splitlines()
    assert lines[0] == "panel,series,delta,epsilon"
    series = {tuple(line.split(",")[:2]) for line in lines[1:]}
    for panel in "abcd":
        for name in (
            "ub_log_alpha_over_q1",
            "ub_log_k_alpha_over_delta",
            "lb_h_delta",
            "binary_envelope",
            "dp_epsilon",
            "exact_envelope",
        ):
            assert (panel, name) in series
