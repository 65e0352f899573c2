"""Strategies for fuzzing the loaders and ``grade``: random files, valid and invalid.

Shared by ``tests/test_fuzz.py`` (quick, in the suite) and ``bench/fuzz.py`` (a long run).
"""

from __future__ import annotations

import json

from hypothesis import strategies as st

from grader.core.errors import InputError
from grader.rating.grading import GradeOptions, grade
from grader.rating.loading import load, puzzle_from_dict
from grader.rating.registry import families

FAMILY_NAMES = sorted(families())
SYMBOLS = ".01SMx=123456789ABCDEFG?- #"

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 300),
    st.floats(allow_nan=False, allow_infinity=False, width=16),
    st.text(SYMBOLS, max_size=12),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)


@st.composite
def grid_rows(draw) -> list[str]:
    rows = draw(st.integers(0, 10))
    width = draw(st.integers(0, 10))
    ragged = draw(st.booleans())
    return [
        draw(st.text(SYMBOLS, min_size=0 if ragged else width, max_size=width)) for _ in range(rows)
    ]


@st.composite
def puzzle_dicts(draw) -> dict:
    """Dicts shaped like puzzle files, with random (often wrong) fields."""
    data: dict = {"family": draw(st.sampled_from([*FAMILY_NAMES, "kakuro", 3]))}
    if draw(st.booleans()):
        data["grid"] = draw(grid_rows())
    else:
        data["grid"] = draw(json_values)
    for name in ("size", "signs", "rules", "box", "solution", "options", "clues", "doors"):
        if draw(st.integers(0, 4)) == 0:
            data[name] = draw(json_values)
    if draw(st.integers(0, 3)) == 0:
        data["signs"] = draw(
            st.lists(
                st.tuples(*(st.integers(-1, 7) for _ in range(4)), st.sampled_from("=x+")),
                max_size=5,
            )
        )
    return data


@st.composite
def mutated_examples(draw) -> str:
    """A family's own example with random characters replaced, inserted or deleted."""
    family = families()[draw(st.sampled_from(FAMILY_NAMES))]
    text = json.dumps(family.example)
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, max(0, len(text) - 1)))
        kind = draw(st.sampled_from(["replace", "insert", "delete"]))
        char = draw(st.sampled_from(list(SYMBOLS + '"[]{},:')))
        if kind == "replace":
            text = text[:at] + char + text[at + 1 :]
        elif kind == "insert":
            text = text[:at] + char + text[at:]
        else:
            text = text[:at] + text[at + 1 :]
    return text


QUICK = GradeOptions(timeout=5.0)


def check_dict(data) -> None:
    """A dict either loads and grades, or is refused with an InputError (nothing else)."""
    try:
        puzzle = puzzle_from_dict(data, "fuzz.json", "fuzz")
    except InputError as error:
        assert "\n" not in str(error)
        return
    grade(puzzle, QUICK).to_dict()


def check_file(path) -> None:
    """A file either loads and grades, or is refused with an InputError (nothing else)."""
    try:
        puzzles = load(str(path))
    except InputError as error:
        assert "\n" not in str(error)
        return
    for puzzle in puzzles:
        grade(puzzle, QUICK).to_dict()
