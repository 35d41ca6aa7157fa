"""N-ary randomized response's certificate for ε-LDP designs of mutual information
(``randomized_response_bound``), against the LP over every vertex (the patterns enumerated
here), the information of the k-RR kernel computed by the measures, and designs at the
large ε of a local randomizer behind a shuffler."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy.optimize import linprog

import mechdesign as md
from mechdesign.optimal import randomized_response_bound
from tests.helpers import mutual_information_of_columns


def optimum_over_every_vertex(eps: float, prior: np.ndarray) -> float:
    """The design LP over every pattern ``e^ε`` on ``B``, 1 elsewhere (normalised),
    ``∅ ≠ B ≠ all``, solved at tight tolerances."""
    n = prior.size
    rows = [np.where(np.array(bits), math.exp(eps), 1.0)
            for bits in itertools.product([False, True], repeat=n) if 0 < sum(bits) < n]
    v = np.array([r / r.sum() for r in rows])
    mu = mutual_information_of_columns(prior, v)
    result = linprog(-mu, A_eq=v.T, b_eq=np.ones(n), bounds=(0, None), method="highs",
                     options={"primal_feasibility_tolerance": 1e-10,
                              "dual_feasibility_tolerance": 1e-10})
    assert result.status == 0
    return -result.fun


def krr_information(k: int, eps: float, prior: np.ndarray) -> float:
    return md.mutual_information(md.mechanisms.closed_forms.randomized_response(k, eps), prior)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 7), st.floats(0.05, 14.0), st.integers(0, 2**32 - 1),
       st.sampled_from([1.0, 0.3]))
def test_randomized_response_bound_brackets_the_optimum_over_every_vertex(n, eps, seed, alpha):
    """``I_RR ≤ OPT ≤ bound``; where the bound equals ``I_RR`` (the pair margin is
    non-negative) randomized response is optimal. The margin is the reduced cost of the
    pair of the two smallest masses under randomized response's dual (here solved as a
    linear system, the information from its definition), times its normaliser: where
    that is positive the pair improves on randomized response (OPT above ``I_RR``)."""
    prior = np.random.default_rng(seed).dirichlet(np.full(n, alpha))
    prior = np.maximum(prior, 1e-6)
    prior /= prior.sum()
    information, bound = randomized_response_bound(eps, prior)
    opt = optimum_over_every_vertex(eps, prior)
    assert information == pytest.approx(krr_information(n, eps, prior), abs=1e-12)
    assert information <= opt + 1e-9
    assert opt <= bound + 1e-9
    if bound - information < 1e-11:  # the margin is non-negative (the bound's rounding)
        assert opt == pytest.approx(information, abs=1e-9)
    # the margin's pair column is a vertex: with it the LP beats randomized response
    a, b = np.argsort(prior)[:2]
    pair = np.ones(n)
    pair[[a, b]] = math.exp(eps)
    pair /= pair.sum()
    reduced_cost = (mutual_information_of_columns(prior, pair[None, :])[0]
                    - _rr_dual(eps, prior) @ pair)
    normaliser = (pair / pair.max()).sum()  # of the pattern e^-ε, 1 on the pair
    assert bound - information == pytest.approx(n * max(0.0, reduced_cost * normaliser),
                                                abs=1e-9)
    if reduced_cost > 1e-9:
        assert opt > information


def _rr_dual(eps: float, prior: np.ndarray) -> np.ndarray:
    """The dual fixed by randomized response's columns, solved as a linear system: the
    reduced cost of each of its N columns is zero."""
    n = prior.size
    rr = md.mechanisms.closed_forms.randomized_response(n, eps).matrix
    columns = (rr / (prior @ rr)).T  # v_y = K[:, y] / P(y): rows of the vertex LP
    columns = columns / columns.sum(axis=1, keepdims=True)
    mu = mutual_information_of_columns(prior, columns)
    return np.linalg.solve(columns, mu)


@pytest.mark.parametrize(("n", "eps"), [(128, 12.0), (300, 12.0), (300, 10.0)])
def test_a_design_at_large_epsilon_is_certified_by_randomized_response(n, eps):
    """Zipf(1.1) priors above the threshold (ε ≈ 8.1 at N = 128, 9.3 at N = 300):
    randomized response is optimal and certifies the first master, without a pricing
    MIP (before, the first exact pricing at N = 128, ε = 12 had not ended at 100 s)."""
    prior = np.arange(1, n + 1, dtype=float) ** -1.1
    prior /= prior.sum()
    information, bound = randomized_response_bound(eps, prior)
    assert bound - information < 1e-9  # a non-negative margin; the rest is rounding
    design = md.design(md.LDP(eps), prior, method="column_generation")
    report = design.column_generation
    assert report.status == "optimal"
    assert report.iterations == 1
    assert design.utility == pytest.approx(krr_information(n, eps, prior), abs=1e-9)
    assert report.upper_bound <= information * (1 + 1e-11)
    assert design.audit_passed
    assert design.certificate.holds


def test_randomized_response_bound_at_the_extremes():
    prior = np.array([0.5, 0.3, 0.2])
    entropy = float(-(prior * np.log(prior)).sum())
    # ε = ∞ and ε = 700: the identity, I = H(X), optimal
    for eps in (math.inf, 700.0):
        information, bound = randomized_response_bound(eps, prior)
        assert information == pytest.approx(entropy, abs=1e-13)
        assert 0 < bound - information < 1e-12
    assert randomized_response_bound(0.0, prior) == (0.0, 0.0)
    # masses of 1e-300: the pair of them is worth merging at any finite ε (its margin,
    # about 1e-300 log 2, is below e^-ε I), but the bound stays finite and valid
    tiny = np.array([1 - 2e-300, 1e-300, 1e-300])
    information, bound = randomized_response_bound(30.0, tiny)
    assert information == pytest.approx(krr_information(3, 30.0, tiny), abs=1e-15)
    assert information <= bound < 1e-10
    # a zero mass: never worth its own output
    information, bound = randomized_response_bound(5.0, [0.6, 0.4, 0.0])
    assert bound > information


@pytest.mark.parametrize(("epsilon", "prior", "match"), [
    (-1.0, [0.5, 0.5], "epsilon"),
    (math.nan, [0.5, 0.5], "epsilon"),
    (1.0, [1.0], "prior"),
    (1.0, [0.5, 0.6], "prior"),
    (1.0, [0.5, math.nan], "prior"),
])
def test_randomized_response_bound_refuses_bad_input(epsilon, prior, match):
    with pytest.raises(md.InvalidInputError, match=match):
        randomized_response_bound(epsilon, prior)


@settings(max_examples=40, deadline=None)
@given(st.integers(3, 8), st.floats(-9.0, -3.0), st.integers(0, 2**32 - 1))
def test_at_tiny_epsilon_the_bound_stays_above_the_binary_mechanism(n, log_eps, seed):
    """At tiny ε the binary mechanism (a feasible design) carries more than randomized
    response, so the bound must stay above its information, computed by the measures.
    Randomized response's information and margin sum O(ε) terms to O(ε²): without the
    bound's allowance for rounding, at ε ≈ 1e-8 a negative margin came out positive and
    the bound was I_RR, below the binary mechanism."""
    eps = 10.0**log_eps
    prior = np.random.default_rng(seed).dirichlet(np.ones(n))
    information, bound = randomized_response_bound(eps, prior)
    binary = md.mechanisms.closed_forms.binary_mechanism(eps, prior=prior)
    assert bound >= md.mutual_information(binary, prior)
    assert bound >= information
