"""Tango's sign patterns (an = pair beside a symbol, counts with x or = pairs): sound against the
exact search, special cases of line enumeration, the same on a mirrored line, explained in
plain words, and placed in the table by their cost."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grader.core.engine import Engine, apply_step
from grader.core.explain import Explainer
from grader.core.technique import Context
from grader.rating.costs import choose
from grader.rating.loading import puzzle_from_dict
from grader.rating.registry import families
from soundness import assert_sound_steps, random_partials

SIGN_PATTERNS = ("equal-pair", "opposite-pair-count", "equal-pair-count")


def tango(grid: list[str], signs: list[list]):
    data = {"family": "tango", "size": [len(grid), len(grid[0])], "grid": grid, "signs": signs}
    return puzzle_from_dict(data, "test", "t")


def steps_of(puzzle, name: str):
    """The steps ``name`` finds on the puzzle's givens, alone."""
    (technique,) = choose(puzzle.family, puzzle.model, name)
    return find_all(technique, puzzle.model, list(puzzle.givens))


def find_all(technique, model, state) -> list:
    """Every step the local technique finds in the lines of ``state``, row 1 first."""
    ctx = Context(model, state, Engine(model, [technique]))
    return [
        step
        for constraint in model.constraints
        if technique.applies_to(constraint, model)
        for step in technique.find_in(ctx, constraint)
    ]


def placed(puzzle, steps) -> set[tuple[str, str]]:
    model = puzzle.model
    return {(model.name(v), model.symbol(x)) for step in steps for v, x in step.placements}


@pytest.mark.parametrize("size", [(6, 6), (8, 8)])
@pytest.mark.parametrize("name", SIGN_PATTERNS)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_sign_patterns_never_remove_a_solution_value(name, size, seed):
    """Alone on random partial Tangos (so they fire where cheaper rules would have), every value
    they remove is one no solution of the state has, and every placement is one all the line's
    valid completions share (line enumeration finds it too)."""
    family = families()["tango"]
    template = family.empty_model(size, {})
    for model, state, _solution in random_partials(family, template, random.Random(seed), 3):
        (technique,) = choose(family, model, name)
        current = list(state)
        for step in assert_sound_steps(model, state, [technique]):
            line = next(c for c in model.constraints if c.label == step.data["unit"])
            supports = line.supports(current)
            for var, value in step.placements:
                assert supports[line.vars.index(var)] == 1 << value, (step, current)
            apply_step(current, step)


@pytest.mark.parametrize("name", SIGN_PATTERNS)
def test_each_sign_pattern_fires_on_random_tangos(name):
    """The property test above is not empty: each pattern concludes on some of 60 random
    partial Tangos."""
    family = families()["tango"]
    template = family.empty_model((6, 6), {})
    rng = random.Random(5)
    found = 0
    for model, state, _solution in random_partials(family, template, rng, 60):
        (technique,) = choose(family, model, name)
        found += bool(find_all(technique, model, state))
    assert found >= 3


def test_an_equal_pair_beside_a_sun_takes_moons():
    puzzle = tango(["...S..", *["......"] * 5], [[0, 1, 0, 2, "="]])
    steps = steps_of(puzzle, "equal-pair")
    assert placed(puzzle, steps) == {("r1c2", "M"), ("r1c3", "M")}
    text = Explainer(puzzle.model, choose(puzzle.family, puzzle.model)).text(steps[0])
    assert "the = sign joins r1c2 and r1c3, beside r1c4 = S" in text, text
    assert "three in a row" in text, text


def test_x_pairs_count_one_of_each():
    """Row 1: a sun, and two x pairs each holding one: its three suns are there, so r1c6 is a
    moon."""
    puzzle = tango(["S.....", *["......"] * 5], [[0, 1, 0, 2, "x"], [0, 3, 0, 4, "x"]])
    steps = steps_of(puzzle, "opposite-pair-count")
    assert placed(puzzle, steps) == {("r1c6", "M")}
    text = Explainer(puzzle.model, choose(puzzle.family, puzzle.model)).text(steps[0])
    assert "row 1 holds its three suns, counting one in each x pair" in text, text


def test_an_odd_x_chain_takes_its_pattern_with_fewer():
    """Row 1 holds two moons; the x chain r1c2-r1c4 holds at least one: its three moons are
    there, so the chain is S M S and r1c5 a sun."""
    puzzle = tango(["M....M", *["......"] * 5], [[0, 1, 0, 2, "x"], [0, 2, 0, 3, "x"]])
    steps = steps_of(puzzle, "opposite-pair-count")
    assert placed(puzzle, steps) == {("r1c2", "S"), ("r1c3", "M"), ("r1c4", "S"), ("r1c5", "S")}
    text = Explainer(puzzle.model, choose(puzzle.family, puzzle.model)).text(steps[0])
    assert "the x chain r1c2, r1c3 and r1c4 alternates and can hold only one moon, at r1c3" in text


def test_an_equal_pair_cannot_take_the_last_one():
    puzzle = tango(["S.S...", *["......"] * 5], [[0, 4, 0, 5, "="]])
    steps = steps_of(puzzle, "equal-pair-count")
    assert placed(puzzle, steps) == {("r1c5", "M"), ("r1c6", "M")}
    text = Explainer(puzzle.model, choose(puzzle.family, puzzle.model)).text(steps[0])
    assert (
        "row 1 lacks only one sun, so the = pair r1c5 and r1c6 cannot both be suns: both are moons"
        in text
    )


def test_every_equal_pair_of_a_line_lacking_one_is_found():
    """Row 1 of an 8x8 lacks one sun and has two = pairs: both take moons (r1c8 is then the
    last sun)."""
    puzzle = tango(["S..S..S.", *["........"] * 7], [[0, 1, 0, 2, "="], [0, 4, 0, 5, "="]])
    steps = steps_of(puzzle, "equal-pair-count")
    assert placed(puzzle, steps) == {("r1c2", "M"), ("r1c3", "M"), ("r1c5", "M"), ("r1c6", "M")}
    assert len(steps) == 2


def test_an_equal_pair_between_two_suns_is_one_step_naming_both():
    puzzle = tango(["S..S..", *["......"] * 5], [[0, 1, 0, 2, "="]])
    steps = steps_of(puzzle, "equal-pair")
    assert len(steps) == 1 and placed(puzzle, steps) == {("r1c2", "M"), ("r1c3", "M")}
    text = Explainer(puzzle.model, choose(puzzle.family, puzzle.model)).text(steps[0])
    assert "beside r1c1 and r1c4, both suns: two more suns there" in text, text


@pytest.mark.parametrize("name", SIGN_PATTERNS)
def test_a_mirrored_line_gives_the_mirrored_placements(name):
    """What a pattern places on random partial Tangos, mirrored left to right, is the mirror of
    what it places on the originals (no reading direction is preferred)."""
    family = families()["tango"]
    template = family.empty_model((6, 6), {})
    rng = random.Random(11)
    for model, state, _solution in random_partials(family, template, rng, 40):
        signs = [list(s) for s in model.options["signs"]]
        grid = [
            "".join(
                model.symbol(state[r * 6 + c].bit_length() - 1)
                if state[r * 6 + c] in (1, 2)
                else "."
                for c in range(6)
            )
            for r in range(6)
        ]
        original = tango(grid, signs)
        mirror = tango(
            [row[::-1] for row in grid],
            [sorted_sign(r1, 5 - c1, r2, 5 - c2, s) for r1, c1, r2, c2, s in signs],
        )
        flip = {f"r{r}c{c}": f"r{r}c{7 - c}" for r in range(1, 7) for c in range(1, 7)}
        expected = {(flip[cell], x) for cell, x in placed(original, steps_of(original, name))}
        assert placed(mirror, steps_of(mirror, name)) == expected


def sorted_sign(r1: int, c1: int, r2: int, c2: int, sign: str) -> list:
    return [r1, c1, r2, c2, sign] if (r1, c1) < (r2, c2) else [r2, c2, r1, c1, sign]


def test_the_sign_patterns_sit_by_cost_in_tangos_table():
    """Each pattern half a point above the sign-free rule it extends, in cost order."""
    puzzle = tango(["......"] * 6, [])
    table = choose(puzzle.family, puzzle.model)
    costs = {t.name: t.cost for t in table}
    assert costs["equal-pair"] == costs["pair"] + 0.5
    assert (
        costs["opposite-pair-count"] == costs["equal-pair-count"] == costs["count-completion"] + 0.5
    )
    spec_costs = [spec.cost for spec in puzzle.family.technique_table(puzzle.model)]
    assert spec_costs == sorted(spec_costs)  # the table reads in the order it is used
