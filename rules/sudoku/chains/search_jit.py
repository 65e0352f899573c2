"""Whole searches of dynamic chains without nested rules, compiled by numba.

:func:`search` makes the search
:meth:`ChainSearch.dynamic_hints <rules.sudoku.chains.chaining.ChainSearch.dynamic_hints>` makes for
dynamic chains at nesting 0 (an inner search's every hint, one per conclusion, or a step's
first-ranked), each propagation by :func:`rules.sudoku.chains.propagation_jit.spread`;
:func:`walk_back` walks from a hint's target to the on potentials it rests on, as
:func:`rules.sudoku.chains.chaining.rule_parents` walks them. Nested chains run thousands of such
inner searches, most of whose hints are never shown: their propagations are made again only
for the hints that are (:class:`rules.sudoku.chains.chaining.ChainSources`). The Python search stays
the reference (``tests/test_chain_jit.py``).
"""

from __future__ import annotations

import numba
import numpy as np

from rules.sudoku.chains.propagation_jit import (
    GridArrays,
    ModelArrays,
    node_count,
    only_bit,
    popcount,
    release,
    spread,
    write_reached,
)

KINDS = ("contradiction", "double", "cell", "region")
"""The kinds of :func:`search`'s hints, by code."""
CONTRADICTION, DOUBLE, CELL, REGION = range(4)
NO_CAUSE = -3
"""A chain without a start cause (SE's contradiction and double chains)."""
FIELDS = 8
"""A hint row's fixed fields: conclusion, complexity, sort key, order, kind, source, start
cause, chain count; then the chains' assumptions, then their targets."""


def dynamic_search(model: ModelArrays, grid: GridArrays, twins: bool) -> list[list[int]]:
    """The hints of the dynamic forcing chains without nested rules of a grid, one per
    conclusion (:meth:`ChainSearch.compiled_dynamic_hints` reads them): rows of
    :data:`FIELDS` fields, then the assumptions and the targets of the chains."""
    found = search(twins, model.V, model.width, grid.cand, grid.places, model.layout, model.space)
    return found.tolist()


def rule_walk(
    model: ModelArrays, grid: GridArrays, pid: int, target: int, cause: int | None
) -> list[int]:
    """The on potentials a chain's target rests on, with what forces each (its house, -1 for
    its cell; the start's is ``cause``), as :func:`rules.sudoku.chains.chaining.rule_parents`
    walks them: (potential, cause) pairs, flat. The chain is the dynamic propagation (with
    cell links) from ``pid``."""
    start_cause = NO_CAUSE if cause is None else cause
    return walk_back(
        pid, target, start_cause, model.V, grid.cand, grid.places, model.layout, model.space
    ).tolist()


@numba.njit(cache=True)
def kept_propagation(pid, V, cand0, places0, layout, space, props):  # pragma: no cover - compiled
    """The dynamic propagation (with cell links) from ``pid``, kept in ``props`` (made once
    per potential): its potentials reached with their node counts, on ones first, in the
    order met. Returns its number and the store, grown when full."""
    prop_of, meta, store, counts = props
    k = prop_of[pid]
    if k >= 0:
        return k, store
    slot_of, pots, anc = space[0], space[1], space[2]
    yes = np.bool_(True)  # a boolean, not a literal: spread compiles once
    n, _n_links, a, b = spread(pid, yes, yes, V, cand0, places0, layout, space)
    k = counts[0]
    counts[0] += 1
    prop_of[pid] = k
    used = counts[1]
    if used + 2 * n > store.shape[0]:
        bigger = np.empty(max(2 * store.shape[0], used + 2 * n), np.int64)
        bigger[:used] = store[:used]
        store = bigger
    j = write_reached(pots, anc, n, store, used)
    meta[k, 0] = used
    meta[k, 1] = n
    meta[k, 2] = a
    meta[k, 3] = b
    if a >= 0:
        meta[k, 4] = node_count(anc, slot_of[a]) + node_count(anc, slot_of[b])
    release(slot_of, pots, n)
    counts[1] = j
    return k, store


@numba.njit(cache=True)
def concludes(t, cand0, V):  # pragma: no cover - compiled
    """Whether the potential ``t`` says anything of the grid (SE's add_target): an on one in a
    cell with other values, an off one of a candidate."""
    var = (t >> 1) // V
    v = (t >> 1) % V
    if t & 1:
        return (cand0[var] & ~(np.int64(1) << v)) != 0
    return ((cand0[var] >> v) & 1) != 0


@numba.njit(cache=True)
def chains(about, sort_key, kind, source, cause):  # pragma: no cover - compiled
    """Fill ``about`` with what :func:`offer` records of the chains it ranks: their sort key,
    kind, source and start cause (one array, so that the kernels are compiled once, not once
    for each constant)."""
    about[0] = sort_key
    about[1] = kind
    about[2] = source
    about[3] = cause


@numba.njit(cache=True)
def offer(t, cx, about, pids, goals, n_res, hints):  # pragma: no cover - compiled
    """Rank a hint of conclusion ``t`` as SE does (rating, then complexity, sort key and the
    order found; the rating grows with the complexity, so the complexity decides), keeping
    the first-ranked of each conclusion in the place its conclusion was first found.
    ``about``: the chains' sort key, kind, source and start cause (see :func:`chains`)."""
    rows, row_of, counts = hints
    order = counts[0]
    counts[0] += 1
    r = row_of[t]
    if r >= 0 and not (cx < rows[r, 1] or (cx == rows[r, 1] and about[0] < rows[r, 2])):
        return
    if r < 0:
        r = counts[1]
        counts[1] += 1
        row_of[t] = r
    R = (rows.shape[1] - FIELDS) // 2
    rows[r, 0] = t
    rows[r, 1] = cx
    rows[r, 2] = about[0]
    rows[r, 3] = order
    rows[r, 4] = about[1]
    rows[r, 5] = about[2]
    rows[r, 6] = about[3]
    rows[r, 7] = n_res
    for i in range(n_res):
        rows[r, FIELDS + i] = pids[i]
        rows[r, FIELDS + R + i] = goals[i]


@numba.njit(cache=True)
def common(slots, pids, n_res, about, cand0, V, props, marks, hints):  # pragma: no cover
    """Offer what every chain of ``slots`` reaches (SE's cellToOn, regionToOn; two chains:
    the double chains of "v" and "not v"), in the order the first met them: on ones, then
    off ones."""
    _prop_of, meta, store, _counts = props
    mark, total = marks
    for i in range(1, n_res):
        at = meta[slots[i], 0]
        for j in range(meta[slots[i], 1]):
            t = store[at + 2 * j]
            mark[t] += 1
            total[t] += store[at + 2 * j + 1]
    at = meta[slots[0], 0]
    goals = np.empty(n_res, np.int64)
    for j in range(meta[slots[0], 1]):
        t = store[at + 2 * j]
        if mark[t] == n_res - 1 and concludes(t, cand0, V):
            goals[:] = t
            cx = store[at + 2 * j + 1] + total[t]
            offer(t, cx, about, pids, goals, n_res, hints)
    for i in range(1, n_res):
        at = meta[slots[i], 0]
        for j in range(meta[slots[i], 1]):
            t = store[at + 2 * j]
            mark[t] = 0
            total[t] = 0


@numba.njit(cache=True)
def search(twins, V, width, cand0, places0, layout, space):  # pragma: no cover - compiled
    """:meth:`ChainSearch.dynamic_hints` of dynamic forcing chains without nested rules, one
    hint per conclusion: contradiction, double, region and cell chains in SE's order, each
    propagation made once (``twins``: "not v" of a bivalue cell only when the other value
    contradicts, as :attr:`ChainSearch.bivalue_twins`)."""
    _peers, _n_peers, houses, place, n_houses, covering, cells = layout
    P = space[0].shape[0]
    N = cand0.shape[0]
    prop_of = np.full(P, -1, np.int64)
    meta = np.empty((P, 5), np.int64)
    counts = np.zeros(2, np.int64)  # propagations made, store used
    store = np.empty(64 * P, np.int64)
    marks = (np.zeros(P, np.int64), np.zeros(P, np.int64))
    rows = np.empty((P, FIELDS + 2 * width), np.int64)
    hints = (rows, np.full(P, -1, np.int64), np.zeros(2, np.int64))  # orders, rows used
    cell_slots = np.empty(V, np.int64)
    cell_pids = np.empty(V, np.int64)
    slots = np.empty(width, np.int64)
    pids = np.empty(width, np.int64)
    two = np.empty(2, np.int64)
    about = np.empty(4, np.int64)  # the chains' sort key, kind, source, start cause
    for var in range(N):
        m = cand0[var]
        card = np.int64(popcount(np.uint64(m)))
        if card < 2:
            continue
        n_cell = 0
        for v in range(V):
            if not (m >> v) & 1:
                continue
            pon = ((var * V + v) << 1) | 1
            props = (prop_of, meta, store, counts)
            on_slot, store = kept_propagation(pon, V, cand0, places0, layout, space, props)
            cell_slots[n_cell] = on_slot
            cell_pids[n_cell] = pon
            n_cell += 1
            need_off = card > 2 or not twins
            if not need_off:
                x = only_bit(m & ~(np.int64(1) << v))
                twin, store = kept_propagation(
                    ((var * V + x) << 1) | 1,
                    V,
                    cand0,
                    places0,
                    layout,
                    space,
                    (prop_of, meta, store, counts),
                )
                need_off = meta[twin, 2] >= 0
            off_slot = -1
            if need_off:
                off_slot, store = kept_propagation(
                    pon ^ 1, V, cand0, places0, layout, space, (prop_of, meta, store, counts)
                )
            props = (prop_of, meta, store, counts)
            if meta[on_slot, 2] >= 0:
                pids[0] = pids[1] = pon
                two[0] = meta[on_slot, 2]
                two[1] = meta[on_slot, 3]
                chains(about, 7, CONTRADICTION, pon, NO_CAUSE)
                offer(pon ^ 1, meta[on_slot, 4], about, pids, two, two.shape[0], hints)
            if off_slot >= 0 and meta[off_slot, 2] >= 0:
                pids[0] = pids[1] = pon ^ 1
                two[0] = meta[off_slot, 2]
                two[1] = meta[off_slot, 3]
                chains(about, 7, CONTRADICTION, pon ^ 1, NO_CAUSE)
                offer(pon, meta[off_slot, 4], about, pids, two, two.shape[0], hints)
            if card >= 3:
                slots[0] = on_slot
                slots[1] = off_slot
                pids[0] = pon
                pids[1] = pon ^ 1
                chains(about, 1, DOUBLE, pon, NO_CAUSE)
                common(slots, pids, two.shape[0], about, cand0, V, props, marks, hints)
            # region chains: the houses whose first place of v this cell is
            for k in range(n_houses[var]):
                h = houses[var, k]
                pm = places0[h * V + v]
                if not covering[h] or popcount(np.uint64(pm)) < 2:
                    continue
                if (pm & -pm) != (np.int64(1) << place[var, k]):
                    continue
                n_res = 0
                i = 0
                rest = pm
                while rest:
                    if rest & 1:
                        pid = ((cells[h, i] * V + v) << 1) | 1
                        slot, store = kept_propagation(
                            pid, V, cand0, places0, layout, space, (prop_of, meta, store, counts)
                        )
                        slots[n_res] = slot
                        pids[n_res] = pid
                        n_res += 1
                    rest >>= 1
                    i += 1
                props = (prop_of, meta, store, counts)
                chains(about, 6, REGION, h * V + v, h)
                common(slots, pids, n_res, about, cand0, V, props, marks, hints)
        props = (prop_of, meta, store, counts)
        chains(about, 5, CELL, var, -1)
        common(cell_slots, cell_pids, n_cell, about, cand0, V, props, marks, hints)
    return rows[: hints[2][1]].copy()


@numba.njit(cache=True)
def walk_back(pid, target, start_cause, V, cand0, places0, layout, space):  # pragma: no cover
    """:func:`rule_walk` compiled: the propagation from ``pid``, then a depth-first walk over
    the parents from ``target``, the last parent pushed first visited."""
    slot_of, pots = space[0], space[1]
    links, index = space[9], space[10]
    yes = np.bool_(True)
    n, _n_links, _a, _b = spread(pid, yes, yes, V, cand0, places0, layout, space)
    P = slot_of.shape[0]
    out = np.empty(2 * P, np.int64)
    stack = np.empty(P, np.int64)
    seen = np.zeros(P, np.bool_)
    k = 0
    stack[0] = target
    top = 1
    seen[target] = True
    while top:
        top -= 1
        p = stack[top]
        i = index[2 * slot_of[p] + 1]
        cause = links[i + 1]
        count = links[i + 2]
        if cause == -2 and count == 0 and start_cause != NO_CAUSE:
            cause = start_cause
        if p & 1 and cause != -2:
            out[k] = p
            out[k + 1] = cause
            k += 2
        for c in range(count):
            q = links[i + 3 + c]
            if not seen[q]:
                seen[q] = True
                stack[top] = q
                top += 1
    release(slot_of, pots, n)
    return out[:k].copy()
