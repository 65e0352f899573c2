"""The tango family (see family.py)."""

from rules.tango.family import FAMILY

__all__ = ["FAMILY"]
