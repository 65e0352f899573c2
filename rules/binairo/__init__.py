"""The binairo family (see family.py)."""

from rules.binairo.family import FAMILY

__all__ = ["FAMILY"]
