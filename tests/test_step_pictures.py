"""Step pictures drawn from the evidence, as a player draws them: what the step places in green,
what it rules out struck in red, its chain's links (strong solid, weak dashed) and its trial's
assumption ringed, in every family."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass

import pytest
from test_render import painted, svg_tree

from conftest import EXAMPLES
from grader import grade, load
from grader.core.evidence import Evidence
from grader.core.step import Step
from grader.output.render import (
    CELL,
    PLACED,
    STRUCK,
    board_svg,
    stated_before,
    states_before,
    step_board,
)
from grader.rating.family import Puzzle
from grader.rating.registry import families
from grader.testing.examples import replay

X_CHAIN_LINE = "........59162......7.4...6..69...3.7.2139768.7.3...95..9...1.3......45262........"
"""A sudoku whose 28th step is a forcing X-chain of 8 candidates and 7 links."""


@dataclass
class Picture:
    puzzle: Puzzle
    step: Step
    evidence: Evidence
    svg: str


def file_step(source, index: int | None = None, technique: str = "") -> Picture:
    """The picture of a step of a graded puzzle: step ``index`` (0-based), else the first step
    of ``technique``, else the first step that places a value."""
    puzzle = load(source)[0]
    result = grade(puzzle)
    steps = result.steps
    if index is None:
        index = next(
            i
            for i, s in enumerate(steps)
            if (s.technique == technique or (not technique and s.placements))
        )
    by_name = {t.name: t for t in result.techniques}
    step, technique_ = steps[index], by_name[steps[index].technique]
    before, stated = states_before(puzzle, steps)[index], stated_before(puzzle, steps)[index]
    board = step_board(puzzle, before, step, technique_, stated=stated)
    return Picture(puzzle, step, technique_.evidence(step, puzzle.model), board_svg(board))


def example_step(family: str, name: str) -> Picture:
    """The picture of a technique example's step (rules/<family>/technique_examples.json)."""
    path = EXAMPLES.parent / "rules" / family / "technique_examples.json"
    entry = json.loads(path.read_text())["examples"][name]
    wave = replay(families()[family], name, entry)
    step = wave.run.steps[0]
    technique = next(t for t in wave.techniques if t.name == step.technique)
    board = step_board(wave.puzzle, wave.state, step, technique, stated=wave.stated)
    return Picture(wave.puzzle, step, technique.evidence(step, wave.puzzle.model), board_svg(board))


def classed(svg: str, css: str) -> list[dict]:
    """The inherited attributes of every element whose class list holds ``css``."""
    root = svg_tree(svg)
    found = []
    for tag in ("line", "polyline", "circle"):
        for node, attrs in painted(root, tag):
            if css in (node.get("class") or "").split():
                found.append(attrs)
    return found


def inked(svg: str, colour: str) -> Counter:
    """(cell, text) of every text painted in ``colour``, the cell found among the grid's
    cells (the rects a cell wide and high)."""
    root = svg_tree(svg)
    cell_of = grid_cells(root)
    out: Counter = Counter()
    for node, attrs in painted(root, "text"):
        if attrs.get("fill") == colour:
            out[cell_of(float(attrs["x"]), float(attrs["y"])), node.text] += 1
    return out


def grid_cells(root):
    """A function from a point of the picture to the (row, col) of the grid cell it is in."""
    size = str(CELL)
    corners = [
        (float(a["x"]), float(a["y"]))
        for _, a in painted(root, "rect")
        if a.get("width") == size and a.get("height") == size
    ]
    xs, ys = sorted({x for x, _ in corners}), sorted({y for _, y in corners})

    def cell_of(x: float, y: float) -> tuple[int, int]:
        col = next(i for i, left in enumerate(xs) if left <= x < left + CELL)
        row = next(i for i, top in enumerate(ys) if top <= y < top + CELL)
        return row, col

    return cell_of


def named(puzzle: Puzzle, assignments) -> Counter:
    """(cell, symbol) of each assignment."""
    model = puzzle.model
    return Counter(
        ((model.variables[v].row, model.variables[v].col), model.symbol(value))
        for v, value in assignments
    )


PICTURES = {  # per family: a step placing values and the example of its most complex technique
    "binairo": (lambda: file_step(EXAMPLES / "binairo.json"), ("binairo", "lookahead-1")),
    "tango": (lambda: file_step(EXAMPLES / "tango.json"), ("tango", "lookahead-2")),
    "sudoku": (lambda: file_step(X_CHAIN_LINE, 27), ("sudoku", "forcing-chains")),
    "siteswap": (
        lambda: file_step(EXAMPLES / "siteswap_3x4.json"),
        ("siteswap", "short-contradiction"),
    ),
    "pairplace": (lambda: file_step(EXAMPLES / "pairplace.json"), ("pairplace", "lookahead-1")),
    "path": (
        lambda: file_step(EXAMPLES / "path.json", technique="line-enumeration"),
        ("path", "lookahead-1"),
    ),
}


def pictures_of(family: str) -> list[Picture]:
    from_file, (name, technique) = PICTURES[family]
    return [from_file(), example_step(name, technique)]


def test_a_chain_step_draws_each_link_in_order_strong_solid_weak_dashed():
    picture = file_step(X_CHAIN_LINE, 27)
    assert picture.step.data["kind"] == "forcing-x-chain"
    links = picture.evidence.links
    assert len(links) == 7
    drawn = classed(picture.svg, "link")
    assert [a["class"].split()[1] for a in drawn] == [link.kind for link in links]
    assert {link.kind for link in links} == {"strong", "weak"}
    for attrs in drawn:
        assert ("stroke-dasharray" in attrs) == (attrs["class"] == "link weak")
    assert len(classed(picture.svg, "link-number")) == 7  # a long chain numbers its links


@pytest.mark.parametrize("family", sorted(PICTURES))
def test_every_family_draws_what_a_step_places_and_strikes_out(family):
    """Placed values in green in their cells, struck candidates in red; a path puzzle's edges
    and cells put on the path drawn green, those taken off it crossed in red."""
    pictures = pictures_of(family)
    assert any(p.step.placements for p in pictures) and any(p.step.eliminations for p in pictures)
    for p in pictures:
        if family == "path":
            on = [(v, x) for v, x in p.step.placements if x == 1]
            on += [(v, x) for v, x in p.step.eliminations if x == 0]
            off = len(p.step.placements) + len(p.step.eliminations) - len(on)
            assert len(classed(p.svg, "placed")) == len(on)
            assert len(classed(p.svg, "struck")) == off
        else:
            assert inked(p.svg, PLACED) == named(p.puzzle, p.step.placements)
            assert inked(p.svg, STRUCK) == named(p.puzzle, p.step.eliminations)
            assert len(classed(p.svg, "struck")) == len(p.step.eliminations)


@pytest.mark.parametrize("family", sorted(PICTURES))
def test_every_family_draws_a_trial_s_links_and_rings_its_assumption(family):
    _, (name, technique) = PICTURES[family]
    picture = example_step(name, technique)
    links = picture.evidence.links
    assert links
    drawn = classed(picture.svg, "link")
    assert Counter(a["class"] for a in drawn) == Counter(f"link {link.kind}" for link in links)
    rings = classed(picture.svg, "assumption")
    assert len(rings) == (picture.evidence.assumption is not None)


def test_a_step_outlines_each_unit_it_read():
    """A pair in a binairo row: the row is outlined (a line along each side of the row)."""
    picture = file_step(EXAMPLES / "binairo.json", 7)
    labels = picture.evidence.unit_labels
    assert labels == ("row 6",)
    root = svg_tree(picture.svg)
    outline = [a for _, a in painted(root, "line") if a.get("stroke") == "#2a62c9"]
    assert len(outline) == 2 * picture.puzzle.model.cols + 2


def transposed_sudoku(line: str) -> str:
    """The sudoku's transposed copy (rows become columns)."""
    return "".join(line[9 * c + r] for r in range(9) for c in range(9))


def drawn_links(svg: str, turn: bool) -> list[tuple]:
    """Each drawn link as the cells its ends are in (``turn``: transposed) and its class, in
    the order drawn."""
    root = svg_tree(svg)
    cell_of = grid_cells(root)
    out = []
    for node, _ in painted(root, "polyline"):
        if "link" not in (node.get("class") or "").split():
            continue
        points = [tuple(float(v) for v in p.split(",")) for p in node.get("points").split()]
        ends = [cell_of(*points[0]), cell_of(*points[-1])]
        if turn:
            ends = [(c, r) for r, c in ends]
        out.append((*ends, node.get("class")))
    return out


def test_a_transposed_copy_draws_the_chain_transposed():
    """No choice of the picture depends on the order of the grid: the transposed puzzle's
    forcing X-chain is drawn as the original's, turned, link for link in the same order (a
    candidate keeps its pencil place, 1 top left, in either)."""
    original = file_step(X_CHAIN_LINE, 27)
    copy = file_step(transposed_sudoku(X_CHAIN_LINE), 27)
    assert copy.step.eliminations == ((54, 6),)  # r1c7 turned: r7c1
    drawn = drawn_links(original.svg, turn=False)
    assert len(drawn) == 7
    assert drawn_links(copy.svg, turn=True) == drawn
