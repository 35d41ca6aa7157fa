"""Sweeps (:func:`sweep`; the package is ``sweeps`` so that ``mechdesign.sweep`` is the
function): one function over the product of named parameter axes, on any executor, with
every finished point kept on disk.

``sweep(task, grid)`` calls ``task(**point)`` for every point of the grid and returns a
tidy :class:`pandas.DataFrame`, one row per point (per record, for a task returning
several), with the point's parameters, the task's record, ``seconds`` and ``error``.

Modules (design choices, each in the docstring of its module):

- :mod:`~mechdesign.sweeps.run`: :func:`sweep`, which puts the others together;
- :mod:`~mechdesign.sweeps.points`: a grid's points, their keys, the task's records and
  the table;
- :mod:`~mechdesign.sweeps.store`: the SQLite store, one committed row per finished
  point, so that a rerun computes only what is missing;
- :mod:`~mechdesign.sweeps.pool`: where the points run (serially, local processes, any
  :class:`concurrent.futures.Executor`), worker deaths and the serial fallback for plain
  scripts (:class:`SerialFallbackWarning`);
- :mod:`~mechdesign.sweeps.tasks`: the built-in tasks :func:`design_task`,
  :func:`measure_task` and :func:`envelope_task`, on the priors of
  :mod:`mechdesign.priors` (:func:`make_prior`);
- :mod:`~mechdesign.sweeps.plotting`: the default figure, :func:`plot_sweep`.
"""

from typing import TYPE_CHECKING

from mechdesign._lazy import attach

if TYPE_CHECKING:
    from mechdesign.sweeps.plotting import (
        plot_sweep as plot_sweep,
    )
    from mechdesign.sweeps.points import (
        RESERVED_COLUMNS as RESERVED_COLUMNS,
    )
    from mechdesign.sweeps.pool import (
        SerialFallbackWarning as SerialFallbackWarning,
    )
    from mechdesign.sweeps.run import (
        sweep as sweep,
    )
    from mechdesign.sweeps.tasks import (
        FAMILIES as FAMILIES,
        PRIORS as PRIORS,
        design_task as design_task,
        envelope_task as envelope_task,
        family_name as family_name,
        make_prior as make_prior,
        measure_task as measure_task,
    )

__getattr__, __dir__, __all__ = attach(__name__, __file__)
