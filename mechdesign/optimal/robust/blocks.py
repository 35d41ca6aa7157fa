"""Exact pricing for PolyOpt (robust LDP) by the block structure of its section.

PolyOpt's cone (robust-LDP paper [1]_, Definition 3 and eq. 41) is, for ``X = S × U`` and
``D_s = {R ∈ P_U : R ≥ L_s}`` (``L_s`` the lower bounds of
:func:`~mechdesign.notions.uncertainty.conditional_lower_bounds`, ``σ_s = 1 − Σ_u L_{u|s}``),

.. math::

    A_{s_1}(v) \\le e^\\varepsilon B_{s_2}(v), \\qquad
    A_s = \\max_{R \\in D_s} R\\cdot v_s = L_s\\cdot v_s + \\sigma_s \\max_u v_{s,u},
    \\quad B_s = L_s\\cdot v_s + \\sigma_s \\min_u v_{s,u},

for ``s_1 ≠ s_2`` (the default variant) or every pair (``variant="paper"``). Its vertices
have no pattern over the whole of ``X``, but they do block by block.

**Blocks.** Let ``E = e^ε``, ``σ > 0`` and ``C(a, b) = {w ≥ 0 : A(w) ≤ a, B(w) ≥ b}`` for
``0 < b ≤ a``. Every vertex of ``C(a, b)`` is one of (:func:`block_vertices`; ``H`` a set
of outcomes, ``L(H) = Σ_{u ∈ H} L_u``, ``h = (a − b)/σ``)

(i) ``a·1`` or ``b·1``;
(ii) ``ℓ·1 + h·1_H`` with ``ℓ = b − h L(H) ≥ 0`` and ``∅ ≠ H ≠ U``;
(iii) ``c·1_H`` with ``c = a/(L(H) + σ)`` and ``L(H) c ≥ b``, or ``c = b/L(H)`` and
      ``(L(H) + σ) c ≤ a`` (``∅ ≠ H ≠ U``);
(iv) ``h·1_H + z e_w`` with ``w ∉ H ≠ ∅``, ``z = (b − h L(H))/L_w`` and ``0 < z < h``.

*Proof.* ``C(a, b)`` is the projection of ``Q = {(w, hi, lo) : lo ≤ w_u ≤ hi, lo ≥ 0,
L·w + σ hi ≤ a, L·w + σ lo ≥ b}``, so each of its vertices is the image of a vertex of
``Q`` (the pre-image of a vertex is a face of ``Q``; take a vertex of that face). At a
vertex of ``Q``, ``w`` is a vertex of its fibre ``{lo ≤ w ≤ hi, L·w = L·w*}`` (moving
``w`` inside the fibre changes no other constraint), so at most one coordinate lies
strictly between ``lo`` and ``hi``. Counting the ``n + 2`` independent tight constraints
``Q`` needs at a vertex: with ``lo < hi`` and ``lo > 0``, every coordinate at ``lo`` or
``hi`` and both coupling rows tight — (ii), whose determinant is ``σ``; with ``lo = 0``,
either no free coordinate and one coupling row tight — (iii) — or one free coordinate
and both — (iv); with ``lo = hi`` the point is uniform — (i). ∎ (Tested against
cddlib's vertices of ``Q``.)

**The default variant.** Every non-zero ``v`` of the cone has ``min_s B_s > 0`` (if
``B_{s_0} = 0`` then ``A_s = 0``, so ``v_s = 0``, for every ``s ≠ s_0``, and then
``A_{s_0} ≤ E·0``). Scale so that ``B_{s_0} = 1`` at ``s_0 = argmin_s B_s`` and let ``γ
= min_{s ≠ s_0} B_s``. If ``A_{s_0} ≤ E``, ``v ∈ Π_s C_s(E, 1)`` — the paper variant's
product. Otherwise ``1 < γ' = A_{s_0}/E ≤ γ ≤ E`` and ``v ∈ F_{s_0}(γ') × Π_{s ≠ s_0}
C_s(E, γ')``, with ``F(γ)`` the face ``A = Eγ`` of ``C(Eγ, 1)``. Along ``γ`` every
shape of kinds (i)–(iv) on that face moves linearly and begins or ends only at a point
``w_H = 1_H / L(H)`` (kind iii with both rows tight), so for ``γ ∈ [β_1, β_2]`` the face
lies in the hull of its vertices at ``β_1`` and ``β_2`` and the ``w_H`` with ``A(w_H)/E
∈ [β_1, β_2]``: the product of that hull with ``Π_{s ≠ s_0} C_s(E, β_1)`` covers the
interval (a relaxation: a point of it is in the cone only when it passes the
constraints, which is checked).

*Exactness.* Every candidate of kinds (i)–(iv) of a block is affine in ``(a, b)`` and
its conditions change only where ``b (L(H) + σ) = a L(H)``: at ``β = E L(H)/(L(H) + σ)``
for ``C_s(E, β)`` and ``β = (L(H) + σ)/(E L(H))`` for the face of ``C_{s_0}(Eβ, 1)``
(the *breakpoints*). If no block has a breakpoint strictly inside ``(β_1, β_2)``, every
candidate moves affinely with one common ``t = (β − β_1)/(β_2 − β_1)``, so every point
of the slab is ``(1 − t) v¹ + t v²`` with ``v^i`` in the fixed-β product at ``β_i``
(``F_{s_0}(β_i) × Π_{s ≠ s_0} C_s(E, β_i)``, which lies in the cone), and a convex
function's maximum over the slab is the larger of the two end products' maxima.
Intervals are therefore cut at a breakpoint (the one nearest the geometric middle),
best bound first, while a product's bound is not attained in the cone; an interval with
no breakpoint inside is closed by its two end products. This is finite (each cut
removes a breakpoint from both halves) and exact: tested against every vertex of the
section (cddlib) and against enumerated designs. It is bounded by
:data:`BLOCK_MAX_PRODUCTS` products per Dinkelbach step — a block has up to ``2^{|U|}``
breakpoints, so at ``|U| = 16`` the cap can stop it, and the open products' bounds then
stand (still certified). Measured on Adult (ε = 1, ball 0.05, gap 1e-6): sex × race
(a = 10) optimal in 1.4 s and sex × marital-status (a = 14) in 4.9 s, where halving
``β`` at its geometric middle stopped at gaps of 0.44 % (11.9 s) and 0.47 % (28.6 s) —
the reduced cost there is 0 along a whole range of ``γ``, which no relaxation whose
error shrinks with the interval's width can close.

**Pricing.** The reduced cost of a section point is ``r(v) = μ(v) − λ·v`` and ``μ(v) =
Σ_x P_x v_x log v_x − T log T`` with ``T = P·v = Σ_s T_s`` (mutual information under the
design prior ``P``; ``μ`` is positively homogeneous). Dinkelbach's method takes ``θ ← r``
until ``M(θ) = max_{v ∈ C} μ(v) − (λ + θ)·v ≤ 0`` over the products ``C`` above, and for
every ``θ``, ``max r ≤ θ + max(0, M(θ))/t_min`` with ``t_min`` the least ``Σ v`` over
them. On a product, ``M(θ) = max Σ_s q_s − F(Σ_s T_s)`` over one vertex per block
(``q_s = Σ_u P v log v − (λ + θ)·v`` on block ``s``, ``F(T) = T log T`` convex): the
maximum of a convex function over a product of polytopes is at a product of vertices.
:func:`_branch_and_bound` solves it exactly: the relaxation replaces each block's points
``(T_s, q_s)`` by their upper concave hull, whose sum is maximised against ``−F`` by
walking the hulls' edges in decreasing slope (at most one block ends between two hull
vertices); branching splits that block's points at the fractional ``T_s``.

Cost: every block enumerates ``O(|U| 2^{|U|})`` candidates, so the pricing is exact for
``|U| ≤`` :data:`MAX_BLOCK_OUTCOMES`; measured at a = 240 (Adult occupation × education,
``|U| = 16``): one Dinkelbach step of the paper variant in about 0.4 s (one node).

References
----------
.. [1] M. Lopuhaä-Zwakenberg, J. Goseling, "Mechanisms for Robust Local Differential
   Privacy", Entropy 26(3):233, 2024, doi:10.3390/e26030233.
"""

from __future__ import annotations

import heapq
import itertools
import math
import time
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from scipy.special import xlogy

from mechdesign._tolerances import PATTERN_FEASIBILITY_ATOL
from mechdesign._validation import (
    as_distribution,
    check_bool,
    check_real,
    check_real_dtype,
    check_size,
    show,
)
from mechdesign.errors import InvalidInputError, UnsupportedError
from mechdesign.optimal.utilities import mutual_information_columns

__all__ = ["BlockPricing", "block_vertices"]

# -- algorithm knobs --------------------------------------------------------------------

#: Exact block pricing enumerates O(|U| 2^|U|) candidate vertices per block: up to this
#: many outcomes per secret (2^16 · 16 / 2 ≈ 5e5 candidates, 8 ms per block).
MAX_BLOCK_OUTCOMES = 16

#: Candidate sets kept between products (each is about 5 MB at |U| = 16).
BLOCK_CACHE_SIZE = 64

#: Products one Dinkelbach step examines (the default variant cuts β at a breakpoint
#: where a product's relaxed bound is not attained in the cone); beyond, the open
#: products' bounds stand (still certified) — see the module docstring.
BLOCK_MAX_PRODUCTS = 1000

#: Dinkelbach steps of one exact pricing (it converges superlinearly: 5 at a = 240).
BLOCK_DINKELBACH_STEPS = 12



def _subset_sums(values: NDArray[np.float64]) -> NDArray[np.float64]:
    """``out[mask] = Σ_{u ∈ mask} values[u]`` for every ``mask < 2^n``."""
    out = np.zeros(1 << values.shape[0])
    for u, value in enumerate(values):
        out[1 << u: 2 << u] = out[: 1 << u] + value
    return out


def _xlogx(x):
    """``x log x`` with ``0 log 0 = 0`` (scipy's ``xlogy``)."""
    return xlogy(x, x)


@dataclass(frozen=True)
class BlockVertices:
    """Candidate vertices of one block ``C(a, b)`` (see the module docstring): point
    ``j`` is ``low[j]·1 + (high[j] − low[j])·1_{H_j}``, then ``z[j]`` at outcome
    ``free[j]`` when ``free[j] ≥ 0`` (kind iv, where ``low = 0``)."""

    mask: NDArray[np.int64]
    high: NDArray[np.float64]
    low: NDArray[np.float64]
    free: NDArray[np.int64]
    z: NDArray[np.float64]
    n: int

    def points(self, rows: NDArray[np.int64] | None = None) -> NDArray[np.float64]:
        """The candidates (or those of ``rows``) as rows of length ``n``."""
        rows = np.arange(self.mask.shape[0]) if rows is None else np.asarray(rows)
        bits = ((self.mask[rows, None] >> np.arange(self.n)[None, :]) & 1).astype(bool)
        out = np.where(bits, self.high[rows, None], self.low[rows, None])
        with_free = np.flatnonzero(self.free[rows] >= 0)
        out[with_free, self.free[rows][with_free]] = self.z[rows][with_free]
        return out

    def linear(self, c: NDArray[np.float64]) -> NDArray[np.float64]:
        """``c·w`` for every candidate ``w`` (by subset sums, without building them)."""
        sums = _subset_sums(c)[self.mask]
        total = float(c.sum())
        at_free = np.where(self.free >= 0, c[np.maximum(self.free, 0)], 0.0)
        return sums * self.high + (total - sums) * self.low + at_free * self.z

    def plogp(self, p: NDArray[np.float64]) -> NDArray[np.float64]:
        """``Σ_u p_u w_u log w_u`` for every candidate ``w``."""
        sums = _subset_sums(p)[self.mask]
        total = float(p.sum())
        at_free = np.where(self.free >= 0, p[np.maximum(self.free, 0)], 0.0)
        return sums * _xlogx(self.high) + (total - sums) * _xlogx(self.low) \
            + at_free * _xlogx(self.z)


def _check_lower(lower) -> NDArray[np.float64]:
    """A block's lower bounds: 1-D, real, finite, ``≥ 0``, ``2 ≤ |U| ≤``
    :data:`MAX_BLOCK_OUTCOMES` and ``σ = 1 − Σ L > 0``."""
    check_real_dtype(lower, "lower")
    lower = np.asarray(lower, dtype=float)
    if lower.ndim != 1 or not np.all(np.isfinite(lower)) or np.any(lower < 0):
        raise InvalidInputError(
            f"lower must be a 1-D array of finite numbers >= 0; got {show(lower)}.")
    check_size(lower.shape[0], "len(lower)", MAX_BLOCK_OUTCOMES, low=2,
               why="block vertices are enumerated over every subset of outcomes")
    if not 1.0 - float(lower.sum()) > 0:
        raise InvalidInputError(
            f"lower must sum to less than 1 (σ = 1 − Σ L > 0); got sum {show(lower.sum())}.")
    return lower


def block_vertices(lower: NDArray[np.float64], a: float, b: float) -> BlockVertices:
    """A finite set containing every vertex of ``C(a, b) = {w ≥ 0 : L·w + σ max w ≤ a,
    L·w + σ min w ≥ b}`` (``σ = 1 − Σ L > 0``, ``0 < b ≤ a``), all of them in ``C(a, b)``:
    kinds (i)–(iv) of the module docstring, with the proof there."""
    lower = _check_lower(lower)
    a = check_real(a, "a", low=0.0, high=math.inf, low_open=True, high_open=True)
    b = check_real(b, "b", low=0.0, high=a, low_open=True)
    n = lower.shape[0]
    sigma = 1.0 - float(lower.sum())
    full = (1 << n) - 1
    masks = np.arange(1 << n)
    mass = _subset_sums(lower)
    proper = (masks > 0) & (masks < full)
    width = (a - b) / sigma
    parts = [(np.zeros(2, dtype=np.int64), np.array([a, b]), np.array([a, b]),  # (i)
              np.full(2, -1), np.zeros(2))]
    level = b - width * mass  # (ii)
    keep = proper & (level >= 0)
    parts.append((masks[keep], level[keep] + width, level[keep], np.full(keep.sum(), -1),
                  np.zeros(keep.sum())))
    top = a / (mass + sigma)  # (iii), upper row tight
    keep = proper & (mass * top >= b)
    parts.append((masks[keep], top[keep], np.zeros(keep.sum()), np.full(keep.sum(), -1),
                  np.zeros(keep.sum())))
    with np.errstate(divide="ignore"):
        top = b / mass  # (iii), lower row tight
    keep = proper & (mass > 0) & ((mass + sigma) * top <= a)
    parts.append((masks[keep], top[keep], np.zeros(keep.sum()), np.full(keep.sum(), -1),
                  np.zeros(keep.sum())))
    for w in np.flatnonzero(lower > 0):  # (iv)
        sub = masks[((masks >> w) & 1 == 0) & (masks > 0)]
        z = (b - width * mass[sub]) / lower[w]
        keep = (z > 0) & (z < width)
        parts.append((sub[keep], np.full(keep.sum(), width), np.zeros(keep.sum()),
                      np.full(keep.sum(), w), z[keep]))
    fields = [np.concatenate([part[i] for part in parts]) for i in range(5)]
    return BlockVertices(fields[0].astype(np.int64), fields[1], fields[2],
                         fields[3].astype(np.int64), fields[4], n)


def _select(vertices: BlockVertices, keep: NDArray[np.bool_]) -> BlockVertices:
    return BlockVertices(vertices.mask[keep], vertices.high[keep], vertices.low[keep],
                         vertices.free[keep], vertices.z[keep], vertices.n)


def _join(parts: list[BlockVertices]) -> BlockVertices:
    return BlockVertices(*(np.concatenate([getattr(v, f) for v in parts])
                           for f in ("mask", "high", "low", "free", "z")), parts[0].n)


def _upper_tight_vertices(lower: NDArray[np.float64], a: float) -> BlockVertices:
    """The vertices of ``C(a, 1)`` on its face ``A = a`` (kinds i, ii, iii and iv of the
    module docstring with the upper row tight)."""
    vertices = block_vertices(lower, a, 1.0)
    sigma = 1.0 - float(lower.sum())
    top = vertices.linear(lower) + sigma * vertices.high  # A = L·w + σ max w
    return _select(vertices, np.abs(top - a) <= PATTERN_FEASIBILITY_ATOL * a)


def _breakpoint_vertices(lower: NDArray[np.float64], low: float, high: float) -> BlockVertices:
    """The points ``w_H = 1_H / L(H)`` (``∅ ≠ H ≠ U``, ``L(H) > 0``) with ``A(w_H) =
    (L(H) + σ)/L(H)`` in ``[low, high]``: where the shapes of the face ``A = a`` of
    ``C(a, 1)`` begin or end as ``a`` grows (see :class:`BlockPricing`)."""
    n = lower.shape[0]
    sigma = 1.0 - float(lower.sum())
    masks = np.arange(1 << n)
    mass = _subset_sums(lower)
    with np.errstate(divide="ignore"):
        top = (mass + sigma) / mass
    keep = (masks > 0) & (masks < (1 << n) - 1) & (mass > 0) & (top >= low) & (top <= high)
    count = int(keep.sum())
    return BlockVertices(masks[keep].astype(np.int64), 1.0 / mass[keep], np.zeros(count),
                         np.full(count, -1, dtype=np.int64), np.zeros(count), n)


class _BlockSet:
    """One block's candidates for one ``(a, b)``, sorted by ``T = P_s·w``, with their
    ``Σ w`` and ``Σ P w log w`` (which do not depend on the dual)."""

    def __init__(self, vertices: BlockVertices, prior: NDArray[np.float64]) -> None:
        aggregate = vertices.linear(prior)
        order = np.argsort(aggregate, kind="stable")
        self.vertices = BlockVertices(*(f[order] for f in (
            vertices.mask, vertices.high, vertices.low, vertices.free, vertices.z)),
            vertices.n)
        self.aggregate = aggregate[order]
        self.size = self.vertices.linear(np.ones(vertices.n))
        self.entropy_part = self.vertices.plogp(prior)

    def values(self, dual: NDArray[np.float64], theta: float) -> NDArray[np.float64]:
        """``q = Σ P w log w − (λ_s + θ)·w`` of every candidate."""
        return self.entropy_part - self.vertices.linear(dual) - theta * self.size


def _upper_hull(t: NDArray[np.float64], q: NDArray[np.float64], start: int,
                stop: int) -> NDArray[np.int64]:
    """Indices (increasing ``t``) of the upper concave hull of points ``start..stop−1``
    (``t`` sorted), by quickhull on the upper side; points on a chord are dropped (they
    never raise the hull)."""
    ts, qs = t[start:stop], q[start:stop]
    ends = []
    for value in (ts[0], ts[-1]):
        tied = np.flatnonzero(ts == value)  # exact: the extreme t and its ties
        ends.append(int(tied[np.argmax(qs[tied])]))
    left, right = ends
    if left == right:
        return np.array([start + left])
    out = [left]
    # Iterative quickhull: (i, j, points above the chord i–j), left to right.
    stack = [(left, right, np.arange(ts.shape[0]))]
    pending = []
    while stack:
        i, j, pts = stack.pop()
        dt, dq = ts[j] - ts[i], qs[j] - qs[i]
        cross = dt * (qs[pts] - qs[i]) - dq * (ts[pts] - ts[i])
        above = cross > 0
        if not above.any():
            pending.append(j)
            continue
        pts, cross = pts[above], cross[above]
        k = int(pts[np.argmax(cross)])
        stack.append((k, j, pts))
        stack.append((i, k, pts))
    # The stack is processed depth first, left part first, so ``pending`` lists the hull
    # vertices right of ``left`` in increasing t.
    out.extend(pending)
    # Rounding in the cross products can keep two points of equal t (one a hair below
    # the other): keep the higher, so that the hull's t increase strictly.
    rows = [out[0]]
    for k in out[1:]:
        if ts[k] > ts[rows[-1]]:
            rows.append(k)
        elif qs[k] > qs[rows[-1]]:
            rows[-1] = k
    return start + np.array(rows)


def _hull_bound(hulls):
    """Maximise ``Σ_s ĥ_s(T_s) − F(Σ_s T_s)`` over the blocks' upper hulls ``ĥ_s`` (lists
    of ``(t, q)`` vertices): the sum of hulls is walked edge by edge in decreasing slope
    while the slope exceeds ``F'(T) = log T + 1``.

    Returns ``(bound, positions, fractional)``: ``positions[s]`` is the hull vertex each
    block ends at, and ``fractional = (s, k, T_s)`` when block ``s`` ends between its
    vertices ``k`` and ``k + 1`` at ``T_s`` (``None`` when every block ends at a vertex,
    and the bound is then attained).
    """
    t0 = sum(float(h[0][0]) for h in hulls)
    q0 = sum(float(h[1][0]) for h in hulls)
    positions = [0] * len(hulls)
    edges = [np.column_stack([np.diff(q) / np.diff(t), np.diff(t), np.diff(q),
                              np.full(t.shape[0] - 1, s), np.arange(t.shape[0] - 1)])
             for s, (t, q) in enumerate(hulls) if t.shape[0] > 1]
    if not edges:
        return q0 - float(_xlogx(np.array(t0))), positions, None
    edges = np.vstack(edges)
    edges = edges[np.argsort(-edges[:, 0], kind="stable")]
    t_end = t0 + np.cumsum(edges[:, 1])
    q_end = q0 + np.cumsum(edges[:, 2])
    t_start, q_start = t_end - edges[:, 1], q_end - edges[:, 2]
    with np.errstate(divide="ignore"):
        slope_end = edges[:, 0] - (np.log(t_end) + 1.0)
    falling = np.flatnonzero(slope_end < 0)
    k = int(falling[0]) if falling.size else edges.shape[0]
    for s, e in edges[:k, 3:5].astype(int):
        positions[s] = max(positions[s], e + 1)
    if k == edges.shape[0]:
        return float(q_end[-1] - _xlogx(t_end[-1])), positions, None
    with np.errstate(divide="ignore"):
        rising = edges[k, 0] - (math.log(t_start[k]) if t_start[k] > 0 else -math.inf) - 1
    if rising <= 0:
        return float(q_start[k] - _xlogx(t_start[k])), positions, None
    t_star = math.exp(edges[k, 0] - 1.0)
    bound = q_start[k] + edges[k, 0] * (t_star - t_start[k]) - t_star * math.log(t_star)
    s, e = int(edges[k, 3]), int(edges[k, 4])
    return float(bound), positions, (s, e, float(hulls[s][0][e] + t_star - t_start[k]))


def _branch_and_bound(blocks, values, floor, tolerance, deadline=None, hulls=None):
    """``max Σ_s q_s − F(Σ_s T_s)`` over one candidate per block (``blocks[s]`` a
    :class:`_BlockSet`, ``values[s]`` its ``q``), searched only above ``floor``.

    Best-first branch and bound on the blocks' ``T`` ranges with :func:`_hull_bound`;
    every node's two roundings (the fractional block at either hull vertex) are
    evaluated exactly. Stops when no open node's bound exceeds the best value (or
    ``floor``) by more than ``tolerance``, or at ``deadline``. Returns ``(best value,
    its choice of candidate per block or None, upper bound, nodes)``; the upper bound
    holds for the whole product.
    """
    count = len(blocks)

    def hull(s, start, stop):
        rows = _upper_hull(blocks[s].aggregate, values[s], start, stop)
        return blocks[s].aggregate[rows], values[s][rows], rows

    ranges = [(0, block.aggregate.shape[0]) for block in blocks]
    hulls = list(hulls) if hulls is not None else [hull(s, *ranges[s]) for s in range(count)]
    best, best_choice = -math.inf, None

    def visit(node_hulls):
        nonlocal best, best_choice
        bound, positions, fractional = _hull_bound([(h[0], h[1]) for h in node_hulls])
        choice = [int(h[2][k]) for h, k in zip(node_hulls, positions, strict=True)]
        choices = [choice]
        if fractional is not None:
            other = list(choice)
            other[fractional[0]] = int(node_hulls[fractional[0]][2][fractional[1] + 1])
            choices.append(other)
        for option in choices:
            total_t = sum(float(blocks[s].aggregate[j]) for s, j in enumerate(option))
            value = sum(float(values[s][j]) for s, j in enumerate(option)) \
                - float(_xlogx(np.array(total_t)))
            if value > best:
                best, best_choice = value, option
        return bound, fractional

    order = itertools.count()
    bound, fractional = visit(hulls)
    heap = [(-bound, next(order), ranges, hulls, fractional)]
    nodes, closed = 1, -math.inf
    while heap:
        if -heap[0][0] <= max(best, floor) + tolerance:
            break
        if deadline is not None and time.perf_counter() > deadline:
            break
        negative, _, node_ranges, node_hulls, fractional = heapq.heappop(heap)
        if fractional is None:
            closed = max(closed, -negative)  # attained: best is at least this
            continue
        s, _, split = fractional
        start, stop = node_ranges[s]
        cut = start + int(np.searchsorted(blocks[s].aggregate[start:stop], split, "right"))
        for part in ((start, cut), (cut, stop)):
            if part[1] <= part[0]:
                continue
            child_ranges = list(node_ranges)
            child_ranges[s] = part
            child_hulls = list(node_hulls)
            child_hulls[s] = hull(s, *part)
            child_bound, child_fractional = visit(child_hulls)
            nodes += 1
            if child_bound > max(best, floor) + tolerance:
                heapq.heappush(heap, (-child_bound, next(order), child_ranges, child_hulls,
                                      child_fractional))
            else:
                closed = max(closed, child_bound)
    upper = max([best, closed] + [-entry[0] for entry in heap])
    return best, best_choice, upper, nodes


@dataclass(frozen=True)
class _Product:
    """``Π_s C_s(E, 1)`` (``exceptional = None``), or for secret ``s_0`` and ``β ∈ [low,
    high]`` the exceptional product ``conv(V_A) × Π_{s ≠ s_0} C_s(E, low)`` (see
    :class:`BlockPricing`)."""

    exceptional: int | None
    low: float
    high: float

    def key(self, s: int, e: float) -> tuple:
        if self.exceptional is None:
            return ("block", s, e, 1.0)
        if s == self.exceptional:
            return ("upper", s, e * self.low, e * self.high)
        return ("block", s, e, self.low)


class BlockPricing:
    """Exact pricing of PolyOpt's section (see the module docstring).

    Parameters
    ----------
    lower : ndarray, shape=(|S|, |U|)
        ``L_{u|s}``, with ``σ_s = 1 − Σ_u L_{u|s} > 0`` for every ``s``.
    prior : ndarray, shape=(|S| |U|,)
        The design prior (S-major).
    epsilon : float
    same_secret : bool
        The paper variant (``s_1 = s_2`` rows kept).
    """

    def __init__(self, lower, prior, epsilon: float, same_secret: bool) -> None:
        check_real_dtype(lower, "lower")
        self.lower = np.asarray(lower, dtype=float)
        if not self.supports(self.lower):
            raise UnsupportedError(
                f"exact block pricing needs lower of shape (|S|, |U|) with 2 <= |U| <= "
                f"{MAX_BLOCK_OUTCOMES}, finite entries >= 0 and σ_s = 1 − Σ_u L_(u|s) > 0 "
                f"for every s; got {show(self.lower)}.")
        self.shape = self.lower.shape
        self.prior = as_distribution(prior, "prior", self.lower.size)
        epsilon = check_real(epsilon, "epsilon", low=0.0, high=math.inf, low_open=True,
                             high_open=True)
        same_secret = check_bool(same_secret, "same_secret")
        self.blocks_prior = self.prior.reshape(self.shape)
        self.sigma = 1.0 - self.lower.sum(axis=1)
        self.e = math.exp(epsilon)
        self.same_secret = same_secret
        self._sets: OrderedDict = OrderedDict()
        self._breaks: dict = {}
        self.min_size = min(
            sum(float(self._set(root.key(s, self.e)).size.min())
                for s in range(self.shape[0]))
            for root in self.roots())

    @staticmethod
    def supports(lower, epsilon: float = 1.0) -> bool:
        """Whether the blocks are small enough (``|U| ≤`` :data:`MAX_BLOCK_OUTCOMES`),
        every ``σ_s > 0`` (the section is then bounded block by block) and ``e^{2ε}`` is
        a finite double (the exceptional products reach ``A = e^{2ε}``; ε ≤ 354)."""
        if not 2 * float(epsilon) < math.log(np.finfo(float).max):
            return False
        lower = np.asarray(lower, dtype=float)
        return bool(lower.ndim == 2 and 2 <= lower.shape[1] <= MAX_BLOCK_OUTCOMES
                    and np.all(np.isfinite(lower)) and np.all(lower >= 0)
                    and np.all(1.0 - lower.sum(axis=1) > 0))

    def roots(self) -> list[_Product]:
        """The products covering the section (up to scale): the paper variant's, and for
        the default variant one per exceptional secret with ``β ∈ [1, E]``."""
        out = [_Product(None, 1.0, 1.0)]
        if not self.same_secret:
            out += [_Product(s, 1.0, self.e) for s in range(self.shape[0])]
        return out

    def _set(self, key: tuple) -> _BlockSet:
        """The candidates of one block of a product: ``("block", s, a, b)`` the vertices
        of ``C_s(a, b)``; ``("upper", s, a_1, a_2)`` the vertices of ``C_s(a, 1)`` on
        its face ``A = a`` for ``a ∈ {a_1, a_2}`` and the breakpoints between."""
        if key in self._sets:
            self._sets.move_to_end(key)
            return self._sets[key]
        kind, s, first, second = key
        lower = self.lower[s]
        if kind == "block":
            vertices = block_vertices(lower, first, second)
        elif first == second:  # exact: a fixed β's key repeats the same float
            vertices = _upper_tight_vertices(lower, first)
        else:
            vertices = _join([_upper_tight_vertices(lower, first),
                              _upper_tight_vertices(lower, second),
                              _breakpoint_vertices(lower, first, second)])
        block = _BlockSet(vertices, self.blocks_prior[s])
        self._sets[key] = block
        if len(self._sets) > BLOCK_CACHE_SIZE:
            self._sets.popitem(last=False)
        return block

    def _breakpoints(self, s: int, exceptional: bool) -> NDArray[np.float64]:
        """The ``β ∈ (1, E)`` at which block ``s``'s candidates change kind, sorted:
        ``E L(H)/(L(H) + σ)`` for ``C_s(E, β)``, and ``(L(H) + σ)/(E L(H))`` for the
        face ``A = Eβ`` of ``C_s(Eβ, 1)`` when ``s`` is the exceptional secret (every
        ``∅ ≠ H ≠ U`` with ``L(H) > 0``)."""
        key = (s, exceptional)
        if key not in self._breaks:
            n = self.shape[1]
            mass = _subset_sums(self.lower[s])[1: (1 << n) - 1]
            mass = mass[mass > 0]
            sigma = float(self.sigma[s])
            beta = (mass + sigma) / (self.e * mass) if exceptional \
                else self.e * mass / (mass + sigma)
            self._breaks[key] = np.unique(beta[(beta > 1.0) & (beta < self.e)])
        return self._breaks[key]

    def _cut(self, product: _Product) -> float | None:
        """A breakpoint of any block strictly inside ``(low, high)`` — the one nearest
        the geometric middle — or ``None`` when there is none (the product's two ends
        are then exact; see the module docstring)."""
        low, high = product.low, product.high
        middle = math.sqrt(low * high)
        best = None
        for s in range(self.shape[0]):
            points = self._breakpoints(s, s == product.exceptional)
            at = int(np.searchsorted(points, middle))
            for point in points[max(at - 1, 0): at + 1]:
                if low < point < high and (
                        best is None or abs(math.log(point / middle))
                        < abs(math.log(best / middle))):
                    best = float(point)
        return best

    def contains(self, v: NDArray[np.float64]) -> bool:
        """``A_{s_1} ≤ E B_{s_2}`` for the variant's pairs (relative slack
        ``PATTERN_FEASIBILITY_ATOL``)."""
        blocks = v.reshape(self.shape)
        mean = np.sum(self.lower * blocks, axis=1)
        top = mean + self.sigma * blocks.max(axis=1)
        bottom = mean + self.sigma * blocks.min(axis=1)
        ok = top[:, None] <= self.e * bottom[None, :] * (1 + PATTERN_FEASIBILITY_ATOL)
        if not self.same_secret:
            np.fill_diagonal(ok, True)
        return bool(ok.all())

    def _solve_step(self, dual, theta, tolerance, deadline, split):
        """``M(θ)`` over every product, with β cut at breakpoints where needed. Returns
        ``(best, point, upper, nodes, best product's candidates and hulls, others)``,
        ``others`` the other products' maximisers in the cone whose value exceeds
        ``tolerance`` (more columns from the same search)."""
        lam = dual.reshape(self.shape)
        hull_cache: dict = {}
        best, best_point, upper, nodes, best_detail = -math.inf, None, -math.inf, 0, None
        order = itertools.count()
        queue = [(-math.inf, next(order), root) for root in self.roots()]
        examined = 0
        ends: set = set()  # (s_0, β) of the exact end products queued
        others = []
        while queue:
            if examined >= BLOCK_MAX_PRODUCTS or (
                    deadline is not None and time.perf_counter() > deadline):
                # A product's bound holds for its halves: the parents' bounds stand.
                upper = max([upper] + [-entry[0] for entry in queue])
                break
            _, _, product = heapq.heappop(queue)
            examined += 1
            blocks, values, hulls = [], [], []
            for s in range(self.shape[0]):
                key = product.key(s, self.e)
                block = self._set(key)
                if key not in hull_cache:
                    q = block.values(lam[s], theta)
                    rows = _upper_hull(block.aggregate, q, 0, q.shape[0])
                    hull_cache[key] = (q, (block.aggregate[rows], q[rows], rows))
                q, hull = hull_cache[key]
                blocks.append(block)
                values.append(q)
                hulls.append(hull)
            value, choice, bound, used = _branch_and_bound(
                blocks, values, max(best, 0.0), tolerance, deadline, hulls)
            nodes += used
            if choice is not None:
                point = self._point(blocks, choice)
                if self.contains(point):
                    if value > best:
                        if best > tolerance:
                            others.append(best_point)
                        best, best_point = value, point
                        best_detail = (blocks, hulls, choice)
                    elif value > tolerance:
                        others.append(point)
                    if bound <= max(best, 0.0) + tolerance:
                        upper = max(upper, bound)
                        continue
            if bound <= max(best, 0.0) + tolerance:
                upper = max(upper, bound)
                continue
            if not split or product.exceptional is None or product.high <= product.low * (
                    1 + PATTERN_FEASIBILITY_ATOL):
                upper = max(upper, bound)
                continue
            s0, cut = product.exceptional, self._cut(product)
            if cut is None:
                # No block changes kind inside: the slab is in the hull of its two end
                # products, which lie in the cone — their maxima are exact.
                parts = [_Product(s0, beta, beta) for beta in (product.low, product.high)
                         if (s0, beta) not in ends]
                ends.update((s0, beta) for beta in (product.low, product.high))
            else:
                parts = [_Product(s0, product.low, cut), _Product(s0, cut, product.high)]
            for part in parts:
                heapq.heappush(queue, (-bound, next(order), part))
        return best, best_point, max(upper, best), nodes, best_detail, others

    def _neighbours(self, detail) -> NDArray[np.float64]:
        """The maximiser with one block moved to an adjacent vertex of that block's
        hull: up to ``2 |S|`` more section points, those in the cone."""
        blocks, hulls, choice = detail
        options = []
        for s, (_, _, rows) in enumerate(hulls):
            at = np.flatnonzero(rows == choice[s])
            for k in (at - 1, at + 1):
                if k.size and 0 <= k[0] < rows.shape[0]:
                    option = list(choice)
                    option[s] = int(rows[k[0]])
                    options.append(option)
        if not options:
            return np.zeros((0, self.prior.shape[0]))
        points = np.array([self._point(blocks, option) for option in options])
        points = points[[self.contains(v) for v in points]]
        return points / points.sum(axis=1, keepdims=True)

    @staticmethod
    def _point(blocks, choice) -> NDArray[np.float64]:
        return np.concatenate([blocks[s].vertices.points(np.array([j]))[0]
                               for s, j in enumerate(choice)])

    def price(self, dual, *, converge: bool, abs_gap: float, deadline: float | None = None,
              split: bool = True):
        """The best section points for ``λ`` and a certified upper bound on ``max r``.

        Dinkelbach steps from ``θ = 0`` (one step unless ``converge``), each
        :meth:`_solve_step` to within ``abs_gap · t_min``. Returns ``(columns, reduced
        costs, upper bound on max r, nodes)``. ``split=False`` never cuts β: the
        columns are still in the cone, the bound is only that of the first products
        (a cheap heuristic).
        """
        dual = np.asarray(dual, dtype=float)
        theta, upper = 0.0, math.inf
        found, nodes = [], 0
        tolerance = abs_gap * self.min_size
        for _ in range(BLOCK_DINKELBACH_STEPS if converge else 1):
            best, point, bound, used, detail, others = self._solve_step(
                dual, theta, tolerance, deadline, split)
            nodes += used
            upper = min(upper, theta + max(0.0, bound) / self.min_size)
            if point is None or best <= tolerance:
                break
            column = point / point.sum()
            found.append(column)
            if len(found) == 1:
                found.extend(self._neighbours(detail))
            found.extend(v / v.sum() for v in others)
            r = float(mutual_information_columns(self.prior, column[None, :])[0]
                      - column @ dual)
            if r <= theta:
                break
            theta = r
        if not found:
            return np.zeros((0, self.prior.shape[0])), np.zeros(0), upper, nodes
        columns = np.array(found)
        costs = mutual_information_columns(self.prior, columns) - columns @ dual
        return columns, costs, max(upper, float(costs.max())), nodes
