"""The Tango technique table: the binary ladder with sign propagation among the trivial ones."""

from __future__ import annotations

from grader.family import TechniqueSpec
from grader.model import Model
from grader.techniques import RelationPropagation
from rules.binary.techniques import binary_table


def tango_table(model: Model) -> list[TechniqueSpec]:
    """The binary ladder with the signs (relation propagation) at cost 1, after the pairs."""
    table = binary_table(model)
    return [table[0], table[1], TechniqueSpec(RelationPropagation, 1.0, "trivial"), *table[2:]]
