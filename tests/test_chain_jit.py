"""The compiled kernels (numba) against the Python they follow: the propagation (the same
potentials in the same order with the same node counts, parents, causes and contradiction, on
every assumption of grids of each family that has chains), the whole search of dynamic chains
(the same hints, chains and rule parents), the static implications; and the same steps and
reports."""

from __future__ import annotations

import os
import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_sudoku_chains import latin_siteswap_states, reach_states, stuck_before_chains
from test_technique_examples import document

from grader import grade
from grader.core.engine import Engine
from grader.core.technique import Context
from grader.rating.grading import GradeOptions
from grader.rating.registry import families
from grader.testing.examples import replay
from rules.sudoku.chains.chaining import ChainSearch, StaticImplications, compiled, rule_parents
from rules.sudoku.chains.reach import StaticReach, nishio_may_find


@cache
def stuck():
    """A generated 9x9 stuck before chains (model, state, solution, engine)."""
    return stuck_before_chains(32)


CHAIN_FAMILIES = [("sudoku", (9, 9), {}), ("sudoku", (6, 6), {}), ("siteswap", "HOLE", {})]
"""Families with chains, and a size of each, whose grids the kernels are held to Python on."""


def assumptions(cand: list[int], V: int) -> list[int]:
    """Every assumption of a grid: each candidate on, then off."""
    return [
        s
        for var, m in enumerate(cand)
        for v in range(V)
        if m >> v & 1
        for s in ((var * V + v) << 1 | 1, (var * V + v) << 1)
    ]


def require_compiled() -> None:
    """Skip when the user turned the kernel off; fail when numba (a dependency) is missing."""
    if os.environ.get("GRADER_NO_JIT"):
        pytest.skip("GRADER_NO_JIT is set: the compiled propagation is not loaded")
    assert compiled() is not None, "numba is a dependency: the compiled propagation must load"


def outcome(res) -> tuple:
    """Everything a search reads of a propagation."""
    return (
        [(t, a.bit_count()) for t, a in res.on.items()],
        [(t, a.bit_count()) for t, a in res.off.items()],
        res.parents,
        res.causes,
        res.contradiction,
        res.nested,
    )


def assert_same_propagations(search: ChainSearch, starts=None) -> int:
    """Every assumption of ``search``'s grid (on and off, with and without cell links)
    propagated both ways; returns how many."""
    require_compiled()
    assert search.jit_arrays() is not None
    V = search.V
    if starts is None:
        starts = assumptions(search.grid.cand, V)
    for use_y in (True, False):
        for start in starts:
            fast = search.propagate(start, True, use_y)
            assert type(fast).__name__ == "CompiledPropagation"
            slow = search.propagate_here(start, True, use_y)
            assert outcome(fast) == outcome(slow), (start, use_y)
    return len(starts)


@pytest.mark.parametrize(("name", "size", "options"), CHAIN_FAMILIES)
def test_the_compiled_propagation_is_the_python_one(name, size, options):
    # grids stuck before chains, random partial grids as they start and settled
    states = reach_states(name, size, options, f"jit {name}", (1, 32))
    contradictions = 0
    for model, state, engine in states[::3]:
        search = ChainSearch(Context(model, list(state), engine))
        assert_same_propagations(search)
        V = search.V
        contradictions += sum(
            search.propagate((var * V + v) << 1 | 1, True, True).contradiction is not None
            for var, m in enumerate(search.grid.cand)
            for v in range(V)
            if m >> v & 1
        )
    assert contradictions  # the early ends were met too


def test_the_compiled_propagation_is_the_python_one_on_latin_siteswaps():
    for model, state, engine in latin_siteswap_states(4):
        assert_same_propagations(ChainSearch(Context(model, list(state), engine)))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 12))
def test_emptied_grids_propagate_alike(seed, removed):
    """Grids a chain empties (inner searches): candidates of a stuck grid removed at random."""
    outer, cand = emptied(seed, removed)
    starts = assumptions(cand, outer.V)
    sample = random.Random(seed).sample(starts, min(60, len(starts)))
    assert_same_propagations(outer.inner(cand, 0), sample)


def described(hints) -> list[tuple]:
    """Everything a caller reads of an inner search's hints, chains and sources included."""
    return [
        (
            h.key(),
            h.kind,
            h.placements,
            h.eliminations,
            h.source,
            h.chains,
            [(target, cause, outcome(res)) for res, target, cause in h.sources],
        )
        for h in hints
    ]


def assert_same_inner_search(
    outer: ChainSearch, cand: list[int], twins: bool = True
) -> tuple[int, int]:
    """An inner search's dynamic chains over the grid ``cand``, made whole by the kernel and
    in Python; returns how many hints, and how many rest on candidates of the outer grid
    that ``cand`` lacks."""
    require_compiled()
    found = {}
    for use_jit in (True, False):
        inner = outer.inner(cand, 0)
        inner.use_jit = use_jit
        inner.bivalue_twins = twins
        assert inner.whole_search_compiles(None) is use_jit
        hints = inner.dynamic_hints("dynamic")
        outer_grid, grid = outer.grid, inner.grid
        # the candidates of the outer grid each hint rests on (read by the kernel's walk
        # first, before its sources are made, then by Python's)
        parents = [
            rule_parents(
                h,
                outer.V,
                outer_grid.cand,
                grid.cand,
                outer_grid.hpos,
                grid.hpos,
                outer.cover_of_var,
            )
            for h in hints
        ]
        found[use_jit] = (parents, described(hints))
    assert found[True] == found[False]
    # a search for the first-ranked hint alone (a step's): the first of them, both ways
    best = {}
    for use_jit in (True, False):
        search = outer.inner(cand, 0)
        search.one_per_conclusion, search.best_only = False, True
        search.use_jit, search.bivalue_twins = use_jit, twins
        assert search.whole_search_compiles(None) is use_jit
        best[use_jit] = described(search.dynamic_hints("dynamic"))
    assert best[True] == best[False] == ([min(found[False][1])] if found[False][1] else [])
    return len(hints), sum(map(bool, parents))


@pytest.mark.parametrize(("name", "size", "options"), CHAIN_FAMILIES)
def test_the_compiled_search_is_the_python_one(name, size, options):
    # an inner search's every hint, one per conclusion: the same hints in the same order,
    # with the same chains, from the whole search in the kernel as from Python
    states = reach_states(name, size, options, f"jit search {name}", (1, 32))
    hints = 0
    for i, (model, state, engine) in enumerate(states[::4]):
        outer = ChainSearch(Context(model, list(state), engine))
        hints += assert_same_inner_search(outer, list(outer.grid.cand), twins=i % 2 == 0)[0]
    assert hints


def emptied(seed: int, removed: int) -> tuple[ChainSearch, list[int]]:
    """The search of a stuck grid and that grid with up to ``removed`` candidates removed at
    random (as a chain empties it for an inner search)."""
    puzzle, state, _solution, engine = stuck()
    rng = random.Random(seed)
    outer = ChainSearch(Context(puzzle.model, list(state), engine))
    V = outer.V
    cand = list(outer.grid.cand)
    options = [(var, v) for var, m in enumerate(cand) if m.bit_count() > 1 for v in range(V)]
    options = [(var, v) for var, v in options if cand[var] >> v & 1]
    for var, v in rng.sample(options, min(removed, len(options))):
        if cand[var].bit_count() > 1:
            cand[var] &= ~(1 << v)
    return outer, cand


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 14), st.booleans())
def test_emptied_grids_search_alike(seed, removed, twins):
    assert_same_inner_search(*emptied(seed, removed), twins=twins)


def test_the_rule_parents_of_compiled_hints_are_pythons():
    # hints of emptied grids that rest on removed candidates, as nested chains use them
    resting = sum(assert_same_inner_search(*emptied(seed, 8))[1] for seed in range(3))
    assert resting >= 10


def assert_same_static_implications(outer: ChainSearch, cand: list[int]) -> int:
    """The static implications of the grid ``cand`` (conflicts, strong links, reach) and the
    static chains read from them, compiled and in Python; returns how many chains."""
    require_compiled()
    found = {}
    for use_jit in (True, False):
        search = outer.inner(cand, 0)
        search.use_jit = use_jit
        made = StaticImplications(search)
        hints = made.forcing_hints() + made.multiple_hints()
        found[use_jit] = (made.nodes, made.tables(), described(hints))
    assert found[True] == found[False]
    return len(found[True][-1])


@pytest.mark.parametrize(("name", "size", "options"), CHAIN_FAMILIES)
def test_the_compiled_static_implications_are_the_python_ones(name, size, options):
    states = reach_states(name, size, options, f"jit static {name}", (1, 32))
    chains = 0
    for model, state, engine in states[::3]:
        outer = ChainSearch(Context(model, list(state), engine))
        chains += assert_same_static_implications(outer, list(outer.grid.cand))
    assert chains


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 14))
def test_emptied_grids_imply_alike(seed, removed):
    assert_same_static_implications(*emptied(seed, removed))


@pytest.mark.parametrize(
    "technique", ["nishio", "dynamic-forcing-chains", "nested-dynamic-forcing-chains"]
)
def test_chain_steps_are_the_same_without_the_compiled_propagation(monkeypatch, technique):
    require_compiled()
    family = families()["sudoku"]
    entry = document("sudoku")["examples"][technique]
    steps = {}
    for use_jit in (True, False):
        monkeypatch.setattr(ChainSearch, "use_jit", use_jit)
        steps[use_jit] = replay(family, technique, entry).run.steps
    assert steps[True] == steps[False]
    assert steps[True] and all(s.technique == technique for s in steps[True])


def test_reports_are_the_same_without_the_compiled_propagation(monkeypatch):
    require_compiled()
    # a generated sudoku graded whole, trace included, without the cheaper chains, so that
    # its hard steps are dynamic forcing chains
    puzzle = stuck()[0]
    options = GradeOptions(techniques=WITHOUT_CHEAPER_CHAINS)
    reports = {}
    for use_jit in (True, False):
        monkeypatch.setattr(ChainSearch, "use_jit", use_jit)
        report = grade(puzzle, options).to_dict(trace=True)
        report.pop("seconds", None)
        reports[use_jit] = report
    assert reports[True] == reports[False]
    assert reports[True]["techniques"]["dynamic-forcing-chains"]["count"] >= 3


WITHOUT_CHEAPER_CHAINS = (
    "-forcing-chains,-nishio,-multiple-forcing-chains,-aligned-pair-exclusion,"
    "-aligned-triplet-exclusion"
)


@pytest.mark.parametrize("size", [(4, 4), (16, 16)])
def test_the_compiled_propagation_is_the_python_one_on_other_sizes(size):
    # the largest model the kernels take (16x16: 8,192 potentials) and the smallest, the
    # propagation, the whole search and the static implications; a 25x25 stays in Python
    from soundness import random_partials

    family = families()["sudoku"]
    rng = random.Random(f"jit {size}")
    compared = 0
    for model, state, solution in random_partials(family, family.empty_model(size, {}), rng, 3):
        engine = Engine(model, [], solutions=[solution], unique=False)
        search = ChainSearch(Context(model, list(state), engine))
        starts = assumptions(search.grid.cand, search.V)
        compared += assert_same_propagations(search, rng.sample(starts, min(200, len(starts))))
        assert_same_inner_search(search, list(search.grid.cand))
        assert_same_static_implications(search, list(search.grid.cand))
    assert compared


def test_a_25x25_sudoku_propagates_in_python():
    from soundness import random_partials

    family = families()["sudoku"]
    rng = random.Random("jit 25")
    ((model, state, solution),) = random_partials(family, family.empty_model((25, 25), {}), rng, 1)
    search = ChainSearch(Context(model, list(state), Engine(model, [], solutions=[solution])))
    assert search.jit_arrays() is None
    assert type(search.propagate(1, True, True)).__name__ == "Propagation"


def assert_same_reach(search: ChainSearch) -> int:
    """The static reach of ``search``'s grid compiled and in Python: the same candidates in
    the same order, every potential's reach, and which potentials share a component (the
    components' numbers may differ); returns how many potentials."""
    require_compiled()
    arrays = search.jit_arrays()
    assert arrays is not None
    g = search.grid
    fast = compiled("reach_jit").compiled_reach(
        *arrays, g.cand, g.vmask, search.peer_masks, search.V
    )
    slow = StaticReach(g.cand, g.vmask, g.hpos, search.peer_masks, search.cover_of_var, search.V)
    assert (fast.index, fast.keys) == (slow.index, slow.keys)
    potentials = 2 * len(slow.keys)
    assert [fast.of(p) for p in range(potentials)] == [slow.of(p) for p in range(potentials)]
    first_of: dict[tuple[str, int], int] = {}
    for p in range(potentials):  # each component's first potential names it on both sides
        assert first_of.setdefault(("fast", fast.component[p]), p) == first_of.setdefault(
            ("slow", slow.component[p]), p
        )
    assert fast.has_forcing_chain() == slow.has_forcing_chain()
    assert fast.forcing_conclusions() == slow.forcing_conclusions()
    return potentials


@pytest.mark.parametrize(("name", "size", "options"), CHAIN_FAMILIES)
def test_the_compiled_static_reach_is_the_python_one(name, size, options):
    states = reach_states(name, size, options, f"jit reach {name}", (1, 32))
    assert sum(assert_same_reach(ChainSearch(Context(m, list(s), e))) for m, s, e in states)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 14))
def test_emptied_grids_reach_alike(seed, removed):
    outer, cand = emptied(seed, removed)
    assert assert_same_reach(outer.inner(cand, 0))


def assert_same_nishio_answer(search: ChainSearch) -> bool:
    """Whether a Nishio chain may be found, compiled and in Python (the same answer)."""
    require_compiled()
    arrays = search.jit_arrays()
    assert arrays is not None
    g = search.grid
    covering = [h for h, c in enumerate(search.houses.covering) if c]
    slow = nishio_may_find(g.cand, g.vmask, g.hpos, search.peer_masks, covering, search.V)
    assert compiled("reach_jit").compiled_nishio_may_find(*arrays) == slow
    return slow


@pytest.mark.parametrize(("name", "size", "options"), CHAIN_FAMILIES)
def test_the_compiled_nishio_check_is_the_python_one(name, size, options):
    states = reach_states(name, size, options, f"jit nishio {name}", (1, 32))
    answers = {assert_same_nishio_answer(ChainSearch(Context(m, list(s), e))) for m, s, e in states}
    assert answers == {True, False}  # both answers were met


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 14))
def test_emptied_grids_answer_nishio_alike(seed, removed):
    outer, cand = emptied(seed, removed)
    assert_same_nishio_answer(outer.inner(cand, 0))
