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

from typing import TYPE_CHECKING

from mechdesign._lazy import attach
from mechdesign._version import installed_version

if TYPE_CHECKING:
    # The public names, each once: read by type checkers and editors, and by
    # mechdesign._lazy.attach, which imports each from its module on first use (PEP
    # 562), so that ``import mechdesign`` and the command line's ``--help`` do not pay
    # for numpy, scipy, pandas, cvxpy, matplotlib and dp_accounting.
    from mechdesign.accounting.composition import (
        composed_delta as composed_delta,
        composed_epsilon as composed_epsilon,
        privacy_loss_distribution as privacy_loss_distribution,
    )
    from mechdesign.accounting.sample_audit import (
        audit_samples as audit_samples,
    )
    from mechdesign.accounting.shuffle import (
        shuffle_delta as shuffle_delta,
        shuffle_epsilon as shuffle_epsilon,
    )
    from mechdesign.accounting.shuffle_design import (
        Shuffled as Shuffled,
    )
    from mechdesign.accounting.tradeoff import (
        dominating_pair as dominating_pair,
    )
    from mechdesign.bounds.contraction import (
        max_dobrushin as max_dobrushin,
    )
    from mechdesign.bounds.envelope import (
        binary_envelope as binary_envelope,
        pml_envelope as pml_envelope,
    )
    from mechdesign.comparison import (
        compare as compare,
    )
    from mechdesign.deployment.aggregation import (
        Aggregator as Aggregator,
    )
    from mechdesign.deployment.opendp import (
        to_opendp as to_opendp,
    )
    from mechdesign.deployment.rational import (
        rational_mechanism as rational_mechanism,
    )
    from mechdesign.errors import (
        ExecutorError as ExecutorError,
        InfeasibleError as InfeasibleError,
        InvalidInputError as InvalidInputError,
        MechDesignError as MechDesignError,
        SolverError as SolverError,
        TooLargeError as TooLargeError,
        UnsupportedError as UnsupportedError,
    )
    from mechdesign.kernel import (
        Mechanism as Mechanism,
    )
    from mechdesign.measures.channel_orders import (
        is_degraded as is_degraded,
    )
    from mechdesign.measures.channels import (
        channel_capacity as channel_capacity,
        maximal_alpha_leakage as maximal_alpha_leakage,
        sibson_mutual_information as sibson_mutual_information,
    )
    from mechdesign.measures.divergences import (
        kl_divergence as kl_divergence,
        renyi_divergence as renyi_divergence,
        total_variation as total_variation,
    )
    from mechdesign.measures.leakage import (
        dobrushin_coefficient as dobrushin_coefficient,
        ldp_level as ldp_level,
        maximal_leakage as maximal_leakage,
        mutual_information as mutual_information,
        pml_capacity as pml_capacity,
        pml_level as pml_level,
        pointwise_leakage as pointwise_leakage,
    )
    from mechdesign.measures.profile import (
        privacy_profile as privacy_profile,
    )
    from mechdesign.mechanisms.closed_forms import (
        randomized_response as randomized_response,
    )
    from mechdesign.mechanisms.oracles import (
        local_hashing as local_hashing,
    )
    from mechdesign.mechanisms.protocols import (
        estimation_mse as estimation_mse,
        hadamard_response as hadamard_response,
        subset_selection as subset_selection,
        unary_encoding as unary_encoding,
    )
    from mechdesign.notions.pml import (
        LDP as LDP,
        PML as PML,
        dobrushin_bound as dobrushin_bound,
    )
    from mechdesign.notions.robust import (
        RobustLDP as RobustLDP,
    )
    from mechdesign.notions.robust_levels import (
        robust_ldp_level as robust_ldp_level,
    )
    from mechdesign.notions.uncertainty import (
        RenyiBall as RenyiBall,
        chi2_radius as chi2_radius,
        conditional_lower_bounds as conditional_lower_bounds,
        conditional_radii as conditional_radii,
    )
    from mechdesign.optimal import (
        Design as Design,
        EstimationError as EstimationError,
        GainUtility as GainUtility,
        design as design,
    )
    from mechdesign.status import (
        Status as Status,
    )
    from mechdesign.sweeps.run import (
        sweep as sweep,
    )

#: Names that left the top level: the namespace each lives in now. For one
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

_NEW_PLACE: dict[str, str] = {name: place for place, names in _MOVED.items() for name in names}

__getattr__, __dir__, __all__ = attach(
    __name__,
    __file__,
    moved={name: f"{__name__}.{place}" for name, place in _NEW_PLACE.items()},
    computed={"__version__": installed_version},
)
