"""One renderer for every family: a :class:`~grader.rating.board.Board` is laid out as shapes
(:mod:`grader.output.shapes` turns them into SVG, or PNG and PDF through matplotlib).

Families never draw: they fill in a ``Board`` (:meth:`grader.rating.family.Family.board`) and this
module draws every field of it: cells, givens (bold), candidates (small), holes, region
borders, edge marks, outside clues, a header, doors, walls, paths, path stubs, highlights, a
step's conclusions (placed in green, struck in red), its units' outlines, its chain's links and
its trial's ringed assumption (:func:`draw_evidence` fills them from the step's evidence), and a
title.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from pathlib import Path

from grader.core.evidence import Evidence, constraints_by_label
from grader.core.explain import Explainer
from grader.core.model import State
from grader.core.step import Step
from grader.core.technique import Technique
from grader.output.shapes import (
    Dot,
    Drawing,
    Line,
    Polygon,
    Polyline,
    Rect,
    Style,
    Text,
    draw_on,
    drawing_figure,
    drawing_svg,
)
from grader.rating.board import Board, BoardLink, Cell, Spot
from grader.rating.family import Puzzle

CELL = 40
"""Side of a cell in pixels (SVG user units)."""

HIGHLIGHT_COLOURS = {"changed": "#8fdc9c", "used": "#ffd66b", "unit": "#dbe8fb"}
"""Fill of a highlighted cell by role (see :attr:`grader.rating.board.Board.highlights`)."""
HIGHLIGHT_ORDER = ("unit", "used", "changed")
"""Roles from weakest to strongest: a cell with several roles shows the strongest."""

INK = "#1a1a1a"
SOLVED_INK = "#1f5fae"
FAINT_INK = "#5f6b7a"
THIN = "#9aa3ad"
HOLE = "#c9ced4"
PATH = "#d4561c"
PLACED = "#138a36"
"""A step's conclusions: a value written in, an edge drawn."""
STRUCK = "#d62728"
"""What a step rules out: a candidate struck, an edge or a cell crossed."""
OUTLINE_COLOURS = {"unit": "#2a62c9", "base": "#2a62c9", "cover": "#e07b00"}
"""The outline of a unit a step read, by its role (a fish's base and cover lines)."""
OUTLINE_INSETS = {"unit": 0.07, "base": 0.07, "cover": 0.13}
"""How far inside its cells a unit's outline runs, in cell sides (a cover inside a base)."""
LINK = "#b0177a"
"""A chain's strong and weak links and its assumption's ring."""
IMPLIES = "#3b3b3b"
"""A chain's implications (thin arrows)."""
NUMBERED_LINKS = 4
"""A chain of more links than this numbers them, in reasoning order."""
SIDES = {"N": (-1, 0), "S": (1, 0), "W": (0, -1), "E": (0, 1)}


def layout(board: Board, candidates: bool = True, cell: float = CELL) -> Drawing:
    """The shapes that draw ``board`` (``candidates``: also the small candidate digits)."""
    s = cell
    pad, edge, title_h = _PAD * s, _EDGE * s, _title_height(board, s)
    left, top, right, bottom = margins(board, s)
    width = left + board.cols * s + right
    if board.title:  # room for the title (bold, about 0.6 of its size a character)
        width = max(width, edge + pad / 2 + len(board.title) * 0.6 * 0.4 * s + edge)
    height = top + board.rows * s + bottom
    drawing = Drawing(width, height, title=board.title)
    drawing.add(Rect(0, 0, width, height, Style(fill="white")))

    places = _Places(board, candidates, left, top, s)
    corner, centre = places.corner, places.centre
    inside = {
        (r, c) for r in range(board.rows) for c in range(board.cols) if (r, c) not in board.holes
    }
    _cells(drawing, board, inside, corner, s)
    _borders(drawing, board, inside, corner, s)
    _outlines(drawing, board, places)
    _paths(drawing, board, inside, centre, s, pad)
    _placed_edges(drawing, board, inside, places, pad)
    _marks(drawing, board, centre, s)
    _texts(drawing, board, inside, places, candidates)
    _conclusions(drawing, board, inside, places)
    _links(drawing, board, places)
    _outside(drawing, board, left, top, s, pad, edge, title_h)
    return drawing


_PAD = 0.4
"""Room between the grid and what is outside it (doors, path stubs), in cells."""
_EDGE = 0.15
"""The picture's outer margin, in cells."""


def _title_height(board: Board, s: float) -> float:
    return 0.7 * s if board.title else 0.0


def margins(board: Board, cell: float = CELL) -> tuple[float, float, float, float]:
    """The room :func:`layout` leaves around the grid: left, top, right and bottom (so the
    grid's top-left corner is at ``(left, top)`` and cell (r, c) at ``left + c * cell``,
    ``top + r * cell``)."""
    s = cell
    pad, edge = _PAD * s, _EDGE * s
    sides = {side for side, _ in board.clues}
    header_h = 0.8 * s if board.header else 0.0
    clue_h = 0.8 * s
    top = edge + _title_height(board, s) + pad + header_h + (clue_h if "top" in sides else 0.0)
    left = edge + pad + (clue_h if "left" in sides else 0.0)
    right = edge + pad + (clue_h if "right" in sides else 0.0)
    bottom = edge + pad + (clue_h if "bottom" in sides else 0.0)
    return left, top, right, bottom


def _cells(drawing, board: Board, inside, corner, s) -> None:
    plain = Style(fill="white", stroke=THIN, width=1)
    styles = {
        role: Style(fill=colour, stroke=THIN, width=1) for role, colour in HIGHLIGHT_COLOURS.items()
    }
    hole = Style(fill=HOLE)
    for r in range(board.rows):
        for c in range(board.cols):
            x, y = corner((r, c))
            if (r, c) not in inside:
                drawing.add(Rect(x, y, s, s, hole))
                continue
            role = board.highlights.get((r, c))
            drawing.add(Rect(x, y, s, s, styles.get(role, plain) if role else plain))


def _borders(drawing, board: Board, inside, corner, s) -> None:
    """Thick lines: the grid's outline (open at doors), region borders and walls."""
    thick = Style(stroke=INK, width=max(2.0, s / 14))
    doors = {(tuple(c), side) for c, side in board.doors}
    walls = {(tuple(c), side) for c, side in board.walls}
    regions = board.regions
    add = drawing.shapes.append
    for r, c in sorted(inside):
        cell_ = (r, c)
        region = regions.get(cell_)
        below, right = (r + 1, c), (r, c + 1)
        if (
            not walls
            and below in inside
            and right in inside
            and (r - 1, c) in inside
            and (r, c - 1) in inside
            and regions.get(below) == region
            and regions.get(right) == region
        ):
            continue  # a cell inside one region, with no wall: no border
        x, y = corner(cell_)
        for side, dr, dc, (x1, y1, x2, y2) in _SIDE_STEPS:
            other = (r + dr, c + dc)
            if other not in inside:
                drawn = not doors or (cell_, side) not in doors
            elif side in "SE":
                drawn = regions.get(other) != region or (
                    bool(walls) and ((cell_, side) in walls or (other, _OPPOSITE[side]) in walls)
                )
            else:
                drawn = bool(walls) and (cell_, side) in walls
            if drawn:
                add(Line(x + x1 * s, y + y1 * s, x + x2 * s, y + y2 * s, thick))


_SIDE_EDGES = {"N": (0, 0, 1, 0), "S": (0, 1, 1, 1), "W": (0, 0, 0, 1), "E": (1, 0, 1, 1)}
"""Each side's line across a cell, its ends in cell sides from the top left corner."""
_SIDE_STEPS = tuple((side, dr, dc, _SIDE_EDGES[side]) for side, (dr, dc) in SIDES.items())
_OPPOSITE = {"N": "S", "S": "N", "W": "E", "E": "W"}


def _paths(drawing, board: Board, inside, centre, s, pad) -> None:
    style = Style(stroke=PATH, width=s * 0.16)
    for path in board.paths:
        points = tuple(centre(tuple(c)) for c in path)
        if len(points) == 1:
            drawing.add(Dot(*points[0], s * 0.12, Style(fill=PATH)))
        elif points:
            drawing.add(Polyline(points, style))
    for cell_, side in board.path_stubs:
        dr, dc = SIDES[side]
        x, y = centre(tuple(cell_))
        outward = (cell_[0] + dr, cell_[1] + dc) not in inside
        reach = s / 2 + (pad * 0.9 if outward else 0.0)
        drawing.add(Line(x, y, x + dc * reach, y + dr * reach, style))


def _marks(drawing, board: Board, centre, s) -> None:
    box = Style(fill="white", stroke=THIN, width=1)
    text = Style(fill=INK, size=s * 0.34, bold=True)
    for a, b, symbol in board.marks:
        (x1, y1), (x2, y2) = centre(tuple(a)), centre(tuple(b))
        x, y = (x1 + x2) / 2, (y1 + y2) / 2
        side = s * 0.34
        drawing.add(Rect(x - side / 2, y - side / 2, side, side, box))
        drawing.add(Text(x, y, symbol, text))


def _fit(text: str, s: float) -> float:
    return min(s * 0.6, s * 1.15 / max(1, len(text)))


def _texts(drawing, board: Board, inside, places: _Places, candidates: bool) -> None:
    s = places.s
    styles: dict[tuple[bool, int], Style] = {}  # by (given, length of the text)
    for cell_, text in sorted(board.cells.items()):
        if cell_ not in inside or not text:
            continue
        x, y = places.corner(cell_)
        given = cell_ in board.givens
        style = styles.get((given, len(text)))
        if style is None:
            style = Style(fill=INK if given else SOLVED_INK, size=_fit(text, s), bold=given)
            styles[given, len(text)] = style
        drawing.add(Text(x + s / 2, y + s / 2, text, style))
    if not candidates or not board.candidates:
        return
    written = {spot.cell for spot in board.placed if spot.symbol and not spot.side}
    struck = {(spot.cell, spot.symbol) for spot in board.struck if spot.symbol}
    style = Style(fill=FAINT_INK, size=places.step * 0.72)
    for cell_, text in sorted(board.candidates.items()):
        if cell_ not in inside or cell_ in board.cells or cell_ in written:
            continue
        for i, char in enumerate(text):
            if (cell_, char) not in struck:
                drawing.add(Text(*places.candidate(cell_, char, i), char, style))


class _Places:
    """Where things sit on a laid-out board: cell corners and centres, each candidate's place
    in its cell, side midpoints, and the spot a chain's node or a conclusion names."""

    def __init__(self, board: Board, candidates: bool, left: float, top: float, s: float):
        self.board, self.candidates, self.left, self.top, self.s = board, candidates, left, top, s
        self.alphabet = candidate_alphabet(board)
        texts = board.candidates.values()
        longest = max((len(t) for t in texts), default=1)
        self.k = max(2, math.ceil(math.sqrt(len(self.alphabet) if self.alphabet else longest)))
        self.step = s / self.k

    def corner(self, cell: Cell) -> tuple[float, float]:
        return self.left + cell[1] * self.s, self.top + cell[0] * self.s

    def centre(self, cell: Cell) -> tuple[float, float]:
        x, y = self.corner(cell)
        return x + self.s / 2, y + self.s / 2

    def candidate(self, cell: Cell, char: str, index: int = 0) -> tuple[float, float]:
        """The place of candidate ``char`` in ``cell`` (``index``: its place in the cell's
        text, used when symbols have no fixed place)."""
        place = self.alphabet.index(char) if char in self.alphabet else index
        x, y = self.corner(cell)
        col, row = place % self.k, place // self.k
        return x + (col + 0.5) * self.step, y + (row + 0.5) * self.step

    def side(self, cell: Cell, side: str) -> tuple[float, float]:
        dr, dc = SIDES[side]
        x, y = self.centre(cell)
        return x + dc * self.s / 2, y + dr * self.s / 2

    def middle(self) -> tuple[float, float]:
        """The centre of the grid."""
        board = self.board
        return self.left + board.cols * self.s / 2, self.top + board.rows * self.s / 2

    def shows_candidates(self, cell: Cell) -> bool:
        board = self.board
        return self.candidates and cell in board.candidates and cell not in board.cells

    def spot(self, spot: Spot) -> tuple[float, float, float]:
        """The point of a spot and the radius a line to it stops short of."""
        if spot.side:
            return (*self.side(spot.cell, spot.side), self.s * 0.12)
        if spot.symbol and self.shows_candidates(spot.cell):
            text = self.board.candidates[spot.cell]
            index = text.index(spot.symbol) if spot.symbol in text else 0
            return (*self.candidate(spot.cell, spot.symbol, index), self.step * 0.42)
        return (*self.centre(spot.cell), self.s * 0.3)


def _outlines(drawing, board: Board, places: _Places) -> None:
    """Each unit a step read, outlined just inside its cells' boundary."""
    s = places.s
    for role, cells in board.outlines:
        colour = OUTLINE_COLOURS.get(role, OUTLINE_COLOURS["unit"])
        style = Style(stroke=colour, width=max(1.5, s / 18))
        inset = OUTLINE_INSETS.get(role, OUTLINE_INSETS["unit"]) * s
        for x1, y1, x2, y2 in outline_segments(set(cells), places, inset):
            drawing.add(Line(x1, y1, x2, y2, style))


def outline_segments(
    cells: set[Cell], places: _Places, inset: float
) -> list[tuple[float, float, float, float]]:
    """The boundary of a set of cells as segments ``inset`` inside it, joined at the corners
    (a convex corner cut short, a concave one run on), in the cells' order."""
    out = []
    half = places.s / 2
    for r, c in sorted(cells):
        x, y = places.centre((r, c))
        for dr, dc in SIDES.values():
            if (r + dr, c + dc) in cells:
                continue
            tr, tc = abs(dc), abs(dr)  # along the side
            mx, my = x + dc * (half - inset), y + dr * (half - inset)
            ends = []
            for sign in (-1, 1):
                beside = (r + sign * tr, c + sign * tc)
                if beside not in cells:
                    reach = half - inset
                elif (beside[0] + dr, beside[1] + dc) in cells:
                    reach = half + inset
                else:
                    reach = half
                ends.append((mx + sign * tc * reach, my + sign * tr * reach))
            out.append((*ends[0], *ends[1]))
    return out


def _placed_edges(drawing, board: Board, inside, places: _Places, pad: float) -> None:
    """Edges a step puts on a path: a segment from the cell's centre across the side."""
    s = places.s
    style = Style(stroke=PLACED, width=s * 0.16)
    for spot in sorted(board.placed):
        if not spot.side:
            continue
        dr, dc = SIDES[spot.side]
        x, y = places.centre(spot.cell)
        beyond = (spot.cell[0] + dr, spot.cell[1] + dc)
        reach = s if beyond in inside else s / 2 + pad * 0.9
        drawing.add(Line(x, y, x + dc * reach, y + dr * reach, style, "placed"))


def _conclusions(drawing, board: Board, inside, places: _Places) -> None:
    """Values a step writes in (green, in the cell) and what it rules out (struck in red)."""
    s = places.s
    for spot in sorted(board.placed):
        if spot.side or spot.cell not in inside:
            continue
        x, y = places.centre(spot.cell)
        if spot.symbol:
            style = Style(fill=PLACED, size=_fit(spot.symbol, s), bold=True)
            drawing.add(Text(x, y, spot.symbol, style))
        else:  # a cell put on a path
            drawing.add(Dot(x, y, s * 0.12, Style(fill=PLACED), "placed"))
    small = Style(fill=STRUCK, size=places.step * 0.72)
    strike = Style(stroke=STRUCK, width=max(1.2, s / 28))
    per_cell = Counter(spot.cell for spot in board.struck if spot.symbol and not spot.side)
    for spot in sorted(board.struck):
        if spot.cell not in inside:
            continue
        if spot.symbol and not spot.side:
            alone = not places.shows_candidates(spot.cell) and per_cell[spot.cell] == 1
            if alone:
                x, y, _ = places.spot(spot)
            else:
                x, y = places.candidate(spot.cell, spot.symbol, _index(board, spot))
            style = Style(fill=STRUCK, size=_fit(spot.symbol, s) * 0.8) if alone else small
            drawing.add(Text(x, y, spot.symbol, style))
            r = style.size * 0.47
            drawing.add(Line(x - r, y + r, x + r, y - r, strike, "struck"))
            continue
        x, y = places.side(spot.cell, spot.side) if spot.side else places.centre(spot.cell)
        r = s * (0.1 if spot.side else 0.2)
        drawing.add(Line(x - r, y - r, x + r, y + r, strike, "struck"))
        drawing.add(Line(x - r, y + r, x + r, y - r, strike))


def _index(board: Board, spot: Spot) -> int:
    """A struck symbol's place in its cell when symbols have no fixed place."""
    text = board.candidates.get(spot.cell, "")
    return text.index(spot.symbol) if spot.symbol in text else 0


def _links(drawing, board: Board, places: _Places) -> None:
    """A chain's links (strong solid, weak dashed, implications thin), each bowed towards the
    board's centre with an arrow head at its target; numbered in order when the chain is long;
    the assumption ringed."""
    s = places.s
    heads: list[Polygon] = []
    numbers: list[tuple[float, float, str]] = []
    numbered = len(board.links) > NUMBERED_LINKS
    for number, link in enumerate(board.links, 1):
        points = link_curve(places, link)
        style = _link_style(link, s)
        drawing.add(Polyline(points, style, f"link {link.kind}"))
        (xa, ya), (xb, yb) = points[-2], points[-1]
        length = math.hypot(xb - xa, yb - ya) or 1.0
        ux, uy = (xb - xa) / length, (yb - ya) / length
        heads.append(_arrow_head(xb, yb, ux, uy, s * 0.14, Style(fill=style.stroke)))
        if numbered:
            numbers.append((*points[len(points) // 2], str(number)))
    for head in heads:
        drawing.add(head)
    disc = Style(fill="white", stroke=LINK, width=1)
    label = Style(fill=LINK, size=s * 0.22, bold=True)
    for x, y, text in numbers:
        drawing.add(Dot(x, y, s * 0.15, disc, "link-number"))
        drawing.add(Text(x, y, text, label))
    ring = Style(stroke=LINK, width=max(1.5, s / 16))
    for spot in board.rings:
        x, y, r = places.spot(spot)
        drawing.add(Dot(x, y, r + s * 0.04, ring, "assumption"))


CURVE_POINTS = 16
"""Points along a link's curve."""


def link_curve(places: _Places, link: BoardLink) -> tuple[tuple[float, float], ...]:
    """Points along a link from its source to its target, stopping short of both: a
    quadratic curve bowed towards the board's centre (so links along one line stay apart and
    a symmetric copy's picture is this one turned), straight through the centre."""
    x1, y1, r1 = places.spot(link.source)
    x2, y2, r2 = places.spot(link.target)
    length = math.hypot(x2 - x1, y2 - y1)
    if length <= r1 + r2:  # spots too close to stop short of: a straight line (never empty)
        return (x1, y1), (x2 + (0.0 if length else 0.01), y2)
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    nx, ny = -(y2 - y1) / length, (x2 - x1) / length
    cx, cy = places.middle()
    towards = (cx - mx) * nx + (cy - my) * ny
    bow = 0.0 if abs(towards) < 1e-6 else math.copysign(min(0.15 * length, 0.3 * places.s), towards)
    kx, ky = mx + 2 * bow * nx, my + 2 * bow * ny  # the control point: the apex is halfway

    def at(t: float) -> tuple[float, float]:
        return (
            (1 - t) ** 2 * x1 + 2 * (1 - t) * t * kx + t**2 * x2,
            (1 - t) ** 2 * y1 + 2 * (1 - t) * t * ky + t**2 * y2,
        )

    start = _leave(at, (x1, y1), r1, 0.0, 0.5)
    end = _leave(at, (x2, y2), r2, 1.0, 0.5)
    return tuple(at(start + (end - start) * i / CURVE_POINTS) for i in range(CURVE_POINTS + 1))


def _leave(at, point: tuple[float, float], radius: float, inside: float, outside: float) -> float:
    """The parameter where a curve ``at`` leaves the circle of ``radius`` round ``point``,
    between a parameter ``inside`` it and one ``outside`` (bisection)."""
    for _ in range(30):
        middle = (inside + outside) / 2
        x, y = at(middle)
        if math.hypot(x - point[0], y - point[1]) < radius:
            inside = middle
        else:
            outside = middle
    return outside


def _link_style(link: BoardLink, s: float) -> Style:
    if link.kind == "implies":
        return Style(stroke=IMPLIES, width=max(1.0, s / 32))
    width = max(1.5, s / 20)
    dash = (s * 0.12, s * 0.09) if link.kind == "weak" else ()
    return Style(stroke=LINK, width=width, dash=dash)


def _arrow_head(x: float, y: float, ux: float, uy: float, size: float, style: Style) -> Polygon:
    """A filled triangle with its point at (x, y), pointing along (ux, uy)."""
    bx, by = x - ux * size, y - uy * size
    nx, ny = -uy * size * 0.5, ux * size * 0.5
    return Polygon(((x, y), (bx + nx, by + ny), (bx - nx, by - ny)), style)


def candidate_alphabet(board: Board) -> str:
    """The symbols candidates are drawn from, sorted, so each has a fixed place in a cell (as
    sudoku players pencil 1 top left and 9 bottom right); empty when symbols are longer than
    one character or too many to place."""
    symbols: set[str] = set(board.symbols)
    for text in (*board.candidates.values(), *board.cells.values()):
        symbols.update(text)
    if len(symbols) > 25 or any(len(t) != 1 for t in board.cells.values()):
        return ""
    if len(board.symbols) == len(symbols):
        return board.symbols  # the model's order (as sudoku players pencil 1 to 9)
    return "".join(sorted(symbols))


def _outside(drawing, board: Board, left, top, s, pad, edge, title_h) -> None:
    """Header letters next to the grid, clues beyond them, the title at the top."""
    rows_h, cols_w = board.rows * s, board.cols * s
    header_h = 0.8 * s if board.header else 0.0
    half = 0.4 * s  # half a clue row
    for (side, index), text in sorted(board.clues.items()):
        if side == "top":
            at = (left + (index + 0.5) * s, top - pad - header_h - half)
        elif side == "bottom":
            at = (left + (index + 0.5) * s, top + rows_h + pad + half)
        elif side == "left":
            at = (left - pad - half, top + (index + 0.5) * s)
        elif side == "right":
            at = (left + cols_w + pad + half, top + (index + 0.5) * s)
        else:
            continue
        drawing.add(Text(*at, text, Style(fill=INK, size=_fit(text, s * 0.85))))
    if board.header:
        style = Style(fill=INK, size=s * 0.5, bold=True)
        for c, text in enumerate(board.header[: board.cols]):
            drawing.add(Text(left + (c + 0.5) * s, top - pad - header_h / 2, text, style))
    if board.title:
        style = Style(fill=INK, size=s * 0.4, bold=True, anchor="start")
        drawing.add(Text(edge + pad / 2, edge + title_h / 2, board.title, style))


def board_svg(board: Board, candidates: bool = True, cell: float = CELL) -> str:
    """A board as a self-contained SVG document."""
    return drawing_svg(layout(board, candidates, cell))


# ---------------------------------------------------------------------------------------------
# PNG (and other matplotlib formats)
# ---------------------------------------------------------------------------------------------


def boards_figure(
    boards: Sequence[Board],
    titles: Sequence[str] = (),
    columns: int = 6,
    width: float = 2.4,
    candidates: bool = True,
):
    """Many boards in one matplotlib Figure (a contact sheet), each ``width`` inches wide."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    drawings = [layout(board, candidates) for board in boards]
    columns = max(1, min(columns, len(drawings)))
    rows = max(1, math.ceil(len(drawings) / columns))
    aspect = max((d.height / d.width for d in drawings), default=1.0)
    figure = Figure(figsize=(columns * width, rows * (width * aspect + 0.35)), layout="constrained")
    FigureCanvasAgg(figure)
    grid = figure.subplots(rows, columns, squeeze=False)
    scale = width * 100.0 / max((d.width for d in drawings), default=1.0)
    for index, axes in enumerate(grid.flat):
        if index >= len(drawings):
            axes.set_axis_off()
            continue
        draw_on(axes, drawings[index], scale)
        if index < len(titles):
            axes.set_title(titles[index], fontsize=8, loc="left")
    return figure


# ---------------------------------------------------------------------------------------------
# boards of puzzles and steps
# ---------------------------------------------------------------------------------------------


def puzzle_board(
    puzzle: Puzzle,
    state: State | None = None,
    title: str = "",
    stated: Collection[int] | None = None,
) -> Board:
    """The family's board of ``state`` (default: the givens), givens drawn bold. ``stated``:
    the cells stated so far, when the family places every cell by a step
    (:func:`stated_before`): a cell down to one candidate that no step has placed yet shows
    that candidate, not a value."""
    clues = puzzle.clue_state
    board = puzzle.family.board(puzzle.model, clues if state is None else state, clues)
    if stated is not None and state is not None:
        for var, variable in enumerate(puzzle.model.variables):
            cell = (variable.row, variable.col)
            if var not in stated and variable.kind == "cell" and cell in board.cells:
                board.candidates[cell] = board.cells.pop(cell)
    if title:
        board.title = title
    return board


def highlight(board: Board, puzzle: Puzzle, roles: dict[str, Iterable[int]]) -> Board:
    """Mark the cells of variables by role (``unit``, ``used``, ``changed``); stronger wins.

    A variable marks the cells its family says it covers
    (:meth:`~grader.rating.family.Family.variable_cells`: a path puzzle's edge, both its cells).
    Units are regions of cells: they mark the cells of their one-cell variables when they have any,
    not the far ends of the edges a path puzzle's row clue also reads."""
    model, cells_of = puzzle.model, puzzle.family.variable_cells
    for role in HIGHLIGHT_ORDER:
        covered = [cells_of(model, var) for var in roles.get(role, ())]
        if role == "unit" and any(len(cells) == 1 for cells in covered):
            covered = [cells for cells in covered if len(cells) == 1]
        for cells in covered:
            for row, col in cells:
                if 0 <= row < board.rows and 0 <= col < board.cols:
                    board.highlights[(row, col)] = role
    return board


def step_board(
    puzzle: Puzzle,
    state: State,
    step: Step,
    technique: Technique | None,
    title: str = "",
    stated: Collection[int] | None = None,
    evidence: Evidence | None = None,
) -> Board:
    """The board before ``step`` drawn from its evidence (``evidence``: when the caller has
    it already): the cells it used and changed highlighted, the units it read outlined, what
    it places and strikes out, and its chain's links (``stated``: see :func:`puzzle_board`)."""
    board = puzzle_board(puzzle, state, title, stated)
    if evidence is None:
        evidence = Explainer(puzzle.model, [technique] if technique else []).evidence(step)
    highlight(
        board,
        puzzle,
        {"unit": evidence.units, "used": evidence.used, "changed": evidence.changed},
    )
    return draw_evidence(board, puzzle, step, evidence)


def draw_evidence(board: Board, puzzle: Puzzle, step: Step, evidence: Evidence) -> Board:
    """Fill in what a step's picture shows beyond its highlights: its conclusions (placed and
    struck), its units' outlines, its chain's links and its trial's assumption."""
    family, model = puzzle.family, puzzle.model
    placed, struck = family.conclusion_spots(model, step.placements, step.eliminations)
    board.placed = sorted(set(placed))
    board.struck = sorted(set(struck))
    board.outlines = unit_outlines(puzzle, evidence)
    spots = [family.spot(model, node.var, node.value) for node in evidence.nodes]
    for link in evidence.links:
        source, target = spots[link.source], spots[link.target]
        if source is not None and target is not None:
            board.links.append(BoardLink(source, target, link.kind))
    if evidence.assumption is not None:
        node = evidence.assumption
        ring = family.spot(model, node.var, node.value)
        if ring is not None:
            board.rings.append(ring)
    return board


def unit_outlines(puzzle: Puzzle, evidence: Evidence) -> list[tuple[str, tuple[Cell, ...]]]:
    """The units a step read, each as its role (``unit``, or a fish's ``base`` and ``cover``)
    and its cells (those of its one-cell variables when it has any, as :func:`highlight`)."""
    model, cells_of = puzzle.model, puzzle.family.variable_cells
    labels = constraints_by_label(model)
    roles = {label: role for role, names in evidence.unit_roles for label in names}
    out: list[tuple[str, tuple[Cell, ...]]] = []
    seen: set[tuple[Cell, ...]] = set()
    for label in evidence.unit_labels:
        covered = [cells_of(model, var) for var in labels.get(label, ())]
        if any(len(cells) == 1 for cells in covered):
            covered = [cells for cells in covered if len(cells) == 1]
        cells = tuple(sorted({cell for group in covered for cell in group}))
        if cells and cells not in seen:
            seen.add(cells)
            out.append((roles.get(label, "unit"), cells))
    return out


def board_of_step(
    puzzle: Puzzle,
    steps: Sequence[Step],
    techniques: Iterable[Technique],
    number: int,
    title: str = "",
) -> Board:
    """The board before step ``number`` (1 = first) of a solve (``steps``, made by
    ``techniques``) with the cells it used and changed highlighted."""
    chosen = steps[number - 1]
    before = states_before(puzzle, steps[:number])[-1]
    stated = stated_before(puzzle, steps[:number])[-1]
    technique = {t.name: t for t in techniques}.get(chosen.technique)
    return step_board(puzzle, before, chosen, technique, title, stated)


def states_before(puzzle: Puzzle, steps: Sequence[Step]) -> list[State]:
    """The state before each step (the givens, then after each step in turn)."""
    from grader.core.engine import apply_step

    state = list(puzzle.givens)
    out = []
    for step in steps:
        out.append(list(state))
        apply_step(state, step)
    return out


def stated_before(puzzle: Puzzle, steps: Sequence[Step]) -> list[frozenset[int] | None]:
    """The cells stated before each step, when the family places every cell by a step
    (:func:`grader.rating.grading.stated_at_start`, then each step's placements); else Nones."""
    from grader.rating.grading import stated_at_start

    stated = stated_at_start(puzzle)
    if stated is None:
        return [None] * len(steps)
    out: list[frozenset[int] | None] = []
    for step in steps:
        out.append(frozenset(stated))
        stated.update(var for var, _ in step.placements)
    return out


# ---------------------------------------------------------------------------------------------
# files
# ---------------------------------------------------------------------------------------------

FORMATS = ("svg", "png", "pdf")


def picture_format(path: str | Path) -> str:
    """The picture format named by a file's suffix; raises ValueError for others."""
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix not in FORMATS:
        raise ValueError(f"unknown picture format {suffix or '(none)'!r}; use .svg, .png or .pdf")
    return suffix


def picture_bytes(board: Board, fmt: str, candidates: bool = True, scale: float = 2.0) -> bytes:
    """The board as a picture file's content (``svg``, ``png`` or ``pdf``)."""
    drawing = layout(board, candidates)
    if fmt == "svg":
        return ('<?xml version="1.0" encoding="UTF-8"?>\n' + drawing_svg(drawing) + "\n").encode()
    import io

    figure = drawing_figure(drawing, dpi=100.0 * scale)
    buffer = io.BytesIO()
    figure.savefig(buffer, format=fmt, dpi=100.0 * scale)
    return buffer.getvalue()
