"""Sudoku: loading every format, bad input, SE figures, techniques on hand-made positions."""

from __future__ import annotations

import json
import random

import pytest
from test_cli import run

from conftest import EXAMPLES, make
from grader.core.engine import Engine
from grader.core.errors import FieldProblem, InputError
from grader.core.exact import count_solutions
from grader.core.model import is_single
from grader.rating.grading import grade
from grader.rating.loading import load
from rules.sudoku.family import FAMILY, LEVEL_BANDS, canonical_key, random_grid, shuffled
from rules.sudoku.file import box_shape, clue_state, parse_solo_id, solo_id
from rules.sudoku.model import build_model

CLASSIC = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def test_81_character_line_loads_and_is_solved_by_singles():
    puzzle = load(CLASSIC)[0]
    assert puzzle.model.size == (9, 9)
    report = grade(puzzle).to_dict()
    assert report["solutions"] == 1 and report["solved"]
    assert report["givens"] == 30
    assert report["difficulty"] <= 2.3
    assert report["er"] == report["difficulty"] and report["ed"] <= report["ep"] <= report["er"]
    assert report["level"] in ("trivial", "easy")


def test_zero_blanks_text_file_and_json_agree(tmp_path):
    lines = tmp_path / "puzzles.txt"
    lines.write_text(CLASSIC.replace(".", "0") + "\n" + CLASSIC + "\n")
    from_text = load(str(lines))
    assert len(from_text) == 2
    from_json = load(str(EXAMPLES / "sudoku.json"))[0]
    grids = {tuple(from_text[0].givens), tuple(from_text[1].givens), tuple(from_json.givens)}
    assert len(grids) == 1


def test_solo_game_id_round_trips():
    puzzle = load(CLASSIC)[0]
    clues = clue_state(puzzle.model, puzzle.data["grid"])
    game_id = solo_id(puzzle.model, clues)
    assert game_id.startswith("3x3:")
    again = load(game_id)[0]
    assert again.data["grid"] == puzzle.data["grid"]
    data = parse_solo_id("2x2:1c2c3c4c")
    assert data["size"] == 4 and data["grid"] == ["1...", "2...", "3...", "4..."]
    with pytest.raises(InputError, match="describes 8 cells"):
        load("2x2:1c2c")


def test_small_and_large_box_shapes():
    assert box_shape(6, None) == (2, 3)
    assert box_shape(12, None) == (3, 4)
    six = make(
        {"family": "sudoku", "grid": ["1.....", "......", "......", "......", "......", ".....6"]}
    )
    assert six.model.options["box"] == [2, 3]
    rotated = make({"family": "sudoku", "box": [3, 2], "grid": ["......"] * 6})
    assert rotated.model.options["box"] == [3, 2]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..7", "80"),
        ("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..7X", "X"),
    ],
)
def test_bad_lines_name_the_problem(text, words):
    with pytest.raises(InputError) as error:
        load(text)
    assert words in str(error.value)


def test_bad_json_fields_are_one_line_errors(tmp_path):
    cases = [
        (
            {"family": "sudoku", "grid": ["12345678"] * 9},
            "has 9 rows of 8 cells; a sudoku grid is square",
        ),
        ({"family": "sudoku", "size": 4, "grid": ["1234", "5...", "....", "...."]}, "'5'"),
        ({"family": "sudoku", "box": [2, 4], "grid": ["." * 9] * 9}, "do not tile"),
        ({"family": "sudoku", "grid": ["." * 7] * 7}, "no default box shape"),
    ]
    for data, words in cases:
        path = tmp_path / "bad.json"
        path.write_text(json.dumps(data))
        result = run("grade", str(path))
        assert result.returncode == 2, (data, result.stderr)
        assert words in result.stderr and "Traceback" not in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1


def test_duplicate_givens_are_a_report_not_a_crash():
    grid = ["11" + "." * 7] + ["." * 9] * 8
    report = grade(make({"family": "sudoku", "grid": grid})).to_dict()
    assert report["solutions"] == 0
    assert report["level"] == "invalid"
    assert report["contradiction"] == "row 1 holds 1 twice (r1c1 and r1c2)"  # the digit, not 0


def test_a_broken_rule_names_the_digit_of_the_file():
    grid = [".9" + "." * 6 + "9"] + ["." * 9] * 8
    report = grade(make({"family": "sudoku", "grid": grid})).to_dict()
    assert report["contradiction"] == "row 1 holds 9 twice (r1c2 and r1c9)"


def test_json_report_carries_se_figures():
    result = run("grade", "--json", str(EXAMPLES / "sudoku.json"))
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert {"er", "ep", "ed", "difficulty", "effort", "level"} <= set(report)


def test_a_full_house_on_a_cell_down_to_one_candidate_is_a_placement():
    """Box 5 of the classic filled but r5c5: the first step is that full house. Its cell had one
    candidate already, yet the step places the value (the trace says so) and Sudoku
    Explainer's EP, the hardest step up to the first placement, is that step's 1.0."""
    grid = CLASSIC[:27] + "8..761..34..8.3..17..924..6" + CLASSIC[54:]
    result = grade(load(grid)[0])
    first = result.steps[0]
    assert first.technique == "full-house" and first.placements == ((40, 4),)
    report = result.to_dict()
    assert (report["er"], report["ep"], report["ed"]) == (1.2, 1.0, 1.0)
    text = run("grade", "--trace", grid).stdout
    assert "1. [full-house 1] r5c5 = 5: it is the last open cell of box 5" in text


def sudoku_from(rows: list[str]):
    return make({"family": "sudoku", "grid": rows})


def hardest(rows: list[str]) -> str:
    g = grade(sudoku_from(rows))
    assert g.solved
    return g.hardest.technique


def test_random_grids_are_valid_for_every_size():
    rng = random.Random(5)
    for n in (4, 6, 8, 9, 12, 16, 25):
        model = FAMILY.empty_model((n, n), {})
        values = random_grid(model, rng)
        assert all(c.satisfied_by(values) for c in model.constraints)


def test_canonical_key_ignores_relabelling_and_band_moves():
    rng = random.Random(3)
    model = build_model(9, (3, 3))
    solution = random_grid(model, rng)
    state = [
        1 << v if rng.random() < 0.35 else model.variables[i].domain for i, v in enumerate(solution)
    ]
    values = [(m.bit_length() - 1) if is_single(m) else -1 for m in state]
    moved = [values[(r if r < 3 else (r + 3) % 6 + 3) * 9 + c] for r in range(9) for c in range(9)]
    relabel = list(range(9))
    rng.shuffle(relabel)
    other = [1 << relabel[v] if v >= 0 else model.variables[0].domain for v in moved]
    assert canonical_key(model, state) == canonical_key(model, other)
    assert canonical_key(model, state) != canonical_key(model, [model.variables[0].domain] * 81)


def test_large_grids_are_graded():
    """16x16 and 25x25 puzzles made unique (cells where two solutions differ revealed) are
    graded unique and solved to their solution."""
    rng = random.Random(11)
    for n in (16, 25):
        model = FAMILY.empty_model((n, n), {})
        values = shuffled(list(random_grid(model, rng)), n, tuple(model.options["box"]), rng)
        symbols = "123456789ABCDEFGHIJKLMNOP"
        shown = {v for v in range(n * n) if rng.random() < 0.6}
        while True:
            grid = [
                "".join(symbols[values[r * n + c]] if r * n + c in shown else "." for c in range(n))
                for r in range(n)
            ]
            puzzle = make({"family": "sudoku", "grid": grid})
            count, found = count_solutions(puzzle.model, puzzle.givens)
            if count == 1:
                break
            shown.add(next(v for v in range(n * n) if found[0][v] != found[1][v]))
        g = grade(puzzle)
        assert g.solutions == 1 and g.solved, (n, g.level)
        report = g.to_dict()
        assert report["size"] == [n, n]
        assert "".join(report["grid"]) == "".join(symbols[v] for v in values)


def test_unique_rectangle_needs_a_known_unique_puzzle():
    """A puzzle whose first uniqueness step is a unique rectangle: offered once the exact
    search has shown the puzzle unique (its one solution known), never without."""
    from grader.rating.costs import choose

    puzzle = make({"family": "sudoku", "grid": ["2.4.", "3...", ".3..", "42.."]})
    count, found = count_solutions(puzzle.model, puzzle.givens)
    assert count == 1
    techniques = choose(puzzle.family, puzzle.model, "unique-rectangle,bug")
    steps = Engine(puzzle.model, techniques, solutions=found).next_steps(puzzle.givens)
    assert steps and steps[0].technique == "unique-rectangle"
    assert all(found[0][v] != x for step in steps for v, x in step.eliminations)
    assert Engine(puzzle.model, techniques).next_steps(puzzle.givens) == []
    assert (
        Engine(puzzle.model, techniques, solutions=found, unique=False).next_steps(puzzle.givens)
        == []
    )


def test_levels_map_to_se_bands():
    assert FAMILY.cost_band("4.0-5.0") == (4.0, 5.0)
    assert FAMILY.cost_band("hard") == (4.0, 6.4)
    assert FAMILY.level_of_cost(1.2) == "trivial" and FAMILY.level_of_cost(8.3) == "extreme"
    for level, (low, high) in LEVEL_BANDS.items():
        assert FAMILY.level_of_cost(low) == level and FAMILY.level_of_cost(min(high, 12)) == level
    with pytest.raises(FieldProblem):
        FAMILY.cost_band("tough")


def test_basic_techniques_match_sudoku_explainer_on_shared_puzzles():
    """Below 4.0 (singles, direct hints, locked candidates, subsets, X-wing, swordfish) our ER is
    SE's exactly; reads ../shared/data at run time."""
    import csv

    from conftest import shared

    rows = list(csv.DictReader(shared("sudoku_se_dev.csv").open()))
    easy = [r for r in rows if float(r["se_rating"]) < 4.0][::6]
    assert easy
    for row in easy:
        report = grade(load(row["puzzle"])[0]).to_dict()
        assert report["er"] == float(row["se_rating"]), row["puzzle"]
        assert report["ed"] == float(row["se_diamond"])


def test_generation_in_an_se_band_lands_in_the_band():
    from grader.generation.generator import Request, generate
    from grader.rating.loading import puzzle_from_dict

    found = next(generate(Request("sudoku", (9, 9), "2.6-3.4", seed=1)))
    puzzle = puzzle_from_dict(found.data, "generated", "x")
    assert count_solutions(puzzle.model, puzzle.givens, 2)[0] == 1
    result = grade(puzzle)
    assert 2.6 <= result.difficulty <= 3.4
    assert result.level == found.level == "normal"


@pytest.mark.parametrize("n", [16, 25])
def test_large_grids_are_generated_unique_at_their_level(n):
    from grader.generation.generator import Request, generate
    from grader.rating.loading import puzzle_from_dict

    found = next(generate(Request("sudoku", (n, n), "trivial", seed=2, reduce=False)))
    puzzle = puzzle_from_dict(found.data, "generated", "x")
    assert count_solutions(puzzle.model, puzzle.givens, 2)[0] == 1
    assert grade(puzzle).level == "trivial"


def test_classic_mode_gives_minimal_puzzles():
    """--mode unique: no given can go without a second solution appearing."""
    from grader.generation.generator import Request, generate
    from grader.rating.loading import puzzle_from_dict

    found = next(generate(Request("sudoku", (9, 9), "normal", seed=5, mode="unique")))
    puzzle = puzzle_from_dict(found.data, "generated", "x")
    model, givens = puzzle.model, clue_state(puzzle.model, found.data["grid"])
    assert count_solutions(model, givens, 2)[0] == 1
    for var, mask in enumerate(givens):
        if is_single(mask):
            fewer = list(givens)
            fewer[var] = model.variables[var].domain
            assert count_solutions(model, fewer, 2)[0] == 2
