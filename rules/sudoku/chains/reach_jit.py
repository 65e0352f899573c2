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


def compiled_nishio_may_find(model: ModelArrays, grid: GridArrays) -> bool:
    """:func:`rules.sudoku.chains.reach.nishio_may_find` of the grid, by :func:`nishio_kernel`."""
    return bool(
        nishio_kernel(
            model.V,
            grid.cand,
            grid.places,
            model.peers,
            model.n_peers,
            model.cells,
            model.n_cells,
            model.covering,
        )
    )


@numba.njit(cache=True)
def nishio_kernel(
    V, cand, places, peers, n_peers, cells, n_cells, covering
):  # pragma: no cover - compiled
    """Whether some candidate of a cell with several, assumed on or off, meets a contradiction
    when its value alone is followed (as the Python reference, on arrays of cells: a start
    that an earlier propagation without one reached is not tried again)."""
    n = cand.shape[0]
    n_houses = cells.shape[0]
    houses = np.empty(n_houses, np.int64)
    on = np.zeros(n, np.bool_)
    off = np.zeros(n, np.bool_)
    safe_on = np.zeros(n, np.bool_)
    safe_off = np.zeros(n, np.bool_)
    fresh = np.empty(n, np.int64)
    for v in range(V):
        used = 0  # covering houses with two places of v or more
        for h in range(n_houses):
            if covering[h]:
                spots = places[h * V + v]
                if spots & (spots - 1):
                    houses[used] = h
                    used += 1
        safe_on[:] = False
        safe_off[:] = False
        for start in range(n):
            mask = cand[start]
            if not (mask >> v) & 1 or not (mask & (mask - 1)):
                continue
            for assume_on in (True, False):
                if safe_on[start] if assume_on else safe_off[start]:
                    continue
                on[:] = False
                off[:] = False
                n_fresh = 0
                if assume_on:
                    on[start] = True
                    fresh[0] = start
                    n_fresh = 1
                else:
                    off[start] = True
                broken = False
                while True:
                    for f in range(n_fresh):  # the peers of the new on places turn off
                        cell = fresh[f]
                        for j in range(n_peers[cell]):
                            q = peers[cell, j]
                            if (cand[q] >> v) & 1:
                                if on[q]:
                                    broken = True
                                off[q] = True
                    if broken:
                        break
                    n_fresh = 0
                    for k in range(used):  # a house left with one place turns it on
                        h = houses[k]
                        left = -1
                        count = 0
                        for i in range(n_cells[h]):
                            cell = cells[h, i]
                            if (cand[cell] >> v) & 1 and not off[cell]:
                                count += 1
                                left = cell
                        if count == 0:
                            broken = True
                            break
                        if count == 1 and not on[left]:
                            already = False
                            for f in range(n_fresh):
                                if fresh[f] == left:
                                    already = True
                            if not already:
                                fresh[n_fresh] = left
                                n_fresh += 1
                    if broken or n_fresh == 0:
                        break
                    for f in range(n_fresh):
                        on[fresh[f]] = True
                if broken:
                    return True
                for cell in range(n):
                    if on[cell]:
                        safe_on[cell] = True
                    if off[cell]:
                        safe_off[cell] = True
    return False
