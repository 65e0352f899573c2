"""Calibration against Sudoku Explainer 1.2.1.3: our rating vs SE's ER on the dev set.

Reads ../shared/data/sudoku_se_dev.csv (or the CSV given as the first argument), grades every
puzzle in this one process, and prints the Spearman correlation between our difficulty and SE's
ER, the share within ±0.2 of SE overall and per SE band, EP/ED agreement, and per band our CPU
seconds per puzzle. The CSV's ``se_seconds`` (serate's wall clock on another day, under other
load) is not set beside them: ``bench/vs_serate.py`` runs both programs side by side.
The dev set is the calibration set: the README's figures are measured on it, so they flatter
us; sets we have not seen rate a little worse.

    python bench/sudoku_se.py [CSV] [--limit N] [--min-se 8.5] [--max-se 7.5] [--every K]
                              [--jobs N] [--out results.csv]

``--every K`` keeps every K-th puzzle (a quick sample); ``--jobs N`` grades on N processes
(each puzzle's CPU seconds are still measured in the process that grades it).
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CANDIDATES = [ROOT.parent / "shared", ROOT.parent.parent / "shared"]  # main repo, or a worktree
SHARED = next((p for p in CANDIDATES if p.exists()), CANDIDATES[0])
DEFAULT = SHARED / "data" / "sudoku_se_dev.csv"
BANDS = [
    (1.0, 1.5),
    (1.5, 2.0),
    (2.0, 2.5),
    (2.5, 3.0),
    (3.0, 4.0),
    (4.0, 5.0),
    (5.0, 6.0),
    (6.0, 7.0),
    (7.0, 8.0),
    (8.0, 9.0),
    (9.0, 10.0),
    (10.0, 99.0),
]


def ranks(values: list[float]) -> list[float]:
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(a: list[float], b: list[float]) -> float:
    ra, rb = ranks(a), ranks(b)
    n = len(a)
    ma, mb = sum(ra) / n, sum(rb) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb, strict=True))
    va = sum((x - ma) ** 2 for x in ra) ** 0.5
    vb = sum((y - mb) ** 2 for y in rb) ** 0.5
    return cov / (va * vb) if va and vb else float("nan")


def grade_one(text: str) -> tuple[dict, float]:
    """The report of one puzzle and the CPU seconds its grading took."""
    from grader.rating.grading import grade
    from grader.rating.loading import load

    puzzle = load(text)[0]
    begun = time.process_time()
    report = grade(puzzle).to_dict()
    return report, time.process_time() - begun


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("csv", nargs="?", default=str(DEFAULT))
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--min-se", type=float, default=None, help="only puzzles SE rates so")
    parser.add_argument("--max-se", type=float, default=None, help="only puzzles SE rates so")
    parser.add_argument("--every", type=int, default=1, help="keep every K-th puzzle")
    parser.add_argument("--jobs", type=int, default=1, help="grading processes")
    parser.add_argument("--out", default=None, help="write per-puzzle results here")
    args = parser.parse_args()
    path = Path(args.csv)
    if not path.exists():
        print(f"{path} not found; nothing to calibrate against")
        return 0
    rows = list(csv.DictReader(path.open()))
    if args.min_se is not None:
        rows = [r for r in rows if float(r["se_rating"]) >= args.min_se]
    if args.max_se is not None:
        rows = [r for r in rows if float(r["se_rating"]) <= args.max_se]
    rows = rows[:: max(1, args.every)][: args.limit]
    ours, theirs, results, cpu = [], [], [], []
    started = time.perf_counter()
    puzzles = [row["puzzle"] for row in rows]
    if args.jobs > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(args.jobs) as pool:
            graded = list(pool.map(grade_one, puzzles, chunksize=4))
    else:
        graded = [grade_one(text) for text in puzzles]
    for row, (report, seconds_cpu) in zip(rows, graded, strict=True):
        cpu.append(seconds_cpu)
        er = report["er"] if report["solved"] else 20.0
        ours.append(er)
        theirs.append(float(row["se_rating"]))
        results.append((row, report, er))
    seconds = time.perf_counter() - started
    close = [abs(a - b) <= 0.2 + 1e-9 for a, b in zip(ours, theirs, strict=True)]
    print(f"puzzles: {len(rows)}   unsolved: {sum(1 for _, r, _ in results if not r['solved'])}")
    print(f"Spearman (our ER vs SE ER): {spearman(ours, theirs):.4f}")
    print(
        f"within ±0.2 of SE: {sum(close) / len(close):.1%}   exact: "
        f"{sum(abs(a - b) < 1e-9 for a, b in zip(ours, theirs, strict=True)) / len(ours):.1%}"
    )
    for name, column in (("EP", "se_pearl"), ("ED", "se_diamond")):
        gaps = [abs(r[name.lower()] - float(row[column])) for row, r, _ in results]
        print(
            f"{name} exact: {sum(g < 1e-9 for g in gaps) / len(rows):.1%}   "
            f"within ±0.2: {sum(g <= 0.2 + 1e-9 for g in gaps) / len(rows):.1%}"
        )
    print("SE band     n  within±0.2  mean(ours-SE)  cpu s/puzzle")
    for lo, hi in BANDS:
        idx = [i for i, t in enumerate(theirs) if lo <= t < hi]
        if not idx:
            continue
        share = sum(close[i] for i in idx) / len(idx)
        bias = sum(ours[i] - theirs[i] for i in idx) / len(idx)
        mine = sum(cpu[i] for i in idx) / len(idx)
        print(
            f"{lo:4.1f}-{hi if hi < 99 else '':<4}  {len(idx):4d}  {share:9.1%}  {bias:+13.2f}"
            f"  {mine:12.2f}"
        )
    top = [i for i, t in enumerate(theirs) if t >= 8.5]
    if top:
        mine = sum(cpu[i] for i in top) / len(top)
        print(f"SE >= 8.5: {len(top)} puzzles, {mine:.2f} CPU s each")
    print(
        f"total grading time: {seconds:.1f} s ({seconds / len(rows):.3f} s per puzzle, "
        f"{args.jobs} process(es)); beside serate: python bench/vs_serate.py"
    )
    if args.out:
        with open(args.out, "w", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(["puzzle", "se_er", "er", "ep", "ed", "hardest", "seconds"])
            for row, report, er in results:
                writer.writerow(
                    [
                        row["puzzle"],
                        row["se_rating"],
                        er,
                        report["ep"],
                        report["ed"],
                        report["hardest"],
                        report["seconds"],
                    ]
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
