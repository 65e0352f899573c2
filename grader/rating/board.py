"""A family-neutral description of a board picture.

Families describe what to draw (:meth:`grader.rating.family.Family.board`); one renderer draws every
family (SVG, PNG, the HTML trace). Coordinates are ``(row, col)`` from the top left.
"""

from __future__ import annotations

from dataclasses import dataclass, field

Cell = tuple[int, int]


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
    title: str = ""
    symbols: str = ""
    """Every symbol a cell may hold, in order: each candidate keeps its place in a cell from
    one picture to the next (empty: the symbols the picture shows)."""
