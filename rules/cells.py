"""Rows of symbols read into cell values with one-line errors, and the default box shape of a
square grid: what every family's file reading shares (without pydantic, see rules.schema)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from grader.rating.family import require

BOX_SHAPES: dict[int, tuple[int, int]] = {
    4: (2, 2),
    6: (2, 3),
    8: (2, 4),
    9: (3, 3),
    12: (3, 4),
    16: (4, 4),
    25: (5, 5),
}
"""Default box shape (rows, cols) for each side of a square grid with boxes."""


def grid_size(size: tuple[int, int] | int | None, grid: Sequence[str]) -> tuple[int, int]:
    """Rows and columns from ``size`` (or from the grid), checked against the grid."""
    require(len(grid) > 0, "grid", "is empty")
    if size is None:
        rows, cols = len(grid), len(grid[0])
    elif isinstance(size, int):
        rows = cols = size
    else:
        rows, cols = size
    require(rows > 0 and cols > 0, "size", "must be positive")
    require(len(grid) == rows, "grid", f"has {len(grid)} rows, expected {rows}")
    for r, row in enumerate(grid):
        require(len(row) == cols, "grid", f"row {r + 1} has {len(row)} cells, expected {cols}")
    return rows, cols


def parse_cells(
    grid: Sequence[str], symbols: dict[str, int], field: str = "grid", allow_open: bool = True
) -> list[int | None]:
    """Values of a grid's cells row by row (None for ``.``), with one-line errors."""
    out: list[int | None] = []
    known = ", ".join(sorted(symbols)) + (" or ." if allow_open else "")
    for r, row in enumerate(grid):
        for c, char in enumerate(row):
            if char == "." and allow_open:
                out.append(None)
            elif char in symbols:
                out.append(symbols[char])
            else:
                raise_problem(
                    field, f"row {r + 1} column {c + 1}: unknown symbol {char!r} (expected {known})"
                )
    return out


def raise_problem(field: str, problem: str) -> None:
    require(False, field, problem)


def solution_values(
    solution: Sequence[str] | None, rows: int, cols: int, symbols: dict[str, int]
) -> list[int] | None:
    if solution is None:
        return None
    require(len(solution) == rows, "solution", f"has {len(solution)} rows, expected {rows}")
    for r, row in enumerate(solution):
        require(len(row) == cols, "solution", f"row {r + 1} has {len(row)} cells, expected {cols}")
    return [
        v for v in parse_cells(solution, symbols, "solution", allow_open=False) if v is not None
    ]


def refuse_unknown_options(options: Iterable[str], known: Sequence[str]) -> None:
    """Raise a problem naming the first option (``--rule KEY=VALUE``) that is not in ``known``,
    in the same words for every family: ``rules: unknown option 'x' (known: a, b)``."""
    unknown = sorted(set(options) - set(known))
    if unknown:
        listed = ", ".join(known) or "none"
        raise_problem("rules", f"unknown option {unknown[0]!r} (known: {listed})")


def box_rule(value: object) -> object:
    """A box shape as ``--rule`` gives it: ``2x3`` read as sizes are, ``[2, 3]``; any other
    value as it is (the family's schema checks it)."""
    if isinstance(value, str) and re.fullmatch(r"\d+x\d+", value.strip()):
        return [int(part) for part in value.strip().split("x")]
    return value
