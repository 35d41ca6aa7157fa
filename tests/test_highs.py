"""The HiGHS boundary: every model mechdesign creates is silent, at the C level."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import highspy
import numpy as np
import pytest

from mechdesign._highs import new_model
from mechdesign.errors import SolverError

# Build an LP, a MIP and a warm-started master exactly as the package does, in a fresh
# interpreter (HiGHS writes its banner once per process, from C, to file descriptor 1).
_SCRIPT = textwrap.dedent(
    """
    import numpy as np
    import mechdesign as md
    from mechdesign._highs import new_model

    model = new_model(mip_rel_gap=0.0)
    model.addVar(0.0, 1.0)
    integer = md._highs.highspy.HighsVarType.kInteger
    model.changeColsIntegrality(1, np.array([0], np.int32), np.array([integer]))
    model.changeColCost(0, -1.0)
    model.run()
    md.design(md.LDP(1.0), np.full(3, 1 / 3))
    md.design(md.LDP(1.0), np.full(4, 1 / 4), method="column_generation")
    """
)


def test_no_solver_output_reaches_the_file_descriptors():
    result = subprocess.run(
        [sys.executable, "-c", _SCRIPT], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    assert result.stderr == ""


def _option(model, name):
    value = model.getOptionValue(name)  # (status, value) from highspy 1.8 on, value before
    return value[1] if isinstance(value, tuple) else value


def test_new_model_applies_options():
    model = new_model(primal_feasibility_tolerance=1e-9, simplex_strategy=4)
    assert _option(model, "output_flag") is False
    assert _option(model, "primal_feasibility_tolerance") == pytest.approx(1e-9, rel=1e-12)
    assert _option(model, "simplex_strategy") == 4


@pytest.mark.parametrize(
    ("name", "value"), [("no_such_option", 1), ("primal_feasibility_tolerance", -1.0)]
)
def test_new_model_refuses_an_option_by_name(name, value):
    with pytest.raises(SolverError, match=name) as info:
        new_model(**{name: value})
    assert info.value.status == "option refused"


def test_new_model_is_a_highspy_model():
    # Callers use highspy's API on it; the subclass must not hide any of it.
    model = new_model()
    assert isinstance(model, highspy.Highs)
    model.addVar(0.0, 2.0)
    model.changeColCost(0, 1.0)
    model.changeObjectiveSense(highspy.ObjSense.kMaximize)
    model.run()
    assert model.getModelStatus() == highspy.HighsModelStatus.kOptimal
    assert np.array(model.getSolution().col_value) == pytest.approx([2.0], abs=1e-12)
