"""The same puzzle gives the same report, byte for byte, in any process: Python randomizes the
hashes of strings per process (``PYTHONHASHSEED``), so a set or dict iterated in hash order
(a Path graph's door nodes and the outside are keyed by strings) must not reach a step, its
order, its explanation or its evidence."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import EXAMPLES
from grader.generation.generator import Request, generate

HASH_SEEDS = ("0", "1", "2", "3")

GENERATED = [
    ("binairo", (6, 6), "expert", 1),
    ("tango", (6, 6), "hard", 1),
    ("sudoku", (6, 6), "hard", 1),
    ("siteswap", (3, 4), "trivial", 1),
    ("pairplace", (7, 8), "normal", 1),
    ("path", (5, 5), "normal", 1),
    ("path", (5, 5), "expert", 2),
    ("path", (6, 6), "expert", 63),
]
"""(family, size, level, seed) of the generated puzzles graded: small, quick to make."""


def without_seconds(value: Any) -> Any:
    """A report with every ``seconds`` key dropped (the only figure that may differ)."""
    if isinstance(value, dict):
        return {k: without_seconds(v) for k, v in value.items() if k != "seconds"}
    if isinstance(value, list):
        return [without_seconds(v) for v in value]
    return value


def traced_reports(files: list[Path], hash_seed: str) -> list[Any]:
    """``grade --json --trace`` of the files in a process with this hash seed."""
    code = "from grader.cli import grader_main; grader_main()"
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    run = subprocess.run(
        [sys.executable, "-c", code, "grade", *map(str, files), "--json", "--trace"],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    return [without_seconds(json.loads(line)) for line in run.stdout.splitlines() if line]


@pytest.fixture(scope="module")
def puzzle_files(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """The examples and a few generated puzzles of every family, one file each."""
    folder = tmp_path_factory.mktemp("determinism")
    files = [*sorted(EXAMPLES.glob("*.json")), EXAMPLES / "unruly.txt"]
    files += [EXAMPLES / "collection.jsonl"]
    for family, size, level, seed in GENERATED:
        request = Request(family, size, level, seed=seed, timeout=60)
        for made in generate(request):
            path = folder / f"{made.data['id']}.json"
            path.write_text(json.dumps(made.data), encoding="utf-8")
            files.append(path)
    return files


def test_every_process_gives_the_same_traced_reports(puzzle_files):
    first = traced_reports(puzzle_files, HASH_SEEDS[0])
    assert len(first) >= len(puzzle_files)
    for seed in HASH_SEEDS[1:]:
        other = traced_reports(puzzle_files, seed)
        for mine, theirs in zip(first, other, strict=True):
            assert mine == theirs, f"{mine['id']}: another report with PYTHONHASHSEED={seed}"


REMOVALS = """
import json
from grader.rating.loading import puzzle_from_dict
from rules.path.family import FAMILY
from rules.path.model import geometry
from rules.path.techniques import door_node, removals

puzzle = puzzle_from_dict(FAMILY.example, "example", "example")
geo = geometry(puzzle.model)
state = [3] * len(puzzle.model.variables)
nodes = set(geo.cells[:5]) | {door_node(e.var) for e in geo.door_edges}
print(json.dumps(removals(geo, state, nodes)))
"""


def test_a_region_with_doors_is_emptied_in_the_same_order_in_every_process():
    """Reachability and pockets empty a region of cell and door nodes, a set whose order
    follows the door nodes' string hashes: the eliminations come out the same in any
    process."""
    outputs = set()
    for seed in ("0", "1", "2", "3", "4", "5"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        run = subprocess.run(
            [sys.executable, "-c", REMOVALS], env=env, capture_output=True, text=True, timeout=120
        )
        assert run.returncode == 0, run.stderr[-2000:]
        outputs.add(run.stdout)
    assert len(outputs) == 1
