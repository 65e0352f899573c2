"""Grading speed: puzzles per second on real Tangos, Binairos 8x8 to 14x14 and a 50x50.

    python bench/grade.py

Real puzzles come from ../shared/data when it is there; Binairos are generated here (seeded),
at normal level, and timed only while being graded (uniqueness included, as `grade` does).
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from grader.generation.generator import Request, generate
from grader.rating.grading import grade
from grader.rating.loading import puzzle_from_dict
from shared_sets import SHARED_DATA, binairo_external, tango_real


def timed(label: str, puzzles: list) -> None:
    started = time.monotonic()
    levels: dict[str, int] = {}
    for puzzle in puzzles:
        result = grade(puzzle)
        levels[result.level] = levels.get(result.level, 0) + 1
    seconds = time.monotonic() - started
    rate = len(puzzles) / seconds if seconds else 0.0
    print(f"{label:<28} {len(puzzles):>4} puzzles {seconds:7.2f} s {rate:8.1f} /s  {levels}")


def main() -> None:
    for name, reader in (("tango_real", tango_real), ("binairo_external", binairo_external)):
        path = SHARED_DATA / f"{name}.jsonl"
        if path.exists():
            timed(name, [puzzle_from_dict(data, name, data["id"]) for _, data in reader(path)])
        else:
            print(f"{path}: not available, skipped")
    for n in (8, 10, 12, 14):
        made = [
            puzzle_from_dict(g.data, "bench", g.data["id"])
            for g in generate(Request("binairo", (n, n), "normal", count=20, seed=1))
        ]
        timed(f"binairo {n}x{n} normal", made)
    timed("binairo 50x50, 40% givens", [fifty_by_fifty(0.4)])


def fifty_by_fifty(share: float):
    """A unique 50x50 (a generated normal one) with solution cells added up to ``share``."""
    found = next(generate(Request("binairo", (50, 50), "normal", seed=1)))
    rng = random.Random(1)
    rows = [list(row) for row in found.data["grid"]]
    solution = found.data["solution"]
    open_cells = [(r, c) for r in range(50) for c in range(50) if rows[r][c] == "."]
    rng.shuffle(open_cells)
    for r, c in open_cells[: max(0, round(share * 2500) - (2500 - len(open_cells)))]:
        rows[r][c] = solution[r][c]
    data = {"family": "binairo", "grid": ["".join(row) for row in rows]}
    return puzzle_from_dict(data, "bench", "binairo-50x50")


if __name__ == "__main__":
    main()
