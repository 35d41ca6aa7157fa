"""Column sources for robust LDP: exact pricing of non-robust RLDP and of PolyOpt
(robust-LDP paper [1]_, Definition 3 and Theorem 3).

Non-robust RLDP (:class:`~mechdesign.notions.NonRobustLDP`) has patterned extreme rays
(:class:`~mechdesign.optimal.patterns.NonRobustFamily`), priced by
:class:`~mechdesign.optimal.patterns.PatternSource`. PolyOpt
(:class:`~mechdesign.notions.RobustLDP`) has no pattern over the whole input, but its
vertices are patterned block by block (:mod:`mechdesign.optimal.robust.blocks`):
:class:`LinearisationSource` prices it exactly that way when every secret has at most
:data:`~mechdesign.optimal.robust.blocks.MAX_BLOCK_OUTCOMES` outcomes, and otherwise climbs
by successive linearisation over a compact form of its section, with the certified
optimum of the non-robust relaxation (whose cone contains PolyOpt's) as upper bound.

References
----------
.. [1] M. Lopuhaä-Zwakenberg, J. Goseling, "Mechanisms for Robust Local Differential
   Privacy", Entropy 26(3):233, 2024, doi:10.3390/e26030233.
"""

from __future__ import annotations

import math
import time

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mechdesign._lazy import deprecated_names
from mechdesign._solvers.highs import Model
from mechdesign._tolerances import (
    AUDIT_ATOL,
    LP_FEASIBILITY_TOL,
    PRICING_MIP_ABS_GAP,
    PRIOR_MATCH_ATOL,
    ROUNDING_ATOL,
)
from mechdesign._validation import (
    as_distribution,
    check_bool,
    check_int,
    check_positive_int,
    show,
)
from mechdesign.errors import SolverError, UnsupportedError
from mechdesign.notions import NonRobustLDP, RobustLDP, check_notion
from mechdesign.optimal.column_generation import run_column_generation
from mechdesign.optimal.patterns import (
    PatternSource,
    check_column_generation_epsilon,
    check_same_prior,
    surrounding_columns,
)
from mechdesign.optimal.result import ColumnGenerationReport
from mechdesign.optimal.robust.blocks import MAX_BLOCK_OUTCOMES, BlockPricing
from mechdesign.optimal.sources import (
    MASTER_COLUMNS_PER_INPUT,
    Pricing,
    PricingSource,
    check_dual,
    check_gap,
    sorted_pricing,
)
from mechdesign.optimal.utilities import mutual_information_columns

#: Column sources were called oracles, the word the frequency oracles of
#: :mod:`mechdesign.mechanisms` keep: the old names answer for one release.
__getattr__ = deprecated_names(__name__,
                               {"LinearisationOracle": f"{__name__}.LinearisationSource"})

__all__ = ["LinearisationSource"]

# -- algorithm knobs --------------------------------------------------------------------

#: PolyOpt's heuristic pricing (LinearisationSource) climbs from this many starts
#: per column-generation iteration, at most this many LPs each.
LINEARISATION_STARTS = 16
LINEARISATION_STEPS = 10

#: Times column generation asks again, with more effort, when the climbs find nothing.
LINEARISATION_RETRIES = 3

#: The climb's gradient is taken at (1 − τ) v + τ/N with this τ (finite at zeros).
LINEARISATION_SMOOTHING = 1e-3


class LinearisationSource(PricingSource):
    """Pricing for PolyOpt (:class:`~mechdesign.notions.RobustLDP`): exact block by block
    where the blocks are small, successive linearisation otherwise.

    **Exact** (every ``σ_s > 0`` and ``|U| ≤``
    :data:`~mechdesign.optimal.robust.blocks.MAX_BLOCK_OUTCOMES`):
    :class:`~mechdesign.optimal.robust.blocks.BlockPricing` enumerates each secret's
    block vertices and maximises the reduced cost over their products by branch and
    bound; :meth:`heuristic` is its first products without cutting β (the paper
    variant's product and one per exceptional secret), :meth:`price` the whole search
    with a certified bound.

    **Heuristic** (otherwise). The section ``Γ_ε ∩ {Σ v = 1}`` is written compactly: with
    ``hi_s ≥ v_(s,u) ≥ lo_s`` the ``|S|² |U|²`` vertex pairs of eq. (41) become
    ``|S|(|S| − 1)`` rows ``L_{s1}·v_{s1} + σ_{s1} hi_{s1} ≤ e^ε (L_{s2}·v_{s2} + σ_{s2}
    lo_{s2})`` (``σ_s = 1 − Σ_u L_{u|s}``; ``s1 = s2`` too for the paper variant), exact
    because ``max_{R ∈ D_s} R·v_s = L_s·v_s + σ_s max_u v_(s,u)`` and the minimum likewise.
    Pricing climbs ``r(v) = μ(v) − λ·v`` by successive linearisation: ``v ← argmax_{v'}
    ∇r(v)·v'`` over the section (one LP), which never decreases the convex ``r``
    (``r(v') ≥ r(v) + ∇r(v)·(v' − v) ≥ r(v)``), from
    :data:`LINEARISATION_STARTS` starts per call (the directions ``−λ`` and random
    perturbations of it, and the best columns found before). The gradient uses
    ``log max(v_x, 1e-12)``. Not exhaustive: the upper bound comes from a relaxation
    (:meth:`relaxation_upper_bound`).

    PolyOpt, its polytope ``Γ_ε`` and eq. (41) are the robust-LDP paper's [1]_.

    Parameters
    ----------
    notion : RobustLDP
        The PolyOpt notion (either variant), ``0 < ε < ∞``; any other notion raises
        :class:`~mechdesign.errors.UnsupportedError`.
    prior : array_like, shape (N,)
        The prior of mutual information over ``X = S × U``; must be the notion's own
        estimate ``P̂`` (its ball's centre), else
        :class:`~mechdesign.errors.UnsupportedError`.
    seed : int, default 0
        Seed (``≥ 0``) of the random perturbations of the heuristic's starting directions.

    References
    ----------
    .. [1] M. Lopuhaä-Zwakenberg, J. Goseling, "Mechanisms for Robust Local Differential
       Privacy", Entropy 26(3):233, 2024, doi:10.3390/e26030233.
    """

    exact = True
    # the master dominates (PolyOpt at a = 240: master 9/10 of the time)
    columns_per_input = MASTER_COLUMNS_PER_INPUT
    retries = LINEARISATION_RETRIES

    @staticmethod
    def supports(notion: object, prior: NDArray[np.float64]) -> bool:
        """Whether column generation certifies the optimum (what ``method="auto"``
        asks): PolyOpt (either variant) with ``0 < ε < ∞``, ``prior`` its estimate and
        blocks that :class:`~mechdesign.optimal.robust.blocks.BlockPricing` prices
        exactly (the default variant's products close at the blocks' breakpoints; past
        :data:`~mechdesign.optimal.robust.blocks.BLOCK_MAX_PRODUCTS` products a pricing
        keeps its certified bound open)."""
        return (isinstance(notion, RobustLDP)
                and 0 < notion.epsilon < math.inf
                and bool(np.allclose(prior, notion.ball.center, rtol=0, atol=PRIOR_MATCH_ATOL))
                and BlockPricing.supports(notion.lower_bounds(), notion.epsilon))

    @classmethod
    def from_problem(cls, notion: object, objective: object) -> LinearisationSource:
        """The source for the design pipeline: ``objective`` is the mutual-information
        utility, whose prior it takes."""
        return cls(notion, objective.prior)

    def __init__(self, notion, prior: ArrayLike, *, seed: int = 0) -> None:
        check_notion(notion)
        seed = check_int(seed, "seed")
        if not isinstance(notion, RobustLDP):
            raise UnsupportedError(
                f"LinearisationSource builds the compact section of RobustLDP only; got "
                f"{show(notion)}."
            )
        p = as_distribution(prior, "prior", notion.ball.center.shape[0])
        check_column_generation_epsilon(notion.epsilon)
        check_same_prior(p, notion.ball.center, notion)
        self.notion = notion
        self.prior = p
        self.n = p.shape[0]
        self.relaxation = NonRobustLDP(notion.epsilon, notion.ball.center, notion.shape)
        self._relaxed_source = PatternSource(self.relaxation, p)
        self._rng = np.random.default_rng(seed)
        self._lower = notion.lower_bounds()
        self._sigma = np.maximum(1.0 - self._lower.sum(axis=1), 0.0)
        self._model = _compact_robust_section(
            self._lower, notion.epsilon, same_secret=notion.variant == "paper"
        )
        self._blocks = (BlockPricing(self._lower, p, notion.epsilon, notion.variant == "paper")
                        if BlockPricing.supports(self._lower, notion.epsilon) else None)
        #: Exact pricing is available (instance level; the class says it can be).
        self.exact = self._blocks is not None
        #: Branch-and-bound nodes of the block pricing so far.
        self.nodes = 0
        self._pool = np.zeros((0, self.n))
        self.lps = 0

    def initial_columns(self) -> NDArray[np.float64]:
        """The uniform point, for every input ``x`` a vertex maximising ``v_x``, and
        :func:`~mechdesign.optimal.patterns.surrounding_columns` — those in the cone
        (:meth:`_contains`).

        At large ε the LP's vertices have coordinates of order ``e^{−ε}``, below HiGHS's
        tolerances: it returns them as zeros (a column whose ``B_s`` is 0 while another
        block's ``A`` is not — an infinite privacy level) or fails on the LP ("Unbounded"
        at ε = 20 on a (2, 3) instance). Such columns are left out; with exact block
        pricing a failed LP is skipped as well (the uniform point alone makes the master
        feasible, and the block pricing's columns are closed forms, exact up to
        ε = 354); without it the failure is raised.
        """
        columns = [np.full((1, self.n), 1.0 / self.n)]
        for x in range(self.n):
            try:
                columns.append(self._argmax(np.eye(self.n)[x])[None, :])
            except SolverError:
                if not self.exact:
                    raise
        columns.append(surrounding_columns(self._contains, self.n))
        columns = np.unique(np.vstack(columns), axis=0)
        return columns[[self._contains(v) for v in columns]]

    def _contains(self, v: NDArray[np.float64]) -> bool:
        """``v ≥ 0`` and ``L_{s1}·v_{s1} + σ_{s1} max v_{s1} ≤ e^ε (L_{s2}·v_{s2} +
        σ_{s2} min v_{s2})`` for the notion's pairs of secrets."""
        if np.any(v < 0):
            return False
        blocks = v.reshape(self._lower.shape)
        mean = np.sum(self._lower * blocks, axis=1)
        top = mean + self._sigma * blocks.max(axis=1)
        bottom = mean + self._sigma * blocks.min(axis=1)
        # Relative slack only: an absolute one would let a tiny A face B = 0, whose
        # privacy level is infinite (the audit's slack is AUDIT_ATOL on the level).
        ok = top[:, None] <= math.exp(self.notion.epsilon) * bottom[None, :] * (
            1 + AUDIT_ATOL / 10)
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
        direction = direction / max(float(np.abs(direction).max()), np.finfo(float).tiny)
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
        """With exact block pricing: Dinkelbach over the first products (no cutting of
        β; see :class:`~mechdesign.optimal.robust.blocks.BlockPricing`) — exact for the
        paper variant, with its certified bound (``Pricing.exact``); for the default
        variant the columns only (``exact=False``, bound ``inf``).
        Otherwise climb from ``effort · LINEARISATION_STARTS`` starts: ``−λ``, the gradients at
        the best earlier finds, the gradients at the best columns of the non-robust
        relaxation (one cell per block) with every cell off their support penalised, and
        random perturbations of ``−λ`` at several scales."""
        lam = check_dual(dual, self.n)
        n = self.n
        effort = check_positive_int(effort, "effort")
        if self._blocks is not None:
            columns, costs, upper, nodes = self._blocks.price(
                lam, converge=True, abs_gap=PRICING_MIP_ABS_GAP, split=False)
            self.nodes += nodes
            if self.notion.variant == "paper":
                return sorted_pricing(columns, costs, upper, True, nodes)
            # The default variant's first products bound loosely: a certified bound,
            # but a poor centre for the dual smoothing (measured on Adult race ×
            # occupation, a = 75, 300 s: gap 0.48 % pricing λ, 7.9 % smoothing towards
            # the dual of the least such bound) — its bounds come from price().
            return sorted_pricing(columns, costs, math.inf, False, nodes)
        count = effort * LINEARISATION_STARTS
        starts = [-lam]
        if self._pool.shape[0]:
            costs = self.values(self._pool) - self._pool @ lam
            for v in self._pool[np.argsort(-costs)[: count // 4]]:
                starts.append(self._gradient(v, lam))
        relaxed = self._relaxed_source.heuristic(lam)
        for v in relaxed.columns[: count // 2]:
            # The relaxation's columns put one cell per block; the best section point on
            # their support is often the improving vertex.
            g = self._gradient(v, lam)
            g[v == 0] = -10.0 * (np.abs(g).max() + 1.0)
            starts.append(g)
        # One cell per block, drawn by the relaxation's scores with Gumbel noise: the
        # best section point on that support (every other cell penalised).
        family = self._relaxed_source.families[0]
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
                if rw <= r + ROUNDING_ATOL:
                    break
                v, r = w, rw
            found.append(v)
            costs.append(r)
        inside = [self._contains(v) for v in found]  # see initial_columns (large ε)
        columns = np.array(found)[inside].reshape(-1, n)
        costs = np.array(costs)[inside]
        keep = costs > 0
        self._pool = np.vstack([self._pool, columns[keep]])[-4 * LINEARISATION_STARTS:]
        return sorted_pricing(columns, costs, math.inf, False, 0)

    def _gradient(self, v: NDArray[np.float64], dual: NDArray[np.float64]) -> NDArray:
        """``∇μ(v') − λ`` at ``v' = (1 − τ) v + τ/N`` (``τ = LINEARISATION_SMOOTHING``):
        ``∂μ/∂v_x = P_x log(v_x / P·v)`` is ``−∞`` at a zero coordinate, which would
        forbid the climb from ever leaving a face."""
        w = (1 - LINEARISATION_SMOOTHING) * v + LINEARISATION_SMOOTHING / v.shape[0]
        return self.prior * np.log(w / float(self.prior @ w)) - dual

    def price(
        self,
        dual: ArrayLike,
        *,
        converge: bool = True,
        abs_gap: float = PRICING_MIP_ABS_GAP,
        time_limit: float | None = None,
    ) -> Pricing:
        """Exact pricing (:meth:`BlockPricing.price
        <mechdesign.optimal.robust.blocks.BlockPricing.price>`): the best columns and a
        certified upper bound on ``max_v μ(v) − λ·v`` over the section, to within
        ``abs_gap``; ``converge=False`` takes one Dinkelbach step. Refused
        (:class:`UnsupportedError`) where the blocks are too large."""
        if self._blocks is None:
            raise UnsupportedError(
                f"exact pricing of PolyOpt enumerates each secret's block of outcomes; "
                f"this notion has {self._lower.shape[1]} outcomes per secret (at most "
                f"{MAX_BLOCK_OUTCOMES}) or a secret with σ_s = 0. Column generation "
                "prices it heuristically and bounds it by the non-robust relaxation."
            )
        lam = check_dual(dual, self.n)
        converge = check_bool(converge, "converge")
        abs_gap = check_gap(abs_gap, "abs_gap")
        deadline = None if time_limit is None else (
            time.perf_counter() + check_gap(time_limit, "time_limit"))
        columns, costs, upper, nodes = self._blocks.price(
            lam, converge=converge, abs_gap=abs_gap, deadline=deadline)
        self.nodes += nodes
        return sorted_pricing(columns, costs, upper, True, nodes, converged=converge)

    def describe(self, columns: int) -> str:
        if self.exact:
            return "column generation (exact block pricing)"
        return "column generation (heuristic pricing, non-robust relaxation bound)"

    def certified_dual(self) -> None:
        """None: PolyOpt's bracket comes from its block pricing, or from the non-robust
        relaxation (:meth:`upper_bound`)."""
        return None

    def upper_bound(self, gap: float, time_limit: float | None) -> float:
        """The bound that needs no pricing, ``I(X; Y) ≤ H(X)``; with heuristic pricing
        also the non-robust relaxation's certified optimum
        (:meth:`relaxation_upper_bound`), whichever is smaller."""
        p = self.prior[self.prior > 0]
        entropy = float(-(p * np.log(p)).sum())
        if self.exact:
            return entropy
        return min(entropy, self.relaxation_upper_bound(gap, time_limit)[0])

    def relaxation_upper_bound(
        self, gap: float, time_limit: float | None
    ) -> tuple[float, ColumnGenerationReport]:
        """A certified upper bound on PolyOpt's optimum: that of the non-robust
        relaxation ``Γ_NR ⊇ Γ_ε`` (``P̂_{U|s} ∈ D_s``, so every PolyOpt constraint implies
        the NR one), solved by column generation with exact pricing."""
        source = PatternSource(self.relaxation, self.prior)
        result = run_column_generation(source, gap=gap, time_limit=time_limit)
        return result.upper, result.report()


def _compact_robust_section(
    lower: NDArray[np.float64], eps: float, *, same_secret: bool
) -> Model:
    """The HiGHS model of PolyOpt's section over ``(v, hi, lo)`` (see
    :class:`LinearisationSource`); costs on ``v`` are set per direction."""
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

