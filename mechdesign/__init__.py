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
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    # For type checkers and editors only: at run time every public name is imported on
    # first use (PEP 562, ``_EXPORTS`` below), so that ``import mechdesign`` and the
    # command line's ``--help`` do not pay for numpy, scipy, pandas, cvxpy, matplotlib
    # and dp_accounting. tests/test_startup.py checks that this block, ``_EXPORTS`` and
    # ``__all__`` name the same objects.
    from mechdesign.accounting.composition import (
        AttackRisk,
        ComposedDelta,
        ComposedEpsilon,
        DominatingPair,
        attack_risk,
        composed_delta,
        composed_epsilon,
        dominating_pair,
        pml_composition_bound,
        privacy_loss_distribution,
        tradeoff_curve,
    )
    from mechdesign.accounting.sample_audit import SampleAudit, audit_pairs, audit_samples
    from mechdesign.accounting.shuffle import (
        ShuffleDelta,
        ShuffleEpsilon,
        ShuffleParameters,
        local_epsilon_for,
        shuffle_delta,
        shuffle_epsilon,
        shuffle_parameters,
    )
    from mechdesign.bounds.amplification import (
        RenyiAmplification,
        block_uniform_channel,
        circulant_singular_channel,
        confusion_graph,
        disjoint_support_pair,
        rldp_amplification_bound,
    )
    from mechdesign.bounds.contraction import (
        ChiSquaredContraction,
        DobrushinMaximum,
        asoodeh_zhang_kl_bound,
        asoodeh_zhang_kl_contraction,
        chi_squared_contraction,
        cross_channel_gamma,
        decomposable_threshold,
        decomposable_witness_kernel,
        duchi_kl_bound,
        gamma_bound,
        kairouz_dobrushin_bound,
        max_cross_channel_gamma,
        max_dobrushin,
        max_zeros_per_column,
        maximal_correlation,
        pml_hellinger_sdpi_bound,
        pml_kl_sdpi_bound,
        pml_sdpi_bound,
        private_minimax_lower_bound,
        reverse_pinsker_kl,
    )
    from mechdesign.bounds.envelope import (
        LeakageDistribution,
        PMLEnvelope,
        RandomizedResponseEnvelope,
        adaptive_composition,
        binary_envelope,
        closed_failure_probability,
        composition_envelope_bound,
        conditional_maximal_leakage,
        dp_epsilon,
        dp_failure_probability,
        envelope_lower_bound,
        envelope_upper_bound,
        four_level_prior,
        leakage_distribution,
        pml_envelope,
        pml_failure_probability,
        pml_lower_quantile,
        pml_psi1,
        pml_psi2,
        pml_upper_quantile,
        privacy_profile,
        randomized_response_envelope,
    )
    from mechdesign.comparison import compare, deployed_protocols, zipf_prior
    from mechdesign.deployment.aggregation import Aggregator
    from mechdesign.deployment.conformance import ImplementationCheck, check_implementation
    from mechdesign.deployment.opendp import to_opendp
    from mechdesign.deployment.rational import RationalMechanism, rational_mechanism
    from mechdesign.errors import (
        ExecutorError,
        InfeasibleError,
        InvalidInputError,
        MechDesignError,
        SolverError,
        TooLargeError,
        UnsupportedError,
    )
    from mechdesign.kernel import (
        Mechanism,
        NotIdentifiableWarning,
        estimate_input_distribution,
        output_classes,
        project_to_simplex,
    )
    from mechdesign.measures.channels import (
        Capacity,
        channel_capacity,
        is_degraded,
        is_less_noisy,
        maximal_alpha_leakage,
        sibson_mutual_information,
    )
    from mechdesign.measures.divergences import (
        CHI_SQUARED,
        KL,
        SQUARED_HELLINGER,
        TOTAL_VARIATION,
        FGenerator,
        chi_squared_divergence,
        f_alpha_divergence,
        f_alpha_from_renyi,
        f_alpha_generator,
        f_alpha_tv_lower_boundary,
        f_divergence,
        hockey_stick_divergence,
        hockey_stick_generator,
        kl_divergence,
        pinsker_f_alpha,
        pinsker_f_alpha_inverse,
        renyi_divergence,
        renyi_from_f_alpha,
        reverse_pinsker,
        reverse_pinsker_f_alpha,
        squared_hellinger,
        total_variation,
    )
    from mechdesign.measures.leakage import (
        bayes_vulnerability,
        dobrushin_coefficient,
        event_leakage,
        g_vulnerability,
        information_density,
        ldp_level,
        maximal_leakage,
        mutual_information,
        pml_capacity,
        pml_level,
        pointwise_leakage,
        renyi_ldp_level,
    )
    from mechdesign.mechanisms.closed_forms import (
        IndependentReporting,
        binary_mechanism,
        design_independent_reporting,
        extremal_binary_mechanism,
        extremal_binary_valid_q,
        independent_reporting,
        ir_distance_bound,
        pml_binary_mechanism,
        pml_extremal_mechanism,
        randomized_response,
        secret_randomized_response,
    )
    from mechdesign.mechanisms.oracles import PureOracle, implicit_protocols
    from mechdesign.mechanisms.protocols import (
        FrequencyOracle,
        estimation_mse,
        generalized_randomized_response,
        hadamard_response,
        hash_family,
        local_hashing,
        subset_selection,
        unary_encoding,
    )
    from mechdesign.notions.cones import RatioCone, VertexSet
    from mechdesign.notions.datasets import CategoricalPair, categorical_pair, empirical_pair
    from mechdesign.notions.pml import LDP, PML, dobrushin_bound
    from mechdesign.notions.robust import NonRobustLDP, RobustLDP, SecretLDP
    from mechdesign.notions.robust_levels import (
        RobustLevel,
        linear_extreme,
        projection_level,
        realised_epsilon,
        robust_ldp_level,
        secret_ldp_level,
    )
    from mechdesign.notions.uncertainty import (
        RenyiBall,
        chi2_radius,
        conditional_ball,
        conditional_lower_bounds,
        conditional_radii,
        xi_bounds,
    )
    from mechdesign.optimal import (
        Certificate,
        ColumnGenerationReport,
        Design,
        EstimationError,
        FDivergenceUtility,
        GainUtility,
        MutualInformationUtility,
        design,
    )
    from mechdesign.reports import ROBUST_LDP_MECHANISMS, robust_ldp_mechanism
    from mechdesign.reproduce.paper_examples import PAPER_EXAMPLES, PaperExample
    from mechdesign.sweeps import (
        SerialFallbackWarning,
        design_task,
        envelope_task,
        measure_task,
        plot_sweep,
        sweep,
    )

__all__ = [
    "CHI_SQUARED",
    "KL",
    "LDP",
    "PAPER_EXAMPLES",
    "PML",
    "ROBUST_LDP_MECHANISMS",
    "SQUARED_HELLINGER",
    "TOTAL_VARIATION",
    "Aggregator",
    "AttackRisk",
    "Capacity",
    "CategoricalPair",
    "Certificate",
    "ChiSquaredContraction",
    "ColumnGenerationReport",
    "ComposedDelta",
    "ComposedEpsilon",
    "Design",
    "DobrushinMaximum",
    "DominatingPair",
    "EstimationError",
    "ExecutorError",
    "FDivergenceUtility",
    "FGenerator",
    "FrequencyOracle",
    "GainUtility",
    "ImplementationCheck",
    "IndependentReporting",
    "InfeasibleError",
    "InvalidInputError",
    "LeakageDistribution",
    "MechDesignError",
    "Mechanism",
    "MutualInformationUtility",
    "NonRobustLDP",
    "NotIdentifiableWarning",
    "PMLEnvelope",
    "PaperExample",
    "PureOracle",
    "RandomizedResponseEnvelope",
    "RatioCone",
    "RationalMechanism",
    "RenyiAmplification",
    "RenyiBall",
    "RobustLDP",
    "RobustLevel",
    "SampleAudit",
    "SecretLDP",
    "SerialFallbackWarning",
    "ShuffleDelta",
    "ShuffleEpsilon",
    "ShuffleParameters",
    "SolverError",
    "TooLargeError",
    "UnsupportedError",
    "VertexSet",
    "__version__",
    "adaptive_composition",
    "asoodeh_zhang_kl_bound",
    "asoodeh_zhang_kl_contraction",
    "attack_risk",
    "audit_pairs",
    "audit_samples",
    "bayes_vulnerability",
    "binary_envelope",
    "binary_mechanism",
    "block_uniform_channel",
    "categorical_pair",
    "channel_capacity",
    "check_implementation",
    "chi2_radius",
    "chi_squared_contraction",
    "chi_squared_divergence",
    "circulant_singular_channel",
    "closed_failure_probability",
    "compare",
    "composed_delta",
    "composed_epsilon",
    "composition_envelope_bound",
    "conditional_ball",
    "conditional_lower_bounds",
    "conditional_maximal_leakage",
    "conditional_radii",
    "confusion_graph",
    "cross_channel_gamma",
    "decomposable_threshold",
    "decomposable_witness_kernel",
    "deployed_protocols",
    "design",
    "design_independent_reporting",
    "design_task",
    "disjoint_support_pair",
    "dobrushin_bound",
    "dobrushin_coefficient",
    "dominating_pair",
    "dp_epsilon",
    "dp_failure_probability",
    "duchi_kl_bound",
    "empirical_pair",
    "envelope_lower_bound",
    "envelope_task",
    "envelope_upper_bound",
    "estimate_input_distribution",
    "estimation_mse",
    "event_leakage",
    "extremal_binary_mechanism",
    "extremal_binary_valid_q",
    "f_alpha_divergence",
    "f_alpha_from_renyi",
    "f_alpha_generator",
    "f_alpha_tv_lower_boundary",
    "f_divergence",
    "four_level_prior",
    "g_vulnerability",
    "gamma_bound",
    "generalized_randomized_response",
    "hadamard_response",
    "hash_family",
    "hockey_stick_divergence",
    "hockey_stick_generator",
    "implicit_protocols",
    "independent_reporting",
    "information_density",
    "ir_distance_bound",
    "is_degraded",
    "is_less_noisy",
    "kairouz_dobrushin_bound",
    "kl_divergence",
    "ldp_level",
    "leakage_distribution",
    "linear_extreme",
    "local_epsilon_for",
    "local_hashing",
    "max_cross_channel_gamma",
    "max_dobrushin",
    "max_zeros_per_column",
    "maximal_alpha_leakage",
    "maximal_correlation",
    "maximal_leakage",
    "measure_task",
    "mutual_information",
    "output_classes",
    "pinsker_f_alpha",
    "pinsker_f_alpha_inverse",
    "plot_sweep",
    "pml_binary_mechanism",
    "pml_capacity",
    "pml_composition_bound",
    "pml_envelope",
    "pml_extremal_mechanism",
    "pml_failure_probability",
    "pml_hellinger_sdpi_bound",
    "pml_kl_sdpi_bound",
    "pml_level",
    "pml_lower_quantile",
    "pml_psi1",
    "pml_psi2",
    "pml_sdpi_bound",
    "pml_upper_quantile",
    "pointwise_leakage",
    "privacy_loss_distribution",
    "privacy_profile",
    "private_minimax_lower_bound",
    "project_to_simplex",
    "projection_level",
    "randomized_response",
    "randomized_response_envelope",
    "rational_mechanism",
    "realised_epsilon",
    "renyi_divergence",
    "renyi_from_f_alpha",
    "renyi_ldp_level",
    "reverse_pinsker",
    "reverse_pinsker_f_alpha",
    "reverse_pinsker_kl",
    "rldp_amplification_bound",
    "robust_ldp_level",
    "robust_ldp_mechanism",
    "secret_ldp_level",
    "secret_randomized_response",
    "shuffle_delta",
    "shuffle_epsilon",
    "shuffle_parameters",
    "sibson_mutual_information",
    "squared_hellinger",
    "subset_selection",
    "sweep",
    "to_opendp",
    "total_variation",
    "tradeoff_curve",
    "unary_encoding",
    "xi_bounds",
    "zipf_prior",
]

#: Where each public name lives: submodule -> the names it contributes to ``__all__``.
#: A name is imported from its submodule on first access and then cached in the package.
_EXPORTS: dict[str, tuple[str, ...]] = {
    "accounting.composition": (
        "AttackRisk", "ComposedDelta", "ComposedEpsilon", "DominatingPair", "attack_risk",
        "composed_delta", "composed_epsilon", "dominating_pair", "pml_composition_bound",
        "privacy_loss_distribution", "tradeoff_curve",
    ),
    "accounting.sample_audit": (
        "SampleAudit", "audit_pairs", "audit_samples",
    ),
    "accounting.shuffle": (
        "ShuffleDelta", "ShuffleEpsilon", "ShuffleParameters", "local_epsilon_for",
        "shuffle_delta", "shuffle_epsilon", "shuffle_parameters",
    ),
    "bounds.amplification": (
        "RenyiAmplification", "block_uniform_channel", "circulant_singular_channel",
        "confusion_graph", "disjoint_support_pair", "rldp_amplification_bound",
    ),
    "bounds.contraction": (
        "ChiSquaredContraction", "DobrushinMaximum", "asoodeh_zhang_kl_bound",
        "asoodeh_zhang_kl_contraction", "chi_squared_contraction", "cross_channel_gamma",
        "decomposable_threshold", "decomposable_witness_kernel", "duchi_kl_bound",
        "gamma_bound", "kairouz_dobrushin_bound", "max_cross_channel_gamma", "max_dobrushin",
        "max_zeros_per_column", "maximal_correlation", "pml_hellinger_sdpi_bound",
        "pml_kl_sdpi_bound", "pml_sdpi_bound", "private_minimax_lower_bound",
        "reverse_pinsker_kl",
    ),
    "bounds.envelope": (
        "LeakageDistribution", "PMLEnvelope", "RandomizedResponseEnvelope",
        "adaptive_composition", "binary_envelope", "closed_failure_probability",
        "composition_envelope_bound", "conditional_maximal_leakage", "dp_epsilon",
        "dp_failure_probability", "envelope_lower_bound", "envelope_upper_bound",
        "four_level_prior", "leakage_distribution", "pml_envelope", "pml_failure_probability",
        "pml_lower_quantile", "pml_psi1", "pml_psi2", "pml_upper_quantile", "privacy_profile",
        "randomized_response_envelope",
    ),
    "deployment.aggregation": (
        "Aggregator",
    ),
    "deployment.conformance": (
        "ImplementationCheck", "check_implementation",
    ),
    "deployment.opendp": (
        "to_opendp",
    ),
    "deployment.rational": (
        "RationalMechanism", "rational_mechanism",
    ),
    "errors": (
        "ExecutorError", "InfeasibleError", "InvalidInputError", "MechDesignError",
        "SolverError", "TooLargeError", "UnsupportedError",
    ),
    "kernel": (
        "Mechanism", "NotIdentifiableWarning", "estimate_input_distribution", "output_classes",
        "project_to_simplex",
    ),
    "measures.channels": (
        "Capacity", "channel_capacity", "is_degraded", "is_less_noisy", "maximal_alpha_leakage",
        "sibson_mutual_information",
    ),
    "measures.divergences": (
        "CHI_SQUARED", "KL", "SQUARED_HELLINGER", "TOTAL_VARIATION", "FGenerator",
        "chi_squared_divergence", "f_alpha_divergence", "f_alpha_from_renyi",
        "f_alpha_generator", "f_alpha_tv_lower_boundary", "f_divergence",
        "hockey_stick_divergence", "hockey_stick_generator", "kl_divergence", "pinsker_f_alpha",
        "pinsker_f_alpha_inverse", "renyi_divergence", "renyi_from_f_alpha", "reverse_pinsker",
        "reverse_pinsker_f_alpha", "squared_hellinger", "total_variation",
    ),
    "measures.leakage": (
        "bayes_vulnerability", "dobrushin_coefficient", "event_leakage", "g_vulnerability",
        "information_density", "ldp_level", "maximal_leakage", "mutual_information",
        "pml_capacity", "pml_level", "pointwise_leakage", "renyi_ldp_level",
    ),
    "mechanisms.closed_forms": (
        "IndependentReporting", "binary_mechanism", "design_independent_reporting",
        "extremal_binary_mechanism", "extremal_binary_valid_q", "independent_reporting",
        "ir_distance_bound", "pml_binary_mechanism", "pml_extremal_mechanism",
        "randomized_response", "secret_randomized_response",
    ),
    "comparison": (
        "compare", "deployed_protocols", "zipf_prior",
    ),
    "mechanisms.oracles": (
        "PureOracle", "implicit_protocols",
    ),
    "mechanisms.protocols": (
        "FrequencyOracle", "estimation_mse", "generalized_randomized_response",
        "hadamard_response", "hash_family", "local_hashing", "subset_selection",
        "unary_encoding",
    ),
    "notions.cones": (
        "RatioCone", "VertexSet",
    ),
    "notions.datasets": (
        "CategoricalPair", "categorical_pair", "empirical_pair",
    ),
    "notions.pml": (
        "LDP", "PML", "dobrushin_bound",
    ),
    "notions.robust": (
        "NonRobustLDP", "RobustLDP", "SecretLDP",
    ),
    "notions.robust_levels": (
        "RobustLevel", "linear_extreme", "projection_level", "realised_epsilon",
        "robust_ldp_level", "secret_ldp_level",
    ),
    "notions.uncertainty": (
        "RenyiBall", "chi2_radius", "conditional_ball", "conditional_lower_bounds",
        "conditional_radii", "xi_bounds",
    ),
    "optimal": (
        "Certificate", "ColumnGenerationReport", "Design", "EstimationError",
        "FDivergenceUtility", "GainUtility", "MutualInformationUtility", "design",
    ),
    "reports": (
        "ROBUST_LDP_MECHANISMS", "robust_ldp_mechanism",
    ),
    "reproduce.paper_examples": (
        "PAPER_EXAMPLES", "PaperExample",
    ),
    "sweeps": (
        "SerialFallbackWarning", "design_task", "envelope_task", "measure_task", "plot_sweep",
        "sweep",
    ),
}

_SOURCE: dict[str, str] = {name: module for module, names in _EXPORTS.items() for name in names}


def __getattr__(name: str) -> Any:
    """Import a public name (or a submodule such as ``mechdesign.sweeps``) on first use."""
    if name == "__version__":
        value: Any = importlib.import_module(f"{__name__}._version").installed_version()
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
