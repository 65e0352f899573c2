"""Generation beside another checkout: the same requests through both, CPU seconds and whether
they make the same puzzles.

Each row (a family, size, level, seed and count, every family and several levels) runs as one
fresh process per checkout, the sides alternating and repeated (``--repeat``; the least CPU
time of each side counts: a shared machine only ever adds time). A process generates the row's
puzzles and prints its CPU seconds and a digest of the puzzles (less the ``seconds`` and
``version`` of their meta); "same" means the digests agree. Both checkouts' numba kernels are
warmed by one unmeasured run of every row first (a first run compiles them into the
checkout's cache).

    git clone -q . /tmp/old && git -C /tmp/old checkout <commit>
    python bench/generate_against.py --against /tmp/old
    python bench/generate_against.py --against /tmp/old --rows sudoku-expert --repeat 5
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from checkouts import run_in

ROWS: dict[str, tuple[str, tuple[int, int], str, int, int, dict]] = {
    "binairo-14-normal": ("binairo", (14, 14), "normal", 1, 40, {}),
    "binairo-8-expert": ("binairo", (8, 8), "expert", 1, 3, {}),
    "binairo-10-expert": ("binairo", (10, 10), "expert", 2, 2, {}),
    "binairo-8-unique-hard": ("binairo", (8, 8), "hard", 1, 3, {"unique_lines": True}),
    "tango-expert": ("tango", (6, 6), "expert", 1, 3, {}),
    "tango-hard": ("tango", (6, 6), "hard", 4, 3, {}),
    "sudoku-expert": ("sudoku", (9, 9), "expert", 1, 1, {}),
    "sudoku-4-5": ("sudoku", (9, 9), "4.0-5.0", 2, 2, {}),
    "sudoku-6x6-hard": ("sudoku", (6, 6), "hard", 1, 1, {}),
    "sudoku-16x16": ("sudoku", (16, 16), "normal", 1, 1, {}),
    "siteswap-trivial": ("siteswap", (3, 4), "trivial", 1, 3, {}),
    "siteswap-latin-boxes": ("siteswap", (4, 4), "trivial", 1, 2, {"latin": True, "boxes": True}),
    "path-6-extreme": ("path", (6, 6), "extreme", 1, 1, {}),
    "path-8-expert": ("path", (8, 8), "expert", 1, 1, {}),
    "pairplace-10-expert": ("pairplace", (10, 10), "expert", 1, 1, {}),
    "pairplace-8-normal": ("pairplace", (8, 8), "normal", 1, 2, {}),
}
"""Row name: (family, size, level, seed, count, options)."""

CHILD = """
import hashlib, json, sys, time
from grader.generation.generator import Generator, Request
family, rows, cols, level, seed, count, options = json.loads(sys.argv[1])
request = Request(family, (rows, cols), level, count=count, seed=seed, options=options)
started = time.process_time()
made = []
for found in Generator(request).puzzles():
    data = json.loads(json.dumps(found.data))
    data.get("meta", {}).pop("seconds", None)
    data.get("meta", {}).pop("version", None)
    made.append(data)
cpu = time.process_time() - started
digest = hashlib.sha256(json.dumps(made, sort_keys=True).encode()).hexdigest()[:12]
print(json.dumps({"cpu": cpu, "digest": digest, "count": len(made)}))
"""


def run_row(checkout: Path | None, row: str) -> dict | None:
    family, (rows, cols), level, seed, count, options = ROWS[row]
    spec = json.dumps([family, rows, cols, level, seed, count, options])
    return run_in(checkout, CHILD, spec)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, required=True, help="the other checkout")
    parser.add_argument("--rows", default=",".join(ROWS), help="comma-separated row names")
    parser.add_argument("--repeat", type=int, default=3, help="runs per side (least counts)")
    args = parser.parse_args()
    rows = [row.strip() for row in args.rows.split(",") if row.strip()]
    unknown = [row for row in rows if row not in ROWS]
    if unknown:
        parser.error(f"--rows: unknown {', '.join(unknown)} (known: {', '.join(ROWS)})")
    for row in rows:  # warm both sides' kernel caches, unmeasured
        run_row(args.against, row)
        run_row(None, row)
    print(f"{'row':<24} {'puzzles':>7} {'other s':>9} {'this s':>9} {'ratio':>6}  puzzles")
    totals = [0.0, 0.0]
    for row in rows:
        best: list[float] = [float("inf"), float("inf")]
        digests: list[set[str]] = [set(), set()]
        count = 0
        for _ in range(args.repeat):
            for side, checkout in enumerate((args.against, None)):
                result = run_row(checkout, row)
                if result is None:
                    return 1
                best[side] = min(best[side], result["cpu"])
                digests[side].add(result["digest"])
                count = result["count"]
        totals[0] += best[0]
        totals[1] += best[1]
        same = "same" if digests[0] == digests[1] and len(digests[0]) == 1 else "DIFFERENT"
        ratio = best[1] / best[0] if best[0] else float("nan")
        print(f"{row:<24} {count:>7} {best[0]:>9.2f} {best[1]:>9.2f} {ratio:>6.2f}  {same}")
        sys.stdout.flush()
    ratio = totals[1] / totals[0] if totals[0] else float("nan")
    print(f"{'all rows':<24} {'':>7} {totals[0]:>9.2f} {totals[1]:>9.2f} {ratio:>6.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
