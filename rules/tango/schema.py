"""The Tango file's pydantic schema: the fields a puzzle file may carry, checked on
loading (imported only when a file is validated: pydantic's import is a third of a
process's start-up, and a text format needs none of it)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from rules.schema import PuzzleFileBase
from rules.tango.model import Sign


class TangoFile(PuzzleFileBase):
    family: Literal["tango"] = Field(description="the family: tango")
    size: tuple[int, int] | int | None = Field(
        default=None,
        description="[rows, cols], or one number for a square; default: the grid's shape",
    )
    grid: list[str] = Field(
        description="one string per row, all of one length: `S` for a sun, `M` for a moon, `.` "
        "for an empty cell (`S..M..` is a row of six)"
    )
    signs: list[Sign] = Field(
        default_factory=list,
        description='`[r1, c1, r2, c2, "="]` or `[r1, c1, r2, c2, "x"]` between two '
        "orthogonally adjacent cells: `=` the two are the same, `x` they differ; rows and "
        "columns count from 0 (explanations say r1c1 for [0, 0]); either cell may come "
        "first, at most one sign per pair",
    )
    solution: list[str] | None = Field(
        default=None,
        description="the solved grid, rows of `S` and `M` (no `.`); the report says whether the "
        "grader's solution matches it (solution_check)",
    )
