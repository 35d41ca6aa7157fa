"""The installed ``mechdesign`` command, run in a fresh process: what a user pipes on."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def command() -> list[str]:
    """The installed console script when it sits beside this interpreter, else ``-m``."""
    script = Path(sys.executable).with_name("mechdesign")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "mechdesign.cli"]


def run(*args: str) -> subprocess.CompletedProcess:
    """Run ``mechdesign *args`` and capture its output (a failure is the caller's to check)."""
    return subprocess.run(
        [*command(), *args], capture_output=True, text=True, timeout=600, check=False
    )
