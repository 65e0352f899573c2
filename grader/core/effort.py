"""Effort: how much work a solve asks of a person, from the shape of the solve.

A solve is a sequence of waves (:attr:`grader.core.engine.Run.waves`): each wave holds every move
the cheapest productive technique offers on one state, and is priced at its dearest move's cost (a
move may cost more than its technique, as lookahead does with a long chain). A person makes
those moves one at a time; while k of them are still open, finding one costs about ``1 / k`` of
what finding a lone one does (ten easy moves on the board are easier to spot one of than a
single hidden one), so the n moves of a wave cost ``H(n) = 1 + 1/2 + … + 1/n`` lone moves. Moves
that can be made in parallel thus cost less than the same moves forced one after another, as
studies of human solving times find (Pelánek, *Difficulty rating of Sudoku puzzles*, 2014: the
dependency structure of the moves, besides each move's difficulty).

A lone move of cost ``c`` counts ``c²``: costs are ranks on a scale like Sudoku Explainer's,
where each point up is a rarer, longer pattern to look for, and the work of finding one grows
faster than its rank. Every outside signal the project has agrees better with the square than
with ``c`` itself (``python bench/effort_variants.py``, ``python bench/calibration.py``):
LinkedIn's weekday on 103 Tangos, the levels of two binairo sites, HoDoKu's score of SE-rated
Sudokus. A solve of one-point moves costs the same either way. Waves are order-free, so effort
is the same for every symmetric copy of a puzzle.

``total_cost``, the plain sum of step costs, is kept beside it for comparisons.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from grader.core.step import Step


@cache
def harmonic(n: int) -> float:
    """1 + 1/2 + … + 1/n (remembered: waves are small, and every report asks)."""
    return sum(1 / k for k in range(1, n + 1))


def wave_costs(steps: Sequence[Step], waves: Sequence[int]) -> list[tuple[float, int]]:
    """Each wave as (its dearest step's cost, its number of steps); a run recorded without
    waves counts each step as a wave of its own."""
    costs = [step.cost for step in steps]
    if sum(waves) != len(steps):
        return [(cost, 1) for cost in costs]
    out = []
    start = 0
    for size in waves:
        if size == 1:
            out.append((costs[start], 1))
        elif size:
            out.append((max(costs[start : start + size]), size))
        start += size
    return out


COST_POWER = 2
"""The power of a move's cost that its effort counts (see the module's docstring)."""


def wave_effort(cost: float, size: int) -> float:
    """The effort of a wave of ``size`` moves whose dearest costs ``cost``."""
    return cost**COST_POWER * harmonic(size)


def effort(steps: Sequence[Step], waves: Sequence[int]) -> float:
    """The effort of a solve: every wave's squared cost times the harmonic number of its
    size."""
    return round(sum(wave_effort(cost, size) for cost, size in wave_costs(steps, waves)), 2)


def total_cost(steps: Sequence[Step]) -> float:
    """The sum of the step costs."""
    return round(sum([step.cost for step in steps]), 2)
