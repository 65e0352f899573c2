"""The SAT count agrees with a plain backtracking count (a second opinion)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import make, random_solution
from grader.core.backtrack import count_plain, random_guesses
from grader.core.exact import count_solutions


@settings(max_examples=80, deadline=None)
@given(
    st.sampled_from(["binairo", "tango"]),
    st.sampled_from([4, 6, 8]),
    st.booleans(),
    st.integers(0, 10**6),
    st.floats(0.0, 0.7),
)
def test_sat_and_plain_search_agree(family, size, unique, seed, share):
    rng = random.Random(seed)
    empty = {"family": family, "grid": ["." * size] * size}
    if family == "binairo" and unique:
        empty["rules"] = {"unique_lines": True}
    solution = random_solution(make(empty), rng)
    symbols = "01" if family == "binairo" else "SM"
    cells = [symbols[v] if rng.random() < share else "." for v in solution]
    if rng.random() < 0.2:  # sometimes a wrong given: maybe no solution at all
        i = rng.randrange(len(cells))
        cells[i] = symbols[1 - solution[i]]
    data = {**empty, "grid": ["".join(cells[r * size : (r + 1) * size]) for r in range(size)]}
    puzzle = make(data)
    sat, found = count_solutions(puzzle.model, puzzle.givens, 2)
    assert sat == count_plain(puzzle.model, puzzle.givens, 2)
    for values in found:
        assert all(c.satisfied_by(values) for c in puzzle.model.constraints)
        assert all(mask >> v & 1 for mask, v in zip(puzzle.givens, values, strict=True))


def test_distinct_lines_rule_changes_the_count():
    grid = ["0..1", "....", "....", "...."]
    plain = make({"family": "binairo", "grid": grid})
    unique = make({"family": "binairo", "grid": grid, "rules": {"unique_lines": True}})
    n_plain, _ = count_solutions(plain.model, plain.givens, 100)
    n_unique, _ = count_solutions(unique.model, unique.givens, 100)
    assert n_unique < n_plain


def test_random_guesses_metric_is_seeded_and_zero_for_solved_grids():
    puzzle = make({"family": "binairo", "grid": ["0110", "1001", "0101", "1010"]})
    assert random_guesses(puzzle.model, puzzle.givens, runs=5, seed=1) == 0
    empty = make({"family": "binairo", "grid": ["......"] * 6})
    first = random_guesses(empty.model, empty.givens, runs=5, seed=7)
    assert first == random_guesses(empty.model, empty.givens, runs=5, seed=7)
    assert first > 0


def test_cached_totalizer_gives_pysats_clauses_for_any_literals() -> None:
    """The totalizer is encoded once per shape and relabelled: the clauses must be exactly
    the ones PySAT gives for the caller's literals and first free variable."""
    from pysat.card import CardEnc, EncType

    from grader.core.exact import CnfBuilder

    rng = random.Random(3)
    for _ in range(200):
        n = rng.randint(1, 20)
        bound = rng.randint(0, n)
        top = rng.randint(n, 200)
        lits = [rng.choice([-1, 1]) * rng.randint(1, top) for _ in range(n)]
        builder = CnfBuilder.__new__(CnfBuilder)
        builder.top, builder.clauses = top, []
        builder.equals(lits, bound)
        direct = CardEnc.equals(lits, bound=bound, top_id=top, encoding=EncType.totalizer)
        assert builder.clauses == direct.clauses
        assert builder.top == max(top, direct.nv)


def test_building_a_solver_stops_at_the_deadline_and_keeps_nothing() -> None:
    import time

    from grader.core.exact import SearchTimeout, count_solutions, solvers

    puzzle = make({"family": "binairo", "size": [120, 120], "grid": ["." * 120] * 120})
    started = time.monotonic()
    with pytest.raises(SearchTimeout):
        count_solutions(puzzle.model, puzzle.givens, 2, started + 0.2)
    assert time.monotonic() - started < 5  # encoding it whole takes several seconds
    assert puzzle.model.key not in solvers()


@given(
    values=st.lists(st.integers(0, 5), min_size=1, max_size=6),
    covering=st.integers(0, 63),
)
def test_all_different_accepts_a_full_assignment_exactly_when_its_check_does(
    values: list[int], covering: int
) -> None:
    """``AllDifferent.satisfied_by`` (a bitset pass, used to accept a finished grid without the
    exact search) agrees with the rule's own check on the same values."""
    from grader.core.constraints import AllDifferent

    rule = AllDifferent(range(len(values)), "house", covering)
    assert rule.satisfied_by(values) == (rule.check([1 << v for v in values]) is None)


def test_threads_counting_on_one_model_each_get_their_own_answers() -> None:
    """Threads (a dask worker's, a library user's) grading puzzles of one shape at once: each
    count is that of its own puzzle, and each solution satisfies its own givens (one solver
    shared by the threads gave one thread's solutions to another)."""
    import threading
    from pathlib import Path

    from grader.rating.loading import load

    puzzle = load(Path(__file__).parent.parent / "examples" / "sudoku.json")[0]
    model = puzzle.model
    states = []
    for opened in range(0, 60, 6):  # the first cells opened up: unique, then many solutions
        state = list(puzzle.givens)
        for var in range(opened):
            state[var] = model.variables[var].domain
        states.append(state)
    expected = [count_solutions(model, state, 2)[0] for state in states]
    assert 1 in expected and 2 in expected
    wrong: list[object] = []

    def count_many(seed: int) -> None:
        try:
            for round_ in range(150):
                i = (round_ * 7 + seed) % len(states)
                found, solutions = count_solutions(model, states[i], 2)
                if found != expected[i]:
                    wrong.append(("count", i, found))
                for solution in solutions:
                    if any(not states[i][var] >> x & 1 for var, x in enumerate(solution)):
                        wrong.append(("solution", i))
        except Exception as error:  # any failure in a thread is the test's
            wrong.append(("error", repr(error)))

    threads = [threading.Thread(target=count_many, args=(seed,)) for seed in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not any(thread.is_alive() for thread in threads)
    assert wrong == []
