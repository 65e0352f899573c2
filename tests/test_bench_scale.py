"""``bench/scale.py``'s own logic: rows of ``grader batch`` CSVs and of ``grade --json`` compared
field by field, and the projection's arithmetic. The benchmark's figures are not tested."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from grader.rating.grading import grade
from grader.rating.loading import load
from grader.storage.batch import run_batch, tasks_from, write_frame

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = (
    "..39.25..4.......7.5.....6...2...6...9.....3.8.65374.2..41.32......6.......2.8...",
    "5.72....9.......3..9..4...74.2.79.1.....6.....3.45.7.89...2..8..4.......6....13.4",
)


@pytest.fixture(scope="module")
def scale(request):
    """``bench/scale.py`` (its imports of the other bench scripts need ``bench/`` on the path)."""
    sys.path.insert(0, str(ROOT / "bench"))
    request.addfinalizer(lambda: sys.path.remove(str(ROOT / "bench")))
    spec = importlib.util.spec_from_file_location("scale_bench", ROOT / "bench" / "scale.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    request.addfinalizer(lambda: sys.modules.pop(spec.name, None))
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """Two sudokus graded as ``grader batch`` writes them (a CSV) and as ``grade --json``
    prints them (the reports' JSON lines)."""
    folder = tmp_path_factory.mktemp("scale")
    source = folder / "hard.txt"
    source.write_text("".join(p + "\n" for p in PUZZLES))
    write_frame(run_batch(tasks_from(str(source))).frame, folder / "hard.csv")
    reports = [grade(puzzle).to_dict() for puzzle in load(str(source))]
    return folder / "hard.csv", "".join(json.dumps(r) + "\n" for r in reports)


def test_a_csv_and_json_lines_of_the_same_grading_are_the_same_rows(scale, graded):
    csv_path, stdout = graded
    rows = scale.csv_rows(csv_path)
    assert len(rows) == len(PUZZLES)
    assert rows == scale.json_rows(stdout)
    assert scale.disagreement(rows, scale.json_rows(stdout)).startswith("same rows")


def test_a_changed_level_or_a_missing_row_is_reported(scale, graded):
    rows = scale.csv_rows(graded[0])
    level = scale.COMPARED.index("level")
    changed = [rows[0], (*rows[1][:level], "easy", *rows[1][level + 1 :])]
    said = scale.disagreement(rows, changed)
    assert said.startswith("DIFFERENT on 1 of 2 puzzles")
    assert f"first {rows[1][0]}" in said and "level" in said
    assert scale.disagreement(rows, rows[:1]).startswith("DIFFERENT: 1 rows against 2")


def test_the_projection_is_puzzles_times_cpu_per_puzzle_in_hours(scale):
    projection = scale.Projection(3_000_000, 0.12)
    assert projection.cpu_hours == pytest.approx(100.0)
    assert projection.wall_hours(2) == pytest.approx(50.0)
    assert projection.wall_hours(64) == pytest.approx(100 / 64)
