"""Generic techniques, usable by any family whose constraints support them."""

from grader.techniques.guess import Guess
from grader.techniques.last_cell import LastCell
from grader.techniques.line_enumeration import LineEnumeration
from grader.techniques.lookahead import Lookahead
from grader.techniques.relation import RelationPropagation
from grader.techniques.short_chain import ShortContradiction

__all__ = [
    "Guess",
    "LastCell",
    "LineEnumeration",
    "Lookahead",
    "RelationPropagation",
    "ShortContradiction",
]
