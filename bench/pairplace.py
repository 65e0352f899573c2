"""Pair place figures: generation per graph and level (time, attempts, givens, uniqueness by the
exact search), the level mix of minimal unique puzzles, and the shared examples.

    .venv/bin/python bench/pairplace.py [--count 3] [--timeout 120] [--levels trivial,easy]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter

from vs_common import DEFAULT_DATA

from grader.core.engine import Engine
from grader.core.exact import count_solutions
from grader.generation.generator import Generator, Request
from grader.rating.costs import choose
from grader.rating.loading import load, puzzle_from_dict
from rules.pairplace.family import FAMILY

CUBE = "AB,BC,CD,DA,EF,FG,GH,HE,AE,BF,CG,DH"
GRAPHS = {
    "K6": ((6, 6), {}),
    "K8": ((8, 8), {}),
    "K10": ((10, 10), {}),
    "cube": ((8, 8), {"edges": CUBE}),
    "C6": ((6, 6), {"graph": "cycle"}),
}
LEVELS = ("trivial", "easy", "normal", "hard", "expert", "extreme")


def generation(name: str, level: str, count: int, timeout: float) -> str:
    size, options = GRAPHS[name]
    request = Request(
        "pairplace", size, level, count=count, seed=1, options=options, timeout=timeout
    )
    generator = Generator(request)
    started = time.monotonic()
    found = list(generator.puzzles())
    seconds = time.monotonic() - started
    unique = givens = 0
    for item in found:
        puzzle = puzzle_from_dict(item.data, "bench", "bench")
        unique += count_solutions(puzzle.model, puzzle.givens)[0] == 1
        givens += puzzle.given_count()
    per = seconds / len(found) if found else float("nan")
    mean_givens = givens / len(found) if found else float("nan")
    note = f"  ({generator.gave_up})" if generator.gave_up else ""
    return (
        f"{name:5} {level:8} {len(found)}/{count} in {seconds:6.1f} s ({per:5.1f} s each), "
        f"{generator.attempts:3} attempts, givens {mean_givens:4.1f}, unique {unique}/{len(found)}"
        f"{note}"
    )


def minimal_mix(name: str, samples: int) -> str:
    """Levels of minimal unique puzzles (clues removed while the exact search stays unique)."""
    size, options = GRAPHS[name]
    model = FAMILY.empty_model(size, options)
    engines = {level: Engine(model, choose(FAMILY, model, level)) for level in LEVELS[:5]}
    mix: Counter[str] = Counter()
    started = time.monotonic()
    for seed in range(samples):
        rng = random.Random(seed)
        solution = FAMILY.random_solution(model, rng)
        state = [1 << v for v in solution]
        for var in rng.sample(range(len(state)), len(state)):
            trial = list(state)
            trial[var] = model.variables[var].domain
            if count_solutions(model, trial)[0] == 1:
                state = trial
        level = next((lv for lv, e in engines.items() if e.run(state).solved), "beyond")
        mix[level] += 1
    seconds = time.monotonic() - started
    text = ", ".join(f"{lv} {mix[lv]}" for lv in [*LEVELS[:5], "beyond"] if mix[lv])
    return f"{name:5} minimal unique puzzles ({samples}, {seconds:.1f} s): {text}"


def random_solutions(name: str, runs: int) -> str:
    size, options = GRAPHS[name]
    model = FAMILY.empty_model(size, options)
    times = []
    for seed in range(runs):
        started = time.perf_counter()
        FAMILY.random_solution(model, random.Random(seed))
        times.append(time.perf_counter() - started)
    return f"{name:5} random solution: median {1000 * statistics.median(times):.1f} ms"


def shared_examples() -> str:
    path = DEFAULT_DATA / "pair_place_examples.json"
    if not path.exists():
        return "shared examples: not available"
    puzzles = load(str(path))
    ok = sum(
        all(c.satisfied_by(p.solution) for c in p.model.constraints)
        for p in puzzles
        if p.solution is not None
    )
    return f"shared examples: {len(puzzles)} loaded, {ok} solutions satisfy every rule"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--levels", default="trivial,easy,normal,hard,expert")
    parser.add_argument("--graphs", default="K6,K8,K10,cube,C6")
    parser.add_argument("--samples", type=int, default=40)
    args = parser.parse_args()
    graphs = args.graphs.split(",")
    print(shared_examples())
    for name in graphs:
        print(random_solutions(name, 20))
    for name in graphs:
        print(minimal_mix(name, args.samples))
    for name in graphs:
        for level in args.levels.split(","):
            print(generation(name, level, args.count, args.timeout), flush=True)


if __name__ == "__main__":
    main()
