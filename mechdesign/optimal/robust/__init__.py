"""Column generation for robust LDP (PolyOpt, :class:`~mechdesign.notions.RobustLDP`).

- :mod:`~mechdesign.optimal.robust.blocks`: exact pricing block by block (the vertices
  of each secret's block are patterned), with a branch and bound over the blocks;
- :mod:`~mechdesign.optimal.robust.pricing`: the column source
  (:class:`LinearisationSource`): exact where the blocks are small, successive
  linearisation otherwise.
"""

from mechdesign._lazy import deprecated_names
from mechdesign.optimal.robust.pricing import LinearisationSource

#: Column sources were called oracles, the word the frequency oracles of
#: :mod:`mechdesign.mechanisms` keep: the old names answer for one release.
__getattr__ = deprecated_names(__name__,
                               {"LinearisationOracle": f"{__name__}.LinearisationSource"})

__all__ = ["LinearisationSource"]
