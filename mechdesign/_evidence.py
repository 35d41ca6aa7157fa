"""Results that are numbers and carry their evidence.

A bound or an optimum is most convenient as a plain ``float`` (it compares, formats and
computes like one), yet a researcher wants the kernel, the post-processing or the LP
count that backs it. :class:`EvidenceFloat` is both: a ``float`` subclass with named,
read-only evidence fields that survive pickling (e.g. across processes).
"""

from __future__ import annotations

from typing import Any, ClassVar

from mechdesign._validation import (
    show,
)

__all__ = ["EvidenceFloat"]


class EvidenceFloat(float):
    """A ``float`` with immutable evidence fields named in ``_fields``.

    Subclasses list their fields in ``_fields`` and document them; ``value`` is always
    the float itself. Construction is ``Subclass(value, field=..., ...)`` with every
    field given by keyword.
    """

    _fields: ClassVar[tuple[str, ...]] = ()

    value: float

    def __new__(cls, value: float, **fields: Any) -> EvidenceFloat:
        if set(fields) != set(cls._fields):
            raise TypeError(
                f"{cls.__name__} takes the fields {cls._fields}; got {tuple(sorted(fields))}."
            )
        self = super().__new__(cls, value)
        object.__setattr__(self, "value", float(value))
        for name in cls._fields:
            object.__setattr__(self, name, fields[name])
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable; cannot set {show(name)}.")

    def __reduce__(self):
        return (_rebuild, (type(self), self.value, {n: getattr(self, n) for n in self._fields}))


def _rebuild(cls: type[EvidenceFloat], value: float, fields: dict[str, Any]) -> EvidenceFloat:
    return cls(value, **fields)
