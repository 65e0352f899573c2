"""Our sudoku grading beside skfr 2.0.2 (C++), whole collections of puzzles in one run.

skfr is the fast rater of the Sudoku Explainer scale that the forum uses on large collections.
Both programs run as child processes, one at a time, and each whole process is measured (CPU
seconds, user + system, start-up included). skfr is built with OpenMP; it runs here with
``OMP_NUM_THREADS=1``, one thread like ours (its CPU seconds would count every thread anyway).

Rows, each a collection of ``--count`` puzzles in one file per program (skfr, then ours):

- ``8.5``, ``6-8``, ``4-6``, ``0-4``: the puzzles of ``sudoku_se_dev.csv`` with SE ER >= 8.5,
  6.0 <= ER < 8.0, 4.0 <= ER < 6.0 and ER < 4.0, and as many of their symmetric copies as make
  up the count (the Sudoku family's own copies: turns, mirrors, rows, columns, bands or stacks
  swapped, digits renamed, and copies of copies; chosen with ``--seed``); fewer than the band
  holds: a sample of its puzzles;
- ``hardest``: the forum's hardest (``bench/sudoku_hardest.py``), ``--hardest`` puzzles (all of
  them, with copies when it asks for more). Uncapped: ours takes minutes.

Before each row ours grades the row's first five puzzles once, unmeasured
(``vs_common.warm_up``): numba's compiled chains are cached on disk at a checkout's first use,
and a user's later runs find them there.

Agreement: our ER against skfr's on every puzzle both rated, and against SE's (the CSV's ER, or
the published one for the hardest) on the originals only: a copy's SE rating is not known (SE's
chains depend on the order of its search).

    python bench/vs_skfr.py --count 100                      # every row, 100 puzzles each
    python bench/vs_skfr.py                                  # 2,000 each (about 10 minutes)
    python bench/vs_skfr.py --rows 6-8,0-4 --count 500 --seed 2 --repeat 3

Needs ``GRADER_SKFR`` (``SKFR_GIT=... ../shared/anchors/build.sh``); exits 2 with one line
without it.
"""

from __future__ import annotations

import argparse
import csv
import math
import random
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from vs_common import (
    DEFAULT_DATA,
    header,
    load,
    our_program,
    percent,
    ratio,
    reference,
    run_child,
    warm_up,
)
from vs_serate import Rating, Side, named_hardest, run_ours, symmetric_copies

BANDS = {
    "8.5": ("SE ER >= 8.5", 8.5, math.inf),
    "6-8": ("SE 6.0-7.9", 6.0, 8.0),
    "4-6": ("SE 4.0-5.9", 4.0, 6.0),
    "0-4": ("SE < 4", 0.0, 4.0),
}
ROWS = (*BANDS, "hardest")
SKFR_ENV = {"OMP_NUM_THREADS": "1"}
ALL_COPIES = 1000
"""More than the family makes of one puzzle (12): ``symmetric_copies`` then gives them all."""


@dataclass
class Original:
    """A puzzle of a collection's source: its line and SE's ER for it."""

    line: str
    se_er: float


def band_originals(data: Path, low: float, high: float) -> list[Original]:
    """The CSV's puzzles with ``low <= ER < high``."""
    with (data / "sudoku_se_dev.csv").open() as handle:
        rows = [r for r in csv.DictReader(handle) if low <= float(r["se_rating"]) < high]
    return [Original(r["puzzle"], float(r["se_rating"])) for r in rows]


def hardest_originals() -> list[Original]:
    """The forum's hardest with their published ER."""
    return [Original(text, published[0]) for _, text, published, _ in named_hardest(None)]


def more_copies(line: str, count: int, rng: random.Random) -> list[str]:
    """``count`` distinct symmetric copies of ``line``: the family's copies, then copies of a
    copy chosen at random among those made, until there are enough."""
    made: list[str] = []
    seen = {line}
    pool = [line]
    while len(made) < count:
        source = rng.choice(pool)
        for _how, copy in symmetric_copies(source, ALL_COPIES, rng):
            if copy not in seen:
                seen.add(copy)
                pool.append(copy)
                made.append(copy)
    return rng.sample(made, count)


def collection(
    originals: list[Original], count: int, rng: random.Random
) -> list[tuple[str, float | None]]:
    """``count`` puzzles: the originals (a sample when they are more) each followed by its
    share of copies, as (line, SE's ER for an original, None for a copy)."""
    if count <= len(originals):
        return [(o.line, o.se_er) for o in rng.sample(originals, count)]
    share, extra = divmod(count - len(originals), len(originals))
    chosen: list[tuple[str, float | None]] = []
    for index, original in enumerate(originals):
        chosen.append((original.line, original.se_er))
        wanted = share + (index < extra)
        chosen += [(copy, None) for copy in more_copies(original.line, wanted, rng)]
    return chosen


def parse_skfr(work: Path, name: str, puzzles: list[str]) -> list[Rating | None]:
    """skfr's ratings, one per puzzle, from ``NAME_rat.txt`` (rated) and ``NAME_N_rat.txt``
    (refused: ER outside 1.0-12.0, or not one solution, which it gives as 0.0: None here)."""
    found: dict[str, Rating | None] = {}
    for path in (work / f"{name}_rat.txt", work / f"{name}_N_rat.txt"):
        for line in path.read_text().splitlines() if path.exists() else []:
            puzzle, _, figures = line.partition(" ED=")
            if not figures:
                continue
            er, ep, ed = (float(x) for x in figures.split()[0].split("/"))
            found[puzzle] = None if er == 0.0 else (er, ep, ed)
    return [found.get(p) for p in puzzles]


def run_skfr(program: str, puzzles: list[str], work: Path) -> Side:
    """skfr on a file of puzzles, one process, one thread (it reads ``NAME.txt`` and writes
    ``NAME_rat.txt`` beside it)."""
    name = "skfr_in"
    (work / f"{name}.txt").write_text("".join(p + "\n" for p in puzzles))
    for suffix in ("_rat.txt", "_N_rat.txt"):
        (work / f"{name}{suffix}").unlink(missing_ok=True)
    child = run_child([program, f"-i{name}"], cwd=work, env=SKFR_ENV)
    ratings = parse_skfr(work, name, puzzles)
    return Side(child.cpu, child.wall, ratings, [r is not None for r in ratings], child.capped)


def same(a: float, b: float) -> bool:
    """Two ratings of one decimal are equal."""
    return abs(a - b) < 0.05


def er_pairs(ours: Side, others: list[Rating | float | None]) -> list[tuple[float, float]]:
    """(our ER, the other's ER) wherever we solved and both gave one."""
    pairs = []
    for mine, solved, other in zip(ours.ratings, ours.solved, others, strict=True):
        if mine is not None and solved and other is not None:
            pairs.append((mine[0], other[0] if isinstance(other, tuple) else other))
    return pairs


def share_same(pairs: list[tuple[float, float]]) -> str:
    """How many pairs are equal, as ``n/total``."""
    return f"{sum(same(a, b) for a, b in pairs)}/{len(pairs)}"


def differences(pairs: list[tuple[float, float]]) -> str:
    """The most common differences, the other's ER minus ours, where they differ."""
    counts = Counter(f"{b - a:+.1f}" for a, b in pairs if not same(a, b))
    return ", ".join(f"{d}: {n}" for d, n in counts.most_common(5)) or "none"


TABLE = (
    f"{'row':<14} {'puzzles':>7} {'ours cpu s':>10} {'skfr cpu s':>10} {'ratio':>6}  "
    f"{'ER = skfr':>11} {'%':>7}  {'ER = SE (originals)':>19} {'%':>7}"
)


def table_line(label: str, ours: Side, theirs: Side, listed: list[float | None]) -> str:
    """One row: CPU seconds each side, and how often our ER equals skfr's and SE's."""
    with_skfr = er_pairs(ours, theirs.ratings)
    with_se = er_pairs(ours, listed)
    return (
        f"{label:<14} {len(listed):>7} {ours.cpu:>10.2f} {theirs.cpu:>10.2f} "
        f"{ratio(ours.cpu, theirs.cpu):>6}  {share_same(with_skfr):>11} "
        f"{percent(sum(same(a, b) for a, b in with_skfr), len(with_skfr)):>7}  "
        f"{share_same(with_se):>19} "
        f"{percent(sum(same(a, b) for a, b in with_se), len(with_se)):>7}"
    )


def detail_lines(ours: Side, theirs: Side, listed: list[float | None]) -> str:
    """Wall and per-puzzle seconds, skfr beside SE, and where skfr's ER differs from ours."""
    n = len(listed)
    skfr_se = [
        (b, r[0]) for r, b in zip(theirs.ratings, listed, strict=True) if r and b is not None
    ]
    return (
        f"    wall s: ours {ours.wall:.2f}, skfr {theirs.wall:.2f}; per puzzle cpu ms: ours "
        f"{1000 * ours.cpu / n:.1f}, skfr {1000 * theirs.cpu / n:.1f}; rated: ours "
        f"{sum(ours.solved)}/{n}, skfr {sum(theirs.solved)}/{n}; load {load()}\n"
        f"    skfr ER = SE on the originals {share_same(skfr_se)}; skfr's ER minus ours where "
        f"they differ: {differences(er_pairs(ours, theirs.ratings))}"
    )


def run_row(
    program: str, puzzles: list[str], work: Path, repeat: int
) -> tuple[Side, Side, list[str]]:
    """The row ``repeat`` times, skfr then ours; each side's least CPU time counts. Returns
    both sides and the ratio of every run."""
    warm_up(puzzles, work)  # numba's caches made before, as a user's later runs find them
    runs = [
        (run_skfr(program, puzzles, work), run_ours(puzzles, work, None)) for _ in range(repeat)
    ]
    theirs = min((t for t, _ in runs), key=lambda side: side.cpu)
    ours = min((o for _, o in runs), key=lambda side: side.cpu)
    return ours, theirs, [ratio(o.cpu, t.cpu) for t, o in runs]


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="shared data folder")
    parser.add_argument(
        "--rows", default=",".join(ROWS), help=f"comma-separated, of {','.join(ROWS)}"
    )
    parser.add_argument("--count", type=int, default=2000, help="puzzles per band row")
    parser.add_argument(
        "--hardest", type=int, default=len(named_hardest(None)), help="puzzles in the hardest row"
    )
    parser.add_argument("--seed", type=int, default=1, help="which puzzles and copies")
    parser.add_argument(
        "--repeat", type=int, default=1, help="runs per row, sides alternating (least counts)"
    )
    args = parser.parse_args()
    args.rows = [r.strip() for r in args.rows.split(",") if r.strip()]
    unknown = [r for r in args.rows if r not in ROWS]
    if unknown:
        parser.error(f"unknown rows {unknown} (choose from {','.join(ROWS)})")
    if min(args.count, args.hardest, args.repeat) < 1:
        parser.error("--count, --hardest and --repeat take a whole number from 1")
    return args


def row_puzzles(args: argparse.Namespace, row: str) -> tuple[str, list[tuple[str, float | None]]]:
    """A row's label and collection."""
    rng = random.Random(f"{args.seed}:{row}")
    if row == "hardest":
        return "hardest", collection(hardest_originals(), args.hardest, rng)
    label, low, high = BANDS[row]
    return label, collection(band_originals(args.data, low, high), args.count, rng)


def main() -> int:
    args = parse_args()
    program = reference("GRADER_SKFR", "vs_skfr")
    our_program("grade")
    if any(r in BANDS for r in args.rows) and not (args.data / "sudoku_se_dev.csv").exists():
        print(f"vs_skfr: no sudoku_se_dev.csv in {args.data} (use --data DIR)", file=sys.stderr)
        return 2
    print(header("vs_skfr: ours (grade --json) beside skfr 2.0.2, one thread"), flush=True)
    print(f"seed {args.seed}, skfr then ours on each row, {args.repeat} time(s)", flush=True)
    table: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        for row in args.rows:
            label, chosen = row_puzzles(args, row)
            puzzles, listed = [p for p, _ in chosen], [e for _, e in chosen]
            ours, theirs, each = run_row(program, puzzles, Path(tmp), args.repeat)
            line = table_line(label, ours, theirs, listed)
            if not table:
                print(TABLE)
            print(line, detail_lines(ours, theirs, listed), sep="\n", flush=True)
            if args.repeat > 1:
                print(f"    {args.repeat} runs, each side's least CPU counts: {', '.join(each)}")
            table.append(line)
    print(f"\n{TABLE}", *table, f"load at the end {load()}", sep="\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
