"""Matplotlib on the file backend, and one way to save a figure."""

from __future__ import annotations

from pathlib import Path


def pyplot():
    """``matplotlib.pyplot`` on the Agg backend (no display needed)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save(fig, path: Path) -> Path:
    """Write ``fig`` to ``path`` (PNG, 130 dpi), close it and return the path."""
    fig.savefig(path, dpi=130)
    pyplot().close(fig)
    return path
