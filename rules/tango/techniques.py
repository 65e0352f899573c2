"""The Tango technique table: the binary ladder with sign propagation among the trivial ones and
short contradictions before lookahead."""

from __future__ import annotations

from grader.family import TechniqueSpec
from grader.model import Model
from grader.techniques import RelationPropagation, ShortContradiction
from rules.binary.techniques import binary_table


def tango_table(model: Model) -> list[TechniqueSpec]:
    """The binary ladder with the signs (relation propagation) at cost 1, after the pairs, and
    short contradictions (5.0, hard) before lookahead: on the 103 LinkedIn dailies every
    lookahead step was one (``python bench/calibration.py --family tango``)."""
    table = binary_table(model)
    first_trial = next(i for i, spec in enumerate(table) if spec.technique_name == "lookahead-1")
    return [
        table[0],
        table[1],
        TechniqueSpec(RelationPropagation, 1.0, "trivial"),
        *table[2:first_trial],
        TechniqueSpec(ShortContradiction, 5.0, "hard"),
        *table[first_trial:],
    ]
