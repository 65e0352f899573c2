"""Board pictures and the HTML trace: structure of the SVG, PNG files, every family's example."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import pytest

from conftest import EXAMPLES, make
from grader import grade, load
from grader.output.html import trace_html
from grader.output.render import (
    CELL,
    HIGHLIGHT_COLOURS,
    HOLE,
    INK,
    PATH,
    board_svg,
    layout,
    picture_bytes,
    puzzle_board,
    states_before,
    step_board,
)
from grader.output.render import Text as RenderText
from grader.rating.board import Board
from grader.rating.registry import families

SVG = "{http://www.w3.org/2000/svg}"


def svg_tree(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == f"{SVG}svg"
    assert root.get("viewBox")
    return root


def painted(root: ET.Element, tag: str):
    """(element, inherited attributes) for every element of ``tag``."""
    out = []

    def walk(node, inherited):
        attrs = {**inherited, **node.attrib}
        if node.tag == f"{SVG}{tag}":
            out.append((node, attrs))
        for child in node:
            walk(child, attrs)

    walk(root, {})
    return out


def texts(root: ET.Element) -> list[tuple[str, dict]]:
    return [(node.text or "", attrs) for node, attrs in painted(root, "text")]


@pytest.mark.parametrize("name", sorted(families()))
def test_every_family_example_draws_its_cells_and_givens(name):
    family = families()[name]
    puzzle = make(family.example)
    board = puzzle_board(puzzle)
    root = svg_tree(board_svg(board))
    big = [(t, a) for t, a in texts(root) if float(a["font-size"]) > 0.4 * CELL]
    bold = sorted(t for t, a in big if a.get("font-weight") == "bold")
    header = board.header or []  # pair place letters are drawn bold above the grid
    assert bold == sorted([*(board.cells[c] for c in board.givens), *header])
    shown = [t for t, _ in texts(root)]
    for text in [*board.clues.values(), *(symbol for _, _, symbol in board.marks)]:
        assert text in shown
    assert board.givens or board.clues or board.marks  # an example shows its hints
    cells = [n for n, a in painted(root, "rect") if a.get("width") == "40"]
    assert len(cells) >= puzzle.model.rows * puzzle.model.cols


@pytest.mark.parametrize("name", sorted(families()))
def test_every_family_solution_fills_the_board(name):
    puzzle = make(families()[name].example)
    result = grade(puzzle)
    board = puzzle_board(puzzle, result.run.state)
    root = svg_tree(board_svg(board))
    shown = [t for t, _ in texts(root)]
    for text in board.cells.values():
        assert text in shown
    if result.solved:
        grid = sum(len(row.replace(".", "")) for row in result.grid())
        assert len(board.cells) >= min(grid, puzzle.model.rows * puzzle.model.cols) > 0


def full_board() -> Board:
    return Board(
        4,
        5,
        cells={(0, 0): "1", (1, 1): "2"},
        givens={(0, 0)},
        candidates={(2, 2): "1379"},
        holes={(3, 4)},
        regions={(r, c): c // 3 for r in range(4) for c in range(5)},
        marks=[((0, 1), (0, 2), "=")],
        clues={("top", 1): "3", ("left", 2): "4", ("right", 0): "1", ("bottom", 3): "2"},
        header=list("ABCDE"),
        doors=[((0, 0), "W")],
        walls=[((1, 0), "E")],
        paths=[[(0, 0), (0, 1), (1, 1)]],
        path_stubs=[((0, 0), "W")],
        highlights={(2, 0): "used", (2, 1): "changed", (3, 0): "unit"},
        title="All fields",
    )


def test_every_board_field_is_drawn():
    root = svg_tree(board_svg(full_board()))
    shown = [t for t, _ in texts(root)]
    for text in ("1", "2", "3", "4", "=", "A", "E", "All fields"):
        assert text in shown
    assert shown.count("1") >= 3  # cell, candidate, right clue
    assert {"7", "9"} <= set(shown)  # candidates, one glyph each
    small = [a for t, a in texts(root) if t == "7"]
    assert float(small[0]["font-size"]) < 15
    fills = [a.get("fill") for _, a in painted(root, "rect")]
    for colour in (*HIGHLIGHT_COLOURS.values(), HOLE):
        assert colour in fills
    assert [a["stroke"] for _, a in painted(root, "polyline")] == [PATH]
    assert root.find(f"{SVG}title").text == "All fields"


def test_outline_is_open_at_doors_and_thick_at_regions_and_walls():
    board = Board(2, 2, doors=[((0, 0), "W")])
    thick = [a for _, a in painted(svg_tree(board_svg(board)), "line") if a["stroke"] == INK]
    assert len(thick) == 7  # 8 boundary edges, one a door
    board = Board(2, 2, regions={(0, 0): 0, (1, 0): 0, (0, 1): 1, (1, 1): 1})
    thick = [a for _, a in painted(svg_tree(board_svg(board)), "line") if a["stroke"] == INK]
    assert len(thick) == 8 + 2
    board = Board(2, 2, walls=[((0, 0), "S")])
    thick = [a for _, a in painted(svg_tree(board_svg(board)), "line") if a["stroke"] == INK]
    assert len(thick) == 8 + 1


def test_candidates_can_be_left_out():
    board = Board(1, 1, candidates={(0, 0): "12"})
    assert [t for t, _ in texts(svg_tree(board_svg(board, candidates=False)))] == []


def test_text_is_escaped():
    board = Board(1, 2, cells={(0, 0): "<"}, title='a & "b"')
    root = svg_tree(board_svg(board))
    assert "<" in [t for t, _ in texts(root)]


def test_png_and_pdf_files():
    png = picture_bytes(full_board(), "png")
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width = int.from_bytes(png[16:20], "big")
    height = int.from_bytes(png[20:24], "big")
    layout_root = svg_tree(board_svg(full_board()))
    assert width == pytest.approx(2 * float(layout_root.get("width")), abs=2)
    assert height == pytest.approx(2 * float(layout_root.get("height")), abs=2)
    assert picture_bytes(full_board(), "pdf")[:5] == b"%PDF-"


def test_step_board_highlights_what_the_step_used_and_changed():
    puzzle = load(str(EXAMPLES / "binairo.json"))[0]
    result = grade(puzzle)
    by_name = {t.name: t for t in result.techniques}
    before = states_before(puzzle, result.steps)
    index = next(i for i, s in enumerate(result.steps) if s.technique == "pair")
    step = result.steps[index]
    board = step_board(puzzle, before[index], step, by_name["pair"])
    model = puzzle.model
    cell = {
        v: (model.variables[v].row, model.variables[v].col) for v in range(len(model.variables))
    }
    assert {cell[v] for v, _ in step.placements} == {
        c for c, role in board.highlights.items() if role == "changed"
    }
    assert {cell[v] for v in step.data["cells"]} == {
        c for c, role in board.highlights.items() if role == "used"
    }
    assert sum(1 for role in board.highlights.values() if role == "unit") == 6 - 3


class Outline(HTMLParser):
    """Collects the trace's structure: steps, boards per step, sections."""

    def __init__(self) -> None:
        super().__init__()
        self.steps: list[dict] = []
        self.sections: list[str] = []
        self.articles = 0
        self.svgs = 0
        self.external: list[str] = []
        self._stack: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        if tag == "li" and "step" in classes:
            self.steps.append({"svg": 0, "text": ""})
        if tag == "section":
            self.sections.append(classes[0] if classes else "")
        if tag == "article":
            self.articles += 1
        if tag == "svg":
            self.svgs += 1
            if self.steps and "step" in self._stack:
                self.steps[-1]["svg"] += 1
        for key in ("src", "href"):
            if key in attrs and not attrs[key].startswith("#"):
                self.external.append(attrs[key])
        if tag == "li":
            self._stack.append("step" if "step" in classes else "li")

    def handle_endtag(self, tag):
        if tag == "li" and self._stack:
            self._stack.pop()

    def handle_data(self, data):
        if self.steps and "step" in self._stack:
            self.steps[-1]["text"] += data


def test_html_trace_has_the_report_and_every_step_with_its_board():
    puzzle = load(str(EXAMPLES / "tango.json"))[0]
    result = grade(puzzle)
    page = trace_html([result])
    outline = Outline()
    outline.feed(page)
    assert page.startswith("<!DOCTYPE html>")
    assert outline.articles == 1
    assert outline.sections == ["start", "end"]
    assert len(outline.steps) == len(result.steps)
    assert all(step["svg"] == 1 for step in outline.steps)
    assert outline.svgs == len(result.steps) + 2
    assert outline.external == []  # self-contained: nothing to fetch
    ex = result.explainer()
    for step, shown in zip(result.steps, outline.steps, strict=True):
        assert step.technique in shown["text"]
        assert ex.reason(step) in shown["text"].replace("&", "&")
    for word in ("difficulty", "effort", "level", result.level, "line-enumeration"):
        assert word in page


EXPERT_BINAIRO = {  # generated for these tests: minimal givens, needs a lookahead
    "family": "binairo",
    "grid": [
        ".1...1...0",
        "..10......",
        "........0.",
        "1.1.1....1",
        ".....0....",
        ".......1..",
        "..1...11..",
        ".0.00.....",
        ".0....11..",
        ".......1..",
    ],
}


def test_html_trace_shows_lookahead_chains_and_several_puzzles():
    expert = grade(make(EXPERT_BINAIRO))
    assert expert.level == "expert"
    several = grade(make({"family": "binairo", "grid": ["....", "....", "....", "...."]}))
    page = trace_html([expert, several])
    outline = Outline()
    outline.feed(page)
    assert outline.articles == 2 and outline.external == []
    assert 'href="#puzzle-2"' in page  # contents
    lookaheads = [s for s in expert.steps if s.technique == "lookahead-1"]
    assert page.count("<details>") == len(lookaheads)
    assert "to a contradiction</summary>" in page
    assert "2+" in page and "stuck" in page


def test_html_trace_leaves_out_boards_beyond_its_budget():
    result = grade(load(str(EXAMPLES / "tango.json"))[0])
    page = trace_html([result], cell_budget=36 * 5)
    outline = Outline()
    outline.feed(page)
    assert outline.svgs == 5
    assert len(outline.steps) == len(result.steps)
    assert "left out" in page


def test_a_candidate_keeps_its_place_in_a_cell_from_one_picture_to_the_next():
    """Pencil marks sit where the full set of symbols puts them (1 top left ... 9 bottom right),
    not where the symbols left on that board would: r1c1's 4 does not move between steps."""
    puzzle = load(EXAMPLES / "siteswap_3x4.json")[0]
    result = grade(puzzle)
    places = set()
    for state in states_before(puzzle, result.steps)[:8]:
        board = puzzle.family.board(puzzle.model, state, puzzle.givens)
        for shape in layout(board).shapes:
            small = isinstance(shape, RenderText) and shape.style.size < CELL * 0.5
            in_r1c1 = small and shape.x < CELL * 1.6 and shape.y < CELL * 1.6
            if in_r1c1 and shape.text == "4":
                places.add((round(shape.x, 1), round(shape.y, 1)))
    assert len(places) == 1, places


def test_a_long_title_fits_in_the_picture():
    board = Board(3, 4, title="Siteswap 3x4 — Mark Probst's rules, from his collection")
    drawing = layout(board)
    title = next(s for s in drawing.shapes if isinstance(s, RenderText) and s.text == board.title)
    # the width a text of this size takes, as layout estimates it (no font metrics here): a
    # guard that the picture grows with its title, not a measurement of the drawn text
    assert title.x + len(board.title) * 0.6 * title.style.size <= drawing.width
