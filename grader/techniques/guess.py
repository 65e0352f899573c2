"""Guess: when asked to, place a value of the exact search's solution and go on."""

from __future__ import annotations

from collections.abc import Iterator

from grader.core.explain import Explainer
from grader.core.model import values_of
from grader.core.step import Step
from grader.core.technique import Context, Technique


class Guess(Technique):
    name = "guess"
    title = "Guess"
    description = (
        "No technique applies: a cell with the fewest candidates is given its value from the "
        "solution, as a solver who guesses right would. Only used when guessing is allowed."
    )
    batch = False

    def find(self, ctx: Context) -> Iterator[Step]:
        if ctx.solution is None:
            return
        state = ctx.state
        best = None
        for var, mask in enumerate(state):
            if mask & (mask - 1):
                size = sum(1 for _ in values_of(mask))
                if best is None or size < best[0]:
                    best = (size, var)
        if best is None:
            return
        var = best[1]
        yield self.make(placements=[(var, ctx.solution[var])], cell=var, candidates=best[0])

    def explain(self, step: Step, ex: Explainer) -> str:
        return f"a guess among {step.data['candidates']} candidates (taken from the solution)"
