"""LinkedIn Tango: Binairo rules without unique lines, with suns and moons, plus signs between
orthogonal neighbours (``=`` same, ``x`` opposite).

The file is read in :mod:`rules.tango.file`, the model built in :mod:`rules.tango.model`, the
technique table in :mod:`rules.tango.techniques` (the techniques are :mod:`rules.binary`'s)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from grader.core.model import Model, State
from grader.rating.board import Board
from grader.rating.family import Family, TechniqueSpec, TextFormat
from rules.binary.family import binary_copies, binary_key, format_binary, random_binary_solution
from rules.cells import grid_size, parse_cells, refuse_unknown_options, solution_values
from rules.tango.file import TANGO_SYMBOLS, check_signs, from_export
from rules.tango.model import tango_model
from rules.tango.techniques import tango_table

if TYPE_CHECKING:
    from rules.tango.schema import TangoFile


class Tango(Family):
    name = "tango"
    schema_at = "rules.tango.schema:TangoFile"
    title = "LinkedIn Tango"
    default_size = (6, 6)
    largest_size = (200, 200)
    byte_states = True  # the binary techniques read states by index and slice
    reachable = {  # noqa: RUF012  (bench/reachable.py; extreme was not settled)
        (6, 6): ("trivial", "easy", "normal", "hard", "expert"),
    }
    example = {  # noqa: RUF012
        "family": "tango",
        "grid": ["......", ".M....", ".....M", "......", "..S...", "..M.S."],
        "signs": [[1, 5, 2, 5, "="], [1, 2, 2, 2, "x"], [2, 2, 2, 3, "x"], [3, 1, 4, 1, "x"]],
    }

    text_formats = (
        TextFormat(
            "LinkedIn Tango export",
            "The export's JSON object (one per line in a `.jsonl` file): `rows` is the "
            '`grid` (`S`, `M`, `.`), `constraints` the `signs` (`[r1, c1, r2, c2, "=" or '
            '"x"]`, counted from 0), `size` one number for a square; `id`, `name` and the '
            "file's other fields as in the table above, and any other key (such as "
            "`linkedin_number`) kept in `meta`. It names no family: read it with "
            '`--family tango` (or add `"family": "tango"`).',
            '{"id": "tango-example", "size": 6, "rows": ["......", ".M....", ".....M", '
            '"......", "..S...", "..M.S."], "constraints": [[1, 5, 2, 5, "="], '
            '[1, 2, 2, 2, "x"], [2, 2, 2, 3, "x"], [3, 1, 4, 1, "x"], [3, 1, 3, 2, "x"], '
            '[0, 3, 0, 4, "x"], [4, 0, 4, 1, "="], [1, 4, 1, 5, "="]], "linkedin_number": 1}',
            needs_family=True,
        ),
    )

    def build(self, spec: TangoFile) -> tuple[Model, State, list[int] | None]:
        rows, cols = grid_size(spec.size, spec.grid)
        cells = parse_cells(spec.grid, TANGO_SYMBOLS)
        signs = check_signs(list(spec.signs), rows, cols)
        model, givens = tango_model(rows, cols, cells, signs)
        return model, givens, solution_values(spec.solution, rows, cols, TANGO_SYMBOLS)

    def empty_model(self, size: tuple[int, int], options: Mapping[str, Any]) -> Model:
        refuse_unknown_options(options, ())
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

    def from_layout(self, data: dict[str, Any]) -> dict[str, Any]:
        """The LinkedIn Tango export's layout (``rows``, ``constraints``) read as a file."""
        return from_export(data)

    def canonical_key(self, model: Model, state: State) -> str:
        return binary_key(model, state, model.options.get("signs", []))

    def symmetric_copies(self, data: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        return binary_copies(data, "S", "M")

    def format_grid(self, model: Model, state: State) -> list[str]:
        return format_binary(model, state)

    def text_board(self, model: Model, state: State) -> list[str]:
        """The grid with each sign between its two cells: ``=`` or ``x`` between the cells of a
        row, on a line of its own between two rows."""
        grid = format_binary(model, state)
        across: dict[tuple[int, int], str] = {}
        down: dict[tuple[int, int], str] = {}
        for r1, c1, r2, c2, sign in model.options.get("signs", []):
            (a, b) = sorted(((r1, c1), (r2, c2)))
            (across if a[0] == b[0] else down)[a] = sign
        lines = []
        for r, row in enumerate(grid):
            seps = [across.get((r, c), " ") for c in range(len(row) - 1)]
            lines.append("".join(ch + sep for ch, sep in zip(row, [*seps, ""], strict=True)))
            if r + 1 < len(grid):
                between = " ".join(down.get((r, c), " ") for c in range(len(row))).rstrip()
                if between:
                    lines.append(between)
        return lines

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
        return tango_table(model)


FAMILY = Tango()
