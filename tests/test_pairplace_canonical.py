"""Pair Place keys up to renamed letters and reordered rows: the canonical form found by
refinement and branching must agree with trying every renaming (K4, K6 and the 6-cycle), and
`grader generate` must never keep two puzzles that differ only that way."""

from __future__ import annotations

import random
from itertools import permutations

import pytest

from conftest import make
from rules.pairplace.canonical import canonical_form
from rules.pairplace.family import FAMILY

CYCLE6 = [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 0)]


def brute_form(n: int, givens, edges) -> tuple:
    """The smallest encoding over every renaming of the letters (rows sorted each time)."""
    best = None
    for perm in permutations(range(n)):
        rows: dict[int, list] = {}
        for r, x, y in givens:
            rows.setdefault(r, []).append((perm[x], perm[y]))
        table = tuple(sorted(tuple(sorted(row)) for row in rows.values()))
        graph = None
        if edges is not None:
            graph = tuple(sorted(tuple(sorted((perm[a], perm[b]))) for a, b in edges))
        form = (table, graph)
        best = form if best is None or form < best else best
    return best


def random_givens(rng: random.Random, n: int, rows: int, edges) -> set:
    pairs = edges or [(a, b) for a in range(n) for b in range(a + 1, n)]
    out = set()
    for _ in range(rng.randint(1, n)):  # few givens: letters alike, branching needed
        a, b = rng.choice(pairs)
        if rng.random() < 0.5:
            a, b = b, a
        out.add((rng.randrange(rows), a, b))
    return out


def renamed(rng: random.Random, n: int, rows: int, givens, edges):
    """The same grid with letters renamed (an automorphism for a non-complete graph) and rows
    shuffled."""
    while True:
        perm = list(range(n))
        rng.shuffle(perm)
        if edges is None or {frozenset((perm[a], perm[b])) for a, b in edges} == {
            frozenset(e) for e in edges
        }:
            break
    order = list(range(rows))
    rng.shuffle(order)
    return {(order[r], perm[x], perm[y]) for r, x, y in givens}


@pytest.mark.parametrize(("n", "edges"), [(4, None), (6, None), (6, CYCLE6)])
def test_canonical_form_matches_trying_every_renaming(n, edges):
    rng = random.Random(n * 7 + (edges is not None))
    rows = n - 1 if edges is None else 2
    grids = [random_givens(rng, n, rows, edges) for _ in range(40)]
    grids += [renamed(rng, n, rows, g, edges) for g in grids[:20]]
    forms = [canonical_form(n, g, edges, rows) for g in grids]
    brutes = [brute_form(n, g, edges) for g in grids]
    for i in range(len(grids)):
        for j in range(i + 1, len(grids)):
            assert (forms[i] == forms[j]) == (brutes[i] == brutes[j]), (grids[i], grids[j])
    for k in range(20):  # a renamed copy always shares the form
        assert forms[k] == forms[40 + k]


def test_keys_of_a_renamed_puzzle_are_equal_and_of_another_puzzle_differ():
    empty = ["......", "......"]
    base = {"family": "pairplace", "header": "ABCDEF", "grid": [".F....", "E.....", "C....."]}
    base["grid"] += empty
    # A<->B, C<->D, E<->F renamed, rows 1 and 3 swapped: r1cB = D, r2cB = F, r3cA = E
    copy = {"family": "pairplace", "header": "ABCDEF", "grid": [".D....", ".F....", "E....."]}
    copy["grid"] += empty
    # B-F and A-E joined by A-B: a path of four letters, which the base does not have
    other = {"family": "pairplace", "header": "ABCDEF", "grid": [".F....", "E.....", "B....."]}
    other["grid"] += empty
    keys = [FAMILY.canonical_key(p.model, p.givens) for p in map(make, (base, copy, other))]
    assert keys[0] == keys[1]
    assert keys[0] != keys[2]
