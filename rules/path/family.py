"""Path Puzzles (Roderick Kimball): one path from door to door, clues count its cells per line.

A room of cells (a rectangle, possibly with cells cut out) has doors in its boundary. One simple
orthogonal path enters through one door, leaves through another and visits each cell at most
once; a clue outside a row or column counts the path's cells there (clues may be missing; more
than two doors may be given, the path uses exactly two). The file is read in
:mod:`rules.path.file`; the model, its geometry and constraints live in :mod:`rules.path.model`,
the techniques and their table in :mod:`rules.path.techniques`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from grader.core.exact import count_solutions
from grader.core.model import Model, State, is_single, single_value
from grader.core.symmetry import board_transforms, named_board_transforms
from grader.rating.board import Board, Spot
from grader.rating.family import Family, TechniqueSpec, TextFormat, require
from rules.cells import refuse_unknown_options
from rules.path.file import (
    EMPTY,
    HOLE,
    MAX_SIDE,
    ON_PATH,
    SHAPES,
    check_clues,
    check_doors,
    check_holes,
    check_walls,
    read_edge_model,
    room_size,
    values_of_drawing,
    values_of_path,
)
from rules.path.model import (
    OFF,
    ON,
    OPPOSITE,
    SIDES,
    Cell,
    Door,
    geometry,
    path_model,
)
from rules.path.techniques import cells_of, path_table

ON_VALUE = 1
"""The value of a cell or edge on the path (its mask is ``ON``; off the path is 0)."""

if TYPE_CHECKING:
    from rules.path.schema import PathFile

UNIQUE_TRIES = 200


class PathPuzzles(Family):
    name = "path"
    schema_at = "rules.path.schema:PathFile"
    title = "Path Puzzles"
    default_size = (6, 6)
    options = {"decoys": "generate: this many doors the path does not use, 0-8"}  # noqa: RUF012
    largest_size = (40, 40)
    options = {"decoys": "generate: how many doors the path does not use, 0-8"}  # noqa: RUF012
    cell_hints = False
    reachable = {  # noqa: RUF012  (bench/reachable.py; the levels not listed were not settled)
        (5, 5): ("trivial", "easy", "normal", "hard", "expert", "extreme"),
        (6, 6): ("trivial", "easy", "normal", "hard", "expert", "extreme"),
        (8, 8): ("trivial", "easy", "normal", "hard", "expert"),
    }
    """Extreme is rare at 5x5 and 6x6 (seeds 0-3: 3 puzzles in 498 attempts, 4 in 229; see
    the manual's "Levels out of reach"): reached, not quick."""
    example = {  # noqa: RUF012
        "family": "path",
        "size": [5, 5],
        "row_clues": [3, 3, None, None, 4],
        "col_clues": [2, None, 5, 5, 2],
        "doors": [[0, 2, "N"], [1, 4, "E"]],
    }

    # -- files ----------------------------------------------------------------------------------

    text_formats = (
        TextFormat(
            "path puzzles examples",
            'The shared examples\' layout: `{"system": "path_puzzles", "puzzles": [...]}`, '
            "each entry a file without `family` (its room often given by `edge_model`).",
            '{"system": "path_puzzles", "puzzles": [{"id": "room-1", "size": [5, 5], '
            '"row_clues": [3, 3, null, null, 4], "col_clues": [2, null, 5, 5, 2], '
            '"doors": [[0, 2, "N"], [1, 4, "E"]]}]}',
        ),
    )

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

    def build(self, spec: PathFile) -> tuple[Model, State, list[int] | None]:
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

    def text_board(self, model: Model, state: State) -> list[str]:
        """The grid with its clues and doors: column clues above, row clues on the left, and
        each door of the outer border as an arrow into its cell (``v`` above, ``^`` below,
        ``>`` on the left, ``<`` on the right)."""
        options = model.options
        rows = [" ".join(row) for row in self.format_grid(model, state)]
        doors = {(r, c, side) for r, c, side in options["doors"]}
        row_clues = ["" if k is None else str(k) for k in options["row_clues"]]
        width = max(map(len, row_clues), default=0)
        margin = " " * (width + 2)

        def across(marks: list[str]) -> str | None:
            return (margin + " ".join(marks)).rstrip() if any(m.strip() for m in marks) else None

        last_row, last_col = model.rows - 1, model.cols - 1
        col_clues = ["" if k is None else str(k) for k in options["col_clues"]]
        digits = max(map(len, col_clues), default=0)  # a clue of two digits: one per line
        head = [across([k.rjust(digits)[i] for k in col_clues]) for i in range(digits)]
        head.append(across(["v" if (0, c, "N") in doors else " " for c in range(model.cols)]))
        body = [
            f"{row_clues[r]:>{width}} {'>' if (r, 0, 'W') in doors else ' '}{line}"
            f"{' <' if (r, last_col, 'E') in doors else ''}".rstrip()
            for r, line in enumerate(rows)
        ]
        foot = across(["^" if (last_row, c, "S") in doors else " " for c in range(model.cols)])
        return [line for line in (*head, *body, foot) if line is not None]

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

    def variable_cells(self, model: Model, var: int) -> tuple[Cell, ...]:
        """A cell itself, an edge both cells it joins, a door its one cell (as the techniques'
        evidence names them, :func:`~rules.path.techniques.cells_of`)."""
        geo = geometry(model)
        if var not in geo.edge_of:
            return super().variable_cells(model, var)
        variables = model.variables
        return tuple((variables[v].row, variables[v].col) for v in sorted(cells_of(geo, (var,))))

    def spot(self, model: Model, var: int, value: int) -> Spot | None:
        """An edge's spot is the middle of the side it crosses; a cell's, the cell."""
        edge = geometry(model).edge_of.get(var)
        if edge is None:
            variable = model.variables[var]
            return Spot((variable.row, variable.col))
        return Spot(edge.a, "", edge.side)

    def conclusion_spots(
        self,
        model: Model,
        placements: Sequence[tuple[int, int]],
        eliminations: Sequence[tuple[int, int]],
    ) -> tuple[list[Spot], list[Spot]]:
        """A cell or edge put on the path is drawn placed; one taken off it, struck out (off
        is value 0: placing it is striking the path out)."""
        placed: list[Spot] = []
        struck: list[Spot] = []
        for conclusions, placing in ((placements, True), (eliminations, False)):
            for var, value in conclusions:
                spot = self.spot(model, var, value)
                on_path = (value == ON_VALUE) == placing
                if spot is not None:
                    (placed if on_path else struck).append(spot)
        return placed, struck

    # -- techniques -------------------------------------------------------------------------

    def technique_table(self, model: Model) -> list[TechniqueSpec]:
        return path_table()

    # -- generation -------------------------------------------------------------------------

    def empty_model(self, size: tuple[int, int], options: Mapping[str, Any]) -> Model:
        """Every boundary side a door; ``decoys``: how many unused doors a puzzle shows."""
        refuse_unknown_options(options, ("decoys",))
        decoys = options.get("decoys", 0)
        require(
            isinstance(decoys, int) and not isinstance(decoys, bool) and 0 <= decoys <= 8,
            "rules",
            "decoys must be a whole number from 0 to 8",
        )
        rows, cols = size
        require(2 <= rows <= MAX_SIDE and 2 <= cols <= MAX_SIDE, "size", f"must be 2 to {MAX_SIDE}")
        doors = boundary_doors(rows, cols)
        model = path_model(rows, cols, doors, [None] * rows, [None] * cols)
        if decoys:
            model.options["decoys"] = decoys
        return model

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
        """The room with the two doors the random path uses and, with the ``decoys`` option,
        that many unused doors (chosen from the solution alone, so the same seed gives the
        same room)."""
        geo = geometry(template)
        used = [e for e in geo.door_edges if solution[e.var]]
        decoys = template.options.get("decoys", 0)
        if decoys:
            unused = [e for e in geo.door_edges if not solution[e.var]]
            rng = random.Random("decoys:" + "".join(map(str, solution)))
            used += rng.sample(unused, min(decoys, len(unused)))
            used.sort(key=lambda e: (e.a, e.side))  # the order must not tell the used doors
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

    def symmetric_copies(self, data: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        """The room under each board symmetry: doors, clues, holes and walls move along."""
        return path_copies(data)

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


def path_copies(data: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """See :meth:`PathFamily.symmetric_copies` (``data`` as ``to_data`` writes it)."""
    rows, cols = data["size"]
    towards = {delta: side for side, delta in SIDES.items()}
    out = []
    for name, shape, move in named_board_transforms(rows, cols):
        doors = []
        for r, c, side in data["doors"]:
            dr, dc = SIDES[side]
            (r2, c2), (r3, c3) = move(r, c), move(r + dr, c + dc)
            doors.append([r2, c2, towards[(r3 - r2, c3 - c2)]])
        clues: dict[str, list[int | None]] = {"row": [None] * shape[0], "col": [None] * shape[1]}
        for kind, line_clues in (("row", data["row_clues"]), ("col", data["col_clues"])):
            for index, clue in enumerate(line_clues):
                first, second = (
                    ((index, 0), (index, 1)) if kind == "row" else ((0, index), (1, index))
                )
                where = _line(move, first, second)
                clues["row" if where[0] == "r" else "col"][int(where[1:])] = clue
        copy = {
            **data,
            "size": list(shape),
            "doors": doors,
            "row_clues": clues["row"],
            "col_clues": clues["col"],
        }
        if data.get("holes"):
            copy["holes"] = [list(move(r, c)) for r, c in data["holes"]]
        if data.get("walls"):
            copy["walls"] = [[*move(r1, c1), *move(r2, c2)] for r1, c1, r2, c2 in data["walls"]]
        out.append((name, copy))
    return out


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
