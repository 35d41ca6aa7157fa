"""The extension points' contract (issue 42): every notion × utility × column source.

cvxpy's ``solver_test_helpers`` pattern: one table of small instances, one battery run
over each. A pricing source registered in :data:`mechdesign.optimal.PRICING_SOURCES`
without an instance here fails :func:`test_every_registered_source_has_an_instance`.

For each instance and each source (the registered pricing source through
``method="column_generation"``, and vertex enumeration through ``method="enumeration"``):

- primal feasibility: a Markov kernel (rows sum to 1, entries ≥ 0) whose audited privacy
  level (``notion.level``, the notion's own measures) is within the notion's ε;
- the certificate: the vertex LP's certificate holds and column generation's bracket
  ``lower ≤ OPT ≤ upper`` closes to its gap;
- the audit: ``Design.audit_passed`` and the utility recomputed from the kernel by the
  utility's independent path (``Utility.of``) equal to the LP's value;
- agreement with enumeration: the optimum equals the one of a linear program over every
  enumerated vertex, solved here by scipy's ``linprog`` (not the package's master).

The heuristic source (:class:`~mechdesign.optimal.CddRepair`) and the estimation-optimal
design's two sources (a conic program over every vertex; column generation over ε-LDP's
patterns) have their own batteries below.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pytest
from scipy.optimize import linprog

import mechdesign as md
from mechdesign.optimal import (
    PRICING_SOURCES,
    ColumnSource,
    GainUtility,
    MutualInformationUtility,
    PricingSource,
    Utility,
    column_source,
    source_class,
)

#: Agreement of two optima (nats): column generation closes its bracket to 1e-9
#: relative (design's default gap), the vertex LP to its certificate's tolerance.
AGREE = 1e-6


@dataclass(frozen=True)
class Instance:
    id: str
    notion: md.notions.Notion
    utility: Utility


def _prior(n: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).dirichlet(np.ones(n))


_P_HAT = np.array([0.07, 0.10, 0.26, 0.57])
_BALL = md.RenyiBall(_P_HAT, 2, md.chi2_radius(100, 4, 0.05))


def _instances() -> list[Instance]:
    p4, p5 = _prior(4, 1), _prior(5, 2)
    gain = np.random.default_rng(3).uniform(-1.0, 2.0, size=(3, 4))
    return [
        Instance("ldp-mi", md.LDP(1.0), MutualInformationUtility(p5)),
        Instance("ldp-mi-eps3", md.LDP(3.0), MutualInformationUtility(p4)),
        Instance("cpml-mi", md.PML(1.0, c=1 / 10), MutualInformationUtility(p5)),
        Instance("cpml-mi-simplex", md.PML(2.5, c=0.2), MutualInformationUtility(p4)),
        Instance("nonrobust-mi", md.notions.NonRobustLDP(math.log(2), _P_HAT, (2, 2)),
                 MutualInformationUtility(_P_HAT)),
        Instance("polyopt-mi", md.RobustLDP(math.log(2), _BALL, (2, 2)),
                 MutualInformationUtility(_P_HAT)),
        Instance("ldp-bayes", md.LDP(1.0), GainUtility.bayes(p5)),
        Instance("ldp-gain", md.LDP(0.7), GainUtility(gain, p4)),
        Instance("cpml-bayes", md.PML(1.0, c=1 / 10), GainUtility.bayes(p5)),
        Instance("cpml-gain", md.PML(1.5, c=1 / 8), GainUtility(gain, p4)),
        # the clone-certified notion between its regimes (three-level peaks) and capped
        Instance("clone-mi-mixed", md.notions.CloneLDP(2.0, 0.09), MutualInformationUtility(p5)),
        Instance("clone-mi-capped", md.notions.CloneLDP(3.0, 0.06),
                 MutualInformationUtility(p4)),
        Instance("clone-gain", md.notions.CloneLDP(2.0, 0.09), GainUtility(gain, p4)),
    ]


INSTANCES = _instances()


def _prior_of(instance: Instance) -> np.ndarray:
    utility = instance.utility
    return utility.prior if utility.prior is not None else utility.p0


def _independent_optimum(instance: Instance) -> float:
    """``max Σ θ_v μ(v)`` s.t. ``Σ θ_v v = 1``, ``θ ≥ 0`` over every vertex of the section
    (cddlib's enumeration), by scipy's HiGHS interface: not the package's master LP."""
    n = instance.utility.n
    vertices = instance.notion.cone(n).vertices("cdd").points
    values = instance.utility.column_values(vertices)
    result = linprog(-values, A_eq=vertices.T, b_eq=np.ones(n), bounds=(0, None),
                     method="highs")
    assert result.status == 0, result.message
    return -result.fun


def test_every_registered_source_has_an_instance():
    covered = {(type(i.notion), type(i.utility)) for i in INSTANCES}
    assert set(PRICING_SOURCES) <= covered


def test_every_source_subclasses_the_abstract_bases():
    for (notion_type, utility_type), source in PRICING_SOURCES.items():
        assert issubclass(notion_type, md.notions.Notion)
        assert issubclass(utility_type, Utility)
        assert issubclass(source, PricingSource)
        assert issubclass(source, ColumnSource)


@pytest.mark.parametrize("instance", INSTANCES, ids=[i.id for i in INSTANCES])
def test_pricing_source_contract(instance: Instance):
    notion, utility = instance.notion, instance.utility
    prior = _prior_of(instance)
    source = source_class(notion, utility)
    assert source is PRICING_SOURCES[type(notion), type(utility)]
    assert source.supports(notion, prior)
    built = column_source(notion, utility, "column_generation")
    assert type(built) is source
    assert built.n == utility.n
    # The first columns lie in the section: H v ≥ 0 on the cone, Σ v = 1.
    columns = built.initial_columns()
    h = notion.cone(utility.n).h_representation()
    assert np.all(h @ columns.T >= -1e-9)
    np.testing.assert_allclose(columns.sum(axis=1), 1.0, atol=1e-12)


@pytest.mark.parametrize("method", ["column_generation", "enumeration"])
@pytest.mark.parametrize("instance", INSTANCES, ids=[i.id for i in INSTANCES])
def test_design_contract(instance: Instance, method: str):
    notion, utility = instance.notion, instance.utility
    d = md.design(notion, utility=utility, method=method)
    kernel = d.mechanism.matrix
    # Primal feasibility, by the notion's own audit.
    assert np.all(kernel >= 0)
    np.testing.assert_allclose(kernel.sum(axis=1), 1.0, atol=1e-9)
    assert notion.level(kernel) <= notion.epsilon + 1e-7
    # The certificate and the audit.
    assert d.certificate.holds
    assert d.audit_passed
    assert d.utility == pytest.approx(utility.of(d.mechanism), abs=1e-9)
    if method == "column_generation":
        report = d.column_generation
        assert report is not None
        assert report.status == "optimal"
        assert report.lower_bound <= report.upper_bound + 1e-12
        assert report.upper_bound - report.lower_bound <= AGREE
    # Agreement with an LP over every vertex, solved outside the package.
    assert d.utility == pytest.approx(_independent_optimum(instance), abs=AGREE)


#: Where the vertices off the optimum's support still make a feasible first master (at
#: cpml-mi-simplex the section is the simplex: every vertex is in the support).
_REPAIRABLE = [i for i in INSTANCES if i.id in ("ldp-mi", "ldp-mi-eps3", "cpml-mi")]


@pytest.mark.parametrize("instance", _REPAIRABLE, ids=[i.id for i in _REPAIRABLE])
def test_cdd_repair_contract(instance: Instance):
    """The heuristic source (:class:`~mechdesign.optimal.CddRepair`), given a vertex set
    without the optimum's support, finds improving columns in the section and column
    generation's lower bound never exceeds the optimum (its pricing is not exact, so no
    upper bound is claimed)."""
    from mechdesign.notions.cones import VertexSet
    from mechdesign.optimal import CddRepair, run_column_generation, solve_vertex_lp

    notion, utility = instance.notion, instance.utility
    n = utility.n
    cone = notion.cone(n)
    h = cone.h_representation()
    points = cone.vertices("cdd").points
    values = utility.column_values(points)
    weights, _, _ = solve_vertex_lp(points, values, None)
    kept = points[weights <= 1e-12]
    source = CddRepair(VertexSet(kept, "cdd", 0.0, missed=1), h, utility)
    assert isinstance(source, ColumnSource)
    assert not source.exact
    run = run_column_generation(source, gap=1e-9)
    optimum = _independent_optimum(instance)
    assert run.lower <= optimum + 1e-9
    assert run.upper >= optimum - 1e-9
    columns = run.master.columns
    assert np.all(columns @ h.T >= -1e-9)
    np.testing.assert_allclose(columns.sum(axis=1), 1.0, atol=1e-9)


#: Estimation-optimal design (a convex utility to minimise, not a sublinear one): its
#: sources are enumeration (a conic program over every vertex) and, for ε-LDP, column
#: generation over the two-level patterns (LdpQuadraticPricing).
_ESTIMATION = [
    ("ldp-histogram", md.LDP(1.0), md.EstimationError(), 5),
    ("ldp-prefix", md.LDP(0.8), md.EstimationError("prefix"), 5),
    ("ldp-queries", md.LDP(1.5), md.EstimationError(
        np.random.default_rng(7).normal(size=(6, 4))), 4),
]


@pytest.mark.parametrize(("name", "notion", "error", "n"), _ESTIMATION,
                         ids=[e[0] for e in _ESTIMATION])
def test_estimation_design_contract(name, notion, error, n):
    prior = _prior(n, 11)
    designs = {method: md.design(notion, prior, utility=error, method=method)
               for method in ("enumeration", "column_generation")}
    for d in designs.values():
        kernel = d.mechanism.matrix
        assert np.all(kernel >= 0)
        np.testing.assert_allclose(kernel.sum(axis=1), 1.0, atol=1e-9)
        assert notion.level(kernel) <= notion.epsilon + 1e-7
        assert d.audit_passed
        report = d.estimation
        assert report.status == "optimal"
        assert report.lower_bound <= report.upper_bound
        # The error of the kernel, recomputed from it alone, is the certified upper end.
        assert d.utility == pytest.approx(error.of(d.mechanism, prior), rel=1e-9)
        assert d.utility == pytest.approx(report.upper_bound, rel=1e-12)
    # Both sources certify the same optimum: each one's kernel lies within the other's
    # bracket.
    enumerated, generated = designs["enumeration"], designs["column_generation"]
    assert generated.utility >= enumerated.estimation.lower_bound - 1e-9
    assert enumerated.utility >= generated.estimation.lower_bound - 1e-9
