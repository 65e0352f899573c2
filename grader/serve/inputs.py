"""Reading a request's fields: the puzzle it holds and the grading options it asks for.

Every problem raises :class:`~grader.core.errors.InputError` or
:class:`~grader.core.errors.UsageError` whose one line names the field, as the command line's
messages do. Nothing here reads a file: a request's text is a puzzle, never a file name.
"""

from __future__ import annotations

import math
import tomllib
from typing import Any

from grader.core.errors import InputError, UsageError
from grader.rating.family import Puzzle
from grader.rating.grading import GradeOptions

OPTION_KEYS = frozenset(
    {"techniques", "costs", "timeout", "guess", "index", "step", "solve", "solution", "candidates"}
)
"""Keys of a request that are not part of a puzzle given as the body itself."""

MAX_PUZZLES = 500
"""The most puzzles ``/api/load`` returns of one text."""


def entries_of(body: dict[str, Any]) -> list[Any]:
    """The unbuilt puzzles of a request: its ``text`` (any format ``grade`` reads), its
    ``puzzle`` (a puzzle file's object), or the body itself when it names a ``family``."""
    from grader.rating.loading import Entry, entries_from_text

    family = body.get("family") if "text" in body or "puzzle" in body else None
    if family is not None and not isinstance(family, str):
        raise UsageError("family: must be a family name (a string)")
    if "text" in body:
        text = body["text"]
        if not isinstance(text, str):
            raise UsageError("text: must be a string (a puzzle as a file holds it)")
        return entries_from_text(text, "text", family)
    if "puzzle" in body:
        data = body["puzzle"]
        if not isinstance(data, dict):
            raise UsageError("puzzle: must be a JSON object (a puzzle as a file holds it)")
        if family is not None and "family" not in data:
            data = {"family": family, **data}
        return [Entry("puzzle", str(data.get("id", "puzzle")), data)]
    if "family" in body:
        data = {key: value for key, value in body.items() if key not in OPTION_KEYS}
        return [Entry("puzzle", str(data.get("id", "puzzle")), data)]
    raise UsageError('puzzle: missing (send {"puzzle": {...}} or {"text": "..."})')


def puzzle_of(body: dict[str, Any]) -> Puzzle:
    """The one puzzle a request names (``index``: which of a text's puzzles, 1 = first)."""
    from grader.rating.loading import build

    found = entries_of(body)
    index = body.get("index", 1)
    if isinstance(index, bool) or not isinstance(index, int) or index < 1:
        raise UsageError("index: must be a whole number, 1 or more")
    if index > len(found):
        raise UsageError(f"index: the text holds {len(found)} puzzle(s), not {index}")
    return build(found[index - 1])


def number(body: dict[str, Any], key: str, low: float = 0.0) -> float | None:
    """A number field above ``low`` (None when absent)."""
    value = body.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise UsageError(f"{key}: must be a number")
    if value <= low:
        raise UsageError(f"{key}: must be more than {low:g}")
    return float(value)


def flag(body: dict[str, Any], key: str, default: bool = False) -> bool:
    """A true/false field."""
    value = body.get(key, default)
    if not isinstance(value, bool):
        raise UsageError(f"{key}: must be true or false")
    return value


def whole(body: dict[str, Any], key: str, default: int | None = None, low: int = 0) -> int | None:
    """A whole-number field at least ``low``."""
    value = body.get(key, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise UsageError(f"{key}: must be a whole number, {low} or more")
    return value


def costs_of(value: Any) -> Any:
    """``costs``: an object as a costs TOML file holds it, or that file's text."""
    from grader.rating.costs import parse_costs

    if value is None:
        return None
    if isinstance(value, str):
        try:
            value = tomllib.loads(value)
        except tomllib.TOMLDecodeError as error:
            raise InputError("costs", "", f"is not valid TOML ({error})") from None
    return parse_costs(value, "costs")


def techniques_of(value: Any) -> str | None:
    """``techniques``: names or levels as ``--techniques`` takes them, or a list of them."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return ",".join(value)
    raise UsageError("techniques: must be a string or a list of technique or level names")


def options_of(body: dict[str, Any], limit: float, exact: bool = True) -> GradeOptions:
    """The grading options of a request; its ``timeout`` is at most the server's ``limit``,
    which is the default."""
    asked = number(body, "timeout")
    return GradeOptions(
        techniques=techniques_of(body.get("techniques")),
        costs=costs_of(body.get("costs")),
        guess=flag(body, "guess"),
        timeout=limit if asked is None else min(asked, limit),
        exact=exact,
    )
