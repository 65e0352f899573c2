"""Plans: a collection generated into a bank, resumable, with bad plan files refused."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from grader.core.errors import InputError
from grader.generation.plan import read_plan, run_plan
from grader.storage.bank import Bank

ROOT = Path(__file__).resolve().parent.parent
CLI = "import sys; from grader.cli import grader_main; sys.argv[0] = 'grader'; grader_main()"

TINY = """
seed = 4

[[row]]
family = "tango"
size = "6x6"
level = "easy"
count = 3

[[row]]
family = "binairo"
size = 6
level = "normal"
count = {binairo}
"""


def test_a_tiny_plan_fills_the_bank_and_resumes(tmp_path):
    plan, bank = tmp_path / "plan.toml", tmp_path / "site.db"
    plan.write_text(TINY.format(binairo=2))
    first = run_plan(read_plan(plan), bank, workers=2)
    assert first.complete and [r.added for r in first.rows] == [3, 2]
    again = run_plan(read_plan(plan), bank)
    assert [(r.had, r.added) for r in again.rows] == [(3, 0), (2, 0)]
    plan.write_text(TINY.format(binairo=4))
    more = run_plan(read_plan(plan), bank)
    assert [(r.had, r.added) for r in more.rows] == [(3, 0), (2, 2)]
    with Bank(bank) as store:
        ids = sorted(e.id for e in store.query(family="binairo"))
    assert ids == [f"binairo-6x6-normal-s4-{i}" for i in (1, 2, 3, 4)]  # indexes go on


def test_a_resumed_plan_gives_the_puzzles_of_one_run(tmp_path):
    plan = tmp_path / "plan.toml"
    plan.write_text(TINY.format(binairo=4))
    run_plan(read_plan(plan), tmp_path / "once.db")
    plan.write_text(TINY.format(binairo=1))
    run_plan(read_plan(plan), tmp_path / "twice.db")
    plan.write_text(TINY.format(binairo=4))
    run_plan(read_plan(plan), tmp_path / "twice.db", workers=2)
    keys = []
    for name in ("once.db", "twice.db"):
        with Bank(tmp_path / name) as store:
            keys.append(sorted(e.key for e in store.query()))
    assert keys[0] == keys[1]


def test_the_example_plan_reads():
    requests = read_plan(ROOT / "examples" / "plan.toml")
    assert len(requests) >= 5 and all(r.seed == 2026 for r in requests)


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ('[[row]]\nfamily = "tango"\nsize = "6x6"\nlevel = "easy"\n', "row[0].count"),
        ('[[row]]\nfamily = "tango"\nsize = "6x6"\nlevel = "easy"\ncount = 0\n', "row[0].count"),
        ('[[row]]\nfamily = "tango"\nsize = 6\nlevel = "easy"\ncount = 1\nlevl = 2\n', "levl"),
        ('[[row]]\nfamily = "kakuro"\nsize = 6\nlevel = "easy"\ncount = 1\n', "row[0]"),
        ('[[row]]\nfamily = "tango"\nsize = "6y6"\nlevel = "easy"\ncount = 1\n', "row[0]"),
        ("seed = 1\n", "row"),
        ("[[row]\n", ""),
    ],
)
def test_bad_plans_are_one_line_naming_the_field(tmp_path, text, field):
    plan = tmp_path / "plan.toml"
    plan.write_text(text)
    with pytest.raises(InputError) as caught:
        read_plan(plan)
    message = str(caught.value)
    assert message.startswith(str(plan)) and field in message and "\n" not in message


def test_two_rows_of_one_family_size_and_level_are_refused(tmp_path):
    plan = tmp_path / "plan.toml"
    row = '[[row]]\nfamily = "tango"\nsize = 6\nlevel = "easy"\ncount = 1\n'
    plan.write_text(row + row)
    with pytest.raises(InputError, match=r"row\[1\].*row\[0\]"):
        read_plan(plan)


PAIRPLACE = """
seed = 4

[[row]]
family = "pairplace"
size = {size}
level = "easy"
count = 2
"""


def test_a_pair_place_row_counts_what_the_bank_holds_at_the_real_size(tmp_path):
    """K6 is 5 rows of 6 letters: the bank keys it 5x6, and a row asking for 6 counts those."""
    plan, bank = tmp_path / "plan.toml", tmp_path / "site.db"
    plan.write_text(PAIRPLACE.format(size=6))
    first = run_plan(read_plan(plan), bank)
    assert [(r.had, r.added) for r in first.rows] == [(0, 2)]
    for size in ('"6x6"', 6, '"5x6"'):
        plan.write_text(PAIRPLACE.format(size=size))
        again = run_plan(read_plan(plan), bank)
        assert [(r.had, r.added) for r in again.rows] == [(2, 0)], size
    with Bank(bank) as store:
        for size in ("6", "5x6", "6x6", (5, 6)):
            assert len(store.query(size=size)) == 2, size
            assert len(store.query(family="pairplace", size=size)) == 2, size
        assert store.query(size="5") == [] and store.query(family="binairo", size="6") == []
        ids = sorted(e.id for e in store.query())
    assert ids == ["pairplace-5x6-easy-s4-1", "pairplace-5x6-easy-s4-2"]
    listed = subprocess.run(
        [sys.executable, "-c", CLI, "bank", "list", str(bank), "--size", "6", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert listed.returncode == 0 and len(listed.stdout.splitlines()) == 2


def test_rows_of_one_real_size_are_one_row(tmp_path):
    plan = tmp_path / "plan.toml"
    plan.write_text(PAIRPLACE.format(size=6) + PAIRPLACE.format(size='"5x6"').split("seed = 4")[1])
    with pytest.raises(InputError, match=r"row\[1\].*row\[0\]"):
        read_plan(plan)


def test_a_plan_cut_short_names_its_own_time_limit(tmp_path):
    """Each row gets what is left of ``--timeout``; a row that runs out says the plan's limit
    as the user wrote it (``1 s``), not the seconds left to it (``0.9734251 s``)."""
    plan, bank = tmp_path / "plan.toml", tmp_path / "site.db"
    plan.write_text(
        '[[row]]\nfamily = "tango"\nsize = "6x6"\nlevel = "easy"\ncount = 1\n\n'
        '[[row]]\nfamily = "sudoku"\nsize = "9x9"\nlevel = "extreme"\ncount = 500\n'
    )
    args = ["generate", "--plan", str(plan), "--bank", str(bank), "--timeout", "1"]
    result = subprocess.run(
        [sys.executable, "-c", CLI, *args, "--no-progress"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert result.returncode == 3, result.stderr
    assert "sudoku 9x9 extreme:" in result.stderr
    assert "stopped: the time limit of 1 s was reached" in result.stderr
    assert not re.search(r"\d\.\d{4,}", result.stderr), result.stderr
