"""The exception hierarchy (mechdesign.errors): every error survives pickling."""

from __future__ import annotations

import pytest

import mechdesign as md


@pytest.mark.parametrize(
    "error",
    [
        md.errors.SolverError("HiGHS did not solve it", status="infeasible",
                              solver_status="Infeasible"),
        md.errors.InvalidInputError("epsilon must be ≥ 0"),
        md.errors.InfeasibleError("empty"),
        md.errors.TooLargeError("too many vertices"),
    ],
)
def test_errors_survive_pickling(error):
    # A process pool sends a worker's exception back pickled; an error that cannot be
    # unpickled breaks the whole pool (this broke the full robust-LDP experiment).
    import pickle

    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is type(error)
    assert str(copy) == str(error)
    assert getattr(copy, "status", None) == getattr(error, "status", None)
    assert getattr(copy, "solver_status", None) == getattr(error, "solver_status", None)


def test_solver_error_speaks_the_closed_vocabulary():
    error = md.errors.SolverError("it failed", status="time limit",
                                  solver_status="Time limit reached")
    assert error.status is md.Status.TIME_LIMIT
    assert str(error) == "it failed (solver status: time limit: Time limit reached)"
    assert str(md.errors.SolverError("x", status=md.Status.AUDIT_FAILED)) == (
        "x (solver status: audit failed)")
    with pytest.raises(ValueError, match="Status"):
        md.errors.SolverError("x", status="Infeasible")  # HiGHS's words are solver_status
