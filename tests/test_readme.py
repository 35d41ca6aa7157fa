"""The README's Python blocks run as written, each on its own in a fresh interpreter (a
user copies one block, not the whole page; a tour that fails is worse than none)."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.helpers import ROOT

README = ROOT / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)

ADULT = "../shared/data/adult.csv"  # the README's CSV example, relative to the repository


def test_readme_has_python_blocks():
    assert len(BLOCKS) >= 3


@pytest.mark.parametrize("index", range(len(BLOCKS)), ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_readme_block_runs_in_a_fresh_interpreter(index, tmp_path):
    block = BLOCKS[index]
    if ADULT in block and not (ROOT / ADULT).is_file():
        pytest.skip("a clone without the shared data: the CSV example cannot run")
    # In a scratch folder (a block may write files), with the data path made absolute.
    block = block.replace(ADULT, str((ROOT / ADULT).resolve()))
    done = subprocess.run(
        [sys.executable, "-c", block], cwd=tmp_path, capture_output=True, text=True,
        timeout=600,
    )
    assert done.returncode == 0, f"README block {index} failed:\n{done.stderr}"
    assert done.stdout == "", "a README block printed something it does not show"
