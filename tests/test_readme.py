"""The README's Python blocks run as written (a tour that fails is worse than none)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def test_readme_has_python_blocks():
    assert BLOCKS


def test_readme_blocks_run_in_order():
    namespace: dict[str, object] = {}
    for index, block in enumerate(BLOCKS):
        try:
            exec(compile(block, f"README block {index}", "exec"), namespace)
        except Exception as exc:
            pytest.fail(f"README block {index} failed: {exc!r}")
