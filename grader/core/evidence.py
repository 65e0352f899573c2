"""The evidence of a step as variables: what it looked at, the units it reasoned about, and
what it changed. Pictures and the HTML trace highlight these.

Techniques record their evidence in ``Step.data`` under common keys; :func:`default_evidence`
reads them so that no technique needs code of its own for pictures:

- variables it looked at: ``cells``, ``cell``, ``window``, ``other``, ``vars`` (an int or a
  sequence of ints), the assumed variable of ``assume`` (``(var, value)``) and the variables
  the steps of a ``chain`` (a lookahead's steps after its assumption) concluded;
- units it reasoned about: ``unit``, ``units`` and ``copies`` (constraint labels, resolved to
  the constraints' variables).

A technique whose data says more (or differently) overrides
:meth:`grader.core.technique.Technique.evidence`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from grader.core.model import Model
from grader.core.step import Step

VAR_KEYS = ("cells", "cell", "window", "other", "vars")
UNIT_KEYS = ("unit", "units", "copies")


@dataclass(frozen=True)
class Evidence:
    """Variables a step used (looked at), the variables of its units, and those it changed."""

    used: frozenset[int]
    units: frozenset[int]
    changed: frozenset[int]


def _ints(value: object) -> list[int]:
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [value]
    if isinstance(value, Iterable) and not isinstance(value, str | bytes):
        return [x for x in value if isinstance(x, int) and not isinstance(x, bool)]
    return []


def _labels(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, Iterable):
        return [x for x in value if isinstance(x, str)]
    return []


def constraints_by_label(model: Model) -> dict[str, tuple[int, ...]]:
    """Label → variables of the constraint(s) with that label (memoised on the model)."""
    found = model.memo.get("constraints_by_label")
    if found is None:
        merged: dict[str, set[int]] = {}
        for constraint in model.constraints:
            merged.setdefault(constraint.label, set()).update(constraint.vars)
        found = {label: tuple(sorted(vs)) for label, vs in merged.items()}
        model.memo["constraints_by_label"] = found
    return found


def default_evidence(step: Step, model: Model) -> Evidence:
    """Evidence read from the common keys of ``step.data`` (see the module docstring)."""
    data = step.data
    count = len(model.variables)
    used: set[int] = set()
    for key in VAR_KEYS:
        used.update(_ints(data.get(key)))
    assume = data.get("assume")
    if isinstance(assume, tuple | list) and assume:
        used.update(_ints(assume[0]))
    for link in data.get("chain") or ():
        if isinstance(link, Step):
            used.update(link.changed_vars())
    units: set[int] = set()
    labels = constraints_by_label(model)
    for key in UNIT_KEYS:
        for label in _labels(data.get(key)):
            units.update(labels.get(label, ()))
    return Evidence(
        used=frozenset(v for v in used if 0 <= v < count),
        units=frozenset(v for v in units if 0 <= v < count),
        changed=frozenset(step.changed_vars()),
    )
