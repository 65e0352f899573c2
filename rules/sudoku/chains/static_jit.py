"""The static implications of a grid, compiled by numba.

:func:`implications` makes the tables of
:class:`rules.sudoku.chains.chaining.StaticImplications` (each candidate's conflicts, its strong
links, and the transitive closure of "on forces on"), which the static chains nested at SE 9.5
and 10.0 read for every grid a chain empties; :func:`forcing_starts` and
:func:`multiple_groups` read the chains from them, so that only the few that hold a chain come
back to Python. The Python tables and readers stay the reference (``tests/test_chain_jit.py``).
"""

from __future__ import annotations

import numba
import numpy as np

from rules.sudoku.chains.propagation_jit import GridArrays, ModelArrays, only_bit, popcount


def static_tables(model: ModelArrays, grid: GridArrays) -> np.ndarray:
    """The three tables of a grid (conflicts, strong links, reach): a row of words per
    candidate, in order, each a bitset over candidate indices (``var * V + value``)."""
    return implications(model.V, grid.cand, grid.places, model.layout)


def as_dicts(tables: np.ndarray, nodes: list[int]) -> list[dict[int, int]]:
    """:func:`static_tables` as the Python tables: per table, candidate → bitset."""
    size = tables.shape[2] * 8
    out = []
    for table in tables:
        data = table.tobytes()
        rows = (data[i * size : (i + 1) * size] for i in range(len(nodes)))
        out.append({c: int.from_bytes(row, "little") for c, row in zip(nodes, rows, strict=True)})
    return out


def forcing_starts(model: ModelArrays, grid: GridArrays, tables: np.ndarray) -> list[tuple]:
    """The candidates that start a static forcing chain, in order: (candidate, True) when its
    being on forces it off, (candidate, False) when its being off forces it on."""
    found = forcing_kernel(model.V, grid.cand, tables)
    return [(int(c), bool(contradiction)) for c, contradiction in found]


def multiple_groups(model: ModelArrays, grid: GridArrays, tables: np.ndarray) -> list[tuple]:
    """The groups of branches of the static multiple forcing chains that share a conclusion,
    in the order the chains are offered: (cell, value, house, on, off), value and house -1 for
    a cell's candidates, else the house's places of the value (the cell its first); ``on`` and
    ``off``: the candidates every branch forces on and off, as bitsets."""
    heads, masks = groups_kernel(model.V, grid.cand, grid.places, model.layout, tables)
    words = lambda row: int.from_bytes(row.tobytes(), "little")  # noqa: E731
    return [
        (int(var), int(v), int(h), words(on), words(off))
        for (var, v, h), (on, off) in zip(heads, masks, strict=True)
    ]


@numba.njit(cache=True)
def numbering(cand, V):  # pragma: no cover - compiled
    """The candidates in order: each candidate's row (-1 if absent), each row's candidate,
    and how many."""
    N = cand.shape[0]
    node_of = np.full(N * V, -1, np.int64)
    candidate = np.empty(N * V, np.int64)
    n = 0
    for var in range(N):
        for v in range(V):
            if (cand[var] >> v) & 1:
                node_of[var * V + v] = n
                candidate[n] = var * V + v
                n += 1
    return node_of, candidate, n


@numba.njit(cache=True)
def lowest(word):  # pragma: no cover - compiled
    """The index of the lowest bit set in a nonzero 64-bit word."""
    return only_bit(word & (~word + np.uint64(1)))


@numba.njit(cache=True)
def add_on_set(row, reach, node_of, c):  # pragma: no cover - compiled
    """``row`` |= the candidates ``c`` being on forces on, itself included."""
    i = node_of[c]
    for w in range(row.shape[0]):
        row[w] |= reach[i, w]
    row[c >> 6] |= np.uint64(1) << np.uint64(c & 63)


@numba.njit(cache=True)
def add_conflicts(row, on_set, conflict, node_of):  # pragma: no cover - compiled
    """``row`` |= the conflicts of every candidate of ``on_set``: what they, being on, turn off
    (:meth:`rules.sudoku.chains.chaining.StaticImplications.off_set`)."""
    for w in range(on_set.shape[0]):
        word = on_set[w]
        while word:
            b = lowest(word)
            word &= ~(np.uint64(1) << np.uint64(b))
            x = node_of[w * 64 + b]
            for u in range(row.shape[0]):
                row[u] |= conflict[x, u]


@numba.njit(cache=True)
def forcing_kernel(V, cand, tables):  # pragma: no cover - compiled
    """:func:`forcing_starts` compiled: rows of (candidate, 1 if on forces it off)."""
    conflict, strong, reach = tables[0], tables[1], tables[2]
    node_of, candidate, n = numbering(cand, V)
    W = tables.shape[2]
    out = np.empty((n, 2), np.int64)
    k = 0
    forced = np.zeros(W, np.uint64)
    for i in range(n):
        c = candidate[i]
        contradiction = False
        for w in range(W):
            if conflict[i, w] & reach[i, w]:
                contradiction = True
        if contradiction:
            out[k, 0] = c
            out[k, 1] = 1
            k += 1
            continue
        forced[:] = 0
        for w in range(W):
            word = strong[i, w]
            while word:
                b = lowest(word)
                word &= ~(np.uint64(1) << np.uint64(b))
                add_on_set(forced, reach, node_of, w * 64 + b)
        if (forced[c >> 6] >> np.uint64(c & 63)) & np.uint64(1):
            out[k, 0] = c
            out[k, 1] = 0
            k += 1
    return out[:k]


@numba.njit(cache=True)
def groups_kernel(V, cand, places, layout, tables):  # pragma: no cover - compiled
    """:func:`multiple_groups` compiled: the groups' (cell, value, house) and their (on, off)
    rows of words, for the groups with a common conclusion."""
    _peers, _n_peers, houses, place, n_houses, covering, cells = layout
    conflict, reach = tables[0], tables[2]
    node_of, _, n = numbering(cand, V)
    N = cand.shape[0]
    W = tables.shape[2]
    off = np.zeros((n, W), np.uint64)  # each candidate's off set, made on first use
    made = np.zeros(n, np.bool_)
    on_set = np.zeros(W, np.uint64)
    limit = N * (1 + V * houses.shape[1])
    heads = np.empty((limit, 3), np.int64)
    masks = np.empty((limit, 2, W), np.uint64)
    g = 0
    everything = ~np.uint64(0)
    for var in range(N):
        m = cand[var]
        if popcount(np.uint64(m)) < 3:
            continue
        for v in range(-1, V):
            for k in range(n_houses[var] if v >= 0 else 1):
                if v >= 0:
                    h = houses[var, k]
                    pm = places[h * V + v]
                    if not (m >> v) & 1 or not covering[h] or popcount(np.uint64(pm)) < 2:
                        continue
                    if lowest(np.uint64(pm)) != place[var, k]:
                        continue  # the house's first place of the value is another cell
                    count = cells.shape[1]
                else:
                    h = -1
                    pm = m
                    count = V
                masks[g, 0, :] = everything
                masks[g, 1, :] = everything
                for j in range(count):
                    if not (pm >> j) & 1:
                        continue
                    c = var * V + j if v < 0 else cells[h, j] * V + v
                    on_set[:] = 0
                    add_on_set(on_set, reach, node_of, c)
                    i = node_of[c]
                    if not made[i]:
                        made[i] = True
                        add_conflicts(off[i], on_set, conflict, node_of)
                    for w in range(W):
                        masks[g, 0, w] &= on_set[w]
                        masks[g, 1, w] &= off[i, w]
                common = False
                for w in range(W):
                    if masks[g, 0, w] or masks[g, 1, w]:
                        common = True
                if common:
                    heads[g, 0] = var
                    heads[g, 1] = v
                    heads[g, 2] = h
                    g += 1
    return heads[:g], masks[:g]


@numba.njit(cache=True)
def set_bit(words, i, c):  # pragma: no cover - compiled
    """Set bit ``c`` of row ``i`` of a table of words."""
    words[i, c >> 6] |= np.uint64(1) << np.uint64(c & 63)


@numba.njit(cache=True)
def implications(V, cand, places, layout):  # pragma: no cover - compiled
    """:func:`static_tables` compiled: three tables (conflicts, strong links, reach) of a row
    of words per candidate. The reach is the transitive closure of "on forces on" (a
    candidate on turns off its conflicts, each of which turns on its strong links), by
    Tarjan's strongly connected components: they come out successors first, so a component's
    reach is what its members lead to outside it, with their reaches, and itself if cyclic."""
    peers, n_peers, houses, place, n_houses, covering, cells = layout
    N = cand.shape[0]
    W = (N * V + 63) // 64
    node_of, candidate, n = numbering(cand, V)
    tables = np.zeros((3, n, W), np.uint64)
    conflict, strong, reach = tables[0], tables[1], tables[2]
    succ = np.zeros((n, W), np.uint64)
    for i in range(n):
        c = candidate[i]
        var = c // V
        v = c % V
        m = cand[var]
        for x in range(V):
            if x != v and (m >> x) & 1:
                set_bit(conflict, i, var * V + x)
        for k in range(n_peers[var]):
            q = peers[var, k]
            if (cand[q] >> v) & 1:
                set_bit(conflict, i, q * V + v)
        if popcount(np.uint64(m)) == 2:
            set_bit(strong, i, var * V + only_bit(m & ~(np.int64(1) << v)))
        for k in range(n_houses[var]):
            h = houses[var, k]
            pm = places[h * V + v]
            if covering[h] and popcount(np.uint64(pm)) == 2:
                j = only_bit(pm & ~(np.int64(1) << place[var, k]))
                set_bit(strong, i, cells[h, j] * V + v)
    # off(c) forces its strong links on, so every candidate whose being on turns c off
    # reaches them
    for i in range(n):
        has_strong = False
        for w in range(W):
            if strong[i, w]:
                has_strong = True
        if not has_strong:
            continue
        for w in range(W):
            bits = conflict[i, w]
            b = 0
            while bits:
                if bits & np.uint64(1):
                    x = node_of[w * 64 + b]
                    for u in range(W):
                        succ[x, u] |= strong[i, u]
                bits >>= np.uint64(1)
                b += 1
    # the successors as lists of nodes
    start = np.zeros(n + 1, np.int64)
    for i in range(n):
        count = 0
        for w in range(W):
            count += np.int64(popcount(succ[i, w]))
        start[i + 1] = start[i] + count
    edges = np.empty(start[n], np.int64)
    for i in range(n):
        e = start[i]
        for w in range(W):
            bits = succ[i, w]
            b = 0
            while bits:
                if bits & np.uint64(1):
                    edges[e] = node_of[w * 64 + b]
                    e += 1
                bits >>= np.uint64(1)
                b += 1
    # Tarjan, iterative
    index = np.full(n, -1, np.int64)
    low_of = np.zeros(n, np.int64)
    on_stack = np.zeros(n, np.bool_)
    stack = np.empty(n, np.int64)
    top = 0
    work = np.empty(n, np.int64)
    at = np.empty(n, np.int64)
    depth = 0
    counter = 0
    inside = np.zeros((1, W), np.uint64)
    out = np.zeros(W, np.uint64)
    for root in range(n):
        if index[root] >= 0:
            continue
        index[root] = low_of[root] = counter
        counter += 1
        stack[top] = root
        top += 1
        on_stack[root] = True
        work[0] = root
        at[0] = start[root]
        depth = 1
        while depth:
            node = work[depth - 1]
            advanced = False
            while at[depth - 1] < start[node + 1]:
                nxt = edges[at[depth - 1]]
                at[depth - 1] += 1
                if index[nxt] < 0:
                    index[nxt] = low_of[nxt] = counter
                    counter += 1
                    stack[top] = nxt
                    top += 1
                    on_stack[nxt] = True
                    work[depth] = nxt
                    at[depth] = start[nxt]
                    depth += 1
                    advanced = True
                    break
                if on_stack[nxt] and index[nxt] < low_of[node]:
                    low_of[node] = index[nxt]
            if advanced:
                continue
            depth -= 1
            if depth:
                parent = work[depth - 1]
                if low_of[node] < low_of[parent]:
                    low_of[parent] = low_of[node]
            if low_of[node] == index[node]:
                # the component: the stack down to node
                first = top - 1
                while stack[first] != node:
                    first -= 1
                inside[0, :] = 0
                out[:] = 0
                for s in range(first, top):
                    x = stack[s]
                    set_bit(inside, 0, candidate[x])
                    for w in range(W):
                        out[w] |= succ[x, w]
                cyclic = top - first > 1
                if not cyclic:
                    c = candidate[node]
                    cyclic = (succ[node, c >> 6] >> np.uint64(c & 63)) & np.uint64(1) != 0
                for w in range(W):
                    out[w] &= ~inside[0, w]
                row = reach[node]
                row[:] = out
                for w in range(W):
                    bits = out[w]
                    b = 0
                    while bits:
                        if bits & np.uint64(1):
                            y = node_of[w * 64 + b]
                            for u in range(W):
                                row[u] |= reach[y, u]
                        bits >>= np.uint64(1)
                        b += 1
                if cyclic:
                    for w in range(W):
                        row[w] |= inside[0, w]
                for s in range(first, top):
                    x = stack[s]
                    on_stack[x] = False
                    if x != node:
                        reach[x, :] = row
                top = first
    return tables
