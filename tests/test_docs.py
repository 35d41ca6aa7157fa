"""The README's and docs/'s Python blocks run as written, each on its own in a fresh
interpreter (a user copies one block, not the whole page; a tour that fails is worse than
none), their links resolve, and the deployment commands run in order.

docs/extending.md is the exception: its blocks build on each other, and
tests/test_extending.py runs them in order and through the contract battery.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.helpers import ROOT

README = ROOT / "README.md"
#: The pages whose blocks stand alone: the README and every page under docs/.
PAGES = [README, *sorted(path for path in (ROOT / "docs").glob("*.md")
                         if path.name != "extending.md")]
BLOCKS = [(page, block) for page in PAGES for block in
          re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), re.S)]



#: A block that runs shuffle accounting, a sweep or a time-limited design takes from
#: seconds to a minute (measured with pytest --durations): it runs with the slow tests
#: (pytest -m slow), not in the default run.
SLOW_BLOCK_CALLS = ("shuffle", "Shuffled", "md.sweep(", "time_limit=")


def _blocks():
    return [pytest.param(index, id=f"{page.stem}-block{index}", marks=[pytest.mark.slow] if any(
        call in block for call in SLOW_BLOCK_CALLS) else [])
            for index, (page, block) in enumerate(BLOCKS)]


def test_the_pages_have_python_blocks():
    readme = [block for page, block in BLOCKS if page == README]
    assert 3 <= len(readme) <= 4  # the three examples (the README stays short)
    assert any(not param.marks for param in _blocks()), "every block is slow"
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 200


@pytest.mark.parametrize("index", _blocks())
def test_block_runs_in_a_fresh_interpreter(index, tmp_path):
    page, block = BLOCKS[index]
    # In a scratch folder: a block may write files.
    done = subprocess.run(
        [sys.executable, "-c", block], cwd=tmp_path, capture_output=True, text=True,
        timeout=600,
    )
    assert done.returncode == 0, f"{page.name} block {index} failed:\n{done.stderr}"
    assert done.stdout == "", f"a {page.name} block printed something it does not show"


@pytest.mark.parametrize("page", [README, *sorted((ROOT / "docs").glob("*.md"))],
                         ids=lambda page: page.name)
def test_every_relative_link_resolves(page):
    # docs/hooks.py generates the module list at build time (the site test builds it)
    generated = {ROOT / "docs" / "modules.md"}
    links = re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", page.read_text(encoding="utf-8"))
    missing = [link for link in links if not (page.parent / link).exists()
               and (page.parent / link).resolve() not in generated]
    assert not missing, missing


DEPLOYMENT = ROOT / "docs" / "deployment.md"
SHELL = re.findall(r"```bash\n(mechdesign local-epsilon.*?)```",
                   DEPLOYMENT.read_text(encoding="utf-8"), re.S)


@pytest.mark.slow
def test_the_deployment_commands_run_as_shown(tmp_path):
    """The deployment page's six commands, in order, in a scratch folder: the user's files are
    written first (labels), and the devices' reports and an implementation's pairs are
    drawn from the exact kernel the design command wrote."""
    import numpy as np

    import mechdesign as md

    assert len(SHELL) == 1
    commands = [line.split() for line in SHELL[0].strip().splitlines()]
    assert len(commands) <= 6
    (tmp_path / "labels.txt").write_text("".join(f"c{i}\n" for i in range(40)))
    for args in commands:
        if args[1] == "aggregate":      # the devices report through the saved kernel
            exact = md.deployment.load_kernel((tmp_path / "k.json").read_text()).kernel
            rng = np.random.default_rng(3)
            prior = md.priors.zipf_prior(40, 1.1)
            reports = exact.sample(rng.choice(40, size=20_000, p=prior), rng)
            (tmp_path / "reports.csv").write_text("".join(f"{y}\n" for y in reports))
            inputs = np.repeat(np.arange(40), 500)
            outputs = exact.sample(inputs, rng)
            (tmp_path / "pairs.csv").write_text(
                "".join(f"{x},{y}\n" for x, y in zip(inputs, outputs, strict=True)))
        done = subprocess.run([sys.executable, "-m", "mechdesign", *args[1:]], cwd=tmp_path,
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, f"{' '.join(args)} failed:\n{done.stderr}"


#: What a reader of the repository cannot open: the workplace's guide, its issue tracker
#: (another project's, such as HiGHS's, is public) and the folder beside the repository
#: (the Adult data ship with the package, in mechdesign/data/).
OUTSIDE = re.compile(
    r"GUIDE\b|(?<!HiGHS )\b[Ii]ssues? \d+|\.\./shared/|shared/(papers|data)|\bshared\b\W+\bdata\b")


def test_no_document_or_docstring_refers_outside_the_repository():
    files = [README, *(ROOT / "docs").glob("*.md"), *(ROOT / "mechdesign").rglob("*.py"),
             *(ROOT / "mechdesign").rglob("*.md"), *(ROOT / "benchmarks").glob("*.py"),
             *(ROOT / "notebooks").glob("*.ipynb")]
    found = [f"{path.relative_to(ROOT)}:{number}: {line.strip()[:80]}"
             for path in files
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if OUTSIDE.search(line)]
    assert not found, found


def test_every_cited_benchmark_table_is_generated_by_its_script():
    """Measured numbers live in one generated place: every docs/benchmarks/NAME.md that
    a document links to was written by the benchmark script its header names, with the
    revision, machine and versions, and that script writes into docs/benchmarks."""
    documents = [README, *(ROOT / "docs").glob("*.md")]
    cited = {name for path in documents
             for name in re.findall(r"\(?(?:docs/)?benchmarks/(\w+)\.md\)", path.read_text(
                 encoding="utf-8"))}
    assert cited, "no document cites a benchmark table"
    for name in sorted(cited):
        table = ROOT / "docs" / "benchmarks" / f"{name}.md"
        assert table.exists(), f"{name}.md is cited but not generated"
        text = table.read_text(encoding="utf-8")
        script = re.search(r"Generated by `python (benchmarks/\w+\.py)[^`]*` on ", text)
        assert script, f"{name}.md does not say which script generated it"
        assert "mechdesign at " in text, name
        assert "Machine: " in text, name
        source = (ROOT / script.group(1)).read_text(encoding="utf-8")
        assert "report.DOCS" in source, f"{script.group(1)} does not write to docs/benchmarks"
