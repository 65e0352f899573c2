"""The techniques of Path Puzzles, cheapest first. Each is one small class with its explanation.

Masks: ``OFF`` (only "off the path" left), ``ON`` (surely on), ``BOTH`` (open). Graph reasoning
(reachability, cut cells, pockets) uses networkx on the graph of cells and doors joined by the
edges the path may still cross.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from grader.core.constraints import Constraint
from grader.core.evidence import Evidence
from grader.core.explain import Explainer, number_word
from grader.core.graphs import biconnected_blocks, component_of, components
from grader.core.model import Model, cell_name, single_value
from grader.core.step import Step
from grader.core.technique import Context, Technique
from grader.rating.family import TechniqueSpec
from grader.techniques import Guess, Lookahead
from grader.techniques.short_chain import SHORT_ROUNDS
from rules.path.model import (
    BOTH,
    OFF,
    ON,
    OUTSIDE,
    CellDegree,
    Edge,
    Fragments,
    Geometry,
    LineCount,
    geometry,
    path_cells,
    stray_cells,
)


def names(ex: Explainer, variables: Sequence[int]) -> str:
    return ex.cells(sorted(variables))


def cells_of(geo: Geometry, variables: Iterable[int]) -> set[int]:
    """The cells of ``variables`` for a picture: a cell itself, an edge's two cells, a door's
    one cell."""
    out: set[int] = set()
    for var in variables:
        edge = geo.edge_of.get(var)
        if edge is None:
            out.add(var)
            continue
        out.add(geo.cell_var[edge.a])
        if edge.b is not None:
            out.add(geo.cell_var[edge.b])
    return out


def cell_evidence(step: Step, model: Model, variables: Iterable[int]) -> Evidence:
    """Evidence marking the cells of ``variables`` (see :func:`cells_of`) as used."""
    return Evidence(
        used=frozenset(cells_of(geometry(model), variables)),
        units=frozenset(),
        changed=frozenset(step.changed_vars()),
    )


# -- doors -------------------------------------------------------------------------------------


class DoorCells(Technique):
    name = "door-cells"
    title = "Door cells"
    description = (
        "The path enters and leaves the room through two doors. With only two doors left, both "
        "are used (and their cells are on the path); once two doors are used, every other door "
        "is a decoy."
    )

    reads_solutions = False

    def find(self, ctx: Context) -> Iterator[Step]:
        geo = geometry(ctx.model)
        state = ctx.state
        doors = [e.var for e in geo.door_edges]
        used = [v for v in doors if state[v] == ON]
        possible = [v for v in doors if state[v] & ON]
        if len(used) == 2:
            decoys = [v for v in possible if state[v] == BOTH]
            if decoys:
                yield self.make(eliminations=[(v, 1) for v in decoys], vars=used, mode="decoys")
        elif len(possible) == 2 and len(used) < 2:
            cells = [geo.cell_var[geo.edge_of[v].a] for v in possible]
            open_ = [(v, 1) for v in possible + cells if state[v] != ON]
            closed = [v for v in doors if not state[v] & ON]
            yield self.make(placements=open_, vars=possible, closed=closed, mode="two-left")

    def explain(self, step: Step, ex: Explainer) -> str:
        doors = names(ex, step.data["vars"])
        if step.data["mode"] == "decoys":
            return f"the path already uses {doors}, so the other doors are decoys"
        return f"only {doors} are left as doors, so the path enters and leaves through them"

    def evidence(self, step: Step, model: Model) -> Evidence:
        """The cells of the doors it names, and of the doors already closed (two left)."""
        data = step.data
        closed = data["closed"] if data["mode"] == "two-left" else []
        return cell_evidence(step, model, [*data["vars"], *closed])


# -- degree ------------------------------------------------------------------------------------


class Links(Technique):
    name = "links"
    title = "Path links"
    description = (
        "Bookkeeping of path edges around a cell: an edge on the path puts both its cells on the "
        "path; a cell off the path has no path edges; a cell with two path edges uses no other."
    )
    kinds = ("degree",)

    def find_in(self, ctx: Context, constraint: Constraint) -> Iterator[Step]:
        assert isinstance(constraint, CellDegree)
        state = ctx.state
        cell = state[constraint.cell]
        on = [e for e in constraint.edges if state[e] == ON]
        open_ = [e for e in constraint.edges if state[e] == BOTH]
        if on and cell == BOTH:
            yield self.make(placements=[(constraint.cell, 1)], vars=on[:1], mode="entered")
        elif cell == OFF and open_:
            yield self.make(eliminations=[(e, 1) for e in open_], cell=constraint.cell, mode="off")
        elif len(on) == 2 and open_:
            yield self.make(eliminations=[(e, 1) for e in open_], vars=on, mode="full")

    def explain(self, step: Step, ex: Explainer) -> str:
        mode = step.data["mode"]
        if mode == "entered":
            return f"the path crosses {names(ex, step.data['vars'])}"
        if mode == "off":
            return f"{ex.cell(step.data['cell'])} is off the path"
        return f"the path already goes through {names(ex, step.data['vars'])}"


class DeadEnd(Technique):
    name = "dead-end"
    title = "Dead end"
    description = (
        "A cell with fewer than two edges the path could still cross (neighbours or a door) "
        "would be a dead end, so it is off the path."
    )
    kinds = ("degree",)

    def find_in(self, ctx: Context, constraint: Constraint) -> Iterator[Step]:
        assert isinstance(constraint, CellDegree)
        state = ctx.state
        if state[constraint.cell] != BOTH:
            return
        possible = [e for e in constraint.edges if state[e] & ON]
        if len(possible) < 2:
            yield self.make(
                eliminations=[(constraint.cell, 1), *((e, 1) for e in possible)],
                cell=constraint.cell,
                vars=possible,
            )

    def explain(self, step: Step, ex: Explainer) -> str:
        ways = step.data["vars"]
        left = f"only {names(ex, ways)} is left" if ways else "no way in or out is left"
        return f"{ex.cell(step.data['cell'])} would be a dead end: {left}"

    def evidence(self, step: Step, model: Model) -> Evidence:
        """The cell and its neighbours: across the ways left and the edges already closed."""
        geo = geometry(model)
        return cell_evidence(step, model, [e.var for e in geo.around[geo.cells[step.data["cell"]]]])


class TwoWays(Technique):
    name = "two-ways"
    title = "Two ways out"
    description = "A cell on the path with exactly two edges it could still cross must use both."
    kinds = ("degree",)

    def find_in(self, ctx: Context, constraint: Constraint) -> Iterator[Step]:
        assert isinstance(constraint, CellDegree)
        state = ctx.state
        if state[constraint.cell] != ON:
            return
        possible = [e for e in constraint.edges if state[e] & ON]
        open_ = [e for e in possible if state[e] == BOTH]
        if len(possible) == 2 and open_:
            yield self.make(placements=[(e, 1) for e in open_], cell=constraint.cell)

    def explain(self, step: Step, ex: Explainer) -> str:
        return f"{ex.cell(step.data['cell'])} is on the path and has only these two ways to go"


# -- counts ------------------------------------------------------------------------------------


class EmptyFullLine(Technique):
    name = "empty-full-line"
    title = "Empty and full lines"
    description = (
        "A clue 0 empties its row or column; a clue equal to the number of cells in the line "
        "puts every one of them on the path."
    )
    kinds = ("count",)

    def find_in(self, ctx: Context, constraint: Constraint) -> Iterator[Step]:
        assert isinstance(constraint, LineCount)
        state = ctx.state
        open_ = [v for v in constraint.cells if state[v] == BOTH]
        if not open_:
            return
        if constraint.clue == 0:
            yield self.make(eliminations=[(v, 1) for v in open_], unit=constraint.label, full=False)
        elif constraint.clue == len(constraint.cells):
            yield self.make(placements=[(v, 1) for v in open_], unit=constraint.label, full=True)

    def explain(self, step: Step, ex: Explainer) -> str:
        if step.data["full"]:
            return f"the clue of {step.data['unit']} asks for every one of its cells"
        return f"the clue of {step.data['unit']} is 0"


class CountCompletion(Technique):
    name = "count"
    title = "Count saturation and completion"
    description = (
        "A row or column already holding as many path cells as its clue has no more; one whose "
        "path cells and open cells together just make its clue has all its open cells on the path."
    )
    kinds = ("count",)

    def scope(self, constraint: Constraint, model: Model) -> Sequence[int]:
        assert isinstance(constraint, LineCount)
        return constraint.cells

    def find_in(self, ctx: Context, constraint: Constraint) -> Iterator[Step]:
        assert isinstance(constraint, LineCount)
        on, open_ = constraint.tally(ctx.state)
        cells = [v for v in constraint.cells if ctx.state[v] == BOTH]
        if not cells:
            return
        if on == constraint.clue:
            yield self.make(
                eliminations=[(v, 1) for v in cells],
                unit=constraint.label,
                clue=constraint.clue,
                full=False,
            )
        elif on + open_ == constraint.clue:
            yield self.make(
                placements=[(v, 1) for v in cells],
                unit=constraint.label,
                clue=constraint.clue,
                full=True,
            )

    def explain(self, step: Step, ex: Explainer) -> str:
        unit, clue = step.data["unit"], step.data["clue"]
        cells = path_cells(clue)
        if step.data["full"]:
            return f"{unit} needs {cells} and has just that many left"
        return f"{unit} already holds its {cells}"


# -- loops -------------------------------------------------------------------------------------


class NoLoop(Technique):
    name = "no-loop"
    title = "No premature loop"
    description = (
        "An edge joining two cells already linked by the path would close a loop, so it is not "
        "used; an edge (or door) that would finish the door-to-door path while path cells remain "
        "outside it is not used either. Once the path is finished, every other cell is empty."
    )

    reads_solutions = False

    def find(self, ctx: Context) -> Iterator[Step]:
        geo = geometry(ctx.model)
        state = ctx.state
        fragments = Fragments(geo, state)
        outside_root = fragments.find(OUTSIDE)
        stray = [
            c
            for c in geo.cells
            if state[geo.cell_var[c]] == ON and not fragments.joined(c, OUTSIDE)
        ]
        if fragments.closed and not stray:
            rest = [geo.cell_var[c] for c in geo.cells if state[geo.cell_var[c]] == BOTH]
            if rest:
                path = [v for v in range(len(geo.cells)) if state[v] == ON]
                yield self.make(eliminations=[(v, 1) for v in rest], cells=path, mode="finished")
            return
        loops, early = [], []
        for edge in geo.edges:
            if state[edge.var] != BOTH:
                continue
            a = fragments.find(edge.a)
            b = fragments.find(OUTSIDE if edge.b is None else edge.b)
            if a != b:
                continue
            if a != outside_root:
                loops.append(edge.var)
            elif stray or any(
                state[geo.cell_var[c]] == ON and not fragments.joined(c, edge.a) for c in geo.cells
            ):
                early.append(edge.var)
        if loops:
            roots = {fragments.find(geo.edge_of[v].a) for v in loops}
            linked = [geo.cell_var[c] for c in geo.cells if fragments.find(c) in roots]
            yield self.make(
                eliminations=[(v, 1) for v in loops], vars=loops, cells=linked, mode="loop"
            )
        if early:
            # the path cells joined door to door and those left outside
            path = [v for v in range(len(geo.cells)) if state[v] == ON]
            yield self.make(
                eliminations=[(v, 1) for v in early], vars=early, cells=path, mode="early"
            )

    def explain(self, step: Step, ex: Explainer) -> str:
        mode = step.data["mode"]
        if mode == "finished":
            return "the path runs from door to door already, so no other cell is on it"
        if mode == "loop":
            return "the cells at both ends are already linked by the path: a loop would close"
        return "it would finish the path from door to door with path cells still left outside"

    def evidence(self, step: Step, model: Model) -> Evidence:
        """The path cells it relied on: those linking the ends of a loop's edges, or the whole
        path so far (finished, or finished too early)."""
        return cell_evidence(step, model, step.data["cells"])


# -- graphs ------------------------------------------------------------------------------------


def door_node(var: int) -> tuple[str, int]:
    return ("door", var)


Graph = dict[object, dict[object, int]]
"""An adjacency dict: node -> {neighbour: the variable of the edge between them (-1 for the
links to the outside)}."""


def possible_graph(geo: Geometry, state: Sequence[int], outside: bool = False) -> Graph:
    """Cells that may be on the path and door nodes, joined by edges the path may cross.

    With ``outside``, every door node is also joined to one node for the world outside. The
    graph of the last state asked for is kept (the graph techniques often ask in turn); callers
    must not change it.
    """
    key = (tuple(state), outside)
    last = geo.__dict__.get("_last_graph")
    if last is not None and last[0] == key:
        return last[1]
    graph = _build_graph(geo, state, outside)
    geo.__dict__["_last_graph"] = (key, graph)
    return graph


def _build_graph(geo: Geometry, state: Sequence[int], outside: bool) -> Graph:
    graph: Graph = {cell: {} for cell in geo.cells if state[geo.cell_var[cell]] & ON}
    for edge in geo.edges:
        if not state[edge.var] & ON or edge.a not in graph:
            continue
        if edge.b is None:
            node = door_node(edge.var)
            graph[edge.a][node] = edge.var
            graph[node] = {edge.a: edge.var}
            if outside:
                graph[node][OUTSIDE] = -1
                graph.setdefault(OUTSIDE, {})[node] = -1
        elif edge.b in graph:
            graph[edge.a][edge.b] = edge.var
            graph[edge.b][edge.a] = edge.var
    return graph


def required(geo: Geometry, state: Sequence[int]) -> list[object]:
    """Nodes surely on the path: its cells and the doors it surely uses."""
    out: list[object] = [c for c in geo.cells if state[geo.cell_var[c]] == ON]
    out += [door_node(e.var) for e in geo.door_edges if state[e.var] == ON]
    return out


def is_door(node: object) -> bool:
    return isinstance(node, tuple) and node[0] == "door"


def removals(geo: Geometry, state: Sequence[int], nodes: set) -> list[tuple[int, int]]:
    """Eliminations putting off the path every cell and door among ``nodes``, by variable (a
    set's order depends on the hashes of its door nodes, which differ from process to process)."""
    out = []
    for node in nodes:
        var = node[1] if is_door(node) else geo.cell_var[node]
        if state[var] == BOTH:
            out.append((var, 1))
    return sorted(out)


def node_var(geo: Geometry, node: object) -> int:
    """The variable of a cell or door node."""
    return node[1] if is_door(node) else geo.cell_var[node]  # type: ignore[index]


class Reachability(Technique):
    name = "reachability"
    title = "Reachability"
    description = (
        "The path is one connected line between two doors. A region of the room, cut off from the "
        "rest by edges the path cannot cross, holds the path only if it has two doors; once a "
        "path cell is known, every region without it is empty."
    )

    reads_solutions = False

    def find(self, ctx: Context) -> Iterator[Step]:
        geo = geometry(ctx.model)
        state = ctx.state
        graph = possible_graph(geo, state)
        needed = required(geo, state)
        for component in components(graph):
            doors = sum(1 for n in component if is_door(n))
            holds = [n for n in needed if n in component]
            if holds and (len(holds) < len(needed) or doors < 2):
                yield self.make(
                    contradiction="the path cells known so far cannot be linked door to door",
                    cells=[node_var(geo, n) for n in holds],
                )
                return
            if doors < 2 or (needed and not holds):
                out = removals(geo, state, component)
                if out:
                    far = bool(needed) and doors >= 2
                    yield self.make(
                        eliminations=out,
                        cells=[v for v, _ in out],
                        doors=doors,
                        anchor=node_var(geo, needed[0]) if far else None,
                        border=border(geo, component),
                    )

    def explain(self, step: Step, ex: Explainer) -> str:
        if "doors" not in step.data:  # the contradiction step (inside a lookahead chain)
            return step.contradiction or "the path cannot be linked door to door"
        anchor = step.data["anchor"]
        if anchor is not None and step.data["doors"] >= 2:
            return f"these cells cannot be reached from {ex.cell(anchor)}, which is on the path"
        doors = step.data["doors"]
        return f"these cells lie in a region with {'one door' if doors == 1 else 'no door'}"

    def evidence(self, step: Step, model: Model) -> Evidence:
        """The cells just outside the region (across the edges the path cannot cross) and the
        path cell it cannot reach; in a chain's contradiction, the path cells cut apart."""
        data = step.data
        if "doors" not in data:
            return cell_evidence(step, model, data["cells"])
        anchor = [] if data["anchor"] is None else [data["anchor"]]
        return cell_evidence(step, model, [*data["border"], *anchor])


def border(geo: Geometry, region: Iterable[object]) -> list[int]:
    """The cells next to a region of the graph (cell and door nodes) but not in it: the other
    side of the edges that cut it off."""
    cells = {node for node in region if not is_door(node)}
    out = set()
    for cell in cells:
        for edge in geo.around[cell]:  # type: ignore[index]
            other = geo.other(edge, cell)  # type: ignore[arg-type]
            if other is not None and other not in cells:
                out.add(geo.cell_var[other])
    return sorted(out)


def separates(
    adj: Graph,
    doors: set[object],
    needed: list[object],
    skip_node: object = None,
    skip_edge: tuple[object, object] | None = None,
) -> bool:
    """Whether, without ``skip_node`` (or ``skip_edge``), the path could no longer link every
    needed node and two of the ``doors`` (a search over the adjacency ``adj``, stopping as soon
    as everything needed is reached)."""
    start = needed[0]
    missing = set(needed) - {start}
    found = 1 if start in doors else 0
    if not missing and found >= 2:
        return False
    a, b = skip_edge if skip_edge is not None else (None, None)
    seen = {start}
    stack = [start]
    while stack:
        node = stack.pop()
        for other in adj[node]:
            if other == skip_node or other in seen:
                continue
            if (node == a and other == b) or (node == b and other == a):
                continue
            seen.add(other)
            stack.append(other)
            missing.discard(other)
            if other in doors:
                found += 1
            if not missing and found >= 2:
                return False
    return True


class CutCells(Technique):
    name = "cut-cells"
    title = "Cut cells between the doors"
    description = (
        "A cell (or edge) whose removal would split the path cells known so far apart, or shut "
        "them away from the second door they need, is a bottleneck the path must go through."
    )

    reads_solutions = False

    def find(self, ctx: Context) -> Iterator[Step]:
        geo = geometry(ctx.model)
        state = ctx.state
        needed = required(geo, state)
        if not needed:
            return
        graph = possible_graph(geo, state)
        if needed[0] not in graph:
            return
        component = component_of(graph, needed[0])
        blocks = [block for block in biconnected_blocks(graph) if block[0][0] in component]
        seen_in: dict[object, int] = {}
        for block in blocks:
            for node in dict.fromkeys(n for edge in block for n in edge):
                seen_in[node] = seen_in.get(node, 0) + 1
        doors = {node for node in component if is_door(node)}
        placements = []
        for node, count in seen_in.items():  # in two blocks or more: an articulation point
            if count < 2 or is_door(node) or state[geo.cell_var[node]] != BOTH:
                continue
            if separates(graph, doors, needed, skip_node=node):
                placements.append((geo.cell_var[node], 1))
        for block in blocks:  # a block of one edge: a bridge
            if len(block) != 1:
                continue
            a, b = block[0]
            var = graph[a][b]
            if state[var] == BOTH and separates(graph, doors, needed, skip_edge=(a, b)):
                placements.append((var, 1))
        if placements:
            yield self.make(placements=placements, cells=[node_var(geo, n) for n in needed])

    def explain(self, step: Step, ex: Explainer) -> str:
        without = "without it" if len(step.placements) == 1 else "without any one of them"
        return (
            f"{without} the path cells known so far could not be linked to each other and to two "
            "doors"
        )


class Pocket(Technique):
    name = "pocket"
    title = "Pockets"
    description = (
        "Joined through the outside, the path and its two doors make one closed circuit, and a "
        "circuit never leaves a biconnected block of the room's graph. A pocket reached through a "
        "single cell or edge can be entered but not left, so it is empty."
    )

    reads_solutions = False

    def find(self, ctx: Context) -> Iterator[Step]:
        geo = geometry(ctx.model)
        state = ctx.state
        graph = possible_graph(geo, state, outside=True)
        if OUTSIDE not in graph:
            return
        needed = [*required(geo, state), OUTSIDE]
        allowed_nodes: set = set()
        allowed_vars: set[int] = set()
        for block in biconnected_blocks(graph):
            nodes = {n for edge in block for n in edge}
            if len(nodes) < 3 or any(n not in nodes for n in needed):
                continue
            allowed_nodes |= nodes
            allowed_vars |= {graph[a][b] for a, b in block}
        if not allowed_nodes:
            yield self.make(
                contradiction="no circuit through the doors holds every path cell",
                cells=[node_var(geo, n) for n in needed if n != OUTSIDE],
            )
            return
        pockets = set(graph) - allowed_nodes - {OUTSIDE}
        out = removals(geo, state, pockets)
        out += [
            (e.var, 1)
            for e in geo.edges
            if state[e.var] == BOTH and e.var not in allowed_vars and e.b is not None
        ]
        if out:
            gates = {
                n
                for p in pockets
                for n in graph[p]
                if n in allowed_nodes and n != OUTSIDE and not is_door(n)
            }
            yield self.make(
                eliminations=out,
                cells=[v for v, _ in out],
                gates=sorted(geo.cell_var[n] for n in gates),  # type: ignore[index]
            )

    def explain(self, step: Step, ex: Explainer) -> str:
        return "the path could go in there only through a single cell or edge and not come back out"

    def evidence(self, step: Step, model: Model) -> Evidence:
        """The cells through which the path could enter the pockets (and not come back); for a
        contradiction, the path cells no circuit holds."""
        read = step.data["cells"] if step.contradiction else step.data["gates"]
        return cell_evidence(step, model, read)


# -- parity ------------------------------------------------------------------------------------


def cuts(model: Model) -> list[tuple[str, tuple[int, ...], tuple[int, ...]]]:
    """Per cut between two adjacent rows (or columns): its label, the edges crossing it and the
    doors of the cells on its first side."""
    found = model.memo.get("path_cuts")
    if found is None:
        geo = geometry(model)
        found = []
        for kind, size, axis in (("rows", geo.rows, 0), ("columns", geo.cols, 1)):
            for k in range(size - 1):
                crossing = tuple(
                    e.var
                    for e in geo.edges
                    if e.b is not None and {e.a[axis], e.b[axis]} == {k, k + 1}
                )
                doors = tuple(e.var for e in geo.door_edges if e.a[axis] <= k)
                found.append((f"{kind} {k + 1} and {k + 2}", crossing, doors))
        model.memo["path_cuts"] = found
    return found


class CrossingParity(Technique):
    name = "crossing-parity"
    title = "Crossing parity"
    description = (
        "The path crosses the line between two adjacent rows (or columns) an odd number of times "
        "exactly when its two doors lie on opposite sides of it. When one crossing is left "
        "undecided, that parity decides it."
    )

    reads_solutions = False

    def find(self, ctx: Context) -> Iterator[Step]:
        state = ctx.state
        for label, crossing, doors in cuts(ctx.model):
            group = crossing + doors
            open_ = [v for v in group if state[v] == BOTH]
            if len(open_) != 1:
                continue
            var = open_[0]
            used_doors = sum(1 for v in doors if state[v] == ON)
            crossed = sum(1 for v in crossing if state[v] == ON)
            value = (used_doors + crossed) % 2
            yield self.make(
                placements=[(var, value)],
                cut=label,
                vars=[v for v in group if state[v] == ON],
                crossed=crossed,
                doors=used_doors,
                door=var in doors,
                side_doors=len(doors),
            )

    def explain(self, step: Step, ex: Explainer) -> str:
        data = step.data
        between = f"between {data['cut']}"
        if data["door"]:
            return self.door_words(step, ex)
        side = "opposite sides" if data["doors"] % 2 else "the same side"
        parity = "an odd" if data["doors"] % 2 else "an even"
        used = "is" if step.placements[0][1] else "is not"
        known = data["crossed"]
        crossings = f"{number_word(known)} other crossing{'' if known == 1 else 's'}"
        return (
            f"the doors lie on {side} of the line {between}, so the path crosses it {parity} "
            f"number of times; with {crossings} known, this one {used} used"
        )

    def door_words(self, step: Step, ex: Explainer) -> str:
        """The last door on the first side of the line: the crossings are all known, and so are
        the other doors on that side (those on the far side do not count)."""
        data = step.data
        var, value = step.placements[0]
        crossed, others, used = data["crossed"], data["side_doors"] - 1, data["doors"]
        if crossed:
            crosses = f"the path crosses between {data['cut']} {times(crossed)}"
        else:
            crosses = f"the path does not cross between {data['cut']}"
        side = "opposite sides" if crossed % 2 else "the same side"
        door = ex.cell(var)
        if not others:
            rest = f"{door} is the only door on its side"
        elif not used:
            rest = f"no other door on the side of {door} is used or still open"
        else:
            verb = "is" if used == 1 else "are"
            rest = (
                f"{number_word(used)} other door{'' if used == 1 else 's'} on the side of {door} "
                f"{verb} used and none is still open"
            )
        return (
            f"{crosses}, so the two doors it uses lie on {side} of that line; {rest}, so it "
            f"{'is' if value else 'is not'} used"
        )


def times(count: int) -> str:
    """``once``, ``twice``, ``3 times``."""
    return {1: "once", 2: "twice"}.get(count, f"{count} times")


# -- line enumeration --------------------------------------------------------------------------


VALUES = {0: (), 1: (0,), 2: (1,), 3: (0, 1)}


def values_in(state: Sequence[int], var: int | None) -> tuple[int, ...]:
    return (0,) if var is None else VALUES[state[var]]


def cached_band_supports(constraint: LineCount, state: Sequence[int]) -> dict[int, int] | None:
    """:func:`band_supports`, remembered per line and masks (lines repeat during a solve)."""
    cache = constraint.__dict__.setdefault("_supports", {})
    key = tuple(state[v] for v in constraint.vars)
    if key not in cache:
        if len(cache) > 20_000:
            cache.clear()
        cache[key] = band_supports(constraint, state)
    return cache[key]


def band_supports(constraint: LineCount, state: Sequence[int]) -> dict[int, int] | None:
    """Per variable of a clued line and the edges around its cells, the values some completion
    of that line gives it (its count, and two path edges per path cell, none elsewhere)."""
    band = constraint.band
    n = len(band)
    layers: list[set[tuple[int, int]]] = [{(0, 0)}]
    moves: list[list[tuple[tuple[int, int], tuple[int, ...], tuple[int, int]]]] = []
    for i, (cell, before, side1, side2, after) in enumerate(band):
        shared_before = i > 0 and before is not None and before == band[i - 1][4]
        shared_after = i + 1 < n and after is not None and after == band[i + 1][1]
        options = []
        for x in values_in(state, cell):
            for s1 in values_in(state, side1):
                for s2 in values_in(state, side2):
                    for a in values_in(state, after):
                        options.append((x, s1, s2, a))
        befores = values_in(state, before)
        here = []
        nxt: set[tuple[int, int]] = set()
        for count, link in layers[-1]:
            for b in (link,) if shared_before else befores:
                if shared_before and b not in befores:
                    continue
                for x, s1, s2, a in options:
                    if b + s1 + s2 + a != 2 * x or count + x > constraint.clue:
                        continue
                    target = (count + x, a if shared_after else 0)
                    here.append(((count, link), (x, b, s1, s2, a), target))
                    nxt.add(target)
        if not nxt:
            return None
        moves.append(here)
        layers.append(nxt)
    alive = {(constraint.clue, 0)} & layers[-1]
    if not alive:
        return None
    support: dict[int, int] = {}
    for i in range(n - 1, -1, -1):
        previous = set()
        for source, values, target in moves[i]:
            if target not in alive:
                continue
            previous.add(source)
            for var, value in zip(band[i], values, strict=True):
                if var is not None:
                    support[var] = support.get(var, 0) | 1 << value
        alive = previous
    return support


class LineEnumeration(Technique):
    name = "line-enumeration"
    title = "Single-line enumeration"
    description = (
        "List every way to complete one clued row or column: which of its cells are on the path "
        "and how the path enters and leaves each of them (two edges per path cell, none "
        "elsewhere). A value no completion gives is removed; one they all give is placed."
    )
    kinds = ("count",)

    def find_in(self, ctx: Context, constraint: Constraint) -> Iterator[Step]:
        assert isinstance(constraint, LineCount)
        state = ctx.state
        if all(state[v] != BOTH for v in constraint.vars):
            return
        support = cached_band_supports(constraint, state)
        if support is None:
            yield self.make(
                contradiction=f"{constraint.label} cannot be completed", unit=constraint.label
            )
            return
        placements = [
            (var, single_value(mask))
            for var, mask in support.items()
            if state[var] == BOTH and mask != BOTH
        ]
        if placements:
            yield self.make(placements=placements, unit=constraint.label)

    def explain(self, step: Step, ex: Explainer) -> str:
        unit = step.data["unit"]
        if step.contradiction:
            return f"{unit} cannot be completed"
        return f"every way to complete {unit} with its clue and the path through its cells agrees"


# -- short chains ------------------------------------------------------------------------------


ASSUME_AND_FOLLOW = (
    "Assume a cell on (or off) the path and follow the links it forces for a few rounds"
)
"""How every short chain's description begins."""


@dataclass(frozen=True)
class Chain:
    """What assuming one cell on (or off) forces by the degree and count rules alone, round by
    round, until a rule breaks (``ends``) or :data:`SHORT_ROUNDS` rounds pass."""

    forced: tuple[tuple[int, int], ...]
    """The values the rules forced, in the order found (variable, value)."""
    rounds: int
    ends: tuple[tuple[str, str], ...]
    """Each rule broken in the last round: (kind, where), kind one of ``loop`` (a closed
    loop, or the path finished with path cells outside it), ``end`` (a cell with too few or
    too many ways, or the wrong number of doors) and ``count`` (a clue overfilled or starved);
    where: an edge's, a cell's or a line's name."""
    why: tuple[tuple[Any, ...] | None, ...] = ()
    """Per end, what broke, for the words of the ``end`` kind: ``("cell", cell, problem)`` (a
    key of :data:`~rules.path.model.DEGREE_PROBLEMS`), ``("doors", "many" | "few")`` or
    ``("clash", edge, on_by, off_by, off_why)`` (one cell's rule puts the edge on, the other's
    off: ``off_why`` ``off``, ``full`` or ``dead``, see :func:`clash`); None for the others."""


def short_chain(ctx: Context, var: int, value: int, cut: bool = False) -> Chain:
    """:func:`follow` of the assumption ``var = value``, kept per state of one scan (the short
    chain techniques ask in turn)."""
    memo = ctx.memo.setdefault("path_short_chains", {})
    chain = memo.get((var, value, cut))
    if chain is None:
        base = memo.get("fragments")
        if base is None:
            base = memo["fragments"] = Fragments(geometry(ctx.model), ctx.state)
        chain = memo[(var, value, cut)] = follow(ctx.model, ctx.state, var, value, cut, base.copy())
    return chain


def follow(
    model: Model,
    state: Sequence[int],
    var: int,
    value: int,
    cut: bool = False,
    fragments: Fragments | None = None,
) -> Chain:
    """Assume ``var = value`` and apply the rules of a cell's degree (Links, Dead end, Two
    ways) and of a clue's count (Count saturation and completion) to every constraint a change
    touched, all of a round at once, checking each round for a broken rule. ``fragments``: the
    path edges of ``state`` already joined (a copy the chain may extend; built when None)."""
    geo = geometry(model)
    s = list(state)
    s[var] = 1 << value
    if fragments is None:
        fragments = Fragments(geo, state)
    forced: list[tuple[int, int]] = []
    changed = [var]
    constraints = model.constraints
    for rounds in range(SHORT_ROUNDS + 1):
        touched = sorted({ci for v in changed for ci in model.var_constraints[v]})
        breaks = broken(geo, s, fragments, changed, [constraints[ci] for ci in touched])
        if cut and not breaks and cut_off(geo, s):
            breaks = (("cut", "", None),)
        if breaks or rounds == SHORT_ROUNDS:
            ends = tuple((kind, where) for kind, where, _ in breaks)
            return Chain(tuple(forced), rounds, ends, tuple(why for _, _, why in breaks))
        narrowed: dict[int, int] = {}
        by_count: dict[int, str] = {}  # a variable a clue narrowed → that line's label
        for ci in touched:
            constraint = constraints[ci]
            if not isinstance(constraint, CellDegree | LineCount):
                continue
            for v, mask in constraint.prune(s) or ():
                narrowed[v] = narrowed.get(v, s[v]) & mask
                if isinstance(constraint, LineCount):
                    by_count.setdefault(v, constraint.label)
        changed = [v for v, mask in sorted(narrowed.items()) if mask != s[v]]
        if not changed:
            break
        emptied = [v for v in changed if not narrowed[v]]
        if emptied:  # two rules disagree: a clue's count, if one of them, is what breaks
            counted = [v for v in emptied if v in by_count]
            if counted:  # the line whose clue breaks
                where = tuple(dict.fromkeys(("count", by_count[v]) for v in counted))
                return Chain(tuple(forced), rounds + 1, where, (None,) * len(where))
            where = tuple(("end", cell_or_edge(geo, v)) for v in emptied)
            degrees = [constraints[ci] for ci in touched]
            why = tuple(clash(s, v, degrees) for v in emptied)
            return Chain(tuple(forced), rounds + 1, where, why)
        for v in changed:
            s[v] = narrowed[v]
            forced.append((v, single_value(s[v])))
    return Chain(tuple(forced), rounds, ())


def broken(
    geo: Geometry,
    state: Sequence[int],
    fragments: Fragments,
    changed: Sequence[int],
    touched: Sequence[Constraint],
) -> tuple[tuple[str, str, tuple[Any, ...] | None], ...]:
    """The rules ``state`` breaks among the ``touched`` constraints and the path's shape
    (``fragments`` joins the path edges seen so far; the edges ``changed`` put on are added):
    per rule its kind, where and what broke (see :class:`Chain`)."""
    ends: list[tuple[str, str]] = []
    why: dict[tuple[str, str], tuple[Any, ...] | None] = {}
    for constraint in touched:
        if isinstance(constraint, CellDegree):
            problem = constraint.problem(state)
            if problem is not None:
                ends.append(("end", constraint.label))
                why.setdefault(ends[-1], ("cell", constraint.cell, problem))
        elif isinstance(constraint, LineCount) and constraint.check(state):
            ends.append(("count", constraint.label))
    doors = [e.var for e in geo.door_edges]
    if sum(state[v] == ON for v in doors) > 2:
        ends.append(("end", "the doors"))
        why.setdefault(ends[-1], ("doors", "many"))
    elif sum(1 for v in doors if state[v] & ON) < 2:
        ends.append(("end", "the doors"))
        why.setdefault(ends[-1], ("doors", "few"))
    closing = []
    for v in changed:
        edge = geo.edge_of.get(v)
        if edge is not None and state[v] == ON and not fragments.join(edge):
            closing.append(edge)
    ends += [("loop", name) for name in loop_ends(geo, state, fragments, closing)]
    return tuple((kind, where, why.get((kind, where))) for kind, where in dict.fromkeys(ends))


def loop_ends(
    geo: Geometry, state: Sequence[int], fragments: Fragments, closing: Sequence[Edge]
) -> list[str]:
    """The names of the ``closing`` edges (each joined two already joined nodes) that close a
    loop: their fragment does not reach the outside, or it does (the path is finished from door
    to door) and path cells are left outside it. Decided once every edge is joined, so that the
    order the edges were joined in (which a symmetry of the puzzle changes) does not matter."""
    if not closing:
        return []
    outside = fragments.find(OUTSIDE)
    left_out: bool | None = None
    found = []
    for edge in closing:
        if fragments.find(edge.a) == outside:
            if left_out is None:
                left_out = bool(stray_cells(geo, state, fragments))
            if not left_out:
                continue
        found.append(edge.name)
    return found


def clash(state: Sequence[int], var: int, touched: Sequence[Constraint]) -> tuple[Any, ...] | None:
    """Why the degree rules of an edge's two cells disagree in ``state`` (the chain's rounds
    narrowed edge ``var`` to nothing): ``("clash", var, on_by, off_by, off_why)``, ``on_by``
    the cell on the path with only two ways left, ``off_by`` the cell putting the edge off,
    as it is off the path (``off``), has its two path edges (``full``) or has no other way
    left (``dead``). None when not two cells' rules disagree."""
    on_by = off_by = None
    for constraint in touched:
        if not isinstance(constraint, CellDegree) or var not in constraint.edges:
            continue
        for v, mask in constraint.prune(state) or ():
            if v == var:
                if mask == ON:
                    on_by = constraint
                else:
                    off_by = constraint
    if on_by is None or off_by is None:
        return None
    on, _ = off_by.tally(state)
    off_why = "off" if state[off_by.cell] == OFF else "full" if on == 2 else "dead"
    return ("clash", var, on_by.cell, off_by.cell, off_why)


def cut_off(geo: Geometry, state: Sequence[int]) -> bool:
    """Whether the path cells and doors known in ``state`` cannot be linked door to door."""
    graph = _build_graph(geo, state, False)
    needed = required(geo, state)
    if not needed:
        return False
    component = component_of(graph, needed[0])
    doors = sum(1 for n in component if is_door(n))
    return doors < 2 or any(n not in component for n in needed)


def cell_or_edge(geo: Geometry, var: int) -> str:
    edge = geo.edge_of.get(var)
    return edge.name if edge is not None else cell_name(*geo.cells[var])


class ShortChain(Technique):
    """Base of the short chain techniques: the assumptions about cells whose :func:`follow`
    breaks a rule of the kind ``end``."""

    end: ClassVar[str] = ""
    cut: ClassVar[bool] = False
    reads_solutions = False
    assumptions = 1  # a bounded trial: lookahead-1 does not nest it in its own trials

    def find(self, ctx: Context) -> Iterator[Step]:
        geo = geometry(ctx.model)
        state = ctx.state
        for var in range(len(geo.cells)):
            if state[var] != BOTH:
                continue
            ctx.check_time()  # a cell's two trials at a time: 3,200 on the largest empty grid
            for value in (0, 1):
                chain = short_chain(ctx, var, value, self.cut)
                if any(kind == self.end for kind, _ in chain.ends):
                    yield self.make(
                        eliminations=[(var, value)],
                        assume=(var, value),
                        vars=[v for v, _ in chain.forced],
                        forced=chain.forced,
                        rounds=chain.rounds,
                        ends=[where for kind, where in chain.ends if kind == self.end],
                        why=[
                            why
                            for (kind, _), why in zip(chain.ends, chain.why, strict=True)
                            if kind == self.end
                        ],
                    )

    def chain_words(self, step: Step, ex: Explainer) -> str:
        var, value = step.data["assume"]
        forced = step.data["forced"]
        said = ", ".join(ex.conclusion(v, x, True) for v, x in forced)
        then = f", the links and counts would force {said}" if said else ""
        return f"if {ex.cell(var)} were {ex.value(value)}{then}"


class LoopAhead(ShortChain):
    name = "loop-ahead"
    title = "Loop ahead"
    description = (
        f"{ASSUME_AND_FOLLOW} (a cell with two ways left uses both, a full cell or row uses no "
        "more): if they close a loop, or finish the path from door to door with path cells left "
        "outside, the assumption is false."
    )
    end = "loop"

    def explain(self, step: Step, ex: Explainer) -> str:
        return f"{self.chain_words(step, ex)}: a loop would close at {step.data['ends'][0]}"


class DeadEndAhead(ShortChain):
    name = "dead-end-ahead"
    title = "Dead end ahead"
    description = (
        f"{ASSUME_AND_FOLLOW}: if they leave a path cell with fewer than two ways to go (or more "
        "than two), or the path without two doors, the assumption is false."
    )
    end = "end"

    def explain(self, step: Step, ex: Explainer) -> str:
        return f"{self.chain_words(step, ex)}: {self.break_words(step, ex)}"

    def break_words(self, step: Step, ex: Explainer) -> str:
        """What the first broken rule is: a cell's degree, the doors, or an edge the rules of
        its two cells would put both on and off."""
        why = step.data["why"][0]
        if why is None:
            return f"the rule at {step.data['ends'][0]} would break"
        if why[0] == "doors":
            if why[1] == "many":
                return "the path would use more than two doors"
            return "fewer than two doors would be left to the path"
        if why[0] == "cell":
            return f"{ex.cell(why[1])} {CELL_PROBLEM_WORDS[why[2]]}"
        _, edge, on_by, off_by, off_why = why
        return (
            f"{ex.cell(edge)} would have to be both on ({ex.cell(on_by)} would be on the path "
            f"with only two ways left) and off ({ex.cell(off_by)} {OFF_WORDS[off_why]})"
        )


CELL_PROBLEM_WORDS = {
    "crowded": "would have more than two path edges",
    "entered": "would be off the path, yet the path would run into it",
    "dead": "would be on the path with fewer than two ways to go (a dead end)",
}
"""A cell's broken degree rule (a key of :data:`~rules.path.model.DEGREE_PROBLEMS`) at the
end of a short chain."""

OFF_WORDS = {
    "off": "would be off the path",
    "full": "would already have its two path edges",
    "dead": "would have no other way left, a dead end",
}
"""Why a cell's rule would put an edge off (see :func:`clash`)."""


class CutAhead(ShortChain):
    name = "cut-ahead"
    title = "Cut off ahead"
    description = (
        f"{ASSUME_AND_FOLLOW}: if the path cells known then can no longer be linked to each other "
        "and to two doors, the assumption is false."
    )
    end = "cut"
    cut = True

    def explain(self, step: Step, ex: Explainer) -> str:
        return f"{self.chain_words(step, ex)}: the path could no longer be linked door to door"


class CountAhead(ShortChain):
    name = "count-ahead"
    title = "Count ahead"
    description = (
        f"{ASSUME_AND_FOLLOW}: if they put more path cells in a row or column than its clue, or "
        "leave it too few open cells to reach it, the assumption is false."
    )
    end = "count"

    def explain(self, step: Step, ex: Explainer) -> str:
        return f"{self.chain_words(step, ex)}: the clue of {step.data['ends'][0]} would break"


# -- lookahead ---------------------------------------------------------------------------------


class CellLookahead(Lookahead):
    """Lookahead whose assumptions are about cells (on or off the path), as a solver pencils
    them; edges follow from the cells by the cheaper techniques."""

    description = (
        "Assume a cell is on (or off) the path and follow what the cheaper techniques deduce; if "
        "that leads to a contradiction the opposite holds. Depth d allows d nested assumptions."
    )

    def trial_vars(self, ctx: Context) -> Iterator[int]:
        cells = len(geometry(ctx.model).cells)
        return (v for v in range(cells) if ctx.state[v] == BOTH)


# -- the table ---------------------------------------------------------------------------------


def path_table() -> list[TechniqueSpec]:
    """The Path Puzzles ladder: costs and levels of the techniques above."""
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
        TechniqueSpec(LoopAhead, 5.0, "hard"),
        TechniqueSpec(DeadEndAhead, 5.2, "hard"),
        TechniqueSpec(CountAhead, 5.5, "hard"),
        TechniqueSpec(CutAhead, 6.0, "hard"),
        TechniqueSpec(CellLookahead, 7.0, "expert", name="lookahead-1", kwargs={"depth": 1}),
        TechniqueSpec(CellLookahead, 9.0, "extreme", name="lookahead-2", kwargs={"depth": 2}),
        TechniqueSpec(Guess, 12.0, "extreme", default=False),
    ]
