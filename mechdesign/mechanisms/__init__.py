"""Mechanisms in closed form and the deployed LDP protocols.

:mod:`~mechdesign.mechanisms.closed_forms`: randomized response, the extremal and
PML-extremal mechanisms, secret randomized response, independent reporting;
:mod:`~mechdesign.mechanisms.protocols`: unary encoding, subset selection, local hashing,
Hadamard response, as kernels; :mod:`~mechdesign.mechanisms.oracles`: the same protocols
at sizes where no kernel fits in memory; :mod:`~mechdesign.mechanisms.robust`: the
robust-LDP paper's mechanisms by name (GRR, SRR, IR, PolyOpt, NR), the one registry its
comparisons choose from.
"""

from typing import TYPE_CHECKING

from mechdesign._lazy import attach

if TYPE_CHECKING:
    from mechdesign.mechanisms.closed_forms import (
        IndependentReporting as IndependentReporting,
        binary_mechanism as binary_mechanism,
        design_independent_reporting as design_independent_reporting,
        extremal_binary_mechanism as extremal_binary_mechanism,
        extremal_binary_valid_q as extremal_binary_valid_q,
        independent_reporting as independent_reporting,
        ir_distance_bound as ir_distance_bound,
        pml_binary_mechanism as pml_binary_mechanism,
        pml_extremal_mechanism as pml_extremal_mechanism,
        randomized_response as randomized_response,
        secret_randomized_response as secret_randomized_response,
    )
    from mechdesign.mechanisms.oracles import (
        PureOracle as PureOracle,
        implicit_protocols as implicit_protocols,
        local_hashing as local_hashing,
    )
    from mechdesign.mechanisms.protocols import (
        FrequencyOracle as FrequencyOracle,
        estimation_mse as estimation_mse,
        generalized_randomized_response as generalized_randomized_response,
        hadamard_blocks as hadamard_blocks,
        hadamard_response as hadamard_response,
        hash_family as hash_family,
        subset_selection as subset_selection,
        unary_encoding as unary_encoding,
    )
    from mechdesign.mechanisms.robust import (
        ROBUST_LDP_MECHANISMS as ROBUST_LDP_MECHANISMS,
        RobustMechanism as RobustMechanism,
        robust_ldp_mechanism as robust_ldp_mechanism,
    )

__getattr__, __dir__, __all__ = attach(__name__, __file__)
