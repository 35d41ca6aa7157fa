"""The default figure of a sweep table: :func:`plot_sweep` (matplotlib, imported on use)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from mechdesign._validation import show
from mechdesign.errors import InvalidInputError
from mechdesign.sweeps.points import RESERVED_COLUMNS

__all__ = ["plot_sweep"]


def plot_sweep(table: pd.DataFrame, x: str, y: str, *, over: str = "rep", ax: Any = None):
    """Plot ``y`` against ``x`` from a sweep table: one line per combination of the other
    axes that vary, the median over ``over`` (the repetitions) with the band between its
    25 % and 75 % quantiles. Failed rows (non-empty ``error``) are left out.

    Parameters
    ----------
    table : pandas.DataFrame
        A table of :func:`~mechdesign.sweeps.run.sweep`.
    x : str
        The column on the horizontal axis.
    y : str
        The numeric column on the vertical axis.
    over : str
        The column the median and the band run over (the repetitions); a column the
        table lacks means no band.
    ax : matplotlib.axes.Axes or None
        The Axes to draw in; None draws in a new figure.

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn in.
    """
    if not isinstance(table, pd.DataFrame):
        raise InvalidInputError(f"table must be a pandas DataFrame; got {type(table).__name__}.")
    for name, column in (("x", x), ("y", y), ("over", over)):
        if not isinstance(column, str) or (name != "over" and column not in table.columns):
            raise InvalidInputError(
                f"{name} must be a column of the table {list(table.columns)}; got {show(column)}."
            )
    if not pd.api.types.is_numeric_dtype(table[y]) or pd.api.types.is_bool_dtype(table[y]):
        raise InvalidInputError(f"y must be a numeric column; {y!r} holds {table[y].dtype}.")
    if ax is not None and not callable(getattr(ax, "plot", None)):
        raise InvalidInputError(f"ax must be a matplotlib Axes or None; got {show(ax)}.")
    ok = table[table["error"] == ""] if "error" in table.columns else table
    ok = ok[pd.to_numeric(ok[y], errors="coerce").notna()]
    ignored = {x, y, over, *RESERVED_COLUMNS}
    lines = [c for c in ok.columns if c not in ignored and ok[c].nunique(dropna=False) > 1
             and c in _axes_of(table)]
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(6.4, 4.2))
    groups = ok.groupby(lines, sort=True) if lines else [((), ok)]
    for key, group in groups:
        stats = group.groupby(x)[y].quantile([0.25, 0.5, 0.75]).unstack()
        key = key if isinstance(key, tuple) else (key,)
        label = ", ".join(f"{c}={v}" for c, v in zip(lines, key, strict=True)) or y
        (line,) = ax.plot(stats.index, stats[0.5], marker=".", label=label)
        if over in group.columns and group[over].nunique() > 1:
            ax.fill_between(stats.index, stats[0.25], stats[0.75], alpha=0.2,
                            color=line.get_color())
    ax.set_xlabel(x)
    ax.set_ylabel(y if over not in ok.columns or ok[over].nunique() <= 1
                  else f"{y} (median, 25–75 % band over {over})")
    ax.legend(fontsize="small")
    ax.grid(alpha=0.3)
    return ax


def _axes_of(table: pd.DataFrame) -> list[str]:
    """The table's axis columns: those before the first record column. Sweep tables keep
    the axes first; ``attrs["axes"]`` records them."""
    return list(table.attrs.get("axes", table.columns))
