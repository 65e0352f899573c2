"""Ways to count a solve's effort, side by side, against LinkedIn's weekday on the real Tangos.

Each of the 103 LinkedIn dailies in ../shared/data is graded once; every variant is computed
from the same solve (its steps and its waves of parallel moves) and the script prints its
Spearman correlation with the weekday (LinkedIn makes the week harder day by day). The shipped
``effort`` is the first line; the rest are what else was tried, so the choice can be checked.

    python bench/effort_variants.py
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests")]

from sudoku_se import spearman  # noqa: E402

from grader.effort import effort, harmonic, wave_costs  # noqa: E402
from grader.grading import grade  # noqa: E402
from grader.loading import puzzle_from_dict  # noqa: E402
from grader.step import Step  # noqa: E402
from shared_sets import SHARED_DATA, tango_real  # noqa: E402

Solve = tuple[Sequence[Step], Sequence[int]]


def per_wave(weight: Callable[[float, int], float]) -> Callable[[Solve], float]:
    """A variant summing ``weight(cost, moves)`` over the waves."""
    return lambda solve: sum(weight(c, n) for c, n in wave_costs(*solve))


VARIANTS: dict[str, Callable[[Solve], float]] = {
    "effort: cost x H(moves) per wave (shipped)": lambda solve: effort(*solve),
    "plain sum of step costs (total_cost)": lambda solve: sum(s.cost for s in solve[0]),
    "each wave's cost once (rounds)": per_wave(lambda c, n: c),
    "cost x sqrt(moves) per wave": per_wave(lambda c, n: c * math.sqrt(n)),
    "cost x (1 + ln moves) per wave": per_wave(lambda c, n: c * (1 + math.log(n))),
    "cost^2 x H(moves) per wave": per_wave(lambda c, n: c * c * harmonic(n)),
    "hardest step (difficulty)": lambda solve: max((s.cost for s in solve[0]), default=0.0),
}


def main() -> int:
    source = SHARED_DATA / "tango_real.jsonl"
    if not source.exists():
        print(f"{source} is not there: this script needs ../shared/data", file=sys.stderr)
        return 2
    rows = list(tango_real(source))
    days = [row["source_weekday_slot"] for row, _ in rows]
    solves: list[Solve] = []
    givens: list[int] = []
    for _row, data in rows:
        result = grade(puzzle_from_dict(data, "effort_variants", str(data.get("id"))))
        solves.append((result.steps, result.run.waves))
        givens.append(result.puzzle.givens.count(1) + result.puzzle.givens.count(2))
    print(f"{len(rows)} LinkedIn Tangos, Spearman of each variant with the weekday:")
    for name, variant in VARIANTS.items():
        print(f"  {spearman([variant(s) for s in solves], days):6.3f}  {name}")
    print(f"  {spearman([-g for g in givens], days):6.3f}  fewer givens (no solve)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
