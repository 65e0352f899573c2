"""The pair place file's pydantic schema: the fields a puzzle file may carry, checked on
loading (imported only when a file is validated: pydantic's import is a third of a
process's start-up, and a text format needs none of it)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from rules.pairplace.file import Edge
from rules.schema import PuzzleFileBase


class PairPlaceFile(PuzzleFileBase):
    family: Literal["pairplace", "pair_place"] = Field(
        description="the family: pairplace (pair_place is read too)"
    )
    header: str | None = Field(
        default=None,
        description="the column letters: an even number (2-16) of distinct letters, e.g. "
        "ABCDEF; spaces are ignored; give header or n",
    )
    n: int | None = Field(
        default=None,
        description="number of letters, 2-16: the header is then the first n of A-Z (when "
        "both are given they must agree)",
    )
    grid: list[str] | None = Field(
        default=None,
        description="one row per colour, one cell per header letter: the cell in row r, "
        "column X holds Y when the edge X-Y has colour r (and then column Y holds X); `.` "
        "for unknown; spaces are ignored; default: no givens",
    )
    puzzle: list[str] | None = Field(
        default=None, description="the shared examples' name for grid (give one of the two)"
    )
    edges: list[Edge] | None = Field(
        default=None,
        description="the graph as letter pairs ('AB', 'A-B' or ['A', 'B']), each once; every "
        "letter needs the same number of edges; default: the complete graph K_n",
    )
    colours: int | None = Field(
        default=None,
        description="number of rows; it must equal the edges at each letter (its default: "
        "n - 1 for K_n)",
    )
    solution: list[str] | None = Field(
        default=None,
        description="the solved grid, rows of header letters with no `.`; the report says "
        "whether the grader's solution matches it (solution_check)",
    )
    verified_solution: bool | None = Field(
        default=None, description="the shared examples' mark that solution was checked; not read"
    )
