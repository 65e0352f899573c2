"""Command line: ``grade FILE...`` and ``grader COMMAND``.

Exit codes: 0 every puzzle was graded (whatever the verdict); 2 bad input or options (one line
names the file, the field and the problem); 3 a time limit cut a report short; 1 an internal
error (``--debug`` shows the traceback); 130 interrupted.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer
from rich.console import Console

from grader.errors import FieldProblem, InputError, UsageError

EXIT_OK, EXIT_INTERNAL, EXIT_INPUT, EXIT_TIMEOUT = 0, 1, 2, 3
EXIT_CODES = (
    "Exit codes: 0 done; 2 bad input or options (one line names the file, the field and the "
    "problem); 3 a limit (--timeout, --max-attempts) cut the work short, what was done is "
    "reported; 1 internal error (--debug for the traceback)."
)

out = Console(highlight=False, soft_wrap=False)
err = Console(stderr=True, highlight=False, soft_wrap=True)

Files = Annotated[list[str], typer.Argument(help="Puzzle files (.json, .jsonl, text) or game IDs.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="One JSON object per puzzle (JSON lines).")]
TraceOpt = Annotated[
    bool, typer.Option("--trace", help="Add the numbered steps with explanations.")
]
CostsOpt = Annotated[
    str | None,
    typer.Option("--costs", help="TOML file overriding technique costs.", metavar="FILE"),
]
TechOpt = Annotated[
    str | None,
    typer.Option(
        "--techniques",
        help="Techniques to use: names or levels (a level means all up to it), comma separated; "
        "start with '-' to remove from the full set, e.g. '-lookahead-2'.",
    ),
]
GuessOpt = Annotated[
    bool, typer.Option("--guess", help="Allow guessing when stuck (costly steps).")
]
TimeoutOpt = Annotated[
    float | None,
    typer.Option(
        "--timeout", help="Seconds allowed per puzzle; a partial report says so.", min=0.001
    ),
]
ExactOpt = Annotated[
    bool, typer.Option("--exact/--no-exact", help="Count solutions with the exact search.")
]
DebugOpt = Annotated[bool, typer.Option("--debug", help="Show tracebacks of internal errors.")]
HtmlOpt = Annotated[
    str | None,
    typer.Option(
        "--html",
        help="Also write a self-contained HTML trace (report, then every step with its board).",
        metavar="FILE",
    ),
]
ForceOpt = Annotated[bool, typer.Option("--force", help="Overwrite existing output files.")]


def _options(techniques, costs, guess, timeout, exact):
    from grader.costs import load_costs
    from grader.grading import GradeOptions

    return GradeOptions(
        techniques=techniques,
        costs=load_costs(costs) if costs else None,
        guess=guess,
        timeout=timeout,
        exact=exact,
    )


def run_grade(
    files, as_json, trace, costs, techniques, guess, timeout, exact, html=None, force=False
) -> int:
    """Grade every puzzle of every file; bad files get one line each and exit code 2."""
    from grader.grading import grade
    from grader.loading import load
    from grader.report import print_grade

    if html is not None:
        from grader.output import check_new

        check_new(html, force)
    options = _options(techniques, costs, guess, timeout, exact)
    code = EXIT_OK
    graded = []
    for source in files:
        try:
            puzzles = load(source)
        except InputError as error:
            _input_error(error, as_json, source)
            code = EXIT_INPUT
            continue
        for puzzle in puzzles:
            result = grade(puzzle, options)
            if result.run.status == "timeout" and code == EXIT_OK:
                code = EXIT_TIMEOUT
            if html is not None:
                graded.append(result)
            if as_json:
                print(json.dumps(result.to_dict(trace=trace), ensure_ascii=False), flush=True)
            else:
                print_grade(out, result, trace=trace)
    if html is not None and graded:
        from grader.html import trace_html
        from grader.output import write_atomic

        write_atomic(html, trace_html(graded))
        err.print(f"wrote {html}", markup=False)
    return code


def _input_error(error: InputError, as_json: bool, source: str) -> None:
    err.print(f"error: {error}", markup=False)
    if as_json:
        print(json.dumps({"id": source, "error": str(error)}, ensure_ascii=False), flush=True)


# ---------------------------------------------------------------------------------------------
# grade
# ---------------------------------------------------------------------------------------------

grade_app = typer.Typer(add_completion=False, rich_markup_mode=None)


@grade_app.command(
    help="Grade puzzles: uniqueness, deducibility, difficulty and why. " + EXIT_CODES
)
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
    debug: DebugOpt = False,
) -> None:
    raise typer.Exit(
        run_grade(files, as_json, trace, costs, techniques, guess, timeout, exact, html, force)
    )


# ---------------------------------------------------------------------------------------------
# grader
# ---------------------------------------------------------------------------------------------

grader_app = typer.Typer(
    add_completion=False,
    rich_markup_mode=None,
    no_args_is_help=True,
    help="Grade, solve, explain and generate grid logic puzzles. " + EXIT_CODES,
)


@grader_app.command("grade", help="Grade puzzles (same as the `grade` command).")
def grader_grade(
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
    debug: DebugOpt = False,
) -> None:
    raise typer.Exit(
        run_grade(files, as_json, trace, costs, techniques, guess, timeout, exact, html, force)
    )


@grader_app.command("solve", help="Print the solution, with the steps that found it.")
def grader_solve(
    files: Files,
    costs: CostsOpt = None,
    techniques: TechOpt = None,
    timeout: TimeoutOpt = None,
    debug: DebugOpt = False,
) -> None:
    from grader.grading import grade
    from grader.loading import load
    from grader.report import board_text

    options = _options(techniques, costs, True, timeout, True)
    code = EXIT_OK
    for source in files:
        try:
            puzzles = load(source)
        except InputError as error:
            _input_error(error, False, source)
            code = EXIT_INPUT
            continue
        for puzzle in puzzles:
            result = grade(puzzle, options)
            guesses = sum(1 for s in result.steps if s.technique == "guess")
            if result.solutions == 0:
                verdict = "no solution"
            elif result.solved:
                verdict = "solved" + (f" with {guesses} guesses" if guesses else " by deduction")
            else:
                verdict = result.status_text()
            if result.solutions == "2+":
                verdict += " (one of several solutions)"
            out.print(f"{puzzle.id}: {verdict}")
            out.print(board_text(result.grid()))
            if result.run.status == "timeout":
                code = EXIT_TIMEOUT
    raise typer.Exit(code)


@grader_app.command("hint", help="Print the next step only, with its explanation.")
def grader_hint(
    file: Annotated[str, typer.Argument(help="A puzzle file or game ID.")],
    as_json: JsonOpt = False,
    costs: CostsOpt = None,
    techniques: TechOpt = None,
    debug: DebugOpt = False,
) -> None:
    from grader.engine import Engine
    from grader.explain import Explainer
    from grader.grading import step_dict
    from grader.loading import load

    options = _options(techniques, costs, False, None, False)
    from grader.costs import choose

    puzzle = load(file)[0]
    chosen = choose(puzzle.family, puzzle.model, options.techniques, options.costs)
    engine = Engine(puzzle.model, chosen)
    problem = engine.check_state(puzzle.givens)
    ex = Explainer(puzzle.model, chosen)
    if problem is not None:
        message = f"the givens break a rule: {problem.reason}"
        print(
            json.dumps({"id": puzzle.id, "hint": None, "problem": message}) if as_json else message
        )
        raise typer.Exit(EXIT_OK)
    steps = engine.next_steps(puzzle.givens)
    if as_json:
        payload = {"id": puzzle.id, "hint": step_dict(steps[0], ex) if steps else None}
        print(json.dumps(payload, ensure_ascii=False))
    elif not steps:
        solved = puzzle.model.is_solved(puzzle.givens)
        out.print("the puzzle is already solved" if solved else "no technique applies here")
    else:
        step = steps[0]
        out.print(f"[bold]{step.technique}[/bold] (cost {step.cost:g}): {ex.text(step)}")
        if len(steps) > 1:
            out.print(f"[dim]({len(steps) - 1} more step(s) of this kind are available now)[/dim]")


@grader_app.command("schema", help="Print the JSON Schema of a family's puzzle file.")
def grader_schema(
    family: Annotated[str | None, typer.Argument(help="A family; all of them if omitted.")] = None,
    debug: DebugOpt = False,
) -> None:
    from grader.registry import families

    known = families()
    if family is not None and family not in known:
        raise UsageError(f"family: unknown family {family!r} (known: {', '.join(known)})")
    chosen = [known[family]] if family else list(known.values())
    schemas = [f.schema.model_json_schema() for f in chosen]
    document = schemas[0] if family else {"oneOf": schemas, "title": "puzzle file"}
    print(json.dumps(document, indent=2, ensure_ascii=False))


@grader_app.command(
    "techniques", help="List a family's techniques with cost, level and description."
)
def grader_techniques(
    family: Annotated[str, typer.Argument(help="A family name.")],
    costs: CostsOpt = None,
    debug: DebugOpt = False,
) -> None:
    from rich.table import Table

    from grader.costs import load_costs, technique_table
    from grader.loading import puzzle_from_dict
    from grader.registry import families

    known = families()
    if family not in known:
        raise UsageError(f"family: unknown family {family!r} (known: {', '.join(known)})")
    fam = known[family]
    sample = puzzle_from_dict(fam.example, f"{family} example", "example").model
    overrides = load_costs(costs) if costs else {}
    merged = {**overrides.get("*", {}), **overrides.get(family, {})}
    table = Table(title=f"{fam.title} techniques")
    for column in ("technique", "cost", "level", "default", "description"):
        table.add_column(column)
    for spec in technique_table(fam, sample):
        technique = spec.build(merged.get(spec.technique_name))
        table.add_row(
            technique.name,
            f"{technique.cost:g}",
            spec.level,
            "yes" if spec.default else "no",
            technique.description,
        )
    out.print(table)


@grader_app.command("families", help="List the installed puzzle families.")
def grader_families(debug: DebugOpt = False) -> None:
    from grader.registry import families

    for name, family in families().items():
        out.print(f"{name:<10} {family.title}")


OutputOpt = Annotated[
    str, typer.Option("--output", "-o", help="The file to write.", metavar="FILE")
]


def _one_puzzle(source: str, index: int):
    from grader.loading import load

    puzzles = load(source)
    if not 1 <= index <= len(puzzles):
        raise UsageError(f"--index: {source} holds {len(puzzles)} puzzle(s), not {index}")
    return puzzles[index - 1]


@grader_app.command(
    "render",
    help="Draw a puzzle's board as SVG, PNG or PDF (by the output's suffix): the givens, or "
    "with --solve the grid the techniques reach, or with --step N the board before step N "
    "with the cells it used and changed highlighted.",
)
def grader_render(
    file: Annotated[str, typer.Argument(help="A puzzle file or game ID.")],
    output: OutputOpt,
    index: Annotated[
        int, typer.Option("--index", help="Which puzzle of the file (1 = first).", min=1)
    ] = 1,
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
    debug: DebugOpt = False,
) -> None:
    from grader.output import check_new, write_atomic
    from grader.render import picture_bytes, picture_format, puzzle_board, step_board

    try:
        fmt = picture_format(output)
    except ValueError as error:
        raise UsageError(f"{output}: {error}") from None
    check_new(output, force)
    puzzle = _one_puzzle(file, index)
    if solve or step is not None:
        from grader.grading import grade
        from grader.render import states_before

        result = grade(puzzle, _options(techniques, costs, guess, timeout, exact=step is None))
        if step is not None:
            if step > len(result.steps):
                raise UsageError(f"--step: the solve has {len(result.steps)} step(s), not {step}")
            chosen = result.steps[step - 1]
            before = states_before(puzzle, result.steps[:step])[-1]
            by_name = {t.name: t for t in result.techniques}
            board = step_board(puzzle, before, chosen, by_name.get(chosen.technique), title)
        else:
            board = puzzle_board(puzzle, result.run.state, title)
    else:
        board = puzzle_board(puzzle, title=title)
    write_atomic(output, picture_bytes(board, fmt, candidates))
    err.print(f"wrote {output}", markup=False)


@grader_app.command(
    "generate",
    help="Generate puzzles deducible at a level (or only unique, --mode unique), reproducibly "
    "from the seed. Writes JSON lines to the output (whole, at the end) or to stdout.",
)
def grader_generate(
    family: Annotated[str, typer.Argument(help="The family, e.g. binairo, tango, sudoku.")],
    size: Annotated[str, typer.Option("--size", help="WxH (width x height) or N.")] = "6x6",
    level: Annotated[str, typer.Option("--level", help="A level name (or a family's band).")] = (
        "normal"
    ),
    count: Annotated[int, typer.Option("--count", "-n", help="How many puzzles.", min=1)] = 1,
    seed: Annotated[int, typer.Option("--seed", help="Seed of every random choice.")] = 0,
    output: Annotated[
        str | None, typer.Option("--output", "-o", help="A .jsonl file (default: stdout).")
    ] = None,
    mode: Annotated[
        str, typer.Option("--mode", help="deducible (at the level) or unique (classic).")
    ] = "deducible",
    rule: Annotated[
        list[str] | None,
        typer.Option("--rule", help="A family option KEY=VALUE, e.g. unique_lines=true."),
    ] = None,
    unique_lines: Annotated[
        bool, typer.Option("--unique-lines", help="Binairo: no two equal rows or columns.")
    ] = False,
    extra_share: Annotated[
        float,
        typer.Option(
            "--extra-share",
            help="Share of revealed hints that are the family's other hints (tango signs).",
            min=0.0,
            max=1.0,
        ),
    ] = 0.5,
    reduce: Annotated[
        bool, typer.Option("--reduce/--no-reduce", help="Remove hints that are not needed.")
    ] = True,
    max_attempts: Annotated[
        int, typer.Option("--max-attempts", help="Tries per puzzle before giving up.", min=1)
    ] = 300,
    bank: Annotated[
        str | None,
        typer.Option(
            "--bank", help="Also grade and store the puzzles in this bank.", metavar="FILE.db"
        ),
    ] = None,
    progress: Annotated[
        bool, typer.Option("--progress/--no-progress", help="Show a progress bar.")
    ] = True,
    costs: CostsOpt = None,
    timeout: Annotated[
        float | None,
        typer.Option(
            "--timeout", help="Seconds for the whole run; what is done is kept.", min=0.001
        ),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite the output file.")] = False,
    debug: DebugOpt = False,
) -> None:
    import time

    from grader.costs import load_costs
    from grader.generator import Generator, Request, parse_size
    from grader.output import check_new, write_atomic

    if output is not None:
        check_new(output, force)
    options: dict[str, object] = {"unique_lines": True} if unique_lines else {}
    for item in rule or []:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise UsageError(f"--rule: {item!r} is not KEY=VALUE")
        options[key.strip()] = _option_value(value.strip())
    request = Request(
        family=family,
        size=parse_size(size),
        level=level,
        count=count,
        seed=seed,
        mode=mode,
        options=options,
        extra_share=extra_share,
        reduce=reduce,
        max_attempts=max_attempts,
        costs=load_costs(costs) if costs else None,
        timeout=timeout,
    )
    try:
        generator = Generator(request)
    except FieldProblem as problem:
        raise UsageError(f"{problem.field}: {problem.problem}") from None
    lines: list[str] = []
    started = time.monotonic()
    interrupted = False
    try:
        with _progress(progress and count > 1, f"{family} {size} {level}", count) as advance:
            for found in generator.puzzles():
                line = json.dumps(found.data, ensure_ascii=False)
                lines.append(line)
                if output is None:
                    print(line, flush=True)
                advance()
    except KeyboardInterrupt:
        interrupted = True
    if output is not None and lines:
        write_atomic(output, "\n".join(lines) + "\n")
    if bank is not None and lines:
        _bank_generated(bank, lines)
    seconds = time.monotonic() - started
    where = f" to {output}" if output else ""
    err.print(
        f"generated {len(lines)} of {count} {family} puzzles{where} in {seconds:.2f} s "
        f"({generator.attempts} attempts)" + (" — interrupted" if interrupted else ""),
        markup=False,
    )
    if generator.gave_up:
        err.print(f"stopped: {generator.gave_up}", markup=False)
    if interrupted:
        raise typer.Exit(130)
    if len(lines) < count:
        raise typer.Exit(EXIT_TIMEOUT)


def _option_value(text: str) -> object:
    """``true``/``false``, numbers and ``[a, b]`` lists as JSON; anything else as text."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def _bank_generated(path: str, lines: list[str]) -> None:
    from grader.bank import Bank
    from grader.grading import grade
    from grader.loading import puzzle_from_dict

    with Bank(path) as store:
        added = 0
        for line in lines:
            data = json.loads(line)
            added += store.add_grade(grade(puzzle_from_dict(data, path, data.get("id", ""))))
    err.print(f"bank {path}: {added} added, {len(lines) - added} already there", markup=False)


class _progress:
    """A rich progress bar on stderr (or nothing); the context value advances it by one."""

    def __init__(self, show: bool, label: str, total: int) -> None:
        self.show, self.label, self.total = show, label, total
        self.bar = None

    def __enter__(self):
        if not self.show:
            return lambda: None
        from rich.progress import Progress

        self.bar = Progress(console=err, transient=True)
        self.bar.start()
        task = self.bar.add_task(self.label, total=self.total)
        return lambda: self.bar.advance(task)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()


@grader_app.command("canon", help="Print each puzzle's canonical key (equal for symmetric copies).")
def grader_canon(files: Files, debug: DebugOpt = False) -> None:
    from grader.loading import load

    code = EXIT_OK
    for source in files:
        try:
            puzzles = load(source)
        except InputError as error:
            _input_error(error, False, source)
            code = EXIT_INPUT
            continue
        for puzzle in puzzles:
            key = puzzle.family.canonical_key(puzzle.model, puzzle.givens)
            out.print(f"{puzzle.id}\t{key}", markup=False, highlight=False, soft_wrap=True)
    raise typer.Exit(code)


@grader_app.command(
    "batch",
    help="Grade many puzzles (files, .jsonl, sudoku or game-ID line files) into one table, "
    "one row per puzzle: CSV or Parquet by the output's suffix. Ctrl-C leaves the output "
    "unwritten and a journal beside it; --resume continues from the journal.",
)
def grader_batch(
    inputs: Annotated[list[str], typer.Argument(help="Puzzle files.")],
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
    debug: DebugOpt = False,
) -> None:
    import time
    from pathlib import Path

    from grader.batch import (
        BatchInterrupted,
        check_output_format,
        journal_path,
        run_batch,
        tasks_from,
        write_frame,
    )
    from grader.output import check_new

    check_output_format(output)
    check_new(output, force)
    journal = journal_path(output)
    if journal.exists() and not resume:
        if not force:
            raise UsageError(
                f"{journal}: an interrupted batch left this journal; use --resume to continue "
                "it, or --force to start over"
            )
        journal.unlink()
    if resume and not journal.exists():
        err.print(f"nothing to resume ({journal} does not exist); starting afresh", markup=False)
    if bank is not None:
        from grader.bank import Bank

        Bank(bank).close()  # a bad bank file is refused before any grading
    tasks = tasks_from(inputs)
    options = _options(techniques, costs, guess, timeout, exact)
    started = time.monotonic()
    try:
        result = run_batch(
            tasks,
            options=options,
            workers=workers,
            dask=dask,
            chunk_size=chunk_size,
            progress=progress,
            journal=journal,
            resume=resume,
            bank=bank is not None,
        )
    except BatchInterrupted as stop:
        err.print(
            f"interrupted: {stop.done} of {stop.total} puzzles done, kept in {journal}; "
            f"{output} was not written. Rerun with --resume to continue.",
            markup=False,
        )
        raise typer.Exit(130) from None
    elapsed = time.monotonic() - started
    if bank is not None:
        from grader.bank import Bank

        with Bank(bank) as store:
            added, known = store.add(row["bank"] for row in result.rows if "bank" in row)
        err.print(f"bank {bank}: {added} added, {known} already there", markup=False)
    write_frame(result.frame, output)
    journal.unlink(missing_ok=True)
    rate = result.graded / elapsed if elapsed > 0 else 0.0
    resumed = f" ({result.resumed} from the journal)" if result.resumed else ""
    err.print(
        f"graded {result.graded} puzzle(s){resumed} in {elapsed:.1f} s ({rate:.1f}/s); "
        f"wrote {Path(output)}",
        markup=False,
    )
    if result.errors:
        first = next(row["error"] for row in result.rows if row.get("error"))
        err.print(
            f"error: {result.errors} puzzle(s) could not be graded (see the error column), "
            f"first: {first}",
            markup=False,
        )
        raise typer.Exit(EXIT_INPUT)


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
    debug: DebugOpt = False,
) -> None:
    from pathlib import Path

    from grader.batch import read_frame
    from grader.histogram import save_histograms
    from grader.output import check_new
    from grader.render import picture_format

    try:
        picture_format(output)
    except ValueError as error:
        raise UsageError(f"{output}: {error}") from None
    check_new(output, force)
    frame = read_frame(results)
    save_histograms(frame, output, title=title or Path(results).name)
    err.print(f"wrote {output}", markup=False)


# ---------------------------------------------------------------------------------------------
# bank
# ---------------------------------------------------------------------------------------------

bank_app = typer.Typer(
    add_completion=False,
    rich_markup_mode=None,
    no_args_is_help=True,
    help="The puzzle bank: list, show and export stored puzzles.",
)
grader_app.add_typer(bank_app, name="bank")

BankFile = Annotated[str, typer.Argument(help="The bank file (SQLite).", metavar="FILE.db")]
FamilyFilter = Annotated[str | None, typer.Option("--family", help="Only this family.")]
SizeFilter = Annotated[str | None, typer.Option("--size", help="Only this size, e.g. 6x6.")]
LevelFilter = Annotated[
    str | None, typer.Option("--level", help="Only these levels (comma separated).")
]
MinFilter = Annotated[float | None, typer.Option("--min-difficulty", help="Difficulty at least.")]
MaxFilter = Annotated[float | None, typer.Option("--max-difficulty", help="Difficulty at most.")]
PublishedFilter = Annotated[
    bool | None,
    typer.Option(
        "--published/--unpublished", help="Only puzzles already published / not yet published."
    ),
]
OrderOpt = Annotated[str, typer.Option("--order", help="added, difficulty, hardest or effort.")]


def _bank_query(path, family, size, level, min_d, max_d, published, limit, order):
    from grader.bank import Bank

    store = Bank(path, create=False)
    levels = [x.strip() for x in level.split(",") if x.strip()] if level else None
    found = store.query(
        family=family,
        size=size,
        level=levels,
        min_difficulty=min_d,
        max_difficulty=max_d,
        published=published,
        limit=limit,
        order=order,
    )
    return store, found


@bank_app.command("list", help="List stored puzzles matching the filters.")
def bank_list(
    bank: BankFile,
    family: FamilyFilter = None,
    size: SizeFilter = None,
    level: LevelFilter = None,
    min_difficulty: MinFilter = None,
    max_difficulty: MaxFilter = None,
    published: PublishedFilter = None,
    limit: Annotated[int | None, typer.Option("--limit", help="At most this many.", min=1)] = None,
    order: OrderOpt = "added",
    as_json: JsonOpt = False,
    debug: DebugOpt = False,
) -> None:
    from rich.table import Table

    store, found = _bank_query(
        bank, family, size, level, min_difficulty, max_difficulty, published, limit, order
    )
    total = store.count()
    store.close()
    if as_json:
        for entry in found:
            payload = {k: v for k, v in entry.__dict__.items() if k != "key"}
            print(json.dumps(payload, ensure_ascii=False))
        return
    table = Table(title=f"{len(found)} of {total} puzzles", title_justify="left")
    for column in ("ref", "family", "size", "level", "difficulty", "effort", "givens", "id"):
        table.add_column(column, justify="right" if column in ("difficulty", "effort") else "left")
    table.add_column("published")
    for e in found:
        table.add_row(
            e.ref,
            e.family,
            e.size,
            e.level,
            f"{e.difficulty:g}",
            f"{e.effort:g}",
            str(e.givens),
            e.id or "",
            (e.published or "")[:10],
        )
    out.print(table)


@bank_app.command("show", help="Show one stored puzzle: its grade and its grid.")
def bank_show(
    bank: BankFile,
    name: Annotated[str, typer.Argument(help="Its ref (or a prefix), key or id.")],
    as_json: JsonOpt = False,
    debug: DebugOpt = False,
) -> None:
    from grader.bank import Bank
    from grader.report import board_text

    with Bank(bank, create=False) as store:
        entry = store.get(name)
    if as_json:
        print(json.dumps({k: v for k, v in entry.__dict__.items()}, ensure_ascii=False))
        return
    for key in ("ref", "family", "size", "level", "difficulty", "effort", "givens", "id"):
        value = getattr(entry, key)
        out.print(f"[bold]{key:<11}[/bold]{value if value is not None else ''}")
    out.print(f"[bold]{'published':<11}[/bold]{entry.published or 'no'}")
    out.print(f"[bold]{'added':<11}[/bold]{entry.added}")
    used = ", ".join(f"{k} x{v}" for k, v in entry.techniques.items())
    out.print(f"[bold]{'techniques':<11}[/bold]{used}")
    if isinstance(entry.puzzle.get("grid"), list):
        out.print(board_text([str(row) for row in entry.puzzle["grid"]]))
    out.print(json.dumps(entry.puzzle, ensure_ascii=False), markup=False, soft_wrap=True)


@bank_app.command(
    "export",
    help="Write stored puzzles matching the filters to a puzzle file (.jsonl or .json); "
    "--mark-published records them as published.",
)
def bank_export(
    bank: BankFile,
    output: OutputOpt,
    family: FamilyFilter = None,
    size: SizeFilter = None,
    level: LevelFilter = None,
    min_difficulty: MinFilter = None,
    max_difficulty: MaxFilter = None,
    published: PublishedFilter = None,
    count: Annotated[
        int | None, typer.Option("--count", "-n", help="At most this many.", min=1)
    ] = None,
    order: OrderOpt = "added",
    mark_published: Annotated[
        bool, typer.Option("--mark-published", help="Record the exported puzzles as published.")
    ] = False,
    force: ForceOpt = False,
    debug: DebugOpt = False,
) -> None:
    from pathlib import Path

    from grader.bank import export_text
    from grader.output import check_new, write_atomic

    fmt = Path(output).suffix.lower()
    if fmt not in (".jsonl", ".json"):
        raise UsageError(
            f"{output}: unknown puzzle file format {fmt or '(none)'!r}; use .jsonl or .json"
        )
    check_new(output, force)
    store, found = _bank_query(
        bank, family, size, level, min_difficulty, max_difficulty, published, count, order
    )
    try:
        if not found:
            raise UsageError(f"{bank}: no stored puzzle matches these filters; nothing written")
        if count is not None and len(found) < count:
            err.print(f"only {len(found)} puzzle(s) match (asked for {count})", markup=False)
        write_atomic(output, export_text(found, fmt))
        if mark_published:
            store.mark_published(e.ref for e in found)
    finally:
        store.close()
    marked = ", marked published" if mark_published else ""
    err.print(f"wrote {len(found)} puzzle(s) to {output}{marked}", markup=False)


# ---------------------------------------------------------------------------------------------
# entry points with one-line errors
# ---------------------------------------------------------------------------------------------


def _main(app: typer.Typer, prog: str) -> None:
    debug = "--debug" in sys.argv[1:]
    try:
        code = app(prog_name=prog, standalone_mode=False)
    except (InputError, UsageError) as error:
        err.print(f"error: {error}", markup=False)
        code = EXIT_INPUT
    except KeyboardInterrupt:
        err.print("interrupted")
        code = 130
    except BrokenPipeError:
        code = EXIT_OK
    except Exception as error:
        code = _framework_exit(error)
        if code is None:  # the last line of defence: one line unless --debug
            if debug:
                raise
            err.print(
                f"internal error: {type(error).__name__}: {error} (run with --debug for details)",
                markup=False,
            )
            code = EXIT_INTERNAL
    sys.exit(code if isinstance(code, int) else EXIT_OK)


def _framework_exit(error: Exception) -> int | None:
    """Exit code for the command-line framework's own exceptions (exit, abort, usage errors).

    Typer vendors click in recent releases, so these are recognised by shape, not by class.
    """
    name = type(error).__name__
    if name == "Exit":
        return getattr(error, "exit_code", EXIT_OK)
    if name == "Abort":
        err.print("interrupted")
        return 130
    if hasattr(error, "format_message") and hasattr(error, "exit_code"):
        message = " ".join(str(error.format_message()).split())
        if "Missing argument" in message or "No such command" in message:
            message += " (see --help)"
        err.print(f"error: {message}", markup=False)
        return EXIT_INPUT
    return None


def grade_main() -> None:
    _main(grade_app, "grade")


def grader_main() -> None:
    _main(grader_app, "grader")
