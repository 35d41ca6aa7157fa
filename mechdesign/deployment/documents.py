"""Saved kernels, read back whole: the kernel with its labels, notion and level.

:meth:`Mechanism.to_json <mechdesign.kernel.Mechanism.to_json>` writes a float kernel and
:meth:`RationalMechanism.to_json <mechdesign.deployment.RationalMechanism.to_json>` an
exact one; each document may hold the labels of the inputs and outputs, the notion the
kernel was designed for and its level. :func:`load_kernel` reads either format and
returns all of it, each kernel checked as its own ``from_json`` checks it (the exact one
re-certified in integer arithmetic, the float one against the LDP level it states).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from mechdesign._validation import json_text, show
from mechdesign.deployment.rational import RATIONAL_FORMAT, RationalMechanism
from mechdesign.errors import InvalidInputError
from mechdesign.kernel import JSON_FORMAT, Mechanism, json_labels

__all__ = ["KernelDocument", "load_kernel"]


@dataclass(frozen=True, eq=False)
class KernelDocument:
    """A saved kernel and what its document says about it (:func:`load_kernel`).

    Parameters
    ----------
    kernel : Mechanism or RationalMechanism, shape (N, M)
        The kernel, float or exact.
    input_labels, output_labels : tuple of (str or int), or None
        The labels of the inputs (rows) and outputs (columns), when saved.
    notion : str or None
        The notion it was designed for, as saved (a ``repr``).
    epsilon : float or None
        The level saved beside it (verified for LDP notions; an exact kernel's is the
        level its integers certify).
    """

    kernel: Mechanism | RationalMechanism
    input_labels: tuple[str | int, ...] | None
    output_labels: tuple[str | int, ...] | None
    notion: str | None
    epsilon: float | None

    @property
    def mechanism(self) -> Mechanism:
        """The kernel as a float :class:`~mechdesign.kernel.Mechanism` (an exact one's
        ``n/D``)."""
        kernel = self.kernel
        return kernel.mechanism if isinstance(kernel, RationalMechanism) else kernel

    @property
    def exact(self) -> bool:
        """Whether the document holds an exact (rational) kernel."""
        return isinstance(self.kernel, RationalMechanism)


def load_kernel(text: str) -> KernelDocument:
    """Read a saved kernel of either format: the kernel, its labels, notion and level.

    Parameters
    ----------
    text : str
        JSON text written by ``Mechanism.to_json`` or ``RationalMechanism.to_json``.

    Returns
    -------
    KernelDocument

    Raises
    ------
    InvalidInputError
        Text that is not JSON, a document of neither format, labels of the wrong count,
        or a kernel its stated level does not hold for.
    """
    document = json_text(text, "text")
    kind = document.get("format") if isinstance(document, dict) else None
    if kind == RATIONAL_FORMAT:
        kernel: Mechanism | RationalMechanism = RationalMechanism.from_json(text)
    elif kind == JSON_FORMAT:
        kernel = Mechanism.from_json(text)
    else:
        raise InvalidInputError(
            f"text is not a saved kernel: its 'format' is {show(kind)}, not "
            f"{JSON_FORMAT!r} or {RATIONAL_FORMAT!r}.")
    n_inputs, n_outputs = kernel.matrix.shape
    labels = []
    for name, count in (("input_labels", n_inputs), ("output_labels", n_outputs)):
        values = json_labels(document.get(name), f"text's {name}", count)
        labels.append(None if values is None else tuple(values))
    notion = document.get("notion")
    if notion is not None and not isinstance(notion, str):
        raise InvalidInputError(f"text's notion must be a string; got {show(notion)}.")
    epsilon = document.get("epsilon")
    if epsilon is not None:
        epsilon = math.inf if epsilon == "inf" else float(epsilon)
    return KernelDocument(kernel, labels[0], labels[1], notion, epsilon)
