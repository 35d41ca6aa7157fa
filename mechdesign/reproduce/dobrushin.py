"""The Dobrushin paper's Theorem 1, examples and Fig. 1, reproduced with mechdesign.

Grosse, Saeidian, Oechtering, Skoglund, *Dobrushin Coefficients of Private Mechanisms
Beyond Local Differential Privacy* [1]_ (its html version numbers the displayed
equations, cited here as "html (n)").

Items of ``mechdesign reproduce --paper dobrushin``:

``Theorem 1 (Ξ curve)``
    The maximal Dobrushin coefficient ``Ξ(ε, c) = min{(e^ε − 1)/(e^ε(1 − Nc) + 1), 1}``
    against ε for several c (N = 10), with the linear program :func:`mechdesign.max_dobrushin`
    (Lemma 3: binary outputs suffice) at a grid of ε, the LDP value ``tanh(ε/2)`` of
    Kairouz et al. (eq. 4) and the thresholds ``ε = log(2/(Nc))`` of Theorem 2. Not a
    figure of the paper, but its main theorem. Writes ``theorem1_xi.png`` and
    ``theorem1_xi.csv``.
``Examples``
    The printed numbers and claims of Definition 2, Example 1, Example 2, Remarks 1–2,
    Proposition 2 and Example 3, as checks; no files. Known errata: Remark 2's range of q
    (docs/theorems.md), the html copy's ``1/15`` in K1, and Example 3's
    ``TV(P_θ0‖P_θ1) = δ`` (it is 2δ) and its prefactor ½.
``Fig. 1``
    (a) Corollary 1 for K1 (N = 10, c = 0.05) with the LDP bounds of Asoodeh et al. and
    Duchi et al.; (b) Corollary 2 for K2 (N = 5, c = 0.1); both against the true
    divergences of random input pairs in ``Q_X(c)``. The paper's fourth curve in (a),
    Zamanlooy and Asoodeh's bound ([9, Thm 5] there), is **not drawn**: its formula is in
    neither of our papers and mechdesign does not implement it. Writes
    ``fig1_corollaries.png`` and ``fig1_corollaries.csv``.

Rows of a kernel are inputs, logarithms are natural, ``H² = Σ(√p − √q)²`` (the paper's
convention, ``f(t) = (1 − √t)²``).

References
----------
.. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Dobrushin Coefficients of
   Private Mechanisms Beyond Local Differential Privacy", 2026, arXiv:2601.09498.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import numpy as np

import mechdesign as md
from mechdesign.reproduce._core import (
    Check,
    Item,
    ItemResult,
    Settings,
    check_claim,
    check_printed,
)
from mechdesign.reproduce._plot import pyplot, save, write_csv

__all__ = [
    "ITEMS",
    "example1_kernel",
    "example3_pair",
    "fig1_checks",
    "last_crossing",
    "remark2_column",
    "run_examples",
    "run_fig1",
    "run_theorem1",
    "sample_pairs",
    "xi_printed",
]

PAPER = "dobrushin"

#: Relative tolerance for identities that hold exactly in real arithmetic (closed form
#: against a linear program, a level against the ε it was built for).
EXACT = 1e-9
#: Absolute slack of an inequality "bound ≥ value" evaluated in floating point.
SLACK = 1e-12

# Example 2: K1 is (log 10/3, 0.05)-PML on N = 10 inputs, K2 (log 10/3, 0.1)-PML on N = 5.
EPS_PML = math.log(10 / 3)
EPS_LDP_K1 = math.log(15)
C_K1, C_K2 = 0.05, 0.1


# -- the paper's formulas, transcribed -----------------------------------------------------


def xi_printed(epsilon: float, c: float, n: int) -> float:
    """Ξ(ε, c) as Theorem 1 prints it (html 6): ``min{(e^ε − 1)/(e^ε(1 − Nc) + 1), 1}``.

    A transcription of the printed formula, kept apart from
    :func:`mechdesign.dobrushin_bound` so that the checks compare the library with the
    paper's text rather than with itself.
    """
    e = math.exp(epsilon)
    return min((e - 1) / (e * (1 - n * c) + 1), 1.0)


def example1_kernel(epsilon: float, c: float) -> np.ndarray:
    """The binary mechanism of Example 1 (html 35), as printed.

    ``K = [[e^ε(1 − c), 1 − e^ε c], [1 − e^ε c, e^ε(1 − c)]] / (e^ε(1 − 2c) + 1)``.

    Returns
    -------
    ndarray, shape=(2, 2)
        Rows are the two inputs.
    """
    e = math.exp(epsilon)
    return np.array([[e * (1 - c), 1 - e * c], [1 - e * c, e * (1 - c)]]) / (e * (1 - 2 * c) + 1)


def remark2_column(epsilon: float, c: float, n: int, q: int) -> np.ndarray:
    """The first column ``p = (M × q, m × (N − q))`` of Remark 2's kernel ``[p, 1 − p]``.

    ``m = (1 − e^ε c q)/(1 + e^ε(1 − Nc))`` and ``M = e^ε(1 − cq)/(1 + e^ε(1 − Nc))``, as
    printed, for any q and without checking ``0 ≤ m ≤ M ≤ 1`` (which fails for some of
    the printed range ``q ∈ {1, …,
                             N − 1}``; see :func:`mechdesign.mechanisms.extremal_binary_valid_q`).

    Returns
    -------
    ndarray, shape=(n,)
    """
    e = math.exp(epsilon)
    denominator = 1 + e * (1 - n * c)
    m = (1 - e * c * q) / denominator
    big_m = e * (1 - c * q) / denominator
    return np.array([big_m] * q + [m] * (n - q))


def example3_pair(delta: float) -> tuple[np.ndarray, np.ndarray]:
    """``P_θ0 = (1/4 − δ, 1/4 + δ, 1/4, 1/4)`` and ``P_θ1 = (1/4 + δ, 1/4 − δ, 1/4, 1/4)``
    of Example 3."""
    p0 = np.array([0.25 - delta, 0.25 + delta, 0.25, 0.25])
    p1 = np.array([0.25 + delta, 0.25 - delta, 0.25, 0.25])
    return p0, p1


def sample_pairs(
    n: int, c: float, size: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """``size`` random pairs ``(P, Q)`` in ``Q_X(c) = {P : min_x P(x) ≥ c}`` (Fig. 1).

    Each distribution is ``c + (1 − Nc)·Dirichlet(β)`` with β drawn from
    {0.05, 0.2, 1, 5, 50}; Q is moved a uniform fraction of the way from P towards an
    independent draw, so that ``TV(P‖Q)`` fills ``[0, 1 − Nc]``.

    Returns
    -------
    P, Q : ndarray, shape=(size, n)
    """

    def draw() -> np.ndarray:
        beta = rng.choice([0.05, 0.2, 1.0, 5.0, 50.0], size=size)
        g = rng.gamma(beta[:, None], size=(size, n))
        return c + (1 - n * c) * g / g.sum(axis=1, keepdims=True)

    p, q_far = draw(), draw()
    lam = rng.uniform(0.0, 1.0, size=(size, 1))
    return p, (1 - lam) * p + lam * q_far


def last_crossing(t: np.ndarray, lower: np.ndarray, upper: np.ndarray) -> float:
    """The largest ``t[i]`` with ``upper[i] < lower[i]`` (``nan`` if there is none).

    Beyond it ``lower ≤ upper`` on the whole grid: used to say from which TV on
    Corollary 1 is the smaller of two bounds.
    """
    below = np.flatnonzero(upper < lower)
    return float(t[below[-1]]) if below.size else math.nan


def _fmt(value: float, digits: int = 6) -> str:
    return "∞" if value == math.inf else f"{value:.{digits}f}"



# -- Theorem 1 (Ξ curve) -------------------------------------------------------------------

THEOREM1_N = 10
THEOREM1_CS = (0.001, 0.02, 0.05, 0.1)
THEOREM1_EPS_MAX = 4.0


def theorem1_values(lp_points: int) -> dict[float, tuple[np.ndarray, np.ndarray]]:
    """For each c of :data:`THEOREM1_CS`: a grid of ε on ``[0, 4]`` and the LP's
    ``sup η_TV`` over (ε, c)-PML kernels on N = 10 inputs at those ε."""
    eps = np.linspace(0.0, THEOREM1_EPS_MAX, lp_points)
    return {
        c: (eps, np.array([float(md.max_dobrushin(md.PML(e, c=c), THEOREM1_N)) for e in eps]))
        for c in THEOREM1_CS
    }


def theorem1_checks(lp: dict[float, tuple[np.ndarray, np.ndarray]]) -> list[Check]:
    """Theorem 1 (the LP equals the printed Ξ) and Theorem 2 (Ξ = 1 exactly from
    ``ε = log(2/(Nc))`` on; its witness kernel)."""
    n = THEOREM1_N
    lp_gap = max(
        abs(v - xi_printed(e, c, n)) for c, (eps, values) in lp.items()
        for e, v in zip(eps, values, strict=True)
    )
    library_gap = max(
        abs(md.dobrushin_bound(e, c, n) - xi_printed(e, c, n)) for c, (eps, _) in lp.items()
        for e in eps
    )
    count = sum(eps.size for eps, _ in lp.values())
    checks = [
        check_claim(
            PAPER, "Theorem 1: η_TV(ε, c) = Ξ(ε, c), N = 10",
            "sup of η_TV over (ε, c)-PML kernels = min{(e^ε − 1)/(e^ε(1 − Nc) + 1), 1}",
            lp_gap <= EXACT and library_gap <= EXACT,
            f"max |LP − Ξ| = {lp_gap:.1e} over {count} (ε, c); "
            f"max |md.dobrushin_bound − Ξ| = {library_gap:.1e}",
        )
    ]
    below, at = [], []
    for c in THEOREM1_CS[1:]:
        threshold = math.log(2 / (n * c))
        below.append(float(md.max_dobrushin(md.PML(threshold * (1 - 1e-3), c=c), n)))
        at.append(float(md.max_dobrushin(md.PML(threshold, c=c), n)))
    checks.append(check_claim(
        PAPER, "Theorem 2: Ξ = 1 from ε = log(2/(Nc)) on, N = 10",
        "η_TV(ε, c) = 1 if ε ≥ log(2/(Nc)), and < 1 below (Theorem 3)",
        all(abs(v - 1) <= EXACT for v in at) and all(v < 1 - 1e-6 for v in below),
        "LP at the threshold: " + ", ".join(f"{v:.9f}" for v in at)
        + "; just below: " + ", ".join(f"{v:.6f}" for v in below)
        + f" (c = {', '.join(str(c) for c in THEOREM1_CS[1:])})",
    ))
    witness = np.array([[0.5, 0.5]] * (n - 2) + [[1.0, 0.0], [0.0, 1.0]])
    levels = [md.pml_capacity(witness, c) for c in THEOREM1_CS]
    pair = md.bounds.disjoint_support_pair(witness)
    checks.append(check_claim(
        PAPER, "Theorem 2 (proof): p = (1/2, …, 1/2, 1, 0)",
        "K = [p, 1 − p] is log(2/(Nc))-PML and decomposable (two rows of disjoint support)",
        all(math.isclose(v, math.log(2 / (n * c)), rel_tol=EXACT)
            for v, c in zip(levels, THEOREM1_CS, strict=True)) and pair is not None,
        "levels − log(2/(Nc)) = "
        + ", ".join(f"{v - math.log(2 / (n * c)):.1e}"
                    for v, c in zip(levels, THEOREM1_CS, strict=True))
        + f"; disjoint rows {pair}",
    ))
    return checks


def plot_theorem1(lp: dict[float, tuple[np.ndarray, np.ndarray]], path: Path) -> Path:
    """Ξ(ε, c) against ε for each c, the LP points, tanh(ε/2) and the thresholds."""
    plt = pyplot()
    eps_fine = np.linspace(0.0, THEOREM1_EPS_MAX, 401)
    fig, ax = plt.subplots(figsize=(7.2, 4.8))
    for (c, (eps, values)), color in zip(lp.items(), ("C0", "C1", "C2", "C3"), strict=True):
        curve = [md.dobrushin_bound(e, c, THEOREM1_N) for e in eps_fine]
        ax.plot(eps_fine, curve, color=color, lw=1.8, label=f"$\\Xi(\\varepsilon, c)$, $c = {c}$")
        ax.plot(eps, values, "o", color=color, ms=5, mfc="none")
        threshold = md.bounds.decomposable_threshold(c, THEOREM1_N)
        if threshold <= THEOREM1_EPS_MAX:
            ax.axvline(threshold, color=color, ls=":", lw=1)
    ax.plot(eps_fine, [md.bounds.kairouz_dobrushin_bound(e) for e in eps_fine], "k--", lw=1,
            label=r"LDP ($c \to 0$): $(e^\varepsilon - 1)/(e^\varepsilon + 1)$, eq. (4)")
    ax.plot([], [], "ko", mfc="none", label="LP over binary kernels (Lemma 3)")
    ax.plot([], [], "k:", lw=1, label=r"$\varepsilon = \log(2/(Nc))$ (Theorem 2)")
    ax.set(xlabel=r"$\varepsilon$ (nats)",
           ylabel=r"maximal Dobrushin coefficient $\eta_{\mathrm{TV}}(\varepsilon, c)$",
           xlim=(0, THEOREM1_EPS_MAX), ylim=(0, 1.05))
    ax.set_title("Dobrushin paper, Theorem 1: $\\Xi(\\varepsilon, c)$ and the LP, "
                 f"$N = {THEOREM1_N}$\n(not a figure of the paper)", fontsize=11)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    return save(fig, path)


def run_theorem1(folder: Path, settings: Settings) -> ItemResult:
    """Theorem 1 (Ξ curve): the closed form against the LP, with Theorem 2's threshold."""
    lp = theorem1_values(9 if settings.quick else 41)
    rows = [
        (c, e, xi_printed(e, c, THEOREM1_N), v)
        for c, (eps, values) in lp.items() for e, v in zip(eps, values, strict=True)
    ]
    files = [
        plot_theorem1(lp, folder / "theorem1_xi.png"),
        write_csv(folder / "theorem1_xi.csv", ("c", "epsilon", "xi_closed_form", "lp"), rows),
    ]
    return ItemResult(files=files, checks=theorem1_checks(lp))


# -- Examples ------------------------------------------------------------------------------


def definition2_checks() -> list[Check]:
    """Definition 2's remark: every kernel, even the identity, is (−log c, c)-PML; and the
    introduction's kernel K1 (html 4) has no finite LDP level."""
    c = 0.1
    identity = md.pml_capacity(np.eye(4), c)
    intro = md.reproduce.PAPER_EXAMPLES["dobrushin-eq4-K1"].mechanism
    return [
        check_claim(
            PAPER, "Definition 2: the identity (N = 4) at c = 0.1",
            "any mechanism (even the identity mapping) satisfies (−log c, c)-PML",
            identity <= -math.log(c) * (1 + EXACT),
            f"C(I, Q_X(0.1)) = {identity:.6f}, −log c = {-math.log(c):.6f}",
        ),
        check_claim(
            PAPER, "Introduction: K1 of html (4)",
            "K1 (a 1/3-circulant with zeros) is non-private in the LDP framework (LDP = ∞)",
            md.ldp_level(intro) == math.inf,
            f"LDP(K1) = {_fmt(md.ldp_level(intro))}, "
            f"(ε, 0.1)-PML level {md.pml_capacity(intro, 0.1):.4f} < −log 0.1 = 2.3026",
        ),
    ]


def example1_checks() -> list[Check]:
    """Example 1: the printed binary kernel is (ε, c)-PML, attains the LP's maximal
    Dobrushin coefficient, and tends to Warner's randomized response as c → 0."""
    checks = []
    for epsilon, c in ((0.5, 0.25), (1.0, 0.1), (2.0, 0.1)):
        kernel = example1_kernel(epsilon, c)
        level = md.pml_capacity(kernel, c)
        eta = md.dobrushin_coefficient(kernel)
        lp = float(md.max_dobrushin(md.PML(epsilon, c=c), 2))
        checks.append(check_claim(
            PAPER, f"Example 1: ε = {epsilon}, c = {c}",
            "K of Example 1 is an optimal (ε, c)-PML mechanism: level ε, η_TV = the maximum",
            math.isclose(level, epsilon, rel_tol=EXACT) and math.isclose(eta, lp, rel_tol=EXACT),
            f"level {level:.9f}; η_TV(K) = {eta:.9f}, LP max = {lp:.9f}",
        ))
    epsilon = 1.0
    warner = md.randomized_response(2, epsilon).matrix
    gap = float(np.abs(example1_kernel(epsilon, 1e-12) - warner).max())
    checks.append(check_claim(
        PAPER, "Example 1: c → 0, ε = 1",
        "K simplifies to Warner's randomized response",
        gap <= 1e-9, f"max |K(c = 1e-12) − RR| = {gap:.1e}",
    ))
    return checks


def example2_checks() -> list[Check]:
    """Example 2: the privacy levels of K1 and K2 (html 43–44), η_TV(K1) = Ξ = 7/8, and the
    html copy's typo 1/15 in K1."""
    k1 = md.reproduce.PAPER_EXAMPLES["dobrushin-example2-K1"].mechanism
    k2 = md.reproduce.PAPER_EXAMPLES["dobrushin-example2-K2"].mechanism
    level1, level2 = md.pml_capacity(k1, C_K1), md.pml_capacity(k2, C_K2)
    ldp1, ldp2 = md.ldp_level(k1), md.ldp_level(k2)
    eta1, eta2 = md.dobrushin_coefficient(k1), md.dobrushin_coefficient(k2)
    return [
        check_claim(
            PAPER, "Example 2: K1 ∈ M(log 10/3, 0.05)",
            "K1 satisfies (log 10/3, 0.05)-PML",
            level1 <= EPS_PML * (1 + EXACT),
            f"C(K1, Q_X(0.05)) = {level1:.9f}, log 10/3 = {EPS_PML:.9f}",
        ),
        check_claim(
            PAPER, "Example 2: K1 is log(15)-LDP",
            "K1 also satisfies log(15)-LDP",
            ldp1 <= EPS_LDP_K1 * (1 + EXACT),
            f"LDP(K1) = {ldp1:.9f}, log 15 = {EPS_LDP_K1:.9f}",
        ),
        check_printed(PAPER, "Example 2: η_TV(K1) = 15/16 − 1/16", eta1, "0.875"),
        check_printed(
            PAPER, "Example 2: Ξ(log 10/3, 0.05), N = 10, by the LP",
            float(md.max_dobrushin(md.PML(EPS_PML, c=C_K1), 10)), "0.875",
        ),
        check_claim(
            PAPER, "Example 2: K2 ∈ M(log 10/3, 0.1)",
            "K2 satisfies (log 10/3, 0.1)-PML",
            level2 <= EPS_PML * (1 + EXACT),
            f"C(K2, Q_X(0.1)) = {level2:.9f}, log 10/3 = {EPS_PML:.9f}",
        ),
        check_claim(
            PAPER, "Example 2: K2 has no finite LDP guarantee",
            "K2 does not satisfy any finite LDP guarantee",
            ldp2 == math.inf, f"LDP(K2) = {_fmt(ldp2)}",
        ),
        check_claim(
            PAPER, "Example 2: Theorem 1 for K2",
            "η_TV(K2) ≤ Ξ(log 10/3, 0.1) = 7/8 (N = 5)",
            eta2 <= xi_printed(EPS_PML, C_K2, 5) + SLACK,
            f"η_TV(K2) = {eta2:.6f} ≤ {xi_printed(EPS_PML, C_K2, 5):.6f}",
        ),
        check_claim(
            PAPER, "Example 2, html (43): K1[5, 0]",
            "K1's first column is (15/16 × 5, 1/15, 1/16 × 4) (html copy)",
            math.isclose(1 - 15 / 16, 1 / 15),
            f"rows must sum to one: K1[5, 0] = 1 − 15/16 = {1 - 15 / 16:.4f} "
            f"≠ 1/15 = {1 / 15:.4f}",
            erratum="printed 1/15 (html copy only); correct 1/16, as the pdf prints "
            "[comment in mechdesign/reproduce/paper_examples.py]",
        ),
    ]


def remark1_checks() -> list[Check]:
    """Remark 1: c → 0 recovers the LDP value (e^ε − 1)/(e^ε + 1) (eq. 4); c = 1/N gives
    e^ε − 1 (Theorem 3's range, ε < log 2). Both by the LP."""
    checks = []
    n = 5
    for epsilon in (0.5, 1.0, 2.0):
        printed = (math.exp(epsilon) - 1) / (math.exp(epsilon) + 1)
        ldp_lp = float(md.max_dobrushin(md.LDP(epsilon), n))
        small_c = float(md.max_dobrushin(md.PML(epsilon, c=1e-7), n))
        checks.append(check_claim(
            PAPER, f"Remark 1: c → 0, ε = {epsilon}, N = {n}",
            f"the bound recovers (4): (e^ε − 1)/(e^ε + 1) = {printed:.6f}",
            math.isclose(ldp_lp, printed, rel_tol=EXACT)
            and math.isclose(small_c, printed, rel_tol=1e-5),
            f"LP over ε-LDP kernels {ldp_lp:.9f}; over (ε, 1e-7)-PML {small_c:.9f}",
        ))
    for epsilon in (0.2, 0.5):
        printed = math.exp(epsilon) - 1
        lp = float(md.max_dobrushin(md.PML(epsilon, c=1 / n), n))
        checks.append(check_claim(
            PAPER, f"Remark 1: c = 1/N, ε = {epsilon}, N = {n}",
            f"η_TV(ε, 1/N) = e^ε − 1 = {printed:.6f}",
            math.isclose(lp, printed, rel_tol=EXACT), f"LP {lp:.9f}",
        ))
    return checks


def remark2_checks() -> list[Check]:
    """Remark 2 at Example 2's parameters (N = 10, c = 0.05, ε = log 10/3): the valid q
    attain Ξ = 7/8; the printed range ``q ∈ {1, …, N − 1}`` is too wide (an erratum)."""
    n, c, epsilon = 10, C_K1, EPS_PML
    results = {q: remark2_column(epsilon, c, n, q) for q in range(1, n)}
    valid = [q for q, p in results.items() if np.all(p >= -SLACK) and np.all(p <= 1 + SLACK)]
    # At q = 4 and 6, M (or m) is 1 (or 0) up to rounding: clip that rounding only.
    kernels = {q: np.column_stack([np.clip(results[q], 0, 1), 1 - np.clip(results[q], 0, 1)])
               for q in valid}
    attains = all(
        math.isclose(md.dobrushin_coefficient(kernels[q]), xi_printed(epsilon, c, n),
                     rel_tol=EXACT)
        and md.pml_capacity(kernels[q], c) <= epsilon * (1 + EXACT)
        for q in valid
    )
    bad = [q for q in range(1, n) if q not in valid]
    worst = bad[0]
    return [
        check_claim(
            PAPER, "Remark 2: valid q, N = 10, c = 0.05, ε = log 10/3",
            "K* = [p, 1 − p] is (ε, c)-PML and attains Theorem 3's bound (7/8)",
            attains and md.mechanisms.extremal_binary_valid_q(epsilon, c, n) == valid,
            f"q ∈ {{{', '.join(map(str, valid))}}} "
            "(as md.mechanisms.extremal_binary_valid_q): level ≤ ε "
            "and η_TV = 0.875",
        ),
        check_claim(
            PAPER, "Remark 2: range of q, N = 10, c = 0.05, ε = log 10/3",
            "q ∈ {1, …, N − 1} gives a mechanism",
            not bad,
            f"q = {worst}: (m, M) = ({results[worst][-1]:.4f}, {results[worst][0]:.4f}), "
            f"not in [0, 1]; invalid q: {bad}",
            erratum="printed q ∈ {1, …, N − 1}; correct: only q with e^ε c·max(q, N − q) ≤ 1 "
            "(here 4, 5, 6) [docstring of md.mechanisms.extremal_binary_valid_q; tests/"
            "test_contraction.py::test_every_valid_remark2_kernel_passes_audit_and_attains]",
        ),
    ]


def proposition2_checks() -> list[Check]:
    """Proposition 2: ``Γ_max(ε, c) ≤ (1 − Nc)e^ε + 1`` against the exact maximum over
    (ε,
     c)-PML kernels and priors in ``Q_X(c)`` (:func:`mechdesign.bounds.max_cross_channel_gamma`)."""
    n, c = 4, 0.1
    rows = []
    holds = True
    for epsilon in (0.5, 1.0, 2.0):
        exact = md.bounds.max_cross_channel_gamma(md.PML(epsilon, c=c), n)
        printed = (1 - n * c) * math.exp(epsilon) + 1
        holds &= exact <= printed * (1 + EXACT)
        rows.append(f"ε = {epsilon}: {exact:.4f} ≤ {printed:.4f}")
    return [check_claim(
        PAPER, "Proposition 2: N = 4, c = 0.1",
        "Γ_max(ε, c) ≤ (1 − Nc)e^ε + 1 (and Γ_min ≥ its inverse)",
        holds, "; ".join(rows),
    )]


def example3_largest_kl(delta: float, epsilon: float, c: float) -> tuple[float, float]:
    """The largest ``D(K∘P_θ0 ‖ K∘P_θ1)`` over the (ε, c)-PML kernels on 4 inputs (a
    design: KL is a sublinear utility, maximised on the notion's vertices) and the
    corrected Corollary 1 bound ``Ξ(ε, c) log((1 − 4c)e^ε + 1)·2δ``."""
    p0, p1 = example3_pair(delta)
    largest = md.design(md.PML(epsilon, c=c),
                        utility=md.optimal.FDivergenceUtility(p0, p1, md.measures.KL)).utility
    bound = md.dobrushin_bound(epsilon, c, 4) * math.log(
        (1 - 4 * c) * math.exp(epsilon) + 1) * 2 * delta
    return largest, bound


def example3_checks() -> list[Check]:
    """Example 3's two errata: ``TV(P_θ0‖P_θ1) = 2δ`` (printed: δ), and the prefactor of
    the Le Cam/Bretagnolle–Huber bound (printed: ½; correct ``ℓ(θ0, θ1)/4``)."""
    delta, c, epsilon, n_samples = 0.05, 0.05, 1.0, 10
    p0, p1 = example3_pair(delta)
    tv = md.total_variation(p0, p1)
    xi = xi_printed(epsilon, c, 4)
    printed_bound = 0.5 * math.exp(
        -n_samples * xi * math.log((1 - 4 * c) * math.exp(epsilon) + 1) * delta
    )
    correct_bound = md.bounds.private_minimax_lower_bound(n_samples, delta, epsilon, c)
    largest, bound = example3_largest_kl(0.249, 0.5, 0.2)
    return [
        check_claim(
            PAPER, "Example 3: TV(P_θ0 ‖ P_θ1), δ = 0.05",
            "Corollary 1 applies with TV(P_θ0 ‖ P_θ1) = δ",
            math.isclose(tv, delta, rel_tol=EXACT),
            f"TV = {tv:.6f} = 2δ",
            erratum="printed δ; correct 2δ (the two distributions differ by 2δ in two "
            "coordinates) [tests/bounds/test_contraction.py::"
            "test_example3_tv_is_two_delta_and_the_corrected_bound_holds]",
        ),
        check_claim(
            PAPER, "Example 3: R* bound, n = 10, δ = 0.05, ε = 1, c = 0.05",
            "R* ≥ ½ exp(−n Ξ log((1 − 4c)e^ε + 1) δ) "
            f"= {printed_bound:.4f}",
            math.isclose(printed_bound, correct_bound, rel_tol=EXACT),
            f"Le Cam + Bretagnolle–Huber with TV = 2δ, ℓ = δ: R* ≥ {correct_bound:.4f}",
            erratum="printed ½ exp(−nΞ log(…) δ); correct (ℓ(θ0, θ1)/4) exp(−nΞ log(…) 2δ) "
            "[docstring of md.bounds.private_minimax_lower_bound]",
        ),
        check_claim(
            PAPER, "Example 3: the range of δ",
            "Corollary 1 applies for every δ ∈ (0, 1/4)",
            largest <= bound,
            f"c = 0.2, ε = 0.5, δ = 0.249: the largest KL over (ε, c)-PML kernels is "
            f"{largest:.4g}, {largest / bound:.2f}× the corrected bound {bound:.4g}",
            erratum="Corollary 1 needs P_θ ∈ Q_X(c), i.e. δ ≤ 1/4 − c; outside it even the "
            "corrected 2δ bound fails (md.bounds.private_minimax_lower_bound refuses c > 1/4 − δ) "
            "[tests/bounds/test_contraction.py::test_example3_needs_delta_at_most_quarter_minus_c]",
        ),
    ]


def eq22_kernel(p: np.ndarray) -> np.ndarray:
    """The html copy's eq. (22): rows ``(p_i, 1 − p_i)`` for ``i ≤ N − 2``, then
    ``(1, 0)`` and ``(0, 1)``."""
    top = np.column_stack([p, 1 - p])
    return np.vstack([top, [[1.0, 0.0], [0.0, 1.0]]])


def eq22_checks() -> list[Check]:
    """The html copy's eq. (22) leaves ``p_1 … p_{N−2}`` free; its stated level
    ``log(2/(Nc))`` needs ``Σ p_i = N/2 − 1`` (html Lemma 7; the pdf takes ``p_i = ½``)."""
    n, c = 6, 0.1
    free = eq22_kernel(np.array([0.1, 0.2, 0.3, 0.9]))  # Σ p_i = 1.5 ≠ N/2 − 1 = 2
    halves = eq22_kernel(np.full(n - 2, 0.5))
    target = math.log(2 / (n * c))
    level_free, level_halves = md.pml_capacity(free, c), md.pml_capacity(halves, c)
    return [check_claim(
        PAPER, "Proof of Theorem 2, eq. (22) (html copy): N = 6, c = 0.1",
        "K of eq. (22) satisfies log(2/(Nc))-PML for p_1 … p_{N−2} as left unspecified",
        level_free <= target * (1 + EXACT),
        f"p = (0.1, 0.2, 0.3, 0.9): level {level_free:.4f} > log(2/(Nc)) = {target:.4f}; "
        f"p_i = ½: {level_halves:.4f}",
        erratum="the stated level needs Σ_{i ≤ N−2} p_i = N/2 − 1 (html Lemma 7); the pdf "
        "fixes p_i = ½ [tests/bounds/test_contraction.py::test_eq22_level_needs_the_sum_of_p]",
    )]


def run_examples(folder: Path, settings: Settings) -> ItemResult:
    """Definition 2, Examples 1–3, Remarks 1–2 and Proposition 2, as checks (no files)."""
    builders: tuple[Callable[[], list[Check]], ...] = (
        definition2_checks, example1_checks, remark1_checks, remark2_checks,
        proposition2_checks, example2_checks, example3_checks, eq22_checks,
    )
    return ItemResult(checks=[check for build in builders for check in build()])


# -- Fig. 1 --------------------------------------------------------------------------------


def fig1_panel_a(size: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Fig. 1(a): TV and the true ``D(K1∘P ‖ K1∘Q)`` of ``size`` random pairs in
    ``Q_X(0.05)``, with Corollary 1 (ε = log 10/3) and the LDP bounds of Asoodeh et al. and
    Duchi et al. (ε = log 15) at each pair's TV."""
    k1 = md.reproduce.PAPER_EXAMPLES["dobrushin-example2-K1"].mechanism.matrix
    p, q = sample_pairs(k1.shape[0], C_K1, size, rng)
    tv = np.array([md.total_variation(a, b) for a, b in zip(p, q, strict=True)])
    return {
        "tv": tv,
        "divergence": np.array([md.kl_divergence(a @ k1, b @ k1)
                                for a, b in zip(p, q, strict=True)]),
        "ours": np.array([md.bounds.pml_kl_sdpi_bound(EPS_PML, C_K1, 10, t) for t in tv]),
        "asoodeh": np.array([md.bounds.asoodeh_zhang_kl_bound(EPS_LDP_K1, t, C_K1) for t in tv]),
        "duchi": np.array([md.bounds.duchi_kl_bound(EPS_LDP_K1, t) for t in tv]),
    }


def fig1_panel_b(size: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Fig. 1(b): TV and the true ``H²(K2∘P ‖ K2∘Q)`` of ``size`` random pairs in
    ``Q_X(0.1)``, with Corollary 2 (ε = log 10/3) at each pair's TV."""
    k2 = md.reproduce.PAPER_EXAMPLES["dobrushin-example2-K2"].mechanism.matrix
    p, q = sample_pairs(k2.shape[0], C_K2, size, rng)
    tv = np.array([md.total_variation(a, b) for a, b in zip(p, q, strict=True)])
    return {
        "tv": tv,
        "divergence": np.array([md.measures.squared_hellinger(a @ k2, b @ k2)
                                for a, b in zip(p, q, strict=True)]),
        "ours": np.array([md.bounds.pml_hellinger_sdpi_bound(EPS_PML, C_K2, 5, t) for t in tv]),
    }


def _bound_holds(panel: dict[str, np.ndarray], key: str) -> tuple[bool, str]:
    ratio = panel["divergence"][panel["tv"] > 0] / panel[key][panel["tv"] > 0]
    holds = bool(np.all(panel["divergence"] <= panel[key] + SLACK))
    return holds, f"{panel['tv'].size} pairs, max true/bound = {ratio.max():.3f}"


def fig1_checks(a: dict[str, np.ndarray], b: dict[str, np.ndarray], grid: int) -> list[Check]:
    """Corollaries 1–2 and the LDP bounds hold for every sampled pair; Corollary 1 is the
    smallest bound of panel (a) except very near TV = 0."""
    checks = []
    for key, claim in (
        ("ours", "Corollary 1 (ε = log 10/3, c = 0.05) lies above every sampled pair"),
        ("asoodeh", "the Asoodeh et al. bound (ε = log 15, Q_min = c) holds for every pair"),
        ("duchi", "the Duchi et al. bound (ε = log 15) holds for every pair"),
    ):
        holds, evidence = _bound_holds(a, key)
        checks.append(check_claim(PAPER, "Fig. 1(a): K1, N = 10, c = 0.05", claim, holds,
                                  evidence))
    t = np.linspace(1e-5, 0.5, grid)
    ours = np.array([md.bounds.pml_kl_sdpi_bound(EPS_PML, C_K1, 10, x) for x in t])
    duchi = np.array([md.bounds.duchi_kl_bound(EPS_LDP_K1, x) for x in t])
    asoodeh = np.array([md.bounds.asoodeh_zhang_kl_bound(EPS_LDP_K1, x, C_K1) for x in t])
    cross_duchi, cross_asoodeh = last_crossing(t, ours, duchi), last_crossing(t, ours, asoodeh)
    checks.append(check_claim(
        PAPER, "Fig. 1(a): K1, N = 10, c = 0.05",
        "Corollary 1 is tighter than the LDP bounds of Duchi et al. and Asoodeh et al. "
        "(abstract: tighter bounds for LDP mechanisms)",
        max(cross_duchi, cross_asoodeh) < 0.05,
        f"Cor. 1 < Duchi et al. for TV > {cross_duchi:.4f}, "
        f"< Asoodeh et al. for TV > {cross_asoodeh:.4f} (both quadratic at 0)",
    ))
    holds, evidence = _bound_holds(b, "ours")
    checks.append(check_claim(
        PAPER, "Fig. 1(b): K2, N = 5, c = 0.1",
        "Corollary 2 (ε = log 10/3, c = 0.1) lies above every sampled pair", holds, evidence,
    ))
    return checks


def plot_fig1(a: dict[str, np.ndarray], b: dict[str, np.ndarray], path: Path) -> Path:
    """Fig. 1 (a) and (b) side by side, with the paper's axes and legend entries."""
    plt = pyplot()
    t = np.linspace(0.0, 0.5, 401)
    fig, (left, right) = plt.subplots(1, 2, figsize=(11.5, 4.9))

    left.scatter(a["tv"], a["divergence"], s=4, alpha=0.35, color="C0", lw=0,
                 label="True relative entropy")
    left.plot(t, [md.bounds.pml_kl_sdpi_bound(EPS_PML, C_K1, 10, x) for x in t], "C3", lw=2,
              label="Our upper bound (Cor. 1)")
    left.plot(t, [md.bounds.asoodeh_zhang_kl_bound(EPS_LDP_K1, x, C_K1) for x in t], "C2",
              label="Asoodeh et al.")
    left.plot(t, [md.bounds.duchi_kl_bound(EPS_LDP_K1, x) for x in t], "C4", label="Duchi et al.")
    left.set(xlim=(0, 0.5), ylim=(0, 1), xlabel=r"$\mathrm{TV}(P_X \| Q_X)$",
             ylabel=r"$D(K_1 \circ P_X \| K_1 \circ Q_X)$ (nats)")
    left.set_title("(a) $K_1$, $N = 10$, $c = 0.05$", fontsize=11)
    left.legend(fontsize=8, loc="upper left", markerscale=3)

    right.scatter(b["tv"], b["divergence"], s=4, alpha=0.35, color="C0", lw=0,
                  label="True squared Hellinger")
    right.plot(t, [md.bounds.pml_hellinger_sdpi_bound(EPS_PML, C_K2, 5, x) for x in t], "C3", lw=2,
               label="Our upper bound (Cor. 2)")
    right.set(xlim=(0, 0.5), ylim=(0, 0.22), xlabel=r"$\mathrm{TV}(P_X \| Q_X)$",
              ylabel=r"$H^2(K_2 \circ P_X \| K_2 \circ Q_X)$")
    right.set_title("(b) $K_2$, $N = 5$, $c = 0.1$", fontsize=11)
    right.legend(fontsize=8, loc="upper left", markerscale=3)

    fig.suptitle("Dobrushin paper, Fig. 1: Corollaries 1 and 2 for random "
                 "$P_X, Q_X \\in \\mathcal{Q}_X(c)$ (Example 2)", fontsize=12)
    fig.text(0.5, 0.015, "The paper's curve of Zamanlooy and Asoodeh ([9, Thm 5]) in (a) is "
             "not drawn: mechdesign does not implement it.", ha="center", fontsize=8.5,
             style="italic")
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    return save(fig, path)


def run_fig1(folder: Path, settings: Settings) -> ItemResult:
    """Fig. 1 (a) and (b): Corollaries 1 and 2 against random pairs in ``Q_X(c)``."""
    rng = np.random.default_rng(settings.seed)
    size = 400 if settings.quick else 5000
    a, b = fig1_panel_a(size, rng), fig1_panel_b(size, rng)
    rows = [("a", *row) for row in zip(a["tv"], a["divergence"], a["ours"], a["asoodeh"],
                                        a["duchi"], strict=True)]
    rows += [("b", t, d, o, "", "") for t, d, o in zip(b["tv"], b["divergence"], b["ours"],
                                                        strict=True)]
    files = [
        plot_fig1(a, b, folder / "fig1_corollaries.png"),
        write_csv(folder / "fig1_corollaries.csv",
                   ("panel", "tv", "divergence", "corollary_bound", "asoodeh", "duchi"), rows),
    ]
    return ItemResult(files=files, checks=fig1_checks(a, b, 5001 if settings.quick else 50001))


ITEMS: tuple[Item, ...] = (
    Item(PAPER, "Theorem 1 (Ξ curve)", run_theorem1),
    Item(PAPER, "Examples", run_examples),
    Item(PAPER, "Fig. 1", run_fig1),
)
