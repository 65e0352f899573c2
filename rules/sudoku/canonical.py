"""A canonical form of a sudoku grid (givens or solution) under the symmetries of the rules:
bands and the rows inside a band reordered, stacks and the columns inside a stack likewise,
transposition (square boxes) and the digits renamed.

The form is the least string, row by row with digits renamed in order of first appearance
(``.`` before any digit), over a set of row and column orders that every symmetric copy of the
grid shares: lines are sorted by classes that no symmetry changes (refined a few rounds from
what each line, band and digit sees, as graph canonical labelling programs refine colours),
and the orders of lines whose classes tie are all tried. A grid so symmetric that the tries
would pass :data:`TRIES` (a near-empty grid) is keyed by its first order only.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import permutations, product
from math import factorial

Grid = list[list[int]]
"""Values per row, -1 for an open cell."""

TRIES = 20_000
"""Row and column orders tried at most."""
ROUNDS = 3
"""Refinement rounds."""
SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def canonical_form(grid: Grid, box: tuple[int, int]) -> str:
    """The canonical string of ``grid`` (n x n, boxes ``box`` = rows x cols)."""
    n = len(grid)
    br, bc = box
    variants = [(grid, br, bc)]
    if br == bc:
        variants.append(([[grid[r][c] for r in range(n)] for c in range(n)], br, bc))
    best = None
    for g, height, width in variants:
        rows, cols = _classes(g, height, width)
        row_orders = list(_orders(rows, height))
        col_orders = list(_orders(cols, width))
        if len(row_orders) * len(col_orders) > TRIES:
            row_orders, col_orders = row_orders[:1], col_orders[:1]
        for row_order in row_orders:
            for col_order in col_orders:
                text = _relabelled(g, row_order, col_order, best)
                if text is not None:
                    best = text
    assert best is not None
    return best


def _relabelled(g: Grid, rows: Sequence[int], cols: Sequence[int], bound: str | None) -> str | None:
    """The grid read in these orders with digits renamed by first appearance, or None as soon
    as it is past ``bound``."""
    labels: dict[int, str] = {}
    out: list[str] = []
    for r in rows:
        line = g[r]
        for c in cols:
            v = line[c]
            out.append("." if v < 0 else labels.setdefault(v, SYMBOLS[len(labels)]))
        if bound is not None:
            text = "".join(out)
            prefix = bound[: len(text)]
            if text > prefix:
                return None
            if text < prefix:
                bound = None
    text = "".join(out)
    return text if bound is None or text < bound else None


def _classes(g: Grid, height: int, width: int) -> tuple[list[int], list[int]]:
    """Row and column classes no symmetry changes (equal classes for lines a symmetry swaps)."""
    n = len(g)
    row_cls = [0] * n
    col_cls = [0] * n
    digit_cls: dict[int, int] = {}
    for line in g:
        for v in line:
            if v >= 0:
                digit_cls[v] = digit_cls.get(v, 0) + 1
    for _ in range(ROUNDS):
        row_sig = [
            _line_signature([(col_cls[c], digit_cls.get(g[r][c], -1)) for c in range(n)], width)
            for r in range(n)
        ]
        col_sig = [
            _line_signature([(row_cls[r], digit_cls.get(g[r][c], -1)) for r in range(n)], height)
            for c in range(n)
        ]
        row_sig = _with_groups(row_sig, height)
        col_sig = _with_groups(col_sig, width)
        digit_sig: dict[int, list[tuple[int, int]]] = {}
        for r in range(n):
            for c in range(n):
                v = g[r][c]
                if v >= 0:
                    digit_sig.setdefault(v, []).append((row_cls[r], col_cls[c]))
        row_cls, col_cls = _ranked(row_sig), _ranked(col_sig)
        names = sorted(digit_sig)
        ranked = _ranked([tuple(sorted(digit_sig[v])) for v in names])
        digit_cls = dict(zip(names, ranked, strict=True))
    return row_cls, col_cls


def _line_signature(cells: list[tuple[int, int]], width: int) -> tuple:
    """A line's cells as seen through the symmetries of the other direction: the multiset of
    its segments (one per box it crosses), each the multiset of its (class, digit class)."""
    segments = [tuple(sorted(cells[i : i + width])) for i in range(0, len(cells), width)]
    return tuple(sorted(segments))


def _with_groups(signatures: list[tuple], size: int) -> list[tuple]:
    """Each line's signature with its group's (band or stack: the multiset of its lines')."""
    out = []
    for i, signature in enumerate(signatures):
        start = i - i % size
        group = tuple(sorted(signatures[start : start + size]))
        out.append((group, signature))
    return out


def _ranked(signatures: Sequence[tuple]) -> list[int]:
    """Each signature's rank among the distinct ones."""
    order = {s: i for i, s in enumerate(sorted(set(signatures)))}
    return [order[s] for s in signatures]


def _orders(classes: list[int], size: int) -> Iterator[list[int]]:
    """Every line order that sorts groups (bands or stacks) and the lines inside each group by
    class, ties taken in every order."""
    n = len(classes)
    groups = [list(range(start, start + size)) for start in range(0, n, size)]
    group_key = [tuple(sorted(classes[i] for i in group)) for group in groups]
    group_ties = _tie_orders(list(range(len(groups))), group_key)
    inner = [_tie_orders(group, [classes[i] for i in group]) for group in groups]
    if _count(group_ties) * _product_count(inner) > TRIES:
        yield [i for g in next(_expand(group_ties)) for i in next(_expand(inner[g]))]
        return
    for group_order in _expand(group_ties):
        for lines in product(*(list(_expand(inner[g])) for g in group_order)):
            yield [i for part in lines for i in part]


def _tie_orders(items: list[int], keys: Sequence) -> list[list[int]]:
    """``items`` sorted by their keys, as runs of tied items (each run to be permuted)."""
    ranked = sorted(range(len(items)), key=lambda i: keys[i])
    runs: list[list[int]] = []
    for i in ranked:
        if runs and keys[runs[-1][0]] == keys[i]:
            runs[-1].append(i)
        else:
            runs.append([i])
    return [[items[i] for i in run] for run in runs]


def _expand(runs: list[list[int]]) -> Iterator[list[int]]:
    """Every order the runs allow."""
    for choice in product(*(permutations(run) for run in runs)):
        yield [item for run in choice for item in run]


def _count(runs: list[list[int]]) -> int:
    total = 1
    for run in runs:
        total *= factorial(len(run))
    return total


def _product_count(parts: list[list[list[int]]]) -> int:
    total = 1
    for runs in parts:
        total *= _count(runs)
    return total
