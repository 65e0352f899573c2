"""``grade --timeout`` holds at every family's largest size with every rule on (issue 51): the
process exits 3, says the report is partial, and stops within 1.5 times the limit (CPU time of
the child, plus the kit's start-up allowance) with bounded memory."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from grader.rating.registry import families, get_family
from grader.testing.cli import run_script
from grader.testing.kit import TIMEOUT, TIMEOUT_MEMORY_MB, TIMEOUT_SLACK, largest_rule_sets

CASES = [
    (name, rules)
    for name in sorted(families())
    if get_family(name).largest_size is not None
    for rules in largest_rule_sets(get_family(name))
] + [("siteswap", {"throws": [1, 9], "nontrivial": True})]
"""Every family at its largest size without rules and with every rule on; and the siteswap
runs of the issue with the default throws (9 CPU s at ``--timeout 1`` before)."""


def empty_file(folder: Path, name: str, rules: dict[str, Any]) -> Path:
    """The empty puzzle of the family's largest size with these rules, as a file."""
    family = get_family(name)
    assert family.largest_size is not None
    model = family.empty_model(family.largest_size, rules)
    path = folder / f"{name}.json"
    path.write_text(json.dumps(family.to_data(model, model.initial_state())), encoding="utf-8")
    return path


@pytest.mark.parametrize(("name", "rules"), CASES, ids=[f"{n}-{r}" for n, r in CASES])
def test_grade_stops_at_the_timeout_on_the_largest_empty_puzzle(name, rules, tmp_path):
    path = empty_file(tmp_path, name, rules)
    result = run_script("grade", "--json", "--timeout", str(TIMEOUT), str(path), timeout=240)
    assert result.code == 3, result.describe()
    report = json.loads(result.stdout)
    assert report["status"] == "timeout"
    assert any("the report is partial" in note for note in report.get("notes", []))
    assert result.cpu_seconds is not None and result.cpu_seconds < TIMEOUT + TIMEOUT_SLACK, (
        f"{result.cpu_seconds:.1f} CPU s"
    )
    if result.max_rss_mb is not None:
        assert result.max_rss_mb < TIMEOUT_MEMORY_MB, f"{result.max_rss_mb:.0f} MB"


CHAINS_AT_A_DEADLINE = """
import json, time
from grader.core.engine import Engine
from grader.core.exact import count_solutions
from grader.rating.costs import choose
from grader.rating.registry import get_family
family = get_family("sudoku")
model = family.empty_model((25, 25), {})
state = model.initial_state()
_, found = count_solutions(model, state, 2)
engine = Engine(model, choose(family, model, None, None, False), solutions=found)
assert engine.plan  # made before the clock starts
started = time.process_time()
engine.deadline = time.monotonic() + 0.2
run = engine.run(state)
print(json.dumps({"status": run.status, "cpu": time.process_time() - started}))
"""


def test_sudoku_chains_stop_at_the_deadline_on_an_empty_25x25():
    """Once the exact search has answered, the run of an empty 25x25 sudoku reaches the chains,
    whose static reach of 31250 potentials took 2.3 CPU s without looking at the deadline. In
    a process of its own, so that nothing another test left behind (a garbage collection of
    its objects) is counted."""
    done = subprocess.run(
        [sys.executable, "-c", CHAINS_AT_A_DEADLINE], capture_output=True, text=True, check=True
    )
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["status"] == "timeout"
    assert found["cpu"] < 1.0, found


def generate_args(name: str, rules: dict[str, Any]) -> list[str]:
    """``grader generate`` options for the family's largest size with these rules."""
    family = get_family(name)
    assert family.largest_size is not None
    rows, cols = family.largest_size
    size = f"{cols}" if name in ("pairplace", "path") else f"{rows}x{cols}"
    return [name, "--size", size] + [f"--rule={key}={json.dumps(v)}" for key, v in rules.items()]


GENERATE_CASES = [(name, rules, mode) for name, rules in CASES for mode in ("deducible", "unique")]

UNINTERRUPTIBLE = {"binairo": 2.0}
"""CPU seconds of a call the limit cannot cut short, by family: a large Binairo's random grid
ends with a SAT call on its last rows (CaDiCaL has no interrupt; 1.7 CPU s at 200 columns),
started before the deadline and finished after it."""


@pytest.mark.parametrize(
    ("name", "rules", "mode"), GENERATE_CASES, ids=[f"{n}-{r}-{m}" for n, r, m in GENERATE_CASES]
)
def test_generate_stops_at_the_timeout_at_the_largest_size(name, rules, mode, tmp_path):
    """Before, the searches inside a family's random solution and the classic mode's exact
    search ignored the limit: a 40x40 siteswap or path ran on past a minute, a 200x200 binairo
    or 25x25 sudoku in classic mode ended in an internal error."""
    output = tmp_path / "made.jsonl"
    command = ["generate", *generate_args(name, rules), "--mode", mode, "--no-progress"]
    command += ["--timeout", str(TIMEOUT), "-o", str(output)]
    result = run_script("grader", *command, timeout=240)
    assert result.code in (0, 3), result.describe()
    if result.code == 3:
        assert "the time limit of 1 s was reached" in result.stderr, result.describe()
        assert "Traceback" not in result.stderr
    assert output.exists()  # whole: the puzzles made in time, maybe none
    made = [json.loads(line) for line in output.read_text().splitlines()]
    assert all(puzzle["family"] == name for puzzle in made)
    allowed = TIMEOUT + TIMEOUT_SLACK + UNINTERRUPTIBLE.get(name, 0.0)
    assert result.cpu_seconds is not None and result.cpu_seconds < allowed, (
        f"{result.cpu_seconds:.1f} CPU s"
    )
    if result.max_rss_mb is not None:
        assert result.max_rss_mb < TIMEOUT_MEMORY_MB, f"{result.max_rss_mb:.0f} MB"
