"""Uniqueness at scale: generated puzzles checked by the exact search, apart from the generator.

    python bench/uniqueness.py              # about 1,200 puzzles over every family and level
    python bench/uniqueness.py --scale 0.1  # a tenth of each count

Each generated puzzle is written out and read back as a file, then its solutions are counted
with a fresh SAT solver (none of the generator's state is reused). Prints per case the puzzles
made, the ones with exactly one solution, and the time; exit code 1 if any is not unique.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from grader.core import exact
from grader.generation.generator import Generator, Request
from grader.rating.loading import puzzle_from_dict
from grader.rating.registry import families

T, E, N, H, X = "trivial", "easy", "normal", "hard", "expert"
ND = {"nontrivial": True, "distinct": True}
CASES: list[tuple[str, tuple[int, int], dict, str, int]] = [
    *(("tango", (6, 6), {}, level, 100) for level in (T, E, N, H, X)),
    *(("binairo", (6, 6), {}, level, 60) for level in (T, E, N)),
    ("binairo", (8, 8), {}, H, 30),
    ("binairo", (8, 8), {"unique_lines": True}, N, 50),
    ("binairo", (10, 10), {}, N, 50),
    ("binairo", (14, 14), {}, N, 20),
    ("sudoku", (4, 4), {}, T, 50),
    ("sudoku", (6, 6), {}, T, 50),
    ("sudoku", (9, 9), {}, E, 40),
    ("sudoku", (9, 9), {}, N, 20),
    *(("siteswap", (3, 4), ND, level, 30) for level in (T, E, H)),
    ("siteswap", (4, 5), ND, E, 20),
    ("siteswap", (9, 9), {"latin": True, "boxes": True}, T, 10),
    *(("pairplace", (6, 6), {}, level, 40) for level in (T, E)),
    ("pairplace", (8, 8), {}, N, 30),
    ("pairplace", (10, 10), {}, H, 5),
    *(("path", (6, 6), {}, level, 20) for level in (T, E, N, H)),
    ("path", (8, 8), {}, E, 10),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    known = families()
    total = unique = 0
    for family, size, options, level, count in CASES:
        if family not in known:
            continue
        count = max(1, round(count * args.scale))
        request = Request(family, size, level, count=count, seed=args.seed, options=options)
        started = time.monotonic()
        generator = Generator(request)
        made = ok = 0
        for found in generator.puzzles():
            text = json.dumps(found.data)  # as a user receives it
            puzzle = puzzle_from_dict(json.loads(text), "generated", found.data["id"])
            exact.forget_solvers()  # a fresh solver: nothing shared with the generator
            solutions, _ = exact.count_solutions(puzzle.model, puzzle.givens, 2)
            made += 1
            ok += solutions == 1
            if solutions != 1:
                print(f"  NOT UNIQUE ({solutions}): {text}", flush=True)
        note = f"  ({generator.gave_up})" if generator.gave_up else ""
        rows, cols = size
        label = f"{family} {cols}x{rows} {level} {options or ''}"
        print(
            f"{label:<40} {made:>4} made {ok:>4} unique {time.monotonic() - started:7.1f} s{note}",
            flush=True,
        )
        total += made
        unique += ok
    print(f"total {total} puzzles, {unique} unique, {total - unique} not unique")
    return 0 if total == unique else 1


if __name__ == "__main__":
    sys.exit(main())
