"""``grade`` (also ``grader grade``), ``grader solve`` and ``grader hint``."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from grader.rating.family import Puzzle
    from grader.rating.grading import Grade, GradeOptions

from grader.cli.common import (
    EXIT_CODES,
    EXIT_INPUT,
    EXIT_OK,
    EXIT_TIMEOUT,
    CostsOpt,
    ExactOpt,
    FamilyOpt,
    Files,
    ForceOpt,
    GuessOpt,
    HtmlOpt,
    IndexOpt,
    JsonOpt,
    Sources,
    TechOpt,
    TimeoutOpt,
    TraceOpt,
    VersionOpt,
    err,
    grade_app,
    grade_options,
    grader_app,
    input_error,
    one_puzzle,
    out,
    which_puzzle,
)
from grader.core.errors import InputError


def run_grade(
    files: list[str],
    as_json: bool,
    trace: bool,
    costs: str | None,
    techniques: str | None,
    guess: bool,
    timeout: float | None,
    exact: bool,
    html: str | None = None,
    force: bool = False,
    family: str | None = None,
) -> int:
    """Grade every puzzle of every file; bad files, and puzzles whose family lacks a technique
    ``techniques`` names (another family has it), get one line each and exit code 2. A name
    no family knows stops the command at once."""
    from grader.rating.grading import grade

    if not as_json:  # the rich report (JSON lines need no rich)
        from grader.output.report import print_grade
    if html is not None:
        from grader.output.files import check_new

        check_new(html, force)
    options = grade_options(techniques, costs, guess, timeout, exact)
    sources = Sources(files, as_json, family)
    graded = []
    for _, result in sources.graded(lambda puzzle: grade(puzzle, options)):
        if result.run.status == "timeout" and sources.code == EXIT_OK:
            sources.code = EXIT_TIMEOUT
        if html is not None:
            graded.append(result)
        if as_json:
            print(json.dumps(result.to_dict(trace=trace), ensure_ascii=False), flush=True)
        else:
            print_grade(out, result, trace=trace)
    if html is not None and graded:
        from grader.output.files import write_atomic
        from grader.output.html import trace_html

        write_atomic(html, trace_html(graded))
        err.print(f"wrote {html}", markup=False)
    return sources.code


@grade_app.command(
    help="Grade puzzles: uniqueness, deducibility, difficulty and why. " + EXIT_CODES
)
@grader_app.command("grade", help="Grade puzzles (same as the `grade` command).")
def grade_command(
    files: Files,
    as_json: JsonOpt = False,
    trace: TraceOpt = False,
    costs: CostsOpt = None,
    techniques: TechOpt = None,
    guess: GuessOpt = False,
    timeout: TimeoutOpt = None,
    exact: ExactOpt = True,
    html: HtmlOpt = None,
    force: ForceOpt = False,
    family: FamilyOpt = None,
    version: VersionOpt = False,
) -> None:
    raise typer.Exit(
        run_grade(
            files, as_json, trace, costs, techniques, guess, timeout, exact, html, force, family
        )
    )


@grader_app.command(
    "solve",
    help="Print the solution, with the steps that found it: the techniques (guessing when "
    "stuck) or, when they cannot finish (--timeout), the exact search, which the output names.",
)
def grader_solve(
    files: Files,
    as_json: JsonOpt = False,
    steps: Annotated[
        bool, typer.Option("--steps/--no-steps", help="Print the numbered steps first.")
    ] = True,
    costs: CostsOpt = None,
    techniques: TechOpt = None,
    timeout: TimeoutOpt = None,
    family: FamilyOpt = None,
) -> None:
    from grader.core.version import __version__
    from grader.output.report import print_board, print_stamp, print_trace
    from grader.rating.grading import step_dict

    options = grade_options(techniques, costs, True, timeout, True)
    sources = Sources(files, as_json, family)
    for puzzle, (result, how, grid) in sources.graded(lambda puzzle: solve_one(puzzle, options)):
        if as_json:
            payload = {
                "id": puzzle.id,
                "family": puzzle.family.name,
                "solutions": result.solutions,
                "solved_by": how,
                "verdict": solve_text(result, how),
                "solution": grid,
            }
            if steps:
                ex = result.explainer()
                payload["steps"] = [step_dict(step, ex) for step in result.steps]
            payload.update(version=__version__, settings=result.settings())
            print(json.dumps(payload, ensure_ascii=False), flush=True)
        else:
            if steps and result.steps:
                print_trace(out, result)
            out.print(f"{puzzle.id}: {solve_text(result, how)}", markup=False)
            state = solution_of(puzzle, result)[1] or result.final_state()
            rows = puzzle.family.text_rows(puzzle.model, state)  # a family's header too
            print_board(out, [" ".join(row) for row in rows])
            if steps and result.steps:
                print_stamp(out, result.settings())  # the steps' costs depend on the settings
        if grid is None and result.run.status == "timeout":
            sources.code = EXIT_TIMEOUT
    raise typer.Exit(sources.code)


def solve_one(puzzle: Puzzle, options: GradeOptions) -> tuple[Grade, str | None, list[str] | None]:
    """Grade ``puzzle`` for its solution: the report, who found the solution (``techniques``,
    ``guesses`` or ``exact search``; None if nobody) and the solution's rows (or None)."""
    from grader.rating.grading import grade

    result = grade(puzzle, options)
    how, state = solution_of(puzzle, result)
    return result, how, None if state is None else puzzle.family.format_grid(puzzle.model, state)


def solution_of(puzzle: Puzzle, result: Grade) -> tuple[str | None, list[int] | None]:
    """Who found the solution of a graded puzzle (``techniques``, ``guesses`` or ``exact
    search``; None if nobody) and its state (or None)."""
    from grader.core.model import mask_of

    if result.solved and result.solutions != "2+":
        guessed = any(step.technique == "guess" for step in result.steps)
        return "guesses" if guessed else "techniques", result.final_state()
    if result.solution is not None:
        return "exact search", [mask_of([value]) for value in result.solution]
    return None, None


def solve_text(result: Grade, how: str | None) -> str:
    """One line saying how the solve ended."""
    from grader.output.report import solve_verdict

    if result.run.contradiction is not None or result.solutions == 0:
        reason = result.run.contradiction.reason if result.run.contradiction else ""
        return "no solution" + (f": {reason}" if reason else " (the exact search)")
    if how == "exact search":
        return (
            f"solution from the exact search (the techniques stopped: {result.status_text()}, "
            f"{result.remaining} cells open)"
        )
    return solve_verdict(result)


def _hint_puzzle(file: str, index: int, family: str | None, as_json: bool) -> tuple[Puzzle, int]:
    """The puzzle ``hint`` explains and how many its file holds; a file that does not load is
    one line, and with ``--json`` the error object ``grade`` and ``solve`` print too."""
    try:
        return one_puzzle(file, index, family)
    except InputError as error:
        if not as_json:
            raise
        input_error(error, as_json, error.origin)  # the file, or file:line of a JSONL
        raise typer.Exit(EXIT_INPUT) from None


@grader_app.command("hint", help="Print the next step only, with its explanation.")
def grader_hint(
    file: Annotated[str, typer.Argument(help="A puzzle file, a game ID, or - for standard input.")],
    as_json: JsonOpt = False,
    costs: CostsOpt = None,
    techniques: TechOpt = None,
    timeout: TimeoutOpt = None,
    family: FamilyOpt = None,
    index: IndexOpt = 1,
) -> None:
    from grader.rating.grading import hint_notes, hint_payload, next_step

    options = grade_options(techniques, costs, False, timeout, True)  # as grade runs
    puzzle, held = _hint_puzzle(file, index, family, as_json)
    found = next_step(puzzle, options)  # the first step of grade with these options
    notes = hint_notes(found, timeout)
    steps, ex = found.steps, found.explainer
    warning = found.warning()
    cut = found.problem is None and (found.timed_out or found.solutions is None)
    code = EXIT_TIMEOUT if cut else EXIT_OK  # --timeout stopped the search or the step
    if as_json:
        print(json.dumps(hint_payload(puzzle, found, timeout), ensure_ascii=False))
        raise typer.Exit(code)
    which = which_puzzle(puzzle, index, held)
    if which:
        out.print(which, style="dim", markup=False)
    if not steps and found.problem is None and not notes:
        solved = puzzle.model.is_solved(puzzle.givens)
        out.print("the puzzle is already solved" if solved else "no technique applies here")
    elif steps:
        from rich.text import Text

        from grader.output.report import print_long

        step = steps[0]
        line = Text(step.technique, style="bold")
        line.append(f" (cost {step.cost:g}): {ex.text(step)}")
        print_long(out, line, hang=2)
        if len(steps) > 1:
            out.print(f"[dim]({len(steps) - 1} more step(s) of this kind are available now)[/dim]")
    if warning:
        from grader.output.report import print_long

        print_long(out, warning, hang=2)
    for text in notes:
        out.print(f"note: {text}", markup=False)
    if steps:
        from grader.output.report import print_stamp

        print_stamp(out, found.settings)  # the step's cost depends on the settings
    raise typer.Exit(code)
