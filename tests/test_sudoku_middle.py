"""The middle of the Sudoku Explainer scale: unique loops longer than a rectangle and the
BUG types, on positions written here (not taken from any collection)."""

from __future__ import annotations

import functools
import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grader.core.engine import Engine
from grader.core.model import values_of
from grader.core.technique import Context
from grader.rating.costs import choose
from grader.techniques.houses import houses_of
from rules.sudoku.exclusion import (
    _pair_ways,
    _triplet_ways,
    _ways,
    base_cells,
    cells_of,
    excluded,
)
from rules.sudoku.family import FAMILY
from rules.sudoku.techniques import BivalueGrave, UniqueRectangle, is_valid_loop, loop_bonus
from soundness import assert_sound_steps, random_partials


def cell(r: int, c: int) -> int:
    return (r - 1) * 9 + (c - 1)


# Six cells in one band: r1c1-r1c4 (row), r2c4 (column and box), r2c7 (row), r3c7, r3c1.
LOOP6 = [cell(1, 1), cell(1, 4), cell(2, 4), cell(2, 7), cell(3, 7), cell(3, 1)]
SOLUTION = [0] * 81  # a placeholder solution: the techniques only need to know "unique"


def engine_for(model, names: str) -> Engine:
    return Engine(model, choose(FAMILY, model, names), solutions=[SOLUTION])


def test_a_loop_is_valid_when_every_house_holds_two_of_its_cells_of_either_parity():
    model = FAMILY.empty_model((9, 9), {})
    houses = houses_of(model)
    assert is_valid_loop(houses, [cell(1, 1), cell(1, 4), cell(2, 4), cell(2, 1)])
    # a rectangle over four boxes is no deadly pattern: each box holds one corner
    assert not is_valid_loop(houses, [cell(1, 1), cell(1, 5), cell(4, 5), cell(4, 1)])
    assert is_valid_loop(houses, LOOP6)
    # the same cells in another order cross a box at two cells of one parity
    assert not is_valid_loop(houses, [LOOP6[0], LOOP6[2], LOOP6[1], *LOOP6[3:]])
    # rows and columns paired, boxes not: no swap is possible
    wide = [cell(1, 1), cell(1, 4), cell(4, 4), cell(4, 7), cell(7, 7), cell(7, 1)]
    assert not is_valid_loop(houses, wide)
    assert [loop_bonus(n) for n in (4, 6, 8, 10, 12)] == [0.0, 0.1, 0.2, 0.5, 0.5]


def test_a_six_cell_unique_loop_type_1_is_rated_4_6():
    """Six cells on {1, 2}, one with a 3 as well: that cell must be the 3 (else the 1s and 2s
    could swap around the loop). Sudoku Explainer rates a 6-cell loop 4.6."""
    model = FAMILY.empty_model((9, 9), {})
    state = [0b111111110] * 81  # no other cell can hold a 1: the loop is the only pattern
    pair = 0b11
    for var in LOOP6:
        state[var] = pair
    state[LOOP6[3]] = pair | 0b100
    engine = engine_for(model, "unique-rectangle")
    (technique,) = engine.techniques
    assert isinstance(technique, UniqueRectangle)
    (step,) = technique.find(Context(model, state, engine))
    assert step.data["type"] == 1 and len(step.data["cells"]) == 6
    assert sorted(step.eliminations) == [(LOOP6[3], 0), (LOOP6[3], 1)]
    assert step.cost == 4.6
    # without knowing the puzzle unique, nothing is claimed
    blind = Engine(model, [technique])
    assert list(technique.find(Context(model, state, blind))) == []


def rectangle_grave(model, extra: dict[int, int]) -> list[int]:
    """Every cell decided but a rectangle over two boxes on {1, 2} (a grave: each value twice in
    each house), with ``extra`` candidates (cell -> mask) added: the pattern alone, as the BUG
    reads it (the techniques are told the puzzle is unique)."""
    state = [1 << 8] * 81
    for var in (cell(1, 1), cell(1, 4), cell(2, 1), cell(2, 4)):
        state[var] = 0b11 | extra.get(var, 0)
    return state


def test_bug_type_1_places_the_extra_value_at_5_6():
    model = FAMILY.empty_model((9, 9), {})
    engine = engine_for(model, "bug")
    (technique,) = engine.techniques
    assert isinstance(technique, BivalueGrave)
    state = rectangle_grave(model, {cell(2, 4): 1 << 5})
    (step,) = technique.find(Context(model, state, engine))
    assert step.data["type"] == 1 and step.placements == ((cell(2, 4), 5),)
    assert step.cost == 5.6


def test_no_bug_when_an_extra_value_leaves_no_grave():
    """Two cells with a third candidate each, in no common house with a cell that could lose
    it: nothing to conclude (types 2 and 3 need such cells, type 4 one common value)."""
    model = FAMILY.empty_model((9, 9), {})
    engine = engine_for(model, "bug")
    (technique,) = engine.techniques
    state = rectangle_grave(model, {cell(1, 1): 1 << 2, cell(2, 4): 1 << 3})
    assert list(technique.find(Context(model, state, engine))) == []


def test_aligned_pair_exclusion_removes_a_value_every_way_of_filling_forbids():
    """r1c1 {1,3} and r2c4 {2,3} both see r1c5 {1,2} and r2c2 {1,3}. With r1c1 = 1, r2c4 = 2
    empties r1c5 and r2c4 = 3 empties r2c2: r1c1 cannot be 1 (SE's aligned pair exclusion, 6.2)."""
    model = FAMILY.empty_model((9, 9), {})
    state = [0b111111000] * 81  # no other cell holds 1, 2 or 3
    state[cell(1, 1)] = 0b101
    state[cell(2, 4)] = 0b110
    state[cell(1, 5)] = 0b011
    state[cell(2, 2)] = 0b101
    engine = Engine(model, choose(FAMILY, model, "aligned-pair-exclusion"))
    (technique,) = engine.techniques
    (step,) = technique.find(Context(model, state, engine))
    assert step.eliminations == ((cell(1, 1), 0),)
    assert step.cost == 6.2
    assert set(step.data["excluders"]) >= {cell(1, 5), cell(2, 2)}


def test_aligned_exclusions_never_remove_a_solution_value():
    """Random partial grids of random solutions: every aligned pair and triplet exclusion (with
    the singles between them) is checked against the exact search, and some do fire."""
    model = FAMILY.empty_model((9, 9), {})
    names = (
        "full-house,hidden-single-box,hidden-single-line,naked-single,"
        "aligned-pair-exclusion,aligned-triplet-exclusion"
    )
    rng = random.Random(11)
    fired = 0
    for _ in range(8):
        for partial, state, _ in random_partials(FAMILY, model, rng, 4):
            steps = assert_sound_steps(partial, state, choose(FAMILY, partial, names))
            fired += sum(s.technique.startswith("aligned") for s in steps)
    assert fired > 0


def _aligned_steps(technique, model, state, engine) -> list[tuple]:
    return [
        (s.eliminations, s.data["cells"], s.data["excluders"])
        for s in technique.find(Context(model, list(state), engine))
    ]


def cross_out_wrong(state: list[int], solution: list[int], rng: random.Random) -> None:
    """Cross out one to six random candidates that are not the solution's (in place)."""
    wrong = [
        (var, x) for var, mask in enumerate(state) for x in values_of(mask) if x != solution[var]
    ]
    for var, x in rng.sample(wrong, min(len(wrong), rng.randint(1, 6))):
        state[var] &= ~(1 << x)


@pytest.mark.parametrize("name", ["aligned-pair-exclusion", "aligned-triplet-exclusion"])
def test_aligned_exclusion_after_a_clear_grid_finds_what_a_fresh_search_finds(name):
    """The search looks again only at groups whose cells, excluders or excluders' candidates
    changed since the last grid on which it found nothing: along random elimination sequences
    (and jumps between unrelated grids) it finds the same step as a search that remembers
    nothing, and the remembered grid does come into play."""
    model = FAMILY.empty_model((9, 9), {})
    engine = Engine(model, choose(FAMILY, model, name))
    (technique,) = engine.techniques
    rng = random.Random(5)
    fired = after_clear = 0
    for _ in range(12):
        for _partial, start, solution in random_partials(FAMILY, model, rng, 3):
            state = list(start)
            for _ in range(14):
                clear = model.memo.get(("aligned-clear", technique.degree))
                remembered = dict(model.memo)
                model.memo.clear()
                fresh = _aligned_steps(technique, model, state, engine)
                model.memo.clear()
                model.memo.update(remembered)
                assert _aligned_steps(technique, model, state, engine) == fresh
                fired += bool(fresh)
                after_clear += bool(fresh) and clear is not None
                cross_out_wrong(state, solution, rng)
    assert after_clear >= 5


def _first_exclusion_in_order(houses, state, degree: int) -> list[tuple]:
    """The aligned exclusion the definition meets first: base cells a < b in order with two
    or more common excluders, then (triplets) a third base cell among their excluders, in order,
    sharing two or more of those."""
    bases = base_cells(houses, state, degree)
    for a, b in combinations(bases, 2):
        common = bases[a] & bases[b]
        if common.bit_count() < 2:
            continue
        groups = [((a, b), common)]
        if degree == 3:
            groups = [
                ((a, b, c), common & bases[c])
                for c in bases
                if c not in (a, b)
                and (bases[a] | bases[b]) >> c & 1
                and (common & bases[c]).bit_count() >= 2
            ]
        for cells, shared in groups:
            elims = excluded(houses, state, cells, shared)
            if elims:
                return [(tuple(elims), cells, tuple(cells_of(shared)))]
    return []


@pytest.mark.parametrize("name", ["aligned-pair-exclusion", "aligned-triplet-exclusion"])
def test_aligned_exclusion_finds_the_first_group_in_order(name):
    """The search reaches a base cell's partners through the peers of its excluders instead of
    trying every pair: on random grids it finds the same exclusion, and the same first one, as
    trying every pair and third cell in order."""
    model = FAMILY.empty_model((9, 9), {})
    houses = houses_of(model)
    engine = Engine(model, choose(FAMILY, model, name))
    (technique,) = engine.techniques
    rng = random.Random(17)
    fired = 0
    for _ in range(10):
        for _partial, start, solution in random_partials(FAMILY, model, rng, 3):
            state = list(start)
            for _ in range(10):
                model.memo.clear()
                expected = _first_exclusion_in_order(houses, state, technique.degree)
                assert _aligned_steps(technique, model, state, engine)[:1] == expected
                fired += bool(expected)
                cross_out_wrong(state, solution, rng)
    assert fired >= 5


def test_aligned_exclusion_looks_again_at_a_cell_a_placed_single_frees():
    """The grid of the pair exclusion above gives nothing while r2c1 = 9 and r5c5 = 8 wait to
    be placed (their peers still hold 9 and 8): no cell that sees one is a base cell. Once
    r2c1 is placed (9 crossed out of its peers, none of them a base cell or an excluder),
    r1c1, r2c2 and r2c4 are base cells with the same candidates and excluders as before, and
    the exclusion is found."""
    model = FAMILY.empty_model((9, 9), {})
    state = [0b111111000] * 81
    state[cell(1, 1)] = 0b101
    state[cell(2, 4)] = 0b110
    state[cell(1, 5)] = 0b011
    state[cell(2, 2)] = 0b101
    state[cell(2, 1)] = 1 << 8
    state[cell(5, 5)] = 1 << 7
    engine = Engine(model, choose(FAMILY, model, "aligned-pair-exclusion"))
    (technique,) = engine.techniques
    assert _aligned_steps(technique, model, state, engine) == []
    for peer in houses_of(model).peers[cell(2, 1)]:
        state[peer] &= ~(1 << 8)
    ((eliminations, _, _),) = _aligned_steps(technique, model, state, engine)
    assert eliminations == ((cell(1, 1), 0),)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.integers(1, 31).filter(lambda m: m & (m - 1)), min_size=3, max_size=3),
    st.sets(st.sampled_from([(0, 1), (0, 2), (1, 2)])),
    st.lists(st.integers(3, 31).filter(lambda m: 2 <= m.bit_count() <= 3), min_size=0, max_size=4),
)
def test_the_triplet_enumeration_finds_the_ways_the_general_one_finds(full, seeing, covers):
    """Aligned triplet exclusion's loop (excluders' candidate sets looked up, pairs cut early)
    keeps the same values of the base cells as trying every combination in turn."""
    seeing = sorted(seeing)
    assert _triplet_ways(full, seeing, set(covers)) == _ways(full, seeing, covers)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.integers(1, 511).filter(lambda m: m & (m - 1)), min_size=2, max_size=2),
    st.booleans(),
    st.lists(st.integers(3, 511).filter(lambda m: 2 <= m.bit_count() <= 3), max_size=5),
)
def test_the_pair_enumeration_finds_the_ways_the_general_one_finds(full, seeing, masks):
    """Aligned pair exclusion's loop (a value of the first cell at a time, the second's values
    as a bitset) keeps the same values as trying every combination in turn."""
    union = full[0] | full[1]
    masks = [m for m in masks if not m & ~union]  # excluders within the base cells' values
    expected = _ways(full, [(0, 1)] if seeing else [], masks)
    assert _pair_ways(full[0], full[1], seeing, masks) == expected


def _first_loops(houses, state, loops_through) -> dict:
    """Per (cells, pair), the loop met first when every cell of just two candidates is tried
    as a start in order (as UniqueRectangle.find meets them)."""
    first: dict = {}
    for start, mask in enumerate(state):
        if mask.bit_count() != 2:
            continue
        fits = [[v for v in cells if state[v] & mask == mask] for cells in houses.cells]
        for loop in loops_through(start, mask, fits):
            first.setdefault((frozenset(loop), mask), loop)
    return first


def _planted_loops(rng: random.Random, count: int) -> list[int]:
    """A grid whose only cells holding 1 and 2 (or 2 and 3) are the corners of ``count``
    random rectangles over two boxes, some corners with an extra candidate: rectangles
    sharing cells make longer loops."""
    state = [0b111111100] * 81
    for _ in range(count):
        band = rng.randrange(3)
        rows = rng.sample(range(band * 3, band * 3 + 3), 2)
        c1 = rng.randrange(9)
        c2 = rng.choice([c for c in range(9) if c // 3 != c1 // 3])
        pair = rng.choice([0b11, 0b11, 0b110])
        for r in rows:
            for c in (c1, c2):
                mask = pair | (1 << rng.randrange(3, 9) if rng.random() < 0.3 else 0)
                var = r * 9 + c
                state[var] = mask if state[var] == 0b111111100 else state[var] | mask
    return state


@pytest.mark.parametrize("seed", [1, 5, 13, 17, 22, 31])
def test_unique_loops_are_met_first_as_the_search_through_every_cell_meets_them(seed):
    """The unique loops' search skips cells of just the pair before its start (their loops
    were met from them): every loop is still met, first in the same order of its cells, as
    by the search through every cell."""
    houses = houses_of(FAMILY.empty_model((9, 9), {}))
    state = _planted_loops(random.Random(seed), 8)
    technique = UniqueRectangle(4.5)

    def skipping(start, pm, fits):
        return technique.loops(houses, state, start, pm, fits, skip_before=start)

    expected = _first_loops(houses, state, functools.partial(technique.loops, houses, state))
    found = _first_loops(houses, state, skipping)
    assert len(expected) >= 9
    assert any(len(loop) > 4 for loop in expected.values())
    assert found == expected
