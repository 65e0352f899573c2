"""The puzzles the conformance kit runs a family on, derived from the family itself.

From one generated puzzle (unique, with its solution) the kit derives, for any family:

- a puzzle with two or more solutions (givens taken away; at worst the empty room);
- one whose givens visibly break a rule (a given changed, or one given added, that the rules'
  checks refuse at once);
- one with no solution that the rules' checks do not see but the techniques find (a wrong
  given added, or one of the family's other hints, such as a clue, taken from another
  solution).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from grader.core.engine import Engine
from grader.core.errors import FieldProblem
from grader.core.exact import count_solutions
from grader.core.model import Model, State, is_single, values_of
from grader.generation.generator import Generated, Request, generate
from grader.rating.costs import choose
from grader.rating.family import Family

CANDIDATES = 400
"""Changed puzzles tried at most when looking for the two contradicting ones."""


@dataclass
class Case:
    """One puzzle of the kit: its file dict and what grading it must say."""

    name: str
    data: dict[str, Any]
    solutions: int | str
    """1, ``"2+"`` or 0."""
    contradiction: str | None = None
    """``"givens"`` (the rules' checks see it at once) or ``"deduced"`` (the techniques)."""


@dataclass
class Cases:
    """The four puzzles, and the generated one they come from."""

    source: Generated
    unique: Case
    two_solutions: Case
    givens_conflict: Case | None
    deduced_conflict: Case | None

    def all(self) -> list[Case]:
        found = [self.unique, self.two_solutions, self.givens_conflict, self.deduced_conflict]
        return [case for case in found if case is not None]


def smallest_cell(family: Family) -> tuple[tuple[int, int], str] | None:
    """The smallest size the family declares reachable, with its first reachable level."""
    cells = sorted(family.reachable.items(), key=lambda item: (item[0][0] * item[0][1], item[0]))
    for size, levels in cells:
        if levels:
            return size, levels[0]
    return None


def first_puzzle(family: Family, seed: int = 1, timeout: float = 60) -> Generated:
    """A generated puzzle at the family's smallest reachable size and level (or its default
    size, trying each level, when it declares none)."""
    cell = smallest_cell(family)
    tries = [cell] if cell else [(family.default_size, level) for level in family.levels]
    for size, level in tries:
        request = Request(family.name, size, level, count=1, seed=seed, timeout=timeout)
        for puzzle in generate(request):
            return puzzle
    raise AssertionError(f"{family.name}: the generator made no puzzle at {tries}")


def derive(family: Family, source: Generated, seed: int = 1) -> Cases:
    """The kit's four puzzles from one generated puzzle."""
    model, clues, solution = source.model, list(source.givens), list(source.solution)
    unique = Case("unique", family.to_data(model, clues), 1)
    two = _two_solutions(family, model, clues, source)
    visible, deduced = _contradictions(family, model, clues, solution, seed)
    return Cases(source, unique, two, visible, deduced)


def _start(family: Family, model: Model, state: State) -> State:
    return family.start_state(model, state)


def _two_solutions(family: Family, model: Model, clues: State, source: Generated) -> Case:
    """The puzzle with givens taken away, in variable order, until it has two solutions; the
    empty room when the family's other hints alone make it unique."""
    state = list(clues)
    domains = model.initial_state()
    for var, mask in enumerate(clues):
        if is_single(mask) and mask != domains[var]:
            state[var] = domains[var]
            count, _ = count_solutions(model, _start(family, model, state), 2)
            if count >= 2:
                return Case("two solutions", family.to_data(model, state), "2+")
    empty = family.empty_model(source.model.size, _rule_options(family, source))
    count, _ = count_solutions(empty, empty.initial_state(), 2)
    if count < 2:
        raise AssertionError(f"{family.name}: even the empty puzzle has {count} solution(s)")
    return Case("two solutions", family.to_data(empty, empty.initial_state()), "2+")


def _rule_options(family: Family, source: Generated) -> dict[str, Any]:
    rules = source.data.get("rules")
    return dict(rules) if isinstance(rules, dict) else {}


def _changed_states(model: Model, clues: State, solution: Sequence[int]) -> Iterator[State]:
    """The givens with one given changed, then with one wrong given added."""
    decided = [v for v, m in enumerate(clues) if is_single(m)]
    open_vars = [v for v, m in enumerate(clues) if not is_single(m)]
    for group in (decided, open_vars):
        for var in group:
            for value in values_of(model.variables[var].domain):
                if value != solution[var]:
                    state = list(clues)
                    state[var] = 1 << value
                    yield state


def _changed_hints(
    family: Family, model: Model, solution: Sequence[int], rng: random.Random
) -> Iterator[Model]:
    """The model showing every hint of the solution plus one of another solution's that the
    solution breaks (for families whose hints are not cells)."""
    own = family.extra_hints(model, solution)
    if not own:
        return
    for _ in range(3):
        try:
            other = family.random_solution(family.with_hints(model, []), rng)
        except (FieldProblem, NotImplementedError):
            return
        for hint in family.extra_hints(model, other):
            if hint not in own and family.hint_excludes(model, hint, solution):
                try:
                    yield family.with_hints(model, [*own, hint])
                except FieldProblem:
                    continue


def _contradictions(
    family: Family, model: Model, clues: State, solution: list[int], seed: int
) -> tuple[Case | None, Case | None]:
    """A puzzle whose givens visibly break a rule and one whose contradiction the techniques
    find, from the first changed puzzles that are so."""
    visible: Case | None = None
    deduced: Case | None = None
    rng = random.Random(seed)

    def candidates() -> Iterator[tuple[Model, State]]:
        if family.cell_hints:  # the family's files can hold cells
            for state in _changed_states(model, clues, solution):
                yield model, state
        for changed in _changed_hints(family, model, solution, rng):
            yield changed, list(clues)

    for tried, (where, state) in enumerate(candidates()):
        if tried >= CANDIDATES or (visible and deduced):
            break
        start = _start(family, where, state)
        if Engine(where, []).check_state(start) is not None:
            if visible is None:
                visible = Case("givens break a rule", family.to_data(where, state), 0, "givens")
            continue
        if deduced is not None or count_solutions(where, start, 1)[0] != 0:
            continue
        engine = Engine(where, choose(family, where, None, None))
        if engine.run(start).status == "contradiction":
            deduced = Case("contradiction deduced", family.to_data(where, state), 0, "deduced")
    return visible, deduced
