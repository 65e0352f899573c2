"""The third-party puzzle files of ../shared/data as puzzle dicts (read, never copied).

Used by the tests (which skip when the data is absent) and by the benchmarks under ``bench/``.
"""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Iterator
from pathlib import Path

SHARED_DATA = Path(
    os.environ.get("GRADER_SHARED_DATA")
    or Path(__file__).resolve().parent.parent.parent / "shared" / "data"
)
"""../shared/data beside the checkout, or the folder ``$GRADER_SHARED_DATA`` names (a checkout
elsewhere, such as a git worktree)."""


def rows_of(path: Path) -> Iterator[dict]:
    for line in path.read_text().splitlines():
        if line.strip():
            yield json.loads(line)


def tango_real(path: Path = SHARED_DATA / "tango_real.jsonl") -> Iterator[tuple[dict, dict]]:
    """(row of the file, puzzle dict) for each real LinkedIn Tango."""
    for row in rows_of(path):
        yield (
            row,
            {
                "family": "tango",
                "id": row["id"],
                "grid": row["rows"],
                "signs": row["constraints"],
                "solution": row["solution"],
            },
        )


def binairo_external(
    path: Path = SHARED_DATA / "binairo_external.jsonl",
) -> Iterator[tuple[dict, dict]]:
    """(row of the file, puzzle dict) for each binarypuzzle.com / puzzle-binairo.com puzzle."""
    for row in rows_of(path):
        yield (
            row,
            {
                "family": "binairo",
                "id": row["id"],
                "grid": row["puzzle"],
                "solution": row["solution"],
                "rules": {"unique_lines": row["unique_rows_rule"]},
            },
        )


def sudoku_se(path: Path = SHARED_DATA / "sudoku_se_dev.csv") -> Iterator[tuple[dict, dict]]:
    """(row of the CSV, puzzle dict) for each Sudoku rated by Sudoku Explainer."""
    with path.open(newline="") as handle:
        for line, row in enumerate(csv.DictReader(handle), 2):
            cells = row["puzzle"]
            grid = [cells[r * 9 : r * 9 + 9] for r in range(9)]
            yield row, {"family": "sudoku", "id": f"{path.name}:{line}", "grid": grid}


def siteswap_examples(
    path: Path = SHARED_DATA / "siteswap_examples.json", solved_grids: bool = False
) -> Iterator[tuple[dict, dict]]:
    """(entry of the file, puzzle dict) for each shared siteswap puzzle; the rules are named in
    the entry's ``rules`` text. An entry with a solution and no puzzle (Mermelstein's grid) is
    no puzzle: it comes only with ``solved_grids``, as a puzzle whose grid is its solution."""
    from rules.siteswap.file import examples_document

    data = json.loads(path.read_text())
    entries = {entry["id"]: entry for entry in data["puzzles"]}
    for puzzle in examples_document(data, solved_grids) or []:
        yield entries[puzzle["id"]], {k: v for k, v in puzzle.items() if k != "name"}
