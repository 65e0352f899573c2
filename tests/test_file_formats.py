"""The manual's file-format page tells a setter how to write every family's puzzles: every field
of every schema (and of its nested objects, such as ``rules``) has a description, every format a
family reads besides its JSON file is listed with an example, and each example loads through
the loader ``grade`` uses and grades."""

from __future__ import annotations

import io
import re
import runpy
import sys
import types
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from grader.rating.family import Family
from grader.rating.grading import grade
from grader.rating.loading import load
from grader.rating.registry import families

if TYPE_CHECKING:
    from grader.rating.family import TextFormat

ROOT = Path(__file__).resolve().parent.parent


def own_families() -> dict[str, Family]:
    """The families this project ships (not plugins installed beside them)."""
    return {n: f for n, f in families().items() if type(f).__module__.startswith("rules.")}


def text_formats() -> list[tuple[str, TextFormat]]:
    return [
        (name, text_format)
        for name, family in own_families().items()
        for text_format in getattr(family, "text_formats", ())
    ]


def undescribed(schema: dict[str, Any]) -> list[str]:
    """The fields of a JSON Schema and of its ``$defs`` objects without a description."""
    objects = {"": schema, **{f"{k}.": v for k, v in schema.get("$defs", {}).items()}}
    return [
        prefix + name
        for prefix, node in objects.items()
        for name, field in node.get("properties", {}).items()
        if not str(field.get("description", "")).strip()
    ]


@pytest.mark.parametrize("name", sorted(own_families()))
def test_every_field_of_every_schema_has_a_description(name):
    schema = own_families()[name].schema.model_json_schema()
    assert undescribed(schema) == [], f"{name}: fields without a description"


READERS = ("parse_text", "from_layout", "parse_document")


@pytest.mark.parametrize("name", sorted(own_families()))
def test_a_family_that_reads_other_formats_lists_them(name):
    family = own_families()[name]
    reads = [m for m in READERS if getattr(type(family), m) is not getattr(Family, m)]
    if reads:
        assert getattr(family, "text_formats", ()), f"{name} reads {reads} but lists no format"


def graded(path: Path | str, family: str | None) -> str:
    """The family of the one puzzle a source holds, after grading it to a solution."""
    puzzles = load(path, family=family)
    assert len(puzzles) == 1
    result = grade(puzzles[0])
    assert result.solved and result.solutions == 1, result.to_dict()
    return puzzles[0].family.name


@pytest.mark.parametrize(
    ("name", "text_format"), text_formats(), ids=[f"{n}-{t.name}" for n, t in text_formats()]
)
def test_every_text_format_example_loads_and_grades(tmp_path, name, text_format):
    family = name if text_format.needs_family else None
    as_file = tmp_path / "puzzle.txt"
    as_file.write_text(f"# {text_format.name}\n{text_format.example}\n", encoding="utf-8")
    if text_format.example.startswith("{"):
        as_file = tmp_path / "puzzle.json"
        as_file.write_text(text_format.example + "\n", encoding="utf-8")
    assert graded(as_file, family) == name
    if not text_format.example.startswith("{"):  # typed on the command line as it is
        assert graded(text_format.example, family) == name


@pytest.fixture(scope="module")
def page() -> str:
    """The file-format page as ``docs/gen/reference.py`` writes it (mkdocs-gen-files stubbed)."""
    stub = types.ModuleType("mkdocs_gen_files")
    stub.open = lambda *args, **kwargs: _Page()  # type: ignore[attr-defined]
    saved = sys.modules.get("mkdocs_gen_files")
    sys.modules["mkdocs_gen_files"] = stub
    try:
        made = runpy.run_path(str(ROOT / "docs" / "gen" / "reference.py"))
    finally:
        if saved is None:
            sys.modules.pop("mkdocs_gen_files", None)
        else:
            sys.modules["mkdocs_gen_files"] = saved
    return made["formats_page"]()


class _Page(io.StringIO):
    def __enter__(self) -> _Page:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def test_every_field_row_of_the_formats_page_has_a_type_and_a_description(page):
    rows = [line for line in page.splitlines() if line.startswith("| `")]
    assert rows, "the page has tables of fields"
    for row in rows:
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", row)[1:-1]]
        assert cells[-1], f"no description: {row}"
        assert cells[1], f"no type: {row}"


def test_the_formats_page_shows_every_text_format_and_every_rules_option(page):
    assert "## Text formats" in page
    for name, text_format in text_formats():
        assert text_format.example in page, (name, text_format.name)
    for name, family in own_families().items():
        schema = family.schema.model_json_schema()
        rules = schema["properties"].get("rules", {}).get("$ref", "").rsplit("/", 1)[-1]
        for option in schema.get("$defs", {}).get(rules, {}).get("properties", {}):
            assert f"| `{option}` |" in page, (name, option)
