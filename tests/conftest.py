"""Shared test helpers: puzzles built from dicts, random solutions and partial grids."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

import shared_sets
from grader.rating.family import Puzzle
from grader.rating.loading import puzzle_from_dict

os.environ.setdefault("MPLBACKEND", "Agg")

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
SHARED_DATA = shared_sets.SHARED_DATA


def make(data: dict) -> Puzzle:
    """A puzzle from a dict, as the loader builds it."""
    return puzzle_from_dict(data, "test", "test")


def random_solution(puzzle: Puzzle, rng: random.Random) -> list[int]:
    """A random solution of the (empty or partial) puzzle, by seeded randomized search."""
    from grader.core.backtrack import solve_random

    solution = solve_random(puzzle.model, puzzle.givens, rng)
    assert solution is not None
    return solution


REQUIRE_SHARED = "GRADER_REQUIRE_SHARED"
"""Set (by ``.ci/run`` when ../shared/data is there): a missing shared file fails, not skips."""


def shared(name: str) -> Path:
    """A file of ../shared/data, or skip the test when it is not there (fail instead when the
    environment variable ``GRADER_REQUIRE_SHARED`` is set)."""
    path = SHARED_DATA / name
    if not path.exists():
        if os.environ.get(REQUIRE_SHARED):
            pytest.fail(f"{path} is not available but {REQUIRE_SHARED} is set")
        pytest.skip(f"{path} is not available")
    return path


def copy_checkout(target: Path) -> None:
    """The repository's tracked files (and those not yet committed, not ignored) copied into
    ``target``, as a fresh clone would hold them; skip the test outside a git checkout."""
    import shutil
    import subprocess

    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if listed.returncode != 0:
        pytest.skip("not a git checkout")
    for name in listed.stdout.splitlines():
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)


CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
"""How Playwright starts Debian's Chromium here: no sandbox (root), no GPU, and none of the
background connections this machine's closed network refuses."""
