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


def field_type(field: dict[str, Any]) -> str:
    """A JSON Schema property's type in a few words (``string/null``, ``object``, ``"sudoku"``)."""
    if "const" in field:
        return f"`{json.dumps(field['const'])}`"
    if "enum" in field:
        return " or ".join(f"`{json.dumps(value)}`" for value in field["enum"])
    if "$ref" in field:
        return "object"
    if "type" in field:
        return str(field["type"])
    options = field.get("anyOf", field.get("oneOf", []))
    return "/".join(field_type(option) for option in options) or "any"


def schema_rows(schema: dict[str, Any]) -> list[str]:
    """A table row per top-level field of a JSON Schema."""
    required = set(schema.get("required", ()))
    rows = ["| field | type | required | description |", "|---|---|---|---|"]
    for name, field in schema.get("properties", {}).items():
        kinds = cell(field_type(field))
        text = cell(field.get("description", ""))
        rows.append(f"| `{name}` | {kinds} | {'yes' if name in required else ''} | {text} |")
    return rows


def refs_in(node: Any) -> list[str]:
    """The ``$defs`` names a piece of a JSON Schema refers to, in order, each once."""
    found: list[str] = []
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str):
            found.append(ref.rsplit("/", 1)[-1])
        for value in node.values():
            found += refs_in(value)
    elif isinstance(node, list):
        for value in node:
            found += refs_in(value)
    return list(dict.fromkeys(found))


def nested_tables(schema: dict[str, Any]) -> list[str]:
    """A small table per object a top-level field holds (a family's ``rules``, a door written
    as an object), from the schema's ``$defs``: each option's type, default and meaning."""
    definitions = schema.get("$defs", {})
    lines: list[str] = []
    for name, field in schema.get("properties", {}).items():
        for ref in refs_in(field):
            nested = definitions.get(ref, {})
            if not nested.get("properties"):
                continue
            about = cell(nested.get("description", ref))
            lines += [f"**`{name}`**: {about}", ""]
            lines += ["| option | type | default | meaning |", "|---|---|---|---|"]
            required = set(nested.get("required", ()))
            for option, spec in nested["properties"].items():
                default = (
                    "required" if option in required else f"`{json.dumps(spec.get('default'))}`"
                )
                lines.append(
                    f"| `{option}` | {cell(field_type(spec))} | {default} | "
                    f"{cell(spec.get('description', ''))} |"
                )
            lines.append("")
    return lines


def text_formats_section(found: dict[str, Any]) -> list[str]:
    """The formats each family reads besides its JSON file (``Family.text_formats``), each
    with its example and how to read it."""
    lines = [
        "## Text formats",
        "",
        "Besides its JSON file, a family reads the formats below. A text line (a game ID, a "
        "one-line grid) can be given to `grade` as it is, instead of a file name (`grade "
        "'LINE'`), or in a text file of one puzzle per line (blank lines and "
        "lines starting with `#` are skipped). A JSON layout is read from a `.json` file; one "
        "that holds a single puzzle also from a `.jsonl` file, one object per line.",
        "",
    ]
    for name, family in found.items():
        if not family.text_formats:
            continue
        lines += [f"### {family.title} (`{name}`)", ""]
        for text_format in family.text_formats:
            language = "json" if text_format.example.lstrip().startswith("{") else "text"
            lines += [f"**{text_format.name}**: {cell(text_format.description)}", ""]
            lines += [f"```{language}", text_format.example, "```", ""]
            if text_format.needs_family:
                lines += [f"Read with `grade --family {name} FILE`.", ""]
    return lines


def formats_page() -> str:
    """The file formats: each family's JSON Schema, its nested objects and its text formats."""
    lines = [
        "# File formats",
        "",
        "JSON, one puzzle per file (or `.jsonl`, one per line). Generated from each family's "
        "pydantic schema (`grader schema FAMILY` prints the same JSON Schema). Cells in files "
        "count from 0; explanations name them from 1 (`r2c6`). Each family also reads the "
        "[text formats](#text-formats) listed at the end.",
        "",
    ]
    found = own_families()
    for name, family in found.items():
        schema = family.schema.model_json_schema()
        lines += [f"## {family.title} (`{name}`)", "", *schema_rows(schema), ""]
        lines += nested_tables(schema)
        lines += ["Example:", "", "```json", json.dumps(family.example, ensure_ascii=False)]
        lines += ["```", "", f'??? note "The JSON Schema of `{name}`"', ""]
        text = json.dumps(schema, indent=2, ensure_ascii=False)
        lines += ["    ```json", *("    " + line for line in text.splitlines()), "    ```", ""]
    lines += text_formats_section(found)
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
