"""The documentation site builds: ``mkdocs build --strict`` over docs/ (every page in the
navigation, every link resolved, the API reference rendered from the docstrings through
the packages' declared re-exports)."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys

import mechdesign as md
from tests.helpers import ROOT


def test_the_site_builds_strictly_with_every_page_and_public_name(tmp_path):
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d",
                           str(tmp_path)], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    pages = {path.parent.name for path in tmp_path.glob("*/index.html")}
    documents = {path.stem for path in (ROOT / "docs").glob("*.md")} - {"index"}
    assert documents <= pages, documents - pages
    reference = (tmp_path / "reference" / "index.html").read_text(encoding="utf-8")
    rendered = set(re.findall(r'id="(mechdesign(?:\.\w+)+)"', reference))
    # every top-level name and every public name of a subpackage namespace has an entry
    missing = [name for name in md.__all__ if name != "__version__"
               and f"mechdesign.{name}" not in rendered]
    assert not missing, missing
    for namespace in ("measures", "notions", "bounds", "accounting", "deployment"):
        names = getattr(md, namespace).__all__
        absent = [n for n in names if f"mechdesign.{namespace}.{n}" not in rendered]
        assert not absent, (namespace, absent)
    # every public module has a page of its own, with its functions' entries
    spec = importlib.util.spec_from_file_location("hooks", ROOT / "docs" / "hooks.py")
    hooks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hooks)
    modules = hooks.public_modules()
    assert "mechdesign.measures.pinsker" in modules
    assert "mechdesign.optimal.robust_pricing" not in modules  # moved: no page of its own
    for name in modules:
        page = tmp_path / "reference" / name / "index.html"
        assert page.is_file(), name
    pinsker = (tmp_path / "reference" / "mechdesign.measures.pinsker" / "index.html"
               ).read_text(encoding="utf-8")
    assert 'id="mechdesign.measures.pinsker.reverse_pinsker"' in pinsker
    # the math of the docstrings reaches MathJax: no ".. math::" is left as text
    for page in tmp_path.glob("reference/**/index.html"):
        text = page.read_text(encoding="utf-8")
        assert ".. math::" not in text, page.parent.name
    assert 'class="arithmatex"' in pinsker
