"""Constraint kinds shared by the families.

Each kind knows its variables, a label for explanations (``row 3``, ``box 5``), how to spot a
visible violation (:meth:`Constraint.check`), how to filter domains for the plain backtracking
search (:meth:`Constraint.prune`) and how to encode itself for the exact search
(:meth:`Constraint.encode`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from collections.abc import Set as AbstractSet
from functools import lru_cache
from typing import TYPE_CHECKING

from grader.core.clock import ambient_check
from grader.core.lines import LineRule
from grader.core.model import Model, State, is_single, masks_reader, single_value, values_of

if TYPE_CHECKING:
    from grader.core.exact import CnfBuilder

Pruned = list[tuple[int, int]] | None
"""New masks ``(var, mask)`` narrower than the state's, or None when the constraint fails."""


VALUE = "\u27e8{}\u27e9"
"""How a constraint's message names a value (``VALUE.format(3)``): the engine writes it in the
file's symbols (:func:`spoken`), which a constraint does not know."""


CELL = "\u27e6{}\u27e7"
"""How a constraint's message names a cell (``CELL.format(var)``), written as the model's cell
name (:func:`spoken`)."""


def spoken(text: str, model: Model) -> str:
    """A constraint's message with its values written as the file's symbols and its cells by
    their names."""
    text = re.sub("\u27e8(\\d+)\u27e9", lambda m: model.symbol(int(m[1])), text)
    return re.sub("\u27e6(\\d+)\u27e7", lambda m: model.name(int(m[1])), text)


class Constraint:
    """Base class: a rule over some variables."""

    kind = "constraint"

    def __init__(self, variables: Sequence[int], label: str) -> None:
        self.vars: tuple[int, ...] = tuple(variables)
        self.label = label

    def check(self, state: State) -> str | None:
        """A reason when the decided variables already break the rule, else None."""
        return None

    def prune(self, state: State) -> Pruned:
        """Domain filtering for the plain search (sound, not necessarily complete)."""
        return [] if self.check(state) is None else None

    def pruned_to(self, state: State, support: Sequence[int] | None) -> Pruned:
        """The pruning that per-cell supports give (None: no completion)."""
        if support is None:
            return None
        return [(v, m) for v, m in zip(self.vars, support, strict=True) if m != state[v]]

    def encode(self, cnf: CnfBuilder) -> None:
        raise NotImplementedError

    def satisfied_by(self, values: Sequence[int]) -> bool:
        """Whether a complete assignment (one value per model variable) satisfies the rule."""
        return self.check([1 << v for v in values]) is None

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.label!r})"


class Line(Constraint):
    """An ordered run of cells whose values must be accepted by a :class:`LineRule`."""

    kind = "line"

    def __init__(self, variables: Sequence[int], label: str, rule: LineRule) -> None:
        super().__init__(variables, label)
        self.rule = rule
        self.read = masks_reader(self.vars)
        """``read(state)``: the line's masks as a tuple (one C-level call)."""

    def masks(self, state: State) -> list[int]:
        return list(self.read(state))

    def supports(self, state: State) -> list[int] | None:
        """Per cell, the values some valid completion gives it (None: no completion). A long
        pass stops at the ambient deadline (:mod:`grader.core.clock`), if one is set."""
        return self.rule.cached_supports(self.masks(state), ambient_check())

    def check(self, state: State) -> str | None:
        return self.rule.violation(self.masks(state))

    def prune(self, state: State) -> Pruned:
        return self.pruned_to(state, self.supports(state))

    def encode(self, cnf: CnfBuilder) -> None:
        self.rule.encode(cnf, self.vars)

    def satisfied_by(self, values: Sequence[int]) -> bool:
        return self.rule.accepts_values(self.read(values))  # the line's values, as a tuple


class AllDifferent(Constraint):
    """No two variables share a value. ``covering``: the values must also all appear."""

    kind = "alldifferent"

    def __init__(self, variables: Sequence[int], label: str, covering: int = 0) -> None:
        super().__init__(variables, label)
        self.covering = covering

    def check(self, state: State) -> str | None:
        seen: dict[int, int] = {}
        for v in self.vars:
            mask = state[v]
            if is_single(mask):
                value = single_value(mask)
                if value in seen:
                    cells = f"{CELL.format(seen[value])} and {CELL.format(v)}"
                    return f"holds {VALUE.format(value)} twice ({cells})"
                seen[value] = v
        if self.covering:
            union = 0
            for v in self.vars:
                union |= state[v]
            missing = self.covering & ~union
            if missing:
                return f"has no place left for {VALUE.format(values_of(missing)[0])}"
        return None

    def satisfied_by(self, values: Sequence[int]) -> bool:
        seen = 0
        for v in self.vars:
            bit = 1 << values[v]
            if seen & bit:
                return False
            seen |= bit
        return not self.covering & ~seen

    def prune(self, state: State) -> Pruned:
        if self.check(state) is not None:
            return None
        taken = 0
        for v in self.vars:
            if is_single(state[v]):
                taken |= state[v]
        out = []
        for v in self.vars:
            mask = state[v]
            if not is_single(mask) and mask & taken:
                narrowed = mask & ~taken
                if not narrowed:
                    return None
                out.append((v, narrowed))
        return out

    def encode(self, cnf: CnfBuilder) -> None:
        values: set[int] = set()
        for v in self.vars:
            values.update(values_of(cnf.model.variables[v].domain))
        for value in sorted(values):
            lits = [cnf.lit(v, value) for v in self.vars if cnf.has(v, value)]
            if self.covering >> value & 1:
                cnf.exactly_one(lits)
            else:
                cnf.at_most_one(lits)


class Relation(Constraint):
    """A binary relation between two variables, given as the allowed value pairs."""

    kind = "relation"

    def __init__(
        self, a: int, b: int, allowed: Iterable[tuple[int, int]], label: str, symbol: str = ""
    ) -> None:
        super().__init__((a, b), label)
        self.a, self.b = a, b
        self.allowed = frozenset(allowed)
        self.symbol = symbol

    def partners(self, var: int, value: int) -> int:
        """Mask of the other variable's values compatible with ``var = value``."""
        mask = 0
        if var == self.a:
            for x, y in self.allowed:
                if x == value:
                    mask |= 1 << y
        else:
            for x, y in self.allowed:
                if y == value:
                    mask |= 1 << x
        return mask

    def supported(self, var: int, state: State) -> int:
        """Values of ``var`` that have a partner left in the other variable."""
        other = self.b if var == self.a else self.a
        out = 0
        for value in values_of(state[var]):
            if self.partners(var, value) & state[other]:
                out |= 1 << value
        return out

    def check(self, state: State) -> str | None:
        if is_single(state[self.a]) and is_single(state[self.b]):
            pair = (single_value(state[self.a]), single_value(state[self.b]))
            if pair not in self.allowed:
                return "is broken"
        return None

    def prune(self, state: State) -> Pruned:
        out = []
        for var in (self.a, self.b):
            narrowed = self.supported(var, state)
            if not narrowed:
                return None
            if narrowed != state[var]:
                out.append((var, narrowed))
        return out

    def encode(self, cnf: CnfBuilder) -> None:
        for value in values_of(cnf.model.variables[self.a].domain):
            ok = [
                cnf.lit(self.b, y)
                for y in values_of(self.partners(self.a, value))
                if cnf.has(self.b, y)
            ]
            cnf.add([-cnf.lit(self.a, value), *ok])
        for value in values_of(cnf.model.variables[self.b].domain):
            ok = [
                cnf.lit(self.a, x)
                for x in values_of(self.partners(self.b, value))
                if cnf.has(self.a, x)
            ]
            cnf.add([-cnf.lit(self.b, value), *ok])

    def satisfied_by(self, values: Sequence[int]) -> bool:
        return (values[self.a], values[self.b]) in self.allowed


def rotations(values: Sequence[int]) -> frozenset[tuple[int, ...]]:
    """All cyclic rotations of a sequence (remembered: distinct-lines checks ask for the same
    complete lines again and again as lookahead tries its assumptions)."""
    return _rotations(tuple(values))


@lru_cache(maxsize=1 << 14)
def _rotations(seq: tuple[int, ...]) -> frozenset[tuple[int, ...]]:
    return frozenset(seq[i:] + seq[:i] for i in range(len(seq))) if seq else frozenset((seq,))


class DistinctLines(Constraint):
    """No two of the given lines (of equal length) hold the same sequence.

    With ``up_to_rotation`` two lines also clash when one is a cyclic rotation of the other.
    """

    kind = "distinct"

    def __init__(
        self,
        lines: Sequence[Sequence[int]],
        labels: Sequence[str],
        label: str,
        up_to_rotation: bool = False,
    ) -> None:
        flat = [v for line in lines for v in line]
        super().__init__(flat, label)
        self.lines = tuple(tuple(line) for line in lines)
        self.line_labels = tuple(labels)
        self.up_to_rotation = up_to_rotation

    def complete_values(self, state: State) -> dict[int, tuple[int, ...]]:
        """Index → values of every line whose cells are all decided."""
        out = {}
        for index, line in enumerate(self.lines):
            masks = [state[v] for v in line]
            if all(is_single(m) for m in masks):
                out[index] = tuple(single_value(m) for m in masks)
        return out

    def forbidden_for(self, index: int, state: State) -> dict[str, AbstractSet[tuple[int, ...]]]:
        """Sequences line ``index`` may not take, by the label of the complete line they copy."""
        out: dict[str, AbstractSet[tuple[int, ...]]] = {}
        length = len(self.lines[index])
        for other, values in self.complete_values(state).items():
            if other == index or len(values) != length:
                continue
            out[self.line_labels[other]] = rotations(values) if self.up_to_rotation else {values}
        return out

    def check(self, state: State) -> str | None:
        seen: dict[tuple[int, ...], int] = {}
        for index, values in sorted(self.complete_values(state).items()):
            keys = rotations(values) if self.up_to_rotation else {values}
            for key in keys:
                if key in seen:
                    first = self.line_labels[seen[key]]
                    return f"{first} and {self.line_labels[index]} are the same"
            seen[values] = index
        return None

    def encode(self, cnf: CnfBuilder) -> None:
        for i, first in enumerate(self.lines):
            for second in self.lines[i + 1 :]:
                if len(first) != len(second):
                    continue
                shifts = range(len(second)) if self.up_to_rotation else [0]
                for shift in shifts:
                    rotated = second[shift:] + second[:shift]
                    cnf.add(cnf.differ(first, rotated))
