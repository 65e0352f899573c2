"""``grader bank list``, ``show`` and ``export``: the store of graded puzzles."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Sequence
from typing import Annotated

import typer

from grader.cli.common import (
    App,
    ForceOpt,
    JsonOpt,
    grader_app,
    note,
    out,
    standard_output,
)
from grader.core.errors import InputError, UsageError

bank_app = App(
    add_completion=False,
    rich_markup_mode=None,
    no_args_is_help=True,
    help="The puzzle bank: list, show, export and mark published the puzzles stored by "
    "'grader generate --bank FILE.db' and 'grader batch --bank FILE.db'.",
)
grader_app.add_typer(bank_app, name="bank")


def _not_empty(path: str) -> str:
    """A bank file to read: an empty file is refused, not made a bank (SQLite would write its
    tables into any empty file, ``puzzles.json`` too, on a command that only reads)."""
    from pathlib import Path

    found = Path(path)
    if found.is_file() and found.stat().st_size == 0:
        raise InputError(path, "", "is empty, not a puzzle bank")
    return path


BankFile = Annotated[
    str,
    typer.Argument(help="The bank file (SQLite).", metavar="FILE.db", callback=_not_empty),
]
FamilyFilter = Annotated[str | None, typer.Option("--family", help="Only this family.")]
SizeFilter = Annotated[str | None, typer.Option("--size", help="Only this size, e.g. 6x6.")]
LevelFilter = Annotated[
    str | None, typer.Option("--level", help="Only these levels (comma separated).")
]
MinFilter = Annotated[float | None, typer.Option("--min-difficulty", help="Difficulty at least.")]
MaxFilter = Annotated[float | None, typer.Option("--max-difficulty", help="Difficulty at most.")]
PublishedFilter = Annotated[
    bool | None,
    typer.Option(
        "--published/--unpublished", help="Only puzzles already published / not yet published."
    ),
]
CountOpt = Annotated[
    int | None,
    typer.Option("--count", "-n", "--limit", help="At most this many.", min=1, metavar="N"),
]
OrderOpt = Annotated[
    str,
    typer.Option(
        "--order",
        help="added, difficulty, hardest or effort; '-' before one (e.g. -added) reverses it.",
    ),
]


def _filters(
    family: str | None,
    size: str | None,
    level: str | None,
    min_difficulty: float | None,
    max_difficulty: float | None,
    published: bool | None,
    order: str,
) -> dict[str, object]:
    """The command-line filters as :meth:`grader.storage.bank.Bank.query` takes them."""
    from grader.rating.family import OUTCOMES
    from grader.rating.registry import families
    from grader.storage.bank import split_levels

    if family is not None and family not in families():
        known = ", ".join(families())
        raise UsageError(f"--family: unknown family {family!r} (known: {known})")
    levels = split_levels(level)
    if levels:
        known = families()
        chosen = [known[family]] if family else known.values()  # a plugin may name its own
        named = [*dict.fromkeys(lv for f in chosen for lv in f.levels), *OUTCOMES]
        unknown = [lv for lv in levels if lv not in named]
        if unknown:
            raise UsageError(f"--level: unknown level {unknown[0]!r} (known: {', '.join(named)})")
    return {
        "family": family,
        "size": size,
        "level": levels,
        "min_difficulty": min_difficulty,
        "max_difficulty": max_difficulty,
        "published": published,
        "order": order,
    }


@bank_app.command("list", help="List stored puzzles matching the filters.")
def bank_list(
    bank: BankFile,
    family: FamilyFilter = None,
    size: SizeFilter = None,
    level: LevelFilter = None,
    min_difficulty: MinFilter = None,
    max_difficulty: MaxFilter = None,
    published: PublishedFilter = None,
    limit: CountOpt = None,
    order: OrderOpt = "added",
    as_json: JsonOpt = False,
) -> None:
    from rich.table import Table

    from grader.storage.bank import LIST_COLUMNS, select

    filters = _filters(family, size, level, min_difficulty, max_difficulty, published, order)
    found, total = select(bank, limit=limit, **filters)
    if as_json:
        for entry in found:
            payload = {k: v for k, v in entry.to_dict().items() if k != "key"}
            print(json.dumps(payload, ensure_ascii=False))
        return
    title = f"{len(found)} of {total} matching puzzles"
    if not stdout_is_terminal():  # a pipe or a file: whole values, tab-separated
        print(f"# {title}")
        print_plain_table(LIST_COLUMNS, [entry.row() for entry in found])
        return
    table = Table(title=title, title_justify="left")
    for column in LIST_COLUMNS:
        table.add_column(column, justify="right" if column in ("difficulty", "effort") else "left")
    for entry in found:
        table.add_row(*entry.row())
    out.print(table)


def stdout_is_terminal() -> bool:
    """Whether stdout is a terminal (a table fitted to it) rather than a pipe or a file."""
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def print_plain_table(columns: Sequence[str], rows: Iterable[Sequence[str]]) -> None:
    """A header and rows, tab-separated, each value whole (tabs and line breaks in a value
    become spaces, so every row stays one line)."""
    for cells in (columns, *rows):
        print("\t".join(" ".join(str(cell).split("\t")).replace("\n", " ") for cell in cells))


@bank_app.command("show", help="Show one stored puzzle: its grade and its grid.")
def bank_show(
    bank: BankFile,
    name: Annotated[str, typer.Argument(help="Its ref (or a prefix), key or id.")],
    as_json: JsonOpt = False,
) -> None:
    from rich.markup import escape

    from grader.output.report import board_text
    from grader.storage.bank import Bank, exported

    with Bank(bank, create=False) as store:
        entry = store.get(name)
    if as_json:
        print(json.dumps(entry.to_dict(), ensure_ascii=False))
        return
    # soft wrap: lines are never cut or wrapped at the console's width (80 in a pipe)
    for key in ("ref", "family", "size", "level", "difficulty", "effort", "givens", "id"):
        value = getattr(entry, key)
        shown = escape(str(value)) if value is not None else ""
        out.print(f"[bold]{key:<11}[/bold]{shown}", soft_wrap=True)
    out.print(f"[bold]{'published':<11}[/bold]{entry.published or 'no'}", soft_wrap=True)
    out.print(f"[bold]{'added':<11}[/bold]{entry.added}", soft_wrap=True)
    used = ", ".join(f"{k} x{v}" for k, v in entry.techniques.items())
    out.print(f"[bold]{'techniques':<11}[/bold]{used}", soft_wrap=True)
    if isinstance(entry.puzzle.get("grid"), list):
        out.print(board_text([str(row) for row in entry.puzzle["grid"]]), soft_wrap=True)
    puzzle = exported(entry)  # as bank export writes it: the grade and its settings in meta
    out.print(json.dumps(puzzle, ensure_ascii=False), markup=False, soft_wrap=True)


@bank_app.command(
    "export",
    help="Write stored puzzles matching the filters to a puzzle file (.jsonl or .json; "
    "without -o, JSON lines on standard output); "
    "--mark-published records them as published.",
)
def bank_export(
    bank: BankFile,
    output: Annotated[
        str | None,
        typer.Option(
            "--output",
            "-o",
            help="The file to write (.jsonl or .json; default, or -: JSON lines on standard "
            "output).",
            metavar="FILE",
            callback=standard_output,
        ),
    ] = None,
    family: FamilyFilter = None,
    size: SizeFilter = None,
    level: LevelFilter = None,
    min_difficulty: MinFilter = None,
    max_difficulty: MaxFilter = None,
    published: PublishedFilter = None,
    count: CountOpt = None,
    order: OrderOpt = "added",
    mark_published: Annotated[
        bool, typer.Option("--mark-published", help="Record the exported puzzles as published.")
    ] = False,
    force: ForceOpt = False,
) -> None:
    from grader.storage.bank import export_file

    filters = _filters(family, size, level, min_difficulty, max_difficulty, published, order)
    found = export_file(
        bank,
        output,
        count=count,
        mark_published=mark_published,
        force=force,
        note=note,
        **filters,
    )
    marked = ", marked published" if mark_published else ""
    note(f"wrote {len(found)} puzzle(s) to {output or 'standard output'}{marked}")


Refs = Annotated[list[str], typer.Argument(help="Refs (or prefixes), keys or ids.", metavar="REF")]


@bank_app.command("publish", help="Record stored puzzles as published (today).")
def bank_publish(bank: BankFile, refs: Refs) -> None:
    from grader.storage.bank import Bank

    with Bank(bank, create=False) as store:
        entries = [store.get(name) for name in refs]
        changed = store.mark_published(e.ref for e in entries)
    note(f"{bank}: {changed} puzzle(s) marked published")


@bank_app.command("unpublish", help="Record stored puzzles as not published.")
def bank_unpublish(bank: BankFile, refs: Refs) -> None:
    from grader.storage.bank import Bank

    with Bank(bank, create=False) as store:
        entries = [store.get(name) for name in refs]
        changed = store.unpublish(e.ref for e in entries)
    note(f"{bank}: {changed} puzzle(s) marked not published")
