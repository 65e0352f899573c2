"""Generator speed: median seconds per puzzle (Binairo normal by size, Tango by level).

    python bench/generate.py            # the table (a few minutes)
    python bench/generate.py --quick    # smaller counts
    python bench/generate.py --size 14  # only Binairo 14x14 (repeatable; no Tango rows)
    python bench/generate.py --memory   # resident memory over a 1000-puzzle run
    python bench/generate.py --workers 1 --workers 2 --dask   # puzzles/s on workers

Targets (issue 3): 14x14 <= 0.1 s, 30x30 <= 1 s, 50x50 <= 10 s, 100x100 <= 60 s. Tatham's C
generator, Normal: 0.006 s, 4.6 s, nothing within 300 s, nothing.
"""

from __future__ import annotations

import argparse
import hashlib
import resource
import statistics
import tempfile
import time
from pathlib import Path

from grader.generation.generator import Generator, Request


def timed(request: Request) -> tuple[list[float], list[float], int, str | None]:
    """Wall-clock and CPU seconds per puzzle (CPU time is what a busy machine does not inflate)."""
    generator = Generator(request)
    times, cpu_times = [], []
    started, cpu_started = time.monotonic(), time.process_time()
    for _ in generator.puzzles():
        now, cpu_now = time.monotonic(), time.process_time()
        times.append(now - started)
        cpu_times.append(cpu_now - cpu_started)
        started, cpu_started = now, cpu_now
    return times, cpu_times, generator.attempts, generator.gave_up


def row(label: str, request: Request) -> None:
    times, cpu_times, attempts, gave_up = timed(request)
    median = statistics.median(times) if times else float("nan")
    cpu = statistics.median(cpu_times) if cpu_times else float("nan")
    note = f"  ({gave_up})" if gave_up else ""
    print(
        f"{label:<34} {len(times):>3} puzzles  median {median:8.3f} s  cpu {cpu:8.3f} s  "
        f"max {max(times, default=0):8.3f} s  attempts {attempts}{note}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument(
        "--size", type=int, action="append", help="Only Binairo NxN (repeatable; no Tango rows)."
    )
    parser.add_argument("--memory", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--workers", type=int, action="append", help="Puzzles/s on N local workers (repeatable)."
    )
    parser.add_argument("--dask", action="store_true", help="Also on a local Dask cluster.")
    parser.add_argument("--count", type=int, default=200, help="Puzzles per run (--workers).")
    args = parser.parse_args()
    if args.memory:
        memory(args.seed)
        return
    if args.workers or args.dask:
        on_workers(args.workers or [], args.dask, args.count, args.seed)
        return
    few = 3 if args.quick else 5
    for n, count in ((14, few * 4), (20, few * 2), (30, few), (50, max(2, few // 2)), (100, 1)):
        if args.size and n not in args.size:
            continue
        row(
            f"binairo {n}x{n} normal",
            Request("binairo", (n, n), "normal", count=count, seed=args.seed),
        )
        if n <= 30:
            row(
                f"binairo {n}x{n} normal unique lines",
                Request(
                    "binairo",
                    (n, n),
                    "normal",
                    count=count,
                    seed=args.seed,
                    options={"unique_lines": True},
                ),
            )
    if args.size:
        return
    for level in ("trivial", "easy", "normal", "hard", "expert"):
        row(f"tango 6x6 {level}", Request("tango", (6, 6), level, count=few * 2, seed=args.seed))
    row(
        "tango 6x6 extreme",
        Request("tango", (6, 6), "extreme", count=1, seed=args.seed, max_attempts=20),
    )


def cpu_seconds() -> float:
    """CPU seconds of this process and of its finished children (the local workers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def dask_cpu(client) -> float:
    """CPU seconds of the Dask workers' processes so far (0 without a cluster)."""
    if client is None:
        return 0.0
    used = client.run(lambda: resource.getrusage(resource.RUSAGE_SELF)[:2])
    return sum(user + system for user, system in used.values())


def on_workers(workers: list[int], dask: bool, count: int, seed: int) -> None:
    """Puzzles per second for two requests on each number of workers and on a local Dask
    cluster (2 worker processes, 1 thread each, started before the clock), and a check that
    every setting wrote the same file."""
    from grader.generation.parallel import generate_run

    cases = [
        ("binairo 14x14 normal", Request("binairo", (14, 14), "normal", count=count, seed=seed)),
        ("tango 6x6 hard", Request("tango", (6, 6), "hard", count=count, seed=seed)),
    ]
    cluster = client = None
    if dask:
        from distributed import Client, LocalCluster

        cluster = LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        )
        client = Client(cluster)
    try:
        with tempfile.TemporaryDirectory() as folder:
            for label, request in cases:
                digests = set()
                settings = [(f"{n} worker{'s' if n > 1 else ''}", {"workers": n}) for n in workers]
                if client is not None:
                    settings.append(("dask (2 processes)", {"dask": client}))
                for name, where in settings:
                    output = Path(folder) / f"{label}-{name}.jsonl".replace(" ", "_")
                    cpu = cpu_seconds() + dask_cpu(client)
                    result = generate_run(request, output=output, **where)
                    cpu = cpu_seconds() + dask_cpu(client) - cpu
                    digest = hashlib.sha256(output.read_bytes()).hexdigest()[:12]
                    digests.add(digest)
                    made = len(result.lines)
                    print(
                        f"{label:<22} {name:<20} {made:>4} puzzles  {result.seconds:7.2f} s  "
                        f"{made / result.seconds:7.1f} puzzles/s  cpu {cpu:7.2f} s  "
                        f"sha256 {digest}",
                        flush=True,
                    )
                same = "identical" if len(digests) == 1 else "DIFFERENT"
                print(f"{label:<22} outputs {same} across {len(settings)} settings", flush=True)
    finally:
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()


def memory(seed: int) -> None:
    """Resident memory every 100 puzzles of a 1000-puzzle Tango run (it should stay flat)."""
    generator = Generator(Request("tango", (6, 6), "hard", count=1000, seed=seed))
    started = time.monotonic()
    for i, _ in enumerate(generator.puzzles(), start=1):
        if i % 100 == 0:
            rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            print(
                f"{i:>5} puzzles  {time.monotonic() - started:7.1f} s  max RSS {rss:7.1f} MiB",
                flush=True,
            )


if __name__ == "__main__":
    main()
