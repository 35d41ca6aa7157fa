"""Bounds over a notion's kernels: contraction (Ξ, SDPI, Γ), amplification by
post-processing, PML envelopes.
"""

from typing import TYPE_CHECKING

from mechdesign._lazy import attach

if TYPE_CHECKING:
    from mechdesign.bounds.amplification import (
        RenyiAmplification as RenyiAmplification,
        block_uniform_channel as block_uniform_channel,
        circulant_singular_channel as circulant_singular_channel,
        confusion_graph as confusion_graph,
        disjoint_support_pair as disjoint_support_pair,
        rldp_amplification_bound as rldp_amplification_bound,
    )
    from mechdesign.bounds.contraction import (
        DobrushinMaximum as DobrushinMaximum,
        asoodeh_zhang_kl_bound as asoodeh_zhang_kl_bound,
        asoodeh_zhang_kl_contraction as asoodeh_zhang_kl_contraction,
        cross_channel_gamma as cross_channel_gamma,
        decomposable_threshold as decomposable_threshold,
        decomposable_witness_kernel as decomposable_witness_kernel,
        duchi_kl_bound as duchi_kl_bound,
        gamma_bound as gamma_bound,
        kairouz_dobrushin_bound as kairouz_dobrushin_bound,
        max_cross_channel_gamma as max_cross_channel_gamma,
        max_dobrushin as max_dobrushin,
        max_zeros_per_column as max_zeros_per_column,
        pml_hellinger_sdpi_bound as pml_hellinger_sdpi_bound,
        pml_kl_sdpi_bound as pml_kl_sdpi_bound,
        pml_sdpi_bound as pml_sdpi_bound,
        private_minimax_lower_bound as private_minimax_lower_bound,
        reverse_pinsker_kl as reverse_pinsker_kl,
    )
    from mechdesign.bounds.envelope import (
        LeakageDistribution as LeakageDistribution,
        PMLEnvelope as PMLEnvelope,
        binary_envelope as binary_envelope,
        closed_failure_probability as closed_failure_probability,
        envelope_lower_bound as envelope_lower_bound,
        envelope_upper_bound as envelope_upper_bound,
        leakage_distribution as leakage_distribution,
        pml_envelope as pml_envelope,
        pml_failure_probability as pml_failure_probability,
        pml_lower_quantile as pml_lower_quantile,
        pml_psi1 as pml_psi1,
        pml_psi2 as pml_psi2,
        pml_upper_quantile as pml_upper_quantile,
    )
    from mechdesign.bounds.leakage_composition import (
        adaptive_composition as adaptive_composition,
        composition_envelope_bound as composition_envelope_bound,
        conditional_maximal_leakage as conditional_maximal_leakage,
    )
    from mechdesign.bounds.rr_envelope import (
        RandomizedResponseEnvelope as RandomizedResponseEnvelope,
        randomized_response_envelope as randomized_response_envelope,
    )

#: Names that moved, to where they live now: for one release they still answer here,
#: with a DeprecationWarning.
_MOVED_TO = {"four_level_prior": "mechdesign.priors"}

__getattr__, __dir__, __all__ = attach(__name__, __file__, moved=_MOVED_TO)
