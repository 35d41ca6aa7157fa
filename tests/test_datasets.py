"""Tests of the categorical-pair reader (robust-LDP experiments, Sec. 8.1)."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest

import mechdesign as md
from mechdesign.datasets import categorical_pair, empirical_pair

ADULT = Path(__file__).resolve().parents[2] / "shared" / "data" / "adult.csv"


@pytest.mark.skipif(not ADULT.is_file(), reason="the shared Adult data are not present")
def test_adult_sex_by_race_counts_match_a_plain_csv_count():
    pair = categorical_pair(ADULT, "sex", "race")
    assert pair.shape == (2, 5)
    assert pair.n_samples == 32_561
    assert pair.s_labels == ("Male", "Female")
    assert pair.u_labels[0] == "White"
    with ADULT.open() as handle:
        rows = list(csv.DictReader(handle, skipinitialspace=True))
    expected = sum(1 for r in rows if r["sex"] == "Female" and r["race"] == "Black")
    assert pair.counts[1, pair.u_labels.index("Black")] == expected
    assert pair.p_hat.sum() == pytest.approx(1.0, abs=1e-15)
    ball = pair.ball(0.05)
    assert ball.radius == pytest.approx(md.chi2_radius(32_561, 10, 0.05), rel=1e-15)


def test_empirical_pair_orders_labels_by_frequency():
    pair = empirical_pair(["a", "b", "b", "c", "b", "a"], ["x", "y", "x", "x", "y", "y"])
    assert pair.s_labels == ("b", "a", "c")
    assert pair.u_labels == ("x", "y")
    np.testing.assert_array_equal(pair.counts, [[1, 2], [1, 1], [1, 0]])


def test_bad_data_is_refused(tmp_path):
    ragged = tmp_path / "ragged.csv"
    ragged.write_text("a, b\n1, 2\n3\n")
    with pytest.raises(md.InvalidInputError, match="line 3"):
        categorical_pair(ragged, "a", "b")
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    with pytest.raises(md.InvalidInputError, match="empty"):
        categorical_pair(empty, "a", "b")
    with pytest.raises(md.InvalidInputError, match="same length"):
        empirical_pair(["a"], ["x", "y"])
    with pytest.raises(md.InvalidInputError, match="no records"):
        empirical_pair([], [])
    with pytest.raises(md.InvalidInputError, match="alpha must be 2"):
        empirical_pair(["a", "b"], ["x", "y"]).ball(0.05, alpha=1.0)
