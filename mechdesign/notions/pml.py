"""Privacy notions as ratio-cone builders.

Every notion here is pointwise maximal leakage (PML) over a polytope of priors
``Q = conv{P_1, …, P_m}``: a mechanism satisfies it iff for every ``P ∈ Q`` and every
outcome ``y``, ``ℓ(X → y) = log max_x K[x, y] / (P·K[:, y]) ≤ ε``. Since ``min_{P ∈ Q}
P·v`` is attained at a vertex, the notion is the ratio cone with pairs ``(e_x, P_j)`` for
every ``x`` in the union of the supports and every ``j``:

============================  ==============================================================
notion                        vertex priors ``P_j``
============================  ==============================================================
``LDP(ε)``                    the unit vectors ``e_j`` (Q is the whole simplex, so the pairs
                              are ``(e_x, e_x')``: Dobrushin paper eq. 1)
``PML(ε, prior=P)``           ``P`` alone (Saeidian et al., the known-prior PML)
``PML(ε, c=c)``               ``c·1 + (1 − Nc)·e_j``, the vertices of ``Q_X(c)`` (Dobrushin
                              paper Definition 1, eq. 15–17; the pairs are its Lemma 4)
``PML(ε, priors=[P_1, …])``   the given priors
============================  ==============================================================

So there is one cone builder, :func:`pml_cone`. Each notion also audits kernels through
the measures of :mod:`mechdesign.measures.leakage` (``notion.level``), a code path independent of
the cone, so that a designed mechanism is checked by code that did not design it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mechdesign._tolerances import (
    C_BOUNDARY_RTOL,
    VERTEX_FEASIBILITY_ATOL,
)
from mechdesign._validation import (
    as_distribution,
    as_float_array,
    check_c,
    check_epsilon,
    check_positive_int,
    show,
)
from mechdesign.errors import InvalidInputError, TooLargeError
from mechdesign.kernel import Mechanism, as_matrix
from mechdesign.measures.leakage import ldp_level, pml_capacity, pml_level
from mechdesign.notions.base import RATIO_CONE_MAX_ENTRIES, Notion, check_notion_epsilon
from mechdesign.notions.cones import RatioCone

__all__ = [
    "LDP",
    "PML",
    "c_pml_vertices",
    "dobrushin_bound",
    "known_prior_vertices",
    "ldp_cone_vertices",
    "pml_cone",
]


def dobrushin_bound(epsilon: float, c: float, n: int) -> float:
    """Ξ(ε, c), the maximal Dobrushin coefficient under (ε,c)-PML on ``n`` inputs.

    Dobrushin paper [1]_, Theorem 1 (eq. 6); the value is attained (Theorems 2–3):

    .. math::

        \\Xi(\\varepsilon, c) = \\min\\left\\{
        \\frac{e^\\varepsilon - 1}{e^\\varepsilon (1 - Nc) + 1},\\ 1 \\right\\}.

    The first term reaches 1 exactly at ``ε = log(2/(Nc))`` and exceeds it beyond
    (Theorem 2), hence the ``min``. ``c → 0`` gives the LDP value
    ``(e^ε − 1)/(e^ε + 1)`` (Kairouz et al. [2]_; eq. 13 of the Dobrushin paper's HTML
    version, eq. 4 of its PDF); ``c = 1/N`` gives
    ``min(e^ε − 1, 1)`` (Remark 1).

    Parameters
    ----------
    epsilon : float
        ε ≥ 0 in nats; ``math.inf`` gives 1.
    c : float
        0 < c ≤ 1/n.
    n : int
        Number of inputs N ≥ 1.

    Returns
    -------
    float
        Ξ(ε, c) in [0, 1].

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Dobrushin Coefficients of Private
       Mechanisms Beyond Local Differential Privacy", 2026, arXiv:2601.09498.
    .. [2] P. Kairouz, S. Oh, P. Viswanath, "Extremal Mechanisms for Local Differential Privacy",
       Journal of Machine Learning Research 17(17):1-51, 2016,
       https://jmlr.org/papers/v17/15-135.html.
    """
    eps = check_epsilon(epsilon)
    n_val = check_positive_int(n, "n")
    c_val = check_c(c, n_val)
    if math.isinf(eps):
        return 1.0
    # Divide numerator and denominator by e^ε so large ε does not overflow.
    value = -math.expm1(-eps) / ((1.0 - n_val * c_val) + math.exp(-eps))
    return min(value, 1.0)



def pml_cone(
    epsilon: float,
    vertex_priors: NDArray[np.float64],
    *,
    name: str,
    known_vertex_bound: int | None = None,
    closed_form=None,
) -> RatioCone:
    """The ratio cone of PML over ``conv(vertex_priors)``: pairs ``(e_x, P_j)``.

    ``x`` ranges over the union of the supports of the ``P_j`` (an input that no prior
    can produce cannot leak), ``j`` over the rows of ``vertex_priors`` (shape (m, N)).

    Parameters
    ----------
    epsilon : float
        ε ≥ 0 in nats (validated by :class:`~mechdesign.notions.cones.RatioCone`).
    vertex_priors : ndarray, shape (m, N)
        The vertices ``P_j`` of the prior polytope, one per row; trusted (the notions
        validate them), not checked here.
    name : str
        What the cone encodes, for messages.
    known_vertex_bound : int, optional
        A proven bound on the number of vertices of the section, passed to the cone.
    closed_form : callable, optional
        ``closed_form(cone) -> ndarray`` of shape (k, N), the section's vertices in closed
        form, passed to the cone.

    Returns
    -------
    RatioCone
        The cone with the ``|support| · m`` pairs.

    Raises
    ------
    TooLargeError
        When the pairs × coordinates exceed ``RATIO_CONE_MAX_ENTRIES``.
    """
    priors = np.asarray(vertex_priors, dtype=float)
    m, n = priors.shape
    support = np.flatnonzero(priors.max(axis=0) > 0)
    _check_cone_entries(support.size * m * n, n, name)
    numerators = np.repeat(np.eye(n)[support], m, axis=0)
    denominators = np.tile(priors, (support.size, 1))
    return RatioCone(
        epsilon,
        numerators,
        denominators,
        name=name,
        known_vertex_bound=known_vertex_bound,
        closed_form=closed_form,
    )


def _check_cone_entries(entries: int, n: int, name: str) -> None:
    """Refuse (before allocating) a ratio cone above :data:`RATIO_CONE_MAX_ENTRIES`."""
    if entries > RATIO_CONE_MAX_ENTRIES:
        raise TooLargeError(
            f"n = {n} inputs is too many for {name}'s ratio cone: its pairs × coordinates "
            f"({entries:,} entries) exceed {RATIO_CONE_MAX_ENTRIES:,} (the limit that keeps "
            "it in memory). Column generation designs such sizes without the cone."
        )


def ldp_cone_vertices(cone: RatioCone) -> NDArray[np.float64]:
    """Closed-form vertices of the ε-LDP section: the normalised ``{1, e^ε}^N`` patterns.

    For ``0 < ε < ∞`` the vertices are ``v_B = (1 + (e^ε − 1) 1_B) / (N + (e^ε − 1)|B|)``
    for every ``B`` with ``∅ ≠ B ≠ [N]`` (Kairouz, Oh & Viswanath, JMLR 2016, the
    staircase patterns): ``2^N − 2`` of them. At ``ε = 0`` the section is the single point
    ``1/N``; at ``ε = ∞`` it is the simplex, with vertices ``e_x``.

    Parameters
    ----------
    cone : RatioCone
        The notion's ratio cone on N inputs, as ``LDP(ε).cone(N)`` builds it (its
        ``epsilon`` and ``n`` are read).

    Returns
    -------
    ndarray, shape (k, N)
        The vertices of the section ``{v in the cone : Σ v = 1}``, one per row.
    """
    n = cone.n
    if cone.epsilon == 0:
        return np.full((1, n), 1.0 / n)
    if math.isinf(cone.epsilon) or n == 1:
        return np.eye(n)
    codes = np.arange(1, 2**n - 1, dtype=np.int64)
    patterns = ((codes[:, None] >> np.arange(n)) & 1).astype(bool)
    # Divide by e^ε so large ε does not overflow: entries e^{−ε} off B and 1 on B.
    low = math.exp(-cone.epsilon)
    raw = np.where(patterns, 1.0, low)
    return raw / raw.sum(axis=1, keepdims=True)


def _pml_pattern_bound(n: int) -> int:
    """Vertices of a known-prior or (ε,c)-PML section number at most ``(N + 2) 2^N``.

    Proof. At a vertex, a coordinate is active only through ``v_x = 0`` or through a
    tight ratio ``v_x = e^ε P_j·v``; with a single prior (or, for ``Q_X(c)``, with the
    minimising vertex prior fixed by the smallest coordinate) a tight ratio fixes
    ``v_x`` to the common maximum. If two coordinates lay strictly between the
    minimum and the maximum, moving mass between them would keep ``Σ v = 1`` and every
    active constraint, so the point would not be a vertex: at most one coordinate is
    "free". A vertex is thus labelled by which coordinates sit at the minimum, which at
    the maximum and which (at most one) is free — at most ``2^N + N 2^{N−1}`` labels —
    and, for each label, by which of the two remaining equations (minimum = 0, ratio
    tight) holds: at most two points per label. ``2 (2^N + N 2^{N−1}) = (N + 2) 2^N``.
    """
    return (n + 2) * 2**n


def _subsets(n: int) -> NDArray[np.bool_]:
    """Every subset of range(n) as a boolean row, shape (2^n, n), in binary order."""
    codes = np.arange(2**n, dtype=np.int64)
    return ((codes[:, None] >> np.arange(n)) & 1).astype(bool)


def known_prior_vertices(cone: RatioCone) -> NDArray[np.float64]:
    """Closed-form vertices of the ε-PML section for one known prior ``P``.

    The section is ``{v ≥ 0 : Σ v = 1, v_x ≤ r P·v for x ∈ supp P}``, ``r = e^ε``. By the
    labelling argument of :func:`_pml_pattern_bound`, a vertex has a set ``T ⊆ supp P`` at
    the common maximum ``t = r P·v`` (tight), at most one free coordinate ``f ∉ T`` with
    value ``w``, and zeros elsewhere. With a free coordinate, ``Σ v = 1`` and tightness
    give

    .. math::

        t = \\frac{r P_f}{1 - r P(T) + r P_f |T|}, \\qquad w = 1 - |T|\\, t,

    feasible iff ``t ≥ 0``, ``w ≥ 0`` and (``f ∈ supp P``) ``w ≤ t``. Such a point is a
    vertex: its ``N − 1`` active rows (``e_z`` on the zeros, ``r P − e_x`` on ``T``) are
    independent, because a vanishing combination of the ``r P − e_x`` would have to
    vanish at coordinate ``f``, where only ``r P_f Σ α`` appears. Without a free
    coordinate the label needs ``r P(T) = 1`` (then ``v = 1_T / |T|``, also a vertex).
    Every candidate is checked against the H-representation by the caller.

    Parameters
    ----------
    cone : RatioCone
        The notion's ratio cone on N inputs, as ``PML(ε, prior=P).cone(N)`` builds it
        (the prior ``P`` is read from its first denominator).

    Returns
    -------
    ndarray, shape (k, N)
        The vertices of the section ``{v in the cone : Σ v = 1}``, one per row.
    """
    n = cone.n
    prior = cone.denominators[0]
    if math.isinf(cone.epsilon) or n == 1:
        return np.eye(n)
    r = math.exp(cone.epsilon)
    support = prior > 0
    masks = _subsets(n)
    masks = masks[~np.any(masks & ~support, axis=1)]  # T ⊆ supp P
    sizes = masks.sum(axis=1)
    mass = masks @ prior
    blocks = []
    for f in range(n):
        free = ~masks[:, f]
        t_den = 1.0 - r * mass[free] + r * prior[f] * sizes[free]
        with np.errstate(divide="ignore", invalid="ignore"):
            t = r * prior[f] / t_den
        ok = np.isfinite(t) & (t >= 0)
        t = t[ok]
        v = masks[free][ok] * t[:, None]
        v[:, f] = 1.0 - sizes[free][ok] * t
        blocks.append(v)
    tight = (sizes > 0) & np.isclose(r * mass, 1.0, rtol=0, atol=VERTEX_FEASIBILITY_ATOL)
    blocks.append(masks[tight] / sizes[tight, None])
    return _feasible(np.vstack(blocks), cone)


def c_pml_vertices(cone: RatioCone) -> NDArray[np.float64]:
    """Closed-form vertices of the (ε, c)-PML section (Dobrushin paper [1]_, Lemma 4).

    The section is ``{v ≥ 0 : Σ v = 1, v_x ≤ r (c + s v_j) for all x, j}`` with
    ``r = e^ε`` and ``s = 1 − Nc``. By the labelling argument of
    :func:`_pml_pattern_bound` a vertex is one of

    (i) zeros on ``L ≠ ∅``, the maximum ``M = r c`` on ``T``, and at most one free
        coordinate ``f`` with ``w = 1 − |T| r c ∈ [0, r c]`` (without ``f``:
        ``|T| r c = 1``). Active rows: ``e_l`` for ``l ∈ L`` and
        ``r(c 1 + s e_l) − e_x`` for ``x ∈ T``; eliminating the ``L`` columns leaves
        ``rc 1 − e_x``, independent because of coordinate ``f`` (or of rank ``|T| − 1``
        without it): ``N − 1`` independent active rows.
    (ii) no zeros: the minimum ``m > 0`` on ``L ≠ ∅`` and ``M = r (c + s m)`` on
        ``T = complement``, with ``m = (1 − |T| r c)/(|L| + |T| r s)``. The active rows
        ``r(c 1 + s e_j) − e_x`` (``x ∈ T, j ∈ L``) span the differences
        ``e_j − e_j'`` (if ``s > 0``) and ``e_x − e_x'`` plus one row of coordinate sum
        ``r − 1 ≠ 0``: rank ``N − 1`` for ``ε > 0``, ``s > 0``. For ``s = 0``
        (``c = 1/N``) the rank is ``|T|``, so only ``|L| = 1`` gives a vertex.

    A third value strictly between the minimum and maximum is impossible when the
    minimum is positive (one more degree of freedom along the tight line). At ``ε = 0``
    the section is the point ``1/N``. Every candidate is checked against the
    H-representation by the caller.

    Parameters
    ----------
    cone : RatioCone
        The notion's ratio cone on N inputs, as ``PML(ε, c=c).cone(N)`` builds it
        (``c`` is read from its first denominator, ``c·1 + (1 − Nc)·e_0``).

    Returns
    -------
    ndarray, shape (k, N)
        The vertices of the section ``{v in the cone : Σ v = 1}``, one per row.

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Dobrushin Coefficients of Private
       Mechanisms Beyond Local Differential Privacy", 2026, arXiv:2601.09498.
    """
    n = cone.n
    if math.isinf(cone.epsilon) or n == 1:
        return np.eye(n)
    if cone.epsilon == 0:
        return np.full((1, n), 1.0 / n)
    r = math.exp(cone.epsilon)
    # The vertex priors are c·1 + s·e_j; read c and s back from the first one.
    first = cone.denominators[0]
    c = float(np.min(first))
    s = float(np.max(first)) - c
    masks = _subsets(n)
    sizes = masks.sum(axis=1)
    blocks = []
    # (i) zeros elsewhere, T at rc, free f.
    top = r * c
    for f in range(n):
        rows = ~masks[:, f] & (sizes <= n - 2)  # L = complement of T ∪ {f} is non-empty
        v = masks[rows] * top
        v[:, f] = 1.0 - sizes[rows] * top
        blocks.append(v)
    tight = (sizes > 0) & (sizes < n) & np.isclose(sizes * top, 1.0, rtol=0,
                                                   atol=VERTEX_FEASIBILITY_ATOL)
    blocks.append(masks[tight] / sizes[tight, None])
    # (ii) no zeros: L at m, T at M = r(c + s m).
    inner = (sizes > 0) & (sizes < n)
    if s == 0:
        inner &= sizes == n - 1
    t_masks = masks[inner]
    t_sizes = sizes[inner]
    with np.errstate(over="ignore"):  # r s → inf near ε = 709: then low ≤ 0, no vertex
        low = (1.0 - t_sizes * top) / ((n - t_sizes) + t_sizes * r * s)
    ok = low > 0
    high = r * (c + s * low[ok])
    blocks.append(np.where(t_masks[ok], high[:, None], low[ok, None]))
    return _feasible(np.vstack(blocks), cone)


def _feasible(candidates: NDArray[np.float64], cone: RatioCone) -> NDArray[np.float64]:
    """The candidates that lie in the section (within VERTEX_FEASIBILITY_ATOL)."""
    h = cone.h_representation()
    inside = np.all(candidates @ h.T >= -VERTEX_FEASIBILITY_ATOL, axis=1)
    inside &= np.abs(candidates.sum(axis=1) - 1.0) <= VERTEX_FEASIBILITY_ATOL
    return candidates[inside]


@dataclass(frozen=True)
class LDP(Notion):
    """ε-local differential privacy: ``K[x, y] ≤ e^ε K[x', y]`` for all ``x, x', y``.

    Dobrushin paper [1]_, eq. (1); Kairouz, Oh & Viswanath (JMLR 2016) [2]_. The limit
    ``c → 0`` of :class:`PML` with ``c`` (PML over every prior).

    Parameters
    ----------
    epsilon : float
        ε in nats (not ``e^ε``); must be finite and ``≥ 0``.

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Dobrushin Coefficients of Private
       Mechanisms Beyond Local Differential Privacy", 2026, arXiv:2601.09498.
    .. [2] P. Kairouz, S. Oh, P. Viswanath, "Extremal Mechanisms for Local Differential Privacy",
       Journal of Machine Learning Research 17(17):1-51, 2016,
       https://jmlr.org/papers/v17/15-135.html.
    """

    epsilon: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "epsilon", check_notion_epsilon(self.epsilon))

    @property
    def input_size(self) -> int | None:
        return None

    def cone(self, n: int) -> RatioCone:
        """The notion's ratio cone on ``n`` inputs (see :class:`Notion`)."""
        n = check_positive_int(n, "n")
        _check_cone_entries(n * n * n, n, f"{self.epsilon:g}-LDP")
        return pml_cone(
            self.epsilon,
            np.eye(n),
            name=f"{self.epsilon:g}-LDP",
            known_vertex_bound=max(2**n - 2, n),
            closed_form=ldp_cone_vertices,
        )

    def level(self, kernel: Mechanism | ArrayLike) -> float:
        """:func:`~mechdesign.measures.leakage.ldp_level`."""
        return ldp_level(kernel)

    def dobrushin_bound(self, n: int) -> float | None:
        """``(e^ε − 1)/(e^ε + 1) = tanh(ε/2)``, Kairouz et al. (Dobrushin paper eq. 4);
        the same for every ``n`` (which is still checked: a positive integer)."""
        check_positive_int(n, "n")
        return math.tanh(self.epsilon / 2) if math.isfinite(self.epsilon) else 1.0

    def vertex_bound(self, n: int) -> int:
        """``max(2^n − 2, n)``: the section's vertices are the normalised ``{1, e^ε}^n``
        patterns (:func:`ldp_cone_vertices`), without building the cone."""
        n = check_positive_int(n, "n")
        return max(2**n - 2, n)


@dataclass(frozen=True, repr=False)
class PML(Notion):
    """ε-pointwise maximal leakage over a set of priors: give exactly one of

    ``prior``
        a known prior ``P`` (shape (N,)): ``max_y ℓ(X → y) ≤ ε`` for ``P``;
    ``c``
        ``(ε, c)``-PML, every prior in ``Q_X(c) = {P : min_x P(x) ≥ c}``, ``0 < c ≤ 1/N``
        (Dobrushin paper [1]_, Definition 1);
    ``priors``
        every prior in the convex hull of the given priors (shape (m, N)).

    Inputs outside the support of every prior are unconstrained (they never occur). PML
    itself is Saeidian et al.'s [2]_.

    Parameters
    ----------
    epsilon : float
        ε in nats (not ``e^ε``); must be finite and ``≥ 0``.
    c : float, optional
        The least prior mass of ``Q_X(c)``: here ``0 < c ≤ 1/2``; ``c ≤ 1/N`` is checked
        when N is known (:meth:`cone`, :meth:`level`).
    prior : array_like, shape (N,), optional
        A known prior: non-negative, summing to 1 within ``STOCHASTIC_ATOL``.
    priors : array_like, shape (m, N), optional
        The vertices of a polytope of priors, one per row, each a probability vector.

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Dobrushin Coefficients of Private
       Mechanisms Beyond Local Differential Privacy", 2026, arXiv:2601.09498.
    .. [2] S. Saeidian, G. Cervia, T. J. Oechtering, M. Skoglund, "Pointwise Maximal Leakage", IEEE
       Transactions on Information Theory 69(12), 2023, arXiv:2205.04935.
    """

    epsilon: float
    c: float | None = None
    prior: NDArray[np.float64] | None = field(default=None)
    priors: NDArray[np.float64] | None = field(default=None)

    def __post_init__(self) -> None:
        object.__setattr__(self, "epsilon", check_notion_epsilon(self.epsilon))
        given = [name for name in ("c", "prior", "priors") if getattr(self, name) is not None]
        if len(given) != 1:
            raise InvalidInputError(
                "PML needs exactly one of c, prior or priors; got "
                f"{', '.join(given) if given else 'none'}."
            )
        if self.prior is not None:
            object.__setattr__(self, "prior", as_distribution(self.prior, "prior"))
        if self.priors is not None:
            as_float_array(self.priors, "priors", ndim=2)  # real, 2-D, non-empty, finite
            rows = np.asarray(self.priors)  # each row checked at its own precision
            checked = np.array([as_distribution(p, f"priors[{i}]") for i, p in enumerate(rows)])
            checked.setflags(write=False)
            object.__setattr__(self, "priors", checked)
        if self.c is not None:
            # 0 < c ≤ 1/N is checked against N when the cone is built; here 0 < c ≤ 1/2.
            object.__setattr__(self, "c", check_c(self.c, 2))

    # -- equality by value (arrays do not compare with ==) ------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PML):
            return NotImplemented
        return (
            self.epsilon == other.epsilon
            and self.c == other.c
            and _same(self.prior, other.prior)
            and _same(self.priors, other.priors)
        )

    def __hash__(self) -> int:
        return hash((self.epsilon, self.c, _key(self.prior), _key(self.priors)))

    def __repr__(self) -> str:
        if self.c is not None:
            return f"PML(epsilon={show(self.epsilon)}, c={show(self.c)})"
        if self.prior is not None:
            return f"PML(epsilon={show(self.epsilon)}, prior={np.round(self.prior, 6).tolist()})"
        return f"PML(epsilon={show(self.epsilon)}, priors={np.round(self.priors, 6).tolist()})"

    @property
    def input_size(self) -> int | None:
        if self.prior is not None:
            return int(self.prior.shape[0])
        if self.priors is not None:
            return int(self.priors.shape[1])
        return None

    def vertex_priors(self, n: int) -> NDArray[np.float64]:
        """The vertices ``P_j`` of the prior polytope on ``n`` inputs, shape (m, n)."""
        n = self.check_inputs(n)
        if self.c is not None:
            c = check_c(self.c, n)
            return c + (1.0 - n * c) * np.eye(n)
        if self.prior is not None:
            return self.prior[None, :].copy()
        return np.array(self.priors)

    def cone(self, n: int) -> RatioCone:
        """The notion's ratio cone on ``n`` inputs (see :class:`Notion`)."""
        n = self.check_inputs(n)
        if self.c is not None:
            generator = c_pml_vertices
        elif self.prior is not None:
            generator = known_prior_vertices
        else:
            generator = None
        return pml_cone(
            self.epsilon,
            self.vertex_priors(n),
            name=self._describe(),
            known_vertex_bound=_pml_pattern_bound(n) if generator else None,
            closed_form=generator,
        )

    def level(self, kernel: Mechanism | ArrayLike) -> float:
        """The PML level over the notion's priors, through :mod:`mechdesign.measures.leakage`.

        ``c``: :func:`~mechdesign.measures.leakage.pml_capacity` (the closed form of eq. 75);
        ``prior``: :func:`~mechdesign.measures.leakage.pml_level`; ``priors``: the supremum over
        the hull, ``max_j max_y log(max_{x ∈ U} K[x, y] / P_j·K[:, y])`` with ``U`` the
        union of the supports (outcomes with ``P_j·K[:, y] = 0`` for every ``j`` are
        ignored; one with ``P_j·K[:, y] = 0`` but positive under another prior gives
        ``+∞``, the limit along the hull).
        """
        k = as_matrix(kernel)
        if self.input_size is not None and k.shape[0] != self.input_size:
            raise InvalidInputError(
                f"kernel must have {self.input_size} rows, one per input of "
                f"{self._describe()}; got shape {k.shape}."
            )
        self.check_inputs(k.shape[0])
        if self.c is not None:
            return pml_capacity(k, self.c)
        if self.prior is not None:
            return pml_level(k, self.prior)
        support = self.priors.max(axis=0) > 0
        top = k[support].max(axis=0)
        p_y = self.priors @ k  # (m, M)
        seen = p_y.max(axis=0) > 0
        with np.errstate(divide="ignore"):
            values = np.log(top[seen])[None, :] - np.log(p_y[:, seen])
        return float(values.max())

    def dobrushin_bound(self, n: int) -> float | None:
        """Ξ(ε, c) for ``(ε, c)``-PML (Dobrushin paper, Theorem 1); ``None`` for a known
        prior or a hull of priors, where no closed form is known: there
        :func:`~mechdesign.bounds.contraction.max_dobrushin` gives the exact value by LP."""
        n = self.check_inputs(n)
        if self.c is None:
            return None
        return dobrushin_bound(self.epsilon, self.c, n)

    def check_inputs(self, n: int) -> int:
        """``n`` if the notion is defined on ``n`` inputs (:meth:`Notion.check_inputs`),
        and for ``(ε, c)``-PML ``c ≤ 1/n`` (``Q_X(c)`` is empty beyond)."""
        n = super().check_inputs(n)
        if self.c is not None and self.c > 1.0 / n * (1 + C_BOUNDARY_RTOL):
            raise InvalidInputError(
                f"c must satisfy 0 < c <= 1/N = {show(1.0 / n)} for N = n = {n} inputs "
                f"(Q_X(c) is empty when c > 1/N), so n must be at most 1/c = "
                f"{show(1.0 / self.c)}; got c = {show(self.c)} and n = {n}."
            )
        return n

    def vertex_bound(self, n: int) -> int | None:
        """The closed-form bound on the section's vertices on ``n`` inputs (patterns of
        :func:`_pml_pattern_bound`) without building the cone; None for a hull of priors."""
        n = self.check_inputs(n)
        return _pml_pattern_bound(n) if self.priors is None else None

    def _describe(self) -> str:
        if self.c is not None:
            return f"({self.epsilon:g}, c={self.c:g})-PML"
        if self.prior is not None:
            return f"{self.epsilon:g}-PML for a known prior"
        return f"{self.epsilon:g}-PML over the hull of {self.priors.shape[0]} priors"


# -- robust LDP (robust-LDP paper) -------------------------------------------------------


def _same(a: NDArray[np.float64] | None, b: NDArray[np.float64] | None) -> bool:
    if a is None or b is None:
        return a is b
    return a.shape == b.shape and bool(np.array_equal(a, b))


def _key(a: NDArray[np.float64] | None) -> tuple | None:
    return None if a is None else (a.shape, a.tobytes())
