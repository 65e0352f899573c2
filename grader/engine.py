"""The propagation loop.

Ask the techniques in increasing cost for steps; apply what the cheapest one that finds anything
found; record it; start again from the cheapest. Stop when solved, stuck or contradicted. Local
techniques are rescanned only on constraints whose variables changed since they last found
nothing there, so a long solve costs little more than its steps.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from itertools import islice

from grader.model import Model, State, is_single
from grader.step import Contradiction, Step
from grader.technique import Context, EngineTimeout, Technique


@dataclass
class Run:
    """The outcome of a propagation: the steps taken and where they led."""

    steps: list[Step]
    state: State
    status: str
    """``solved``, ``stuck``, ``contradiction``, ``timeout`` or ``limit``."""
    contradiction: Contradiction | None = None
    elapsed: float = 0.0

    @property
    def solved(self) -> bool:
        return self.status == "solved"

    @property
    def hardest(self) -> float:
        """The cost of the hardest step (0 without steps)."""
        return max((s.cost for s in self.steps), default=0.0)


@dataclass
class Plan:
    """Techniques sorted by cost, the constraints each one scans, and who watches which variable."""

    techniques: tuple[Technique, ...]
    units: list[list[int] | None]
    watchers: list[list[tuple[int, int]]] = field(repr=False)

    @classmethod
    def build(cls, model: Model, techniques: Iterable[Technique]) -> Plan:
        ordered = tuple(sorted(techniques, key=lambda t: t.cost))
        units: list[list[int] | None] = []
        watchers: list[list[tuple[int, int]]] = [[] for _ in model.variables]
        for ti, technique in enumerate(ordered):
            if not technique.local:
                units.append(None)
                continue
            mine = [
                ci
                for ci, constraint in enumerate(model.constraints)
                if technique.applies_to(constraint, model)
            ]
            units.append(mine)
            for ci in mine:
                for var in set(technique.scope(model.constraints[ci], model)):
                    watchers[var].append((ti, ci))
        return cls(ordered, units, watchers)


def apply_step(state: State, step: Step) -> tuple[list[int], int | None]:
    """Apply a step's conclusions in place: the variables changed and one left empty, if any."""
    changed: list[int] = []
    emptied = None
    for var, value in step.placements:
        mask = state[var]
        new = mask & (1 << value)
        if new != mask:
            state[var] = new
            changed.append(var)
            if not new:
                emptied = var
    for var, value in step.eliminations:
        mask = state[var]
        if mask >> value & 1:
            state[var] = mask & ~(1 << value)
            changed.append(var)
            if not state[var]:
                emptied = var
    if len(changed) > 1:
        changed = list(dict.fromkeys(changed))  # a variable may lose several values in one step
    return changed, emptied


def effective(step: Step, state: State) -> Step | None:
    """The step cut down to the conclusions that still change ``state`` (None: nothing left)."""
    placements = tuple((v, x) for v, x in step.placements if state[v] != 1 << x)
    eliminations = tuple((v, x) for v, x in step.eliminations if state[v] >> x & 1)
    if not placements and not eliminations and step.contradiction is None:
        return None
    if placements == step.placements and eliminations == step.eliminations:
        return step
    return replace(step, placements=placements, eliminations=eliminations)


class Engine:
    """Runs techniques over a model, cheapest first."""

    def __init__(
        self,
        model: Model,
        techniques: Iterable[Technique],
        *,
        deadline: float | None = None,
        solutions: Sequence[list[int]] = (),
        unique: bool = True,
        verify: bool = True,
    ) -> None:
        self.model = model
        self.deadline = deadline
        self.solutions = tuple(solutions)
        """Solutions known from the exact search (lookahead skips their values, guess uses one)."""
        self.unique = unique and len(self.solutions) == 1
        """Whether ``solutions`` is known to be the only one (the exact search said so); a
        generator knows a solution of a puzzle that may still have others."""
        self.verify = verify
        """Look for visible rule breaks after every step. Only a puzzle known to have a solution
        may skip this (sound steps never break a rule there); lookahead always verifies."""
        self._plans: dict[tuple[str, ...], Plan] = model.memo.setdefault("plans", {})
        self.plan = self._plan_for(list(techniques))

    @property
    def techniques(self) -> tuple[Technique, ...]:
        return self.plan.techniques

    def _plan_for(self, techniques: list[Technique]) -> Plan:
        key = tuple(sorted(f"{t.name}@{t.cost}" for t in techniques))
        plan = self._plans.get(key)
        if plan is None:
            plan = Plan.build(self.model, techniques)
            self._plans[key] = plan
        return plan

    def sub_engine(self, techniques: Sequence[Technique]) -> Engine:
        """An engine over the same model with fewer techniques (for lookahead)."""
        sub = Engine.__new__(Engine)
        sub.model, sub.deadline, sub.solutions, sub._plans = (
            self.model,
            self.deadline,
            self.solutions,
            self._plans,
        )
        sub.unique = self.unique
        sub.verify = True
        sub.plan = self._plan_for(list(techniques))
        return sub

    def learn_solution(self, state: State) -> None:
        """Remember a complete, consistent state found on the way (lookahead skips its values)."""
        values = [mask.bit_length() - 1 for mask in state]
        if values not in self.solutions and self.check_state(state) is None:
            self.solutions = (*self.solutions, values)
            self.unique = False  # only the exact search can say a solution is the only one

    def check_state(
        self, state: State, constraints: Iterable[int] | None = None
    ) -> Contradiction | None:
        """The first visible violation among the given constraints (default: all)."""
        model = self.model
        indices = range(len(model.constraints)) if constraints is None else constraints
        for ci in indices:
            constraint = model.constraints[ci]
            reason = constraint.check(state)
            if reason is not None:
                return Contradiction(f"{constraint.label} {reason}", unit=constraint.label)
        if constraints is None:
            for var, mask in enumerate(state):
                if not mask:
                    return Contradiction(f"{model.name(var)} has no candidate left", var=var)
        return None

    def run(
        self,
        state: State,
        *,
        changed: Iterable[int] | None = None,
        max_steps: int | None = None,
    ) -> Run:
        """Propagate from ``state`` (a copy is made) until solved, stuck or contradicted.

        ``changed``: only these variables differ from a state where every technique was already
        exhausted (lookahead); by default everything is scanned.
        """
        started = time.monotonic()
        state = list(state)
        plan = self.plan
        model = self.model
        steps: list[Step] = []
        if changed is None:
            dirty = [set(u) if u is not None else None for u in plan.units]
            stale = [True] * len(plan.techniques)
            problem = self.check_state(state) if self.verify else None
        else:
            changed = list(changed)
            dirty = [set() if u is not None else None for u in plan.units]
            for var in changed:
                for ti, ci in plan.watchers[var]:
                    dirty[ti].add(ci)  # type: ignore[union-attr]
            stale = [True] * len(plan.techniques)
            problem = (
                self.check_state(state, {ci for v in changed for ci in model.var_constraints[v]})
                if self.verify
                else None
            )
        if problem is not None:
            return Run(steps, state, "contradiction", problem, time.monotonic() - started)
        open_count = sum(1 for mask in state if mask & (mask - 1))
        ctx = Context(model, state, self)
        status = "solved" if open_count == 0 else "stuck"
        try:
            while open_count:
                if max_steps is not None and len(steps) >= max_steps:
                    status = "limit"
                    break
                ctx.check_time()
                wave = self._next_wave(ctx, dirty, stale)
                if not wave:
                    status = "stuck"
                    break
                ctx.memo.clear()
                for found in wave:
                    step = effective(found, state)
                    if step is None:
                        continue
                    changed_vars, emptied = apply_step(state, step)
                    steps.append(step)
                    if step.contradiction is not None:
                        contradiction = Contradiction(step.contradiction, step=step)
                        return Run(
                            steps, state, "contradiction", contradiction, time.monotonic() - started
                        )
                    if emptied is not None:
                        contradiction = Contradiction(
                            f"{model.name(emptied)} has no candidate left", step=step, var=emptied
                        )
                        return Run(
                            steps, state, "contradiction", contradiction, time.monotonic() - started
                        )
                    for var in changed_vars:
                        if is_single(state[var]):
                            open_count -= 1
                        for ti, ci in plan.watchers[var]:
                            dirty[ti].add(ci)  # type: ignore[union-attr]
                    for ti in range(len(stale)):
                        stale[ti] = True
                    if not self.verify:
                        continue
                    touched = {ci for var in changed_vars for ci in model.var_constraints[var]}
                    problem = self.check_state(state, sorted(touched))
                    if problem is not None:
                        problem = replace(problem, step=step)
                        return Run(
                            steps, state, "contradiction", problem, time.monotonic() - started
                        )
                status = "solved" if open_count == 0 else "stuck"
        except EngineTimeout:
            status = "timeout"
        return Run(steps, state, status, None, time.monotonic() - started)

    def next_steps(self, state: State) -> list[Step]:
        """The steps the cheapest productive technique finds now (the hint)."""
        plan = self.plan
        dirty = [set(u) if u is not None else None for u in plan.units]
        stale = [True] * len(plan.techniques)
        ctx = Context(self.model, list(state), self)
        return self._next_wave(ctx, dirty, stale)

    def _next_wave(
        self, ctx: Context, dirty: list[set[int] | None], stale: list[bool]
    ) -> list[Step]:
        constraints = self.model.constraints
        for ti, technique in enumerate(self.plan.techniques):
            pending = dirty[ti]
            if pending is None:
                if not stale[ti]:
                    continue
                found = list(islice(technique.find(ctx), None if technique.batch else 1))
                if found:
                    return found
                stale[ti] = False
                continue
            if not pending:
                continue
            wave: list[Step] = []
            for ci in sorted(pending):
                found = list(
                    islice(technique.find_in(ctx, constraints[ci]), None if technique.batch else 1)
                )
                if found:
                    wave.extend(found)
                    if not technique.batch:
                        break
                else:
                    pending.discard(ci)
            if wave:
                return wave
        return []
