"""Families and extra techniques, found through entry points.

``grader.families``: each entry point names a :class:`~grader.rating.family.Family` instance.
``grader.techniques``: each names a callable ``(family_name) -> list[TechniqueSpec]`` adding
techniques to a family's table (return an empty list for families it does not serve).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from importlib.metadata import EntryPoints, entry_points

from grader.rating.family import Family, TechniqueSpec

FAMILY_GROUP = "grader.families"
TECHNIQUE_GROUP = "grader.techniques"


@cache
def _entry_points() -> EntryPoints:
    """Every installed entry point, read once (each reading scans all installed packages)."""
    return entry_points()


@cache
def families() -> dict[str, Family]:
    """Every installed family by name."""
    found: dict[str, Family] = {}
    for entry in _entry_points().select(group=FAMILY_GROUP):
        family = entry.load()
        found[family.name or entry.name] = family
    return dict(sorted(found.items()))


@cache
def _family_names() -> tuple[str, ...]:
    """The names of the families' entry points, sorted (read once: a file asks per line)."""
    return tuple(sorted({entry.name for entry in _entry_points().select(group=FAMILY_GROUP)}))


def families_in_turn() -> Iterator[Family]:
    """Every installed family in the order of their entry points' names (each named after its
    family, as :func:`families` orders them), each imported only when reached: a caller that
    stops at the first family reading a text imports no other (start-up of a command grading
    one family's file)."""
    for name in _family_names():
        family = get_family(name)
        if family is not None:
            yield family


@cache
def get_family(name: str) -> Family | None:
    """The installed family of that name; only its own entry point is loaded when it is named
    after the family (start-up of a command reading one family's files)."""
    for entry in _entry_points().select(group=FAMILY_GROUP, name=name):
        family = entry.load()
        if family.name in (name, None, ""):
            return family
    return families().get(name)


@cache
def extra_techniques(family_name: str) -> tuple[TechniqueSpec, ...]:
    """Techniques third parties add to a family."""
    out: list[TechniqueSpec] = []
    for entry in _entry_points().select(group=TECHNIQUE_GROUP):
        provider = entry.load()
        out.extend(provider(family_name) or [])
    return tuple(out)
