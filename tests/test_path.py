"""Path Puzzles: files and bad input, the exact search against a plain path enumeration, each
technique on a board made for it, soundness on random partial boards, the shared examples and
generated puzzles."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import EXAMPLES, make, shared
from grader.core.engine import Engine
from grader.core.errors import InputError
from grader.core.exact import count_solutions
from grader.core.explain import Explainer
from grader.core.step import Step
from grader.core.technique import Context
from grader.generation.generator import Request, generate
from grader.output.render import board_svg, puzzle_board, states_before
from grader.rating.costs import choose
from grader.rating.grading import grade
from grader.rating.loading import load
from rules.path.family import FAMILY, random_path
from rules.path.file import values_of_path
from rules.path.model import BOTH, OFF, ON, geometry
from rules.path.techniques import (
    CountAhead,
    CrossingParity,
    CutAhead,
    CutCells,
    DeadEndAhead,
    LoopAhead,
    NoLoop,
    Pocket,
    Reachability,
    follow,
    path_table,
    short_chain,
)
from soundness import assert_sound_run

EXAMPLES_FILE = "path_puzzles_examples.json"


def shared_examples() -> Path:
    return shared(EXAMPLES_FILE)


def puzzle(size, doors, rows=None, cols=None, **extra):
    data = {"family": "path", "size": list(size), "doors": doors, **extra}
    if rows is not None:
        data["row_clues"] = rows
    if cols is not None:
        data["col_clues"] = cols
    return make(data)


# -- files and bad input -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"col_clues": [1, 2, 3]}, "col_clues: has 3 clues, expected 4"),
        ({"row_clues": [1, 2, 3, -1]}, "row_clues[3]: -1 is negative"),
        ({"row_clues": [1, 2, 3, 5]}, "row_clues[3]: 5 is more than the 4 cells of row 4"),
        ({"doors": [[1, 1, "W"], [3, 3, "E"]]}, "doors[0]: side W of (1, 1) is not on the room"),
        ({"holes": [[0, 0]]}, "doors[0]: cell (0, 0) is cut out of the room"),
        ({"doors": [[0, 0, "Q"], [3, 3, "E"]]}, "doors[0]: side 'Q' is not N, S, E or W"),
        ({"doors": [[0, 0, "W"]]}, "doors: a path puzzle needs at least two doors"),
        ({"doors": [[0, 0, "W"], [0, 0, "W"]]}, "doors[1]: the same door twice"),
        ({"doors": [[0, 9, "N"], [3, 3, "E"]]}, "doors[0]: cell (0, 9) is outside the grid"),
        ({"holes": [[5, 5]]}, "holes[0]: (5, 5) is outside the grid"),
        ({"walls": [[0, 0, 2, 2]]}, "walls[0]: the two cells are not neighbours"),
        ({"size": [0, 4]}, "size: must be 1 to 40"),
        ({"solution_path": [[0, 0], [1, 1]]}, "solution_path[1]: (1, 1) does not join (0, 0)"),
    ],
)
def test_bad_input_is_one_line_naming_the_field(change, message):
    data = {"family": "path", "size": [4, 4], "doors": [[0, 0, "W"], [3, 3, "E"]], **change}
    with pytest.raises(InputError) as caught:
        make(data)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_bad_file_exits_2_with_one_line(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"family": "path", "size": [3, 3], "row_clues": [1, 2], "doors": []}))
    code = "import sys; from grader.cli import grade_main; sys.argv[0] = 'grade'; grade_main()"
    result = subprocess.run(
        [sys.executable, "-c", code, str(bad)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0
    assert "row_clues" in result.stderr or "doors" in result.stderr


def test_impossible_puzzle_is_a_report_with_no_solution():
    # Rows 1 and 3 full but row 2 empty: the path cannot get from one to the other.
    result = grade(puzzle((3, 3), [[0, 0, "W"], [2, 0, "W"]], rows=[3, 0, 3]))
    assert result.solutions == 0
    assert result.level == "invalid"
    assert not result.solved


def test_a_path_and_its_reverse_are_one_solution():
    p = puzzle((3, 3), [[0, 0, "W"], [2, 2, "E"]])
    cells = [(0, 0), (0, 1), (1, 1), (2, 1), (2, 2)]
    assert values_of_path(p.model, cells, "s") == values_of_path(p.model, cells[::-1], "s")
    result = grade(puzzle((3, 3), [[0, 0, "W"], [2, 2, "E"]], rows=[2, 1, 2], cols=[1, 3, 1]))
    assert result.solutions == 1


DRAWING = ["┌┐-", "│└┐", "┘-└"]


def drawn_puzzle():
    return puzzle(
        (3, 3), [[2, 0, "W"], [2, 2, "E"]], rows=[2, 3, 2], cols=[3, 2, 2], solution=DRAWING
    )


def test_drawn_solution_round_trips():
    p = drawn_puzzle()
    result = grade(p)
    assert result.solutions == 1 and result.solved
    assert result.grid() == DRAWING
    assert result.solution_check() == "matches"


def test_holes_walls_and_edge_model_shape_the_room():
    p = puzzle((3, 3), [[0, 0, "N"], [2, 2, "S"]], holes=[[1, 1]], walls=[[0, 1, 0, 2]])
    geo = geometry(p.model)
    assert (1, 1) not in geo.cell_var and len(geo.cells) == 8
    assert ((0, 1), "E") not in geo.side_edge
    # a door may open onto a cut-out cell: it is on the room's boundary
    q = puzzle((3, 3), [[1, 0, "E"], [2, 2, "S"]], holes=[[1, 1]])
    assert grade(q).solutions == "2+"  # accepted, and without clues the path is free


def test_the_seed_edge_model_gives_the_same_room_as_its_doors():
    data = json.loads(shared_examples().read_text())["puzzles"][0]
    with_edges = make({"family": "path", **data})
    without = make({"family": "path", **{k: v for k, v in data.items() if k != "edge_model"}})
    assert with_edges.model.key == without.model.key


# -- exact search ------------------------------------------------------------------------------


def plain_count(p, limit: int = 10_000) -> int:
    """Simple door-to-door paths matching the clues, by plain enumeration (a second opinion)."""
    geo = geometry(p.model)
    rows, cols = p.model.options["row_clues"], p.model.options["col_clues"]
    doors = geo.door_edges
    found = set()

    def fits(path):
        for r, clue in enumerate(rows):
            if clue is not None and sum(1 for c in path if c[0] == r) != clue:
                return False
        for k, clue in enumerate(cols):
            if clue is not None and sum(1 for c in path if c[1] == k) != clue:
                return False
        return True

    def walk(path, start_door):
        cell = path[-1]
        for edge in geo.around[cell]:
            other = geo.other(edge, cell)
            if other is None:
                if edge.var != start_door and fits(path):
                    key = frozenset([*path, start_door, edge.var])
                    found.add(key)
            elif other not in path:
                path.append(other)
                walk(path, start_door)
                path.pop()

    for door in doors:
        walk([door.a], door.var)
    assert len(found) < limit
    return len(found)


def random_room(rows, cols, rng, decoys=0, share=0.6):
    """A random path's puzzle: its two doors, some decoys and a share of its clues."""
    cells = random_path(rows, cols, rng)
    template = FAMILY.empty_model((rows, cols), {})
    values = values_of_path(template, cells, "s", rng)
    model, values = FAMILY.solution_model(template, values)
    doors = [list(d) for d in model.options["doors"]]
    for _ in range(decoys):
        side = rng.choice(["N", "S"])
        decoy = [0 if side == "N" else rows - 1, rng.randrange(cols), side]
        if decoy not in doors:
            doors.append(decoy)
    row_clues = [sum(1 for c in cells if c[0] == r) for r in range(rows)]
    col_clues = [sum(1 for c in cells if c[1] == k) for k in range(cols)]
    return {
        "family": "path",
        "size": [rows, cols],
        "doors": doors,
        "row_clues": [x if rng.random() < share else None for x in row_clues],
        "col_clues": [x if rng.random() < share else None for x in col_clues],
        "solution_path": [list(c) for c in cells],
    }


@pytest.mark.parametrize("seed", range(12))
def test_exact_count_agrees_with_plain_enumeration(seed):
    rng = random.Random(seed)
    rows, cols = rng.choice([(3, 3), (3, 4), (4, 4)])
    p = make(random_room(rows, cols, rng, decoys=rng.randrange(2)))
    expected = plain_count(p)
    count, _ = count_solutions(p.model, p.givens, limit=10_000)
    assert count == expected >= 1


# -- techniques on boards made for them ----------------------------------------------------------


def step_of(technique_class, p, state, cost=1.0):
    technique = technique_class(cost)
    engine = Engine(p.model, [technique])
    steps = list(technique.find(Context(p.model, state, engine)))
    ex = Explainer(p.model, [technique])
    for step in steps:
        assert ex.text(step)  # every step explains itself
    return steps


def set_cells(p, state, cells, mask):
    geo = geometry(p.model)
    for cell in cells:
        state[geo.cell_var[cell]] = mask


def test_reachability_empties_a_region_without_doors():
    p = puzzle((3, 3), [[0, 0, "W"], [0, 2, "E"]])
    state = p.model.initial_state()
    set_cells(p, state, [(1, 0), (1, 1), (1, 2)], OFF)
    steps = step_of(Reachability, p, state)
    geo = geometry(p.model)
    removed = {v for s in steps for v, _ in s.eliminations}
    assert {geo.cell_var[(2, c)] for c in range(3)} <= removed


def test_cut_cells_are_bottlenecks_between_path_cells():
    p = puzzle((3, 3), [[0, 0, "W"], [2, 2, "E"]])
    state = p.model.initial_state()
    set_cells(p, state, [(0, 1), (0, 2), (2, 0), (2, 1)], OFF)
    steps = step_of(CutCells, p, state)
    assert steps == []  # nothing known on the path yet: the middle cell is not yet needed
    set_cells(p, state, [(0, 0)], ON)
    geo = geometry(p.model)
    placed = {v for s in step_of(CutCells, p, state) for v, _ in s.placements}
    assert {geo.cell_var[(1, 0)], geo.cell_var[(1, 1)], geo.cell_var[(1, 2)]} <= placed


def test_pocket_behind_a_single_cell_is_empty():
    # 2x3 room, doors on the left column; (0,2) and (1,2) form a pocket behind (0,1)/(1,1)
    # once the edge (0,1)-(1,1)... here: the right column is reached only through r1c2.
    p = puzzle((2, 3), [[0, 0, "W"], [1, 0, "W"]], walls=[[1, 1, 1, 2]])
    state = p.model.initial_state()
    geo = geometry(p.model)
    steps = step_of(Pocket, p, state)
    removed = {v for s in steps for v, _ in s.eliminations}
    assert geo.cell_var[(1, 2)] in removed  # a dead-end pocket: in through r1c3 only
    assert geo.cell_var[(0, 0)] not in removed


def test_no_loop_refuses_the_edge_closing_a_loop():
    p = puzzle((3, 3), [[0, 0, "W"], [2, 2, "E"]])
    state = p.model.initial_state()
    geo = geometry(p.model)
    for cell, side in (((1, 0), "E"), ((1, 1), "S"), ((2, 0), "E")):
        state[geo.side_edge[(cell, side)].var] = ON
    steps = step_of(NoLoop, p, state)
    closing = geo.side_edge[((1, 0), "S")].var
    assert (closing, 1) in [e for s in steps for e in s.eliminations]


def test_crossing_parity_decides_the_last_crossing():
    p = puzzle((2, 2), [[0, 0, "W"], [1, 0, "W"]])
    state = p.model.initial_state()
    geo = geometry(p.model)
    for door in geo.door_edges:
        state[door.var] = ON
    left = geo.side_edge[((0, 0), "S")].var
    right = geo.side_edge[((0, 1), "S")].var
    state[right] = OFF
    steps = step_of(CrossingParity, p, state)
    placed = [a for s in steps for a in s.placements]
    assert (left, 1) in placed  # one door above, one below: an odd number of crossings
    assert state[left] == BOTH


def test_loop_ahead_refuses_a_cell_whose_forced_links_close_a_loop():
    # r2c1-r2c2 is on the path; r3c1 would have to go on to r3c2 and back up to r2c2
    p = puzzle((3, 2), [[0, 0, "W"], [0, 1, "E"]])
    state = p.model.initial_state()
    geo = geometry(p.model)
    set_cells(p, state, [(1, 0), (1, 1)], ON)
    state[geo.side_edge[((1, 0), "E")].var] = ON
    removed = {e for s in step_of(LoopAhead, p, state) for e in s.eliminations}
    assert {(geo.cell_var[(2, 0)], 1), (geo.cell_var[(2, 1)], 1)} <= removed
    chain = follow(p.model, state, geo.cell_var[(2, 0)], 1)
    assert chain.rounds <= 3 and [kind for kind, _ in chain.ends] == ["loop"]


def test_dead_end_ahead_refuses_a_cell_whose_forced_links_run_into_an_empty_cell():
    # r1c2 is on the path; if r3c2 were, column 2 (clue 2) would be full, yet r3c2's only
    # ways (r3c1 and r2c2) would run into r2c2
    p = puzzle((3, 3), [[2, 0, "S"], [0, 2, "N"]], cols=[3, 2, None])
    state = p.model.initial_state()
    geo = geometry(p.model)
    set_cells(p, state, [(0, 0), (1, 0), (2, 0), (0, 1)], ON)
    set_cells(p, state, [(2, 2)], OFF)
    for edge in geo.around[(2, 2)]:
        state[edge.var] = OFF
    state[geo.side_edge[((0, 0), "E")].var] = ON
    steps = step_of(DeadEndAhead, p, state)
    removed = {e for s in steps for e in s.eliminations}
    assert (geo.cell_var[(2, 1)], 1) in removed
    assert step_of(CountAhead, p, state) == []  # the chain breaks at r2c2, not at a count
    ex = Explainer(p.model, [DeadEndAhead(5.2)])
    assert {ex.text(s) for s in steps} == {
        "r1c3 = on: if r1c3 were off, the links and counts would force door N of r1c3 = off, "
        "r1c2-r1c3 = off, r1c3-r2c3 = off: fewer than two doors would be left to the path",
        "r2c2 = on: if r2c2 were off, the links and counts would force r3c2 = on, "
        "r1c2-r2c2 = off, r2c1-r2c2 = off, r2c2-r2c3 = off, r2c2-r3c2 = off: r3c2 would be on "
        "the path with fewer than two ways to go (a dead end)",
        "r3c2 = off: if r3c2 were on, the links and counts would force r2c2 = off, "
        "r2c2-r3c2 = on, r3c1-r3c2 = on: r2c2 would be off the path, yet the path would run "
        "into it",
    }


# -- the words of generated puzzles' steps ---------------------------------------------------------

NORMAL_1 = {  # grader generate path --size 6x6 --rule decoys=2 --level normal -n 2 --seed 1
    "family": "path",
    "size": [6, 6],
    "row_clues": [2, None, 1, 2, 4, None],
    "col_clues": [None, None, None, None, 3, 6],
    "doors": [[0, 0, "W"], [0, 4, "N"], [2, 5, "E"], [3, 0, "W"]],
}
NORMAL_2 = {  # the same command, puzzle 2
    "family": "path",
    "size": [6, 6],
    "row_clues": [None, None, 1, 1, 4, None],
    "col_clues": [2, None, None, None, 3, 6],
    "doors": [[0, 4, "N"], [2, 5, "E"], [4, 0, "W"], [5, 1, "S"]],
}
HARD_3 = {  # grader generate path --size 6x6 --rule decoys=2 --level hard -n 3 --seed 2, puzzle 3
    "family": "path",
    "size": [6, 6],
    "row_clues": [6, None, 2, 3, 2, None],
    "col_clues": [None, None, 1, None, 3, 5],
    "doors": [[0, 4, "N"], [3, 0, "W"], [4, 0, "W"], [4, 5, "E"]],
}


def sentences(data: dict, technique: str) -> list[str]:
    """The explanations of one technique's steps in the graded solve of a puzzle."""
    result = grade(make(data))
    ex = result.explainer()
    return [ex.text(s) for s in result.steps if s.technique == technique]


def test_crossing_parity_says_how_often_the_path_crosses_and_which_doors_it_counted():
    """Only the doors on the door's own side of the line count (door W of r5c1 and door S of
    r6c2, below it, were still open)."""
    assert sentences(NORMAL_2, "crossing-parity") == [
        "door N of r1c5 = on: the path crosses between rows 2 and 3 once, so the two doors it "
        "uses lie on opposite sides of that line; door N of r1c5 is the only door on its side, "
        "so it is used"
    ]


@pytest.mark.parametrize(
    ("door_w", "crossings", "words"),
    [
        (
            OFF,
            (ON, OFF),
            "the path crosses between rows 1 and 2 once, so the two doors it uses lie on "
            "opposite sides of that line; no other door on the side of door N of r1c2 is used or "
            "still open, so it is used",
        ),
        (
            ON,
            (OFF, OFF),
            "the path does not cross between rows 1 and 2, so the two doors it uses lie on the "
            "same side of that line; one other door on the side of door N of r1c2 is used and "
            "none is still open, so it is used",
        ),
        (
            ON,
            (ON, OFF),
            "the path crosses between rows 1 and 2 once, so the two doors it uses lie on "
            "opposite sides of that line; one other door on the side of door N of r1c2 is used "
            "and none is still open, so it is not used",
        ),
    ],
)
def test_crossing_parity_settles_the_last_door_on_one_side(door_w, crossings, words):
    p = puzzle((2, 2), [[0, 0, "W"], [0, 1, "N"], [1, 0, "W"]])
    state = p.model.initial_state()
    geo = geometry(p.model)
    state[geo.side_edge[((0, 0), "W")].var] = door_w
    for cell, mask in zip(((0, 0), (0, 1)), crossings, strict=True):
        state[geo.side_edge[(cell, "S")].var] = mask
    ex = Explainer(p.model, [CrossingParity(3.0)])
    found = [s for s in step_of(CrossingParity, p, state) if s.data["cut"] == "rows 1 and 2"]
    assert [ex.reason(s) for s in found] == [words]


def test_cut_cells_words_fit_one_or_several_conclusions():
    assert sentences(NORMAL_1, "cut-cells") == [
        "r3c6-r4c6 = on, r2c6-r3c6 = on: without any one of them the path cells known so far "
        "could not be linked to each other and to two doors"
    ]
    assert sentences(NORMAL_2, "cut-cells") == [
        "r2c6-r3c6 = on: without it the path cells known so far could not be linked to each "
        "other and to two doors"
    ]


def test_dead_end_ahead_names_the_edge_two_cells_disagree_on():
    said = sentences(HARD_3, "dead-end-ahead")
    assert (
        "r3c5 = off: if r3c5 were on, the links and counts would force r3c1 = off, r3c2 = off, "
        "r3c4 = off, r2c1-r3c1 = off, r2c2-r3c2 = off, r2c4-r3c4 = off, r3c1-r4c1 = off, "
        "r3c2-r4c2 = off, r3c4-r4c4 = off: r2c1-r2c2 would have to be both on (r2c1 would be on "
        "the path with only two ways left) and off (r2c2 would have no other way left, a dead "
        "end)"
    ) in said
    assert not [s for s in said if "stuck" in s]


@pytest.mark.parametrize(
    ("why", "words"),
    [
        (("doors", "many"), "the path would use more than two doors"),
        (("cell", 0, "crowded"), "r1c1 would have more than two path edges"),
        (
            ("clash", "edge", 0, 1, "off"),
            "r1c1-r1c2 would have to be both on (r1c1 would be on the path with only two ways "
            "left) and off (r1c2 would be off the path)",
        ),
        (
            ("clash", "edge", 0, 1, "full"),
            "r1c1-r1c2 would have to be both on (r1c1 would be on the path with only two ways "
            "left) and off (r1c2 would already have its two path edges)",
        ),
    ],
)
def test_dead_end_ahead_says_what_breaks(why, words):
    """The breaks no generated puzzle above shows, on a step made for them."""
    p = puzzle((2, 2), [[0, 0, "W"], [1, 0, "W"]])
    if why[0] == "clash":
        why = ("clash", geometry(p.model).side_edge[((0, 0), "E")].var, *why[2:])
    ex = Explainer(p.model, [DeadEndAhead(5.2)])
    data = {"assume": (0, 1), "forced": (), "ends": ["r1c1"], "why": [why]}
    assert ex.reason(Step("dead-end-ahead", 5.2, data=data)) == f"if r1c1 were on: {words}"


@pytest.mark.parametrize("technique", [LoopAhead, DeadEndAhead, CountAhead, CutAhead])
def test_short_chains_are_in_the_table_below_lookahead(technique):
    costs = {spec.technique_name: spec.cost for spec in path_table()}
    assert costs["line-enumeration"] < costs[technique.name] < costs["lookahead-1"]


# -- soundness on random partial boards ---------------------------------------------------------


@st.composite
def partial_boards(draw):
    rows = draw(st.integers(3, 7))
    cols = draw(st.integers(3, 7))
    rng = random.Random(draw(st.integers(0, 10**6)))
    decoys = draw(st.integers(0, 2))
    data = random_room(rows, cols, rng, decoys, share=draw(st.floats(0.2, 1.0)))
    if draw(st.booleans()):  # an irregular room: cut-out cells and inner walls off the path
        path = [tuple(c) for c in data["solution_path"]]
        links = {frozenset(pair) for pair in itertools.pairwise(path)}
        taken = {*path, *((r, c) for r, c, _ in data["doors"])}
        free = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in taken]
        data["holes"] = [list(c) for c in free if rng.random() < 0.15]
        walls = []
        for r in range(rows):
            for c in range(cols):
                for other in ((r + 1, c), (r, c + 1)):
                    inside = other[0] < rows and other[1] < cols
                    if inside and rng.random() < 0.1 and frozenset(((r, c), other)) not in links:
                        walls.append([r, c, *other])
        data["walls"] = walls
    p = make(data)
    solution = p.solution
    assert solution is not None
    reveal = draw(st.floats(0.0, 0.3))
    for var in range(len(p.givens)):
        if rng.random() < reveal:
            p.givens[var] = 1 << solution[var]
    return p


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(partial_boards())
def test_steps_never_remove_a_solution_value(p):
    selection = "-lookahead-2" if len(p.givens) > 60 else None
    assert_sound_run(p, choose(p.family, p.model, selection))


SHORT_CHAINS = "door-cells,links,loop-ahead,dead-end-ahead,count-ahead,cut-ahead"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(partial_boards())
def test_short_chains_alone_never_remove_a_solution_value(p):
    """The short chains with only the bookkeeping before them, so that they fire on states the
    cheaper techniques would have settled."""
    assert_sound_run(p, choose(p.family, p.model, SHORT_CHAINS))


# -- the shared examples ---------------------------------------------------------------------


def test_shared_examples_are_solved_by_techniques_and_match():
    puzzles = load(str(shared_examples()))
    assert len(puzzles) == 26
    levels = {}
    for p in puzzles:
        result = grade(p)
        assert result.solutions == 1, p.id
        assert result.solved, p.id
        assert "guess" not in result.technique_counts()
        assert result.solution_check() == "matches", p.id
        assert result.solution == p.solution
        levels[p.id] = result.level
    assert set(levels.values()) <= {"trivial", "easy", "normal", "hard", "expert"}


# -- generation -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "level"),
    [
        ((6, 6), "trivial"),
        ((6, 6), "easy"),
        ((6, 6), "normal"),
        ((6, 6), "hard"),
        ((6, 6), "expert"),
        ((8, 8), "easy"),
        ((8, 8), "hard"),
        ((10, 10), "normal"),
    ],
)
def test_generated_puzzles_are_unique_and_at_their_level(size, level):
    request = Request("path", size, level, count=1, seed=5, max_attempts=80)
    found = list(generate(request))
    assert len(found) == 1
    g = found[0]
    p = make(g.data)
    result = grade(p)
    assert result.solutions == 1  # the exact search, not the generator's reasoning
    assert result.solved and result.level == level
    assert result.solution == g.solution
    assert len(p.model.options["doors"]) == 2


@pytest.mark.parametrize(("size", "level", "decoys"), [((5, 5), "easy", 2), ((6, 6), "normal", 1)])
def test_generated_puzzles_with_decoy_doors_are_unique_and_at_their_level(size, level, decoys):
    """`--rule decoys=N`: the room shows N doors the path does not use (listed in board order,
    so the file does not tell which), the puzzle stays unique and is rated with them."""
    request = Request(
        "path", size, level, count=1, seed=5, options={"decoys": decoys}, max_attempts=80
    )
    (g,) = generate(request)
    p = make(g.data)
    doors = p.model.options["doors"]
    assert len(doors) == 2 + decoys and doors == sorted(doors)
    result = grade(p)
    assert result.solutions == 1 and result.solved and result.level == level
    assert result.solution == g.solution
    used = [e for e in geometry(p.model).door_edges if g.solution[e.var]]
    assert len(used) == 2  # the path enters and leaves by two of the doors; the rest are decoys


def test_canonical_key_is_the_same_for_symmetric_copies():
    data = {
        "family": "path",
        "size": [3, 4],
        "row_clues": [2, None, 3],
        "col_clues": [1, 2, None, 2],
        "doors": [[0, 0, "W"], [2, 3, "S"]],
    }
    mirrored = {
        **data,
        "col_clues": data["col_clues"][::-1],
        "doors": [[0, 3, "E"], [2, 0, "S"]],
    }
    turned = {
        **data,
        "size": [4, 3],
        "row_clues": data["col_clues"],
        "col_clues": data["row_clues"][::-1],
        "doors": [[0, 2, "N"], [3, 0, "W"]],
    }
    keys = {FAMILY.canonical_key(make(d).model, make(d).givens) for d in (data, mirrored, turned)}
    assert len(keys) == 1
    other = {**data, "row_clues": [2, 1, 3]}
    assert FAMILY.canonical_key(make(other).model, make(other).givens) not in keys


def test_the_family_example_is_a_unique_deducible_puzzle():
    result = grade(make(FAMILY.example))
    assert result.solutions == 1 and result.solved


def test_board_shows_clues_doors_and_the_solved_path():
    p = drawn_puzzle()
    result = grade(p)
    board = puzzle_board(p, result.run.state)
    assert board.clues[("left", 0)] == "2" and board.clues[("top", 0)] == "3"
    assert sorted(side for _, side in board.path_stubs) == ["E", "W"]
    assert len(board.paths) == 6
    assert "<svg" in board_svg(board)


def test_lookahead_follows_its_trials_without_nesting_the_short_chains():
    """The short chains are trials of their own (one assumption): lookahead-1 follows its
    trials with every cheaper technique but them; lookahead-2 may nest them."""
    built = {t.name: t for t in choose(FAMILY, FAMILY.empty_model((6, 6), {}), "extreme")}
    short = {"loop-ahead", "dead-end-ahead", "count-ahead", "cut-ahead"}
    table = list(built.values())
    one = {t.name for t in built["lookahead-1"].inner(table)}
    two = {t.name for t in built["lookahead-2"].inner(table)}
    assert not one & short and "line-enumeration" in one
    assert short <= two and "lookahead-1" in two


def test_the_text_board_shows_the_clues_and_the_doors():
    """A trace's boards show what the solver sees: column clues above their columns, row clues
    on the left of their rows, and each door as an arrow into its cell."""
    puzzle = load(EXAMPLES / "path.json")[0]
    lines = FAMILY.text_board(puzzle.model, puzzle.givens)
    cells = [line for line in lines if "." in line]
    assert len(cells) == 6
    col_of = {cells[0].index(".") + 2 * c: c for c in range(6)}  # where each column's cells sit
    clue_line, north, *_, south = lines
    assert {col_of[i]: ch for i, ch in enumerate(clue_line) if ch.strip()} == {4: "4", 5: "6"}
    assert {col_of[i] for i, ch in enumerate(north) if ch == "v"} == {4}  # door N of r1c5
    assert {col_of[i] for i, ch in enumerate(south) if ch == "^"} == {2}  # door S of r6c3
    assert [line.split()[0] if line[0] != " " else "" for line in cells] == [
        "",
        "1",
        "",
        "3",
        "1",
        "",
    ]


def test_a_short_chain_breaking_a_clue_names_the_row_or_column():
    """When a chain's moves leave a cell nothing and a clue is one of the rules that disagree,
    the end names that clue's row or column (count ahead: 'the clue of row 3 would break'),
    never the cell; every state of the example's solve, every open cell both ways."""
    puzzle = load(EXAMPLES / "path.json")[0]
    model = puzzle.model
    engine = Engine(model, choose(FAMILY, model))
    cells = len(geometry(model).cells)
    ends = []
    for state in states_before(puzzle, grade(puzzle).steps):
        ctx = Context(model, list(state), engine)
        for var in (v for v in range(cells) if state[v] == BOTH):
            for value in (0, 1):
                ends += [w for k, w in short_chain(ctx, var, value).ends if k == "count"]
    assert ends and all(w.split()[0] in ("row", "column") for w in ends), set(ends)


def test_generated_7x7_puzzles_rate_alike_in_every_symmetric_copy():
    """Turned or mirrored, a puzzle rates the same (difficulty, effort, level, technique
    counts): the short chains' loop check once depended on the order the edges were joined in,
    so one of these five rated 5.2 / 115.88 and 5.0 / 113.84 in its copies."""
    from grader.rating.loading import puzzle_from_dict
    from grader.testing.kit import rating

    request = Request("path", (7, 7), "hard", count=5, seed=4, timeout=120)
    for made in generate(request):
        puzzle = make(made.data)
        base = rating(grade(puzzle))
        data = FAMILY.to_data(puzzle.model, puzzle.clue_state)
        for name, copy in FAMILY.symmetric_copies(data):
            moved = rating(grade(puzzle_from_dict(copy, name, name)))
            assert moved == base, (made.data["id"], name)
