"""The estimation-optimal design: the mechanism whose best linear unbiased estimator
answers a workload with the least expected squared error, with a certified bracket.

- :mod:`~mechdesign.optimal.estimation.design`: the A-optimal program over the section's
  vertices (enumeration, or column generation with a Newton polish), its certificate and
  the design (:class:`EstimationError`, :func:`design_for_estimation`);
- :mod:`~mechdesign.optimal.estimation.pricing`: the pricing of its column generation
  (local search, and certified bounds by brute force or a semidefinite relaxation);
- :mod:`~mechdesign.optimal.estimation.bounds`: lower bounds, with and without pricing;
- :mod:`~mechdesign.optimal.estimation.symmetry`: the uniform prior solved by symmetry.
"""

from mechdesign.optimal.estimation.design import EstimationError, design_for_estimation

__all__ = ["EstimationError", "design_for_estimation"]
