"""How the command line prints: numbers in text tables, and ``--json`` documents (JSON
has no infinity: ``+∞`` / ``−∞`` are the strings ``"inf"`` / ``"-inf"``)."""

from __future__ import annotations

import math
from typing import Any

__all__ = ["fmt", "jsonable"]


def jsonable(value: Any) -> Any:
    """``value`` with every infinite float replaced by ``"inf"`` or ``"-inf"``, in nested
    dicts, lists and tuples too (tuples become lists).

    Parameters
    ----------
    value : object
        A report (nested dicts, lists, tuples, numbers, strings).
    """
    if isinstance(value, dict):
        return {key: jsonable(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(item) for item in value]
    if isinstance(value, float) and math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return value


def fmt(value: float | str) -> str:
    """A number as text (six significant digits, ``+inf``/``-inf``); text as it is.

    Parameters
    ----------
    value : float or str
        What to print.
    """
    if isinstance(value, str):
        return value
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:.6g}"

