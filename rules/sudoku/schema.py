"""The Sudoku file's pydantic schema: the fields a puzzle file may carry, checked on
loading (imported only when a file is validated: pydantic's import is a third of a
process's start-up, and a text format needs none of it)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from rules.schema import PuzzleFileBase


class SudokuFile(PuzzleFileBase):
    family: Literal["sudoku"] = Field(description="the family: sudoku")
    size: int | tuple[int, int] | None = Field(
        default=None,
        description="n for an n x n grid (or [n, n]), at most 25; default: the number of rows",
    )
    box: tuple[int, int] | None = Field(
        default=None,
        description="[rows, cols] of a box, rows x cols = n; default by size: 4 [2, 2], "
        "6 [2, 3], 8 [2, 4], 9 [3, 3], 12 [3, 4], 16 [4, 4], 25 [5, 5] (needed for other sizes)",
    )
    grid: list[str] = Field(
        description="n strings of n cells: the first n symbols of `1-9` then `A-Z` (4x4: "
        "`1-4`, 9x9: `1-9`, 12x12: `1-9 A-C`, 16x16: `1-9 A-G`, 25x25: `1-9 A-P`; lower case "
        "too), `.` or `0` for an empty cell; spaces are ignored"
    )
    solution: list[str] | None = Field(
        default=None,
        description="the solved grid, rows of the same symbols with no empty cell; the report "
        "says whether the grader's solution matches it (solution_check)",
    )
