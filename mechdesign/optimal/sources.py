"""Column sources: where the columns of a design's master come from.

A design solves the master LP ``max Σ θ_v μ(v) s.t. Σ θ_v v = 1`` over section points
``v`` (:mod:`mechdesign.optimal.master`). A *column source* supplies them: a subclass of the
abstract base class :class:`ColumnSource`,

- ``initial_columns()``: points whose span makes the first master feasible;
- ``heuristic(dual, effort=1)``: improving columns for the dual ``λ``, cheaply, no bound;
- ``price(dual)``: the best columns and a certified upper bound on the best reduced cost
  ``max_v μ(v) − λ·v`` over every vertex, when ``exact`` is true;
- ``certified_dual()``: a dual ``λ`` and its bound ``1·λ + N max(0, max_v r(v))``
  known in closed form (``None`` if the source knows none): the bracket's first upper
  end;
- ``coarsened()``: the same design over merged inputs and the group of every input, whose
  optimum's columns lift to first columns (``None`` if the source has none);
- ``complete``: whether ``initial_columns()`` is already every vertex (then one LP
  suffices);
- ``retries``: how often column generation asks a heuristic source again, with more
  ``effort``, before it accepts that nothing improves.

The sources: :class:`VertexEnumeration` (every vertex, from any backend of
:meth:`~mechdesign.notions.cones.RatioCone.vertices`, closed forms included), :class:`CddRepair`
(cddlib's vertices when its LP probes showed some missing, extended by successive
linearisation), :class:`~mechdesign.optimal.patterns.PatternSource` (exact pattern pricing
for ε-LDP, ``(ε, c)``-PML and non-robust RLDP) and
:class:`~mechdesign.optimal.robust.pricing.LinearisationSource` (PolyOpt: exact block
pricing, heuristic where the blocks are too large). Which
pricing source serves which notion and utility is one table,
:data:`~mechdesign.optimal.registry.PRICING_SOURCES`; a pricing source (one the design
pipeline builds from a problem) subclasses :class:`PricingSource`.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mechdesign._tolerances import (
    CERTIFICATE_ATOL,
    PRICING_MIP_ABS_GAP,
)
from mechdesign._validation import (
    as_real,
    check_real_dtype,
    show,
)
from mechdesign.errors import InvalidInputError, SolverError, UnsupportedError
from mechdesign.notions.cones import VertexSet, section_argmax
from mechdesign.optimal.utilities import Utility

#: Column management: a source's default :attr:`ColumnSource.columns_per_input`. When the
#: master holds more than :data:`~mechdesign.optimal.column_generation.MASTER_PRUNE_FACTOR`
#: times this many columns per input (row), its worst non-basic columns are deleted down
#: to this many per input (:meth:`~mechdesign.optimal.master.RestrictedMaster.prune`).
MASTER_COLUMNS_PER_INPUT = 5
#: A source's default :attr:`ColumnSource.columns_per_round`: column generation adds at
#: most this many improving columns (best first) per iteration.
COLUMNS_PER_ROUND = 32

#: ``method="auto"`` enumerates while the notion's vertex bound is at most this many
#: vertices and uses column generation above it (where its pricing is exact): the
#: crossover measured by ``benchmarks/auto_method.py``. A pricing source may state its
#: own (:attr:`PricingSource.auto_max_vertices`).
AUTO_MAX_VERTICES = 2**18

__all__ = [
    "AUTO_MAX_VERTICES",
    "CddRepair",
    "ColumnSource",
    "Pricing",
    "PricingSource",
    "VertexEnumeration",
    "check_column_source",
    "check_gap",
]

# -- algorithm knobs --------------------------------------------------------------------

#: When cddlib is known to have missed vertices, design() looks for improving columns by
#: successive linearisation (price_by_linearisation): ascents from at most this many
#: starting points (the best by reduced cost, then a fixed-seed
#: random sample: on one PolyOpt instance only starts ranked 355th-476th of 487 led to
#: the improving vertex), at most this many LPs each.
PRICING_STARTS = 512
PRICING_ASCENT_STEPS = 20

#: Step of the forward differences of ``∇μ`` in that ascent (√ of the double epsilon,
#: about: the usual choice for a smooth function of order one).
FORWARD_DIFFERENCE_STEP = 1e-7


@dataclass(frozen=True)
class Pricing:
    """The answer of a column source's pricing for one dual ``λ``.

    Parameters
    ----------
    columns : ndarray, shape=(m, N)
        Section vertices found, best first (one or more per pattern family).
    reduced_costs : ndarray, shape=(m,)
        Their reduced costs ``μ(v) − λ·v``.
    upper_bound : float
        An upper bound on ``max_v μ(v) − λ·v`` over every vertex of the section (exact
        pricing); ``+inf`` when the pricing was heuristic.
    exact : bool
        Whether ``upper_bound`` is certified (the pricing was exact).
    mips : int
        Mixed-integer programs solved (every cut and every Dinkelbach step counts).
    converged : bool, default True
        ``False`` when ``converge=False`` stopped a fractional pricing short of
        converging, so that pricing the same dual with ``converge=True`` could tighten
        ``upper_bound`` or find other columns; ``True`` when it could not (a pricing
        with nothing to converge, such as one that scores every vertex).
    """

    columns: NDArray[np.float64]
    reduced_costs: NDArray[np.float64]
    upper_bound: float
    exact: bool
    mips: int
    converged: bool = True

    @property
    def reduced_cost(self) -> float:
        """The best reduced cost found (``-inf`` if nothing was found)."""
        return float(self.reduced_costs[0]) if self.reduced_costs.size else -math.inf

    @property
    def column(self) -> NDArray[np.float64]:
        """The best column found."""
        return self.columns[0]


class ColumnSource(ABC):
    """What column generation asks of a source of columns (see the module docstring): an
    abstract base class. A subclass sets ``n`` (the number of inputs) and ``exact``, and
    defines the abstract methods; the rest has defaults.

    Attributes
    ----------
    n : int
        The number of inputs N (the master's rows).
    exact : bool
        Whether :meth:`price` certifies an upper bound on every reduced cost.
    complete : bool
        Whether :meth:`initial_columns` is already every vertex (then one LP suffices).
    enumeration_seconds : float
        Seconds spent enumerating before the first master.
    retries : int
        How often column generation asks :meth:`heuristic` again, with more ``effort``,
        before it accepts that nothing improves.
    columns_per_input : int or None
        Column management, the source's rule: how many columns per input (row) the
        master keeps when column generation deletes its worst non-basic columns, or
        ``None`` to keep every column (see
        :func:`~mechdesign.optimal.column_generation.run_column_generation`). Few where
        the master's solves dominate; more where a deleted column costs a pricing to find
        again.
    columns_per_round : int
        The most improving columns (best first) column generation adds per iteration:
        :data:`COLUMNS_PER_ROUND` by default; more for a source whose heuristic proposes
        columns that work together (the ε-LDP arcs of whole orders of the inputs).
    """

    n: int
    exact: bool
    complete: bool = False
    enumeration_seconds: float = 0.0
    retries: int = 0
    columns_per_input: int | None = MASTER_COLUMNS_PER_INPUT
    columns_per_round: int = COLUMNS_PER_ROUND

    @abstractmethod
    def initial_columns(self) -> NDArray[np.float64]:
        """Section points (rows) whose span makes the first master feasible."""

    @abstractmethod
    def values(self, columns: NDArray[np.float64]) -> NDArray[np.float64]:
        """The utility ``μ(v)`` of every column (row) of ``columns``."""

    @abstractmethod
    def heuristic(self, dual: ArrayLike, *, effort: int = 1) -> Pricing:
        """Improving columns for the dual ``λ``, cheaply (``upper_bound`` may be ``inf``)."""

    @abstractmethod
    def price(
        self,
        dual: ArrayLike,
        *,
        converge: bool = True,
        abs_gap: float = PRICING_MIP_ABS_GAP,
        time_limit: float | None = None,
    ) -> Pricing:
        """The best columns for the dual ``λ`` and, when :attr:`exact`, a certified upper
        bound on ``max_v μ(v) − λ·v`` over every vertex.

        Column generation always passes the three keywords; a source without an inner
        optimisation accepts them and has nothing to tune. ``converge=False`` allows a
        bound that is valid but looser while it is positive (one Dinkelbach step of a
        fractional pricing); ``abs_gap`` is an inner solver's absolute optimality gap
        (the bound is within about it of the best reduced cost); ``time_limit``
        (seconds) stops the pricing early with a bound that is still certified, only
        looser.
        """

    @abstractmethod
    def describe(self, columns: int) -> str:
        """Where ``columns`` columns came from (``Design.backend``)."""

    def certified_dual(self) -> tuple[NDArray[np.float64], float] | None:
        """A dual ``λ`` with its bound ``1·λ + N max(0, max_v r_λ(v))`` on the optimum,
        known without pricing (a closed form), or ``None`` (the default)."""
        return None

    def coarsened(self) -> tuple[ColumnSource, NDArray[np.int64]] | None:
        """A source of the same design over merged inputs, with the group ``g(x)`` of
        every input (an integer array of shape ``(N,)``), or ``None`` (the default).

        Column generation solves the merged design first and adds the columns of its
        optimum, lifted (``v_x ∝ v'_{g(x)}``, normalised to sum one), to the first
        master. A source returns one only where a lifted column is a point of its own
        section (ε-LDP: the constraints compare rows) and the merged design is smaller."""
        return None

    def upper_bound(self, gap: float, time_limit: float | None) -> float:
        """A heuristic source's certified bound on the optimum; ``inf`` (the default)
        when it knows none."""
        return math.inf


class PricingSource(ColumnSource):
    """A column source the design pipeline builds from a problem (a notion and a utility):
    what :data:`~mechdesign.optimal.registry.PRICING_SOURCES` holds.

    Attributes
    ----------
    auto_max_vertices : int
        ``method="auto"`` generates columns with this source only where the notion's
        vertex bound exceeds this many vertices (:data:`AUTO_MAX_VERTICES` by default).
    """

    auto_max_vertices: int = AUTO_MAX_VERTICES

    @classmethod
    @abstractmethod
    def from_problem(cls, notion: object, objective: Utility) -> PricingSource:
        """The source for a validated notion and utility (the design pipeline's call)."""

    @staticmethod
    @abstractmethod
    def supports(notion: object, prior: NDArray[np.float64] | None) -> bool:
        """Whether the source prices ``notion`` exactly under ``prior`` (the utility's
        :attr:`~mechdesign.optimal.utilities.Utility.prior`, ``None`` for a utility
        without one): what ``method="auto"`` asks before it chooses column generation."""


def check_column_source(source: object, name: str = "source") -> ColumnSource:
    """``source`` if it is a :class:`ColumnSource` (an instance of a subclass), else
    :class:`InvalidInputError` naming ``name``.

    Parameters
    ----------
    source : object
        The candidate column source.
    name : str, default "source"
        The argument's name in the error message.

    Returns
    -------
    ColumnSource
    """
    if not isinstance(source, ColumnSource):
        raise InvalidInputError(
            f"{name} must be a column source (a subclass of "
            "mechdesign.optimal.ColumnSource) such as mechdesign.optimal.PatternSource("
            f"notion, prior); got {show(source)} of type {type(source).__name__}."
        )
    return source


class _Enumerated(ColumnSource):
    """Columns that start from an enumerated vertex set (shared by the two sources)."""

    def __init__(self, vertex_set: VertexSet, objective: Utility) -> None:
        self.vertex_set = vertex_set
        self.objective = objective
        self.n = int(vertex_set.points.shape[1])
        self.enumeration_seconds = vertex_set.seconds

    def initial_columns(self) -> NDArray[np.float64]:
        return self.vertex_set.points

    def values(self, columns: NDArray[np.float64]) -> NDArray[np.float64]:
        return self.objective.column_values(columns)



class VertexEnumeration(_Enumerated):
    """Every vertex of the section: a complete, exact column source.

    Parameters
    ----------
    vertex_set : VertexSet
        From :meth:`~mechdesign.notions.cones.RatioCone.vertices` (any backend): every
        vertex of the section, as rows of shape (s, N).
    objective : Utility
        The utility ``μ`` of the design (:mod:`~mechdesign.optimal.utilities`), on the
        same ``N`` inputs.
    """

    complete = True
    columns_per_input = MASTER_COLUMNS_PER_INPUT
    exact = True
    retries = 0

    def describe(self, columns: int) -> str:
        return self.vertex_set.backend

    def price(self, dual: ArrayLike, *, converge: bool = True,
              abs_gap: float = PRICING_MIP_ABS_GAP, time_limit: float | None = None
              ) -> Pricing:
        """Every vertex by reduced cost; the bound is the best of them (exact; the
        keywords have nothing to tune)."""
        lam = check_dual(dual, self.n)
        points = self.vertex_set.points
        costs = self.values(points) - points @ lam
        return sorted_pricing(points, costs, float(costs.max()), True, 0)

    def heuristic(self, dual: ArrayLike, *, effort: int = 1) -> Pricing:
        return self.price(dual)


class CddRepair(_Enumerated):
    """cddlib's vertices, extended by successive linearisation where its LP probes
    showed that it missed some (:attr:`~mechdesign.notions.cones.VertexSet.missed` > 0).

    A heuristic source (``exact = False``): finding no improving column does not prove
    optimality, and the design's certificate covers only the columns found.

    Parameters
    ----------
    vertex_set : VertexSet
        cddlib's (incomplete) vertices of the section, as rows of shape (s, N).
    h : ndarray, shape=(m, N)
        The section's H-representation ``H v ≥ 0`` (with ``Σ v = 1``).
    objective : Utility
        The utility ``μ`` of the design, on the same ``N`` inputs.
    """

    complete = False
    columns_per_input = MASTER_COLUMNS_PER_INPUT
    exact = False
    retries = 0  # its ascents are deterministic: asking again finds the same

    def __init__(self, vertex_set: VertexSet, h: NDArray[np.float64], objective: Utility
                 ) -> None:
        super().__init__(vertex_set, objective)
        self.h = h
        self._pool = vertex_set.points

    def describe(self, columns: int) -> str:
        added = columns - len(self.vertex_set)
        return self.vertex_set.backend + (f" + {added} columns by pricing" if added else "")

    def heuristic(self, dual: ArrayLike, *, effort: int = 1) -> Pricing:
        """Ascents by :func:`price_by_linearisation` from ``effort ·``
        :data:`PRICING_STARTS` of the columns known so far."""
        lam = check_dual(dual, self.n)
        values = self.values(self._pool)
        found = price_by_linearisation(self.h, self.objective, self._pool, values, lam,
                                       starts=effort * PRICING_STARTS)
        if found.shape[0]:
            self._pool = np.vstack([self._pool, found])
        costs = self.values(found) - found @ lam
        return sorted_pricing(found, costs, math.inf, False, 0)

    def price(self, dual: ArrayLike, *, converge: bool = True,
              abs_gap: float = PRICING_MIP_ABS_GAP, time_limit: float | None = None
              ) -> Pricing:
        """Refused: no exact pricing is known for a section cddlib could not enumerate."""
        raise UnsupportedError(
            "no exact pricing is known for this section (cddlib missed vertices of it)."
        )


def price_by_linearisation(
    h: NDArray[np.float64],
    objective: Utility,
    points: NDArray[np.float64],
    values: NDArray[np.float64],
    dual: NDArray[np.float64],
    *,
    starts: int = PRICING_STARTS,
) -> NDArray[np.float64]:
    """Columns of the section ``S = {v : H v ≥ 0, Σ v = 1}`` with positive reduced cost
    ``μ(v) − λ·v``, found by successive linearisation (a heuristic).

    ``μ`` is convex and positively homogeneous, so with ``g = ∇μ(v₀)`` Euler's identity
    ``g·v₀ = μ(v₀)`` and convexity give ``μ(v) ≥ g·v`` for every ``v``. The simplex LP
    ``v₁ = argmax_S (g − λ)·v`` therefore never decreases the reduced cost:
    ``μ(v₁) − λ·v₁ ≥ (g − λ)·v₁ ≥ (g − λ)·v₀ = μ(v₀) − λ·v₀``, and ``v₁`` is a vertex.
    Ascents start from up to ``starts`` points (the largest reduced costs
    first, then a fixed-seed random sample of the rest: the ascent from a vertex of the
    LP's basis stays there, and improving columns are often reached only from poorly
    ranked starts) and stop when a step gains nothing. ``g`` is a forward difference;
    the gain is checked with the true ``μ``. Finding nothing does not prove optimality:
    pricing a
    convex maximisation exactly needs a pattern of the vertices
    (:mod:`mechdesign.optimal.patterns`).
    """
    scale = max(1.0, float(np.abs(values).max()))
    tolerance = CERTIFICATE_ATOL * scale
    reduced = values - points @ dual
    order = np.argsort(-reduced)
    if order.size > starts:
        head = starts // 2
        rest = np.random.default_rng(0).choice(order[head:], starts - head, replace=False)
        order = np.concatenate([order[:head], rest])
    found = []
    for start in order:
        v, best = points[start], reduced[start]
        for _ in range(PRICING_ASCENT_STEPS):
            try:
                candidate = section_argmax(h, _forward_gradient(objective, v) - dual)
            except SolverError:
                break
            candidate = np.clip(candidate, 0.0, None)
            candidate /= candidate.sum()
            gain = float(objective.column_values(candidate[None])[0] - candidate @ dual)
            if gain <= best + tolerance:
                break
            v, best = candidate, gain
        if best > tolerance and best > reduced[start] + tolerance:
            found.append(v)
    return np.array(found).reshape(-1, points.shape[1])


def _forward_gradient(objective: Utility, v: NDArray[np.float64]) -> NDArray[np.float64]:
    """``∇μ(v)`` by forward differences (steps into ``v ≥ 0`` at zero coordinates)."""
    step = FORWARD_DIFFERENCE_STEP
    shifted = v[None, :] + step * np.eye(v.shape[0])
    return (objective.column_values(shifted) - objective.column_values(v[None])[0]) / step


def sorted_pricing(columns, costs, upper, exact, mips, converged=True) -> Pricing:
    """A :class:`Pricing` with its columns in decreasing reduced cost (stable order)."""
    order = np.argsort(-costs, kind="stable")
    return Pricing(columns[order], costs[order], float(upper), exact, mips, converged)


def check_dual(dual: ArrayLike, n: int) -> NDArray[np.float64]:
    """``dual`` as a finite float vector of length ``n`` (a master's dual), or
    :class:`InvalidInputError` naming ``dual``."""
    check_real_dtype(dual, "dual")  # complex, text, booleans: refused, not coerced
    lam = np.asarray(dual, dtype=float)
    if lam.shape != (n,) or not np.all(np.isfinite(lam)):
        raise InvalidInputError(f"dual must be a finite vector of length {n}; got {show(dual)}.")
    return lam


def check_gap(gap: float, name: str = "gap") -> float:
    """A gap tolerance (or a time limit): positive and finite."""
    value = as_real(gap, name)
    if not (math.isfinite(value) and value > 0):
        raise InvalidInputError(f"{name} must be a positive finite number; got {show(gap)}.")
    return value
