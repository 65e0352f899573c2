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
