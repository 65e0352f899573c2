"""The Tango model: the balanced-line model of :mod:`rules.binary.model` with a relation per
sign."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from grader.core.constraints import Relation
from grader.core.model import Model, State
from rules.binary.model import build_binary

Sign = tuple[int, int, int, int, Literal["=", "x"]]
"""A sign between two neighbouring cells: ``(r1, c1, r2, c2, "=" or "x")``."""


def tango_model(
    rows: int, cols: int, cells: Sequence[int | None], signs: Sequence[Sign]
) -> tuple[Model, State]:
    """A Tango model: balanced lines with their in-line signs, and a relation per sign."""
    signs = sorted(tuple(s) for s in signs)
    key = " signs=" + ";".join(f"{r1},{c1},{r2},{c2}{s}" for r1, c1, r2, c2, s in signs)
    model, givens = build_binary(
        "tango",
        rows,
        cols,
        cells,
        signs=signs,
        symbols={0: "S", 1: "M"},
        value_names={0: "sun", 1: "moon"},
        key_extra=key,
    )
    relations = []
    for r1, c1, r2, c2, sign in signs:
        a, b = r1 * cols + c1, r2 * cols + c2
        pairs = [(0, 0), (1, 1)] if sign == "=" else [(0, 1), (1, 0)]
        label = f"the {sign} sign between {model.name(a)} and {model.name(b)}"
        relations.append(Relation(a, b, pairs, label, sign))
    model = Model(
        family=model.family,
        rows=rows,
        cols=cols,
        variables=model.variables,
        constraints=model.constraints + tuple(relations),
        symbols=model.symbols,
        value_names=model.value_names,
        key=model.key,
        options={**model.options, "signs": [list(s) for s in signs]},
    )
    return model, givens
