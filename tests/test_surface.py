"""The public surface: each namespace exports the functions and types users call, each
name once, declared where type checkers see it.

Read from the namespaces themselves and from the ``if TYPE_CHECKING:`` blocks of their
``__init__.py`` (the one list of each namespace's names, see ``mechdesign/_lazy.py``).
"""

from __future__ import annotations

import importlib
import numbers
import pkgutil
import re
import tomllib

import numpy as np
import pytest

import mechdesign as md
from mechdesign._lazy import declared_exports
from tests.helpers import ROOT

NAMESPACES = ["mechdesign", *(f"mechdesign.{info.name}" for info in
                              pkgutil.iter_modules(md.__path__)
                              if info.ispkg and not info.name.startswith("_"))]


@pytest.mark.parametrize("name", NAMESPACES)
def test_no_namespace_exports_a_tuning_constant(name):
    # Tolerances, iteration caps and size limits stay importable from their modules;
    # vocabularies (the allowed values of an argument, such as METHODS) and objects users
    # pass (KL, the classes) are exported.
    module = importlib.import_module(name)
    numbers_exported = [n for n in module.__all__ if n != "__version__"
                        and isinstance(getattr(module, n), numbers.Number)]
    assert not numbers_exported, f"{name} exports tuning constants {numbers_exported}"


def test_each_name_is_exported_by_one_subpackage():
    # The top level re-exports the names most users need; below it, one home per name.
    homes: dict[str, list[str]] = {}
    for name in NAMESPACES[1:]:
        for public in importlib.import_module(name).__all__:
            homes.setdefault(public, []).append(name)
    twice = {public: where for public, where in homes.items() if len(where) > 1}
    assert not twice, twice


@pytest.mark.parametrize("name", [n for n in NAMESPACES
                                  if "TYPE_CHECKING" in (ROOT / n.replace(".", "/")
                                                         / "__init__.py").read_text()])
def test_the_static_declarations_are_the_namespace(name):
    # What a type checker reads (explicit re-exports under TYPE_CHECKING) is exactly what
    # the interpreter answers, object for object.
    module = importlib.import_module(name)
    declared = declared_exports(name, module.__file__)
    assert set(module.__all__) - {"__version__"} == set(declared)
    for public, home in declared.items():
        assert getattr(module, public) is getattr(importlib.import_module(home), public)


def test_the_package_ships_its_type_hints():
    assert (ROOT / "mechdesign" / "py.typed").is_file()
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "py.typed" in config["tool"]["setuptools"]["package-data"]["mechdesign"]


def test_a_moved_name_still_answers_with_a_warning():
    from mechdesign.priors import four_level_prior

    with pytest.warns(DeprecationWarning, match=r"use mechdesign\.priors\.four_level_prior"):
        assert md.bounds.four_level_prior is four_level_prior


@pytest.mark.parametrize(("module", "old", "new"), [
    ("mechdesign.optimal", "PricingOracle", "PatternSource"),
    ("mechdesign.optimal", "GainPricingOracle", "GainSource"),
    ("mechdesign.optimal", "LinearisationOracle", "LinearisationSource"),
    ("mechdesign.optimal.patterns", "PricingOracle", "PatternSource"),
    ("mechdesign.optimal.gain_pricing", "GainPricingOracle", "GainSource"),
    ("mechdesign.optimal.robust", "LinearisationOracle", "LinearisationSource"),
    ("mechdesign.optimal.robust.pricing", "LinearisationOracle", "LinearisationSource"),
])
def test_a_renamed_column_source_still_answers_with_a_warning(module, old, new):
    namespace = importlib.import_module(module)
    with pytest.warns(DeprecationWarning, match=re.escape(f"use {module}.{new} ")):
        assert getattr(namespace, old) is getattr(namespace, new)
    with pytest.raises(AttributeError, match="no attribute 'NoSuchOracle'"):
        namespace.NoSuchOracle  # noqa: B018 (the attribute access is the test)


@pytest.mark.parametrize("name", ["reverse_pinsker", "reverse_pinsker_f_alpha",
                                  "pinsker_f_alpha", "pinsker_f_alpha_inverse",
                                  "f_alpha_tv_lower_boundary"])
def test_the_pinsker_curves_still_answer_from_the_divergences_with_a_warning(name):
    from mechdesign.measures import divergences, pinsker

    with pytest.warns(DeprecationWarning, match=re.escape(f"use {pinsker.__name__}.{name} ")):
        assert getattr(divergences, name) is getattr(pinsker, name)
    assert getattr(md.measures, name) is getattr(pinsker, name)  # no warning there


@pytest.mark.parametrize(("name", "old", "new"), [
    *[(name, "mechdesign.bounds.envelope", "mechdesign.bounds.leakage_composition")
      for name in ("adaptive_composition", "composition_envelope_bound",
                   "conditional_maximal_leakage")],
    *[(name, "mechdesign.bounds.envelope", "mechdesign.bounds.rr_envelope")
      for name in ("RandomizedResponseEnvelope", "randomized_response_envelope")],
    *[(name, "mechdesign.measures.channels", "mechdesign.measures.channel_orders")
      for name in ("is_degraded", "is_less_noisy", "DEGRADATION_ATOL")],
    ("local_hashing", "mechdesign.mechanisms.protocols", "mechdesign.mechanisms.oracles"),
])
def test_a_module_split_on_its_seams_still_answers_with_a_warning(name, old, new):
    module = importlib.import_module(new)
    with pytest.warns(DeprecationWarning, match=re.escape(f"use {new}.{name} ")):
        assert getattr(importlib.import_module(old), name) is getattr(module, name)
    namespace = importlib.import_module(new.rsplit(".", 1)[0])
    if name in namespace.__all__:
        assert getattr(namespace, name) is getattr(module, name)  # no warning there


def test_local_hashing_keeps_its_meaning_at_its_new_place():
    """Without a hash family, the fresh-hash oracle; with one, the dense kernel over it."""
    oracle = md.local_hashing(40, 2.0)
    assert isinstance(oracle, md.mechanisms.PureOracle)
    assert oracle.family == "hashing"
    family = md.mechanisms.hash_family(5, 3)
    kernel = md.local_hashing(5, 2.0, family, buckets=3)
    assert isinstance(kernel, md.mechanisms.FrequencyOracle)
    np.testing.assert_allclose(kernel.matrix,
                               md.mechanisms.PureOracle.hashing(5, 2.0, 3).dense().matrix,
                               rtol=0, atol=1e-15)


def test_a_deprecation_warning_points_at_the_callers_line():
    """Python shows a DeprecationWarning only where it is attributed to the user's code,
    so each kind of old path must name the line that used it."""
    from mechdesign.measures import divergences

    for old in (lambda: md.bounds.four_level_prior, lambda: divergences.reverse_pinsker,
                lambda: md.optimal.PricingOracle,
                lambda: importlib.import_module("mechdesign.optimal.robust_pricing")
                .LinearisationSource):
        with pytest.warns(DeprecationWarning, match="is deprecated: use") as record:
            old()
        assert [w.filename for w in record] == [__file__]


def test_oracle_means_a_frequency_oracle_only():
    """One meaning per word: a public name with "Oracle" in it is a frequency oracle of
    mechdesign.mechanisms (a protocol), never a column source of the design engine."""
    seen = set()
    top = pkgutil.ModuleInfo(None, "mechdesign", True)
    for info in [top, *pkgutil.walk_packages(md.__path__, "mechdesign.")]:
        if any(part.startswith("_") for part in info.name.split(".")):
            continue
        module = importlib.import_module(info.name)
        if getattr(module, "MOVED_TO", None):
            continue
        names = set(getattr(module, "__all__", ()))
        if info.ispkg and "TYPE_CHECKING" in vars(module):
            names |= set(declared_exports(info.name, module.__file__))
        for name in names:
            if "oracle" not in name.lower():
                continue
            value = getattr(module, name)
            origin = getattr(value, "__module__", info.name)
            assert origin.startswith("mechdesign.mechanisms"), (info.name, name, origin)
            seen.add(name)
    assert {"FrequencyOracle", "PureOracle"} <= seen  # the test sees the namespaces


@pytest.mark.parametrize(("old", "new", "name"), [
    ("mechdesign.optimal.robust_blocks", "mechdesign.optimal.robust.blocks", "BlockPricing"),
    ("mechdesign.optimal.robust_pricing", "mechdesign.optimal.robust.pricing",
     "LinearisationSource"),
    ("mechdesign.optimal.estimation_bounds", "mechdesign.optimal.estimation.bounds",
     "pricing_free_bound"),
    ("mechdesign.optimal.estimation_pricing", "mechdesign.optimal.estimation.pricing",
     "LdpQuadraticPricing"),
    ("mechdesign.optimal.estimation_symmetry", "mechdesign.optimal.estimation.symmetry",
     "symmetric_design"),
])
def test_a_moved_module_still_answers_with_a_warning(old, new, name):
    module = importlib.import_module(old)
    with pytest.warns(DeprecationWarning, match="use " + re.escape(new) + " "):
        value = getattr(module, name)
    assert value is getattr(importlib.import_module(new), name)
    # the old module path still holds the estimation design's public names
    assert importlib.import_module("mechdesign.optimal.estimation").EstimationError is (
        md.optimal.EstimationError)
