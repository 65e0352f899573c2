"""The Binairo file: its pydantic schema, and Simon Tatham's Unruly game IDs read and written."""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from grader.family import require
from grader.model import Model, State, is_single, single_value
from rules.schema import PuzzleFileBase


class BinairoRules(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)
    unique_lines: bool = False


class BinairoFile(PuzzleFileBase):
    family: Literal["binairo"]
    size: tuple[int, int] | int | None = Field(default=None, description="[rows, cols]")
    rules: BinairoRules = BinairoRules()
    grid: list[str]
    solution: list[str] | None = None


TATHAM_ID = re.compile(r"^(\d+)x(\d+)(u?)(?:d[ten])?:([A-Za-z]+)$")


def parse_unruly_id(text: str) -> dict[str, Any] | None:
    """A Binairo puzzle dict from a Simon Tatham Unruly game ID (``8x8:CGABJaab...``)."""
    match = TATHAM_ID.match(text.strip())
    if match is None:
        return None
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
