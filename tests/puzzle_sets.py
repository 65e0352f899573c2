"""Collections of puzzles made for the tests (seeded): random unique Tangos and Binairos, and a
hypothesis strategy of random partial ones."""

from __future__ import annotations

import json
import random
from pathlib import Path

from hypothesis import strategies as st

from conftest import make, random_solution
from grader.core.exact import count_solutions


def unique_puzzle(family: str, size: int, rng: random.Random, signs: int = 0) -> dict:
    """A random puzzle with one solution: cells revealed until unique, then reduced.

    For tango, ``signs`` random signs agreeing with the solution are added first.
    """
    empty = make({"family": family, "grid": ["." * size] * size})
    solution = random_solution(empty, rng)
    data: dict = {"family": family, "grid": ["." * size] * size}
    if family == "tango" and signs:
        pairs = [(r, c, r, c + 1) for r in range(size) for c in range(size - 1)]
        pairs += [(r, c, r + 1, c) for r in range(size - 1) for c in range(size)]
        chosen = rng.sample(pairs, signs)
        data["signs"] = [
            [r1, c1, r2, c2, "=" if solution[r1 * size + c1] == solution[r2 * size + c2] else "x"]
            for r1, c1, r2, c2 in sorted(chosen)
        ]
    puzzle = make(data)
    model = puzzle.model
    state = list(puzzle.givens)
    order = list(range(size * size))
    rng.shuffle(order)
    for var in order:
        if count_solutions(model, state, 2)[0] == 1:
            break
        state[var] = 1 << solution[var]
    for var in order:
        if state[var] == model.variables[var].domain:
            continue
        kept = state[var]
        state[var] = model.variables[var].domain
        if count_solutions(model, state, 2)[0] != 1:
            state[var] = kept
    out = puzzle.family.to_data(model, state)
    return out


def random_puzzle(family: str, size: int, rng: random.Random, reveal: float) -> dict:
    """A random partial grid (not necessarily unique): each cell shown with chance ``reveal``."""
    empty = make({"family": family, "grid": ["." * size] * size})
    solution = random_solution(empty, rng)
    symbols = empty.model.symbols
    grid = [
        "".join(
            symbols[solution[r * size + c]] if rng.random() < reveal else "." for c in range(size)
        )
        for r in range(size)
    ]
    return {"family": family, "grid": grid}


def write_jsonl(path: Path, puzzles: list[dict]) -> Path:
    path.write_text("".join(json.dumps(p) + "\n" for p in puzzles), encoding="utf-8")
    return path


@st.composite
def binary_puzzles(draw, family: str, sizes: tuple[int, ...] = (6, 6, 8, 10, 12, 14)):
    """A random partial Binairo or Tango (cells, and for tango signs, of a random solution)."""
    rows = draw(st.sampled_from(sizes))
    cols = rows if family == "tango" else draw(st.sampled_from([rows, *sizes[:2]]))
    unique = family == "binairo" and draw(st.booleans())
    seed = draw(st.integers(0, 10**6))
    share = draw(st.floats(0.05, 0.6))
    rng = random.Random(seed)
    empty = {"family": family, "grid": ["." * cols] * rows}
    if unique:
        empty["rules"] = {"unique_lines": True}
    solution = random_solution(make(empty), rng)
    symbols = "01" if family == "binairo" else "SM"
    grid = [
        "".join(
            symbols[solution[r * cols + c]] if rng.random() < share else "." for c in range(cols)
        )
        for r in range(rows)
    ]
    data = {**empty, "grid": grid}
    if family == "tango":
        signs = []
        for r in range(rows):
            for c in range(cols):
                for r2, c2 in ((r, c + 1), (r + 1, c)):
                    if r2 < rows and c2 < cols and rng.random() < share / 3:
                        same = solution[r * cols + c] == solution[r2 * cols + c2]
                        signs.append([r, c, r2, c2, "=" if same else "x"])
        data["signs"] = signs
    return make(data)
