"""Deprecated: moved to :mod:`mechdesign.optimal.robust.pricing`.

For one release the names still answer here, with a :class:`DeprecationWarning`.
"""

from mechdesign._lazy import moved_module

__getattr__ = moved_module(__name__, "mechdesign.optimal.robust.pricing")
