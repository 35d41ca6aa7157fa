"""Pricing the estimation design's quadratic score over ε-LDP's two-level vertices.

Column generation for :class:`~mechdesign.optimal.estimation.EstimationError` keeps a pool
of vertices of the ε-LDP section ``S = {v : v_i ≤ e^ε v_j, p·v = 1}`` and, at the pool's
optimum (``G = J⁻¹WᵀWJ⁻¹`` and the vertex LP's dual ``λ``), asks for vertices of positive
*reduced cost*

.. math::

    r(v) = v^\\top G v - \\lambda\\cdot v .

Every vertex of ``S`` is ``v(z) = u/s`` with ``u = ℓ + (1 − ℓ) z``, ``ℓ = e^{−ε}``,
``s = p·u`` and ``z ∈ {0,1}^N`` neither all zeros nor all ones
(:func:`~mechdesign.notions.ldp_cone_vertices`; the levels are scaled to ``{e^{−ε}, 1}``
rather than ``{1, e^ε}`` so that nothing overflows at ε = 700 — ``r`` is invariant to
the scale of ``u``). ``r`` is a convex function of ``v``
maximised over a polytope, so its maximum is a vertex's, and finding it is a binary
quadratic program — NP-hard in general.

**Heuristic** (:meth:`LdpQuadraticPricing.heuristic`): steepest-ascent local search on
``z`` by single flips, from the pool's support and from seeded random starts (one flip
updates ``Gu``, ``uᵀGu``, ``λ·u`` and ``s`` in ``O(N)``, all starts at once).

**Upper bound** (:meth:`LdpQuadraticPricing.upper_bound`), which the certificate uses.
For ``N ≤`` :data:`BRUTE_FORCE_MAX_N` every pattern is scored (exact). Beyond, the
maximum is bounded per cardinality ``m = |z|`` by a semidefinite relaxation. With
``x = (1, z)``, ``u = A x`` (``A = [ℓ1 | (1 − ℓ)I]``) and ``a = Aᵀp``, ``r = xᵀMx / (a·x)²`` with
``M = AᵀGA − ½(Aᵀλ aᵀ + a λᵀA)``; the matrix ``X = x xᵀ/(a·x)²`` of any pattern of
cardinality ``m`` satisfies

.. math::

    X \\succeq 0,\\quad a^\\top X a = 1,\\quad X_{ii} = X_{0i},\\quad
    X_{ij} \\ge 0,\\quad \\textstyle\\sum_{i \\ge 1} X_{0i} = m X_{00},\\quad
    \\sum_{j \\ge 1} X_{ij} = m X_{ii}

(``z_i² = z_i``; products of non-negative numbers; ``Σ z = m`` times ``1`` and times
``z_i``), so ``max ⟨M, X⟩`` over that set bounds ``max_{|z| = m} r``. Without the
cardinality split this doubly non-negative relaxation was 0.6 % loose on the optimum of
N = 10 (ε = 1, uniform and Zipf priors: the size of the subsets is where it cheats); with
it, tight to 1e-10 there, but 2e-4 of the error loose at N = 20 (Zipf), where the optimum's
many tied vertices make it average. So each size is first screened by the relaxation
without ``X_ij ≥ 0`` (N² fewer inequalities; it closes the sizes far from the optimum's),
then refined by a best-first branch and bound on ``z_j ∈ {0, 1}`` (a node fixes
``X_0j = X_00`` or ``0``) of at most :data:`RELAXATION_NODES` nodes. It is solved by
Clarabel (cvxpy) and is an upper bound to the solver's tolerance (1e-8), which the
returned bracket inherits; a solve Clarabel ends as "inaccurate" counts with a margin
(:data:`INACCURATE_MARGIN`). Each relaxation's fractional ``z``, rounded to its ``m``
largest entries and climbed, is also a candidate column. Two cheaper steps come first
for each size: a size whose bound without a relaxation
(:func:`~mechdesign.optimal.estimation.bounds.size_pricing_bounds`) is not positive has
no improving column and needs no program, and a size of at most
:data:`ENUMERATED_SIZE_MAX_PATTERNS` patterns (``m`` or ``N − m`` small) is scored
pattern by pattern — exact, and at N = 40 these are the sizes the optimum of a large ε
uses (measured at ε = 4: the relaxation's screen was positive at sizes 1–5 only).
"""

from __future__ import annotations

import math
import warnings

import numpy as np
from numpy.typing import NDArray

from mechdesign.errors import SolverError
from mechdesign.optimal.estimation.bounds import size_pricing_bounds
from mechdesign.status import Status, from_cvxpy

__all__ = ["BRUTE_FORCE_MAX_N", "RELAXATION_MAX_N", "ClonePeaksPricing", "LdpQuadraticPricing"]

#: Scoring every pattern is the upper bound up to this N (2^N − 2 patterns).
BRUTE_FORCE_MAX_N = 18
#: Patterns scored per block of the brute force.
BRUTE_FORCE_BLOCK = 1 << 15
#: Past the brute force, a cardinality with at most this many patterns is scored pattern
#: by pattern rather than relaxed (C(40, 4) = 91,390; one block of scores takes ~0.1 s).
ENUMERATED_SIZE_MAX_PATTERNS = 100_000
#: Random starts of the local search, per input.
RANDOM_STARTS_PER_INPUT = 2
#: The local search's seed (the search is deterministic: the same call, the same path).
LOCAL_SEARCH_SEED = 20_261_126
#: Flips one local search may make before it stops (it usually stops far earlier).
LOCAL_SEARCH_MAX_FLIPS_PER_INPUT = 4
#: A flip is an ascent when it gains more than this share of max(1, |r|) (rounding).
CLIMB_GAIN_RTOL = 1e-12
#: A relaxed z_j within this of 0 or 1 is integral (no branching on it).
INTEGRAL_ATOL = 1e-6
#: The relaxation is solved up to this N; beyond, one of its semidefinite programs takes
#: minutes (an interior point on an (N+1)² matrix: measured 40 s at N = 96, a few at
#: N = 64 — ``time_limit`` could not be kept), so the box bound of
#: :mod:`~mechdesign.optimal.estimation.bounds` is the pricing's bound.
RELAXATION_MAX_N = 64
#: Branch-and-bound nodes of the relaxation per cardinality.
RELAXATION_NODES = 16
#: The margin added to the value of a relaxation Clarabel solved "inaccurately".
INACCURATE_MARGIN = 1e-4
#: Clarabel's tolerances for the relaxation (its bound is used to this accuracy).
RELAXATION_TOLERANCES: dict[str, float] = {}  # Clarabel's defaults (1e-8); tighter ones
# were measured to end "inaccurate" on the near-degenerate relaxations of an optimum


class LdpQuadraticPricing:
    """Reduced costs ``r(v) = vᵀGv − λ·v`` over the two-level vertices of the ε-LDP
    section ``{v : p·v = 1}`` (module docstring).

    Parameters
    ----------
    epsilon : float
        The LDP level (finite, > 0).
    prior : ndarray, shape=(N,)
        The positive prior that normalises the section.
    """

    def __init__(self, epsilon: float, prior: NDArray[np.float64]) -> None:
        self.epsilon = float(epsilon)
        self.low = math.exp(-epsilon)  # the levels {ℓ, 1}: the vertex u/(p·u) is
        self.rise = -math.expm1(-epsilon)  # the same as with {1, e^ε}; 1 − ℓ exactly
        self.p = np.asarray(prior, dtype=float)
        self.n = self.p.shape[0]

    # -- vertices --------------------------------------------------------------------

    def points(self, patterns: NDArray[np.bool_]) -> NDArray[np.float64]:
        """The section's vertices ``u/(p·u)``, ``u = ℓ + (1 − ℓ) z``, of boolean patterns."""
        u = self.low + self.rise * patterns
        return u / (u @ self.p)[:, None]

    @property
    def two_level(self) -> LdpQuadraticPricing:
        """The two-level pricing whose patterns subset selection draws (itself)."""
        return self

    def embed(self, patterns: NDArray[np.bool_]) -> NDArray[np.bool_]:
        """Patterns of :attr:`two_level` as this pricing's patterns (the same)."""
        return patterns

    def patterns_of(self, points: NDArray[np.float64]) -> NDArray[np.bool_]:
        """The patterns of two-level vertices (the larger level)."""
        scaled = points / points.max(axis=1, keepdims=True)  # levels ℓ and 1
        return scaled > 0.5 * (1.0 + self.low)

    def initial_patterns(self) -> NDArray[np.bool_]:
        """Singletons (k-RR's columns, a feasible start whose ``J`` is regular) and their
        complements."""
        eye = np.eye(self.n, dtype=bool)
        return np.vstack([eye, ~eye]) if self.n > 2 else eye

    def scores(self, patterns, g_matrix, dual) -> NDArray[np.float64]:
        """``r(v(z))`` of each pattern."""
        u = self.low + self.rise * patterns
        s = u @ self.p
        return np.einsum("mi,ij,mj->m", u, g_matrix, u) / s**2 - (u @ dual) / s

    # -- heuristic -------------------------------------------------------------------

    def heuristic(self, g_matrix, dual, starts: NDArray[np.bool_], round_: int = 0):
        """Local maxima of ``r`` by single flips from ``starts`` and seeded random
        patterns; returns the distinct patterns found and their reduced costs, best first."""
        rng = np.random.default_rng([LOCAL_SEARCH_SEED, round_])
        random = rng.random((RANDOM_STARTS_PER_INPUT * self.n, self.n)) < rng.random(
            (RANDOM_STARTS_PER_INPUT * self.n, 1))
        z = np.vstack([starts, random]).astype(bool)
        z = z[(z.sum(axis=1) > 0) & (z.sum(axis=1) < self.n)]
        z = self._climb(z, g_matrix, dual)
        z = np.unique(z, axis=0)
        r = self.scores(z, g_matrix, dual)
        order = np.argsort(-r, kind="stable")
        return z[order], r[order]

    def _climb(self, z, g_matrix, dual):
        rise, p, n = self.rise, self.p, self.n
        u = self.low + rise * z
        gu = u @ g_matrix
        q = np.sum(u * gu, axis=1)
        a = u @ dual
        s = u @ p
        diagonal = np.diag(g_matrix)
        active = np.arange(z.shape[0])
        for _ in range(LOCAL_SEARCH_MAX_FLIPS_PER_INPUT * n):
            if active.size == 0:
                break
            zi = z[active]
            step = rise * (1.0 - 2.0 * zi)  # +(1 − ℓ) turns z_i on, −(1 − ℓ) off
            q1 = q[active, None] + 2.0 * step * gu[active] + step**2 * diagonal
            s1 = s[active, None] + step * p
            a1 = a[active, None] + step * dual
            count = zi.sum(axis=1, keepdims=True)
            with np.errstate(divide="ignore", invalid="ignore"):
                # s1 ≈ 0 only for the all-zeros pattern at large ε: masked below
                r1 = q1 / s1**2 - a1 / s1
            # a flip may not make the pattern all zeros or all ones (not a vertex)
            r1[(zi & (count == 1)) | (~zi & (count == n - 1))] = -np.inf
            r0 = q[active] / s[active] ** 2 - a[active] / s[active]
            best = np.argmax(r1, axis=1)
            gain = r1[np.arange(active.size), best] - r0
            moving = gain > CLIMB_GAIN_RTOL * np.maximum(1.0, np.abs(r0))
            if not moving.any():
                break
            rows, cols = active[moving], best[moving]
            st = step[moving, cols]
            z[rows, cols] = ~z[rows, cols]
            q[rows] = q1[moving, cols]
            s[rows] = s1[moving, cols]
            a[rows] = a1[moving, cols]
            gu[rows] += st[:, None] * g_matrix[cols]
            active = rows
        return z

    # -- upper bound -----------------------------------------------------------------

    def upper_bound(self, g_matrix, dual, tolerance: float, *,
                    deadline: float | None = None, fallback: float = math.inf,
                    whole: bool = True):
        """An upper bound on ``max_v r(v)`` over every vertex, patterns found with
        ``r > tolerance`` (the brute force's, or the local search's from the
        relaxation's solution), best first, and the bound's name.

        ``fallback`` is a valid bound on the same maximum (the box bound of
        :mod:`~mechdesign.optimal.estimation.bounds`); it stands for every cardinality the
        relaxation cannot bound — Clarabel failed on it, or ``deadline``
        (``time.perf_counter()``) passed — so the result is always a bound, never an
        exception, and never more than ``fallback``. ``whole``: whether the one relaxation
        of every size may stand for what the deadline leaves unsolved (it takes seconds at
        N = 40, half a minute at N = 64); else ``fallback`` does."""
        if self.n <= BRUTE_FORCE_MAX_N:
            bound, found = self._brute_force(g_matrix, dual, tolerance)
            return bound, found, "pricing (brute force)"
        if self.n > RELAXATION_MAX_N:
            return fallback, np.zeros((0, self.n), dtype=bool), "pricing (box bound)"
        bound, found, complete = self._relaxation(g_matrix, dual, tolerance, deadline,
                                                  fallback, whole)
        if bound >= fallback:
            return fallback, found, "pricing (box bound)"
        name = "pricing (DNN relaxation)" if complete else (
            "pricing (DNN relaxation; box bound where it failed or ran out of time)")
        return bound, found, name

    def whole_bound(self, g_matrix, dual) -> float:
        """The relaxation of every cardinality at once — one semidefinite program, a
        looser bound than the per-cardinality branch and bound — or ``inf`` when
        Clarabel fails on it. It stands for the sizes a deadline leaves unsolved."""
        n = self.n
        problem = _RelaxedPricing(self.low, self.rise, self.p, g_matrix, dual,
                                  cardinality=False)
        try:
            value, _ = problem.solve(0, np.zeros(n), np.zeros(n))
        except SolverError:
            return math.inf
        return value

    def _brute_force(self, g_matrix, dual, tolerance):
        n = self.n
        bits = np.arange(n)
        blocks = (((np.arange(start, min(start + BRUTE_FORCE_BLOCK, (1 << n) - 1))[:, None]
                    >> bits) & 1).astype(bool)
                  for start in range(1, (1 << n) - 1, BRUTE_FORCE_BLOCK))
        return self._best_of(blocks, g_matrix, dual, tolerance)

    def _enumerate_size(self, m: int, g_matrix, dual, tolerance):
        """The largest reduced cost over every pattern of ``m`` ones (exact), and the
        patterns above ``tolerance``, best first."""
        import itertools

        n = self.n
        small = min(m, n - m)  # size N − m: the complements of size m
        combos = itertools.combinations(range(n), small)

        def blocks():
            while True:
                chunk = np.fromiter(itertools.chain.from_iterable(
                    itertools.islice(combos, BRUTE_FORCE_BLOCK)), dtype=np.int64
                ).reshape(-1, small)
                if chunk.shape[0] == 0:
                    return
                z = np.zeros((chunk.shape[0], n), dtype=bool)
                z[np.arange(chunk.shape[0])[:, None], chunk] = True
                yield z if small == m else ~z

        return self._best_of(blocks(), g_matrix, dual, tolerance)

    def _best_of(self, blocks, g_matrix, dual, tolerance):
        """The largest reduced cost over blocks of patterns, and the patterns above
        ``tolerance``, best first."""
        best = -math.inf
        found_z, found_r = [], []
        for z in blocks:
            r = self.scores(z, g_matrix, dual)
            best = max(best, float(r.max()))
            keep = r > tolerance
            if keep.any():
                found_z.append(z[keep])
                found_r.append(r[keep])
        if not found_z:
            return best, np.zeros((0, self.n), dtype=bool)
        z, r = np.vstack(found_z), np.concatenate(found_r)
        return best, z[np.argsort(-r, kind="stable")]

    def _relaxation(self, g_matrix, dual, tolerance, deadline=None, fallback=math.inf,
                    whole=True):
        """Per cardinality ``m``, best-first branch and bound on the relaxation (module
        docstring): a node fixes some ``z_j`` to 1 or 0 (``X_0j = X_00`` or ``0``),
        branches on the most fractional ``z_j = X_0j/X_00`` while its bound exceeds
        ``tolerance``, at most :data:`RELAXATION_NODES` nodes per ``m``. The bound is the
        largest over closed nodes and open ones (their parent's). A cardinality whose
        relaxation fails, or that the deadline leaves unsolved, is bounded by
        ``fallback`` (``complete`` is then False)."""
        import heapq
        import time

        p, n = self.p, self.n
        problem = _RelaxedPricing(self.low, self.rise, p, g_matrix, dual)
        screen = _RelaxedPricing(self.low, self.rise, p, g_matrix, dual, nonnegative=False)
        best = -math.inf
        complete = True
        found = []

        def out_of_time():
            return deadline is not None and time.perf_counter() > deadline

        rest = None  # the bound of what the deadline leaves: computed once, when it passes

        def remaining():
            # the one-program relaxation (seconds; the caller keeps a share of its time
            # limit for it), else the fallback
            nonlocal rest
            if rest is None:
                rest = min(self.whole_bound(g_matrix, dual) if whole else math.inf, fallback)
            return rest

        cheap = size_pricing_bounds(g_matrix, dual, p, self.epsilon)
        for m in range(1, n):
            if out_of_time():
                best, complete = max(best, remaining()), False
                break
            if cheap[m] <= 0.0:  # no improving column of this size: no program needed
                best = max(best, float(cheap[m]))
                continue
            if math.comb(n, m) <= ENUMERATED_SIZE_MAX_PATTERNS:
                value, exact = self._enumerate_size(m, g_matrix, dual, tolerance)
                best = max(best, value)
                found.append(exact)
                continue
            # a looser relaxation (no X_ij ≥ 0: N² fewer inequalities) closes most sizes
            try:
                value, _ = screen.solve(m, np.zeros(n), np.zeros(n))
            except SolverError:
                value = math.inf  # no screen: the branch and bound decides
            if value <= tolerance:
                best = max(best, value)
                continue
            heap = [(-min(value, fallback), 0, np.zeros(n), np.zeros(n))]
            count = 0
            while heap and count < RELAXATION_NODES and not out_of_time():
                parent, _, ones, zeros = heapq.heappop(heap)
                if ones.sum() > m or zeros.sum() > n - m:
                    continue
                count += 1
                try:
                    value, z = problem.solve(m, ones, zeros)
                except SolverError:
                    best, complete = max(best, -parent), False  # the parent's bound stands
                    continue
                if value <= tolerance:
                    best = max(best, value)
                    continue
                rounded = np.zeros((1, n), dtype=bool)
                rounded[0, np.argsort(-z, kind="stable")[:m]] = True
                found.append(self._climb(rounded, g_matrix, dual))
                free = (ones == 0) & (zeros == 0)
                fractional = np.where(free, np.minimum(z, 1.0 - z), -1.0)
                j = int(np.argmax(fractional))
                if fractional[j] <= INTEGRAL_ATOL:  # integral: the relaxation is exact here
                    best = max(best, value)
                    continue
                for fix_one in (True, False):
                    child_ones, child_zeros = ones.copy(), zeros.copy()
                    (child_ones if fix_one else child_zeros)[j] = 1.0
                    heapq.heappush(heap, (-min(value, fallback), count * 2 + fix_one,
                                          child_ones, child_zeros))
            unsolved = max([-key for key, *_ in heap], default=-math.inf)
            if heap and out_of_time():
                complete = False
                unsolved = min(unsolved, remaining())  # both bound the open nodes
            best = max(best, unsolved)
        best = min(best, fallback)
        if not found:
            return best, np.zeros((0, n), dtype=bool), complete
        z = np.unique(np.vstack(found), axis=0)
        r = self.scores(z, g_matrix, dual)
        return best, z[r > tolerance][np.argsort(-r[r > tolerance], kind="stable")], complete


class _RelaxedPricing:
    """The doubly non-negative relaxation of ``max_{|z| = m} r(z)`` with some ``z_j``
    fixed (module docstring), compiled once by cvxpy and solved by Clarabel."""

    def __init__(self, low, rise, p, g_matrix, dual, nonnegative: bool = True,
                 cardinality: bool = True) -> None:
        import cvxpy as cp

        n = p.shape[0]
        lift = np.hstack([np.full((n, 1), low), rise * np.eye(n)])  # u = A x
        a = lift.T @ p
        ell = lift.T @ dual
        m_matrix = lift.T @ g_matrix @ lift - 0.5 * (np.outer(ell, a) + np.outer(a, ell))
        self.x = x = cp.Variable((n + 1, n + 1), PSD=True)
        self.size = cp.Parameter(nonneg=True)
        self.ones = cp.Parameter(n, nonneg=True)
        self.free = cp.Parameter(n, nonneg=True)
        z_part, first, scale = x[1:, 1:], x[0, 1:], x[0, 0]
        diagonal = cp.diag(x)[1:]
        constraints = [a @ x @ a == 1, diagonal == first,
                       first >= self.ones * scale, first <= self.free * scale]
        if cardinality:
            constraints += [cp.sum(first) == self.size * scale,
                            cp.sum(z_part, axis=1) == self.size * diagonal]
        if nonnegative:
            constraints.append(z_part >= 0)
        self.problem = cp.Problem(cp.Maximize(cp.trace(m_matrix @ x)), constraints)

    def solve(self, m: int, ones, zeros) -> tuple[float, NDArray[np.float64]]:
        """The relaxation's value and its fractional ``z`` (−inf when infeasible)."""
        import cvxpy as cp

        self.size.value = float(m)
        self.ones.value = ones
        self.free.value = 1.0 - zeros
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)  # inaccurate: handled below
                self.problem.solve(solver=cp.CLARABEL, **RELAXATION_TOLERANCES)
        except cp.error.SolverError as exc:
            raise SolverError(f"Clarabel failed on the pricing relaxation: {exc}",
                              status=Status.NUMERICAL_ERROR, solver_status="solver error"
                              ) from exc
        status = self.problem.status
        if status in ("infeasible", "infeasible_inaccurate"):
            return -math.inf, np.zeros(ones.shape[0])
        if status not in ("optimal", "optimal_inaccurate") or self.x.value is None:
            raise SolverError(f"Clarabel did not solve the pricing relaxation ({status})",
                              status=from_cvxpy(status), solver_status=str(status))
        x = np.asarray(self.x.value)
        value = float(self.problem.value)
        if status == "optimal_inaccurate":
            # an interior point that stopped short: its value is trusted only with a
            # margin (measured: such values are within 1e-6 of a clean solve's)
            value += INACCURATE_MARGIN * max(1.0, abs(value))
        return value, x[0, 1:] / max(x[0, 0], np.finfo(float).tiny)


class ClonePeaksPricing:
    """Reduced costs over the vertices of :class:`~mechdesign.notions.CloneLDP` where its
    clone mass caps the ratio (``r ≥ 1/(e^{ε₀} + 1)``): the ``N`` peaks (``S − 1`` on one
    input, 1 elsewhere; ``S = 1/r``; ``e^{ε₀}`` if smaller) and the flats (``S/2`` on
    ``3 ≤ |Q| ≤ N − 1`` inputs, 1 elsewhere).

    Every ``{1, S/2}`` pattern of any size lies in the cone (its smallest entry is 1 and
    its two largest sum to at most ``S``), so the flats are priced as the two-level
    vertices of ``log(S/2)``-LDP (:class:`LdpQuadraticPricing`: a superset, so its
    bound is a bound and what it finds is feasible), and the peaks exactly, all ``N``
    of them. A pattern is ``N + 1`` bits: the last marks a peak (``e_h`` in the first
    ``N``). The cone lies in the LDP cone of its peaks' level, so :attr:`epsilon` is that
    level: the bounds that need no pricing (:mod:`~mechdesign.optimal.estimation.bounds`)
    hold for it.

    Parameters
    ----------
    low : float
        The peaks' lower level relative to their top, ``1/min(S − 1, e^{ε₀})``
        (:attr:`~mechdesign.notions.CloneLDP.levels`).
    r : float
        The clone mass, ``1/(e^{ε₀} + 1) ≤ r < 1/2``.
    prior : ndarray, shape=(N,)
        The positive prior that normalises the section.
    """

    def __init__(self, low: float, r: float, prior: NDArray[np.float64]) -> None:
        self.p = np.asarray(prior, dtype=float)
        self.n = self.p.shape[0]
        self.epsilon = -math.log(low)  # the cone lies in this LDP level's
        self.flats = LdpQuadraticPricing(-math.log(2.0 * r), self.p)  # log(S/2)
        self.peak_low = low
        peaks = np.where(np.eye(self.n, dtype=bool), 1.0, self.peak_low)
        self._peaks = peaks / (peaks @ self.p)[:, None]

    @property
    def two_level(self) -> LdpQuadraticPricing:
        """The flats' pricing, whose patterns subset selection draws."""
        return self.flats

    def embed(self, patterns: NDArray[np.bool_]) -> NDArray[np.bool_]:
        """Flat patterns (``N`` bits) as this pricing's (``N + 1``, the last off)."""
        return np.hstack([patterns, np.zeros((patterns.shape[0], 1), dtype=bool)])

    def points(self, patterns: NDArray[np.bool_]) -> NDArray[np.float64]:
        """The vertices ``u/(p·u)`` of the patterns (peaks where the last bit is set)."""
        peak = patterns[:, -1]
        out = np.empty((patterns.shape[0], self.n))
        if (~peak).any():
            out[~peak] = self.flats.points(patterns[~peak, :-1])
        if peak.any():
            out[peak] = self._peaks[np.argmax(patterns[peak, :-1], axis=1)]
        return out

    def initial_patterns(self) -> NDArray[np.bool_]:
        """The peaks first (k-RR's columns at ``e^{ε₀} = S − 1``: feasible, ``J``
        regular), then the flats' singletons and complements."""
        peaks = np.hstack([np.eye(self.n, dtype=bool), np.ones((self.n, 1), dtype=bool)])
        return np.vstack([peaks, self.embed(self.flats.initial_patterns())])

    def _peak_scores(self, g_matrix, dual) -> NDArray[np.float64]:
        v = self._peaks
        return np.einsum("mi,ij,mj->m", v, g_matrix, v) - v @ dual

    def _peak_patterns(self, rows: NDArray[np.int64]) -> NDArray[np.bool_]:
        z = np.zeros((rows.size, self.n + 1), dtype=bool)
        z[np.arange(rows.size), rows] = True
        z[:, -1] = True
        return z

    def heuristic(self, g_matrix, dual, starts: NDArray[np.bool_], round_: int = 0):
        """The flats' local search (from the flat starts) and every peak, best first."""
        flat_starts = starts[~starts[:, -1], :-1]
        z, r = self.flats.heuristic(g_matrix, dual, flat_starts, round_)
        peak_r = self._peak_scores(g_matrix, dual)
        z = np.vstack([self.embed(z), self._peak_patterns(np.arange(self.n))])
        r = np.concatenate([r, peak_r])
        order = np.argsort(-r, kind="stable")
        return z[order], r[order]

    def upper_bound(self, g_matrix, dual, tolerance: float, *,
                    deadline: float | None = None, fallback: float = math.inf,
                    whole: bool = True):
        """The larger of the flats' bound (:meth:`LdpQuadraticPricing.upper_bound`) and
        the peaks' exact maximum; patterns with ``r > tolerance``, best first."""
        bound, found, name = self.flats.upper_bound(g_matrix, dual, tolerance,
                                                    deadline=deadline, fallback=fallback,
                                                    whole=whole)
        peak_r = self._peak_scores(g_matrix, dual)
        good = np.flatnonzero(peak_r > tolerance)
        found = np.vstack([self._peak_patterns(good[np.argsort(-peak_r[good], kind="stable")]),
                           self.embed(found)])
        return max(bound, float(peak_r.max())), found, name

    def whole_bound(self, g_matrix, dual) -> float:
        """The flats' one-program relaxation, or the peaks' maximum if larger."""
        return max(self.flats.whole_bound(g_matrix, dual),
                   float(self._peak_scores(g_matrix, dual).max()))
