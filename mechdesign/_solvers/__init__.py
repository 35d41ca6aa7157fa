"""The only place that talks to the LP and MIP solver (HiGHS): silent models, one status
table, one retry policy (:mod:`~mechdesign._solvers.highs`)."""
