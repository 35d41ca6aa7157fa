"""The privacy-notion interface: what the design engine asks of a notion.

A notion is a ratio cone (a kernel satisfies it when each of its columns ``v`` lies in
``{v ≥ 0 : a_i·v ≤ e^ε b_i·v for all i}``): a subclass of the abstract base class
:class:`Notion` with ``epsilon``, ``cone(n)``
(:class:`~mechdesign.notions.cones.RatioCone`), ``level(kernel)`` (its audit, computed by
measures independent of the cone), ``dobrushin_bound(n)`` and ``input_size``; and, with
defaults, a closed-form ``vertex_bound(n)``, ``check_inputs(n)`` (the sizes it is defined
on) and ``vertex_priors(n)`` (the priors it protects, if not every prior). The notions
themselves are in :mod:`mechdesign.notions.pml` (ε-LDP and the PML notions) and
:mod:`mechdesign.notions.robust` (the robust-LDP paper's). A new notion is a subclass: the
design engine and the audits accept every subclass and nothing else.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mechdesign._validation import (
    check_epsilon,
    check_positive_int,
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


class Notion(ABC):
    """What the design engine needs from a privacy notion: an abstract base class.

    Subclasses (frozen dataclasses in this package) define ``epsilon`` (a float, in nats)
    and the abstract members below; :meth:`vertex_bound` has a default (no closed form).
    """

    epsilon: float

    @property
    @abstractmethod
    def input_size(self) -> int | None:
        """N when the notion fixes it (through a prior), else ``None``."""

    @abstractmethod
    def cone(self, n: int) -> RatioCone:
        """The notion's ratio cone on ``n`` inputs."""

    @abstractmethod
    def level(self, kernel: Mechanism | ArrayLike) -> float:
        """The notion's privacy level of a kernel (the audit)."""

    @abstractmethod
    def dobrushin_bound(self, n: int) -> float | None:
        """A closed-form bound on η_TV over the notion's kernels, if one is known."""

    def vertex_bound(self, n: int) -> int | None:
        """A closed-form upper bound on the number of vertices of the cone's normalised
        section on ``n`` inputs, or ``None`` (the default) when the notion knows none:
        ``method="auto"`` then bounds them from the cone
        (:meth:`~mechdesign.notions.cones.RatioCone.vertex_bound`, McMullen)."""
        return None

    def check_inputs(self, n: int) -> int:
        """``n`` if the notion is defined on ``n`` inputs, else :class:`InvalidInputError`
        naming ``n`` and the condition. The default: any positive ``n`` when
        :attr:`input_size` is ``None``, else exactly :attr:`input_size`; a notion with a
        further condition (``c ≤ 1/N`` for ``(ε, c)``-PML) extends it."""
        n_val = check_positive_int(n, "n")
        size = self.input_size
        if size is not None and n_val != size:
            raise InvalidInputError(
                f"n must be {size}: {show(self)} is defined on {size} inputs; got "
                f"n = {n_val}."
            )
        return n_val

    def vertex_priors(self, n: int) -> NDArray[np.float64] | None:
        """The priors whose convex hull the notion protects, as rows of shape (m, n)
        (the prior polytope of PML), or ``None`` (the default) for a notion that holds
        under every prior (ε-LDP): the bounds that need a prior set
        (:func:`~mechdesign.bounds.contraction.gamma_max`) then ask for one."""
        return None


#: The largest ratio cone built in memory: pairs × coordinates entries of its numerator
#: (and denominator) matrix, 2^27 doubles = 1 GiB each. ε-LDP reaches it at N = 512.
RATIO_CONE_MAX_ENTRIES = 2**27


def check_notion(notion: object, name: str = "notion") -> Notion:
    """``notion`` if it is a :class:`Notion` (an instance of a subclass), else
    :class:`InvalidInputError` naming ``name`` (a string such as ``"ldp"`` is refused with
    the constructors to use instead).

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
    if not isinstance(notion, Notion):
        raise InvalidInputError(
            f"{name} must be a privacy notion such as mechdesign.LDP(epsilon), "
            "mechdesign.PML(epsilon, c=c) or mechdesign.RobustLDP(epsilon, ball, shape) "
            "(a subclass of mechdesign.notions.Notion); got "
            f"{show(notion)} of type {type(notion).__name__}."
        )
    return notion


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

