"""Measures of a given kernel: divergences, leakage, channel orders and capacities,
estimation error.

Every function takes a kernel (a :class:`~mechdesign.kernel.Mechanism` or a 2-D
array-like, rows are inputs) and returns nats. Nothing here knows a privacy notion:
the notions (:mod:`mechdesign.notions`) audit kernels with these measures.
"""

from mechdesign._lazy import attach

#: Module → the public names it contributes to this namespace.
EXPORTS: dict[str, tuple[str, ...]] = {
    "channels": (
        "ALPHA_LEAKAGE_MAX_ITERATIONS", "ALPHA_LEAKAGE_TOL", "CAPACITY_MAX_ITERATIONS",
        "CAPACITY_TOL", "CONIC_MAX_ALPHA", "CONIC_MIN_BETA", "DEGRADATION_ATOL", "INTERIOR",
        "LESS_NOISY_MAX_INTERVALS", "LESS_NOISY_RTOL", "LESS_NOISY_SEARCH", "LINE_SEARCH_STEPS",
        "NEAR_ONE", "NEWTON_DAMPING", "NEWTON_SUPPORT", "PRIOR_FLOOR", "PRIOR_MIN", "ROUNDING",
        "Capacity", "channel_capacity", "is_degraded", "is_less_noisy", "maximal_alpha_leakage",
        "sibson_mutual_information",
    ),
    "contraction": (
        "BOUNDARY_PRIOR_WEIGHTS", "MAX_CORRELATION_STARTS", "ChiSquaredContraction",
        "chi_squared_contraction", "maximal_correlation",
    ),
    "divergences": (
        "CHI_SQUARED", "KL", "SQUARED_HELLINGER", "TOTAL_VARIATION", "FGenerator",
        "chi_squared_divergence", "f_alpha_divergence", "f_alpha_from_renyi",
        "f_alpha_generator", "f_alpha_tv_lower_boundary", "f_divergence",
        "hockey_stick_divergence", "hockey_stick_generator", "kl_divergence", "pinsker_f_alpha",
        "pinsker_f_alpha_inverse", "renyi_divergence", "renyi_from_f_alpha", "reverse_pinsker",
        "reverse_pinsker_f_alpha", "squared_hellinger", "total_variation",
    ),
    "estimation": (
        "MAX_WORKLOAD_ENTRIES", "WORKLOADS", "blue_error", "blue_estimator", "error_by_input",
        "information_matrix", "workload_matrix",
    ),
    "leakage": (
        "bayes_vulnerability", "clone_mass", "dobrushin_coefficient", "event_leakage",
        "g_vulnerability", "information_density", "ldp_level", "maximal_leakage",
        "mutual_information", "pml_capacity", "pml_level", "pointwise_leakage",
        "renyi_ldp_level",
    ),
    "profile": (
        "dp_epsilon", "dp_failure_probability", "privacy_profile",
    ),
}

__getattr__, __dir__, __all__ = attach(__name__, EXPORTS)
