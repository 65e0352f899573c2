"""The Python API as a user meets it: what a grade says of itself, options as Python values,
errors a caller can catch as ``ValueError``."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import grader
from conftest import EXAMPLES


def test_a_grade_names_its_puzzle_family_and_status():
    result = grader.grade(EXAMPLES / "tango.json")
    assert (result.id, result.family, result.status) == ("tango", "tango", "solved")
    assert result.to_dict()["status"] == result.status


def test_options_take_a_list_of_techniques_as_the_command_line_takes_a_string():
    listed = grader.grade(EXAMPLES / "tango.json", grader.GradeOptions(techniques=["trivial"]))
    text = grader.grade(EXAMPLES / "tango.json", grader.GradeOptions(techniques="trivial"))
    assert listed.settings() == text.settings()
    assert listed.status == "stuck"  # the example needs count completion (easy)
    with pytest.raises(ValueError, match="techniques"):
        grader.GradeOptions(techniques=[3])
    with pytest.raises(ValueError, match="timeout"):
        grader.GradeOptions(timeout=0)


def test_bad_input_is_a_value_error(tmp_path):
    with pytest.raises(ValueError, match="no such file"):
        grader.load(tmp_path / "missing.json")
    with pytest.raises(ValueError, match="family: is missing"):
        grader.grade({"grid": ["01", "10"]})
    with pytest.raises(ValueError, match="unknown family"):
        grader.load(EXAMPLES / "tango-export.jsonl", family="tangoo")


def test_family_for_dicts_and_files_that_do_not_name_it():
    data = json.loads((EXAMPLES / "tango.json").read_text())
    del data["family"]
    assert grader.grade(data, family="tango").solved
    puzzles = grader.load(EXAMPLES / "tango-export.jsonl", family="tango")
    assert [p.id for p in puzzles] == ["tango-example"]
    assert grader.grade(EXAMPLES / "tango-export.jsonl", family="tango").solved


def test_naming_the_family_of_a_text_file_imports_no_other_family(tmp_path):
    """``--family sudoku`` (or ``load(..., family=...)``) tries only that family's text formats,
    so the other families are not imported at all: a shorter start for every such command."""
    source = tmp_path / "one.txt"
    source.write_text(
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n"
    )
    code = (
        "import sys, grader; puzzles = grader.load(sys.argv[1], family='sudoku'); "
        "print(len(puzzles), sorted(m for m in sys.modules if m.endswith('.family')))"
    )
    out = subprocess.run([sys.executable, "-c", code, str(source)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split(" ", 1) == ["1", "['grader.rating.family', 'rules.sudoku.family']\n"]


def test_a_text_file_imports_the_families_up_to_the_one_that_reads_it(tmp_path):
    """Without ``--family``, families are tried in order of name and imported as they are
    reached: a file of Unruly game IDs is read by the first (binairo) and imports no other,
    a Sudoku line's file the ones before sudoku but not tango."""
    unruly = tmp_path / "unruly.txt"
    unruly.write_text("8x8u:aebakdClaAcCeBGd\n")
    sudoku = tmp_path / "sudoku.txt"
    sudoku.write_text(
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n"
    )
    code = (
        "import sys, grader; puzzles = grader.load(sys.argv[1]); "
        "print(puzzles[0].family.name, sorted(m for m in sys.modules if m.startswith('rules.') "
        "and m.endswith('.family')))"
    )
    for source, family, imported in (
        (unruly, "binairo", ["rules.binairo.family"]),
        (sudoku, "sudoku", ["rules.binairo.family", "rules.sudoku.family"]),
    ):
        out = subprocess.run(
            [sys.executable, "-c", code, str(source)], capture_output=True, text=True
        )
        assert out.returncode == 0, out.stderr
        name, modules = out.stdout.split(" ", 1)
        assert name == family
        listed = modules.strip().strip("[]").replace("'", "").split(", ")
        assert all(m in listed for m in imported), listed
        assert "rules.tango.family" not in listed, listed
        if family == "binairo":  # the one family imported (rules.binary is shared code)
            others = ("pairplace", "path", "siteswap", "sudoku", "tango")
            assert not [m for m in listed if m.split(".")[1] in others], listed


def test_a_text_format_may_give_any_layout_the_family_reads():
    """A dict a family's text format makes is read as its files are, through the family's
    other layouts too (by default; Sudoku and Binairo read theirs without the schema)."""
    from grader.rating.registry import get_family

    tango = get_family("tango")
    line = (EXAMPLES / "tango-export.jsonl").read_text().splitlines()[0]
    export = {"family": "tango", **json.loads(line)}
    assert tango.text_spec(export) == tango.file_spec(export)
    assert tango.build(tango.text_spec(export))[0].rows == export["size"]


def test_dir_lists_the_public_names_only():
    """What ``dir(grader)`` (and a shell's completion) offers is the API, no typing helpers."""
    assert dir(grader) == sorted(grader.__all__)
    assert "Any" not in dir(grader) and "TYPE_CHECKING" not in dir(grader)
    assert all(callable(getattr(grader, name)) for name in dir(grader) if name != "__version__")
