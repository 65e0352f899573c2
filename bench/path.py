"""Path Puzzles figures: the shared examples, the exact search, and generation by size and level.

    python bench/path.py                 # everything (about a minute on 2 cores)
    python bench/path.py --quick         # one puzzle per size and level, sizes 6 and 8
    python bench/path.py --examples      # only the 26 shared examples
    python bench/path.py --skip-examples --sizes 8 --levels expert --count 3   # one row

For the examples: each puzzle's level, time and techniques, then which techniques each level
needed. For generation: seconds per puzzle, attempts, and a check of every puzzle by the exact
search (solutions must be 1) and by grading (its level must be the one asked for).
"""

from __future__ import annotations

import argparse
import collections
import statistics
import sys
import time
from pathlib import Path

from vs_common import DEFAULT_DATA

from grader.core.exact import count_solutions, search_for
from grader.generation.generator import Generator, Request
from grader.rating.grading import grade
from grader.rating.loading import load, puzzle_from_dict

LEVELS = ("trivial", "easy", "normal", "hard", "expert")
EXAMPLES = "path_puzzles_examples.json"


def examples_file() -> Path | None:
    path = DEFAULT_DATA / EXAMPLES
    return path if path.exists() else None


def examples() -> None:
    path = examples_file()
    if path is None:
        print(f"{EXAMPLES} not found; skipped")
        return
    by_level: dict[str, set[str]] = collections.defaultdict(set)
    counts = collections.Counter()
    total = 0.0
    exact = []
    for puzzle in load(str(path)):
        started = time.monotonic()
        solutions, _ = count_solutions(puzzle.model, puzzle.givens, 2)
        exact.append(time.monotonic() - started)
        result = grade(puzzle)
        total += result.seconds
        used = sorted(result.technique_counts(), key=lambda n: result.technique_counts()[n]["cost"])
        counts[result.level] += 1
        by_level[result.level].update(used)
        check = result.solution_check()
        print(
            f"{puzzle.id:<8} solutions {solutions}  {result.level:<8} {result.seconds:6.3f} s  "
            f"{check:<8} {', '.join(used)}"
        )
    print(f"\n26 examples graded in {total:.2f} s; levels: {dict(counts)}")
    print(f"exact search per example: median {statistics.median(exact) * 1000:.1f} ms")
    for level in LEVELS:
        if level in by_level:
            print(f"  {level:<8} needed: {', '.join(sorted(by_level[level]))}")


def generation(sizes: list[int], count: int, levels: list[str]) -> None:
    header = (
        f"{'size':<6} {'level':<8} {'made':>4} {'median s':>9} {'max s':>7} {'cpu s':>7} "
        f"{'attempts':>8}"
    )
    print(f"\n{header}  check")
    used_by_level: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for size in sizes:
        for level in levels:
            request = Request("path", (size, size), level, count=count, seed=11, max_attempts=100)
            generator = Generator(request)
            times, problems = [], []
            cpu = 0.0
            started = time.monotonic()
            cpu_started = time.process_time()
            for found in generator.puzzles():
                now = time.monotonic()
                times.append(now - started)
                cpu += time.process_time() - cpu_started
                puzzle = puzzle_from_dict(found.data, "generated", "generated")
                solutions, _ = count_solutions(puzzle.model, puzzle.givens, 2)
                result = grade(puzzle)
                if solutions != 1:
                    problems.append(f"{solutions} solutions")
                if result.level != level:
                    problems.append(f"graded {result.level}")
                used_by_level[level].update(list(result.technique_counts()))
                started, cpu_started = time.monotonic(), time.process_time()
            median = statistics.median(times) if times else float("nan")
            check = "ok" if not problems and times else "; ".join(problems) or generator.gave_up
            print(
                f"{f'{size}x{size}':<6} {level:<8} {len(times):>4} {median:9.2f} "
                f"{max(times, default=0):7.2f} {cpu:7.1f} {generator.attempts:>8}  {check}",
                flush=True,
            )
    print("\ntechniques used by the generated puzzles, per level (puzzles using each):")
    for level in levels:
        names = ", ".join(f"{n} {c}" for n, c in sorted(used_by_level[level].items()))
        print(f"  {level:<8} {names}")


def exact_speed() -> None:
    """Uniqueness checks of generated 10x10 puzzles: one solver per puzzle, lazy loop cuts."""
    request = Request("path", (10, 10), "hard", count=3, seed=3, max_attempts=100)
    for found in Generator(request).puzzles():
        puzzle = puzzle_from_dict(found.data, "generated", "generated")
        started = time.monotonic()
        search = search_for(puzzle.model)
        built = time.monotonic() - started
        solutions, _ = search.count(puzzle.givens, 2)
        took = time.monotonic() - started - built
        print(
            f"10x10 exact search: build {built * 1000:.1f} ms, count {took * 1000:.1f} ms, "
            f"{search.calls} SAT calls, solutions {solutions}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--examples", action="store_true")
    parser.add_argument("--skip-examples", action="store_true")
    parser.add_argument("--count", type=int, default=2, help="puzzles per size and level")
    parser.add_argument("--sizes", type=int, nargs="+", help="board sides (default 6 8 10)")
    parser.add_argument("--levels", nargs="+", choices=LEVELS, help="levels (default all)")
    args = parser.parse_args()
    if not args.skip_examples:
        examples()
    if args.examples:
        return
    levels = args.levels or list(LEVELS)
    if args.quick:
        exact_speed()
        generation(args.sizes or [6, 8], 1, levels)
    else:
        if not args.sizes:
            exact_speed()
        generation(args.sizes or [6, 8, 10], args.count, levels)


if __name__ == "__main__":
    sys.exit(main())
