"""Leakage measures of a mechanism: mutual information, PML, LDP, (ε,c)-PML, maximal
leakage, event leakage, Rényi-LDP.

Conventions (package docstring): ``K[x, y] = P(Y=y | X=x)``, rows are inputs; natural
logarithms (nats). Every function takes a :class:`~mechdesign.kernel.Mechanism` or a
2-D array-like.

Priors with zero entries. The prior-dependent measures restrict the input alphabet to
the support of ``P_X``, as the papers do (PML is defined for ``P_X`` with full support;
Saeidian et al. 2023). So ``ℓ(X → y) = log max_{x: P_X(x) > 0} K[x, y] / P_Y(y)``, and an
input that never occurs cannot raise the leakage. Outputs that never occur
(``P_Y(y) = 0``) get leakage ``−∞`` (the ``0/0 := −∞`` convention of the audit),
the neutral element of the maxima that define every level, so they count for nothing.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mechdesign._validation import (
    as_distribution,
    as_float_array,
    as_real,
    check_alpha,
    check_c,
    show,
)
from mechdesign.errors import InvalidInputError
from mechdesign.kernel import Mechanism, as_matrix, column_log_ratio
from mechdesign.measures.divergences import renyi_divergence_rows

__all__ = [
    "bayes_vulnerability",
    "clone_mass",
    "dobrushin_coefficient",
    "event_leakage",
    "g_vulnerability",
    "information_density",
    "ldp_level",
    "maximal_leakage",
    "mutual_information",
    "pml_capacity",
    "pml_level",
    "pointwise_leakage",
    "renyi_ldp_level",
]

KernelLike = Mechanism | ArrayLike


def _kernel_and_prior(
    kernel: KernelLike, prior: ArrayLike
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    k = as_matrix(kernel)
    p = as_distribution(prior, "prior", k.shape[0])
    return k, p


def mutual_information(kernel: KernelLike, prior: ArrayLike, *, base: float | None = None) -> float:
    """``I(X; Y) = Σ_{x,y} P_X(x) K[x,y] log(K[x,y] / P_Y(y))``, in nats by default.

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        The mechanism ``K[x, y] = P(Y=y | X=x)``: N inputs (rows), M outputs; an array
        must be finite, non-negative and row-stochastic (rows sum to 1 within
        ``STOCHASTIC_ATOL``), else InvalidInputError.
    prior : array_like, shape (N,)
        The input distribution ``P_X``: non-negative, summing to 1 within
        ``STOCHASTIC_ATOL`` (never renormalised); zero entries are allowed and restrict the
        input alphabet to the support (module docstring).
    base : float, optional
        Logarithm base of the result (``2`` for bits): positive, finite and ≠ 1; default
        ``None``, natural logarithm (nats).

    Returns
    -------
    float
        ``I(X; Y) ≥ 0``, in nats unless ``base`` is given.
    """
    k, p = _kernel_and_prior(kernel, prior)
    joint = p[:, None] * k
    p_y = joint.sum(axis=0)
    mask = joint > 0
    # log K − log P_Y rather than log(K / P_Y): the ratio can overflow for tiny P_Y.
    log_ratio = np.log(k[mask]) - np.log(np.broadcast_to(p_y, k.shape)[mask])
    value = float(np.sum(joint[mask] * log_ratio))
    value = max(value, 0.0)  # I ≥ 0; only rounding can make the sum negative
    if base is None:
        return value
    b = as_real(base, "base")
    if not (b > 0 and b != 1 and math.isfinite(b)):
        raise InvalidInputError(f"base must be positive, finite and != 1; got {show(base)}.")
    return value / math.log(b)


def bayes_vulnerability(kernel: KernelLike, prior: ArrayLike) -> float:
    """Posterior Bayes vulnerability ``V(π, K) = Σ_y max_x π(x) K[x, y]``: the probability
    that an adversary who sees ``Y`` and guesses ``X`` by maximum a posteriori is right.

    Smith, "On the foundations of quantitative information flow", FoSSaCS 2009 (the
    min-entropy leakage is ``log V(π, K) − log max_x π(x)``); the case ``g = I`` of
    :func:`g_vulnerability`. Between ``max_x π(x)`` (no information) and 1.

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        The mechanism ``K[x, y] = P(Y=y | X=x)``: N inputs (rows), M outputs; an array
        must be finite, non-negative and row-stochastic (rows sum to 1 within
        ``STOCHASTIC_ATOL``), else InvalidInputError.
    prior : array_like, shape (N,)
        The input distribution ``π``: non-negative, summing to 1 within
        ``STOCHASTIC_ATOL`` (never renormalised); zero entries are allowed and restrict the
        input alphabet to the support (module docstring).

    Returns
    -------
    float
        The posterior Bayes vulnerability, a probability in ``[max_x π(x), 1]``.
    """
    k, p = _kernel_and_prior(kernel, prior)
    return float(np.sum(np.max(p[:, None] * k, axis=0)))


def g_vulnerability(kernel: KernelLike, prior: ArrayLike, gain: ArrayLike) -> float:
    """Posterior g-vulnerability of a gain function ``g[w, x]`` (guesses ``w``, secrets
    ``x``):

    .. math::

        V_g(\\pi, K) = \\sum_y P_Y(y) \\max_w \\sum_x g[w, x]\\, P(x \\mid y)
        = \\sum_y \\max_w \\sum_x \\pi(x)\\, g[w, x]\\, K[x, y],

    the expected gain of an adversary who sees ``Y`` and takes the best guess (Alvim,
    Chatzikokolakis, Palamidessi & Smith, "Measuring information leakage using
    generalized gain functions", CSF 2012 [1]_; libqif's ``g_vuln``). Computed here through
    the posteriors of the outputs that occur (``P_Y(y) > 0``); ``g = I`` is
    :func:`bayes_vulnerability`, and a loss ``L`` is the gain ``max L − L``.

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        The mechanism ``K[x, y] = P(Y=y | X=x)``: N inputs (rows), M outputs; an array
        must be finite, non-negative and row-stochastic (rows sum to 1 within
        ``STOCHASTIC_ATOL``), else InvalidInputError.
    prior : array_like, shape (N,)
        The input distribution ``π``: non-negative, summing to 1 within
        ``STOCHASTIC_ATOL`` (never renormalised); zero entries are allowed and restrict the
        input alphabet to the support (module docstring).
    gain : array_like, shape (W, N)
        The gain ``g[w, x]`` of guess ``w`` when the secret is ``x``: finite, one row per
        guess (``W ≥ 1``), one column per input.

    Returns
    -------
    float
        The posterior g-vulnerability ``V_g(π, K)``.

    References
    ----------
    .. [1] M. S. Alvim, K. Chatzikokolakis, C. Palamidessi, G. Smith, "Measuring Information Leakage
       Using Generalized Gain Functions", IEEE Computer Security Foundations Symposium (CSF)
       2012, doi:10.1109/CSF.2012.26.
    """
    k, p = _kernel_and_prior(kernel, prior)
    g = check_gain(gain, k.shape[0])
    p_y = p @ k
    seen = p_y > 0
    posterior = p[:, None] * k[:, seen] / p_y[seen]
    return float(np.sum(p_y[seen] * np.max(g @ posterior, axis=0)))


def check_gain(gain: ArrayLike, n: int, name: str = "gain") -> NDArray[np.float64]:
    """A gain (or loss) matrix: finite, 2-D, of shape ``(W, n)`` with ``W ≥ 1``."""
    g = as_float_array(gain, name, ndim=2)
    if g.shape[1] != n or g.shape[0] < 1:
        raise InvalidInputError(
            f"{name} must have shape (W, {n}) with W >= 1 guesses (one column per input of "
            f"the prior); got shape {g.shape}."
        )
    return g


def information_density(kernel: KernelLike, prior: ArrayLike) -> NDArray[np.float64]:
    """``i(x; y) = log P_XY(x, y) / (P_X(x) P_Y(y)) = log K[x, y] / P_Y(y)``.

    Envelope paper [1]_, Sec. II-C. Returns shape (N, M). Entries are ``−∞`` where
    ``K[x, y] = 0`` and, by the module's convention, in every column with
    ``P_Y(y) = 0``. Rows of inputs outside the support of the prior carry the same
    formula ``log K[x, y]/P_Y(y)`` (the likelihood ratio), though such ``x`` never occur.

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        The mechanism ``K[x, y] = P(Y=y | X=x)``: N inputs (rows), M outputs; an array
        must be finite, non-negative and row-stochastic (rows sum to 1 within
        ``STOCHASTIC_ATOL``), else InvalidInputError.
    prior : array_like, shape (N,)
        The input distribution ``P_X``: non-negative, summing to 1 within
        ``STOCHASTIC_ATOL`` (never renormalised); zero entries are allowed and restrict the
        input alphabet to the support (module docstring).

    Returns
    -------
    ndarray, shape (N, M)
        The information density in nats, ``−∞`` where described above.

    References
    ----------
    .. [1] S. Saeidian, C. Pinzón, C. Palamidessi, "Information Leakage Envelopes", 2026,
       arXiv:2605.21185.
    """
    k, p = _kernel_and_prior(kernel, prior)
    p_y = p @ k
    out = np.full(k.shape, -math.inf)
    cols = p_y > 0
    positive = (k > 0) & cols[None, :]
    out[positive] = np.log(k[positive]) - np.log(np.broadcast_to(p_y, k.shape)[positive])
    return out


def pointwise_leakage(kernel: KernelLike, prior: ArrayLike) -> NDArray[np.float64]:
    """PML of every outcome, ``ℓ(X → y)``, shape (M,).

    Dobrushin paper [1]_ eq. (10); envelope paper [2]_ Definition 4 (PML is Saeidian et
    al.'s [3]_):

    .. math::

        \\ell(X \\to y) = \\log \\frac{\\max_{x \\in \\operatorname{supp} P_X} K[x, y]}{P_Y(y)}
                       = \\max_x i(x; y).

    Outcomes with ``P_Y(y) = 0`` get ``−∞`` (module docstring). For the others
    ``0 ≤ ℓ(X → y) ≤ log(1 / min_{x ∈ supp} P_X(x))`` (envelope paper eq. 6). The lower
    end holds exactly (``P_Y(y)`` is an average of the ``K[x, y]``), so a value a
    rounding error below 0 (an output whose column is constant on the support) is
    returned as 0.

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        The mechanism ``K[x, y] = P(Y=y | X=x)``: N inputs (rows), M outputs; an array
        must be finite, non-negative and row-stochastic (rows sum to 1 within
        ``STOCHASTIC_ATOL``), else InvalidInputError.
    prior : array_like, shape (N,)
        The input distribution ``P_X``: non-negative, summing to 1 within
        ``STOCHASTIC_ATOL`` (never renormalised); zero entries are allowed and restrict the
        input alphabet to the support (module docstring).

    Returns
    -------
    ndarray, shape (M,)
        ``ℓ(X → y)`` in nats for every output ``y``; ``−∞`` where ``P_Y(y) = 0``.

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Dobrushin Coefficients of Private
       Mechanisms Beyond Local Differential Privacy", 2026, arXiv:2601.09498.
    .. [2] S. Saeidian, C. Pinzón, C. Palamidessi, "Information Leakage Envelopes", 2026,
       arXiv:2605.21185.
    .. [3] S. Saeidian, G. Cervia, T. J. Oechtering, M. Skoglund, "Pointwise Maximal Leakage", IEEE
       Transactions on Information Theory 69(12), 2023, arXiv:2205.04935.
    """
    k, p = _kernel_and_prior(kernel, prior)
    support = p > 0
    p_y = p @ k
    best = k[support].max(axis=0)
    out = np.full(k.shape[1], -math.inf)
    seen = p_y > 0
    out[seen] = np.maximum(np.log(best[seen]) - np.log(p_y[seen]), 0.0)
    return out


def pml_level(kernel: KernelLike, prior: ArrayLike) -> float:
    """``max_y ℓ(X → y)`` over outcomes of positive probability: the mechanism
    satisfies ε-PML for ``P_X`` iff this is ≤ ε (envelope paper [1]_, Sec. II-C; PML is
    defined in [2]_).

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        The mechanism ``K[x, y] = P(Y=y | X=x)``: N inputs (rows), M outputs; an array
        must be finite, non-negative and row-stochastic (rows sum to 1 within
        ``STOCHASTIC_ATOL``), else InvalidInputError.
    prior : array_like, shape (N,)
        The input distribution ``P_X``: non-negative, summing to 1 within
        ``STOCHASTIC_ATOL`` (never renormalised); zero entries are allowed and restrict the
        input alphabet to the support (module docstring).

    Returns
    -------
    float
        The PML level in nats, ``≥ 0``.

    References
    ----------
    .. [1] S. Saeidian, C. Pinzón, C. Palamidessi, "Information Leakage Envelopes", 2026,
       arXiv:2605.21185.
    .. [2] S. Saeidian, G. Cervia, T. J. Oechtering, M. Skoglund, "Pointwise Maximal Leakage", IEEE
       Transactions on Information Theory 69(12), 2023, arXiv:2205.04935.
    """
    return float(np.max(pointwise_leakage(kernel, prior)))


def ldp_level(kernel: KernelLike) -> float:
    """The LDP level, Dobrushin paper [1]_ eq. (1):

    .. math::

        \\mathrm{LDP}(K) = \\max_y \\max_{x, x'} \\log \\frac{K[x, y]}{K[x', y]}.

    All-zero columns are ignored (``0/0``); a column mixing zero and positive entries
    gives ``math.inf``. A kernel with one input has level 0.

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        The mechanism ``K[x, y] = P(Y=y | X=x)``: N inputs (rows), M outputs; an array
        must be finite, non-negative and row-stochastic (rows sum to 1 within
        ``STOCHASTIC_ATOL``), else InvalidInputError.

    Returns
    -------
    float
        The least ε (nats) for which the kernel is ε-LDP; ``math.inf`` if there is none.

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Dobrushin Coefficients of Private
       Mechanisms Beyond Local Differential Privacy", 2026, arXiv:2601.09498.
    """
    return column_log_ratio(kernel)


def clone_mass(kernel: KernelLike) -> float:
    """The clone mass of a kernel: the largest ``r`` with every used column ``c`` of
    ``K`` satisfying ``min(c) ≥ r (c₍₁₎ + c₍₂₎)`` (its two largest entries),

    .. math::

        r(K) = \\min_y \\frac{\\min_x K[x, y]}{c_{(1)} + c_{(2)}}, \\qquad
        c = K[:, y].

    It is the smallest over row pairs ``(x₀, x₁)`` of ``min_y min_x K[x, y]/(K[x₀, y] +
    K[x₁, y])``, the probability with which another user's report is a clone of each of
    the pair's two rows in Feldman, McMillan & Talwar's clone reduction of shuffling
    [1]_ (``mechdesign.accounting.shuffle``). ``r ≤ 1/2``; k-RR at ε₀ has ``1/(e^{ε₀} +
    1)``, any ε₀-LDP kernel at least ``e^{−ε₀}/2``. All-zero columns are ignored.

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        The mechanism (rows are inputs); N ≥ 2.

    Returns
    -------
    float
        ``r(K)`` in ``[0, 1/2]``.

    References
    ----------
    .. [1] V. Feldman, A. McMillan, K. Talwar, "Hiding Among the Clones: A Simple and Nearly
       Optimal Analysis of Privacy Amplification by Shuffling", FOCS 2021, arXiv:2012.12803.
    """
    k = as_matrix(kernel)
    if k.shape[0] < 2:
        raise InvalidInputError(
            f"kernel must have at least 2 inputs for a clone mass; got {k.shape[0]}.")
    k = k[:, k.max(axis=0) > 0]
    top_two = -np.partition(-k, 1, axis=0)[:2].sum(axis=0)
    return float(min(0.5, (k.min(axis=0) / top_two).min()))


def pml_capacity(kernel: KernelLike, c: float) -> float:
    """The (ε,c)-PML level ``C(K, Q_X(c))``, the least ε with ``K ∈ M(ε, c)``.

    Dobrushin paper [1]_, Definition 1 (eq. 16–17) with ``Q_X(c) = {P : min_x P(x) ≥ c}``
    (eq. 15), in the closed form of the proof of Lemma 4 (eq. 75):

    .. math::

        C(K, \\mathcal Q_X(c)) = \\max_y \\log
        \\frac{\\max_x K[x, y]}{c \\sum_x K[x, y] + (1 - Nc) \\min_x K[x, y]}.

    All-zero columns are ignored. ``c`` must satisfy ``0 < c ≤ 1/N``; at ``c = 1/N``
    this is the PML level for the uniform prior, and as ``c → 0`` it tends to
    :func:`ldp_level`. The denominator is at most ``N c max + (1 − Nc) max = max``, so
    the level is ≥ 0 exactly; the result is clamped there (rounding gave −2.2e-16 for a
    constant kernel, which ε ≥ 0 checks downstream then rejected).

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        The mechanism ``K[x, y] = P(Y=y | X=x)``: N inputs (rows), M outputs; an array
        must be finite, non-negative and row-stochastic (rows sum to 1 within
        ``STOCHASTIC_ATOL``), else InvalidInputError.
    c : float
        The least prior mass of the uncertainty set ``Q_X(c)``; must satisfy
        ``0 < c ≤ 1/N`` (a value a relative 1e-12 above ``1/N`` is read as ``1/N``).

    Returns
    -------
    float
        The (ε,c)-PML level in nats: finite (the ``c Σ_x`` term keeps each denominator
        positive, even where a column has zeros) and ``≥ 0``.

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Dobrushin Coefficients of Private
       Mechanisms Beyond Local Differential Privacy", 2026, arXiv:2601.09498.
    """
    k = as_matrix(kernel)
    n = k.shape[0]
    c_val = check_c(c, n)
    col_max = k.max(axis=0)
    used = col_max > 0
    # Each column divided by its maximum first: the ratio is scale-free, and a column of
    # subnormal entries (5e-324) must not underflow its denominator to 0.
    scaled = k[:, used] / col_max[used]
    denominator = c_val * scaled.sum(axis=0) + (1.0 - n * c_val) * scaled.min(axis=0)
    return max(0.0, float(np.max(-np.log(denominator))))


def maximal_leakage(kernel: KernelLike) -> float:
    """Maximal leakage ``L(X → Y) = log Σ_y max_x K[x, y]`` (Issa, Wagner & Kamath 2020
    [1]_, Thm. 1), the multiplicative Bayes capacity of QIF; envelope paper [2]_,
    Theorem 3.

    This is the value for priors of full support; ``I(X; Y) ≤ L(X → Y)`` for every prior.

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        The mechanism ``K[x, y] = P(Y=y | X=x)``: N inputs (rows), M outputs; an array
        must be finite, non-negative and row-stochastic (rows sum to 1 within
        ``STOCHASTIC_ATOL``), else InvalidInputError.

    Returns
    -------
    float
        ``L(X → Y)`` in nats, between 0 and ``log min(N, M)``.

    References
    ----------
    .. [1] I. Issa, A. B. Wagner, S. Kamath, "An Operational Approach to Information Leakage", IEEE
       Transactions on Information Theory 66(3):1625-1657, 2020, doi:10.1109/TIT.2019.2962804.
    .. [2] S. Saeidian, C. Pinzón, C. Palamidessi, "Information Leakage Envelopes", 2026,
       arXiv:2605.21185.
    """
    k = as_matrix(kernel)
    return float(np.log(k.max(axis=0).sum()))


def event_leakage(kernel: KernelLike, prior: ArrayLike, event: ArrayLike) -> float:
    """Leakage to a (randomised) event, envelope paper [1]_ App. C (eq. 23–24):

    .. math::

        \\ell(X \\to \\mathcal E) = \\log \\max_{x \\in \\operatorname{supp} P_X}
        \\frac{\\sum_y w_y K[x, y]}{\\sum_y w_y P_Y(y)},

    where ``w_y ∈ [0, 1]`` is the probability that outcome ``y`` is put in the event
    (``w`` the indicator of a set for a deterministic event). Equivalently the PML of
    outcome 1 of the binary post-processing ``Z = 1_E(Y)``.

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        The mechanism ``K[x, y] = P(Y=y | X=x)``: N inputs (rows), M outputs; an array
        must be finite, non-negative and row-stochastic (rows sum to 1 within
        ``STOCHASTIC_ATOL``), else InvalidInputError.
    prior : array_like, shape (N,)
        The input distribution ``P_X``: non-negative, summing to 1 within
        ``STOCHASTIC_ATOL`` (never renormalised); zero entries are allowed and restrict the
        input alphabet to the support (module docstring).
    event : array_like, shape (M,)
        Weights in [0, 1] (booleans allowed). ``P_Y(E) = Σ w_y P_Y(y)`` must be > 0.

    Returns
    -------
    float
        ``ℓ(X → E)`` in nats.

    References
    ----------
    .. [1] S. Saeidian, C. Pinzón, C. Palamidessi, "Information Leakage Envelopes", 2026,
       arXiv:2605.21185.
    """
    k, p = _kernel_and_prior(kernel, prior)
    w = as_float_array(event, "event", ndim=1)
    if w.shape[0] != k.shape[1]:
        raise InvalidInputError(
            f"event must have one weight per output ({k.shape[1]}); got length {w.shape[0]}."
        )
    if np.any((w < 0) | (w > 1)):
        raise InvalidInputError(f"event weights must lie in [0, 1]; got {show(w)}.")
    p_event = float(p @ k @ w)
    if p_event <= 0:
        raise InvalidInputError(
            "event must have positive probability P_Y(E) > 0 under the prior; it has 0."
        )
    given_x = k[p > 0] @ w
    return float(np.log(given_x.max()) - np.log(p_event))


def renyi_ldp_level(kernel: KernelLike, alpha: float) -> float:
    """The Rényi-LDP level of order α (f_α paper [1]_, Sec. VI; Gilani et al. [2]_):

    .. math::

        \\mathrm{RLDP}^{(\\alpha)}(K) = \\max_{x \\ne x'} D_\\alpha(K[x, :] \\| K[x', :]).

    ``α = ∞`` gives :func:`ldp_level`. For ``α ≥ 1`` any zero where another row is
    positive makes it ``math.inf``. A kernel with one input has level 0. All row pairs
    are evaluated at once, with the same numerics as
    :func:`~mechdesign.measures.divergences.renyi_divergence` (log-sum-exp, and ``log1p``/``expm1``
    near ``α = 1``).

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        The mechanism ``K[x, y] = P(Y=y | X=x)``: N inputs (rows), M outputs; an array
        must be finite, non-negative and row-stochastic (rows sum to 1 within
        ``STOCHASTIC_ATOL``), else InvalidInputError.
    alpha : float
        The Rényi order, ``α > 0``; ``math.inf`` allowed (the LDP level).

    Returns
    -------
    float
        The level in nats, ``≥ 0``; ``math.inf`` as described above.

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Bounds on the Privacy
       Amplification of Arbitrary Channels via the Contraction of f_α-Divergence", Allerton
       Conference 2025, arXiv:2501.11473.
    .. [2] A. Gilani, G. R. Kurri, O. Kosut, L. Sankar, "Unifying Privacy Measures via Maximal
       (α, β)-Leakage (MαbeL)", IEEE Transactions on Information Theory 70(6):4368-4395, 2024,
       arXiv:2304.07456.
    """
    a = check_alpha(alpha)
    k = as_matrix(kernel)
    if k.shape[0] == 1:
        return 0.0
    if math.isinf(a):
        return ldp_level(k)
    best = 0.0
    for i in range(k.shape[0]):
        others = np.delete(np.arange(k.shape[0]), i)
        best = max(best, float(np.max(renyi_divergence_rows(k[i], k[others], a))))
        if math.isinf(best):
            break
    return best


def dobrushin_coefficient(kernel: Mechanism | ArrayLike) -> float:
    """The Dobrushin coefficient ``η_TV(K)``, Dobrushin paper [1]_ eq. (9):

    .. math::

        \\eta_{TV}(K) = \\max_{x \\ne x'} \\mathrm{TV}(K[x, :], K[x', :])
                     = \\max_{x, x'} \\tfrac12 \\|K[x, :] - K[x', :]\\|_1 .

    It is the contraction coefficient of total variation, and every f-divergence
    contraction coefficient is at most it. A kernel with one input has coefficient 0.

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        The mechanism ``K[x, y] = P(Y=y | X=x)``: N inputs (rows), M outputs; an array
        must be finite, non-negative and row-stochastic (rows sum to 1 within
        ``STOCHASTIC_ATOL``), else InvalidInputError.

    Returns
    -------
    float
        ``η_TV(K)`` in [0, 1].

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Dobrushin Coefficients of Private
       Mechanisms Beyond Local Differential Privacy", 2026, arXiv:2601.09498.
    """
    k = as_matrix(kernel)
    # All row pairs at once: (N, N, M) is small for the alphabets this library handles;
    # fall back to a loop over rows when it would not be.
    n, m = k.shape
    if n * n * m <= 4_000_000:
        return float(0.5 * np.abs(k[:, None, :] - k[None, :, :]).sum(axis=2).max())
    return float(max(0.5 * np.abs(k - k[i]).sum(axis=1).max() for i in range(n)))
