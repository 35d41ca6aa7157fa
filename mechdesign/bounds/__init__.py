"""Bounds over a notion's kernels: contraction (Ξ, SDPI, Γ), amplification by
post-processing, PML envelopes.
"""

from mechdesign._lazy import attach

#: Module → the public names it contributes to this namespace.
EXPORTS: dict[str, tuple[str, ...]] = {
    "amplification": (
        "RenyiAmplification", "block_uniform_channel", "circulant_singular_channel",
        "confusion_graph", "disjoint_support_pair", "rldp_amplification_bound",
    ),
    "contraction": (
        "DobrushinMaximum", "asoodeh_zhang_kl_bound", "asoodeh_zhang_kl_contraction",
        "cross_channel_gamma", "decomposable_threshold", "decomposable_witness_kernel",
        "duchi_kl_bound", "gamma_bound", "kairouz_dobrushin_bound", "max_cross_channel_gamma",
        "max_dobrushin", "max_zeros_per_column", "pml_hellinger_sdpi_bound",
        "pml_kl_sdpi_bound", "pml_sdpi_bound", "private_minimax_lower_bound",
        "reverse_pinsker_kl",
    ),
    "envelope": (
        "LeakageDistribution", "PMLEnvelope", "RandomizedResponseEnvelope",
        "adaptive_composition", "binary_envelope", "closed_failure_probability",
        "composition_envelope_bound", "conditional_maximal_leakage", "envelope_lower_bound",
        "envelope_upper_bound", "four_level_prior", "leakage_distribution", "pml_envelope",
        "pml_failure_probability", "pml_lower_quantile", "pml_psi1", "pml_psi2",
        "pml_upper_quantile", "randomized_response_envelope",
    ),
}

__getattr__, __dir__, __all__ = attach(__name__, EXPORTS)
