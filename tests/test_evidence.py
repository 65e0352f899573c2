"""Step evidence as variables: what pictures and the HTML trace highlight."""

from __future__ import annotations

import json
import re

from conftest import EXAMPLES
from grader import grade, load
from grader.core.evidence import constraints_by_label, default_evidence
from grader.core.explain import Explainer
from grader.output.render import puzzle_board, states_before, step_board
from grader.rating.registry import families
from grader.testing.examples import replay
from rules.path.model import ON, geometry


def tango_grade():
    return grade(load(str(EXAMPLES / "tango.json"))[0])


def test_pair_step_uses_its_two_cells_and_its_line():
    result = tango_grade()
    model = result.puzzle.model
    by_name = {t.name: t for t in result.techniques}
    pair = next(s for s in result.steps if s.technique == "pair")
    evidence = by_name["pair"].evidence(pair, model)
    assert evidence.used == set(pair.data["cells"])
    line = next(c for c in model.constraints if c.label == pair.data["unit"])
    assert evidence.units == set(line.vars)
    assert evidence.changed == {v for v, _ in pair.placements}


def test_every_step_of_a_solve_has_evidence_and_changes():
    result = tango_grade()
    model = result.puzzle.model
    by_name = {t.name: t for t in result.techniques}
    for step in result.steps:
        evidence = by_name[step.technique].evidence(step, model)
        assert evidence.changed, step
        assert evidence.used | evidence.units, step


def test_sign_step_uses_its_partner_cell():
    result = tango_grade()
    sign = next(s for s in result.steps if s.technique == "sign")
    evidence = default_evidence(sign, result.puzzle.model)
    assert sign.data["other"] in evidence.used
    assert len(evidence.units) == 2  # the two cells of the sign


def test_a_backreference_marks_both_columns_of_its_pair_and_the_pair_cells():
    """Pair X-Y placed in a row: column X loses Y and column Y loses X; the picture tints both
    columns and marks the pair's two cells (it tinted column X alone)."""
    result = grade(EXAMPLES / "pairplace.json")
    model = result.puzzle.model
    header = model.options["header"]
    step = next(s for s in result.steps if s.technique == "backreference")
    evidence = default_evidence(step, model)
    cell, y = step.data["cell"], step.data["value"]
    x = cell % len(header)
    labels = constraints_by_label(model)
    columns = set(labels[f"column {header[x]}"]) | set(labels[f"column {header[y]}"])
    assert evidence.units == columns
    assert {cell, step.data["other"]} <= evidence.used
    assert model.variables[step.data["other"]].col == y


def test_labels_resolve_to_constraint_variables():
    model = load(str(EXAMPLES / "tango.json"))[0].model
    labels = constraints_by_label(model)
    assert labels["row 1"] == tuple(range(6))
    assert labels["column 2"] == tuple(range(1, 36, 6))


def test_a_lookahead_uses_its_assumption_and_the_cells_of_its_chain():
    from test_render import EXPERT_BINAIRO

    from conftest import make

    result = grade(make(EXPERT_BINAIRO))
    step = next(s for s in result.steps if s.technique == "lookahead-1")
    evidence = default_evidence(step, result.puzzle.model)
    chained = set().union(*(s.changed_vars() for s in step.data["chain"]))
    assert step.data["assume"][0] in evidence.used
    assert chained and chained <= evidence.used


def test_a_landing_sites_step_uses_the_throws_it_names_and_their_runs():
    """The picture of a siteswap step marks the cells whose throws already land on the beats it
    crosses out (the ones its sentence names) and the rows and columns they are in."""
    puzzle = load(EXAMPLES / "siteswap_3x4.json")[0]
    result = grade(puzzle)
    model = puzzle.model
    labels = constraints_by_label(model)
    explainer = result.explainer()
    steps = [s for s in result.steps if s.technique == "landing-sites"]
    assert steps
    for step in steps:
        technique = next(t for t in result.techniques if t.name == step.technique)
        evidence = technique.evidence(step, model)
        named = {w for *_, landings, _ in step.data["lines"] for _, w in landings}
        assert evidence.used == named and named
        assert all(f"{model.name(w)}" in explainer.text(step) for w in named)
        runs = {v for label, *_ in step.data["lines"] for v in labels[label]}
        assert evidence.units == runs


def test_a_fish_marks_its_corners_and_a_naked_single_its_houses():
    """An X-wing's picture marks the cells where its base lines cross its cover lines; a naked
    single's, the cell and the houses whose values left it one candidate."""
    examples = json.loads((EXAMPLES.parent / "rules/sudoku/technique_examples.json").read_text())
    family = families()["sudoku"]
    wave = replay(family, "x-wing", examples["examples"]["x-wing"])
    model, step = wave.puzzle.model, wave.run.steps[0]
    fish = next(t for t in wave.techniques if t.name == "x-wing")
    labels = constraints_by_label(model)
    bases = {v for label in step.data["base"] for v in labels[label]}
    covers = {v for label in step.data["cover"] for v in labels[label]}
    assert fish.evidence(step, model).used == bases & covers and len(bases & covers) == 4
    wave = replay(family, "naked-single", examples["examples"]["naked-single"])
    model, step = wave.puzzle.model, wave.run.steps[0]
    single = next(t for t in wave.techniques if t.name == "naked-single")
    evidence = single.evidence(step, model)
    assert evidence.used == {step.data["cell"]} and len(evidence.units) == 21  # 3 houses of 9


def example_step(family_name: str, technique: str):
    """The first step of ``technique``'s example (``rules/<family>/technique_examples.json``)
    with its model, technique and the state before it."""
    path = EXAMPLES.parent / f"rules/{family_name}/technique_examples.json"
    entry = json.loads(path.read_text())["examples"][technique]
    wave = replay(families()[family_name], technique, entry)
    step = next(s for s in wave.run.steps if s.technique == technique)
    fired = next(t for t in wave.techniques if t.name == technique)
    return wave, step, fired


def named_cells(model, text: str) -> set[int]:
    """The cells (``r3c5``) a sentence names, also inside edge and door names."""
    by_name = {variable.name: var for var, variable in enumerate(model.variables)}
    return {by_name[name] for name in re.findall(r"r\d+c\d+", text)}


def assert_marks_what_it_names(wave, step, fired):
    """The step's used cells: some, all cells of the board, the cells its sentence names."""
    model = wave.puzzle.model
    evidence = fired.evidence(step, model)
    board = puzzle_board(wave.puzzle, wave.state)
    assert evidence.used, step
    for var in evidence.used:
        variable = model.variables[var]
        assert variable.kind == "cell", model.name(var)
        assert 0 <= variable.row < board.rows and 0 <= variable.col < board.cols
        assert (variable.row, variable.col) not in board.holes
    explained = fired.explain(step, Explainer(model, wave.techniques))
    assert named_cells(model, explained) <= evidence.used, explained
    return evidence


def test_a_path_door_cells_step_marks_the_cells_it_names():
    wave, step, fired = example_step("path", "door-cells")  # dead-end: the test below
    assert_marks_what_it_names(wave, step, fired)


def test_a_path_dead_end_marks_the_cell_and_its_neighbours():
    wave, step, fired = example_step("path", "dead-end")
    geo = geometry(wave.puzzle.model)
    cell = geo.cells[step.data["cell"]]
    around = {geo.cell_var[geo.other(e, cell)] for e in geo.around[cell] if not e.door}
    evidence = assert_marks_what_it_names(wave, step, fired)
    assert evidence.used == {step.data["cell"], *around}


def test_a_no_loop_step_marks_the_path_cells_that_link_its_edges():
    wave, step, fired = example_step("path", "no-loop")
    evidence = assert_marks_what_it_names(wave, step, fired)
    geo = geometry(wave.puzzle.model)
    for var in step.data["vars"]:  # both ends of an edge it removes are on the path
        edge = geo.edge_of[var]
        ends = {edge.a} if edge.door else {edge.a, edge.b}
        assert {geo.cell_var[c] for c in ends} <= evidence.used
    assert all(wave.state[v] == ON for v in evidence.used)


def test_a_reachability_step_marks_the_cells_just_outside_the_region():
    wave, step, fired = example_step("path", "reachability")
    evidence = assert_marks_what_it_names(wave, step, fired)
    geo = geometry(wave.puzzle.model)
    region = {geo.cells[v] for v in step.data["cells"] if v < len(geo.cells)}
    outside = {geo.cells[v] for v in step.data["border"]}
    anchor = set() if step.data["anchor"] is None else {step.data["anchor"]}
    assert evidence.used == {geo.cell_var[c] for c in outside} | anchor
    assert outside and not outside & region
    assert all(any(geo.other(e, c) in region for e in geo.around[c]) for c in outside)


def test_a_pocket_step_marks_the_cells_its_pockets_are_entered_through():
    wave, step, fired = example_step("path", "pocket")
    evidence = assert_marks_what_it_names(wave, step, fired)
    geo = geometry(wave.puzzle.model)
    pocket = {geo.cells[v] for v in step.data["cells"] if v < len(geo.cells)}
    for var in evidence.used:
        cell = geo.cells[var]
        assert cell not in pocket
        assert any(geo.other(e, cell) in pocket for e in geo.around[cell])


def test_a_bug_step_marks_its_cell_and_the_houses_that_count_its_value():
    """BUG type 1: the cell with a third candidate, and the houses in which its value is
    seen three times (the row, column and box of that cell)."""
    wave, step, fired = example_step("sudoku", "bug")
    evidence = assert_marks_what_it_names(wave, step, fired)
    model = wave.puzzle.model
    labels = constraints_by_label(model)
    cell = step.data["cell"]
    assert evidence.used == {cell}
    assert wave.state[cell].bit_count() == 3
    houses = [c.label for c in model.constraints if cell in c.vars and c.label in labels]
    assert set(step.data["houses"]) <= set(houses) and step.data["houses"]
    assert evidence.units == {v for label in step.data["houses"] for v in labels[label]}


def path_step_boards():
    """Each step of grading examples/path.json with its evidence and its picture's board."""
    result = grade(load(str(EXAMPLES / "path.json"))[0])
    puzzle = result.puzzle
    by_name = {t.name: t for t in result.techniques}
    befores = states_before(puzzle, result.steps)
    for before, step in zip(befores, result.steps, strict=True):
        technique = by_name[step.technique]
        board = step_board(puzzle, before, step, technique)
        yield puzzle.model, step, technique.evidence(step, puzzle.model), board


def test_a_path_step_marks_both_cells_of_an_edge_it_used_or_changed():
    """An edge variable names one of its cells as its row and column; its picture marks both
    (a door its one cell), whatever role and whichever technique."""
    seen = set()
    for model, step, evidence, board in path_step_boards():
        geo = geometry(model)
        for role, variables in (("used", evidence.used), ("changed", evidence.changed)):
            for var in variables:
                edge = geo.edge_of.get(var)
                if edge is None:
                    continue
                ends = {edge.a} if edge.door else {edge.a, edge.b}
                assert ends <= set(board.highlights), (step.technique, model.name(var))
                if not edge.door:
                    seen.add((step.technique, role))
    assert ("links", "used") in seen and ("two-ways", "changed") in seen


def test_a_path_links_step_marks_the_cell_it_enters_and_the_cell_it_comes_from():
    """An edge on the path puts its cell on the path: the picture marks that cell changed and
    the edge's other cell used, whichever of the two the edge variable names."""
    entered = [
        (model, step, evidence, board)
        for model, step, evidence, board in path_step_boards()
        if step.technique == "links" and step.data["mode"] == "entered"
    ]
    named = set()
    for model, step, evidence, board in entered:
        edge = geometry(model).edge_of[step.data["vars"][0]]
        assert edge.b is not None and edge.var in evidence.used
        cell = model.variables[step.placements[0][0]]
        entered_cell = (cell.row, cell.col)
        (other,) = {edge.a, edge.b} - {entered_cell}
        assert board.highlights[entered_cell] == "changed"
        assert board.highlights[other] == "used", model.name(edge.var)
        variable = model.variables[edge.var]
        named.add((variable.row, variable.col) == entered_cell)
    assert named == {True, False}  # the edge names the entered cell in one step, not in another


def test_a_path_line_unit_marks_the_cells_of_its_line_alone():
    """A row's or column's clue also reads the edges leaving the line; its picture marks the
    cells of the line and no cell beside it."""
    lines = set()
    for model, step, _evidence, board in path_step_boards():
        unit = step.data.get("unit")
        if not isinstance(unit, str):
            continue
        kind, number = unit.split()
        axis, index = (0 if kind == "row" else 1), int(number) - 1
        line = set(geometry(model).line_cells(kind, index))
        marked = {cell for cell, role in board.highlights.items() if role == "unit"}
        assert marked <= line, (step.technique, unit)
        assert line <= set(board.highlights), (step.technique, unit)
        assert all(cell[axis] == index for cell in line)
        lines.add(kind)
    assert lines == {"row", "column"}
