"""Named tolerances: every numerical slack of the package, in one place.

Algorithm knobs (iteration counts, start points, batch sizes) live beside their algorithm;
a tolerance — how close two numbers must be to count as equal, or how far a computed
value may stray from its exact one — lives here, with the reason for its value. Functions
take them as keyword arguments whose defaults are these constants where a caller may
want to tighten or loosen one.
"""

from __future__ import annotations

#: Absolute tolerance on a probability vector's (or a kernel row's) sum being 1.
STOCHASTIC_ATOL = 1e-9

#: The largest row-sum tolerance a caller may pass (``atol``): a row off by more than
#: this is not a distribution any measure here would mean anything for.
STOCHASTIC_ATOL_MAX = 1e-3

#: Relative tolerance for two output columns being proportional (same posterior), used
#: when merging "similar" outcomes into the reduced mechanism.
PROPORTIONAL_RTOL = 1e-9

#: Relative tolerance for an information matrix (or another Gram matrix) being symmetric:
#: a J assembled from floats is symmetric to a few ulps; an asymmetric one is a caller's error.
SYMMETRY_RTOL = 1e-9

#: Tolerance for a matrix being treated as rank deficient when inverting a mechanism:
#: singular values below ``RANK_RTOL * largest`` count as zero.
RANK_RTOL = 1e-10

#: A workload lies in the range of an information matrix (the kernel identifies its
#: answers) when its component in the null space is below this share of its norm
#: (:func:`mechdesign.measures.estimation.workload_inverse`): that null space is computed to
#: about ``1e-16 · cond(J)``, up to ``1e-6`` at RANK_RTOL's largest condition number.
WORKLOAD_RANGE_RTOL = 1e-6

#: Stopping tolerance of the maximum-likelihood input estimate: stop when the certified
#: gap (the log-likelihood per report the estimate may leave below the maximum) is at
#: most this.
EM_TOL = 1e-12

#: Relative slack on Remark 2's validity conditions e^ε c q ≤ 1 and e^ε c (N − q) ≤ 1
#: (Dobrushin paper): at equality they round either way (log(10/3), c = 0.05, N = 10,
#: q = 4 gives 1 + 2e-16), and the kernel entry that is then 0 or 1 is set exactly.
REMARK2_RTOL = 1e-12

#: Two enumerated vertices closer than this (max-norm) are the same vertex. Floating
#: point vertex enumeration on degenerate polytopes returns near-duplicates.
VERTEX_DEDUP_ATOL = 1e-9

#: A float vertex must satisfy every inequality of the H-representation (rows scaled to
#: unit max-norm) to within this, and sum to one within it.
VERTEX_FEASIBILITY_ATOL = 1e-9

#: cddlib's float vertices are re-solved from their active sets (rows, scaled to unit
#: max-norm, whose slack is below this, with Σ v = 1): measured, cddlib's vertices of a
#: robust-LDP section at ε = 10 were 3.4e-9 off the exact ones — feasible to 1e-13, but
#: on a coordinate of 7.8e-5, enough to raise the kernel's level 3.4e-9 above ε.
VERTEX_ACTIVE_ATOL = 1e-7

#: A re-solved vertex replaces cddlib's only when it moves less than this (max-norm) and
#: solves its active system to within :data:`VERTEX_RESOLVE_RESIDUAL_ATOL` (else the
#: active set was misread, and cddlib's point is kept).
VERTEX_RESOLVE_MOVE_ATOL = 1e-6
VERTEX_RESOLVE_RESIDUAL_ATOL = 1e-12

#: The cdd backend's LP probes (cones._probe_missing_vertices) report a vertex cddlib
#: missed when the LP maximum of a direction d over the section exceeds the maximum over
#: the enumerated points by more than this times ‖d‖₁.
VERTEX_PROBE_ATOL = 1e-9

#: Exact pricing (design.patterns.PatternSource.price) accepts a MIP solution when its
#: epigraph variable is within this of the convex function G(s) = s log s (HiGHS's MIP feasibility
#: tolerance is set to 1e-10, so tighter would only re-add the same cut).
PRICING_CUT_ATOL = 1e-12

#: Absolute optimality gap of a pricing MIP (relative gap 0). Near the column-generation
#: optimum very many patterns have reduced cost within rounding of zero, and a gap of
#: 1e-13 made one branch and bound at N = 20 run for minutes; the bound only has to be
#: this accurate. A MIP that reaches the time limit stops with its dual bound, which is
#: still an upper bound.
PRICING_MIP_ABS_GAP = 1e-11

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

#: A kernel meets a clone mass ``r`` (``CloneLDP``) when its own is ≥ ``r (1 − this)``:
#: the rounding of a designed kernel's columns, relative.
CLONE_AUDIT_RTOL = 1e-9

#: A CloneLDP whose peaks' middle level is within this of their low one (relative) is in
#: its clone-capped regime (peak min(S − 1, e^ε₀), 1 elsewhere): at k-RR's clone mass the
#: two agree exactly, and computed they differ by the cancellation in e^{−ε₀}/r − 1.
CLONE_REGIME_RTOL = 1e-9

#: Relative resolution of a shuffled target's frontier (the least clone mass for a local
#: ε₀, and the frontier's ends), and the margin a designed clone mass is raised by so that
#: its kernel's rounding (CLONE_AUDIT_RTOL) keeps the target met.
CLONE_FRONTIER_RTOL = 1e-11

#: A shuffled target's frontier is drawn at the central ε less this (relative), so that
#: ``shuffle_epsilon`` of a designed kernel — the upper end of a bisection to
#: EPSILON_RTOL = 1e-9 — never reads above the target.
CLONE_EPSILON_MARGIN = 1e-8

#: The LP optimality certificate holds when every dual constraint λ·v ≥ μ(v) is violated
#: by at most this and the primal and dual objectives agree to within it (both relative
#: to max(1, |objective|)).
CERTIFICATE_ATOL = 1e-8

#: Column generation stops as "optimal" when upper − lower ≤ this · max(1, |lower|).
COLUMN_GENERATION_GAP = 1e-8

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

#: Prior weights below this are set to zero (and the prior renormalised) in the local
#: search for η_χ²: the maximal correlation at a prior with subnormal weights is computed
#: from outputs whose probability has lost its precision (seen: 0.55 > η_TV = 0.43).
CORRELATION_WEIGHT_FLOOR = 1e-12

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

#: Absolute tolerance on λ of that refinement (the level is smooth in λ, so the value
#: error is far smaller).
ROBUST_LAMBDA_XATOL = 1e-10

#: Slack for comparisons of quantities of order one that must not flip on rounding alone
#: (a few ulps): a pattern's free coordinate being 0, a cut already at an aggregate, a
#: climb gaining nothing, a point on the boundary of the non-robust cone.
ROUNDING_ATOL = 1e-15

#: The closed-form information bound of ε-LDP (``κ(ε) = A − 1 − log A``) is raised by
#: this share before it certifies a design: its few roundings (``expm1``, ``log1p``)
#: cost a few ulps, so a bound raised by a thousand of them is still a bound.
INFORMATION_BOUND_RTOL = 1e-12

#: Randomized response's information and pair margin
#: (:func:`~mechdesign.optimal.patterns.randomized_response_bound`) are sums of terms of
#: order one (``s log s`` and ``εδ``, both at most ``1/e``), one per input: each input's
#: roundings are counted as this much (about 45 ulps), and the bound is raised by them.
#: Without it, at ε ≈ 1e-8 the rounding of ``O(ε)`` terms whose sum is ``O(ε²)`` made a
#: negative margin positive and randomized response look optimal.
RANDOMIZED_RESPONSE_ATOL = 1e-14

#: Relative slack of a log-domain feasibility condition that holds with equality at a
#: threshold (``(N − z) c e^ε ≥ 1`` at ε = −log((N − z)c), Theorem 2 and Lemma 1 of the
#: Dobrushin paper); also two scores within this (relative) are ties.
THRESHOLD_RTOL = 1e-12

#: A (ε, c)-PML pattern family's two-level point lies in the section when its largest
#: ratio exceeds e^ε by at most this (an exact equality in the closed form).
PATTERN_FEASIBILITY_ATOL = 1e-12

#: A design prior equals a robust notion's estimate P̂ when they agree to this (max-norm):
#: column generation prices mutual information under P̂ only.
PRIOR_MATCH_ATOL = 1e-12

#: HiGHS's MIP and primal feasibility tolerances in the pricing MIPs (its defaults are
#: 1e-6 and 1e-7); PRICING_CUT_ATOL is set below what they resolve.
PRICING_MIP_FEASIBILITY_TOL = 1e-10

#: Smallest aggregate ``s = P·u`` a tangent cut of ``G(s) = s log s`` is taken at (its
#: slope log s + 1 is −∞ at 0).
AGGREGATE_FLOOR = 1e-12

#: Relative margin put above Theorem 3's upper bound on e^{ε_c(δ)} to start the envelope's
#: bisection strictly above its value (any positive margin will do).
ENVELOPE_BRACKET_RTOL = 1e-9

#: Root tolerances of the one-dimensional solves for the extreme points of a Rényi ball
#: (Brent's method; it adds its own relative floor of 4 double epsilons): the multiplier
#: ``t`` of a conditional projection's boundary (uncertainty.py) and the log-multiplier of
#: a linear function's extreme over the ball (robust.linear_extreme).
BALL_ROOT_XTOL = 1e-15
LINEAR_EXTREME_XTOL = 1e-14

#: Absolute tolerance on the split ρ of Proposition 2's radius bound (bounded Brent).
RADIUS_SPLIT_XATOL = 1e-12

#: Tolerance on IR's budget split ε₁ (bounded Brent, relative to max(1, ε)).
IR_SPLIT_XATOL = 1e-10

#: Nelder–Mead's tolerances in the local search for η_χ² (on the logits and on η²).
CORRELATION_SEARCH_XATOL = 1e-10
CORRELATION_SEARCH_FATOL = 1e-14

#: Relative slack on c ≤ 1/N, so that c = 1/N computed in floating point passes.
C_BOUNDARY_RTOL = 1e-12

#: Twice the area of a triangle of trade-off breakpoints (in the unit square) below which
#: its middle point counts as collinear and is merged into the segment
#: (accounting.tradeoff.tradeoff_curve): likelihood ratios that agree up to rounding.
COLLINEAR_ATOL = 1e-13

#: A generator ``f`` of an f-divergence must have ``f(1) = 0`` (so that ``D_f(P‖P) = 0``);
#: ``|f(1)|`` up to this passes. Adding a constant ``b`` to ``f`` adds ``b`` to every
#: divergence (``Σ_y q_y = 1``), so this is also the absolute error such a generator
#: brings to ``D_f``; a generator written in floating point (``(t − 0.1)² − 0.81``)
#: misses 0 by a few ulps of its scale, far below it.
GENERATOR_AT_ONE_ATOL = 1e-12

#: Estimation design's Newton polish (mechdesign.optimal.estimation): a step is accepted
#: when the error grows by at most this share (the rounding of tr(W J⁻¹ Wᵀ) itself), and
#: the polish stops when no weight moves by more than ESTIMATION_STEP_RTOL of the largest.
ESTIMATION_DESCENT_RTOL = 1e-14
ESTIMATION_STEP_RTOL = 1e-15

#: A saved kernel whose document states an LDP level ε is read only when the kernel's own
#: level is at most ``ε (1 + STATED_LEVEL_RTOL)``: a design at ε computes to ε plus a few
#: ulps; an edited ε is far below.
STATED_LEVEL_RTOL = 1e-9
