"""Binairo and Tango techniques: what each finds, its level, and how it reads."""

from __future__ import annotations

from conftest import make
from grader import GradeOptions, grade
from grader.core.engine import Engine
from grader.core.explain import Explainer
from grader.rating.costs import choose


def first_steps(data: dict, selection: str):
    puzzle = make(data)
    techniques = choose(puzzle.family, puzzle.model, selection)
    steps = Engine(puzzle.model, techniques).next_steps(puzzle.givens)
    return puzzle, steps, Explainer(puzzle.model, techniques)


def test_pair_and_sandwich_fill_around_equal_cells():
    data = {"family": "binairo", "grid": [".00.1.1.", *["........"] * 7]}
    _, steps, ex = first_steps(data, "pair")
    texts = {ex.text(s) for s in steps}
    assert "r1c1 = 1: r1c2 and r1c3 are both 0, and three 0s in a row are not allowed" in texts
    assert any(t.startswith("r1c4 = 1") for t in texts)
    _, steps, ex = first_steps(data, "sandwich")
    assert "r1c6 = 0: it sits between two 1s (r1c5 and r1c7)" in {ex.text(s) for s in steps}


def test_count_completion_names_the_quota():
    data = {"family": "binairo", "grid": ["1.1.1.1.", *["........"] * 7]}
    _puzzle, steps, ex = first_steps(data, "count-completion")
    assert len(steps) == 1
    assert ex.text(steps[0]) == (
        "r1c2 = 0, r1c4 = 0, r1c6 = 0, r1c8 = 0: row 1 already holds its four 1s"
    )


def test_window_places_the_majority_outside_the_forced_window():
    # Row 1 needs one more 1 and three more 0s: 1 1 0 . . . 0 1 → the 1 must break r1c4-r1c6.
    data = {"family": "binairo", "grid": ["110...01", *["........"] * 7]}
    _puzzle, steps, ex = first_steps(data, "window")
    assert steps, "the window technique should apply"
    text = ex.text(steps[0])
    assert "row 1 has one 1 left to place" in text


def test_window_names_only_its_open_cells():
    """A window holding a B already: the last A goes in one of its open cells, and the whole
    window would be three Bs (r1c3 is 0 already, so it is not named as a place for the 1)."""
    data = {"family": "binairo", "grid": ["1.0..1.1", *["........"] * 7]}
    _puzzle, steps, ex = first_steps(data, "window")
    assert [ex.text(s) for s in steps] == [
        "r1c5 = 0, r1c7 = 0: row 1 has one 1 left to place; it must go in one of r1c2 and "
        "r1c4, or r1c2, r1c3 and r1c4 would hold three 0s in a row",
        "r1c2 = 0, r1c7 = 0: row 1 has one 1 left to place; it must go in one of r1c4 and "
        "r1c5, or r1c3, r1c4 and r1c5 would hold three 0s in a row",
    ]
    assert steps[0].data["window"] == (1, 2, 3) and steps[0].data["open_cells"] == (1, 3)
    # A window of three open cells is "those cells".
    data = {"family": "binairo", "grid": ["1.1...1.", *["........"] * 7]}
    _puzzle, steps, ex = first_steps(data, "window")
    assert [ex.text(s) for s in steps] == [
        "r1c2 = 0, r1c8 = 0: row 1 has one 1 left to place; it must go in one of r1c4, r1c5 "
        "and r1c6, or those cells would hold three 0s in a row"
    ]


def test_near_copy_only_with_distinct_lines():
    grid = ["010011", "01.0..", "......", "......", "......", "......"]
    with_rule = {"family": "binairo", "grid": grid, "rules": {"unique_lines": True}}
    _, steps, ex = first_steps(with_rule, "near-copy")
    assert [ex.text(s) for s in steps] == [
        "r2c3 = 1: row 2 has all but one of its 0s where row 1 has them; one more there would "
        "copy row 1"
    ]
    without = {"family": "binairo", "grid": grid}
    puzzle = make(without)
    names = {t.name for t in choose(puzzle.family, puzzle.model)}
    assert "near-copy" not in names


def test_sign_propagates_from_a_known_cell():
    data = {"family": "tango", "grid": ["S.....", *["......"] * 5], "signs": [[0, 0, 0, 1, "x"]]}
    _, steps, ex = first_steps(data, "sign")
    assert [ex.text(s) for s in steps] == [
        "r1c2 = M: the x sign between r1c1 and r1c2, and r1c1 is S"
    ]


def test_line_enumeration_uses_signs_within_the_line():
    # Row 1: S . = . . . : the = pair cannot be SS (three suns) so it is MM.
    data = {"family": "tango", "grid": ["S.....", *["......"] * 5], "signs": [[0, 1, 0, 2, "="]]}
    _, steps, ex = first_steps(data, "line-enumeration")
    assert steps and "r1c2 = M" in ex.text(steps[0]) and "r1c3 = M" in ex.text(steps[0])


def test_lookahead_step_records_its_chain_and_contradiction():
    # A puzzle whose only progress needs an assumption (found by grading a generated 6x6) when
    # Tango's sign patterns are left out.
    data = {
        "family": "tango",
        "grid": ["......", ".M....", ".....M", "......", "..S...", "..M.S."],
        "signs": [
            [1, 5, 2, 5, "="],
            [1, 2, 2, 2, "x"],
            [2, 2, 2, 3, "x"],
            [3, 1, 4, 1, "x"],
            [3, 1, 3, 2, "x"],
            [0, 3, 0, 4, "x"],
            [4, 0, 4, 1, "="],
            [1, 4, 1, 5, "="],
        ],
    }
    puzzle = make(data)
    names = "pair,sandwich,sign,last-cell,count-completion,window,lookahead-1"
    result = grade(puzzle, GradeOptions(techniques=names))
    lookaheads = [s for s in result.steps if s.technique == "lookahead-1"]
    assert result.solved and lookaheads
    step = lookaheads[0]
    assert step.data["chain"] and step.data["contradiction_reason"]
    text = result.explainer().text(step)
    assert text.count("if ") >= 1 and "but then" in text


def test_lookahead_with_no_moves_before_the_contradiction():
    """The assumption breaks a rule at once: no moves, so no "; but then" after nothing."""
    data = {"family": "binairo", "grid": [".00.....", *["........"] * 7]}
    _puzzle, steps, ex = first_steps(data, "lookahead-1")
    assert not steps[0].data["chain"]
    assert ex.text(steps[0]) == (
        "r1c1 = 1, r1c4 = 1: if r1c1 were 0, then row 1 holds three 0s in a row; other "
        "assumptions fail likewise (r1c4 ≠ 0)"
    )


def test_grading_is_deterministic():
    puzzle = make(
        {"family": "binairo", "grid": [".11...", "..1..1", "......", ".1..1.", "...0.0", "0....."]}
    )
    first, second = grade(puzzle).to_dict(trace=True), grade(puzzle).to_dict(trace=True)
    first.pop("seconds"), second.pop("seconds")
    assert first == second


def test_joint_line_scan_ends_where_the_techniques_one_by_one_end():
    """The generator's one-pass line scan (line_closure) ends where the line's techniques, each
    used through its steps, end, on every line that still has a valid completion (partial
    solutions and random grids)."""
    import random

    from conftest import random_solution
    from grader.core.engine import apply_conclusions
    from grader.core.technique import Context

    rng = random.Random(7)
    for family, grid in (("binairo", ["." * 10] * 10), ("tango", ["." * 6] * 6)):
        puzzle = make({"family": family, "grid": grid})
        for level in ("trivial", "easy", "normal"):
            engine = Engine(puzzle.model, choose(puzzle.family, puzzle.model, level))
            scans = engine.plan.joint
            assert scans, level
            for trial in range(60):
                if trial % 2:
                    state = [rng.choice((1, 2, 3, 3, 3)) for _ in puzzle.givens]
                else:
                    solution, share = random_solution(puzzle, rng), rng.uniform(0.1, 0.6)
                    state = [1 << x if rng.random() < share else 3 for x in solution]
                for ci, scan in scans.items():
                    line = puzzle.model.constraints[ci]
                    quick = scan(Context(puzzle.model, list(state), engine), line)
                    if line.supports(state) is None:
                        continue  # no valid line: the techniques' order matters
                    assert quick is not None
                    local, progress = list(state), True
                    while progress:
                        progress = False
                        for technique in engine.plan.by_unit[ci]:
                            ctx = Context(puzzle.model, local, engine)
                            for step in technique.find_in(ctx, line):
                                changed, _ = apply_conclusions(
                                    local, step.placements, step.eliminations
                                )
                                progress |= bool(changed)
                    ended = list(state)
                    for var, mask in quick:
                        ended[var] = mask
                    assert ended == local


def test_a_wave_over_many_lines_finds_what_each_line_finds():
    """A batch technique's wave (``wave_in``: its quick per-line test, then the steps) gives
    the steps of every pending line asked one by one, in line order, and keeps pending exactly
    the lines that have steps, on random states of Binairo (with distinct lines) and signed
    Tango lines, for every technique of the family's table."""
    import random

    from conftest import random_solution
    from grader.core.technique import Context

    rng = random.Random(11)
    cases = (
        ("binairo", {"grid": ["." * 10] * 10, "rules": {"unique_lines": True}}),
        ("binairo", {"grid": ["." * 14] * 14}),
        ("tango", {"grid": ["." * 6] * 6, "signs": [[0, 0, 0, 1, "="], [2, 3, 3, 3, "x"]]}),
    )
    for family, data in cases:
        puzzle = make({"family": family, **data})
        model = puzzle.model
        engine = Engine(model, choose(puzzle.family, model, "normal"))
        batch = [t for t in engine.plan.techniques if t.batch and t.local]
        assert {t.name for t in batch} >= {"pair", "sandwich", "last-cell", "count-completion"}
        for trial in range(120):
            if trial % 3 == 0:
                state = [rng.choice((1, 2, 3, 3)) for _ in puzzle.givens]
            else:
                solution, share = random_solution(puzzle, rng), rng.uniform(0.2, 0.9)
                state = [1 << x if rng.random() < share else 3 for x in solution]
            for technique in batch:
                lines = [
                    ci for ci, c in enumerate(model.constraints) if technique.applies_to(c, model)
                ]
                pending = set(rng.sample(lines, rng.randint(1, len(lines))))
                ctx = Context(model, list(state), engine)
                one_by_one = {
                    ci: technique.steps_in(
                        Context(model, list(state), engine), model.constraints[ci]
                    )
                    for ci in sorted(pending)
                }
                wave = technique.wave_in(ctx, pending, model.constraints)
                assert wave == [s for found in one_by_one.values() for s in found]
                assert pending == {ci for ci, found in one_by_one.items() if found}
