"""composed_epsilon / composed_delta report the smallest of their valid upper bounds (the
privacy loss distribution's, basic and advanced composition) and name it (issue 36,
item 7)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mechdesign as md

ORDER = ("pld", "basic", "advanced")  # the documented tie order


def dirichlet_kernel(seed: int, n_inputs: int, n_outputs: int, concentration: float):
    rng = np.random.default_rng(seed)
    return rng.dirichlet(np.full(n_outputs, concentration), size=n_inputs)


def ldp_by_hand(k: np.ndarray) -> float:
    """max over columns and ordered row pairs of log(K[x, y] / K[x', y]) (no zeros)."""
    logs = np.log(k)
    return float(max(np.max(logs[x] - logs[y]) for x, y in
                     itertools.permutations(range(k.shape[0]), 2)))


def product_hockey_stick(k: np.ndarray, n: int, epsilon: float) -> float:
    """max over ordered row pairs of Σ_o (K_x'^⊗n(o) − e^ε K_x^⊗n(o))^+, by enumerating
    the multisets of n outputs: n uses of K on one input against another. Every valid
    δ(ε) of n uses is at least this (the non-adaptive use is one of the compositions)."""
    m = k.shape[1]
    worst = 0.0
    for x, y in itertools.permutations(range(k.shape[0]), 2):
        total = 0.0
        for outcome in itertools.combinations_with_replacement(range(m), n):
            counts = np.bincount(outcome, minlength=m)
            ways = math.factorial(n) / math.prod(math.factorial(c) for c in counts)
            upper = ways * math.prod(k[y, o] ** c for o, c in enumerate(counts))
            lower = ways * math.prod(k[x, o] ** c for o, c in enumerate(counts))
            total += max(upper - math.exp(epsilon) * lower, 0.0)
        worst = max(worst, total)
    return worst


def check_the_winner(result, value: float) -> None:
    """``value`` (the reported ε or δ) is the minimum of the three bounds, and
    ``method`` names the first bound that attains it."""
    bounds = {"pld": result.pld, "basic": result.basic, "advanced": result.advanced}
    smallest = min(bounds.values())
    assert value == pytest.approx(smallest, rel=1e-15, abs=0.0)
    assert all(value <= b for b in bounds.values())
    assert result.method in ORDER
    assert bounds[result.method] == pytest.approx(value, rel=1e-15, abs=0.0)
    # No bound before the winner in the documented order attains the minimum.
    for name in ORDER[:ORDER.index(result.method)]:
        assert bounds[name] > smallest


def test_the_issues_kernel_reports_basic_composition():
    """Issue 36: a 3 x 4 Dirichlet(2) kernel, 5 uses at δ = 1e-6: the PLD's pessimistic
    grid gave 7.42979 > 5·LDP(K) = 7.42963. The smaller, basic, is reported, and named."""
    k = dirichlet_kernel(7, 3, 4, 2.0)
    basic = 5 * ldp_by_hand(k)
    assert basic == pytest.approx(7.42963, abs=1e-5)
    result = md.composed_epsilon(k, 5, 1e-6)
    assert result.pld == pytest.approx(7.42979, abs=1e-5)  # the issue's number: kept
    assert result.pld > basic  # the grid put the PLD above basic composition
    assert result.method == "basic"
    assert result.epsilon == pytest.approx(basic, rel=1e-12)
    assert float(result) == pytest.approx(basic, rel=1e-12)
    check_the_winner(result, result.epsilon)
    # Valid: 5 uses on one input against another leak nothing beyond it (δ = 0 there).
    assert product_hockey_stick(k, 5, result.epsilon) <= 1e-12


def test_tight_accounting_still_wins_where_it_is_tighter():
    k = md.randomized_response(4, 0.1)
    result = md.composed_epsilon(k, 1000, 1e-6)
    assert result.method == "pld"
    assert result.epsilon == pytest.approx(result.pld, rel=1e-15)
    assert result.epsilon < result.advanced < result.basic


def test_composed_delta_is_zero_where_basic_composition_certifies_epsilon():
    k = dirichlet_kernel(7, 3, 4, 2.0)
    total = 5 * ldp_by_hand(k)
    result = md.composed_delta(k, 5, total * (1 + 1e-9))
    assert result.delta == 0.0  # exact: basic composition's constant
    assert result.method in ("pld", "basic")
    check_the_winner(result, result.delta)


kernels = st.tuples(
    st.integers(0, 2**32 - 1),  # seed
    st.integers(2, 4),  # inputs
    st.integers(2, 4),  # outputs
    st.sampled_from([0.5, 1.0, 2.0, 5.0]),  # Dirichlet concentration of the rows
)


@settings(max_examples=40, deadline=None)
@given(kernel=kernels, n=st.integers(1, 4),
       delta=st.sampled_from([1e-9, 1e-6, 1e-3, 0.05]))
def test_composed_epsilon_is_the_smallest_valid_bound(kernel, n, delta):
    k = dirichlet_kernel(*kernel)
    result = md.composed_epsilon(k, n, delta)
    assert result.basic == pytest.approx(n * ldp_by_hand(k), rel=1e-9)
    assert result.epsilon <= result.basic
    assert result.epsilon <= result.advanced
    check_the_winner(result, result.epsilon)
    # Valid: the n-fold use on one input against another needs no more δ at that ε.
    assert product_hockey_stick(k, n, result.epsilon) <= delta * (1 + 1e-9) + 1e-12


@settings(max_examples=40, deadline=None)
@given(kernel=kernels, n=st.integers(1, 4), share=st.floats(0.05, 1.5))
def test_composed_delta_is_the_smallest_valid_bound(kernel, n, share):
    k = dirichlet_kernel(*kernel)
    total = n * ldp_by_hand(k)
    epsilon = share * total
    result = md.composed_delta(k, n, epsilon)
    assert result.delta <= result.basic
    assert result.delta <= result.advanced
    check_the_winner(result, result.delta)
    if epsilon >= total * (1 + 1e-9):  # basic composition certifies it: δ = 0
        assert result.delta == 0.0  # exact: a constant of the bound
    # Valid: at least the δ of the n-fold use on one input against another.
    assert result.delta >= product_hockey_stick(k, n, epsilon) - 1e-12
