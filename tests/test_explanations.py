"""Sentences that must be true of the board: each checked against the step it explains."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grader.core.explain import Explainer, listed
from grader.core.step import Step
from grader.rating.registry import families
from grader.techniques.short_chain import ShortContradiction
from grader.testing.examples import replay
from rules.sudoku.model import build_model
from rules.sudoku.techniques import UniqueRectangle

ROOT = Path(__file__).resolve().parent.parent


def sudoku_example(technique: str):
    """The technique's recorded example wave, its explainer and the labels of its houses."""
    examples = json.loads((ROOT / "rules/sudoku/technique_examples.json").read_text())
    wave = replay(families()["sudoku"], technique, examples["examples"][technique])
    model = wave.puzzle.model
    cells_of = {c.label: set(c.vars) for c in model.constraints}
    return wave, Explainer(model, wave.techniques), cells_of


def test_listed_joins_words_as_a_sentence_does():
    assert listed([]) == ""
    assert listed(["row 1"]) == "row 1"
    assert listed(["row 1", "row 4"]) == "row 1 and row 4"
    assert listed(["1", "3", "4"]) == "1, 3 and 4"


def test_a_placed_cell_losing_its_other_values_is_said_once():
    """A step placing r1c1 = 5 and removing r1c1's 3 says the placement only; the peers' other
    values stay said, and a value both placed and removed (a contradiction) stays said."""
    model = build_model(9, (3, 3))
    ex = Explainer(model, [])
    step = Step("x", 1.0, placements=((0, 4),), eliminations=((0, 2), (1, 4), (9, 6)))
    assert ex.conclusions(step) == "r1c1 = 5, r1c2 ≠ 5, r2c1 ≠ 7"
    only_peers = Step("x", 1.0, placements=((0, 4),), eliminations=((0, 2), (1, 4)))
    assert ex.conclusions(only_peers) == "r1c1 = 5"
    clash = Step("x", 1.0, placements=((0, 4),), eliminations=((0, 4),))
    assert ex.conclusions(clash) == "r1c1 = 5, r1c1 ≠ 5"


@pytest.mark.parametrize("technique", ["x-wing", "swordfish", "jellyfish"])
def test_a_fish_names_its_base_and_cover_lines(technique):
    """The base lines hold the value only where they cross the cover lines the sentence names,
    and every cell losing the value lies on one of those cover lines, off the bases."""
    wave, ex, cells_of = sudoku_example(technique)
    state = wave.state
    for step in wave.run.steps:
        bases, covers = step.data["base"], step.data["cover"]
        value = step.data["value"]
        text = ex.reason(step)
        assert f"in {listed(bases)}, {ex.value(value)} lies only in {listed(covers)}" in text
        assert len(bases) == len(covers) == {"x-wing": 2, "swordfish": 3, "jellyfish": 4}[technique]
        crossing = set().union(*(cells_of[c] for c in covers))
        for base in bases:
            places = {v for v in cells_of[base] if state[v] >> value & 1}
            assert places <= crossing, f"{base} holds {value} off the cover lines"
        on_bases = set().union(*(cells_of[b] for b in bases))
        for var, x in step.eliminations:
            assert x == value and var in crossing and var not in on_bases


def test_xyz_wing_says_the_value_is_in_one_of_the_three_cells():
    wave, ex, _ = sudoku_example("xyz-wing")
    step = wave.run.steps[0]
    pivot, (a, b) = step.data["pivot"], step.data["wings"]
    z = step.data["value"]
    assert all(wave.state[v] >> z & 1 for v in (pivot, a, b))  # z sits in all three
    assert ex.reason(step).endswith(f"one of the three is {ex.value(z)}")


def test_unique_rectangle_type_4_puts_the_value_in_one_roof_cell_not_both():
    model = build_model(9, (3, 3))
    technique = UniqueRectangle(4.5, "hard")
    ex = Explainer(model, [technique])
    step = technique.make(
        eliminations=[(3, 1), (5, 1)], type=4, value=3, cells=(0, 2, 20, 18), pair=(1, 3)
    )
    assert ex.reason(step) == (
        "unique rectangle type 4 on 24 at r1c1, r1c3, r3c3 and r3c1: 4 must go in one of the two "
        "cells with extra candidates, so neither can hold the other value of the pair"
    )


def test_a_broken_rule_is_said_in_the_files_symbols_and_cell_names():
    """A rule's own message names values and cells by placeholders (it knows no symbols); the
    report and a short contradiction's ending say them as the file does."""
    model = build_model(4, (2, 2))
    reason = model.constraints[0].check([1 << 3, 1 << 3, 0b1111, 0b1111])
    assert reason is not None and "4" not in reason
    ex = Explainer(model, [])
    step = Step("short-contradiction", 5.0, data={"broken": (("row 1", reason),)})
    assert ShortContradiction.ending(step, ex) == "row 1 holds 4 twice (r1c1 and r1c2)"
