"""Streaming aggregation of users' reports, with confidence intervals.

**Aggregation** (:class:`Aggregator`). Users' reports are counted (``M`` integers, so a
stream in any chunks gives the batch result exactly) and the input histogram is
estimated by one of the estimators of :mod:`mechdesign.measures.estimation` and
:func:`~mechdesign.kernel.estimate_input_distribution`, with per-input normal confidence
intervals (the exact multinomial variance of a linear estimator, or the MLE's asymptotic
covariance).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import stats

from mechdesign._tolerances import EM_TOL
from mechdesign._validation import (
    as_distribution,
    as_indices,
    as_real,
    check_choice,
    check_int,
    check_real,
    show,
)
from mechdesign.deployment.rational import validated_kernel
from mechdesign.errors import InvalidInputError
from mechdesign.kernel import (
    EM_MAX_ITER,
    Mechanism,
    maximum_likelihood,
    project_to_simplex,
)
from mechdesign.measures.estimation import blue_estimator, information_matrix
from mechdesign.mechanisms.protocols import FrequencyOracle

__all__ = [
    "ESTIMATORS",
    "Aggregator",
]

#: The estimators of :class:`Aggregator`.
ESTIMATORS = ("blue", "standard", "least_squares", "ibu", "mle")


class Aggregator:
    """A streaming aggregate of users' reports and the input histogram they estimate.

    Parameters
    ----------
    K : Mechanism or array_like, shape (N, M)
        The kernel the users report through.
    estimator : {"blue", "standard", "least_squares", "ibu", "mle"}, default "blue"
        ``"blue"``: the best linear unbiased estimator at ``prior``
        (:func:`~mechdesign.measures.estimation.blue_estimator`); ``"standard"``: the
        protocol's own frequency-oracle estimator ``π̂ E`` when ``K`` is a
        :class:`~mechdesign.mechanisms.protocols.FrequencyOracle` (``E`` its
        ``estimator``: for Hadamard response, subset selection and OLH the support
        counts, which differ from ``K⁺``), else ``π̂ K⁺``, the least-squares unbiased
        inverse (k-RR's classic estimator);
        ``"least_squares"``: the Euclidean projection of the standard estimate onto the
        simplex; ``"ibu"`` and ``"mle"``: the maximum-likelihood estimate, by the
        iterative Bayesian update (Agrawal, Srikant & Thomas, SIGMOD 2005), which is EM
        for it — the two names give the same estimator.
    prior : array_like, shape (N,), optional
        Where the BLUE is best (uniform by default); only ``"blue"`` reads it.
    labels : sequence, optional
        Names of the inputs (N of them), kept for the caller's tables.
    tol : float, default :data:`~mechdesign._tolerances.EM_TOL`
        ``"ibu"``/``"mle"``: the certified likelihood gap at which the iteration stops
        (:func:`~mechdesign.kernel.maximum_likelihood`; :attr:`likelihood_gap`).
    max_iter : int, default :data:`~mechdesign.kernel.EM_MAX_ITER`
        ``"ibu"``/``"mle"``: the most iterations.

    Notes
    -----
    Only the ``M`` counts are kept, as integers, so reports added in any chunks give
    exactly the counts, and therefore the estimates, of one batch. Confidence intervals
    are normal: for the linear estimators (``f̂ = π̂ E``) with the exact multinomial
    variance ``(Σ_y π_y E_{yx}² − (Σ_y π_y E_{yx})²)/n`` at ``π = π̂``; for the others
    with the MLE's asymptotic covariance ``(J(p)⁻¹ − p pᵀ)/n`` (``J = K diag(pK)⁻¹ Kᵀ``,
    the information of :mod:`mechdesign.measures.estimation`) at the estimate, clipped to
    ``[0, 1]``. Their target is the input distribution of users drawn i.i.d.

    After an ``"ibu"``/``"mle"`` estimate, :attr:`likelihood_gap` holds its certificate:
    an upper bound on the log-likelihood per report by which the estimate may fall short
    of the maximum (0 at a maximiser; ``None`` before an estimate, and for the linear
    estimators).
    """

    def __init__(self, K: Mechanism | ArrayLike, *, estimator: str = "blue",
                 prior: ArrayLike | None = None, labels: Sequence[Hashable] | None = None,
                 tol: float = EM_TOL, max_iter: int = EM_MAX_ITER):
        self._k, self._mechanism = validated_kernel(K)
        self._tol = check_real(tol, "tol", low=0.0, high=math.inf, low_open=True,
                               high_open=True)
        self._max_iter = check_int(max_iter, "max_iter", low=1)
        self.likelihood_gap: float | None = None
        n, m = self._k.shape
        self.estimator = check_choice(estimator, "estimator", ESTIMATORS)
        self._prior = None
        if prior is not None:
            self._prior = as_distribution(prior, "prior", n)
        if labels is not None:
            labels = list(labels)
            if len(labels) != n:
                raise InvalidInputError(
                    f"labels must name the {n} inputs; got {len(labels)} labels.")
        self.labels = labels
        self._counts = np.zeros(m, dtype=np.int64)
        self._linear: NDArray[np.float64] | None = None
        if self.estimator == "blue":
            self._linear = blue_estimator(self._mechanism, np.full(n, 1.0 / n)
                                          if self._prior is None else self._prior)
        elif self.estimator in ("standard", "least_squares"):
            if np.linalg.matrix_rank(self._k) < n:
                raise InvalidInputError(
                    f"estimator={self.estimator!r} needs K of full row rank {n}; got rank "
                    f"{np.linalg.matrix_rank(self._k)}: no unbiased inverse exists.")
            own = K.estimator if isinstance(K, FrequencyOracle) else None
            self._linear = np.linalg.pinv(self._k) if own is None else np.array(own)

    def add(self, reports: ArrayLike) -> Aggregator:
        """Count a chunk of reports (output indices in ``[0, M)``); returns ``self``."""
        indices = as_indices(reports, "reports", self._k.shape[1])
        self._counts += np.bincount(indices.ravel(), minlength=self._k.shape[1])
        return self

    @property
    def n(self) -> int:
        """Reports counted so far."""
        return int(self._counts.sum())

    @property
    def counts(self) -> NDArray[np.int64]:
        return self._counts.copy()

    def estimate(self) -> NDArray[np.float64]:
        """The estimated input histogram (frequencies), shape (N,)."""
        frequencies = self._frequencies()
        if self.estimator in ("blue", "standard"):
            return frequencies @ self._linear
        if self.estimator == "least_squares":
            return project_to_simplex(frequencies @ self._linear)
        p, self.likelihood_gap, _ = maximum_likelihood(
            self._k, self._frequencies(), tol=self._tol, max_iter=self._max_iter)
        return p

    def confidence_intervals(self, level: float = 0.95, *, target: str = "distribution",
                             simultaneous: bool = False) -> NDArray[np.float64]:
        """Per-input ``[lower, upper]`` at ``level`` (class notes), shape (N, 2).

        Parameters
        ----------
        level : float, default 0.95
            The confidence, in ``(0, 1)``.
        target : {"distribution", "histogram"}, default "distribution"
            What the intervals cover: the input distribution ``p`` the users were drawn
            from (i.i.d. inputs), or the users' own histogram ``h`` (a fixed population:
            only the reports are random, so the variance drops by the inputs' own
            multinomial part, ``(h_x − h_x²)/n`` on the diagonal: ``Σ_y π_y E_{yx}² −
            h_x`` for a linear unbiased estimator, ``J⁻¹ − diag(p)`` for the MLE's
            asymptotic covariance), the target of the MSE figures.
        simultaneous : bool, default False
            Intervals that hold for every input at once with probability ``level``
            (Bonferroni: each at ``1 − (1 − level)/N``).
        """
        confidence = as_real(level, "level")
        if not 0 < confidence < 1:
            raise InvalidInputError(f"level must lie in (0, 1); got {show(level)}.")
        check_choice(target, "target", ("distribution", "histogram"))
        if not isinstance(simultaneous, bool):
            raise InvalidInputError(
                f"simultaneous must be True or False; got {show(simultaneous)}.")
        n_inputs = self._k.shape[0]
        tail = (1.0 - confidence) / (n_inputs if simultaneous else 1)
        z = float(stats.norm.isf(tail / 2))
        estimate = self.estimate()
        n = self.n
        if self.estimator in ("blue", "standard"):
            frequencies = self._frequencies()
            second = frequencies @ self._linear ** 2
            mean = frequencies @ self._linear
            spread = second - (mean ** 2 if target == "distribution" else mean)
            half = z * np.sqrt(np.maximum(spread, 0.0) / n)
            return np.column_stack([estimate - half, estimate + half])
        p = np.clip(estimate, 0.0, 1.0)
        inverse = np.linalg.pinv(information_matrix(self._mechanism, p))
        variance = (np.diag(inverse) - (p ** 2 if target == "distribution" else p)) / n
        half = z * np.sqrt(np.maximum(variance, 0.0))
        return np.column_stack([np.clip(estimate - half, 0.0, 1.0),
                                np.clip(estimate + half, 0.0, 1.0)])

    def _frequencies(self) -> NDArray[np.float64]:
        if self.n == 0:
            raise InvalidInputError("the aggregator holds no reports yet: call add first.")
        return self._counts / self.n
