"""Gain utilities (issue 21): the sort pricing against brute force over every vertex,
Bayes-optimal designs against an independent LP over every {1, e^ε} pattern, the
sublinear-utility theorem's claim that the optimum sits on vertices, and the refusals.

g-vulnerability is tested in tests/measures/test_leakage.py, the gain utility in
tests/optimal/test_utilities.py.
"""

from __future__ import annotations

import importlib
import itertools
import math

import numpy as np
import pytest
from scipy.optimize import linprog

import mechdesign as md
from mechdesign.errors import InvalidInputError, UnsupportedError
from mechdesign.notions import NonRobustLDP
from mechdesign.optimal import GainSource, GainUtility
from mechdesign.optimal.gain_pricing import GAIN_AUTO_MAX_VERTICES

pipeline = importlib.import_module("mechdesign.optimal.pipeline")


# -- the sort pricing against brute force ------------------------------------------------


def all_ldp_patterns(n, eps):
    """Every normalised {1, e^ε} pattern except the constant ones."""
    rows = [np.where(b, math.exp(eps), 1.0) for b in itertools.product([False, True], repeat=n)
            if 0 < sum(b) < n]
    rows = np.array(rows)
    return rows / rows.sum(axis=1, keepdims=True)


def brute_reduced_cost(points, weights, dual):
    return np.max(points @ weights.T, axis=1) - points @ dual


@pytest.mark.parametrize("n", [2, 3, 5, 8, 10, 12])
def test_sort_pricing_is_exact_for_ldp(n):
    rng = np.random.default_rng(n)
    points = None
    for trial in range(3):
        eps = [0.3, 1.0, 3.0][trial]
        points = all_ldp_patterns(n, eps)
        p = rng.dirichlet(np.ones(n))
        g = rng.normal(size=(int(rng.integers(1, n + 2)), n))
        utility = GainUtility(g, p)
        dual = rng.normal(scale=0.3, size=n)
        pricing = GainSource(md.LDP(eps), utility).price(dual)
        best = float(brute_reduced_cost(points, utility.weights, dual).max())
        assert pricing.upper_bound == pytest.approx(best, abs=1e-12)
        assert pricing.reduced_cost == pytest.approx(best, abs=1e-12)
        assert pricing.column @ np.ones(n) == pytest.approx(1.0)


@pytest.mark.parametrize(("n", "backend"), [(3, "cdd"), (5, "cdd"), (7, "cdd"),
                                            (10, "closed_form"), (12, "closed_form")])
def test_sort_pricing_is_exact_for_c_pml(n, backend):
    rng = np.random.default_rng(100 + n)
    for eps, c in [(0.5, 0.5 / n), (1.0, 0.2 / n), (2.0, 0.9 / n), (4.0, 0.05 / n)]:
        notion = md.PML(eps, c=c)
        points = notion.cone(n).vertices(backend).points
        p = rng.dirichlet(np.ones(n))
        utility = GainUtility(rng.normal(size=(n, n)), p)
        for _ in range(3):
            dual = rng.normal(scale=0.2, size=n)
            pricing = GainSource(notion, utility).price(dual)
            best = float(brute_reduced_cost(points, utility.weights, dual).max())
            assert pricing.upper_bound == pytest.approx(best, abs=1e-12)
            assert pricing.reduced_cost == pytest.approx(best, abs=1e-12)


def test_gain_pricing_refuses_what_it_cannot_price():
    p_hat = np.full(4, 0.25)
    utility = GainUtility.bayes(p_hat)
    with pytest.raises(UnsupportedError, match="enumeration"):
        md.design(NonRobustLDP(1.0, p_hat, (2, 2)), utility=utility, method="column_generation")
    with pytest.raises(UnsupportedError):
        md.design(md.PML(1.0, prior=p_hat), utility=utility, method="column_generation")
    with pytest.raises(InvalidInputError, match="objective"):
        GainSource(md.LDP(1.0), md.optimal.MutualInformationUtility(p_hat))
    with pytest.raises(UnsupportedError, match="enumeration"):
        md.design(md.LDP(1.0), utility=md.optimal.FDivergenceUtility([0.5, 0.5], [0.2, 0.8]),
                  method="column_generation")


# -- designs -------------------------------------------------------------------------------


def bayes_optimum_by_linprog(prior, eps):
    """max Σ_B θ_B max_x P_x u_B[x] s.t. Σ_B θ_B u_B = 1, θ ≥ 0, over every
    u_B ∈ {1, e^ε}^N (scipy's linprog, no mechdesign code)."""
    n = len(prior)
    patterns = np.array([np.where(b, math.exp(eps), 1.0)
                         for b in itertools.product([False, True], repeat=n)])
    values = np.max(patterns * prior[None, :], axis=1)
    result = linprog(-values, A_eq=patterns.T, b_eq=np.ones(n), bounds=(0, None),
                     method="highs")
    assert result.status == 0
    return -result.fun


@pytest.mark.parametrize("n", [2, 3, 4, 6, 8, 10])
def test_bayes_optimal_ldp_design_equals_an_independent_lp(n):
    rng = np.random.default_rng(7 * n)
    for eps in (0.5, 1.0, 2.5):
        p = rng.dirichlet(np.ones(n))
        expected = bayes_optimum_by_linprog(p, eps)
        for method in ("enumeration", "column_generation"):
            d = md.design(md.LDP(eps), p, utility="bayes", method=method)
            assert d.utility == pytest.approx(expected, rel=1e-9), (n, eps, method)
            assert md.ldp_level(d.mechanism) <= eps + 1e-9
            vulnerability = md.measures.bayes_vulnerability(d.mechanism, p)
            assert vulnerability == pytest.approx(expected, rel=1e-9)


@pytest.mark.parametrize("notion", [md.LDP(0.7), md.PML(1.2, c=0.04), md.PML(0.8, c=0.09)])
def test_gain_designs_agree_across_methods(notion):
    rng = np.random.default_rng(11)
    for n in (5, 9):
        p = rng.dirichlet(np.ones(n))
        utility = GainUtility(rng.normal(size=(n + 2, n)), p)
        enumerated = md.design(notion, utility=utility, method="enumeration")
        generated = md.design(notion, utility=utility, method="column_generation")
        assert generated.column_generation.status == "optimal"
        assert generated.utility == pytest.approx(enumerated.utility, rel=1e-9, abs=1e-12)
        assert generated.column_generation.upper_bound >= enumerated.utility - 1e-9


def test_gain_optimum_sits_on_vertices():
    """Kairouz–Oh–Viswanath: with a sublinear μ the optimum's columns, normalised, are
    vertices of the section — here every column of the designed mechanism matches one
    of cddlib's vertices, and no random mechanism of the notion does better."""
    rng = np.random.default_rng(5)
    n = 5
    for notion in (md.LDP(1.0), md.PML(1.0, c=0.06)):
        p = rng.dirichlet(np.ones(n))
        utility = GainUtility(rng.normal(size=(3, n)), p)
        d = md.design(notion, utility=utility, method="enumeration")
        vertices = notion.cone(n).vertices("cdd").points
        for column in d.mechanism.matrix.T:
            v = column / column.sum()
            assert np.min(np.abs(vertices - v).max(axis=1)) < 1e-9
        # Random mechanisms of the notion: mixtures of columns θ_v v with Σ θ_v v = 1.
        for _ in range(200):
            chosen = vertices[rng.choice(len(vertices), size=2 * n, replace=False)]
            weights = linprog(rng.random(2 * n), A_eq=chosen.T, b_eq=np.ones(n),
                              bounds=(0, None), method="highs")
            if weights.status != 0:
                continue
            # HiGHS meets its bounds to its tolerance (a weight of -1e-15 happens)
            kernel = (np.clip(weights.x, 0.0, None)[:, None] * chosen).T
            assert utility.of(md.Mechanism(kernel / kernel.sum(axis=1, keepdims=True))) <= (
                d.utility + 1e-9)


def test_auto_generates_columns_for_gain_utilities_above_its_crossover():
    small = next(n for n in range(2, 20)
                 if md.LDP(1.0).cone(n + 1).vertex_bound() > GAIN_AUTO_MAX_VERTICES)
    p_small, p_large = np.full(small, 1 / small), np.full(small + 1, 1 / (small + 1))
    assert md.design(md.LDP(1.0), p_small, utility="bayes").method == "enumeration"
    assert md.design(md.LDP(1.0), p_large, utility="bayes").method == "column_generation"
    assert pipeline.choose_method(md.LDP(1.0), GainUtility.bayes(p_large)) == (
        "column_generation")
    # Mutual information keeps its own, higher, crossover.
    assert md.design(md.LDP(1.0), p_large).method == "enumeration"


@pytest.mark.parametrize("k", [2, 3, 5, 9, 14])
@pytest.mark.parametrize("eps", [0.2, 1.0, 3.0])
def test_uniform_prior_bayes_optimum_is_krr_in_closed_form(k, eps):
    """Under ε-LDP every column has Σ_x K[x,y] ≥ m_y (1 + (k − 1) e^{−ε}) with m_y =
    max_x K[x,y]; summing over y gives V = (1/k) Σ_y m_y ≤ e^ε/(e^ε + k − 1), which k-RR
    attains. The LP optimum must equal it."""
    prior = np.full(k, 1 / k)
    closed_form = math.exp(eps) / (math.exp(eps) + k - 1)
    assert md.design(md.LDP(eps), prior, utility="bayes").utility == pytest.approx(
        closed_form, rel=1e-9)
    assert md.measures.bayes_vulnerability(md.randomized_response(k, eps), prior) == pytest.approx(
        closed_form, rel=1e-12)


def test_no_ldp_mechanism_helps_the_map_adversary_below_the_mode_threshold():
    """If e^ε π_(2) ≤ π_(1), then π(x) K[x,y] ≤ π_(2) e^ε K[x₁,y] ≤ π_(1) K[x₁,y] for every
    x ≠ x₁ (the mode): the MAP guess is always the mode and V = π_(1) for every ε-LDP K.
    Above the threshold the optimum is strictly larger."""
    prior = np.array([0.5, 0.3, 0.2])
    threshold = math.log(0.5 / 0.3)
    below = md.design(md.LDP(0.9 * threshold), prior, utility="bayes").utility
    above = md.design(md.LDP(1.1 * threshold), prior, utility="bayes").utility
    assert below == pytest.approx(0.5, rel=1e-12)
    assert above > 0.5 + 1e-6
