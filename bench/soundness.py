"""Soundness at scale: every step on random partial states, checked against the exact search.

    python bench/soundness.py                    # 100,000 states per family (long)
    python bench/soundness.py --states 2000      # a quick look
    python bench/soundness.py --family sudoku --states 5000

    python bench/soundness.py --family path --workers 2 --minutes 30
    python bench/soundness.py --production --minutes 3   # as grade runs, see below

A random partial puzzle is a random solution with a random share of its cells revealed (and of
the family's other hints: signs, clues), plus random wrong candidates crossed out; each random
solution gives ``--per-solution`` of them. The engine runs every technique of the family from
there (guessing excluded; lookaheads only as deep as the board's case allows, see ``CASES``);
each step's pre-state counts as one state, and every value the step removes is asked of the SAT
solver: if some solution of that state still has the value, the step is unsound. Prints, per
family, the states checked, the values removed, the unsound steps (must be 0), the states per
second of one process, the wall-clock minutes and the steps checked per technique.

``--settle`` also propagates each state as the generator does (:meth:`Engine.settle`, the
random solution known, rule checks off): lookahead removing every failing assumption of a pass
at once and reusing earlier trials, lines taken to their own fixpoint in one call, binary
states held as bytes. It keeps no steps, so every value it removed from the state is asked of
the exact search (column ``settled``).

``--production`` checks the engine as ``grade`` builds it: the exact search counts the state's
solutions first and the engine knows them (lookahead skips their values; unique rectangles and
BUG run when the state has one solution), rule checks after each step are off, and every
technique a user can switch on runs (the whole table but guessing, which places the known
answer), lookahead up to depth 2 on every board, and a family that places every cell by a step
(Sudoku, Siteswap with full houses) has its givens stated, so a cell left with one candidate is
placed by a single (``Family.stated_cells``). The ``unique`` column counts the states with
one solution. The siteswap cases include partial houses: latin runs cut by holes and boxes with
fewer cells than throws.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from grader.core.engine import Engine, apply_step
from grader.core.exact import count_solutions, search_for
from grader.core.model import Model, State, values_of
from grader.generation.generator import packed_state
from grader.rating.costs import build_table, choose, technique_table
from grader.rating.registry import families
from grader.techniques import Guess
from soundness import random_puzzles, removed_values


@dataclass(frozen=True)
class Case:
    """A board to draw random partial states on.

    ``depth`` is the deepest lookahead checked there (0: none): a lookahead step is built from
    the cheaper techniques' steps, all checked everywhere, and one scan on a large board takes
    seconds, so the deep ones run on the small boards. ``weight`` is the case's share of the
    family's states.
    """

    family: str
    size: tuple[int, int]
    options: dict = field(default_factory=dict)
    depth: int = 3
    weight: float = 1.0


CASES: list[Case] = [
    Case("binairo", (6, 6)),
    Case("binairo", (8, 8), {"unique_lines": True}, depth=1),
    Case("binairo", (10, 10), depth=1),
    Case("tango", (6, 6)),
    Case("sudoku", (4, 4)),
    Case("sudoku", (6, 6)),
    Case("sudoku", (9, 9), depth=1),
    Case("siteswap", (3, 4), {"nontrivial": True, "distinct": True}, depth=1, weight=0.5),
    Case("siteswap", (4, 4), depth=1, weight=0.5),
    Case("siteswap", (4, 5), {"nontrivial": True, "distinct": True}, depth=0),
    Case("siteswap", (5, 5), depth=0, weight=0.5),
    Case("siteswap", (6, 6), {"latin": True, "boxes": True}, depth=0),
    Case("siteswap", (9, 9), {"latin": True, "boxes": True}, depth=0),
    # partial houses: runs cut by holes, boxes holding fewer cells than throws
    Case("siteswap", (7, 7), {"latin": True, "throws": [1, 7], "holes": [[0, 0]]}, depth=1),
    Case("siteswap", (5, 5), {"latin": True, "throws": [1, 5], "holes": [[2, 2]]}, weight=0.5),
    Case("siteswap", (4, 4), {"latin": True, "boxes": [2, 2], "throws": [1, 7]}, weight=0.5),
    Case("siteswap", (6, 6), {"boxes": [3, 2], "throws": [1, 9]}, depth=0, weight=0.5),
    Case("pairplace", (6, 6)),
    Case("pairplace", (8, 8), depth=1),
    Case("path", (4, 4), depth=1, weight=0.5),
    Case("path", (5, 5), depth=1, weight=0.5),
    Case("path", (6, 6), depth=0),
    Case("path", (8, 8), depth=0),
]

LOOKAHEAD_DEPTH = {"lookahead-1": 1, "lookahead-2": 2, "lookahead-3": 3}
PRODUCTION_DEPTH = 2


@dataclass
class Tally:
    puzzles: int = 0
    states: int = 0
    removals: int = 0
    settled: int = 0
    unsound: int = 0
    unique: int = 0
    seconds: float = 0.0
    steps: Counter = field(default_factory=Counter)

    def add(self, other: Tally) -> None:
        self.puzzles += other.puzzles
        self.states += other.states
        self.removals += other.removals
        self.settled += other.settled
        self.unsound += other.unsound
        self.unique += other.unique
        self.seconds += other.seconds
        self.steps.update(other.steps)


def check_case(
    case: Case,
    states: int,
    seed: int,
    per_solution: int,
    seconds: float,
    production: bool,
    settle: bool = False,
) -> Tally:
    """Check the steps of engine runs from random partial states until ``states`` are checked
    (or ``seconds`` have passed)."""
    tally = Tally()
    family = families()[case.family]
    template = family.empty_model(case.size, case.options)
    rng = random.Random(f"{seed}:{case.family}:{case.size}")
    started = time.monotonic()
    stop = started + seconds
    label = f"{case.family} {case.size[0]}x{case.size[1]}"
    while tally.states < states and time.monotonic() < stop:
        made = False
        for model, givens, state, solution in random_puzzles(family, template, rng, per_solution):
            made = True
            depth = PRODUCTION_DEPTH if production else case.depth
            # as grade runs it: a family that places every cell by a step states its givens
            stated = family.stated_cells(model, givens) if production else None
            check_run(family, model, state, depth, tally, label, production, stop, stated)
            if settle:
                check_settle(family, model, state, solution, depth, tally, label, stop)
            if tally.states >= states or time.monotonic() >= stop:
                break
        if not made:
            break
    tally.seconds = time.monotonic() - started
    return tally


def check_run(
    family,
    model: Model,
    state: State,
    depth: int,
    tally: Tally,
    label: str,
    production: bool,
    stop: float | None = None,
    stated: set[int] | None = None,
) -> None:
    """Run the engine from ``state`` (until ``stop``, a monotonic time; ``stated``: the cells
    the puzzle states, see :meth:`grader.core.engine.Engine.run`); ask the exact search about every
    value a step removes."""
    if production:  # the whole table, default or not
        every = build_table(family, technique_table(family, model))
    else:
        every = choose(family, model)
    techniques = [
        t for t in every if not isinstance(t, Guess) and LOOKAHEAD_DEPTH.get(t.name, 0) <= depth
    ]
    search = search_for(model)
    if production:  # as grade builds it: the exact search first, its solutions known
        count, found = count_solutions(model, state, 2)
        tally.unique += count == 1
        engine = Engine(model, techniques, deadline=stop, solutions=found, verify=not found)
    else:
        engine = Engine(model, techniques, deadline=stop, verify=False)
    run = engine.run(state, stated=stated)
    tally.puzzles += 1
    current = list(state)
    for step in run.steps:
        if step.contradiction is not None:
            tally.unsound += 1  # the state has a solution: no contradiction may be found
            print(f"  UNSOUND {label}: contradiction on a solvable state: {step}", flush=True)
            break
        tally.states += 1
        tally.steps[step.technique] += 1
        removed = removed_values(current, step)
        bad = [(v, x) for v, x in removed if search.is_possible(current, v, x)]
        tally.removals += len(removed)
        if bad:
            tally.unsound += 1
            print(f"  UNSOUND {label}: {step.technique} removed {bad[:3]}", flush=True)
        apply_step(current, step)
        if tally.states % 10_000 == 0:
            print(f"  {label}: {tally.states} states, {tally.unsound} unsound", flush=True)


def check_settle(
    family,
    model: Model,
    state: State,
    solution: list[int],
    depth: int,
    tally: Tally,
    label: str,
    stop: float,
) -> None:
    """Propagate ``state`` as the generator does and ask the exact search about every value
    the propagation removed."""
    techniques = [
        t
        for t in choose(family, model)
        if not isinstance(t, Guess) and LOOKAHEAD_DEPTH.get(t.name, 0) <= depth
    ]
    engine = Engine(
        model, techniques, deadline=stop, solutions=[solution], unique=False, verify=False
    )
    run = engine.settle(packed_state(family, state))
    if run.status == "timeout":
        return
    search = search_for(model)
    if run.status == "contradiction":
        tally.unsound += 1  # the state has a solution
        print(f"  UNSOUND {label}: settle found a contradiction: {run.contradiction}", flush=True)
        return
    removed = [
        (v, x)
        for v, (before, after) in enumerate(zip(state, run.state, strict=True))
        for x in values_of(before & ~after)
    ]
    tally.settled += len(removed)
    bad = [(v, x) for v, x in removed if search.is_possible(list(state), v, x)]
    if bad:
        tally.unsound += 1
        print(f"  UNSOUND {label}: settle removed {bad[:3]}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=100_000, help="states per family")
    parser.add_argument("--family", action="append", help="only these families")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--minutes", type=float, default=None, help="at most this long per family (then stop)"
    )
    parser.add_argument(
        "--per-solution", type=int, default=4, help="random partial states per random solution"
    )
    parser.add_argument("--workers", type=int, default=1, help="processes checking cases")
    parser.add_argument(
        "--production",
        action="store_true",
        help="the engine as grade builds it: solutions known, every technique, lookahead-2",
    )
    parser.add_argument(
        "--settle",
        action="store_true",
        help="also propagate each state as the generator does and check what it removed",
    )
    args = parser.parse_args()
    known = families()
    names = args.family or sorted({case.family for case in CASES if case.family in known})
    total_unsound = 0
    print(
        f"{'family':<10} {'puzzles':>8} {'states':>8} {'removals':>9} {'settled':>8} "
        f"{'unsound':>7} "
        f"{'states/s':>9} {'minutes':>8}" + (f" {'unique':>7}" if args.production else ""),
        flush=True,
    )
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for name in names:
            cases = [case for case in CASES if case.family == name]
            weights = sum(case.weight for case in cases)
            started = time.monotonic()
            budget = float("inf") if args.minutes is None else args.minutes * 60 / len(cases)
            jobs = [
                pool.submit(
                    check_case,
                    case,
                    math.ceil(args.states * case.weight / weights),
                    args.seed,
                    args.per_solution,
                    budget * args.workers,
                    args.production,
                    args.settle,
                )
                for case in cases
            ]
            tally = Tally()
            for case, job in zip(cases, jobs, strict=True):
                part = job.result()
                rate = part.states / part.seconds if part.seconds else 0.0
                size = f"{case.size[0]}x{case.size[1]}"
                print(f"  {size:<8} {part.puzzles:>8} {part.states:>8} {'':>26} {rate:>9.0f}")
                tally.add(part)
            wall = time.monotonic() - started
            rate = tally.states / tally.seconds if tally.seconds else 0.0
            unique = f" {tally.unique:>7}" if args.production else ""
            print(
                f"{name:<10} {tally.puzzles:>8} {tally.states:>8} {tally.removals:>9} "
                f"{tally.settled:>8} {tally.unsound:>7} {rate:>9.0f} {wall / 60:>8.1f}{unique}",
                flush=True,
            )
            steps = ", ".join(f"{t} {n}" for t, n in tally.steps.most_common())
            print(f"  steps checked: {steps}", flush=True)
            total_unsound += tally.unsound
    return 1 if total_unsound else 0


if __name__ == "__main__":
    sys.exit(main())
