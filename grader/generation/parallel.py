"""Generating on local worker processes or a Dask cluster, with the same puzzles as one core.

Puzzle ``index`` of a run depends on the request and the index only
(:meth:`grader.generation.generator.Generator.outcome`: attempt ``a`` draws from
``random.Random(f"{seed}:{index}:{a}")``), so workers compute indexes wherever they run and the
parent takes their outcomes in index order through the same
:class:`~grader.generation.generator.Selection` as one core: the first ``count`` distinct puzzles,
one more index asked for each duplicate. The parent never asks for more indexes than the puzzles
still wanted, so no work is thrown away unless a puzzle duplicates an earlier one. Executors
are those of ``grader batch`` (:func:`grader.storage.batch._executor`): a local process pool, or a
Dask ``distributed`` client's ``concurrent.futures`` executor.

When the time runs out or Ctrl-C stops the run, the puzzles the workers finished are still
given, in index order (there may then be gaps in the indexes); Ctrl-C is raised again after.
"""

from __future__ import annotations

import json
import pickle
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, wait
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from grader.generation.generator import Generated, Generator, Outcome, Request, Selection

_cache = threading.local()


def _generator(request: Request, made: Generator | None = None) -> Generator:
    """This worker's generator for ``request``, built once per process or thread (``made``:
    one already built, which forked workers then inherit)."""
    key = pickle.dumps(request)
    cached = getattr(_cache, "generators", None)
    if cached is None:
        cached = _cache.generators = {}
    if key not in cached:
        cached.clear()  # one request at a time is the common case: keep memory flat
        cached[key] = made or Generator(request)
    return cached[key]


def bank_record(found: Generated, origin: str) -> dict[str, Any]:
    """The bank record of a generated puzzle, graded as :func:`grader.storage.bank.grade_into` does
    (``origin``: the bank's path, the record's source)."""
    from grader.rating.grading import grade
    from grader.rating.loading import puzzle_from_dict
    from grader.storage.bank import record_of

    graded = grade(puzzle_from_dict(found.data, origin, found.data["id"]))
    return record_of(graded.puzzle, graded.to_dict())


def make_outcomes(
    request: Request, indexes: list[int], deadline: float | None, bank: str | None
) -> list[Outcome]:
    """The outcomes of some indexes (the unit of work a worker runs). ``deadline`` is wall-clock
    time (``time.time()``), comparable between processes and machines; with ``bank`` (its
    path) each puzzle comes with its bank record."""
    generator = _generator(request)
    generator.deadline = None if deadline is None else time.monotonic() + deadline - time.time()
    outcomes = []
    for index in indexes:
        outcome = generator.outcome(index)
        if bank is not None and outcome.puzzle is not None:
            outcome.record = bank_record(outcome.puzzle, bank)
        outcomes.append(outcome)
    return outcomes


class Workers:
    """Where generation runs: ``workers`` local processes, a Dask cluster (``dask``: a
    scheduler address or a ``distributed.Client``), or this process (1 worker, no Dask). A
    context manager: the workers start on entry (before any thread of the caller's starts, as
    forking requires) and stop on exit, at once when leaving on an exception (Ctrl-C)."""

    def __init__(self, workers: int = 1, dask: str | Any | None = None) -> None:
        from grader.core.errors import UsageError

        if workers < 1:
            raise UsageError("--workers: must be at least 1")
        self.workers = workers
        self.dask = dask
        self.executor: Any = None
        self.capacity = 1
        self._closer: Any = None

    def __enter__(self) -> Workers:
        from grader.storage.batch import _executor

        self.executor, self._closer, self.capacity = _executor(self.workers, self.dask)
        return self

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        if self._closer is not None:
            self._closer(kind is not None)
            self._closer = None


class ParallelGenerator:
    """The puzzles of a request made by ``pool`` (:class:`Workers`; None: this process), the
    same whatever the pool. With ``bank`` (the bank's path) each puzzle comes back with its
    bank record (:attr:`records`, by id), graded by the worker that made it."""

    def __init__(
        self, request: Request, pool: Workers | None = None, bank: str | Path | None = None
    ) -> None:
        self.generator = Generator(request)  # refuses a bad request at once, in this process
        _generator(request, self.generator)
        self.request = request
        self.pool = pool
        self.bank = None if bank is None else str(bank)
        self.attempts = 0
        self.gave_up: str | None = None
        self.records: dict[str, dict[str, Any]] = {}
        self._deadline = None if request.timeout is None else time.time() + request.timeout

    def puzzles(self, *, start: int = 0, exclude: Iterable[str] = ()) -> Iterator[Generated]:
        """Yield the puzzles in index order, as :meth:`Generator.puzzles` does."""
        selection = Selection(self.generator, start, exclude)
        if self.pool is None or self.pool.executor is None:
            yield from self._here(selection, start)
        else:
            yield from self._spread(selection, start)
        self.gave_up = selection.gave_up

    def _here(self, selection: Selection, start: int) -> Iterator[Generated]:
        index = start
        while selection.wanted():
            (outcome,) = make_outcomes(self.request, [index], self._deadline, self.bank)
            index += 1
            found = self._take(selection, outcome)
            if found is not None:
                yield found

    def _take(self, selection: Selection, outcome: Outcome) -> Generated | None:
        self.attempts += outcome.attempts
        found = selection.take(outcome)
        if found is not None and outcome.record is not None:
            self.records[found.data["id"]] = outcome.record
        return found

    def _spread(self, selection: Selection, start: int) -> Iterator[Generated]:
        assert self.pool is not None
        executor = self.pool.executor
        pending: dict[Future, int] = {}
        finished: dict[int, Outcome] = {}
        following = start  # the next index to hand out
        ahead = 2 * self.pool.capacity
        try:
            while selection.wanted():
                while following - selection.next < min(selection.wanted(), ahead):
                    future = executor.submit(
                        make_outcomes, self.request, [following], self._deadline, self.bank
                    )
                    pending[future] = following
                    following += 1
                while selection.next not in finished:
                    done, _ = wait(list(pending), return_when=FIRST_COMPLETED)
                    for future in done:
                        del pending[future]
                        for outcome in future.result():
                            finished[outcome.index] = outcome
                found = self._take(selection, finished.pop(selection.next))
                if found is not None:
                    yield found
            if selection.timed_out:
                yield from self._rest(selection, pending, finished)
        except KeyboardInterrupt:
            yield from self._rest(selection, {}, finished)
            raise
        finally:
            for future in pending:
                future.cancel()

    def _rest(
        self, selection: Selection, pending: dict[Future, int], finished: dict[int, Outcome]
    ) -> Iterator[Generated]:
        """After the time ran out or Ctrl-C: the puzzles already made past the stopping index,
        in index order (the workers stop on their own at the deadline)."""
        for future in list(pending):
            try:
                for outcome in future.result():
                    finished[outcome.index] = outcome
            except Exception:  # a worker lost on the way out: its index is a gap
                continue
        reason = selection.gave_up
        selection.gave_up = None
        for index in sorted(finished):
            outcome = finished[index]
            if outcome.puzzle is None or selection.kept >= self.request.count:
                self.attempts += outcome.attempts
                continue
            selection.next = index
            found = self._take(selection, outcome)
            if found is not None:
                yield found
        selection.gave_up = reason


@dataclass
class RunResult:
    """What a generation run did: its puzzles as JSON lines, in index order."""

    lines: list[str]
    attempts: int
    gave_up: str | None
    interrupted: bool
    banked: tuple[int, int] | None
    """(added, already there) when a bank was given."""
    seconds: float


def generate_run(
    request: Request,
    *,
    workers: int = 1,
    dask: str | Any | None = None,
    output: str | Path | None = None,
    bank: str | Path | None = None,
    emit: Callable[[str], None] | None = None,
    progress: AbstractContextManager[Callable[[], None]] | None = None,
) -> RunResult:
    """Generate ``request`` on the given workers; write the puzzles to ``output`` (whole, at
    the end, also after a timeout or Ctrl-C, as :func:`grader.output.files.puzzle_file_text` says;
    nothing when no puzzle was made) and add them to ``bank``. ``emit`` gets each line as it is
    kept; ``progress`` (entered once the workers run) gives a function called once per
    puzzle."""
    from grader.output.files import puzzle_file_text, write_atomic

    started = time.monotonic()
    lines: list[str] = []
    interrupted = False
    maker = ParallelGenerator(request, bank=bank)  # refuses a bad request first
    try:
        with Workers(workers, dask) as pool, progress or nullcontext(lambda: None) as advance:
            maker.pool = pool
            for found in maker.puzzles():
                line = json.dumps(found.data, ensure_ascii=False)
                lines.append(line)
                if emit is not None:
                    emit(line)
                advance()
    except KeyboardInterrupt:  # the workers were stopped at once; what is done is kept
        interrupted = True
    if output is not None and lines:
        write_atomic(output, puzzle_file_text(lines, output))
    banked = None
    if bank is not None and lines:
        from grader.storage.bank import Bank

        with Bank(bank) as store:
            banked = store.add(maker.records[json.loads(line)["id"]] for line in lines)
    return RunResult(
        lines, maker.attempts, maker.gave_up, interrupted, banked, time.monotonic() - started
    )
