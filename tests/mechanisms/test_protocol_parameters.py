"""The protocols' parameter functions (mechdesign.mechanisms.protocols), which the dense
kernels and the implicit oracles share: against closed forms written here, a brute-force
search, bad input refused by name and extreme ε."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import mechdesign as md
from mechdesign.kernel import column_log_ratio
from mechdesign.mechanisms.protocols import choose_subset_size, hadamard_parameters


@pytest.mark.parametrize("k", [2, 3, 7, 10, 33])
@pytest.mark.parametrize("eps", [0.1, 1.0, 3.0, 8.0])
def test_the_default_subset_size_minimises_ye_and_bargs_risk(k, eps):
    """Ye & Barg's risk at the uniform prior is proportional to
    (ω e^ε + k − ω)²/(ω (k − ω)); its smallest ω (brute force) is the default."""
    e = math.exp(eps)
    risks = {w: (w * e + k - w) ** 2 / (w * (k - w)) for w in range(1, k)}
    best = min(risks.values())
    ties = [w for w, r in risks.items() if r <= best * (1 + 1e-12)]
    assert choose_subset_size(k, eps) in ties
    assert choose_subset_size(k, eps, 1) == 1


@pytest.mark.parametrize(("k", "eps", "blocks"), [(5, 0.5, 1), (10, 2.0, 2), (10, 2.0, 4),
                                                  (40, 3.0, 8), (3, 700.0, 1), (3, 700.0, 2)])
def test_hadamard_parameters_against_the_closed_forms(k, eps, blocks):
    count, outputs, p, q, gap = hadamard_parameters(k, eps, blocks)
    assert count == blocks
    if blocks == 1:
        assert outputs == 2 ** math.ceil(math.log2(k + 1))
        assert p == pytest.approx(1 / (1 + math.exp(-eps)), rel=1e-14)
        assert q == pytest.approx(0.5, rel=0, abs=0)
        assert gap == pytest.approx(p - 0.5, rel=1e-12, abs=1e-300)
    else:
        width = 2 ** math.ceil(math.log2(k / blocks + 1))
        assert outputs == blocks * width
        expected = (-math.expm1(-eps)) / ((2 * blocks - 1) * math.exp(-eps) + 1)
        assert gap == pytest.approx(expected, rel=1e-14)
        assert p == pytest.approx(gap, rel=0, abs=0)
        assert q == pytest.approx(0.0, rel=0, abs=0)
    assert all(math.isfinite(v) for v in (p, q, gap))
    if eps <= 8:   # the dense kernel's own p − q, from its matrix and estimator
        kernel = md.hadamard_response(k, eps, blocks)
        np.testing.assert_allclose(kernel.estimator.T @ kernel.matrix.T, np.eye(k),
                                   rtol=0, atol=1e-9)


@pytest.mark.parametrize(("call", "name"), [
    (lambda: choose_subset_size(1, 1.0), "k"),
    (lambda: choose_subset_size(5, -1.0), "epsilon"),
    (lambda: choose_subset_size(5, 1.0, 5), "subset_size"),
    (lambda: choose_subset_size(5, 1.0, 0), "subset_size"),
    (lambda: hadamard_parameters(5, math.inf), "epsilon"),
    (lambda: hadamard_parameters(5, 1.0, 3), "blocks"),
    (lambda: hadamard_parameters("five", 1.0), "k"),
    (lambda: column_log_ratio([[0.5, 0.6]]), "kernel"),
])
def test_bad_input_is_refused_by_name(call, name):
    with pytest.raises(md.InvalidInputError, match=name):
        call()


def test_column_log_ratio_is_the_largest_log_ratio_over_pairs_of_rows():
    rng = np.random.default_rng(3)
    for _ in range(20):
        kernel = rng.dirichlet(np.ones(5), size=4)
        brute = max(math.log(kernel[a, y] / kernel[b, y])
                    for a, b in itertools.permutations(range(4), 2) for y in range(5))
        assert column_log_ratio(kernel) == pytest.approx(brute, rel=1e-13)
        assert md.ldp_level(kernel) == pytest.approx(brute, rel=1e-13)
    assert math.isinf(column_log_ratio([[1.0, 0.0], [0.5, 0.5]]))
    tiny = np.array([[1e-300, 1 - 1e-300], [1e-299, 1 - 1e-299]])
    assert column_log_ratio(tiny) == pytest.approx(math.log(10), rel=1e-12)
