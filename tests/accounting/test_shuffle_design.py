"""Designing for a central guarantee behind a shuffler (mechdesign.accounting.shuffle_design).

Every designed kernel is checked by code that did not design it: its clone mass and LDP
level from their definitions, the clone reduction's δ recomputed at the full ε, the
accountant's central ε, and — for two inputs and two outputs — the exact shuffled
release by enumerating every output vector at small n. The frontier's ends and least
clone mass are checked to be tight, the cover to contain every frontier cone, and the
design to be no worse than k-RR at the largest local ε the target allows.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import mechdesign as md
from mechdesign.accounting.shuffle import Reduction, reduction_delta, shuffle_epsilon
from mechdesign.accounting.shuffle_design import Shuffled
from mechdesign.errors import InvalidInputError
from mechdesign.notions import clone_vertices
from mechdesign.optimal import EstimationError
from mechdesign.priors import zipf_prior


def _clone_mass(k: np.ndarray) -> float:
    """From the definition: min over y and pairs x0 ≠ x1 of min_x K[x, y]/(K[x0, y] + K[x1, y])."""
    best = 0.5
    for column in k.T:
        for x0, x1 in itertools.combinations(range(k.shape[0]), 2):
            if column[x0] + column[x1] > 0:
                best = min(best, column.min() / (column[x0] + column[x1]))
    return best


def _exact_binary_delta(k: np.ndarray, n: int, eps: float) -> float:
    """The exact δ(ε) of n shuffled reports of a kernel with two outputs, by enumerating
    every vector of the n users' outputs for every dataset of the others' inputs and every
    pair of the replaced user's inputs: the release is the number of ones."""
    ones = k[:, 1]
    worst = 0.0
    outputs = np.array(list(itertools.product((0, 1), repeat=n)))  # (2^n, n)
    counts = outputs.sum(axis=1)
    for others in itertools.product(range(k.shape[0]), repeat=n - 1):
        for x, x_prime in itertools.permutations(range(k.shape[0]), 2):
            laws = []
            for first in (x, x_prime):
                q = ones[[first, *others]]
                prob = np.prod(np.where(outputs == 1, q, 1 - q), axis=1)
                laws.append(np.bincount(counts, weights=prob, minlength=n + 1))
            worst = max(worst, float(np.maximum(laws[0] - math.exp(eps) * laws[1], 0).sum()))
    return worst


@settings(max_examples=200, deadline=None)
@given(st.floats(0.0, 9.0), st.floats(0.0, 9.0), st.floats(1e-5, 0.5), st.floats(1.0, 4.0),
       st.sampled_from([2, 3, 10, 200, 10**4]), st.floats(0.0, 3.0))
def test_the_clone_delta_grows_with_u_and_falls_with_r(l1, l2, r, grow, n, eps):
    """The monotonicity the frontier relies on (and that makes every designed kernel's own
    row-pair reductions no worse than its notion's)."""
    low, high = sorted((l1, l2))
    r2 = min(0.5, r * grow)
    base = reduction_delta(Reduction.at_level(high, r), n, eps)
    assert reduction_delta(Reduction.at_level(low, r), n, eps) <= base * (1 + 1e-9) + 1e-15
    assert reduction_delta(Reduction.at_level(high, r2), n, eps) <= base * (1 + 1e-9) + 1e-15


@pytest.mark.parametrize(("epsilon", "delta", "n"), [(1.0, 1e-6, 10**5), (0.5, 1e-6, 10**4),
                                                     (1.0, 1e-2, 30)])
def test_the_frontier_ends_and_least_clone_mass_are_tight(epsilon, delta, n):
    target = Shuffled(epsilon, delta, n)
    lo, hi = target.ends()
    assert lo <= hi
    assert target.clone_delta(lo, 0.5 * math.exp(-lo)) <= delta
    assert target.clone_delta(lo * (1 + 1e-6), 0.5 * math.exp(-lo * (1 + 1e-6))) > delta
    assert target.clone_delta(hi, 1 / (math.exp(hi) + 1)) <= delta
    up = hi * (1 + 1e-6)
    assert target.clone_delta(up, 1 / (math.exp(up) + 1)) > delta
    middle = 0.5 * (lo + hi)
    r = target.required_r(middle)
    assert target.clone_delta(middle, r) <= delta
    assert target.clone_delta(middle, r * (1 - 1e-6)) > delta
    assert target.required_r(lo) <= target.required_r(middle) <= target.required_r(hi)


@pytest.mark.parametrize(("epsilon", "delta", "n"), [(1.0, 1e-6, 10**5), (1.0, 1e-6, 10**4),
                                                     (0.5, 1e-8, 10**6)])
@pytest.mark.slow
def test_the_frontier_ends_are_the_outer_regimes(epsilon, delta, n):
    """t = 0 is ε_lo-LDP and t = 1 k-RR's clone mass: both priced at any size (an end a
    rounding inside the mixed regime would make an estimation design unaffordable)."""
    target = Shuffled(epsilon, delta, n)
    ends = target.ends()
    assert target.notion_at(0.0, ends).levels.regime == "ldp"
    assert target.notion_at(1.0, ends).levels.regime == "clones"
    first, second = target.split(target.split_point(ends, 1e-9))
    assert math.isfinite(first.epsilon)
    assert second.levels.regime == "clones"


def test_the_split_and_the_cover_contain_every_frontier_cone():
    target = Shuffled(1.0, 1e-6, 10**4)
    ends = target.ends()
    def inside(v, epsilon0, r):
        top = np.sort(v)[::-1]
        return (v.min() >= r * (top[0] + top[1]) * (1 - 1e-12)
                and top[0] <= math.exp(epsilon0) * v.min() * (1 + 1e-12))

    for cover in (target.cover(ends), target.cover(ends, capped=False)):
        for t in (0.0, 0.3, 0.7, 1.0):
            notion = target.notion_at(t, ends)
            for v in clone_vertices(5, notion.epsilon, notion.r):
                assert inside(v, cover.epsilon, cover.r)
    at = ends[0] + 0.5 * (ends[1] - ends[0])
    first, second = target.split(at)
    for t in (0.0, 0.2, 0.5, 0.51, 0.8, 1.0):
        notion = target.notion_at(t, ends)
        for v in clone_vertices(5, notion.epsilon, notion.r):
            if notion.epsilon <= at:
                assert inside(v, first.epsilon, 0.0)
            else:
                assert inside(v, second.epsilon, second.r)


GRID = [  # (k, n, central ε, δ, utility)
    (3, 10**5, 1.0, 1e-6, "mutual_information"),
    (4, 10**4, 0.5, 1e-6, "mutual_information"),
    (4, 200, 1.0, 1e-5, "mutual_information"),
    (5, 10**5, 1.0, 1e-6, "mse"),
    (4, 10**3, 1.0, 1e-6, EstimationError(workload="prefix")),
    (3, 10**4, 2.0, 1e-8, "bayes"),
]


@pytest.mark.parametrize(("k", "n", "epsilon", "delta", "utility"), GRID)
@pytest.mark.slow
def test_every_designed_kernel_meets_its_target(k, n, epsilon, delta, utility):
    prior = zipf_prior(k, 1.1)
    result = md.design(Shuffled(epsilon, delta, n), prior, utility=utility)
    report = result.target
    kernel = np.asarray(result.mechanism.matrix)
    notion = report.chosen.notion
    assert result.audit_passed
    # independent of the design: the definitions, the reduction at the full ε, the accountant
    assert md.ldp_level(kernel) <= notion.epsilon + 1e-9
    assert _clone_mass(kernel) >= notion.r * (1 - 1e-9)
    assert shuffle_epsilon(kernel, n, delta).epsilon <= epsilon
    assert report.central_epsilon <= epsilon
    minimise = utility in ("mse",) or isinstance(utility, EstimationError)
    if report.chosen.certified_by == "blanket":
        # k-RR's end cone at the ε₀ the blanket accountant affords k-RR: its kernel is
        # certified by that accountant (tested against exact enumeration and a dataset's
        # lower bound in tests/accounting/test_shuffle.py), and it beat every
        # clone-certified design
        assert shuffle_epsilon(kernel, n, delta).method == "blanket"
        clones = [p.utility for p in report.points if p.certified_by == "clones"]
        assert (result.utility < min(clones)) if minimise else (result.utility > max(clones))
        return
    assert reduction_delta(Reduction.at_level(notion.epsilon, notion.r), n, epsilon) <= delta
    # the bound covers the best design found
    if report.bound is not None:
        slack = 1e-7 * max(1.0, abs(report.bound))
        assert (result.utility >= report.bound - slack if minimise
                else result.utility <= report.bound + slack)


@pytest.mark.parametrize(("k", "n", "epsilon", "delta"), [(3, 10**4, 1.0, 1e-6),
                                                          (6, 10**5, 1.0, 1e-6)])
@pytest.mark.slow
def test_the_design_is_no_worse_than_k_rr_at_the_largest_local_epsilon(k, n, epsilon, delta):
    """k-RR at ε₀ a hair below ε_hi meets the target through its clones; the design over
    every clone-certified kernel is at least as good (mutual information)."""
    prior = zipf_prior(k, 1.1)
    target = Shuffled(epsilon, delta, n)
    eps0 = target.ends()[1] * (1 - 1e-6)
    grr = md.randomized_response(k, eps0)
    assert shuffle_epsilon(grr, n, delta).epsilon <= epsilon
    result = md.design(target, prior)
    assert result.utility >= md.mutual_information(grr, prior) - 1e-9


def test_a_two_output_design_meets_its_target_on_the_exact_shuffled_release():
    n, epsilon, delta = 7, 1.0, 0.05
    result = md.design(Shuffled(epsilon, delta, n), np.array([0.6, 0.4]))
    kernel = np.asarray(result.mechanism.matrix)
    kernel = kernel[:, kernel.max(axis=0) > 0]
    assert kernel.shape == (2, 2)
    assert _exact_binary_delta(kernel, n, epsilon) <= delta
    # and the exact release is what the accountant's exact binary curve computes
    assert shuffle_epsilon(kernel, n, delta).epsilon <= epsilon


def test_the_report_records_the_search():
    result = md.design(Shuffled(1.0, 1e-6, 10**4, max_designs=4, bound=False),
                       zipf_prior(4, 1.1))
    report = result.target
    assert result.notion == report.chosen.notion
    assert report.bound is None
    assert not report.certified
    frontier = [p for p in report.points if p.certified_by == "clones"]
    assert 2 <= len(frontier) <= 4                    # max_designs counts the frontier's
    assert len(report.points) - len(frontier) <= 1    # and the blanket end, once
    assert [p.t for p in frontier[:2]] == pytest.approx([1.0, 0.0], abs=0)
    assert report.chosen.utility >= max(p.utility for p in report.points)
    assert report.stopped in ("max designs", "converged")


@pytest.mark.parametrize(("kwargs", "name"), [
    ({"epsilon": 0.0, "delta": 1e-6, "n": 10}, "epsilon"),
    ({"epsilon": math.inf, "delta": 1e-6, "n": 10}, "epsilon"),
    ({"epsilon": 1.0, "delta": 1.0, "n": 10}, "delta"),
    ({"epsilon": 1.0, "delta": 1e-6, "n": 0}, "n"),
    ({"epsilon": 1.0, "delta": 1e-6, "n": 10, "max_designs": 1}, "max_designs"),
    ({"epsilon": 1.0, "delta": 1e-6, "n": 10, "bound": "yes"}, "bound"),
    ({"epsilon": 1.0, "delta": 1e-6, "n": 10, "blanket": 1}, "blanket"),
])
def test_bad_targets_are_refused_by_name(kwargs, name):
    with pytest.raises(InvalidInputError, match=name):
        Shuffled(**kwargs)


def test_a_bad_time_limit_is_refused_by_name():
    with pytest.raises(InvalidInputError, match="time_limit"):
        md.design(Shuffled(1.0, 1e-6, 100), zipf_prior(3, 1.1), time_limit=-1.0)


@pytest.mark.slow
def test_the_design_is_no_worse_than_k_rr_at_its_blanket_epsilon():
    """k-RR at the larger ε₀ its blanket accountant affords meets the target; the search
    designs that end too, so its result is at least that k-RR (mutual information)."""
    k, n = 6, 10**5
    prior = zipf_prior(k, 1.1)
    target = Shuffled(1.0, 1e-6, n)
    eps0 = target.blanket_epsilon(k, target.ends()[1])
    assert eps0 > target.ends()[1]
    grr = md.randomized_response(k, eps0)
    assert shuffle_epsilon(grr, n, 1e-6).epsilon <= 1.0
    assert md.design(target, prior).utility >= md.mutual_information(grr, prior) - 1e-9
