"""Every way of showing steps works on every step any family produces (issue 15).

``--trace`` (text), ``--json --trace``, ``--html``, ``hint`` and ``render --step`` run over every
example and every shared puzzle of every family (the shared sets skip when ../shared/data is
absent; sudoku's 658 SE-rated puzzles are sampled), lookahead chains included. Techniques go up
to lookahead-1, with a time limit per puzzle, to keep the test short.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator

import pytest
from rich.console import Console

from conftest import EXAMPLES, SHARED_DATA
from grader.core.step import Step
from grader.output.html import trace_html
from grader.output.render import board_svg, states_before, step_board
from grader.output.report import print_grade
from grader.rating.costs import technique_table
from grader.rating.family import Puzzle
from grader.rating.grading import Grade, GradeOptions, grade, hint, step_dict
from grader.rating.loading import load, puzzle_from_dict

SECONDS = 3.0
"""Time limit per puzzle (a cut run still has steps to show)."""

SUDOKU_SAMPLE = 60
"""Every 60th puzzle of the SE-rated sudoku set (its ratings spread from 1.2 to 9+)."""


def options_for(puzzle: Puzzle) -> GradeOptions:
    """Techniques up to lookahead-1 (everything but lookahead-2 and guessing)."""
    names = {spec.technique_name for spec in technique_table(puzzle.family, puzzle.model)}
    selection = "-lookahead-2" if "lookahead-2" in names else None
    return GradeOptions(techniques=selection, timeout=SECONDS)


def chain_steps(steps: list[Step]) -> Iterator[Step]:
    """Every step, and every step of every lookahead chain inside it."""
    for step in steps:
        yield step
        yield from chain_steps(step.data.get("chain") or [])


def show_every_way(result: Grade) -> int:
    """Render every step of ``result`` in each way the commands do; the steps shown."""
    puzzle = result.puzzle
    # --json --trace
    report = result.to_dict(trace=True)
    json.dumps(report, ensure_ascii=False)
    assert len(report["steps"]) == len(result.steps)
    # --trace
    console = Console(file=io.StringIO(), width=100)
    print_grade(console, result, trace=True)
    # every step's text, chains included
    ex = result.explainer()
    shown = 0
    for step in chain_steps(result.steps):
        assert ex.text(step)
        step_dict(step, ex)
        shown += 1
    # --html
    page = trace_html([result])
    assert page.count("<svg") >= 1
    # render --step N (every step; a chain's steps on the board before their step)
    by_name = {t.name: t for t in result.techniques}
    for before, step in zip(states_before(puzzle, result.steps), result.steps, strict=True):
        board_svg(step_board(puzzle, before, step, by_name.get(step.technique)))
        for inner in chain_steps(step.data.get("chain") or []):
            board_svg(step_board(puzzle, before, inner, by_name.get(inner.technique)))
    # hint
    steps, explainer = hint(puzzle, options_for(puzzle))
    for step in steps[:1]:
        assert explainer.text(step)
        json.dumps(step_dict(step, explainer), ensure_ascii=False)
    return shown


def check_all(puzzles: list[Puzzle]) -> int:
    """Show every step of every puzzle; how many steps were shown."""
    return sum(show_every_way(grade(puzzle, options_for(puzzle))) for puzzle in puzzles)


@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.glob("*.json*")))
def test_every_example(name):
    family = name.split("-")[0] if "-export" in name else None  # files naming no family
    check_all(load(str(EXAMPLES / name), family))


SHARED_FILES = [
    "path_puzzles_examples.json",
    "pair_place_examples.json",
    "siteswap_examples.json",
    "tango_real.jsonl",
    "binairo_external.jsonl",
    "sudoku_se_dev.csv",
]


def shared_puzzles(name: str) -> list[Puzzle]:
    """The puzzles of one shared file, as the tests and benchmarks read it."""
    import shared_sets

    path = SHARED_DATA / name
    if not path.exists():
        pytest.skip(f"{path} is not available")
    readers = {
        "tango_real.jsonl": shared_sets.tango_real,
        "binairo_external.jsonl": shared_sets.binairo_external,
        "siteswap_examples.json": shared_sets.siteswap_examples,
    }
    if name in readers:
        return [puzzle_from_dict(data, name, str(data["id"])) for _, data in readers[name](path)]
    if name.endswith(".csv"):
        lines = path.read_text().splitlines()[1:]
        return [load(line.split(",")[0])[0] for line in lines[::SUDOKU_SAMPLE] if line.strip()]
    return load(str(path))


PARTS = {"binairo_external.jsonl": 4}
"""Files tested in parts (every k-th puzzle), so that test workers share the long ones."""


@pytest.mark.parametrize(
    ("name", "part"), [(name, part) for name in SHARED_FILES for part in range(PARTS.get(name, 1))]
)
def test_every_shared_puzzle(name, part):
    parts = PARTS.get(name, 1)
    check_all(shared_puzzles(name)[part::parts])  # pair place examples are solved grids: no steps
