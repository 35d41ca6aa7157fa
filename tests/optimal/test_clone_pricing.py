"""Column generation over the clone-certified notion (``CloneLDP``): the peak family's
sorting against brute force, and every utility's column-generation design against
enumeration in each of the notion's regimes."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import mechdesign as md
from mechdesign.notions import CloneLDP, clone_levels
from mechdesign.optimal import EstimationError
from mechdesign.optimal.patterns import PeakFamily


def test_the_peak_familys_linear_maximum_is_the_brute_forces():
    rng = np.random.default_rng(11)
    n = 6
    levels = clone_levels(2.0, 0.09)
    assert levels.regime == "mixed"
    family = PeakFamily(np.full(n, 1.0 / n), levels.low, levels.middle)
    scores = rng.standard_normal((20, n))
    z, value = family.linear_maximum(scores)
    for row, d in enumerate(scores):
        best = -math.inf
        for h in range(n):
            rest = [x for x in range(n) if x != h]
            for size in range(0, n - 1):
                for middle in itertools.combinations(rest, size):
                    u = np.full(n, levels.low)
                    u[list(middle)] = levels.middle
                    u[h] = 1.0
                    best = max(best, d @ u / u.sum())
        assert value[row] == pytest.approx(best, rel=1e-12)
        point = family.points(z[row:row + 1])[0]
        assert d @ point == pytest.approx(best, rel=1e-12)


REGIMES = [(2.0, 0.0), (2.0, 0.09), (2.0, 1 / (math.exp(2.0) + 1)), (1.0, 0.3)]


@pytest.mark.parametrize(("eps", "r"), REGIMES)
@pytest.mark.parametrize("utility", ["mutual_information", "bayes"])
def test_column_generation_meets_enumeration(eps, r, utility):
    prior = np.random.default_rng(5).dirichlet(np.ones(7))
    notion = CloneLDP(eps, r)
    enumerated = md.design(notion, prior, utility=utility, method="enumeration")
    generated = md.design(notion, prior, utility=utility, method="column_generation")
    assert generated.audit_passed
    assert enumerated.audit_passed
    assert generated.utility == pytest.approx(enumerated.utility, rel=1e-7, abs=1e-9)


@pytest.mark.parametrize(("eps", "r"), [(2.0, 0.0), (2.0, 1 / (math.exp(2.0) + 1)),
                                        (4.0, 0.027), (1.0, 0.3)])
@pytest.mark.parametrize("workload", ["histogram", "prefix"])
def test_estimation_column_generation_meets_enumeration(eps, r, workload):
    prior = np.random.default_rng(6).dirichlet(np.ones(7))
    notion = CloneLDP(eps, r)
    error = EstimationError(workload=workload)
    enumerated = md.design(notion, prior, utility=error, method="enumeration")
    generated = md.design(notion, prior, utility=error, method="column_generation")
    assert generated.audit_passed
    assert generated.estimation.status is md.Status.OPTIMAL
    assert generated.utility == pytest.approx(enumerated.utility, rel=1e-7)
    assert generated.estimation.lower_bound <= enumerated.utility * (1 + 1e-9)


def test_estimation_between_the_regimes_is_refused_for_column_generation():
    with pytest.raises(md.UnsupportedError, match="mixed regime"):
        md.design(CloneLDP(2.0, 0.09), np.full(5, 0.2), utility="mse",
                  method="column_generation")
