"""Exact pricing of g-vulnerability over patterned vertices, by sorting.

For a gain utility (:class:`~mechdesign.optimal.utilities.GainUtility`) the column
function is ``μ(v) = max_w a_w·v`` with ``a_w = P ∘ g[w]``, so the reduced cost of a
column under the master's dual ``λ`` is

.. math::

    r(v) = \\mu(v) - \\lambda\\cdot v = \\max_w\\, (a_w - \\lambda)\\cdot v,
    \\qquad
    \\max_{v \\in V} r(v) = \\max_w \\max_{v \\in V} d_w \\cdot v, \\quad d_w = a_w - \\lambda.

The two maxima commute, and the inner one is linear in ``v``. Over a pattern family of
:mod:`mechdesign.optimal.patterns` (ε-LDP: ``v = (e^{−ε} 1 + (1 − e^{−ε}) 1_B)/D``;
``(ε, c)``-PML: two levels at a fixed ``|B|``, or zeros, ``top`` on ``T`` and ``free`` on
one more coordinate) the normaliser ``D`` depends on the pattern's size only, so for a
fixed size ``d_w·v`` is a weighted sum of the scores ``d_w`` over the pattern's
coordinates with fixed weights, and by the rearrangement inequality the maximiser takes
the largest scores — one sort of ``d_w`` per guess ``w``, then a scan over the sizes
(:meth:`~mechdesign.optimal.patterns.TwoLevelFamily.linear_maximum`,
:meth:`~mechdesign.optimal.patterns._ThreeLevel.linear_maximum`). Since the families
cover every vertex of the section, the best column found attains ``max_v r(v)``: the
pricing is exact, its upper bound is that maximum, and it costs ``O(W N log N)`` per
family — no mixed-integer program, unlike mutual information
(:class:`~mechdesign.optimal.patterns.PatternSource`), whose ``μ`` is not a maximum of
linear functions. ``tests/optimal/test_gain_pricing.py`` checks it against brute force over every
pattern for ``N ≤ 12``.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mechdesign._lazy import deprecated_names
from mechdesign._tolerances import PRICING_MIP_ABS_GAP
from mechdesign._validation import show
from mechdesign.errors import InvalidInputError, UnsupportedError
from mechdesign.optimal.patterns import PatternSource, pattern_families, unique_patterns
from mechdesign.optimal.sources import (
    MASTER_COLUMNS_PER_INPUT,
    Pricing,
    PricingSource,
    check_dual,
    sorted_pricing,
)
from mechdesign.optimal.utilities import GainUtility

#: Column sources were called oracles, the word the frequency oracles of
#: :mod:`mechdesign.mechanisms` keep: the old names answer for one release.
__getattr__ = deprecated_names(__name__, {"GainPricingOracle": f"{__name__}.GainSource"})

__all__ = ["GAIN_AUTO_MAX_VERTICES", "GainSource"]

#: ``design(method="auto")`` generates columns for g-vulnerability above this many
#: vertices: the crossover measured on a 2-core machine (Bayes vulnerability, ε = 1,
#: Dirichlet(1) priors, enumeration / column-generation seconds): ε-LDP N = 10 (1,022
#: vertices) 0.012 / 0.008, N = 12 0.044 / 0.010, N = 14 0.21 / 0.022;
#: ``(ε, 1/(2N))``-PML N = 10 0.024 / 0.018, N = 14 0.74 / 0.041.
GAIN_AUTO_MAX_VERTICES = 2**10


class GainSource(PricingSource):
    """Exact pricing of a :class:`~mechdesign.optimal.utilities.GainUtility` over the
    patterned vertices of ε-LDP and ``(ε, c)``-PML (see the module docstring for the
    proof). A column source (:class:`~mechdesign.optimal.sources.ColumnSource`) with
    ``exact = True``; :meth:`heuristic` is :meth:`price`, which is already cheap.

    Parameters
    ----------
    notion : LDP or PML with ``c``
        ``0 < ε < ∞``.
    objective : GainUtility
        The g-vulnerability to maximise; its prior (shape (N,)) is the design's.
    """

    exact = True
    columns_per_input = MASTER_COLUMNS_PER_INPUT  # pricing by sorting is cheap beside the master
    auto_max_vertices = GAIN_AUTO_MAX_VERTICES
    supports = staticmethod(PatternSource.supports)

    def __init__(self, notion: object, objective: GainUtility) -> None:
        if not isinstance(objective, GainUtility):
            raise InvalidInputError(
                f"objective must be a GainUtility; got {show(objective)}."
            )
        self.objective = objective
        self.prior, self.families, self._initial = pattern_families(notion, objective.prior)
        if not all(hasattr(family, "linear_maximum") for family in self.families):
            raise UnsupportedError(
                f"sort pricing of g-vulnerability needs pattern families with a fixed "
                f"normaliser per size (epsilon-LDP, (epsilon, c)-PML); {show(notion)} has "
                "others. Use method='enumeration'."
            )
        self.n = self.prior.shape[0]

    @classmethod
    def from_problem(cls, notion: object, objective: GainUtility) -> GainSource:
        """The source for the design pipeline."""
        return cls(notion, objective)

    def initial_columns(self) -> NDArray[np.float64]:
        """Section points summing to ``1``, so that the first master is feasible."""
        return self._initial.copy()

    def values(self, columns: NDArray[np.float64]) -> NDArray[np.float64]:
        """``μ(v) = max_w a_w·v`` of every column (row)."""
        return self.objective.column_values(columns)

    def price(self, dual: ArrayLike, *, converge: bool = True,
              abs_gap: float = PRICING_MIP_ABS_GAP, time_limit: float | None = None
              ) -> Pricing:
        """For every guess ``w`` and family, the column maximising ``(a_w − λ)·v``; the
        upper bound is the largest of those maxima, which is ``max_v μ(v) − λ·v`` over
        every vertex (exact by sorting: the keywords have nothing to tune)."""
        lam = check_dual(dual, self.n)
        scores = self.objective.weights - lam[None, :]
        columns, bound = [], -math.inf
        for family in self.families:
            z, best = family.linear_maximum(scores)
            columns.append(family.points(unique_patterns(z)))
            bound = max(bound, float(best.max()))
        points = np.unique(np.vstack(columns), axis=0)
        costs = self.values(points) - points @ lam
        return sorted_pricing(points, costs, max(bound, float(costs.max())), True, 0)

    def heuristic(self, dual: ArrayLike, *, effort: int = 1) -> Pricing:
        """:meth:`price` (exact and cheap; ``effort`` has nothing to add)."""
        return self.price(dual)

    def describe(self, columns: int) -> str:
        return "column generation (exact sort pricing of g-vulnerability)"

