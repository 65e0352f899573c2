"""Reduction keeps untested the givens the puzzle needs to stay unique, and makes the same
puzzles as when it tested them: on every family, inserted hints of seeded attempts."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from grader.core.exact import count_solutions, search_for
from grader.core.model import is_single
from grader.generation.generator import DeducibleHints, Generator, Request

CASES = [
    ("binairo", (6, 6), "normal", {}),
    ("binairo", (6, 6), "hard", {"unique_lines": True}),
    ("tango", (6, 6), "hard", {}),
    ("sudoku", (9, 9), "normal", {}),
    ("sudoku", (6, 6), "trivial", {}),
    ("siteswap", (3, 4), "trivial", {}),
    ("siteswap", (4, 4), "trivial", {"latin": True}),
    ("pairplace", (6, 6), "easy", {}),
    ("path", (5, 5), "easy", {}),
]


def inserted(case: tuple, seed: int) -> DeducibleHints | None:
    """The hints of an attempt (as :meth:`Generator.attempt` draws them) after insertion."""
    family_name, size, level, options = case
    generator = Generator(Request(family_name, size, level, seed=seed, options=options))
    family, rng = generator.family, random.Random(f"{seed}:0:0")
    solution = family.random_solution(generator.template, rng)
    template, solution = family.solution_model(generator.template, solution)
    extras = sorted(family.extra_hints(template, solution))
    hints = DeducibleHints(generator, solution, extras, rng, template)
    return hints if hints.insert() else None


def case_id(case: tuple) -> str:
    family, (rows, cols), level, options = case
    return f"{family}-{rows}x{cols}-{level}" + "".join(f"-{key}" for key in options)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_needed_cells_are_those_whose_removal_leaves_another_solution(case: tuple) -> None:
    checked = 0
    for seed in range(3):
        hints = inserted(case, seed)
        if hints is None:
            continue
        needed = search_for(hints.model).needed_givens(hints.givens)  # no budget: every one
        assert hints.needed_cells() <= needed  # what reduction asks, within its budget
        if not hints.family.cell_hints:  # path: every hint is a clue, no cell is given
            assert needed == set()
            checked += 1
            continue
        for var, mask in enumerate(hints.givens):
            if not is_single(mask):
                continue
            without = list(hints.givens)
            without[var] = hints.model.variables[var].domain
            several = count_solutions(hints.model, without)[0] > 1
            assert (var in needed) == several, (case, seed, var)
            checked += 1
    assert checked, "no attempt inserted hints"


def reduced(case: tuple, seed: int, needed: Callable[[DeducibleHints], set[int]] | None):
    """The hints of an attempt after reduction, whose needed cells ``needed`` gives (None:
    reduction's own)."""
    with pytest.MonkeyPatch.context() as patch:
        if needed is not None:
            patch.setattr(DeducibleHints, "needed_cells", needed)
        hints = inserted(case, seed)
        if hints is not None:
            hints.reduce()
        return hints


def every_needed(hints: DeducibleHints) -> set[int]:
    return search_for(hints.model).needed_givens(hints.givens)


def some_needed(hints: DeducibleHints) -> set[int]:
    """A random half of the needed cells: a budget may stop the exact search anywhere."""
    found = sorted(every_needed(hints))
    return set(random.Random(len(found)).sample(found, len(found) // 2))


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_reduction_makes_the_same_puzzle_with_any_share_of_the_needed_cells(case: tuple) -> None:
    made = 0
    for seed in range(3):
        tested = reduced(case, seed, lambda hints: set())  # every given tested, as before
        if tested is None:
            continue
        for needed in (None, every_needed, some_needed):
            hints = reduced(case, seed, needed)
            assert hints is not None
            assert hints.givens == tested.givens, (case, seed, needed)
            assert hints.chosen == tested.chosen, (case, seed, needed)
        made += 1
    assert made, "no attempt inserted hints"
