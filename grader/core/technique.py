"""The technique plugin protocol.

A technique is one small class with a ``name``, a ``cost`` in points, a ``title``, a one-paragraph
``description`` and a way to find steps. Local techniques look at one constraint at a time
(``kinds`` names the constraint kinds they read, and :meth:`Technique.find_in` looks at one of
them); the engine then rescans a constraint only when a variable it depends on has changed.
Global techniques leave ``kinds`` empty and implement :meth:`Technique.find`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from grader.core.evidence import Evidence, default_evidence
from grader.core.model import Model, State
from grader.core.step import Assignment, Step

if TYPE_CHECKING:
    from grader.core.constraints import Constraint
    from grader.core.engine import Engine
    from grader.core.explain import Explainer


JointScan = Callable[["Context", "Constraint"], "list[tuple[int, int]] | None"]
"""A constraint's local techniques scanned as one (:meth:`Technique.joint_scan`)."""


class EngineTimeout(Exception):
    """The time given to the techniques ran out."""


Check = Callable[[], None]
"""Called now and then by a long pass or making; raises :class:`EngineTimeout` to stop it (as
:meth:`Context.check_time` does past the engine's deadline)."""


def check_deadline(deadline: float | None) -> None:
    """Raise :class:`EngineTimeout` once ``deadline`` (a ``time.monotonic`` reading) is past."""
    if deadline is not None and time.monotonic() > deadline:
        raise EngineTimeout


@dataclass
class Context:
    """What a technique sees: the model, the current state, and the engine for lookahead."""

    model: Model
    state: State
    engine: Engine
    memo: dict[Any, Any] = field(default_factory=dict)
    """Views of the current state shared by the techniques of one scan (cleared when the
    state changes), e.g. a line's cells as bitsets."""
    views: dict[Constraint, Any] = field(default_factory=dict)
    """Views of one constraint's cells keyed by the constraint (e.g. a line as bitsets), kept
    while none of its variables changes: the engine drops a constraint's view when a step
    changes one of its variables, and every view when another change comes its way."""
    lasting: dict[Any, Any] = field(default_factory=dict)
    """Kept for the whole run (the engine only removes candidates from ``state``): facts about
    the state that stay true as it narrows, e.g. the cells already placed, and results that
    depend on nothing the run changes, e.g. inner chain searches' hints by grid."""
    stated: set[int] | None = None
    """The variables a step or the puzzle has stated (given or placed), when the run tracks
    them (:meth:`grader.core.engine.Engine.run` given ``stated``): a variable left with one
    candidate by eliminations is then still to be placed by a step. None: a variable with one
    candidate that nothing else still holds counts as done."""
    settle: bool = False
    """Whether the caller keeps no steps (:meth:`grader.core.engine.Engine.settle`): a technique may
    then reach the same conclusions by a cheaper route (e.g. lookahead that propagates its
    trials without recording them)."""

    @property
    def solution(self) -> list[int] | None:
        """One solution from the exact search, if the caller gave any."""
        return self.engine.solutions[0] if self.engine.solutions else None

    def check_time(self) -> None:
        """Raise :class:`EngineTimeout` once the engine's deadline is past."""
        check_deadline(self.engine.deadline)


class Technique:
    """Base class of all techniques. Subclasses set the class attributes and one finder."""

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    description: ClassVar[str] = ""
    kinds: ClassVar[tuple[str, ...]] = ()
    batch: ClassVar[bool] = True
    """Whether all steps found in one scan are applied together (False: only the first)."""
    assumptions: int = 0
    """How many nested assumptions the technique makes to reach its conclusion (lookahead of
    depth d: d; a trial bounded to a few rounds: 1). Lookahead of depth d follows its trials
    with the cheaper techniques that make fewer than d, so depth 1 never nests trials."""

    @property
    def needs_unique(self) -> bool:
        """Whether the technique assumes the puzzle has one solution, and so runs only when
        the exact search has said so (a rating without it may be higher)."""
        return False

    def __init__(self, cost: float, level: str = "", name: str | None = None) -> None:
        self.cost = float(cost)
        self.level = level
        if name is not None:
            self.name = name  # type: ignore[misc]

    @classmethod
    def default_name(cls, **kwargs: Any) -> str:
        """The name a table row with these arguments and no ``name`` gives the technique."""
        return cls.name

    @property
    def local(self) -> bool:
        return bool(self.kinds)

    @property
    def reads_solutions(self) -> bool:
        """Whether what it finds depends on the solutions the engine knows (lookahead skips
        their values, guess places one), so that grading runs it only after the exact search.
        A technique that is not local may, unless its class says otherwise (``False``)."""
        return not self.local

    def applies_to(self, constraint: Constraint, model: Model) -> bool:
        return constraint.kind in self.kinds

    def scope(self, constraint: Constraint, model: Model) -> Iterable[int]:
        """Variables whose change can change what :meth:`find_in` finds in ``constraint``."""
        return constraint.vars

    def find(self, ctx: Context) -> Iterator[Step]:
        """Steps over the whole state (global techniques)."""
        return iter(())

    def find_in(self, ctx: Context, constraint: Constraint) -> Iterator[Step]:
        """Steps within one constraint (local techniques)."""
        return iter(())

    def steps_in(self, ctx: Context, constraint: Constraint) -> list[Step]:
        """Every step :meth:`find_in` finds in ``constraint``, as a list (what the engine asks
        of a batch technique). A technique may give a plain function here that answers the
        common nothing-found case without starting a generator."""
        return list(self.find_in(ctx, constraint))

    def wave_in(
        self, ctx: Context, pending: set[int], constraints: Sequence[Constraint]
    ) -> list[Step]:
        """What the engine asks of a batch technique in a wave: every step :meth:`steps_in`
        finds in the ``pending`` constraints (indices into ``constraints``), in index order,
        dropping from ``pending`` each where it finds none. A family may override it to tell
        the common nothing-found case of many constraints in one loop."""
        wave: list[Step] = []
        steps_in = self.steps_in
        for ci in sorted(pending):
            found = steps_in(ctx, constraints[ci])
            if found:
                wave += found
            else:
                pending.discard(ci)
        return wave

    def settled_by(self, other: Technique, techniques: Sequence[Technique]) -> bool:
        """Whether, in a propagation that keeps no steps (:meth:`grader.core.engine.Engine.settle`),
        ``other`` (a technique of the same list ``techniques``) removes on every state all
        this one would, so that this one need not run there: the end is the same fixpoint,
        sooner. Default: never."""
        return False

    def placements_in(self, ctx: Context, constraint: Constraint) -> list[Assignment] | None:
        """The placements :meth:`find_in` makes in ``constraint`` (in any order), without steps,
        for callers that keep none (:meth:`grader.core.engine.Engine.settle`). None: no such
        shortcut here (or the steps also eliminate or contradict); the steps are used."""
        return None

    def joint_scan(
        self, constraint: Constraint, techniques: Sequence[Technique]
    ) -> JointScan | None:
        """For callers that keep no steps (:meth:`grader.core.engine.Engine.settle`): one function
        giving what ``techniques`` (every local technique scanning ``constraint``, cheapest
        first, this one first) conclude when used again and again until none finds more there,
        so that after them the constraint needs no rescan until another constraint changes one
        of its variables. It returns the narrowed variables as ``(variable, new mask)`` pairs
        (distinct variables, each new mask a non-empty part of the old one; a variable may lie
        outside the constraint when the techniques conclude there), or None when it cannot
        tell (a contradiction on the way): the techniques are then used one by one. The
        conclusions must be ones the techniques reach, so that the end of the propagation is
        the same. None here: no such function."""
        return None

    def explain(self, step: Step, ex: Explainer) -> str:
        """The reason of a step in plain words; ``ex`` renders names and nested steps."""
        return self.title.lower()

    def evidence(self, step: Step, model: Model) -> Evidence:
        """The variables a step used, its units' variables and what it changed (for pictures).

        The default reads the common data keys (:func:`grader.core.evidence.default_evidence`).
        """
        return default_evidence(step, model)

    def make(
        self,
        placements: Iterable[Assignment] = (),
        eliminations: Iterable[Assignment] = (),
        contradiction: str | None = None,
        **data: Any,
    ) -> Step:
        """A step of this technique at its cost."""
        return Step(  # positional: a solve makes a step per conclusion
            self.name, self.cost, tuple(placements), tuple(eliminations), data, contradiction
        )

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r}, cost={self.cost})"
