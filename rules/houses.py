"""The house techniques (singles, locked candidates, subsets, fish, wings) at their Sudoku
Explainer 1.2.1 ratings, up to the XYZ-wing: the first rows of sudoku's table, and the ones
siteswap grids with ``latin`` or ``boxes`` use (the uniqueness patterns and chains, rated 4.5
and up, are sudoku's own)."""

from __future__ import annotations

from grader.rating.family import TechniqueSpec
from grader.techniques.fish import Fish
from grader.techniques.houses import (
    DirectLockedCandidates,
    FullHouse,
    HiddenSingle,
    HiddenSubset,
    LockedCandidates,
    NakedSingle,
    NakedSubset,
)
from grader.techniques.wings import XYWing


def house_table() -> list[TechniqueSpec]:
    """Sudoku Explainer's house techniques rated below 4.5, in its order."""
    return [
        TechniqueSpec(FullHouse, 1.0, "trivial"),
        TechniqueSpec(
            HiddenSingle, 1.2, "trivial", name="hidden-single-box", kwargs={"boxes": True}
        ),
        TechniqueSpec(
            HiddenSingle, 1.5, "trivial", name="hidden-single-line", kwargs={"boxes": False}
        ),
        TechniqueSpec(DirectLockedCandidates, 1.7, "easy", name="direct-pointing"),
        TechniqueSpec(
            DirectLockedCandidates,
            1.9,
            "easy",
            name="direct-claiming",
            kwargs={"pointing": False},
        ),
        TechniqueSpec(
            HiddenSubset,
            2.0,
            "easy",
            name="direct-hidden-pair",
            kwargs={"degree": 2, "direct": True},
        ),
        TechniqueSpec(NakedSingle, 2.3, "easy"),
        TechniqueSpec(
            HiddenSubset,
            2.5,
            "easy",
            name="direct-hidden-triple",
            kwargs={"degree": 3, "direct": True},
        ),
        TechniqueSpec(LockedCandidates, 2.6, "normal", name="pointing"),
        TechniqueSpec(LockedCandidates, 2.8, "normal", name="claiming", kwargs={"pointing": False}),
        TechniqueSpec(NakedSubset, 3.0, "normal", name="naked-pair", kwargs={"degree": 2}),
        TechniqueSpec(Fish, 3.2, "normal", name="x-wing", kwargs={"degree": 2}),
        TechniqueSpec(HiddenSubset, 3.4, "normal", name="hidden-pair", kwargs={"degree": 2}),
        TechniqueSpec(NakedSubset, 3.6, "normal", name="naked-triple", kwargs={"degree": 3}),
        TechniqueSpec(Fish, 3.8, "normal", name="swordfish", kwargs={"degree": 3}),
        TechniqueSpec(HiddenSubset, 4.0, "hard", name="hidden-triple", kwargs={"degree": 3}),
        TechniqueSpec(XYWing, 4.2, "hard", name="xy-wing"),
        TechniqueSpec(XYWing, 4.4, "hard", name="xyz-wing", kwargs={"xyz": True}),
    ]
