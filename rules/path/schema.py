"""The Path Puzzles file's pydantic schema: the fields a puzzle file may carry, checked on
loading (imported only when a file is validated: pydantic's import is a third of a
process's start-up, and a text format needs none of it)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.schema import PuzzleFileBase


class DoorObject(BaseModel):
    """A door written as an object instead of `[row, col, side]`."""

    model_config = ConfigDict(extra="forbid", defer_build=True)
    row: int = Field(description="the door's cell's row, counted from 0")
    col: int = Field(description="the door's cell's column, counted from 0")
    side: str = Field(description="the side of the cell the door is on: N, E, S or W")


class PathFile(PuzzleFileBase):
    """A Path Puzzles file. ``doors`` are ``[row, col, side]`` (or ``{"row", "col", "side"}``)
    with side N, S, E or W; ``holes`` are cells cut out of the room; ``walls`` are inner walls
    ``[r1, c1, r2, c2]`` between neighbours. ``solution`` draws the path with ``│─┌┐└┘`` and
    ``-`` for empty cells; ``solution_path`` lists its cells from door to door."""

    family: Literal["path"] = Field(description="the family: path")
    size: tuple[int, int] | int | None = Field(
        default=None,
        description="[rows, cols] of the room, or one number for a square, 1-40; or give rows "
        "and cols",
    )
    rows: int | None = Field(default=None, description="number of rows (instead of size)")
    cols: int | None = Field(default=None, description="number of columns (instead of size)")
    row_clues: list[int | None] | None = Field(
        default=None,
        description="one per row, top to bottom: how many cells of the row the path visits, "
        "or null for no clue; default: no row clues",
    )
    col_clues: list[int | None] | None = Field(
        default=None,
        description="one per column, left to right: how many cells of the column the path "
        "visits, or null for no clue; default: no column clues",
    )
    doors: list[tuple[int, int, str] | DoorObject] = Field(
        description="two or more doors, each [row, col, side] (side N, E, S or W) on the "
        "room's boundary, or an object (table below); rows and columns count from 0 "
        "(explanations say r1c1 for [0, 0]); the path joins two of them"
    )
    holes: list[tuple[int, int]] = Field(
        default_factory=list, description="[row, col] of cut-out cells, counted from 0"
    )
    walls: list[tuple[int, int, int, int]] = Field(
        default_factory=list,
        description="[r1, c1, r2, c2]: a wall between two adjacent cells, counted from 0",
    )
    edge_model: dict[str, Any] | None = Field(
        default=None,
        description='the shared examples\' edges: {"top_edge": rows + 1 lists of cols, '
        '"left_edge": rows lists of cols + 1}, each "door", "wall" or "blank" (the top and '
        "left edge of each cell); its walls are added, its doors must be those of doors",
    )
    solution: list[str] | None = Field(
        default=None,
        description="the path drawn, one string per row: `│ ─ ┌ ┐ └ ┘` for a cell on it, `-`, `.` "
        "or a space for one off it; the report says whether the grader's solution matches it "
        "(solution_check)",
    )
    solution_path: list[tuple[int, int]] | None = Field(
        default=None,
        description="the path as its cells [row, col] from one door to the other (read "
        "instead of solution when both are given)",
    )
    verified_solution: bool | None = Field(
        default=None, description="the shared examples' mark that solution was checked; not read"
    )
    solution_count: int | None = Field(
        default=None, description="the shared examples' count of solutions; not read"
    )
    solution_count_exhaustive: bool | None = Field(
        default=None,
        description="the shared examples' mark that solution_count is exact; not read",
    )
