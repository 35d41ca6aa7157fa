"""The package's layers (GUIDE.md, "Layout"): data flows down, never up, and private
names stay in their file.

A module may import from its own layer or a lower one, at module level or inside a
function (a lazy import is still a dependency). ``mechdesign/__init__.py``, the command
line and ``reproduce`` sit on top.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.helpers import ROOT

PACKAGE = ROOT / "mechdesign"

#: Bottom to top. Where this departs from GUIDE.md's plan (a measure-level robust audit,
#: Ξ with the notions) the note on the pipeline issue says why.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("status", "errors"),  # the closed vocabulary of outcomes, and the exceptions
    ("_tolerances", "_validation", "_solvers", "_evidence", "_version", "_lazy", "_search"),
    ("kernel", "priors", "measures"),  # a given kernel, the priors, the kernel's measures
    ("notions",),  # problem descriptions (Ξ and the robust audits with them)
    ("optimal",),  # the design engine
    ("mechanisms", "bounds"),  # closed forms and deployed protocols; notion-wide bounds
    ("accounting",),  # composition, shuffling (of any kernel or protocol), sample audits
    ("deployment",),  # exact kernels, aggregation, OpenDP, conformance (sample audits)
    ("reports", "comparison", "sweeps"),  # every quantity of one question, for the front ends
    ("reproduce", "cli", "__init__", "__main__"),  # front ends
)
LAYER = {name: level for level, names in enumerate(LAYERS) for name in names}


def _module(path: Path) -> str:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return parts[0]  # a subpackage counts as one module of its layer


def _imports(path: Path) -> list[tuple[int, str, list[str]]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "mechdesign" or node.module.startswith("mechdesign."):
                found.append((node.lineno, node.module, [a.name for a in node.names]))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("mechdesign."):
                    found.append((node.lineno, alias.name, []))
    return found


def _target(module: str) -> str:
    parts = module.split(".")
    return "__init__" if len(parts) == 1 else parts[1]


def test_every_module_has_a_layer():
    modules = {_module(p) for p in PACKAGE.rglob("*.py")}
    assert modules <= set(LAYER), f"give these modules a layer: {sorted(modules - set(LAYER))}"


def test_no_module_imports_from_a_layer_above_it():
    upward = []
    for path in sorted(PACKAGE.rglob("*.py")):
        source = _module(path)
        for line, module, _ in _imports(path):
            target = _target(module)
            if target != source and LAYER[target] > LAYER[source]:
                upward.append(f"{path.relative_to(PACKAGE)}:{line} imports {module}")
    assert not upward, "imports from a higher layer:\n" + "\n".join(upward)


def test_no_private_name_crosses_a_file_boundary():
    # File by file: inside a subpackage too, a module's private names are its own.
    crossing = []
    for path in sorted(PACKAGE.rglob("*.py")):
        own = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        for line, module, names in _imports(path):
            if module == own.removesuffix(".__init__"):
                continue
            private = [n for n in names if n.startswith("_") and not n.startswith("__")]
            if private:
                crossing.append(f"{path.relative_to(PACKAGE)}:{line} {module}: {private}")
    assert not crossing, "private names imported across files:\n" + "\n".join(crossing)
