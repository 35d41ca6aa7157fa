"""The API reference builds with pdoc without warnings and covers every public name."""

from __future__ import annotations

import importlib.util

import pytest

import mechdesign as md
from tests.helpers import ROOT

BUILD = ROOT / "docs" / "build_api.py"


def _build_module():
    spec = importlib.util.spec_from_file_location("build_api", BUILD)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_api_reference_builds_without_warnings(tmp_path):
    build_api = _build_module()
    assert build_api.build(tmp_path) == []
    page = (tmp_path / "mechdesign.html").read_text(encoding="utf-8")
    # Every name the package exports has an entry on the package page.
    missing = [name for name in md.__all__ if f'id="{name}"' not in page]
    assert not missing, missing
    # The math of the docstrings reaches MathJax as display blocks.
    patterns = (tmp_path / "mechdesign" / "optimal" / "patterns.html").read_text(encoding="utf-8")
    assert "$$" in patterns
    # Every footnote (a References entry) has a unique id on its page: each docstring's
    # are its own (pdoc gave every function's [1] the id fn-1). A footnote cited twice in
    # one docstring has two back-references of one id (markdown2's way): not checked.
    import re
    from collections import Counter

    for page_path in tmp_path.rglob("*.html"):
        ids = Counter(re.findall(r'id="(fn-[^"]*)"', page_path.read_text(encoding="utf-8")))
        repeated = [name for name, count in ids.items() if count > 1]
        assert not repeated, (page_path.name, repeated[:5])
    leakage = (tmp_path / "mechdesign" / "measures" / "leakage.html").read_text(encoding="utf-8")
    assert len(set(re.findall(r'href="#fn-(\d+)-1"', leakage))) > 1  # several docstrings' [1]


def test_every_public_name_has_a_docstring():
    import inspect

    missing = []
    for name in md.__all__:
        obj = getattr(md, name)
        if (inspect.isclass(obj) or inspect.isfunction(obj)) and not (obj.__doc__ or "").strip():
            missing.append(name)
        if inspect.isclass(obj):
            for member, value in vars(obj).items():
                if (not member.startswith("_") and inspect.isfunction(value)
                        and not (value.__doc__ or "").strip()):
                    missing.append(f"{name}.{member}")
    assert not missing, missing
