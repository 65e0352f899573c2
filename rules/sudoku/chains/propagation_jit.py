"""The chains' propagation without nested rules, compiled by numba.

:meth:`ChainSearch.propagate_here <rules.sudoku.chains.chaining.ChainSearch.propagate_here>` is the
readable version and the reference: this kernel takes the same steps in the same order (SE's,
as :mod:`rules.sudoku.chains.chaining` says) over arrays instead of bitsets and dicts, and hands
back the potentials reached, in the order met, with their node counts (as bitsets of as many
bits, which is what the searches count). Their parents and causes are read from its record
only when a hint's chains or rule parents ask for them. The dynamic forcing chains of SE's top
band and the chains of inner searches spend most of their time here. Two modules build on it:
:mod:`rules.sudoku.chains.search_jit` (whole searches of dynamic chains, and the walk to a
hint's rule parents) and :mod:`rules.sudoku.chains.static_jit` (the static implications).

Imported only when a propagation is asked for, and only when numba is installed and
``GRADER_NO_JIT`` is not set (:func:`rules.sudoku.chains.chaining.compiled`); otherwise every
propagation runs in Python, with the same results (``tests/test_chain_jit.py``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import numba
import numpy as np

from grader.techniques.houses import Houses
from rules.sudoku.chains.chaining import Propagation, bits

MAX_POTENTIALS = 8192
"""Grids of models with more potentials (two per candidate) stay in Python: the kernel's
ancestor table grows with their square (a 16x16 Sudoku has 8,192)."""
MAX_HOUSE = 63
"""A house's places of a value, and a cell's values, are a signed 64-bit mask in the kernel."""


def fits(houses: Houses, n_vars: int, V: int) -> bool:
    """Whether the kernel takes grids of this model."""
    largest = max(len(c) for c in houses.cells)
    return 2 * n_vars * V <= MAX_POTENTIALS and largest <= MAX_HOUSE and V <= MAX_HOUSE


class ModelArrays:
    """What the kernel reads of a model, as arrays (memoized on the model): each cell's peers
    and houses in chain order and its place in each house, each house's cells in order and
    whether it covers every value; and the kernel's work space."""

    def __init__(self, houses: Houses, chain_peers, chain_houses, V: int) -> None:
        n = len(chain_peers)
        width = max(sum(m.bit_count() for m in masks) for masks in chain_peers)
        self.peers = np.full((n, max(width, 1)), -1, np.int64)
        self.n_peers = np.zeros(n, np.int64)
        for var in range(n):
            order = [q for mask in chain_peers[var] for q in bits(mask)]
            self.peers[var, : len(order)] = order
            self.n_peers[var] = len(order)
        cells = [sorted(c) for c in houses.cells]
        size = max(len(c) for c in cells)
        self.cells = np.full((len(cells), size), -1, np.int64)
        self.n_cells = np.array([len(c) for c in cells], np.int64)
        for h, members in enumerate(cells):
            self.cells[h, : len(members)] = members
        depth = max(max(len(hs) for hs in chain_houses), 1)
        self.houses = np.full((n, depth), -1, np.int64)
        self.place = np.zeros((n, depth), np.int64)
        self.n_houses = np.zeros(n, np.int64)
        for var in range(n):
            for k, h in enumerate(chain_houses[var]):
                self.houses[var, k] = h
                self.place[var, k] = cells[h].index(var)
            self.n_houses[var] = len(chain_houses[var])
        self.covering = np.array([bool(c) for c in houses.covering], np.bool_)
        self.V = V
        potentials = 2 * n * V
        self.words = (potentials + 63) // 64
        fan = 2 + max(V, size)  # parents: the potential before, what its cell or house lost
        self.nodes = [(1 << count) - 1 for count in range(potentials + 1)]
        """Per node count, a bitset of as many bits (what a :class:`Propagation` holds)."""
        self.slot_of = np.full(potentials, -1, np.int64)  # the kernel leaves it so
        self.pots = np.empty(potentials, np.int64)
        self.ancestors = np.empty((potentials, self.words), np.uint64)
        self.queue_on = np.empty(potentials, np.int64)
        self.queue_off = np.empty(potentials, np.int64)
        self.targets = np.empty(V + width, np.int64)
        self.made = np.empty((depth + 1, 2), np.int64)
        self.made_parents = np.empty((depth + 1) * fan + 1, np.int64)
        self.made_ancestors = np.empty((depth + 1, self.words), np.uint64)
        self.reached = np.empty(2 * potentials + 1, np.int64)
        self.links = np.empty(potentials * (fan + 2) + 2, np.int64)
        self.index = np.empty(2 * potentials, np.int64)
        self.width = max(V, size, 2)
        """The most chains a hint of the whole search has (a cell's values, a house's places)."""
        self.layout = (
            self.peers,
            self.n_peers,
            self.houses,
            self.place,
            self.n_houses,
            self.covering,
            self.cells,
        )
        """The model's layout (peers, houses, each cell's place in them, their cells), as the
        kernels beside this module take it."""
        self.space = (
            self.slot_of,
            self.pots,
            self.ancestors,
            self.queue_on,
            self.queue_off,
            self.targets,
            self.made,
            self.made_parents,
            self.made_ancestors,
            self.links,
            self.index,
        )
        """The work space of :func:`spread`, as the kernels beside this module take it."""


class GridArrays:
    """A grid's candidates for the kernel: per cell its values, per house and value its places
    (bits of the house's cells in order)."""

    __slots__ = ("cand", "places")

    def __init__(self, model: ModelArrays, cand: list[int]) -> None:
        self.cand = np.array(cand, np.int64)
        self.places = house_places(self.cand, model.cells, model.n_cells, model.V)


@numba.njit(cache=True)
def house_places(cand, cells, n_cells, V):  # pragma: no cover - compiled
    """Per house and value, the bits of the house's cells (in order) that hold the value."""
    places = np.zeros(cells.shape[0] * V, np.int64)
    for h in range(cells.shape[0]):
        for i in range(n_cells[h]):
            m = cand[cells[h, i]]
            for v in range(V):
                if (m >> v) & 1:
                    places[h * V + v] |= np.int64(1) << i
    return places


class CompiledPropagation(Propagation):
    """A :class:`Propagation` made by the kernel: ``on`` and ``off`` as the Python one's, the
    parents and causes read from the kernel's record when asked (a search builds hints from
    few of the potentials it reaches, and walks the parents of those alone)."""

    __slots__ = ("read", "record")

    def __init__(self, on: dict[int, int], off: dict[int, int], record, contradiction) -> None:
        self.on, self.off = on, off
        self.nest = {}
        self.nested = []
        self.contradiction = contradiction
        self.record = record
        self.read: tuple[RecordParents, RecordCauses] | None = None

    @property  # type: ignore[override]
    def parents(self) -> RecordParents:
        return (self.read or self.read_record())[0]

    @property  # type: ignore[override]
    def causes(self) -> RecordCauses:
        return (self.read or self.read_record())[1]

    def read_record(self) -> tuple[RecordParents, RecordCauses]:
        links, index = self.record
        links = links.tolist()
        index = index.tolist()
        at = dict(zip(index[0::2], index[1::2], strict=True))
        self.read = (RecordParents(links, at), RecordCauses(links, at))
        self.record = None
        return self.read


class RecordView(Mapping[int, Any]):
    """One field of each potential's entry in the kernel's record (per potential in the order
    met: the potential, its cause, its parent count, its parents), read when asked."""

    __slots__ = ("at", "links")

    def __init__(self, links: list[int], at: dict[int, int]) -> None:
        self.links = links
        self.at = at  # potential -> where its entry starts

    def get(self, p, default=None):  # type: ignore[override]
        raise NotImplementedError

    def __getitem__(self, p: int) -> Any:
        found = self.get(p)
        if found is None:
            raise KeyError(p)
        return found

    def __iter__(self) -> Iterator[int]:
        return (p for p in self.at if self.get(p) is not None)

    def __len__(self) -> int:
        return sum(1 for _ in self)


class RecordParents(RecordView):
    """Each potential's parents."""

    __slots__ = ()

    def get(self, p, default=None):  # type: ignore[override]
        i = self.at.get(p)
        if i is None:
            return default
        links = self.links
        return tuple(links[i + 3 : i + 3 + links[i + 2]])


class RecordCauses(RecordView):
    """Why each on potential holds (its house, -1 for its cell); potentials without a cause
    are not keys."""

    __slots__ = ()

    def get(self, p, default=None):  # type: ignore[override]
        i = self.at.get(p)
        if i is None or self.links[i + 1] == -2:
            return default
        return self.links[i + 1]


def propagate(model: ModelArrays, grid: GridArrays, start: int, dynamic: bool, use_y: bool):
    """:meth:`ChainSearch.propagate_here` at nesting 0, compiled."""
    n_on, reached_array, record, a, b = kernel(
        start,
        dynamic,
        use_y,
        model.V,
        grid.cand,
        grid.places,
        model.layout,
        model.space,
        model.reached,
    )
    reached = reached_array.tolist()
    split = 2 * n_on
    nodes = model.nodes
    on = dict(zip(reached[0:split:2], map(nodes.__getitem__, reached[1:split:2]), strict=True))
    off = dict(zip(reached[split::2], map(nodes.__getitem__, reached[split + 1 :: 2]), strict=True))
    return CompiledPropagation(on, off, record, (a, b) if a >= 0 else None)


@numba.njit(cache=True)
def popcount(x):  # pragma: no cover - compiled
    """The bits set in a 64-bit word."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return (x * np.uint64(0x0101010101010101)) >> np.uint64(56)


@numba.njit(cache=True)
def only_bit(x):  # pragma: no cover - compiled
    """The index of the one bit set in ``x``."""
    i = 0
    while (x >> i) != 1:
        i += 1
    return i


@numba.njit(cache=True)
def spread(start, dynamic, use_y, V, cand0, places0, layout, space):  # pragma: no cover
    """The propagation from ``start`` in the work space: returns how many potentials it
    reached (in ``pots``, in the order met, each with its ancestors in ``anc`` and its slot in
    ``slot_of``), the length of its record (in ``links``: per potential in the order met, the
    potential, its cause, its parent count and its parents; ``index``: where each entry
    starts) and the contradiction (two potentials, or -1, -1). The caller reads the work
    space and puts ``slot_of`` back to -1. ``layout`` and ``space``: the model's
    (:attr:`ModelArrays.layout`, :attr:`ModelArrays.space`)."""
    peers, n_peers, houses, place, n_houses, covering, cells = layout
    (
        slot_of,
        pots,
        anc,
        queue_on,
        queue_off,
        targets,
        made,
        made_parents,
        made_anc,
        links,
        index,
    ) = space
    cand = cand0.copy()
    places = places0.copy()
    n = 0
    n_links = 0
    head_on = tail_on = head_off = tail_off = 0
    # the start
    slot_of[start] = 0
    pots[0] = start
    anc[0, :] = 0
    anc[0, start >> 6] |= np.uint64(1) << np.uint64(start & 63)
    index[0] = start
    index[1] = 0
    links[0] = start
    links[1] = -2
    links[2] = 0
    n_links = 3
    n = 1
    if start & 1:
        queue_on[tail_on] = 0
        tail_on += 1
    else:
        queue_off[tail_off] = 0
        tail_off += 1
    a_out = -1
    b_out = -1
    while head_on < tail_on or head_off < tail_off:
        if head_on < tail_on:
            s = queue_on[head_on]
            head_on += 1
            p = pots[s]
            var = (p >> 1) // V
            v = (p >> 1) % V
            nt = 0
            if use_y:
                rest = cand[var] & ~(np.int64(1) << v)
                x = 0
                while rest:
                    if rest & 1:
                        targets[nt] = (var * V + x) << 1
                        nt += 1
                    rest >>= 1
                    x += 1
            for k in range(n_peers[var]):
                q = peers[var, k]
                if (cand[q] >> v) & 1:
                    targets[nt] = (q * V + v) << 1
                    nt += 1
            for i in range(nt):
                t = targets[i]
                on_slot = slot_of[t | 1]
                if on_slot >= 0 or slot_of[t] < 0:
                    slot_of[t] = n
                    pots[n] = t
                    anc[n, :] = anc[s, :]
                    anc[n, t >> 6] |= np.uint64(1) << np.uint64(t & 63)
                    index[2 * n] = t
                    index[2 * n + 1] = n_links
                    links[n_links] = t
                    links[n_links + 1] = -2
                    links[n_links + 2] = 1
                    links[n_links + 3] = p
                    n_links += 4
                    n += 1
                    if on_slot >= 0:
                        a_out = t | 1
                        b_out = t
                        break
                    queue_off[tail_off] = n - 1
                    tail_off += 1
            if a_out >= 0:
                break
        else:
            s = queue_off[head_off]
            head_off += 1
            p = pots[s]
            var = (p >> 1) // V
            v = (p >> 1) % V
            n_made = 0
            n_par = 0
            if use_y:
                m = cand[var]
                rest = m & (m - 1)
                if m != 0 and rest != 0 and (rest & (rest - 1)) == 0:
                    t = ((var * V + only_bit(m & ~(np.int64(1) << v))) << 1) | 1
                    if slot_of[t] < 0:
                        made_anc[n_made, :] = anc[s, :]
                        made[n_made, 0] = t
                        made[n_made, 1] = -1
                        made_parents[n_par] = -1  # the count, set below
                        first = n_par
                        n_par += 1
                        made_parents[n_par] = p
                        n_par += 1
                        if dynamic:
                            gone = cand0[var] & ~m
                            y = 0
                            while gone:
                                if gone & 1:
                                    hp = (var * V + y) << 1
                                    made_anc[n_made, :] |= anc[slot_of[hp], :]
                                    made_parents[n_par] = hp
                                    n_par += 1
                                gone >>= 1
                                y += 1
                        made_parents[first] = n_par - first - 1
                        n_made += 1
            for k in range(n_houses[var]):
                h = houses[var, k]
                hv = h * V + v
                pm = places[hv]
                keep = ~(np.int64(1) << place[var, k])
                if dynamic:
                    places[hv] = pm & keep
                rest = pm & (pm - 1)
                if covering[h] and pm != 0 and rest != 0 and (rest & (rest - 1)) == 0:
                    t = ((cells[h, only_bit(pm & keep)] * V + v) << 1) | 1
                    if slot_of[t] >= 0:
                        continue
                    made_anc[n_made, :] = anc[s, :]
                    made[n_made, 0] = t
                    made[n_made, 1] = h
                    first = n_par
                    n_par += 1
                    made_parents[n_par] = p
                    n_par += 1
                    if dynamic:
                        gone = places0[hv] & ~pm
                        i = 0
                        while gone:
                            if gone & 1:
                                hp = (cells[h, i] * V + v) << 1
                                made_anc[n_made, :] |= anc[slot_of[hp], :]
                                made_parents[n_par] = hp
                                n_par += 1
                            gone >>= 1
                            i += 1
                    made_parents[first] = n_par - first - 1
                    n_made += 1
            if dynamic:
                cand[var] &= ~(np.int64(1) << v)
            j = 0
            for i in range(n_made):
                count = made_parents[j]
                t = made[i, 0]
                if slot_of[t] >= 0:
                    j += 1 + count
                    continue
                slot_of[t] = n
                pots[n] = t
                anc[n, :] = made_anc[i, :]
                anc[n, t >> 6] |= np.uint64(1) << np.uint64(t & 63)
                index[2 * n] = t
                index[2 * n + 1] = n_links
                links[n_links] = t
                links[n_links + 1] = made[i, 1]
                links[n_links + 2] = count
                for c in range(count):
                    links[n_links + 3 + c] = made_parents[j + 1 + c]
                n_links += 3 + count
                j += 1 + count
                n += 1
                if slot_of[t ^ 1] >= 0:
                    a_out = t
                    b_out = t ^ 1
                    break
                queue_on[tail_on] = n - 1
                tail_on += 1
            if a_out >= 0:
                break
    return n, n_links, a_out, b_out


@numba.njit(cache=True)
def node_count(anc, s):  # pragma: no cover - compiled
    """How many nodes the potential in slot ``s`` rests on (itself included)."""
    count = 0
    for w in range(anc.shape[1]):
        count += np.int64(popcount(anc[s, w]))
    return count


@numba.njit(cache=True)
def write_reached(pots, anc, n, out, at):  # pragma: no cover - compiled
    """Write the ``n`` potentials :func:`spread` reached, with their node counts, into ``out``
    from ``at`` (potential, count: on ones first, each in the order met); returns where the
    writing ended."""
    for want in (1, 0):
        for s in range(n):
            t = pots[s]
            if (t & 1) == want:
                out[at] = t
                out[at + 1] = node_count(anc, s)
                at += 2
    return at


@numba.njit(cache=True)
def release(slot_of, pots, n):  # pragma: no cover - compiled
    """Put the work space's ``slot_of`` back to -1 for the ``n`` potentials :func:`spread`
    reached (it is -1 everywhere between propagations)."""
    for s in range(n):
        slot_of[pots[s]] = -1


@numba.njit(cache=True)
def kernel(start, dynamic, use_y, V, cand0, places0, layout, space, reached):  # pragma: no cover
    """The propagation from ``start`` (:func:`spread`); returns how many on potentials it
    reached, the potentials reached with their node counts (potential, count: the on ones
    first, each in the order met), the record (per potential in the order met: potential,
    cause, parent count, parents) with where each potential's entry starts (potential,
    offset), and the contradiction (two potentials, or -1, -1). It holds the GIL from start
    to end, so threads grading the same model take turns in its work space."""
    n, n_links, a_out, b_out = spread(start, dynamic, use_y, V, cand0, places0, layout, space)
    slot_of, pots, anc = space[0], space[1], space[2]
    links, index = space[9], space[10]
    k = write_reached(pots, anc, n, reached, 0)
    n_on = 0
    for s in range(n):
        n_on += pots[s] & 1
    release(slot_of, pots, n)
    # copies: the work space is the model's, and another thread may grade the same model next
    return n_on, reached[:k].copy(), (links[:n_links].copy(), index[: 2 * n].copy()), a_out, b_out
