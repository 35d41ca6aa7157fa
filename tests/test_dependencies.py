"""The dependency floors in pyproject.toml are the ones constraints/minimum.txt tests."""

from __future__ import annotations

import re
import tomllib

from packaging.requirements import Requirement
from packaging.version import Version

from tests.helpers import ROOT


def _pins() -> dict[str, Version]:
    pins = {}
    for line in (ROOT / "constraints" / "minimum.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, pinned = re.fullmatch(r"([A-Za-z0-9_.-]+)==(\S+)", line).groups()
            pins[name.lower()] = Version(pinned)
    return pins


def test_every_runtime_dependency_has_a_tested_floor():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pins = _pins()
    floors = {}
    for spec in project["dependencies"]:
        requirement = Requirement(spec)
        lower = [s.version for s in requirement.specifier if s.operator == ">="]
        assert len(lower) == 1, f"{spec}: state one lower bound (>=) and no upper bound"
        assert all(s.operator in (">=", "!=") for s in requirement.specifier), (
            f"{spec}: no upper bounds; a user's pip install gets the newest release"
        )
        floors[requirement.name.lower()] = Version(lower[0])
    assert set(pins) == set(floors)
    for name, floor in floors.items():
        assert pins[name] == floor, (
            f"{name}: pyproject.toml says >= {floor}, constraints/minimum.txt tests {pins[name]}"
        )
