"""Privacy notions as ratio cones, and the uncertainty sets they are defined over.

:mod:`~mechdesign.notions.base` is the interface the design engine asks of a notion;
:mod:`~mechdesign.notions.pml` holds ε-LDP and the PML notions (one cone builder,
:func:`~mechdesign.notions.pml.pml_cone`); the robust-LDP paper's notions are in
:mod:`~mechdesign.notions.robust` with their exact audits in
:mod:`~mechdesign.notions.robust_levels`, over the Rényi balls of
:mod:`~mechdesign.notions.uncertainty` built from data by
:mod:`~mechdesign.notions.datasets`. Notions import measures, never the design engine.
"""

from mechdesign._lazy import attach

#: Module → the public names it contributes to this namespace.
EXPORTS: dict[str, tuple[str, ...]] = {
    "base": (
        "RATIO_CONE_MAX_ENTRIES", "Notion", "check_notion", "check_notion_epsilon",
    ),
    "clones": (
        "CloneLDP", "CloneLevels", "clone_levels", "clone_vertices",
    ),
    "cones": (
        "BACKENDS", "RatioCone", "VertexSet",
    ),
    "datasets": (
        "CategoricalPair", "categorical_pair", "empirical_pair",
    ),
    "pml": (
        "LDP", "PML", "c_pml_vertices", "dobrushin_bound", "known_prior_vertices",
        "ldp_cone_vertices", "pml_cone",
    ),
    "robust": (
        "NonRobustLDP", "RobustLDP", "SecretLDP", "secret_pairs_cone", "simplex_vertices",
    ),
    "robust_levels": (
        "RobustLevel", "linear_extreme", "projection_level", "realised_epsilon",
        "robust_ldp_level", "secret_ldp_level",
    ),
    "uncertainty": (
        "RenyiBall", "SecretAlphabet", "center_conditionals", "chi2_radius", "conditional_ball",
        "conditional_lower_bounds", "conditional_radii", "conditional_radius", "xi_bounds",
    ),
}

__getattr__, __dir__, __all__ = attach(__name__, EXPORTS)
