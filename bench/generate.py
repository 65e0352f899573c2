"""Generator speed: median seconds per puzzle (Binairo normal by size, Tango by level).

    python bench/generate.py            # the table (a few minutes)
    python bench/generate.py --quick    # smaller counts
    python bench/generate.py --memory   # resident memory over a 1000-puzzle run

Targets (issue 3): 14x14 <= 0.1 s, 30x30 <= 1 s, 50x50 <= 10 s, 100x100 <= 60 s. Tatham's C
generator, Normal: 0.006 s, 4.6 s, nothing within 300 s, nothing.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time

from grader.generator import Generator, Request


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
    parser.add_argument("--memory", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.memory:
        memory(args.seed)
        return
    few = 3 if args.quick else 5
    for n, count in ((14, few * 4), (20, few * 2), (30, few), (50, max(2, few // 2)), (100, 1)):
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
    for level in ("trivial", "easy", "normal", "hard", "expert"):
        row(f"tango 6x6 {level}", Request("tango", (6, 6), level, count=few * 2, seed=args.seed))
    row(
        "tango 6x6 extreme",
        Request("tango", (6, 6), "extreme", count=1, seed=args.seed, max_attempts=20),
    )


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
