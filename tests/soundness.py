"""Checking a technique run against the exact search: no step removes a value of a solution."""

from __future__ import annotations

import random
from collections.abc import Iterator

from grader.core.engine import Engine, apply_step
from grader.core.exact import search_for
from grader.core.model import Model, State, values_of
from grader.core.step import Step
from grader.core.technique import Technique
from grader.rating.family import Family, Puzzle


def removed_values(state: list[int], step) -> list[tuple[int, int]]:
    """Every (variable, value) the step removes from ``state``."""
    out = [(v, x) for v, x in step.eliminations if state[v] >> x & 1]
    for var, value in step.placements:
        out.extend((var, x) for x in values_of(state[var]) if x != value)
    return out


def assert_sound_run(puzzle: Puzzle, techniques: list[Technique]) -> int:
    """Run the techniques and check every removal with the SAT solver; returns steps checked."""
    return len(assert_sound_steps(puzzle.model, puzzle.givens, techniques))


def assert_sound_steps(
    model: Model, state: State, techniques: list[Technique], engine: Engine | None = None
) -> list[Step]:
    """Run the techniques (or ``engine``) from ``state``, which must have a solution, and check
    every value a step removes with the SAT solver; returns the steps."""
    search = search_for(model)
    engine = engine or Engine(model, techniques)
    run = engine.run(state)
    current = list(state)
    assert search.solve(current) is not None, "test setup: the state must have a solution"
    for step in run.steps:
        assert step.contradiction is None, f"contradiction on a solvable state: {step}"
        for var, value in removed_values(current, step):
            assert not search.is_possible(current, var, value), (
                f"{step.technique} removed {model.name(var)}={value}, which a solution has: {step}"
            )
        apply_step(current, step)
    assert run.status != "contradiction", run.contradiction
    return run.steps


def random_partials(
    family: Family, template: Model, rng: random.Random, count: int
) -> Iterator[tuple[Model, State, list[int]]]:
    """``count`` random partial puzzles of one random solution (model, state, solution): a
    random share of its cells revealed and of the family's other hints (signs, clues, doors)
    given, and random wrong candidates crossed out; nothing when the family cannot make a
    random solution of this size. ``state`` is where a solver starts (see
    :func:`random_puzzles` for the givens too)."""
    for model, _givens, start, solution in random_puzzles(family, template, rng, count):
        yield model, start, solution


def random_puzzles(
    family: Family, template: Model, rng: random.Random, count: int
) -> Iterator[tuple[Model, State, State, list[int]]]:
    """As :func:`random_partials`, with the givens before the family's start
    (:meth:`Family.start_state`): (model, givens, start, solution)."""
    try:
        solution = family.random_solution(template, rng)
    except Exception:  # a family without random solutions for this size
        return
    extra = family.extra_hints(template, solution)
    for _ in range(count):
        share = rng.uniform(0.05, 0.6)
        hints = [h for h in extra if rng.random() < share / 2]
        model = family.with_hints(template, hints) if hints else template
        state = list(model.initial_state())
        if family.cell_hints:
            for var, value in enumerate(solution):
                if rng.random() < share:
                    state[var] = 1 << value
                elif rng.random() < share:  # cross out some wrong candidates
                    wrong = [x for x in values_of(state[var]) if x != value]
                    for x in rng.sample(wrong, rng.randint(0, len(wrong))):
                        state[var] &= ~(1 << x)
        yield model, state, family.start_state(model, state), solution
