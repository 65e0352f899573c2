"""Sudoku of every box size (4, 6, 8, 9, 12, 16, 25), graded on the Sudoku Explainer scale.

Costs are Sudoku Explainer 1.2.1's ratings (full house 1.0 ... dynamic forcing chains 8.5+);
chain steps add SE's length bonus, so a step's cost is the number SE would print. The report
adds SE's three figures: ``er`` (hardest step), ``ep`` (hardest step up to the first placed
digit) and ``ed`` (the first step). Puzzles load from JSON, from one-line strings (81 characters
for 9x9, ``.`` or ``0`` blank) and from Simon Tatham's Solo game IDs (``3x3:a2b...``).

The file and text formats are read in :mod:`rules.sudoku.file`, the model built in
:mod:`rules.sudoku.model`, the techniques and their table are in :mod:`rules.sudoku.techniques`;
here: the family, the SE levels and figures, random grids and the canonical key.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from grader.core.errors import FieldProblem
from grader.core.model import Model, State, is_single, single_value
from grader.core.symmetry import named_board_transforms, transformed_rows
from grader.rating.board import Board
from grader.rating.costs import choose
from grader.rating.family import Family, TechniqueSpec, TextFormat, require
from grader.rating.target import Target
from grader.techniques.houses import crossed_out, stated_givens
from rules.cells import box_rule, refuse_unknown_options
from rules.sudoku.canonical import canonical_form
from rules.sudoku.chains.chaining import length_bonus
from rules.sudoku.file import (
    SYMBOLS,
    SudokuText,
    box_shape,
    clue_state,
    givens_of,
    grid_side,
    parse_line,
    parse_solo_id,
    parse_values,
)
from rules.sudoku.model import build_model
from rules.sudoku.techniques import sudoku_table

if TYPE_CHECKING:
    from rules.sudoku.schema import SudokuFile

SE_LEVELS: tuple[tuple[float, str], ...] = (
    (1.5, "trivial"),
    (2.5, "easy"),
    (3.9, "normal"),
    (6.4, "hard"),
    (7.9, "expert"),
)
"""Upper SE bound of each named level; above the last, ``extreme``."""


LEVEL_BANDS: dict[str, tuple[float, float]] = {
    "trivial": (1.0, 1.5),
    "easy": (1.6, 2.5),
    "normal": (2.6, 3.9),
    "hard": (4.0, 6.4),
    "expert": (6.5, 7.9),
    "extreme": (8.0, 20.0),
}


class Sudoku(Family):
    name = "sudoku"
    schema_at = "rules.sudoku.schema:SudokuFile"
    title = "Sudoku"
    default_size = (9, 9)
    largest_size = (25, 25)
    options = {  # noqa: RUF012
        "box": "[rows, cols] of a box (default: the squarest shape that fits)"
    }
    reachable = {  # noqa: RUF012  (bench/reachable.py; the levels not listed were not settled)
        (4, 4): ("trivial",),
        (6, 6): ("trivial", "hard", "expert"),
        (9, 9): ("trivial", "easy", "normal", "hard", "expert"),
    }
    out_of_reach = {  # noqa: RUF012  (none in 100 tries; 6x6 easy and normal take 200-300)
        (4, 4): ("easy", "normal", "hard", "expert", "extreme"),
    }
    example = {  # noqa: RUF012
        "family": "sudoku",
        "grid": [
            "53..7....",
            "6..195...",
            ".98....6.",
            "8...6...3",
            "4..8.3..1",
            "7...2...6",
            ".6....28.",
            "...419..5",
            "....8..79",
        ],
    }

    text_formats = (
        TextFormat(
            "one-line grid",
            "The cells row by row on one line: 81 characters for 9x9 (n x n for the other "
            "sizes: 16, 36, 64, 144, 256 or 625 characters, default box shapes). Symbols as "
            "in `grid` (1-9, then A-Z; lower case too); `.` or `0` is an empty cell.",
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        ),
        TextFormat(
            "Solo game ID",
            "Simon Tatham's Solo game ID, `CxR:` and the cells row by row: a number is a clue "
            "(1 to n, digits even past 9), `_` separates two clues in a row, a letter is a "
            "run of empty cells (`a` one, `b` two ... `z` 26). In `CxR` a box is C rows tall "
            "and R columns wide (n = C x R). Jigsaw (`3:`), X, killer and difficulty "
            "suffixes are not read.",
            "3x3:5_3b7d6b1_9_5d9_8d6a8c6c3_4b8a3b1_7c2c6a6d2_8d4_1_9b5d8b7_9",
        ),
    )

    def parse_text(self, text: str) -> dict[str, Any] | None:
        text = text.strip()
        return parse_solo_id(text) or parse_line(text)

    def text_spec(self, data: dict[str, Any]) -> SudokuText:
        return SudokuText.of(data)

    def build(self, spec: SudokuFile | SudokuText) -> tuple[Model, State, list[int] | None]:
        n = grid_side(spec)
        box = box_shape(n, spec.box)
        model = self.empty_model((n, n), {"box": list(box)})
        givens = clue_state(model, spec.grid)
        solution = None
        if spec.solution is not None:
            parsed = parse_values(spec.solution, n, "solution")
            require(all(v is not None for v in parsed), "solution", "has blank cells")
            solution = [int(v) for v in parsed]  # type: ignore[arg-type]
        return model, givens, solution

    def format_grid(self, model: Model, state: State) -> list[str]:
        n = model.rows
        out = []
        for r in range(n):
            row = []
            for c in range(n):
                mask = state[r * n + c]
                row.append(model.symbol(single_value(mask)) if is_single(mask) else ".")
            out.append("".join(row))
        return out

    def to_data(self, model: Model, state: State) -> dict[str, Any]:
        return {
            "family": "sudoku",
            "size": [model.rows, model.cols],
            "box": list(model.options["box"]),
            "grid": self.format_grid(model, state),
        }

    def board(self, model: Model, state: State, givens: State | None = None) -> Board:
        board = super().board(model, state, givens)
        for region, cells in enumerate(box_regions(model)):
            for cell in cells:
                board.regions[cell] = region
        return board

    def technique_table(self, model: Model) -> list[TechniqueSpec]:
        return sudoku_table(model.rows)

    def start_state(self, model: Model, givens: State) -> State:
        return crossed_out(model, givens)

    def stated_cells(self, model: Model, givens: State) -> set[int] | None:
        """Every cell is placed by a step (Sudoku Explainer writes a digit in by a single even
        where eliminations left it one candidate): every house holds every value."""
        return stated_givens(model, givens)

    def count_givens(self, puzzle: Any) -> int:
        grid = puzzle.data.get("grid")
        if isinstance(grid, list):
            return givens_of(grid)
        return super().count_givens(puzzle)

    def levels_text(self) -> str:
        """The named levels with their Sudoku Explainer bands."""
        bands = ", ".join(f"{name} {low:g}-{high:g}" for name, (low, high) in LEVEL_BANDS.items())
        return f"{bands.replace('-20', '+')} (SE rating bands; generate also takes a band 4.0-5.0)"

    def level_of_cost(self, difficulty: float) -> str | None:
        for bound, level in SE_LEVELS:
            if difficulty <= bound + 1e-9:
                return level
        return "extreme"

    def cost_band(self, level: str) -> tuple[float, float]:
        """The SE band of a level name (``hard``) or of ``"4.0-5.0"`` / ``"7.1"``."""
        return se_band(level)

    def report_fields(self, grade: Any) -> dict[str, Any]:
        return se_figures(grade.steps)

    # -- generation ----------------------------------------------------------------------------

    def empty_model(self, size: tuple[int, int], options: Mapping[str, Any]) -> Model:
        n = size[0]
        require(size[0] == size[1], "size", "a sudoku is square")
        refuse_unknown_options(options, tuple(self.options))
        box = box_rule(options.get("box"))  # --rule box=2x3, as sizes
        require(
            not box
            or (
                isinstance(box, list | tuple)
                and len(box) == 2
                and all(isinstance(x, int) and not isinstance(x, bool) for x in box)
            ),
            "box",
            f"must be [rows, cols], not {box!r}",
        )
        shape = box_shape(n, tuple(box) if box else None)  # type: ignore[arg-type]
        return build_model(n, shape)

    def random_solution(self, model: Model, rng: Any) -> list[int]:
        return random_grid(model, rng)

    def generation_target(self, model: Model, level: str, costs: Any) -> Target:
        """A named level or an SE band (``"4.0-5.0"``): the techniques rated up to the band's
        top may be used, and the hardest step must land inside the band."""
        low, high = se_band(level)
        cap = [t for t in choose(self, model, None, costs) if t.cost <= high + 1e-9]
        require(bool(cap), "level", f"no technique is rated within {level!r}")
        return Target(cap, None, min_difficulty=low, max_difficulty=high)

    def reachable_difficulty(
        self, size: tuple[int, int], options: Mapping[str, Any], costs: Any = None
    ) -> float | None:
        """No step is rated above the dearest technique plus SE's length bonus for the longest
        possible chain: a chain's nodes are distinct (cell, value, on/off) potentials, at most
        2 n^3, and a multiple chain sums at most n branches (e.g. 11.0 + 2.4 = 13.4 at 9x9)."""
        n = size[0]
        dearest = max(t.cost for t in choose(self, self.empty_model(size, options), None, costs))
        return round(dearest + length_bonus(2 * n**4), 1)

    def canonical_key(self, model: Model, state: State) -> str:
        return canonical_key(model, state)

    def symmetric_copies(self, data: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        """The board's symmetries (a box shape turns with the board), rows swapped within a
        band and bands swapped, columns and stacks likewise, and the digits renamed."""
        return sudoku_copies(data)


def se_band(level: str) -> tuple[float, float]:
    """``"hard"`` → (4.0, 6.4); ``"4.0-5.0"`` → (4.0, 5.0); ``"7.1"`` → (7.1, 7.1)."""
    text = level.strip().lower()
    if text in LEVEL_BANDS:
        return LEVEL_BANDS[text]
    match = re.fullmatch(r"(\d+(?:\.\d+)?)\s*(?:-\s*(\d+(?:\.\d+)?))?", text)
    if match is None:
        known = ", ".join(LEVEL_BANDS)
        raise FieldProblem("level", f"{level!r} is neither a level ({known}) nor an SE band")
    low = float(match.group(1))
    high = float(match.group(2)) if match.group(2) else low
    require(low <= high, "level", f"band {level!r} is empty")
    return low, high


def box_regions(model: Model) -> list[list[tuple[int, int]]]:
    br, bc = model.options["box"]
    n = model.rows
    out = []
    for b in range(n):
        r0, c0 = (b // (n // bc)) * br, (b % (n // bc)) * bc
        out.append([(r0 + i, c0 + j) for i in range(br) for j in range(bc)])
    return out


def se_figures(steps: Sequence[Any]) -> dict[str, float]:
    """Sudoku Explainer's ER (hardest), EP (hardest up to the first placement), ED (first)."""
    if not steps:
        return {"er": 0.0, "ep": 0.0, "ed": 0.0}
    hardest = 0.0
    ep = None
    for step in steps:
        hardest = max(hardest, step.cost)
        if ep is None and step.placements:
            ep = hardest
    return {
        "er": round(hardest, 1),
        "ep": round(ep if ep is not None else hardest, 1),
        "ed": round(steps[0].cost, 1),
    }


# -- random grids and symmetry -------------------------------------------------------------------


def pattern_grid(n: int, box: tuple[int, int]) -> list[int]:
    """A valid complete grid: the shifted-rows pattern."""
    br, bc = box
    return [((r % br) * bc + r // br + c) % n for r in range(n) for c in range(n)]


def shuffled(values: list[int], n: int, box: tuple[int, int], rng: random.Random) -> list[int]:
    """A grid equivalent to ``values`` under random sudoku symmetries."""
    br, bc = box
    bands, stacks = n // br, n // bc
    band_order = rng.sample(range(bands), bands)
    rows = [b * br + i for b in band_order for i in rng.sample(range(br), br)]
    stack_order = rng.sample(range(stacks), stacks)
    cols = [s * bc + j for s in stack_order for j in rng.sample(range(bc), bc)]
    relabel = rng.sample(range(n), n)
    out = [relabel[values[r * n + c]] for r in rows for c in cols]
    if br == bc and rng.random() < 0.5:
        out = [out[c * n + r] for r in range(n) for c in range(n)]
    return out


def random_grid(model: Model, rng: Any) -> list[int]:
    """A random complete grid: randomized search up to 9x9, shuffled pattern above."""
    n = model.rows
    box = tuple(model.options["box"])
    if n <= 9:
        from grader.core.backtrack import solve_random

        solution = solve_random(model, model.initial_state(), rng)
        if solution is not None:
            return solution
    return shuffled(pattern_grid(n, box), n, box, rng)  # type: ignore[arg-type]


def sudoku_copies(data: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """See :meth:`Sudoku.symmetric_copies` (``data`` as :meth:`Sudoku.to_data` writes it)."""
    grid = list(data["grid"])
    n = len(grid)
    box_rows, box_cols = data.get("box") or box_shape(n, None)
    out = []
    for name, shape, move in named_board_transforms(n, n):
        rows_stay = move(0, 0)[0] != move(1, 0)[0]
        box = [box_rows, box_cols] if rows_stay else [box_cols, box_rows]
        out.append((name, {**data, "box": box, "grid": transformed_rows(grid, move, shape)}))

    def rows_swapped(rows: list[str], a: int, b: int, width: int) -> list[str]:
        out = list(rows)
        out[a * width : (a + 1) * width], out[b * width : (b + 1) * width] = (
            rows[b * width : (b + 1) * width],
            rows[a * width : (a + 1) * width],
        )
        return out

    transposed = ["".join(row[c] for row in grid) for c in range(n)]
    moves = []
    if box_rows > 1:
        moves.append(("rows 1 and 2 swapped", rows_swapped(grid, 0, 1, 1)))
    if n // box_rows > 1:
        moves.append(("bands 1 and 2 swapped", rows_swapped(grid, 0, 1, box_rows)))
    if box_cols > 1:
        swapped = rows_swapped(transposed, 0, 1, 1)
        moves.append(
            ("columns 1 and 2 swapped", ["".join(r[c] for r in swapped) for c in range(n)])
        )
    if n // box_cols > 1:
        swapped = rows_swapped(transposed, 0, 1, box_cols)
        moves.append(("stacks 1 and 2 swapped", ["".join(r[c] for r in swapped) for c in range(n)]))
    out += [(name, {**data, "grid": rows}) for name, rows in moves]
    symbols = SYMBOLS[:n]
    renamed = str.maketrans(symbols, symbols[1:] + symbols[0])
    out.append(("digits renamed", {**data, "grid": [row.translate(renamed) for row in grid]}))
    return out


def canonical_key(model: Model, state: State) -> str:
    """A key shared by puzzles equal up to band, stack, row and column moves, transposition
    and relabelling (:mod:`rules.sudoku.canonical`); boxes taller than wide are turned first,
    so a grid and its transpose key alike."""
    n = model.rows
    br, bc = model.options["box"]
    grid = [
        [single_value(m) if is_single(m) else -1 for m in state[r * n : (r + 1) * n]]
        for r in range(n)
    ]
    if br > bc:
        grid = [[grid[r][c] for r in range(n)] for c in range(n)]
        br, bc = bc, br
    return f"{n}:{br}x{bc}:{canonical_form(grid, (br, bc))}"


FAMILY = Sudoku()
