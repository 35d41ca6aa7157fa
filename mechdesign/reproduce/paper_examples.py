"""Kernels printed in the papers, as exact :class:`~mechdesign.kernel.Mechanism` objects.

Each entry names its paper and equation. They power ``mechdesign demo``, the notebooks
and the documentation; the tests check each against the values its paper prints.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mechdesign.kernel import Mechanism

__all__ = ["PAPER_EXAMPLES", "PaperExample"]


@dataclass(frozen=True)
class PaperExample:
    """A kernel from a paper, with the prior and (ε,c) parameters the paper uses.

    Parameters
    ----------
    name : str
        The key in :data:`PAPER_EXAMPLES`, e.g. ``"dobrushin-example2-K1"``.
    source : str
        Where the paper prints it (paper, example, equation) and its privacy levels:
        the Dobrushin paper [1]_, the f_α paper [2]_, the envelope paper [3]_ or the
        robust-LDP paper [4]_.
    mechanism : Mechanism, shape (N, M)
        The kernel, rows are inputs (the robust-LDP paper's column orientation
        converted).
    prior : ndarray, shape (N,)
        The prior the paper uses (uniform where it states none; the source says so).
    c : float or None, default None
        The ``c`` of ``(ε, c)``-PML the paper pairs with the kernel, if any.

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Dobrushin Coefficients of
       Private Mechanisms Beyond Local Differential Privacy", 2026, arXiv:2601.09498.
    .. [2] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Bounds on the Privacy
       Amplification of Arbitrary Channels via the Contraction of f_α-Divergence",
       Allerton Conference 2025, arXiv:2501.11473.
    .. [3] S. Saeidian, C. Pinzón, C. Palamidessi, "Information Leakage Envelopes", 2026,
       arXiv:2605.21185.
    .. [4] M. Lopuhaä-Zwakenberg, J. Goseling, "Mechanisms for Robust Local Differential
       Privacy", Entropy 26(3):233, 2024, doi:10.3390/e26030233.
    """

    name: str
    source: str
    mechanism: Mechanism
    prior: np.ndarray
    c: float | None = None


def _uniform(n: int) -> np.ndarray:
    return np.full(n, 1.0 / n)


def _dobrushin_k1_example2() -> Mechanism:
    # eq. (43): five rows [15/16, 1/16], five rows [1/16, 15/16]. The printed "1/15" in
    # the sixth entry of the first row is a typo: rows must sum to one.
    hi, lo = 15 / 16, 1 / 16
    return Mechanism([[hi, lo]] * 5 + [[lo, hi]] * 5)


def _dobrushin_k2_example2() -> Mechanism:
    # eq. (44): circulant, each row three 1/3s.
    row = np.array([1, 1, 1, 0, 0]) / 3
    return Mechanism(np.array([np.roll(row, i) for i in range(5)]))


def _dobrushin_k1_eq4() -> Mechanism:
    t = 1 / 3
    return Mechanism([[t, t, t, 0], [0, t, t, t], [t, 0, t, t], [t, t, 0, t]])


def _envelope_example1() -> Mechanism:
    # eq. (7)
    return Mechanism([[0, 0, 0.5, 0.5], [0, 0, 0.5, 0.5], [0, 0.2, 0.4, 0.4], [0.2, 0, 0.4, 0.4]])


def _envelope_example3() -> Mechanism:
    return Mechanism([[0.9, 0, 0.1], [0, 0.9, 0.1]])


def _robust_ldp_srr_example4() -> Mechanism:
    # Robust-LDP paper, Example 4: SRR for ε = log 2, |S| = |U| = 2, printed in the
    # paper's column orientation Q[y, x] (it is symmetric, so both orientations agree).
    a, b, c = 4 / 9, 1 / 9, 2 / 9
    q = [[a, b, c, c], [b, a, c, c], [c, c, a, b], [c, c, b, a]]
    return Mechanism.from_columns(q)


def _falpha_three_singular() -> Mechanism:
    # f_α paper, Example 5: the 3-singular channel P (complete confusion graph).
    t = 1 / 3
    return Mechanism([[t, t, t, 0], [t, t, 0, t], [t, 0, t, t], [0, t, t, t]])


PAPER_EXAMPLES: dict[str, PaperExample] = {
    example.name: example
    for example in (
        PaperExample(
            "dobrushin-example2-K1",
            "Dobrushin paper, Example 2, eq. (43): (log 10/3, 0.05)-PML, log 15-LDP",
            _dobrushin_k1_example2(),
            _uniform(10),
            c=0.05,
        ),
        PaperExample(
            "dobrushin-example2-K2",
            "Dobrushin paper, Example 2, eq. (44): (log 10/3, 0.1)-PML, no finite LDP",
            _dobrushin_k2_example2(),
            _uniform(5),
            c=0.1,
        ),
        PaperExample(
            "dobrushin-eq4-K1",
            "Dobrushin paper, eq. (4): infinite LDP, finite PML",
            _dobrushin_k1_eq4(),
            _uniform(4),
            c=0.25,
        ),
        PaperExample(
            "envelope-example1",
            "Envelope paper, Example 1, eq. (7), uniform prior",
            _envelope_example1(),
            _uniform(4),
        ),
        PaperExample(
            "robust-ldp-example4-SRR",
            "Robust-LDP paper, Example 4: SRR, ε = log 2, |S| = |U| = 2 (prior: ours, uniform)",
            _robust_ldp_srr_example4(),
            _uniform(4),
        ),
        PaperExample(
            "falpha-example5-P",
            "f_α paper, Example 5: 3-singular channel P (prior: ours, uniform)",
            _falpha_three_singular(),
            _uniform(4),
            c=0.25,
        ),
        PaperExample(
            "envelope-example3",
            "Envelope paper, Example 3, unbiased Bernoulli prior",
            _envelope_example3(),
            _uniform(2),
        ),
    )
}
