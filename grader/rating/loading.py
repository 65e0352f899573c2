"""Reading puzzles: JSON files, JSON lines, and the text formats families understand.

``load("puzzle.json")`` returns the puzzles of a file; anything wrong raises one
:class:`~grader.core.errors.InputError` naming the file, the field and the problem. A string that is
not a file but a family's text format (a Tatham game ID, an 81-character sudoku) loads too.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from grader.core.errors import FieldProblem, InputError, validation_problem
from grader.rating.family import Family, Puzzle
from grader.rating.registry import families, get_family

MAX_FILE_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class Entry:
    """One puzzle of a source before its model is built: the object a family validates, or
    the problem that kept it from being read."""

    origin: str
    default_id: str
    data: Any = None
    problem: InputError | None = None
    text: bool = False
    """Read from a family's text format (its :meth:`~grader.rating.family.Family.parse_text`)."""


def load(source: str | os.PathLike[str], family: str | None = None) -> list[Puzzle]:
    """The puzzles in a file (``.json``, ``.jsonl``, text lines), or in a game-ID string.

    ``family``: the family of puzzles that do not name theirs (and the only one whose text
    formats are tried). Anything wrong raises :class:`InputError` (a ``ValueError``)."""
    puzzles = []
    for entry in entries(source, family):
        puzzles.append(build(entry))
    return puzzles


def build(entry: Entry) -> Puzzle:
    """The puzzle of an entry, or its problem raised."""
    if entry.problem is not None:
        raise entry.problem
    return puzzle_from_dict(entry.data, entry.origin, entry.default_id, text=entry.text)


def entries(source: str | os.PathLike[str], family: str | None = None) -> list[Entry]:
    """The puzzle objects of a source, unbuilt (cheap; batches build them in their workers).

    A problem with the source as a whole raises :class:`InputError`; a problem with one line of
    a multi-puzzle file becomes that entry's ``problem``. ``family`` as in :func:`load`.
    """
    source = os.fspath(source)
    if family is not None and get_family(family) is None:
        known = ", ".join(families())
        raise InputError("--family", "", f"unknown family {family!r} (known: {known})")
    found = _entries(source, family)
    if family is None:
        return found
    return [_of_family(entry, family) for entry in found]


def _of_family(entry: Entry, family: str) -> Entry:
    """An entry read with ``--family``: that family when it names none; its problem when it
    names another (grading it as its own family would ignore what was asked)."""
    if not isinstance(entry.data, dict) or entry.problem is not None:
        return entry
    named = entry.data.get("family")
    if named is None:
        return replace(entry, data={"family": family, **entry.data})
    if named != family and get_family(str(named)) is not get_family(family):
        problem = InputError(entry.origin, "family", f"is {named!r}, but --family says {family!r}")
        return replace(entry, problem=problem)
    return entry


def _entries(source: str, family: str | None) -> list[Entry]:
    if not source.strip():
        raise InputError(repr(source), "", "is an empty name, expected a puzzle file")
    path = Path(source)
    if path.is_dir():
        raise InputError(source, "", "is a directory, expected a puzzle file")
    if not path.exists():
        return [Entry(source, source, _puzzle_word(source, family), text=True)]
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise InputError(source, "", f"is larger than {MAX_FILE_BYTES // 2**20} MiB")
        raw = path.read_bytes()
    except OSError as error:
        raise InputError(source, "", f"cannot be read ({error.strerror or error})") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(source, "", "is not a text file (not UTF-8)") from None
    return _entries_of_content(source, path.stem, path.suffix.lower(), text, family)


def entries_from_text(text: str, origin: str = "text", family: str | None = None) -> list[Entry]:
    """The puzzle objects of text given as it is (a web request's puzzle): read as a file
    holding it would be, by its content (JSON, JSON lines, puzzle lines, game IDs), but never
    as a file name: nothing is read from the file system. ``origin`` names it in messages;
    ``family`` as in :func:`load`."""
    if family is not None and get_family(family) is None:
        known = ", ".join(families())
        raise InputError(origin, "family", f"unknown family {family!r} (known: {known})")
    found = _entries_of_content(origin, origin, "", text.removeprefix("\ufeff"), family)
    if family is None:
        return found
    return [_of_family(entry, family) for entry in found]


def _entries_of_content(
    source: str, stem: str, suffix: str, text: str, family: str | None
) -> list[Entry]:
    """The entries of a source's text (``stem``: the default ids' start; ``suffix``: the file
    name's, lower case, which decides the format before the content does)."""
    if "\x00" in text:
        raise InputError(source, "", "is not a text file (binary content)")
    stripped = text.strip()
    if not stripped:
        raise InputError(source, "", "is empty")
    if suffix == ".jsonl" or (suffix != ".json" and stripped.startswith("{") and "\n{" in stripped):
        return _entries_of_lines(source, text, json_lines=True, family=family, stem=stem)
    if suffix == ".json" or stripped[0] in "{[":
        data = _parse_json(source, stripped)
        document = _document(data, family)
        if document is not None:
            return [
                Entry(f"{source}: {where}", _entry_id(item, f"{stem}#{i + 1}"), item)
                for i, (where, item) in enumerate(document)
            ]
        if isinstance(data, list):
            if not data:
                raise InputError(source, "", "holds no puzzle (an empty list)")
            return [Entry(f"{source}[{i}]", f"{stem}#{i + 1}", item) for i, item in enumerate(data)]
        return [Entry(source, stem, data)]
    return _entries_of_lines(source, text, json_lines=False, family=family, stem=stem)


FILE_LIKE = re.compile(r"[/\\]|\.[A-Za-z][A-Za-z0-9]{0,7}$")
"""A word that looks like a file name (a folder separator or a suffix such as ``.jsonl``)."""


def _puzzle_word(source: str, family: str | None = None) -> dict[str, Any]:
    """The puzzle of a word that names no file: a game ID or a puzzle line that is valid as a
    whole. Anything else is ``no such file`` (a file name of 81 characters is not a sudoku)."""
    try:
        parsed = _from_text(source.strip(), source, family)
        if parsed is not None:
            puzzle_from_dict(parsed, source, source, text=True)  # valid, or not a puzzle ID
            return parsed
        problem = ""
    except InputError as error:
        problem = str(error).removeprefix(f"{source}: ")
    if problem and not FILE_LIKE.search(source):
        raise InputError(source, "", f"no such file (nor a valid puzzle ID: {problem})")
    raise InputError(source, "", "no such file")


def _entries_of_lines(
    source: str,
    text: str,
    json_lines: bool,
    family: str | None = None,
    stem: str | None = None,
) -> list[Entry]:
    """One entry per puzzle line (blank and ``#`` lines skipped): named ``file:line`` in
    messages, ``stem#N`` by default for the N-th puzzle (``stem``: the file name's)."""
    stem = Path(source).stem if stem is None else stem
    out = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        origin = f"{source}:{number}"
        default_id = f"{stem}#{len(out) + 1}"
        try:
            if json_lines or line.startswith("{"):
                out.append(Entry(origin, default_id, _parse_json(origin, line)))
                continue
            parsed = _from_text(line, origin, family)
            if parsed is None:
                known = f"a {family} puzzle line" if family else "a puzzle ID any family knows"
                raise InputError(origin, "", f"is neither JSON nor {known}")
            out.append(Entry(origin, default_id, parsed, text=True))
        except InputError as problem:
            out.append(Entry(origin, default_id, problem=problem))
    if not out:
        raise InputError(source, "", "holds no puzzle")
    return out


def _parse_json(origin: str, text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(
            origin, "", f"is not valid JSON (line {error.lineno} column {error.colno}: {error.msg})"
        ) from None
    except RecursionError:
        raise InputError(origin, "", "is not valid JSON (nested too deeply)") from None


def _document(data: Any, only: str | None = None) -> list[tuple[str, dict[str, Any]]] | None:
    """A collection in a layout some family (``only`` that one, when given) knows (see
    ``Family.parse_document``), or None."""
    if not isinstance(data, dict) or "family" in data:
        return None
    for family in _families(only):
        found = family.parse_document(data)
        if found is not None:
            return found
    return None


def _entry_id(item: Any, default: str) -> str:
    return str(item["id"]) if isinstance(item, dict) and "id" in item else default


def _families(only: str | None) -> list[Family]:
    """Every installed family, or only the one named (the others are not even imported)."""
    if only is not None:
        named = get_family(only)
        return [named] if named is not None else []
    return list(families().values())


def _from_text(text: str, origin: str, only: str | None = None) -> dict[str, Any] | None:
    for family in _families(only):
        try:
            parsed = family.parse_text(text)
        except FieldProblem as problem:
            raise InputError(origin, problem.field, problem.problem) from None
        if parsed is not None:
            return parsed
    return None


def puzzle_from_dict(data: Any, origin: str, default_id: str, text: bool = False) -> Puzzle:
    """Validate one puzzle object and build its model. ``text``: the object is what a family's
    :meth:`~grader.rating.family.Family.parse_text` made, read by its
    :meth:`~grader.rating.family.Family.text_spec`."""
    if not isinstance(data, dict):
        raise InputError(origin, "", "expected a JSON object describing one puzzle")
    name = data.get("family")
    if name is None:
        raise InputError(
            origin, "family", "is missing (name it in the file, or give --family NAME)"
        )
    if not isinstance(name, str):
        raise InputError(origin, "family", "must be a string")
    family = get_family(name)
    if family is None:
        known = ", ".join(families()) or "none installed"
        raise InputError(origin, "family", f"unknown family {name!r} (known: {known})")
    try:
        spec = family.text_spec(data) if text else family.file_spec(data)
        model, givens, solution = family.build(spec)
    except FieldProblem as problem:
        raise InputError(origin, problem.field, problem.problem) from None
    except ValueError as error:
        problem = validation_problem(origin, error)
        if problem is None:
            raise
        raise problem from None
    puzzle_id = data.get("id")
    if puzzle_id is None or isinstance(puzzle_id, bool):
        puzzle_id = default_id
    start = family.start_state(model, givens)
    return Puzzle(
        family=family,
        model=model,
        givens=start,
        id=str(puzzle_id),
        origin=origin,
        data=data,
        solution=solution,
        clues=None if start == givens else givens,
    )
