"""Drawing cost: CPU seconds to draw the board of every step (SVG, as ``--html`` and
``render --step`` do) and the HTML trace of the examples of every family and every 10th puzzle
of the shared Binairo set (when ``../shared/data`` is there), and to draw each example's first
36 steps on one matplotlib contact sheet (as the technique-traces notebook does). The SHA-256
of everything drawn is printed, so a faster drawing can be shown to draw the same bytes.

    python bench/render.py
"""

from __future__ import annotations

import hashlib
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import matplotlib  # noqa: E402

matplotlib.use("Agg")

import shared_sets  # noqa: E402
from grader.output.html import trace_html  # noqa: E402
from grader.output.render import (  # noqa: E402
    board_svg,
    boards_figure,
    puzzle_board,
    states_before,
    step_board,
)
from grader.rating.grading import grade  # noqa: E402
from grader.rating.loading import load, puzzle_from_dict  # noqa: E402

SHARED = shared_sets.SHARED_DATA


def examples() -> list:
    """Every puzzle of examples/ (a family's export names its family)."""
    puzzles = []
    for path in sorted((ROOT / "examples").glob("*.json*")):
        family = path.name.split("-")[0] if "-export" in path.name else None
        puzzles += load(str(path), family)
    return puzzles


def shared_binairo() -> list:
    path = SHARED / "binairo_external.jsonl"
    if not path.exists():
        return []
    rows = list(shared_sets.binairo_external(path))[::10]
    return [puzzle_from_dict(data, path.name, str(data["id"])) for _, data in rows]


def step_boards(result) -> list:
    by_name = {t.name: t for t in result.techniques}
    pairs = zip(states_before(result.puzzle, result.steps), result.steps, strict=True)
    return [
        step_board(result.puzzle, before, step, by_name.get(step.technique))
        for before, step in pairs
    ]


def main() -> None:
    own = examples()
    results = [grade(puzzle) for puzzle in own + shared_binairo()]
    digest = hashlib.sha256()
    started = time.process_time()
    boards = 0
    for result in results:
        for board in step_boards(result):
            digest.update(board_svg(board).encode())
            boards += 1
        digest.update(trace_html([result]).encode())
    svg_seconds = time.process_time() - started
    print(f"SVG: {boards} step boards and {len(results)} HTML traces in {svg_seconds:.2f} CPU s")
    print(f"  sha256 {digest.hexdigest()[:16]}")
    sheets = hashlib.sha256()
    started = time.process_time()
    with tempfile.TemporaryDirectory() as folder:
        for number, result in enumerate(results[: len(own)]):
            drawn = [puzzle_board(result.puzzle), *step_boards(result)[:36]]
            figure = boards_figure(drawn, [str(i) for i in range(len(drawn))], columns=6, width=2.2)
            path = Path(folder) / f"{number}.png"
            figure.savefig(path, dpi=90)
            sheets.update(path.read_bytes())
    sheet_seconds = time.process_time() - started
    print(f"contact sheets: {len(own)} in {sheet_seconds:.2f} CPU s")
    print(f"  sha256 {sheets.hexdigest()[:16]}")


if __name__ == "__main__":
    main()
