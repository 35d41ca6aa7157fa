"""Searches on one real parameter shared by the accountants and the designs."""

from __future__ import annotations

import math
from collections.abc import Callable

__all__ = ["largest_meeting"]


def largest_meeting(delta_at: Callable[[float], float], d: float, lo: float, hi: float,
                     at_hi: float, rtol: float) -> float:
    """The largest ε₀ in ``[lo, hi]`` with ``delta_at(ε₀) ≤ d``, to ``rtol·hi`` (rounded
    down), for a non-decreasing ``delta_at`` with ``delta_at(lo) ≤ d < at_hi =
    delta_at(hi)``.

    False position on ``log(δ/d)`` (δ falls about exponentially as ε₀ falls) with the
    Illinois halving of the end that stays, each trial point kept ``rtol·hi/2`` inside
    the bracket so that both ends close; a bisection step whenever the bracket has not
    halved in three steps, and wherever ``δ = 0`` leaves no logarithm. Every step keeps
    the bracket, so the answer is the bisection's to the same resolution, in fewer
    values of ``delta_at`` (about 8 instead of 20 at ``rtol = 1e-6``)."""
    log_d = math.log(d)
    f_lo, f_hi = -math.inf, math.log(at_hi) - log_d
    kept, width, since = 0, hi - lo, 0
    while hi - lo > rtol * hi:
        tolerance = 0.5 * rtol * hi
        if math.isfinite(f_lo) and math.isfinite(f_hi) and since < 3:
            mid = lo + (hi - lo) * (-f_lo) / (f_hi - f_lo)
            mid = min(max(mid, lo + tolerance), hi - tolerance)
        else:
            mid = 0.5 * (lo + hi)
        if mid <= lo or mid >= hi:   # the float spacing: rtol below it is met
            break
        value = delta_at(mid)
        f_mid = math.log(value) - log_d if value > 0 else -math.inf
        if value <= d:
            lo, f_lo = mid, f_mid
            if kept == -1:
                f_hi *= 0.5   # Illinois: the high end stayed twice
            kept = -1
        else:
            hi, f_hi = mid, f_mid
            if kept == 1:
                f_lo *= 0.5
            kept = 1
        since += 1
        if hi - lo <= 0.5 * width:
            width, since = hi - lo, 0
        elif since >= 3:
            since = 3   # the next step bisects
    return lo
