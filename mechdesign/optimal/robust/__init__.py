"""Column generation for robust LDP (PolyOpt, :class:`~mechdesign.notions.RobustLDP`).

- :mod:`~mechdesign.optimal.robust.blocks`: exact pricing block by block (the vertices
  of each secret's block are patterned), with a branch and bound over the blocks;
- :mod:`~mechdesign.optimal.robust.pricing`: the column source
  (:class:`LinearisationOracle`): exact where the blocks are small, successive
  linearisation otherwise.
"""

from mechdesign.optimal.robust.pricing import LinearisationOracle

__all__ = ["LinearisationOracle"]
