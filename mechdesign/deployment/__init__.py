"""From a design to a deployment: exact rational kernels, streaming aggregation
with confidence intervals, OpenDP export and a conformance check of an implementation.
"""

from typing import TYPE_CHECKING

from mechdesign._lazy import attach

if TYPE_CHECKING:
    from mechdesign.deployment.aggregation import (
        ESTIMATORS as ESTIMATORS,
        Aggregator as Aggregator,
    )
    from mechdesign.deployment.conformance import (
        ImplementationCheck as ImplementationCheck,
        check_implementation as check_implementation,
        conforms as conforms,
        detection_power as detection_power,
        point_mass_deviation as point_mass_deviation,
        samples_needed as samples_needed,
    )
    from mechdesign.deployment.documents import (
        KernelDocument as KernelDocument,
        load_kernel as load_kernel,
    )
    from mechdesign.deployment.opendp import (
        to_opendp as to_opendp,
    )
    from mechdesign.deployment.rational import (
        RATIONAL_FORMAT as RATIONAL_FORMAT,
        RationalMechanism as RationalMechanism,
        rational_mechanism as rational_mechanism,
        validated_kernel as validated_kernel,
    )

__getattr__, __dir__, __all__ = attach(__name__, __file__)
