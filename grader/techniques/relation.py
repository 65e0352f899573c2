"""Relation propagation: a sign (or other binary relation) with a known cell decides its partner."""

from __future__ import annotations

from collections.abc import Iterator

from grader.core.constraints import Constraint, Relation
from grader.core.explain import Explainer
from grader.core.model import is_single, single_value, values_of
from grader.core.step import Step
from grader.core.technique import Context, Technique


class RelationPropagation(Technique):
    name = "sign"
    title = "Sign next to a known cell"
    description = (
        "Two cells joined by a relation (a sign between them, such as = or x): once one of them "
        "is known, or loses a candidate, the other keeps only the values compatible with it."
    )
    kinds = ("relation",)

    def find_in(self, ctx: Context, constraint: Constraint) -> Iterator[Step]:
        assert isinstance(constraint, Relation)
        state = ctx.state
        for var, other in ((constraint.a, constraint.b), (constraint.b, constraint.a)):
            narrowed = constraint.supported(var, state)
            if narrowed == state[var]:
                continue
            data = {
                "unit": constraint.label,
                "symbol": constraint.symbol,
                "other": other,
                "cells": (var, other),
            }
            if is_single(state[other]):
                data["other_value"] = single_value(state[other])
            if is_single(narrowed):
                yield self.make(placements=[(var, single_value(narrowed))], **data)
            else:
                gone = state[var] & ~narrowed
                yield self.make(eliminations=[(var, x) for x in values_of(gone)], **data)
            return

    def explain(self, step: Step, ex: Explainer) -> str:
        data = step.data
        other = ex.cell(data["other"])
        if "other_value" in data:
            return f"{data['unit']}, and {other} is {ex.value(data['other_value'])}"
        return f"{data['unit']}, given what {other} can still be"
