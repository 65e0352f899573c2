"""CPU time of the chains' propagation alone, for this checkout and another one.

The Sudokus of an SE band (``sudoku_se_dev.csv``) are solved with every technique cheaper than
chains until stuck; on each stuck grid ``ChainSearch.propagate`` then runs from every potential
(each candidate assumed on, then off), dynamic, at each ``--nesting`` level (0: the grid only;
1: with the pair rules nested; 2 and up: with inner chains too). The least CPU time of
``--runs`` passes is printed per level, in microseconds per potential reached, with a digest of
every propagation's outcome (potentials, node counts, parents, causes, contradiction), so a
change to the propagation is shown to leave its results alone. Nesting 0 runs compiled when
numba is there (``rules/sudoku/chains/propagation_jit.py``); ``GRADER_NO_JIT=1`` times the Python
one. Loading and the stuck grids are left out of the time. With ``--against`` both checkouts take
turns for ``--rounds`` rounds and each side's least time counts: the measure for a change of a
few per cent in the chains' inner loop, which whole-puzzle timings on a shared machine cannot
see.

    git worktree add --detach /tmp/old <commit>
    python bench/propagation.py --against /tmp/old                 # SE >= 8.5, every 6th
    python bench/propagation.py --nesting 0,1,2 --every 12
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from vs_common import DEFAULT_DATA, se_ratings_csv

from checkouts import run_in

CHILD = """
import csv, hashlib, json, sys, time
from grader.rating.costs import choose
from grader.core.engine import Engine
from grader.rating.loading import load
from grader.core.technique import Context
from rules.sudoku.chains.chaining import ChainSearch

rows = list(csv.DictReader(open(sys.argv[1])))
low, every, runs = float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
levels = [int(n) for n in sys.argv[5].split(",")]
stuck = []
for row in [r for r in rows if float(r["se_rating"]) >= low][::every]:
    puzzle = load(row["puzzle"])[0]
    cheap = [t for t in choose(puzzle.family, puzzle.model) if t.cost < 6.5]
    engine = Engine(puzzle.model, cheap)
    run = engine.run(puzzle.givens)
    if run.status == "stuck":
        stuck.append((puzzle.model, run.state, engine))
out = {"grids": len(stuck)}
for nesting in levels:
    searches = [ChainSearch(Context(m, list(s), e), nesting) for m, s, e in stuck]
    starts = [
        [start for var, mask in enumerate(search.grid.cand) for v in range(search.V)
         if mask >> v & 1 for start in (((var * search.V + v) << 1) | 1, (var * search.V + v) << 1)]
        for search in searches
    ]
    best, reached, digest = None, 0, hashlib.sha256()
    for turn in range(runs):
        started = time.process_time()
        results = [[s.propagate(p, True, True) for p in ps] for s, ps in zip(searches, starts)]
        spent = time.process_time() - started
        best = spent if best is None else min(best, spent)
        if turn == 0:
            for found in results:
                for r in found:
                    reached += len(r.on) + len(r.off)
                    digest.update(repr((sorted((t, a.bit_count()) for t, a in r.on.items()),
                        sorted((t, a.bit_count()) for t, a in r.off.items()),
                        sorted(r.parents.items()), sorted(r.causes.items()),
                        r.contradiction, sorted(r.nest.items()))).encode())
        del results
    out[str(nesting)] = {"cpu": best, "reached": reached, "digest": digest.hexdigest()}
print(json.dumps(out))
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, help="Another checkout to compare with.")
    parser.add_argument("--min-se", type=float, default=8.5, help="The band: SE ratings from.")
    parser.add_argument("--every", type=int, default=6, help="Keep every n-th puzzle.")
    parser.add_argument("--nesting", default="0,1", help="Comma separated nesting levels.")
    parser.add_argument("--runs", type=int, default=3, help="Passes per side (least counts).")
    parser.add_argument("--rounds", type=int, default=3, help="Turns of the two checkouts.")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = parser.parse_args()
    source = se_ratings_csv(args.data)
    if source is None:
        return 2
    try:
        levels = [int(n) for n in args.nesting.split(",")]
    except ValueError:
        print(f"--nesting {args.nesting}: expected levels like 0,1", file=sys.stderr)
        return 2
    sides = [("this", None)] + ([("other", args.against)] if args.against else [])
    child_args = (str(source), str(args.min_se), str(args.every), str(args.runs), args.nesting)
    rounds = []
    for turn in range(max(1, args.rounds if args.against else 1)):
        order = sides if turn % 2 == 0 else sides[::-1]
        got = {name: run_in(where, CHILD, *child_args) for name, where in order}
        if any(g is None for g in got.values()):
            return 1
        rounds.append(got)
    print(f"SE >= {args.min_se}, every {args.every}th: {rounds[0]['this']['grids']} stuck grids")
    header = f"{'nesting':>7} {'potentials':>10}" + "".join(f" {n + ' us':>9}" for n, _ in sides)
    print(header + ("  ratio  same results" if args.against else ""))
    for level in map(str, levels):
        best = {name: min(r[name][level]["cpu"] for r in rounds) for name, _ in sides}
        reached = rounds[0]["this"][level]["reached"]
        cells = "".join(f" {1e6 * best[name] / reached:>9.3f}" for name, _ in sides)
        tail = ""
        if args.against:
            digests = {r[name][level]["digest"] for r in rounds for name, _ in sides}
            same = "yes" if len(digests) == 1 else "NO"
            tail = f"  {best['this'] / best['other']:.3f}  {same}"
        print(f"{level:>7} {reached:>10}{cells}{tail}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
