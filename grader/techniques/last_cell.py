"""Last cell: a line with one open cell takes the only value that completes it."""

from __future__ import annotations

from collections.abc import Iterator

from grader.core.constraints import Constraint, Line
from grader.core.explain import Explainer
from grader.core.model import State, is_single, single_value, values_of
from grader.core.step import Assignment, Step
from grader.core.technique import Context, Technique


class LastCell(Technique):
    name = "last-cell"
    title = "Last cell of a line"
    description = (
        "A row, column or run with a single open cell: only the values that complete it into a "
        "valid line remain. In Binairo this is the missing value; in a siteswap run, the throws "
        "that land on the one free landing site."
    )
    kinds = ("line",)

    def steps_in(self, ctx: Context, constraint: Constraint) -> list[Step]:
        assert isinstance(constraint, Line)
        if self.open_position(ctx, constraint) is None:
            return []  # the common case, without starting the generator
        return list(self.find_in(ctx, constraint))

    def find_in(self, ctx: Context, constraint: Constraint) -> Iterator[Step]:
        assert isinstance(constraint, Line)
        state = ctx.state
        index = self.open_position(ctx, constraint)
        if index is None:
            return
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

    def open_position(self, ctx: Context, constraint: Line) -> int | None:
        """The position of the line's only open cell, or None (a family may count faster)."""
        return last_open(constraint, ctx.state)

    def placements_in(self, ctx: Context, constraint: Constraint) -> list[Assignment] | None:
        assert isinstance(constraint, Line)
        state = ctx.state
        index = self.open_position(ctx, constraint)
        if index is None:
            return []
        var = constraint.vars[index]
        support = constraint.supports(state)
        allowed = 0 if support is None else support[index]
        if allowed == state[var]:
            return []
        if is_single(allowed):
            return [(var, single_value(allowed))]
        return None  # an elimination or a contradiction: the step says which

    def explain(self, step: Step, ex: Explainer) -> str:
        unit = step.data["unit"]
        if step.contradiction:
            return (
                f"{unit} has one open cell, {ex.cell(step.data['cell'])}, and no value completes it"
            )
        return f"it is the last open cell of {unit}, and only this completes the line"


def last_open(line: Line, state: State) -> int | None:
    """The position of a line's only open cell, or None (no open cell, or several)."""
    masks = line.read(state)
    if sum(map((1).__lt__, map(int.bit_count, masks))) != 1:
        return None
    return next(i for i, mask in enumerate(masks) if mask & (mask - 1))
