"""Pair place: a proper edge colouring of a regular graph, shown as a table.

The header holds the letters (the graph's vertices); each row is a colour. The cell in row r,
column X holds Y when the edge X–Y has colour r, so placements are reflexive (Y in column X of
row r ⇔ X in column Y of row r), each row pairs every letter with another (a perfect matching),
and a column never repeats a letter nor holds its own. The default graph is ``K_n`` (n even,
n − 1 rows: a round-robin schedule); a puzzle may give another graph as an edge list, which
must be regular, with one row per edge at each letter.

Cells are named ``r3cB`` (row 3, column B). The file is read in :mod:`rules.pairplace.file`,
the model built in :mod:`rules.pairplace.model` (its matchings in
:mod:`rules.pairplace.matching`), the techniques and their levels are in
:mod:`rules.pairplace.techniques`, and the graph side (networkx) in :mod:`rules.pairplace.graph`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from grader.core.model import Model, State, is_single, single_value
from grader.rating.board import Board
from grader.rating.family import Family, TechniqueSpec, TextFormat, require
from rules.cells import refuse_unknown_options
from rules.pairplace.canonical import TooSymmetric, canonical_form
from rules.pairplace.file import (
    LETTERS,
    examples_document,
    format_rows,
    parse_edges,
    parse_header,
    parse_rows,
)
from rules.pairplace.model import build_model
from rules.pairplace.techniques import pairplace_table

if TYPE_CHECKING:
    from rules.pairplace.schema import PairPlaceFile


class PairPlace(Family):
    name = "pairplace"
    schema_at = "rules.pairplace.schema:PairPlaceFile"
    title = "Pair place (edge colouring tables)"
    default_size = (6, 6)
    largest_size = (15, 16)
    options = {  # noqa: RUF012
        "header": "the letters (default A, B, C, ...: as many as --size says)",
        "graph": "complete (K_n, the default) or cycle",
        "edges": "another regular graph: its edges, e.g. AB,BC,CD,DA",
    }

    def size_text(self, size: tuple[int, int]) -> str:
        """Pair place sizes name the graph's letters: ``K6`` (``--size 6``)."""
        return f"K{size[1]} (--size {size[1]})"

    def normal_size(self, size: tuple[int, int], options: Mapping[str, Any]) -> tuple[int, int]:
        """``--size N`` (or ``NxN``) is the graph on N letters, one row per edge at each letter:
        K6 is 5x6, a 6-cycle 2x6."""
        model = self.empty_model(size, options)
        return model.rows, model.cols

    reachable = {  # noqa: RUF012  (bench/reachable.py; the levels not listed were not settled)
        (5, 6): ("trivial", "easy"),
        (7, 8): ("trivial", "easy", "normal", "expert"),
        (9, 10): ("trivial", "easy", "normal", "hard", "expert"),
    }
    out_of_reach = {  # noqa: RUF012  (keyed by the real shape, normal_size: K6 is 5x6)
        (5, 6): ("normal", "hard", "expert", "extreme"),
        (7, 8): ("hard",),
    }
    """K6: every clue set the techniques solve, the easy ones solve (proven by
    tests/test_generate_reach.py over every clue set of the one K6 1-factorization). K8 hard:
    no puzzle in 100 tries (bench/reachable.py; measured, not proven)."""
    example = {  # noqa: RUF012
        "family": "pairplace",
        "header": "ABCDEF",
        "grid": [".F....", "E.....", "C.....", "......", ".C...."],
    }

    text_formats = (
        TextFormat(
            "pair place examples",
            'The shared examples\' layout: `{"system": "pair_place", "puzzles": [...]}`, each '
            "entry a file without `family` (`header` or `n`, `edges`, `colours`, `solution`), "
            "its grid under `puzzle` (`null`: no givens).",
            '{"system": "pair_place", "puzzles": [{"id": "k6", "header": "ABCDEF", '
            '"puzzle": [".F....", "E.....", "C.....", "......", ".C...."]}]}',
        ),
    )

    def parse_document(self, data: Any) -> list[tuple[str, dict[str, Any]]] | None:
        found = examples_document(data) if isinstance(data, Mapping) else None
        if found is None:
            return None
        return [(f"puzzles[{i}]", item) for i, item in enumerate(found)]

    def build(self, spec: PairPlaceFile) -> tuple[Model, State, list[int] | None]:
        header = parse_header(spec)
        model = build_model(header, parse_edges(header, spec.edges), spec.colours)
        require(spec.grid is None or spec.puzzle is None, "puzzle", "give grid or puzzle, not both")
        grid = spec.grid if spec.grid is not None else spec.puzzle
        givens = model.initial_state()
        field = "grid" if spec.grid is not None else "puzzle"
        if grid is not None:
            for var, value in enumerate(parse_rows(model, grid, field)):
                if value is not None:
                    givens[var] = 1 << value
        solution = None
        if spec.solution is not None:
            values = parse_rows(model, spec.solution, "solution", allow_open=False)
            solution = [int(v) for v in values]  # type: ignore[arg-type]
            for constraint in model.constraints:
                require(
                    constraint.satisfied_by(solution),
                    "solution",
                    f"{constraint.label} breaks the rules",
                )
            for var, mask in enumerate(givens):
                require(
                    mask >> solution[var] & 1,
                    "solution",
                    f"disagrees with the givens at {model.name(var)}",
                )
        return model, givens, solution

    def format_grid(self, model: Model, state: State) -> list[str]:
        return format_rows(model, state)

    def text_rows(self, model: Model, state: State) -> list[str]:
        """The header letters and a rule above the rows."""
        header = model.options["header"]
        return [header, "-" * len(header), *format_rows(model, state)]

    def to_data(self, model: Model, state: State) -> dict[str, Any]:
        data: dict[str, Any] = {
            "family": "pairplace",
            "header": model.options["header"],
            "grid": format_rows(model, state),
        }
        if model.options.get("edges") is not None:
            data["edges"] = list(model.options["edges"])
        return data

    def board(self, model: Model, state: State, givens: State | None = None) -> Board:
        board = super().board(model, state, givens)
        board.header = list(model.options["header"])
        for r in range(model.rows):
            board.clues[("left", r)] = str(r + 1)
        return board

    def technique_table(self, model: Model) -> list[TechniqueSpec]:
        return pairplace_table()

    def graph(self, model: Model) -> Any:
        """The puzzle's graph as a networkx Graph on the header letters."""
        from rules.pairplace.graph import complete_graph, graph_from_edges

        header = model.options["header"]
        edges = model.options.get("edges")
        if edges is None:
            return complete_graph(header)
        return graph_from_edges(header, [(e[0], e[1]) for e in edges])

    def figure(self, model: Model, state: State, givens: State | None = None) -> Any:
        """A matplotlib Figure: the table beside the graph, edges drawn in their row's colour."""
        from rules.pairplace.graph import graph_figure

        board = self.board(model, state, givens)
        rows = format_rows(model, state)
        return graph_figure(self.graph(model), model.options["header"], rows, board)

    # -- generation ----------------------------------------------------------------------------

    def empty_model(self, size: tuple[int, int], options: Mapping[str, Any]) -> Model:
        """``size`` (rows, cols): cols is the number of letters; rows must be the degree (or
        equal cols, as ``--size N`` gives). Options: ``header``, ``edges`` (``"AB,BC,..."``
        or a list), ``graph`` (``complete`` or ``cycle``)."""
        refuse_unknown_options(options, ("header", "edges", "graph"))
        rows, n = size
        header = options.get("header") or LETTERS[:n]
        require(isinstance(header, str), "header", f"must be letters, not {header!r}")
        require(len(header) == n, "header", f"has {len(header)} letters, expected {n}")
        edges = options.get("edges")
        graph = options.get("graph", "complete")
        if isinstance(edges, str):
            edges = [e for e in edges.replace(" ", "").split(",") if e]
        if edges is None and graph == "cycle":
            edges = [header[i] + header[(i + 1) % n] for i in range(n)]
        else:
            require(
                graph in ("complete", "cycle"),
                "graph",
                f"unknown graph {graph!r} (known: complete, cycle; or give edges)",
            )
        spec = self.schema(family="pairplace", header=header, edges=edges)
        model = build_model(header, parse_edges(header, spec.edges), None)
        require(
            rows in (model.rows, n),
            "size",
            f"{rows} rows, but this graph needs {model.rows} (one per edge at each letter)",
        )
        return model

    def random_solution(self, model: Model, rng: random.Random) -> list[int]:
        """A random 1-factorization: rows filled one at a time with random perfect matchings
        of the edges left, backtracking when a row cannot be completed."""
        from grader.core.backtrack import solve_random

        solution = solve_random(model, model.initial_state(), rng)
        require(solution is not None, "edges", "this graph has no edge colouring with these rows")
        return solution  # type: ignore[return-value]

    def symmetric_copies(self, data: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        """The rows (colours) in reverse order, and the letters renamed by a symmetry of the
        graph (every renaming for K_n; for another graph, an automorphism found by networkx)."""
        header = data["header"]
        grid = data["grid"]
        out = [("rows reversed", {**data, "grid": list(reversed(grid))})]
        renaming = letter_symmetry(header, data.get("edges"))
        if renaming is not None:
            rows = []
            for row in grid:
                moved = ["."] * len(header)
                for column, letter in zip(header, row, strict=True):
                    target = header.index(renaming[column])
                    moved[target] = letter if letter == "." else renaming[letter]
                rows.append("".join(moved))
            out.append(("letters renamed", {**data, "grid": rows}))
        return out

    def canonical_key(self, model: Model, state: State) -> str:
        """Equal for grids that differ by a renaming of the letters (an automorphism of the
        graph) and an order of the rows (:mod:`rules.pairplace.canonical`); a grid too
        symmetric to search is keyed up to row order only."""
        cols = model.cols
        givens = [
            (var // cols, var % cols, single_value(mask))
            for var, mask in enumerate(state)
            if is_single(mask)
        ]
        header = model.options["header"]
        edges = model.options.get("edges")
        pairs = None if edges is None else [(header.index(a), header.index(b)) for a, b in edges]
        try:
            form = canonical_form(cols, givens, pairs, model.rows)
        except TooSymmetric:
            return model.key + "|rows:" + "/".join(sorted(format_rows(model, state)))
        return model.key + "|" + repr(form)


def letter_symmetry(header: str, edges: list[str] | None) -> dict[str, str] | None:
    """A renaming of the letters other than the identity that maps the graph onto itself
    (None if it has none): the header reversed for K_n, else a networkx automorphism."""
    if edges is None:
        return dict(zip(header, reversed(header), strict=True))
    import networkx as nx
    from networkx.algorithms.isomorphism import GraphMatcher

    graph = nx.Graph([tuple(edge) for edge in edges])
    for mapping in GraphMatcher(graph, graph).isomorphisms_iter():
        if any(a != b for a, b in mapping.items()):
            return mapping
    return None


FAMILY = PairPlace()
