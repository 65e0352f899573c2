"""Levels out of reach: the claims behind each family's table, and the refusal at once."""

from __future__ import annotations

import itertools
import random

from grader.costs import choose
from grader.engine import Engine
from grader.registry import families


def k6_orbits(edges: list[tuple[int, int, int]]) -> list[int]:
    """One clue set (a bitmask over ``edges``) per orbit of the solution's automorphisms: the
    letter permutations that map its set of rows (perfect matchings) onto itself."""
    rows = sorted({r for r, _, _ in edges})
    matchings = [frozenset(frozenset((a, b)) for r2, a, b in edges if r2 == r) for r in rows]
    index = {(r, frozenset((a, b))): i for i, (r, a, b) in enumerate(edges)}
    maps = []
    for p in itertools.permutations(range(6)):
        images = [frozenset(frozenset(p[x] for x in pair) for pair in m) for m in matchings]
        if set(images) == set(matchings):
            row_of = [matchings.index(image) for image in images]
            maps.append([index[(row_of[r], frozenset((p[a], p[b])))] for r, a, b in edges])
    assert len(maps) == 120  # |S6| / 6 one-factorizations of K6
    seen = bytearray(1 << len(edges))
    orbits = []
    for mask in range(1 << len(edges)):
        if seen[mask]:
            continue
        orbits.append(mask)
        bits = [i for i in range(len(edges)) if mask >> i & 1]
        for image_of in maps:
            seen[sum(1 << image_of[i] for i in bits)] = 1
    return orbits


def test_every_k6_pair_place_the_techniques_solve_is_easy():
    """Pair Place K6 reaches only trivial and easy: K6 has 720 solutions, all one
    1-factorization up to relabelling the letters and reordering the rows, so one solution
    stands for all. Every set of its pairs (2^15, one per orbit of its 120 automorphisms)
    that the strongest techniques solve, the easy ones solve too."""
    family = families()["pairplace"]
    model = family.empty_model((6, 6), {})
    solution = family.random_solution(model, random.Random(1))
    edges = [
        (r, a, solution[r * 6 + a]) for r in range(5) for a in range(6) if a < solution[r * 6 + a]
    ]
    assert len(edges) == 15

    def solves(level: str, givens: list[int]) -> bool:
        techniques = choose(family, model, level)
        engine = Engine(model, techniques, solutions=[solution], unique=False, verify=False)
        return engine.settle(givens).solved

    beyond_easy = []
    for mask in k6_orbits(edges):
        givens = model.initial_state()
        for i, (r, a, b) in enumerate(edges):
            if mask >> i & 1:
                givens[r * 6 + a], givens[r * 6 + b] = 1 << b, 1 << a
        if not solves("easy", givens) and solves(family.levels[-1], givens):
            beyond_easy.append(mask)
    assert beyond_easy == []
