"""Agreement with real puzzles and published levels (reads ../shared/data when it is there)."""

from __future__ import annotations

from collections import Counter

import pytest

from conftest import REQUIRE_SHARED, make, shared
from grader import grade
from shared_sets import binairo_external, tango_real


def tango_puzzles():
    for row, data in tango_real(shared("tango_real.jsonl")):
        yield row, make(data)


def test_every_real_tango_is_solved_without_guessing_and_matches():
    results = {}
    for row, puzzle in tango_puzzles():
        result = grade(puzzle)
        assert result.solved, row["id"]
        assert result.solutions == 1
        assert result.solution_check() == "matches"
        assert all(s.technique != "guess" for s in result.steps)
        results[row["linkedin_number"]] = result
    # the three that single-line enumeration cannot finish (the data's README) are the only
    # ones that need an assumption: a short contradiction, no full lookahead
    trials = {
        n
        for n, r in results.items()
        if any(s.technique in ("short-contradiction", "lookahead-1") for s in r.steps)
    }
    assert trials == {47, 426, 501}
    assert all(results[n].hardest.technique == "short-contradiction" for n in trials)
    hardest_others = max(r.difficulty for n, r in results.items() if n not in trials)
    assert all(results[n].difficulty > hardest_others for n in trials)


TATHAM_TO_OURS = {"Trivial": "trivial", "Easy": "easy", "Normal": "normal"}


def test_binairo_levels_agree_with_tathams_solver():
    """Tatham's solver levels (computed for the shared file) match ours exactly, and the
    puzzles it cannot solve are our ``hard`` (``bench/binairo_external.py`` prints the table)."""
    agree = Counter()
    for row, data in binairo_external(shared("binairo_external.jsonl")):
        puzzle = make(data)
        result = grade(puzzle)
        assert result.solved and result.solution_check() == "matches", row["id"]
        expected = TATHAM_TO_OURS.get(row["tatham_unruly_level"])
        if expected is None:  # beyond Tatham's Normal: our hard (README), no lookahead needed
            agree[result.level == "hard"] += 1
        else:
            agree[result.level == expected] += 1
    assert agree[False] == 0, agree


def test_a_missing_shared_file_fails_when_ci_requires_the_data(monkeypatch):
    """``.ci/run`` sets GRADER_REQUIRE_SHARED when ../shared/data is there: no silent skip."""
    monkeypatch.setenv(REQUIRE_SHARED, "1")
    with pytest.raises(pytest.fail.Exception):
        shared("no-such-file.json")
    monkeypatch.delenv(REQUIRE_SHARED)
    with pytest.raises(pytest.skip.Exception):
        shared("no-such-file.json")
