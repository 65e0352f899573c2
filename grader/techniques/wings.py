"""Wings: XY-wing and XYZ-wing around a pivot cell."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from grader.core.evidence import Evidence
from grader.core.explain import Explainer
from grader.core.model import Model, is_single
from grader.core.step import Step
from grader.core.technique import Context, Technique
from grader.techniques.houses import houses_of


class XYWing(Technique):
    name = "xy-wing"
    title = "XY-wing"
    description = (
        "A pivot with candidates xy sees two pincers xz and yz: whichever value the pivot "
        "takes, one pincer is z, so a cell seeing both pincers cannot be z. In the XYZ-wing the "
        "pivot is xyz and the eliminated cell must also see the pivot."
    )

    reads_solutions = False

    def __init__(
        self, cost: float, level: str = "", name: str | None = None, xyz: bool = False
    ) -> None:
        super().__init__(cost, level, name or self.default_name(xyz=xyz))
        self.xyz = xyz
        self.title = "XYZ-wing" if xyz else "XY-wing"

    @classmethod
    def default_name(cls, xyz: bool = False, **kwargs: Any) -> str:
        return "xyz-wing" if xyz else "xy-wing"

    def find(self, ctx: Context) -> Iterator[Step]:
        houses = houses_of(ctx.model)
        state = ctx.state
        size = 3 if self.xyz else 2
        for pivot, pmask in enumerate(state):
            if pmask.bit_count() != size or is_single(pmask):
                continue
            wings = [
                p
                for p in houses.peers[pivot]
                if state[p].bit_count() == 2
                and (state[p] & pmask).bit_count() == (2 if self.xyz else 1)
            ]
            for i, a in enumerate(wings):
                for b in wings[i + 1 :]:
                    am, bm = state[a], state[b]
                    if am == bm:
                        continue
                    z = am & bm
                    if z.bit_count() != 1:
                        continue
                    if self.xyz:
                        if (am | bm) != pmask or not (z & pmask):
                            continue
                    elif z & pmask or (am | bm) & ~z != pmask:
                        continue
                    value = z.bit_length() - 1
                    seen = set(houses.peers[a]) & set(houses.peers[b])
                    if self.xyz:
                        seen &= set(houses.peers[pivot])
                    seen -= {pivot, a, b}
                    elims = [(v, value) for v in sorted(seen) if state[v] & z]
                    if elims:
                        yield self.make(eliminations=elims, pivot=pivot, wings=(a, b), value=value)

    def explain(self, step: Step, ex: Explainer) -> str:
        a, b = step.data["wings"]
        z = ex.value(step.data["value"])
        pivot = ex.cell(step.data["pivot"])
        head = f"pivot {pivot} with pincers {ex.cell(a)} and {ex.cell(b)}"
        if self.xyz:  # the pivot holds z too: z is in the pivot or in a pincer
            return f"{head}: whichever value the pivot takes, one of the three is {z}"
        return f"{head}: whichever value the pivot takes, one pincer is {z}"

    def evidence(self, step: Step, model: Model) -> Evidence:
        """The pivot and its two pincers."""
        pivot, pincers = step.data["pivot"], tuple(step.data["wings"])
        return Evidence(
            used=frozenset((pivot, *pincers)),
            units=frozenset(),
            changed=frozenset(step.changed_vars()),
            roles=(("pivot", (pivot,)), ("pincers", pincers)),
        )
