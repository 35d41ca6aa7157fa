"""The repository stays `ruff check` clean; CI runs only the test command, so it is here."""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

from tests.helpers import ROOT


def test_ruff_check_is_clean():
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    assert ruff, "ruff is a test dependency; install the [test] extra"
    done = subprocess.run(
        [ruff, "check", "--no-cache", str(ROOT)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout + done.stderr


def _float_equalities(source: str) -> list[int]:
    """Lines of ``source`` comparing with ``==``/``!=`` against a float literal, unless the
    line says ``# exact:`` and why (an input echoed back, a value returned by a branch)."""
    tree = ast.parse(source)
    lines = source.splitlines()
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        if not any(isinstance(op, ast.Eq | ast.NotEq) for op in node.ops):
            continue
        operands = [node.left, *node.comparators]
        literal = any(
            (isinstance(o, ast.Constant) and type(o.value) is float)
            or (isinstance(o, ast.UnaryOp) and isinstance(o.operand, ast.Constant)
            and type(o.operand.value) is float)
            for o in operands
        )
        if literal and "# exact:" not in lines[node.lineno - 1]:
            found.append(node.lineno)
    return found


def test_no_exact_float_equality_in_tests_or_notebooks():
    offenders = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        offenders += [f"{path.relative_to(ROOT)}:{line}"
                      for line in _float_equalities(path.read_text())]
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        cells = json.loads(path.read_text())["cells"]
        for index, cell in enumerate(cells):
            if cell["cell_type"] == "code":
                source = "".join(cell["source"])
                source = "\n".join(
                    "pass" if line.lstrip().startswith(("%", "!")) else line
                    for line in source.splitlines()
                )
                offenders += [f"{path.name} cell {index}, line {line}"
                              for line in _float_equalities(source)]
    assert not offenders, (
        "compare computed floats with a stated tolerance (pytest.approx, math.isclose), or "
        "mark an exact comparison '# exact: <why>': " + ", ".join(offenders)
    )


def test_no_bare_tolerance_in_library_logic():
    """A float literal ≤ 1e-6 in the library's code (not a comment or docstring) is a
    tolerance; it belongs in mechdesign/_tolerances.py with its reason, or beside its
    algorithm as a named module-level knob. ``reproduce`` is exempt: its literals are the
    papers' parameters and printed precisions."""
    import io
    import tokenize

    package = ROOT / "mechdesign"
    found = []
    for path in sorted(package.rglob("*.py")):
        if path.name == "_tolerances.py" or "reproduce" in path.parts:
            continue
        tokens = list(tokenize.generate_tokens(io.StringIO(path.read_text()).readline))
        for tok in tokens:
            if tok.type != tokenize.NUMBER or "e-" not in tok.string.lower():
                continue
            if float(tok.string.rstrip("jJ")) > 1e-6:
                continue
            line = tok.line
            if re.match(r"[A-Z][A-Z0-9_]* = ", line):
                continue  # a module-level named knob
            found.append(f"{path.relative_to(package)}:{tok.start[0]}: {line.strip()}")
    assert not found, "bare tolerances in logic:\n" + "\n".join(found)
