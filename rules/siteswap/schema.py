"""The siteswap file's pydantic schema: the fields a puzzle file may carry, checked on
loading (imported only when a file is validated: pydantic's import is a third of a
process's start-up, and a text format needs none of it)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.schema import PuzzleFileBase


class SiteswapRules(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)
    throws: tuple[int, int] = Field(default=(1, 9), description="[lowest, highest] throw, 0-35")
    latin: bool = Field(default=False, description="no throw twice in a run")
    boxes: bool | tuple[int, int] = Field(
        default=False, description="sudoku boxes: true (default shape) or [rows, cols]"
    )
    nontrivial: bool = Field(default=False, description="each run holds two different throws")
    distinct: bool = Field(
        default=False, description="runs of equal length differ, also up to rotation"
    )


class SiteswapFile(PuzzleFileBase):
    family: Literal["siteswap"]
    size: tuple[int, int] | int | None = Field(default=None, description="[rows, cols]")
    rules: SiteswapRules = SiteswapRules()
    grid: list[str] = Field(description="rows of throws 0-9a-z; . unknown; space a hole")
    solution: list[str] | None = None
