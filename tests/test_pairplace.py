"""Pair place: file format and errors, the graph side (networkx), matchings, techniques and
their explanations, exact counts, soundness on random partial grids, generation and the shared
examples."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import EXAMPLES, make, shared
from grader import grade
from grader.core.backtrack import count_plain
from grader.core.engine import Engine
from grader.core.errors import InputError
from grader.core.exact import count_solutions
from grader.core.explain import Explainer
from grader.core.model import values_of
from grader.generation.generator import DeducibleHints, Generator, Request, generate
from grader.rating.costs import choose
from grader.rating.loading import load, puzzle_from_dict
from rules.pairplace.family import FAMILY
from rules.pairplace.graph import (
    colouring_from_table,
    colouring_problem,
    complete_graph,
    graph_figure,
    graph_from_edges,
    has_perfect_matching,
    is_one_factorization,
    table_from_colouring,
)
from rules.pairplace.matching import column_supports, matching_supports, row_adjacency
from rules.pairplace.model import PairRow
from soundness import assert_sound_run

CUBE = "AB,BC,CD,DA,EF,FG,GH,HE,AE,BF,CG,DH"
CYCLE = ["AB", "BC", "CD", "DE", "EF", "FA"]
LEVELS = ("trivial", "easy", "normal", "hard", "expert", "extreme")


def circle_method(n: int) -> list[str]:
    """A K_n table by the round-robin circle method (our own construction for the tests)."""
    letters = "ABCDEFGHIJKLMNOP"[:n]
    rows = []
    for r in range(n - 1):
        row = [""] * n
        pairs = [(r, n - 1)] + [((r - k) % (n - 1), (r + k) % (n - 1)) for k in range(1, n // 2)]
        for a, b in pairs:
            row[a], row[b] = letters[b], letters[a]
        rows.append("".join(row))
    return rows


def shared_examples() -> Path:
    return shared("pair_place_examples.json")


# -- files -------------------------------------------------------------------------------------


def test_a_k6_file_loads_with_header_letters_and_cell_names():
    puzzle = make({"family": "pairplace", "header": "ABCDEF", "grid": [".F....", *["......"] * 4]})
    model = puzzle.model
    assert (model.rows, model.cols) == (5, 6)
    assert model.name(1) == "r1cB"
    assert puzzle.givens[1] == 1 << 5  # r1cB = F
    assert model.variables[0].domain == 0b111110  # column A never holds A
    assert FAMILY.format_grid(model, puzzle.givens)[0] == ".F...."


def test_a_graph_given_as_edges_makes_a_two_row_cycle():
    edges = ["AB", "B-C", ["C", "D"], "DA"]
    puzzle = make(
        {"family": "pairplace", "header": "ABCD", "edges": edges, "grid": ["B...", "...."]}
    )
    assert puzzle.model.rows == 2
    assert puzzle.model.variables[0].domain == 0b1010  # A: B or D
    assert count_solutions(puzzle.model, puzzle.givens)[0] == 1
    assert grade(puzzle).solved


@pytest.mark.parametrize(
    ("data", "field", "words"),
    [
        ({"header": "ABCDE"}, "header", "odd number"),
        ({"header": "ABCA"}, "header", "repeats"),
        ({"header": "ABCD", "grid": ["...", "...", "..."]}, "grid", "row 1 has 3 cells"),
        ({"header": "ABCD", "grid": ["....", "...."]}, "grid", "has 2 rows, expected 3"),
        ({"header": "ABCD", "grid": ["A...", "....", "...."]}, "grid", "row 1 column A cannot"),
        ({"header": "ABCD", "grid": ["X...", "....", "...."]}, "grid", "not a header letter"),
        ({"header": "ABCD", "edges": ["AB", "CD"], "grid": ["..A."]}, "grid", "not an edge"),
        ({"header": "ABCD", "edges": ["AB", "BC", "CD"]}, "edges", "not regular"),
        ({"header": "ABCD", "edges": ["AB", "AX"]}, "edges[1]", "not a header letter"),
        ({"header": "ABCD", "edges": ["AB", "BA", "CD"]}, "edges[1]", "twice"),
        ({"header": "ABCD", "colours": 2}, "colours", "one in each row"),
        ({"header": "ABCD", "solution": ["BADC", "CDAB", "DCAB"]}, "solution", "breaks"),
        (
            {
                "header": "ABCD",
                "grid": ["B...", "....", "...."],
                "solution": ["CDAB", "BADC", "DCBA"],
            },
            "solution",
            "disagrees",
        ),
    ],
)
def test_bad_files_get_one_line_naming_the_field(data, field, words):
    with pytest.raises(InputError) as info:
        puzzle_from_dict({"family": "pairplace", **data}, "bad.json", "bad")
    message = str(info.value)
    assert message.startswith(f"bad.json: {field}: ")
    assert words in message
    assert "\n" not in message


def test_the_cli_refuses_a_bad_file_with_exit_code_2(tmp_path):
    from typer.testing import CliRunner

    from grader.cli import grade_app

    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"family": "pairplace", "header": "ABCD", "grid": ["A..."]}))
    result = CliRunner().invoke(grade_app, [str(path)])
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "grid" in lines[0]


def test_puzzle_files_round_trip_through_to_data():
    data = {
        "family": "pairplace",
        "header": "ABCDEFGH",
        "edges": CUBE.split(","),
        "grid": ["..G.....", "....A...", "......H."],
    }
    puzzle = make(data)
    again = make(FAMILY.to_data(puzzle.model, puzzle.givens))
    assert again.model.key == puzzle.model.key
    assert again.givens == puzzle.givens


# -- the graph side ----------------------------------------------------------------------------


@pytest.mark.parametrize("n", [4, 6, 8, 10])
def test_tables_and_colourings_convert_both_ways(n):
    rows = circle_method(n)
    header = "ABCDEFGHIJ"[:n]
    graph = complete_graph(header)
    colouring = colouring_from_table(header, rows)
    assert len(colouring) == n * (n - 1) // 2
    assert is_one_factorization(graph, colouring)
    assert table_from_colouring(graph, colouring) == rows
    puzzle = make({"family": "pairplace", "header": header, "grid": rows, "solution": rows})
    assert puzzle.solution is not None


def test_colouring_checks_catch_broken_tables():
    header = "ABCD"
    graph = complete_graph(header)
    good = colouring_from_table(header, ["BADC", "CDAB", "DCBA"])
    assert colouring_problem(graph, good) is None
    partial = {e: c for e, c in good.items() if e != frozenset("AB")}
    assert "has no colour" in colouring_problem(graph, partial)
    clash = dict(good)
    clash[frozenset("AB")] = 1  # colour 2 now meets A twice
    assert "not a perfect matching" in colouring_problem(graph, clash)
    with pytest.raises(ValueError, match="pairs A with B but B with C"):
        colouring_from_table(header, ["BCAD", "CDAB", "DCBA"])
    with pytest.raises(ValueError, match="own letter"):
        colouring_from_table(header, ["ABDC", "CDAB", "DCBA"])


def test_the_cube_graph_has_an_edge_colouring_from_the_family():
    header = "ABCDEFGH"
    graph = graph_from_edges(header, [tuple(e) for e in CUBE.split(",")])
    model = FAMILY.empty_model((8, 8), {"edges": CUBE})
    solution = FAMILY.random_solution(model, random.Random(1))
    rows = FAMILY.format_grid(model, [1 << v for v in solution])
    assert len(rows) == 3
    assert is_one_factorization(graph, colouring_from_table(header, rows))


def test_the_picture_shows_the_table_beside_the_coloured_graph():
    puzzle = make(FAMILY.example)
    rows = FAMILY.format_grid(puzzle.model, puzzle.givens)
    board = FAMILY.board(puzzle.model, puzzle.givens, puzzle.givens)
    assert board.header == list("ABCDEF")
    figure = graph_figure(complete_graph("ABCDEF"), "ABCDEF", rows, board, title="K6")
    table_axes, graph_axes = figure.axes
    assert len(graph_axes.collections) >= 15  # nodes plus one collection per edge
    assert table_axes.patches or table_axes.texts


# -- matchings ---------------------------------------------------------------------------------


def brute_row_supports(adj: list[int]) -> list[int] | None:
    n = len(adj)
    out = [0] * n
    found = False
    for perm in itertools.permutations(range(n)):
        if all(perm[perm[i]] == i and perm[i] != i and adj[i] >> perm[i] & 1 for i in range(n)):
            found = True
            for i in range(n):
                out[i] |= 1 << perm[i]
    return out if found else None


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([4, 6]), st.integers(0, 10**6), st.floats(0.2, 0.9))
def test_row_matching_support_equals_brute_force_and_networkx(n, seed, share):
    rng = random.Random(seed)
    adj = [0] * n
    for i, j in itertools.combinations(range(n), 2):
        if rng.random() < share:
            adj[i] |= 1 << j
            adj[j] |= 1 << i
    support = matching_supports(adj)
    assert support == brute_row_supports(adj)
    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    graph.add_edges_from((i, j) for i in range(n) for j in range(i + 1, n) if adj[i] >> j & 1)
    assert (support is not None) == has_perfect_matching(graph)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 6), st.integers(0, 10**6), st.floats(0.2, 0.9))
def test_column_support_equals_brute_force(cells, seed, share):
    rng = random.Random(seed)
    masks = [sum(1 << y for y in range(cells) if rng.random() < share) for _ in range(cells)]
    expected = [0] * cells
    ok = False
    for perm in itertools.permutations(range(cells)):
        if all(masks[c] >> perm[c] & 1 for c in range(cells)):
            ok = True
            for c in range(cells):
                expected[c] |= 1 << perm[c]
    assert column_supports(masks) == (expected if ok else None)


def test_row_adjacency_keeps_only_mutual_pairs():
    # A may hold B or C, B may hold A, C may hold D, D may hold C
    assert row_adjacency([0b0110, 0b0001, 0b1000, 0b0100]) == [0b0010, 0b0001, 0b1000, 0b0100]


def test_the_row_constraint_checks_reflexivity_and_encodes_it():
    puzzle = make({"family": "pairplace", "header": "ABCD", "grid": ["B...", "....", "...."]})
    row = next(c for c in puzzle.model.constraints if isinstance(c, PairRow))
    state = list(puzzle.givens)
    state[1] = 1 << 2  # r1cB = C while r1cA = B
    assert "pairs A with B, but B with C" in row.check(state)
    assert count_solutions(puzzle.model, state)[0] == 0


# -- exact counts ------------------------------------------------------------------------------


def test_exact_counts_match_the_known_numbers_of_k4_and_k6_tables():
    k4 = make({"family": "pairplace", "header": "ABCD"})
    assert count_solutions(k4.model, k4.givens, limit=100)[0] == 6
    assert count_plain(k4.model, k4.givens, limit=100) == 6
    k6 = make({"family": "pairplace", "header": "ABCDEF"})
    assert count_solutions(k6.model, k6.givens, limit=1000)[0] == 720  # 6 x 5!
    cycle = make({"family": "pairplace", "header": "ABCDEF", "edges": CYCLE})
    assert count_solutions(cycle.model, cycle.givens, limit=10)[0] == 2


# -- techniques --------------------------------------------------------------------------------


def run_trace(data: dict, level: str = "extreme"):
    puzzle = make(data)
    techniques = choose(FAMILY, puzzle.model, level)
    run = Engine(puzzle.model, techniques).run(puzzle.givens)
    ex = Explainer(puzzle.model, techniques)
    return puzzle, run, [(s.technique, ex.text(s)) for s in run.steps]


def test_reflexive_partner_and_backreference_explain_themselves():
    _, _, lines = run_trace(
        {"family": "pairplace", "header": "ABCDEF", "grid": [".F....", *["......"] * 4]},
        "trivial",
    )
    assert lines[0] == (
        "reflexive-partner",
        "r1cF = B: r1cB holds F, and a pair reads the same both ways",
    )
    back = next(text for name, text in lines if name == "backreference")
    assert "pair B–F is already in row 1 (r1cB = F), and every pair is used once" in back
    assert "r2cB ≠ F" in back and "r2cF ≠ B" in back


def test_an_easy_puzzle_uses_hidden_and_naked_singles_and_is_solved():
    puzzle, run, lines = run_trace(
        {
            "family": "pairplace",
            "header": "ABCDEF",
            "grid": [".F....", "E.....", "C.....", "......", ".C...."],
        },
        "easy",
    )
    assert run.solved
    assert run.state == [1 << v for v in count_solutions(puzzle.model, puzzle.givens)[1][0]]
    names = {name for name, _ in lines}
    assert {"column-hidden-single", "row-naked-single"} <= names
    naked = next(text for name, text in lines if name == "row-naked-single")
    assert "row 1 pairs B with F, so no other cell of it can hold B or F" in naked
    hidden = next(text for name, text in lines if name == "column-hidden-single")
    assert "needs" in hidden and "is the only row where it can still go" in hidden
    assert (
        not Engine(puzzle.model, choose(FAMILY, puzzle.model, "trivial")).run(puzzle.givens).solved
    )


def test_row_matching_removes_a_pair_that_strands_a_letter():
    # row 1 of K4: C can only pair with A, so A–B and A–D are impossible there
    puzzle = make({"family": "pairplace", "header": "ABCD"})
    state = list(puzzle.givens)
    state[2] = 1 << 0  # r1cC can only hold A (r1cA still open)
    technique = next(t for t in choose(FAMILY, puzzle.model) if t.name == "row-matching")
    from grader.core.technique import Context

    ctx = Context(puzzle.model, state, Engine(puzzle.model, [technique]))
    row = puzzle.model.constraints[4]
    steps = list(technique.find_in(ctx, row))
    removed = {frozenset(step.data["pair"]) for step in steps}
    assert removed == {frozenset((0, 1)), frozenset((0, 3))}
    text = Explainer(puzzle.model, [technique]).text(steps[0])
    assert "would leave C without a partner (C can only pair with A there)" in text


def test_column_pairs_and_enumeration_find_what_the_exact_search_confirms():
    rng = random.Random(4)
    model = FAMILY.empty_model((8, 8), {})
    solution = FAMILY.random_solution(model, rng)
    techniques = {t.name: t for t in choose(FAMILY, model)}
    from grader.core.technique import Context

    found = {"column-pairs": 0, "line-enumeration": 0}
    for _ in range(30):
        keep = rng.choice([0.2, 0.35, 0.5])
        state = [
            (1 << solution[v]) | sum(1 << x for x in values_of(m) if rng.random() < keep)
            for v, m in enumerate(model.initial_state())
        ]
        ctx = Context(model, state, Engine(model, list(techniques.values())))
        for name in found:
            for constraint in model.constraints:
                if not techniques[name].applies_to(constraint, model):
                    continue
                for step in techniques[name].find_in(ctx, constraint):
                    assert step.contradiction is None
                    for var, value in step.eliminations:
                        assert solution[var] != value
                    found[name] += 1
    assert all(found.values()), found


# -- soundness ---------------------------------------------------------------------------------


def partial(shape: str, seed: int, share: float):
    rng = random.Random(seed)
    header, edges = {
        "K4": ("ABCD", None),
        "K6": ("ABCDEF", None),
        "K8": ("ABCDEFGH", None),
        "C6": ("ABCDEF", "AB,BC,CD,DE,EF,FA"),
        "cube": ("ABCDEFGH", CUBE),
    }[shape]
    options = {"edges": edges} if edges else {}
    model = FAMILY.empty_model((len(header), len(header)), options)
    solution = FAMILY.random_solution(model, rng)
    grid = FAMILY.format_grid(
        model,
        [
            1 << x if rng.random() < share else model.variables[v].domain
            for v, x in enumerate(solution)
        ],
    )
    data = {"family": "pairplace", "header": header, "grid": grid}
    if edges:
        data["edges"] = edges.split(",")
    return make(data)


SOUND = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SOUND
@given(
    st.sampled_from(["K4", "K6", "K8", "C6", "cube"]), st.integers(0, 10**6), st.floats(0.0, 0.5)
)
def test_no_step_removes_a_value_of_a_solution(shape, seed, share):
    puzzle = partial(shape, seed, share)
    techniques = choose(FAMILY, puzzle.model, "hard")
    assert_sound_run(puzzle, techniques)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["K6", "K8", "cube"]), st.integers(0, 10**6), st.floats(0.1, 0.4))
def test_lookahead_steps_are_sound(shape, seed, share):
    puzzle = partial(shape, seed, share)
    assert_sound_run(puzzle, choose(FAMILY, puzzle.model, "expert"))


def test_every_step_of_the_expert_example_is_sound():
    (puzzle,) = load(str(EXAMPLES / "pairplace-k10-expert.json"))
    techniques = choose(FAMILY, puzzle.model, "expert")
    assert assert_sound_run(puzzle, techniques) > 0
    steps = Engine(puzzle.model, techniques).run(puzzle.givens).steps
    assert any(s.technique == "lookahead-1" for s in steps)


def test_contradictory_givens_are_a_report_not_a_crash():
    puzzle = make({"family": "pairplace", "header": "ABCD", "grid": ["B...", "B...", "...."]})
    result = grade(puzzle)
    assert result.solutions == 0
    assert result.level == "invalid"


# -- generation --------------------------------------------------------------------------------


def check_generated(found, level):
    puzzle = puzzle_from_dict(found.data, "generated", found.data["id"])
    count, solutions = count_solutions(puzzle.model, puzzle.givens, 2)
    assert count == 1
    assert puzzle.solution == solutions[0]
    if puzzle.model.cols <= 6:
        assert count_plain(puzzle.model, puzzle.givens) == 1
    cap = choose(FAMILY, puzzle.model, level)
    run = Engine(puzzle.model, cap).run(puzzle.givens)
    assert run.solved and run.state == [1 << v for v in solutions[0]]
    index = LEVELS.index(level)
    if index:
        below = choose(FAMILY, puzzle.model, LEVELS[index - 1])
        assert not Engine(puzzle.model, below).run(puzzle.givens).solved
    assert grade(puzzle).level == level


GENERATION = [
    ((6, 6), {}, "trivial"),
    ((6, 6), {}, "easy"),
    ((8, 8), {}, "trivial"),
    ((8, 8), {}, "easy"),
    ((8, 8), {}, "normal"),
    ((10, 10), {}, "easy"),
    ((10, 10), {}, "normal"),
    ((8, 8), {"edges": CUBE}, "trivial"),
    ((8, 8), {"edges": CUBE}, "easy"),
    ((6, 6), {"graph": "cycle"}, "trivial"),
    ((4, 4), {"graph": "cycle"}, "trivial"),
]


@pytest.mark.parametrize(("size", "options", "level"), GENERATION)
def test_generated_puzzles_are_unique_and_at_their_level(size, options, level):
    # a cycle has one puzzle with one given up to renaming the letters along the cycle
    wanted = 1 if options.get("graph") == "cycle" else 2
    request = Request("pairplace", size, level, count=wanted, seed=5, options=options)
    found = list(generate(request))
    assert len(found) == wanted
    assert len({item.key for item in found}) == wanted
    for item in found:
        check_generated(item, level)


def test_a_cycle_has_one_trivial_puzzle_up_to_renaming():
    """Asking the 6-cycle for two trivial puzzles gives one: every other is the same puzzle with
    the letters renamed along the cycle (before keys knew renamings, it gave two)."""
    request = Request("pairplace", (6, 6), "trivial", count=2, seed=5, options={"graph": "cycle"})
    assert len(list(generate(request))) == 1


def test_a_generated_k10_puzzle_at_the_hard_level_needs_enumeration():
    (found,) = generate(Request("pairplace", (10, 10), "hard", count=1, seed=3))
    check_generated(found, "hard")
    puzzle = puzzle_from_dict(found.data, "generated", "hard")
    assert any(s.technique == "line-enumeration" for s in grade(puzzle).steps)


def test_the_same_seed_gives_the_same_puzzles():
    first = [g.data for g in generate(Request("pairplace", (8, 8), "easy", count=2, seed=9))]
    again = [g.data for g in generate(Request("pairplace", (8, 8), "easy", count=2, seed=9))]
    assert first == again


def test_generation_options_are_checked():
    from grader.core.errors import FieldProblem

    with pytest.raises(FieldProblem, match="unknown option"):
        FAMILY.empty_model((6, 6), {"colour": 3})
    with pytest.raises(FieldProblem, match="needs 5"):
        FAMILY.empty_model((3, 6), {})
    with pytest.raises(FieldProblem, match="odd"):
        FAMILY.empty_model((7, 7), {})


def test_swapping_rows_keeps_the_canonical_key():
    puzzle = make(FAMILY.example)
    rows = FAMILY.format_grid(puzzle.model, puzzle.givens)
    swapped = make({**FAMILY.example, "grid": [rows[1], rows[0], *rows[2:]]})
    other = make({**FAMILY.example, "grid": [rows[0], "." * len(rows[0]), *rows[2:]]})
    key = FAMILY.canonical_key(puzzle.model, puzzle.givens)
    assert FAMILY.canonical_key(swapped.model, swapped.givens) == key
    assert FAMILY.canonical_key(other.model, other.givens) != key


# -- the shared examples -------------------------------------------------------------------------


def test_the_shared_examples_load_and_their_solutions_are_one_factorizations():
    path = shared_examples()
    document = json.loads(path.read_text(encoding="utf-8"))
    puzzles = load(str(path))
    assert len(puzzles) == len(document["puzzles"])
    for puzzle, entry in zip(puzzles, document["puzzles"], strict=True):
        assert puzzle.id == entry["id"]
        assert puzzle.solution is not None
        rows = FAMILY.format_grid(puzzle.model, [1 << v for v in puzzle.solution])
        assert rows == entry["solution"]
        header = entry["header"]
        assert is_one_factorization(complete_graph(header), colouring_from_table(header, rows))
        assert all(c.satisfied_by(puzzle.solution) for c in puzzle.model.constraints)


def test_puzzles_made_from_the_shared_solutions_are_unique_and_deducible():
    path = shared_examples()
    for index, puzzle in enumerate(load(str(path))):
        n = puzzle.model.cols
        generator = Generator(Request("pairplace", (n, n), "easy", seed=index))
        hints = DeducibleHints(
            generator, list(puzzle.solution), [], random.Random(index), generator.template
        )
        assert hints.insert()
        hints.reduce()
        assert count_solutions(puzzle.model, hints.givens)[0] == 1
        run = Engine(puzzle.model, choose(FAMILY, puzzle.model, "easy")).run(hints.givens)
        assert run.solved and run.state == [1 << v for v in puzzle.solution]


# -- the example files ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "level"),
    [
        ("pairplace.json", "easy"),
        ("pairplace-cube.json", "easy"),
        ("pairplace-cycle.json", "trivial"),
        ("pairplace-k10-expert.json", "expert"),
    ],
)
def test_example_files_are_unique_and_solved_at_their_level(name, level):
    (puzzle,) = load(str(EXAMPLES / name))
    count, solutions = count_solutions(puzzle.model, puzzle.givens)
    assert count == 1
    result = grade(puzzle)
    assert result.solved and result.level == level
    assert result.run.state == [1 << v for v in solutions[0]]
    if puzzle.solution is not None:
        assert puzzle.solution == solutions[0]
    index = LEVELS.index(level)
    if index:
        below = choose(FAMILY, puzzle.model, LEVELS[index - 1])
        assert not Engine(puzzle.model, below).run(puzzle.givens).solved


def test_the_expert_example_explains_its_lookahead():
    (puzzle,) = load(str(EXAMPLES / "pairplace-k10-expert.json"))
    result = grade(puzzle)
    ex = result.explainer()
    step = next(s for s in result.steps if s.technique == "lookahead-1")
    text = ex.text(step)
    assert text.startswith("r") and " were " in text and "; but then " in text
    rounds = step.data["rounds"]  # a deeper contradiction costs more, below lookahead-2's 9
    assert step.cost == 7.0 if rounds == 1 else 7.0 < step.cost < 9.0
    assert all(s.cost < 9.0 for s in result.steps)


def test_the_text_report_shows_the_header_above_the_rows():
    puzzle = make(FAMILY.example)
    rows = FAMILY.text_rows(puzzle.model, puzzle.givens)
    assert rows[:2] == ["ABCDEF", "------"]
    assert rows[2:] == FAMILY.format_grid(puzzle.model, puzzle.givens)


def test_the_family_figure_draws_the_solved_graph():
    puzzle = make(FAMILY.example)
    result = grade(puzzle)
    figure = FAMILY.figure(puzzle.model, result.run.state, puzzle.givens)
    graph_axes = figure.axes[1]
    _, labels = graph_axes.get_legend_handles_labels()
    assert labels == [f"row {r}" for r in range(1, 6)]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 2**7 - 1), min_size=1, max_size=6))
def test_column_supports_are_the_letters_of_some_completion(masks):
    """Régin's filtering (the column's line enumeration) keeps exactly the letters a cell takes
    in some completion with distinct letters, as trying every completion finds."""
    support = [0] * len(masks)
    completions = 0
    for letters in itertools.product(*map(values_of, masks)):
        if len(set(letters)) == len(letters):
            completions += 1
            for cell, letter in enumerate(letters):
                support[cell] |= 1 << letter
    assert column_supports(masks) == (support if completions else None)


def test_removals_outside_the_unit_are_said_to_be_mirror_images():
    """A subset of column B also takes B out of the mirror cells in other columns (a pair
    reads the same both ways): the sentence names exactly those cells, all outside the unit."""
    puzzle = load(EXAMPLES / "pairplace-k10-expert.json")[0]
    result = grade(puzzle)
    model = puzzle.model
    unit_cells = {c.label: set(c.vars) for c in model.constraints}
    explainer = Explainer(model, choose(puzzle.family, model))
    said = 0
    for step in result.steps:
        mirrors = [v for v in step.data.get("mirrors", ()) if v in dict(step.eliminations)]
        text = explainer.text(step)
        if not mirrors:
            assert "mirror cell" not in text, text
            continue
        said += 1
        assert (
            f"the mirror cell{'s' if len(mirrors) > 1 else ''} {explainer.cells(mirrors)}" in text
        )
        outside = {v for v, _ in step.eliminations} - unit_cells[step.data["unit"]]
        assert set(mirrors) == outside, text
    assert said


@pytest.mark.parametrize(
    "options",
    [("--no-steps",), (), ("--no-steps", "--techniques", "backreference")],
    ids=["no steps", "steps", "guesses"],
)
def test_solve_prints_the_column_header_above_the_rows(options):
    """The header letters name the columns: ``grader solve`` prints them above the rows, with
    or without the steps and whoever found the solution, as ``grade`` does."""
    from test_cli import run

    source = str(EXAMPLES / "pairplace.json")
    header = json.loads((EXAMPLES / "pairplace.json").read_text())["header"]
    solution = json.loads(run("grader", "solve", "--json", *options, source).stdout)["solution"]
    result = run("grader", "solve", *options, source)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    start = len(lines) - 1 - lines[::-1].index(" ".join(header))  # the last board: the end
    assert lines[start + 1] == " ".join("-" * len(header))
    assert lines[start + 2 : start + 2 + len(solution)] == [" ".join(row) for row in solution]
