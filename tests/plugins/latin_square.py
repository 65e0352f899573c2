"""A family written as a third party would write one, outside the project: Latin squares
(every row and every column holds each symbol once). It reaches the engine through the
``grader.families`` entry point only, and uses nothing but ``grader``'s public pieces, to show
that a plugin can pass the conformance kit (``tests/test_conformance.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import permutations
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from grader.core.constraints import AllDifferent
from grader.core.model import Model, State, Variable, cell_name, is_single, single_value
from grader.rating.family import Family, TechniqueSpec, require
from grader.techniques.houses import FullHouse, HiddenSingle, HiddenSubset, NakedSingle
from grader.techniques.lookahead import Lookahead

SYMBOLS = "123456789"


class LatinFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    family: Literal["latin"]
    grid: list[str]
    id: str | int | None = None
    name: str | None = None
    meta: dict[str, Any] | None = None


def latin_model(n: int) -> Model:
    full = (1 << n) - 1
    variables = tuple(Variable(cell_name(r, c), full, r, c) for r in range(n) for c in range(n))
    rows = [AllDifferent([r * n + c for c in range(n)], f"row {r + 1}", full) for r in range(n)]
    cols = [AllDifferent([r * n + c for r in range(n)], f"column {c + 1}", full) for c in range(n)]
    return Model(
        family="latin",
        rows=n,
        cols=n,
        variables=variables,
        constraints=tuple(rows + cols),
        symbols=dict(enumerate(SYMBOLS[:n])),
        key=f"latin {n}",
    )


class LatinSquare(Family):
    name = "latin"
    title = "Latin square"
    schema = LatinFile
    default_size = (4, 4)
    largest_size = (9, 9)
    reachable = {(4, 4): ("trivial", "easy")}  # noqa: RUF012

    def build(self, spec: BaseModel) -> tuple[Model, State, list[int] | None]:
        assert isinstance(spec, LatinFile)
        n = len(spec.grid)
        require(2 <= n <= 9, "grid", f"has {n} rows, expected 2 to 9")
        model = latin_model(n)
        givens = model.initial_state()
        for r, row in enumerate(spec.grid):
            require(len(row) == n, "grid", f"row {r + 1} has {len(row)} cells, expected {n}")
            for c, char in enumerate(row):
                if char != ".":
                    require(char in SYMBOLS[:n], "grid", f"unknown symbol {char!r}")
                    givens[r * n + c] = 1 << SYMBOLS.index(char)
        return model, givens, None

    def format_grid(self, model: Model, state: State) -> list[str]:
        n = model.rows
        return [
            "".join(
                model.symbol(single_value(state[r * n + c])) if is_single(state[r * n + c]) else "."
                for c in range(n)
            )
            for r in range(n)
        ]

    def to_data(self, model: Model, state: State) -> dict[str, Any]:
        return {"family": "latin", "grid": self.format_grid(model, state)}

    def technique_table(self, model: Model) -> list[TechniqueSpec]:
        return [
            TechniqueSpec(FullHouse, 1.0, "trivial"),
            TechniqueSpec(HiddenSingle, 1.5, "trivial", kwargs={"boxes": False}),
            TechniqueSpec(NakedSingle, 2.0, "easy"),
            TechniqueSpec(HiddenSubset, 3.0, "normal", name="hidden-pair", kwargs={"degree": 2}),
            TechniqueSpec(Lookahead, 7.0, "expert", kwargs={"depth": 1}),
        ]

    def empty_model(self, size: tuple[int, int], options: Mapping[str, Any]) -> Model:
        require(size[0] == size[1], "size", "a Latin square is square")
        require(not options, "rules", "a Latin square has no options")
        return latin_model(size[0])

    def symmetric_copies(self, data: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        grid = data["grid"]
        n = len(grid)
        turned = ["".join(row[c] for row in grid) for c in range(n)]
        renamed = str.maketrans(SYMBOLS[:n], SYMBOLS[1:n] + SYMBOLS[0])
        return [
            ("transpose", {**data, "grid": turned}),
            ("rows reversed", {**data, "grid": grid[::-1]}),
            ("symbols renamed", {**data, "grid": [row.translate(renamed) for row in grid]}),
        ]

    def canonical_key(self, model: Model, state: State) -> str:
        """The least grid over every row and column order and transposition, symbols renamed
        in order of first appearance (fine for the small squares this family makes)."""
        grid = self.format_grid(model, state)
        n = len(grid)
        best = None
        for g in (grid, ["".join(row[c] for row in grid) for c in range(n)]):
            for rows in permutations(range(n)):
                for cols in permutations(range(n)):
                    labels: dict[str, str] = {}
                    text = "".join(
                        "." if g[r][c] == "." else labels.setdefault(g[r][c], SYMBOLS[len(labels)])
                        for r in rows
                        for c in cols
                    )
                    if best is None or text < best:
                        best = text
        return f"latin {n}:{best}"


FAMILY = LatinSquare()
