"""The Path Puzzles file's pydantic schema: the fields a puzzle file may carry, checked on
loading (imported only when a file is validated: pydantic's import is a third of a
process's start-up, and a text format needs none of it)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.schema import PuzzleFileBase


class DoorObject(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)
    row: int
    col: int
    side: str


class PathFile(PuzzleFileBase):
    """A Path Puzzles file. ``doors`` are ``[row, col, side]`` (or ``{"row", "col", "side"}``)
    with side N, S, E or W; ``holes`` are cells cut out of the room; ``walls`` are inner walls
    ``[r1, c1, r2, c2]`` between neighbours. ``solution`` draws the path with ``│─┌┐└┘`` and
    ``-`` for empty cells; ``solution_path`` lists its cells from door to door."""

    family: Literal["path"]
    size: tuple[int, int] | int | None = Field(default=None, description="[rows, cols]")
    rows: int | None = None
    cols: int | None = None
    row_clues: list[int | None] | None = None
    col_clues: list[int | None] | None = None
    doors: list[tuple[int, int, str] | DoorObject] = Field(
        description="[row, col, side N/E/S/W] of a boundary cell; rows and columns count from 0 "
        "(explanations say r1c1 for [0, 0])"
    )
    holes: list[tuple[int, int]] = Field(
        default_factory=list, description="[row, col] of cut-out cells, counted from 0"
    )
    walls: list[tuple[int, int, int, int]] = Field(
        default_factory=list,
        description="[r1, c1, r2, c2]: a wall between two adjacent cells, counted from 0",
    )
    edge_model: dict[str, Any] | None = None
    solution: list[str] | None = None
    solution_path: list[tuple[int, int]] | None = None
    verified_solution: bool | None = None
    solution_count: int | None = None
    solution_count_exhaustive: bool | None = None
