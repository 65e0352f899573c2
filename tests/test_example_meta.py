"""An example the generator made keeps the rating it was made with: its meta says what grade
says of it now (a stale meta misleads whoever reads the file)."""

from __future__ import annotations

import json

import pytest

from conftest import EXAMPLES
from grader.rating.grading import grade
from grader.rating.loading import load

MADE = [
    path
    for path in sorted(EXAMPLES.glob("*.json"))
    if isinstance(data := json.loads(path.read_text()), dict) and "meta" in data
]


@pytest.mark.parametrize("path", MADE, ids=lambda p: p.name)
def test_a_generated_example_is_rated_as_its_meta_says(path) -> None:
    meta = json.loads(path.read_text())["meta"]
    result = grade(load(path)[0])
    assert (result.level, result.difficulty) == (meta["level"], meta["difficulty"])
    assert result.effort == pytest.approx(meta["effort"])


def test_some_example_was_generated() -> None:
    """The check above runs on something (a rename or a lost meta would skip it silently)."""
    assert MADE
