"""Our sudoku grading beside Sudoku Explainer's serate (1.2.1.3), the same puzzles in one run.

Both programs run as child processes, one at a time, and each whole process is measured (CPU
seconds, user + system, start-up included, as a user would see it). Rows:

- ``start``: one easy puzzle each way (mostly start-up: the JVM against Python and our imports);
- ``8.5``, ``6-8``, ``4``: the puzzles of ``sudoku_se_dev.csv`` with SE ER >= 8.5, 6.0 <= ER < 8.0
  and ER < 4.0: one file per band, given to serate and to ``grade --json`` (one process each);
  agreement is between the two programs' outputs in this run;
- ``hardest``: the forum's hardest (``bench/sudoku_hardest.py``), one process per puzzle and side,
  each stopped by the kernel at ``--cap`` CPU seconds (RLIMIT_CPU; ours also gets ``--timeout`` of
  three times as many wall seconds, after which it reports the rating of the steps it took, a
  lower bound);
- ``copies``: the hardest again, each as ``--copies`` of its symmetric copies (the Sudoku
  family's own: turns, mirrors, rows, columns, bands or stacks swapped, digits renamed; chosen
  with ``--seed``), all in one file per program, uncapped: whether the two ratings still agree
  on puzzles neither program has seen in that form (SE's chains depend on the order of its
  search, so a copy's ER may differ from the published one, on both sides alike). Slow: serate
  takes minutes on each.

    python bench/vs_serate.py                       # start and the three bands, every 2nd puzzle
    python bench/vs_serate.py --every 1             # every puzzle of the bands (~10 min)
    python bench/vs_serate.py --rows hardest --cap 30
    python bench/vs_serate.py --rows 4 --limit 20 --data /work/shared/data
    python bench/vs_serate.py --repeat 3            # each band 3 times, sides alternating
    python bench/vs_serate.py --rows copies --only Escargot skfr --copies 2

With ``--repeat N`` each band row runs N times, serate then ours, and each side's least CPU time
counts (noise on a shared machine only adds time); the detail line lists every run's ratio.

Needs ``GRADER_SERATE_CP`` (``../shared/anchors/build.sh``); exits 2 with one line without it.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import random
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from sudoku_hardest import HARDEST
from vs_common import (
    DEFAULT_DATA,
    header,
    load,
    our_program,
    percent,
    ratio,
    reference,
    run_child,
)

Rating = tuple[float, float, float]
BANDS = {
    "8.5": ("SE ER >= 8.5", 8.5, math.inf),
    "6-8": ("SE 6.0-7.9", 6.0, 8.0),
    "4": ("SE < 4", 0.0, 4.0),
}
ROWS = ("start", *BANDS, "hardest", "copies")
DEFAULT_ROWS = "start,8.5,6-8,4"
WALL_PER_CPU = 3.0
"""Ours under ``--cap C`` also gets ``--timeout`` of this many times C wall seconds: on the busy
2-core machine a wall limit of C alone stopped it after half of C CPU seconds."""


@dataclass
class Side:
    """One program's results on a row: CPU and wall seconds, ratings (None: none given)."""

    cpu: float = 0.0
    wall: float = 0.0
    ratings: list[Rating | None] = field(default_factory=list)
    solved: list[bool] = field(default_factory=list)
    capped: bool = False


def serate_command(classpath: str, puzzles: Path, output: Path) -> list[str]:
    """The serate invocation of the anchors README."""
    return [
        "java",
        "-Xrs",
        "-Xmx1500m",
        "-cp",
        classpath,
        "diuf.sudoku.test.serate",
        f"--input={puzzles}",
        f"--output={output}",
        "--format=%g ED=%r/%p/%d",
    ]


def parse_serate(output: Path, count: int) -> list[Rating | None]:
    """Serate's ratings, one per input line (None for missing lines or 0.0, its error)."""
    ratings: list[Rating | None] = []
    lines = output.read_text().splitlines() if output.exists() else []
    for line in lines[:count]:
        er, ep, ed = (float(x) for x in line.rsplit("ED=", 1)[1].split("/"))
        ratings.append(None if er == 0.0 else (er, ep, ed))
    return ratings + [None] * (count - len(ratings))


def parse_ours(stdout: str, count: int) -> tuple[list[Rating | None], list[bool]]:
    """Our ratings from ``grade --json`` lines (of the steps taken when unsolved; None when
    missing), and whether each puzzle ended solved."""
    ratings: list[Rating | None] = []
    solved: list[bool] = []
    for line in stdout.splitlines():
        if line.startswith("{"):
            report = json.loads(line)
            er = report.get("er")
            ratings.append(None if er is None else (er, report["ep"], report["ed"]))
            solved.append(bool(report.get("solved")))
    missing = count - len(ratings)
    return ratings[:count] + [None] * missing, solved[:count] + [False] * missing


def run_serate(classpath: str, puzzles: list[str], work: Path, cap: float | None) -> Side:
    """Serate on a file of puzzles, one process."""
    source, output = work / "serate_in.txt", work / "serate_out.txt"
    source.write_text("".join(p + "\n" for p in puzzles))
    output.unlink(missing_ok=True)
    child = run_child(serate_command(classpath, source, output), cpu_cap=cap)
    ratings = parse_serate(output, len(puzzles))
    return Side(child.cpu, child.wall, ratings, [r is not None for r in ratings], child.capped)


def run_ours(puzzles: list[str], work: Path, cap: float | None) -> Side:
    """``grade --json`` on a file of puzzles, one process."""
    source = work / "ours_in.txt"
    source.write_text("".join(p + "\n" for p in puzzles))
    command = [our_program("grade"), "--json", str(source)]
    if cap is not None:  # a CPU cap like serate's; the wall timeout ends it gracefully if idle
        command[2:2] = ["--timeout", str(WALL_PER_CPU * cap)]
    child = run_child(command, cpu_cap=cap)
    ratings, solved = parse_ours(child.stdout, len(puzzles))
    return Side(child.cpu, child.wall, ratings, solved, child.capped)


def agreement(ours: Side, theirs: Side) -> dict[str, str]:
    """ER exact / within ±0.1, EP and ED exact, over the puzzles both sides rated."""
    pairs = [
        (a, b)
        for a, b, solved in zip(ours.ratings, theirs.ratings, ours.solved, strict=True)
        if a and b and solved
    ]
    n = len(pairs)
    close = sum(abs(a[0] - b[0]) <= 0.1 + 1e-9 for a, b in pairs)
    return {
        "both": f"{n}/{len(ours.ratings)}",
        "er": percent(sum(a[0] == b[0] for a, b in pairs), n),
        "er01": percent(close, n),
        "ep": percent(sum(a[1] == b[1] for a, b in pairs), n),
        "ed": percent(sum(a[2] == b[2] for a, b in pairs), n),
    }


def band_puzzles(
    data: Path, low: float, high: float, every: int, limit: int | None
) -> tuple[list[str], list[float]]:
    """The CSV's puzzles with low <= ER < high, every n-th, at most ``limit``, and their ER."""
    with (data / "sudoku_se_dev.csv").open() as handle:
        rows = [r for r in csv.DictReader(handle) if low <= float(r["se_rating"]) < high]
    chosen = rows[::every][:limit] if limit else rows[::every]
    return [r["puzzle"] for r in chosen], [float(r["se_rating"]) for r in chosen]


TABLE = (
    f"{'row':<18} {'puzzles':>7} {'ours cpu s':>10} {'serate cpu s':>12} {'ratio':>6}  "
    f"{'both rated':>10} {'ER exact':>8} {'ER ±0.1':>8} {'EP exact':>8} {'ED exact':>8}"
)


def table_line(label: str, count: int, ours: Side, theirs: Side) -> str:
    agree = agreement(ours, theirs)
    return (
        f"{label:<18} {count:>7} {ours.cpu:>10.2f} {theirs.cpu:>12.2f} "
        f"{ratio(ours.cpu, theirs.cpu):>6}  {agree['both']:>10} {agree['er']:>8} "
        f"{agree['er01']:>8} {agree['ep']:>8} {agree['ed']:>8}"
    )


def fmt(rating: Rating | None) -> str:
    return "-" if rating is None else "/".join(f"{x:.1f}" for x in rating)


def named_hardest(only: list[str] | None) -> list[tuple]:
    """The hardest puzzles whose names hold one of ``only`` (every one without it)."""
    return [h for h in HARDEST if not only or any(o.lower() in h[0].lower() for o in only)]


def hardest(classpath: str, work: Path, cap: float, only: list[str] | None) -> list[str]:
    """Each hardest puzzle through both programs, one process each, capped at ``cap``: prints
    a line per puzzle and returns the row of the table (the sums)."""
    lines = [
        f"hardest, one process per puzzle and side, cap {cap:.0f} CPU s each "
        f"(ours also --timeout {WALL_PER_CPU * cap:.0f} wall s; '>' = cut)",
        f"  {'puzzle':<24} {'published':>14} {'serate':>14} {'ours':>14} "
        f"{'serate cpu':>10} {'ours cpu':>9} {'ratio':>6}",
    ]
    print(*lines, sep="\n", flush=True)
    total_ours, total_theirs = Side(), Side()
    for name, text, published, _source in named_hardest(only):
        theirs = run_serate(classpath, [text], work, cap)
        ours = run_ours([text], work, cap)
        ours_cut = ours.capped or not ours.solved[0]
        for total, side in ((total_ours, ours), (total_theirs, theirs)):
            total.cpu += side.cpu
            total.wall += side.wall
            total.ratings += side.ratings
            total.solved += side.solved
        mark_t = ">" if theirs.capped else " "
        mark_o = ">" if ours_cut else " "
        pub = "/".join("-" if x is None else f"{x:.1f}" for x in published)
        line = (
            f"  {name:<24} {pub:>14} {fmt(theirs.ratings[0]):>14} {fmt(ours.ratings[0]):>14} "
            f"{mark_t}{theirs.cpu:>9.1f} {mark_o}{ours.cpu:>8.1f} "
            f"{ratio(ours.cpu, theirs.cpu):>6}"
        )
        print(line, flush=True)
        lines.append(line)
    return [table_line("hardest (capped)", len(total_ours.ratings), total_ours, total_theirs)]


def symmetric_copies(text: str, count: int, rng: random.Random) -> list[tuple[str, str]]:
    """``count`` of a puzzle line's symmetric copies (the Sudoku family's; all of them when it
    has fewer), as (how, line)."""
    from grader.rating.loading import load
    from grader.rating.registry import get_family

    sudoku = get_family("sudoku")
    puzzle = load(text, "sudoku")[0]
    data = sudoku.to_data(puzzle.model, puzzle.givens)
    made = [(how, "".join(copy["grid"])) for how, copy in sudoku.symmetric_copies(data)]
    distinct = [(how, line) for how, line in made if line != text]
    return rng.sample(distinct, min(count, len(distinct)))


def copies(classpath: str, work: Path, only: list[str] | None, count: int, seed: int) -> list[str]:
    """The hardest's symmetric copies through both programs, one file each, uncapped: prints a
    line per copy and returns the row of the table."""
    chosen = []
    for name, text, _published, _source in named_hardest(only):
        rng = random.Random(f"{seed}:{name}")
        chosen += [(name, how, line) for how, line in symmetric_copies(text, count, rng)]
    puzzles = [line for _, _, line in chosen]
    theirs = run_serate(classpath, puzzles, work, None)
    ours = run_ours(puzzles, work, None)
    print(f"copies of the hardest, {count} each (seed {seed}), one file per program, uncapped")
    print(f"  {'puzzle':<24} {'copy':<24} {'serate':>14} {'ours':>14}  same")
    for (name, how, _), a, b in zip(chosen, theirs.ratings, ours.ratings, strict=True):
        print(f"  {name:<24} {how:<24} {fmt(a):>14} {fmt(b):>14}  {a == b}", flush=True)
    return [table_line("copies of hardest", len(puzzles), ours, theirs)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="shared data folder")
    parser.add_argument(
        "--rows", default=DEFAULT_ROWS, help=f"comma-separated, of {','.join(ROWS)}"
    )
    parser.add_argument("--every", type=int, default=2, help="every n-th puzzle of each band")
    parser.add_argument("--limit", type=int, default=None, help="at most n puzzles per band")
    parser.add_argument("--cap", type=float, default=30.0, help="hardest: CPU s per puzzle")
    parser.add_argument(
        "--only", nargs="*", default=None, help="hardest, copies: names (substrings)"
    )
    parser.add_argument("--copies", type=int, default=1, help="copies: copies per puzzle")
    parser.add_argument("--seed", type=int, default=1, help="copies: which copies")
    parser.add_argument(
        "--repeat", type=int, default=1, help="runs per band row, sides alternating (least counts)"
    )
    args = parser.parse_args()
    rows = [r.strip() for r in args.rows.split(",") if r.strip()]
    unknown = [r for r in rows if r not in ROWS]
    if unknown:
        parser.error(f"unknown rows {unknown} (choose from {','.join(ROWS)})")
    if args.every < 1 or args.repeat < 1 or args.copies < 1:
        parser.error("--every, --repeat and --copies take a whole number from 1")
    classpath = reference("GRADER_SERATE_CP", "vs_serate")
    our_program("grade")
    if any(r in BANDS for r in rows) and not (args.data / "sudoku_se_dev.csv").exists():
        print(f"vs_serate: no sudoku_se_dev.csv in {args.data} (use --data DIR)", file=sys.stderr)
        return 2
    print(header("vs_serate: ours (grade --json) beside serate 1.2.1.3"), flush=True)
    table: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for row in rows:
            if row == "hardest":
                table += hardest(classpath, work, args.cap, args.only)
                continue
            if row == "copies":
                table += copies(classpath, work, args.only, args.copies, args.seed)
                continue
            if row == "start":
                label, (puzzles, listed) = "start (1 easy)", band_puzzles(args.data, 0, 1.3, 1, 1)
            else:
                label, low, high = BANDS[row]
                puzzles, listed = band_puzzles(args.data, low, high, args.every, args.limit)
            runs = [
                (run_serate(classpath, puzzles, work, None), run_ours(puzzles, work, None))
                for _ in range(args.repeat)
            ]
            theirs = min((t for t, _ in runs), key=lambda side: side.cpu)
            ours = min((o for _, o in runs), key=lambda side: side.cpu)
            line = table_line(label, len(puzzles), ours, theirs)
            pairs = zip(theirs.ratings, listed, strict=True)
            as_listed = sum(r is not None and r[0] == e for r, e in pairs)
            detail = (
                f"    wall s: ours {ours.wall:.2f}, serate {theirs.wall:.2f}; "
                f"per puzzle cpu s: ours {ours.cpu / len(puzzles):.3f}, "
                f"serate {theirs.cpu / len(puzzles):.3f}; serate ER = the CSV's "
                f"{as_listed}/{len(puzzles)}; load {load()}"
            )
            if args.repeat > 1:
                each = ", ".join(ratio(o.cpu, t.cpu) for t, o in runs)
                detail += f"\n    {args.repeat} runs, each side's least CPU counts: {each}"
            if not table:
                print(TABLE)
            print(line, detail, sep="\n", flush=True)
            table.append(line)
    print(f"\n{TABLE}", *table, f"load at the end {load()}", sep="\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
