"""Contraction coefficients of a given kernel (mechdesign.measures.contraction): η_χ² and
the maximal correlation, against the binary symmetric and Z channels, the variational
definition, and η_TV (which bounds η_χ² from above).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given

import mechdesign as md
from tests.helpers import kernels, random_kernel

# -- η_χ² ------------------------------------------------------------------------------------


@pytest.mark.parametrize("crossover", [0.0, 0.1, 0.25, 0.4, 0.5])
def test_chi_squared_contraction_of_the_binary_symmetric_channel(crossover):
    """η_χ²(BSC(δ)) = (1 − 2δ)² (Polyanskiy & Wu, Example 33.x); η_TV = |1 − 2δ|."""
    k = np.array([[1 - crossover, crossover], [crossover, 1 - crossover]])
    result = md.measures.chi_squared_contraction(k)
    assert result.lower_bound == pytest.approx((1 - 2 * crossover) ** 2, abs=1e-9)
    assert result.dobrushin_coefficient == pytest.approx(abs(1 - 2 * crossover), abs=1e-15)


@given(kernels(min_size=2, max_size=4))
@pytest.mark.slow
def test_chi_squared_contraction_is_below_dobrushin_and_certified(k):
    result = md.measures.chi_squared_contraction(k, n_starts=4)
    assert 0.0 <= result.lower_bound <= result.dobrushin_coefficient + 1e-9
    assert md.measures.maximal_correlation(k, result.prior) ** 2 == pytest.approx(
        result.lower_bound, abs=1e-12
    )


def test_maximal_correlation_against_the_variational_definition():
    """ρ_m = sup E[f(X) g(Y)] over centred unit-variance f, g: for f from the SVD and the
    best g the correlation equals the singular value, and random f never exceed it."""
    rng = np.random.default_rng(2)
    k = random_kernel(rng, 4, 3)
    p = rng.dirichlet(np.ones(4))
    rho = md.measures.maximal_correlation(k, p)
    joint = p[:, None] * k
    p_y = joint.sum(axis=0)
    best = 0.0
    for _ in range(3000):
        f = rng.normal(size=4)
        f -= p @ f
        f /= math.sqrt(p @ f**2)
        g = (joint.T @ f) / p_y  # E[f(X) | Y], the best g for this f (normalised below)
        g -= p_y @ g
        norm = math.sqrt(p_y @ g**2)
        if norm > 0:
            best = max(best, float(f @ joint @ (g / norm)))
    assert best <= rho + 1e-12
    assert best >= rho - 1e-3


def test_chi_squared_contraction_of_the_z_channel_is_a_boundary_limit():
    """Z-channel [[1 − p, p], [0, 1]]: with P = a e_0 + (1 − a) e_1, ρ_m² → 1 − p as a → 0
    (the mass of row 0 where row 1 is zero), which is η_TV, the cap: η_χ² = 1 − p, a
    supremum not attained in the interior (found by the independent reference test)."""
    k = np.array([[0.7, 0.3], [0.0, 1.0]])
    result = md.measures.chi_squared_contraction(k)
    assert result.lower_bound == pytest.approx(0.7, abs=1e-8)
    assert result.lower_bound <= 0.7 + 1e-12
