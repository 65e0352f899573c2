"""The graph side of pair place, with networkx: graphs, colourings, tables and pictures.

A pair place table is a proper edge colouring of a regular graph: row ``r`` is colour ``r``
and the cell (row r, column X) holding Y says that the edge X–Y has colour r. This module
builds the graphs (``K_n`` or an edge list), converts between a colouring
(``{frozenset({X, Y}): colour}``) and a table (rows of letters), checks that a colouring uses
every edge once with every colour a perfect matching, and draws the coloured graph beside
the table. networkx and matplotlib are imported only here, and only when called.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import networkx as nx

Colouring = dict[frozenset[str], int]
"""Edge (as the set of its two letters) → colour (0-based row)."""


def complete_graph(letters: str) -> nx.Graph:
    """``K_n`` on the given letters."""
    import networkx as nx

    graph = nx.complete_graph(len(letters))
    return nx.relabel_nodes(graph, dict(enumerate(letters)))


def graph_from_edges(letters: str, edges: Iterable[tuple[str, str]]) -> nx.Graph:
    """The graph on ``letters`` with the given edges (letters without an edge stay isolated)."""
    import networkx as nx

    graph = nx.Graph()
    graph.add_nodes_from(letters)
    graph.add_edges_from(edges)
    return graph


def colouring_from_table(header: str, rows: Sequence[str]) -> Colouring:
    """The edge colouring a complete table shows.

    Raises ValueError when the table is not reflexive (Y in column X of a row, but not X in
    column Y of that row), holds a column's own letter or a letter outside the header.
    """
    colouring: Colouring = {}
    for r, row in enumerate(rows):
        if len(row) != len(header):
            raise ValueError(f"row {r + 1} has {len(row)} cells, expected {len(header)}")
        for x, y in zip(header, row, strict=True):
            if y not in header:
                raise ValueError(f"row {r + 1} column {x}: {y!r} is not a header letter")
            if y == x:
                raise ValueError(f"row {r + 1} column {x} holds its own letter")
            if row[header.index(y)] != x:
                raise ValueError(
                    f"row {r + 1} pairs {x} with {y} but {y} with {row[header.index(y)]}"
                )
            edge = frozenset((x, y))
            if colouring.get(edge, r) != r:
                raise ValueError(f"edge {x}–{y} has colours {colouring[edge] + 1} and {r + 1}")
            colouring[edge] = r
    return colouring


def table_from_colouring(graph: nx.Graph, colouring: Mapping[frozenset[str], int]) -> list[str]:
    """The table of a colouring: one row per colour, columns in the graph's node order.

    A letter with no edge of a colour gets ``.`` in that row (the colouring is then partial).
    """
    header = "".join(graph.nodes)
    colours = 1 + max(colouring.values(), default=-1)
    rows = [["."] * len(header) for _ in range(colours)]
    for edge, colour in colouring.items():
        x, y = sorted(edge)
        if not graph.has_edge(x, y):
            raise ValueError(f"{x}–{y} is not an edge of the graph")
        for a, b in ((x, y), (y, x)):
            cell = rows[colour][header.index(a)]
            if cell not in (".", b):
                raise ValueError(f"colour {colour + 1} meets {a} twice")
            rows[colour][header.index(a)] = b
    return ["".join(row) for row in rows]


def colouring_problem(graph: nx.Graph, colouring: Mapping[frozenset[str], int]) -> str | None:
    """Why a colouring is not a 1-factorization of ``graph`` (every edge once, every colour a
    perfect matching), or None when it is."""
    import networkx as nx

    edges = {frozenset(e) for e in graph.edges}
    for edge in colouring:
        if edge not in edges:
            return f"{'–'.join(sorted(edge))} is not an edge of the graph"
    missing = edges - set(colouring)
    if missing:
        return f"edge {'–'.join(min(sorted(edge) for edge in missing))} has no colour"
    classes: dict[int, list[tuple[str, str]]] = {}
    for edge, colour in colouring.items():
        x, y = sorted(edge)
        classes.setdefault(colour, []).append((x, y))
    for colour, matching in sorted(classes.items()):
        if not nx.is_perfect_matching(graph, set(matching)):
            return f"colour {colour + 1} is not a perfect matching"
    return None


def is_one_factorization(graph: nx.Graph, colouring: Mapping[frozenset[str], int]) -> bool:
    """Whether the colouring uses every edge once and each colour is a perfect matching."""
    return colouring_problem(graph, colouring) is None


def has_perfect_matching(graph: nx.Graph) -> bool:
    """Whether ``graph`` has a perfect matching (networkx's blossom algorithm)."""
    import networkx as nx

    matching = nx.max_weight_matching(graph, maxcardinality=True)
    return 2 * len(matching) == graph.number_of_nodes()


def regular_degree(graph: nx.Graph) -> int | None:
    """The common degree of every node, or None when degrees differ."""
    degrees = {d for _, d in graph.degree}
    return degrees.pop() if len(degrees) == 1 else None


def partial_colouring(header: str, rows: Sequence[str]) -> Colouring:
    """The edges a partial table already colours (a letter in a cell colours its edge)."""
    colouring: Colouring = {}
    for r, row in enumerate(rows):
        for x, y in zip(header, row, strict=True):
            if y in header and y != x:
                colouring[frozenset((x, y))] = r
    return colouring


def graph_figure(
    graph: nx.Graph, header: str, rows: Sequence[str], board: Any = None, title: str = ""
) -> Any:
    """A matplotlib Figure: the table (drawn by :mod:`grader.output.render` from ``board``) on the
    left and the graph on the right, each edge drawn in the colour of its row (grey: not yet
    coloured)."""
    import networkx as nx
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from grader.output.render import layout
    from grader.output.shapes import draw_on

    figure = Figure(figsize=(10, 4.5))
    FigureCanvasAgg(figure)
    table_axes, graph_axes = figure.subplots(1, 2)
    if board is not None:
        drawing = layout(board, candidates=False)
        draw_on(table_axes, drawing)
    table_axes.axis("off")
    palette = [f"C{i}" for i in range(10)]
    colouring = partial_colouring(header, rows)
    positions = nx.circular_layout(list(header))
    nx.draw_networkx_nodes(graph, positions, ax=graph_axes, node_color="white", edgecolors="black")
    nx.draw_networkx_labels(graph, positions, ax=graph_axes)
    for x, y in graph.edges:
        colour = colouring.get(frozenset((x, y)))
        nx.draw_networkx_edges(
            graph,
            positions,
            edgelist=[(x, y)],
            ax=graph_axes,
            edge_color="lightgrey" if colour is None else palette[colour % 10],
            width=1.0 if colour is None else 2.5,
            style="dashed" if colour is None else "solid",
        )
    for colour in range(len(rows)):
        graph_axes.plot([], [], color=palette[colour % 10], label=f"row {colour + 1}")
    graph_axes.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize="small", frameon=False)
    graph_axes.axis("off")
    if title:
        figure.suptitle(title)
    return figure
