"""Every public name of the package has a docstring (the API reference renders them;
tests/test_docs_site.py builds it)."""

from __future__ import annotations

import mechdesign as md


def test_every_public_name_has_a_docstring():
    import inspect

    missing = []
    for name in md.__all__:
        obj = getattr(md, name)
        if (inspect.isclass(obj) or inspect.isfunction(obj)) and not (obj.__doc__ or "").strip():
            missing.append(name)
        if inspect.isclass(obj):
            for member, value in vars(obj).items():
                if (not member.startswith("_") and inspect.isfunction(value)
                        and not (value.__doc__ or "").strip()):
                    missing.append(f"{name}.{member}")
    assert not missing, missing
