"""Guarantees of many reports: dominating pairs and tight composition
(dp_accounting), the shuffle model, and audits from samples.
"""

from typing import TYPE_CHECKING

from mechdesign._lazy import attach

if TYPE_CHECKING:
    from mechdesign.accounting.composition import (
        AttackRisk as AttackRisk,
        ComposedDelta as ComposedDelta,
        ComposedEpsilon as ComposedEpsilon,
        attack_risk as attack_risk,
        composed_delta as composed_delta,
        composed_epsilon as composed_epsilon,
        pml_composition_bound as pml_composition_bound,
        privacy_loss_distribution as privacy_loss_distribution,
    )
    from mechdesign.accounting.sample_audit import (
        SampleAudit as SampleAudit,
        audit_pairs as audit_pairs,
        audit_samples as audit_samples,
    )
    from mechdesign.accounting.shuffle import (
        Reduction as Reduction,
        ShuffleDelta as ShuffleDelta,
        ShuffleEpsilon as ShuffleEpsilon,
        ShuffleParameters as ShuffleParameters,
        clones_reduction as clones_reduction,
        local_epsilon_for as local_epsilon_for,
        reduction_delta as reduction_delta,
        shuffle_delta as shuffle_delta,
        shuffle_epsilon as shuffle_epsilon,
        shuffle_parameters as shuffle_parameters,
    )
    from mechdesign.accounting.shuffle_design import (
        FrontierPoint as FrontierPoint,
        Shuffled as Shuffled,
        ShuffledReport as ShuffledReport,
    )
    from mechdesign.accounting.tradeoff import (
        DominatingPair as DominatingPair,
        dominating_pair as dominating_pair,
        tradeoff_curve as tradeoff_curve,
    )

__getattr__, __dir__, __all__ = attach(__name__, __file__)
