"""The :class:`Mechanism` type: a validated, immutable row-stochastic kernel.

A mechanism is ``K[x, y] = P(Y = y | X = x)``: rows are inputs, columns are outputs
(see the package docstring). The robust-LDP paper writes the transpose; use
:meth:`Mechanism.from_columns` at that boundary.
"""

from __future__ import annotations

import json
import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mechdesign._tolerances import (
    EM_TOL,
    PROPORTIONAL_RTOL,
    RANK_RTOL,
    STATED_LEVEL_RTOL,
    STOCHASTIC_ATOL,
)
from mechdesign._validation import (
    as_distribution,
    as_float_array,
    as_generator,
    as_indices,
    as_stochastic_matrix,
    check_choice,
    check_int,
    check_real,
    check_real_dtype,
    check_tolerance,
    grouped_search,
    json_document,
    show,
)
from mechdesign._version import installed_version
from mechdesign.errors import InvalidInputError, SolverError
from mechdesign.status import Status

__all__ = [
    "JSON_FORMAT",
    "JSON_FORMAT_VERSION",
    "Mechanism",
    "NotIdentifiableWarning",
    "as_matrix",
    "estimate_input_distribution",
    "maximum_likelihood",
    "output_classes",
    "project_to_simplex",
]

# -- algorithm knobs --------------------------------------------------------------------

#: Entries of the kernel's cumulative table built at a time by :meth:`Mechanism.sample`
#: (a block that stays in cache: three times faster than one pass at N = M = 10⁴).
CDF_BLOCK = 1 << 18

#: The shortest Newton step :func:`maximum_likelihood` tries before an EM step instead.
MLE_MIN_STEP = 1e-12

#: The log-likelihood's relative rounding: a step to the boundary, or one that lowers the
#: certified gap, is taken when it loses no more than this.
MLE_ROUNDING_RTOL = 1e-14

#: Iteration cap of the EM iteration; reaching it raises :class:`SolverError`.
EM_MAX_ITER = 200_000


@dataclass(frozen=True, eq=False)
class Mechanism:
    """A privacy mechanism ``K[x, y] = P(Y=y | X=x)`` on finite alphabets.

    Parameters
    ----------
    matrix : array_like, shape (N, M)
        Row-stochastic matrix; rows are the N inputs, columns the M outputs. It must be
        2-D, finite, non-negative, and every row must sum to 1 within ``atol``. Rows are
        not renormalised: a matrix that fails a check raises.
    atol : float, optional
        Tolerance on the row sums (default :data:`mechdesign._tolerances.STOCHASTIC_ATOL`).

    Attributes
    ----------
    matrix : ndarray, shape (N, M)
        A read-only float copy of the kernel.

    Examples
    --------
    >>> K = Mechanism([[0.75, 0.25], [0.25, 0.75]])   # randomized response, ε = log 3
    >>> K.output_distribution([0.5, 0.5])
    array([0.5, 0.5])
    """

    matrix: NDArray[np.float64]
    atol: float = field(default=STOCHASTIC_ATOL, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "matrix",
                           as_stochastic_matrix(self.matrix, "matrix", atol=self.atol))

    # -- construction -------------------------------------------------------------------

    @classmethod
    def from_columns(cls, q: ArrayLike, *, atol: float = STOCHASTIC_ATOL) -> Mechanism:
        """Build from the column-stochastic orientation ``Q[y, x] = P(Y=y | X=x)``.

        The robust-LDP paper (Lopuhaä-Zwakenberg & Goseling, Sec. 2) represents a
        mechanism by a left-stochastic matrix whose *columns* are inputs; this transposes
        it once at the boundary.
        """
        check_real_dtype(q, "q")
        columns = as_stochastic_matrix(np.asarray(q).T,
                                       "q (transposed: its columns are the inputs)", atol=atol)
        return cls._validated(columns, atol)

    @classmethod
    def _validated(cls, matrix: NDArray[np.float64], atol: float) -> Mechanism:
        """A Mechanism of a matrix that is a kernel by construction (checked where it was
        built, at its own precision); not checked again."""
        matrix = np.array(matrix, dtype=float)
        matrix.setflags(write=False)
        self = object.__new__(cls)
        object.__setattr__(self, "matrix", matrix)
        object.__setattr__(self, "atol", atol)
        return self

    def to_columns(self) -> NDArray[np.float64]:
        """The transpose ``Q[y, x]``, the robust-LDP paper's orientation."""
        return self.matrix.T.copy()

    # -- shape ----------------------------------------------------------------------------

    @property
    def n_inputs(self) -> int:
        """N, the number of inputs (rows)."""
        return int(self.matrix.shape[0])

    @property
    def n_outputs(self) -> int:
        """M, the number of outputs (columns)."""
        return int(self.matrix.shape[1])

    @property
    def shape(self) -> tuple[int, int]:
        """(N, M)."""
        return (self.n_inputs, self.n_outputs)

    # -- distributions -------------------------------------------------------------------

    def output_distribution(self, prior: ArrayLike) -> NDArray[np.float64]:
        """``P_Y = K ∘ P_X``, i.e. ``P_Y(y) = Σ_x P_X(x) K[x, y]``."""
        p = as_distribution(prior, "prior", self.n_inputs)
        return p @ self.matrix

    def joint_distribution(self, prior: ArrayLike) -> NDArray[np.float64]:
        """``P_XY = K × P_X``, i.e. ``P_XY[x, y] = P_X(x) K[x, y]``, shape (N, M)."""
        p = as_distribution(prior, "prior", self.n_inputs)
        return p[:, None] * self.matrix

    def posterior(self, prior: ArrayLike) -> NDArray[np.float64]:
        """``P_X|Y[x, y] = P_XY[x, y] / P_Y(y)``, shape (N, M).

        Columns of outputs with ``P_Y(y) = 0`` are undefined and raise: call
        :meth:`reduced` or restrict the prior first.
        """
        joint = self.joint_distribution(prior)
        p_y = joint.sum(axis=0)
        if np.any(p_y <= 0):
            y = int(np.argmin(p_y))
            raise InvalidInputError(
                f"posterior is undefined for output {y}: P_Y({y}) = 0 under this prior."
            )
        return joint / p_y

    # -- composition -------------------------------------------------------------------------

    def then(self, post: Mechanism | ArrayLike) -> Mechanism:
        """Post-processing ``X → Y → Z``: the kernel ``K @ K'`` with ``K'[y, z] = P(z | y)``."""
        k_post = as_matrix(post, "post")
        if k_post.shape[0] != self.n_outputs:
            raise InvalidInputError(
                f"post must have one row per output of K ({self.n_outputs}); "
                f"got shape {k_post.shape}."
            )
        # The product's rows sum to 1 within the factors' own precision (float32 ``post``
        # included): it is a kernel by construction, not a user's input to check again.
        return Mechanism._validated(self.matrix @ k_post, self.atol)

    def reduced(self, *, rtol: float = PROPORTIONAL_RTOL) -> Mechanism:
        """The reduced mechanism: all-zero columns removed, proportional columns merged.

        Two outputs ``y, y'`` are *similar* when ``K[:, y] = c K[:, y']`` for some
        ``c > 0``; they induce the same posterior for every prior, so merging them (adding
        the columns) changes no leakage quantity. The reduced mechanism merges every class
        of similar outputs and drops outputs that no input produces (envelope paper,
        App. C, following McIver et al. 2014). Classes are ordered by their first output;
        :func:`output_classes` gives the grouping.
        """
        classes = output_classes(self, rtol=check_tolerance(rtol, "rtol"))
        columns = [self.matrix[:, group].sum(axis=1) for group in classes]
        return Mechanism._validated(np.column_stack(columns), self.atol)

    # -- privatising data --------------------------------------------------------------------

    def sample(self, x: ArrayLike, rng: np.random.Generator | int | None = None) -> NDArray:
        """Privatise inputs: draw ``Y_i ~ K[x_i, :]`` independently for every ``x_i``.

        By inverse transform: one uniform per draw, taken in the order of the inputs
        sorted by value (stably), and a binary search of the input's row in the kernel's
        cumulative table (built once per Mechanism and kept). The draws are exactly
        those of ``Generator.choice(M, p=K[x])`` called input by input in increasing
        order, at a fraction of its cost for many inputs (``benchmarks/sampling.py``).
        For sampling that is exact in law, see
        :func:`~mechdesign.deployment.rational_mechanism`.

        Parameters
        ----------
        x : array_like of int
            Input indices in ``[0, N)``; any shape.
        rng : numpy.random.Generator or int or None
            Source of randomness (an int seeds a new ``default_rng``).

        Returns
        -------
        ndarray of int, same shape as ``x``
            Output indices in ``[0, M)``.
        """
        indices = as_indices(x, "x", self.n_inputs)
        uniforms = as_generator(rng).random(indices.size)
        return grouped_search(self._cumulative(), indices, uniforms).reshape(indices.shape)

    def _cumulative(self) -> NDArray[np.float64]:
        """Each row's cumulative sum divided by its last entry (as ``Generator.choice``
        builds it), computed once and kept: as much memory as the kernel."""
        cdf = getattr(self, "_cdf", None)
        if cdf is None:
            cdf = np.empty_like(self.matrix)
            rows = max(1, CDF_BLOCK // max(1, self.n_outputs))
            for start in range(0, self.n_inputs, rows):   # blocks that stay in cache
                block = np.cumsum(self.matrix[start:start + rows], axis=1)
                block /= block[:, -1:]
                cdf[start:start + rows] = block
            cdf.setflags(write=False)
            object.__setattr__(self, "_cdf", cdf)
        return cdf

    # -- saving --------------------------------------------------------------------------------

    def to_json(self, *, input_labels: Sequence[str | int] | None = None,
                output_labels: Sequence[str | int] | None = None,
                notion: str | None = None, epsilon: float | None = None) -> str:
        """The kernel as JSON text, for :meth:`from_json`.

        The matrix is written with Python's shortest round-trip float repr, so it reads
        back bit for bit. Beside it: optional labels of the inputs and outputs (strings
        or integers, N and M of them), the notion and ε it was designed for (``ε = ∞``
        is written as the string ``"inf"``: JSON has no infinity), and the versions of
        the format and of mechdesign.
        """
        document = {
            "format": JSON_FORMAT,
            "format_version": JSON_FORMAT_VERSION,
            "mechdesign_version": installed_version(),
            "matrix": self.matrix.tolist(),
            "input_labels": json_labels(input_labels, "input_labels", self.n_inputs),
            "output_labels": json_labels(output_labels, "output_labels", self.n_outputs),
            "notion": None if notion is None else str(notion),
            "epsilon": None if epsilon is None else _json_epsilon(epsilon),
        }
        return json.dumps(document, allow_nan=False)

    @classmethod
    def from_json(cls, text: str) -> Mechanism:
        """The kernel of :meth:`to_json`'s text, validated as any kernel is, and checked
        against the level its document states: when the notion is an LDP one
        (``LDP(…)``, ``CloneLDP(…)``) or not stated, a stated ε must be at least the
        kernel's LDP level (within :data:`~mechdesign._tolerances.STATED_LEVEL_RTOL`),
        else the document is refused by name. (Other notions' levels depend on a prior
        or a ``c`` the document does not hold.) The labels, notion and ε come back with
        :func:`~mechdesign.deployment.load_kernel`."""
        document = json_document(text, "text", JSON_FORMAT, JSON_FORMAT_VERSION)
        try:
            kernel = cls(document["matrix"])
        except KeyError as exc:
            raise InvalidInputError(f"text is not a valid kernel document: no {exc}.") from exc
        stated_level_holds(kernel.matrix, document.get("notion"), document.get("epsilon"))
        return kernel

    # -- value semantics ---------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Mechanism):
            return NotImplemented
        return self.matrix.shape == other.matrix.shape and bool(
            np.array_equal(self.matrix, other.matrix)
        )

    def __hash__(self) -> int:
        return hash((self.matrix.shape, self.matrix.tobytes()))

    def __array__(self, dtype=None, copy=None) -> NDArray:
        return np.array(self.matrix, dtype=dtype, copy=True)


def as_matrix(kernel: Mechanism | ArrayLike, name: str = "kernel") -> NDArray[np.float64]:
    """The validated (N, M) matrix of a :class:`Mechanism` or of a 2-D array-like.

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        The mechanism ``K[x, y] = P(Y=y | X=x)``: N inputs (rows), M outputs; an array
        must be finite, non-negative and row-stochastic (rows sum to 1 within
        ``STOCHASTIC_ATOL``), else InvalidInputError.
    name : str, default "kernel"
        The argument's name, for error messages.

    Returns
    -------
    ndarray, shape (N, M)
        A read-only float matrix (the Mechanism's own for a Mechanism).
    """
    if isinstance(kernel, Mechanism):
        return kernel.matrix
    return as_stochastic_matrix(kernel, name)


def output_classes(
    kernel: Mechanism | ArrayLike, *, rtol: float = PROPORTIONAL_RTOL
) -> list[list[int]]:
    """Group the outputs of ``K`` into classes of similar (proportional) columns.

    All-zero columns belong to no class. Two columns are in one class when their
    normalisations ``K[:, y] / Σ_x K[x, y]`` agree within ``rtol`` (relative to the
    largest entry). Returns the classes as lists of output indices, ordered by their
    smallest member.

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        The mechanism ``K[x, y] = P(Y=y | X=x)``: N inputs (rows), M outputs; an array
        must be finite, non-negative and row-stochastic (rows sum to 1 within
        ``STOCHASTIC_ATOL``), else InvalidInputError.
    rtol : float, default :data:`~mechdesign._tolerances.PROPORTIONAL_RTOL`
        Relative tolerance of "proportional": a finite number ``≥ 0``.

    Returns
    -------
    list of list of int
        The classes of output indices.
    """
    k = as_matrix(kernel)
    rtol = check_tolerance(rtol, "rtol")
    totals = k.sum(axis=0)
    outputs = np.flatnonzero(totals > 0)
    normalised = k[:, outputs] / totals[outputs]
    # Each column joins the first class whose representative is within the tolerance of
    # it in the max norm. Two such columns have keys w·c within tolerance · Σw, so a
    # column is compared entry by entry only with the representatives whose keys are
    # that close (at N = M = 4,096, all of randomized response's outputs apart, the
    # pairwise comparison took minutes). The weights w_x = (x + 1)/N separate columns
    # that differ in where their mass is, which sums (all 1) and maxima do not.
    weights = np.arange(1, k.shape[0] + 1) / k.shape[0]
    spread = float(weights.sum())
    slack = 4 * k.shape[0] * float(np.finfo(float).eps)  # the keys' rounding (keys ≤ 1)
    keys = weights @ normalised
    peaks = normalised.max(axis=0)
    classes: list[list[int]] = []
    members: list[int] = []  # the column of each class's representative
    rep_keys, rep_peaks = np.empty(len(outputs)), np.empty(len(outputs))
    for j, y in enumerate(outputs.tolist()):
        column = normalised[:, j]
        n_classes = len(classes)
        reach = rtol * max(float(rep_peaks[:n_classes].max(initial=0.0)), float(peaks[j]))
        near = np.flatnonzero(np.abs(rep_keys[:n_classes] - keys[j]) <= reach * spread + slack)
        for c in near.tolist():
            rep = normalised[:, members[c]]
            if np.allclose(column, rep, rtol=0.0, atol=rtol * max(rep_peaks[c], peaks[j])):
                classes[c].append(y)
                break
        else:
            classes.append([y])
            members.append(j)
            rep_keys[n_classes], rep_peaks[n_classes] = keys[j], peaks[j]
    return classes


def project_to_simplex(v: ArrayLike) -> NDArray[np.float64]:
    """Euclidean projection of ``v`` onto the probability simplex.

    The sort-based algorithm of Held, Wolfe & Crowder (1974), see also Duchi et al.,
    ICML 2008, Fig. 1: ``w = max(v − τ, 0)`` with the unique ``τ`` making ``Σ w = 1``.

    Parameters
    ----------
    v : array_like, shape (N,)
        Finite real numbers, ``N ≥ 1``.

    Returns
    -------
    ndarray, shape (N,)
        The nearest probability vector to ``v`` in Euclidean distance.
    """
    x = as_float_array(v, "v", ndim=1)
    u = np.sort(x)[::-1]
    ks = np.arange(1, x.size + 1)
    # ρ = the largest k with u_k − (Σ_{j≤k} u_j − 1)/k > 0, i.e. Σ_{j≤k}(u_j − u_k) < 1;
    # k = 1 always qualifies (the sum is 0), even for entries like 1e200.
    excess = np.cumsum(u) - ks * u
    rho = int(np.nonzero(excess < 1.0)[0][-1]) + 1
    # τ = mean(u_1..u_ρ) − 1/ρ; written as x − mean + 1/ρ, nothing cancels at large x.
    return np.maximum(x - u[:rho].mean() + 1.0 / rho, 0.0)


class NotIdentifiableWarning(UserWarning):
    """:func:`estimate_input_distribution` was asked for an EM estimate from a kernel of
    rank below its number of inputs: the estimate is one of many input distributions
    that explain the outputs equally well (the message states the rank and what is
    identified). A :class:`UserWarning`: it reports on the caller's request, not on a
    numerical failure."""


def estimate_input_distribution(
    kernel: Mechanism | ArrayLike,
    outputs: ArrayLike | None = None,
    *,
    counts: ArrayLike | None = None,
    method: Literal["auto", "inverse", "em"] = "auto",
    tol: float = EM_TOL,
    max_iter: int = EM_MAX_ITER,
) -> NDArray[np.float64]:
    """Estimate the input distribution ``P_X`` from privatised samples ``Y_i ~ K ∘ P_X``.

    Give either ``outputs`` (the privatised output indices) or ``counts`` (how often each
    output occurred). With ``q̂`` the empirical output distribution:

    ``"inverse"``
        The unbiased inverse estimate ``p̃ = (Kᵀ)⁺ q̂`` (``E[p̃] = P_X`` because
        ``(Kᵀ)⁺ Kᵀ = I`` when K has full row rank N), then its Euclidean projection onto
        the simplex (:func:`project_to_simplex`). The projection removes the negative
        entries the raw estimate can have, at the price of a small bias; it is what a
        user wants as a distribution. Requires rank K = N.
    ``"em"``
        The maximum-likelihood estimate ``argmax_p Σ_y n_y log (p K)_y`` over the
        simplex: the fixed point of the EM iteration ``p_x ← p_x Σ_y q̂_y K[x, y] / (p
        K)_y`` (the iterative Bayesian update; Agrawal, Srikant & Thomas, SIGMOD 2005),
        computed by Newton steps on the simplex with EM as the fallback step and a
        certified likelihood gap as the stopping rule (:func:`maximum_likelihood`). It
        works for any K, including ones with fewer outputs than inputs, where the ML
        estimate need not be unique (one maximiser is returned).
    ``"auto"`` (default)
        ``"inverse"`` when K has full row rank (singular values above
        :data:`~mechdesign._tolerances.RANK_RTOL` times the largest).

    **A kernel of rank r < N cannot identify** ``P_X``: the output distribution ``Kᵀ P_X``
    is the same for every ``P_X + v`` with ``Kᵀ v = 0`` (two identical rows: any split of
    their total), so no estimator can tell those distributions apart, and an estimate of
    each entry is meaningless (its error does not shrink with the samples). What the
    outputs do identify is ``r`` linear functionals of it: ``a · P_X`` for ``a`` in the
    span of the kernel's columns, that is the projection of ``P_X`` onto that span (for
    two identical rows, their total). We chose to refuse rather than guess: ``"auto"``
    and ``"inverse"`` raise :class:`~mechdesign.errors.InvalidInputError` naming
    ``kernel``, its rank and what is identified; only an explicit ``method="em"`` answers,
    with a :class:`NotIdentifiableWarning` that the estimate is one of many consistent
    ones.

    Parameters
    ----------
    kernel : Mechanism or array_like, shape (N, M)
        The mechanism ``K[x, y] = P(Y=y | X=x)``: N inputs (rows), M outputs; an array
        must be finite, non-negative and row-stochastic (rows sum to 1 within
        ``STOCHASTIC_ATOL``), else InvalidInputError.
    outputs : array_like of int, any shape, optional
        The privatised samples as output indices in ``[0, M)``.
    counts : array_like, shape (M,), optional
        How often each output occurred: finite, non-negative, not all zero. Give exactly
        one of ``outputs`` and ``counts``.
    method : {"auto", "inverse", "em"}, default "auto"
        The estimator, as above.
    tol : float, default :data:`~mechdesign._tolerances.EM_TOL`
        ``"em"`` stops when the certified gap ``max_x ∂L/∂p_x − 1`` — an upper bound on
        the log-likelihood per report the estimate leaves below the maximum — is at most
        ``tol``; finite and ``> 0``. Unused by ``"inverse"``.
    max_iter : int, default :data:`EM_MAX_ITER`
        The most iterations, an integer ``≥ 1``.

    Returns
    -------
    ndarray, shape (N,)
        The estimated input distribution.

    Raises
    ------
    InvalidInputError
        Bad samples, or ``"auto"``/``"inverse"`` on a kernel of rank below its number of
        inputs.
    SolverError
        The gap did not reach ``tol`` within ``max_iter`` iterations (status
        ``"iteration_limit"``).
    """
    k = as_matrix(kernel)
    n, m = k.shape
    q_hat = _empirical_output_distribution(outputs, counts, m)
    check_choice(method, "method", ("auto", "inverse", "em"))
    tol = check_real(tol, "tol", low=0.0, high=math.inf, low_open=True, high_open=True)
    max_iter = check_int(max_iter, "max_iter", low=1)
    singular = np.linalg.svd(k, compute_uv=False)
    rank = int(np.count_nonzero(singular > RANK_RTOL * singular[0]))
    if rank < n:
        unidentified = _not_identifiable(rank, n)
        if method != "em":
            raise InvalidInputError(
                f"method={method!r} needs a kernel of full row rank {n}: {unidentified} "
                "Pass method='em' for one of the many maximum-likelihood estimates (with a "
                "NotIdentifiableWarning)."
            )
        warnings.warn(f"{unidentified} The EM estimate is one of many consistent ones.",
                      NotIdentifiableWarning, stacklevel=2)
    if method == "em":
        return _em_estimate(k, q_hat, tol=tol, max_iter=max_iter)
    return project_to_simplex(np.linalg.pinv(k.T) @ q_hat)


def _not_identifiable(rank: int, n: int) -> str:
    """What a rank-deficient kernel identifies (estimate_input_distribution)."""
    return (
        f"kernel has rank {rank} < {n} inputs (singular values below RANK_RTOL = "
        f"{RANK_RTOL:g} times the largest count as zero), so distinct input distributions "
        "give the same output distribution and the input distribution is not identifiable "
        f"from the outputs; only {rank} linear functionals of it are: a . P_X for a in the "
        "span of the kernel's columns (the projection of P_X onto that span; for identical "
        "rows, their total)."
    )


def _em_estimate(
    k: NDArray[np.float64], q_hat: NDArray[np.float64], *, tol: float, max_iter: int
) -> NDArray[np.float64]:
    return maximum_likelihood(k, q_hat, tol=tol, max_iter=max_iter)[0]


def maximum_likelihood(
    k: NDArray[np.float64], q_hat: NDArray[np.float64], *, tol: float = EM_TOL,
    max_iter: int = EM_MAX_ITER,
) -> tuple[NDArray[np.float64], float, int]:
    """The maximum-likelihood input distribution ``argmax_p L(p) = Σ_y q̂_y log (pK)_y``
    over the simplex, with its certificate: ``(p, gap, iterations)``.

    ``L`` is concave; with ``g = ∇L(p)``, ``g_x = Σ_y q̂_y K[x, y]/(pK)_y`` and ``p·g = 1``,
    so for the maximiser ``p*`` concavity gives ``L(p*) − L(p) ≤ g·(p* − p) ≤ max_x g_x −
    1``: the *gap* ``max_x g_x − 1`` bounds the log-likelihood per report the estimate
    leaves, and is 0 exactly at a maximiser (the KKT conditions: ``g_x = 1`` on the
    support, ``≤ 1`` off it). The iteration stops when the gap is at most ``tol``.

    Each iteration takes a Newton step of ``L`` on the simplex's face of the current
    support (plus the zero coordinates whose ``g_x > 1`` invites them in: the KKT system
    ``H d − μ1 = g``, ``1ᵀd = 0`` with ``H = K diag(q̂/(pK)²) Kᵀ``, regularised by
    :data:`~mechdesign._tolerances.RANK_RTOL` of its trace for a kernel that does not
    identify ``p``), cut at the simplex's boundary (the coordinates it reaches are set to
    0) and halved until ``L`` rises by an Armijo share; when no step rises, the iterative
    Bayesian update (EM: ``p_x ← p_x g_x``, Agrawal, Srikant & Thomas, SIGMOD 2005),
    which never lowers ``L``, is taken instead. EM alone converges slowly where ``K`` is
    close to uniform (GRR at ε = 0.5 and 40 inputs did not reach 1e-12 in 200,000
    iterations); the Newton steps converge quadratically once the support is found.

    Parameters
    ----------
    k : ndarray, shape (N, M)
        The kernel (validated by the caller).
    q_hat : ndarray, shape (M,)
        The reports' empirical output distribution.
    tol : float, default :data:`~mechdesign._tolerances.EM_TOL`
        The gap at which to stop.
    max_iter : int, default :data:`EM_MAX_ITER`
        The most iterations.

    Returns
    -------
    tuple of (ndarray, float, int)
        The estimate, shape (N,), its certified gap and the iterations taken.

    Raises
    ------
    SolverError
        The gap did not reach ``tol`` in ``max_iter`` iterations (status
        ``"iteration_limit"``).
    """
    observed = q_hat > 0
    k_obs, q = k[:, observed], q_hat[observed]
    n = k.shape[0]
    p = np.full(n, 1.0 / n)

    def likelihood(point):
        return float(q @ np.log(point @ k_obs))

    value = likelihood(p)
    gap = math.inf
    for iteration in range(max_iter):
        p_y = p @ k_obs
        g = k_obs @ (q / p_y)
        gap = float(np.max(g)) - 1.0
        if gap <= tol:
            return p, max(gap, 0.0), iteration
        step = _newton_step(k_obs, q, p, p_y, g)
        moved = False
        # (g − 1)·d = g·d (Σd = 0), without g's cancellation against 1
        slope = -math.inf if step is None else float((g - 1.0) @ step)
        if slope > 0:
            negative = step < 0
            ratios = np.full(n, math.inf)
            ratios[negative] = -p[negative] / step[negative]
            reach = float(np.min(ratios))
            # first the step to the boundary when it is within the Newton step (the
            # coordinates it reaches set to 0, taken even when L only holds to rounding:
            # that is how the support is found), then halvings of the step
            t, at_boundary = min(1.0, reach), reach <= 1.0
            while at_boundary or t > MLE_MIN_STEP:
                trial = p + t * step
                if at_boundary:
                    trial[ratios <= reach] = 0.0
                trial = np.maximum(trial, 0.0)
                trial /= trial.sum()
                trial_y = trial @ k_obs
                if np.all(trial_y > 0):
                    trial_value = likelihood(trial)
                    # Armijo; or, within L's rounding, a step to the boundary or one
                    # that lowers the gap (near the maximum L changes by the gap squared,
                    # below its own rounding, while the gap still falls)
                    held = trial_value >= value - MLE_ROUNDING_RTOL * max(1.0, -value)
                    if trial_value >= value + 1e-4 * t * slope or (held and (
                            at_boundary or float(np.max(k_obs @ (q / trial_y))) - 1.0 < gap)):
                        p, value, moved = trial, trial_value, True
                        break
                at_boundary = False
                t *= 0.5
        if not moved:                   # the iterative Bayesian update: L never falls
            p = p * g
            p /= p.sum()
            value = likelihood(p)
    raise SolverError(
        f"the maximum-likelihood estimate did not reach a likelihood gap of tol={tol:g} in "
        f"max_iter={max_iter} iterations (gap {gap:.3g})",
        status=Status.ITERATION_LIMIT,
    )


def _newton_step(k_obs, q, p, p_y, g) -> NDArray[np.float64] | None:
    """The Newton direction of :func:`maximum_likelihood` on the free coordinates (the
    support and the zeros that ``g > 1`` invites in; an invited one the step would make
    negative is left out and the step solved again)."""
    free = (p > 0) | (g > 1.0)
    for _ in range(p.size):
        index = np.flatnonzero(free)
        rows = k_obs[index]
        hessian = (rows * (q / p_y**2)) @ rows.T
        hessian[np.diag_indices_from(hessian)] += RANK_RTOL * np.trace(hessian)
        try:
            solve_g = np.linalg.solve(hessian, g[index])
            solve_1 = np.linalg.solve(hessian, np.ones(index.size))
        except np.linalg.LinAlgError:
            return None
        mu = float(solve_g.sum() / solve_1.sum())
        d = solve_g - mu * solve_1
        blocked = (p[index] == 0) & (d < 0)
        if not blocked.any():
            step = np.zeros_like(p)
            step[index] = d
            return step if np.all(np.isfinite(step)) else None
        free[index[blocked]] = False
    return None


def _empirical_output_distribution(
    outputs: ArrayLike | None, counts: ArrayLike | None, m: int
) -> NDArray[np.float64]:
    if (outputs is None) == (counts is None):
        raise InvalidInputError("give exactly one of outputs and counts.")
    if outputs is not None:
        y = as_indices(outputs, "outputs", m)
        tally = np.bincount(y.ravel(), minlength=m).astype(float)
    else:
        tally = as_float_array(counts, "counts", ndim=1)
        if tally.shape[0] != m:
            raise InvalidInputError(f"counts must have length {m}; got {tally.shape[0]}.")
        if np.any(tally < 0):
            raise InvalidInputError(f"counts must be non-negative; got {show(tally)}.")
    total = tally.sum()
    if total <= 0:
        given, value = ("outputs", outputs) if outputs is not None else ("counts", counts)
        raise InvalidInputError(
            f"{given} must hold at least one privatised sample; got {show(value)}."
        )
    return tally / total


#: The ``format`` field of :meth:`Mechanism.to_json`'s documents.
JSON_FORMAT = "mechdesign.mechanism"

#: Its version: readers refuse documents of a later one.
JSON_FORMAT_VERSION = 1


def json_labels(labels, name: str, count: int) -> list | None:
    """``count`` JSON-safe labels (str or int, not bool), or None."""
    if labels is None:
        return None
    values = list(labels) if not isinstance(labels, str) else [labels]
    if len(values) != count or not all(
            isinstance(v, (str, int, np.integer)) and not isinstance(v, (bool, np.bool_))
            for v in values):
        raise InvalidInputError(
            f"{name} must be {count} strings or integers; got {show(labels)}.")
    return [v if isinstance(v, str) else int(v) for v in values]


def column_log_ratio(kernel: Mechanism | ArrayLike) -> float:
    """``max_y log(max_x K[x, y] / min_x K[x, y])`` over the used columns of a kernel
    (checked by :func:`as_matrix`): its LDP level, ``math.inf`` when a used column has a
    zero. :func:`mechdesign.measures.ldp_level` is the public measure and calls this; it
    lives here so that a kernel document's stated level is checked without importing the
    measures."""
    matrix = as_matrix(kernel)
    col_max = matrix.max(axis=0)
    col_min = matrix.min(axis=0)
    used = col_max > 0
    if np.any(col_min[used] == 0):
        return math.inf
    return float(np.max(np.log(col_max[used]) - np.log(col_min[used])))


def stated_level_holds(matrix: NDArray[np.float64], notion: object, epsilon: object) -> None:
    """Refuse a saved kernel whose document states an LDP level below the kernel's own
    (:meth:`Mechanism.from_json`); a stated ε of another notion is only checked to be a
    level."""
    from mechdesign._validation import check_epsilon

    if epsilon is None:
        return
    try:
        eps = check_epsilon(math.inf if epsilon == "inf" else epsilon, "the document's epsilon")
    except InvalidInputError as exc:
        raise InvalidInputError(f"text is not a valid kernel document: {exc}") from exc
    if notion is not None and not (isinstance(notion, str) and notion.startswith(
            ("LDP(", "CloneLDP("))):
        return
    level = column_log_ratio(matrix)
    if level > eps * (1.0 + STATED_LEVEL_RTOL):
        raise InvalidInputError(
            f"text states epsilon = {show(eps)} but its kernel's LDP level is {level:.9g}: "
            "the document does not describe this kernel (edited, or saved for another "
            "notion without naming it).")


def _json_epsilon(epsilon: float) -> float | str:
    from mechdesign._validation import check_epsilon

    value = check_epsilon(epsilon)
    return "inf" if math.isinf(value) else value
