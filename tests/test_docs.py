"""The manual builds (``mkdocs build --strict``), every family page draws one picture per
technique of its table (or says why not), and the report keys it documents are the keys the
reports write."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from grader.output.report_keys import FAMILY_KEYS, REPORT_KEYS, STEP_KEYS
from grader.rating.costs import technique_table
from grader.rating.family import Family
from grader.rating.grading import grade
from grader.rating.loading import puzzle_from_dict
from grader.rating.registry import families
from grader.storage.batch import COLUMN_GROUPS, COLUMNS

ROOT = Path(__file__).resolve().parent.parent
QUIET = {"NO_MKDOCS_2_WARNING": "1", "DISABLE_MKDOCS_2_WARNING": "true", "MPLBACKEND": "Agg"}


def own_families() -> dict[str, Family]:
    """The families this project ships (not plugins installed beside them)."""
    return {n: f for n, f in families().items() if type(f).__module__.startswith("rules.")}


def table_names(family: Family) -> list[str]:
    model = puzzle_from_dict(family.example, "example", "example").model
    return [spec.technique_name for spec in technique_table(family, model)]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    pytest.importorskip("mkdocs")
    pytest.importorskip("mkdocs_gen_files")
    out = tmp_path_factory.mktemp("site")
    started = time.monotonic()
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(out)],
        cwd=ROOT,
        env={**os.environ, **QUIET},
        capture_output=True,
        text=True,
        timeout=600,
    )
    seconds = time.monotonic() - started
    assert built.returncode == 0, built.stderr[-4000:]
    print(f"mkdocs build --strict: {seconds:.1f} s")
    return out


def sections(page: str) -> dict[str, str]:
    """Technique name → the HTML of its section on a family page."""
    body = page.split("</article>")[0]
    parts = re.split(r'<h3 id="technique-([a-z0-9-]+)"', body)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts) - 1, 2)}


@pytest.mark.parametrize("name", sorted(own_families()))
def test_every_family_page_draws_every_technique(site, name):
    page = site / "families" / name / "index.html"
    assert page.exists(), f"no page for {name}"
    found = sections(page.read_text(encoding="utf-8"))
    names = table_names(own_families()[name])
    assert list(found) == names, "one section per technique of the table, in table order"
    doc = json.loads((ROOT / "rules" / name / "technique_examples.json").read_text("utf-8"))
    drawn: dict[bytes, str] = {}
    for technique, html in found.items():
        pictures = html.count("<img") + html.count("<svg")
        entry = doc["examples"].get(technique)
        if entry is None or entry.get("alone"):  # no state where it is the cheapest: no picture
            assert pictures == 0 and "No example found yet" in html, technique
            continue
        assert pictures == 1, f"{name} {technique}: {pictures} pictures"
        picture = (site / "families" / "img" / name / f"{technique}.svg").read_bytes()
        assert picture not in drawn, f"{name}: {technique} and {drawn.get(picture)} share a picture"
        drawn[picture] = technique


def test_each_chain_level_has_its_own_title_and_paragraph():
    from rules.sudoku.chains.chaining import ChainTechnique

    model = puzzle_from_dict(own_families()["sudoku"].example, "example", "sudoku").model
    chains = [
        spec.factory(spec.cost, spec.level, spec.name, **spec.kwargs)
        for spec in technique_table(own_families()["sudoku"], model)
        if spec.factory is ChainTechnique
    ]
    assert len(chains) == 9
    assert len({c.title for c in chains}) == len({c.description for c in chains}) == 9


def test_the_reference_pages_are_built(site):
    for page in ("cli", "file-formats", "techniques", "reports", "api"):
        assert (site / "reference" / page / "index.html").exists(), page
    cli = (site / "reference" / "cli" / "index.html").read_text(encoding="utf-8")
    for command in ("grader generate", "grader bank export", "grader techniques", "--json"):
        assert command in cli, command
    reports = (site / "reference" / "reports" / "index.html").read_text(encoding="utf-8")
    for column in [*COLUMNS, *COLUMN_GROUPS]:  # the batch columns' table, made from the code
        assert f"<code>{column}</code>" in reports.replace("&lt;", "<").replace("&gt;", ">"), column


def test_the_documented_report_keys_are_the_reports_keys():
    for name, family in own_families().items():
        report = grade(puzzle_from_dict(family.example, "example", name)).to_dict(trace=True)
        own = FAMILY_KEYS.get(name, {})
        assert set(report) <= set(REPORT_KEYS) | set(own), set(report) - set(REPORT_KEYS)
        for step in report["steps"]:
            assert set(step) <= set(STEP_KEYS), set(step) - set(STEP_KEYS)
