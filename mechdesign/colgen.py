"""Column generation for optimal mechanisms, with certified bounds (issue 7).

The vertex LP of :func:`~mechdesign.design.design` is

.. math::

    \\max_{\\theta \\ge 0} \\sum_v \\theta_v \\mu(v) \\quad \\text{s.t.}
    \\quad \\sum_v \\theta_v v = \\mathbf 1,

over every vertex ``v`` of the notion's normalised section ``S``. Column generation
solves it over a growing set of columns (the *restricted master*) and asks a *pricing*
oracle for the vertex of largest reduced cost ``r(v) = μ(v) − λ·v`` under the master's
dual ``λ``. Because every column sums to one, ``Σ_v θ_v = N`` for every feasible ``θ``,
so for the full LP

.. math::

    \\text{LP value} \\;\\le\\; \\text{OPT} \\;\\le\\; \\mathbf 1 \\cdot \\lambda
    + N \\max(0, \\max_v r(v)),

a certified bracket when the pricing is exact (the upper bound is the dual objective
plus what the most violated dual constraint can add).

**Exact pricing for ε-LDP and mutual information.** The vertices are
``v_B = a_k (1 + c 1_B)`` with ``c = e^ε − 1``, ``k = |B|``, ``a_k = 1/(N + c k)``
(:func:`~mechdesign.notions.ldp_cone_vertices`). With ``π = P(B)`` and
``Λ = Σ_x λ_x``,

.. math::

    \\mu(v_B) = a_k\\, \varphi(\\pi), \\quad
    \varphi(\\pi) = \\pi e^\varepsilon \varepsilon - (1 + c\\pi) \\log(1 + c\\pi),
    \\qquad r(v_B) = a_k\\, [\varphi(\\pi) - \\Lambda - c\\, \\lambda(B)].

``φ`` is **concave** (``φ'' = −c²/(1 + cπ)``), so for fixed ``k`` the oracle maximises
a concave function of ``P(B)`` minus a modular function — submodular, and not solved by
sorting (a brute-force test found a counterexample, N = 6). :func:`price_ldp` solves it
exactly as a HiGHS mixed-integer program per ``k`` with outer tangent cuts of ``φ``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mechdesign._numerics import PRICING_CUT_ATOL, as_distribution, check_epsilon
from mechdesign.errors import InvalidInputError, SolverError

__all__ = ["ColumnGenerationReport", "LDPPricing", "ldp_column", "price_ldp"]


@dataclass(frozen=True)
class LDPPricing:
    """The answer of the exact ε-LDP pricing oracle.

    Attributes
    ----------
    pattern : ndarray of bool, shape=(N,)
        The set ``B`` of the best vertex ``v_B``.
    reduced_cost : float
        ``μ(v_B) − λ·v_B``, the maximum over all ``2^N − 2`` vertices.
    mips : int
        How many MIPs were solved (one per size ``k`` plus one per cut).
    by_size : ndarray of bool, shape=(N − 1, N)
        Row ``k − 1``: the best set of size ``k`` (exact for each ``k``).
    by_size_costs : ndarray, shape=(N − 1,)
        Their reduced costs.
    """

    pattern: NDArray[np.bool_]
    reduced_cost: float
    mips: int
    by_size: NDArray[np.bool_]
    by_size_costs: NDArray[np.float64]


@dataclass(frozen=True)
class ColumnGenerationReport:
    """Certificate of a column-generation design.

    Attributes
    ----------
    lower_bound : float
        The restricted master's optimum, achieved by the returned mechanism.
    upper_bound : float
        The least ``1·λ + N max(0, max_v r(v))`` over the iterations; an upper bound on
        the optimum when ``exact_pricing``.
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
        ``(lower, upper)`` after every iteration; the gap ``upper − lower`` is
        non-increasing.
    dual : ndarray, shape=(N,)
        The final master's dual ``λ``.
    seconds : float
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

    @property
    def gap(self) -> float:
        """``upper_bound − lower_bound`` (nats)."""
        return self.upper_bound - self.lower_bound


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


def price_ldp(epsilon: float, prior: ArrayLike, dual: ArrayLike) -> LDPPricing:
    """The ε-LDP vertex of largest reduced cost ``μ(v) − λ·v`` for mutual information.

    Exact over all ``2^N − 2`` vertices (up to :data:`PRICING_CUT_ATOL`). For each
    ``k = 1 … N − 1`` a HiGHS MIP over ``z ∈ {0, 1}^N`` (the indicator of ``B``) and
    ``t ∈ ℝ``,

    .. math::

        \\max\\; t - c\\, \\lambda \\cdot z \\quad \text{s.t.} \\quad \textstyle\\sum_x z_x = k,
        \\quad t \\le \varphi(s_j) + \varphi'(s_j)(P \\cdot z - s_j) \\;\\; \forall j,

    is solved with relative gap 0. Because ``φ`` is concave, every tangent lies above it,
    so the MIP optimum bounds ``max_{|B|=k} φ(P(B)) − cλ(B)`` from above; its solution
    ``z*`` is optimal once ``t* ≤ φ(P·z*) + PRICING_CUT_ATOL``, and otherwise the tangent
    at ``s = P·z*`` is added (valid for every ``k``) and the MIP solved again. There are
    finitely many ``z``, and a cut at ``P·z*`` makes ``z*`` tight, so the loop ends.

    Parameters
    ----------
    epsilon : float
        ``0 < ε < ∞``.
    prior : array_like, shape=(N,)
    dual : array_like, shape=(N,)
        The master's dual ``λ``.
    """
    import highspy

    eps = check_epsilon(epsilon)
    if eps == 0 or math.isinf(eps):
        raise InvalidInputError(
            f"epsilon must be finite and positive for LDP pricing; got {epsilon!r} (at 0 "
            "the section is one point, at inf it is the simplex)."
        )
    p = as_distribution(prior, "prior")
    lam = np.asarray(dual, dtype=float)
    n = p.shape[0]
    if lam.shape != (n,) or not np.all(np.isfinite(lam)):
        raise InvalidInputError(f"dual must be a finite vector of length {n}; got {dual!r}.")
    if n < 2:
        raise InvalidInputError(f"LDP pricing needs N >= 2 inputs; got N = {n}.")
    c = math.expm1(eps)
    growth_rate = math.exp(eps) * eps

    def phi(x: float) -> float:
        return x * growth_rate - (1 + c * x) * math.log1p(c * x)

    def slope(x: float) -> float:
        return growth_rate - c * (math.log1p(c * x) + 1)

    inf = highspy.kHighsInf
    solver = highspy.Highs()
    solver.setOptionValue("output_flag", False)
    solver.setOptionValue("mip_rel_gap", 0.0)
    solver.setOptionValue("mip_abs_gap", 1e-13)
    solver.setOptionValue("mip_feasibility_tolerance", 1e-10)
    solver.setOptionValue("primal_feasibility_tolerance", 1e-10)
    for _ in range(n):
        solver.addVar(0.0, 1.0)
    solver.addVar(-inf, inf)
    index = np.arange(n + 1, dtype=np.int32)
    solver.changeColsIntegrality(
        n, index[:n], np.array([highspy.HighsVarType.kInteger] * n)
    )
    solver.changeObjectiveSense(highspy.ObjSense.kMaximize)
    solver.changeColsCost(n + 1, index, np.concatenate([-c * lam, [1.0]]))
    solver.addRow(1.0, 1.0, n, index[:n], np.ones(n))  # row 0: Σ z = k
    cuts: list[float] = []

    def add_cut(s: float) -> None:
        cuts.append(s)
        g = slope(s)
        solver.addRow(-inf, phi(s) - g * s, n + 1, index, np.concatenate([-g * p, [1.0]]))

    for s in (0.0, 0.5, 1.0):
        add_cut(s)
    by_size = np.zeros((n - 1, n), dtype=bool)
    costs = np.empty(n - 1)
    mips = 0
    for k in range(1, n):
        solver.changeRowBounds(0, float(k), float(k))
        while True:
            solver.run()
            mips += 1
            status = solver.getModelStatus()
            if status != highspy.HighsModelStatus.kOptimal:
                raise SolverError(
                    f"HiGHS did not solve the LDP pricing MIP for |B| = {k} to optimality",
                    status=solver.modelStatusToString(status),
                )
            values = np.array(solver.getSolution().col_value)
            z = values[:n] > 0.5
            pi = float(p[z].sum())
            tight = values[n] <= phi(pi) + PRICING_CUT_ATOL
            if tight or min(abs(s - pi) for s in cuts) < 1e-15:
                break
            add_cut(pi)
        by_size[k - 1] = z
        costs[k - 1] = (phi(pi) - lam.sum() - c * lam[z].sum()) / (n + c * k)
    best = int(np.argmax(costs))
    return LDPPricing(by_size[best], float(costs[best]), mips, by_size, costs)


def ldp_initial_columns(epsilon: float, n: int) -> NDArray[np.float64]:
    """The ``N`` singleton vertices ``v_{x}``: they sum to ``1``, so the first master is
    feasible (``θ = 1``)."""
    return np.vstack([ldp_column(epsilon, np.eye(n, dtype=bool)[x]) for x in range(n)])
