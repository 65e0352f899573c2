"""The bad-input corpus: every case gets one line naming the file, the field and the problem,
exit code 2 and no traceback, whatever the family or command.

The commands run in-process (the same ``_main`` the console scripts call) to keep the corpus
quick; ``test_cli.py`` runs the real scripts in subprocesses.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import EXAMPLES
from grader.cli import grade_main, grader_main

BLANK6 = ["......"] * 6


def binairo(**fields) -> str:
    return json.dumps({"family": "binairo", "grid": BLANK6, **fields})


def tango(**fields) -> str:
    return json.dumps({"family": "tango", "grid": BLANK6, **fields})


def sudoku(**fields) -> str:
    return json.dumps({"family": "sudoku", "grid": ["." * 9] * 9, **fields})


def family(name: str, **fields) -> str:
    return json.dumps({"family": name, **fields})


def path(**fields) -> str:
    room = {"size": [4, 4], "row_clues": [1, 1, 1, 1], "col_clues": [1, 1, 1, 1]}
    return family("path", **{**room, "doors": [[0, 1, "N"], [0, 0, "W"]], **fields})


# name → (file content, words the one line must hold besides the file's path)
FILES: dict[str, tuple[str | bytes, str]] = {
    # any family
    "empty.json": ("", "is empty"),
    "blank.json": ("   \n\n  ", "is empty"),
    "empty-list.json": ("[]", "holds no puzzle (an empty list)"),
    "garbage.json": (b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe", "not a text file"),
    "broken.json": ('{"family": "binairo", "grid": [', "is not valid JSON"),
    "null.json": ("null", "expected a JSON object"),
    "number.json": ("42", "expected a JSON object"),
    "array-of-a-number.json": ("[3]", "expected a JSON object"),
    "no-family.json": ('{"grid": ["01", "10"]}', "family: is missing"),
    "family-number.json": ('{"family": 7, "grid": ["01", "10"]}', "family"),
    "unknown-family.json": ('{"family": "kakuro", "grid": ["01"]}', "unknown family 'kakuro'"),
    "unknown-field.json": (binairo(colour="red"), "colour: is not a known field"),
    "text.txt": ("hello world", "neither JSON nor a puzzle ID"),
    "many-bad-line.jsonl": (binairo() + "\n" + "{oops\n", ".jsonl:2: is not valid JSON"),
    "many-bad-puzzle.jsonl": (binairo() + "\n" + binairo(grid=["0"]) + "\n", ".jsonl:2: size"),
    # binairo
    "binairo-grid-number.json": ('{"family": "binairo", "grid": 5}', "grid"),
    "binairo-row-number.json": ('{"family": "binairo", "grid": [101, 10]}', "grid"),
    "binairo-ragged.json": (binairo(grid=["......", ".....", *BLANK6[2:]]), "row 2 has 5 cells"),
    "binairo-symbol.json": (binairo(grid=["..2...", *BLANK6[1:]]), "unknown symbol '2'"),
    "binairo-odd.json": (binairo(grid=["....."] * 5), "odd"),
    "binairo-too-large.json": (binairo(grid=["." * 202] * 202), "limit"),
    "binairo-no-rows.json": (binairo(grid=[]), "grid"),
    "binairo-rules-type.json": (binairo(rules={"unique_lines": "often"}), "unique_lines"),
    "binairo-rules-unknown.json": (binairo(rules={"no_triples": True}), "no_triples"),
    "binairo-solution-short.json": (binairo(solution=["010101"]), "solution"),
    "binairo-solution-open.json": (binairo(solution=["......"] * 6), "solution"),
    "binairo-size-mismatch.json": (binairo(size=[8, 8]), "size"),
    "unruly-odd.txt": ("5x5:aaaa", "Unruly"),
    "unruly-chars.txt": ("6x6:!!!!", "Unruly game ID: '!' is not a letter"),
    "unruly-long.txt": ("6x6:" + "B" * 60, "Unruly"),
    # tango
    "tango-symbol.json": (tango(grid=["0.....", *BLANK6[1:]]), "unknown symbol '0'"),
    "tango-sign-outside.json": (tango(signs=[[5, 5, 5, 6, "="]]), "outside the grid"),
    "tango-sign-far.json": (tango(signs=[[0, 0, 2, 0, "x"]]), "not neighbours"),
    "tango-sign-kind.json": (tango(signs=[[0, 0, 0, 1, "+"]]), "signs[0][4]"),
    "tango-sign-arity.json": (tango(signs=[[0, 0, 0, "="]]), "signs[0]"),
    "tango-sign-twice.json": (
        tango(signs=[[0, 0, 0, 1, "="], [0, 1, 0, 0, "x"]]),
        "a second sign between the same two cells",
    ),
    "tango-sign-negative.json": (tango(signs=[[-1, 0, 0, 0, "="]]), "outside the grid"),
    "tango-signs-type.json": (tango(signs="all equal"), "signs"),
    "tango-odd.json": (tango(grid=["....."] * 5), "odd"),
    # sudoku
    "sudoku-short-line.txt": ("." * 80, "80"),
    "sudoku-symbol.txt": ("x" + "." * 80, "x"),
    "sudoku-out-of-range.json": (sudoku(grid=["0" * 4, "5...", "....", "...."]), "5"),
    "sudoku-ragged.json": (sudoku(grid=["." * 9] * 8 + ["." * 8]), "row 9"),
    "sudoku-box.json": (sudoku(box=[2, 4]), "box"),
    "sudoku-box-type.json": (sudoku(box="big"), "box"),
    "sudoku-prime.json": (sudoku(grid=["." * 7] * 7), "box"),
    "sudoku-too-large.json": (sudoku(grid=["." * 36] * 36), "larger than 25"),
    "sudoku-not-square.json": (sudoku(grid=["." * 9] * 6), "grid"),
    "sudoku-one-row.json": (sudoku(grid=["12"]), "grid: has 1 row of 2 cells"),
    "sudoku-solo-bad.txt": ("3x3:zz!!", "Solo game ID: '!' is neither a clue nor a blank"),
    "sudoku-solution.json": (sudoku(solution=["1" * 9]), "solution"),
    # siteswap
    "siteswap-grid-type.json": ('{"family": "siteswap", "grid": 5}', "grid"),
    "siteswap-throw.json": (family("siteswap", grid=["4!", ".."]), "grid"),
    "siteswap-throws-range.json": (
        family("siteswap", grid=["..", ".."], rules={"throws": [5, 1]}),
        "throws",
    ),
    # pair place
    "pairplace-grid-type.json": ('{"family": "pairplace", "grid": 5}', "grid"),
    "pairplace-odd.json": (family("pairplace", header="ABC", grid=["...", "..."]), "header"),
    "pairplace-own-letter.json": (
        family("pairplace", header="ABCD", grid=["A...", "....", "...."]),
        "A",
    ),
    # path
    "path-door-inside.json": (path(doors=[[1, 1, "N"], [0, 0, "N"]]), "doors[0]"),
    "path-negative-clue.json": (path(row_clues=[1, -2, 1, 1]), "row_clues[1]"),
    "path-large-clue.json": (path(col_clues=[1, 1, 1, 9]), "col_clues[3]"),
    "path-clue-count.json": (path(row_clues=[1, 1]), "row_clues"),
    "path-one-door.json": (path(doors=[[0, 0, "N"]]), "doors"),
}


def invoke(main, args: list[str], capsys, monkeypatch) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "argv", ["grade", *args])
    with pytest.raises(SystemExit) as stop:
        main()
    captured = capsys.readouterr()
    return stop.value.code, captured.out, captured.err


def assert_one_line(code: int, err: str, *words: str) -> str:
    assert code == 2, err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: "), err
    for word in words:
        assert word in lines[0], (word, lines[0])
    return lines[0]


@pytest.mark.parametrize("name", sorted(FILES))
def test_bad_file_is_one_line_naming_file_and_field(name, tmp_path, capsys, monkeypatch):
    content, words = FILES[name]
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    code, out, err = invoke(grade_main, [str(path)], capsys, monkeypatch)
    assert_one_line(code, err, str(path), words)
    # a file of many puzzles: the good ones are graded all the same
    assert out.count("solutions") == (1 if name.startswith("many-") else 0)


@pytest.mark.parametrize("command", ["grade", "solve", "hint", "canon", "render"])
def test_every_file_command_refuses_a_directory_and_a_missing_file(
    command, tmp_path, capsys, monkeypatch
):
    for target, words in ((tmp_path, "is a directory"), (tmp_path / "no.json", "no such file")):
        args = [command, str(target)]
        if command == "render":
            args += ["-o", str(tmp_path / "out.svg")]
        code, _, err = invoke(grader_main, args, capsys, monkeypatch)
        assert_one_line(code, err, str(target), words)


TANGO = str(EXAMPLES / "tango.json")

# grader arguments → words of the one line
REQUESTS: dict[str, tuple[list[str], str]] = {
    "generate-odd-binairo": (["generate", "binairo", "--size", "7x7"], "odd"),
    "generate-unknown-level": (["generate", "tango", "--level", "fiendish"], "fiendish"),
    "generate-unknown-family": (["generate", "kakuro"], "kakuro"),
    "generate-count-zero": (["generate", "tango", "--count", "0"], "--count"),
    "generate-size-text": (["generate", "binairo", "--size", "8by8"], "size"),
    "generate-size-huge": (["generate", "binairo", "--size", "400x400"], "limit"),
    "generate-mode": (["generate", "tango", "--mode", "lucky"], "mode"),
    "generate-share": (["generate", "tango", "--sign-share", "1.5"], "--sign-share"),
    "generate-sudoku-band": (["generate", "sudoku", "--level", "5.0-4.0"], "empty"),
    "generate-sudoku-shape": (["generate", "sudoku", "--size", "9x6"], "square"),
    "generate-option": (["generate", "binairo", "--option", "unique_lines"], "--option"),
    "grade-unknown-technique": (["grade", "--techniques", "teleport", TANGO], "teleport"),
    "grade-family-mismatch": (["grade", "--family", "sudoku", TANGO], "--family says 'sudoku'"),
    "grade-empty-techniques": (["grade", "--techniques", " , ", TANGO], "names no technique"),
    "batch-empty-techniques": (
        ["batch", TANGO, "-o", "{tmp}/out.csv", "--techniques", ","],
        "names no technique",
    ),
    "grade-timeout-negative": (["grade", "--timeout", "-1", TANGO], "--timeout"),
    "schema-unknown-family": (["schema", "kakuro"], "kakuro"),
    "techniques-unknown-family": (["techniques", "kakuro"], "kakuro"),
    "no-command": (["frobnicate"], "frobnicate"),
    "render-bad-step": (["render", TANGO, "--step", "999", "-o", "{tmp}/x.svg"], "step"),
    "render-bad-format": (["render", TANGO, "-o", "{tmp}/x.docx"], "docx"),
    "render-solve-and-step": (
        ["render", TANGO, "--solve", "--step", "2", "-o", "{tmp}/x.svg"],
        "give one of them",
    ),
    "generate-output-under-a-file": (
        ["generate", "tango", "-o", f"{TANGO}/dir/out.jsonl"],
        "cannot be made",
    ),
    "batch-output-under-a-file": (["batch", TANGO, "-o", f"{TANGO}/out.csv"], "cannot be made"),
    "batch-dask-not-an-address": (
        ["batch", TANGO, "-o", "{tmp}/out.csv", "--dask", "no address"],
        "--dask",
    ),
    "generate-dask-not-an-address": (["generate", "tango", "--dask", "inproc://x"], "--dask"),
}


@pytest.mark.parametrize("name", sorted(REQUESTS))
def test_bad_request_is_one_line(name, tmp_path, capsys, monkeypatch):
    args, words = REQUESTS[name]
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    code, _, err = invoke(grader_main, args, capsys, monkeypatch)
    assert_one_line(code, err, words)
    assert not (tmp_path / "missing").exists()


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("[binairo\npair = 1", "costs"),
        ("[binairo]\nteleport = 1.0\n", "teleport"),
        ('[binairo]\npair = "cheap"\n', "pair"),
        ("[binairo]\npair = -2.0\n", "pair"),
    ],
)
def test_bad_costs_file_is_one_line(content, words, tmp_path, capsys, monkeypatch):
    costs = tmp_path / "costs.toml"
    costs.write_text(content)
    args = ["--costs", str(costs), str(EXAMPLES / "binairo.json")]
    code, _, err = invoke(grade_main, args, capsys, monkeypatch)
    assert_one_line(code, err, words)


def test_existing_output_is_kept_without_force(tmp_path, capsys, monkeypatch):
    out = tmp_path / "out.jsonl"
    out.write_text("precious\n")
    args = ["generate", "tango", "--count", "1", "-o", str(out)]
    code, _, err = invoke(grader_main, args, capsys, monkeypatch)
    assert_one_line(code, err, str(out), "--force")
    assert out.read_text() == "precious\n"


def test_unsolvable_and_ambiguous_files_are_reports_not_errors(tmp_path, capsys, monkeypatch):
    clash = tmp_path / "clash.json"
    clash.write_text(binairo(grid=["000...", *BLANK6[1:]]))
    open_grid = tmp_path / "open.json"
    open_grid.write_text(binairo())
    code, out, err = invoke(grade_main, ["--json", str(clash), str(open_grid)], capsys, monkeypatch)
    assert code == 0, err
    reports = [json.loads(line) for line in out.splitlines()]
    assert [r["solutions"] for r in reports] == [0, "2+"]


def test_timeout_runs_the_exact_search_with_a_deadline(capsys, monkeypatch):
    """Found by fuzzing: a deadline once crashed the SAT solver, which could not be interrupted."""
    args = ["--json", "--timeout", "30", str(EXAMPLES / "sudoku.json")]
    code, out, err = invoke(grade_main, args, capsys, monkeypatch)
    assert code == 0, err
    assert json.loads(out)["solutions"] == 1


def test_a_key_with_a_line_break_is_named_on_one_line():
    """A key that is not a plain name (found by the fuzzer: a newline) is quoted in the field
    path, so the message stays one line."""
    from grader.core.errors import InputError
    from grader.rating.loading import puzzle_from_dict

    with pytest.raises(InputError) as raised:
        puzzle_from_dict({"family": "binairo", "rules": {"\n": None}}, "fuzz.json", "fuzz")
    assert str(raised.value) == "fuzz.json: rules['\\n']: is not a known field"


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("size", "6x6", "size: must be a list, or a whole number"),
        ("id", [1], "id: must be a string, or a whole number"),
        ("grid", 5, "grid: must be a list"),
    ],
)
def test_a_wrong_type_is_said_in_the_words_of_the_file(
    tmp_path, capsys, monkeypatch, field, value, said
):
    """pydantic's type names (``size.tuple[int, int]: Input should be a valid tuple``) do not
    reach the user: the field as the file names it, and what it must be in JSON's words."""
    data = {"family": "binairo", "size": [6, 6], "grid": ["......"] * 6, field: value}
    source = tmp_path / "bad.json"
    source.write_text(json.dumps(data))
    code, _, err = invoke(grade_main, [str(source)], capsys, monkeypatch)
    assert code == 2
    assert err == f"error: {source}: {said}\n"


# ---------------------------------------------------------------------------------------------
# issue 51: endless input, malformed game IDs, -o naming a folder
# ---------------------------------------------------------------------------------------------

GRADE_WITH_LIMIT = (
    "import sys\n"
    "import grader.rating.loading as loading\n"
    "loading.MAX_FILE_BYTES = int(sys.argv[1])\n"
    "from grader.cli import grade_main\n"
    "sys.argv[0:2] = ['grade']\n"
    "grade_main()\n"
)
"""``grade`` in a new process with the input limit lowered (the first argument, in bytes)."""


def at_most_a_gigabyte() -> None:
    """Run in the child: unbounded reading fails fast instead of filling the machine."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))


def grade_limited(limit: int, *args: str, stdin=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", GRADE_WITH_LIMIT, str(limit), *args],
        stdin=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=at_most_a_gigabyte,
    )


def test_an_endless_device_stops_at_the_limit():
    """``grade /dev/zero`` once read 18 GB in 30 s: it stops at the limit, in one line."""
    from grader.rating.loading import MAX_FILE_BYTES

    result = grade_limited(MAX_FILE_BYTES, "/dev/zero")
    assert_one_line(result.returncode, result.stderr, "/dev/zero: is larger than 64 MiB")


@pytest.mark.parametrize("how", ["stdin", "fifo"])
def test_an_endless_pipe_stops_at_the_limit(how, tmp_path):
    """A pipe (``yes | grade -``) or a named pipe never ends: read up to the limit, refused."""
    if how == "fifo":
        fifo = tmp_path / "endless.txt"
        os.mkfifo(fifo)
        writer = subprocess.Popen(f"exec yes > '{fifo}'", shell=True, stderr=subprocess.DEVNULL)
        source, stdin = str(fifo), None
    else:
        writer = subprocess.Popen(["yes"], stdout=subprocess.PIPE)
        source, stdin = "-", writer.stdout
    try:
        result = grade_limited(100_000, source, stdin=stdin)
    finally:
        writer.kill()
        writer.wait()
        if writer.stdout is not None:
            writer.stdout.close()
    name = "<stdin>" if how == "stdin" else source
    assert_one_line(result.returncode, result.stderr, f"{name}: is larger than 100000 bytes")


@pytest.mark.parametrize("spare", [0, -1])
def test_input_of_exactly_the_limit_is_read_one_byte_more_is_not(spare):
    example = EXAMPLES / "tango.json"
    size = example.stat().st_size
    with example.open("rb") as stdin:
        result = grade_limited(size + spare, "--json", "-", stdin=stdin)
    if spare == 0:
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout)["family"] == "tango"
    else:
        assert_one_line(result.returncode, result.stderr, f"<stdin>: is larger than {size - 1}")


# a word that looks like a Simon Tatham game ID → what the line must say about it
GAME_IDS = {
    "6x6:!!!!": "'!'",
    "6x6:": "no cells after ':'",
    "6x6:aaaa": "describes 3 cells, expected 36",
    "8x8u:aebakdClaAcCeBGx": "describes 84 cells, expected 64",
    "6x6q:aaaa": "'q'",
    "3x3:zz!!": "'!'",
    "3x3:1a2": "describes 3 cells, expected 81",
    "3x3:a99a": "clue 99",
}


@pytest.mark.parametrize("word", sorted(GAME_IDS))
def test_a_malformed_game_id_says_what_is_wrong_with_it(word, tmp_path, capsys, monkeypatch):
    """Not ``no such file``: a word shaped like ``6x6:...`` is a game ID, and its problem is
    said as one (and ``grade`` runs where no file of that name is)."""
    monkeypatch.chdir(tmp_path)
    code, _, err = invoke(grade_main, [word], capsys, monkeypatch)
    line = assert_one_line(code, err, f"{word}: ", "game ID", GAME_IDS[word])
    assert "no such file" not in line


OUTPUT_COMMANDS = {
    "render": ["render", TANGO, "-o", "{dir}"],
    "histogram": ["histogram", "results.csv", "-o", "{dir}"],
    "batch": ["batch", TANGO, "-o", "{dir}"],
    "generate": ["generate", "tango", "--count", "1", "-o", "{dir}"],
    "bank-export": ["bank", "export", "bank.db", "-o", "{dir}"],
    "grade-html": ["grade", TANGO, "--html", "{dir}"],
}


@pytest.mark.parametrize("name", sorted(OUTPUT_COMMANDS))
def test_an_output_naming_a_folder_says_it_is_a_directory(name, tmp_path, capsys, monkeypatch):
    folder = tmp_path / "pictures"
    folder.mkdir()
    args = [a.replace("{dir}", str(folder)) for a in OUTPUT_COMMANDS[name]]
    code, _, err = invoke(grader_main, args, capsys, monkeypatch)
    assert_one_line(code, err, f"{folder}: is a directory")
    assert list(folder.iterdir()) == []
