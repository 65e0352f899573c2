"""A plan for a whole collection: rows of family, size, level and count, generated into a bank.

```toml
seed = 1                      # the default seed of every row

[[row]]
family = "tango"
size = "6x6"
level = "hard"
count = 30
extra_share = 0.7             # any option of `grader generate`; `options` for --rule
```

A row is done when the bank holds ``count`` puzzles of its family, size and level (whoever
put them there), so a plan is resumable: run it again and only what is missing is made. A
row's puzzles are its request's indexes (:meth:`grader.generation.generator.Generator.outcome`); a
resumed row starts after the highest index of its id prefix already in the bank, and every
puzzle of the bank counts as a duplicate. Each puzzle goes into the bank as soon as it is kept,
so Ctrl-C or a timeout loses only the puzzles in the making.
"""

from __future__ import annotations

import re
import time
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from grader.core.errors import InputError, UsageError, from_validation
from grader.core.units import seconds_text
from grader.generation.generator import MODES, Generator, Request
from grader.storage.bank import parse_size


class PlanRow(BaseModel):
    """One row of a plan: the options of ``grader generate`` for one family, size and level."""

    model_config = ConfigDict(extra="forbid")

    family: str
    size: str | int
    level: str
    count: int = Field(ge=1)
    seed: int | None = None
    mode: str = "deducible"
    options: dict[str, Any] = Field(default_factory=dict)
    extra_share: float = Field(default=0.5, ge=0.0, le=1.0)
    reduce: bool = True
    max_attempts: int = Field(default=300, ge=1)


class PlanFile(BaseModel):
    """A plan file: a default seed and its rows."""

    model_config = ConfigDict(extra="forbid")

    seed: int = 0
    row: list[PlanRow] = Field(min_length=1)


@dataclass
class RowReport:
    """What one row of a plan has and got."""

    request: Request
    had: int
    added: int = 0
    gave_up: str | None = None

    @property
    def label(self) -> str:
        rows, cols = self.request.size
        return f"{self.request.family} {rows}x{cols} {self.request.level}"

    @property
    def complete(self) -> bool:
        return self.had + self.added >= self.request.count

    def line(self) -> str:
        """One line: what the bank holds for the row now, and why it stopped short."""
        have = self.had + self.added
        line = (
            f"{self.label}: {have} of {self.request.count} "
            f"({self.had} already in the bank, {self.added} added)"
        )
        return line + (f"; stopped: {self.gave_up}" if self.gave_up else "")


@dataclass
class PlanResult:
    """A plan run: one report per row."""

    rows: list[RowReport]
    interrupted: bool = False
    seconds: float = 0.0
    attempts: int = 0

    @property
    def complete(self) -> bool:
        return all(r.complete for r in self.rows)


def read_plan(path: str | Path) -> list[Request]:
    """The requests of a plan file; a bad file is one :class:`InputError` naming the field."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(str(path), "", "no such plan file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(str(path), "", f"cannot be read ({error})") from None
    except tomllib.TOMLDecodeError as error:
        raise InputError(str(path), "", f"is not TOML ({error})") from None
    try:
        plan = PlanFile.model_validate(data)
    except ValidationError as error:
        raise from_validation(str(path), error) from None
    requests: list[Request] = []
    seen: dict[tuple, int] = {}
    for number, row in enumerate(plan.row):
        where = f"row[{number}]"
        try:
            if row.mode not in MODES:
                raise UsageError(f"mode: unknown mode {row.mode!r} (known: {', '.join(MODES)})")
            request = Request(
                family=row.family,
                size=parse_size(str(row.size)),
                level=row.level,
                count=row.count,
                seed=plan.seed if row.seed is None else row.seed,
                mode=row.mode,
                options=row.options,
                extra_share=row.extra_share,
                reduce=row.reduce,
                max_attempts=row.max_attempts,
            )
            # an unknown family, a bad size or an unreachable level: now; and the size as the
            # bank keeps it (Family.normal_size: a pair place row's 6 is 5x6)
            request = Generator(request).request
        except UsageError as error:
            text = str(error).removeprefix("--")
            raise InputError(str(path), where, text) from None
        except ValueError as error:  # a family's FieldProblem
            raise InputError(str(path), where, str(error)) from None
        key = (request.family, request.size, request.level)
        if key in seen:
            raise InputError(
                str(path),
                where,
                f"same family, size and level as row[{seen[key]}] (a bank counts them together: "
                "merge the two rows)",
            )
        seen[key] = number
        requests.append(request)
    return requests


def bank_state(store: Any, generator: Generator) -> tuple[int, int, set[str]]:
    """What the bank holds for a row: puzzles counting toward it, the next index of its own
    ids, and the canonical keys of every puzzle of the family (all duplicates)."""
    request = generator.request
    target = generator.target
    family = request.family
    if request.level in generator.family.levels:
        mine = store.query(family=family, size=request.size, level=request.level)
    else:  # a band of a numeric scale
        mine = store.query(
            family=family,
            size=request.size,
            min_difficulty=target.min_difficulty,
            max_difficulty=target.max_difficulty,
        )
    prefix = generator.id_prefix()
    pattern = re.compile(re.escape(prefix) + r"(\d+)$")
    start = 0
    for entry in store.query(family=family, size=request.size):
        match = pattern.match(entry.id or "")
        if match:
            start = max(start, int(match.group(1)))
    keys = {e.key.removeprefix(f"{family}:") for e in store.query(family=family)}
    return len(mine), start, keys


def time_limit(timeout: float | None) -> str:
    """Why a row stopped when the plan's ``--timeout`` ran out."""
    return f"the time limit of {seconds_text(timeout or 0.0)} was reached"


def run_plan(
    requests: list[Request],
    bank: str | Path,
    *,
    workers: int = 1,
    dask: str | Any | None = None,
    timeout: float | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> PlanResult:
    """Fill ``bank`` with what the plan's rows still miss, row after row, on the given workers
    (started before ``progress`` is first called). ``progress(done, total)`` follows the
    puzzles made. ``timeout`` bounds the whole run."""
    from grader.generation.parallel import ParallelGenerator, Workers
    from grader.storage.bank import Bank

    started = time.monotonic()
    deadline = None if timeout is None else started + timeout
    result = PlanResult([])
    with Bank(bank) as store:
        todo = []
        for request in requests:
            generator = Generator(request)
            had, start, keys = bank_state(store, generator)
            report = RowReport(request, had)
            result.rows.append(report)
            if not report.complete:
                todo.append((report, start, keys))
        total = sum(r.request.count - r.had for r, _, _ in todo)
        done = 0
        try:
            with Workers(workers, dask) as pool:
                if progress is not None:
                    progress(done, total)
                for report, start, keys in todo:
                    request = report.request
                    left = None if deadline is None else deadline - time.monotonic()
                    if left is not None and left <= 0:
                        report.gave_up = time_limit(timeout)
                        continue
                    wanted = replace(request, count=request.count - report.had, timeout=left)
                    maker = ParallelGenerator(wanted, pool, bank=bank)
                    try:
                        for found in maker.puzzles(start=start, exclude=keys):
                            added, _ = store.add([maker.records[found.data["id"]]])
                            report.added += added
                            done += 1
                            if progress is not None:
                                progress(done, total)
                    finally:
                        result.attempts += maker.attempts
                    report.gave_up = maker.gave_up
                    if maker.gave_up and deadline is not None and time.monotonic() >= deadline:
                        report.gave_up = time_limit(timeout)  # the plan's, not what was left
        except KeyboardInterrupt:
            result.interrupted = True
    result.seconds = time.monotonic() - started
    return result
