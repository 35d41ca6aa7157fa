"""Tests of the categorical-pair reader (robust-LDP experiments, Sec. 8.1), and its
refusals by argument name.
"""

from __future__ import annotations

import csv
import gzip
import math

import numpy as np
import pytest

import mechdesign as md
from mechdesign.errors import InvalidInputError
from mechdesign.notions.datasets import adult_csv, categorical_pair, empirical_pair
from tests.helpers import ROOT

ADULT = adult_csv()


def test_the_adult_data_ship_with_the_package():
    assert ADULT.is_file()
    assert ADULT.parent == ROOT / "mechdesign" / "data"
    assert "CC BY 4.0" in (ADULT.parent / "README.md").read_text(encoding="utf-8")
    with gzip.open(ADULT, "rt", encoding="utf-8") as handle:
        lines = handle.read().splitlines()
    assert lines[0].startswith("age, workclass, fnlwgt, education, education-num")
    assert sum(1 for line in lines[1:] if line.strip()) == 32_561
    assert all(line.count(", ") == 14 for line in lines[1:] if line.strip())


def test_adult_sex_by_race_counts_match_a_plain_csv_count():
    pair = categorical_pair(ADULT, "sex", "race")
    assert pair.shape == (2, 5)
    assert pair.n_samples == 32_561
    assert pair.s_labels == ("Male", "Female")
    assert pair.u_labels[0] == "White"
    with gzip.open(ADULT, "rt", newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, skipinitialspace=True))
    expected = sum(1 for r in rows if r["sex"] == "Female" and r["race"] == "Black")
    assert pair.counts[1, pair.u_labels.index("Black")] == expected
    assert pair.p_hat.sum() == pytest.approx(1.0, abs=1e-15)
    ball = pair.ball(0.05)
    assert ball.radius == pytest.approx(md.chi2_radius(32_561, 10, 0.05), rel=1e-15)


@pytest.mark.parametrize("k", [1, 7, 40])
def test_top_cells_are_the_most_frequent_pairs_of_a_plain_count(k):
    from collections import Counter

    with gzip.open(ADULT, "rt", newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, skipinitialspace=True))
    counted = Counter((r["occupation"], r["education"]) for r in rows)
    top = np.array([c for _, c in counted.most_common(k)], dtype=float)
    prior = categorical_pair(ADULT, "occupation", "education").top_cells(k)
    np.testing.assert_allclose(prior, top / top.sum(), rtol=1e-15, atol=0)


def test_top_cells_refuses_more_cells_than_hold_a_record():
    pair = empirical_pair(["a", "b", "b"], ["x", "y", "y"])  # 2 of 4 cells occupied
    np.testing.assert_allclose(pair.top_cells(2), [2 / 3, 1 / 3], rtol=1e-15)
    with pytest.raises(md.InvalidInputError, match="k must be at most the 2 cells"):
        pair.top_cells(3)
    with pytest.raises(md.InvalidInputError, match="k"):
        pair.top_cells(0)


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


# -- issue 36, item 10: counts and labels are validated, never coerced ---------------------------


def _pair(counts, s_labels=("a", "b"), u_labels=("x", "y"), sensitive="S", other="U"):
    return md.notions.CategoricalPair(counts, s_labels, u_labels, sensitive, other)


@pytest.mark.parametrize(
    ("counts", "fragment"),
    [
        pytest.param([[2.5, 1], [1, 2]], r"counts must hold integers.*is 2\.5", id="fractional"),
        pytest.param([[2, 1], [1, 2.5]], r"counts must hold integers.*is 2\.5", id="late 2.5"),
        pytest.param([[2.0, 1.0], [1.0, 2.0]], r"counts must hold integers.*astype\(int\)",
                     id="integral floats"),
        pytest.param([[2, 1], [1, math.nan]], "counts must hold integers", id="nan"),
        pytest.param([[2, 1], [1, "2"]], "counts must hold integers", id="text"),
        pytest.param([[True, False], [False, True]], "counts must hold integers", id="bools"),
        pytest.param([2, 1, 1, 2], "counts must be a non-empty 2-D array", id="1-D"),
        pytest.param([[[2, 1], [1, 2]]], "counts must be a non-empty 2-D array", id="3-D"),
        pytest.param(np.zeros((2, 0), dtype=int), "counts must be a non-empty 2-D", id="empty"),
        pytest.param([[2, 1], [1]], "counts must be a 2-D array", id="ragged"),
        pytest.param([[2, -1], [1, 2]], r"counts must be non-negative; row 1, column 2",
                     id="negative"),
        pytest.param([[0, 0], [0, 0]], "counts must hold at least one record", id="all zero"),
    ],
)
def test_categorical_pair_counts_must_be_a_2d_array_of_non_negative_integers(counts, fragment):
    with pytest.raises(md.InvalidInputError, match=fragment):
        _pair(counts)


def test_categorical_pair_accepts_integer_counts_of_any_integer_type():
    """Python ints, numpy int and uint arrays all give the same read-only int64 copy, and
    p̂ is counts / total (computed by hand)."""
    expected = [[3, 1], [0, 4]]
    for counts in (expected, np.array(expected, dtype=np.uint8),
                   np.array(expected, dtype=object), [[np.int16(3), 1], [0, np.int64(4)]]):
        pair = _pair(counts)
        assert pair.counts.dtype == np.int64
        assert not pair.counts.flags.writeable
        np.testing.assert_array_equal(pair.counts, expected)
        assert pair.n_samples == 8
        np.testing.assert_allclose(pair.p_hat, [3 / 8, 1 / 8, 0.0, 4 / 8], rtol=1e-15, atol=0)
    mine = np.array(expected)
    pair = _pair(mine)
    mine[0, 0] = 100  # the pair keeps its own copy
    assert pair.counts[0, 0] == 3


def test_categorical_pair_too_many_records_is_too_large():
    with pytest.raises(md.TooLargeError, match="counts"):
        _pair([[2**62, 2**62], [2**62, 1]])


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"s_labels": ("a",)}, "s_labels must be 2 category names"),
        ({"u_labels": ("x", "y", "z")}, "u_labels must be 2 category names"),
        ({"s_labels": ("a", 1)}, "s_labels must be 2 category names"),
        ({"s_labels": ("a", "a")}, "s_labels must be distinct"),
        ({"u_labels": "xy"}, "u_labels must be a sequence"),
        ({"sensitive": 1}, "sensitive must be a column name"),
        ({"other": None}, "other must be a column name"),
    ],
)
def test_categorical_pair_labels_and_names_are_checked(kwargs, fragment):
    with pytest.raises(md.InvalidInputError, match=fragment):
        _pair([[1, 2], [3, 4]], **kwargs)


@pytest.mark.parametrize(
    ("label", "kind"),
    [(["b"], "list"), (("b", "c"), "tuple"), ({"b"}, "set"), ({"b": 1}, "dict"),
     (np.array([1, 2]), "ndarray")],
)
def test_empirical_pair_refuses_a_nested_label_by_name(label, kind):
    """A container as a label would be counted under its text (str(['b']) = "['b']")."""
    with pytest.raises(md.InvalidInputError, match=rf"s_values must hold category labels.*"
                                                   rf"entry 2 \(index 1\).*a {kind}"):
        empirical_pair(["a", label, "a"], ["x", "y", "x"])
    with pytest.raises(md.InvalidInputError, match="u_values must hold category labels"):
        empirical_pair(["a", "b", "a"], ["x", label, "x"])
    column = np.empty(3, dtype=object)
    column[:] = ["a", None, "a"]
    column[1] = label
    with pytest.raises(md.InvalidInputError, match="s_values must hold category labels"):
        empirical_pair(column, ["x", "y", "x"])


def test_empirical_pair_counts_scalar_labels_of_any_type_by_their_text():
    """Strings, ints, floats, numpy scalars, bytes and None are labels; 1 and "1" are one
    category (their text). Counts checked against a hand tally."""
    s = [1, "1", np.int64(2), 2.5, None, b"z", "1"]
    u = ["x", "y", "x", "x", "y", "y", "x"]
    pair = empirical_pair(s, u)
    assert pair.s_labels == ("1", "2", "2.5", "None", "b'z'")
    assert pair.u_labels == ("x", "y")
    np.testing.assert_array_equal(pair.counts, [[2, 1], [1, 0], [1, 0], [0, 1], [0, 1]])


def test_datasets_name_their_arguments(tmp_path):
    with pytest.raises(InvalidInputError, match="path"):
        md.notions.categorical_pair(1.5, "s", "u")
    with pytest.raises(InvalidInputError, match="path"):
        md.notions.categorical_pair(tmp_path, "s", "u")
    for bad in (None, True, 5, {"a": 1}, []):
        with pytest.raises(InvalidInputError, match="s_values"):
            md.notions.empirical_pair(bad, ["x", "y"])
    with pytest.raises(InvalidInputError, match="s_values and u_values"):
        md.notions.empirical_pair(["a"], ["x", "y"])


def test_a_broken_gzip_file_is_refused_by_name(tmp_path):
    path = tmp_path / "cut.csv.gz"
    path.write_bytes(gzip.compress(b"a, b\nx, y\n")[:12])
    with pytest.raises(InvalidInputError, match="not a whole gzip file"):
        categorical_pair(path, "a", "b")
    plain = tmp_path / "plain.csv.gz"
    plain.write_bytes(b"a, b\nx, y\n")
    with pytest.raises(InvalidInputError, match="gzip"):
        categorical_pair(plain, "a", "b")
