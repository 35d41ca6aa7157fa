"""Deprecated: moved to :mod:`mechdesign.optimal.estimation.symmetry`.

For one release the names still answer here, with a :class:`DeprecationWarning`.
"""

from mechdesign._lazy import moved_module

#: Where this module's contents live now (the API reference skips a moved module).
MOVED_TO = "mechdesign.optimal.estimation.symmetry"

__getattr__ = moved_module(__name__, MOVED_TO)
