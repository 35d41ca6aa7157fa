"""Start-up cost (issue 36, item 8): ``import mechdesign``, ``mechdesign --help`` and
``mechdesign --version`` import none of the numeric stack, and laziness changes nothing
a user can see.

Each check runs in a fresh interpreter, because this test session has imported the
whole package long before. The checks read the import graph (``sys.modules`` and
``python -X importtime``), never the clock: timings belong in benchmarks.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import ROOT

PACKAGE = ROOT / "mechdesign"

#: Imported on first use only. ``scipy`` as a whole stands for scipy.stats/optimize/sparse.
HEAVY = ("dp_accounting", "pandas", "matplotlib", "scipy", "cvxpy", "tqdm", "distributed")

#: What the command line may import before it knows which command runs: its own package
#: (parsing and printing; each command module imports the library inside its handler).
CLI_LIGHT = {"mechdesign", "mechdesign.cli", "mechdesign._validation", "mechdesign._tolerances",
             "mechdesign.errors", "mechdesign.status", "mechdesign._version",
             "mechdesign._lazy"} | {
    f"mechdesign.cli.{path.stem}" for path in (PACKAGE / "cli").glob("*.py")}


def _run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    return done.stdout


def _top(module: str) -> str:
    return module.split(".")[0]


def _imported(stderr: str) -> set[str]:
    """Module names from ``-X importtime`` output (``import time: self | cumulative | name``)."""
    names = set()
    for line in stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            name = line.rsplit("|", 1)[1].strip()
            if name != "package":  # the header line
                names.add(name)
    return names


def _public_sources() -> dict[str, str]:
    """Name -> submodule, read from the ``if TYPE_CHECKING:`` block of __init__.py (the
    block a reader and a type checker see), not from the run-time namespace."""
    from mechdesign._lazy import declared_exports

    return declared_exports("mechdesign", str(PACKAGE / "__init__.py"))


def test_import_mechdesign_loads_no_heavy_dependency():
    loaded = json.loads(_run("import json, sys, mechdesign; print(json.dumps(list(sys.modules)))"))
    heavy = sorted({_top(m) for m in loaded} & set(HEAVY))
    assert heavy == [], f"import mechdesign loads {heavy}"
    assert "numpy" not in loaded


@pytest.mark.parametrize("flag", ["--version", "--help"])
def test_cli_answers_help_and_version_without_the_numeric_stack(flag):
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "mechdesign.cli", flag],
                          capture_output=True, text=True, check=True)
    imported = _imported(done.stderr)
    assert "argparse" in imported  # the run really was traced
    heavy = sorted({_top(m) for m in imported} & set(HEAVY))
    assert heavy == [], f"mechdesign {flag} imports {heavy}"
    ours = {m for m in imported if _top(m) == "mechdesign"}
    assert ours <= CLI_LIGHT, f"mechdesign {flag} imports {sorted(ours - CLI_LIGHT)}"


def test_console_script_help_lists_every_subcommand_without_the_numeric_stack():
    script = Path(sys.executable).with_name("mechdesign")
    if not script.exists():
        pytest.skip("the console script is not installed beside this interpreter")
    env = {**os.environ, "PYTHONPROFILEIMPORTTIME": "1"}
    done = subprocess.run([str(script), "--help"], capture_output=True, text=True, check=True,
                          env=env)
    heavy = sorted({_top(m) for m in _imported(done.stderr)} & set(HEAVY))
    assert heavy == [], f"the console script's --help imports {heavy}"
    from mechdesign.cli import build_parser

    subparsers = next(a for a in build_parser()._actions if a.dest == "command")
    assert set(subparsers.choices) >= {"audit", "design", "compare", "audit-samples", "sweep"}
    missing = [name for name in subparsers.choices if f"\n    {name}" not in done.stdout]
    assert missing == [], f"--help does not list {missing}"


def test_version_is_the_installed_package_metadata():
    installed = importlib.metadata.version("mechdesign")
    done = subprocess.run([sys.executable, "-m", "mechdesign.cli", "--version"],
                          capture_output=True, text=True, check=True)
    assert done.stdout.strip() == f"mechdesign {installed}"
    assert _run("import mechdesign; print(mechdesign.__version__)").strip() == installed


def test_every_public_name_resolves_to_its_defining_object():
    import mechdesign as md

    sources = _public_sources()
    assert set(md.__all__) == set(sources) | {"__version__"}
    assert set(md.__all__) <= set(dir(md))
    for name, module in sources.items():
        assert getattr(md, name) is getattr(importlib.import_module(module), name), name
    namespace: dict[str, object] = {}
    exec("from mechdesign import *", namespace)
    assert set(md.__all__) <= set(namespace)
    assert not hasattr(md, "no_such_name")


def test_no_public_name_shadows_a_module():
    # The design engine is mechdesign.optimal, so md.design is the function however the
    # package was imported, and every subpackage is reachable as itself.
    import pkgutil

    import mechdesign as md

    modules = {info.name for info in pkgutil.iter_modules(md.__path__)}
    assert not modules & set(md.__all__)
    out = _run(
        "import mechdesign.optimal.pipeline, mechdesign as md\n"
        "from mechdesign import design\n"
        "print(callable(md.design), design is md.design, md.design.__module__,\n"
        "      md.optimal.__name__)"
    )
    assert out.split() == ["True", "True", "mechdesign.optimal.pipeline", "mechdesign.optimal"]


def test_lazily_imported_accounting_still_composes():
    # One use of k-RR at δ: from the hockey-stick divergence between two rows,
    # δ(ε) = (e^ε0 − e^ε) / (e^ε0 + k − 1) for ε < ε0, so ε(δ) = log(e^ε0 − δ(e^ε0 + k − 1)).
    k, eps0, delta = 4, 1.0, 1e-3
    out = json.loads(_run(
        "import json, sys, mechdesign as md\n"
        "before = 'dp_accounting' in sys.modules\n"
        f"result = md.composed_epsilon(md.randomized_response({k}, {eps0}), 1, {delta})\n"
        "print(json.dumps([before, 'dp_accounting' in sys.modules, result.epsilon,"
        " result.discretization]))"
    ))
    before, after, epsilon, step = out
    assert (before, after) == (False, True)
    exact = math.log(math.exp(eps0) - delta * (math.exp(eps0) + k - 1))
    # The pessimistic loss grid rounds up by at most one step per use.
    assert exact - 1e-12 <= epsilon <= exact + step + 1e-12


def test_cli_parser_constants_equal_their_sources():
    from mechdesign import reports
    from mechdesign.cli import inputs
    from mechdesign.mechanisms import robust
    from mechdesign.notions import cones
    from mechdesign.optimal import METHODS
    from mechdesign.sweeps import FAMILIES

    assert inputs.METHODS == METHODS
    assert inputs.MAX_VERTICES == cones.MAX_VERTICES
    assert inputs.RLDP_MAX_VERTICES == reports.RLDP_MAX_VERTICES
    assert inputs.ROBUST_LDP_MECHANISMS == robust.ROBUST_LDP_MECHANISMS
    assert inputs.SWEEP_MECHANISMS == FAMILIES


def test_the_top_level_is_small_and_keeps_the_api_names():
    import mechdesign as md

    api = ROOT.parent / "shared" / "API.md"
    assert len(md.__all__) <= 60
    if api.is_file():  # the workplace's reference (not shipped with the package)
        named = set()
        for line in api.read_text().splitlines():
            if line.startswith("| `"):
                named |= set(re.findall(r"`([A-Za-z_]\w*)", line.split("|")[1]))
        named.discard("notion")  # ``notion.level(K)``: a method of any notion
        assert named <= set(md.__all__), sorted(named - set(md.__all__))


@pytest.mark.parametrize("name", sorted(__import__("mechdesign")._NEW_PLACE))
def test_a_name_that_left_the_top_level_warns_and_names_its_new_place(name):
    import mechdesign as md

    place = md._NEW_PLACE[name]
    new = getattr(importlib.import_module(f"mechdesign.{place}"), name)
    with pytest.warns(DeprecationWarning, match=rf"use mechdesign\.{re.escape(place)}\.{name} "):
        old = getattr(md, name)
    assert old is new
    assert name not in md.__all__
    assert name not in dir(md)
