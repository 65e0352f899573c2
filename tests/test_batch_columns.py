"""Batch columns: defined once in code (the manual's table included), the families' report fields
as columns, technique columns that never collide with the fixed ones."""

from __future__ import annotations

import pandas as pd
import pytest

from conftest import EXAMPLES
from grader import grade, load
from grader.storage.batch import (
    COLUMN_GROUPS,
    COLUMNS,
    TECHNIQUE_PREFIX,
    columns_markdown,
    grade_many,
    read_frame,
    write_frame,
)

SOURCES = ("sudoku.json", "siteswap_3x4.json", "siteswap_sudoku.json", "path.json", "tango.json")


def test_every_column_has_its_meaning_in_the_table():
    """The manual's reference page prints ``columns_markdown()``."""
    for name in [*COLUMNS, *COLUMN_GROUPS]:
        assert f"| `{name}` |" in columns_markdown()
        assert (COLUMNS | COLUMN_GROUPS)[name].strip()


@pytest.fixture(scope="module")
def mixed():
    paths = [str(EXAMPLES / name) for name in SOURCES]
    puzzles = [p for path in paths for p in load(path)]
    return grade_many(paths), [grade(p).to_dict() for p in puzzles]


def test_report_fields_are_columns_empty_for_other_families(mixed):
    frame, reports = mixed
    fields = [c for c in frame.columns if c not in COLUMNS and not c.startswith(TECHNIQUE_PREFIX)]
    assert {"er", "ep", "ed", "runs", "distinct_runs", "boxes", "distinct_boxes"} <= set(fields)
    assert list(frame.columns[: len(COLUMNS)]) == list(COLUMNS)
    for (_, row), report in zip(frame.iterrows(), reports, strict=True):
        for field in fields:
            if field in report:
                assert row[field] == report[field], (report["family"], field)
            else:
                assert pd.isna(row[field]), (report["family"], field)
    sudoku = frame[frame["family"] == "sudoku"].iloc[0]
    assert sudoku["er"] == sudoku["difficulty"]


def test_steps_count_is_the_number_of_steps_and_techniques_are_prefixed(mixed):
    frame, reports = mixed
    path = frame["family"] == "path"
    assert TECHNIQUE_PREFIX + "count" in frame.columns
    for (_, row), report in zip(frame.iterrows(), reports, strict=True):
        assert row["steps_count"] == report["steps_count"]
        techniques = {
            c[len(TECHNIQUE_PREFIX) :]: row[c]
            for c in frame.columns
            if c.startswith(TECHNIQUE_PREFIX) and row[c]
        }
        assert techniques == {k: v["count"] for k, v in report["techniques"].items()}
        assert row["steps_count"] == sum(techniques.values())
    assert frame.loc[path, TECHNIQUE_PREFIX + "count"].iloc[0] > 0
    assert len(set(frame.columns)) == len(frame.columns)


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_columns_survive_the_file(mixed, tmp_path, suffix):
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")
    frame, _ = mixed
    out = tmp_path / f"r{suffix}"
    write_frame(frame, out)
    back = read_frame(out)
    assert list(back.columns) == list(frame.columns)
    for column in ("er", "runs", "steps_count", TECHNIQUE_PREFIX + "count"):
        pd.testing.assert_series_equal(
            back[column].astype("Float64"), frame[column].astype("Float64"), check_index=False
        )


def test_results_of_the_earlier_layout_read_under_todays_names(tmp_path):
    old = tmp_path / "old.csv"
    old.write_text(
        "id,family,difficulty,effort,level,steps,steps_pair,steps_count\n"
        "a,path,1.5,3.0,easy,3,1,2\n"
    )
    frame = read_frame(old)
    assert list(frame.columns) == [
        "id",
        "family",
        "difficulty",
        "effort",
        "level",
        "steps_count",
        TECHNIQUE_PREFIX + "pair",
        TECHNIQUE_PREFIX + "count",
    ]
    assert list(frame.iloc[0][["steps_count", TECHNIQUE_PREFIX + "count"]]) == [3, 2]
