"""The pair place file's pydantic schema: the fields a puzzle file may carry, checked on
loading (imported only when a file is validated: pydantic's import is a third of a
process's start-up, and a text format needs none of it)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from rules.pairplace.file import Edge
from rules.schema import PuzzleFileBase


class PairPlaceFile(PuzzleFileBase):
    family: Literal["pairplace", "pair_place"]
    header: str | None = Field(default=None, description="the column letters, e.g. ABCDEF")
    n: int | None = Field(default=None, description="number of letters (default: the header's)")
    grid: list[str] | None = Field(default=None, description="one row per colour, . unknown")
    puzzle: list[str] | None = Field(default=None, description="the shared examples' grid")
    edges: list[Edge] | None = Field(
        default=None, description="the graph as letter pairs ('AB' or ['A', 'B']); default K_n"
    )
    colours: int | None = Field(default=None, description="number of rows (default: degree)")
    solution: list[str] | None = None
    verified_solution: bool | None = None
