"""Soundness of every Binairo and Tango technique against the exact search (property tests)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from grader.rating.costs import choose
from puzzle_sets import binary_puzzles
from soundness import assert_sound_run


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
