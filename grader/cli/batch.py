"""``grader batch`` and ``grader histogram``: many puzzles into one table, and its charts."""

from __future__ import annotations

from typing import Annotated

import typer

from grader.cli.common import (
    EXIT_INPUT,
    EXIT_INTERRUPTED,
    EXIT_TIMEOUT,
    CostsOpt,
    ExactOpt,
    FamilyOpt,
    ForceOpt,
    GuessOpt,
    OutputOpt,
    ProgressLines,
    TechOpt,
    TimeoutOpt,
    err,
    grade_options,
    grader_app,
    note,
    stderr_is_terminal,
)
from grader.core.errors import UsageError
from grader.core.units import seconds_text


@grader_app.command(
    "batch",
    help="Grade many puzzles (files, .jsonl, sudoku or game-ID line files) into one table, "
    "one row per puzzle: CSV or Parquet by the output's suffix. Ctrl-C leaves the output "
    "unwritten and a journal beside it; --resume continues from the journal.",
)
def grader_batch(
    inputs: Annotated[list[str], typer.Argument(help="Puzzle files (- for standard input).")],
    output: OutputOpt,
    workers: Annotated[
        int, typer.Option("--workers", "-w", help="Local worker processes.", min=1)
    ] = 1,
    dask: Annotated[
        str | None,
        typer.Option(
            "--dask", help="Run on a Dask cluster: its scheduler address.", metavar="ADDRESS"
        ),
    ] = None,
    chunk_size: Annotated[
        int | None, typer.Option("--chunk-size", help="Puzzles per task sent to a worker.", min=1)
    ] = None,
    resume: Annotated[
        bool, typer.Option("--resume", help="Continue an interrupted batch from its journal.")
    ] = False,
    bank: Annotated[
        str | None,
        typer.Option("--bank", help="Also store unique puzzles in this bank.", metavar="FILE.db"),
    ] = None,
    progress: Annotated[
        bool, typer.Option("--progress/--no-progress", help="Show a progress bar.")
    ] = True,
    costs: CostsOpt = None,
    techniques: TechOpt = None,
    guess: GuessOpt = False,
    timeout: TimeoutOpt = None,
    exact: ExactOpt = True,
    force: ForceOpt = False,
    family: FamilyOpt = None,
) -> None:
    from pathlib import Path

    from grader.rating.costs import check_selection
    from grader.storage.batch import BatchInterrupted, grade_to_file, prepare_output, tasks_from

    check_selection(techniques)  # a name no family has: one line, before any file is touched
    journal = prepare_output(output, force=force, resume=resume, bank=bank, note=note)
    tasks = tasks_from(inputs, family)
    options = grade_options(techniques, costs, guess, timeout, exact)
    shown: bool | ProgressLines = progress
    if progress and not stderr_is_terminal():
        shown = ProgressLines("grading", len(tasks))
    try:
        result = grade_to_file(
            tasks,
            output,
            options=options,
            workers=workers,
            dask=dask,
            chunk_size=chunk_size,
            progress=shown,
            resume=resume,
            bank=bank,
            note=note,
        )
    except BatchInterrupted as stop:
        err.print(
            f"interrupted: {stop.done} of {stop.total} puzzles done, kept in {journal}; "
            f"{output} was not written. Rerun with --resume to continue.",
            markup=False,
        )
        raise typer.Exit(EXIT_INTERRUPTED) from None
    for line in problem_lines(result.rows):
        err.print(line, markup=False)
    elapsed = result.seconds
    rate = result.graded / elapsed if elapsed > 0 else 0.0
    resumed = f" ({result.resumed} from the journal)" if result.resumed else ""
    done = result.graded - result.failed
    graded = f"{done} of {result.graded}" if result.failed else str(done)  # of this run's
    err.print(
        f"graded {graded} puzzle(s){resumed} in {seconds_text(elapsed)} ({rate:.1f}/s); "
        f"wrote {Path(output)}",
        markup=False,
    )
    if result.errors:
        err.print(
            f"error: {result.errors} puzzle(s) could not be graded (named above, and in the "
            "error column)",
            markup=False,
        )
        raise typer.Exit(EXIT_INPUT)
    cut = sum(1 for row in result.rows if row.get("status") == "timeout")
    if cut:
        err.print(
            f"{cut} puzzle(s) cut short by --timeout (status timeout; their grades are partial)",
            markup=False,
        )
        raise typer.Exit(EXIT_TIMEOUT)


NAMED_PROBLEMS = 20
"""At most this many bad puzzles are named on stderr (all are in the error column)."""


def problem_lines(rows: list[dict], limit: int = NAMED_PROBLEMS) -> list[str]:
    """One line per row that could not be graded (``error: file:line: field: problem``), in
    input order, then how many more there are past ``limit``."""
    problems = [row for row in rows if row.get("error")]
    lines = []
    for row in problems[:limit]:
        text = " ".join(str(row["error"]).split())
        source = str(row.get("source") or "")
        if source and not text.startswith(source):
            text = f"{source}: {text}"
        lines.append(f"error: {text}")
    if len(problems) > limit:
        lines.append(f"error: ... and {len(problems) - limit} more (see the error column)")
    return lines


@grader_app.command(
    "histogram",
    help="Draw histograms of a batch result: difficulty and effort per family and level, "
    "and technique usage (PNG, SVG or PDF by the output's suffix).",
)
def grader_histogram(
    results: Annotated[str, typer.Argument(help="A batch result (.csv or .parquet).")],
    output: OutputOpt,
    title: Annotated[str, typer.Option("--title", help="A title for the figure.")] = "",
    force: ForceOpt = False,
) -> None:
    from pathlib import Path

    from grader.output.files import check_new, refuse_directory
    from grader.output.histogram import save_histograms
    from grader.output.render import picture_format
    from grader.storage.batch import read_frame

    refuse_directory(output)  # said before its suffix
    try:
        picture_format(output)
    except ValueError as error:
        raise UsageError(f"{output}: {error}") from None
    check_new(output, force)
    frame = read_frame(results)
    save_histograms(frame, output, title=title or Path(results).name)
    err.print(f"wrote {output}", markup=False)
