"""The first hour at the command line, family by family: what surprised a new user, one test
per surprise (each failed before its fix)."""

from __future__ import annotations

import json

import pytest

from conftest import EXAMPLES
from grader.testing.cli import run_cli


@pytest.mark.parametrize(
    ("args", "usage"),
    [
        (("grade", "--help"), "Usage: grade [OPTIONS] FILES..."),
        (("grader", "solve", "--help"), "Usage: grader solve [OPTIONS] FILES..."),
        (("grader", "bank", "list", "--help"), "Usage: grader bank list [OPTIONS] FILE.db"),
    ],
)
def test_usage_names_the_arguments_as_help_lists_them(args, usage):
    result = run_cli(*args)
    assert result.code == 0
    assert result.stdout.splitlines()[0] == usage


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (("grade", "--timeout", "nan", "tango.json"), "--timeout"),
        (("grader", "hint", "--timeout", "nan", "binairo.json"), "--timeout"),
        (("grader", "batch", "--timeout", "nan", "sudoku.json", "-o", "out.csv"), "--timeout"),
        (("grader", "generate", "tango", "--timeout", "nan", "-o", "out.jsonl"), "--timeout"),
        (
            ("grader", "generate", "tango", "--extra-share", "nan", "-o", "out.jsonl"),
            "--extra-share",
        ),
    ],
)
def test_nan_is_a_bad_option_value_not_an_internal_error(tmp_path, monkeypatch, args, option):
    for name in ("tango.json", "binairo.json", "sudoku.json"):
        (tmp_path / name).write_text((EXAMPLES / name).read_text())
    monkeypatch.chdir(tmp_path)
    result = run_cli(*args)
    assert result.code == 2, result.describe()
    assert result.stderr.startswith(f"error: Invalid value for '{option}': 'nan'")
    assert result.stderr.count("\n") == 1
    assert result.stdout == ""
    assert not (tmp_path / "out.csv").exists() and not (tmp_path / "out.jsonl").exists()


@pytest.mark.parametrize("command", [("grade",), ("grader", "solve"), ("grader", "hint")])
def test_ctrl_c_while_grading_says_interrupted_in_one_line(monkeypatch, command):
    def pressed(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("grader.rating.grading.grade", pressed)
    monkeypatch.setattr("grader.rating.grading.solve", pressed, raising=False)
    monkeypatch.setattr("grader.rating.grading.next_step", pressed, raising=False)
    result = run_cli(*command, str(EXAMPLES / "tango.json"))
    assert result.code == 130
    assert result.stderr == "interrupted\n"


@pytest.mark.parametrize(
    ("family", "known"),
    [
        ("binairo", "unique_lines"),
        ("tango", "none"),
        ("sudoku", "box"),
        ("siteswap", "throws, latin, boxes, nontrivial, distinct, holes, min_distinct_boxes, "
         "min_distinct_runs, solution_tries"),
        ("pairplace", "header, edges, graph"),
        ("path", "decoys"),
    ],
)  # fmt: skip
def test_an_unknown_rule_is_refused_in_the_same_words_by_every_family(tmp_path, family, known):
    out = tmp_path / "out.jsonl"
    result = run_cli("grader", "generate", family, "--rule", "colour=red", "-o", str(out))
    assert result.code == 2, result.describe()
    assert result.stderr == f"error: rules: unknown option 'colour' (known: {known})\n"
    assert not out.exists()


@pytest.mark.parametrize(
    ("family", "rule", "size", "written"),
    [
        ("sudoku", "box=2x3", "6", ("box", [2, 3])),
        ("siteswap", "boxes=2x2", "4", ("rules", {"throws": [1, 9], "boxes": [2, 2]})),
    ],
)
def test_a_box_shape_rule_reads_rows_x_cols_in_every_family(tmp_path, family, rule, size, written):
    out = tmp_path / "out.jsonl"
    args = ("generate", family, "--size", size, "--rule", rule, "--level", "easy")
    result = run_cli("grader", *args, "--no-progress", "-o", str(out))
    assert result.code == 0, result.describe()
    key, value = written
    assert json.loads(out.read_text())[key] == value


@pytest.mark.parametrize(
    "command", [("list",), ("show", "1"), ("export",), ("publish", "1"), ("unpublish", "1")]
)
def test_a_bank_command_leaves_an_empty_file_alone(tmp_path, command):
    empty = tmp_path / "puzzles.json"
    empty.write_bytes(b"")
    result = run_cli("grader", "bank", command[0], str(empty), *command[1:])
    assert result.code == 2, result.describe()
    assert result.stderr == f"error: {empty}: is empty, not a puzzle bank\n"
    assert empty.read_bytes() == b""


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        (["53..7....", "6..195..."], "has 2 rows of 9 cells; a sudoku grid is square"),
        (["1..."] * 3, "has 3 rows of 4 cells; a sudoku grid is square"),
        (["53..7...."] * 8, "has 8 rows of 9 cells; a sudoku grid is square"),
    ],
)
def test_a_sudoku_missing_a_row_says_so(tmp_path, rows, message):
    path = tmp_path / "short.json"
    path.write_text(json.dumps({"family": "sudoku", "grid": rows}))
    result = run_cli("grade", str(path))
    assert result.code == 2, result.describe()
    assert result.stderr == f"error: {path}: grid: {message}\n"


def test_render_of_a_collection_says_which_puzzle_it_drew_as_hint_does(tmp_path):
    collection = tmp_path / "two.jsonl"
    lines = [(EXAMPLES / f"{name}.json").read_text() for name in ("binairo", "tango")]
    collection.write_text("".join(json.dumps(json.loads(line)) + "\n" for line in lines))
    hint = run_cli("grader", "hint", str(collection), "--index", "2")
    assert "puzzle 2 of 2 (two#2); --index N for another" in hint.stdout
    for index, name in (("1", "two#1"), ("2", "two#2")):
        picture = tmp_path / f"{index}.svg"
        result = run_cli("grader", "render", str(collection), "--index", index, "-o", str(picture))
        assert result.code == 0, result.describe()
        which = f"puzzle {index} of 2 ({name}); --index N for another"
        assert result.stderr == f"wrote {picture} ({which})\n"
    single = run_cli(
        "grader", "render", str(EXAMPLES / "tango.json"), "-o", str(tmp_path / "t.svg")
    )
    assert single.stderr == f"wrote {tmp_path / 't.svg'}\n"


@pytest.mark.parametrize("content", [None, "", '{"family": "tango", "grid": ["MS"]}'])
def test_hint_json_of_a_bad_file_prints_the_error_object_grade_and_solve_print(
    tmp_path, monkeypatch, content
):
    monkeypatch.chdir(tmp_path)
    if content is not None:
        (tmp_path / "puzzle.json").write_text(content)
    said = {}
    for command in (("grade",), ("grader", "solve"), ("grader", "hint")):
        result = run_cli(*command, "--json", "puzzle.json")
        assert result.code == 2, result.describe()
        assert result.stderr.count("\n") == 1 and result.stderr.startswith("error: puzzle.json")
        said[command[-1]] = result.json_lines()
    assert said["hint"] == said["solve"] == said["grade"]
    assert said["hint"][0]["id"] == "puzzle.json"


def test_a_technique_typo_gets_the_same_line_from_every_command(tmp_path):
    tango = str(EXAMPLES / "tango.json")
    said = set()
    for args in (
        ("grade", tango),
        ("grader", "solve", tango),
        ("grader", "hint", tango),
        ("grader", "render", tango, "--solve", "-o", str(tmp_path / "t.svg")),
        ("grader", "batch", tango, "-o", str(tmp_path / "t.csv")),
    ):
        result = run_cli(*args, "--techniques", "nakd-single")
        assert result.code == 2, result.describe()
        assert result.stdout == ""
        said.add(result.stderr)
    assert said == {
        "error: --techniques: unknown technique or level 'nakd-single': no family has it "
        "(did you mean naked-single?)\n"
    }
    assert list(tmp_path.iterdir()) == []


def test_dash_as_output_is_standard_output_where_a_command_can_print(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    made = run_cli("grader", "generate", "tango", "--bank", "b.db", "--no-progress", "-o", "-")
    assert made.code == 0, made.describe()
    assert made.json_lines()[0]["family"] == "tango"
    exported = run_cli("grader", "bank", "export", "b.db", "-o", "-")
    assert exported.code == 0, exported.describe()
    assert exported.json_lines()[0]["grid"] == made.json_lines()[0]["grid"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.db"]


@pytest.mark.parametrize(
    "args",
    [
        ("render", str(EXAMPLES / "tango.json")),
        ("batch", str(EXAMPLES / "tango.json")),
        ("histogram", str(EXAMPLES / "tango.json")),
    ],
)
def test_dash_as_output_of_a_file_writer_is_one_clear_line(tmp_path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    result = run_cli("grader", *args, "-o", "-")
    assert result.code == 2, result.describe()
    assert result.stderr == (
        "error: --output: '-' (standard output): this command writes a file; give its name\n"
    )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", ["render", "batch", "histogram"])
def test_a_missing_required_option_points_to_help_as_a_missing_argument_does(command):
    result = run_cli("grader", command, str(EXAMPLES / "tango.json"))
    assert result.code == 2
    assert result.stderr == "error: Missing option '--output' / '-o'. (see --help)\n"
    assert run_cli("grader", command).stderr.endswith("(see --help)\n")


@pytest.mark.parametrize(
    ("example", "change", "line"),
    [
        (  # a model's Python class name is not the file's word
            "binairo.json",
            {"rules": "x"},
            "rules: must be an object",
        ),
        (  # a field of two types says both, not the first one's
            "siteswap_sudoku.json",
            {"rules": {"throws": [1, 9], "latin": True, "boxes": "3x3"}},
            "rules.boxes: must be true or false, or a list",
        ),
    ],
)
def test_a_field_of_the_wrong_type_says_what_the_file_may_hold(tmp_path, example, change, line):
    data = json.loads((EXAMPLES / example).read_text())
    data.update(change)
    path = tmp_path / example
    path.write_text(json.dumps(data))
    result = run_cli("grade", str(path))
    assert result.code == 2, result.describe()
    assert result.stderr == f"error: {path}: {line}\n"


def test_a_directory_given_as_costs_file_says_so(tmp_path):
    result = run_cli("grade", "--costs", str(tmp_path), str(EXAMPLES / "tango.json"))
    assert result.code == 2, result.describe()
    assert result.stderr == f"error: {tmp_path}: is a directory, expected a costs file (TOML)\n"


@pytest.mark.parametrize(
    ("technique", "example", "owners"),
    [
        ("window", "sudoku.json", "binairo and tango"),
        ("naked-single", "tango.json", "siteswap and sudoku"),
        ("loop-ahead", "pairplace.json", "path"),
    ],
)
def test_another_familys_technique_names_whose_it_is(technique, example, owners):
    result = run_cli("grade", "--techniques", technique, str(EXAMPLES / example))
    assert result.code == 2, result.describe()
    assert result.stderr.startswith(
        f"error: {EXAMPLES / example}: --techniques: '{technique}' belongs to {owners}, "
        "not to this puzzle's family (known: "
    )


def test_a_batch_counts_only_the_puzzles_it_could_grade_as_graded(tmp_path):
    wrong = tmp_path / "wrong.txt"
    wrong.write_text("hello world\n")
    table = tmp_path / "o.csv"
    result = run_cli("grader", "batch", str(wrong), str(EXAMPLES / "tango.json"), "-o", str(table))
    assert result.code == 2, result.describe()
    lines = result.stderr.splitlines()
    assert lines[0] == f"error: {wrong}:1: is neither JSON nor a puzzle ID any family knows"
    assert lines[1].startswith("graded 1 of 2 puzzle(s) in ")  # was 'graded 2 puzzle(s)'
    assert lines[2].startswith("error: 1 puzzle(s) could not be graded")
