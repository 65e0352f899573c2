"""Batches: one row per puzzle, the same on 1 or 2 workers (and on a Dask cluster), bad lines
as rows with an error, outputs written whole, Ctrl-C leaves no output and --resume goes on."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time

import pandas as pd
import pytest
from test_cli import run

from conftest import EXAMPLES, make
from grader import GradeOptions, grade, load
from grader.rating.costs import SelectionError
from grader.storage.batch import (
    COLUMNS,
    JOURNAL_VERSION,
    TECHNIQUE_PREFIX,
    grade_many,
    journal_path,
    read_frame,
)
from puzzle_sets import random_puzzle, unique_puzzle, write_jsonl

COMPARED = [c for c in COLUMNS if c != "seconds"]


@pytest.fixture(scope="module")
def collection(tmp_path_factory):
    rng = random.Random(11)
    puzzles = [unique_puzzle("tango", 6, rng, signs=rng.randint(2, 8)) for _ in range(30)]
    puzzles += [unique_puzzle("binairo", 6, rng) for _ in range(10)]
    return write_jsonl(tmp_path_factory.mktemp("batch") / "collection.jsonl", puzzles)


def test_rows_match_grading_each_puzzle(collection):
    frame = grade_many([str(collection), str(EXAMPLES / "tango.json")])
    puzzles = [*load(str(collection)), *load(str(EXAMPLES / "tango.json"))]
    assert list(frame.columns[: len(COLUMNS)]) == list(COLUMNS)
    assert len(frame) == len(puzzles)
    for (_, row), puzzle in zip(frame.iterrows(), puzzles, strict=True):
        report = grade(puzzle).to_dict()
        assert row.id == puzzle.id and row.family == puzzle.family.name
        assert (row.rows, row.cols) == tuple(report["size"]) and row["size"] == "6x6"
        assert row.givens == report["givens"] and row.solutions == str(report["solutions"])
        assert row.level == report["level"] and row.difficulty == report["difficulty"]
        assert row.effort == pytest.approx(report["effort"])
        assert row.steps_count == report["steps_count"]
        counts = {
            c[len(TECHNIQUE_PREFIX) :]: row[c]
            for c in frame.columns
            if c.startswith(TECHNIQUE_PREFIX)
        }
        assert {k: v for k, v in counts.items() if v} == {
            name: int(entry["count"]) for name, entry in report["techniques"].items()
        }
        assert pd.isna(row.error)


def test_two_workers_give_the_same_frame(collection):
    one = grade_many(str(collection), workers=1)
    two = grade_many(str(collection), workers=2, chunk_size=3)
    pd.testing.assert_frame_equal(one.drop(columns="seconds"), two.drop(columns="seconds"))


def test_bad_lines_become_rows_with_an_error(tmp_path):
    good = json.loads((EXAMPLES / "tango.json").read_text())
    path = tmp_path / "mixed.jsonl"
    path.write_text(
        json.dumps(good) + "\n{not json\n" + json.dumps({**good, "grid": ["SS"]}) + "\n"
    )
    frame = grade_many(str(path))
    assert len(frame) == 3
    assert pd.isna(frame.loc[0, "error"]) and frame.loc[0, "solved"]
    assert "not valid JSON" in frame.loc[1, "error"] and "mixed.jsonl:2" in frame.loc[1, "error"]
    assert "grid" in frame.loc[2, "error"] and frame.loc[2, "family"] == "tango"
    out = tmp_path / "out.csv"
    result = run("grader", "batch", str(path), "-o", str(out), "--no-progress")
    assert result.returncode == 2
    assert "2 puzzle(s) could not be graded" in result.stderr
    assert len(read_frame(out)) == 3


def test_cli_writes_csv_and_parquet_and_refuses_to_overwrite(collection, tmp_path):
    out = tmp_path / "results.csv"
    result = run("grader", "batch", str(collection), "-o", str(out), "-w", "2")
    assert result.returncode == 0, result.stderr
    assert "graded 40 puzzle(s)" in result.stderr
    frame = read_frame(out)
    assert len(frame) == 40 and set(frame["family"]) == {"tango", "binairo"}
    assert frame["solutions"].eq("1").all()
    again = run("grader", "batch", str(collection), "-o", str(out))
    assert again.returncode == 2 and "already exists" in again.stderr
    pytest.importorskip("pyarrow")
    parquet = tmp_path / "results.parquet"
    result = run("grader", "batch", str(collection), "-o", str(parquet), "--no-progress")
    assert result.returncode == 0, result.stderr
    back = pd.read_parquet(parquet)
    pd.testing.assert_frame_equal(
        back[COMPARED].astype(str), frame[COMPARED].astype(str), check_dtype=False
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results.csv", "results.parquet"]


def test_cli_bad_requests_are_one_line(tmp_path, collection):
    cases = [
        (["-o", str(tmp_path / "r.xlsx")], "unknown output format"),
        (["-o", str(tmp_path / "r.csv"), "--workers", "0"], "--workers"),
        (["-o", str(collection / "r.csv")], "cannot be made"),  # a file in the way
    ]
    for extra, words in cases:
        result = run("grader", "batch", str(collection), *extra)
        assert result.returncode == 2 and words in result.stderr, result.stderr
        assert "Traceback" not in result.stderr
    result = run("grader", "batch", str(tmp_path / "nope.jsonl"), "-o", str(tmp_path / "r.csv"))
    assert result.returncode == 2 and "nope.jsonl" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_technique_no_family_has_stops_the_batch_before_any_output(tmp_path):
    """``--techniques`` naming what no family has is wrong for every row: one line, exit 2,
    no output (nor a journal or a temporary file) left, as grade stops."""
    files = [str(EXAMPLES / name) for name in ("tango.json", "sudoku.json")]
    out = tmp_path / "new" / "r.csv"
    result = run("grader", "batch", *files, "-o", str(out), "--techniques", "teleport")
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1 and "'teleport'" in result.stderr, result.stderr
    assert result.stderr.startswith("error: --techniques: ")
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(SelectionError, match="'teleport'"):  # the Python API stops too
        grade_many(files, options=GradeOptions(techniques="teleport"))


def test_a_technique_some_families_lack_gives_error_rows_for_theirs(tmp_path):
    files = [str(EXAMPLES / name) for name in ("tango.json", "sudoku.json")]
    out = tmp_path / "r.csv"
    result = run("grader", "batch", *files, "-o", str(out), "--techniques", "naked-single")
    assert result.returncode == 2, result.stderr
    frame = read_frame(out)
    assert frame["error"].isna().tolist() == [False, True]
    assert "'naked-single'" in frame["error"][0]


def interrupt_half_way(command, journal, cwd, at_rows):
    """Start the batch in its own process group, wait for rows in the journal, press Ctrl-C."""
    code = "import sys; from grader.cli import grader_main; sys.argv[0] = 'grader'; grader_main()"
    process = subprocess.Popen(
        [sys.executable, "-c", code, *command],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        # As from a terminal: Ctrl-C not ignored, whatever this test process inherited (a
        # process started with SIGINT ignored keeps ignoring it, Python included).
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None:
        if journal.exists() and len(journal.read_text().splitlines()) > at_rows:
            break
        time.sleep(0.05)
    assert process.poll() is None, "the batch finished before it could be interrupted"
    os.killpg(process.pid, signal.SIGINT)  # as Ctrl-C: the whole foreground group
    _, stderr = process.communicate(timeout=60)
    return process.returncode, stderr


@pytest.mark.parametrize("workers", ["1", "2"])
def test_interrupted_batch_leaves_no_output_and_resumes(tmp_path, workers):
    rng = random.Random(5)
    count = 400  # enough that Ctrl-C lands mid-run, few enough to resume quickly
    puzzles = [random_puzzle("binairo", 6, rng, 0.45) for _ in range(count)]
    source = write_jsonl(tmp_path / "many.jsonl", puzzles)
    out = tmp_path / "results.csv"
    journal = journal_path(out)
    command = ["batch", str(source), "-o", str(out), "-w", workers, "--chunk-size", "4"]
    code, stderr = interrupt_half_way(command, journal, tmp_path, at_rows=20)
    assert code == 130, stderr
    assert "--resume" in stderr and "Traceback" not in stderr
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([journal.name, "many.jsonl"])
    done = len(journal.read_text().splitlines()) - 1
    assert 20 <= done < count

    refused = run("grader", *command)
    assert refused.returncode == 2 and "--resume" in refused.stderr

    resumed = run("grader", *command, "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert "from the journal" in resumed.stderr
    assert not journal.exists()
    frame = read_frame(out)
    assert len(frame) == count
    assert list(frame["id"]) == [f"many#{n}" for n in range(1, count + 1)]
    sample = list(range(0, count, 20))  # rows from the journal and from the resumed run
    fresh = grade_many([puzzles[i] for i in sample])
    assert list(frame["level"].iloc[sample]) == list(fresh["level"])
    assert list(frame["effort"].iloc[sample]) == pytest.approx(list(fresh["effort"]))


def test_resume_refuses_a_journal_of_other_settings(tmp_path, collection):
    out = tmp_path / "r.csv"
    journal = journal_path(out)
    header = {"journal": JOURNAL_VERSION, "settings": {"other": True}}
    journal.write_text(json.dumps(header) + "\n")
    result = run("grader", "batch", str(collection), "-o", str(out), "--resume")
    assert result.returncode == 2 and "other settings" in result.stderr
    journal.write_text(json.dumps({**header, "journal": JOURNAL_VERSION - 1}) + "\n")
    result = run("grader", "batch", str(collection), "-o", str(out), "--resume")
    assert result.returncode == 2 and "earlier grader batch" in result.stderr
    result = run("grader", "batch", str(collection), "-o", str(out), "--force", "--no-progress")
    assert result.returncode == 0 and not journal.exists() and out.exists()


def test_dask_local_cluster_gives_the_same_frame(collection, tmp_path):
    distributed = pytest.importorskip("distributed")
    local = grade_many(str(collection))
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        remote = grade_many(str(collection), dask=cluster.scheduler_address)
        out = tmp_path / "dask.csv"
        result = run(
            "grader", "batch", str(collection), "-o", str(out), "--dask", cluster.scheduler_address
        )
    pd.testing.assert_frame_equal(local.drop(columns="seconds"), remote.drop(columns="seconds"))
    assert result.returncode == 0, result.stderr
    assert len(read_frame(out)) == len(local)


def test_puzzles_and_dicts_are_inputs_too():
    puzzle = load(str(EXAMPLES / "tango.json"))[0]
    data = json.loads((EXAMPLES / "binairo.json").read_text())
    frame = grade_many([puzzle, data])
    assert list(frame["family"]) == ["tango", "binairo"]
    assert frame["solved"].all()
    assert make(data).family.name == "binairo"


def test_dask_addresses_are_checked_before_any_client_is_made():
    """A string that cannot be a scheduler's network address is refused at once (a client
    half-made from it used to be collected inside the next client's start and hang there)."""
    from grader.storage.batch import dask_address_problem

    for good in ("tcp://scheduler:8786", "scheduler:8786", "tls://10.0.0.1:8786"):
        assert dask_address_problem(good) is None, good
    for bad in ("no address", "inproc://x", "tcp://scheduler", "http://h:80", ":8786"):
        assert dask_address_problem(bad) is not None, bad


def run_with_dask_timeout(seconds: float, *args: str, cwd=None) -> subprocess.CompletedProcess:
    """``grader ARGS`` with the Dask connection timeout cut to ``seconds`` (an unreachable
    scheduler is otherwise waited for 30 s)."""
    code = (
        "import sys; import grader.storage.batch; "
        f"grader.storage.batch.DASK_TIMEOUT = {seconds}; "
        "from grader.cli import grader_main; sys.argv[0] = 'grader'; grader_main()"
    )
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=cwd, timeout=120
    )


@pytest.mark.parametrize("address", ["bad address", "tcp://127.0.0.1:1"])
def test_a_failed_dask_start_leaves_nothing_that_blocks_a_rerun(tmp_path, address):
    pytest.importorskip("distributed")
    source = tmp_path / "tango.json"
    source.write_text((EXAMPLES / "tango.json").read_text())
    out, bank = tmp_path / "r.csv", tmp_path / "bank.db"
    command = ["batch", str(source), "-o", str(out), "--bank", str(bank), "--no-progress"]
    failed = run_with_dask_timeout(2, *command, "--dask", address)
    assert failed.returncode == 2, failed.stderr
    assert "--dask" in failed.stderr and "Traceback" not in failed.stderr
    assert len(failed.stderr.strip().splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tango.json"]  # no journal, no output
    again = run("grader", *command)
    assert again.returncode == 0, again.stderr
    assert out.exists() and bank.exists() and not journal_path(out).exists()


def test_workers_failing_before_any_row_leave_no_journal(tmp_path, monkeypatch):
    """A cluster that takes the work but fails it (say, workers without the package) is a
    failed start too: nothing was graded, so no journal is kept to refuse the next run."""
    import grader.storage.batch
    from grader.storage.batch import grade_to_file, tasks_from

    def broken(*args, **kwargs):
        raise RuntimeError("no module named grader on the workers")

    monkeypatch.setattr(grader.storage.batch, "grade_chunk", broken)
    out = tmp_path / "r.csv"
    with pytest.raises(RuntimeError):
        grade_to_file(tasks_from(str(EXAMPLES / "tango.json")), out)
    assert list(tmp_path.iterdir()) == []


def test_each_bad_line_is_named_on_one_line_and_the_good_ones_are_written(tmp_path):
    good = json.loads((EXAMPLES / "tango.json").read_text())
    lines = [
        json.dumps({**good, "id": "first"}),
        "{not json",
        json.dumps({**good, "grid": ["SS"]}),
        json.dumps({**good, "family": "nope"}),
        json.dumps({**good, "id": "second"}),
    ]
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join(lines) + "\n")
    out = tmp_path / "out.csv"
    result = run("grader", "batch", str(path), "-o", str(out), "--no-progress")
    assert result.returncode == 2, result.stderr
    stderr = result.stderr.splitlines()
    named = [line for line in stderr if "mixed.jsonl:" in line]
    assert len(named) == 3, result.stderr
    expected = [(2, "", "not valid JSON"), (3, "grid: ", "rows"), (4, "family: ", "unknown")]
    for line, (number, field, problem) in zip(named, expected, strict=True):
        assert line.startswith(f"error: {path}:{number}: {field}") and problem in line, line
    assert "3 puzzle(s) could not be graded" in stderr[-1]
    frame = read_frame(out)
    assert list(frame["error"].isna()) == [True, False, False, False, True]
    assert list(frame.loc[frame["error"].isna(), "id"]) == ["first", "second"]
    assert frame.loc[frame["error"].isna(), "solved"].all()


def test_many_bad_lines_are_named_up_to_a_limit():
    from grader.cli.batch import problem_lines

    rows = [{"source": f"f.jsonl:{n}", "error": f"f.jsonl:{n}: grid: bad"} for n in range(1, 6)]
    rows.insert(2, {"source": "f.jsonl:9", "level": "easy"})
    rows.append({"source": "g.json", "error": "internal error: KeyError: 'x'"})
    assert problem_lines(rows, limit=10)[-1] == "error: g.json: internal error: KeyError: 'x'"
    lines = problem_lines(rows, limit=2)
    assert lines == [
        "error: f.jsonl:1: grid: bad",
        "error: f.jsonl:2: grid: bad",
        "error: ... and 4 more (see the error column)",
    ]


def test_a_timeout_cutting_reports_short_exits_3(tmp_path):
    """As the README says of grade, generate and batch: exit code 3, the rows kept."""
    out = tmp_path / "r.csv"
    source = str(EXAMPLES / "pairplace-k10-expert.json")
    result = run("grader", "batch", source, "-o", str(out), "--timeout", "0.01", "--no-progress")
    assert result.returncode == 3, result.stderr
    assert "1 puzzle(s) cut short by --timeout" in result.stderr
    frame = read_frame(out)
    assert list(frame["status"]) == ["timeout"] and not frame["solved"].any()


def test_a_file_of_game_ids_grades_in_a_batch_as_one_by_one(tmp_path):
    """A text file's puzzles (a sudoku line, a Solo ID, an Unruly ID) reach the workers marked
    as read from a text format, and their rows agree with grading each puzzle alone."""
    from grader.storage.batch import tasks_from

    lines = [
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        "2x3:3a1d4_6c6b1d5b3c2_4d3a5",
        "8x8u:aebakdClaAcCeBGd",
    ]
    source = tmp_path / "ids.txt"
    source.write_text("\n".join(lines) + "\n")
    assert [task.text for task in tasks_from(str(source))] == [True, True, True]
    frame = grade_many(str(source), workers=2)
    alone = [grade(puzzle) for puzzle in load(source)]
    assert list(frame["family"]) == ["sudoku", "sudoku", "binairo"]
    assert list(frame["level"]) == [report.level for report in alone]
    assert list(frame["difficulty"]) == [report.difficulty for report in alone]


def test_batch_takes_family_for_exports_and_game_id_files(tmp_path):
    export, ids = str(EXAMPLES / "tango-export.jsonl"), str(EXAMPLES / "unruly.txt")
    output = tmp_path / "tango.csv"
    result = run("grader", "batch", export, "--family", "tango", "-o", str(output), "--no-progress")
    assert result.returncode == 0, result.stderr
    row = read_frame(output).iloc[0]
    assert row.family == "tango" and row.id == "tango-example" and row.solved
    output = tmp_path / "unruly.csv"
    result = run("grader", "batch", ids, "--family", "binairo", "-o", str(output), "--no-progress")
    assert result.returncode == 0, result.stderr
    frame = read_frame(output)
    assert list(frame.family) == ["binairo", "binairo"] and frame.solved.all()
    assert grade_many(export, family="tango").iloc[0].level == row.level
