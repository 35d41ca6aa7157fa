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
"""

from mechdesign.cones import RatioCone, VertexSet
from mechdesign.contraction import dobrushin_bound, dobrushin_coefficient
from mechdesign.design import (
    Certificate,
    Design,
    FDivergenceUtility,
    MutualInformationUtility,
    design,
)
from mechdesign.divergences import (
    CHI_SQUARED,
    KL,
    SQUARED_HELLINGER,
    TOTAL_VARIATION,
    FGenerator,
    chi_squared_divergence,
    f_alpha_divergence,
    f_alpha_from_renyi,
    f_alpha_generator,
    f_divergence,
    hockey_stick_divergence,
    hockey_stick_generator,
    kl_divergence,
    renyi_divergence,
    renyi_from_f_alpha,
    squared_hellinger,
    total_variation,
)
from mechdesign.errors import (
    InfeasibleError,
    InvalidInputError,
    MechDesignError,
    SolverError,
    TooLargeError,
)
from mechdesign.kernel import (
    Mechanism,
    estimate_input_distribution,
    output_classes,
    project_to_simplex,
)
from mechdesign.leakage import (
    event_leakage,
    information_density,
    ldp_level,
    maximal_leakage,
    mutual_information,
    pml_capacity,
    pml_level,
    pointwise_leakage,
    renyi_ldp_level,
)
from mechdesign.mechanisms import (
    binary_mechanism,
    extremal_binary_mechanism,
    extremal_binary_valid_q,
    pml_binary_mechanism,
    pml_extremal_mechanism,
    randomized_response,
)
from mechdesign.notions import LDP, PML
from mechdesign.paper_examples import PAPER_EXAMPLES, PaperExample

__version__ = "0.1.0"

__all__ = [
    "CHI_SQUARED",
    "KL",
    "LDP",
    "PAPER_EXAMPLES",
    "PML",
    "SQUARED_HELLINGER",
    "TOTAL_VARIATION",
    "Certificate",
    "Design",
    "FDivergenceUtility",
    "FGenerator",
    "InfeasibleError",
    "InvalidInputError",
    "MechDesignError",
    "Mechanism",
    "MutualInformationUtility",
    "PaperExample",
    "RatioCone",
    "SolverError",
    "TooLargeError",
    "VertexSet",
    "__version__",
    "binary_mechanism",
    "chi_squared_divergence",
    "design",
    "dobrushin_bound",
    "dobrushin_coefficient",
    "estimate_input_distribution",
    "event_leakage",
    "extremal_binary_mechanism",
    "extremal_binary_valid_q",
    "f_alpha_divergence",
    "f_alpha_from_renyi",
    "f_alpha_generator",
    "f_divergence",
    "hockey_stick_divergence",
    "hockey_stick_generator",
    "information_density",
    "kl_divergence",
    "ldp_level",
    "maximal_leakage",
    "mutual_information",
    "output_classes",
    "pml_binary_mechanism",
    "pml_capacity",
    "pml_extremal_mechanism",
    "pml_level",
    "pointwise_leakage",
    "project_to_simplex",
    "randomized_response",
    "renyi_divergence",
    "renyi_from_f_alpha",
    "renyi_ldp_level",
    "squared_hellinger",
    "total_variation",
]
