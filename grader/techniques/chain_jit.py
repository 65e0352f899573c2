"""The chains' propagation without nested rules, compiled by numba.

:meth:`ChainSearch.propagate_here <grader.techniques.chains.ChainSearch.propagate_here>` is the
readable version and the reference: this kernel takes the same steps in the same order (SE's,
as :mod:`grader.techniques.chains` says) over arrays instead of bitsets and dicts, and hands
back the potentials reached, in the order met, with their node counts (as bitsets of as many
bits, which is what the searches count). Their parents and causes are read from its record
only when a hint's chains or rule parents ask for them. The dynamic forcing chains of SE's top
band and the chains of inner searches spend most of their time here.

Two more kernels build on it: :func:`search`, a whole search of dynamic chains without nested
rules as :meth:`ChainSearch.dynamic_hints <grader.techniques.chains.ChainSearch.dynamic_hints>`
makes it (an inner search's every hint, one per conclusion, or a step's first-ranked), and
:func:`walk_back`, the walk from a hint's target to the on potentials it rests on, as
:func:`grader.techniques.chains.rule_parents` walks it. Nested chains run thousands of such
inner searches, most of whose hints are never shown: their propagations are made again only
for the hints that are. A third, :func:`implications`, makes the tables of
:class:`grader.techniques.chains.StaticImplications` (conflicts, strong links and their
transitive closure), which the static chains nested at SE 9.5 and 10.0 read for every grid a
chain empties.

Imported only when a propagation is asked for, and only when numba is installed and
``GRADER_NO_JIT`` is not set (:func:`grader.techniques.chains.compiled`); otherwise every
propagation runs in Python, with the same results (``tests/test_chain_jit.py``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import numba
import numpy as np

from grader.techniques.chains import Propagation
from grader.techniques.houses import Houses

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
            k = 0
            for mask in chain_peers[var]:
                while mask:
                    low = mask & -mask
                    self.peers[var, k] = low.bit_length() - 1
                    k += 1
                    mask ^= low
            self.n_peers[var] = k
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
        self.shape = (
            self.peers,
            self.n_peers,
            self.houses,
            self.place,
            self.n_houses,
            self.covering,
            self.cells,
        )
        """The model's arrays, as :func:`search` and :func:`walk_back` take them."""
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
        """The work space of :func:`spread`, as :func:`search` and :func:`walk_back` take it."""


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
        model.peers,
        model.n_peers,
        model.houses,
        model.place,
        model.n_houses,
        model.covering,
        model.cells,
        model.slot_of,
        model.pots,
        model.ancestors,
        model.queue_on,
        model.queue_off,
        model.targets,
        model.made,
        model.made_parents,
        model.made_ancestors,
        model.reached,
        model.links,
        model.index,
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
def spread(  # pragma: no cover - compiled
    start,
    dynamic,
    use_y,
    V,
    cand0,
    places0,
    peers,
    n_peers,
    houses,
    place,
    n_houses,
    covering,
    cells,
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
):
    """The propagation from ``start`` in the work space: returns how many potentials it
    reached (in ``pots``, in the order met, each with its ancestors in ``anc`` and its slot in
    ``slot_of``), the length of its record (in ``links``: per potential in the order met, the
    potential, its cause, its parent count and its parents; ``index``: where each entry
    starts) and the contradiction (two potentials, or -1, -1). The caller reads the work
    space and puts ``slot_of`` back to -1."""
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
                    other = m & ~(np.int64(1) << v)
                    x = 0
                    while (other >> x) != 1:
                        x += 1
                    t = ((var * V + x) << 1) | 1
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
                    other = pm & keep
                    i = 0
                    while (other >> i) != 1:
                        i += 1
                    t = ((cells[h, i] * V + v) << 1) | 1
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
def kernel(  # pragma: no cover - compiled
    start,
    dynamic,
    use_y,
    V,
    cand0,
    places0,
    peers,
    n_peers,
    houses,
    place,
    n_houses,
    covering,
    cells,
    slot_of,
    pots,
    anc,
    queue_on,
    queue_off,
    targets,
    made,
    made_parents,
    made_anc,
    reached,
    links,
    index,
):
    """The propagation from ``start`` (:func:`spread`); returns how many on potentials it
    reached, the potentials reached with their node counts (potential, count: the on ones
    first, each in the order met), the record (per potential in the order met: potential,
    cause, parent count, parents) with where each potential's entry starts (potential,
    offset), and the contradiction (two potentials, or -1, -1). It holds the GIL from start
    to end, so threads grading the same model take turns in its work space."""
    n, n_links, a_out, b_out = spread(
        start,
        dynamic,
        use_y,
        V,
        cand0,
        places0,
        peers,
        n_peers,
        houses,
        place,
        n_houses,
        covering,
        cells,
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
    )
    # the reached potentials with their node counts, on ones first, each in the order met
    k = 0
    for want in (1, 0):
        for s in range(n):
            t = pots[s]
            if (t & 1) == want:
                reached[k] = t
                reached[k + 1] = node_count(anc, s)
                k += 2
    n_on = 0
    for s in range(n):
        n_on += pots[s] & 1
        slot_of[pots[s]] = -1  # as it was: -1 everywhere
    # copies: the work space is the model's, and another thread may grade the same model next
    return n_on, reached[:k].copy(), (links[:n_links].copy(), index[: 2 * n].copy()), a_out, b_out


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
    found = search(twins, model.V, model.width, grid.cand, grid.places, model.shape, model.space)
    return found.tolist()


def rule_walk(model: ModelArrays, grid: GridArrays, pid: int, target: int, cause: int | None):
    """The on potentials a chain's target rests on, with what forces each (its house, -1 for
    its cell; the start's is ``cause``), as :func:`grader.techniques.chains.rule_parents`
    walks them: (potential, cause) pairs, flat. The chain is the dynamic propagation (with
    cell links) from ``pid``."""
    start_cause = NO_CAUSE if cause is None else cause
    return walk_back(
        pid, target, start_cause, model.V, grid.cand, grid.places, model.shape, model.space
    ).tolist()


@numba.njit(cache=True)
def run(pid, V, cand0, places0, shape, space, props):  # pragma: no cover - compiled
    """The dynamic propagation (with cell links) from ``pid``, kept in ``props`` (made once
    per potential): its potentials reached with their node counts, on ones first, in the
    order met. Returns its number and the store, grown when full."""
    prop_of, meta, store, counts = props
    k = prop_of[pid]
    if k >= 0:
        return k, store
    peers, n_peers, houses, place, n_houses, covering, cells = shape
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
    n, _n_links, a, b = spread(
        pid,
        True,
        True,
        V,
        cand0,
        places0,
        peers,
        n_peers,
        houses,
        place,
        n_houses,
        covering,
        cells,
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
    )
    k = counts[0]
    counts[0] += 1
    prop_of[pid] = k
    used = counts[1]
    if used + 2 * n > store.shape[0]:
        bigger = np.empty(max(2 * store.shape[0], used + 2 * n), np.int64)
        bigger[:used] = store[:used]
        store = bigger
    j = used
    for want in (1, 0):
        for s in range(n):
            t = pots[s]
            if (t & 1) == want:
                store[j] = t
                store[j + 1] = node_count(anc, s)
                j += 2
    meta[k, 0] = used
    meta[k, 1] = n
    meta[k, 2] = a
    meta[k, 3] = b
    if a >= 0:
        meta[k, 4] = node_count(anc, slot_of[a]) + node_count(anc, slot_of[b])
    for s in range(n):
        slot_of[pots[s]] = -1
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
def offer(t, cx, sort_key, kind, source, cause, pids, goals, n_res, hints):  # pragma: no cover
    """Rank a hint of conclusion ``t`` as SE does (rating, then complexity, sort key and the
    order found; the rating grows with the complexity, so the complexity decides), keeping
    the first-ranked of each conclusion in the place its conclusion was first found."""
    rows, row_of, counts = hints
    order = counts[2]
    counts[2] += 1
    r = row_of[t]
    if r >= 0 and not (cx < rows[r, 1] or (cx == rows[r, 1] and sort_key < rows[r, 2])):
        return
    if r < 0:
        r = counts[3]
        counts[3] += 1
        row_of[t] = r
    R = (rows.shape[1] - FIELDS) // 2
    rows[r, 0] = t
    rows[r, 1] = cx
    rows[r, 2] = sort_key
    rows[r, 3] = order
    rows[r, 4] = kind
    rows[r, 5] = source
    rows[r, 6] = cause
    rows[r, 7] = n_res
    for i in range(n_res):
        rows[r, FIELDS + i] = pids[i]
        rows[r, FIELDS + R + i] = goals[i]


@numba.njit(cache=True)
def common(  # pragma: no cover - compiled
    slots, pids, n_res, sort_key, kind, source, cause, cand0, V, props, marks, hints
):
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
            offer(t, cx, sort_key, kind, source, cause, pids, goals, n_res, hints)
    for i in range(1, n_res):
        at = meta[slots[i], 0]
        for j in range(meta[slots[i], 1]):
            t = store[at + 2 * j]
            mark[t] = 0
            total[t] = 0


@numba.njit(cache=True)
def search(twins, V, width, cand0, places0, shape, space):  # pragma: no cover - compiled
    """:meth:`ChainSearch.dynamic_hints` of dynamic forcing chains without nested rules, one
    hint per conclusion: contradiction, double, region and cell chains in SE's order, each
    propagation made once (``twins``: "not v" of a bivalue cell only when the other value
    contradicts, as :attr:`ChainSearch.bivalue_twins`)."""
    _peers, _n_peers, houses, place, n_houses, covering, cells = shape
    P = space[0].shape[0]
    N = cand0.shape[0]
    prop_of = np.full(P, -1, np.int64)
    meta = np.empty((P, 5), np.int64)
    counts = np.zeros(2, np.int64)  # propagations made, store used
    store = np.empty(64 * P, np.int64)
    marks = (np.zeros(P, np.int64), np.zeros(P, np.int64))
    rows = np.empty((P, FIELDS + 2 * width), np.int64)
    hints = (rows, np.full(P, -1, np.int64), np.zeros(4, np.int64))  # orders, rows used
    cell_slots = np.empty(V, np.int64)
    cell_pids = np.empty(V, np.int64)
    slots = np.empty(width, np.int64)
    pids = np.empty(width, np.int64)
    two = np.empty(2, np.int64)
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
            so, store = run(pon, V, cand0, places0, shape, space, (prop_of, meta, store, counts))
            cell_slots[n_cell] = so
            cell_pids[n_cell] = pon
            n_cell += 1
            need_off = card > 2 or not twins
            if not need_off:
                other = m & ~(np.int64(1) << v)
                x = 0
                while (other >> x) != 1:
                    x += 1
                twin, store = run(
                    ((var * V + x) << 1) | 1,
                    V,
                    cand0,
                    places0,
                    shape,
                    space,
                    (prop_of, meta, store, counts),
                )
                need_off = meta[twin, 2] >= 0
            sf = -1
            if need_off:
                sf, store = run(
                    pon ^ 1, V, cand0, places0, shape, space, (prop_of, meta, store, counts)
                )
            props = (prop_of, meta, store, counts)
            if meta[so, 2] >= 0:
                pids[0] = pids[1] = pon
                two[0] = meta[so, 2]
                two[1] = meta[so, 3]
                offer(pon ^ 1, meta[so, 4], 7, CONTRADICTION, pon, NO_CAUSE, pids, two, 2, hints)
            if sf >= 0 and meta[sf, 2] >= 0:
                pids[0] = pids[1] = pon ^ 1
                two[0] = meta[sf, 2]
                two[1] = meta[sf, 3]
                offer(pon, meta[sf, 4], 7, CONTRADICTION, pon ^ 1, NO_CAUSE, pids, two, 2, hints)
            if card >= 3:
                slots[0] = so
                slots[1] = sf
                pids[0] = pon
                pids[1] = pon ^ 1
                common(slots, pids, 2, 1, DOUBLE, pon, NO_CAUSE, cand0, V, props, marks, hints)
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
                        slot, store = run(
                            pid, V, cand0, places0, shape, space, (prop_of, meta, store, counts)
                        )
                        slots[n_res] = slot
                        pids[n_res] = pid
                        n_res += 1
                    rest >>= 1
                    i += 1
                props = (prop_of, meta, store, counts)
                common(slots, pids, n_res, 6, REGION, h * V + v, h, cand0, V, props, marks, hints)
        props = (prop_of, meta, store, counts)
        common(cell_slots, cell_pids, n_cell, 5, CELL, var, -1, cand0, V, props, marks, hints)
    return rows[: hints[2][3]].copy()


@numba.njit(cache=True)
def walk_back(pid, target, start_cause, V, cand0, places0, shape, space):  # pragma: no cover
    """:func:`rule_walk` compiled: the propagation from ``pid``, then a depth-first walk over
    the parents from ``target``, the last parent pushed first visited."""
    peers, n_peers, houses, place, n_houses, covering, cells = shape
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
    n, _n_links, _a, _b = spread(
        pid,
        True,
        True,
        V,
        cand0,
        places0,
        peers,
        n_peers,
        houses,
        place,
        n_houses,
        covering,
        cells,
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
    )
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
    for s in range(n):
        slot_of[pots[s]] = -1
    return out[:k].copy()


def static_reach(model: ModelArrays, grid: GridArrays, nodes: list[int]):
    """The static implications of a grid (:class:`grader.techniques.chains.StaticImplications`):
    per candidate of ``nodes`` (every candidate, in order), the candidates it conflicts with,
    those its being off forces on, and those its being on forces on through one or more
    links, as bitsets over candidate indices."""
    tables = implications(model.V, grid.cand, grid.places, model.shape)
    size = tables.shape[2] * 8
    out = []
    for table in tables:
        data = table.tobytes()
        rows = (data[i * size : (i + 1) * size] for i in range(len(nodes)))
        out.append({c: int.from_bytes(row, "little") for c, row in zip(nodes, rows, strict=True)})
    return out


@numba.njit(cache=True)
def set_bit(words, i, c):  # pragma: no cover - compiled
    words[i, c >> 6] |= np.uint64(1) << np.uint64(c & 63)


@numba.njit(cache=True)
def implications(V, cand, places, shape):  # pragma: no cover - compiled
    """:func:`static_reach` compiled: three tables (conflicts, strong links, reach) of a row
    of words per candidate. The reach is the transitive closure of "on forces on" (a
    candidate on turns off its conflicts, each of which turns on its strong links), by
    Tarjan's strongly connected components: they come out successors first, so a component's
    reach is what its members lead to outside it, with their reaches, and itself if cyclic."""
    peers, n_peers, houses, place, n_houses, covering, cells = shape
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
            other = m & ~(np.int64(1) << v)
            x = 0
            while (other >> x) != 1:
                x += 1
            set_bit(strong, i, var * V + x)
        for k in range(n_houses[var]):
            h = houses[var, k]
            pm = places[h * V + v]
            if covering[h] and popcount(np.uint64(pm)) == 2:
                other = pm & ~(np.int64(1) << place[var, k])
                j = 0
                while (other >> j) != 1:
                    j += 1
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
    inside = np.zeros(W, np.uint64)
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
                inside[:] = 0
                out[:] = 0
                for s in range(first, top):
                    x = stack[s]
                    set_bit_row(inside, candidate[x])
                    for w in range(W):
                        out[w] |= succ[x, w]
                cyclic = top - first > 1
                if not cyclic:
                    c = candidate[node]
                    cyclic = (succ[node, c >> 6] >> np.uint64(c & 63)) & np.uint64(1) != 0
                for w in range(W):
                    out[w] &= ~inside[w]
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
                        row[w] |= inside[w]
                for s in range(first, top):
                    x = stack[s]
                    on_stack[x] = False
                    if x != node:
                        reach[x, :] = row
                top = first
    return tables


@numba.njit(cache=True)
def set_bit_row(words, c):  # pragma: no cover - compiled
    words[c >> 6] |= np.uint64(1) << np.uint64(c & 63)
