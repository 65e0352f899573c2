"""Engine.settle (the generator's propagation without a record) ends where Engine.run ends."""

from __future__ import annotations

import json
import random

import pytest

from conftest import EXAMPLES, make, random_solution
from grader.core.engine import Engine
from grader.core.model import values_of
from grader.core.technique import Context
from grader.rating.costs import choose
from grader.rating.registry import families
from soundness import random_partials

SHAPES = (
    ("binairo", 8, 8, {}),
    ("binairo", 12, 10, {}),
    ("binairo", 10, 10, {"unique_lines": True}),
    ("tango", 6, 6, {}),
)


def random_states(family: str, rows: int, cols: int, rules: dict, count: int):
    """Puzzles holding a random share of a random solution's cells (as the generator builds)."""
    empty = {"family": family, "grid": ["." * cols] * rows}
    if rules:
        empty["rules"] = rules
    puzzle = make(empty)
    rng = random.Random(f"{family}{rows}{cols}{rules}")
    for _ in range(count):
        solution = random_solution(puzzle, rng)
        share = rng.uniform(0.05, 0.5)
        state = [
            1 << x if rng.random() < share else mask
            for x, mask in zip(solution, puzzle.givens, strict=True)
        ]
        yield puzzle, solution, state


@pytest.mark.parametrize(("family", "rows", "cols", "rules"), SHAPES)
@pytest.mark.parametrize("level", ["trivial", "easy", "normal", "hard"])
def test_settle_reaches_the_state_run_reaches(family, rows, cols, rules, level):
    for puzzle, solution, state in random_states(family, rows, cols, rules, 15):
        techniques = choose(puzzle.family, puzzle.model, level)
        for verify in (True, False):
            engine = Engine(
                puzzle.model, techniques, solutions=[solution], unique=False, verify=verify
            )
            run, settled = engine.run(state), engine.settle(state)
            assert (settled.status, settled.state) == (run.status, run.state)
            assert settled.steps == []
        changed = [v for v, mask in enumerate(state) if mask & (mask - 1)][:3]
        base = engine.run(puzzle.givens).state
        grown = list(base)
        for var in changed:
            grown[var] = 1 << solution[var]
        run = engine.run(grown, changed=changed)
        assert engine.settle(grown, changed=changed).state == run.state


@pytest.mark.parametrize(("family", "rows", "cols", "rules"), SHAPES)
def test_placements_shortcuts_match_the_steps(family, rows, cols, rules):
    for puzzle, _solution, state in random_states(family, rows, cols, rules, 30):
        engine = Engine(puzzle.model, choose(puzzle.family, puzzle.model, "hard"))
        for technique in engine.techniques:
            if not technique.local:
                continue
            for constraint in puzzle.model.constraints:
                if not technique.applies_to(constraint, puzzle.model):
                    continue
                quick = technique.placements_in(Context(puzzle.model, state, engine), constraint)
                if quick is None:
                    continue
                steps = list(technique.find_in(Context(puzzle.model, state, engine), constraint))
                assert all(not s.eliminations and s.contradiction is None for s in steps)
                assert set(quick) == {p for s in steps for p in s.placements}


OTHER_SHAPES = (
    ("sudoku", (4, 4), {}),
    ("sudoku", (9, 9), {}),
    ("siteswap", (4, 4), {}),
    ("siteswap", (3, 4), {"nontrivial": True, "distinct": True}),
    ("siteswap", (9, 9), {"latin": True, "boxes": True}),
    ("pairplace", (6, 6), {}),
    ("pairplace", (8, 8), {}),
    ("path", (5, 5), {}),
    ("path", (7, 7), {}),
)


@pytest.mark.parametrize(("name", "size", "options"), OTHER_SHAPES)
@pytest.mark.parametrize("level", ["easy", "hard", "expert"])
def test_settle_reaches_the_state_run_reaches_in_every_family(name, size, options, level):
    """The generator of every family propagates with settle: the end must be run's end, from
    the family's own hints too (signs, clues, doors)."""
    family = families()[name]
    template = family.empty_model(size, options)
    rng = random.Random(f"{name}{size}{level}")
    checked = 0
    for _ in range(2 if level == "expert" else 4):  # lookahead scans are slow
        for model, state, solution in random_partials(family, template, rng, 1):
            engine = Engine(model, choose(family, model, level), solutions=[solution], unique=False)
            run, settled = engine.run(state), engine.settle(state)
            assert (settled.status, settled.state) == (run.status, run.state)
            checked += 1
    assert checked == (2 if level == "expert" else 4)  # random solutions exist at this size


REMEMBERED = (
    ("tango", (6, 6), {}),
    ("binairo", (6, 6), {}),
    ("pairplace", (6, 6), {}),
    ("siteswap", (3, 4), {}),
)


@pytest.mark.parametrize(("name", "size", "options"), REMEMBERED)
def test_remembered_trials_change_no_propagation(name, size, options):
    """Lookahead skips a trial whose earlier end still fits the state and resumes one from its
    earlier end (both kept on the model): propagations that reuse them end where one from
    scratch ends, and record the same steps, as states narrow (the generator inserting hints)
    and as they jump about (the generator reducing them)."""
    family = families()[name]
    rng = random.Random(f"remembered {name}")
    template = family.empty_model(size, options)
    solution = family.random_solution(template, rng)
    template, solution = family.solution_model(template, solution)
    extras = sorted(family.extra_hints(template, solution))
    hints = [h for h in extras if rng.random() < 0.5]
    model = family.with_hints(template, hints) if hints else template
    fresh = (
        family.with_hints(template, hints)
        if hints
        else family.solution_model(family.empty_model(size, options), solution)[0]
    )
    order = list(range(len(solution)))
    rng.shuffle(order)
    states, state = [], list(model.initial_state())
    for var in order[: len(order) // 2] if family.cell_hints else ():
        state = list(state)
        state[var] = 1 << solution[var]
        states.append(family.start_state(model, state))
    states += rng.sample(states, len(states) // 2)  # and back to wider states
    states.append(family.start_state(model, model.initial_state()))

    def engine(over):
        return Engine(over, choose(family, over, "expert"), solutions=[solution], unique=False)

    def forget(over):
        for key in [k for k in over.memo if k[0:1] == ("lookahead-witnesses",)]:
            del over.memo[key]

    reused = 0
    for state in states:
        forget(fresh)
        expected = engine(fresh).settle(state)
        assert engine(model).settle(state).state == expected.state
        forget(fresh)
        expected_steps = [(s.technique, s.eliminations) for s in engine(fresh).run(state).steps]
        assert [(s.technique, s.eliminations) for s in engine(model).run(state).steps] == (
            expected_steps
        )
        reused += sum(
            len(w.trials) for k, w in model.memo.items() if k[0:1] == ("lookahead-witnesses",)
        )
    assert reused  # the memory was there to be used


def test_settle_until_stops_once_the_variables_are_decided():
    """``until`` ends the propagation once its variables are decided (status decided), and
    ``open_count`` reports and takes the number of open variables."""
    from grader.core.engine import count_open

    for puzzle, solution, state in random_states("binairo", 8, 8, {}, 10):
        engine = Engine(
            puzzle.model,
            choose(puzzle.family, puzzle.model, "normal"),
            solutions=[solution],
            unique=False,
            verify=False,
        )
        full = engine.settle(state)
        assert full.open_count == count_open(full.state)
        assert engine.settle(state, open_count=count_open(state)).state == full.state
        decided = [v for v, mask in enumerate(full.state) if mask & (mask - 1) == 0]
        opened = [v for v, mask in enumerate(state) if mask & (mask - 1)]
        targets = [v for v in opened if v in decided][:2]
        if not targets or full.solved:
            continue
        early = engine.settle(state, until=targets)
        assert early.status in ("decided", "solved")
        assert all(early.state[v] & (early.state[v] - 1) == 0 for v in targets)
        assert early.open_count == count_open(early.state)
        undecided = [v for v in opened if v not in decided][:1]
        assert engine.settle(state, until=targets + undecided).state == full.state


JOINT = (
    ("pairplace", (6, 6), {}, "hard"),
    ("pairplace", (8, 8), {}, "hard"),
    ("binairo", (8, 8), {}, "normal"),
    ("tango", (6, 6), {}, "normal"),
)


@pytest.mark.parametrize(("name", "size", "options", "level"), JOINT)
def test_joint_scans_end_where_the_techniques_one_by_one_end(name, size, options, level):
    """A line scanned as one (its techniques' joint scan) leaves the propagation where the
    techniques one by one leave it: the same end from states with a solution, and, checking
    rules as lookahead does, the same failures from states an assumption made wrong (a trial
    state), so lookahead removes the same values."""
    from dataclasses import replace

    family = families()[name]
    template = family.empty_model(size, options)
    rng = random.Random(f"joint {name}{size}")
    failed = 0
    for model, state, solution in random_partials(family, template, rng, 40):
        techniques = choose(family, model, level)
        for verify in (False, True):
            joint = Engine(model, techniques, solutions=[solution], unique=False, verify=verify)
            assert joint.plan.joint  # the lines are scanned as one
            plain = Engine(model, techniques, solutions=[solution], unique=False, verify=verify)
            plain.plan = replace(plain.plan, joint={})
            expected = plain.settle(state)
            assert joint.settle(state).state == expected.state
            if not verify:
                continue
            open_vars = [v for v, m in enumerate(state) if m & (m - 1)]
            for var in rng.sample(open_vars, min(len(open_vars), 6)):
                wrong = [x for x in values_of(state[var]) if x != solution[var]]
                trial = list(state)
                trial[var] = 1 << rng.choice(wrong)
                ended, found = plain.settle(trial), joint.settle(trial)
                assert found.status == ended.status
                if ended.status != "contradiction":
                    assert found.state == ended.state
                failed += ended.status == "contradiction"
    assert failed  # wrong assumptions that fail were among them


@pytest.mark.parametrize(
    ("family", "rows", "cols", "rules"),
    [("tango", 6, 6, {}), ("siteswap", 4, 5, {"throws": [1, 5]})],
)
def test_settle_leaves_to_lookahead_what_it_covers_and_ends_where_run_ends(
    family, rows, cols, rules
):
    """With lookahead in the table, settle skips the short contradictions (lookahead refutes
    every assumption they do): on states with a solution it ends where run (which takes them)
    ends, and a state run finds contradictory settle finds contradictory too."""
    for puzzle, solution, state in random_states(family, rows, cols, rules, 12):
        engine = Engine(puzzle.model, choose(puzzle.family, puzzle.model, "expert"), verify=True)
        skipped = {t.name for t in engine.plan.techniques if not t.local}
        skipped -= {t.name for t in engine.plan.settle_globals}
        assert skipped == {"short-contradiction"}
        run, settled = engine.run(state), engine.settle(state)
        assert (settled.status, settled.state) == (run.status, run.state)
        rng = random.Random(str(state))
        open_vars = [v for v, mask in enumerate(state) if mask & (mask - 1)]
        for var in rng.sample(open_vars, min(4, len(open_vars))):
            wrong = [x for x in values_of(state[var]) if x != solution[var]]
            trial = list(state)
            trial[var] = 1 << rng.choice(wrong)
            run, settled = engine.run(trial, changed=[var]), engine.settle(trial, changed=[var])
            assert (settled.status == "contradiction") == (run.status == "contradiction")
            if run.status != "contradiction":
                assert settled.state == run.state


def test_a_lookahead_trying_fewer_assumptions_does_not_settle_for_the_short_contradictions():
    """Path's lookahead tries cells only; the short contradictions try edges too, so a table
    holding both (as a plugin's extra techniques could make it) keeps them in settle."""
    from grader.techniques import ShortContradiction

    puzzle = make(json.loads((EXAMPLES / "path.json").read_text()))
    techniques = [*choose(puzzle.family, puzzle.model, "expert"), ShortContradiction(5.0, "hard")]
    engine = Engine(puzzle.model, techniques)
    assert "short-contradiction" in {t.name for t in engine.plan.settle_globals}


def test_settle_without_checks_survives_a_state_its_steps_empty():
    """With ``verify=False`` (for states known to have a solution) a state without one, whose
    hidden singles lose their place while settle applies them, ends without an internal error."""
    puzzle = make(
        {"family": "siteswap", "grid": ["....."] * 5, "rules": {"latin": True, "throws": [1, 5]}}
    )
    state = [4, 16, 62, 8, 8, 16, 62, 62, 32, 62, 2, 62, 62, 4, 62, 62, 32, 62, 62, 62, 62, 62]
    state += [62, 2, 8]
    engine = Engine(puzzle.model, choose(puzzle.family, puzzle.model, "expert"), verify=False)
    assert engine.settle(state, changed=[4]).status in ("contradiction", "stuck", "solved")


@pytest.mark.parametrize(
    ("family", "rows", "cols", "rules"),
    [("tango", 6, 6, {}), ("siteswap", 4, 5, {"throws": [1, 5]})],
)
def test_the_order_lookahead_tries_assumptions_in_never_changes_where_settle_ends(
    family, rows, cols, rules
):
    """Settle's lookahead tries first the assumptions whose trials failed most often before
    (counts kept on the model): whatever those counts say, it ends with the same status, in
    the same state unless that is a contradiction, from states with a solution and from wrong
    ones."""
    from grader.techniques.lookahead import Witnesses

    failed = 0
    for puzzle, solution, state in random_states(family, rows, cols, rules, 8):
        techniques = choose(puzzle.family, puzzle.model, "expert")
        rng = random.Random(str(state))
        starts = [(state, None)]
        for var in rng.sample([v for v, m in enumerate(state) if m & (m - 1)], 3):
            wrong = list(state)
            wrong[var] = 1 << rng.choice([x for x in values_of(state[var]) if x != solution[var]])
            starts.append((wrong, [var]))
        for start, changed in starts:
            ends = set()
            for shuffle in range(3):
                for key in [k for k in puzzle.model.memo if k[0:1] == ("lookahead-witnesses",)]:
                    del puzzle.model.memo[key]
                engine = Engine(puzzle.model, techniques, unique=False)
                lookahead = next(t for t in engine.plan.techniques if t.name == "lookahead-1")
                witnesses = Witnesses.of(
                    puzzle.model, engine.sub_engine(lookahead.inner(engine.techniques))
                )
                counts = random.Random(shuffle)
                if shuffle:  # counts as earlier trials could have left them
                    for kept in (witnesses.failed, witnesses.held):
                        kept.update(
                            ((v, x), counts.randrange(5))
                            for v, mask in enumerate(start)
                            for x in values_of(mask)
                        )
                settled = engine.settle(start, changed=changed)
                stopped = settled.status == "contradiction"
                ends.add((settled.status, None if stopped else tuple(settled.state)))
                failed += sum(witnesses.failed.values()) if not shuffle else 0
            assert len(ends) == 1
    assert failed  # lookahead removed values on the way


def watch_refutations_read(monkeypatch) -> list[bool]:
    """Whether each reading of the remembered depth-2 failures found one (a list that grows)."""
    from grader.techniques import lookahead

    read: list[bool] = []
    refuted_in = lookahead.refuted_in

    def counted(engine, state):
        found = refuted_in(engine, state)
        read.append(found is not None)
        return found

    monkeypatch.setattr(lookahead, "refuted_in", counted)
    return read


@pytest.mark.parametrize(
    ("family", "rows", "cols", "rules", "count"),
    [
        ("tango", 6, 6, {}, 3),
        ("binairo", 6, 6, {}, 3),
        ("siteswap", 5, 6, {"throws": [1, 5]}, 1),
    ],
)
def test_a_deeper_trial_that_decides_a_refuted_assumption_fails_as_it_would_have(
    family, rows, cols, rules, count, monkeypatch
):
    """A depth-2 lookahead remembers the assumptions that failed from the state it scans; a
    later trial from there fails as soon as its propagation decides one of them. Every trial
    ends as it ends without that memory: with the same status, and in the same state unless
    that is a contradiction. Another engine with the same techniques does not read it."""
    from grader.techniques import lookahead
    from grader.techniques.lookahead import Witnesses

    cut_short = watch_refutations_read(monkeypatch)
    refuted = 0
    for puzzle, _, root in random_states(family, rows, cols, rules, count):
        engine = Engine(puzzle.model, choose(puzzle.family, puzzle.model, "extreme"))
        deeper = next(t for t in engine.plan.techniques if t.name == "lookahead-2")
        sub = engine.sub_engine(deeper.inner(engine.techniques))
        witnesses = Witnesses.of(puzzle.model, sub)
        trials = [
            (var, value)
            for var, mask in enumerate(root)
            if mask & (mask - 1)
            for value in values_of(mask)
        ]

        def ends(trials=trials, root=root, sub=sub):
            out = []
            for var, value in trials:
                trial = list(root)
                trial[var] = 1 << value
                run = sub.settle(trial, changed=[var])
                stopped = run.status == "contradiction"
                out.append((run.status, None if stopped else run.state))
            return out

        alone = ends()
        start = list(root)
        failed = [
            t for t, (status, _) in zip(trials, alone, strict=True) if status == "contradiction"
        ]
        for var, value in failed:
            lookahead.refute(sub, start, var, value)
            refuted += 1
        assert ends() == alone
        other = engine.sub_engine(deeper.inner(engine.techniques))  # same techniques, same key
        assert Witnesses.of(puzzle.model, other) is witnesses
        assert not failed or not any(
            lookahead.refuted_in(other, [1 << value if v == var else m for v, m in enumerate(root)])
            for var, value in failed
        )
    assert refuted and any(cut_short)  # failures were remembered and cut trials short


@pytest.mark.parametrize(
    ("family", "rows", "cols", "rules", "count"),
    [("binairo", 6, 6, {}, 4), ("siteswap", 5, 6, {"throws": [1, 5]}, 1)],
)
def test_a_depth_2_scan_finds_the_step_it_finds_without_remembering_failures(
    family, rows, cols, rules, count, monkeypatch
):
    """The depth-2 scan as grade runs it: the same step (failures, chain) whether or not its
    trials use the failures found before them, which they do."""
    from grader.techniques import lookahead

    used = watch_refutations_read(monkeypatch)
    refute = lookahead.refute
    for puzzle, _, root in random_states(family, rows, cols, rules, count):
        steps = []
        for remember in (True, False):
            for key in [k for k in puzzle.model.memo if k[0:1] == ("lookahead-witnesses",)]:
                del puzzle.model.memo[key]
            monkeypatch.setattr(lookahead, "refute", refute if remember else lambda *a: None)
            engine = Engine(puzzle.model, choose(puzzle.family, puzzle.model, "extreme"))
            deeper = next(t for t in engine.plan.techniques if t.name == "lookahead-2")
            found = list(deeper.find(Context(puzzle.model, list(root), engine)))
            steps.append([(s.eliminations, s.data["chain"]) for s in found])
        assert steps[0] == steps[1]
    assert any(used)  # the trials used the failures found before them


def test_a_refuted_assumption_condemns_only_states_within_its_start():
    from grader.techniques.lookahead import refute, refuted_in

    class Stand:  # an engine, as far as the memory goes (a key it holds weakly)
        pass

    engine = Stand()
    refute(engine, [0b11, 0b11], 0, 1)
    assert refuted_in(engine, [0b10, 0b01]) == (0, 1)  # decides it, within the start
    assert refuted_in(engine, [0b10, 0b111]) is None  # a value the start had not
    assert refuted_in(engine, [0b01, 0b11]) is None  # the other value
    assert refuted_in(engine, [0b11, 0b11]) is None  # not decided
    assert refuted_in(Stand(), [0b10, 0b01]) is None  # another engine's


def _subset_of_house_techniques(model, names):
    return [t for t in choose(families()["sudoku"], model) if t.name in names]


HOUSE_SUBSET = ("hidden-single-box", "hidden-single-line", "naked-single", "naked-pair")


def test_settle_scans_a_house_again_after_a_step_that_changed_only_its_peers():
    """Without full house (which watches a house's peers), a hidden single whose cell already
    had one candidate changes only cells outside its box: settle must still try the box's
    later techniques (here a naked pair), as run does."""
    model = families()["sudoku"].empty_model((9, 9), {})
    every = model.variables[0].domain
    state = [every] * 81
    state[0] = 1 << 0  # r1c1 holds only 1; the 1 is still a candidate in r1c5
    for var in (1, 2, 9, 10, 11, 18, 19, 20):  # the rest of box 1 has no 1
        state[var] &= ~1
    state[9] = state[10] = 0b110  # r2c1 and r2c2: a naked pair {2, 3}
    engine = Engine(model, _subset_of_house_techniques(model, HOUSE_SUBSET))
    settled = engine.settle(state)
    assert all(not settled.state[var] & 0b110 for var in (18, 19, 20))  # r3c1-c3 lose 2, 3
    assert list(settled.state) == engine.run(state).state


def test_settle_ends_where_run_ends_with_house_techniques_but_no_full_house():
    """The same on random partial grids: settle ends in the state run ends in."""
    model = families()["sudoku"].empty_model((9, 9), {})
    rng = random.Random(5)
    compared = 0
    for partial, start, _ in random_partials(families()["sudoku"], model, rng, 24):
        engine = Engine(partial, _subset_of_house_techniques(partial, HOUSE_SUBSET))
        run = engine.run(start)
        if run.status == "contradiction":
            continue
        assert list(engine.settle(start).state) == run.state
        compared += 1
    assert compared >= 12
