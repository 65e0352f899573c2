"""The balanced-line model shared by Binairo and Tango: a grid of 0/1 cells whose rows and
columns are balanced lines (with signs), and distinct lines when asked."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from grader.core.constraints import Constraint, DistinctLines, Line
from grader.core.model import Model, State, Variable, cell_name
from grader.rating.family import require
from rules.binary.lines import BalancedLine

MAX_SIDE = 200


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
    variables = _grid_variables(rows, cols)
    row_signs: dict[int, dict[int, str]] = {}
    col_signs: dict[int, dict[int, str]] = {}
    for r1, c1, r2, c2, sign in signs:
        if r1 == r2:
            row_signs.setdefault(r1, {})[min(c1, c2)] = sign
        else:
            col_signs.setdefault(c1, {})[min(r1, r2)] = sign
    names = tuple(value_names[v] for v in (0, 1))
    plain_rows, plain_cols = _plain_lines(rows, cols, names)
    constraints: list[Constraint] = []
    for r, plain in enumerate(plain_rows):
        if r in row_signs:
            plain = Line(plain.vars, plain.label, BalancedLine(cols, row_signs[r], names))
        constraints.append(plain)
    for c, plain in enumerate(plain_cols):
        if c in col_signs:
            plain = Line(plain.vars, plain.label, BalancedLine(rows, col_signs[c], names))
        constraints.append(plain)
    if unique:
        constraints.extend(_distinct_lines(rows, cols))
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


# A file of puzzles of one size builds a model per puzzle: the parts without signs are built once
# (constraints are immutable, and those of a shape may be shared, as Sudoku's are).


@lru_cache(maxsize=64)
def _grid_variables(rows: int, cols: int) -> tuple[Variable, ...]:
    return tuple(Variable(cell_name(r, c), 0b11, r, c) for r in range(rows) for c in range(cols))


def _row_cells(rows: int, cols: int) -> list[tuple[int, ...]]:
    return [tuple(r * cols + c for c in range(cols)) for r in range(rows)]


def _col_cells(rows: int, cols: int) -> list[tuple[int, ...]]:
    return [tuple(r * cols + c for r in range(rows)) for c in range(cols)]


@lru_cache(maxsize=64)
def _plain_lines(
    rows: int, cols: int, names: tuple[str, ...]
) -> tuple[tuple[Line, ...], tuple[Line, ...]]:
    """The rows' and columns' balanced lines without signs (the lines of one direction share
    their rule)."""
    plain_row, plain_col = BalancedLine(cols, names=names), BalancedLine(rows, names=names)
    return (
        tuple(
            Line(cells, f"row {r + 1}", plain_row) for r, cells in enumerate(_row_cells(rows, cols))
        ),
        tuple(
            Line(cells, f"column {c + 1}", plain_col)
            for c, cells in enumerate(_col_cells(rows, cols))
        ),
    )


@lru_cache(maxsize=64)
def _distinct_lines(rows: int, cols: int) -> tuple[DistinctLines, DistinctLines]:
    return (
        DistinctLines(_row_cells(rows, cols), [f"row {r + 1}" for r in range(rows)], "the rows"),
        DistinctLines(
            _col_cells(rows, cols), [f"column {c + 1}" for c in range(cols)], "the columns"
        ),
    )
