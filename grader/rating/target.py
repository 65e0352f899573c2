"""What a level asks of a generated puzzle: the techniques it may use, and those that must not
suffice (a family rated on its own scale says so in
:meth:`grader.rating.family.Family.generation_target`)."""

from __future__ import annotations

from dataclasses import dataclass

from grader.core.technique import Technique


@dataclass
class Target:
    """A level as the generator needs it: what may be used, and what must not suffice."""

    cap: list[Technique]
    below: list[Technique] | None
    min_difficulty: float | None = None
    max_difficulty: float | None = None
    """A band of hardest-step costs (for families rated on a numeric scale)."""
