"""The exception hierarchy (mechdesign.errors): every error survives pickling."""

from __future__ import annotations

import pytest

import mechdesign as md


@pytest.mark.parametrize(
    "error",
    [
        md.errors.SolverError("HiGHS did not solve it", status="Infeasible"),
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
