"""The Tango technique table: the binary ladder with the signs among its rules, and short
contradictions before lookahead."""

from __future__ import annotations

from grader.core.model import Model
from grader.rating.family import TechniqueSpec
from grader.techniques import RelationPropagation, ShortContradiction
from rules.binary.techniques import binary_table
from rules.tango.signs import EqualPairBeside, EqualPairCount, OppositePairCount


def tango_table(model: Model) -> list[TechniqueSpec]:
    """The binary ladder with the signs: a sign next to a known cell at 1 after the pairs, then
    each sign pattern half a point above the sign-free rule it extends (an = pair beside a
    symbol, 1.5, beside the pairs at 1; the counts with x or = pairs, 2.5, beside count
    completion at 2), and short contradictions (5.0, hard) before lookahead: on the 103 LinkedIn
    dailies every lookahead step was one (``python bench/calibration.py --family tango``)."""
    table = binary_table(model)
    names = [spec.technique_name for spec in table]
    last, window = names.index("last-cell"), names.index("window")
    first_trial = names.index("lookahead-1")
    return [
        *table[:last],
        TechniqueSpec(RelationPropagation, 1.0, "trivial"),
        table[last],
        TechniqueSpec(EqualPairBeside, 1.5, "trivial"),
        *table[last + 1 : window],
        TechniqueSpec(OppositePairCount, 2.5, "easy"),
        TechniqueSpec(EqualPairCount, 2.5, "easy"),
        *table[window:first_trial],
        TechniqueSpec(ShortContradiction, 5.0, "hard"),
        *table[first_trial:],
    ]
