"""The siteswap file: the throw symbols, a grid read into holes and throws, and the shared
collection's layout. The file's schema (the rules' options) is in :mod:`rules.siteswap.schema`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from grader.rating.family import require

ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz"
HOLE = " "
OPEN = "."
MAX_SIDE = 40


def throw_range(throws: Sequence[int]) -> tuple[int, int]:
    require(len(throws) == 2, "rules.throws", "must be [lowest, highest]")
    low, high = int(throws[0]), int(throws[1])
    require(0 <= low <= high <= 35, "rules.throws", f"[{low}, {high}] is not a range within 0-35")
    return low, high


def grid_shape(size: tuple[int, int] | int | None, grid: Sequence[str]) -> tuple[int, int]:
    require(len(grid) > 0, "grid", "is empty")
    if size is None:
        rows, cols = len(grid), max(len(row) for row in grid)
    elif isinstance(size, int):
        rows = cols = size
    else:
        rows, cols = size
    require(rows > 0 and cols > 0, "size", "must be positive")
    require(max(rows, cols) <= MAX_SIDE, "size", f"{rows}x{cols} is larger than {MAX_SIDE}")
    require(len(grid) == rows, "grid", f"has {len(grid)} rows, expected {rows}")
    for r, row in enumerate(grid):
        require(
            len(row) == cols,
            "grid",
            f"row {r + 1} has {len(row)} cells, expected {cols}"
            + (" (a hole is a space, written out)" if len(row) < cols else ""),
        )
    return rows, cols


def parse_grid(
    grid: Sequence[str], rows: int, cols: int, low: int, high: int, field: str, allow_open: bool
) -> tuple[set[tuple[int, int]], dict[tuple[int, int], int]]:
    """Holes and decided throws of a grid, with one-line errors."""
    holes: set[tuple[int, int]] = set()
    values: dict[tuple[int, int], int] = {}
    symbols = f"{ALPHABET[low]}-{ALPHABET[high]}"
    for r in range(rows):
        row = grid[r].ljust(cols, HOLE)
        for c, char in enumerate(row.lower()):
            where = field
            if char == HOLE:
                holes.add((r, c))
            elif char == OPEN:
                require(
                    allow_open, where, f"row {r + 1} column {c + 1} is open; a solution is complete"
                )
            else:
                value = ALPHABET.find(char)
                require(
                    low <= value <= high and value >= 0,
                    where,
                    f"row {r + 1} column {c + 1}: {char!r} is not a throw of this puzzle "
                    f"({symbols}, . unknown, space a hole)",
                )
                values[(r, c)] = value
    return holes, values


def rules_of_text(text: str, throws: Sequence[int]) -> dict[str, Any]:
    """The options a collection entry's rules sentence names: Probst's "complex" puzzles (and
    the 2006 blog's) are nontrivial and distinct, his "simple" ones nontrivial, the rest
    (Mermelstein's) latin with boxes."""
    rules: dict[str, Any] = {"throws": list(throws)}
    if text.startswith(("complex", "2006")):
        rules.update(nontrivial=True, distinct=True)
    elif text.startswith("simple"):
        rules.update(nontrivial=True)
    else:
        rules.update(latin=True, boxes=True)
    return rules


def examples_document(data: Any, solved_grids: bool = False) -> list[dict[str, Any]] | None:
    """The puzzles of a siteswap collection (``{"system": "siteswap_grid", "puzzles": [...]}``,
    each entry with ``rows``, ``cols``, ``throw_range``, a ``rules`` sentence, ``puzzle`` and
    ``solution``) as puzzle dicts; None for anything else. An entry with a solution and no
    puzzle is no puzzle: it comes only with ``solved_grids``, its grid the solution."""
    if not isinstance(data, dict) or data.get("system") != "siteswap_grid":
        return None
    entries = data.get("puzzles")
    if not isinstance(entries, list):
        return None
    out = []
    for entry in entries:
        if not isinstance(entry, dict):
            out.append(entry)  # the loader names what is wrong with it
            continue
        if not entry.get("puzzle") and not solved_grids:
            continue
        puzzle = {
            "family": "siteswap",
            "id": entry.get("id"),
            "size": [entry.get("rows"), entry.get("cols")],
            "rules": rules_of_text(str(entry.get("rules", "")), entry.get("throw_range", (1, 9))),
            "grid": entry.get("puzzle") or entry.get("solution"),
            "solution": entry.get("solution"),
        }
        if entry.get("name"):
            puzzle["name"] = entry["name"]
        out.append(puzzle)
    return out
