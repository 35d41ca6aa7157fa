"""Robust pricing (mechdesign.optimal.robust.pricing): the compact robust section equals
the ratio cone, PolyOpt's section lies in the non-robust one, closed-form section
membership matches the H-representations, and the linearisation source refuses what it
does not price.
"""

from __future__ import annotations

import numpy as np
import pytest

import mechdesign as md
from mechdesign.optimal import (
    LinearisationSource,
    PatternSource,
)
from tests.helpers import P4


def test_compact_robust_section_equals_the_ratio_cone():
    # The (v, hi, lo) section of LinearisationSource against the H-representation of
    # PolyOpt's cone (eq. 41, every vertex pair): same LP optimum in random directions.
    from mechdesign.notions.cones import section_argmax

    rng = np.random.default_rng(8)
    shape = (3, 3)
    p_hat = rng.dirichlet(np.ones(9))
    ball = md.RenyiBall(p_hat, 2.0, md.chi2_radius(500, 9, 0.05))
    for variant in ("default", "paper"):
        notion = md.RobustLDP(1.0, ball, shape, variant=variant)
        source = LinearisationSource(notion, p_hat)
        h = notion.cone(9).h_representation()
        for direction in rng.normal(size=(10, 9)):
            compact = source._argmax(direction)
            full = section_argmax(h, direction)
            assert direction @ compact == pytest.approx(direction @ full, abs=1e-9)
            assert np.all(compact @ h.T >= -1e-9)


def test_polyopt_section_lies_in_the_non_robust_section():
    # The relaxation behind PolyOpt's upper bound: Γ_ε ⊆ Γ_NR because P̂_U|s ∈ D_s.
    rng = np.random.default_rng(9)
    p_hat = rng.dirichlet(np.ones(8))
    ball = md.RenyiBall(p_hat, 2.0, md.chi2_radius(300, 8, 0.05))
    vertices = md.RobustLDP(0.7, ball, (2, 4)).cone(8).vertices("cdd").points
    h_nr = md.notions.NonRobustLDP(0.7, p_hat, (2, 4)).cone(8).h_representation()
    assert np.all(vertices @ h_nr.T >= -1e-12)


def test_closed_form_section_membership_matches_the_h_representations():
    # LinearisationSource._contains and _NonRobustFamily.contains (used to surround the
    # uniform point) against the cones' full H-representations, on random points near and
    # far from the uniform one.
    rng = np.random.default_rng(12)
    p_hat = rng.dirichlet(np.ones(9))
    ball = md.RenyiBall(p_hat, 2.0, md.chi2_radius(500, 9, 0.05))
    points = [np.full(9, 1 / 9) + t * rng.normal(size=9) / 9 for t in (0.05, 0.2, 0.5)
              for _ in range(60)]
    points = [v / v.sum() for v in points]
    for variant in ("default", "paper"):
        notion = md.RobustLDP(1.0, ball, (3, 3), variant=variant)
        source = LinearisationSource(notion, p_hat)
        h = notion.cone(9).h_representation()
        for v in points:
            margin = float(np.min(h @ v))
            if abs(margin) > 1e-9:
                assert source._contains(v) == (margin >= 0)
    nr = md.notions.NonRobustLDP(1.0, p_hat, (3, 3))
    family = PatternSource(nr, p_hat).families[0]
    h = nr.cone(9).h_representation()
    for v in points:
        margin = float(np.min(h @ v))
        if abs(margin) > 1e-9:
            assert family.contains(v) == (margin >= 0)


def test_linearisation_oracle_refuses_a_valid_notion_it_does_not_price():
    with pytest.raises(md.UnsupportedError, match="RobustLDP"):
        LinearisationSource(md.LDP(1.0), P4)
