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


# Simon Tatham's Solo IDs: in "CxR" a box is C rows tall and R columns wide (solo.c numbers the
# block of cell (y, x) as (y / c) * c + x / r). These IDs come from Solo's own generator
# (sgt-solo --generate 1 2x3db, and 3x4db).
SOLO_6X6 = "2x3:3a1d4_6c6b1d5b3c2_4d3a5"
SOLO_12X12 = (
    "3x4:1_4c12_7_6b8b11a3_2c12a1b9b11d6a5b6b2b11f12c10a2a4c11b3b8_5_1_8_5_11b9b3c7a3a4c2f9b11"
    "b1b10a5d11b7b7a2c12_8a3b6b8_4_2c12_11"
)


def is_sudoku_solution(rows: list[str], box_rows: int, box_cols: int) -> bool:
    """Every row, column and box of ``rows`` holds each symbol once."""
    n = len(rows)
    units = [list(row) for row in rows] + [[row[c] for row in rows] for c in range(n)]
    for top in range(0, n, box_rows):
        for left in range(0, n, box_cols):
            box = [rows[r][left : left + box_cols] for r in range(top, top + box_rows)]
            units.append(list("".join(box)))
    return all(len(set(unit)) == n and "." not in unit for unit in units)


@pytest.mark.parametrize(("game_id", "box"), [(SOLO_6X6, (2, 3)), (SOLO_12X12, (3, 4))])
def test_solo_ids_have_boxes_c_rows_tall(game_id, box):
    from rules.sudoku.file import clue_state, solo_id

    puzzle = grader.load(game_id)[0]
    assert tuple(puzzle.model.options["box"]) == box
    report = grader.grade(puzzle).to_dict()
    assert report["solutions"] == 1 and report["solved"]
    assert is_sudoku_solution(report["grid"], *box)
    assert not is_sudoku_solution(report["grid"], box[1], box[0])
    clues = clue_state(puzzle.model, puzzle.data["grid"])
    assert solo_id(puzzle.model, clues) == game_id


def test_a_short_siteswap_row_is_refused(tmp_path):
    path = tmp_path / "short.json"
    path.write_text(json.dumps({"family": "siteswap", "size": [2, 3], "grid": ["6..", ".8"]}))
    result = run("grade", str(path))
    assert result.returncode == 2
    assert f"{path}: grid: row 2 has 2 cells, expected 3" in result.stderr
