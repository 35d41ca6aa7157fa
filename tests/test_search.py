"""The bracketed search of mechdesign._search against thresholds known in closed form.

Reference: synthetic non-decreasing curves whose largest point at or below the level is
written down here — exponential tails (the shape of a shuffled δ in ε₀), curves that are 0
below a point (no logarithm there), steps and flat stretches (kinks and plateaus of a min
over bounds) — and plain bisection to the same resolution.
"""

from __future__ import annotations

import math

from hypothesis import given, settings, strategies as st

from mechdesign._search import largest_meeting


def _bisection(curve, d, lo, hi, rtol):
    while hi - lo > rtol * hi:
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        lo, hi = (mid, hi) if curve(mid) <= d else (lo, mid)
    return lo


@settings(max_examples=300, deadline=None)
@given(threshold=st.floats(0.01, 19.0), rate=st.floats(0.05, 400.0),
       zero_below=st.floats(0.0, 1.0), log_d=st.floats(-30.0, -1.0),
       step=st.sampled_from([0.0, 1e-3, 0.05]), rtol=st.sampled_from([1e-3, 1e-6, 1e-9]))
def test_it_finds_the_threshold_of_a_non_decreasing_curve(threshold, rate, zero_below, log_d,
                                                          step, rtol):
    # δ(x) = d·exp(rate (x − threshold)) read on a grid of `step` in x (a staircase), 0
    # below zero_below·threshold: the largest x with δ(x) ≤ d is the threshold itself
    # (or the top of its stair).
    d, top = math.exp(log_d), 20.0
    calls = []

    def curve(x):
        calls.append(x)
        if x < zero_below * threshold:
            return 0.0
        grid = math.floor(x / step) * step if step else x
        return min(1.0, d * math.exp(min(rate * (grid - threshold), 700.0)))

    # the threshold, or the top of its stair, to the last bits (bisection to 1e-15)
    exact = _bisection(curve, d, 0.0, top, 1e-15)
    calls.clear()
    at_top = curve(top)
    found = largest_meeting(curve, d, 0.0, top, at_top, rtol)
    assert curve(found) <= d                       # it meets the level
    assert found <= exact + 1e-13                  # and nothing above the threshold is taken
    assert exact - found <= rtol * top * 1.000001  # to the resolution asked
    searched = calls[1:]
    reference = _bisection(curve, d, 0.0, top, rtol)
    assert abs(found - reference) <= rtol * top * 1.000001
    assert all(0.0 < x < top for x in searched)


def test_it_needs_fewer_values_than_bisection_on_an_exponential_tail():
    d, calls = 1e-6, []

    def curve(x):
        calls.append(x)
        return min(1.0, d * math.exp(3.0 * (x - 7.78)))

    found = largest_meeting(curve, d, 0.0, 20.0, curve(20.0), 1e-6)
    assert abs(found - 7.78) <= 2e-5
    assert len(calls) - 1 <= 12   # bisection takes 25 values to the same resolution
