"""Step evidence as variables: what pictures and the HTML trace highlight."""

from __future__ import annotations

import json

from conftest import EXAMPLES
from grader import grade, load
from grader.evidence import constraints_by_label, default_evidence
from grader.registry import families
from grader.testing.examples import replay


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
