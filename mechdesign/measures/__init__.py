"""Measures of a given kernel: divergences, leakage, channel orders and capacities,
estimation error.

Every function takes a kernel (a :class:`~mechdesign.kernel.Mechanism` or a 2-D
array-like, rows are inputs) and returns nats. Nothing here knows a privacy notion:
the notions (:mod:`mechdesign.notions`) audit kernels with these measures.
"""

from typing import TYPE_CHECKING

from mechdesign._lazy import attach

if TYPE_CHECKING:
    from mechdesign.measures.channel_orders import (
        is_degraded as is_degraded,
        is_less_noisy as is_less_noisy,
    )
    from mechdesign.measures.channels import (
        Capacity as Capacity,
        channel_capacity as channel_capacity,
        maximal_alpha_leakage as maximal_alpha_leakage,
        sibson_mutual_information as sibson_mutual_information,
    )
    from mechdesign.measures.contraction import (
        ChiSquaredContraction as ChiSquaredContraction,
        chi_squared_contraction as chi_squared_contraction,
        maximal_correlation as maximal_correlation,
    )
    from mechdesign.measures.divergences import (
        CHI_SQUARED as CHI_SQUARED,
        KL as KL,
        SQUARED_HELLINGER as SQUARED_HELLINGER,
        TOTAL_VARIATION as TOTAL_VARIATION,
        FGenerator as FGenerator,
        chi_squared_divergence as chi_squared_divergence,
        f_alpha_divergence as f_alpha_divergence,
        f_alpha_from_renyi as f_alpha_from_renyi,
        f_alpha_generator as f_alpha_generator,
        f_divergence as f_divergence,
        hockey_stick_divergence as hockey_stick_divergence,
        hockey_stick_generator as hockey_stick_generator,
        kl_divergence as kl_divergence,
        renyi_divergence as renyi_divergence,
        renyi_from_f_alpha as renyi_from_f_alpha,
        squared_hellinger as squared_hellinger,
        total_variation as total_variation,
    )
    from mechdesign.measures.estimation import (
        WORKLOADS as WORKLOADS,
        blue_error as blue_error,
        blue_estimator as blue_estimator,
        error_by_input as error_by_input,
        information_matrix as information_matrix,
        workload_matrix as workload_matrix,
    )
    from mechdesign.measures.leakage import (
        bayes_vulnerability as bayes_vulnerability,
        clone_mass as clone_mass,
        dobrushin_coefficient as dobrushin_coefficient,
        event_leakage as event_leakage,
        g_vulnerability as g_vulnerability,
        information_density as information_density,
        ldp_level as ldp_level,
        maximal_leakage as maximal_leakage,
        mutual_information as mutual_information,
        pml_capacity as pml_capacity,
        pml_level as pml_level,
        pointwise_leakage as pointwise_leakage,
        renyi_ldp_level as renyi_ldp_level,
    )
    from mechdesign.measures.pinsker import (
        f_alpha_tv_lower_boundary as f_alpha_tv_lower_boundary,
        pinsker_f_alpha as pinsker_f_alpha,
        pinsker_f_alpha_inverse as pinsker_f_alpha_inverse,
        reverse_pinsker as reverse_pinsker,
        reverse_pinsker_f_alpha as reverse_pinsker_f_alpha,
    )
    from mechdesign.measures.profile import (
        dp_epsilon as dp_epsilon,
        dp_failure_probability as dp_failure_probability,
        privacy_profile as privacy_profile,
    )

__getattr__, __dir__, __all__ = attach(__name__, __file__)
