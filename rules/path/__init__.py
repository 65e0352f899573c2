"""The path family (see family.py)."""

from rules.path.family import FAMILY

__all__ = ["FAMILY"]
