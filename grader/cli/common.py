"""What every command shares: the two apps, common options, exit codes, ``--debug`` and the
entry logic that turns errors into one line and an exit code.

Exit codes: 0 every puzzle was graded (whatever the verdict); 2 bad input or options (one line
names the file, the field and the problem); 3 a time limit cut a report short; 1 an internal
error (``--debug`` shows the traceback); 130 interrupted.
"""

from __future__ import annotations

import copy
import json
import math
import sys
from collections.abc import Callable, Iterator
from functools import cache
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from typer.core import TyperCommand

from grader.core.errors import InputError, UsageError

try:  # typer vendors click (0.2x on): its usage errors derive from TyperException
    from typer import TyperException as FrameworkError
except ImportError:  # older typer raises click's own
    from click import ClickException as FrameworkError
try:
    from typer._click.types import FloatParamType
except ImportError:
    from click.types import FloatParamType

if TYPE_CHECKING:
    from rich.console import Console

    from grader.rating.family import Puzzle
    from grader.rating.grading import GradeOptions

T = TypeVar("T")

EXIT_OK, EXIT_INTERNAL, EXIT_INPUT, EXIT_TIMEOUT = 0, 1, 2, 3
EXIT_INTERRUPTED = 130
EXIT_CODES = (
    "Exit codes: 0 done; 2 bad input or options (one line names the file, the field and the "
    "problem); 3 a limit (--timeout, --max-attempts) cut the work short, what was done is "
    "reported; 1 internal error (--debug for the traceback)."
)


class LazyConsole:
    """A rich console made on first use (importing rich costs start-up time that ``--help``
    does not need), which lets a closed pipe reach :func:`main` (rich would exit 1 itself)."""

    def __init__(self, **settings: Any) -> None:
        self._settings = settings
        self._console: Console | None = None

    def real(self) -> Console:
        """The rich console itself (for rich objects that take one, such as a progress bar)."""
        if self._console is None:
            from rich.console import Console

            class _Console(Console):
                def on_broken_pipe(self) -> None:
                    raise BrokenPipeError

            self._console = _Console(**self._settings)
        return self._console

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real(), name)


out: Console = LazyConsole(highlight=False, soft_wrap=False, emoji=False)  # type: ignore[assignment]
err: Console = LazyConsole(stderr=True, highlight=False, soft_wrap=True, emoji=False)  # type: ignore[assignment]

Files = Annotated[
    list[str],
    typer.Argument(help="Puzzle files (.json, .jsonl, text), game IDs, or - for standard input."),
]
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
HtmlOpt = Annotated[
    str | None,
    typer.Option(
        "--html",
        help="Also write a self-contained HTML trace (report, then every step with its board).",
        metavar="FILE",
    ),
]
FamilyOpt = Annotated[
    str | None,
    typer.Option(
        "--family",
        help="The family of puzzles whose file does not name it (and the only one whose text "
        "formats are tried).",
        metavar="NAME",
    ),
]
ForceOpt = Annotated[bool, typer.Option("--force", help="Overwrite existing output files.")]


def a_file_name(output: str) -> str:
    """``-o FILE`` of a command that writes only files: ``-`` (standard output elsewhere) is
    refused in one line, not read as a file name without a suffix."""
    if output == "-":
        raise UsageError(
            "--output: '-' (standard output): this command writes a file; give its name"
        )
    return output


def standard_output(output: str | None) -> str | None:
    """``-o -`` of a command that prints when given no ``-o``: standard output (as ``-`` is
    standard input), not a file named ``-``."""
    return None if output == "-" else output


OutputOpt = Annotated[
    str,
    typer.Option("--output", "-o", help="The file to write.", metavar="FILE", callback=a_file_name),
]
DebugOpt = Annotated[bool, typer.Option("--debug", help="Show tracebacks of internal errors.")]


def _print_version(ctx: typer.Context, value: bool) -> None:
    """``--version``: the program's name and the installed version, then stop."""
    if value:
        from grader.core.version import __version__

        program = ctx.find_root().info_name or "grade"
        print(f"{program} {__version__}")
        raise typer.Exit(EXIT_OK)


VersionOpt = Annotated[
    bool,
    typer.Option(
        "--version", help="Print the version and exit.", is_eager=True, callback=_print_version
    ),
]


# ---------------------------------------------------------------------------------------------
# --debug: one option on every command, read by main()
# ---------------------------------------------------------------------------------------------


class Interrupted(Exception):
    """Ctrl-C during a command, carried past the framework to :func:`main` (which says so)."""


class _Run:
    """What the command being run asked of :func:`main`."""

    debug = False


@cache
def _debug_option() -> Any:
    """The ``--debug`` option, made by typer from :data:`DebugOpt` like any other option."""
    probe = typer.Typer()

    @probe.command()
    def _probe(debug: DebugOpt = False) -> None:
        """Never run: typer turns its signature into the option."""

    return typer.main.get_command(probe).params[0]


def _refusing_nan(kind: FloatParamType) -> FloatParamType:
    """A copy of a float option's type that refuses ``nan`` as a bad value (exit 2): a range
    lets it through (nothing compares to it) and a time limit or a share of nan means nothing."""
    checked = copy.copy(kind)
    convert = kind.convert

    def strict(value: Any, param: Any, ctx: Any) -> Any:
        number = convert(value, param, ctx)
        if isinstance(number, float) and math.isnan(number):
            checked.fail(f"{value!r} is not a number.", param, ctx)
        return number

    checked.convert = strict  # type: ignore[method-assign]
    return checked


class Command(TyperCommand):
    """A command that takes ``--debug`` after its own options; :func:`main` reads it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.params.append(_debug_option())
        for param in self.params:  # usage without type noise: FILES..., SEED, not <int range>
            if param.metavar is None and not getattr(param, "is_flag", False):
                param.metavar = (param.name or "value").upper().replace("_", "-")
            if param.param_type_name == "argument":  # FILES..., not {files}...
                shown = param.metavar + ("..." if param.nargs != 1 else "")
                shown = shown if param.required else f"[{shown}]"
                param.get_usage_pieces = lambda ctx, shown=shown: [shown]  # type: ignore[method-assign]
            if isinstance(param.type, FloatParamType):
                param.type = _refusing_nan(param.type)

    def invoke(self, ctx: Any) -> Any:
        _Run.debug = bool(ctx.params.pop("debug", False))
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise Interrupted from None  # typer would turn it into a silent exit 130


class App(typer.Typer):
    """A Typer app whose commands are :class:`Command` (so they all take ``--debug``)."""

    def command(self, *args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("cls", Command)
        return super().command(*args, **kwargs)


grade_app = App(add_completion=False, rich_markup_mode=None)
grader_app = App(
    add_completion=False,
    rich_markup_mode=None,
    no_args_is_help=True,
    help="Grade, solve, explain and generate grid logic puzzles. " + EXIT_CODES,
)


@grader_app.callback()
def _grader(version: VersionOpt = False) -> None:
    """Grade, solve, explain and generate grid logic puzzles."""


# ---------------------------------------------------------------------------------------------
# helpers of several commands
# ---------------------------------------------------------------------------------------------


def grade_options(
    techniques: str | None,
    costs: str | None,
    guess: bool,
    timeout: float | None,
    exact: bool,
) -> GradeOptions:
    """The grading options of the command-line values (``costs``: a TOML file). A technique
    no family has is refused here, in the words of every command (before any puzzle is read)."""
    from grader.rating.costs import check_selection, load_costs
    from grader.rating.grading import GradeOptions

    check_selection(techniques)
    return GradeOptions(
        techniques=techniques,
        costs=load_costs(costs) if costs else None,
        guess=guess,
        timeout=timeout,
        exact=exact,
    )


class ProgressLines:
    """Progress for logs and pipes, where a bar cannot redraw: a plain line on stderr every
    ``every`` seconds (``generating: 3 of 10 done, 12 s``), as pip and tqdm do."""

    def __init__(self, label: str, total: int, every: float = 5.0) -> None:
        import time

        self.label, self.total, self.every = label, total, every
        self.started = self.last = time.monotonic()

    def __call__(self, done: int, total: int | None = None) -> None:
        import time

        now = time.monotonic()
        if now - self.last >= self.every:
            self.last = now
            print(
                f"{self.label}: {done} of {total or self.total} done, {now - self.started:.0f} s",
                file=sys.stderr,
                flush=True,
            )


def stderr_is_terminal() -> bool:
    """Whether stderr is a terminal (a progress bar) rather than a log or a pipe (lines)."""
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


def note(text: str) -> None:
    """One line on stderr (what was written, what was skipped)."""
    err.print(text, markup=False)


MAX_NAMED = 20
"""Bad puzzles of one file named on stderr before the rest are counted in one line."""


def input_error(
    error: InputError | UsageError, as_json: bool, source: str, quiet: bool = False
) -> None:
    """One line on stderr for a file that cannot be loaded (and a JSON error object);
    ``quiet``: the JSON object only."""
    if not quiet:
        err.print(f"error: {error}", markup=False)
    if as_json:
        print(json.dumps({"id": source, "error": str(error)}, ensure_ascii=False), flush=True)


class Sources:
    """The puzzles of files or game IDs in order. A file, or a line of one, that does not load
    gets its one line and sets ``code`` to EXIT_INPUT; the others still run. So does a loaded
    puzzle the command gives to :meth:`refuse` (an option its family cannot take)."""

    def __init__(self, files: list[str], as_json: bool = False, family: str | None = None) -> None:
        self.files, self.as_json, self.family = files, as_json, family
        self.code = EXIT_OK
        self.problems = 0  # of the file being read: past MAX_NAMED they are counted only
        self.refused = 0

    def _problem(self, error: InputError | UsageError, origin: str) -> None:
        self.problems += 1
        if self.problems <= MAX_NAMED or self.as_json:
            input_error(error, self.as_json, origin, quiet=self.problems > MAX_NAMED)
        self.code = EXIT_INPUT

    def refuse(self, puzzle: Puzzle, error: UsageError) -> None:
        """The puzzle just given cannot be graded as asked (``--techniques`` naming what its
        family lacks): one line naming it, like a puzzle that does not load; the rest run."""
        self.refused += 1
        self._problem(UsageError(f"{puzzle.origin}: {error}"), puzzle.origin)

    def graded(self, work: Callable[[Puzzle], T]) -> Iterator[tuple[Puzzle, T]]:
        """Each puzzle with ``work(puzzle)`` (grading it), but for the puzzles whose family lacks
        a technique ``--techniques`` names that another family has: they are :meth:`refuse`d
        and the rest run. A name no family has is wrong for all: raised, it stops the command."""
        from grader.rating.costs import SelectionError

        for puzzle in self:
            try:
                done = work(puzzle)
            except SelectionError as error:
                if not error.elsewhere:
                    raise  # one line, nothing more done
                self.refuse(puzzle, error)
                continue
            yield puzzle, done

    def __iter__(self) -> Iterator[Puzzle]:
        from grader.rating.loading import build, entries, source_name

        for source in self.files:
            try:
                found = entries(source, self.family)
            except InputError as error:
                input_error(error, self.as_json, source_name(source))
                self.code = EXIT_INPUT
                continue
            self.problems = self.refused = 0
            for entry in found:
                try:
                    puzzle = build(entry)
                except InputError as error:
                    self._problem(error, entry.origin)
                    continue
                yield puzzle
                # The engine's plans are caches kept on the model (about 1.2 MB for a 9x9):
                # drop them once the puzzle is done, so a file of many puzzles stays flat.
                puzzle.model.memo.clear()
            if self.problems > MAX_NAMED:
                more = self.problems - MAX_NAMED
                why = "that do not load" + (" or cannot be graded as asked" if self.refused else "")
                note(f"error: {source_name(source)}: ... and {more} more puzzles {why}")


# ---------------------------------------------------------------------------------------------
# entry points with one-line errors
# ---------------------------------------------------------------------------------------------


def main(app: typer.Typer, prog: str, args: list[str] | None = None) -> None:
    """Run ``app`` (on ``args``, default the command line's); errors become one line and an
    exit code (a traceback with ``--debug``)."""
    _Run.debug = False
    try:
        code = app(args=args, prog_name=prog, standalone_mode=False)
    except (InputError, UsageError) as error:
        err.print(f"error: {error}", markup=False)
        code = EXIT_INPUT
    except (KeyboardInterrupt, Interrupted):
        err.print("interrupted")
        code = EXIT_INTERRUPTED
    except BrokenPipeError:
        code = _closed_pipe()
    except SystemExit as stop:  # the framework's own exit: a closed pipe is not an error
        code = _closed_pipe() if _pipe_closed() else stop.code
    except typer.Exit as stop:
        code = stop.exit_code
        if code == EXIT_INTERRUPTED:
            err.print("interrupted")
    except typer.Abort:
        err.print("interrupted")
        code = EXIT_INTERRUPTED
    except FrameworkError as error:
        if type(error).__name__ == "NoArgsIsHelpError":  # `grader` alone: its help, as click
            error.show()
            sys.exit(error.exit_code)
        message = " ".join(str(error.format_message()).split())
        if message.startswith(("Missing argument", "Missing option", "No such command")):
            message += " (see --help)"
        err.print(f"error: {message}", markup=False)
        code = EXIT_INPUT
    except Exception as error:  # the last line of defence: one line unless --debug
        if _Run.debug:
            raise
        err.print(
            f"internal error: {type(error).__name__}: {error} (run with --debug for details)",
            markup=False,
        )
        code = EXIT_INTERNAL
    sys.exit(code if isinstance(code, int) else EXIT_OK)


def _pipe_closed() -> bool:
    """Whether the framework found stdout closed (it wraps stdout and exits 1 then)."""
    return type(sys.stdout).__name__ == "PacifyFlushWrapper"


def _closed_pipe() -> int:
    """Stdout was closed by the reader (``| head``): stop quietly with exit code 0."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # no second error when Python flushes at exit
    except (OSError, ValueError):
        pass
    return EXIT_OK


IndexOpt = Annotated[
    int, typer.Option("--index", help="Which puzzle of the file (1 = first).", min=1)
]


def one_puzzle(source: str, index: int, family: str | None = None) -> tuple[Puzzle, int]:
    """The ``index``-th puzzle (1 = first) of a file or game ID, and how many it holds; only
    that one is built (another puzzle's problem is not this command's)."""
    from grader.rating.loading import build, entries, source_name

    found = entries(source, family)
    if not 1 <= index <= len(found):
        raise UsageError(
            f"--index: {source_name(source)} holds {len(found)} puzzle(s), not {index}"
        )
    return build(found[index - 1]), len(found)


def which_puzzle(puzzle: Puzzle, index: int, held: int) -> str:
    """Which puzzle of a file of several a one-puzzle command took (``hint``, ``render``), and
    how to take another; empty for a file of one."""
    if held <= 1:
        return ""
    return f"puzzle {index} of {held} ({puzzle.id}); --index N for another"
