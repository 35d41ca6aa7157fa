"""Column generation (issue 7, first part): exact ε-LDP pricing against brute force over
all 2^N − 2 vertices, and column-generation designs against full enumeration."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import mechdesign as md
from mechdesign.colgen import ldp_column, price_ldp
from mechdesign.notions import ldp_cone_vertices


def brute_force_best(epsilon, prior, dual):
    """Max reduced cost μ(v) − λ·v over every LDP vertex, with μ computed from the
    definition of mutual information of one column (not from the oracle's φ)."""
    best = -np.inf
    n = len(prior)
    for bits in itertools.product([False, True], repeat=n):
        b = np.array(bits)
        if b.all() or not b.any():
            continue
        v = np.where(b, np.exp(epsilon), 1.0)
        v = v / v.sum()
        p_y = prior @ v
        mu = sum(prior[x] * v[x] * np.log(v[x] / p_y) for x in range(n) if prior[x] > 0)
        best = max(best, mu - v @ dual)
    return best


# The instance on which pricing by sorted orders fails (φ is concave): the best set is
# {0} (reduced cost 0.10860), sorted orders return {0, 1} (0.09744).
COUNTEREXAMPLE = (
    2.203639571715931,
    np.array([0.21890661, 0.02474646, 0.54764933, 0.15481097, 0.0, 0.05388663]),
    np.array([-0.01294416, -0.06746195, 0.04670742, 0.03309781, 0.14247482, -0.00469684]),
)


def random_instances(count, seed):
    rng = np.random.default_rng(seed)
    for t in range(count):
        n = int(rng.integers(2, 9))
        eps = float(rng.uniform(0.05, 4))
        p = rng.dirichlet(np.ones(n) * rng.uniform(0.2, 2))
        if t % 4 == 0:
            p[rng.integers(n)] = 0
            p = p / p.sum()
        yield eps, p, rng.normal(size=n) * rng.uniform(0.01, 1)


@pytest.mark.parametrize(
    ("epsilon", "prior", "dual"), [COUNTEREXAMPLE, *random_instances(40, seed=7)]
)
def test_exact_pricing_agrees_with_brute_force(epsilon, prior, dual):
    pricing = price_ldp(epsilon, prior, dual)
    assert pricing.reduced_cost == pytest.approx(brute_force_best(epsilon, prior, dual),
                                                 abs=1e-10)
    v = ldp_column(epsilon, pricing.pattern)
    p_y = prior @ v
    positive = prior > 0
    mu = float(np.sum(prior[positive] * v[positive] * np.log(v[positive] / p_y)))
    assert mu - v @ dual == pytest.approx(pricing.reduced_cost, abs=1e-12)


def test_counterexample_best_set_is_a_singleton():
    pricing = price_ldp(*COUNTEREXAMPLE)
    assert pricing.pattern.tolist() == [True, False, False, False, False, False]
    assert pricing.reduced_cost == pytest.approx(0.10860, abs=1e-5)


def test_ldp_column_is_a_closed_form_vertex():
    cone = md.LDP(1.1).cone(4)
    vertices = ldp_cone_vertices(cone)
    for code in range(1, 15):
        b = np.array([(code >> i) & 1 for i in range(4)], dtype=bool)
        v = ldp_column(1.1, b)
        assert np.min(np.abs(vertices - v).max(axis=1)) < 1e-15


@pytest.mark.parametrize("n", [3, 5, 8])
@pytest.mark.parametrize("epsilon", [0.3, 1.0, 2.5])
def test_column_generation_matches_enumeration(n, epsilon):
    prior = np.random.default_rng(n).dirichlet(np.ones(n))
    full = md.design(md.LDP(epsilon), prior)
    cg = md.design(md.LDP(epsilon), prior, method="column_generation")
    report = cg.column_generation
    assert cg.utility == pytest.approx(full.utility, abs=1e-9)
    assert report.status == "optimal"
    assert report.exact_pricing
    # The certified bracket contains the enumerated optimum.
    assert report.lower_bound - 1e-12 <= full.utility <= report.upper_bound + 1e-12
    assert report.gap <= 1e-9
    gaps = [upper - lower for lower, upper in report.history]
    assert all(b <= a + 1e-12 for a, b in itertools.pairwise(gaps))
    assert cg.certificate.holds
    assert cg.audit_passed
    assert cg.summary()["optimality"] == "optimal"


def test_column_generation_is_reproducible():
    prior = np.array([0.1, 0.2, 0.3, 0.15, 0.25])
    a = md.design(md.LDP(0.8), prior, method="column_generation")
    b = md.design(md.LDP(0.8), prior, method="column_generation")
    assert a.utility == b.utility
    assert np.array_equal(a.mechanism.matrix, b.mechanism.matrix)
    assert a.column_generation.history == b.column_generation.history


def test_column_generation_refusals():
    prior = np.full(4, 0.25)
    with pytest.raises(NotImplementedError, match="exact pricing"):
        md.design(md.PML(1.0, c=0.1), prior, method="column_generation")
    with pytest.raises(md.InvalidInputError, match="epsilon"):
        md.design(md.LDP(0.0), prior, method="column_generation")
    with pytest.raises(md.InvalidInputError, match="method"):
        md.design(md.LDP(1.0), prior, method="simplex")
    with pytest.raises(md.InvalidInputError, match="dual"):
        price_ldp(1.0, prior, [1.0, 2.0])
    with pytest.raises(md.InvalidInputError, match="pattern"):
        ldp_column(1.0, [True, True, True])
