"""The installed version of mechdesign, without the numeric stack (``mechdesign
--version`` answers without importing numpy)."""

from __future__ import annotations


def installed_version() -> str:
    """The version pip installed (pyproject.toml is its one source), read on request.

    ``importlib.metadata`` costs tens of milliseconds to import, so it is read only when
    asked for. A source tree imported without being installed has no metadata; it
    reports ``0+unknown`` rather than a number that may be stale.
    """
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("mechdesign")
    except PackageNotFoundError:
        return "0+unknown"
