"""``mechdesign reproduce`` for the Dobrushin and f_α papers: every item at the quick
settings, and the helpers that build their checks."""

from __future__ import annotations

import math

import numpy as np
import pytest

import mechdesign as md
from mechdesign.reproduce import dobrushin, falpha
from mechdesign.reproduce._core import Check, Item, ItemResult, Settings

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


# -- Dobrushin helpers ---------------------------------------------------------------------


def test_xi_printed_values():
    assert dobrushin.xi_printed(math.log(10 / 3), 0.05, 10) == pytest.approx(7 / 8, rel=1e-14)
    assert dobrushin.xi_printed(math.log(10 / 3), 0.1, 5) == pytest.approx(7 / 8, rel=1e-14)
    assert dobrushin.xi_printed(math.log(2 / (10 * 0.05)), 0.05, 10) == (
        pytest.approx(1.0, abs=1e-12)
    )
    assert dobrushin.xi_printed(0.0, 0.05, 10) == pytest.approx(0.0, abs=1e-12)
    for eps, c, n in ((0.3, 0.01, 4), (1.7, 0.2, 3), (3.0, 0.001, 10)):
        assert dobrushin.xi_printed(eps, c, n) == pytest.approx(
            md.dobrushin_bound(eps, c, n), rel=1e-12, abs=1e-15
        )


def test_example1_kernel_is_stochastic_and_tends_to_warner():
    k = dobrushin.example1_kernel(1.0, 0.1)
    np.testing.assert_allclose(k.sum(axis=1), 1.0, rtol=0, atol=1e-15)
    assert md.pml_capacity(k, 0.1) == pytest.approx(1.0, rel=1e-12, abs=0)
    np.testing.assert_allclose(
        dobrushin.example1_kernel(0.7, 1e-14), md.randomized_response(2, 0.7).matrix,
        rtol=0, atol=1e-12,
    )


def test_remark2_column_valid_and_invalid_q():
    eps, c, n = math.log(10 / 3), 0.05, 10
    p = dobrushin.remark2_column(eps, c, n, 5)
    assert p.shape == (10,)
    assert np.all((p >= 0) & (p <= 1))
    assert p[0] - p[-1] == pytest.approx(7 / 8, rel=1e-12, abs=0)
    assert dobrushin.remark2_column(eps, c, n, 1)[0] == pytest.approx(19 / 16, rel=1e-12, abs=0)


def test_example3_pair_has_tv_two_delta():
    p0, p1 = dobrushin.example3_pair(0.1)
    assert p0.sum() == pytest.approx(1, abs=1e-15)
    assert p1.sum() == pytest.approx(1, abs=1e-15)
    assert md.total_variation(p0, p1) == pytest.approx(0.2, rel=1e-14, abs=0)


def test_sample_pairs_lie_in_q_x_c_and_spread_tv():
    p, q = dobrushin.sample_pairs(10, 0.05, 500, np.random.default_rng(0))
    assert p.shape == q.shape == (500, 10)
    for m in (p, q):
        assert np.all(m >= 0.05 - 1e-15)
        np.testing.assert_allclose(m.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    tv = 0.5 * np.abs(p - q).sum(axis=1)
    assert tv.max() <= 0.5 + 1e-12
    assert tv.max() > 0.3
    assert tv.min() < 0.02


def test_last_crossing():
    t = np.array([0.0, 0.1, 0.2, 0.3])
    crossing = dobrushin.last_crossing(t, np.array([2, 2, 1, 1]), np.array([1, 1, 2, 2]))
    assert crossing == 0.1  # exact: a point of the grid t
    assert math.isnan(dobrushin.last_crossing(t, np.zeros(4), np.ones(4)))


def test_fig1_checks_detect_a_violated_bound():
    tv = np.array([0.1, 0.2])
    good = {"tv": tv, "divergence": np.array([0.01, 0.02]), "ours": np.array([0.1, 0.2]),
            "asoodeh": np.array([1.0, 1.0]), "duchi": np.array([1.0, 1.0])}
    bad = dict(good, divergence=np.array([0.01, 0.3]))
    assert all(c.matched for c in dobrushin.fig1_checks(good, good, 101)[:3])
    checks = dobrushin.fig1_checks(bad, bad, 101)
    assert not checks[0].matched
    assert not checks[-1].matched
    assert checks[0].status == "differs"


# -- f_α helpers ---------------------------------------------------------------------------


@pytest.mark.parametrize("alpha", [1.5, 2.0, 4.0, 10.0])
def test_g_alpha_printed_is_the_library_bound(alpha):
    t = np.linspace(0.0, 0.99, 199)
    printed = np.array([falpha.g_alpha_printed(x, alpha) for x in t])
    np.testing.assert_allclose(printed, md.measures.pinsker_f_alpha(t, alpha), rtol=1e-12,
                               atol=1e-15)


def test_g_alpha_inverse_printed_agrees_except_in_the_h1_gap():
    for alpha in (2.0, 3.0, 10.0):
        for s in np.linspace(0.0, 5.0, 51):
            assert falpha.g_alpha_inverse_printed(s, alpha) == pytest.approx(
                md.measures.pinsker_f_alpha_inverse(s, alpha), rel=1e-12, abs=1e-15
            )
    assert falpha.g_alpha_inverse_printed(0.6, 1.5) == pytest.approx(0.685568, abs=1e-6)
    assert md.measures.pinsker_f_alpha_inverse(0.6, 1.5) == pytest.approx(2 / 3, rel=1e-15)


def test_r_alpha_and_equation1_transcriptions():
    assert falpha.r_alpha_printed(2.0, 0.5, 2.0) == pytest.approx(
        md.measures.reverse_pinsker_f_alpha(2.0, 0.5, 2.0), rel=1e-12
    )
    p, q = [0.2, 0.8], [0.6, 0.4]
    assert falpha.renyi_from_f_alpha_printed(md.measures.f_alpha_divergence(p, q, 3.0), 3.0) == (
        pytest.approx(md.renyi_divergence(p, q, 3.0), rel=1e-12)
    )


def test_example12_gamma_and_channels():
    assert falpha.example12_gamma(math.log(10), 50) == pytest.approx(1.18, rel=1e-14)
    assert falpha.example12_gamma(math.log(6), 2) == pytest.approx(3.5, rel=1e-14)
    assert md.bounds.disjoint_support_pair(falpha.example12_channel(20, 2)) is not None
    circulant = falpha.example12_channel(5, 2).matrix
    assert falpha.is_k_singular(circulant, 2)
    np.testing.assert_allclose(circulant.sum(axis=0), 1.0, rtol=0, atol=1e-15)


def test_k_singular_examples_and_the_fano_plane():
    assert falpha.is_k_singular(falpha.EXAMPLE5_P, 3)
    assert falpha.is_k_singular(falpha.EXAMPLE5_Q, 2)
    assert not falpha.is_k_singular(falpha.EXAMPLE5_P, 2)
    np.testing.assert_array_equal(
        falpha.EXAMPLE5_P,
        md.reproduce.PAPER_EXAMPLES["falpha-example5-P"].mechanism.matrix,
    )
    fano = falpha.fano_plane_channel()
    assert falpha.is_k_singular(fano, 3)
    assert md.bounds.disjoint_support_pair(fano) is None


def test_alpha_ranges():
    alphas = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    assert falpha.alpha_ranges(alphas, np.array([1, 1, 0, 1, 0], bool)) == "1.00–2.00, 4.00"
    assert falpha.alpha_ranges(alphas, np.zeros(5, bool)) == "none"
    assert falpha.alpha_ranges(alphas, np.ones(5, bool)) == "1.00–5.00"


def test_fig2_checks_detect_a_bound_below_the_truth():
    alphas = np.array([2.0, 5.0, 10.0])
    panel = {
        "alpha": alphas,
        "bound": np.array([0.5, 0.6, 0.4]),
        "first": np.array([1.0, 1.0, 1.0]),
        "true": np.array([0.2, 0.3, 0.35]),
    }
    assert all(c.matched for c in falpha.fig2_checks("x", panel, "test"))
    broken = dict(panel, true=np.array([0.2, 0.7, 0.35]), first=np.array([0.1, 0.1, 0.1]))
    valid, amplifies, _ = falpha.fig2_checks("x", broken, "test")
    assert not valid.matched
    assert not amplifies.matched
    assert "none" in amplifies.computed
