"""The house techniques' quick paths give what plain counts and fresh looks give.

Hidden subsets test a house first (``HiddenSubset.may_hold``: enough open cells, and k values
with 2 to k places) and search only past that test; a full house remembers, for the run, the
houses whose every cell is placed. Both are held here to plain answers on random Sudoku
states of several box shapes. A whole wave (``wave_in``, one loop over the pending houses with
the quick rejects inline) is held to the houses asked one by one.
"""

from __future__ import annotations

import random

import pytest

from conftest import make, random_solution
from grader.core.engine import Engine
from grader.core.model import is_single, values_of
from grader.core.technique import Context
from grader.rating.costs import choose
from grader.rating.family import Puzzle
from grader.techniques.houses import FullHouse, HiddenSubset, houses_of, open_in

SHAPES = ((4, None), (6, None), (9, None), (8, (2, 4)))
"""Grid sizes and box shapes (None: the family's default)."""


def grid(size: int, box: tuple[int, int] | None, rng: random.Random, share: float):
    """An empty puzzle of that shape and a state holding ``share`` of a random solution, the
    other cells' candidates thinned at random (the solution's value always kept)."""
    data: dict = {"family": "sudoku", "grid": ["." * size] * size}
    if box:
        data["box"] = list(box)
    puzzle = make(data)
    solution = random_solution(puzzle, rng)
    state = []
    for var, mask in enumerate(puzzle.givens):
        if rng.random() < share:
            state.append(1 << solution[var])
        else:
            keep = [x for x in values_of(mask) if x == solution[var] or rng.random() < 0.6]
            state.append(sum(1 << x for x in keep))
    return puzzle, state


@pytest.mark.parametrize(("size", "box"), SHAPES)
def test_the_hidden_subsets_quick_test_counts_places_as_a_plain_count(size, box):
    """``may_hold`` (bitset counts, unrolled up to quads) says yes exactly when the house has
    more open cells than the technique skips (k, or 2k when not direct: the naked subset of
    the rest is cheaper) and at least k values it must hold have 2 to k places among them,
    counted one by one; and ``steps_in`` gives what ``find_in`` gives."""
    rng = random.Random(f"hidden:{size}")
    answers = set()
    for trial in range(40):
        puzzle, state = grid(size, box, rng, rng.uniform(0.1, 0.7))
        model = puzzle.model
        houses = houses_of(model)
        for degree in range(1, 6):
            for direct in (False, True):
                technique = HiddenSubset(4.0, degree=degree, direct=direct)
                engine = Engine(model, [technique])
                for constraint in model.constraints:
                    if not technique.applies_to(constraint, model):
                        continue
                    ctx = Context(model, list(state), engine)
                    h = technique.house(ctx, constraint)
                    cells = open_in(ctx, houses, h)
                    must = houses.covers[h]
                    places = [sum(state[v] >> x & 1 for v in cells) for x in values_of(must)]
                    fit = sum(1 for n in places if 2 <= n <= degree)
                    enough = len(cells) > (degree if direct else 2 * degree)
                    said = technique.may_hold(ctx.state, cells, must)
                    assert said == (enough and fit >= degree), (trial, degree, direct)
                    answers.add(said)
                    fresh = Context(model, list(state), engine)
                    assert technique.steps_in(ctx, constraint) == list(
                        technique.find_in(fresh, constraint)
                    )
    assert answers == {True, False}


@pytest.mark.parametrize(("size", "box"), SHAPES)
def test_a_full_house_remembered_complete_answers_as_a_fresh_look(size, box):
    """Along runs of the singles (one context each), a full house asked with the run's
    context, which remembers the houses found complete, gives what a fresh context gives."""
    rng = random.Random(f"full:{size}")
    remembered = 0
    for _ in range(6):
        puzzle, _state = grid(size, box, rng, 0.0)
        model = puzzle.model
        solution = random_solution(puzzle, rng)
        shown = rng.sample(range(size * size), size * size // 2)
        start = list(puzzle.givens)
        for var in shown:
            start[var] = 1 << solution[var]
        techniques = [t for t in choose(puzzle.family, model) if t.cost < 2.5]
        full_house = next(t for t in techniques if isinstance(t, FullHouse))
        engine = Engine(model, techniques, solutions=[solution])
        run = engine.run(start)
        ctx = Context(model, list(start), engine)
        houses = [c for c in model.constraints if full_house.applies_to(c, model)]
        for step in run.steps:  # the run's states, one step at a time
            for var, value in step.placements:
                ctx.state[var] = 1 << value
            for var, value in step.eliminations:
                ctx.state[var] &= ~(1 << value)
            for constraint in houses:
                fresh = Context(model, list(ctx.state), engine)
                fresh.lasting["placed"] = set(ctx.lasting.get("placed", ()))
                assert full_house.steps_in(ctx, constraint) == full_house.steps_in(
                    fresh, constraint
                )
        remembered += len(ctx.lasting.get("complete houses", ()))
    assert remembered  # the memory was used


WAVE_PUZZLES = (
    *(
        {"family": "sudoku", "size": n, "box": list(box), "grid": ["." * n] * n}
        for n, box in ((4, (2, 2)), (6, (2, 3)), (9, (3, 3)))
    ),
    {  # a latin siteswap with a hole: partial houses, which need not hold every value
        "family": "siteswap",
        "size": [7, 7],
        "rules": {"latin": True, "throws": [1, 7]},
        "grid": [" 736.51", "5..7362", ".3.....", ".5..7.6", "...1...", ".6251.7", ".4.3..."],
    },
)


def random_state(puzzle: Puzzle, rng: random.Random) -> list[int]:
    """Candidates around a random solution (some cells narrowed to its value, some candidates
    it does not use removed, now and then a cell emptied), or masks drawn at random (a few
    empty)."""
    domains = [variable.domain for variable in puzzle.model.variables]
    if rng.random() < 0.25:
        return [rng.randrange(0, domain + 1) & domain for domain in domains]
    solution = random_solution(puzzle, rng)
    share, keep = rng.uniform(0.2, 1.0), rng.uniform(0.1, 0.9)
    state = []
    for value, domain in zip(solution, domains, strict=True):
        bit = 1 << value
        if rng.random() < share:
            state.append(bit)
            continue
        others = sum(1 << x for x in range(domain.bit_length()) if domain >> x & 1 and x != value)
        state.append(bit | (others & rng.randrange(0, domain + 1) if rng.random() < keep else 0))
    if rng.random() < 0.3:  # a contradiction: a house left all singles but an empty cell
        state[rng.randrange(len(state))] = 0
    return state


def random_stated(state: list[int], rng: random.Random) -> set[int] | None:
    """None (the run does not track stated cells) or some of the cells with one candidate."""
    if rng.random() < 0.5:
        return None
    return {var for var, mask in enumerate(state) if is_single(mask) and rng.random() < 0.8}


def test_a_wave_over_many_houses_finds_what_each_house_finds():
    """For every batch local technique of the Sudoku table, on random states of 4x4, 6x6 and
    9x9 Sudoku and of a latin siteswap with a hole (near a solution or random candidates;
    stated cells tracked or not), the wave over a random set of pending houses gives the steps
    of each house asked alone, in house order, and keeps pending exactly the houses that have
    steps."""
    rng = random.Random(5)
    found_any: dict[str, bool] = {}
    for data in WAVE_PUZZLES:
        puzzle = make(data)
        model = puzzle.model
        engine = Engine(model, choose(puzzle.family, model, None))
        batch = [t for t in engine.plan.techniques if t.batch and t.local]
        assert {t.name for t in batch} >= {"full-house", "hidden-pair"}
        for _ in range(150 if model.rows >= 7 else 80):
            state = random_state(puzzle, rng)
            stated = random_stated(state, rng)
            for technique in batch:
                houses = [
                    ci for ci, c in enumerate(model.constraints) if technique.applies_to(c, model)
                ]
                if not houses:
                    continue  # a line technique of the siteswap table: tested with the lines
                pending = set(rng.sample(houses, rng.randint(1, len(houses))))
                one_by_one = {
                    ci: technique.steps_in(
                        Context(model, list(state), engine, stated=stated), model.constraints[ci]
                    )
                    for ci in sorted(pending)
                }
                ctx = Context(model, list(state), engine, stated=stated)
                wave = technique.wave_in(ctx, pending, model.constraints)
                assert wave == [s for found in one_by_one.values() for s in found], technique
                assert pending == {ci for ci, found in one_by_one.items() if found}, technique
                found_any[technique.name] = found_any.get(technique.name, False) or bool(wave)
    assert all(found_any.values()), found_any  # every technique was seen finding steps
