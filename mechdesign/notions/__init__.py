"""Privacy notions as ratio cones, and the uncertainty sets they are defined over.

:mod:`~mechdesign.notions.base` is the interface the design engine asks of a notion;
:mod:`~mechdesign.notions.pml` holds ε-LDP and the PML notions (one cone builder,
:func:`~mechdesign.notions.pml.pml_cone`); the robust-LDP paper's notions are in
:mod:`~mechdesign.notions.robust` with their exact audits in
:mod:`~mechdesign.notions.robust_levels`, over the Rényi balls of
:mod:`~mechdesign.notions.uncertainty` built from data by
:mod:`~mechdesign.notions.datasets`. Notions import measures, never the design engine.
"""

from typing import TYPE_CHECKING

from mechdesign._lazy import attach

if TYPE_CHECKING:
    from mechdesign.notions.base import (
        Notion as Notion,
        check_notion as check_notion,
        check_notion_epsilon as check_notion_epsilon,
    )
    from mechdesign.notions.clones import (
        CloneLDP as CloneLDP,
        CloneLevels as CloneLevels,
        clone_levels as clone_levels,
        clone_vertices as clone_vertices,
    )
    from mechdesign.notions.cones import (
        BACKENDS as BACKENDS,
        RatioCone as RatioCone,
        VertexSet as VertexSet,
    )
    from mechdesign.notions.datasets import (
        CategoricalPair as CategoricalPair,
        adult_csv as adult_csv,
        categorical_pair as categorical_pair,
        empirical_pair as empirical_pair,
    )
    from mechdesign.notions.pml import (
        LDP as LDP,
        PML as PML,
        c_pml_vertices as c_pml_vertices,
        dobrushin_bound as dobrushin_bound,
        known_prior_vertices as known_prior_vertices,
        ldp_cone_vertices as ldp_cone_vertices,
        pml_cone as pml_cone,
    )
    from mechdesign.notions.robust import (
        NonRobustLDP as NonRobustLDP,
        RobustLDP as RobustLDP,
        SecretLDP as SecretLDP,
        secret_pairs_cone as secret_pairs_cone,
        simplex_vertices as simplex_vertices,
    )
    from mechdesign.notions.robust_levels import (
        RobustLevel as RobustLevel,
        linear_extreme as linear_extreme,
        projection_level as projection_level,
        realised_epsilon as realised_epsilon,
        robust_ldp_level as robust_ldp_level,
        secret_ldp_level as secret_ldp_level,
    )
    from mechdesign.notions.uncertainty import (
        RenyiBall as RenyiBall,
        SecretAlphabet as SecretAlphabet,
        center_conditionals as center_conditionals,
        chi2_radius as chi2_radius,
        conditional_ball as conditional_ball,
        conditional_lower_bounds as conditional_lower_bounds,
        conditional_radii as conditional_radii,
        conditional_radius as conditional_radius,
        xi_bounds as xi_bounds,
    )

__getattr__, __dir__, __all__ = attach(__name__, __file__)
