"""Lookahead of depth d: assume a value, propagate with cheaper techniques, reach a contradiction.

Depth 1 propagates with every technique cheaper than itself that makes no assumption (see
:attr:`~grader.core.technique.Technique.assumptions`); depth d may nest lookaheads and other trials
up to depth d - 1 inside. At depth 1 one step removes every assumption that fails
with the shortest chain, as a person would see the simplest contradictions, and shows the
chain of the first; deeper, one step removes every assumption that fails and shows the chain
of the first (assumptions are tried on cells with fewest candidates first), as recording a
chain that nests lookaheads costs a lookahead search at each of its steps. Taking all of them
at once keeps the step and the state after it independent of the order the assumptions are
tried in, which a symmetry of the puzzle changes. The step records the assumption, the chain
of steps it forced and the contradiction reached.

A known solution (from the exact search, or one a trial completed) lets lookahead skip its
values, but only while the solution fits the state looked from: sound steps never contradict an
assumption that a solution of the state shares, so the skip saves time and changes nothing. At
the top level the exact search's solution always fits; inside an assumption it may not (the
assumption may exclude it), and skipping there would change the steps, making a rating depend
on whether the answer was known.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from grader.core.engine import Run
from grader.core.evidence import Evidence, Node, default_evidence, trial_chain
from grader.core.explain import Explainer
from grader.core.model import Model, values_of
from grader.core.step import Contradiction, Step
from grader.core.technique import Context, EngineTimeout, Technique

if TYPE_CHECKING:
    from grader.core.engine import Engine
    from grader.core.model import Model, State


class Witnesses:
    """What earlier trials propagated by one set of techniques showed: where they started and
    ended without contradiction, and how often each assumption failed or held.

    Propagation is monotone: from a narrower state it ends narrower or equal. So when a trial
    once ended at ``end`` without contradiction:

    - any assumption ``u = y`` that ``end`` decides cannot fail from a state that still holds
      every candidate of ``end``: propagating it from there cannot end narrower than ``end``
      (a fixpoint that lies within its start), so it reaches no contradiction and need not be
      tried (a known solution is the special case of a complete ``end``);
    - when the current trial of the same assumption starts within the earlier ``start``, it
      ends where ``end`` narrowed to the current trial ends, so only what differs from ``end``
      needs propagating.

    Kept per model, set of propagating techniques and knowledge of uniqueness (which some
    techniques need), within a bound on the masks stored."""

    LIMIT = 1_000_000
    """Masks kept at most per model and technique set (a few MB); past it everything kept is
    dropped and the keeping starts again."""

    def __init__(self) -> None:
        self.trials: dict[tuple[int, int], tuple[State, State]] = {}
        self.ends: dict[tuple[int, int], State] = {}
        """Assumption → the latest kept end that decides it."""
        self.stored = 0
        self.failed: dict[tuple[int, int], int] = {}
        self.held: dict[tuple[int, int], int] = {}
        """Assumption → how many of its trials failed, and how many ended without
        contradiction (the order settle tries them in)."""

    @classmethod
    def of(cls, model: Model, sub: Engine) -> Witnesses:
        """The witnesses of trials propagated by ``sub`` over ``model``."""
        names = tuple(sorted(f"{t.name}@{t.cost}" for t in sub.techniques))
        key = ("lookahead-witnesses", names, sub.unique)  # some techniques need uniqueness
        return model.memo.setdefault(key, cls())

    def holds(self, var: int, value: int, state: State) -> bool:
        """Whether a kept end shows that ``var = value`` cannot fail from ``state``."""
        end = self.ends.get((var, value))
        return end is not None and not any(e & ~s for e, s in zip(end, state, strict=True))

    def resume(self, var: int, value: int, trial: State) -> tuple[State, list[int]] | None:
        """Where to propagate ``trial`` (which assumes ``var = value``) from: a kept end
        narrowed to it and the variables that narrowing changed; None when ``trial`` does
        not lie within the kept start."""
        kept = self.trials.get((var, value))
        if kept is None:
            return None
        start, end = kept
        if any(t & ~s for t, s in zip(trial, start, strict=True)):
            return None
        narrowed = [e & t for e, t in zip(end, trial, strict=True)]
        return narrowed, [v for v, (n, e) in enumerate(zip(narrowed, end, strict=True)) if n != e]

    def failing_share(self, trial: tuple[int, int]) -> float:
        """The share of the trials of this assumption that failed, as if one had failed and
        one had not before any (Laplace's rule of succession): 0.5 for one never tried."""
        failed = self.failed.get(trial, 0)
        return (failed + 1) / (failed + self.held.get(trial, 0) + 2)

    def keep(self, var: int, value: int, start: State, end: State) -> None:
        """Remember that the trial ``var = value`` went from ``start`` to ``end`` without
        contradiction."""
        if self.stored + 2 * len(end) > self.LIMIT:  # counts every list kept since the last
            self.trials.clear()  # start, as ``ends`` may still hold one a trial replaced
            self.ends.clear()
            self.stored = 0
        self.stored += 2 * len(end)
        self.trials[var, value] = (start, end)
        ends = self.ends
        for u, mask in enumerate(end):
            if mask & (mask - 1) == 0:  # decided (an end without contradiction has no 0)
                ends[u, mask.bit_length() - 1] = end


_REFUTED: WeakKeyDictionary[Engine, tuple[State, set[tuple[int, int]]]] = WeakKeyDictionary()
"""Per engine a deeper lookahead's trials run in (one per scan): the state the scan started
from and the assumptions whose trials failed from there."""


def refute(engine: Engine, start: State, var: int, value: int) -> None:
    """Remember that the trial ``var = value`` from ``start`` (kept as it is: the caller
    passes a copy it does not change), propagated by ``engine``, failed."""
    kept = _REFUTED.get(engine)
    if kept is None or kept[0] is not start:
        kept = _REFUTED[engine] = (start, set())
    kept[1].add((var, value))


def refuted_in(engine: Engine, state: State) -> tuple[int, int] | None:
    """A failed assumption of the scan whose trials ``engine`` propagates that ``state``
    decides while lying within the scan's start, if any: propagation is monotone, so
    ``engine`` propagating ``state`` ends in a contradiction too. Only the engine the trials
    ran in reads them (another with the same techniques may not verify the rules, and a state
    without a solution may then end without a contradiction)."""
    kept = _REFUTED.get(engine)
    if kept is None:
        return None
    start, failed = kept
    for var, value in failed:
        if state[var] == 1 << value and not any(s & ~t for s, t in zip(state, start, strict=True)):
            return var, value
    return None


def fits(solution: list[int], state: list[int]) -> bool:
    """Whether every variable of ``state`` still has the solution's value."""
    return all(mask >> value & 1 for mask, value in zip(state, solution, strict=True))


ROUND_BONUS_CAP = 1.9
"""The most a long chain adds to a lookahead's cost: it stays below the next depth's (+2)."""


def move_read(move: Step, model: Model) -> frozenset[int]:
    """The variables a move of a trial read (its units' when it names no cells)."""
    evidence = default_evidence(move, model)
    return evidence.used or evidence.units


def move_nodes(move: Step) -> list[Node]:
    """What a move of a trial concluded: its placements, else its eliminations."""
    if move.placements:
        return [Node(var, value, True) for var, value in move.placements]
    return [Node(var, value, False) for var, value in move.eliminations]


def round_bonus(rounds: int) -> float:
    """What a depth-1 lookahead costs beyond its table cost when its contradiction comes after
    ``rounds`` waves of deductions: nothing for one, half a point per doubling (2: 0.5, 4:
    1.0, 8: 1.5), at most :data:`ROUND_BONUS_CAP`, as Sudoku Explainer's chains cost more as
    they grow. A contradiction one round away is seen at a glance; ten rounds deep is a trial."""
    return min(ROUND_BONUS_CAP, round(0.5 * math.log2(max(1, rounds)), 1))


def refutation(ex: Explainer, var: int, value: int, said: str, ending: str) -> str:
    """``if r1c1 were S, then <said>; but then <ending>``, or ``..., then <ending>`` when the
    assumption breaks a rule before any move (``said`` empty): how a trial's sentence reads."""
    then = f", then {said}; but then" if said else ", then"
    return f"if {ex.cell(var)} were {ex.value(value)}{then} {ending}"


class Lookahead(Technique):
    name = "lookahead"
    title = "Lookahead"
    description = (
        "Assume a cell holds a value and follow what the cheaper techniques deduce from it; if "
        "that leads to a contradiction the value is removed. Depth d allows d nested "
        "assumptions."
    )
    batch = False

    def __init__(
        self, cost: float, level: str = "", name: str | None = None, depth: int = 1
    ) -> None:
        super().__init__(cost, level, name or self.default_name(depth=depth))
        self.depth = depth
        self.assumptions = depth

    @classmethod
    def default_name(cls, depth: int = 1, **kwargs: Any) -> str:
        return f"lookahead-{depth}"

    def inner(self, techniques: Sequence[Technique]) -> list[Technique]:
        """The techniques its trials are followed with: the cheaper ones making fewer nested
        assumptions than its depth (no guessing)."""
        return [
            t
            for t in techniques
            if t.cost < self.cost and t.assumptions < self.depth and t.name != "guess"
        ]

    def find(self, ctx: Context) -> Iterator[Step]:
        engine = ctx.engine
        sub = engine.sub_engine(self.inner(engine.techniques))
        if ctx.settle:
            yield from self._settle_find(ctx, sub)
            return
        if self.depth > 1:
            yield from self._nested_find(ctx, sub)
            return
        best: list[tuple[int, int, Run]] = []  # the failing assumptions of the shortest chain
        witnesses = Witnesses.of(ctx.model, sub)
        for var, value in self._open_trials(ctx, witnesses):
            cap = len(best[0][2].steps) if best else None
            run = self._trial(ctx, sub, witnesses, var, value, cap)
            if run.status != "contradiction" or (cap is not None and len(run.steps) > cap):
                continue
            if cap is not None and len(run.steps) < cap:
                best = []
            best.append((var, value, run))
        if best:
            rounds = min(len(run.waves) for _, _, run in best)
            step = self._step(best[0][2], [(var, value) for var, value, _ in best], rounds)
            yield replace(step, cost=round(self.cost + round_bonus(rounds), 2))

    def _nested_find(self, ctx: Context, sub: Engine) -> Iterator[Step]:
        """Deeper than 1: every assumption that fails, found without a record, and the chain
        of the first (cells with fewest candidates first) recorded, as recording a chain that
        nests lookaheads costs a lookahead search at each of its steps (``bench/siteswap.py``
        times the shared siteswaps that need it). Each failure is remembered with this state
        and the engine the trials run in (:func:`refute`): a later trial whose
        propagation decides it fails there and then, as it would fail at the end (propagation
        is monotone)."""
        failed: list[tuple[int, int]] = []
        first: Run | None = None
        witnesses = Witnesses.of(ctx.model, sub)
        root = list(ctx.state)
        for var, value in self._open_trials(ctx, witnesses):
            run = self._trial(ctx, sub, witnesses, var, value, None, record=first is None)
            if run.status == "contradiction":
                refute(sub, root, var, value)
                failed.append((var, value))
                first = first or run
        if first is not None:
            yield self._step(first, failed)

    def _step(self, run: Run, failed: list[tuple[int, int]], rounds: int | None = None) -> Step:
        """One step removing every failing assumption of ``failed`` (a wave: all that fail
        alike, so that which is found first never matters), explained by the first one's
        chain (``run``); ``rounds``: the fewest waves of deductions any of them took to reach
        its contradiction (depth 1 prices the step by it)."""
        return self.make(
            eliminations=failed,
            assume=failed[0],
            also=tuple(failed[1:]),
            chain=tuple(run.steps),
            contradiction_reason=run.contradiction.reason if run.contradiction else "",
            depth=self.depth,
            rounds=rounds,
        )

    def _settle_find(self, ctx: Context, sub: Engine) -> Iterator[Step]:
        """For a caller that keeps no steps: the first assumption that fails, found by
        propagating without a record, in a step of its own; the caller propagates it and asks
        again. A failing assumption still fails as the state narrows and propagation is
        monotone, so this ends where one shortest-chain step at a time would end, whatever
        the order of the trials. They are tried by the share of their earlier trials on this
        model that failed, highest first (the assumptions that break one branch of a deeper
        lookahead tend to break the next), as every failure found narrows the state the next
        trials start from, and a branch that fails is dropped at its first contradiction.
        When this propagation is itself a deeper lookahead's trial and its state decides an
        assumption that failed from that lookahead's state (:func:`refuted_in`),
        it fails at once: it would fail at the end."""
        condemned = refuted_in(ctx.engine, ctx.state)
        if condemned is not None:  # the propagation this runs in fails: say so at once
            reason = "an assumption it decides failed from a state holding this one"
            yield self.make(
                contradiction=reason,
                assume=condemned,
                also=(),
                chain=(),
                contradiction_reason=reason,
                depth=self.depth,
            )
            return
        witnesses = Witnesses.of(ctx.model, sub)
        failed, held = witnesses.failed, witnesses.held
        order = sorted(self.trials(ctx), key=lambda t: -witnesses.failing_share(t))
        for var, value in self._open_trials(ctx, witnesses, order):
            run = self._trial(ctx, sub, witnesses, var, value, None)
            if run.status == "contradiction":
                failed[var, value] = failed.get((var, value), 0) + 1
                yield self.make(
                    eliminations=[(var, value)],
                    assume=(var, value),
                    also=(),
                    chain=(),
                    contradiction_reason=run.contradiction.reason if run.contradiction else "",
                    depth=self.depth,
                )
                return
            held[var, value] = held.get((var, value), 0) + 1

    def _open_trials(
        self, ctx: Context, witnesses: Witnesses, order: Iterable[tuple[int, int]] | None = None
    ) -> Iterator[tuple[int, int]]:
        """The trials that may fail, of ``order`` (default: :meth:`trials`): not a value of a
        known solution of this state, nor one whose earlier propagation ended, without
        contradiction, inside this state."""
        engine = ctx.engine
        state = ctx.state
        fitting: list[list[int]] = []  # known solutions that fit this state
        seen = 0
        for var, value in self.trials(ctx) if order is None else order:
            ctx.check_time()
            if seen < len(engine.solutions):  # a trial may have completed a new one
                fitting += [s for s in engine.solutions[seen:] if fits(s, state)]
                seen = len(engine.solutions)
            if any(s[var] == value for s in fitting):
                continue  # a value of a solution of this state never leads to a contradiction
            if witnesses.holds(var, value, state):
                continue
            yield var, value

    def _trial(
        self,
        ctx: Context,
        sub: Engine,
        witnesses: Witnesses,
        var: int,
        value: int,
        cap: int | None,
        record: bool = True,
    ) -> Run:
        """Propagate the assumption ``var = value``. Until a failing one is known (``cap``
        None) it goes first without a record (resumed from an earlier end where one fits), as
        most assumptions lead nowhere, and again with a record only when it fails (and
        ``record``); both ways end alike. Once one is known, the record is cut after the wave
        that reaches ``cap`` steps, which costs less than propagating to the end. A solution it
        completes is learnt and an end without contradiction kept."""
        trial = list(ctx.state)
        trial[var] = 1 << value
        if ctx.settle or cap is None:
            run = self._settled(sub, witnesses, var, value, trial)
            if run.status == "contradiction" and not ctx.settle and record:
                run = sub.run(trial, changed=[var], max_steps=cap)
        else:
            run = sub.run(trial, changed=[var], max_steps=cap)
        if run.status == "timeout":
            raise EngineTimeout
        if run.status == "solved":
            ctx.engine.learn_solution(run.state)
        if run.status in ("solved", "stuck"):
            witnesses.keep(var, value, trial, run.state)
        return run

    def _settled(
        self, sub: Engine, witnesses: Witnesses, var: int, value: int, trial: State
    ) -> Run:
        """The trial propagated without a record, from an earlier end where one fits."""
        resumed = witnesses.resume(var, value, trial)
        if resumed is None:
            return sub.settle(trial, changed=[var])
        if 0 in resumed[0]:
            return Run([], resumed[0], "contradiction", Contradiction("no candidate left"))
        return sub.settle(resumed[0], changed=resumed[1])

    @property
    def tries_every_assumption(self) -> bool:
        """Whether it tries every value of every open variable (a family's subclass that
        narrows :meth:`trial_vars` or :meth:`trials` does not)."""
        cls = type(self)
        return cls.trial_vars is Lookahead.trial_vars and cls.trials is Lookahead.trials

    def trial_vars(self, ctx: Context) -> Iterator[int]:
        """The open variables whose values are tried (a family may narrow them to its cells)."""
        return (v for v, m in enumerate(ctx.state) if m & (m - 1))

    def trials(self, ctx: Context) -> Iterator[tuple[int, int]]:
        """The assumptions to try, cells with fewest candidates first. A family whose model
        states one fact in two cells may override this to try each fact once."""
        state = ctx.state
        order = sorted(self.trial_vars(ctx), key=lambda v: (state[v].bit_count(), v))
        return ((var, value) for var in order for value in values_of(state[var]))

    def evidence(self, step: Step, model: Model) -> Evidence:
        """The assumption and what followed from it, as nodes linked by implications (each
        move's conclusions from the nodes on the cells it read), the cells of the chain, and
        the contradiction reached."""
        found = default_evidence(step, model)
        if found.assumption is None:
            return found
        moves = [
            (move_read(move, model), move_nodes(move))
            for move in step.data.get("chain", ())
            if move.placements or move.eliminations
        ]
        chain = trial_chain(found.assumption, moves)
        used = found.used | {node.var for node in chain.nodes}
        return found.with_(used=used, nodes=tuple(chain.nodes), links=tuple(chain.links))

    def explain(self, step: Step, ex: Explainer) -> str:
        var, value = step.data["assume"]
        chain = step.data["chain"]
        said = [ex.text(s) for s in chain if not s.contradiction]
        text = refutation(ex, var, value, "; ".join(said), step.data["contradiction_reason"])
        rounds = step.data.get("rounds")
        if rounds and rounds > 1:
            text += f" ({rounds} rounds of deductions deep)"
        also = step.data.get("also", ())  # the other assumptions of a wave that fail alike
        if also:
            others = ", ".join(f"{ex.cell(v)} ≠ {ex.value(x)}" for v, x in also)
            text += f"; other assumptions fail likewise ({others})"
        return text
