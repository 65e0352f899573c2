"""The installed version of the program, stamped on every report and generated puzzle."""

from __future__ import annotations


def installed_version() -> str:
    """The installed version (``0.0.0+local`` in a source tree that was not installed)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("puzzle-grader")
    except PackageNotFoundError:
        return "0.0.0+local"


__version__ = installed_version()
