"""The Sudoku model: rows, columns and boxes, each all different, and the candidates a solver
starts from."""

from __future__ import annotations

from functools import cache

from grader.core.constraints import AllDifferent
from grader.core.model import Model, Variable, cell_name
from rules.sudoku.file import symbols_for


def build_model(n: int, box: tuple[int, int]) -> Model:
    """The empty n x n sudoku with the given box shape (a model of its own, made of the
    shape's shared, immutable variables and constraints)."""
    variables, constraints = _parts(n, box)
    br, bc = box
    return Model(
        family="sudoku",
        rows=n,
        cols=n,
        variables=variables,
        constraints=constraints,
        symbols=dict(enumerate(symbols_for(n))),
        key=f"sudoku {n} box={br}x{bc}",
        options={"box": [br, bc]},
    )


@cache
def _parts(n: int, box: tuple[int, int]) -> tuple[tuple[Variable, ...], tuple[AllDifferent, ...]]:
    """The variables and constraints of a shape, built once per process."""
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
    return variables, tuple(constraints)
