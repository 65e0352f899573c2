"""Errors about input: one line naming the file, the field and the problem."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pydantic import ValidationError


class FieldProblem(ValueError):
    """A problem with one field of a puzzle, raised by families while building a model."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}" if field else problem)
        self.field = field
        self.problem = problem


class InputError(ValueError):
    """Bad input: ``origin: field: problem`` (origin is the file, with a line number for JSONL)."""

    def __init__(self, origin: str, field: str, problem: str) -> None:
        self.origin = origin
        self.field = field
        self.problem = problem
        super().__init__(str(self))

    def __str__(self) -> str:
        parts = [self.origin] if self.origin else []
        if self.field:
            parts.append(self.field)
        parts.append(self.problem)
        return ": ".join(parts)


class UsageError(Exception):
    """A command-line option or request that cannot be carried out (one line)."""


def field_path(loc: tuple) -> str:
    """``('grid', 2)`` → ``grid[2]``; a key that is not a plain printable name is quoted
    (``('rules', '\\n')`` → ``rules['\\n']``), so the message stays one line."""
    out = ""
    for part in loc:
        name = str(part)
        if isinstance(part, int):
            out += f"[{part}]"
        elif not name or not name.isprintable() or name.strip() != name:
            out += f"[{name!r}]"
        else:
            out += ("." if out else "") + name
    return out


def validation_problem(origin: str, error: BaseException) -> InputError | None:
    """The :class:`InputError` of a pydantic validation error, None for any other error.
    Pydantic is imported only where a file is validated: when it is not imported, no
    validation raised ``error``."""
    pydantic = sys.modules.get("pydantic")
    if pydantic is None or not isinstance(error, pydantic.ValidationError):
        return None
    return from_validation(origin, error)


def from_validation(origin: str, error: ValidationError) -> InputError:
    """The first pydantic error as an :class:`InputError`."""
    first = error.errors()[0]
    message = str(first.get("msg", "is not valid"))
    for prefix in ("Value error, ", "Assertion failed, "):
        if message.startswith(prefix):
            message = message[len(prefix) :]
    loc = tuple(p for p in first.get("loc", ()) if not _type_tag(p))
    if first.get("type") == "missing":
        message = "is missing"
    elif first.get("type") == "extra_forbidden":
        message = "is not a known field"
    elif message.startswith("Input should be "):  # in the words of a JSON file
        message = "must be " + message.removeprefix("Input should be ")
        for python, json_word in _JSON_WORDS.items():
            message = message.replace(python, json_word)
    return InputError(origin, field_path(loc), message)


_JSON_WORDS = {
    "a valid tuple": "a list",
    "a valid list": "a list",
    "a valid dictionary": "an object",
    "a valid string": "a string",
    "a valid integer": "a whole number",
    "a valid number": "a number",
    "a valid boolean": "true or false",
}
"""pydantic's words for types, as a puzzle file (JSON) spells them."""

_TYPE_NAMES = {"str", "int", "float", "bool", "list", "dict", "tuple", "none", "literal"}


def _type_tag(part: object) -> bool:
    """Whether a location part names a type, not a field: pydantic adds the member of a union
    (``size.tuple[int, int]``, ``id.str``) and validator wrappers (``function-after[...]``)."""
    if not isinstance(part, str):
        return False
    return "[" in part or part in _TYPE_NAMES or part.startswith("function-")
