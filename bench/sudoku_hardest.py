"""The forum's hardest sudokus: our rating beside Sudoku Explainer's, and seconds each.

Each puzzle is a public fact with its published SE 1.2.1 rating (ER/EP/ED) and where it was
published. Lists copied around the web carry typos, so every puzzle is first checked unique with
the exact search (a non-unique one is reported and skipped). Then it is graded with the sudoku
table (nested forcing chains included) under a time limit, printing our ER/EP/ED beside SE's, the
CPU seconds, and a summary: how many end solved, how many within ±0.3 of SE's ER. A puzzle cut
by the time limit shows the rating of the steps it took (a lower bound) and ``timeout``.

    python bench/sudoku_hardest.py [--timeout 600] [--only NAME ...]
"""

from __future__ import annotations

import argparse
import sys
import time

HARDEST: list[tuple[str, str, tuple[float, float | None, float | None], str]] = [
    (
        "Golden Nugget",
        ".......39.....1..5..3.5.8....8.9...6.7...2...1..4.......9.8..5..2....6..4..7.....",
        (11.9, 11.9, 11.3),
        "tarek; Wikipedia 'Algorithmics of sudoku', exceptionally difficult sudokus (SE 1.2.1)",
    ),
    (
        "Loki",
        "57....9..........8.1.........168..4......28.9..2.9416.....2.....6.9.82.4...41.6..",
        (11.9, 1.2, 1.2),
        "CSP-Rules examples (Berthier), Loki-11.9: ED=11.9/1.2/1.2",
    ),
    (
        "Paquita T&E(2) #2071",
        "98.76....7.....9...54......6...3.8....5....2......4.1..7.38.......9..3.......1..2",
        (11.7, 11.7, 2.6),
        "CSP-Rules results, Paquita 2023 T&E(2) puzzles without tridagon",
    ),
    (
        "Paquita T&E(2) #53403",
        "98.7.....7..86......5..4...3..6..9....2.............51.7..8.3.......67.......1.42",
        (11.6, 1.2, 1.2),
        "CSP-Rules results, Paquita 2023 T&E(2) puzzles without tridagon",
    ),
    (
        "Paquita T&E(2) #69817",
        "98.7.....7..86......5..4...3..6..9....2.............51.7..8.3.......67.......1.24",
        (11.6, 1.2, 1.2),
        "CSP-Rules results, Paquita 2023 T&E(2) puzzles without tridagon",
    ),
    (
        "Paquita T&E(2) #79404",
        "98765.......4..........3...8.62..7..2......9..95...8.276..2.9.85......6..2.....75",
        (11.5, 1.2, 1.2),
        "CSP-Rules results, Paquita 2023 T&E(2) puzzles without tridagon",
    ),
    (
        "skfr example",
        ".....67.....18.26.....27.412.4.......9...8...831.7......6.4287......1....4..6..12",
        (11.0, 8.4, 2.6),
        "skfr documentation (the serate-compatible rater), sample output ED=11.0/8.4/2.6",
    ),
    (
        "Arto Inkala 2012",
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
        (10.7, 10.7, 9.7),
        "serate 1.2.1.3 as quoted in issue 14 (not a published list)",
    ),
    (
        "AI Escargot",
        "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
        (10.5, None, None),
        "serate 1.2.1.3 ER as quoted in issue 14 (not a published list)",
    ),
]


def fmt(value: float | None) -> str:
    return "  -  " if value is None else f"{value:5.1f}"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--timeout", type=float, default=600.0, help="wall-clock seconds per puzzle"
    )
    parser.add_argument("--only", nargs="*", default=None, help="names (substrings) to run")
    args = parser.parse_args()
    from grader.core.exact import count_solutions
    from grader.rating.grading import GradeOptions, grade
    from grader.rating.loading import load

    rows = [
        h for h in HARDEST if not args.only or any(o.lower() in h[0].lower() for o in args.only)
    ]
    print(
        f"{'puzzle':24} {'SE ER/EP/ED':17}  {'ours ER/EP/ED':17}  {'diff':>5}  {'cpu s':>7}  status"
    )
    solved = close = graded = 0
    for name, text, (er, ep, ed), _source in rows:
        puzzle = load(text)[0]
        count, _ = count_solutions(puzzle.model, puzzle.givens, 2)
        if count != 1:
            print(f"{name:24} not unique ({count} solutions): skipped")
            continue
        graded += 1
        started = time.process_time()
        report = grade(puzzle, GradeOptions(timeout=args.timeout)).to_dict()
        seconds = time.process_time() - started
        ours = (report["er"], report["ep"], report["ed"])
        timed_out = any("timed out" in note for note in report.get("notes", ()))
        status = "solved" if report["solved"] else ("timeout" if timed_out else "unsolved")
        solved += report["solved"]
        within = report["solved"] and abs(ours[0] - er) <= 0.3 + 1e-9
        close += within
        print(
            f"{name:24} {fmt(er)}/{fmt(ep)}/{fmt(ed)}  {ours[0]:5.1f}/{ours[1]:5.1f}/{ours[2]:5.1f}"
            f"  {ours[0] - er:+5.1f}  {seconds:7.1f}  {status}",
            flush=True,
        )
    if graded:
        print(
            f"unique: {graded}/{len(rows)}   solved: {solved}/{graded}   "
            f"ER within ±0.3 of SE: {close}/{graded} ({close / graded:.0%})   "
            f"time limit {args.timeout:.0f} s each"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
