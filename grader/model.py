"""Model and state: variables with finite domains, constraints over them, candidates as bitmasks.

A value is a small non-negative int and a candidate set is an int whose bit ``v`` is set when
value ``v`` is still possible. A *state* is a list of such masks, one per variable: copying it is
``list(state)``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import compress
from operator import itemgetter
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from grader.constraints import Constraint

State = list[int]


def values_of(mask: int) -> tuple[int, ...]:
    """The values whose bits are set in ``mask``, lowest first (remembered per mask: the
    techniques ask for the same few masks millions of times)."""
    found = _VALUES.get(mask)
    if found is None:
        values = []
        rest = mask
        while rest:
            low = rest & -rest
            values.append(low.bit_length() - 1)
            rest ^= low
        found = tuple(values)
        if len(_VALUES) >= _VALUES_LIMIT:
            _VALUES.clear()
        _VALUES[mask] = found
    return found


_VALUES: dict[int, tuple[int, ...]] = {}
_VALUES_LIMIT = 1 << 18
"""Masks remembered by :func:`values_of` at most (then it starts again)."""


def masks_reader(cells: Sequence[int]) -> Callable[[State], tuple[int, ...]]:
    """A getter of these cells' masks from a state, as a tuple (one C-level call)."""
    if len(cells) >= 2:
        return itemgetter(*cells)
    return lambda state: tuple(state[v] for v in cells)


def is_single(mask: int) -> bool:
    """True when exactly one value remains."""
    return mask != 0 and mask & (mask - 1) == 0


def single_value(mask: int) -> int:
    """The value of a mask holding exactly one candidate."""
    return mask.bit_length() - 1


def mask_of(values: Iterator[int] | Sequence[int]) -> int:
    """The mask with the bits of ``values`` set."""
    mask = 0
    for value in values:
        mask |= 1 << value
    return mask


@dataclass(frozen=True)
class Variable:
    """One unknown of a puzzle: usually a cell, for path puzzles also an edge."""

    name: str
    domain: int
    row: int = -1
    col: int = -1
    kind: str = "cell"


def cell_name(row: int, col: int) -> str:
    """The players' name of a cell, 1-based: ``r3c5``."""
    return f"r{row + 1}c{col + 1}"


@dataclass(frozen=True, eq=False)
class Model:
    """A puzzle's rules: variables, constraints and how to show values. Immutable.

    ``key`` identifies the rules without the givens (family, size, options, fixed structure such
    as signs); models with equal keys share an exact-search solver.
    """

    family: str
    rows: int
    cols: int
    variables: tuple[Variable, ...]
    constraints: tuple[Constraint, ...]
    symbols: Mapping[int, str]
    key: str
    value_names: Mapping[int, str] = field(default_factory=dict)
    options: Mapping[str, Any] = field(default_factory=dict)
    var_constraints: tuple[tuple[int, ...], ...] = field(init=False, repr=False)
    memo: dict[str, Any] = field(default_factory=dict, init=False, repr=False)
    """Derived lookups that techniques compute once per model."""

    def __post_init__(self) -> None:
        touching: list[list[int]] = [[] for _ in self.variables]
        for index, constraint in enumerate(self.constraints):
            for var in constraint.vars:
                touching[var].append(index)
        object.__setattr__(self, "var_constraints", tuple(tuple(t) for t in touching))

    @property
    def size(self) -> tuple[int, int]:
        return (self.rows, self.cols)

    def initial_state(self) -> State:
        """Every variable with its full domain."""
        return [v.domain for v in self.variables]

    def name(self, var: int) -> str:
        return self.variables[var].name

    def symbol(self, value: int) -> str:
        """The file symbol of a value (``0``, ``S``, ``7``, ``C``...)."""
        return self.symbols.get(value, str(value))

    def value_name(self, value: int) -> str:
        """A value as words for explanations (``sun``), or its symbol."""
        return self.value_names.get(value, self.symbol(value))

    def is_solved(self, state: State) -> bool:
        return all(is_single(mask) for mask in state)

    def open_vars(self, state: State, among: Sequence[int] | None = None) -> list[int]:
        """Variables without a single value left, in order (C-level loops: large grids ask
        often); ``among``: only these (in their order)."""
        if among is None:
            return list(compress(range(len(state)), map((1).__ne__, map(int.bit_count, state))))
        masks = map(state.__getitem__, among)
        return list(compress(among, map((1).__ne__, map(int.bit_count, masks))))
