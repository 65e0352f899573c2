"""The Binairo file's pydantic schema: the fields a puzzle file may carry, checked on
loading (imported only when a file is validated: pydantic's import is a third of a
process's start-up, and a text format needs none of it)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.schema import PuzzleFileBase


class BinairoRules(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)
    unique_lines: bool = False


class BinairoFile(PuzzleFileBase):
    family: Literal["binairo"]
    size: tuple[int, int] | int | None = Field(default=None, description="[rows, cols]")
    rules: BinairoRules = BinairoRules()
    grid: list[str]
    solution: list[str] | None = None
