"""Soundness of every Binairo and Tango technique against the exact search (property tests)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import make, random_solution
from grader.costs import choose
from soundness import assert_sound_run


@st.composite
def binary_puzzles(draw, family: str):
    rows = draw(st.sampled_from([6, 6, 8, 10, 12, 14]))
    cols = rows if family == "tango" else draw(st.sampled_from([rows, 6, 8]))
    unique = family == "binairo" and draw(st.booleans())
    seed = draw(st.integers(0, 10**6))
    share = draw(st.floats(0.05, 0.6))
    rng = random.Random(seed)
    empty = {"family": family, "grid": ["." * cols] * rows}
    if unique:
        empty["rules"] = {"unique_lines": True}
    solution = random_solution(make(empty), rng)
    symbols = "01" if family == "binairo" else "SM"
    grid = [
        "".join(
            symbols[solution[r * cols + c]] if rng.random() < share else "." for c in range(cols)
        )
        for r in range(rows)
    ]
    data = {**empty, "grid": grid}
    if family == "tango":
        signs = []
        for r in range(rows):
            for c in range(cols):
                for r2, c2 in ((r, c + 1), (r + 1, c)):
                    if r2 < rows and c2 < cols and rng.random() < share / 3:
                        same = solution[r * cols + c] == solution[r2 * cols + c2]
                        signs.append([r, c, r2, c2, "=" if same else "x"])
        data["signs"] = signs
    return make(data)


def techniques_for(puzzle):
    """All techniques; deep lookahead only on small grids to keep the suite quick."""
    selection = None if puzzle.model.rows * puzzle.model.cols <= 64 else "-lookahead-2"
    return choose(puzzle.family, puzzle.model, selection)


SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(binary_puzzles("binairo"))
def test_binairo_steps_never_remove_a_solution_value(puzzle):
    assert_sound_run(puzzle, techniques_for(puzzle))


@SETTINGS
@given(binary_puzzles("tango"))
def test_tango_steps_never_remove_a_solution_value(puzzle):
    assert_sound_run(puzzle, techniques_for(puzzle))
