"""The privacy-notion interface: what the design engine asks of a notion.

A notion is a ratio cone (GUIDE.md, "The one idea"): an object with ``epsilon``,
``cone(n)`` (:class:`~mechdesign.notions.cones.RatioCone`), ``level(kernel)`` (its audit,
computed by measures independent of the cone), ``dobrushin_bound(n)`` and
``input_size``. The notions themselves are in :mod:`mechdesign.notions.pml` (ε-LDP and
the PML notions) and :mod:`mechdesign.notions.robust` (the robust-LDP paper's).
"""

from __future__ import annotations

import math
from typing import Protocol

from numpy.typing import ArrayLike

from mechdesign._validation import (
    check_epsilon,
    show,
)
from mechdesign.errors import InvalidInputError
from mechdesign.kernel import Mechanism
from mechdesign.notions.cones import RatioCone

__all__ = [
    "RATIO_CONE_MAX_ENTRIES",
    "Notion",
    "check_notion",
    "check_notion_epsilon",
]


class Notion(Protocol):
    """What the design engine needs from a privacy notion.

    A structural type: any object with ``epsilon``, ``input_size``, ``cone(n)``,
    ``level(kernel)`` and ``dobrushin_bound(n)`` is a notion (:func:`check_notion`).

    Parameters
    ----------
    *args, **kwargs
        Unused: a Protocol is not instantiated. Implement its members in a class of your
        own (the package's notions are frozen dataclasses).
    """

    epsilon: float

    @property
    def input_size(self) -> int | None:
        """N when the notion fixes it (through a prior), else ``None``."""

    def cone(self, n: int) -> RatioCone:
        """The notion's ratio cone on ``n`` inputs."""

    def level(self, kernel: Mechanism | ArrayLike) -> float:
        """The notion's privacy level of a kernel (the audit)."""

    def dobrushin_bound(self, n: int) -> float | None:
        """A closed-form bound on η_TV over the notion's kernels, if one is known."""


#: What :func:`check_notion` asks of a notion (the members of :class:`Notion`).
_NOTION_MEMBERS = ("epsilon", "input_size", "cone", "level", "dobrushin_bound")

#: The largest ratio cone built in memory: pairs × coordinates entries of its numerator
#: (and denominator) matrix, 2^27 doubles = 1 GiB each. ε-LDP reaches it at N = 512.
RATIO_CONE_MAX_ENTRIES = 2**27


def check_notion(notion: object, name: str = "notion") -> Notion:
    """``notion`` if it has every member of :class:`Notion`, else
    :class:`InvalidInputError` naming ``name`` and what is missing (a string such as
    ``"ldp"`` is refused with the constructors to use instead).

    Parameters
    ----------
    notion : object
        The candidate notion.
    name : str, default "notion"
        The argument's name, for the error message.

    Returns
    -------
    Notion
        ``notion`` itself.
    """
    missing = [member for member in _NOTION_MEMBERS if not hasattr(notion, member)]
    if missing:
        raise InvalidInputError(
            f"{name} must be a privacy notion such as mechdesign.LDP(epsilon), "
            "mechdesign.PML(epsilon, c=c) or mechdesign.RobustLDP(epsilon, ball, shape); "
            f"got {show(notion)} of type {type(notion).__name__}, which has no "
            f"{', '.join(missing)}."
        )
    return notion  # type: ignore[return-value]


def check_notion_epsilon(epsilon: float) -> float:
    """A notion's ε: finite and ≥ 0 (an infinite ε is no privacy notion at all).

    Parameters
    ----------
    epsilon : float
        ε in nats; must be a real number, finite and ``≥ 0``.

    Returns
    -------
    float
        ε as a float.
    """
    value = check_epsilon(epsilon)
    if math.isinf(value):
        raise InvalidInputError(
            f"epsilon must be finite for a privacy notion; got {show(epsilon)}."
        )
    return value

