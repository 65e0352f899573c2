"""Generating puzzles that are deducible at a chosen level (or only unique, in classic mode).

For each puzzle: a random complete solution (the family's seeded construction); *hint
insertion*: from the empty grid, propagate with the techniques allowed at the level and, when
stuck, reveal one random undetermined cell of the solution (or one of the family's other hints,
such as a Tango sign) and go on from the current state until solved; *reduction*: try removing
each hint in random order, keeping a removal while the techniques still solve the puzzle;
*level floor*: the techniques of the level below must not solve it (else try again);
*rating*: the puzzle is rated as ``grade`` rates it by default (every technique, those that
assume a unique solution included, which building never uses), and a puzzle ``grade`` would
put at another level is dropped, so ``meta`` is what ``grade`` says. A
puzzle leaves at least one cell blank: an attempt whose every cell ends given fails. The
classic mode replaces deducibility by uniqueness, checked by the incremental SAT search. A
batch never holds two puzzles with the same canonical key. Every random choice follows the seed.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from grader.core.backtrack import SearchLimit
from grader.core.clock import deadline_scope
from grader.core.effort import effort as effort_of
from grader.core.engine import Engine, Run
from grader.core.errors import FieldProblem, UsageError
from grader.core.exact import ExactSearch, SearchTimeout, search_for
from grader.core.model import Model, State, is_single
from grader.core.technique import EngineTimeout, Technique
from grader.core.units import counted, seconds_text
from grader.core.version import __version__
from grader.rating.costs import Costs, choose
from grader.rating.family import Family
from grader.rating.grading import (
    GradeOptions,
    rating_engine,
    rating_techniques,
    settings_of,
    solved_level,
)
from grader.rating.registry import families
from grader.rating.target import Target

MODES = ("deducible", "unique")
ANY_LEVEL = "any"
"""What a classic-mode request without a level asks for (no level filter)."""


@dataclass(frozen=True)
class Request:
    """What to generate. ``size`` is (rows, cols); ``level`` None (classic mode only): any."""

    family: str
    size: tuple[int, int]
    level: str | None
    count: int = 1
    seed: int = 0
    mode: str = "deducible"
    options: Mapping[str, Any] = field(default_factory=dict)
    extra_share: float = 0.5
    """Share of revealed hints taken from the family's other hints (signs, clues)."""
    reduce: bool = True
    max_attempts: int = 300
    """Tries per puzzle before the run stops."""
    costs: Costs | None = None
    timeout: float | None = None
    refuse_unreachable: bool = True
    """Refuse at once a level the family says it cannot reach at this size (see
    :meth:`Family.reach`); ``bench/reachable.py`` turns it off to measure."""


@dataclass
class Generated:
    """One generated puzzle with its provenance."""

    data: dict[str, Any]
    model: Model
    givens: State
    solution: list[int]
    level: str
    difficulty: float
    effort: float
    attempts: int
    key: str
    seconds: float


@dataclass
class Outcome:
    """What one index of a run gave: a puzzle, or None when ``max_attempts`` tries found none
    or the time ran out (``timed_out``)."""

    index: int
    puzzle: Generated | None
    attempts: int
    timed_out: bool = False
    record: dict[str, Any] | None = None
    """The puzzle's bank record, when the worker was asked to grade it for a bank."""


class Selection:
    """The puzzles a run keeps, from outcomes taken in index order: each puzzle whose
    canonical key is new, until ``count`` are kept. A duplicate costs one more index; the run
    stops at an index without a puzzle, or after ``max_attempts`` duplicates in a row."""

    def __init__(self, generator: Generator, start: int = 0, exclude: Iterable[str] = ()) -> None:
        self.request = generator.request
        self.seen: set[str] = set(exclude)
        self.next = start
        self.kept = 0
        self.duplicates = 0
        self.gave_up: str | None = None
        self.timed_out = False

    def wanted(self) -> int:
        """How many puzzles are still wanted (0 once the run is over)."""
        return 0 if self.gave_up is not None else self.request.count - self.kept

    def take(self, outcome: Outcome) -> Generated | None:
        """The puzzle of the next index if it is kept, else None."""
        request = self.request
        if outcome.index != self.next:
            raise ValueError(f"outcome {outcome.index} taken out of order (next: {self.next})")
        self.next += 1
        found = outcome.puzzle
        if found is None:
            self.timed_out = outcome.timed_out
            what = f"{request.level} puzzle" if request.level else "puzzle"
            self.gave_up = (
                f"the time limit of {seconds_text(request.timeout or 0.0)} was reached"
                if outcome.timed_out
                else f"no {what} found in {counted(request.max_attempts, 'attempt')} "
                "(the level may be out of reach at this size)"
            )
            return None
        if found.key in self.seen:
            self.duplicates += 1
            if self.duplicates >= request.max_attempts:
                self.gave_up = (
                    f"only {self.kept} distinct puzzles found: the next {self.duplicates} "
                    "were copies of earlier ones"
                )
            return None
        self.duplicates = 0
        self.seen.add(found.key)
        self.kept += 1
        return found


def default_target(family: Family, model: Model, level: str, costs: Costs | None) -> Target:
    """Named levels: techniques up to the level; the level below must not solve the puzzle."""
    levels = family.levels
    if level not in levels:
        known = ", ".join(levels)
        raise UsageError(f"level: {family.name} has no level {level!r} (known: {known})")
    index = levels.index(level)
    cap = choose(family, model, level, costs)
    below = choose(family, model, levels[index - 1], costs) if index > 0 else None
    return Target(cap, below)


class Generator:
    """Generates the puzzles of one request, lazily."""

    def __init__(self, request: Request) -> None:
        if request.mode not in MODES:
            raise UsageError(f"mode: unknown mode {request.mode!r} (known: {', '.join(MODES)})")
        if request.count < 1:
            raise UsageError("count: must be at least 1")
        family = families().get(request.family)
        if family is None:
            known = ", ".join(families())
            raise UsageError(f"family: unknown family {request.family!r} (known: {known})")
        self.request = request
        self.family = family
        self.template = empty_model(family, request.size, request.options)
        size = family.normal_size(request.size, request.options)
        if size != tuple(request.size):  # the size as the model has it (pair place 6 is 5x6)
            request = self.request = replace(request, size=size)
        if request.level is not None:
            self.target = family.generation_target(
                self.template, request.level, request.costs
            ) or default_target(family, self.template, request.level, request.costs)
        elif request.mode == "unique":
            self.target = Target([], None)  # any level: no floor, no band
        else:
            raise UsageError("level: missing (any level is for --mode unique only)")
        if request.refuse_unreachable:
            self._check_blank()
            if request.mode == "deducible":
                self._check_reach()
        self.deadline = None if request.timeout is None else time.monotonic() + request.timeout
        self.attempts = 0
        self.gave_up: str | None = None

    def _check_blank(self) -> None:
        """Refuse, in every mode, a size where no puzzle can leave a cell blank (proven by the
        family: :meth:`Family.never_blank`)."""
        reason = self.family.never_blank(self.request.size, self.request.options)
        if reason is not None:
            raise UsageError(f"size: {reason}; no puzzle exists at any level")

    def _check_reach(self) -> None:
        """Refuse a level the family says is out of reach at this size, or a band above any
        rating its steps can have."""
        request, family = self.request, self.family
        where = f"{family.name} {family.size_text(request.size)}"
        if request.options:
            where += " with these options"
        reached, beyond = family.reach(request.size, request.options)
        if request.level in beyond:
            raise UsageError(
                f"level: {where} reaches only {', '.join(reached) or 'no level'}; "
                f"{request.level} is out of reach (see the manual's Making puzzles page)"
            )
        top = family.reachable_difficulty(request.size, request.options, request.costs)
        low = self.target.min_difficulty
        if top is not None and low is not None and low > top + 1e-9:
            raise UsageError(
                f"level: no step of a {where} puzzle can be rated above {top}; "
                f"{request.level!r} starts at {low}"
            )

    # -- the batch ----------------------------------------------------------------------------

    def puzzles(
        self,
        on_attempt: Callable[[int], None] | None = None,
        *,
        start: int = 0,
        exclude: Iterable[str] = (),
    ) -> Iterator[Generated]:
        """Yield ``count`` distinct puzzles; stop early when time runs out or a puzzle cannot
        be made in ``max_attempts`` tries (``self.gave_up`` then says why).

        Puzzle ``index`` is made by :meth:`outcome` from the seed and the index alone, and
        :class:`Selection` keeps them in index order, so workers computing indexes elsewhere
        (:mod:`grader.generation.parallel`) give the same puzzles. ``start`` is the first index and
        ``exclude`` canonical keys that count as duplicates (a bank's, when resuming)."""
        selection = Selection(self, start, exclude)
        index = start
        while selection.wanted():
            found = selection.take(self.outcome(index, on_attempt))
            index += 1
            if found is not None:
                yield found
        self.gave_up = selection.gave_up

    def outcome(self, index: int, on_attempt: Callable[[int], None] | None = None) -> Outcome:
        """Puzzle ``index`` of the run: attempt ``a`` = 0, 1, ... draws every random choice
        from ``random.Random(f"{seed}:{index}:{a}")`` (a string seed is hashed with SHA-512,
        the same in every process and on every machine); the first success is the puzzle."""
        request = self.request
        for attempt in range(request.max_attempts):
            if self._out_of_time():
                return Outcome(index, None, attempt, timed_out=True)
            self.attempts += 1
            if on_attempt is not None:
                on_attempt(self.attempts)
            rng = random.Random(f"{request.seed}:{index}:{attempt}")
            started = time.monotonic()
            try:
                with deadline_scope(self.deadline):  # for the searches of the family's hooks
                    candidate = self.attempt(rng)
            except (EngineTimeout, SearchTimeout, SearchLimit):
                if not self._out_of_time():
                    raise
                return Outcome(index, None, attempt + 1, timed_out=True)
            if candidate is None:
                continue
            candidate.attempts = attempt + 1
            candidate.seconds = time.monotonic() - started
            candidate.data["id"] = f"{self.id_prefix()}{index + 1}"
            return Outcome(index, candidate, attempt + 1)
        return Outcome(index, None, request.max_attempts, timed_out=self._out_of_time())

    def id_prefix(self) -> str:
        """What every puzzle id of this request starts with: ``{family}-{rows}x{cols}-{level}-
        s{seed}-``, then the puzzle's index + 1."""
        request = self.request
        return f"{self.family.name}-{self._size_text()}-{self.asked_level}-s{request.seed}-"

    @property
    def asked_level(self) -> str:
        """The level asked for: a level, a band, or ``any`` (classic mode without a level)."""
        return self.request.level or ANY_LEVEL

    def _size_text(self) -> str:
        rows, cols = self.request.size
        return f"{rows}x{cols}"

    def _out_of_time(self) -> bool:
        return self.deadline is not None and time.monotonic() > self.deadline

    # -- one puzzle ---------------------------------------------------------------------------

    def attempt(self, rng: random.Random) -> Generated | None:
        """One try: a solution, hints inserted, reduced, checked against the level floor."""
        family = self.family
        solution = family.random_solution(self.template, rng)
        template, solution = family.solution_model(self.template, solution)
        extras = sorted(family.extra_hints(template, solution))
        if self.request.mode == "unique":
            hints = UniqueHints(self, solution, extras, rng, template)
        else:
            hints = DeducibleHints(self, solution, extras, rng, template)
        if not hints.insert():
            return None
        if self.request.reduce:
            hints.reduce()
        model, givens = hints.model, hints.givens
        if all(is_single(mask) for mask in givens):
            return None  # nothing left blank: not a puzzle
        start = family.start_state(model, givens)  # where a solver of the file starts
        if self._below_solves(model, start, solution):
            return None  # too easy: checked first, as it needs no record of the steps
        techniques = self._rating_techniques(model)
        stated = family.stated_cells(model, givens)
        run = self._rating_engine(model, techniques, solution).run(start, stated=stated)
        if self.request.mode == "deducible" and not run.solved:
            return None
        if not self._in_band(run):
            return None
        level = solved_level(family, techniques, run.steps) if run.solved else "unsolved"
        if self.request.mode == "deducible" and not self._is_asked(level):
            return None  # grade would give it another level
        return self._result(model, givens, solution, run, level, techniques)

    def _is_asked(self, level: str) -> bool:
        """Whether a puzzle that grades at ``level`` is one of the level asked for (any level
        fits a band of a numeric scale: the band was checked)."""
        asked = self.request.level
        return asked not in self.family.levels or level == asked

    def insertion_techniques(self) -> list[Technique]:
        """The techniques hint insertion propagates with: the level's, except at the family's
        top level, where they are the level below's and reduction alone uses the level's
        (it removes every hint they can do without, so the puzzle is as hard for them as
        before). There every stuck insertion state cost a failing pass of the top technique,
        depth-2 lookahead: path 6x6 extreme spent about 2.3 of its 2.5 CPU s per attempt
        inserting, and most attempts fail the floor (``bench/reachable.py``: the same
        attempts succeed both ways at seeds 0-3, each about 6 times cheaper). Without
        reduction the inserted puzzle is kept as it is, so insertion keeps the level's."""
        request, below = self.request, self.target.below
        top = request.level == self.family.levels[-1]
        if top and below is not None and request.reduce and request.mode == "deducible":
            return below
        return self.target.cap

    def _engine(self, model: Model, techniques: Sequence[Technique], solution: list[int]) -> Engine:
        """An engine for the puzzle being built. Its solution is known, so lookahead need not
        try the solution's values where the solution still fits the state (at the top level
        always; inside an assumption only when the assumption agrees with it): those trials
        never lead to a contradiction, so the steps are the same as without it, found faster."""
        return Engine(
            model,
            techniques,
            deadline=self.deadline,
            solutions=[solution],
            unique=False,
            verify=False,
        )

    def _rating_engine(
        self, model: Model, techniques: Sequence[Technique], solution: list[int]
    ) -> Engine:
        """The engine ``grade`` rates the finished puzzle with: built and reduced, it is known
        unique (the sound techniques of its level solve it, or in classic mode the exact search
        said so), so the techniques that assume uniqueness run, as in ``grade``."""
        return rating_engine(model, techniques, [solution], self.deadline)

    def _below_solves(self, model: Model, givens: State, solution: list[int]) -> bool:
        """Whether the techniques of the level below solve the puzzle (the level floor), as
        ``grade --techniques`` of that level would run them (uniqueness techniques included).
        Only the end matters, so the propagation keeps no steps (it ends where a recorded
        run ends)."""
        below = self.target.below
        if below is None:
            return False
        return self._rating_engine(model, below, solution).settle(givens).solved

    def _in_band(self, run: Run) -> bool:
        """Whether the hardest step lies in the target's band of difficulty, if it has one."""
        target = self.target
        hardest = run.hardest
        if target.min_difficulty is not None and (
            not run.solved or hardest < target.min_difficulty - 1e-9
        ):
            return False
        return target.max_difficulty is None or hardest <= target.max_difficulty + 1e-9

    @property
    def grade_options(self) -> GradeOptions:
        """The options of the ``grade`` a generated puzzle's ``meta`` reports: the defaults,
        with the request's costs."""
        return GradeOptions(costs=self.request.costs)

    def _rating_techniques(self, model: Model) -> list[Technique]:
        """The techniques ``grade`` runs by default (the level's cap only builds the puzzle),
        so ``meta`` gives the level, difficulty and effort ``grade`` gives."""
        return rating_techniques(self.family, model, self.grade_options)

    def settings(self, techniques: Sequence[Technique]) -> dict[str, Any]:
        """What the puzzle was rated with, as a grade's report stamps it
        (:func:`grader.rating.grading.settings_of`): the rating techniques at their costs, no
        guessing, no time limit per puzzle (a run's ``timeout`` stops the run, never cuts a
        rating short) and the solutions established (a deducible or a unique puzzle has one).
        Grading the puzzle with these costs reports the same settings."""
        return settings_of(list(techniques), self.grade_options)

    def _result(
        self,
        model: Model,
        givens: State,
        solution: list[int],
        run: Run,
        level: str,
        techniques: Sequence[Technique],
    ) -> Generated:
        family = self.family
        data = family.to_data(model, givens)
        if "size" in family.schema.model_fields:
            data["size"] = [model.rows, model.cols]  # always ROWSxCOLS in generated files
        if "solution" in family.schema.model_fields:
            data["solution"] = family.format_grid(model, [1 << v for v in solution])
        difficulty = run.hardest
        effort = effort_of(run.steps, run.waves)
        data["meta"] = {
            "level": level,
            "difficulty": difficulty,
            "effort": effort,
            "mode": self.request.mode,
            "seed": self.request.seed,
            "generator": f"grader {__version__}",
            "settings": self.settings(techniques),
        }
        if self.request.mode == "unique" or level != self.asked_level:
            data["meta"]["asked_level"] = self.asked_level  # what was asked, beside what came
        return Generated(
            data=data,
            model=model,
            givens=givens,
            solution=solution,
            level=level,
            difficulty=difficulty,
            effort=effort,
            attempts=0,
            key=family.canonical_key(model, givens),
            seconds=0.0,
        )


class Hints:
    """The hints of a puzzle being built: revealed cells and chosen extra hints."""

    def __init__(
        self,
        gen: Generator,
        solution: list[int],
        extras: list[Any],
        rng: random.Random,
        template: Model,
    ) -> None:
        self.gen = gen
        self.template = template
        """The empty model of this attempt (see :meth:`Family.solution_model`)."""
        self.family = gen.family
        self.solution = solution
        self.extras = extras
        self.chosen: list[Any] = []
        self.needed: set[int] = set()
        """Given cells reduction keeps untested (see :meth:`DeducibleHints.needed_cells`)."""
        self.insert_seconds: float | None = None
        """CPU seconds :meth:`insert` took (None before it ran)."""
        self.rng = rng
        self.model = self.template
        self.givens = self.template.initial_state()

    def _use_extra(self) -> bool:
        if not self.extras or len(self.chosen) == len(self.extras):
            return False
        if not self.family.cell_hints:
            return True
        return self.rng.random() < self.gen.request.extra_share

    def _random_extra(self, allowed: Callable[[Any], bool] = lambda hint: True) -> Any | None:
        taken = set(self.chosen)
        options = [h for h in self.extras if h not in taken and allowed(h)]
        return self.rng.choice(options) if options else None

    def _set_extras(self, chosen: list[Any]) -> None:
        self.chosen = sorted(chosen)
        self.model = self.family.with_hints(self.template, self.chosen)

    def hint_list(self) -> list[tuple[str, Any]]:
        cells = [("cell", v) for v, m in enumerate(self.givens) if is_single(m)]
        return cells + [("extra", h) for h in self.chosen]

    def remove(self, hint: tuple[str, Any]) -> Callable[[], None]:
        """Remove a hint; the returned function puts it back."""
        kind, item = hint
        if kind == "cell":
            old = self.givens[item]
            self.givens[item] = self.template.variables[item].domain
            return lambda: self.givens.__setitem__(item, old)
        before = list(self.chosen)
        self._set_extras([h for h in self.chosen if h != item])
        return lambda: self._set_extras(before)

    def reduce(self) -> None:
        """Try removing each hint in random order; keep a removal while the puzzle holds."""
        order = self.hint_list()
        self.rng.shuffle(order)
        for hint in order:
            if hint[0] == "cell" and hint[1] in self.needed:
                continue
            undo = self.remove(hint)
            if not self.holds():
                undo()

    def insert(self) -> bool:
        raise NotImplementedError

    def holds(self) -> bool:
        raise NotImplementedError


class DeducibleHints(Hints):
    """Hint insertion and reduction under the level's techniques."""

    def engine(self, techniques: Sequence[Technique] | None = None) -> Engine:
        """An engine with the level's techniques (or ``techniques``) over the current model."""
        chosen = self.gen.target.cap if techniques is None else techniques
        return self.gen._engine(self.model, chosen, self.solution)

    def holds(self) -> bool:
        return self.engine().settle(self.givens).solved

    def _revealed(self, base: Run, cells: Iterable[int]) -> tuple[State, int | None]:
        """A copy of ``base``'s end state showing the solution's values of ``cells``, and how
        many variables it leaves open (when ``base`` counted them)."""
        state = base.state.copy()
        open_count = base.open_count
        for var in cells:
            if open_count is not None and state[var] & (state[var] - 1):
                open_count -= 1  # it had several candidates
            state[var] = 1 << self.solution[var]
        return state, open_count

    def reduce(self) -> None:
        """Reduction by halving: a given can go when propagation from all the other current
        givens solves the puzzle. Those states are built by adding givens to propagated states
        (each half of the cells is tried against a state holding everything else), so the whole
        pass costs about as many full propagations as the cells have halvings, not one per cell.
        A segment whose other givens already solve the puzzle goes at once. Extra hints change
        the model, so puzzles with any fall back to one full solve per test."""
        self.needed = self.needed_cells()
        if self.chosen:
            super().reduce()
            return
        cells = [v for v, m in enumerate(self.givens) if is_single(m)]
        self.rng.shuffle(cells)
        engine = self.engine()
        empty = packed_state(self.family, self.givens)
        for var in cells:
            empty[var] = self.model.variables[var].domain
        self._reduce_segment(engine, cells, engine.settle(empty))

    def needed_cells(self) -> set[int]:
        """Given cells without which, every other hint kept, the puzzle has another solution
        (the exact search says so, one call each). No sound step decides such a cell from fewer
        hints, and reduction's engine runs only sound techniques (none that assumes
        uniqueness), so every test of its removal fails: they are kept untested, and a
        propagation that waits for a segment's cells waits for the others only. Any subset of
        them makes the same puzzle, so the calls stop once they cost what insertion did (where
        propagation is cheap, as Binairo 14x14 normal, they would cost more than they save);
        the failing propagations they tell of are saved."""
        search = search_for(self.model, self.gen.deadline)
        return search.needed_givens(self.givens, self.gen.deadline, budget=self.insert_seconds)

    def _reduce_segment(self, engine: Engine, cells: list[int], base: Run) -> None:
        """Decide ``cells``; ``base`` is the propagation of every current given but them.

        A cell that ``base`` already decides goes at once: every cell here is tested while all
        the givens of ``base`` are present, so its own test would remove it, and it tells the
        others nothing those givens do not (the same removals as testing it in turn, cheaper)."""
        domains = self.model.variables
        if base.solved:
            for var in cells:
                self.givens[var] = domains[var].domain
            return
        undecided = []
        for var in cells:
            if is_single(base.state[var]):
                self.givens[var] = domains[var].domain
            else:
                undecided.append(var)
        cells = undecided
        if len(cells) <= 1 or self.needed.issuperset(cells):
            return  # needed: without it the others do not solve the puzzle
        half = len(cells) // 2
        left, right = cells[:half], cells[half:]
        self._reduce_segment(engine, left, self._with(engine, base, right, left))
        kept = [var for var in left if is_single(self.givens[var])]
        self._reduce_segment(engine, right, self._with(engine, base, kept, right))

    def _with(self, engine: Engine, base: Run, cells: list[int], segment: list[int]) -> Run:
        """``base`` propagated further with the solution's values of ``cells``, for deciding
        ``segment``. The propagation stops once every cell of the segment that can go (not
        :attr:`needed`) is decided: they all go then, as when solved, the needed ones stay, and
        the state is not used again."""
        wanted = [var for var in segment if var not in self.needed]
        if not cells or not wanted:
            return base  # nothing to reveal, or nothing in the segment can go
        state, open_count = self._revealed(base, cells)
        return engine.settle(state, changed=cells, until=wanted, open_count=open_count)

    def insert(self) -> bool:
        started = time.process_time()
        try:
            return self._insert()
        finally:
            self.insert_seconds = time.process_time() - started

    def _insert(self) -> bool:
        inserting = self.gen.insertion_techniques()
        engine = self.engine(inserting)
        run = engine.settle(packed_state(self.family, self.givens))
        while not run.solved:
            if run.status in ("contradiction", "timeout"):
                return False
            state = run.state
            if self._use_extra():
                extra = self._random_extra()
                self._set_extras([*self.chosen, extra])
                engine = self.engine(inserting)
                run = engine.settle(state)
                continue
            if not self.family.cell_hints:
                return False  # every other hint is shown and the techniques are still stuck
            var = self.rng.choice(self.model.open_cells(state))
            self.givens[var] = 1 << self.solution[var]
            state, count = self._revealed(run, [var])
            run = engine.settle(state, changed=[var], open_count=count)
        return self.holds() or self._insert_more()

    def _insert_more(self) -> bool:
        """Propagation from scratch fell short of the incremental one: reveal more."""
        if not self.family.cell_hints:
            return False
        for _ in range(len(self.givens)):
            run = self.engine().settle(self.givens)
            if run.solved:
                return True
            open_vars = self.model.open_cells(run.state)
            if not open_vars:
                return False
            var = self.rng.choice(open_vars)
            self.givens[var] = 1 << self.solution[var]
        return False


class UniqueHints(Hints):
    """Classic mode: hints until the exact search finds no other solution, then reduce."""

    def _search(self) -> ExactSearch:
        """This attempt's own solver of its current model. The other solution a SAT solver
        finds depends on what it learned before: a solver shared with the puzzles made
        earlier would make a puzzle depend on them, and on the worker that made it."""
        search = self.__dict__.get("_own_search")
        if search is None or search.model is not self.model:
            search = self._own_search = ExactSearch(self.model, self.gen.deadline)
        return search

    def other_solution(self) -> list[int] | None:
        search = self._search()
        selector = search.cnf.new_var()
        search.solver.add_clause(
            [-selector] + [-search.cnf.lit(v, x) for v, x in enumerate(self.solution)]
        )
        try:
            return search.solve(self.givens, [selector], self.gen.deadline)
        finally:
            search.solver.add_clause([-selector])

    def holds(self) -> bool:
        return self.other_solution() is None

    def _excludes(self, other: list[int], hint: Any) -> bool:
        return self.family.hint_excludes(self.template, hint, other)

    def insert(self) -> bool:
        if self._search().solve(self.givens) is None:
            raise FieldProblem("size", "this puzzle shape has no solution")
        while True:
            other = self.other_solution()
            if other is None:
                return True
            differs = [v for v, x in enumerate(other) if x != self.solution[v]]
            if self._use_extra():
                extra = self._random_extra(partial(self._excludes, other))
                if extra is not None:
                    self._set_extras([*self.chosen, extra])
                    continue
            if not self.family.cell_hints:
                return False
            var = self.rng.choice(differs)
            self.givens[var] = 1 << self.solution[var]


def empty_model(family: Family, size: tuple[int, int], options: Mapping[str, Any]) -> Model:
    """The family's empty model; an option its schema refuses is one :class:`FieldProblem`
    naming the option, its value and the problem (never a pydantic report)."""
    from pydantic import ValidationError

    from grader.core.errors import from_validation

    try:
        return family.empty_model(size, options)
    except ValidationError as error:
        found = from_validation("", error)
        parts = found.field.split(".")
        named = [i for i, part in enumerate(parts) if part.split("[")[0] in options]
        if not named:
            raise FieldProblem(found.field or "rules", found.problem) from None
        name = parts[named[0]].split("[")[0]
        field_name = ".".join([*parts[: named[0]], name])
        problem = found.problem
        if found.field != field_name and name in family.options:
            problem = f"expected {family.options[name]}"  # inside the value: say what fits
        raise FieldProblem(field_name, f"{options[name]!r} is not valid: {problem}") from None


def packed_state(family: Family, state: State) -> State:
    """A copy of ``state`` to propagate on: a ``bytearray`` when the family allows it and
    every mask fits in a byte (see :attr:`Family.byte_states`), else a list."""
    if family.byte_states:
        try:
            return bytearray(state)  # type: ignore[return-value]
        except ValueError:  # a wider mask
            pass
    return list(state)


def generate(request: Request) -> Iterator[Generated]:
    """The puzzles of a request (see :class:`Request`)."""
    return Generator(request).puzzles()


def parse_rules(items: Sequence[str], unique_lines: bool = False) -> dict[str, object]:
    """Family options from ``KEY=VALUE`` texts (values as JSON where they parse: ``true``,
    numbers, ``[a, b]``; text otherwise); ``unique_lines`` sets Binairo's option of that name."""
    options: dict[str, object] = {"unique_lines": True} if unique_lines else {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise UsageError(f"--rule: {item!r} is not KEY=VALUE")
        options[key.strip()] = _rule_value(value.strip())
    return options


def _rule_value(text: str) -> object:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text
