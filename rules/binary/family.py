"""Family hooks shared by Binairo and Tango: the text grid, the canonical key under the board's
symmetries and value swap, and random solutions."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from grader.core.model import Model, State
from grader.core.symmetry import board_transforms, named_board_transforms, transformed_rows
from grader.rating.family import Family
from rules.binary.fill import random_grid


def format_binary(model: Model, state: State) -> list[str]:
    """The grid as text rows: a decided cell's symbol, ``.`` for an open one."""
    shown = {1: model.symbol(0), 2: model.symbol(1)}  # a decided cell's mask → its symbol
    cols = model.cols
    return [
        "".join([shown.get(mask, ".") for mask in state[r * cols : (r + 1) * cols]])
        for r in range(model.rows)
    ]


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


def binary_copies(data: dict[str, Any], one: str, two: str) -> list[tuple[str, dict[str, Any]]]:
    """A binary puzzle file under each board symmetry (signs moved along) and with its two
    symbols swapped (signs stay: = and x are the same after a swap)."""
    grid = data["grid"]
    out = []
    for name, shape, move in named_board_transforms(len(grid), len(grid[0])):
        copy = {**data, "size": list(shape), "grid": transformed_rows(grid, move, shape)}
        if "signs" in data:
            copy["signs"] = [
                [*move(r1, c1), *move(r2, c2), sign] for r1, c1, r2, c2, sign in data["signs"]
            ]
        out.append((name, copy))
    swap = str.maketrans(one + two, two + one)
    out.append((f"{one}/{two} swapped", {**data, "grid": [row.translate(swap) for row in grid]}))
    return out


def random_binary_solution(family: Family, model: Model, rng: random.Random) -> list[int]:
    """A random solution: generic search on small grids, row sampling on large ones."""
    if max(model.rows, model.cols) <= SMALL or model.family != "binairo":
        return Family.random_solution(family, model, rng)
    while True:
        grid = random_grid(model.rows, model.cols, rng)
        values = [v for row in grid for v in row]
        if all(c.satisfied_by(values) for c in model.constraints):
            return values
