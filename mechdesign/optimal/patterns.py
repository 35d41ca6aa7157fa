"""Exact pricing over patterned vertices: ε-LDP, ``(ε, c)``-PML, the clone-certified notion
and non-robust RLDP (column generation), one literal table of them (:data:`_PATTERNS`).

The vertex LP of :func:`~mechdesign.optimal.design` is

.. math::

    \\max_{\\theta \\ge 0} \\sum_v \\theta_v \\mu(v) \\quad \\text{s.t.}
    \\quad \\sum_v \\theta_v v = \\mathbf 1,

over every vertex ``v`` of the notion's normalised section ``S``. Column generation
(:mod:`mechdesign.optimal.column_generation`) solves it over a growing set of columns (the
*restricted master*, :class:`~mechdesign.optimal.master.RestrictedMaster`) and asks a
column source's *pricing* (here :class:`PatternSource`, a column source of
:mod:`mechdesign.optimal.sources`) for vertices of large reduced cost
``r(v) = μ(v) − λ·v`` under the master's dual ``λ``. Because every column sums to one,
``Σ_v θ_v = N`` for every feasible ``θ``, so for any ``λ``

.. math::

    \\text{LP value} \\;\\le\\; \\text{OPT} \\;\\le\\; \\mathbf 1 \\cdot \\lambda
    + N \\max\\bigl(0, \\max_{v} r(v)\\bigr)

(``Σ θ_v μ(v) = 1·λ + Σ θ_v r(v)``): a certified bracket whenever the pricing returns a
true upper bound on ``max_v r(v)``.

**Patterned vertices.** For ε-LDP and ``(ε, c)``-PML every vertex takes at most three
distinct values (:func:`~mechdesign.notions.ldp_cone_vertices`,
:func:`~mechdesign.notions.c_pml_vertices`), so a vertex is ``u(z)/D(z)`` with ``z`` a
binary vector, ``u(z) = b + U z`` affine, every coordinate moved by at most one ``z_j``,
and ``D(z) = 1·u(z)`` affine. Then ``Σ_x P_x u_x \\log u_x`` is affine in ``z`` and, with
``G(s) = s \\log s`` and the aggregate ``s(z) = P·u(z)``,

.. math::

    \\mu(u(z)) = e_0 + e \\cdot z - G(s(z)), \\qquad
    r = \\frac{e_0 + e\\cdot z - G(s(z)) - \\lambda\\cdot u(z)}{D(z)}

(``μ`` is positively homogeneous). ``G`` is convex, so ``−G`` is concave: maximising
``r`` for a fixed ``D`` is a concave function of one aggregate minus a modular function
over subsets — NP-hard in general (``−G`` can encode subset sum), not solved by sorting
(a brute-force test keeps a counterexample), but a small mixed-integer program.

**Exact pricing** (:meth:`PatternSource.price`). Each family of patterns is a HiGHS MIP
over ``z`` and an epigraph variable ``t ≥ G(s)``, with ``G`` replaced by outer tangent
cuts ``t ≥ G(s_j) + G'(s_j)(s − s_j)``. Tangents of a convex function lie below it, so
the MIP (solved with relative gap 0) *over*-estimates the true maximum: its dual bound
is an upper bound. Its solution ``z*`` is accepted once ``t* ≥ G(s(z*)) − atol``;
otherwise the tangent at ``s(z*)`` is added (it makes ``z*`` tight) and the MIP is
solved again — finitely many ``z``, so the loop ends. A family whose normaliser ``D``
varies (ε-LDP, ``|B|`` free) is solved by Dinkelbach's method: ``F(θ) = max_z R(z) −
θ D(z)`` is decreasing, ``θ ← R(z_θ)/D(z_θ)`` until ``F(θ) ≤ 0``, and for every ``θ``
``max r ≤ θ + max(0, F̄(θ))/D_min`` with ``F̄`` the MIP's dual bound.

**Enumeration.** Where every family has at most :data:`ENUMERATED_PRICING_MAX_PATTERNS`
patterns (ε-LDP up to N = 14, ``(ε, c)``-PML up to N = 13), exact pricing scores every
pattern (:meth:`_Family.enumerated_pricing`), with no MIP. The MIPs are checked against
it, and both against brute force over cddlib's vertices.

**Relaxation bounds** (:class:`_Relaxation`). A two-level family's continuous
relaxation (``z ∈ [0, 1]^N``) is bounded through the conjugate of ``G`` by a sort per
bisection step, for every family at once. A family whose bound is below the best column
already found is skipped, by the exact pricing (no MIP) and by the heuristic (no local
search): at ``(ε, c)``-PML N = 32 the MIPs fell from 685 to 43 and the design from 28 s
to 4.6 s, on the same path (the same columns, the same bracket).

**Heuristic pricing** (:meth:`PatternSource.heuristic`) linearises ``G`` at a grid of
aggregates and takes the best pattern of the linearised (modular) problem by sorting;
it is cheap, finds most improving columns, and column generation calls the exact MIPs
only when it finds none. The certificate comes from the exact pricing alone.

**Robust LDP.** Non-robust RLDP (:class:`~mechdesign.notions.NonRobustLDP`) is priced
exactly through the extreme rays of its cone (:mod:`mechdesign.optimal.robust.pricing`). PolyOpt
(:class:`~mechdesign.notions.RobustLDP`) has no vertex pattern over the whole input but
one per secret's block: it is priced by block vertex enumeration and branch and bound
(:mod:`mechdesign.optimal.robust.blocks`, through
:class:`~mechdesign.optimal.robust.pricing.LinearisationSource`), and by successive
linearisation, bounded by the non-robust relaxation, where the blocks are too large.

Timings: :mod:`mechdesign.optimal.column_generation`.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import scipy.sparse as sp
from numpy.typing import ArrayLike, NDArray
from scipy.optimize import minimize_scalar

from mechdesign._lazy import deprecated_names
from mechdesign._solvers.highs import Model, solve_linear_program
from mechdesign._tolerances import (
    AGGREGATE_FLOOR,
    INFORMATION_BOUND_RTOL,
    PATTERN_FEASIBILITY_ATOL,
    PRICING_CUT_ATOL,
    PRICING_MIP_ABS_GAP,
    PRICING_MIP_FEASIBILITY_TOL,
    PRIOR_MATCH_ATOL,
    RANDOMIZED_RESPONSE_ATOL,
    ROUNDING_ATOL,
)
from mechdesign._validation import (
    as_distribution,
    check_bool,
    check_epsilon,
    check_int,
    check_positive_int,
    check_real,
    show,
)
from mechdesign.errors import InvalidInputError, UnsupportedError
from mechdesign.notions import (
    LDP,
    PML,
    CloneLDP,
    NonRobustLDP,
    Notion,
    check_notion,
    clone_levels,
)
from mechdesign.optimal.sources import (
    COLUMNS_PER_ROUND,
    MASTER_COLUMNS_PER_INPUT,
    Pricing,
    PricingSource,
    check_dual,
    check_gap,
    sorted_pricing,
)
from mechdesign.optimal.utilities import mutual_information_columns

#: Column sources were called oracles, the word the frequency oracles of
#: :mod:`mechdesign.mechanisms` keep: the old names answer for one release.
__getattr__ = deprecated_names(__name__, {"PricingOracle": f"{__name__}.PatternSource"})

__all__ = [
    "NonRobustFamily",
    "PatternSource",
    "PeakFamily",
    "balanced_arcs",
    "check_same_prior",
    "ldp_column",
    "ldp_information_bound",
    "merged_prior",
    "pattern_families",
    "price_ldp",
    "randomized_response_bound",
    "surrounding_columns",
    "unique_patterns",
]

# -- algorithm knobs --------------------------------------------------------------------

#: Tangent cuts of G each pricing MIP starts with, geometrically spaced over the
#: aggregates from PRICING_CUT_SPREAD times the largest one up to it; and the most
#: Dinkelbach steps of a family whose normaliser varies.
PRICING_INITIAL_CUTS = 16
PRICING_CUT_SPREAD = 1e-6
PRICING_DINKELBACH_STEPS = 30

#: Branch-and-bound nodes one pricing MIP may explore; one that reaches the limit stops
#: with its dual bound, which is still an upper bound (PRICING_MIP_ABS_GAP). A count, not
#: seconds, so that the path of a design never depends on the machine's speed or load
#: (the most measured: 476 nodes at ε-LDP N = 64, 591 at N = 128, 37 at PML N = 24).
PRICING_MIP_MAX_NODES = 20_000
#: A pricing MIP past the design's deadline (``time_limit``) still gets this long, for a
#: finite dual bound.
PRICING_MIP_MIN_SECONDS = 0.01


def _mip_seconds(deadline: float | None) -> float | None:
    """A pricing MIP's time limit: none without a ``deadline`` (the design's
    ``time_limit``), else the time left before it (at least
    :data:`PRICING_MIP_MIN_SECONDS`)."""
    if deadline is None:
        return None
    return max(deadline - time.perf_counter(), PRICING_MIP_MIN_SECONDS)

#: Bisection steps on the slope of a pattern family's relaxation bound
#: (:class:`_Relaxation`); any step gives a bound, more a tighter one.
RELAXATION_BISECTIONS = 40

#: Heuristic pricing linearises G at this many aggregates (evenly spaced over its range)
#: and sorts the linearised scores at each.
PRICING_HEURISTIC_SLOPES = 48

#: The heuristic then climbs by single flips and swaps from this many of its best
#: patterns, at most this many steps each (every scanned pattern with positive reduced
#: cost is kept as a candidate column).
PRICING_LOCAL_STARTS = 4
PRICING_LOCAL_STEPS = 50
#: Each family's heuristic returns at most this many columns (the best with positive
#: reduced cost): twice what column generation adds per iteration.
PRICING_HEURISTIC_COLUMNS = 64
#: (ε, c)-PML's column management (columns kept per input, see
#: :func:`~mechdesign.optimal.column_generation.run_column_generation`): its columns are
#: dearer to price than the master is to solve, so it keeps more than the default's 5.
#: Measured at N = 128: 235 s with 20 (586 iterations), 265 s with 10 (1,243), 1,056 s
#: keeping every column (705); N = 96: 31 s with 20, 46 s with 60, 50 s with all.
PML_MASTER_COLUMNS_PER_INPUT = 20
#: The ε-LDP heuristic also proposes the arcs of this many random orders of the inputs
#: (:meth:`TwoLevelFamily.random_arcs`), every improving one a column of the next master
#: (what certifies the Zipf and geometric priors of ``benchmarks/scale_hard.py``, table in
#: ``docs/benchmarks/scale_hard.md``), the orders drawn from a generator seeded with this.
PRICING_ARC_ORDERINGS = 2
PRICING_ARC_SEED = 20261130
#: A two-level family whose inputs fall into few classes of equal prior mass is priced
#: exactly by its count vectors (:meth:`TwoLevelFamily.count_pricing`, no MIP) when they
#: number at most this: ``Π_c (n_c + 1)`` over classes of ``n_c`` inputs (the prior
#: with atoms 0.5, 0.3 and a flat tail at N = 512: 2,044).
COUNT_PRICING_MAX_PATTERNS = 200_000
#: Where every pattern family of a source has at most this many patterns, exact pricing
#: scores every one of them (:meth:`_Family.enumerated_pricing`, no MIP): a few
#: matrix-vector products against branch and bound. Then ε-LDP up to N = 14 and
#: ``(ε, c)``-PML up to N = 13 are priced without a MIP (``docs/benchmarks/scale.md``
#: has (1, 1/(2N))-PML at N = 8 and 12 beside 8652adc). Sources with larger families
#: keep the MIPs for all of them, so that their paths do not change.
ENUMERATED_PRICING_MAX_PATTERNS = 2**14
#: The bound of the best dual proportional to the prior (``λ = a P``,
#: :meth:`PatternSource.certified_dual`) is searched over ``a`` to this tolerance (any
#: ``a`` gives a bound; this only decides how close to the least one).
PROPORTIONAL_DUAL_XATOL = 1e-9
#: An ε-LDP source over many inputs starts column generation from the optimum of the same
#: design with its small inputs merged (:meth:`PatternSource.coarsened`): inputs of prior
#: mass below ``1 /`` this are merged into groups of mass at most that, and the merged
#: design is solved first when it has at most :data:`COARSENING_MAX_SHARE` of the inputs.
#: Zipf(1.1) at N = 1,024 (1 − 2.6e-5 of ``κ(1)``, certified below it): merged into 82
#: groups its optimum is 6.3e-6 below ``κ(1)``, solved in 0.6 s; into 141, 238 or 390
#: groups, 6.5e-6, 5.5e-6 and 6.2e-6 below, in 1.9 s, 12 s and 72 s.
COARSENING_INPUTS = 128
COARSENING_MAX_SHARE = 0.5


def unique_patterns(
    z: NDArray[np.bool_], return_index: bool = False
) -> NDArray[np.bool_] | tuple[NDArray[np.bool_], NDArray[np.int64]]:
    """``np.unique(z, axis=0)`` for boolean rows, in the same (lexicographic) order, by
    packing each row into bytes and comparing those (``np.unique`` with ``axis=0`` sorts
    a structured view one field at a time: at N = 64 it took 40 % of an ε-LDP design).
    Packing is big-endian, so byte order is row order and the padding bits are equal."""
    z = np.ascontiguousarray(z, dtype=bool)
    packed = np.packbits(z, axis=1)
    keys = np.ascontiguousarray(packed).view(np.dtype((np.void, packed.shape[1]))).ravel()
    _, first = np.unique(keys, return_index=True)
    return (z[first], first) if return_index else z[first]


def _entropy_term(x: NDArray[np.float64] | float) -> NDArray[np.float64]:
    """``G(x) = x log x`` elementwise, with ``G(0) = 0``."""
    x = np.asarray(x, dtype=float)
    out = np.zeros_like(x)
    positive = x > 0
    out[positive] = x[positive] * np.log(x[positive])
    return out


# -- the most information one output carries ----------------------------------------------

#: Below this ``a = A − 1`` (``ε`` below about 2e-3), ``a − log(1 + a)`` is summed as its
#: series: the difference of the two would lose the digits of ``a²/2``.
_SERIES_BELOW = 1e-3


def _kept(costs: NDArray[np.float64], keep: int) -> NDArray[np.int64]:
    """Indices of the ``keep`` largest ``costs`` that are positive, best first (the best
    one at least, so that a pricing always names its best column)."""
    best = np.argsort(-costs, kind="stable")[:keep]
    return best[:max(1, int(np.count_nonzero(costs[best] > 0)))]


def _subsets(n: int, k: int) -> NDArray[np.bool_]:
    """Every subset of ``k`` of ``n`` items, as rows of indicators (lexicographic)."""
    chosen = np.array(list(itertools.combinations(range(n), k)), dtype=np.int64)
    z = np.zeros((chosen.shape[0], n), dtype=bool)
    z[np.arange(chosen.shape[0])[:, None], chosen.reshape(chosen.shape[0], k)] = True
    return z


def _balanced_output(epsilon: float) -> tuple[float, float]:
    """``(κ, p*)``: the largest divergence ``D(P_{X|y} ‖ P_X)`` one output of an ε-LDP
    mechanism can carry, and the prior mass of the inputs at the output's larger level
    where it is carried (see :func:`ldp_information_bound`); ``0 < ε < ∞``."""
    if epsilon < 2 * _SERIES_BELOW:
        # x / (1 − e^{−x}) = 1 + x/2 + x²/12 − x⁴/720 + x⁶/30240 − … (Bernoulli numbers)
        a = epsilon / 2 + epsilon**2 / 12 - epsilon**4 / 720 + epsilon**6 / 30240
    else:
        a = epsilon / -math.expm1(-epsilon) - 1.0
    # a − log(1 + a) = a²/2 − a³/3 + …
    kappa = sum((-a) ** k / k for k in range(2, 12)) if a < _SERIES_BELOW else a - math.log1p(a)
    mass = a * math.exp(-epsilon) / -math.expm1(-epsilon)  # (A − 1)/(e^ε − 1)
    return kappa, mass


def ldp_information_bound(epsilon: float) -> float:
    """The most mutual information an ε-LDP mechanism can carry, for any prior and any
    number of inputs: ``I(X; Y) ≤ κ(ε) = A − 1 − log A`` nats, ``A = ε / (1 − e^{−ε})``.

    ``I(X; Y) = Σ_y P(y) D(P_{X|y} ‖ P_X)``, so ``I`` is at most the largest divergence one
    output can carry. A column of an ε-LDP kernel is (a multiple of) a point ``u`` of the
    cone ``u_x ≤ e^ε u_{x'}``, and ``D(P_{X|y} ‖ P_X) = Σ_x π_x log(u_x / P·u)`` with
    ``π_x = P_x u_x / P·u``; ``u ↦ π`` is linear-fractional, so it maps the cone's section
    onto a polytope vertex to vertex, and ``D(· ‖ P_X)`` is convex: the largest divergence
    is at a vertex ``u = 1 + (e^ε − 1) 1_B``. There, with ``s = P·u = 1 + (e^ε −
    1) P(B)``,

    .. math::

        D = A\\Bigl(1 - \\frac 1 s\\Bigr) - \\log s \\;\\le\\; A - 1 - \\log A,

    the right side being the maximum over ``s`` (at ``s = A``, where the derivative
    ``(A − s)/s²`` vanishes), attained when ``P(B) = p* = (A − 1)/(e^ε − 1)``. In the
    design LP's dual this is the point ``λ = κ P``: ``μ(v) = (P·v) D ≤ κ P·v = λ·v`` for
    every section point ``v``, so the LP value is at most ``1·λ = κ``
    (:meth:`~mechdesign.optimal.patterns.PatternSource.certified_dual`).

    The bound is attained in the limit of many inputs of small prior mass: outputs that
    each mark a set of mass ``p*`` (arcs of the inputs laid around a circle, all
    starting points alike) carry ``κ`` each. ``κ(1) = 0.1233016`` nats; ``κ(ε) ≈ ε²/8``
    as ``ε → 0`` and ``ε − 1 − log ε`` as ``ε → ∞`` (``H(X)``, the other bound, is then
    the smaller).

    Parameters
    ----------
    epsilon : float
        ``ε ≥ 0``; ``κ(0) = 0`` and ``κ(∞) = ∞``.

    Returns
    -------
    float
        ``κ(ε)`` in nats (computed to a few ulps; the certificate of a design raises it by
        ``INFORMATION_BOUND_RTOL``).
    """
    eps = check_epsilon(epsilon)
    if eps == 0 or math.isinf(eps):
        return eps
    return _balanced_output(eps)[0]


def _randomized_response_dual(
    epsilon: float, prior: NDArray[np.float64]
) -> tuple[NDArray[np.float64], float, float]:
    """``(λ, I_RR, m)``: the design LP's dual that N-ary randomized response fixes, its
    value (randomized response's information) and the pair margin ``m`` (see
    :func:`randomized_response_bound`); ``0 < ε ≤ ∞``, ``N ≥ 2``."""
    n = prior.shape[0]
    delta = math.exp(-epsilon)
    # ε δ, with its limit 0 at ε = ∞ (δ = 0)
    eps_delta = epsilon * delta if delta > 0 else 0.0
    s = prior + delta * (1.0 - prior)  # P·u of the output that marks one input
    phi = -_entropy_term(s) - eps_delta * (1.0 - prior)  # μ(u_x), u_x = δ1 + (1 − δ)e_x
    information = float(phi.sum()) / (1.0 + (n - 1) * delta)
    dual = (phi - delta * information) / -math.expm1(-epsilon)
    a, b = np.sort(prior)[:2]
    sa, sb = a + delta * (1.0 - a), b + delta * (1.0 - b)
    pair = float(_entropy_term(sa + sb - delta) - _entropy_term(sa) - _entropy_term(sb))
    margin = pair - eps_delta - delta * information
    return dual, information, margin


def _randomized_response_upper(information: float, margin: float, n: int) -> float:
    """``I_RR + N max(0, −m)`` raised for the roundings of ``I_RR`` and ``m``
    (:data:`~mechdesign._tolerances.RANDOMIZED_RESPONSE_ATOL` per input)."""
    slack = (n + 2) * RANDOMIZED_RESPONSE_ATOL
    return information + slack + n * max(0.0, slack - margin)


def randomized_response_bound(epsilon: float, prior: ArrayLike) -> tuple[float, float]:
    """N-ary randomized response's mutual information ``I_RR`` under ``prior`` and an
    upper bound on the most any ε-LDP mechanism carries: ``I_RR ≤ OPT ≤ I_RR + N
    max(0, −m)``, equal — randomized response is optimal — exactly when the margin ``m ≥
    0``.

    With ``δ = e^{−ε}``, the vertices of the ε-LDP section are the patterns ``u_B = δ1 +
    (1 − δ)1_B`` (normalised), and ``μ(u_B) = φ(P(B))`` depends on ``B`` only through its
    mass: ``φ(S) = −s log s − εδ(1 − S)``, ``s = S + δ(1 − S)``, concave
    (``φ'' = −(1 − δ)²/s``). Randomized response is the ``N`` singletons with weight one
    each, ``I_RR = Σ_x φ(P_x) / (1 + (N − 1)δ)``; complementary slackness on them fixes
    the design LP's dual ``λ_x = (φ(P_x) − δ I_RR)/(1 − δ)`` (``1·λ = I_RR``), under which
    a pattern's reduced cost has the sign of ``g(B) = Σ_{x∈B} φ(P_x) − φ(P(B)) − (|B| −
    1)δ I_RR`` reversed. Adding the inputs of ``B`` largest first, concavity gives ``g(B)
    ≥ Σ_{j≥2} g({x_1, x_j})``, and ``g`` of a pair grows with either mass, so the least
    is the pair of the two smallest masses ``p_1 ≤ p_2``:

    .. math::

        m = φ(p_1) + φ(p_2) − φ(p_1 + p_2) − δ I_{RR}.

    If ``m ≥ 0`` every reduced cost is ``≤ 0``: ``λ`` is dual feasible and randomized
    response optimal; if ``m < 0`` the pair's column improves on it (its dual is the only
    one randomized response admits), and every reduced cost is below ``−m`` (``g(B) ≥
    (|B| − 1) m`` and the normaliser is ``≥ |B|``), so ``OPT ≤ 1·λ + N max(0, −m)``.
    This is the low-privacy regime in which Kairouz, Oh and Viswanath [1]_ show
    randomized response optimal, made exact for a given prior: under Zipf(1.1) priors it
    holds from ε ≈ 6.1 at N = 32, 8.1 at N = 128, 9.3 at N = 300 and 10.9 at N = 1,024.

    Parameters
    ----------
    epsilon : float
        ``ε ≥ 0`` in nats; ``ε = ∞`` gives the identity (``I_RR = H(X)``), ``ε = 0`` the
        constant kernel (both ends zero).
    prior : array_like, shape (N,)
        The input distribution, ``N ≥ 2``.

    Returns
    -------
    tuple of float
        ``(I_RR, bound)`` in nats; the bound is raised by ``(N + 2)`` times
        ``RANDOMIZED_RESPONSE_ATOL = 1e-14`` for the roundings (a
        margin within that of zero counts as negative), so it is ``I_RR`` plus about
        ``1e-14 N`` where randomized response is optimal.

    References
    ----------
    .. [1] P. Kairouz, S. Oh, P. Viswanath, "Extremal Mechanisms for Local Differential
       Privacy", Journal of Machine Learning Research 17(17):1-51, 2016,
       https://jmlr.org/papers/v17/15-135.html.
    """
    eps = check_epsilon(epsilon)
    p = as_distribution(prior, "prior")
    if p.shape[0] < 2:
        raise InvalidInputError(f"prior needs at least 2 inputs; got {p.shape[0]}.")
    if eps == 0:
        return 0.0, 0.0
    _, information, margin = _randomized_response_dual(eps, p)
    return information, _randomized_response_upper(information, margin, p.shape[0])


def balanced_arcs(
    prior: NDArray[np.float64], mass: float, k_min: int, k_max: int
) -> NDArray[np.bool_]:
    """Sets of consecutive inputs around a circle (index order) of prior mass near
    ``mass``: for every first input, the longest arc of mass at most ``mass`` and the arc
    one input longer, their sizes clipped to ``[k_min, k_max]``; distinct, as boolean
    rows.

    With every starting point alike, each input lies in a share of about ``mass`` of the
    arcs: the discrete form of the outputs that attain :func:`ldp_information_bound`,
    which is why they are the first columns of an ε-LDP master (at ε = 1, Dirichlet(1)
    priors: within 1.1e-5 nats of the optimum at N = 128, 2.6e-6 at N = 256)."""
    prior = as_distribution(prior, "prior")
    n = prior.shape[0]
    mass = check_real(mass, "mass", low=0.0, high=1.0)
    k_min = check_int(k_min, "k_min", low=1, high=n)
    k_max = check_int(k_max, "k_max", low=k_min, high=n)
    cumulative = np.concatenate([[0.0], np.cumsum(np.concatenate([prior, prior]))])
    first = np.arange(n)
    last = np.searchsorted(cumulative, cumulative[first] + mass, side="right") - 1
    shorter = np.minimum(last - first, n)
    sizes = np.clip(np.concatenate([shorter, shorter + 1]), k_min, k_max)
    starts = np.concatenate([first, first])
    offsets = (np.arange(n)[None, :] - starts[:, None]) % n
    return unique_patterns(offsets < sizes[:, None])


def merged_prior(prior: ArrayLike, granularity: float) -> tuple[NDArray[np.float64],
                                                               NDArray[np.int64]]:
    """The prior with its small inputs merged: ``(Q, g)`` with ``Q_j = Σ_{g(x)=j} P_x``.

    An input of mass at least ``granularity`` is a group of its own; the others, in
    increasing order of mass (ties in index order), are merged greedily into groups of
    mass at most ``granularity`` (a group closes when the next input would take it
    over). The groups are numbered in order of their smallest input.

    What merging gives a design (data processing): a kernel ``K'`` of the merged inputs
    lifts to ``K[x, ·] = K'[g(x), ·]``, which satisfies every notion whose constraints
    compare rows (ε-LDP), and under it ``Y`` depends on ``X`` only through ``g(X)``, so
    ``I(X; Y) = I(g(X); Y)``: the merged design's optimum is a lower bound on the
    original's, attained by a lifted kernel. When the merged prior still splits finely
    (groups of mass ``≤ granularity`` beside the original large inputs) the two optima
    are close — what :meth:`PatternSource.coarsened` uses to start column generation.

    Parameters
    ----------
    prior : array_like, shape=(N,)
        A probability vector.
    granularity : float
        The largest mass of a merged group, ``0 < granularity ≤ 1``.

    Returns
    -------
    Q : ndarray, shape=(M,)
        The merged prior (``M ≤ N`` groups).
    g : ndarray of int, shape=(N,)
        The group of every input.
    """
    prior = as_distribution(prior, "prior")
    granularity = check_real(granularity, "granularity", low=0.0, high=1.0, low_open=True)
    labels = np.empty(prior.shape[0], dtype=np.int64)
    groups, mass = 0, math.inf  # no group open
    for x in np.argsort(prior, kind="stable"):  # the large inputs last, each alone
        if prior[x] >= granularity or mass + prior[x] > granularity:
            groups, mass = groups + 1, 0.0  # a new group
        labels[x] = groups - 1
        mass += prior[x]
    return np.bincount(labels, weights=prior, minlength=groups), labels


# -- pattern families ----------------------------------------------------------------------


class _Family:
    """Section points ``u(z)/D(z)``, ``u(z) = base + U z``, over binary ``z`` in the
    polytope ``row_lower ≤ A z ≤ row_upper``; every coordinate of ``u`` is moved by at
    most one ``z_j`` at a time (so ``Σ P u log u`` is affine in ``z``)."""

    def __init__(
        self,
        prior: NDArray[np.float64],
        base: NDArray[np.float64],
        moves: NDArray[np.float64],
        rows: NDArray[np.float64],
        row_lower: NDArray[np.float64],
        row_upper: NDArray[np.float64],
        min_normaliser: float,
    ) -> None:
        self.prior = prior
        self.base = base
        self.moves = moves  # U, shape (N, n_bin)
        self.rows = rows
        self.row_lower = row_lower
        self.row_upper = row_upper
        self.min_normaliser = min_normaliser
        self.n_bin = moves.shape[1]
        moved = base[:, None] + moves
        # e_j = Σ_x P_x [G(b_x + U_xj) − G(b_x)], e_0 = Σ_x P_x G(b_x).
        self.entropy_base = float(prior @ _entropy_term(base))
        self.entropy = prior @ (_entropy_term(moved) - _entropy_term(base)[:, None])
        self.aggregate_base = float(prior @ base)
        self.aggregate = prior @ moves
        self.normaliser_base = float(base.sum())
        self.normaliser = moves.sum(axis=0)
        self.variable_normaliser = bool(np.any(self.normaliser != 0))
        lo = self.aggregate_base + np.minimum(self.aggregate, 0).sum()
        hi = self.aggregate_base + np.maximum(self.aggregate, 0).sum()
        self.aggregate_range = (max(lo, 0.0), hi)
        self._model: Model | None = None
        self._cuts: list[float] = []

    # -- exact values -------------------------------------------------------------------

    def points(self, z: NDArray[np.bool_]) -> NDArray[np.float64]:
        """Normalised section points of the patterns ``z`` (rows)."""
        u = self.base[None, :] + z.astype(float) @ self.moves.T
        return u / u.sum(axis=1, keepdims=True)

    def reduced_costs(self, z: NDArray[np.bool_], dual: NDArray[np.float64]) -> NDArray:
        """``(e_0 + e·z − G(s(z)) − λ·u(z)) / D(z)`` for every row of ``z``."""
        zf = z.astype(float)
        s = self.aggregate_base + zf @ self.aggregate
        value = self.entropy_base + zf @ self.entropy - _entropy_term(s)
        value -= dual @ self.base + zf @ (self.moves.T @ dual)
        return value / (self.normaliser_base + zf @ self.normaliser)

    # -- enumeration --------------------------------------------------------------------

    def pattern_count(self) -> int | None:
        """How many feasible patterns the family has (``None``: not counted, so never
        enumerated)."""
        return None

    def all_patterns(self) -> NDArray[np.bool_]:
        """Every feasible pattern, one row each (for a family that counts them)."""
        raise UnsupportedError(f"{type(self).__name__} does not enumerate its patterns")

    @cached_property
    def enumerated(self) -> NDArray[np.bool_]:
        """Every pattern (:meth:`all_patterns`), built once."""
        return self.all_patterns()

    def enumerated_pricing(
        self, dual: NDArray[np.float64], keep: int
    ) -> tuple[NDArray, NDArray, float, int]:
        """Exact pricing by scoring every pattern of :attr:`enumerated`: the ``keep``
        best columns with positive reduced cost (the best one if none is), their reduced
        costs, the family's best reduced cost (raised by ``PRICING_CUT_ATOL / D_min`` for
        rounding, as the MIPs' bound is) and no MIPs — the answer of
        :meth:`exact_pricing` at any ``converge`` and ``abs_gap``. The source calls it
        only for families of at most :data:`ENUMERATED_PRICING_MAX_PATTERNS` patterns."""
        z = self.enumerated
        costs = self.reduced_costs(z, dual)
        best = _kept(costs, keep)
        bound = float(costs.max()) + PRICING_CUT_ATOL / self.min_normaliser
        return self.points(z[best]), costs[best], bound, 0

    # -- heuristic ----------------------------------------------------------------------

    def slope_scores(self, dual: NDArray[np.float64]) -> NDArray[np.float64]:
        """Scores of the linearised problem at a grid of aggregates ``s_0``:
        ``e − Uᵀλ − G'(s_0) a`` (shape (slopes, n_bin))."""
        lo, hi = self.aggregate_range
        grid = np.linspace(max(lo, AGGREGATE_FLOOR), max(hi, 2 * AGGREGATE_FLOOR),
                           PRICING_HEURISTIC_SLOPES)
        slopes = np.log(grid) + 1.0
        linear = self.entropy - self.moves.T @ dual
        return linear[None, :] - slopes[:, None] * self.aggregate[None, :]

    def candidates(self, dual: NDArray[np.float64]) -> NDArray[np.bool_]:
        raise NotImplementedError  # every concrete family defines its own selection

    def relaxed_bound(self, dual: NDArray[np.float64]) -> float:
        """An upper bound on the family's best reduced cost without a MIP; ``inf`` where
        none is known (:meth:`TwoLevelFamily.relaxed_bound` has one)."""
        return math.inf

    def feasible(self, z: NDArray[np.bool_]) -> NDArray[np.bool_]:
        """Which rows of ``z`` satisfy the family's linear constraints."""
        lhs = z.astype(float) @ self.rows.T
        return np.all((lhs >= self.row_lower - 0.5) & (lhs <= self.row_upper + 0.5), axis=1)

    def neighbours(self, z: NDArray[np.bool_]) -> NDArray[np.bool_]:
        """Feasible patterns one flip or one swap (one bit on, one off) from ``z``."""
        n = self.n_bin
        flips = np.logical_xor(z[None, :], np.eye(n, dtype=bool))
        on, off = np.flatnonzero(z), np.flatnonzero(~z)
        swaps = np.repeat(z[None, :], on.size * off.size, axis=0)
        rows = np.arange(swaps.shape[0])
        swaps[rows, np.repeat(on, off.size)] = False
        swaps[rows, np.tile(off, on.size)] = True
        out = np.vstack([flips, swaps])
        return out[self.feasible(out)]

    def neighbour_moves(
        self, z: NDArray[np.bool_], dual: NDArray[np.float64]
    ) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.float64]]:
        """The feasible neighbours of :meth:`neighbours`, as moves, with their reduced
        costs, computed from ``z``'s own sums instead of a matrix of patterns.

        A move clears bit ``remove`` and sets bit ``add`` (``-1``: none); flips come first
        in bit order, then the swaps in ``(on, off)`` order, as in :meth:`neighbours`.
        Every quantity of :meth:`reduced_costs` is linear in ``z`` — the numerator's
        ``e·z − (Uᵀλ)·z``, the aggregate ``a·z``, the normaliser ``d·z`` and the rows'
        left-hand sides — so a neighbour's is ``z``'s plus the added bit's column minus
        the removed bit's. O(k·n²) arithmetic for the n²/4 swaps, against building and
        multiplying an (n + n²/4) × n matrix (most of an ε-LDP design's time at N = 128).
        """
        n = self.n_bin
        on, off = np.flatnonzero(z), np.flatnonzero(~z)
        flips = np.arange(n)
        remove = np.concatenate([np.where(z, flips, -1), np.repeat(on, off.size)])
        add = np.concatenate([np.where(z, -1, flips), np.tile(off, on.size)])
        linear = self.entropy - self.moves.T @ dual
        coefficients = np.vstack([linear, self.aggregate, self.normaliser, self.rows])
        padded = np.hstack([coefficients, np.zeros((coefficients.shape[0], 1))])
        zf = z.astype(float)
        here = np.concatenate([
            [self.entropy_base - dual @ self.base, self.aggregate_base, self.normaliser_base],
            np.zeros(self.rows.shape[0]),
        ]) + coefficients @ zf
        moved = here[:, None] + padded[:, add] - padded[:, remove]
        lhs = moved[3:]
        ok = np.all((lhs >= self.row_lower[:, None] - 0.5)
                    & (lhs <= self.row_upper[:, None] + 0.5), axis=0)
        numerator, aggregate, normaliser = moved[0, ok], moved[1, ok], moved[2, ok]
        costs = (numerator - _entropy_term(aggregate)) / normaliser
        return remove[ok], add[ok], costs

    @staticmethod
    def _moved(z: NDArray[np.bool_], remove: NDArray[np.int64],
               add: NDArray[np.int64]) -> NDArray[np.bool_]:
        """The patterns of the moves ``(remove, add)`` from ``z`` (one row each)."""
        out = np.repeat(z[None, :], remove.size, axis=0)
        rows = np.arange(remove.size)
        out[rows[remove >= 0], remove[remove >= 0]] = False
        out[rows[add >= 0], add[add >= 0]] = True
        return out

    def local_search(
        self, starts: NDArray[np.bool_], dual: NDArray[np.float64], keep: int | None = None
    ) -> tuple[NDArray[np.bool_], NDArray[np.float64]]:
        """Steepest ascent over :meth:`neighbours` (scored by :meth:`neighbour_moves`)
        from every start; returns every pattern visited or scanned with positive reduced
        cost (and the end points) — of each step's scan only the ``keep`` best when
        given (a caller that wants the best ``keep`` overall loses nothing, and memory
        stays ``steps × keep`` patterns instead of ``steps × N²/4``)."""
        found_z, found_r = [], []
        for z in starts:
            r = float(self.reduced_costs(z[None, :], dual)[0])
            for _ in range(PRICING_LOCAL_STEPS):
                remove, add, costs = self.neighbour_moves(z, dual)
                if costs.size == 0:
                    break
                good = np.flatnonzero(costs > 0)
                if keep is not None and good.size > keep:
                    good = good[np.argsort(-costs[good], kind="stable")[:keep]]
                found_z.append(self._moved(z, remove[good], add[good]))
                found_r.append(costs[good])
                best = int(np.argmax(costs))
                if costs[best] <= r:
                    break
                z = self._moved(z, remove[best:best + 1], add[best:best + 1])[0]
                r = float(costs[best])
            found_z.append(z[None, :])
            found_r.append(np.array([r]))
        return np.vstack(found_z), np.concatenate(found_r)

    def heuristic_patterns(
        self, dual: NDArray[np.float64], keep: int | None = None
    ) -> tuple[NDArray, NDArray]:
        """Patterns and reduced costs of :meth:`candidates` and of a local search from
        the best :data:`PRICING_LOCAL_STARTS` of them."""
        z = unique_patterns(self.candidates(dual))
        r = self.reduced_costs(z, dual)
        starts = z[np.argsort(-r, kind="stable")[:PRICING_LOCAL_STARTS]]
        near, near_r = self.local_search(starts, dual, keep)
        z, first = unique_patterns(np.vstack([z, near]), return_index=True)
        return z, np.concatenate([r, near_r])[first]

    def heuristic_pricing(self, dual: NDArray[np.float64]) -> tuple[NDArray, NDArray]:
        """The :data:`PRICING_HEURISTIC_COLUMNS` best patterns with positive reduced cost
        of :meth:`heuristic_patterns`, as columns (the others cannot improve the master,
        and computing every pattern's point was a sixth of a design at N = 128)."""
        z, r = self.heuristic_patterns(dual, PRICING_HEURISTIC_COLUMNS)
        keep = np.flatnonzero(r > 0)
        keep = keep[np.argsort(-r[keep], kind="stable")[:PRICING_HEURISTIC_COLUMNS]]
        return self.points(z[keep]), r[keep]

    def exact_pricing(
        self, dual: NDArray[np.float64], converge: bool, abs_gap: float,
        deadline: float | None = None,
    ) -> tuple[NDArray, NDArray, float, int]:
        """Columns, reduced costs, an upper bound on the family's best reduced cost,
        and the MIPs solved (see :meth:`PatternSource.price`)."""
        guesses = unique_patterns(self.candidates(dual))
        guess_costs = self.reduced_costs(guesses, dual)
        start = guesses[int(np.argmax(guess_costs))]
        # Dinkelbach starts at the best heuristic ratio; a single step (column
        # generation) starts at 0 at least, to find a column that improves.
        best_guess = float(guess_costs.max())
        floor = best_guess if converge else max(0.0, best_guess)
        steps = PRICING_DINKELBACH_STEPS if converge else 1
        z, r, bound, mips, met = self.exact(dual, floor, start, steps, abs_gap, deadline)
        near, near_r = self.local_search(z[None, :], dual)
        zs = np.vstack([z[None, :], near, met])
        rs = np.concatenate([[r], near_r, self.reduced_costs(met, dual)])
        zs, first = unique_patterns(zs, return_index=True)
        return self.points(zs), rs[first], bound, mips

    # -- exact MIP ----------------------------------------------------------------------

    def _build(self) -> Model:
        model = Model(
            mip_rel_gap=0.0,
            mip_abs_gap=PRICING_MIP_ABS_GAP,
            mip_improving_solution_save=True,
            mip_max_nodes=PRICING_MIP_MAX_NODES,
            mip_feasibility_tolerance=PRICING_MIP_FEASIBILITY_TOL,
            primal_feasibility_tolerance=PRICING_MIP_FEASIBILITY_TOL,
        )
        model.add_variables(np.zeros(self.n_bin), np.ones(self.n_bin), integer=True)
        model.add_variables(-math.inf, math.inf)  # t ≥ G(s)
        for row, lo, hi in zip(self.rows, self.row_lower, self.row_upper, strict=True):
            nz = np.flatnonzero(row)
            model.add_row(lo, hi, nz, row[nz])
        lo, hi = self.aggregate_range
        top = max(hi, AGGREGATE_FLOOR)
        for s in np.geomspace(max(lo, PRICING_CUT_SPREAD * top), top,
                              PRICING_INITIAL_CUTS):
            self._add_cut(model, float(s))
        return model

    def _add_cut(self, model: Model, s0: float) -> None:
        """``t ≥ G(s_0) + G'(s_0)(s − s_0) = (log s_0 + 1) s − s_0``, ``s = a_0 + a·z``."""
        slope = math.log(s0) + 1.0
        nz = np.flatnonzero(self.aggregate)
        index = np.concatenate([nz, [self.n_bin]])
        values = np.concatenate([-slope * self.aggregate[nz], [1.0]])
        model.add_row(slope * self.aggregate_base - s0, math.inf, index, values)
        self._cuts.append(s0)

    def _max_linearised(
        self,
        dual: NDArray[np.float64],
        theta: float,
        start: NDArray[np.bool_] | None,
        abs_gap: float,
        deadline: float | None = None,
    ) -> tuple[NDArray[np.bool_], float, int, NDArray[np.bool_]]:
        """``max_z R(z) − θ D(z)``: the maximiser, an upper bound on the maximum, the
        MIPs solved, and every improving incumbent the branch and bound met. Each MIP
        stops at :data:`PRICING_MIP_MAX_NODES` nodes and at ``deadline``
        (``time.perf_counter`` seconds), and no new cut round starts after it; a stopped
        branch and bound's dual bound is still a bound, and so is that of a MIP with fewer
        tangent cuts (they cut off only points whose ``t`` underestimates ``G``)."""
        if self._model is None:
            self._model = self._build()
        model = self._model
        model.set_option("mip_abs_gap", abs_gap)
        met = []
        n = self.n_bin
        linear = self.entropy - self.moves.T @ dual - theta * self.normaliser
        constant = (self.entropy_base - dual @ self.base) - theta * self.normaliser_base
        model.set_costs(np.concatenate([linear, [-1.0]]))
        mips = 0
        while True:
            if start is not None:
                s = self.aggregate_base + start.astype(float) @ self.aggregate
                model.set_start(np.concatenate([start.astype(float), [_entropy_term(s)]]))
            solution = model.solve("a pricing MIP", time_limit=_mip_seconds(deadline),
                                   accept_time_limit=True)
            mips += 1
            values = solution.x
            z = values[:n] > 0.5
            met.extend(saved[:n] > 0.5 for saved in solution.saved)
            s = float(self.aggregate_base + z.astype(float) @ self.aggregate)
            g = float(_entropy_term(s))
            if solution.limited:
                break  # the dual bound of a stopped branch and bound is still a bound
            at_cut = any(abs(c - s) < ROUNDING_ATOL for c in self._cuts)
            if values[n] >= g - PRICING_CUT_ATOL or at_cut:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break  # every MIP's dual bound is a bound: the cuts only tighten it
            self._add_cut(model, max(s, PRICING_CUT_ATOL))
            start = z
        bound = solution.dual_bound
        met_z = np.array(met, dtype=bool).reshape(-1, n)
        return z, bound + constant, mips, met_z[self.feasible(met_z)]

    def exact(
        self,
        dual: NDArray[np.float64],
        floor: float,
        start: NDArray[np.bool_] | None,
        steps: int = PRICING_DINKELBACH_STEPS,
        abs_gap: float = PRICING_MIP_ABS_GAP,
        deadline: float | None = None,
    ) -> tuple[NDArray[np.bool_], float, float, int, NDArray[np.bool_]]:
        """Best pattern of the family, its reduced cost, an upper bound on the
        family's best reduced cost (at most ``steps`` Dinkelbach steps from
        ``θ = floor``; the bound is valid after any number of them), the MIPs solved,
        and the other incumbents met."""
        theta = floor
        best_z, best_r = None, -math.inf
        mips = 0
        met = []
        for _ in range(steps):
            z, bound, used, seen = self._max_linearised(dual, theta, start, abs_gap, deadline)
            met.append(seen)
            mips += used
            r = float(self.reduced_costs(z[None, :], dual)[0])
            if r > best_r:
                best_z, best_r = z, r
            upper = theta + max(0.0, bound) / self.min_normaliser
            if (
                not self.variable_normaliser
                or bound <= PRICING_CUT_ATOL * self.min_normaliser
                or r <= theta  # no progress (tolerance level): the bound stands
                or (deadline is not None and time.perf_counter() >= deadline)
            ):
                break
            theta, start = r, z
        return best_z, best_r, max(upper, best_r), mips, np.vstack(met)


class TwoLevelFamily(_Family):
    """``u = low + (high − low) 1_B`` with ``k_min ≤ |B| ≤ k_max`` (ε-LDP with
    ``low = e^{−ε}``, ``high = 1``; a no-zero ``(ε, c)``-PML family at fixed ``|B|``)."""

    def __init__(self, prior, low: float, high: float, k_min: int, k_max: int) -> None:
        n = prior.shape[0]
        self.k_min, self.k_max = k_min, k_max
        self._relaxation: _Relaxation | None = None
        super().__init__(
            prior,
            np.full(n, low),
            (high - low) * np.eye(n),
            np.ones((1, n)),
            np.array([float(k_min)]),
            np.array([float(k_max)]),
            n * low + (high - low) * k_min,
        )
        #: The prior mass of the arcs the heuristic proposes (:meth:`random_arcs`), or
        #: None for none (set by the ε-LDP patterns: the mass where one output carries
        #: the most information).
        self.arc_mass: float | None = None
        # Inputs of equal prior mass (exactly equal floats) are interchangeable.
        _, label = np.unique(prior, return_inverse=True)
        classes = [np.flatnonzero(label == c) for c in range(int(label.max()) + 1)]
        count = math.prod(c.size + 1 for c in classes)
        #: The classes of equal-mass inputs when :meth:`count_pricing` applies (some
        #: inputs share a mass and the count vectors number at most
        #: :data:`COUNT_PRICING_MAX_PATTERNS`), else None: a prior of distinct masses
        #: keeps the MIP pricing.
        self.classes = (classes if len(classes) < n and count <= COUNT_PRICING_MAX_PATTERNS
                        else None)

    def pattern_count(self) -> int:
        """``Σ_{k_min ≤ k ≤ k_max} C(N, k)``."""
        return sum(math.comb(self.n_bin, k) for k in range(self.k_min, self.k_max + 1))

    def all_patterns(self) -> NDArray[np.bool_]:
        """Every ``1_B`` with ``k_min ≤ |B| ≤ k_max``, by size."""
        return np.vstack([_subsets(self.n_bin, k) for k in range(self.k_min, self.k_max + 1)])

    def count_pricing(
        self, dual: NDArray[np.float64], keep: int
    ) -> tuple[NDArray[np.bool_], NDArray[np.float64], float]:
        """Exact pricing through the symmetry of equal-mass inputs: the ``keep`` best
        patterns with positive reduced cost (the best one if none is positive), their
        reduced costs, and the family's best reduced cost (exact, no MIP; raised by
        ``PRICING_CUT_ATOL / D_min`` for rounding).

        Inputs of equal prior mass have equal entropy gains ``e_x`` and aggregates
        ``a_x``, so a pattern's aggregate ``s(z)`` and normaliser ``D(z)`` depend only on
        its count vector ``m`` (``m_c`` inputs of ``B`` in class ``c``), and for a given
        ``m`` the numerator ``C + Σ_{x∈B} (e_x − (high − low) λ_x)`` is largest with the
        ``m_c`` inputs of largest score in each class. The maximum over the family is
        the best of its ``Π_c (n_c + 1)`` count vectors (those with ``k_min ≤ Σ m_c ≤
        k_max``), each scored in closed form. Only for :attr:`classes` not ``None``."""
        if self.classes is None:
            raise UnsupportedError("count pricing needs few classes of equal prior mass "
                                   f"(at most {COUNT_PRICING_MAX_PATTERNS:,} count vectors)")
        linear = self.entropy - self.moves.T @ dual
        numerator = np.array([self.entropy_base - dual @ self.base])
        aggregate = np.array([self.aggregate_base])
        normaliser = np.array([self.normaliser_base])
        size = np.zeros(1, dtype=np.int64)
        orders = []
        for members in self.classes:
            order = members[np.argsort(-linear[members], kind="stable")]
            orders.append(order)
            counts = np.arange(members.size + 1)
            prefix = np.concatenate([[0.0], np.cumsum(linear[order])])
            first = members[0]
            numerator = (numerator[:, None] + prefix[None, :]).ravel()
            aggregate = (aggregate[:, None] + self.aggregate[first] * counts[None, :]).ravel()
            normaliser = (normaliser[:, None]
                          + self.normaliser[first] * counts[None, :]).ravel()
            size = (size[:, None] + counts[None, :]).ravel()
        feasible = (size >= self.k_min) & (size <= self.k_max)
        costs = np.full(size.size, -math.inf)
        costs[feasible] = (numerator[feasible] - _entropy_term(aggregate[feasible])) / (
            normaliser[feasible])
        best = _kept(costs, keep)
        counts = np.unravel_index(best, [members.size + 1 for members in self.classes])
        z = np.zeros((best.size, self.n_bin), dtype=bool)
        for order, m in zip(orders, counts, strict=True):
            z[:, order] = np.arange(order.size)[None, :] < m[:, None]
        # The bound is raised for rounding, as the MIPs' and the relaxation's are.
        return z, costs[best], float(costs.max()) + PRICING_CUT_ATOL / self.min_normaliser

    def random_arcs(self, rng: np.random.Generator, orderings: int) -> NDArray[np.bool_]:
        """The :func:`balanced_arcs` of mass :attr:`arc_mass` around ``orderings`` circles
        of the inputs in random orders (drawn from ``rng``), as patterns.

        Each ordering's arcs cover every input about equally, with sets of mass near
        the one where an output carries the most information; an input of large mass
        makes the arcs next to it overshoot or fall short, differently in every order,
        and the master mixes the orders into a cover that comes closer to ``κ`` than
        any one of them (checked in ``tests/optimal/test_hard_instances.py``)."""
        if self.arc_mass is None:
            raise UnsupportedError("random arcs need the family's arc_mass")
        patterns = []
        for _ in range(orderings):
            order = rng.permutation(self.n_bin)
            arcs = balanced_arcs(self.prior[order], self.arc_mass, self.k_min, self.k_max)
            z = np.zeros_like(arcs)
            z[:, order] = arcs
            patterns.append(z)
        return unique_patterns(np.vstack(patterns))

    def symmetric_optimum(self) -> tuple[NDArray[np.float64], NDArray[np.int64],
                                         NDArray[np.float64]]:
        """The family's vertex LP reduced by the symmetry of equal-mass inputs: a dual
        ``λ`` constant on each class, and the count vectors and weights of an optimal
        solution that spreads each count vector evenly over its orbit.

        Permuting inputs of equal mass maps the family onto itself and keeps ``μ``, so
        averaging an optimal ``θ`` over those permutations gives an optimal ``θ`` that
        depends only on a pattern's count vector ``m``; its constraints are then one per
        class, ``Σ_m w_m Σ_{x∈c} v_x(m) = n_c`` with ``Σ_{x∈c} v_x(m) = (low n_c +
        (high − low) m_c)/D(m)``, an LP over the count vectors with as many rows as
        classes (solved by HiGHS). Its row dual ``η`` gives ``λ_x = η_c`` on class
        ``c``, under which every pattern's reduced cost depends on its count vector
        only: dual feasible for every pattern when it is for every count vector, which
        :meth:`count_pricing` checks (the caller's certificate does not trust the LP).
        Only for :attr:`classes` not ``None``."""
        if self.classes is None:
            raise UnsupportedError("the symmetric LP needs few classes of equal prior mass "
                                   f"(at most {COUNT_PRICING_MAX_PATTERNS:,} count vectors)")
        counts = np.indices([members.size + 1 for members in self.classes]).reshape(
            len(self.classes), -1).T
        size = counts.sum(axis=1)
        counts = counts[(size >= self.k_min) & (size <= self.k_max)]
        first = np.array([members[0] for members in self.classes])
        class_sizes = np.array([members.size for members in self.classes])
        aggregate = self.aggregate_base + counts @ self.aggregate[first]
        normaliser = self.normaliser_base + counts @ self.normaliser[first]
        values = (self.entropy_base + counts @ self.entropy[first]
                  - _entropy_term(aggregate)) / normaliser
        low, step = float(self.base[0]), float(self.moves[0, 0])
        sums = (low * class_sizes[None, :] + step * counts) / normaliser[:, None]
        solution = solve_linear_program(values, sp.csc_array(sums.T), class_sizes.astype(float),
                                        class_sizes.astype(float), known_feasible=True)
        dual = np.empty(self.n_bin)
        for members, eta in zip(self.classes, solution.row_dual, strict=True):
            dual[members] = eta
        support = np.flatnonzero(solution.x > 0)
        return dual, counts[support], solution.x[support]

    def orbit_patterns(self, count: NDArray[np.int64]) -> NDArray[np.bool_]:
        """Patterns of count vector ``count`` whose average covers every class evenly:
        for ``t = 0, …, T − 1`` class ``c`` contributes its ``m_c`` inputs from position
        ``t mod n_c`` on (cyclically), ``T`` the least common multiple of the ``n_c`` of
        the classes split by ``m`` (``0 < m_c < n_c``), so each input of ``c`` lies in
        exactly ``T m_c / n_c`` of them. Where that period exceeds ``N``, ``T`` is the
        largest such ``n_c`` and the cover is even on that class only (the master mixes
        the rest). Only for :attr:`classes` not ``None``."""
        if self.classes is None:
            raise UnsupportedError("orbit patterns need the classes of equal prior mass")
        split = [members.size for members, m in zip(self.classes, count, strict=True)
                 if 0 < m < members.size]
        period = math.lcm(*split) if split else 1
        if period > self.n_bin:
            period = max(split)
        shifts = np.arange(period)
        z = np.zeros((period, self.n_bin), dtype=bool)
        for members, m in zip(self.classes, count, strict=True):
            positions = (shifts[:, None] + np.arange(int(m))[None, :]) % members.size
            z[shifts[:, None], members[positions]] = True
        return z

    def neighbour_moves(
        self, z: NDArray[np.bool_], dual: NDArray[np.float64]
    ) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.float64]]:
        """:meth:`_Family.neighbour_moves` for one size row (``k_min ≤ |B| ≤ k_max``) and
        ``U = (high − low) I``, in the same order and with the same arithmetic: a flip
        is feasible when the size stays in range, a swap always, and a swap's sums are
        an outer difference (the generic rows check and move matrix were nine tenths of
        an ``(ε, c)``-PML design at N = 128)."""
        n = self.n_bin
        on, off = np.flatnonzero(z), np.flatnonzero(~z)
        zf = z.astype(float)
        linear = self.entropy - self.moves.T @ dual
        # The generic scan's matrix product (its rows included: BLAS may sum a 4-row
        # product otherwise than a 3-row one), then only the three sums a move changes.
        coefficients = np.vstack([linear, self.aggregate, self.normaliser, self.rows])
        here = (np.concatenate([[self.entropy_base - dual @ self.base, self.aggregate_base,
                                 self.normaliser_base], np.zeros(self.rows.shape[0])])
                + coefficients @ zf)[:3]
        coefficients = coefficients[:3]
        size = on.size
        bits = np.arange(n)
        flips = np.where(z, size - 1 >= self.k_min, size + 1 <= self.k_max)
        sign = np.where(z, -1.0, 1.0)[flips]
        flipped = bits[flips]
        # here + c_add − c_remove, with the absent side a zero (as the generic padding).
        flip_sums = np.where(sign > 0, here[:, None] + coefficients[:, flipped],
                             here[:, None] - coefficients[:, flipped])
        swap_sums = (here[:, None, None] + coefficients[:, None, off]
                     - coefficients[:, on, None]).reshape(3, -1)
        sums = np.hstack([flip_sums, swap_sums])
        remove = np.concatenate([np.where(z, bits, -1)[flips], np.repeat(on, off.size)])
        add = np.concatenate([np.where(z, -1, bits)[flips], np.tile(off, on.size)])
        costs = (sums[0] - _entropy_term(sums[1])) / sums[2]
        return remove, add, costs

    def relaxed_bound(self, dual: NDArray[np.float64]) -> float:
        """An upper bound on the family's best reduced cost from its continuous
        relaxation, without a MIP (:class:`_Relaxation`)."""
        if self._relaxation is None:
            self._relaxation = _Relaxation([self])
        return float(self._relaxation.bounds(dual)[0])

    def linear_maximum(
        self, scores: NDArray[np.float64]
    ) -> tuple[NDArray[np.bool_], NDArray[np.float64]]:
        """For every row ``d`` of ``scores`` (shape (W, N)), the pattern maximising
        ``d·v(z)`` over the family and that maximum.

        ``v = u/D`` with ``u = low 1 + (high − low) 1_B`` and ``D = N low + (high −
        low)|B|``: for a fixed size ``|B| = k``, ``D`` is fixed and ``d·u = low Σd +
        (high − low) Σ_{x∈B} d_x`` is linear in ``1_B``, maximised by the ``k`` largest
        ``d_x`` (the ``k`` smallest when ``high < low``). So the maximum over the family
        is the best of ``k_max − k_min + 1`` prefixes of one sort — exact."""
        n = self.n_bin
        low = float(self.base[0])
        step = float(self.moves[0, 0])
        sign = 1.0 if step >= 0 else -1.0
        order = np.argsort(-sign * scores, axis=1, kind="stable")
        prefix = np.cumsum(np.take_along_axis(scores, order, axis=1), axis=1)
        sizes = np.arange(self.k_min, self.k_max + 1)
        value = (low * scores.sum(axis=1)[:, None] + step * prefix[:, sizes - 1]) / (
            n * low + step * sizes
        )[None, :]
        best = np.argmax(value, axis=1)
        ranks = np.empty_like(order)
        rows = np.arange(order.shape[0])[:, None]
        ranks[rows, order] = np.arange(n)[None, :]
        z = ranks < sizes[best][:, None]
        return z, value[np.arange(value.shape[0]), best]

    def candidates(self, dual: NDArray[np.float64]) -> NDArray[np.bool_]:
        """Every prefix of size ``k_min … k_max`` of every linearised order."""
        order = np.argsort(-self.slope_scores(dual), axis=1, kind="stable")
        n = self.n_bin
        ranks = np.empty_like(order)
        rows = np.arange(order.shape[0])[:, None]
        ranks[rows, order] = np.arange(n)[None, :]
        sizes = np.arange(self.k_min, self.k_max + 1)
        z = ranks[:, None, :] < sizes[None, :, None]  # (slopes, sizes, n)
        return z.reshape(-1, n)


class _Relaxation:
    """The continuous-relaxation bounds of several two-level families at once: no MIP,
    one sort of a (rows × N) matrix per bisection step, a row per family and size.

    For a size ``|B| = k`` the numerator of a family's reduced cost is ``R(z) = C + w·z −
    G(a₀ + a·z)`` (``w = e − Uᵀλ``, ``C = e₀ − λ·b``) and its normaliser ``D_k`` is
    fixed. ``G(s) = s log s`` is convex with conjugate ``G*(g) = e^{g−1}``, so ``−G(s) ≤
    e^{g−1} − g s`` for every ``g`` (Fenchel–Young), and

    .. math::

        \\max_{|z| = k} R(z) \\le \\Phi_k(g) = C + e^{g-1} - g a_0
        + \\mathrm{top}_k(w - g a)

    (the sum of the ``k`` largest entries) for every ``g``: weak Lagrangian duality, with
    equality at the best ``g`` for the relaxation ``z ∈ [0, 1]^N``. ``Φ_k`` is convex;
    :data:`RELAXATION_BISECTIONS` bisections on its slope ``e^{g−1} − a₀ − Σ_{top k} a``
    over ``[1 + log s_min, 1 + log s_max]`` approach its minimum, and whatever ``g`` they
    reach, ``max_k Φ_k(g_k) / D_k`` bounds the family's best reduced cost (raised by
    ``PRICING_CUT_ATOL / D_min`` for rounding, the MIPs' own slack). Under a diffuse prior
    the relaxation's optimum has one fractional input, and the bound is within that
    input's share of the best pattern: it rules out most ``(ε, c)``-PML families without
    their MIPs (:meth:`PatternSource.price`) or their heuristics
    (:meth:`PatternSource.heuristic`)."""

    def __init__(self, families: list[TwoLevelFamily]) -> None:
        rows = [(i, k) for i, f in enumerate(families) for k in range(f.k_min, f.k_max + 1)]
        index = np.array([i for i, _ in rows])
        self.n_families = len(families)
        self.family = index
        self.sizes = np.array([k for _, k in rows])
        self.entropy = np.array([families[i].entropy for i in index])
        self.step = np.array([float(families[i].moves[0, 0]) for i in index])
        self.level = np.array([float(families[i].base[0]) for i in index])
        self.aggregate = self.step[:, None] * families[0].prior[None, :]
        self.entropy_base = np.array([families[i].entropy_base for i in index])
        self.aggregate_base = np.array([families[i].aggregate_base for i in index])
        ranges = np.array([families[i].aggregate_range for i in index]).reshape(-1, 2)
        self.g_range = 1.0 + np.log(np.maximum(ranges, [AGGREGATE_FLOOR, 2 * AGGREGATE_FLOOR]))
        self.normaliser = np.array([families[i].normaliser_base for i in index]) + (
            self.sizes * self.step)
        slack = np.full(self.n_families, math.inf)
        np.minimum.at(slack, index, self.normaliser)
        self.slack = PRICING_CUT_ATOL / slack

    def _top(self, scores: NDArray[np.float64]) -> tuple[NDArray, NDArray]:
        """Per row, the sum of its ``k`` largest scores and of their aggregates."""
        order = np.argsort(-scores, axis=1, kind="stable")
        take = np.arange(scores.shape[1])[None, :] < self.sizes[:, None]
        picked = np.take_along_axis(scores, order, axis=1)
        aggregates = np.take_along_axis(self.aggregate, order, axis=1)
        return (np.where(take, picked, 0.0).sum(axis=1),
                np.where(take, aggregates, 0.0).sum(axis=1))

    def bounds(self, dual: NDArray[np.float64]) -> NDArray[np.float64]:
        """Each family's bound on its best reduced cost at the dual ``λ``."""
        dual = np.asarray(dual, dtype=float)
        constant = self.entropy_base - self.level * dual.sum()
        w = self.entropy - self.step[:, None] * dual[None, :]
        low, high = self.g_range[:, 0].copy(), self.g_range[:, 1].copy()
        for _ in range(RELAXATION_BISECTIONS):
            middle = (low + high) / 2
            _, a_top = self._top(w - middle[:, None] * self.aggregate)
            rising = np.exp(middle - 1.0) - self.aggregate_base - a_top > 0
            high = np.where(rising, middle, high)
            low = np.where(rising, low, middle)
        phi = np.full(self.sizes.size, math.inf)
        for g in (low, high):
            total, _ = self._top(w - g[:, None] * self.aggregate)
            phi = np.minimum(phi, constant + np.exp(g - 1.0) - g * self.aggregate_base
                             + total)
        out = np.full(self.n_families, -math.inf)
        np.maximum.at(out, self.family, phi / self.normaliser)
        return out + self.slack


class _ThreeLevel(_Family):
    """Zeros, ``top`` on ``T`` (``|T| = k``) and ``free`` on one ``f ∉ T``, with at
    least one zero (``(ε, c)``-PML, type (i) of :func:`~mechdesign.notions.c_pml_vertices`).
    ``z`` is ``(1_T, e_f)``."""

    def __init__(self, prior, top: float, free: float, k: int) -> None:
        n = prior.shape[0]
        self.k = k
        eye = np.eye(n)
        rows = np.vstack([
            np.concatenate([np.ones(n), np.zeros(n)]),  # |T| = k
            np.concatenate([np.zeros(n), np.ones(n)]),  # one free coordinate
            np.hstack([eye, eye]),  # T and f disjoint
            np.ones((1, 2 * n)),  # at least one zero
        ])
        lower = np.concatenate([[k, 1.0], np.full(n, -np.inf), [-np.inf]])
        upper = np.concatenate([[k, 1.0], np.ones(n), [n - 1.0]])
        super().__init__(
            prior, np.zeros(n), np.hstack([top * eye, free * eye]), rows, lower, upper, 1.0
        )

    def pattern_count(self) -> int:
        """``N C(N − 1, k)``: the free coordinate, then ``T`` among the others."""
        n = self.prior.shape[0]
        return n * math.comb(n - 1, self.k)

    def all_patterns(self) -> NDArray[np.bool_]:
        """Every ``(1_T, e_f)``, by free coordinate ``f``."""
        n = self.prior.shape[0]
        tops = _subsets(n - 1, self.k)
        blocks = []
        for free in range(n):
            z = np.zeros((tops.shape[0], 2 * n), dtype=bool)
            z[:, np.delete(np.arange(n), free)] = tops
            z[:, n + free] = True
            blocks.append(z)
        return np.vstack(blocks)

    def relaxed_bound(self, dual: NDArray[np.float64]) -> float:
        """An upper bound on the family's best reduced cost without a MIP.

        As for two-level families (:class:`_Relaxation`), ``−G(s) ≤ e^{g−1} − g s`` for
        every ``g``, so ``max_z R(z) ≤ e^{g−1} + max_z (w − g a)·z``; here the inner
        maximum is exact by a sort: the ``k`` best top coordinates and the best free one
        outside them (or, when the free coordinate is one of those ``k``, the ``k + 1``-th
        in its place). Bisection on the slope ``e^{g−1} − a·z_g`` approaches the best
        ``g``; any ``g`` gives a bound. The normaliser is ``k·top + free`` (fixed)."""
        n = self.prior.shape[0]
        dual = np.asarray(dual, dtype=float)
        w = self.entropy - self.moves.T @ dual
        a = self.aggregate
        k = self.k

        def inner(g: float) -> tuple[float, float]:
            scores = w - g * a
            tops, frees = scores[:n], scores[n:]
            order = np.argsort(-tops, kind="stable")
            chosen, following = order[:k], order[k]
            in_top = np.zeros(n, dtype=bool)
            in_top[chosen] = True
            values = frees + tops[chosen].sum() - np.where(
                in_top, tops - tops[following], 0.0)
            free = int(np.argmax(values))
            kept = chosen[chosen != free] if in_top[free] else chosen
            t = np.concatenate([kept, [following]]) if in_top[free] else kept
            return float(values[free]), float(a[:n][t].sum() + a[n + free])

        lo, hi = self.aggregate_range
        low = 1.0 + math.log(max(lo, AGGREGATE_FLOOR))
        high = 1.0 + math.log(max(hi, 2 * AGGREGATE_FLOOR))
        for _ in range(RELAXATION_BISECTIONS):
            middle = (low + high) / 2
            if math.exp(middle - 1.0) - self.aggregate_base - inner(middle)[1] > 0:
                high = middle
            else:
                low = middle
        constant = self.entropy_base - float(dual @ self.base)
        phi = min(constant + math.exp(g - 1.0) - g * self.aggregate_base + inner(g)[0]
                  for g in (low, high))
        normaliser = self.normaliser_base + float(self.normaliser[0]) * k + float(
            self.normaliser[n])
        return phi / normaliser + PRICING_CUT_ATOL / normaliser

    def neighbour_moves(
        self, z: NDArray[np.bool_], dual: NDArray[np.float64]
    ) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.float64]]:
        """:meth:`_Family.neighbour_moves` without the moves it would discard: from a
        feasible ``(1_T, e_f)`` no flip is feasible, and the feasible swaps move one
        input of ``T``, or the free coordinate, to an input outside ``T ∪ {f}``. The same
        moves in the same order with the same arithmetic, at ``O(kN)`` instead of the
        generic ``O(N³)`` (its move matrix has ``N + 6`` rows and ``~N²`` columns: nine
        tenths of an ``(ε, c)``-PML design at N = 64)."""
        n = self.prior.shape[0]
        tops, frees = z[:n], z[n:]
        if tops.sum() != self.k or frees.sum() != 1 or np.any(tops & frees):
            return super().neighbour_moves(z, dual)
        linear = self.entropy - self.moves.T @ dual
        # The generic scan's matrix product (its rows included), then the three sums a
        # move changes, so that the costs agree bit for bit.
        coefficients = np.vstack([linear, self.aggregate, self.normaliser, self.rows])
        here = (np.concatenate([[self.entropy_base - dual @ self.base, self.aggregate_base,
                                 self.normaliser_base], np.zeros(self.rows.shape[0])])
                + coefficients @ z.astype(float))[:3]
        coefficients = coefficients[:3]
        free = int(np.flatnonzero(frees)[0])
        on = np.flatnonzero(tops)
        outside = np.flatnonzero(~tops & (np.arange(n) != free))
        remove = np.concatenate([np.repeat(on, outside.size), np.full(outside.size, n + free)])
        add = np.concatenate([np.tile(outside, on.size), n + outside])
        sums = (here[:, None] + coefficients[:, add]) - coefficients[:, remove]
        costs = (sums[0] - _entropy_term(sums[1])) / sums[2]
        return remove, add, costs

    def linear_maximum(
        self, scores: NDArray[np.float64]
    ) -> tuple[NDArray[np.bool_], NDArray[np.float64]]:
        """For every row ``d`` of ``scores`` (shape (W, N)), the pattern maximising
        ``d·v(z)`` over the family and that maximum.

        ``u = top 1_T + free e_f`` with ``|T| = k``, ``f ∉ T``: ``D = k top + free`` is
        fixed and ``d·u`` assigns the weights ``top`` (``k`` times) and ``free`` (once) to
        ``k + 1`` distinct coordinates. By the rearrangement inequality the maximum pairs
        the larger weight with the larger scores: with ``top ≥ free``, ``T`` is the ``k``
        largest ``d_x`` and ``f`` the next (``f`` first when ``free > top``) — exact."""
        n = self.prior.shape[0]
        top = float(self.moves[0, 0])
        free = float(self.moves[0, n])
        k = self.k
        order = np.argsort(-scores, axis=1, kind="stable")[:, : k + 1]
        picked = np.take_along_axis(scores, order, axis=1)
        rows = np.arange(scores.shape[0])
        z = np.zeros((scores.shape[0], 2 * n), dtype=bool)
        if top >= free:
            tops, frees = order[:, :k], order[:, k]
            total = top * picked[:, :k].sum(axis=1) + free * picked[:, k]
        else:
            tops, frees = order[:, 1:], order[:, 0]
            total = free * picked[:, 0] + top * picked[:, 1:].sum(axis=1)
        z[rows[:, None], tops] = True
        z[rows, n + frees] = True
        return z, total / (k * top + free)

    def candidates(self, dual: NDArray[np.float64]) -> NDArray[np.bool_]:
        """Per linearisation: the best free coordinate, then the best ``T`` without it;
        and the best ``T``, then the best free coordinate outside it."""
        n = self.prior.shape[0]
        scores = self.slope_scores(dual)
        top_scores, free_scores = scores[:, :n], scores[:, n:]
        out = []
        for ts, fs in zip(top_scores, free_scores, strict=True):
            f = int(np.argmax(fs))
            masked = ts.copy()
            masked[f] = -np.inf
            t = np.argsort(-masked, kind="stable")[: self.k]
            out.append(_three_level_z(n, t, f))
            t = np.argsort(-ts, kind="stable")[: self.k]
            rest = fs.copy()
            rest[t] = -np.inf
            out.append(_three_level_z(n, t, int(np.argmax(rest))))
        return np.array(out)


class PeakFamily(_Family):
    """The peaks of :class:`~mechdesign.notions.CloneLDP` between its two outer regimes:
    1 on one input ``h``, ``middle`` on a set ``M ∌ h`` and ``low`` on the rest (at least
    one input), ``low < middle < 1``. ``z`` is ``(e_h, 1_M)``; the normaliser varies with
    ``|M|``."""

    def __init__(self, prior, low: float, middle: float) -> None:
        n = prior.shape[0]
        eye = np.eye(n)
        rows = np.vstack([
            np.concatenate([np.ones(n), np.zeros(n)]),  # one peak
            np.hstack([eye, eye]),  # h ∉ M
            np.ones((1, 2 * n)),  # at least one input at low
        ])
        lower = np.concatenate([[1.0], np.full(n, -np.inf), [-np.inf]])
        upper = np.concatenate([[1.0], np.ones(n), [n - 1.0]])
        super().__init__(prior, np.full(n, low),
                         np.hstack([(1.0 - low) * eye, (middle - low) * eye]),
                         rows, lower, upper, (n - 1) * low + 1.0)

    def linear_maximum(
        self, scores: NDArray[np.float64]
    ) -> tuple[NDArray[np.bool_], NDArray[np.float64]]:
        """For every row ``d`` of ``scores`` (shape (W, N)), the peak maximising
        ``d·v(z)`` and that maximum. For ``|M| = m`` the normaliser is fixed and ``d·u =
        low Σd + (1 − low) d_h + (middle − low) Σ_M d`` with ``1 − low > middle − low >
        0``: by the rearrangement inequality ``h`` is the largest ``d_x`` and ``M`` the
        next ``m`` — a scan of one sort over ``m = 0 … N − 2``, exact."""
        n = self.prior.shape[0]
        low = float(self.base[0])
        top_step = float(self.moves[0, 0])
        middle_step = float(self.moves[0, n])
        order = np.argsort(-scores, axis=1, kind="stable")
        ranked = np.take_along_axis(scores, order, axis=1)
        sizes = np.arange(0, n - 1)
        prefix = np.concatenate([np.zeros((scores.shape[0], 1)),
                                 np.cumsum(ranked[:, 1:n - 1], axis=1)], axis=1)
        value = (low * scores.sum(axis=1)[:, None] + top_step * ranked[:, :1]
                 + middle_step * prefix) / (n * low + top_step + middle_step * sizes)[None, :]
        best = np.argmax(value, axis=1)
        rows = np.arange(scores.shape[0])
        ranks = np.empty_like(order)
        ranks[rows[:, None], order] = np.arange(n)[None, :]
        z = np.zeros((scores.shape[0], 2 * n), dtype=bool)
        z[rows, order[:, 0]] = True
        z[:, n:] = (ranks >= 1) & (ranks <= sizes[best][:, None])
        return z, value[rows, best]

    def candidates(self, dual: NDArray[np.float64]) -> NDArray[np.bool_]:
        """Per linearisation: the best peak, then every prefix of the best middle
        coordinates without it."""
        n = self.prior.shape[0]
        out = []
        for scores in self.slope_scores(dual):
            h = int(np.argmax(scores[:n]))
            middle = scores[n:].copy()
            middle[h] = -np.inf
            order = np.argsort(-middle, kind="stable")[: n - 2]
            for m in range(0, n - 1):
                z = np.zeros(2 * n, dtype=bool)
                z[h] = True
                z[n + order[:m]] = True
                out.append(z)
        return np.array(out)


def _counted(family: _Family) -> bool:
    """Whether ``family`` is priced exactly by its count vectors
    (:meth:`TwoLevelFamily.count_pricing`)."""
    return isinstance(family, TwoLevelFamily) and family.classes is not None


def _enumerable(family: object) -> bool:
    """Whether ``family`` counts its patterns and has at most
    :data:`ENUMERATED_PRICING_MAX_PATTERNS` of them (:meth:`_Family.enumerated_pricing`)."""
    if not isinstance(family, _Family):
        return False
    count = family.pattern_count()
    return count is not None and count <= ENUMERATED_PRICING_MAX_PATTERNS


def _three_level_z(n: int, top: NDArray[np.int64], free: int) -> NDArray[np.bool_]:
    z = np.zeros(2 * n, dtype=bool)
    z[top] = True
    z[n + free] = True
    return z


# -- the column source -----------------------------------------------------------------


@dataclass(frozen=True)
class _Patterns:
    """How a notion's section vertices are patterned: whether a notion (with a prior) is
    covered, and its pattern families with the first columns of a master."""

    supports: Callable[[object, NDArray[np.float64]], bool]
    build: Callable[[object, NDArray[np.float64]], tuple[list, NDArray[np.float64]]]
    #: The source's column management
    #: (:attr:`~mechdesign.optimal.sources.ColumnSource.columns_per_input`).
    columns_per_input: int | None = MASTER_COLUMNS_PER_INPUT
    #: The most information one output can carry, ``max_v D(P^v ‖ P)`` over the
    #: section (a closed form of the notion), or ``None`` where none is known.
    information_bound: Callable[[object], float] | None = None
    #: Whether the notion is the same notion on merged inputs: its constraints compare
    #: rows and do not depend on ``N`` (ε-LDP), so a kernel of merged inputs lifts to one
    #: of the inputs (see :func:`merged_prior` and :meth:`PatternSource.coarsened`).
    merges_inputs: bool = False
    #: Whether N-ary randomized response fixes a dual with a closed-form bound
    #: (:func:`randomized_response_bound`: ε-LDP).
    randomized_response: bool = False


def _patterns_of(notion: object) -> _Patterns | None:
    """The vertex patterns of ``notion``'s type or its nearest base in :data:`_PATTERNS`
    (looked up like :func:`~mechdesign.optimal.registry.source_class`), or ``None``."""
    for kind in type(notion).__mro__:
        if kind in _PATTERNS:
            return _PATTERNS[kind]
    return None


class PatternSource(PricingSource):
    """Exact pricing for mutual information over the patterned vertices of a notion.

    Supported (registered with :func:`patterned`): :class:`~mechdesign.notions.LDP`
    (``0 < ε < ∞``; one family, the ``{e^{−ε}, 1}`` patterns with ``1 ≤ |B| ≤ N − 1``)
    and :class:`~mechdesign.notions.PML` with ``c`` (``ε > 0``): for each ``k`` the
    no-zero two-level family (minimum ``m_k`` on ``N − k`` inputs, ``M_k = r(c + s m_k)``
    on ``k``; ``m_k = (1 − k r c)/(N − k + k r s)``, ``r = e^ε``, ``s = 1 − Nc``) when it
    is a feasible point, and for the one or two ``k`` with ``0 ≤ 1 − k r c ≤ r c`` the
    three-level family (zeros, ``r c`` on ``k`` inputs, ``1 − k r c`` on one). These
    families cover every vertex of the section
    (:func:`~mechdesign.notions.c_pml_vertices`, checked against cddlib), so pricing over
    them is exact. :class:`~mechdesign.notions.NonRobustLDP` with ``prior = P̂`` is priced
    over the extreme rays of its cone (:mod:`mechdesign.optimal.robust.pricing`). Other
    notions — PML for a known prior or a hull of priors, PolyOpt — raise
    :class:`~mechdesign.errors.UnsupportedError`: no pattern of their vertices is known to
    us (for a known prior the vertex values depend on ``P(T)`` itself, see
    :func:`~mechdesign.notions.known_prior_vertices`; PolyOpt is priced by
    :class:`~mechdesign.optimal.robust.pricing.LinearisationSource`).

    A column source (:class:`~mechdesign.optimal.sources.ColumnSource`) with ``exact =
    True``.

    Parameters
    ----------
    notion : LDP, PML with ``c``, or NonRobustLDP
        The notion to price, with ``0 < ε < ∞``; other notions raise
        :class:`~mechdesign.errors.UnsupportedError`.
    prior : array_like, shape=(N,)
        The prior of mutual information: a probability vector, ``N ≥ 2``.
    """

    exact = True
    #: Heuristic rounds price the families in order of their relaxation bound, and stop
    #: where no family left can place a column among the best (see :meth:`heuristic`).
    partial_pricing = True

    def __init__(self, notion: object, prior: ArrayLike) -> None:
        self.prior, self.families, self._initial = pattern_families(notion, prior)
        self.notion = notion
        # Column management where the master dominates (ε-LDP); not for (ε, c)-PML, whose
        # MIP pricing dominates: a deleted column costs a pricing to find again (N = 64:
        # 75 s keeping every column, 134 s pruning; N = 128: 18 min against 39 min).
        self.columns_per_input = _patterns_of(notion).columns_per_input
        self.n = self.prior.shape[0]
        two_level = [i for i, f in enumerate(self.families) if isinstance(f, TwoLevelFamily)]
        self._two_level = np.array(two_level, dtype=np.int64)
        self._relaxation = (_Relaxation([self.families[i] for i in two_level])
                            if two_level else None)
        self._symmetric_optimum = None  # see _symmetric
        # Exact pricing scores every pattern where every family is small enough.
        self._enumerable = all(_enumerable(family) for family in self.families)
        # The orderings of the heuristic's arcs: drawn from a fixed seed, so that the
        # same design takes the same path.
        self._arc_rng = np.random.default_rng(PRICING_ARC_SEED)
        if any(isinstance(f, TwoLevelFamily) and f.arc_mass is not None
               for f in self.families):
            self.columns_per_round = COLUMNS_PER_ROUND + 2 * PRICING_ARC_ORDERINGS * self.n
        # Per family, the dual and the certified bound of its last exact pricing.
        self._last: list[tuple[NDArray[np.float64], float] | None] = [None] * len(
            self.families)

    @classmethod
    def from_problem(cls, notion: object, objective: object) -> PatternSource:
        """The source for the design pipeline: ``objective`` is the mutual-information
        utility, whose prior it takes."""
        return cls(notion, objective.prior)

    @staticmethod
    def supports(notion: object, prior: NDArray[np.float64]) -> bool:
        """Whether ``notion`` is priced exactly here for mutual information under
        ``prior``: ε-LDP, ``(ε, c)``-PML, and non-robust RLDP under its own ``P̂``, with
        ``0 < ε < ∞``."""
        if not (isinstance(notion, Notion) and 0 < notion.epsilon < math.inf):
            return False
        patterns = _patterns_of(notion)
        return patterns is not None and patterns.supports(notion, prior)

    def values(self, columns: NDArray[np.float64]) -> NDArray[np.float64]:
        """Mutual information ``μ(v)`` of every column (row)."""
        return mutual_information_columns(self.prior, columns)

    def initial_columns(self) -> NDArray[np.float64]:
        """Section points summing to ``1``, so that the first master is feasible; with
        the symmetric optimum of one family priced by count vectors
        (:meth:`TwoLevelFamily.symmetric_optimum`), also the patterns that spread its
        solution over the orbits (:meth:`TwoLevelFamily.orbit_patterns`)."""
        symmetric = self._symmetric()
        if symmetric is None:
            return self._initial.copy()
        family, (_, counts, _) = self.families[0], symmetric
        orbits = [family.points(family.orbit_patterns(m)) for m in counts]
        return np.vstack([self._initial, *orbits])

    def coarsened(self) -> tuple[PatternSource, NDArray[np.int64]] | None:
        """The same design with the small inputs merged (:func:`merged_prior`, groups of
        mass at most ``1 /`` :data:`COARSENING_INPUTS`) and the group of every input, when
        the notion is the same on merged inputs (ε-LDP) and merging leaves at most
        :data:`COARSENING_MAX_SHARE` of the inputs; else ``None`` (also when the inputs
        fall into few classes of equal mass, whose symmetric optimum is exact).

        Column generation solves the merged design first and starts from the columns
        of its optimum, lifted (a lifted kernel reaches the merged optimum exactly, see
        :func:`merged_prior`). Under skewed priors (Zipf, geometric) that start is
        within the gap of ``κ`` where the arcs of random orders needed many large
        masters to come close (``benchmarks/scale_hard.py``, table in
        ``docs/benchmarks/scale_hard.md``). The merged design is solved by the same
        column generation, with the caller's gap and what is left of its time."""
        if not _patterns_of(self.notion).merges_inputs or self._symmetric() is not None:
            return None
        merged, labels = merged_prior(self.prior, 1.0 / COARSENING_INPUTS)
        if not 2 <= merged.shape[0] <= COARSENING_MAX_SHARE * self.n:
            return None
        return PatternSource(self.notion, merged), labels

    def _symmetric(self):
        """The one family's symmetric optimum when it is priced by count vectors (see
        :meth:`TwoLevelFamily.symmetric_optimum`), computed once; else ``None``."""
        if not (len(self.families) == 1 and _counted(self.families[0])):
            return None
        if self._symmetric_optimum is None:
            self._symmetric_optimum = self.families[0].symmetric_optimum()
        return self._symmetric_optimum

    def relaxed_bounds(self, dual: NDArray[np.float64]) -> NDArray[np.float64]:
        """Every family's bound on its best reduced cost at ``dual`` from its Lagrangian
        relaxation (two-level families together, :class:`_Relaxation`; three-level ones
        by :meth:`_ThreeLevel.relaxed_bound`; ``inf`` for the families without one)."""
        bounds = np.array([math.inf if isinstance(family, TwoLevelFamily)
                           else family.relaxed_bound(dual) for family in self.families])
        if self._relaxation is not None:
            bounds[self._two_level] = self._relaxation.bounds(dual)
        return bounds

    def heuristic(self, dual: ArrayLike, *, effort: int = 1) -> Pricing:
        """Columns of the linearised problems, best reduced cost first (not exhaustive).
        ``effort`` is accepted for the column-source protocol; the patterns' heuristic
        has one level.

        Where several families are priced in order of their relaxation bounds
        (``(ε, c)``-PML), the largest of those bounds is returned as a certified
        ``upper_bound`` (``exact = True``): every vertex lies in some family, and each
        family's bound is certified like the exact pricing's (:class:`_Relaxation`). So
        every iteration tightens the bracket at no extra cost, and column generation
        smooths the dual towards the best of them (its in-out stabilisation): at
        ``(1, 1/(2N))``-PML under Dirichlet(1), N = 128, 355 iterations where 8652adc
        took 586, and N = 256 certified (``docs/benchmarks/scale.md``,
        ``docs/benchmarks/scale_hard_pml.md``). Elsewhere ``upper_bound`` is ``+inf``
        (``exact = False``)."""
        lam = check_dual(dual, self.n)
        check_positive_int(effort, "effort")
        if all(_counted(family) for family in self.families):
            # Few classes of equal-mass inputs: exact pricing costs no more than this.
            return self._count_pricing(lam)
        # Partial pricing: the families in order of their relaxation bound
        # (_Relaxation), until none left can hold an improving column (bound
        # ≤ 0) or one that would rank among the PRICING_HEURISTIC_COLUMNS best found so
        # far. At (ε, c)-PML N = 48 that is 1 to 5 of 36 families an iteration. Exact
        # pricing always covers every family, so the certificate does not depend on it.
        if len(self.families) == 1 or not self.partial_pricing:
            order, bounds = range(len(self.families)), np.full(len(self.families), math.inf)
        else:
            bounds = self.relaxed_bounds(lam)
            order = np.argsort(-bounds, kind="stable")
        found = [(np.zeros((0, self.n)), np.zeros(0))]
        best: list[float] = []  # the PRICING_HEURISTIC_COLUMNS best reduced costs so far
        for i in order:
            if bounds[i] <= 0 or (len(best) == PRICING_HEURISTIC_COLUMNS
                                  and bounds[i] <= best[-1]):
                break
            columns, costs = self.families[i].heuristic_pricing(lam)
            found.append((columns, costs))
            best = sorted([*best, *costs.tolist()], reverse=True)[:PRICING_HEURISTIC_COLUMNS]
        for family in self.families:
            if isinstance(family, TwoLevelFamily) and family.arc_mass is not None:
                z = family.random_arcs(self._arc_rng, PRICING_ARC_ORDERINGS)
                r = family.reduced_costs(z, lam)
                found.append((family.points(z[r > 0]), r[r > 0]))
        columns = np.vstack([f[0] for f in found])
        costs = np.concatenate([f[1] for f in found])
        upper = float(bounds.max())
        return sorted_pricing(columns, costs, upper, math.isfinite(upper), 0)

    def price(
        self,
        dual: ArrayLike,
        *,
        converge: bool = True,
        abs_gap: float = PRICING_MIP_ABS_GAP,
        time_limit: float | None = None,
    ) -> Pricing:
        """Exact pricing: a certified upper bound on ``max_v μ(v) − λ·v`` over every
        vertex (up to :data:`PRICING_CUT_ATOL`) and the best columns of every family —
        by their MIPs, or by enumeration where every family has at most
        :data:`ENUMERATED_PRICING_MAX_PATTERNS` patterns (then ``converge`` and
        ``abs_gap`` have nothing to tune).

        With ``converge=False`` a family with a varying normaliser (ε-LDP) takes one
        Dinkelbach step only: the bound is still valid, but looser while it is positive,
        and the column found improves without being the best — what column generation
        needs, at a fraction of the MIPs (``Pricing.converged`` is then ``False``).
        ``abs_gap`` is the MIPs' absolute optimality
        gap: the bound is within about ``abs_gap / D_min`` of the best reduced cost.
        ``time_limit`` (seconds) stops the MIPs early; the bound stays certified (a
        stopped branch and bound's dual bound), only looser.
        """
        lam = check_dual(dual, self.n)
        converge = check_bool(converge, "converge")
        abs_gap = check_gap(abs_gap, "abs_gap")
        deadline = None if time_limit is None else (
            time.perf_counter() + check_gap(time_limit, "time_limit"))
        if all(_counted(family) for family in self.families):
            return self._count_pricing(lam)
        if self._enumerable:
            return self._enumerated_pricing(lam)
        # A family's bound at an earlier dual λ₀ bounds it now: for a section point v
        # (v ≥ 0, Σv = 1), r_λ(v) = r_λ₀(v) + (λ₀ − λ)·v ≤ r_λ₀(v) + max_x (λ₀ − λ)_x.
        # A family whose bound so carried over is at most the best reduced cost already
        # found cannot hold a better column nor raise the maximum: its MIPs are skipped.
        carried = np.array([math.inf if last is None else last[1] + float(np.max(last[0] - lam))
                            for last in self._last])
        # A family's continuous relaxation bounds it too, at the cost of a few sorts
        # (_Relaxation): under a diffuse prior it rules out most (ε, c)-PML
        # families, whose MIPs were nine tenths of a design at N = 32.
        carried = np.minimum(carried, self.relaxed_bounds(lam))
        order = np.argsort(-carried, kind="stable")
        found, best = [], -math.inf
        for rank, i in enumerate(order):
            if carried[i] <= best:
                continue
            share = None
            if deadline is not None:
                now = time.perf_counter()
                if now >= deadline:
                    # Out of time: the families not priced leave the bound open.
                    found.append((np.zeros((0, self.n)), np.zeros(0), math.inf, 0))
                    break
                share = now + (deadline - now) / (len(order) - rank)
            result = self.families[i].exact_pricing(lam, converge, abs_gap, share)
            found.append(result)
            self._last[i] = (lam.copy(), float(result[2]))
            if result[1].size:
                best = max(best, float(result[1].max()))
        columns = np.vstack([f[0] for f in found])
        costs = np.concatenate([f[1] for f in found])
        upper = max(f[2] for f in found)
        return sorted_pricing(columns, costs, upper, True, sum(f[3] for f in found),
                              converged=converge)

    def _enumerated_pricing(self, lam: NDArray[np.float64]) -> Pricing:
        """Exact pricing of families that are all small enough to score every pattern
        (:meth:`_Family.enumerated_pricing`): the best columns and the exact bound."""
        found = [family.enumerated_pricing(lam, PRICING_HEURISTIC_COLUMNS)
                 for family in self.families]
        columns = np.vstack([f[0] for f in found])
        costs = np.concatenate([f[1] for f in found])
        return sorted_pricing(columns, costs, max(f[2] for f in found), True, 0)

    def _count_pricing(self, lam: NDArray[np.float64]) -> Pricing:
        """Exact pricing of families that are all priced by their count vectors
        (:meth:`TwoLevelFamily.count_pricing`): the best columns and the exact bound."""
        found = [family.count_pricing(lam, PRICING_HEURISTIC_COLUMNS)
                 for family in self.families]
        columns = np.vstack([family.points(z) for family, (z, _, _) in
                             zip(self.families, found, strict=True)])
        costs = np.concatenate([r for _, r, _ in found])
        return sorted_pricing(columns, costs, max(bound for _, _, bound in found), True, 0)

    def certified_dual(self) -> tuple[NDArray[np.float64], float]:
        """A dual ``λ`` whose bound ``1·λ + N max(0, max_v r_λ(v))`` is known in closed
        form, and that bound: the least of these.

        - ``λ = −P log P`` (``0 log 0 = 0``): ``μ(v) − λ·v = (P·v) Σ_x π_x log π_x ≤ 0``
          (``π_x = P_x v_x / P·v``, a distribution), so the bound is ``H(X)``.
        - ``λ = κ P``, ``κ`` the largest divergence ``D(P_{X|y} ‖ P_X)`` one output can
          carry, where the notion has a closed form for it (ε-LDP,
          :func:`ldp_information_bound`, raised by ``INFORMATION_BOUND_RTOL``):
          ``μ(v) = (P·v) D ≤ κ P·v``, so the bound is ``κ``.

        - For ε-LDP, the dual that N-ary randomized response fixes, with the bound of
          :func:`randomized_response_bound` (raised for its roundings): the optimum itself
          where randomized response is optimal, as it is at large ε (the regime of a
          local ε behind a shuffler), where the pricing MIPs are hardest.
        - Where the inputs fall into few classes of equal mass (one family priced by count
          vectors), the dual of the LP reduced by that symmetry
          (:meth:`TwoLevelFamily.symmetric_optimum`), whose bound
          ``1·λ + N max(0, max_v r_λ(v))`` is computed by exact pricing
          (:meth:`TwoLevelFamily.count_pricing`): the optimum itself, to rounding.

        Column generation starts its bracket from it: under a diffuse prior the ε-LDP
        optimum is within the gap of ``κ`` and no pricing MIP is needed to certify it."""
        p = self.prior
        entropy_dual = -p * np.log(np.where(p > 0, p, 1.0))
        best = (entropy_dual, float(entropy_dual.sum()))
        closed_form = _patterns_of(self.notion).information_bound
        if closed_form is not None:
            kappa = closed_form(self.notion) * (1 + INFORMATION_BOUND_RTOL)
            if kappa < best[1]:
                best = (kappa * p, kappa)
        if _patterns_of(self.notion).randomized_response and self.n >= 2:
            dual, information, margin = _randomized_response_dual(self.notion.epsilon, p)
            bound = _randomized_response_upper(information, margin, self.n)
            if bound < best[1]:
                best = (dual, bound)
        symmetric = self._symmetric()
        if symmetric is not None:
            dual = symmetric[0]
            _, _, top = self.families[0].count_pricing(dual, 1)
            bound = float(dual.sum()) + self.n * max(0.0, top)
            if bound < best[1]:
                best = (dual, bound)
        return best

    def proportional_dual(self) -> tuple[NDArray[np.float64], float] | None:
        """The dual ``λ = a P`` with the least bound ``a + N max(0, r̄(a))`` found over
        ``a``, and that bound; ``None`` when a family has no finite relaxation bound.

        ``r̄(a)`` is the largest of the families' relaxation bounds at ``a P``
        (:meth:`relaxed_bounds`, certified like the exact pricing's), so any ``a`` gives
        a bound on the optimum (``1·λ = a``). The bound is convex in ``a`` (``r̄`` is a
        maximum of functions affine in it), searched by scipy's bounded scalar minimiser
        on ``|a| ≤ H(X) + 1``. Under ``(1, 1/(2N))``-PML, which has no closed form like
        ε-LDP's ``κ``, it is 6.1e-5 and 8.2e-5 nats
        above the optimum at N = 64 and 128 (Dirichlet(1) priors), where ``H(X)`` is
        ten times the optimum: :meth:`upper_bound` offers it to a run that ends with
        its bracket open."""
        p = self.prior

        def bound(a: float) -> float:
            return a + self.n * max(0.0, float(self.relaxed_bounds(a * p).max()))

        if not math.isfinite(bound(0.0)):
            return None
        reach = float(-p[p > 0] @ np.log(p[p > 0])) + 1.0
        result = minimize_scalar(bound, bounds=(-reach, reach), method="bounded",
                                 options={"xatol": PROPORTIONAL_DUAL_XATOL})
        a = float(result.x)
        return a * p, bound(a)

    def upper_bound(self, gap: float, time_limit: float | None) -> float:
        """The bound that needs no pricing, for a run that ends with its bracket open:
        ``I(X; Y) ≤ H(X)``, the prior's entropy (the design's upper bound never exceeds
        it; it is the whole bound when a time limit left no time to price exactly), and,
        where the notion has no closed-form information bound and the inputs no
        symmetry ((ε, c)-PML), the smaller bound of :meth:`proportional_dual`.

        The proportional dual is not part of the bracket while column generation runs
        (the relaxation bounds at the duals it prices are, see :meth:`heuristic`): a
        smaller upper end from it would tighten the pricing MIPs' gaps, which follow
        the bracket, and change the run's path (measured at (1, 1/(2N))-PML, N = 12 to
        96: no faster)."""
        p = self.prior[self.prior > 0]
        entropy = float(-(p * np.log(p)).sum())
        if _patterns_of(self.notion).information_bound is not None or (
                self._symmetric() is not None):
            return entropy
        proportional = self.proportional_dual()
        return entropy if proportional is None else min(entropy, proportional[1])

    def describe(self, columns: int) -> str:
        return "column generation (exact pattern pricing)"


def pattern_families(
    notion: object, prior: ArrayLike
) -> tuple[NDArray[np.float64], list, NDArray[np.float64]]:
    """The validated prior, the pattern families of ``notion`` (its entry in
    :data:`_PATTERNS`) and a first set of columns summing to ``1``; refuses a notion
    without a known pattern, ``N < 2`` and ε outside ``(0, ∞)``."""
    check_notion(notion)
    p = as_distribution(prior, "prior")
    n = p.shape[0]
    if n < 2:
        raise InvalidInputError(f"pricing needs N >= 2 inputs; got N = {n}.")
    patterns = _patterns_of(notion)
    if patterns is None:
        raise UnsupportedError(
            f"exact pricing needs a known pattern of the vertices, known for "
            f"epsilon-LDP, (epsilon, c)-PML and non-robust RLDP only; got {show(notion)}. "
            "Use method='enumeration' (or, for RobustLDP, LinearisationSource)."
        )
    check_column_generation_epsilon(notion.epsilon)
    families, initial = patterns.build(notion, p)
    return p, families, initial


def check_column_generation_epsilon(eps: float) -> None:
    """Column generation's range of ε: ``0 < ε < ∞`` (at 0 the section is a point, at
    ∞ the simplex; enumeration is immediate there)."""
    check_epsilon(eps)
    if eps == 0 or math.isinf(eps):
        raise InvalidInputError(
            f"column generation needs 0 < epsilon < inf; got {show(eps)} (use "
            "method='enumeration', whose section is then a point or the simplex)."
        )


def _ldp_patterns(notion: LDP, p: NDArray[np.float64]) -> tuple[list, NDArray[np.float64]]:
    # First columns: the singletons (their span makes the master feasible) and the arcs
    # of mass p* that attain the information bound in the limit (balanced_arcs).
    n = p.shape[0]
    family = TwoLevelFamily(p, math.exp(-notion.epsilon), 1.0, 1, n - 1)
    arcs = balanced_arcs(p, _balanced_output(notion.epsilon)[1], 1, n - 1)
    family.arc_mass = _balanced_output(notion.epsilon)[1]  # the heuristic's arcs too
    return [family], family.points(np.vstack([np.eye(n, dtype=bool), arcs]))


def _c_pml_patterns(notion: PML, p: NDArray[np.float64]) -> tuple[list, NDArray[np.float64]]:
    if notion.c is None:
        raise UnsupportedError(
            f"exact pricing needs a known pattern of the vertices, known for "
            f"epsilon-LDP, (epsilon, c)-PML and non-robust RLDP only; got {show(notion)}. "
            "Use method='enumeration'."
        )
    n = p.shape[0]
    c = notion.vertex_priors(n)[0].min()  # validates c against N
    return _c_pml_families(p, notion.epsilon, float(c)), np.full((1, n), 1.0 / n)


def _c_pml_families(p: NDArray[np.float64], eps: float, c: float) -> list[_Family]:
    n = p.shape[0]
    r = math.exp(eps)
    s = 1.0 - n * c
    families: list[_Family] = []
    for k in range(1, n):
        low = (1.0 - k * r * c) / ((n - k) + k * r * s)
        if low <= 0 or (s == 0 and k != n - 1):
            continue
        high = r * (c + s * low)
        if max(low, high) > r * (c + s * min(low, high)) + PATTERN_FEASIBILITY_ATOL:
            continue  # the two-level point lies outside the section
        families.append(TwoLevelFamily(p, low, high, k, k))
    top = r * c
    for k in range(0, n):
        free = 1.0 - k * top
        if free < -ROUNDING_ATOL or free > top + ROUNDING_ATOL:
            continue
        if free <= ROUNDING_ATOL:  # no free coordinate: 1_T / k
            if 1 <= k <= n - 1:
                families.append(TwoLevelFamily(p, 0.0, top, k, k))
        elif k == 0:
            # T empty, free = 1 ≤ r c: the unit vectors (the section is the simplex once
            # e^ε c ≥ 1). As a two-level family, without r c (1e14 at ε = 36) in its MIP.
            families.append(TwoLevelFamily(p, 0.0, 1.0, 1, 1))
        elif k + 1 <= n - 1:
            families.append(_ThreeLevel(p, top, free, k))
    return families


def _clone_patterns(notion: CloneLDP, p: NDArray[np.float64]) -> tuple[list, NDArray[np.float64]]:
    """:func:`~mechdesign.notions.clone_vertices` as families: ε₀-LDP's patterns when the
    clone mass adds nothing; else the peaks (a two-level family of size one, or
    :class:`PeakFamily`) and the flats (two levels, ``3 ≤ |Q| ≤ N − 1``). The first
    columns are the peaks without a middle set, whose span makes the master feasible."""
    n = p.shape[0]
    levels = clone_levels(notion.epsilon, notion.r)
    if levels.regime == "ldp":
        return _ldp_patterns(LDP(notion.epsilon), p)
    if levels.regime == "clones":
        peaks: _Family = TwoLevelFamily(p, levels.low, 1.0, 1, 1)
    else:
        peaks = PeakFamily(p, levels.low, levels.middle)
    families: list[_Family] = [peaks]
    if n >= 4:
        families.append(TwoLevelFamily(p, levels.flat_low, 1.0, 3, n - 1))
    first = np.where(np.eye(n, dtype=bool), 1.0, levels.low)
    return families, first / first.sum(axis=1, keepdims=True)


# -- non-robust RLDP ------------------------------------------------------------------------


def _ray_length(contains, start: NDArray[np.float64], direction: NDArray[np.float64]) -> float:
    """The largest ``t`` with ``start + t·direction`` in a convex set (bisection on its
    membership test; the feasible ``t`` form an interval containing 0)."""
    low, high = 0.0, 1.0
    while contains(start + high * direction) and high < 1e6:
        low, high = high, 2 * high
    for _ in range(60):
        middle = 0.5 * (low + high)
        if contains(start + middle * direction):
            low = middle
        else:
            high = middle
    return low


def surrounding_columns(contains, n: int) -> NDArray[np.float64]:
    """The farthest section points from the uniform one along ``±(e_x − 1/N)``.

    The uniform point is a positive combination of each pair, so a master that starts
    from them can leave the uniform mechanism at once. Starting from the uniform point
    and vertices alone, the robust masters at a = 240 stayed degenerate at utility 0 for
    hundreds of iterations: the vertices did not surround the uniform point.
    """
    uniform = np.full(n, 1.0 / n)
    out = []
    for x in range(n):
        for sign in (1.0, -1.0):
            direction = sign * (np.eye(n)[x] - uniform)
            out.append(uniform + _ray_length(contains, uniform, direction) * direction)
    return np.array(out)


def check_same_prior(prior: NDArray[np.float64], p_hat: NDArray[np.float64], notion) -> None:
    """Refuse (:class:`UnsupportedError`) a design prior other than the notion's own
    estimate ``P̂``: robust LDP's pricing is of mutual information under ``P̂``."""
    if not np.allclose(prior, p_hat, rtol=0, atol=PRIOR_MATCH_ATOL):
        raise UnsupportedError(
            f"column generation for {type(notion).__name__} prices mutual information "
            "under the notion's own estimate P̂ (the PolyOpt setting); got a different "
            "prior. Use method='enumeration'."
        )


class NonRobustFamily:
    """Exact pricing over the cone of non-robust RLDP (``NonRobustLDP``).

    The cone is ``{v ≥ 0 : m_{s1} ≤ e^ε m_{s2}}`` with ``m_s = P̂_{U|s}·v_s``. Its
    extreme rays are ``e_(s,u)`` with ``P̂(u|s) = 0`` and, for a pattern ``w = ℓ + (1 −
    ℓ) 1_B`` (``ℓ = e^{−ε}``, ``∅ ≠ B ≠ S``) and one ``u_s`` per block,
    ``v = Σ_s (w_s / P̂(u_s|s)) e_(s,u_s)``: given ``m(v) = Σ_j α_j w_j`` (extreme rays
    of the LDP cone on ``S``), ``v = Σ_j α_j Σ_{(u_s)} Π_s φ_{s,u_s} Σ_s (w_{j,s} /
    P̂(u_s|s)) e_(s,u_s)`` with ``φ_{s,u} = P̂(u|s) v_{s,u} / m_s``, plus its mass on
    zero-probability cells. With the design prior ``P = P̂``, ``P_(s,u_s) v_(s,u_s) =
    P̂_s w_s``, so for the Dinkelbach parameter ``θ`` (normaliser ``D = Σ_s w_s /
    P̂(u_s|s)``)

    .. math::

        R - \theta D = \\sum_s \\hat P_s w_s \\log w_s + \\sum_s w_s \beta_s(\theta)
        - G\\Bigl(\\sum_s \\hat P_s w_s\\Bigr), \\quad
        \beta_s(\theta) = \\max_{u} \\Bigl[-\\hat P_s \\log \\hat P(u|s)
        - \frac{\\lambda_{s,u} + \theta}{\\hat P(u|s)}\\Bigr]:

    the best ``u_s`` is chosen block by block, and what remains is the ε-LDP problem on
    ``S`` with prior ``P̂_S`` and dual ``−β(θ)`` (a :class:`TwoLevelFamily` MIP). ``D ≥
    |S| ℓ + 1 − ℓ``.
    """

    def __init__(self, p_hat: NDArray[np.float64], shape: tuple[int, int], eps: float) -> None:
        joint = p_hat.reshape(shape)
        self.p_hat = p_hat
        self.shape = shape
        self.marginal = joint.sum(axis=1)
        self.conditional = joint / self.marginal[:, None]
        self.low = math.exp(-eps)
        self.secrets = TwoLevelFamily(self.marginal, self.low, 1.0, 1, shape[0] - 1)
        self.zero_cells = np.flatnonzero(p_hat == 0)
        self.min_normaliser = shape[0] * self.low + 1.0 - self.low

    def scores(self, dual: NDArray[np.float64], theta: float) -> NDArray[np.float64]:
        """``−P̂_s log P̂(u|s) − (λ_(s,u) + θ)/P̂(u|s)`` (``−inf`` where ``P̂(u|s) = 0``),
        shape ``(|S|, |U|)``."""
        lam = dual.reshape(self.shape)
        cond = self.conditional
        with np.errstate(divide="ignore", invalid="ignore"):
            score = -self.marginal[:, None] * np.log(cond) - (lam + theta) / cond
        score[cond == 0] = -np.inf
        return score

    def _choices(self, dual: NDArray[np.float64], theta: float) -> tuple[NDArray, NDArray]:
        """``β(θ)`` and the maximising ``u_s`` of every block."""
        score = self.scores(dual, theta)
        u = np.argmax(score, axis=1)
        return score[np.arange(self.shape[0]), u], u

    def _columns(self, z: NDArray[np.bool_], u: NDArray[np.int64]) -> NDArray[np.float64]:
        a1, a2 = self.shape
        w = np.where(z, 1.0, self.low)  # (m, |S|)
        v = np.zeros((z.shape[0], a1, a2))
        blocks = np.arange(a1)
        v[:, blocks, u] = w / self.conditional[blocks, u][None, :]
        v = v.reshape(z.shape[0], a1 * a2)
        return v / v.sum(axis=1, keepdims=True)

    def contains(self, v: NDArray[np.float64]) -> bool:
        """``v ≥ 0`` and ``m_{s1} ≤ e^ε m_{s2}`` for ``s1 ≠ s2`` (with ``|S| ≥ 2`` that is
        ``max m ≤ e^ε min m``)."""
        if np.any(v < 0):
            return False
        m = np.sum(self.conditional * v.reshape(self.shape), axis=1)
        return bool(m.max() * self.low <= m.min() + ROUNDING_ATOL)

    def _with_zero_cells(self, columns, costs, dual):
        if self.zero_cells.size == 0:
            return columns, costs
        cells = np.eye(self.p_hat.shape[0])[self.zero_cells]
        return np.vstack([columns, cells]), np.concatenate([costs, -dual[self.zero_cells]])

    def relaxed_bound(self, dual: NDArray[np.float64]) -> float:
        """None without a MIP (the choice of ``u_s`` depends on the Dinkelbach ``θ``):
        ``inf``."""
        return math.inf

    def heuristic_pricing(self, dual: NDArray[np.float64]) -> tuple[NDArray, NDArray]:
        beta, u = self._choices(dual, 0.0)
        z, _ = self.secrets.heuristic_patterns(-beta)
        columns = self._columns(z, u)
        costs = mutual_information_columns(self.p_hat, columns) - columns @ dual
        return self._with_zero_cells(columns, costs, dual)

    def exact_pricing(
        self, dual: NDArray[np.float64], converge: bool, abs_gap: float,
        deadline: float | None = None,
    ) -> tuple[NDArray, NDArray, float, int]:
        theta = 0.0
        found, mips = [], 0
        upper = math.inf
        for _ in range(PRICING_DINKELBACH_STEPS if converge else 1):
            beta, u = self._choices(dual, theta)
            z, bound, used, _ = self.secrets._max_linearised(-beta, 0.0, None, abs_gap,
                                                             deadline)
            mips += used
            column = self._columns(z[None, :], u)
            r = float(mutual_information_columns(self.p_hat, column)[0] - column[0] @ dual)
            found.append((column, r))
            upper = theta + max(0.0, bound) / self.min_normaliser
            if bound <= PRICING_CUT_ATOL * self.min_normaliser or r <= theta:
                break
            theta = r
        columns = np.vstack([c for c, _ in found])
        costs = np.array([r for _, r in found])
        upper = max(upper, float(costs.max()))
        columns, costs = self._with_zero_cells(columns, costs, dual)
        if self.zero_cells.size:
            upper = max(upper, float(np.max(-dual[self.zero_cells])))
        return columns, costs, upper, mips


def _same_prior(notion: NonRobustLDP, prior: NDArray[np.float64]) -> bool:
    return bool(np.allclose(prior, notion.p_hat, rtol=0, atol=PRIOR_MATCH_ATOL))


def _non_robust_patterns(notion: NonRobustLDP, p: NDArray[np.float64]):
    check_same_prior(p, notion.p_hat, notion)
    family = NonRobustFamily(notion.p_hat, notion.shape, notion.epsilon)
    n = p.shape[0]
    # Cells of probability 0 get their own columns e_x (rays of the cone), and the
    # uniform point is surrounded (see surrounding_columns).
    initial = np.unique(np.vstack([
        np.full((1, n), 1.0 / n),
        np.eye(n)[p == 0],
        surrounding_columns(family.contains, n),
    ]), axis=0)
    return [family], initial


# -- the table -----------------------------------------------------------------------------

#: The notions whose section vertices have a known pattern, by type: what
#: :class:`PatternSource` prices, looked up along the notion's method resolution order (a
#: subclass is served by its base's entry, as in
#: :data:`~mechdesign.optimal.registry.PRICING_SOURCES`, the registry of column sources).
#: A literal table: nothing is registered as a side effect of importing a module.
_PATTERNS: dict[type, _Patterns] = {
    LDP: _Patterns(
        supports=lambda notion, prior: True,
        build=_ldp_patterns,
        information_bound=lambda notion: ldp_information_bound(notion.epsilon),
        merges_inputs=True,
        randomized_response=True,
    ),
    PML: _Patterns(
        supports=lambda notion, prior: notion.c is not None,
        build=_c_pml_patterns,
        columns_per_input=PML_MASTER_COLUMNS_PER_INPUT,
    ),
    CloneLDP: _Patterns(
        supports=lambda notion, prior: True,
        build=_clone_patterns,
        information_bound=lambda notion: ldp_information_bound(
            min(notion.epsilon, -math.log(notion.levels.low))),
    ),
    NonRobustLDP: _Patterns(
        supports=lambda notion, prior: _same_prior(notion, prior),
        build=_non_robust_patterns,
    ),
}


def ldp_column(epsilon: float, pattern: ArrayLike) -> NDArray[np.float64]:
    """The ε-LDP vertex ``v_B = (1 + c 1_B)/(N + c|B|)``, ``c = e^ε − 1``, of a pattern
    ``B`` (boolean).

    Parameters
    ----------
    epsilon : float
        ε in nats, ``≥ 0`` (``inf`` allowed: the vertex is then uniform on ``B``).
    pattern : array_like of bool, shape (N,)
        The set ``B``: a non-empty proper subset of the inputs (some but not all True).

    Returns
    -------
    ndarray, shape (N,)
        The vertex, summing to one.
    """
    eps = check_epsilon(epsilon)
    b = np.asarray(pattern, dtype=bool)
    if b.ndim != 1 or b.all() or not b.any():
        raise InvalidInputError(
            f"pattern must be a non-empty proper subset of the inputs (a 1-D boolean "
            f"array with some but not all entries True); got {show(pattern)}."
        )
    # Divided by e^ε: 1 on B, e^{−ε} off B (no overflow at large ε).
    raw = np.where(b, 1.0, math.exp(-eps))
    return raw / raw.sum()


def price_ldp(epsilon: float, prior: ArrayLike, dual: ArrayLike) -> Pricing:
    """Exact ε-LDP pricing for mutual information: :meth:`PatternSource.price` for
    :class:`~mechdesign.notions.LDP` (``0 < ε < ∞``).

    ``Pricing.column`` is the vertex ``v_B`` of largest reduced cost over all
    ``2^N − 2`` vertices and ``Pricing.upper_bound`` bounds it from above (they agree
    to :data:`PRICING_CUT_ATOL`).

    Parameters
    ----------
    epsilon : float
        ε in nats, ``0 < ε < ∞``.
    prior : array_like, shape (N,)
        The prior of mutual information: a probability vector, ``N ≥ 2``.
    dual : array_like, shape (N,)
        The master's dual ``λ``: finite.

    Returns
    -------
    Pricing
    """
    from mechdesign.notions import LDP

    return PatternSource(LDP(epsilon), prior).price(dual)
