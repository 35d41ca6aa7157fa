"""The default figure of a sweep table (mechdesign.sweeps.plotting)."""

from __future__ import annotations

import pytest

import mechdesign as md
from mechdesign.errors import InvalidInputError


def test_plot_sweep_refuses_unknown_columns():
    table = md.sweep(md.dobrushin_bound, {"epsilon": [0.5, 1], "c": [0.1], "n": [4]},
                     executor="serial", progress=False)
    with pytest.raises(InvalidInputError, match="y must be a column"):
        md.sweeps.plot_sweep(table, "epsilon", "utility")
    with pytest.raises(InvalidInputError, match="table must be a pandas DataFrame"):
        md.sweeps.plot_sweep([1, 2], "epsilon", "value")
