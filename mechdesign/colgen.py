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
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import highspy
import numpy as np
from numpy.typing import ArrayLike, NDArray

from mechdesign._highs import PRIMAL_SIMPLEX
from mechdesign._numerics import (
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
)
from mechdesign.errors import InvalidInputError, SolverError

__all__ = [
    "ColumnGenerationReport",
    "Pricing",
    "PricingOracle",
    "RestrictedMaster",
    "ldp_column",
    "price_ldp",
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
        self._model: highspy.Highs | None = None
        self._cuts: list[float] = []
        self.timeouts = 0  # pricing MIPs stopped by PRICING_MIP_TIME_LIMIT

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

    # -- exact MIP ----------------------------------------------------------------------

    def _build(self) -> highspy.Highs:
        inf = highspy.kHighsInf
        model = highspy.Highs()
        model.setOptionValue("output_flag", False)
        model.setOptionValue("mip_rel_gap", 0.0)
        model.setOptionValue("mip_abs_gap", PRICING_MIP_ABS_GAP)
        model.setOptionValue("time_limit", PRICING_MIP_TIME_LIMIT)
        model.setOptionValue("mip_improving_solution_save", True)
        model.setOptionValue("mip_feasibility_tolerance", 1e-10)
        model.setOptionValue("primal_feasibility_tolerance", 1e-10)
        n = self.n_bin
        for _ in range(n):
            model.addVar(0.0, 1.0)
        model.addVar(-inf, inf)  # t ≥ G(s)
        index = np.arange(n, dtype=np.int32)
        model.changeColsIntegrality(n, index, np.array([highspy.HighsVarType.kInteger] * n))
        model.changeObjectiveSense(highspy.ObjSense.kMaximize)
        for row, lo, hi in zip(self.rows, self.row_lower, self.row_upper, strict=True):
            nz = np.flatnonzero(row).astype(np.int32)
            model.addRow(_bound(lo), _bound(hi), nz.size, nz, row[nz])
        lo, hi = self.aggregate_range
        for s in np.geomspace(max(lo, 1e-6 * max(hi, 1e-12)), max(hi, 1e-12),
                              PRICING_INITIAL_CUTS):
            self._add_cut(model, float(s))
        return model

    def _add_cut(self, model: highspy.Highs, s0: float) -> None:
        """``t ≥ G(s_0) + G'(s_0)(s − s_0) = (log s_0 + 1) s − s_0``, ``s = a_0 + a·z``."""
        slope = math.log(s0) + 1.0
        nz = np.flatnonzero(self.aggregate)
        index = np.concatenate([nz, [self.n_bin]]).astype(np.int32)
        values = np.concatenate([-slope * self.aggregate[nz], [1.0]])
        lower = slope * self.aggregate_base - s0
        model.addRow(lower, highspy.kHighsInf, index.size, index, values)
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
        model.setOptionValue("mip_abs_gap", abs_gap)
        met = []
        n = self.n_bin
        linear = self.entropy - self.moves.T @ dual - theta * self.normaliser
        constant = (self.entropy_base - dual @ self.base) - theta * self.normaliser_base
        index = np.arange(n + 1, dtype=np.int32)
        model.changeColsCost(n + 1, index, np.concatenate([linear, [-1.0]]))
        mips = 0
        while True:
            if start is not None:
                s = self.aggregate_base + start.astype(float) @ self.aggregate
                guess = np.concatenate([start.astype(float), _entropy_term(s).reshape(1)])
                model.setSolution(n + 1, index, guess)
            model.run()
            mips += 1
            status = model.getModelStatus()
            timed_out = status == highspy.HighsModelStatus.kTimeLimit
            if status != highspy.HighsModelStatus.kOptimal and not (
                timed_out and model.getInfo().primal_solution_status == 2
            ):
                raise SolverError(
                    "HiGHS did not solve a pricing MIP to optimality",
                    status=model.modelStatusToString(status),
                )
            values = np.array(model.getSolution().col_value)
            z = values[:n] > 0.5
            met.extend(np.array(m.col_value[:n]) > 0.5 for m in model.getSavedMipSolutions())
            s = float(self.aggregate_base + z.astype(float) @ self.aggregate)
            g = float(_entropy_term(s))
            if timed_out:
                # The dual bound of a stopped branch and bound is still an upper bound.
                self.timeouts += 1
                break
            if values[n] >= g - PRICING_CUT_ATOL or any(abs(c - s) < 1e-15 for c in self._cuts):
                break
            self._add_cut(model, max(s, PRICING_CUT_ATOL))
            start = z
        info = model.getInfo()
        bound = max(float(info.mip_dual_bound), float(info.objective_function_value))
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


def _bound(value: float) -> float:
    if math.isinf(value):
        return math.copysign(highspy.kHighsInf, value)
    return float(value)


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
    them is exact. Other notions raise ``NotImplementedError``: no pattern of their
    vertices is known.

    Parameters
    ----------
    notion : LDP or PML
    prior : array_like, shape=(N,)
    """

    def __init__(self, notion: object, prior: ArrayLike) -> None:
        from mechdesign.notions import LDP, PML

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
        else:
            raise NotImplementedError(
                f"exact pricing needs a known pattern of the vertices, known for "
                f"epsilon-LDP and (epsilon, c)-PML only; got {notion!r}. Use "
                "method='enumeration'."
            )

    @staticmethod
    def _check_epsilon(eps: float) -> None:
        check_epsilon(eps)
        if eps == 0 or math.isinf(eps):
            raise InvalidInputError(
                f"column generation needs 0 < epsilon < inf; got {eps!r} (use "
                "method='enumeration', whose section is then a point or the simplex)."
            )

    def initial_columns(self) -> NDArray[np.float64]:
        """Section points summing to ``1``, so that the first master is feasible."""
        return self._initial.copy()

    def _check_dual(self, dual: ArrayLike) -> NDArray[np.float64]:
        lam = np.asarray(dual, dtype=float)
        if lam.shape != (self.n,) or not np.all(np.isfinite(lam)):
            raise InvalidInputError(
                f"dual must be a finite vector of length {self.n}; got {dual!r}."
            )
        return lam

    def heuristic(self, dual: ArrayLike) -> Pricing:
        """Columns of the linearised problems, best reduced cost first (not exhaustive:
        ``upper_bound`` is ``+inf``)."""
        lam = self._check_dual(dual)
        columns, costs = [], []
        for family in self.families:
            z = np.unique(family.candidates(lam), axis=0)
            r = family.reduced_costs(z, lam)
            starts = z[np.argsort(-r, kind="stable")[:PRICING_LOCAL_STARTS]]
            near, near_r = family.local_search(starts, lam)
            z = np.vstack([z, near])
            r = np.concatenate([r, near_r])
            z, first = np.unique(z, axis=0, return_index=True)
            columns.append(family.points(z))
            costs.append(r[first])
        return _sorted_pricing(np.vstack(columns), np.concatenate(costs), math.inf, False, 0)

    def price(
        self, dual: ArrayLike, *, converge: bool = True, abs_gap: float = PRICING_MIP_ABS_GAP
    ) -> Pricing:
        """Exact pricing: a certified upper bound on ``max_v μ(v) − λ·v`` over every
        vertex (up to :data:`PRICING_CUT_ATOL`) and the best column of every family.

        With ``converge=False`` a family with a varying normaliser (ε-LDP) takes one
        Dinkelbach step only: the bound is still valid, but looser while it is positive,
        and the column found improves without being the best — what column generation
        needs, at a fraction of the MIPs. ``abs_gap`` is the MIPs' absolute optimality
        gap: the bound is within about ``abs_gap / D_min`` of the best reduced cost.
        """
        lam = self._check_dual(dual)
        columns, costs = [], []
        upper, mips = -math.inf, 0
        for family in self.families:
            guesses = np.unique(family.candidates(lam), axis=0)
            guess_costs = family.reduced_costs(guesses, lam)
            start = guesses[int(np.argmax(guess_costs))]
            # Dinkelbach starts at the best heuristic ratio; a single step (column
            # generation) starts at 0 at least, to find a column that improves.
            floor = float(guess_costs.max()) if converge else max(0.0, float(guess_costs.max()))
            steps = PRICING_DINKELBACH_STEPS if converge else 1
            z, r, bound, used, met = family.exact(lam, floor, start, steps, abs_gap)
            mips += used
            upper = max(upper, bound)
            near, near_r = family.local_search(z[None, :], lam)
            zs = np.vstack([z[None, :], near, met])
            rs = np.concatenate([[r], near_r, family.reduced_costs(met, lam)])
            zs, first = np.unique(zs, axis=0, return_index=True)
            columns.append(family.points(zs))
            costs.append(rs[first])
        return _sorted_pricing(np.vstack(columns), np.concatenate(costs), upper, True, mips)


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
            f"array with some but not all entries True); got {pattern!r}."
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
        self.n = n
        self.warm = warm
        self.columns = np.zeros((0, n))
        self.values = np.zeros(0)
        model = highspy.Highs()
        model.setOptionValue("output_flag", False)
        model.setOptionValue("primal_feasibility_tolerance", LP_FEASIBILITY_TOL)
        model.setOptionValue("dual_feasibility_tolerance", LP_FEASIBILITY_TOL)
        model.setOptionValue("simplex_strategy", PRIMAL_SIMPLEX)
        model.changeObjectiveSense(highspy.ObjSense.kMaximize)
        for _ in range(n):
            model.addRow(1.0, 1.0, 0, np.zeros(0, np.int32), np.zeros(0))
        self._model = model

    def add(self, columns: NDArray[np.float64], values: NDArray[np.float64]) -> None:
        """Append columns (rows of ``columns``) with utilities ``values``."""
        m = columns.shape[0]
        if m == 0:
            return
        starts = (np.arange(m) * self.n).astype(np.int32)
        index = np.tile(np.arange(self.n, dtype=np.int32), m)
        self._model.addCols(
            m, values.astype(float), np.zeros(m), np.full(m, highspy.kHighsInf),
            m * self.n, starts, index, columns.astype(float).ravel(),
        )
        self.columns = np.vstack([self.columns, columns])
        self.values = np.concatenate([self.values, values])

    def solve(self, time_limit: float | None = None) -> tuple[NDArray, NDArray, float]:
        """``(θ, λ, objective)`` of the current master."""
        model = self._model
        if not self.warm:
            model.clearSolver()
        if time_limit is not None:
            model.setOptionValue("time_limit", max(float(time_limit), 1e-3))
        model.run()
        status = model.getModelStatus()
        if status != highspy.HighsModelStatus.kOptimal:
            raise SolverError(
                "HiGHS did not solve the restricted master LP to optimality",
                status=model.modelStatusToString(status),
            )
        solution = model.getSolution()
        theta = np.array(solution.col_value, dtype=float)
        dual = np.array(solution.row_dual, dtype=float)
        return theta, dual, float(model.getInfo().objective_function_value)
