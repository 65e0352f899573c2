"""Build the family pages of the manual (mkdocs-gen-files): rules, an example board, levels and
every technique of the table with a picture of its example state.

Each technique's example is ``rules/<family>/technique_examples.json`` (written by
``bench/technique_examples.py``): its first wave is run here with the family's default table
(``guess`` added for guess's example) and the exact search's solution, and the first step is
drawn with ``grader.output.render.step_board``. A wave of another technique stops the build.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import mkdocs_gen_files

from grader.core.explain import Explainer
from grader.output.render import picture_bytes, puzzle_board, step_board
from grader.rating.costs import choose, technique_table
from grader.rating.family import Family
from grader.rating.loading import puzzle_from_dict
from grader.rating.registry import families
from grader.testing.examples import replay

ROOT = Path(__file__).resolve().parents[2]


def plain(docstring: str | None) -> str:
    """A module docstring as Markdown: the sentences naming modules (where the code lives)
    left out, reST roles and double backticks made plain code."""
    paragraphs = []
    for paragraph in (docstring or "").strip().split("\n\n"):
        sentences = re.split(r"(?<=[.)])\s+(?=[A-Z])", " ".join(paragraph.split()))
        kept = [s for s in sentences if ":mod:" not in s]
        if kept:
            paragraphs.append(" ".join(kept))
    text = re.sub(r":[a-z]+:`~?([^`]+)`", r"`\1`", "\n\n".join(paragraphs))
    return text.replace("``", "`")


BINARY_RULES = (
    "Each cell holds one of two values; no row or column has three equal cells in a row, and "
    "each row and column holds as many of one value as of the other (a *balanced* line)."
)
MORE_RULES = {
    "binairo": f"{BINARY_RULES} The values are `0` and `1`; with `unique_lines` no two rows "
    "and no two columns are equal.",
    "tango": f"{BINARY_RULES} The values are suns `S` and moons `M`; a `=` sign between two "
    "neighbours says they are equal, a `x` sign that they differ.",
}
"""The rules the binary families' docstrings only name (``rules/binary/model.py``: balanced
lines, no three in a row, distinct lines when asked)."""


def svg(board: Any) -> str:
    """A board as SVG text."""
    return picture_bytes(board, "svg").decode()


def load_examples(name: str) -> dict[str, Any]:
    """A family's technique examples file (empty when it has none)."""
    path = ROOT / "rules" / name / "technique_examples.json"
    if not path.exists():
        return {"examples": {}, "missing": {}}
    return json.loads(path.read_text(encoding="utf-8"))


def run_example(family: Family, name: str, entry: dict[str, Any]) -> tuple[Any, ...]:
    """The example's puzzle, the state before its wave, the wave's steps, the explainer and the
    techniques by name (:func:`grader.testing.examples.replay`); raises if another technique
    fires."""
    wave = replay(family, name, entry)
    run = wave.run
    if not run.steps or run.steps[0].technique != name:
        fired = run.steps[0].technique if run.steps else "nothing"
        raise RuntimeError(f"{family.name}: the {name} example fires {fired}")
    by_name = {t.name: t for t in wave.techniques}
    explainer = Explainer(wave.puzzle.model, wave.techniques)
    return wave.puzzle, wave.state, run.steps, explainer, by_name, wave.stated


def technique_section(family: Family, spec: Any, technique: Any, doc: dict[str, Any]) -> str:
    """One technique: cost, level, description, its example's picture and explanation."""
    name = spec.technique_name
    default = "" if spec.default else " · off by default (`--guess`)"
    lines = [
        f"### `{name}` {{#technique-{name}}}",
        "",
        f"**{technique.title}** · cost {technique.cost:g} · level {spec.level}{default}",
        "",
        technique.description,
        "",
    ]
    entry = doc["examples"].get(name)
    if entry is None or entry.get("alone"):
        # a state where a cheaper technique fires too would show that one's work: none at all
        reason = doc.get("missing", {}).get(name) or (
            "no state where it is the cheapest technique that applies was found yet "
            "(`python bench/technique_examples.py --family "
            f"{family.name} --keep` searches the examples and generated puzzles)"
        )
        lines += [f'!!! note "No example found yet"\n    {reason}', ""]
        return "\n".join(lines)
    puzzle, state, steps, ex, by_name, stated = run_example(family, name, entry)
    step = steps[0]
    picture = f"img/{family.name}/{name}.svg"
    with mkdocs_gen_files.open(f"families/{picture}", "w") as out:
        out.write(svg(step_board(puzzle, state, step, by_name[name], stated=stated)))
    more = len(steps) - 1
    wave = f" The same wave takes {more} more step(s) of it." if more else ""
    replay = entry.get("replay", 0)
    where = (
        f"the puzzle below after {replay} waves of its solve"
        if replay
        else "the puzzle below (its first wave)"
    )
    lines += [
        f"![{name} fires on this state]({picture})",
        "",
        f"> {ex.text(step)}",
        "",
        f"<small>Blue: the unit read; yellow: the cells it used; green: what it concludes. "
        f"The state: {where}, from {entry['found_in']}.{wave}</small>",
        "",
        '??? example "The puzzle file"',
        "",
        "    ```json",
        "    " + json.dumps(entry["puzzle"], ensure_ascii=False),
        "    ```",
        "",
    ]
    return "\n".join(lines)


def levels_table(family: Family, specs: list[Any]) -> str:
    """Each level with the techniques it adds and their costs."""
    rows = ["| level | techniques (cost) |", "|---|---|"]
    for level in family.levels:
        names = [
            f"`{s.technique_name}` ({s.cost:g}{'' if s.default else ', off by default'})"
            for s in specs
            if s.level == level
        ]
        rows.append(f"| {level} | {', '.join(names) or '—'} |")
    return "\n".join(rows)


def reach_table(family: Family) -> str:
    """The sizes the generator was seen to reach (``Family.reachable``/``out_of_reach``)."""
    sizes = sorted({*family.reachable, *family.out_of_reach})
    if not sizes:
        return "The family declares no measured reach."
    rows = ["| size | reached | out of reach |", "|---|---|---|"]
    for size in sizes:
        reached = ", ".join(family.reachable.get(size, ())) or "—"
        out = ", ".join(family.out_of_reach.get(size, ())) or "—"
        rows.append(f"| {family.size_text(size)} | {reached} | {out} |")
    return "\n".join(rows)


def other_tables(family: Family, names: set[str]) -> str:
    """The techniques that the tables of the project's other examples of the family (other
    options, other sizes) have beside the page's table."""
    from grader.rating.loading import load

    extra: dict[str, tuple[float, str, str]] = {}
    for path in sorted((ROOT / "examples").glob("*.json")):
        for puzzle in load(str(path)):
            if puzzle.family is not family:
                continue
            for spec in technique_table(family, puzzle.model):
                if spec.technique_name not in names:
                    extra.setdefault(spec.technique_name, (spec.cost, spec.level, path.name))
    if not extra:
        return ""
    rows = ", ".join(f"`{n}` ({cost:g}, {level})" for n, (cost, level, _) in extra.items())
    files = ", ".join(sorted({f"`examples/{f}`" for _, _, f in extra.values()}))
    return (
        f"With other options the table has more techniques ({files}): {rows}. Their "
        "pictures are not drawn here.\n"
    )


def notes(family: Family) -> list[str]:
    """The family's own notes (``about.md`` beside its ``family.py``: calibration, input
    layouts, generation), as a section of its page."""
    import importlib

    module = importlib.import_module(type(family).__module__)
    about = Path(module.__file__ or "").with_name("about.md")
    if not about.exists():
        return []
    return ["## Notes", "", about.read_text(encoding="utf-8"), ""]


def family_page(name: str, family: Family) -> str:
    """The whole Markdown page of one family."""
    import importlib

    example = puzzle_from_dict(family.example, f"{name} example", "example")
    specs = technique_table(family, example.model)
    built = {t.name: t for t in choose(family, example.model, guess=True)}
    doc = load_examples(name)
    with mkdocs_gen_files.open(f"families/img/{name}/example.svg", "w") as out:
        out.write(svg(puzzle_board(example)))
    module = importlib.import_module(f"rules.{name}.family")
    options = "".join(f"- `{key}`: {text}\n" for key, text in family.options.items())
    parts = [
        f"# {family.title}",
        "",
        "## Rules",
        "",
        plain(module.__doc__),
        "",
        MORE_RULES.get(name, ""),
        "",
        f"Options (a file's `rules`, `grader generate --rule KEY=VALUE`):\n\n{options}"
        if options
        else "",
        "## An example",
        "",
        "The family's example puzzle (`Family.example`), as `grader render` draws it:",
        "",
        f"![{name} example](img/{name}/example.svg)",
        "",
        "```json",
        json.dumps(family.example, ensure_ascii=False),
        "```",
        "",
        "## Levels",
        "",
        f"Levels: {family.levels_text()}. A puzzle's level is the highest level among the "
        "techniques its solve uses, or for a family rated on a numeric scale the band of its "
        "difficulty (see [Ratings and levels](../ratings.md)).",
        "",
        levels_table(family, specs),
        "",
        f"Default size {family.size_text(family.default_size)}. Where the generator was seen "
        "to reach each level (`Family.reachable`, measured by `bench/reachable.py`):",
        "",
        reach_table(family),
        "",
        *notes(family),
        "## Techniques",
        "",
        other_tables(family, {s.technique_name for s in specs}),
        f"Every technique of `grader techniques {name}`, cheapest first. Each picture is a "
        "real state (`rules/" + name + "/technique_examples.json`, found by "
        "`bench/technique_examples.py`) where that technique is the cheapest productive one "
        "with the default table: the puzzle's first wave, or the wave after replaying the "
        "first waves of its solve where a file cannot hold the state (a partial path, pencil "
        "marks); where no such state was found, a state where it fires run alone (its caption "
        "says so). The sentence under it is the step's explanation, as `grade --trace` prints "
        "it.",
        "",
    ]
    for spec in specs:
        parts.append(technique_section(family, spec, built[spec.technique_name], doc))
    return "\n".join(parts)


for family_name, family_obj in families().items():
    if not type(family_obj).__module__.startswith("rules."):
        continue  # a third-party family installed beside ours
    with mkdocs_gen_files.open(f"families/{family_name}.md", "w") as page:
        page.write(family_page(family_name, family_obj))
