"""The command line as a user meets it: reports, JSON contract, exit codes, one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import EXAMPLES
from grader.testing.kit import REPORT_KEYS

REQUIRED_KEYS = REPORT_KEYS  # the contract the conformance kit checks too


def run(*args: str, cwd=None) -> subprocess.CompletedProcess:
    code = "import sys; from grader.cli import {0}; sys.argv[0] = '{1}'; {0}()"
    command = ("grader_main", "grader") if args[0] == "grader" else ("grade_main", "grade")
    rest = args[1:]
    return subprocess.run(
        [sys.executable, "-c", code.format(*command), *rest],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
    )


def test_grade_prints_a_report_with_level_and_techniques():
    result = run("grade", str(EXAMPLES / "tango.json"))
    assert result.returncode == 0, result.stderr
    for word in ("solutions", "difficulty", "effort", "level", "hard", "techniques used"):
        assert word in result.stdout


def test_json_report_holds_the_contract_keys():
    result = run("grade", "--json", "--trace", str(EXAMPLES / "binairo.json"))
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert set(report) >= REQUIRED_KEYS
    assert report["solutions"] == 1 and report["solved"] is True
    assert (
        report["size"] == [6, 6] and len(report["grid"]) == 6 and "." not in "".join(report["grid"])
    )
    assert report["settings"]["techniques"]["pair"] == 1.0
    steps = report["steps"]
    assert steps and {"technique", "cost", "explanation"} <= set(steps[0])
    assert report["difficulty"] == max(s["cost"] for s in steps)
    assert report["total_cost"] == pytest.approx(sum(s["cost"] for s in steps))
    assert report["difficulty"] ** 2 <= report["effort"] <= len(steps) * report["difficulty"] ** 2


def test_several_files_give_json_lines_and_unruly_ids_load():
    result = run("grade", "--json", str(EXAMPLES / "binairo.json"), str(EXAMPLES / "unruly.txt"))
    lines = [json.loads(x) for x in result.stdout.splitlines()]
    assert len(lines) == 3 and lines[2]["size"] == [8, 8]
    assert lines[1]["grid"] == lines[0]["grid"]  # the Unruly ID of the same puzzle


def test_trace_explains_steps_in_plain_words():
    result = run("grade", "--trace", str(EXAMPLES / "binairo.json"))
    assert "are both" in result.stdout and "  1. " in result.stdout


def test_costs_file_changes_the_rating(tmp_path):
    costs = tmp_path / "costs.toml"
    costs.write_text("[binairo]\nwindow = 3.7\n")
    result = run("grade", "--json", "--costs", str(costs), str(EXAMPLES / "binairo.json"))
    report = json.loads(result.stdout)
    assert report["difficulty"] == 3.7
    assert report["settings"]["techniques"]["window"] == 3.7


def test_solve_and_hint_json_carry_version_and_settings_as_grade_does(tmp_path):
    costs = tmp_path / "costs.toml"
    costs.write_text("[binairo]\nwindow = 3.7\n")
    args = ("--json", "--costs", str(costs), str(EXAMPLES / "binairo.json"))
    graded = json.loads(run("grade", *args).stdout)
    solved = json.loads(run("grader", "solve", *args).stdout)
    hinted = json.loads(run("grader", "hint", *args).stdout)
    for payload in (solved, hinted):
        assert payload["version"] == graded["version"]
        assert payload["settings"]["techniques"]["window"] == 3.7
    assert hinted["settings"] == graded["settings"]  # hint runs as grade does
    guessing = solved["settings"]  # solve guesses when stuck: grade --guess
    assert guessing["guess"] is True and guessing["exact"] == graded["settings"]["exact"]
    assert set(guessing["techniques"]) == {*graded["settings"]["techniques"], "guess"}


def test_techniques_option_restricts_the_set():
    result = run("grade", "--json", "--techniques", "trivial", str(EXAMPLES / "binairo.json"))
    report = json.loads(result.stdout)
    assert report["solved"] is False and report["level"] == "unsolved"
    assert set(report["settings"]["techniques"]) == {"pair", "sandwich", "last-cell"}


@pytest.mark.parametrize("selection", ["", ",", " , "])
def test_a_selection_naming_nothing_is_one_line_of_error(selection, tmp_path):
    """``--techniques ''`` is not "every technique" (that is no option at all): like ``','`` it
    names nothing, in every command, and nothing is graded."""
    tango, out = str(EXAMPLES / "tango.json"), tmp_path / "out.csv"
    for args in (
        ("grade", "--techniques", selection, tango),
        ("grader", "solve", "--techniques", selection, tango),
        ("grader", "batch", "--techniques", selection, tango, "-o", str(out)),
    ):
        result = run(*args)
        assert result.returncode == 2, (args, result.stdout)
        assert result.stderr == f"error: --techniques: {selection!r} names no technique or level\n"
        assert not result.stdout and not out.exists()


def test_a_technique_some_families_lack_refuses_only_their_puzzles():
    """``--techniques naked-single`` over several families: the sudoku is graded and shown,
    the tango and the binairo get one line each naming the file and their family's techniques,
    the JSON lines stay JSON, and the exit code says some were refused."""
    files = [str(EXAMPLES / name) for name in ("tango.json", "sudoku.json", "binairo.json")]
    result = run("grade", "--json", "--techniques", "naked-single", *files)
    assert result.returncode == 2, result.stderr
    reports = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r.get("family") for r in reports] == [None, "sudoku", None]
    assert set(reports[1]["settings"]["techniques"]) == {"naked-single"}
    assert [r["error"] for r in reports if "error" in r] == [
        line.removeprefix("error: ") for line in result.stderr.splitlines()
    ]
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 2, result.stderr
    for line, name, known in zip(lines, ("tango", "binairo"), ("sign", "window"), strict=True):
        assert line.startswith(
            f"error: {EXAMPLES / name}.json: --techniques: 'naked-single' belongs to siteswap "
            "and sudoku, not to this puzzle's family (known: "
        )
        assert known in line
    shown = run("grade", "--techniques", "naked-single", *files)
    assert shown.returncode == 2 and len(shown.stderr.strip().splitlines()) == 2
    assert "sudoku" in shown.stdout and "difficulty" in shown.stdout
    nowhere = run("grade", "--techniques", "naked-single,teleport", *files)
    assert (nowhere.returncode, nowhere.stdout) == (2, "")
    assert nowhere.stderr.count("\n") == 1 and "'teleport'" in nowhere.stderr


def test_solve_refuses_only_the_puzzles_whose_family_lacks_a_technique():
    """``grader solve --techniques naked-single`` over several families, as grade: the sudoku
    is solved and shown, the tango and the binairo get one line each, the JSON lines stay
    JSON, exit 2; a name no family has stops it at once in one line."""
    files = [str(EXAMPLES / name) for name in ("tango.json", "sudoku.json", "binairo.json")]
    result = run("grader", "solve", "--json", "--techniques", "naked-single", *files)
    assert result.returncode == 2, result.stderr
    payloads = [json.loads(line) for line in result.stdout.splitlines()]
    assert [p.get("family") for p in payloads] == [None, "sudoku", None]
    assert payloads[1]["solved_by"] == "techniques" and len(payloads[1]["solution"]) == 9
    assert [p["error"] for p in payloads if "error" in p] == [
        line.removeprefix("error: ") for line in result.stderr.splitlines()
    ]
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 2, result.stderr
    for line, name in zip(lines, ("tango", "binairo"), strict=True):
        assert line.startswith(
            f"error: {EXAMPLES / name}.json: --techniques: 'naked-single' belongs to siteswap "
            "and sudoku, not to this puzzle's family (known: "
        )
    shown = run("grader", "solve", "--techniques", "naked-single", *files)
    assert shown.returncode == 2 and len(shown.stderr.strip().splitlines()) == 2
    assert "sudoku: solved by deduction" in shown.stdout
    nowhere = run("grader", "solve", "--techniques", "naked-single,teleport", *files)
    assert (nowhere.returncode, nowhere.stdout) == (2, "")
    assert nowhere.stderr.count("\n") == 1 and "'teleport'" in nowhere.stderr


def test_hint_prints_only_the_next_step():
    result = run("grader", "hint", "--json", str(EXAMPLES / "binairo.json"))
    hint = json.loads(result.stdout)["hint"]
    assert hint["technique"] == "pair" and hint["explanation"].startswith("r1c1 = 0")


def test_hint_on_a_collection_names_its_puzzle_and_takes_an_index():
    """A file of several puzzles: the hint says which it is for; --index picks another, and
    one beyond the file is one line and exit 2."""
    collection = str(EXAMPLES / "collection.jsonl")
    first = run("grader", "hint", collection)
    assert first.returncode == 0 and first.stdout.startswith("puzzle 1 of 6 (binairo);")
    second = run("grader", "hint", "--json", "--index", "2", collection)
    assert json.loads(second.stdout)["id"] == "tango"
    beyond = run("grader", "hint", "--index", "99", collection)
    assert beyond.returncode == 2
    assert beyond.stderr == f"error: --index: {collection} holds 6 puzzle(s), not 99\n"
    single = run("grader", "hint", str(EXAMPLES / "tango.json"))
    assert "of 1" not in single.stdout and "--index" not in single.stdout


def empty_binairo(tmp_path, size: int = 60):
    """An empty binairo large enough that no command finishes it within a second."""
    path = tmp_path / f"big{size}.json"
    grid = ["." * size] * size
    path.write_text(json.dumps({"family": "binairo", "size": [size, size], "grid": grid}))
    return path


def test_hint_timeout_cuts_the_search_short_and_says_so(tmp_path):
    big = str(empty_binairo(tmp_path))
    result = run("grader", "hint", "--timeout", "1", big)
    assert result.returncode == 3, result.stderr
    assert "note: timed out after 1 s before a step was found; no hint" in result.stdout
    assert "no technique applies" not in result.stdout
    result = run("grader", "hint", "--json", "--timeout", "1", big)
    assert result.returncode == 3, result.stderr
    payload = json.loads(result.stdout)
    assert payload["hint"] is None and payload["solutions"] is None
    assert any("timed out after 1 s" in note for note in payload["notes"])
    result = run("grader", "hint", "--timeout", "30", str(EXAMPLES / "binairo.json"))
    assert result.returncode == 0 and "pair (cost 1)" in result.stdout, result.stderr
    assert "note:" not in result.stdout


def test_contradictory_givens_are_a_report_not_an_error(tmp_path):
    bad = tmp_path / "c.json"
    bad.write_text(json.dumps({"family": "binairo", "grid": ["000...", *["......"] * 5]}))
    result = run("grade", "--json", str(bad))
    assert result.returncode == 0
    report = json.loads(result.stdout)
    assert report["solutions"] == 0 and report["level"] == "invalid"
    assert report["contradiction"] == "row 1 holds three 0s in a row"


def test_schema_is_json_schema():
    result = run("grader", "schema", "tango")
    schema = json.loads(result.stdout)
    assert schema["properties"]["family"]["const"] == "tango"


BAD_INPUTS = {
    "not-json.json": ("{family: binairo", "is not valid JSON"),
    "missing-grid.json": ('{"family": "binairo"}', "grid: is missing"),
    "missing-family.json": ('{"grid": ["01"]}', "family: is missing"),
    "unknown-family.json": ('{"family": "kakuro", "grid": []}', "unknown family 'kakuro'"),
    "row-length.json": (
        '{"family": "binairo", "grid": ["0101", "010", "....", "...."]}',
        "grid: row 2 has 3 cells, expected 4",
    ),
    "symbol.json": (
        '{"family": "binairo", "grid": ["01x1", "....", "....", "...."]}',
        "grid: row 1 column 3: unknown symbol 'x'",
    ),
    "odd.json": ('{"family": "binairo", "grid": ["...", "...", "..."]}', "size: 3 rows is odd"),
    "sign.json": (
        '{"family": "tango", "grid": ["....", "....", "....", "...."], '
        '"signs": [[0, 0, 1, 1, "="]]}',
        "signs[0]: cells (0, 0) and (1, 1) are not neighbours",
    ),
    "sign-kind.json": (
        '{"family": "tango", "grid": ["....", "....", "....", "...."], '
        '"signs": [[0, 0, 0, 1, "+"]]}',
        "signs[0][4]",
    ),
    "list.json": ("[1]", "expected a JSON object"),
    "empty.json": ("", "is empty"),
    "unruly.txt": ("6x6:BAFCH", "Unruly game ID describes"),
    "extra.json": (
        '{"family": "binairo", "grid": ["01", "10"], "colour": 1}',
        "colour: is not a known field",
    ),
}


def test_each_bad_puzzle_of_a_file_gets_its_line_and_the_others_are_graded(tmp_path):
    good = json.dumps(json.loads((EXAMPLES / "binairo.json").read_text()))
    path = tmp_path / "mixed.jsonl"
    path.write_text(f'{good}\n# a comment\n{{"family": "binairo"}}\n{good}\n[1]\n')
    result = run("grade", "--json", str(path))
    assert result.returncode == 2
    reports = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r.get("solutions") for r in reports] == [1, None, 1, None]
    assert [r["id"] for r in reports if "error" not in r] == ["mixed#1", "mixed#3"]  # no comment
    lines = result.stderr.strip().splitlines()
    assert [line.split(": ")[1][len(str(tmp_path)) + 1 :] for line in lines] == [
        "mixed.jsonl:3",
        "mixed.jsonl:5",
    ]
    assert "grid: is missing" in lines[0] and "expected a JSON object" in lines[1]


@pytest.mark.parametrize("name", sorted(BAD_INPUTS))
def test_bad_input_gets_one_line_and_exit_code_2(tmp_path, name):
    content, expected = BAD_INPUTS[name]
    path = tmp_path / name
    path.write_text(content)
    result = run("grade", str(path))
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"error: {path}")
    assert expected in lines[0]
    assert "Traceback" not in result.stderr


def test_binary_file_directory_and_missing_file(tmp_path):
    garbage = tmp_path / "g.json"
    garbage.write_bytes(b"\x00\xff\xfe\x01" * 10)
    for target, expected in (
        (garbage, "not a text file"),
        (tmp_path, "is a directory"),
        (tmp_path / "none.json", "no such file"),
    ):
        result = run("grade", str(target))
        assert result.returncode == 2 and expected in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1


def test_bad_option_is_one_line():
    result = run("grade", "--timeout", "-3", str(EXAMPLES / "binairo.json"))
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and "--timeout" in result.stderr


def test_html_trace_of_a_file_holding_every_family(tmp_path):
    # The commands drop a puzzle's caches once it is graded; the page is drawn after that.
    mixed = tmp_path / "mixed.jsonl"
    lines = []
    for name in ("binairo", "tango", "sudoku", "siteswap_3x4", "path", "pairplace"):
        lines.append(json.dumps(json.loads((EXAMPLES / f"{name}.json").read_text())))
    mixed.write_text("\n".join(lines) + "\n")
    page = tmp_path / "trace.html"
    result = run("grade", "--html", str(page), str(mixed))
    assert result.returncode == 0, result.stderr
    text = page.read_text()
    assert text.count("<svg") >= 6 and "internal error" not in result.stderr


def test_family_option_reads_files_that_do_not_name_their_family(tmp_path):
    export = EXAMPLES / "tango-export.jsonl"
    refused = run("grade", str(export))
    assert refused.returncode == 2 and "give --family NAME" in refused.stderr
    result = run("grade", "--json", "--family", "tango", str(export))
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["family"] == "tango" and report["id"] == "tango-example"
    assert report["solutions"] == 1 and report["solved"]
    unknown = run("grade", "--family", "tangoo", str(export))
    assert unknown.returncode == 2 and "unknown family 'tangoo'" in unknown.stderr


def test_a_file_of_many_bad_puzzles_names_twenty_and_counts_the_rest(tmp_path):
    path = tmp_path / "many.jsonl"
    path.write_text('{"grid": ["01", "10"]}\n' * 25)
    result = run("grade", str(path))
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2 and len(lines) == 21
    assert lines[-1].endswith("... and 5 more puzzles that do not load")
