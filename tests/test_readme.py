"""The README's Python blocks run as written, each on its own in a fresh interpreter (a
user copies one block, not the whole page; a tour that fails is worse than none)."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.helpers import ROOT

README = ROOT / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)

ADULT = "../shared/data/adult.csv"  # the README's CSV example, relative to the repository


#: A block that runs shuffle accounting, a sweep or a time-limited design takes from
#: seconds to a minute (measured with pytest --durations): it runs with the slow tests
#: (pytest -m slow), not in the default run.
SLOW_BLOCK_CALLS = ("shuffle", "Shuffled", "md.sweep(", "time_limit=")


def _blocks():
    return [pytest.param(index, id=f"block{index}", marks=[pytest.mark.slow] if any(
        call in block for call in SLOW_BLOCK_CALLS) else []) for index, block in enumerate(BLOCKS)]


def test_readme_has_python_blocks():
    assert len(BLOCKS) >= 3
    assert any(not param.marks for param in _blocks()), "every README block is slow"


@pytest.mark.parametrize("index", _blocks())
def test_readme_block_runs_in_a_fresh_interpreter(index, tmp_path):
    block = BLOCKS[index]
    if ADULT in block and not (ROOT / ADULT).is_file():
        pytest.skip("a clone without the shared data: the CSV example cannot run")
    # In a scratch folder (a block may write files), with the data path made absolute.
    block = block.replace(ADULT, str((ROOT / ADULT).resolve()))
    done = subprocess.run(
        [sys.executable, "-c", block], cwd=tmp_path, capture_output=True, text=True,
        timeout=600,
    )
    assert done.returncode == 0, f"README block {index} failed:\n{done.stderr}"
    assert done.stdout == "", "a README block printed something it does not show"


SHELL = re.findall(r"```bash\n(mechdesign local-epsilon.*?)```", README.read_text(encoding="utf-8"),
                   re.S)


@pytest.mark.slow
def test_the_deployment_commands_run_as_shown(tmp_path):
    """The README's six commands, in order, in a scratch folder: the user's files are
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
