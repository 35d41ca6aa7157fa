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
]


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
    n = p.shape[0]
    mu = _projected_top_eigenvalue(g_matrix, p)
    width = b - a
    scaled = (np.abs(g_matrix) @ width) / width
    return min(_box_bound(g_matrix, dual, p, a, b, np.full(n, mu)),
               _box_bound(g_matrix, dual, p, a, b, scaled))


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
