"""Soundness at scale: every step on random partial states, checked against the exact search.

    python bench/soundness.py                    # 100,000 states per family (long)
    python bench/soundness.py --states 2000      # a quick look
    python bench/soundness.py --family sudoku --states 5000

A random partial puzzle is a random solution with a random share of its cells revealed (and of
the family's other hints: signs, clues), plus random wrong candidates crossed out. The engine
runs every technique of the family (guessing excluded; depth-2 lookahead only on boards of at
most 36 cells) from there; each step's pre-state counts
as one state, and every value the step removes is asked of the SAT solver: if some solution of
that state still has the value, the step is unsound. Prints, per family, the states and steps
checked, the unsound steps (must be 0) and the states per second.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass

from grader.costs import choose
from grader.engine import Engine, apply_step
from grader.exact import search_for
from grader.model import Model, State, values_of
from grader.registry import families
from grader.techniques import Guess

CASES: list[tuple[str, tuple[int, int], dict]] = [
    ("binairo", (6, 6), {}),
    ("binairo", (8, 8), {"unique_lines": True}),
    ("binairo", (10, 10), {}),
    ("tango", (6, 6), {}),
    ("sudoku", (4, 4), {}),
    ("sudoku", (6, 6), {}),
    ("sudoku", (9, 9), {}),
    ("siteswap", (3, 4), {"nontrivial": True, "distinct": True}),
    ("siteswap", (4, 4), {}),
    ("siteswap", (9, 9), {"latin": True, "boxes": True}),
    ("pairplace", (6, 6), {}),
    ("pairplace", (8, 8), {}),
    ("path", (6, 6), {}),
    ("path", (8, 8), {}),
]

DEEP = {"lookahead-2", "lookahead-3"}
"""Techniques checked on boards of at most 36 cells only: on larger ones a single scan takes
seconds (they are built from the same steps as the techniques checked everywhere)."""


@dataclass
class Tally:
    puzzles: int = 0
    states: int = 0
    removals: int = 0
    unsound: int = 0
    seconds: float = 0.0


def random_partial(
    family, template: Model, rng: random.Random
) -> tuple[Model, State, list[int]] | None:
    """A random partial puzzle that the solution satisfies (model, state, solution)."""
    try:
        solution = family.random_solution(template, rng)
    except Exception:  # a family without random solutions for this size
        return None
    share = rng.uniform(0.05, 0.6)
    hints = [h for h in family.extra_hints(template, solution) if rng.random() < share / 2]
    model = family.with_hints(template, hints) if hints else template
    state = list(model.initial_state())
    if family.cell_hints:
        for var, value in enumerate(solution):
            if rng.random() < share:
                state[var] = 1 << value
            elif rng.random() < share:  # cross out some wrong candidates
                wrong = [x for x in values_of(state[var]) if x != value]
                for x in rng.sample(wrong, rng.randint(0, len(wrong))):
                    state[var] &= ~(1 << x)
    return model, family.start_state(model, state), solution


def check_family(
    name: str, size, options, states: int, seed: int, tally: Tally, stop: float
) -> None:
    family = families()[name]
    template = family.empty_model(size, options)
    rng = random.Random(f"{seed}:{name}:{size}")
    started = time.monotonic()
    while tally.states < states and time.monotonic() < stop:
        made = random_partial(family, template, rng)
        if made is None:
            return
        model, state, _ = made
        techniques = [
            t
            for t in choose(family, model)
            if not isinstance(t, Guess) and (t.name not in DEEP or len(state) <= 36)
        ]
        search = search_for(model)
        run = Engine(model, techniques, verify=False).run(state)
        tally.puzzles += 1
        current = list(state)
        for step in run.steps:
            if step.contradiction is not None:
                tally.unsound += 1  # the state has a solution: no contradiction may be found
                print(f"  UNSOUND {name}: contradiction on a solvable state: {step}", flush=True)
                break
            tally.states += 1
            removed = [(v, x) for v, x in step.eliminations if current[v] >> x & 1]
            for var, value in step.placements:
                removed.extend((var, x) for x in values_of(current[var]) if x != value)
            bad = [(v, x) for v, x in removed if search.is_possible(current, v, x)]
            tally.removals += len(removed)
            if bad:
                tally.unsound += 1
                print(f"  UNSOUND {name}: {step.technique} removed {bad[:3]}", flush=True)
            apply_step(current, step)
            if tally.states % 10_000 == 0:
                print(
                    f"  {name} {size}: {tally.states} states, {tally.unsound} unsound", flush=True
                )
    tally.seconds += time.monotonic() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=100_000, help="states per family")
    parser.add_argument("--family", action="append", help="only these families")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--minutes", type=float, default=None, help="at most this long per family (then stop)"
    )
    args = parser.parse_args()
    known = families()
    names = args.family or sorted({name for name, _, _ in CASES if name in known})
    total_unsound = 0
    print(
        f"{'family':<10} {'puzzles':>8} {'states':>8} {'removals':>9} {'unsound':>7} "
        f"{'states/s':>9}"
    )
    for name in names:
        cases = [c for c in CASES if c[0] == name]
        tally = Tally()
        started = time.monotonic()
        for index, (_, size, options) in enumerate(cases):
            share = args.states * (index + 1) // len(cases)
            budget = None if args.minutes is None else args.minutes * 60 * (index + 1) / len(cases)
            stop = float("inf") if budget is None else started + budget
            check_family(name, size, options, share, args.seed, tally, stop)
        rate = tally.states / tally.seconds if tally.seconds else 0.0
        print(
            f"{name:<10} {tally.puzzles:>8} {tally.states:>8} {tally.removals:>9} "
            f"{tally.unsound:>7} {rate:>9.0f}",
            flush=True,
        )
        total_unsound += tally.unsound
    return 1 if total_unsound else 0


if __name__ == "__main__":
    sys.exit(main())
