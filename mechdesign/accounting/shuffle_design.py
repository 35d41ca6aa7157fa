"""Designing for the central guarantee behind a shuffler: ``design(Shuffled(ε, δ, n), ...)``.

A deployment behind a shuffler is specified by the central ``(ε, δ)`` of ``n`` shuffled
reports, not by a local ε₀. The clone reduction (``mechdesign.accounting.shuffle``)
certifies a kernel ``K`` through two numbers, its LDP level ``ε₀`` and its clone mass
``r`` (:func:`~mechdesign.measures.leakage.clone_mass`):

**The certified set.** If ``K`` is ε₀-LDP with clone mass ``≥ r``, then every pair of its
rows ``(P⁰, P¹)`` admits the clone decomposition with the replaced user in class 0 with
probability ``u₀ = e^{ε₀}/(e^{ε₀} + 1)`` and every other user a clone of each class with
probability ``r``, so the central ``δ(ε) ≤ δ_{u₀, r}(ε)``, the hockey-stick divergence of
the two count distributions (:func:`~mechdesign.accounting.shuffle.reduction_delta`).
*Proof.* With ``p ≤ e^{ε₀}`` the pair's ratio, ``W⁰ = (e^{ε₀}P⁰ − P¹)/(e^{ε₀} − 1)`` and
``W¹ = (e^{ε₀}P¹ − P⁰)/(e^{ε₀} − 1)`` are non-negative (``P¹ ≤ pP⁰ ≤ e^{ε₀}P⁰``), sum to
``P⁰ + P¹`` and give ``P⁰ = u₀W⁰ + (1 − u₀)W¹`` (and the reverse for ``P¹``), whatever
``p ≤ e^{ε₀}``. Every row is ``K[x] ≥ r(P⁰ + P¹) = rW⁰ + rW¹`` entrywise (the clone mass is a
minimum over all rows and outputs), so ``K[x] = rW⁰ + rW¹ + (1 − 2r)L_x`` with ``L_x ≥ 0``
a distribution (``r ≤ 1/2``): Feldman, McMillan & Talwar's Lemma 3.3 [1]_ applies with
``(u₀, r)``. ∎ So ``(ε, δ)`` holds when ``δ_{u₀, r}(ε) ≤ δ`` — a condition on ``(ε₀, r)``
alone, and the kernels it admits form the polyhedral cone of
:class:`~mechdesign.notions.CloneLDP` ``(ε₀, r)``: the design engine certifies the best
kernel in it for any utility.

**The frontier.** ``δ_{u, r}`` grows with ``u`` and falls with ``r`` (checked on random
instances in ``tests/accounting/test_shuffle_design.py``), so for each ε₀ the least
admissible ``r*(ε₀)`` is found by bisection and is non-decreasing. Every kernel has
``r(K) ≤ 1/(e^{LDP(K)} + 1)``, so the kernels the reduction admits are exactly the union of
``CloneLDP(ε₀, r*(ε₀))`` over ``ε₀ ∈ [ε_lo, ε_hi]``: below ``ε_lo`` (where ``r*(ε₀) ≤
e^{−ε₀}/2``, the clone mass every ε₀-LDP kernel has) the cone is ε₀-LDP's, contained in
ε_lo's; above ``ε_hi`` (where ``r*(ε₀) = 1/(e^{ε₀} + 1)``, k-RR's) the clone inequalities
cap the ratio below ``e^{ε₀}`` and the cone shrinks as ε₀ grows.

**The bound.** Cones that contain every frontier cone bound every clone-certified kernel:
the report's ``bound`` (an upper bound on a utility, a lower bound on an error). Two
kinds, both designed by the same engine: the *split* at an ε₀ just below ε_hi
(:meth:`Shuffled.split`) — ε₀-LDP holds every frontier cone below it, and the cone of clone
mass ``r*(ε₀)`` alone holds every one above it (``r*`` is non-decreasing), so the better
of their two optima is a bound, within a share of the gap of the k-RR end's own cone; and
the *cover* (:meth:`Shuffled.cover`), one cone of clone mass ``e^{−ε_lo}/2`` and LDP
level ε_hi (or, where that cone lies between the notion's regimes and is too large to
enumerate, without the LDP level).

**The search.** The k-RR end (``t = 1``, ``ε₀ = ε_hi``) is designed first, then the split
and, unless the split certifies it, the cover; the search stops as soon as the best inner
design is within ``gap`` of the bound — certified optimal among the clone-certified
kernels. Otherwise the ε₀-LDP end, then a golden-section search over ``t ∈ [0, 1]``
(``ε₀ = ε_lo + t(ε_hi − ε_lo)``; the inner optimum need not be unimodal along the
frontier, so this is a search, its result the best design found, with the bound beside
it), at most ``max_designs`` inner designs, each deterministic. The frontier's interior
lies between the notion's two outer regimes, whose estimation designs are priced at any
size; past enumeration's reach an interior estimation design is refused, and the search
then keeps what it has (``stopped`` says so).

**The blanket end.** k-RR's clone mass gives away the ``k − 2`` outputs where another
user's blanket report misses the replaced user's pair; the blanket accountant
(:func:`~mechdesign.accounting.shuffle.shuffle_epsilon`'s ``"blanket"``) keeps them and
affords k-RR a larger ε₀ (:meth:`Shuffled.blanket_epsilon`). The k-RR end cone at that ε₀
is designed right after the frontier's k-RR end (when the alphabet is known before a
design: a prior, or a worst-case estimation error's ``inputs``; the k-RR end then takes
at most :data:`ENDS_SHARE` of the time limit, the blanket end what is left), and its
design is kept when
``shuffle_epsilon`` certifies its kernel (k-RR itself, or any kernel the accountant
certifies); it is returned when it beats the frontier's best. When it beats the bound on
every frontier cone, no clone-certified kernel can do better and the search stops there.
So a search that runs out of time returns at least k-RR's end at its blanket ε₀ when
that end was designed in time.

**What is certified, precisely.** Optimal among kernels whose clone reduction meets the
target. :func:`~mechdesign.accounting.shuffle.shuffle_epsilon` of the result (which also
tries each row pair's own reduction and its variation-ratio split) is reported and may be
smaller; a kernel outside the set may meet the target through a tighter accountant.

References
----------
.. [1] V. Feldman, A. McMillan, K. Talwar, "Hiding Among the Clones: A Simple and Nearly
   Optimal Analysis of Privacy Amplification by Shuffling", FOCS 2021, arXiv:2012.12803.
"""

from __future__ import annotations

import dataclasses
import math
import time
from dataclasses import dataclass

from numpy.typing import ArrayLike

from mechdesign._search import largest_meeting
from mechdesign._tolerances import (
    CLONE_EPSILON_MARGIN,
    CLONE_FRONTIER_RTOL,
    COLUMN_GENERATION_GAP,
)
from mechdesign._validation import (
    as_distribution,
    as_real,
    check_epsilon,
    check_int,
    check_real,
    check_size,
    show,
)
from mechdesign.accounting.shuffle import (
    MAX_USERS,
    MIN_RATE,
    Reduction,
    reduction_delta,
    shuffle_delta,
    shuffle_epsilon,
)
from mechdesign.errors import InvalidInputError, SolverError, TooLargeError, UnsupportedError
from mechdesign.mechanisms.oracles import PureOracle
from mechdesign.notions import LDP, CloneLDP
from mechdesign.optimal import Design, DesignTarget, design
from mechdesign.optimal.estimation import EstimationError
from mechdesign.optimal.sources import check_gap
from mechdesign.status import Status

__all__ = ["SHUFFLED_MAX_DESIGNS", "FrontierPoint", "Shuffled", "ShuffledReport"]

#: Default most inner designs of the search along the frontier (both ends included).
SHUFFLED_MAX_DESIGNS = 6

#: The largest local ε₀ the frontier is searched to (nats).
FRONTIER_CEILING = 60.0

#: Relative resolution of :meth:`Shuffled.blanket_epsilon`'s bisection on ε₀.
BLANKET_EPSILON_RTOL = 1e-7

#: With a time limit and the blanket end to design, the share of the limit the
#: frontier's k-RR end may take before the blanket end is designed.
ENDS_SHARE = 0.5

#: The search stops once its bracket on the frontier position ``t`` is this narrow.
FRONTIER_T_TOL = 1e-3

_GOLDEN = (math.sqrt(5.0) - 1.0) / 2.0


@dataclass(frozen=True)
class FrontierPoint:
    """One inner design of the search: the notion, where it sits and what it certified.

    Parameters
    ----------
    t : float
        Position on the frontier, 0 (ε₀-LDP end) to 1 (k-RR end).
    notion : CloneLDP
        ``CloneLDP(ε₀, r*(ε₀))``.
    utility : float
        The inner design's utility (an error for an estimation design: lower is better).
    status : Status
        ``OPTIMAL`` when the inner design's bracket met its gap, ``FEASIBLE`` when it did
        not (a time limit), else its solve's status.
    bracket : tuple of float
        The inner design's certified ``(lower, upper)`` bracket on its own optimum.
    seconds : float
        Its wall-clock time.
    certified_by : str
        ``"clones"``: the notion's clone reduction meets the target; ``"blanket"``: the
        k-RR end at the larger ε₀ the blanket accountant affords k-RR, kept only when
        :func:`~mechdesign.accounting.shuffle.shuffle_epsilon` certifies the designed
        kernel itself (:meth:`Shuffled.blanket_epsilon`).
    """

    t: float
    notion: CloneLDP
    utility: float
    status: Status
    bracket: tuple[float, float]
    seconds: float
    certified_by: str = "clones"


@dataclass(frozen=True)
class ShuffledReport:
    """How a :class:`Shuffled` design was chosen (``Design.target``).

    Parameters
    ----------
    target : Shuffled
        The central guarantee.
    points : tuple of FrontierPoint
        Every inner design, in the order tried.
    chosen : FrontierPoint
        The best of them (the returned design's); its ``certified_by`` says which
        accountant certifies it.
    bound : float or None
        The optimum's bound over every frontier cone (upper for a utility, lower for an
        error; ``bound_source`` names the cones), or
        ``None`` when it was not computed (time, or ``bound=False``).
    certified : bool
        Whether ``chosen`` is within ``gap`` (relative) of ``bound`` or better than it:
        optimal among the kernels whose clone reduction meets the target, or (the blanket
        end) better than every one of them.
    central_epsilon : float
        :func:`~mechdesign.accounting.shuffle.shuffle_epsilon` of the chosen kernel at the
        target's δ and n; never above the target's ε.
    central_method : str
        The bound that gave it (:class:`~mechdesign.accounting.shuffle.ShuffleEpsilon`'s
        ``method``).
    clone_delta : float
        ``δ_{u₀, r}(ε)`` of the chosen notion at the target's ε: what the design certifies
        (above δ when the chosen design is the blanket end's, which ``central_epsilon``
        certifies instead).
    stopped : str
        ``"certified"`` (the best design met ``bound``), ``"blanket end beats the
        bound"``, ``"converged"``, ``"max designs"``, ``"time limit"`` or ``"interior not
        designed (...)"``.
    bound_source : str
        Which design gave ``bound``: ``"split at epsilon0 = …"`` (:meth:`Shuffled.split`),
        ``"cover"`` or ``"cover (uncapped)"`` (:meth:`Shuffled.cover`); empty without one.
    """

    target: Shuffled
    points: tuple[FrontierPoint, ...]
    chosen: FrontierPoint
    bound: float | None
    certified: bool
    central_epsilon: float
    central_method: str
    clone_delta: float
    stopped: str
    bound_source: str = ""


@dataclass(frozen=True)
class Shuffled(DesignTarget):
    """The central guarantee ``(epsilon, delta)`` of ``n`` users' reports, shuffled once:
    a target for :func:`~mechdesign.optimal.design` (module docstring).

    Parameters
    ----------
    epsilon : float
        The central ε (nats, > 0).
    delta : float
        The central δ, ``0 < δ < 1``.
    n : int
        Users, ``1 ≤ n ≤`` :data:`~mechdesign.accounting.shuffle.MAX_USERS`.
    max_designs : int, default :data:`SHUFFLED_MAX_DESIGNS`
        Most inner designs along the frontier (``≥ 2``: both ends; the blanket end is
        one more).
    bound : bool, default True
        Also design over the cones containing the whole frontier (the split and the
        cover), for the certificate.
    blanket : bool, default True
        Also design k-RR's end cone at the ε₀ the blanket accountant affords k-RR
        (:meth:`blanket_epsilon`), and keep that design when its kernel meets the
        target by :func:`~mechdesign.accounting.shuffle.shuffle_epsilon`.
    """

    epsilon: float
    delta: float
    n: int
    max_designs: int = SHUFFLED_MAX_DESIGNS
    bound: bool = True
    blanket: bool = True

    def __post_init__(self) -> None:
        eps = check_epsilon(self.epsilon)
        if not 0 < eps < math.inf:
            raise InvalidInputError(
                f"epsilon must be positive and finite; got {show(self.epsilon)}.")
        object.__setattr__(self, "epsilon", eps)
        delta = as_real(self.delta, "delta")
        if not 0.0 < delta < 1.0:
            raise InvalidInputError(
                f"delta must lie in the open interval (0, 1); got {show(self.delta)}.")
        object.__setattr__(self, "delta", delta)
        object.__setattr__(self, "n", check_size(self.n, "n", MAX_USERS, why="MAX_USERS"))
        object.__setattr__(self, "max_designs", check_int(self.max_designs, "max_designs", low=2))
        for name in ("bound", "blanket"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidInputError(
                    f"{name} must be True or False; got {show(getattr(self, name))}.")

    # -- the frontier ----------------------------------------------------------------------

    def clone_delta(self, epsilon0: float, r: float) -> float:
        """``δ_{u₀, r}(ε)``: the central δ the clone reduction proves for every kernel of
        ``CloneLDP(epsilon0, r)`` at the target's ε (less
        :data:`~mechdesign._tolerances.CLONE_EPSILON_MARGIN`, relative) and n."""
        epsilon0 = check_epsilon(epsilon0, "epsilon0")
        r = check_real(r, "r", low=0.0, high=0.5)
        eps = self.epsilon * (1.0 - CLONE_EPSILON_MARGIN)
        return reduction_delta(Reduction.at_level(epsilon0, r), self.n, eps)

    def required_r(self, epsilon0: float) -> float:
        """``r*(ε₀)``: the least clone mass with :meth:`clone_delta` ≤ δ (bisection on
        ``log r``, the upper end returned, raised by
        :data:`~mechdesign._tolerances.CLONE_FRONTIER_RTOL` so that a designed kernel's
        rounding keeps it admissible); ``inf`` when even ``r = 1/2`` does not suffice."""
        epsilon0 = check_epsilon(epsilon0, "epsilon0")
        if self.clone_delta(epsilon0, 0.0) <= self.delta:
            return 0.0
        if self.clone_delta(epsilon0, 0.5) > self.delta:
            return math.inf
        lo, hi = math.log(0.5 * MIN_RATE), math.log(0.5)  # below: no clones at all
        if self.clone_delta(epsilon0, math.exp(lo)) <= self.delta:
            return min(0.5, math.exp(lo) * (1 + CLONE_FRONTIER_RTOL))
        while hi - lo > CLONE_FRONTIER_RTOL:
            mid = 0.5 * (lo + hi)
            if mid in (lo, hi):
                break
            if self.clone_delta(epsilon0, math.exp(mid)) <= self.delta:
                hi = mid
            else:
                lo = mid
        return min(0.5, math.exp(hi) * (1 + CLONE_FRONTIER_RTOL))

    def ends(self) -> tuple[float, float]:
        """``(ε_lo, ε_hi)``: the largest ε₀ at which every ε₀-LDP kernel meets the target
        (clone mass ``e^{−ε₀}/2``), and the largest at which k-RR's clone mass
        ``1/(e^{ε₀} + 1)`` does (bisection, the lower end returned)."""
        def largest(admissible) -> float:
            if admissible(FRONTIER_CEILING):
                return FRONTIER_CEILING
            return _largest(admissible, 0.0, FRONTIER_CEILING, CLONE_FRONTIER_RTOL)

        def any_kernel(e: float) -> bool:
            return self.clone_delta(e, 0.5 * math.exp(-e)) <= self.delta

        def k_rr(e: float) -> bool:
            return self.clone_delta(e, 1.0 / (math.exp(e) + 1.0)) <= self.delta

        return largest(any_kernel), largest(k_rr)

    def blanket_epsilon(self, k: int, floor: float) -> float:
        """The largest ε₀ ≥ ``floor`` (to :data:`BLANKET_EPSILON_RTOL`, rounded down) at
        which k-RR on ``k`` values meets the target by
        :func:`~mechdesign.accounting.shuffle.shuffle_epsilon` (whose blanket accountant
        keeps the ``k − 2`` outputs away from a pair, which the clone reduction gives
        away), at the target's ε less
        :data:`~mechdesign._tolerances.CLONE_EPSILON_MARGIN`; ``floor`` itself when k-RR
        does not meet it above ``floor``. The central ε of k-RR is taken to be
        non-decreasing in ε₀ (a bracketed search,
        :func:`~mechdesign._search.largest_meeting`); the ε₀ returned is itself checked."""
        k = check_int(k, "k", low=2)
        floor = check_epsilon(floor, "floor")
        eps = self.epsilon * (1.0 - CLONE_EPSILON_MARGIN)

        def delta_at(e0: float) -> float:   # one δ(ε) of each bound: no inversion
            return shuffle_delta(PureOracle.grr(k, e0), self.n, eps).delta

        lo, hi = floor, min(FRONTIER_CEILING, floor + max(0.5, floor) / 8)
        while (at_hi := delta_at(hi)) <= self.delta:   # widen: the bracket must end above
            if hi >= FRONTIER_CEILING:
                return FRONTIER_CEILING
            lo, hi = hi, min(FRONTIER_CEILING, hi + 2 * (hi - floor))
        return largest_meeting(delta_at, self.delta, lo, hi, at_hi,
                               BLANKET_EPSILON_RTOL * max(1.0, hi) / hi)

    def notion_at(self, t: float, ends: tuple[float, float] | None = None) -> CloneLDP:
        """The frontier's cone at position ``t ∈ [0, 1]``: ``CloneLDP(ε₀, r*(ε₀))`` with
        ``ε₀ = ε_lo + t(ε_hi − ε_lo)``."""
        t = check_real(t, "t", low=0.0, high=1.0)
        lo, hi = self.ends() if ends is None else _check_ends(ends)
        if t == 0:  # ε_lo-LDP itself: every ε_lo-LDP kernel has clone mass e^{−ε_lo}/2
            return CloneLDP(lo, 0.5 * math.exp(-lo))
        if t == 1:  # k-RR's clone mass at ε_hi, which meets the target by definition
            return CloneLDP(hi, 1.0 / (math.exp(hi) + 1.0))
        eps0 = lo + t * (hi - lo)
        return CloneLDP(eps0, self.required_r(eps0))

    def cover(self, ends: tuple[float, float] | None = None, *, capped: bool = True
              ) -> CloneLDP:
        """A cone containing every frontier cone: clone mass ``r_c = e^{−ε_lo}/2`` (less
        three times :data:`~mechdesign._tolerances.CLONE_FRONTIER_RTOL`, relative: the
        bisection's resolution) and LDP level ``ε_hi`` (``capped``), or no LDP constraint
        beyond the one the clone mass implies, ``log(1/r_c − 1)`` (a larger cone, in the
        regime every utility prices at any size). ``r*`` is non-decreasing from
        ``r*(ε_lo) = e^{−ε_lo}/2`` and every frontier ε₀ is at most ε_hi, so every frontier
        kernel is in both."""
        lo, hi = self.ends() if ends is None else _check_ends(ends)
        r = 0.5 * math.exp(-lo) * (1.0 - 3.0 * CLONE_FRONTIER_RTOL)
        return CloneLDP(hi if capped else _clone_level(r), r)

    def split(self, epsilon0: float) -> tuple[LDP, CloneLDP]:
        """Two cones that together contain every frontier cone, split at ``epsilon0``:
        ``epsilon0``-LDP holds the cones of ε₀ ≤ ``epsilon0`` (each is ε₀-LDP), and the
        cone of clone mass ``r*(epsilon0)`` (less three times
        :data:`~mechdesign._tolerances.CLONE_FRONTIER_RTOL`) without a further LDP
        constraint holds the others (``r*`` is non-decreasing, and their ε₀ ≤ ε_hi ≤
        ``log(1/r − 1)``). The better of the two optima bounds every clone-certified
        kernel; both regimes are priced at any size."""
        epsilon0 = check_epsilon(epsilon0, "epsilon0")
        if math.isinf(epsilon0):
            raise InvalidInputError("epsilon0 must be finite: the split's first cone is "
                                    "epsilon0-LDP.")
        r = self.required_r(epsilon0) * (1.0 - 3.0 * CLONE_FRONTIER_RTOL)
        if not 0 < r <= 0.5:
            raise InvalidInputError(
                f"epsilon0 = {show(epsilon0)} has no frontier cone above it (least clone mass "
                f"{show(r)}); split between the frontier's ends (Shuffled.ends()).")
        return LDP(epsilon0), CloneLDP(_clone_level(r), r)

    def split_point(self, ends: tuple[float, float], share: float) -> float:
        """The least ε₀ in ``[ε_lo, ε_hi]`` whose least clone mass is within ``share``
        (relative) of the k-RR end's, ``r*(ε₀) ≥ (1 − share) r*(ε_hi)`` (bisection to
        :data:`FRONTIER_T_TOL` of the frontier, the upper end returned): the split
        (:meth:`split`) whose second cone is the k-RR end's up to ``share``, and whose
        first is ε₀-LDP at the smallest such ε₀."""
        lo, hi = _check_ends(ends)
        share = check_real(share, "share", low=0.0, high=1.0)
        floor = (1.0 - share) * self.required_r(hi)
        if self.required_r(lo) >= floor:
            return lo
        a, b = lo, hi
        while b - a > FRONTIER_T_TOL * FRONTIER_T_TOL * (hi - lo):
            mid = 0.5 * (a + b)
            if self.required_r(mid) >= floor:
                b = mid
            else:
                a = mid
        return b

    # -- the design ------------------------------------------------------------------------

    def design(self, prior: ArrayLike | None, **options: object) -> Design:
        """The best design along the frontier (module docstring); ``options`` are
        :func:`~mechdesign.optimal.design`'s. ``time_limit`` bounds the whole search: the
        best certified inner design so far is returned when it runs out (a limit no inner
        design meets is the error).
        ``gap`` is the certificate's (relative); the inner designs and bounds run at a
        quarter of it, so that their brackets and the split's share fit in it.
        ``Design.target`` is the :class:`ShuffledReport`."""
        start = time.perf_counter()
        time_limit = options.pop("time_limit", None)
        if time_limit is not None:
            time_limit = check_real(time_limit, "time_limit", low=0.0, low_open=True)
        deadline = None if time_limit is None or math.isinf(time_limit) else start + time_limit
        gap = check_gap(options.pop("gap", COLUMN_GENERATION_GAP))
        options["gap"] = gap / 4
        utility = options.get("utility", "mutual_information")
        minimise = isinstance(utility, EstimationError) or utility == "mse"
        search = _Search(self, prior, options, minimise, gap, deadline)
        k = _inputs(prior, utility)
        if self.blanket and k is not None:
            # both ends first, the frontier's in at most half the time: the blanket end
            # is k-RR's own larger ε₀, often the answer, but certified only when its
            # design is a kernel the blanket accountant covers
            try:
                search.score(1.0, share=ENDS_SHARE)
            except _OutOfTime:
                pass
            except SolverError as exc:      # nothing in its share: the rest may do
                if exc.status is not Status.TIME_LIMIT:
                    raise
            search.blanket_end(k)
        search.run()
        if self.blanket and k is None and search.designs and not search.out_of_time():
            first = next(iter(search.designs.values()))
            search.blanket_end(first.mechanism.matrix.shape[0])
        chosen, best = search.best()
        central = shuffle_epsilon(best.mechanism, self.n, self.delta)
        if central.epsilon > self.epsilon and chosen.certified_by == "blanket" and (
                search.designs):
            # kept by its δ at the target ε; its ε at δ, inverted, rounds up past the
            # target by the inversion's tolerance: the frontier's best instead
            search.blanket = None
            chosen, best = search.best()
            central = shuffle_epsilon(best.mechanism, self.n, self.delta)
        if central.epsilon > self.epsilon:
            raise SolverError(
                f"the designed kernel's shuffled central epsilon {central.epsilon:.6g} exceeds "
                f"the target {self.epsilon:.6g} (clone mass {chosen.notion.r:.6g}); this "
                "contradicts the clone reduction's monotonicity and is a bug",
                status=Status.NUMERICAL_ERROR, solver_status="central guarantee not met")
        report = ShuffledReport(
            self, tuple(search.points), chosen, search.bound, search.certifies(best.utility),
            central.epsilon, central.method,
            self.clone_delta(chosen.notion.epsilon, chosen.notion.r), search.stopped,
            search.bound_source)
        timings = dataclasses.replace(best.timings, total=time.perf_counter() - start)
        return dataclasses.replace(best, target=report, timings=timings)


class _Search:
    """The state of one :meth:`Shuffled.design`: the inner designs by frontier position,
    the bound and why the search stopped."""

    def __init__(self, target: Shuffled, prior, options: dict, minimise: bool, gap: float,
                 deadline: float | None) -> None:
        self.target, self.prior, self.options = target, prior, options
        self.minimise, self.gap, self.deadline = minimise, gap, deadline
        self.ends = target.ends()
        self.designs: dict[float, Design] = {}
        self.points: list[FrontierPoint] = []
        self.bound: float | None = None
        self.bound_source = ""
        self.stopped = "converged"
        self.blanket: tuple[FrontierPoint, Design] | None = None

    # -- one design --------------------------------------------------------------------

    def remaining(self) -> float | None:
        if self.deadline is None:
            return None
        return max(1e-3, self.deadline - time.perf_counter())

    def out_of_time(self) -> bool:
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def score(self, t: float, share: float = 1.0) -> float:
        """The inner design at ``t`` (designed once, in ``share`` of the time left),
        signed so that lower is better."""
        if t not in self.designs:
            notion = self.target.notion_at(t, self.ends)
            began = time.perf_counter()
            left = self.remaining()
            try:
                result = design(notion, self.prior,
                                time_limit=None if left is None else share * left,
                                **self.options)
            except SolverError as exc:
                if exc.status is not Status.TIME_LIMIT or not (self.designs or self.blanket):
                    raise
                raise _OutOfTime from exc
            self.designs[t] = result
            self.points.append(FrontierPoint(t, notion, result.utility, _optimality(result),
                                             _bracket(result), time.perf_counter() - began))
        value = self.designs[t].utility
        return value if self.minimise else -value

    def blanket_end(self, k: int) -> None:
        """k-RR's end cone at :meth:`Shuffled.blanket_epsilon` (when above ε_hi), designed;
        kept (as ``blanket`` and in ``points``) only when its kernel meets the target by
        :func:`~mechdesign.accounting.shuffle.shuffle_epsilon`."""
        hi = self.ends[1]
        eps0 = self.target.blanket_epsilon(k, hi)
        if eps0 <= hi or self.out_of_time():
            return
        notion = CloneLDP(eps0, 1.0 / (math.exp(eps0) + 1.0))
        began = time.perf_counter()
        result = self.within_limit(notion)
        if result is None:
            return
        # δ at the target ε (one value of each bound), not ε at δ (an inversion)
        if shuffle_delta(result.mechanism, self.target.n,
                         self.target.epsilon).delta > self.target.delta:
            return
        point = FrontierPoint(1.0, notion, result.utility, _optimality(result),
                              _bracket(result), time.perf_counter() - began, "blanket")
        self.points.append(point)
        self.blanket = point, result

    def best(self) -> tuple[FrontierPoint, Design]:
        """The best design found: the frontier's (the larger ``t`` on a tie), or the
        blanket end's when it is better."""
        found = []
        if self.designs:
            t = min(self.designs, key=lambda t: (self.score(t), -t))
            found.append((next(p for p in self.points if p.t == t
                                and p.certified_by == "clones"), self.designs[t]))
        if self.blanket is not None:
            found.append(self.blanket)
        sign = 1.0 if self.minimise else -1.0
        return min(found, key=lambda pair: sign * pair[1].utility)

    def within_limit(self, notion) -> Design | None:
        """The design over ``notion`` in the time left; ``None`` if the limit stopped it."""
        try:
            return design(notion, self.prior, time_limit=self.remaining(), **self.options)
        except SolverError as exc:
            if exc.status is not Status.TIME_LIMIT:
                raise
            return None

    def relaxed(self, notion) -> float | None:
        """The bound side of a design over a larger cone (its lower end for an error, its
        upper end for a utility), signed; ``None`` if the time limit stopped it."""
        result = self.within_limit(notion)
        if result is None:
            return None
        low, high = _bracket(result)
        return low if self.minimise else -high

    def improve(self, signed: float | None, source: str) -> None:
        if signed is None:
            return
        value = signed if self.minimise else -signed
        if self.bound is None or (value > self.bound if self.minimise else value < self.bound):
            self.bound, self.bound_source = value, source

    def certifies(self, value: float) -> bool:
        """Whether ``value`` is within ``gap`` of the bound, or better than it."""
        if self.bound is None:
            return False
        signed, bound = (value, self.bound) if self.minimise else (-value, -self.bound)
        return signed - bound <= self.gap * max(1.0, abs(bound))

    def done(self) -> bool:
        """The frontier's best design is certified, or the blanket end beats the bound
        (no clone-certified kernel can do better than it)."""
        if self.blanket is not None and self.beaten():
            return True
        return bool(self.designs) and self.certifies(
            min(self.score(t) for t in self.designs) * (1.0 if self.minimise else -1.0))

    def beaten(self) -> bool:
        """The blanket end is strictly better than the bound on every frontier design."""
        if self.bound is None or self.blanket is None:
            return False
        value = self.blanket[1].utility
        return value < self.bound if self.minimise else value > self.bound

    def narrow(self) -> bool:
        lo, hi = self.ends
        return hi - lo <= CLONE_FRONTIER_RTOL * max(1.0, hi)

    # -- the stages --------------------------------------------------------------------

    def bounds(self) -> None:
        """The split at the k-RR end, then (unless it certifies) the cover."""
        if not self.target.bound:
            return
        if not self.narrow() and not self.out_of_time():
            at = self.target.split_point(self.ends, self.gap / 4)
            try:
                first, second = self.target.split(at)
                a = self.relaxed(first)
                b = None if a is None or self.out_of_time() else self.relaxed(second)
            except (UnsupportedError, TooLargeError):
                a = b = None
            if a is not None and b is not None:
                self.improve(min(a, b), f"split at epsilon0 = {at:.6g}")
        if self.done() or self.out_of_time():
            return
        try:
            try:
                self.improve(self.relaxed(self.target.cover(self.ends)), "cover")
            except (UnsupportedError, TooLargeError):
                # the capped cover lies between the regimes (estimation past enumeration's
                # reach): the uncapped one, priced at any size
                self.improve(self.relaxed(self.target.cover(self.ends, capped=False)),
                             "cover (uncapped)")
        except (UnsupportedError, TooLargeError):
            pass

    def run(self) -> None:
        try:
            self.score(1.0)     # raises when nothing else stands: the limit is its error
        except _OutOfTime:
            self.stopped = "time limit"
            return
        try:
            self.bounds()
            if self.done():
                self.stopped = "blanket end beats the bound" if self.beaten() else "certified"
                return
            if self.narrow():
                return  # the frontier is one point
            if self.out_of_time():
                raise _OutOfTime
            self.score(0.0)
            a, b = 0.0, 1.0
            c, d = b - _GOLDEN * (b - a), a + _GOLDEN * (b - a)
            while not self.done() and len(self.designs) < self.target.max_designs and (
                    b - a > FRONTIER_T_TOL):
                if self.out_of_time():
                    raise _OutOfTime
                if self.score(c) <= self.score(d):
                    b, d = d, c
                    c = b - _GOLDEN * (b - a)
                else:
                    a, c = c, d
                    d = a + _GOLDEN * (b - a)
        except _OutOfTime:
            self.stopped = "time limit"
            return
        except (UnsupportedError, TooLargeError) as exc:
            # an interior cone (between the regimes) no method designs at this size: the
            # designs so far stand, with the bound beside them
            self.stopped = f"interior not designed ({type(exc).__name__})"
            return
        if self.done():
            self.stopped = "blanket end beats the bound" if self.beaten() else "certified"
        elif len(self.designs) >= self.target.max_designs:
            self.stopped = "max designs"


def _inputs(prior: ArrayLike | None, utility: object) -> int | None:
    """The input alphabet's size, when it is known before a design: the prior's length,
    or a worst-case estimation error's ``inputs``."""
    if prior is not None:
        return as_distribution(prior, "prior").shape[0]
    if isinstance(utility, EstimationError) and utility.worst_case:
        return utility.inputs
    return None


def _check_ends(ends: object) -> tuple[float, float]:
    """A frontier's ``(ε_lo, ε_hi)``: two finite ε₀ with ``ε_lo ≤ ε_hi``."""
    if not isinstance(ends, tuple) or len(ends) != 2:
        raise InvalidInputError(
            f"ends must be a pair (epsilon_lo, epsilon_hi) as Shuffled.ends() returns; got "
            f"{show(ends)}.")
    lo, hi = (check_epsilon(e, "ends") for e in ends)
    if not lo <= hi < math.inf:
        raise InvalidInputError(
            f"ends must satisfy epsilon_lo <= epsilon_hi < inf; got {show(ends)}.")
    return lo, hi


def _largest(admissible, lo: float, hi: float, rtol: float) -> float:
    """The largest ``x`` in ``[lo, hi]`` with ``admissible(x)`` for a predicate true up to
    a point and false past it, ``admissible(lo)`` true: bisection to ``rtol · max(1,
    hi)``, the lower end returned."""
    while hi - lo > rtol * max(1.0, hi):
        mid = 0.5 * (lo + hi)
        if admissible(mid):
            lo = mid
        else:
            hi = mid
    return lo


def _clone_level(r: float) -> float:
    """``log(1/r − 1)``: the LDP level a clone mass ``r`` implies."""
    return math.log1p(-r) - math.log(r)


class _OutOfTime(Exception):
    """An inner design after the first reached the search's time limit."""


def _optimality(result: Design) -> Status:
    """Whether a design's bracket closed (``OPTIMAL``) or not (``FEASIBLE``), or how its
    solve ended when it has no bracket."""
    if result.estimation is not None:
        return result.estimation.status
    if result.column_generation is not None:
        return result.column_generation.status
    return result.status


def _bracket(result: Design) -> tuple[float, float]:
    """A design's certified bracket on its own optimum."""
    if result.estimation is not None:
        return result.estimation.lower_bound, result.estimation.upper_bound
    if result.column_generation is not None:
        return result.column_generation.lower_bound, result.column_generation.upper_bound
    return result.utility, result.certificate.dual_objective


