"""Basic fish: X-wing, swordfish, jellyfish on the rows and columns of a grid.

A base line must hold the value (its house ``covers`` it); a cover line need only hold it at most
once, so fish work on partial lines too (a siteswap run cut by a hole): each of N base lines puts
the value in one of N cover lines, and each cover line takes it once, from one of the bases.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from grader.core.evidence import Evidence, constraints_by_label
from grader.core.explain import Explainer, listed
from grader.core.model import Model, values_of
from grader.core.step import Step
from grader.core.technique import Context, Technique
from grader.techniques.houses import houses_of

FISH_NAMES = {2: "x-wing", 3: "swordfish", 4: "jellyfish"}
FISH_TITLES = {2: "X-wing", 3: "Swordfish", 4: "Jellyfish"}


@dataclass(frozen=True)
class FishLines:
    """The line houses of one direction (rows or columns) and where their cells cross."""

    base: tuple[int, ...]
    """Houses of this direction that must hold some value (fish bases)."""
    cover_of: dict[int, int]
    """Cell → the house of the other direction it lies in (its real column for a row)."""


def fish_lines(model: Model) -> tuple[FishLines, FishLines]:
    """Rows as bases with columns as covers, and the other way round.

    Cells are mapped to the house of their real row and column, so partial lines (a run cut
    by a hole) line up with the lines they cross. A cell in two lines of one direction makes
    that direction unusable (no such family today).
    """
    found = model.memo.get("fish_lines")
    if found is None:
        houses = houses_of(model)
        of_shape: dict[str, list[int]] = {"row": [], "column": []}
        for h, shape in enumerate(houses.shape):
            if shape in of_shape:
                of_shape[shape].append(h)
        out = []
        for base_shape, cover_shape in (("row", "column"), ("column", "row")):
            cover_of: dict[int, int] = {}
            clash = False
            for h in of_shape[cover_shape]:
                for v in houses.cells[h]:
                    clash = clash or v in cover_of
                    cover_of[v] = h
            bases: list[int] = []
            seen: set[int] = set()
            for h in of_shape[base_shape]:
                if houses.covers[h] and not seen & set(houses.cells[h]):
                    bases.append(h)
                    seen.update(houses.cells[h])
            out.append(FishLines(() if clash else tuple(bases), cover_of))
        found = (out[0], out[1])
        model.memo["fish_lines"] = found
    return found


def base_spots(ctx: Context, lines: FishLines, direction: int, value: int) -> list[tuple[int, int]]:
    """(base house, the cover houses of its places of ``value`` as a bitset) for each base
    line that must hold the value and has two or more places, all on cover lines; kept in
    :attr:`Context.memo` (a view of this state) for the fish of every size."""
    key = ("fish spots", direction, value)
    found = ctx.memo.get(key)
    if found is not None:
        return found
    houses = houses_of(ctx.model)
    state = ctx.state
    cover_of = lines.cover_of
    bit = 1 << value
    found = []
    for h in lines.base:
        if not houses.covers[h] & bit:
            continue  # the value need not appear in this line
        covers = 0
        for v in houses.cells[h]:
            if state[v] & bit:
                cover = cover_of.get(v, -1)
                if cover < 0:  # a place on no cover line
                    covers = 0
                    break
                covers |= 1 << cover
        if covers.bit_count() >= 2:
            found.append((h, covers))
    ctx.memo[key] = found
    return found


class Fish(Technique):
    name = "x-wing"
    title = "Fish"
    description = (
        "A value whose places in N rows lie in just N columns (or the other way round): each of "
        "those columns gets the value in one of these rows, so the rest of the columns lose it. "
        "N = 2 is an X-wing, 3 a swordfish, 4 a jellyfish."
    )

    reads_solutions = False

    def __init__(
        self, cost: float, level: str = "", name: str | None = None, degree: int = 2
    ) -> None:
        super().__init__(cost, level, name or self.default_name(degree=degree))
        self.degree = degree
        self.title = FISH_TITLES.get(degree, f"Fish of {degree}")

    @classmethod
    def default_name(cls, degree: int = 2, **kwargs: Any) -> str:
        return FISH_NAMES.get(degree, f"fish-{degree}")

    def find(self, ctx: Context) -> Iterator[Step]:
        houses = houses_of(ctx.model)
        state = ctx.state
        k = self.degree
        for direction, (lines, base_word) in enumerate(
            zip(fish_lines(ctx.model), ("rows", "columns"), strict=True)
        ):
            for value in values_of(houses.values):
                bit = 1 << value
                spots = [
                    (h, covers)
                    for h, covers in base_spots(ctx, lines, direction, value)
                    if covers.bit_count() <= k
                ]
                for group in combinations(spots, k):
                    union = 0
                    for _, covers in group:
                        union |= covers
                    if union.bit_count() != k:
                        continue
                    base = {h for h, _ in group}
                    inside = {v for h in base for v in houses.cells[h]}
                    elims = [
                        (v, value)
                        for c in values_of(union)
                        for v in houses.cells[c]
                        if v not in inside and state[v] & bit
                    ]
                    if elims:
                        yield self.make(
                            eliminations=elims,
                            value=value,
                            base=[houses.labels[h] for h in sorted(base)],
                            cover=[houses.labels[c] for c in values_of(union)],
                            word=base_word,
                        )

    def evidence(self, step: Step, model: Model) -> Evidence:
        """The base lines the value is confined to, and the cells where they cross the cover
        lines (the fish's corners)."""
        labels = constraints_by_label(model)
        units = frozenset(v for label in step.data["base"] for v in labels.get(label, ()))
        covers = {v for label in step.data["cover"] for v in labels.get(label, ())}
        base, cover = tuple(step.data["base"]), tuple(step.data["cover"])
        return Evidence(
            used=frozenset(units & covers),
            units=units,
            changed=frozenset(step.changed_vars()),
            unit_labels=base + cover,
            unit_roles=(("base", base), ("cover", cover)),
        )

    def explain(self, step: Step, ex: Explainer) -> str:
        value = ex.value(step.data["value"])
        bases = listed(step.data["base"])
        covers = step.data["cover"]
        return (
            f"{self.title} on {value}: in {bases}, {value} lies only in {listed(covers)}, "
            f"so the rest of {'those lines' if len(covers) > 1 else 'that line'} cannot hold it"
        )
