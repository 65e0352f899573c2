"""Our ratings against every outside signal in ../shared/data, all at once, so that a cost change
shows its effect everywhere.

    python bench/calibration.py                     # every family (about 3 minutes on 2 cores)
    python bench/calibration.py --family tango --family path
    python bench/calibration.py --sudoku-every 1    # all 658 Sudokus (default: every 3rd)

- Tango: the 103 LinkedIn dailies carry their weekday (``source_weekday_slot``, Monday 1 ...
  Sunday 7; LinkedIn makes the week harder day by day): Spearman of effort and difficulty with
  it, mean effort per weekday.
- Binairo: the 200 binarypuzzle.com / puzzle-binairo.com puzzles: our level against Simon
  Tatham's Unruly solver's (``tatham_unruly_level``), Kendall tau-b of difficulty and effort
  with each site's level; how many need lookahead.
- Sudoku: the SE-rated set: Spearman of our difficulty with SE's ER, exact and within 0.2.
- Path: the 26 puzzles of the font: levels, how many need lookahead, the spread of the
  lookahead steps' costs.
- Siteswap: the 17 puzzles: levels, lookahead and short contradiction steps.
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
import time
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests")]

from binairo_external import site_taus  # noqa: E402
from sudoku_se import spearman  # noqa: E402

from grader.rating.grading import grade  # noqa: E402
from grader.rating.loading import load, puzzle_from_dict  # noqa: E402
from shared_sets import SHARED_DATA, binairo_external, siteswap_examples, tango_real  # noqa: E402

FAMILIES = ("tango", "binairo", "sudoku", "path", "siteswap")


def rated(data: dict) -> dict:
    """Grade one puzzle dict: the figures the calibration compares."""
    result = grade(puzzle_from_dict(data, "calibration", str(data.get("id"))))
    lookahead = [s.cost for s in result.steps if s.technique.startswith("lookahead")]
    return {
        "difficulty": result.difficulty,
        "effort": result.effort,
        "total_cost": result.total_cost,
        "level": result.level,
        "solved": result.solved,
        "lookahead": lookahead,
        "short": sum(s.technique == "short-contradiction" for s in result.steps),
    }


def graded(pool: ProcessPoolExecutor, puzzles: list[dict]) -> list[dict]:
    return list(pool.map(rated, puzzles, chunksize=4))


def tango(pool: ProcessPoolExecutor) -> None:
    rows = list(tango_real(SHARED_DATA / "tango_real.jsonl"))
    found = graded(pool, [data for _, data in rows])
    days = [row["source_weekday_slot"] for row, _ in rows]
    print(f"tango: {len(found)} LinkedIn dailies, {sum(r['solved'] for r in found)} solved")
    for key in ("effort", "total_cost", "difficulty"):
        rho = spearman([r[key] for r in found], days)
        print(f"  Spearman({key}, weekday) = {rho:.3f}")
    by_day: dict[int, list[float]] = defaultdict(list)
    for day, r in zip(days, found, strict=True):
        by_day[day].append(r["effort"])
    means = " ".join(f"{d}:{statistics.mean(v):.1f}" for d, v in sorted(by_day.items()))
    print(f"  mean effort by weekday (1 = Monday): {means}")
    print(f"  levels: {dict(Counter(r['level'] for r in found))}")
    print(f"  {trials(found)}")


def binairo(pool: ProcessPoolExecutor) -> None:
    rows = list(binairo_external(SHARED_DATA / "binairo_external.jsonl"))
    found = graded(pool, [data for _, data in rows])
    same = tatham_solved = 0
    by_site: dict[str, list[tuple[int, float, float]]] = defaultdict(list)
    for (row, _), r in zip(rows, found, strict=True):
        theirs = row["tatham_unruly_level"]
        if theirs != "beyond-Normal":
            tatham_solved += 1
            same += theirs.lower() == r["level"]
        by_site[row["source_site"]].append((row["level_index"], r["difficulty"], r["effort"]))
    print(
        f"binairo: {len(found)} puzzles; our level = Tatham's Unruly level for {same} of the "
        f"{tatham_solved} it solves"
    )
    for site, count, _, tau_d, tau_e in site_taus(by_site):
        print(
            f"  {site}: {count} puzzles, Kendall tau-b difficulty {tau_d:.2f}, effort {tau_e:.2f}"
        )
    print(f"  {trials(found)}")


def sudoku(pool: ProcessPoolExecutor, every: int) -> None:
    with (SHARED_DATA / "sudoku_se_dev.csv").open() as handle:
        rows = list(csv.DictReader(handle))[::every]
    puzzles = [
        {
            "family": "sudoku",
            "id": str(i),
            "grid": [r["puzzle"][k : k + 9] for k in range(0, 81, 9)],
        }
        for i, r in enumerate(rows)
    ]
    found = graded(pool, puzzles)
    ours = [r["difficulty"] for r in found]
    theirs = [float(r["se_rating"]) for r in rows]
    exact = sum(abs(a - b) < 0.05 for a, b in zip(ours, theirs, strict=True))
    near = sum(abs(a - b) <= 0.2 + 1e-9 for a, b in zip(ours, theirs, strict=True))
    print(
        f"sudoku: {len(found)} SE-rated puzzles (every {every}): Spearman(difficulty, ER) = "
        f"{spearman(ours, theirs):.4f}, exact {100 * exact / len(found):.1f} %, within 0.2 "
        f"{100 * near / len(found):.1f} %"
    )
    scored = [
        (r, float(row["hodoku_score"]))
        for r, row in zip(found, rows, strict=True)
        if row["hodoku_score"]
    ]
    hodoku = [score for _, score in scored]
    print(
        f"  HoDoKu's score (its sum of step scores) on {len(scored)}: Spearman effort "
        f"{spearman([r['effort'] for r, _ in scored], hodoku):.3f}, total_cost "
        f"{spearman([r['total_cost'] for r, _ in scored], hodoku):.3f}"
    )


def path(pool: ProcessPoolExecutor) -> None:
    puzzles = [p.data for p in load(str(SHARED_DATA / "path_puzzles_examples.json"))]
    found = graded(pool, puzzles)
    needing = [r for r in found if r["lookahead"]]
    costs = sorted(c for r in found for c in r["lookahead"])
    spread = f"{costs[0]:g} to {costs[-1]:g}, {len(set(costs))} distinct" if costs else "none"
    print(f"path: {len(found)} font puzzles, levels {dict(Counter(r['level'] for r in found))}")
    print(f"  {len(needing)} need lookahead ({len(costs)} lookahead steps, costs {spread})")


def siteswap(pool: ProcessPoolExecutor) -> None:
    puzzles = [data for _, data in siteswap_examples(SHARED_DATA / "siteswap_examples.json")]
    found = graded(pool, puzzles)
    print(f"siteswap: {len(found)} puzzles, levels {dict(Counter(r['level'] for r in found))}")
    print(f"  {trials(found)}")


def trials(found: list[dict]) -> str:
    """How many puzzles need lookahead, its steps, and the short contradictions' steps."""
    needing = sum(1 for r in found if r["lookahead"])
    steps = sum(len(r["lookahead"]) for r in found)
    short = sum(r["short"] for r in found)
    return f"{needing} need lookahead ({steps} steps); {short} short-contradiction steps"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--family", action="append", choices=FAMILIES)
    parser.add_argument("--sudoku-every", type=int, default=3, help="every K-th SE puzzle")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    if not SHARED_DATA.exists():
        print(f"{SHARED_DATA} is not here: nothing to calibrate against")
        return 2
    started = time.time()
    with ProcessPoolExecutor(args.jobs) as pool:
        for family in args.family or FAMILIES:
            if family == "sudoku":
                sudoku(pool, args.sudoku_every)
            else:
                globals()[family](pool)
    print(
        f"({time.time() - started:.1f} s of wall clock, {args.jobs} processes, "
        f"{time.strftime('%Y-%m-%d')})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
