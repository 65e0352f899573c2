"""Sudoku's techniques and its technique table (Sudoku Explainer 1.2.1's ratings).

The house techniques, fish, wings and chains are the engine's; the patterns here are
Sudoku-only and rest on the puzzle having one solution: unique rectangles and the bivalue
universal grave (BUG). They are used only when the exact search has shown the puzzle unique
(the engine then knows exactly one solution)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import reduce
from itertools import combinations
from operator import or_

from grader.core.evidence import Evidence, constraints_by_label
from grader.core.explain import Explainer
from grader.core.model import Model, State, is_single, single_value, values_of
from grader.core.step import Step
from grader.core.technique import Context, Technique
from grader.rating.family import TechniqueSpec
from grader.techniques.fish import Fish
from grader.techniques.guess import Guess
from grader.techniques.houses import HiddenSubset, Houses, NakedSubset, houses_of
from rules.houses import house_table
from rules.sudoku.chains.chaining import ChainTechnique
from rules.sudoku.exclusion import AlignedExclusion


def known_unique(ctx: Context) -> bool:
    """Whether the puzzle is known to have exactly one solution."""
    return ctx.engine.unique


MAX_LOOP = 12
"""The longest unique loop looked for on a 9x9 grid (Sudoku Explainer's rating stops growing at
10 cells); larger grids look for rectangles only (the search grows with the candidates)."""


def loop_bonus(size: int) -> float:
    """Sudoku Explainer's extra rating for a unique loop of ``size`` cells (a rectangle: 0)."""
    if size >= 10:
        return 0.5
    return 0.2 if size >= 8 else 0.1 if size >= 6 else 0.0


def is_valid_loop(houses: Houses, loop: list[int]) -> bool:
    """Whether every house the loop visits holds exactly two of its cells, one at an even and
    one at an odd position (so the two values could swap all around it)."""
    seen: tuple[set[int], set[int]] = (set(), set())
    for i, var in enumerate(loop):
        side = seen[i % 2]
        for h in houses.of_var[var]:
            if h in side:
                return False
            side.add(h)
    return seen[0] == seen[1]


class UniqueRectangle(Technique):
    name = "unique-rectangle"
    title = "Unique rectangle or loop"
    description = (
        "Cells in a closed loop through rows, columns and boxes (four at the corners of a "
        "rectangle, or six, eight, ...), all holding the same two candidates, would let the two "
        "values swap: a second solution. In a unique puzzle the cells with extra candidates must "
        "break the pattern (types 1 to 4, rated as Sudoku Explainer rates them: 4.5, plus 0.1 to "
        "0.5 for longer loops and 0.1 per extra value of a type 3 naked set). Used only for "
        "puzzles the exact search shows unique."
    )

    reads_solutions = False

    @property
    def needs_unique(self) -> bool:
        return True

    def find(self, ctx: Context) -> Iterator[Step]:
        if not known_unique(ctx):
            return
        houses = houses_of(ctx.model)
        state = ctx.state
        found: dict[tuple, Step] = {}
        holding: dict[int, list[list[int]]] = {}  # per pair: each house's cells holding both
        for start, mask in enumerate(state):
            if mask.bit_count() != 2:
                continue
            pair = tuple(values_of(mask))
            fits = holding.get(mask)
            if fits is None:
                fits = holding[mask] = [
                    [v for v in cells if state[v] & mask == mask] for cells in houses.cells
                ]
            for loop in self.loops(houses, state, start, mask, fits, skip_before=start):
                key = (frozenset(loop), pair)
                if key in found:
                    continue
                steps = list(self.types(ctx, loop, mask, pair))
                if steps:
                    found[key] = min(steps, key=lambda step: step.cost)
        if found:
            yield min(found.values(), key=lambda step: step.cost)

    def loops(
        self,
        houses: Houses,
        state: State,
        start: int,
        pm: int,
        fits: list[list[int]],
        skip_before: int = 0,
    ) -> list[list[int]]:
        """The candidate loops through ``start`` on the pair ``pm`` (Sudoku Explainer's search:
        each step leaves by another kind of house than it came in; at most two cells with extra
        candidates, or any number sharing one single extra value) that hold no cell of just
        this pair before ``skip_before`` (:meth:`find` passes ``start``: it met those loops
        from that cell, in the same order). ``fits``: per house, its cells holding both values
        of ``pm`` (the only ones a loop can go through)."""
        out: list[list[int]] = []
        loop = [start]
        longest = MAX_LOOP if len(houses.cells[0]) <= 9 else 4

        def extend(var: int, allowed: int, extras: int, came: str | None) -> None:
            full = len(loop) >= longest  # only closing the loop is left
            for h in houses.of_var[var]:
                kind = houses.shape[h]
                if kind == came:
                    continue
                for nxt in fits[h]:
                    if nxt == start:
                        if len(loop) >= 4 and is_valid_loop(houses, loop):
                            out.append(list(loop))
                        continue
                    if full:
                        continue
                    mask = state[nxt]
                    if (mask == pm and nxt < skip_before) or nxt in loop:
                        continue
                    more = extras | (mask & ~pm)
                    wide = mask.bit_count() > 2
                    if not wide or more.bit_count() == 1 or allowed > 0:
                        loop.append(nxt)
                        extend(nxt, allowed - wide, more, kind)
                        loop.pop()

        extend(start, 2, 0, None)
        return out

    def types(self, ctx: Context, loop: list[int], pm: int, pair: tuple) -> Iterator[Step]:
        houses = houses_of(ctx.model)
        state = ctx.state
        base = self.cost + loop_bonus(len(loop))
        extra = [v for v in loop if state[v] != pm]
        data = {"cells": tuple(loop), "pair": pair}

        def at(step: Step, cost: float) -> Step:
            cost = round(cost, 2)
            return step if cost == step.cost else replace(step, cost=cost)

        if len(extra) == 1:
            step = self.make(eliminations=[(extra[0], x) for x in pair], type=1, **data)
            yield at(step, base)
            return
        extras = 0
        for v in extra:
            extras |= state[v] & ~pm
        if extras.bit_count() == 1:
            z = single_value(extras)
            seen = set(houses.peers[extra[0]]).intersection(*(houses.peers[v] for v in extra))
            elims = [(v, z) for v in sorted(seen) if state[v] >> z & 1 and v not in loop]
            if elims:
                yield at(self.make(eliminations=elims, type=2, value=z, **data), base)
        if len(extra) != 2:
            return
        a, b = extra
        shared = [h for h in houses.of_var[a] if b in houses.cells[h]]
        if extras.bit_count() >= 2:
            for step in self.type3(ctx, loop, extra, extras, shared, data):
                yield at(step, base + step.cost - self.cost)
        for h in shared:
            for keep, drop in ((pair[0], pair[1]), (pair[1], pair[0])):
                places = [v for v in houses.cells[h] if state[v] >> keep & 1]
                if sorted(places) == sorted(extra):
                    step = self.make(
                        eliminations=[(a, drop), (b, drop)], type=4, value=keep, **data
                    )
                    yield at(step, base)

    def type3(self, ctx, corners, roof, extras, shared, data) -> Iterator[Step]:
        """The roof's extra values act as one cell of a naked subset with other cells."""
        state = ctx.state
        houses = houses_of(ctx.model)
        for h in shared:
            others = [
                v for v in houses.cells[h] if v not in corners and 1 < state[v].bit_count() <= 4
            ]
            for size in range(1, 4):
                for group in combinations(others, size):
                    union = extras
                    for v in group:
                        union |= state[v]
                    if union.bit_count() != size + 1:
                        continue
                    elims = [
                        (v, x)
                        for v in houses.cells[h]
                        if v not in corners and v not in group and not is_single(state[v])
                        for x in values_of(state[v] & union)
                    ]
                    if elims:
                        step = self.make(
                            eliminations=elims, type=3, value=union, subset=group, **data
                        )
                        yield replace(step, cost=round(self.cost + 0.1 * size, 1))
                        return

    def explain(self, step: Step, ex: Explainer) -> str:
        x, y = (ex.value(v) for v in step.data["pair"])
        cells = ex.cells(step.data["cells"])
        kind = step.data["type"]
        shape = "rectangle" if len(step.data["cells"]) == 4 else "loop"
        head = f"unique {shape} type {kind} on {x}{y} at {cells}"
        if kind == 1:
            return f"{head}: the cell with extra candidates cannot be {x} or {y}"
        value = ex.value(step.data["value"])
        if kind == 2:
            return f"{head}: one cell with extra candidates is {value}"
        if kind == 3:
            values = ", ".join(ex.value(v) for v in values_of(step.data["value"]))
            subset = ex.cells(step.data["subset"])
            return f"{head}: the extra values form a naked set on {values} with {subset}"
        return (
            f"{head}: {value} must go in one of the two cells with extra candidates, so "
            "neither can hold the other value of the pair"
        )


def grave_without(houses: Houses, state: State, triple: int, value: int) -> bool:
    """Whether the open cells, with ``value`` gone from ``triple``, are a bivalue universal
    grave: every open candidate twice in each house (such a grid has no or several solutions)."""
    return is_grave(houses, state, {triple: 1 << value})


def is_grave(houses: Houses, state: State, removed: dict[int, int]) -> bool:
    """Whether the open cells, without the candidates ``removed`` (cell -> mask), all hold two
    candidates, each seen twice or not at all in every house."""
    for var, mask in enumerate(state):
        if not is_single(mask) and (mask & ~removed.get(var, 0)).bit_count() != 2:
            return False
    for cells in houses.cells:
        once = twice = thrice = 0
        for v in cells:
            mask = state[v]
            if is_single(mask):
                continue
            mask &= ~removed.get(v, 0)
            thrice |= twice & mask
            twice |= once & mask
            once |= mask
        if once & ~twice or thrice:
            return False
    return True


@dataclass
class Grave:
    """A bivalue universal grave plus its BUG cells: the cells holding a third candidate (or
    more), their extra values, the open cells that see every BUG cell and the houses whose
    counts gave the extra values (a value in neither zero nor two of their open cells)."""

    cells: list[int]
    extra: dict[int, int]
    common: set[int]
    houses: list[str]

    @property
    def values(self) -> int:
        out = 0
        for mask in self.extra.values():
            out |= mask
        return out


def find_grave(houses: Houses, state: State) -> Grave | None:
    """The BUG cells of the grid, found as Sudoku Explainer does: a value with neither zero nor
    two places in a house must owe the extra places to exactly one cell of three or more
    candidates there; what remains once those values leave must be a grave."""
    cells: list[int] = []
    extra: dict[int, int] = {}
    common: set[int] | None = None
    counted: list[str] = []
    for h, house in enumerate(houses.cells):
        open_cells = [v for v in house if not is_single(state[v])]
        for value in values_of(reduce(or_, (state[v] for v in open_cells), 0)):
            bit = 1 << value
            places = [v for v in open_cells if state[v] & bit]
            if len(places) == 2:
                continue
            wide = [v for v in places if state[v].bit_count() >= 3]
            if not wide:
                return None  # a value three times in a house among bivalue cells: no grave
            if len(wide) > 1:
                continue  # another house says which cell is the BUG cell
            var = wide[0]
            if not counted or counted[-1] != houses.labels[h]:
                counted.append(houses.labels[h])
            if var not in extra:
                cells.append(var)
                extra[var] = 0
            extra[var] |= bit
            seen = set(houses.peers[var])
            common = seen if common is None else common & seen
            common -= set(cells)
            values = reduce(or_, extra.values(), 0)
            if len(cells) > 1 and values.bit_count() > 1 and not common:
                return None  # none of types 1 to 3 can follow
    if not cells or not is_grave(houses, state, extra):
        return None
    common_open = {v for v in common or () if not is_single(state[v])}
    return Grave(cells, extra, common_open, counted)


class BivalueGrave(Technique):
    name = "bug"
    title = "Bivalue universal grave"
    description = (
        "If every open cell had two candidates, each seen twice in its houses, the puzzle would "
        "have two solutions (a BUG). The cells with extra candidates must break the pattern: "
        "one such cell keeps only its extra values (type 1); several sharing one extra value "
        "make it true in one of them, so cells seeing them all lose it (type 2); their extra "
        "values act as one cell of a naked set (type 3), or two cells in one house lock a "
        "common value (type 4). Rated as Sudoku Explainer rates them (5.6 to 6.1). Used only "
        "for puzzles the exact search shows unique."
    )

    reads_solutions = False

    @property
    def needs_unique(self) -> bool:
        return True

    def find(self, ctx: Context) -> Iterator[Step]:
        if not known_unique(ctx):
            return
        houses = houses_of(ctx.model)
        state = ctx.state
        grave = find_grave(houses, state)
        if grave is None:
            return
        steps = [*self.type1(houses, state, grave), *self.type2(state, grave)]
        steps += [*self.type3(houses, state, grave), *self.type4(houses, state, grave)]
        if steps:
            yield min(steps, key=lambda step: step.cost)

    def _at(self, step: Step, offset: float) -> Step:
        return replace(step, cost=round(self.cost + offset, 2)) if offset else step

    def type1(self, houses: Houses, state: State, grave: Grave) -> Iterator[Step]:
        if len(grave.cells) != 1:
            return
        var = grave.cells[0]
        keep = grave.extra[var]
        if keep.bit_count() == 1:
            value = single_value(keep)
            places, elims = houses.placement(state, var, value)
            yield self.make(places, elims, type=1, cell=var, value=value, houses=grave.houses)
            return
        elims = [(var, x) for x in values_of(state[var] & ~keep)]
        yield self.make(eliminations=elims, type=1, cell=var, values=keep, houses=grave.houses)

    def type2(self, state: State, grave: Grave) -> Iterator[Step]:
        values = grave.values
        if len(grave.cells) < 2 or values.bit_count() != 1:
            return
        value = single_value(values)
        elims = [(v, value) for v in sorted(grave.common) if state[v] & values]
        if elims:
            step = self.make(
                eliminations=elims, type=2, cells=grave.cells, value=value, houses=grave.houses
            )
            yield self._at(step, 0.1)

    def shared_houses(self, houses: Houses, cells: list[int]) -> list[int]:
        first = set(houses.of_var[cells[0]])
        return sorted(first.intersection(*(houses.of_var[v] for v in cells[1:])))

    def type3(self, houses: Houses, state: State, grave: Grave) -> Iterator[Step]:
        values = grave.values
        if len(grave.cells) < 2 or values.bit_count() < 2:
            return
        for h in self.shared_houses(houses, grave.cells):
            others = [v for v in houses.cells[h] if v in grave.common]
            for degree in range(2, 7):
                for group in combinations(others, degree - 1):
                    union = reduce(or_, (state[v] for v in group), 0)
                    if union.bit_count() != degree or values & ~union:
                        continue
                    elims = [
                        (v, x)
                        for v in others
                        if v not in group
                        for x in values_of(state[v] & union)
                    ]
                    if elims:
                        step = self.make(
                            eliminations=elims,
                            type=3,
                            cells=grave.cells,
                            subset=group,
                            values=union,
                            unit=houses.labels[h],
                            houses=grave.houses,
                        )
                        yield self._at(step, 0.1 * degree)

    def type4(self, houses: Houses, state: State, grave: Grave) -> Iterator[Step]:
        if len(grave.cells) != 2:
            return
        a, b = grave.cells
        common = state[a] & state[b] & ~grave.values
        if common.bit_count() != 1 or not self.shared_houses(houses, grave.cells):
            return
        value = single_value(common)
        elims = [(v, x) for v in (a, b) for x in values_of(state[v] & ~grave.extra[v] & ~common)]
        if elims:
            step = self.make(
                eliminations=elims, type=4, cells=grave.cells, value=value, houses=grave.houses
            )
            yield self._at(step, 0.1)

    def explain(self, step: Step, ex: Explainer) -> str:
        kind = step.data.get("type", 1)
        if kind == 1:
            cell = ex.cell(step.data["cell"])
            if "value" in step.data:
                value = ex.value(step.data["value"])
                return (
                    f"all other open cells have two candidates; {cell} must be {value} or the "
                    "grid would have two solutions"
                )
            values = ", ".join(ex.value(x) for x in values_of(step.data["values"]))
            return f"BUG type 1: {cell} must keep one of its extra values {values}"
        cells = ex.cells(step.data["cells"])
        if kind == 2:
            value = ex.value(step.data["value"])
            return (
                f"BUG type 2: one of {cells} must be {value} or the grid would have two "
                f"solutions, so the cells seeing them all cannot be {value}"
            )
        if kind == 3:
            values = ", ".join(ex.value(x) for x in values_of(step.data["values"]))
            subset = ex.cells(step.data["subset"])
            return (
                f"BUG type 3: the extra values of {cells} form a naked set on {values} with "
                f"{subset} in {step.data['unit']}"
            )
        value = ex.value(step.data["value"])
        return (
            f"BUG type 4: one of {cells} must take its extra value, and {value} is locked in "
            "them, so they keep only their extra values and " + value
        )

    def evidence(self, step: Step, model: Model) -> Evidence:
        """The BUG cells (and a type 3's naked set), the houses whose counts gave their extra
        values (and a type 3's house)."""
        data = step.data
        labels = constraints_by_label(model)
        cells, houses = ([data["cell"]] if data["type"] == 1 else data["cells"]), data["houses"]
        if data["type"] == 3:
            cells, houses = [*cells, *data["subset"]], [*houses, data["unit"]]
        names = tuple(dict.fromkeys(houses))
        units = frozenset(v for label in names for v in labels[label])
        return Evidence(
            used=frozenset(cells),
            units=units,
            changed=frozenset(step.changed_vars()),
            unit_labels=names,
        )


def sudoku_table(n: int) -> list[TechniqueSpec]:
    """Sudoku Explainer 1.2.1's techniques and ratings, in its order."""
    big = n > 16
    table = [
        *house_table(),
        TechniqueSpec(UniqueRectangle, 4.5, "hard", name="unique-rectangle"),
        TechniqueSpec(NakedSubset, 5.0, "hard", name="naked-quad", kwargs={"degree": 4}),
        TechniqueSpec(Fish, 5.2, "hard", name="jellyfish", kwargs={"degree": 4}),
        TechniqueSpec(HiddenSubset, 5.4, "hard", name="hidden-quad", kwargs={"degree": 4}),
        TechniqueSpec(BivalueGrave, 5.6, "hard", name="bug"),
        TechniqueSpec(AlignedExclusion, 6.2, "hard", name="aligned-pair-exclusion"),
        TechniqueSpec(
            ChainTechnique, 6.5, "expert", name="forcing-chains", kwargs={"mode": "static"}
        ),
        TechniqueSpec(
            AlignedExclusion,
            7.5,
            "expert",
            name="aligned-triplet-exclusion",
            kwargs={"degree": 3},
            default=not big,  # minutes on 25x25
        ),
        TechniqueSpec(ChainTechnique, 7.5, "expert", name="nishio", kwargs={"mode": "nishio"}),
        TechniqueSpec(
            ChainTechnique,
            8.0,
            "extreme",
            name="multiple-forcing-chains",
            kwargs={"mode": "multiple"},
        ),
        TechniqueSpec(
            ChainTechnique,
            8.5,
            "extreme",
            name="dynamic-forcing-chains",
            kwargs={"mode": "dynamic"},
        ),
        TechniqueSpec(
            ChainTechnique,
            9.0,
            "extreme",
            name="dynamic-forcing-chains-plus",
            kwargs={"mode": "dynamic", "nesting": 1},
        ),
        # SE's nested levels (Chaining.java: 9.5 + 0.5 * (level - 2)), each plus its length bonus
        *(
            TechniqueSpec(
                ChainTechnique,
                cost,
                "extreme",
                name=name,
                kwargs={"mode": "dynamic", "nesting": level},
            )
            for level, cost, name in (
                (2, 9.5, "nested-forcing-chains"),
                (3, 10.0, "nested-multiple-forcing-chains"),
                (4, 10.5, "nested-dynamic-forcing-chains"),
                (5, 11.0, "nested-dynamic-forcing-chains-plus"),
            )
        ),
        TechniqueSpec(Guess, 12.0, "extreme", default=False),  # only with --guess
    ]
    if big:
        # Nested dynamic chains cost minutes on 16x16 and 25x25: off unless asked for.
        for i, spec in enumerate(table):
            if spec.cost >= 9.0:
                table[i] = TechniqueSpec(
                    spec.factory, spec.cost, spec.level, spec.name, spec.kwargs, default=False
                )
    return table
