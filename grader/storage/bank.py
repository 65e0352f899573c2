"""The puzzle bank: an embedded SQLite file of graded puzzles.

Each puzzle is stored once, keyed by its family and canonical form
(:meth:`grader.rating.family.Family.canonical_key`), with its grade (level, difficulty, effort,
givens, techniques) and a ``published`` date that stays empty until the puzzle is exported as
published. Queries select by family, size, level, difficulty range and published state, e.g.
"30 hard 6x6 Tangos not published yet".
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, fields
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from grader.core.errors import InputError, UsageError
from grader.output.files import check_new
from grader.rating.family import Puzzle

SCHEMA_VERSION = 2
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS puzzles (
    key TEXT PRIMARY KEY,
    ref TEXT NOT NULL UNIQUE,
    family TEXT NOT NULL,
    rows INTEGER NOT NULL,
    cols INTEGER NOT NULL,
    level TEXT NOT NULL,
    difficulty REAL NOT NULL,
    effort REAL NOT NULL,
    givens INTEGER NOT NULL,
    solved INTEGER NOT NULL,
    hardest TEXT,
    techniques TEXT NOT NULL,
    puzzle TEXT NOT NULL,
    id TEXT,
    source TEXT,
    version TEXT,
    added TEXT NOT NULL,
    published TEXT,
    settings TEXT
);
CREATE INDEX IF NOT EXISTS puzzles_pick ON puzzles (family, rows, cols, level, difficulty);
"""
MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: ("ALTER TABLE puzzles ADD COLUMN settings TEXT",),  # the grade's settings, as JSON
}
"""The SQL that takes a bank of schema N to N + 1 (:meth:`Bank._upgrade`)."""
ORDERS = {
    "added": "added, ref",
    "difficulty": "difficulty, effort, ref",
    "hardest": "difficulty DESC, effort DESC, ref",
    "effort": "effort, ref",
}


def order_sql(order: str) -> str:
    """The SQL of an order name; ``-name`` (or ``name`` with ``reverse``) turns it round."""
    reverse = order.startswith("-")
    name = order.lstrip("-")
    if name not in ORDERS:
        raise UsageError(
            f"--order: unknown order {order!r} "
            f"(use {', '.join(ORDERS)}; '-' before one reverses it)"
        )
    if not reverse:
        return ORDERS[name]
    terms = []
    for term in ORDERS[name].split(", "):
        terms.append(term[: -len(" DESC")] if term.endswith(" DESC") else f"{term} DESC")
    return ", ".join(terms)


def canonical(puzzle: Puzzle) -> str:
    """The bank key: family and canonical form, equal for symmetric copies of a puzzle."""
    family = puzzle.family
    return f"{family.name}:{family.canonical_key(puzzle.model, puzzle.clue_state)}"


def reference(key: str) -> str:
    """A short, stable name of a bank entry (shown by ``bank list``)."""
    return hashlib.sha1(key.encode("utf-8")).hexdigest()[:10]


def record_of(puzzle: Puzzle, report: dict[str, Any]) -> dict[str, Any]:
    """What the bank stores of a graded puzzle (``report``: ``Grade.to_dict()``)."""
    rows, cols = report["size"]
    data = puzzle.family.to_data(puzzle.model, puzzle.clue_state)
    for extra in ("name", "source", "author"):
        if puzzle.data.get(extra) is not None:
            data.setdefault(extra, puzzle.data[extra])
    data["id"] = puzzle.id
    if report["solved"] and report["solutions"] == 1:
        data["solution"] = report["grid"]  # what a daily site shows the next day
    meta = dict(puzzle.data.get("meta") or {})  # the generator's seed, level, version
    meta.setdefault("version", report["version"])
    data["meta"] = meta
    return {
        "key": canonical(puzzle),
        "family": puzzle.family.name,
        "rows": rows,
        "cols": cols,
        "level": report["level"],
        "difficulty": report["difficulty"],
        "effort": report["effort"],
        "givens": report["givens"],
        "solved": bool(report["solved"]),
        "solutions": report["solutions"],
        "hardest": report["hardest"],
        "techniques": {name: int(e["count"]) for name, e in report["techniques"].items()},
        "puzzle": data,
        "id": puzzle.id,
        "source": puzzle.origin,
        "version": report["version"],
        "settings": report["settings"],
    }


@dataclass(frozen=True)
class Entry:
    """One stored puzzle."""

    ref: str
    key: str
    family: str
    rows: int
    cols: int
    level: str
    difficulty: float
    effort: float
    givens: int
    solved: bool
    hardest: str | None
    techniques: dict[str, int]
    puzzle: dict[str, Any]
    id: str | None
    source: str | None
    version: str | None
    added: str
    published: str | None
    settings: dict[str, Any] | None
    """What the grade was made with (``Grade.to_dict()["settings"]``); None in entries a bank
    of schema 1 stored."""

    @property
    def size(self) -> str:
        return f"{self.rows}x{self.cols}"

    def to_dict(self) -> dict[str, Any]:
        """Every field, as JSON data."""
        return asdict(self)

    def row(self) -> list[str]:
        """The entry's cells under :data:`LIST_COLUMNS` (as ``grader bank list`` shows)."""
        return [
            self.ref,
            self.family,
            self.size,
            self.level,
            f"{self.difficulty:g}",
            f"{self.effort:g}",
            str(self.givens),
            self.id or "",
            (self.published or "")[:10],
        ]


LIST_COLUMNS = (
    "ref",
    "family",
    "size",
    "level",
    "difficulty",
    "effort",
    "givens",
    "id",
    "published",
)
"""The columns of a bank listing (:meth:`Entry.row`)."""


def parse_size(text: str) -> tuple[int, int]:
    """``6x6`` or ``9`` (square) as (rows, cols)."""
    parts = text.lower().replace("×", "x").split("x")
    try:
        numbers = [int(p) for p in parts]
    except ValueError:
        raise UsageError(f"--size: {text!r} is not a size like 6x6 or 9") from None
    if len(numbers) == 1:
        numbers = numbers * 2
    if len(numbers) != 2 or min(numbers) < 1:
        raise UsageError(f"--size: {text!r} is not a size like 6x6 or 9")
    return numbers[0], numbers[1]


def size_condition(size: str | tuple[int, int], family: str | None) -> tuple[str, list[Any]]:
    """The SQL condition of a size filter, and its arguments. Each family's puzzles are matched
    at the size its model has for the one asked (:meth:`Family.normal_size`: pair place's
    ``6`` is K6, 5 rows of 6 letters), so ``--size 6`` and ``--size 5x6`` find the same pair
    place puzzles; a size a family cannot make is matched as written."""
    from grader.rating.registry import families

    asked = parse_size(size) if isinstance(size, str) else (size[0], size[1])
    known = families()
    shapes: dict[str, tuple[int, int]] = {}
    for name in [family] if family else sorted(known):
        found = known.get(name)
        try:
            shape = asked if found is None else found.normal_size(asked, {})
        except ValueError:  # not a size of this family
            continue
        if shape != asked:
            shapes[name] = shape
    if not shapes:
        return "rows = ? AND cols = ?", [*asked]
    terms, args = [], []
    if family is None:
        terms.append(f"(family NOT IN ({', '.join('?' * len(shapes))}) AND rows = ? AND cols = ?)")
        args += [*shapes, *asked]
    for name, (rows, cols) in shapes.items():
        terms.append("(family = ? AND rows = ? AND cols = ?)")
        args += [name, rows, cols]
    return f"({' OR '.join(terms)})", args


def _now() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()


class Bank:
    """A puzzle bank file (created on first use)."""

    def __init__(self, path: str | Path, create: bool = True) -> None:
        self.path = Path(path)
        if not create and not self.path.exists():
            raise InputError(str(path), "", "no such puzzle bank")
        if self.path.is_dir():
            raise InputError(str(path), "", "is a directory, expected a puzzle bank file")
        self.old_schema: str | None = None
        """The earlier schema of a bank that could not be upgraded (read only): it is read as
        it is and refuses additions."""
        try:
            self.db = sqlite3.connect(self.path)
            self.db.executescript(SCHEMA)
            found = self.db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        except sqlite3.DatabaseError as error:
            raise InputError(str(path), "", f"is not a puzzle bank ({error})") from None
        if found is None:
            with self.db:
                self.db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        elif found[0] != str(SCHEMA_VERSION):
            if not (found[0].isdigit() and int(found[0]) in MIGRATIONS):
                raise InputError(
                    str(path), "", f"has bank schema {found[0]}, expected {SCHEMA_VERSION}"
                )
            self._upgrade()

    def _upgrade(self) -> None:
        """Bring a bank of an earlier schema up to this one, in one transaction (another
        process may have done it meanwhile: the schema is read again inside it). A file that
        cannot be written is read as it is (its entries have no settings)."""
        try:
            with self.db:
                self.db.execute("BEGIN IMMEDIATE")
                found = self.db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
                for version in range(int(found[0]), SCHEMA_VERSION):
                    for sql in MIGRATIONS[version]:
                        self.db.execute(sql)
                self.db.execute(
                    "UPDATE meta SET value = ? WHERE key = 'schema'", (str(SCHEMA_VERSION),)
                )
        except sqlite3.OperationalError as error:
            if "readonly" not in str(error) and "unable to open" not in str(error):
                raise InputError(
                    str(self.path),
                    "",
                    f"cannot be upgraded to bank schema {SCHEMA_VERSION} ({error})",
                ) from None
            found = self.db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
            self.old_schema = found[0]

    def require_writable(self) -> None:
        """Refuse (one line) to store into a bank of an earlier schema that could not be
        upgraded (a file this process cannot write)."""
        if self.old_schema is not None:
            raise InputError(
                str(self.path),
                "",
                f"has bank schema {self.old_schema} and cannot be written, so not upgraded to "
                f"{SCHEMA_VERSION}: it can be read, not added to",
            )

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Bank:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- adding ----------------------------------------------------------------------------------

    def add(self, records: Iterable[dict[str, Any]]) -> tuple[int, int]:
        """Store graded puzzles with exactly one solution; (added, already in the bank)."""
        self.require_writable()
        added = duplicates = 0
        now = _now()
        with self.db:
            for record in records:
                if str(record.get("solutions")) != "1":
                    continue
                cursor = self.db.execute(
                    "INSERT OR IGNORE INTO puzzles (key, ref, family, rows, cols, level, "
                    "difficulty, effort, givens, solved, hardest, techniques, puzzle, id, source, "
                    "version, added, settings) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        record["key"],
                        reference(record["key"]),
                        record["family"],
                        record["rows"],
                        record["cols"],
                        record["level"],
                        record["difficulty"],
                        record["effort"],
                        record["givens"],
                        int(record["solved"]),
                        record.get("hardest"),
                        json.dumps(record["techniques"], sort_keys=True),
                        json.dumps(record["puzzle"], ensure_ascii=False),
                        record.get("id"),
                        record.get("source"),
                        record.get("version"),
                        now,
                        _json_or_none(record.get("settings")),
                    ),
                )
                if cursor.rowcount:
                    added += 1
                else:
                    duplicates += 1
        return added, duplicates

    def add_grade(self, grade: Any) -> bool:
        """Store one :class:`~grader.rating.grading.Grade`; False when it was already there."""
        added, _ = self.add([record_of(grade.puzzle, grade.to_dict())])
        return bool(added)

    # -- reading ---------------------------------------------------------------------------------

    def query(
        self,
        *,
        family: str | None = None,
        size: str | tuple[int, int] | None = None,
        level: str | Sequence[str] | None = None,
        min_difficulty: float | None = None,
        max_difficulty: float | None = None,
        published: bool | None = None,
        limit: int | None = None,
        order: str = "added",
    ) -> list[Entry]:
        """Stored puzzles matching every given filter, in ``order`` (see :data:`ORDERS`)."""
        where, args = ["1 = 1"], []
        if family:
            where.append("family = ?")
            args.append(family)
        if size:
            condition, values = size_condition(size, family)
            where.append(condition)
            args += values
        if level:
            levels = [level] if isinstance(level, str) else list(level)
            where.append(f"level IN ({', '.join('?' * len(levels))})")
            args += levels
        if min_difficulty is not None:
            where.append("difficulty >= ?")
            args.append(min_difficulty)
        if max_difficulty is not None:
            where.append("difficulty <= ?")
            args.append(max_difficulty)
        if published is not None:
            where.append("published IS NOT NULL" if published else "published IS NULL")
        sql = f"SELECT * FROM puzzles WHERE {' AND '.join(where)} ORDER BY {order_sql(order)}"
        if limit is not None:
            sql += " LIMIT ?"
            args.append(limit)
        return [self._entry(row) for row in self._rows(sql, args)]

    def get(self, name: str) -> Entry:
        """An entry by its ref (or a unique prefix of it), its key or its puzzle id."""
        rows = self._rows("SELECT * FROM puzzles WHERE substr(ref, 1, ?) = ?", [len(name), name])
        if not rows:
            rows = self._rows("SELECT * FROM puzzles WHERE key = ? OR id = ?", [name, name])
        if not rows:
            raise UsageError(f"{self.path}: no puzzle {name!r} in the bank")
        if len(rows) > 1:
            refs = ", ".join(self._entry(r).ref for r in rows[:5])
            raise UsageError(f"{self.path}: {name!r} names several puzzles ({refs}...)")
        return self._entry(rows[0])

    def count(self) -> int:
        return self.db.execute("SELECT COUNT(*) FROM puzzles").fetchone()[0]

    def unpublish(self, refs: Iterable[str]) -> int:
        """Clear the published date of these entries; the number changed."""
        with self.db:
            sql = "UPDATE puzzles SET published = NULL WHERE ref = ?"
            return sum(self.db.execute(sql, (ref,)).rowcount for ref in refs)

    def mark_published(self, refs: Iterable[str], when: str | None = None) -> int:
        """Set the published date of these entries; the number changed."""
        self.require_writable()
        stamp = when or _now()
        with self.db:
            return sum(
                self.db.execute(
                    "UPDATE puzzles SET published = ? WHERE ref = ?", (stamp, ref)
                ).rowcount
                for ref in refs
            )

    def _rows(self, sql: str, args: Sequence[Any]) -> list[sqlite3.Row]:
        self.db.row_factory = sqlite3.Row
        try:
            return self.db.execute(sql, list(args)).fetchall()
        finally:
            self.db.row_factory = None

    @staticmethod
    def _entry(row: sqlite3.Row) -> Entry:
        columns = row.keys()  # a schema 1 bank read as it is (not writable) has no settings
        values = {f.name: row[f.name] if f.name in columns else None for f in fields(Entry)}
        values["solved"] = bool(values["solved"])
        values["techniques"] = json.loads(values["techniques"])
        values["puzzle"] = json.loads(values["puzzle"])
        if values["settings"] is not None:
            values["settings"] = json.loads(values["settings"])
        return Entry(**values)


def _json_or_none(value: Any) -> str | None:
    return None if value is None else json.dumps(value, sort_keys=True, ensure_ascii=False)


def check_bank(path: str | Path) -> None:
    """Refuse (one line) a bank file that exists but is no puzzle bank or cannot be added to,
    or whose folder cannot be made or written, without creating the bank."""
    target = Path(path)
    if target.exists():
        with Bank(target) as store:
            store.require_writable()
        return
    try:
        check_new(target, force=True)  # its folder made and written to, as any output's
    except UsageError as error:
        raise InputError(str(path), "", str(error).removeprefix(f"{target}: ")) from None


def grade_into(path: str | Path, puzzles: Iterable[dict[str, Any]]) -> tuple[int, int]:
    """Grade puzzle dicts (as ``grader generate`` writes them) and store them in the bank at
    ``path``; (added, not added: already there or not unique)."""
    from grader.rating.grading import grade
    from grader.rating.loading import puzzle_from_dict

    added = total = 0
    with Bank(path) as store:
        for data in puzzles:
            total += 1
            puzzle = puzzle_from_dict(data, str(path), data.get("id", ""))
            added += store.add_grade(grade(puzzle))
    return added, total - added


def split_levels(text: str | None) -> list[str] | None:
    """``"hard, expert"`` as level names; None (any level) for no text."""
    return [x.strip() for x in text.split(",") if x.strip()] if text else None


def select(
    path: str | Path, *, limit: int | None = None, **filters: Any
) -> tuple[list[Entry], int]:
    """The entries of the bank at ``path`` matching ``filters`` (see :meth:`Bank.query`; at
    most ``limit``), and how many match in all."""
    with Bank(path, create=False) as store:
        return store.query(limit=limit, **filters), len(store.query(**filters))


def export_file(
    bank: str | Path,
    output: str | Path | None,
    *,
    count: int | None = None,
    mark_published: bool = False,
    force: bool = False,
    note: Callable[[str], None] | None = None,
    **filters: Any,
) -> list[Entry]:
    """Write the stored puzzles matching ``filters`` (see :meth:`Bank.query`; at most
    ``count``) to a puzzle file (``.jsonl`` or ``.json``; None: JSON lines on standard
    output), optionally recording them as published; the entries written. ``note`` hears when
    fewer than ``count`` match."""
    from grader.output.files import PUZZLE_SUFFIXES, check_new, output_suffix, write_atomic

    if output is not None:
        output_suffix(output, PUZZLE_SUFFIXES, "puzzle file")
        check_new(output, force)
    with Bank(bank, create=False) as store:
        found = store.query(limit=count, **filters)
        if not found:
            raise UsageError(f"{bank}: no stored puzzle matches these filters; nothing written")
        if count is not None and len(found) < count and note is not None:
            note(f"only {len(found)} puzzle(s) match (asked for {count})")
        if output is None:
            sys.stdout.write(export_text(found, ".jsonl"))
            sys.stdout.flush()
        else:
            write_atomic(output, export_text(found, output))
        if mark_published:
            store.mark_published(e.ref for e in found)
    return found


def exported(entry: Entry) -> dict[str, Any]:
    """A stored puzzle as exported: its file data, with the bank's grade (level, difficulty,
    effort, version, settings) in ``meta`` whoever added it, and the entry's ref when it has no
    id."""
    meta = dict(entry.puzzle.get("meta") or {})
    meta.update(level=entry.level, difficulty=entry.difficulty, effort=entry.effort)
    if entry.version is not None:
        meta["version"] = entry.version
    if entry.settings is not None:
        meta["settings"] = entry.settings
    else:  # none recorded (schema 1): a generator's would not be what this grade used
        meta.pop("settings", None)
    return {**entry.puzzle, "id": entry.puzzle.get("id") or entry.ref, "meta": meta}


def export_text(entries: Sequence[Entry], output: str | Path) -> str:
    """The puzzle file of the entries as exported (:func:`exported`), for ``output``'s suffix
    (see :func:`grader.output.files.puzzle_file_text`)."""
    from grader.output.files import puzzle_file_text

    lines = [json.dumps(exported(e), ensure_ascii=False) for e in entries]
    return puzzle_file_text(lines, output)
