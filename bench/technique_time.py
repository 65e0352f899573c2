"""Where grading a Sudoku band spends its time: CPU seconds per technique, in one process.

Every ``--every``-th puzzle of ``sudoku_se_dev.csv`` with ``--min-se`` <= SE ER < ``--max-se`` is
graded with each technique's ``find`` timed (only the calls the engine makes: a technique run
inside another, such as the rules nested in a dynamic chain, counts in the outer one), and the
script prints per technique its CPU seconds, share of the total, calls and calls that found a
step. Profile before changing; ``bench/band_cpu.py`` and ``bench/vs_serate.py`` give the figures
to compare checkouts and programs.

    python bench/technique_time.py                       # SE >= 8.5, every 3rd
    python bench/technique_time.py --min-se 6 --max-se 8 --every 2
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from vs_common import DEFAULT_DATA

from grader.core.technique import Context, Technique
from grader.rating.grading import grade
from grader.rating.loading import load
from grader.rating.registry import families


class Timer:
    """CPU seconds, calls and finds per technique name, of the outermost ``find`` calls."""

    def __init__(self) -> None:
        self.seconds: Counter[str] = Counter()
        self.calls: Counter[str] = Counter()
        self.found: Counter[str] = Counter()
        self.depth = 0

    def wrap(self, cls: type[Technique]) -> None:
        """Time ``cls.find`` (its own, not an inherited one already wrapped)."""
        find = cls.find
        timer = self

        def timed(self: Technique, ctx: Context) -> Iterator:
            outer = timer.depth == 0
            steps = find(self, ctx)
            if outer:
                timer.calls[self.name] += 1
            while True:
                timer.depth += 1
                started = time.process_time()
                try:
                    step = next(steps)
                except StopIteration:
                    return
                finally:
                    timer.depth -= 1
                    if outer:
                        timer.seconds[self.name] += time.process_time() - started
                if outer:
                    timer.found[self.name] += 1
                yield step

        cls.find = timed  # type: ignore[method-assign]


def subclasses(cls: type) -> Iterator[type]:
    for sub in cls.__subclasses__():
        yield sub
        yield from subclasses(sub)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="shared data folder")
    parser.add_argument("--min-se", type=float, default=8.5)
    parser.add_argument("--max-se", type=float, default=99.0)
    parser.add_argument("--every", type=int, default=3, help="every n-th puzzle of the band")
    parser.add_argument("--top", type=int, default=15, help="techniques shown")
    args = parser.parse_args()
    if args.every < 1:
        parser.error("--every takes a whole number from 1")
    source = args.data / "sudoku_se_dev.csv"
    if not source.exists():
        print(f"technique_time: {source} is not there (use --data DIR)", file=sys.stderr)
        return 2
    with source.open() as handle:
        rows = [r for r in csv.DictReader(handle)]
    lines = [r["puzzle"] for r in rows if args.min_se <= float(r["se_rating"]) < args.max_se]
    puzzles = [p for line in lines[:: args.every] for p in load(line)]
    families()  # every family's techniques imported, so that each class is wrapped
    timer = Timer()
    for cls in list(subclasses(Technique)):
        if "find" in cls.__dict__:
            timer.wrap(cls)
    started = time.process_time()
    for puzzle in puzzles:
        grade(puzzle)
    total = time.process_time() - started
    print(
        f"{len(puzzles)} puzzles with {args.min_se} <= SE < {args.max_se} (every "
        f"{args.every}): {total:.2f} CPU s"
    )
    print(f"{'technique':<34} {'cpu s':>7} {'share':>6} {'calls':>7} {'found':>6}")
    for name, seconds in timer.seconds.most_common(args.top):
        print(
            f"{name:<34} {seconds:>7.2f} {seconds / total:>6.1%} {timer.calls[name]:>7} "
            f"{timer.found[name]:>6}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
