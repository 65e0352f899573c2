"""Aligned pair and triplet exclusion's search, compiled by numba.

:meth:`rules.sudoku.exclusion.AlignedExclusion.find` stays the reference
(``tests/test_exclusion_jit.py`` holds the two to the same steps): :func:`aligned_search` walks
the same base cells, pairs and triplets in the same order, skips the same settled groups and
stops at the same first group with an exclusion. Sets of cells are two 64-bit words (models of
up to 128 cells, values up to :data:`MAX_VALUES`); a group's ways are enumerated whole, which
gives the candidates some allowed way uses exactly as the Python shortcuts do.
"""

from __future__ import annotations

from functools import lru_cache

import numba
import numpy as np

from rules.sudoku.chains.propagation_jit import popcount
from rules.sudoku.chains.static_jit import lowest

MAX_CELLS = 128
MAX_VALUES = 16


def fits(n_cells: int, n_values: int, degree: int) -> bool:
    """Whether the kernel takes grids of this size and groups of this degree."""
    return n_cells <= MAX_CELLS and n_values <= MAX_VALUES and degree in (2, 3)


@lru_cache(maxsize=16)
def peer_words(peer_bits: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Each cell's peers as two words (cells 0-63, 64-127); remembered per layout, as every
    search asks (read only: the kernel never writes them)."""
    low = np.array([bits & (2**64 - 1) for bits in peer_bits], np.uint64)
    high = np.array([bits >> 64 for bits in peer_bits], np.uint64)
    return low, high


def words(bits: int) -> tuple[int, int]:
    """A Python bitset of cells as its two words."""
    return bits & (2**64 - 1), bits >> 64


@numba.njit(cache=True)
def has(lo, hi, cell):  # pragma: no cover - compiled
    """Whether the set of two words holds ``cell``."""
    if cell < 64:
        return (lo >> np.uint64(cell)) & np.uint64(1)
    return (hi >> np.uint64(cell - 64)) & np.uint64(1)


@numba.njit(cache=True)
def with_cell(lo, hi, cell):  # pragma: no cover - compiled
    """The set of two words with ``cell`` added."""
    if cell < 64:
        return lo | (np.uint64(1) << np.uint64(cell)), hi
    return lo, hi | (np.uint64(1) << np.uint64(cell - 64))


@numba.njit(cache=True)
def cells_in(lo, hi, out):  # pragma: no cover - compiled
    """The cells of a set into ``out``, in order; how many."""
    count = 0
    while lo:
        out[count] = lowest(lo)
        count += 1
        lo &= lo - np.uint64(1)
    while hi:
        out[count] = 64 + lowest(hi)
        count += 1
        hi &= hi - np.uint64(1)
    return count


@numba.njit(cache=True)
def seen_twice(lo, hi, plo, phi, scratch):  # pragma: no cover - compiled
    """The cells that see two or more of the set's cells."""
    once_lo = once_hi = twice_lo = twice_hi = np.uint64(0)
    for k in range(cells_in(lo, hi, scratch)):
        cell = scratch[k]
        twice_lo |= once_lo & plo[cell]
        twice_hi |= once_hi & phi[cell]
        once_lo |= plo[cell]
        once_hi |= phi[cell]
    return twice_lo, twice_hi


@numba.njit(cache=True)
def single(mask):  # pragma: no cover - compiled
    return mask != 0 and (mask & (mask - 1)) == 0


@numba.njit(cache=True)
def excluded(state, group, size, common_lo, common_hi, plo, phi, scratch, elims):
    """The candidates of the group's cells no allowed way uses, into ``elims`` (cell, value),
    cell by cell in the group's order and values in order; how many."""  # pragma: no cover
    union = 0
    for i in range(size):
        union |= state[group[i]]
    masks = np.empty(MAX_CELLS, np.int64)
    n_masks = 0
    for k in range(cells_in(common_lo, common_hi, scratch)):
        mask = state[scratch[k]]
        if not mask & ~union:  # one with a candidate outside the base cells never empties
            masks[n_masks] = mask
            n_masks += 1
    sees = np.zeros((3, 3), np.bool_)
    locked = False
    for i in range(size):
        for j in range(i + 1, size):
            if has(plo[group[i]], phi[group[i]], group[j]):
                sees[i, j] = True
                a, b = state[group[i]], state[group[j]]
                if a == b and popcount(np.uint64(a)) == 2:
                    locked = True
    if n_masks == 0 and not locked:
        return 0  # only the base cells' own clashes, and no two of them lock a pair
    used = np.zeros(3, np.int64)
    first, second = state[group[0]], state[group[1]]
    third = state[group[2]] if size == 3 else 1
    for x in range(MAX_VALUES):
        if not (first >> x) & 1:
            continue
        for y in range(MAX_VALUES):
            if not (second >> y) & 1 or (sees[0, 1] and x == y):
                continue
            for z in range(MAX_VALUES):
                if not (third >> z) & 1:
                    continue
                if size == 3 and ((sees[0, 2] and x == z) or (sees[1, 2] and y == z)):
                    continue
                taken = (1 << x) | (1 << y) | ((1 << z) if size == 3 else 0)
                emptied = False
                for k in range(n_masks):
                    if not masks[k] & ~taken:
                        emptied = True
                        break
                if emptied:
                    continue
                used[0] |= 1 << x
                used[1] |= 1 << y
                used[2] |= 1 << z
    count = 0
    for i in range(size):
        gone = state[group[i]] & ~used[i]
        for x in range(MAX_VALUES):
            if (gone >> x) & 1:
                elims[count, 0] = group[i]
                elims[count, 1] = x
                count += 1
    return count


@numba.njit(cache=True)
def aligned_search(
    state, plo, phi, degree, old_state, has_old, old_lo, old_hi
):  # pragma: no cover - compiled
    """The first group with an exclusion, as :meth:`AlignedExclusion.find` finds it: (how
    many eliminations, 0: none; the group's cells; its size; its common excluders as two
    words; the eliminations; the base cells as two words, for the clear grid's memo)."""
    n = state.shape[0]
    scratch = np.empty(MAX_CELLS, np.int64)
    waiting_lo = waiting_hi = few_lo = few_hi = np.uint64(0)
    for var in range(n):
        mask = state[var]
        if single(mask):
            held = 0
            for k in range(cells_in(plo[var], phi[var], scratch)):
                held |= state[scratch[k]]
            if held & mask:  # a naked single still to place
                waiting_lo, waiting_hi = with_cell(waiting_lo, waiting_hi, var)
        elif 2 <= popcount(np.uint64(mask)) <= degree:
            few_lo, few_hi = with_cell(few_lo, few_hi, var)
    ex_lo = np.zeros(n, np.uint64)
    ex_hi = np.zeros(n, np.uint64)
    is_base = np.zeros(n, np.bool_)
    base_lo = base_hi = np.uint64(0)
    for var in range(n):
        mask = state[var]
        if not mask & (mask - 1):
            continue
        if (plo[var] & waiting_lo) or (phi[var] & waiting_hi):
            continue  # leave this to the singles
        ex_lo[var] = plo[var] & few_lo
        ex_hi[var] = phi[var] & few_hi
        if ex_lo[var] or ex_hi[var]:
            is_base[var] = True
            base_lo, base_hi = with_cell(base_lo, base_hi, var)
    # what changed since the last clear grid (see unsettled)
    changed_lo = changed_hi = np.uint64(0)
    if has_old:
        for var in range(n):
            if state[var] != old_state[var]:
                changed_lo, changed_hi = with_cell(changed_lo, changed_hi, var)
        moved_lo = (changed_lo | ~old_lo) & base_lo
        moved_hi = (changed_hi | ~old_hi) & base_hi
    else:
        moved_lo, moved_hi = base_lo, base_hi
        changed_lo = changed_hi = ~np.uint64(0)
    tried = set()
    tried.add(np.int64(-1))
    group = np.empty(3, np.int64)
    elims = np.empty((3 * MAX_VALUES, 2), np.int64)
    partners = np.empty(MAX_CELLS, np.int64)
    near = np.empty(MAX_CELLS, np.int64)
    for a in range(n):
        if not is_base[a]:
            continue
        t_lo, t_hi = seen_twice(ex_lo[a], ex_hi[a], plo, phi, scratch)
        p_lo, p_hi = t_lo & base_lo, t_hi & base_hi
        # only cells after a
        if a + 1 < 64:
            p_lo &= ~((np.uint64(1) << np.uint64(a + 1)) - np.uint64(1))
        else:
            p_lo = np.uint64(0)
            if a + 1 - 64 > 0:
                p_hi &= ~((np.uint64(1) << np.uint64(a + 1 - 64)) - np.uint64(1))
        for pb in range(cells_in(p_lo, p_hi, partners)):
            b = partners[pb]
            c_lo, c_hi = ex_lo[a] & ex_lo[b], ex_hi[a] & ex_hi[b]
            settled_pair = not (has(moved_lo, moved_hi, a) or has(moved_lo, moved_hi, b))
            touched = (c_lo & changed_lo) or (c_hi & changed_hi)
            if degree == 2:
                if settled_pair and not touched:
                    continue
                group[0], group[1] = a, b
                found = excluded(state, group, 2, c_lo, c_hi, plo, phi, scratch, elims)
                if found:
                    return found, group, 2, c_lo, c_hi, elims, base_lo, base_hi
                continue
            pair_lo, pair_hi = with_cell(*with_cell(np.uint64(0), np.uint64(0), a), b)
            a_lo = (ex_lo[a] | ex_lo[b]) & base_lo & ~pair_lo
            a_hi = (ex_hi[a] | ex_hi[b]) & base_hi & ~pair_hi
            if settled_pair and not touched:
                a_lo &= moved_lo  # the tail is the one cell that can unsettle the group
                a_hi &= moved_hi
                if not (a_lo or a_hi):
                    continue
            s_lo, s_hi = seen_twice(c_lo, c_hi, plo, phi, scratch)
            for k in range(cells_in(a_lo & s_lo, a_hi & s_hi, near)):
                c = near[k]
                m_lo, m_hi = c_lo & ex_lo[c], c_hi & ex_hi[c]
                in_moved = (
                    has(moved_lo, moved_hi, a)
                    or has(moved_lo, moved_hi, b)
                    or has(moved_lo, moved_hi, c)
                )
                if not (in_moved or (m_lo & changed_lo) or (m_hi & changed_hi)):
                    continue  # answered nothing on the clear grid
                if popcount(m_lo) + popcount(m_hi) < 2:
                    continue
                x, y, z = a, b, c
                if z < y:
                    y, z = z, y
                if y < x:
                    x, y = y, x
                if z < y:
                    y, z = z, y
                key = (x * n + y) * n + z
                if key in tried:
                    continue
                tried.add(key)  # its other orders give the same answer
                group[0], group[1], group[2] = a, b, c
                found = excluded(state, group, 3, m_lo, m_hi, plo, phi, scratch, elims)
                if found:
                    return found, group, 3, m_lo, m_hi, elims, base_lo, base_hi
    return 0, group, 0, np.uint64(0), np.uint64(0), elims, base_lo, base_hi
