"""Grading at scale: one process, two local workers and a two-worker Dask cluster on the same
collection of sudokus, and what a 3-million-puzzle hardest list would take at that speed.

The collection is ``--count`` puzzles (10,000 by default) of one band of ``sudoku_se_dev.csv``
with their symmetric copies, made reproducibly from ``--seed`` by ``bench/vs_skfr.py``'s
helpers; the default band, ``8.5`` (SE ER >= 8.5), is what a hardest list such as the forum's
ph_1910 holds. Each side grades the same file, one side at a time, as child processes measured
whole (CPU seconds, user + system, start-up included; wall seconds):

- ``batch1``: ``grader batch --workers 1`` (one process: it grades in itself);
- ``batch2``: ``grader batch --workers 2`` (two forked local worker processes, counted in it);
- ``dask2``: ``grader batch --dask ADDRESS`` on a local Dask cluster this script starts
  (``dask scheduler`` and ``dask worker --nworkers 2 --nthreads 1`` children); its CPU is the
  client's plus what the scheduler and the worker processes (nannies included) used during the
  batch, read from them (psutil) before the cluster is closed;
- ``grade`` (not by default): ``grade --json FILE``, one process, the per-puzzle command.

A few puzzles are graded once first, unmeasured: the caches that persist between runs (numba's
compiled chains) are then made before any side, not by the first. Every side's rows are checked
against the first side's: the same puzzles in the same order with the same ER/EP/ED,
difficulty, effort, total cost, level, hardest technique and status.

The table gives puzzles per CPU second and per wall second, and per worker (wall rate divided by
the workers). The projection is arithmetic on the first side's measured CPU seconds per puzzle,
not a measurement: CPU hours for 3,000,000 puzzles, and wall hours on 2 and on 64 cores if the
work shared out without loss (and, for 2 workers, at the rate the two-worker sides measured).

    python bench/scale.py --count 200                   # a quick check (about a minute)
    nice python bench/scale.py     # 10,000, every side: about 50 min on 2 idle cores
    python bench/scale.py --band 6-8 --sides batch1,dask2 --count 1000 --seed 2

Needs ``../shared/data/sudoku_se_dev.csv`` (``--data DIR``) and, for ``dask2``, the dask extra
(``pip install -e '.[dask]'``); exits 2 with one line without them.
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from vs_common import DEFAULT_DATA, header, load, our_program, run_child, warm_up
from vs_skfr import BANDS, band_originals, collection

SIDES = ("batch1", "batch2", "dask2", "grade")
DEFAULT_SIDES = "batch1,batch2,dask2"
WORKERS = {"batch1": 1, "batch2": 2, "dask2": 2, "grade": 1}
HARDEST_LIST = 3_000_000
"""Puzzles of the projected hardest list (the forum's ph_1910 is of this order)."""
BIG_MACHINE = 64
"""Cores of the larger machine of the projection."""
COMPARED = ("id", "er", "ep", "ed", "difficulty", "effort", "total_cost", "level", "hardest")
COMPARED += ("status",)
"""The fields that must agree between sides, puzzle by puzzle (``id`` names the line)."""
CLUSTER_START_SECONDS = 120.0
"""How long the local Dask cluster may take to start on a busy machine."""

Row = tuple[Any, ...]


@dataclass
class Outcome:
    """One side's run: what it cost and the rows it gave."""

    side: str
    workers: int
    cpu: float
    wall: float
    rows: list[Row]
    returncode: int | None
    note: str = ""


# ---------------------------------------------------------------------------------------------
# the collection and the rows
# ---------------------------------------------------------------------------------------------


def puzzles_of(data: Path, band: str, count: int, seed: int) -> list[str]:
    """``count`` puzzles of ``band`` and their symmetric copies, made from ``seed`` (the same
    random stream as ``vs_skfr.py``'s rows: its seed and band give its collection)."""
    _label, low, high = BANDS[band]
    rng = random.Random(f"{seed}:{band}")
    return [line for line, _se in collection(band_originals(data, low, high), count, rng)]


def normal(value: Any) -> Any:
    """A field as compared: numbers rounded (CSV text and JSON numbers alike), empty as None."""
    if value is None or value == "":
        return None
    try:
        return round(float(value), 6)
    except (TypeError, ValueError):
        return str(value)


def csv_rows(path: Path) -> list[Row]:
    """The compared fields of a ``grader batch`` CSV, one tuple per puzzle, in its order."""
    if not path.exists():
        return []
    with path.open(newline="", encoding="utf-8") as handle:
        return [tuple(normal(r.get(k)) for k in COMPARED) for r in csv.DictReader(handle)]


def json_rows(stdout: str) -> list[Row]:
    """The compared fields of ``grade --json`` lines, one tuple per puzzle."""
    reports = [json.loads(line) for line in stdout.splitlines() if line.startswith("{")]
    return [tuple(normal(r.get(k)) for k in COMPARED) for r in reports]


def disagreement(reference: list[Row], rows: list[Row]) -> str:
    """``same rows`` or what differs from the reference: counts and the first puzzle."""
    if len(rows) != len(reference):
        return f"DIFFERENT: {len(rows)} rows against {len(reference)}"
    differing = [i for i, (a, b) in enumerate(zip(reference, rows, strict=True)) if a != b]
    if not differing:
        return f"same rows ({len(rows)} puzzles, {', '.join(COMPARED[1:])})"
    first = differing[0]
    fields = [k for k, a, b in zip(COMPARED, reference[first], rows[first], strict=True) if a != b]
    return (
        f"DIFFERENT on {len(differing)} of {len(rows)} puzzles; first {reference[first][0]}: "
        + ", ".join(
            f"{k} {reference[first][COMPARED.index(k)]} vs {rows[first][COMPARED.index(k)]}"
            for k in fields
        )
    )


# ---------------------------------------------------------------------------------------------
# the sides
# ---------------------------------------------------------------------------------------------


def batch_command(source: Path, output: Path, workers: int, dask: str | None) -> list[str]:
    """``grader batch`` on ``source`` into ``output``, without a progress display."""
    command = [our_program("grader"), "batch", str(source), "-o", str(output), "--force"]
    command += ["--no-progress", "--workers", str(workers)]
    return command + (["--dask", dask] if dask else [])


def run_batch(side: str, source: Path, work: Path, dask: str | None = None) -> Outcome:
    """``grader batch`` as one child process (its local workers are counted in it)."""
    output = work / f"{side}.csv"
    output.unlink(missing_ok=True)
    workers = 1 if dask else WORKERS[side]
    child = run_child(batch_command(source, output, workers, dask))
    return Outcome(side, WORKERS[side], child.cpu, child.wall, csv_rows(output), child.returncode)


def run_grade(source: Path) -> Outcome:
    """``grade --json`` on the file, one process."""
    child = run_child([our_program("grade"), "--json", str(source)])
    return Outcome("grade", 1, child.cpu, child.wall, json_rows(child.stdout), child.returncode)


class LocalDask:
    """A Dask scheduler and ``workers`` single-threaded worker processes (each under its nanny),
    started as child processes of this script on this machine, and the CPU seconds they use.

    Their CPU is read from the processes themselves (psutil, which ``distributed`` requires):
    they are not waited for while a side runs, so ``getrusage`` would not see them."""

    def __init__(self, workers: int, work: Path) -> None:
        self.workers = workers
        self.scheduler_file = work / "scheduler.json"
        self.log = work / "dask.log"
        self.processes: list[subprocess.Popen] = []

    def start(self) -> str:
        """Start the cluster and wait for all its workers; the scheduler's address."""
        from distributed import Client

        program = our_program("dask")
        where = ["--scheduler-file", str(self.scheduler_file), "--no-dashboard"]
        self._spawn([program, "scheduler", "--host", "127.0.0.1", "--port", "0", *where])
        self._wait_for_file()
        threads = ["--nworkers", str(self.workers), "--nthreads", "1", "--memory-limit", "0"]
        self._spawn([program, "worker", "--host", "127.0.0.1", *threads, *where])
        with Client(scheduler_file=str(self.scheduler_file), timeout=CLUSTER_START_SECONDS) as c:
            c.wait_for_workers(self.workers, timeout=CLUSTER_START_SECONDS)
            return c.scheduler.address

    def _spawn(self, command: list[str]) -> None:
        """Start a cluster process that ends when this script ends, however it ends (on Linux
        the kernel's parent-death signal, as ``grader batch`` gives its local workers; a
        SIGTERM, so that a nanny stops its worker)."""
        from grader.storage.batch import _parent_death_signal

        with self.log.open("a") as log:
            started = subprocess.Popen(
                command,
                stdout=log,
                stderr=subprocess.STDOUT,
                preexec_fn=partial(_parent_death_signal, signal.SIGTERM),
            )
        self.processes.append(started)

    def _wait_for_file(self) -> None:
        deadline = time.monotonic() + CLUSTER_START_SECONDS
        while not self.scheduler_file.exists():
            if time.monotonic() > deadline or self.processes[0].poll() is not None:
                raise RuntimeError(f"the Dask scheduler did not start (see {self.log})")
            time.sleep(0.1)

    def cpu(self) -> dict[int, float]:
        """CPU seconds (user + system) of every process of the cluster so far, by pid."""
        import psutil

        used: dict[int, float] = {}
        for started in self.processes:
            try:
                root = psutil.Process(started.pid)
                tree = [root, *root.children(recursive=True)]
            except psutil.NoSuchProcess:
                continue
            for process in tree:
                try:
                    times = process.cpu_times()
                except psutil.NoSuchProcess:
                    continue
                used[process.pid] = times.user + times.system
        return used

    def close(self) -> None:
        """Stop the workers, then the scheduler (only the processes started here)."""
        for started in reversed(self.processes):
            if started.poll() is None:
                started.send_signal(signal.SIGTERM)
            try:
                started.wait(timeout=30)
            except subprocess.TimeoutExpired:
                started.kill()
                started.wait()


def cpu_used(before: dict[int, float], after: dict[int, float]) -> tuple[float, int]:
    """CPU seconds the processes used between two readings, and how many of the first ended
    in between (their last seconds are then missing from the sum)."""
    used = sum(seconds - before.get(pid, 0.0) for pid, seconds in after.items())
    return used, sum(1 for pid in before if pid not in after)


def run_dask(source: Path, work: Path, workers: int) -> Outcome:
    """``grader batch --dask`` on a fresh local cluster: the client's CPU plus the cluster's
    during the batch (the cluster's start is not counted; the workers' first imports are)."""
    cluster = LocalDask(workers, work)
    try:
        address = cluster.start()
        before = cluster.cpu()
        outcome = run_batch("dask2", source, work, dask=address)
        served, ended = cpu_used(before, cluster.cpu())
    finally:
        cluster.close()
    outcome.note = f"client {outcome.cpu:.1f} + cluster {served:.1f} CPU s"
    if ended:
        outcome.note += f"; {ended} cluster process(es) ended during the run (not fully counted)"
    outcome.cpu += served
    return outcome


def run_side(side: str, source: Path, work: Path) -> Outcome:
    """One side on the collection's file."""
    if side == "grade":
        return run_grade(source)
    if side == "dask2":
        return run_dask(source, work, WORKERS[side])
    return run_batch(side, source, work)


# ---------------------------------------------------------------------------------------------
# figures
# ---------------------------------------------------------------------------------------------


def per_second(count: int, seconds: float) -> float:
    """``count`` per second (0 when no time was measured)."""
    return count / seconds if seconds > 0 else 0.0


TABLE = (
    f"{'side':<8} {'workers':>7} {'puzzles':>7} {'CPU s':>9} {'wall s':>9} "
    f"{'per CPU s':>9} {'per wall s':>10} {'per worker':>10}  exit"
)


def table_line(outcome: Outcome) -> str:
    """A side's row: its costs, puzzles per CPU and wall second, and per worker (wall)."""
    count = len(outcome.rows)
    wall_rate = per_second(count, outcome.wall)
    return (
        f"{outcome.side:<8} {outcome.workers:>7} {count:>7} {outcome.cpu:>9.1f} "
        f"{outcome.wall:>9.1f} {per_second(count, outcome.cpu):>9.2f} {wall_rate:>10.2f} "
        f"{wall_rate / outcome.workers:>10.2f}  {outcome.returncode}"
    )


@dataclass
class Projection:
    """Hours for ``puzzles`` at ``cpu_per_puzzle`` CPU seconds each."""

    puzzles: int
    cpu_per_puzzle: float

    @property
    def cpu_hours(self) -> float:
        return self.puzzles * self.cpu_per_puzzle / 3600

    def wall_hours(self, cores: int) -> float:
        """Wall hours on ``cores`` cores, if the work shared out without loss."""
        return self.cpu_hours / cores


def projection_lines(first: Outcome, others: list[Outcome]) -> list[str]:
    """The projection for :data:`HARDEST_LIST` puzzles from the first side's CPU rate (and the
    two-worker sides' wall rates): arithmetic, not a measurement."""
    count = len(first.rows)
    if not count:
        return ["projection: none (the first side gave no rows)"]
    rate = Projection(HARDEST_LIST, first.cpu / count)
    lines = [
        f"projection for {HARDEST_LIST:,} puzzles (arithmetic from the measured rates above, "
        "not a measurement):",
        f"  {first.side}: {1000 * rate.cpu_per_puzzle:.1f} CPU ms per puzzle -> "
        f"{rate.cpu_hours:,.1f} CPU hours",
        f"  wall hours without loss: {rate.wall_hours(2):,.1f} on 2 cores, "
        f"{rate.wall_hours(BIG_MACHINE):,.1f} on {BIG_MACHINE} cores",
    ]
    for other in others:
        wall_rate = per_second(len(other.rows), other.wall)
        if other.workers > 1 and wall_rate > 0:
            lines.append(
                f"  at {other.side}'s measured wall rate ({wall_rate:.2f}/s on {other.workers} "
                f"workers): {HARDEST_LIST / wall_rate / 3600:,.1f} wall hours"
            )
    return lines


# ---------------------------------------------------------------------------------------------
# the run
# ---------------------------------------------------------------------------------------------


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="shared data folder")
    parser.add_argument("--count", type=int, default=10_000, help="puzzles in the collection")
    parser.add_argument(
        "--band", choices=list(BANDS), default="8.5", help="SE band of the puzzles (and copies)"
    )
    parser.add_argument("--seed", type=int, default=1, help="which puzzles and copies")
    parser.add_argument(
        "--sides",
        default=DEFAULT_SIDES,
        help=f"comma-separated, run in this order, of {','.join(SIDES)}; the first is the "
        "reference of the rows and of the projection",
    )
    args = parser.parse_args()
    args.sides = [s.strip() for s in args.sides.split(",") if s.strip()]
    unknown = [s for s in args.sides if s not in SIDES]
    if unknown or not args.sides:
        parser.error(f"--sides: unknown {unknown} (choose from {','.join(SIDES)})")
    if args.count < 1:
        parser.error("--count takes a whole number from 1")
    return args


def missing(args: argparse.Namespace) -> str | None:
    """What this run needs and does not find, as one line, or None."""
    if not (args.data / "sudoku_se_dev.csv").exists():
        return f"no sudoku_se_dev.csv in {args.data} (use --data DIR)"
    if "dask2" in args.sides:
        try:
            import distributed  # noqa: F401
            import psutil  # noqa: F401
        except ImportError:
            return "the dask2 side needs the dask extra: pip install -e '.[dask]'"
        if shutil.which("dask", path=str(Path(sys.executable).parent)) is None:
            return "the dask2 side needs the dask command beside this Python"
    return None


def main() -> int:
    args = parse_args()
    problem = missing(args)
    if problem is not None:
        print(f"scale: {problem}", file=sys.stderr)
        return 2
    our_program("grader")
    our_program("grade")
    print(header("scale: grading one collection on 1 process, 2 local workers, 2 Dask workers"))
    started = time.monotonic()
    puzzles = puzzles_of(args.data, args.band, args.count, args.seed)
    print(
        f"{len(puzzles)} puzzles of band {args.band} ({BANDS[args.band][0]}) and copies, seed "
        f"{args.seed}, made in {time.monotonic() - started:.1f} s; sides in order: "
        f"{', '.join(args.sides)}",
        flush=True,
    )
    outcomes: list[Outcome] = []
    with tempfile.TemporaryDirectory(prefix="scale-") as tmp:
        work = Path(tmp)
        source = work / f"{args.band}-seed{args.seed}.txt"
        source.write_text("".join(p + "\n" for p in puzzles))
        print(f"warm-up (unmeasured): {warm_up(puzzles, work):.1f} s wall", flush=True)
        for side in args.sides:
            try:
                outcome = run_side(side, source, work)
            except (RuntimeError, OSError, TimeoutError) as error:
                print(f"scale: {side}: {error}", file=sys.stderr)
                return 1
            outcomes.append(outcome)
            print(table_line(outcome), f"load {load()}", outcome.note, flush=True)
    first, others = outcomes[0], outcomes[1:]
    print()
    for other in others:
        print(f"rows {other.side} against {first.side}: {disagreement(first.rows, other.rows)}")
    print(f"\n{TABLE}", *map(table_line, outcomes), sep="\n")
    print(*projection_lines(first, others), f"load at the end {load()}", sep="\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
