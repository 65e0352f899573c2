"""``grader generate``: new puzzles, deducible at a level or only unique."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated

import typer

from grader.cli.common import (
    EXIT_INTERRUPTED,
    EXIT_TIMEOUT,
    CostsOpt,
    ProgressLines,
    err,
    grader_app,
    stderr_is_terminal,
)
from grader.errors import FieldProblem, UsageError


@grader_app.command(
    "generate",
    help="Generate puzzles deducible at a level (or only unique, --mode unique), reproducibly "
    "from the seed. Writes JSON lines to the output (whole, at the end) or to stdout.",
)
def grader_generate(
    family: Annotated[str, typer.Argument(help="The family, e.g. binairo, tango, sudoku.")],
    size: Annotated[
        str | None,
        typer.Option(
            "--size",
            help="ROWSxCOLS or N (default: the family's size, see grader families).",
            metavar="ROWSxCOLS",
        ),
    ] = None,
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
) -> None:
    import time

    from grader.bank import parse_size
    from grader.costs import load_costs
    from grader.generator import Generator, Request, parse_rules
    from grader.output import check_new, write_atomic
    from grader.registry import get_family

    if output is not None:
        check_new(output, force)
    options = parse_rules(rule or [], unique_lines)
    if size is None:
        known = get_family(family)
        rows, cols = known.default_size if known is not None else (6, 6)
        size = f"{rows}x{cols}"
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
        with _Progress(progress and count > 1, f"{family} {size} {level}", count) as advance:
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
        from grader.bank import grade_into

        added, known = grade_into(bank, (json.loads(line) for line in lines))
        err.print(f"bank {bank}: {added} added, {known} already there", markup=False)
        if added == 0:
            err.print(
                f"nothing new was made: the same command and seed make the same puzzles; "
                f"use another --seed (e.g. --seed {seed + 1}) or a larger -n for more",
                markup=False,
            )
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
        raise typer.Exit(EXIT_INTERRUPTED)
    if len(lines) < count:
        raise typer.Exit(EXIT_TIMEOUT)


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
