"""Lookahead of depth d: assume a value, propagate with cheaper techniques, reach a contradiction.

Depth 1 propagates with every non-lookahead technique cheaper than itself; depth d may nest
lookaheads up to depth d - 1 inside. Of all assumptions that fail, the one with the shortest
chain is kept, as a person would explain the simplest one. The step records the assumption,
the chain of steps it forced and the contradiction reached.

A known solution (from the exact search, or one a trial completed) lets lookahead skip its
values, but only while the solution fits the state looked from: sound steps never contradict an
assumption that a solution of the state shares, so the skip saves time and changes nothing. At
the top level the exact search's solution always fits; inside an assumption it may not (the
assumption may exclude it), and skipping there would change the steps, making a rating depend
on whether the answer was known.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from grader.explain import Explainer
from grader.model import values_of
from grader.step import Step
from grader.technique import Context, EngineTimeout, Technique


def fits(solution: list[int], state: list[int]) -> bool:
    """Whether every variable of ``state`` still has the solution's value."""
    return all(mask >> value & 1 for mask, value in zip(state, solution, strict=True))


class Lookahead(Technique):
    name = "lookahead"
    title = "Lookahead"
    description = (
        "Assume a cell holds a value and follow what the cheaper techniques deduce from it; if "
        "that leads to a contradiction the value is removed. Depth d allows d nested "
        "assumptions."
    )
    batch = False

    def __init__(
        self, cost: float, level: str = "", name: str | None = None, depth: int = 1
    ) -> None:
        super().__init__(cost, level, name or self.default_name(depth=depth))
        self.depth = depth

    @classmethod
    def default_name(cls, depth: int = 1, **kwargs: Any) -> str:
        return f"lookahead-{depth}"

    def find(self, ctx: Context) -> Iterator[Step]:
        engine = ctx.engine
        cheaper = [t for t in engine.techniques if t.cost < self.cost and t.name != "guess"]
        sub = engine.sub_engine(cheaper)
        state = ctx.state
        best = None
        fitting: list[list[int]] = []  # known solutions that fit this state
        seen = 0
        for var, value in self.trials(ctx):
            ctx.check_time()
            if seen < len(engine.solutions):  # a trial may have completed a new one
                fitting += [s for s in engine.solutions[seen:] if fits(s, state)]
                seen = len(engine.solutions)
            if any(s[var] == value for s in fitting):
                continue  # a value of a solution of this state never leads to a contradiction
            cap = None if best is None else len(best[2].steps) - 1
            if cap is not None and cap < 0:
                break
            trial = list(state)
            trial[var] = 1 << value
            run = sub.run(trial, changed=[var], max_steps=cap)
            if run.status == "timeout":
                raise EngineTimeout
            if run.status == "solved":
                engine.learn_solution(run.state)
            if run.status == "contradiction" and (
                best is None or len(run.steps) < len(best[2].steps)
            ):
                best = (var, value, run)
        if best is None:
            return
        var, value, run = best
        yield self.make(
            eliminations=[(var, value)],
            assume=(var, value),
            chain=tuple(run.steps),
            contradiction_reason=run.contradiction.reason if run.contradiction else "",
            depth=self.depth,
        )

    def trial_vars(self, ctx: Context) -> Iterator[int]:
        """The open variables whose values are tried (a family may narrow them to its cells)."""
        return (v for v, m in enumerate(ctx.state) if m & (m - 1))

    def trials(self, ctx: Context) -> Iterator[tuple[int, int]]:
        """The assumptions to try, cells with fewest candidates first. A family whose model
        states one fact in two cells may override this to try each fact once."""
        state = ctx.state
        order = sorted(self.trial_vars(ctx), key=lambda v: (state[v].bit_count(), v))
        return ((var, value) for var in order for value in values_of(state[var]))

    def explain(self, step: Step, ex: Explainer) -> str:
        var, value = step.data["assume"]
        chain = step.data["chain"]
        said = [ex.text(s) for s in chain if not s.contradiction]
        middle = f", then {'; '.join(said)}" if said else ""
        ending = step.data["contradiction_reason"]
        return f"if {ex.cell(var)} were {ex.value(value)}{middle}; but then {ending}"
