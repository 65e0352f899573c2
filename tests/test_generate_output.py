"""What ``grader generate`` writes: the output of this run, and what was asked in the meta."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time

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
    summary = result.stderr.splitlines()[-1]  # the count and why it stopped, on one line
    assert summary.startswith("generated 0 of 1 binairo puzzles to")
    assert "(1 attempt); stopped: " in summary, result.stderr
    assert len(result.stderr.splitlines()) == 2, result.stderr


def test_classic_mode_alone_asks_for_any_level():
    result = grader("generate", "sudoku", "--mode", "unique", "--no-progress")
    assert result.returncode == 0, result.stderr
    meta = json.loads(result.stdout)["meta"]
    assert meta["mode"] == "unique" and meta["asked_level"] == "any"
    assert "naked-single" in meta["settings"]["techniques"]  # what rated it, as grade stamps
    assert "(1 attempt)" in result.stderr  # no level filter: the first minimal puzzle


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


@pytest.mark.parametrize(
    ("extra", "named"),
    [
        (["--level", "extreme", "-n", "50", "--seed", "5"], "--level, --count/-n, --seed"),
        (["--size", "6x6", "--mode", "unique", "--rule", "unique_lines=true"], "--size, --mode"),
        (["--no-reduce", "--max-attempts", "3", "--extra-share", "0.2"], "--extra-share, --reduce"),
        (["--unique-lines", "--costs", "my.toml", "--force"], "--unique-lines, --costs, --force"),
    ],
)
def test_options_a_plan_decides_are_refused_with_a_plan_in_one_line(tmp_path, extra, named):
    plan = tmp_path / "plan.toml"
    plan.write_text('[[row]]\nfamily = "tango"\nsize = 6\nlevel = "easy"\ncount = 1\n')
    bank = tmp_path / "site.db"
    result = grader("generate", "--plan", str(plan), "--bank", str(bank), *extra)
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert named in result.stderr and "cannot be given with a plan" in result.stderr
    assert not bank.exists()


def test_the_options_of_a_plan_run_are_still_accepted(tmp_path):
    plan = tmp_path / "plan.toml"
    plan.write_text('[[row]]\nfamily = "tango"\nsize = 6\nlevel = "easy"\ncount = 1\n')
    bank = tmp_path / "site.db"
    result = grader(
        "generate", "--plan", str(plan), "--bank", str(bank), "--workers", "1",
        "--timeout", "120", "--no-progress",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "tango 6x6 easy: 1 of 1 (0 already in the bank, 1 added)" in result.stderr


def interrupted(*args: str, after: float = 3.0) -> subprocess.CompletedProcess:
    """Run ``grader ARGS`` in its own process group and press Ctrl-C after ``after`` seconds."""
    process = subprocess.Popen(
        [sys.executable, "-c", CODE, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        # As from a terminal: Ctrl-C not ignored, whatever this test process inherited.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    time.sleep(after)
    assert process.poll() is None, "the run finished before it could be interrupted"
    os.killpg(process.pid, signal.SIGINT)  # as Ctrl-C: the whole foreground group
    stdout, stderr = process.communicate(timeout=60)
    return subprocess.CompletedProcess(args, process.returncode, stdout, stderr)


def test_ctrl_c_before_any_puzzle_leaves_no_output_and_the_rerun_works(tmp_path):
    out = tmp_path / "int2.jsonl"
    slow = ["generate", "binairo", "--size", "14x14", "--level", "extreme", "--timeout", "100"]
    result = interrupted(*slow, "-o", str(out))  # no extreme 14x14 puzzle in 15 s
    assert result.returncode == 130, result.stderr
    assert f"{out}: not written (interrupted before any puzzle)" in result.stderr
    assert "generated 0 of 1 binairo puzzles in" in result.stderr  # not "to int2.jsonl"
    assert "Traceback" not in result.stderr
    assert list(tmp_path.iterdir()) == []  # no empty file, no temporary
    again = grader("generate", "binairo", "--no-progress", "-o", str(out))
    assert again.returncode == 0, again.stderr  # not "already exists"
    before = out.read_bytes()
    result = interrupted(*slow, "-o", str(out), "--force")
    assert result.returncode == 130 and "the file there is left as it was" in result.stderr
    assert out.read_bytes() == before and list(tmp_path.iterdir()) == [out]


def test_ctrl_c_keeps_the_puzzles_made_in_a_whole_file(tmp_path):
    out = tmp_path / "some.json"
    result = interrupted("generate", "binairo", "--size", "6x6", "-n", "100000", "-o", str(out))
    assert result.returncode == 130, result.stderr
    made = int(re.search(r"generated (\d+) of 100000", result.stderr).group(1))
    assert made > 0 and len(json.loads(out.read_text())) == made
    assert list(tmp_path.iterdir()) == [out]
