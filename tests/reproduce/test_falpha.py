"""The f_α paper's reproduction (mechdesign.reproduce.falpha): the transcriptions and
helpers that build its checks. Its items at the quick settings are run in
tests/reproduce/test_reproduce.py.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import mechdesign as md
from mechdesign.reproduce import falpha

# -- f_α helpers ---------------------------------------------------------------------------


@pytest.mark.parametrize("alpha", [1.5, 2.0, 4.0, 10.0])
def test_g_alpha_printed_is_the_library_bound(alpha):
    t = np.linspace(0.0, 0.99, 199)
    printed = np.array([falpha.g_alpha_printed(x, alpha) for x in t])
    np.testing.assert_allclose(printed, md.measures.pinsker_f_alpha(t, alpha), rtol=1e-12,
                               atol=1e-15)


def test_g_alpha_inverse_printed_agrees_except_in_the_h1_gap():
    for alpha in (2.0, 3.0, 10.0):
        for s in np.linspace(0.0, 5.0, 51):
            assert falpha.g_alpha_inverse_printed(s, alpha) == pytest.approx(
                md.measures.pinsker_f_alpha_inverse(s, alpha), rel=1e-12, abs=1e-15
            )
    assert falpha.g_alpha_inverse_printed(0.6, 1.5) == pytest.approx(0.685568, abs=1e-6)
    assert md.measures.pinsker_f_alpha_inverse(0.6, 1.5) == pytest.approx(2 / 3, rel=1e-15)


def test_r_alpha_and_equation1_transcriptions():
    assert falpha.r_alpha_printed(2.0, 0.5, 2.0) == pytest.approx(
        md.measures.reverse_pinsker_f_alpha(2.0, 0.5, 2.0), rel=1e-12
    )
    p, q = [0.2, 0.8], [0.6, 0.4]
    assert falpha.renyi_from_f_alpha_printed(md.measures.f_alpha_divergence(p, q, 3.0), 3.0) == (
        pytest.approx(md.renyi_divergence(p, q, 3.0), rel=1e-12)
    )


def test_example12_gamma_and_channels():
    assert falpha.example12_gamma(math.log(10), 50) == pytest.approx(1.18, rel=1e-14)
    assert falpha.example12_gamma(math.log(6), 2) == pytest.approx(3.5, rel=1e-14)
    assert md.bounds.disjoint_support_pair(falpha.example12_channel(20, 2)) is not None
    circulant = falpha.example12_channel(5, 2).matrix
    assert falpha.is_k_singular(circulant, 2)
    np.testing.assert_allclose(circulant.sum(axis=0), 1.0, rtol=0, atol=1e-15)


def test_k_singular_examples_and_the_fano_plane():
    assert falpha.is_k_singular(falpha.EXAMPLE5_P, 3)
    assert falpha.is_k_singular(falpha.EXAMPLE5_Q, 2)
    assert not falpha.is_k_singular(falpha.EXAMPLE5_P, 2)
    np.testing.assert_array_equal(
        falpha.EXAMPLE5_P,
        md.reproduce.PAPER_EXAMPLES["falpha-example5-P"].mechanism.matrix,
    )
    fano = falpha.fano_plane_channel()
    assert falpha.is_k_singular(fano, 3)
    assert md.bounds.disjoint_support_pair(fano) is None


def test_alpha_ranges():
    alphas = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    assert falpha.alpha_ranges(alphas, np.array([1, 1, 0, 1, 0], bool)) == "1.00–2.00, 4.00"
    assert falpha.alpha_ranges(alphas, np.zeros(5, bool)) == "none"
    assert falpha.alpha_ranges(alphas, np.ones(5, bool)) == "1.00–5.00"


def test_fig2_checks_detect_a_bound_below_the_truth():
    alphas = np.array([2.0, 5.0, 10.0])
    panel = {
        "alpha": alphas,
        "bound": np.array([0.5, 0.6, 0.4]),
        "first": np.array([1.0, 1.0, 1.0]),
        "true": np.array([0.2, 0.3, 0.35]),
    }
    assert all(c.matched for c in falpha.fig2_checks("x", panel, "test"))
    broken = dict(panel, true=np.array([0.2, 0.7, 0.35]), first=np.array([0.1, 0.1, 0.1]))
    valid, amplifies, _ = falpha.fig2_checks("x", broken, "test")
    assert not valid.matched
    assert not amplifies.matched
    assert "none" in amplifies.computed
