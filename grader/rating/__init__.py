"""Rating: a puzzle file in, a graded report out.

The family protocol (:mod:`grader.rating.family`) and the board a family draws
(:mod:`grader.rating.board`), the registry of installed families and techniques (entry
points), loading puzzle files, cost tables, the targets of a level, and grading itself
(:func:`grader.rating.grading.grade`: the engine's run, the exact search, the score).

May import: :mod:`grader.core` and :mod:`grader.techniques`.
"""
