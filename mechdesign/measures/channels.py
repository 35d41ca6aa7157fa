"""Channel measures beside leakage: Shannon capacity, Sibson's α-mutual information and
its supremum over priors (maximal α-leakage). Channel orders (degraded, less noisy) are
:mod:`mechdesign.measures.channel_orders`'.

Rows are inputs; nats.

**Capacity** (:func:`channel_capacity`). ``C(K) = max_P I(P, K)``, a concave maximisation
over the simplex. The prior is found by a conic program (cvxpy; ``I = H(PK) − Σ_x P_x
H(K_x)`` with ``entr``) and then polished by Blahut–Arimoto iterations (Blahut, IEEE
T-IT 1972; Arimoto, ibid.), ``P_x ← P_x exp D(K_x ‖ PK) / Z``. Every prior certifies
both sides: ``I(P, K) ≤ C(K) ≤ max_x D(K_x ‖ PK)`` — the upper bound is the Frank–Wolfe
gap of the concave ``I`` (its gradient is ``D(K_x ‖ PK) − 1``), also Gallager's
min-max bound. Iterations stop when the two are within ``tol``.

**Sibson's α-mutual information** (Sibson 1969; Verdú, "α-mutual information", ITA 2015,
eq. (11)):

.. math::

    I_\\alpha(P, K) = \\frac{\\alpha}{\\alpha - 1}
        \\log \\sum_y \\Big(\\sum_x P_x K_{xy}^\\alpha\\Big)^{1/\\alpha},

with the limits ``I_1 = I(P, K)`` (Shannon) and ``I_∞ = log Σ_y max_{x: P_x > 0}
K_{xy}``. **Maximal α-leakage** (Liao, Kosut, Sankar & Calmon, "Tunable measures for
information leakage and applications to privacy-utility tradeoffs", IEEE T-IT 2019,
Thm. 2) is, for α ∈ (1, ∞), the Arimoto capacity of order α, which equals the Sibson
capacity ``sup_P I_α(P, K)`` (Csiszár 1995); at α = ∞ it is maximal leakage
``log Σ_y max_x K_{xy}``. Here α = 1 is read as the supremum over priors too, the
Shannon capacity (at a fixed prior their α = 1 is the mutual information). For α > 1 the
sum ``g(P) = Σ_y (Σ_x P_x K_{xy}^α)^{1/α}`` is concave in ``P`` (a conic program), and the
minimax bound ``C_α ≤ max_x D_α(K_x ‖ Q)`` (any ``Q``; Csiszár 1995) certifies the
conic program's answer.

"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mechdesign._lazy import deprecated_names
from mechdesign._validation import as_distribution, check_alpha, check_real, show
from mechdesign.errors import InvalidInputError, SolverError
from mechdesign.kernel import Mechanism, as_matrix
from mechdesign.status import Status

__all__ = [
    "ALPHA_LEAKAGE_MAX_ITERATIONS",
    "ALPHA_LEAKAGE_TOL",
    "CAPACITY_MAX_ITERATIONS",
    "CAPACITY_TOL",
    "CONIC_MAX_ALPHA",
    "CONIC_MIN_BETA",
    "INTERIOR",
    "LINE_SEARCH_STEPS",
    "NEAR_ONE",
    "NEWTON_DAMPING",
    "NEWTON_SUPPORT",
    "PRIOR_FLOOR",
    "PRIOR_MIN",
    "ROUNDING",
    "Capacity",
    "channel_capacity",
    "maximal_alpha_leakage",
    "sibson_mutual_information",
]

#: Default certified gap of :func:`channel_capacity` (nats).
CAPACITY_TOL = 1e-9

#: Most polishing iterations (a Newton step and a Blahut–Arimoto step each) after the
#: conic program.
CAPACITY_MAX_ITERATIONS = 2_000

#: Mass given to every input before polishing, which cannot revive an input at 0.
PRIOR_FLOOR = 1e-12

#: No input's mass goes below this while polishing: an input the optimum starves below
#: floating point (mass like e^{−6000}) keeps a representable mass, whose loss in the
#: lower bound is of its own order, and every output keeps a finite log-probability.
PRIOR_MIN = 1e-300

#: The Newton step moves the inputs whose mass is at least this fraction of the largest.
NEWTON_SUPPORT = 1e-12

#: A step keeps at least this fraction of each input's mass (an interior step: an input
#: at exactly 0 could not come back).
INTERIOR = 1e-2

#: The Newton step's Hessian is damped by this fraction of its largest diagonal entry.
NEWTON_DAMPING = 1e-13

#: A step accepted by its slope may show the objective lower by this relative rounding.
ROUNDING = 1e-12

#: Halvings of a step before it is given up (the step must not lower the objective).
LINE_SEARCH_STEPS = 40

#: :func:`sibson_mutual_information` expands around α = 1 within this distance of it.
NEAR_ONE = 0.5

#: Certified gap of :func:`maximal_alpha_leakage` for 1 < α < ∞ (nats): its polishing
#: converges more slowly than Blahut–Arimoto on nearly equal rows.
ALPHA_LEAKAGE_TOL = 1e-8

#: Most polishing iterations of :func:`maximal_alpha_leakage`.
ALPHA_LEAKAGE_MAX_ITERATIONS = 2_000

#: Below α = 1 + this, :func:`maximal_alpha_leakage` starts from the Shannon capacity's
#: prior (the Sibson capacity is continuous in α; cvxpy's x^{1/α} is then ill-conditioned).
CONIC_MIN_BETA = 1e-3

#: Largest α at which :func:`maximal_alpha_leakage` starts from a conic program (cvxpy
#: writes x^{1/α} with second-order cones, more of them as α grows); above it the
#: polishing starts from the uniform prior.
CONIC_MAX_ALPHA = 1e4



@dataclass(frozen=True)
class Capacity:
    """The Shannon capacity of a channel; ``float()`` is :attr:`value`.

    Parameters
    ----------
    value : float
        ``I(prior, K)``: the capacity within :attr:`gap` (a certified lower bound).
    prior : ndarray, shape (N,)
        The input distribution attaining :attr:`value`.
    lower, upper : float
        ``I(prior, K) ≤ C(K) ≤ max_x D(K_x ‖ prior K)``.
    iterations : int
        Blahut–Arimoto iterations after the conic program.
    """

    value: float
    prior: NDArray[np.float64]
    lower: float
    upper: float
    iterations: int

    @property
    def gap(self) -> float:
        return self.upper - self.lower

    def __float__(self) -> float:
        return self.value


def _divergences(k: NDArray[np.float64], log_q: NDArray[np.float64]) -> NDArray[np.float64]:
    """``D(K_x ‖ q)`` for every row from ``log q`` (0 log 0 = 0; ``log q`` finite wherever
    a row has mass)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(k > 0, k * (np.log(k) - log_q), 0.0)
    return terms.sum(axis=1)


def _mutual_information(k: NDArray[np.float64], p: NDArray[np.float64]) -> float:
    q = p @ k
    with np.errstate(divide="ignore"):
        return float(p @ _divergences(k, np.log(np.where(q > 0, q, 1.0))))


def channel_capacity(K: Mechanism | ArrayLike, *, tol: float = CAPACITY_TOL) -> Capacity:
    """The Shannon capacity ``max_P I(P, K)`` (nats), certified to ``tol``: a conic
    program's prior, polished (:func:`_polish`), with ``I(P, K) ≤ C ≤ max_x D(K_x ‖ PK)``
    at the prior returned (module docstring).

    Parameters
    ----------
    K : Mechanism or array_like, shape (N, M)
        The channel; rows are inputs.
    tol : float, default :data:`CAPACITY_TOL`
        The certified gap ``upper − lower`` (nats), > 0.

    Raises
    ------
    SolverError
        The bounds are still more than ``tol`` apart after
        :data:`CAPACITY_MAX_ITERATIONS` iterations (status ``"iteration_limit"``).
    """
    k = as_matrix(K, "K")
    tolerance = check_real(tol, "tol", low=0.0, low_open=True, high_open=True)
    n = k.shape[0]
    k = k[:, k.max(axis=0) > 0]
    lower, upper, p, iterations = _polish(k, 1.0, _conic_capacity_prior(k), tolerance,
                                          CAPACITY_MAX_ITERATIONS)
    if upper - lower <= tolerance:
        return Capacity(lower, p, lower, upper, iterations)
    raise SolverError(
        f"channel_capacity did not certify the capacity within tol = {show(tolerance)} after "
        f"{iterations} iterations (bounds {lower!r} and {upper!r}) for a channel with "
        f"{n} inputs.", status=Status.ITERATION_LIMIT)


class _Order:
    """One order α ∈ [1, ∞) of Sibson's capacity, evaluated at priors: the objective
    ``I_α(P, K)`` (the lower bound), the rows ``D_α(K_x ‖ Q_P)`` (their maximum is the
    upper bound; ``Q_P = PK`` at α = 1), and the Newton direction of ``g(P) = Σ_y (Σ_x
    P_x K_xy^α)^{1/α}`` (concave; ``I_α = α/(α − 1) log g``, and ``I`` itself at α = 1)."""

    def __init__(self, k: NDArray[np.float64], a: float) -> None:
        self.k, self.a = k, a
        with np.errstate(divide="ignore"):
            self.log_k = np.log(k)

    def lower(self, p: NDArray[np.float64]) -> float:
        if self.a == 1:
            return float(p @ self.evaluate(p)[0])
        return _sibson(self.k, p, self.a)

    def evaluate(self, p: NDArray[np.float64]):
        """``D_α(K_x ‖ Q_P)`` for every row, ``log g`` and ``log(g Q_P)`` per output (in
        logs: an output reached only by starved inputs keeps a finite log-probability)."""
        total, per_output = _log_sum_of_norms(self.k, p, self.a)
        log_q = per_output - total
        if self.a == 1:
            return _divergences(self.k, log_q), total, per_output
        return _renyi_rows(self.k, log_q, self.a), total, per_output

    def slope(self, p: NDArray[np.float64], velocity: NDArray[np.float64]) -> float:
        """The sign-faithful slope of ``g`` at ``p`` along ``velocity`` (``Σ = 0``): the
        gradient ``∂g/∂P_x ∝ e^{β D_α(K_x ‖ Q_P)}`` (``D(K_x ‖ PK)`` at α = 1) up to a
        positive factor and a constant, as ``expm1(β (D_x − max D))/β``."""
        rows = self.evaluate(p)[0]
        spread = rows - rows.max()
        beta = self.a - 1
        gradient = spread if beta == 0 else np.expm1(beta * spread) / beta
        return float(gradient @ velocity)

    def newton(self, p, rows, total, per_output) -> NDArray[np.float64] | None:
        """The Newton direction of ``g`` on the inputs with mass ≥ :data:`NEWTON_SUPPORT`
        of the largest, in the coordinates ``P_x − P_b`` (``b`` the largest; the direction
        sums to 0). With ``W_xy = (K_xy / (g Q_y))^α``, ``β = α − 1`` and ``D_t`` the
        largest row divergence moved, up to the positive factor ``β/α`` (the step is the
        same): gradient differences ``e^{β(D_t − log g)} (G_x − G_b)`` with ``G_x =
        expm1(β (D_x − D_t))/β`` (``D_x − D_b`` at α = 1; ``e^{β(D_t − log g)} = α
        ∂g/∂P_t ≤ 1/P_t`` cannot overflow), Hessian ``−Σ_y g Q_y
        (W_x − W_b)(W_x' − W_b)ᵀ / α``, less :data:`NEWTON_DAMPING` of its largest
        diagonal entry (Levenberg–Marquardt). The damping matters where the Hessian is
        singular: at α = 1 an input whose row is a mixture of others leaves ``PK`` unchanged
        along a direction in which ``I`` is linear, and the damped step follows that
        direction to the boundary (the step is then cut to stay interior). ``None`` when
        fewer than two inputs move."""
        free = np.flatnonzero(p >= NEWTON_SUPPORT * p.max())
        if free.size < 2:
            return None
        base = free[np.argmax(p[free])]
        others = free[free != base]
        beta = self.a - 1
        top = float(rows[free].max())
        spread = rows[free] - top                      # ≤ 0: no overflow at large α
        tilted = spread if beta == 0 else np.expm1(beta * spread) / beta
        gradient = math.exp(beta * (top - total)) * (tilted[free != base]
                                                     - tilted[free == base])
        with np.errstate(under="ignore"):
            w = np.exp(self.a * (self.log_k[free] - per_output))
        v = w[free != base] - w[free == base]
        hessian = -(v * np.exp(per_output)) @ v.T / self.a
        damping = NEWTON_DAMPING * float(np.abs(np.diag(hessian)).max(initial=0.0))
        if damping <= 0:
            return None
        step = np.linalg.solve(hessian - damping * np.eye(others.size), -gradient)
        direction = np.zeros_like(p)
        direction[others] = step
        direction[base] = -step.sum()
        return direction


def _polish(k: NDArray[np.float64], a: float, p: NDArray[np.float64], tol: float,
            max_iterations: int) -> tuple[float, float, NDArray[np.float64], int]:
    """Maximise Sibson's ``I_α(P, K)`` over priors from ``p`` (α = 1: the mutual
    information) until ``I_α(P, K) ≤ C_α ≤ max_x D_α(K_x ‖ Q_P)`` are within ``tol``.
    Each iteration takes a Newton step (:meth:`_Order.newton`, quadratic near the optimum
    where Blahut–Arimoto is linear and stalls on nearly equal rows) and then the
    multiplicative step ``P_x ∝ P_x e^{τ D_α(K_x ‖ Q_P)}`` (Blahut–Arimoto at α = 1, τ =
    1; it moves mass onto inputs the Newton step leaves out, and is an ascent direction
    because ``∂g/∂P_x ∝ e^{(α−1) D_α(K_x ‖ Q_P)}`` is increasing in the row's
    divergence). A step is taken only if it does not lower ``I_α``: interior (every input
    keeps :data:`INTERIOR` of its mass) and halved up to :data:`LINE_SEARCH_STEPS` times.
    Returns ``(lower, upper, prior, iterations)``."""
    order = _Order(k, a)
    p = np.maximum(p, PRIOR_MIN)
    p = p / p.sum()
    lower = order.lower(p)
    for iteration in range(max_iterations + 1):
        rows, total, per_output = order.evaluate(p)
        upper = float(rows.max())
        if upper - lower <= tol or iteration == max_iterations:
            return lower, upper, p, iteration
        direction = order.newton(p, rows, total, per_output)
        if direction is not None:
            shrinking = direction < 0
            step = 1.0
            if shrinking.any():
                step = min(step, (1 - INTERIOR) * float(np.min(p[shrinking]
                                                                / -direction[shrinking])))
            p, lower = _ascend(order, p, lower, _along, direction, step)
            rows = order.evaluate(p)[0]
        p, lower = _ascend(order, p, lower, _tilted, rows - rows.max(), 1.0,
                           extend=True)
    raise AssertionError("unreachable")


def _along(p: NDArray[np.float64], direction: NDArray[np.float64], t: float
           ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """``p + t Δ`` and its velocity ``Δ`` (``Σ Δ = 0``)."""
    return p + t * direction, direction


def _tilted(p: NDArray[np.float64], tilt: NDArray[np.float64], t: float
            ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """``p e^{t r} / Z`` and its velocity ``p(t) (r − E_{p(t)} r)``."""
    moved = p * np.exp(t * tilt)
    moved = moved / moved.sum()
    return moved, moved * (tilt - moved @ tilt)


def _ascend(order: _Order, p: NDArray[np.float64], lower: float, move, argument,
            step: float, *, extend: bool = False) -> tuple[NDArray[np.float64], float]:
    """The first ``move(p, argument, t)`` for ``t = step, step/2, …`` (floored at
    :data:`PRIOR_MIN`) that does not lower the objective, with its value; else ``p``.
    With ``extend``, a first step that is accepted is doubled while the longer step is
    accepted against the shorter (up to :data:`LINE_SEARCH_STEPS` times): a
    multiplicative step moves an input by ``e^{t (D_x − max D)}``, slow for an input the
    optimum nearly starves, whose divergence is then barely above the others'.

    Near the optimum a step changes the objective by less than its rounding, so a trial
    is also accepted when the objective is still increasing there (its slope along the
    path ``≥ 0``): along a Newton line the objective is concave, so it then increased on
    the whole step, which the comparison of two rounded values cannot tell."""
    first = step
    for _ in range(LINE_SEARCH_STEPS):
        trial, value = _trial(order, p, move, argument, step, lower)
        if trial is not None:
            break
        step /= 2
    else:
        return p, lower
    while extend and step >= first and step < first * 2.0**LINE_SEARCH_STEPS:
        step *= 2
        longer, longer_value = _trial(order, p, move, argument, step, value)
        if longer is None:
            break
        trial, value = longer, longer_value
    return trial, value


def _trial(order: _Order, p: NDArray[np.float64], move, argument, step: float,
           reference: float) -> tuple[NDArray[np.float64] | None, float]:
    """``move(p, argument, step)`` floored and renormalised, with its objective, if it is
    not below ``reference`` (by value, or within rounding with a non-negative slope);
    else ``(None, reference)``."""
    trial, velocity = move(p, argument, step)
    trial = np.maximum(trial, PRIOR_MIN)
    trial = trial / trial.sum()
    value = order.lower(trial)
    if value > reference or (value >= reference - ROUNDING * max(1.0, abs(reference))
                             and order.slope(trial, velocity) >= 0):
        return trial, value
    return None, reference


def _conic_capacity_prior(k: NDArray[np.float64]) -> NDArray[np.float64]:
    """A near-optimal prior from cvxpy, ``I = H(PK) − Σ_x P_x H(K_x)`` with ``entr``
    (:func:`_conic_prior`)."""
    import cvxpy as cp

    with np.errstate(divide="ignore", invalid="ignore"):
        row_entropy = -np.where(k > 0, k * np.log(k), 0.0).sum(axis=1)
    return _conic_prior(k.shape[0], lambda p: cp.sum(cp.entr(k.T @ p)) - row_entropy @ p)


def _conic_prior(n: int, objective) -> NDArray[np.float64]:
    """The prior maximising the concave cvxpy ``objective(p)`` over the simplex
    (Clarabel), every input kept at :data:`PRIOR_FLOOR` or more (a multiplicative step
    cannot revive an input at 0); the uniform prior if the solver fails — the polishing
    certifies whatever prior it gets, so a "solution may be inaccurate" warning and
    cvxpy's note on the cones it writes ``x^{1/α}`` with are silenced."""
    import cvxpy as cp

    uniform = np.full(n, 1.0 / n)
    if n == 1:
        return uniform
    p = cp.Variable(n, nonneg=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        problem = cp.Problem(cp.Maximize(objective(p)), [cp.sum(p) == 1])
        try:
            problem.solve(solver=cp.CLARABEL)
        except cp.error.SolverError:
            return uniform
    if p.value is None or not np.all(np.isfinite(p.value)):
        return uniform
    value = np.clip(np.asarray(p.value, dtype=float), 0.0, None) + PRIOR_FLOOR * uniform
    return value / value.sum()

def sibson_mutual_information(K: Mechanism | ArrayLike, prior: ArrayLike,
                              alpha: float) -> float:
    """Sibson's ``I_α(P, K)`` in nats (module docstring), α ∈ (0, ∞]; α = 1 is the
    mutual information and α = ∞ ``log Σ_y max_{x: P_x > 0} K_{xy}``. Computed in logs
    (``K^α`` underflows for large α).

    Parameters
    ----------
    K : Mechanism or array_like, shape (N, M)
        The channel ``K[x, y] = P(Y=y | X=x)``; rows are inputs. An array must be finite,
        non-negative and row-stochastic (rows sum to 1 within ``STOCHASTIC_ATOL``).
    prior : array_like, shape (N,)
        The input distribution ``P``: non-negative, summing to 1 within
        ``STOCHASTIC_ATOL``; inputs of zero mass are left out.
    alpha : float
        The order, ``α > 0``; ``math.inf`` allowed.

    Returns
    -------
    float
        ``I_α(P, K) ≥ 0``, in nats.
    """
    k = as_matrix(K, "K")
    p = as_distribution(prior, "prior")
    a = check_alpha(alpha)
    if p.shape[0] != k.shape[0]:
        raise InvalidInputError(
            f"prior has {p.shape[0]} entries; K has {k.shape[0]} inputs.")
    used = p > 0
    k, p = k[used], p[used]
    if a == 1:
        return max(0.0, _mutual_information(k, p))
    if math.isinf(a):
        return max(0.0, float(np.log(k.max(axis=0)[k.max(axis=0) > 0].sum())))
    return max(0.0, _sibson(k, p, a))


def _sibson(k: NDArray[np.float64], p: NDArray[np.float64], a: float) -> float:
    """``I_α`` in logs. Near α = 1 (``|α − 1| ≤`` :data:`NEAR_ONE`) the sum is written
    around its value at α = 1, ``Σ_y (Σ_x P_x K^α)^{1/α} = E_q exp g_y`` with ``q = PK``,
    the posterior ``w_{x|y}``, and ``g_y = (log E_w K^{α−1} − (α − 1) log q_y)/α``, and
    both logs are taken with ``log1p``/``expm1``: the ``O(α − 1)`` quantity is computed
    directly instead of as a difference of numbers near 1 (an output whose ``E_w K^β``
    is below 1/2, where ``K^β − 1`` rounds to −1, takes its log directly). Elsewhere each
    output is scaled by its largest entry (:func:`_log_sum_of_norms`)."""
    beta = a - 1
    if abs(beta) > NEAR_ONE:
        return a / beta * float(_log_sum_of_norms(k, p, a)[0])
    q = p @ k
    used = q > 0
    k, q = k[:, used], q[used]
    w = p[:, None] * k / q                       # posterior P(x | y), columns sum to 1
    with np.errstate(divide="ignore", invalid="ignore"):
        tilt = np.where(w > 0, np.expm1(beta * np.log(k)), 0.0)   # K^β − 1 where w > 0
    moment = (w * tilt).sum(axis=0)                                # E_w K^β − 1
    with np.errstate(divide="ignore"):
        log_moment = np.log1p(np.maximum(moment, -0.5))            # log E_w K^β
    far = moment < -0.5          # K^β ≪ 1 where the posterior is: K^β − 1 rounds to −1
    if far.any():
        from scipy.special import logsumexp

        with np.errstate(divide="ignore"):
            log_moment[far] = logsumexp(np.log(w[:, far]) + beta * np.log(k[:, far]),
                                        axis=0)
    g = (log_moment - beta * np.log(q)) / a
    return a / beta * float(np.log1p(q @ np.expm1(g)))


def _log_sum_of_norms(k, p, a):
    """``log Σ_y (Σ_x P_x K_xy^α)^{1/α}`` and the per-output logs, stably (``K`` with no
    all-zero column)."""
    from scipy.special import logsumexp

    with np.errstate(divide="ignore"):
        log_k, log_p = np.log(k), np.log(p)
    log_c = log_k.max(axis=0)
    with np.errstate(over="ignore", invalid="ignore"):
        shifted = np.where(np.isfinite(log_k), a * (log_k - log_c), -np.inf)
    per_output = log_c + logsumexp(shifted + log_p[:, None], axis=0) / a
    return logsumexp(per_output), per_output


def maximal_alpha_leakage(K: Mechanism | ArrayLike, alpha: float) -> float:
    """Maximal α-leakage (Liao et al. 2019 [1]_; module docstring): ``sup_P I_α(P, K)``,
    α ∈ [1, ∞]. α = 1 is the Shannon capacity (:func:`channel_capacity`), α = ∞ maximal
    leakage [2]_; in between a conic program, polished and certified to
    :data:`ALPHA_LEAKAGE_TOL` by Sibson's minimax bound (:func:`_sibson_capacity`). The
    value returned is the certified lower end, at a prior.

    Parameters
    ----------
    K : Mechanism or array_like, shape (N, M)
        The channel ``K[x, y] = P(Y=y | X=x)``; rows are inputs. An array must be finite,
        non-negative and row-stochastic (rows sum to 1 within ``STOCHASTIC_ATOL``).
    alpha : float
        The order, ``1 ≤ α ≤ ∞`` (``math.inf`` allowed).

    Returns
    -------
    float
        Maximal α-leakage in nats, ``≥ 0``.

    Raises
    ------
    InvalidInputError
        α < 1 (the measure is defined for α ≥ 1).
    SolverError
        The bounds are still more than :data:`ALPHA_LEAKAGE_TOL` apart after
        :data:`ALPHA_LEAKAGE_MAX_ITERATIONS` polishing steps.

    References
    ----------
    .. [1] J. Liao, O. Kosut, L. Sankar, F. du Pin Calmon, "Tunable Measures for Information Leakage
       and Applications to Privacy-Utility Tradeoffs", IEEE Transactions on Information Theory,
       2019, arXiv:1809.09231.
    .. [2] I. Issa, A. B. Wagner, S. Kamath, "An Operational Approach to Information Leakage", IEEE
       Transactions on Information Theory 66(3):1625-1657, 2020, doi:10.1109/TIT.2019.2962804.
    """
    k = as_matrix(K, "K")
    a = check_alpha(alpha)
    if a < 1:
        raise InvalidInputError(
            f"alpha must be >= 1 for maximal alpha-leakage (Liao et al. define it on "
            f"[1, inf]); got {show(alpha)}. For a fixed prior use sibson_mutual_information.")
    k = k[:, k.max(axis=0) > 0]
    if a == 1:
        return channel_capacity(k).value
    if math.isinf(a):
        return max(0.0, float(np.log(k.max(axis=0).sum())))
    return _sibson_capacity(k, a)


def _sibson_capacity(k: NDArray[np.float64], a: float) -> float:
    """``max_P I_α(P, K)`` for 1 < α < ∞, certified: every prior ``P`` gives
    ``I_α(P, K) ≤ C_α ≤ max_x D_α(K_x ‖ Q_P)`` with Sibson's ``Q_P ∝ (Σ_x P_x
    K_{xy}^α)^{1/α}`` (the minimax identity ``C_α = min_Q max_x D_α(K_x ‖ Q)``, Csiszár,
    IEEE T-IT 1995). The conic program's prior (the Shannon capacity's below α = 1 +
    :data:`CONIC_MIN_BETA`, the uniform prior above :data:`CONIC_MAX_ALPHA`) is polished
    (:func:`_polish`) until the bounds meet."""
    n = k.shape[0]
    if n == 1:
        return 0.0
    if a - 1 <= CONIC_MIN_BETA:       # x^{1/α} near x: start from the capacity's prior
        p = channel_capacity(k).prior
    elif a <= CONIC_MAX_ALPHA:
        p = _conic_sibson_prior(k, a)
    else:
        p = np.full(n, 1.0 / n)
    lower, upper, p, iterations = _polish(k, a, p, ALPHA_LEAKAGE_TOL,
                                          ALPHA_LEAKAGE_MAX_ITERATIONS)
    if upper - lower <= ALPHA_LEAKAGE_TOL:
        return max(0.0, lower)
    raise SolverError(
        f"maximal_alpha_leakage did not certify the value within {ALPHA_LEAKAGE_TOL} after "
        f"{iterations} iterations (alpha = {a}; bounds {lower!r}, {upper!r}).",
        status=Status.ITERATION_LIMIT)


def _renyi_rows(k: NDArray[np.float64], log_q: NDArray[np.float64],
                a: float) -> NDArray[np.float64]:
    """``D_α(K_x ‖ Q)`` for every row, without overflow: near α = 1 as ``log1p(Σ_y K
    expm1(β log(K/Q)))/β`` (``β = α − 1``), elsewhere as ``α/(α − 1) m_x + L_x/(α −
    1)`` with ``m_x = max_y log(K/Q)`` and ``L_x = log Σ_y Q (K/Q)^α e^{−α m_x}``."""
    from scipy.special import logsumexp

    beta = a - 1
    with np.errstate(divide="ignore"):
        ratio = np.log(k) - log_q[None, :]
    if abs(beta) <= NEAR_ONE:
        with np.errstate(invalid="ignore"):
            tilt = np.where(k > 0, np.expm1(beta * ratio), 0.0)
        moment = (k * tilt).sum(axis=1)                 # E_K (K/Q)^β − 1
        with np.errstate(divide="ignore"):
            rows = np.log1p(np.maximum(moment, -0.5)) / beta
        far = moment < -0.5                              # as in _sibson
        if far.any():
            with np.errstate(divide="ignore", invalid="ignore"):
                terms = np.where(k[far] > 0, np.log(k[far]) + beta * ratio[far], -np.inf)
            rows[far] = logsumexp(terms, axis=1) / beta
        return rows
    top = ratio.max(axis=1)
    with np.errstate(over="ignore", invalid="ignore"):
        shifted = np.where(np.isfinite(ratio), a * (ratio - top[:, None]), -np.inf)
    return a / beta * top + logsumexp(shifted + log_q[None, :], axis=1) / beta


def _conic_sibson_prior(k: NDArray[np.float64], a: float) -> NDArray[np.float64]:
    """A near-optimal prior for Sibson's capacity from cvxpy (:func:`_conic_prior`):
    ``g(P) = Σ_y c_y (Σ_x P_x (K_xy/c_y)^α)^{1/α}`` with ``c_y = max_x K_xy`` (no
    underflow), concave for α > 1."""
    import cvxpy as cp

    scale = k.max(axis=0)
    powered = (k / scale) ** a
    return _conic_prior(k.shape[0], lambda p: scale @ cp.power(powered.T @ p, 1 / a))


#: The channel orders moved to :mod:`mechdesign.measures.channel_orders`; for one release
#: they still answer here, with a :class:`DeprecationWarning`.
__getattr__ = deprecated_names(__name__, {
    name: f"mechdesign.measures.channel_orders.{name}" for name in (
        "DEGRADATION_ATOL", "LESS_NOISY_MAX_INTERVALS", "LESS_NOISY_RTOL",
        "LESS_NOISY_SEARCH", "is_degraded", "is_less_noisy")})
