"""The Dobrushin paper's reproduction (mechdesign.reproduce.dobrushin): the helpers that
build its checks. Its items at the quick settings are run in
tests/reproduce/test_reproduce.py.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import mechdesign as md
from mechdesign.reproduce import dobrushin

# -- Dobrushin helpers ---------------------------------------------------------------------


def test_xi_printed_values():
    assert dobrushin.xi_printed(math.log(10 / 3), 0.05, 10) == pytest.approx(7 / 8, rel=1e-14)
    assert dobrushin.xi_printed(math.log(10 / 3), 0.1, 5) == pytest.approx(7 / 8, rel=1e-14)
    assert dobrushin.xi_printed(math.log(2 / (10 * 0.05)), 0.05, 10) == (
        pytest.approx(1.0, abs=1e-12)
    )
    assert dobrushin.xi_printed(0.0, 0.05, 10) == pytest.approx(0.0, abs=1e-12)
    for eps, c, n in ((0.3, 0.01, 4), (1.7, 0.2, 3), (3.0, 0.001, 10)):
        assert dobrushin.xi_printed(eps, c, n) == pytest.approx(
            md.dobrushin_bound(eps, c, n), rel=1e-12, abs=1e-15
        )


def test_example1_kernel_is_stochastic_and_tends_to_warner():
    k = dobrushin.example1_kernel(1.0, 0.1)
    np.testing.assert_allclose(k.sum(axis=1), 1.0, rtol=0, atol=1e-15)
    assert md.pml_capacity(k, 0.1) == pytest.approx(1.0, rel=1e-12, abs=0)
    np.testing.assert_allclose(
        dobrushin.example1_kernel(0.7, 1e-14), md.randomized_response(2, 0.7).matrix,
        rtol=0, atol=1e-12,
    )


def test_remark2_column_valid_and_invalid_q():
    eps, c, n = math.log(10 / 3), 0.05, 10
    p = dobrushin.remark2_column(eps, c, n, 5)
    assert p.shape == (10,)
    assert np.all((p >= 0) & (p <= 1))
    assert p[0] - p[-1] == pytest.approx(7 / 8, rel=1e-12, abs=0)
    assert dobrushin.remark2_column(eps, c, n, 1)[0] == pytest.approx(19 / 16, rel=1e-12, abs=0)


def test_example3_pair_has_tv_two_delta():
    p0, p1 = dobrushin.example3_pair(0.1)
    assert p0.sum() == pytest.approx(1, abs=1e-15)
    assert p1.sum() == pytest.approx(1, abs=1e-15)
    assert md.total_variation(p0, p1) == pytest.approx(0.2, rel=1e-14, abs=0)


def test_sample_pairs_lie_in_q_x_c_and_spread_tv():
    p, q = dobrushin.sample_pairs(10, 0.05, 500, np.random.default_rng(0))
    assert p.shape == q.shape == (500, 10)
    for m in (p, q):
        assert np.all(m >= 0.05 - 1e-15)
        np.testing.assert_allclose(m.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    tv = 0.5 * np.abs(p - q).sum(axis=1)
    assert tv.max() <= 0.5 + 1e-12
    assert tv.max() > 0.3
    assert tv.min() < 0.02


def test_last_crossing():
    t = np.array([0.0, 0.1, 0.2, 0.3])
    crossing = dobrushin.last_crossing(t, np.array([2, 2, 1, 1]), np.array([1, 1, 2, 2]))
    assert crossing == 0.1  # exact: a point of the grid t
    assert math.isnan(dobrushin.last_crossing(t, np.zeros(4), np.ones(4)))


def test_fig1_checks_detect_a_violated_bound():
    tv = np.array([0.1, 0.2])
    good = {"tv": tv, "divergence": np.array([0.01, 0.02]), "ours": np.array([0.1, 0.2]),
            "asoodeh": np.array([1.0, 1.0]), "duchi": np.array([1.0, 1.0])}
    bad = dict(good, divergence=np.array([0.01, 0.3]))
    assert all(c.matched for c in dobrushin.fig1_checks(good, good, 101)[:3])
    checks = dobrushin.fig1_checks(bad, bad, 101)
    assert not checks[0].matched
    assert not checks[-1].matched
    assert checks[0].status == "differs"
