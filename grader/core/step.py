"""Steps: what one application of one technique concluded, and the evidence for it.

A step holds data only. Its words are rendered later by the technique's ``explain`` method
(see :mod:`grader.core.explain`), never built during the search.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

Assignment = tuple[int, int]
"""``(variable, value)``."""


@dataclass(frozen=True, init=False)
class Step:
    """One application of one technique.

    ``placements`` fix a variable to a value, ``eliminations`` remove a candidate. ``data`` is the
    evidence: the unit it used (``unit``: a constraint label), the cells it looked at (``cells``)
    and whatever the technique's explanation needs. A step with ``contradiction`` set shows that
    the state it was found in has no solution (the text says why).
    """

    technique: str
    cost: float
    placements: tuple[Assignment, ...] = ()
    eliminations: tuple[Assignment, ...] = ()
    data: Mapping[str, Any] = field(default_factory=dict)
    contradiction: str | None = None

    def __init__(
        self,
        technique: str,
        cost: float,
        placements: tuple[Assignment, ...] = (),
        eliminations: tuple[Assignment, ...] = (),
        data: Mapping[str, Any] | None = None,
        contradiction: str | None = None,
    ) -> None:
        """The dataclass's fields, written straight into the instance's ``__dict__`` (a frozen
        dataclass's own ``__init__`` pays an ``object.__setattr__`` call per field, and a solve
        makes a step per conclusion)."""
        fields = self.__dict__
        fields["technique"] = technique
        fields["cost"] = cost
        fields["placements"] = placements
        fields["eliminations"] = eliminations
        fields["data"] = {} if data is None else data
        fields["contradiction"] = contradiction

    def changed_vars(self) -> set[int]:
        return {v for v, _ in self.placements} | {v for v, _ in self.eliminations}


@dataclass(frozen=True)
class Contradiction:
    """Why a state has no solution: a variable left without candidates or a broken rule."""

    reason: str
    step: Step | None = None
    var: int | None = None
    unit: str | None = None
