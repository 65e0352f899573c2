"""Build the reference pages of the manual (mkdocs-gen-files) from the code alone: the command
line from the typer apps, the file formats from the JSON Schemas, the technique tables from the
families' tables, the report keys (``grader.output.report_keys``) and the batch columns
(``grader.storage.batch.columns_markdown``)."""

from __future__ import annotations

import json
from typing import Any

import mkdocs_gen_files
import typer

from grader.cli import grade_app, grader_app
from grader.output.evidence_schema import EVIDENCE_SCHEMA
from grader.output.report_keys import FAMILY_KEYS, REPORT_KEYS, STEP_KEYS, keys_markdown
from grader.rating.costs import choose, technique_table
from grader.rating.loading import puzzle_from_dict
from grader.rating.registry import families
from grader.storage.batch import columns_markdown


def own_families() -> dict[str, Any]:
    """The families this project ships (not third-party plugins that happen to be installed)."""
    return {n: f for n, f in families().items() if type(f).__module__.startswith("rules.")}


def cell(text: object) -> str:
    """Text fit for a Markdown table cell."""
    return " ".join(str(text).split()).replace("|", "\\|")


def option_rows(command: Any) -> list[str]:
    """A table row per argument and option of a command."""
    rows = ["| argument or option | meaning | default |", "|---|---|---|"]
    for param in command.params:
        if param.param_type_name == "argument":
            name = param.name.upper() + ("..." if param.nargs == -1 else "")
            default = "" if param.required else "optional"
        else:
            name = " / ".join([*param.opts, *param.secondary_opts])
            shown = param.default
            default = "" if shown in (None, False, ()) or callable(shown) else f"`{shown}`"
        rows.append(f"| `{name}` | {cell(getattr(param, 'help', '') or '')} | {default} |")
    return rows


def command_section(command: Any, path: str, depth: int) -> list[str]:
    """One command (and, for a group, its subcommands) as Markdown (typer's click command)."""
    usage = command.get_usage(command.context_class(command, info_name=path)).strip()
    lines = [f"{'#' * depth} `{path}`", "", cell(command.help or ""), "", "```", usage, "```", ""]
    lines += [*option_rows(command), ""]
    if hasattr(command, "commands"):  # a group (typer vendors click: no isinstance)
        for name, sub in command.commands.items():
            lines += command_section(sub, f"{path} {name}", depth + 1)
    return lines


def cli_page() -> str:
    """The command-line reference."""
    lines = [
        "# Command line",
        "",
        "Generated from the typer apps `grader.cli.grade_app` and `grader.cli.grader_app`: "
        "what `--help` says, command by command.",
        "",
    ]
    grade = typer.main.get_command(grade_app)
    lines += command_section(grade, "grade", 2)
    grader = typer.main.get_command(grader_app)
    lines += ["## `grader`", "", cell(grader.help or ""), ""]
    for name, command in grader.commands.items():
        lines += command_section(command, f"grader {name}", 3)
    return "\n".join(lines)


def schema_rows(schema: dict[str, Any]) -> list[str]:
    """A table row per top-level field of a JSON Schema."""
    required = set(schema.get("required", ()))
    rows = ["| field | type | required | description |", "|---|---|---|---|"]
    for name, field in schema.get("properties", {}).items():
        kinds = field.get("type") or "/".join(
            str(option.get("type", option.get("$ref", "?")).split("/")[-1])
            for option in field.get("anyOf", field.get("oneOf", []))
        )
        if "const" in field:
            kinds = f"`{json.dumps(field['const'])}`"
        text = cell(field.get("description", ""))
        rows.append(f"| `{name}` | {cell(kinds)} | {'yes' if name in required else ''} | {text} |")
    return rows


def formats_page() -> str:
    """The file formats: each family's JSON Schema."""
    lines = [
        "# File formats",
        "",
        "JSON, one puzzle per file (or `.jsonl`, one per line). Generated from each family's "
        "pydantic schema (`grader schema FAMILY` prints the same JSON Schema). Cells in files "
        "count from 0; explanations name them from 1 (`r2c6`).",
        "",
    ]
    for name, family in own_families().items():
        schema = family.schema.model_json_schema()
        lines += [f"## {family.title} (`{name}`)", "", *schema_rows(schema), ""]
        lines += ["Example:", "", "```json", json.dumps(family.example, ensure_ascii=False)]
        lines += ["```", "", f'??? note "The JSON Schema of `{name}`"', ""]
        text = json.dumps(schema, indent=2, ensure_ascii=False)
        lines += ["    ```json", *("    " + line for line in text.splitlines()), "    ```", ""]
    return "\n".join(lines)


def techniques_page() -> str:
    """Every family's technique table."""
    lines = [
        "# Technique tables",
        "",
        "Generated from each family's table (`grader techniques FAMILY`, or `--json` for "
        "scripts) for the family's example puzzle; each name links to its picture on the "
        "family's page.",
        "",
    ]
    for name, family in own_families().items():
        model = puzzle_from_dict(family.example, f"{name} example", "example").model
        specs = technique_table(family, model)
        built = {t.name: t for t in choose(family, model, guess=True)}
        lines += [f"## {family.title}", ""]
        lines += ["| technique | cost | level | default | description |", "|---|---|---|---|---|"]
        for spec in specs:
            technique = built[spec.technique_name]
            tech = spec.technique_name
            link = f"[`{tech}`](../families/{name}.md#technique-{tech})"
            lines.append(
                f"| {link} | {technique.cost:g} | {spec.level} | "
                f"{'yes' if spec.default else 'no'} | {cell(technique.description)} |"
            )
        lines.append("")
    return "\n".join(lines)


def reports_page() -> str:
    """The JSON report keys and the batch columns."""
    lines = [
        "# Reports and batch columns",
        "",
        "## The JSON report",
        "",
        "`grade --json` writes one object per puzzle (JSON lines); `Grade.to_dict()` is the "
        "same in Python. Keys are added, never renamed. Generated from "
        "`grader.output.report_keys.REPORT_KEYS`:",
        "",
        keys_markdown(REPORT_KEYS),
        "Keys a family adds (`Family.report_fields`):",
        "",
    ]
    for name, keys in FAMILY_KEYS.items():
        lines += [f"**{name}**", "", keys_markdown(keys)]
    lines += [
        "Each step of `steps` (with `--trace`), `STEP_KEYS`:",
        "",
        keys_markdown(STEP_KEYS),
        *evidence_section(),
        "## Batch columns",
        "",
        "`grader batch` writes one row per puzzle (CSV or Parquet) with these columns, in this "
        "order (`grader.storage.batch.columns_markdown()`, from `COLUMNS` and `COLUMN_GROUPS`):",
        "",
        columns_markdown(),
    ]
    return "\n".join(lines)


def evidence_section() -> list[str]:
    """A step's ``evidence``: its keys, an example and its JSON Schema."""
    lines = [
        "## A step's evidence",
        "",
        "Each step's `evidence` says what it read and how it reasoned, as data an app can draw "
        "without parsing the sentence. `grader schema evidence` prints the JSON Schema "
        "(`grader.output.evidence_schema.EVIDENCE_SCHEMA`):",
        "",
        "| key | meaning |",
        "|---|---|",
    ]
    for key, spec in EVIDENCE_SCHEMA["properties"].items():
        lines.append(f"| `{key}` | {cell(spec.get('description', ''))} |")
    text = json.dumps(EVIDENCE_SCHEMA, indent=2, ensure_ascii=False)
    lines += ["", '??? note "The JSON Schema of `evidence`"', ""]
    lines += ["    ```json", *("    " + line for line in text.splitlines()), "    ```", ""]
    return lines


PAGES = {
    "reference/cli.md": cli_page,
    "reference/file-formats.md": formats_page,
    "reference/techniques.md": techniques_page,
    "reference/reports.md": reports_page,
}

for path, make in PAGES.items():
    with mkdocs_gen_files.open(path, "w") as page:
        page.write(make())
