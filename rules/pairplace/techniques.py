"""The pair place techniques and their technique table.

Levels: *trivial* is the reflexive partner and the backreference (a pair used in one row is
crossed out of the others); *easy* adds the column hidden single and the row naked single
(letters paired in a row crossed out of it); *normal* row matching feasibility (a pair that
would strand another letter) and column pairs; *hard* single-line enumeration of a row (all its
perfect matchings) or a column; *expert* lookahead of depth 1 and *extreme* depth 2.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import partial
from itertools import combinations
from typing import Any

from grader.core.constraints import AllDifferent, Constraint
from grader.core.explain import Explainer
from grader.core.model import State, is_single, single_value, values_of
from grader.core.step import Assignment, Step
from grader.core.technique import Context, JointScan, Technique
from grader.rating.family import TechniqueSpec
from grader.techniques import Guess, Lookahead
from rules.pairplace.closure import column_closure, row_closure
from rules.pairplace.matching import column_supports, matching_supports, row_adjacency
from rules.pairplace.model import LetterColumn, PairRow, Shape, mirrored, shape_of


def pair_text(ex: Explainer, a: int, b: int) -> str:
    x, y = sorted((a, b))
    return f"{ex.value(x)}–{ex.value(y)}"


def letters_text(ex: Explainer, values: Sequence[int]) -> str:
    names = [ex.value(v) for v in values]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def singles_text(ex: Explainer, singles: Sequence[tuple[int, int]]) -> str:
    if not singles:
        return ""
    parts = [f"{ex.cell(v)} with only {ex.value(x)}" for v, x in singles]
    kind = "a naked single" if len(parts) == 1 else "naked singles"
    return "; this leaves " + ", ".join(parts) + f" ({kind})"


def mirror_cells(own: Sequence[Assignment], both: Sequence[Assignment]) -> tuple[int, ...]:
    """The cells only the mirror images of a technique's own eliminations reach."""
    mine = {v for v, _ in own}
    return tuple(dict.fromkeys(v for v, _ in both if v not in mine))


def mirrors_text(ex: Explainer, step: Step) -> str:
    """``; as a pair reads the same both ways, the mirror cells r1cI and r2cG lose these
    pairings too`` (the mirror cells whose removals the step still makes)."""
    removed = {v for v, _ in step.eliminations}
    cells = [v for v in step.data["mirrors"] if v in removed]
    if not cells:
        return ""
    return (
        f"; as a pair reads the same both ways, the mirror cell{'s' if len(cells) > 1 else ''} "
        f"{ex.cells(cells)} lose{'' if len(cells) > 1 else 's'} these pairings too"
    )


def left_single(state: State, eliminations: Sequence[Assignment]) -> list[tuple[int, int]]:
    """Cells the eliminations leave with one letter, and that letter."""
    after: dict[int, int] = {}
    for var, value in eliminations:
        after[var] = after.get(var, state[var]) & ~(1 << value)
    return [(v, single_value(m)) for v, m in after.items() if is_single(m) and state[v] != m]


class PairTechnique(Technique):
    """A pair place line technique: with single-line enumeration on a line, the line's
    techniques are scanned as one (:mod:`rules.pairplace.closure`)."""

    def joint_scan(
        self, constraint: Constraint, techniques: Sequence[Technique]
    ) -> JointScan | None:
        kinds = {type(t) for t in techniques}
        if LineEnumeration not in kinds:
            return None
        if isinstance(constraint, PairRow) and kinds <= ROW_TECHNIQUES:
            return partial(row_closure, constraint.vars)  # a plan is pickled with its model
        if isinstance(constraint, LetterColumn) and kinds <= COLUMN_TECHNIQUES:
            return partial(column_closure, constraint.vars, len(constraint.letters))
        return None  # a technique whose conclusions the closure does not know

    def mirrored_step(
        self, shape: Shape, state: State, eliminations: list[Assignment], **data: Any
    ) -> Step:
        """The step of a line's own eliminations with their mirror images (a pair reads the
        same both ways), the cells only those reach and the naked singles all of them leave."""
        both = mirrored(shape, eliminations)
        return self.make(
            eliminations=both,
            singles=left_single(state, both),
            mirrors=mirror_cells(eliminations, both),
            **data,
        )


class ReflexivePartner(PairTechnique):
    name = "reflexive-partner"
    title = "Reflexive partner"
    description = (
        "Placements are reflexive: Y in column X of a row means X in column Y of that row. "
        "Once a cell is known its partner cell is filled in; once column Y of a row can no "
        "longer hold X, column X of that row can no longer hold Y."
    )
    kinds = ("pairing",)

    def find_in(self, ctx: Context, constraint: Constraint) -> Iterator[Step]:
        assert isinstance(constraint, PairRow)
        cells = constraint.vars
        masks = constraint.masks(ctx.state)  # the row as the scan began
        usable = row_adjacency(masks)  # j usable for i: i may hold j and j may hold i
        placed = 0
        for j, mask in enumerate(masks):
            if mask and not mask & (mask - 1):
                placed |= 1 << j
        for i, var in enumerate(cells):
            mask = masks[i]
            if placed >> i & 1:
                j = mask.bit_length() - 1
                if masks[j] != 1 << i and masks[j] >> i & 1:
                    yield self.make(
                        placements=[(cells[j], i)], unit=constraint.label, cell=var, value=j
                    )
                continue
            gone = values_of(mask & ~usable[i] & ~placed)  # j no longer holds i, j still open
            if gone:
                yield self.make(
                    eliminations=[(var, j) for j in gone],
                    unit=constraint.label,
                    partners=tuple(cells[j] for j in gone),
                    letter=i,
                )

    def explain(self, step: Step, ex: Explainer) -> str:
        data = step.data
        if "cell" in data:
            var, j = data["cell"], data["value"]
            return f"{ex.cell(var)} holds {ex.value(j)}, and a pair reads the same both ways"
        partners = [ex.cell(v) for v in data["partners"]]
        return (
            f"{', '.join(partners)} can no longer hold {ex.value(data['letter'])}, and a pair "
            "reads the same both ways"
        )


class Backreference(PairTechnique):
    name = "backreference"
    title = "Backreference"
    description = (
        "Each pair X–Y is used in exactly one row. Once it is placed in a row, no other row can "
        "hold Y in column X, nor X in column Y."
    )
    kinds = ("alldifferent",)

    def find_in(self, ctx: Context, constraint: Constraint) -> Iterator[Step]:
        shape = shape_of(ctx.model)
        state = ctx.state
        for var in constraint.vars:
            mask = state[var]
            if not mask or mask & (mask - 1):
                continue  # not placed
            y = mask.bit_length() - 1
            row, x = shape.place(var)
            elims = [
                (other, y) for other in constraint.vars if other != var and state[other] >> y & 1
            ]
            mirror = shape.var(row, y)
            elims += [
                (other, x)
                for other in range(shape.var(0, y), shape.var(shape.rows, y), shape.n)  # column Y
                if other != mirror and state[other] >> x & 1
            ]
            if elims:
                header = ctx.model.options["header"]
                yield self.make(
                    eliminations=elims,
                    unit=constraint.label,
                    units=(f"column {header[y]}",),  # column Y loses X too (pictures)
                    other=mirror,  # the pair's other cell (pictures)
                    cell=var,
                    value=y,
                    row=row,
                    singles=left_single(state, elims),
                )

    def explain(self, step: Step, ex: Explainer) -> str:
        data = step.data
        var, y = data["cell"], data["value"]
        x = var % len(ex.model.options["header"])
        return (
            f"pair {pair_text(ex, x, y)} is already in row {data['row'] + 1} ({ex.cell(var)} = "
            f"{ex.value(y)}), and every pair is used once{singles_text(ex, data['singles'])}"
        )


class RowNakedSingle(PairTechnique):
    name = "row-naked-single"
    title = "Row naked single"
    description = (
        "A row pairs every letter exactly once. Once X and Y are paired in a row, no other cell "
        "of that row can hold X or Y; a cell left with one letter is a naked single."
    )
    kinds = ("pairing",)

    def find_in(self, ctx: Context, constraint: Constraint) -> Iterator[Step]:
        assert isinstance(constraint, PairRow)
        shape = shape_of(ctx.model)
        state = ctx.state
        cells = constraint.vars
        for i, var in enumerate(cells):
            if not is_single(state[var]):
                continue
            j = single_value(state[var])
            if j < i and state[cells[j]] == 1 << i:
                continue  # the pair was handled from its first letter
            drop = (1 << i) | (1 << j)
            elims = [
                (other, x)
                for k, other in enumerate(cells)
                if k not in (i, j)
                for x in values_of(state[other] & drop)
            ]
            if elims:
                yield self.mirrored_step(shape, state, elims, unit=constraint.label, pair=(i, j))

    def explain(self, step: Step, ex: Explainer) -> str:
        i, j = step.data["pair"]
        return (
            f"{step.data['unit']} pairs {ex.value(i)} with {ex.value(j)}, so no other cell of it "
            f"can hold {ex.value(i)} or {ex.value(j)}{mirrors_text(ex, step)}"
            f"{singles_text(ex, step.data['singles'])}"
        )


class ColumnHiddenSingle(PairTechnique):
    name = "column-hidden-single"
    title = "Column hidden single"
    description = (
        "Column X holds each of its letters once. When a letter Y can go in only one row of "
        "column X, it goes there (and X goes in column Y of that row)."
    )
    kinds = ("alldifferent",)

    def find_in(self, ctx: Context, constraint: Constraint) -> Iterator[Step]:
        assert isinstance(constraint, AllDifferent)
        shape = shape_of(ctx.model)
        state = ctx.state
        cells = constraint.vars
        once = twice = 0
        for var in cells:
            mask = state[var]
            twice |= once & mask
            once |= mask
        for y in values_of(once & ~twice & constraint.covering):
            var = next(v for v in cells if state[v] >> y & 1)
            if is_single(state[var]):
                continue
            row, x = shape.place(var)
            partner = shape.var(row, y)
            placements = [(var, y)]
            if state[partner] >> x & 1:
                placements.append((partner, x))
            yield self.make(placements, unit=constraint.label, cell=var, value=y, row=row)

    def explain(self, step: Step, ex: Explainer) -> str:
        data = step.data
        return (
            f"{data['unit']} needs {ex.value(data['value'])} once, and row {data['row'] + 1} is "
            "the only row where it can still go"
        )


class RowMatching(PairTechnique):
    name = "row-matching"
    title = "Row matching feasibility"
    description = (
        "Every row must pair all its letters. A pair X–Y whose placement would leave another "
        "letter of the row with no partner (every letter its cell can still hold is X or Y, "
        "or already taken) cannot be in that row."
    )
    kinds = ("pairing",)

    def find_in(self, ctx: Context, constraint: Constraint) -> Iterator[Step]:
        assert isinstance(constraint, PairRow)
        state = ctx.state
        masks = constraint.masks(state)
        adj = row_adjacency(masks)
        cells = constraint.vars
        found: dict[tuple[int, int], int] = {}
        for k, options in enumerate(adj):
            if options.bit_count() == 1:
                a = options.bit_length() - 1
                for j in values_of(adj[a] & ~(1 << k)):
                    found.setdefault((min(a, j), max(a, j)), k)
            elif options.bit_count() == 2:
                a, b = values_of(options)
                if adj[a] >> b & 1:
                    found.setdefault((a, b), k)
        for (i, j), k in sorted(found.items()):
            if is_single(masks[i]) or is_single(masks[j]):
                continue
            yield self.make(
                eliminations=[(cells[i], j), (cells[j], i)],
                unit=constraint.label,
                pair=(i, j),
                stranded=k,
                options=tuple(values_of(adj[k])),
            )

    def explain(self, step: Step, ex: Explainer) -> str:
        i, j = step.data["pair"]
        k = step.data["stranded"]
        return (
            f"pairing {ex.value(i)} with {ex.value(j)} in {step.data['unit']} would leave "
            f"{ex.value(k)} without a partner ({ex.value(k)} can only pair with "
            f"{letters_text(ex, step.data['options'])} there)"
        )


class ColumnPairs(PairTechnique):
    name = "column-pairs"
    title = "Column pairs (naked and hidden)"
    description = (
        "Naked pair: two open cells of a column that can only hold the same two letters take "
        "both, so the other cells of the column lose them. Hidden pair: two letters that can "
        "only go in the same two rows of a column fill them, so those cells lose every other "
        "letter."
    )
    kinds = ("alldifferent",)

    def find_in(self, ctx: Context, constraint: Constraint) -> Iterator[Step]:
        shape = shape_of(ctx.model)
        state = ctx.state
        open_cells = [v for v in constraint.vars if not is_single(state[v])]
        narrow = [v for v in open_cells if state[v].bit_count() <= 2]  # a pair's only cells
        for a, b in combinations(narrow, 2):
            both = state[a] | state[b]
            if both.bit_count() != 2:
                continue
            elims = [
                (v, x) for v in open_cells if v not in (a, b) for x in values_of(state[v] & both)
            ]
            if elims:
                yield self._step(shape, state, elims, constraint, "naked", (a, b), both)
        placed = once = twice = thrice = 0
        for v in constraint.vars:
            mask = state[v]
            if is_single(mask):
                placed |= mask
            else:
                thrice |= twice & mask
                twice |= once & mask
                once |= mask
        if ((twice & ~thrice & ~placed).bit_count()) < 2:
            return  # a hidden pair needs two letters with two places each
        places: dict[int, int] = {}
        for index, v in enumerate(open_cells):
            for y in values_of(state[v] & ~placed):
                places[y] = places.get(y, 0) | (1 << index)
        by_places: dict[int, list[int]] = {}
        for y, where in sorted(places.items()):
            if where.bit_count() == 2:
                by_places.setdefault(where, []).append(y)
        for where, letters in by_places.items():
            for y, z in combinations(letters, 2):
                keep = (1 << y) | (1 << z)
                cells = tuple(open_cells[i] for i in values_of(where))
                elims = [(v, x) for v in cells for x in values_of(state[v] & ~keep)]
                if elims:
                    yield self._step(shape, state, elims, constraint, "hidden", cells, keep)

    def _step(self, shape, state, elims, constraint, kind, cells, letters) -> Step:
        return self.mirrored_step(
            shape,
            state,
            elims,
            unit=constraint.label,
            kind=kind,
            cells=cells,
            letters=tuple(values_of(letters)),
        )

    def explain(self, step: Step, ex: Explainer) -> str:
        data = step.data
        cells = ex.cells(list(data["cells"]))
        letters = letters_text(ex, data["letters"])
        unit = data["unit"]
        if data["kind"] == "naked":
            text = f"{cells} can only hold {letters}, so no other cell of {unit} can"
        else:
            text = f"{letters} can only go in {cells} of {unit}, so those cells hold nothing else"
        return text + mirrors_text(ex, step) + singles_text(ex, data["singles"])


class LineEnumeration(PairTechnique):
    name = "line-enumeration"
    title = "Single-line enumeration"
    description = (
        "List every way to complete one line: a row (every letter paired, each with a letter "
        "its cell can still hold) or a column (each of its letters once, each in a row where "
        "it can still go). A letter that no completion gives a cell is removed."
    )
    kinds = ("alldifferent", "pairing")

    def find_in(self, ctx: Context, constraint: Constraint) -> Iterator[Step]:
        state = ctx.state
        masks = [state[v] for v in constraint.vars]
        if all(m and not m & (m - 1) for m in masks):
            return  # every cell placed
        if isinstance(constraint, PairRow):
            support = matching_supports(row_adjacency(masks))
        else:
            support = column_supports(masks)
        if support is None:
            yield self.make(
                contradiction=f"{constraint.label} cannot be completed", unit=constraint.label
            )
            return
        if support == masks:
            return  # every letter left has a completion
        shape = shape_of(ctx.model)
        elims = [
            (v, x)
            for v, old, new in zip(constraint.vars, masks, support, strict=True)
            for x in values_of(old & ~new)
        ]
        if elims:
            yield self.mirrored_step(
                shape, state, elims, unit=constraint.label, row=isinstance(constraint, PairRow)
            )

    def explain(self, step: Step, ex: Explainer) -> str:
        rule = "every letter paired" if step.data.get("row") else "each letter once"
        return (
            f"every way to complete {step.data['unit']} ({rule}) agrees on this"
            f"{mirrors_text(ex, step)}{singles_text(ex, step.data['singles'])}"
        )


class PairLookahead(Lookahead):
    """Lookahead trying each pair once: assuming Y in column X of a row is the same as
    assuming X in column Y of that row, so only the cell of the pair's first letter is tried."""

    def trials(self, ctx: Context) -> Iterator[tuple[int, int]]:
        n = len(ctx.model.options["header"])
        for var, value in super().trials(ctx):
            if value > var % n:
                yield var, value


ROW_TECHNIQUES = frozenset({ReflexivePartner, RowNakedSingle, RowMatching, LineEnumeration})
"""The row techniques whose fixpoint :func:`rules.pairplace.closure.row_closure` gives."""
COLUMN_TECHNIQUES = frozenset({Backreference, ColumnHiddenSingle, ColumnPairs, LineEnumeration})
"""The column techniques whose fixpoint (with the rows') ``column_closure`` gives."""


def pairplace_table() -> list[TechniqueSpec]:
    """The pair place ladder (costs in points; levels as DESIGN §4)."""
    return [
        TechniqueSpec(ReflexivePartner, 1.0, "trivial"),
        TechniqueSpec(Backreference, 1.0, "trivial"),
        TechniqueSpec(ColumnHiddenSingle, 2.0, "easy"),
        TechniqueSpec(RowNakedSingle, 2.3, "easy"),
        TechniqueSpec(RowMatching, 3.0, "normal"),
        TechniqueSpec(ColumnPairs, 3.5, "normal"),
        TechniqueSpec(LineEnumeration, 4.0, "hard"),
        TechniqueSpec(PairLookahead, 7.0, "expert", name="lookahead-1", kwargs={"depth": 1}),
        TechniqueSpec(PairLookahead, 9.0, "extreme", name="lookahead-2", kwargs={"depth": 2}),
        TechniqueSpec(Guess, 12.0, "extreme", default=False),
    ]
