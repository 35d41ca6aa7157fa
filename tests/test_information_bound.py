"""The information one ε-LDP output can carry, ``κ(ε) = A − 1 − log A``, and its use.

Checked against what does not share its derivation: every subset of small priors (brute
force), the enumerated design LP, a numerical maximisation over the output's mass, a
50-digit evaluation, and the mutual information of a designed kernel computed by hand.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import minimize_scalar

import mechdesign as md
from mechdesign._tolerances import INFORMATION_BOUND_RTOL
from mechdesign.optimal import PricingOracle, ldp_information_bound
from mechdesign.optimal.patterns import balanced_arcs

priors = st.lists(st.floats(0.01, 1.0), min_size=2, max_size=8).map(
    lambda w: np.array(w) / sum(w))


def divergence_of_output(prior: np.ndarray, column: np.ndarray) -> float:
    """``D(P_{X|y} ‖ P_X)`` for an output whose column (over inputs) is ``column``."""
    posterior = prior * column / (prior @ column)
    keep = posterior > 0
    return float(posterior[keep] @ np.log(posterior[keep] / prior[keep]))


def mutual_information_by_hand(prior: np.ndarray, kernel: np.ndarray) -> float:
    joint = prior[:, None] * kernel
    outputs = joint.sum(axis=0)
    keep = joint > 0
    ratio = kernel / np.where(outputs > 0, outputs, 1.0)[None, :]
    return float(joint[keep] @ np.log(ratio[keep]))


def one_output_maximum(epsilon: float) -> float:
    """``max_p D`` over the mass ``p`` of the larger level, numerically: with ``s = 1 +
    (e^ε − 1) p = e^t``, ``D = ε e^ε p / s − t``, maximised over ``t ∈ [0, ε]`` (a log
    scale, since the best ``p`` is about ``ε e^{−ε}`` for large ε)."""

    def divergence(t: float) -> float:
        p = math.expm1(t) / math.expm1(epsilon)
        return epsilon * p * math.exp(epsilon - t) - t

    result = minimize_scalar(lambda t: -divergence(t), bounds=(0.0, epsilon),
                             method="bounded", options={"xatol": 1e-12 * epsilon})
    return divergence(float(result.x))


@settings(max_examples=60, deadline=None)
@given(prior=priors, epsilon=st.floats(0.05, 12.0))
def test_no_ldp_output_carries_more_than_the_bound(prior, epsilon):
    """Brute force over every vertex ``1 + (e^ε − 1) 1_B`` of the ε-LDP cone."""
    n = prior.size
    kappa = ldp_information_bound(epsilon)
    for size in range(1, n):
        for subset in itertools.combinations(range(n), size):
            column = np.ones(n)
            column[list(subset)] = math.exp(epsilon)
            assert divergence_of_output(prior, column) <= kappa * (1 + 1e-12) + 1e-15


@settings(max_examples=25, deadline=None)
@given(prior=priors.filter(lambda p: p.size <= 6), epsilon=st.floats(0.1, 6.0))
def test_the_optimal_ldp_design_carries_at_most_the_bound(prior, epsilon):
    """The enumerated design LP (every vertex, HiGHS) never beats κ(ε), nor H(X)."""
    optimum = md.design(md.LDP(epsilon), prior, method="enumeration").utility
    entropy = float(-(prior * np.log(prior)).sum())
    assert optimum <= min(ldp_information_bound(epsilon), entropy) + 1e-9


@pytest.mark.parametrize("epsilon", [0.01, 0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0])
def test_the_closed_form_is_the_maximum_over_the_mass(epsilon):
    assert ldp_information_bound(epsilon) == pytest.approx(one_output_maximum(epsilon),
                                                           rel=1e-9, abs=1e-15)


@pytest.mark.parametrize("epsilon", [1e-8, 1e-5, 1e-3, 1.999e-3, 2.001e-3, 2.2e-3, 0.3,
                                     1.0, 40.0, 700.0])
def test_the_closed_form_to_fifty_digits(epsilon):
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.dps = 50
    e = mpmath.mpf(epsilon)
    a = e / (1 - mpmath.exp(-e))
    exact = a - 1 - mpmath.log(a)
    assert ldp_information_bound(epsilon) == pytest.approx(float(exact), rel=1e-13)


def test_the_bound_at_its_limits():
    assert ldp_information_bound(0.0) == 0.0  # exact: a point section carries nothing
    assert math.isinf(ldp_information_bound(math.inf))
    # κ(ε) ≈ ε²/8 for small ε, ε − 1 − log ε for large ε.
    assert ldp_information_bound(1e-4) == pytest.approx(1e-8 / 8, rel=1e-7)
    assert ldp_information_bound(200.0) == pytest.approx(199 - math.log(200), rel=1e-15)
    with pytest.raises(md.InvalidInputError, match="epsilon"):
        ldp_information_bound(-1.0)


@settings(max_examples=40, deadline=None)
@given(prior=priors, data=st.data())
def test_the_closed_form_duals_bound_every_point(prior, data):
    """``λ = −P log P`` bounds ``μ(v) − λ·v ≤ 0`` for every ``v ≥ 0`` (so the LP value by
    ``H(X)``), whatever the notion; ``λ = κ P`` for every ε-LDP section point."""
    n = prior.size
    epsilon = data.draw(st.floats(0.05, 8.0))
    oracle = PricingOracle(md.LDP(epsilon), prior)
    dual, bound = oracle.certified_dual()
    assert bound == pytest.approx(dual.sum(), rel=1e-14)
    entropy = float(-(prior * np.log(prior)).sum())
    assert bound == pytest.approx(
        min(entropy, ldp_information_bound(epsilon) * (1 + INFORMATION_BOUND_RTOL)),
        rel=1e-14)
    # Every ε-LDP section point is a mixture of vertices; μ is convex, so vertices suffice.
    for size in range(1, n):
        for subset in itertools.combinations(range(n), size):
            column = np.ones(n)
            column[list(subset)] = math.exp(epsilon)
            v = column / column.sum()
            mu = (prior @ v) * divergence_of_output(prior, v)
            assert mu - dual @ v <= 1e-15
    entropy_dual = -prior * np.log(prior)
    v = np.array(data.draw(st.lists(st.floats(0.0, 1.0), min_size=n, max_size=n)))
    if v @ prior > 0:
        mu = (prior @ v) * divergence_of_output(prior, v)
        assert mu - entropy_dual @ v <= 1e-12 * max(1.0, v.sum())


@settings(max_examples=60, deadline=None)
@given(prior=priors, mass=st.floats(0.0, 0.5))
def test_balanced_arcs_are_arcs_bracketing_the_mass(prior, mass):
    n = prior.size
    arcs = balanced_arcs(prior, mass, 1, n - 1)
    assert len({row.tobytes() for row in arcs}) == arcs.shape[0]
    lengths = set()
    for row in arcs:
        size = int(row.sum())
        assert 1 <= size <= n - 1
        # Consecutive around the circle: exactly one place where the set starts.
        starts = np.flatnonzero(row & ~np.roll(row, 1))
        assert starts.size == 1
        first = int(starts[0])
        lengths.add((first, size))
    for first in range(n):
        masses = [prior[[(first + j) % n for j in range(size)]].sum()
                  for f, size in lengths if f == first]
        # From every first input: an arc of mass ≤ the target (unless one input is
        # already heavier) and one just above it (unless it would take all n − 1).
        assert masses
        assert min(masses) <= mass + 1e-12 or min(masses) == pytest.approx(prior[first])


def test_a_diffuse_prior_is_certified_by_the_closed_form_without_a_mip():
    """ε = 1, Dirichlet(1), N = 128: the design's mutual information (by hand) is within
    the gap of κ(1), and no pricing MIP ran: the bound is the closed form's."""
    n = 128
    prior = np.random.default_rng(n).dirichlet(np.ones(n))
    design = md.design(md.LDP(1.0), prior, method="column_generation", gap=1e-6)
    report = design.column_generation
    kappa = one_output_maximum(1.0)
    assert report.status == "optimal"
    assert report.mips == 0
    assert report.upper_bound == pytest.approx(kappa, rel=1e-9)
    kernel = np.asarray(design.mechanism.matrix)
    information = mutual_information_by_hand(prior, kernel)
    assert kappa - 1e-6 <= information <= kappa + 1e-12
    # ε-LDP by hand: within every column, no two inputs' probabilities differ by more
    # than a factor e (up to the audit's tolerance).
    assert np.all(kernel.max(axis=0) <= math.e * kernel.min(axis=0) * (1 + 1e-9))


@pytest.mark.parametrize(("call", "name"), [
    (lambda: balanced_arcs(np.array([0.5, 0.6]), 0.3, 1, 1), "prior"),
    (lambda: balanced_arcs(np.full(4, 0.25), float("nan"), 1, 3), "mass"),
    (lambda: balanced_arcs(np.full(4, 0.25), 1.5, 1, 3), "mass"),
    (lambda: balanced_arcs(np.full(4, 0.25), 0.3, 0, 3), "k_min"),
    (lambda: balanced_arcs(np.full(4, 0.25), 0.3, 3, 2), "k_max"),
    (lambda: ldp_information_bound(float("nan")), "epsilon"),
])
def test_bad_input_is_refused_by_name(call, name):
    with pytest.raises(md.InvalidInputError, match=name):
        call()


def test_arcs_of_a_prior_with_tiny_masses():
    """Masses of 1e-300 next to order-one ones: every arc is still a valid pattern."""
    prior = np.array([1e-300, 0.5, 1e-300, 0.5 - 2e-300])
    arcs = balanced_arcs(prior, 0.3, 1, 3)
    assert arcs.shape[1] == 4
    assert np.all((arcs.sum(axis=1) >= 1) & (arcs.sum(axis=1) <= 3))
