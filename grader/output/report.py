"""The human report: rich tables for a grade, numbered steps for a trace."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from grader.core.units import seconds_text
from grader.rating.grading import Grade


def summary_table(grade: Grade) -> Table:
    data = grade.to_dict()
    table = Table(show_header=False, box=None, pad_edge=False)
    table.add_column(style="bold")
    table.add_column()
    rows, cols = data["size"]
    solutions = data["solutions"]
    table.add_row("family", grade.puzzle.family.title or data["family"])
    table.add_row("size", f"{rows} x {cols}")
    table.add_row("givens", str(data["givens"]))
    table.add_row("solutions", "unknown" if solutions is None else str(solutions))
    status = data["status"]
    if status == "stuck":
        status = f"stuck, {data['remaining']} cells open"
    table.add_row("status", status)
    table.add_row("difficulty", f"{data['difficulty']:g}")
    table.add_row("effort", f"{data['effort']:g}")
    table.add_row("level", data["level"])
    if data["hardest_step"]:  # Text: a technique in brackets is no markup tag
        table.add_row("hardest step", Text(f"[{data['hardest']}] {data['hardest_step']}"))
    if "contradiction" in data:
        table.add_row("contradiction", Text(data["contradiction"]))
    if "solution_check" in data:
        table.add_row("file's solution", data["solution_check"])
    for note in data.get("notes", []):
        table.add_row("note", Text(note))
    return table


def techniques_table(grade: Grade) -> Table:
    level_of = {t.name: t.level for t in grade.techniques}
    table = Table(title="techniques used", title_justify="left", show_edge=False)
    table.add_column("technique")
    table.add_column("level")
    table.add_column("count", justify="right")
    table.add_column("cost", justify="right")
    for name, entry in grade.technique_counts().items():
        table.add_row(name, level_of.get(name, ""), str(int(entry["count"])), f"{entry['cost']:g}")
    return table


def print_long(console: Console, line: Text | str, hang: int = 0) -> None:
    """A long line of words: in a terminal wrapped to its width with continuation lines
    indented by ``hang``, piped or in a file whole on one line (no wrapping, no padding)."""
    text = Text(line) if isinstance(line, str) else line
    if not console.is_terminal:
        console.print(text, soft_wrap=True, crop=False)
        return
    width = max(20, console.width - hang)
    for index, part in enumerate(text.wrap(console, width)):
        part.rstrip()
        console.print(Text(" " * hang) + part if index else part, soft_wrap=True)


@contextmanager
def wide_enough(console: Console, lines: list[str], margin: int = 0) -> Iterator[None]:
    """Piped or in a file, print at least as wide as a board's longest line (plus ``margin``:
    a panel's borders), so that no row is broken in two; a terminal keeps its width."""
    real = console.real() if hasattr(console, "real") else console  # a LazyConsole's own
    needed = max(map(len, lines), default=0) + margin
    if real.is_terminal or needed <= real.width:
        yield
        return
    before = real._width  # None: rich's default (80, or $COLUMNS)
    real.width = needed
    try:
        yield
    finally:
        real._width = before


def print_board(console: Console, lines: list[str]) -> None:
    """A board's lines, each whole on one line when piped or in a file (:func:`wide_enough`)."""
    with wide_enough(console, lines):
        console.print(lines_text(lines))


def lines_text(lines: list[str]) -> Text:
    """A family's text board (:meth:`grader.rating.family.Family.text_board`)."""
    return Text("\n".join(lines), style="cyan")


def board_text(rows: list[str]) -> Text:
    return Text("\n".join(" ".join(row) for row in rows), style="cyan")


def solve_verdict(grade: Grade) -> str:
    """How a solve ended, in words: "solved by deduction", "solved with 2 guesses", ..."""
    guesses = sum(1 for s in grade.steps if s.technique == "guess")
    if grade.solutions == 0:
        verdict = "no solution"
    elif grade.solved:
        verdict = "solved" + (f" with {guesses} guesses" if guesses else " by deduction")
    else:
        verdict = grade.status_text()
    if grade.solutions == "2+":
        verdict += " (one of several solutions)"
    return verdict


def print_grade(console: Console, grade: Grade, trace: bool = False) -> None:
    """The score report of one puzzle (and with ``trace`` its numbered steps)."""
    title = Text(str(grade.puzzle.id))  # Text: an id in brackets is no markup tag
    parts = [summary_table(grade)]
    if grade.steps:
        parts.append(Text())
        parts.append(techniques_table(grade))
    parts.append(Text())
    board = grade.puzzle.family.text_board(grade.puzzle.model, grade.final_state())
    parts.append(lines_text(board))
    panel = Panel(Group(*parts), title=title, title_align="left", expand=False)
    with wide_enough(console, board, margin=4):
        console.print(panel)
    if trace:
        print_trace(console, grade)
    print_stamp(console, grade.settings())


def print_stamp(console: Console, settings: Mapping[str, Any]) -> None:
    """The line naming the version and the settings the costs and steps came from (a grade's
    :meth:`~grader.rating.grading.Grade.settings`, or a hint's)."""
    from grader.core.version import __version__

    stamp = f"grader {__version__} · {settings_line(settings)}"
    print_long(console, Text(stamp, style="dim"), hang=2)


def settings_line(settings: Mapping[str, Any]) -> str:
    """The settings behind the costs in words: the techniques with their costs, guessing and
    the timeout when set."""
    names = ", ".join(f"{k} {v:g}" for k, v in settings["techniques"].items())
    extras = []
    if settings["guess"]:
        extras.append("guessing on")
    if settings["timeout"]:
        extras.append(f"timeout {seconds_text(settings['timeout'])}")
    return "techniques: " + names + ("; " + "; ".join(extras) if extras else "")


def print_trace(console: Console, grade: Grade) -> None:
    ex = grade.explainer()
    family = grade.puzzle.family
    model = grade.puzzle.model
    console.print(Text("start", style="bold"))
    print_board(console, family.text_board(model, grade.puzzle.clue_state))
    state = list(grade.puzzle.givens)
    from grader.core.engine import apply_step
    from grader.output.render import stated_before
    from grader.rating.grading import shown_state

    before = stated_before(grade.puzzle, grade.steps)  # after a step: before the next one
    after = [*before[1:], grade.run.stated] if before else []
    for number, (step, stated) in enumerate(zip(grade.steps, after, strict=True), start=1):
        apply_step(state, step)
        line = Text(f"{number:>3}. ", style="bold")
        line.append(f"[{step.technique} {step.cost:g}] ", style="magenta")
        line.append(ex.text(step))
        print_long(console, line, hang=5)
        if step.data.get("chain"):  # the board after a trial: what the steps placed so far
            shown = shown_state(grade.puzzle, state, stated)
            print_board(console, family.text_board(model, shown))
    if grade.run.contradiction is not None:  # the reason stands in the report above
        when = f"after step {len(grade.steps)}" if grade.steps else "before any step"
        console.print(Text(f"contradiction {when} (see the report)", style="red"))
