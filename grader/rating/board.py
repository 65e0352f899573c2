"""A family-neutral description of a board picture.

Families describe what to draw (:meth:`grader.rating.family.Family.board`); one renderer draws every
family (SVG, PNG, the HTML trace). Coordinates are ``(row, col)`` from the top left.
"""

from __future__ import annotations

from dataclasses import dataclass, field

Cell = tuple[int, int]


@dataclass(frozen=True, order=True)
class Spot:
    """Where a candidate of a step sits in a picture: ``symbol`` in ``cell`` (at the
    candidate's place when the cell shows candidates, else at its centre; no symbol: the whole
    cell), or, with a ``side``, the edge on that side of ``cell`` (a path puzzle's edge)."""

    cell: Cell
    symbol: str = ""
    side: str = ""


@dataclass(frozen=True)
class BoardLink:
    """A link of a chain between two spots, in reasoning order: ``strong``, ``weak`` or
    ``implies`` (see :data:`grader.core.evidence.LINK_KINDS`)."""

    source: Spot
    target: Spot
    kind: str


@dataclass
class Board:
    """What a picture of a puzzle shows."""

    rows: int
    cols: int
    cells: dict[Cell, str] = field(default_factory=dict)
    """Text in each cell (a value's symbol); absent cells are empty."""
    givens: set[Cell] = field(default_factory=set)
    """Cells whose text was given (drawn bold)."""
    candidates: dict[Cell, str] = field(default_factory=dict)
    """Small text for open cells (remaining candidates), when asked for."""
    holes: set[Cell] = field(default_factory=set)
    """Cells that are not part of the grid (siteswap shapes, cut-out rooms)."""
    regions: dict[Cell, int] = field(default_factory=dict)
    """Region id per cell (sudoku boxes); thick lines are drawn between regions."""
    marks: list[tuple[Cell, Cell, str]] = field(default_factory=list)
    """Symbols on the edge between two neighbouring cells (tango ``=`` and ``x``)."""
    clues: dict[tuple[str, int], str] = field(default_factory=dict)
    """Text outside the grid: ``("top", col)``, ``("left", row)``, ``("right", row)``,
    ``("bottom", col)``."""
    header: list[str] | None = None
    """Column header letters drawn above the grid (pair place)."""
    doors: list[tuple[Cell, str]] = field(default_factory=list)
    """Openings in the boundary: a cell and its side ``N``, ``S``, ``E`` or ``W``."""
    walls: list[tuple[Cell, str]] = field(default_factory=list)
    """Inner walls: a cell and the side of it that is walled."""
    paths: list[list[Cell]] = field(default_factory=list)
    """Polylines through cell centres (a path puzzle's path)."""
    path_stubs: list[tuple[Cell, str]] = field(default_factory=list)
    """Path segments from a cell centre out through its side (the path leaving by a door)."""
    highlights: dict[Cell, str] = field(default_factory=dict)
    """A role per cell for colouring: ``changed`` (concluded), ``used`` (evidence) or ``unit``
    (in a row, column, box... the step reasoned about)."""
    placed: list[Spot] = field(default_factory=list)
    """What a step concludes: a symbol written in a cell, an edge drawn (a spot with a side)
    or a cell put on a path (a spot with neither)."""
    struck: list[Spot] = field(default_factory=list)
    """What a step rules out: a candidate crossed out in a cell, an edge crossed (a spot with a
    side) or a whole cell crossed (a spot with neither)."""
    outlines: list[tuple[str, tuple[Cell, ...]]] = field(default_factory=list)
    """Units a step read, each outlined: a role (``unit``, ``base``, ``cover``) and its
    cells."""
    links: list[BoardLink] = field(default_factory=list)
    """The links of a step's chain, in reasoning order."""
    rings: list[Spot] = field(default_factory=list)
    """Spots ringed: a trial's assumption."""
    title: str = ""
    symbols: str = ""
    """Every symbol a cell may hold, in order: each candidate keeps its place in a cell from
    one picture to the next (empty: the symbols the picture shows)."""
