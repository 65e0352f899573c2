"""The static implications of a grid, compiled by numba.

:func:`implications` makes the tables of
:class:`grader.techniques.chains.StaticImplications` (each candidate's conflicts, its strong
links, and the transitive closure of "on forces on"), which the static chains nested at SE 9.5
and 10.0 read for every grid a chain empties; the Python tables stay the reference
(``tests/test_chain_jit.py``).
"""

from __future__ import annotations

import numba
import numpy as np

from grader.techniques.chain_jit import GridArrays, ModelArrays, only_bit, popcount


def static_reach(model: ModelArrays, grid: GridArrays, nodes: list[int]) -> list[dict[int, int]]:
    """The static implications of a grid (:class:`grader.techniques.chains.StaticImplications`):
    per candidate of ``nodes`` (every candidate, in order), the candidates it conflicts with,
    those its being off forces on, and those its being on forces on through one or more
    links, as bitsets over candidate indices."""
    tables = implications(model.V, grid.cand, grid.places, model.layout)
    size = tables.shape[2] * 8
    out = []
    for table in tables:
        data = table.tobytes()
        rows = (data[i * size : (i + 1) * size] for i in range(len(nodes)))
        out.append({c: int.from_bytes(row, "little") for c, row in zip(nodes, rows, strict=True)})
    return out


@numba.njit(cache=True)
def set_bit(words, i, c):  # pragma: no cover - compiled
    """Set bit ``c`` of row ``i`` of a table of words."""
    words[i, c >> 6] |= np.uint64(1) << np.uint64(c & 63)


@numba.njit(cache=True)
def implications(V, cand, places, layout):  # pragma: no cover - compiled
    """:func:`static_reach` compiled: three tables (conflicts, strong links, reach) of a row
    of words per candidate. The reach is the transitive closure of "on forces on" (a
    candidate on turns off its conflicts, each of which turns on its strong links), by
    Tarjan's strongly connected components: they come out successors first, so a component's
    reach is what its members lead to outside it, with their reaches, and itself if cyclic."""
    peers, n_peers, houses, place, n_houses, covering, cells = layout
    N = cand.shape[0]
    W = (N * V + 63) // 64
    node_of = np.full(N * V, -1, np.int64)
    candidate = np.empty(N * V, np.int64)
    n = 0
    for var in range(N):
        for v in range(V):
            if (cand[var] >> v) & 1:
                node_of[var * V + v] = n
                candidate[n] = var * V + v
                n += 1
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
