"""Grading many puzzles into a pandas DataFrame, one row per puzzle.

The work goes in chunks to local worker processes (the standard library's executor) or, given
an address, to a Dask distributed cluster through its ``concurrent.futures`` executor, so one
code path serves both. Finished rows go to a journal beside the output as they arrive: a batch
that is interrupted leaves its output unwritten and the journal in place, and ``resume`` picks
up where it stopped. The output is written whole (temporary file + rename) at the end.
"""

from __future__ import annotations

import gc
import hashlib
import json
import math
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from grader.core.errors import InputError, UsageError
from grader.output.files import output_suffix
from grader.output.report_keys import REPORT_KEYS, TECHNIQUE_PREFIX
from grader.rating.costs import check_selection
from grader.rating.family import Puzzle
from grader.rating.grading import GradeOptions

if TYPE_CHECKING:
    import pandas as pd

COLUMNS: dict[str, str] = {
    "id": "the puzzle's `id`, or the file's stem and its line or position (`collection#3`)",
    "family": "its family",
    "size": "`ROWSxCOLS` (the JSON report's `size`)",
    "rows": "rows of the grid",
    "cols": "columns of the grid",
    "givens": "given cells",
    "solutions": "`0`, `1` or `2+` by the exact search (empty with `--no-exact`)",
    **{
        key: REPORT_KEYS[key]  # the same meaning as in the JSON report
        for key in ("solved", "status", "difficulty", "effort", "total_cost", "level", "hardest")
    },
    "steps_count": "number of steps (the JSON report's `steps_count`)",
    "seconds": "seconds spent building and grading it",
    "name": "the puzzle's `name`",
    "source": "where it was read (`file:line`, `file[index]` or the file)",
    "error": "why it was not graded (`file:line: field: problem`); empty when graded",
    "version": REPORT_KEYS["version"],
    "settings": REPORT_KEYS["settings"] + " (as JSON)",
}
"""The fixed columns of a batch result and their meaning, in order; the family's report fields
and the technique counts follow (:data:`COLUMN_GROUPS`)."""
COLUMN_GROUPS: dict[str, str] = {
    "<report field>": "each figure a family adds to its JSON report, under the same name "
    "(empty for rows of other families)",
    TECHNIQUE_PREFIX + "<name>": "steps of that technique (the JSON report's "
    "`techniques.<name>.count`; 0 when unused, empty when not graded), in increasing cost",
}
"""The columns that follow :data:`COLUMNS`, one per report field or technique found."""
OUTPUT_FORMATS = (".csv", ".parquet")
JOURNAL_VERSION = 2
"""2: ``steps_count`` and the family's report fields in each row."""


@dataclass(frozen=True)
class Task:
    """One puzzle to grade, as plain data (cheap to send to another process)."""

    origin: str
    default_id: str
    data: Any = None
    problem: str | None = None
    text: bool = False
    """``data`` was read from a family's text format (see :class:`grader.rating.loading.Entry`)."""

    @property
    def key(self) -> str:
        """Where the puzzle came from plus a digest of its content (for resuming)."""
        body = json.dumps(self.data, sort_keys=True, ensure_ascii=False, default=str)
        digest = hashlib.sha1(body.encode("utf-8")).hexdigest()[:16]
        return f"{self.origin}#{digest}"


# ---------------------------------------------------------------------------------------------
# inputs
# ---------------------------------------------------------------------------------------------


def tasks_from(
    inputs: str | Puzzle | dict | Iterable[str | Puzzle | dict], family: str | None = None
) -> list[Task]:
    """Tasks from files (``.json``, ``.jsonl``, text lines such as sudoku or game-ID lines),
    puzzle dicts or loaded puzzles. A missing or unreadable file raises :class:`InputError`;
    a bad line of a multi-puzzle file becomes a task whose row reports the problem.
    ``family``: the family of file puzzles that do not name theirs (as ``load`` takes it)."""
    from grader.rating.loading import entries

    if isinstance(inputs, str | Puzzle | dict):
        inputs = [inputs]
    tasks: list[Task] = []
    seen: set[str] = set()
    for number, item in enumerate(inputs, start=1):
        if isinstance(item, Puzzle):
            found = [Task(item.origin, item.id, {**item.data, "id": item.id})]
        elif isinstance(item, dict):
            found = [Task(f"puzzle {number}", f"puzzle-{number}", item)]
        else:
            found = [
                Task(e.origin, e.default_id, e.data, str(e.problem) if e.problem else None, e.text)
                for e in entries(str(item), family)
            ]
        for task in found:
            if task.key not in seen:
                seen.add(task.key)
                tasks.append(task)
    return tasks


# ---------------------------------------------------------------------------------------------
# grading one task (runs in the workers)
# ---------------------------------------------------------------------------------------------


def grade_task(task: Task, options: GradeOptions, bank: bool = False) -> dict[str, Any]:
    """The result row of one task; problems become the row's ``error``, never an exception."""
    from grader.rating.grading import grade
    from grader.rating.loading import puzzle_from_dict

    started = time.monotonic()
    row: dict[str, Any] = {"id": task.default_id, "source": task.origin}
    if isinstance(task.data, dict) and isinstance(task.data.get("family"), str):
        row["family"] = task.data["family"]
    if task.problem is not None:
        row["error"] = task.problem
        return row
    try:
        puzzle = puzzle_from_dict(task.data, task.origin, task.default_id, text=task.text)
    except InputError as error:
        row["error"] = str(error)
        return row
    row.update(id=puzzle.id, family=puzzle.family.name)
    try:
        result = grade(puzzle, options)
        report = result.to_dict()
    except InputError as error:  # e.g. a costs table naming no technique of this family
        row["error"] = str(error)
        return row
    except UsageError as error:  # an option this puzzle's family cannot take (--techniques)
        row["error"] = f"{task.origin}: {error}"
        return row
    except Exception as error:  # one puzzle must not sink a batch: report it in its row
        row["error"] = f"internal error: {type(error).__name__}: {error}"
        return row
    rows, cols = report["size"]
    solutions = report["solutions"]
    row.update(
        size=f"{rows}x{cols}",
        rows=rows,
        cols=cols,
        givens=report["givens"],
        solutions=None if solutions is None else str(solutions),
        solved=report["solved"],
        status=report["status"],
        difficulty=report["difficulty"],
        effort=report["effort"],
        total_cost=report["total_cost"],
        level=report["level"],
        hardest=report["hardest"],
        steps_count=report["steps_count"],
        version=report["version"],
        settings=json.dumps(report["settings"], sort_keys=True),
        seconds=round(time.monotonic() - started, 4),
        name=puzzle.name,
        techniques={name: [int(e["count"]), e["cost"]] for name, e in report["techniques"].items()},
        fields={k: report[k] for k in puzzle.family.report_fields(result) if k in report},
    )
    if bank:
        from grader.storage.bank import record_of

        row["bank"] = record_of(puzzle, report)
    return row


def grade_chunk(tasks: Sequence[Task], options: GradeOptions, bank: bool = False) -> list[dict]:
    """Rows of a chunk of tasks (the unit of work sent to a worker)."""
    return [grade_task(task, options, bank) for task in tasks]


PR_SET_PDEATHSIG = 1
"""Linux's ``prctl`` option: the signal this process gets when the thread that forked it ends."""
PARENT_WATCH_SECONDS = 0.5
"""How often a worker without the parent-death signal looks whether its parent is still there."""


def _start_worker(parent: int) -> None:
    """A local worker's start: it leaves Ctrl-C to its parent (``parent``: that process's
    pid), which stops it, and ends as soon as its parent ends, however that ends. A forked
    worker would keep the parent's own SIGTERM handler (a web server's, which only asks it to
    shut down gracefully): it gets the default back, so that being stopped stops it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _end_with_parent(parent)


def _end_with_parent(parent: int) -> None:
    """End this process when process ``parent`` (its parent) ends, SIGKILL included: through
    the kernel's parent-death signal on Linux, elsewhere a thread that watches for it."""
    if not _parent_death_signal(signal.SIGKILL):
        watch = threading.Thread(target=_watch_parent, args=(parent,), daemon=True)
        watch.start()
    if os.getppid() != parent:  # the parent ended before the watch began
        os._exit(1)


def _parent_death_signal(signum: int) -> bool:
    """Have Linux send ``signum`` to this process when the thread that forked it ends (the pool
    forks its workers from the thread that makes it, which outlives the pool); False where
    that cannot be had."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, int(signum), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _watch_parent(parent: int) -> None:
    """Leave at once when this process's parent is no longer ``parent`` (it ended)."""
    while os.getppid() == parent:
        time.sleep(PARENT_WATCH_SECONDS)
    os._exit(1)


# ---------------------------------------------------------------------------------------------
# running chunks
# ---------------------------------------------------------------------------------------------


def chunked(tasks: Sequence[Task], size: int) -> list[list[Task]]:
    return [list(tasks[i : i + size]) for i in range(0, len(tasks), size)]


def default_chunk_size(count: int, workers: int) -> int:
    """Chunks small enough to share the work and show progress, big enough to be cheap."""
    return max(1, min(64, math.ceil(count / max(1, workers * 8))))


def run_chunks(
    executor: Executor | None,
    chunks: Sequence[list[Task]],
    options: GradeOptions,
    bank: bool,
    in_flight: int,
) -> Iterator[tuple[list[Task], list[dict]]]:
    """Each chunk with its rows as it finishes (in this process when ``executor`` is None)."""
    if executor is None:
        for chunk in chunks:
            yield chunk, grade_chunk(chunk, options, bank)
        return
    queue = iter(chunks)
    pending: dict[Future, list[Task]] = {}

    def submit(chunk: list[Task]) -> None:
        pending[executor.submit(grade_chunk, chunk, options, bank)] = chunk

    for chunk in queue:
        submit(chunk)
        if len(pending) >= in_flight:
            break
    while pending:
        done, _ = wait(list(pending), return_when=FIRST_COMPLETED)
        for future in done:
            chunk = pending.pop(future)
            yield chunk, future.result()
            following = next(queue, None)
            if following is not None:
                submit(following)


class LocalPool:
    """A process pool whose workers ignore Ctrl-C, are stopped at once on the way out, and end
    with this process however it ends (SIGKILL included: no worker outlives it).

    On Linux the workers are forked (they start at once and need no ``__main__`` guard in the
    caller's script), all of them before any other thread of ours (the progress bar) runs;
    elsewhere the platform's default start method is used. Linux sends a forked worker its
    parent-death signal when the *thread* that forked it ends: they are all forked here, so the
    thread making the pool must outlive it (its users close it in the thread that made it).
    """

    def __init__(self, workers: int) -> None:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        method = "fork" if sys.platform.startswith("linux") else None
        self.executor = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=multiprocessing.get_context(method),
            initializer=_start_worker,
            initargs=(os.getpid(),),
        )
        self.executor.submit(int).result()  # start the workers now

    def close(self, interrupted: bool) -> None:
        if not interrupted:
            self.executor.shutdown(wait=True)
            return
        processes = list(getattr(self.executor, "_processes", {}).values())
        manager = getattr(self.executor, "_executor_manager_thread", None)
        self.executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:  # a chunk may be long: do not wait for it
            if process.is_alive():
                process.kill()
        for process in processes:
            process.join(timeout=5)
        # The pool's exit hook would then write to the pipe of its manager thread, which may
        # be closed by now (an OSError traceback at exit): let the thread end, and forget it.
        from concurrent.futures import process as pool_internals

        if manager is not None:
            manager.join(timeout=5)
            getattr(pool_internals, "_threads_wakeups", {}).pop(manager, None)


# ---------------------------------------------------------------------------------------------
# the journal
# ---------------------------------------------------------------------------------------------


def journal_path(output: str | Path) -> Path:
    output = Path(output)
    return output.with_name(output.name + ".journal")


def settings_fingerprint(options: GradeOptions, bank: bool) -> dict[str, Any]:
    from grader.core.version import __version__

    settings = asdict(options)
    settings.pop("timeout", None)  # a time limit may change between resumed runs
    return {"version": __version__, "options": settings, "bank": bank}


def read_journal(path: Path, fingerprint: dict[str, Any]) -> dict[str, dict]:
    """Rows already done (by task key); the last line may be cut short by an interruption."""
    done: dict[str, dict] = {}
    with path.open(encoding="utf-8") as stream:
        lines = stream.read().splitlines()
    if not lines:
        return done
    try:
        header = json.loads(lines[0])
    except json.JSONDecodeError:
        raise UsageError(f"{path}: is not a batch journal (delete it or use --force)") from None
    if isinstance(header, dict) and isinstance(header.get("journal"), int):
        if header["journal"] != JOURNAL_VERSION:
            raise UsageError(f"{path}: was written by an earlier grader batch; use --force")
    else:
        raise UsageError(f"{path}: is not a batch journal (delete it or use --force)")
    if header.get("settings") != json.loads(json.dumps(fingerprint)):
        raise UsageError(
            f"{path}: was made with other settings or another version; rerun with the same "
            "options, or use --force to start over"
        )
    for line in lines[1:]:
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut short by the interruption
        done[entry["key"]] = entry["row"]
    return done


class Journal:
    """Append-only record of finished rows, flushed after every chunk."""

    def __init__(self, path: Path, fingerprint: dict[str, Any], fresh: bool) -> None:
        self.path = path
        self.fresh = fresh
        self.added = 0
        self.stream = path.open("w" if fresh else "a", encoding="utf-8")
        if fresh:
            header = {"journal": JOURNAL_VERSION, "settings": fingerprint}
            self.stream.write(json.dumps(header) + "\n")
            self.stream.flush()

    def add(self, pairs: Iterable[tuple[str, dict]]) -> None:
        lines = [
            json.dumps({"key": key, "row": row}, ensure_ascii=False, default=str) + "\n"
            for key, row in pairs
        ]
        self.stream.write("".join(lines))
        self.stream.flush()
        self.added += len(lines)

    def close(self) -> None:
        self.stream.close()

    def discard_if_empty(self) -> None:
        """Remove the journal when this run made it and recorded no row in it."""
        if self.fresh and not self.added:
            self.path.unlink(missing_ok=True)


# ---------------------------------------------------------------------------------------------
# rows -> DataFrame -> file
# ---------------------------------------------------------------------------------------------


def columns_markdown() -> str:
    """The batch columns as a Markdown table (the manual's reference page prints it)."""
    lines = ["| column | meaning |", "|---|---|"]
    lines += [f"| `{name}` | {text} |" for name, text in {**COLUMNS, **COLUMN_GROUPS}.items()]
    return "\n".join(lines) + "\n"


def _column_type(values: Sequence[Any]) -> str:
    """The pandas type of a report field's column, from its values."""
    present = [v for v in values if v is not None]
    if present and all(isinstance(v, bool) for v in present):
        return "boolean"
    if all(isinstance(v, int) and not isinstance(v, bool) for v in present):
        return "Int64"
    if all(isinstance(v, int | float) and not isinstance(v, bool) for v in present):
        return "Float64"
    return "string"


def to_frame(rows: Sequence[dict]) -> pd.DataFrame:
    """The batch DataFrame: :data:`COLUMNS`, then the families' report fields (in the order
    first met), then steps per technique in increasing cost."""
    import pandas as pd

    costs: dict[str, float] = {}
    extra: dict[str, None] = {}
    for row in rows:
        for name, (_, cost) in (row.get("techniques") or {}).items():
            costs[name] = min(cost, costs.get(name, cost))
        extra.update(dict.fromkeys(row.get("fields") or {}))
    fields = [f for f in extra if f not in COLUMNS and not f.startswith(TECHNIQUE_PREFIX)]
    names = sorted(costs, key=lambda n: (costs[n], n))
    records = []
    for row in rows:
        record = {column: row.get(column) for column in COLUMNS}
        record.update({f: (row.get("fields") or {}).get(f) for f in fields})
        counts = row.get("techniques") or {}
        graded = row.get("error") is None
        for name in names:
            record[TECHNIQUE_PREFIX + name] = (
                counts[name][0] if name in counts else (0 if graded else None)
            )
        records.append(record)
    frame = pd.DataFrame.from_records(
        records, columns=[*COLUMNS, *fields, *(TECHNIQUE_PREFIX + n for n in names)]
    )
    types = {
        "id": "string",
        "family": "string",
        "size": "string",
        "rows": "Int64",
        "cols": "Int64",
        "givens": "Int64",
        "solutions": "string",
        "solved": "boolean",
        "status": "string",
        "difficulty": "Float64",
        "effort": "Float64",
        "total_cost": "Float64",
        "level": "string",
        "hardest": "string",
        "steps_count": "Int64",
        "seconds": "Float64",
        "name": "string",
        "source": "string",
        "error": "string",
        **{f: _column_type([r[f] for r in records]) for f in fields},
        **{TECHNIQUE_PREFIX + n: "Int64" for n in names},
    }
    return frame.astype(types)


def install_hint(extra: str) -> str:
    """How to install one of the package's extras: from a checkout, or from PyPI."""
    return f"in a checkout: pip install -e '.[{extra}]'; else pip install 'puzzle-grader[{extra}]'"


def check_output_format(output: str | Path) -> str:
    suffix = output_suffix(output, OUTPUT_FORMATS, "output")
    if suffix == ".parquet":
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise UsageError(
                f"{output}: writing Parquet needs pyarrow ({install_hint('parquet')})"
            ) from None
    return suffix


def write_frame(frame: pd.DataFrame, output: str | Path) -> None:
    """The DataFrame as CSV or Parquet (by suffix), written whole or not at all."""
    from grader.output.files import write_atomic

    if Path(output).suffix.lower() == ".parquet":
        write_atomic(output, lambda temp: frame.to_parquet(temp, index=False))
    else:
        write_atomic(output, lambda temp: frame.to_csv(temp, index=False))


def read_frame(path: str | Path) -> pd.DataFrame:
    """A batch result file (CSV or Parquet) as written by :func:`write_frame`."""
    import pandas as pd

    path = Path(path)
    if not path.exists():
        raise InputError(str(path), "", "no such file")
    try:
        if path.suffix.lower() == ".parquet":
            frame = pd.read_parquet(path)
        else:
            frame = pd.read_csv(path, dtype={"solutions": "string", "id": "string"})
    except ImportError:
        raise InputError(
            str(path), "", f"reading Parquet needs pyarrow ({install_hint('parquet')})"
        ) from None
    except Exception as error:  # pandas' messages may span lines: one line of it
        said = " ".join(str(error).split())
        raise InputError(
            str(path), "", f"cannot be read as a table of batch results ({said})"
        ) from None
    missing = [c for c in ("family", "difficulty", "effort", "level") if c not in frame.columns]
    if missing:
        raise InputError(str(path), missing[0], "is missing (not a batch result?)")
    return upgrade_columns(frame)


LEGACY_STEP_PREFIX = "steps_"
"""Before a technique's name in batch results written before :data:`TECHNIQUE_PREFIX`."""


def upgrade_columns(frame: pd.DataFrame) -> pd.DataFrame:
    """A batch result of the earlier layout (a ``steps`` column, ``steps_<technique>``
    columns) under today's names; today's layout unchanged."""
    if "steps" not in frame.columns:
        return frame
    renamed = {
        c: TECHNIQUE_PREFIX + c[len(LEGACY_STEP_PREFIX) :]
        for c in frame.columns
        if c.startswith(LEGACY_STEP_PREFIX)
    }
    renamed["steps"] = "steps_count"
    return frame.rename(columns=renamed)


# ---------------------------------------------------------------------------------------------
# the whole batch
# ---------------------------------------------------------------------------------------------


class BatchInterrupted(KeyboardInterrupt):
    """Ctrl-C during a batch: how many rows were done (and kept in the journal)."""

    def __init__(self, done: int, total: int) -> None:
        super().__init__(f"{done} of {total} puzzles done")
        self.done = done
        self.total = total


@dataclass
class BatchResult:
    frame: pd.DataFrame
    rows: list[dict]
    graded: int
    """Rows graded in this run (the others came from the journal)."""
    resumed: int
    errors: int
    """Rows that could not be graded, the journal's included."""
    failed: int = 0
    """Rows of this run that could not be graded (of :attr:`graded`)."""
    seconds: float = 0.0
    """Time spent grading (set by :func:`grade_to_file`)."""


def grade_many(
    inputs: str | Puzzle | dict | Iterable[str | Puzzle | dict],
    *,
    options: GradeOptions | None = None,
    workers: int = 1,
    dask: str | Any | None = None,
    chunk_size: int | None = None,
    progress: bool = False,
    family: str | None = None,
) -> pd.DataFrame:
    """Grade puzzles (files, puzzle dicts or loaded puzzles) into a DataFrame, one row each.

    ``workers`` > 1 grades on that many local processes; ``dask`` (a scheduler address or a
    ``distributed.Client``) sends the same chunks to a Dask cluster instead. ``family``: the
    family of file puzzles that do not name theirs.
    """
    return run_batch(
        tasks_from(inputs, family),
        options=options,
        workers=workers,
        dask=dask,
        chunk_size=chunk_size,
        progress=progress,
    ).frame


def run_batch(
    tasks: Sequence[Task],
    *,
    options: GradeOptions | None = None,
    workers: int = 1,
    dask: str | Any | None = None,
    chunk_size: int | None = None,
    progress: bool | Callable[[int, int], None] = False,
    journal: Path | None = None,
    resume: bool = False,
    bank: bool = False,
) -> BatchResult:
    """Grade ``tasks`` (see :func:`grade_many`), recording finished rows in ``journal``.

    With ``resume`` the rows already in the journal are kept and their tasks skipped. The
    caller writes the output and then removes the journal.
    """
    options = options or GradeOptions()
    if workers < 1:
        raise UsageError("--workers: must be at least 1")
    check_selection(options.techniques)  # wrong for every row: stop before any work
    fingerprint = settings_fingerprint(options, bank)
    done: dict[str, dict] = {}
    if journal is not None and resume and journal.exists():
        done = read_journal(journal, fingerprint)
    keys = [task.key for task in tasks]
    pending = [task for task, key in zip(tasks, keys, strict=True) if key not in done]
    resumed = len(tasks) - len(pending)
    rows_by_key = dict(done)
    # The executor first: a start that fails (an unreachable scheduler) leaves no journal. It
    # also comes before any thread of ours starts (the progress bar), as forking requires.
    executor, closer, capacity = _executor(workers, dask)
    record: Journal | None = None
    advance = None
    ended = "failed"
    try:
        if journal is not None:
            record = Journal(journal, fingerprint, fresh=not (resume and journal.exists()))
        advance = _progress(progress, len(tasks), resumed)
        size = chunk_size or default_chunk_size(len(pending), capacity)
        chunks = chunked(pending, size)
        finished = run_chunks(executor, chunks, options, bank, in_flight=4 * capacity)
        for chunk, rows in finished:
            pairs = [(task.key, row) for task, row in zip(chunk, rows, strict=True)]
            if record is not None:
                record.add(pairs)
            rows_by_key.update(pairs)
            advance(len(rows))
        ended = "done"
    except KeyboardInterrupt:
        ended = "interrupted"
        raise BatchInterrupted(len(rows_by_key), len(tasks)) from None
    finally:
        if closer is not None:
            closer(ended != "done")
        if record is not None:
            record.close()
            if ended == "failed":
                record.discard_if_empty()  # nothing to resume: let a rerun start afresh
        if advance is not None:
            advance(0, stop=True)
    rows = [rows_by_key[key] for key in keys]
    errors = sum(1 for row in rows if row.get("error") is not None)
    failed = sum(1 for task in pending if rows_by_key[task.key].get("error") is not None)
    return BatchResult(to_frame(rows), rows, len(pending), resumed, errors, failed)


def prepare_output(
    output: str | Path,
    *,
    force: bool = False,
    resume: bool = False,
    bank: str | Path | None = None,
    note: Callable[[str], None] | None = None,
) -> Path:
    """Check a batch's output file, its journal and its bank before any grading; the journal's
    path. A journal left by an interrupted batch is refused unless ``resume`` (continue it) or
    ``force`` (start over); ``note`` hears when there is nothing to resume."""
    from grader.output.files import check_new

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
    if resume and not journal.exists() and note is not None:
        note(f"nothing to resume ({journal} does not exist); starting afresh")
    if bank is not None:
        from grader.storage.bank import check_bank

        check_bank(bank)  # a bad bank file is refused before any grading (and none is made)
    return journal


def grade_to_file(
    tasks: Sequence[Task],
    output: str | Path,
    *,
    options: GradeOptions | None = None,
    workers: int = 1,
    dask: str | Any | None = None,
    chunk_size: int | None = None,
    progress: bool | Callable[[int, int], None] = False,
    resume: bool = False,
    bank: str | Path | None = None,
    note: Callable[[str], None] | None = None,
) -> BatchResult:
    """Grade ``tasks`` into ``output`` (CSV or Parquet) through a journal beside it, after
    :func:`prepare_output`: unique puzzles go to ``bank`` too, the output is written whole and
    the journal removed. Ctrl-C raises :class:`BatchInterrupted` and keeps the journal for
    ``resume``. ``note`` hears what the bank took."""
    journal = journal_path(output)
    started = time.monotonic()
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
    result.seconds = time.monotonic() - started
    if bank is not None:
        from grader.storage.bank import Bank

        with Bank(bank) as store:
            added, known = store.add(row["bank"] for row in result.rows if "bank" in row)
        if note is not None:
            note(f"bank {bank}: {added} added, {known} already there")
    write_frame(result.frame, output)
    journal.unlink(missing_ok=True)
    return result


DASK_SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")
DASK_TIMEOUT = 30.0
"""Seconds to wait for a Dask scheduler before giving up."""


def dask_address_problem(address: Any) -> str | None:
    """Why ``address`` cannot be a Dask scheduler's network address (``tcp://host:8786``, or
    ``host:8786``), or None."""
    if not isinstance(address, str):
        return "is not an address"
    scheme, _, rest = address.rpartition("://")
    if scheme and scheme not in DASK_SCHEMES:
        return f"is not a network address (the scheme must be one of {', '.join(DASK_SCHEMES)})"
    host, _, port = rest.rpartition(":")
    if not host or not port.isdigit() or any(c.isspace() for c in host):
        return "is not an address of the form tcp://host:port"
    return None


def _executor(workers: int, dask: str | Any | None):
    """An executor, a function closing it and how many chunks it runs at once
    (None, None, 1: grade in this process)."""
    if dask is not None:
        try:
            from distributed import Client
        except ImportError:
            raise UsageError(f"--dask: needs the dask extra ({install_hint('dask')})") from None
        if not isinstance(dask, Client):
            problem = dask_address_problem(dask)
            if problem is not None:
                raise UsageError(f"--dask: {dask!r} {problem}")
        try:
            client = dask if isinstance(dask, Client) else Client(dask, timeout=DASK_TIMEOUT)
        except (OSError, ValueError, TypeError) as error:  # unreachable, or not an address
            # the half-made client closes itself when collected: let that happen here, not
            # inside the next client's start (distributed then waits on itself forever)
            gc.collect()
            raise UsageError(f"--dask: cannot reach the scheduler at {dask} ({error})") from None
        executor = client.get_executor()
        capacity = max(1, sum(client.nthreads().values()))

        def close(interrupted: bool) -> None:
            executor.shutdown(wait=not interrupted)
            if client is not dask:
                client.close()

        return executor, close, capacity
    if workers == 1:
        return None, None, 1
    pool = LocalPool(workers)
    return pool.executor, pool.close, workers


def _progress(progress, total: int, done: int):
    """A callable advancing the progress display by n rows (``stop=True`` ends it)."""
    if callable(progress):
        count = [done]

        def advance(n: int, stop: bool = False) -> None:
            count[0] += n
            progress(count[0], total)

        return advance
    if not progress:
        return lambda n, stop=False: None
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    bar = Progress(
        TextColumn("grading"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=False,
    )
    task = bar.add_task("grading", total=total, completed=done)
    bar.start()

    def advance(n: int, stop: bool = False) -> None:
        if n:
            bar.advance(task, n)
        if stop:
            bar.stop()

    return advance
