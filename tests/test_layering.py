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


def _file_of(module: str) -> Path | None:
    """The file of a dotted ``mechdesign`` module (a package's ``__init__.py``)."""
    base = PACKAGE.parent.joinpath(*module.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.exists():
            return path
    return None


def _defining_files(module: str, names: list[str]) -> set[Path]:
    """The files an import ``from module import names`` depends on: a submodule's file, or,
    through a package's namespace, the module its ``__init__`` takes the name from."""
    found = set()
    package = _file_of(module)
    for name in names or [None]:
        sub = _file_of(f"{module}.{name}") if name else None
        if sub is not None:
            found.add(sub)
            continue
        if package is not None and package.name == "__init__.py" and name:
            for _, source, imported in _imports(package):
                if name in imported and (where := _file_of(source)) is not None:
                    found.add(where)
                    break
            else:
                found.add(package)
        elif package is not None:
            found.add(package)
    return found


def test_no_two_modules_import_each_other():
    """File by file, lazy imports and imports through a namespace included: no cycle (a
    namespace ``__init__`` imports everything below it, so it is no file's dependency's
    source)."""
    graph: dict[Path, set[Path]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "__init__.py":
            continue
        graph[path] = set()
        for _, module, names in _imports(path):
            graph[path] |= {f for f in _defining_files(module, names)
                            if f != path and f.name != "__init__.py"}
    cycles, state = [], {}

    def visit(node: Path, trail: list[Path]) -> None:
        state[node] = "open"
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                loop = [*trail[trail.index(nxt):], nxt]
                cycles.append(" -> ".join(str(p.relative_to(PACKAGE)) for p in loop))
            elif nxt not in state:
                visit(nxt, [*trail, nxt])
        state[node] = "done"

    for node in graph:
        if node not in state:
            visit(node, [node])
    assert not cycles, "modules that import each other:\n" + "\n".join(cycles)
