"""Grade grid logic puzzles the way people solve them.

The Python API mirrors the command line::

    import grader
    report = grader.grade("examples/tango.json")  # a file, a puzzle dict or a loaded puzzle
    print(report.level, report.difficulty)
    puzzle = grader.load("examples/tango.json")[0]
    frame = grader.grade_many(["a.jsonl", "b.json"], workers=2)  # a pandas DataFrame

``import grader`` is cheap: each name below is imported on first use.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from grader.rating.grading import Grade, GradeOptions, grade, hint
    from grader.rating.loading import load
    from grader.storage.batch import grade_many

__all__ = ["Grade", "GradeOptions", "__version__", "grade", "grade_many", "hint", "load"]

_HOMES = {
    "grade_many": "grader.storage.batch",
    "Grade": "grader.rating.grading",
    "GradeOptions": "grader.rating.grading",
    "grade": "grader.rating.grading",
    "hint": "grader.rating.grading",
    "load": "grader.rating.loading",
}
"""Where each public name lives."""


def __getattr__(name: str) -> Any:
    """Import a public name on first use (PEP 562)."""
    if name == "__version__":
        from grader.core.version import __version__ as value
    elif name in _HOMES:
        value = getattr(import_module(_HOMES[name]), name)
    else:
        raise AttributeError(f"module 'grader' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public names only (not the module's own helpers such as ``Any``)."""
    return sorted(__all__)
