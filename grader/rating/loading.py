"""Reading puzzles: JSON files, JSON lines, and the text formats families understand.

``load("puzzle.json")`` returns the puzzles of a file; anything wrong raises one
:class:`~grader.core.errors.InputError` naming the file, the field and the problem. A string that is
not a file but a family's text format (a Tatham game ID, an 81-character sudoku) loads too, and
``-`` is standard input. No source is read past :data:`MAX_FILE_BYTES` (a device or a pipe may
never end).
"""

from __future__ import annotations

import io
import json
import os
import re
import stat
import sys
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, BinaryIO

from grader.core.errors import FieldProblem, InputError, validation_problem
from grader.rating.family import Family, Puzzle
from grader.rating.registry import families, families_in_turn, get_family

MAX_FILE_BYTES = 64 * 1024 * 1024
"""The most a source is read of: a larger file, device or pipe is refused (one line)."""
STDIN = "-"
"""The source that is standard input (``cat puzzle.json | grade -``)."""
STDIN_NAME = "<stdin>"
"""How messages, reports and default ids name standard input."""


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
    """The puzzles in a file (``.json``, ``.jsonl``, text lines), in a game-ID string, or on
    standard input (``-``).

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
    if source == STDIN:
        return _entries_of_bytes(STDIN_NAME, STDIN_NAME, "", _read_stdin(), family)
    if not source.strip():
        raise InputError(repr(source), "", "is an empty name, expected a puzzle file")
    path = Path(source)
    if path.is_dir():
        raise InputError(source, "", "is a directory, expected a puzzle file")
    if not path.exists():
        return [Entry(source, source, _puzzle_word(source, family), text=True)]
    return _entries_of_bytes(source, path.stem, path.suffix.lower(), _read_file(path), family)


def source_name(source: str) -> str:
    """How messages and reports name a source: ``<stdin>`` for ``-``, else as given."""
    return STDIN_NAME if source == STDIN else source


def _read_file(path: Path) -> bytes:
    """The bytes of a file, a device or a named pipe: at most :data:`MAX_FILE_BYTES` (one
    line past that, read no further: ``/dev/zero`` and a pipe never end)."""
    try:
        with path.open("rb") as stream:
            return _read_limited(str(path), stream)
    except OSError as error:
        raise InputError(str(path), "", f"cannot be read ({error.strerror or error})") from None


def _read_stdin() -> bytes:
    """The bytes of standard input, limited as a file's are."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise InputError(STDIN_NAME, "", "cannot be read (no standard input)")
    try:
        return _read_limited(STDIN_NAME, stream)
    except OSError as error:
        raise InputError(STDIN_NAME, "", f"cannot be read ({error.strerror or error})") from None


def _read_limited(name: str, stream: BinaryIO) -> bytes:
    """At most :data:`MAX_FILE_BYTES` of ``stream``; more raises :class:`InputError` (a
    regular file too large is refused by its size, unread)."""
    limit = MAX_FILE_BYTES
    if _regular_size(stream) > limit:
        raise InputError(name, "", f"is larger than {_size_text(limit)}")
    raw = stream.read(limit + 1)
    if len(raw) > limit:
        raise InputError(name, "", f"is larger than {_size_text(limit)}")
    return raw


def _regular_size(stream: BinaryIO) -> int:
    """The size of a regular file (0 for a pipe, a device or a stream without a file)."""
    try:
        status = os.fstat(stream.fileno())
    except (OSError, ValueError, io.UnsupportedOperation):
        return 0
    return status.st_size if stat.S_ISREG(status.st_mode) else 0


def _size_text(size: int) -> str:
    """``64 MiB``, or ``1000 bytes`` for a size that is no whole number of MiB."""
    return f"{size // 2**20} MiB" if size % 2**20 == 0 else f"{size} bytes"


def _entries_of_bytes(
    source: str, stem: str, suffix: str, raw: bytes, family: str | None
) -> list[Entry]:
    """The entries of a source's content: ``stem`` names its puzzles by default, ``suffix``
    (``.json``, ``.jsonl`` or another) says how to read it when the content does not."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(source, "", "is not a text file (not UTF-8)") from None
    return _entries_of_content(source, stem, suffix, text, family)


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
GAME_ID_LIKE = re.compile(r"^\d+(?:x\d+)?[A-Za-z]*:")
"""A word shaped like a Simon Tatham game ID (``6x6:...``, ``8x8u:...``, ``3x3:...``): what is
wrong with it is said as a game ID's problem, not ``no such file``."""


def _puzzle_word(source: str, family: str | None = None) -> dict[str, Any]:
    """The puzzle of a word that names no file: a game ID or a puzzle line that is valid as a
    whole. A word shaped like a game ID gets its problem as one; anything else is ``no such
    file`` (a file name of 81 characters is not a sudoku)."""
    game_id = GAME_ID_LIKE.match(source.strip()) is not None
    try:
        parsed = _from_text(source.strip(), source, family)
        if parsed is not None:
            puzzle_from_dict(parsed, source, source, text=True)  # valid, or not a puzzle ID
            return parsed
        problem = ""
    except InputError as error:
        if game_id:
            raise
        problem = str(error).removeprefix(f"{source}: ")
    if game_id:
        known = f"a {family}" if family else "any family's"
        raise InputError(source, "", f"is not {known} game ID")
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


def _families(only: str | None) -> Iterable[Family]:
    """Every installed family, each imported when reached (see ``families_in_turn``), or only
    the one named (the others are not even imported)."""
    if only is not None:
        named = get_family(only)
        return [named] if named is not None else []
    return families_in_turn()


def _from_text(text: str, origin: str, only: str | None = None) -> dict[str, Any] | None:
    """The puzzle dict of the first family whose text formats read ``text``; None when none
    knows its shape; when families know its shape but none reads it, their problems raised
    (``6x6:!!!!`` may be an Unruly or a Solo game ID: why it is neither)."""
    problems: list[FieldProblem] = []
    for family in _families(only):
        try:
            parsed = family.parse_text(text)
        except FieldProblem as problem:
            problems.append(problem)
            continue
        if parsed is not None:
            return parsed
    if problems:
        raise _text_problem(origin, problems)
    return None


def _text_problem(origin: str, problems: list[FieldProblem]) -> InputError:
    """One error of the problems families found with a text: the field they share, then each
    problem once, separated by ``;``."""
    fields = {problem.field for problem in problems}
    if len(fields) == 1:
        said = dict.fromkeys(problem.problem for problem in problems)
        return InputError(origin, fields.pop(), "; ".join(said))
    return InputError(origin, "", "; ".join(dict.fromkeys(str(p) for p in problems)))


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
