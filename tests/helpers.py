"""What several test modules share: the repository root, hypothesis strategies, small valid
inputs, and helpers written once for tests that now live in different files.

Test modules import from here (``from tests.helpers import ...``), never from each other.
"""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import strategies as st

import mechdesign as md

#: The repository's root (the folder holding mechdesign/, tests/, docs/, benchmarks/).
ROOT = Path(__file__).resolve().parents[1]


@st.composite
def distributions(
    draw, n: int | None = None, *, min_size: int = 2, max_size: int = 6, allow_zeros: bool = True
) -> np.ndarray:
    """Probability vectors, sometimes with exact zeros.

    Non-zero weights are at least 1e-6 before normalising: products of smaller numbers
    underflow inside ``p @ K``, and a property that fails only through that underflow
    tests floating point, not the library. Extreme values have their own unit tests.
    """
    size = n if n is not None else draw(st.integers(min_size, max_size))
    weights = np.array(draw(st.lists(st.floats(1e-6, 1.0), min_size=size, max_size=size)))
    if allow_zeros and draw(st.booleans()):
        zero_mask = np.array(draw(st.lists(st.booleans(), min_size=size, max_size=size)))
        weights = np.where(zero_mask, 0.0, weights)
    if weights.sum() <= 1e-6:
        weights[draw(st.integers(0, size - 1))] = 1.0
    return weights / weights.sum()


@st.composite
def kernels(
    draw,
    n: int | None = None,
    m: int | None = None,
    *,
    min_size: int = 2,
    max_size: int = 5,
    allow_zeros: bool = True,
) -> np.ndarray:
    """Row-stochastic matrices (rows are inputs), sometimes with zeros."""
    rows = n if n is not None else draw(st.integers(min_size, max_size))
    cols = m if m is not None else draw(st.integers(min_size, max_size))
    return np.array([draw(distributions(cols, allow_zeros=allow_zeros)) for _ in range(rows)])


def random_kernel(rng: np.random.Generator, n: int, m: int, zeros: float = 0.0) -> np.ndarray:
    """A random kernel; each entry is zeroed with probability ``zeros`` (rows kept valid)."""
    k = rng.random((n, m))
    k[rng.random((n, m)) < zeros] = 0.0
    k[k.sum(axis=1) == 0, 0] = 1.0
    return k / k.sum(axis=1, keepdims=True)


# Small valid inputs the bad-input tests (test_fuzz, test_hardening and each module's
# hardening tests) build their calls from; test_fuzz's repro lines name them.
K2 = np.array([[0.75, 0.25], [0.25, 0.75]])
K3 = np.array([[0.6, 0.3, 0.1], [0.2, 0.5, 0.3], [0.1, 0.2, 0.7]])
K32 = np.array([[0.7, 0.3], [0.4, 0.6], [0.2, 0.8]])
K23 = np.array([[0.6, 0.3, 0.1], [0.1, 0.3, 0.6]])
P3 = np.array([0.5, 0.3, 0.2])
Q3 = np.array([0.2, 0.3, 0.5])
PHAT = np.array([0.07, 0.1, 0.26, 0.57])


# -- the PolyOpt instance on which cddlib silently lost vertices (notions/test_cones.py,
# optimal/test_pipeline.py) --------------------------------------------------------------

# The 2 × 6 PolyOpt instance on which floating-point cddlib silently lost vertices:
# repetition 3 of the synthetic experiment (seed [2024, 2, 6, 3]), n = 32,561 samples.
SILENT_LOSS_COUNTS = [85, 11767, 282, 7458, 4087, 161, 3477, 542, 3131, 771, 632, 168]
#: The optimum over the 1,295 vertices that cddlib's exact GMP arithmetic (pycddlib with
#: cdd.gmp, on the same floating-point H-representation taken exactly) enumerates,
#: measured outside the test suite (pycddlib-standalone has no GMP).
SILENT_LOSS_EXACT_OPTIMUM = 1.5646057763597945


def silent_loss_notion():
    p_hat = np.array(SILENT_LOSS_COUNTS) / 32_561
    ball = md.RenyiBall(p_hat, 2.0, md.chi2_radius(32_561, 12, 0.05))
    return md.RobustLDP(3.0, ball, (2, 6), variant="paper"), p_hat


# -- shared by the column-generation tests (optimal/test_*.py) ---------------------------

def mutual_information_of_columns(prior, columns):
    """μ(v) = Σ_x P_x v_x log(v_x / P·v) from the definition, one column at a time."""
    out = []
    for v in columns:
        p_y = prior @ v
        out.append(sum(prior[x] * v[x] * math.log(v[x] / p_y)
                       for x in range(len(prior)) if prior[x] > 0 and v[x] > 0))
    return np.array(out)


def ldp_vertices_by_bits(epsilon, n):
    rows = []
    for bits in itertools.product([False, True], repeat=n):
        b = np.array(bits)
        if b.all() or not b.any():
            continue
        v = np.where(b, np.exp(epsilon), 1.0)
        rows.append(v / v.sum())
    return np.array(rows)




def robust_instances():
    rng = np.random.default_rng(21)
    for shape in [(2, 3), (3, 2), (2, 4), (3, 3)]:
        p_hat = rng.dirichlet(np.ones(shape[0] * shape[1]))
        if shape == (3, 3):
            p_hat[4] = 0.0  # a cell the estimate never saw
            p_hat /= p_hat.sum()
        n_samples = int(rng.integers(200, 2000))
        ball = md.RenyiBall(p_hat, 2.0, md.chi2_radius(n_samples, p_hat.size, 0.05))
        eps = float(rng.choice([0.5, 1.0, 2.0]))
        yield pytest.param(eps, p_hat, ball, shape, id=f"{shape}-eps{eps}")



P4 = np.full(4, 0.25)


def best_gain_by_strategies(kernel, prior, gain):
    """max over every deterministic guessing strategy y → w of E[g(w(Y), X)]."""
    k = np.asarray(kernel, dtype=float)
    n_out, n_guess = k.shape[1], gain.shape[0]
    best = -math.inf
    for strategy in itertools.product(range(n_guess), repeat=n_out):
        value = sum(prior[x] * k[x, y] * gain[strategy[y], x]
                    for x in range(k.shape[0]) for y in range(n_out))
        best = max(best, value)
    return best


def positive_random_kernel(rng, n, m):
    k = rng.random((n, m)) + 1e-3
    return k / k.sum(axis=1, keepdims=True)

BALL = md.RenyiBall(PHAT, 2.0, 0.05)
K4 = md.mechanisms.secret_randomized_response((2, 2), 1.0).matrix


# -- samplers (md.audit_samples and mechdesign audit-samples) --------------------------


def krr_sampler(k, stay):
    """Randomized response that keeps the input with probability ``stay`` and otherwise
    reports one of the other k − 1 values uniformly, vectorised."""

    def sample(x, size, rng):
        other = (x + rng.integers(1, k, size=size)) % k
        return np.where(rng.random(size) < stay, x, other)

    return sample


def opendp_480(k, eps):
    """OpenDP #480: P(y = x) = p + (1 − p) p instead of p = e^ε/(e^ε + k − 1)."""
    p = math.exp(eps) / (math.exp(eps) + k - 1)
    return krr_sampler(k, p + (1 - p) * p), p
