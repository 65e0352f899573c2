"""Technique identity: a technique's name and cost come from its table row; one check of cost
names (files and Python mappings alike); ``hint`` is the first step of ``grade``."""

from __future__ import annotations

import json

import pytest
from test_cli import run

from conftest import EXAMPLES, make
from grader.rating.costs import (
    CostsError,
    SelectionError,
    build_table,
    choose,
    load_costs,
    technique_table,
)
from grader.rating.grading import GradeOptions, grade, hint
from grader.rating.registry import families

# Every family's example, plus the options that add techniques to a table.
VARIANTS = [
    {"family": "binairo", "grid": ["......"] * 6},
    {"family": "binairo", "rules": {"unique_lines": True}, "grid": ["......"] * 6},
    {"family": "siteswap", "size": [4, 4], "grid": ["...."] * 4},
    {"family": "siteswap", "rules": {"latin": True, "boxes": True}, "grid": ["........."] * 9},
    {"family": "sudoku", "size": 16, "grid": ["." * 16] * 16},  # the big-grid table
]


def tables():
    for name, family in families().items():
        yield name, family, make(family.example).model
    for data in VARIANTS:
        puzzle = make(data)
        yield data["family"], puzzle.family, puzzle.model


@pytest.mark.parametrize("name", sorted(families()))
def test_names_are_unique_in_every_table_and_built_techniques_carry_them(name):
    checked = 0
    for family_name, family, model in tables():
        if family_name != name:
            continue
        specs = technique_table(family, model)
        names = [spec.technique_name for spec in specs]
        assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)
        for spec, technique in zip(specs, build_table(family, specs), strict=True):
            assert (technique.name, technique.cost) == (spec.technique_name, spec.cost)
        checked += 1
    assert checked


def test_siteswap_lookaheads_answer_to_their_table_names():
    """Issue 13: both were named ``lookahead`` in the table, so ``-lookahead-2`` failed."""
    puzzle = make(json.loads((EXAMPLES / "siteswap_3x4.json").read_text()))
    names = {t.name for t in choose(puzzle.family, puzzle.model, "-lookahead-2")}
    assert "lookahead-1" in names and "lookahead-2" not in names
    costed = choose(puzzle.family, puzzle.model, costs={"siteswap": {"lookahead-1": 6.5}})
    assert {t.name: t.cost for t in costed}["lookahead-1"] == 6.5


def test_python_costs_mapping_applies_to_settings_and_steps():
    """``GradeOptions(costs={"window": 5})`` was read as a family named ``window``: ignored."""
    puzzle = make(json.loads((EXAMPLES / "binairo.json").read_text()))
    plain = grade(puzzle)
    assert "window" in plain.technique_counts()  # the example uses the technique
    costed = grade(puzzle, GradeOptions(costs={"window": 3.7}))
    assert costed.settings()["techniques"]["window"] == 3.7
    assert costed.technique_counts()["window"]["cost"] == 3.7
    assert costed.difficulty == 3.7
    by_family = grade(
        puzzle, GradeOptions(costs={"binairo": {"window": 4.5}, "tango": {"pair": 2}})
    )
    assert by_family.settings()["techniques"]["window"] == 4.5


@pytest.mark.parametrize(
    "costs, message",
    [
        ({"windo": 5}, "costs: windo: no such technique in any family (did you mean window?)"),
        ({"binairo": {"sign": 1}}, "costs: binairo.sign: no such technique for binairo"),
        ({"costs": {"window": 5}}, "costs: costs: no such family"),
        ({"window": "5"}, "costs: window: must be a number"),
    ],
)
def test_unknown_names_in_a_python_mapping_raise_value_error(costs, message):
    puzzle = make(json.loads((EXAMPLES / "binairo.json").read_text()))
    with pytest.raises(ValueError) as error:
        grade(puzzle, GradeOptions(costs=costs))
    assert isinstance(error.value, CostsError)
    assert str(error.value).startswith(message)


def test_a_top_level_name_of_another_family_is_accepted():
    """Top-level names apply to every family that has the technique (a sudoku x-wing does not
    stop a tango grade); a name no family has is an error."""
    puzzle = make(json.loads((EXAMPLES / "tango.json").read_text()))
    assert grade(puzzle, GradeOptions(costs={"x-wing": 3, "window": 3.5})).solved


@pytest.mark.parametrize(
    "text, message",
    [
        ("windo = 5\n", "windo: no such technique in any family (did you mean window?)"),
        ("[tango]\nwindo = 5\n", "tango.windo: no such technique for tango (did you mean window?)"),
        ("[costs]\nwindow = 5\n", "costs: no such family"),
    ],
)
def test_costs_file_problems_exit_2_naming_file_and_name(tmp_path, text, message):
    costs = tmp_path / "my-costs.toml"
    costs.write_text(text)
    tango = str(EXAMPLES / "tango.json")
    for args in (
        ("grade", "--costs", str(costs), tango),
        ("grader", "hint", "--costs", str(costs), tango),
        ("grader", "techniques", "tango", "--costs", str(costs)),
    ):
        result = run(*args)
        assert result.returncode == 2, (args, result.stdout, result.stderr)
        assert f"{costs}: {message}" in result.stderr, (args, result.stderr)


def test_a_table_of_another_family_is_checked_before_grading(tmp_path):
    """``[sudoku] window`` is wrong whatever is graded: a Tango grade, batch or generate refuses
    it with one line naming the file, the table and the technique, and writes nothing."""
    costs = tmp_path / "my-costs.toml"
    costs.write_text("[sudoku]\nwindow = 3\n")
    tango, out = str(EXAMPLES / "tango.json"), tmp_path / "out.csv"
    for args in (
        ("grade", "--costs", str(costs), tango),
        ("grader", "batch", tango, "-o", str(out), "--costs", str(costs)),
        ("grader", "generate", "tango", "--level", "easy", "--costs", str(costs)),
    ):
        result = run(*args)
        assert result.returncode == 2, (args, result.stdout, result.stderr)
        assert result.stderr.strip() == (
            f"error: {costs}: sudoku.window: no such technique for sudoku"
        ), args
        assert not result.stdout and not out.exists()


def test_a_table_may_name_a_technique_of_other_rules_of_its_family(tmp_path):
    """Latin runs give a siteswap the sudoku techniques: ``[siteswap] naked-single`` prices
    them there and is nothing to a siteswap without them."""
    costs = tmp_path / "my-costs.toml"
    costs.write_text("[siteswap]\nnaked-single = 3\n")
    table = load_costs(str(costs))
    for name in ("siteswap_sudoku.json", "siteswap_3x4.json"):
        result = grade(str(EXAMPLES / name), GradeOptions(costs=table))
        assert result.solved
        assert result.settings()["techniques"].get("naked-single") in (None, 3.0)


def test_batch_refuses_a_name_no_family_knows_before_grading(tmp_path):
    costs = tmp_path / "my-costs.toml"
    costs.write_text("windo = 5\n")
    out = tmp_path / "out.csv"
    result = run(
        "grader", "batch", str(EXAMPLES / "tango.json"), "-o", str(out), "--costs", str(costs)
    )
    assert result.returncode == 2, result.stderr
    assert f"{costs}: windo: no such technique in any family" in result.stderr
    assert "internal error" not in result.stderr and not out.exists()


def test_load_costs_keeps_the_file_for_messages(tmp_path):
    costs = tmp_path / "c.toml"
    costs.write_text("window = 5\n[tango]\nsign = 0.5\n")
    table = load_costs(str(costs))
    assert table.origin == str(costs)
    assert dict(table.every) == {"window": 5.0} and dict(table.by_family) == {
        "tango": {"sign": 0.5}
    }


def test_techniques_command_shows_the_costs_grade_uses(tmp_path):
    costs = tmp_path / "c.toml"
    costs.write_text("window = 5.5\n[tango]\nsign = 0.5\n")
    result = run("grader", "techniques", "tango", "--costs", str(costs))
    assert result.returncode == 0, result.stderr
    rows = {
        line.split("│")[1].strip(): line.split("│")[2].strip()
        for line in result.stdout.splitlines()
        if line.count("│") > 3
    }
    assert rows["window"] == "5.5" and rows["sign"] == "0.5" and rows["pair"] == "1"


# -- hint ------------------------------------------------------------------------------------

# A 4x4 Sudoku whose first step, with only the uniqueness techniques, is a unique rectangle:
# offered only when the exact search has shown the puzzle unique, as grade runs it.
UR_FIRST = {"family": "sudoku", "grid": ["2.4.", "3...", ".3..", "42.."]}


@pytest.mark.parametrize(
    "data, selection",
    [
        (UR_FIRST, "unique-rectangle,bug"),
        (UR_FIRST, None),
        (
            {
                "family": "binairo",
                "grid": [".0..1.", "01....", ".0...0", ".0.1..", ".11...", "11.0.0"],
            },
            "pair,lookahead-1,lookahead-2",
        ),
    ],
)
def test_hint_is_the_first_step_of_grade(data, selection):
    puzzle = make(data)
    options = GradeOptions(techniques=selection)
    steps, _ = hint(puzzle, options)
    assert steps and steps[0] == grade(puzzle, options).steps[0]


def test_hint_offers_a_uniqueness_step_as_grade_does(tmp_path):
    puzzle = make(UR_FIRST)
    steps, ex = hint(puzzle, GradeOptions(techniques="unique-rectangle,bug"))
    assert steps[0].technique == "unique-rectangle", ex.text(steps[0])
    assert hint(puzzle, GradeOptions(techniques="unique-rectangle,bug", exact=False))[0] == []
    path = tmp_path / "ur.json"
    path.write_text(json.dumps(UR_FIRST))
    result = run("grader", "hint", "--json", "--techniques", "unique-rectangle,bug", str(path))
    assert json.loads(result.stdout)["hint"]["technique"] == "unique-rectangle", result.stderr


def test_removing_what_only_another_family_has_removes_nothing() -> None:
    """A selection for files of several families (``-x-wing`` is a sudoku technique): a
    binairo keeps its defaults, or loses only its own names; a name no family has is refused."""
    puzzle = make(json.loads((EXAMPLES / "binairo.json").read_text()))

    def names(selection: str | None) -> set[str]:
        return {t.name for t in choose(puzzle.family, puzzle.model, selection)}

    assert names("-x-wing") == names(None)
    assert names("-x-wing,-pair") == names(None) - {"pair"}
    assert names("-x-wing,pair") == names(None)  # starts from the defaults, as "-" does
    with pytest.raises(SelectionError, match="teleport"):
        names("-teleport")
