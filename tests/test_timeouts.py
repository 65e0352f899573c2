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
