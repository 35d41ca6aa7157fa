"""The estimation design at the uniform prior, by symmetry: exact at any N, certified in
``O(N)``, realised as a weighted cyclic design.

**When.** ε-LDP (finite ε), a uniform prior, and a workload whose Gram matrix is
invariant under every permutation of the inputs, ``WᵀW = αI + β11ᵀ`` (the histogram,
``W = I``). Then the A-optimal program (:mod:`mechdesign.optimal.estimation`) is invariant
under the symmetric group acting on the inputs: the section ``{v : v_i ≤ e^ε v_j,
p·v = 1}``, the constraints ``Σ θ_v v = 1`` and ``F(J) = tr(WᵀW J⁻¹)`` all are.

**The optimum.** ``F`` is convex, so averaging an optimal design over all permutations
gives an optimal design that is itself invariant: a mixture, with weights ``ω_d``, of
the *orbits* "every size-``d`` pattern, equally weighted" (subset selection with
``d``). With ``ℓ = e^{−ε}`` and ``u = ℓ + (1 − ℓ) z`` (two levels; the vertex is
``v = u/s``, ``s = p·u``), the orbit ``d`` has ``J_d = E[v vᵀ] = a_d I + b_d 11ᵀ`` with

.. math::

    s_d = \\ell + (1 - \\ell)\\tfrac dN,\\quad
    s_d^2 (a_d + b_d) = \\tfrac dN + (1 - \\tfrac dN)\\ell^2,\\quad
    s_d^2 b_d = \\tfrac{d(d-1) + 2 d (N-d) \\ell + (N-d)(N-d-1)\\ell^2}{N(N-1)} .

Every vertex has ``1ᵀv = N p·v = N``, so ``J1 = N Σθ_v v = N1``: ``a + Nb = N`` for
every design, and ``F = α (N − 1)/a + (α + Nβ)/N`` depends on the mixture only through
``a = Σ ω_d a_d`` — linear — so a single size is optimal, ``d* = argmax a_d``. (This is
Ye and Barg's subset-selection optimum [1]_; the code does not use it.)

**The certificate** (independent of the argument above): the Frank–Wolfe bound of
:mod:`mechdesign.optimal.estimation` at ``J = J_{d*}``. ``G = J⁻¹WᵀWJ⁻¹`` is again
``gI + h11ᵀ``, so a vertex's score ``vᵀGv = (g Σu_i² + h (Σu_i)²)/s²`` depends on its
size ``m`` only; with ``λ = (max_m q_m / N) 1`` every vertex has ``vᵀGv − λ·v ≤ 0``, and

.. math::

    \\min F \\ge \\frac{F(J_{d^*})^2}{\\max_{1 \\le m < N} q_m}
    \\;\\ge\\; 2F(J_{d^*}) - \\max_{1 \\le m < N} q_m

(the scaled bound of :mod:`mechdesign.optimal.estimation.bounds`), exact over all
``2^N − 2`` vertices in ``O(N)`` operations; equality (a closed bracket) when
``q_{d*} = F`` is the largest.

**The kernel.** The orbit has ``C(N, d)`` columns — 28 million at N = 32, ε = 1. Any
weights ``π`` on size-``d`` patterns with equal coverage of every element and every pair,
``Σ_S π_S 1_S 1_Sᵀ = E[z zᵀ]`` (a weighted 2-design), have the same ``J`` and row sums.
When ``C(N, d) ≤`` :data:`FULL_ORBIT_MAX_COLUMNS` the whole orbit is used. Otherwise the
cyclic shifts ``B + t`` (mod N) of base blocks ``B`` cover every element equally, and
cover a pair ``(i, j)`` by ``D_B(j − i)/N`` with ``D_B(δ) = #{a ∈ B : a + δ ∈ B}``; so
HiGHS finds weights on seeded random base blocks with
``Σ_B ω_B D_B(δ) = d(d − 1)/(N − 1)`` for ``δ = 1 … ⌊N/2⌋`` (the target is the average
of ``D_B`` over all blocks, so it lies in the cone of enough random ones; the number
of blocks doubles until it does), and least squares on the support makes the
equalities exact to rounding. The kernel then has at most ``(⌊N/2⌋ + 1) N`` columns.

References
----------
.. [1] M. Ye, A. Barg, "Optimal Schemes for Discrete Distribution Estimation under Locally
   Differential Privacy", IEEE Transactions on Information Theory, 2018, arXiv:1702.00610.
"""

from __future__ import annotations

import math

import numpy as np
import scipy.sparse as sp
from numpy.typing import NDArray

from mechdesign._solvers.highs import solve_linear_program
from mechdesign.errors import SolverError, TooLargeError
from mechdesign.status import Status

__all__ = ["SYMMETRY_RTOL", "invariant_gram", "symmetric_design"]

#: The prior counts as uniform, and ``WᵀW`` as ``αI + β11ᵀ``, to this relative accuracy.
SYMMETRY_RTOL = 1e-12
#: Every size-``d`` pattern is a column when there are at most this many.
FULL_ORBIT_MAX_COLUMNS = 4096
#: Random base blocks per difference class ``δ = 1 … ⌊N/2⌋`` at first, and how often
#: their number may double before the realisation gives up.
BLOCKS_PER_CLASS = 4
BLOCK_DOUBLINGS = 8
#: The base blocks' seed (the same call, the same kernel).
BLOCK_SEED = 20_261_127
#: A weighted design whose coverage misses its target by more than this is refused.
COVERAGE_ATOL = 1e-9
#: The largest kernel (entries) the realisation builds.
MAX_KERNEL_ENTRIES = 50_000_000


def invariant_gram(p: NDArray[np.float64], gram: NDArray[np.float64]) -> tuple[float, float] | None:
    """``(α, β)`` when the prior is uniform and ``WᵀW = αI + β11ᵀ`` (to
    :data:`SYMMETRY_RTOL`), else None."""
    n = p.shape[0]
    if n < 2 or np.ptp(p) > SYMMETRY_RTOL * p.max():
        return None
    off = gram[~np.eye(n, dtype=bool)]
    beta = float(off.mean())
    alpha = float(np.diag(gram).mean()) - beta
    scale = float(np.abs(gram).max())
    model = alpha * np.eye(n) + beta
    if alpha <= 0 or np.abs(gram - model).max() > SYMMETRY_RTOL * scale:
        return None
    return alpha, beta


# -- the algebra of x I + y 11ᵀ (N × N), as pairs (x, y) -----------------------------

def _product(left, right, n):
    (x, y), (x2, y2) = left, right
    return x * x2, x * y2 + y * x2 + n * y * y2


def _inverse(pair, n):
    x, y = pair
    return 1.0 / x, -y / (x * (x + n * y))


def _trace(pair, n):
    return n * (pair[0] + pair[1])


def orbit_information(epsilon: float, n: int) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """``(a_d, b_d)`` of ``J_d = a_d I + b_d 11ᵀ`` for ``d = 1 … N − 1`` (module
    docstring)."""
    low = math.exp(-epsilon)
    d = np.arange(1, n, dtype=float)
    s = low + (1.0 - low) * d / n
    diagonal = (d / n + (1.0 - d / n) * low**2) / s**2
    b = (d * (d - 1) + 2.0 * d * (n - d) * low + (n - d) * (n - d - 1) * low**2) / (
        n * (n - 1) * s**2)
    return diagonal - b, b


def size_scores(epsilon: float, n: int, g_pair) -> NDArray[np.float64]:
    """``q_m = vᵀGv`` of a size-``m`` vertex, ``m = 1 … N − 1``, for ``G = gI + h11ᵀ``."""
    low = math.exp(-epsilon)
    m = np.arange(1, n, dtype=float)
    total = m + (n - m) * low  # Σ u_i
    squares = m + (n - m) * low**2  # Σ u_i²
    s = total / n
    return (g_pair[0] * squares + g_pair[1] * total**2) / s**2


def symmetric_design(epsilon: float, n: int, alpha: float, beta: float):
    """The optimal size ``d*``, ``F = tr(WᵀW J⁻¹)`` at ``J_{d*}``, the certified lower
    bound ``F²/max_m q_m`` on ``min F`` (module docstring), and the kernel's patterns
    (boolean, ``M × N``) and weights (the reports' probabilities)."""
    a, b = orbit_information(epsilon, n)
    best = int(np.argmax(a))
    d = best + 1
    gram = (alpha, beta)
    inverse = _inverse((a[best], b[best]), n)
    f = _trace(_product(gram, inverse, n), n)
    g_pair = _product(_product(inverse, gram, n), inverse, n)
    lower = f * f / float(size_scores(epsilon, n, g_pair).max())
    patterns, weights = weighted_design(n, d)
    return d, f, lower, patterns, weights


def weighted_design(n: int, d: int) -> tuple[NDArray[np.bool_], NDArray[np.float64]]:
    """Size-``d`` patterns and probabilities covering every element ``d/N`` and every
    pair ``d(d − 1)/(N(N − 1))`` (module docstring): the whole orbit when small, else
    cyclic shifts of weighted random base blocks."""
    count = math.comb(n, d)
    if count <= FULL_ORBIT_MAX_COLUMNS:
        patterns = np.zeros((count, n), dtype=bool)
        for row, chosen in enumerate(_combinations(n, d)):
            patterns[row, chosen] = True
        return patterns, np.full(count, 1.0 / count)
    blocks, weights = _base_blocks(n, d)
    shifts = (np.arange(n)[:, None] + np.arange(n)[None, :]) % n  # shift t of element i
    columns = blocks.shape[0] * n
    if columns * n > MAX_KERNEL_ENTRIES:
        raise TooLargeError(
            f"the uniform-prior optimum at N = {n} needs {columns:,} output columns "
            f"({columns * n:,} kernel entries > {MAX_KERNEL_ENTRIES:,}); its error and "
            "certificate are exact, but the dense kernel is not built at this size."
        )
    patterns = blocks[:, shifts].reshape(-1, n)  # row t of B: z_{(i + t) mod N}
    probabilities = np.repeat(weights / n, n)
    # a block fixed by a shift repeats patterns: merge them
    _, first, inverse = np.unique(np.packbits(patterns, axis=1), axis=0, return_index=True,
                                  return_inverse=True)
    merged = np.zeros(first.shape[0])
    np.add.at(merged, inverse.ravel(), probabilities)
    return patterns[first], merged


def _combinations(n: int, d: int):
    import itertools

    for chosen in itertools.combinations(range(n), d):
        yield list(chosen)


def _base_blocks(n: int, d: int) -> tuple[NDArray[np.bool_], NDArray[np.float64]]:
    """Random base blocks and weights ``ω ≥ 0``, ``Σω = 1``, with
    ``Σ_B ω_B D_B(δ) = d(d − 1)/(N − 1)`` for ``δ = 1 … ⌊N/2⌋``."""
    classes = n // 2
    target = d * (d - 1) / (n - 1)
    rng = np.random.default_rng(BLOCK_SEED)
    blocks = np.zeros((0, n), dtype=bool)
    for doubling in range(BLOCK_DOUBLINGS + 1):
        wanted = BLOCKS_PER_CLASS * classes << doubling
        fresh = np.argsort(rng.random((wanted - blocks.shape[0], n)), axis=1)[:, :d]
        more = np.zeros((fresh.shape[0], n), dtype=bool)
        np.put_along_axis(more, fresh, True, axis=1)
        blocks = np.vstack([blocks, more])
        # D_B(δ) = Σ_a z_a z_{a+δ}: the circular autocorrelation, by FFT
        spectrum = np.fft.rfft(blocks.astype(float), axis=1)
        profile = np.rint(np.fft.irfft(np.abs(spectrum) ** 2, n=n, axis=1)[:, 1:classes + 1])
        rows = np.vstack([profile.T, np.ones(blocks.shape[0])])
        rhs = np.append(np.full(classes, target), 1.0)
        try:
            solution = solve_linear_program(np.zeros(blocks.shape[0]), sp.csc_array(rows),
                                            rhs, rhs, sense="minimize")
        except SolverError:
            continue  # infeasible: the target is not yet in the blocks' cone
        x = np.maximum(np.asarray(solution.x, dtype=float), 0.0)
        support = np.flatnonzero(x > 0)
        # exact to rounding on the support (D_B is an integer profile)
        exact = x[support] + np.linalg.lstsq(rows[:, support], rhs - rows[:, support] @ x[support],
                                             rcond=None)[0]
        if np.all(exact >= 0) and np.abs(rows[:, support] @ exact - rhs).max() <= (
                COVERAGE_ATOL * max(1.0, target)):
            return blocks[support], exact / exact.sum()
    raise SolverError(
        f"no weighted cyclic design of size {d} on {n} points was found among "
        f"{blocks.shape[0]:,} random base blocks", status=Status.ITERATION_LIMIT)
