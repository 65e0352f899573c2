"""How quantities read in messages: seconds as a person writes them, counts with their noun."""

from __future__ import annotations


def seconds_text(seconds: float) -> str:
    """Seconds to three significant digits, as a person writes them: ``20 s`` for 19.974…,
    ``1.25 s``, ``0.5 s``; whole seconds from 100 on (``123 s``), thousandths below a
    hundredth (``0.001 s``)."""
    if seconds >= 100:
        return f"{seconds:.0f} s"
    if seconds < 0.01:
        return f"{seconds:.3f} s"
    return f"{seconds:.3g} s"


def counted(count: int, noun: str) -> str:
    """``1 puzzle``, ``2 puzzles``: a count with its noun in the singular or plural."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"
