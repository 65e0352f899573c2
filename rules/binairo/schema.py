"""The Binairo file's pydantic schema: the fields a puzzle file may carry, checked on
loading (imported only when a file is validated: pydantic's import is a third of a
process's start-up, and a text format needs none of it)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.schema import PuzzleFileBase


class BinairoRules(BaseModel):
    """The options of a Binairo (`grader generate --rule KEY=VALUE` takes the same)."""

    model_config = ConfigDict(extra="forbid", defer_build=True)
    unique_lines: bool = Field(
        default=False,
        description="no two rows and no two columns are equal (the `u` of an Unruly game ID)",
    )


class BinairoFile(PuzzleFileBase):
    family: Literal["binairo"] = Field(description="the family: binairo")
    size: tuple[int, int] | int | None = Field(
        default=None,
        description="[rows, cols], or one number for a square; default: the grid's shape",
    )
    rules: BinairoRules = Field(
        default=BinairoRules(), description="the rules' options (table below)"
    )
    grid: list[str] = Field(
        description="one string per row, all of one length: `0` and `1` for given cells, `.` "
        "for an empty one (`0..1..` is a row of six)"
    )
    solution: list[str] | None = Field(
        default=None,
        description="the solved grid, rows of `0` and `1` (no `.`); the report says whether the "
        "grader's solution matches it (solution_check)",
    )
