"""Sublinear utilities ``U(K) = Σ_y μ(K[:, y])``: what a design maximises.

A utility owns its column function ``μ`` (used by the vertex LP and by column
generation's pricing) and computes ``U(K)`` of a whole mechanism by an independent code
path (:mod:`mechdesign.measures.leakage`, :mod:`mechdesign.measures.divergences`), which the
design's
evidence compares with the LP's value.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mechdesign._tolerances import VERTEX_FEASIBILITY_ATOL
from mechdesign._validation import (
    as_distribution,
    as_float_array,
    show,
)
from mechdesign.errors import InvalidInputError
from mechdesign.kernel import Mechanism, as_matrix
from mechdesign.measures.divergences import KL, FGenerator, f_divergence
from mechdesign.measures.leakage import (
    bayes_vulnerability,
    check_gain,
    g_vulnerability,
    mutual_information,
)

__all__ = [
    "FDivergenceUtility",
    "GainUtility",
    "MutualInformationUtility",
    "Utility",
    "mutual_information_columns",
]


def check_columns(columns: ArrayLike, n: int) -> NDArray[np.float64]:
    """The ``columns`` argument of a utility's public ``column_values``: a finite,
    non-negative 2-D array with ``n`` entries per row (a column of a mechanism)."""
    if isinstance(columns, np.ndarray) and columns.shape == (0, n):
        return columns.astype(float)  # no columns: no values (column generation's empty set)
    v = as_float_array(columns, "columns", ndim=2)
    if v.shape[1] != n:
        raise InvalidInputError(
            f"columns must have {n} entries per row (one per input); got shape {v.shape}."
        )
    # Vertex backends leave rounding-size negatives (−4e-15 from cddlib): those pass.
    if np.any(v < -VERTEX_FEASIBILITY_ATOL * max(1.0, float(np.abs(v).max()))):
        raise InvalidInputError(
            f"columns must be non-negative; its smallest entry is {show(v.min())}."
        )
    if v.shape[0] and np.any(v.max(axis=1) <= 0):
        row = int(np.argmin(v.max(axis=1)))
        raise InvalidInputError(
            f"columns must each have a positive entry (a column of a mechanism that some "
            f"input produces); column {row} is all zero.")
    return v


def _kernel_rows(kernel: Mechanism | ArrayLike, n: int) -> NDArray[np.float64]:
    k = as_matrix(kernel)
    if k.shape[0] != n:
        raise InvalidInputError(
            f"kernel must have {n} rows (the utility's inputs); got shape {k.shape}."
        )
    return k


def mutual_information_columns(prior: NDArray[np.float64], columns: NDArray) -> NDArray:
    """``μ(v) = Σ_x P_x v_x log(v_x / P·v)`` for every row ``v`` (``0 log 0 = 0``).

    The hot path of the vertex LP and of pricing: it trusts its inputs (a validated prior,
    non-negative columns); :class:`MutualInformationUtility` validates the prior once.

    Parameters
    ----------
    prior : ndarray, shape (N,)
        The prior ``P``, a probability vector (not validated here).
    columns : ndarray, shape (k, N)
        The columns ``v``, one per row, non-negative (not validated here).

    Returns
    -------
    ndarray, shape (k,)
        ``μ(v)`` of each row, in nats.
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


class Utility(ABC):
    """A column-wise sublinear utility ``U(K) = Σ_y μ(K[:, y])``: an abstract base class.

    A subclass defines ``name``, the number of inputs :attr:`n`, the column function
    :meth:`column_values` (convex and positively homogeneous, so that the optimum sits on
    the section's vertices: Kairouz, Oh & Viswanath, JMLR 2016, Thm. 4) and :meth:`of`,
    ``U(K)`` by a code path independent of ``μ`` (the design's evidence compares the two);
    and :attr:`prior` when the utility is taken under one.

    Attributes
    ----------
    name : str
        What the utility is called in reports.
    prior : ndarray of shape (N,) or None
        The input distribution the utility is taken under (what a pricing source prices
        with, :meth:`~mechdesign.optimal.sources.PricingSource.supports`), or ``None``
        (the default) for a utility without one, such as :class:`FDivergenceUtility`
        between two hypotheses.
    """

    name: str
    prior: NDArray[np.float64] | None = None

    @property
    @abstractmethod
    def n(self) -> int:
        """Number of inputs N."""

    @abstractmethod
    def column_values(self, columns: NDArray[np.float64]) -> NDArray[np.float64]:
        """``μ(v)`` for every row ``v`` of ``columns`` (shape (k, N)) → shape (k,)."""

    @abstractmethod
    def of(self, kernel: Mechanism) -> float:
        """``U(K)`` computed from the mechanism by an independent code path."""


@dataclass(frozen=True, eq=False)
class MutualInformationUtility(Utility):
    """Mutual information ``I(X; Y)`` for a prior ``P``, in nats.

    .. math::

        \\mu(v) = \\sum_x P(x)\\, v_x \\log \\frac{v_x}{P \\cdot v},

    sublinear in ``v`` (the perspective of a convex function); terms with
    ``P(x) v_x = 0`` are 0, and ``μ(v) = 0`` when ``P·v = 0``.

    Parameters
    ----------
    prior : array_like, shape (N,)
        The prior ``P`` of the input: a probability vector (validated).
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
        return mutual_information_columns(self.prior, check_columns(columns, self.n))

    def of(self, kernel: Mechanism) -> float:
        """The utility of a whole mechanism, computed independently of the columns."""
        return mutual_information(_kernel_rows(kernel, self.n), self.prior)


@dataclass(frozen=True, eq=False)
class FDivergenceUtility(Utility):
    """The f-divergence between the output distributions of two hypotheses,
    ``D_f(K∘P0 ‖ K∘P1)`` (Kairouz, Oh & Viswanath [1]_, Sec. 3: hypothesis
    testing utilities). Column-wise it is the perspective of ``f``,

    .. math::

        \\mu(v) = (P_1 \\cdot v)\\, f\\!\\left(\\frac{P_0 \\cdot v}{P_1 \\cdot v}\\right),

    with ``μ(v) = (P_1·v) f(0^+)`` when ``P_0·v = 0`` and ``(P_0·v) f'(∞)`` when
    ``P_1·v = 0`` (the conventions of :func:`~mechdesign.measures.divergences.f_divergence`).

    Parameters
    ----------
    p0 : array_like, shape (N,)
        The input distribution under the first hypothesis: a probability vector.
    p1 : array_like, shape (N,)
        The input distribution under the second hypothesis, on the same ``N`` inputs.
    f : FGenerator, default KL
        The generator of the divergence (:data:`~mechdesign.measures.divergences.KL`,
        ``CHI_SQUARED``, ``f_alpha_generator(alpha)``, ...); it also names the utility.

    References
    ----------
    .. [1] P. Kairouz, S. Oh, P. Viswanath, "Extremal Mechanisms for Local Differential
       Privacy", Journal of Machine Learning Research 17(17):1-51, 2016,
       https://jmlr.org/papers/v17/15-135.html.
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
        if not isinstance(self.f, FGenerator):
            raise InvalidInputError(
                f"f must be an FGenerator (such as md.measures.KL, md.measures.CHI_SQUARED or "
                f"md.measures.f_alpha_generator(alpha)); got {show(self.f)}."
            )
        object.__setattr__(self, "name", f"{self.f.name} divergence")

    @property
    def n(self) -> int:
        return int(self.p0.shape[0])

    def column_values(self, columns: NDArray[np.float64]) -> NDArray[np.float64]:
        """``μ(v)`` for every row ``v`` of ``columns`` (see :class:`Utility`)."""
        v = check_columns(columns, self.n)
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
        k = _kernel_rows(kernel, self.n)
        # Output distributions computed here (not a user's input): normalised once, so
        # that a float32 kernel's row sums (1 ± 1e-7) do not fail f_divergence's check.
        q0, q1 = self.p0 @ k, self.p1 @ k
        return f_divergence(q0 / q0.sum(), q1 / q1.sum(), self.f)


@dataclass(frozen=True, eq=False)
class GainUtility(Utility):
    """Posterior g-vulnerability for a prior ``P`` and a gain matrix ``g`` of shape
    ``(W, N)`` (guesses ``w``, inputs ``x``):

    .. math::

        U(K) = V_g(P, K) = \\sum_y \\max_w \\sum_x P(x)\\, g[w, x]\\, K[x, y],
        \\qquad \\mu(v) = \\max_w\\, a_w \\cdot v, \\quad a_w = P \\circ g[w]

    (Alvim, Chatzikokolakis, Palamidessi & Smith [1]_; libqif's ``g_vuln``). ``μ``
    is a maximum of linear functions, hence convex and positively homogeneous —
    sublinear — so by Kairouz, Oh & Viswanath's theorem [2]_ (Thm. 4) the optimum
    over a ratio cone's mechanisms is attained by columns on the vertices of its
    normalised section, and :func:`~mechdesign.optimal.design` applies unchanged.

    ``GainUtility.bayes(prior)`` is ``g = I``: Bayes vulnerability, the probability that
    the MAP guess of ``X`` from ``Y`` is right (``design(..., utility="bayes")``);
    ``GainUtility.from_loss(loss, prior)`` is ``g = max(L) − L``, so maximising it
    minimises the expected loss ``max(L) − V_g`` of the best guess.

    Parameters
    ----------
    gain : array_like, shape=(W, N)
        Finite gains; any sign.
    prior : array_like, shape=(N,)
        The prior ``P`` of the input: a probability vector.
    name : str, default "g-vulnerability"
        The utility's name in reports (``Design.utility_name``); must be a string.

    References
    ----------
    .. [1] M. S. Alvim, K. Chatzikokolakis, C. Palamidessi, G. Smith, "Measuring Information
       Leakage Using Generalized Gain Functions", IEEE Computer Security Foundations
       Symposium (CSF) 2012, doi:10.1109/CSF.2012.26.
    .. [2] P. Kairouz, S. Oh, P. Viswanath, "Extremal Mechanisms for Local Differential
       Privacy", Journal of Machine Learning Research 17(17):1-51, 2016,
       https://jmlr.org/papers/v17/15-135.html.
    """

    gain: NDArray[np.float64]
    prior: NDArray[np.float64]
    name: str = "g-vulnerability"

    def __post_init__(self) -> None:
        prior = as_distribution(self.prior, "prior")
        object.__setattr__(self, "prior", prior)
        object.__setattr__(self, "gain", check_gain(self.gain, prior.shape[0]))
        if not isinstance(self.name, str):
            raise InvalidInputError(f"name must be a string; got {show(self.name)}.")

    @classmethod
    def bayes(cls, prior: ArrayLike) -> GainUtility:
        """Bayes vulnerability: ``g = I`` (one guess per input)."""
        p = as_distribution(prior, "prior")
        return cls(np.eye(p.shape[0]), p, name="Bayes vulnerability")

    @classmethod
    def from_loss(cls, loss: ArrayLike, prior: ArrayLike) -> GainUtility:
        """The gain ``g = max(L) − L`` of a loss matrix ``L[w, x]`` (shape (W, N))."""
        p = as_distribution(prior, "prior")
        lo = check_gain(loss, p.shape[0], "loss")
        return cls(lo.max() - lo, p, name="g-vulnerability (from a loss)")

    @property
    def n(self) -> int:
        return int(self.prior.shape[0])

    @property
    def weights(self) -> NDArray[np.float64]:
        """``a[w, x] = P(x) g[w, x]``, shape (W, N)."""
        return self.gain * self.prior[None, :]

    @property
    def is_bayes(self) -> bool:
        """Whether the gain is the identity (Bayes vulnerability)."""
        w, n = self.gain.shape
        return w == n and bool(np.array_equal(self.gain, np.eye(n)))

    def column_values(self, columns: NDArray[np.float64]) -> NDArray[np.float64]:
        """``μ(v) = max_w a_w·v`` for every row ``v`` of ``columns``."""
        v = check_columns(columns, self.n)
        return np.max(v @ self.weights.T, axis=1)

    def of(self, kernel: Mechanism) -> float:
        """``V_g(P, K)`` through the posteriors
        (:func:`~mechdesign.measures.leakage.g_vulnerability`;
        :func:`~mechdesign.measures.leakage.bayes_vulnerability` for ``g = I``)."""
        k = _kernel_rows(kernel, self.n)
        if self.is_bayes:
            return bayes_vulnerability(k, self.prior)
        return g_vulnerability(k, self.prior, self.gain)
