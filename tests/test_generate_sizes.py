"""Sizes agree everywhere: generated files write [rows, cols]; bank, plan and --size agree."""

from __future__ import annotations

import pytest

from grader.generation.generator import Request, generate
from grader.rating.loading import puzzle_from_dict
from grader.rating.registry import families

LEVEL = {"sudoku": "trivial", "pairplace": "easy"}
"""A quick level per family (trivial elsewhere)."""

NO_SIZE_FIELD = {"pairplace"}
"""Families whose file has no ``size`` field (a pair place file is sized by its header)."""


@pytest.mark.parametrize("name", sorted(families()))
def test_generated_files_write_the_size_as_rows_and_cols(name):
    family = families()[name]
    found = next(generate(Request(name, family.default_size, LEVEL.get(name, "trivial"), seed=1)))
    puzzle = puzzle_from_dict(found.data, "generated", "x")
    if name in NO_SIZE_FIELD:
        assert "size" not in family.schema.model_fields
        return
    assert found.data["size"] == [puzzle.model.rows, puzzle.model.cols]
