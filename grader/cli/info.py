"""``grader schema``, ``techniques``, ``families`` and ``canon``: what the installed families
know, and canonical keys of puzzles."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from grader.cli.common import CostsOpt, FamilyOpt, Files, Sources, grader_app, out
from grader.core.errors import UsageError


def _unknown(family: str, known: dict) -> UsageError:
    return UsageError(f"family: unknown family {family!r} (known: {', '.join(known)})")


@grader_app.command(
    "schema",
    help="Print the JSON Schema of a family's puzzle file, or with 'evidence' of a traced "
    "step's evidence.",
)
def grader_schema(
    family: Annotated[
        str | None,
        typer.Argument(help="A family, or 'evidence'; every family's file if omitted."),
    ] = None,
) -> None:
    from grader.rating.registry import families

    if family == "evidence":
        from grader.output.evidence_schema import EVIDENCE_SCHEMA

        print(json.dumps(EVIDENCE_SCHEMA, indent=2, ensure_ascii=False))
        return
    known = families()
    if family is not None and family not in known:
        raise _unknown(family, known)
    chosen = [known[family]] if family else list(known.values())
    schemas = [f.schema.model_json_schema() for f in chosen]
    document = schemas[0] if family else {"oneOf": schemas, "title": "puzzle file"}
    print(json.dumps(document, indent=2, ensure_ascii=False))


@grader_app.command(
    "techniques", help="List a family's techniques with cost, level and description."
)
def grader_techniques(
    family: Annotated[str, typer.Argument(help="A family name.")],
    costs: CostsOpt = None,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json",
            help="A JSON list of the techniques (technique, title, cost, level, default, "
            "description), for scripts.",
        ),
    ] = False,
) -> None:
    from rich.table import Table

    from grader.rating.costs import build_table, load_costs, technique_table
    from grader.rating.loading import puzzle_from_dict
    from grader.rating.registry import families

    known = families()
    if family not in known:
        raise _unknown(family, known)
    fam = known[family]
    sample = puzzle_from_dict(fam.example, f"{family} example", "example").model
    specs = technique_table(fam, sample)
    built = build_table(fam, specs, load_costs(costs) if costs else None)  # grade's check
    if as_json:
        rows = [
            {
                "technique": technique.name,
                "title": technique.title,
                "cost": technique.cost,
                "level": spec.level,
                "default": spec.default,
                "description": technique.description,
            }
            for spec, technique in zip(specs, built, strict=True)
        ]
        print(json.dumps(rows, ensure_ascii=False, indent=1))
        return
    table = Table(title=f"{fam.title} techniques")
    for column in ("technique", "cost", "level", "default", "description"):
        table.add_column(column)
    for spec, technique in zip(specs, built, strict=True):
        table.add_row(
            technique.name,
            f"{technique.cost:g}",
            spec.level,
            "yes" if spec.default else "no",
            technique.description,
        )
    out.print(table)


@grader_app.command(
    "families",
    help="List the installed puzzle families: title, default size (rows x cols) and options "
    "(a file's rules, generate --rule KEY=VALUE).",
)
def grader_families() -> None:
    from grader.output.report import print_long
    from grader.rating.registry import families

    for name, family in families().items():
        size = family.size_text(family.default_size)
        largest = (
            f", largest {family.size_text(family.largest_size)}" if family.largest_size else ""
        )
        print_long(out, f"{name:<10} {family.title} (default size {size}{largest})", hang=13)
        print_long(out, f"{'':<10}   levels: {family.levels_text()}", hang=15)
        if not family.options:
            out.print(f"{'':<10}   options: none", markup=False)
        for option, meaning in family.options.items():
            print_long(out, f"{'':<10}   {option}: {meaning}", hang=15)


@grader_app.command("canon", help="Print each puzzle's canonical key (equal for symmetric copies).")
def grader_canon(files: Files, family: FamilyOpt = None) -> None:
    sources = Sources(files, family=family)
    for puzzle in sources:
        key = puzzle.family.canonical_key(puzzle.model, puzzle.clue_state)
        out.print(f"{puzzle.id}\t{key}", markup=False, highlight=False, soft_wrap=True)
    raise typer.Exit(sources.code)
