"""md.sweep (mechdesign.sweeps.run, issue 24): the table equals the direct calls, failed
points are rows, and a bad task, executor or store is refused by name."""

from __future__ import annotations

import math

import numpy as np
import pytest

import mechdesign as md
from mechdesign.errors import InvalidInputError
from tests.sweeps.sample_tasks import (
    square_or_fail,
)


def test_the_smallest_example_equals_the_direct_calls():
    grid = {"epsilon": [0.5, 1], "c": [0.01, 0.05], "n": [4, 8]}
    table = md.sweep(md.dobrushin_bound, grid, executor="serial", progress=False)
    assert list(table.columns) == ["epsilon", "c", "n", "value", "seconds", "error"]
    assert len(table) == 8
    for row in table.itertuples():
        assert row.value == pytest.approx(md.dobrushin_bound(row.epsilon, row.c, row.n),
                                          rel=1e-15)
        assert row.error == ""  # exact: the empty string
    # The first axis is the slowest.
    assert table["epsilon"].tolist() == [0.5] * 4 + [1.0] * 4  # exact: grid values


def test_failed_points_are_rows_and_the_rest_are_computed():
    table = md.sweep(square_or_fail, {"x": [1, 2, 3, 4], "y": ["p"]}, executor="serial",
                     progress=False)
    assert len(table) == 4
    failed = table[table["error"] != ""]
    assert failed["x"].tolist() == [3]  # exact: integers
    assert failed["error"].iloc[0] == "ValueError: no square for 3"  # exact: text
    assert math.isnan(failed["square"].iloc[0])
    ok = table[table["error"] == ""]
    assert ok["square"].tolist() == [1, 4, 16]  # exact: integers
    assert ok["label"].tolist() == ["p1", "p2", "p4"]  # exact: text
    np.testing.assert_allclose(ok["root"], np.sqrt([1, 2, 4]), rtol=1e-15)


def test_bad_task_executor_and_store_are_refused(tmp_path):
    with pytest.raises(InvalidInputError, match="task must be callable"):
        md.sweep(3, {"x": [1]}, progress=False)
    with pytest.raises(InvalidInputError, match="executor must be"):
        md.sweep(square_or_fail, {"x": [1]}, executor="threads", progress=False)
    with pytest.raises(InvalidInputError, match="not a folder"):
        md.sweep(square_or_fail, {"x": [1]}, store=tmp_path, progress=False)
    junk = tmp_path / "junk.sqlite"
    junk.write_text("this is not a database" * 100)
    with pytest.raises(InvalidInputError, match="not a mechdesign sweep store"):
        md.sweep(square_or_fail, {"x": [1]}, store=junk, executor="serial", progress=False)
