"""Matchings behind pair place's rows and columns, over bitmasks: the partners each letter of a
row has in some perfect matching, and the letters each cell of a column holds in some
all-different completion (Régin's filtering). Memoised on the masks."""

from __future__ import annotations

from collections.abc import Sequence

from grader.core.model import values_of


def row_adjacency(masks: Sequence[int]) -> list[int]:
    """Usable pairs of a row: j is usable for i when i may hold j and j may hold i."""
    key = tuple(masks)
    found = _ADJ_CACHE.get(key)
    if found is None:
        if len(_ADJ_CACHE) > _CACHE_LIMIT:
            _ADJ_CACHE.clear()
        found = _ADJ_CACHE[key] = _row_adjacency(masks)
    return found


def _row_adjacency(masks: Sequence[int]) -> list[int]:
    n = len(masks)
    holders = [0] * n
    for j, mask in enumerate(masks):
        bit = 1 << j
        for i in values_of(mask):
            holders[i] |= bit
    return [masks[i] & holders[i] for i in range(n)]


_ADJ_CACHE: dict[tuple[int, ...], list[int]] = {}
_ROW_CACHE: dict[tuple[int, ...], list[int] | None] = {}
_COLUMN_CACHE: dict[tuple[int, ...], list[int] | None] = {}
_CACHE_LIMIT = 100_000


def matching_supports(adj: Sequence[int]) -> list[int] | None:
    """For each letter, the partners it has in some perfect matching of the usable pairs
    ``adj`` (bitmasks, symmetric); None when there is no perfect matching at all.

    A pair i–j lies in a perfect matching exactly when the other letters can be paired up,
    which a memoised search over the set of unpaired letters answers.
    """
    key = tuple(adj)
    if key in _ROW_CACHE:
        return _ROW_CACHE[key]
    if len(_ROW_CACHE) > _CACHE_LIMIT:
        _ROW_CACHE.clear()
    result = _ROW_CACHE[key] = _matching_supports(adj)
    return result


def _matching_supports(adj: Sequence[int]) -> list[int] | None:
    n = len(adj)
    full = (1 << n) - 1
    memo: dict[int, bool] = {0: True}

    def pairable(rest: int) -> bool:
        known = memo.get(rest)
        if known is not None:
            return known
        low = rest & -rest
        i = low.bit_length() - 1
        others = rest ^ low
        options = adj[i] & others
        result = False
        while options:
            bit = options & -options
            if pairable(others ^ bit):
                result = True
                break
            options ^= bit
        memo[rest] = result
        return result

    if not pairable(full):
        return None
    out = [0] * n
    for i in range(n):
        options = adj[i] & ~((1 << (i + 1)) - 1)
        while options:
            bit = options & -options
            options ^= bit
            if pairable(full & ~(1 << i) & ~bit):
                out[i] |= bit
                out[bit.bit_length() - 1] |= 1 << i
    return out


def column_supports(masks: Sequence[int]) -> list[int] | None:
    """For each cell of a column, the letters it holds in some completion where the cells take
    distinct letters; None if there is none."""
    key = tuple(masks)
    if key in _COLUMN_CACHE:
        return _COLUMN_CACHE[key]
    if len(_COLUMN_CACHE) > _CACHE_LIMIT:
        _COLUMN_CACHE.clear()
    result = _COLUMN_CACHE[key] = _column_supports(masks)
    return result


def _column_supports(masks: Sequence[int]) -> list[int] | None:
    """Régin's filtering: find one matching of cells to letters; a cell may switch to another
    letter y exactly when y's holder can move on along a chain of switches that ends by taking
    the letter the cell frees (y reaches it in the "holder of a may take b" letter graph).
    Letters are bits throughout (the augmenting search marks them in one int)."""
    cells = len(masks)
    width = max(masks, default=0).bit_length() if cells else 0
    owner = [-1] * max(width, 1)
    match = [-1] * cells
    seen = 0

    def augment(cell: int) -> bool:
        nonlocal seen
        options = masks[cell]
        while options:
            low = options & -options
            options ^= low
            if seen & low:
                continue
            seen |= low
            letter = low.bit_length() - 1
            holder = owner[letter]
            if holder < 0 or augment(holder):
                owner[letter] = cell
                match[cell] = letter
                return True
        return False

    taken = 0
    for cell in range(cells):
        free = masks[cell] & ~taken
        if free:  # a letter nobody holds yet: no augmenting chain needed
            low = free & -free
            taken |= low
            letter = low.bit_length() - 1
            owner[letter] = cell
            match[cell] = letter
            continue
        seen = 0
        if not augment(cell):
            return None
        taken = 0  # the chain moved letters between cells and took one more
        for letter in match[: cell + 1]:
            taken |= 1 << letter
    letters = [a for a in range(width) if owner[a] >= 0]
    reach = [0] * width
    for a in letters:
        reach[a] = masks[owner[a]] & ~(1 << a)
    for k in letters:
        bit = 1 << k
        through = reach[k]
        for a in letters:
            if reach[a] & bit:
                reach[a] |= through
    free = 0  # letters no cell holds in the matching: a chain may end by taking one
    for mask in masks:
        free |= mask
    for a in letters:
        free &= ~(1 << a)
    out = [0] * cells
    for cell in range(cells):
        mine = match[cell]
        found = 1 << mine
        for letter in values_of(masks[cell] & ~found):
            if free >> letter & 1 or reach[letter] >> mine & 1 or reach[letter] & free:
                found |= 1 << letter
        out[cell] = found
    return out
