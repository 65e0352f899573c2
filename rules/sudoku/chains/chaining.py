"""Chains of implications over candidates, rated on Sudoku Explainer's scale.

In the engine's terms a chain is a lookahead: assume a candidate on (or off), follow what
follows, and keep the conclusions that hold whatever was assumed. The kinds, cheapest first:

* ``static``: X-cycles and Y-cycles, forcing X-chains and forcing chains (alternating strong and
  weak links in the unchanged grid; 6.5 for a cycle on one value or on bivalue cells, 6.6 for a
  forcing X-chain, 7.0 once both kinds of link are mixed);
* ``nishio``: one value followed through the grid as it empties (hidden singles only) until a
  contradiction (7.5);
* ``multiple``: every candidate of a cell, or every place of a value in a house, leads to the
  same conclusion (cell and region forcing chains, 8.0);
* ``dynamic``: the same with the grid emptying as the chain goes, plus contradictions and double
  implications (8.5); ``nesting`` is SE's level: at 1 locked candidates, hidden and naked pairs
  and X-wings act inside the chain (9.0); at 2 forcing chains and cycles too (9.5), at 3 also
  multiple forcing chains (10.0), at 4 dynamic forcing chains (10.5) and at 5 dynamic forcing
  chains of level 2 (11.0). Inside a chain these rules run on the grid the chain has emptied,
  the first one (in that order) that concludes anything that rests on the chain's removals
  gives all its conclusions, and each conclusion's parents are those removals (SE's "rule
  parents"); a nested conclusion also adds the nodes of its inner chain to the outer count.

A dynamic chain meets potentials in SE's order, which decides the contradiction it finds first
and the nodes it counts: a value set in a cell turns off the cell's other values, then the value
in the cell's box, the rest of its row, the rest of its column (Grid.getRegionTypes); a value
turned off forces its cell's last value, then its last place in the box, the row, the column.

The rating adds SE's length bonus: 0.1 for every threshold 4, 6, 8, 12, 16, 24, 32, ... that the
chain's node count minus two exceeds. A potential's node count includes every assumption it
depends on (its ancestors), kept as a bitset so that counting is cheap.

Houses are the model's :class:`~grader.core.constraints.AllDifferent` constraints, so any family
made of houses (sudoku, latin squares with boxes) can use these chains. Weak links (two cells of a
house cannot share a value) hold in every house; strong links (a value's last two places),
region chains, locked candidates, hidden pairs and X-wings only in *covering* houses, where every
value must appear (a latin siteswap with holes has houses that do not hold every value).
"""

from __future__ import annotations

import importlib
import os
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, replace
from functools import cache, cached_property
from itertools import compress
from operator import ne
from typing import Any

from grader.core.evidence import Evidence, candidate_chains
from grader.core.explain import Explainer
from grader.core.model import Model, State, is_single, values_of
from grader.core.step import Step
from grader.core.technique import Context, Technique
from grader.techniques.houses import Houses, houses_of, open_in, placed_cells
from rules.sudoku.chains.reach import StaticReach, nishio_may_find

STATIC_MODES = ("static", "multiple")
"""The chain kinds that follow the grid's static links only."""
BASES = {"static": 6.5, "nishio": 7.5, "multiple": 8.0, "dynamic": 8.5}


def base_rating(mode: str, nesting: int = 0) -> float:
    """SE's base rating of a chain search (Chaining.getDifficulty; static chains: 6.5)."""
    if mode == "dynamic":
        return 8.5 + 0.5 * nesting
    return BASES[mode]


def length_bonus(complexity: int) -> float:
    """SE's extra rating for a chain of ``complexity`` nodes."""
    added = 0
    ceil = 4
    length = complexity - 2
    odd = False
    while length > ceil:
        added += 1
        ceil = ceil * 3 // 2 if not odd else ceil * 4 // 3
        odd = not odd
    return added / 10


@dataclass(order=True)
class Hint:
    """One chain conclusion, ordered as SE ranks them."""

    difficulty: float
    complexity: int
    sort_key: int
    order: int
    kind: str = field(compare=False)
    placements: tuple = field(compare=False, default=())
    eliminations: tuple = field(compare=False, default=())
    paths: tuple = field(compare=False, default=())
    """Each chain's main line, assumption first, as found (static chains); dynamic chains
    leave it to :attr:`chains`, which reads them from ``sources`` when asked."""
    source: tuple = field(compare=False, default=())
    sources: Sequence = field(compare=False, default=())
    """(propagation, target, start cause) per chain of a dynamic chain, for the rule
    parents of a nested hint (top-level static chains are never nested: they keep none)."""
    static_paths: tuple = field(compare=False, default=())
    """(path, start cause) per chain of a static chain of an inner search, whose rule parents
    are read from its paths (:func:`rule_parents`) instead of ``sources``."""
    nested: tuple = field(compare=False, default=())
    """The inner hints this hint's chains rest on."""
    rule: str = field(compare=False, default="")
    """The chain search that found it, for a nested hint (``dynamic 2``, ``static``...)."""

    def key(self) -> tuple[float, int, int, int]:
        """What SE ranks hints by (the compared fields, in their order)."""
        return (self.difficulty, self.complexity, self.sort_key, self.order)

    @property
    def chains(self) -> tuple[list[int], ...]:
        """Each chain's main line of implications (first parents), assumption first: made
        only for the hints a step shows, not for every hint an inner search ranks."""
        if not self.paths and self.sources:
            self.paths = tuple(chain_from(res.parents, end) for res, end, _s in self.sources)
        return self.paths


class ChainSources(Sequence):
    """A compiled search's :attr:`Hint.sources`: (propagation, target, start cause) per chain,
    each propagation made again by the kernel when the sources are first read (for the chains
    a step shows); most hints of an inner search are never read, and their rule parents are
    walked without them (:meth:`rule_walks`). Holds the grid's kernel arrays and the
    propagations read so far, not the search: hints outlive their state in the inner-hint
    cache, and a search's caches must not."""

    __slots__ = ("arrays", "cause", "goals", "made", "pids", "shared")

    def __init__(
        self,
        arrays: tuple[Any, Any],
        pids: list[int],
        goals: list[int],
        cause: int | None,
        shared: dict[int, Propagation],
    ) -> None:
        self.arrays = arrays
        self.pids, self.goals, self.cause = pids, goals, cause
        self.shared = shared
        """The propagations of the search's hints made so far, by assumption."""
        self.made: tuple | None = None

    def read(self) -> tuple:
        """The sources, made on first use."""
        if self.made is None:
            jit = compiled()
            made = []
            for pid, goal in zip(self.pids, self.goals, strict=True):
                res = self.shared.get(pid)
                if res is None:
                    res = self.shared[pid] = jit.propagate(*self.arrays, pid, True, True)
                made.append((res, goal, self.cause))
            self.made = tuple(made)
        return self.made

    def rule_walks(self) -> Iterator[list[int]]:
        """Per chain, the on potentials its target rests on with what forces each, as
        :func:`rule_parents` walks them (flat pairs), by the kernel without making the
        propagation."""
        walk = compiled("search_jit").rule_walk
        for pid, goal in zip(self.pids, self.goals, strict=True):
            yield walk(*self.arrays, pid, goal, self.cause)

    def __getitem__(self, i):  # type: ignore[override]
        return self.read()[i]

    def __len__(self) -> int:
        return len(self.pids)

    def __iter__(self) -> Iterator[tuple]:
        return iter(self.read())

    def __repr__(self) -> str:
        return f"ChainSources(pids={self.pids}, goals={self.goals}, cause={self.cause})"


class Grid:
    """The candidates of the open cells (placed cells have none), with lookups by house."""

    arrays: tuple = None  # type: ignore[assignment]
    """The grid as the compiled propagation reads it, made on first use (empty: none)."""

    def __init__(
        self, houses: Houses, state: State, n_values: int, house_masks: list[int] | None = None
    ) -> None:
        self.houses = houses
        self.V = n_values
        self.N = len(state)
        cand = []
        for var, mask in enumerate(state):
            if is_single(mask) and not any(state[p] & mask for p in houses.peers[var]):
                cand.append(0)
            else:
                cand.append(mask)
        self.cand = cand
        V = n_values
        vmask = [0] * V
        for var, mask in enumerate(cand):
            for v in values_of(mask):
                vmask[v] |= 1 << var
        self.vmask = vmask
        if house_masks is None:
            house_masks = [house_bits(houses, h) for h in range(len(houses.cells))]
        self.hpos = [vmask[v] & hb for hb in house_masks for v in range(V)]


def house_bits(houses: Houses, h: int) -> int:
    bits = 0
    for var in houses.cells[h]:
        bits |= 1 << var
    return bits


@dataclass
class Lookups:
    """Per-model masks the chain searches share (memoized on the model)."""

    peer_masks: list[int]
    house_masks: list[int]
    cover_of_var: tuple[tuple[int, ...], ...]
    """Per cell, its covering houses (the only ones with strong links), in the order of
    :attr:`chain_houses` (SE's region chains go box, row, column)."""
    chain_houses: tuple[tuple[int, ...], ...]
    """Per cell, its houses in the order SE's chains visit them: boxes, rows, then columns."""
    chain_peers: tuple[tuple[int, ...], ...]
    """Per cell, its peers as bitsets of cells, one per house of :attr:`chain_houses`, each
    without the cells of the houses before it: SE turns a value off in the peers of a cell
    set to it in this order (its box's cells first, then the rest of its row, then of its
    column), which decides what a dynamic chain meets first."""
    lines: tuple[tuple[list[int], list[int]], ...]
    """(base houses, cover houses) of X-wings: (rows, columns) and (columns, rows), covering."""
    line_index: dict[int, int]
    """Cell → index of its line, per orientation: ``var * 2 + orientation``."""
    crossings: tuple[tuple[int, int, int], ...]
    """(box, line, their shared cells as a bitset) of every crossing, in the houses' order."""
    locked_from: dict[tuple[int, int], tuple[tuple[int, int, int, int], ...]]
    """(source house, cell) → (crossing index, direction, target house, shared cells) of every
    covering source's crossing that holds the cell (direction 0: box to line, 1: line to box)."""
    pair_rule_order: PairRuleOrder
    masks: dict[int, tuple[list[int], list[int]]] = field(default_factory=dict)
    compiled_arrays: list[Any] = field(default_factory=list)
    """The compiled propagation's arrays of the model, once made (:meth:`jit_arrays`)."""

    def jit_arrays(self, houses: Houses, V: int) -> Any:
        """The model's arrays for the compiled propagation (made once); None without numba or
        for a model too large for the kernel."""
        if not self.compiled_arrays:
            jit = compiled()
            fits = jit is not None and jit.fits(houses, len(self.peer_masks), V)
            made = jit.ModelArrays(houses, self.chain_peers, self.chain_houses, V) if fits else None
            self.compiled_arrays.append(made)
        return self.compiled_arrays[0]

    def candidate_masks(self, V: int) -> tuple[list[int], list[int]]:
        """Bitsets over candidate indices (``var * V + value``): per candidate, the same value
        in its peers; per cell, all its values."""
        found = self.masks.get(V)
        if found is None:
            n = len(self.peer_masks)
            x_masks = [0] * (n * V)
            for var in range(n):
                for v in range(V):
                    m = 0
                    for q in bits(self.peer_masks[var]):
                        m |= 1 << (q * V + v)
                    x_masks[var * V + v] = m
            y_masks = [((1 << V) - 1) << (var * V) for var in range(n)]
            found = self.masks[V] = (x_masks, y_masks)
        return found


@dataclass(frozen=True)
class PairRuleOrder:
    """The order in which SE 1.2.1.3 scans for the rules it nests in a dynamic chain, and so
    the order of their findings: locked candidates (Locking) box to column, box to row, column
    to box, row to box, by source house, target house, then value; hidden and naked pairs
    (HiddenSet, NakedSet) in boxes, columns, then rows; X-wings (Fisherman) on base columns,
    then on base rows."""

    locked: tuple[tuple[tuple[int, int, int], tuple[int, int, int]], ...]
    """Per crossing (box, line), the sort keys of its box-to-line and line-to-box findings."""
    sets: tuple[int, ...]
    """The houses in the order pairs are looked for in them."""
    fish_orientations: tuple[int, ...]
    """The orientations of :attr:`Lookups.lines` in the order X-wings are looked for."""


def pair_rule_order(houses: Houses, crossings) -> PairRuleOrder:
    """SE's scan order over these houses (each house's index among those of its shape)."""
    shape_index: list[int] = []
    seen: dict[str, int] = {}
    for shape in houses.shape:
        shape_index.append(seen.get(shape, 0))
        seen[shape] = shape_index[-1] + 1
    locked = []
    for box, line, _shared in crossings:
        column = houses.shape[line] == "column"
        locked.append(
            (
                (0 if column else 1, shape_index[box], shape_index[line]),
                (2 if column else 3, shape_index[line], shape_index[box]),
            )
        )
    rank = {"box": 0, "column": 1, "row": 2}
    sets = sorted(range(len(houses.cells)), key=lambda h: (rank[houses.shape[h]], h))
    return PairRuleOrder(tuple(locked), tuple(sets), (1, 0))


CHAIN_HOUSE_ORDER = {"box": 0, "row": 1, "column": 2}
"""The order of a cell's houses in SE's chains (Grid.getRegionTypes: Block, Row, Column)."""


def model_lookups(houses: Houses, n_vars: int) -> Lookups:
    """Peer masks per variable, cell masks per house, covering houses and X-wing lines."""
    peer_masks = list(houses.peer_bits[:n_vars])
    chain_houses = tuple(
        tuple(sorted(houses.of_var[var], key=lambda h: CHAIN_HOUSE_ORDER[houses.shape[h]]))
        for var in range(n_vars)
    )
    chain_peers = []
    for var in range(n_vars):
        seen = 1 << var
        masks = []
        for h in chain_houses[var]:
            masks.append(house_bits(houses, h) & ~seen)
            seen |= masks[-1]
        chain_peers.append(tuple(masks))
    cover_of_var = tuple(
        tuple(h for h in chain_houses[var] if houses.covering[h]) for var in range(n_vars)
    )
    rows = [h for h, s in enumerate(houses.shape) if s == "row" and houses.covering[h]]
    cols = [h for h, s in enumerate(houses.shape) if s == "column" and houses.covering[h]]
    line_index: dict[int, int] = {}
    for orientation, (_base, cover) in enumerate(((rows, cols), (cols, rows))):
        for j, h in enumerate(cover):
            for var in houses.cells[h]:
                line_index[var * 2 + orientation] = j
    crossings = tuple(
        (box, line, sum(1 << s for s in set(shared))) for box, line, shared in houses.crossings
    )
    locked_from: dict[tuple[int, int], list[tuple[int, int, int, int]]] = {}
    for k, (box, line, shared_mask) in enumerate(crossings):
        for direction, (source, target) in enumerate(((box, line), (line, box))):
            if houses.covering[source]:
                for var in bits(shared_mask):
                    locked_from.setdefault((source, var), []).append(
                        (k, direction, target, shared_mask)
                    )
    return Lookups(
        peer_masks,
        [house_bits(houses, h) for h in range(len(houses.cells))],
        cover_of_var,
        chain_houses,
        tuple(chain_peers),
        ((rows, cols), (cols, rows)),
        line_index,
        crossings,
        {key: tuple(found) for key, found in locked_from.items()},
        pair_rule_order(houses, crossings),
    )


def bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class Propagation:
    """The outcome of one assumption: potentials forced on and off, their ancestors, why each
    on potential holds (``causes``: its house, -1 for its cell) and, in nested chains, the inner
    hints each potential rests on (``nest``: bits into ``nested``)."""

    __slots__ = ("causes", "contradiction", "nest", "nested", "off", "on", "parents")

    def __init__(self) -> None:
        self.on: dict[int, int] = {}
        """Potentials forced on, in the order met, each with a bitset whose bits count its
        nodes (itself and every assumption it depends on): in Python its ancestors, from the
        compiled kernel as many low bits."""
        self.off: dict[int, int] = {}
        """Potentials forced off, as :attr:`on`."""
        self.parents: dict[int, tuple[int, ...]] = {}
        self.causes: dict[int, int] = {}
        self.nest: dict[int, int] = {}
        self.nested: list[Hint] = []
        self.contradiction: tuple[int, int] | None = None

    def nested_of(self, targets: Iterable[int]) -> list[Hint]:
        """The inner hints the given potentials rest on."""
        mask = 0
        for t in targets:
            mask |= self.nest.get(t, 0)
        return [self.nested[i] for i in bits(mask)]


def nested_complexity(results: Iterable[Propagation], targets: Iterable[int]) -> int:
    """SE's nested complexity: the nodes of every distinct inner hint the targets rest on."""
    seen: set[int] = set()
    total = 0
    for r, t in zip(results, targets, strict=True):
        for hint in r.nested_of((t,)):
            if id(hint) not in seen:
                seen.add(id(hint))
                total += hint.complexity
    return total


class InnerHints:
    """The hints of inner chain searches by emptied grid, kept from one state to the next.

    An inner search's hints depend on its rule, its level and the emptied grid alone (not on
    the grid that emptied it), and the next state's chains often empty the grid the same way:
    a removal that a chain derived anyway is already made in the next state. Two generations
    are kept, this state's and the last one's, so memory stays that of two states.

    Each asker (the grid of the search asking) gets hint objects of its own, as when it
    searched itself: a step lists the inner hints its chains rest on once per object
    (:func:`nested_data`), so two askers' hints of the same grid must stay two objects.
    """

    __slots__ = ("current", "previous")

    def __init__(self) -> None:
        self.current: dict[tuple, tuple[tuple[int, ...], list[Hint]]] = {}
        self.previous: dict[tuple, tuple[tuple[int, ...], list[Hint]]] = {}

    @staticmethod
    def of(ctx: Context) -> InnerHints:
        """The run's cache (``ctx.lasting``, gone with the run), moved on a generation at each
        new state (the engine clears ``ctx.memo`` whenever the state changes)."""
        cache = ctx.memo.get("chain inner hints")
        if cache is None:
            cache = ctx.lasting.get("chain inner hints")
            if cache is None:
                cache = ctx.lasting["chain inner hints"] = InnerHints()
            else:
                cache.previous, cache.current = cache.current, {}
            ctx.memo["chain inner hints"] = cache
        return cache

    def get(
        self, rule: str, level: int, cand: list[int], asker: tuple[int, ...]
    ) -> list[Hint] | None:
        """The sorted hints of this search over the grid ``cand``, if known; copies when
        another asker's search found them."""
        key = (rule, level, tuple(cand))
        entry = self.current.get(key)
        if entry is None:
            entry = self.previous.get(key)
            if entry is None:
                return None
            self.current[key] = entry
        finder, hints = entry
        return hints if finder == asker else [replace(hint) for hint in hints]

    def put(
        self, rule: str, level: int, cand: list[int], asker: tuple[int, ...], hints: list[Hint]
    ) -> None:
        """Remember the sorted hints of a search over the grid ``cand`` that ``asker`` made."""
        self.current[(rule, level, tuple(cand))] = (asker, hints)


@cache
def compiled(part: str = "propagation_jit", package: str = "rules.sudoku.chains") -> Any:
    """A module of compiled kernels, imported on first use, so that grading that needs no
    chain never loads numba: the propagation (:mod:`rules.sudoku.chains.propagation_jit`), whole
    searches (``search_jit``), static implications (``static_jit``), static reach
    (``reach_jit``), or another ``package``'s (``rules.sudoku``'s ``exclusion_jit``). None
    without numba, or with ``GRADER_NO_JIT`` set."""
    if os.environ.get("GRADER_NO_JIT"):
        return None
    try:
        return importlib.import_module(f"{package}.{part}")
    except Exception:  # no numba, or one that cannot compile or cache here
        return None


def kernels_loaded() -> bool:
    """Whether the compiled propagation (and so numba) is already imported."""
    return f"{__package__}.propagation_jit" in sys.modules


class ChainSearch:
    """Chain searches over one state."""

    first: bool = False
    """Stop at the first source that gives any hint (for callers that keep no steps, which
    need a sound conclusion, not SE's cheapest one: :attr:`Context.settle`)."""

    best_only: bool = False
    """Build only the hints that rank first so far (:meth:`dynamic_hints`): for a caller that
    takes the cheapest hint alone, not for inner searches, which use every hint."""

    one_per_conclusion: bool = False
    """Keep, of the hints with the same conclusions, only the first-ranked: for inner
    searches, whose caller reads hints cheapest first and finds nothing new in the others."""

    use_jit: bool = True
    """Propagate without nested rules by the compiled kernel when numba is there. Off in
    tests, to compare with the Python propagation."""

    bivalue_twins: bool = True
    """Propagate "not v" in a bivalue cell (dynamic chains) only when "the other value"
    contradicts: the two reach the same grid. Off in tests, to compare with propagating it."""

    def __init__(self, ctx: Context | None, nesting: int = 0) -> None:
        if ctx is None:
            return
        model = ctx.model
        self.houses = houses_of(model)
        self.V = max(v.domain.bit_length() for v in model.variables)
        lookups = model.memo.get("chain_lookups")
        if lookups is None:
            lookups = model_lookups(self.houses, len(model.variables))
            model.memo["chain_lookups"] = lookups
        self.lookups = lookups
        self.peer_masks, self.house_masks = lookups.peer_masks, lookups.house_masks
        self.cover_of_var = lookups.cover_of_var
        self.grid = Grid(self.houses, ctx.state, self.V, self.house_masks)
        self.nesting = nesting
        self.ctx = ctx
        self.inner_cache: dict = ctx.memo.setdefault("chain_inner", {})
        self.hint_cache = InnerHints.of(ctx)
        self.grid_key: tuple[int, ...] = tuple(self.grid.cand)
        # the grid's links and reaches, shared by the chain searches of one scan (forcing
        # chains and the multiple kind both build the static reach of the same grid)
        self.link_memo: dict[tuple, object] = ctx.memo.setdefault(
            ("chain links", self.grid_key), {}
        )

    def inner(self, cand: list[int], nesting: int, grid: Grid | None = None) -> ChainSearch:
        """A search of the same model over the grid ``cand`` (a chain's emptied grid; ``grid``:
        its :class:`Grid`, when already made)."""
        sub = ChainSearch(None)
        sub.houses, sub.V, sub.lookups = self.houses, self.V, self.lookups
        sub.peer_masks, sub.house_masks = self.peer_masks, self.house_masks
        sub.cover_of_var = self.cover_of_var
        sub.grid = grid if grid is not None else Grid(self.houses, cand, self.V, self.house_masks)
        sub.nesting = nesting
        sub.ctx = self.ctx
        sub.inner_cache = self.inner_cache
        sub.hint_cache = self.hint_cache
        sub.one_per_conclusion = True
        sub.grid_key = tuple(cand)
        sub.link_memo = {}
        return sub

    def placed(self) -> tuple[list[int], list[int]]:
        """Per value, how many cells of the state searched are placed with it; per house, how
        many of its cells are open (SE's empty cells: inner searches count those of the state,
        not of the grid a chain emptied). Memoized on the state."""
        ctx = self.ctx
        found = ctx.memo.get("chain placed")
        if found is None:
            open_counts = [len(open_in(ctx, self.houses, h)) for h in range(len(self.houses.cells))]
            counts = [0] * self.V
            for var in placed_cells(ctx):  # every cell's house was read just above
                counts[ctx.state[var].bit_length() - 1] += 1
            found = ctx.memo["chain placed"] = (counts, open_counts)
        return found

    def check_time(self) -> None:
        if self.ctx is not None:
            self.ctx.check_time()

    # -- static links ------------------------------------------------------------------------

    def weak(self, pid: int, use_y: bool, use_x: bool, cand: list[int], vmask: list[int]):
        """Potentials turned off by an on potential."""
        return self._linked(pid, use_y, use_x, self._weak, cand, vmask)

    def strong(self, pid: int, use_y: bool, use_x: bool, cand: list[int], hpos: list[int]):
        """(on potential, house or -1) forced by an off potential."""
        return self._linked(pid, use_y, use_x, self._strong, cand, hpos)

    def _linked(self, pid: int, use_y: bool, use_x: bool, links, cand, masks) -> tuple:
        """A potential's links in this search's grid, found once per search (on potentials
        have weak links, off ones strong links: their pids never meet in the memo)."""
        key = (pid, use_y, use_x)
        found = self.link_memo.get(key)
        if found is None:
            found = self.link_memo[key] = tuple(links(pid, use_y, use_x, cand, masks))
        return found

    def targets(self, kind: str, use_y: bool, use_x: bool) -> dict[int, tuple[int, ...]]:
        """This search's memo of the potentials a potential's ``weak`` or ``strong`` links
        reach (without their houses), filled by the chain searches as they go."""
        key = (kind, use_y, use_x)
        found = self.link_memo.get(key)
        if found is None:
            found = self.link_memo[key] = {}
        return found

    def _weak(self, pid: int, use_y: bool, use_x: bool, cand: list[int], vmask: list[int]):
        c = pid >> 1
        var, v = divmod(c, self.V)
        out = []
        if use_y:
            base = var * self.V
            for w in values_of(cand[var] & ~(1 << v)):
                out.append((base + w) << 1)
        if use_x:
            for q in bits(vmask[v] & self.peer_masks[var]):
                out.append((q * self.V + v) << 1)
        return out

    def _strong(self, pid: int, use_y: bool, use_x: bool, cand: list[int], hpos: list[int]):
        c = pid >> 1
        var, v = divmod(c, self.V)
        out = []
        if use_y:
            m = cand[var]
            if m.bit_count() == 2:
                w = (m & ~(1 << v)).bit_length() - 1
                out.append((((var * self.V + w) << 1) | 1, -1))
        if use_x:
            V = self.V
            for h in self.cover_of_var[var]:
                pm = hpos[h * V + v]
                if pm.bit_count() == 2:
                    q = (pm & ~(1 << var)).bit_length() - 1
                    out.append((((q * V + v) << 1) | 1, h))
        return out

    def static_reach(self) -> StaticReach:
        """The reach of every potential through the grid's static links (once per search)."""
        found = self.link_memo.get(("reach",))
        if found is None:
            g = self.grid
            loaded = self.loaded_kernels("reach_jit")
            if loaded is not None:
                self.check_time()
                jit, arrays = loaded
                found = jit.compiled_reach(*arrays, g.cand, g.vmask, self.peer_masks, self.V)
            else:
                found = StaticReach(
                    g.cand,
                    g.vmask,
                    g.hpos,
                    self.peer_masks,
                    self.cover_of_var,
                    self.V,
                    self.check_time,
                )
            self.link_memo[("reach",)] = found
        assert isinstance(found, StaticReach)
        return found

    def components(self) -> dict[int, int]:
        """Potential → its strongly connected component in the grid's static links (once per
        search): a cycle through a potential stays inside its component."""
        found = self.link_memo.get(("components",))
        if found is None:
            reach = self.static_reach()
            component = reach.component
            found = {}
            for key, k in reach.index.items():
                found[key << 1] = component[2 * k]
                found[(key << 1) | 1] = component[2 * k + 1]
            self.link_memo[("components",)] = found
        assert isinstance(found, dict)
        return found

    def static_may_find(self, mode: str, nesting: int) -> bool:
        """False when :meth:`static_hints` (``static``) or the ``multiple`` kind of
        :meth:`dynamic_hints` is sure to find nothing (:mod:`rules.sudoku.chains.reach`)."""
        reach = self.static_reach()
        if reach.has_forcing_chain():
            return True
        return mode == "multiple" and (nesting > 0 or bool(self.multiple_sources()))

    def static_conclusions(self, mode: str) -> tuple[list, list] | None:
        """Everything :meth:`static_hints` (``static``) or the ``multiple`` kind of
        :meth:`dynamic_hints` concludes from this grid, as (placements, eliminations) for a
        caller that keeps no steps; None when the searches must say (a broken grid, or cell
        and region chains where forcing chains exist)."""
        reach = self.static_reach()
        if reach.has_forcing_chain():
            return reach.forcing_conclusions() if mode == "static" else None
        if mode == "static":
            return [], []
        return reach.conclusions(reach.multiple_news(self.cover_of_var, self.grid.hpos))

    def multiple_sources(self) -> set[int | tuple[int, int]] | None:
        """The sources whose cell or region chains of the multiple kind conclude anything: the
        cells and (house, value) regions every branch of which reaches some news; None when a
        forcing chain exists (the reaches are then not whole propagations). Found once per
        search: :meth:`static_may_find` asks before the search does."""
        key = ("multiple sources",)
        if key in self.link_memo:
            return self.link_memo[key]  # type: ignore[return-value]
        reach = self.static_reach()
        found = None
        if not reach.has_forcing_chain():
            shared = reach.multiple_shared(self.cover_of_var, self.grid.hpos)
            found = {source for source, news in shared if news}
        self.link_memo[key] = found
        return found

    def nishio_may_find(self) -> bool:
        """False when the ``nishio`` kind of :meth:`dynamic_hints` is sure to find nothing."""
        g = self.grid
        loaded = self.loaded_kernels("reach_jit")
        if loaded is not None:
            jit, arrays = loaded
            return jit.compiled_nishio_may_find(*arrays)
        covering = [h for h, c in enumerate(self.houses.covering) if c]
        return nishio_may_find(g.cand, g.vmask, g.hpos, self.peer_masks, covering, self.V)

    # -- static chains and cycles ------------------------------------------------------------

    def static_hints(self) -> list[Hint]:
        g = self.grid
        hints: list[Hint] = []
        order = 0
        # a forcing chain from a potential is found exactly when the potential reaches its
        # opposite through the static links (the searches below use some of them)
        reach = self.static_reach()
        index, reach_of = reach.index, reach.of
        component, cycling = self.components(), reach.cycle_components()
        for use_y, use_x in ((False, True), (True, False), (True, True)):
            for var in range(g.N):
                m = g.cand[var]
                if m.bit_count() < 2:
                    continue
                if use_y and not use_x and m.bit_count() != 2:
                    continue
                for v in values_of(m):
                    pid = ((var * self.V + v) << 1) | 1
                    if component[pid] in cycling:
                        for hint in self.cycles(pid, use_y, use_x):
                            hint.order = order
                            order += 1
                            hints.append(hint)
                    if use_x:
                        k = index[var * self.V + v]
                        if reach_of(2 * k + 1) >> (2 * k) & 1:
                            for hint in self.forcing(pid, use_y):
                                hint.order = order
                                order += 1
                                hints.append(hint)
                        if reach_of(2 * k) >> (2 * k + 1) & 1:
                            for hint in self.forcing(pid ^ 1, use_y):
                                hint.order = order
                                order += 1
                                hints.append(hint)
                    if self.first and hints:
                        return hints
        return hints

    def cycles(self, source: int, use_y: bool, use_x: bool) -> list[Hint]:
        g = self.grid
        cand, vmask, hpos = g.cand, g.vmask, g.hpos
        # nodes are (pid, parent node, the pids on the way as a bitset) linked lists
        start = (source, None, 1 << source)
        to_on = {source}
        pending_on = [start]
        pending_off: list = []
        length = 0
        found = []
        weak_of = self.targets("weak", use_y, True)
        strong_of = self.targets("strong", use_y, use_x)
        component = self.components()
        home = component[source]  # a potential outside it never leads back to the source
        while pending_on or pending_off:
            length += 1
            next_off = []
            for node in pending_on:
                pid = node[0]
                targets = weak_of.get(pid)
                if targets is None:
                    targets = weak_of[pid] = self.weak(pid, use_y, True, cand, vmask)
                for t in targets:
                    if component[t] == home and not node[2] >> t & 1:
                        next_off.append((t, node, node[2] | 1 << t))
            pending_on = []
            pending_off = next_off
            length += 1
            for node in pending_off:
                pid = node[0]
                targets = strong_of.get(pid)
                if targets is None:
                    links = self.strong(pid, use_y, use_x, cand, hpos)
                    targets = strong_of[pid] = tuple(t for t, _ in links)
                for t in targets:
                    if length >= 4 and t == source:
                        found.append((t, node, 0))
                    if t not in to_on and component[t] == home:
                        to_on.add(t)
                        pending_on.append((t, node, node[2] | 1 << t))
            pending_off = []
        out = []
        base = 7.0 if use_x and use_y else 6.5
        sort_key = 4 if use_x and use_y else (3 if use_y else 2)
        for end in found:
            path = chain_of(end)
            complexity = len(set(path))
            elims = self.cycle_eliminations(path)
            if elims:
                out.append(
                    Hint(
                        round(base + length_bonus(complexity), 1),
                        complexity,
                        sort_key,
                        0,
                        "x-cycle" if not use_y else ("y-cycle" if not use_x else "xy-cycle"),
                        eliminations=tuple(elims),
                        paths=(path,),
                        source=(source,),
                    )
                )
        return out

    def cycle_eliminations(self, path: list[int]) -> list[tuple[int, int]]:
        """The candidates off the cycle that see a potential of it both on and off (per value,
        cell bitsets of the peers holding it)."""
        V = self.V
        vmask, peer_masks = self.grid.vmask, self.peer_masks
        on_cycle = 0
        for pid in path:
            on_cycle |= 1 << ((pid >> 1) // V)
        forward = [0] * V
        backward = [0] * V
        for pid in path[1:]:
            var, v = divmod(pid >> 1, V)
            seen = vmask[v] & peer_masks[var] & ~on_cycle
            if pid & 1:
                forward[v] |= seen
            else:
                backward[v] |= seen
        return sorted((q, v) for v in range(V) for q in bits(forward[v] & backward[v]))

    def forcing(self, source: int, use_y: bool) -> list[Hint]:
        """Chains from ``source`` to its own opposite (a forcing chain)."""
        g = self.grid
        cand, vmask, hpos = g.cand, g.vmask, g.hpos
        goal = source ^ 1
        # nodes are (pid, parent node): a breadth-first search visits each potential once, so
        # unlike the cycles' nodes they need no record of the potentials on their way; the
        # first way to the goal is the shortest, and the only one kept, so the search ends there
        start: tuple = (source, None)
        seen = {source}
        pending = [start]
        found: list[tuple] = []
        weak_of = self.targets("weak", use_y, True)
        strong_of = self.targets("strong", use_y, True)
        while pending and not found:
            nxt = []
            for node in pending:
                pid = node[0]
                if pid & 1:
                    targets = weak_of.get(pid)
                    if targets is None:
                        targets = weak_of[pid] = self.weak(pid, use_y, True, cand, vmask)
                else:
                    targets = strong_of.get(pid)
                    if targets is None:
                        links = self.strong(pid, use_y, True, cand, hpos)
                        targets = strong_of[pid] = tuple(t for t, _ in links)
                if goal in targets:
                    found.append((goal, node))
                    break
                for t in targets:
                    if t not in seen:
                        seen.add(t)
                        nxt.append((t, node))
            pending = nxt
        out = []
        base = 7.0 if use_y else 6.6
        for end in found:
            path = chain_of(end)
            complexity = len(set(path))
            var, v = divmod(source >> 1, self.V)
            if source & 1:
                elims = ((var, v),)
                places = ()
            else:
                elims = tuple((var, w) for w in values_of(cand[var] & ~(1 << v)))
                places = ((var, v),)
            out.append(
                Hint(
                    round(base + length_bonus(complexity), 1),
                    complexity,
                    4 if use_y else 2,
                    0,
                    "forcing-chain" if use_y else "forcing-x-chain",
                    placements=places,
                    eliminations=elims,
                    paths=(path,),
                    source=(source,),
                )
            )
        return out

    # -- propagation (Nishio, multiple, dynamic) ---------------------------------------------

    def propagate(self, start: int, dynamic: bool, use_y: bool) -> Propagation:
        """What follows from the potential ``start`` (on when odd): by the grid's links alone,
        or (``dynamic``) with the grid emptying as the chain goes and the rules nested at this
        search's level; dynamic without nested rules, compiled when numba is there (the same
        result: :mod:`rules.sudoku.chains.propagation_jit`)."""
        if dynamic and self.use_jit and not self.nesting:
            arrays = self.jit_arrays()
            if arrays is not None:
                return compiled().propagate(*arrays, start, dynamic, use_y)
        return self.propagate_here(start, dynamic, use_y)

    def loaded_kernels(self, part: str) -> tuple[Any, tuple[Any, Any]] | None:
        """The compiled module ``part`` and this grid's arrays, once the compiled propagation
        is loaded and takes this model; None otherwise (a grid that never needs it does not
        pay numba's start-up, 0.4 CPU s, for a pre-check alone)."""
        if not kernels_loaded():
            return None
        arrays = self.jit_arrays()
        jit = compiled(part) if arrays is not None else None
        return None if jit is None else (jit, arrays)

    def jit_arrays(self) -> tuple[Any, Any] | None:
        """This model's and this grid's arrays for the compiled propagation, made on first
        use; None without numba or for a model too large for the kernel."""
        grid = self.grid
        if grid.arrays is None:
            model_arrays = self.lookups.jit_arrays(self.houses, self.V)
            grid.arrays = ()
            if model_arrays is not None:
                grid.arrays = (model_arrays, compiled().GridArrays(model_arrays, grid.cand))
        return grid.arrays or None

    def propagate_here(self, start: int, dynamic: bool, use_y: bool) -> Propagation:
        """:meth:`propagate` in Python: the reference the compiled one follows."""
        g = self.grid
        V = self.V
        res = Propagation()
        on, off, parents, causes = res.on, res.off, res.parents, res.causes
        nesting = self.nesting if dynamic else 0
        nest = res.nest if nesting >= 2 else None
        if dynamic:
            cand, vmask, hpos = list(g.cand), list(g.vmask), list(g.hpos)
        else:
            cand, vmask, hpos = g.cand, g.vmask, g.hpos
        orig_cand, orig_hpos = g.cand, g.hpos
        chain_peers = self.lookups.chain_peers
        chain_houses = self.lookups.chain_houses
        covering = self.houses.covering
        pend_on: deque[int] = deque()
        pend_off: deque[int] = deque()
        if start & 1:
            on[start] = 1 << start
            pend_on.append(start)
        else:
            off[start] = 1 << start
            pend_off.append(start)
        parents[start] = ()
        while pend_on or pend_off:
            if pend_on:
                p = pend_on.popleft()
                anc = on[p]
                var, v = divmod(p >> 1, V)
                targets = []
                if use_y:
                    base = var * V
                    rest = cand[var] & ~(1 << v)
                    while rest:
                        low = rest & -rest
                        targets.append((base + low.bit_length() - 1) << 1)
                        rest ^= low
                holding = vmask[v]
                for peers in chain_peers[var]:
                    rest = holding & peers
                    while rest:
                        low = rest & -rest
                        targets.append(((low.bit_length() - 1) * V + v) << 1)
                        rest ^= low
                pn = nest.get(p, 0) if nest is not None else 0
                single = (p,)
                for t in targets:
                    if t | 1 in on:
                        off[t] = anc | 1 << t
                        parents[t] = single
                        if pn:
                            nest[t] = pn  # type: ignore[index]
                        res.contradiction = (t | 1, t)
                        return res
                    if t not in off:
                        off[t] = anc | 1 << t
                        parents[t] = single
                        if pn:
                            nest[t] = pn  # type: ignore[index]
                        pend_off.append(t)
            else:
                p = pend_off.popleft()
                anc = off[p]
                var, v = divmod(p >> 1, V)
                made = []
                # what turns on (a potential already on is passed over before its ancestors
                # are gathered: the loop below would pass over it too)
                if use_y:
                    m = cand[var]
                    if m.bit_count() == 2:
                        t = ((var * V + (m & ~(1 << v)).bit_length() - 1) << 1) | 1
                        if t not in on:
                            a = anc
                            extra = []
                            if dynamic:
                                for x in values_of(orig_cand[var] & ~m):
                                    hp = (var * V + x) << 1
                                    a |= off[hp]
                                    extra.append(hp)
                            made.append((t, a, (p, *extra), -1))
                keep = ~(1 << var)
                for h in chain_houses[var]:
                    hv = h * V + v
                    pm = hpos[hv]
                    if dynamic:
                        hpos[hv] = pm & keep  # read above first: each house has its own entry
                    if covering[h] and pm.bit_count() == 2:
                        t = ((((pm & keep).bit_length() - 1) * V + v) << 1) | 1
                        if t in on:
                            continue
                        if dynamic:
                            a = anc
                            extra = [p]
                            rest = orig_hpos[hv] & ~pm
                            while rest:
                                low = rest & -rest
                                hp = ((low.bit_length() - 1) * V + v) << 1
                                a |= off[hp]
                                extra.append(hp)
                                rest ^= low
                            made.append((t, a, tuple(extra), h))
                        else:
                            made.append((t, anc, (p,), h))
                if dynamic:
                    cand[var] &= ~(1 << v)
                    vmask[v] &= keep
                for t, a, par, cause in made:
                    if t in on:
                        continue
                    on[t] = a | 1 << t
                    parents[t] = par
                    causes[t] = cause
                    if nest is not None:
                        n = 0
                        for x in par:
                            n |= nest.get(x, 0)
                        if n:
                            nest[t] = n
                    if t ^ 1 in off:
                        res.contradiction = (t, t ^ 1)
                        return res
                    pend_on.append(t)
            if not pend_on and not pend_off and nesting > 0:
                self.check_time()
                for t, a, par, n in self.advanced(cand, vmask, hpos, off, nest, res):
                    if t in off:
                        continue
                    off[t] = a | 1 << t
                    parents[t] = par
                    if n:
                        nest[t] = n  # type: ignore[index]
                    if t | 1 in on:
                        res.contradiction = (t | 1, t)
                        return res
                    pend_off.append(t)
        return res

    def advanced(self, cand, vmask, hpos, off, nest, res: Propagation):
        """What the rules SE nests at this level conclude in the emptied grid: the first rule
        (locked candidates, hidden pairs, naked pairs, X-wings, then inner chains) that finds
        anything resting on removed candidates, its findings in the order SE's scans make
        them (:class:`PairRuleOrder`). Items: (potential off, ancestors, parents, nested
        bits)."""
        V = self.V
        orig_hpos, orig_cand = self.grid.hpos, self.grid.cand
        houses = self.houses
        order = self.lookups.pair_rule_order

        def item(t: int, par: tuple[int, ...]):
            a = 0
            n = 0
            for hp in par:
                a |= off[hp]
                if nest is not None:
                    n |= nest.get(hp, 0)
            return (t, a, par, n)

        def removed_in(h: int, v: int, outside: int = 0) -> tuple[int, ...]:
            gone = orig_hpos[h * V + v] & ~hpos[h * V + v] & ~outside
            return tuple((r * V + v) << 1 for r in bits(gone))

        # per house, the values that lost places in it: a rule resting on no removed candidate
        # concludes nothing here, so only these houses and values are scanned
        dirty = [0] * len(houses.cells)
        changed = list(compress(range(len(hpos)), map(ne, hpos, orig_hpos)))
        for i in changed:
            h, v = divmod(i, V)
            dirty[h] |= 1 << v
        out = []
        # locked candidates: a value's places in a source house, all inside one crossing, that
        # lost places outside it (SE's parents); found per changed entry, then taken in SE's
        # order (box to column, box to row, column to box, row to box; houses; value)
        covering = houses.covering
        locked_from = self.lookups.locked_from
        locked = []
        for i in changed:
            pm = hpos[i]
            if pm.bit_count() < 2:
                continue
            source, v = divmod(i, V)
            for k, direction, target, shared_mask in locked_from.get(
                (source, (pm & -pm).bit_length() - 1), ()
            ):
                if pm & ~shared_mask or not orig_hpos[i] & ~pm & ~shared_mask:
                    continue
                elim = hpos[target * V + v] & ~shared_mask
                if elim:
                    locked.append((order.locked[k][direction], v, source, shared_mask, elim))
        if locked:
            locked.sort()
            for _key, v, source, shared_mask, elim in locked:
                par = removed_in(source, v, shared_mask)
                for q in bits(elim):
                    out.append(item((q * V + v) << 1, par))
            return out
        placed, open_count = self.placed()
        # hidden pairs (one of the two values lost a place in the house), in houses of more
        # than four open cells, SE's houses in order, value pairs by their larger value
        for h in order.sets:
            changed_values = dirty[h]
            if not covering[h] or not changed_values or open_count[h] <= 4:
                continue
            row = hpos[h * V : h * V + V]
            rest = changed_values
            while rest:  # a changed value with two places that another value shares
                low = rest & -rest
                rest ^= low
                pa = row[low.bit_length() - 1]
                if pa.bit_count() == 2 and row.count(pa) > 1:
                    break
            else:
                continue
            twos = list(compress(range(V), map((2).__eq__, map(int.bit_count, row))))  # 2 places
            for j, b_ in enumerate(twos):
                pb = row[b_]
                for a_ in twos[:j]:
                    if row[a_] != pb or not (changed_values >> a_ & 1 or changed_values >> b_ & 1):
                        continue
                    keep = (1 << a_) | (1 << b_)
                    elims = [(var, x) for var in bits(pb) for x in values_of(cand[var] & ~keep)]
                    if not elims:
                        continue
                    # SE's parents: cell by cell, the pair's values each lost there
                    lost = ((a_, orig_hpos[h * V + a_] & ~pb), (b_, orig_hpos[h * V + b_] & ~pb))
                    par = tuple(
                        (var * V + x) << 1
                        for var in bits(lost[0][1] | lost[1][1])
                        for x, gone in lost
                        if gone >> var & 1
                    )
                    for var, x in elims:
                        out.append(item((var * V + x) << 1, par))
        if out:
            return out
        # naked pairs (one of the two cells lost a candidate), in houses of four open cells or
        # more, SE's houses in order, cell pairs by their later cell
        shrunk_pairs = 0
        for var in compress(range(len(cand)), map(ne, cand, orig_cand)):
            if cand[var].bit_count() == 2:
                shrunk_pairs |= 1 << var
        house_masks = self.house_masks
        for h in order.sets:
            if not dirty[h] or not house_masks[h] & shrunk_pairs or open_count[h] < 4:
                continue
            cells = houses.cells[h]
            twos = [var for var in cells if cand[var].bit_count() == 2]
            for j, second in enumerate(twos):
                mask = cand[second]
                for first in twos[:j]:
                    if cand[first] != mask:
                        continue
                    par = tuple(
                        (var * V + x) << 1
                        for var in (first, second)
                        for x in values_of(orig_cand[var] & ~mask)
                    )
                    if not par:
                        continue
                    for var in cells:
                        if var in (first, second):
                            continue
                        for x in values_of(cand[var] & mask):
                            out.append(item((var * V + x) << 1, par))
        if out:
            return out
        # X-wings: columns as base lines first, then rows; pairs of base lines by the later
        # one, then values; only for a value placed at most V - 4 times (SE's Fisherman)
        line_index = self.lookups.line_index
        wings = []
        for turn, orientation in enumerate(order.fish_orientations):
            base, cover = self.lookups.lines[orientation]
            base_changed = 0
            for h in base:
                base_changed |= dirty[h]
            for v in bits(base_changed):
                if placed[v] + 4 > V:
                    continue
                # an X-wing rests on a removed candidate through a base line that lost a place
                bit = 1 << v
                for h in base:
                    if dirty[h] & bit and hpos[h * V + v].bit_count() == 2:
                        break
                else:
                    continue
                spots: dict[int, list[int]] = {}
                for j, h in enumerate(base):
                    pm = hpos[h * V + v]
                    if pm.bit_count() != 2:
                        continue
                    first = line_index.get(((pm & -pm).bit_length() - 1) * 2 + orientation)
                    second = line_index.get((pm.bit_length() - 1) * 2 + orientation)
                    if first is None or second is None:  # a line that need not hold every value
                        continue
                    spots.setdefault(1 << first | 1 << second, []).append(j)
                for key, group in spots.items():
                    for i in range(len(group)):
                        for k in range(i + 1, len(group)):
                            j1, j2 = group[i], group[k]
                            h1, h2 = base[j1], base[j2]
                            inside = hpos[h1 * V + v] | hpos[h2 * V + v]
                            elim = 0
                            for c in bits(key):
                                elim |= hpos[cover[c] * V + v]
                            elim &= ~inside
                            if not elim:
                                continue
                            par = removed_in(h1, v) + removed_in(h2, v)
                            if par:
                                wings.append((turn, j2, j1, v, elim, par))
        if wings:
            wings.sort()
            for *_key, v, elim, par in wings:
                for q in bits(elim):
                    out.append(item((q * V + v) << 1, par))
        if out or self.nesting < 2:
            return out
        # inner chains
        for rule, inner_level in INNER_RULES[min(self.nesting, 5)]:
            found = self.inner_conclusions(cand, hpos, rule, inner_level)
            if not found:
                continue
            for t, par, hint in found:
                if t in off:
                    continue
                entry = item(t, par)
                k = len(res.nested)
                res.nested.append(hint)
                out.append((entry[0], entry[1], entry[2], entry[3] | 1 << k))
            if out:
                return out
        return out

    def inner_conclusions(self, cand, hpos, rule: str, level: int):
        """(potential off, rule parents, hint) of every hint of an inner chain search over the
        emptied grid whose chains rest on removed candidates; the cheapest hint first."""
        key = (rule, level, self.grid_key, tuple(cand))
        found = self.inner_cache.get(key)
        if found is not None:
            return found
        hints = self.hint_cache.get(rule, level, cand, self.grid_key)
        if hints is None:
            if rule in STATIC_MODES:
                emptied = self.emptied_grid(cand)
                if rule == "static" and not self.may_hold_new_forcing_chain(emptied):
                    hints = []
                elif rule == "static":
                    hints = self.static_implications(cand, emptied).forcing_hints()
                else:
                    hints = self.static_implications(cand, emptied).multiple_hints()
            else:
                hints = self.inner(cand, level).dynamic_hints(rule)
            hints.sort()
            for hint in hints:
                hint.rule = f"{rule} {level}" if level else rule
            self.hint_cache.put(rule, level, cand, self.grid_key, hints)
        V = self.V
        orig_cand, orig_hpos = self.grid.cand, self.grid.hpos
        found = []
        done: set[int] = set()
        for hint in hints:
            elims = set(hint.eliminations)
            for var, x in hint.placements:
                for w in values_of(cand[var] & ~(1 << x)):
                    elims.add((var, w))
            fresh = [
                t
                for var, x in sorted(elims)
                if (t := (var * V + x) << 1) not in done and cand[var] >> x & 1
            ]
            if not fresh:
                continue  # every conclusion is taken (or gone): its parents are not needed
            par = rule_parents(hint, V, orig_cand, cand, orig_hpos, hpos, self.cover_of_var)
            if not par:
                continue
            for t in fresh:
                done.add(t)
                found.append((t, par, hint))
        self.inner_cache[key] = found
        return found

    def emptied_grid(self, cand: list[int]) -> Grid:
        """The :class:`Grid` of the emptied grid ``cand``: the last static implications' when
        they are of the same grid (a level nesting both static kinds asks twice), else new."""
        last = self.inner_cache.get("last static implications")
        if last is not None and last[0] == tuple(cand):
            return last[1].search.grid
        return Grid(self.houses, cand, self.V, self.house_masks)

    def may_hold_new_forcing_chain(self, emptied: Grid) -> bool:
        """False when the emptied grid has no static forcing chain: this search's grid has none
        (:class:`StaticReach`) and the emptied grid no strong link it lacks, so that a chain
        of the emptied grid, its links all links of this grid, would be one of this grid too
        (it has fewer candidates: no more weak links, and a cell or a house's value with two
        candidates in both has the same two)."""
        if self.static_reach().has_forcing_chain():  # known once per grid: asked first
            return True
        grid = self.grid
        for new, old in zip(emptied.cand, grid.cand, strict=True):
            if new.bit_count() == 2 and old.bit_count() > 2:
                return True
        covering = self.houses.covering
        V = self.V
        for i, (new, old) in enumerate(zip(emptied.hpos, grid.hpos, strict=True)):
            if new != old and new.bit_count() == 2 and covering[i // V]:
                return True
        return False

    def static_implications(self, cand: list[int], grid: Grid | None = None) -> StaticImplications:
        """The static chains of the emptied grid ``cand`` (``grid``: its :class:`Grid`, when
        already made). The last one is kept: a level that nests both static kinds asks for
        forcing chains and then multiple forcing chains of the same grid."""
        key = tuple(cand)
        last = self.inner_cache.get("last static implications")
        if last is not None and last[0] == key:
            return last[1]
        implications = StaticImplications(self.inner(cand, 0, grid))
        self.inner_cache["last static implications"] = (key, implications)
        return implications

    def dynamic_hints(self, mode: str, only: set | None = None) -> list[Hint]:
        """Nishio, multiple (static) or dynamic forcing chains, SE's way; with ``only``, the
        cell and region chains of those sources alone (cells, and (house, value) regions:
        :meth:`multiple_sources`)."""
        g = self.grid
        V = self.V
        dynamic = mode != "multiple"
        assert only is None or not dynamic, "only the multiple kind narrows its sources"
        nishio = mode == "nishio"
        use_y = not nishio
        base = base_rating(mode, self.nesting)
        if mode == "dynamic" and self.whole_search_compiles(only):
            return self.compiled_dynamic_hints(base)
        cache: dict[int, Propagation] = {}

        def on_prop(pid: int) -> Propagation:
            found = cache.get(pid)
            if found is None:
                found = self.propagate(pid, dynamic, use_y)
                cache[pid] = found
            return found

        hints: list[Hint] = []
        order = 0
        best_only = self.best_only
        by_conclusion: dict[tuple, int] | None = {} if self.one_per_conclusion else None

        def add(
            difficulty: float, cx: int, sort_key: int, conclusion: tuple, build: Callable[[], Hint]
        ) -> None:
            """Rank a hint (SE's order: rating, complexity, kind, then the order found) and
            build it, unless only the first-ranked is wanted and it comes after the best, or
            (:attr:`one_per_conclusion`) a hint of the same conclusions ranks before it."""
            nonlocal order
            key = (difficulty, cx, sort_key, order)
            order += 1
            if best_only and hints and key >= hints[0].key():
                return
            known = None if by_conclusion is None else by_conclusion.get(conclusion)
            if known is not None and hints[known].key() < key:
                return
            hint = build()
            hint.order = key[3]
            if best_only:
                hints[:] = [hint]
            elif known is not None:
                hints[known] = hint
            else:
                if by_conclusion is not None:
                    by_conclusion[conclusion] = len(hints)
                hints.append(hint)

        for var in range(g.N):
            m = g.cand[var]
            card = m.bit_count()
            if not (card > 2 or (card > 1 and dynamic)):
                continue
            self.check_time()
            outcomes = {}
            cell = only is None or var in only
            for v in values_of(m):
                pon = ((var * V + v) << 1) | 1
                if cell:
                    on_res = outcomes[v] = on_prop(pon)
                if dynamic:
                    # in a bivalue cell "not v" and "the other value" imply each other at once
                    # and so reach the same grid: the first contradicts only when the other does
                    off_res = None
                    if (
                        card > 2
                        or not use_y
                        or not self.bivalue_twins
                        or on_prop(
                            ((var * V + (m & ~(1 << v)).bit_length() - 1) << 1) | 1
                        ).contradiction
                    ):
                        off_res = self.propagate(pon ^ 1, dynamic, use_y)
                    # a contradiction of "v" removes v; of "not v", places it
                    if on_res.contradiction:
                        concluded = self.conclusion(pon ^ 1)
                        self.contradiction_hint(add, base, concluded, on_res, pon)
                    if off_res is not None and off_res.contradiction:
                        concluded = self.conclusion(pon)
                        self.contradiction_hint(add, base, concluded, off_res, pon ^ 1)
                    if card >= 3 and not nishio:
                        for table in ("on", "off"):
                            theirs = getattr(off_res, table)
                            for t, a in getattr(on_res, table).items():
                                b = theirs.get(t)
                                if b is not None:
                                    self.add_target(
                                        add,
                                        base,
                                        a.bit_count() + b.bit_count(),
                                        1,
                                        "double",
                                        t,
                                        [on_res, off_res],
                                        pon,
                                        None,
                                    )
                if not nishio:
                    self.region_chains(var, v, on_prop, add, base, only)
            if not nishio and cell:
                results = list(outcomes.values())
                self.add_common(add, base, results, 5, "cell", var, -1)
            if self.first and hints:
                return hints
        return hints

    def whole_search_compiles(self, only: set | None) -> bool:
        """Whether :meth:`dynamic_hints` of dynamic chains runs whole in the compiled kernel:
        without nested rules, for an inner search (every hint, one per conclusion) or a
        search for the first-ranked hint alone, of a grid the kernel takes."""
        return (
            self.use_jit
            and not self.nesting
            and (self.one_per_conclusion or self.best_only)
            and not self.first
            and only is None
            and self.jit_arrays() is not None
        )

    def compiled_dynamic_hints(self, base: float) -> list[Hint]:
        """:meth:`dynamic_hints` of dynamic chains, the search made by the kernel
        (:func:`rules.sudoku.chains.search_jit.search`): its hints (the first-ranked
        alone, for :attr:`best_only`: SE's rating grows with the complexity, so complexity,
        sort key and order rank them), whose chains' propagations are made again only when
        read (:class:`ChainSources`)."""
        jit = compiled("search_jit")
        arrays = self.jit_arrays()
        rows = jit.dynamic_search(*arrays, self.bivalue_twins)
        self.check_time()  # the Python search checks at every cell; the kernel runs whole
        if self.best_only and rows:
            rows = [min(rows, key=lambda row: row[1:4])]  # complexity, sort key, order
        V = self.V
        width = arrays[0].width
        fields = jit.FIELDS
        shared: dict[int, Propagation] = {}
        hints = []
        for row in rows:
            t, cx, sort_key, order, kind, source, cause, n = row[:fields]
            found = self.conclusion(t)
            assert found is not None  # the kernel offers a chain only where it concludes
            places, elims = found
            start_cause = None if cause == jit.NO_CAUSE else cause
            pids = row[fields : fields + n]
            goals = row[fields + width : fields + width + n]
            sources = ChainSources(arrays, pids, goals, start_cause, shared)
            origin = divmod(source, V) if kind == jit.REGION else source
            hint = rated(base, cx, sort_key, jit.KINDS[kind], places, elims, origin, sources, ())
            hint.order = order
            hints.append(hint)
        return hints

    def region_chains(self, var: int, v: int, on_prop, add, base: float, only=None) -> None:
        g = self.grid
        V = self.V
        for h in self.cover_of_var[var]:
            pm = g.hpos[h * V + v]
            if pm.bit_count() < 2 or (pm & -pm).bit_length() - 1 != var:
                continue
            if only is not None and (h, v) not in only:
                continue
            results = [on_prop(((q * V + v) << 1) | 1) for q in bits(pm)]
            self.add_common(add, base, results, 6, "region", (h, v), h)

    def add_common(self, add, base, results, sort_key, kind, source, start_cause) -> None:
        """Hints for what every branch (a cell's candidates, a value's places) concludes, in
        the order the first branch met them (SE's cellToOn and regionToOn sets)."""
        common_on: AbstractSet[int] = results[0].on.keys()
        common_off: AbstractSet[int] = results[0].off.keys()
        for r in results[1:]:
            common_on = r.on.keys() & common_on
            common_off = r.off.keys() & common_off
            if not common_on and not common_off:
                return
        found_on = [t for t in results[0].on if t in common_on]
        for t in found_on + [t for t in results[0].off if t in common_off]:
            table = "on" if t & 1 else "off"
            cx = sum(getattr(r, table)[t].bit_count() for r in results)
            self.add_target(add, base, cx, sort_key, kind, t, results, source, start_cause)

    def conclusion(self, t: int) -> tuple[tuple, tuple] | None:
        """What a chain reaching the potential ``t`` concludes in this grid, as (placements,
        eliminations): an on potential places its value and removes the cell's others, an off
        one removes its candidate; None when that changes nothing (SE's add_target)."""
        var, v = divmod(t >> 1, self.V)
        cand = self.grid.cand[var]
        if t & 1:
            elims = tuple((var, w) for w in values_of(cand & ~(1 << v)))
            return (((var, v),), elims) if elims else None
        return ((), ((var, v),)) if cand >> v & 1 else None

    def add_target(self, add, base, cx, sort_key, kind, t, results, source, start_cause) -> None:
        found = self.conclusion(t)
        if found is None:
            return
        places, elims = found
        if self.nesting >= 2:
            cx += nested_complexity(results, [t] * len(results))

        def build() -> Hint:
            nested: list[Hint] = []
            if self.nesting >= 2:
                for r in results:
                    nested.extend(h for h in r.nested_of((t,)) if h not in nested)
            sources = tuple((r, t, start_cause) for r in results)
            return rated(base, cx, sort_key, kind, places, elims, source, sources, nested)

        add(rating(base, cx), cx, sort_key, (places, elims), build)

    def contradiction_hint(self, add, base, concluded, res, source) -> None:
        """A contradiction's hint (SE's sort key 7): ``concluded`` (placements, eliminations)
        because the assumption ``source`` led ``res`` to a contradiction; handed to ``add``
        (:meth:`dynamic_hints`)."""
        a, b = res.contradiction
        places, elims = concluded
        cx = res.on[a].bit_count() + res.off[b].bit_count()
        nested: tuple[Hint, ...] = ()
        if self.nesting >= 2:
            nested = tuple(res.nested_of((a, b)))
            cx += sum(h.complexity for h in nested)

        def build() -> Hint:
            sources = ((res, a, None), (res, b, None))
            return rated(base, cx, 7, "contradiction", places, elims, source, sources, nested)

        add(rating(base, cx), cx, 7, concluded, build)


def rating(base: float, cx: int) -> float:
    """SE's rating of a chain of ``cx`` nodes: the base plus its length bonus."""
    return round(base + length_bonus(cx), 1)


def rated(base, cx, sort_key, kind, places, elims, source, sources, nested) -> Hint:
    """A dynamic chain's hint: SE's rating (base plus the length bonus of ``cx`` nodes)."""
    return Hint(
        rating(base, cx),
        cx,
        sort_key,
        0,
        kind,
        placements=places,
        eliminations=elims,
        source=(source,),
        sources=sources,
        nested=tuple(nested),
    )


INNER_RULES: dict[int, tuple[tuple[str, int], ...]] = {
    2: (("static", 0),),
    3: (("static", 0), ("multiple", 0)),
    4: (("dynamic", 0),),
    5: (("dynamic", 0), ("dynamic", 2)),
}
"""The chain searches SE nests inside a dynamic chain of each level (after the pair rules)."""


def rule_parents(
    hint: Hint, V: int, orig_cand, cand, orig_hpos, hpos, cover_of_var
) -> tuple[int, ...]:
    """The removed candidates an inner hint's chains rest on (SE's getRuleParents): for every
    on potential forced by its cell (or house), the candidates its cell (house) has lost."""
    out: dict[int, None] = {}
    if hint.static_paths:
        for path, start_cause in hint.static_paths:
            path_rule_parents(
                path, start_cause, V, cover_of_var, orig_cand, cand, orig_hpos, hpos, out
            )
        return tuple(out)
    if isinstance(hint.sources, ChainSources):
        for walk in hint.sources.rule_walks():
            for i in range(0, len(walk), 2):
                add_removed(out, walk[i], walk[i + 1], V, orig_cand, cand, orig_hpos, hpos)
        return tuple(out)
    for res, target, start_cause in hint.sources:
        parents, causes = res.parents, res.causes
        todo = [target]
        seen = {target}
        while todo:
            p = todo.pop()
            par = parents.get(p, ())
            cause = causes.get(p)
            if cause is None and not par and start_cause is not None:
                cause = start_cause
            if p & 1 and cause is not None:
                add_removed(out, p, cause, V, orig_cand, cand, orig_hpos, hpos)
            for q in par:
                if q not in seen:
                    seen.add(q)
                    todo.append(q)
    return tuple(out)


def path_rule_parents(
    path: list[int], start_cause, V: int, cover_of_var, orig_cand, cand, orig_hpos, hpos, out
) -> None:
    """:func:`rule_parents` of one static chain without repeated potentials, walked from its
    end to its start: an on potential after an off one is forced by their shared cell (cause
    -1) or their first shared house (:func:`link_cause`); the first by ``start_cause``, when
    there is one."""
    for i in range(len(path) - 1, -1, -1):
        p = path[i]
        if not p & 1:
            continue
        if i:
            prev = path[i - 1]
            if prev & 1:
                continue
            cause = link_cause((prev >> 1) // V, (p >> 1) // V, cover_of_var)
        elif start_cause is None:
            continue
        else:
            cause = start_cause
        add_removed(out, p, cause, V, orig_cand, cand, orig_hpos, hpos)


def add_removed(out: dict[int, None], p: int, cause: int, V: int, orig_cand, cand, orig_hpos, hpos):
    """Add to ``out`` the candidates that the cell (``cause`` -1) or the house ``cause`` forcing
    the on potential ``p`` has lost (off pids)."""
    var, v = divmod(p >> 1, V)
    if cause < 0:
        for x in values_of(orig_cand[var] & ~cand[var]):
            out[(var * V + x) << 1] = None
    else:
        for r in bits(orig_hpos[cause * V + v] & ~hpos[cause * V + v]):
            out[(r * V + v) << 1] = None


def link_cause(off_var: int, on_var: int, cover_of_var) -> int:
    """What forces an on potential in ``on_var`` after an off one in ``off_var`` (a strong
    link): their cell (-1) when they share it, else the first house both lie in (-1 if none)."""
    if off_var == on_var:
        return -1
    shared = set(cover_of_var[off_var]) & set(cover_of_var[on_var])
    return min(shared) if shared else -1


class StaticImplications:
    """Every static chain of one grid at once: for each candidate, the candidates its being on
    forces on through alternating weak and strong links (X and Y), as bitsets over candidate
    indices, from one pass over the strongly connected components of the on-to-on graph."""

    def __init__(self, search: ChainSearch) -> None:
        self.search = search
        self._off: dict[int, int] = {}
        self._searches: dict[int, tuple[dict[int, int | None], list[int]]] = {}
        """start -> the breadth-first search from it so far: (parents, frontier)"""
        self._compiled: tuple[Any, Any, Any] | None = None
        """The compiled kernels, the grid's arrays and the tables as numpy rows, when compiled:
        then the chains are read in the kernels and the Python tables are not made."""
        arrays = search.jit_arrays() if search.use_jit else None
        if arrays is not None:  # the same tables, compiled
            kernels = compiled("static_jit")
            self._compiled = (kernels, arrays, kernels.static_tables(*arrays))
            return
        g = search.grid
        V = search.V
        cand, hpos = g.cand, g.hpos
        cover_of_var = search.cover_of_var
        x_masks, y_masks = search.lookups.candidate_masks(V)
        nodes = self.nodes
        present = 0
        for var, m in enumerate(cand):
            present |= m << (var * V)
        conflict: dict[int, int] = {}
        strong_on: dict[int, int] = {}
        succ: dict[int, int] = dict.fromkeys(nodes, 0)
        for c in nodes:
            var, v = divmod(c, V)
            conflict[c] = ((x_masks[c] | y_masks[var]) & present) ^ (1 << c)  # c is in its cell
            s = 0
            m = cand[var]
            if m.bit_count() == 2:
                s |= 1 << (var * V + (m & ~(1 << v)).bit_length() - 1)
            for h in cover_of_var[var]:
                pm = hpos[h * V + v]
                if pm.bit_count() == 2:
                    s |= 1 << (((pm & ~(1 << var)).bit_length() - 1) * V + v)
            strong_on[c] = s
            if s:
                # off(c) forces s on, so every candidate whose being on turns c off reaches s
                rest = conflict[c]
                while rest:
                    low = rest & -rest
                    succ[low.bit_length() - 1] |= s
                    rest ^= low
        self.conflict, self.strong_on = conflict, strong_on
        self.reach = transitive(nodes, succ)

    @cached_property
    def nodes(self) -> list[int]:
        """Every candidate of the grid (``var * V + value``), in order: the rows of the
        tables (the compiled search reads them without this list)."""
        g, V = self.search.grid, self.search.V
        return [var * V + v for var in range(g.N) for v in values_of(g.cand[var])]

    def tables(self) -> tuple[dict[int, int], dict[int, int], dict[int, int]]:
        """Per candidate, as bitsets over candidate indices: its conflicts, the candidates its
        being off forces on, and those its being on forces on (the compiled tables converted)."""
        if self._compiled is not None:
            kernels, _, tables = self._compiled
            return tuple(kernels.as_dicts(tables, self.nodes))  # type: ignore[return-value]
        return self.conflict, self.strong_on, self.reach

    def on_set(self, c: int) -> int:
        return self.reach[c] | 1 << c

    def off_set(self, c: int) -> int:
        m = self._off.get(c)
        if m is None:
            m = 0
            conflict = self.conflict
            rest = self.on_set(c)
            while rest:
                low = rest & -rest
                m |= conflict[low.bit_length() - 1]
                rest ^= low
            self._off[c] = m
        return m

    def path(self, start: int, goal: int) -> list[int]:
        """A shortest chain of potentials (pids) from ``start`` to ``goal``: the first found
        by a breadth-first search from ``start``, which is kept and resumed for the next goal
        (a potential's parent is the one that first reached it, whichever goal is asked)."""
        search = self.search
        g = search.grid
        found = self._searches.get(start)
        if found is None:
            found = self._searches[start] = ({start: None}, [start])
        parent, frontier = found
        while frontier and goal not in parent:
            nxt = []
            for pid in frontier:
                if pid & 1:
                    targets = search.weak(pid, True, True, g.cand, g.vmask)
                else:
                    targets = [t for t, _ in search.strong(pid, True, True, g.cand, g.hpos)]
                for t in targets:
                    if t not in parent:
                        parent[t] = pid
                        nxt.append(t)
            frontier[:] = nxt
        out = [goal]
        while parent.get(out[-1]) is not None:
            out.append(parent[out[-1]])  # type: ignore[arg-type]
        out.reverse()
        return out

    def forcing_hints(self) -> list[Hint]:
        """The forcing chains (X and XY): candidates whose being on forces them off, or whose
        being off forces them on."""
        V = self.search.V
        cand = self.search.grid.cand
        out = []
        for c, contradiction in self.forcing_starts():
            var, v = divmod(c, V)
            pid = (c << 1) | 1
            if contradiction:
                path = self.path(pid, pid ^ 1)
                out.append(self.chain_hint(path, (), ((var, v),), pid))
            else:
                path = self.path(pid ^ 1, pid)
                elims = tuple((var, w) for w in values_of(cand[var] & ~(1 << v)))
                out.append(self.chain_hint(path, ((var, v),), elims, pid ^ 1))
        return out

    def forcing_starts(self) -> list[tuple[int, bool]]:
        """The candidates that start a forcing chain, in order: (candidate, True) when its being
        on forces it off, (candidate, False) when its being off forces it on."""
        if self._compiled is not None:
            kernels, arrays, tables = self._compiled
            return kernels.forcing_starts(*arrays, tables)
        out = []
        for c in self.nodes:
            if self.conflict[c] & self.reach[c]:
                out.append((c, True))
                continue
            forced = 0
            for b in bits(self.strong_on[c]):
                forced |= self.on_set(b)
            if forced >> c & 1:
                out.append((c, False))
        return out

    def chain_hint(self, path, places, elims, source) -> Hint:
        cx = len(set(path))
        return Hint(
            round(7.0 + length_bonus(cx), 1),
            cx,
            4,
            0,
            "forcing-chain",
            placements=places,
            eliminations=elims,
            paths=(path,),
            source=(source,),
            static_paths=((path, None),),
        )

    def multiple_hints(self) -> list[Hint]:
        """Cell forcing chains (cells of three or more candidates) and region forcing chains,
        static."""
        out: list[Hint] = []
        for var, v, h, on_common, off_common in self.multiple_groups():
            about = (var, -1, 5, "cell") if h < 0 else ((h, v), h, 6, "region")
            branches = self.branches(var, v, h)
            out.extend(self.common(branches, *about, on_common, off_common))
        return out

    def branches(self, var: int, v: int, h: int) -> list[int]:
        """The candidates a multiple chain starts from: the cell's (house -1), or the places
        of value ``v`` in house ``h``."""
        g = self.search.grid
        V = self.search.V
        if h < 0:
            return [var * V + x for x in values_of(g.cand[var])]
        return [q * V + v for q in bits(g.hpos[h * V + v])]

    def multiple_groups(self) -> list[tuple[int, int, int, int, int]]:
        """The groups of branches whose chains share a conclusion, in the order SE offers
        them: (cell, value, house, on, off). Per cell of three or more candidates, its
        candidates (value and house -1), then per value of it and covering house of which it
        is the first place of the value (of two or more), those places; ``on`` and ``off``:
        the candidates every branch forces on and off."""
        if self._compiled is not None:
            kernels, arrays, tables = self._compiled
            return kernels.multiple_groups(*arrays, tables)
        search = self.search
        g = search.grid
        V = search.V
        out = []
        for var in range(g.N):
            m = g.cand[var]
            if m.bit_count() < 3:
                continue
            groups = [(-1, -1)]
            for v in values_of(m):
                for h in search.cover_of_var[var]:
                    pm = g.hpos[h * V + v]
                    if pm.bit_count() >= 2 and (pm & -pm).bit_length() - 1 == var:
                        groups.append((v, h))
            for v, h in groups:
                on_common = off_common = -1
                for b in self.branches(var, v, h):
                    on_common &= self.on_set(b)
                    off_common &= self.off_set(b)
                if on_common or off_common:
                    out.append((var, v, h, on_common, off_common))
        return out

    def common(
        self, branches, source, start_cause, sort_key, kind, on_common, off_common
    ) -> list[Hint]:
        """The chains from every branch to each candidate they all force on (``on_common``)
        or off (``off_common``), one hint per conclusion."""
        search = self.search
        out = []
        for table, mask in ((1, on_common), (0, off_common)):
            for t in bits(mask):
                goal = (t << 1) | table
                found = search.conclusion(goal)
                if found is None:
                    continue
                places, elims = found
                paths = [self.path((b << 1) | 1, goal) for b in branches]
                cx = sum(len(set(p)) for p in paths)
                out.append(
                    Hint(
                        round(8.0 + length_bonus(cx), 1),
                        cx,
                        sort_key,
                        0,
                        kind,
                        placements=places,
                        eliminations=elims,
                        paths=tuple(paths),
                        source=(source,),
                        static_paths=tuple((path, start_cause) for path in paths),
                    )
                )
        return out


def transitive(nodes: list[int], succ: dict[int, int]) -> dict[int, int]:
    """For each node, every node reachable from it in one or more steps (bitsets), by Tarjan's
    strongly connected components (a component's nodes share one reach). Components come out
    in reverse topological order, so a successor outside the component already has its reach,
    and a successor inside another successor's reach adds nothing to it."""
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    on_stack: set[int] = set()
    stack: list[int] = []
    reach: dict[int, int] = {}
    counter = 0
    for x in nodes:
        if not succ[x]:  # a component of its own that reaches nothing: done before the search
            index[x] = low[x] = counter
            counter += 1
            reach[x] = 0
    for root in nodes:
        if root in index:
            continue
        work = [(root, bits(succ[root]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, it = work[-1]
            advanced = False
            for nxt in it:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, bits(succ[nxt])))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                members = []
                inside = 0
                while True:
                    x = stack.pop()
                    on_stack.discard(x)
                    members.append(x)
                    inside |= 1 << x
                    if x == node:
                        break
                cyclic = len(members) > 1 or succ[node] >> node & 1
                out = 0
                for x in members:
                    out |= succ[x]
                out &= ~inside
                m = out
                while out:
                    low_bit = out & -out
                    r = reach[low_bit.bit_length() - 1]
                    m |= r
                    out &= ~r
                    out &= ~low_bit
                if cyclic:
                    m |= inside
                for x in members:
                    reach[x] = m
    return reach


def chain_of(node) -> list[int]:
    out = []
    while node is not None:
        out.append(node[0])
        node = node[1]
    out.reverse()
    return out


def chain_from(parents: dict[int, tuple[int, ...]], end: int) -> list[int]:
    """The main line of implications leading to ``end`` (first parents), assumption first."""
    out = [end]
    seen = {end}
    while True:
        par = parents.get(out[-1])
        if not par or par[0] in seen:
            break
        out.append(par[0])
        seen.add(par[0])
    out.reverse()
    return out


KIND_NAMES = {
    "x-cycle": "X-cycle",
    "y-cycle": "Y-cycle",
    "xy-cycle": "bidirectional cycle",
    "forcing-x-chain": "forcing X-chain",
    "forcing-chain": "forcing chain",
    "contradiction": "contradiction forcing chain",
    "double": "double forcing chain",
    "cell": "cell forcing chains",
    "region": "region forcing chains",
}


CHAIN_LEVELS: dict[tuple[str, int], tuple[str, str]] = {
    ("static", 0): (
        "Forcing chains and cycles",
        "Static chains on the grid as it stands, alternating strong links (a value with only "
        "two places in a house, or a cell with only two values) and weak links (two "
        "candidates that see each other). A cycle that closes removes every candidate seeing "
        "both ends of one of its weak links; a forcing chain from a candidate to its own "
        "opposite removes it. SE 6.5 for X-cycles and Y-cycles, 6.6 for forcing X-chains, 7.0 "
        "once both kinds of link mix, each plus the length bonus.",
    ),
    ("nishio", 0): (
        "Nishio",
        "One value assumed in a cell and followed as the grid empties, with single-place and "
        "single-value moves only: when the value is left with no place in a house, or a cell "
        "with none, the assumption was false. The first chain that lets the grid change as "
        "it goes. SE 7.5 plus the length bonus.",
    ),
    ("multiple", 0): (
        "Multiple forcing chains",
        "Several static chains at once: every candidate of one cell (a cell forcing chain), or "
        "every place of one value in a house (a region forcing chain), is followed, and what "
        "all of them reach holds whichever is true. SE 8.0 plus the length bonus.",
    ),
    ("dynamic", 0): (
        "Dynamic forcing chains",
        "Chains from a candidate both on and off that let the grid empty as they go, each link "
        "using what the earlier ones removed: a contradiction, a double implication (on and "
        "off both lead to the same conclusion), or cell and region chains built that way. SE "
        "8.5 plus the length bonus.",
    ),
    ("dynamic", 1): (
        "Dynamic forcing chains (+)",
        "Dynamic chains inside which the simple rules act too on the grid the chain has "
        "emptied: locked candidates, hidden and naked pairs and X-wings may each be a link "
        "(SE's 'plus'). SE 9.0 plus the length bonus.",
    ),
    ("dynamic", 2): (
        "Nested forcing chains",
        "Dynamic chains (+) inside which whole static forcing chains and cycles (the 6.5 to 7.0 "
        "kinds) may be a link on the emptied grid: a chain of chains, one level deep. SE 9.5 "
        "plus the length bonus.",
    ),
    ("dynamic", 3): (
        "Nested multiple forcing chains",
        "Dynamic chains (+) inside which multiple forcing chains (cell and region, the 8.0 "
        "kind) may be a link on the emptied grid. SE 10.0 plus the length bonus.",
    ),
    ("dynamic", 4): (
        "Nested dynamic forcing chains",
        "Dynamic chains (+) inside which dynamic forcing chains (the 8.5 kind) may be a link "
        "on the emptied grid. SE 10.5 plus the length bonus.",
    ),
    ("dynamic", 5): (
        "Nested dynamic forcing chains (+)",
        "Dynamic chains (+) inside which dynamic forcing chains and nested forcing chains (the "
        "8.5 and 9.5 kinds, the latter nesting static chains in turn) may be a link on the "
        "emptied grid: two levels of nesting, how Sudoku Explainer rates the hardest puzzles "
        "known (up to about 11.9). SE 11.0 plus the length bonus.",
    ),
}
"""Each chain level's title and what sets it apart, by (mode, nesting)."""


class ChainTechnique(Technique):
    name = "forcing-chains"
    title = "Forcing chains"
    description = (
        "Chains of implications between candidates: if this, then that. Cycles and forcing "
        "chains use the grid as it stands; Nishio follows one value as the grid empties; "
        "multiple forcing chains show that every candidate of a cell (or every place of a value "
        "in a house) leads to the same conclusion; dynamic chains let the grid empty as they go "
        "and, nested, use locked candidates and pairs on the way. Rated as Sudoku Explainer does, "
        "with a bonus for long chains."
    )
    batch = False

    reads_solutions = False

    def __init__(
        self,
        cost: float,
        level: str = "",
        name: str | None = None,
        mode: str = "static",
        nesting: int = 0,
    ) -> None:
        super().__init__(cost, level, name)
        self.mode = mode
        self.nesting = nesting
        self.title, self.description = CHAIN_LEVELS.get(
            (mode, nesting), (self.title, self.description)
        )

    @property
    def needs_unique(self) -> bool:
        """SE nests chains (10.0 and up) only for valid puzzles."""
        return self.nesting >= 2

    def find(self, ctx: Context) -> Iterator[Step]:
        if self.nesting >= 2 and not ctx.engine.unique:
            return  # SE nests chains only for valid puzzles: the exact search must say unique
        search = ChainSearch(ctx, self.nesting)
        search.first = ctx.settle
        search.best_only = not ctx.settle  # one step of the first-ranked hint
        if self.mode in STATIC_MODES and ctx.settle and self.nesting == 0:
            found = search.static_conclusions(self.mode)
            if found is not None:  # all at once from the reach of every potential
                if found[0] or found[1]:
                    yield self.make(placements=found[0], eliminations=found[1], kind="all")
                return
        if self.mode in STATIC_MODES and not search.static_may_find(self.mode, self.nesting):
            return  # shown empty by the reach of every potential (chain_reach)
        if self.mode == "nishio" and not search.nishio_may_find():
            return  # shown empty value by value (chain_reach)
        if self.mode == "static":
            hints = search.static_hints()
        elif self.mode == "multiple" and self.nesting == 0:
            hints = search.dynamic_hints(self.mode, search.multiple_sources())
        else:
            hints = search.dynamic_hints(self.mode)
        if not hints:
            return
        # Cycles and forcing chains (static, not nested): every hint of the best rating in one
        # step, so that the step and the grid after it do not depend on which SE's order ranks
        # first (a symmetry of the grid changes that). The other chain kinds keep SE's first
        # hint: SE's dynamic searches rate a conclusion by the first chain they meet, which a
        # symmetry may change too, so taking them all would not make those ratings symmetric,
        # only move them away from SE's (bench/sudoku_se.py --min-se 6.0: 95.3 % exact with
        # static ties taken, as with none; 94.2 % with every kind's)
        best = min(hints)
        placements, eliminations, also = best.placements, best.eliminations, 0
        if self.mode == "static" and self.nesting == 0:
            ties = {
                (h.placements, h.eliminations) for h in hints if h.difficulty == best.difficulty
            }
            ties.discard((best.placements, best.eliminations))
            placements = tuple(dict.fromkeys([*placements, *(p for t in ties for p in t[0])]))
            eliminations = tuple(dict.fromkeys([*eliminations, *(e for t in ties for e in t[1])]))
            also = len(ties)
        # SE's length bonus (and, for static chains, the kind's offset) on the configured cost
        offset = best.difficulty - base_rating(self.mode, self.nesting)
        step = self.make(
            placements=placements,
            eliminations=eliminations,
            also=also,
            kind=best.kind,
            chains=best.chains,
            values=search.V,
            rating=best.difficulty,
            nodes=best.complexity,
            nested=nested_data(best),
        )
        cost = round(self.cost + offset, 2)
        if cost != step.cost:
            step = replace(step, cost=cost)
        yield step

    def evidence(self, step: Step, model: Model) -> Evidence:
        """The chains shown as nodes and links (weak from on to off, strong from off to on in
        static chains, implications in the others), and the chains of the hints nested in
        them as inner evidences."""
        V = step.data.get("values")
        if not V:
            return super().evidence(step, model)
        houses = houses_of(model)
        outer = chains_evidence(step.data["chains"], V, self.mode in STATIC_MODES, houses)
        inner = tuple(
            chains_evidence(hint["chains"], V, hint["rule"] in STATIC_MODES, houses)
            for hint in step.data.get("nested", ())
        )
        return outer.with_(changed=frozenset(step.changed_vars()), inner=inner)

    def explain(self, step: Step, ex: Explainer) -> str:
        V = step.data["values"]
        kind = KIND_NAMES.get(step.data["kind"], step.data["kind"])

        def node(pid: int) -> str:
            var, v = divmod(pid >> 1, V)
            sign = "=" if pid & 1 else "≠"
            return f"{ex.cell(var)}{sign}{ex.value(v)}"

        def shown(chains) -> str:
            return "; ".join(" ⇒ ".join(node(p) for p in chain) for chain in chains)

        prefix = "forcing chains" if self.mode != "static" else ""
        label = f"{kind} ({step.data['nodes']} nodes)"
        if prefix and prefix not in kind:
            label = f"{self.name.replace('-', ' ')}: {label}"
        text = f"{label}: " + shown(step.data["chains"])
        if step.data.get("also"):
            text += f"; {step.data['also']} more chain(s) of this rating remove the rest"
        for i, inner in enumerate(step.data.get("nested", ()), 1):
            name = KIND_NAMES.get(inner["kind"], inner["kind"])
            removed = ", ".join(f"{ex.cell(var)}≠{ex.value(v)}" for var, v in inner["eliminations"])
            text += (
                f" [nested {i}: {RULE_NAMES.get(inner['rule'], inner['rule'])}, {name} "
                f"({inner['nodes']} nodes) removes {removed}: {shown(inner['chains'])}]"
            )
        return text


def chains_evidence(
    chains: Sequence[Sequence[int]], V: int, static: bool, houses: Houses
) -> Evidence:
    """The evidence of chains of potentials (``pid``: ``(var * V + value) << 1 | on``): their
    nodes and links, their cells, and the houses a link between two cells of one value
    crosses."""
    found = candidate_chains(
        ([((pid >> 1) // V, (pid >> 1) % V, bool(pid & 1)) for pid in chain] for chain in chains),
        strong_links=static,
    )
    shared: set[int] = set()
    for link in found.links:
        a, b = found.nodes[link.source], found.nodes[link.target]
        if a.var != b.var and a.value == b.value:
            shared |= set(houses.of_var[a.var]) & set(houses.of_var[b.var])
    units = sorted(shared)
    return Evidence(
        used=frozenset(node.var for node in found.nodes),
        units=frozenset(v for h in units for v in houses.cells[h]),
        changed=frozenset(),
        unit_labels=tuple(houses.labels[h] for h in units),
        nodes=tuple(found.nodes),
        links=tuple(found.links),
    )


RULE_NAMES = {
    "static": "forcing chains",
    "multiple": "multiple forcing chains",
    "dynamic": "dynamic forcing chains",
    "dynamic 2": "dynamic forcing chains (+ forcing chains)",
}


def nested_data(hint: Hint) -> list[dict]:
    """The inner hints a hint rests on, depth first, as plain data for the step."""
    out: list[dict] = []
    seen: set[int] = set()

    def visit(h: Hint) -> None:
        for inner in h.nested:
            if id(inner) in seen:
                continue
            seen.add(id(inner))
            out.append(
                {
                    "rule": inner.rule,
                    "kind": inner.kind,
                    "nodes": inner.complexity,
                    "rating": inner.difficulty,
                    "eliminations": sorted(set(inner.eliminations)),
                    "chains": [list(c) for c in inner.chains],
                }
            )
            visit(inner)

    visit(hint)
    return out
