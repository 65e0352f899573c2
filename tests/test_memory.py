"""Grading many puzzles in one process keeps nothing per puzzle: max RSS stays flat."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from conftest import EXAMPLES

SCRIPT = textwrap.dedent(
    """
    import json, random, resource, sys
    from grader.grading import grade
    from grader.loading import load

    grid = "".join(json.load(open(sys.argv[1]))["grid"])
    rng = random.Random(1)

    def copy():
        bands = [b * 3 + i for b in rng.sample(range(3), 3) for i in rng.sample(range(3), 3)]
        stacks = [s * 3 + j for s in rng.sample(range(3), 3) for j in rng.sample(range(3), 3)]
        labels = dict(zip("123456789", rng.sample("123456789", 9)))
        return "".join(labels.get(grid[r * 9 + c], ".") for r in bands for c in stacks)

    n = int(sys.argv[2])
    for i in range(4 * n):
        report = grade(load(copy())[0])
        assert report.solved
        if i + 1 in (n, 4 * n):
            print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
    """
)


def test_max_rss_after_4n_puzzles_stays_within_1_3_times_that_after_n():
    n = 25
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(EXAMPLES / "sudoku.json"), str(n)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    after_n, after_4n = (int(x) for x in out)
    assert after_4n <= 1.3 * after_n, (after_n, after_4n)
