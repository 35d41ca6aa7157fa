"""Gain utilities (mechdesign.optimal.utilities, issue 21): a loss is the gain max minus
the loss, and bad input is refused by name.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import mechdesign as md
from mechdesign.errors import InvalidInputError
from mechdesign.optimal import GainUtility
from tests.helpers import best_gain_by_strategies, positive_random_kernel


def test_a_loss_is_the_gain_max_minus_loss():
    rng = np.random.default_rng(3)
    n = 4
    k, p = positive_random_kernel(rng, n, 3), rng.dirichlet(np.ones(n))
    loss = np.abs(np.subtract.outer(np.arange(n), np.arange(n))).astype(float)  # |w − x|
    utility = GainUtility.from_loss(loss, p)
    # Smallest expected loss over guessing strategies, by brute force.
    smallest = -best_gain_by_strategies(k, p, -loss)
    assert utility.of(md.Mechanism(k)) == pytest.approx(loss.max() - smallest, rel=1e-12)


def test_gain_utility_refuses_bad_input_by_name():
    with pytest.raises(InvalidInputError, match="gain"):
        GainUtility(np.ones((2, 3)), [0.5, 0.5])
    with pytest.raises(InvalidInputError, match="gain"):
        GainUtility([[1.0, math.nan]], [0.5, 0.5])
    with pytest.raises(InvalidInputError, match="prior"):
        GainUtility.bayes([0.5, 0.6])
    with pytest.raises(InvalidInputError, match="gain"):
        md.measures.g_vulnerability(np.eye(2), [0.5, 0.5], [1.0, 0.0])
    with pytest.raises(InvalidInputError, match="utility"):
        md.design(md.LDP(1.0), [0.5, 0.5], utility="bayes vulnerability")
    with pytest.raises(InvalidInputError, match="utility"):
        md.design(md.LDP(1.0), [0.5, 0.5], utility=42)
