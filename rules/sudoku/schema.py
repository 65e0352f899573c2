"""The Sudoku file's pydantic schema: the fields a puzzle file may carry, checked on
loading (imported only when a file is validated: pydantic's import is a third of a
process's start-up, and a text format needs none of it)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from rules.schema import PuzzleFileBase


class SudokuFile(PuzzleFileBase):
    family: Literal["sudoku"]
    size: int | tuple[int, int] | None = Field(default=None, description="n (grid is n x n)")
    box: tuple[int, int] | None = Field(
        default=None, description="[rows, cols] of a box; default from the size"
    )
    grid: list[str] = Field(description="rows of symbols 1-9 then A-P; . or 0 blank")
    solution: list[str] | None = None
