"""Column generation on the hard instances of ``benchmarks/scale_hard.py`` against an
optimum computed here from the definitions.

The hard priors (Zipf(1.1), geometric 0.97^i, heavy atoms 0.5 and 0.3 with a flat tail)
cannot be split into the proportions where one ε-LDP output carries its largest
information ``κ(ε) = A − 1 − log A`` (``A = ε/(1 − e^−ε)``), so the closed-form dual
``κ·P`` does not certify them and the pricing must. Independent of the package: the
vertices of the ε-LDP section are every two-level vector ``u/(p·u)``,
``u ∈ {e^−ε, 1}^N`` not constant; the optimum is the LP
``max Σ_v θ_v μ(v)`` subject to ``Σ_v θ_v v = 1``, ``θ ≥ 0``, with
``μ(v) = Σ_x p_x v_x log v_x`` (the information of an output whose posterior-to-prior
ratios are ``v``), solved by scipy.

Past enumeration: the heavy-atom prior's inputs of equal mass are interchangeable, and
the LP over count vectors (written here from the same definitions) is its optimum, which
column generation must certify in its first iteration at hundreds of inputs; the arcs
the heuristic proposes (random orders of the inputs) are checked to close most of the
gap that the first columns leave below ``κ`` under Zipf and geometric priors.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy.optimize import linprog

import mechdesign as md
from mechdesign.optimal import PatternSource, patterns
from mechdesign.optimal.patterns import balanced_arcs, merged_prior


def hard_prior(name: str, n: int) -> np.ndarray:
    if name == "zipf":
        p = np.arange(1, n + 1, dtype=float) ** -1.1
    elif name == "geometric":
        p = 0.97 ** np.arange(n, dtype=float)
    else:  # heavy atoms
        p = np.concatenate([[0.5, 0.3], np.full(n - 2, 0.2 / (n - 2))])
    return p / p.sum()


def optimum_over_every_vertex(eps: float, p: np.ndarray) -> float:
    masks = np.array([m for m in itertools.product((0.0, 1.0), repeat=p.size)
                      if 0 < sum(m) < p.size])
    u = math.exp(-eps) + -math.expm1(-eps) * masks
    v = u / (u @ p)[:, None]
    mu = (v * np.log(v)) @ p
    # HiGHS's default tolerances (1e-7) left geometric N = 12, ε = 0.5 2.6e-8 nats short
    result = linprog(-mu, A_eq=v.T, b_eq=np.ones(p.size), bounds=(0, None), method="highs",
                     options={"primal_feasibility_tolerance": 1e-10,
                              "dual_feasibility_tolerance": 1e-10})
    assert result.status == 0
    return -result.fun


def kappa(eps: float) -> float:
    a = eps / -math.expm1(-eps)
    return a - 1 - math.log(a)


CASES = [(name, n, eps) for name in ("zipf", "geometric", "heavy")
         for n, eps in ((12, 1.0), (10, 0.5), (10, 3.0))]


@pytest.mark.parametrize(("name", "n", "eps"), CASES)
def test_column_generation_reaches_the_optimum_over_every_vertex(name, n, eps):
    p = hard_prior(name, n)
    expected = optimum_over_every_vertex(eps, p)
    # the instance is hard: its optimum is below the closed-form bound, which therefore
    # cannot certify it
    assert expected < kappa(eps) - 1e-6
    d = md.design(md.LDP(eps), p, method="column_generation", gap=1e-9)
    report = d.column_generation
    assert report.status == "optimal"
    assert d.audit_passed
    assert d.utility == pytest.approx(expected, abs=2e-9)
    assert report.lower_bound - 1e-12 <= expected <= report.upper_bound + 1e-11


def test_the_heavy_atoms_stay_far_below_the_information_bound_at_every_size():
    # An atom of mass 0.5 cannot be split, so the optimum stays about 0.008 nats below
    # κ(1) however fine the tail: at N = 8, 12 and 14 (computed here) and, certified by
    # column generation, at N = 40.
    gaps = [kappa(1.0) - optimum_over_every_vertex(1.0, hard_prior("heavy", n))
            for n in (8, 12, 14)]
    assert min(gaps) > 5e-3
    d = md.design(md.LDP(1.0), hard_prior("heavy", 40), method="column_generation",
                  gap=1e-7)
    assert d.column_generation.upper_bound < kappa(1.0) - 5e-3


def symmetric_optimum_from_definitions(eps: float, classes: list[tuple[float, int]]) -> float:
    """The ε-LDP optimum of a prior made of classes (mass of each input, inputs), as the
    LP over count vectors: a pattern with ``m_c`` of class ``c``'s inputs at the high
    level, spread evenly over its orbit, puts the class average of its posterior-to-prior
    ratios on each input of the class. Written from the definitions, for any N."""
    masses = np.array([mass for mass, _ in classes])
    sizes = np.array([size for _, size in classes])
    counts = np.array(list(itertools.product(*(range(s + 1) for s in sizes))))
    counts = counts[(counts.sum(axis=1) > 0) & (counts.sum(axis=1) < sizes.sum())]
    high = math.exp(eps)
    scale = counts @ masses * high + (sizes - counts) @ masses  # u·p for u ∈ {1, e^ε}
    v_high, v_low = high / scale, 1.0 / scale
    mu = (counts * masses) @ np.ones(len(classes)) * v_high * np.log(v_high) + (
        (sizes - counts) @ masses) * v_low * np.log(v_low)
    averages = (counts * v_high[:, None] + (sizes - counts) * v_low[:, None]) / sizes
    result = linprog(-mu, A_eq=averages.T, b_eq=np.ones(len(classes)), bounds=(0, None),
                     method="highs", options={"primal_feasibility_tolerance": 1e-10,
                                              "dual_feasibility_tolerance": 1e-10})
    assert result.status == 0
    return -result.fun


@pytest.mark.parametrize(("n", "eps"), [(10, 1.0), (12, 0.5), (11, 3.0)])
def test_the_symmetric_program_is_the_optimum_over_every_vertex(n, eps):
    # The reduction itself, against every vertex: the count-vector LP has the optimum.
    p = hard_prior("heavy", n)
    classes = [(p[0], 1), (p[1], 1), (p[2], n - 2)]
    assert symmetric_optimum_from_definitions(eps, classes) == pytest.approx(
        optimum_over_every_vertex(eps, p), abs=1e-10)


@pytest.mark.parametrize(("n", "eps"), [(256, 1.0), (200, 2.0), (300, 0.3)])
def test_heavy_atoms_are_certified_at_once_at_hundreds_of_inputs(n, eps):
    # Inputs of equal mass are interchangeable: the LP over count vectors certifies the
    # optimum and its orbits realise it, in the first iteration.
    p = hard_prior("heavy", n)
    expected = symmetric_optimum_from_definitions(eps, [(p[0], 1), (p[1], 1), (p[2], n - 2)])
    d = md.design(md.LDP(eps), p, method="column_generation", gap=1e-9)
    report = d.column_generation
    assert report.status == "optimal"
    assert report.iterations == 1
    assert d.audit_passed
    assert d.utility == pytest.approx(expected, abs=1e-9)
    assert report.lower_bound - 1e-11 <= expected <= report.upper_bound + 1e-11


def test_several_classes_of_equal_mass_are_certified():
    # Three classes of 12, 18 and 25 inputs plus two atoms: 25,688 count vectors.
    sizes, weights = (1, 1, 12, 18, 25), (0.3, 0.1, 0.25, 0.2, 0.15)
    p = np.concatenate([np.full(s, w / s) for s, w in zip(sizes, weights, strict=True)])
    expected = symmetric_optimum_from_definitions(
        1.0, [(w / s, s) for s, w in zip(sizes, weights, strict=True)])
    d = md.design(md.LDP(1.0), p, method="column_generation", gap=1e-8)
    assert d.column_generation.status == "optimal"
    assert d.audit_passed
    assert d.utility == pytest.approx(expected, abs=1e-8)


def value_over_patterns(eps: float, p: np.ndarray, masks: np.ndarray) -> float:
    """The LP of ``optimum_over_every_vertex`` over the given patterns only."""
    u = math.exp(-eps) + -math.expm1(-eps) * masks.astype(float)
    v = u / (u @ p)[:, None]
    mu = (v * np.log(v)) @ p
    result = linprog(-mu, A_eq=v.T, b_eq=np.ones(p.size), bounds=(0, None), method="highs")
    assert result.status == 0
    return -result.fun


@pytest.mark.parametrize("name", ["zipf", "geometric"])
def test_arcs_of_random_orders_come_closer_to_the_bound(name):
    # The arcs of one order (the index order, the master's first columns) leave 1.6e-5
    # to 4.5e-5 nats below κ at N = 64; mixing the arcs of eight random orders (the
    # heuristic's proposals) closes nine tenths of that gap at least.
    n, eps = 64, 1.0
    p = hard_prior(name, n)
    family = PatternSource(md.LDP(eps), p).families[0]
    first = np.vstack([np.eye(n, dtype=bool), balanced_arcs(p, family.arc_mass, 1, n - 1)])
    mixed = np.vstack([first, family.random_arcs(np.random.default_rng(1), 8)])
    one_order = kappa(eps) - value_over_patterns(eps, p, first)
    eight_orders = kappa(eps) - value_over_patterns(eps, p, mixed)
    assert one_order > 1e-5
    assert 0 <= eight_orders < one_order / 10


# -- merging small inputs (the coarse start of column generation) -------------------------


def information(p: np.ndarray, kernel: np.ndarray) -> float:
    """I(X; Y) in nats, from the definition."""
    joint = p[:, None] * kernel
    outputs = joint.sum(axis=0)
    positive = joint > 0
    ratio = kernel / outputs[None, :]
    return float(np.sum(joint[positive] * np.log(ratio[positive])))


def test_merged_prior_on_a_worked_example():
    # In increasing mass: 0.05 + 0.05 = 0.1 is a group, 0.1 would take it over 0.12 and
    # opens the next; 0.3 and 0.5 are at least the granularity and stay alone.
    q, labels = merged_prior([0.5, 0.3, 0.1, 0.05, 0.05], 0.12)
    np.testing.assert_allclose(q, [0.1, 0.1, 0.3, 0.5], rtol=1e-15)
    assert labels.tolist() == [3, 2, 1, 0, 0]


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 40), st.floats(0.05, 3.0), st.floats(1e-3, 1.0), st.integers(0, 2**32))
def test_merged_prior_groups_small_inputs_only(n, alpha, granularity, seed):
    p = np.random.default_rng(seed).dirichlet(np.full(n, alpha))
    p = np.maximum(p, 1e-300) / np.maximum(p, 1e-300).sum()
    q, labels = merged_prior(p, granularity)
    assert labels.shape == (n,)
    assert set(labels.tolist()) == set(range(q.size))
    np.testing.assert_allclose(q, np.bincount(labels, weights=p), rtol=1e-12, atol=1e-300)
    sizes = np.bincount(labels)
    # a large input is alone; a merged group stays within the granularity
    assert np.all(sizes[labels[p >= granularity]] == 1)
    assert np.all(q[sizes > 1] <= granularity * (1 + 1e-12))
    # greedy: two consecutive merged groups together would exceed it
    small = np.sort(q[np.bincount(labels[p < granularity], minlength=q.size) > 0])
    assert small.size <= 1 or np.all(small[:-1] + small[1:] > granularity * (1 - 1e-12))


@pytest.mark.parametrize("granularity", [0.0, -0.1, 1.5, math.nan, math.inf])
def test_merged_prior_refuses_a_bad_granularity_by_name(granularity):
    with pytest.raises(md.InvalidInputError, match="granularity"):
        merged_prior([0.5, 0.5], granularity)


@pytest.mark.parametrize(("name", "n", "eps"), [("zipf", 12, 1.0), ("geometric", 11, 0.5),
                                                ("zipf", 10, 3.0)])
def test_a_lifted_kernel_of_merged_inputs_keeps_its_information(name, n, eps):
    # Data processing, the reason the merged design is a start: the merged optimum lifts
    # to an ε-LDP kernel of the inputs with the same information, so it is at most the
    # optimum over every vertex.
    p = hard_prior(name, n)
    q, labels = merged_prior(p, 0.25)
    assert q.size < n
    merged = md.design(md.LDP(eps), q, method="enumeration")
    lifted = merged.mechanism.matrix[labels]
    assert md.ldp_level(lifted) <= eps + 1e-12
    assert information(p, lifted) == pytest.approx(information(q, merged.mechanism.matrix),
                                                   abs=1e-13)
    assert information(p, lifted) <= optimum_over_every_vertex(eps, p) + 1e-12


@pytest.mark.parametrize(("name", "n", "eps"), [("zipf", 12, 1.0), ("geometric", 12, 0.5),
                                                ("zipf", 11, 3.0)])
def test_column_generation_from_merged_inputs_reaches_the_optimum(name, n, eps, monkeypatch):
    # At N ≤ 12 no input is below 1/128: a coarser granularity (1/4) makes the merged
    # start run where every vertex can be enumerated.
    monkeypatch.setattr(patterns, "COARSENING_INPUTS", 4)
    p = hard_prior(name, n)
    coarse = PatternSource(md.LDP(eps), p).coarsened()
    assert coarse is not None
    assert coarse[0].n <= n / 2
    d = md.design(md.LDP(eps), p, method="column_generation", gap=1e-9)
    report = d.column_generation
    assert report.status == "optimal"
    assert d.audit_passed
    assert d.utility == pytest.approx(optimum_over_every_vertex(eps, p), abs=2e-9)


def test_only_epsilon_ldp_over_many_small_inputs_is_merged():
    zipf = hard_prior("zipf", 512)
    coarse = PatternSource(md.LDP(1.0), zipf).coarsened()
    assert coarse is not None
    q = np.bincount(coarse[1], weights=zipf)
    np.testing.assert_allclose(coarse[0].prior, q, rtol=1e-12)
    assert q.size <= 256
    # (ε, c)-PML's section depends on N; the heavy atoms' classes have an exact
    # symmetric optimum; a Dirichlet prior at N = 16 has few inputs below 1/128.
    assert PatternSource(md.PML(1.0, c=1 / 1024), zipf).coarsened() is None
    assert PatternSource(md.LDP(1.0), hard_prior("heavy", 512)).coarsened() is None
    dirichlet = np.random.default_rng(16).dirichlet(np.ones(16))
    assert PatternSource(md.LDP(1.0), dirichlet).coarsened() is None


@pytest.mark.slow
@pytest.mark.parametrize(("name", "n"), [("zipf", 1024), ("geometric", 512)])
def test_skewed_priors_are_certified_at_hundreds_of_inputs(name, n):
    # The merged start comes within 1e-6 nats of κ(1), so the closed-form bound
    # certifies at once: at N = 1,024 in seconds, where the arcs alone reached 3e-4
    # relative after 30 minutes.
    d = md.design(md.LDP(1.0), hard_prior(name, n), method="column_generation", gap=1e-6)
    report = d.column_generation
    assert report.status == "optimal"
    assert d.audit_passed
    assert report.upper_bound - report.lower_bound <= 1e-6
    assert report.lower_bound < kappa(1.0)
    assert d.utility == pytest.approx(report.lower_bound, abs=1e-12)
