"""House techniques on partial houses: siteswap runs cut by holes (``latin``) and boxes with
fewer cells than throws hold only some values, so a value need not appear in them. Fish, hidden
singles and subsets, locked candidates and wings must stay sound there (checked against the SAT
solver), and the two grids of issue 13 grade without error or false removal."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from conftest import make
from grader.rating.costs import choose
from grader.rating.grading import GradeOptions, grade
from grader.techniques.fish import Fish
from grader.techniques.houses import houses_of
from rules.siteswap.family import FAMILY
from soundness import assert_sound_run, assert_sound_steps, random_partials

# The grids of issue 13: a hole at r1c1 leaves row 1 and column 1 partial.
FISH_GRID = {
    "family": "siteswap",
    "size": [7, 7],
    "rules": {"latin": True, "throws": [1, 7]},
    "grid": [" 736.51", "5..7362", ".3.....", ".5..7.6", "...1...", ".6251.7", ".4.3..."],
}
INDEX_ERROR_GRID = {
    "family": "siteswap",
    "size": [7, 7],
    "rules": {"latin": True, "throws": [1, 7]},
    "grid": [" ....2.", "....2..", ".......", "..45...", ".7.....", ".......", "......."],
}

# Boards whose houses do not all hold every value.
PARTIAL_CASES = [
    ((7, 7), {"latin": True, "throws": [1, 7], "holes": [[0, 0]]}),  # row 1, column 1 partial
    ((5, 5), {"latin": True, "throws": [1, 5], "holes": [[2, 2]]}),  # row 3, column 3 cut in two
    ((5, 5), {"latin": True, "throws": [1, 5], "holes": [[1, 2]]}),
    ((4, 4), {"latin": True, "boxes": [2, 2], "throws": [1, 7]}),  # 4-cell lines and boxes
    ((4, 4), {"boxes": [2, 2], "throws": [1, 5]}),  # partial boxes without latin lines
]

NEEDS_A_VALUE = {
    "full-house",
    "hidden-single-box",
    "hidden-single-line",
    "direct-pointing",
    "direct-claiming",
    "direct-hidden-pair",
    "direct-hidden-triple",
    "pointing",
    "claiming",
    "hidden-pair",
    "hidden-triple",
    "x-wing",
    "swordfish",
    "jellyfish",
}
"""Techniques that reason about where a value must go: never on a board whose houses hold
only some of the values."""

HOUSE_TECHNIQUES = (
    "full-house,hidden-single-box,hidden-single-line,direct-pointing,direct-claiming,"
    "direct-hidden-pair,naked-single,direct-hidden-triple,pointing,claiming,naked-pair,x-wing,"
    "hidden-pair,naked-triple,swordfish,hidden-triple,xy-wing,xyz-wing"
)


def test_x_wing_keeps_the_givens_of_the_grid_with_a_hole():
    """Issue 13: x-wing removed the given r1c7 = 1 (reported ``invalid``)."""
    puzzle = make(FISH_GRID)
    techniques = choose(puzzle.family, puzzle.model, "naked-single,x-wing,swordfish")
    assert_sound_run(puzzle, techniques)
    result = grade(puzzle, GradeOptions(techniques="naked-single,x-wing,swordfish"))
    assert result.solutions == 1
    assert result.level != "invalid" and result.run.status != "contradiction"


def test_grid_that_raised_index_error_grades_and_solves():
    """Issue 13: plain ``grade`` exited 1 with IndexError in the fish."""
    puzzle = make(INDEX_ERROR_GRID)
    result = grade(puzzle)
    assert result.solutions == 1 and result.solved
    assert "x-wing" in result.technique_counts()  # the fish ran, and on a partial board
    assert_sound_run(puzzle, choose(puzzle.family, puzzle.model))


@pytest.mark.parametrize("case", range(len(PARTIAL_CASES)))
def test_house_techniques_are_sound_on_partial_houses(case):
    """Only the house techniques (so that they, not the siteswap ones, do the work), on random
    partial states of boards with partial houses; every removal checked by the SAT solver."""
    size, options = PARTIAL_CASES[case]
    template = FAMILY.empty_model(size, options)
    rng = random.Random(f"partial:{case}")
    used: Counter[str] = Counter()
    checked = 0
    while checked < 16:
        for model, state, _ in random_partials(FAMILY, template, rng, 8):
            techniques = choose(FAMILY, model, HOUSE_TECHNIQUES)
            techniques.append(Fish(5.2, "hard", degree=4))
            used.update(s.technique for s in assert_sound_steps(model, state, techniques))
            checked += 1
    assert used  # the house techniques did the work
    if not any(houses_of(template).covers):  # no house must hold any value
        assert not used.keys() & NEEDS_A_VALUE, used


def test_fish_finds_steps_on_partial_lines_and_all_are_sound():
    """Across random partial states of latin boards with holes, x-wings and swordfish fire
    (so the check below checked something) and never remove a value of a solution."""
    fish = 0
    for case in (0, 1):
        size, options = PARTIAL_CASES[case]
        template = FAMILY.empty_model(size, options)
        rng = random.Random(f"fish:{case}")
        for _ in range(3):
            for model, state, _ in random_partials(FAMILY, template, rng, 8):
                techniques = choose(FAMILY, model, "naked-single,x-wing,swordfish")
                steps = assert_sound_steps(model, state, techniques)
                fish += sum(s.technique in ("x-wing", "swordfish") for s in steps)
    assert fish >= 5, fish
