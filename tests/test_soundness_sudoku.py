"""Soundness of every sudoku technique against the exact search, on random partial grids of
sizes 4, 6 and 9 (property tests), and of the uniqueness patterns on unique puzzles."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import make
from grader.costs import choose
from grader.engine import Engine, apply_step
from grader.exact import count_solutions
from rules.sudoku.family import FAMILY, random_grid
from rules.sudoku.file import SYMBOLS
from soundness import assert_sound_run, removed_values


def partial(n: int, seed: int, share: float):
    rng = random.Random(seed)
    model = FAMILY.empty_model((n, n), {})
    solution = random_grid(model, rng)
    grid = [
        "".join(SYMBOLS[solution[r * n + c]] if rng.random() < share else "." for c in range(n))
        for r in range(n)
    ]
    return make({"family": "sudoku", "grid": grid}), solution


@st.composite
def sudokus(draw, sizes=(4, 6, 9)):
    n = draw(st.sampled_from(sizes))
    seed = draw(st.integers(0, 10**6))
    low = 0.05 if n < 9 else 0.3
    share = draw(st.floats(low, 0.7))
    return partial(n, seed, share)[0]


def techniques_for(puzzle):
    """Every default technique."""
    return choose(puzzle.family, puzzle.model)


SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(sudokus(sizes=(4, 6)))
def test_small_sudoku_steps_never_remove_a_solution_value(puzzle):
    assert_sound_run(puzzle, techniques_for(puzzle))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sudokus(sizes=(9,)))
def test_9x9_steps_never_remove_a_solution_value(puzzle):
    assert_sound_run(puzzle, techniques_for(puzzle))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.sampled_from([4, 6, 9]))
def test_uniqueness_patterns_keep_the_solution_of_unique_puzzles(seed, n):
    """Unique rectangles and BUG run only when the puzzle is known unique; then they are sound."""
    rng = random.Random(seed)
    puzzle, solution = partial(n, seed, 0.9)
    model = puzzle.model
    state = list(puzzle.givens)
    # remove clues while the puzzle stays unique
    for var in rng.sample(range(n * n), n * n):
        trial = list(state)
        trial[var] = model.variables[var].domain
        if count_solutions(model, trial)[0] == 1:
            state = trial
    count, found = count_solutions(model, state)
    assert count == 1
    techniques = choose(FAMILY, model)
    run = Engine(model, techniques, solutions=found).run(state)
    current = list(state)
    for step in run.steps:
        for var, value in removed_values(current, step):
            assert value != solution[var], (step.technique, step)
        apply_step(current, step)
