"""Aligned pair and triplet exclusion compiled (``rules/sudoku/exclusion_jit.py``) and in Python
(``AlignedExclusion.find``, the reference) give the same steps and remember the same clear grid,
on grids stuck before chains with candidates removed at random, one after another on one model
(so that the search that skips what a clear grid settled is compared too)."""

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

from grader.core.engine import Engine
from grader.core.model import is_single
from grader.core.technique import Context
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
