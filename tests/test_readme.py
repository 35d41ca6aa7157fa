"""The README's Python blocks run as written (a tour that fails is worse than none)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def test_readme_has_python_blocks():
    assert BLOCKS


ADULT = "../shared/data/adult.csv"  # the README's CSV example, relative to the repository


def test_readme_blocks_run_in_order(monkeypatch):
    monkeypatch.chdir(README.parent)
    namespace: dict[str, object] = {}
    for index, block in enumerate(BLOCKS):
        if ADULT in block and not Path(ADULT).is_file():
            continue  # a clone without the shared data: the CSV example cannot run
        try:
            exec(compile(block, f"README block {index}", "exec"), namespace)
        except Exception as exc:
            pytest.fail(f"README block {index} failed: {exc!r}")
