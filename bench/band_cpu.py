"""CPU seconds of grading Sudoku bands in one process, for this checkout and another one.

Every ``--every``-th puzzle of ``sudoku_se_dev.csv`` in each SE band is loaded once, then graded
``--runs`` times in a fresh process per checkout (the other one on ``PYTHONPATH``, see
``checkouts.py``); the minimum CPU time of the runs is printed, with whether both checkouts'
JSON reports agree less their seconds, version and the hardest step's words (the ratings, the
technique counts, the grid), so a speed-up is shown not to change a rating. Start-up and
loading are left out: ``bench/startup.py`` and ``bench/vs_serate.py`` measure whole processes.
On a noisy machine ``--rounds N`` repeats the whole comparison N times, the checkouts taking
turns, so that a slow spell hits both; each side's least time counts, and each round's ratio is
listed.

    git worktree add --detach /tmp/old <commit>
    python bench/band_cpu.py --against /tmp/old              # bands < 4 and 6-8, every 2nd
"""

from __future__ import annotations

import argparse
from pathlib import Path

from vs_common import DEFAULT_DATA, se_ratings_csv

from checkouts import run_in

CHILD = """
import csv, hashlib, json, sys, time
from grader.rating.grading import grade
from grader.rating.loading import load
rows = list(csv.DictReader(open(sys.argv[1])))
low, high, every, runs = float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
lines = [r["puzzle"] for r in rows if low <= float(r["se_rating"]) < high][::every]
lines = lines[: int(sys.argv[6])] if len(sys.argv) > 6 else lines  # at most this many
puzzles = [p for line in lines for p in load(line)]
best, digest = None, None
for _ in range(runs):
    started = time.process_time()
    reports = [grade(p).to_dict() for p in puzzles]
    spent = time.process_time() - started
    best = spent if best is None else min(best, spent)
for report in reports:
    for key in ("seconds", "version", "hardest_step"):
        report.pop(key, None)
digest = hashlib.sha256(json.dumps(reports, sort_keys=True).encode()).hexdigest()
print(json.dumps({"puzzles": len(puzzles), "cpu": best, "digest": digest}))
"""

BANDS = {"4": (0.0, 4.0), "6-8": (6.0, 8.0), "8.5": (8.5, 99.0)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, help="Another checkout to compare with.")
    parser.add_argument("--bands", default="4,6-8", help=f"Comma separated, of {list(BANDS)}.")
    parser.add_argument("--every", type=int, default=2, help="Keep every n-th puzzle.")
    parser.add_argument("--runs", type=int, default=5, help="Runs per band (the minimum counts).")
    parser.add_argument(
        "--rounds", type=int, default=1, help="Fresh processes per side, taking turns."
    )
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = parser.parse_args()
    source = se_ratings_csv(args.data)
    if source is None:
        return 2
    sides = [("this", None)] + ([("other", args.against)] if args.against else [])
    print(f"{'band':<6} {'puzzles':>7}  " + "  ".join(f"{n + ' cpu s':>12}" for n, _ in sides)
          + ("  same ratings" if args.against else ""))  # fmt: skip
    for band in args.bands.split(","):
        low, high = BANDS[band]
        rounds = []
        for turn in range(max(1, args.rounds)):
            order = sides if turn % 2 == 0 else sides[::-1]
            got = {
                name: run_in(
                    where, CHILD, str(source), str(low), str(high), str(args.every), str(args.runs)
                )
                for name, where in order
            }
            if any(g is None for g in got.values()):
                return 1
            rounds.append([got[name] for name, _ in sides])
        best = [min(r[i]["cpu"] for r in rounds) for i in range(len(sides))]
        cells = "  ".join(f"{cpu:>12.3f}" for cpu in best)
        digests = {g["digest"] for r in rounds for g in r}
        same = ("  yes" if len(digests) == 1 else "  NO") if len(sides) > 1 else ""
        turns = ""
        if len(sides) > 1 and len(rounds) > 1:
            turns = "  rounds: " + ", ".join(f"{r[0]['cpu'] / r[1]['cpu']:.2f}" for r in rounds)
        print(f"{band:<6} {rounds[0][0]['puzzles']:>7}  {cells}{same}{turns}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
