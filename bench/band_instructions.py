"""Machine instructions of grading a Sudoku band, for this checkout and another one: a count that
does not move with the machine's load, to judge changes of a few per cent.

CPU seconds on a shared machine move by 10 % from run to run (``bench/band_cpu.py --rounds``
shows it), more than most single speed-ups. Valgrind's callgrind counts the instructions a
process executes: the same code gives the same count within 0.1 % (string hashing is seeded
alike on both sides). Both checkouts grade the same puzzles at once (one process each, so a run
takes the time of one), each under ``valgrind --tool=callgrind``, which is about 40 times slower
than running free: keep the workload small. The count includes start-up and loading, so both
checkouts' bytecode is compiled first (a module compiled again at every start, as with
``PYTHONDONTWRITEBYTECODE`` and a stale cache, adds about 1 %). The script also says whether
both checkouts' JSON reports agree (less seconds, version and the hardest step's words), as
``bench/band_cpu.py`` does. Instructions are not time (a cache miss costs more than an
addition): confirm a real gain with ``bench/band_cpu.py --rounds`` or ``bench/vs_serate.py
--repeat``.

    git worktree add --detach /tmp/old <commit>
    python bench/band_instructions.py --against /tmp/old              # SE >= 8.5, 6 puzzles
    python bench/band_instructions.py --against /tmp/old --band 6-8 --every 20 --count 6
    python bench/band_instructions.py --against /tmp/old --file puzzles.txt   # any family

With ``--file`` each side runs ``grade --json FILE`` instead (start-up included), and the
reports compared are its JSON lines.

Needs valgrind (``apt install valgrind``); exits 2 with one line without it.
"""

from __future__ import annotations

import argparse
import compileall
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from band_cpu import BANDS, CHILD
from vs_common import DEFAULT_DATA, se_ratings_csv

from checkouts import ROOT

COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")
GRADE = "import sys; from grader.cli import grade_main; sys.argv[0] = 'grade'; grade_main()"
"""``grade`` of the checkout first on the path (its console script would be this one's)."""


def file_digest(stdout: str) -> str:
    """The digest of ``grade --json`` lines less what changes from run to run."""
    reports = []
    for line in stdout.splitlines():
        if line.startswith("{"):
            report = json.loads(line)
            for key in ("seconds", "version", "hardest_step"):
                report.pop(key, None)
            reports.append(report)
    return hashlib.sha256(json.dumps(reports, sort_keys=True).encode()).hexdigest()


def start(checkout: Path | None, code: str, args: list[str]) -> subprocess.Popen:
    """``code`` under callgrind, with ``checkout`` (None: this one) first on the path, as
    :func:`checkouts.run_in` runs it."""
    env = dict(os.environ, PYTHONHASHSEED="0")  # the same set orders in every run
    if checkout is not None:
        env["PYTHONPATH"] = str(checkout)
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    return subprocess.Popen(
        [*command, sys.executable, "-c", code, *args],
        env=env,
        cwd=str(checkout or ROOT),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def finish(process: subprocess.Popen, where: str, of_file: bool) -> tuple[int, str] | None:
    """(instructions, digest of the reports), or None with the error's last line printed."""
    out, err = process.communicate()
    counted = COLLECTED.search(err)
    if process.returncode != 0 or counted is None or not out.strip():
        last = (err.strip().splitlines() or ["?"])[-1]
        print(f"  ({where}: {last})", file=sys.stderr)
        return None
    digest = file_digest(out) if of_file else json.loads(out.strip().splitlines()[-1])["digest"]
    return int(counted.group(1)), digest


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, required=True, help="Another checkout.")
    parser.add_argument("--band", default="8.5", choices=list(BANDS), help="An SE band.")
    parser.add_argument("--every", type=int, default=5, help="Keep every n-th puzzle.")
    parser.add_argument("--count", type=int, default=6, help="At most this many puzzles.")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--file", type=Path, help="Grade this puzzle file instead of a band.")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt install valgrind)", file=sys.stderr)
        return 2
    if not (args.against / "grader").is_dir():
        print(f"--against {args.against}: not a checkout of this project (no grader/)")
        return 2
    if args.file is not None:
        if not args.file.is_file():
            print(f"--file {args.file}: no such file", file=sys.stderr)
            return 2
        code, child_args = GRADE, ["--json", str(args.file.resolve())]
        title = f"grade --json {args.file}"
    else:
        source = se_ratings_csv(args.data)
        if source is None:
            return 2
        low, high = BANDS[args.band]
        # the band's every n-th puzzle, the first --count of them, graded once
        code = CHILD
        child_args = [str(source), str(low), str(high), str(args.every), "1", str(args.count)]
        title = f"SE band {args.band}, every {args.every}th, at most {args.count} puzzles"
    sides = [("this", None), ("other", args.against)]
    for where in (ROOT, args.against):
        for package in ("grader", "rules"):
            compileall.compile_dir(str(where / package), quiet=1)
    running = [(name, start(where, code, child_args)) for name, where in sides]
    got = [finish(process, name, args.file is not None) for name, process in running]
    if any(g is None for g in got):
        return 1
    (mine, my_digest), (theirs, their_digest) = got  # type: ignore[misc]
    same = "yes" if my_digest == their_digest else "NO"
    print(title)
    print(f"{'this':>8} {mine / 1e9:10.3f} G instructions")
    print(f"{'other':>8} {theirs / 1e9:10.3f} G instructions")
    print(f"   ratio {mine / theirs:10.4f}   same ratings: {same}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
