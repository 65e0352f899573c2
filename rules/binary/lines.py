"""The line rule shared by Binairo and Tango: balanced counts, no three in a row, optional signs.

Values are 0 and 1. A line of length n holds n/2 of each, never three equal cells in a row, and
where a sign joins cells i and i+1, ``=`` means equal and ``x`` opposite. The exact per-cell
pass reads a table of every valid line on lines of up to :data:`TABLE_MAX` cells (518 lines of
14 cells), indexed by cell: the lines agreeing with the decided cells are one AND of big-int
bitsets per decided cell, faster than filtering the table or any automaton pass in Python
(``bench/vs_tatham.py``'s generating row); on longer lines it runs
a forward-backward dynamic programme whose states are (last value, run length) and whose count
of 1s so far is an int bitset, so a 100-cell line costs a few hundred big-int operations.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from grader.core.explain import number_word
from grader.core.lines import LineRule
from grader.core.technique import Check

if TYPE_CHECKING:
    from grader.core.exact import CnfBuilder

DECIDED = (-2, 0, 1, -1)
"""A binary cell's mask (0b00, 0b01, 0b10, 0b11) → its value, -1 when open, -2 when empty."""

STRIDE = 8
"""Line bitsets keep cell i at bit ``8 * i``, so sums of up to 255 shifted copies never carry."""
LOW = int.from_bytes(bytes([1]) * 256, "little")
"""Bit 0 of every cell of the longest line (and more)."""


def line_bits(ctx, line) -> tuple[int, int, int]:
    """Cells of a binary line as bitsets (cell i at bit 8i): decided 0s, decided 1s, open.

    Remembered in ``ctx.views`` until one of the line's cells changes, as several techniques
    read each line, wave after wave.
    """
    bits = ctx.views.get(line)  # the line object is the key
    if bits is None:
        bits = ctx.views[line] = read_bits(line, ctx.state)
    return bits


def read_bits(line, state) -> tuple[int, int, int]:
    """:func:`line_bits` read from ``state`` (not remembered)."""
    masks = int.from_bytes(line.read(state), "little")  # cell i's mask at bit 8i
    low = masks & LOW  # value 0 possible
    high = (masks >> 1) & LOW  # value 1 possible
    empty = low & high
    return low ^ empty, high ^ empty, empty


def bits_masks(zeros: int, ones: int, empty: int, length: int) -> tuple[int, ...]:
    """The cells' masks of a line given as :func:`line_bits` bitsets (cells in none: 0)."""
    return tuple((zeros + 2 * ones + 3 * empty).to_bytes(length, "little"))


def positions(bits: int) -> list[int]:
    """Cell indices set in a line bitset."""
    out = []
    while bits:
        low = bits & -bits
        out.append((low.bit_length() - 1) >> 3)
        bits ^= low
    return out


THREE_0, THREE_1 = bytes(3), bytes([1, 1, 1])
"""Three equal values in a row, as :meth:`BalancedLine.accepts_values` searches a line."""

TABLE_MAX = 16
"""Lines up to this length find their supports in :func:`valid_lines` (1,296 lines of 16)."""


@lru_cache(maxsize=1024)  # a file of signed Tangos brings many sign patterns: memory stays flat
def valid_lines(length: int, signs: tuple[tuple[int, str], ...]) -> tuple[int, ...]:
    """Every valid line of that length and signs, cell i's value at bit i (a depth-first
    search that drops a prefix as soon as it breaks a sign, a run or a count)."""
    quota = length // 2
    sign_at = dict(signs)
    found: list[int] = []
    # a prefix: (bits, cells, ones, last value, run length)
    stack = [(0, 0, 0, -1, 0)]
    while stack:
        bits, cells, ones, last, run = stack.pop()
        if cells == length:
            found.append(bits)
            continue
        sign = sign_at.get(cells - 1)
        for value in (0, 1):
            if (sign == "=" and value != last) or (sign == "x" and value == last):
                continue
            grown = run + 1 if value == last else 1
            count = ones + value
            if grown > 2 or count > quota or cells + 1 - count > quota:
                continue
            stack.append((bits | value << cells, cells + 1, count, value, grown))
    return tuple(sorted(found))


@lru_cache(maxsize=1024)
def lines_by_cell(
    length: int, signs: tuple[tuple[int, str], ...]
) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """:func:`valid_lines` indexed by cell, as bitsets over the lines' positions in it: every
    line, and per cell the lines that put a 0 there and those that put a 1 (so the lines that
    agree with a partial line are a few big-int ANDs, not a pass over the table)."""
    lines = valid_lines(length, signs)
    every = (1 << len(lines)) - 1
    with_one = []
    for i in range(length):
        found = 0
        for k, line in enumerate(lines):
            if line >> i & 1:
                found |= 1 << k
        with_one.append(found)
    return every, tuple(every ^ m for m in with_one), tuple(with_one)


@cache
def every_cell(count: int) -> int:
    """A line bitset with cells ``0 .. count - 1`` set."""
    return int.from_bytes(bytes([1]) * count, "little") if count > 0 else 0


class BalancedLine(LineRule):
    """Balanced, at most two equal in a row, and signs between neighbours (``=``/``x``)."""

    def __init__(
        self, length: int, signs: Mapping[int, str] | None = None, names: Sequence[str] = ("0", "1")
    ) -> None:
        self.length = length
        self.quota = length // 2
        self.signs = dict(signs or {})
        """Position i → sign between cells i and i+1."""
        self.sign_key = tuple(sorted(self.signs.items()))
        self.names = tuple(names)
        self._ranges = [self._count_mask(i + 1) for i in range(length)]

    def _count_mask(self, placed: int) -> int:
        """Bits k allowed for the number of 1s after ``placed`` cells."""
        low = max(0, placed - self.quota)
        high = min(placed, self.quota)
        return ((1 << (high + 1)) - 1) & ~((1 << low) - 1) if high >= low else 0

    # -- automaton (generic passes, counting, tests) -----------------------------------------

    def start(self):
        return (0, -1, 0)

    def step(self, state, index, value):
        ones, last, run = state
        sign = self.signs.get(index - 1)
        if sign == "=" and value != last:
            return None
        if sign == "x" and value == last:
            return None
        run = run + 1 if value == last else 1
        if run > 2:
            return None
        ones += value
        if ones > self.quota or index + 1 - ones > self.quota:
            return None
        return (ones, value, run)

    def accepts(self, state) -> bool:
        return state[0] == self.quota

    def accepts_values(self, values: Sequence[int]) -> bool:
        """The automaton's verdict on a whole line, by C-level byte counts and searches."""
        try:
            line = bytes(values)
        except ValueError:  # a value outside 0..255
            line = b""
        if len(line) != self.length or line.translate(None, b"\x00\x01"):  # not all 0 or 1
            return super().accepts_values(values)
        if line.count(1) != self.quota or THREE_0 in line or THREE_1 in line:
            return False
        return all((line[i] == line[i + 1]) == (sign == "=") for i, sign in self.sign_key)

    def allowed(self, index: int, last: int, value: int) -> bool:
        sign = self.signs.get(index - 1)
        return not ((sign == "=" and value != last) or (sign == "x" and value == last))

    # -- fast exact pass ------------------------------------------------------------------------

    def supports(self, masks: Sequence[int], check: Check | None = None) -> list[int] | None:
        """Per cell, the values some valid completion gives it (None: no completion); both
        passes are linear in the line's length, so ``check`` is not called."""
        if self.length <= TABLE_MAX:
            return self.supports_by_table(masks)
        return self.supports_by_runs(masks)

    def supports_by_table(self, masks: Sequence[int]) -> list[int] | None:
        """:meth:`supports` from :func:`lines_by_cell`: the valid lines that agree with the
        decided cells, and per cell the values some of them give it."""
        matching, with_zero, with_one = lines_by_cell(self.length, self.sign_key)
        for i, mask in enumerate(masks):
            if mask == 1:
                matching &= with_zero[i]
            elif mask == 2:
                matching &= with_one[i]
            elif mask != 3:
                return None  # a cell with no candidate
        if not matching:
            return None
        return [
            (1 if matching & zero else 0) | (2 if matching & one else 0)
            for zero, one in zip(with_zero, with_one, strict=True)
        ]

    def supports_by_runs(self, masks: Sequence[int]) -> list[int] | None:
        """:meth:`supports` by the forward-backward pass over (last value, run length)."""
        n = self.length
        ranges = self._ranges
        forward: list[dict[tuple[int, int], int]] = []
        layer: dict[tuple[int, int], int] = {}
        for value in (0, 1):
            if masks[0] >> value & 1:
                layer[(value, 1)] = (1 << value) & ranges[0]
        forward.append(layer)
        for i in range(1, n):
            nxt: dict[tuple[int, int], int] = {}
            mask = masks[i]
            for (last, run), bits in layer.items():
                if not bits:
                    continue
                for value in (0, 1):
                    if not (mask >> value & 1) or not self.allowed(i, last, value):
                        continue
                    if value == last:
                        if run == 2:
                            continue
                        key = (value, 2)
                    else:
                        key = (value, 1)
                    moved = (bits << value) & ranges[i]
                    if moved:
                        nxt[key] = nxt.get(key, 0) | moved
            layer = nxt
            forward.append(layer)
        goal = 1 << self.quota
        alive: dict[tuple[int, int], int] = {k: b & goal for k, b in layer.items() if b & goal}
        if not alive:
            return None
        result = [0] * n
        for i in range(n - 1, 0, -1):
            previous: dict[tuple[int, int], int] = {}
            support = 0
            mask = masks[i]
            for (last, run), bits in forward[i - 1].items():
                for value in (0, 1):
                    if not (mask >> value & 1) or not self.allowed(i, last, value):
                        continue
                    if value == last:
                        if run == 2:
                            continue
                        key = (value, 2)
                    else:
                        key = (value, 1)
                    target = alive.get(key)
                    if not target:
                        continue
                    ok = bits & (target >> value)
                    if ok:
                        support |= 1 << value
                        previous[(last, run)] = previous.get((last, run), 0) | ok
            result[i] = support
            alive = previous
        for (value, _run), bits in alive.items():
            if bits:
                result[0] |= 1 << value
        return result if all(result) else None

    # -- visible violations and SAT ------------------------------------------------------------

    def violation(self, masks: Sequence[int]) -> str | None:
        values = [DECIDED[m] for m in masks]
        for value in (0, 1):
            count = values.count(value)
            if count > self.quota:
                return f"holds {number_word(count)} {self.names[value]}s, more than half"
        for i in range(self.length - 2):
            if values[i] >= 0 and values[i] == values[i + 1] == values[i + 2]:
                return f"holds three {self.names[values[i]]}s in a row"
        for i, sign in self.signs.items():
            a, b = values[i], values[i + 1]
            if a >= 0 and b >= 0 and (a == b) != (sign == "="):
                return f"breaks its {sign} sign"
        if -2 in values:
            return "has a cell with no candidate"
        return None

    def encode(self, cnf: CnfBuilder, variables: Sequence[int]) -> None:
        ones = [cnf.lit(v, 1) for v in variables]
        for i in range(self.length - 2):
            trio = ones[i : i + 3]
            cnf.add([-x for x in trio])
            cnf.add(trio)
        cnf.equals(ones, self.quota)
        for i, sign in self.signs.items():
            a, b = ones[i], ones[i + 1]
            if sign == "=":
                cnf.add([-a, b])
                cnf.add([a, -b])
            else:
                cnf.add([a, b])
                cnf.add([-a, -b])


def is_balanced(constraint) -> bool:
    """Whether a constraint is a line under :class:`BalancedLine`."""
    return constraint.kind == "line" and isinstance(getattr(constraint, "rule", None), BalancedLine)
