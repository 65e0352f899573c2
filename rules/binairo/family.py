"""Binairo (Takuzu, Unruly): 0/1 grids, no three equal in a row, balanced lines, optional
distinct lines.

The file and Unruly game IDs are read in :mod:`rules.binairo.file`; the model, the techniques
(levels after Simon Tatham's Unruly solver) and the shared family hooks live in
:mod:`rules.binary`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from grader.core.model import Model, State
from grader.rating.family import Family, TechniqueSpec, TextFormat
from rules.binairo.file import BINAIRO_SYMBOLS, UnrulyText, parse_unruly_id
from rules.binary.family import binary_copies, binary_key, format_binary, random_binary_solution
from rules.binary.model import build_binary
from rules.binary.techniques import binary_table
from rules.cells import grid_size, parse_cells, refuse_unknown_options, solution_values

if TYPE_CHECKING:
    from rules.binairo.schema import BinairoFile


class Binairo(Family):
    name = "binairo"
    schema_at = "rules.binairo.schema:BinairoFile"
    title = "Binairo (Takuzu, Unruly)"
    default_size = (8, 8)
    largest_size = (200, 200)
    largest_rules = {"unique_lines": True}  # noqa: RUF012
    options = {  # noqa: RUF012
        "unique_lines": "no two rows and no two columns are equal (true/false)"
    }
    byte_states = True  # the binary techniques read states by index and slice
    reachable = {  # noqa: RUF012  (bench/reachable.py; the levels not listed were not settled)
        (6, 6): ("trivial", "easy", "normal", "expert"),
        (8, 8): ("trivial", "easy", "normal", "hard", "expert"),
        (10, 10): ("trivial", "easy", "normal", "hard", "expert"),
        (14, 14): ("trivial", "easy", "normal", "hard", "expert"),
    }
    out_of_reach = {(6, 6): ("hard",)}  # noqa: RUF012  (no puzzle in 100 tries)
    example = {  # noqa: RUF012
        "family": "binairo",
        "rules": {"unique_lines": True},
        "grid": [
            "0....0.0",
            "0.......",
            "...0...0",
            "..1.....",
            "......00",
            "1..0..1.",
            "...0.1..",
            "....1...",
        ],
    }

    text_formats = (
        TextFormat(
            "Unruly game ID",
            "Simon Tatham's Unruly game ID, `WxH:` or `WxHu:` (width, then height) and the "
            "cells row by row: each letter skips as many empty cells as its place in the "
            "alphabet (`a` none, `b` one...), then gives a `0` (lower case) or a `1` (upper "
            "case); `z`/`Z` skips 25 cells and gives nothing; the last letter counts the "
            "empty cells at the end. `u` is the `unique_lines` rule (no two rows and no two "
            "columns equal); a difficulty (`dt`, `de`, `dn`) after the size is ignored.",
            "8x8u:aebakdClaAcCeBGd",
        ),
    )

    def parse_text(self, text: str) -> dict[str, Any] | None:
        return parse_unruly_id(text)

    def text_spec(self, data: dict[str, Any]) -> UnrulyText:
        return UnrulyText.of(data)

    def build(self, spec: BinairoFile | UnrulyText) -> tuple[Model, State, list[int] | None]:
        rows, cols = grid_size(spec.size, spec.grid)
        cells = parse_cells(spec.grid, BINAIRO_SYMBOLS)
        model, givens = build_binary(
            "binairo",
            rows,
            cols,
            cells,
            unique=spec.rules.unique_lines,
            symbols={0: "0", 1: "1"},
            value_names={0: "0", 1: "1"},
        )
        return model, givens, solution_values(spec.solution, rows, cols, BINAIRO_SYMBOLS)

    def format_grid(self, model: Model, state: State) -> list[str]:
        return format_binary(model, state)

    def to_data(self, model: Model, state: State) -> dict[str, Any]:
        return {
            "family": "binairo",
            "size": [model.rows, model.cols],
            "rules": {"unique_lines": bool(model.options.get("unique_lines"))},
            "grid": format_binary(model, state),
        }

    def technique_table(self, model: Model) -> list[TechniqueSpec]:
        return binary_table(model)

    def empty_model(self, size: tuple[int, int], options: Mapping[str, Any]) -> Model:
        refuse_unknown_options(options, tuple(self.options))
        rows, cols = size
        spec = self.schema.model_validate(
            {"family": "binairo", "grid": ["." * cols] * rows, "rules": dict(options)}
        )
        return self.build(spec)[0]

    def random_solution(self, model: Model, rng: random.Random) -> list[int]:
        return random_binary_solution(self, model, rng)

    def canonical_key(self, model: Model, state: State) -> str:
        return binary_key(model, state)

    def symmetric_copies(self, data: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        return binary_copies(data, "0", "1")


FAMILY = Binairo()
