"""Basic fish: X-wing, swordfish, jellyfish on the rows and columns of a grid."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from grader.explain import Explainer
from grader.model import Model, values_of
from grader.step import Step
from grader.technique import Context, Technique
from grader.techniques.houses import SUBSET_NAMES, houses_of

FISH_NAMES = {2: "x-wing", 3: "swordfish", 4: "jellyfish"}


Lines = list[tuple[tuple[int, ...], str]]


def line_sets(model: Model) -> tuple[Lines, Lines]:
    """Covering rows and columns (cells ordered by position, label)."""
    found = model.memo.get("fish_lines")
    if found is None:
        houses = houses_of(model)
        rows, cols = [], []
        for h, cells in enumerate(houses.cells):
            if houses.is_box[h] or not houses.covering[h]:
                continue
            if len({model.variables[v].row for v in cells}) == 1:
                rows.append(
                    (tuple(sorted(cells, key=lambda v: model.variables[v].col)), houses.labels[h])
                )
            elif len({model.variables[v].col for v in cells}) == 1:
                cols.append(
                    (tuple(sorted(cells, key=lambda v: model.variables[v].row)), houses.labels[h])
                )
        found = (rows, cols)
        model.memo["fish_lines"] = found
    return found


class Fish(Technique):
    name = "x-wing"
    title = "Fish"
    description = (
        "A value whose places in N rows lie in just N columns (or the other way round): each of "
        "those columns gets the value in one of these rows, so the rest of the columns lose it. "
        "N = 2 is an X-wing, 3 a swordfish, 4 a jellyfish."
    )

    def __init__(
        self, cost: float, level: str = "", name: str | None = None, degree: int = 2
    ) -> None:
        super().__init__(cost, level, name or FISH_NAMES.get(degree, f"fish-{degree}"))
        self.degree = degree

    def find(self, ctx: Context) -> Iterator[Step]:
        model = ctx.model
        houses = houses_of(model)
        state = ctx.state
        rows, cols = line_sets(model)
        k = self.degree
        for base_lines, cover_lines, base_word in ((rows, cols, "rows"), (cols, rows, "columns")):
            if len(base_lines) != len(cover_lines) or len(base_lines) <= k:
                continue
            for value in values_of(houses.values):
                bit = 1 << value
                spots = []
                for index, (line, _) in enumerate(base_lines):
                    mask = 0
                    for i, v in enumerate(line):
                        if state[v] & bit:
                            mask |= 1 << i
                    if 2 <= mask.bit_count() <= k:
                        spots.append((index, mask))
                for group in combinations(spots, k):
                    union = 0
                    for _, mask in group:
                        union |= mask
                    if union.bit_count() != k:
                        continue
                    base = {i for i, _ in group}
                    elims = []
                    for j in values_of(union):
                        for index, v in enumerate(cover_lines[j][0]):
                            if index not in base and state[v] & bit:
                                elims.append((v, value))
                    if elims:
                        yield self.make(
                            eliminations=elims,
                            value=value,
                            base=[base_lines[i][1] for i in sorted(base)],
                            word=base_word,
                        )

    def explain(self, step: Step, ex: Explainer) -> str:
        value = ex.value(step.data["value"])
        lines = ", ".join(step.data["base"])
        return (
            f"{SUBSET_NAMES.get(self.degree, self.degree)}-line fish on {value}: in {lines} "
            f"{value} is confined to {self.degree} crossing lines, which lose it elsewhere"
        )
