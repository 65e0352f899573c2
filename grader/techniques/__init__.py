"""Generic techniques, usable by any family whose constraints support them: house techniques
(singles, subsets, locked candidates), fish, wings, relations, last cells, single-line
enumeration, lookahead, short contradictions and guessing. Techniques that belong to one
family's scale (Sudoku Explainer's chains) live with that family under ``rules/``.

May import: :mod:`grader.core` only.
"""

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
