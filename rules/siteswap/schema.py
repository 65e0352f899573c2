"""The siteswap file's pydantic schema: the fields a puzzle file may carry, checked on
loading (imported only when a file is validated: pydantic's import is a third of a
process's start-up, and a text format needs none of it)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.schema import PuzzleFileBase


class SiteswapRules(BaseModel):
    """The options of a siteswap grid (`grader generate --rule KEY=VALUE` takes the same)."""

    model_config = ConfigDict(extra="forbid", defer_build=True)
    throws: tuple[int, int] = Field(
        default=(1, 9),
        description="[lowest, highest] throw allowed, within 0-35 (`a-z` are 10-35)",
    )
    latin: bool = Field(default=False, description="no throw twice in a run")
    boxes: bool | tuple[int, int] = Field(
        default=False,
        description="sudoku boxes, each holding no throw twice: true (the default shape of a "
        "square grid: 9x9 has 3x3 boxes) or [rows, cols] of a box; the grid has no holes",
    )
    nontrivial: bool = Field(default=False, description="each run holds two different throws")
    distinct: bool = Field(
        default=False, description="runs of equal length differ, also up to rotation"
    )


class SiteswapFile(PuzzleFileBase):
    family: Literal["siteswap"] = Field(description="the family: siteswap")
    size: tuple[int, int] | int | None = Field(
        default=None,
        description="[rows, cols], or one number for a square, at most 40; default: the "
        "grid's shape",
    )
    rules: SiteswapRules = Field(
        default=SiteswapRules(), description="the rules' options (table below)"
    )
    grid: list[str] = Field(
        description="one string per row, all of one length: a throw `0-9` or `a-z` (10-35; "
        "upper case too) for a given cell, `.` for an unknown one, a space for a hole (written "
        "out); "
        "every row and column run of two or more cells between holes is a siteswap"
    )
    solution: list[str] | None = Field(
        default=None,
        description="the solved grid, the same rows with every `.` filled (holes stay spaces); "
        "the report says whether the grader's solution matches it (solution_check)",
    )
