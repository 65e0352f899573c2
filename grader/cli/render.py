"""``grader render``: a puzzle's board as a picture."""

from __future__ import annotations

from typing import Annotated

import typer

from grader.cli.common import (
    EXIT_TIMEOUT,
    CostsOpt,
    FamilyOpt,
    ForceOpt,
    GuessOpt,
    IndexOpt,
    OutputOpt,
    TechOpt,
    TimeoutOpt,
    err,
    grade_options,
    grader_app,
    one_puzzle,
    which_puzzle,
)
from grader.core.errors import UsageError


@grader_app.command(
    "render",
    help="Draw a puzzle's board as SVG, PNG or PDF (by the output's suffix): the givens, or "
    "with --solve the grid the techniques reach, or with --step N the board before step N "
    "with the cells it used and changed highlighted.",
)
def grader_render(
    file: Annotated[str, typer.Argument(help="A puzzle file, a game ID, or - for standard input.")],
    output: OutputOpt,
    index: IndexOpt = 1,
    solve: Annotated[
        bool, typer.Option("--solve", help="Draw the grid the techniques reach.")
    ] = False,
    step: Annotated[
        int | None,
        typer.Option("--step", help="Draw the board before this step (1 = first).", min=1),
    ] = None,
    candidates: Annotated[
        bool, typer.Option("--candidates/--no-candidates", help="Draw remaining candidates.")
    ] = True,
    title: Annotated[str, typer.Option("--title", help="A title above the board.")] = "",
    costs: CostsOpt = None,
    techniques: TechOpt = None,
    guess: GuessOpt = False,
    timeout: TimeoutOpt = None,
    force: ForceOpt = False,
    family: FamilyOpt = None,
) -> None:
    from grader.output.files import check_new, refuse_directory, write_atomic
    from grader.output.render import picture_bytes, picture_format, puzzle_board

    if solve and step is not None:
        raise UsageError("--solve and --step draw different boards: give one of them")
    refuse_directory(output)  # said before its suffix
    try:
        fmt = picture_format(output)
    except ValueError as error:
        raise UsageError(f"{output}: {error}") from None
    check_new(output, force)
    if file.lower().endswith(".db"):
        raise UsageError(
            f"{file}: a puzzle bank, not a puzzle file; take puzzles out with "
            f"'grader bank export {file} -o puzzles.jsonl' (or 'grader bank show {file} REF')"
        )
    puzzle, held = one_puzzle(file, index, family)
    partial = False  # the picture shows a solve a --timeout cut short
    if solve or step is not None:
        from grader.output.render import board_of_step
        from grader.rating.grading import grade

        result = grade(puzzle, grade_options(techniques, costs, guess, timeout, step is None))
        timed_out = result.run.status == "timeout"
        if step is not None:
            reached = len(result.steps)
            if step > reached and timed_out:  # a limit, not a bad request: exit 3, no picture
                err.print(
                    f"--step: the solve was cut short by --timeout after {reached} step(s), "
                    f"before step {step}; nothing written",
                    markup=False,
                )
                raise typer.Exit(EXIT_TIMEOUT)
            if step > reached:
                raise UsageError(f"--step: the solve has {reached} step(s), not {step}")
            # the board before a step reached is whole
            board = board_of_step(puzzle, result.steps, result.techniques, step, title)
        else:
            board = puzzle_board(puzzle, result.run.state, title, result.run.stated)
            partial = timed_out
    else:
        board = puzzle_board(puzzle, title=title)
    write_atomic(output, picture_bytes(board, fmt, candidates))
    if partial:
        err.print(f"wrote {output} (the solve was cut short by --timeout: partial)", markup=False)
        raise typer.Exit(EXIT_TIMEOUT)
    which = which_puzzle(puzzle, index, held)
    err.print(f"wrote {output}" + (f" ({which})" if which else ""), markup=False)
