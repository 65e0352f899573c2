"""Effort from the shape of the solve: waves of parallel moves cost less than the same moves
forced one after another, and a grade's effort follows its run's waves."""

from __future__ import annotations

import pytest

import grader
from conftest import EXAMPLES
from grader.core.effort import effort, harmonic, total_cost, wave_costs
from grader.core.step import Step


def steps(*costs: float) -> list[Step]:
    return [Step("t", cost) for cost in costs]


def test_a_wave_of_n_moves_costs_its_cost_squared_times_the_harmonic_number():
    assert harmonic(1) == 1 and harmonic(4) == pytest.approx(25 / 12)
    assert effort(steps(2, 2, 2, 2), [4]) == pytest.approx(4 * 25 / 12, abs=0.01)
    assert effort(steps(2, 2, 2, 2), [1, 1, 1, 1]) == 16  # the same moves one after another
    assert effort(steps(1, 1, 3), [2, 1]) == pytest.approx(1.5 + 9)
    assert total_cost(steps(1, 1, 3)) == 5


def test_one_point_moves_cost_the_same_as_their_sum_of_costs_when_forced_one_by_one():
    assert effort(steps(1, 1, 1), [1, 1, 1]) == total_cost(steps(1, 1, 1)) == 3


def test_a_wave_is_priced_by_its_dearest_move():
    assert wave_costs(steps(1, 3, 2), [3]) == [(3, 3)]
    assert effort(steps(1, 3, 2), [3]) == pytest.approx(9 * (1 + 1 / 2 + 1 / 3), abs=0.01)


def test_steps_recorded_without_waves_count_one_wave_each():
    assert wave_costs(steps(1, 2), []) == [(1, 1), (2, 1)]


def test_a_grade_reads_effort_from_its_waves():
    result = grader.grade(EXAMPLES / "tango.json")
    assert sum(result.run.waves) == len(result.steps)
    assert result.effort == effort(result.steps, result.run.waves)
    assert result.difficulty**2 <= result.effort


def test_a_lookahead_costs_more_the_more_rounds_its_contradiction_takes():
    from grader.techniques.lookahead import ROUND_BONUS_CAP, round_bonus

    bonuses = [round_bonus(r) for r in (1, 2, 4, 8, 1000)]
    assert bonuses[:4] == [0.0, 0.5, 1.0, 1.5] and bonuses[-1] == ROUND_BONUS_CAP < 2
    result = grader.grade(EXAMPLES / "pairplace-k10-expert.json")
    for step in result.steps:
        if step.technique == "lookahead-1":
            assert step.cost == 7.0 + round_bonus(step.data["rounds"])
            assert step.data["rounds"] <= len(step.data["chain"])
