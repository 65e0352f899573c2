"""Errors about input: one line naming the file, the field and the problem."""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

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
    """The first pydantic error as an :class:`InputError`; when the field takes one of several
    types (a union), what each of them wants: ``rules.boxes: must be true or false, or a
    list``."""
    errors = error.errors()
    first = errors[0]
    loc = _field_loc(first)
    message = _problem_words(first)
    if len(loc) < len(first.get("loc", ())) and message.startswith("must be "):
        wanted = [message.removeprefix("must be ")]
        for other in errors[1:]:  # the union's other members, at the same field
            words = _problem_words(other)
            if _field_loc(other) == loc and words.startswith("must be "):
                wanted.append(words.removeprefix("must be "))
        message = "must be " + ", or ".join(dict.fromkeys(wanted))
    return InputError(origin, field_path(loc), message)


def _field_loc(error: Mapping[str, Any]) -> tuple:
    """The location of a pydantic error without the union members' type tags."""
    return tuple(p for p in error.get("loc", ()) if not _type_tag(p))


def _problem_words(error: Mapping[str, Any]) -> str:
    """What is wrong, in the words of a JSON file (no Python type or class names)."""
    message = str(error.get("msg", "is not valid"))
    for prefix in ("Value error, ", "Assertion failed, "):
        if message.startswith(prefix):
            message = message[len(prefix) :]
    if error.get("type") == "missing":
        return "is missing"
    if error.get("type") == "extra_forbidden":
        return "is not a known field"
    if message.startswith("Input should be "):
        message = "must be " + message.removeprefix("Input should be ")
        message = re.sub(r" or instance of \w+", "", message)  # a model's class name
        message = re.sub(r", unable to .*$", "", message)  # pydantic's parser, not the file
        for python, json_word in _JSON_WORDS.items():
            message = message.replace(python, json_word)
    return message


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
