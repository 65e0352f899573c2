"""Pair place: a proper edge colouring of a regular graph, shown as a table.

The header holds the letters (the graph's vertices); each row is a colour. The cell in row r,
column X holds Y when the edge X–Y has colour r, so placements are reflexive (Y in column X of
row r ⇔ X in column Y of row r), each row pairs every letter with another (a perfect matching),
and a column never repeats a letter nor holds its own. The default graph is ``K_n`` (n even,
n − 1 rows: a round-robin schedule); a puzzle may give another graph as an edge list, which
must be regular, with one row per edge at each letter.

Cells are named ``r3cB`` (row 3, column B). Levels: *trivial* is the reflexive partner and
the backreference (a pair used in one row is crossed out of the others); *easy* adds the column
hidden single and the row naked single (letters paired in a row crossed out of it); *normal*
row matching feasibility (a pair that would strand another letter) and column pairs; *hard*
single-line enumeration of a row (all its perfect matchings) or a column; *expert* lookahead
of depth 1 and *extreme* depth 2.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, Field

from grader.board import Board
from grader.constraints import AllDifferent, Constraint, Pruned
from grader.explain import Explainer
from grader.family import Family, TechniqueSpec, require
from grader.model import Model, State, Variable, is_single, single_value, values_of
from grader.step import Assignment, Step
from grader.technique import Context, Technique
from grader.techniques import Guess, Lookahead
from rules.schema import PuzzleFileBase

if TYPE_CHECKING:
    from grader.exact import CnfBuilder

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
MAX_LETTERS = 16

# ---------------------------------------------------------------------------------------------
# Perfect matchings over bitmasks (rows) and bipartite matchings (columns)
# ---------------------------------------------------------------------------------------------


def row_adjacency(masks: Sequence[int]) -> list[int]:
    """Usable pairs of a row: j is usable for i when i may hold j and j may hold i."""
    key = tuple(masks)
    found = _ADJ_CACHE.get(key)
    if found is None:
        if len(_ADJ_CACHE) > _CACHE_LIMIT:
            _ADJ_CACHE.clear()
        found = _ADJ_CACHE[key] = _row_adjacency(masks)
    return found


def _row_adjacency(masks: Sequence[int]) -> list[int]:
    n = len(masks)
    holders = [0] * n
    for j, mask in enumerate(masks):
        bit = 1 << j
        for i in values_of(mask):
            holders[i] |= bit
    return [masks[i] & holders[i] for i in range(n)]


_ADJ_CACHE: dict[tuple[int, ...], list[int]] = {}
_ROW_CACHE: dict[tuple[int, ...], list[int] | None] = {}
_COLUMN_CACHE: dict[tuple[int, ...], list[int] | None] = {}
_CACHE_LIMIT = 100_000


def matching_supports(adj: Sequence[int]) -> list[int] | None:
    """For each letter, the partners it has in some perfect matching of the usable pairs
    ``adj`` (bitmasks, symmetric); None when there is no perfect matching at all.

    A pair i–j lies in a perfect matching exactly when the other letters can be paired up,
    which a memoised search over the set of unpaired letters answers.
    """
    key = tuple(adj)
    if key in _ROW_CACHE:
        return _ROW_CACHE[key]
    if len(_ROW_CACHE) > _CACHE_LIMIT:
        _ROW_CACHE.clear()
    result = _ROW_CACHE[key] = _matching_supports(adj)
    return result


def _matching_supports(adj: Sequence[int]) -> list[int] | None:
    n = len(adj)
    full = (1 << n) - 1
    memo: dict[int, bool] = {0: True}

    def pairable(rest: int) -> bool:
        known = memo.get(rest)
        if known is not None:
            return known
        low = rest & -rest
        i = low.bit_length() - 1
        others = rest ^ low
        options = adj[i] & others
        result = False
        while options:
            bit = options & -options
            if pairable(others ^ bit):
                result = True
                break
            options ^= bit
        memo[rest] = result
        return result

    if not pairable(full):
        return None
    out = [0] * n
    for i in range(n):
        options = adj[i] & ~((1 << (i + 1)) - 1)
        while options:
            bit = options & -options
            options ^= bit
            if pairable(full & ~(1 << i) & ~bit):
                out[i] |= bit
                out[bit.bit_length() - 1] |= 1 << i
    return out


def column_supports(masks: Sequence[int]) -> list[int] | None:
    """For each cell of a column, the letters it holds in some completion where the cells take
    distinct letters, all of them (as many letters as cells); None if there is none."""
    key = tuple(masks)
    if key in _COLUMN_CACHE:
        return _COLUMN_CACHE[key]
    if len(_COLUMN_CACHE) > _CACHE_LIMIT:
        _COLUMN_CACHE.clear()
    result = _COLUMN_CACHE[key] = _column_supports(masks)
    return result


def _column_supports(masks: Sequence[int]) -> list[int] | None:
    """Régin's filtering: find one matching of cells to letters; a cell may switch to another
    letter y exactly when y's holder can move on along a chain of switches that ends by taking
    the letter the cell frees (y reaches it in the "holder of a may take b" letter graph)."""
    cells = len(masks)
    owner: dict[int, int] = {}
    match = [-1] * cells

    def augment(cell: int, seen: set[int]) -> bool:
        for letter in values_of(masks[cell]):
            if letter in seen:
                continue
            seen.add(letter)
            if letter not in owner or augment(owner[letter], seen):
                owner[letter] = cell
                match[cell] = letter
                return True
        return False

    for cell in range(cells):
        if not augment(cell, set()):
            return None
    letters = sorted(owner)
    reach = {a: masks[owner[a]] & ~(1 << a) for a in letters}
    for k in letters:
        bit = 1 << k
        through = reach[k]
        for a in letters:
            if reach[a] & bit:
                reach[a] |= through
    out = [0] * cells
    for cell in range(cells):
        mine = match[cell]
        out[cell] = 1 << mine
        for letter in values_of(masks[cell] & ~(1 << mine)):
            if reach[letter] >> mine & 1:
                out[cell] |= 1 << letter
    return out


# ---------------------------------------------------------------------------------------------
# Constraints
# ---------------------------------------------------------------------------------------------


class PairRow(Constraint):
    """A row: reflexive placements, every letter paired with another (a perfect matching).

    ``vars[i]`` is the cell of letter i; its value is the letter i is paired with.
    """

    kind = "pairing"

    def __init__(self, variables: Sequence[int], label: str, letters: str) -> None:
        super().__init__(variables, label)
        self.letters = letters

    def masks(self, state: State) -> list[int]:
        return [state[v] for v in self.vars]

    def supports(self, state: State) -> list[int] | None:
        """Per letter, the partners a perfect matching of the row can still give it."""
        return matching_supports(row_adjacency(self.masks(state)))

    def check(self, state: State) -> str | None:
        masks = self.masks(state)
        for i, mask in enumerate(masks):
            if is_single(mask):
                j = single_value(mask)
                if not masks[j] >> i & 1:
                    other = masks[j]
                    tail = (
                        f"{self.letters[j]} with {self.letters[single_value(other)]}"
                        if is_single(other)
                        else f"{self.letters[j]} cannot take {self.letters[i]}"
                    )
                    return f"pairs {self.letters[i]} with {self.letters[j]}, but {tail}"
        return None

    def prune(self, state: State) -> Pruned:
        return self.pruned_to(state, self.supports(state))

    def encode(self, cnf: CnfBuilder) -> None:
        for i, var in enumerate(self.vars):
            for j in values_of(cnf.model.variables[var].domain):
                cnf.add([-cnf.lit(var, j), cnf.lit(self.vars[j], i)])

    def satisfied_by(self, values: Sequence[int]) -> bool:
        mine = [values[v] for v in self.vars]
        return all(mine[j] == i for i, j in enumerate(mine))


class LetterColumn(AllDifferent):
    """A column: each letter of the column's edges exactly once (reasons name the letters)."""

    def __init__(self, variables: Sequence[int], label: str, covering: int, letters: str) -> None:
        super().__init__(variables, label, covering)
        self.letters = letters

    def check(self, state: State) -> str | None:
        seen = 0
        for v in self.vars:
            mask = state[v]
            if is_single(mask):
                if seen & mask:
                    return f"holds {self.letters[single_value(mask)]} twice"
                seen |= mask
        union = 0
        for v in self.vars:
            union |= state[v]
        missing = self.covering & ~union
        if missing:
            return f"has no row left for {self.letters[next(values_of(missing))]}"
        return None


# ---------------------------------------------------------------------------------------------
# The shape of a puzzle: letters, graph, rows
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Shape:
    """Letters, the graph's neighbour masks and the number of rows, read from a model."""

    letters: str
    neighbours: tuple[int, ...]
    rows: int

    @property
    def n(self) -> int:
        return len(self.letters)

    def var(self, row: int, col: int) -> int:
        return row * self.n + col

    def place(self, var: int) -> tuple[int, int]:
        return divmod(var, self.n)


def shape_of(model: Model) -> Shape:
    found = model.memo.get("pairplace_shape")
    if found is None:
        letters = model.options["header"]
        neighbours = tuple(model.variables[c].domain for c in range(len(letters)))
        found = Shape(letters, neighbours, model.rows)
        model.memo["pairplace_shape"] = found
    return found


def mirrored(shape: Shape, eliminations: Sequence[Assignment]) -> list[Assignment]:
    """Eliminations with their mirror images: Y gone from (r, X) means X gone from (r, Y)."""
    out = dict.fromkeys(eliminations)
    for var, value in eliminations:
        row, col = shape.place(var)
        out.setdefault((shape.var(row, value), col))
    return list(out)


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


def left_single(state: State, eliminations: Sequence[Assignment]) -> list[tuple[int, int]]:
    """Cells the eliminations leave with one letter, and that letter."""
    after: dict[int, int] = {}
    for var, value in eliminations:
        after[var] = after.get(var, state[var]) & ~(1 << value)
    return [(v, single_value(m)) for v, m in after.items() if is_single(m) and state[v] != m]


# ---------------------------------------------------------------------------------------------
# Techniques
# ---------------------------------------------------------------------------------------------


class ReflexivePartner(Technique):
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
        state = ctx.state
        cells = constraint.vars
        for i, var in enumerate(cells):
            mask = state[var]
            if is_single(mask):
                j = single_value(mask)
                partner = cells[j]
                if state[partner] != 1 << i and state[partner] >> i & 1:
                    yield self.make(
                        placements=[(partner, i)], unit=constraint.label, cell=var, value=j
                    )
                continue
            gone = [
                j
                for j in values_of(mask)
                if not state[cells[j]] >> i & 1 and not is_single(state[cells[j]])
            ]
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


class Backreference(Technique):
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
            if not is_single(state[var]):
                continue
            y = single_value(state[var])
            row, x = shape.place(var)
            elims = [
                (other, y) for other in constraint.vars if other != var and state[other] >> y & 1
            ]
            elims += [
                (shape.var(r, y), x)
                for r in range(shape.rows)
                if r != row and state[shape.var(r, y)] >> x & 1
            ]
            if elims:
                yield self.make(
                    eliminations=elims,
                    unit=constraint.label,
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


class RowNakedSingle(Technique):
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
                elims = mirrored(shape, elims)
                yield self.make(
                    eliminations=elims,
                    unit=constraint.label,
                    pair=(i, j),
                    singles=left_single(state, elims),
                )

    def explain(self, step: Step, ex: Explainer) -> str:
        i, j = step.data["pair"]
        return (
            f"{step.data['unit']} pairs {ex.value(i)} with {ex.value(j)}, so no other cell of it "
            f"can hold {ex.value(i)} or {ex.value(j)}{singles_text(ex, step.data['singles'])}"
        )


class ColumnHiddenSingle(Technique):
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


class RowMatching(Technique):
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


class ColumnPairs(Technique):
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
        for a, b in combinations(open_cells, 2):
            both = state[a] | state[b]
            if both.bit_count() != 2:
                continue
            elims = [
                (v, x) for v in open_cells if v not in (a, b) for x in values_of(state[v] & both)
            ]
            if elims:
                yield self._step(shape, state, elims, constraint, "naked", (a, b), both)
        placed = 0
        for v in constraint.vars:
            if is_single(state[v]):
                placed |= state[v]
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
        elims = mirrored(shape, elims)
        return self.make(
            eliminations=elims,
            unit=constraint.label,
            kind=kind,
            cells=cells,
            letters=tuple(values_of(letters)),
            singles=left_single(state, elims),
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
        return text + singles_text(ex, data["singles"])


class LineEnumeration(Technique):
    name = "line-enumeration"
    title = "Single-line enumeration"
    description = (
        "List every way to complete one line: a row (every letter paired, each with a letter "
        "its cell can still hold) or a column (each of its letters once, each in a row where "
        "it can still go). A letter that no completion gives a cell is removed."
    )
    kinds = ("alldifferent", "pairing")

    def find_in(self, ctx: Context, constraint: Constraint) -> Iterator[Step]:
        shape = shape_of(ctx.model)
        state = ctx.state
        masks = [state[v] for v in constraint.vars]
        if all(is_single(m) for m in masks):
            return
        if isinstance(constraint, PairRow):
            support = matching_supports(row_adjacency(masks))
        else:
            support = column_supports(masks)
        if support is None:
            yield self.make(
                contradiction=f"{constraint.label} cannot be completed", unit=constraint.label
            )
            return
        elims = [
            (v, x)
            for v, old, new in zip(constraint.vars, masks, support, strict=True)
            for x in values_of(old & ~new)
        ]
        if elims:
            elims = mirrored(shape, elims)
            yield self.make(
                eliminations=elims,
                unit=constraint.label,
                row=isinstance(constraint, PairRow),
                singles=left_single(state, elims),
            )

    def explain(self, step: Step, ex: Explainer) -> str:
        rule = "every letter paired" if step.data.get("row") else "each letter once"
        return (
            f"every way to complete {step.data['unit']} ({rule}) agrees on this"
            f"{singles_text(ex, step.data['singles'])}"
        )


class PairLookahead(Lookahead):
    """Lookahead trying each pair once: assuming Y in column X of a row is the same as
    assuming X in column Y of that row, so only the cell of the pair's first letter is tried."""

    def trials(self, ctx: Context) -> Iterator[tuple[int, int]]:
        n = len(ctx.model.options["header"])
        for var, value in super().trials(ctx):
            if value > var % n:
                yield var, value


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


# ---------------------------------------------------------------------------------------------
# Files and models
# ---------------------------------------------------------------------------------------------

Edge = str | tuple[str, str]


class PairPlaceFile(PuzzleFileBase):
    family: Literal["pairplace", "pair_place"]
    header: str | None = Field(default=None, description="the column letters, e.g. ABCDEF")
    n: int | None = Field(default=None, description="number of letters (default: the header's)")
    grid: list[str] | None = Field(default=None, description="one row per colour, . unknown")
    puzzle: list[str] | None = Field(default=None, description="the shared examples' grid")
    edges: list[Edge] | None = Field(
        default=None, description="the graph as letter pairs ('AB' or ['A', 'B']); default K_n"
    )
    colours: int | None = Field(default=None, description="number of rows (default: degree)")
    solution: list[str] | None = None
    verified_solution: bool | None = None


def parse_header(spec: PairPlaceFile) -> str:
    header = spec.header
    if header is None:
        require(spec.n is not None, "header", "is missing (give header or n)")
        n = int(spec.n)  # type: ignore[arg-type]
        require(2 <= n <= MAX_LETTERS, "n", f"{n} is outside 2-{MAX_LETTERS}")
        return LETTERS[:n]
    header = header.replace(" ", "")
    require(len(header) >= 2, "header", "needs at least two letters")
    require(len(header) <= MAX_LETTERS, "header", f"has more than {MAX_LETTERS} letters")
    require(len(set(header)) == len(header), "header", "repeats a letter")
    require("." not in header, "header", "'.' marks an unknown cell and cannot be a letter")
    require(
        spec.n is None or spec.n == len(header),
        "n",
        f"is {spec.n} but the header has {len(header)} letters",
    )
    return header


def parse_edges(header: str, edges: Sequence[Edge] | None) -> list[tuple[int, int]] | None:
    """Edges as sorted index pairs (None: the complete graph)."""
    if edges is None:
        return None
    out: set[tuple[int, int]] = set()
    for k, edge in enumerate(edges):
        field = f"edges[{k}]"
        pair = tuple(edge.replace("-", "").replace("–", "")) if isinstance(edge, str) else edge
        require(len(pair) == 2, field, f"{edge!r} is not a pair of letters")
        a, b = pair
        for letter in (a, b):
            require(letter in header, field, f"{letter!r} is not a header letter")
        require(a != b, field, f"{a}–{a} joins a letter to itself")
        i, j = sorted((header.index(a), header.index(b)))
        require((i, j) not in out, field, f"{a}–{b} is listed twice")
        out.add((i, j))
    return sorted(out)


def neighbour_masks(n: int, edges: Sequence[tuple[int, int]] | None) -> list[int]:
    if edges is None:
        full = (1 << n) - 1
        return [full & ~(1 << i) for i in range(n)]
    masks = [0] * n
    for i, j in edges:
        masks[i] |= 1 << j
        masks[j] |= 1 << i
    return masks


def build_model(header: str, edges: Sequence[tuple[int, int]] | None, colours: int | None) -> Model:
    """The empty pair place model on ``header`` (graph: ``edges`` or K_n)."""
    n = len(header)
    if edges is None:
        require(n % 2 == 0, "header", f"K_{n} has an odd number of letters; a row pairs them all")
    masks = neighbour_masks(n, edges)
    degrees = {m.bit_count() for m in masks}
    if len(degrees) != 1:
        low = min(range(n), key=lambda i: masks[i].bit_count())
        high = max(range(n), key=lambda i: masks[i].bit_count())
        require(
            False,
            "edges",
            f"the graph is not regular ({header[low]} has {masks[low].bit_count()} edges, "
            f"{header[high]} has {masks[high].bit_count()}); every letter needs one pair per row",
        )
    degree = degrees.pop()
    require(degree > 0, "edges", "no letter has an edge")
    require(n % 2 == 0, "header", f"{n} letters cannot all be paired in a row")
    rows = degree if colours is None else colours
    require(
        rows == degree,
        "colours",
        f"is {rows}, but every letter has {degree} edges and must have one in each row",
    )
    variables = tuple(
        Variable(f"r{r + 1}c{header[c]}", masks[c], r, c) for r in range(rows) for c in range(n)
    )
    constraints: list[Constraint] = []
    for c in range(n):
        cells = [r * n + c for r in range(rows)]
        constraints.append(LetterColumn(cells, f"column {header[c]}", masks[c], header))
    for r in range(rows):
        cells = [r * n + c for c in range(n)]
        constraints.append(PairRow(cells, f"row {r + 1}", header))
    edge_text = "K" if edges is None else ",".join(f"{header[i]}{header[j]}" for i, j in edges)
    return Model(
        family="pairplace",
        rows=rows,
        cols=n,
        variables=variables,
        constraints=tuple(constraints),
        symbols=dict(enumerate(header)),
        key=f"pairplace {header} rows={rows} graph={edge_text}",
        options={
            "header": header,
            "edges": None if edges is None else [header[i] + header[j] for i, j in edges],
            "colours": rows,
        },
    )


def parse_rows(
    model: Model, grid: Sequence[str], field: str, allow_open: bool = True
) -> list[int | None]:
    """Cell values (letter indices, None for ``.``), with one-line errors."""
    header = model.options["header"]
    require(
        len(grid) == model.rows,
        field,
        f"has {len(grid)} rows, expected {model.rows} (one per colour)",
    )
    out: list[int | None] = []
    for r, row in enumerate(grid):
        row = row.replace(" ", "")
        require(
            len(row) == model.cols,
            f"{field}[{r}]",
            f"row {r + 1} has {len(row)} cells, expected {model.cols}",
        )
        for c, char in enumerate(row):
            where = f"{field}[{r}]"
            if char == "." and allow_open:
                out.append(None)
                continue
            require(char in header, where, f"column {header[c]}: {char!r} is not a header letter")
            y = header.index(char)
            require(y != c, where, f"column {header[c]} cannot hold its own letter")
            require(
                model.variables[r * model.cols + c].domain >> y & 1,
                where,
                f"column {header[c]}: {header[c]}–{char} is not an edge of the graph",
            )
            out.append(y)
    return out


def format_rows(model: Model, state: State) -> list[str]:
    out = []
    for r in range(model.rows):
        row = []
        for c in range(model.cols):
            mask = state[r * model.cols + c]
            row.append(model.symbol(single_value(mask)) if is_single(mask) else ".")
        out.append("".join(row))
    return out


def examples_document(data: Mapping[str, Any]) -> list[dict[str, Any]] | None:
    """The puzzles of a pair place examples document (``{"system": "pair_place", "puzzles":
    [...]}``) as puzzle dicts; None for anything else. ``puzzle: null`` means no givens."""
    if data.get("system") != "pair_place" or not isinstance(data.get("puzzles"), list):
        return None
    out = []
    for item in data["puzzles"]:
        if not isinstance(item, dict):
            out.append(item)
            continue
        entry = {"family": "pairplace"}
        for key in ("id", "header", "n", "edges", "colours", "solution", "source", "name"):
            if item.get(key) is not None:
                entry[key] = item[key]
        if item.get("puzzle") is not None:
            entry["grid"] = item["puzzle"]
        out.append(entry)
    return out


# ---------------------------------------------------------------------------------------------
# The family
# ---------------------------------------------------------------------------------------------


class PairPlace(Family):
    name = "pairplace"
    title = "Pair place (edge colouring tables)"
    schema = PairPlaceFile
    example = {  # noqa: RUF012
        "family": "pairplace",
        "header": "ABCDEF",
        "grid": [".F....", "E.....", "C.....", "......", ".C...."],
    }

    def parse_document(self, data: Any) -> list[tuple[str, dict[str, Any]]] | None:
        found = examples_document(data) if isinstance(data, Mapping) else None
        if found is None:
            return None
        return [(f"puzzles[{i}]", item) for i, item in enumerate(found)]

    def build(self, spec: BaseModel) -> tuple[Model, State, list[int] | None]:
        assert isinstance(spec, PairPlaceFile)
        header = parse_header(spec)
        model = build_model(header, parse_edges(header, spec.edges), spec.colours)
        require(spec.grid is None or spec.puzzle is None, "puzzle", "give grid or puzzle, not both")
        grid = spec.grid if spec.grid is not None else spec.puzzle
        givens = model.initial_state()
        field = "grid" if spec.grid is not None else "puzzle"
        if grid is not None:
            for var, value in enumerate(parse_rows(model, grid, field)):
                if value is not None:
                    givens[var] = 1 << value
        solution = None
        if spec.solution is not None:
            values = parse_rows(model, spec.solution, "solution", allow_open=False)
            solution = [int(v) for v in values]  # type: ignore[arg-type]
            for constraint in model.constraints:
                require(
                    constraint.satisfied_by(solution),
                    "solution",
                    f"{constraint.label} breaks the rules",
                )
            for var, mask in enumerate(givens):
                require(
                    mask >> solution[var] & 1,
                    "solution",
                    f"disagrees with the givens at {model.name(var)}",
                )
        return model, givens, solution

    def format_grid(self, model: Model, state: State) -> list[str]:
        return format_rows(model, state)

    def text_rows(self, model: Model, state: State) -> list[str]:
        """The header letters and a rule above the rows."""
        header = model.options["header"]
        return [header, "-" * len(header), *format_rows(model, state)]

    def to_data(self, model: Model, state: State) -> dict[str, Any]:
        data: dict[str, Any] = {
            "family": "pairplace",
            "header": model.options["header"],
            "grid": format_rows(model, state),
        }
        if model.options.get("edges") is not None:
            data["edges"] = list(model.options["edges"])
        return data

    def board(self, model: Model, state: State, givens: State | None = None) -> Board:
        board = super().board(model, state, givens)
        board.header = list(model.options["header"])
        for r in range(model.rows):
            board.clues[("left", r)] = str(r + 1)
        return board

    def technique_table(self, model: Model) -> list[TechniqueSpec]:
        return pairplace_table()

    def graph(self, model: Model) -> Any:
        """The puzzle's graph as a networkx Graph on the header letters."""
        from rules.pairplace.graph import complete_graph, graph_from_edges

        header = model.options["header"]
        edges = model.options.get("edges")
        if edges is None:
            return complete_graph(header)
        return graph_from_edges(header, [(e[0], e[1]) for e in edges])

    def figure(self, model: Model, state: State, givens: State | None = None) -> Any:
        """A matplotlib Figure: the table beside the graph, edges drawn in their row's colour."""
        from rules.pairplace.graph import graph_figure

        board = self.board(model, state, givens)
        rows = format_rows(model, state)
        return graph_figure(self.graph(model), model.options["header"], rows, board)

    # -- generation ----------------------------------------------------------------------------

    def empty_model(self, size: tuple[int, int], options: Mapping[str, Any]) -> Model:
        """``size`` (rows, cols): cols is the number of letters; rows must be the degree (or
        equal cols, as ``--size N`` gives). Options: ``header``, ``edges`` (``"AB,BC,..."``
        or a list), ``graph`` (``complete`` or ``cycle``)."""
        unknown = set(options) - {"header", "edges", "graph"}
        if unknown:
            require(
                False,
                "rules",
                f"unknown option {sorted(unknown)[0]!r} (known: header, edges, graph)",
            )
        rows, n = size
        header = str(options.get("header") or LETTERS[:n])
        require(len(header) == n, "header", f"has {len(header)} letters, expected {n}")
        edges = options.get("edges")
        graph = options.get("graph", "complete")
        if isinstance(edges, str):
            edges = [e for e in edges.replace(" ", "").split(",") if e]
        if edges is None and graph == "cycle":
            edges = [header[i] + header[(i + 1) % n] for i in range(n)]
        else:
            require(
                graph in ("complete", "cycle"),
                "graph",
                f"unknown graph {graph!r} (known: complete, cycle; or give edges)",
            )
        spec = PairPlaceFile(family="pairplace", header=header, edges=edges)
        model = build_model(header, parse_edges(header, spec.edges), None)
        require(
            rows in (model.rows, n),
            "size",
            f"{rows} rows, but this graph needs {model.rows} (one per edge at each letter)",
        )
        return model

    def random_solution(self, model: Model, rng: random.Random) -> list[int]:
        """A random 1-factorization: rows filled one at a time with random perfect matchings
        of the edges left, backtracking when a row cannot be completed."""
        from grader.backtrack import solve_random

        solution = solve_random(model, model.initial_state(), rng)
        require(solution is not None, "edges", "this graph has no edge colouring with these rows")
        return solution  # type: ignore[return-value]

    def canonical_key(self, model: Model, state: State) -> str:
        """Rows are interchangeable colours: the key sorts them (letters are not relabelled)."""
        return model.key + "|" + "/".join(sorted(format_rows(model, state)))


FAMILY = PairPlace()
