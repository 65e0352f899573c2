"""Siteswap grids: the line rule, the file format, exact uniqueness, the shared examples,
soundness of every technique on random partial grids, and generation at each level."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import EXAMPLES, make, shared
from grader.core.backtrack import count_plain, solve_random
from grader.core.engine import Engine
from grader.core.errors import InputError
from grader.core.exact import count_solutions
from grader.core.explain import Explainer
from grader.core.lines import LineRule
from grader.generation.generator import Generator, Request
from grader.rating.costs import choose
from grader.rating.grading import grade
from rules.siteswap.family import FAMILY, repetition
from rules.siteswap.file import ALPHABET
from rules.siteswap.runs import SiteswapRule
from shared_sets import siteswap_examples
from soundness import assert_sound_run

# -- the rule --------------------------------------------------------------------------------


def valid(seq: str) -> bool:
    n = len(seq)
    return len({(i + ALPHABET.index(c)) % n for i, c in enumerate(seq)}) == n


@pytest.mark.parametrize("seq", ["441", "531", "97531", "3", "51", "744", "a0", "6424"])
def test_known_siteswaps_are_accepted(seq):
    rule = SiteswapRule(len(seq))
    assert rule.accepts_values([ALPHABET.index(c) for c in seq])


@pytest.mark.parametrize("seq", ["432", "54", "6423", "21"])
def test_collisions_are_rejected(seq):
    rule = SiteswapRule(len(seq))
    values = [ALPHABET.index(c) for c in seq]
    assert not rule.accepts_values(values)
    assert rule.violation([1 << v for v in values]) is not None


def test_nontrivial_rejects_constant_runs_only():
    rule = SiteswapRule(3, nontrivial=True)
    assert not rule.accepts_values([4, 4, 4])
    assert rule.accepts_values([4, 4, 1])
    assert rule.violation([1 << 4] * 3) is not None


masks_strategy = st.integers(2, 6).flatmap(
    lambda n: st.tuples(
        st.just(n),
        st.booleans(),
        st.lists(st.integers(1, (1 << 10) - 1), min_size=n, max_size=n),
    )
)


@settings(max_examples=300, deadline=None)
@given(masks_strategy)
def test_matching_supports_equal_the_automaton_dynamic_programming(case):
    n, nontrivial, masks = case
    rule = SiteswapRule(n, nontrivial)
    assert rule.supports(masks) == LineRule.supports(rule, masks)
    assert rule.count(masks) == LineRule.count(rule, masks)


def test_count_matches_brute_force():
    for n in (2, 3, 4):
        brute = sum(1 for seq in itertools.product(range(1, 10), repeat=n) if valid_values(seq))
        assert SiteswapRule(n).count([(1 << 10) - 2] * n) == brute


def valid_values(seq) -> bool:
    n = len(seq)
    return len({(i + a) % n for i, a in enumerate(seq)}) == n


# -- the file --------------------------------------------------------------------------------


def test_example_file_grades_and_solves():
    puzzle = make(json.loads((EXAMPLES / "siteswap_3x4.json").read_text()))
    result = grade(puzzle)
    assert result.solutions == 1 and result.solved
    assert result.grid() == ["7489", "4884", "7922"]
    report = result.to_dict(trace=True)
    assert report["distinct_runs"] == report["runs"] == 7
    assert all(step["explanation"] for step in report["steps"])


def test_holes_split_runs_and_are_kept():
    puzzle = make(
        {
            "family": "siteswap",
            "rules": {"nontrivial": True},
            "grid": ["4.1", ". .", "...", "3  "],
            "size": [4, 3],
        }
    )
    labels = [c.label for c in puzzle.model.constraints]
    assert "row 2" not in " ".join(labels)  # "4 ." split by a hole: runs of one cell
    assert "column 2 (rows 1-1)" not in labels
    assert len(puzzle.model.variables) == 3 + 2 + 3 + 1
    assert FAMILY.format_grid(puzzle.model, puzzle.givens)[1] == ". ."


BAD = {
    "symbol": ({"grid": ["4x", "44"]}, "grid: row 1 column 2: 'x' is not a throw"),
    "range": (
        {"rules": {"throws": [1, 5]}, "grid": ["49", "44"]},
        "row 1 column 2: '9' is not a throw",
    ),
    "throws": ({"rules": {"throws": [5, 2]}, "grid": ["..", ".."]}, "rules.throws"),
    "rowlen": ({"size": [2, 2], "grid": ["...", ".."]}, "row 1 has 3 cells"),
    "boxes": ({"rules": {"boxes": True}, "grid": ["...", "...", "..."]}, "rules.boxes"),
    "latin": ({"rules": {"latin": True, "throws": [1, 4]}, "grid": ["....", "...."]}, "latin"),
    "option": ({"rules": {"colour": 1}, "grid": [".."]}, "rules.colour"),
    "solution": ({"grid": [".."], "solution": ["4."]}, "solution: row 1 column 2 is open"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_files_get_one_clear_problem(name):
    extra, expected = BAD[name]
    data = {"family": "siteswap", **extra}
    with pytest.raises(InputError) as info:
        make(data)
    assert expected in str(info.value)
    assert "\n" not in str(info.value)


def grade_cli(*args: str) -> subprocess.CompletedProcess:
    code = "import sys; from grader.cli import grade_main; sys.argv[0] = 'grade'; grade_main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120
    )


def test_cli_bad_file_is_one_line_with_exit_code_2(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"family": "siteswap", "grid": ["4x"]}))
    result = grade_cli(str(path))
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert (
        len(lines) == 1 and "grid: row 1 column 2:" in lines[0] and "Traceback" not in result.stderr
    )


def test_cli_json_report_has_repetition_figures():
    result = grade_cli("--json", str(EXAMPLES / "siteswap_3x4.json"))
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["solutions"] == 1 and report["solved"]
    assert report["distinct_runs"] == 7 and report["grid"] == ["7489", "4884", "7922"]


def test_canonical_key_sees_shifts_and_transposition():
    rules = {"nontrivial": True}
    base = make({"family": "siteswap", "rules": rules, "grid": ["4.1.", "..3.", "5...", "...."]})
    shifted = make({"family": "siteswap", "rules": rules, "grid": [".5..", "....", ".4.1", "...3"]})
    flipped = make({"family": "siteswap", "rules": rules, "grid": ["4.5.", "....", "13..", "...."]})
    other = make({"family": "siteswap", "rules": rules, "grid": ["4.1.", "..3.", "...5", "...."]})
    key = FAMILY.canonical_key(base.model, base.givens)
    assert FAMILY.canonical_key(shifted.model, shifted.givens) == key
    assert FAMILY.canonical_key(flipped.model, flipped.givens) == key
    assert FAMILY.canonical_key(other.model, other.givens) != key


# -- exact search --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rules",
    [{}, {"nontrivial": True, "distinct": True}, {"latin": True}, {"throws": [0, 5]}],
)
def test_sat_count_agrees_with_plain_search(rules):
    rng = random.Random(7)
    for _ in range(6):
        rows, cols = rng.choice([(2, 3), (3, 3), (3, 4)])
        model = FAMILY.empty_model((rows, cols), rules)
        solution = solve_random(model, model.initial_state(), rng)
        assert solution is not None
        state = model.initial_state()
        for var in rng.sample(range(len(state)), len(state) // 2):
            state[var] = 1 << solution[var]
        sat = count_solutions(model, state, limit=2)[0]
        assert sat == min(2, count_plain(model, state, limit=2))


# -- the shared examples ---------------------------------------------------------------------


def shared_puzzles(solved_grids: bool = False) -> list[dict]:
    path = shared("siteswap_examples.json")
    return [data for _, data in siteswap_examples(path, solved_grids)]


def test_shared_examples_are_unique_with_their_solution():
    for data in shared_puzzles():
        puzzle = make(data)
        count, found = count_solutions(puzzle.model, puzzle.givens, limit=2)
        assert count == 1, data["id"]
        assert found[0] == puzzle.solution, data["id"]


def test_shared_examples_grade_soundly_and_the_small_ones_solve():
    """Every shared puzzle (the solved grid is none): the small ones are solved, with no time
    limit, to their solution; the others get 1 s of techniques, which may run out but never
    remove a value of the solution. How many solve within 60 s each is a figure of
    ``bench/siteswap.py`` (README), not a test: it depends on the machine's speed."""
    small = 0
    for data in shared_puzzles():
        puzzle = make(data)
        _, found = count_solutions(puzzle.model, puzzle.givens)
        techniques = choose(puzzle.family, puzzle.model)
        is_small = len(puzzle.model.variables) <= 30
        deadline = None if is_small else time.monotonic() + 1.0
        run = Engine(puzzle.model, techniques, deadline=deadline, solutions=found).run(
            puzzle.givens
        )
        assert run.status in ("solved", "timeout"), (data["id"], run.contradiction)
        for mask, value in zip(run.state, puzzle.solution, strict=True):
            assert mask >> value & 1, data["id"]
        if is_small:
            assert run.solved, data["id"]
            small += 1
    assert small >= 6  # the six small puzzles of the file were checked


def test_a_puzzle_needing_nested_assumptions_is_solved_to_its_solution():
    """Probst's 6x7 with throws 1-5 needs lookahead of depth 2 (an assumption inside an
    assumption): the techniques solve it, each deep step with the chain that refutes it."""
    data = next(d for d in shared_puzzles() if d["id"] == "probst_06_6x7_1-5")
    puzzle = make(data)
    _, found = count_solutions(puzzle.model, puzzle.givens)
    run = Engine(puzzle.model, choose(puzzle.family, puzzle.model), solutions=found).run(
        puzzle.givens
    )
    assert run.solved
    assert [mask.bit_length() - 1 for mask in run.state] == puzzle.solution
    deep = [step for step in run.steps if step.technique == "lookahead-2"]
    assert deep and all(step.data["chain"] for step in deep)


def test_mermelstein_grid_is_valid_and_repetitive():
    data = next(d for d in shared_puzzles(solved_grids=True) if d["id"].startswith("mermelstein"))
    puzzle = make(data)
    assert puzzle.options["latin"] and puzzle.options["boxes"] == [3, 3]
    assert all(c.satisfied_by(puzzle.solution) for c in puzzle.model.constraints)
    measure = repetition(puzzle.model, puzzle.solution)
    assert measure["distinct_boxes"] == 3  # the blog's complaint: only three distinct boxes


# -- soundness -------------------------------------------------------------------------------

RULESETS = [
    ((3, 4), {"nontrivial": True, "distinct": True}),
    ((4, 4), {}),
    ((3, 5), {"latin": True, "throws": [0, 6]}),
    ((3, 4), {"throws": [0, 15], "nontrivial": True}),
    ((5, 5), {"latin": True, "throws": [1, 5], "boxes": False}),
]


def partial(case: int, seed: int, share: float):
    (rows, cols), rules = RULESETS[case]
    rng = random.Random(seed)
    model = FAMILY.empty_model((rows, cols), rules)
    solution = solve_random(model, model.initial_state(), rng)
    assert solution is not None
    grid = [
        "".join(
            ALPHABET[solution[r * cols + c]] if rng.random() < share else "." for c in range(cols)
        )
        for r in range(rows)
    ]
    return make({"family": "siteswap", "size": [rows, cols], "rules": rules, "grid": grid})


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(RULESETS) - 1), st.integers(0, 10**6), st.floats(0.25, 0.8))
def test_steps_never_remove_a_solution_value(case, seed, share):
    puzzle = partial(case, seed, share)
    techniques = [t for t in choose(puzzle.family, puzzle.model) if t.cost < 6.0]
    assert_sound_run(puzzle, techniques)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 1), st.integers(0, 10**6))
def test_lookahead_is_sound_on_dense_grids(case, seed):
    puzzle = partial(case, seed, 0.6)
    assert_sound_run(puzzle, choose(puzzle.family, puzzle.model))


def test_sudoku_siteswap_techniques_are_sound():
    rng = random.Random(3)
    model = FAMILY.empty_model((9, 9), {"latin": True, "boxes": True})
    solution = solve_random(model, model.initial_state(), rng)
    assert solution is not None
    for share in (0.45,):
        grid = [
            "".join(
                ALPHABET[solution[r * 9 + c]] if rng.random() < share else "." for c in range(9)
            )
            for r in range(9)
        ]
        puzzle = make({"family": "siteswap", "rules": {"latin": True, "boxes": True}, "grid": grid})
        techniques = [t for t in choose(puzzle.family, puzzle.model) if t.cost < 6.0]
        assert_sound_run(puzzle, techniques)


# -- explanations ----------------------------------------------------------------------------


def test_trace_explains_sum_rule_and_landing_beats():
    puzzle = make(json.loads((EXAMPLES / "siteswap_3x4.json").read_text()))
    techniques = choose(puzzle.family, puzzle.model)
    run = Engine(puzzle.model, techniques).run(puzzle.givens)
    ex = Explainer(puzzle.model, techniques)
    texts: dict[str, str] = {}
    for step in run.steps:  # each technique's first step
        texts.setdefault(step.technique, ex.text(step))
    assert "must add up to a multiple of its length" in texts["sum-rule"]
    assert "lands on beat" in texts["landing-sites"]
    # its assumptions are short contradictions, told by the easy moves that clash
    assert texts["short-contradiction"].startswith("r1c1 ≠ 4: if r1c1 were 4, then ")
    assert "could hold nothing (r3c3 = 8: in row 3" in texts["short-contradiction"]
    # with lookahead instead, a hidden landing site follows it
    without = [t for t in techniques if t.name != "short-contradiction"]
    run = Engine(puzzle.model, without).run(puzzle.givens)
    texts = {s.technique: ex.text(s) for s in run.steps}
    assert "can still land on beat" in texts["hidden-landing-site"]


# -- generation ------------------------------------------------------------------------------

GENERATION = [
    ((3, 4), {"nontrivial": True, "distinct": True}, "trivial"),
    ((3, 4), {"nontrivial": True, "distinct": True}, "easy"),
    ((3, 4), {"nontrivial": True, "distinct": True}, "hard"),
    ((4, 4), {"nontrivial": True}, "trivial"),
    ((9, 9), {"latin": True, "boxes": True}, "trivial"),
]


@pytest.mark.parametrize(("size", "options", "level"), GENERATION)
def test_generated_puzzles_are_unique_and_at_their_level(size, options, level):
    count = 1 if size == (9, 9) else 2
    gen = Generator(
        Request("siteswap", size, level, count=count, seed=11, options=options, max_attempts=40)
    )
    puzzles = list(gen.puzzles())
    assert len(puzzles) == count, gen.gave_up
    for found in puzzles:
        puzzle = make(found.data)
        count, solutions = count_solutions(puzzle.model, puzzle.givens, limit=2)
        assert count == 1 and solutions[0] == found.solution
        upto = choose(FAMILY, puzzle.model, level)
        assert Engine(puzzle.model, upto).run(puzzle.givens).solved
        levels = FAMILY.levels
        if levels.index(level) > 0:
            below = choose(FAMILY, puzzle.model, levels[levels.index(level) - 1])
            assert not Engine(puzzle.model, below).run(puzzle.givens).solved


def test_min_distinct_boxes_filters_repetitive_grids():
    options = {"latin": True, "boxes": [2, 2], "throws": [1, 9], "min_distinct_boxes": 4}
    model = FAMILY.empty_model((4, 4), options)
    rng = random.Random(2)
    for _ in range(3):
        solution = FAMILY.random_solution(model, rng)
        assert repetition(model, solution)["distinct_boxes"] >= 4
    strict = FAMILY.empty_model((4, 4), {**options, "min_distinct_boxes": 5, "solution_tries": 3})
    with pytest.raises(Exception, match="min_distinct_boxes=5"):
        FAMILY.random_solution(strict, rng)


def test_givens_are_crossed_out_of_their_houses_not_taken_for_naked_singles():
    """With sudoku rules a given's throw leaves its row, column and box before the first step,
    as in a sudoku: no step places a given, and every given's throw is gone from its peers."""
    puzzle = grade(make(json.loads((EXAMPLES / "siteswap_sudoku.json").read_text()))).puzzle
    result = grade(puzzle)
    given = {v for v, mask in enumerate(puzzle.givens) if mask and not mask & (mask - 1)}
    assert given and result.solved
    assert not [s for s in result.steps for v, _ in s.placements if v in given]
    start = FAMILY.start_state(puzzle.model, puzzle.givens)
    houses = [c.vars for c in puzzle.model.constraints if type(c).__name__ == "AllDifferent"]
    for house in houses:
        for v in set(house) & given:
            assert all(not start[p] & puzzle.givens[v] for p in house if p != v)
