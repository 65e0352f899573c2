"""Short contradictions: sound on random partial states of every family, priced by their rounds,
explained by the rule that breaks, and placed between line enumeration and lookahead."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grader.core.constraints import spoken
from grader.core.engine import Engine
from grader.core.explain import Explainer
from grader.core.step import Step
from grader.core.technique import Context
from grader.rating.costs import choose
from grader.rating.loading import puzzle_from_dict
from grader.rating.registry import families
from grader.techniques import Lookahead, ShortContradiction
from grader.techniques.lookahead import round_bonus
from grader.techniques.short_chain import SHORT_ROUNDS, follow
from soundness import assert_sound_steps, random_partials

SIZES = {"tango": (6, 6), "binairo": (6, 6), "siteswap": (3, 4), "pairplace": (6, 6)}
"""Families with cell hints, at sizes small enough for many examples (the technique is generic:
Tango and Siteswap have it in their tables, the others are checked as a plugin would use it)."""

RULES = {"siteswap": {"nontrivial": True, "distinct": True}}


@pytest.mark.parametrize("name", sorted(SIZES))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_short_contradictions_never_remove_a_solution_value(name, seed):
    """Run alone (so it fires on states the cheaper techniques would settle), every value it
    removes is one no solution of the state has; each step is priced by its rounds and its
    explanation names the rule that broke."""
    family = families()[name]
    template = family.empty_model(SIZES[name], RULES.get(name, {}))
    for model, state, _solution in random_partials(family, template, random.Random(seed), 2):
        techniques = [*easy(family, model), ShortContradiction(5.0, "hard")]
        steps = assert_sound_steps(model, state, techniques)
        explainer = Explainer(model, techniques)
        for step in steps:
            if step.technique != "short-contradiction":
                continue
            rounds = step.data["rounds"]
            assert 0 <= rounds <= SHORT_ROUNDS  # 0: the assumption itself breaks a rule
            assert step.cost == round(5.0 + round_bonus(rounds), 2)
            text = explainer.text(step)
            then = "; but then" if step.data["forced"] else ", then"  # no moves to tell
            if step.data["broken"]:
                label, reason = step.data["broken"][0]
                said = spoken(reason, model)  # the rule's message in the file's symbols
                assert ": if " in text and f"{then} {label} {said}" in text, text
                assert "\u27e8" not in text and "\u27e6" not in text, text  # no placeholder
            elif step.data["emptied"] is not None:  # moves of one round took all its values
                assert f"{then} {model.name(step.data['emptied'])} could hold nothing" in text
                assert all(explainer.text(move) in text for move in step.data["clash"]), text
            else:  # a move found the contradiction itself
                assert f"{then} {explainer.reason(step.data['clash'][0])}" in text, text


def easy(family, model) -> list:
    """The family's techniques a short contradiction follows (up to 2.0 points)."""
    return [t for t in choose(family, model) if t.cost <= 2.0]


def tango(grid: list[str], signs: list[list] | None = None):
    data = {"family": "tango", "size": [len(grid), len(grid[0])], "grid": grid}
    return puzzle_from_dict({**data, "signs": signs or []}, "test", "t")


def test_a_chain_that_breaks_a_line_after_one_round():
    """A sun at r1c1 would sit above r3c1's sun with r2c1 between them: the sandwich makes r2c1
    a moon, which puts three moons in row 2 beside its two: the assumption is false."""
    puzzle = tango(["..SS..", ".MM...", "S.....", "......", "......", "......"])
    sub = Engine(puzzle.model, easy(puzzle.family, puzzle.model))
    chain = follow(sub, puzzle.givens, 0, 0, SHORT_ROUNDS)  # r1c1 = S (0)
    assert chain is not None and chain.rounds == 1
    assert (6, 1) in chain.forced  # r2c1 = M
    assert chain.broken == (("row 2", "holds three moons in a row"),), chain


def test_no_chain_when_the_assumption_is_the_solution():
    puzzle = tango(["..SS..", ".MM...", "S.....", "......", "......", "......"])
    sub = Engine(puzzle.model, easy(puzzle.family, puzzle.model))
    assert follow(sub, puzzle.givens, 0, 1, SHORT_ROUNDS) is None  # r1c1 = M


@pytest.mark.parametrize("name", ["tango", "siteswap"])
def test_short_contradiction_sits_between_line_enumeration_and_lookahead(name):
    family = families()[name]
    model = puzzle_from_dict(family.example, "example", "example").model
    techniques = choose(family, model)
    names = [t.name for t in techniques]
    short = names.index("short-contradiction")
    assert names.index("line-enumeration") < short < names.index("lookahead-1")
    lookahead = next(t for t in techniques if t.name == "lookahead-1")
    assert isinstance(lookahead, Lookahead)
    assert "short-contradiction" not in [t.name for t in lookahead.inner(techniques)]
    assert Engine(model, techniques).techniques[short].level == "hard"


def short_step(rows: list[str], assume: tuple[int, int]) -> tuple[Step, Explainer]:
    """The short contradiction of a Tango's givens that assumes ``assume``, and an explainer."""
    puzzle = tango(rows)
    technique = ShortContradiction(5.0, "hard")
    techniques = [*easy(puzzle.family, puzzle.model), technique]
    engine = Engine(puzzle.model, techniques)
    steps = list(technique.find(Context(puzzle.model, list(puzzle.givens), engine)))
    (step,) = [s for s in steps if s.data["assume"] == assume]
    return step, Explainer(puzzle.model, techniques)


def test_the_step_tells_the_moves_and_the_broken_rule():
    step, explainer = short_step(
        ["..SS..", ".MM...", "S.....", "......", "......", "......"], (0, 0)
    )
    assert step.eliminations == ((0, 0),) and step.cost == 5.0  # one round: no bonus
    assert explainer.reason(step) == (
        "if r1c1 were S, then r1c2 = M, r1c5 = M, r1c6 = M, r2c1 = M; "
        "but then row 2 holds three moons in a row"
    )


def test_a_chain_of_no_moves_reads_without_a_stray_semicolon():
    """Asked before the easy moves ran, r1c3 = S breaks row 1 at once: nothing happens between
    the assumption and the broken rule."""
    step, explainer = short_step(
        ["SS....", "......", "......", "......", "......", "......"], (2, 0)
    )
    assert step.data["forced"] == () and step.data["rounds"] == 0
    assert explainer.reason(step) == ("if r1c3 were S, then row 1 holds three suns in a row")


@pytest.mark.parametrize("name", sorted(SIZES))
def test_a_known_solution_spares_trials_and_changes_no_step(name):
    """Knowing a solution of the state (the exact search's, at the top level) lets the short
    contradictions skip its values: they find the same steps as without it."""
    family = families()[name]
    template = family.empty_model(SIZES[name], RULES.get(name, {}))
    found = 0
    for model, state, solution in random_partials(family, template, random.Random(name), 6):
        technique = ShortContradiction(5.0, "hard")
        techniques = [*easy(family, model), technique]
        steps = []
        for known in ([], [solution]):
            engine = Engine(model, techniques, solutions=known, unique=False)
            found_steps = technique.find(Context(model, list(state), engine))
            steps.append([(s.eliminations, s.data["forced"]) for s in found_steps])
        assert steps[0] == steps[1]
        found += len(steps[0])
    assert found  # there were contradictions to find


MIRRORED_TANGO = {
    "family": "tango",
    "size": [6, 6],
    "grid": ["..M...", ".....S", ".....S", "..M...", "......", "......"],
    "signs": [
        [0, 3, 1, 3, "="],
        [1, 0, 2, 0, "x"],
        [1, 1, 2, 1, "x"],
        [2, 1, 3, 1, "x"],
        [2, 2, 3, 2, "="],
        [3, 0, 4, 0, "x"],
        [4, 0, 5, 0, "="],
        [5, 1, 5, 2, "x"],
    ],
}
"""A unique Tango (``puzzle_sets.unique_puzzle``) whose short contradictions cost 5.5 and 5.8,
the first of them one or the other in its mirror images."""


def test_a_report_shows_the_cost_that_counts_for_each_technique():
    """The techniques table gives each technique its hardest step's cost, what difficulty
    takes, not the first step's: the same in every mirror image of a puzzle."""
    from rich.console import Console

    from grader.output.report import techniques_table
    from grader.rating.grading import grade

    family = families()["tango"]
    copies = [("puzzle", MIRRORED_TANGO), *family.symmetric_copies(MIRRORED_TANGO)]
    tables, texts, firsts = [], [], set()
    for _, data in copies:
        result = grade(puzzle_from_dict(data, "test", "test"))
        report = result.to_dict()
        for name, entry in report["techniques"].items():
            costs = [step.cost for step in result.steps if step.technique == name]
            assert entry == {"count": len(costs), "cost": max(costs)}
            if name == "short-contradiction":
                firsts.add(costs[0])
        assert report["difficulty"] == max(e["cost"] for e in report["techniques"].values())
        tables.append(report["techniques"])
        console = Console(width=100, record=True)
        console.print(techniques_table(result))
        texts.append(console.export_text())
    assert len(firsts) > 1  # the first short contradiction differs between the copies
    assert all(table == tables[0] for table in tables)
    assert all(text == texts[0] for text in texts)
