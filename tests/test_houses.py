"""The houses' memory of placed cells: a cell found placed stays placed while the state only
narrows, so the open cells read with that memory (as every propagation reads them) must be the
open cells read afresh, on every state of a propagation, in sudokus and in latin siteswaps with
partial houses."""

from __future__ import annotations

import random

import pytest

from grader.core.engine import Engine, Plan, apply_step
from grader.rating.costs import choose
from grader.rating.registry import families
from grader.techniques.houses import FullHouse, HouseTechnique, houses_of, stated_givens
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


def _trace(run) -> tuple:
    return (
        [(s.technique, s.placements, s.eliminations) for s in run.steps],
        run.state,
        run.status,
    )


def _runs(family_name, size, options, seed, count, patched):
    """Per random partial state, with and without the stated cells grade tracks: the run of
    the house techniques as planned, and as planned with ``patched`` class attributes."""
    family = families()[family_name]
    template = family.empty_model(size, options)
    for model, start, _ in random_partials(family, template, random.Random(seed), count):
        techniques = [
            t for t in choose(family, model) if type(t).__module__ == "grader.techniques.houses"
        ]
        planned = Engine(model, techniques)
        other = Engine(model, techniques)
        with pytest.MonkeyPatch.context() as patch:
            for cls, value in patched:
                patch.setattr(cls, "reads_peers", value)
            other.plan = Plan.build(model, list(planned.techniques))
        assert other.plan.watchers != planned.plan.watchers
        for stated in (None, stated_givens(model, start)):
            yield _trace(planned.run(start, stated=stated)), _trace(other.run(start, stated=stated))


@pytest.mark.parametrize(("family_name", "size", "options"), CASES)
def test_house_techniques_rescanned_on_their_own_cells_find_what_peer_rescans_find(
    family_name, size, options
):
    """Hidden singles and subsets and naked subsets are rescanned only when a cell of their
    house changes (``HouseTechnique.reads_peers``): every run takes the same steps in the same
    order as when a peer's change rescans them too, with and without the stated cells."""
    pairs = list(_runs(family_name, size, options, 11, 16, [(HouseTechnique, True)]))
    assert len(pairs) == 32
    for planned, rescanning_peers in pairs:
        assert planned == rescanning_peers


def test_a_full_house_rescanned_only_on_its_own_cells_can_be_missed():
    """A full house does read its peers (their change can leave a house one open cell): these
    runs tell, as some run then takes other steps."""
    pairs = list(_runs("sudoku", (9, 9), {}, 11, 16, [(FullHouse, False)]))
    assert any(planned != blind for planned, blind in pairs)
