"""The houses' memory of placed cells: a cell found placed stays placed while the state only
narrows, so the open cells read with that memory (as every propagation reads them) must be the
open cells read afresh, on every state of a propagation, in sudokus and in latin siteswaps with
partial houses."""

from __future__ import annotations

import random

import pytest

from grader.costs import choose
from grader.engine import Engine, apply_step
from grader.registry import families
from grader.techniques.houses import houses_of
from soundness import random_partials

CASES = [
    ("sudoku", (9, 9), {}),
    ("sudoku", (4, 4), {}),
    ("siteswap", (5, 5), {"latin": True, "throws": [1, 5], "holes": [[2, 2]]}),
]


@pytest.mark.parametrize(("family_name", "size", "options"), CASES)
def test_open_cells_with_memory_match_a_fresh_reading(family_name, size, options):
    family = families()[family_name]
    template = family.empty_model(size, options)
    houses = houses_of(template)
    rng = random.Random(7)
    checked = 0
    for model, start, _ in random_partials(family, template, rng, 12):
        house_techniques = [
            t for t in choose(family, model) if type(t).__module__ == "grader.techniques.houses"
        ]
        engine = Engine(model, house_techniques)
        run = engine.run(start)
        state = list(start)
        placed: set[int] = set()
        for step in [None, *run.steps]:  # every state of the propagation, narrowing
            if step is not None:
                apply_step(state, step)
            for h in range(len(houses.cells)):
                assert houses.open_cells(state, h, placed) == houses.open_cells(state, h)
                checked += 1
        # and the memory is real: every placed cell it holds is placed in the last state
        assert all(houses.placed(state, v) for v in placed)
    assert checked > 100


@pytest.mark.parametrize(("family_name", "size", "options"), CASES)
def test_houses_are_shared_by_models_of_one_key_and_found_by_their_cells(
    family_name, size, options
):
    """Grading a file builds a model per puzzle; their houses are built once per key, and each
    house technique finds its constraint's house by the constraint's cells."""
    family = families()[family_name]
    first, second = (family.empty_model(size, options) for _ in range(2))
    houses = houses_of(first)
    assert houses_of(second) is houses
    for ci, constraint in enumerate(second.constraints):
        if ci in houses.constraint_index:
            h = houses.constraint_index.index(ci)
            assert houses.of_cells[constraint.vars] == h
            assert houses.cells[h] == constraint.vars
    other_size = (6, 6) if size == (9, 9) else (9, 9)
    other_options = {**options, "holes": []} if "holes" in options else options
    other = family.empty_model(other_size if family_name == "sudoku" else size, other_options)
    if other.key != first.key:
        assert houses_of(other) is not houses
