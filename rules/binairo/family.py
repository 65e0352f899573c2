"""Binairo (Takuzu, Unruly): 0/1 grids, no three equal in a row, balanced lines, optional
distinct lines.

Levels follow Simon Tatham's Unruly solver (``unruly.c``): *trivial* is the three-in-a-row
patterns and the last cell of a line; *easy* adds count completion and, with unique lines, the
near-copy check; *normal* adds the "last one must break a run" window; then *hard* is
single-line enumeration, *expert* lookahead of depth 1 and *extreme* depth 2 (or guessing).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from grader.constraints import Constraint, DistinctLines, Line
from grader.explain import Explainer
from grader.family import Family, TechniqueSpec, require
from grader.model import Model, State, Variable, cell_name, is_single, single_value
from grader.step import Step
from grader.symmetry import board_transforms, transformed_rows
from grader.technique import Context, Technique
from grader.techniques import Guess, LastCell, LineEnumeration, Lookahead
from rules.binary.fill import random_grid
from rules.binary.lines import (
    DECIDED,
    BalancedLine,
    every_cell,
    is_balanced,
    line_bits,
    positions,
)

MAX_SIDE = 200


# ---------------------------------------------------------------------------------------------
# Techniques
# ---------------------------------------------------------------------------------------------


def line_values(state: State, line: Line) -> list[int]:
    """Decided values of a line's cells, -1 for open ones."""
    return [DECIDED[state[v]] for v in line.vars]


class BalancedTechnique(Technique):
    """A technique that reads Binairo/Tango lines."""

    kinds = ("line",)

    def applies_to(self, constraint: Constraint, model: Model) -> bool:
        return is_balanced(constraint)

    def forced(self, bits: int, empty: int) -> int | None:
        """The open cells (a line bitset) that must take the other value because of the cells
        ``bits`` holding one value; None: the technique has no such bitset rule."""
        return None

    def placements_in(self, ctx: Context, constraint: Constraint) -> list[tuple[int, int]] | None:
        if self.forced(0, 0) is None:
            return None  # no bitset rule: the steps are used
        zeros, ones, empty = line_bits(ctx, constraint)
        cells = constraint.vars
        return [
            (cells[i], 1 - x)
            for x, bits in ((0, zeros), (1, ones))
            for i in positions(self.forced(bits, empty) or 0)
        ]


class Pair(BalancedTechnique):
    name = "pair"
    title = "Pair"
    description = (
        "Two equal neighbours in a line (XX.): the cells at both ends of the pair must hold the "
        "other value, or there would be three in a row."
    )

    def find_in(self, ctx: Context, constraint: Constraint) -> Iterator[Step]:
        assert isinstance(constraint, Line)
        zeros, ones, empty = line_bits(ctx, constraint)
        if not empty:
            return
        cells = constraint.vars
        for x, bits in ((0, zeros), (1, ones)):
            both = bits & (bits >> 8)  # cells i and i+1 hold x
            if not both:
                continue
            after = [(i + 2, i, i + 1) for i in positions(both & (empty >> 16))]
            before = [(i, i + 1, i + 2) for i in positions(empty & (both >> 8))]
            for target, a, b in sorted(after + before):  # in reading order
                yield self._step(constraint, cells[target], cells[a], cells[b], x)

    def forced(self, bits: int, empty: int) -> int:
        both = bits & (bits >> 8)  # cells i and i+1 hold the value
        return ((both << 16) | (both >> 8)) & empty

    def _step(self, line: Line, target: int, a: int, b: int, x: int) -> Step:
        return self.make(placements=[(target, 1 - x)], unit=line.label, cells=(a, b), value=x)

    def explain(self, step: Step, ex: Explainer) -> str:
        a, b = step.data["cells"]
        x = step.data["value"]
        both = f"{ex.cells([a, b])} are both {ex.value(x)}"
        return f"{both}, and three {ex.plural(x)} in a row are not allowed"


class Sandwich(BalancedTechnique):
    name = "sandwich"
    title = "Sandwich"
    description = (
        "A gap between two equal cells (X.X): the middle cell must hold the other value, or "
        "there would be three in a row."
    )

    def find_in(self, ctx: Context, constraint: Constraint) -> Iterator[Step]:
        assert isinstance(constraint, Line)
        zeros, ones, empty = line_bits(ctx, constraint)
        if not empty:
            return
        cells = constraint.vars
        for x, bits in ((0, zeros), (1, ones)):
            for middle in positions(self.forced(bits, empty)):
                yield self.make(
                    placements=[(cells[middle], 1 - x)],
                    unit=constraint.label,
                    cells=(cells[middle - 1], cells[middle + 1]),
                    value=x,
                )

    def forced(self, bits: int, empty: int) -> int:
        return ((bits & (bits >> 16)) << 8) & empty  # between cells i and i+2 holding the value

    def explain(self, step: Step, ex: Explainer) -> str:
        a, b = step.data["cells"]
        x = step.data["value"]
        return f"it sits between two {ex.plural(x)} ({ex.cells([a, b])})"


class CountCompletion(BalancedTechnique):
    name = "count-completion"
    title = "Count completion"
    description = (
        "A line already holds its quota (half its length) of one value: every open cell of it "
        "takes the other value."
    )

    def find_in(self, ctx: Context, constraint: Constraint) -> Iterator[Step]:
        assert isinstance(constraint, Line)
        found = self._completed(ctx, constraint)
        if found is not None:
            x, placements = found
            yield self.make(
                placements=placements,
                unit=constraint.label,
                value=x,
                count=constraint.rule.quota,  # type: ignore[attr-defined]
            )

    def placements_in(self, ctx: Context, constraint: Constraint) -> list[tuple[int, int]]:
        found = self._completed(ctx, constraint)
        return [] if found is None else found[1]

    def _completed(
        self, ctx: Context, constraint: Constraint
    ) -> tuple[int, list[tuple[int, int]]] | None:
        """The value whose quota the line holds and the placements of the other value in its
        open cells, or None."""
        zeros, ones, empty = line_bits(ctx, constraint)
        if not empty:
            return None
        quota = constraint.rule.quota  # type: ignore[attr-defined]
        for x, bits in ((0, zeros), (1, ones)):
            if bits.bit_count() == quota:
                return x, [(constraint.vars[i], 1 - x) for i in positions(empty)]
        return None

    def explain(self, step: Step, ex: Explainer) -> str:
        x = step.data["value"]
        return f"{step.data['unit']} already holds its {ex.plural(x, step.data['count'])}"


class Window(BalancedTechnique):
    name = "window"
    title = "Last one must break a run"
    description = (
        "A line needs exactly one more of value A and at least two more of B. A window of three "
        "consecutive cells holding no A would become BBB if all its open cells were B, so the "
        "last A must be inside it, and every open cell outside the window is B."
    )

    def find_in(self, ctx: Context, constraint: Constraint) -> Iterator[Step]:
        assert isinstance(constraint, Line)
        found = self._window(ctx, constraint)
        if found is not None:
            a, start, outside = found
            cells = constraint.vars
            yield self.make(
                placements=[(cells[j], 1 - a) for j in positions(outside)],
                unit=constraint.label,
                value=a,
                window=tuple(cells[start : start + 3]),
            )

    def placements_in(self, ctx: Context, constraint: Constraint) -> list[tuple[int, int]]:
        found = self._window(ctx, constraint)
        if found is None:
            return []
        a, _start, outside = found
        return [(constraint.vars[j], 1 - a) for j in positions(outside)]

    def _window(self, ctx: Context, constraint: Constraint) -> tuple[int, int, int] | None:
        """The first window that must hold the last A: (A, its first cell, the open cells
        outside it as a line bitset), or None."""
        zeros, ones, empty = line_bits(ctx, constraint)
        quota = constraint.rule.quota  # type: ignore[attr-defined]
        for a, mine, theirs in ((0, zeros, ones), (1, ones, zeros)):
            if mine.bit_count() != quota - 1 or theirs.bit_count() > quota - 2:
                continue
            starts = every_cell(len(constraint.vars) - 2)
            open_in_window = empty + (empty >> 8) + (empty >> 16)
            holds_a = mine | (mine >> 8) | (mine >> 16)
            for i in positions((open_in_window >> 1) & starts & ~holds_a):  # >= 2 open, no A
                outside = empty & ~(0x010101 << (8 * i))
                if outside:
                    return a, i, outside
        return None

    def explain(self, step: Step, ex: Explainer) -> str:
        a = step.data["value"]
        window = step.data["window"]
        b_name = ex.plural(1 - a)
        return (
            f"{step.data['unit']} has one {ex.model.value_name(a)} left to place; it must go in "
            f"{ex.cells(list(window))}, or those cells would hold three {b_name} in a row"
        )


class BinaryLastCell(LastCell):
    """:class:`LastCell` that finds a binary line's only open cell on its bitsets."""

    def open_position(self, ctx: Context, constraint: Line) -> int | None:
        if not is_balanced(constraint):
            return super().open_position(ctx, constraint)
        empty = line_bits(ctx, constraint)[2]
        if not empty or empty & (empty - 1):
            return None  # no open cell, or several
        return (empty.bit_length() - 1) >> 3


class NearCopy(Technique):
    name = "near-copy"
    title = "Avoid copying a complete line"
    description = (
        "With distinct lines: line r holds all its X at known places and line s holds all but "
        "one of its X, each where r has one. Putting s's last X at r's remaining X position "
        "would make s a copy of r, so that cell takes the other value."
    )

    def find(self, ctx: Context) -> Iterator[Step]:
        state = ctx.state
        for group in ctx.model.constraints:
            if not isinstance(group, DistinctLines):
                continue
            decided = [
                [state[v].bit_length() - 1 if is_single(state[v]) else -1 for v in line]
                for line in group.lines
            ]
            for x in (0, 1):
                for r, first in enumerate(decided):
                    quota = len(first) // 2
                    if first.count(x) != quota:
                        continue
                    places = {j for j, value in enumerate(first) if value == x}
                    for s, second in enumerate(decided):
                        if s == r or len(second) != len(first) or second.count(x) != quota - 1:
                            continue
                        mine = {j for j, value in enumerate(second) if value == x}
                        if not mine <= places:
                            continue
                        (spot,) = places - mine
                        if second[spot] >= 0:
                            continue
                        var = group.lines[s][spot]
                        yield self.make(
                            placements=[(var, 1 - x)],
                            unit=group.line_labels[s],
                            copies=group.line_labels[r],
                            value=x,
                        )

    def explain(self, step: Step, ex: Explainer) -> str:
        x = step.data["value"]
        return (
            f"{step.data['unit']} has all but one of its {ex.plural(x)} where "
            f"{step.data['copies']} has them; one more there would copy {step.data['copies']}"
        )


def binary_table(model: Model) -> list[TechniqueSpec]:
    """The technique ladder of the binary families (Tatham's levels, then ours)."""
    table = [
        TechniqueSpec(Pair, 1.0, "trivial"),
        TechniqueSpec(Sandwich, 1.0, "trivial"),
        TechniqueSpec(BinaryLastCell, 1.2, "trivial"),
        TechniqueSpec(CountCompletion, 2.0, "easy"),
    ]
    if model.options.get("unique_lines"):
        table.append(TechniqueSpec(NearCopy, 2.5, "easy"))
    table += [
        TechniqueSpec(Window, 3.0, "normal"),
        TechniqueSpec(LineEnumeration, 4.0, "hard"),
        TechniqueSpec(Lookahead, 7.0, "expert", name="lookahead-1", kwargs={"depth": 1}),
        TechniqueSpec(Lookahead, 9.0, "extreme", name="lookahead-2", kwargs={"depth": 2}),
        TechniqueSpec(Guess, 12.0, "extreme", default=False),
    ]
    return table


# ---------------------------------------------------------------------------------------------
# Files and models
# ---------------------------------------------------------------------------------------------


class BinairoRules(BaseModel):
    model_config = ConfigDict(extra="forbid")
    unique_lines: bool = False


class PuzzleFileBase(BaseModel):
    """Fields every puzzle file may carry besides its family's own."""

    model_config = ConfigDict(extra="forbid")
    id: str | int | None = None
    name: str | None = None
    source: str | None = None
    author: str | None = None
    notes: str | None = None
    meta: dict[str, Any] | None = None


class BinairoFile(PuzzleFileBase):
    family: Literal["binairo"]
    size: tuple[int, int] | int | None = Field(default=None, description="[rows, cols]")
    rules: BinairoRules = BinairoRules()
    grid: list[str]
    solution: list[str] | None = None


def grid_size(size: tuple[int, int] | int | None, grid: Sequence[str]) -> tuple[int, int]:
    """Rows and columns from ``size`` (or from the grid), checked against the grid."""
    require(len(grid) > 0, "grid", "is empty")
    if size is None:
        rows, cols = len(grid), len(grid[0])
    elif isinstance(size, int):
        rows = cols = size
    else:
        rows, cols = size
    require(rows > 0 and cols > 0, "size", "must be positive")
    require(len(grid) == rows, "grid", f"has {len(grid)} rows, expected {rows}")
    for r, row in enumerate(grid):
        require(len(row) == cols, "grid", f"row {r + 1} has {len(row)} cells, expected {cols}")
    return rows, cols


def parse_cells(
    grid: Sequence[str], symbols: dict[str, int], field: str = "grid", allow_open: bool = True
) -> list[int | None]:
    """Values of a grid's cells row by row (None for ``.``), with one-line errors."""
    out: list[int | None] = []
    known = ", ".join(sorted(symbols)) + (" or ." if allow_open else "")
    for r, row in enumerate(grid):
        for c, char in enumerate(row):
            if char == "." and allow_open:
                out.append(None)
            elif char in symbols:
                out.append(symbols[char])
            else:
                raise_problem(
                    field, f"row {r + 1} column {c + 1}: unknown symbol {char!r} (expected {known})"
                )
    return out


def raise_problem(field: str, problem: str) -> None:
    require(False, field, problem)


def build_binary(
    family: str,
    rows: int,
    cols: int,
    cells: Sequence[int | None],
    *,
    unique: bool = False,
    signs: Sequence[tuple[int, int, int, int, str]] = (),
    symbols: dict[int, str],
    value_names: dict[int, str],
    key_extra: str = "",
) -> tuple[Model, State]:
    """A binary grid model: balanced lines with signs, distinct lines if asked."""
    require(rows % 2 == 0, "size", f"{rows} rows is odd; every line needs as many of each value")
    require(cols % 2 == 0, "size", f"{cols} columns is odd; every line needs as many of each value")
    require(max(rows, cols) <= MAX_SIDE, "size", f"larger than the limit of {MAX_SIDE}x{MAX_SIDE}")
    variables = tuple(
        Variable(cell_name(r, c), 0b11, r, c) for r in range(rows) for c in range(cols)
    )
    row_signs: dict[int, dict[int, str]] = {}
    col_signs: dict[int, dict[int, str]] = {}
    for r1, c1, r2, c2, sign in signs:
        if r1 == r2:
            row_signs.setdefault(r1, {})[min(c1, c2)] = sign
        else:
            col_signs.setdefault(c1, {})[min(r1, r2)] = sign
    names = tuple(value_names[v] for v in (0, 1))
    plain_row, plain_col = BalancedLine(cols, names=names), BalancedLine(rows, names=names)
    constraints: list[Constraint] = []
    row_lines = [tuple(r * cols + c for c in range(cols)) for r in range(rows)]
    col_lines = [tuple(r * cols + c for r in range(rows)) for c in range(cols)]
    for r, line in enumerate(row_lines):
        rule = BalancedLine(cols, row_signs[r], names) if r in row_signs else plain_row
        constraints.append(Line(line, f"row {r + 1}", rule))
    for c, line in enumerate(col_lines):
        rule = BalancedLine(rows, col_signs[c], names) if c in col_signs else plain_col
        constraints.append(Line(line, f"column {c + 1}", rule))
    if unique:
        constraints.append(
            DistinctLines(row_lines, [f"row {r + 1}" for r in range(rows)], "the rows")
        )
        constraints.append(
            DistinctLines(col_lines, [f"column {c + 1}" for c in range(cols)], "the columns")
        )
    givens = [0b11 if x is None else 1 << x for x in cells]
    model = Model(
        family=family,
        rows=rows,
        cols=cols,
        variables=variables,
        constraints=tuple(constraints),
        symbols=symbols,
        value_names=value_names,
        key=f"{family} {rows}x{cols}{' unique' if unique else ''}{key_extra}",
        options={"unique_lines": unique},
    )
    return model, givens


def format_binary(model: Model, state: State) -> list[str]:
    rows = []
    for r in range(model.rows):
        row = []
        for c in range(model.cols):
            mask = state[r * model.cols + c]
            row.append(model.symbol(single_value(mask)) if is_single(mask) else ".")
        rows.append("".join(row))
    return rows


def solution_values(
    solution: Sequence[str] | None, rows: int, cols: int, symbols: dict[str, int]
) -> list[int] | None:
    if solution is None:
        return None
    require(len(solution) == rows, "solution", f"has {len(solution)} rows, expected {rows}")
    for r, row in enumerate(solution):
        require(len(row) == cols, "solution", f"row {r + 1} has {len(row)} cells, expected {cols}")
    return [
        v for v in parse_cells(solution, symbols, "solution", allow_open=False) if v is not None
    ]


TATHAM_ID = re.compile(r"^(\d+)x(\d+)(u?)(?:d[ten])?:([A-Za-z]+)$")


def parse_unruly_id(text: str) -> dict[str, Any] | None:
    """A Binairo puzzle dict from a Simon Tatham Unruly game ID (``8x8:CGABJaab...``)."""
    match = TATHAM_ID.match(text.strip())
    if match is None:
        return None
    cols, rows = int(match.group(1)), int(match.group(2))
    unique = bool(match.group(3))
    cells = ["."] * (rows * cols)
    pos = 0
    for char in match.group(4):
        if char in "zZ":
            pos += 25
            continue
        pos += ord(char.lower()) - ord("a")
        if pos < rows * cols:
            cells[pos] = "0" if char.islower() else "1"
        pos += 1
    if pos != rows * cols + 1:
        require(False, "id", f"Unruly game ID describes {pos - 1} cells, expected {rows * cols}")
    grid = ["".join(cells[r * cols : (r + 1) * cols]) for r in range(rows)]
    return {
        "family": "binairo",
        "size": [rows, cols],
        "rules": {"unique_lines": unique},
        "grid": grid,
        "source": f"Unruly game ID {text.strip()}",
    }


def unruly_id(model: Model, state: State) -> str:
    """The Simon Tatham Unruly game ID of a Binairo state (decided cells are the givens)."""
    out = []
    run = 0
    size = model.rows * model.cols
    for i in range(size + 1):
        value = single_value(state[i]) if i < size and is_single(state[i]) else None
        if i < size and value is None:
            run += 1
            continue
        while run > 24:
            out.append("z" if value in (0, None) else "Z")
            run -= 25
        out.append(chr((ord("a") if value in (0, None) else ord("A")) + run))
        run = 0
    unique = "u" if model.options.get("unique_lines") else ""
    return f"{model.cols}x{model.rows}{unique}:{''.join(out)}"


BINAIRO_SYMBOLS = {"0": 0, "1": 1}
SMALL = 16
"""Up to this side, random solutions come from the generic search (it honours distinct lines,
and row sampling there gives few grids that need the hard techniques: measured at 8x8)."""


def binary_key(
    model: Model, state: State, marks: Sequence[tuple[int, int, int, int, str]] = ()
) -> str:
    """Canonical key under rotations, reflections and swapping the two values."""
    grid = format_binary(model, state)
    one, two = model.symbol(0), model.symbol(1)
    swapped = [row.translate(str.maketrans(one + two, two + one)) for row in grid]
    best = None
    for shape, move in board_transforms(model.rows, model.cols):
        moved_marks = []
        for r1, c1, r2, c2, sign in marks:
            a, b = sorted((move(r1, c1), move(r2, c2)))
            moved_marks.append(f"{a[0]},{a[1]},{b[0]},{b[1]}{sign}")
        tail = ";".join(sorted(moved_marks))
        for rows in (grid, swapped):
            text = "/".join(transformed_rows(rows, move, shape)) + "|" + tail
            if best is None or text < best:
                best = text
    unique = "u" if model.options.get("unique_lines") else ""
    return f"{model.family}{unique}:{best}"


def random_binary_solution(family: Family, model: Model, rng: random.Random) -> list[int]:
    """A random solution: generic search on small grids, row sampling on large ones."""
    if max(model.rows, model.cols) <= SMALL or model.family != "binairo":
        return Family.random_solution(family, model, rng)
    while True:
        grid = random_grid(model.rows, model.cols, rng)
        values = [v for row in grid for v in row]
        if all(c.satisfied_by(values) for c in model.constraints):
            return values


class Binairo(Family):
    name = "binairo"
    title = "Binairo (Takuzu, Unruly)"
    schema = BinairoFile
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

    def parse_text(self, text: str) -> dict[str, Any] | None:
        return parse_unruly_id(text)

    def build(self, spec: BaseModel) -> tuple[Model, State, list[int] | None]:
        assert isinstance(spec, BinairoFile)
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
        rows, cols = size
        spec = BinairoFile.model_validate(
            {"family": "binairo", "grid": ["." * cols] * rows, "rules": dict(options)}
        )
        return self.build(spec)[0]

    def random_solution(self, model: Model, rng: random.Random) -> list[int]:
        return random_binary_solution(self, model, rng)

    def canonical_key(self, model: Model, state: State) -> str:
        return binary_key(model, state)


FAMILY = Binairo()
