"""``grader generate``: new puzzles, deducible at a level or only unique."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from grader.cli.common import (
    EXIT_INTERRUPTED,
    EXIT_TIMEOUT,
    CostsOpt,
    ProgressLines,
    err,
    grader_app,
    standard_output,
    stderr_is_terminal,
)
from grader.core.errors import FieldProblem, UsageError
from grader.core.units import counted, seconds_text

if TYPE_CHECKING:
    from grader.rating.family import Family


@grader_app.command(
    "generate",
    help="Generate puzzles deducible at a level (or only unique, --mode unique), reproducibly "
    "from the seed. Writes JSON lines to stdout, or the output file (whole, at the end): "
    "JSON lines (.jsonl) or one JSON array (.json).",
)
def grader_generate(
    ctx: typer.Context,
    family: Annotated[
        str | None,
        typer.Argument(help="The family, e.g. binairo, tango, sudoku (not with --plan)."),
    ] = None,
    size: Annotated[
        str | None,
        typer.Option(
            "--size",
            help="ROWSxCOLS or N (default: the family's size, see grader families).",
            metavar="ROWSxCOLS",
        ),
    ] = None,
    level: Annotated[
        str | None,
        typer.Option(
            "--level",
            help="A level name (or a family's band); default normal (or the hardest level "
            "below it that the size reaches), and with --mode unique any level (no filter).",
        ),
    ] = None,
    count: Annotated[int, typer.Option("--count", "-n", help="How many puzzles.", min=1)] = 1,
    seed: Annotated[int, typer.Option("--seed", help="Seed of every random choice.")] = 0,
    output: Annotated[
        str | None,
        typer.Option(
            "--output",
            "-o",
            help="A .jsonl or .json file (default, or -: stdout).",
            metavar="FILE",
            callback=standard_output,
        ),
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
    workers: Annotated[
        int,
        typer.Option(
            "--workers", "-w", help="Local worker processes (the same puzzles on any).", min=1
        ),
    ] = 1,
    dask: Annotated[
        str | None,
        typer.Option(
            "--dask", help="Run on a Dask cluster: its scheduler address.", metavar="ADDRESS"
        ),
    ] = None,
    plan: Annotated[
        str | None,
        typer.Option(
            "--plan",
            help="A TOML plan of rows (family, size, level, count...) to fill --bank with; "
            "what the bank already holds counts. With it: --bank, --workers, --dask, --timeout, "
            "--progress only.",
            metavar="PLAN.toml",
        ),
    ] = None,
) -> None:
    from grader.generation.generator import Request, parse_rules
    from grader.generation.parallel import generate_run
    from grader.output.files import check_new, puzzle_file_text, write_atomic
    from grader.rating.costs import load_costs
    from grader.rating.registry import get_family
    from grader.storage.bank import parse_size

    if plan is not None:
        given = _given_options(ctx, PLAN_DECIDES)
        _run_plan(plan, family, given, bank, output, workers, dask, timeout, progress)
        return
    if family is None:
        raise UsageError("family: missing (give a family, e.g. binairo, or --plan PLAN.toml)")
    if output is not None:
        _check_suffix(output)
        check_new(output, force)
    if bank is not None:
        from grader.storage.bank import check_bank

        check_bank(bank)  # a bad bank is refused before any puzzle is made or written
    options = parse_rules(rule or [], unique_lines)
    known = get_family(family)
    if size is None:
        rows, cols = known.default_size if known is not None else (6, 6)
        size = f"{rows}x{cols}"
    shape = parse_size(size)
    if level is None and mode != "unique":
        level = _default_level(known, shape, options) if known is not None else DEFAULT_LEVEL
        if level != DEFAULT_LEVEL and known is not None:
            err.print(
                f"level: {DEFAULT_LEVEL} is not known to be reached for {family} "
                f"{known.size_text(shape)}; making {level}, the hardest level reached below it "
                "(give --level to choose)",
                markup=False,
            )
    request = Request(
        family=family,
        size=shape,
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
        result = generate_run(
            request,
            workers=workers,
            dask=dask,
            output=output,
            bank=bank,
            emit=(lambda line: print(line, flush=True)) if output is None else None,
            progress=_Progress(
                progress and count > 1, f"{family} {size} {level or 'any level'}", count
            ),
        )
    except FieldProblem as problem:
        raise UsageError(f"{problem.field}: {problem.problem}") from None
    if output is not None and not result.lines and result.interrupted:
        kept = "; the file there is left as it was" if Path(output).exists() else ""
        err.print(f"{output}: not written (interrupted before any puzzle){kept}", markup=False)
    elif output is not None and not result.lines:  # a limit: the output is this run's
        write_atomic(output, puzzle_file_text([], output))
        err.print(f"{output}: written empty (no puzzle was made)", markup=False)
    if result.banked is not None:
        added, known = result.banked
        err.print(f"bank {bank}: {added} added, {known} already there", markup=False)
        if added == 0:
            err.print(
                f"nothing new was made: the same command and seed make the same puzzles; "
                f"use another --seed (e.g. --seed {seed + 1}) or a larger -n for more",
                markup=False,
            )
    where = f" to {output}" if output and (result.lines or not result.interrupted) else ""
    err.print(
        f"generated {len(result.lines)} of {count} {family} puzzles{where} in "
        f"{seconds_text(result.seconds)} ({counted(result.attempts, 'attempt')})"
        + (" — interrupted" if result.interrupted else "")
        + (f"; stopped: {result.gave_up}" if result.gave_up else ""),  # as a plan's rows say it
        markup=False,
    )
    if result.interrupted:
        raise typer.Exit(EXIT_INTERRUPTED)
    if len(result.lines) < count:
        raise typer.Exit(EXIT_TIMEOUT)


DEFAULT_LEVEL = "normal"
"""The level made when --level is not given (in the default mode), where it is in reach."""


def _default_level(family: Family, size: tuple[int, int], options: Mapping[str, Any]) -> str:
    """The level made without --level: normal, unless the family's reach tables say what is
    reached at this size and options and normal is not among it (out of reach, or rare:
    sudoku 6x6); then the hardest level below it that they say is reached (siteswap 3x4:
    trivial, pair place K6: easy). Normal again when none is, so that the generator refuses it
    with its own message, as it does an explicit --level."""
    if DEFAULT_LEVEL not in family.levels:
        return DEFAULT_LEVEL
    try:
        reached, beyond = family.reach(family.normal_size(size, options), options)
    except ValueError:  # a size or option the generator refuses itself, in its own words
        return DEFAULT_LEVEL
    if DEFAULT_LEVEL in reached or (not reached and DEFAULT_LEVEL not in beyond):
        return DEFAULT_LEVEL
    below = family.levels[: family.levels.index(DEFAULT_LEVEL)]
    return next((level for level in reversed(below) if level in reached), DEFAULT_LEVEL)


def _check_suffix(output: str) -> None:
    """Refuse (one line, before any work) an output file the loader would not read back."""
    from grader.output.files import PUZZLE_SUFFIXES, output_suffix

    output_suffix(output, PUZZLE_SUFFIXES, "puzzle file")


PLAN_DECIDES = (
    "size", "level", "count", "seed", "mode", "rule", "unique_lines", "extra_share", "reduce",
    "max_attempts", "costs", "force",
)  # fmt: skip
"""The options a plan run ignores: its rows say what to make (``grader.generation.plan.PlanRow``),
and its puzzles go to --bank only. --bank, --workers, --dask, --timeout and --progress apply."""


def _given_options(ctx: typer.Context, names: tuple[str, ...]) -> list[str]:
    """How the command line writes those of the options ``names`` that it gave (by the name
    of their ParameterSource: typer may carry its own copy of click's enum)."""
    given = []
    for param in ctx.command.params:
        source = ctx.get_parameter_source(param.name) if param.name in names else None
        if source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP"):
            given.append("/".join([*param.opts, *param.secondary_opts]))
    return given


def _run_plan(
    plan: str,
    family: str | None,
    given: list[str],
    bank: str | None,
    output: str | None,
    workers: int,
    dask: str | None,
    timeout: float | None,
    progress: bool,
) -> None:
    """``grader generate --plan``: fill the bank with what the plan's rows still miss."""
    from grader.generation.plan import read_plan, run_plan

    if family is not None:
        raise UsageError(f"--plan: give a plan or a family ({family!r}), not both")
    if given:
        raise UsageError(
            f"--plan: {', '.join(given)} cannot be given with a plan (its rows say what to make; "
            "only --bank, --workers, --dask, --timeout and --progress apply)"
        )
    if bank is None:
        raise UsageError("--plan: needs --bank FILE.db (where the collection goes)")
    if output is not None:
        raise UsageError("--plan: the puzzles go to --bank; export them with `grader bank export`")
    requests = read_plan(plan)
    bar = _PlanProgress(progress)
    try:
        result = run_plan(requests, bank, workers=workers, dask=dask, timeout=timeout, progress=bar)
    finally:
        bar.stop()
    for row in result.rows:
        err.print(row.line(), markup=False)
    made = sum(r.added for r in result.rows)
    err.print(
        f"plan {plan}: {made} puzzles added to {bank} in {seconds_text(result.seconds)} "
        f"({counted(result.attempts, 'attempt')})"
        + (" — interrupted" if result.interrupted else ""),
        markup=False,
    )
    if result.interrupted:
        raise typer.Exit(EXIT_INTERRUPTED)
    if not result.complete:
        raise typer.Exit(EXIT_TIMEOUT)


class _PlanProgress:
    """A progress bar over a plan's puzzles, started at the first call (after the workers)."""

    def __init__(self, show: bool) -> None:
        self.show = show
        self.bar = None
        self.task = None

    def __call__(self, done: int, total: int) -> None:
        if not self.show or total == 0:
            return
        if self.bar is None:
            from rich.progress import Progress

            self.bar = Progress(console=err.real(), transient=True)
            self.bar.start()
            self.task = self.bar.add_task("plan", total=total)
        self.bar.update(self.task, completed=done)

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()


class _Progress:
    """A rich progress bar on a terminal, a plain line every few seconds otherwise (or
    nothing); the context value advances it by one."""

    def __init__(self, show: bool, label: str, total: int) -> None:
        self.show, self.label, self.total = show, label, total
        self.bar = None

    def __enter__(self) -> Callable[[], None]:
        if not self.show:
            return lambda: None
        if not stderr_is_terminal():
            lines = ProgressLines(f"generating {self.label}", self.total)
            done = [0]

            def advance() -> None:
                done[0] += 1
                lines(done[0])

            return advance
        from rich.progress import Progress

        self.bar = Progress(console=err.real(), transient=True)
        self.bar.start()
        task = self.bar.add_task(self.label, total=self.total)
        return lambda: self.bar.advance(task)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()
