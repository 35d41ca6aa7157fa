"""Which pricing source serves which problem: one table.

:data:`PRICING_SOURCES` maps a (notion type, utility type) pair to the
:class:`~mechdesign.optimal.sources.PricingSource` that column generation uses for it.
Lookups follow the notion's method resolution order, so a subclass of a registered notion
is served by its base's source; the utility type must match exactly. Every entry is also
an instance of the contract test (tests/optimal/test_contract.py): primal feasibility,
the certificate, the audit and agreement with enumeration on small instances.

:func:`register_source` adds an entry (a research extension, as in docs/extending.md);
nothing is registered as a side effect of importing a module. Which notions'
vertices :class:`~mechdesign.optimal.patterns.PatternSource` knows a pattern of is that
source's own literal table (``_PATTERNS`` in :mod:`mechdesign.optimal.patterns`), not a
second registry.
"""

from __future__ import annotations

from mechdesign._validation import show
from mechdesign.errors import InvalidInputError
from mechdesign.notions import LDP, PML, CloneLDP, NonRobustLDP, Notion, RobustLDP
from mechdesign.optimal.gain_pricing import GainSource
from mechdesign.optimal.patterns import PatternSource
from mechdesign.optimal.robust.pricing import LinearisationSource
from mechdesign.optimal.sources import PricingSource
from mechdesign.optimal.utilities import GainUtility, MutualInformationUtility, Utility

__all__ = ["PRICING_SOURCES", "register_source", "source_class"]

#: The pricing source of each (notion type, utility type). Whether a source prices a
#: given instance exactly is its own :meth:`~mechdesign.optimal.sources.PricingSource.supports`
#: (e.g. PML only with ``c``, non-robust RLDP only under its own ``P̂``).
PRICING_SOURCES: dict[tuple[type[Notion], type[Utility]], type[PricingSource]] = {
    (LDP, MutualInformationUtility): PatternSource,
    (PML, MutualInformationUtility): PatternSource,
    (NonRobustLDP, MutualInformationUtility): PatternSource,
    (RobustLDP, MutualInformationUtility): LinearisationSource,
    (CloneLDP, MutualInformationUtility): PatternSource,
    (LDP, GainUtility): GainSource,
    (CloneLDP, GainUtility): GainSource,
    (PML, GainUtility): GainSource,
}


def register_source(
    notion_type: type[Notion],
    source: type[PricingSource],
    utility_type: type[Utility] = MutualInformationUtility,
) -> None:
    """Declare that ``source.from_problem(notion, objective)`` prices ``notion_type`` (and
    its subclasses) for utilities of ``utility_type``.

    Parameters
    ----------
    notion_type : type
        A subclass of :class:`~mechdesign.notions.Notion`.
    source : type
        A subclass of :class:`~mechdesign.optimal.sources.PricingSource`;
        ``source.supports(notion, prior)`` says whether its pricing is exact for a given
        instance.
    utility_type : type, default MutualInformationUtility
        A subclass of :class:`~mechdesign.optimal.utilities.Utility`.
    """
    for value, base, name in ((notion_type, Notion, "notion_type"),
                              (source, PricingSource, "source"),
                              (utility_type, Utility, "utility_type")):
        if not (isinstance(value, type) and issubclass(value, base)):
            raise InvalidInputError(
                f"{name} must be a subclass of {base.__module__}.{base.__name__}; got "
                f"{show(value)}."
            )
    PRICING_SOURCES[notion_type, utility_type] = source


def source_class(notion: object, objective: object = None) -> type[PricingSource] | None:
    """The pricing source registered for the notion's type (or a base type) and the
    utility's type, if any.

    Parameters
    ----------
    notion : Notion
        The privacy notion.
    objective : Utility, type or None, default None
        A utility object or type; ``None`` is mutual information.
    """
    if objective is None:
        utility_type = MutualInformationUtility
    else:
        utility_type = objective if isinstance(objective, type) else type(objective)
    for kind in type(notion).__mro__:
        if (kind, utility_type) in PRICING_SOURCES:
            return PRICING_SOURCES[kind, utility_type]
    return None
