"""Batch throughput: puzzles graded per second for 10,000 Tangos on 1 and 2 worker processes;
with ``--sudoku``, memory instead: max RSS while grading 2,000 sudokus in one process.

    nice python bench/batch.py [--count 10000] [--workers 1 2] [--seed 1]
    nice python bench/batch.py --sudoku [--count 2000] [--seed 1]
    nice python bench/batch.py --sudoku --min-se 8.5 --count 176    # dynamic chains (numba)

The sudokus are the shared SE-rated set's puzzles below SE 6.0 (``--min-se``: from that rating
up instead), each copied under random sudoku
symmetries (band, stack, row, column moves, transposition, relabelling) until there are
``--count`` of them; each is loaded, graded and dropped, as a batch worker does, and the max RSS
is printed after every quarter: a flat column means nothing is kept per puzzle.

The Tangos are made once, seeded, and kept in out/bench/ (a random solution, a few random signs
that agree with it, cells of the solution revealed in random order until the exact search says
the puzzle is unique, then every given dropped that it stays unique without). The figure
excludes making them; it includes starting the workers. ``cpu s`` is the CPU time of this
process and its workers together: equal for 1 and 2 workers means the pool costs nothing, and
the wall-clock gain is then what the machine's other load leaves to us.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import time
from pathlib import Path

from grader.core.backtrack import solve_random
from grader.core.exact import count_solutions
from grader.rating.loading import puzzle_from_dict
from grader.storage.batch import run_batch, tasks_from

ROOT = Path(__file__).resolve().parent.parent


def make_tango(rng: random.Random, size: int = 6) -> dict:
    empty = puzzle_from_dict({"family": "tango", "grid": ["." * size] * size}, "bench", "bench")
    solution = solve_random(empty.model, empty.givens, rng)
    pairs = [(r, c, r, c + 1) for r in range(size) for c in range(size - 1)]
    pairs += [(r, c, r + 1, c) for r in range(size - 1) for c in range(size)]
    signs = [
        [r1, c1, r2, c2, "=" if solution[r1 * size + c1] == solution[r2 * size + c2] else "x"]
        for r1, c1, r2, c2 in sorted(rng.sample(pairs, rng.randint(2, 10)))
    ]
    puzzle = puzzle_from_dict(
        {"family": "tango", "grid": ["." * size] * size, "signs": signs}, "", ""
    )
    state = list(puzzle.givens)
    order = list(range(size * size))
    rng.shuffle(order)
    for var in order:
        if count_solutions(puzzle.model, state, 2)[0] == 1:
            break
        state[var] = 1 << solution[var]
    for var in order:  # then drop every given the puzzle stays unique without
        kept = state[var]
        if kept == puzzle.model.variables[var].domain:
            continue
        state[var] = puzzle.model.variables[var].domain
        if count_solutions(puzzle.model, state, 2)[0] != 1:
            state[var] = kept
    return puzzle.family.to_data(puzzle.model, state)


def tango_set(count: int, seed: int) -> Path:
    path = ROOT / "out" / "bench" / f"tangos-{count}-seed{seed}.jsonl"
    if path.exists():
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    started = time.monotonic()
    lines = [json.dumps({**make_tango(rng), "id": f"t{i + 1}"}) for i in range(count)]
    temp = path.with_suffix(".part")
    temp.write_text("\n".join(lines) + "\n")
    os.replace(temp, path)
    print(f"made {count} Tangos in {time.monotonic() - started:.1f} s -> {path}")
    return path


def _cpu() -> float:
    """CPU seconds used by this process and its finished children (the workers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def symmetric_copy(text: str, rng: random.Random) -> str:
    """The 81-character sudoku under random band, stack, row and column moves, transposition
    and relabelling (same solution count, same rating)."""
    bands = [b * 3 + i for b in rng.sample(range(3), 3) for i in rng.sample(range(3), 3)]
    stacks = [s * 3 + j for s in rng.sample(range(3), 3) for j in rng.sample(range(3), 3)]
    labels = dict(zip("123456789", rng.sample("123456789", 9), strict=True))
    flip = rng.random() < 0.5
    out = []
    for r in bands:
        for c in stacks:
            char = text[c * 9 + r] if flip else text[r * 9 + c]
            out.append(labels.get(char, "."))
    return "".join(out)


def sudoku_memory(count: int, seed: int, min_se: float | None = None) -> None:
    """Grade ``count`` sudokus one by one in this process, printing max RSS every quarter (and
    before the first, after loading)."""
    import csv

    from grader.rating.grading import grade
    from grader.rating.loading import load

    shared = next(p for p in (ROOT.parent / "shared", ROOT.parent.parent / "shared") if p.exists())
    with (shared / "data" / "sudoku_se_dev.csv").open() as handle:
        rows = [
            r["puzzle"]
            for r in csv.DictReader(handle)
            if (
                float(r["se_rating"]) >= min_se
                if min_se is not None
                else float(r["se_rating"]) < 6.0
            )
        ]
    rng = random.Random(seed)
    band = f"from SE {min_se}" if min_se is not None else "below SE 6.0"
    print(f"{count} sudokus: symmetric copies of {len(rows)} shared puzzles {band}")
    print(f"{'graded':>6}  {'seconds':>8}  {'max RSS MB':>10}")
    started = time.monotonic()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{0:>6}  {0:>8.1f}  {rss:>10.1f}", flush=True)
    for i in range(count):
        grade(load(symmetric_copy(rows[i % len(rows)], rng))[0])
        if (i + 1) % (count // 4 or 1) == 0:
            rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            print(f"{i + 1:>6}  {time.monotonic() - started:>8.1f}  {rss:>10.1f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=None)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sudoku", action="store_true", help="max RSS over 2,000 sudokus")
    parser.add_argument("--min-se", type=float, default=None, help="sudokus from this SE up")
    args = parser.parse_args()
    if args.sudoku:
        sudoku_memory(args.count or 2000, args.seed, args.min_se)
        return
    args.count = args.count or 10_000
    source = tango_set(args.count, args.seed)
    tasks = tasks_from(str(source))
    print(f"{len(tasks)} Tangos from {source.relative_to(ROOT)}; {os.cpu_count()} cores")
    print(f"load average before: {os.getloadavg()[0]:.2f} (other users' work slows us)")
    print(f"{'workers':>7}  {'seconds':>8}  {'puzzles/s':>9}  {'cpu s':>6}  levels")
    for workers in args.workers:
        started = time.monotonic()
        cpu = _cpu()
        result = run_batch(tasks, workers=workers)
        elapsed = time.monotonic() - started
        cpu = _cpu() - cpu
        levels = result.frame["level"].value_counts().to_dict()
        assert result.errors == 0, result.frame["error"].dropna().head()
        rate = len(tasks) / elapsed
        print(f"{workers:>7}  {elapsed:>8.1f}  {rate:>9.1f}  {cpu:>6.1f}  {levels}")


if __name__ == "__main__":
    main()
