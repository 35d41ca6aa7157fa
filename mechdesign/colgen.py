"""Column generation for optimal mechanisms, with certified bounds (issue 7).

The vertex LP of :func:`~mechdesign.design.design` is

.. math::

    \\max_{\\theta \\ge 0} \\sum_v \\theta_v \\mu(v) \\quad \\text{s.t.}
    \\quad \\sum_v \\theta_v v = \\mathbf 1,

over every vertex ``v`` of the notion's normalised section ``S``. Column generation
solves it over a growing set of columns (the *restricted master*, :class:`RestrictedMaster`)
and asks a *pricing* oracle (:class:`PricingOracle`) for vertices of large reduced cost
``r(v) = μ(v) − λ·v`` under the master's dual ``λ``. Because every column sums to one,
``Σ_v θ_v = N`` for every feasible ``θ``, so for any ``λ``

.. math::

    \\text{LP value} \\;\\le\\; \\text{OPT} \\;\\le\\; \\mathbf 1 \\cdot \\lambda
    + N \\max\\bigl(0, \\max_{v} r(v)\\bigr)

(``Σ θ_v μ(v) = 1·λ + Σ θ_v r(v)``): a certified bracket whenever the pricing returns a
true upper bound on ``max_v r(v)``.

**Patterned vertices.** For ε-LDP and ``(ε, c)``-PML every vertex takes at most three
distinct values (:func:`~mechdesign.notions.ldp_cone_vertices`,
:func:`~mechdesign.notions.c_pml_vertices`), so a vertex is ``u(z)/D(z)`` with ``z`` a
binary vector, ``u(z) = b + U z`` affine, every coordinate moved by at most one ``z_j``,
and ``D(z) = 1·u(z)`` affine. Then ``Σ_x P_x u_x \\log u_x`` is affine in ``z`` and, with
``G(s) = s \\log s`` and the aggregate ``s(z) = P·u(z)``,

.. math::

    \\mu(u(z)) = e_0 + e \\cdot z - G(s(z)), \\qquad
    r = \\frac{e_0 + e\\cdot z - G(s(z)) - \\lambda\\cdot u(z)}{D(z)}

(``μ`` is positively homogeneous). ``G`` is convex, so ``−G`` is concave: maximising
``r`` for a fixed ``D`` is a concave function of one aggregate minus a modular function
over subsets — NP-hard in general (``−G`` can encode subset sum), not solved by sorting
(a brute-force test keeps a counterexample), but a small mixed-integer program.

**Exact pricing** (:meth:`PricingOracle.price`). Each family of patterns is a HiGHS MIP
over ``z`` and an epigraph variable ``t ≥ G(s)``, with ``G`` replaced by outer tangent
cuts ``t ≥ G(s_j) + G'(s_j)(s − s_j)``. Tangents of a convex function lie below it, so
the MIP (solved with relative gap 0) *over*-estimates the true maximum: its dual bound
is an upper bound. Its solution ``z*`` is accepted once ``t* ≥ G(s(z*)) − atol``;
otherwise the tangent at ``s(z*)`` is added (it makes ``z*`` tight) and the MIP is
solved again — finitely many ``z``, so the loop ends. A family whose normaliser ``D``
varies (ε-LDP, ``|B|`` free) is solved by Dinkelbach's method: ``F(θ) = max_z R(z) −
θ D(z)`` is decreasing, ``θ ← R(z_θ)/D(z_θ)`` until ``F(θ) ≤ 0``, and for every ``θ``
``max r ≤ θ + max(0, F̄(θ))/D_min`` with ``F̄`` the MIP's dual bound.

**Heuristic pricing** (:meth:`PricingOracle.heuristic`) linearises ``G`` at a grid of
aggregates and takes the best pattern of the linearised (modular) problem by sorting;
it is cheap, finds most improving columns, and column generation calls the exact MIPs
only when it finds none. The certificate comes from the exact pricing alone.

**Robust LDP.** Non-robust RLDP (:class:`~mechdesign.notions.NonRobustLDP`) is priced
exactly through the extreme rays of its cone (:class:`_NonRobustFamily`). PolyOpt
(:class:`~mechdesign.notions.RobustLDP`) has no known vertex pattern: it is priced by
successive linearisation over a compact form of its section
(:class:`LinearisationOracle`), and its upper bound is the certified optimum of the
non-robust relaxation, whose cone contains PolyOpt's.

Measured (``benchmarks/scale.py``, 2-core machine, ε = 1, certified gap 1e-6): ε-LDP at
N = 20 in 1.3 s, N = 64 in 19 s and N = 128 in 6 minutes; ``(ε, c = 1/(2N))``-PML at
N = 32 in 38 s and N = 64 in 4.5 minutes. Warm-starting the master makes its solves
about 6× faster per iteration, but they are 5 % of the time: pricing dominates.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mechdesign._highs import PRIMAL_SIMPLEX, Model
from mechdesign._numerics import (
    COLUMN_GENERATION_BATCH,
    COLUMN_GENERATION_MAX_ITERATIONS,
    LINEARISATION_ESCALATION,
    LINEARISATION_RETRIES,
    LINEARISATION_SMOOTHING,
    LINEARISATION_STARTS,
    LINEARISATION_STEPS,
    LP_FEASIBILITY_TOL,
    PRICING_CUT_ATOL,
    PRICING_DINKELBACH_STEPS,
    PRICING_HEURISTIC_SLOPES,
    PRICING_INITIAL_CUTS,
    PRICING_LOCAL_STARTS,
    PRICING_LOCAL_STEPS,
    PRICING_MIP_ABS_GAP,
    PRICING_MIP_TIME_LIMIT,
    as_distribution,
    check_epsilon,
    check_positive_int,
    show,
)
from mechdesign.errors import InvalidInputError, UnsupportedError
from mechdesign.utilities import mutual_information_columns

__all__ = [
    "ColumnGenerationReport",
    "ColumnGenerationRun",
    "LinearisationOracle",
    "Pricing",
    "PricingOracle",
    "RestrictedMaster",
    "ldp_column",
    "price_ldp",
    "run_column_generation",
]


@dataclass(frozen=True)
class Pricing:
    """The answer of a pricing oracle for one dual ``λ``.

    Attributes
    ----------
    columns : ndarray, shape=(m, N)
        Section vertices found, best first (one or more per pattern family).
    reduced_costs : ndarray, shape=(m,)
        Their reduced costs ``μ(v) − λ·v``.
    upper_bound : float
        An upper bound on ``max_v μ(v) − λ·v`` over every vertex of the section (exact
        pricing); ``+inf`` when the oracle was heuristic.
    exact : bool
    mips : int
        Mixed-integer programs solved (every cut and every Dinkelbach step counts).
    """

    columns: NDArray[np.float64]
    reduced_costs: NDArray[np.float64]
    upper_bound: float
    exact: bool
    mips: int

    @property
    def reduced_cost(self) -> float:
        """The best reduced cost found (``-inf`` if nothing was found)."""
        return float(self.reduced_costs[0]) if self.reduced_costs.size else -math.inf

    @property
    def column(self) -> NDArray[np.float64]:
        """The best column found."""
        return self.columns[0]


@dataclass(frozen=True)
class ColumnGenerationReport:
    """Certificate of a column-generation design.

    Attributes
    ----------
    lower_bound : float
        The final restricted master's optimum, achieved by the returned mechanism.
    upper_bound : float
        The least ``1·λ + N max(0, r̄)`` over the exactly priced iterations, ``r̄`` the
        pricing's upper bound on the best reduced cost; ``+inf`` if no exact pricing ran.
    exact_pricing : bool
        Whether the pricing oracle was exact (then the bracket is certified).
    status : str
        ``"optimal"`` when pricing is exact and the gap is within the tolerance,
        otherwise ``"feasible, gap g"``.
    columns : int
        Columns in the final master.
    iterations : int
        Master LPs solved.
    history : tuple of (float, float)
        ``(lower, upper)`` after every iteration (the best so far of each); the gap
        ``upper − lower`` is non-increasing.
    dual : ndarray, shape=(N,)
        The final master's dual ``λ``.
    seconds : float
    exact_pricings : int
        Iterations priced by the exact MIPs (the others by the heuristic).
    mips : int
        Mixed-integer programs solved in total.
    master_seconds : float
        Time spent solving the restricted master LPs.
    """

    lower_bound: float
    upper_bound: float
    exact_pricing: bool
    status: str
    columns: int
    iterations: int
    history: tuple[tuple[float, float], ...]
    dual: NDArray[np.float64]
    seconds: float
    exact_pricings: int = 0
    mips: int = 0
    master_seconds: float = 0.0

    @property
    def gap(self) -> float:
        """``upper_bound − lower_bound`` (nats)."""
        return self.upper_bound - self.lower_bound


# -- the concave part: G(s) = s log s ----------------------------------------------------


def _entropy_term(x: NDArray[np.float64] | float) -> NDArray[np.float64]:
    """``G(x) = x log x`` elementwise, with ``G(0) = 0``."""
    x = np.asarray(x, dtype=float)
    out = np.zeros_like(x)
    positive = x > 0
    out[positive] = x[positive] * np.log(x[positive])
    return out


# -- pattern families ----------------------------------------------------------------------


class _Family:
    """Section points ``u(z)/D(z)``, ``u(z) = base + U z``, over binary ``z`` in the
    polytope ``row_lower ≤ A z ≤ row_upper``; every coordinate of ``u`` is moved by at
    most one ``z_j`` at a time (so ``Σ P u log u`` is affine in ``z``)."""

    def __init__(
        self,
        prior: NDArray[np.float64],
        base: NDArray[np.float64],
        moves: NDArray[np.float64],
        rows: NDArray[np.float64],
        row_lower: NDArray[np.float64],
        row_upper: NDArray[np.float64],
        min_normaliser: float,
    ) -> None:
        self.prior = prior
        self.base = base
        self.moves = moves  # U, shape (N, n_bin)
        self.rows = rows
        self.row_lower = row_lower
        self.row_upper = row_upper
        self.min_normaliser = min_normaliser
        self.n_bin = moves.shape[1]
        moved = base[:, None] + moves
        # e_j = Σ_x P_x [G(b_x + U_xj) − G(b_x)], e_0 = Σ_x P_x G(b_x).
        self.entropy_base = float(prior @ _entropy_term(base))
        self.entropy = prior @ (_entropy_term(moved) - _entropy_term(base)[:, None])
        self.aggregate_base = float(prior @ base)
        self.aggregate = prior @ moves
        self.normaliser_base = float(base.sum())
        self.normaliser = moves.sum(axis=0)
        self.variable_normaliser = bool(np.any(self.normaliser != 0))
        lo = self.aggregate_base + np.minimum(self.aggregate, 0).sum()
        hi = self.aggregate_base + np.maximum(self.aggregate, 0).sum()
        self.aggregate_range = (max(lo, 0.0), hi)
        self._model: Model | None = None
        self._cuts: list[float] = []

    # -- exact values -------------------------------------------------------------------

    def points(self, z: NDArray[np.bool_]) -> NDArray[np.float64]:
        """Normalised section points of the patterns ``z`` (rows)."""
        u = self.base[None, :] + z.astype(float) @ self.moves.T
        return u / u.sum(axis=1, keepdims=True)

    def reduced_costs(self, z: NDArray[np.bool_], dual: NDArray[np.float64]) -> NDArray:
        """``(e_0 + e·z − G(s(z)) − λ·u(z)) / D(z)`` for every row of ``z``."""
        zf = z.astype(float)
        s = self.aggregate_base + zf @ self.aggregate
        value = self.entropy_base + zf @ self.entropy - _entropy_term(s)
        value -= dual @ self.base + zf @ (self.moves.T @ dual)
        return value / (self.normaliser_base + zf @ self.normaliser)

    # -- heuristic ----------------------------------------------------------------------

    def slope_scores(self, dual: NDArray[np.float64]) -> NDArray[np.float64]:
        """Scores of the linearised problem at a grid of aggregates ``s_0``:
        ``e − Uᵀλ − G'(s_0) a`` (shape (slopes, n_bin))."""
        lo, hi = self.aggregate_range
        grid = np.linspace(max(lo, 1e-12), max(hi, 2e-12), PRICING_HEURISTIC_SLOPES)
        slopes = np.log(grid) + 1.0
        linear = self.entropy - self.moves.T @ dual
        return linear[None, :] - slopes[:, None] * self.aggregate[None, :]

    def candidates(self, dual: NDArray[np.float64]) -> NDArray[np.bool_]:
        raise NotImplementedError  # every concrete family defines its own selection

    def feasible(self, z: NDArray[np.bool_]) -> NDArray[np.bool_]:
        """Which rows of ``z`` satisfy the family's linear constraints."""
        lhs = z.astype(float) @ self.rows.T
        return np.all((lhs >= self.row_lower - 0.5) & (lhs <= self.row_upper + 0.5), axis=1)

    def neighbours(self, z: NDArray[np.bool_]) -> NDArray[np.bool_]:
        """Feasible patterns one flip or one swap (one bit on, one off) from ``z``."""
        n = self.n_bin
        flips = np.logical_xor(z[None, :], np.eye(n, dtype=bool))
        on, off = np.flatnonzero(z), np.flatnonzero(~z)
        swaps = np.repeat(z[None, :], on.size * off.size, axis=0)
        rows = np.arange(swaps.shape[0])
        swaps[rows, np.repeat(on, off.size)] = False
        swaps[rows, np.tile(off, on.size)] = True
        out = np.vstack([flips, swaps])
        return out[self.feasible(out)]

    def local_search(
        self, starts: NDArray[np.bool_], dual: NDArray[np.float64]
    ) -> tuple[NDArray[np.bool_], NDArray[np.float64]]:
        """Steepest ascent over :meth:`neighbours` from every start; returns every
        pattern visited or scanned with positive reduced cost (and the end points)."""
        found_z, found_r = [], []
        for z in starts:
            r = float(self.reduced_costs(z[None, :], dual)[0])
            for _ in range(PRICING_LOCAL_STEPS):
                near = self.neighbours(z)
                if near.shape[0] == 0:
                    break
                costs = self.reduced_costs(near, dual)
                good = costs > 0
                found_z.append(near[good])
                found_r.append(costs[good])
                best = int(np.argmax(costs))
                if costs[best] <= r:
                    break
                z, r = near[best], float(costs[best])
            found_z.append(z[None, :])
            found_r.append(np.array([r]))
        return np.vstack(found_z), np.concatenate(found_r)

    def heuristic_patterns(self, dual: NDArray[np.float64]) -> tuple[NDArray, NDArray]:
        """Patterns and reduced costs of :meth:`candidates` and of a local search from
        the best :data:`PRICING_LOCAL_STARTS` of them."""
        z = np.unique(self.candidates(dual), axis=0)
        r = self.reduced_costs(z, dual)
        starts = z[np.argsort(-r, kind="stable")[:PRICING_LOCAL_STARTS]]
        near, near_r = self.local_search(starts, dual)
        z, first = np.unique(np.vstack([z, near]), axis=0, return_index=True)
        return z, np.concatenate([r, near_r])[first]

    def heuristic_pricing(self, dual: NDArray[np.float64]) -> tuple[NDArray, NDArray]:
        z, r = self.heuristic_patterns(dual)
        return self.points(z), r

    def exact_pricing(
        self, dual: NDArray[np.float64], converge: bool, abs_gap: float
    ) -> tuple[NDArray, NDArray, float, int]:
        """Columns, reduced costs, an upper bound on the family's best reduced cost,
        and the MIPs solved (see :meth:`PricingOracle.price`)."""
        guesses = np.unique(self.candidates(dual), axis=0)
        guess_costs = self.reduced_costs(guesses, dual)
        start = guesses[int(np.argmax(guess_costs))]
        # Dinkelbach starts at the best heuristic ratio; a single step (column
        # generation) starts at 0 at least, to find a column that improves.
        best_guess = float(guess_costs.max())
        floor = best_guess if converge else max(0.0, best_guess)
        steps = PRICING_DINKELBACH_STEPS if converge else 1
        z, r, bound, mips, met = self.exact(dual, floor, start, steps, abs_gap)
        near, near_r = self.local_search(z[None, :], dual)
        zs = np.vstack([z[None, :], near, met])
        rs = np.concatenate([[r], near_r, self.reduced_costs(met, dual)])
        zs, first = np.unique(zs, axis=0, return_index=True)
        return self.points(zs), rs[first], bound, mips

    # -- exact MIP ----------------------------------------------------------------------

    def _build(self) -> Model:
        model = Model(
            mip_rel_gap=0.0,
            mip_abs_gap=PRICING_MIP_ABS_GAP,
            mip_improving_solution_save=True,
            mip_feasibility_tolerance=1e-10,
            primal_feasibility_tolerance=1e-10,
        )
        model.add_variables(np.zeros(self.n_bin), np.ones(self.n_bin), integer=True)
        model.add_variables(-math.inf, math.inf)  # t ≥ G(s)
        for row, lo, hi in zip(self.rows, self.row_lower, self.row_upper, strict=True):
            nz = np.flatnonzero(row)
            model.add_row(lo, hi, nz, row[nz])
        lo, hi = self.aggregate_range
        for s in np.geomspace(max(lo, 1e-6 * max(hi, 1e-12)), max(hi, 1e-12),
                              PRICING_INITIAL_CUTS):
            self._add_cut(model, float(s))
        return model

    def _add_cut(self, model: Model, s0: float) -> None:
        """``t ≥ G(s_0) + G'(s_0)(s − s_0) = (log s_0 + 1) s − s_0``, ``s = a_0 + a·z``."""
        slope = math.log(s0) + 1.0
        nz = np.flatnonzero(self.aggregate)
        index = np.concatenate([nz, [self.n_bin]])
        values = np.concatenate([-slope * self.aggregate[nz], [1.0]])
        model.add_row(slope * self.aggregate_base - s0, math.inf, index, values)
        self._cuts.append(s0)

    def _max_linearised(
        self,
        dual: NDArray[np.float64],
        theta: float,
        start: NDArray[np.bool_] | None,
        abs_gap: float,
    ) -> tuple[NDArray[np.bool_], float, int, NDArray[np.bool_]]:
        """``max_z R(z) − θ D(z)``: the maximiser, an upper bound on the maximum, the
        MIPs solved, and every improving incumbent the branch and bound met."""
        if self._model is None:
            self._model = self._build()
        model = self._model
        model.set_option("mip_abs_gap", abs_gap)
        met = []
        n = self.n_bin
        linear = self.entropy - self.moves.T @ dual - theta * self.normaliser
        constant = (self.entropy_base - dual @ self.base) - theta * self.normaliser_base
        model.set_costs(np.concatenate([linear, [-1.0]]))
        mips = 0
        while True:
            if start is not None:
                s = self.aggregate_base + start.astype(float) @ self.aggregate
                model.set_start(np.concatenate([start.astype(float), [_entropy_term(s)]]))
            solution = model.solve("a pricing MIP", time_limit=PRICING_MIP_TIME_LIMIT,
                                   accept_time_limit=True)
            mips += 1
            values = solution.x
            z = values[:n] > 0.5
            met.extend(saved[:n] > 0.5 for saved in solution.saved)
            s = float(self.aggregate_base + z.astype(float) @ self.aggregate)
            g = float(_entropy_term(s))
            if solution.timed_out:
                break  # the dual bound of a stopped branch and bound is still a bound
            if values[n] >= g - PRICING_CUT_ATOL or any(abs(c - s) < 1e-15 for c in self._cuts):
                break
            self._add_cut(model, max(s, PRICING_CUT_ATOL))
            start = z
        bound = solution.dual_bound
        met_z = np.array(met, dtype=bool).reshape(-1, n)
        return z, bound + constant, mips, met_z[self.feasible(met_z)]

    def exact(
        self,
        dual: NDArray[np.float64],
        floor: float,
        start: NDArray[np.bool_] | None,
        steps: int = PRICING_DINKELBACH_STEPS,
        abs_gap: float = PRICING_MIP_ABS_GAP,
    ) -> tuple[NDArray[np.bool_], float, float, int, NDArray[np.bool_]]:
        """Best pattern of the family, its reduced cost, an upper bound on the
        family's best reduced cost (at most ``steps`` Dinkelbach steps from
        ``θ = floor``; the bound is valid after any number of them), the MIPs solved,
        and the other incumbents met."""
        theta = floor
        best_z, best_r = None, -math.inf
        mips = 0
        met = []
        for _ in range(steps):
            z, bound, used, seen = self._max_linearised(dual, theta, start, abs_gap)
            met.append(seen)
            mips += used
            r = float(self.reduced_costs(z[None, :], dual)[0])
            if r > best_r:
                best_z, best_r = z, r
            upper = theta + max(0.0, bound) / self.min_normaliser
            if (
                not self.variable_normaliser
                or bound <= PRICING_CUT_ATOL * self.min_normaliser
                or r <= theta  # no progress (tolerance level): the bound stands
            ):
                break
            theta, start = r, z
        return best_z, best_r, max(upper, best_r), mips, np.vstack(met)


class _TwoLevel(_Family):
    """``u = low + (high − low) 1_B`` with ``k_min ≤ |B| ≤ k_max`` (ε-LDP with
    ``low = e^{−ε}``, ``high = 1``; a no-zero ``(ε, c)``-PML family at fixed ``|B|``)."""

    def __init__(self, prior, low: float, high: float, k_min: int, k_max: int) -> None:
        n = prior.shape[0]
        self.k_min, self.k_max = k_min, k_max
        super().__init__(
            prior,
            np.full(n, low),
            (high - low) * np.eye(n),
            np.ones((1, n)),
            np.array([float(k_min)]),
            np.array([float(k_max)]),
            n * low + (high - low) * k_min,
        )

    def candidates(self, dual: NDArray[np.float64]) -> NDArray[np.bool_]:
        """Every prefix of size ``k_min … k_max`` of every linearised order."""
        order = np.argsort(-self.slope_scores(dual), axis=1, kind="stable")
        n = self.n_bin
        ranks = np.empty_like(order)
        rows = np.arange(order.shape[0])[:, None]
        ranks[rows, order] = np.arange(n)[None, :]
        sizes = np.arange(self.k_min, self.k_max + 1)
        z = ranks[:, None, :] < sizes[None, :, None]  # (slopes, sizes, n)
        return z.reshape(-1, n)


class _ThreeLevel(_Family):
    """Zeros, ``top`` on ``T`` (``|T| = k``) and ``free`` on one ``f ∉ T``, with at
    least one zero (``(ε, c)``-PML, type (i) of :func:`~mechdesign.notions.c_pml_vertices`).
    ``z`` is ``(1_T, e_f)``."""

    def __init__(self, prior, top: float, free: float, k: int) -> None:
        n = prior.shape[0]
        self.k = k
        eye = np.eye(n)
        rows = np.vstack([
            np.concatenate([np.ones(n), np.zeros(n)]),  # |T| = k
            np.concatenate([np.zeros(n), np.ones(n)]),  # one free coordinate
            np.hstack([eye, eye]),  # T and f disjoint
            np.ones((1, 2 * n)),  # at least one zero
        ])
        lower = np.concatenate([[k, 1.0], np.full(n, -np.inf), [-np.inf]])
        upper = np.concatenate([[k, 1.0], np.ones(n), [n - 1.0]])
        super().__init__(
            prior, np.zeros(n), np.hstack([top * eye, free * eye]), rows, lower, upper, 1.0
        )

    def candidates(self, dual: NDArray[np.float64]) -> NDArray[np.bool_]:
        """Per linearisation: the best free coordinate, then the best ``T`` without it;
        and the best ``T``, then the best free coordinate outside it."""
        n = self.prior.shape[0]
        scores = self.slope_scores(dual)
        top_scores, free_scores = scores[:, :n], scores[:, n:]
        out = []
        for ts, fs in zip(top_scores, free_scores, strict=True):
            f = int(np.argmax(fs))
            masked = ts.copy()
            masked[f] = -np.inf
            t = np.argsort(-masked, kind="stable")[: self.k]
            out.append(_three_level_z(n, t, f))
            t = np.argsort(-ts, kind="stable")[: self.k]
            rest = fs.copy()
            rest[t] = -np.inf
            out.append(_three_level_z(n, t, int(np.argmax(rest))))
        return np.array(out)


def _three_level_z(n: int, top: NDArray[np.int64], free: int) -> NDArray[np.bool_]:
    z = np.zeros(2 * n, dtype=bool)
    z[top] = True
    z[n + free] = True
    return z


# -- the oracle ----------------------------------------------------------------------------


class PricingOracle:
    """Pricing for mutual information over the patterned vertices of a notion.

    Supported: :class:`~mechdesign.notions.LDP` (``0 < ε < ∞``; one family, the
    ``{e^{−ε}, 1}`` patterns with ``1 ≤ |B| ≤ N − 1``) and
    :class:`~mechdesign.notions.PML` with ``c`` (``ε > 0``): for each ``k`` the no-zero
    two-level family (minimum ``m_k`` on ``N − k`` inputs, ``M_k = r(c + s m_k)`` on
    ``k``; ``m_k = (1 − k r c)/(N − k + k r s)``, ``r = e^ε``, ``s = 1 − Nc``) when it is
    a feasible point, and for the one or two ``k`` with ``0 ≤ 1 − k r c ≤ r c`` the
    three-level family (zeros, ``r c`` on ``k`` inputs, ``1 − k r c`` on one). These
    families cover every vertex of the section
    (:func:`~mechdesign.notions.c_pml_vertices`, checked against cddlib), so pricing over
    them is exact. :class:`~mechdesign.notions.NonRobustLDP` with ``prior = P̂`` is priced
    over the extreme rays of its cone (:class:`_NonRobustFamily`). Other notions —
    PML for a known prior or a hull of priors, PolyOpt — raise
    :class:`~mechdesign.errors.UnsupportedError`:
    no pattern of their vertices is known to us (for a known prior the vertex values
    depend on ``P(T)`` itself, see :func:`~mechdesign.notions.known_prior_vertices`; for
    PolyOpt use :class:`LinearisationOracle`).

    Parameters
    ----------
    notion : LDP, PML with ``c``, or NonRobustLDP
    prior : array_like, shape=(N,)
    """

    def __init__(self, notion: object, prior: ArrayLike) -> None:
        from mechdesign.notions import LDP, PML, NonRobustLDP

        p = as_distribution(prior, "prior")
        n = p.shape[0]
        if n < 2:
            raise InvalidInputError(f"pricing needs N >= 2 inputs; got N = {n}.")
        self.prior = p
        self.n = n
        eps = getattr(notion, "epsilon", None)
        if isinstance(notion, LDP):
            self._check_epsilon(eps)
            self.families: list[_Family] = [_TwoLevel(p, math.exp(-eps), 1.0, 1, n - 1)]
            self._initial = self.families[0].points(np.eye(n, dtype=bool))
        elif isinstance(notion, PML) and notion.c is not None:
            self._check_epsilon(eps)
            c = notion.vertex_priors(n)[0].min()  # validates c against N
            self.families = _c_pml_families(p, eps, float(c))
            self._initial = np.full((1, n), 1.0 / n)
        elif isinstance(notion, NonRobustLDP):
            self._check_epsilon(eps)
            _check_same_prior(p, notion.p_hat, notion)
            self.families = [_NonRobustFamily(notion.p_hat, notion.shape, eps)]
            # Cells of probability 0 get their own columns e_x (rays of the cone), and
            # the uniform point is surrounded (see _surrounding_columns).
            family = self.families[0]
            self._initial = np.unique(np.vstack([
                np.full((1, n), 1.0 / n),
                np.eye(n)[p == 0],
                _surrounding_columns(family.contains, n),
            ]), axis=0)
        else:
            raise UnsupportedError(
                f"exact pricing needs a known pattern of the vertices, known for "
                f"epsilon-LDP, (epsilon, c)-PML and non-robust RLDP only; got {show(notion)}. "
                "Use method='enumeration' (or, for RobustLDP, LinearisationOracle)."
            )

    exact = True

    @staticmethod
    def supports(notion: object, prior: NDArray[np.float64]) -> bool:
        """Whether ``notion`` is priced exactly here for mutual information under
        ``prior``: ε-LDP, ``(ε, c)``-PML, and non-robust RLDP under its own ``P̂``, with
        ``0 < ε < ∞``."""
        from mechdesign.notions import LDP, PML, NonRobustLDP

        eps = getattr(notion, "epsilon", None)
        if not (isinstance(eps, int | float) and 0 < eps < math.inf):
            return False
        if isinstance(notion, NonRobustLDP):
            return bool(np.allclose(prior, notion.p_hat, rtol=0, atol=1e-12))
        return isinstance(notion, LDP) or (isinstance(notion, PML) and notion.c is not None)

    def values(self, columns: NDArray[np.float64]) -> NDArray[np.float64]:
        """Mutual information ``μ(v)`` of every column (row)."""
        return mutual_information_columns(self.prior, columns)

    @staticmethod
    def _check_epsilon(eps: float) -> None:
        check_epsilon(eps)
        if eps == 0 or math.isinf(eps):
            raise InvalidInputError(
                f"column generation needs 0 < epsilon < inf; got {show(eps)} (use "
                "method='enumeration', whose section is then a point or the simplex)."
            )

    def initial_columns(self) -> NDArray[np.float64]:
        """Section points summing to ``1``, so that the first master is feasible."""
        return self._initial.copy()

    def _check_dual(self, dual: ArrayLike) -> NDArray[np.float64]:
        lam = np.asarray(dual, dtype=float)
        if lam.shape != (self.n,) or not np.all(np.isfinite(lam)):
            raise InvalidInputError(
                f"dual must be a finite vector of length {self.n}; got {show(dual)}."
            )
        return lam

    def heuristic(self, dual: ArrayLike) -> Pricing:
        """Columns of the linearised problems, best reduced cost first (not exhaustive:
        ``upper_bound`` is ``+inf``)."""
        lam = self._check_dual(dual)
        found = [family.heuristic_pricing(lam) for family in self.families]
        columns = np.vstack([f[0] for f in found])
        costs = np.concatenate([f[1] for f in found])
        return _sorted_pricing(columns, costs, math.inf, False, 0)

    def price(
        self, dual: ArrayLike, *, converge: bool = True, abs_gap: float = PRICING_MIP_ABS_GAP
    ) -> Pricing:
        """Exact pricing: a certified upper bound on ``max_v μ(v) − λ·v`` over every
        vertex (up to :data:`PRICING_CUT_ATOL`) and the best columns of every family.

        With ``converge=False`` a family with a varying normaliser (ε-LDP) takes one
        Dinkelbach step only: the bound is still valid, but looser while it is positive,
        and the column found improves without being the best — what column generation
        needs, at a fraction of the MIPs. ``abs_gap`` is the MIPs' absolute optimality
        gap: the bound is within about ``abs_gap / D_min`` of the best reduced cost.
        """
        lam = self._check_dual(dual)
        abs_gap = check_gap(abs_gap, "abs_gap")
        found = [family.exact_pricing(lam, converge, abs_gap) for family in self.families]
        columns = np.vstack([f[0] for f in found])
        costs = np.concatenate([f[1] for f in found])
        upper = max(f[2] for f in found)
        return _sorted_pricing(columns, costs, upper, True, sum(f[3] for f in found))


def _ray_length(contains, start: NDArray[np.float64], direction: NDArray[np.float64]) -> float:
    """The largest ``t`` with ``start + t·direction`` in a convex set (bisection on its
    membership test; the feasible ``t`` form an interval containing 0)."""
    low, high = 0.0, 1.0
    while contains(start + high * direction) and high < 1e6:
        low, high = high, 2 * high
    for _ in range(60):
        middle = 0.5 * (low + high)
        if contains(start + middle * direction):
            low = middle
        else:
            high = middle
    return low


def _surrounding_columns(contains, n: int) -> NDArray[np.float64]:
    """The farthest section points from the uniform one along ``±(e_x − 1/N)``.

    The uniform point is a positive combination of each pair, so a master that starts
    from them can leave the uniform mechanism at once. Starting from the uniform point
    and vertices alone, the robust masters at a = 240 stayed degenerate at utility 0 for
    hundreds of iterations: the vertices did not surround the uniform point.
    """
    uniform = np.full(n, 1.0 / n)
    out = []
    for x in range(n):
        for sign in (1.0, -1.0):
            direction = sign * (np.eye(n)[x] - uniform)
            out.append(uniform + _ray_length(contains, uniform, direction) * direction)
    return np.array(out)


def _check_same_prior(prior: NDArray[np.float64], p_hat: NDArray[np.float64], notion) -> None:
    if not np.allclose(prior, p_hat, rtol=0, atol=1e-12):
        raise UnsupportedError(
            f"column generation for {type(notion).__name__} prices mutual information "
            "under the notion's own estimate P̂ (the PolyOpt setting); got a different "
            "prior. Use method='enumeration'."
        )


class _NonRobustFamily:
    """Exact pricing over the cone of non-robust RLDP (``NonRobustLDP``).

    The cone is ``{v ≥ 0 : m_{s1} ≤ e^ε m_{s2}}`` with ``m_s = P̂_{U|s}·v_s``. Its
    extreme rays are ``e_(s,u)`` with ``P̂(u|s) = 0`` and, for a pattern ``w = ℓ + (1 −
    ℓ) 1_B`` (``ℓ = e^{−ε}``, ``∅ ≠ B ≠ S``) and one ``u_s`` per block,
    ``v = Σ_s (w_s / P̂(u_s|s)) e_(s,u_s)``: given ``m(v) = Σ_j α_j w_j`` (extreme rays
    of the LDP cone on ``S``), ``v = Σ_j α_j Σ_{(u_s)} Π_s φ_{s,u_s} Σ_s (w_{j,s} /
    P̂(u_s|s)) e_(s,u_s)`` with ``φ_{s,u} = P̂(u|s) v_{s,u} / m_s``, plus its mass on
    zero-probability cells. With the design prior ``P = P̂``, ``P_(s,u_s) v_(s,u_s) =
    P̂_s w_s``, so for the Dinkelbach parameter ``θ`` (normaliser ``D = Σ_s w_s /
    P̂(u_s|s)``)

    .. math::

        R - \theta D = \\sum_s \\hat P_s w_s \\log w_s + \\sum_s w_s \beta_s(\theta)
        - G\\Bigl(\\sum_s \\hat P_s w_s\\Bigr), \\quad
        \beta_s(\theta) = \\max_{u} \\Bigl[-\\hat P_s \\log \\hat P(u|s)
        - \frac{\\lambda_{s,u} + \theta}{\\hat P(u|s)}\\Bigr]:

    the best ``u_s`` is chosen block by block, and what remains is the ε-LDP problem on
    ``S`` with prior ``P̂_S`` and dual ``−β(θ)`` (a :class:`_TwoLevel` MIP). ``D ≥
    |S| ℓ + 1 − ℓ``.
    """

    def __init__(self, p_hat: NDArray[np.float64], shape: tuple[int, int], eps: float) -> None:
        joint = p_hat.reshape(shape)
        self.p_hat = p_hat
        self.shape = shape
        self.marginal = joint.sum(axis=1)
        self.conditional = joint / self.marginal[:, None]
        self.low = math.exp(-eps)
        self.secrets = _TwoLevel(self.marginal, self.low, 1.0, 1, shape[0] - 1)
        self.zero_cells = np.flatnonzero(p_hat == 0)
        self.min_normaliser = shape[0] * self.low + 1.0 - self.low

    def scores(self, dual: NDArray[np.float64], theta: float) -> NDArray[np.float64]:
        """``−P̂_s log P̂(u|s) − (λ_(s,u) + θ)/P̂(u|s)`` (``−inf`` where ``P̂(u|s) = 0``),
        shape ``(|S|, |U|)``."""
        lam = dual.reshape(self.shape)
        cond = self.conditional
        with np.errstate(divide="ignore", invalid="ignore"):
            score = -self.marginal[:, None] * np.log(cond) - (lam + theta) / cond
        score[cond == 0] = -np.inf
        return score

    def _choices(self, dual: NDArray[np.float64], theta: float) -> tuple[NDArray, NDArray]:
        """``β(θ)`` and the maximising ``u_s`` of every block."""
        score = self.scores(dual, theta)
        u = np.argmax(score, axis=1)
        return score[np.arange(self.shape[0]), u], u

    def _columns(self, z: NDArray[np.bool_], u: NDArray[np.int64]) -> NDArray[np.float64]:
        a1, a2 = self.shape
        w = np.where(z, 1.0, self.low)  # (m, |S|)
        v = np.zeros((z.shape[0], a1, a2))
        blocks = np.arange(a1)
        v[:, blocks, u] = w / self.conditional[blocks, u][None, :]
        v = v.reshape(z.shape[0], a1 * a2)
        return v / v.sum(axis=1, keepdims=True)

    def contains(self, v: NDArray[np.float64]) -> bool:
        """``v ≥ 0`` and ``m_{s1} ≤ e^ε m_{s2}`` for ``s1 ≠ s2`` (with ``|S| ≥ 2`` that is
        ``max m ≤ e^ε min m``)."""
        if np.any(v < 0):
            return False
        m = np.sum(self.conditional * v.reshape(self.shape), axis=1)
        return bool(m.max() * self.low <= m.min() + 1e-15)

    def _with_zero_cells(self, columns, costs, dual):
        if self.zero_cells.size == 0:
            return columns, costs
        cells = np.eye(self.p_hat.shape[0])[self.zero_cells]
        return np.vstack([columns, cells]), np.concatenate([costs, -dual[self.zero_cells]])

    def heuristic_pricing(self, dual: NDArray[np.float64]) -> tuple[NDArray, NDArray]:
        beta, u = self._choices(dual, 0.0)
        z, _ = self.secrets.heuristic_patterns(-beta)
        columns = self._columns(z, u)
        costs = mutual_information_columns(self.p_hat, columns) - columns @ dual
        return self._with_zero_cells(columns, costs, dual)

    def exact_pricing(
        self, dual: NDArray[np.float64], converge: bool, abs_gap: float
    ) -> tuple[NDArray, NDArray, float, int]:
        theta = 0.0
        found, mips = [], 0
        upper = math.inf
        for _ in range(PRICING_DINKELBACH_STEPS if converge else 1):
            beta, u = self._choices(dual, theta)
            z, bound, used, _ = self.secrets._max_linearised(-beta, 0.0, None, abs_gap)
            mips += used
            column = self._columns(z[None, :], u)
            r = float(mutual_information_columns(self.p_hat, column)[0] - column[0] @ dual)
            found.append((column, r))
            upper = theta + max(0.0, bound) / self.min_normaliser
            if bound <= PRICING_CUT_ATOL * self.min_normaliser or r <= theta:
                break
            theta = r
        columns = np.vstack([c for c, _ in found])
        costs = np.array([r for _, r in found])
        upper = max(upper, float(costs.max()))
        columns, costs = self._with_zero_cells(columns, costs, dual)
        if self.zero_cells.size:
            upper = max(upper, float(np.max(-dual[self.zero_cells])))
        return columns, costs, upper, mips


class LinearisationOracle:
    """Heuristic pricing for PolyOpt (:class:`~mechdesign.notions.RobustLDP`), whose
    vertices have no known pattern.

    The section ``Γ_ε ∩ {Σ v = 1}`` is written compactly: with ``hi_s ≥ v_(s,u) ≥ lo_s``
    the ``|S|² |U|²`` vertex pairs of eq. (41) become ``|S|(|S| − 1)`` rows
    ``L_{s1}·v_{s1} + σ_{s1} hi_{s1} ≤ e^ε (L_{s2}·v_{s2} + σ_{s2} lo_{s2})``
    (``σ_s = 1 − Σ_u L_{u|s}``; ``s1 = s2`` too for the paper variant), exact because
    ``max_{R ∈ D_s} R·v_s = L_s·v_s + σ_s max_u v_(s,u)`` and the minimum likewise.
    Pricing climbs ``r(v) = μ(v) − λ·v`` by successive linearisation: ``v ← argmax_{v'}
    ∇r(v)·v'`` over the section (one LP), which never decreases the convex ``r``
    (``r(v') ≥ r(v) + ∇r(v)·(v' − v) ≥ r(v)``), from
    :data:`LINEARISATION_STARTS` starts per call (the directions ``−λ`` and random
    perturbations of it, and the best columns found before). The gradient uses
    ``log max(v_x, 1e-12)``. Not exhaustive: the upper bound comes from a relaxation
    (:meth:`relaxation_upper_bound`).
    """

    exact = False

    def __init__(self, notion, prior: ArrayLike, *, seed: int = 0) -> None:
        from mechdesign.notions import NonRobustLDP, RobustLDP

        if not isinstance(notion, RobustLDP):
            raise UnsupportedError(
                f"LinearisationOracle builds the compact section of RobustLDP only; got "
                f"{show(notion)}."
            )
        p = as_distribution(prior, "prior")
        PricingOracle._check_epsilon(notion.epsilon)
        _check_same_prior(p, notion.ball.center, notion)
        self.notion = notion
        self.prior = p
        self.n = p.shape[0]
        self.relaxation = NonRobustLDP(notion.epsilon, notion.ball.center, notion.shape)
        self._relaxed_oracle = PricingOracle(self.relaxation, p)
        self._rng = np.random.default_rng(seed)
        self._lower = notion.lower_bounds()
        self._sigma = np.maximum(1.0 - self._lower.sum(axis=1), 0.0)
        self._model = _compact_robust_section(
            self._lower, notion.epsilon, same_secret=notion.variant == "paper"
        )
        self._pool = np.zeros((0, self.n))
        self.lps = 0

    def initial_columns(self) -> NDArray[np.float64]:
        """The uniform point, for every input ``x`` a vertex maximising ``v_x``, and
        :func:`_surrounding_columns`."""
        columns = [np.full((1, self.n), 1.0 / self.n)]
        columns.append(np.array([self._argmax(np.eye(self.n)[x]) for x in range(self.n)]))
        columns.append(_surrounding_columns(self._contains, self.n))
        return np.unique(np.vstack(columns), axis=0)

    def _contains(self, v: NDArray[np.float64]) -> bool:
        """``v ≥ 0`` and ``L_{s1}·v_{s1} + σ_{s1} max v_{s1} ≤ e^ε (L_{s2}·v_{s2} +
        σ_{s2} min v_{s2})`` for the notion's pairs of secrets."""
        if np.any(v < 0):
            return False
        blocks = v.reshape(self._lower.shape)
        mean = np.sum(self._lower * blocks, axis=1)
        top = mean + self._sigma * blocks.max(axis=1)
        bottom = mean + self._sigma * blocks.min(axis=1)
        ok = top[:, None] <= math.exp(self.notion.epsilon) * bottom[None, :] + 1e-15
        if self.notion.variant != "paper":
            np.fill_diagonal(ok, True)
        return bool(ok.all())

    def values(self, columns: NDArray[np.float64]) -> NDArray[np.float64]:
        """Mutual information ``μ(v)`` of every column (row)."""
        return mutual_information_columns(self.prior, columns)

    def _argmax(self, direction: NDArray[np.float64]) -> NDArray[np.float64]:
        model = self._model
        n = self.n
        # The argmax is scale invariant; HiGHS is not (master duals reach 1e7 at a = 240
        # and its dual simplex then fails with "excessive dual values").
        direction = direction / max(float(np.abs(direction).max()), 1e-300)
        model.set_costs(direction)
        # Measured at a = 240: a warm basis can leave HiGHS at "Not Set" on an LP a fresh
        # solve finishes in 335 iterations; Model.solve then solves it from scratch.
        solution = model.solve("a PolyOpt pricing LP")
        self.lps += 1
        v = np.maximum(solution.x[:n], 0.0)
        return v / v.sum()

    def _reduced_cost(self, v: NDArray[np.float64], dual: NDArray[np.float64]) -> float:
        return float(self.values(v[None, :])[0] - v @ dual)

    def heuristic(self, dual: ArrayLike, *, effort: int = 1) -> Pricing:
        """Climb from ``effort · LINEARISATION_STARTS`` starts: ``−λ``, the gradients at
        the best earlier finds, the gradients at the best columns of the non-robust
        relaxation (one cell per block) with every cell off their support penalised, and
        random perturbations of ``−λ`` at several scales."""
        lam = np.asarray(dual, dtype=float)
        n = self.n
        if lam.shape != (n,) or not np.all(np.isfinite(lam)):
            raise InvalidInputError(
                f"dual must be a finite vector of length {n}; got {show(dual)}."
            )
        effort = check_positive_int(effort, "effort")
        count = effort * LINEARISATION_STARTS
        starts = [-lam]
        if self._pool.shape[0]:
            costs = self.values(self._pool) - self._pool @ lam
            for v in self._pool[np.argsort(-costs)[: count // 4]]:
                starts.append(self._gradient(v, lam))
        relaxed = self._relaxed_oracle.heuristic(lam)
        for v in relaxed.columns[: count // 2]:
            # The relaxation's columns put one cell per block; the best section point on
            # their support is often the improving vertex.
            g = self._gradient(v, lam)
            g[v == 0] = -10.0 * (np.abs(g).max() + 1.0)
            starts.append(g)
        # One cell per block, drawn by the relaxation's scores with Gumbel noise: the
        # best section point on that support (every other cell penalised).
        family = self._relaxed_oracle.families[0]
        score = family.scores(lam, 0.0)
        spread = np.where(np.isfinite(score), score, np.nan)
        spread = float(np.nanstd(spread)) or 1.0
        for _ in range(count // 4):
            noisy = score + spread * self._rng.gumbel(size=score.shape)
            u = np.argmax(noisy, axis=1)
            v = family._columns(self._rng.random(score.shape[0])[None, :] < 0.5, u)[0]
            g = self._gradient(v, lam)
            g[v == 0] = -10.0 * (np.abs(g).max() + 1.0)
            starts.append(g)
        scale = float(np.abs(lam).mean()) or 1.0
        while len(starts) < count:
            size = scale * 10.0 ** self._rng.uniform(-2, 1)
            starts.append(-lam + size * self._rng.normal(size=n))
        found, costs = [], []
        for direction in starts:
            v = self._argmax(direction)
            r = self._reduced_cost(v, lam)
            for _ in range(LINEARISATION_STEPS):
                w = self._argmax(self._gradient(v, lam))
                rw = self._reduced_cost(w, lam)
                if rw <= r + 1e-15:
                    break
                v, r = w, rw
            found.append(v)
            costs.append(r)
        columns = np.array(found)
        costs = np.array(costs)
        keep = costs > 0
        self._pool = np.vstack([self._pool, columns[keep]])[-4 * LINEARISATION_STARTS:]
        return _sorted_pricing(columns, costs, math.inf, False, 0)

    def _gradient(self, v: NDArray[np.float64], dual: NDArray[np.float64]) -> NDArray:
        """``∇μ(v') − λ`` at ``v' = (1 − τ) v + τ/N`` (``τ = LINEARISATION_SMOOTHING``):
        ``∂μ/∂v_x = P_x log(v_x / P·v)`` is ``−∞`` at a zero coordinate, which would
        forbid the climb from ever leaving a face."""
        w = (1 - LINEARISATION_SMOOTHING) * v + LINEARISATION_SMOOTHING / v.shape[0]
        return self.prior * np.log(w / float(self.prior @ w)) - dual

    def price(self, dual: ArrayLike, **_) -> Pricing:
        """Refused: PolyOpt has no exact pricing (``NotImplementedError``)."""
        raise UnsupportedError(
            "no exact pricing is known for PolyOpt (its vertices have no known pattern); "
            "column generation prices it heuristically and bounds it by the non-robust "
            "relaxation."
        )

    def relaxation_upper_bound(
        self, gap: float, time_limit: float | None
    ) -> tuple[float, ColumnGenerationReport]:
        """A certified upper bound on PolyOpt's optimum: that of the non-robust
        relaxation ``Γ_NR ⊇ Γ_ε`` (``P̂_{U|s} ∈ D_s``, so every PolyOpt constraint implies
        the NR one), solved by column generation with exact pricing."""
        oracle = PricingOracle(self.relaxation, self.prior)
        result = run_column_generation(oracle, gap=gap, time_limit=time_limit)
        return result.upper, result.report()


def _compact_robust_section(
    lower: NDArray[np.float64], eps: float, *, same_secret: bool
) -> Model:
    """The HiGHS model of PolyOpt's section over ``(v, hi, lo)`` (see
    :class:`LinearisationOracle`); costs on ``v`` are set per direction."""
    a1, a2 = lower.shape
    n = a1 * a2
    sigma = np.maximum(1.0 - lower.sum(axis=1), 0.0)
    r = math.exp(eps)
    inf = math.inf
    model = Model(
        primal_feasibility_tolerance=LP_FEASIBILITY_TOL,
        dual_feasibility_tolerance=LP_FEASIBILITY_TOL,
    )
    model.add_variables(np.zeros(n + 2 * a1), inf)  # v, then hi_s at n + s, lo_s at n + a1 + s
    model.add_row(1.0, 1.0, np.arange(n), np.ones(n))
    for s in range(a1):
        for u in range(a2):
            x = s * a2 + u
            model.add_row(-inf, 0.0, [x, n + s], [1.0, -1.0])
            model.add_row(0.0, inf, [x, n + a1 + s], [1.0, -1.0])
    for s1 in range(a1):
        for s2 in range(a1):
            if s1 == s2 and not same_secret:
                continue
            coeff = np.zeros(n + 2 * a1)
            coeff[s1 * a2 : (s1 + 1) * a2] += lower[s1]
            coeff[n + s1] += sigma[s1]
            coeff[s2 * a2 : (s2 + 1) * a2] -= r * lower[s2]
            coeff[n + a1 + s2] -= r * sigma[s2]
            nz = np.flatnonzero(coeff)
            model.add_row(-inf, 0.0, nz, coeff[nz])
    return model


def _c_pml_families(p: NDArray[np.float64], eps: float, c: float) -> list[_Family]:
    n = p.shape[0]
    r = math.exp(eps)
    s = 1.0 - n * c
    families: list[_Family] = []
    for k in range(1, n):
        low = (1.0 - k * r * c) / ((n - k) + k * r * s)
        if low <= 0 or (s == 0 and k != n - 1):
            continue
        high = r * (c + s * low)
        if max(low, high) > r * (c + s * min(low, high)) + 1e-12:
            continue  # the two-level point lies outside the section
        families.append(_TwoLevel(p, low, high, k, k))
    top = r * c
    for k in range(0, n):
        free = 1.0 - k * top
        if free < -1e-15 or free > top + 1e-15:
            continue
        if free <= 1e-15:  # no free coordinate: 1_T / k
            if 1 <= k <= n - 1:
                families.append(_TwoLevel(p, 0.0, top, k, k))
        elif k + 1 <= n - 1:
            families.append(_ThreeLevel(p, top, free, k))
    return families


def _sorted_pricing(columns, costs, upper, exact, mips) -> Pricing:
    order = np.argsort(-costs, kind="stable")
    return Pricing(columns[order], costs[order], float(upper), exact, mips)


def ldp_column(epsilon: float, pattern: ArrayLike) -> NDArray[np.float64]:
    """The ε-LDP vertex ``v_B = (1 + c 1_B)/(N + c|B|)`` of a pattern ``B`` (boolean)."""
    eps = check_epsilon(epsilon)
    b = np.asarray(pattern, dtype=bool)
    if b.ndim != 1 or b.all() or not b.any():
        raise InvalidInputError(
            f"pattern must be a non-empty proper subset of the inputs (a 1-D boolean "
            f"array with some but not all entries True); got {show(pattern)}."
        )
    # Divided by e^ε: 1 on B, e^{−ε} off B (no overflow at large ε).
    raw = np.where(b, 1.0, math.exp(-eps))
    return raw / raw.sum()


def price_ldp(epsilon: float, prior: ArrayLike, dual: ArrayLike) -> Pricing:
    """Exact ε-LDP pricing for mutual information: :meth:`PricingOracle.price` for
    :class:`~mechdesign.notions.LDP` (``0 < ε < ∞``).

    ``Pricing.column`` is the vertex ``v_B`` of largest reduced cost over all
    ``2^N − 2`` vertices and ``Pricing.upper_bound`` bounds it from above (they agree
    to :data:`PRICING_CUT_ATOL`).
    """
    from mechdesign.notions import LDP

    return PricingOracle(LDP(epsilon), prior).price(dual)


# -- the restricted master -----------------------------------------------------------------


class RestrictedMaster:
    """``max Σ θ_j μ_j s.t. Σ θ_j v_j = 1, θ ≥ 0`` over the columns added so far, kept
    in one HiGHS model.

    Added columns enter non-basic at zero, so the previous optimal basis stays primal
    feasible and the primal simplex continues from it (``warm=True``); ``warm=False``
    clears the solver before every solve (for measuring what the warm start buys).
    """

    def __init__(self, n: int, *, warm: bool = True) -> None:
        n = check_positive_int(n, "n")
        self.n = n
        self.warm = warm
        self._columns: list[NDArray[np.float64]] = []
        self._values: list[NDArray[np.float64]] = []
        self.keys: set[bytes] = set()  # the columns rounded to 12 decimals
        self.seconds = 0.0  # spent in solve()
        model = Model(
            primal_feasibility_tolerance=LP_FEASIBILITY_TOL,
            dual_feasibility_tolerance=LP_FEASIBILITY_TOL,
            simplex_strategy=PRIMAL_SIMPLEX,
        )
        for _ in range(n):
            model.add_row(1.0, 1.0, [], [])
        self._model = model

    def add(self, columns: NDArray[np.float64], values: NDArray[np.float64]) -> None:
        """Append columns (rows of ``columns``) with utilities ``values``."""
        columns = np.asarray(columns, dtype=float)
        values = np.asarray(values, dtype=float)
        m = columns.shape[0] if columns.ndim == 2 else -1
        if columns.ndim != 2 or columns.shape[1] != self.n or values.shape != (m,):
            raise InvalidInputError(
                f"columns must have shape (m, {self.n}) and values shape (m,); got "
                f"{columns.shape} and {values.shape}."
            )
        if not (np.all(np.isfinite(columns)) and np.all(np.isfinite(values))):
            raise InvalidInputError("columns and values must be finite.")
        if m == 0:
            return
        self._model.add_columns(values, columns)
        self._columns.append(np.array(columns, dtype=float))
        self._values.append(np.array(values, dtype=float))
        self.keys.update(_column_key(c) for c in columns)

    @property
    def columns(self) -> NDArray[np.float64]:
        """Every column added, in order (shape ``(m, N)``)."""
        return np.vstack(self._columns) if self._columns else np.zeros((0, self.n))

    @property
    def values(self) -> NDArray[np.float64]:
        """Their utilities ``μ``."""
        return np.concatenate(self._values) if self._values else np.zeros(0)

    def solve(self) -> tuple[NDArray, NDArray, float]:
        """``(θ, λ, objective)`` of the current master.

        No HiGHS time limit: the master takes milliseconds, and a time limit on a Highs
        object that is solved again and again stopped an NR master at a = 240 with
        "Time limit reached" after a fraction of the limit; column generation enforces
        its own limit between iterations."""
        started = time.perf_counter()
        # The master is feasible by construction (its first columns sum to 1): a failure
        # is a warm basis gone bad at the tight tolerance, which Model.solve retries.
        solution = self._model.solve("the restricted master LP", warm=self.warm)
        self.seconds += time.perf_counter() - started
        return solution.x, solution.row_dual, solution.objective


# -- the loop ------------------------------------------------------------------------------


@dataclass
class ColumnGenerationRun:
    """The state column generation ends in (see :func:`run_column_generation`)."""

    master: RestrictedMaster
    lower: float
    upper: float
    history: list[tuple[float, float]]
    dual: NDArray[np.float64]
    exact_pricing: bool
    exact_pricings: int
    mips: int
    seconds: float
    gap_tolerance: float

    def report(self, lower: float | None = None, dual=None, seconds=None) -> ColumnGenerationReport:
        """The certificate, with ``lower`` (and ``dual``) replaced when the caller
        re-solved the final master (design polishes it)."""
        low = self.lower if lower is None else lower
        optimal = self.exact_pricing and self.upper - low <= self.gap_tolerance * max(1.0, abs(low))
        return ColumnGenerationReport(
            lower_bound=low,
            upper_bound=self.upper,
            exact_pricing=self.exact_pricing,
            status="optimal" if optimal else f"feasible, gap {self.upper - low:.3g}",
            columns=int(self.master.columns.shape[0]),
            iterations=len(self.history),
            history=tuple(self.history),
            dual=self.dual if dual is None else dual,
            seconds=self.seconds if seconds is None else seconds,
            exact_pricings=self.exact_pricings,
            mips=self.mips,
            master_seconds=self.master.seconds,
        )


def run_column_generation(
    oracle,
    *,
    gap: float,
    time_limit: float | None = None,
    warm: bool = True,
    max_iterations: int = COLUMN_GENERATION_MAX_ITERATIONS,
    progress: bool = False,
) -> ColumnGenerationRun:
    """Restricted master plus pricing, for mutual information.

    Each iteration solves the master (:class:`RestrictedMaster`, warm-started) and
    prices its dual heuristically; up to :data:`COLUMN_GENERATION_BATCH` new columns with
    reduced cost above ``tolerance / N`` are added (``tolerance = gap · max(1,
    |lower|)``). When the heuristic finds none and the oracle is exact, its MIPs run —
    one Dinkelbach step first, converged if that leaves the gap open without a new
    column — proving their optimum to ``0.1 · tolerance / N`` (at least
    :data:`PRICING_MIP_ABS_GAP`), which is all the bound ``1·λ + N max(0, r̄)`` needs.
    Stops when ``upper − lower ≤ tolerance``, when nothing new improves, at
    ``max_iterations`` or at ``time_limit``. A heuristic oracle leaves ``upper = inf``
    (the caller bounds it otherwise).
    """
    from tqdm.auto import tqdm

    gap = check_gap(gap)
    if time_limit is not None:
        time_limit = check_gap(time_limit, "time_limit")
    max_iterations = check_positive_int(max_iterations, "max_iterations")
    start = time.perf_counter()
    n = oracle.n
    master = RestrictedMaster(n, warm=warm)
    initial = oracle.initial_columns()
    master.add(initial, oracle.values(initial))
    lower, upper = -math.inf, math.inf
    history: list[tuple[float, float]] = []
    exact_pricings = mips = 0
    dual = np.zeros(n)
    bar = tqdm(total=max_iterations, desc="column generation", disable=not progress,
               leave=False)
    for _ in range(max_iterations):
        _, dual, value = master.solve()
        lower = max(lower, value)
        tolerance = gap * max(1.0, abs(lower))
        new = _improving(oracle.heuristic(dual), master, tolerance / n)
        for _ in range(0 if oracle.exact else LINEARISATION_RETRIES):
            if new.shape[0]:
                break
            # A heuristic that finds nothing tries again, harder, before giving up.
            pricing = oracle.heuristic(dual, effort=LINEARISATION_ESCALATION)
            new = _improving(pricing, master, tolerance / n)
        if new.shape[0] == 0 and oracle.exact:
            abs_gap = max(PRICING_MIP_ABS_GAP, 0.1 * tolerance / n)
            for converge in (False, True):
                pricing = oracle.price(dual, converge=converge, abs_gap=abs_gap)
                exact_pricings += 1
                mips += pricing.mips
                upper = min(upper, float(dual.sum()) + n * max(0.0, pricing.upper_bound))
                if upper - lower <= tolerance:
                    break
                new = _improving(pricing, master, 0.01 * tolerance / n)
                if new.shape[0]:
                    break
        history.append((lower, upper))
        bar.update()
        bar.set_postfix(lower=f"{lower:.6g}", gap=f"{upper - lower:.2e}",
                        columns=len(master.keys))
        if upper - lower <= tolerance or new.shape[0] == 0:
            break  # optimal, or nothing new improves
        if time_limit is not None and time.perf_counter() - start > time_limit:
            break
        master.add(new, oracle.values(new))
    bar.close()
    if oracle.exact and math.isinf(upper):
        # Stopped (time or iteration limit) before the heuristic ran dry: price the last
        # dual exactly once, so that the result still carries a certified bound.
        tolerance = gap * max(1.0, abs(lower))
        pricing = oracle.price(dual, converge=True,
                               abs_gap=max(PRICING_MIP_ABS_GAP, 0.1 * tolerance / n))
        exact_pricings += 1
        mips += pricing.mips
        upper = float(dual.sum()) + n * max(0.0, pricing.upper_bound)
        history.append((lower, upper))
    return ColumnGenerationRun(
        master=master,
        lower=lower,
        upper=upper,
        history=history,
        dual=dual,
        exact_pricing=bool(oracle.exact),
        exact_pricings=exact_pricings,
        mips=mips,
        seconds=time.perf_counter() - start,
        gap_tolerance=gap,
    )


def _improving(pricing: Pricing, master: RestrictedMaster, threshold: float) -> NDArray:
    """Up to :data:`COLUMN_GENERATION_BATCH` of the priced columns with reduced cost
    above ``threshold`` that are not already columns of the master (rounded to 12
    decimals; a scan of the master instead took three quarters of the time at a = 240)."""
    out: list[NDArray[np.float64]] = []
    keys: set[bytes] = set()
    for column, cost in zip(pricing.columns, pricing.reduced_costs, strict=True):
        if not cost > threshold or len(out) == COLUMN_GENERATION_BATCH:
            break
        key = _column_key(column)
        if key not in master.keys and key not in keys:
            keys.add(key)
            out.append(column)
    return np.array(out) if out else np.zeros((0, master.n))


def check_gap(gap: float, name: str = "gap") -> float:
    """A gap tolerance (or a time limit): positive and finite."""
    try:
        value = float(gap)
    except (TypeError, ValueError):
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise InvalidInputError(f"{name} must be a positive finite number; got {show(gap)}.")
    return value


def _column_key(column: NDArray[np.float64]) -> bytes:
    return np.round(column, 12).tobytes()
