"""The balanced-line model shared by Binairo and Tango: a grid of 0/1 cells whose rows and
columns are balanced lines (with signs), and distinct lines when asked."""

from __future__ import annotations

from collections.abc import Sequence

from grader.constraints import Constraint, DistinctLines, Line
from grader.family import require
from grader.model import Model, State, Variable, cell_name
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
