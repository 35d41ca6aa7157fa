"""Sublinear utilities ``U(K) = Σ_y μ(K[:, y])``: what a design maximises.

A utility owns its column function ``μ`` (used by the vertex LP and by column
generation's pricing) and computes ``U(K)`` of a whole mechanism by an independent code
path (:mod:`mechdesign.leakage`, :mod:`mechdesign.divergences`), which the design's
evidence compares with the LP's value.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from mechdesign._numerics import (
    as_distribution,
)
from mechdesign.divergences import KL, FGenerator, f_divergence
from mechdesign.kernel import Mechanism
from mechdesign.leakage import mutual_information

__all__ = [
    "FDivergenceUtility",
    "MutualInformationUtility",
    "Utility",
    "mutual_information_columns",
]


def mutual_information_columns(prior: NDArray[np.float64], columns: NDArray) -> NDArray:
    """``μ(v) = Σ_x P_x v_x log(v_x / P·v)`` for every row ``v`` (``0 log 0 = 0``).

    The hot path of the vertex LP and of pricing: it trusts its inputs (a validated prior,
    non-negative columns); :class:`MutualInformationUtility` validates the prior once.
    """
    v = np.asarray(columns, dtype=float)
    p_y = v @ prior
    weighted = v * prior
    positive = weighted > 0
    log_ratio = np.zeros_like(v)
    log_ratio[positive] = np.log(v[positive]) - np.log(
        np.broadcast_to(p_y[:, None], v.shape)[positive]
    )
    return np.sum(weighted * log_ratio, axis=1)


class Utility(Protocol):
    """A column-wise sublinear utility ``U(K) = Σ_y μ(K[:, y])``."""

    name: str

    @property
    def n(self) -> int:
        """Number of inputs N."""

    def column_values(self, columns: NDArray[np.float64]) -> NDArray[np.float64]:
        """``μ(v)`` for every row ``v`` of ``columns`` (shape (k, N)) → shape (k,)."""

    def of(self, kernel: Mechanism) -> float:
        """``U(K)`` computed from the mechanism by an independent code path."""


@dataclass(frozen=True, eq=False)
class MutualInformationUtility:
    """Mutual information ``I(X; Y)`` for a prior ``P``, in nats.

    .. math::

        \\mu(v) = \\sum_x P(x)\\, v_x \\log \\frac{v_x}{P \\cdot v},

    sublinear in ``v`` (the perspective of a convex function); terms with
    ``P(x) v_x = 0`` are 0, and ``μ(v) = 0`` when ``P·v = 0``.
    """

    prior: NDArray[np.float64]
    name: str = field(default="mutual information", init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "prior", as_distribution(self.prior, "prior"))

    @property
    def n(self) -> int:
        return int(self.prior.shape[0])

    def column_values(self, columns: NDArray[np.float64]) -> NDArray[np.float64]:
        """``μ(v)`` for every row ``v`` of ``columns`` (see :class:`Utility`)."""
        return mutual_information_columns(self.prior, columns)

    def of(self, kernel: Mechanism) -> float:
        """The utility of a whole mechanism, computed independently of the columns."""
        return mutual_information(kernel, self.prior)


@dataclass(frozen=True, eq=False)
class FDivergenceUtility:
    """The f-divergence between the output distributions of two hypotheses,
    ``D_f(K∘P0 ‖ K∘P1)`` (Kairouz, Oh & Viswanath, JMLR 2016, Sec. 3: hypothesis
    testing utilities). Column-wise it is the perspective of ``f``,

    .. math::

        \\mu(v) = (P_1 \\cdot v)\\, f\\!\\left(\\frac{P_0 \\cdot v}{P_1 \\cdot v}\\right),

    with ``μ(v) = (P_1·v) f(0^+)`` when ``P_0·v = 0`` and ``(P_0·v) f'(∞)`` when
    ``P_1·v = 0`` (the conventions of :func:`~mechdesign.divergences.f_divergence`).
    """

    p0: NDArray[np.float64]
    p1: NDArray[np.float64]
    f: FGenerator = KL
    name: str = field(default="f-divergence", init=False)

    def __post_init__(self) -> None:
        p0 = as_distribution(self.p0, "p0")
        p1 = as_distribution(self.p1, "p1", p0.shape[0])
        object.__setattr__(self, "p0", p0)
        object.__setattr__(self, "p1", p1)
        object.__setattr__(self, "name", f"{self.f.name} divergence")

    @property
    def n(self) -> int:
        return int(self.p0.shape[0])

    def column_values(self, columns: NDArray[np.float64]) -> NDArray[np.float64]:
        """``μ(v)`` for every row ``v`` of ``columns`` (see :class:`Utility`)."""
        v = np.asarray(columns, dtype=float)
        a = v @ self.p0
        b = v @ self.p1
        out = np.zeros(v.shape[0])
        both = (a > 0) & (b > 0)
        out[both] = b[both] * self.f.f(a[both] / b[both])
        only_b = (a == 0) & (b > 0)
        out[only_b] = b[only_b] * self.f.f_at_zero
        only_a = (a > 0) & (b == 0)
        if np.any(only_a):
            out[only_a] = a[only_a] * self.f.slope_at_infinity
        return out

    def of(self, kernel: Mechanism) -> float:
        """The utility of a whole mechanism, computed independently of the columns."""
        k = kernel.matrix
        return f_divergence(self.p0 @ k, self.p1 @ k, self.f)
