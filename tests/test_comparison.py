"""md.compare and `mechdesign compare` (issue 21): the designed optima beside the deployed
protocols, one tidy table; its arguments refused by name.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import mechdesign as md
from mechdesign.comparison import COMPARE_COLUMNS
from mechdesign.errors import InvalidInputError, TooLargeError
from tests.helpers import P3, ROOT


@pytest.mark.parametrize("notion", [md.LDP(1.0), md.LDP(3.0), md.PML(1.0, c=0.05)])
def test_the_table_for_each_notion(notion):
    prior = md.comparison.zipf_prior(6)
    table = md.compare(notion, prior, n=500)
    assert tuple(table.columns) == COMPARE_COLUMNS
    assert list(table["kind"]) == ["designed"] * 2 + ["protocol"] * 6
    designed = table[table["kind"] == "designed"].set_index("mechanism")
    everyone = table[table["kind"] == "protocol"]
    # OLH at ε = 3 has 21^4 outputs: an implicit row (its exact error, no kernel)
    implicit = everyone["note"].str.contains("implicit")
    assert np.all(np.isfinite(everyone.loc[implicit, "mse"]))
    protocols = everyone[~implicit]
    best_mi = designed.loc["optimal for mutual information", "mutual_information"]
    best_bayes = designed.loc["optimal for Bayes vulnerability", "bayes_vulnerability"]
    # Every ε-LDP protocol is in the notion's set, so neither optimum can be beaten.
    assert (protocols["mutual_information"] <= best_mi + 1e-9).all()
    assert (protocols["bayes_vulnerability"] <= best_bayes + 1e-9).all()
    audited = table["privacy_level"].notna()  # not the implicit rows
    assert (table.loc[audited, "privacy_level"] <= notion.epsilon + 1e-9).all()
    np.testing.assert_allclose(protocols["ldp_level"], notion.epsilon, atol=1e-12)
    # Each entry is the library's measure of the row's mechanism.
    grr = md.mechanisms.generalized_randomized_response(6, notion.epsilon)
    row = table.set_index("mechanism").loc["GRR"]
    assert row["mse"] == pytest.approx(md.estimation_mse(grr, prior, 500), rel=1e-12)
    assert row["mutual_information"] == pytest.approx(md.mutual_information(grr, prior))


def test_a_protocol_too_large_is_a_row_with_a_note():
    table = md.compare(md.LDP(1.0), np.full(17, 1 / 17), utilities=())
    rows = table.set_index("mechanism")
    # 2^17 outputs: the implicit oracle's row, its standard estimator's exact error
    # (Wang et al.'s closed form, written here) and no measure that needs the kernel
    k, n = 17, 1000
    for name, (p, q) in {"OUE": (0.5, 1 / (math.e + 1)),
                         "SUE (RAPPOR)": (math.exp(0.5) / (math.exp(0.5) + 1),
                                          1 / (math.exp(0.5) + 1))}.items():
        assert "implicit" in rows.loc[name, "note"]
        assert math.isnan(rows.loc[name, "mutual_information"])
        assert rows.loc[name, "mse_blue"] < rows.loc[name, "mse"]  # unary's BLUE: an integral
        closed = (k * q * (1 - q) / (p - q) ** 2 + (1 - p - q) / (p - q)) / n
        assert rows.loc[name, "mse"] == pytest.approx(closed, rel=1e-12)
        assert rows.loc[name, "outputs"] == 2.0**k
    assert rows.loc["GRR", "mutual_information"] > 0


def test_given_mechanisms_and_refusals():
    prior = np.full(3, 1 / 3)
    table = md.compare(md.LDP(math.log(2)), prior, utilities=["bayes"],
                       mechanisms={"k-RR": md.randomized_response(3, math.log(2)),
                                   "identity": np.eye(3)})
    assert list(table["mechanism"]) == ["optimal for Bayes vulnerability", "k-RR", "identity"]
    assert table.loc[2, "ldp_level"] == math.inf
    assert table.loc[2, "bayes_vulnerability"] == pytest.approx(1.0)
    assert table.loc[1, "bayes_vulnerability"] == pytest.approx(0.5)  # 2/(2 + 2)
    with pytest.raises(InvalidInputError, match="mechanisms"):
        md.compare(md.LDP(1.0), prior, mechanisms={"wrong": np.eye(2)})
    with pytest.raises(InvalidInputError, match="mechanisms"):
        md.compare(md.LDP(1.0), prior, mechanisms=[np.eye(3)])
    with pytest.raises(InvalidInputError, match="epsilon"):
        md.compare(md.LDP(0.0), prior)
    with pytest.raises(InvalidInputError, match="n"):
        md.compare(md.LDP(1.0), prior, n=0)


@pytest.mark.slow
def test_protocols_benchmark_runs_on_its_smallest_setting(tmp_path):
    import subprocess
    import sys

    import pandas as pd

    script = ROOT / "benchmarks" / "protocols.py"
    done = subprocess.run(
        [sys.executable, str(script), "--k", "4", "--epsilon", "1", "2", "--priors",
         "uniform", "zipf", "--out", str(tmp_path), "--table", str(tmp_path / "protocols.md")],
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert done.returncode == 0, done.stderr
    ratios = pd.read_csv(tmp_path / "protocols_ratios.csv")
    assert len(ratios) == 8
    # the markdown table: the summary over the same ratios, and one row each
    table = (tmp_path / "protocols.md").read_text(encoding="utf-8")
    large = int((ratios["ratio"] > 1.10).sum())
    assert f"by more than 10 % in {large} of 8 comparisons" in table
    assert sum(line.startswith("| 4 | ") for line in table.splitlines()) == 8
    assert (ratios["ratio"] >= 1 - 1e-9).all()  # the optimum is never beaten
    # k-RR is Bayes-optimal under the uniform prior.
    uniform_bayes = ratios[(ratios["prior"] == "uniform")
                           & (ratios["measure"] == "bayes_vulnerability")]
    np.testing.assert_allclose(uniform_bayes["ratio"], 1.0, atol=1e-9)
    assert (tmp_path / "protocols.png").is_file()


def test_compare_at_an_extreme_epsilon():
    """At ε = 700 the designed optima and GRR reveal the input (I = H(P), V = 1); unary
    encoding (entries e^{−700k} underflow) and OLH (e^700 buckets) are rows with a note."""
    prior = md.comparison.zipf_prior(4)
    table = md.compare(md.LDP(700.0), prior).set_index("mechanism")
    entropy = float(-(prior * np.log(prior)).sum())
    assert table.loc["GRR", "mutual_information"] == pytest.approx(entropy, rel=1e-12)
    assert table.loc["optimal for Bayes vulnerability", "bayes_vulnerability"] == (
        pytest.approx(1.0, rel=1e-12))
    for name in ("OUE", "SUE (RAPPOR)", "OLH"):
        assert table.loc[name, "note"].startswith("skipped")
    sue = md.unary_encoding(4, 300.0, optimized=False)
    assert md.ldp_level(sue) == pytest.approx(300.0, rel=1e-12)


def test_compare_adds_the_blue_error_and_the_estimation_optimum():
    prior = md.comparison.zipf_prior(6)
    table = md.compare(md.LDP(1.0), prior, utilities=("mse",), workload="prefix", n=100)
    designed = table.iloc[0]
    assert designed["kind"] == "designed"
    for row in table.itertuples():
        if np.isfinite(row.mse_blue):
            assert row.mse_blue <= row.mse * (1 + 1e-9)  # Gauss–Markov
            assert row.mse_blue >= designed["mse_blue"] * (1 - 1e-9)  # the certified optimum
    direct = md.design(md.LDP(1.0), prior, utility=md.EstimationError("prefix"))
    assert designed["mse_blue"] == pytest.approx(direct.mse(100), rel=1e-9)


def test_compare_at_forty_and_ten_thousand_inputs_gives_every_protocol_an_exact_error():
    # k = 40: the protocols past the dense cap are implicit rows with the closed forms
    # (checked against the dense kernels in tests/mechanisms/test_oracles.py); k = 10⁴: every row
    # implicit, no designed rows asked for.
    from mechdesign.mechanisms.oracles import implicit_protocols

    for k in (40, 10_000):
        prior = md.comparison.zipf_prior(k)
        table = md.compare(md.LDP(2.0), prior, utilities=(), n=1000).set_index("mechanism")
        assert np.all(np.isfinite(table["mse"]))
        for name, build in implicit_protocols(k, 2.0).items():
            assert table.loc[name, "mse"] == pytest.approx(build().mse(prior, 1000), rel=1e-12)
        assert math.isfinite(table.loc["OUE", "mse_blue"]) or k > 4096
        assert table.loc["OUE", "mse_blue"] < table.loc["OUE", "mse"] or k > 4096


# -- hardening: bad input by name, extreme but valid input ----------------------------


def test_compare_names_its_arguments():
    rr = {"rr": md.randomized_response(3, 1.0)}
    for utilities in (None, 1.0, "bayes", ("abc",), (1,)):
        with pytest.raises(InvalidInputError, match="utilities"):
            md.compare(md.LDP(1.0), P3, mechanisms=rr, utilities=utilities, n=100)
    with pytest.raises(InvalidInputError, match="mechanisms"):
        md.compare(md.LDP(1.0), P3, mechanisms={"a": "abc"}, utilities=(), n=100)
    with pytest.raises(InvalidInputError, match="notion"):
        md.compare(md.LDP(0.0), P3, mechanisms=rr, utilities=(), n=100)
    with pytest.raises(TooLargeError, match=r"\bk\b"):
        md.comparison.zipf_prior(10**12)


@pytest.mark.parametrize("epsilon", ["1", math.nan, -1.0, None])
def test_every_deployed_protocol_builder_refuses_a_bad_epsilon_by_name(epsilon):
    # OLH compared ε with its bucket cap before validating it: TypeError on a string.
    from mechdesign.comparison import deployed_protocols

    builders = deployed_protocols(5, epsilon)
    for build in builders.values():
        with pytest.raises(InvalidInputError, match="epsilon"):
            build()


def test_compare_estimation_row_is_time_limited_and_carries_its_bracket():
    # k = 40 at the ε a shuffler allows: the designed row stops at its limit with a
    # certified bracket in its note; it starts from k-RR's columns, so it is never worse
    # than GRR, and its lower bound is below every protocol's error with the BLUE.
    k, n = 40, 1000
    prior = md.comparison.zipf_prior(k)
    table = md.comparison.compare(md.LDP(7.761092185974121), prior, utilities=("mse",),
                                  n=n, time_limit=2.0)
    designed = table[table["kind"] == "designed"].iloc[0]
    assert "certified bracket" in designed["note"]
    # the note prints 6 significant digits: compare to that precision
    lower = float(designed["note"].split("certified bracket [")[1].split(",")[0])
    protocols = table[table["kind"] == "protocol"]["mse_blue"].dropna()
    assert lower / n <= protocols.min() * (1 + 1e-5)
    grr = table[table["mechanism"].str.startswith("GRR")]["mse_blue"].iloc[0]
    assert designed["mse_blue"] <= grr * (1 + 1e-9)
    with pytest.raises(md.errors.InvalidInputError, match="time_limit"):
        md.comparison.compare(md.LDP(1.0), prior, utilities=(), time_limit=-1.0)
