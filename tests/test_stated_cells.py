"""Every cell a sudoku solve fills is placed by a step the reader sees.

A cell that the givens or eliminations leave with one candidate that no peer still holds was
once taken as placed without a step: the trace never said "r5c5 = 6", and a picture drew the
value before any step had placed it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_cli import run

from conftest import EXAMPLES
from grader.core.engine import Engine
from grader.core.model import is_single
from grader.core.step import Step
from grader.core.technique import Technique
from grader.generation.generator import Request, generate
from grader.output.render import stated_before, states_before, step_board
from grader.rating.costs import choose
from grader.rating.grading import GradeOptions, as_puzzle, grade, shown_state, stated_at_start
from grader.rating.loading import load
from grader.rating.registry import families

SOLVED = [
    "534678912",
    "672195348",
    "198342567",
    "859761423",
    "426853791",
    "713924856",
    "961537284",
    "287419635",
    "345286179",
]


def blanked(cells: list[tuple[int, int]]) -> dict:
    """The solved grid with these cells (row, column from 0) left blank."""
    rows = [list(row) for row in SOLVED]
    for r, c in cells:
        rows[r][c] = "."
    return {"family": "sudoku", "grid": ["".join(row) for row in rows]}


def placed_cells(result) -> set[int]:
    return {var for step in result.steps for var, _ in step.placements}


def blank_cells(puzzle) -> set[int]:
    return {var for var, mask in enumerate(puzzle.clue_state) if not is_single(mask)}


def test_cells_the_givens_decide_are_still_placed_by_steps() -> None:
    """Three blanks, each the last cell of its box and of nothing else's business: crossing
    out the givens leaves each one candidate no peer holds. Each is still a full house."""
    puzzle = as_puzzle(blanked([(0, 0), (4, 4), (8, 8)]))
    result = grade(puzzle)
    assert result.run.solved
    assert placed_cells(result) == blank_cells(puzzle)
    assert {step.technique for step in result.steps} == {"full-house"}
    assert result.to_dict()["ep"] == 1.0


def test_every_blank_cell_of_a_solve_is_placed() -> None:
    """The example and generated sudokus; the generator rates its puzzles as grade does."""
    puzzles = [load(EXAMPLES / "sudoku.json")[0]]
    made = list(generate(Request("sudoku", (9, 9), "hard", count=2, seed=3)))
    puzzles += [as_puzzle(found.data) for found in made]
    for puzzle in puzzles:
        result = grade(puzzle)
        assert result.run.solved
        assert placed_cells(result) == blank_cells(puzzle), puzzle.id
    for found, puzzle in zip(made, puzzles[1:], strict=True):
        assert grade(puzzle).effort == pytest.approx(found.effort)


@pytest.mark.parametrize("number", [1, 2])
def test_a_picture_shows_a_cell_no_step_placed_yet_as_a_candidate(number: int) -> None:
    """Before the first full house, the other two blanks have one candidate but no value."""
    puzzle = as_puzzle(blanked([(0, 0), (4, 4), (8, 8)]))
    result = grade(puzzle)
    steps = result.steps[:number]
    before = states_before(puzzle, steps)[-1]
    stated = stated_before(puzzle, steps)[-1]
    by_name = {t.name: t for t in result.techniques}
    step = steps[-1]
    board = step_board(puzzle, before, step, by_name[step.technique], stated=stated)
    already = {var for earlier in steps[:-1] for var, _ in earlier.placements}
    for var in blank_cells(puzzle):
        variable = puzzle.model.variables[var]
        cell = (variable.row, variable.col)
        if var in already:
            assert cell in board.cells
        else:
            assert cell not in board.cells
            assert len(board.candidates[cell]) == 1


def test_a_siteswap_with_houses_places_every_throw() -> None:
    """Latin runs and boxes make a siteswap grid a sudoku's kin: every throw is placed too."""
    puzzle = load(EXAMPLES / "siteswap_sudoku.json")[0]
    result = grade(puzzle)
    assert result.run.solved
    assert placed_cells(result) == blank_cells(puzzle)


SHAPES = (
    ("sudoku", (4, 4), {}),
    ("sudoku", (9, 9), {}),
    ("siteswap", (9, 9), {"latin": True, "boxes": True}),
)


@pytest.mark.parametrize(("name", "size", "options"), SHAPES)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), share=st.floats(0.25, 0.75))
def test_stating_every_cell_changes_no_end(name, size, options, seed, share) -> None:
    """From random givens of a random solution, the run that states every cell ends where the
    run that takes single cells as placed ends (status and candidates), and places every
    blank cell it solves by a step; a cell it places takes its value in the solution."""
    family = families()[name]
    rng = random.Random(seed)
    template = family.empty_model(size, options)
    solution = family.random_solution(template, rng)
    model = template
    givens = [
        1 << value if rng.random() < share else mask
        for value, mask in zip(solution, model.initial_state(), strict=True)
    ]
    start = family.start_state(model, givens)
    stated = family.stated_cells(model, givens)
    assert stated is not None
    engine = Engine(model, choose(family, model, "hard"), solutions=[solution], unique=False)
    plain, told = engine.run(start), engine.run(start, stated=stated)
    assert (told.status, told.state) == (plain.status, plain.state)
    placed = {var: value for step in told.steps for var, value in step.placements}
    assert all(solution[var] == value for var, value in placed.items())
    if told.solved:
        blanks = {var for var, mask in enumerate(givens) if not is_single(mask)}
        assert blanks <= set(placed)


def test_short_latin_runs_take_a_single_throw_as_written() -> None:
    """Runs shorter than the throws need not hold every throw, so no full house or hidden single
    could place a throw there: a cell is done once it has one throw, and the generator's
    rating of its puzzles is grade's (5 of these 40 were rated trivial by the generator and
    easy, by a naked single, by grade when such cells had to be placed)."""
    request = Request("siteswap", (5, 5), "trivial", count=40, seed=11, options={"latin": True})
    made = list(generate(request))
    assert len(made) == 40
    for found in made:
        result = grade(as_puzzle(found.data))
        assert (result.difficulty, result.level) == (found.difficulty, found.level)


class Repeats(Technique):
    """A technique that keeps placing a given (r1c2 in the puzzles below) again."""

    name = "repeats"

    def find(self, ctx) -> Iterator[Step]:
        yield self.make(placements=[(1, ctx.state[1].bit_length() - 1)])


def test_a_run_whose_steps_change_nothing_ends() -> None:
    """The engine drops a step that changes nothing; a technique finding only such steps ends
    the run (asking it again would find them again): on open cells, and on a grid whose cells
    all have one candidate but are not all placed."""
    open_puzzle = load(EXAMPLES / "sudoku.json")[0]
    run = Engine(open_puzzle.model, [Repeats(1.0)]).run(open_puzzle.givens)
    assert (run.steps, run.status) == ([], "stuck")
    decided = as_puzzle(blanked([(0, 0), (4, 4), (8, 8)]))
    engine = Engine(decided.model, [Repeats(1.0)])
    run = engine.run(decided.givens, stated=stated_at_start(decided))
    assert (run.steps, run.status) == ([], "solved")


def test_a_text_board_shows_a_cell_no_step_placed_as_open() -> None:
    """The boards --trace prints after a trial, like the pictures: the three blanks the givens
    decide still show '.' until a step places them."""
    puzzle = as_puzzle(blanked([(0, 0), (4, 4), (8, 8)]))
    shown = shown_state(puzzle, puzzle.givens, stated_at_start(puzzle))
    rows = puzzle.family.text_board(puzzle.model, shown)
    assert rows[0].replace(" ", "").startswith(".") and rows[8].replace(" ", "").endswith(".")
    plain = puzzle.family.text_board(puzzle.model, puzzle.givens)
    assert "." not in "".join(plain)  # without the stated cells, every cell shows a value


def with_row(name: str, row: int, text: str) -> dict:
    """An example puzzle with one row of its grid replaced."""
    data = json.loads((EXAMPLES / name).read_text())
    data["grid"][row] = text
    return data


NO_STEP_CASES = {
    "sudoku, two 5s in row 1": (with_row("sudoku.json", 0, "535.7...."), None),
    "sudoku, full houses only": (with_row("sudoku.json", 0, "53..7...."), "full-house"),
    "siteswap sudoku, two 9s in row 1": (with_row("siteswap_sudoku.json", 0, "9....9..."), None),
    "binairo, three 1s in row 1": (with_row("binairo.json", 0, "111..."), None),
    "tango, three suns in row 1": (with_row("tango.json", 0, "SSS..."), None),
}


@pytest.mark.parametrize("case", NO_STEP_CASES)
def test_a_report_without_steps_shows_only_the_givens(case: str) -> None:
    """A report's grid holds the givens and what its steps placed: with givens that break a
    rule (or no technique that places anything) no step is taken, so no digit is added, though
    crossing the givens out of their houses leaves some cells one candidate."""
    data, techniques = NO_STEP_CASES[case]
    result = grade(data, GradeOptions(techniques=techniques))
    report = result.to_dict()
    assert report["steps_count"] == 0
    assert report["grid"] == data["grid"]
    blanks = sum(row.count(".") for row in data["grid"])
    assert report["remaining"] == blanks


def test_the_text_report_of_broken_givens_shows_only_the_givens(tmp_path) -> None:
    path = tmp_path / "two-fives.json"
    path.write_text(json.dumps(with_row("sudoku.json", 0, "535.7....")))
    result = run("grade", str(path))
    assert result.returncode == 0, result.stderr
    assert "row 1 holds 5 twice" in result.stdout
    board = [line.strip("│ ").replace(" ", "") for line in result.stdout.splitlines()]
    assert "...419..5" in board and "...419.35" not in board
