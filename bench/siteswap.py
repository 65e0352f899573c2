"""Siteswap figures: the shared examples graded (exact search, techniques, level) and generation
by size, rules and level (seconds per puzzle, givens, repetition).

    python bench/siteswap.py                 # everything (several minutes)
    python bench/siteswap.py --budget 10     # seconds of techniques per shared puzzle (60)
    python bench/siteswap.py --skip-examples # generation only

The shared examples are read from ../shared/data/siteswap_examples.json when present.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from grader.core.engine import Engine
from grader.core.exact import count_solutions
from grader.generation.generator import Generator, Request
from grader.rating.costs import choose
from grader.rating.loading import puzzle_from_dict
from rules.siteswap.family import repetition
from shared_sets import SHARED_DATA, siteswap_examples


def examples(budget: float) -> None:
    path = SHARED_DATA / "siteswap_examples.json"
    if not path.exists():
        print(f"{path} not found: skipped")
        return
    print(
        f"shared examples, {budget:g} s of techniques each (solved grids without a puzzle left out)"
    )
    solved = total = 0
    for entry, data in siteswap_examples(path):
        puzzle = puzzle_from_dict(data, str(path), entry["id"])
        started = time.monotonic()
        count, found = count_solutions(puzzle.model, puzzle.givens)
        exact = time.monotonic() - started
        techniques = choose(puzzle.family, puzzle.model)
        started, cpu_started = time.monotonic(), time.process_time()
        run = Engine(
            puzzle.model, techniques, deadline=started + budget, solutions=found, verify=False
        ).run(puzzle.givens)
        seconds, cpu = time.monotonic() - started, time.process_time() - cpu_started
        levels = {t.name: t.level for t in techniques}
        hardest = max(run.steps, key=lambda s: s.cost, default=None)
        matches = found and found[0] == puzzle.solution
        level = levels[hardest.technique] if hardest and run.solved else "-"
        used = Counter(s.technique for s in run.steps)
        print(
            f"  {entry['id']:<36} exact {count} {exact:6.3f} s  matches {bool(matches)!s:<5} "
            f"{run.status:<8} {seconds:7.2f} s ({cpu:.2f} CPU s)  level {level:<8} "
            f"lookahead steps {used.get('lookahead-1', 0) + used.get('lookahead-2', 0)}",
            flush=True,
        )
        total += 1
        solved += run.solved
    print(f"  {solved} of {total} puzzles solved by the techniques within {budget:g} s each")


CASES = [
    ((3, 4), {"nontrivial": True, "distinct": True}, ("trivial", "easy", "hard")),
    ((4, 5), {"nontrivial": True, "distinct": True}, ("trivial", "easy", "hard")),
    ((3, 4), {"throws": [1, 5], "nontrivial": True, "distinct": True}, ("expert",)),
    ((5, 5), {}, ("trivial", "easy")),
    ((6, 7), {"throws": [0, 15], "nontrivial": True, "distinct": True}, ("trivial", "easy")),
    ((9, 9), {"latin": True, "boxes": True}, ("trivial", "easy", "normal")),
    ((9, 9), {"latin": True, "boxes": True, "min_distinct_runs": 16}, ("trivial",)),
]


def generation(count: int, seed: int, timeout: float) -> None:
    print(f"generation: {count} puzzles per row, seed {seed}, at most {timeout:g} s per row")
    for size, options, levels in CASES:
        for level in levels:
            request = Request(
                "siteswap", size, level, count=count, seed=seed, options=options, timeout=timeout
            )
            generator = Generator(request)
            times, givens, runs = [], [], []
            started = time.monotonic()
            for found in generator.puzzles():
                now = time.monotonic()
                times.append(now - started)
                started = now
                givens.append(sum(1 for m in found.givens if m & (m - 1) == 0))
                measure = repetition(found.model, found.solution)
                runs.append(measure["distinct_runs"])
                total = measure["runs"]
                assert count_solutions(found.model, found.givens)[0] == 1
            rules = ",".join(f"{k}={v}" for k, v in options.items()) or "plain"
            label = f"{size[0]}x{size[1]} {rules} {level}"
            if not times:
                print(f"  {label:<62} none ({generator.gave_up})", flush=True)
                continue
            print(
                f"  {label:<62} {len(times)} puzzles  median {statistics.median(times):6.2f} s  "
                f"givens {statistics.median(givens):4.1f}  distinct runs "
                f"{statistics.median(runs):4.1f}/{total}",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--budget", type=float, default=60.0, help="seconds of techniques per shared puzzle"
    )
    parser.add_argument("--count", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--skip-examples", action="store_true")
    parser.add_argument("--skip-generation", action="store_true")
    args = parser.parse_args()
    if not args.skip_examples:
        examples(args.budget)
    if not args.skip_generation:
        generation(args.count, args.seed, args.timeout)


if __name__ == "__main__":
    main()
