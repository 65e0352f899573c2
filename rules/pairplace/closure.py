"""A pair place line taken to the fixpoint of its techniques in one call, for the generator's
propagation (:meth:`grader.core.technique.Technique.joint_scan`).

With single-line enumeration among a line's techniques, their fixpoint on the line is what
enumeration alone concludes once: a row keeps the partners some perfect matching gives (which
also holds every conclusion of the reflexive partner, the row naked single and row matching),
a column the letters some all-different completion gives, with each removal's mirror image in
the same row (which holds every conclusion of the backreference, the column hidden single and
column pairs once the rows have taken their own fixpoints). Enumeration on a line so narrowed
finds nothing more, so one call replaces the cheaper techniques' repeated scans.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from grader.core.model import values_of
from rules.pairplace.matching import column_supports, matching_supports, row_adjacency

if TYPE_CHECKING:
    from grader.core.constraints import Constraint
    from grader.core.technique import Context


def row_closure(
    cells: Sequence[int], ctx: Context, _row: Constraint
) -> list[tuple[int, int]] | None:
    """A row's narrowed cells and their new masks; None when no perfect matching is left."""
    masks = [ctx.state[v] for v in cells]
    support = matching_supports(row_adjacency(masks))
    if support is None:
        return None
    return [(v, new) for v, old, new in zip(cells, masks, support, strict=True) if new != old]


def column_closure(
    cells: Sequence[int], n: int, ctx: Context, _column: Constraint
) -> list[tuple[int, int]] | None:
    """A column's narrowed cells and the mirror cells of its removals (Y gone from row r's
    column X means X gone from its column Y), with their new masks, for ``n`` letters; None
    when the column cannot be completed or a mirror cell is left empty."""
    state = ctx.state
    masks = [state[v] for v in cells]
    support = column_supports(masks)
    if support is None:
        return None
    if support == masks:
        return []
    narrowed: dict[int, int] = {}
    for var, old, new in zip(cells, masks, support, strict=True):
        gone = old & ~new
        if not gone:
            continue
        narrowed[var] = new
        row_start = var - var % n
        letter_bit = 1 << (var - row_start)
        for y in values_of(gone):
            mirror = row_start + y
            mask = narrowed.get(mirror, state[mirror])
            if mask & letter_bit:
                mask &= ~letter_bit
                if not mask:
                    return None
                narrowed[mirror] = mask
    return list(narrowed.items())
