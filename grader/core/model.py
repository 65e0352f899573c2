"""Model and state: variables with finite domains, constraints over them, candidates as bitmasks.

A value is a small non-negative int and a candidate set is an int whose bit ``v`` is set when
value ``v`` is still possible. A *state* is a list of such masks, one per variable: copying it is
``list(state)``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import compress
from operator import itemgetter
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from grader.core.constraints import Constraint

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
    return FewMasks(tuple(cells))


@dataclass(frozen=True)
class FewMasks:
    """:func:`masks_reader` of fewer than two cells (``itemgetter`` of one cell gives no
    tuple); a class, not a closure, so that a model holding one can be pickled."""

    cells: tuple[int, ...]

    def __call__(self, state: State) -> tuple[int, ...]:
        return tuple(state[v] for v in self.cells)


def is_single(mask: int) -> bool:
    """True when exactly one value remains."""
    return mask != 0 and mask & (mask - 1) == 0


def open_positions(masks: Sequence[int]) -> list[int]:
    """The positions of the masks that are not single (:func:`is_single`): open or empty; one
    pass for a line, where a scan would call :func:`is_single` per cell."""
    return [i for i, mask in enumerate(masks) if mask & (mask - 1) or not mask]


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


@lru_cache(maxsize=64)
def constraints_touching(
    constraints: tuple[Constraint, ...], n_vars: int
) -> tuple[tuple[int, ...], ...]:
    """Per variable, the indexes of the constraints over it; remembered for the constraints of
    a shape, which the models of a file's puzzles share (a tuple of the same objects)."""
    touching: list[list[int]] = [[] for _ in range(n_vars)]
    for index, constraint in enumerate(constraints):
        for var in constraint.vars:
            touching[var].append(index)
    return tuple(tuple(t) for t in touching)


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

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without ``memo``: lookups are rebuilt where the model lands (a worker's
        puzzles travel light)."""
        return {**self.__dict__, "memo": {}}

    def __post_init__(self) -> None:
        try:
            touching = constraints_touching(self.constraints, len(self.variables))
        except TypeError:  # a constraint that cannot be hashed (a plugin's): not remembered
            touching = constraints_touching.__wrapped__(self.constraints, len(self.variables))
        object.__setattr__(self, "var_constraints", touching)

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

    def open_vars(self, state: State) -> list[int]:
        """Variables without a single value left, in order (C-level loops: large grids ask
        often)."""
        return list(compress(range(len(state)), map((1).__ne__, map(int.bit_count, state))))

    def open_cells(self, state: State) -> OpenCells | list[int]:
        """:meth:`open_vars` for a random choice: counted and indexed on the state packed into
        bytes when every mask fits in one (no list of 10,000 cells), else the list."""
        try:
            return OpenCells(bytes(state).translate(_NOT_SINGLE))
        except ValueError:  # a mask of more than 8 values
            return self.open_vars(state)


_NOT_SINGLE = bytes(int(mask.bit_count() != 1) for mask in range(256))
"""A mask of at most 8 values → 1 unless it holds exactly one candidate."""


class OpenCells:
    """The variables without a single value of a state, in order, as :meth:`Model.open_vars`
    lists them, but counted and indexed on the state packed into bytes (C-level passes)."""

    def __init__(self, flags: bytes) -> None:
        self.flags = flags
        """Per variable, 1 when it has no single value."""
        self.size = flags.count(1)

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, index: int) -> int:
        if not 0 <= index < self.size:
            raise IndexError(index)
        low, high = 0, len(self.flags) - 1  # the variable is the first p with index + 1 before
        count = self.flags.count
        while low < high:
            middle = (low + high) // 2
            if count(1, 0, middle + 1) > index:
                high = middle
            else:
                low = middle + 1
        return low
