"""The closed status vocabulary (mechdesign.status) and its translations."""

from __future__ import annotations

import json

import cvxpy as cp
import pytest

import mechdesign as md
from mechdesign.status import Status, from_cvxpy


def test_a_status_is_its_value():
    assert Status.OPTIMAL == "optimal"
    assert json.dumps({"status": Status.FEASIBLE}) == '{"status": "feasible"}'
    assert f"{Status.TIME_LIMIT}" == "time limit"
    assert md.Status is Status


@pytest.mark.parametrize(
    ("name", "expected"),
    [("OPTIMAL", Status.OPTIMAL), ("OPTIMAL_INACCURATE", Status.NUMERICAL_ERROR),
     ("INFEASIBLE", Status.INFEASIBLE), ("INFEASIBLE_INACCURATE", Status.INFEASIBLE),
     ("UNBOUNDED", Status.UNBOUNDED), ("UNBOUNDED_INACCURATE", Status.UNBOUNDED),
     ("INFEASIBLE_OR_UNBOUNDED", Status.INFEASIBLE_OR_UNBOUNDED),
     ("USER_LIMIT", Status.LIMIT), ("SOLVER_ERROR", Status.NUMERICAL_ERROR)],
)
def test_every_cvxpy_status_has_its_place(name, expected):
    # Read from cvxpy itself, so a renamed constant fails here rather than in a design.
    assert from_cvxpy(getattr(cp.settings, name)) is expected


def test_an_unknown_cvxpy_status_is_a_numerical_error():
    assert from_cvxpy("a status of a newer cvxpy") is Status.NUMERICAL_ERROR


def test_a_design_and_its_report_carry_statuses():
    d = md.design(md.LDP(1.0), [0.2, 0.3, 0.5], method="column_generation")
    assert d.status is Status.OPTIMAL
    assert d.column_generation.status is Status.OPTIMAL
    summary = d.summary()
    assert summary["status"] == "optimal"
    assert type(summary["status"]) is str  # plain values for printing and JSON
    assert summary["optimality"] == "optimal"
