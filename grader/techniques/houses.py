"""House techniques: singles, locked candidates and naked / hidden subsets.

A *house* is an :class:`~grader.core.constraints.AllDifferent` constraint (a row, column or box of a
sudoku, a line of a latin square). A house may be *partial*: fewer cells than values (a siteswap
run cut short by a hole), so a value need not appear in it. What a house must hold is its
``covers`` mask; hidden singles, hidden subsets, the source of locked candidates and the base
lines of fish reason only about those values. Naked subsets, naked singles and wings need only
"no value twice", which every house gives.

A cell counts as *placed* when it has one candidate that no peer still holds (a cell with one
candidate whose value still sits in a peer is what the naked single finds) and, when the run
keeps track (:attr:`~grader.core.technique.Context.stated`), the puzzle or a step stated it: a cell
left with one candidate by eliminations is then still placed by a single. Placements carry the
eliminations of the placed value from the peers, as a player crossing it out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import reduce
from itertools import combinations
from operator import or_
from typing import Any

from grader.core.constraints import AllDifferent, Constraint
from grader.core.evidence import Evidence
from grader.core.explain import Explainer
from grader.core.model import Model, State, is_single, masks_reader, single_value, values_of
from grader.core.shared import SharedByKey
from grader.core.step import Step
from grader.core.technique import Context, Technique


@dataclass(frozen=True)
class Houses:
    """The houses of a model and the lookups techniques need, computed once per model."""

    cells: tuple[tuple[int, ...], ...]
    labels: tuple[str, ...]
    constraint_index: tuple[int, ...]
    covering: tuple[bool, ...]
    """Whether a house holds exactly its ``covers`` values (as many cells as values)."""
    covers: tuple[int, ...]
    """The values each house must hold (0: none; only ``no value twice``)."""
    is_box: tuple[bool, ...]
    shape: tuple[str, ...]
    """``row``, ``column`` or ``box`` (a house spanning several rows and columns)."""
    of_var: tuple[tuple[int, ...], ...]
    peers: tuple[tuple[int, ...], ...]
    crossings: tuple[tuple[int, int, tuple[int, ...]], ...]
    """Pairs (box, line, shared cells) of a box and a line sharing at least two cells."""
    values: int
    read_peers: tuple[Callable[[State], tuple[int, ...]], ...]
    """Per cell, a C-level getter of its peers' masks."""
    peer_bits: tuple[int, ...] = ()
    """Per cell, its peers as a bitset of cells."""
    read_crossings: tuple[tuple[Callable[[State], tuple[int, ...]], ...], ...] = ()
    """Per crossing, getters of the masks of its shared cells, of the rest of its box and of
    the rest of its line."""
    of_cells: Mapping[tuple[int, ...], int] = field(default_factory=dict)
    """A house's index by its cells (its constraint's ``vars``)."""
    of_constraint: Mapping[int, int] = field(default_factory=dict)
    """A house's index by its constraint's index (as ``of_cells`` of its ``vars``)."""

    def peers_hold(self, state: State, var: int, value: int) -> bool:
        """Whether a peer of ``var`` still has ``value`` as a candidate."""
        return bool(reduce(or_, self.read_peers[var](state), 0) >> value & 1)

    def placed(self, state: State, var: int) -> bool:
        mask = state[var]
        return not mask & (mask - 1) and not reduce(or_, self.read_peers[var](state), 0) & mask

    def placement(self, state: State, var: int, value: int) -> tuple[list, list]:
        """A placement with the peer eliminations it implies."""
        bit = 1 << value
        return [(var, value)], [(p, value) for p in self.peers[var] if state[p] & bit]

    def positions(self, state: State, house: int, value: int) -> list[int]:
        bit = 1 << value
        return [v for v in self.cells[house] if state[v] & bit]

    def open_cells(
        self,
        state: State,
        house: int,
        placed: set[int] | None = None,
        stated: set[int] | None = None,
    ) -> list[int]:
        """The cells of ``house`` not yet placed. ``placed``: cells known placed (skipped; the
        cells found placed are added: a placed cell stays placed as the state narrows); None:
        a fresh reading. ``stated`` (with ``placed``): only these cells can be placed
        (:attr:`Context.stated`)."""
        if placed is None:
            return [v for v in self.cells[house] if not self.placed(state, v)]
        out = []
        read_peers = self.read_peers
        for v in self.cells[house]:
            if v in placed:
                continue
            mask = state[v]
            if (
                mask & (mask - 1)
                or (stated is not None and v not in stated)
                or reduce(or_, read_peers[v](state), 0) & mask
            ):
                out.append(v)
            else:
                placed.add(v)
        return out


def placed_cells(ctx: Context) -> set[int]:
    """The cells known placed in this propagation (see :meth:`Houses.open_cells`)."""
    found = ctx.lasting.get("placed")
    if found is None:
        found = ctx.lasting["placed"] = set()
    return found


def open_in(ctx: Context, houses: Houses, house: int) -> list[int]:
    """The cells of ``house`` not placed yet (see :meth:`Houses.open_cells`)."""
    return houses.open_cells(ctx.state, house, placed_cells(ctx), ctx.stated)


_SHARED_HOUSES: SharedByKey[Houses] = SharedByKey(32)
"""Houses kept for models of that many keys (every 9x9 sudoku shares one)."""


def houses_of(model: Model) -> Houses:
    """The houses of a model: memoized on it, and shared by models of the same key (the same
    constraints), as a file of puzzles builds a model per puzzle."""
    found = model.memo.get("houses")
    if found is None:
        found = model.memo["houses"] = _SHARED_HOUSES.get(model.key, lambda: _build_houses(model))
    return found


def _build_houses(model: Model) -> Houses:
    cells, labels, index, covering, covers, is_box, shape = [], [], [], [], [], [], []
    values = 0
    for ci, constraint in enumerate(model.constraints):
        if not isinstance(constraint, AllDifferent):
            continue
        cells.append(constraint.vars)
        labels.append(constraint.label)
        index.append(ci)
        full = bool(constraint.covering) and constraint.covering.bit_count() == len(constraint.vars)
        covering.append(full)
        covers.append(constraint.covering)
        rows = {model.variables[v].row for v in constraint.vars}
        cols = {model.variables[v].col for v in constraint.vars}
        is_box.append(len(rows) > 1 and len(cols) > 1)
        shape.append("row" if len(rows) == 1 else "column" if len(cols) == 1 else "box")
        for v in constraint.vars:
            values |= model.variables[v].domain
    of_var: list[list[int]] = [[] for _ in model.variables]
    for h, house in enumerate(cells):
        for v in house:
            of_var[v].append(h)
    peers = []
    for var, hs in enumerate(of_var):
        seen: set[int] = set()
        for h in hs:
            seen.update(cells[h])
        seen.discard(var)
        peers.append(tuple(sorted(seen)))
    crossings = []
    for b, box in enumerate(cells):
        if not is_box[b]:
            continue
        for line, line_cells in enumerate(cells):
            if is_box[line]:
                continue
            shared = tuple(sorted(set(box) & set(line_cells)))
            if len(shared) >= 2:
                crossings.append((b, line, shared))
    result = Houses(
        cells=tuple(cells),
        labels=tuple(labels),
        constraint_index=tuple(index),
        covering=tuple(covering),
        covers=tuple(covers),
        is_box=tuple(is_box),
        shape=tuple(shape),
        of_var=tuple(tuple(h) for h in of_var),
        peers=tuple(peers),
        crossings=tuple(crossings),
        values=values,
        read_peers=tuple(masks_reader(p) for p in peers),
        peer_bits=tuple(sum(1 << p for p in cell_peers) for cell_peers in peers),
        of_cells={house: cells.index(house) for house in cells},  # the first of equal ones
        of_constraint={ci: cells.index(model.constraints[ci].vars) for ci in index},
        read_crossings=tuple(
            (
                masks_reader(shared),
                masks_reader([v for v in cells[box] if v not in shared]),
                masks_reader([v for v in cells[line] if v not in shared]),
            )
            for box, line, shared in crossings
        ),
    )
    return result


def crossed_out(model: Model, state: State) -> State:
    """The candidates a solver starts from: every given's value crossed out of its house peers.

    Sudoku Explainer starts there too, so a given is never mistaken for a naked single. A cell
    left with one candidate stays open for the techniques (a naked or hidden single). A model
    without houses starts from ``state`` as it is."""
    houses = houses_of(model)
    given = [mask if not mask & (mask - 1) else 0 for mask in state]  # the singles' values
    read_peers = houses.read_peers
    return [
        mask & ~reduce(or_, read_peers[var](given), 0) if mask & (mask - 1) else mask
        for var, mask in enumerate(state)
    ]


def stated_givens(model: Model, givens: State) -> set[int] | None:
    """The cells a puzzle states, for a family that places every other cell by a step (see
    :meth:`grader.rating.family.Family.stated_cells`): its givens, when the model has houses and
    each holds every value of its cells (a full house or hidden single can then place any cell);
    None when a house may lack values (a siteswap run cut short) or there is none."""
    houses = houses_of(model)
    if not houses.cells or not all(houses.covering):
        return None
    return {var for var, mask in enumerate(givens) if is_single(mask)}


HouseSteps = Callable[[Context, Houses, int, set[int]], list[Step]]
"""A technique's steps in a house (its index), given the houses and the cells known placed."""


def scan_houses(ctx: Context, pending: set[int], steps_of: HouseSteps) -> list[Step]:
    """:meth:`Technique.wave_in` of a technique asking house by house, in one loop: the model's
    houses and the placed cells are read once a wave."""
    houses = houses_of(ctx.model)
    of_constraint = houses.of_constraint
    placed = placed_cells(ctx)
    wave: list[Step] = []
    barren = []
    for ci in sorted(pending):
        found = steps_of(ctx, houses, of_constraint[ci], placed)
        if found:
            wave += found
        else:
            barren.append(ci)
    pending.difference_update(barren)
    return wave


class HouseTechnique(Technique):
    """A technique that reads one house at a time (rescanned only where cells changed)."""

    kinds = ("alldifferent",)
    needs_covering = False
    """Only houses that must hold some values (full house: every value of its cells)."""
    boxes: bool | None = None
    """Only boxes (True), only lines (False) or any house (None)."""
    reads_peers = False
    """Whether a change outside the house alone can give :meth:`find_in` something new there
    (it is then rescanned when a peer of its cells changes, not only its own cells). A peer's
    change can only make a cell of the house *placed* (its value gone from every peer): that
    value then has that one place in the house, so hidden singles and subsets have nothing new
    to find, and naked subsets read only cells with several candidates; but a full house may
    appear once its other cells are placed. (A step that changes only the peers of a house
    leaves that house's later techniques unasked in :meth:`~grader.core.engine.Engine.settle`,
    which scans the house again after any step it took there.)"""

    def applies_to(self, constraint: Constraint, model: Model) -> bool:
        if not isinstance(constraint, AllDifferent):
            return False
        houses = houses_of(model)
        h = houses.constraint_index.index(model.constraints.index(constraint))
        if self.needs_covering and not houses.covers[h]:
            return False
        return self.boxes is None or houses.is_box[h] == self.boxes

    def scope(self, constraint: Constraint, model: Model) -> Iterable[int]:
        if not self.reads_peers:
            return constraint.vars
        houses = houses_of(model)
        out = set(constraint.vars)
        for v in constraint.vars:
            out.update(houses.peers[v])
        return out

    def house(self, ctx: Context, constraint: Constraint) -> int:
        return houses_of(ctx.model).of_cells[constraint.vars]


class HouseByHouse(HouseTechnique):
    """A house technique whose steps in one house come from :meth:`steps_of_house`, for a
    house alone (:meth:`steps_in`) or every pending house of a wave (:func:`scan_houses`)."""

    def steps_of_house(self, ctx: Context, houses: Houses, h: int, placed: set[int]) -> list[Step]:
        """The steps in house ``h`` (``placed``: :func:`placed_cells`)."""
        raise NotImplementedError

    def steps_in(self, ctx: Context, constraint: Constraint) -> list[Step]:
        houses = houses_of(ctx.model)
        h = houses.of_cells[constraint.vars]  # as self.house
        return self.steps_of_house(ctx, houses, h, placed_cells(ctx))

    def wave_in(
        self, ctx: Context, pending: set[int], constraints: Sequence[Constraint]
    ) -> list[Step]:
        return scan_houses(ctx, pending, self.steps_of_house)


class OpenCellsTechnique(HouseByHouse):
    """A house technique that searches a house's open cells (naked and hidden subsets): a quick
    test picks the cells to search (:meth:`cells_to_search`, None: nothing to find), then
    :meth:`_found` searches them."""

    def cells_to_search(
        self, state: State, houses: Houses, h: int, open_cells: list[int]
    ) -> list[int] | None:
        """The cells of house ``h`` to search, given its open cells; None: nothing to find."""
        raise NotImplementedError

    def _found(self, ctx: Context, houses: Houses, h: int, cells: list[int]) -> Iterator[Step]:
        """The steps among ``cells`` of house ``h`` (past the quick test)."""
        raise NotImplementedError

    def steps_of_house(self, ctx: Context, houses: Houses, h: int, placed: set[int]) -> list[Step]:
        state = ctx.state
        open_cells = houses.open_cells(state, h, placed, ctx.stated)  # as open_in
        cells = self.cells_to_search(state, houses, h, open_cells)
        return [] if cells is None else list(self._found(ctx, houses, h, cells))

    def find_in(self, ctx: Context, constraint: Constraint) -> Iterator[Step]:
        houses = houses_of(ctx.model)
        h = self.house(ctx, constraint)
        cells = self.cells_to_search(ctx.state, houses, h, open_in(ctx, houses, h))
        if cells is not None:
            yield from self._found(ctx, houses, h, cells)


# -- singles ---------------------------------------------------------------------------------


class FullHouse(HouseTechnique):
    name = "full-house"
    title = "Full house"
    description = "A house with a single open cell: it takes the one value the house lacks."
    needs_covering = True
    reads_peers = True

    def find_in(self, ctx: Context, constraint: Constraint) -> Iterator[Step]:
        return iter(self.steps_in(ctx, constraint))

    def steps_in(self, ctx: Context, constraint: Constraint) -> list[Step]:
        complete = ctx.lasting.get("complete houses")
        if complete is not None and constraint in complete:
            return []  # every cell placed: so it stays (rescanned as its peers change)
        state = ctx.state
        for v in constraint.vars:
            mask = state[v]
            if mask & (mask - 1):
                return []  # an open cell with several candidates: not one open cell with one
        return self.last_cell(ctx, constraint)

    def last_cell(self, ctx: Context, constraint: Constraint) -> list[Step]:
        """:meth:`steps_in` of a house whose every cell has at most one candidate and that is
        not remembered complete (a house found complete here is remembered for the run)."""
        state = ctx.state
        houses = houses_of(ctx.model)
        h = self.house(ctx, constraint)
        if not houses.covering[h]:
            return []  # a partial house may lack values: its last open cell is not forced
        open_cells = open_in(ctx, houses, h)
        if len(open_cells) != 1:
            if not open_cells:
                ctx.lasting.setdefault("complete houses", set()).add(constraint)
            return []
        var = open_cells[0]
        if not is_single(state[var]):
            return []
        value = single_value(state[var])
        places, elims = houses.placement(state, var, value)
        return [self.make(places, elims, unit=houses.labels[h], cell=var)]

    def wave_in(
        self, ctx: Context, pending: set[int], constraints: Sequence[Constraint]
    ) -> list[Step]:
        """:meth:`steps_in` of each pending house in one loop: the houses remembered complete
        and those with a cell of several candidates (most) are dropped at once."""
        state = ctx.state
        complete = ctx.lasting.get("complete houses") or ()
        last_cell = self.last_cell
        wave: list[Step] = []
        barren = []
        for ci in sorted(pending):
            constraint = constraints[ci]
            if constraint in complete:
                barren.append(ci)
                continue
            for v in constraint.vars:
                mask = state[v]
                if mask & (mask - 1):
                    barren.append(ci)
                    break
            else:
                found = last_cell(ctx, constraint)
                if found:
                    wave += found
                else:
                    barren.append(ci)
        pending.difference_update(barren)
        return wave

    def explain(self, step: Step, ex: Explainer) -> str:
        return f"it is the last open cell of {step.data['unit']}"


class HiddenSingle(HouseByHouse):
    name = "hidden-single"
    title = "Hidden single"
    description = "A value with one place left in a house goes there."
    needs_covering = True

    def __init__(
        self, cost: float, level: str = "", name: str | None = None, boxes: bool | None = None
    ) -> None:
        super().__init__(cost, level, name)
        self.boxes = boxes

    def find_in(self, ctx: Context, constraint: Constraint) -> Iterator[Step]:
        return iter(self.steps_in(ctx, constraint))

    def steps_of_house(self, ctx: Context, houses: Houses, h: int, placed: set[int]) -> list[Step]:
        singles = hidden_singles(houses, h, ctx.state, placed)
        return self.placing(ctx, houses, h, singles, placed) if singles else []

    def placing(
        self, ctx: Context, houses: Houses, h: int, singles: int, placed: set[int]
    ) -> list[Step]:
        """The steps placing the values ``singles`` (one place each in house ``h``), but for
        cells already placed (added to ``placed``)."""
        state = ctx.state
        cells = houses.cells[h]
        stated = ctx.stated
        steps: list[Step] = []
        for value in values_of(singles):
            bit = 1 << value
            var = cells[0]
            for var in cells:  # the value's one place
                if state[var] & bit:
                    break
            if (
                state[var] == bit  # its one candidate
                and not houses.peers_hold(state, var, value)
                and (stated is None or var in stated)
            ):
                placed.add(var)
                continue
            places, elims = houses.placement(state, var, value)
            steps.append(self.make(places, elims, unit=houses.labels[h], cell=var, value=value))
        return steps

    def explain(self, step: Step, ex: Explainer) -> str:
        return f"the only place for {ex.value(step.data['value'])} in {step.data['unit']}"


def hidden_singles(houses: Houses, h: int, state: State, placed: set[int]) -> int:
    """The values with one place in house ``h`` that it must hold and no placed cell holds."""
    once = twice = done = 0
    for v in houses.cells[h]:
        mask = state[v]
        twice |= once & mask
        once |= mask
        if v in placed:
            done |= mask
    return once & ~twice & houses.covers[h] & ~done


class NakedSingle(Technique):
    name = "naked-single"
    title = "Naked single"
    description = "A cell with one candidate left takes it, and its peers lose that value."

    reads_solutions = False

    def find(self, ctx: Context) -> Iterator[Step]:
        houses = houses_of(ctx.model)
        state = ctx.state
        stated = ctx.stated
        for var, mask in enumerate(state):
            if (
                is_single(mask)
                and houses.peers[var]
                and (
                    (stated is not None and var not in stated)
                    or houses.peers_hold(state, var, mask.bit_length() - 1)
                )
            ):
                value = single_value(mask)
                places, elims = houses.placement(state, var, value)
                yield self.make(places, elims, cell=var)

    def explain(self, step: Step, ex: Explainer) -> str:
        return f"{ex.cell(step.data['cell'])} has no other candidate left"

    def evidence(self, step: Step, model: Model) -> Evidence:
        """The cell and the houses whose values left it one candidate."""
        houses = houses_of(model)
        cell = step.data["cell"]
        units = frozenset(v for h in houses.of_var[cell] for v in houses.cells[h])
        return Evidence(
            used=frozenset((cell,)),
            units=units,
            changed=frozenset(step.changed_vars()),
            unit_labels=tuple(houses.labels[h] for h in sorted(houses.of_var[cell])),
        )


# -- locked candidates -------------------------------------------------------------------------


def crossing_unions(
    houses: Houses, state: State, part: int, memo: dict[Any, Any] | None = None
) -> list[int]:
    """Per crossing, the union of the candidates of its shared cells (``part`` 0), of the rest
    of its box (1) or of the rest of its line (2); kept in ``memo`` (a view of this state,
    :attr:`Context.memo`) so pointing and claiming, direct or not, read each cell once."""
    key = ("crossing unions", part)
    found = None if memo is None else memo.get(key)
    if found is None:
        found = [reduce(or_, read[part](state), 0) for read in houses.read_crossings]
        if memo is not None:
            memo[key] = found
    return found


def locked_candidates(
    houses: Houses, state: State, pointing: bool, memo: dict[Any, Any] | None = None
) -> Iterator[tuple[int, int, int, list[tuple[int, int]]]]:
    """(source house, target house, value, eliminations) of every locked-candidates pattern.

    Pointing: a value's places in a box all lie in one line, so the rest of the line loses it.
    Claiming: a value's places in a line all lie in one box, so the rest of the box loses it.
    """
    covers = houses.covers
    crossings = houses.crossings
    inside_of = crossing_unions(houses, state, 0, memo)
    outside_of = crossing_unions(houses, state, 1 if pointing else 2, memo)
    target_of = crossing_unions(houses, state, 2 if pointing else 1, memo)
    for i, (inside, outside, target_rest) in enumerate(
        zip(inside_of, outside_of, target_of, strict=True)
    ):
        # values whose places in the source all lie inside, still in the rest of the target
        locked = inside & ~outside & target_rest
        if not locked:
            continue
        box, line, shared = crossings[i]
        source, target = (box, line) if pointing else (line, box)
        # only values the source must hold
        locked &= covers[source]
        if not locked:
            continue
        shared_set = set(shared)
        for value in values_of(locked):
            bit = 1 << value
            places = [v for v in shared if state[v] & bit]
            if len(places) < 2:
                continue
            if any(is_single(state[v]) and not houses.peers_hold(state, v, value) for v in places):
                continue
            elims = [
                (v, value) for v in houses.cells[target] if v not in shared_set and state[v] & bit
            ]
            if elims:
                yield source, target, value, elims


class LockedCandidates(Technique):
    name = "pointing"
    title = "Locked candidates"
    description = (
        "Pointing: a value's places in a box all lie in one row or column, so the rest of that "
        "line loses the value. Claiming: a value's places in a line all lie in one box, so the "
        "rest of the box loses it."
    )

    reads_solutions = False

    def __init__(
        self, cost: float, level: str = "", name: str | None = None, pointing: bool = True
    ) -> None:
        super().__init__(cost, level, name)
        self.pointing = pointing

    def find(self, ctx: Context) -> Iterator[Step]:
        houses = houses_of(ctx.model)
        for source, target, value, elims in locked_candidates(
            houses, ctx.state, self.pointing, ctx.memo
        ):
            yield self.make(
                eliminations=elims,
                unit=houses.labels[source],
                target=houses.labels[target],
                value=value,
            )

    def explain(self, step: Step, ex: Explainer) -> str:
        value = ex.value(step.data["value"])
        return f"in {step.data['unit']}, {value} can only be where it meets {step.data['target']}"


class DirectLockedCandidates(LockedCandidates):
    """Locked candidates whose eliminations leave a value one place in a parallel house."""

    name = "direct-pointing"
    title = "Direct pointing"
    description = (
        "Locked candidates that leave a value with a single place in another house: the value "
        "is placed there (Sudoku Explainer's direct pointing and direct claiming)."
    )

    def find(self, ctx: Context) -> Iterator[Step]:
        houses = houses_of(ctx.model)
        state = ctx.state
        seen: set[tuple[int, int]] = set()
        for source, target, value, elims in locked_candidates(
            houses, state, self.pointing, ctx.memo
        ):
            removed = {v for v, _ in elims}
            kind = houses.shape[source]
            for h in sorted({h for v in removed for h in houses.of_var[v]}):
                if h == source or houses.shape[h] != kind or not houses.covers[h] >> value & 1:
                    continue
                places = houses.positions(state, h, value)
                if len(places) < 2:
                    continue
                left = [v for v in places if v not in removed]
                if len(left) == 1 and (left[0], value) not in seen:
                    seen.add((left[0], value))
                    places_, elims_ = houses.placement(state, left[0], value)
                    yield self.make(
                        places_,
                        elims_,
                        unit=houses.labels[source],
                        target=houses.labels[target],
                        house=houses.labels[h],
                        value=value,
                    )

    def explain(self, step: Step, ex: Explainer) -> str:
        value = ex.value(step.data["value"])
        return (
            f"in {step.data['unit']}, {value} can only be where it meets {step.data['target']}, "
            f"which leaves {value} one place in {step.data['house']}"
        )


# -- subsets -----------------------------------------------------------------------------------


def naked_groups(masks: Mapping[int, int], k: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """Groups of ``k`` keys whose masks hold only ``k`` values between them (a naked subset),
    each with that union, in the order of ``masks``: ``naked_groups({7: 0b11, 8: 0b11}, 2)``
    gives ``((7, 8), 0b11)``."""
    small = [key for key, mask in masks.items() if mask.bit_count() <= k]
    for group in combinations(small, k):
        union = 0
        for key in group:
            union |= masks[key]
        if union.bit_count() == k:
            yield group, union


class NakedSubset(OpenCellsTechnique):
    name = "naked-pair"
    title = "Naked subset"
    description = (
        "N open cells of a house whose candidates together are just N values: those values are "
        "taken by these cells, so the other cells of the house lose them."
    )

    def __init__(
        self, cost: float, level: str = "", name: str | None = None, degree: int = 2
    ) -> None:
        super().__init__(cost, level, name or self.default_name(degree=degree))
        self.degree = degree

    @classmethod
    def default_name(cls, degree: int = 2, **kwargs: Any) -> str:
        return f"naked-{SUBSET_NAMES[degree]}"

    def cells_to_search(
        self, state: State, houses: Houses, h: int, open_cells: list[int]
    ) -> list[int] | None:
        """The open cells not single, when they are more than k."""
        several = [v for v in open_cells if state[v] & (state[v] - 1) or not state[v]]
        return several if len(several) > self.degree else None

    def _found(self, ctx: Context, houses: Houses, h: int, open_cells: list[int]) -> Iterator[Step]:
        """The subsets among ``open_cells`` (those of house ``h`` not single), more than k."""
        state = ctx.state
        k = self.degree
        for group, union in naked_groups({v: state[v] for v in open_cells}, k):
            elims = [
                (v, x) for v in open_cells if v not in group for x in values_of(state[v] & union)
            ]
            if elims:
                yield self.make(
                    eliminations=elims, unit=houses.labels[h], cells=group, values=union
                )

    def explain(self, step: Step, ex: Explainer) -> str:
        values = ", ".join(ex.value(x) for x in values_of(step.data["values"]))
        return (
            f"{ex.cells(step.data['cells'])} hold only {values} between them, so the rest of "
            f"{step.data['unit']} cannot"
        )


class HiddenSubset(OpenCellsTechnique):
    name = "hidden-pair"
    title = "Hidden subset"
    description = (
        "N values whose places in a house are just N cells: those cells hold these values, so "
        "they lose their other candidates."
    )
    needs_covering = True

    def __init__(
        self,
        cost: float,
        level: str = "",
        name: str | None = None,
        degree: int = 2,
        direct: bool = False,
    ) -> None:
        super().__init__(cost, level, name or self.default_name(degree=degree, direct=direct))
        self.degree = degree
        self.direct = direct

    @classmethod
    def default_name(cls, degree: int = 2, direct: bool = False, **kwargs: Any) -> str:
        return f"{'direct-' if direct else ''}hidden-{SUBSET_NAMES[degree]}"

    def cells_to_search(
        self, state: State, houses: Houses, h: int, open_cells: list[int]
    ) -> list[int] | None:
        """The open cells, when :meth:`may_hold` lets them through."""
        return open_cells if self.may_hold(state, open_cells, houses.covers[h]) else None

    def may_hold(self, state: State, open_cells: Sequence[int], must: int) -> bool:
        """The quick test: enough open cells, and at least k values (of those the house must
        hold) with 2 to k places among them (counted as bitsets)."""
        k = self.degree
        if len(open_cells) <= (k if self.direct else 2 * k):
            return False
        if not 2 <= k <= 4:
            at_least = [0] * (k + 2)  # at_least[j]: the values with j or more places
            for v in open_cells:
                mask = state[v] & must
                for j in range(k + 1, 1, -1):
                    at_least[j] |= at_least[j - 1] & mask
                at_least[1] |= mask
            return (at_least[2] & ~at_least[k + 1]).bit_count() >= k
        one = two = three = four = five = 0  # the values with that many places or more
        for v in open_cells:  # unrolled up to quads: the wave loop's most asked test
            mask = state[v] & must
            five |= four & mask
            four |= three & mask
            three |= two & mask
            two |= one & mask
            one |= mask
        beyond = (three, four, five)[k - 2]  # k + 1 places or more
        return (two & ~beyond).bit_count() >= k

    def _found(self, ctx: Context, houses: Houses, h: int, open_cells: list[int]) -> Iterator[Step]:
        """The subsets of house ``h`` past the quick test."""
        state = ctx.state
        must = houses.covers[h]
        k = self.degree
        where: dict[int, int] = {}
        for i, v in enumerate(open_cells):
            for x in values_of(state[v] & must):  # only values the house must hold
                where[x] = where.get(x, 0) | 1 << i
        candidates = [x for x, m in where.items() if 2 <= m.bit_count() <= k]
        for group in combinations(sorted(candidates), k):
            cells_mask = 0
            for x in group:
                cells_mask |= where[x]
            if cells_mask.bit_count() != k:
                continue
            chosen = [open_cells[i] for i in range(len(open_cells)) if cells_mask >> i & 1]
            keep = sum(1 << x for x in group)
            elims = [(v, x) for v in chosen for x in values_of(state[v] & ~keep)]
            if not self.direct:
                if elims:
                    yield self.make(
                        eliminations=elims, unit=houses.labels[h], cells=chosen, values=keep
                    )
                continue
            for x, m in sorted(where.items()):
                if keep >> x & 1 or m.bit_count() < 2:
                    continue
                rest = m & ~cells_mask
                if rest.bit_count() == 1:
                    var = open_cells[rest.bit_length() - 1]
                    places, elims_ = houses.placement(state, var, x)
                    yield self.make(  # every value so placed: none comes first
                        places,
                        elims_,
                        unit=houses.labels[h],
                        cells=chosen,
                        values=keep,
                        value=x,
                    )

    def explain(self, step: Step, ex: Explainer) -> str:
        values = ", ".join(ex.value(x) for x in values_of(step.data["values"]))
        text = f"in {step.data['unit']}, {values} can only go in {ex.cells(step.data['cells'])}"
        if "value" in step.data:
            text += f", which leaves {ex.value(step.data['value'])} one place"
        return text


SUBSET_NAMES = {1: "single", 2: "pair", 3: "triple", 4: "quad", 5: "quint"}
