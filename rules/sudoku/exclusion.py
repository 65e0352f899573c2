"""Aligned pair and triplet exclusion (Sudoku Explainer's 6.2 and 7.5).

Take two (or three) open cells and the open cells with few candidates that every one of them
sees (the *excluders*). Try every way to give the base cells one candidate each: a way is out
when two base cells that see each other get the same value, or when it uses up every candidate
of an excluder. A candidate of a base cell that no remaining way uses is false. As in Sudoku
Explainer, a base cell needs an excluder (a peer with 2 to ``degree`` candidates) and no naked
single among its peers, the base cells need two common excluders, and the third cell of a
triplet is a base cell among the excluders of the first two."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, product
from typing import Any

from grader.core.explain import Explainer
from grader.core.model import State, is_single, values_of
from grader.core.step import Step
from grader.core.technique import Context, Technique
from grader.techniques.houses import Houses, houses_of
from rules.sudoku.chains.chaining import compiled, kernels_loaded


def compiled_search(houses: Houses, n_cells: int, degree: int) -> Any:
    """(the kernel module, each cell's peers as two words of cells) when the compiled
    kernels are loaded and take this model and degree; None otherwise (a grid that never
    needs the compiled chains does not pay numba's start-up for this alone)."""
    if not kernels_loaded():
        return None
    jit = compiled("exclusion_jit", package="rules.sudoku")
    values = max(houses.covers, default=0).bit_length()
    if jit is None or not jit.fits(n_cells, values, degree):
        return None
    low, high = jit.peer_words(houses.peer_bits[:n_cells])
    return jit, low, high


Clear = tuple[tuple[int, ...], int]
"""A grid on which a whole search found nothing, with its base cells (a bitset)."""


def base_cells(houses: Houses, state: State, degree: int) -> dict[int, int]:
    """Cells that can be a base cell, each with its excluders (peers with 2..degree
    candidates) as a bitset of cells; none when a naked single is still to be placed among
    the peers."""
    waiting = 0  # naked singles still to place: one candidate that a peer still holds
    few = 0  # the cells with 2..degree candidates
    for var, mask in enumerate(state):
        if is_single(mask):
            if not houses.placed(state, var):
                waiting |= 1 << var
        elif 2 <= mask.bit_count() <= degree:
            few |= 1 << var
    peer_bits = houses.peer_bits
    out: dict[int, int] = {}
    for var, mask in enumerate(state):
        if not mask & (mask - 1):
            continue
        if peer_bits[var] & waiting:
            continue  # leave this to the singles
        excluders = peer_bits[var] & few
        if excluders:
            out[var] = excluders
    return out


def unsettled(clear: Clear | None, state: State, base_bits: int) -> tuple[int, int]:
    """What changed since the grid ``clear``, on which nothing was found, as two bitsets of
    cells: the base cells that were none there or whose candidates changed (*moved*), and the
    cells whose candidates changed. A group with no moved cell and no changed common excluder
    finds nothing: an excluder joins a cell's excluders only as its candidates change, so its
    common excluders are some of those it had there, unchanged, and fewer excluders exclude
    less."""
    if clear is None or len(clear[0]) != len(state):
        return base_bits, (1 << len(state)) - 1
    old_state, old_base_bits = clear
    changed = 0
    for var, (mask, old) in enumerate(zip(state, old_state, strict=True)):
        if mask != old:
            changed |= 1 << var
    return (changed | ~old_base_bits) & base_bits, changed


def cells_of(bits: int) -> list[int]:
    """The cells of a bitset, in order."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


def seen_twice(cells: int, peer_bits: tuple[int, ...]) -> int:
    """The cells that see two or more of ``cells`` (bitsets of cells; peers see each other, so
    these are the cells two or more of whose peers are in ``cells``)."""
    once = twice = 0
    while cells:
        low = cells & -cells
        cells ^= low
        seen = peer_bits[low.bit_length() - 1]
        twice |= once & seen
        once |= seen
    return twice


def excluded(
    houses: Houses, state: State, cells: tuple[int, ...], common: int
) -> list[tuple[int, int]]:
    """The candidates of ``cells`` that no allowed combination of their values uses, given
    their common excluders as a bitset of cells."""
    union = 0
    for v in cells:
        union |= state[v]
    # an excluder with a candidate outside the base cells' can never be emptied by them
    masks = []
    while common:
        low = common & -common
        common ^= low
        mask = state[low.bit_length() - 1]
        if not mask & ~union:
            masks.append(mask)
    peer_bits = houses.peer_bits
    seeing = [
        (i, j) for i, j in combinations(range(len(cells)), 2) if peer_bits[cells[i]] >> cells[j] & 1
    ]
    if not masks and not any(
        state[cells[i]] == state[cells[j]] and state[cells[i]].bit_count() == 2 for i, j in seeing
    ):
        return []  # only the base cells' own clashes, and no two of them lock a pair
    full = [state[v] for v in cells]
    if len(cells) == 3:
        used = _triplet_ways(full, seeing, set(masks))
    elif len(cells) == 2:
        used = _pair_ways(full[0], full[1], bool(seeing), masks)
    else:
        used = _ways(full, seeing, masks)
    if used is None:
        return []  # every candidate has a way: nothing to exclude
    return [(v, x) for i, v in enumerate(cells) for x in values_of(state[v] & ~used[i])]


def _ways(full: list[int], seeing: list[tuple[int, int]], masks: list[int]) -> list[int] | None:
    """Per base cell, the values some allowed way gives it; None once every candidate has
    one (a way is out when two cells that see each other share a value, or when its values
    hold every candidate of an excluder)."""
    used = [0] * len(full)
    for values in product(*(values_of(m) for m in full)):
        if any(values[i] == values[j] for i, j in seeing):
            continue
        taken = 0
        for x in values:
            taken |= 1 << x
        if any(not mask & ~taken for mask in masks):
            continue
        for i, x in enumerate(values):
            used[i] |= 1 << x
        if used == full:
            return None
    return used


def _pair_ways(fa: int, fb: int, seeing: bool, masks: list[int]) -> list[int] | None:
    """:func:`_ways` for two base cells, a value of the first at a time: the values of the
    second it allows are those not equal to it (when the cells see each other) and not
    completing, with it, an excluder of two candidates (one of more cannot be emptied by two
    values)."""
    pairs = [mask for mask in masks if mask.bit_count() == 2]
    ua = ub = 0
    for x in values_of(fa):
        bx = 1 << x
        allowed = fb & ~bx if seeing else fb
        for mask in pairs:
            if mask & bx:
                allowed &= ~(mask ^ bx)
        if allowed:
            ua |= bx
            ub |= allowed
    if ua == fa and ub == fb:
        return None
    return [ua, ub]


def _triplet_ways(
    full: list[int], seeing: list[tuple[int, int]], covers: set[int]
) -> list[int] | None:
    """:func:`_ways` for three base cells, with the excluders' candidate sets (two or three
    values each) in a set: a way is out when one of its two- or three-value sets is one. For
    each value of the first two cells, the third cell's allowed values are found at once as a
    bitset: those not clashing with either, and not completing a cover with one or both."""
    ab, ac, bc = ((0, 1) in seeing), ((0, 2) in seeing), ((1, 2) in seeing)
    fa, fb, fc = full
    with_value: dict[int, int] = {}  # value bit -> the values completing a pair cover with it
    with_pair: dict[int, int] = {}  # two value bits -> the values completing a triple cover
    for cover in covers:
        if cover.bit_count() == 2:
            low = cover & -cover
            high = cover ^ low
            with_value[low] = with_value.get(low, 0) | high
            with_value[high] = with_value.get(high, 0) | low
        else:
            rest = cover
            while rest:
                bit = rest & -rest
                rest ^= bit
                pair = cover ^ bit
                with_pair[pair] = with_pair.get(pair, 0) | bit
    ua = ub = uc = 0
    second = [1 << y for y in values_of(fb)]
    for x in values_of(fa):
        bx = 1 << x
        cx = fc & ~with_value.get(bx, 0)
        if ac:
            cx &= ~bx
        if not cx:
            continue
        for by in second:
            if ab and by == bx:
                continue
            bxy = bx | by
            if bxy in covers:
                continue  # every third value keeps this pair
            allowed = cx & ~with_value.get(by, 0) & ~with_pair.get(bxy, 0)
            if bc:
                allowed &= ~by
            if allowed:
                ua |= bx
                ub |= by
                uc |= allowed
                if ub == fb and uc == fc:
                    if ua == fa:
                        return None
                    break  # x has a way and the others' every value one: the next x
    return [ua, ub, uc]


class AlignedExclusion(Technique):
    name = "aligned-pair-exclusion"
    title = "Aligned exclusion"
    description = (
        "Two (or three) cells and the cells with few candidates they all see: every way to fill "
        "the base cells that keeps them apart and leaves each of those cells a value is tried; "
        "a candidate no such way uses is false (Sudoku Explainer's aligned pair exclusion, 6.2, "
        "and aligned triplet exclusion, 7.5)."
    )

    reads_solutions = False

    def __init__(
        self, cost: float, level: str = "", name: str | None = None, degree: int = 2
    ) -> None:
        super().__init__(cost, level, name)
        self.degree = degree

    def find(self, ctx: Context) -> Iterator[Step]:
        houses = houses_of(ctx.model)
        jit = compiled_search(houses, len(ctx.state), self.degree)
        if jit is not None:
            yield from self.find_compiled(ctx, jit)
            return
        peer_bits = houses.peer_bits
        state = ctx.state
        bases = base_cells(houses, state, self.degree)
        memo = ctx.model.memo
        # only a group with a moved cell or a changed common excluder can find what the last
        # clear grid did not
        base_bits = sum(1 << v for v in bases)
        moved, changed = unsettled(memo.get(("aligned-clear", self.degree)), state, base_bits)
        tried: set[int] = set()  # triplets met before as another pair and tail: found nothing
        for a, excluders_a in bases.items():
            # the base cells after a sharing two or more of its excluders, in order
            partners = seen_twice(excluders_a, peer_bits) & base_bits & ~((2 << a) - 1)
            for b in cells_of(partners):
                common_ab = excluders_a & bases[b]
                settled_pair = not (moved >> a & 1 or moved >> b & 1)
                if self.degree == 2:
                    if settled_pair and not common_ab & changed:
                        continue
                    groups: list[tuple[tuple[int, ...], int]] = [((a, b), common_ab)]
                else:
                    # third (and further) cells: base cells among the excluders of the first
                    # two sharing two or more of their common excluders
                    area = (excluders_a | bases[b]) & base_bits & ~(1 << a | 1 << b)
                    if settled_pair and not common_ab & changed and self.degree == 3:
                        area &= moved  # the tail is the one cell that can unsettle the group
                        if not area:
                            continue
                    near = cells_of(area & seen_twice(common_ab, peer_bits))
                    groups = []
                    pair_bits = 1 << a | 1 << b
                    for tail in combinations(near, self.degree - 2):
                        common = common_ab
                        group_bits = pair_bits
                        for v in tail:
                            common &= bases[v]
                            group_bits |= 1 << v
                        if not (group_bits & moved or common & changed):
                            continue  # answered nothing on the clear grid
                        if common.bit_count() >= 2 and group_bits not in tried:
                            tried.add(group_bits)  # its other orders give the same answer
                            groups.append(((a, b, *tail), common))
                for cells, common in groups:
                    ctx.check_time()
                    elims = excluded(houses, state, cells, common)
                    if elims:
                        excluders = tuple(cells_of(common))
                        yield self.make(eliminations=elims, cells=cells, excluders=excluders)
                        return
        memo[("aligned-clear", self.degree)] = (tuple(state), base_bits)

    def find_compiled(self, ctx: Context, jit: Any) -> Iterator[Step]:
        """:meth:`find` by the kernel (:mod:`rules.sudoku.exclusion_jit`): the same step, and
        the same clear grid remembered when there is none."""
        import numpy as np  # loaded with the kernels already: not at every start-up

        module, low, high = jit
        state = np.array(ctx.state, np.int64)
        memo = ctx.model.memo
        clear = memo.get(("aligned-clear", self.degree))
        has_old = clear is not None and len(clear[0]) == len(state)
        old = np.array(clear[0], np.int64) if has_old else state
        old_low, old_high = module.words(clear[1]) if has_old else (0, 0)
        count, group, size, common_low, common_high, elims, base_low, base_high = (
            module.aligned_search(
                state,
                low,
                high,
                self.degree,
                old,
                has_old,
                np.uint64(old_low),
                np.uint64(old_high),
            )
        )
        if count:
            common = int(common_low) | int(common_high) << 64
            yield self.make(
                eliminations=[(int(v), int(x)) for v, x in elims[:count]],
                cells=tuple(int(v) for v in group[:size]),
                excluders=tuple(cells_of(common)),
            )
            return
        memo[("aligned-clear", self.degree)] = (
            tuple(ctx.state),
            int(base_low) | int(base_high) << 64,
        )

    def explain(self, step: Step, ex: Explainer) -> str:
        cells = ex.cells(step.data["cells"])
        excluders = ex.cells(step.data["excluders"])
        return (
            f"every way to fill {cells} either repeats a value where they see each other or "
            f"empties one of {excluders}, which they all see"
        )
