"""The design engine: optimal mechanisms for sublinear utilities, with their evidence.

Stages (:mod:`~mechdesign.design.pipeline`): resolve the utility
(:mod:`~mechdesign.design.utilities`, which owns ``μ``) → choose a column source
(:mod:`~mechdesign.design.sources`: enumeration, cdd repair, pattern pricing in
:mod:`~mechdesign.design.patterns` and :mod:`~mechdesign.design.gain_pricing`, robust pricing in
:mod:`~mechdesign.design.robust_pricing`) → solve the master
(:mod:`~mechdesign.design.master`, :mod:`~mechdesign.design.column_generation`) →
certify and audit → :class:`~mechdesign.design.result.Design`.

:func:`design` is the entry point; the solver pieces (:class:`RestrictedMaster`,
:class:`PricingOracle`, :class:`LinearisationOracle`, :func:`run_column_generation`) are
importable from here for research on the algorithms themselves.
"""

from mechdesign.design.column_generation import ColumnGenerationRun, run_column_generation
from mechdesign.design.estimation import EstimationError
from mechdesign.design.gain_pricing import GainPricingOracle
from mechdesign.design.master import RestrictedMaster, solve_vertex_lp
from mechdesign.design.patterns import (
    PricingOracle,
    ldp_column,
    ldp_information_bound,
    price_ldp,
)
from mechdesign.design.pipeline import (
    AUTO_MAX_VERTICES,
    METHODS,
    MasterSolution,
    choose_method,
    column_source,
    design,
    resolve_problem,
    solve_master,
)
from mechdesign.design.result import (
    Certificate,
    ColumnGenerationReport,
    Design,
    EstimationReport,
    Timings,
)
from mechdesign.design.robust_pricing import LinearisationOracle
from mechdesign.design.sources import (
    CddRepair,
    ColumnSource,
    Pricing,
    VertexEnumeration,
    register_source,
    source_class,
)
from mechdesign.design.utilities import (
    FDivergenceUtility,
    GainUtility,
    MutualInformationUtility,
    Utility,
    mutual_information_columns,
)

__all__ = [
    "AUTO_MAX_VERTICES",
    "METHODS",
    "CddRepair",
    "Certificate",
    "ColumnGenerationReport",
    "ColumnGenerationRun",
    "ColumnSource",
    "Design",
    "EstimationError",
    "EstimationReport",
    "FDivergenceUtility",
    "GainPricingOracle",
    "GainUtility",
    "LinearisationOracle",
    "MasterSolution",
    "MutualInformationUtility",
    "Pricing",
    "PricingOracle",
    "RestrictedMaster",
    "Timings",
    "Utility",
    "VertexEnumeration",
    "choose_method",
    "column_source",
    "design",
    "ldp_column",
    "ldp_information_bound",
    "mutual_information_columns",
    "price_ldp",
    "register_source",
    "resolve_problem",
    "run_column_generation",
    "solve_master",
    "solve_vertex_lp",
    "source_class",
]
