"""Ratings under the families' own symmetries: how many puzzles grade differently once turned,
mirrored, relabelled (``Family.symmetric_copies``, the copies ``grader canon`` keys alike).

    python bench/symmetry.py                      # every family, shared collections + examples
    python bench/symmetry.py --family sudoku --count 30

For each puzzle every symmetric copy is graded and compared with the original on what must
not move: solutions, difficulty, effort, level and the technique counts. The script prints per
family the puzzles, the copies, and how many puzzles changed in each figure, with the CPU
seconds. Reads ../shared/data when it is there (the real Tangos, the external Binairos, the SE
Sudokus, the path font, the siteswaps); else the examples only.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import shared_sets  # noqa: E402
from grader.rating.grading import grade  # noqa: E402
from grader.rating.loading import load, puzzle_from_dict  # noqa: E402
from grader.testing import rating  # noqa: E402

COLLECTIONS = {
    "tango": "tango_real.jsonl",
    "binairo": "binairo_external.jsonl",
    "sudoku": "sudoku_se_dev.csv",
    "path": "path_puzzles_examples.json",
    "siteswap": "siteswap_examples.json",
    "pairplace": "pair_place_examples.json",
}


def shared_puzzles(family: str, path: Path) -> list:
    """Every puzzle of a shared collection, as loaded puzzles."""
    if family == "sudoku":
        with path.open() as handle:
            rows = list(csv.DictReader(handle))
        return [
            puzzle_from_dict(
                {"family": "sudoku", "grid": [r["puzzle"][i : i + 9] for i in range(0, 81, 9)]},
                path.name,
                f"{path.name}:{n + 2}",
            )
            for n, r in enumerate(rows)
        ]
    readers = {"tango": shared_sets.tango_real, "binairo": shared_sets.binairo_external}
    if family in readers:
        return [puzzle_from_dict(d, path.name, str(d["id"])) for _, d in readers[family](path)]
    if family == "siteswap":
        found = shared_sets.siteswap_examples(path)
        return [puzzle_from_dict(d, path.name, str(d.get("id"))) for _, d in found]
    return load(str(path), family)


def puzzles_of(family: str, count: int) -> list:
    """Up to ``count`` puzzles of a family: the shared collection's, evenly spaced, else the
    project's examples."""
    path = shared_sets.SHARED_DATA / COLLECTIONS[family]
    found = shared_puzzles(family, path) if path.exists() else []
    if found:
        found = found[:: max(1, len(found) // count)]
    else:
        for example in sorted((ROOT / "examples").glob("*.json")):
            found += [p for p in load(str(example)) if p.family.name == family]
    return found[:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--family", action="append", help="only these families")
    parser.add_argument("--count", type=int, default=20, help="puzzles per family")
    args = parser.parse_args()
    for family in args.family or list(COLLECTIONS):
        started = time.process_time()
        puzzles = puzzles_of(family, args.count)
        changed: Counter[str] = Counter()
        copies = 0
        examples = []
        for puzzle in puzzles:
            base = rating(grade(puzzle))
            data = puzzle.family.to_data(puzzle.model, puzzle.clue_state)
            moved_keys: set[str] = set()
            for name, copy in puzzle.family.symmetric_copies(data):
                copies += 1
                other = rating(grade(puzzle_from_dict(copy, name, name)))
                diff = {k for k in base if base[k] != other[k]}
                if diff and not moved_keys:
                    examples.append(
                        f"{puzzle.id} {name}: "
                        + ", ".join(
                            f"{k} {base[k]} -> {other[k]}"
                            for k in sorted(diff)
                            if k != "techniques"
                        )
                    )
                moved_keys |= diff
            changed.update(moved_keys)
        seconds = time.process_time() - started
        figures = ", ".join(
            f"{k} {changed[k]}"
            for k in ("solutions", "difficulty", "effort", "level", "techniques")
        )
        print(
            f"{family}: {len(puzzles)} puzzles, {copies} copies; puzzles changed: {figures} "
            f"({seconds:.1f} CPU s)",
            flush=True,
        )
        for line in examples[:3]:
            print(f"  e.g. {line}", flush=True)


if __name__ == "__main__":
    main()
