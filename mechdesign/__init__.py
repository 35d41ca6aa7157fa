"""mechdesign: design and audit privacy mechanisms on finite alphabets.

Conventions, stated once for the whole package:

- A mechanism (kernel, channel) is a row-stochastic matrix ``K[x, y] = P(Y=y | X=x)``:
  **rows are inputs**, columns are outputs. Every function that takes a kernel accepts a
  :class:`Mechanism` or a 2-D array-like. The robust-LDP paper's transposed orientation
  enters only through :meth:`Mechanism.from_columns`.
- **Natural logarithms**: ε, leakage, divergences and mutual information are in nats.
- Distributions are 1-D float arrays summing to one; inputs are validated at every public
  boundary and bad input raises :class:`InvalidInputError` (also a ``ValueError``) naming
  the argument. Nothing is silently clipped or renormalised.
- Unbounded guarantees are ``math.inf``, not errors.
- ``import mechdesign`` is cheap: each public name is imported from its submodule on
  first use, so scipy, pandas, matplotlib and dp_accounting load only when needed.
"""

from __future__ import annotations

import importlib
import warnings
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    # For type checkers and editors only: at run time every public name is imported on
    # first use (PEP 562, ``_EXPORTS`` below), so that ``import mechdesign`` and the
    # command line's ``--help`` do not pay for numpy, scipy, pandas, cvxpy, matplotlib
    # and dp_accounting. tests/test_startup.py checks that this block, ``_EXPORTS`` and
    # ``__all__`` name the same objects.
    from mechdesign.accounting.composition import (
        composed_delta,
        composed_epsilon,
        dominating_pair,
        privacy_loss_distribution,
    )
    from mechdesign.accounting.sample_audit import audit_samples
    from mechdesign.accounting.shuffle import shuffle_delta, shuffle_epsilon
    from mechdesign.accounting.shuffle_design import Shuffled
    from mechdesign.bounds.contraction import max_dobrushin
    from mechdesign.bounds.envelope import binary_envelope, pml_envelope
    from mechdesign.comparison import compare
    from mechdesign.deployment.aggregation import Aggregator
    from mechdesign.deployment.opendp import to_opendp
    from mechdesign.deployment.rational import rational_mechanism
    from mechdesign.errors import (
        ExecutorError,
        InfeasibleError,
        InvalidInputError,
        MechDesignError,
        SolverError,
        TooLargeError,
        UnsupportedError,
    )
    from mechdesign.kernel import Mechanism
    from mechdesign.measures.channels import (
        channel_capacity,
        is_degraded,
        maximal_alpha_leakage,
        sibson_mutual_information,
    )
    from mechdesign.measures.divergences import kl_divergence, renyi_divergence, total_variation
    from mechdesign.measures.leakage import (
        dobrushin_coefficient,
        ldp_level,
        maximal_leakage,
        mutual_information,
        pml_capacity,
        pml_level,
        pointwise_leakage,
    )
    from mechdesign.measures.profile import privacy_profile
    from mechdesign.mechanisms.closed_forms import randomized_response
    from mechdesign.mechanisms.protocols import (
        estimation_mse,
        hadamard_response,
        local_hashing,
        subset_selection,
        unary_encoding,
    )
    from mechdesign.notions.pml import LDP, PML, dobrushin_bound
    from mechdesign.notions.robust import RobustLDP
    from mechdesign.notions.robust_levels import robust_ldp_level
    from mechdesign.notions.uncertainty import (
        RenyiBall,
        chi2_radius,
        conditional_lower_bounds,
        conditional_radii,
    )
    from mechdesign.optimal import Design, EstimationError, GainUtility, design
    from mechdesign.status import Status
    from mechdesign.sweeps.run import sweep

__all__ = [
    "LDP",
    "PML",
    "Aggregator",
    "Design",
    "EstimationError",
    "ExecutorError",
    "GainUtility",
    "InfeasibleError",
    "InvalidInputError",
    "MechDesignError",
    "Mechanism",
    "RenyiBall",
    "RobustLDP",
    "Shuffled",
    "SolverError",
    "Status",
    "TooLargeError",
    "UnsupportedError",
    "__version__",
    "audit_samples",
    "binary_envelope",
    "channel_capacity",
    "chi2_radius",
    "compare",
    "composed_delta",
    "composed_epsilon",
    "conditional_lower_bounds",
    "conditional_radii",
    "design",
    "dobrushin_bound",
    "dobrushin_coefficient",
    "dominating_pair",
    "estimation_mse",
    "hadamard_response",
    "is_degraded",
    "kl_divergence",
    "ldp_level",
    "local_hashing",
    "max_dobrushin",
    "maximal_alpha_leakage",
    "maximal_leakage",
    "mutual_information",
    "pml_capacity",
    "pml_envelope",
    "pml_level",
    "pointwise_leakage",
    "privacy_loss_distribution",
    "privacy_profile",
    "randomized_response",
    "rational_mechanism",
    "renyi_divergence",
    "robust_ldp_level",
    "shuffle_delta",
    "shuffle_epsilon",
    "sibson_mutual_information",
    "subset_selection",
    "sweep",
    "to_opendp",
    "total_variation",
    "unary_encoding",
]

#: Where each public name lives: submodule -> the names it contributes to ``__all__``.
#: A name is imported from its submodule on first access and then cached in the package.
_EXPORTS: dict[str, tuple[str, ...]] = {
    "accounting.composition": (
        "composed_delta", "composed_epsilon", "dominating_pair", "privacy_loss_distribution",
    ),
    "accounting.sample_audit": (
        "audit_samples",
    ),
    "accounting.shuffle": (
        "shuffle_delta", "shuffle_epsilon",
    ),
    "accounting.shuffle_design": (
        "Shuffled",
    ),
    "bounds.contraction": (
        "max_dobrushin",
    ),
    "bounds.envelope": (
        "binary_envelope", "pml_envelope",
    ),
    "comparison": (
        "compare",
    ),
    "deployment.aggregation": (
        "Aggregator",
    ),
    "deployment.opendp": (
        "to_opendp",
    ),
    "deployment.rational": (
        "rational_mechanism",
    ),
    "errors": (
        "ExecutorError", "InfeasibleError", "InvalidInputError", "MechDesignError",
        "SolverError", "TooLargeError", "UnsupportedError",
    ),
    "kernel": (
        "Mechanism",
    ),
    "status": (
        "Status",
    ),
    "measures.channels": (
        "channel_capacity", "is_degraded", "maximal_alpha_leakage", "sibson_mutual_information",
    ),
    "measures.divergences": (
        "kl_divergence", "renyi_divergence", "total_variation",
    ),
    "measures.leakage": (
        "dobrushin_coefficient", "ldp_level", "maximal_leakage", "mutual_information",
        "pml_capacity", "pml_level", "pointwise_leakage",
    ),
    "measures.profile": (
        "privacy_profile",
    ),
    "mechanisms.closed_forms": (
        "randomized_response",
    ),
    "mechanisms.protocols": (
        "estimation_mse", "hadamard_response", "local_hashing", "subset_selection",
        "unary_encoding",
    ),
    "notions.pml": (
        "LDP", "PML", "dobrushin_bound",
    ),
    "notions.robust": (
        "RobustLDP",
    ),
    "notions.robust_levels": (
        "robust_ldp_level",
    ),
    "notions.uncertainty": (
        "RenyiBall", "chi2_radius", "conditional_lower_bounds", "conditional_radii",
    ),
    "optimal": (
        "Design", "EstimationError", "GainUtility", "design",
    ),
    "sweeps.run": (
        "sweep",
    ),
}

#: Names that left the top level (issue 42): the namespace each lives in now. For one
#: release ``mechdesign.<name>`` still answers, with a :class:`DeprecationWarning`
#: naming the new place.
_MOVED: dict[str, tuple[str, ...]] = {
    "accounting": (
        "AttackRisk", "ComposedDelta", "ComposedEpsilon", "DominatingPair", "SampleAudit",
        "ShuffleDelta", "ShuffleEpsilon", "ShuffleParameters", "attack_risk", "audit_pairs",
        "local_epsilon_for", "pml_composition_bound", "shuffle_parameters", "tradeoff_curve",
    ),
    "bounds": (
        "DobrushinMaximum", "LeakageDistribution", "PMLEnvelope", "RandomizedResponseEnvelope",
        "RenyiAmplification", "adaptive_composition", "asoodeh_zhang_kl_bound",
        "asoodeh_zhang_kl_contraction", "block_uniform_channel", "circulant_singular_channel",
        "closed_failure_probability", "composition_envelope_bound",
        "conditional_maximal_leakage", "confusion_graph", "cross_channel_gamma",
        "decomposable_threshold", "decomposable_witness_kernel", "disjoint_support_pair",
        "duchi_kl_bound", "envelope_lower_bound", "envelope_upper_bound", "gamma_bound",
        "kairouz_dobrushin_bound", "leakage_distribution", "max_cross_channel_gamma",
        "max_zeros_per_column", "pml_failure_probability", "pml_hellinger_sdpi_bound",
        "pml_kl_sdpi_bound", "pml_lower_quantile", "pml_psi1", "pml_psi2", "pml_sdpi_bound",
        "pml_upper_quantile", "private_minimax_lower_bound", "randomized_response_envelope",
        "reverse_pinsker_kl", "rldp_amplification_bound",
    ),
    "comparison": (
        "deployed_protocols",
    ),
    "deployment": (
        "ImplementationCheck", "RationalMechanism", "check_implementation",
    ),
    "kernel": (
        "NotIdentifiableWarning", "estimate_input_distribution", "output_classes",
        "project_to_simplex",
    ),
    "measures": (
        "CHI_SQUARED", "KL", "SQUARED_HELLINGER", "TOTAL_VARIATION", "Capacity",
        "ChiSquaredContraction", "FGenerator", "bayes_vulnerability", "chi_squared_contraction",
        "chi_squared_divergence", "dp_epsilon", "dp_failure_probability", "event_leakage",
        "f_alpha_divergence", "f_alpha_from_renyi", "f_alpha_generator",
        "f_alpha_tv_lower_boundary", "f_divergence", "g_vulnerability",
        "hockey_stick_divergence", "hockey_stick_generator", "information_density",
        "is_less_noisy", "maximal_correlation", "pinsker_f_alpha", "pinsker_f_alpha_inverse",
        "renyi_from_f_alpha", "renyi_ldp_level", "reverse_pinsker", "reverse_pinsker_f_alpha",
        "squared_hellinger",
    ),
    "mechanisms": (
        "ROBUST_LDP_MECHANISMS", "FrequencyOracle", "IndependentReporting", "PureOracle",
        "binary_mechanism", "design_independent_reporting", "extremal_binary_mechanism",
        "extremal_binary_valid_q", "generalized_randomized_response", "hash_family",
        "implicit_protocols", "independent_reporting", "ir_distance_bound",
        "pml_binary_mechanism", "pml_extremal_mechanism", "robust_ldp_mechanism",
        "secret_randomized_response",
    ),
    "notions": (
        "CategoricalPair", "NonRobustLDP", "RatioCone", "RobustLevel", "SecretLDP", "VertexSet",
        "categorical_pair", "conditional_ball", "empirical_pair", "linear_extreme",
        "projection_level", "realised_epsilon", "secret_ldp_level", "xi_bounds",
    ),
    "optimal": (
        "Certificate", "ColumnGenerationReport", "FDivergenceUtility",
        "MutualInformationUtility",
    ),
    "priors": (
        "four_level_prior", "zipf_prior",
    ),
    "reproduce": (
        "PAPER_EXAMPLES", "PaperExample",
    ),
    "sweeps": (
        "SerialFallbackWarning", "design_task", "envelope_task", "measure_task", "plot_sweep",
    ),
}

_SOURCE: dict[str, str] = {name: module for module, names in _EXPORTS.items() for name in names}
_NEW_PLACE: dict[str, str] = {name: place for place, names in _MOVED.items() for name in names}


def __getattr__(name: str) -> Any:
    """Import a public name (or a submodule such as ``mechdesign.measures``) on first use;
    a name that left the top level warns and answers from its new place."""
    if name == "__version__":
        value: Any = importlib.import_module(f"{__name__}._version").installed_version()
    elif name in _NEW_PLACE:
        place = _NEW_PLACE[name]
        warnings.warn(
            f"mechdesign.{name} is deprecated: use mechdesign.{place}.{name} (the top-level "
            "name will be removed in the next release)",
            DeprecationWarning,
            stacklevel=2,
        )
        return getattr(importlib.import_module(f"{__name__}.{place}"), name)
    elif name in _SOURCE:
        value = getattr(importlib.import_module(f"{__name__}.{_SOURCE[name]}"), name)
    elif name.startswith("__"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    else:
        try:
            value = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}":
                raise  # a submodule exists but one of its own imports is missing
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
        return value  # the import system has bound the submodule on the package already
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
