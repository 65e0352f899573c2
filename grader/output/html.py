"""The HTML trace: one self-contained page (inline CSS, SVG and a small script; no network)
with the score report of each puzzle, then every step with the board before it, the cells it
used and changed highlighted, its technique, cost and explanation.

Every step is on the page, so it reads without the script too. With it, each puzzle steps
through its solve on one board: the buttons or the ← and → keys show one step at a time
(the start, each step, the end), and "Show all" goes back to the whole list.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from grader.output.render import (
    HIGHLIGHT_COLOURS,
    IMPLIES,
    LINK,
    OUTLINE_COLOURS,
    PLACED,
    STRUCK,
    board_svg,
    puzzle_board,
    stated_before,
    states_before,
    step_board,
)
from grader.rating.grading import Grade

CELL_BUDGET = 100_000
"""Cells drawn in one page at most (all boards together); later steps are listed as text."""

CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0 auto;
       max-width: 60rem; padding: 1rem 1.5rem; color: #1a1a1a; background: #fafafa; }
h1 { font-size: 1.5rem; margin: 0.5rem 0; }
h2 { font-size: 1.25rem; border-bottom: 2px solid #ccd; padding-bottom: 0.25rem; }
h3 { font-size: 1rem; margin: 0 0 0.25rem 0; }
article.puzzle { margin-bottom: 3rem; }
table { border-collapse: collapse; margin: 0.5rem 0 1rem 0; }
td, th { padding: 0.15rem 0.75rem 0.15rem 0; text-align: left; vertical-align: top; }
table.techniques td.num, table.techniques th.num { text-align: right; }
table.techniques th { border-bottom: 1px solid #bbb; }
.meta { color: #5f6b7a; font-size: 0.85rem; }
.legend span { display: inline-block; padding: 0 0.5rem; margin-right: 0.5rem;
               border: 1px solid #9aa3ad; font-size: 0.85rem; }
ol.steps { list-style: none; padding: 0; }
li.step { display: flex; gap: 1.25rem; align-items: flex-start; padding: 0.75rem 0;
          border-top: 1px solid #e2e4e8; }
li.step .text { flex: 1; min-width: 14rem; }
.technique { font-weight: 600; color: #6b2fa0; }
.cost { color: #5f6b7a; font-size: 0.9rem; margin-left: 0.5rem; }
.conclusion { font-family: ui-monospace, Menlo, Consolas, monospace; }
.contradiction { color: #b3261e; }
details { margin-top: 0.25rem; }
details ol { margin: 0.25rem 0; padding-left: 1.5rem; font-size: 0.9rem; }
svg.board { flex: none; max-width: 100%; height: auto; }
nav.stepper { position: sticky; top: 0; background: #fafafa; padding: 0.4rem 0; z-index: 1;
              display: flex; gap: 0.5rem; align-items: center; }
nav.stepper button { font: inherit; padding: 0.2rem 0.7rem; cursor: pointer; }
nav.stepper .at { color: #5f6b7a; font-size: 0.9rem; }
article.stepping .frame { display: none; }
article.stepping .frame.current { display: flex; }
article.stepping section.frame.current { display: block; }
"""

SCRIPT = """
(function () {
  const articles = Array.from(document.querySelectorAll("article.puzzle"));
  function frames(a) { return Array.from(a.querySelectorAll(".frame")); }
  function show(a, index) {
    const all = frames(a);
    if (!all.length) return;
    index = Math.max(0, Math.min(all.length - 1, index));
    a.classList.add("stepping");
    all.forEach((f, i) => f.classList.toggle("current", i === index));
    a.dataset.at = index;
    const label = all[index].dataset.label;
    const at = a.querySelector("nav.stepper .at");
    at.textContent = label + " (" + (index + 1) + " of " + all.length + ")";
  }
  function move(a, by) {
    show(a, a.classList.contains("stepping") ? Number(a.dataset.at) + by : 0);
  }
  function all(a) {
    a.classList.remove("stepping");
    a.querySelector("nav.stepper .at").textContent = "";
  }
  let active = articles[0];
  articles.forEach((a) => {
    const nav = a.querySelector("nav.stepper");
    if (!nav) return;
    nav.hidden = false;
    nav.querySelector(".prev").addEventListener("click", () => { active = a; move(a, -1); });
    nav.querySelector(".next").addEventListener("click", () => { active = a; move(a, 1); });
    nav.querySelector(".all").addEventListener("click", () => { active = a; all(a); });
    a.addEventListener("click", () => { active = a; });
  });
  document.addEventListener("keydown", (e) => {
    if (!active || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === "ArrowRight") { move(active, 1); e.preventDefault(); }
    if (e.key === "ArrowLeft") { move(active, -1); e.preventDefault(); }
  });
})();
"""
"""Turns each puzzle's list of steps into a stepper (the list stays for pages read without it)."""

STEPPER = (
    '<nav class="stepper" hidden><button class="prev" title="previous step (←)">◀ Previous'
    '</button><button class="next" title="next step (→)">Next ▶</button>'
    '<button class="all">Show all</button><span class="at"></span></nav>'
)


def _row(key: str, value: object) -> str:
    return f"<tr><th>{escape(key)}</th><td>{escape(str(value))}</td></tr>"


def summary_html(grade: Grade) -> str:
    """The score report as an HTML table."""
    data = grade.to_dict()
    rows, cols = data["size"]
    solutions = data["solutions"]
    status = data["status"]
    if status == "stuck":
        status = f"stuck, {data['remaining']} cells open"
    parts = [
        _row("family", grade.puzzle.family.title or data["family"]),
        _row("size", f"{rows} x {cols}"),
        _row("givens", data["givens"]),
        _row("solutions", "unknown" if solutions is None else solutions),
        _row("status", status),
        _row("difficulty", f"{data['difficulty']:g}"),
        _row("effort", f"{data['effort']:g}"),
        _row("level", data["level"]),
    ]
    if data["hardest_step"]:
        parts.append(_row("hardest step", f"[{data['hardest']}] {data['hardest_step']}"))
    if "contradiction" in data:
        parts.append(_row("contradiction", data["contradiction"]))
    if "solution_check" in data:
        parts.append(_row("file's solution", data["solution_check"]))
    for note in data.get("notes", []):
        parts.append(_row("note", note))
    return '<table class="summary">' + "".join(parts) + "</table>"


def techniques_html(grade: Grade) -> str:
    """The techniques used: level, count and cost."""
    level_of = {t.name: t.level for t in grade.techniques}
    head = (
        '<tr><th>technique</th><th>level</th><th class="num">count</th>'
        '<th class="num">cost</th></tr>'
    )
    body = "".join(
        f"<tr><td>{escape(name)}</td><td>{escape(level_of.get(name, ''))}</td>"
        f'<td class="num">{int(entry["count"])}</td><td class="num">{entry["cost"]:g}</td></tr>'
        for name, entry in grade.technique_counts().items()
    )
    return f'<table class="techniques">{head}{body}</table>'


LEGEND = (
    '<p class="legend">'
    + "".join(
        f'<span style="background:{HIGHLIGHT_COLOURS[role]}">{label}</span>'
        for role, label in (
            ("changed", "concluded"),
            ("used", "used as evidence"),
            ("unit", "the row, column or unit it reasons about"),
        )
    )
    + f'<span style="color:{PLACED}">placed value</span>'
    + f'<span style="color:{STRUCK};text-decoration:line-through">struck candidate</span>'
    + f'<span style="border-color:{OUTLINE_COLOURS["unit"]}">outline: unit read</span>'
    + f'<span style="color:{LINK}">link: solid strong, dashed weak</span>'
    + f'<span style="color:{IMPLIES}">thin arrow: implies</span>'
    + f'<span style="color:{LINK}">ring: the assumption</span>'
    + "</p>"
)
"""What the colours and marks of the step pictures mean."""


class _Budget:
    def __init__(self, cells: int) -> None:
        self.left = cells

    def take(self, cells: int) -> bool:
        if self.left < cells:
            return False
        self.left -= cells
        return True


def puzzle_html(grade: Grade, anchor: str, budget: _Budget, candidates: bool = True) -> str:
    """One puzzle's section: report, start board, each step, end board."""
    puzzle = grade.puzzle
    ex = grade.explainer()
    by_name = {t.name: t for t in grade.techniques}
    size = puzzle.model.rows * puzzle.model.cols
    title = puzzle.id + (f" — {puzzle.name}" if puzzle.name else "")
    out = [f'<article class="puzzle" id="{escape(anchor)}">', f"<h2>{escape(title)}</h2>"]
    out.append(summary_html(grade))
    if grade.steps:
        out.append(techniques_html(grade))
    out.append(LEGEND)
    out.append(STEPPER)
    if budget.take(size):
        out.append('<section class="start frame" data-label="start"><h3>Start</h3>')
        out.append(board_svg(puzzle_board(puzzle), candidates))
        out.append("</section>")
    out.append('<ol class="steps">')
    omitted = 0
    befores = zip(
        grade.steps,
        states_before(puzzle, grade.steps),
        stated_before(puzzle, grade.steps),
        strict=True,
    )
    for number, (step, before, stated) in enumerate(befores, start=1):
        out.append(
            f'<li class="step frame" id="{escape(anchor)}-step-{number}" '
            f'data-label="step {number}: {escape(step.technique)}">'
        )
        if budget.take(size):
            technique = by_name.get(step.technique)
            board = step_board(
                puzzle, before, step, technique, stated=stated, evidence=ex.evidence(step)
            )
            out.append(board_svg(board, candidates))
        else:
            omitted += 1
        out.append('<div class="text">')
        out.append(
            f'<h3>{number}. <span class="technique">{escape(step.technique)}</span>'
            f'<span class="cost">cost {step.cost:g}</span></h3>'
        )
        conclusions = ex.conclusions(step)
        if conclusions:
            out.append(f'<p class="conclusion">{escape(conclusions)}</p>')
        css = ' class="contradiction"' if step.contradiction else ""
        out.append(f"<p{css}>{escape(ex.reason(step))}</p>")
        chain = step.data.get("chain")
        if chain:
            var, value = step.data["assume"]
            out.append(
                f"<details><summary>if {escape(ex.cell(var))} were {escape(ex.value(value))}: "
                f"{len(chain)} step(s) to a contradiction</summary><ol>"
            )
            out.extend(f"<li>[{escape(s.technique)}] {escape(ex.text(s))}</li>" for s in chain)
            reason = step.data.get("contradiction_reason", "")
            out.append(f'<li class="contradiction">{escape(reason)}</li></ol></details>')
        out.append("</div></li>")
    out.append("</ol>")
    if omitted:
        out.append(
            f'<p class="meta">Boards of {omitted} step(s) are left out to keep this page small; '
            "their explanations are all here.</p>"
        )
    if grade.run.contradiction is not None:
        reason = grade.run.contradiction.reason
        out.append(f'<p class="contradiction">contradiction: {escape(reason)}</p>')
    if grade.steps and budget.take(size):
        status = escape(grade.status_text().capitalize())
        out.append(f'<section class="end frame" data-label="{status}"><h3>{status}</h3>')
        end = puzzle_board(puzzle, grade.run.state, stated=grade.run.stated)
        out.append(board_svg(end, candidates))
        out.append("</section>")
    out.append("</article>")
    return "".join(out)


def trace_html(
    grades: Sequence[Grade], candidates: bool = True, cell_budget: int = CELL_BUDGET
) -> str:
    """A self-contained HTML page tracing every graded puzzle."""
    from grader.core.version import __version__
    from grader.output.report import settings_line

    budget = _Budget(cell_budget)
    title = grades[0].puzzle.id if len(grades) == 1 else f"{len(grades)} puzzles"
    body = [
        f"<h1>Trace: {escape(title)}</h1>",
        f'<p class="meta">grader {escape(__version__)}'
        + (f" · {escape(settings_line(grades[0].settings()))}" if grades else "")
        + "</p>",
    ]
    if len(grades) > 1:
        body.append('<ol class="contents">')
        body.extend(
            f'<li><a href="#puzzle-{index}">{escape(grade.puzzle.id)}</a>: {escape(grade.level)}, '
            f"difficulty {grade.difficulty:g}, effort {grade.effort:g}</li>"
            for index, grade in enumerate(grades, start=1)
        )
        body.append("</ol>")
    for index, grade in enumerate(grades, start=1):
        body.append(puzzle_html(grade, f"puzzle-{index}", budget, candidates))
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>grader trace: {escape(title)}</title><style>{CSS}</style></head>"
        f"<body>{''.join(body)}<script>{SCRIPT}</script></body></html>\n"
    )
