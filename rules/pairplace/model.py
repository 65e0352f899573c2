"""The pair place model: a row constraint (reflexive, a perfect matching) and a column
constraint (each of its letters once) on a regular graph's edges, and the shape of a puzzle
(letters, graph, rows) read back from a model."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from grader.core.constraints import AllDifferent, Constraint, Pruned
from grader.core.model import Model, State, Variable, is_single, single_value, values_of
from grader.core.step import Assignment
from grader.rating.family import require
from rules.pairplace.matching import matching_supports, row_adjacency

if TYPE_CHECKING:
    from grader.core.exact import CnfBuilder


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
            return f"has no row left for {self.letters[values_of(missing)[0]]}"
        return None


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
