"""What ``grader generate`` writes: the output of this run, and what was asked in the meta."""

from __future__ import annotations

import json
import subprocess
import sys

CODE = "import sys; from grader.cli import grader_main; sys.argv[0] = 'grader'; grader_main()"


def grader(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", CODE, *args], capture_output=True, text=True, timeout=300
    )


def test_a_run_that_makes_nothing_leaves_an_empty_output_and_says_so(tmp_path):
    out = tmp_path / "out.jsonl"
    out.write_text('{"old": "puzzle"}\n')
    result = grader(
        "generate", "binairo", "--size", "6x6", "--level", "expert", "--max-attempts", "1",
        "--no-progress", "-o", str(out), "--force",
    )  # fmt: skip
    assert result.returncode == 3  # fewer puzzles than asked
    assert out.read_text() == ""
    assert f"{out}: written empty (no puzzle was made)" in result.stderr
    assert not [p for p in tmp_path.iterdir() if p.name != "out.jsonl"]  # no temporary left


def test_classic_mode_alone_asks_for_any_level():
    result = grader("generate", "sudoku", "--mode", "unique", "--no-progress")
    assert result.returncode == 0, result.stderr
    meta = json.loads(result.stdout)["meta"]
    assert meta["mode"] == "unique" and meta["asked_level"] == "any"
    assert "(1 attempts)" in result.stderr  # no level filter: the first minimal puzzle
