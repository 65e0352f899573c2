"""Aligned pair and triplet exclusion (Sudoku Explainer's 6.2 and 7.5).

Take two (or three) open cells and the open cells with few candidates that every one of them
sees (the *excluders*). Try every way to give the base cells one candidate each: a way is out
when two base cells that see each other get the same value, or when it uses up every candidate
of an excluder. A candidate of a base cell that no remaining way uses is false. As in Sudoku
Explainer, a base cell needs an excluder (a peer with 2 to ``degree`` candidates) and no naked
single among its peers, the base cells need two common excluders, and the third cell of a
triplet is a base cell among the excluders of the first two."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, product

from grader.explain import Explainer
from grader.model import State, values_of
from grader.step import Step
from grader.technique import Context, Technique
from grader.techniques.houses import Houses, houses_of


def base_cells(houses: Houses, state: State, degree: int) -> dict[int, set[int]]:
    """Cells that can be a base cell, each with its excluders (peers with 2..degree
    candidates); none when a naked single is still to be placed among the peers."""
    out: dict[int, set[int]] = {}
    for var, mask in enumerate(state):
        if mask.bit_count() < 2:
            continue
        excluders = set()
        for peer in houses.peers[var]:
            count = state[peer].bit_count()
            if count == 1:
                if not houses.placed(state, peer):
                    break  # a naked single waits: leave this to the singles
            elif count <= degree:
                excluders.add(peer)
        else:
            if excluders:
                out[var] = excluders
    return out


def excluded(
    houses: Houses, state: State, cells: tuple[int, ...], excluders: list[int]
) -> list[tuple[int, int]]:
    """The candidates of ``cells`` that no allowed combination of their values uses."""
    masks = [state[v] for v in excluders]
    seeing = [
        (i, j) for i, j in combinations(range(len(cells)), 2) if cells[j] in houses.peers[cells[i]]
    ]
    used = [0] * len(cells)
    for values in product(*(list(values_of(state[v])) for v in cells)):
        if any(values[i] == values[j] for i, j in seeing):
            continue
        taken = 0
        for x in values:
            taken |= 1 << x
        if any(not mask & ~taken for mask in masks):
            continue
        for i, x in enumerate(values):
            used[i] |= 1 << x
    return [(v, x) for i, v in enumerate(cells) for x in values_of(state[v] & ~used[i])]


class AlignedExclusion(Technique):
    name = "aligned-pair-exclusion"
    title = "Aligned exclusion"
    description = (
        "Two (or three) cells and the cells with few candidates they all see: every way to fill "
        "the base cells that keeps them apart and leaves each of those cells a value is tried; "
        "a candidate no such way uses is false (Sudoku Explainer's aligned pair exclusion, 6.2, "
        "and aligned triplet exclusion, 7.5)."
    )

    def __init__(
        self, cost: float, level: str = "", name: str | None = None, degree: int = 2
    ) -> None:
        super().__init__(cost, level, name)
        self.degree = degree

    def find(self, ctx: Context) -> Iterator[Step]:
        houses = houses_of(ctx.model)
        state = ctx.state
        bases = base_cells(houses, state, self.degree)
        order = list(bases)
        for a, b in combinations(order, 2):
            if self.degree == 2:
                tails: list[tuple[int, ...]] = [()]
            else:
                area = sorted((bases[a] | bases[b]) & bases.keys() - {a, b})
                tails = list(combinations(area, self.degree - 2))
            for tail in tails:
                cells = (a, b, *tail)
                common = set(bases[a])
                for v in cells[1:]:
                    common &= bases[v]
                if len(common) < 2:
                    continue
                ctx.check_time()
                excluders = sorted(common)
                elims = excluded(houses, state, cells, excluders)
                if elims:
                    yield self.make(eliminations=elims, cells=cells, excluders=tuple(excluders))
                    return

    def explain(self, step: Step, ex: Explainer) -> str:
        cells = ex.cells(step.data["cells"])
        excluders = ex.cells(step.data["excluders"])
        return (
            f"every way to fill {cells} either repeats a value where they see each other or "
            f"empties one of {excluders}, which they all see"
        )
