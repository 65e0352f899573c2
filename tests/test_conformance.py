"""The conformance kit (:mod:`grader.testing`) over every installed family, check by check, and
over a family written here as a third party would write one (``tests/plugins``), registered
through the ``grader.families`` entry point of a distribution of its own."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from grader.rating.registry import families
from grader.testing import CHECKS, Kit

PLUGINS = Path(__file__).resolve().parent / "plugins"
_KITS: dict[str, Kit] = {}


def kit_for(family: str, tmp_path_factory: pytest.TempPathFactory) -> Kit:
    """One kit per family and test process: its puzzles are derived once."""
    if family not in _KITS:
        _KITS[family] = Kit(family, tmp_path_factory.mktemp(f"kit-{family}"))
    return _KITS[family]


@pytest.mark.parametrize("check", CHECKS)
@pytest.mark.parametrize("family", sorted(families()))
def test_every_family_passes_the_kit(family, check, tmp_path_factory):
    getattr(kit_for(family, tmp_path_factory), check)()


def installed_plugin(folder: Path) -> dict[str, str]:
    """The plugin module and a distribution declaring its entry point, in ``folder``; the
    environment a process needs to find them."""
    shutil.copy(PLUGINS / "latin_square.py", folder / "latin_square.py")
    info = folder / "latin_square-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: latin-square\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[grader.families]\nlatin = latin_square:FAMILY\n")
    path = os.pathsep.join([str(folder), os.environ.get("PYTHONPATH", "")])
    return {**os.environ, "PYTHONPATH": path, "MPLBACKEND": "Agg"}


def test_a_plugin_family_passes_the_kit(tmp_path):
    env = installed_plugin(tmp_path)
    listed = subprocess.run(
        [sys.executable, "-c", "from grader.cli import grader_main; grader_main()", "families"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert listed.returncode == 0 and "latin " in listed.stdout, listed.stderr
    code = "from grader.testing import check_family; check_family('latin', quick=True)"
    run = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0, run.stderr[-3000:]


def test_the_kit_catches_a_family_that_breaks_its_promises(tmp_path):
    """A family whose declared symmetry is no symmetry of its rules fails the kit."""
    env = installed_plugin(tmp_path)
    broken = tmp_path / "latin_square.py"
    text = broken.read_text()
    wrong = '("rows reversed", {**data, "grid": ["." * n] * n})'  # every given dropped
    broken.write_text(text.replace('("rows reversed", {**data, "grid": grid[::-1]})', wrong))
    code = (
        "from grader.testing import family_checks\n"
        "[c() for c in family_checks('latin') if c.name == 'symmetry']"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600
    )
    assert run.returncode != 0 and "rows reversed" in run.stderr


@pytest.mark.parametrize("check", ["check_text_reports", "check_hint", "check_solve"])
def test_a_9x9_sudoku_passes_the_report_checks(check, tmp_path_factory):
    """The kit's own puzzles are of the smallest size (4x4 for Sudoku); the reports of a 9x9's
    four puzzles (a contradiction found by deduction among them) pass the same checks."""
    from grader.generation.generator import Request, generate
    from grader.testing.cases import derive

    if "sudoku9" not in _KITS:
        kit = Kit("sudoku", tmp_path_factory.mktemp("kit-sudoku9"))
        request = Request("sudoku", (9, 9), "easy", count=1, seed=1, timeout=60)
        source = next(iter(generate(request)))
        kit.cases = derive(kit.family, source, 1)
        assert kit.cases.deduced_conflict is not None
        _KITS["sudoku9"] = kit
    getattr(_KITS["sudoku9"], check)()


def test_the_generation_check_catches_a_meta_that_grade_does_not_give():
    """The generation check regrades what it generates: a ``meta`` whose level, difficulty or
    effort is not the default grade's fails it, naming the figure and both values."""
    from grader.generation.generator import Request, generate
    from grader.rating.grading import grade
    from grader.rating.loading import puzzle_from_dict
    from grader.testing.kit import CheckFailed, check_meta_is_grade

    found = next(iter(generate(Request("tango", (6, 6), "normal", seed=2))))
    result = grade(puzzle_from_dict(found.data, "made", "made"))
    meta = found.data["meta"]
    check_meta_is_grade("tango 6x6 normal", meta, result)  # as generated: they agree
    for key, other in (("level", "expert"), ("difficulty", 9.9), ("effort", meta["effort"] + 1)):
        with pytest.raises(CheckFailed, match=f"tango 6x6 normal: .*'{key}'"):
            check_meta_is_grade("tango 6x6 normal", {**meta, key: other}, result)
