"""The Sudoku file: its symbols, its fields checked, and the text formats (one-line strings and
Simon Tatham's Solo game IDs) read and written. The file's schema is in
:mod:`rules.sudoku.schema`."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from grader.core.errors import FieldProblem
from grader.core.model import Model, State, is_single, single_value
from grader.rating.family import require
from rules.cells import BOX_SHAPES

if TYPE_CHECKING:
    from rules.sudoku.schema import SudokuFile

SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
BLANKS = ".0"
MAX_SIZE = 25


def symbols_for(n: int) -> str:
    return SYMBOLS[:n]


@dataclass(frozen=True)
class SudokuText:
    """A sudoku read from a text format (a one-line string, a Solo game ID): the fields
    :meth:`~rules.sudoku.family.Sudoku.build` reads, checked by the reading itself."""

    size: int
    grid: list[str]
    box: tuple[int, int] | None = None
    solution: list[str] | None = None

    @classmethod
    def of(cls, data: dict[str, Any]) -> SudokuText:
        """The spec of a dict :func:`parse_line` or :func:`parse_solo_id` made."""
        box = data.get("box")
        return cls(data["size"], data["grid"], None if box is None else (box[0], box[1]))


def grid_side(spec: SudokuFile | SudokuText) -> int:
    size = spec.size
    if isinstance(size, tuple | list):
        require(size[0] == size[1], "size", f"{size[0]}x{size[1]} is not square")
        size = size[0]
    n = len(spec.grid) if size is None else size
    require(n > 0, "grid", "is empty")
    if size is None:  # a rectangle (a row missing, not a short row): its shape, not row 1's
        widths = {len(row.replace(" ", "")) for row in spec.grid}
        width = widths.pop()
        require(
            widths or width == n,
            "grid",
            f"has {n} row{'s' if n > 1 else ''} of {width} cells; a sudoku grid is square",
        )
    require(n <= MAX_SIZE, "size", f"{n} is larger than {MAX_SIZE}")
    return n


def box_shape(n: int, box: tuple[int, int] | None) -> tuple[int, int]:
    if box is None:
        shape = BOX_SHAPES.get(n)
        if shape is None:
            require(False, "size", f"no default box shape for {n}x{n}; give box [rows, cols]")
        return shape  # type: ignore[return-value]
    rows, cols = box
    require(rows > 0 and cols > 0, "box", f"{rows}x{cols} is not a box shape")
    require(
        rows * cols == n,
        "box",
        f"{rows}x{cols} boxes do not tile a {n}x{n} grid (need rows x cols = {n})",
    )
    return rows, cols


def parse_values(rows: Sequence[str], n: int, field: str) -> list[int | None]:
    """Cell values from rows of symbols (None for blanks)."""
    symbols = symbols_for(n)
    require(len(rows) == n, field, f"has {len(rows)} rows, expected {n}")
    out: list[int | None] = []
    for r, row in enumerate(rows):
        row = row.replace(" ", "")
        require(len(row) == n, field, f"row {r + 1} has {len(row)} cells, expected {n}")
        for c, char in enumerate(row.upper()):
            if char in BLANKS:
                out.append(None)
                continue
            index = symbols.find(char)
            require(
                index >= 0,
                field,
                f"row {r + 1} column {c + 1}: {char!r} is not a symbol of a {n}x{n} sudoku "
                f"({symbols[0]}-{symbols[-1]}, . or 0 blank)",
            )
            out.append(index)
    return out


SOLO_ID = re.compile(r"^(\d+)(?:x(\d+))?([a-z]*):([0-9a-z_]+)$")
SOLO_SHAPE = re.compile(r"^(\d+)(?:x(\d+))?([A-Za-z]*):(.*)$")
"""A word shaped like a Solo game ID (``CxR``, parameters, a colon), valid or not."""
LINE = re.compile(r"^[0-9A-Za-z.]+$")


def parse_solo_id(text: str) -> dict[str, Any] | None:
    """A sudoku dict from a Simon Tatham Solo game ID (``3x3:a2b5_c...``). In ``CxR`` a box
    is C rows tall and R columns wide (solo.c: block of cell (y, x) is (y/c)*c + x/r). None for
    text not shaped like one, :class:`FieldProblem` for one that is malformed."""
    shape = SOLO_SHAPE.match(text)
    if shape is None:
        return None
    match = SOLO_ID.match(text)
    if match is None:
        raise FieldProblem("id", solo_shape_problem(shape))
    c = int(match.group(1))
    r = int(match.group(2)) if match.group(2) else None
    flags = match.group(3)
    if r is None:
        require(False, "id", "jigsaw Solo IDs (single number) are not supported")
    require(not flags, "id", f"Solo variant {flags!r} (jigsaw, X, killer) is not supported")
    n = c * r
    require(0 < n <= MAX_SIZE, "id", f"Solo game ID: {c}x{r} boxes make a {n}x{n} grid, too large")
    cells: list[str] = []
    symbols = symbols_for(n)
    number = ""
    for char in match.group(4) + "_":
        if char.isdigit():
            number += char
            continue
        if number:
            value = int(number)
            require(1 <= value <= n, "id", f"Solo game ID: clue {value} is out of range 1-{n}")
            cells.append(symbols[value - 1])
            number = ""
        if char.isalpha():
            cells.extend("." * (ord(char) - ord("a") + 1))
    require(
        len(cells) == n * n, "id", f"Solo game ID describes {len(cells)} cells, expected {n * n}"
    )
    grid = ["".join(cells[i * n : (i + 1) * n]) for i in range(n)]
    return {
        "family": "sudoku",
        "size": n,
        "box": [c, r],  # in Solo's CxR a box is c rows tall and r columns wide
        "grid": grid,
        "source": f"Solo game ID {text}",
    }


def solo_shape_problem(shape: re.Match[str]) -> str:
    """What keeps a word shaped like a Solo game ID (:data:`SOLO_SHAPE`) from being one."""
    flags, cells = shape.group(3), shape.group(4)
    if flags != flags.lower():
        return f"Solo game ID: unknown parameters {flags!r}"
    if not cells:
        return "Solo game ID: no cells after ':'"
    bad = next(char for char in cells if not re.fullmatch(r"[0-9a-z_]", char))
    return f"Solo game ID: {bad!r} is neither a clue nor a blank (0-9, a-z and _)"


def parse_line(text: str) -> dict[str, Any] | None:
    """A sudoku dict from a one-line string of n*n cells (n a known size)."""
    if not LINE.match(text):
        return None
    length = len(text)
    n = round(length**0.5)
    if n * n != length or n not in BOX_SHAPES:
        if length >= 16 and set(text) <= set(SYMBOLS + SYMBOLS.lower() + BLANKS):
            sizes = ", ".join(f"{k * k} ({k}x{k})" for k in BOX_SHAPES)
            require(False, "line", f"has {length} characters, expected one of {sizes}")
        return None
    return {
        "family": "sudoku",
        "size": n,
        "grid": [text[i * n : (i + 1) * n] for i in range(n)],
    }


def solo_id(model: Model, state: State) -> str:
    """The Solo game ID of the decided cells of ``state``."""
    br, bc = model.options["box"]
    out: list[str] = []
    run = 0
    last_number = False
    for mask in state:
        if is_single(mask):
            while run:
                step = min(run, 26)
                out.append(chr(ord("a") + step - 1))
                run -= step
                last_number = False
            if last_number:
                out.append("_")
            out.append(str(single_value(mask) + 1))
            last_number = True
        else:
            run += 1
    while run:
        step = min(run, 26)
        out.append(chr(ord("a") + step - 1))
        run -= step
    return f"{br}x{bc}:{''.join(out)}"  # Solo's CxR: boxes c rows tall, r columns wide


def clue_state(model: Model, grid: Sequence[str]) -> State:
    """The state holding exactly the clues of ``grid`` (other cells open)."""
    state = model.initial_state()
    for var, value in enumerate(parse_values(grid, model.rows, "grid")):
        if value is not None:
            state[var] = 1 << value
    return state


def givens_of(grid: Sequence[str]) -> int:
    return sum(1 for row in grid for ch in row if ch not in BLANKS)
