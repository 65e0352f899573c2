"""The siteswap family (see family.py)."""

from rules.siteswap.family import FAMILY

__all__ = ["FAMILY"]
