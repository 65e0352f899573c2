"""Binairo against outside raters: the 200 puzzles of ../shared/data/binairo_external.jsonl
(binarypuzzle.com and puzzle-binairo.com) graded with the default techniques.

    python bench/binairo_external.py

Prints how our level compares with the level Simon Tatham's Unruly solver needed (the file's
``tatham_unruly_level``: Trivial / Easy / Normal, or beyond-Normal when it got stuck), and per
site the Kendall tau-b between our difficulty (and effort) and the site's level.
"""

from __future__ import annotations

import sys
from collections import Counter, defaultdict
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from grader.rating.grading import grade
from grader.rating.loading import puzzle_from_dict
from shared_sets import SHARED_DATA, binairo_external


def kendall_tau_b(xs: list[float], ys: list[float]) -> float:
    """Kendall's tau-b (ties in either list allowed), by counting all pairs."""
    concordant = discordant = ties_x = ties_y = 0
    for (x1, y1), (x2, y2) in combinations(zip(xs, ys, strict=True), 2):
        dx, dy = (x1 > x2) - (x1 < x2), (y1 > y2) - (y1 < y2)
        if dx == 0 and dy == 0:
            continue
        if dx == 0:
            ties_x += 1
        elif dy == 0:
            ties_y += 1
        elif dx == dy:
            concordant += 1
        else:
            discordant += 1
    pairs = concordant + discordant
    denominator = ((pairs + ties_x) * (pairs + ties_y)) ** 0.5
    return (concordant - discordant) / denominator if denominator else float("nan")


def site_taus(
    by_site: dict[str, list[tuple[int, float, float]]],
) -> list[tuple[str, int, int, float, float]]:
    """Per site (sorted): puzzles, levels, and the Kendall tau-b of our difficulty and of our
    effort with the site's level, from (site level, difficulty, effort) triples."""
    out = []
    for site, rows in sorted(by_site.items()):
        levels = [r[0] for r in rows]
        difficulty = kendall_tau_b([r[1] for r in rows], levels)
        effort = kendall_tau_b([r[2] for r in rows], levels)
        out.append((site, len(rows), len(set(levels)), difficulty, effort))
    return out


def main() -> int:
    path = SHARED_DATA / "binairo_external.jsonl"
    if not path.exists():
        print(f"{path} not found")
        return 1
    versus_tatham: dict[str, Counter] = defaultdict(Counter)
    by_site: dict[str, list[tuple[int, float, float]]] = defaultdict(list)
    for row, data in binairo_external(path):
        result = grade(puzzle_from_dict(data, str(path), row["id"]))
        versus_tatham[row["tatham_unruly_level"]][result.level] += 1
        by_site[row["source_site"]].append((row["level_index"], result.difficulty, result.effort))
    print("Tatham's Unruly level -> our level")
    same = solved_by_tatham = 0
    for level in ("Trivial", "Easy", "Normal", "beyond-Normal"):
        ours = versus_tatham.get(level, Counter())
        print(f"  {level:<14} {dict(sorted(ours.items()))}")
        if level != "beyond-Normal":
            solved_by_tatham += sum(ours.values())
            same += ours[level.lower()]
    print(f"  our level equals Tatham's for {same} of the {solved_by_tatham} it solves")
    print("Kendall tau-b between our figures and the site's level")
    for site, count, levels, difficulty, effort in site_taus(by_site):
        print(
            f"  {site:<20} {count:>3} puzzles, {levels} levels: "
            f"difficulty {difficulty:.2f}, effort {effort:.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
