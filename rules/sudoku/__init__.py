"""The sudoku family (see family.py)."""

from rules.sudoku.family import FAMILY

__all__ = ["FAMILY"]
