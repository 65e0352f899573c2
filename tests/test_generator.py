"""Generated puzzles: unique by the exact search, solved within their level, not below it."""

from __future__ import annotations

import random

import pytest

from conftest import make
from grader import GradeOptions, grade
from grader.core.backtrack import count_plain
from grader.core.engine import Engine
from grader.core.errors import FieldProblem, UsageError
from grader.core.exact import count_solutions
from grader.generation.generator import Generator, Request, generate
from grader.rating.costs import choose
from grader.rating.loading import puzzle_from_dict

LEVELS = ("trivial", "easy", "normal", "hard", "expert")

CASES = (
    [("tango", (6, 6), {}, level) for level in LEVELS]
    + [("binairo", (6, 6), {}, level) for level in ("trivial", "easy", "normal")]
    + [
        ("binairo", (8, 8), {}, "hard"),
        ("binairo", (6, 6), {"unique_lines": True}, "easy"),
        ("binairo", (8, 8), {"unique_lines": True}, "normal"),
        ("binairo", (10, 12), {}, "normal"),
    ]
)


def check_generated(family, level, found, options):
    puzzle = puzzle_from_dict(found.data, "generated", found.data["id"])
    count, solutions = count_solutions(puzzle.model, puzzle.givens, 2)
    assert count == 1
    assert (
        puzzle.model.rows * puzzle.model.cols > 64 or count_plain(puzzle.model, puzzle.givens) == 1
    )
    assert puzzle.solution == solutions[0]  # the file's solution is the one
    levels = puzzle.family.levels
    cap = choose(puzzle.family, puzzle.model, level)
    assert Engine(puzzle.model, cap).run(puzzle.givens).solved
    index = levels.index(level)
    if index:
        below = choose(puzzle.family, puzzle.model, levels[index - 1])
        assert not Engine(puzzle.model, below).run(puzzle.givens).solved
    assert grade(puzzle).level == level


@pytest.mark.parametrize(("family", "size", "options", "level"), CASES)
def test_generated_puzzles_are_unique_and_at_their_level(family, size, options, level):
    found = list(generate(Request(family, size, level, count=2, seed=3, options=options)))
    assert len(found) == 2
    assert found[0].key != found[1].key
    for item in found:
        check_generated(family, level, item, options)


def test_same_seed_same_puzzles_and_other_seed_others():
    first = [g.data for g in generate(Request("tango", (6, 6), "normal", count=3, seed=11))]
    again = [g.data for g in generate(Request("tango", (6, 6), "normal", count=3, seed=11))]
    other = [g.data for g in generate(Request("tango", (6, 6), "normal", count=3, seed=12))]
    assert first == again
    assert first != other


def test_tango_hints_mix_cells_and_signs():
    mostly_signs = next(generate(Request("tango", (6, 6), "hard", seed=4, extra_share=1.0)))
    cells = sum(ch != "." for row in mostly_signs.data["grid"] for ch in row)
    assert 1 <= cells < len(mostly_signs.data["signs"])  # signs alone cannot tell sun from moon
    no_signs = next(generate(Request("tango", (6, 6), "normal", seed=4, extra_share=0.0)))
    assert no_signs.data["signs"] == []


def test_classic_mode_gives_unique_puzzles_without_a_level_cap():
    for found in generate(Request("binairo", (8, 8), "normal", count=3, seed=2, mode="unique")):
        puzzle = puzzle_from_dict(found.data, "generated", "x")
        assert count_solutions(puzzle.model, puzzle.givens, 2)[0] == 1
        assert found.level == grade(puzzle).level  # the level grade gives it


def test_large_binairo_is_generated():
    found = next(generate(Request("binairo", (30, 30), "normal", seed=1)))
    puzzle = puzzle_from_dict(found.data, "generated", "x")
    assert count_solutions(puzzle.model, puzzle.givens, 2)[0] == 1


def test_canonical_key_is_the_same_for_symmetric_copies():
    found = next(generate(Request("tango", (6, 6), "hard", seed=8)))
    data = found.data
    rows = data["grid"]
    flipped = {
        **data,
        "grid": [row[::-1] for row in rows],
        "signs": [[r1, 5 - c1, r2, 5 - c2, s] for r1, c1, r2, c2, s in data["signs"]],
    }
    swapped = {**data, "grid": [row.translate(str.maketrans("SM", "MS")) for row in rows]}
    turned = {
        **data,
        "grid": ["".join(rows[r][c] for r in range(6)) for c in range(6)],
        "signs": [[c1, r1, c2, r2, s] for r1, c1, r2, c2, s in data["signs"]],
    }
    keys = set()
    for variant in (data, flipped, swapped, turned):
        variant = {k: v for k, v in variant.items() if k != "solution"}
        puzzle = make(variant)
        keys.add(puzzle.family.canonical_key(puzzle.model, puzzle.givens))
    assert len(keys) == 1
    other = next(generate(Request("tango", (6, 6), "hard", seed=9)))
    assert other.key not in keys


@pytest.mark.parametrize(
    ("request_args", "error"),
    [
        (("binairo", (7, 7), "normal"), FieldProblem),
        (("binairo", (6, 6), "superhard"), UsageError),
        (("kakuro", (6, 6), "normal"), UsageError),
    ],
)
def test_impossible_requests_are_refused(request_args, error):
    with pytest.raises(error):
        Generator(Request(*request_args))
    with pytest.raises(UsageError):
        Generator(Request("binairo", (6, 6), "normal", count=0))


def test_open_cells_index_like_the_list_of_open_variables():
    """The generator's random pick of an open cell sees the list Model.open_vars gives."""
    puzzle = make({"family": "binairo", "grid": ["." * 12] * 12})
    rng = random.Random(3)
    for share in (0.0, 0.3, 0.9, 1.0):
        state = [rng.choice((1, 2)) if rng.random() < share else 3 for _ in puzzle.givens]
        state[5] = 0  # no candidate: listed too
        listed, counted = puzzle.model.open_vars(state), puzzle.model.open_cells(state)
        assert len(counted) == len(listed)
        assert [counted[i] for i in range(len(counted))] == listed
        assert random.Random(1).choice(counted) == random.Random(1).choice(listed)


def test_classic_mode_without_a_level_filters_by_no_level():
    """``--mode unique`` alone: any level, so the first unique minimal puzzle is kept."""
    generator = Generator(Request("sudoku", (9, 9), None, mode="unique", seed=0))
    found = list(generator.puzzles())
    assert len(found) == 1 and found[0].attempts == 1
    meta = found[0].data["meta"]
    assert meta["asked_level"] == "any" and meta["level"] == found[0].level
    assert found[0].data["id"] == "sudoku-9x9-any-s0-1"


def test_classic_mode_with_a_level_keeps_its_floor_and_says_what_was_asked():
    for found in generate(Request("binairo", (6, 6), "normal", count=2, seed=2, mode="unique")):
        puzzle = puzzle_from_dict(found.data, "generated", "x")
        below = choose(puzzle.family, puzzle.model, "easy")
        assert not Engine(puzzle.model, below).run(puzzle.givens).solved
        assert found.data["meta"]["asked_level"] == "normal"


def test_a_deducible_request_needs_a_level():
    with pytest.raises(UsageError, match="level: missing"):
        Generator(Request("binairo", (6, 6), None))


@pytest.mark.parametrize(
    "request_",
    [
        Request("tango", (6, 6), "easy", seed=3, costs={"pair": 1.5}),
        Request("binairo", (6, 6), None, mode="unique", seed=1),
    ],
    ids=["deducible-with-costs", "classic"],
)
def test_generated_meta_carries_the_settings_grading_it_reports(request_):
    """The stamp of a generated puzzle: ``meta.settings`` is what ``grade`` reports when it
    grades the puzzle with its default techniques and the request's costs, beside the
    version in ``meta.generator``; level, difficulty and effort are that grade's too."""
    found = next(Generator(request_).puzzles())
    meta = found.data["meta"]
    report = grade(make(found.data), GradeOptions(costs=request_.costs)).to_dict()
    assert meta["settings"] == report["settings"]
    rated = ("level", "difficulty", "effort")
    assert [meta[key] for key in rated] == [report[key] for key in rated]
    if request_.costs:
        assert meta["settings"]["techniques"]["pair"] == 1.5


@pytest.mark.parametrize("seed", [33, 77])
def test_generated_sudoku_meta_is_what_grade_says(seed):
    """A generated puzzle's ``meta`` is its default grade: the generator rates (and checks
    the level below) with the uniqueness techniques, as ``grade`` uses them on a unique
    puzzle. Before, seed 33's third expert puzzle said expert 6.6 in ``meta`` and graded
    hard 4.5 (a unique rectangle), and seed 77 gave three more such puzzles."""
    for found in generate(Request("sudoku", (9, 9), "expert", count=3, seed=seed)):
        meta = found.data["meta"]
        result = grade(make(found.data))
        graded = (result.level, result.difficulty, result.effort)
        assert (meta["level"], meta["difficulty"], meta["effort"]) == graded, found.data["id"]
