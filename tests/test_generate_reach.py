"""Levels out of reach: the claims behind each family's table, and the refusal at once."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys

import pytest

from grader.core.engine import Engine
from grader.core.errors import UsageError
from grader.core.exact import count_solutions
from grader.generation.generator import Generator, Request
from grader.rating.costs import choose
from grader.rating.loading import puzzle_from_dict
from grader.rating.registry import families


def k6_orbits(edges: list[tuple[int, int, int]]) -> list[int]:
    """One clue set (a bitmask over ``edges``) per orbit of the solution's automorphisms: the
    letter permutations that map its set of rows (perfect matchings) onto itself."""
    rows = sorted({r for r, _, _ in edges})
    matchings = [frozenset(frozenset((a, b)) for r2, a, b in edges if r2 == r) for r in rows]
    index = {(r, frozenset((a, b))): i for i, (r, a, b) in enumerate(edges)}
    maps = []
    for p in itertools.permutations(range(6)):
        images = [frozenset(frozenset(p[x] for x in pair) for pair in m) for m in matchings]
        if set(images) == set(matchings):
            row_of = [matchings.index(image) for image in images]
            maps.append([index[(row_of[r], frozenset((p[a], p[b])))] for r, a, b in edges])
    assert len(maps) == 120  # |S6| / 6 one-factorizations of K6
    seen = bytearray(1 << len(edges))
    orbits = []
    for mask in range(1 << len(edges)):
        if seen[mask]:
            continue
        orbits.append(mask)
        bits = [i for i in range(len(edges)) if mask >> i & 1]
        for image_of in maps:
            seen[sum(1 << image_of[i] for i in bits)] = 1
    return orbits


def test_every_k6_pair_place_the_techniques_solve_is_easy():
    """Pair Place K6 reaches only trivial and easy: K6 has 720 solutions, all one
    1-factorization up to relabelling the letters and reordering the rows, so one solution
    stands for all. Every set of its pairs (2^15, one per orbit of its 120 automorphisms)
    that the strongest techniques solve, the easy ones solve too."""
    family = families()["pairplace"]
    model = family.empty_model((6, 6), {})
    solution = family.random_solution(model, random.Random(1))
    edges = [
        (r, a, solution[r * 6 + a]) for r in range(5) for a in range(6) if a < solution[r * 6 + a]
    ]
    assert len(edges) == 15

    def solves(level: str, givens: list[int]) -> bool:
        techniques = choose(family, model, level)
        engine = Engine(model, techniques, solutions=[solution], unique=False, verify=False)
        return engine.settle(givens).solved

    beyond_easy = []
    for mask in k6_orbits(edges):
        givens = model.initial_state()
        for i, (r, a, b) in enumerate(edges):
            if mask >> i & 1:
                givens[r * 6 + a], givens[r * 6 + b] = 1 << b, 1 << a
        if not solves("easy", givens) and solves(family.levels[-1], givens):
            beyond_easy.append(mask)
    assert beyond_easy == []


def test_the_tables_name_known_levels_and_never_both_ways():
    for family in families().values():
        for table in (family.reachable, family.out_of_reach):
            for size, levels in table.items():
                assert len(size) == 2 and set(levels) <= set(family.levels), family.name
                assert family.normal_size(size, {}) == size, family.name  # keyed as reached
        for size, beyond in family.out_of_reach.items():
            assert not set(beyond) & set(family.reachable.get(size, ())), family.name


@pytest.mark.parametrize(
    ("family", "size", "level", "reached"),
    [
        ("pairplace", (6, 6), "normal", "trivial, easy"),
        ("pairplace", (6, 6), "extreme", "trivial, easy"),
        ("binairo", (6, 6), "hard", "trivial, easy, normal, expert"),
        ("sudoku", (4, 4), "easy", "trivial"),
        ("siteswap", (3, 4), "easy", "trivial"),
    ],
)
def test_an_out_of_reach_level_is_refused_at_once_naming_the_reachable(
    family, size, level, reached
):
    with pytest.raises(UsageError, match=f"reaches only {reached}; {level} is out of reach"):
        Generator(Request(family, size, level))


def test_the_refusal_is_per_size_and_options():
    Generator(Request("pairplace", (8, 8), "normal"))  # K8 reaches it
    rules = {"nontrivial": True, "distinct": True}
    Generator(Request("siteswap", (3, 4), "easy", options=rules))  # no claim with rules
    Generator(Request("pairplace", (6, 6), "normal", refuse_unreachable=False))  # to measure


def test_a_sudoku_band_above_every_rating_is_refused():
    # the dearest 9x9 technique (nested dynamic chains, 11.0) plus the longest chain's bonus
    with pytest.raises(UsageError, match=r"rated above 13.4; '14' starts at 14.0"):
        Generator(Request("sudoku", (9, 9), "14"))
    Generator(Request("sudoku", (9, 9), "8.0-9.0"))  # within the ratings: tried


def test_the_command_refuses_with_one_line_and_exit_2():
    code = "import sys; from grader.cli import grader_main; sys.argv[0] = 'grader'; grader_main()"
    result = subprocess.run(
        [sys.executable, "-c", code, "generate", "pairplace", "--size", "6", "--level", "normal"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "reaches only trivial, easy" in result.stderr


@pytest.mark.parametrize("name", sorted(families()))
def test_every_family_generates_with_every_option_at_its_default(tmp_path, name):
    """Without --level: normal, or where the default size does not reach it (siteswap 3x4,
    pair place K6), the hardest level below it that the reach table lists."""
    code = "import sys; from grader.cli import grader_main; sys.argv[0] = 'grader'; grader_main()"
    out = tmp_path / "one.jsonl"
    args = ["generate", name, "-n", "1", "--seed", "1", "--max-attempts", "50", "-o", str(out)]
    result = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    level = {"siteswap": "trivial", "pairplace": "easy"}.get(name, "normal")
    assert json.loads(out.read_text())["meta"]["level"] == level
    assert ("give --level to choose" in result.stderr) == (level != "normal")
    if level != "normal":  # an explicit --level normal is refused in one line, as before
        explicit = subprocess.run(
            [sys.executable, "-c", code, "generate", name, "--level", "normal"],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert explicit.returncode == 2 and explicit.stderr.count("\n") == 1
        assert "normal is out of reach" in explicit.stderr


def test_the_top_level_inserts_with_the_level_below_and_reduces_with_its_own():
    """Path extreme: insertion without depth-2 lookahead (its failing passes were most of an
    attempt's time), the puzzle still extreme: unique, solved by its techniques, not below."""
    generator = Generator(Request("path", (6, 6), "extreme", seed=3))
    below = {t.name for t in generator.target.below}
    assert {t.name for t in generator.insertion_techniques()} == below
    assert "lookahead-2" in {t.name for t in generator.target.cap} - below
    (found,) = generator.puzzles()
    puzzle = puzzle_from_dict(found.data, "generated", "x")
    assert count_solutions(puzzle.model, puzzle.givens, 2)[0] == 1
    family = puzzle.family
    assert Engine(puzzle.model, choose(family, puzzle.model, "extreme")).run(puzzle.givens).solved
    assert (
        not Engine(puzzle.model, choose(family, puzzle.model, "expert")).run(puzzle.givens).solved
    )


@pytest.mark.parametrize(
    ("level", "reduce"), [("expert", True), ("normal", True), ("extreme", False)]
)
def test_other_levels_and_unreduced_runs_insert_with_the_level(level, reduce):
    generator = Generator(Request("path", (6, 6), level, reduce=reduce))
    assert generator.insertion_techniques() is generator.target.cap


def test_an_out_of_reach_level_points_to_the_manual_not_the_checkout():
    """pip users have no bench/: the refusal names the manual's page that lists the levels
    each family reaches, and that page does list them."""
    from pathlib import Path

    code = "import sys; from grader.cli import grader_main; sys.argv[0] = 'grader'; grader_main()"
    args = ["generate", "pairplace", "--size", "6", "--level", "extreme"]
    result = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert "extreme is out of reach (see the manual's Making puzzles page)" in result.stderr
    assert "bench/" not in result.stderr
    root = Path(__file__).resolve().parent.parent
    page = (root / "docs" / "making-puzzles.md").read_text()
    assert page.startswith("# Making puzzles") and "## Levels out of reach" in page
