"""The propagation loop.

Ask the techniques in increasing cost for steps; apply what the cheapest one that finds anything
found; record it; start again from the cheapest. Stop when solved, stuck or contradicted. Local
techniques are rescanned only on constraints whose variables changed since they last found
nothing there, so a long solve costs little more than its steps.
"""

from __future__ import annotations

import copy
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import InitVar, dataclass, field, replace
from itertools import islice
from typing import Any

from grader.core.constraints import Constraint, spoken
from grader.core.model import Model, State, is_single
from grader.core.shared import SharedByKey
from grader.core.step import Assignment, Contradiction, Step
from grader.core.technique import Context, EngineTimeout, JointScan, Technique, check_deadline


@dataclass
class Run:
    """The outcome of a propagation: the steps taken and where they led."""

    steps: list[Step]
    state: State | bytearray
    """The end state (a ``bytearray`` from :meth:`Engine.settle` given one)."""
    status: str
    """``solved``, ``stuck``, ``contradiction``, ``timeout``, ``limit`` or ``decided`` (see
    :meth:`Engine.settle`)."""
    contradiction: Contradiction | None = None
    elapsed: float = 0.0
    open_count: int | None = None
    """How many variables ``state`` leaves open, when counted (:meth:`Engine.settle`)."""
    waves: list[int] = field(default_factory=list)
    """How many of ``steps`` each wave took, in order (:meth:`Engine.run`): the moves made
    together because the cheapest technique found them all on the same state."""
    stated: frozenset[int] | None = None
    """The variables stated when the run ended, when it tracked them (:meth:`Engine.run`)."""

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
    by_unit: dict[int, list[Technique]] = field(default_factory=dict, repr=False)
    """Constraint → the local techniques that scan it, cheapest first (:meth:`Engine.settle`)."""
    unit_watchers: list[list[int]] = field(default_factory=list, repr=False)
    """Variable → the constraints some local technique rescans when it changes."""
    joint: dict[int, JointScan] = field(default_factory=dict, repr=False)
    """Constraint → its local techniques scanned as one (:meth:`Technique.joint_scan`)."""
    watch_classes: list[tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]] = field(
        default_factory=list, repr=False
    )
    """Techniques that watch alike (the same constraints for every variable, as the house
    techniques of a sudoku do), each class with its map variable → constraints: a change is
    spread once per class, not once per technique."""
    settle_globals: tuple[Technique, ...] = field(init=False, repr=False)
    """The global techniques :meth:`Engine.settle` runs, cheapest first: those no other one
    settles for (:meth:`Technique.settled_by`)."""

    deadline: InitVar[float | None] = None
    """Past it (a ``time.monotonic`` reading) the making stops with :class:`EngineTimeout`."""

    def __post_init__(self, deadline: float | None) -> None:
        globals_ = [t for t in self.techniques if not t.local]
        self.settle_globals = tuple(
            t
            for t in globals_
            if not any(
                u is not t
                and t.settled_by(u, self.techniques)
                and not u.settled_by(t, self.techniques)  # never drop both of a pair
                for u in globals_
            )
        )
        self.watch_classes = classes_of_watchers(self.watchers, deadline)

    @classmethod
    def build(
        cls, model: Model, techniques: Iterable[Technique], deadline: float | None = None
    ) -> Plan:
        """The plan of ``techniques`` over ``model``; past ``deadline`` (a ``time.monotonic``
        reading) the making stops with :class:`EngineTimeout` (a 200x200 binairo with distinct
        lines watches 16 million pairs: tens of seconds)."""
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
                check_deadline(deadline)
                pair = (ti, ci)  # one tuple shared by every variable it watches
                for var in set(technique.scope(model.constraints[ci], model)):
                    watchers[var].append(pair)
        by_unit: dict[int, list[Technique]] = {}
        for ti, mine in enumerate(units):
            for ci in mine or ():
                by_unit.setdefault(ci, []).append(ordered[ti])
        unit_watchers = []
        for pairs in watchers:
            check_deadline(deadline)
            unit_watchers.append(sorted({ci for _, ci in pairs}))
        joint = {}
        for ci, scanners in by_unit.items():
            scan = scanners[0].joint_scan(model.constraints[ci], scanners)
            if scan is not None:
                joint[ci] = scan
        by_unit = dict(sorted(by_unit.items()))
        return cls(ordered, units, watchers, by_unit, unit_watchers, joint, deadline=deadline)


def classes_of_watchers(
    watchers: Sequence[Sequence[tuple[int, int]]], deadline: float | None = None
) -> list[tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]]:
    """The techniques that watch alike (:attr:`Plan.watch_classes`) from the watchers of every
    variable; past ``deadline`` it stops with :class:`EngineTimeout`."""
    per_technique: dict[int, list[tuple[int, ...]]] = {}
    for var, pairs in enumerate(watchers):
        check_deadline(deadline)
        by_technique: dict[int, list[int]] = {}
        for ti, ci in pairs:
            by_technique.setdefault(ti, []).append(ci)
        for ti, cis in by_technique.items():
            watched = per_technique.get(ti)
            if watched is None:
                watched = per_technique[ti] = [()] * len(watchers)
            watched[var] = tuple(cis)
    classes: dict[tuple[tuple[int, ...], ...], list[int]] = {}
    for ti, watched in sorted(per_technique.items()):
        classes.setdefault(tuple(watched), []).append(ti)
    return [(tuple(tis), watched) for watched, tis in classes.items()]


def apply_step(state: State, step: Step) -> tuple[list[int], int | None]:
    """Apply a step's conclusions in place: the variables changed and one left empty, if any."""
    return apply_conclusions(state, step.placements, step.eliminations)


def apply_conclusions(
    state: State, placements: Iterable[Assignment], eliminations: Iterable[Assignment] = ()
) -> tuple[list[int], int | None]:
    """Apply placements and eliminations in place: the variables changed and one left empty."""
    changed: list[int] = []
    emptied = None
    for var, value in placements:
        mask = state[var]
        new = mask & (1 << value)
        if new != mask:
            state[var] = new
            changed.append(var)
            if not new:
                emptied = var
    for var, value in eliminations:
        mask = state[var]
        if mask >> value & 1:
            state[var] = mask & ~(1 << value)
            changed.append(var)
            if not state[var]:
                emptied = var
    if len(changed) > 1:
        changed = list(dict.fromkeys(changed))  # a variable may lose several values in one step
    return changed, emptied


class _Stop(Exception):
    """A contradiction found while propagating (ends :meth:`Engine.run` or
    :meth:`Engine.settle`)."""

    def __init__(self, problem: Contradiction) -> None:
        super().__init__(problem.reason)
        self.problem = problem


_OPEN_BYTE = bytes(int(mask.bit_count() > 1) for mask in range(256))
"""A mask of at most 8 values → 1 when it holds more than one candidate, else 0."""


def count_open(state: State) -> int:
    """How many variables have more than one candidate left."""
    if len(state) > 64:
        try:  # masks of at most 8 values: one C-level pass each to pack, classify and count
            return bytes(state).translate(_OPEN_BYTE).count(1)
        except ValueError:  # a wider mask
            pass
        widest = max(state)  # C-level passes: one count per single value, and the empty mask
        if widest < 1 << 16:
            singles = sum(state.count(1 << k) for k in range(widest.bit_length()))
            return len(state) - singles - state.count(0)
    return sum(map((1).__lt__, map(int.bit_count, state)))


def effective(
    step: Step, state: State, stated: set[int] | frozenset[int] | None = None
) -> Step | None:
    """The step with only the eliminations that still change ``state`` (None: nothing left).
    Its placements stay whole while it changes anything: a full house whose last cell already
    had one candidate still places that value (it is what the step says, and Sudoku
    Explainer's EP counts it as a placement), crossing it out of the peers. With ``stated``
    (the variables already stated), a placement of any other variable changes something."""
    eliminations = step.eliminations
    if eliminations:
        eliminations = tuple((v, x) for v, x in eliminations if state[v] >> x & 1)
    if not eliminations and step.contradiction is None:
        for v, x in step.placements:
            if state[v] != 1 << x or (stated is not None and v not in stated):
                break  # a placement that changes something
        else:
            return None
    if eliminations == step.eliminations:
        return step
    return replace(step, eliminations=eliminations)


_SHARED_PLANS: SharedByKey[Plan] = SharedByKey(32)
"""Plans kept for models of the same key (least recently used dropped)."""


def plan_key(techniques: Iterable[Technique]) -> tuple[str, ...]:
    """What tells plans apart over one model: each technique's class, name, cost and level."""
    return tuple(sorted(f"{type(t).__qualname__}:{t.name}@{t.cost}:{t.level}" for t in techniques))


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
        """Solutions known from the exact search or found on the way (guess uses one; lookahead
        skips the values of those that still fit the state it looks from)."""
        self.unique = unique and len(self.solutions) == 1
        """Whether ``solutions`` is known to be the only one (the exact search said so); a
        generator knows a solution of a puzzle that may still have others."""
        self.verify = verify
        """Look for visible rule breaks after every step. Only a puzzle known to have a solution
        may skip this (sound steps never break a rule there); lookahead always verifies."""
        self._plans: dict[tuple[str, ...], Plan] = model.memo.setdefault("plans", {})
        self._wanted = list(techniques)
        self._plan: Plan | None = self._plans.get(plan_key(self._wanted))

    @property
    def plan(self) -> Plan:
        """The plan of the engine's techniques, made on first use (it may take long on a big
        model: past the deadline its making raises :class:`EngineTimeout`)."""
        if self._plan is None:
            self._plan = self._plan_for(self._wanted)
        return self._plan

    @plan.setter
    def plan(self, plan: Plan) -> None:
        self._plan = plan

    @property
    def techniques(self) -> tuple[Technique, ...]:
        """The techniques, cheapest first (as the plan orders them, without making it)."""
        if self._plan is None:
            return tuple(sorted(self._wanted, key=lambda t: t.cost))
        return self._plan.techniques

    def _plan_for(self, techniques: list[Technique]) -> Plan:
        """The plan of these techniques over this model: kept on the model, and shared by
        models of the same key (the same constraints: every 9x9 sudoku), as building one costs
        more than grading an easy puzzle (techniques keep no state between runs)."""
        key = plan_key(techniques)
        plan = self._plans.get(key)
        if plan is None:
            plan = _SHARED_PLANS.get(
                (self.model.key, key), lambda: Plan.build(self.model, techniques, self.deadline)
            )
            self._plans[key] = plan
        return plan

    def sub_engine(self, techniques: Sequence[Technique]) -> Engine:
        """An engine over the same model with fewer techniques (for lookahead): a copy of this
        one (every setting kept, so a new one cannot be dropped here) with its own plan, its
        own list of known solutions and rule checks after every step."""
        sub = copy.copy(self)
        sub.verify = True
        sub._wanted = list(techniques)
        sub.plan = self._plan_for(sub._wanted)
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
                reason = spoken(reason, model)
                return Contradiction(f"{constraint.label} {reason}", unit=constraint.label)
        if constraints is None:
            for var, mask in enumerate(state):
                if not mask:
                    return Contradiction(f"{model.name(var)} has no candidate left", var=var)
        return None

    def _conclude(
        self,
        state: State,
        placements: Sequence[Assignment],
        eliminations: Sequence[Assignment],
        step: Step | None,
    ) -> list[int]:
        """Apply conclusions in place (both schedulers, :meth:`run` and :meth:`settle`): the
        variables changed. Raises :class:`_Stop` on the step's own contradiction, an emptied
        variable or (when verifying) a rule the changed variables visibly break."""
        changed_vars, emptied = apply_conclusions(state, placements, eliminations)
        if step is not None and step.contradiction is not None:
            raise _Stop(Contradiction(step.contradiction, step=step))
        if emptied is not None:
            reason = f"{self.model.name(emptied)} has no candidate left"
            raise _Stop(Contradiction(reason, step=step, var=emptied))
        if changed_vars and self.verify:
            touched = {ci for var in changed_vars for ci in self.model.var_constraints[var]}
            problem = self.check_state(state, sorted(touched))
            if problem is not None:
                raise _Stop(replace(problem, step=step))
        return changed_vars

    def run(
        self,
        state: State,
        *,
        changed: Iterable[int] | None = None,
        max_steps: int | None = None,
        pause_at: Callable[[Technique], bool] | None = None,
        stated: Iterable[int] | None = None,
    ) -> Run:
        """Propagate from ``state`` (a copy is made) until solved, stuck or contradicted.

        ``changed``: only these variables differ from a state where every technique was already
        exhausted (lookahead); by default everything is scanned. ``pause_at``: stop (status
        ``paused``) instead of asking a technique it accepts, when every cheaper one is done:
        a run resumed from there ends as one that never paused. ``stated``: the variables the
        puzzle states (its givens; a paused run's :attr:`Run.stated`): the run then goes on
        until a step has stated every variable it can (:attr:`Context.stated`), so a cell left
        with one candidate by eliminations is still placed by a step the reader sees.
        """
        started = time.monotonic()
        state = list(state)
        try:
            plan = self.plan
        except EngineTimeout:
            return Run([], state, "timeout", None, time.monotonic() - started)
        model = self.model
        steps: list[Step] = []
        waves: list[int] = []
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
        open_count = count_open(state)
        ctx = Context(model, state, self, stated=None if stated is None else set(stated))
        said = ctx.stated
        everything = len(state)
        status = "solved" if open_count == 0 else "stuck"
        every_stale = [True] * len(stale)
        pauses = None if pause_at is None else [bool(pause_at(t)) for t in plan.techniques]
        try:
            while open_count or (said is not None and len(said) < everything):
                if max_steps is not None and len(steps) >= max_steps:
                    status = "limit"
                    break
                ctx.check_time()
                wave = self._next_wave(ctx, dirty, stale, pauses)
                if wave is None:
                    status = "paused"
                    break
                if not wave:
                    status = "solved" if open_count == 0 else "stuck"
                    break
                ctx.memo.clear()
                taken = len(steps)
                try:
                    open_count -= self._apply_wave(state, wave, steps, dirty, said, ctx.views)
                finally:
                    waves.append(len(steps) - taken)
                if len(steps) == taken:  # steps that change nothing: asking again finds them
                    waves.pop()
                    status = "solved" if open_count == 0 else "stuck"
                    break
                stale[:] = every_stale
                status = "solved" if open_count == 0 else "stuck"
        except _Stop as stop:
            elapsed = time.monotonic() - started
            return Run(steps, state, "contradiction", stop.problem, elapsed, waves=waves)
        except EngineTimeout:
            status = "timeout"
        elapsed = time.monotonic() - started
        told = None if said is None else frozenset(said)
        return Run(steps, state, status, None, elapsed, waves=waves, stated=told)

    def _apply_wave(
        self,
        state: State,
        wave: Sequence[Step],
        steps: list[Step],
        dirty: list[set[int] | None],
        stated: set[int] | None = None,
        views: dict[Constraint, Any] | None = None,
    ) -> int:
        """Apply a wave as one move: every step found on the state before it, with the
        conclusions that change that state (a step concluding what another of the wave already
        did is kept, one repeating another's conclusions exactly is not), so the steps and the
        state after the wave do not depend on the order the steps were found in, which a
        symmetry of the puzzle changes. A contradiction stops the run after the whole wave.
        Returns how many variables the wave decided. ``stated``: the variables stated before
        the wave, to which it adds those its steps place (their houses are rescanned).
        ``views``: :attr:`Context.views`, whose constraints with a changed variable are
        dropped (all of them when the wave stops the run)."""
        before = list(state)
        seen: set[tuple] = set()
        touched: set[int] = set()
        stop: _Stop | None = None
        newly_stated: list[int] = []
        alone = len(wave) == 1
        for found in wave:
            step = effective(found, before, stated)
            if step is None:
                continue
            if not alone:
                key = (
                    step.technique,
                    frozenset(step.placements),
                    frozenset(step.eliminations),
                    step.contradiction,
                )
                if key in seen:
                    continue
                seen.add(key)
            steps.append(step)
            if stated is not None:
                for v, _ in step.placements:
                    if v not in stated:
                        newly_stated.append(v)
            try:
                touched.update(self._conclude(state, step.placements, step.eliminations, step))
            except _Stop as problem:
                stop = stop or problem
        if views:
            if stop is not None:
                views.clear()
            else:
                constraints, var_constraints = self.model.constraints, self.model.var_constraints
                for var in touched:
                    for ci in var_constraints[var]:
                        views.pop(constraints[ci], None)
        if stop is not None:
            raise stop
        if newly_stated:
            stated.update(newly_stated)  # type: ignore[union-attr]
            touched.update(newly_stated)  # fewer open cells in their houses: rescan those
        decided = 0
        for var in touched:
            mask = state[var]
            if mask and not mask & (mask - 1) and before[var] & (before[var] - 1):
                decided += 1  # one value now, several before (a variable never grows)
        if not touched:
            return decided
        for techniques, watched in self.plan.watch_classes:
            rescan = set().union(*map(watched.__getitem__, touched))
            if rescan:
                for ti in techniques:
                    dirty[ti].update(rescan)  # type: ignore[union-attr]
        return decided

    def settle(
        self,
        state: State | bytearray,
        *,
        changed: Iterable[int] | None = None,
        until: Iterable[int] | None = None,
        open_count: int | None = None,
    ) -> Run:
        """Propagate from ``state`` (a copy is made) to where :meth:`run` ends, keeping no steps.

        ``until``: stop as soon as these variables all have a single value (status
        ``decided``, unless that solves the puzzle), for callers that ask only that; the state
        is then not propagated to the end. ``open_count``: how many variables ``state`` leaves
        open, when the caller knows (from an earlier run's ``open_count``).

        For callers that need only the end state and status (the generator). A constraint
        whose variables changed is scanned by its local techniques, cheapest first, and the
        first one's conclusions apply at once (its :meth:`Technique.placements_in` shortcut
        when it has one), instead of one wave of the cheapest productive technique over every
        constraint at a time; global techniques run, cheapest first, only when no constraint
        is pending. Steps are sound, and a conclusion of these techniques stays derivable (or
        already holds) when more is known, so on a state with a solution the end is the
        fixpoint :meth:`run` reaches. ``steps`` stays empty.

        A constraint whose techniques have a joint scan (:meth:`Technique.joint_scan`) is
        taken to their fixpoint in one call and not rescanned for its own changes; when
        verifying, the rules its changes touch are checked after the call (a rule break stays
        visible as the state narrows, so the propagation fails exactly when the techniques one
        by one would make it fail).

        A ``bytearray`` state (every mask fits in a byte) stays one, also in the result: the
        copy and the techniques' reads of it cost C-level passes (see
        :attr:`grader.rating.family.Family.byte_states`).
        """
        started = time.monotonic()
        state = state.copy() if isinstance(state, bytearray) else list(state)
        try:
            plan = self.plan
        except EngineTimeout:
            return Run([], state, "timeout", None, time.monotonic() - started)
        model = self.model
        constraints = model.constraints
        by_unit = plan.by_unit
        unit_watchers = plan.unit_watchers
        joint = plan.joint
        if changed is None:
            order = list(by_unit)
            problem = self.check_state(state) if self.verify else None
        else:
            changed = list(changed)
            order = sorted({ci for var in changed for ci in unit_watchers[var]})
            problem = (
                self.check_state(state, {ci for v in changed for ci in model.var_constraints[v]})
                if self.verify
                else None
            )
        if problem is not None:
            return Run([], state, "contradiction", problem, time.monotonic() - started)
        queue = deque(order)
        pending = bytearray(len(constraints))
        for ci in order:
            pending[ci] = 1
        global_techniques = plan.settle_globals
        stale = [True] * len(global_techniques)
        ctx = Context(model, state, self, settle=True)
        memo, views = ctx.memo, ctx.views
        left = count_open(state) if open_count is None else open_count
        targets = set() if until is None else {v for v in until if not is_single(state[v])}
        wanted = len(targets) if until is not None else -1  # targets still open (-1: none given)
        conclude = self._conclude
        enqueue = queue.append
        deadline = self.deadline

        def apply(
            placements: Sequence[Assignment], eliminations: Sequence[Assignment], step: Step | None
        ) -> bool:
            """Apply conclusions and queue what they touch; False when nothing changed."""
            changed_vars = conclude(state, placements, eliminations, step)
            if not changed_vars:
                return False
            for var in changed_vars:
                note(var)
            state_changed()
            return True

        def note(var: int) -> None:
            """Count a variable that changed (if now decided) and queue what watches it."""
            nonlocal left, wanted
            mask = state[var]
            if not mask & (mask - 1):  # a single value (no variable is left empty here)
                left -= 1
                if var in targets:
                    wanted -= 1
            for cj in unit_watchers[var]:
                if not pending[cj]:
                    pending[cj] = 1
                    enqueue(cj)

        def state_changed() -> None:
            """Forget the views of the old state; every global technique may find more."""
            if memo:
                memo.clear()
            if views:
                views.clear()
            for gi in range(len(stale)):
                stale[gi] = True

        status = "stuck"
        try:
            while left:
                if not wanted:
                    status = "decided"
                    break
                if deadline is not None:
                    ctx.check_time()
                if queue:
                    ci = queue.popleft()
                    constraint = constraints[ci]
                    scan = joint.get(ci)
                    if scan is not None:
                        quick = scan(ctx, constraint)
                        if quick is not None:  # the constraint's own fixpoint: no rescan
                            for var, mask in quick:  # narrowed variables, their new masks
                                state[var] = mask
                                note(var)
                            if quick:
                                state_changed()
                                if self.verify:
                                    touched = {
                                        cj for var, _ in quick for cj in model.var_constraints[var]
                                    }
                                    problem = self.check_state(state, sorted(touched))
                                    if problem is not None:
                                        raise _Stop(problem)
                            pending[ci] = 0
                            continue
                    pending[ci] = 0
                    for technique in by_unit[ci]:
                        quick = technique.placements_in(ctx, constraint)
                        if quick is not None:
                            if quick and apply(quick, (), None):
                                break
                            continue
                        progress = False
                        # found on this state before any applies, as run's waves are (a
                        # technique's scan never sees the state change under it)
                        for step in list(technique.find_in(ctx, constraint)):
                            progress = apply(step.placements, step.eliminations, step) or progress
                        if progress:
                            break
                    else:
                        continue  # no technique finds anything here: settled
                    # a step changed the state and the later techniques were not asked: scan
                    # again, as its own cells may not have changed (a technique watching only
                    # them is not queued by eliminations in the peers of a cell it placed)
                    if not pending[ci]:
                        pending[ci] = 1
                        enqueue(ci)
                    continue
                progress = False
                for gi, technique in enumerate(global_techniques):
                    if not stale[gi]:
                        continue
                    stale[gi] = False  # scanned again after a change
                    found = list(islice(technique.find(ctx), None if technique.batch else 1))
                    for step in found:
                        progress = apply(step.placements, step.eliminations, step) or progress
                    if progress:
                        break
                if not progress:
                    break
            else:
                status = "solved"
        except _Stop as stop:
            return Run([], state, "contradiction", stop.problem, time.monotonic() - started)
        except EngineTimeout:
            status = "timeout"
        return Run([], state, status, None, time.monotonic() - started, left)

    def next_steps(self, state: State) -> list[Step]:
        """The steps the cheapest productive technique finds now (the hint)."""
        plan = self.plan
        dirty = [set(u) if u is not None else None for u in plan.units]
        stale = [True] * len(plan.techniques)
        ctx = Context(self.model, list(state), self)
        return self._next_wave(ctx, dirty, stale) or []

    def _next_wave(
        self,
        ctx: Context,
        dirty: list[set[int] | None],
        stale: list[bool],
        pauses: Sequence[bool] | None = None,
    ) -> list[Step] | None:
        """The steps of the cheapest productive technique ([] if none; None when the next
        technique to ask is one where ``pauses`` (per technique of the plan) is true)."""
        constraints = self.model.constraints
        for ti, technique in enumerate(self.plan.techniques):
            if pauses is not None and pauses[ti]:
                return None
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
            if technique.batch:
                wave = technique.wave_in(ctx, pending, constraints)
            else:
                wave = []
                find_in = technique.find_in
                for ci in sorted(pending):
                    first = next(find_in(ctx, constraints[ci]), None)
                    if first is not None:
                        wave.append(first)
                        break
                    pending.discard(ci)
            if wave:
                return wave
        return []
