"""Find a real state where each technique fires, for the manual and its test.

For every family, solve puzzles wave by wave — the project's examples and puzzles made by the
generator at each level — with the family's default table and the exact search's solution
(``solutions=``, so uniqueness-based techniques may fire; ``guess`` is tried only where the
default table is stuck). A technique's example is a state where it is the cheapest productive
technique, i.e. the start of a wave of it, kept as:

- best, a puzzle file whose *first* wave is that technique: the state's decided cells written
  by ``Family.to_data``, loaded again and checked (the candidates crossed out on the way are
  not in a file, so its first wave may be another technique), or a state where the cheaper
  techniques are stuck from the start (revealing cells of a random solution and propagating
  with the cheaper techniques until the state is unique);
- else the puzzle file and ``replay``: how many waves of the default table lead from its givens
  to the state (a Path file holds no partial path, a Sudoku file no pencil marks).

Among states of one kind, one with fewer steps in its wave wins (a cleaner picture). The
examples go to ``rules/<family>/technique_examples.json`` with the wave's conclusions as
[cell, symbol] pairs and the reasons of the techniques still without one (``missing``);
``tests/test_technique_examples.py`` checks them and ``docs/gen/families.py`` draws them.

    python bench/technique_examples.py                      # every family, a few minutes each
    python bench/technique_examples.py --family sudoku --minutes 20 --keep

``--alone`` also keeps, for a technique still without one, a state where it fires run alone
(a cheaper technique fires there too; the test and the page run it alone, and the page says so).
``--keep`` keeps the examples already in the files. The last lines name the techniques still
without an example.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from grader.core.engine import Engine
from grader.core.exact import count_solutions
from grader.core.model import Model
from grader.core.step import Step
from grader.generation.generator import Request, generate
from grader.rating.costs import choose, technique_table
from grader.rating.family import Family
from grader.rating.grading import stated_at_start
from grader.rating.loading import load, puzzle_from_dict
from grader.rating.registry import families

ROOT = Path(__file__).resolve().parent.parent
WAVE_SECONDS = 15.0
"""A wave that takes longer ends the solve it is in (deep lookahead on a large board)."""


def examples_path(family: str) -> Path:
    """Where a family's examples live."""
    return ROOT / "rules" / family / "technique_examples.json"


def table(family: Family) -> dict[str, float]:
    """The techniques of the family's table (its example's model, as ``grader techniques``
    lists them) with their costs."""
    model = puzzle_from_dict(family.example, f"{family.name} example", "example").model
    return {spec.technique_name: spec.cost for spec in technique_table(family, model)}


def pairs(model: Model, assignments: list[tuple[int, int]]) -> list[list[str]]:
    """Assignments as sorted, distinct [cell name, symbol] pairs."""
    out = {(model.name(v), model.symbol(x)) for v, x in assignments}
    return [list(p) for p in sorted(out)]


def waves(
    data: dict[str, Any], limit: int | None = None
) -> Iterator[tuple[int, list[Step], Model, list[int], list[list[int]]]]:
    """(waves before, steps, model, state before, solutions) of each wave of a unique puzzle
    file's solve, one fresh ``run(max_steps=1)`` a wave as the test replays them; where the
    default table is stuck, guess's wave. Nothing for a file that does not load or is not unique."""
    try:
        puzzle = puzzle_from_dict(data, "candidate", "candidate")
        count, found = count_solutions(puzzle.model, puzzle.givens, 2, time.monotonic() + 10)
    except Exception:  # a variant the family refuses, a slow search
        return
    if count != 1:
        return
    model = puzzle.model
    engine = Engine(model, choose(puzzle.family, model), solutions=found)
    state = list(puzzle.givens)
    stated = stated_at_start(puzzle)
    for number in itertools.count():
        if limit is not None and number >= limit:
            return
        engine.deadline = time.monotonic() + WAVE_SECONDS
        run = engine.run(state, max_steps=1, stated=stated)
        if run.status in ("timeout", "contradiction"):
            return
        if not run.steps:
            if run.status == "stuck":
                guessing = Engine(model, choose(puzzle.family, model, guess=True), solutions=found)
                guessed = guessing.run(state, max_steps=1, stated=stated)
                if guessed.steps:
                    yield number, guessed.steps, model, state, found
            return
        yield number, run.steps, model, state, found
        state, stated = list(run.state), run.stated


def alone_waves(
    family: Family, model: Model, state: list[int], names: list[str], found: list[list[int]]
) -> Iterator[tuple[str, list[Step]]]:
    """(technique, steps) of each technique of ``names`` that fires run alone on ``state``
    (a cheaper technique may fire there too)."""
    for technique in choose(family, model, guess=True):
        if technique.name not in names:
            continue
        engine = Engine(model, [technique], solutions=found)
        engine.deadline = time.monotonic() + WAVE_SECONDS
        run = engine.run(state, max_steps=1)
        if run.steps and run.status != "contradiction":
            yield technique.name, run.steps


def entry(
    data: dict, replay: int, steps: list[Step], where: str, alone: bool = False
) -> dict[str, Any]:
    """An example as the file keeps it."""
    model = puzzle_from_dict(data, "example", "example").model
    out: dict[str, Any] = {"puzzle": data}
    if replay:
        out["replay"] = replay
    if alone:
        out["alone"] = True
    out["placements"] = pairs(model, [a for s in steps for a in s.placements])
    out["eliminations"] = pairs(model, [a for s in steps for a in s.eliminations])
    out["steps"] = len(steps)
    out["found_in"] = where
    return out


def rank(example: dict[str, Any]) -> tuple[bool, bool, int]:
    """Lower is better: the cheapest productive technique over one run alone, a first wave
    over a replayed one, then fewer steps."""
    return bool(example.get("alone")), bool(example.get("replay")), example["steps"]


class Search:
    """The examples of one family found so far, and the files already tried."""

    def __init__(self, family: Family, found: dict[str, dict], alone: bool = False) -> None:
        self.family = family
        self.alone = alone
        self.costs = table(family)
        self.found = found
        self.seen: set[str] = set()

    def missing(self) -> list[str]:
        return [n for n in self.costs if n not in self.found]

    def wanted(self) -> list[str]:
        """The techniques without an example where they are the cheapest (missing, or kept
        only run alone), cheapest first."""
        return [n for n in self.costs if n not in self.found or self.found[n].get("alone")]

    def done(self) -> bool:
        """Every technique has a first-wave example of a single step."""
        return all(n in self.found and rank(self.found[n]) == (False, False, 1) for n in self.costs)

    def offer(self, new: dict[str, Any], tech: str) -> bool:
        """Keep ``new`` as ``tech``'s example if it is the first or a better one."""
        if tech not in self.costs:
            return False
        old = self.found.get(tech)
        if old is not None and rank(new) >= rank(old):
            return False
        self.found[tech] = new
        kind = f"after {new['replay']} waves" if new.get("replay") else "first wave"
        kind += ", run alone" if new.get("alone") else ""
        print(f"  {tech}: {kind}, {new['steps']} step(s), {new['found_in']}", flush=True)
        return True

    def try_file(self, data: dict[str, Any], where: str) -> str | None:
        """Offer a file's first wave; its technique (None: not unique, or tried before)."""
        key = json.dumps(data, sort_keys=True)
        if key in self.seen:
            return None
        self.seen.add(key)
        for _, steps, _, _, _ in waves(data, 1):
            self.offer(entry(data, 0, steps, where), steps[0].technique)
            return steps[0].technique
        return None

    def explore(self, source: dict[str, Any], where: str, stop: float) -> None:
        """Every wave of a source puzzle's solve, and each state's decided cells as a file."""
        source = without_solution(source)
        for number, steps, model, state, found in waves(source):
            if time.monotonic() > stop:
                return
            self.offer(entry(source, number, steps, where), steps[0].technique)
            if self.alone:
                lacking = self.missing()
                for name, alone in alone_waves(self.family, model, state, lacking, found):
                    self.offer(entry(source, number, alone, where, alone=True), name)
            if number and self.family.name != "path":  # a path file holds no partial path
                data = without_solution(self.family.to_data(model, state))
                self.try_file(data, f"{where}, its state after {number} waves as a file")


def without_solution(data: dict[str, Any]) -> dict[str, Any]:
    """A puzzle file without what does not make the puzzle (solution, meta, id, name)."""
    return {k: v for k, v in data.items() if k not in ("solution", "meta", "id", "name")}


def stuck_states(
    family: Family,
    size: tuple[int, int],
    options: dict,
    cap: list[str],
    rng: random.Random,
    stop: float,
) -> Iterator[dict[str, Any]]:
    """Files where the techniques ``cap`` get stuck and the solution is unique: hints of a
    random solution (its cells, and the family's other hints: signs, clues) revealed one by
    one in random order, each time propagated with ``cap``, until the state is unique."""
    template = family.empty_model(size, options)
    while time.monotonic() < stop:
        solution = family.random_solution(template, rng)
        model, solution = family.solution_model(template, solution)
        hints: list[Any] = [("hint", h) for h in family.extra_hints(model, solution)]
        if family.cell_hints:
            hints += [("cell", v) for v, x in enumerate(model.variables) if x.row >= 0]
        rng.shuffle(hints)
        shown: list[Any] = []
        cells: dict[int, int] = {}
        for kind, hint in hints:
            if time.monotonic() > stop:
                return
            if kind == "hint":
                shown.append(hint)
            else:
                cells[hint] = solution[hint]
            current = family.with_hints(model, sorted(shown)) if shown else model
            state = list(family.start_state(current, current.initial_state()))
            for var, value in cells.items():
                state[var] &= 1 << value
            engine = Engine(current, [t for t in choose(family, current) if t.name in cap])
            engine.deadline = stop
            run = engine.settle(state)
            if run.status != "stuck":
                break
            data = without_solution(family.to_data(current, list(run.state)))
            count, _ = count_solutions(*_model_and_givens(data), 2)
            if count == 1:
                yield data
                break


def _model_and_givens(data: dict[str, Any]) -> tuple[Model, list[int]]:
    puzzle = puzzle_from_dict(data, "candidate", "candidate")
    return puzzle.model, list(puzzle.givens)


STUCK: dict[str, list[tuple[tuple[int, int], dict, str]]] = {
    "binairo": [
        ((6, 6), {}, "expert"),
        ((8, 8), {}, "expert"),
        ((10, 10), {}, "expert"),
        ((6, 6), {}, "extreme"),
    ],
    "tango": [((6, 6), {}, "expert"), ((6, 6), {}, "extreme")],
    "sudoku": [
        ((9, 9), {}, "hard"),
        ((9, 9), {}, "trivial"),
        ((9, 9), {}, "expert"),
        ((6, 6), {}, "normal"),
    ],
    "siteswap": [
        ((4, 5), {"throws": [1, 5], "nontrivial": True}, "trivial"),
        ((4, 5), {"throws": [1, 5], "nontrivial": True}, "easy"),
        ((5, 5), {"throws": [1, 5]}, "normal"),
        ((4, 5), {"throws": [1, 5], "nontrivial": True}, "hard"),
    ],
    "pairplace": [((7, 8), {}, "expert"), ((5, 6), {}, "expert")],
    "path": [((5, 5), {}, "expert"), ((6, 6), {}, "expert")],
}
"""Per family: (size, options, the level whose techniques are stuck) of the stuck states."""

PLANS: dict[str, list[tuple[tuple[int, int], str, dict]]] = {
    "binairo": [
        ((8, 8), "normal", {}),
        ((8, 8), "hard", {}),
        ((8, 8), "hard", {"unique_lines": True}),
        ((10, 10), "expert", {}),
    ],
    "tango": [((6, 6), level, {}) for level in ("easy", "normal", "hard", "expert")],
    "sudoku": [
        ((9, 9), "normal", {}),
        ((9, 9), "hard", {}),
        ((9, 9), "expert", {}),
        ((6, 6), "expert", {}),
        ((9, 9), "3.6-4.4", {}),
        ((9, 9), "4.5-5.5", {}),
        ((9, 9), "5.6-6.4", {}),
        ((9, 9), "7.0-8.0", {}),
        ((9, 9), "8.0-9.0", {}),
    ],
    "siteswap": [
        ((4, 3), "easy", {"nontrivial": True, "distinct": True}),
        ((4, 4), "easy", {"nontrivial": True}),
        ((4, 4), "normal", {"nontrivial": True}),
        ((4, 5), "normal", {"nontrivial": True}),
        ((4, 4), "hard", {"nontrivial": True}),
        ((4, 5), "hard", {"nontrivial": True}),
    ],
    "path": [
        ((6, 6), "normal", {"decoys": 2}),
        ((6, 6), "hard", {"decoys": 1}),
        ((6, 6), "expert", {}),
        ((5, 5), "extreme", {}),
        ((8, 8), "expert", {"decoys": 2}),
    ],
    "pairplace": [
        ((5, 6), "easy", {}),
        ((7, 8), "normal", {}),
        ((9, 10), "hard", {}),
        ((7, 8), "expert", {}),
        ((9, 10), "expert", {}),
    ],
}
"""Per family: the (size, level, options) of generated puzzles, two each per round."""


def generated(family: str, seed: int, stop: float) -> Iterator[tuple[str, dict]]:
    """(label, puzzle dict) of generated puzzles, round after round of the family's plan."""
    for round_ in itertools.count():
        for size, level, options in PLANS[family]:
            if time.monotonic() > stop:
                return
            request = Request(
                family=family,
                size=size,
                level=level,
                count=2,
                seed=seed + round_,
                options=options,
                timeout=min(60.0, max(1.0, stop - time.monotonic())),
            )
            try:
                made = list(generate(request))
            except Exception as error:  # a level out of reach at this size
                print(f"  ({family} {size} {level}: {error})", flush=True)
                continue
            rules = "".join(f" --rule {k}={json.dumps(v)}" for k, v in options.items())
            for index, puzzle in enumerate(made, 1):
                label = (
                    f"grader generate {family} --size {size[0]}x{size[1]}{rules} --level "
                    f"{level} -n 2 --seed {seed + round_}, puzzle {index}"
                )
                yield label, puzzle.data


def project_examples(family: str) -> Iterator[tuple[str, dict]]:
    """(label, puzzle dict) of the project's own examples of a family."""
    for path in sorted((ROOT / "examples").glob("*.json*")):
        try:
            puzzles = load(str(path))
        except Exception:
            continue
        for puzzle in puzzles:
            if puzzle.family.name == family:
                data = puzzle.family.to_data(puzzle.model, puzzle.clue_state)
                yield f"examples/{path.name} ({puzzle.id})", data


def search(run: Search, minutes: float, seed: int, stuck_only: bool = False) -> None:
    """Solve the project's examples and generated puzzles until time is up; then stuck states
    for the costliest techniques still missing (only those with ``stuck_only``)."""
    name = run.family.name
    share = 0.0 if stuck_only else 0.6 if name in STUCK else 1.0
    stop = time.monotonic() + 60 * minutes * share
    sources = itertools.chain(project_examples(name), generated(name, seed, stop))
    for label, source in sources:
        if time.monotonic() > stop or run.done():
            break
        run.explore(source, label, stop)
    stop = time.monotonic() + 60 * minutes * (1 - share)
    rng = random.Random(seed)
    cases = itertools.cycle(STUCK.get(name, []))
    for round_ in itertools.count():
        if name not in STUCK or time.monotonic() > stop or run.done():
            break
        size, options, level = next(cases)
        for what, cap in caps(run, size, options, level, round_):
            explore_stuck(run, size, options, (what, cap), rng, stop, seed)


def caps(
    run: Search, size: tuple[int, int], options: dict, level: str, round_: int
) -> list[tuple[str, list[str]]]:
    """(what, techniques) of the caps for stuck states: the techniques up to ``level``, then
    those cheaper than one technique still wanted (round after round the next one), so its
    own stuck states are tried first (``guess`` has the costliest level's)."""
    model = run.family.empty_model(size, options)
    out = []
    wanted = [n for n in run.wanted() if n != "guess"]
    if wanted:
        target = wanted[round_ % len(wanted)]
        cheaper = [
            t.name for t in choose(run.family, model) if run.costs[t.name] < run.costs[target]
        ]
        out.append((f"cheaper than {target}", cheaper))
    return [*out, (f"up to {level}", [t.name for t in choose(run.family, model, level)])]


def explore_stuck(
    run: Search,
    size: tuple[int, int],
    options: dict,
    cap: tuple[str, list[str]],
    rng: random.Random,
    stop: float,
    seed: int,
) -> None:
    """Explore up to 30 states where the techniques of ``cap`` are stuck."""
    what, names = cap
    states = stuck_states(run.family, size, options, names, rng, stop)
    for number, data in enumerate(states):
        where = (
            f"a {size[0]}x{size[1]} state where the techniques {what} are stuck "
            f"(bench/technique_examples.py --seed {seed})"
        )
        run.explore(data, where, stop)
        if time.monotonic() > stop or number >= 30:
            break


def write(run: Search, reasons: dict[str, str]) -> None:
    """Write the examples in table order, and why each technique left has none (the reasons
    already in the file are kept; a new one says the search did not catch it)."""
    default = "no state where it fires was caught by bench/technique_examples.py"
    document = {
        "about": "One state per technique where it is the cheapest productive technique (the "
        "file's first wave, or the wave after `replay` waves of the default table), found by "
        "bench/technique_examples.py; checked by tests/test_technique_examples.py.",
        "examples": {n: run.found[n] for n in run.costs if n in run.found},
        "missing": {n: reasons.get(n, default) for n in run.missing()},
    }
    text = json.dumps(document, indent=1, ensure_ascii=False)
    examples_path(run.family.name).write_text(text + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--family", action="append", help="a family (default: all)")
    parser.add_argument("--minutes", type=float, default=4.0, help="search time per family")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", action="store_true", help="keep the examples already found")
    parser.add_argument(
        "--stuck-only", action="store_true", help="look only at states stuck from the start"
    )
    parser.add_argument(
        "--alone",
        action="store_true",
        help="for a technique still without example, also a state where it fires run alone "
        "(a cheaper technique may fire there too)",
    )
    args = parser.parse_args(argv)
    known = families()
    missing: dict[str, list[str]] = {}
    for name in args.family or [n for n in known if n in PLANS]:
        reasons: dict[str, str] = {}
        found: dict[str, dict] = {}
        path = examples_path(name)
        if path.exists():
            old = json.loads(path.read_text(encoding="utf-8"))
            reasons = old.get("missing", {})
            found = old["examples"] if args.keep else {}
        started = time.monotonic()
        run = Search(known[name], found, args.alone)
        try:
            search(run, args.minutes, args.seed, args.stuck_only)
        finally:
            write(run, reasons)
        missing[name] = run.missing()
        print(f"{name}: {len(run.found)} examples in {time.monotonic() - started:.0f} s")
    for name, left in missing.items():
        print(f"{name}: no example for {', '.join(left) if left else 'none'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
