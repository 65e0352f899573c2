"""A technique example replayed: the state before its wave and the wave, for the manual's
pictures (``docs/gen/families.py``) and their test (``tests/test_technique_examples.py``).

An example (``rules/<family>/technique_examples.json``, found by
``bench/technique_examples.py``) is a puzzle file, how many waves of the default table lead
from its givens to the state (``replay``, one fresh ``run(max_steps=1)`` each), and whether
its technique runs alone there (``alone``: a cheaper technique fires on that state too).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from grader.core.engine import Engine, Run
from grader.core.exact import count_solutions
from grader.core.technique import Technique
from grader.rating.costs import choose
from grader.rating.family import Family, Puzzle
from grader.rating.grading import stated_at_start
from grader.rating.loading import puzzle_from_dict


@dataclass
class ExampleWave:
    """A replayed example: its puzzle and solutions, the state before the wave, the wave and
    the techniques it ran with."""

    puzzle: Puzzle
    solutions: list[list[int]]
    state: list[int]
    run: Run
    techniques: list[Technique]
    stated: frozenset[int] | None = None
    """The cells stated before the wave, when the family places every cell by a step."""


def replay(family: Family, name: str, entry: dict[str, Any]) -> ExampleWave:
    """The wave of technique ``name``'s example ``entry``; raises ValueError when a replayed
    wave finds nothing or a contradiction (the example no longer leads to its state)."""
    puzzle = puzzle_from_dict(entry["puzzle"], f"{family.name} {name} example", name)
    model = puzzle.model
    _, found = count_solutions(model, puzzle.givens, 2)
    engine = Engine(model, choose(family, model), solutions=found)
    state = list(puzzle.givens)
    stated = stated_at_start(puzzle)
    for number in range(entry.get("replay", 0)):
        replayed = engine.run(state, max_steps=1, stated=stated)
        if not replayed.steps or replayed.status == "contradiction":
            raise ValueError(f"{family.name} {name} example: wave {number + 1} does not replay")
        state, stated = list(replayed.state), replayed.stated
    techniques = choose(family, model, guess=name == "guess")
    if entry.get("alone"):  # a state where a cheaper technique fires too
        techniques = [t for t in choose(family, model, guess=True) if t.name == name]
    run = Engine(model, techniques, solutions=found).run(state, max_steps=1, stated=stated)
    told = None if stated is None else frozenset(stated)
    return ExampleWave(puzzle, found, state, run, techniques, told)
