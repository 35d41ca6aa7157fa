"""Ratio cones: the one abstraction behind every privacy notion.

A privacy notion constrains each output column ``v = K[:, y]`` of a mechanism (a vector
indexed by the N inputs) separately, by finitely many ratio inequalities

.. math::

    a \\cdot v \\le e^{\\varepsilon}\\, b \\cdot v \\quad \\text{for every pair } (a, b),
    \\qquad v \\ge 0,

with ``a, b`` non-negative. The admissible columns form a
polyhedral cone ``C``; a mechanism satisfies the notion exactly when every column lies
in ``C``. This module turns the pairs into

- an H-representation ``G v ≥ 0`` (:meth:`RatioCone.inequalities`),
- an audit of a kernel, ``max_y max_(a,b) log(a·K[:,y] / b·K[:,y])``
  (:meth:`RatioCone.level`, with ``0/0 := −∞``, ``positive/0 := +∞``),
- the vertices of the normalised section ``S = {v ∈ C : Σ_x v_x = 1}``, a polytope, by a
  backend chosen by name (:meth:`RatioCone.vertices`):

  ``"cdd"``
      pycddlib in floating point; near-duplicates are merged (tolerance
      :data:`~mechdesign._tolerances.VERTEX_DEDUP_ATOL`) and every vertex is checked
      against the H-representation (:data:`~mechdesign._tolerances.VERTEX_FEASIBILITY_ATOL`);
      coordinates that pass the check but are a rounding error below zero are set to 0.
      Floating-point cddlib can silently return too few vertices on degenerate cones, so
      the result is probed by LP (:func:`_probe_missing_vertices`); if a probe finds a
      missed vertex, further row orders are unioned (:func:`_cdd_vertices`), and
      :attr:`VertexSet.missed` reports what the probes still had to add.
  ``"exact"``
      exhaustive enumeration of active sets in integer arithmetic, independent of
      cddlib; see :func:`_exact_vertices` for the argument that it is complete and
      exact. Small instances only.
  ``"closed_form"``
      a generator the notion supplies where the vertex structure is known (ε-LDP: the
      normalised ``{1, e^ε}^N`` patterns).
  ``"auto"``
      the closed form when there is one; otherwise ``"cdd"``, except above
      :data:`CDD_RELIABLE_EPSILON`, where the rows' range ``e^ε`` defeats cddlib's
      floating point (PolyOpt on the robust-LDP paper's Example 1: correct to ε = 15,
      points outside the section or a kernel failing its audit from ε = 16) and the
      exact backend is used while it is affordable (``max_active_sets``).

Before enumerating, the number of vertices is bounded (:meth:`RatioCone.vertex_bound`);
above ``max_vertices`` a :class:`~mechdesign.errors.TooLargeError` is raised.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

import numpy as np
import scipy.sparse as sp
from numpy.typing import ArrayLike, NDArray
from scipy.spatial import cKDTree

from mechdesign._solvers.highs import solve_linear_program
from mechdesign._tolerances import (
    EXACT_SCREEN_ATOL,
    EXACT_SCREEN_COND,
    VERTEX_ACTIVE_ATOL,
    VERTEX_DEDUP_ATOL,
    VERTEX_FEASIBILITY_ATOL,
    VERTEX_PROBE_ATOL,
    VERTEX_RESOLVE_MOVE_ATOL,
    VERTEX_RESOLVE_RESIDUAL_ATOL,
)
from mechdesign._validation import (
    LOG_FLOAT_MAX,
    as_float_array,
    check_epsilon,
    check_int,
    check_tolerance,
    show,
)
from mechdesign.errors import InfeasibleError, InvalidInputError, SolverError, TooLargeError
from mechdesign.kernel import Mechanism, as_matrix
from mechdesign.status import Status

__all__ = ["BACKENDS", "RatioCone", "VertexSet"]

# -- algorithm knobs --------------------------------------------------------------------

#: Default cap on the number of vertices a design may enumerate (2^20, just above the
#: 2^20 − 2 vertices of ε-LDP at N = 20).
MAX_VERTICES = 2**20

#: ``backend="auto"`` prefers the exact backend above this ε (nats), where the cone's
#: rows span a factor e^ε and cddlib's floating point fails (measured: PolyOpt on the
#: robust-LDP paper's Example 1 is right to ε = 15 and wrong from 16).
CDD_RELIABLE_EPSILON = 12.0

#: Default cap on the number of active sets the exact backend may examine.
MAX_EXACT_ACTIVE_SETS = 300_000

#: Random directions per probing round (besides the 2N coordinate directions ±e_i) and
#: the most rounds; a round that finds nothing ends the probing.
VERTEX_PROBE_DIRECTIONS = 16
VERTEX_PROBE_ROUNDS = 8

Backend = Literal["auto", "cdd", "exact", "closed_form"]
BACKENDS: tuple[str, ...] = ("auto", "cdd", "exact", "closed_form")


@dataclass(frozen=True)
class VertexSet:
    """The vertices of a ratio cone's normalised section, with how they were found.

    Parameters
    ----------
    points : ndarray, shape (k, N)
        One vertex per row; each row is non-negative and sums to one.
    backend : str
        The backend that produced them (``"cdd"``, ``"exact"`` or ``"closed_form"``).
    seconds : float
        Wall-clock enumeration time.
    exact : tuple of tuple of Fraction, or None
        The exact rational vertices (same order as ``points``) for the exact backend.
    missed : int
        For the cdd backend, how many vertices cddlib missed and LP probes found
        (:func:`_probe_missing_vertices`); they are included in ``points``. When it is
        positive the set may still be incomplete, and a design's certificate covers only
        these points. Always 0 for the other backends.
    """

    points: NDArray[np.float64]
    backend: str
    seconds: float
    exact: tuple[tuple[Fraction, ...], ...] | None = None
    missed: int = 0

    def __len__(self) -> int:
        return int(self.points.shape[0])


@dataclass(frozen=True, eq=False)
class RatioCone:
    """The cone ``{v ≥ 0 : a_i·v ≤ e^ε b_i·v for all i}`` on N coordinates.

    Parameters
    ----------
    epsilon : float
        ε ≥ 0; ``math.inf`` makes every pair vacuous.
    numerators : array_like, shape (m, N)
        The vectors ``a_i`` (non-negative).
    denominators : array_like, shape (m, N)
        The vectors ``b_i`` (non-negative).
    name : str, optional
        What the cone encodes, for messages.
    known_vertex_bound : int, optional
        A proven upper bound on the number of vertices of the normalised section that
        the notion knows from the structure of its pairs; without it
        :meth:`vertex_bound` falls back to McMullen's upper bound theorem.
    closed_form : callable, optional
        ``closed_form(cone) -> ndarray``, the vertices of the normalised section in closed
        form, shape (k, N), one per row.
    """

    epsilon: float
    numerators: NDArray[np.float64]
    denominators: NDArray[np.float64]
    name: str = "ratio cone"
    known_vertex_bound: int | None = field(default=None, repr=False)
    closed_form: Callable[[RatioCone], NDArray[np.float64]] | None = field(
        default=None, repr=False
    )

    def __post_init__(self) -> None:
        object.__setattr__(self, "epsilon", check_epsilon(self.epsilon))
        a = as_float_array(self.numerators, "numerators", ndim=2)
        b = as_float_array(self.denominators, "denominators", ndim=2)
        if a.shape != b.shape:
            raise InvalidInputError(
                f"numerators and denominators must have the same shape; got {a.shape} "
                f"and {b.shape}."
            )
        if np.any(a < 0) or np.any(b < 0):
            raise InvalidInputError("numerators and denominators must be non-negative.")
        a.setflags(write=False)
        b.setflags(write=False)
        object.__setattr__(self, "numerators", a)
        object.__setattr__(self, "denominators", b)
        if self.known_vertex_bound is not None:
            object.__setattr__(self, "known_vertex_bound",
                               check_int(self.known_vertex_bound, "known_vertex_bound", low=1))
        if self.closed_form is not None and not callable(self.closed_form):
            raise InvalidInputError(
                f"closed_form must be a function of the cone (or None); got "
                f"{show(self.closed_form)}."
            )

    @property
    def n(self) -> int:
        """The number of coordinates N (inputs of the mechanism)."""
        return int(self.numerators.shape[1])

    # -- H-representation ---------------------------------------------------------------

    def inequalities(self) -> NDArray[np.float64]:
        """Rows ``g`` of ``g·v ≥ 0`` equivalent to the pairs, given ``v ≥ 0``.

        Each pair gives ``g = e^ε b − a``. Rows with no negative entry are implied by
        ``v ≥ 0`` and dropped; the rest are scaled by powers of two to a max-norm in
        ``[1/2, 1)`` and deduplicated.
        Returns shape (r, N); ``v ≥ 0`` itself is not included.
        """
        if math.isinf(self.epsilon):
            return np.zeros((0, self.n))
        if self.epsilon < LOG_FLOAT_MAX:
            g = math.exp(self.epsilon) * self.denominators - self.numerators
        else:  # e^ε overflows: the same rows divided by e^ε
            g = self.denominators - math.exp(-self.epsilon) * self.numerators
        g = g[np.any(g < 0, axis=1)]
        if g.shape[0] == 0:
            return g
        # Scale by a power of two (exact in binary floating point, so the exact backend
        # sees the same polytope) to a max-norm in [1/2, 1).
        _, exponent = np.frexp(np.abs(g).max(axis=1, keepdims=True))
        return np.unique(np.ldexp(g, -exponent), axis=0)

    def h_representation(self) -> NDArray[np.float64]:
        """All inequalities ``H v ≥ 0`` of the cone: :meth:`inequalities` then ``v ≥ 0``.

        The normalised section adds the equation ``Σ_x v_x = 1``.
        """
        return np.vstack([self.inequalities(), np.eye(self.n)])

    def contains(self, v: ArrayLike, *, atol: float = VERTEX_FEASIBILITY_ATOL) -> bool:
        """Whether ``v`` lies in the cone, up to ``atol`` on each scaled inequality."""
        atol = check_tolerance(atol, "atol")
        x = as_float_array(v, "v", ndim=1)
        if x.shape[0] != self.n:
            raise InvalidInputError(f"v must have length {self.n}; got {x.shape[0]}.")
        return bool(np.all(self.h_representation() @ x >= -atol * max(1.0, np.abs(x).max())))

    # -- audit ----------------------------------------------------------------------------

    def level(self, kernel: Mechanism | ArrayLike) -> float:
        """The least ε for which every column of ``kernel`` lies in the cone's pairs.

        .. math::

            \\max_y \\max_i \\log \\frac{a_i \\cdot K[:, y]}{b_i \\cdot K[:, y]},

        with ``0/0 := −∞`` and ``positive/0 := +∞``. A cone
        without pairs has level ``−∞``.
        """
        k = as_matrix(kernel)
        if k.shape[0] != self.n:
            raise InvalidInputError(
                f"kernel must have {self.n} rows (inputs) for this cone; got {k.shape[0]}."
            )
        top = self.numerators @ k
        bottom = self.denominators @ k
        ratio = np.full(top.shape, -math.inf)
        ratio[(top > 0) & (bottom == 0)] = math.inf
        both = (top > 0) & (bottom > 0)
        ratio[both] = np.log(top[both]) - np.log(bottom[both])
        return float(ratio.max()) if ratio.size else -math.inf

    # -- vertices -------------------------------------------------------------------------

    def vertex_bound(self) -> int:
        """An upper bound on the number of vertices of the normalised section.

        The notion's own structural bound when it supplied one, otherwise McMullen's
        upper bound theorem for a ``d = N − 1`` dimensional polytope with ``f`` facets
        (``f`` = number of rows of :meth:`h_representation`):

        .. math::

            f_0 \\le \\binom{f - \\lfloor (d+1)/2 \\rfloor}{f - d}
                   + \\binom{f - \\lfloor (d+2)/2 \\rfloor}{f - d}.
        """
        if self.known_vertex_bound is not None:
            return int(self.known_vertex_bound)
        d = self.n - 1
        if d == 0:
            return 1
        f = self.h_representation().shape[0]
        return math.comb(f - (d + 1) // 2, f - d) + math.comb(f - (d + 2) // 2, f - d)

    def vertices(
        self,
        backend: Backend = "auto",
        *,
        max_vertices: int = MAX_VERTICES,
        max_active_sets: int = MAX_EXACT_ACTIVE_SETS,
    ) -> VertexSet:
        """The vertices of ``{v ∈ cone : Σ v = 1}`` by the named backend.

        Parameters
        ----------
        backend : {"auto", "cdd", "exact", "closed_form"}
            See the module docstring.
        max_vertices : int
            Refuse (:class:`TooLargeError`) when :meth:`vertex_bound` exceeds this.
        max_active_sets : int
            The exact backend refuses when it would examine more active sets than this.
        """
        if backend not in BACKENDS:
            raise InvalidInputError(f"backend must be one of {BACKENDS}; got {show(backend)}.")
        max_vertices = check_int(max_vertices, "max_vertices", low=1)
        max_active_sets = check_int(max_active_sets, "max_active_sets", low=1)
        if backend == "auto":
            if self.closed_form is not None:
                backend = "closed_form"
            elif self.epsilon > CDD_RELIABLE_EPSILON:
                try:
                    return self.vertices("exact", max_vertices=max_vertices,
                                         max_active_sets=max_active_sets)
                except TooLargeError:
                    backend = "cdd"  # too many active sets: cddlib, checked as always
            else:
                backend = "cdd"
        bound = self.vertex_bound()
        if bound > max_vertices:
            raise TooLargeError(
                f"{self.name} on N = {self.n} inputs may have up to {bound:,} vertices, above "
                f"max_vertices = {max_vertices:,}; vertex enumeration is too large (the bound is "
                "McMullen's unless the notion knows better, and the true count is often far "
                "smaller). Raise max_vertices if you have the time and memory, or use "
                "method='column_generation', which never enumerates (ε-LDP, (ε, c)-PML, "
                "robust LDP)."
            )
        start = time.perf_counter()
        exact = None
        missed = 0
        if backend == "closed_form":
            if self.closed_form is None:
                raise InvalidInputError(
                    f"backend 'closed_form' is not available for {self.name}; use 'cdd' or "
                    "'exact'."
                )
            raw = np.asarray(self.closed_form(self), dtype=float)
            # Closed forms are exact up to rounding: merge only points that agree to a
            # tolerance relative to the section's extent, so distinct vertices of a tiny
            # section (small ε) stay distinct.
            # Snap to a grid of that size and keep one point per cell (a duplicate that
            # straddles a cell boundary survives, which costs the LP nothing; no two
            # points farther apart than the grid are merged).
            extent = float(np.ptp(raw, axis=0).max()) if raw.shape[0] > 1 else 1.0
            grid = VERTEX_DEDUP_ATOL * min(1.0, extent) if extent > 0 else 1.0
            _, first = np.unique(np.round(raw / grid), axis=0, return_index=True)
            points = raw[np.sort(first)]
        elif backend == "cdd":
            points, backend, missed = _cdd_vertices(self.h_representation())
            if missed:
                backend += f" + {missed} vertices cddlib missed, found by LP probes"
        else:
            exact_all = _exact_vertices(self.h_representation(), max_active_sets, self.name)
            if not exact_all:
                raise InfeasibleError(
                    f"the exact backend found no vertex: the section of {self.name}, taken "
                    "exactly with its floating-point coefficients, is empty (this happens at "
                    "epsilon = 0, where the true section is a single point and rounding of "
                    "the coefficients removes it); use backend='closed_form' or 'cdd'."
                )
            floats = np.array([[float(x) for x in v] for v in exact_all]).reshape(-1, self.n)
            # Distinct exact vertices closer than VERTEX_DEDUP_ATOL come from rounding of
            # the coefficients (a degenerate vertex split in two); keep one of each.
            keep = _deduplicate_indices(floats)
            exact = tuple(exact_all[i] for i in keep)
            points = floats[keep]
        seconds = time.perf_counter() - start
        _check_vertices(points, self.h_representation(), backend)
        # Coordinates within VERTEX_FEASIBILITY_ATOL below zero (checked just above) are
        # rounding noise of a zero coordinate: make them exactly zero.
        points = np.where(points < 0, 0.0, points)
        order = np.lexsort(points.T[::-1])
        points = points[order]
        if exact is not None:
            exact = tuple(exact[i] for i in order)
        points.setflags(write=False)
        return VertexSet(
            points=points,
            backend=backend,
            seconds=seconds,
            exact=exact,
            missed=missed,
        )


# -- backends ---------------------------------------------------------------------------


#: Row orders tried, in this sequence, when cddlib's default order (LexMin) fails or
#: probes show it missed vertices: fast and most complete first, as measured on PolyOpt
#: cones (paper variant, |X| = 12, ε = 3; exact GMP count 1,295): LexMax 0.07 s
#: (covers 1,283), MaxIndex 0.09 s (all), MaxCutoff 0.3 s (765), Random 2 s (638);
#: MinIndex, MinCutoff and MixCutoff failed after 12-37 s.
CDD_ROW_ORDERS = (
    "LEX_MAX", "MAX_INDEX", "MAX_CUTOFF", "RANDOM_ROW", "MIN_INDEX", "MIN_CUTOFF", "MIX_CUTOFF"
)


def _cdd_vertices(h: NDArray[np.float64]) -> tuple[NDArray[np.float64], str, int]:
    """Vertices of ``{v : H v ≥ 0, Σ v = 1}`` by pycddlib (floating point), the name of
    how they were found, and how many vertices LP probes still found missing.

    Floating-point cddlib fails in two ways on degenerate polytopes (PolyOpt's cones for
    large samples, whose simplices ``D_s`` are tiny, are such): it stops with "numerical
    inconsistency", or — worse — it silently returns a strict subset of the vertices.
    On one PolyOpt cone (paper variant, |X| = 12, n = 32,561, ε = 3) the default order
    returned 476 of the 1,295 vertices that cddlib's exact GMP arithmetic finds, and
    ``1`` was not in their conic hull, so the design LP was infeasible. The row order
    changes the arithmetic, so after a failure, or when :func:`_probe_missing_vertices`
    finds a missed vertex, further orders (:data:`CDD_ROW_ORDERS`) are run one by one
    and their **union** kept, until the probes find nothing. Every point is checked
    against the H-representation by the caller. Probes cannot prove completeness;
    without the GMP build of cddlib (pycddlib-standalone has none) exactness is out of
    reach at these sizes, and the ``"exact"`` backend covers small instances.
    """
    import cdd

    n = h.shape[1]
    try:
        found = deduplicate_points(_cdd_run(h, None))
        reason = "the default order missed vertices LP probes found"
        used = ["default"]
    except RuntimeError as exc:
        found = np.zeros((0, n))
        reason = f"the default order failed: {str(exc).strip()}"
        used = []
    points, missed = _probe_missing_vertices(found, h)
    if found.shape[0] and not missed:
        return points, "cdd", 0
    for name in CDD_ROW_ORDERS:
        try:
            more = _cdd_run(h, cdd.RowOrderType[name])
        except RuntimeError:
            continue
        used.append(name)
        found = deduplicate_points(np.vstack([points, more]))
        points, missed = _probe_missing_vertices(found, h)
        if not missed:
            break
    if not used:
        raise SolverError(
            f"cddlib failed with every row order ({reason}); this polytope is too "
            "degenerate for floating-point vertex enumeration",
            status=Status.NUMERICAL_ERROR,
            solver_status="cddlib numerical inconsistency",
        )
    return points, f"cdd (union over row orders {', '.join(used)}: {reason})", missed


def _cdd_run(h: NDArray[np.float64], order) -> NDArray[np.float64]:
    """One pycddlib run with the given row order (``None``: cddlib's default)."""
    import cdd

    n = h.shape[1]
    rows = np.hstack([np.zeros((h.shape[0], 1)), h])
    total = np.concatenate([[-1.0], np.ones(n)])
    matrix = cdd.matrix_from_array(
        np.vstack([rows, total]), rep_type=cdd.RepType.INEQUALITY, lin_set={h.shape[0]}
    )
    if order is None:
        polyhedron = cdd.polyhedron_from_matrix(matrix)
    else:
        polyhedron = cdd.polyhedron_from_matrix(matrix, row_order=order)
    generators = np.array(cdd.copy_generators(polyhedron).array)
    if generators.size == 0:
        return np.zeros((0, n))
    if not np.all(generators[:, 0] > 0.5):
        raise SolverError(
            "cddlib returned rays for the normalised section, which is bounded",
            status=Status.NUMERICAL_ERROR, solver_status="unexpected rays",
        )
    return resolve_vertices(generators[:, 1:], h)


#: Entries of one block of :func:`resolve_vertices`' stacked active systems.
RESOLVE_BLOCK_ENTRIES = 1 << 22

#: Steps of iterative refinement after :func:`resolve_vertices`' least-squares solve.
RESOLVE_REFINEMENTS = 2


def resolve_vertices(points: NDArray[np.float64], h: NDArray[np.float64]
                     ) -> NDArray[np.float64]:
    """Float vertices of ``S = {v : H v ≥ 0, Σ v = 1}`` re-solved from their active sets.

    cddlib's pivoting leaves a vertex feasible to ~1e-13 but up to ~1e-9 away from the
    true one (measured on a robust-LDP section at ε = 10), which on a coordinate of 1e-4
    is a relative error large enough to raise the kernel's privacy level above ε. A
    vertex is the unique solution of its active rows ``H_A v = 0`` with ``Σ v = 1``, so
    each point is replaced by the least-squares solution of that system (rows scaled to
    unit max-norm, active when their slack is below
    :data:`~mechdesign._tolerances.VERTEX_ACTIVE_ATOL`, and ``v_i = 0`` where cddlib's
    coordinate is zero, which stays exactly zero: noise of 1e-17 on two zero coordinates
    would be a ratio, hence a level; an SVD per point, stacked in blocks, refined twice)
    — when the system has full rank, the solution solves it to within
    :data:`~mechdesign._tolerances.VERTEX_RESOLVE_RESIDUAL_ATOL` and lies within
    :data:`~mechdesign._tolerances.VERTEX_RESOLVE_MOVE_ATOL` of the point. Otherwise (an
    active set misread) the point is kept as it is; the caller checks every point."""
    points = np.asarray(points, dtype=float)
    if points.shape[0] == 0 or h.shape[0] == 0:
        return points
    n = points.shape[1]
    scale = np.abs(h).max(axis=1, keepdims=True)
    rows = np.divide(h, scale, out=np.zeros_like(h, dtype=float), where=scale > 0)
    target = np.zeros(rows.shape[0] + n + 1)
    target[-1] = 1.0
    resolved = points.copy()
    block = max(1, RESOLVE_BLOCK_ENTRIES // ((rows.shape[0] + n + 1) * n))
    for start in range(0, points.shape[0], block):
        v = points[start:start + block]
        active = (v @ rows.T) <= VERTEX_ACTIVE_ATOL
        zero = v <= 0.0  # cddlib's zeros stay exact zeros (a tiny ratio is a level)
        system = np.concatenate([active[:, :, None] * rows[None],
                                 zero[:, :, None] * np.eye(n)[None],
                                 np.ones((v.shape[0], 1, n))], axis=1)
        u, sigma, vt = np.linalg.svd(system, full_matrices=False)
        full = sigma[:, -1] > sigma[:, 0] * max(system.shape[1:]) * np.finfo(float).eps
        with np.errstate(divide="ignore", invalid="ignore"):
            coefficients = np.where(full[:, None], u[:, -1, :] / sigma, 0.0)  # Uᵀb / σ
        x = np.einsum("kji,kj->ki", vt, coefficients)
        for _ in range(RESOLVE_REFINEMENTS):  # iterative refinement with the same SVD
            correction = target - np.einsum("kri,ki->kr", system, x)
            with np.errstate(divide="ignore", invalid="ignore"):
                step = np.where(full[:, None], np.einsum("krj,kr->kj", u, correction)
                                / sigma, 0.0)
            x = x + np.einsum("kji,kj->ki", vt, step)
        residual = np.abs(np.einsum("kri,ki->kr", system, x) - target).max(axis=1)
        accept = (full & (residual <= VERTEX_RESOLVE_RESIDUAL_ATOL)
                  & (x.min(axis=1) >= -VERTEX_RESOLVE_RESIDUAL_ATOL)
                  & (np.abs(x - v).max(axis=1) <= VERTEX_RESOLVE_MOVE_ATOL))
        x = np.where(zero | (x < 0.0), 0.0, x)
        resolved[start:start + block][accept] = x[accept]
    return resolved


def section_argmax(h: NDArray[np.float64], direction: NDArray[np.float64]) -> NDArray[np.float64]:
    """A vertex of ``S = {v : H v ≥ 0, Σ v = 1}`` maximising ``direction·v``.

    HiGHS's simplex returns a basic optimal solution, which is a vertex of ``S``.
    Raises :class:`~mechdesign.errors.SolverError` if HiGHS does not reach optimality.
    """
    n = h.shape[1]
    return solve_linear_program(
        np.asarray(direction, dtype=float),
        sp.csc_array(np.vstack([h, np.ones((1, n))])),
        np.concatenate([np.zeros(h.shape[0]), [1.0]]),
        np.concatenate([np.full(h.shape[0], np.inf), [1.0]]),
        col_lower=np.full(n, -np.inf),
    ).x


def _probe_missing_vertices(
    points: NDArray[np.float64], h: NDArray[np.float64], seed: int = 0
) -> tuple[NDArray[np.float64], int]:
    """Look for vertices of ``S = {v : H v ≥ 0, Σ v = 1}`` that ``points`` lacks, by LP.

    Floating-point cddlib can return a strict subset of the vertices **without any
    error** on degenerate polytopes: on a PolyOpt cone (paper variant, |X| = 12,
    n = 32,561 samples, ε = 3) it returned 476 of the 1,295 vertices that cddlib's exact
    GMP arithmetic finds, and ``1`` was not even in their conic hull, so the design LP
    was infeasible. Two checks, each adding the vertices it finds:

    1. **Feasibility (Farkas).** ``1 ∈ cone(points)`` unless some ``y`` has
       ``y·v ≤ 0`` for every point and ``y·1 > 0``; the LP ``max 1·y s.t. y·v ≤ 0,
       y ≤ 1`` finds one (it is bounded: a recession direction would be ≤ 0). Since
       ``1/N ∈ S``, the simplex LP ``max y·v`` over ``S`` then returns a vertex of ``S``
       with ``y·v > 0``, a new one. Repeated until ``1 ∈ cone(points)``, which is what
       the design LP needs to be feasible.
    2. **Directions.** For ``±e_i`` and :data:`VERTEX_PROBE_DIRECTIONS` random
       Gaussian ``d`` (fixed ``seed``), the simplex LP ``max d·v`` over ``S`` is compared
       with ``max d·p`` over the points; a larger value by more than
       :data:`VERTEX_PROBE_ATOL` ``· ‖d‖₁`` means its basic optimal solution, a vertex,
       is missing. Rounds repeat (at most :data:`VERTEX_PROBE_ROUNDS`) until one finds
       nothing.

    Probing can prove a set incomplete, never complete: it returns the augmented points
    and how many were added (0: no probe found a missing vertex).
    """
    n = h.shape[1]
    free = np.full(n, -np.inf)
    if points.shape[0] == 0:
        return points, 0

    def maximiser(direction: NDArray[np.float64]) -> NDArray[np.float64] | None:
        try:
            return section_argmax(h, direction)
        except SolverError:
            return None  # a probe that HiGHS cannot solve finds nothing

    found: list[NDArray[np.float64]] = []

    def add_if_missing(direction: NDArray[np.float64]) -> bool:
        current = np.vstack([points, *found]) if found else points
        v = maximiser(direction)
        slack = VERTEX_PROBE_ATOL * float(np.abs(direction).sum())
        if v is None or direction @ v <= (current @ direction).max() + slack:
            return False
        found.append(v)
        return True

    for _ in range(n * VERTEX_PROBE_ROUNDS):  # 1. feasibility of the design LP
        current = np.vstack([points, *found]) if found else points
        try:
            farkas = solve_linear_program(
                np.ones(n),
                sp.csc_array(current),
                np.full(current.shape[0], -np.inf),
                np.zeros(current.shape[0]),
                col_lower=free,
                col_upper=np.ones(n),
            )
        except SolverError:
            break
        if farkas.objective <= VERTEX_PROBE_ATOL * n or not add_if_missing(farkas.x):
            break
    rng = np.random.default_rng(seed)
    axes = np.vstack([np.eye(n), -np.eye(n)])
    for _ in range(VERTEX_PROBE_ROUNDS):  # 2. directions
        directions = np.vstack([axes, rng.standard_normal((VERTEX_PROBE_DIRECTIONS, n))])
        if not sum(add_if_missing(d) for d in directions):
            break
    if not found:
        return points, 0
    return deduplicate_points(np.vstack([points, *found])), len(found)


def deduplicate_points(points: NDArray[np.float64]) -> NDArray[np.float64]:
    """Merge points closer than VERTEX_DEDUP_ATOL (max-norm), keeping one of each cluster."""
    return points[_deduplicate_indices(points)]


def _deduplicate_indices(
    points: NDArray[np.float64], atol: float = VERTEX_DEDUP_ATOL
) -> NDArray[np.int64]:
    """Indices of one representative of every cluster of points within ``atol``."""
    keep = np.ones(points.shape[0], dtype=bool)
    if points.shape[0] > 1:
        pairs = cKDTree(points).query_pairs(atol, p=np.inf, output_type="ndarray")
        # Keep the lower index of every close pair; a chain a~b~c keeps only a.
        for i, j in sorted(map(tuple, pairs)):
            if keep[i]:
                keep[j] = False
    return np.flatnonzero(keep)


def _check_vertices(points: NDArray[np.float64], h: NDArray[np.float64], backend: str) -> None:
    if points.shape[0] == 0:
        raise SolverError(
            f"the {backend} backend found no vertex of a non-empty polytope",
            status=Status.NUMERICAL_ERROR, solver_status="no vertices",
        )
    slack = points @ h.T
    worst = float(slack.min())
    sums = np.abs(points.sum(axis=1) - 1.0).max()
    if worst < -VERTEX_FEASIBILITY_ATOL or sums > VERTEX_FEASIBILITY_ATOL:
        raise SolverError(
            f"the {backend} backend returned a point outside the section (worst inequality "
            f"{worst:.3g}, worst sum error {sums:.3g})",
            status=Status.NUMERICAL_ERROR, solver_status="infeasible vertex",
        )


def _exact_vertices(
    h: NDArray[np.float64], max_active_sets: int, name: str
) -> tuple[tuple[Fraction, ...], ...]:
    """Every vertex of ``S = {v : H v ≥ 0, Σ v = 1}``, exactly.

    The rows of ``H`` are doubles, hence dyadic rationals; each row is scaled by a power
    of two to an integer row, which leaves ``S`` unchanged, so ``S`` is the polytope of
    the floating-point H-representation taken exactly.

    Completeness. A point of ``S`` is a vertex iff it is the unique solution of
    ``Σ v = 1`` together with ``N − 1`` linearly independent rows of ``H`` held at
    equality (its active set has rank ``N − 1``). So every vertex is produced by some
    ``(N − 1)``-subset ``R`` of rows, and every subset is examined.

    Exactness. For a subset ``R`` (integer rows), let ``u`` be the generalised cross
    product of its rows, ``u_i = (−1)^{i} det(R without column i)`` (up to one global
    sign). Then ``R u = 0``, and ``R`` with ``Σ v = 1`` has a unique solution iff
    ``Σ u ≠ 0``, namely ``v = u / Σ u``; ``v ∈ S`` iff ``sign(Σ u) · H u ≥ 0``. All of
    this is integer arithmetic.

    Speed. The integer computation runs only for subsets that survive a floating-point
    screen: a subset whose system ``[R; 1] v = e_N`` has condition number below
    :data:`~mechdesign._tolerances.EXACT_SCREEN_COND` and whose solution violates a row
    by more than :data:`~mechdesign._tolerances.EXACT_SCREEN_ATOL` is discarded (the
    floating-point error is far below that margin at that conditioning, so no vertex is
    lost); every other subset, including every near-singular one, is decided exactly.
    """
    n = h.shape[1]
    if n == 1:
        return ((Fraction(1),),)
    n_rows = h.shape[0]
    total = math.comb(n_rows, n - 1)
    if total > max_active_sets:
        raise TooLargeError(
            f"the exact backend would examine C({n_rows}, {n - 1}) = {total:,} active sets "
            f"for {name}, above max_active_sets = {max_active_sets:,}; use backend='cdd' "
            "(floating point, checked against the H-representation) for this size."
        )
    integer_rows = [_integer_row(row) for row in h]
    found: set[tuple[Fraction, ...]] = set()
    combos = np.array(list(itertools.combinations(range(n_rows), n - 1)), dtype=np.intp)
    for chunk in np.array_split(combos, max(1, combos.shape[0] // 20_000)):
        systems = np.concatenate([h[chunk], np.ones((chunk.shape[0], 1, n))], axis=1)
        singular_values = np.linalg.svd(systems, compute_uv=False)
        with np.errstate(divide="ignore"):
            cond = singular_values[:, 0] / singular_values[:, -1]
        well = cond < EXACT_SCREEN_COND
        rhs = np.zeros((int(well.sum()), n, 1))
        rhs[:, -1, 0] = 1.0
        solutions = np.linalg.solve(systems[well], rhs)[..., 0]
        feasible = np.all(solutions @ h.T >= -EXACT_SCREEN_ATOL, axis=1)
        survivors = np.concatenate([chunk[well][feasible], chunk[~well]])
        for subset in survivors:
            vertex = _exact_vertex([integer_rows[i] for i in subset], integer_rows)
            if vertex is not None:
                found.add(vertex)
    return tuple(found)


def _integer_row(row: NDArray[np.float64]) -> list[int]:
    fractions = [Fraction(float(x)) for x in row]
    scale = math.lcm(*(f.denominator for f in fractions))
    return [int(f * scale) for f in fractions]


def _exact_vertex(
    active: list[list[int]], all_rows: list[list[int]]
) -> tuple[Fraction, ...] | None:
    n = len(active[0])
    u = [(-1) ** i * _integer_determinant([row[:i] + row[i + 1 :] for row in active])
         for i in range(n)]
    denominator = sum(u)
    if denominator == 0:
        return None
    sign = 1 if denominator > 0 else -1
    for row in all_rows:
        if sign * sum(r * x for r, x in zip(row, u, strict=True)) < 0:
            return None
    return tuple(Fraction(x, denominator) for x in u)


def _integer_determinant(matrix: list[list[int]]) -> int:
    """Determinant of a square integer matrix by fraction-free (Bareiss) elimination."""
    m = [list(row) for row in matrix]
    size = len(m)
    if size == 0:
        return 1
    sign = 1
    previous = 1
    for k in range(size - 1):
        if m[k][k] == 0:
            swap = next((i for i in range(k + 1, size) if m[i][k] != 0), None)
            if swap is None:
                return 0
            m[k], m[swap] = m[swap], m[k]
            sign = -sign
        for i in range(k + 1, size):
            for j in range(k + 1, size):
                m[i][j] = (m[i][j] * m[k][k] - m[i][k] * m[k][j]) // previous
        previous = m[k][k]
    return sign * m[size - 1][size - 1]
