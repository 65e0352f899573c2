"""Grading side by side with another checkout: whether both give the same reports, traces
included, and the CPU seconds each takes.

    git worktree add --detach /tmp/old <commit>          # a checkout to compare with
    python bench/same_traces.py --against /tmp/old

Each collection is graded in a fresh process per checkout (the other one imported through
PYTHONPATH, so it needs no installation of its own): the examples of this checkout, and from
../shared/data when it is there the real Tangos, the external Binairos, the Path Puzzles, the
Pair Place examples, the siteswaps and the 658 SE-rated Sudokus. Every puzzle's
``grade --json --trace`` report, less its seconds and version, goes into a digest; the script
prints per collection the puzzles, the CPU seconds of each checkout and whether the digests
agree, so that a speed-up is shown not to change a rating or an explanation.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from vs_common import DEFAULT_DATA

from checkouts import ROOT, run_in

CHILD = """
import hashlib, json, sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[2])  # this checkout's tests: the shared sets' readers
try:  # the layout of grader/ by concern (issue 50), or the flat one before it
    from grader.rating.grading import grade
    from grader.rating.loading import load, puzzle_from_dict
except ImportError:
    from grader.grading import grade
    from grader.loading import load, puzzle_from_dict
import shared_sets
kind, source = json.loads(sys.argv[1])
if kind == "files":
    puzzles = [p for path in source for p in load(path)]
else:
    reader = getattr(shared_sets, kind)
    puzzles = [puzzle_from_dict(data, source, data["id"]) for _, data in reader(Path(source))]
started = time.process_time()
digest = hashlib.sha256()
for puzzle in puzzles:
    report = grade(puzzle).to_dict(trace=True)
    report.pop("seconds", None)
    report.pop("version", None)
    digest.update(json.dumps(report, sort_keys=True).encode())
print(json.dumps({"puzzles": len(puzzles), "cpu": time.process_time() - started,
                  "digest": digest.hexdigest()[:12]}))
"""


def collections() -> dict[str, tuple[str, object]]:
    """Name → (how to read it, what): files by path, or a reader of ``tests/shared_sets.py``."""
    found: dict[str, tuple[str, object]] = {
        "examples": ("files", sorted(str(p) for p in (ROOT / "examples").glob("*.json")))
    }
    shared = DEFAULT_DATA
    for name, kind, file in (
        ("tango real", "tango_real", "tango_real.jsonl"),
        ("binairo external", "binairo_external", "binairo_external.jsonl"),
        ("path examples", "files", "path_puzzles_examples.json"),
        ("pair place examples", "files", "pair_place_examples.json"),
        ("siteswap examples", "siteswap_examples", "siteswap_examples.json"),
        ("sudoku SE-rated", "sudoku_se", "sudoku_se_dev.csv"),
    ):
        path = shared / file
        if path.exists():
            found[name] = (kind, [str(path)] if kind == "files" else str(path))
    return found


def run(checkout: Path | None, kind: str, source: object) -> dict:
    """Grade one collection in a fresh process (with ``checkout`` first on the path)."""
    found = run_in(checkout, CHILD, json.dumps([kind, source]), str(ROOT / "tests"))
    return found or {"puzzles": 0, "cpu": float("nan"), "digest": "error"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", type=Path, help="another checkout to compare with")
    args = parser.parse_args()
    header = f"{'collection':<20} {'puzzles':>7} {'this CPU s':>10}"
    if args.against:
        header += f" {'other CPU s':>11}  same reports"
    print(header)
    total = other_total = 0.0
    for name, (kind, source) in collections().items():
        ours = run(None, kind, source)
        total += ours["cpu"]
        line = f"{name:<20} {ours['puzzles']:>7} {ours['cpu']:>10.2f}"
        if args.against:
            theirs = run(args.against, kind, source)
            other_total += theirs["cpu"]
            same = "yes" if ours["digest"] == theirs["digest"] else "no"
            line += f" {theirs['cpu']:>11.2f}  {same}"
        elif ours["digest"].startswith("error"):
            line += f"  {ours['digest']}"
        print(line, flush=True)
    line = f"{'all':<20} {'':>7} {total:>10.2f}"
    if args.against:
        line += f" {other_total:>11.2f}"
    print(line)


if __name__ == "__main__":
    main()
