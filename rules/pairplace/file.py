"""The pair place file (its schema is in :mod:`rules.pairplace.schema`): the header, edges and
rows read with one-line errors, the rows written back, and the shared examples' layout."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from grader.core.model import Model, State, is_single, single_value
from grader.rating.family import require

if TYPE_CHECKING:
    from rules.pairplace.schema import PairPlaceFile

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
MAX_LETTERS = 16

Edge = str | tuple[str, str]


def parse_header(spec: PairPlaceFile) -> str:
    header = spec.header
    if header is None:
        require(spec.n is not None, "header", "is missing (give header or n)")
        n = int(spec.n)  # type: ignore[arg-type]
        require(2 <= n <= MAX_LETTERS, "n", f"{n} is outside 2-{MAX_LETTERS}")
        return LETTERS[:n]
    header = header.replace(" ", "")
    require(len(header) >= 2, "header", "needs at least two letters")
    require(len(header) <= MAX_LETTERS, "header", f"has more than {MAX_LETTERS} letters")
    require(len(set(header)) == len(header), "header", "repeats a letter")
    require("." not in header, "header", "'.' marks an unknown cell and cannot be a letter")
    require(
        spec.n is None or spec.n == len(header),
        "n",
        f"is {spec.n} but the header has {len(header)} letters",
    )
    return header


def parse_edges(header: str, edges: Sequence[Edge] | None) -> list[tuple[int, int]] | None:
    """Edges as sorted index pairs (None: the complete graph)."""
    if edges is None:
        return None
    out: set[tuple[int, int]] = set()
    for k, edge in enumerate(edges):
        field = f"edges[{k}]"
        pair = tuple(edge.replace("-", "").replace("–", "")) if isinstance(edge, str) else edge
        require(len(pair) == 2, field, f"{edge!r} is not a pair of letters")
        a, b = pair
        for letter in (a, b):
            require(letter in header, field, f"{letter!r} is not a header letter")
        require(a != b, field, f"{a}–{a} joins a letter to itself")
        i, j = sorted((header.index(a), header.index(b)))
        require((i, j) not in out, field, f"{a}–{b} is listed twice")
        out.add((i, j))
    return sorted(out)


def parse_rows(
    model: Model, grid: Sequence[str], field: str, allow_open: bool = True
) -> list[int | None]:
    """Cell values (letter indices, None for ``.``), with one-line errors."""
    header = model.options["header"]
    require(
        len(grid) == model.rows,
        field,
        f"has {len(grid)} rows, expected {model.rows} (one per colour)",
    )
    out: list[int | None] = []
    for r, row in enumerate(grid):
        row = row.replace(" ", "")
        require(
            len(row) == model.cols,
            field,
            f"row {r + 1} has {len(row)} cells, expected {model.cols}",
        )
        for c, char in enumerate(row):
            where = f"row {r + 1} column {header[c]}"
            if char == "." and allow_open:
                out.append(None)
                continue
            require(char in header, field, f"{where}: {char!r} is not a header letter")
            y = header.index(char)
            require(y != c, field, f"{where} cannot hold its own letter")
            require(
                model.variables[r * model.cols + c].domain >> y & 1,
                field,
                f"{where}: {header[c]}–{char} is not an edge of the graph",
            )
            out.append(y)
    return out


def format_rows(model: Model, state: State) -> list[str]:
    out = []
    for r in range(model.rows):
        row = []
        for c in range(model.cols):
            mask = state[r * model.cols + c]
            row.append(model.symbol(single_value(mask)) if is_single(mask) else ".")
        out.append("".join(row))
    return out


def examples_document(data: Mapping[str, Any]) -> list[dict[str, Any]] | None:
    """The puzzles of a pair place examples document (``{"system": "pair_place", "puzzles":
    [...]}``) as puzzle dicts; None for anything else. ``puzzle: null`` means no givens."""
    if data.get("system") != "pair_place" or not isinstance(data.get("puzzles"), list):
        return None
    out = []
    for item in data["puzzles"]:
        if not isinstance(item, dict):
            out.append(item)
            continue
        entry = {"family": "pairplace"}
        for key in ("id", "header", "n", "edges", "colours", "solution", "source", "name"):
            if item.get(key) is not None:
                entry[key] = item[key]
        if item.get("puzzle") is not None:
            entry["grid"] = item["puzzle"]
        out.append(entry)
    return out
