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
    from grader.batch import grade_many
    from grader.grading import Grade, GradeOptions, grade, hint
    from grader.loading import load

__all__ = ["Grade", "GradeOptions", "__version__", "grade", "grade_many", "hint", "load"]

_HOMES = {
    "grade_many": "grader.batch",
    "Grade": "grader.grading",
    "GradeOptions": "grader.grading",
    "grade": "grader.grading",
    "hint": "grader.grading",
    "load": "grader.loading",
}
"""Where each public name lives."""


def _version() -> str:
    """The installed version (``0.0.0+local`` in a source tree that was not installed)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("puzzle-grader")
    except PackageNotFoundError:
        return "0.0.0+local"


def __getattr__(name: str) -> Any:
    """Import a public name on first use (PEP 562)."""
    if name == "__version__":
        value: Any = _version()
    elif name in _HOMES:
        value = getattr(import_module(_HOMES[name]), name)
    else:
        raise AttributeError(f"module 'grader' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
