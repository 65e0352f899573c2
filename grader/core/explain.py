"""Plain-words explanations, rendered from a step's data after the search."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from grader.core.evidence import Evidence, Node, default_evidence
from grader.core.model import Model, values_of
from grader.core.step import Contradiction, Step
from grader.core.technique import Technique


class Explainer:
    """Renders steps of one model: names of cells and values, conclusions and reasons."""

    def __init__(self, model: Model, techniques: Iterable[Technique]) -> None:
        self.model = model
        self.by_name = {t.name: t for t in techniques}
        self._evidence: dict[int, tuple[Step, Evidence]] = {}

    def cell(self, var: int) -> str:
        return self.model.name(var)

    def cells(self, variables: Sequence[int]) -> str:
        return listed([self.cell(v) for v in variables])

    def value(self, value: int) -> str:
        return self.model.symbol(value)

    def plural(self, value: int, count: int | None = None) -> str:
        """``three 0s``, ``one sun``; without a count just the plural name."""
        name = self.model.value_name(value)
        word = name if count == 1 else f"{name}s"
        return word if count is None else f"{number_word(count)} {word}"

    def conclusion(self, var: int, value: int, placed: bool) -> str:
        domain = self.model.variables[var].domain
        if not placed:
            rest = [x for x in values_of(domain) if x != value]
            if len(rest) == 1:
                return f"{self.cell(var)} = {self.value(rest[0])}"
            return f"{self.cell(var)} ≠ {self.value(value)}"
        return f"{self.cell(var)} = {self.value(value)}"

    def conclusions(self, step: Step) -> str:
        """Placements, then eliminations grouped by cell (``r3c2 ≠ 1, 2, 4``). When a step only
        crosses its placed values out of other cells, those are left unsaid (a player's pencil)."""
        parts = [self.conclusion(v, x, True) for v, x in step.placements]
        placed_values = {x for _, x in step.placements}
        placed_as = dict(step.placements)
        # a placed cell losing its other values is the placement itself: left unsaid
        eliminations = [(v, x) for v, x in step.eliminations if placed_as.get(v, x) == x]
        if parts and all(x in placed_values and v not in placed_as for v, x in eliminations):
            return ", ".join(parts)  # the rest is crossing the placed values out of their peers
        by_cell: dict[int, list[int]] = {}
        for var, value in eliminations:
            by_cell.setdefault(var, []).append(value)
        for var, values in by_cell.items():
            if len(values) == 1:
                parts.append(self.conclusion(var, values[0], False))
            else:
                shown = ", ".join(self.value(x) for x in sorted(values))
                parts.append(f"{self.cell(var)} ≠ {shown}")
        return ", ".join(parts)

    def reason(self, step: Step) -> str:
        technique = self.by_name.get(step.technique)
        if technique is None:
            return step.technique
        return technique.explain(step, self)

    def text(self, step: Step) -> str:
        """``r3c5 = 0: row 3 already holds its three 1s``."""
        if step.contradiction is not None and not (step.placements or step.eliminations):
            return f"contradiction: {self.reason(step)}"
        conclusions = self.conclusions(step)
        return f"{conclusions}: {self.reason(step)}" if conclusions else self.reason(step)

    def contradiction(self, contradiction: Contradiction) -> str:
        return contradiction.reason

    def evidence(self, step: Step) -> Evidence:
        """The step's evidence, as its technique reads it (once per step: the JSON trace and
        the pictures of one report share it)."""
        known = self._evidence.get(id(step))
        if known is not None and known[0] is step:
            return known[1]
        technique = self.by_name.get(step.technique)
        if technique is None:
            found = default_evidence(step, self.model)
        else:
            found = technique.evidence(step, self.model)
        self._evidence[id(step)] = (step, found)
        return found

    def node_dict(self, node: Node) -> dict[str, Any]:
        return {"cell": self.cell(node.var), "value": self.value(node.value), "on": node.on}

    def evidence_dict(self, evidence: Evidence) -> dict[str, Any]:
        """The evidence as the JSON report gives it: ``cells`` (what the step read, never
        empty: the cells it looked at, else its units', else those it changed) and ``units``
        always; ``nodes``, ``links``, ``assumption``, ``contradiction``, the roles (``pivot``,
        ``pincers``, ``base``, ``cover``...) and ``inner`` where the technique has them."""
        read = evidence.used or evidence.units or evidence.changed
        out: dict[str, Any] = {
            "cells": [self.cell(v) for v in sorted(read)],
            "units": list(evidence.unit_labels),
        }
        if evidence.nodes:
            out["nodes"] = [self.node_dict(n) for n in evidence.nodes]
            out["links"] = [[k.source, k.target, k.kind] for k in evidence.links]
        if evidence.assumption is not None:
            out["assumption"] = self.node_dict(evidence.assumption)
        if evidence.contradiction:
            out["contradiction"] = evidence.contradiction
        for role, variables in evidence.roles:
            out[role] = [self.cell(v) for v in variables]
        for role, units in evidence.unit_roles:
            out[role] = list(units)
        if evidence.inner:
            out["inner"] = [self.evidence_dict(e) for e in evidence.inner]
        return out


NUMBER_WORDS = (
    "no",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
)


def number_word(count: int) -> str:
    return NUMBER_WORDS[count] if 0 <= count < len(NUMBER_WORDS) else str(count)


def listed(words: Sequence[str]) -> str:
    """``r1c1``, ``row 1 and row 4``, ``1, 3 and 4``: words as a sentence lists them."""
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]
