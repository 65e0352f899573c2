"""The reach of every potential through a grid's static links, compiled by numba.

:class:`rules.sudoku.chains.reach.StaticReach` stays the reference (``tests/test_chain_jit.py``
compares the two on many grids): :func:`compiled_reach` makes the same object from a kernel that
numbers the candidates, lays out the links, finds the strongly connected components (Tarjan's,
without recursion) and ORs each one's reach as words, successors first. Only the numbering of
the components may differ from Python's; what is read of them (which potentials share a
component, each potential's reach) is the same.
"""

from __future__ import annotations

import numba
import numpy as np

from rules.sudoku.chains.propagation_jit import GridArrays, ModelArrays
from rules.sudoku.chains.reach import StaticReach


def compiled_reach(
    model: ModelArrays, grid: GridArrays, cand, vmask, peer_masks, V: int
) -> StaticReach:
    """:class:`StaticReach` of the grid (``cand``, ``vmask`` and ``peer_masks`` as the Python
    one takes them), its components and reaches made by :func:`reach_kernel`."""
    number, component, words = reach_kernel(
        V,
        grid.cand,
        grid.places,
        model.peers,
        model.n_peers,
        model.cells,
        model.houses,
        model.n_houses,
        model.covering,
    )
    reach = StaticReach.__new__(StaticReach)
    keys = np.flatnonzero(number >= 0).tolist()
    reach.index = dict(zip(keys, range(len(keys)), strict=True))
    reach.keys = keys
    reach.cand, reach.vmask, reach.peer_masks, reach.V = cand, vmask, peer_masks, V
    reach.component = component.tolist()
    size = words.shape[1] * 8
    data = words.tobytes()
    reach.reach = [
        int.from_bytes(data[c * size : (c + 1) * size], "little") for c in range(words.shape[0])
    ]
    reach._forcing = None
    reach._cycling = None
    return reach


@numba.njit(cache=True)
def reach_kernel(
    V, cand, places, peers, n_peers, cells, houses, n_houses, covering
):  # pragma: no cover - compiled
    """Per ``var * V + value`` its candidate number (-1: not a candidate); per potential (2k
    off, 2k + 1 on) its component; per component its reach as 64-bit words over potentials."""
    n = cand.shape[0]
    number = np.full(n * V, -1, np.int64)
    count = 0
    for var in range(n):
        for v in range(V):
            if (cand[var] >> v) & 1:
                number[var * V + v] = count
                count += 1
    total = 2 * count
    width = V + houses.shape[1] + peers.shape[1] + 1
    links = np.empty((max(total, 1), width), np.int64)
    degree = np.zeros(max(total, 1), np.int64)
    for var in range(n):
        mask = cand[var]
        for v in range(V):
            if not (mask >> v) & 1:
                continue
            k = number[var * V + v]
            off, on = 2 * k, 2 * k + 1
            others = mask & ~(np.int64(1) << v)
            if others != 0 and (others & (others - 1)) == 0:  # a bivalue cell: the other on
                w = 0
                while (others >> w) != 1:
                    w += 1
                links[off, degree[off]] = 2 * number[var * V + w] + 1
                degree[off] += 1
            for j in range(n_houses[var]):
                h = houses[var, j]
                if not covering[h]:
                    continue
                spots = places[h * V + v]
                if spots == 0 or (spots & (spots - 1)) == 0:
                    continue
                rest = spots & (spots - 1)
                if rest & (rest - 1):
                    continue  # three places or more
                for i in range(cells.shape[1]):  # the other of the value's two places
                    if (spots >> i) & 1 and cells[h, i] != var:
                        links[off, degree[off]] = 2 * number[cells[h, i] * V + v] + 1
                        degree[off] += 1
            for w in range(V):
                if (others >> w) & 1:
                    links[on, degree[on]] = 2 * number[var * V + w]
                    degree[on] += 1
            for j in range(n_peers[var]):
                q = peers[var, j]
                if (cand[q] >> v) & 1:
                    links[on, degree[on]] = 2 * number[q * V + v]
                    degree[on] += 1
    n_words = max((total + 63) // 64, 1)
    order = np.full(total, -1, np.int64)
    low = np.zeros(total, np.int64)
    component = np.full(total, -1, np.int64)
    stack = np.empty(total, np.int64)
    work_node = np.empty(total, np.int64)
    work_next = np.empty(total, np.int64)
    reach = np.zeros((max(total, 1), n_words), np.uint64)
    depth = 0
    top = 0
    counter = 0
    made = 0
    for root in range(total):
        if order[root] >= 0:
            continue
        order[root] = counter
        low[root] = counter
        counter += 1
        stack[top] = root
        top += 1
        work_node[0] = root
        work_next[0] = 0
        depth = 1
        while depth:
            node = work_node[depth - 1]
            i = work_next[depth - 1]
            if i < degree[node]:
                work_next[depth - 1] = i + 1
                t = links[node, i]
                if order[t] < 0:
                    order[t] = counter
                    low[t] = counter
                    counter += 1
                    stack[top] = t
                    top += 1
                    work_node[depth] = t
                    work_next[depth] = 0
                    depth += 1
                elif component[t] < 0 and order[t] < low[node]:
                    low[node] = order[t]
                continue
            depth -= 1
            if depth:
                parent = work_node[depth - 1]
                if low[node] < low[parent]:
                    low[parent] = low[node]
            if low[node] != order[node]:
                continue
            c = made
            made += 1
            first = top
            while True:  # the component's members: the stack down to ``node``
                first -= 1
                w = stack[first]
                component[w] = c
                reach[c, w >> 6] |= np.uint64(1) << np.uint64(w & 63)
                if w == node:
                    break
            for s in range(first, top):
                w = stack[s]
                for j in range(degree[w]):
                    other = component[links[w, j]]
                    if other != c:
                        for word in range(n_words):
                            reach[c, word] |= reach[other, word]
            top = first
    return number, component, reach[:made]
