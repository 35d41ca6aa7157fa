"""Every public function and class documents its parameters and cites its sources
(issue 42): a numpy-style Parameters section checked by numpydoc's own validator, a shape
for every array, and a References section wherever a docstring leans on a paper.

The public objects are the names in ``mechdesign.__all__``, in each subpackage's
``__all__`` and in the ``__all__`` of the top-level modules. For each:

1. numpydoc's validation (:func:`numpydoc.validate.validate`) finds no undocumented
   parameter (PR01), no documented parameter that does not exist (PR02), no parameter
   without a description (PR07) and no missing docstring (GL08). A class documents its
   constructor in the class docstring; an enumeration's members are its documentation.
2. Every parameter annotated as an array (``ArrayLike``, ``NDArray``, ``ndarray`` or a
   ``Mechanism``) states its shape.
3. A docstring that cites a paper's statement (a numbered Theorem, Lemma, Proposition,
   Corollary, Definition, Example, Remark, Algorithm or equation, or the words "paper" or
   "arXiv") has a References section, and every entry of a References section names its
   year and an arXiv identifier, a DOI or a URL.
"""

from __future__ import annotations

import enum
import importlib
import inspect
import re

import pytest
from numpydoc import docscrape, validate as numpydoc_validate

NAMESPACES = (
    "mechdesign", "mechdesign.measures", "mechdesign.notions", "mechdesign.optimal",
    "mechdesign.mechanisms", "mechdesign.bounds", "mechdesign.accounting",
    "mechdesign.deployment", "mechdesign.reproduce", "mechdesign.kernel", "mechdesign.errors",
    "mechdesign.status", "mechdesign.priors", "mechdesign.reports", "mechdesign.comparison",
    "mechdesign.sweeps", "mechdesign.cli",
)
#: numpydoc's codes this package holds itself to (the rest — See Also, Examples, summary
#: punctuation — are style the papers' notation does not always fit).
CODES = {"GL08", "PR01", "PR02", "PR07"}
ARRAY = re.compile(r"ArrayLike|NDArray|ndarray|Mechanism\b")
CITES = re.compile(r"\b(Theorem|Lemma|Proposition|Corollary|Definition|Example|Remark|"
                   r"Algorithm|Eq\.|Equation|eq\.)\s*\(?[A-Z]?\d|\bpaper\b|arXiv", re.I)
IDENTIFIER = re.compile(r"arXiv:\s*\d{4}\.\d{4,5}|doi|https?://", re.I)
YEAR = re.compile(r"\b(19|20)\d{2}\b")


def _public_objects() -> list[tuple[str, object]]:
    seen: dict[int, tuple[str, object]] = {}
    for namespace in NAMESPACES:
        module = importlib.import_module(namespace)
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if not (inspect.isfunction(obj) or inspect.isclass(obj)):
                continue
            if not getattr(obj, "__module__", "").startswith("mechdesign"):
                continue
            seen.setdefault(id(obj), (f"{obj.__module__}.{obj.__qualname__}", obj))
    return sorted(seen.values(), key=lambda item: item[0])


OBJECTS = _public_objects()


def _problems(path: str, obj: object) -> list[str]:
    if inspect.isclass(obj) and issubclass(obj, enum.Enum):
        return [] if inspect.getdoc(obj) else ["GL08 no docstring"]
    found = [f"{code} {message}" for code, message in numpydoc_validate.validate(path)["errors"]
             if code in CODES]
    doc = inspect.getdoc(obj) or ""
    if not doc:
        return found
    parsed = docscrape.ClassDoc(obj) if inspect.isclass(obj) else docscrape.FunctionDoc(obj)
    documented = {}
    for entry in parsed["Parameters"]:
        for part in entry.name.split(","):
            documented[part.strip().lstrip("*")] = entry
    target = obj.__init__ if inspect.isclass(obj) else obj
    try:
        parameters = inspect.signature(target).parameters
    except (TypeError, ValueError):
        parameters = {}
    for name, parameter in parameters.items():
        annotation = str(parameter.annotation)
        entry = documented.get(name)
        if parameter.annotation is inspect.Parameter.empty or not ARRAY.search(annotation):
            continue
        if entry is not None and "shape" not in (entry.type + " " + " ".join(entry.desc)).lower():
            found.append(f"parameter {name!r} ({annotation}) states no shape")
    references = parsed["References"]
    body = doc.split("References\n----------")[0]
    if CITES.search(body) and not references:
        found.append("cites a paper's statement but has no References section")
    entries = re.split(r"\n(?=\.\. \[|\[\d+\]|- )", "\n".join(references))
    for entry in entries:
        if entry.strip() and not (YEAR.search(entry) and IDENTIFIER.search(entry)):
            found.append(f"reference without a year and an arXiv id, DOI or URL: {entry[:60]!r}")
    return found


def test_the_battery_sees_the_public_api():
    names = {path.rsplit(".", 1)[-1] for path, _ in OBJECTS}
    assert {"design", "Mechanism", "PatternSource", "shuffle_epsilon"} <= names
    assert len(OBJECTS) > 250


@pytest.mark.parametrize(("path", "obj"), OBJECTS, ids=[path for path, _ in OBJECTS])
def test_public_docstring(path, obj):
    problems = _problems(path, obj)
    assert not problems, f"{path}:\n  " + "\n  ".join(problems)


def test_the_checks_catch_what_they_claim():
    """The battery on deliberately bad docstrings (it must not pass everything)."""

    def undocumented(kernel, prior):
        """Something by Theorem 3 of the paper.

        Parameters
        ----------
        kernel : Mechanism
            The kernel.
        """

    undocumented.__annotations__ = {"kernel": "Mechanism | ArrayLike", "prior": "ArrayLike"}
    undocumented.__module__ = __name__
    globals()["undocumented"] = undocumented
    try:
        problems = _problems(f"{__name__}.undocumented", undocumented)
    finally:
        del globals()["undocumented"]
    text = "\n".join(problems)
    assert "PR01" in text  # prior is not documented
    assert "states no shape" in text  # kernel has no shape
    assert "no References section" in text
