"""Mechanisms in closed form and the deployed LDP protocols.

:mod:`~mechdesign.mechanisms.closed_forms`: randomized response, the extremal and
PML-extremal mechanisms, secret randomized response, independent reporting;
:mod:`~mechdesign.mechanisms.protocols`: unary encoding, subset selection, local hashing,
Hadamard response, as kernels; :mod:`~mechdesign.mechanisms.oracles`: the same protocols
at sizes where no kernel fits in memory; :mod:`~mechdesign.mechanisms.robust`: the
robust-LDP paper's mechanisms by name (GRR, SRR, IR, PolyOpt, NR), the one registry its
comparisons choose from.
"""

from mechdesign._lazy import attach

#: Module → the public names it contributes to this namespace.
EXPORTS: dict[str, tuple[str, ...]] = {
    "closed_forms": (
        "IndependentReporting", "binary_mechanism", "design_independent_reporting",
        "extremal_binary_mechanism", "extremal_binary_valid_q", "independent_reporting",
        "ir_distance_bound", "pml_binary_mechanism", "pml_extremal_mechanism",
        "randomized_response", "secret_randomized_response",
    ),
    "oracles": (
        "PureOracle", "hadamard_blocks", "implicit_protocols",
    ),
    "protocols": (
        "PROTOCOL_MAX_OUTPUTS", "FrequencyOracle", "estimation_mse",
        "generalized_randomized_response", "hadamard_response", "hash_family", "local_hashing",
        "subset_selection", "unary_encoding",
    ),
    "robust": (
        "ROBUST_LDP_MECHANISMS", "RobustMechanism", "robust_ldp_mechanism",
    ),
}

__getattr__, __dir__, __all__ = attach(__name__, EXPORTS)
