"""Issue 15, the first hour: what a new user trips over, one test per bug."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from test_cli import run

import grader
from conftest import EXAMPLES
from grader.errors import InputError


@pytest.mark.parametrize("word", ["collection.jsonl", "abcdefghijklmnopqrstuvwxyz0123456789"])
def test_a_missing_file_says_no_such_file_whatever_its_length(tmp_path, word):
    result = run("grade", word, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip().startswith(f"error: {word}: no such file")
    assert "Traceback" not in result.stderr


def test_batch_of_a_missing_file_writes_nothing(tmp_path):
    result = run("grader", "batch", "collection.jsonl", "-o", "grades.csv", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip() == "error: collection.jsonl: no such file"
    assert list(tmp_path.iterdir()) == []


def test_a_game_id_still_loads_and_a_broken_one_says_why():
    assert run("grade", "8x8u:aebakdClaAcCeBGd").returncode == 0
    result = run("grade", "8x8u:aebakdClaAcCeBGx")
    assert result.returncode == 2
    assert "no such file (nor a valid puzzle ID: " in result.stderr


def test_closed_pipe_exits_quietly():
    files = sorted(str(p) for p in EXAMPLES.glob("*.json"))
    for extra in ([], ["--trace"]):
        code = "import sys; from grader.cli import grade_main; sys.argv[0] = 'grade'; grade_main()"
        process = subprocess.Popen(
            [sys.executable, "-c", code, "--json", *extra, *files],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert process.stdout is not None and process.stderr is not None
        process.stdout.readline()
        process.stdout.close()
        stderr = process.stderr.read().decode()
        assert process.wait(timeout=120) == 0, stderr
        assert stderr == ""


def test_grader_alone_prints_its_help():
    result = run("grader")
    assert "Usage: grader" in result.stderr + result.stdout
    assert "Commands" in result.stderr + result.stdout
    assert not result.stderr.startswith("error:")


@pytest.mark.parametrize("app", ["grade", "grader"])
def test_version(app):
    result = run(app, "--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"grade {grader.__version__}"


def test_grade_takes_a_path_a_dict_or_a_puzzle():
    path = EXAMPLES / "tango.json"
    by_path = grader.grade(str(path))
    assert by_path.to_dict()["family"] == "tango"
    assert grader.grade(path).level == by_path.level
    assert grader.grade(json.loads(path.read_text())).level == by_path.level
    assert grader.grade(grader.load(str(path))[0]).level == by_path.level
    with pytest.raises(InputError, match="no such file"):
        grader.grade("nothing-here.json")


def test_import_grader_is_cheap():
    heavy = "('pandas', 'pydantic', 'grader.batch', 'rich')"
    code = f"import sys, grader; print(sorted(m for m in {heavy} if m in sys.modules))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.strip() == "[]"
