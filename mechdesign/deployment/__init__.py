"""From a design to a deployment: exact rational kernels, streaming aggregation
with confidence intervals, OpenDP export and a conformance check of an implementation.
"""

from mechdesign._lazy import attach

#: Module → the public names it contributes to this namespace.
EXPORTS: dict[str, tuple[str, ...]] = {
    "aggregation": (
        "ESTIMATORS", "Aggregator",
    ),
    "conformance": (
        "DETECTION_POWER", "ImplementationCheck", "check_implementation", "conforms",
        "detection_power", "point_mass_deviation", "samples_needed",
    ),
    "documents": (
        "KernelDocument", "load_kernel",
    ),
    "opendp": (
        "to_opendp",
    ),
    "rational": (
        "LEVEL_RTOL", "MAX_BITS", "MIN_BITS", "RATIONAL_FORMAT", "RationalMechanism",
        "rational_mechanism", "validated_kernel",
    ),
}

__getattr__, __dir__, __all__ = attach(__name__, EXPORTS)
