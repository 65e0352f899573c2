"""Storage: collections at rest and in bulk.

The puzzle bank (SQLite: graded, de-duplicated, published) and batch grading of many files to
CSV or Parquet on local worker processes or a Dask cluster.

May import: :mod:`grader.core`, :mod:`grader.techniques`, :mod:`grader.rating` and
:mod:`grader.output`.
"""
