"""Checking a technique run against the exact search: no step removes a value of a solution."""

from __future__ import annotations

from grader.engine import Engine, apply_step
from grader.exact import search_for
from grader.family import Puzzle
from grader.model import values_of
from grader.technique import Technique


def removed_values(state: list[int], step) -> list[tuple[int, int]]:
    """Every (variable, value) the step removes from ``state``."""
    out = [(v, x) for v, x in step.eliminations if state[v] >> x & 1]
    for var, value in step.placements:
        out.extend((var, x) for x in values_of(state[var]) if x != value)
    return out


def assert_sound_run(puzzle: Puzzle, techniques: list[Technique]) -> int:
    """Run the techniques and check every removal with the SAT solver; returns steps checked."""
    search = search_for(puzzle.model)
    run = Engine(puzzle.model, techniques).run(puzzle.givens)
    state = list(puzzle.givens)
    assert search.solve(state) is not None, "test setup: the puzzle must have a solution"
    for step in run.steps:
        assert step.contradiction is None, f"contradiction on a solvable puzzle: {step}"
        for var, value in removed_values(state, step):
            assert not search.is_possible(state, var, value), (
                f"{step.technique} removed {puzzle.model.name(var)}={value}, "
                f"which a solution has: {step}"
            )
        apply_step(state, step)
    assert run.status != "contradiction", run.contradiction
    return len(run.steps)
