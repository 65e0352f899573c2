"""What ``grader generate`` writes: the output of this run, and what was asked in the meta."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

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


def test_a_json_output_is_one_document_that_grade_reads_back(tmp_path):
    import grader as api

    as_json, as_lines = tmp_path / "x.json", tmp_path / "x.jsonl"
    for out in (as_json, as_lines):
        made = grader(
            "generate", "binairo", "-n", "3", "--seed", "1", "--no-progress", "-o", str(out)
        )
        assert made.returncode == 0, made.stderr
    assert json.loads(as_json.read_text()) == [json.loads(line) for line in as_lines.open()]
    graded = grader("grade", "--json", str(as_json))
    assert graded.returncode == 0, graded.stderr
    reports = [json.loads(line) for line in graded.stdout.splitlines()]
    assert [r["id"] for r in reports] == [f"binairo-8x8-normal-s1-{n}" for n in (1, 2, 3)]
    assert all(r["status"] == "solved" and r["level"] == "normal" for r in reports)
    assert [p.data for p in api.load(as_json)] == [p.data for p in api.load(as_lines)]


@pytest.mark.parametrize("name", ["x.csv", "x.txt", "x"])
def test_an_output_the_loader_cannot_read_back_is_refused_before_any_work(tmp_path, name):
    out = tmp_path / name
    result = grader("generate", "binairo", "-n", "2", "--no-progress", "-o", str(out))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "use .jsonl or .json" in result.stderr
    assert "generated" not in result.stderr and list(tmp_path.iterdir()) == []
