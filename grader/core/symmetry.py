"""Board symmetries for canonical keys: rotations and reflections of a rectangle."""

from __future__ import annotations

from collections.abc import Callable

Cell = tuple[int, int]
Transform = Callable[[int, int], Cell]


def board_transforms(rows: int, cols: int) -> list[tuple[tuple[int, int], Transform]]:
    """Each symmetry of a ``rows`` x ``cols`` board as (new shape, cell map).

    A square has the eight rotations and reflections; a non-square rectangle has the four that
    keep or swap its sides consistently (identity, both flips, half turn), plus the four that
    turn it on its side (the shape becomes ``cols`` x ``rows``).
    """
    r1, c1 = rows - 1, cols - 1
    same = (rows, cols)
    turned = (cols, rows)
    return [
        (same, lambda r, c: (r, c)),
        (same, lambda r, c: (r, c1 - c)),
        (same, lambda r, c: (r1 - r, c)),
        (same, lambda r, c: (r1 - r, c1 - c)),
        (turned, lambda r, c: (c, r)),
        (turned, lambda r, c: (c, r1 - r)),
        (turned, lambda r, c: (c1 - c, r)),
        (turned, lambda r, c: (c1 - c, r1 - r)),
    ]


BOARD_SYMMETRIES = (
    "identity",
    "mirror",
    "flip",
    "half turn",
    "transpose",
    "quarter turn",
    "three-quarter turn",
    "anti-transpose",
)
"""The names of :func:`board_transforms`' symmetries, in its order."""


def named_board_transforms(rows: int, cols: int) -> list[tuple[str, tuple[int, int], Transform]]:
    """:func:`board_transforms` with their names, the identity left out."""
    return [
        (name, shape, move)
        for name, (shape, move) in zip(BOARD_SYMMETRIES, board_transforms(rows, cols), strict=True)
        if name != "identity"
    ]


def moved_cells(cells: list[list[int]] | list[tuple[int, int]], move: Transform) -> list[list[int]]:
    """``[row, col]`` pairs after a cell map."""
    return [list(move(r, c)) for r, c in cells]


def transformed_rows(rows: list[str], transform: Transform, shape: tuple[int, int]) -> list[str]:
    """The grid ``rows`` (strings) under a cell map, as rows of the new shape."""
    out = [[""] * shape[1] for _ in range(shape[0])]
    for r, row in enumerate(rows):
        for c, char in enumerate(row):
            nr, nc = transform(r, c)
            out[nr][nc] = char
    return ["".join(row) for row in out]
