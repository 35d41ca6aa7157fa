"""The command line's entry point (mechdesign.cli: main, the parser): help, version, the
console script, and every --json output parses from the installed command."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import mechdesign as md
from mechdesign.cli import main
from tests.cli.installed import run


def test_console_script_entry_point():
    """The installed command runs (python -m form, independent of PATH)."""
    done = subprocess.run(
        [sys.executable, "-m", "mechdesign.cli", "demo", "--json"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert "envelope-example1" in json.loads(done.stdout)["paper_examples"]


JSON_COMMANDS = {
    "audit": ["audit", "{kernel}", "--c", "0.1", "--json"],
    "design-ldp": ["design", "--notion", "ldp", "--n", "3", "--json"],
    "design-ldp-column-generation": [
        "design", "--notion", "ldp", "--n", "5", "--method", "column_generation", "--json"
    ],
    "design-pml-c": ["design", "--notion", "pml", "--c", "0.1", "--n", "4", "--json"],
    "design-pml-prior": ["design", "--notion", "pml", "--prior", "{prior}", "--json"],
    "design-rldp": [
        "design", "--notion", "rldp", "--data", "{pairs}", "--sensitive", "secret",
        "--other", "other", "--json",
    ],
    "design-rldp-ir": [
        "design", "--notion", "rldp", "--data", "{pairs}", "--sensitive", "secret",
        "--other", "other", "--mechanism", "ir", "--json",
    ],
    "envelope": ["envelope", "{kernel}", "--delta", "0.1", "0.3", "--json"],
    "bounds": ["bounds", "--epsilon", "1", "--c", "0.05", "--n", "6", "--json"],
    "demo": ["demo", "--json"],
    "shuffle": ["shuffle", "{kernel}", "--users", "1000", "--delta", "1e-6", "--json"],
    "shuffle-protocol": ["shuffle", "--protocol", "oue", "--k", "8", "--epsilon0", "2",
                         "--users", "1000", "--delta", "1e-6", "--json"],
    "local-epsilon": ["local-epsilon", "--central", "1", "--delta", "1e-6", "--users",
                      "10000", "--protocol", "grr", "--k", "10", "--json"],
}


@pytest.mark.parametrize("name", list(JSON_COMMANDS))
def test_every_json_output_parses(name, kernel_csv, pair_csv, tmp_path):
    """stdout of every ``--json`` command is one JSON document and nothing else (a solver
    banner written from C to file descriptor 1 once broke every one of them)."""
    prior = tmp_path / "prior.csv"
    prior.write_text("0.5,0.3,0.2\n")
    files = {"kernel": str(kernel_csv), "pairs": str(pair_csv), "prior": str(prior)}
    done = run(*(arg.format(**files) for arg in JSON_COMMANDS[name]))
    assert done.returncode == 0, done.stderr
    assert isinstance(json.loads(done.stdout), dict)
    assert done.stderr == ""


def test_no_command_prints_help_and_exits_2(capsys):
    assert main([]) == 2
    err = capsys.readouterr().err
    assert "usage: mechdesign" in err
    assert "design" in err
    assert "audit" in err


@pytest.mark.parametrize("flag", ["--help", "--version"])
def test_help_and_version_exit_0(flag, capsys):
    with pytest.raises(SystemExit) as info:
        main([flag])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert (f"mechdesign {md.__version__}" in out) if flag == "--version" else ("usage:" in out)
