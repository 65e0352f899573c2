"""Simon Tatham's Unruly game IDs read and written, and the spec of a Binairo read from one.
The file's schema is in :mod:`rules.binairo.schema`."""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from typing import Any

from grader.core.errors import FieldProblem
from grader.core.model import Model, State, is_single, single_value
from grader.rating.family import require


@dataclass(frozen=True)
class UnrulyRules:
    """The rules an Unruly game ID names."""

    unique_lines: bool


@dataclass(frozen=True)
class UnrulyText:
    """A Binairo read from an Unruly game ID: the fields
    :meth:`~rules.binairo.family.Binairo.build` reads, checked by the reading itself."""

    size: tuple[int, int]
    grid: list[str]
    rules: UnrulyRules
    solution: list[str] | None = None

    @classmethod
    def of(cls, data: dict[str, Any]) -> UnrulyText:
        """The spec of a dict :func:`parse_unruly_id` made."""
        rows, cols = data["size"]
        return cls((rows, cols), data["grid"], UnrulyRules(data["rules"]["unique_lines"]))


TATHAM_ID = re.compile(r"^(\d+)x(\d+)(u?)(?:d[ten])?:([A-Za-z]+)$")
UNRULY_SHAPE = re.compile(r"^(\d+)x(\d+)([A-Za-z]*):(.*)$")
"""A word shaped like an Unruly game ID (``WxH``, parameters, a colon), valid or not."""


def parse_unruly_id(text: str) -> dict[str, Any] | None:
    """A Binairo puzzle dict from a Simon Tatham Unruly game ID (``8x8:CGABJaab...``); None
    for text not shaped like one, :class:`FieldProblem` for one that is malformed."""
    text = text.strip()
    shape = UNRULY_SHAPE.match(text)
    if shape is None:
        return None
    match = TATHAM_ID.match(text)
    if match is None:
        raise FieldProblem("id", unruly_shape_problem(shape))
    cols, rows = int(match.group(1)), int(match.group(2))
    unique = bool(match.group(3))
    cells = ["."] * (rows * cols)
    pos = 0
    for char in match.group(4):
        if char in "zZ":
            pos += 25
            continue
        pos += ord(char.lower()) - ord("a")
        if pos < rows * cols:
            cells[pos] = "0" if char.islower() else "1"
        pos += 1
    if pos != rows * cols + 1:
        require(False, "id", f"Unruly game ID describes {pos - 1} cells, expected {rows * cols}")
    grid = ["".join(cells[r * cols : (r + 1) * cols]) for r in range(rows)]
    return {
        "family": "binairo",
        "size": [rows, cols],
        "rules": {"unique_lines": unique},
        "grid": grid,
        "source": f"Unruly game ID {text.strip()}",
    }


def unruly_shape_problem(shape: re.Match[str]) -> str:
    """What keeps a word shaped like an Unruly game ID (:data:`UNRULY_SHAPE`) from being one."""
    size, flags, cells = f"{shape.group(1)}x{shape.group(2)}", shape.group(3), shape.group(4)
    if not re.fullmatch(r"u?(?:d[ten])?", flags):
        return f"Unruly game ID: unknown parameters {flags!r} after {size} (u or none)"
    if not cells:
        return "Unruly game ID: no cells after ':'"
    bad = next(char for char in cells if char not in string.ascii_letters)
    return f"Unruly game ID: {bad!r} is not a letter (its cells are a-z and A-Z)"


def unruly_id(model: Model, state: State) -> str:
    """The Simon Tatham Unruly game ID of a Binairo state (decided cells are the givens)."""
    out = []
    run = 0
    size = model.rows * model.cols
    for i in range(size + 1):
        value = single_value(state[i]) if i < size and is_single(state[i]) else None
        if i < size and value is None:
            run += 1
            continue
        while run > 24:
            out.append("z" if value in (0, None) else "Z")
            run -= 25
        out.append(chr((ord("a") if value in (0, None) else ord("A")) + run))
        run = 0
    unique = "u" if model.options.get("unique_lines") else ""
    return f"{model.cols}x{model.rows}{unique}:{''.join(out)}"


BINAIRO_SYMBOLS = {"0": 0, "1": 1}
