"""Output of the reproductions: matplotlib on the file backend, saving a figure, writing a
CSV table."""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
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


def write_csv(path: Path, header: Sequence[str], rows: Iterable[Sequence[object]]) -> Path:
    """Write ``rows`` under ``header`` to the CSV file ``path`` (UTF-8); return the path."""
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(rows)
    return path
