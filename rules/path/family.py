"""Path Puzzles (Roderick Kimball): one path from door to door, clues count its cells per line.

A room of cells (a rectangle, possibly with cells cut out) has doors in its boundary. One simple
orthogonal path enters through one door, leaves through another and visits each cell at most
once; a clue outside a row or column counts the path's cells there (clues may be missing; more
than two doors may be given, the path uses exactly two). The model, its geometry and constraints
live in :mod:`rules.path.model`, the techniques in :mod:`rules.path.techniques`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from grader.board import Board
from grader.exact import count_solutions
from grader.family import Family, TechniqueSpec, require
from grader.model import Model, State, Variable, cell_name, is_single, single_value
from grader.symmetry import board_transforms
from grader.techniques import Guess
from rules.path.model import (
    BOTH,
    OFF,
    ON,
    OPPOSITE,
    SIDES,
    CellDegree,
    Door,
    Geometry,
    LineCount,
    SinglePath,
    geometry,
)
from rules.path.techniques import (
    CellLookahead,
    CountCompletion,
    CrossingParity,
    CutCells,
    DeadEnd,
    DoorCells,
    EmptyFullLine,
    LineEnumeration,
    Links,
    NoLoop,
    Pocket,
    Reachability,
    TwoWays,
)
from rules.schema import PuzzleFileBase

MAX_SIDE = 40
UNIQUE_TRIES = 200
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


class DoorObject(BaseModel):
    model_config = ConfigDict(extra="forbid")
    row: int
    col: int
    side: str


class PathFile(PuzzleFileBase):
    """A Path Puzzles file. ``doors`` are ``[row, col, side]`` (or ``{"row", "col", "side"}``)
    with side N, S, E or W; ``holes`` are cells cut out of the room; ``walls`` are inner walls
    ``[r1, c1, r2, c2]`` between neighbours. ``solution`` draws the path with ``│─┌┐└┘`` and
    ``-`` for empty cells; ``solution_path`` lists its cells from door to door."""

    family: Literal["path"]
    size: tuple[int, int] | int | None = Field(default=None, description="[rows, cols]")
    rows: int | None = None
    cols: int | None = None
    row_clues: list[int | None] | None = None
    col_clues: list[int | None] | None = None
    doors: list[tuple[int, int, str] | DoorObject]
    holes: list[tuple[int, int]] = Field(default_factory=list)
    walls: list[tuple[int, int, int, int]] = Field(default_factory=list)
    edge_model: dict[str, Any] | None = None
    solution: list[str] | None = None
    solution_path: list[tuple[int, int]] | None = None
    verified_solution: bool | None = None
    solution_count: int | None = None
    solution_count_exhaustive: bool | None = None


# ---------------------------------------------------------------------------------------------
# Building models
# ---------------------------------------------------------------------------------------------


def path_model(
    rows: int,
    cols: int,
    doors: Sequence[Door],
    row_clues: Sequence[int | None],
    col_clues: Sequence[int | None],
    holes: Sequence[tuple[int, int]] = (),
    walls: Sequence[tuple[int, int, int, int]] = (),
) -> Model:
    """The model of a room with its doors and clues (all already checked)."""
    doors = tuple(tuple(d) for d in doors)  # type: ignore[misc]
    wall_set = frozenset(frozenset(((a, b), (c, d))) for a, b, c, d in walls)
    geo = Geometry(rows, cols, frozenset(map(tuple, holes)), wall_set, doors)  # type: ignore[arg-type]
    variables = [Variable(cell_name(r, c), BOTH, r, c, "cell") for r, c in geo.cells]
    variables += [Variable(e.name, BOTH, e.a[0], e.a[1], "edge") for e in geo.edges]
    constraints: list[Any] = [
        CellDegree(geo.cell_var[cell], [e.var for e in geo.around[cell]], cell_name(*cell))
        for cell in geo.cells
    ]
    for kind, clues in (("row", row_clues), ("column", col_clues)):
        for index, clue in enumerate(clues):
            if clue is None:
                continue
            cells = [geo.cell_var[c] for c in geo.line_cells(kind, index)]
            band = geo.band(kind, index)
            constraints.append(LineCount(cells, clue, f"{kind} {index + 1}", band))
    constraints.append(SinglePath(geo))
    clue_text = lambda cs: ",".join("." if c is None else str(c) for c in cs)  # noqa: E731
    key = (
        f"path:{rows}x{cols}:doors={';'.join(f'{r},{c}{s}' for r, c, s in sorted(doors))}"
        f":holes={sorted(geo.holes)}:walls={sorted(sorted(w) for w in wall_set)}"
        f":rows={clue_text(row_clues)}:cols={clue_text(col_clues)}"
    )
    model = Model(
        family="path",
        rows=rows,
        cols=cols,
        variables=tuple(variables),
        constraints=tuple(constraints),
        symbols={0: "off", 1: "on"},
        value_names={0: "off the path", 1: "on the path"},
        key=key,
        options={
            "doors": [list(d) for d in doors],
            "row_clues": list(row_clues),
            "col_clues": list(col_clues),
            "holes": [list(h) for h in sorted(geo.holes)],
            "walls": [list(w) for w in walls],
        },
    )
    model.memo["path"] = geo
    return model


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
        r, c, side = (item.row, item.col, item.side) if isinstance(item, DoorObject) else item
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


# ---------------------------------------------------------------------------------------------
# Solutions
# ---------------------------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------------------------
# The family
# ---------------------------------------------------------------------------------------------


class PathPuzzles(Family):
    name = "path"
    title = "Path Puzzles"
    schema = PathFile
    cell_hints = False
    example = {  # noqa: RUF012
        "family": "path",
        "size": [5, 5],
        "row_clues": [3, 3, None, None, 4],
        "col_clues": [2, None, 5, 5, 2],
        "doors": [[0, 2, "N"], [1, 4, "E"]],
    }

    # -- files ----------------------------------------------------------------------------------

    def parse_document(self, data: Any) -> list[tuple[str, dict[str, Any]]] | None:
        """The puzzles of the shared examples' layout (``{"system": "path_puzzles", ...}``)."""
        if not isinstance(data, dict) or data.get("system") != "path_puzzles":
            return None
        puzzles = data.get("puzzles")
        if not isinstance(puzzles, list):
            return None
        out = []
        for i, item in enumerate(puzzles):
            if isinstance(item, dict):
                item = {"family": "path", **item}
            out.append((f"puzzles[{i}]", item))
        return out

    def build(self, spec: BaseModel) -> tuple[Model, State, list[int] | None]:
        assert isinstance(spec, PathFile)
        rows, cols = room_size(spec)
        holes = check_holes(spec.holes, rows, cols)
        doors = check_doors(spec.doors, rows, cols, holes)
        walls = check_walls(spec.walls, rows, cols)
        if spec.edge_model is not None:
            edge_doors, edge_walls = read_edge_model(spec.edge_model, rows, cols, holes)
            require(
                sorted(edge_doors) == sorted(doors), "edge_model", "its doors differ from doors"
            )
            walls = sorted(set(walls) | set(edge_walls))
        row_lengths = [sum(1 for c in range(cols) if (r, c) not in holes) for r in range(rows)]
        col_lengths = [sum(1 for r in range(rows) if (r, c) not in holes) for c in range(cols)]
        row_clues = check_clues(spec.row_clues, "row_clues", rows, row_lengths, "row")
        col_clues = check_clues(spec.col_clues, "col_clues", cols, col_lengths, "column")
        model = path_model(rows, cols, doors, row_clues, col_clues, sorted(holes), walls)
        solution = None
        if spec.solution_path is not None:
            solution = values_of_path(
                model, [tuple(c) for c in spec.solution_path], "solution_path"
            )
        elif spec.solution is not None:
            solution = values_of_drawing(model, spec.solution)
        return model, model.initial_state(), solution

    def format_grid(self, model: Model, state: State) -> list[str]:
        geo = geometry(model)
        out = []
        for r in range(model.rows):
            row = []
            for c in range(model.cols):
                if not geo.present((r, c)):
                    row.append(HOLE)
                    continue
                mask = state[geo.cell_var[(r, c)]]
                if mask == OFF:
                    row.append(EMPTY)
                elif mask == ON:
                    dirs = frozenset(
                        e.side if e.a == (r, c) else OPPOSITE[e.side]
                        for e in geo.around[(r, c)]
                        if state[e.var] == ON
                    )
                    row.append(SHAPES.get(dirs, ON_PATH))
                else:
                    row.append(".")
            out.append("".join(row))
        return out

    def to_data(self, model: Model, state: State) -> dict[str, Any]:
        options = model.options
        data: dict[str, Any] = {
            "family": "path",
            "size": [model.rows, model.cols],
            "row_clues": list(options["row_clues"]),
            "col_clues": list(options["col_clues"]),
            "doors": [list(d) for d in options["doors"]],
        }
        if options.get("holes"):
            data["holes"] = [list(h) for h in options["holes"]]
        if options.get("walls"):
            data["walls"] = [list(w) for w in options["walls"]]
        return data

    def count_givens(self, puzzle) -> int:
        options = puzzle.model.options
        clues = [c for c in (*options["row_clues"], *options["col_clues"]) if c is not None]
        return len(clues)

    def board(self, model: Model, state: State, givens: State | None = None) -> Board:
        geo = geometry(model)
        board = Board(model.rows, model.cols)
        board.holes = set(geo.holes)
        options = model.options
        for r, clue in enumerate(options["row_clues"]):
            if clue is not None:
                board.clues[("left", r)] = str(clue)
        for c, clue in enumerate(options["col_clues"]):
            if clue is not None:
                board.clues[("top", c)] = str(clue)
        board.doors = [((r, c), side) for r, c, side in options["doors"]]
        for r1, c1, r2, _c2 in options.get("walls", []):
            side = "S" if r2 == r1 + 1 else "E"
            board.walls.append(((r1, c1), side))
        for cell in geo.cells:
            mask = state[geo.cell_var[cell]]
            if mask == OFF:
                board.cells[cell] = "×"
            elif mask == ON:
                board.cells[cell] = "•"
        for edge in geo.edges:
            if state[edge.var] != ON:
                continue
            if edge.b is None:
                board.path_stubs.append((edge.a, edge.side))
            else:
                board.paths.append([edge.b, edge.a])
        return board

    # -- techniques -------------------------------------------------------------------------

    def technique_table(self, model: Model) -> list[TechniqueSpec]:
        return [
            TechniqueSpec(DoorCells, 1.0, "trivial"),
            TechniqueSpec(Links, 1.0, "trivial"),
            TechniqueSpec(EmptyFullLine, 1.0, "trivial"),
            TechniqueSpec(DeadEnd, 1.2, "trivial"),
            TechniqueSpec(TwoWays, 1.2, "trivial"),
            TechniqueSpec(CountCompletion, 1.5, "trivial"),
            TechniqueSpec(NoLoop, 2.0, "easy"),
            TechniqueSpec(Reachability, 2.5, "easy"),
            TechniqueSpec(CrossingParity, 3.0, "normal"),
            TechniqueSpec(CutCells, 3.2, "normal"),
            TechniqueSpec(Pocket, 3.5, "normal"),
            TechniqueSpec(LineEnumeration, 4.5, "hard"),
            TechniqueSpec(CellLookahead, 7.0, "expert", name="lookahead-1", kwargs={"depth": 1}),
            TechniqueSpec(CellLookahead, 9.0, "extreme", name="lookahead-2", kwargs={"depth": 2}),
            TechniqueSpec(Guess, 12.0, "extreme", default=False),
        ]

    # -- generation -------------------------------------------------------------------------

    def empty_model(self, size: tuple[int, int], options: Mapping[str, Any]) -> Model:
        require(not options, "rules", "path generation takes no options")
        rows, cols = size
        require(2 <= rows <= MAX_SIDE and 2 <= cols <= MAX_SIDE, "size", f"must be 2 to {MAX_SIDE}")
        doors = boundary_doors(rows, cols)
        return path_model(rows, cols, doors, [None] * rows, [None] * cols)

    def random_solution(self, model: Model, rng: random.Random) -> list[int]:
        """A random path whose puzzle with every clue shown has no other solution (checked by
        the exact search; most random paths have look-alikes that no clue set tells apart)."""
        for attempt in range(UNIQUE_TRIES):
            # long paths first; shorter ones (unique far more often on large boards) later
            low = max(0.1, 0.4 - 0.05 * (attempt // 15))
            cells = random_path(model.rows, model.cols, rng, low, low + 0.3)
            values = values_of_path(model, cells, "solution", rng)
            room, fitted = self.solution_model(model, values)
            full = self.with_hints(room, self.extra_hints(room, fitted))
            if count_solutions(full, full.initial_state(), 2)[0] == 1:
                return values
        return values

    def solution_model(self, template: Model, solution: list[int]) -> tuple[Model, list[int]]:
        """The room with just the two doors the random path uses (the puzzle's doors)."""
        geo = geometry(template)
        used = [e for e in geo.door_edges if solution[e.var]]
        doors = [(e.a[0], e.a[1], e.side) for e in used]
        model = path_model(
            template.rows, template.cols, doors, [None] * template.rows, [None] * template.cols
        )
        return model, translate(template, model, solution)

    def extra_hints(self, model: Model, solution: Sequence[int]) -> list[Any]:
        """Every row and column clue the solution makes."""
        geo = geometry(model)
        out = []
        for kind in ("row", "column"):
            size = model.rows if kind == "row" else model.cols
            for index in range(size):
                cells = geo.line_cells(kind, index)
                out.append((kind, index, sum(solution[geo.cell_var[c]] for c in cells)))
        return out

    def with_hints(self, model: Model, hints: Sequence[Any]) -> Model:
        row_clues: list[int | None] = [None] * model.rows
        col_clues: list[int | None] = [None] * model.cols
        for kind, index, clue in hints:
            (row_clues if kind == "row" else col_clues)[index] = clue
        options = model.options
        return path_model(
            model.rows,
            model.cols,
            [tuple(d) for d in options["doors"]],
            row_clues,
            col_clues,
            [tuple(h) for h in options.get("holes", [])],
            [tuple(w) for w in options.get("walls", [])],
        )

    def hint_excludes(self, template: Model, hint: Any, values: Sequence[int]) -> bool:
        kind, index, clue = hint
        geo = geometry(template)
        cells = geo.line_cells(kind, index)
        return sum(values[geo.cell_var[c]] for c in cells) != clue

    # -- symmetry ---------------------------------------------------------------------------

    def canonical_key(self, model: Model, state: State) -> str:
        options = model.options
        best = None
        rows, cols = model.rows, model.cols
        for shape, move in board_transforms(rows, cols):
            marks = []
            for r, c, side in options["doors"]:
                dr, dc = SIDES[side]
                a, b = move(r, c), move(r + dr, c + dc)
                marks.append(f"d{a}{b}")
            for h in options.get("holes", []):
                marks.append(f"h{move(*h)}")
            for r1, c1, r2, c2 in options.get("walls", []):
                marks.append(f"w{sorted((move(r1, c1), move(r2, c2)))}")
            for r, clue in enumerate(options["row_clues"]):
                if clue is not None:
                    marks.append(f"l{_line(move, (r, 0), (r, 1))}={clue}")
            for c, clue in enumerate(options["col_clues"]):
                if clue is not None:
                    marks.append(f"l{_line(move, (0, c), (1, c))}={clue}")
            decided = [
                f"v{move(v.row, v.col)}{single_value(state[i])}"
                for i, v in enumerate(model.variables)
                if v.kind == "cell" and is_single(state[i])
            ]
            text = f"{shape}|" + ";".join(sorted(marks + decided))
            if best is None or text < best:
                best = text
        return f"path:{best}"


def _line(move, first: tuple[int, int], second: tuple[int, int]) -> str:
    """A row or column after a symmetry, named by its axis and index."""
    a, b = move(*first), move(*second)
    return f"r{a[0]}" if a[0] == b[0] else f"c{a[1]}"


def boundary_doors(rows: int, cols: int) -> list[Door]:
    """Every boundary side of a rectangle as a door (the generator's template)."""
    out: list[Door] = []
    for c in range(cols):
        out += [(0, c, "N"), (rows - 1, c, "S")]
    for r in range(rows):
        out += [(r, 0, "W"), (r, cols - 1, "E")]
    return out


def translate(source: Model, target: Model, values: Sequence[int]) -> list[int]:
    """An assignment of one room's model as the assignment of another with the same cells."""
    by_name = {v.name: values[i] for i, v in enumerate(source.variables)}
    return [by_name.get(v.name, 0) for v in target.variables]


def random_path(
    rows: int, cols: int, rng: random.Random, low: float = 0.4, high: float = 0.8
) -> list[tuple[int, int]]:
    """A random simple path between two boundary cells covering a share ``low`` to ``high`` of a
    rectangle's cells.

    A Hamiltonian path (a serpentine) is shuffled by random backbite moves, then a stretch of
    it whose two ends lie on the boundary is taken.
    """
    path = [(r, c if r % 2 == 0 else cols - 1 - c) for r in range(rows) for c in range(cols)]
    for _ in range(20 * rows * cols):
        if rng.random() < 0.5:
            path.reverse()
        r, c = path[0]
        options = [(r + dr, c + dc) for dr, dc in SIDES.values()]
        options = [p for p in options if 0 <= p[0] < rows and 0 <= p[1] < cols and p != path[1]]
        target = rng.choice(options)
        k = path.index(target)
        path = path[k - 1 :: -1] + path[k:]
    n = len(path)
    boundary = [i for i, (r, c) in enumerate(path) if r in (0, rows - 1) or c in (0, cols - 1)]
    low, high = max(2, int(low * n)), max(2, int(high * n))
    pairs = [(i, j) for i in boundary for j in boundary if low <= j - i + 1 <= high]
    if not pairs:
        pairs = [(boundary[0], boundary[-1])]
    i, j = rng.choice(pairs)
    return path[i : j + 1]


FAMILY = PathPuzzles()
