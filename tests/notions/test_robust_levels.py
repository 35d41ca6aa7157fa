"""Exact robust-LDP audits (mechdesign.notions.robust_levels) at extreme valid input.

The independent joint-space optimisation of the audit is tests/test_robust_reference.py.
"""

from __future__ import annotations

import pytest

import mechdesign as md
from tests.helpers import K4


@pytest.mark.parametrize("tiny", [5e-324, 1e-300])
def test_robust_level_with_a_tiny_secret_mass(tiny):
    # P̂_s → 0 makes F_{U|s} the whole simplex: the level tends to the secret-LDP level
    # of the kernel over all distributions, which bounds it.
    ball = md.RenyiBall([0.5, 0.5, tiny, tiny], 2.0, 0.05)
    level = md.robust_ldp_level(K4, ball, (2, 2))
    whole = md.notions.secret_ldp_level(K4, (2, 2))
    assert float(level) == pytest.approx(whole, rel=1e-9)
    assert md.notions.projection_level(K4, ball, (2, 2)) == pytest.approx(whole, rel=1e-9)
