"""Column generation: a restricted master and a column source, with a certified bracket.

Each iteration solves the restricted master
(:class:`~mechdesign.optimal.master.RestrictedMaster`) and prices its dual ``λ`` with a
column source (:mod:`mechdesign.optimal.sources`). Because every column sums to one,
``Σ_v θ_v = N`` for every feasible ``θ``, so for any ``λ``

.. math::

    \\text{LP value} \\;\\le\\; \\text{OPT} \\;\\le\\; \\mathbf 1 \\cdot \\lambda
    + N \\max\\bigl(0, \\max_{v} r(v)\\bigr), \\qquad r(v) = \\mu(v) - \\lambda\\cdot v

(``Σ θ_v μ(v) = 1·λ + Σ θ_v r(v)``): a certified bracket whenever the source's pricing
returns a true upper bound on ``max_v r(v)``.

The bracket's upper end starts from the source's closed-form dual
(:meth:`~mechdesign.optimal.sources.ColumnSource.certified_dual`), when it has one: for
mutual information ``λ = −P log P`` (the bound ``H(X)``) and, under ε-LDP, ``λ = κ P``
with ``κ(ε)`` the most information one output can carry
(:func:`~mechdesign.optimal.patterns.ldp_information_bound`). Under a diffuse prior the
ε-LDP optimum is within the gap of ``κ`` (ε = 1, Dirichlet(1): 6.7e-9 nats below it at
N = 128), and the master's first columns include arcs of the mass where ``κ`` is
attained (:func:`~mechdesign.optimal.patterns.balanced_arcs`); the run then ends after a
few dozen heuristic iterations, with no pricing MIP. Where the closed form does not
certify (few inputs, a heavy input), exact pricing does; where inputs share a prior mass
the source prices by count vectors, no MIP, and starts from the dual of the LP reduced by
that symmetry (:meth:`~mechdesign.optimal.patterns.TwoLevelFamily.symmetric_optimum`);
under skewed priors (Zipf, geometric) the first columns leave the bracket open, and the
source's merged design (:meth:`~mechdesign.optimal.sources.ColumnSource.coarsened`: the
inputs below ``1/128`` of the mass merged into groups, solved first by the same loop)
gives its optimum's columns, lifted, to the master — within the gap of ``κ`` at once on
the hard instances; after that the heuristic adds the arcs of random orders of the
inputs, all the improving ones at once (the source's ``columns_per_round``). Hard
instances: ``benchmarks/scale_hard.py``, table in ``docs/benchmarks/scale_hard.md``.

Timings: ``benchmarks/scale.py`` (ε-LDP and (ε, 1/(2N))-PML under Dirichlet priors, with
a baseline revision in the same run; table in ``docs/benchmarks/scale.md``) and
``benchmarks/scale_hard.py``. What keeps the master LP cheap is column management
(below), which holds it at 5–20 columns per input, and the offset form of its columns
(:class:`~mechdesign.optimal.master.RestrictedMaster`).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from mechdesign._tolerances import (
    PRICING_MIP_ABS_GAP,
)
from mechdesign._validation import (
    check_bool,
    check_positive_int,
    check_real,
    show,
)
from mechdesign.errors import InvalidInputError
from mechdesign.optimal.master import RestrictedMaster, check_finite_utilities, column_key
from mechdesign.optimal.patterns import PRICING_MIP_MIN_SECONDS as PRICING_MIN_SECONDS
from mechdesign.optimal.result import ColumnGenerationReport
from mechdesign.optimal.sources import (
    COLUMNS_PER_ROUND,
    ColumnSource,
    Pricing,
    check_column_source,
    check_gap,
)
from mechdesign.status import Status

__all__ = ["ColumnGenerationRun", "run_column_generation"]

# -- algorithm knobs --------------------------------------------------------------------

#: When a heuristic source finds no improving column, column generation asks it again
#: with this many times the effort, up to the source's ``retries`` times, before it stops.
LINEARISATION_ESCALATION = 8

#: Column generation adds at most this many improving columns (best first) per
#: iteration, unless the source says otherwise
#: (:attr:`~mechdesign.optimal.sources.ColumnSource.columns_per_round`).
COLUMN_GENERATION_BATCH = COLUMNS_PER_ROUND

#: Column generation gives up (status "feasible, gap g") after this many master LPs (a
#: backstop: the gap or the time limit normally decides; PolyOpt at a = 240 passed 500).
COLUMN_GENERATION_MAX_ITERATIONS = 5000

#: Pricing MIPs in column generation stop at this share of the open gap (per column):
#: a looser bound early costs an iteration, a tight one costs branch and bound.
MIP_GAP_SHARE = 0.5

#: Column management: the master is pruned when it holds more than this many times its
#: source's ``columns_per_input`` per input (see :data:`SOURCE_RULE`).
MASTER_PRUNE_FACTOR = 2.0
#: ... and never below this many columns: a master of a few hundred columns solves in
#: milliseconds, and every column pruned there must be found again by pricing (at
#: ``gap = 1e-9`` on 24 inputs pruning at 240 columns cost 136 s uncertified against
#: 8.5 s certified without it).
MASTER_PRUNE_MIN_COLUMNS = 2000
#: ``columns_per_input=SOURCE_RULE``: the source's own column management
#: (:attr:`~mechdesign.optimal.sources.ColumnSource.columns_per_input`).
SOURCE_RULE = "source"
#: Wentges smoothing of the dual: the heuristic prices ``α λ_c + (1 − α) λ`` (``λ_c`` the
#: dual of the least certified bound so far, ``λ`` the master's), ``α`` this; after a
#: mis-pricing (no column improves at ``λ``) ``α`` drops by ``1 − α`` down to 0.
DUAL_SMOOTHING = 0.8
#: At most about this many smoothed pricings after a mis-pricing, before the master's dual.
SMOOTHING_MAX_STEPS = 10

#: With a time limit T, the loop stops adding columns at (1 − this) T: the rest is for
#: the last exact pricing (up to 0.95 T), the final master solve, certificate and audit.
TIME_LIMIT_RESERVE = 0.15
#: ... and at (1 − this) T while no exact pricing has certified an upper bound yet, so
#: that the last pricing has a fifth of the time to certify one.
UNCERTIFIED_RESERVE = 0.25
#: The last exact pricing of a run stopped by its time limit ends by this share of T.
FINAL_PRICING_SHARE = 0.95


@dataclass
class ColumnGenerationRun:
    """The state column generation ends in (see :func:`run_column_generation`).

    Parameters
    ----------
    master : RestrictedMaster
        The restricted master with every column kept so far.
    lower : float
        The best master optimum (nats): a lower bound on OPT.
    upper : float
        The least certified upper bound on OPT (``inf`` without one).
    history : list of (float, float)
        ``(lower, upper)`` after every iteration.
    dual : ndarray, shape (N,)
        The last master's dual ``λ``.
    exact_pricing : bool
        Whether the source priced exactly (then ``upper`` is certified).
    exact_pricings : int
        Iterations priced by the exact MIPs.
    mips : int
        Mixed-integer programs solved in all.
    seconds : float
        Wall-clock seconds of the run.
    gap_tolerance : float
        The relative ``gap`` the run aimed at (for :meth:`report`'s status).
    interrupted : bool, default False
        Whether Ctrl-C ended the run.
    weights : ndarray, shape (solved_columns,), optional
        The last master solve's weights ``θ`` over its first ``solved_columns`` columns;
        ``None`` before the first solve.
    solved_columns : int, default 0
        How many of the master's columns that solve had.
    """

    master: RestrictedMaster
    lower: float
    upper: float
    history: list[tuple[float, float]]
    dual: NDArray[np.float64]
    exact_pricing: bool
    exact_pricings: int
    mips: int
    seconds: float
    gap_tolerance: float
    interrupted: bool = False
    #: The last master solve: its weights θ over the first ``solved_columns`` columns of
    #: the master (the columns it had then) — the certified fallback when the time
    #: limit leaves no time for a final solve.
    weights: NDArray[np.float64] | None = None
    solved_columns: int = 0

    def report(self, lower: float | None = None, dual=None, seconds=None) -> ColumnGenerationReport:
        """The certificate, with ``lower`` (and ``dual``) replaced when the caller
        re-solved the final master (design polishes it)."""
        low = self.lower if lower is None else lower
        optimal = self.exact_pricing and self.upper - low <= self.gap_tolerance * max(1.0, abs(low))
        if optimal:
            status = Status.OPTIMAL
        elif self.interrupted:
            status = Status.INTERRUPTED
        else:
            status = Status.FEASIBLE  # the bracket's width is the report's gap
        return ColumnGenerationReport(
            lower_bound=low,
            upper_bound=self.upper,
            exact_pricing=self.exact_pricing,
            status=status,
            columns=self.master.size,
            columns_added=self.master.added,
            iterations=len(self.history),
            history=tuple(self.history),
            dual=self.dual if dual is None else dual,
            seconds=self.seconds if seconds is None else seconds,
            exact_pricings=self.exact_pricings,
            mips=self.mips,
            master_seconds=self.master.seconds,
        )


def run_column_generation(
    source: ColumnSource,
    *,
    gap: float,
    time_limit: float | None = None,
    warm: bool = True,
    max_iterations: int = COLUMN_GENERATION_MAX_ITERATIONS,
    progress: bool = False,
    columns_per_input: int | Literal["source"] | None = SOURCE_RULE,
    smoothing: float = DUAL_SMOOTHING,
) -> ColumnGenerationRun:
    """Restricted master plus pricing, for mutual information.

    Each iteration solves the master (:class:`RestrictedMaster`, warm-started, by HiGHS [2]_)
    and prices its dual heuristically; up to the source's
    :attr:`~mechdesign.optimal.sources.ColumnSource.columns_per_round` new columns with
    reduced cost above ``tolerance / N`` are added (``tolerance = gap · max(1, |lower|)``). When
    the heuristic finds none and the source is exact, its MIPs run — one Dinkelbach step first,
    converged if that leaves the gap open without a new column (unless the step says it was
    converged already: ``Pricing.converged``) — proving their optimum to ``0.1
    · tolerance / N`` (at least :data:`PRICING_MIP_ABS_GAP`), which is all the bound ``1·λ + N
    max(0, r̄)`` needs. Stops when ``upper − lower ≤ tolerance``, when nothing new improves, at
    ``max_iterations`` or at ``time_limit``. A heuristic source leaves ``upper = inf`` (the
    caller bounds it otherwise).

    **Merged start.** When the source offers a merged design
    (:meth:`~mechdesign.optimal.sources.ColumnSource.coarsened`) and the first master
    leaves the bracket open, that design runs first (this function, with the same gap and
    options and what is left of the time before the reserve; its MIPs count in ``mips``),
    and the columns of its last master solution, lifted to the inputs, join the master.
    Ctrl-C during it ends the whole run.

    **Column management** (``columns_per_input = k``; ``None`` keeps every column; the
    default, :data:`SOURCE_RULE`, takes ``k`` from the source's
    :attr:`~mechdesign.optimal.sources.ColumnSource.columns_per_input`): once the master
    holds more than :data:`MASTER_PRUNE_FACTOR` ``· k N`` columns (and more than
    :data:`MASTER_PRUNE_MIN_COLUMNS`), its non-basic columns of least reduced cost are
    deleted down to ``k N`` (at least half that floor), except those whose reduced cost
    is within the improvement threshold ``gap · max(1, |lower|)/N`` of 0 (a column that
    close to improving is the kind that closes a tight bracket)
    (:meth:`~mechdesign.optimal.master.RestrictedMaster.prune`). Only non-basic columns
    go, so the master's optimum, dual and warm basis are unchanged; what it buys is the
    cost of each simplex iteration, proportional to the number of (dense) columns — at
    ε-LDP N = 256 the master was nine tenths of the time with 14,000 columns. A deleted
    column may cost a pricing to find again, so the rule is each source's: ``k = 5``
    (:data:`~mechdesign.optimal.sources.MASTER_COLUMNS_PER_INPUT`) for most, ``k = 20``
    for (ε, c)-PML, whose columns are dearer to price (N = 128: 235 s and 586
    iterations at ``k = 20``, 265 s and 1,243 at ``k = 10``, 1,056 s and 705 keeping
    every column). The rule never reads elapsed time: the path of a run never depends
    on the machine's speed or load (an earlier rule read the master's share of the
    wall-clock time, and the same design twice in one process gave different optimal
    kernels).

    **Dual smoothing** (Wentges 1997; the mis-pricing rule of Pessoa, Sadykov, Uchoa and
    Vanderbeck 2018): the heuristic prices ``λ_s = α λ_c + (1 − α) λ`` instead of the
    master's ``λ``, ``α = smoothing`` and ``λ_c`` the dual with the least certified
    bound ``1·λ_c + N max(0, r̄(λ_c))`` so far (the bound holds for any ``λ``, so a
    pricing that certifies its bound at ``λ_s`` also tightens the bracket). Columns are
    kept only if they improve at ``λ`` itself (reduced costs rescored by
    ``r_λ(v) = r_{λ_s}(v) + (λ_s − λ)·v``); if none does, ``α`` drops to ``1 − k(1 −
    α)``, down to 0. The centre moves only with a heuristic that certifies its bound at
    every iteration: PolyOpt's paper variant [1]_, where smoothing took race × occupation
    from 325 to 202 iterations, and ``(ε, c)``-PML, whose heuristic certifies its
    families' relaxation bounds (:meth:`~mechdesign.optimal.patterns.PatternSource.heuristic`;
    ``(1, 1/(2N))``-PML, Dirichlet(1), N = 128: 355 iterations where 8652adc took 586,
    ``docs/benchmarks/scale.md``). With the others
    (ε-LDP, PolyOpt's default variant) there is no centre and the heuristic prices ``λ``
    — a centre from the occasional exact pricing was stale (default variant, race ×
    occupation, 300 s: gap 1.1 % smoothed, 0.48 % not; no effect on ε-LDP).

    Ctrl-C (``KeyboardInterrupt``) ends the loop where it is: the run returns with
    ``interrupted = True``, the master's columns so far and the best bracket certified so
    far (``upper = inf`` if no exact pricing had run); its report's status is
    ``"interrupted"``. ``progress`` shows a tqdm bar (iterations, lower bound, gap,
    columns).

    Parameters
    ----------
    source : ColumnSource
        The column source (:class:`~mechdesign.optimal.patterns.PatternSource`,
        :class:`~mechdesign.optimal.robust.pricing.LinearisationSource`, ...): any object
        with the members of :class:`~mechdesign.optimal.sources.ColumnSource`.
    gap : float
        Stop once ``upper − lower ≤ gap · max(1, |lower|)`` (nats); positive and finite.
    time_limit : float, optional
        Seconds for the whole loop (positive and finite); ``None``: no limit.
    warm : bool, default True
        Warm-start each master solve from the previous basis.
    max_iterations : int, default :data:`COLUMN_GENERATION_MAX_ITERATIONS`
        Most master LPs (``≥ 1``).
    progress : bool, default False
        Show a tqdm bar.
    columns_per_input : int, "source" or None, default :data:`SOURCE_RULE`
        Column management (above): ``k ≥ 1`` columns per input, the source's own rule, or
        ``None`` to keep every column.
    smoothing : float, default :data:`DUAL_SMOOTHING`
        The dual smoothing weight ``α`` in ``[0, 1)`` (above); 0 turns smoothing off.

    Returns
    -------
    ColumnGenerationRun
        The final master, bracket and counters; :meth:`ColumnGenerationRun.report` makes
        the :class:`~mechdesign.optimal.result.ColumnGenerationReport`.

    References
    ----------
    .. [1] M. Lopuhaä-Zwakenberg, J. Goseling, "Mechanisms for Robust Local Differential
       Privacy", Entropy 26(3):233, 2024, doi:10.3390/e26030233.
    .. [2] Q. Huangfu, J. A. J. Hall, "Parallelizing the dual revised simplex method",
       Mathematical Programming Computation 10(1):119-142, 2018,
       doi:10.1007/s12532-017-0130-5.
    """
    from tqdm.auto import tqdm

    check_column_source(source)
    gap = check_gap(gap)
    if time_limit is not None:
        time_limit = check_gap(time_limit, "time_limit")
    warm = check_bool(warm, "warm")
    progress = check_bool(progress, "progress")
    max_iterations = check_positive_int(max_iterations, "max_iterations")
    if isinstance(columns_per_input, str) and columns_per_input == SOURCE_RULE:
        columns_per_input = source.columns_per_input
    if columns_per_input is not None:
        columns_per_input = check_positive_int(columns_per_input, "columns_per_input")
    smoothing = check_real(smoothing, "smoothing", low=0.0, high=1.0, high_open=True)
    start = time.perf_counter()
    stop_adding = None if time_limit is None else start + (1 - TIME_LIMIT_RESERVE) * time_limit
    stop_uncertified = None if time_limit is None else (
        start + (1 - UNCERTIFIED_RESERVE) * time_limit)
    stop_pricing = None if time_limit is None else start + FINAL_PRICING_SHARE * time_limit

    def budget(until: float | None) -> dict[str, float]:
        """``time_limit=`` for a pricing that must end by ``until`` (nothing if no limit)."""
        if until is None:
            return {}
        return {"time_limit": max(until - time.perf_counter(), PRICING_MIN_SECONDS)}

    def past(until: float | None) -> bool:
        return until is not None and time.perf_counter() >= until

    n = source.n
    batch = check_positive_int(source.columns_per_round, "columns_per_round")
    master = RestrictedMaster(n, warm=warm)
    initial = source.initial_columns()
    master.add(initial, check_finite_utilities(source.values(initial)))
    # The bracket starts from the source's closed-form dual, if it has one; "priced"
    # says whether a pricing has certified a bound of its own (the time limit keeps a
    # reserve for one, and the MIPs' gaps follow the bracket it opened).
    closed_form = source.certified_dual()
    lower, upper = -math.inf, (math.inf if closed_form is None else closed_form[1])
    priced = False
    history: list[tuple[float, float]] = []
    exact_pricings = mips = 0
    dual = np.zeros(n)
    center, center_bound = None, math.inf  # the stability centre of the smoothing
    bar = tqdm(total=max_iterations, desc="column generation", disable=not progress,
               leave=False)
    interrupted = False
    try:
        coarse = _checked_coarsening(source.coarsened(), n)
        if coarse is not None:
            # The merged design runs only when the first columns leave the bracket open.
            _, dual, value = master.solve()
            lower = max(lower, value)
            if upper - lower <= gap * max(1.0, abs(lower)) or past(stop_adding):
                coarse = None
        if coarse is not None:
            merged = run_column_generation(
                coarse[0], gap=gap, warm=warm, max_iterations=max_iterations,
                progress=progress, columns_per_input=columns_per_input, smoothing=smoothing,
                time_limit=None if stop_adding is None else stop_adding - time.perf_counter())
            exact_pricings, mips = merged.exact_pricings, merged.mips
            if merged.interrupted:
                raise KeyboardInterrupt
            lifted = _lifted(merged, coarse[1], master)
            master.add(lifted, check_finite_utilities(source.values(lifted)))
        for _ in range(max_iterations):
            _, dual, value = master.solve()
            if (columns_per_input is not None
                    and master.size > max(MASTER_PRUNE_FACTOR * columns_per_input * n,
                                          MASTER_PRUNE_MIN_COLUMNS)):
                # a column within the improvement threshold of improving stays
                master.prune(max(columns_per_input * n, MASTER_PRUNE_MIN_COLUMNS // 2),
                             dual, protect=gap * max(1.0, abs(value)) / n)
            lower = max(lower, value)
            tolerance = gap * max(1.0, abs(lower))
            for alpha in _smoothing_steps(smoothing if center is not None else 0.0):
                priced_at = alpha * center + (1 - alpha) * dual if alpha > 0 else dual
                cheap = source.heuristic(priced_at)
                if cheap.exact:
                    # A heuristic that certifies its bound (PolyOpt's block pricing)
                    # tightens the bracket at every iteration.
                    bound = float(priced_at.sum()) + n * max(0.0, cheap.upper_bound)
                    upper, priced = min(upper, bound), True
                    if bound < center_bound:
                        center, center_bound = priced_at, bound
                new = _improving(_rescored(cheap, priced_at, dual), master, tolerance / n,
                                 batch)
                if new.shape[0]:
                    break  # otherwise mis-priced: price closer to λ
            for _ in range(0 if source.exact else source.retries):
                if new.shape[0]:
                    break
                # A heuristic that finds nothing tries again, harder, before giving up.
                pricing = source.heuristic(dual, effort=LINEARISATION_ESCALATION)
                new = _improving(pricing, master, tolerance / n, batch)
            if new.shape[0] == 0 and source.exact and upper - lower > tolerance:
                # The MIPs need prove no more than what the bracket can use: a tenth of
                # the gap still open (per column, N columns), the tolerance at the end.
                open_gap = upper - lower if priced else 0.0
                tight = max(PRICING_MIP_ABS_GAP, 0.1 * tolerance / n)
                loose = max(tight, MIP_GAP_SHARE * open_gap / n)
                # One Dinkelbach step, then converged (unless the step had nothing to
                # converge); then, if a loose MIP gap left the bracket open without a
                # column, converged at the tight gap.
                rounds = [(False, loose), (True, loose)] + ([(True, tight)] if loose > tight
                                                            else [])
                for step, (converge, abs_gap) in enumerate(rounds):
                    if past(stop_adding):
                        break
                    if step == 1 and pricing.converged:
                        continue
                    pricing = source.price(dual, converge=converge, abs_gap=abs_gap,
                                           **budget(stop_adding))
                    exact_pricings += 1
                    mips += pricing.mips
                    upper = min(upper, float(dual.sum()) + n * max(0.0, pricing.upper_bound))
                    priced = True
                    if upper - lower <= tolerance:
                        break
                    new = _improving(pricing, master, 0.01 * tolerance / n, batch)
                    if new.shape[0]:
                        break
            history.append((lower, upper))
            bar.update()
            bar.set_postfix(lower=f"{lower:.6g}", gap=f"{upper - lower:.2e}",
                            columns=len(master.keys))
            if upper - lower <= tolerance or new.shape[0] == 0:
                break  # optimal, or nothing new improves
            if past(stop_adding if priced else stop_uncertified):
                break
            master.add(new, source.values(new))
    except KeyboardInterrupt:
        interrupted = True
    bar.close()
    if (source.exact and not priced and upper - lower > gap * max(1.0, abs(lower))
            and not interrupted and not past(stop_pricing)):
        # Stopped (time or iteration limit) before the heuristic ran dry: price the last
        # dual exactly once, so that the result carries a bound of its own.
        tolerance = gap * max(1.0, abs(lower))
        pricing = source.price(dual, converge=True,
                               abs_gap=max(PRICING_MIP_ABS_GAP, 0.1 * tolerance / n),
                               **budget(stop_pricing))
        exact_pricings += 1
        mips += pricing.mips
        upper = min(upper, float(dual.sum()) + n * max(0.0, pricing.upper_bound))
        history.append((lower, upper))
    return ColumnGenerationRun(
        master=master,
        lower=lower,
        upper=upper,
        history=history,
        dual=dual,
        exact_pricing=bool(source.exact),
        exact_pricings=exact_pricings,
        mips=mips,
        seconds=time.perf_counter() - start,
        gap_tolerance=gap,
        interrupted=interrupted,
        weights=master.weights,
        solved_columns=master.solved_columns,
    )


def _checked_coarsening(coarse: object, n: int) -> tuple[ColumnSource, NDArray] | None:
    """A source's :meth:`~mechdesign.optimal.sources.ColumnSource.coarsened` answer,
    refused by name unless it is ``None`` or a smaller column source with the group of
    each of the ``n`` inputs (integers from 0 to its ``n − 1``)."""
    if coarse is None:
        return None
    if not (isinstance(coarse, tuple) and len(coarse) == 2):
        raise InvalidInputError(f"coarsened() must return None or (source, groups); got "
                                f"{show(coarse)}.")
    merged = check_column_source(coarse[0], "coarsened()[0]")
    groups = np.asarray(coarse[1])
    if (groups.shape != (n,) or groups.dtype.kind not in "iu" or not merged.n < n
            or groups.min() < 0 or groups.max() >= merged.n):
        raise InvalidInputError(
            f"coarsened() must return a source over fewer than {n} inputs and the group of "
            f"every input (integers from 0 to its n − 1, shape ({n},)); got a source over "
            f"{merged.n} and groups {show(coarse[1])}.")
    return merged, groups


def _lifted(merged: ColumnGenerationRun, groups: NDArray[np.int64],
            master: RestrictedMaster) -> NDArray[np.float64]:
    """The columns of the merged design's last master solution (positive weight), lifted
    to the inputs (``v_x ∝ v'_{g(x)}``, each summing to one), less those ``master``
    already has."""
    if merged.weights is None:
        return np.zeros((0, master.n))
    support = merged.master.columns[:merged.solved_columns][merged.weights > 0]
    lifted = support[:, groups]
    lifted /= lifted.sum(axis=1, keepdims=True)
    keys = {}
    for column in lifted:
        keys.setdefault(column_key(column), column)
    fresh = [column for key, column in keys.items() if key not in master.keys]
    return np.array(fresh) if fresh else np.zeros((0, master.n))


def _smoothing_steps(alpha: float) -> list[float]:
    """The smoothing factors tried in turn, ``α_k = 1 − k(1 − α)`` while positive, then
    0 (the master's own dual): the rule of Pessoa et al. (2018) after a mis-pricing.
    The step is at least ``α /`` :data:`SMOOTHING_MAX_STEPS`, so that an ``α`` close to 1
    (valid) cannot ask for millions of pricings after one mis-pricing."""
    step = max(1 - alpha, alpha / SMOOTHING_MAX_STEPS)
    steps = [alpha]
    while steps[-1] > 1.5 * step:  # the next step is positive (with rounding)
        steps.append(steps[-1] - step)
    return [*steps, 0.0] if alpha > 0 else [0.0]


def _rescored(pricing: Pricing, priced_at: NDArray, dual: NDArray) -> Pricing:
    """The pricing's columns with their reduced costs at ``dual`` instead of at
    ``priced_at``, best first: ``μ(v) − λ·v = r(v) + (λ' − λ)·v``."""
    if priced_at is dual:
        return pricing
    costs = pricing.reduced_costs + pricing.columns @ (priced_at - dual)
    order = np.argsort(-costs, kind="stable")
    return replace(pricing, columns=pricing.columns[order], reduced_costs=costs[order])


def _improving(pricing: Pricing, master: RestrictedMaster, threshold: float,
               batch: int = COLUMN_GENERATION_BATCH) -> NDArray:
    """Up to ``batch`` of the priced columns with reduced cost
    above ``threshold`` that are not already columns of the master (rounded to 12
    decimals; a scan of the master instead took three quarters of the time at a = 240)."""
    out: list[NDArray[np.float64]] = []
    keys: set[bytes] = set()
    for column, cost in zip(pricing.columns, pricing.reduced_costs, strict=True):
        if not cost > threshold or len(out) == batch:
            break
        key = column_key(column)
        if key not in master.keys and key not in keys:
            keys.add(key)
            out.append(column)
    return np.array(out) if out else np.zeros((0, master.n))
