"""docs/theorems.md names only functions and tests that exist (a map that rots is worse
than none)."""

from __future__ import annotations

import importlib
import importlib.util
import re
import sys

from tests.helpers import ROOT

MAP = (ROOT / "docs" / "theorems.md").read_text(encoding="utf-8")


def _resolve(dotted: str):
    """Import the longest module prefix of ``dotted``, then walk the attributes."""
    parts = dotted.split(".")
    if parts[0] == "benchmarks":
        spec = importlib.util.spec_from_file_location(
            "_bench_" + parts[1], ROOT / "benchmarks" / f"{parts[1]}.py"
        )
        obj = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = obj  # dataclasses look their module up there
        spec.loader.exec_module(obj)
        rest = parts[2:]
    else:
        for cut in range(len(parts), 0, -1):
            try:
                obj = importlib.import_module(".".join(parts[:cut]))
            except ModuleNotFoundError:
                continue
            rest = parts[cut:]
            break
    for name in rest:
        obj = getattr(obj, name)
    return obj


def test_every_named_function_exists():
    names = sorted(set(re.findall(r"`((?:mechdesign|benchmarks)\.[A-Za-z0-9_.]+)`", MAP)))
    assert len(names) > 50
    missing = []
    for name in names:
        try:
            _resolve(name.rstrip("."))
        except (AttributeError, ImportError):
            missing.append(name)
    assert not missing, missing


def test_every_named_test_exists():
    cited = sorted(set(re.findall(r"`(tests/[A-Za-z0-9_/]+\.py)::([A-Za-z0-9_]+)", MAP)))
    assert len(cited) > 50
    missing = []
    for path, name in cited:
        source = (ROOT / path).read_text(encoding="utf-8")
        if not re.search(rf"^def {name}\(", source, re.M):
            missing.append(f"{path}::{name}")
    assert not missing, missing
