"""mkdocs hooks (mkdocs.yml): the API reference's page for every public module.

``reference.md`` renders the public namespaces; this adds ``reference/<module>.md`` for
every public module of the package (no leading underscore in its path, not a module that
only points to where its contents moved, ``MOVED_TO``), each rendered from its
docstrings by mkdocstrings, and ``modules.md``, the list of them. The pages are
generated at build time: nothing to keep in step by hand.
"""

from __future__ import annotations

import importlib
import pkgutil

from mkdocs.structure.files import File

import mechdesign


def public_modules() -> list[str]:
    """``mechdesign`` and its public submodules, by name."""
    names = ["mechdesign"]
    for info in pkgutil.walk_packages(mechdesign.__path__, "mechdesign."):
        if any(part.startswith("_") for part in info.name.split(".")):
            continue
        if getattr(importlib.import_module(info.name), "MOVED_TO", None) is None:
            names.append(info.name)
    return names


def on_files(files, config):
    """Add the generated pages to the site's files."""
    modules = public_modules()
    for name in modules:
        options = "    options:\n      show_submodules: false\n      members_order: source\n"
        files.append(File.generated(config, f"reference/{name}.md",
                                    content=f"# `{name}`\n\n::: {name}\n{options}"))
    listing = ["# Every module", "",
               "The package's public modules, each on its own page, rendered from its "
               "docstrings (the namespaces users call are on the [API reference]"
               "(reference.md) page).", ""]
    listing += [f"- [`{name}`](reference/{name}.md)" for name in modules]
    files.append(File.generated(config, "modules.md", content="\n".join(listing) + "\n"))
    return files
