"""A canonical form of a Pair Place grid up to relabelling the letters and reordering the rows.

Two grids are the same puzzle when a renaming of the letters (an automorphism of the graph when
it is not complete) and a reordering of the rows (colours) turns one into the other. Trying
every renaming is out of reach (K8 has 40,320, K16 about 2 * 10^13), so the form is found the
way graph canonical labelling programs (nauty and its kin) find theirs: colour the letters and
rows by what they see, refine the colours until they stop splitting, then, while two letters
share a colour, try each of them as the first of its colour and refine again. Each branch ends
with every letter told apart, which names the letters; the rows are then sorted, and the
smallest of these encodings is the form. The refinement never looks at names, so equal puzzles
give equal forms, and the encoding lists every given and edge, so unequal ones cannot.

    >>> form = canonical_form(4, {(0, 0, 1), (1, 0, 2)}, None)
    >>> form == canonical_form(4, {(1, 3, 2), (0, 3, 0)}, None)
    True
"""

from __future__ import annotations

from collections.abc import Iterable

Given = tuple[int, int, int]
"""A given cell: (row, column letter, the letter it holds), letters as 0-based indices."""

MAX_LEAVES = 20_000
"""Branches tried before giving up on a canonical form (only grids with few givens on large
graphs come near; they then keep their letters and are told apart up to row order only)."""


class TooSymmetric(Exception):
    """The search would try more than :data:`MAX_LEAVES` labellings."""


def _refine(
    letters: list[int], givens: list[Given], rows: int, neighbours: list[list[int]] | None
) -> list[int]:
    """Split the letter colours by what each letter sees until nothing splits (names unused)."""
    colour = list(letters)
    while True:
        row_sig: list[list[tuple[int, int]]] = [[] for _ in range(rows)]
        for r, x, y in givens:
            row_sig[r].append((colour[x], colour[y]))
        row_colour = _ranks([tuple(sorted(sig)) for sig in row_sig])
        seen: list[list[tuple]] = [[] for _ in colour]
        for r, x, y in givens:
            seen[x].append((0, row_colour[r], colour[y]))
            seen[y].append((1, row_colour[r], colour[x]))
        if neighbours is not None:
            for x, around in enumerate(neighbours):
                seen[x].extend((2, colour[y], 0) for y in around)
        new = _ranks([(colour[x], tuple(sorted(seen[x]))) for x in range(len(colour))])
        if len(set(new)) == len(set(colour)):
            return new
        colour = new


def _ranks(signatures: list) -> list[int]:
    """Each signature's rank among the distinct ones (equal signatures, equal ranks)."""
    order = {sig: i for i, sig in enumerate(sorted(set(signatures)))}
    return [order[sig] for sig in signatures]


def _encode(
    colour: list[int], givens: list[Given], rows: int, edges: Iterable[tuple[int, int]] | None
) -> tuple:
    """The grid under the naming ``colour`` (all distinct), rows sorted."""
    by_row: list[list[tuple[int, int]]] = [[] for _ in range(rows)]
    for r, x, y in givens:
        by_row[r].append((colour[x], colour[y]))
    table = tuple(sorted(tuple(sorted(row)) for row in by_row))
    graph = None
    if edges is not None:
        graph = tuple(sorted(tuple(sorted((colour[a], colour[b]))) for a, b in edges))
    return table, graph


def canonical_form(
    n: int, givens: Iterable[Given], edges: Iterable[tuple[int, int]] | None, rows: int = 0
) -> tuple:
    """The canonical form of the givens on ``n`` letters (``edges``: None for K_n); equal for two
    grids exactly when one is the other with letters renamed and rows reordered. Raises
    :class:`TooSymmetric` when more than :data:`MAX_LEAVES` branches would be needed."""
    givens = sorted(set(givens))
    rows = max(rows, 1 + max((r for r, _, _ in givens), default=-1))
    edge_list = None if edges is None else [tuple(e) for e in edges]
    neighbours = None
    if edge_list is not None:
        neighbours = [[] for _ in range(n)]
        for a, b in edge_list:
            neighbours[a].append(b)
            neighbours[b].append(a)
    best: tuple | None = None
    leaves = 0
    stack = [_refine([0] * n, givens, rows, neighbours)]
    while stack:
        colour = stack.pop()
        counts: dict[int, int] = {}
        for c in colour:
            counts[c] = counts.get(c, 0) + 1
        shared = [c for c, k in sorted(counts.items()) if k > 1]
        if not shared:
            leaves += 1
            if leaves > MAX_LEAVES:
                raise TooSymmetric
            form = _encode(colour, givens, rows, edge_list)
            if best is None or form < best:
                best = form
            continue
        target = shared[0]
        for x in range(n):
            if colour[x] == target:
                split = [
                    2 * c + (0 if (c == target and y == x) else 1) for y, c in enumerate(colour)
                ]
                stack.append(_refine(split, givens, rows, neighbours))
    assert best is not None
    return best
