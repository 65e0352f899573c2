"""The slowest cells of the generation tables: CPU seconds per puzzle, side by side with another
checkout of the project in the same run.

Each cell (family, size, level) is generated with a fixed seed in a fresh Python process, once
with this checkout and, with ``--against DIR``, once with the checkout in DIR (imported through
PYTHONPATH, so DIR needs no installation of its own: the venv running this script provides the
libraries). It prints the CPU seconds per puzzle of each, their ratio, and whether both wrote the
same puzzles (a digest of the puzzles' grids), so that a speed-up is shown not to change what is
generated.

    python bench/slow_cells.py                                  # every cell, this checkout
    python bench/slow_cells.py --against /tmp/old --cells sudoku25,sudoku16
    git worktree add --detach /tmp/old <commit>                 # a checkout to compare with

A cell cut by ``--timeout`` (CPU seconds, checked between puzzles and by the generator's own
time limit) prints the puzzles made by then.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from checkouts import run_in

CELLS: dict[str, tuple[str, tuple[int, int], str, dict]] = {
    "binairo100": ("binairo", (100, 100), "normal", {}),
    "sudoku16": ("sudoku", (16, 16), "easy", {}),
    "sudoku25": ("sudoku", (25, 25), "easy", {}),
    "sudoku7": ("sudoku", (9, 9), "7.0-8.0", {}),
    "path10": ("path", (10, 10), "expert", {}),
    "path8": ("path", (8, 8), "normal", {}),
    "pairplace8": ("pairplace", (8, 8), "expert", {}),
}

CHILD = """
import hashlib, json, sys, time
from grader.generation.generator import Request, generate
family, rows, cols, level, options, count, seed, timeout = json.loads(sys.argv[1])
started = time.process_time()
digest = hashlib.sha256()
made = 0
request = Request(family, (rows, cols), level, count=count, seed=seed, options=options,
                  timeout=timeout)
for puzzle in generate(request):
    made += 1
    digest.update(json.dumps(puzzle.data.get("grid", puzzle.data), sort_keys=True).encode())
print(json.dumps({"made": made, "cpu": time.process_time() - started,
                  "digest": digest.hexdigest()[:12]}))
"""


def run_cell(checkout: Path | None, cell: str, count: int, seed: int, timeout: float) -> dict:
    """Generate one cell in a fresh process (with ``checkout`` first on the path)."""
    family, (rows, cols), level, options = CELLS[cell]
    args = json.dumps([family, rows, cols, level, options, count, seed, timeout])
    found = run_in(checkout, CHILD, args)
    return found or {"made": 0, "cpu": float("nan"), "digest": "error"}


def per_puzzle(result: dict) -> str:
    if not result["made"]:
        return "none"
    return f"{result['cpu'] / result['made']:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cells", default=",".join(CELLS), help="comma-separated cell names")
    parser.add_argument("--count", type=int, default=1, help="puzzles per cell")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per cell")
    parser.add_argument("--against", type=Path, help="another checkout to compare with")
    args = parser.parse_args()
    cells = [c.strip() for c in args.cells.split(",") if c.strip()]
    unknown = [c for c in cells if c not in CELLS]
    if unknown:
        parser.error(f"unknown cell {unknown[0]!r} (known: {', '.join(CELLS)})")
    header = f"{'cell':<11} {'family':<9} {'size':<7} {'level':<8} {'this s/pz':>9}"
    if args.against:
        header += f" {'other s/pz':>10} {'ratio':>6}  same puzzles"
    print(f"count {args.count}, seed {args.seed}; CPU seconds per puzzle")
    print(header)
    for cell in cells:
        family, (rows, cols), level, _ = CELLS[cell]
        ours = run_cell(None, cell, args.count, args.seed, args.timeout)
        line = f"{cell:<11} {family:<9} {rows}x{cols:<5} {level:<8} {per_puzzle(ours):>9}"
        if args.against:
            theirs = run_cell(args.against, cell, args.count, args.seed, args.timeout)
            ratio = (
                f"{(theirs['cpu'] / theirs['made']) / (ours['cpu'] / ours['made']):.1f}x"
                if ours["made"] and theirs["made"]
                else "-"
            )
            same = "yes" if ours["digest"] == theirs["digest"] else "no"
            line += f" {per_puzzle(theirs):>10} {ratio:>6}  {same}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
