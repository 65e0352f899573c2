"""The keys of the JSON report (``grade --json``, :meth:`grader.rating.grading.Grade.to_dict`) and
what each one means, for the manual. ``tests/test_docs.py`` checks that every key a report of every
family writes is here."""

from __future__ import annotations

REPORT_KEYS: dict[str, str] = {
    "id": "the puzzle's `id`, or the file's stem and its line or position",
    "family": "its family",
    "size": "`[rows, cols]` of the grid",
    "givens": "given cells, plus the family's other hints (signs, clues)",
    "solutions": '`0`, `1` or `"2+"` by the exact search (`null` with `--no-exact`)',
    "solved": "whether the techniques solved it",
    "status": "`solved`, `stuck`, `contradiction` or `timeout`",
    "difficulty": "cost of the hardest step",
    "effort": "the solve's work: each wave of parallel moves costs its technique's cost squared "
    "times 1 + 1/2 + ... + 1/n for its n moves",
    "total_cost": "sum of the step costs",
    "level": "the family's level for it (`unsolved` when not solved, `invalid` with no solution)",
    "hardest": "the technique of the hardest step",
    "hardest_step": "the hardest step in plain words",
    "techniques": "technique name → `{count, cost}` of its steps (the cost of its hardest step), "
    "in increasing cost",
    "steps_count": "number of steps",
    "remaining": "cells the techniques left open",
    "grid": "the final grid in the file's symbols (`.` for an open cell)",
    "seconds": "seconds spent grading it",
    "version": "the grader's version",
    "settings": "every technique used with its cost, and `guess`, `timeout`, `exact`",
    "name": "the puzzle's `name`, when the file gives one",
    "contradiction": "the first contradiction the techniques reached, when they reached one",
    "solution_check": "how the file's `solution` compares: `matches`, `differs` or "
    "`not a solution` (only when the file gives one)",
    "notes": "what the reader should know: a time limit, techniques left out without the "
    "exact search",
    "steps": "with `--trace`: every step, with the step keys",
    "error": "why the puzzle was not graded (`file: field: problem`); the report then holds "
    "only `id` and `error`",
}
"""Report key → meaning, in the report's order; a family's own figures follow
(:data:`FAMILY_KEYS`)."""

FAMILY_KEYS: dict[str, dict[str, str]] = {
    "sudoku": {
        "er": "Sudoku Explainer's ER: the rating of the hardest step",
        "ep": "Sudoku Explainer's EP: the hardest step up to the first placement",
        "ed": "Sudoku Explainer's ED: the rating of the first step",
    },
    "siteswap": {
        "runs": "row and column runs of the solution",
        "distinct_runs": "distinct runs, up to rotation",
        "boxes": "boxes of the solution (with `boxes`)",
        "distinct_boxes": "distinct boxes (with `boxes`)",
    },
}
"""Family → the keys it adds to its reports (``Family.report_fields``) → meaning."""

STEP_KEYS: dict[str, str] = {
    "technique": "the technique's name",
    "cost": "the step's cost (for Sudoku chains, the table's cost plus SE's length bonus)",
    "explanation": "the step in plain words",
    "placements": "`[cell, symbol]` pairs the step places",
    "eliminations": "`[cell, symbol]` pairs the step crosses out",
    "evidence": "what the step read and how: `cells` and `units` always; `nodes`, `links`, "
    "`assumption`, `contradiction`, roles (`pivot`, `pincers`, `base`, `cover`...) and `inner` "
    "where the technique has them (`grader schema evidence` prints its JSON Schema)",
    "contradiction": "for a step that shows the state has no solution: why",
    "assumption": "for lookahead: the `[cell, symbol]` assumed",
    "chain": "for lookahead: the steps that followed from the assumption (the same keys)",
}
"""Key of a step in the ``steps`` of a ``--trace`` report → meaning."""


TECHNIQUE_PREFIX = "technique_"
"""Before a technique's name: the column of its step count (``technique_count`` is the steps of
a technique named ``count``, while ``steps_count`` is all the steps)."""


def keys_markdown(keys: dict[str, str]) -> str:
    """A Markdown table of keys and their meaning."""
    lines = ["| key | meaning |", "|---|---|"]
    lines += [f"| `{key}` | {text} |" for key, text in keys.items()]
    return "\n".join(lines) + "\n"
