"""A sweep's points, keys and records (mechdesign.sweeps.points): what a task may return,
bad grids refused by name, and keys that separate tasks and points."""

from __future__ import annotations

import sqlite3

import numpy as np
import pytest

import mechdesign as md
from mechdesign.errors import InvalidInputError
from tests.sweeps.sample_tasks import (
    bad_return,
    square_or_fail,
    two_records,
)


def test_a_task_may_return_several_records_and_numpy_scalars():
    table = md.sweep(two_records, {"x": [1, 2]}, executor="serial", progress=False)
    assert table["kind"].tolist() == ["low", "high", "low", "high"]  # exact: text
    np.testing.assert_allclose(table["v"], [0.5, 2, 1.5, 3])
    assert isinstance(table.attrs["axes"], list)
    assert table.attrs["axes"] == ["x"]  # exact: names


def test_a_task_returning_something_else_fails_its_point_with_the_reason():
    table = md.sweep(bad_return, {"x": [0, 1]}, executor="serial", progress=False)
    assert table["error"].str.startswith("TypeError").all()
    assert "must hold a number" in table["error"].iloc[0]
    assert "must return a number" in table["error"].iloc[1]


@pytest.mark.parametrize(
    ("grid", "match"),
    [
        ({"x": []}, "axis 'x' must not be empty"),
        ({"x": "abc"}, "axis 'x' must be a list"),
        ({"x": 3}, "axis 'x' must be a list"),
        ({}, "at least one axis"),
        ([], "at least one point"),
        ({"seconds": [1]}, "reserved"),
        ({"not a name": [1]}, "identifiers"),
        ({"x": [object()]}, "grid values must be numbers"),
        ([{"x": 1}, 3], "point 1"),
        ("x", "dict of axes"),
    ],
)
def test_bad_grids_are_refused_by_name(grid, match):
    with pytest.raises(InvalidInputError, match=match):
        md.sweep(square_or_fail, grid, executor="serial", progress=False)


def test_the_key_separates_tasks_and_points(tmp_path):
    store = tmp_path / "s.sqlite"
    a = md.sweep(md.dobrushin_bound, {"epsilon": [1.0], "c": [0.1], "n": [4]}, store=store,
                 executor="serial", progress=False)
    b = md.sweep(md.bounds.kairouz_dobrushin_bound, {"epsilon": [1.0]}, store=store,
                 executor="serial", progress=False)
    c = md.sweep(md.dobrushin_bound, {"epsilon": [1], "c": [0.1], "n": [4]}, store=store,
                 executor="serial", progress=False)
    assert b["value"].iloc[0] == pytest.approx(md.bounds.kairouz_dobrushin_bound(1.0), rel=1e-15)
    assert a["value"].iloc[0] == pytest.approx(md.dobrushin_bound(1.0, 0.1, 4), rel=1e-15)
    # 1 and 1.0 are different points (an int axis stays an int), computed separately.
    assert c["value"].iloc[0] == pytest.approx(a["value"].iloc[0], rel=1e-15)
    with sqlite3.connect(store) as db:
        assert db.execute("SELECT COUNT(*) FROM points").fetchone()[0] == 3
