"""The f_α-contraction paper's Figs. 1–2 and examples, reproduced with mechdesign.

Grosse, Saeidian, Oechtering, Skoglund, *Bounds on the Privacy Amplification of Arbitrary
Channels via the Contraction of f_α-Divergence*, Allerton 2025 [1]_. The paper numbers
all results in one sequence (Definition 1, …, Proposition 3, Example 4, …, Example 12).

Items of ``mechdesign reproduce --paper falpha``:

``Fig. 1``
    The joint range of ``(TV(P‖Q), D_{f_α}(P‖Q))`` for α = 4: random binary and ternary
    pairs, Theorem 8's lower bound ``g_α`` (eq. 6, :func:`mechdesign.measures.pinsker_f_alpha`) and
    the exact lower boundary ``min_p ψ_α(p, t)`` of Remark 9 / Appendix A
    (:func:`mechdesign.measures.f_alpha_tv_lower_boundary`), on a linear and a logarithmic scale.
    Checks Theorem 8, Remark 9 and Appendix A (whose ``ψ_α(0, t)`` is misprinted).
    Writes ``fig1_joint_range.png`` and ``fig1_joint_range.csv``.
``Fig. 2``
    Example 12, panels (a)–(d) with ``(N, ε, k) = (5, log 2, 2), (5, log 6, 2),
    (20, log 10, 2), (100, log 10, 50)``: the bound φ of eq. (9) with ``η_TV = 1``
    (:func:`mechdesign.bounds.rldp_amplification_bound`), the RLDP of N-ary randomized response
    alone and the true RLDP of the cascade, against α. For k ∤ N (panels (a), (b)) the
    paper does not say how it builds ``Q^{(m,k)}``; we use the circulant k-singular
    channel (:func:`mechdesign.bounds.circulant_singular_channel`), which keeps Example 12's
    ``Γ_max``. Writes ``fig2_example12.png`` and ``fig2_example12.csv``.
``Examples``
    Examples 4, 5 and 12 as checks: block-diagonal channels have a disjoint pair of rows;
    Example 5's P and Q; "any k-singular channel with k ≤ N/2" (right for α > 1 — the
    Fano-plane channel, whose rows all overlap, does not contract Rényi divergence either
    — but not "by Example 4"); Example 12's ``Γ_max(Y) = 1 + (e^ε − 1)/k``
    for every panel and its limits as N grows. No files.
``Eq. (1), Theorem 6, Remarks 7 and 10``
    The Rényi ↔ f_α transform (misprinted for α < 1), Theorem 6 (reverse Pinsker) on random
    pairs, Remark 7's limit, and Remark 10's inverse ``g_α^{-1}`` (its threshold ``h_1`` is
    misprinted). Writes ``remark10_inverse.png``.

Rows of a kernel are inputs, logarithms are natural.

References
----------
.. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Bounds on the Privacy
   Amplification of Arbitrary Channels via the Contraction of f_α-Divergence", Allerton
   Conference 2025, arXiv:2501.11473.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np

import mechdesign as md
from mechdesign.reproduce._core import REASONING, Check, Item, ItemResult, Settings, check_claim
from mechdesign.reproduce._plot import pyplot, save, write_csv

__all__ = [
    "EXAMPLE5_P",
    "EXAMPLE5_Q",
    "FIG2_PANELS",
    "ITEMS",
    "alpha_ranges",
    "example12_channel",
    "example12_gamma",
    "fano_plane_channel",
    "fano_renyi_ratio",
    "fig2_checks",
    "g_alpha_inverse_printed",
    "g_alpha_printed",
    "is_k_singular",
    "r_alpha_printed",
    "renyi_from_f_alpha_printed",
    "run_examples",
    "run_fig1",
    "run_fig2",
    "run_remarks",
]

PAPER = "falpha"

#: Relative tolerance for identities that hold exactly in real arithmetic.
EXACT = 1e-9
#: Absolute slack of an inequality "bound ≥ value" evaluated in floating point.
SLACK = 1e-12

FIG1_ALPHA = 4.0
#: Fig. 2 (a)–(d): (N, ε, k, ε as the paper writes it).
FIG2_PANELS: tuple[tuple[int, float, int, str], ...] = (
    (5, math.log(2), 2, "log 2"),
    (5, math.log(6), 2, "log 6"),
    (20, math.log(10), 2, "log 10"),
    (100, math.log(10), 50, "log 10"),
)
FIG2_ALPHA_MAX = 20.0

# Example 5, as printed: P is 3-singular, Q is 2-singular (rows are inputs).
_T = 1 / 3
EXAMPLE5_P = np.array([[_T, _T, _T, 0], [_T, _T, 0, _T], [_T, 0, _T, _T], [0, _T, _T, _T]])
EXAMPLE5_Q = np.array([[0.5, 0.5, 0, 0], [0.5, 0.5, 0, 0], [0, 0, 0.5, 0.5], [0, 0, 0.5, 0.5]])


# -- the paper's formulas, transcribed -----------------------------------------------------


def g_alpha_printed(t: float, alpha: float) -> float:
    """``g_α(t)`` of Theorem 8 (eq. 6) as printed: ``e^{2(α−1)t²} − 1`` (t < 1/α, α < 2),
    ``(4t² + 1)^{α−1} − 1`` (t < 1/α, α ≥ 2), ``(1 − t)^{1−α} − 1`` otherwise."""
    if t < 1 / alpha:
        if alpha < 2:
            return math.expm1(2 * (alpha - 1) * t * t)
        return (4 * t * t + 1) ** (alpha - 1) - 1
    return math.inf if t >= 1 else (1 - t) ** (1 - alpha) - 1


def g_alpha_inverse_printed(s: float, alpha: float) -> float:
    """``g_α^{-1}(s)`` of Remark 10 as printed, with ``h_1(α) = 2 − 2/α`` and
    ``h_2(α) = (1 + 4α^{-2})^{α−1} − 1``."""
    if alpha < 2 and s < 2 - 2 / alpha:
        return math.sqrt(math.log(s + 1) / (2 * (alpha - 1)))
    if alpha >= 2 and s < (1 + 4 / alpha**2) ** (alpha - 1) - 1:
        return 0.5 * math.sqrt((s + 1) ** (1 / (alpha - 1)) - 1)
    return max(1 - (s + 1) ** (1 / (1 - alpha)), 1 / alpha)


def r_alpha_printed(u: float, v: float, alpha: float) -> float:
    """``R_α(u, v) = (u^α − 1)/(u − 1) − (1 − v^α)/(1 − v)`` of Theorem 6, as printed
    (for ``u > 1 > v``)."""
    return (u**alpha - 1) / (u - 1) - (1 - v**alpha) / (1 - v)


def renyi_from_f_alpha_printed(value: float, alpha: float) -> float:
    """Eq. (1) as printed, for every α: ``D_α = log(D_{f_α} + 1)/(α − 1)``."""
    return math.log(value + 1) / (alpha - 1)


def example12_gamma(epsilon: float, k: int) -> float:
    """Example 12's ``Γ_max(Y) = Γ_min(Y)^{-1} = 1 + (e^ε − 1)/k``."""
    return 1 + math.expm1(epsilon) / k


def is_k_singular(kernel: np.ndarray, k: int) -> bool:
    """Example 5's definition: every entry is 0 or 1/k (so each row has k non-zeros)."""
    nonzero = kernel > 0
    return bool(np.allclose(kernel[nonzero], 1 / k, rtol=EXACT, atol=0)
                and np.all(nonzero.sum(axis=1) == k))


def fano_plane_channel() -> np.ndarray:
    """The 7 × 7 channel whose rows are the lines of the Fano plane, 1/3 on each of its
    three points: 3-singular, and any two rows share exactly one output."""
    lines = ((0, 1, 2), (0, 3, 4), (0, 5, 6), (1, 3, 5), (1, 4, 6), (2, 3, 6), (2, 4, 5))
    kernel = np.zeros((7, 7))
    for row, line in enumerate(lines):
        kernel[row, list(line)] = 1 / 3
    return kernel


def example12_channel(n: int, k: int) -> md.Mechanism:
    """``Q^{(m,k)} = diag(U^{(k)}, …, U^{(k)})`` when k divides N, else the circulant
    k-singular channel (the paper leaves that case open; it keeps Γ's closed form)."""
    if n % k == 0:
        return md.bounds.block_uniform_channel(n, k)
    return md.bounds.circulant_singular_channel(n, k)


def alpha_ranges(alphas: np.ndarray, mask: np.ndarray) -> str:
    """The runs of ``True`` in ``mask`` as ``"a–b"`` ranges of ``alphas`` (or ``"none"``)."""
    runs, start = [], None
    for i, flag in enumerate([*mask.tolist(), False]):
        if flag and start is None:
            start = i
        if not flag and start is not None:
            first, last = alphas[start], alphas[i - 1]
            runs.append(f"{first:.2f}" if start == i - 1 else f"{first:.2f}–{last:.2f}")
            start = None
    return ", ".join(runs) or "none"



# -- Fig. 1 --------------------------------------------------------------------------------


def fig1_samples(binary: int, ternary: int, rng: np.random.Generator) -> np.ndarray:
    """``(TV, D_{f_α})`` at α = 4 of ``binary`` uniform binary pairs and ``ternary``
    Dirichlet pairs on three points (half with β = 1, half with β = 0.3).

    Returns
    -------
    ndarray, shape=(binary + ternary, 2)
    """
    points = []
    for p, q in rng.uniform(size=(binary, 2)):
        pair = ([p, 1 - p], [q, 1 - q])
        points.append((md.total_variation(*pair),
                       md.measures.f_alpha_divergence(*pair, FIG1_ALPHA)))
    for beta, size in ((1.0, ternary - ternary // 2), (0.3, ternary // 2)):
        for p, q in zip(rng.dirichlet([beta] * 3, size), rng.dirichlet([beta] * 3, size),
                        strict=True):
            points.append((md.total_variation(p, q),
                           md.measures.f_alpha_divergence(p, q, FIG1_ALPHA)))
    return np.array(points)


def fig1_checks(points: np.ndarray, t: np.ndarray) -> list[Check]:
    """Theorem 8, Remark 9 (tightness for t ≥ 1/α, and for every t at α = 2) and the
    Appendix A erratum, at α = 4 unless stated."""
    alpha = FIG1_ALPHA
    item = "Fig. 1: α = 4"
    tv, div = points[:, 0], points[:, 1]
    g = md.measures.pinsker_f_alpha(t, alpha)
    exact = md.measures.f_alpha_tv_lower_boundary(t, alpha)
    printed = np.array([g_alpha_printed(x, alpha) for x in t])
    transcription_gap = float(np.max(np.abs(g - printed) / np.maximum(printed, 1e-300)))
    g_pts = md.measures.pinsker_f_alpha(tv, alpha)
    exact_pts = md.measures.f_alpha_tv_lower_boundary(tv, alpha)
    above = t >= 1 / alpha
    attained = np.array([md.measures.f_alpha_divergence([0.0, 1.0], [x, 1 - x], alpha)
                         for x in t[above]])
    attain_gap = float(np.max(np.abs(attained - printed[above]) / printed[above]))
    boundary_gap = float(np.max(np.abs(exact[above] - g[above]) / g[above]))
    gap = exact[~above] - g[~above]
    worst = int(np.argmax(gap))
    t2 = t[(t > 0) & (t < 1)]
    exact2 = md.measures.f_alpha_tv_lower_boundary(t2, 2.0)
    g2 = md.measures.pinsker_f_alpha(t2, 2.0)
    alpha2_gap = float(np.max(np.abs(exact2 - g2) / g2))
    half = md.measures.f_alpha_tv_lower_boundary(0.5, alpha)
    return [
        check_claim(
            PAPER, f"{item}, Theorem 8 (eq. 6)",
            "D_{f_α}(P‖Q) ≥ g_α(TV(P‖Q)) for every pair",
            bool(np.all(div >= g_pts * (1 - EXACT) - SLACK)) and transcription_gap <= EXACT,
            f"{len(div)} sampled pairs, min D − g_α = {np.min(div - g_pts):.2e}; "
            f"md.measures.pinsker_f_alpha = printed g_α to {transcription_gap:.0e}",
        ),
        check_claim(
            PAPER, f"{item}, Remark 9",
            "for t ≥ 1/α the bound is attained by P = [0, 1], Q = [t, 1 − t]",
            attain_gap <= EXACT and boundary_gap <= EXACT,
            f"max rel. |D_{{f_α}}([0,1] ‖ [t,1−t]) − g_α(t)| = {attain_gap:.0e}; exact "
            f"boundary = g_α to {boundary_gap:.0e} on {int(above.sum())} t ≥ 1/4",
        ),
        check_claim(
            PAPER, f"{item}, Remark 9",
            "for t < 1/α (α ≠ 2) g_α is a rudimentary bound; the tight one is min_p ψ_α(p, t)",
            bool(np.all(gap >= -SLACK)) and gap[worst] > 0,
            f"boundary − g_α ≥ 0, largest {gap[worst]:.4f} at t = {t[~above][worst]:.3f}; "
            f"jump of g_α at 1/α: {g_alpha_printed(np.nextafter(0.25, 0), alpha):.4f} → "
            f"{g_alpha_printed(0.25, alpha):.4f}",
        ),
        check_claim(
            PAPER, "Fig. 1: α = 2, Remark 9",
            "for α = 2 the bound is tight for all t ≥ 0 (the χ²–TV joint range)",
            alpha2_gap <= 1e-7,
            f"max rel. |boundary − g_2| = {alpha2_gap:.1e} on {t2.size} t",
        ),
        check_claim(
            PAPER, f"{item}, joint range",
            "the sampled pairs lie on or above the lower boundary min_p ψ_α(p, t)",
            bool(np.all(div >= exact_pts * (1 - 1e-9) - SLACK)),
            f"min D − boundary = {np.min(div - exact_pts):.2e} over {len(div)} pairs",
        ),
        check_claim(
            PAPER, f"{item}, Appendix A, t = 1/2",
            "for t ≥ 1/α the maximum of ψ_α is at p = 0: ψ_α(0, t) = (1 − t)^{1−α} = 8",
            math.isclose(half, 0.5 ** (1 - alpha), rel_tol=EXACT),
            f"min over p of ψ_α(p, 1/2) = {half:.6f} at p = 0, = (1 − t)^{{1−α}} − 1",
            erratum="printed ψ_α(0, t) = (1 − t)^{1−α}, 'the maximum'; correct "
            "(1 − t)^{1−α} − 1, the minimum over p [docstring of "
            "md.measures.f_alpha_tv_lower_boundary]",
        ),
    ]


def plot_fig1(points: np.ndarray, t: np.ndarray, path: Path) -> Path:
    """Fig. 1: the sampled joint range, g_α and the exact lower boundary, linear and log."""
    plt = pyplot()
    alpha = FIG1_ALPHA
    g = md.measures.pinsker_f_alpha(t, alpha)
    exact = md.measures.f_alpha_tv_lower_boundary(t, alpha)
    below = t < 1 / alpha
    fig, axes = plt.subplots(1, 2, figsize=(11.5, 4.8))
    for ax, log in zip(axes, (False, True), strict=True):
        ax.scatter(points[:, 0], points[:, 1], s=3, alpha=0.3, color="C0", lw=0,
                   label=r"random pairs $P, Q$ ($|\mathcal{X}| = 2, 3$)")
        ax.plot(t, exact, "k", lw=2, label=r"exact lower boundary $\min_p \psi_\alpha(p, t)$")
        ax.plot(t[below], g[below], "C3--", lw=2, label=r"$g_\alpha(t)$, Theorem 8")
        ax.plot(t[~below], g[~below], "C3--", lw=2)
        ax.axvline(1 / alpha, color="grey", ls=":", lw=1, label=r"$t = 1/\alpha$")
        ax.set(xlabel=r"$\mathrm{TV}(P \| Q)$", ylabel=r"$D_{f_\alpha}(P \| Q)$")
        if log:
            ax.set(yscale="log", xlim=(0, 1), ylim=(1e-4, 1e6))
            ax.set_title("logarithmic scale, $0 \\leq t \\leq 1$", fontsize=11)
        else:
            ax.set(xlim=(0, 0.5), ylim=(0, 8))
            ax.set_title("linear scale, $0 \\leq t \\leq 1/2$", fontsize=11)
        ax.legend(fontsize=8, loc="upper left", markerscale=3)
    fig.suptitle(r"$f_\alpha$ paper, Fig. 1: joint range of $D_{f_\alpha}(P\|Q)$ and "
                 r"$\mathrm{TV}(P\|Q)$ for $\alpha = 4$, with the bound of Theorem 8",
                 fontsize=12)
    fig.tight_layout()
    return save(fig, path)


def run_fig1(folder: Path, settings: Settings) -> ItemResult:
    """Fig. 1: the joint range of TV and ``D_{f_α}`` at α = 4 with Theorem 8's bound."""
    rng = np.random.default_rng(settings.seed)
    points = fig1_samples(*((300, 300) if settings.quick else (3000, 3000)), rng)
    t = np.linspace(0.0, 0.995, 200 if settings.quick else 800)
    rows = list(zip(t, md.measures.pinsker_f_alpha(t, FIG1_ALPHA),
                    md.measures.f_alpha_tv_lower_boundary(t, FIG1_ALPHA), strict=True))
    files = [
        plot_fig1(points, t, folder / "fig1_joint_range.png"),
        write_csv(folder / "fig1_joint_range.csv", ("tv", "g_alpha", "exact_boundary"), rows),
    ]
    return ItemResult(files=files, checks=fig1_checks(points, t))


# -- Fig. 2 --------------------------------------------------------------------------------


def fig2_panel(n: int, epsilon: float, k: int, alphas: np.ndarray) -> dict[str, np.ndarray]:
    """One panel of Fig. 2: φ(ε_f, α) of eq. (9) with η_TV = 1, the RLDP of N-ary
    randomized response alone, and the true RLDP of the cascade, at each α."""
    rr = md.randomized_response(n, epsilon)
    channel = example12_channel(n, k)
    cascade = rr.then(channel)
    amp = [md.bounds.rldp_amplification_bound(rr, channel, a, eta_tv=1.0) for a in alphas]
    return {
        "alpha": alphas,
        "bound": np.array([r.bound for r in amp]),
        "first": np.array([r.first_level for r in amp]),
        "true": np.array([md.measures.renyi_ldp_level(cascade, a) for a in alphas]),
    }


def fig2_checks(label: str, panel: dict[str, np.ndarray], title: str) -> list[Check]:
    """Eq. (9) bounds the true RLDP; it certifies amplification over randomized response
    alone on most of the α range; it tightens as α grows."""
    alphas, bound, first, true = panel["alpha"], panel["bound"], panel["first"], panel["true"]
    beats = bound < first
    gap = bound - true
    item = f"Fig. 2({label}): {title}"
    return [
        check_claim(
            PAPER, item, "ε* = RLDP^(α) of the cascade ≤ φ(ε_f, α) (eq. 9, η_TV = 1)",
            bool(np.all(true <= bound + SLACK)),
            f"min φ − ε* = {gap.min():.4f} over {alphas.size} α in [{alphas[0]:.1f}, "
            f"{alphas[-1]:.0f}]",
        ),
        check_claim(
            PAPER, item,
            "the sparse channel amplifies privacy: φ < RLDP of P^(N)_{X|W} (on most α)",
            beats.mean() >= 0.5,
            f"φ < RR alone for α in {alpha_ranges(alphas, beats)} "
            f"({int(beats.sum())}/{alphas.size} grid points)",
        ),
        check_claim(
            PAPER, item, "the bound tightens as α grows",
            gap[-1] <= 0.5 * gap.max(),
            f"φ − ε* = {gap[-1]:.4f} at α = {alphas[-1]:.0f}, largest {gap.max():.4f} "
            f"at α = {alphas[int(np.argmax(gap))]:.2f}",
        ),
    ]


def plot_fig2(panels: dict[str, dict[str, np.ndarray]], path: Path) -> Path:
    """Fig. 2 (a)–(d), a 2 × 2 grid with the paper's panel captions."""
    plt = pyplot()
    fig, axes = plt.subplots(2, 2, figsize=(11.5, 8.6))
    for ax, (label, panel), (n, _, k, eps_name) in zip(axes.flat, panels.items(), FIG2_PANELS,
                                                       strict=True):
        alphas = panel["alpha"]
        style = {"ms": 3.5, "lw": 1.5, "markevery": max(1, alphas.size // 20)}
        ax.plot(alphas, panel["bound"], "C3o-", **style,
                label=r"bound $\varphi(\varepsilon_f, \alpha)$, eq. (9), $\eta_{\mathrm{TV}} = 1$")
        ax.plot(alphas, panel["first"], "C0s-", **style,
                label=r"RLDP of $P^{(N)}_{X|W}$ (previous bound)")
        ax.plot(alphas, panel["true"], "k^-", **style,
                label=r"true RLDP $\varepsilon^*$ of $Q^{(m,k)}_{Y|X} \circ P^{(N)}_{X|W}$")
        top = max(panel["bound"].max(), panel["first"].max())  # room for the legend
        ax.set(xlabel=r"$\alpha$", ylabel=r"$\mathrm{RLDP}^{(\alpha)}$ (nats)",
               xlim=(1, FIG2_ALPHA_MAX), ylim=(0, 1.45 * top))
        eps_tex = eps_name.replace("log", r"\log")
        ax.set_title(f"({label}) $N = {n}, \\varepsilon = {eps_tex}, k = {k}$"
                     + ("" if n % k == 0 else " (circulant channel)"), fontsize=11)
        ax.legend(fontsize=8, loc="upper right")
    fig.suptitle(r"$f_\alpha$ paper, Fig. 2: RLDP guarantees and the corresponding bounds "
                 "in Example 12", fontsize=12)
    fig.tight_layout()
    return save(fig, path)


def run_fig2(folder: Path, settings: Settings) -> ItemResult:
    """Fig. 2 (a)–(d): the RLDP amplification bound of Example 12 against α."""
    alphas = np.linspace(1.1, FIG2_ALPHA_MAX, 20 if settings.quick else 80)
    panels, checks, rows = {}, [], []
    for label, (n, epsilon, k, eps_name) in zip("abcd", FIG2_PANELS, strict=True):
        panel = fig2_panel(n, epsilon, k, alphas)
        panels[label] = panel
        checks += fig2_checks(label, panel, f"N = {n}, ε = {eps_name}, k = {k}")
        rows += [(label, n, epsilon, k, a, b, f, t) for a, b, f, t in zip(
            alphas, panel["bound"], panel["first"], panel["true"], strict=True)]
    files = [
        plot_fig2(panels, folder / "fig2_example12.png"),
        write_csv(folder / "fig2_example12.csv",
                   ("panel", "N", "epsilon", "k", "alpha", "bound_phi", "rldp_rr",
                    "rldp_cascade"), rows),
    ]
    return ItemResult(files=files, checks=checks)


# -- Examples ------------------------------------------------------------------------------


def example4_checks(rng: np.random.Generator) -> list[Check]:
    """Example 4: every block-diagonal channel (at least two blocks) has two rows of
    disjoint support, so Proposition 3 gives η_α = 1; η_χ² = 1 certifies it."""
    found = []
    for sizes in ((2, 3), (1, 2, 2), (3, 3), (4, 1)):
        n = sum(sizes)
        kernel = np.zeros((n, n))
        start = 0
        for size in sizes:
            block = rng.dirichlet(np.ones(size), size)
            kernel[start:start + size, start:start + size] = block
            start += size
        pair = md.bounds.disjoint_support_pair(kernel)
        chi2 = md.measures.chi_squared_contraction(kernel).lower_bound
        found.append((sizes, pair, chi2))
    return [check_claim(
        PAPER, "Example 4: block-diagonal channels",
        "any diag(B_1, …, B_m) satisfies η_α(P_{Y|X}, 𝒫_X) = 1 (Proposition 3)",
        all(pair is not None and math.isclose(chi2, 1.0, rel_tol=EXACT)
            for _, pair, chi2 in found),
        "; ".join(f"blocks {sizes}: disjoint rows {pair}, η_χ² = {chi2:.6f}"
                  for sizes, pair, chi2 in found),
    )]


def example5_checks() -> list[Check]:
    """Example 5: P is 3-singular with a complete confusion graph, Q is 2-singular with a
    disjoint pair; and the overstated claim for every k-singular channel with k ≤ N/2."""
    pair_p = md.bounds.disjoint_support_pair(EXAMPLE5_P)
    pair_q = md.bounds.disjoint_support_pair(EXAMPLE5_Q)
    fano = fano_plane_channel()
    fano_pair = md.bounds.disjoint_support_pair(fano)
    fano_eta = md.dobrushin_coefficient(fano)
    fano_ratio = fano_renyi_ratio(2.0, 1e-100)
    return [
        check_claim(
            PAPER, "Example 5: P and Q",
            "P is 3-singular and Q is 2-singular",
            is_k_singular(EXAMPLE5_P, 3) and is_k_singular(EXAMPLE5_Q, 2),
            "entries of P in {0, 1/3}, of Q in {0, 1/2}; row supports of size 3 and 2",
        ),
        check_claim(
            PAPER, "Example 5: P and Q",
            "the assertion of Proposition 3 applies to Q, but not to P",
            pair_q is not None and pair_p is None
            and bool(md.bounds.confusion_graph(EXAMPLE5_P).all()),
            f"Q: disjoint rows {pair_q}; P: none (confusion graph complete), "
            f"η_TV(P) = {md.dobrushin_coefficient(EXAMPLE5_P):.4f}",
        ),
        check_claim(
            PAPER, "Example 5: k-singular channels with k ≤ N/2",
            "by Example 4, any k-singular channel with k ≤ N/2 has η_α(P_{Y|X}, 𝒫_X) = 1",
            fano_ratio > 0.99,
            f"Fano-plane channel (N = 7, 3-singular, 3 ≤ 7/2, is k-singular "
            f"{is_k_singular(fano, 3)}): no two rows of disjoint support ({fano_pair}), yet "
            f"for α = 2 the Rényi ratio along P = δ_0, Q = (q, 1 − q) on two lines that meet "
            f"is {fano_ratio:.4f} at q = 1e-100 → 1; for α < 1 it is at most η_TV = "
            f"{fano_eta:.4f}",
            erratum="the conclusion holds for α > 1 (η_α = 1 also for the Fano-plane "
            "channel, whose rows all overlap: the ratio of Rényi divergences tends to 1), but "
            "not 'by Example 4', which covers block-diagonal channels only; for α ∈ (0, 1) "
            "it fails (η_α ≤ η_TV = 2/3) [docs/theorems.md, note on Example 5; "
            "tests/bounds/test_amplification.py::"
            "test_fano_plane_channel_does_not_contract_renyi_above_one]",
            kind=REASONING,
        ),
    ]


def fano_renyi_ratio(alpha: float, q: float) -> float:
    """``D_α(KP‖KQ)/D_α(P‖Q)`` for the Fano channel, ``P = δ_0``, ``Q = (q, 1 − q)`` on
    two lines that meet in one point: ``log(1/3 + (2/3) q^{1−α})/((α − 1) log(1/q))``
    (the outputs of line 0 get ``1/3``, ``q/3`` twice; the shared point ``1/3``),
    evaluated in logs so that ``q`` may be as small as ``1e-300``."""
    log_q = math.log(q)
    log_sum = np.logaddexp(math.log(1 / 3), math.log(2 / 3) + (1 - alpha) * log_q)
    return float(log_sum / ((alpha - 1) * -log_q))


def example12_checks(sizes: Sequence[int]) -> list[Check]:
    """Example 12: ``Γ_max(Y) = Γ_min(Y)^{-1} = 1 + (e^ε − 1)/k`` for each panel of
    Fig. 2, and ``Γ → 1``, ``ε* → 0`` as N grows with ``k/N = 1/m`` fixed."""
    checks = []
    for label, (n, epsilon, k, eps_name) in zip("abcd", FIG2_PANELS, strict=True):
        rr = md.randomized_response(n, epsilon)
        gamma_max, gamma_min = md.bounds.cross_channel_gamma(example12_channel(n, k), rr.matrix)
        printed = example12_gamma(epsilon, k)
        checks.append(check_claim(
            PAPER, f"Example 12, Fig. 2({label}): N = {n}, ε = {eps_name}, k = {k}",
            f"Γ_max(Y) = Γ_min(Y)^(-1) = 1 + (e^ε − 1)/k = {printed:g}",
            math.isclose(gamma_max, printed, rel_tol=EXACT)
            and math.isclose(1 / gamma_min, printed, rel_tol=EXACT),
            f"Γ_max = {gamma_max:.12f}, 1/Γ_min = {1 / gamma_min:.12f}",
        ))
    epsilon, m, alpha = math.log(10), 2, 2.0
    gammas, levels = [], []
    for n in sizes:
        rr = md.randomized_response(n, epsilon)
        channel = md.bounds.block_uniform_channel(n, n // m)
        gammas.append(md.bounds.cross_channel_gamma(channel, rr.matrix)[0])
        levels.append(md.measures.renyi_ldp_level(rr.then(channel), alpha))
    printed = [example12_gamma(epsilon, n // m) for n in sizes]
    checks.append(check_claim(
        PAPER, "Example 12: N → ∞ with m = N/k = 2, ε = log 10",
        "Γ_max(Y) = 1 + m(e^ε − 1)/N → 1 and ε* = RLDP^(α)(Q ∘ P) → 0 (α = 2)",
        all(math.isclose(g, p, rel_tol=EXACT) for g, p in zip(gammas, printed, strict=True))
        and all(b < a for a, b in itertools.pairwise(levels)),
        "N = " + ", ".join(map(str, sizes)) + ": Γ_max = "
        + ", ".join(f"{g:.4f}" for g in gammas) + "; ε* = "
        + ", ".join(f"{v:.4f}" for v in levels),
    ))
    return checks


def run_examples(folder: Path, settings: Settings) -> ItemResult:
    """Examples 4, 5 and 12 as checks (no files)."""
    rng = np.random.default_rng(settings.seed)
    sizes = (10, 20, 40) if settings.quick else (10, 20, 40, 80, 160)
    return ItemResult(checks=example4_checks(rng) + example5_checks() + example12_checks(sizes))


# -- Eq. (1), Theorem 6, Remarks 7 and 10 ----------------------------------------------------


def equation1_checks() -> list[Check]:
    """Eq. (1): correct as printed for α > 1, wrong in sign for α < 1."""
    p, q = [0.2, 0.8], [0.6, 0.4]
    above = [(a, renyi_from_f_alpha_printed(md.measures.f_alpha_divergence(p, q, a), a),
              md.renyi_divergence(p, q, a)) for a in (1.5, 2.0, 4.0)]
    printed_half = renyi_from_f_alpha_printed(md.measures.f_alpha_divergence(p, q, 0.5), 0.5)
    true_half = md.renyi_divergence(p, q, 0.5)
    return [
        check_claim(
            PAPER, "Eq. (1), α > 1: P = (0.2, 0.8), Q = (0.6, 0.4)",
            "D_α(P‖Q) = log(D_{f_α}(P‖Q) + 1)/(α − 1)",
            all(math.isclose(x, y, rel_tol=EXACT) for _, x, y in above),
            "; ".join(f"α = {a}: {x:.4f} vs D_α = {y:.4f}" for a, x, y in above),
        ),
        check_claim(
            PAPER, "Eq. (1), α = 1/2: P = (0.2, 0.8), Q = (0.6, 0.4)",
            f"D_α(P‖Q) = log(D_{{f_α}}(P‖Q) + 1)/(α − 1) = {printed_half:.4f}",
            math.isclose(printed_half, true_half, rel_tol=EXACT),
            f"D_α = {true_half:.4f} = log(1 − D_{{f_α}})/(α − 1)",
            erratum="printed log(D_{f_α} + 1)/(α − 1) for every α; for α < 1 "
            "(f_α = 1 − t^α) correct log(1 − D_{f_α})/(α − 1) [tests/measures/test_divergences.py::"
            "test_printed_transform_is_wrong_below_one; docstring of "
            "md.measures.renyi_from_f_alpha]",
        ),
    ]


def theorem6_checks(rng: np.random.Generator, size: int) -> list[Check]:
    """Theorem 6 on random pairs, with ``Γ_max``, ``Γ_min`` the pair's own extreme
    likelihood ratios (𝒫 = {P, Q})."""
    worst, transcription = 0.0, 0.0
    for alpha in (1.5, 2.0, 4.0):
        for p, q in zip(rng.dirichlet(np.ones(4), size), rng.dirichlet(np.ones(4), size),
                        strict=True):
            ratios = np.concatenate([p / q, q / p])
            u, v = float(ratios.max()), float(ratios.min())
            r = md.measures.reverse_pinsker_f_alpha(u, v, alpha)
            transcription = max(transcription, abs(r - r_alpha_printed(u, v, alpha)) / r)
            worst = max(worst, md.measures.f_alpha_divergence(p, q, alpha)
                        / (md.total_variation(p, q) * r))
    return [check_claim(
        PAPER, "Theorem 6: random pairs on 4 points, α = 1.5, 2, 4",
        "D_{f_α}(P‖Q) ≤ TV(P‖Q) R_α(Γ_max, Γ_min)",
        worst <= 1 + EXACT and transcription <= 1e-8,
        f"{3 * size} pairs, max D_{{f_α}} / (TV R_α) = 1 − {1 - worst:.1e}; "
        f"md.measures.reverse_pinsker_f_alpha = printed R_α to {transcription:.0e}",
    )]


def remark7_checks() -> list[Check]:
    """Remark 7: ``(1/(α − 1)) log R_α(Γ_max, Γ_min) → log Γ_max`` as α → ∞."""
    gamma = 1.5
    errors = [(a, math.log(md.measures.reverse_pinsker_f_alpha(gamma, 1 / gamma, a)) / (a - 1)
               - math.log(gamma)) for a in (10.0, 100.0, 1000.0)]
    return [check_claim(
        PAPER, "Remark 7: Γ_max = 1.5, Γ_min = 1/1.5",
        "lim_{α→∞} log R_α(Γ_max, Γ_min)/(α − 1) = log Γ_max",
        all(b < a for (_, a), (_, b) in itertools.pairwise(errors)) and errors[-1][1] < 2e-3,
        "difference " + ", ".join(f"{e:.4f} (α = {a:g})" for a, e in errors),
    )]


def _first_branch_end(alpha: float) -> float:
    """``g_α(1/α⁻)``, where Theorem 8's first branch ends (the library's threshold)."""
    return float(md.measures.pinsker_f_alpha(np.nextafter(1 / alpha, 0.0), alpha))


def remark10_checks() -> list[Check]:
    """Remark 10: ``h_2`` is the end of ``g_α``'s first branch for α ≥ 2; ``h_1 = 2 − 2/α``
    is not (it lies inside the jump), so the printed inverse is loose there."""
    h2 = [(a, (1 + 4 / a**2) ** (a - 1) - 1, _first_branch_end(a)) for a in (2.0, 3.0, 10.0)]
    alpha, s = 1.5, 0.6
    h1, end = 2 - 2 / alpha, _first_branch_end(alpha)
    return [
        check_claim(
            PAPER, "Remark 10: h_2(α), α = 2, 3, 10",
            "h_2(α) = (1 + 4α^(−2))^(α−1) − 1 ends the second branch of g_α^(−1)",
            all(math.isclose(x, y, rel_tol=EXACT) for _, x, y in h2),
            "; ".join(f"α = {a:g}: h_2 = {x:.4f}, g_α(1/α⁻) = {y:.4f}" for a, x, y in h2),
        ),
        check_claim(
            PAPER, "Remark 10: h_1(α), α = 1.5",
            f"h_1(α) = 2 − 2/α = {h1:.4f} ends the first branch of g_α^(−1)",
            math.isclose(h1, end, rel_tol=EXACT),
            f"g_α(1/α⁻) = e^(2(α−1)/α²) − 1 = {end:.4f}; at s = {s}: printed inverse "
            f"{g_alpha_inverse_printed(s, alpha):.4f}, generalised inverse "
            f"{md.measures.pinsker_f_alpha_inverse(s, alpha):.4f}",
            erratum="printed h_1 = 2 − 2/α; correct g_α(1/α⁻) = e^(2(α−1)/α²) − 1 (α = 1.5: "
            "0.5596); the printed inverse is valid but loose [tests/measures/test_pinsker.py::"
            "test_remark_10_printed_h1_is_valid_but_loose]",
        ),
    ]


def plot_remark10(path: Path, alpha: float = 1.5) -> Path:
    """``g_α^{-1}(s)`` as Remark 10 prints it against the generalised inverse
    (:func:`mechdesign.measures.pinsker_f_alpha_inverse`), α = 1.5."""
    plt = pyplot()
    s = np.linspace(0.0, 1.2, 1201)
    printed = [g_alpha_inverse_printed(x, alpha) for x in s]
    exact = md.measures.pinsker_f_alpha_inverse(s, alpha)
    lo, hi, h1 = _first_branch_end(alpha), g_alpha_printed(1 / alpha, alpha), 2 - 2 / alpha
    fig, ax = plt.subplots(figsize=(7.2, 4.6))
    ax.axvspan(lo, hi, color="0.9", label=r"jump of $g_\alpha$ at $t = 1/\alpha$")
    ax.plot(s, printed, "C3", lw=2, label=r"Remark 10 as printed ($h_1 = 2 - 2/\alpha$)")
    ax.plot(s, exact, "k--", lw=1.5,
            label=r"generalised inverse $\sup\{t : g_\alpha(t) \leq s\}$ (mechdesign)")
    ax.axvline(h1, color="C3", ls=":", lw=1)
    ax.annotate(r"$h_1$", (h1, 0.05), xytext=(4, 0), textcoords="offset points", color="C3")
    ax.axvline(lo, color="k", ls=":", lw=1)
    ax.annotate(r"$g_\alpha(1/\alpha^-)$", (lo, 0.05), xytext=(-62, 0),
                textcoords="offset points")
    ax.set(xlabel=r"$s = D_{f_\alpha}$", ylabel=r"$g_\alpha^{-1}(s)$ (bound on TV)",
           xlim=(0, s[-1]), ylim=(0, 0.85))
    ax.set_title(r"$f_\alpha$ paper, Remark 10 ($\alpha = 1.5$): the printed inverse "
                 "(erratum in $h_1$)\n(not a figure of the paper)", fontsize=11)
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    return save(fig, path)


def run_remarks(folder: Path, settings: Settings) -> ItemResult:
    """Eq. (1), Theorem 6, Remarks 7 and 10 as checks, with a plot of Remark 10's inverse."""
    rng = np.random.default_rng(settings.seed)
    checks = (equation1_checks() + theorem6_checks(rng, 100 if settings.quick else 1000)
              + remark7_checks() + remark10_checks())
    return ItemResult(files=[plot_remark10(folder / "remark10_inverse.png")], checks=checks)


ITEMS: tuple[Item, ...] = (
    Item(PAPER, "Fig. 1", run_fig1),
    Item(PAPER, "Fig. 2", run_fig2),
    Item(PAPER, "Examples", run_examples),
    Item(PAPER, "Eq. (1), Theorem 6, Remarks 7 and 10", run_remarks),
)
