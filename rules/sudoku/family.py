"""Sudoku of every box size (4, 6, 8, 9, 12, 16, 25), graded on the Sudoku Explainer scale.

Costs are Sudoku Explainer 1.2.1's ratings (full house 1.0 ... dynamic forcing chains 8.5+);
chain steps add SE's length bonus, so a step's cost is the number SE would print. The report
adds SE's three figures: ``er`` (hardest step), ``ep`` (hardest step up to the first placed
digit) and ``ed`` (the first step). Puzzles load from JSON, from one-line strings (81 characters
for 9x9, ``.`` or ``0`` blank) and from Simon Tatham's Solo game IDs (``3x3:a2b...``).
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel, Field

from grader.board import Board
from grader.constraints import AllDifferent
from grader.costs import choose
from grader.errors import FieldProblem
from grader.family import Family, TechniqueSpec, require
from grader.generator import Target
from grader.model import Model, State, Variable, cell_name, is_single, single_value
from grader.techniques.chains import ChainTechnique
from grader.techniques.fish import Fish
from grader.techniques.houses import (
    DirectLockedCandidates,
    FullHouse,
    HiddenSingle,
    HiddenSubset,
    LockedCandidates,
    NakedSingle,
    NakedSubset,
)
from grader.techniques.wings import XYWing
from rules.schema import PuzzleFileBase
from rules.sudoku.patterns import BivalueGrave, UniqueRectangle

BOX_SHAPES: dict[int, tuple[int, int]] = {
    4: (2, 2),
    6: (2, 3),
    8: (2, 4),
    9: (3, 3),
    12: (3, 4),
    16: (4, 4),
    25: (5, 5),
}
"""Default box shape (rows, cols) for each grid size."""

SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
BLANKS = ".0"
MAX_SIZE = 25


def symbols_for(n: int) -> str:
    return SYMBOLS[:n]


class SudokuFile(PuzzleFileBase):
    family: Literal["sudoku"]
    size: int | tuple[int, int] | None = Field(default=None, description="n (grid is n x n)")
    box: tuple[int, int] | None = Field(
        default=None, description="[rows, cols] of a box; default from the size"
    )
    grid: list[str] = Field(description="rows of symbols 1-9 then A-P; . or 0 blank")
    solution: list[str] | None = None


def grid_side(spec: SudokuFile) -> int:
    size = spec.size
    if isinstance(size, tuple | list):
        require(size[0] == size[1], "size", f"{size[0]}x{size[1]} is not square")
        size = size[0]
    n = len(spec.grid) if size is None else size
    require(n > 0, "grid", "is empty")
    require(n <= MAX_SIZE, "size", f"{n} is larger than {MAX_SIZE}")
    return n


def box_shape(n: int, box: tuple[int, int] | None) -> tuple[int, int]:
    if box is None:
        shape = BOX_SHAPES.get(n)
        if shape is None:
            require(False, "size", f"no default box shape for {n}x{n}; give box [rows, cols]")
        return shape  # type: ignore[return-value]
    rows, cols = box
    require(rows > 0 and cols > 0, "box", f"{rows}x{cols} is not a box shape")
    require(
        rows * cols == n,
        "box",
        f"{rows}x{cols} boxes do not tile a {n}x{n} grid (need rows x cols = {n})",
    )
    return rows, cols


def parse_values(rows: Sequence[str], n: int, field: str) -> list[int | None]:
    """Cell values from rows of symbols (None for blanks)."""
    symbols = symbols_for(n)
    require(len(rows) == n, field, f"has {len(rows)} rows, expected {n}")
    out: list[int | None] = []
    for r, row in enumerate(rows):
        row = row.replace(" ", "")
        require(len(row) == n, f"{field}[{r}]", f"row {r + 1} has {len(row)} cells, expected {n}")
        for c, char in enumerate(row.upper()):
            if char in BLANKS:
                out.append(None)
                continue
            index = symbols.find(char)
            require(
                index >= 0,
                f"{field}[{r}]",
                f"{char!r} at column {c + 1} is not a symbol of a {n}x{n} sudoku "
                f"({symbols[0]}-{symbols[-1]}, . or 0 blank)",
            )
            out.append(index)
    return out


def build_model(n: int, box: tuple[int, int]) -> Model:
    """The empty n x n sudoku with the given box shape."""
    br, bc = box
    variables = tuple(
        Variable(cell_name(r, c), (1 << n) - 1, r, c) for r in range(n) for c in range(n)
    )
    full = (1 << n) - 1
    constraints = []
    for r in range(n):
        constraints.append(AllDifferent([r * n + c for c in range(n)], f"row {r + 1}", full))
    for c in range(n):
        constraints.append(AllDifferent([r * n + c for r in range(n)], f"column {c + 1}", full))
    for b in range(n):
        r0, c0 = (b // (n // bc)) * br, (b % (n // bc)) * bc
        cells = [(r0 + i) * n + c0 + j for i in range(br) for j in range(bc)]
        constraints.append(AllDifferent(cells, f"box {b + 1}", full))
    symbols = dict(enumerate(symbols_for(n)))
    return Model(
        family="sudoku",
        rows=n,
        cols=n,
        variables=variables,
        constraints=tuple(constraints),
        symbols=symbols,
        key=f"sudoku {n} box={br}x{bc}",
        options={"box": [br, bc]},
    )


# -- text formats ------------------------------------------------------------------------------

SOLO_ID = re.compile(r"^(\d+)(?:x(\d+))?([a-z]*):([0-9a-z_]+)$")
LINE = re.compile(r"^[0-9A-Za-z.]+$")


def parse_solo_id(text: str) -> dict[str, Any] | None:
    """A sudoku dict from a Simon Tatham Solo game ID (``3x3:a2b5_c...``)."""
    match = SOLO_ID.match(text)
    if match is None:
        return None
    c = int(match.group(1))
    r = int(match.group(2)) if match.group(2) else None
    flags = match.group(3)
    if r is None:
        require(False, "id", "jigsaw Solo IDs (single number) are not supported")
    require(not flags, "id", f"Solo variant {flags!r} (jigsaw, X, killer) is not supported")
    n = c * r
    require(0 < n <= MAX_SIZE, "id", f"{c}x{r} boxes make a {n}x{n} grid, too large")
    cells: list[str] = []
    symbols = symbols_for(n)
    number = ""
    for char in match.group(4) + "_":
        if char.isdigit():
            number += char
            continue
        if number:
            value = int(number)
            require(1 <= value <= n, "id", f"clue {value} is out of range 1-{n}")
            cells.append(symbols[value - 1])
            number = ""
        if char.isalpha():
            cells.extend("." * (ord(char) - ord("a") + 1))
    require(len(cells) == n * n, "id", f"describes {len(cells)} cells, expected {n * n}")
    grid = ["".join(cells[i * n : (i + 1) * n]) for i in range(n)]
    return {
        "family": "sudoku",
        "size": n,
        "box": [r, c],
        "grid": grid,
        "source": f"Solo game ID {text}",
    }


def parse_line(text: str) -> dict[str, Any] | None:
    """A sudoku dict from a one-line string of n*n cells (n a known size)."""
    if not LINE.match(text):
        return None
    length = len(text)
    n = round(length**0.5)
    if n * n != length or n not in BOX_SHAPES:
        if length >= 16 and set(text) <= set(SYMBOLS + SYMBOLS.lower() + BLANKS):
            sizes = ", ".join(f"{k * k} ({k}x{k})" for k in BOX_SHAPES)
            require(False, "line", f"has {length} characters, expected one of {sizes}")
        return None
    return {
        "family": "sudoku",
        "size": n,
        "grid": [text[i * n : (i + 1) * n] for i in range(n)],
    }


def solo_id(model: Model, state: State) -> str:
    """The Solo game ID of the decided cells of ``state``."""
    br, bc = model.options["box"]
    out: list[str] = []
    run = 0
    last_number = False
    for mask in state:
        if is_single(mask):
            while run:
                step = min(run, 26)
                out.append(chr(ord("a") + step - 1))
                run -= step
                last_number = False
            if last_number:
                out.append("_")
            out.append(str(single_value(mask) + 1))
            last_number = True
        else:
            run += 1
    while run:
        step = min(run, 26)
        out.append(chr(ord("a") + step - 1))
        run -= step
    return f"{bc}x{br}:{''.join(out)}"


# -- the family --------------------------------------------------------------------------------

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
    title = "Sudoku"
    schema = SudokuFile
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

    def parse_text(self, text: str) -> dict[str, Any] | None:
        text = text.strip()
        return parse_solo_id(text) or parse_line(text)

    def build(self, spec: BaseModel) -> tuple[Model, State, list[int] | None]:
        assert isinstance(spec, SudokuFile)
        n = grid_side(spec)
        box = box_shape(n, spec.box)
        model = self.empty_model((n, n), {"box": list(box)})
        givens = self.start_state(model, clue_state(model, spec.grid))
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
            "size": model.rows,
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

    def count_givens(self, puzzle: Any) -> int:
        grid = puzzle.data.get("grid")
        if isinstance(grid, list):
            return givens_of(grid)
        return super().count_givens(puzzle)

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
        box = options.get("box")
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

    def canonical_key(self, model: Model, state: State) -> str:
        return canonical_key(model, state)


def clue_state(model: Model, grid: Sequence[str]) -> State:
    """The state holding exactly the clues of ``grid`` (other cells open)."""
    state = model.initial_state()
    for var, value in enumerate(parse_values(grid, model.rows, "grid")):
        if value is not None:
            state[var] = 1 << value
    return state


def crossed_out(model: Model, state: State) -> State:
    """The candidates a solver starts from: every given's value crossed out of its peers.

    Sudoku Explainer starts there too, so a given is never mistaken for a naked single. A cell
    left with one candidate stays open for the techniques (a naked or hidden single)."""
    from grader.techniques.houses import houses_of

    houses = houses_of(model)
    out = list(state)
    for var, mask in enumerate(state):
        if is_single(mask):
            for p in houses.peers[var]:
                if not is_single(state[p]):
                    out[p] &= ~mask
    return out


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


def sudoku_table(n: int) -> list[TechniqueSpec]:
    """Sudoku Explainer 1.2.1's techniques and ratings, in its order."""
    big = n > 16
    table = [
        TechniqueSpec(FullHouse, 1.0, "trivial"),
        TechniqueSpec(
            HiddenSingle, 1.2, "trivial", name="hidden-single-box", kwargs={"boxes": True}
        ),
        TechniqueSpec(
            HiddenSingle, 1.5, "trivial", name="hidden-single-line", kwargs={"boxes": False}
        ),
        TechniqueSpec(DirectLockedCandidates, 1.7, "easy", name="direct-pointing"),
        TechniqueSpec(
            DirectLockedCandidates,
            1.9,
            "easy",
            name="direct-claiming",
            kwargs={"pointing": False},
        ),
        TechniqueSpec(
            HiddenSubset,
            2.0,
            "easy",
            name="direct-hidden-pair",
            kwargs={"degree": 2, "direct": True},
        ),
        TechniqueSpec(NakedSingle, 2.3, "easy"),
        TechniqueSpec(
            HiddenSubset,
            2.5,
            "easy",
            name="direct-hidden-triple",
            kwargs={"degree": 3, "direct": True},
        ),
        TechniqueSpec(LockedCandidates, 2.6, "normal", name="pointing"),
        TechniqueSpec(LockedCandidates, 2.8, "normal", name="claiming", kwargs={"pointing": False}),
        TechniqueSpec(NakedSubset, 3.0, "normal", name="naked-pair", kwargs={"degree": 2}),
        TechniqueSpec(Fish, 3.2, "normal", name="x-wing", kwargs={"degree": 2}),
        TechniqueSpec(HiddenSubset, 3.4, "normal", name="hidden-pair", kwargs={"degree": 2}),
        TechniqueSpec(NakedSubset, 3.6, "normal", name="naked-triple", kwargs={"degree": 3}),
        TechniqueSpec(Fish, 3.8, "normal", name="swordfish", kwargs={"degree": 3}),
        TechniqueSpec(HiddenSubset, 4.0, "hard", name="hidden-triple", kwargs={"degree": 3}),
        TechniqueSpec(XYWing, 4.2, "hard", name="xy-wing"),
        TechniqueSpec(XYWing, 4.4, "hard", name="xyz-wing", kwargs={"xyz": True}),
        TechniqueSpec(UniqueRectangle, 4.5, "hard", name="unique-rectangle"),
        TechniqueSpec(NakedSubset, 5.0, "hard", name="naked-quad", kwargs={"degree": 4}),
        TechniqueSpec(Fish, 5.2, "hard", name="jellyfish", kwargs={"degree": 4}),
        TechniqueSpec(HiddenSubset, 5.4, "hard", name="hidden-quad", kwargs={"degree": 4}),
        TechniqueSpec(BivalueGrave, 5.6, "hard", name="bug"),
        TechniqueSpec(
            ChainTechnique, 6.5, "expert", name="forcing-chains", kwargs={"mode": "static"}
        ),
        TechniqueSpec(ChainTechnique, 7.5, "expert", name="nishio", kwargs={"mode": "nishio"}),
        TechniqueSpec(
            ChainTechnique,
            8.0,
            "extreme",
            name="multiple-forcing-chains",
            kwargs={"mode": "multiple"},
        ),
        TechniqueSpec(
            ChainTechnique,
            8.5,
            "extreme",
            name="dynamic-forcing-chains",
            kwargs={"mode": "dynamic"},
        ),
        TechniqueSpec(
            ChainTechnique,
            9.0,
            "extreme",
            name="dynamic-forcing-chains-plus",
            kwargs={"mode": "dynamic", "nesting": 1},
        ),
    ]
    if big:
        # Nested dynamic chains cost minutes on 16x16 and 25x25: off unless asked for.
        for i, spec in enumerate(table):
            if spec.cost >= 9.0:
                table[i] = TechniqueSpec(
                    spec.factory, spec.cost, spec.level, spec.name, spec.kwargs, default=False
                )
    return table


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
        from grader.backtrack import solve_random

        solution = solve_random(model, model.initial_state(), rng)
        if solution is not None:
            return solution
    return shuffled(pattern_grid(n, box), n, box, rng)  # type: ignore[arg-type]


def canonical_key(model: Model, state: State) -> str:
    """A key shared by puzzles equal up to band/stack/row/column moves, transposition and
    relabelling: the least relabelled grid over band and stack orders and transposition, with
    rows and columns inside bands and stacks ordered by a relabelling-invariant signature."""
    n = model.rows
    br, bc = model.options["box"]
    grid = [single_value(m) if is_single(m) else -1 for m in state]
    best = None
    shapes = [(grid, br, bc)]
    if br == bc:
        shapes.append(([grid[c * n + r] for r in range(n) for c in range(n)], br, bc))
    for g, rh, cw in shapes:
        rows = _ordered(g, n, rh, by_row=True)
        cols = _ordered(g, n, cw, by_row=False)
        for row_order in rows:
            for col_order in cols:
                labels: dict[int, int] = {}
                out = []
                for r in row_order:
                    for c in col_order:
                        v = g[r * n + c]
                        if v < 0:
                            out.append(".")
                        else:
                            out.append(SYMBOLS[labels.setdefault(v, len(labels))])
                key = "".join(out)
                if best is None or key < best:
                    best = key
    return f"{n}:{best}"


def _ordered(g: list[int], n: int, size: int, by_row: bool) -> list[list[int]]:
    """Line orders to try: bands in every order (up to 6 bands) with lines inside a band sorted
    by their clue signature."""
    from itertools import permutations

    def line(i: int) -> list[int]:
        return [g[i * n + j] if by_row else g[j * n + i] for j in range(n)]

    def signature(i: int) -> int:
        cells = line(i)
        return -sum(1 for v in cells if v >= 0)

    groups = [sorted(range(b * size, (b + 1) * size), key=signature) for b in range(n // size)]
    orders = (
        permutations(groups)
        if len(groups) <= 4
        else [sorted(groups, key=lambda gr: [signature(i) for i in gr])]
    )
    return [[i for group in order for i in group] for order in orders]


def givens_of(grid: Sequence[str]) -> int:
    return sum(1 for row in grid for ch in row if ch not in BLANKS)


def check_box(n: int, box: Sequence[int]) -> None:
    if len(box) != 2:
        raise FieldProblem("box", "must be [rows, cols]")
    box_shape(n, (box[0], box[1]))


FAMILY = Sudoku()
