"""Bad-input fuzz battery for the input contract of the README's "Conventions".

Every public callable (each function and class of ``mechdesign.__all__``, and the public
methods and properties of the public classes) must

1. refuse bad input with :class:`~mechdesign.errors.InvalidInputError` whose message names
   the argument (the parameter name as spelled in the signature); other package errors
   only where the input is valid but unsupported;
2. never accept a bad value silently, never return NaN (results are scanned recursively),
   never raise a generic Python exception, never hang (``TIME_LIMIT`` seconds per case);
3. answer extreme but valid values (ε = 700, probabilities of 1e-300, 5e-324 entries)
   without NaN, or raise a clear package error.

The battery substitutes one argument of a valid baseline call at a time with a bad or an
extreme value, each case labelled ``must_refuse`` or ``valid_extreme`` (when the docstring
leaves a value's validity open, the case is ``valid_extreme``: it only has to be answered
without NaN or refused by a package error). ``run_battery()`` returns one record per case;
``summary()`` prints the counts, the refusal rate and every breach with a one-line repro::

    .venv/bin/python -m tests.test_fuzz             # from the repository root
    .venv/bin/python -m tests.test_fuzz --verbose   # one line per breach, not grouped

Under pytest, ``test_baseline_is_answered_quickly_without_nan`` checks every baseline,
``test_bad_input_contract`` (marked slow: about a minute) runs every case of one callable
and lists its breaches, and a hypothesis test draws values of any type for the scalar
arguments.

Repro lines use the module-level fixtures of this file (``K3``, ``P3``, ``BALL``, ...):
run them after ``from tests.test_fuzz import *``.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
import os
import re
import signal
import tempfile
import time
import warnings
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import mechdesign as md
from mechdesign.errors import InvalidInputError, MechDesignError
from tests.helpers import K2, K3, K23, K32, P3, PHAT, Q3

try:  # the memory guard needs POSIX resource limits
    import resource
except ImportError:  # pragma: no cover
    resource = None

#: Seconds one case may take before it counts as a hang: a watchdog for a case that never
#: returns, not a speed claim, so it leaves room for a loaded machine (speed is measured
#: in benchmarks/).
TIME_LIMIT = 60.0
#: Address space a case may add (bytes); beyond it the allocation fails with MemoryError
#: (a generic exception, so a breach) instead of taking the machine down.
MEMORY_HEADROOM = 4 * 2**30

MUST, VALID = "must_refuse", "valid_extreme"
OUTCOMES = ("ok_refused_named", "refused_unnamed", "other_package_error", "generic_exception",
            "silently_accepted", "nan", "hang", "answered")

# ------------------------------------------------------------------ fixtures (the legend)
# Small valid inputs every baseline call is built from. Repro lines refer to them by name.
BALL = md.RenyiBall(PHAT, 2.0, md.chi2_radius(100, 4, 0.05))
K4 = md.mechanisms.secret_randomized_response((2, 2), 1.0).matrix
for _fixture in (K2, K3, K32, K23, P3, Q3, PHAT):
    _fixture.setflags(write=False)
CSV = os.path.join(tempfile.gettempdir(), "mechdesign-fuzz-pair.csv")

LEGEND = {
    "K2": "np.array([[0.75, 0.25], [0.25, 0.75]])",
    "K3": "np.array([[0.6, 0.3, 0.1], [0.2, 0.5, 0.3], [0.1, 0.2, 0.7]])",
    "K32": "np.array([[0.7, 0.3], [0.4, 0.6], [0.2, 0.8]])",
    "K23": "np.array([[0.6, 0.3, 0.1], [0.1, 0.3, 0.6]])",
    "P3": "np.array([0.5, 0.3, 0.2])",
    "Q3": "np.array([0.2, 0.3, 0.5])",
    "PHAT": "np.array([0.07, 0.1, 0.26, 0.57])",
    "BALL": "md.RenyiBall(PHAT, 2.0, md.chi2_radius(100, 4, 0.05))",
    "K4": "md.mechanisms.secret_randomized_response((2, 2), 1.0).matrix",
    "pair_csv()": "the path of a CSV 's,u / a,x / b,y / a,y / b,x / a,x' in the temp directory",
}


def pair_csv() -> str:
    """The path of a small two-column CSV file (written on first use) for categorical_pair."""
    if not os.path.exists(CSV):
        with open(CSV, "w") as fh:
            fh.write("s,u\na,x\nb,y\na,y\nb,x\na,x\n")
    return CSV


# Helpers the value sources use (each builds one variant of a valid baseline array).
def tiny_entry(kernel, value):
    """Row 0 becomes ``(1, value, 0, ...)``: a valid kernel with one subnormal entry."""
    k = np.array(kernel, dtype=float)
    k[0] = 0.0
    k[0, 0], k[0, 1] = 1.0, value
    return k


def tiny_dist(p, value):
    """The last entry becomes ``value``, the rest rescaled: still sums to 1."""
    q = np.array(p, dtype=float)
    q[:-1] = q[:-1] / q[:-1].sum()
    q[-1] = value
    return q


def with_entry(array, index, value):
    """A copy of ``array`` (object dtype when ``value`` is not a float) with one entry set."""
    a = np.array(array, dtype=object if not isinstance(value, float) else float)
    a[index] = value
    return a


def negative_entry(array):
    """Entry 0 of row 0 made negative, its row (or vector) still summing to 1."""
    a = np.array(array, dtype=float)
    row = a[0] if a.ndim == 2 else a
    delta = row[0] + 0.1
    row[0] -= delta
    row[1] += delta
    return a


def onehot(n, m):
    """A deterministic kernel: row i is the unit vector of output i mod m."""
    k = np.zeros((n, m))
    k[np.arange(n), np.arange(n) % m] = 1.0
    return k


def fractions(array):
    """The array as exact Fractions (object dtype); rows keep summing to 1 exactly."""
    a = np.array(array, dtype=float)
    f = np.vectorize(lambda x: Fraction(x).limit_denominator(10**6), otypes=[object])(a)
    if a.ndim == 2:
        f[:, -1] = [1 - sum(row[:-1]) for row in f]
    else:
        f[-1] = 1 - sum(f[:-1])
    return f


def nudged(array, amount):
    """Row 0 (or the vector) scaled by ``1 + amount``: a sum off by ``amount``."""
    a = np.array(array, dtype=float)
    if a.ndim == 2:
        a[0] *= 1 + amount
    else:
        a *= 1 + amount
    return a


def build_all(protocols):
    """Build every protocol of :func:`mechdesign.comparison.deployed_protocols` (a builder may raise
    TooLargeError, as documented; that protocol is then left out)."""
    built = {}
    for name, builder in protocols.items():
        try:
            built[name] = builder()
        except md.TooLargeError:
            continue
    return built


def closed(ax):
    """Close every matplotlib figure (plot_sweep opens one per call); returns ``ax``."""
    import matplotlib.pyplot as plt

    plt.close("all")
    return ax


def _namespace() -> dict:
    ns = {name: value for name, value in globals().items() if not name.startswith("_")}
    return ns


# ------------------------------------------------------------------ argument specifications
@dataclass(frozen=True)
class D:
    """A real domain: an interval (``inf`` endpoints closed mean ``inf`` is allowed), an
    optional integer requirement and an optional extra predicate."""

    lo: float = -math.inf
    hi: float = math.inf
    lo_open: bool = False
    hi_open: bool = False
    test: Callable[[float], bool] | None = None

    def contains(self, x: float) -> bool:
        if math.isnan(x):
            return False
        if x < self.lo or (self.lo_open and x <= self.lo):
            return False
        if x > self.hi or (self.hi_open and x >= self.hi):
            return False
        return self.test is None or bool(self.test(x))


EPS = D(0.0, math.inf)                        # ε ≥ 0, ∞ allowed
EPS_FIN = D(0.0, math.inf, hi_open=True)      # 0 ≤ ε < ∞
TOL = D(0.0, math.inf, hi_open=True)          # a tolerance: finite, ≥ 0
POS_TOL = D(0.0, math.inf, True, True)        # finite, > 0
PROB = D(0.0, 1.0)                            # [0, 1]
OPEN01 = D(0.0, 1.0, True, True)              # (0, 1)
HALF_OPEN01 = D(0.0, 1.0, lo_open=True)       # (0, 1]
ALPHA = D(0.0, math.inf, lo_open=True)        # Rényi order (0, ∞]
ALPHA_FIN = D(0.0, math.inf, True, True)      # (0, ∞)
ALPHA_GT1 = D(1.0, math.inf, True, True)      # (1, ∞)
POS = D(1.0, math.inf)                        # integers ≥ 1
TV = PROB


def c_dom(n: int) -> D:
    return D(0.0, 1.0 / n, lo_open=True)


@dataclass(frozen=True)
class Arg:
    """One parameter of a target: its baseline source and how to fuzz it.

    ``kind`` picks the catalogue of bad values (see :func:`cases_for`). ``dom`` is the
    valid domain of a scalar; ``strict=False`` makes values outside it ``valid_extreme``
    (the docstring does not say they are invalid). ``tie`` says which of an array's sizes
    another argument fixes ("rows", "cols", "both", "len"), so that changing it must be
    refused. ``extra`` adds ``(label, source, expectation)`` cases; ``force`` overrides the
    expectation of a catalogue label; ``skip`` drops catalogue labels."""

    name: str
    kind: str
    base: str
    dom: D | None = None
    optional: bool = False
    strict: bool = True
    tie: str = ""
    choices: tuple = ()
    extra: tuple = ()
    force: Mapping[str, str] = field(default_factory=dict)
    skip: tuple = ()
    nocase: bool = False
    array_ok: bool = False
    nonneg: bool = False
    fuzz: bool = True
    transposed: bool = False   # a kernel given column-stochastic (from_columns)
    joint: bool = False        # its domain depends on other arguments: naming any counts


@dataclass(frozen=True)
class Target:
    """A public callable, the source of the object to call, and its baseline arguments."""

    name: str
    call: str
    args: tuple = ()
    fixed: tuple = ()          # (name, source) pairs passed but never fuzzed
    variant: str = ""
    wrap: str = ""             # an expression of ``r`` applied to the result
    prop: bool = False         # a property: ``call`` is evaluated, not called
    heavy: bool = False        # excluded from the hypothesis draws

    @property
    def label(self) -> str:
        return f"{self.name}[{self.variant}]" if self.variant else self.name


def A(name: str, kind: str, base: str, **kw) -> Arg:
    return Arg(name, kind, base, **kw)


def T(name: str, call: str, *args: Arg, **kw) -> Target:
    return Target(name, call, tuple(args), **kw)


# ------------------------------------------------------------------ catalogues of values
AUTO = "auto"  # expectation decided from the evaluated value and the argument's domain

TYPE_BAD = (
    ("None", "None"),
    ("str 'abc'", "'abc'"),
    ("bool True", "True"),
    ("complex 0.5+1j", "0.5+1j"),
    ("dict", "{'a': 1}"),
)

REAL_VALUES = (
    ("nan", "math.nan"), ("+inf", "math.inf"), ("-inf", "-math.inf"), ("0", "0.0"),
    ("1e-300", "1e-300"), ("5e-324", "5e-324"), ("700", "700.0"), ("800", "800.0"),
    ("1e308", "1e308"), ("0.34", "0.34"),
    ("-1", "-1.0"), ("-1e-300", "-1e-300"), ("0.5", "0.5"), ("1.5", "1.5"),
    ("Fraction(1, 4)", "Fraction(1, 4)"), ("np.float32(0.25)", "np.float32(0.25)"),
    ("0-d array", "np.array(0.25)"), ("str '0.5'", "'0.5'"),
    ("1-element array", "np.array([0.25])"), ("list [0.25]", "[0.25]"),
    ("Mechanism object", "md.Mechanism(K2)"), ("complex array", "np.array([0.5 + 1j])"),
)

INT_VALUES = (
    ("0", "0"), ("1", "1"), ("2", "2"), ("-3", "-3"), ("2.5", "2.5"), ("10**12", "10**12"),
    ("nan", "math.nan"), ("+inf", "math.inf"), ("str '3'", "'3'"),
    ("1-element array", "np.array([3])"), ("Mechanism object", "md.Mechanism(K2)"),
)


def _int_extra(base: str) -> tuple:
    base = "3" if base == "None" else base
    return (("integral float", f"float({base})"), ("np.int64", f"np.int64({base})"),
            ("np.float64 integral", f"np.float64({base})"))


def _bad_entry_cases(b: str, index: str) -> list:
    """One entry of the array ``b`` (at ``index``) replaced by None, NaN or +inf."""
    return [(f"{name} entry", f"with_entry({b}, {index}, {value})", MUST)
            for name, value in (("None", "None"), ("nan", "math.nan"), ("inf", "math.inf"))]


def _real_entry_cases(b: str, index: str, nonneg: bool) -> list:
    """:func:`_bad_entry_cases`, and huge, subnormal and negative entries (the last
    refused only where the argument is non-negative)."""
    return [*_bad_entry_cases(b, index),
            ("1e308 entry", f"with_entry({b}, {index}, 1e308)", VALID),
            ("5e-324 entry", f"with_entry({b}, {index}, 5e-324)", VALID),
            ("negative entry", f"with_entry({b}, {index}, -0.5)", MUST if nonneg else VALID)]


def _kernel_cases(arg: Arg, value) -> list:
    a = np.asarray(value.matrix if isinstance(value, md.Mechanism) else value, dtype=float)
    n, m = a.shape
    b = f"{arg.base}.matrix" if isinstance(value, md.Mechanism) else arg.base
    if arg.transposed:  # the variants are built on K = qᵀ, then transposed back
        b = f"np.transpose({b})"
        n, m = m, n
    cases = [
        ("nan", "math.nan", MUST), ("+inf", "math.inf", MUST), ("scalar 0.5", "0.5", MUST),
        ("1-D (first row)", f"np.asarray({b})[0]", MUST),
        ("3-D", f"np.asarray({b})[None]", MUST),
        ("empty []", "[]", MUST), ("empty (0, 0)", "np.zeros((0, 0))", MUST),
        ("no columns (N, 0)", f"np.zeros(({n}, 0))", MUST),
        ("ragged", "[[0.5, 0.5], [1.0]]", MUST),
        ("numeric strings", f"np.asarray({b}).astype(str).tolist()", MUST),
        ("complex entries", f"np.asarray({b}) + 0j + 9j * np.eye({n}, {m})", MUST),
        ("boolean matrix", f"onehot({n}, {m}).astype(bool)", MUST),
        *_bad_entry_cases(b, "(0, 0)"),
        ("negative entry", f"negative_entry({b})", MUST),
        ("rows sum to 1.1", f"nudged({b}, 0.1)", MUST),
        ("Mechanism class (not instance)", "md.Mechanism", MUST),
        ("5e-324 entry", f"tiny_entry({b}, 5e-324)", VALID),
        ("1e-300 entry", f"tiny_entry({b}, 1e-300)", VALID),
        ("deterministic (zeros)", f"onehot({n}, {m})", VALID),
        ("constant rows", f"np.full(({n}, {m}), 1 / {m})", VALID),
        ("float32", f"np.asarray({b}, dtype=np.float32)", VALID),
        ("Fractions", f"fractions({b})", VALID),
        ("Mechanism", f"md.Mechanism({b})", VALID),
        ("2-D array", f"np.array({b})", VALID),
        ("nested list", f"np.asarray({b}).tolist()", VALID),
        ("row sum off by 1e-12", f"nudged({b}, 1e-12)", VALID),
    ]
    if arg.transposed:  # a column-stochastic argument: every variant of K, transposed
        keep = {"nan", "+inf", "scalar 0.5", "empty []", "ragged",
                "Mechanism class (not instance)", "Mechanism"}
        cases = [(label, src if label in keep else f"np.transpose({src})", e)
                 for label, src, e in cases if label != "Mechanism"]
    if arg.tie in ("rows", "both"):
        cases.append(("one more row (N mismatch)",
                      f"np.vstack([np.asarray({b}), np.asarray({b})[:1]])", "tie"))
    if arg.tie in ("cols", "both"):
        cases.append(("one more column (M mismatch)",
                      f"np.hstack([np.asarray({b}), np.zeros(({n}, 1))])", "tie"))
    return cases


def _dist_cases(arg: Arg, value) -> list:
    n = len(np.asarray(value))
    b = arg.base
    cases = [
        ("nan", "math.nan", MUST), ("+inf", "math.inf", MUST), ("scalar 0.5", "0.5", MUST),
        ("str '0.5'", "'0.5'", MUST), ("Mechanism object", "md.Mechanism(K2)", MUST),
        ("2-D", f"np.asarray({b})[None]", MUST), ("empty []", "[]", MUST),
        ("ragged", "[[0.5], [0.3, 0.2]]", MUST),
        ("numeric strings", f"np.asarray({b}).astype(str).tolist()", MUST),
        ("complex entries", f"np.asarray({b}) + 0j + 9j * np.eye(1, {n})[0]", MUST),
        ("boolean vector", f"np.eye(1, {n}, dtype=bool)[0]", MUST),
        *_bad_entry_cases(b, "0"),
        ("negative entry", f"negative_entry({b})", MUST),
        ("sums to 1.1", f"nudged({b}, 0.1)", MUST),
        ("1e-300 entry", f"tiny_dist({b}, 1e-300)", VALID),
        ("5e-324 entry", f"tiny_dist({b}, 5e-324)", VALID),
        ("point mass (zeros)", f"np.eye(1, {n})[0]", VALID),
        ("float32", f"np.asarray({b}, dtype=np.float32)", VALID),
        ("Fractions", f"fractions({b})", VALID),
        ("list", f"np.asarray({b}).tolist()", VALID),
        ("sum off by 1e-12", f"nudged({b}, 1e-12)", VALID),
    ]
    if arg.tie:
        cases.append(("one more entry (length mismatch)",
                      f"np.append(np.asarray({b}), 0.0)", "tie"))
    return cases


def _vec_cases(arg: Arg, value) -> list:
    """A real vector (any signs unless ``nonneg``)."""
    n = len(np.asarray(value))
    b = arg.base
    cases = [
        ("nan", "math.nan", MUST), ("scalar 0.5", "0.5", MUST),
        ("2-D", f"np.asarray({b})[None]", MUST), ("empty []", "[]", MUST),
        ("ragged", "[[0.5], [0.3, 0.2]]", MUST),
        ("numeric strings", f"np.asarray({b}).astype(str).tolist()", MUST),
        ("complex entries", f"np.asarray({b}) + 0j + 9j * np.eye(1, {n})[0]", MUST),
        ("boolean vector", f"np.eye(1, {n}, dtype=bool)[0]", MUST),
        *_real_entry_cases(b, "0", arg.nonneg),
        ("float32", f"np.asarray({b}, dtype=np.float32)", VALID),
        ("list", f"np.asarray({b}).tolist()", VALID),
    ]
    if arg.tie:
        cases.append(("one more entry (length mismatch)",
                      f"np.append(np.asarray({b}), 0.0)", "tie"))
    return cases


def _matrix_cases(arg: Arg, value) -> list:
    """A real matrix that need not be stochastic (gains, estimators, columns, ...)."""
    a = np.asarray(value, dtype=float)
    n, m = a.shape
    b = arg.base
    cases = [
        ("nan", "math.nan", MUST), ("scalar 0.5", "0.5", MUST),
        ("1-D (first row)", f"np.asarray({b})[0]", MUST),
        ("3-D", f"np.asarray({b})[None]", MUST),
        ("empty []", "[]", MUST), ("empty (0, 0)", "np.zeros((0, 0))", MUST),
        ("ragged", "[[0.5, 0.5], [1.0]]", MUST),
        ("numeric strings", f"np.asarray({b}).astype(str).tolist()", MUST),
        ("complex entries", f"np.asarray({b}) + 0j + 9j * np.eye({n}, {m})", MUST),
        ("boolean matrix", f"np.eye({n}, {m}, dtype=bool)", MUST),
        *_real_entry_cases(b, "(0, 0)", arg.nonneg),
        ("float32", f"np.asarray({b}, dtype=np.float32)", VALID),
        ("nested list", f"np.asarray({b}).tolist()", VALID),
    ]
    if arg.tie in ("rows", "both"):
        cases.append(("one more row", f"np.vstack([np.asarray({b}), np.asarray({b})[:1]])",
                      "tie"))
    if arg.tie in ("cols", "both"):
        cases.append(("one more column", f"np.hstack([np.asarray({b}), np.zeros(({n}, 1))])",
                      "tie"))
    return cases


def _index_cases(arg: Arg, value) -> list:
    """Integer indices in ``range(arg.dom.hi)`` (``dom.hi`` is the exclusive bound)."""
    r = int(arg.dom.hi)
    b = arg.base
    return [
        ("index out of range", f"list({b}) + [{r}]", MUST),
        ("index -1", f"list({b}) + [-1]", MUST),
        ("index 10**12", f"list({b}) + [10**12]", MUST),
        ("2.5 entry", f"list({b}) + [2.5]", MUST),
        ("nan entry", f"list({b}) + [math.nan]", MUST),
        ("numeric strings", f"[str(i) for i in {b}]", MUST),
        ("booleans", f"[bool(i % 2) for i in {b}]", MUST),
        ("complex entries", f"np.asarray({b}) + 1j", MUST),
        ("ragged", "[[0, 1], [1]]", MUST),
        ("nan", "math.nan", MUST),
        ("integral floats", f"[float(i) for i in {b}]", VALID),
        ("np.int64 array", f"np.asarray({b}, dtype=np.int64)", VALID),
        ("np.uint8 array", f"np.asarray({b}, dtype=np.uint8)", VALID),
    ]


def _labels_cases(arg: Arg, value) -> list:
    b = arg.base
    return [
        ("scalar 5", "5", MUST), ("one shorter (length mismatch)", f"list({b})[:-1]", "tie"),
        ("empty []", "[]", MUST), ("2-D", f"np.asarray({b})[None]", MUST),
        ("string labels", f"[f'L{{v}}' for v in {b}]", VALID),
        ("mixed-type labels", f"[v if i % 2 else str(v) for i, v in enumerate({b})]", VALID),
        ("float labels", f"[float(i % 2) for i in range(len({b}))]", VALID),
    ]


def _shape_cases(arg: Arg, value) -> list:
    s, u = (int(x) for x in value)
    p = s * u
    cases = [
        ("int", f"{p}", MUST), ("str 'ab'", "'ab'", MUST), ("(0, N)", f"(0, {p})", MUST),
        ("(-2, -2)", "(-2, -2)", MUST), ("(2.5, 1.6)", "(2.5, 1.6)", MUST),
        ("bool entry", f"(True, {p})", MUST), ("1-tuple", f"({p},)", MUST),
        ("3-tuple", f"({s}, {u}, 1)", MUST), ("nan entry", f"(math.nan, {u})", MUST),
        ("text entries", f"('{s}', '{u}')", MUST),
        ("list", f"[{s}, {u}]", VALID), ("np.int64 entries", f"(np.int64({s}), np.int64({u}))",
                                         VALID),
        ("integral floats", f"({s}.0, {u}.0)", VALID), ("(N, 1)", f"({p}, 1)", VALID),
        ("(1, N)", f"(1, {p})", VALID),
    ]
    if arg.tie:
        cases.append(("product mismatch", f"({s + 1}, {u})", "tie"))
    else:
        cases.append(("(3, 3)", "(3, 3)", VALID))
        cases.append(("(10**6, 10**6)", "(10**6, 10**6)", VALID))
    return cases


def _notion_cases(arg: Arg, value) -> list:
    return [
        ("float 1.0", "1.0", MUST), ("Mechanism object", "md.Mechanism(K2)", MUST),
        ("a RenyiBall", "BALL", MUST), ("the class LDP (not an instance)", "md.LDP", MUST),
        ("LDP(0)", "md.LDP(0.0)", VALID), ("LDP(700)", "md.LDP(700.0)", VALID),
        ("LDP(800)", "md.LDP(800.0)", VALID),
        ("LDP(1e-300)", "md.LDP(1e-300)", VALID),
        ("PML(1, c=0.1)", "md.PML(1.0, c=0.1)", VALID),
        ("PML(700, c=0.1)", "md.PML(700.0, c=0.1)", VALID),
    ]


def _ball_cases(arg: Arg, value) -> list:
    return [
        ("float 1.0", "1.0", MUST), ("an LDP notion", "md.LDP(1.0)", MUST),
        ("Mechanism object", "md.Mechanism(K2)", MUST),
        ("ball on 2 letters (size mismatch)", "md.RenyiBall([0.5, 0.5], 2.0, 0.1)", "tie"),
        ("radius 0", "md.RenyiBall(PHAT, 2.0, 0.0)", VALID),
        ("radius inf", "md.RenyiBall(PHAT, 2.0, math.inf)", VALID),
        ("radius 800", "md.RenyiBall(PHAT, 2.0, 800.0)", VALID),
        ("alpha 0.5", "md.RenyiBall(PHAT, 0.5, 0.05)", VALID),
        ("alpha 1", "md.RenyiBall(PHAT, 1.0, 0.05)", VALID),
        ("alpha 800", "md.RenyiBall(PHAT, 800.0, 0.05)", VALID),
        ("center with 1e-300 entries",
         "md.RenyiBall([1 - 3e-300, 1e-300, 1e-300, 1e-300], 2.0, 0.05)", VALID),
        ("center with 5e-324 entries",
         "md.RenyiBall([0.5, 0.5, 5e-324, 5e-324], 2.0, 0.05)", VALID),
        ("center with zeros", "md.RenyiBall([0.5, 0.5, 0.0, 0.0], 2.0, 0.05)", VALID),
    ]


def _fgen_cases(arg: Arg, value) -> list:
    return [
        ("float 1.0", "1.0", MUST), ("Mechanism object", "md.Mechanism(K2)", MUST),
        ("callable returning nan", "lambda t: t * math.nan", MUST),
        ("callable of the wrong arity", "lambda: 0.0", MUST),
        # A generator needs f(1) = 0 (D_f(P‖P) = 0), finite and real there.
        ("callable with f(1) = 1", "lambda t: t", MUST),
        ("callable t log t + 0.5 (f(1) = 0.5)", "lambda t: t * np.log(t) + 0.5", MUST),
        ("callable infinite at 1", "lambda t: np.full_like(t, math.inf)", MUST),
        ("callable complex at 1", "lambda t: (t - 1) ** 2 + 1j", MUST),
        ("TOTAL_VARIATION", "md.measures.TOTAL_VARIATION", VALID),
        ("CHI_SQUARED", "md.measures.CHI_SQUARED", VALID),
        ("SQUARED_HELLINGER", "md.measures.SQUARED_HELLINGER", VALID),
        ("f_alpha_generator(800)", "md.measures.f_alpha_generator(800.0)", VALID),
        ("bare callable (t-1)^2", "lambda t: (t - 1) ** 2", VALID),
    ]


def _callable_cases(arg: Arg, value) -> list:
    return [("float 1.0", "1.0", MUST), ("Mechanism object", "md.Mechanism(K2)", MUST)]


def _name_cases(arg: Arg, value) -> list:
    # Free text used in messages and reprs: nothing is clearly invalid.
    return [("empty ''", "''", VALID), ("unicode", "'ε-δ ✓'", VALID),
            ("int 123", "123", VALID), ("None", "None", VALID)]


def _choice_cases(arg: Arg, value) -> list:
    cases = [("unknown 'abc'", "'abc'", MUST), ("empty ''", "''", MUST),
             ("int 1", "1", MUST), ("float nan", "math.nan", MUST),
             ("list of the baseline", f"[{arg.base}]", MUST)]
    base = eval(arg.base)
    for choice in arg.choices:
        if isinstance(choice, str) and choice != base:
            cases.append((f"choice {choice!r}", repr(choice), VALID))
    if isinstance(base, str) and base.upper() != base:
        cases.append(("upper-case baseline", repr(base.upper()), VALID))
    return cases


def _bool_cases(arg: Arg, value) -> list:
    return [("str 'abc'", "'abc'", MUST), ("str 'False'", "'False'", MUST),
            ("float nan", "math.nan", MUST), ("list [False]", "[False]", MUST),
            ("int 2", "2", VALID), ("int 0", "0", VALID), ("np.bool_", "np.bool_(False)", VALID),
            ("float 0.5", "0.5", VALID)]


def _rng_cases(arg: Arg, value) -> list:
    return [("-1", "-1", MUST), ("2.5", "2.5", MUST), ("nan", "math.nan", MUST),
            ("str '3'", "'3'", MUST), ("Mechanism object", "md.Mechanism(K2)", MUST),
            ("0", "0", VALID), ("10**12", "10**12", VALID),
            ("Generator", "np.random.default_rng(1)", VALID), ("np.int64", "np.int64(7)", VALID)]


KIND_CATALOGUES = {
    "kernel": _kernel_cases, "dist": _dist_cases, "vec": _vec_cases, "matrix": _matrix_cases,
    "index": _index_cases, "labels": _labels_cases, "shape": _shape_cases,
    "notion": _notion_cases, "ball": _ball_cases, "fgen": _fgen_cases,
    "callable": _callable_cases, "name": _name_cases, "choice": _choice_cases,
    "bool": _bool_cases, "rng": _rng_cases,
}
#: Kinds whose catalogue is not preceded by the generic wrong-type values.
NO_TYPE_BAD = {"name", "bool"}


def cases_for(arg: Arg, ns: dict) -> list[tuple[str, str, str]]:
    """``(label, source, expectation)`` for every value substituted for ``arg``."""
    if not arg.fuzz:
        return []
    out: list[tuple[str, str, str]] = []
    if arg.kind in ("real", "int"):
        values = list(REAL_VALUES if arg.kind == "real" else INT_VALUES)
        if arg.kind == "int":
            values += list(_int_extra(arg.base))
        values += list(TYPE_BAD)
        out = [(label, src, AUTO) for label, src in values]
    else:
        base_value = eval(arg.base, ns)
        if arg.kind not in NO_TYPE_BAD:
            out += [(label, src, AUTO if label == "None" else MUST) for label, src in TYPE_BAD]
        elif arg.kind == "bool":
            out.append(("None", "None", VALID))
        catalogue = KIND_CATALOGUES.get(arg.kind)
        if catalogue is not None:
            out += catalogue(arg, base_value)
    out += list(arg.extra)
    seen: dict[str, tuple[str, str, str]] = {}
    for label, src, expect in out:
        if label in arg.skip:
            continue
        if label in arg.force:
            expect = arg.force[label]
        seen[label] = (label, src, expect)
    return list(seen.values())


def _number(value) -> float | None:
    """The real number ``value`` stands for, or None when it is not a real scalar."""
    if isinstance(value, bool | np.bool_):
        return None
    if isinstance(value, np.ndarray):
        return float(value) if value.ndim == 0 and value.dtype.kind in "iuf" else None
    if isinstance(value, numbers.Real):
        return float(value)
    return None


def classify(arg: Arg, value) -> str:
    """The expectation of a scalar value (AUTO cases) from the argument's domain."""
    if value is None:
        return VALID if arg.optional else MUST
    if arg.kind not in ("real", "int"):
        return MUST
    if arg.array_ok and isinstance(value, list | np.ndarray) and np.ndim(value) == 1:
        if np.asarray(value).dtype.kind not in "iuf":
            return MUST
        entries = [float(v) for v in np.asarray(value).ravel()]
        return VALID if all(arg.dom.contains(e) for e in entries) else MUST
    x = _number(value)
    if x is None or math.isnan(x):
        return MUST
    if arg.kind == "int" and not x.is_integer():
        return MUST
    dom = arg.dom if arg.dom is not None else D()
    if dom.contains(x):
        return VALID
    return MUST if arg.strict else VALID


# ------------------------------------------------------------------ running one case
class _Hang(BaseException):
    """Raised by the alarm; a BaseException so that no ``except Exception`` swallows it."""


def _on_alarm(signum, frame):
    raise _Hang


def find_nan(value, path: str = "result", depth: int = 0, seen: set | None = None) -> str | None:
    """Where in ``value`` a NaN sits (``None`` if nowhere): floats, numpy arrays and
    scalars, dataclass fields, evidence fields, tuples, lists, dicts, DataFrames."""
    seen = set() if seen is None else seen
    if depth > 6 or id(value) in seen:
        return None
    if isinstance(value, float | np.floating | complex | np.complexfloating):
        if isinstance(value, complex | np.complexfloating):
            return path if (math.isnan(value.real) or math.isnan(value.imag)) else None
        if math.isnan(value):
            return path
        if not (hasattr(value, "_fields") and value._fields):
            return None
    if isinstance(value, np.ndarray):
        if value.dtype.kind in "fc" and value.size and np.isnan(value).any():
            return f"{path}[{tuple(int(i) for i in np.argwhere(np.isnan(value))[0])}]"
        if value.dtype.kind == "O":
            for i, v in enumerate(value.ravel()[:1000]):
                hit = find_nan(v, f"{path}.flat[{i}]", depth + 1, seen)
                if hit:
                    return hit
        return None
    if isinstance(value, str | bytes | int | bool | type(None)) or (callable(value) and not (
            dataclasses.is_dataclass(value))):
        return None
    seen.add(id(value))
    if type(value).__name__ == "DataFrame":
        frame = value
        for column in ("note", "error"):  # documented: such rows have missing measures
            if column in frame.columns:
                frame = frame[frame[column].fillna("").astype(str) == ""]
        numeric = frame.select_dtypes("number")
        if numeric.isna().to_numpy().any():
            return f"{path} (DataFrame without a note)"
        return None
    if isinstance(value, float) and hasattr(value, "_fields"):  # EvidenceFloat
        for name in value._fields:
            hit = find_nan(getattr(value, name), f"{path}.{name}", depth + 1, seen)
            if hit:
                return hit
        return None
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            hit = find_nan(getattr(value, f.name, None), f"{path}.{f.name}", depth + 1, seen)
            if hit:
                return hit
        return None
    if isinstance(value, Mapping):
        for k, v in list(value.items())[:1000]:
            hit = find_nan(v, f"{path}[{k!r}]", depth + 1, seen)
            if hit:
                return hit
        return None
    if isinstance(value, tuple | list):
        for i, v in enumerate(value[:1000]):
            hit = find_nan(v, f"{path}[{i}]", depth + 1, seen)
            if hit:
                return hit
    return None


def render(value, fallback: str, budget: int = 240) -> str:
    """Python source for ``value`` (fixtures by name), or ``fallback`` when too long."""
    for name in ("K2", "K3", "K32", "K23", "P3", "Q3", "PHAT", "K4"):
        fixture = globals()[name]
        if isinstance(value, np.ndarray) and value is fixture:
            return name
    if value is BALL:
        return "BALL"
    try:
        text = _render(value)
    except _Unrenderable:
        return fallback
    return text if len(text) <= budget else fallback


class _Unrenderable(Exception):
    pass


def _render(v) -> str:
    if isinstance(v, bool | np.bool_):
        return repr(bool(v)) if isinstance(v, bool) else f"np.bool_({bool(v)})"
    if isinstance(v, np.generic):
        return f"np.{type(v).__name__}({_render(v.item())})"
    if isinstance(v, float):
        if math.isnan(v):
            return "math.nan"
        if math.isinf(v):
            return "math.inf" if v > 0 else "-math.inf"
        return repr(v)
    if isinstance(v, complex):
        return f"complex({_render(v.real)}, {_render(v.imag)})"
    if isinstance(v, int | str | type(None) | Fraction):
        return repr(v)
    if isinstance(v, list):
        return "[" + ", ".join(_render(x) for x in v) + "]"
    if isinstance(v, tuple):
        inner = ", ".join(_render(x) for x in v)
        return f"({inner},)" if len(v) == 1 else f"({inner})"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_render(k)}: {_render(x)}" for k, x in v.items()) + "}"
    if isinstance(v, np.ndarray):
        body = _render(v.tolist())
        dtype = "" if v.dtype == np.float64 else f", dtype={_dtype_src(v.dtype)}"
        if v.ndim == 0:
            return f"np.array({body}{dtype})"
        return f"np.array({body}{dtype})"
    if isinstance(v, md.Mechanism):
        return f"md.Mechanism({_render(v.matrix.tolist())})"
    raise _Unrenderable


def _dtype_src(dtype: np.dtype) -> str:
    if dtype.kind == "O":
        return "object"
    if dtype.kind in "US":
        return "str"
    return f"np.{dtype.name}"


def _named(message: str, name: str) -> bool:
    return re.search(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", message) is not None


def _short(text: str, limit: int = 160) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"



BREACH_OUTCOMES = ("refused_unnamed", "generic_exception", "silently_accepted", "nan", "hang")


@dataclass
class Record:
    """One case: what was passed, what was expected, what happened."""

    callable: str
    argument: str
    label: str
    expectation: str
    outcome: str
    detail: str
    repro: str
    seconds: float

    @property
    def breach(self) -> bool:
        return self.outcome in BREACH_OUTCOMES or (
            self.expectation == MUST and self.outcome == "other_package_error")


def _vm_bytes() -> int | None:
    try:
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return None


class _Guard:
    """The limits of one case: an alarm after ``TIME_LIMIT`` seconds (main thread only),
    the address space capped ``MEMORY_HEADROOM`` above its current size, and the
    RuntimeWarnings of mechdesign's own code raised as errors (as pytest.ini does)."""

    def __enter__(self):
        import threading

        self.alarm = threading.current_thread() is threading.main_thread()
        if self.alarm:
            self.old_handler = signal.signal(signal.SIGALRM, _on_alarm)
            signal.setitimer(signal.ITIMER_REAL, TIME_LIMIT)
        self.old_limit = None
        vm = _vm_bytes()
        if resource is not None and vm is not None:
            soft, hard = resource.getrlimit(resource.RLIMIT_AS)
            want = vm + MEMORY_HEADROOM
            if (hard == resource.RLIM_INFINITY or want < hard) and (
                    soft == resource.RLIM_INFINITY or want < soft):
                resource.setrlimit(resource.RLIMIT_AS, (want, hard))
                self.old_limit = (soft, hard)
        self.warnings = warnings.catch_warnings()
        self.warnings.__enter__()
        warnings.filterwarnings("error", category=RuntimeWarning, module="mechdesign.*")
        return self

    def __exit__(self, *exc):
        if self.alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.old_handler)
        if self.old_limit is not None:
            resource.setrlimit(resource.RLIMIT_AS, self.old_limit)
        self.warnings.__exit__(*exc)
        return False


def _arguments(target: Target, ns: dict) -> dict:
    kwargs = {name: eval(src, ns) for name, src in target.fixed}
    kwargs.update({a.name: eval(a.base, ns) for a in target.args})
    return kwargs


def _repro(target: Target, arg: Arg | None, value, src: str) -> str:
    if target.prop:
        text = target.call
    else:
        parts = [f"{name}={s}" for name, s in target.fixed]
        for a in target.args:
            shown = render(value, src) if arg is not None and a.name == arg.name else a.base
            parts.append(f"{a.name}={shown}")
        text = f"{target.call}({', '.join(parts)})"
    return target.wrap.format(text) if target.wrap else text


def run_case(target: Target, arg: Arg | None = None, label: str = "baseline",
             src: str = "", expect: str = "baseline") -> Record:
    """Call ``target`` with ``arg`` replaced by the value of ``src`` (the baseline when
    ``arg`` is None) under the time and memory guard, and classify what happens."""
    ns = _namespace()
    kwargs = _arguments(target, ns)
    value = None
    if arg is not None:
        try:
            value = eval(src, ns)
        except Exception as exc:
            return Record(target.label, arg.name, label, "harness", "harness_error",
                          f"building the value failed: {type(exc).__name__}: {_short(exc)}",
                          f"{arg.name}={src}", 0.0)
        kwargs[arg.name] = value
    tie = expect == "tie"
    if expect == "tie":
        expect = MUST
    elif expect == AUTO:
        expect = classify(arg, value)
    fn = None if target.prop else eval(target.call, ns)
    start = time.perf_counter()
    outcome, detail = "answered", ""
    try:
        with _Guard():
            result = eval(target.call, ns) if target.prop else fn(**kwargs)
            if target.wrap:
                result = eval(target.wrap.format("r"), {**ns, "r": result})
            nan_at = find_nan(result)
    except _Hang:
        outcome, detail = "hang", f"no answer within {TIME_LIMIT:g} s"
    except InvalidInputError as exc:
        message = str(exc)
        names = [arg.name] if arg is not None else []
        if tie or expect == VALID or (arg is not None and arg.joint):
            names += [a.name for a in target.args] + [name for name, _ in target.fixed]
        named = any(_named(message, n) for n in names)
        outcome = "ok_refused_named" if named else "refused_unnamed"
        detail = f"InvalidInputError: {_short(message)}"
    except MechDesignError as exc:
        outcome, detail = "other_package_error", f"{type(exc).__name__}: {_short(exc)}"
    except Exception as exc:
        outcome, detail = "generic_exception", f"{type(exc).__name__}: {_short(exc)}"
    else:
        if nan_at is not None:
            outcome, detail = "nan", f"NaN at {nan_at}; returned {_short(repr(result), 100)}"
        else:
            outcome = "silently_accepted" if expect == MUST else "answered"
            detail = f"returned {_short(repr(result), 100)}"
    seconds = time.perf_counter() - start
    if seconds > TIME_LIMIT and outcome != "hang":
        outcome, detail = "hang", f"took {seconds:.1f} s (limit {TIME_LIMIT:g} s); {detail}"
    return Record(target.label, arg.name if arg is not None else "", label, expect, outcome,
                  detail, _repro(target, arg, value, src), seconds)


def target_cases(target: Target) -> list[tuple[Arg, str, str, str]]:
    ns = _namespace()
    return [(arg, label, src, expect) for arg in target.args
            for label, src, expect in cases_for(arg, ns)]


def run_target(target: Target) -> list[Record]:
    return [run_case(target, arg, label, src, expect)
            for arg, label, src, expect in target_cases(target)]


# ------------------------------------------------------------------ the targets
def kernel(name="kernel", base="K3", tie="rows", **kw) -> Arg:
    return A(name, "kernel", base, tie=tie, **kw)


def prior(name="prior", base="P3", tie="len", **kw) -> Arg:
    return A(name, "dist", base, tie=tie, **kw)


def eps(name="epsilon", base="1.0", dom=EPS, **kw) -> Arg:
    return A(name, "real", base, dom=dom, **kw)


def real(name, base, dom, **kw) -> Arg:
    return A(name, "real", base, dom=dom, **kw)


def integer(name, base, dom=POS, **kw) -> Arg:
    return A(name, "int", base, dom=dom, **kw)


def shape(name="shape", base="(2, 2)", tie="product", **kw) -> Arg:
    return A(name, "shape", base, tie=tie, **kw)


def ball(name="ball", base="BALL", **kw) -> Arg:
    return A(name, "ball", base, **kw)


def choice(name, base, choices, **kw) -> Arg:
    return A(name, "choice", base, choices=tuple(choices), **kw)


def c01() -> Arg:
    """c = 0.1, whose valid range (0, 1/n] depends on n."""
    return real("c", "0.1", C3, joint=True)


def n3() -> Arg:
    """n = 3 beside c = 0.1: valid for 1 ≤ n ≤ 10."""
    return integer("n", "3", N_C01, joint=True)


def n4() -> Arg:
    """n of a notion on |S|·|U| = 4 inputs: only 4 is valid."""
    return integer("n", "4", D(4, 4), joint=True)


C3 = c_dom(3)        # 0 < c ≤ 1/3
N_C01 = D(1, 10)     # the n with c = 0.1 ≤ 1/n
DELTA_Q = D(0.0, 1.0)  # a quantile's δ: [0, 1]
DELTA_ENV = D(0.0, 1.0)  # the envelope bounds' δ: (0, 1] in the paper; δ = 0 is not ruled out
VERTS3 = "md.LDP(1.0).cone(3).vertices().points"
GRID = "{'epsilon': [0.5, 1.0], 'c': [0.1], 'n': [3]}"
FAMILIES = ("grr", "oue", "subset_selection", "hadamard_response", "pml_extremal")
AUDIT_IN, AUDIT_OUT = "[0, 1] * 20", "[0, 0, 1, 1] * 10"
FO3 = "md.mechanisms.generalized_randomized_response(3, 1.0)"
SAMPLER = "lambda x, size, rng: rng.integers(0, 2, size)"

TARGETS: list[Target] = [
    # ---- leakage
    T("bayes_vulnerability", "md.measures.bayes_vulnerability", kernel(), prior()),
    T("dobrushin_coefficient", "md.dobrushin_coefficient", kernel(tie="")),
    T("event_leakage", "md.measures.event_leakage", kernel(tie="both"), prior(),
      A("event", "vec", "[1.0, 0.0, 0.5]", tie="len", nonneg=True,
        force={"boolean vector": VALID, "1e308 entry": MUST},
        extra=(("all-zero event (P_Y(E) = 0)", "[0.0, 0.0, 0.0]", MUST),
               ("weight 1.5", "[1.5, 0.0, 0.0]", MUST),
               ("booleans", "[True, False, True]", VALID)))),
    T("g_vulnerability", "md.measures.g_vulnerability", kernel(), prior(),
      A("gain", "matrix", "np.eye(3)", tie="cols")),
    T("information_density", "md.measures.information_density", kernel(), prior()),
    T("ldp_level", "md.ldp_level", kernel(tie="")),
    T("maximal_leakage", "md.maximal_leakage", kernel(tie="")),
    T("mutual_information", "md.mutual_information", kernel(), prior(),
      real("base", "2.0", D(0.0, math.inf, True, True), optional=True,
           extra=(("base 1", "1.0", MUST),))),
    T("pml_capacity", "md.pml_capacity", kernel(tie=""), c01()),
    T("pml_level", "md.pml_level", kernel(), prior()),
    T("pointwise_leakage", "md.pointwise_leakage", kernel(), prior()),
    T("renyi_ldp_level", "md.measures.renyi_ldp_level", kernel(tie=""),
      real("alpha", "2.0", ALPHA)),
    # ---- kernel
    T("Mechanism", "md.Mechanism", kernel("matrix", tie=""), real("atol", "1e-9", TOL)),
    T("Mechanism.from_columns", "md.Mechanism.from_columns",
      kernel("q", "K3.T", tie="", transposed=True), real("atol", "1e-9", TOL)),
    T("Mechanism.joint_distribution", "md.Mechanism(K3).joint_distribution", prior()),
    T("Mechanism.output_distribution", "md.Mechanism(K3).output_distribution", prior()),
    T("Mechanism.posterior", "md.Mechanism(K3).posterior", prior()),
    T("Mechanism.reduced", "md.Mechanism(K3).reduced", real("rtol", "1e-9", TOL)),
    T("Mechanism.sample", "md.Mechanism(K3).sample",
      A("x", "index", "[0, 1, 2, 0]", dom=D(0, 3),
        extra=(("scalar index", "1", VALID), ("2-D indices", "[[0, 1], [2, 0]]", VALID),
               ("empty []", "[]", VALID))),
      A("rng", "rng", "0", optional=True)),
    T("Mechanism.then", "md.Mechanism(K3).then", kernel("post", "K32")),
    T("Mechanism.to_columns", "md.Mechanism(K3).to_columns"),
    T("Mechanism.n_inputs", "md.Mechanism(K3).n_inputs", prop=True),
    T("Mechanism.n_outputs", "md.Mechanism(K3).n_outputs", prop=True),
    T("Mechanism.shape", "md.Mechanism(K3).shape", prop=True),
    T("estimate_input_distribution", "md.kernel.estimate_input_distribution", kernel(tie=""),
      A("outputs", "index", "[0, 1, 2, 2, 1, 0, 0]", dom=D(0, 3),
        extra=(("empty []", "[]", MUST),)),
      choice("method", "'auto'", ("auto", "inverse", "em")),
      real("tol", "1e-12", TOL), integer("max_iter", "200000"), variant="outputs"),
    T("estimate_input_distribution", "md.kernel.estimate_input_distribution", kernel(tie="cols"),
      A("counts", "vec", "[3, 2, 2]", tie="len", nonneg=True,
        extra=(("all zero", "[0, 0, 0]", MUST), ("2.5 entry", "[3, 2.5, 2]", VALID))),
      variant="counts"),
    T("output_classes", "md.kernel.output_classes", kernel(tie=""), real("rtol", "1e-9", TOL)),
    T("project_to_simplex", "md.kernel.project_to_simplex", A("v", "vec", "[0.2, 0.5, 0.9]")),
    # ---- divergences
    *[T(name, f"md.measures.{name}", prior("p"), prior("q", "Q3"))
      for name in ("chi_squared_divergence", "kl_divergence", "squared_hellinger",
                   "total_variation")],
    T("f_alpha_divergence", "md.measures.f_alpha_divergence", prior("p"), prior("q", "Q3"),
      real("alpha", "2.0", ALPHA_FIN, force={"+inf": VALID})),
    T("f_alpha_from_renyi", "md.measures.f_alpha_from_renyi",
      real("value", "0.5", D(0.0, math.inf)),
      real("alpha", "2.0", ALPHA_FIN, force={"+inf": VALID})),
    T("f_alpha_generator", "md.measures.f_alpha_generator",
      real("alpha", "2.0", ALPHA_FIN, force={"+inf": VALID})),
    T("f_alpha_tv_lower_boundary", "md.measures.f_alpha_tv_lower_boundary",
      real("t", "0.3", PROB, array_ok=True,
           extra=(("array with nan", "np.array([0.3, math.nan])", MUST),
                  ("array", "np.array([0.0, 0.3, 1.0])", VALID))),
      real("alpha", "2.0", ALPHA_GT1)),
    T("f_divergence", "md.measures.f_divergence", prior("p"), prior("q", "Q3"),
      A("f", "fgen", "md.measures.KL")),
    T("hockey_stick_divergence", "md.measures.hockey_stick_divergence", prior("p"),
      prior("q", "Q3"),
      real("gamma", "2.0", D(0.0, math.inf, lo_open=True))),
    T("hockey_stick_generator", "md.measures.hockey_stick_generator",
      real("gamma", "2.0", D(0.0, math.inf, lo_open=True))),
    T("pinsker_f_alpha", "md.measures.pinsker_f_alpha",
      real("t", "0.3", PROB, array_ok=True,
           extra=(("array with nan", "np.array([0.3, math.nan])", MUST),)),
      real("alpha", "2.0", ALPHA_GT1)),
    T("pinsker_f_alpha_inverse", "md.measures.pinsker_f_alpha_inverse",
      real("s", "0.5", D(0.0, math.inf), array_ok=True,
           extra=(("array with nan", "np.array([0.3, math.nan])", MUST),)),
      real("alpha", "2.0", ALPHA_GT1)),
    T("renyi_divergence", "md.renyi_divergence", prior("p"), prior("q", "Q3"),
      real("alpha", "2.0", ALPHA)),
    T("renyi_from_f_alpha", "md.measures.renyi_from_f_alpha",
      real("value", "0.5", D(0.0, math.inf)),
      real("alpha", "2.0", ALPHA_FIN, force={"+inf": VALID})),
    T("reverse_pinsker", "md.measures.reverse_pinsker",
      real("u", "3.0", D(1.0, math.inf, lo_open=True)),
      real("v", "0.5", D(0.0, 1.0, hi_open=True)), A("f", "fgen", "md.measures.KL")),
    T("reverse_pinsker_f_alpha", "md.measures.reverse_pinsker_f_alpha", real("u", "3.0", D(1.0)),
      real("v", "0.5", PROB), real("alpha", "2.0", ALPHA_GT1)),
    T("FGenerator", "md.measures.FGenerator", A("name", "name", "'kl'"),
      A("f", "callable", "md.measures.KL.f"), real("f_at_zero", "0.0", D()),
      real("slope_at_infinity", "math.inf", D())),
    # ---- contraction
    T("asoodeh_zhang_kl_bound", "md.bounds.asoodeh_zhang_kl_bound", eps(), real("tv", "0.3", TV),
      real("q_min", "0.1", HALF_OPEN01)),
    T("asoodeh_zhang_kl_contraction", "md.bounds.asoodeh_zhang_kl_contraction", eps()),
    T("chi_squared_contraction", "md.measures.chi_squared_contraction", kernel(tie=""),
      integer("n_starts", "4", D(1, 64), strict=False), A("seed", "rng", "0", optional=True)),
    T("cross_channel_gamma", "md.bounds.cross_channel_gamma", kernel(tie=""), c01(),
      variant="c"),
    T("cross_channel_gamma", "md.bounds.cross_channel_gamma", kernel(),
      kernel("priors", "[[0.5, 0.3, 0.2], [0.2, 0.3, 0.5]]", tie="cols"), variant="priors"),
    T("decomposable_threshold", "md.bounds.decomposable_threshold", c01(),
      n3()),
    T("decomposable_witness_kernel", "md.bounds.decomposable_witness_kernel",
      integer("n", "3", D(2, math.inf))),
    T("duchi_kl_bound", "md.bounds.duchi_kl_bound", eps(), real("tv", "0.3", TV)),
    T("gamma_bound", "md.bounds.gamma_bound", eps(), c01(), n3()),
    T("kairouz_dobrushin_bound", "md.bounds.kairouz_dobrushin_bound", eps()),
    T("max_cross_channel_gamma", "md.bounds.max_cross_channel_gamma",
      A("notion", "notion", "md.PML(1.0, c=0.1)"), integer("n", "3", D(2, 10), joint=True),
      kernel("priors", "[[0.5, 0.3, 0.2], [0.2, 0.3, 0.5]]", tie="cols", optional=True)),
    T("max_dobrushin", "md.max_dobrushin", A("notion", "notion", "md.LDP(1.0)"),
      integer("n", "3", D(1, math.inf))),
    T("max_zeros_per_column", "md.bounds.max_zeros_per_column", eps(), c01(),
      n3()),
    T("maximal_correlation", "md.measures.maximal_correlation", kernel(), prior()),
    T("pml_hellinger_sdpi_bound", "md.bounds.pml_hellinger_sdpi_bound", eps(), c01(),
      n3(), real("tv", "0.3", TV)),
    T("pml_kl_sdpi_bound", "md.bounds.pml_kl_sdpi_bound", eps(), c01(),
      n3(), real("tv", "0.3", TV)),
    T("pml_sdpi_bound", "md.bounds.pml_sdpi_bound", eps(), c01(),
      n3(), real("tv", "0.3", TV), A("f", "fgen", "md.measures.KL")),
    T("private_minimax_lower_bound", "md.bounds.private_minimax_lower_bound",
      integer("n_samples", "100"), real("delta", "0.05", D(0.0, 0.15), joint=True), eps(),
      real("c", "0.1", D(0.0, 0.2, lo_open=True), joint=True),
      real("separation", "0.05", D(0.0, math.inf, hi_open=True), optional=True)),
    T("reverse_pinsker_kl", "md.bounds.reverse_pinsker_kl", real("tv", "0.3", TV),
      real("q_min", "0.1", HALF_OPEN01)),
    # ---- amplification
    T("block_uniform_channel", "md.bounds.block_uniform_channel",
      integer("n", "4", D(2, math.inf, test=lambda x: x % 2 == 0), joint=True),
      integer("k", "2", D(1, 2), joint=True)),
    T("circulant_singular_channel", "md.bounds.circulant_singular_channel",
      integer("n", "5", D(2, math.inf)), integer("k", "2", D(1, 5), joint=True)),
    T("confusion_graph", "md.bounds.confusion_graph", kernel(tie="")),
    T("disjoint_support_pair", "md.bounds.disjoint_support_pair", kernel(tie="")),
    T("rldp_amplification_bound", "md.bounds.rldp_amplification_bound", kernel("first", "K23",
                                                                         tie="cols"),
      kernel("second", "K3"), real("alpha", "2.0", ALPHA_GT1),
      A("eta_tv", "real", "'rows'", dom=PROB,
        extra=(("choice 'dobrushin'", "'dobrushin'", VALID), ("unknown 'abc'", "'abc'", MUST),
               ("empty ''", "''", MUST)),
        )),
    T("RenyiAmplification.amplifies", "md.bounds.rldp_amplification_bound(K23, K3, 2.0).amplifies",
      prop=True),
    T("RenyiAmplification.best_bound",
      "md.bounds.rldp_amplification_bound(K23, K3, 2.0).best_bound",
      prop=True),
    # ---- comparison
    T("compare", "md.compare", A("notion", "notion", "md.LDP(1.0)",
                                 force={"LDP(0)": VALID}),
      prior("prior", tie=""),
      A("mechanisms", "notion", "{'rr': md.randomized_response(3, 1.0)}", optional=True,
        skip=("a RenyiBall", "the class LDP (not an instance)", "LDP(0)", "LDP(700)",
              "LDP(800)", "LDP(1e-300)", "PML(1, c=0.1)", "PML(700, c=0.1)"),
        extra=(("mapping to text", "{'a': 'abc'}", MUST),
               ("mapping to a non-stochastic kernel", "{'a': [[0.5, 0.6], [0.5, 0.5]]}", MUST),
               ("list instead of mapping", "[K3]", MUST), ("empty mapping", "{}", VALID),
               ("mapping to a kernel of the wrong size", "{'a': K2}", MUST))),
      A("utilities", "name", "('mutual_information',)",
        extra=(("unknown utility", "('abc',)", MUST), ("None", "None", MUST),
               ("int entry", "(1,)", MUST), ("bare string", "'bayes'", MUST),
               ("empty", "()", VALID), ("bayes", "('bayes',)", VALID),
               ("a float", "1.0", MUST)),
        skip=("empty ''", "unicode", "int 123")),
      integer("n", "100"), heavy=True),
    T("deployed_protocols", "md.comparison.deployed_protocols", integer("k", "3", D(2, math.inf)),
      eps(), wrap="build_all({})"),
    T("zipf_prior", "md.comparison.zipf_prior", integer("k", "5"),
      real("exponent", "1.1", D(0.0, math.inf, lo_open=True))),
    # ---- cones
    T("RatioCone", "md.notions.RatioCone", eps(),
      A("numerators", "matrix", "md.LDP(1.0).cone(3).numerators", tie="both", nonneg=True),
      A("denominators", "matrix", "md.LDP(1.0).cone(3).denominators", tie="both",
        nonneg=True),
      A("name", "name", "'cone'"),
      integer("known_vertex_bound", "None", D(1, math.inf), optional=True),
      A("closed_form", "callable", "None", optional=True)),
    T("RatioCone.contains", "md.LDP(1.0).cone(3).contains",
      A("v", "vec", "[0.2, 0.3, 0.5]", tie="len"), real("atol", "1e-9", TOL)),
    T("RatioCone.h_representation", "md.LDP(1.0).cone(3).h_representation"),
    T("RatioCone.inequalities", "md.LDP(1.0).cone(3).inequalities"),
    T("RatioCone.level", "md.LDP(1.0).cone(3).level", kernel()),
    T("RatioCone.n", "md.LDP(1.0).cone(3).n", prop=True),
    T("RatioCone.vertex_bound", "md.LDP(1.0).cone(3).vertex_bound"),
    T("RatioCone.vertices", "md.LDP(1.0).cone(3).vertices",
      choice("backend", "'auto'", ("auto", "cdd", "exact", "closed_form")),
      integer("max_vertices", "1000", D(0, math.inf)),
      integer("max_active_sets", "1000", D(0, math.inf))),
    # ---- notions
    T("LDP", "md.LDP", eps()),
    T("LDP.cone", "md.LDP(1.0).cone", integer("n", "3")),
    T("LDP.dobrushin_bound", "md.LDP(1.0).dobrushin_bound", integer("n", "3")),
    T("LDP.level", "md.LDP(1.0).level", kernel(tie="")),
    T("LDP.input_size", "md.LDP(1.0).input_size", prop=True),
    T("PML", "md.PML", eps(), real("c", "0.1", D(0.0, 0.5, lo_open=True)), variant="c"),
    T("PML", "md.PML", eps(), prior(tie=""), variant="prior"),
    T("PML", "md.PML", eps(), kernel("priors", "[[0.5, 0.3, 0.2], [0.2, 0.3, 0.5]]", tie=""),
      variant="priors"),
    T("PML.cone", "md.PML(1.0, c=0.1).cone", n3(), variant="c"),
    T("PML.cone", "md.PML(1.0, prior=P3).cone", integer("n", "3", D(3, 3), joint=True),
      variant="prior"),
    T("PML.dobrushin_bound", "md.PML(1.0, c=0.1).dobrushin_bound", n3()),
    T("PML.level", "md.PML(1.0, c=0.1).level", kernel(tie=""), variant="c"),
    T("PML.level", "md.PML(1.0, prior=P3).level", kernel(), variant="prior"),
    T("PML.vertex_priors", "md.PML(1.0, c=0.1).vertex_priors", n3()),
    T("PML.input_size", "md.PML(1.0, prior=P3).input_size", prop=True),
    T("NonRobustLDP", "md.notions.NonRobustLDP", eps(), prior("p_hat", "PHAT"), shape()),
    T("NonRobustLDP.cone", "md.notions.NonRobustLDP(1.0, PHAT, (2, 2)).cone",
      n4()),
    T("NonRobustLDP.dobrushin_bound", "md.notions.NonRobustLDP(1.0, PHAT, (2, 2)).dobrushin_bound",
      integer("n", "4", D(4, 4), strict=False)),
    T("NonRobustLDP.level", "md.notions.NonRobustLDP(1.0, PHAT, (2, 2)).level", kernel(base="K4")),
    T("NonRobustLDP.input_size", "md.notions.NonRobustLDP(1.0, PHAT, (2, 2)).input_size",
      prop=True),
    T("RobustLDP", "md.RobustLDP", eps(), ball(), shape(),
      choice("variant", "'default'", ("default", "paper"))),
    T("RobustLDP.cone", "md.RobustLDP(1.0, BALL, (2, 2)).cone", n4()),
    T("RobustLDP.dobrushin_bound", "md.RobustLDP(1.0, BALL, (2, 2)).dobrushin_bound",
      integer("n", "4", D(4, 4), strict=False)),
    T("RobustLDP.level", "md.RobustLDP(1.0, BALL, (2, 2)).level", kernel(base="K4")),
    T("RobustLDP.lower_bounds", "md.RobustLDP(1.0, BALL, (2, 2)).lower_bounds"),
    T("RobustLDP.input_size", "md.RobustLDP(1.0, BALL, (2, 2)).input_size", prop=True),
    T("SecretLDP", "md.notions.SecretLDP", eps(), shape(tie="")),
    T("SecretLDP.cone", "md.notions.SecretLDP(1.0, (2, 2)).cone", n4()),
    T("SecretLDP.dobrushin_bound", "md.notions.SecretLDP(1.0, (2, 2)).dobrushin_bound",
      integer("n", "4", D(4, 4), strict=False)),
    T("SecretLDP.level", "md.notions.SecretLDP(1.0, (2, 2)).level", kernel(base="K4")),
    T("SecretLDP.input_size", "md.notions.SecretLDP(1.0, (2, 2)).input_size", prop=True),
    T("dobrushin_bound", "md.dobrushin_bound", eps(), c01(),
      n3()),
    # ---- mechanisms
    T("binary_mechanism", "md.mechanisms.binary_mechanism", eps(),
      A("subset", "index", "[0]", dom=D(0, 3),
        extra=(("empty []", "[]", VALID), ("duplicates", "[0, 0]", VALID),
               ("a set", "{0, 2}", VALID))),
      integer("n", "3"), variant="subset"),
    T("binary_mechanism", "md.mechanisms.binary_mechanism", eps(), prior(tie=""), variant="prior"),
    T("design_independent_reporting", "md.mechanisms.design_independent_reporting", eps(), ball(),
      shape(), prior(optional=True, base="PHAT"), heavy=True),
    T("extremal_binary_mechanism", "md.mechanisms.extremal_binary_mechanism",
      eps(dom=D(0.0, math.log(5.0)), joint=True), real("c", "0.1", D(0.0, 0.2, lo_open=True),
                                                        joint=True),
      integer("n", "3", D(2, 3), joint=True), integer("q", "1", D(1, 2), joint=True)),
    T("extremal_binary_valid_q", "md.mechanisms.extremal_binary_valid_q", eps(), c01(),
      n3()),
    T("independent_reporting", "md.mechanisms.independent_reporting", kernel("first", "K2", tie=""),
      kernel("second", "K3", tie="")),
    T("ir_distance_bound", "md.mechanisms.ir_distance_bound", ball(), shape()),
    T("pml_binary_mechanism", "md.mechanisms.pml_binary_mechanism",
      eps(dom=D(0.0, math.log(10.0)), joint=True),
      real("c", "0.1", D(0.0, 0.5, lo_open=True), joint=True)),
    T("pml_extremal_mechanism", "md.mechanisms.pml_extremal_mechanism",
      eps(base="0.1", dom=D(0.0, math.log(1 / 0.8), hi_open=True), joint=True),
      prior(tie="")),
    T("randomized_response", "md.randomized_response", integer("k", "3"), eps()),
    T("secret_randomized_response", "md.mechanisms.secret_randomized_response", shape(tie=""),
      eps()),
    # ---- protocols
    T("FrequencyOracle", "md.mechanisms.FrequencyOracle",
      kernel("matrix", "md.randomized_response(3, 1.0).matrix", tie="both"),
      real("atol", "1e-9", TOL), A("protocol", "name", "'GRR'"), eps(),
      A("estimator", "matrix", "np.linalg.inv(md.randomized_response(3, 1.0).matrix)",
        tie="both", optional=True),
      A("support", "vec", f"{FO3}.support", optional=True, nonneg=True,
        force={"1e308 entry": MUST},
        extra=(("1-tuple", "(0.5,)", MUST), ("p > 1", "(1.5, 0.2)", MUST)),
        skip=("one more entry (length mismatch)",))),
    T("FrequencyOracle.estimate", f"{FO3}.estimate",
      A("reports", "index", "[0, 1, 2, 1]", dom=D(0, 3), extra=(("empty []", "[]", MUST),))),
    T("FrequencyOracle.variance", f"{FO3}.variance", prior(), integer("n", "100")),
    T("FrequencyOracle.posterior", f"{FO3}.posterior", prior()),
    T("estimation_mse", "md.estimation_mse", kernel(), prior(), integer("n", "100"),
      A("estimator", "matrix", "np.linalg.inv(K3)", tie="both", optional=True),
      choice("workload", "None", ("histogram", "prefix", "all-range"), optional=True),
      choice("target", "'histogram'", ("histogram", "distribution"))),
    T("EstimationError", "md.EstimationError",
      choice("workload", "'prefix'", ("histogram", "prefix", "all-range"), optional=True)),
    T("generalized_randomized_response", "md.mechanisms.generalized_randomized_response",
      integer("k", "3", D(2, math.inf), strict=False), eps()),
    T("hadamard_response", "md.hadamard_response", integer("k", "3", D(2, math.inf),
                                                           strict=False), eps(),
      integer("blocks", "None", D(1, 2), optional=True)),
    T("hash_family", "md.mechanisms.hash_family", integer("k", "3", D(2, math.inf), strict=False),
      integer("buckets", "2", D(2, math.inf), strict=False),
      integer("size", "None", POS, optional=True), A("seed", "rng", "0", optional=True)),
    T("local_hashing", "md.local_hashing", integer("k", "3", D(2, math.inf), strict=False),
      eps(), A("hashes", "matrix", "md.mechanisms.hash_family(3, 2)", tie="cols", nonneg=True,
               optional=True, force={"5e-324 entry": MUST, "1e308 entry": MUST},
               extra=(("non-integer entry",
                       "with_entry(md.mechanisms.hash_family(3, 2), (0, 0), 0.5)",
                       MUST),)),
      integer("buckets", "2", D(2, math.inf), optional=True)),
    T("PureOracle.grr", "md.mechanisms.PureOracle.grr",
      integer("k", "3", D(2, math.inf), strict=False),
      eps()),
    T("PureOracle.unary", "md.mechanisms.PureOracle.unary", integer("k", "3", D(2, math.inf),
                                                         strict=False), eps(),
      A("optimized", "bool", "True")),
    T("PureOracle.subset", "md.mechanisms.PureOracle.subset", integer("k", "3", D(2, math.inf),
                                                           strict=False), eps(),
      integer("subset_size", "None", D(1, 2), optional=True)),
    T("PureOracle.hashing", "md.mechanisms.PureOracle.hashing", integer("k", "3", D(2, math.inf),
                                                             strict=False), eps(),
      integer("buckets", "None", D(2, math.inf), optional=True)),
    T("hadamard_blocks", "md.mechanisms.hadamard_blocks", integer("k", "3", D(2, math.inf),
                                                                 strict=False), eps(),
      integer("blocks", "None", D(1, 2), optional=True)),
    T("PureOracle.hadamard", "md.mechanisms.PureOracle.hadamard", integer("k", "3", D(2, math.inf),
                                                               strict=False), eps(),
      integer("blocks", "None", D(1, 2), optional=True)),
    T("PureOracle.mse", "md.mechanisms.PureOracle.unary(3, 1.0).mse", prior(), integer("n", "100"),
      choice("target", "'histogram'", ("histogram", "distribution")),
      choice("workload", "None", ("histogram", "prefix", "all-range"), optional=True)),
    T("PureOracle.blue_mse", "md.mechanisms.PureOracle.unary(3, 1.0).blue_mse", prior(),
      integer("n", "100"), choice("target", "'histogram'", ("histogram", "distribution")),
      choice("workload", "None", ("histogram", "prefix", "all-range"), optional=True)),
    T("implicit_protocols", "md.mechanisms.implicit_protocols", integer("k", "3", D(2, math.inf),
                                                             strict=False), eps()),
    T("subset_selection", "md.subset_selection", integer("k", "3", D(2, math.inf),
                                                         strict=False), eps(),
      integer("subset_size", "None", D(1, 2), optional=True)),
    T("unary_encoding", "md.unary_encoding", integer("k", "3", D(2, math.inf), strict=False),
      eps(), A("optimized", "bool", "True")),
    # ---- reports
    T("robust_ldp_mechanism", "md.mechanisms.robust_ldp_mechanism",
      choice("name", "'PolyOpt'", md.mechanisms.ROBUST_LDP_MECHANISMS, nocase=True,
             force={"upper-case baseline": VALID}),
      eps(), ball(), shape(), heavy=True),
    # ---- robust
    T("linear_extreme", "md.notions.linear_extreme",
      A("c", "vec", "[1.0, 0.0, 2.0, 0.5]", tie="len"),
      prior("center", "PHAT"), real("alpha", "2.0", ALPHA_FIN, force={"+inf": VALID}),
      real("radius", "0.05", D(0.0, math.inf)), A("maximize", "bool", "True")),
    T("projection_level", "md.notions.projection_level", kernel(base="K4"), ball(), shape()),
    T("realised_epsilon", "md.notions.realised_epsilon", kernel(base="K4"),
      prior("distribution", "PHAT"), shape()),
    T("robust_ldp_level", "md.robust_ldp_level", kernel(base="K4"), ball(), shape()),
    T("secret_ldp_level", "md.notions.secret_ldp_level", kernel(base="K4"), shape()),
    # ---- sample audit
    T("audit_pairs", "md.accounting.audit_pairs", A("inputs", "labels", AUDIT_IN,
                                         extra=(("one distinct input", "[0] * 40", MUST),)),
      A("outputs", "labels", AUDIT_OUT), real("confidence", "0.99", OPEN01),
      kernel("claimed", "K2", tie="rows", optional=True)),
    T("audit_samples", "md.audit_samples",
      A("sampler", "callable", "md.Mechanism(K2)", skip=("Mechanism object",),
        extra=(("callable without inputs", SAMPLER, MUST),
               ("a 2-D array (not a Mechanism)", "K2", VALID))),
      integer("n_samples", "200"), real("confidence", "0.99", OPEN01),
      A("rng", "rng", "0", optional=True), kernel("claimed", "K2", tie="rows", optional=True),
      heavy=True),
    T("audit_samples", "md.audit_samples", A("sampler", "callable", SAMPLER, fuzz=False),
      integer("n_samples", "200"),
      A("inputs", "labels", "[0, 1]", skip=("one shorter (length mismatch)",),
        force={"str 'abc'": VALID},
        extra=(("one input", "[0]", MUST),)),
      variant="callable", heavy=True),
    T("SampleAudit.exceeds", f"md.accounting.audit_pairs({AUDIT_IN}, {AUDIT_OUT}).exceeds", eps()),
    # ---- deployment
    T("rational_mechanism", "md.rational_mechanism", kernel("K", "K3", tie=""),
      eps(base="2.0"),
      integer("bits", "32", D(8, 62)), prior(optional=True)),
    T("RationalMechanism.sample", "md.rational_mechanism(K3, 2.0).sample",
      A("inputs", "index", "[0, 1, 2, 0]", dom=D(0, 3),
        extra=(("scalar index", "1", VALID), ("empty []", "[]", VALID))),
      A("rng", "rng", "0", optional=True)),
    T("Aggregator", "md.Aggregator", kernel("K", "K3", tie=""),
      A("estimator", "choice", "'blue'", choices=("blue", "standard", "least_squares",
                                                  "ibu", "mle"))),
    T("Aggregator.add", "md.Aggregator(K3).add",
      A("reports", "index", "[0, 1, 2, 0]", dom=D(0, 3),
        extra=(("empty []", "[]", VALID),))),
    T("Aggregator.confidence_intervals",
      "md.Aggregator(K3).add([0, 1, 2, 1, 0]).confidence_intervals",
      real("level", "0.95", OPEN01)),
    T("check_implementation", "md.deployment.check_implementation", A("sampler", "callable",
                                                           SAMPLER, fuzz=False),
      kernel("K", "K2", tie=""), integer("n_samples", "200", optional=True),
      real("confidence", "0.99", OPEN01), heavy=True),
    T("to_opendp", "md.to_opendp", kernel("K", "K3", tie=""), eps(base="2.0"),
      integer("bits", "32", D(8, 62)), A("rng", "rng", "0", optional=True), heavy=True),
    # ---- uncertainty
    T("RenyiBall", "md.RenyiBall", prior("center", "PHAT", tie=""),
      real("alpha", "2.0", ALPHA_FIN), real("radius", "0.05", D(0.0, math.inf))),
    T("RenyiBall.contains", "BALL.contains", prior("p", "PHAT")),
    T("RenyiBall.divergence", "BALL.divergence", prior("p", "PHAT")),
    T("chi2_radius", "md.chi2_radius", integer("n_samples", "100"),
      integer("n_categories", "4", D(2, math.inf), strict=False),
      real("beta", "0.05", OPEN01)),
    T("conditional_ball", "md.notions.conditional_ball", ball(), shape(),
      integer("s", "0", D(0, 1))),
    T("conditional_lower_bounds", "md.conditional_lower_bounds", ball(), shape()),
    T("conditional_radii", "md.conditional_radii", ball(), shape()),
    T("xi_bounds", "md.notions.xi_bounds", real("rho", "0.3", HALF_OPEN01, strict=True,
                                        force={"0": VALID}),
      real("alpha", "2.0", ALPHA_FIN, force={"+inf": VALID}),
      real("radius", "0.05", D(0.0, math.inf))),
    # ---- envelope
    T("adaptive_composition", "md.bounds.adaptive_composition",
      A("mechanisms", "name", "[K3, K32]", skip=("empty ''", "unicode", "int 123"),
        extra=(("None", "None", MUST), ("empty list", "[]", MUST), ("str 'abc'", "'abc'", MUST),
               ("a single 2-D kernel", "K3", MUST),
               ("a non-stochastic element", "[K3, [[0.5, 0.6], [0.5, 0.5], [0.5, 0.5]]]", MUST),
               ("elements of different N", "[K3, K2]", MUST),
               ("nan element", "[K3, with_entry(K32, (0, 0), math.nan)]", MUST),
               ("complex element", "[K3, K32 + 1j]", MUST),
               ("3-D adaptive element", "[K3, np.full((3, 3, 2), 0.5)]", VALID),
               ("5e-324 element", "[K3, tiny_entry(K32, 5e-324)]", VALID)))),
    T("binary_envelope", "md.binary_envelope", kernel(), prior(),
      real("delta", "0.2", DELTA_ENV)),
    T("closed_failure_probability", "md.bounds.closed_failure_probability", kernel(), prior(),
      eps()),
    T("composition_envelope_bound", "md.bounds.composition_envelope_bound",
      A("mechanisms", "name", "[K3, K32]", skip=("empty ''", "unicode", "int 123"),
        extra=(("None", "None", MUST), ("empty list", "[]", MUST),
               ("elements of different N", "[K3, K2]", "tie"),
               ("nan element", "[K3, with_entry(K32, (0, 0), math.nan)]", MUST))),
      prior(), real("delta", "0.2", DELTA_ENV)),
    T("conditional_maximal_leakage", "md.bounds.conditional_maximal_leakage", kernel("first"),
      kernel("second", "K32",
             extra=(("3-D (N, M1, M2)", "np.full((3, 3, 2), 0.5)", VALID),
                    ("3-D of the wrong M1", "np.full((3, 4, 2), 0.5)", "tie")),
             skip=("3-D",)),
      prior()),
    T("dp_epsilon", "md.measures.dp_epsilon", kernel(tie=""), real("delta", "0.1", PROB)),
    T("dp_failure_probability", "md.measures.dp_failure_probability", kernel(tie=""), eps()),
    T("envelope_lower_bound", "md.bounds.envelope_lower_bound", kernel(), prior(),
      real("delta", "0.2", DELTA_ENV)),
    T("envelope_upper_bound", "md.bounds.envelope_upper_bound", kernel(), prior(),
      real("delta", "0.2", DELTA_ENV)),
    T("four_level_prior", "md.priors.four_level_prior",
      integer("k", "8", D(4, math.inf, test=lambda x: x % 4 == 0)),
      real("rho", "0.1", D(0.0, 1 / 3, True, True))),
    T("leakage_distribution", "md.bounds.leakage_distribution", kernel(), prior()),
    T("LeakageDistribution.cdf", "md.bounds.leakage_distribution(K3, P3).cdf",
      real("t", "0.1", D(-math.inf, math.inf))),
    T("LeakageDistribution.tail", "md.bounds.leakage_distribution(K3, P3).tail",
      real("t", "0.1", D(-math.inf, math.inf))),
    T("pml_envelope", "md.pml_envelope", kernel(), prior(), real("delta", "0.2", OPEN01)),
    T("pml_failure_probability", "md.bounds.pml_failure_probability", kernel(), prior(), eps()),
    T("pml_lower_quantile", "md.bounds.pml_lower_quantile", kernel(), prior(),
      real("delta", "0.2", DELTA_Q)),
    T("pml_upper_quantile", "md.bounds.pml_upper_quantile", kernel(), prior(),
      real("delta", "0.2", DELTA_Q)),
    T("pml_psi1", "md.bounds.pml_psi1", kernel(), prior(), eps()),
    T("pml_psi2", "md.bounds.pml_psi2", kernel(), prior(), eps()),
    T("privacy_profile", "md.privacy_profile", kernel(tie=""), eps()),
    T("randomized_response_envelope", "md.bounds.randomized_response_envelope",
      eps("epsilon_r"), prior(tie=""), real("delta", "0.5", DELTA_ENV)),
    # ---- accounting
    T("composed_delta", "md.composed_delta", kernel("kernels", "K2", tie="",
                                                    extra=(("list of two kernels", "[K2, K3]",
                                                            VALID),
                                                           ("list with a bad kernel",
                                                            "[K2, [[0.5, 0.6], [0.5, 0.5]]]",
                                                            MUST))),
      integer("n", "3"), eps(), real("discretization", "1e-4", POS_TOL),
      A("notion", "notion", "None", optional=True,
        force={"PML(1, c=0.1)": VALID}), heavy=True),
    T("composed_epsilon", "md.composed_epsilon", kernel("kernels", "K2", tie=""),
      integer("n", "3"), real("delta", "0.1", OPEN01),
      real("discretization", "1e-4", POS_TOL), heavy=True),
    T("dominating_pair", "md.dominating_pair", kernel(tie="")),
    T("DominatingPair.hockey_stick", "md.dominating_pair(K3).hockey_stick", eps()),
    T("pml_composition_bound", "md.accounting.pml_composition_bound", kernel("kernels", "K3",
                                                                  extra=(("list", "[K3, K32]",
                                                                          VALID),)),
      integer("n", "2", D(1, math.inf)), prior(), real("delta", "0.2", DELTA_ENV)),
    T("privacy_loss_distribution", "md.privacy_loss_distribution", kernel(tie=""),
      real("discretization", "1e-4", POS_TOL)),
    T("tradeoff_curve", "md.accounting.tradeoff_curve", kernel(tie="")),
    T("attack_risk", "md.accounting.attack_risk", kernel("kernels", "K2", tie=""),
      integer("uses", "3"),
      real("discretization", "1e-4", POS_TOL), heavy=True),
    T("AttackRisk.true_positive_rate", "md.accounting.attack_risk(K3, 2).true_positive_rate",
      real("false_positive_rate", "0.1", PROB)),
    T("AttackRisk.bayes_risk", "md.accounting.attack_risk(K3).bayes_risk",
      real("prior", "0.3", PROB)),
    # ---- channels
    T("channel_capacity", "md.channel_capacity", kernel("K", "K3", tie=""),
      real("tol", "1e-9", POS_TOL), heavy=True),
    T("sibson_mutual_information", "md.sibson_mutual_information", kernel("K", "K3"), prior(),
      real("alpha", "2.0", ALPHA)),
    T("maximal_alpha_leakage", "md.maximal_alpha_leakage", kernel("K", "K3", tie=""),
      real("alpha", "2.0", D(1.0, math.inf)), heavy=True),
    T("is_degraded", "md.is_degraded", kernel("K1", "K3"), kernel("K2", "K3"), heavy=True),
    T("is_less_noisy", "md.measures.is_less_noisy", kernel("K1", "K2"), kernel("K2", "K2"),
      heavy=True),
    # ---- shuffle
    *[T(name, f"md.{name}", kernel("K", "K3", tie="", force={"scalar 0.5": VALID,
                                                            "+inf": VALID}),
        integer("n", "50"), real(second, base, dom), integer("rounds", "1"), heavy=True)
      for name, second, base, dom in (("shuffle_epsilon", "delta", "1e-6", OPEN01),
                                      ("shuffle_delta", "epsilon", "0.5", EPS))],
    T("Shuffled", "md.Shuffled", real("epsilon", "1.0", D(0.0, math.inf, True, True)),
      real("delta", "1e-6", OPEN01), integer("n", "1000"),
      integer("max_designs", "6", D(2, math.inf)),
      A("bound", "bool", "True")),
    T("Shuffled.clone_delta", "md.Shuffled(1.0, 1e-6, 1000).clone_delta",
      real("epsilon0", "3.0", EPS), real("r", "0.01", D(0.0, 0.5))),
    T("Shuffled.required_r", "md.Shuffled(1.0, 1e-6, 1000).required_r",
      real("epsilon0", "3.0", EPS)),
    T("Shuffled.notion_at", "md.Shuffled(1.0, 1e-6, 1000).notion_at",
      real("t", "0.5", PROB)),
    T("Shuffled.split", "md.Shuffled(1.0, 1e-6, 1000).split",
      real("epsilon0", "3.2", EPS_FIN)),
    T("shuffle_parameters", "md.accounting.shuffle_parameters",
      kernel("K", "K3", tie="", force={"scalar 0.5": VALID, "+inf": VALID})),
    T("local_epsilon_for", "md.accounting.local_epsilon_for", real("central_epsilon", "1.0",
                                                        D(0.0, math.inf, lo_open=True)),
      real("delta", "1e-6", OPEN01), integer("n", "1000"),
      A("family", "choice", "'any'", choices=("any",),
        extra=(("a callable", "lambda e: md.randomized_response(3, e)", VALID),
               ("a number", "1.5", MUST))),
      real("ceiling", "20.0", D(0.0, math.inf, True, True)), real("rtol", "1e-6", OPEN01),
      heavy=True),
    # ---- datasets
    T("categorical_pair", "md.notions.categorical_pair",
      A("path", "name", "pair_csv()", skip=("unicode", "empty ''", "int 123", "None"),
        extra=(("None", "None", MUST), ("float 1.5", "1.5", MUST), ("bool True", "True", MUST),
               ("empty ''", "''", MUST), ("missing file", "'/nonexistent/pair.csv'", MUST),
               ("a directory", "tempfile.gettempdir()", MUST))),
      A("sensitive", "name", "'s'", skip=("unicode", "empty ''", "int 123", "None"),
        extra=(("missing column", "'nope'", MUST), ("None", "None", MUST))),
      A("other", "name", "'u'", skip=("unicode", "empty ''", "int 123", "None"),
        extra=(("missing column", "'nope'", MUST), ("None", "None", MUST)))),
    T("empirical_pair", "md.notions.empirical_pair",
      A("s_values", "labels", "['a', 'b', 'a', 'b', 'a']",
        extra=(("a list label", "['a', ['b'], 'a', 'b', 'a']", MUST),
               ("a tuple label", "['a', ('b', 'c'), 'a', 'b', 'a']", MUST))),
      A("u_values", "labels", "['x', 'x', 'y', 'y', 'x']",
        extra=(("an array label", "['x', np.array([1, 2]), 'y', 'y', 'x']", MUST),)),
      A("sensitive", "name", "'S'"), A("other", "name", "'U'")),
    T("CategoricalPair", "md.notions.CategoricalPair",
      A("counts", "matrix", "[[2, 1], [1, 2]]", nonneg=True,
        extra=(("fractional entry 2.5", "[[2.5, 1], [1, 2]]", MUST),
               ("1-D counts", "[2, 1]", MUST), ("all zero", "[[0, 0], [0, 0]]", MUST),
               ("integral floats", "[[2.0, 1.0], [1.0, 2.0]]", VALID))),
      fixed=(("s_labels", "('a', 'b')"), ("u_labels", "('x', 'y')"), ("sensitive", "'S'"),
             ("other", "'U'"))),
    T("CategoricalPair.ball", "md.notions.empirical_pair('abab', 'xxyy').ball",
      real("beta", "0.05", OPEN01), real("alpha", "2.0", ALPHA_FIN, strict=False,
                                        force={"0": MUST, "-1": MUST, "-inf": MUST,
                                               "-1e-300": MUST})),
    T("CategoricalPair.n_samples", "md.notions.empirical_pair('abab', 'xxyy').n_samples",
      prop=True),
    T("CategoricalPair.p_hat", "md.notions.empirical_pair('abab', 'xxyy').p_hat", prop=True),
    T("CategoricalPair.shape", "md.notions.empirical_pair('abab', 'xxyy').shape", prop=True),
    # ---- design
    T("design", "md.design", A("notion", "notion", "md.LDP(1.0)",
                               extra=(("notion on 4 inputs", "md.PML(1.0, prior=PHAT)",
                                       "tie"),)),
      prior(tie=""),
      choice("utility", "'mutual_information'", ("mutual_information", "mi", "bayes"),
             extra=(("GainUtility", "md.GainUtility(np.eye(3), P3)", VALID),
                    ("GainUtility on 2 inputs", "md.GainUtility(np.eye(2), [0.5, 0.5])",
                     "tie"))),
      choice("backend", "'auto'", ("auto", "cdd", "exact", "closed_form")),
      choice("method", "'auto'", ("auto", "enumeration", "column_generation")),
      integer("max_vertices", "1000", D(0, math.inf)),
      real("time_limit", "None", D(0.0, math.inf), optional=True, strict=True),
      real("gap", "1e-8", TOL), A("progress", "bool", "False"), heavy=True),
    T("Design.audit_passed", "md.design(md.LDP(1.0), P3).audit_passed", prop=True),
    T("Design.epsilon", "md.design(md.LDP(1.0), P3).epsilon", prop=True),
    T("Design.summary", "md.design(md.LDP(1.0), P3).summary"),
    T("Certificate.gap", "md.design(md.LDP(1.0), P3).certificate.gap", prop=True),
    T("ColumnGenerationReport.gap",
      "md.design(md.LDP(1.0), P3, method='column_generation').column_generation.gap",
      prop=True),
    T("FDivergenceUtility", "md.optimal.FDivergenceUtility", prior("p0"), prior("p1", "Q3"),
      A("f", "fgen", "md.measures.KL")),
    T("FDivergenceUtility.column_values", "md.optimal.FDivergenceUtility(P3, Q3).column_values",
      A("columns", "matrix", VERTS3, tie="cols", nonneg=True)),
    T("FDivergenceUtility.of", "md.optimal.FDivergenceUtility(P3, Q3).of",
      kernel(base="md.Mechanism(K3)")),
    T("FDivergenceUtility.n", "md.optimal.FDivergenceUtility(P3, Q3).n", prop=True),
    T("GainUtility", "md.GainUtility", A("gain", "matrix", "np.eye(3)", tie="cols"), prior(),
      A("name", "name", "'g'")),
    T("GainUtility.bayes", "md.GainUtility.bayes", prior(tie="")),
    T("GainUtility.from_loss", "md.GainUtility.from_loss",
      A("loss", "matrix", "1 - np.eye(3)", tie="cols"), prior()),
    T("GainUtility.column_values", "md.GainUtility(np.eye(3), P3).column_values",
      A("columns", "matrix", VERTS3, tie="cols")),
    T("GainUtility.of", "md.GainUtility(np.eye(3), P3).of", kernel(base="md.Mechanism(K3)")),
    T("GainUtility.is_bayes", "md.GainUtility(np.eye(3), P3).is_bayes", prop=True),
    T("GainUtility.n", "md.GainUtility(np.eye(3), P3).n", prop=True),
    T("GainUtility.weights", "md.GainUtility(np.eye(3), P3).weights", prop=True),
    T("MutualInformationUtility", "md.optimal.MutualInformationUtility", prior(tie="")),
    T("MutualInformationUtility.column_values",
      "md.optimal.MutualInformationUtility(P3).column_values",
      A("columns", "matrix", VERTS3, tie="cols", nonneg=True)),
    T("MutualInformationUtility.of", "md.optimal.MutualInformationUtility(P3).of",
      kernel(base="md.Mechanism(K3)")),
    T("MutualInformationUtility.n", "md.optimal.MutualInformationUtility(P3).n", prop=True),
    # ---- sweeps
    T("design_task", "md.sweeps.design_task",
      choice("notion", "'ldp'", ("ldp", "pml", "pml-prior")),
      eps(), integer("n", "3", D(2, math.inf), strict=False, joint=True),
      choice("prior", "'uniform'", ("uniform", "zipf", "dirichlet")),
      integer("rep", "0", D(0, math.inf)),
      real("c", "None", c_dom(3), optional=True, joint=True, strict=False),
      choice("objective", "'mutual_information'", ("mutual_information", "bayes")),
      choice("method", "'auto'", ("auto", "enumeration", "column_generation")),
      real("gap", "1e-8", TOL), real("time_limit", "None", D(0.0, math.inf), optional=True),
      heavy=True),
    T("envelope_task", "md.sweeps.envelope_task", choice("mechanism", "'grr'", FAMILIES),
      eps(), integer("n", "3", D(2, math.inf), strict=False), real("delta", "0.2", OPEN01),
      choice("prior", "'uniform'", ("uniform", "zipf", "dirichlet")),
      integer("rep", "0", D(0, math.inf))),
    T("measure_task", "md.sweeps.measure_task", choice("mechanism", "'grr'", FAMILIES),
      eps(), integer("n", "3", D(2, math.inf), strict=False),
      choice("prior", "'uniform'", ("uniform", "zipf", "dirichlet")),
      integer("rep", "0", D(0, math.inf)), integer("samples", "100")),
    T("sweep", "md.sweep", A("task", "callable", "md.dobrushin_bound"),
      A("grid", "name", GRID, skip=("empty ''", "unicode", "int 123", "None"),
        extra=(("None", "None", MUST), ("str 'abc'", "'abc'", MUST), ("float 1.0", "1.0", MUST),
               ("empty axis", "{'epsilon': [], 'c': [0.1], 'n': [3]}", MUST),
               ("axis not a list", "{'epsilon': 0.5, 'c': [0.1], 'n': [3]}", MUST),
               ("value of an unsupported type",
                "{'epsilon': [md.Mechanism(K2)], 'c': [0.1], 'n': [3]}", MUST),
               ("list of points", "[{'epsilon': 0.5, 'c': 0.1, 'n': 3}]", VALID),
               ("a point the task refuses", "{'epsilon': [-1.0], 'c': [0.1], 'n': [3]}",
                VALID),
               ("nan grid value", "{'epsilon': [math.nan], 'c': [0.1], 'n': [3]}", VALID),
               ("empty dict", "{}", VALID), ("empty list", "[]", VALID))),
      # executor also takes None, a worker count and any Executor: the listed cases are
      # its contract, and the drawn-scalar test (which knows string choices) skips it.
      choice("executor", "'serial'", ("serial",), skip=("upper-case baseline", "None"),
             extra=(("int 0", "0", MUST), ("int -1", "-1", MUST), ("float 2.5", "2.5", MUST)),
             force={"int 1": VALID}, optional=True),
      A("progress", "bool", "False"), A("retry_failed", "bool", "False"),
      fixed=(("store", "None"),)),
    T("plot_sweep", "md.sweeps.plot_sweep",
      A("table", "name", f"md.sweep(md.dobrushin_bound, {GRID}, executor='serial', "
                         "progress=False)", skip=("empty ''", "unicode", "int 123", "None"),
        extra=(("None", "None", MUST), ("str 'abc'", "'abc'", MUST), ("float 1.0", "1.0", MUST),
               ("a dict", "{'epsilon': [0.5, 1.0], 'value': [0.3, 0.6]}", MUST),
               ("a 2-D array", "np.eye(2)", MUST))),
      A("x", "name", "'epsilon'", skip=("empty ''", "unicode", "int 123", "None"),
        extra=(("missing column", "'nope'", MUST), ("None", "None", MUST), ("int 1", "1", MUST))),
      A("y", "name", "'value'", skip=("empty ''", "unicode", "int 123", "None"),
        extra=(("missing column", "'nope'", MUST), ("None", "None", MUST), ("int 1", "1", MUST),
               ("a text column", "'error'", MUST))),
      A("over", "name", "'rep'", skip=("empty ''", "unicode", "int 123", "None"),
        extra=(("int 1", "1", MUST), ("None", "None", VALID))),
      A("ax", "name", "None", skip=("empty ''", "unicode", "int 123", "None"),
        extra=(("str 'abc'", "'abc'", MUST), ("float 1.0", "1.0", MUST))),
      wrap="closed({})", heavy=True),
]



#: Public names of ``mechdesign.__all__`` this battery does not call, and why.
NOT_COVERED = {
    "CHI_SQUARED": "an FGenerator constant (used as the f argument of the f-divergence targets)",
    "KL": "an FGenerator constant (the baseline f of the f-divergence targets)",
    "SQUARED_HELLINGER": "an FGenerator constant (used as an f value)",
    "TOTAL_VARIATION": "an FGenerator constant (used as an f value)",
    "PAPER_EXAMPLES": "a dict of PaperExample records, not a callable",
    "ROBUST_LDP_MECHANISMS": "a tuple of names (the choices of robust_ldp_mechanism)",
    "__version__": "a string",
    "ExecutorError": "an exception class",
    "NotIdentifiableWarning": "a warning class",
    "SerialFallbackWarning": "a warning class",
    "InfeasibleError": "an exception class",
    "InvalidInputError": "an exception class",
    "MechDesignError": "an exception class",
    "SolverError": "an exception class",
    "Status": "an enumeration of outcomes (the values of Design.status and SolverError.status)",
    "TooLargeError": "an exception class",
    "UnsupportedError": "an exception class",
    "Certificate": "a result record (no validation by design); its gap property is covered",
    "ChiSquaredContraction": "a result record returned by chi_squared_contraction",
    "ColumnGenerationReport": "a result record; its gap property is covered",
    "AttackRisk": "a result record returned by attack_risk",
    "ComposedDelta": "a result record returned by composed_delta",
    "ComposedEpsilon": "a result record returned by composed_epsilon",
    "Design": "a result record returned by design; audit_passed, epsilon, summary covered",
    "DobrushinMaximum": "a result float returned by max_dobrushin",
    "DominatingPair": "a result record; its hockey_stick method is covered",
    "IndependentReporting": "a result record returned by design_independent_reporting",
    "LeakageDistribution": "a result record; its cdf and tail methods are covered",
    "PMLEnvelope": "a result float returned by pml_envelope",
    "PaperExample": "a record of PAPER_EXAMPLES",
    "RandomizedResponseEnvelope": "a result record returned by randomized_response_envelope",
    "RenyiAmplification": "a result record; amplifies and best_bound are covered",
    "RobustLevel": "a result float returned by robust_ldp_level",
    "SampleAudit": "a result record; its exceeds method is covered",
    "RationalMechanism": "a result record returned by rational_mechanism; sample is covered",
    "ImplementationCheck": "a result record returned by check_implementation",
    "ShuffleDelta": "a result record returned by shuffle_delta",
    "ShuffleEpsilon": "a result record returned by shuffle_epsilon",
    "ShuffleParameters": "a result record returned by shuffle_parameters",
    "VertexSet": "a result record returned by RatioCone.vertices",
    "Capacity": "a result record returned by channel_capacity",
    "CategoricalPair": "a result record of categorical_pair/empirical_pair; ball, n_samples, "
                       "p_hat, shape covered",
}


def all_cases(targets: list[Target] | None = None) -> list[tuple[Target, Arg, str, str, str]]:
    return [(t, arg, label, src, expect) for t in (targets or TARGETS)
            for arg, label, src, expect in target_cases(t)]


def run_battery(targets: list[Target] | None = None, *, baselines: bool = True,
                progress: bool = False) -> list[Record]:
    """Run every case (and, with ``baselines``, every baseline call first); one record each."""
    records: list[Record] = []
    for t in targets or TARGETS:
        if baselines:
            records.append(run_case(t))
        for arg, label, src, expect in target_cases(t):
            records.append(run_case(t, arg, label, src, expect))
        if progress:
            print(f"  {t.label}: done", flush=True)
    return records


def format_summary(records: list[Record], seconds: float | None = None, *,
                   verbose: bool = False) -> str:
    """The counts per outcome, the refusal rate and the breaches: grouped by callable,
    argument and cause (one repro each, the other values listed), or one line per case
    with ``verbose``."""
    base = [r for r in records if r.expectation == "baseline"]
    harness = [r for r in records if r.expectation == "harness"]
    cases = [r for r in records if r.expectation not in ("baseline", "harness")]
    must = [r for r in cases if r.expectation == MUST]
    lines = []
    covered = sorted({r.callable.split("[")[0] for r in records})
    lines.append(f"cases: {len(cases)} ({len(must)} must_refuse, "
                 f"{len(cases) - len(must)} valid_extreme) over {len(covered)} public "
                 f"callables ({len(base)} baseline calls)"
                 + (f"; {seconds:.1f} s" if seconds is not None else ""))
    bad_base = [r for r in base if r.outcome != "answered"]
    if bad_base:
        lines.append("BASELINES THAT FAILED (the battery is wrong here, not the library?):")
        lines += [f"  {r.repro}  -> {r.outcome}: {r.detail}" for r in bad_base]
    if harness:
        lines.append("VALUES THAT COULD NOT BE BUILT (battery to update):")
        lines += [f"  {r.callable}: {r.repro} -> {r.detail}" for r in harness]
    header = f"{'outcome':<22}{'must_refuse':>12}{'valid_extreme':>15}{'total':>8}"
    lines += ["", header, "-" * len(header)]
    for outcome in OUTCOMES:
        m = sum(r.outcome == outcome for r in must)
        v = sum(r.outcome == outcome for r in cases if r.expectation == VALID)
        lines.append(f"{outcome:<22}{m:>12}{v:>15}{m + v:>8}")
    named = sum(r.outcome == "ok_refused_named" for r in must)
    rate = named / len(must) if must else math.nan
    lines.append("")
    lines.append(f"refusal rate (ok_refused_named / must_refuse): {named}/{len(must)} = "
                 f"{rate:.1%}")
    breaches = [r for r in cases if r.breach]
    lines.append(f"breaches: {len(breaches)}")
    kinds = Counter(_breach_kind(r) for r in breaches)
    for kind, count in kinds.most_common():
        lines.append(f"  {kind}: {count}")
    for kind, _ in kinds.most_common():
        lines.append("")
        lines.append(f"== {kind} ==")
        of_kind = [r for r in breaches if _breach_kind(r) == kind]
        if verbose:
            lines += [f"{r.repro}  -> {r.detail}   [{r.expectation}: {r.argument} = {r.label}]"
                      for r in of_kind]
            continue
        groups: dict[tuple, list[Record]] = {}
        for r in of_kind:
            groups.setdefault((r.callable, r.argument, _cause(r)), []).append(r)
        for (name, argument, _), group in groups.items():
            first = group[0]
            lines.append(f"{first.repro}  -> {first.detail}")
            if len(group) > 1:
                lines.append(f"    same for {name}({argument}=...) with: "
                             + ", ".join(r.label for r in group[1:]))
    lines.append("")
    lines.append("fixtures (from tests.test_fuzz import *): " + "; ".join(
        f"{k} = {v}" for k, v in LEGEND.items()))
    return "\n".join(lines)


def _cause(r: Record) -> str:
    """The cause a breach is grouped by: the name a refusal uses instead of the argument's,
    the generic exception's type, or what came back."""
    kind, _, message = r.detail.partition(": ")
    if r.outcome == "refused_unnamed":
        return "names " + (message.split() or ["?"])[0]
    if r.outcome in ("generic_exception", "other_package_error"):
        return kind
    return r.outcome


def _breach_kind(r: Record) -> str:
    if r.outcome == "other_package_error":
        return "other_package_error on malformed input"
    return r.outcome


def summary(targets: list[Target] | None = None, *, verbose: bool = False) -> list[Record]:
    """Run the battery and print the summary table and every breach; returns the records."""
    start = time.perf_counter()
    records = run_battery(targets)
    print(format_summary(records, time.perf_counter() - start, verbose=verbose))
    return records


# ------------------------------------------------------------------ pytest
def _ids(t: Target) -> str:
    return t.label


@pytest.mark.parametrize("target", TARGETS, ids=_ids)
def test_baseline_is_answered_quickly_without_nan(target):
    record = run_case(target)
    # "answered" excludes "hang" (the watchdog); how fast is the benchmarks' business.
    assert record.outcome == "answered", f"{record.repro} -> {record.outcome}: {record.detail}"


@pytest.mark.slow
@pytest.mark.parametrize("target", [t for t in TARGETS if t.args], ids=_ids)
def test_bad_input_contract(target):
    """Every bad value is refused by name; every extreme valid value is answered without
    NaN (or refused by a package error); nothing raises a generic exception or hangs."""
    records = run_target(target)
    breaches = [r for r in records if r.breach or r.outcome == "harness_error"]
    assert not breaches, f"{len(breaches)} breaches of the input contract:\n" + "\n".join(
        f"  {r.repro}  -> {r.outcome}: {r.detail}" for r in breaches)


def test_every_public_name_is_covered_or_excused():
    covered = {t.name.split(".")[0] for t in TARGETS}
    missing = [n for n in md.__all__ if n not in covered and n not in NOT_COVERED]
    assert not missing, f"public names with no fuzz target: {missing}"


#: Arguments whose contract is not a string choice the drawn test can classify
#: (sweep's executor also takes a worker count and any Executor).
_NOT_DRAWN = {"sweep(executor=)"}

_SCALAR_ARGS = {f"{t.label}({a.name}=)": (t, a) for t in TARGETS if not t.heavy
                for a in t.args if a.fuzz and a.kind in ("real", "int", "choice")
                and f"{t.label}({a.name}=)" not in _NOT_DRAWN}


def _values_for(arg: Arg):
    text = st.text(max_size=8)
    junk = st.none() | st.booleans() | st.complex_numbers(allow_nan=True, allow_infinity=True)
    if arg.kind == "choice":
        return st.sampled_from([c for c in arg.choices if isinstance(c, str)]) | text | junk
    if arg.kind == "int":
        return st.integers(-5, 40) | st.floats(-5, 40) | text | junk
    return (st.floats(allow_nan=True, allow_infinity=True) | st.integers(-10, 10**6)
            | st.fractions() | text | junk)


def _expectation(arg: Arg, value) -> str:
    if arg.kind == "choice":
        if isinstance(value, str):
            ok = value in arg.choices or (arg.nocase and value.lower() in
                                          [str(c).lower() for c in arg.choices])
            return VALID if ok else MUST
        return VALID if value is None and arg.optional else MUST
    if isinstance(value, str | complex):
        return MUST
    # A drawn ±inf counts as the battery's "+inf"/"-inf" case, whose expectation an
    # argument may force (xi_bounds' alpha = inf is the limit α → ∞, answered).
    if isinstance(value, float) and math.isinf(value):
        forced = arg.force.get("+inf" if value > 0 else "-inf")
        if forced is not None:
            return forced
    return classify(arg, value)


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_drawn_scalar_values_meet_the_contract(data):
    """Hypothesis draws a (callable, scalar argument) pair and a value of any type: floats
    (NaN and ±inf included), integers, fractions, text, complex numbers, booleans, None."""
    target, arg = _SCALAR_ARGS[data.draw(st.sampled_from(sorted(_SCALAR_ARGS)),
                                         label="callable(argument=)")]
    value = data.draw(_values_for(arg), label="value")
    expect = _expectation(arg, value)
    record = _run_value(target, arg, value, expect)
    assert not record.breach, f"{record.repro}  -> {record.outcome}: {record.detail}"


def _run_value(target: Target, arg: Arg, value, expect: str) -> Record:
    """``run_case`` for a drawn value (not a source string)."""
    key = f"drawn_value_{id(value)}"
    globals()[key] = value
    try:
        record = run_case(target, arg, f"drawn {value!r}"[:60], key, expect)
    finally:
        globals().pop(key, None)
    record.repro = record.repro.replace(key, render(value, repr(value)))
    return record


if __name__ == "__main__":
    import sys

    summary(verbose="--verbose" in sys.argv)
