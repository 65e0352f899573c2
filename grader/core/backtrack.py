"""A plain randomized backtracking search over the constraints' own domain filtering.

It serves three jobs: a random complete solution for the generator (seeded), the seed's
"random guesses" metric (mean number of guesses a randomized backtracking solver makes before it
finds the solution, over N runs), and a second opinion on the SAT count in tests.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable
from dataclasses import dataclass

from grader.core.clock import ambient_deadline
from grader.core.model import Model, State, is_single, values_of


class SearchLimit(Exception):
    """The search used up its node or time budget."""


def propagate(model: Model, state: State, touched: Iterable[int] | None = None) -> State | None:
    """Filter domains with every constraint's ``prune`` until nothing changes (None: dead end)."""
    state = list(state)
    pending = set(range(len(model.constraints))) if touched is None else set(touched)
    constraints = model.constraints
    var_constraints = model.var_constraints
    while pending:
        ci = pending.pop()
        narrowed = constraints[ci].prune(state)
        if narrowed is None:
            return None
        for var, mask in narrowed:
            mask &= state[var]
            if not mask:
                return None
            if mask != state[var]:
                state[var] = mask
                pending.update(var_constraints[var])
    return state


@dataclass
class SearchStats:
    guesses: int = 0
    nodes: int = 0


def _choose(state: State, rng: random.Random) -> int | None:
    """A random open variable among those with the fewest values left (None: all decided)."""
    sizes = [
        (mask.bit_count(), var) for var, mask in enumerate(state) if mask & (mask - 1) or not mask
    ]
    if not sizes:
        return None
    least = min(sizes)[0]
    return rng.choice([var for size, var in sizes if size == least])


def solve_random(
    model: Model,
    state: State,
    rng: random.Random,
    *,
    max_nodes: int | None = None,
    deadline: float | None = None,
    stats: SearchStats | None = None,
) -> list[int] | None:
    """One solution found by randomized depth-first search, or None if there is none. Past
    ``deadline`` (by default the ambient one, :mod:`grader.core.clock`) it raises
    :class:`SearchLimit`."""
    if deadline is None:
        deadline = ambient_deadline()
    stats = stats or SearchStats()
    start = propagate(model, state)
    if start is None:
        return None
    stack: list[tuple[State, int, list[int]]] = []
    current = start
    while True:
        var = _choose(current, rng)
        if var is None:
            return [mask.bit_length() - 1 for mask in current]
        values = list(values_of(current[var]))
        rng.shuffle(values)
        stats.guesses += 1
        stack.append((current, var, values))
        current = None  # type: ignore[assignment]
        while stack:
            stats.nodes += 1
            if max_nodes is not None and stats.nodes > max_nodes:
                raise SearchLimit
            if deadline is not None and stats.nodes % 64 == 0 and time.monotonic() > deadline:
                raise SearchLimit
            parent, var, values = stack[-1]
            if not values:
                stack.pop()
                continue
            value = values.pop()
            trial = list(parent)
            trial[var] = 1 << value
            result = propagate(model, trial, model.var_constraints[var])
            if result is not None:
                current = result
                break
        if current is None:
            return None


def count_plain(model: Model, state: State, limit: int = 2) -> int:
    """Number of solutions up to ``limit`` by plain depth-first search (a second opinion)."""
    found = 0
    start = propagate(model, state)
    if start is None:
        return 0
    stack = [start]
    while stack:
        current = stack.pop()
        var = next((v for v, m in enumerate(current) if not is_single(m)), None)
        if var is None:
            found += 1
            if found >= limit:
                return found
            continue
        for value in values_of(current[var]):
            trial = list(current)
            trial[var] = 1 << value
            result = propagate(model, trial, model.var_constraints[var])
            if result is not None:
                stack.append(result)
    return found


def random_guesses(model: Model, state: State, runs: int = 10, seed: int = 0) -> float:
    """Mean number of guesses a randomized backtracking solver needs, over ``runs`` runs."""
    rng = random.Random(seed)
    total = 0
    for _ in range(runs):
        stats = SearchStats()
        solve_random(model, state, rng, stats=stats)
        total += stats.guesses
    return total / runs if runs else 0.0
