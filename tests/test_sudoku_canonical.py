"""Sudoku canonical keys: equal for every symmetric copy of a grid (random moves of bands,
rows, stacks and columns, transposition, digits renamed), on grids of every box shape."""

from __future__ import annotations

import random

import pytest

from conftest import make
from rules.sudoku.family import FAMILY, random_grid
from rules.sudoku.file import SYMBOLS


def random_copy(rows: list[str], box: tuple[int, int], rng: random.Random):
    """The grid under a random symmetry of the rules: (rows, box)."""
    n = len(rows)
    br, bc = box

    def order(size: int) -> list[int]:
        groups = list(range(n // size))
        rng.shuffle(groups)
        out = []
        for g in groups:
            inner = list(range(g * size, (g + 1) * size))
            rng.shuffle(inner)
            out += inner
        return out

    row_order, col_order = order(br), order(bc)
    grid = [[rows[r][c] for c in col_order] for r in row_order]
    if rng.random() < 0.5:
        grid = [list(line) for line in zip(*grid, strict=True)]
        box = (bc, br)
    digits = list(SYMBOLS[:n])
    renamed = dict(zip(digits, rng.sample(digits, n), strict=True))
    return ["".join(renamed.get(ch, ch) for ch in line) for line in grid], box


@pytest.mark.parametrize("box", [(2, 2), (2, 3), (3, 2), (2, 4), (3, 3)])
def test_every_symmetric_copy_keys_alike(box):
    rng = random.Random(sum(box))
    n = box[0] * box[1]
    empty = make({"family": "sudoku", "size": n, "box": list(box), "grid": ["." * n] * n})
    for _ in range(6):
        values = random_grid(empty.model, rng)
        cells = [SYMBOLS[v] if rng.random() < 0.4 else "." for v in values]
        rows = ["".join(cells[r * n : (r + 1) * n]) for r in range(n)]
        puzzle = make({"family": "sudoku", "size": n, "box": list(box), "grid": rows})
        key = FAMILY.canonical_key(puzzle.model, puzzle.clue_state)
        for _ in range(8):
            moved, shape = random_copy(rows, box, rng)
            other = make({"family": "sudoku", "size": n, "box": list(shape), "grid": moved})
            assert FAMILY.canonical_key(other.model, other.clue_state) == key


def test_grids_that_differ_key_apart():
    rng = random.Random(5)
    empty = make({"family": "sudoku", "grid": ["." * 9] * 9})
    values = random_grid(empty.model, rng)
    keys = set()
    for k in range(20):  # the solution with one more cell blanked each time: all different
        cells = [SYMBOLS[v] if i >= k else "." for i, v in enumerate(values)]
        rows = ["".join(cells[r * 9 : (r + 1) * 9]) for r in range(9)]
        puzzle = make({"family": "sudoku", "grid": rows})
        keys.add(FAMILY.canonical_key(puzzle.model, puzzle.clue_state))
    assert len(keys) == 20
