"""Grading a puzzle: exact solution count, the technique run, and the score.

``difficulty`` is the cost of the hardest step (as Sudoku Explainer rates), ``effort`` the work
of the whole solve from its waves of parallel moves (:mod:`grader.core.effort`), ``total_cost`` the
plain sum of step costs, ``level`` the family's name for the hardest step's level.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from grader.core.effort import effort as effort_of
from grader.core.effort import total_cost
from grader.core.engine import Engine, Run
from grader.core.errors import InputError
from grader.core.exact import SearchTimeout, count_solutions
from grader.core.explain import Explainer
from grader.core.model import Model, State, is_single, single_value
from grader.core.step import Step
from grader.core.technique import Technique
from grader.core.units import seconds_text
from grader.core.version import __version__
from grader.rating.costs import Costs, choose
from grader.rating.family import Family, Puzzle

Solutions = int | str


@dataclass(frozen=True)
class GradeOptions:
    """The settings that affect a rating. ``techniques``: names or levels as ``--techniques``
    takes them, comma separated or as a list (``["normal", "-window"]``)."""

    techniques: str | Sequence[str] | None = None
    costs: Costs | None = None
    guess: bool = False
    timeout: float | None = None
    exact: bool = True

    def __post_init__(self) -> None:
        techniques = self.techniques
        if techniques is not None and not isinstance(techniques, str):
            if not all(isinstance(t, str) for t in techniques):
                raise ValueError(f"techniques: expected names or levels, not {techniques!r}")
            object.__setattr__(self, "techniques", ",".join(techniques))
        if self.timeout is not None and not self.timeout > 0:
            raise ValueError(f"timeout: must be positive, not {self.timeout!r}")


@dataclass
class Grade:
    """Everything known about one puzzle after grading."""

    puzzle: Puzzle
    techniques: list[Technique]
    run: Run
    solutions: Solutions | None
    solution: list[int] | None
    options: GradeOptions
    seconds: float
    notes: list[str] = field(default_factory=list)

    # -- score ----------------------------------------------------------------------------------

    @property
    def id(self) -> str:
        return self.puzzle.id

    @property
    def family(self) -> str:
        """The family's name."""
        return self.puzzle.family.name

    @property
    def status(self) -> str:
        """``solved``, ``stuck``, ``contradiction`` or ``timeout``."""
        return self.status_text()

    @property
    def steps(self) -> list[Step]:
        return self.run.steps

    @property
    def solved(self) -> bool:
        return self.run.solved

    @property
    def difficulty(self) -> float:
        return max([s.cost for s in self.steps], default=0.0)

    @property
    def effort(self) -> float:
        """The solve's work from its waves (:func:`grader.core.effort.effort`)."""
        return effort_of(self.steps, self.run.waves)

    @property
    def total_cost(self) -> float:
        """The sum of the step costs (the effort of earlier versions)."""
        return total_cost(self.steps)

    @property
    def hardest(self) -> Step | None:
        best = None
        for step in self.steps:
            if best is None or step.cost > best.cost:
                best = step
        return best

    @property
    def level(self) -> str:
        if self.run.status == "contradiction" or self.solutions == 0:
            return "invalid"
        if not self.solved:
            return "unsolved"
        return solved_level(self.puzzle.family, self.techniques, self.steps)

    def technique_counts(self) -> dict[str, dict[str, float]]:
        """Each technique used: how many steps, and the cost that counts (its hardest step's,
        as :attr:`difficulty` takes it), cheapest first."""
        named = [(step.technique, step.cost) for step in self.steps]
        counts = Counter([name for name, _ in named])
        dearest = dict(sorted(named))  # each technique's last entry in cost order: its dearest
        out = {name: {"count": counts[name], "cost": cost} for name, cost in dearest.items()}
        return dict(sorted(out.items(), key=lambda kv: (kv[1]["cost"], kv[0])))

    @property
    def remaining(self) -> int:
        """Cells the report's grid leaves open."""
        state = self.final_state()
        return len(state) - list(map(int.bit_count, state)).count(1)  # all but the singles

    def grid(self) -> list[str]:
        """The report's grid: the givens and what the steps placed (:meth:`final_state`)."""
        return self.puzzle.family.format_grid(self.puzzle.model, self.final_state())

    def final_state(self) -> list[int]:
        """The end state as reports show it (:func:`shown_state`)."""
        return shown_state(self.puzzle, self.run.state, self.run.stated)

    def explainer(self) -> Explainer:
        """The explainer of this grade's steps, made once (it keeps each step's evidence)."""
        made = self.__dict__.get("_explainer")
        if made is None:
            made = self.__dict__["_explainer"] = Explainer(self.puzzle.model, self.techniques)
        return made

    def settings(self) -> dict[str, Any]:
        return settings_of(self.techniques, self.options)

    def status_text(self) -> str:
        if self.run.status == "contradiction":
            return "contradiction"
        if self.solved:
            return "solved"
        if self.run.status == "timeout":
            return "timeout"
        return "stuck"

    # -- reports --------------------------------------------------------------------------------

    def to_dict(self, trace: bool = False) -> dict[str, Any]:
        """The stable JSON report (its keys: `grader.output.report_keys`, the manual's
        reference)."""
        hardest = self.hardest
        ex = self.explainer()
        out: dict[str, Any] = {
            "id": self.puzzle.id,
            "family": self.puzzle.family.name,
            "size": [self.puzzle.model.rows, self.puzzle.model.cols],
            "givens": self.puzzle.given_count(),
            "solutions": self.solutions,
            "solved": self.solved,
            "status": self.status_text(),
            "difficulty": round(self.difficulty, 2),
            "effort": self.effort,
            "total_cost": self.total_cost,
            "level": self.level,
            "hardest": hardest.technique if hardest else None,
            "hardest_step": ex.text(hardest) if hardest else None,
            "techniques": self.technique_counts(),
            "steps_count": len(self.steps),
            "remaining": self.remaining,
            "grid": self.grid(),
            "seconds": round(self.seconds, 4),
            "version": __version__,
            "settings": self.settings(),
        }
        for key, value in self.puzzle.family.report_fields(self).items():
            out.setdefault(key, value)
        if self.puzzle.name:
            out["name"] = self.puzzle.name
        if self.run.contradiction is not None:
            out["contradiction"] = self.run.contradiction.reason
        if self.puzzle.solution is not None:
            out["solution_check"] = self.solution_check()
        if self.notes:
            out["notes"] = list(self.notes)
        if trace:
            out["steps"] = [step_dict(s, ex) for s in self.steps]
        return out

    def solution_check(self) -> str:
        """How the file's solution compares: ``matches``, ``differs`` or ``not a solution``."""
        given = self.puzzle.solution
        if given is None:
            return "none given"
        model = self.puzzle.model
        if not all(c.satisfied_by(given) for c in model.constraints) or any(
            not (m >> v & 1) for m, v in zip(self.puzzle.givens, given, strict=True)
        ):
            return "not a solution"
        if self.solution is not None and self.solution != given:
            return "differs"
        return "matches"


def step_dict(step: Step, ex: Explainer) -> dict[str, Any]:
    """One step for the JSON trace."""
    out: dict[str, Any] = {
        "technique": step.technique,
        "cost": step.cost,
        "explanation": ex.text(step),
        "placements": [[ex.cell(v), ex.value(x)] for v, x in step.placements],
        "eliminations": [[ex.cell(v), ex.value(x)] for v, x in step.eliminations],
        "evidence": ex.evidence_dict(ex.evidence(step)),
    }
    if step.contradiction:
        out["contradiction"] = step.contradiction
    chain = step.data.get("chain")
    if chain:
        out["assumption"] = [ex.cell(step.data["assume"][0]), ex.value(step.data["assume"][1])]
        out["chain"] = [step_dict(s, ex) for s in chain]
    return out


def solved_level(family: Family, techniques: Sequence[Technique], steps: Sequence[Step]) -> str:
    """The level of a solve by ``steps``: the family's level for the hardest step's cost (a
    family rated on a numeric scale), else the highest level of the techniques they used."""
    by_cost = family.level_of_cost(max([s.cost for s in steps], default=0.0))
    if by_cost is not None:
        return by_cost
    levels = family.levels
    level_of = {t.name: t.level for t in techniques}
    used = {level_of.get(name) for name in {step.technique for step in steps}}
    return levels[max([levels.index(level) for level in used if level in levels], default=0)]


def rating_techniques(family: Family, model: Model, options: GradeOptions) -> list[Technique]:
    """The techniques :func:`grade` runs with these options (by default every technique of
    the family but guessing, at the family's costs)."""
    return choose(family, model, options.techniques, options.costs, options.guess)


def rating_engine(
    model: Model,
    techniques: Sequence[Technique],
    solutions: Sequence[list[int]],
    deadline: float | None = None,
) -> Engine:
    """The engine :func:`grade` rates with once the exact search has found ``solutions``: with
    exactly one the puzzle is unique, so the techniques that assume it (unique rectangles, BUG,
    nested chains) run; with none every rule is checked on the way."""
    return Engine(model, techniques, deadline=deadline, solutions=solutions, verify=not solutions)


def settings_of(techniques: list[Technique], options: GradeOptions) -> dict[str, Any]:
    return {
        "techniques": {t.name: t.cost for t in sorted(techniques, key=lambda t: (t.cost, t.name))},
        "guess": options.guess,
        "timeout": options.timeout,
        "exact": options.exact,
    }


def as_puzzle(
    puzzle: Puzzle | dict[str, Any] | str | os.PathLike[str], family: str | None = None
) -> Puzzle:
    """A loaded puzzle from a puzzle, a puzzle dict, or a file or game ID of one puzzle;
    ``family`` for a dict or file that does not name its family."""
    if isinstance(puzzle, Puzzle):
        return puzzle
    from grader.rating.loading import load, puzzle_from_dict

    if isinstance(puzzle, dict):
        if family is not None and "family" not in puzzle:
            puzzle = {"family": family, **puzzle}
        return puzzle_from_dict(puzzle, "puzzle", str(puzzle.get("id", "puzzle")))
    if isinstance(puzzle, str | os.PathLike):
        found = load(os.fspath(puzzle), family)
        if len(found) != 1:
            raise InputError(
                os.fspath(puzzle), "", f"holds {len(found)} puzzles; grade one at a time"
            )
        return found[0]
    raise TypeError(f"expected a puzzle, a puzzle dict or a file name, not {type(puzzle)}")


@dataclass
class _Setup:
    """What :func:`grade` and :func:`hint` share: the techniques, the exact search's verdict
    and the engine that knows its solutions."""

    engine: Engine
    solutions: Solutions | None
    solution: list[int] | None
    notes: list[str]


def _setup(
    puzzle: Puzzle,
    options: GradeOptions,
    deadline: float | None,
    techniques: list[Technique] | None = None,
    known: tuple[int, list[list[int]]] | None = None,
) -> _Setup:
    """The techniques, the exact search's verdict (``known``: the verdict deduction already
    proved, so the search is not run) and the engine that knows the solutions."""
    if techniques is None:
        techniques = rating_techniques(puzzle.family, puzzle.model, options)
    notes: list[str] = []
    solutions: Solutions | None = None
    solution = None
    found: list[list[int]] = []
    if known is not None:
        count, found = known
        solutions, solution = count, (found[0] if count == 1 else None)
    elif options.exact:
        try:
            count, found = count_solutions(puzzle.model, puzzle.givens, 2, deadline)
            solutions = "2+" if count >= 2 else count
            solution = found[0] if count == 1 else None
        except SearchTimeout:
            notes.append("exact search timed out; solutions unknown")
            found = []
    engine = rating_engine(puzzle.model, techniques, found, deadline)
    if not engine.unique and solutions != "2+" and solutions != 0:
        assuming = sorted(t.name for t in techniques if t.needs_unique)
        if assuming:
            why = "the exact search was off" if not options.exact else "uniqueness is unknown"
            notes.append(
                f"{why}: {', '.join(assuming)} (which assume one solution) were not used, so "
                "the rating may be higher than with them"
            )
    return _Setup(engine, solutions, solution, notes)


def grade(
    puzzle: Puzzle | dict[str, Any] | str | os.PathLike[str],
    options: GradeOptions | None = None,
    family: str | None = None,
) -> Grade:
    """Grade one puzzle (loaded, a puzzle dict, or a file or game ID holding one): count its
    solutions, run the techniques, score the run. ``family``: for a dict or file that does
    not name its family."""
    puzzle = as_puzzle(puzzle, family)
    options = options or GradeOptions()
    started = time.monotonic()
    deadline = None if options.timeout is None else started + options.timeout
    model = puzzle.model
    techniques = rating_techniques(puzzle.family, model, options)
    broken = None if puzzle.clues is None else Engine(model, []).check_state(puzzle.clues)
    if broken is not None:  # the file's givens break a rule before any crossing out
        setup = _setup(puzzle, options, deadline, techniques, known=(0, []))
        stated = stated_at_start(puzzle)
        told = None if stated is None else frozenset(stated)
        run = Run([], list(puzzle.givens), "contradiction", broken, stated=told)
    elif not options.exact:
        setup = _setup(puzzle, options, deadline, techniques)
        run = setup.engine.run(puzzle.givens, stated=stated_at_start(puzzle))
    else:
        first, known = _deduce_first(puzzle, techniques, deadline)
        setup = _setup(puzzle, options, deadline, techniques, known)
        if known is not None or first.status == "timeout":
            run = first
        elif setup.solutions in (1, "2+"):  # the run it began is the one it would have made
            run = joined(first, setup.engine.run(first.state, stated=first.stated))
        else:  # no solution (or unknown): from the start, checking every rule on the way
            run = setup.engine.run(puzzle.givens, stated=stated_at_start(puzzle))
    engine = setup.engine
    if run.status == "timeout":
        setup.notes.append(
            f"timed out after {seconds_text(options.timeout or 0.0)}; the report is partial"
        )
    return Grade(
        puzzle=puzzle,
        techniques=list(engine.techniques),
        run=run,
        solutions=setup.solutions,
        solution=setup.solution,
        options=options,
        seconds=time.monotonic() - started,
        notes=setup.notes,
    )


def needs_search(technique: Technique) -> bool:
    """Whether a technique should wait for the exact search: it assumes a unique solution,
    or what it finds depends on the known solutions (lookahead skips their values)."""
    return technique.needs_unique or technique.reads_solutions


def _deduce_first(
    puzzle: Puzzle, techniques: list[Technique], deadline: float | None
) -> tuple[Run, tuple[int, list[list[int]]] | None]:
    """The run of the techniques that need no exact search, from the givens, as the engine
    makes it for a puzzle with a solution (no rule checks on the way), and the verdict it
    proves: a solve by sound steps ending in a valid grid is the only solution. Otherwise the
    exact search decides: with a solution, the run goes on from where it paused, as the run
    knowing the verdict from the start would have (these techniques do not read it), so a
    report does not depend on whether the search ran first; without one, the run is made
    again from the givens, checking every rule."""
    engine = Engine(puzzle.model, techniques, deadline=deadline, verify=False)
    run = engine.run(puzzle.givens, pause_at=needs_search, stated=stated_at_start(puzzle))
    if run.status == "solved":
        values = [single_value(mask) for mask in run.state]
        if all(c.satisfied_by(values) for c in puzzle.model.constraints):
            return run, (1, [values])
    return run, None


def joined(first: Run, rest: Run) -> Run:
    """A run that paused, continued by ``rest`` from where it stopped."""
    return Run(
        first.steps + rest.steps,
        rest.state,
        rest.status,
        rest.contradiction,
        first.elapsed + rest.elapsed,
        waves=first.waves + rest.waves,
        stated=rest.stated,
    )


def shown_state(puzzle: Puzzle, state: State, stated: Collection[int] | None) -> State:
    """``state`` as reports and boards show it (``stated``: the cells stated so far, when the
    family places every cell by a step, see :func:`stated_at_start`): a cell down to one
    candidate that no step has placed yet shows open, as its whole domain."""
    if stated is None:
        return state
    variables = puzzle.model.variables
    return [
        variables[var].domain if var not in stated and is_single(mask) else mask
        for var, mask in enumerate(state)
    ]


def stated_at_start(puzzle: Puzzle) -> set[int] | None:
    """The cells the puzzle states, when its family places every other one by a step
    (:meth:`Family.stated_cells`)."""
    return puzzle.family.stated_cells(puzzle.model, puzzle.clue_state)


@dataclass
class Hint:
    """The next step(s) of a puzzle, and what the solver should know besides."""

    steps: list[Step]
    explainer: Explainer
    solutions: Solutions | None
    problem: str | None = None
    """Why no step is offered: the givens break a rule, or leave a cell without candidates."""
    contradiction: str | None = None
    """For a puzzle without solution: the contradiction the techniques reach."""
    timed_out: bool = False
    """Whether the time given (``GradeOptions.timeout``) ran out before a step was found."""
    settings: dict[str, Any] = field(default_factory=dict)
    """What affects the steps' costs, as a grade's report stamps it (:func:`settings_of`)."""
    notes: list[str] = field(default_factory=list)
    """What the grade's report would note (the exact search timed out, techniques left out)."""

    def warning(self) -> str | None:
        """What to say besides the step: no solution, or several."""
        if self.problem is not None:
            return self.problem
        if self.solutions == 0:
            reached = f"; the techniques reach: {self.contradiction}" if self.contradiction else ""
            return f"this puzzle has no solution (the exact search){reached}"
        if self.solutions == "2+":
            return "this puzzle has 2+ solutions (the exact search): no deduction can finish it"
        return None


def hint_notes(found: Hint, timeout: float | None) -> list[str]:
    """What to say besides the hint, worded as grade's notes (the exact search timed out,
    techniques left out), and whether ``timeout`` ran out before a step was found."""
    if found.problem is not None:
        return []
    notes = list(found.notes)
    if found.timed_out:  # the deadline passed before a step was found
        notes.append(f"timed out after {seconds_text(timeout)} before a step was found; no hint")
    return notes


def hint_payload(puzzle: Puzzle, found: Hint, timeout: float | None) -> dict[str, Any]:
    """The next step as ``grader hint --json`` prints it (and the server answers it): the
    puzzle's id, the step with its evidence (None without one), the solutions, the problem
    and notes when there are any, the version and the settings."""
    payload: dict[str, Any] = {
        "id": puzzle.id,
        "hint": step_dict(found.steps[0], found.explainer) if found.steps else None,
        "solutions": found.solutions,
    }
    if (warning := found.warning()) is not None:
        payload["problem"] = warning
    if notes := hint_notes(found, timeout):
        payload["notes"] = notes
    payload.update(version=__version__, settings=found.settings)
    return payload


def next_step(puzzle: Puzzle, options: GradeOptions | None = None) -> Hint:
    """The first wave of :func:`grade` with the same options (so the exact search runs, and
    uniqueness techniques may be offered), whose first step is the first step of the grade;
    none when the givens break a rule, leave a cell without candidates, or no technique
    applies (or the puzzle is solved)."""
    options = options or GradeOptions()
    started = time.monotonic()
    deadline = None if options.timeout is None else started + options.timeout
    techniques = rating_techniques(puzzle.family, puzzle.model, options)
    settings = settings_of(techniques, options)
    checker = Engine(puzzle.model, [])
    broken = checker.check_state(puzzle.clue_state)
    if broken is not None:
        problem = f"the givens break a rule: {broken.reason}"
        return Hint([], Explainer(puzzle.model, []), 0, problem, settings=settings)
    empty = checker.check_state(puzzle.givens)
    if empty is not None:
        problem = f"no solution: {empty.reason} once the givens are crossed out"
        return Hint([], Explainer(puzzle.model, []), 0, problem, settings=settings)
    setup = _setup(puzzle, options, deadline, techniques)
    engine = setup.engine
    run = engine.run(puzzle.givens, max_steps=1, stated=stated_at_start(puzzle))
    hint = Hint(
        run.steps,
        Explainer(puzzle.model, list(engine.techniques)),
        setup.solutions,
        timed_out=run.status == "timeout",
        settings=settings,
        notes=setup.notes,
    )
    if setup.solutions == 0:
        whole = engine.run(puzzle.givens, stated=stated_at_start(puzzle))
        if whole.contradiction is not None:
            hint.contradiction = whole.contradiction.reason
    return hint


def hint(puzzle: Puzzle, options: GradeOptions | None = None) -> tuple[list[Step], Explainer]:
    """The next step(s) and their explainer (see :func:`next_step`, which says more)."""
    found = next_step(puzzle, options)
    return found.steps, found.explainer


def counts_by_name(grades: list[Grade]) -> Mapping[str, int]:
    out: dict[str, int] = {}
    for g in grades:
        for name, entry in g.technique_counts().items():
            out[name] = out.get(name, 0) + int(entry["count"])
    return out
