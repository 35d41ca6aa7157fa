"""The design engine: optimal mechanisms for sublinear utilities, with their evidence.

Stages (:mod:`~mechdesign.optimal.pipeline`): resolve the utility
(:mod:`~mechdesign.optimal.utilities`, which owns ``μ``) → choose a column source
(:mod:`~mechdesign.optimal.sources`: enumeration, cdd repair, pattern pricing in
:mod:`~mechdesign.optimal.patterns` and :mod:`~mechdesign.optimal.gain_pricing`, robust pricing in
:mod:`~mechdesign.optimal.robust.pricing`) → solve the master
(:mod:`~mechdesign.optimal.master`, :mod:`~mechdesign.optimal.column_generation`) →
certify and audit → :class:`~mechdesign.optimal.result.Design`.

:func:`design` is the entry point; the solver pieces (:class:`RestrictedMaster`,
:class:`PatternSource`, :class:`LinearisationSource`, :func:`run_column_generation`) are
importable from here for research on the algorithms themselves.
"""

from mechdesign._lazy import deprecated_names
from mechdesign.optimal.column_generation import ColumnGenerationRun, run_column_generation
from mechdesign.optimal.estimation import EstimationError
from mechdesign.optimal.gain_pricing import GainSource
from mechdesign.optimal.master import RestrictedMaster, solve_vertex_lp
from mechdesign.optimal.patterns import (
    PatternSource,
    ldp_column,
    ldp_information_bound,
    price_ldp,
    randomized_response_bound,
)
from mechdesign.optimal.pipeline import (
    METHODS,
    DesignTarget,
    MasterSolution,
    choose_method,
    column_source,
    design,
    resolve_problem,
    solve_master,
)
from mechdesign.optimal.registry import PRICING_SOURCES, register_source, source_class
from mechdesign.optimal.result import (
    Certificate,
    ColumnGenerationReport,
    Design,
    EstimationReport,
    Timings,
)
from mechdesign.optimal.robust.pricing import LinearisationSource
from mechdesign.optimal.sources import (
    CddRepair,
    ColumnSource,
    Pricing,
    PricingSource,
    VertexEnumeration,
    check_column_source,
)
from mechdesign.optimal.utilities import (
    FDivergenceUtility,
    GainUtility,
    MutualInformationUtility,
    Utility,
    mutual_information_columns,
)

#: Column sources were called oracles, the word the frequency oracles of
#: :mod:`mechdesign.mechanisms` keep: the old names answer for one release.
__getattr__ = deprecated_names(__name__, {
    old: f"{__name__}.{new}" for old, new in (("PricingOracle", "PatternSource"),
                                              ("GainPricingOracle", "GainSource"),
                                              ("LinearisationOracle", "LinearisationSource"))})

__all__ = [
    "METHODS",
    "PRICING_SOURCES",
    "CddRepair",
    "Certificate",
    "ColumnGenerationReport",
    "ColumnGenerationRun",
    "ColumnSource",
    "Design",
    "DesignTarget",
    "EstimationError",
    "EstimationReport",
    "FDivergenceUtility",
    "GainSource",
    "GainUtility",
    "LinearisationSource",
    "MasterSolution",
    "MutualInformationUtility",
    "PatternSource",
    "Pricing",
    "PricingSource",
    "RestrictedMaster",
    "Timings",
    "Utility",
    "VertexEnumeration",
    "check_column_source",
    "choose_method",
    "column_source",
    "design",
    "ldp_column",
    "ldp_information_bound",
    "mutual_information_columns",
    "price_ldp",
    "randomized_response_bound",
    "register_source",
    "resolve_problem",
    "run_column_generation",
    "solve_master",
    "solve_vertex_lp",
    "source_class",
]
