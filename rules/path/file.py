"""The Path Puzzles file (its schema is in :mod:`rules.path.schema`): the room's size, holes,
doors, walls and clues checked with one-line errors (also from the seed's edge model), and
solutions read as a path of cells or as a drawing."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from grader.core.model import Model
from grader.rating.family import require
from rules.path.model import OPPOSITE, SIDES, Door, geometry

if TYPE_CHECKING:
    from rules.path.schema import PathFile

MAX_SIDE = 40
SHAPES = {
    frozenset("NS"): "│",
    frozenset("WE"): "─",
    frozenset("NE"): "└",
    frozenset("NW"): "┘",
    frozenset("SE"): "┌",
    frozenset("SW"): "┐",
}
DIRECTIONS = {char: dirs for dirs, char in SHAPES.items()}
EMPTY, ON_PATH, HOLE = "-", "#", " "


def room_size(spec: PathFile) -> tuple[int, int]:
    size = spec.size
    if size is None:
        require(spec.rows is not None and spec.cols is not None, "size", "is missing")
        rows, cols = spec.rows, spec.cols
    elif isinstance(size, int):
        rows = cols = size
    else:
        rows, cols = size
    assert rows is not None and cols is not None
    if spec.rows is not None:
        require(spec.rows == rows, "rows", f"is {spec.rows} but size says {rows}")
    if spec.cols is not None:
        require(spec.cols == cols, "cols", f"is {spec.cols} but size says {cols}")
    require(1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE, "size", f"must be 1 to {MAX_SIDE}")
    return rows, cols


def check_holes(holes: Sequence[tuple[int, int]], rows: int, cols: int) -> set[tuple[int, int]]:
    out = set()
    for i, (r, c) in enumerate(holes):
        require(0 <= r < rows and 0 <= c < cols, f"holes[{i}]", f"({r}, {c}) is outside the grid")
        require((r, c) not in out, f"holes[{i}]", f"({r}, {c}) is cut out twice")
        out.add((r, c))
    require(len(out) < rows * cols, "holes", "cut out every cell")
    return out


def check_doors(
    raw: Sequence[Any], rows: int, cols: int, holes: set[tuple[int, int]]
) -> list[Door]:
    doors: list[Door] = []
    for i, item in enumerate(raw):
        r, c, side = item if isinstance(item, tuple | list) else (item.row, item.col, item.side)
        field = f"doors[{i}]"
        side = side.upper()
        require(side in SIDES, field, f"side {side!r} is not N, S, E or W")
        require(0 <= r < rows and 0 <= c < cols, field, f"cell ({r}, {c}) is outside the grid")
        require((r, c) not in holes, field, f"cell ({r}, {c}) is cut out of the room")
        dr, dc = SIDES[side]
        beyond = (r + dr, c + dc)
        outside = not (0 <= beyond[0] < rows and 0 <= beyond[1] < cols) or beyond in holes
        require(outside, field, f"side {side} of ({r}, {c}) is not on the room's boundary")
        require((r, c, side) not in doors, field, "the same door twice")
        doors.append((r, c, side))
    require(len(doors) >= 2, "doors", "a path puzzle needs at least two doors")
    return doors


def check_clues(
    clues: list[int | None] | None, field: str, count: int, lengths: Sequence[int], what: str
) -> list[int | None]:
    if clues is None:
        return [None] * count
    require(len(clues) == count, field, f"has {len(clues)} clues, expected {count}")
    for i, clue in enumerate(clues):
        if clue is None:
            continue
        require(clue >= 0, f"{field}[{i}]", f"{clue} is negative")
        require(
            clue <= lengths[i],
            f"{field}[{i}]",
            f"{clue} is more than the {lengths[i]} cells of {what} {i + 1}",
        )
    return list(clues)


def check_walls(
    walls: Sequence[tuple[int, int, int, int]], rows: int, cols: int
) -> list[tuple[int, int, int, int]]:
    out = []
    for i, (r1, c1, r2, c2) in enumerate(walls):
        field = f"walls[{i}]"
        for r, c in ((r1, c1), (r2, c2)):
            require(0 <= r < rows and 0 <= c < cols, field, f"cell ({r}, {c}) is outside the grid")
        require(abs(r1 - r2) + abs(c1 - c2) == 1, field, "the two cells are not neighbours")
        out.append((r1, c1, r2, c2) if (r1, c1) < (r2, c2) else (r2, c2, r1, c1))
    return sorted(set(out))


def read_edge_model(
    edge_model: dict[str, Any], rows: int, cols: int, holes: set[tuple[int, int]]
) -> tuple[list[Door], list[tuple[int, int, int, int]]]:
    """Doors and inner walls from the seed's edge model (each cell owns its top and left edge)."""
    top, left = edge_model.get("top_edge"), edge_model.get("left_edge")
    require(
        isinstance(top, list) and len(top) == rows + 1,
        "edge_model.top_edge",
        f"needs {rows + 1} rows",
    )
    require(
        isinstance(left, list) and len(left) == rows, "edge_model.left_edge", f"needs {rows} rows"
    )
    doors: list[Door] = []
    walls = []
    present = lambda r, c: 0 <= r < rows and 0 <= c < cols and (r, c) not in holes  # noqa: E731
    for r in range(rows + 1):
        require(len(top[r]) == cols, f"edge_model.top_edge[{r}]", f"needs {cols} values")
        for c in range(cols):
            kind = top[r][c]
            require(
                kind in ("door", "wall", "blank"),
                f"edge_model.top_edge[{r}][{c}]",
                f"unknown {kind!r}",
            )
            above, below = present(r - 1, c), present(r, c)
            if kind == "door":
                require(above != below, f"edge_model.top_edge[{r}][{c}]", "a door inside the room")
                doors.append((r, c, "N") if below else (r - 1, c, "S"))
            elif kind == "wall" and above and below:
                walls.append((r - 1, c, r, c))
    for r in range(rows):
        require(len(left[r]) == cols + 1, f"edge_model.left_edge[{r}]", f"needs {cols + 1} values")
        for c in range(cols + 1):
            kind = left[r][c]
            require(
                kind in ("door", "wall", "blank"),
                f"edge_model.left_edge[{r}][{c}]",
                f"unknown {kind!r}",
            )
            west, east = present(r, c - 1), present(r, c)
            if kind == "door":
                require(west != east, f"edge_model.left_edge[{r}][{c}]", "a door inside the room")
                doors.append((r, c, "W") if east else (r, c - 1, "E"))
            elif kind == "wall" and west and east:
                walls.append((r, c - 1, r, c))
    return doors, walls


def values_of_path(
    model: Model,
    cells: Sequence[tuple[int, int]],
    field: str,
    rng: random.Random | None = None,
) -> list[int]:
    """The assignment of a path given as its cells from door to door (at an end cell with
    several doors, the first listed, or a random one with ``rng``)."""
    geo = geometry(model)
    values = [0] * len(model.variables)
    require(len(cells) > 0, field, "is empty")
    require(len(set(cells)) == len(cells), field, "visits a cell twice")
    for i, cell in enumerate(cells):
        require(geo.present(cell), f"{field}[{i}]", f"{tuple(cell)} is not a cell of the room")
        values[geo.cell_var[cell]] = 1
        if i:
            prev = cells[i - 1]
            edge = next((e for e in geo.around[cell] if geo.other(e, cell) == prev), None)
            require(edge is not None, f"{field}[{i}]", f"{tuple(cell)} does not join {tuple(prev)}")
            values[edge.var] = 1  # type: ignore[union-attr]
    ends = [cells[0], cells[-1]]
    taken: set[int] = set()
    listed = {(r, c, side): i for i, (r, c, side) in enumerate(model.options["doors"])}
    order = lambda e: listed.get((e.a[0], e.a[1], e.side), len(listed))  # noqa: E731
    for end in ends:
        doors = [e for e in geo.around[end] if e.door and e.var not in taken]
        require(bool(doors), field, f"the path ends at {tuple(end)}, which has no door left")
        door = rng.choice(doors) if rng is not None else min(doors, key=lambda e: order(e))
        values[door.var] = 1
        taken.add(door.var)
    return values


def values_of_drawing(model: Model, grid: Sequence[str]) -> list[int]:
    """The assignment of a path drawn with box characters (``-`` or space: empty)."""
    geo = geometry(model)
    require(len(grid) == model.rows, "solution", f"has {len(grid)} rows, expected {model.rows}")
    values = [0] * len(model.variables)
    for r, row in enumerate(grid):
        require(len(row) == model.cols, f"solution[{r}]", f"has {len(row)} cells")
        for c, char in enumerate(row):
            if not geo.present((r, c)):
                continue
            dirs = DIRECTIONS.get(char)
            if dirs is None:
                require(char in "-. ", f"solution[{r}]", f"unknown symbol {char!r}")
                continue
            values[geo.cell_var[(r, c)]] = 1
            for side in dirs:
                edge = geo.side_edge.get(((r, c), side))
                require(
                    edge is not None, f"solution[{r}]", f"the path leaves ({r}, {c}) through a wall"
                )
                values[edge.var] = 1  # type: ignore[union-attr]
    for edge in geo.edges:
        if values[edge.var] and edge.b is not None:
            both = values[geo.cell_var[edge.a]] and values[geo.cell_var[edge.b]]
            require(bool(both), "solution", f"the path at {edge.name} is broken")
    for cell in geo.cells:
        r, c = cell
        if values[geo.cell_var[cell]]:
            for edge in geo.around[cell]:
                side = edge.side if edge.a == cell else OPPOSITE[edge.side]
                drawn = side in DIRECTIONS.get(grid[r][c], frozenset())
                require(
                    bool(values[edge.var]) == drawn,
                    "solution",
                    f"the path at {edge.name} is broken",
                )
    return values
