"""The pairplace family (see family.py)."""

from rules.pairplace.family import FAMILY

__all__ = ["FAMILY"]
