"""Composition of finite kernels: tight accounting by dp_accounting over their
dominating pair.

Composing ``n`` uses of a kernel needs its *dominating pair* ``(P, Q)``, whose
hockey-stick curve is the kernel's privacy profile at every ε (Zhu, Dong & Wang [1]_,
Def. 7 and Thm. 10); :mod:`mechdesign.accounting.tradeoff` builds it
(:func:`~mechdesign.accounting.tradeoff.dominating_pair`, from the kernel's trade-off
curve, Dong, Roth & Su [2]_).

**Composition** (:func:`composed_epsilon`, :func:`composed_delta`). The pair's privacy
loss distribution (:func:`privacy_loss_distribution`) is built and composed by Google's
``dp_accounting`` (``PrivacyLossDistribution``), with pessimistic discretisation [4]_ of the
loss onto a grid of :data:`DISCRETIZATION` nats, so the reported values are upper bounds
that converge to the tight ones as the grid shrinks. Beside them the result carries
basic composition (``Σ LDP(K_i)``, pure) and the advanced composition theorem (Dwork,
Rothblum & Vadhan [3]_, Thm. III.3: ``ε' = √(2 ln(1/δ) Σ ε_i²) + Σ ε_i (e^{ε_i}
− 1)`` for pure ``ε_i``-DP uses), so a user sees what tight accounting buys. All three
are upper bounds for the same guarantee, ``(ε, δ)``-DP between any two inputs, so the
reported value is the smallest of them and ``method`` says which won: the pessimistic
grid adds up to about ``n ×`` :data:`DISCRETIZATION` to the tight ε, and at a small δ,
where the tight ε is within that of ``Σ LDP(K_i)``, basic composition is the smaller.

**PML.** For PML under a known prior the library gives the envelope paper's [5]_ chain-rule
bound on the PML envelope of ``n`` uses (:func:`pml_composition_bound`, by
:func:`~mechdesign.bounds.leakage_composition.composition_envelope_bound`); it has no
composition result for ``(ε, c)``-PML, and :func:`composed_epsilon` refuses PML notions
with that message.

References
----------
.. [1] Y. Zhu, J. Dong, Y.-X. Wang, "Optimal Accounting of Differential Privacy via
   Characteristic Function", AISTATS 2022, arXiv:2106.08567.
.. [2] J. Dong, A. Roth, W. J. Su, "Gaussian Differential Privacy", Journal of the Royal
   Statistical Society Series B, 2022, arXiv:1905.02383.
.. [3] C. Dwork, G. N. Rothblum, S. Vadhan, "Boosting and Differential Privacy", FOCS 2010,
   https://people.seas.harvard.edu/~salil/research/PrivateBoosting-abs.html.
.. [4] V. Doroshenko, B. Ghazi, P. Kamath, R. Kumar, P. Manurangsi, "Connect the Dots:
   Tighter Discrete Approximations of Privacy Loss Distributions", PETS 2022,
   arXiv:2207.04380.
.. [5] S. Saeidian, C. Pinzón, C. Palamidessi, "Information Leakage Envelopes", 2026,
   arXiv:2605.21185.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mechdesign._tolerances import STOCHASTIC_ATOL
from mechdesign._validation import (
    as_distribution,
    as_real,
    as_stochastic_matrix,
    check_epsilon,
    check_positive_int,
    check_real,
    show,
)
from mechdesign.accounting.tradeoff import DominatingPair, dominating_pair, tradeoff_curve
from mechdesign.bounds.leakage_composition import composition_envelope_bound
from mechdesign.errors import InvalidInputError, TooLargeError, UnsupportedError
from mechdesign.kernel import Mechanism
from mechdesign.measures.leakage import ldp_level
from mechdesign.notions import LDP, check_notion

__all__ = [
    "ACCOUNTING_MAX_GRID",
    "COMPOSED_MAX_EPSILON",
    "DISCRETIZATION",
    "FINITE_MASS_FLOOR",
    "PML_COMPOSITION_MAX_HISTORY",
    "AttackRisk",
    "ComposedDelta",
    "ComposedEpsilon",
    "attack_risk",
    "composed_delta",
    "composed_epsilon",
    "pml_composition_bound",
    "privacy_loss_distribution",
]

#: composed_delta reads δ at most at this ε (nats): dp_accounting computes e^ε.
COMPOSED_MAX_EPSILON = 700.0

#: Default grid of the privacy loss (nats) on which dp_accounting discretises a pair's
#: privacy loss distribution, pessimistically (losses rounded up): the composed ε it
#: reports exceeds the tight one by at most about ``n`` times this.
DISCRETIZATION = 1e-4

#: Most cells of the dense privacy-loss grid a composition may need (about ``uses ×
#: loss range / discretization``; dp_accounting convolves arrays of that length by FFT,
#: some 30 bytes a cell at its peak): 5·10⁷ cells is about 1.5 GB.
ACCOUNTING_MAX_GRID = 5 * 10**7

#: A composition whose finite privacy losses carry at most this mass (under the upper
#: distribution) is reported at δ = 1 for every ε: dp_accounting cannot represent it
#: (it truncates tails of 1e-15), and δ = 1 is within this mass of the truth.
FINITE_MASS_FLOOR = 1e-12

#: Most entries of the joint history ``N × Π M_i`` that :func:`pml_composition_bound`
#: builds (the chain rule runs over every output sequence): 2²⁴ doubles, 128 MB.
PML_COMPOSITION_MAX_HISTORY = 2**24


# -- dp_accounting ------------------------------------------------------------------------


def privacy_loss_distribution(
    kernel: Mechanism | ArrayLike, *, discretization: float = DISCRETIZATION
):
    """The privacy loss distribution of the kernel's :func:`dominating_pair`, as a
    ``dp_accounting.pld.privacy_loss_distribution.PrivacyLossDistribution`` (symmetric;
    ``mu_upper = Q``, ``mu_lower = P``), discretised pessimistically on a grid of
    ``discretization`` nats: its δ(ε) are upper bounds on the kernel's. Compose it with
    ``.compose`` / ``.self_compose`` and read ``.get_epsilon_for_delta`` /
    ``.get_delta_for_epsilon``. The pessimistic discretisation is that of Doroshenko et
    al. [1]_, implemented by dp_accounting.

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        Row-stochastic, rows are inputs; ``N ≥ 2``.
    discretization : float, default :data:`DISCRETIZATION`
        The width (nats) of the privacy-loss grid; must be positive and finite. Smaller
        is tighter and costs a longer grid.

    Returns
    -------
    dp_accounting.pld.privacy_loss_distribution.PrivacyLossDistribution

    Raises
    ------
    TooLargeError
        The loss grid, ``loss range / discretization`` cells, is above
        :data:`ACCOUNTING_MAX_GRID` (a tiny ``discretization``).

    References
    ----------
    .. [1] V. Doroshenko, B. Ghazi, P. Kamath, R. Kumar, P. Manurangsi, "Connect the Dots:
       Tighter Discrete Approximations of Privacy Loss Distributions", PETS 2022,
       arXiv:2207.04380.
    """
    pair = dominating_pair(kernel)
    interval = _check_discretization(discretization)
    if np.any((pair.p > 0) & (pair.q > 0)):
        _check_grid([pair], 1, interval)
    return _pld(pair, interval)


@dataclass(frozen=True)
class ComposedEpsilon:
    """The ε of ``n`` uses at a given δ; ``float()`` is :attr:`epsilon`.

    Parameters
    ----------
    epsilon : float
        The smallest of the three upper bounds below (``method`` names it): the tight
        value up to the discretisation, and never above basic or advanced composition.
    basic : float
        Basic composition: ``Σ_i LDP(K_i)`` (valid at δ = 0).
    advanced : float
        The advanced composition theorem at this δ (Dwork, Rothblum & Vadhan [1]_):
        ``√(2 ln(1/δ) Σ ε_i²) + Σ ε_i (e^{ε_i} − 1)``.
    delta : float
        The δ at which ε is read, in ``(0, 1)``.
    uses : int
        Kernels composed in all (repetitions × kernels per repetition).
    discretization : float
        The loss grid (nats).
    pld : float
        Tight, by the privacy loss distribution (an upper bound within the
        discretisation: at most about ``uses × discretization`` above the tight ε).
    method : {"pld", "basic", "advanced"}
        The bound :attr:`epsilon` is: the first of ``pld``, ``basic``, ``advanced`` that
        attains the minimum.

    References
    ----------
    .. [1] C. Dwork, G. N. Rothblum, S. Vadhan, "Boosting and Differential Privacy", FOCS
       2010, https://people.seas.harvard.edu/~salil/research/PrivateBoosting-abs.html.
    """

    epsilon: float
    basic: float
    advanced: float
    delta: float
    uses: int
    discretization: float
    pld: float
    method: str

    def __float__(self) -> float:
        return self.epsilon


@dataclass(frozen=True)
class ComposedDelta:
    """The δ of ``n`` uses at a given ε; ``float()`` is :attr:`delta`.

    Parameters
    ----------
    delta : float
        The smallest of the three upper bounds below (``method`` names it): the tight
        value up to the discretisation, and 0 whenever basic composition certifies ε.
    basic : float
        Basic composition: 0 when ``ε ≥ Σ_i LDP(K_i)``, else 1 (it certifies nothing
        below that sum).
    advanced : float
        The δ at which the advanced composition theorem (Dwork, Rothblum & Vadhan [1]_)
        gives this ε (1 if none).
    epsilon : float
        The ε (nats) at which δ is read.
    uses : int
        Kernels composed in all (repetitions × kernels per repetition).
    discretization : float
        The loss grid (nats).
    pld : float
        Tight, by the privacy loss distribution (an upper bound within the
        discretisation).
    method : {"pld", "basic", "advanced"}
        The bound :attr:`delta` is: the first of ``pld``, ``basic``, ``advanced`` that
        attains the minimum.

    References
    ----------
    .. [1] C. Dwork, G. N. Rothblum, S. Vadhan, "Boosting and Differential Privacy", FOCS
       2010, https://people.seas.harvard.edu/~salil/research/PrivateBoosting-abs.html.
    """

    delta: float
    basic: float
    advanced: float
    epsilon: float
    uses: int
    discretization: float
    pld: float
    method: str

    def __float__(self) -> float:
        return self.delta


def composed_epsilon(
    kernels: Mechanism | ArrayLike | Sequence[Mechanism | ArrayLike],
    n: int,
    delta: float,
    *,
    discretization: float = DISCRETIZATION,
    notion: object | None = None,
) -> ComposedEpsilon:
    """The tight ε of ``n`` uses of a kernel (or ``n`` repetitions of a sequence of
    kernels ``[K1, K2, …]``, each used once per repetition) at δ, by dp_accounting, with
    basic and advanced composition beside it (module docstring). The ε returned is the
    smallest of the three upper bounds, and ``.method`` names it: the privacy loss
    distribution's (dp_accounting's pessimistic grid [2]_) unless its grid puts it above
    basic or advanced composition [1]_.

    Parameters
    ----------
    kernels : Mechanism or array_like, shape (N, M), or a sequence of them
        One kernel, or a non-empty sequence ``[K1, K2, …]`` of kernels of shapes
        ``(N_i, M_i)``, each row-stochastic with rows as inputs and ``N_i ≥ 2``.
    n : int
        Repetitions (``n ≥ 1``).
    delta : float
        ``0 < δ < 1``.
    discretization : float, default :data:`DISCRETIZATION`
        The loss grid (nats) of :func:`privacy_loss_distribution`; must be positive and
        finite.
    notion : LDP, optional
        The neighbouring relation: LDP (any two inputs) is the only one accounted here.
        PML notions raise :class:`~mechdesign.errors.UnsupportedError`: for a known
        prior use :func:`pml_composition_bound`; for ``(ε, c)``-PML no composition
        result is implemented.

    Raises
    ------
    TooLargeError
        The loss grid of the composition, about ``uses × loss range / discretization``
        cells, is above :data:`ACCOUNTING_MAX_GRID` (a large ``n`` or a tiny
        ``discretization``).

    References
    ----------
    .. [1] C. Dwork, G. N. Rothblum, S. Vadhan, "Boosting and Differential Privacy", FOCS
       2010 (advanced composition: Thm. III.3),
       https://people.seas.harvard.edu/~salil/research/PrivateBoosting-abs.html.
    .. [2] V. Doroshenko, B. Ghazi, P. Kamath, R. Kumar, P. Manurangsi, "Connect the Dots:
       Tighter Discrete Approximations of Privacy Loss Distributions", PETS 2022,
       arXiv:2207.04380.
    """
    d = _check_probability(delta, "delta")
    composed, levels, count, uses, interval = _composition(kernels, n, discretization, notion)
    tight = math.inf if composed is None else float(composed.get_epsilon_for_delta(d))
    bounds = {"pld": tight, "basic": count * math.fsum(levels),
              "advanced": _advanced_epsilon(levels, count, d)}
    method = _smallest(bounds)
    return ComposedEpsilon(
        epsilon=bounds[method],
        basic=bounds["basic"],
        advanced=bounds["advanced"],
        delta=d,
        uses=uses,
        discretization=interval,
        pld=tight,
        method=method,
    )


def composed_delta(
    kernels: Mechanism | ArrayLike | Sequence[Mechanism | ArrayLike],
    n: int,
    epsilon: float,
    *,
    discretization: float = DISCRETIZATION,
    notion: object | None = None,
) -> ComposedDelta:
    """The tight δ of ``n`` uses at ε (see :func:`composed_epsilon` for the arguments
    and the :class:`~mechdesign.errors.TooLargeError`), with basic and advanced
    composition beside it. The δ returned is the smallest of the three upper bounds, and
    ``.method`` names it (basic composition's 0 once ``ε ≥ Σ LDP(K_i)``, which the
    privacy loss distribution's grid may miss).

    Parameters
    ----------
    kernels : Mechanism or array_like, shape (N, M), or a sequence of them
        One kernel, or a non-empty sequence ``[K1, K2, …]`` of kernels of shapes
        ``(N_i, M_i)``, each row-stochastic with rows as inputs and ``N_i ≥ 2``.
    n : int
        Repetitions of the sequence (``n ≥ 1``).
    epsilon : float
        The ε (nats, ``≥ 0``; ``inf`` allowed) at which δ is read; above
        :data:`COMPOSED_MAX_EPSILON` the privacy loss distribution is read there.
    discretization : float, default :data:`DISCRETIZATION`
        The loss grid (nats); must be positive and finite.
    notion : LDP, optional
        As in :func:`composed_epsilon`: only LDP is accounted.

    Returns
    -------
    ComposedDelta
    """
    eps = check_epsilon(epsilon)
    composed, levels, count, uses, interval = _composition(kernels, n, discretization, notion)
    total = count * math.fsum(levels)
    # dp_accounting evaluates e^ε; δ(ε) is non-increasing, so a larger ε is read at
    # COMPOSED_MAX_EPSILON: exact once ε exceeds every finite composed loss, else an
    # upper bound.
    query = min(eps, COMPOSED_MAX_EPSILON)
    tight = 1.0 if composed is None else min(1.0, float(composed.get_delta_for_epsilon(query)))
    bounds = {"pld": tight, "basic": 0.0 if eps >= total else 1.0,
              "advanced": _advanced_delta(levels, count, eps)}
    method = _smallest(bounds)
    return ComposedDelta(
        delta=bounds[method],
        basic=bounds["basic"],
        advanced=bounds["advanced"],
        epsilon=eps,
        uses=uses,
        discretization=interval,
        pld=tight,
        method=method,
    )


@dataclass(frozen=True)
class AttackRisk:
    """What the best attack on one individual's reports achieves: the operational reading
    of the trade-off curve (Dong, Roth & Su [1]_; Kulynych et al. [2]_, whose riskcal
    computes the same three measures from a privacy loss distribution).

    The attack tests ``H₀: the input is x`` against ``H₁: it is x'`` for the worst two
    inputs, from every report of :attr:`uses` uses. ``T(α)``, the least type II error
    at type I error α, is the kernel's trade-off curve (:func:`tradeoff_curve`) for one
    use, and for several the curve of their composed dominating pair,
    ``T(α) = max(0, sup_{η ≥ 0} max(1 − δ(η) − e^η α, e^{−η}(1 − δ(η) − α)))``
    (Dong–Roth–Su, Prop. 2.12, for the symmetric δ of a dominating pair), with δ the
    composed privacy profile of dp_accounting, discretised pessimistically: δ is then an
    upper bound, so ``T`` is a lower bound and every risk below an upper bound.
    Built by :func:`attack_risk`.

    Parameters
    ----------
    advantage : float
        ``max_α (1 − α − T(α)) = δ(0)``: the largest true-positive rate minus
        false-positive rate of any attack (the total variation of the pair).
    uses : int
        Kernel uses composed.
    _tradeoff : callable
        Internal: ``α ↦ T(α)``, from the exact curve (one use) or from the composed
        profile; not part of the public interface.

    References
    ----------
    .. [1] J. Dong, A. Roth, W. J. Su, "Gaussian Differential Privacy", Journal of the Royal
       Statistical Society Series B, 2022, arXiv:1905.02383.
    .. [2] B. Kulynych, J. F. Gomez, G. Kaissis, F. du Pin Calmon, C. Troncoso,
       "Attack-Aware Noise Calibration for Differential Privacy", NeurIPS 2024,
       arXiv:2407.02191.
    """

    advantage: float
    uses: int
    _tradeoff: object = field(repr=False)

    def true_positive_rate(self, false_positive_rate: float) -> float:
        """``1 − T(α)``: the power of the best attack whose false-positive rate is at
        most ``α`` (``false_positive_rate`` ∈ [0, 1])."""
        a = check_real(false_positive_rate, "false_positive_rate", low=0.0, high=1.0)
        return min(1.0, max(0.0, 1.0 - self._tradeoff(a)))

    def bayes_risk(self, prior: float) -> float:
        """The least error probability of an attack that knows ``P(H₀) = prior`` (∈ [0,
        1]): ``min_α (π α + (1 − π) T(α)) = min(π, 1 − π) (1 − δ(|log(π/(1 − π))|))``
        (``Σ_o min(π P(o), (1 − π) Q(o))``, and δ is symmetric for a dominating pair).
        It is ``min(π, 1 − π)`` for a kernel that reveals nothing, 0 for one that
        reveals the input surely."""
        pi = check_real(prior, "prior", low=0.0, high=1.0)
        return min(pi, 1.0 - pi, max(0.0, self._bayes(pi)))

    def _bayes(self, pi: float) -> float:
        curve = getattr(self._tradeoff, "curve", None)
        if curve is not None:   # one use: the exact curve, minimised at a breakpoint
            return float(np.min(pi * curve[:, 0] + (1.0 - pi) * curve[:, 1]))
        if pi in (0.0, 1.0):
            return 0.0
        eta = abs(math.log(pi) - math.log1p(-pi))
        return min(pi, 1.0 - pi) * (1.0 - self._tradeoff.delta(eta))


class _ExactTradeoff:
    """``T`` from the breakpoints of :func:`tradeoff_curve` (linear between them)."""

    def __init__(self, curve: NDArray[np.float64]) -> None:
        self.curve = curve

    def __call__(self, alpha: float) -> float:
        return float(np.interp(alpha, self.curve[:, 0], self.curve[:, 1]))


class _ProfileTradeoff:
    """``T`` from a composed privacy profile δ(η) (:class:`AttackRisk`). The profile of a
    PLD on a grid of ``interval`` nats is piecewise linear in ``e^η`` with breaks on the
    grid, and each branch of the supremum is concave in ``e^{±η}``, so its maximum over
    the grid points ``η = k · interval``, ``0 ≤ k ≤ span / interval``, is the supremum;
    it is found by ternary search over ``k`` (a concave function of a monotone
    reparametrisation is unimodal, flat only at its top)."""

    def __init__(self, delta, span: float, interval: float) -> None:
        self.delta = delta
        self.last = max(1, math.ceil(span / interval) + 1)
        self.interval = interval

    def __call__(self, alpha: float) -> float:
        def reject_first(k: int) -> float:
            eta = k * self.interval
            return 1.0 - self.delta(eta) - math.exp(eta) * alpha

        def accept_first(k: int) -> float:
            eta = k * self.interval
            return math.exp(-eta) * (1.0 - self.delta(eta) - alpha)

        return max(0.0, _unimodal_max(reject_first, self.last),
                   _unimodal_max(accept_first, self.last))


def _unimodal_max(f, last: int) -> float:
    """``max_{0 ≤ k ≤ last} f(k)`` for ``f`` non-decreasing then non-increasing
    (ternary search; on a tie the maximum lies between the two points)."""
    lo, hi = 0, last
    while hi - lo > 2:
        m1 = lo + (hi - lo) // 3
        m2 = hi - (hi - lo) // 3
        f1, f2 = f(m1), f(m2)
        if f1 < f2:
            lo = m1 + 1
        elif f1 > f2:
            hi = m2 - 1
        else:
            lo, hi = m1, m2
    return max(f(k) for k in range(lo, hi + 1))


def attack_risk(
    kernels: Mechanism | ArrayLike | Sequence[Mechanism | ArrayLike],
    uses: int = 1,
    *,
    discretization: float = DISCRETIZATION,
) -> AttackRisk:
    """The operational risk of ``uses`` repetitions of the kernel (or of a sequence of
    kernels, each once per repetition): the best attack's advantage, its true-positive
    rate at a false-positive rate, and the Bayes risk at a prior (:class:`AttackRisk`).

    One use of one kernel is read from its exact trade-off curve; compositions from the
    privacy loss distribution of :func:`composed_delta` (an upper bound on every risk,
    within the discretisation).

    Parameters
    ----------
    kernels : Mechanism or array_like, shape (N, M), or a sequence of them
        One kernel, or a non-empty sequence of kernels of shapes ``(N_i, M_i)``; each
        row-stochastic, rows are inputs, ``N_i ≥ 2``.
    uses : int, default 1
        Repetitions (``≥ 1``).
    discretization : float, default :data:`DISCRETIZATION`
        The loss grid (nats) of the composition.

    Raises
    ------
    TooLargeError
        As :func:`composed_delta`.
    """
    count = check_positive_int(uses, "uses")
    _check_discretization(discretization)
    sequence, count = _sequence(kernels, count)
    if count * len(sequence) == 1:
        curve = tradeoff_curve(sequence[0])
        advantage = float(np.max(1.0 - curve[:, 0] - curve[:, 1]))
        return AttackRisk(min(1.0, max(0.0, advantage)), 1, _ExactTradeoff(curve))
    composed, _, count, total, interval = _composition(kernels, count, discretization, None)
    if composed is None:     # some use reveals the input surely: δ = 1 everywhere
        tradeoff = _ProfileTradeoff(lambda eta: 1.0, interval, interval)
        return AttackRisk(1.0, total, tradeoff)
    pairs = [dominating_pair(k) for k in sequence]
    span = count * math.fsum(_largest_finite_loss(pair) for pair in pairs)

    def delta(eta: float) -> float:
        return min(1.0, float(composed.get_delta_for_epsilon(min(eta, COMPOSED_MAX_EPSILON))))

    tradeoff = _ProfileTradeoff(delta, span, interval)
    return AttackRisk(min(1.0, max(0.0, delta(0.0))), total, tradeoff)


def _largest_finite_loss(pair: DominatingPair) -> float:
    both = (pair.p > 0) & (pair.q > 0)
    return float(np.abs(np.log(pair.q[both]) - np.log(pair.p[both])).max())


def _smallest(bounds: dict[str, float]) -> str:
    """The name of the smallest of several valid upper bounds on one quantity; on a tie
    the first (the tight accounting before the closed forms)."""
    # min keeps the first of equal keys: dicts iterate in insertion order.
    return min(bounds, key=bounds.__getitem__)


def pml_composition_bound(
    kernels: Mechanism | ArrayLike | Sequence[Mechanism | ArrayLike],
    n: int,
    prior: ArrayLike,
    delta: float,
) -> float:
    """The envelope paper's [1]_ bound on the PML envelope ``ε_c(δ)`` of ``n`` (non-adaptive)
    uses of the kernels for a known prior: ``Σ_i L(X → Y_i | Y^{i−1}) + log(1/δ)``
    (envelope paper, Sec. IV-A after Theorem 3, with Issa et al.'s chain rule [2]_), by
    :func:`~mechdesign.bounds.leakage_composition.composition_envelope_bound` on the
    sequence repeated ``n`` times. The joint output alphabet has ``Π M_i`` letters: kept small.

    Parameters
    ----------
    kernels : Mechanism or array_like, shape (N, M), or a sequence of them
        One kernel, or a non-empty sequence of kernels of shapes ``(N, M_i)`` (the same
        ``N ≥ 2`` inputs), each row-stochastic with rows as inputs.
    n : int
        Repetitions of the sequence (``n ≥ 1``).
    prior : array_like, shape (N,)
        The known prior of the input: a probability vector.
    delta : float
        The envelope's tail probability, ``0 < δ < 1``.

    Returns
    -------
    float
        An upper bound (nats) on the PML envelope ``ε_c(δ)`` of the ``n`` uses.

    Raises
    ------
    TooLargeError
        The joint history ``N × (Π M_i)^n`` is above
        :data:`PML_COMPOSITION_MAX_HISTORY` entries.

    References
    ----------
    .. [1] S. Saeidian, C. Pinzón, C. Palamidessi, "Information Leakage Envelopes", 2026,
       arXiv:2605.21185.
    .. [2] I. Issa, A. B. Wagner, S. Kamath, "An Operational Approach to Information
       Leakage", IEEE Transactions on Information Theory 66(3):1625-1657, 2020,
       doi:10.1109/TIT.2019.2962804.
    """
    sequence, count = _sequence(kernels, n)
    size = sequence[0].n_inputs
    as_distribution(prior, "prior", size)
    _check_probability(delta, "delta")
    log_outputs = math.fsum(math.log(k.n_outputs) for k in sequence)
    log_budget = math.log(PML_COMPOSITION_MAX_HISTORY / size)
    if count * log_outputs > log_budget:
        largest = max(0, math.floor(log_budget / log_outputs)) if log_outputs > 0 else count
        raise TooLargeError(
            f"n = {count} uses need a joint history of {size} x {math.exp(log_outputs):g}^n "
            f"entries, above PML_COMPOSITION_MAX_HISTORY = {PML_COMPOSITION_MAX_HISTORY}; "
            f"the largest supported n for these kernels is {largest}."
        )
    # The Mechanisms themselves: validated once, at their own precision (float32).
    return composition_envelope_bound(sequence * count, prior, delta)


def _sequence(kernels, n) -> tuple[list[Mechanism], int]:
    """The validated kernels (a Mechanism, one matrix, or a non-empty sequence of them;
    errors name ``kernels`` or ``kernels[i]``) and the repetitions ``n``."""
    if isinstance(kernels, Mechanism):
        sequence = [kernels]
    elif isinstance(kernels, np.ndarray):
        # One matrix; a 3-D stack is refused (pass a list of kernels).
        sequence = [_mechanism(kernels, "kernels")]
    elif isinstance(kernels, (list, tuple)) and len(kernels) > 0:
        if _is_one_matrix(kernels):
            sequence = [_mechanism(kernels, "kernels")]
        else:
            sequence = [_mechanism(k, f"kernels[{i}]") for i, k in enumerate(kernels)]
    else:
        raise InvalidInputError(
            f"kernels must be a kernel or a non-empty sequence of kernels; got "
            f"{show(kernels)}."
        )
    for i, k in enumerate(sequence):
        if k.n_inputs < 2:
            where = "kernels" if len(sequence) == 1 else f"kernels[{i}]"
            raise InvalidInputError(
                f"{where} must have at least 2 inputs (rows); got shape {k.shape}."
            )
    return sequence, check_positive_int(n, "n")


def _mechanism(value: object, name: str) -> Mechanism:
    """A Mechanism of ``value``, validated once under ``name`` at the input's own
    precision (a float32 kernel is not checked again in double precision)."""
    if isinstance(value, Mechanism):
        return value
    return Mechanism._validated(as_stochastic_matrix(value, name), STOCHASTIC_ATOL)


def _is_one_matrix(kernels: list | tuple) -> bool:
    """Whether a list is one matrix (its entries are rows: sequences of scalars) rather
    than a sequence of kernels (its entries are matrices or Mechanisms)."""
    first = kernels[0]
    if isinstance(first, Mechanism):
        return False
    if isinstance(first, np.ndarray):
        return first.ndim < 2
    if isinstance(first, (list, tuple)):
        return not any(isinstance(v, (list, tuple, np.ndarray, Mechanism)) for v in first)
    return True  # scalars: refused as a matrix, naming kernels


def _composition(kernels, n, discretization, notion):
    """The validated arguments of composed_epsilon/composed_delta, composed: the PLD of
    ``n`` repetitions of the sequence (``None`` when some use reveals the input
    surely: every loss is infinite, δ = 1 at every ε; and when the composition's finite
    losses carry at most :data:`FINITE_MASS_FLOOR`), each kernel's LDP level, ``n``, the
    uses, the grid."""
    sequence, count = _sequence(kernels, n)
    _check_notion(notion)
    interval = _check_discretization(discretization)
    levels = [ldp_level(k) for k in sequence]
    pairs = [dominating_pair(k) for k in sequence]
    uses = count * len(sequence)
    if any(not np.any((pair.p > 0) & (pair.q > 0)) for pair in pairs):
        return None, levels, count, uses, interval
    # dp_accounting truncates tails of about 1e-15 and fails when the whole finite part
    # of a composition is below that; δ = 1 is then a valid upper bound, within the
    # finite mass of the truth (δ ≥ 1 − that mass).
    log_finite = count * math.fsum(math.log(float(pair.q[(pair.p > 0) & (pair.q > 0)].sum()))
                                   for pair in pairs)
    if log_finite <= math.log(FINITE_MASS_FLOOR):
        return None, levels, count, uses, interval
    _check_grid(pairs, count, interval)
    plds = [_pld(pair, interval) for pair in pairs]
    step = plds[0]
    for other in plds[1:]:
        step = step.compose(other)
    composed = step.self_compose(count) if count > 1 else step
    return composed, levels, count, uses, interval


def _check_grid(pairs: list[DominatingPair], count: int, interval: float) -> None:
    """Refuse a composition whose dense loss grid would exceed ACCOUNTING_MAX_GRID."""
    sizes, widths = [], []
    for pair in pairs:
        both = (pair.p > 0) & (pair.q > 0)
        losses = np.log(pair.q[both]) - np.log(pair.p[both])
        sizes.append(int(both.sum()))
        widths.append(float(losses.max() - losses.min()) / interval + 1.0)
    per_use = math.fsum(widths)
    if count == 1 or math.log(math.prod(sizes)) * count <= math.log(1000):
        cells = per_use  # dp_accounting keeps a small composition sparse
    else:
        cells = count * per_use
    if not cells <= ACCOUNTING_MAX_GRID:
        largest = math.floor(ACCOUNTING_MAX_GRID / per_use)
        raise TooLargeError(
            f"n = {count} uses at discretization = {show(interval)} need a loss grid of "
            f"about {cells:.3g} cells, above ACCOUNTING_MAX_GRID = {ACCOUNTING_MAX_GRID:,}: "
            f"at this discretization the largest supported n is {largest:,}"
            + ("" if largest >= 1 else " (increase discretization)") + "."
        )


def _pld(pair: DominatingPair, interval: float):
    from dp_accounting.pld import privacy_loss_distribution as pld

    with np.errstate(divide="ignore"):
        log_p, log_q = np.log(pair.p), np.log(pair.q)
    lower = {i: float(v) for i, v in enumerate(log_p)}
    upper = {i: float(v) for i, v in enumerate(log_q)}
    return pld.from_two_probability_mass_functions(
        lower, upper, pessimistic_estimate=True, value_discretization_interval=interval
    )


def _advanced_epsilon(levels: list[float], count: int, delta: float) -> float:
    if any(math.isinf(e) for e in levels):
        return math.inf
    squares = count * math.fsum(e * e for e in levels)
    drift = count * math.fsum(e * math.expm1(e) if e < COMPOSED_MAX_EPSILON else math.inf
                              for e in levels)
    return math.sqrt(2 * math.log(1 / delta) * squares) + drift


def _advanced_delta(levels: list[float], count: int, epsilon: float) -> float:
    if any(math.isinf(e) for e in levels):
        return 1.0
    squares = count * math.fsum(e * e for e in levels)
    drift = count * math.fsum(e * math.expm1(e) if e < COMPOSED_MAX_EPSILON else math.inf
                              for e in levels)
    if squares == 0:
        return 0.0
    if epsilon <= drift:
        return 1.0
    # exp(−x²/(2S)) in logs of x: (ε − drift)² overflows for ε near 1e308.
    log_exponent = 2 * math.log(epsilon - drift) - math.log(2 * squares)
    return 0.0 if log_exponent > math.log(-math.log(np.finfo(float).tiny)) else min(
        1.0, math.exp(-math.exp(log_exponent)))


def _check_probability(value: float, name: str) -> float:
    v = as_real(value, name)
    if not 0.0 < v < 1.0:
        raise InvalidInputError(f"{name} must lie in the open interval (0, 1); got {show(value)}.")
    return v


def _check_discretization(value: float) -> float:
    v = as_real(value, "discretization")
    if not (0.0 < v < math.inf):
        raise InvalidInputError(
            f"discretization must be a positive finite number of nats; got {show(value)}."
        )
    return v


def _check_notion(notion: object | None) -> None:
    if notion is None or isinstance(notion, LDP):
        return
    if isinstance(notion, type):
        raise InvalidInputError(
            f"notion must be a privacy notion object such as mechdesign.LDP(epsilon); got "
            f"the class {notion.__name__}."
        )
    check_notion(notion)  # not a notion at all: InvalidInputError naming notion
    raise UnsupportedError(
        f"composed_epsilon and composed_delta account (epsilon, delta)-DP between any two "
        f"inputs (LDP); got {show(notion)}. For PML with a known prior the library gives "
        "the envelope paper's chain-rule bound, pml_composition_bound(kernels, n, prior, "
        "delta); for (epsilon, c)-PML it implements no composition result."
    )
