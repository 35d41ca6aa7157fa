"""The robust-LDP paper's mechanisms by name: the one registry of what its Sec. 8 compares.

:func:`robust_ldp_mechanism` builds GRR, SRR and IR in closed form
(:mod:`~mechdesign.mechanisms.closed_forms`) and designs PolyOpt (both variants) and the
non-robust optimum NR (:func:`~mechdesign.optimal.design` under
:class:`~mechdesign.notions.RobustLDP` and :class:`~mechdesign.notions.NonRobustLDP`).
The command line's ``design --notion rldp``, :func:`mechdesign.reports.rldp_report` and
:mod:`mechdesign.reproduce.robust_ldp` all choose their mechanism here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mechdesign._validation import show
from mechdesign.errors import InvalidInputError
from mechdesign.kernel import Mechanism
from mechdesign.mechanisms.closed_forms import (
    design_independent_reporting,
    randomized_response,
    secret_randomized_response,
)
from mechdesign.notions import NonRobustLDP, RobustLDP
from mechdesign.notions.cones import MAX_VERTICES
from mechdesign.notions.uncertainty import RenyiBall, SecretAlphabet
from mechdesign.optimal import design

__all__ = [
    "ROBUST_LDP_MECHANISMS",
    "RobustMechanism",
    "robust_ldp_mechanism",
]

#: The robust-LDP paper's mechanisms (Sec. 8), by the names its figures use: generalised
#: randomized response, secret randomized response (Def. 4), independent reporting
#: (Thm. 5–6), PolyOpt (Def. 3; default variant and the paper's, with the s1 = s2 rows)
#: and the non-robust optimum. Names are matched without regard to case.
ROBUST_LDP_MECHANISMS = ("GRR", "SRR", "IR", "PolyOpt", "PolyOpt-paper", "NR")


@dataclass(frozen=True)
class RobustMechanism:
    """A robust-LDP mechanism with what its construction reports besides the kernel.

    Parameters
    ----------
    name : str
        Its name in :data:`ROBUST_LDP_MECHANISMS` (canonical case).
    mechanism : Mechanism
        The kernel, shape (|S|·|U|, M), rows the inputs (s, u), S-major.
    details : dict
        For a design: ``method``, ``n_vertices``, ``certificate_holds`` and ``seconds``,
        with column generation's ``columns``, ``iterations``, ``optimality``,
        ``lower_bound`` and ``upper_bound``; for IR: ``epsilon2``, ``delta2`` and ``d``;
        empty for GRR and SRR.
    """

    name: str
    mechanism: Mechanism
    details: dict[str, Any] = field(default_factory=dict)


def robust_ldp_mechanism(
    name: str,
    epsilon: float,
    ball: RenyiBall,
    shape: tuple[int, int],
    **design_options: Any,
) -> RobustMechanism:
    """The robust-LDP mechanism ``name`` at ``epsilon`` for the ball around the estimate
    ``P̂ = ball.center`` [1]_.

    Parameters
    ----------
    name : str
        One of :data:`ROBUST_LDP_MECHANISMS`, any case: GRR, SRR (Definition 4 of [1]_),
        IR (Theorems 5–6), PolyOpt (Definition 3; ``"PolyOpt-paper"`` keeps the s1 = s2
        rows) or NR (the optimum for ``P̂`` alone).
    epsilon : float
        The privacy level ε ≥ 0, nats.
    ball : RenyiBall
        The uncertainty set around ``P̂`` (flattened S × U, S-major).
    shape : tuple of int
        ``(|S|, |U|)``, whose product is the size of ``ball.center``.
    **design_options
        Passed to :func:`~mechdesign.optimal.design` for PolyOpt and NR (their
        ``max_vertices`` defaults to :data:`~mechdesign.notions.cones.MAX_VERTICES`).

    Returns
    -------
    RobustMechanism
        The kernel under its canonical name, with what its construction reports.

    Raises
    ------
    mechdesign.errors.InvalidInputError
        When ``name`` is not a registered name, ``ball`` is not a
        :class:`~mechdesign.notions.uncertainty.RenyiBall`, ``shape`` does not fit its
        center, or ``P̂`` gives a secret no mass.

    References
    ----------
    .. [1] M. Lopuhaä-Zwakenberg, J. Goseling, "Mechanisms for Robust Local Differential
       Privacy", Entropy 26(3):233, 2024, doi:10.3390/e26030233.
    """
    canonical = {m.lower(): m for m in ROBUST_LDP_MECHANISMS}
    key = canonical.get(name.lower()) if isinstance(name, str) else None
    if key is None:
        raise InvalidInputError(
            f"name: mechanism must be one of {ROBUST_LDP_MECHANISMS} (any case); got "
            f"{show(name)}."
        )
    if not isinstance(ball, RenyiBall):
        raise InvalidInputError(
            f"ball must be a mechdesign.RenyiBall (the uncertainty set around P̂); got "
            f"{show(ball)}."
        )
    p_hat = ball.center
    shape = SecretAlphabet.of(shape, p_hat.size, "ball's center").shape
    try:
        ball_alphabet_check = SecretAlphabet.of(shape, p_hat.size, "ball's center")
        ball_alphabet_check.conditionals(p_hat)
    except InvalidInputError as exc:  # P̂_s = 0: name the argument that carries P̂
        raise InvalidInputError(f"ball: {exc}") from exc
    if key == "GRR":
        return RobustMechanism(key, randomized_response(p_hat.size, epsilon))
    if key == "SRR":
        return RobustMechanism(key, secret_randomized_response(shape, epsilon))
    if key == "IR":
        ir = design_independent_reporting(epsilon, ball, shape)
        details = {"epsilon2": ir.epsilon2, "delta2": ir.delta2, "d": ir.d}
        return RobustMechanism(key, ir.mechanism, details)
    if key == "NR":
        notion = NonRobustLDP(epsilon, p_hat, shape)
    else:
        variant = "paper" if key == "PolyOpt-paper" else "default"
        notion = RobustLDP(epsilon, ball, shape, variant=variant)
    result = design(notion, p_hat, **{"max_vertices": MAX_VERTICES, **design_options})
    summary = result.summary()
    details = {
        "method": result.method,
        "n_vertices": summary["n_vertices"],
        "certificate_holds": result.certificate.holds,
        "seconds": summary["seconds"],
        **{item: summary[item] for item in ("columns", "iterations", "optimality",
                                            "lower_bound", "upper_bound") if item in summary},
    }
    return RobustMechanism(key, result.mechanism, details)
