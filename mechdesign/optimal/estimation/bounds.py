"""Certified lower bounds on the estimation design's optimum: the scaled Frank–Wolfe bound,
and bounds for ε-LDP that need no pricing.

Notation of :mod:`mechdesign.optimal.estimation`: the section ``S = {v ∈ C : p·v = 1}``,
weights ``w ≥ 0`` with ``Σ_v w_v v = 1``, ``J = Σ_v w_v v vᵀ`` and
``F(J) = tr(W J⁻¹ Wᵀ)``; the per-report error is ``F − tr(W diag(p) Wᵀ)``.

**The scaled bound.** ``F`` is the value of a concave maximisation,

.. math::

    F(J) = \\max_X\\; 2\\operatorname{tr}(W X) - \\operatorname{tr}(X^\\top J X)

(the maximiser is ``X = J⁻¹Wᵀ``). So for every ``X`` and every feasible ``J``,
``F(J) ≥ 2 tr(WX) − tr(G J)`` with ``G = X Xᵀ``, and ``tr(G J) ≤ L(G)``, the optimum of
the vertex LP ``max Σ_v w_v vᵀGv`` s.t. ``Σ_v w_v v = 1``. Replacing ``X`` by ``tX`` and
maximising over ``t > 0``:

.. math::

    \\min_J F(J) \\;\\ge\\; \\max_{t > 0}\\, 2t\\operatorname{tr}(WX) - t^2 \\bar L
    = \\frac{\\operatorname{tr}(W X)^2}{\\bar L}
    \\qquad (\\bar L \\ge L(X X^\\top)).

With ``X = J⁻¹Wᵀ`` at the current design, ``tr(WX) = F`` and this is ``F²/L̄``, never below
the Frank–Wolfe bound ``2F − L̄`` (their difference is ``(F − L̄)²/L̄``) and always positive:
at ε = 0.05 (Zipf(1.1), N = 10, the k-RR design) it is 12,590 against 2F − L̄ < 0.
(:func:`scaled_lower_bound`.)

**Bounds without pricing (ε-LDP).** Every ``v ∈ S`` has coordinates in
``[m_i, M_i]`` with ``M_i = 1/(p_i + (1 − p_i)e^{−ε})`` and
``m_i = 1/(p_i + (1 − p_i)e^{ε})`` (``v_i`` largest when every other coordinate is
``e^{−ε} v_i``, smallest when every other is ``e^{ε} v_i``). Since ``Σ_v w_v = p·1 = 1``,
``D = J − 11ᵀ = Σ_v w_v (v − 1)(v − 1)ᵀ`` is positive semidefinite, ``D p = 0``, and the
chord of ``t ↦ (t − 1)²`` over ``[m_i, M_i]`` with ``Σ_v w_v (v_i − 1) = 0`` gives

.. math::

    D_{ii} \\le \\delta_i = (M_i - 1)(1 - m_i) .

Two bounds follow, for any kernel of the notion (:func:`pricing_free_bound`):

* *trace*: with ``X = J⁻¹Wᵀ`` of any design, ``G = XXᵀ`` and ``Π`` the orthogonal
  projector onto ``p^⊥`` (``D``'s range), ``tr(GJ) = 1ᵀG1 + tr(ΠGΠ D) ≤ 1ᵀG1 +
  λ_max(ΠGΠ) Σ_i δ_i =: L̄``, and the scaled bound applies;
* *diagonal*: ``wᵀJ⁻¹w ≥ (wᵀw)²/(wᵀJw)`` (Cauchy–Schwarz) for each query ``w`` (a row of
  ``W``), and ``wᵀJw = (1·w)² + wᵀDw ≤ (1·w)² + (Σ_i |w_i| √δ_i)²`` (``|D_ij| ≤
  √(D_ii D_jj)``).

They are loose — a factor 2 to 40 below the optimum on Zipf priors (measured in the tests)
— but positive and valid from the first second, before any pricing.

**A pricing bound without a relaxation (ε-LDP)**, :func:`box_pricing_bound`: for
``v = 1 + y ∈ S`` (``p·y = 0``, ``y_i ∈ [m_i − 1, M_i − 1]``),
``vᵀGv − λ·v = c₀ + g·y + yᵀGy`` with ``c₀ = 1ᵀG1 − λ·1``, ``g = 2G1 − λ``;
``yᵀGy ≤ Σ_i d_i y_i²`` for either diagonal majorant ``d_i = μ = λ_max(ΠGΠ)`` or
``d_i = Σ_j |G_ij| t_j / t_i`` with ``t = b − a`` (scaled Gershgorin:
``2|y_i y_j| ≤ (t_j/t_i) y_i² + (t_i/t_j) y_j²``; far tighter where ``G`` is nearly
diagonal, as on k-RR's design for the histogram at large ε), and
``y_i² ≤ (a_i + b_i) y_i − a_i b_i`` on
``[a_i, b_i]``; the linear remainder's maximum over the box and ``p·y = 0`` is at most
``min_τ Σ_i max((c_i − τp_i) a_i, (c_i − τp_i) b_i)`` (weak duality; evaluated at the
breakpoints ``τ = c_i/p_i``, one of which is the minimum). It is the fallback when the
semidefinite relaxation fails or the time limit leaves no time for it.

**Per cardinality, without a relaxation (ε-LDP)**, :func:`size_pricing_bounds`: a vertex
of pattern ``z`` (``|z| = m``) is ``v = t u``, ``u = ℓ + (1 − ℓ) z``, ``ℓ = e^{−ε}``,
``t = 1/(p·u)``, so ``y = v − 1`` has two values, ``y_i = t − 1`` where ``z_i = 1`` and
``ℓt − 1`` elsewhere, and ``t`` lies in ``[1/s⁺, 1/s⁻]``, ``s⁺`` (``s⁻``) being ``ℓ + (1 − ℓ)``
times the sum of the ``m`` largest (smallest) ``p_i``. With a diagonal majorant
``d`` as above and any ``τ`` (the term ``τ(t p·u − 1)`` is zero),

.. math::

    r(v) \\le c_0 - τ + τ t ℓ + \\sum_i ψ_i(z_i, t), \\qquad
    ψ_i(0, t) = g_i y_i + d_i y_i^2\\big|_{y_i = ℓt − 1},\\quad
    ψ_i(1, t) = g_i y_i + d_i y_i^2\\big|_{y_i = t − 1} + τ t (1 − ℓ) p_i ,

convex in ``t`` for fixed ``z``: so its maximum over the interval is at an end, and
at each end the best ``z`` of size ``m`` takes the ``m`` largest ``ψ_i(1, t) − ψ_i(0, t)``.
The bound is the least over both majorants, a grid of ``τ`` (any ``τ`` is valid) and
the box bound above (which holds for every size). It
is loose near the optimum's sizes and closes the far ones (measured at N = 40, ε = 4: 10
of 39 sizes at the last pricing of column generation), where it spares a semidefinite
program each.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "box_pricing_bound",
    "coordinate_ranges",
    "pricing_free_bound",
    "scaled_lower_bound",
    "size_pricing_bounds",
]

#: The multipliers ``τ`` of :func:`size_pricing_bounds`, times ``max(1, |λ·1|)``: 0 and
#: ±10^k for k from −3 to 3 in steps of 1/4 (any ``τ`` gives a valid bound).
SIZE_BOUND_MULTIPLIERS = np.concatenate([-np.logspace(-3, 3, 25), [0.0],
                                         np.logspace(-3, 3, 25)])


def scaled_lower_bound(value: float, linear_bound: float) -> float:
    """``tr(WX)²/L̄``, the lower bound on ``min F`` (module docstring); ``value`` is
    ``tr(WX)`` (``F`` at ``X = J⁻¹Wᵀ``) and ``linear_bound`` an upper bound ``L̄`` on the
    vertex LP's optimum for ``G = XXᵀ``. ``0`` when ``L̄`` is not positive or finite (no
    information)."""
    if not (linear_bound > 0 and math.isfinite(linear_bound)) or not math.isfinite(value):
        return 0.0
    return value * value / linear_bound


def coordinate_ranges(p: NDArray[np.float64], epsilon: float
                      ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """``(m, M)``: the least and largest value of each coordinate over the ε-LDP section
    ``{v : v_i ≤ e^ε v_j, p·v = 1}`` (module docstring), computed with ``e^{−ε}`` only
    (no overflow at ε = 700)."""
    low = math.exp(-epsilon)
    largest = 1.0 / (p + (1.0 - p) * low)
    least = low / (low * p + (1.0 - p))
    return least, largest


def _chord(p, epsilon):
    least, largest = coordinate_ranges(p, epsilon)
    return least - 1.0, largest - 1.0  # a ≤ 0 ≤ b


def _projected_top_eigenvalue(g_matrix, p):
    """``λ_max(ΠGΠ)``, ``Π`` the orthogonal projector onto ``p^⊥`` (0 at least)."""
    n = p.shape[0]
    unit = p / np.linalg.norm(p)
    projector = np.eye(n) - np.outer(unit, unit)
    top = float(np.linalg.eigvalsh(projector @ g_matrix @ projector)[-1])
    return max(top, 0.0)


def box_pricing_bound(g_matrix: NDArray[np.float64], dual: NDArray[np.float64],
                      p: NDArray[np.float64], epsilon: float) -> float:
    """An upper bound on ``max_{v ∈ S} vᵀGv − λ·v`` over the ε-LDP section, without a
    relaxation (module docstring): the smaller of the two diagonal majorants of ``G``."""
    a, b = _chord(p, epsilon)
    return min(_box_bound(g_matrix, dual, p, a, b, d) for d in _majorants(g_matrix, p, a, b))


def _majorants(g_matrix, p, a, b):
    """The two diagonal majorants ``d`` of ``G`` (module docstring): ``λ_max(ΠGΠ)`` on
    ``p^⊥``, and the scaled Gershgorin one with ``t = b − a``."""
    width = b - a
    return (np.full(p.shape[0], _projected_top_eigenvalue(g_matrix, p)),
            (np.abs(g_matrix) @ width) / width)


def size_pricing_bounds(g_matrix: NDArray[np.float64], dual: NDArray[np.float64],
                        p: NDArray[np.float64], epsilon: float) -> NDArray[np.float64]:
    """Upper bounds on ``max_{|z| = m} vᵀGv − λ·v`` over the ε-LDP section's vertices of
    each cardinality ``m`` (module docstring), without a relaxation. Entry ``m`` of the
    returned array (length ``N + 1``) bounds the vertices of ``m`` high entries
    (``1 ≤ m ≤ N − 1``); entries 0 and N are ``−inf`` (no vertex)."""
    n = p.shape[0]
    low, rise = math.exp(-epsilon), -math.expm1(-epsilon)
    ones = np.ones(n)
    g1 = g_matrix @ ones
    constant = float(ones @ g1 - dual.sum())
    slope = 2.0 * g1 - dual
    a, b = _chord(p, epsilon)
    majorants = _majorants(g_matrix, p, a, b)
    taus = SIZE_BOUND_MULTIPLIERS * max(1.0, abs(float(dual.sum())))
    ordered = np.sort(p)
    sizes = np.arange(1, n)
    # t at the two ends of each size: 1/s⁺ (the m largest p_i) and 1/s⁻ (the m smallest)
    ends = np.stack([1.0 / (low + rise * np.cumsum(ordered[::-1])[:-1]),
                     1.0 / (low + rise * np.cumsum(ordered)[:-1])])  # (2, N − 1)
    bounds = np.full(n + 1, -math.inf)
    best = np.full(n - 1, math.inf)
    for d in majorants:
        y_on, y_off = ends - 1.0, low * ends - 1.0  # (2, N − 1)
        psi_off = (slope[None, None, :] * y_off[..., None]
                   + d[None, None, :] * y_off[..., None] ** 2)  # (2, N − 1, N)
        psi_on = (slope[None, None, :] * y_on[..., None]
                  + d[None, None, :] * y_on[..., None] ** 2)
        base = psi_off.sum(axis=2)  # (2, N − 1)
        for tau in taus:
            gain = psi_on - psi_off + tau * rise * ends[..., None] * p[None, None, :]
            top = -np.sort(-gain, axis=2)
            chosen = np.take_along_axis(np.cumsum(top, axis=2),
                                        (sizes - 1)[None, :, None], axis=2)[..., 0]
            value = constant - tau + tau * low * ends + base + chosen
            best = np.minimum(best, value.max(axis=0))
    # the box bound holds for every size, so the smaller of the two does
    box = min(_box_bound(g_matrix, dual, p, a, b, d) for d in majorants)
    bounds[1:n] = np.minimum(best, box)
    return bounds


def _box_bound(g_matrix, dual, p, a, b, d):
    """The bound of :func:`box_pricing_bound` for a diagonal ``d`` with
    ``yᵀGy ≤ Σ d_i y_i²`` on ``p^⊥``."""
    ones = np.ones(p.shape[0])
    constant = float(ones @ g_matrix @ ones - dual.sum() - np.sum(d * a * b))
    slope = 2.0 * (g_matrix @ ones) - dual + d * (a + b)
    taus = np.append(slope / p, 0.0)
    best = math.inf
    for start in range(0, taus.shape[0], 256):  # O(N²) in blocks: any τ is a valid bound
        shifted = slope[None, :] - taus[start:start + 256, None] * p[None, :]
        best = min(best, float(np.maximum(shifted * a, shifted * b).sum(axis=1).min()))
    return constant + best


def pricing_free_bound(p: NDArray[np.float64], epsilon: float, w: NDArray[np.float64],
                       inverse: NDArray[np.float64] | None = None) -> tuple[float, str]:
    """A lower bound on ``min F`` over every ε-LDP kernel that needs no pricing: the larger
    of the *diagonal* bound and, given ``J⁻¹`` of some design, the *trace* bound (module
    docstring). Returns the bound and its name."""
    a, b = _chord(p, epsilon)
    delta = -a * b  # (M − 1)(1 − m) ≥ 0
    totals = w.sum(axis=1)
    spread = np.abs(w) @ np.sqrt(delta)
    squares = np.sum(w * w, axis=1)
    diagonal = float(np.sum(squares**2 / (totals**2 + spread**2)))
    best, name = diagonal, "diagonal (no pricing)"
    if inverse is not None:
        x = inverse @ w.T
        g_matrix = x @ x.T
        ones = np.ones(p.shape[0])
        linear = float(ones @ g_matrix @ ones) + _projected_top_eigenvalue(g_matrix, p) * float(
            delta.sum())
        trace = scaled_lower_bound(float(np.sum(w * x.T)), linear)
        if trace > best:
            best, name = trace, "trace (no pricing)"
    return best, name
