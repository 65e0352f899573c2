"""Generation: new puzzles that are deducible at a chosen level.

The generator (a random solution, hints inserted until the level's techniques solve it, then
reduced), generation on worker processes or a Dask cluster with the same puzzles as one core,
and plans that fill a bank row by row.

It sits above storage and output because it writes what it makes into banks and files.

May import: :mod:`grader.core`, :mod:`grader.techniques`, :mod:`grader.rating`,
:mod:`grader.output` and :mod:`grader.storage`.
"""
