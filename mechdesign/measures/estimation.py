"""Estimation error of a kernel: workloads, the best linear unbiased estimator (BLUE) and
its exact error — the metric deployments of local privacy are judged by.

Model and conventions (rows are inputs; see the package docstring). ``n`` users each send
one report of a kernel ``K`` (N × M); the collector estimates the input histogram ``f``
from the report frequencies ``π̂`` with a linear estimator ``E`` (M × N),
``f̂ = π̂ E``, and answers a workload ``W`` (L × N) of linear queries by ``f̂ Wᵀ``.

**The BLUE at an assumed input distribution p** (Gauss–Markov). Let ``r = pK`` (the
report distribution), ``D = diag(r)`` and

.. math::

    J = K D^{-1} K^\\top = \\sum_{y:\\, r_y > 0} \\frac{k_y k_y^\\top}{r_y}
    \\qquad (k_y \\text{ the column } y \\text{ of } K).

An estimator ``f̂ = π̂ E`` is unbiased for every input distribution exactly when
``K E = I``. Under p the report frequencies have mean ``r`` and covariance
``(D − r rᵀ)/n``, so ``Cov(f̂) = Eᵀ(D − r rᵀ)E / n``, and ``Eᵀ r = (K E)ᵀ p = p`` for
every unbiased ``E``: the ``r rᵀ`` term is the same for all of them. Minimising
``Eᵀ D E`` subject to ``K E = I`` (a weighted least-squares problem) gives

.. math::

    E^\\star = D^{-1} K^\\top J^{-1}, \\qquad E^{\\star\\top} D E^\\star = J^{-1},

and for any other unbiased ``E = E* + Z`` (``K Z = 0``) ``Eᵀ D E = J⁻¹ + Zᵀ D Z``: the
cross terms vanish since ``E*ᵀ D Z = J⁻¹ K Z = 0``. So ``E*`` is best in the Loewner
order — for every workload at once. No unbiased linear estimator of ``f`` exists when
``J`` is singular (rank ``K < N``).

**A workload that asks less** (one-way marginals of a product alphabet: rank below N).
An estimator ``E_W`` (M × L) of the answers ``f Wᵀ`` is unbiased for every input
distribution when ``K E_W = Wᵀ``, which is solvable exactly when the rows of ``W`` lie in
the range of ``K`` — equivalently of ``J`` (``range(K D^{−1/2}) = range(J)``). The same
weighted least squares gives ``E_W* = D⁻¹Kᵀ J⁺ Wᵀ`` (``K E_W* = J J⁺ Wᵀ = Wᵀ``) with
``E_W*ᵀ D E_W* = W J⁺ Wᵀ``, best in the Loewner order among them (the cross term is
``W J⁺ K Z = 0`` for ``K Z = 0``); for a regular ``J`` it is ``E* Wᵀ``. Any generalised
inverse of ``J`` gives the same ``W J⁻ Wᵀ`` (``W = A J``). A kernel that does not identify
the answers has error ``∞``.

**Its error per report** (``n · MSE``), for a workload ``W``:

.. math::

    n\\,\\mathbb E\\lVert (\\hat f - f) W^\\top \\rVert^2
    = \\operatorname{tr}(W J^{+} W^\\top) - \\operatorname{tr}(W \\operatorname{diag}(p) W^\\top)

against the users' own histogram ``f`` (the LDP literature's convention, and this
package's default ``target="histogram"``): given the inputs, the reports are independent
with ``Σ_x f_x Cov(E_{Y}|x)``, whose trace against ``WᵀW`` is ``Σ_y r_y ‖(E Wᵀ)_y‖²``
``− Σ_x p_x ‖(K E Wᵀ)_x‖² = tr(W J⁻¹ Wᵀ) − tr(W diag(p) Wᵀ)`` in expectation over inputs
drawn from ``p`` (``J⁺`` for a workload of lower rank, with ``E_W*`` for ``E Wᵀ``).
Against the distribution ``p`` itself (``target="distribution"``, the i.i.d.
convention) it is ``tr(W (J⁺ − p pᵀ) Wᵀ)``, larger by the multinomial term
``tr(W (diag(p) − p pᵀ) Wᵀ)``, which does not depend on the kernel.

**Workloads** (:func:`workload_matrix`): ``"histogram"`` (``W = I``), ``"prefix"``
(the CDF: row ``l`` sums the inputs ``0..l``), ``"all-range"`` (every interval
``[i, j]``, ``i ≤ j``, in the order ``(0,0), (0,1), …, (0,N−1), (1,1), …``) and
``"marginals"`` (for inputs that are tuples of a product alphabet of ``shape``,
flattened C-order: every one-way marginal, attribute by attribute), or any (L, N) array.

References: the estimator is Gauss–Markov's; its use for LDP frequency oracles is in
Kairouz, Bonawitz and Ramage (ICML 2016, "Discrete distribution estimation under local
privacy") and the workload error in McKenna, Maity, Mazumdar and Miklau (PVLDB 13(11),
2020), whose objective is this one at the uniform prior.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mechdesign._tolerances import RANK_RTOL, SYMMETRY_RTOL, WORKLOAD_RANGE_RTOL
from mechdesign._validation import as_distribution, as_float_array, check_positive_int, show
from mechdesign.errors import InvalidInputError, TooLargeError
from mechdesign.kernel import Mechanism, as_matrix

__all__ = [
    "MAX_WORKLOAD_ENTRIES",
    "WORKLOADS",
    "blue_error",
    "blue_estimator",
    "error_by_input",
    "information_matrix",
    "workload_inverse",
    "workload_matrix",
]

#: The named workloads of :func:`workload_matrix`.
WORKLOADS = ("histogram", "prefix", "all-range", "marginals")

#: The largest workload matrix built (L · N entries, 2^26 doubles = 512 MiB); all-range
#: reaches it at N = 512.
MAX_WORKLOAD_ENTRIES = 2**26


def workload_matrix(
    workload: str | ArrayLike | None, n: int, *, shape: tuple[int, ...] | None = None
) -> NDArray[np.float64]:
    """The workload ``W`` (L × N) of linear queries over N inputs.

    Parameters
    ----------
    workload : {None, "histogram", "prefix", "all-range", "marginals"} or array_like, shape (L, N)
        ``None`` and ``"histogram"``: the identity (every frequency). ``"prefix"``: row
        ``l`` is the indicator of ``{0, …, l}`` (the CDF; N rows). ``"all-range"``: one
        row per interval ``[i, j]``, ``0 ≤ i ≤ j < N`` (N(N+1)/2 rows, ``i`` slowest).
        ``"marginals"``: the inputs are the tuples of a product alphabet of ``shape``
        (flattened C-order, last attribute fastest); one row per value of each attribute
        (``Σ shape`` rows, attribute by attribute). An array: its rows are the queries.
    n : int
        Number of inputs N.
    shape : tuple of int, optional
        The product alphabet of ``"marginals"`` (``prod(shape) = N``, each ≥ 2); refused
        with the other workloads.

    Returns
    -------
    ndarray, shape (L, N)
    """
    n = check_positive_int(n, "n")
    if shape is not None and not (isinstance(workload, str) and workload == "marginals"):
        raise InvalidInputError(
            f"shape applies to workload='marginals' only; got shape={show(shape)} with "
            f"workload={show(workload)}."
        )
    if workload is None or (isinstance(workload, str) and workload == "histogram"):
        return np.eye(n)
    if isinstance(workload, str):
        if workload == "prefix":
            return np.tril(np.ones((n, n)))
        if workload == "all-range":
            rows = n * (n + 1) // 2
            if rows * n > MAX_WORKLOAD_ENTRIES:
                raise TooLargeError(
                    f"the all-range workload on N = {n} inputs has {rows} queries, "
                    f"{rows * n} entries, above MAX_WORKLOAD_ENTRIES = {MAX_WORKLOAD_ENTRIES}."
                )
            i, j = np.triu_indices(n)
            x = np.arange(n)
            return ((x >= i[:, None]) & (x <= j[:, None])).astype(float)
        if workload == "marginals":
            return _marginals(n, shape)
        raise InvalidInputError(
            f"workload must be None, one of {WORKLOADS} or an (L, N) array; got {show(workload)}."
        )
    w = as_float_array(workload, "workload", ndim=2)
    if w.shape[1] != n:
        raise InvalidInputError(
            f"workload must have N = {n} columns (one per input); got shape {w.shape}."
        )
    if not np.any(w):
        raise InvalidInputError("workload must have a non-zero entry; got all zeros.")
    return w


def _marginals(n: int, shape: tuple[int, ...] | None) -> NDArray[np.float64]:
    if shape is None:
        raise InvalidInputError(
            "workload='marginals' needs shape, the product alphabet's sizes (prod = N)."
        )
    try:
        sizes = tuple(shape)
    except TypeError:
        raise InvalidInputError(f"shape must be a tuple of sizes; got {show(shape)}.") from None
    sizes = tuple(check_positive_int(s, "shape") for s in sizes)
    if len(sizes) < 1 or any(s < 2 for s in sizes) or math.prod(sizes) != n:
        raise InvalidInputError(
            f"shape must be sizes >= 2 whose product is N = {n}; got {show(shape)}."
        )
    index = np.array(list(itertools.product(*(range(s) for s in sizes))))  # C order
    rows = [(index[:, a] == value).astype(float) for a, s in enumerate(sizes)
            for value in range(s)]
    return np.array(rows)


def information_matrix(kernel: Mechanism | ArrayLike, prior: ArrayLike) -> NDArray[np.float64]:
    """``J = K D⁻¹ Kᵀ = Σ_y k_y k_yᵀ / r_y`` (N × N) with ``r = pK`` (module docstring);
    outputs that are never reported under the prior (``r_y = 0``) are left out.

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        The mechanism ``K[x, y] = P(Y=y | X=x)``: N inputs (rows), M outputs; an array
        must be finite, non-negative and row-stochastic (rows sum to 1 within
        ``STOCHASTIC_ATOL``), else InvalidInputError.
    prior : array_like, shape (N,)
        The assumed input distribution p: non-negative, summing to 1 within
        ``STOCHASTIC_ATOL``.

    Returns
    -------
    ndarray, shape (N, N)
        Symmetric, positive semidefinite; when every output of K is reported under the
        prior, ``J p = 1`` (``K D⁻¹ r = K 1``), the row sums of K.
    """
    k = as_matrix(kernel)
    p = as_distribution(prior, "prior", k.shape[0])
    r = p @ k
    seen = r > 0
    return (k[:, seen] / r[seen]) @ k[:, seen].T


def _inverse(j: NDArray[np.float64]) -> NDArray[np.float64] | None:
    """``J⁻¹`` by the eigendecomposition, or None when J is singular (eigenvalues below
    :data:`~mechdesign._tolerances.RANK_RTOL` times the largest)."""
    values, vectors = np.linalg.eigh((j + j.T) / 2)
    if values[0] <= RANK_RTOL * values[-1]:
        return None
    return (vectors / values) @ vectors.T


def workload_inverse(j: NDArray[np.float64], w: NDArray[np.float64]
                     ) -> NDArray[np.float64] | None:
    """``J⁺``, the Moore–Penrose inverse of ``J`` (eigenvalues below
    :data:`~mechdesign._tolerances.RANK_RTOL` times the largest count as zero), when the
    workload's rows lie in ``J``'s range — the kernel identifies ``W f`` — else None.

    Identified means ``‖W (I − Π)‖ ≤`` :data:`~mechdesign._tolerances.WORKLOAD_RANGE_RTOL`
    ``· ‖W‖`` (Frobenius; ``Π = J J⁺``): the eigenvectors of a singular ``J``'s null space
    are computed to about ``1e-16 · cond``, so a workload in the range measures a
    residual of that order, not zero. For a regular ``J`` this is ``J⁻¹``.

    Parameters
    ----------
    j : array_like, shape (N, N)
        A finite symmetric information matrix (:func:`information_matrix`).
    w : array_like, shape (L, N)
        The workload's rows.

    Returns
    -------
    ndarray, shape (N, N), or None
    """
    j = as_float_array(j, "j", ndim=2)
    w = as_float_array(w, "w", ndim=2)
    if j.shape[0] != j.shape[1] or w.shape[1] != j.shape[0]:
        raise InvalidInputError(
            f"j must be square (N, N) and w (L, N); got j {j.shape} and w {w.shape}.")
    if not np.all(np.isfinite(j)) or not np.allclose(j, j.T, rtol=SYMMETRY_RTOL, atol=0.0):
        raise InvalidInputError("j must be finite and symmetric (an information matrix).")
    values, vectors = np.linalg.eigh((j + j.T) / 2)
    kept = values > RANK_RTOL * values[-1]
    if kept.all():
        return (vectors / values) @ vectors.T
    null = vectors[:, ~kept]
    if np.linalg.norm(w @ null) > WORKLOAD_RANGE_RTOL * np.linalg.norm(w):
        return None
    basis = vectors[:, kept]
    return (basis / values[kept]) @ basis.T


def _rank(j: NDArray[np.float64]) -> int:
    """The rank of ``j`` with singular values below ``RANK_RTOL`` times the largest read as
    zero (numpy's ``rtol=`` keyword is not in every numpy the package supports)."""
    return int(np.linalg.matrix_rank(j, tol=RANK_RTOL * np.linalg.norm(j, 2)))


def blue_estimator(
    kernel: Mechanism | ArrayLike,
    prior: ArrayLike,
    workload: str | ArrayLike | None = None,
    *,
    shape: tuple[int, ...] | None = None,
) -> NDArray[np.float64]:
    """The best linear unbiased estimator at the prior: of the histogram,
    ``E = D⁻¹ Kᵀ J⁻¹`` (M × N); given a ``workload``, of its answers,
    ``E_W = D⁻¹ Kᵀ J⁺ Wᵀ`` (M × L) — the one to use when the workload has rank below N.

    ``f̂ = π̂ E`` (answers ``π̂ E_W``) is unbiased under every input distribution
    (``K E = I``; ``K E_W = Wᵀ``) and, among unbiased linear estimators, has the least
    covariance when the inputs follow ``prior`` — for every workload at once (module
    docstring). Rows of outputs never reported under the prior are 0.

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        The mechanism ``K[x, y] = P(Y=y | X=x)``: N inputs (rows), M outputs; an array
        must be finite, non-negative and row-stochastic (rows sum to 1 within
        ``STOCHASTIC_ATOL``), else InvalidInputError.
    prior : array_like, shape (N,)
        The assumed input distribution p at which the estimator is best: non-negative,
        summing to 1 within ``STOCHASTIC_ATOL``. Unbiasedness does not depend on it.
    workload : {None, "histogram", "prefix", "all-range", "marginals"} or array_like, shape (L, N)
        Optional: estimate the answers ``f Wᵀ`` (:func:`workload_matrix`) instead of
        the histogram; default None, the histogram's estimator (M × N).
    shape : tuple of int, optional
        The product alphabet of the ``"marginals"`` workload.

    Returns
    -------
    ndarray, shape (M, N), or (M, L) given a workload
        The estimator; ``π̂ E`` for report frequencies ``π̂`` of shape (M,).

    Raises
    ------
    InvalidInputError
        When the kernel cannot identify what is asked — the input distribution (``J``
        singular: rank ``K < N``, or the outputs reported under the prior do not span
        the inputs), or the workload's answers (its rows outside ``J``'s range): no
        unbiased linear estimator exists.
    """
    k = as_matrix(kernel)
    p = as_distribution(prior, "prior", k.shape[0])
    j = information_matrix(kernel, p)   # the object: validated once
    if workload is None and shape is None:
        inverse, answers = _inverse(j), np.eye(k.shape[0])
        asked = "the input distribution"
    else:
        answers = workload_matrix(workload, k.shape[0], shape=shape)
        inverse, asked = workload_inverse(j, answers), "the workload's answers"
    if inverse is None:
        raise InvalidInputError(
            f"kernel cannot identify {asked} (its information matrix J = K D^-1 K^T has "
            f"rank {_rank(j)} for N = {k.shape[0]} inputs"
            + ("" if workload is None and shape is None else
               ", and the workload's rows are not in its range")
            + "): no unbiased linear estimator exists."
        )
    r = p @ k
    seen = r > 0
    e = np.zeros((k.shape[1], answers.shape[0]))
    e[seen] = (k[:, seen].T / r[seen, None]) @ (inverse @ answers.T)
    return e


def blue_error(
    kernel: Mechanism | ArrayLike,
    prior: ArrayLike,
    workload: str | ArrayLike | None = None,
    *,
    shape: tuple[int, ...] | None = None,
    target: str = "histogram",
) -> float:
    """The BLUE's expected squared workload error per report, ``n · MSE`` (module
    docstring):

    .. math::

        \\operatorname{tr}(W J^{-1} W^\\top) - \\operatorname{tr}(W \\operatorname{diag}(p)
        W^\\top) \\quad (\\text{histogram}), \\qquad
        \\operatorname{tr}(W (J^{-1} - p p^\\top) W^\\top) \\quad (\\text{distribution}).

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        The mechanism ``K[x, y] = P(Y=y | X=x)``: N inputs (rows), M outputs; an array
        must be finite, non-negative and row-stochastic (rows sum to 1 within
        ``STOCHASTIC_ATOL``), else InvalidInputError.
    prior : array_like, shape (N,)
        The input distribution, assumed by the estimator and followed by the inputs:
        non-negative, summing to 1 within ``STOCHASTIC_ATOL``.
    workload : {None, "histogram", "prefix", "all-range", "marginals"} or array_like, shape (L, N)
        The queries, as in :func:`workload_matrix`; default ``None``, the histogram
        (``W = I``).
    shape : tuple of int, optional
        The product alphabet of the ``"marginals"`` workload (``prod(shape) = N``, each
        ≥ 2); refused with the other workloads.
    target : {"histogram", "distribution"}
        Error against the users' own histogram (default) or against ``prior``.

    Returns
    -------
    float
        ``math.inf`` when the kernel cannot identify the workload's answers (its rows
        outside the range of ``J``; for a workload of rank N, when it cannot identify the
        input distribution).
    """
    k = as_matrix(kernel)
    p = as_distribution(prior, "prior", k.shape[0])
    w = workload_matrix(workload, k.shape[0], shape=shape)
    if target not in ("histogram", "distribution"):
        raise InvalidInputError(
            f"target must be 'histogram' or 'distribution'; got {show(target)}."
        )
    inverse = workload_inverse(information_matrix(k, p), w)
    if inverse is None:
        return math.inf
    error = _histogram_error(k, p, w, inverse)
    if target == "histogram":
        return error
    wp = w @ p
    return error + float(np.sum(w * w * p)) - float(wp @ wp)


def _histogram_error(k, p, w, inverse) -> float:
    """``tr(W (J⁺ − P) Wᵀ)`` (``P = diag p``) without the cancellation of subtracting
    two numbers of order one when the error is far smaller (large ε: ``e^{−ε}``).

    ``J⁻¹ − P = J⁻¹(I − JP)`` and its transpose give
    ``J⁻¹ = P + S + (I − JP)ᵀ J⁻¹ (I − JP)`` with ``S = P − PJP``. With the posteriors
    ``q_y = P k_y / r_y``, ``S = Σ_y r_y (diag q_y − q_y q_yᵀ)`` (the covariances) and
    ``(I − JP)_ij = Σ_y K_iy (δ_ij − q_yj)``; the diagonals need ``1 − q_yi =
    Σ_{j≠i} p_j K_jy / r_y``, summed directly (prefix and suffix sums of non-negative
    terms), so every entry is computed to relative accuracy and the error is the sum of
    two positive semidefinite forms. With ``J⁺`` for ``J⁻¹`` (a workload of lower rank)
    the same expansion is ``J⁺ + 2P − PΠ − ΠP`` (``Π = JJ⁺``), and ``ΠWᵀ = Wᵀ`` when
    the rows of ``W`` lie in ``J``'s range: the identity holds for ``W``."""
    seen = (p @ k) > 0
    k = k[:, seen]
    r = p @ k
    mass = p[:, None] * k  # p_i K_iy
    zero = np.zeros((1, mass.shape[1]))
    before = np.vstack([zero, np.cumsum(mass, axis=0)[:-1]])  # Σ_{j<i}, no subtraction
    after = np.vstack([np.cumsum(mass[::-1], axis=0)[::-1][1:], zero])  # Σ_{j>i}
    others = before + after  # Σ_{j≠i} p_j K_jy
    posterior = mass / r  # q_yi, N × M
    covariance = -(posterior * r) @ posterior.T  # −Σ_y r_y q_y q_yᵀ
    np.fill_diagonal(covariance, np.sum(mass * others / r, axis=1))
    residual = -(k / r) @ mass.T  # −Σ_y K_iy q_yj, then the diagonal
    np.fill_diagonal(residual, np.sum(k * others / r, axis=1))
    c = residual @ w.T  # N × L
    first = float(np.sum((w @ covariance) * w))
    second = float(np.sum((inverse @ c) * c))
    return first + second


def error_by_input(
    kernel: Mechanism | ArrayLike,
    estimator: ArrayLike,
    workload: str | ArrayLike | None = None,
    *,
    shape: tuple[int, ...] | None = None,
) -> NDArray[np.float64]:
    """The per-report workload error of a fixed unbiased linear estimator when every user
    holds input ``x``, one value per input:

    .. math::

        a_x = \\sum_y K_{xy} \\lVert A_y - W_{:,x} \\rVert^2
            = \\sum_y K_{xy} \\lVert A_y \\rVert^2 - \\lVert W_{:,x} \\rVert^2,

    with ``A = E Wᵀ`` for an estimator of the histogram (``K E = I``) or ``A = E_W`` for
    one of the workload's answers (``K E_W = Wᵀ``, :func:`blue_estimator` given the
    workload). A report from input ``x`` contributes the row ``A_y`` of its output ``y``;
    its mean is ``(KA)_x = W_{:,x}`` by unbiasedness, so ``a_x`` is its variance. With
    users' histogram ``f`` the error against that histogram is ``Σ_x f_x a_x`` per report —
    linear in ``f`` — so the worst case over every input distribution is ``max_x a_x``,
    the error of a data-independent estimator (``p·a`` is :func:`blue_error` when ``E`` is
    the BLUE at ``p``).

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        The mechanism ``K[x, y] = P(Y=y | X=x)``: N inputs (rows), M outputs; an array
        must be finite, non-negative and row-stochastic.
    estimator : array_like, shape (M, N) or (M, L)
        A linear estimator unbiased, to within ``1e-8`` relative, for the histogram
        (``K E = I``; shape (M, N)) or for the workload's answers (``K E = Wᵀ``; shape
        (M, L)), else InvalidInputError; for example :func:`blue_estimator` at some prior.
        An (M, N) estimator unbiased for the histogram is read as one (they coincide when
        ``W = I``).
    workload : {None, "histogram", "prefix", "all-range", "marginals"} or array_like, shape (L, N)
        The queries, as in :func:`workload_matrix`; default the histogram.
    shape : tuple of int, optional
        The product alphabet of the ``"marginals"`` workload.

    Returns
    -------
    ndarray, shape (N,)
    """
    k = as_matrix(kernel)
    e = as_float_array(estimator, "estimator", ndim=2)
    w = workload_matrix(workload, k.shape[0], shape=shape)
    n, m = k.shape
    if e.shape[0] != m or e.shape[1] not in (n, w.shape[0]):
        raise InvalidInputError(
            f"estimator must have shape (M, N) = {(m, n)} (of the histogram) or (M, L) = "
            f"{(m, w.shape[0])} (of the workload's answers); got {e.shape}."
        )
    product = k @ e
    scale = max(1.0, float(np.abs(e).max()))

    def unbiased(target):
        return (product.shape == target.shape
                and np.abs(product - target).max() <= UNBIASED_RTOL * scale)

    if unbiased(np.eye(n)):
        rows = e @ w.T  # M × L: the report's contribution (EWᵀ)_y
    elif unbiased(w.T):
        rows = e
    else:
        target = np.eye(n) if e.shape[1] == n else w.T
        raise InvalidInputError(
            "estimator must be unbiased for the kernel (K E = I, or K E = W^T for the "
            "workload's answers); the largest entry of K E − "
            f"{'I' if e.shape[1] == n else 'W^T'} is "
            f"{show(float(np.abs(product - target).max()))}."
        )
    # the variance about the mean W_{:,x} itself, not E‖·‖² − ‖mean‖², which cancels to
    # nothing when the error is far below ‖W_{:,x}‖² (ε = 700: 1e-303 against 1)
    out = np.empty(n)
    for x in range(n):
        deviation = rows - w[:, x]
        out[x] = k[x] @ np.sum(deviation * deviation, axis=1)
    return out


#: An estimator is unbiased when ``K E`` is within this of ``I`` (times max(1, max|E|)).
UNBIASED_RTOL = 1e-8
