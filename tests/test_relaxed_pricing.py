"""The continuous-relaxation bound of a two-level pattern family (no MIP).

Checked against brute force over every pattern (it must bound the best reduced cost),
against the relaxation solved by cvxpy (it must reach it: strong duality), and through
exact pricing, which must still return brute force's best reduced cost.
"""

from __future__ import annotations

import itertools

import cvxpy as cp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mechdesign as md
from mechdesign.optimal import PricingOracle


def notions(n: int):
    return st.one_of(
        st.floats(0.2, 4.0).map(md.LDP),
        st.floats(0.3, 3.0).map(lambda eps: md.PML(eps, c=1 / (2 * n))),
    )


def two_level_families(oracle):
    return [f for f in oracle.families if type(f).__name__ == "TwoLevelFamily"]


def every_pattern(family):
    z = np.array(list(itertools.product([False, True], repeat=family.n_bin)))
    return z[family.feasible(z)]


@settings(max_examples=40, deadline=None)
@given(data=st.data(), n=st.integers(3, 9), seed=st.integers(0, 2**16))
def test_the_relaxed_bound_bounds_every_pattern(data, n, seed):
    rng = np.random.default_rng(seed)
    prior = rng.dirichlet(np.ones(n))
    oracle = PricingOracle(data.draw(notions(n)), prior)
    dual = prior * rng.uniform(0.0, 1.0) + rng.normal(size=n) * 0.05
    bounds = oracle.relaxed_bounds(dual)
    for family, bound in zip(oracle.families, bounds, strict=True):
        best = family.reduced_costs(every_pattern(family), dual).max()
        assert bound >= best - 1e-13
        assert family.relaxed_bound(dual) == pytest.approx(bound, rel=1e-12, abs=1e-15)


def entropy_term(t: float) -> float:
    return t * np.log(t) if t > 0 else 0.0


def relaxation_by_cvxpy(family, dual) -> float:
    """``max_k max_{z ∈ [0,1]^N, Σz = k} R(z) / D_k``, with ``R`` written out from the
    family's levels: ``u = low + (high − low) z``."""
    prior = family.prior
    low = float(family.base[0])
    step = float(family.moves[0, 0])
    n = prior.size
    best = -np.inf
    for k in range(family.k_min, family.k_max + 1):
        z = cp.Variable(n)
        u = low + step * z
        # Σ P u log u is affine in z for a two-level u (each u_x moves between two
        # values): P_x [G(low) + z_x (G(high) − G(low))].
        change = entropy_term(low + step) - entropy_term(low)
        entropy = prior @ (entropy_term(low) + change * z)
        objective = entropy + cp.entr(prior @ u) - dual @ u
        problem = cp.Problem(cp.Maximize(objective), [z >= 0, z <= 1, cp.sum(z) == k])
        problem.solve()
        best = max(best, problem.value / (n * low + step * k))
    return best


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("kind", ["ldp", "pml"])
def test_the_relaxed_bound_is_the_relaxation_optimum(seed, kind):
    """Weak duality makes it a bound; the bisection makes it the relaxation's optimum
    (strong duality), to the conic solver's accuracy."""
    rng = np.random.default_rng(seed)
    n = 7
    prior = rng.dirichlet(np.ones(n))
    notion = md.LDP(1.5) if kind == "ldp" else md.PML(1.0, c=1 / (2 * n))
    oracle = PricingOracle(notion, prior)
    dual = prior * 0.3 + rng.normal(size=n) * 0.02
    families = two_level_families(oracle)
    assert families
    for family in families[:3]:
        assert family.relaxed_bound(dual) == pytest.approx(
            relaxation_by_cvxpy(family, dual), abs=1e-6)


def test_three_level_bounds_are_tight_where_the_relaxation_is():
    """The three-level family (zeros, ``top`` on ``T``, ``free`` on one input) is bounded
    too, and with a uniform prior and a dual proportional to it every pattern is alike,
    so the bound meets the best pattern (up to the rounding slack)."""
    n = 9
    prior = np.full(n, 1 / n)
    oracle = PricingOracle(md.PML(1.0, c=1 / (2 * n)), prior)
    three = [f for f in oracle.families if type(f).__name__ == "_ThreeLevel"]
    assert three
    dual = 0.3 * prior
    for family in three:
        best = family.reduced_costs(every_pattern(family), dual).max()
        assert best - 1e-13 <= family.relaxed_bound(dual) <= best + 1e-9


@pytest.mark.parametrize("seed", range(3))
def test_pml_pricing_with_relaxations_matches_brute_force(seed):
    """Families ruled out by their relaxation are skipped; the pricing's best column and
    bound still agree with brute force over cddlib's vertices."""
    rng = np.random.default_rng(seed)
    n = 9
    notion = md.PML(1.0, c=1 / (2 * n))
    prior = rng.dirichlet(np.ones(n))
    vertices = notion.cone(n).vertices("cdd").points
    values = np.array([
        float(prior @ (v * np.log(np.where(v > 0, v, 1.0) / (prior @ v)))) for v in vertices
    ])
    oracle = PricingOracle(notion, prior)
    for _ in range(3):
        dual = prior * 0.38 + rng.normal(size=n) * 0.01
        pricing = oracle.price(dual)
        best = float(np.max(values - vertices @ dual))
        assert pricing.reduced_cost == pytest.approx(best, abs=1e-10)
        assert best <= pricing.upper_bound + 1e-12


@pytest.mark.parametrize("seed", range(3))
def test_partial_heuristic_pricing_keeps_the_best_columns(seed):
    """The heuristic prices families in order of their relaxation bound and stops where
    none left can place a column among the 64 best: those 64 are the ones pricing every
    family finds."""
    rng = np.random.default_rng(seed)
    n = 24
    prior = rng.dirichlet(np.ones(n))
    notion = md.PML(1.0, c=1 / (2 * n))
    partial = PricingOracle(notion, prior)
    full = PricingOracle(notion, prior)
    full.partial_pricing = False
    for scale in (0.3, 0.36, 0.38):
        dual = prior * scale + rng.normal(size=n) * 1e-3
        some, every = partial.heuristic(dual), full.heuristic(dual)
        count = min(64, every.reduced_costs.size)
        assert some.reduced_costs.size >= count
        np.testing.assert_allclose(some.reduced_costs[:count], every.reduced_costs[:count],
                                   rtol=0, atol=1e-14)
