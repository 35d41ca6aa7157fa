"""Named tolerances and the validation used at every public boundary.

Tolerances live here and nowhere else; functions take them as keyword arguments whose
defaults are these constants, so a caller can tighten or loosen one explicitly.
"""

from __future__ import annotations

import math
from numbers import Integral, Real

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mechdesign.errors import InvalidInputError

#: Absolute tolerance on a probability vector's (or a kernel row's) sum being 1.
STOCHASTIC_ATOL = 1e-9

#: Relative tolerance for two output columns being proportional (same posterior), used
#: when merging "similar" outcomes into the reduced mechanism.
PROPORTIONAL_RTOL = 1e-9

#: Tolerance for a matrix being treated as rank deficient when inverting a mechanism:
#: singular values below ``RANK_RTOL * largest`` count as zero.
RANK_RTOL = 1e-10

#: Stopping tolerance of the EM iteration for the maximum-likelihood input estimate:
#: stop when the largest change of an estimated probability falls below it.
EM_TOL = 1e-12

#: Relative slack on Remark 2's validity conditions e^ε c q ≤ 1 and e^ε c (N − q) ≤ 1
#: (Dobrushin paper): at equality they round either way (log(10/3), c = 0.05, N = 10,
#: q = 4 gives 1 + 2e-16), and the kernel entry that is then 0 or 1 is set exactly.
REMARK2_RTOL = 1e-12

#: Iteration cap of the EM iteration; reaching it raises :class:`SolverError`.
EM_MAX_ITER = 200_000


def show(value: object) -> str:
    """``repr`` for messages, with a numpy scalar shown as the plain number it holds
    (``1.1``, not ``np.float64(1.1)``) and an array as its list of plain numbers."""
    if isinstance(value, np.generic):
        value = value.item()
    elif isinstance(value, np.ndarray):
        value = value.tolist()
    return repr(value)


def _position(index: tuple[int, ...]) -> str:
    """Where an entry is, counted from 1 as in a CSV file, with the 0-based numpy index:
    ``entry 3 (index 2)``, ``row 1, column 2 (index (0, 1))``."""
    if len(index) == 1:
        return f"entry {index[0] + 1} (index {index[0]})"
    if len(index) == 2:
        return f"row {index[0] + 1}, column {index[1] + 1} (index {index})"
    return f"entry {index}"


def as_float_array(value: ArrayLike, name: str, ndim: int) -> NDArray[np.float64]:
    """Convert ``value`` to a finite float array with ``ndim`` dimensions, or raise."""
    try:
        array = np.array(value, dtype=float)
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(f"{name} must be a numeric array; got {show(value)}.") from exc
    if array.ndim != ndim:
        raise InvalidInputError(f"{name} must be {ndim}-dimensional; got shape {array.shape}.")
    if array.size == 0:
        raise InvalidInputError(f"{name} must not be empty; got shape {array.shape}.")
    if not np.all(np.isfinite(array)):
        bad = tuple(int(i) for i in np.argwhere(~np.isfinite(array))[0])
        raise InvalidInputError(f"{name} must be finite; {_position(bad)} is {show(array[bad])}.")
    return array


def as_distribution(
    value: ArrayLike, name: str, n: int | None = None, *, atol: float = STOCHASTIC_ATOL
) -> NDArray[np.float64]:
    """A validated probability vector: 1-D, length ``n``, finite, ≥ 0, sum 1 within ``atol``.

    Nothing is renormalised; a vector that fails a check raises
    :class:`InvalidInputError` naming ``name``.
    """
    p = as_float_array(value, name, ndim=1)
    if n is not None and p.shape[0] != n:
        raise InvalidInputError(f"{name} must have length {n}; got length {p.shape[0]}.")
    if np.any(p < 0):
        i = int(np.argmin(p))
        raise InvalidInputError(
            f"{name} must be non-negative; {_position((i,))} is {show(p[i])}."
        )
    total = float(p.sum())
    if abs(total - 1.0) > atol:
        raise InvalidInputError(
            f"{name} must sum to 1 (within {atol:g}); it sums to {show(total)}."
        )
    p.setflags(write=False)
    return p


def as_stochastic_matrix(
    value: ArrayLike, name: str, *, atol: float = STOCHASTIC_ATOL
) -> NDArray[np.float64]:
    """A validated row-stochastic matrix (a read-only copy), or raise naming ``name``."""
    k = as_float_array(value, name, ndim=2)
    if np.any(k < 0):
        bad = tuple(int(i) for i in np.unravel_index(int(np.argmin(k)), k.shape))
        raise InvalidInputError(f"{name} must be non-negative; {_position(bad)} is {show(k[bad])}.")
    sums = k.sum(axis=1)
    off = np.abs(sums - 1.0)
    if np.any(off > atol):
        row = int(np.argmax(off))
        raise InvalidInputError(
            f"{name} must be row-stochastic (rows are inputs; each row sums to 1 within "
            f"{atol:g}); row {row + 1} (index {row}) sums to {show(sums[row])}."
        )
    k.setflags(write=False)
    return k


def check_epsilon(epsilon: float, name: str = "epsilon") -> float:
    """ε ≥ 0 (``math.inf`` allowed); returns it as a float."""
    value = as_real(epsilon, name)
    if math.isnan(value) or value < 0:
        raise InvalidInputError(f"{name} must be >= 0; got {show(epsilon)}.")
    return value


def check_alpha(alpha: float, name: str = "alpha") -> float:
    """Rényi order α > 0 (``math.inf`` allowed); returns it as a float."""
    value = as_real(alpha, name)
    if math.isnan(value) or value <= 0:
        raise InvalidInputError(f"{name} must be > 0; got {show(alpha)}.")
    return value


def check_c(c: float, n: int, name: str = "c") -> float:
    """The (ε,c)-PML constant: 0 < c ≤ 1/n (Dobrushin paper, eq. 15)."""
    value = as_real(c, name)
    # A tiny slack lets c = 1/n computed in floating point pass.
    if not (value > 0 and value <= 1.0 / n * (1 + 1e-12)):
        raise InvalidInputError(
            f"{name} must satisfy 0 < {name} <= 1/N = {show(1.0 / n)} for N = {n} inputs; "
            f"got {show(c)}."
        )
    return min(value, 1.0 / n)


def check_positive_int(value: int, name: str) -> int:
    """An integer ≥ 1."""
    if isinstance(value, bool) or not isinstance(value, Integral) or value < 1:
        raise InvalidInputError(f"{name} must be a positive integer; got {show(value)}.")
    return int(value)


def as_real(value: float, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, Real):
        raise InvalidInputError(f"{name} must be a real number; got {show(value)}.")
    return float(value)


# -- vertex enumeration and design (cones.py, design.py) --------------------------------

#: Two enumerated vertices closer than this (max-norm) are the same vertex. Floating
#: point vertex enumeration on degenerate polytopes returns near-duplicates.
VERTEX_DEDUP_ATOL = 1e-9

#: A float vertex must satisfy every inequality of the H-representation (rows scaled to
#: unit max-norm) to within this, and sum to one within it.
VERTEX_FEASIBILITY_ATOL = 1e-9

#: The cdd backend's LP probes (cones._probe_missing_vertices) report a vertex cddlib
#: missed when the LP maximum of a direction d over the section exceeds the maximum over
#: the enumerated points by more than this times ‖d‖₁.
VERTEX_PROBE_ATOL = 1e-9

#: Random directions per probing round (besides the 2N coordinate directions ±e_i) and
#: the most rounds; a round that finds nothing ends the probing.
VERTEX_PROBE_DIRECTIONS = 16
VERTEX_PROBE_ROUNDS = 8

#: When cddlib is known to have missed vertices, design() looks for improving columns by
#: successive linearisation (design.sources.price_by_linearisation): at most this many rounds,
#: each from this many starting points (the best by reduced cost, then a fixed-seed
#: random sample: on one PolyOpt instance only starts ranked 355th-476th of 487 led to
#: the improving vertex), each ascent at most this many LPs.
PRICING_ROUNDS = 20
PRICING_STARTS = 512
PRICING_ASCENT_STEPS = 20

#: Exact pricing (design.patterns.PricingOracle.price) accepts a MIP solution when its epigraph
#: variable is within this of the convex function G(s) = s log s (HiGHS's MIP feasibility
#: tolerance is set to 1e-10, so tighter would only re-add the same cut).
PRICING_CUT_ATOL = 1e-12

#: Tangent cuts of G each pricing MIP starts with (geometrically spaced over the range of
#: the aggregate), and the most Dinkelbach steps of a family whose normaliser varies.
PRICING_INITIAL_CUTS = 16

#: Absolute optimality gap of a pricing MIP (relative gap 0). Near the column-generation
#: optimum very many patterns have reduced cost within rounding of zero, and a gap of
#: 1e-13 made one branch and bound at N = 20 run for minutes; the bound only has to be
#: this accurate. A MIP that reaches the time limit stops with its dual bound, which is
#: still an upper bound.
PRICING_MIP_ABS_GAP = 1e-11
PRICING_MIP_TIME_LIMIT = 30.0
PRICING_DINKELBACH_STEPS = 30

#: Heuristic pricing linearises G at this many aggregates (evenly spaced over its range)
#: and sorts the linearised scores at each.
PRICING_HEURISTIC_SLOPES = 48

#: The heuristic then climbs by single flips and swaps from this many of its best
#: patterns, at most this many steps each (every scanned pattern with positive reduced
#: cost is kept as a candidate column).
PRICING_LOCAL_STARTS = 4
PRICING_LOCAL_STEPS = 50

#: PolyOpt's heuristic pricing (design.robust_pricing.LinearisationOracle) climbs from this
#: many starts per column-generation iteration, at most this many LPs each.
LINEARISATION_STARTS = 16
LINEARISATION_STEPS = 10

#: When the starts find no improving column, column generation tries again with this
#: many times as many, up to LINEARISATION_RETRIES times, before it stops.
LINEARISATION_ESCALATION = 8
LINEARISATION_RETRIES = 3

#: The climb's gradient is taken at (1 − τ) v + τ/N with this τ (finite at zeros).
LINEARISATION_SMOOTHING = 1e-3

#: Column generation adds at most this many improving columns (best first) per iteration.
COLUMN_GENERATION_BATCH = 32

#: Column generation stops as "optimal" when upper − lower ≤ this · max(1, |lower|).
COLUMN_GENERATION_GAP = 1e-8

#: Column generation gives up (status "feasible, gap g") after this many master LPs (a
#: backstop: the gap or the time limit normally decides; PolyOpt at a = 240 passed 500).
COLUMN_GENERATION_MAX_ITERATIONS = 5000

#: The exact backend decides a candidate active set in floating point only when its
#: system is well conditioned (condition number below this); otherwise exactly.
EXACT_SCREEN_COND = 1e6

#: Margin of the floating-point screen of the exact backend: a well-conditioned active
#: set is discarded only when its solution violates an inequality by more than this.
#: With condition number ≤ EXACT_SCREEN_COND the floating-point error is below 1e-8,
#: so no vertex is lost.
EXACT_SCREEN_ATOL = 1e-6

#: A designed mechanism passes its audit when its privacy level is ≤ ε + this.
AUDIT_ATOL = 1e-9

#: The LP optimality certificate holds when every dual constraint λ·v ≥ μ(v) is violated
#: by at most this and the primal and dual objectives agree to within it (both relative
#: to max(1, |objective|)).
CERTIFICATE_ATOL = 1e-8

#: Default cap on the number of vertices a design may enumerate (2^20, just above the
#: 2^20 − 2 vertices of ε-LDP at N = 20).
MAX_VERTICES = 2**20

#: Default cap on the number of active sets the exact backend may examine.
MAX_EXACT_ACTIVE_SETS = 300_000

#: HiGHS's primal and dual feasibility tolerances (its defaults are 1e-7); tight enough
#: that the certificate test at CERTIFICATE_ATOL is meaningful.
LP_FEASIBILITY_TOL = 1e-10

#: HiGHS's default feasibility tolerance, used for a second attempt when the tight one
#: reports a (provably feasible) vertex LP infeasible; the certificate then decides.
LP_FALLBACK_FEASIBILITY_TOL = 1e-7

#: Entries of an LP solution within this distance of a box bound (0 or 1) are set to the
#: bound: HiGHS returns bounds up to its feasibility tolerance, and a 1e-16 where the
#: exact solution has 0 changes a ratio audit from finite to huge.
LP_SNAP_ATOL = 1e-9

#: Absolute tolerance, in ``p``, of the minimiser of ψ_α(·, t) that gives the exact lower
#: boundary of the (TV, D_{f_α}) joint range; Brent's method adds its own relative floor of
#: √eps. ψ_α is flat at its minimum (relative curvature O(1)), so the boundary value is
#: accurate to second order in this.
JOINT_RANGE_XATOL = 1e-12

#: Below this ``|x|`` the power series of the excess functions ``e^x − 1 − x`` and
#: ``(1 + x) log(1 + x) − x`` are summed instead of their closed forms, which cancel there;
#: ``SERIES_TERMS`` terms of either series then reach far below double precision.
SERIES_RADIUS = 0.25
SERIES_TERMS = 30

#: Prior weights below this are set to zero (and the prior renormalised) in the local
#: search for η_χ²: the maximal correlation at a prior with subnormal weights is computed
#: from outputs whose probability has lost its precision (seen: 0.55 > η_TV = 0.43).
CORRELATION_WEIGHT_FLOOR = 1e-12

#: Weights a of the near-point-mass starting priors a·e_x + (1 − a)·e_x' in the search for
#: η_χ²: suprema approached as a → 0 are then found to within about a (well above the
#: floor, so no precision is lost in P_Y).
BOUNDARY_PRIOR_WEIGHTS = (1e-3, 1e-6, 1e-9)

#: log of the largest finite double: ``exp`` of anything larger overflows to +inf.
LOG_FLOAT_MAX = math.log(np.finfo(float).max)

# -- PML quantiles and envelopes (envelope.py) ------------------------------------------

#: Two leakage values (nats) closer than this are the same value: ``ℓ(X → y)`` computed
#: through different outputs carries rounding of a few ulps (Example 1's ``log(10/9)``),
#: and a strict ``ℓ > ε`` must not count an outcome that leaks exactly ε.
LEAKAGE_TIE_ATOL = 1e-12

#: Slack when a probability is compared with δ in the quantiles (``P(A) ≥ 1 − δ``,
#: ``P(A) ≥ δ``): the paper's examples sit exactly on those boundaries, and ``P_Y``
#: computed as ``P_X @ K`` is only accurate to a few ulps.
QUANTILE_MASS_ATOL = 1e-12

#: Slack on the bad-set mass of the envelope LP (a repaired mass ``≥ δ − slack`` counts as
#: reaching δ): the paper's examples put δ exactly on a sum of output probabilities, which
#: floating point reproduces only to a few ulps. The computed envelope is ε_c(δ − slack)
#: (≥ ε_c(δ): the conservative side). Keep it ≤ QUANTILE_MASS_ATOL, so that the witness
#: post-processing of an envelope verifies through :func:`pml_upper_quantile` at the
#: same δ.
ENVELOPE_MASS_ATOL = 1e-12

#: Relative width of the final bracket [λ_lo, λ_hi] on ``e^{ε_c(δ)}`` in the envelope's
#: bisection: the returned ε_c(δ) is within this (in nats) of the bracket's top.
ENVELOPE_RTOL = 1e-12

# -- robust LDP audit (robust.py) ---------------------------------------------------------

#: Points of the uniform grid over the budget split λ ∈ [0, 1] in the exact robust audit;
#: the best grid points are then refined by bounded Brent search. For α ≥ 1/2 the ratio
#: is quasi-concave in λ, so the refinement bracket contains the maximiser.
ROBUST_GRID_POINTS = 17

#: Absolute tolerance on λ of that refinement (the level is smooth in λ, so the value
#: error is far smaller).
ROBUST_LAMBDA_XATOL = 1e-10
