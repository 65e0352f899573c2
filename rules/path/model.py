"""Path Puzzles: the room's geometry, the model's variables and its three constraint kinds.

Variables follow the seed's model, in which each cell owns its top and its left edge: for every
cell of the room one variable "on the path" (0 off, 1 on), then for every grid position
``(r, c)`` with ``0 <= r <= rows`` and ``0 <= c <= cols`` a flag "the path crosses the top edge
of (r, c)" and a flag "the path crosses the left edge of (r, c)", each only where that edge can
be crossed (between two cells of the room without a wall, or a door in the boundary). Row
``rows`` holds the bottom boundary and column ``cols`` the right one. So a board and a path have
exactly one representation, and a path and its reverse are the same assignment.

Constraints: the degree of every cell (on: two crossed edges, off: none), the count of every
clued row and column, and one *single path*: exactly two doors used and no closed loop (the
exact search adds loop cuts lazily; see :meth:`SinglePath.encode`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from grader.core.constraints import Constraint, Pruned
from grader.core.model import Model, State, Variable, cell_name

if TYPE_CHECKING:
    from grader.core.exact import CnfBuilder

Cell = tuple[int, int]
Door = tuple[int, int, str]
OFF, ON, BOTH = 1, 2, 3
"""Masks: only value 0 (off the path), only value 1 (on the path), still open."""
SIDES = {"N": (-1, 0), "S": (1, 0), "W": (0, -1), "E": (0, 1)}
OUTSIDE = "outside"
"""The node standing for the world outside the room in graphs: every door leads to it."""


@dataclass(frozen=True)
class Edge:
    """A crossable edge: between two cells, or a door between a cell and the outside."""

    var: int
    a: Cell
    b: Cell | None
    """The other cell; None for a door."""
    side: str
    """The side of ``a`` the edge is on."""
    name: str

    @property
    def door(self) -> bool:
        return self.b is None


@dataclass
class Geometry:
    """Where the cells, edges and doors of one room are, as variable indices."""

    rows: int
    cols: int
    holes: frozenset[Cell]
    walls: frozenset[frozenset[Cell]]
    doors: tuple[Door, ...]
    cells: list[Cell] = field(default_factory=list)
    cell_var: dict[Cell, int] = field(default_factory=dict)
    edges: list[Edge] = field(default_factory=list)
    edge_of: dict[int, Edge] = field(default_factory=dict)
    around: dict[Cell, list[Edge]] = field(default_factory=dict)
    """The crossable edges of each cell, in the order N, W, S, E."""
    side_edge: dict[tuple[Cell, str], Edge] = field(default_factory=dict)
    door_edges: list[Edge] = field(default_factory=list)

    def __post_init__(self) -> None:
        for r in range(self.rows):
            for c in range(self.cols):
                if (r, c) not in self.holes:
                    self.cell_var[(r, c)] = len(self.cells)
                    self.cells.append((r, c))
        door_set = set(self.doors)
        var = len(self.cells)
        for r in range(self.rows + 1):
            for c in range(self.cols + 1):
                for above_or_left, here, side in (
                    ((r - 1, c), (r, c), "N"),
                    ((r, c - 1), (r, c), "W"),
                ):
                    edge = self._edge(var, above_or_left, here, side, door_set)
                    if edge is not None:
                        self.edges.append(edge)
                        self.edge_of[var] = edge
                        var += 1
        for cell in self.cells:
            self.around[cell] = []
        for edge in self.edges:
            self.around[edge.a].append(edge)
            self.side_edge[(edge.a, edge.side)] = edge
            if edge.b is not None:
                self.around[edge.b].append(edge)
                self.side_edge[(edge.b, OPPOSITE[edge.side])] = edge
            else:
                self.door_edges.append(edge)
        order = "NWSE"
        for cell, edges in self.around.items():
            edges.sort(key=lambda e: order.index(e.side if e.a == cell else OPPOSITE[e.side]))

    def present(self, cell: Cell) -> bool:
        return cell in self.cell_var

    def _edge(
        self, var: int, first: Cell, second: Cell, side: str, doors: set[Door]
    ) -> Edge | None:
        """The edge between ``first`` (above or left) and ``second``; ``side`` is second's."""
        one, two = self.present(first), self.present(second)
        if one and two:
            if frozenset((first, second)) in self.walls:
                return None
            return Edge(var, second, first, side, f"{cell_name(*first)}-{cell_name(*second)}")
        if two and (second[0], second[1], side) in doors:
            return Edge(var, second, None, side, f"door {side} of {cell_name(*second)}")
        back = OPPOSITE[side]
        if one and (first[0], first[1], back) in doors:
            return Edge(var, first, None, back, f"door {back} of {cell_name(*first)}")
        return None

    def other(self, edge: Edge, cell: Cell) -> Cell | None:
        return edge.b if edge.a == cell else edge.a

    def line_cells(self, kind: str, index: int) -> list[Cell]:
        """The cells of row or column ``index`` of the room, in order."""
        if kind == "row":
            return [(index, c) for c in range(self.cols) if (index, c) in self.cell_var]
        return [(r, index) for r in range(self.rows) if (r, index) in self.cell_var]

    def band(
        self, kind: str, index: int
    ) -> list[tuple[int, int | None, int | None, int | None, int | None]]:
        """Per cell of a line: (cell var, edge before, two side edges, edge after) as variables.

        For a row "before" is the west edge and "after" the east one; for a column north and
        south. Neighbours in the line share the edge between them.
        """
        before, after, sides = ("W", "E", ("N", "S")) if kind == "row" else ("N", "S", ("W", "E"))
        out = []
        for cell in self.line_cells(kind, index):

            def var(side: str, cell: Cell = cell) -> int | None:
                edge = self.side_edge.get((cell, side))
                return None if edge is None else edge.var

            out.append((self.cell_var[cell], var(before), var(sides[0]), var(sides[1]), var(after)))
        return out


OPPOSITE = {"N": "S", "S": "N", "W": "E", "E": "W"}


def geometry(model: Model) -> Geometry:
    """The room of a path model (built from its options once, then kept in its memo: the memo
    is a cache that a caller may clear)."""
    geo = model.memo.get("path")
    if geo is None:
        options = model.options
        geo = room(model.rows, model.cols, options["doors"], options["holes"], options["walls"])
        model.memo["path"] = geo
    return geo


# ---------------------------------------------------------------------------------------------
# Constraints
# ---------------------------------------------------------------------------------------------


DEGREE_PROBLEMS = {
    "crowded": "has more than two path edges",
    "entered": "is off the path but the path runs into it",
    "dead": "is on the path but has fewer than two ways to go",
}
"""The rules of a cell's degree, by key, as a contradiction words them."""


class CellDegree(Constraint):
    """A cell on the path crosses exactly two of its edges (a door counts); off, it crosses none."""

    kind = "degree"

    def __init__(self, cell: int, edges: Sequence[int], label: str) -> None:
        super().__init__((cell, *edges), label)
        self.cell = cell
        self.edges = tuple(edges)

    def tally(self, state: State) -> tuple[int, int]:
        """Edges surely crossed, and edges still possibly crossed."""
        on = sum(1 for e in self.edges if state[e] == ON)
        possible = sum(1 for e in self.edges if state[e] & ON)
        return on, possible

    def problem(self, state: State) -> str | None:
        """The rule ``state`` breaks at this cell, as a key of :data:`DEGREE_PROBLEMS`."""
        on, possible = self.tally(state)
        mask = state[self.cell]
        if on > 2:
            return "crowded"
        if mask == OFF and on:
            return "entered"
        if mask == ON and possible < 2:
            return "dead"
        return None

    def check(self, state: State) -> str | None:
        problem = self.problem(state)
        return None if problem is None else DEGREE_PROBLEMS[problem]

    def prune(self, state: State) -> Pruned:
        if self.problem(state) is not None:
            return None
        on, possible = self.tally(state)
        out: list[tuple[int, int]] = []
        cell = state[self.cell]
        if on or possible < 2:
            new = ON if on else OFF
            if cell != new:
                if not cell & new:
                    return None
                out.append((self.cell, new))
                cell = new
        if cell == OFF or on == 2:
            out += [(e, OFF) for e in self.edges if state[e] == BOTH]
        elif cell == ON and possible == 2:
            out += [(e, ON) for e in self.edges if state[e] == BOTH]
        return out

    def encode(self, cnf: CnfBuilder) -> None:
        x = cnf.lit(self.cell, 1)
        lits = [cnf.lit(e, 1) for e in self.edges]
        for lit in lits:
            cnf.add([-lit, x])
        if len(lits) < 2:
            cnf.add([-x])
            return
        for i, a in enumerate(lits):
            cnf.add([-x, *(b for b in lits if b != a)])
            for j in range(i + 1, len(lits)):
                for k in range(j + 1, len(lits)):
                    cnf.add([-a, -lits[j], -lits[k]])

    def satisfied_by(self, values: Sequence[int]) -> bool:
        return sum(values[e] for e in self.edges) == 2 * values[self.cell]


class LineCount(Constraint):
    """A clue: the row or column holds exactly ``clue`` cells of the path.

    ``band`` lists per cell the edges around it (see :meth:`Geometry.band`) for line enumeration.
    """

    kind = "count"

    def __init__(
        self,
        cells: Sequence[int],
        clue: int,
        label: str,
        band: Sequence[tuple[int, int | None, int | None, int | None, int | None]],
    ) -> None:
        band_vars = [v for item in band for v in item if v is not None]
        super().__init__(list(dict.fromkeys([*cells, *band_vars])), label)
        self.cells = tuple(cells)
        self.clue = clue
        self.band = tuple(band)

    def tally(self, state: State) -> tuple[int, int]:
        """Cells surely on, and cells still open."""
        on = sum(1 for v in self.cells if state[v] == ON)
        open_ = sum(1 for v in self.cells if state[v] == BOTH)
        return on, open_

    def check(self, state: State) -> str | None:
        on, open_ = self.tally(state)
        if on > self.clue:
            return f"holds more than {path_cells(self.clue)}"
        if on + open_ < self.clue:
            return f"cannot reach {path_cells(self.clue)}"
        return None

    def prune(self, state: State) -> Pruned:
        if self.check(state) is not None:
            return None
        on, open_ = self.tally(state)
        if open_ and on == self.clue:
            return [(v, OFF) for v in self.cells if state[v] == BOTH]
        if open_ and on + open_ == self.clue:
            return [(v, ON) for v in self.cells if state[v] == BOTH]
        return []

    def encode(self, cnf: CnfBuilder) -> None:
        lits = [cnf.lit(v, 1) for v in self.cells]
        if self.clue == 0:
            for lit in lits:
                cnf.add([-lit])
        elif self.clue == len(lits):
            for lit in lits:
                cnf.add([lit])
        else:
            cnf.equals(lits, self.clue)

    def satisfied_by(self, values: Sequence[int]) -> bool:
        return sum(values[v] for v in self.cells) == self.clue


class SinglePath(Constraint):
    """Exactly two doors are used and the path cells form one path: no separate closed loop."""

    kind = "path"

    def __init__(self, geo: Geometry, label: str = "the path") -> None:
        super().__init__([*range(len(geo.cells)), *(e.var for e in geo.edges)], label)
        self.geo = geo
        self.doors = tuple(e.var for e in geo.door_edges)

    def check(self, state: State) -> str | None:
        used = sum(1 for v in self.doors if state[v] == ON)
        if used > 2:
            return "would use more than two doors"
        if sum(1 for v in self.doors if state[v] & ON) < 2:
            return "has fewer than two doors left to use"
        return loop_problem(self.geo, state)

    def encode(self, cnf: CnfBuilder) -> None:
        lits = [cnf.lit(v, 1) for v in self.doors]
        if len(lits) < 2:
            cnf.add([])
            return
        if len(lits) == 2:
            cnf.add([lits[0]])
            cnf.add([lits[1]])
        else:
            cnf.equals(lits, 2)
        geo = self.geo

        def cuts(values: Sequence[int]) -> list[list[int]]:
            out = []
            for loop in closed_loops(geo, values):
                leaving = [cnf.lit(e.var, 1) for e in boundary_edges(geo, loop)]
                out += [[-cnf.lit(geo.cell_var[c], 1), *leaving] for c in loop]
            return out

        cnf.lazy.append(cuts)

    def satisfied_by(self, values: Sequence[int]) -> bool:
        if sum(values[v] for v in self.doors) != 2:
            return False
        return not closed_loops(self.geo, values)


def closed_loops(geo: Geometry, values: Sequence[int]) -> list[set[Cell]]:
    """Components of a complete assignment's path cells that reach no door (closed loops)."""
    seen: set[Cell] = set()
    loops = []
    for start in geo.cells:
        if start in seen or not values[geo.cell_var[start]]:
            continue
        component, door, stack = {start}, False, [start]
        seen.add(start)
        while stack:
            cell = stack.pop()
            for edge in geo.around[cell]:
                if not values[edge.var]:
                    continue
                other = geo.other(edge, cell)
                if other is None:
                    door = True
                elif other not in seen:
                    seen.add(other)
                    component.add(other)
                    stack.append(other)
        if not door:
            loops.append(component)
    return loops


def boundary_edges(geo: Geometry, cells: Iterable[Cell]) -> list[Edge]:
    """Edges with exactly one end in ``cells`` (doors of those cells included)."""
    inside = set(cells)
    out = {}
    for cell in inside:
        for edge in geo.around[cell]:
            if geo.other(edge, cell) not in inside:
                out[edge.var] = edge
    return list(out.values())


class Fragments:
    """Union-find over the cells and the outside, joined by the edges surely on the path."""

    def __init__(self, geo: Geometry, state: State) -> None:
        self.parent: dict[object, object] = {}
        closing = [e for e in geo.edges if state[e.var] == ON and not self.join(e)]
        outside = self.find(OUTSIDE)
        self.closed: list[tuple[Edge, bool]] = [
            (edge, self.find(edge.a) == outside) for edge in closing
        ]
        """Edges that joined two already joined nodes: (edge, whether its fragment reaches the
        outside once every path edge is joined: in any order of the edges, unlike the fragment
        at the moment the edge closed)."""

    def join(self, edge: Edge) -> bool:
        """Join the two ends of a path edge; False when they were joined already (the edge
        closes a cycle, through the outside when it joins two doors)."""
        a = self.find(edge.a)
        b = self.find(OUTSIDE if edge.b is None else edge.b)
        if a == b:
            return False
        self.parent[a] = b
        return True

    def copy(self) -> Fragments:
        """An independent copy (the same joins) that may be extended."""
        twin = Fragments.__new__(Fragments)
        twin.parent = dict(self.parent)
        twin.closed = list(self.closed)
        return twin

    def find(self, node: object) -> object:
        parent = self.parent
        root = node
        while parent.get(root, root) != root:
            root = parent[root]
        while node != root:
            parent[node], node = root, parent.get(node, node)
        return root

    def joined(self, a: object, b: object) -> bool:
        return self.find(a) == self.find(b)


def stray_cells(geo: Geometry, state: State, fragments: Fragments) -> list[tuple[int, int]]:
    """The path cells not joined to the outside (left off a finished door-to-door path)."""
    return [
        c for c in geo.cells if state[geo.cell_var[c]] == ON and not fragments.joined(c, OUTSIDE)
    ]


def loop_problem(geo: Geometry, state: State) -> str | None:
    """A closed loop, or a finished door-to-door path with path cells left outside it."""
    fragments = Fragments(geo, state)
    for edge, through_doors in fragments.closed:
        if not through_doors:
            return f"closes a loop at {edge.name}"
        stray = stray_cells(geo, state, fragments)
        if stray:
            return f"is finished but leaves {cell_name(*stray[0])} on the path outside it"
    return None


# ---------------------------------------------------------------------------------------------
# Building models
# ---------------------------------------------------------------------------------------------


def room(
    rows: int,
    cols: int,
    doors: Sequence[Sequence[Any]],
    holes: Sequence[Sequence[int]] = (),
    walls: Sequence[Sequence[int]] = (),
) -> Geometry:
    """The geometry of a room: its cells, edges and doors (the variables' numbering)."""
    wall_set = frozenset(frozenset(((a, b), (c, d))) for a, b, c, d in walls)
    door_tuple = tuple(tuple(d) for d in doors)
    return Geometry(rows, cols, frozenset(map(tuple, holes)), wall_set, door_tuple)  # type: ignore[arg-type]


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
    geo = room(rows, cols, doors, holes, walls)
    wall_set = geo.walls
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


def path_cells(count: int) -> str:
    """``1 path cell``, ``3 path cells``: a clue's count in words of a sentence."""
    return f"{count} path cell{'' if count == 1 else 's'}"
