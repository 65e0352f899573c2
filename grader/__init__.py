"""Grade grid logic puzzles the way people solve them.

The Python API mirrors the command line::

    import grader
    puzzle = grader.load("examples/tango.json")[0]
    report = grader.grade(puzzle)
    print(report.level, report.difficulty)
    frame = grader.grade_many(["a.jsonl", "b.json"], workers=2)  # a pandas DataFrame
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("puzzle-grader")
except PackageNotFoundError:  # running from a source tree that was not installed
    __version__ = "0.0.0+local"

from grader.batch import grade_many
from grader.grading import Grade, GradeOptions, grade, hint
from grader.loading import load

__all__ = ["Grade", "GradeOptions", "__version__", "grade", "grade_many", "hint", "load"]
