"""The puzzle bank: each puzzle once, queries by family/size/level/difficulty, exports for a
daily puzzle site with a published flag."""

from __future__ import annotations

import json
import random
import shutil
import sqlite3

import pytest
from test_cli import run

from conftest import EXAMPLES, make
from grader import grade, load
from grader.core.errors import InputError, UsageError
from grader.storage.bank import LIST_COLUMNS, Bank, canonical, check_bank, parse_size
from puzzle_sets import unique_puzzle, write_jsonl


@pytest.fixture(scope="module")
def sources(tmp_path_factory):
    folder = tmp_path_factory.mktemp("bank")
    rng = random.Random(21)
    tangos = [unique_puzzle("tango", 6, rng, signs=rng.randint(2, 8)) for _ in range(40)]
    binairos = [unique_puzzle("binairo", 8, rng) for _ in range(6)]
    several = {"family": "binairo", "grid": ["......"] * 6}  # many solutions: never stored
    return {
        "tango": write_jsonl(folder / "tango.jsonl", tangos),
        "binairo": write_jsonl(folder / "binairo.jsonl", [*binairos, several]),
        "tangos": tangos,
    }


@pytest.fixture(scope="module")
def filled(tmp_path_factory, sources):
    tmp_path = tmp_path_factory.mktemp("filled")
    path = tmp_path / "bank.db"
    result = run(
        "grader",
        "batch",
        str(sources["tango"]),
        str(sources["binairo"]),
        "-o",
        str(tmp_path / "r.csv"),
        "--bank",
        str(path),
        "--no-progress",
    )
    assert result.returncode == 0, result.stderr
    assert "46 added, 0 already there" in result.stderr
    return path


@pytest.fixture
def bank(filled, tmp_path):
    """A fresh copy of the filled bank for each test."""
    path = tmp_path / "bank.db"
    shutil.copyfile(filled, path)
    return path


def test_batch_stores_each_unique_puzzle_once(bank, sources, tmp_path):
    again = run(
        "grader",
        "batch",
        str(sources["tango"]),
        "-o",
        str(tmp_path / "again.csv"),
        "--bank",
        str(bank),
        "--no-progress",
    )
    assert again.returncode == 0 and "0 added, 40 already there" in again.stderr
    with Bank(bank) as store:
        assert store.count() == 46
        tangos = store.query(family="tango")
    assert len(tangos) == 40
    stored = {json.dumps(e.puzzle["grid"]) + json.dumps(e.puzzle["signs"]) for e in tangos}
    given = {json.dumps(p["grid"]) + json.dumps(p["signs"]) for p in sources["tangos"]}
    assert stored == given


def test_grades_are_stored_with_each_puzzle(bank):
    with Bank(bank) as store:
        for entry in store.query(family="tango", limit=5):
            result = grade(make(entry.puzzle))
            assert entry.level == result.level
            assert entry.difficulty == pytest.approx(result.difficulty)
            assert entry.effort == pytest.approx(result.effort)
            assert entry.size == "6x6" and entry.solved


def test_signs_tell_tangos_apart_in_the_key():
    first = load(str(EXAMPLES / "tango.json"))[0]
    data = {**first.data, "signs": first.data["signs"][:-1]}
    assert canonical(first) != canonical(make(data))
    assert canonical(first) == canonical(make(dict(first.data)))


def test_queries_filter_by_family_size_level_difficulty_and_published(bank):
    with Bank(bank) as store:
        every = store.query()
        levels = {e.level for e in every if e.family == "tango"}
        assert len(levels) >= 3
        level = sorted(levels)[0]
        picked = store.query(family="tango", size="6x6", level=level)
        assert picked and all(e.level == level and e.family == "tango" for e in picked)
        assert len(picked) == sum(1 for e in every if e.family == "tango" and e.level == level)
        assert {e.family for e in store.query(size="8x8")} == {"binairo"}
        assert store.query(size="9") == []
        ranged = store.query(min_difficulty=2, max_difficulty=4)
        assert ranged and all(2 <= e.difficulty <= 4 for e in ranged)
        assert len(ranged) == sum(1 for e in every if 2 <= e.difficulty <= 4)
        ordered = store.query(order="hardest")
        assert [e.difficulty for e in ordered] == sorted(
            (e.difficulty for e in every), reverse=True
        )
        assert store.query(published=True) == []
        assert len(store.query(published=False)) == len(every)


def test_export_hard_tangos_not_published_yet(bank, tmp_path):
    with Bank(bank) as store:
        hard = store.query(family="tango", level=["hard", "expert"], published=False)
    assert len(hard) >= 4
    first = tmp_path / "day1.jsonl"
    args = ["--family", "tango", "--size", "6x6", "--level", "hard,expert", "--unpublished"]
    result = run("grader", "bank", "export", str(bank), "-o", str(first), *args, "-n", "3")
    assert result.returncode == 0, result.stderr
    exported = load(str(first))
    assert len(exported) == 3
    for puzzle in exported:
        assert grade(puzzle).level in ("hard", "expert")
    # not marked: the same three come again
    same = tmp_path / "same.jsonl"
    run("grader", "bank", "export", str(bank), "-o", str(same), *args, "-n", "3")
    assert same.read_text() == first.read_text()
    # marked: the next export skips them
    marked = tmp_path / "marked.jsonl"
    result = run(
        "grader",
        "bank",
        "export",
        str(bank),
        "-o",
        str(marked),
        *args,
        "-n",
        "3",
        "--mark-published",
    )
    assert result.returncode == 0 and "marked published" in result.stderr
    second = tmp_path / "day2.jsonl"
    run("grader", "bank", "export", str(bank), "-o", str(second), *args, "-n", "3")
    first_ids = {p.id for p in load(str(marked))}
    assert not first_ids & {p.id for p in load(str(second))}
    with Bank(bank) as store:
        published = store.query(published=True)
    assert {e.id for e in published} == first_ids
    listing = run("grader", "bank", "list", str(bank), "--published")
    assert listing.returncode == 0 and "3 of 3 matching puzzles" in listing.stdout


def test_export_without_output_writes_json_lines_to_stdout(bank, tmp_path):
    """As generate does without -o: the puzzles as JSON lines that grade reads back."""
    result = run("grader", "bank", "export", str(bank), "--family", "binairo")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 6 and "to standard output" in result.stderr
    again = tmp_path / "again.jsonl"
    again.write_text(result.stdout)
    assert len(load(str(again))) == 6


def test_export_as_json_array_and_bad_requests(bank, tmp_path):
    out = tmp_path / "all.json"
    result = run("grader", "bank", "export", str(bank), "-o", str(out), "--family", "binairo")
    assert result.returncode == 0
    assert len(load(str(out))) == 6
    result = run("grader", "bank", "export", str(bank), "-o", str(out), "--family", "binairo")
    assert result.returncode == 2 and "already exists" in result.stderr
    nothing = tmp_path / "none.jsonl"
    result = run(
        "grader", "bank", "export", str(bank), "-o", str(nothing), "--min-difficulty", "99"
    )
    assert result.returncode == 2 and "no stored puzzle" in result.stderr
    assert not nothing.exists()
    result = run("grader", "bank", "export", str(bank), "-o", str(nothing), "--level", "nope")
    assert result.returncode == 2 and "unknown level 'nope'" in result.stderr
    assert not nothing.exists()
    result = run("grader", "bank", "export", str(bank), "-o", str(tmp_path / "x.txt"))
    assert result.returncode == 2 and "x.txt" in result.stderr


def test_show_and_list(bank):
    listing = run("grader", "bank", "list", str(bank), "--family", "binairo", "--json")
    entries = [json.loads(line) for line in listing.stdout.splitlines()]
    assert len(entries) == 6 and all(e["family"] == "binairo" for e in entries)
    ref = entries[0]["ref"]
    shown = run("grader", "bank", "show", str(bank), ref[:6])
    assert shown.returncode == 0 and ref in shown.stdout and "level" in shown.stdout
    missing = run("grader", "bank", "show", str(bank), "zzzz")
    assert missing.returncode == 2 and "no puzzle" in missing.stderr


def test_bad_bank_files_are_one_line(tmp_path):
    junk = tmp_path / "junk.db"
    junk.write_text("not a database at all, just some text " * 20)
    result = run("grader", "bank", "list", str(junk))
    assert result.returncode == 2 and "junk.db" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    result = run("grader", "bank", "list", str(tmp_path / "absent.db"))
    assert result.returncode == 2 and "no such puzzle bank" in result.stderr
    assert not (tmp_path / "absent.db").exists()
    with pytest.raises(InputError):
        Bank(junk)
    other = tmp_path / "other.db"
    sqlite3.connect(other).executescript(
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT); INSERT INTO meta VALUES "
        "('schema', '99');"
    )
    with pytest.raises(InputError, match="schema 99"):
        Bank(other)


def test_sizes_parse():
    assert parse_size("6x6") == (6, 6) and parse_size("9") == (9, 9)
    assert parse_size("4X7") == (4, 7)
    with pytest.raises(UsageError):
        parse_size("big")


def test_exports_carry_the_grade_in_meta_whoever_added_them(bank, tmp_path):
    """Puzzles from ``batch --bank`` (files with no meta) and from ``generate --bank`` (meta
    from the generator) export with the bank's level, difficulty, effort and version."""
    made = run(
        "grader",
        "generate",
        "tango",
        "--level",
        "easy",
        "-n",
        "1",
        "--seed",
        "1",
        "--bank",
        str(bank),
        "-o",
        str(tmp_path / "made.jsonl"),
    )
    assert made.returncode == 0, made.stderr
    out = tmp_path / "all.jsonl"
    result = run("grader", "bank", "export", str(bank), "-o", str(out), "--family", "tango")
    assert result.returncode == 0, result.stderr
    exported = [json.loads(line) for line in out.read_text().splitlines()]
    with Bank(bank) as store:
        entries = {e.id: e for e in store.query(family="tango")}
    assert len(exported) == len(entries) == 41
    generated = [p for p in exported if "seed" in p["meta"]]
    assert len(generated) == 1 and generated[0]["meta"]["mode"] == "deducible"
    for puzzle in exported:
        entry = entries[puzzle["id"]]
        meta = puzzle["meta"]
        assert meta["level"] == entry.level and meta["difficulty"] == entry.difficulty
        assert meta["effort"] == entry.effort and meta["version"] == entry.version
        assert meta["version"]
        assert meta["settings"] == entry.settings and entry.settings["techniques"]


def test_piped_list_and_show_print_whole_values(bank):
    """Not a terminal (output captured): no value cut to fit 80 columns, one line per row."""
    long_id = "a-puzzle-id-far-longer-than-any-column-of-an-80-column-table-" + "x" * 40
    data = {**json.loads((EXAMPLES / "tango.json").read_text()), "id": long_id}
    with Bank(bank) as store:
        assert store.add_grade(grade(make(data)))
        entries = store.query()
    listing = run("grader", "bank", "list", str(bank))
    assert listing.returncode == 0, listing.stderr
    assert "…" not in listing.stdout
    lines = listing.stdout.splitlines()
    assert lines[0] == f"# {len(entries)} of {len(entries)} matching puzzles"
    assert lines[1].split("\t") == list(LIST_COLUMNS)
    rows = [line.split("\t") for line in lines[2:]]
    assert rows == [entry.row() for entry in entries]
    assert any(row[LIST_COLUMNS.index("id")] == long_id for row in rows)
    assert all(len(row[0]) == 10 for row in rows)  # whole refs
    entry = next(e for e in entries if e.id == long_id)
    shown = run("grader", "bank", "show", str(bank), entry.ref)
    assert shown.returncode == 0, shown.stderr
    used = ", ".join(f"{k} x{v}" for k, v in entry.techniques.items())
    assert len(used) > 70
    assert f"id         {long_id}\n" in shown.stdout
    assert f"techniques {used}\n" in shown.stdout
    assert "…" not in shown.stdout


def test_settings_are_stored_and_exported_in_meta(tmp_path):
    """A bank keeps the settings of each grade (a ``settings`` column) and gives them back:
    ``Entry.settings``, ``bank show`` and ``bank export`` in ``meta``, where a generated
    puzzle's own (the generator's) give way to those of the bank's grade."""
    from grader import GradeOptions

    path = tmp_path / "bank.db"
    data = json.loads((EXAMPLES / "tango.json").read_text())
    data["meta"] = {"settings": {"techniques": {"pair": 9.0}}, "seed": 4}  # a generator's
    graded = grade(make(data), GradeOptions(costs={"pair": 1.5}))
    with Bank(path) as store:
        assert store.add_grade(graded)
        entry = store.query()[0]
    assert entry.settings == graded.to_dict()["settings"]
    assert entry.settings["techniques"]["pair"] == 1.5
    out = tmp_path / "out.jsonl"
    result = run("grader", "bank", "export", str(path), "-o", str(out))
    assert result.returncode == 0, result.stderr
    meta = json.loads(out.read_text())["meta"]
    assert meta["settings"] == entry.settings and meta["seed"] == 4
    assert meta["version"] == entry.version
    shown = run("grader", "bank", "show", str(path), entry.ref)
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout.splitlines()[-1])["meta"] == meta
    as_json = run("grader", "bank", "show", "--json", str(path), entry.ref)
    assert json.loads(as_json.stdout)["settings"] == entry.settings


SCHEMA_1 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO meta VALUES ('schema', '1');
CREATE TABLE puzzles (
    key TEXT PRIMARY KEY, ref TEXT NOT NULL UNIQUE, family TEXT NOT NULL,
    rows INTEGER NOT NULL, cols INTEGER NOT NULL, level TEXT NOT NULL,
    difficulty REAL NOT NULL, effort REAL NOT NULL, givens INTEGER NOT NULL,
    solved INTEGER NOT NULL, hardest TEXT, techniques TEXT NOT NULL, puzzle TEXT NOT NULL,
    id TEXT, source TEXT, version TEXT, added TEXT NOT NULL, published TEXT
);
CREATE INDEX puzzles_pick ON puzzles (family, rows, cols, level, difficulty);
INSERT INTO puzzles VALUES ('tango:x', 'abcdef0123', 'tango', 6, 6, 'easy', 2.0, 9.5, 20, 1,
    'count-completion', '{"pair": 3}', '{"family": "tango", "id": "old"}', 'old', 'old.json',
    '0.0.9', '2024-01-01T00:00:00+00:00', NULL);
"""


def test_a_bank_of_schema_1_opens_and_is_upgraded(tmp_path, monkeypatch):
    """A bank written before settings were stored: it opens, its entries have no settings
    (and export puts none in meta), it is upgraded to the current schema and takes new
    grades with their settings. Where it cannot be written it is read as it is."""
    path = tmp_path / "old.db"
    sqlite3.connect(path).executescript(SCHEMA_1)
    connect = sqlite3.connect
    with monkeypatch.context() as patch:  # read-only (a file mode would not stop root)
        patch.setattr(sqlite3, "connect", lambda p: connect(f"file:{p}?mode=ro", uri=True))
        with Bank(path) as store:
            assert [(e.id, e.settings) for e in store.query()] == [("old", None)]
            tango = make(json.loads((EXAMPLES / "tango.json").read_text()))
            with pytest.raises(InputError, match="schema 1 and cannot be written"):
                store.add_grade(grade(tango))
        with pytest.raises(InputError, match="schema 1 and cannot be written"):
            check_bank(path)  # batch --bank refuses it before grading anything
    assert connect(path).execute("SELECT value FROM meta").fetchone() == ("1",)
    listing = run("grader", "bank", "list", "--json", str(path))
    assert listing.returncode == 0, listing.stderr
    assert json.loads(listing.stdout)["settings"] is None
    out = tmp_path / "out.jsonl"
    assert run("grader", "bank", "export", str(path), "-o", str(out)).returncode == 0
    assert "settings" not in json.loads(out.read_text())["meta"]
    with Bank(path) as store:
        assert store.add_grade(grade(make(json.loads((EXAMPLES / "tango.json").read_text()))))
        settings = {e.id: e.settings for e in store.query()}
    assert settings["old"] is None and settings["test"]["techniques"]
    version = sqlite3.connect(path).execute("SELECT value FROM meta").fetchone()
    assert version == ("2",)


def test_generate_refuses_a_bad_bank_before_writing_any_puzzle(tmp_path):
    """A --bank that is not a bank, or cannot be made, stops generate at once: no output."""
    not_a_bank = tmp_path / "b.csv"
    not_a_bank.write_text("a,b\n")
    for bank, words in ((not_a_bank, "is not a puzzle bank"), ("/proc/b.db", "cannot be written")):
        out = tmp_path / "g.jsonl"
        result = run("grader", "generate", "tango", "-n", "1", "-o", str(out), "--bank", str(bank))
        assert result.returncode == 2
        assert words in result.stderr and len(result.stderr.strip().splitlines()) == 1
        assert not out.exists()


def test_a_ref_is_a_prefix_never_a_pattern(bank):
    """SQL's wildcards in a ref name no puzzle (``%`` named every one, ``_`` any letter)."""
    from grader.storage.bank import Bank

    with Bank(bank) as store:
        ref = store.query()[0].ref
        assert store.get(ref[:6]).ref == ref
        for pattern in ("%", "_" * len(ref), ref[:5] + "%"):
            with pytest.raises(UsageError, match="no puzzle"):
                store.get(pattern)
