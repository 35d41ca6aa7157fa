"""Guarantees of many reports: dominating pairs and tight composition
(dp_accounting), the shuffle model, and audits from samples.
"""

from mechdesign._lazy import attach

#: Module → the public names it contributes to this namespace.
EXPORTS: dict[str, tuple[str, ...]] = {
    "composition": (
        "ACCOUNTING_MAX_GRID", "COMPOSED_MAX_EPSILON", "DISCRETIZATION", "FINITE_MASS_FLOOR",
        "PML_COMPOSITION_MAX_HISTORY", "AttackRisk", "ComposedDelta", "ComposedEpsilon",
        "DominatingPair", "attack_risk", "composed_delta", "composed_epsilon",
        "dominating_pair", "pml_composition_bound", "privacy_loss_distribution",
        "tradeoff_curve",
    ),
    "sample_audit": (
        "AUDIT_MAX_DRAWS", "SampleAudit", "audit_pairs", "audit_samples",
    ),
    "shuffle_design": (
        "SHUFFLED_MAX_DESIGNS", "FrontierPoint", "Shuffled", "ShuffledReport",
    ),
    "shuffle": (
        "BINARY_DELTA_RTOL", "BINARY_EPSILON_RTOL", "BINARY_EXACT_BLOCKS", "DEDUP_DIGITS",
        "EPSILON_RTOL", "LOCAL_EPSILON_RTOL", "MAX_USERS", "MIN_RATE", "PLD_MAX_CELLS",
        "ROUNDS_MAX_PAIRS", "SPIKE_MAX_CELLS", "SPIKE_RTOL", "TAIL_MASS", "TAIL_RTOL", "Reduction",
        "ShuffleDelta", "ShuffleEpsilon", "ShuffleParameters", "clones_reduction",
        "local_epsilon_for", "reduction_delta", "shuffle_delta", "shuffle_epsilon",
        "shuffle_parameters",
    ),
}

__getattr__, __dir__, __all__ = attach(__name__, EXPORTS)
