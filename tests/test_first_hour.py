"""Issue 15, the first hour: what a new user trips over, one test per bug."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest
from test_cli import run

import grader
from conftest import EXAMPLES
from grader.core.errors import InputError
from grader.storage.batch import read_frame
from grader.testing.cli import CliResult, run_cli


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
    assert "8x8u:aebakdClaAcCeBGx: id: Unruly game ID describes 84 cells" in result.stderr


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
    assert result.stdout.strip() == f"{app} {grader.__version__}"


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
    heavy = "('pandas', 'pydantic', 'grader.storage.batch', 'rich')"
    code = f"import sys, grader; print(sorted(m for m in {heavy} if m in sys.modules))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.strip() == "[]"


@pytest.mark.parametrize(
    "line",
    [
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        "2x3:3a1d4_6c6b1d5b3c2_4d3a5",
        "8x8u:aebakdClaAcCeBGd",
    ],
)
def test_grading_a_text_format_imports_no_pydantic(tmp_path, line):
    """A file of puzzle lines (sudoku strings, Solo and Unruly game IDs) is read without the
    file schemas, so ``grade`` never imports pydantic (nor does typer before 0.29): a third of
    the start-up of a command that grades such a file."""
    source = tmp_path / "lines.txt"
    source.write_text(line + "\n")
    code = (
        "import sys\nfrom grader.cli import grade_main\n"
        "sys.argv = ['grade', '--json', sys.argv[1]]\n"
        "try:\n    grade_main()\nexcept SystemExit as end:\n    code = end.code\n"
        "print(code, sorted(m for m in ('pydantic', 'rich') if m in sys.modules), "
        "file=sys.stderr)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, str(source)], capture_output=True, text=True
    )
    assert json.loads(result.stdout)["solutions"] == 1
    assert result.stderr.strip() == "0 []"


@pytest.mark.parametrize(
    "example", ["sudoku", "tango", "binairo", "path", "pairplace", "siteswap_3x4"]
)
def test_grading_loads_no_generator_table_or_drawing(example):
    """Grading one puzzle of each family imports none of what only other commands use."""
    heavy = (
        "('grader.generation.generator', 'grader.storage.batch', 'pandas', 'matplotlib', 'rich')"
    )
    code = (
        f"import sys, grader; grader.grade({str(EXAMPLES / (example + '.json'))!r}); "
        f"print(sorted(m for m in {heavy} if m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.strip() == "[]", result.stderr


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


def test_size_is_rows_by_cols_in_generate_reports_and_bank(tmp_path):
    made = run(
        "grader", "generate", "siteswap", "--size", "4x3", "--level", "easy", "--seed", "1",
        "--rule", "nontrivial=true", "--rule", "distinct=true", "--bank", "ss.db",
        "-o", "ss.jsonl", cwd=tmp_path,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    data = json.loads((tmp_path / "ss.jsonl").read_text().splitlines()[0])
    assert len(data["grid"]) == 4 and len(data["grid"][0]) == 3
    report = json.loads(run("grade", "--json", "ss.jsonl", cwd=tmp_path).stdout)
    assert report["size"] == [4, 3]
    listed = run("grader", "bank", "list", "ss.db", "--size", "4x3", "--json", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert len(listed.stdout.strip().splitlines()) == 1


def test_families_show_default_sizes_and_options():
    result = run("grader", "families")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert any(line.startswith("sudoku") and "default size 9x9" in line for line in lines)
    assert any(line.startswith("pairplace") and "K6" in line for line in lines)
    assert "unique_lines" in result.stdout and "nontrivial" in result.stdout


def test_generate_makes_the_family_default_size():
    result = run("grader", "generate", "sudoku", "--level", "easy", "--seed", "2")
    assert result.returncode == 0, result.stderr
    assert len(json.loads(result.stdout)["grid"]) == 9


@pytest.mark.parametrize("family", ["binairo", "tango", "sudoku", "siteswap", "path", "pairplace"])
def test_guess_is_in_every_table(family):
    from grader.rating.costs import technique_table
    from grader.rating.loading import puzzle_from_dict
    from grader.rating.registry import get_family

    fam = get_family(family)
    model = puzzle_from_dict(fam.example, family, family).model
    specs = {spec.technique_name: spec for spec in technique_table(fam, model)}
    assert "guess" in specs and not specs["guess"].default


def test_solve_prints_the_solution_and_says_who_found_it():
    result = run("grader", "solve", "--json", "--techniques", "pair", str(EXAMPLES / "tango.json"))
    assert result.returncode == 0, result.stderr
    payload = json.loads(result.stdout)
    assert payload["solved_by"] == "guesses" and "." not in "".join(payload["solution"])
    assert payload["steps"] and payload["steps"][0]["technique"]
    text = run("grader", "solve", str(EXAMPLES / "binairo.json"))
    assert "solved by deduction" in text.stdout and "  1. [" in text.stdout


def test_solve_falls_back_on_the_exact_search():
    from grader.cli.grading import solve_one, solve_text

    puzzle = grader.load(str(EXAMPLES / "tango.json"))[0]
    options = grader.GradeOptions(techniques="pair", guess=False)
    result, how, grid = solve_one(puzzle, options)
    assert how == "exact search" and grid is not None and "." not in "".join(grid)
    assert solve_text(result, how).startswith("solution from the exact search")


def test_progress_lines_when_stderr_is_not_a_terminal(capsys):
    from grader.cli.common import ProgressLines
    from grader.cli.generate import _Progress

    lines = ProgressLines("grading", 10, every=0.0)
    lines(3)
    assert capsys.readouterr().err.startswith("grading: 3 of 10 done, ")
    with _Progress(True, "tango 6x6 hard", 2) as advance:  # pytest's stderr is no terminal
        advance()
    assert capsys.readouterr().out == ""


def test_bank_for_a_daily_site(tmp_path):
    def grader_(*args):
        result = run("grader", *args, cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        return result

    making = ("generate", "tango", "--level", "easy", "-n", "2", "--seed", "1", "--bank", "s.db")
    grader_(*making)
    again = grader_(*making)
    assert "nothing new was made" in again.stderr and "--seed" in again.stderr
    listed = [json.loads(x) for x in grader_("bank", "list", "s.db", "--json").stdout.splitlines()]
    backwards = grader_("bank", "list", "s.db", "--json", "--order", "-added").stdout.splitlines()
    assert [json.loads(x)["ref"] for x in backwards] == [e["ref"] for e in reversed(listed)]
    header = grader_("bank", "list", "s.db", "--published", "-n", "1").stdout
    assert "0 of 0 matching" in header
    grader_("bank", "publish", "s.db", listed[0]["ref"])
    published = grader_("bank", "list", "s.db", "--published", "--json").stdout.splitlines()
    assert [json.loads(x)["ref"] for x in published] == [listed[0]["ref"]]
    grader_("bank", "unpublish", "s.db", listed[0]["ref"])
    grader_("bank", "export", "s.db", "--limit", "1", "-o", "site.jsonl")
    exported = json.loads((tmp_path / "site.jsonl").read_text())
    assert exported["solution"] and exported["meta"]["seed"] == 1 and exported["meta"]["version"]
    report = json.loads(run("grade", "--json", "site.jsonl", cwd=tmp_path).stdout)
    assert report["solution_check"] == "matches"
    pointed = run("grader", "render", "s.db", "-o", "x.svg", cwd=tmp_path)
    assert pointed.returncode == 2 and "grader bank export" in pointed.stderr


def test_families_show_every_option_and_the_levels():
    result = run("grader", "families")
    assert result.returncode == 0
    assert "decoys" in result.stdout  # path's generate option
    levels = [line for line in result.stdout.splitlines() if line.strip().startswith("levels:")]
    assert len(levels) >= 6 and all("trivial" in line for line in levels)


def test_without_the_exact_search_the_report_says_which_techniques_were_left_out():
    result = run("grade", "--no-exact", str(EXAMPLES / "sudoku.json"))
    assert result.returncode == 0, result.stderr
    text = " ".join(result.stdout.split())
    assert "the exact search was off" in text and "unique-rectangle" in text
    report = json.loads(run("grade", "--json", "--no-exact", str(EXAMPLES / "sudoku.json")).stdout)
    assert any("unique-rectangle" in note for note in report["notes"])


def test_a_piped_trace_keeps_whole_lines_without_trailing_spaces():
    result = run("grade", "--trace", str(EXAMPLES / "tango.json"))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert not [line for line in lines if line != line.rstrip()]
    steps = [line for line in lines if line[:5].strip().rstrip(".").isdigit()]
    assert steps and max(len(line) for line in steps) > 80  # not cut at 80 columns when piped


def test_text_boards_show_tango_signs():
    result = run("grader", "solve", str(EXAMPLES / "tango.json"))
    assert result.returncode == 0, result.stderr
    board = result.stdout.split("  1. ")[0]
    assert "=" in board and "x" in board


def test_the_readme_links_only_files_of_the_repository():
    import re

    from conftest import ROOT

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text):
        if target.startswith(("http://", "https://")):
            continue
        assert not target.startswith(".."), target
        assert (ROOT / target).exists(), target


def test_the_shared_collections_load_as_they_are():
    from conftest import shared

    for name in (
        "siteswap_examples.json",
        "path_puzzles_examples.json",
        "pair_place_examples.json",
    ):
        assert grader.load(shared(name)), name
    tangos = grader.load(shared("tango_real.jsonl"), family="tango")
    assert len(tangos) >= 100


def test_an_id_in_brackets_and_a_wide_grid_print_as_they_are(tmp_path):
    """A puzzle id is printed as written (rich markup is not read in it), and a grid wider than
    the 80 columns of a pipe keeps each row on one line."""
    rows = ["".join("01"[(r + c) % 2] if (r * c) % 5 else "." for c in range(42)) for r in range(6)]
    source = tmp_path / "wide.json"
    source.write_text(
        json.dumps({"family": "binairo", "size": [6, 42], "grid": rows, "id": "[/daily]"})
    )
    result = run("grade", str(source))
    assert result.returncode == 0, result.stderr
    assert "[/daily]" in result.stdout.splitlines()[0]
    shown = [line.strip("│ ").split(" ") for line in result.stdout.splitlines()]
    board = [cells for cells in shown if len(cells) > 20 and all(len(c) == 1 for c in cells)]
    assert [len(cells) for cells in board] == [42] * 6


def test_small_slips_end_in_one_clear_line(tmp_path):
    """An empty file name, an unknown family or level for the bank, a puzzle file given to
    histogram."""
    empty = run("grade", "")
    assert (empty.returncode, empty.stderr) == (
        2,
        "error: '': is an empty name, expected a puzzle file\n",
    )
    bank = run("grader", "bank", "list", "--family", "chess", str(tmp_path / "p.db"))
    assert bank.returncode == 2 and bank.stderr.startswith(
        "error: --family: unknown family 'chess'"
    )
    level = run("grader", "bank", "list", "--level", "hrad", str(tmp_path / "p.db"))
    assert (level.returncode, level.stderr.count("\n")) == (2, 1), level.stderr
    assert level.stderr.startswith("error: --level: unknown level 'hrad' (known: trivial")
    kept = run("grader", "bank", "list", "--level", "unsolved", str(tmp_path / "p.db"))
    assert kept.returncode != 2 or "unknown level" not in kept.stderr  # a bank stores unsolved
    chart = run("grader", "histogram", str(EXAMPLES / "tango.json"), "-o", str(tmp_path / "h.png"))
    assert chart.returncode == 2 and len(chart.stderr.strip().splitlines()) == 1, chart.stderr
    assert "cannot be read as a table of batch results" in chart.stderr


def test_a_technique_one_family_lacks_is_that_puzzles_problem_in_a_batch(tmp_path):
    """``--techniques window`` names a binary technique: in a batch the sudoku's row says so
    (an option its family cannot take, not an internal error) and the others are graded."""
    files = [str(EXAMPLES / name) for name in ("tango.json", "sudoku.json", "binairo.json")]
    table = tmp_path / "g.csv"
    result = run("grader", "batch", "--techniques", "window", *files, "-o", str(table))
    assert result.returncode == 2, result.stderr  # a batch with a puzzle left ungraded
    assert "internal error" not in result.stderr
    assert (
        "sudoku.json: --techniques: 'window' belongs to binairo and tango, not to this puzzle's "
        "family" in result.stderr
    )
    rows = table.read_text().splitlines()
    assert len(rows) == 4
    errors = read_frame(table)["error"].isna().tolist()  # tango, sudoku, binairo in order
    assert errors == [True, False, True]  # the others are graded, the sudoku's row is an error


WIDE = [  # a 6x42 binairo with one blank per row (each forced by its row's count)
    "101.01101101101101100100100100100100100101",
    "1010101010.0101010101010101010101010101010",
    "01010101010101010101.101010101010101010101",
    "101010101010101010101010101010.01010101010",
    "0101010101010101010101010101010101010101.1",
    "01001.010010010010011011011011011011011010",
]


def test_solve_keeps_each_row_of_a_wide_grid_on_one_line(tmp_path):
    source = tmp_path / "wide.json"
    source.write_text(json.dumps({"family": "binairo", "size": [6, 42], "grid": WIDE}))
    result = run("grader", "solve", "--no-steps", str(source))
    assert result.returncode == 0, result.stderr
    board = [line.split(" ") for line in result.stdout.splitlines()[1:]]
    assert [len(cells) for cells in board] == [42] * 6, result.stdout


def test_a_trace_keeps_each_row_of_a_wide_grid_on_one_line(tmp_path):
    source = tmp_path / "wide.json"
    source.write_text(json.dumps({"family": "binairo", "size": [6, 42], "grid": WIDE}))
    result = run("grade", "--trace", str(source))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    start = lines.index("start")
    board = [line.split(" ") for line in lines[start + 1 : start + 7]]
    assert [len(cells) for cells in board] == [42] * 6, result.stdout


# ---------------------------------------------------------------------------------------------
# issue 51: `-` is standard input
# ---------------------------------------------------------------------------------------------

# command → (example piped in, what the output shows of it)
STDIN_COMMANDS = {
    "grade": ("tango.json", ["grade", "--json", "-"]),
    "grade-lines": ("unruly.txt", ["grade", "--json", "-"]),
    "solve": ("sudoku.json", ["grader", "solve", "--json", "-"]),
    "hint": ("binairo.json", ["grader", "hint", "--json", "-"]),
    "canon": ("pairplace.json", ["grader", "canon", "-"]),
    "render": ("path.json", ["grader", "render", "-", "-o", "{tmp}/board.svg"]),
    "batch": ("collection.jsonl", ["grader", "batch", "-", "-o", "{tmp}/grades.csv"]),
}


def run_with_stdin(args: list[str], data: bytes, monkeypatch) -> CliResult:
    """``cat FILE | grade ...``, in this process."""
    stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", stdin)
    return run_cli(*args)


@pytest.mark.parametrize("name", sorted(STDIN_COMMANDS))
def test_a_dash_reads_standard_input(name, tmp_path, monkeypatch):
    example, args = STDIN_COMMANDS[name]
    data = (EXAMPLES / example).read_bytes()
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    result = run_with_stdin(args, data, monkeypatch)
    assert result.code == 0, result.describe()
    from_file = run_cli(*[str(EXAMPLES / example) if a == "-" else a for a in args])
    if name == "canon":  # the same key, the puzzle named after its source
        assert result.stdout.startswith("<stdin>")
        key = result.stdout.removeprefix("<stdin>").strip()
        assert key == from_file.stdout.removeprefix("pairplace").strip()
    elif name == "batch":
        frame = read_frame(tmp_path / "grades.csv")
        assert len(frame) == len(data.splitlines())
        assert all(str(source).startswith("<stdin>:") for source in frame["source"])
    elif name == "render":
        assert (tmp_path / "board.svg").read_text().startswith("<?xml")
    else:
        # the same reports (but how long they took), the file's name in a default id <stdin>
        stem = example.rsplit(".", 1)[0]
        read = [{**r, "id": r["id"].replace(stem, "<stdin>")} for r in from_file.json_lines()]
        timeless = [{k: v for k, v in r.items() if k != "seconds"} for r in result.json_lines()]
        assert timeless == [{k: v for k, v in r.items() if k != "seconds"} for r in read]


def test_cat_into_grade_dash_grades_it():
    """The real pipe of a real process: ``cat tango.json | grade -``."""
    code = "import sys; from grader.cli import grade_main; sys.argv[0] = 'grade'; grade_main()"
    done = subprocess.run(
        [sys.executable, "-c", code, "--json", "-"],
        input=(EXAMPLES / "tango.json").read_bytes(),
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["id"] == "<stdin>" and report["solutions"] == 1


def test_a_bad_puzzle_on_standard_input_is_named_stdin(monkeypatch):
    result = run_with_stdin(["grade", "-"], b'{"family": "binairo", "grid": 5}', monkeypatch)
    assert result.code == 2
    assert result.stderr.strip().startswith("error: <stdin>: grid")
