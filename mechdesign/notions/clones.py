"""The clone-certified notion: ε₀-LDP kernels whose every output hides a clone mass ``r``.

Shuffling ``n`` users' reports amplifies a kernel's privacy; the clone reduction of
Feldman, McMillan & Talwar [1]_ (``mechdesign.accounting.shuffle``) certifies a kernel
through two numbers: its LDP level ``ε₀`` and its *clone mass*
(:func:`~mechdesign.measures.leakage.clone_mass`)

.. math::

    r(K) = \\min_y \\frac{\\min_x K[x, y]}{c_{(1)} + c_{(2)}}, \\qquad c = K[:, y],

with ``c₍₁₎ ≥ c₍₂₎`` the column's two largest entries. Both conditions are ratio
inequalities on each column separately, so the kernels with ``LDP(K) ≤ ε₀`` and
``r(K) ≥ r`` are those whose every column lies in the cone

.. math::

    C = \\{c \\ge 0 : c_a \\le E\\, c_x,\\ c_a + c_b \\le S\\, c_x
    \\ \\text{for all } x \\text{ and } a \\ne b\\}, \\qquad E = e^{\\varepsilon_0},\\
    S = 1/r,

a ratio cone like every notion's, so the design engine optimises over it unchanged.

**Its vertices** (:func:`clone_vertices`). Scale a column of the section so that its
smallest entry is 1 (every entry is positive when ``N ≥ 2`` and ``E`` or ``S`` is
finite). Three regimes:

* ``S ≥ 2E`` (``r ≤ e^{−ε₀}/2``): the clone inequalities follow from the LDP ones
  (``c_a + c_b ≤ 2E min c``), the cone is ε₀-LDP's, the vertices its ``{1, E}`` patterns;
* ``E + 1 < S < 2E``: *peaks* — ``E`` on one input ``h``, ``S − E`` on a set ``M ∌ h``,
  1 on the rest (at least one input) — and *flats* — ``S/2`` on a set ``Q`` with
  ``3 ≤ |Q| ≤ N − 1``, 1 on the rest;
* ``S ≤ E + 1`` (``r ≥ 1/(e^{ε₀} + 1)``): the clone inequalities imply ``c_a ≤ (S − 1)
  min c``, so the LDP ones are slack; peaks are ``S − 1`` on one input and 1 elsewhere
  (k-RR's columns at ``e^{ε₀} = S − 1``), and the flats as above.

*Proof.* A section point ``v`` (scaled as above, ``Z = {x : v_x = 1} ≠ ∅``) is a vertex iff
the tight inequalities, read as equations in a direction ``d``, leave only ``d ∝ v``.
An inequality is tight only with its denominator ``x ∈ Z``, and then with every
``x ∈ Z`` alike, so ``d`` is one value on ``Z`` (1, say); the equations are ``d_a = E``
where ``v_a = E`` and ``d_a + d_b = S`` where ``v_a + v_b = S``. Every other coordinate
must be determined: in the graph of tight pairs each component outside ``Z`` needs an
anchor (``v_a = E``, or a tight pair with a coordinate of ``Z``: ``v_a = S − 1``) or an
odd cycle. If no entry exceeds ``S/2``, tight pairs join entries equal to ``S/2``, whose
graph is complete: an odd cycle iff there are at least three; any other entry above 1 is
an anchor at ``E ≤ S/2`` (the first regime) — so outside it the flats. If an entry
``v_h`` exceeds ``S/2`` it is the only one, every tight pair contains it (the others are
below ``S/2``), and its star is bipartite: ``h`` is anchored, ``v_h = E ≤ S − 1`` or
``v_h = S − 1 ≤ E``, its partners sit at ``S − v_h`` and nothing else is above 1 — the
peaks. Conversely each listed point satisfies every inequality and meets the
condition. ``tests/notions/test_clones.py`` checks the list against cddlib and the
exact backend.

**Dobrushin coefficient.** ``c_a ≤ min(E, S − 1) min c``, so every kernel of the notion
is ``log min(E, S − 1)``-LDP and ``η_TV ≤ min(tanh(ε₀/2), 1 − 2r)`` (Kairouz et al.:
``(e^ε − 1)/(e^ε + 1)``, and ``(S − 2)/S = 1 − 2r``); at ``N = 2`` the cone *is* that
LDP cone and the bound is attained.

References
----------
.. [1] V. Feldman, A. McMillan, K. Talwar, "Hiding Among the Clones: A Simple and Nearly
   Optimal Analysis of Privacy Amplification by Shuffling", FOCS 2021, arXiv:2012.12803.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mechdesign._tolerances import CLONE_AUDIT_RTOL, CLONE_REGIME_RTOL
from mechdesign._validation import check_positive_int, check_real
from mechdesign.errors import TooLargeError
from mechdesign.kernel import Mechanism
from mechdesign.measures.leakage import clone_mass, ldp_level
from mechdesign.notions.base import RATIO_CONE_MAX_ENTRIES, Notion, check_notion_epsilon
from mechdesign.notions.cones import RatioCone

__all__ = ["CloneLDP", "CloneLevels", "clone_levels", "clone_vertices"]


@dataclass(frozen=True)
class CloneLevels:
    """The entries of the cone's vertices, scaled so that the largest is 1 (module
    docstring): ``regime`` is ``"ldp"`` (levels ``low = e^{−ε₀}`` and 1), ``"mixed"``
    (peaks: 1 on one input, ``middle`` on a set, ``low`` on the rest; flats: 1 and
    ``flat_low``) or ``"clones"`` (peaks: 1 and ``low``; flats: 1 and ``flat_low``).

    Parameters
    ----------
    regime : {"ldp", "mixed", "clones"}
    low : float
        The peaks' (or LDP patterns') lower level relative to their top.
    middle : float
        The peaks' middle level (``(S − E)/E``; equal to ``low`` outside ``"mixed"``).
    flat_low : float
        The flats' lower level relative to their top, ``2/S`` (``nan`` for ``"ldp"``).
    """

    regime: str
    low: float
    middle: float
    flat_low: float


def clone_levels(epsilon: float, r: float) -> CloneLevels:
    """The regime and scaled levels of :class:`CloneLDP` ``(epsilon, r)``'s vertices.

    Parameters
    ----------
    epsilon : float
        ε₀ in nats, finite and ``≥ 0``.
    r : float
        The clone mass, in ``[0, 1/2]``.

    Returns
    -------
    CloneLevels
    """
    eps = check_notion_epsilon(epsilon)
    r = _check_r(r)
    low_ldp = math.exp(-eps)
    if r <= 0.5 * low_ldp:  # S ≥ 2E
        return CloneLevels("ldp", low_ldp, low_ldp, math.nan)
    flat_low = 2.0 * r  # 2/S
    middle = low_ldp / r - 1.0  # (S − E)/E
    # S ≤ E + 1: top S − 1, low 1. At S = E + 1 both forms agree; the mixed one's middle
    # level is then the low one up to rounding (the cancellation in e^{−ε₀}/r − 1 loses
    # ten digits at ε₀ = 8), and its peaks would repeat n times over. Within
    # CLONE_REGIME_RTOL the peak is min(S − 1, E): feasible for both constraints.
    if middle <= low_ldp * (1.0 + CLONE_REGIME_RTOL):
        low = max(r / (1.0 - r), low_ldp)  # 1/min(S − 1, E)
        return CloneLevels("clones", low, low, flat_low)
    # E + 1 < S < 2E: top E, middle S − E, low 1 (scaled by 1/E)
    return CloneLevels("mixed", low_ldp, middle, flat_low)


def clone_vertices(n: int, epsilon: float, r: float) -> NDArray[np.float64]:
    """The vertices of the section ``{v ∈ C : Σ v = 1}`` of :class:`CloneLDP`'s cone on
    ``n`` inputs, in closed form (module docstring), one per row.

    Parameters
    ----------
    n : int
        Inputs, ``≥ 1``.
    epsilon : float
        ε₀ in nats, finite and ``≥ 0``.
    r : float
        The clone mass, in ``[0, 1/2]``.

    Returns
    -------
    ndarray, shape (k, n)
    """
    n = check_positive_int(n, "n")
    levels = clone_levels(epsilon, r)
    if n == 1 or levels.low == 1.0:
        return np.full((1, n), 1.0 / n)
    codes = np.arange(1, 2**n - 1, dtype=np.int64)
    subsets = ((codes[:, None] >> np.arange(n)) & 1).astype(bool)
    if levels.regime == "ldp":
        raw = np.where(subsets, 1.0, levels.low)
        return raw / raw.sum(axis=1, keepdims=True)
    sizes = subsets.sum(axis=1)
    flats = np.where(subsets[sizes >= 3], 1.0, levels.flat_low)
    if levels.regime == "clones":
        peaks = np.where(np.eye(n, dtype=bool), 1.0, levels.low)
    else:
        # h and M ∌ h with at least one input outside both: M ⊆ rest, M ≠ rest.
        rest_codes = np.arange(0, 2 ** (n - 1) - 1, dtype=np.int64)
        rest = ((rest_codes[:, None] >> np.arange(n - 1)) & 1).astype(bool)
        blocks = []
        for h in range(n):
            block = np.full((rest.shape[0], n), 1.0)
            block[:, np.arange(n) != h] = np.where(rest, levels.middle, levels.low)
            blocks.append(block)
        peaks = np.vstack(blocks)
    raw = np.vstack([peaks, flats])
    return raw / raw.sum(axis=1, keepdims=True)


def _clone_closed_form(cone: RatioCone, *, r: float) -> NDArray[np.float64]:
    return clone_vertices(cone.n, cone.epsilon, r)


def _check_r(r: float) -> float:
    value = check_real(r, "r", low=0.0, high=0.5)
    return float(value)


@dataclass(frozen=True)
class CloneLDP(Notion):
    """ε₀-LDP kernels with clone mass at least ``r``: every column ``c`` has
    ``max(c) ≤ e^{ε₀} min(c)`` and ``min(c) ≥ r (c₍₁₎ + c₍₂₎)`` (module docstring).

    The set the clone reduction of shuffling certifies through ``(ε₀, r)``
    (``mechdesign.accounting.shuffle``): each pair of its rows is a mixture of two clones
    with the replaced user in class 0 with probability ``e^{ε₀}/(e^{ε₀} + 1)`` and every
    other user a clone of each row with probability ``r``. ``r = 0`` is ε₀-LDP; k-RR at
    ε₀ has ``r = 1/(e^{ε₀} + 1)``; ``r ≤ e^{−ε₀}/2`` adds nothing to ε₀-LDP.

    Parameters
    ----------
    epsilon : float
        ε₀ in nats, finite and ``≥ 0``.
    r : float
        The clone mass, in ``[0, 1/2]`` (at 1/2 every column is constant).
    """

    epsilon: float
    r: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "epsilon", check_notion_epsilon(self.epsilon))
        object.__setattr__(self, "r", _check_r(self.r))

    @property
    def input_size(self) -> int | None:
        return None

    @property
    def levels(self) -> CloneLevels:
        """The regime and levels of the vertices (:func:`clone_levels`)."""
        return clone_levels(self.epsilon, self.r)

    def cone(self, n: int) -> RatioCone:
        """The ratio cone on ``n`` inputs: the LDP pairs ``(e_a, e_x)`` and the clone
        pairs ``(e_a + e_b, (S/E) e_x)`` (``S = 1/r``, ``E = e^{ε₀}``), so that every
        inequality reads ``a·v ≤ e^{ε₀} b·v``; closed-form vertices
        (:func:`clone_vertices`)."""
        n = check_positive_int(n, "n")
        pairs_ldp = n * (n - 1)
        pairs_clone = n * (n * (n - 1) // 2) if self.r > 0 else 0
        entries = (pairs_ldp + pairs_clone) * n
        if entries > RATIO_CONE_MAX_ENTRIES:
            raise TooLargeError(
                f"n = {n} inputs is too many for {self!r}'s ratio cone: its pairs x "
                f"coordinates ({entries:,} entries) exceed {RATIO_CONE_MAX_ENTRIES:,}. "
                "Column generation designs such sizes without the cone."
            )
        eye = np.eye(n)
        a_ldp, x_ldp = np.nonzero(~np.eye(n, dtype=bool))
        numerators = [eye[a_ldp]]
        denominators = [eye[x_ldp]]
        if self.r > 0:
            a, b = np.triu_indices(n, 1)
            pair = eye[a] + eye[b]
            numerators.append(np.repeat(pair, n, axis=0))
            scale = math.exp(-self.epsilon) / self.r  # S/E
            denominators.append(np.tile(scale * eye, (pair.shape[0], 1)))
        return RatioCone(
            self.epsilon,
            np.vstack(numerators),
            np.vstack(denominators),
            name=repr(self),
            known_vertex_bound=self.vertex_bound(n),
            closed_form=functools.partial(_clone_closed_form, r=self.r),
        )

    def level(self, kernel: Mechanism | ArrayLike) -> float:
        """The least ε₀ for which ``kernel`` belongs to the notion at this ``r``: its LDP
        level (:func:`~mechdesign.measures.leakage.ldp_level`) when its clone mass
        (:func:`~mechdesign.measures.leakage.clone_mass`) is at least ``r`` (less
        :data:`~mechdesign._tolerances.CLONE_AUDIT_RTOL` relative), else ``inf``."""
        if clone_mass(kernel) < self.r * (1.0 - CLONE_AUDIT_RTOL):
            return math.inf
        return ldp_level(kernel)

    def dobrushin_bound(self, n: int) -> float | None:
        """``min(tanh(ε₀/2), 1 − 2r)`` (module docstring); attained at ``n = 2``."""
        check_positive_int(n, "n")
        return min(math.tanh(self.epsilon / 2), 1.0 - 2.0 * self.r)

    def vertex_bound(self, n: int) -> int:
        """The number of vertices of the section on ``n`` inputs (module docstring):
        ``2^n − 2`` patterns (LDP regime), else the peaks (``n (2^{n−1} − 1)``, or ``n``
        when ``r ≥ 1/(e^{ε₀} + 1)``) and the flats (subsets of size 3 … n − 1)."""
        n = check_positive_int(n, "n")
        levels = self.levels
        if n == 1 or levels.low == 1.0:
            return 1
        if levels.regime == "ldp":
            return 2**n - 2
        flats = sum(math.comb(n, q) for q in range(3, n))
        peaks = n if levels.regime == "clones" else n * (2 ** (n - 1) - 1)
        return peaks + flats

    def __repr__(self) -> str:
        return f"CloneLDP(epsilon={self.epsilon:g}, r={self.r:.6g})"

