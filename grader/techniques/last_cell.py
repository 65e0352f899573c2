"""Last cell: a line with one open cell takes the only value that completes it."""

from __future__ import annotations

from collections.abc import Iterator

from grader.constraints import Constraint, Line
from grader.explain import Explainer
from grader.model import is_single, single_value, values_of
from grader.step import Step
from grader.technique import Context, Technique


class LastCell(Technique):
    name = "last-cell"
    title = "Last cell of a line"
    description = (
        "A row, column or run with a single open cell: only the values that complete it into a "
        "valid line remain. In Binairo this is the missing value; in a siteswap run, the throws "
        "that land on the one free landing site."
    )
    kinds = ("line",)

    def find_in(self, ctx: Context, constraint: Constraint) -> Iterator[Step]:
        assert isinstance(constraint, Line)
        state = ctx.state
        open_cells = [i for i, v in enumerate(constraint.vars) if state[v] & (state[v] - 1)]
        if len(open_cells) != 1:
            return
        index = open_cells[0]
        var = constraint.vars[index]
        support = constraint.supports(state)
        allowed = 0 if support is None else support[index]
        if not allowed:
            yield self.make(
                contradiction=f"no value completes {constraint.label}",
                unit=constraint.label,
                cell=var,
            )
            return
        if allowed == state[var]:
            return
        if is_single(allowed):
            yield self.make(
                placements=[(var, single_value(allowed))], unit=constraint.label, cell=var
            )
        else:
            gone = state[var] & ~allowed
            yield self.make(
                eliminations=[(var, x) for x in values_of(gone)], unit=constraint.label, cell=var
            )

    def explain(self, step: Step, ex: Explainer) -> str:
        unit = step.data["unit"]
        if step.contradiction:
            return (
                f"{unit} has one open cell, {ex.cell(step.data['cell'])}, and no value completes it"
            )
        return f"it is the last open cell of {unit}, and only this completes the line"
