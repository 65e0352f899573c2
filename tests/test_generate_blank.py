"""Every generated puzzle leaves a cell blank; sizes where none can are refused, with proof."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from grader.core.errors import UsageError
from grader.generation.generator import Generator, Request, generate
from grader.rating.registry import families

SITESWAP = families()["siteswap"]

BOUND_CASES = [
    ((3, 3), {}),
    ((4, 4), {}),
    ((3, 4), {}),
    ((3, 3), {"nontrivial": True}),
    ((4, 4), {"nontrivial": True, "distinct": True}),
    ((3, 3), {"nontrivial": True, "distinct": True}),
    ((4, 4), {"latin": True}),
    ((4, 5), {"throws": [0, 12], "holes": [[0, 1], [2, 2]]}),
    ((4, 4), {"boxes": [2, 2], "throws": [1, 6]}),
]


@pytest.mark.parametrize(("size", "options"), BOUND_CASES)
def test_the_blank_bound_holds_on_random_grids(size, options):
    """:func:`blank_bound`'s claim, cell by cell on random grids: with every other cell given,
    the throws that fit are all of the cell's residue modulo the bound's modulus, and at most
    ``ruled out`` throws of that residue in range do not fit."""
    from rules.siteswap.family import blank_bound

    model = SITESWAP.empty_model(size, options)
    low, high = model.options["throws"]
    rng = random.Random(5)
    for _ in range(15):
        solution = SITESWAP.random_solution(model, rng)
        for var in range(len(model.variables)):
            modulus, ruled_out = blank_bound(model, var)
            residue = [w for w in range(low, high + 1) if (w - solution[var]) % modulus == 0]
            fits = []
            for w in range(low, high + 1):
                grid = [*solution[:var], w, *solution[var + 1 :]]
                if all(c.satisfied_by(grid) for c in model.constraints):
                    fits.append(w)
            assert set(fits) <= set(residue)
            assert len(fits) >= len(residue) - ruled_out


@pytest.mark.parametrize("size", [(3, 3), (4, 4), (2, 4)])
@pytest.mark.parametrize("mode", ["deducible", "unique"])
def test_a_size_where_no_cell_can_be_blank_is_refused_at_once(size, mode):
    assert SITESWAP.reach(size, {}) == ((), SITESWAP.levels)
    with pytest.raises(UsageError, match=r"can be left blank.*no puzzle exists at any level"):
        Generator(Request("siteswap", size, "trivial", mode=mode))


def test_no_refusal_where_a_rule_can_tell_a_blank():
    """With ``nontrivial`` a 3x3 cell can be blank: in the grid 117 / 114 / 474, r1c3 is 1, 4
    or 7 by its row and column, and 1 and 4 would make a run constant."""
    from rules.siteswap.family import blank_bound

    options = {"nontrivial": True}
    assert SITESWAP.never_blank((3, 3), options) is None
    assert SITESWAP.reach((3, 3), options) == ((), ())
    model = SITESWAP.empty_model((3, 3), options)
    grid = [1, 1, 7, 1, 1, 4, 4, 7, 4]
    fits = [
        w
        for w in range(1, 10)
        if all(c.satisfied_by([1, 1, w, *grid[3:]]) for c in model.constraints)
    ]
    assert fits == [7]
    assert blank_bound(model, 2) == (3, 2)  # 3 throws of the residue, 2 ruled out at most


@pytest.mark.parametrize(
    ("size", "options", "count"),
    [((4, 4), {"nontrivial": True, "distinct": True}, 12), ((3, 4), {}, 6)],
)
def test_every_generated_puzzle_leaves_a_cell_blank(size, options, count):
    found = list(
        generate(Request("siteswap", size, "trivial", count=count, seed=1, options=options))
    )
    assert len(found) == count
    for puzzle in found:
        assert any("." in row for row in puzzle.data["grid"]), puzzle.data["grid"]
        assert puzzle.difficulty > 0


def test_an_attempt_with_every_cell_given_is_a_failed_attempt():
    """Measuring (no refusal) where no blank is possible: no puzzle, not the full grid."""
    request = Request("siteswap", (4, 4), "trivial", max_attempts=10, refuse_unreachable=False)
    generator = Generator(request)
    assert list(generator.puzzles()) == []
    assert "no trivial puzzle found in 10 attempts" in (generator.gave_up or "")


def test_the_command_refuses_a_size_without_blanks_in_one_line():
    code = "import sys; from grader.cli import grader_main; sys.argv[0] = 'grader'; grader_main()"
    result = subprocess.run(
        [sys.executable, "-c", code, "generate", "siteswap", "--size", "4x4", "--level", "trivial"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "modulo 4" in result.stderr
