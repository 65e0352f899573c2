"""Short contradiction: an assumption whose easy consequences break a rule within a few rounds.

Assume a cell holds a value and make every easy deduction it opens (the table's techniques up to
a cost, 2.0 by default: the moves a solver makes without thinking), all the moves of a round at
once, for at most :data:`SHORT_ROUNDS` rounds. If a rule breaks on the way (it visibly fails,
a technique finds it cannot be kept, or two moves leave a cell nothing), the value is false.
This is the contradiction a solver sees at a glance ("then r3c5 would have to be a sun and a
moon"), priced below a full lookahead, which follows every cheaper technique as far as it goes;
like lookahead's, its cost grows with its rounds (:func:`~grader.techniques.lookahead.round_bonus`).
The step records the assumption, what the rounds decided and what broke, so the explanation
is rendered from it in the rule's and the moves' own words.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from grader.core.constraints import spoken
from grader.core.evidence import (
    Evidence,
    Node,
    constraints_by_label,
    default_evidence,
    trial_chain,
)
from grader.core.explain import Explainer
from grader.core.model import Model, State, is_single, single_value, values_of
from grader.core.step import Step
from grader.core.technique import Context, Technique
from grader.techniques.lookahead import Lookahead, fits, refutation, round_bonus

if TYPE_CHECKING:
    from grader.core.engine import Engine

SHORT_ROUNDS = 3
"""How many rounds of easy moves a short contradiction follows."""

FOLLOW_UP_TO = 2.0
"""The dearest technique a short contradiction follows by default."""


@dataclass(frozen=True)
class Refutation:
    """What assuming one value opened, round by round, and what broke."""

    forced: tuple[tuple[int, int], ...]
    """The values the rounds decided, in the order found (variable, value)."""
    rounds: int
    broken: tuple[tuple[str, str], ...] = ()
    """Rules visibly broken after the last round: (the rule's label, the reason in words)."""
    clash: tuple[Step, ...] = ()
    """Else the moves of the last round that broke it: the one finding a contradiction, or
    those that together took every value of one cell (``emptied``)."""
    emptied: int | None = None


def follow(sub: Engine, state: State, var: int, value: int, rounds: int) -> Refutation | None:
    """Assume ``var = value`` and make every move ``sub``'s techniques find where a change
    reached (all the moves of a round on the state before it), for at most ``rounds`` rounds:
    the chain when a rule breaks, None when none does."""
    model = sub.model
    constraints = model.constraints
    s = list(state)
    s[var] = 1 << value
    changed = [var]
    forced: list[tuple[int, int]] = []
    for done in range(rounds + 1):
        touched = sorted({ci for v in changed for ci in model.var_constraints[v]})
        broken = []
        for ci in touched:
            reason = constraints[ci].check(s)
            if reason is not None:
                broken.append((constraints[ci].label, reason))
        if broken:
            return Refutation(tuple(forced), done, tuple(broken))
        if done == rounds:
            return None
        moves = _moves(sub, Context(model, s, sub), changed)  # s is not changed in place
        after = list(s)
        cut_by: dict[int, list[tuple[Step, int]]] = {}  # cell → (move, values it removed)
        for move in moves:
            if move.contradiction is not None:
                return Refutation(tuple(forced), done + 1, clash=(move,))
            for v, x in move.eliminations:
                if s[v] >> x & 1:
                    after[v] &= ~(1 << x)
                    cut_by.setdefault(v, []).append((move, 1 << x))
            for v, x in move.placements:
                if s[v] & ~(1 << x):
                    after[v] &= 1 << x
                    cut_by.setdefault(v, []).append((move, s[v] & ~(1 << x)))
        changed = sorted(cut_by)  # the cells a move narrowed
        for v in changed:
            if not after[v]:
                clash = fewest_moves(cut_by[v], s[v])
                return Refutation(tuple(forced), done + 1, clash=clash, emptied=v)
        if not changed:
            return None
        forced += [(v, single_value(after[v])) for v in changed if is_single(after[v])]
        s = after
    return None


def fewest_moves(cuts: Sequence[tuple[Step, int]], values: int) -> tuple[Step, ...]:
    """A few of the moves that together remove every value of ``values`` (greedily, the one
    removing the most of what is left first): what an explanation needs to name."""
    chosen: list[Step] = []
    left = values
    while left:
        move, removed = max(cuts, key=lambda cut: (cut[1] & left).bit_count())
        chosen.append(move)
        left &= ~removed
    return tuple(chosen)


def _moves(sub: Engine, ctx: Context, changed: Sequence[int]) -> list[Step]:
    """Every move of ``sub``'s techniques where a change in ``changed`` can have opened one."""
    plan, constraints = sub.plan, sub.model.constraints
    reached: dict[int, set[int]] = {}  # technique → the constraints it watches that changed
    for v in changed:
        for ti, ci in plan.watchers[v]:
            reached.setdefault(ti, set()).add(ci)
    out: list[Step] = []
    for ti, technique in enumerate(sub.techniques):
        if plan.units[ti] is None:
            out += technique.find(ctx)
            continue
        for ci in sorted(reached.get(ti, ())):
            out += technique.find_in(ctx, constraints[ci])
    return out


class ShortContradiction(Technique):
    name = "short-contradiction"
    title = "Short contradiction"
    description = (
        "Assume a cell holds a value and make the easy moves it opens, a round at a time, for "
        f"at most {SHORT_ROUNDS} rounds: if a rule breaks on the way, the value is false. A "
        "contradiction that close is seen at a glance, without a full trial."
    )
    reads_solutions = False
    assumptions = 1  # a bounded trial: lookahead-1 does not nest it in its own trials

    def __init__(
        self,
        cost: float,
        level: str = "",
        name: str | None = None,
        rounds: int = SHORT_ROUNDS,
        follow_up_to: float = FOLLOW_UP_TO,
    ) -> None:
        super().__init__(cost, level, name)
        self.rounds = rounds
        self.follow_up_to = follow_up_to

    def inner(self, techniques: Sequence[Technique]) -> list[Technique]:
        """The easy techniques its trials follow: up to ``follow_up_to`` points, no trials."""
        return [
            t
            for t in techniques
            if t.cost <= self.follow_up_to and t.assumptions == 0 and t.name != "guess"
        ]

    def settled_by(self, other: Technique, techniques: Sequence[Technique]) -> bool:
        """A lookahead whose trials follow every move this one makes finds each assumption
        this one refutes (it follows the same moves further, and a rule broken or a cell left
        empty within the rounds stays so), so a propagation that keeps no steps needs only it
        (a depth-2 trial settles with both: half its time went here)."""
        return (
            isinstance(other, Lookahead)
            and other.tries_every_assumption
            and set(self.inner(techniques)) <= set(other.inner(techniques))
        )

    def find(self, ctx: Context) -> Iterator[Step]:
        """Every assumption whose chain breaks a rule within the rounds, one step each. A
        value of a known solution that fits the state is not tried: sound moves from it break
        no rule."""
        sub = ctx.engine.sub_engine(self.inner(ctx.engine.techniques))
        state = ctx.state
        fitting = [s for s in ctx.engine.solutions if fits(s, state)]
        for var, mask in enumerate(state):
            if is_single(mask) or not mask:
                continue
            ctx.check_time()
            for value in values_of(mask):
                if any(s[var] == value for s in fitting):
                    continue
                chain = follow(sub, state, var, value, self.rounds)
                if chain is None:
                    continue
                step = self.make(
                    eliminations=[(var, value)],
                    assume=(var, value),
                    vars=[v for v, _ in chain.forced],
                    forced=chain.forced,
                    rounds=chain.rounds,
                    broken=chain.broken,
                    clash=chain.clash,
                    emptied=chain.emptied,
                )
                yield replace(step, cost=round(self.cost + round_bonus(chain.rounds), 2))

    def evidence(self, step: Step, model: Model) -> Evidence:
        """The assumption, the values its rounds of easy moves decided (each implied by it
        with what the board holds), and what broke."""
        found = default_evidence(step, model)
        if found.assumption is None:
            return found
        forced = [Node(var, value, True) for var, value in step.data["forced"]]
        chain = trial_chain(found.assumption, [((), forced)])
        emptied = step.data["emptied"]
        broken = tuple(label for label, _reason in step.data["broken"][:1])
        return found.with_(
            used=found.used | ({emptied} if emptied is not None else set()),
            nodes=tuple(chain.nodes),
            links=tuple(chain.links),
            contradiction=self.what_broke(step, model),
            units=frozenset(v for label in broken for v in constraints_by_label(model)[label]),
            unit_labels=broken,
        )

    @staticmethod
    def broken_rule(step: Step, model: Model) -> str | None:
        """The rule visibly broken after the last round, and why (None when none was)."""
        if not step.data["broken"]:
            return None
        label, reason = step.data["broken"][0]
        return f"{label} {spoken(reason, model)}"

    def what_broke(self, step: Step, model: Model) -> str:
        """What broke, from the step's data alone: a rule, a cell left empty, or the last
        round's move that found the contradiction itself."""
        emptied, clash = step.data["emptied"], step.data["clash"]
        if (rule := self.broken_rule(step, model)) is not None:
            return rule
        if emptied is not None:
            return f"{model.name(emptied)} could hold nothing"
        return (clash[0].contradiction if clash else None) or "a contradiction"

    def explain(self, step: Step, ex: Explainer) -> str:
        var, value = step.data["assume"]
        said = ", ".join(ex.conclusion(v, x, True) for v, x in step.data["forced"])
        rounds = step.data["rounds"]
        depth = f" ({rounds} rounds deep)" if rounds > 1 else ""
        return refutation(ex, var, value, said, self.ending(step, ex)) + depth

    @staticmethod
    def ending(step: Step, ex: Explainer) -> str:
        """What broke, in the rule's or the moves' own words."""
        if (rule := ShortContradiction.broken_rule(step, ex.model)) is not None:
            return rule
        clash = step.data["clash"]
        emptied = step.data["emptied"]
        if emptied is None:  # a move of the last round found the contradiction itself
            return ex.reason(clash[0])
        said = "; ".join(ex.text(move) for move in clash)
        return f"{ex.cell(emptied)} could hold nothing ({said})"
