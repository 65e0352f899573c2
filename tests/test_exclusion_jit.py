"""Aligned pair and triplet exclusion compiled (``rules/sudoku/exclusion_jit.py``) and in Python
(``AlignedExclusion.find``, the reference) give the same steps and remember the same clear grid,
on grids stuck before chains with candidates removed at random, and on random grids of every size
the kernel takes run partway and then solved on (candidates removed, the solution's kept, cells
cut to their value, singles and exclusions made), one after another on one model (so that the
search that skips what a clear grid settled is compared too)."""

from __future__ import annotations

import random
from functools import cache
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_chain_jit import require_compiled
from test_sudoku_chains import stuck_before_chains
from test_technique_examples import document

from conftest import make, random_solution
from grader.core.engine import Engine
from grader.core.model import is_single, values_of
from grader.core.technique import Context
from grader.rating.costs import choose
from grader.rating.grading import stated_at_start
from grader.rating.registry import families
from grader.techniques.houses import houses_of
from grader.testing.examples import replay
from rules.sudoku.exclusion import AlignedExclusion, compiled_search

DEGREES = (2, 3)


EXAMPLES = ("aligned-pair-exclusion", "aligned-triplet-exclusion")


@cache
def stuck(source: str | int):
    """A 9x9 state where the exclusions are looked for, (model, state, engine): the manual's
    example of one (``source`` its technique name) or a generated grid stuck before chains
    (``source`` its seed)."""
    if isinstance(source, str):
        wave = replay(families()["sudoku"], source, document("sudoku")["examples"][source])
        engine = Engine(wave.puzzle.model, [], solutions=wave.solutions)
        return wave.puzzle.model, tuple(wave.state), engine
    puzzle, state, _solution, engine = stuck_before_chains(source)
    return puzzle.model, tuple(state), engine


def narrowed(state: tuple[int, ...], rng: random.Random, removed: int) -> list[int]:
    """``state`` with up to ``removed`` candidates of open cells removed at random (no cell
    emptied)."""
    out = list(state)
    options = [(var, bit) for var, mask in enumerate(out) for bit in range(9) if mask >> bit & 1]
    for var, bit in rng.sample(options, min(removed, len(options))):
        if not is_single(out[var]) and out[var] >> bit & 1:
            out[var] &= ~(1 << bit)
    return out


def steps_of(degree: int, model, states: list[list[int]], engine, compiled: bool) -> list:
    """What the technique finds on each state in turn (one model, so each search may skip what
    the previous clear grid settled), and the clear grid remembered at the end."""
    technique = AlignedExclusion(7.5 if degree == 3 else 6.2, degree=degree)
    model.memo.pop(("aligned-clear", degree), None)
    found = []
    for state in states:
        ctx = Context(model, list(state), engine)
        if compiled:
            jit = compiled_search(houses_of(model), len(state), degree)
            assert jit is not None, "the kernels are loaded: the compiled search must be used"
            steps = list(technique.find_compiled(ctx, jit))
        else:
            with mock.patch("rules.sudoku.exclusion.compiled_search", return_value=None):
                steps = list(technique.find(ctx))
        found.append([(s.eliminations, dict(s.data)) for s in steps])
    found.append(model.memo.get(("aligned-clear", degree)))
    return found


def assert_same(model, states: list[list[int]], engine) -> int:
    """Both searches on ``states``, each degree; returns how many steps they found."""
    require_compiled()
    steps = 0
    for degree in DEGREES:
        slow = steps_of(degree, model, states, engine, compiled=False)
        fast = steps_of(degree, model, states, engine, compiled=True)
        assert fast == slow, degree
        steps += sum(len(found) for found in slow[:-1])
    return steps


@pytest.mark.parametrize("source", [*EXAMPLES, 1, 32])
def test_the_compiled_exclusion_finds_what_python_finds(source):
    model, state, engine = stuck(source)
    found = 0
    for chain in range(4):
        rng = random.Random(f"{source}:{chain}")
        states = [list(state)]
        for _ in range(12):
            states.append(narrowed(tuple(states[-1]), rng, 1 + chain))
        found += assert_same(model, states, engine)
    if source in EXAMPLES:
        assert found >= 3  # exclusions were found, not only none


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([*EXAMPLES, 1, 32]), st.integers(0, 10**6), st.integers(0, 20))
def test_narrowed_grids_exclude_alike(seed, draw, removed):
    model, state, engine = stuck(seed)
    rng = random.Random(draw)
    first = narrowed(state, rng, removed)
    assert_same(model, [first, narrowed(tuple(first), rng, 2)], engine)


SIZES = ((4, None), (6, None), (8, None), (9, None), (10, (2, 5)))
"""Grid sizes the kernel takes (up to 128 cells), with a box shape where none is the default."""


@cache
def partway(size: int, box: tuple[int, int] | None, seed: int):
    """A random grid of this size with a third of its solution given, run partway by the
    techniques up to naked singles: (model, state, solution, an engine of those and the
    aligned exclusions)."""
    rng = random.Random(f"{size}:{seed}")
    data: dict = {"family": "sudoku", "grid": ["." * size] * size}
    if box:
        data["box"] = list(box)
    solution = random_solution(make(data), rng)
    shown = set(rng.sample(range(size * size), size * size // 3))
    symbols = make(data).model.symbols
    data["grid"] = [
        "".join(symbols[solution[var]] if var in shown else "." for var in range(r, r + size))
        for r in range(0, size * size, size)
    ]
    puzzle = make(data)
    techniques = choose(puzzle.family, puzzle.model)
    singles = [t for t in techniques if t.cost < 2.5]
    steps = rng.randrange(size, 4 * size)
    run = Engine(puzzle.model, singles, solutions=[solution]).run(
        puzzle.givens, max_steps=steps, stated=stated_at_start(puzzle)
    )
    solver = Engine(puzzle.model, singles + [t for t in techniques if t.name in EXAMPLES])
    return puzzle.model, tuple(run.state), tuple(solution), solver


def kept(
    state: list[int], solution: tuple[int, ...], rng: random.Random, removed: int
) -> list[int]:
    """``state`` with up to ``removed`` candidates that are not the solution's removed at
    random."""
    out = list(state)
    options = [(var, x) for var, mask in enumerate(out) for x in values_of(mask)]
    for var, x in rng.sample(options, min(removed, len(options))):
        if x != solution[var]:
            out[var] &= ~(1 << x)
    return out


def fixed(state: list[int], solution: tuple[int, ...], rng: random.Random) -> list[int]:
    """``state`` with an open cell cut down to its solution value: a naked single its peers
    still hold, which keeps them from being base cells until a step places it."""
    out = list(state)
    open_cells = [var for var, mask in enumerate(out) if not is_single(mask)]
    if open_cells:
        var = rng.choice(open_cells)
        out[var] = 1 << solution[var]
    return out


def solving(model, state, solution, engine, rng: random.Random, length: int) -> list[list[int]]:
    """States one after another as a solver meets them: candidates removed (the solution's
    kept), a cell cut down to its value, or a few steps of ``engine`` (singles placed, so base
    cells appear whose candidates did not change, and exclusions made until none is left, so
    that the next search starts from a clear grid)."""
    states = [list(state)]
    for _ in range(length):
        move = rng.randrange(3)
        if move == 0:
            states.append(kept(states[-1], solution, rng, rng.randrange(1, 6)))
        elif move == 1:
            states.append(fixed(states[-1], solution, rng))
        else:
            states.append(list(engine.run(states[-1], max_steps=rng.randrange(1, 6)).state))
    return states


@pytest.mark.parametrize(("size", "box"), SIZES)
def test_every_size_the_kernel_takes_excludes_alike(size, box):
    found = 0
    for seed in range(3):
        model, state, solution, engine = partway(size, box, seed)
        rng = random.Random(seed)
        found += assert_same(model, solving(model, state, solution, engine, rng, 30), engine)
    assert found or size == 4  # exclusions were found, not only none (a 4x4 seldom has any)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(SIZES), st.integers(0, 3), st.integers(0, 10**6))
def test_solved_partway_grids_exclude_alike(size_box, seed, draw):
    model, state, solution, engine = partway(*size_box, seed)
    rng = random.Random(draw)
    assert_same(model, solving(model, state, solution, engine, rng, 8), engine)
