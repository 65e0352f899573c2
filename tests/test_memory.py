"""Grading many puzzles in one process keeps nothing per puzzle: max RSS stays flat."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import textwrap
from pathlib import Path

from conftest import EXAMPLES

LIBRARY = textwrap.dedent(
    """
    import resource, sys
    from grader.rating.grading import grade
    from grader.rating.loading import load

    lines = open(sys.argv[1]).read().split()
    n = len(lines) // 4
    for i, line in enumerate(lines):
        report = grade(load(line)[0])
        assert report.solved
        if i + 1 in (n, 4 * n):
            print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
    """
)

COMMAND = textwrap.dedent(
    """
    import resource, sys
    from grader.cli import grade_main

    sys.argv = ["grade", "--json", sys.argv[1]]
    try:
        grade_main()
    except SystemExit:
        pass
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)
    """
)


def write_copies(path: Path, count: int) -> Path:
    """``count`` relabelled, row- and column-shuffled copies of the example sudoku, one a line."""
    grid = "".join(json.loads((EXAMPLES / "sudoku.json").read_text())["grid"])
    rng = random.Random(1)
    lines = []
    for _ in range(count):
        bands = [b * 3 + i for b in rng.sample(range(3), 3) for i in rng.sample(range(3), 3)]
        stacks = [s * 3 + j for s in rng.sample(range(3), 3) for j in rng.sample(range(3), 3)]
        labels = dict(zip("123456789", rng.sample("123456789", 9), strict=True))
        lines.append("".join(labels.get(grid[r * 9 + c], ".") for r in bands for c in stacks))
    path.write_text("\n".join(lines) + "\n")
    return path


def test_max_rss_after_4n_puzzles_stays_within_1_3_times_that_after_n(tmp_path):
    puzzles = write_copies(tmp_path / "many.txt", 4 * 25)
    out = subprocess.run(
        [sys.executable, "-c", LIBRARY, str(puzzles)], capture_output=True, text=True, check=True
    ).stdout.split()
    after_n, after_4n = (int(x) for x in out)
    assert after_4n <= 1.3 * after_n, (after_n, after_4n)


def test_grade_command_over_a_file_of_4n_puzzles_stays_within_1_3_times_n(tmp_path):
    """The command loads a whole file first: what one puzzle's grading keeps must not add up."""
    peaks = []
    for count in (10, 40):
        puzzles = write_copies(tmp_path / f"{count}.txt", count)
        done = subprocess.run(
            [sys.executable, "-c", COMMAND, str(puzzles)], capture_output=True, text=True
        )
        assert done.stdout.count('"solved": true') == count, done.stderr
        peaks.append(int(done.stderr.split()[-1]))
    assert peaks[1] <= 1.3 * peaks[0], peaks
