"""LinkedIn Tango: Binairo rules without unique lines, with suns and moons, plus signs between
orthogonal neighbours (``=`` same, ``x`` opposite)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel, Field

from grader.board import Board
from grader.constraints import Relation
from grader.family import Family, TechniqueSpec, require
from grader.model import Model, State
from grader.techniques import RelationPropagation
from rules.binary.family import binary_key, format_binary, random_binary_solution
from rules.binary.model import build_binary
from rules.binary.techniques import binary_table
from rules.schema import PuzzleFileBase, grid_size, parse_cells, solution_values

TANGO_SYMBOLS = {"S": 0, "M": 1}
Sign = tuple[int, int, int, int, Literal["=", "x"]]


class TangoFile(PuzzleFileBase):
    family: Literal["tango"]
    size: tuple[int, int] | int | None = Field(default=None, description="[rows, cols]")
    grid: list[str]
    signs: list[Sign] = Field(default_factory=list, description="[r1, c1, r2, c2, '=' or 'x']")
    solution: list[str] | None = None


def check_signs(signs: list[Sign], rows: int, cols: int) -> list[Sign]:
    """Signs in a canonical order, each between two orthogonal neighbours of the grid."""
    seen: set[tuple[int, int, int, int]] = set()
    out = []
    for i, (r1, c1, r2, c2, sign) in enumerate(signs):
        field = f"signs[{i}]"
        for r, c in ((r1, c1), (r2, c2)):
            require(0 <= r < rows and 0 <= c < cols, field, f"cell ({r}, {c}) is outside the grid")
        require(
            abs(r1 - r2) + abs(c1 - c2) == 1,
            field,
            f"cells ({r1}, {c1}) and ({r2}, {c2}) are not neighbours",
        )
        if (r2, c2) < (r1, c1):
            r1, c1, r2, c2 = r2, c2, r1, c1
        require((r1, c1, r2, c2) not in seen, field, "a second sign between the same two cells")
        seen.add((r1, c1, r2, c2))
        out.append((r1, c1, r2, c2, sign))
    return sorted(out)


def tango_model(
    rows: int, cols: int, cells: Sequence[int | None], signs: Sequence[Sign]
) -> tuple[Model, State]:
    """A Tango model: balanced lines with their in-line signs, and a relation per sign."""
    signs = sorted(tuple(s) for s in signs)
    key = " signs=" + ";".join(f"{r1},{c1},{r2},{c2}{s}" for r1, c1, r2, c2, s in signs)
    model, givens = build_binary(
        "tango",
        rows,
        cols,
        cells,
        signs=signs,
        symbols={0: "S", 1: "M"},
        value_names={0: "sun", 1: "moon"},
        key_extra=key,
    )
    relations = []
    for r1, c1, r2, c2, sign in signs:
        a, b = r1 * cols + c1, r2 * cols + c2
        pairs = [(0, 0), (1, 1)] if sign == "=" else [(0, 1), (1, 0)]
        label = f"the {sign} sign between {model.name(a)} and {model.name(b)}"
        relations.append(Relation(a, b, pairs, label, sign))
    model = Model(
        family=model.family,
        rows=rows,
        cols=cols,
        variables=model.variables,
        constraints=model.constraints + tuple(relations),
        symbols=model.symbols,
        value_names=model.value_names,
        key=model.key,
        options={**model.options, "signs": [list(s) for s in signs]},
    )
    return model, givens


class Tango(Family):
    name = "tango"
    title = "LinkedIn Tango"
    schema = TangoFile
    example = {  # noqa: RUF012
        "family": "tango",
        "grid": ["......", ".M....", ".....M", "......", "..S...", "..M.S."],
        "signs": [[1, 5, 2, 5, "="], [1, 2, 2, 2, "x"], [2, 2, 2, 3, "x"], [3, 1, 4, 1, "x"]],
    }

    def build(self, spec: BaseModel) -> tuple[Model, State, list[int] | None]:
        assert isinstance(spec, TangoFile)
        rows, cols = grid_size(spec.size, spec.grid)
        cells = parse_cells(spec.grid, TANGO_SYMBOLS)
        signs = check_signs(list(spec.signs), rows, cols)
        model, givens = tango_model(rows, cols, cells, signs)
        return model, givens, solution_values(spec.solution, rows, cols, TANGO_SYMBOLS)

    def empty_model(self, size: tuple[int, int], options: Mapping[str, Any]) -> Model:
        require(not options, "rules", "tango has no options")
        rows, cols = size
        return tango_model(rows, cols, [None] * (rows * cols), [])[0]

    def random_solution(self, model: Model, rng: random.Random) -> list[int]:
        return random_binary_solution(self, model, rng)

    def extra_hints(self, model: Model, solution: Sequence[int]) -> list[Any]:
        """Every sign between neighbours, as the solution makes it."""
        out = []
        for r in range(model.rows):
            for c in range(model.cols):
                for r2, c2 in ((r, c + 1), (r + 1, c)):
                    if r2 < model.rows and c2 < model.cols:
                        same = solution[r * model.cols + c] == solution[r2 * model.cols + c2]
                        out.append((r, c, r2, c2, "=" if same else "x"))
        return out

    def with_hints(self, model: Model, hints: Sequence[Any]) -> Model:
        return tango_model(model.rows, model.cols, [None] * (model.rows * model.cols), hints)[0]

    def canonical_key(self, model: Model, state: State) -> str:
        return binary_key(model, state, model.options.get("signs", []))

    def format_grid(self, model: Model, state: State) -> list[str]:
        return format_binary(model, state)

    def to_data(self, model: Model, state: State) -> dict[str, Any]:
        return {
            "family": "tango",
            "size": [model.rows, model.cols],
            "grid": format_binary(model, state),
            "signs": [list(s) for s in model.options.get("signs", [])],
        }

    def board(self, model: Model, state: State, givens: State | None = None) -> Board:
        board = super().board(model, state, givens)
        for r1, c1, r2, c2, sign in model.options.get("signs", []):
            board.marks.append(((r1, c1), (r2, c2), sign))
        return board

    def count_givens(self, puzzle) -> int:
        return super().count_givens(puzzle) + len(puzzle.model.options.get("signs", []))

    def technique_table(self, model: Model) -> list[TechniqueSpec]:
        table = binary_table(model)
        return [table[0], table[1], TechniqueSpec(RelationPropagation, 1.0, "trivial"), *table[2:]]


FAMILY = Tango()
