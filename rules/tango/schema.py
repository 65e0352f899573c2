"""The Tango file's pydantic schema: the fields a puzzle file may carry, checked on
loading (imported only when a file is validated: pydantic's import is a third of a
process's start-up, and a text format needs none of it)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from rules.schema import PuzzleFileBase
from rules.tango.model import Sign


class TangoFile(PuzzleFileBase):
    family: Literal["tango"]
    size: tuple[int, int] | int | None = Field(default=None, description="[rows, cols]")
    grid: list[str]
    signs: list[Sign] = Field(
        default_factory=list,
        description="[r1, c1, r2, c2, '=' or 'x'] between two adjacent cells; rows and columns "
        "count from 0 (explanations say r1c1 for [0, 0])",
    )
    solution: list[str] | None = None
