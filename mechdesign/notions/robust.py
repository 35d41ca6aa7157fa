"""The robust-LDP paper's notions: ε-LDP that holds for every distribution in an
uncertainty set (PolyOpt's :class:`RobustLDP`), its non-robust counterpart and
secret-only LDP, as ratio cones with their exact audits
(:mod:`mechdesign.notions.robust_levels`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mechdesign._validation import (
    as_distribution,
    check_positive_int,
    show,
)
from mechdesign.errors import InvalidInputError
from mechdesign.kernel import Mechanism
from mechdesign.notions.base import Notion, check_notion_epsilon
from mechdesign.notions.cones import RatioCone
from mechdesign.notions.robust_levels import realised_epsilon, robust_ldp_level, secret_ldp_level
from mechdesign.notions.uncertainty import (
    RenyiBall,
    SecretAlphabet,
    conditional_lower_bounds,
)

__all__ = [
    "NonRobustLDP",
    "RobustLDP",
    "SecretLDP",
    "secret_pairs_cone",
    "simplex_vertices",
]


def secret_pairs_cone(
    epsilon: float,
    polytopes: list[NDArray[np.float64]],
    *,
    same_secret: bool,
    name: str,
) -> RatioCone:
    """The ratio cone of RLDP over polytopes ``D_s`` of conditionals (robust-LDP paper
    [1]_, eqs. 39–41 and Definition 3).

    ``polytopes[s]`` lists the vertices of ``D_s ⊆ P_U`` (shape ``(k_s, |U|)``). By
    robust optimisation over polytopes, ``max_{R1 ∈ D_s1, R2 ∈ D_s2} R1·v_s1 − e^ε
    R2·v_s2 ≤ 0`` holds iff it holds at every pair of vertices, so the pairs are
    ``(a, b)`` with ``a`` a vertex of ``D_s1`` placed in block ``s1`` and ``b`` a vertex
    of ``D_s2`` placed in block ``s2``, for ``s1 ≠ s2`` — and also ``s1 = s2`` when
    ``same_secret`` (Definition 3 as printed).

    Parameters
    ----------
    epsilon : float
        ε ≥ 0 in nats (validated by :class:`~mechdesign.notions.cones.RatioCone`).
    polytopes : list of ndarray, each of shape (k_s, |U|)
        One entry per secret ``s`` (``|S|`` of them): the vertices of ``D_s``, one per
        row, all with the same ``|U|`` columns; trusted, not checked here.
    same_secret : bool
        Whether to add the pairs with ``s1 = s2`` (Definition 3 as printed).
    name : str
        What the cone encodes, for messages.

    Returns
    -------
    RatioCone
        The cone on ``N = |S|·|U|`` coordinates (with no pairs when ``|S| = 1`` and not
        ``same_secret``).

    References
    ----------
    .. [1] M. Lopuhaä-Zwakenberg, J. Goseling, "Mechanisms for Robust Local Differential Privacy",
       Entropy 26(3):233, 2024, doi:10.3390/e26030233.
    """
    a1 = len(polytopes)
    a2 = polytopes[0].shape[1]
    n = a1 * a2
    numerators, denominators = [], []
    for s1 in range(a1):
        for s2 in range(a1):
            if s1 == s2 and not same_secret:
                continue
            for top in polytopes[s1]:
                for bottom in polytopes[s2]:
                    a = np.zeros(n)
                    a[s1 * a2 : (s1 + 1) * a2] = top
                    b = np.zeros(n)
                    b[s2 * a2 : (s2 + 1) * a2] = bottom
                    numerators.append(a)
                    denominators.append(b)
    if not numerators:  # |S| = 1 without the s1 = s2 rows: no constraint at all
        return RatioCone(epsilon, np.zeros((0, n)), np.zeros((0, n)), name=name)
    return RatioCone(epsilon, np.array(numerators), np.array(denominators), name=name)


def simplex_vertices(lower: NDArray[np.float64]) -> NDArray[np.float64]:
    """Vertices of ``D = {R ∈ P_U : R_u ≥ L_u}``: ``L + (1 − Σ L) e_u`` for every u
    (robust-LDP paper [1]_, eq. 42; ``Σ L ≤ 1`` since ``P̂_{U|s} ∈ D``).

    Parameters
    ----------
    lower : ndarray, shape (|U|,)
        The lower bounds ``L_u ≥ 0`` (a row of
        :func:`~mechdesign.notions.uncertainty.conditional_lower_bounds`), trusted; a sum
        above 1 (rounding) leaves no slack, and every vertex is then ``L``.

    Returns
    -------
    ndarray, shape (|U|, |U|)
        The vertices of ``D``, one per row.

    References
    ----------
    .. [1] M. Lopuhaä-Zwakenberg, J. Goseling, "Mechanisms for Robust Local Differential Privacy",
       Entropy 26(3):233, 2024, doi:10.3390/e26030233.
    """
    slack = max(1.0 - float(lower.sum()), 0.0)
    return lower[None, :] + slack * np.eye(lower.shape[0])


@dataclass(frozen=True, eq=False)
class RobustLDP(Notion):
    """``(ε, F)``-RLDP through PolyOpt's polytopes (robust-LDP paper [1]_, Sec. 5).

    ``F`` is a Rényi ball around ``P̂`` on ``X = S × U`` (flattened S-major, ``shape =
    (|S|, |U|)``). Each projection ``F_{U|s}`` (Theorem 1) is enclosed in the simplex
    ``D_s = {R : R_u ≥ L_{u|s}}`` (eq. 42, with ``L`` from
    :func:`~mechdesign.notions.uncertainty.conditional_lower_bounds`), and the notion's cone is
    :func:`secret_pairs_cone` over those simplices: PolyOpt's ``Γ_ε``. By Theorem 2 every
    kernel whose columns lie in it is ``(ε, F)``-RLDP; :func:`~mechdesign.optimal.design`
    with the estimate ``P̂`` as prior is then PolyOpt (Theorem 3).

    ``level`` is the exact RLDP level over the ball itself
    (:func:`~mechdesign.notions.robust_levels.robust_ldp_level`), not over the polytopes,
    so a design is audited against the guarantee the user asked for.

    Parameters
    ----------
    epsilon : float
        ε in nats (not ``e^ε``); must be finite and ``≥ 0``.
    ball : RenyiBall
        The uncertainty set ``F`` around ``P̂`` on ``X = S × U``; ``P̂_s > 0`` is needed
        for every secret ``s``.
    shape : tuple of int
        ``(|S|, |U|)``, the factorisation of the N = |S|·|U| inputs ``X = S × U``
        (flattened S-major, input ``s·|U| + u``); a pair of positive integers.
    variant : {"default", "paper"}, default "default"
        ``"paper"`` is Definition 3 as printed: every pair ``s1, s2`` including
        ``s1 = s2`` (16 inequalities for ``|S| = |U| = 2``, Example 3). Definition 1
        asks nothing for ``s1 = s2``; those rows only appear when one ``P`` is relaxed to
        two independent ``R1, R2 ∈ D_s``, so ``"default"`` drops them. Both are
        ``(ε, F)``-RLDP (Theorem 2's argument needs only the pairs with ``s1 ≠ s2``); the
        default admits more kernels, hence at least the utility.

    References
    ----------
    .. [1] M. Lopuhaä-Zwakenberg, J. Goseling, "Mechanisms for Robust Local Differential Privacy",
       Entropy 26(3):233, 2024, doi:10.3390/e26030233.
    """

    epsilon: float
    ball: RenyiBall
    shape: tuple[int, int]
    variant: str = "default"

    def __post_init__(self) -> None:
        object.__setattr__(self, "epsilon", check_notion_epsilon(self.epsilon))
        if not isinstance(self.ball, RenyiBall):
            raise InvalidInputError(f"ball must be a RenyiBall; got {type(self.ball).__name__}.")
        alphabet = SecretAlphabet.of(self.shape, self.ball.center.shape[0], "ball's center")
        object.__setattr__(self, "shape", alphabet.shape)
        _positive_secrets(alphabet, self.ball.center, "ball")
        if self.variant not in ("default", "paper"):
            raise InvalidInputError(
                f"variant must be 'default' or 'paper'; got {show(self.variant)}."
            )

    def __repr__(self) -> str:
        return (
            f"RobustLDP(epsilon={show(self.epsilon)}, ball=Rényi ball of order {self.ball.alpha:g} "
            f"and radius {self.ball.radius:.6g}, shape={self.shape}, variant={show(self.variant)})"
        )

    @property
    def input_size(self) -> int | None:
        return self.shape[0] * self.shape[1]

    def lower_bounds(self) -> NDArray[np.float64]:
        """``L_{u|s}``, shape ``(|S|, |U|)``."""
        return conditional_lower_bounds(self.ball, self.shape)

    def cone(self, n: int) -> RatioCone:
        """The notion's ratio cone on ``n`` inputs (see :class:`Notion`)."""
        _check_size(n, self.input_size, self)
        polytopes = [simplex_vertices(row) for row in self.lower_bounds()]
        return secret_pairs_cone(
            self.epsilon,
            polytopes,
            same_secret=self.variant == "paper",
            name=f"PolyOpt's Γ_ε (ε = {self.epsilon:g}, {self.variant} variant)",
        )

    def level(self, kernel: Mechanism | ArrayLike) -> float:
        """:func:`~mechdesign.notions.robust_levels.robust_ldp_level` over the ball."""
        return robust_ldp_level(kernel, self.ball, self.shape)

    def dobrushin_bound(self, n: int) -> float | None:
        """No closed-form bound on η_TV is known for this notion (``None``; ``n`` is
        still checked)."""
        _check_size(n, self.input_size, self)
        return None


@dataclass(frozen=True, eq=False)
class NonRobustLDP(Notion):
    """``(ε, {P̂})``-RLDP: RLDP for the estimate alone (the "NR" baseline of the
    robust-LDP paper [1]_, Sec. 8, after Lopuhaä-Zwakenberg et al., that paper's
    reference 3).

    The cone of :func:`secret_pairs_cone` with ``D_s = {P̂_{U|s}}``: pairs
    ``(P̂_{U|s1} in block s1, P̂_{U|s2} in block s2)``, ``s1 ≠ s2``. ``level`` is
    :func:`~mechdesign.notions.robust_levels.realised_epsilon` at ``P̂``.

    Parameters
    ----------
    epsilon : float
        ε in nats (not ``e^ε``); must be finite and ``≥ 0``.
    p_hat : array_like, shape (N,)
        The estimate ``P̂`` on ``X = S × U`` (flattened S-major): non-negative, summing
        to 1 within ``STOCHASTIC_ATOL``, with ``P̂_s > 0`` for every secret ``s``.
    shape : tuple of int
        ``(|S|, |U|)``, the factorisation of the N = |S|·|U| inputs ``X = S × U``
        (flattened S-major, input ``s·|U| + u``); a pair of positive integers.

    References
    ----------
    .. [1] M. Lopuhaä-Zwakenberg, J. Goseling, "Mechanisms for Robust Local Differential Privacy",
       Entropy 26(3):233, 2024, doi:10.3390/e26030233.
    """

    epsilon: float
    p_hat: NDArray[np.float64]
    shape: tuple[int, int]

    def __post_init__(self) -> None:
        object.__setattr__(self, "epsilon", check_notion_epsilon(self.epsilon))
        p = as_distribution(self.p_hat, "p_hat")
        p.setflags(write=False)
        object.__setattr__(self, "p_hat", p)
        alphabet = SecretAlphabet.of(self.shape, p.shape[0], "p_hat")
        object.__setattr__(self, "shape", alphabet.shape)
        _positive_secrets(alphabet, p, "p_hat")

    def __repr__(self) -> str:
        return (
            f"NonRobustLDP(epsilon={show(self.epsilon)}, p_hat={np.round(self.p_hat, 6).tolist()}, "
            f"shape={self.shape})"
        )

    @property
    def input_size(self) -> int | None:
        return self.shape[0] * self.shape[1]

    def cone(self, n: int) -> RatioCone:
        """The notion's ratio cone on ``n`` inputs (see :class:`Notion`)."""
        _check_size(n, self.input_size, self)
        joint = self.p_hat.reshape(self.shape)
        conditionals = joint / joint.sum(axis=1, keepdims=True)
        return secret_pairs_cone(
            self.epsilon,
            [row[None, :] for row in conditionals],
            same_secret=False,
            name=f"non-robust {self.epsilon:g}-RLDP",
        )

    def level(self, kernel: Mechanism | ArrayLike) -> float:
        """:func:`~mechdesign.notions.robust_levels.realised_epsilon` at ``P̂``."""
        return realised_epsilon(kernel, self.p_hat, self.shape)

    def dobrushin_bound(self, n: int) -> float | None:
        """No closed-form bound on η_TV is known for this notion (``None``; ``n`` is
        still checked)."""
        _check_size(n, self.input_size, self)
        return None


@dataclass(frozen=True)
class SecretLDP(Notion):
    """``(ε, P_X)``-RLDP, RLDP for every distribution (robust-LDP paper [1]_, Sec. 6).

    By Proposition 3 it is the ratio cone with pairs ``(e_(s,u), e_(s',u'))`` for
    ``s ≠ s'``: LDP with the constraints inside one secret's block removed. SRR
    (:func:`~mechdesign.mechanisms.closed_forms.secret_randomized_response`) satisfies it.

    Parameters
    ----------
    epsilon : float
        ε in nats (not ``e^ε``); must be finite and ``≥ 0``.
    shape : tuple of int
        ``(|S|, |U|)``, the factorisation of the N = |S|·|U| inputs ``X = S × U``
        (flattened S-major, input ``s·|U| + u``); a pair of positive integers.

    References
    ----------
    .. [1] M. Lopuhaä-Zwakenberg, J. Goseling, "Mechanisms for Robust Local Differential Privacy",
       Entropy 26(3):233, 2024, doi:10.3390/e26030233.
    """

    epsilon: float
    shape: tuple[int, int]

    def __post_init__(self) -> None:
        object.__setattr__(self, "epsilon", check_notion_epsilon(self.epsilon))
        object.__setattr__(self, "shape", SecretAlphabet.of(self.shape).shape)

    @property
    def input_size(self) -> int | None:
        return self.shape[0] * self.shape[1]

    def cone(self, n: int) -> RatioCone:
        """The notion's ratio cone on ``n`` inputs (see :class:`Notion`)."""
        _check_size(n, self.input_size, self)
        a1, a2 = self.shape
        return secret_pairs_cone(
            self.epsilon,
            [np.eye(a2)] * a1,
            same_secret=False,
            name=f"({self.epsilon:g}, P_X)-RLDP",
        )

    def level(self, kernel: Mechanism | ArrayLike) -> float:
        """:func:`~mechdesign.notions.robust_levels.secret_ldp_level`."""
        return secret_ldp_level(kernel, self.shape)

    def dobrushin_bound(self, n: int) -> float | None:
        """No closed-form bound on η_TV is known for this notion (``None``; ``n`` is
        still checked)."""
        _check_size(n, self.input_size, self)
        return None


def _positive_secrets(alphabet: SecretAlphabet, p: NDArray[np.float64], name: str) -> None:
    """Refuse ``P̂_s = 0`` for a secret ``s``, naming the argument that carries ``P̂``."""
    try:
        alphabet.conditionals(p)
    except InvalidInputError as exc:
        raise InvalidInputError(f"{name}: {exc}") from exc


def _check_size(n: int, size: int, notion: object) -> None:
    n = check_positive_int(n, "n")
    if n != size:
        raise InvalidInputError(
            f"n must be {size}: {type(notion).__name__} is defined on |S|·|U| = {size} "
            f"inputs; got n = {n}."
        )

