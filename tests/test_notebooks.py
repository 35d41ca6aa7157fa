"""Execute every notebook under notebooks/ top to bottom (nbclient), and keep them clean.

Notebooks are stored with outputs stripped, so diffs show only code and prose; the test
suite is what runs them. A failing cell fails the test with the cell's traceback.
"""

from __future__ import annotations

import json

import nbformat
import pytest
from nbclient import NotebookClient

from tests.helpers import ROOT

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))

#: Seconds one cell may run before the notebook test fails.
CELL_TIMEOUT = 600

#: Notebooks that take tens of seconds each (measured with pytest --durations): run
#: with the slow tests (pytest -m slow), not in the default run.
SLOW_NOTEBOOKS = {"02_contraction", "03_robust_ldp", "04_envelopes", "05_protocols",
                  "07_estimation", "08_shuffle"}


def _executions():
    return [pytest.param(path, id=path.name,
                         marks=[pytest.mark.slow] if path.stem in SLOW_NOTEBOOKS else [])
            for path in NOTEBOOKS]


def test_there_are_notebooks():
    assert NOTEBOOKS, "notebooks/ holds no .ipynb file"
    assert {path.stem for path in NOTEBOOKS} >= SLOW_NOTEBOOKS, "a slow notebook is gone"


@pytest.mark.notebook
@pytest.mark.parametrize("path", _executions())
def test_notebook_executes(path, tmp_path):
    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(
        notebook, timeout=CELL_TIMEOUT, kernel_name="python3",
        resources={"metadata": {"path": str(tmp_path)}},
    )
    client.execute()


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_is_stored_without_outputs(path):
    raw = json.loads(path.read_text(encoding="utf-8"))
    # nbformat 4.5 cells carry ids (nbformat fills missing ones in with a warning)
    ids = [cell.get("id") for cell in raw["cells"]]
    assert all(ids), f"{path.name}: a cell has no id"
    assert len(set(ids)) == len(ids), f"{path.name}: two cells share an id"
    notebook = nbformat.read(path, as_version=4)
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type == "code":
            assert not cell.outputs, f"{path.name} cell {index} has stored outputs"
            assert cell.execution_count is None, f"{path.name} cell {index} has a count"
